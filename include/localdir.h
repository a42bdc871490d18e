/*
 * localdir.h - a target that is a local directory: what the fileio and
 * null backends open for each -D DIR, the one place that makes and
 * removes DIR/clients, and the rule that a client opens only files of
 * its own (below).
 *
 * Opening checks that DIR is a directory we can open, makes DIR/clients
 * (or takes over one an earlier run left), locks it against another run
 * (flock(), shared with the other ranks of an MPI run: the lock goes with
 * the last process holding the descriptor, so a dead run holds none) and
 * holds descriptors of both.
 * DIR/clients must be a real directory: a symbolic link at that name is
 * refused, never followed.  The descriptors are closed when the target is
 * freed.  Knows nothing of the driver or of operations.
 */
#ifndef DBENCH_LOCALDIR_H
#define DBENCH_LOCALDIR_H

#include <sys/stat.h>
#include <sys/types.h>
#include <talloc.h>

#include "backend.h"

/* backend.target_open for a local directory `dir`: NULL and *err (on
 * mem_ctx, naming the directory) when it cannot be used. */
struct backend_target *localdir_open(TALLOC_CTX *mem_ctx, const char *dir,
				     const struct backend_options *opts, char **err);

/* backend.target_close: remove the empty directories in DIR/clients (the
 * clients' own, which their cleanup empties and leaves: one process
 * removing them all is quick where a thousand each removing its own
 * queue on DIR/clients), then DIR/clients if that left it empty.  0 when
 * it is gone or still holds something; else the errno. */
int localdir_close(struct backend_target *t);

/* backend.target_space: the room left on DIR/clients' file system
 * (fstatvfs). */
int localdir_space(struct backend_target *t, struct backend_space *sp);

/* backend.local_clients_fd: the open descriptor of DIR/clients. */
int localdir_clients_fd(const struct backend_target *t);

/* Why directory `name` in `dirfd` could not be opened with O_DIRECTORY |
 * O_NOFOLLOW (errno `err`), for a message: for ELOOP and ENOTDIR, what is
 * there instead ("not a directory (a symbolic link?)", "not a directory
 * but a regular file"), else strerror(err). */
const char *localdir_strerror_at(int dirfd, const char *name, int err);

/* ---- a client's own files ----
 *
 * A client writes only through files it made in this run (doc/DESIGN.md,
 * "Safety"), so that nothing another process plants in its directory
 * leads a write out of the target.  A file is refused, and left as it
 * was, when
 *   - it has more than one link: a hard link to a file elsewhere;
 *   - it belongs to neither the user running dbench nor the owner of the
 *     client's directory (the same, unless the file system maps users as
 *     NFS's root_squash does);
 *   - it is neither a regular file nor a directory (a device or a FIFO);
 *   - it is not what the name led to a moment before the open (another
 *     file was swapped in between the lookup and the open).
 * What a descriptor refers to cannot change, so the check is made once,
 * on what was opened, before anything is written: a truncation asked
 * for by the open comes after it.  Every backend that opens local files
 * by name (fileio, and the system-call dialect's replay) opens them with
 * localdir_open_own(); one that changes a file by name without opening
 * it checks an fstatat() of it with localdir_not_own() first.
 */

/* Who a client's files may belong to. */
struct localdir_owners {
	uid_t uid[2];	/* the user running dbench; the client directory's owner */
};

/* The owners of the files a client makes in directory `client_fd`. */
void localdir_owners(struct localdir_owners *o, int client_fd);

/*
 * Why the file of `st` is not the client's own, as the detail of its
 * failure ("refused: it has 2 links ..."), written to why[len]; NULL when
 * it is.  `seen`, when not NULL, is what the name led to before the open
 * (st_mode 0 for nothing).
 */
const char *localdir_not_own(const struct stat *st, const struct stat *seen,
			     const struct localdir_owners *o, char *why, size_t len);

/*
 * openat(dirfd, leaf, flags, mode) for a client, through nothing but a
 * file of its own: O_NOFOLLOW and O_NONBLOCK are added (a FIFO planted
 * there must not hold the client in open()), O_TRUNC is left out of the
 * open and done by ftruncate() once the file is known to be the client's
 * (on a file that holds anything).  *st gets the fstat of what was
 * opened (the one fstat dbench 4.0 makes after every open).  Returns the
 * descriptor, -errno, or -BACKEND_REFUSED with why[len] set (nothing
 * was written): a symbolic link at `leaf` itself is refused so, as a link
 * ("refused: it is a symbolic link ..."), not as ELOOP.
 */
int localdir_open_own(int dirfd, const char *leaf, int flags, mode_t mode,
		      const struct localdir_owners *o, const struct stat *seen,
		      struct stat *st, char *why, size_t len);

#endif
