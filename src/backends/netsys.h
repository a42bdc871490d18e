/*
 * netsys.h - the system-call dialect replayed over a network file
 * protocol, for the smb and nfs backends (private to src/backends/).
 *
 * A recorded call becomes the protocol's nearest request: open and
 * openat an open or a create, read and write (and their p/v forms) a
 * read or write at the offset this module keeps for the descriptor,
 * fstat, stat and lstat an attribute query, getdents64 a listing of the
 * directory, rename, unlink, mkdir, rmdir, fsync, ftruncate, chmod,
 * utimensat, statfs their requests; dup, lseek, fcntl's F_SETFD and
 * F_GETFL, fork and exec only change the replay's own descriptor table,
 * as they change only the process's in the recorded program.  A call
 * the protocol has no counterpart for (fallocate, the xattr calls, flock
 * and fcntl's locks; fsync, link, symlink, readlink and chown where the
 * protocol's client library lacks them) returns BACKEND_NOT_SUPPORTED:
 * the run counts it per call as not performed and says so in its table
 * (netsys_can() tells --check-loadfile the same in advance).
 *
 * The protocol's side is a table of requests (struct netsys_proto) that
 * each backend fills; paths handed to it are client-relative ("" the
 * client's directory, never holding ".."), which the backend puts
 * beneath its client's directory.  The streams of a client call
 * netsys_op() from threads of their own: one mutex makes their calls
 * one at a time, as the protocol libraries' sessions need.  It knows
 * nothing of the stats, the timing or how a backend reaches its server.
 */
#ifndef DBENCH_BACKENDS_NETSYS_H
#define DBENCH_BACKENDS_NETSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "backend.h"
#include "loadfile.h"

/* What an attribute query says. */
struct netsys_attr {
	uint64_t size;
	uint32_t mode;		/* with its S_IFMT bits */
};

/*
 * A protocol's requests, each on client `bc`: 0 or a positive errno.  A
 * NULL entry (among those marked optional) is a request the protocol
 * cannot make: the calls needing it are not supported.
 */
struct netsys_proto {
	/* Open `path` with open(2)'s flags (O_ACCMODE, O_CREAT, O_EXCL,
	 * O_TRUNC), *file its handle; or, opened read-only without O_CREAT,
	 * find a directory there: *dir true and no handle (a directory is
	 * named by its path); else EISDIR for one. */
	int (*open)(struct backend_client *bc, const char *path, int flags, uint32_t mode,
		    void **file, bool *dir);
	void (*close)(struct backend_client *bc, void *file);
	int (*pread)(struct backend_client *bc, void *file, uint64_t off, size_t len, char *buf,
		     size_t *done);
	int (*pwrite)(struct backend_client *bc, void *file, uint64_t off, size_t len,
		      const char *buf, size_t *done);
	int (*fstat)(struct backend_client *bc, void *file, struct netsys_attr *a);
	/* `follow`: a symbolic link at the end of path is followed */
	int (*stat)(struct backend_client *bc, const char *path, bool follow,
		    struct netsys_attr *a);
	int (*ftruncate)(struct backend_client *bc, void *file, uint64_t len);
	int (*fsync)(struct backend_client *bc, void *file);			/* optional */
	/* List the directory at path: visit(arg, name) for every entry,
	 * "." and ".." too. */
	int (*list)(struct backend_client *bc, const char *path,
		    void (*visit)(void *arg, const char *name), void *arg);
	int (*mkdir)(struct backend_client *bc, const char *path, uint32_t mode);
	int (*rmdir)(struct backend_client *bc, const char *path);
	int (*unlink)(struct backend_client *bc, const char *path);
	int (*rename)(struct backend_client *bc, const char *from, const char *to);
	int (*link)(struct backend_client *bc, const char *from, const char *to);	/* optional */
	int (*symlink)(struct backend_client *bc, const char *target, const char *path); /* optional */
	/* its target's length in *len */
	int (*readlink)(struct backend_client *bc, const char *path, size_t *len); /* optional */
	int (*chmod)(struct backend_client *bc, const char *path, uint32_t mode);
	/* the replaying user's own owner and group set again */
	int (*chown)(struct backend_client *bc, const char *path, bool follow);	/* optional */
	/* the times set to now */
	int (*utimes)(struct backend_client *bc, const char *path);
	int (*statfs)(struct backend_client *bc, const char *path);
	/* access(2)'s mode; NULL: an attribute query stands for it */
	int (*access)(struct backend_client *bc, const char *path, int mode);	/* optional */
};

struct netsys;

/* The replay state of client `bc` over `proto` (both outliving it), on
 * mem_ctx; NULL when out of memory.  The caller makes the first pass's
 * initial state with netsys_pass_start(). */
struct netsys *netsys_new(TALLOC_CTX *mem_ctx, const struct program *prog,
			  const struct netsys_proto *proto, struct backend_client *bc);

/* About how much memory netsys_new() and its calls hold for prog
 * (backend.h client_mem()). */
size_t netsys_mem(const struct program *prog);

/* Whether `proto` can replay op (a call of the dialect) at all. */
bool netsys_can(const struct netsys_proto *proto, const struct op *op);

/* For check_program(): how many calls of prog `proto` cannot replay,
 * with a line per call appended to *report naming backend `name`; and a
 * line for initial-state symbolic links it cannot make (not counted:
 * no call). */
unsigned netsys_check_program(const struct netsys_proto *proto, const char *name,
			      const struct program *prog, char **report);

/* Perform one call, as sysio_op() does (sysio.h): 0 when it returned what
 * the recording says, a positive errno, BACKEND_OTHER_RESULT,
 * BACKEND_SKIPPED, or BACKEND_NOT_SUPPORTED. */
int netsys_op(struct netsys *s, const struct op *op);

/* A new pass: close what is open, then make the initial state in the
 * client's directory, which the caller has emptied.  Symbolic links the
 * protocol cannot make are left out (netsys_check_program() says so).
 * 0 or a positive errno. */
int netsys_pass_start(struct netsys *s);

/* Close every descriptor of the replay. */
void netsys_close_all(struct netsys *s);

#endif
