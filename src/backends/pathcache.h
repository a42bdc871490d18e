/*
 * pathcache.h - which of a fixed number of slots holds each file a client
 * keeps open by path, and which slot a file opened anew takes.  Paths are
 * the program's interned strings, compared by pointer.
 *
 * A path's home slot is a hash of its pointer; a file opened anew takes
 * it, and whatever file held it gives way, unless that file is pinned (it
 * holds a lock, which closing it would release): then the path takes a
 * free slot, or else an unpinned file's, and lookups of paths kept away
 * from home (rare) look at every slot.  Only when every slot is pinned is
 * there no room.
 *
 * Owns the slot bookkeeping only; the caller keeps what is open in an
 * array of its own, indexed by slot, and closes what a slot held before
 * it is reused.  Used by the nfs backend for its NFS dialect's files;
 * knows nothing of NFS.
 */
#ifndef DBENCH_PATHCACHE_H
#define DBENCH_PATHCACHE_H

#include <stdbool.h>

#define PATHCACHE_SLOTS 64

struct pathcache {
	const char *path[PATHCACHE_SLOTS];	/* NULL: the slot is free */
	bool pinned[PATHCACHE_SLOTS];		/* set by the caller: do not close */
	unsigned away;				/* paths outside their home slot */
};

/* The slot holding `path`, or -1. */
int pathcache_find(const struct pathcache *pc, const char *path);

/* The slot `path` (held by none) should take, or -1 when every slot is
 * pinned.  The caller closes what pc->path[slot] names there, if
 * anything, then records the outcome with pathcache_set(). */
int pathcache_pick(const struct pathcache *pc, const char *path);

/* `slot` now holds `path`, unpinned (NULL: it is free). */
void pathcache_set(struct pathcache *pc, int slot, const char *path);

#endif
