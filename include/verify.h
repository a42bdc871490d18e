/*
 * verify.h - --verify: the data pattern every WriteX writes, one
 * client's record of which bytes of which file hold it, so that a ReadX
 * can be checked, and the glue between it and the backends, in one place.
 *
 * The pattern is a function of a 64-bit key and the file offset alone.
 * Each 64-byte block b of a file has a base, splitmix64's output number
 * b + 1 seeded with the key; its 8-byte word j is the base XOR j times
 * splitmix64's increment, stored little-endian (one mix per block, not
 * per word, halves the cost of making and checking it).  So every byte of
 * a file has one expected value, whatever the sizes and alignments of the
 * writes that put it there, and writing a range twice under one key
 * writes the same bytes.  A key belongs to one generation of one file of one client:
 * a file gets a fresh key when it is created or truncated, and keeps it
 * when renamed.
 *
 * The bookkeeping mirrors the file system as the client's own operations
 * change it, and it is told of a change only once the system call has
 * succeeded.  A file record is an inode: its key and the ranges written
 * under that key, a sorted list of disjoint, non-touching extents.  Names
 * (client-relative paths, which must outlive the state: the program's
 * interned paths do) and open handles refer to records; a record lives
 * while it has a name or a handle, so a file that was unlinked or renamed
 * over while open is still checked through the handle.  Whatever the
 * client cannot know (a file it did not create, a directory renamed, a
 * tree deleted) is forgotten rather than guessed, so the check has no
 * false positives: only bytes this client wrote and has not since
 * truncated or removed are compared.
 *
 * In steady state nothing is allocated: records, extent arrays and the
 * name table keep their capacity when they are emptied.
 */
#ifndef DBENCH_VERIFY_H
#define DBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#define VERIFY_NO_HANDLE UINT32_MAX
#define VERIFY_DETAIL_MAX 192	/* a mismatch's description, NUL included */
#define VERIFY_SHOW_BYTES 16	/* bytes of each side a mismatch shows */

/* Work done by verification; also the layout of the shared stats. */
struct verify_tally {
	uint64_t bytes_checked;	/* ReadX bytes compared with the pattern */
	uint64_t reads_checked;	/* ReadX operations that compared any */
	uint64_t mismatches;	/* ReadX operations that found a difference */
	uint64_t ns;		/* generating and comparing patterns */
};

struct verify;

/* ---- the pattern ---- */

/* The key of generation `gen` of a file of client `client`. */
uint64_t verify_key(unsigned client, uint64_t gen);

/* The pattern of `key` for the bytes [off, off + len) into buf. */
void verify_pattern(uint64_t key, uint64_t off, void *buf, size_t len);

/* ---- one client's state ---- */

/*
 * State for client `client` (1-based), whose program uses handle slots
 * 0 .. nhandles-1 and names about npaths distinct paths (a sizing hint).
 * NULL when out of memory.
 */
struct verify *verify_new(TALLOC_CTX *mem_ctx, unsigned client, unsigned nhandles,
			  size_t npaths);

/* ---- what the client did to the namespace (after it succeeded) ---- */

/*
 * `path` was opened as a regular file, into `handle` (VERIFY_NO_HANDLE
 * when the descriptor is not kept).  `truncated`: the open emptied or
 * created it (O_TRUNC), so it starts a new generation.  A name not known
 * yet gets a new record with nothing written.
 */
void verify_open(struct verify *v, unsigned handle, const char *path, bool truncated);

void verify_close(struct verify *v, unsigned handle);

/* `from` was renamed to `to`.  A file's record moves to the new name;
 * a directory's files (is_dir) are forgotten under both names. */
void verify_rename(struct verify *v, const char *from, const char *to, bool is_dir);

/* The name `path` was removed (its record lives on while handles hold it). */
void verify_unlink(struct verify *v, const char *path);

/* `path` and every name beneath it were removed ("" is the client
 * directory: everything). */
void verify_forget_tree(struct verify *v, const char *path);

/* ---- data ---- */

/* The bytes a WriteX of [off, off + len) through `handle` must write. */
void verify_fill(struct verify *v, unsigned handle, uint64_t off, void *buf, size_t len);

/* [off, off + len) was written through `handle` with verify_fill()'s bytes. */
void verify_wrote(struct verify *v, unsigned handle, uint64_t off, size_t len);

/*
 * A ReadX through `handle` put the file's bytes [off, off + len) in buf:
 * compare those the client wrote with the pattern.  0, or EILSEQ on a
 * difference, described by verify_failure_detail().
 */
int verify_check(struct verify *v, unsigned handle, uint64_t off, const void *buf,
		 size_t len);

/* ---- the glue: what is the same for every backend ----
 *
 * The client module (run/client.c) owns a client's state, makes it when
 * the run has --verify and the backend checks data (backend.h), hands it
 * to the backend's client_new(), and tells it of what every backend does
 * alike; a backend tells it only what takes the backend's own knowledge
 * (what an NTCreateX opened, whether a renamed name is a directory, the
 * bytes of a ReadX or WriteX).  Each function here does nothing when v is
 * NULL (no --verify). */

/* How an NTCreateX ended, for verify_ntcreatex(). */
enum verify_opened {
	VERIFY_OPEN_FAILED,	/* failed: nothing about the name can be trusted */
	VERIFY_OPENED_FILE,	/* opened a regular file */
	VERIFY_OPENED_OTHER,	/* opened a directory, or anything but a file */
};

/*
 * An NTCreateX of `path` ended as `what`.  `handle` is the slot its
 * descriptor is kept in (VERIFY_NO_HANDLE when it is not), whose earlier
 * file is closed; `truncated`: the open emptied or created the file.
 */
void verify_ntcreatex(struct verify *v, unsigned handle, const char *path,
		      enum verify_opened what, bool truncated);

struct op;

/*
 * Operation `op` ended with `err` (0 or an errno): a Close forgets its
 * handle, a successful Unlink its name, a successful Rmdir and every
 * Deltree (a failed one may have removed part of the tree) everything
 * beneath.  Each only forgets, so a backend's own outcome never makes a
 * false mismatch.
 */
void verify_after(struct verify *v, const struct op *op, int err);

/* "data mismatch at offset N: expected .. found .." when the last
 * verify_check() found a difference not asked about yet, else NULL;
 * asking clears it. */
const char *verify_failure_detail(struct verify *v);

/* The work done since the last call, which starts a new count. */
struct verify_tally verify_drain(struct verify *v);

/* At the end of a pass: every handle closed. */
void verify_pass_end(struct verify *v);

/* At the end of the run: every handle closed and the client directory
 * removed, so everything in it forgotten. */
void verify_cleanup(struct verify *v);

#endif
