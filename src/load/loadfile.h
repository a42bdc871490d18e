/*
 * loadfile.h - reading a loadfile and compiling it into a program.
 *
 * A loadfile is text, one operation per line (doc/DESIGN.md, "Loadfile").
 * It is read once, in the parent, and compiled into a `struct program`: an
 * array of decoded operations whose paths are already client-relative and
 * whose trace handles are already small slot numbers.  A client replays
 * the array and never looks at the text again; after fork the program is
 * shared copy-on-write and treated as read-only.
 *
 * Everything a program holds hangs off the program itself on the talloc
 * tree, so talloc_free(program) releases all of it.
 *
 * Errors come back as values: a talloc string "FILE:LINE: what is wrong"
 * (or "FILE: what is wrong" for whole-file problems) for the caller to
 * print.  Nothing here prints or exits.
 */
#ifndef DBENCH_LOADFILE_H
#define DBENCH_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "load/ops.h"

/* Limits the parser enforces; documented in dbench(1). */
#define LOADFILE_MAX_LINE 4096			/* bytes in one line */
#define LOADFILE_MAX_BYTES (192L * 1024 * 1024)	/* decompressed file size */
#define LOADFILE_MAX_OPS 3000000		/* operations in the file */
#define LOADFILE_PIPE_WAIT_S 10			/* for a pipe's first bytes */
#define LOADFILE_MAX_HANDLES 4096		/* handles open at once */

#define HANDLE_NONE UINT16_MAX	/* op names no open handle (expected to fail) */
#define DIR_NONE UINT16_MAX	/* path is the client dir or "\clients": no parent in dirs[] */
#define LOADFILE_MAX_DIRS (UINT16_MAX - 1)

/* op.flags */
#define OPF_CLIENTS_DIR 0x01	/* path is "\clients" itself, not beneath the client */
#define OPF_WILDCARD	0x02	/* FIND_FIRST pattern holds * ? < > or " */
#define OPF_DBENCH3	0x04	/* line had no status column (dbench 3 form) */
#define OPF_TIMED	0x08	/* line had a leading timestamp */

/*
 * One compiled operation.  `a` holds the numeric arguments in loadfile
 * order, leaving out paths and handles:
 *   NTCreateX   a[0] create_options  a[1] disposition
 *   Unlink      a[0] attributes
 *   ReadX/WriteX a[0] offset  a[1] size  a[2] expected return
 *   LockX/UnlockX a[0] offset  a[1] length
 *   QUERY_PATH_INFORMATION, QUERY_FILE_INFORMATION, QUERY_FS_INFORMATION,
 *   SET_FILE_INFORMATION  a[0] level
 *   FIND_FIRST  a[0] level  a[1] max count  a[2] expected count
 */
struct op {
	uint8_t type;		/* enum op_type */
	uint8_t status;		/* enum nt_status expected */
	uint8_t flags;		/* OPF_* */
	uint16_t handle;	/* slot 0..max_handles-1, or HANDLE_NONE */
	uint32_t line;		/* line number in the loadfile, from 1 */
	int32_t fnum;		/* the trace's own handle number, for messages */
	double timestamp;	/* seconds since the pass started, when OPF_TIMED */
	const char *path;	/* client-relative, '/'-separated; "" = the client dir;
				 * for an op on an open handle, the file it was opened
				 * on (for messages only: leaf and dir stay unset) */
	const char *path2;	/* Rename's new name, else NULL */
	const char *leaf;	/* last component of path ("" for the client dir) */
	const char *leaf2;	/* last component of path2 */
	uint16_t dir;		/* index in program.dirs of path's parent, or DIR_NONE */
	uint16_t dir2;		/* the same for path2 */
	int64_t a[3];
};

struct program {
	const char *source;	/* file name as given, or "(built-in)" */
	char sha256[65];	/* SHA-256 of the (decompressed) text, in hex */
	struct op *ops;
	size_t nops;
	unsigned max_handles;	/* most handles open at once during a pass */
	bool timed;		/* some line has a timestamp */
	uint64_t count[OP_COUNT];	/* operations of each type */
	uint64_t bytes_read;	/* ReadX bytes in one pass */
	uint64_t bytes_written;	/* WriteX bytes in one pass */
	size_t npaths;		/* distinct paths named */
	const char **dirs;	/* distinct parent directories, client-relative; */
	size_t ndirs;		/* dirs[0] is always "", the client dir itself */
};

/*
 * Compile loadfile text.  `name` is used in messages.  `text` need not be
 * NUL-terminated and may hold NUL bytes (which are rejected).  On success
 * returns a program allocated on mem_ctx; on failure NULL, with *err set to
 * a message allocated on mem_ctx (NULL if even that found no memory) and
 * errno to ENOMEM when memory ran out (not the file's fault), else to
 * another value.
 */
struct program *loadfile_compile(TALLOC_CTX *mem_ctx, const char *name,
				 const char *text, size_t len, char **err);

/*
 * Read and compile the file at `path`, a regular file or a pipe (see
 * LOADFILE_PIPE_WAIT_S); gzip input (by its magic bytes) is decompressed
 * transparently.  Same result conventions as loadfile_compile().
 */
struct program *loadfile_read(TALLOC_CTX *mem_ctx, const char *path, char **err);

/* The loadfile built into the binary (loadfiles/default.txt). */
struct program *loadfile_default(TALLOC_CTX *mem_ctx, char **err);

/* The text of the built-in loadfile and its length. */
extern const char default_loadfile_text[];
extern const char default_loadfile_end[];

/*
 * The summary `dbench --check-loadfile` prints, allocated on mem_ctx:
 * operations, one "NAME COUNT" line per type, bytes per pass, handles,
 * paths and directories.
 */
char *loadfile_summary(TALLOC_CTX *mem_ctx, const struct program *prog);

#endif
