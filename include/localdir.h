/*
 * localdir.h - a target that is a local directory: what the fileio and
 * null backends open for each -D DIR, and the one place that makes and
 * removes DIR/clients.
 *
 * Opening checks that DIR is a directory we can open, makes DIR/clients
 * (or takes over one an earlier run left), locks it against another run
 * (flock(), shared with the other ranks of an MPI run: the lock goes with
 * the last process holding the descriptor, so a dead run holds none) and
 * holds descriptors of both.
 * DIR/clients must be a real directory: a symbolic link at that name is
 * refused, never followed.  The descriptors are closed when the target is
 * freed.  Knows nothing of the driver, of clients or of operations.
 */
#ifndef DBENCH_LOCALDIR_H
#define DBENCH_LOCALDIR_H

#include <talloc.h>

#include "backend.h"

/* backend.target_open for a local directory `dir`: NULL and *err (on
 * mem_ctx, naming the directory) when it cannot be used. */
struct backend_target *localdir_open(TALLOC_CTX *mem_ctx, const char *dir,
				     const struct backend_options *opts, char **err);

/* backend.target_close: remove DIR/clients if the clients left it empty.
 * 0 when it is gone or still holds something; else the errno. */
int localdir_close(struct backend_target *t);

/* backend.local_clients_fd: the open descriptor of DIR/clients. */
int localdir_clients_fd(const struct backend_target *t);

/* Why a directory could not be opened with O_DIRECTORY | O_NOFOLLOW
 * (errno `err`), for a message: "not a directory (a symbolic link?)" for
 * ELOOP and ENOTDIR, else strerror(err). */
const char *localdir_strerror(int err);

#endif
