/*
 * locks.h - the file locks of a recording as the kernel keeps them, for
 * the compiler of the system-call dialect (syscalls.c); private to
 * src/load/.
 *
 * Three kinds, as Linux has them.  A flock(2) lock belongs to an open
 * file description (dup and fork share it) and ends at its last close.  A
 * POSIX record lock (fcntl F_SETLK, F_SETLKW) belongs to a process and
 * ends when that process closes any descriptor of the file, or exits.  An
 * OFD lock (F_OFD_SETLK, F_OFD_SETLKW) is a byte range like a POSIX lock
 * but belongs to an open file description, as a flock lock does.  flock
 * locks never meet the other two; POSIX and OFD locks conflict with each
 * other even within one process.  Two locks conflict when they are on
 * the same file, of different owners, overlap, and one is exclusive.
 *
 * A file is an identity the model keeps for each path (by the caller's
 * index): a rename moves it, a link shares it, an unlink leaves the path
 * to a new one.  A blocking request that conflicts waits (locks_wait()),
 * and is granted, in the order of the keys, once nothing it conflicts
 * with is held (locks_granted()).  It knows nothing of streams, lines or descriptor
 * numbers: the caller names descriptions and processes by its own small
 * numbers, and a waiter by a cookie.
 */
#ifndef DBENCH_LOAD_LOCKS_H
#define DBENCH_LOAD_LOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

enum lock_kind { LOCK_KIND_FLOCK, LOCK_KIND_POSIX, LOCK_KIND_OFD };

#define LOCKS_EOF INT64_MAX	/* a range's end "to the end of the file" */

/* A lock asked for or held. */
struct lock_req {
	uint8_t kind;		/* enum lock_kind */
	bool excl;		/* LOCK_EX, F_WRLCK; else shared */
	uint32_t owner;		/* the description (flock, OFD) or process (POSIX) */
	uint32_t file;		/* locks_file()'s identity */
	int64_t lo, hi;		/* the bytes [lo, hi); flock: [0, LOCKS_EOF) */
};

struct locks;

/* An empty model on mem_ctx, or NULL. */
struct locks *locks_new(TALLOC_CTX *mem_ctx);

/* ---- files ---- */

/* The identity of the file at path index `path` now; 0 when memory ran
 * out. */
uint32_t locks_file(struct locks *l, uint32_t path);

/* A file no path names (O_TMPFILE); 0 when memory ran out. */
uint32_t locks_anonymous_file(struct locks *l);

/* The name `path` is gone (unlink, rmdir, rename's source). */
void locks_unlinked(struct locks *l, uint32_t path);

/* rename: `to` names what `from` named, which names nothing; with
 * `exchange` (RENAME_EXCHANGE) the two swap.  link: both name it.  False
 * when memory ran out. */
bool locks_renamed(struct locks *l, uint32_t from, uint32_t to, bool exchange);
bool locks_linked(struct locks *l, uint32_t from, uint32_t to);

/* ---- open file descriptions ---- */

/* Description `desc` (the caller's number for it: each new one larger
 * than the last) is opened on `file`, with one descriptor; false when
 * memory ran out. */
bool locks_desc_open(struct locks *l, uint32_t desc, uint32_t file);

/* One more descriptor of description `desc` (dup, fork). */
void locks_desc_ref(struct locks *l, uint32_t desc);

uint32_t locks_desc_file(const struct locks *l, uint32_t desc);

/* The flock lock description `desc` holds: -1 none, 0 shared, 1
 * exclusive. */
int locks_flock_of(const struct locks *l, uint32_t desc);

/* Whether process `proc` closing a descriptor of `desc` ends a lock, or
 * leaves one the description holds to its last close. */
bool locks_close_matters(const struct locks *l, uint32_t proc, uint32_t desc);

/* Process `proc` closes a descriptor of `desc`: its POSIX locks on the
 * file end, and at the description's last descriptor its flock and OFD
 * locks. */
void locks_close(struct locks *l, uint32_t proc, uint32_t desc);

/* Whether process `proc` holds a POSIX lock; locks_exit() ends them. */
bool locks_proc_holds(const struct locks *l, uint32_t proc);
void locks_exit(struct locks *l, uint32_t proc);

/* ---- requests ---- */

/* Whether r conflicts with a lock another owner holds. */
bool locks_conflict(const struct locks *l, const struct lock_req *r);

/* r's owner holds r (over whatever it held in r's range); false when
 * memory ran out. */
bool locks_set(struct locks *l, const struct lock_req *r);

/* r's owner lets go of what it holds in r's range (flock: its lock);
 * true when it held something there.  False in *oom when memory ran
 * out. */
bool locks_unset(struct locks *l, const struct lock_req *r, bool *oom);

/* r waits, named by `cookie`, granted before waiters of a larger key;
 * false when memory ran out. */
bool locks_wait(struct locks *l, const struct lock_req *r, uint32_t cookie, double key);

/* How many requests wait. */
size_t locks_waiting(const struct locks *l);

/* The next waiter of a key up to max_key that conflicts with nothing
 * held now, its lock set as held: true and its cookie; false when there
 * is none (or memory ran out: *oom). */
bool locks_granted(struct locks *l, double max_key, uint32_t *cookie, bool *oom);

/* The next waiter still waiting, taken from the queue and given its lock
 * whatever it conflicts with: true and its cookie, false when none is
 * left. */
bool locks_force_next(struct locks *l, uint32_t *cookie, bool *oom);

#endif
