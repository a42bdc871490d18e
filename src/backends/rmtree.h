/*
 * rmtree.h - removing a local directory tree: a Deltree, a client's
 * cleanup, the emptying of its directory between passes of a recording.
 *
 * The walk never follows a symbolic link and never enters another mount
 * (a bind mount of the same file system included): each directory is
 * opened with openat2(RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS) or, where
 * the kernel lacks it, with O_NOFOLLOW and a comparison of the mount ids
 * (statx) of the directory and its parent.
 *
 * It holds at most RMTREE_OPEN directories open at once, whatever the
 * depth: deeper, the outermost open one is closed, and is opened again
 * through ".." of its child when the walk comes back to it, which must be
 * the very directory it closed (device and inode), or the walk stops
 * there (the tree was moved while it was being removed).  A directory
 * opened again is read from its start; what could not be removed in it
 * is passed over.
 *
 * With RMTREE_RESTORE, a directory that belongs to one of the owners
 * (the user running dbench, the client directory's owner: the run made
 * it) and lacks its owner's read, write or search permission (a replay
 * of chmod 0555, as Go's module cache does) gets them back before it is
 * read and emptied.  Knows nothing of operations or clients.
 */
#ifndef DBENCH_BACKENDS_RMTREE_H
#define DBENCH_BACKENDS_RMTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <talloc.h>

#include "localdir.h"

#define RMTREE_OPEN 16		/* directories open at once, at most */
#define RMTREE_DENTS 8192	/* the getdents64 buffer of each open one */

enum rmtree_flags {
	RMTREE_KEEP = 1,	/* leave `name` itself, emptied */
	RMTREE_RESTORE = 2,	/* give the owners' directories u+rwx back first */
	RMTREE_DIR_ONLY = 4,	/* `name` must be a directory: ENOENT or ENOTDIR */
};

/* Where the first entry that could not be removed is named, for a
 * message: its path from `parent` ("client1/pkg/f"), as much as fits. */
struct rmtree_left {
	char *path;		/* the caller's buffer, or NULL for none */
	size_t len;
};

/*
 * Remove `name` in directory `parent` and everything beneath it, as
 * `flags` say; a name that is not a directory (a file, a planted link)
 * is unlinked itself, and one already gone is success.  `owners` are
 * those of RMTREE_RESTORE (NULL without it).  Its memory, at most
 * rmtree_mem() bytes at once besides the names of the directories it is
 * in, is on mem_ctx and freed before it returns.  0, or the first errno
 * met, the entry it was met at in *left when not NULL (a subdirectory
 * that is another mount is left with EXDEV).
 */
int rmtree_at(TALLOC_CTX *mem_ctx, int parent, const char *name, unsigned flags,
	      const struct localdir_owners *owners, struct rmtree_left *left);

/*
 * Open subdirectory `name` of `parent` to read it, without following a
 * symbolic link and without crossing into another mount (-EXDEV for a
 * mount point).  A descriptor or -errno.
 */
int rmtree_open_dir(int parent, const char *name);

/* The most memory rmtree_at() holds for a tree `depth` levels deep. */
size_t rmtree_mem(size_t depth);

#endif
