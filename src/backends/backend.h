/*
 * backend.h - the operation vtable a client drives.
 *
 * A backend carries out compiled loadfile operations against some storage.
 * `fileio` does it with local system calls; later backends (NFS through
 * libnfs, SMB through libsmbclient) plug in the same way.  The client
 * module owns timing, pacing and the comparison of outcomes with the
 * loadfile's expected status; a backend only performs one operation and
 * says whether the system call(s) succeeded.
 *
 * Confinement (DESIGN.md section 6) is the backend's duty: everything it
 * touches lies beneath DIR/clients/clientN, except that an operation whose
 * path is "\clients" itself (OPF_CLIENTS_DIR) names DIR/clients.  Paths are
 * resolved relative to directory descriptors, never following a symbolic
 * link.
 */
#ifndef DBENCH_BACKEND_H
#define DBENCH_BACKEND_H

#include <stdbool.h>
#include <talloc.h>

#include "load/loadfile.h"
#include "backends/verify.h"

/* Options that change what a backend does (DESIGN.md section 3). */
struct backend_options {
	bool sync_open;		/* -s: open files O_SYNC */
	bool sync_dir;		/* -S: fdatasync the parent dir after unlink, rmdir, rename */
	bool fsync_writes;	/* -F: fsync after every write */
	bool xattr;		/* -x: dbench 4.0's DOS attribute xattr traffic */
	bool no_resolve;	/* --no-resolve: no case-insensitive name lookup */
	bool ranked;		/* an MPI run: client dirs are rank<R>-client<N> */
	unsigned rank;		/* ... and this is R */
	bool verify;		/* --verify: WriteX writes a pattern that ReadX checks */
	bool fake_io;		/* --fake-io: ReadX/WriteX move no data, as in 4.0 */
	bool one_byte_write_fix;	/* --one-byte-write-fix: 4.0's, see fileio_writex */
};

struct backend_client;	/* one client's state: handles, directory cache */

/* What one talloc allocation costs beyond its size: its header and the
 * rounding, rounded up. */
#define BACKEND_ALLOC_OVERHEAD 128

struct backend {
	const char *name;

	/*
	 * Optional: called once in the parent before any client process is
	 * forked, to set up what every client may share (fileio maps one
	 * zero-filled I/O buffer for all of them).  What it maps belongs to
	 * mem_ctx.  0 or a positive errno.
	 */
	int (*prepare)(TALLOC_CTX *mem_ctx, const struct program *prog);

	/*
	 * Prepare client `id` (1-based).  `clients_dirfd` is an open
	 * descriptor of DIR/clients (the driver has made it and checked it
	 * is a real directory); the client's directory beneath it is
	 * named by backend_client_name().  The state is allocated on mem_ctx and closes its
	 * descriptors when freed.  On failure NULL and *err (on mem_ctx).
	 */
	struct backend_client *(*client_new)(TALLOC_CTX *mem_ctx, int clients_dirfd,
					     unsigned id, const struct program *prog,
					     const struct backend_options *opts,
					     char **err);

	/*
	 * Optional: about how many bytes client_new() and the operations
	 * after it hold on mem_ctx at most at once, counting
	 * BACKEND_ALLOC_OVERHEAD for each allocation, so that a client
	 * process can give its clients one pool of that size (client.c).
	 * What grows with the run (--verify's records) may fall outside it.
	 */
	size_t (*client_mem)(const struct program *prog, const struct backend_options *opts);

	/*
	 * Perform one operation, indexed by op->type.  Returns 0 when it
	 * succeeded and a positive errno value when it failed.  A ReadX or
	 * WriteX that moved a byte count other than the loadfile's expected
	 * return fails with EIO; a FIND_FIRST that found no match fails with
	 * ENOENT.
	 */
	int (*op[OP_COUNT])(struct backend_client *bc, const struct op *op);

	/*
	 * Optional: what the operation just performed, which failed, has to
	 * say beyond its errno, or NULL; asking clears it.  Under --verify a
	 * ReadX that read wrong data fails with EILSEQ and says here where
	 * and what ("data mismatch at offset N: expected .. found .."): such
	 * a failure is an error whatever status the loadfile expected.
	 */
	const char *(*failure_detail)(struct backend_client *bc);

	/* Optional, for --verify: the verification work done since the last
	 * call (see verify.h), which starts a new count. */
	struct verify_tally (*verify_drain)(struct backend_client *bc);

	/* Close every handle still open: called at the end of each pass. */
	void (*pass_end)(struct backend_client *bc);

	/*
	 * Remove the client's directory and everything in it, never
	 * following a symbolic link.  0 or a positive errno.
	 */
	int (*cleanup)(struct backend_client *bc);
};

extern const struct backend fileio_backend;
extern const struct backend null_backend;

/* The name of client `id`'s directory beneath DIR/clients: "client<id>",
 * or "rank<R>-client<id>" in an MPI run, so that ranks sharing one network
 * filesystem never meet. */
void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id);

/* The backend called `name` ("fileio", "null"), or NULL. */
const struct backend *backend_by_name(const char *name);

#endif
