/*
 * nfs_internal.h - what the files of the nfs backend share (it is one
 * module, nfs.so, built from nfs.c and the nfs_*.c beside it): a target
 * (an export), a client's state, and each file's functions, lowest first.
 * A file calls only those of the files above it in this list, never one
 * below (tests/shell/test_layers.sh finds a circle).  Private to the nfs
 * backend.
 */
#ifndef DBENCH_BACKENDS_NFS_INTERNAL_H
#define DBENCH_BACKENDS_NFS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <nfsc/libnfs.h>

#include "backend.h"
#include "nfs3.h"
#include "backends/netsys.h"
#include "backends/pathcache.h"

#define NFS_PATH_MAX (LOADFILE_MAX_LINE + 64)
#define NFS_DIR_SLOTS 256		/* NFSv3 directory handles kept per client */
#define NFS_RMTREE_DEPTH 64
/* libnfs 4.0 encodes an NFSv4 WRITE into a request buffer of 4 KiB,
 * whatever its size, and fails one that does not fit (before sending
 * it: the call returns -1, which reads as EPERM); 5.0 sizes the buffer
 * to the write (libnfs commit 483be17).  So NFSv4 writes go in pieces
 * that fit. */
#define NFS4_WRITE_PIECE 3072

struct backend_target {
	const char *url;		/* as given */
	const char *server;
	const char *export;
	int version;			/* 3 or 4 */
	int timeout;			/* --nfs-timeout, seconds a call may wait */
	struct nfs_context *nfs;	/* the parent's mount */
	pid_t owner;			/* the process that mounted it */
};

/*
 * An open file or directory: over NFSv4 libnfs' open file (none for a
 * directory), over NFSv3 its handle.
 */
struct nfs_file {
	struct nfsfh *fh;		/* NFSv4 */
	struct nfs3_handle h3;		/* NFSv3 */
};

/* An open object of a trace handle. */
struct nfs_handle {
	struct nfs_file f;
	bool open;
	bool is_file;			/* else a directory */
};

/* An NFSv3 directory handle, of program.dirs[dir]. */
struct nfs_dir_slot {
	struct nfs3_handle h;		/* len 0: free */
	uint16_t dir;
};

struct backend_client {
	struct nfs_context *nfs;
	struct nfs3_conn *c3;		/* NFSv3's handle calls, else NULL */
	const struct program *prog;
	struct backend_options opts;
	int version;
	char name[40];			/* "clientN" */
	char dir[64];			/* "/clients/clientN" */
	char path[NFS_PATH_MAX], path2[NFS_PATH_MAX];
	struct nfs_handle *h;		/* [max_handles] */
	unsigned nh;
	/* the NFS dialect's files, by path: slots pinned once locked */
	struct pathcache cache;
	struct nfs_file cached[PATHCACHE_SLOTS];
	/* NFSv3: the export's root, its clients directory and ours (len 0
	 * until looked up), and the directories beneath ours */
	struct nfs3_handle root, clients, self;
	uint16_t *dir_slot;		/* [ndirs]: 1 + its slot, 0 for none */
	struct nfs_dir_slot slots[NFS_DIR_SLOTS];
	unsigned hand;			/* the next slot to take */
	char *buf;			/* reads and writes */
	size_t buflen;
	char *pattern;			/* [buflen] WRITEPATTERN's text over and over, or NULL */
	struct offset_state ost;
	struct verify *verify;
	struct netsys *sys;		/* a recording's replay (the system-call dialect), or NULL */
};

/* libnfs' status (0 or a negative errno) as 0 or a positive errno. */
static inline int nfsb_rc(int rc)
{
	return rc < 0 ? -rc : 0;
}

/* ---- nfs_mount.c: mounts ---- */

/* A context mounted on url, each call waiting `timeout` seconds at most,
 * or NULL and *err. */
struct nfs_context *nfsb_connect(TALLOC_CTX *mem_ctx, const char *url, int timeout,
				 struct nfs_url **parsed, char **err);

/* What is wrong with a port libnfs would take from URL's query (nfsport=,
 * mountport=): a line on mem_ctx, or NULL when each is 1 to 65535. */
char *nfsb_port_problem(TALLOC_CTX *mem_ctx, const char *url);

/* 0 when path is a directory of the mounted export, else ENOTDIR or why
 * not. */
int nfsb_is_dir(struct nfs_context *nfs, const char *path);

/* ---- nfs_path4.c: NFSv4's paths ---- */

/* The export path of op's first (second) path, in bc->path (path2). */
const char *nfsb_path(struct backend_client *bc, const struct op *op, bool second);

/* Remove path and everything beneath it, never following a link. */
int nfsb4_rmtree(struct backend_client *bc, const char *path, int depth);

/* ---- nfs_handles.c: the handles kept between operations ---- */

/* NFSv3: the handle of /clients, of the client's own directory, of the
 * directory holding op's first (second) path with the name in it, and
 * of op's path itself with what it is; 0 or an errno. */
int nfsb3_clients(struct backend_client *bc, const struct nfs3_handle **out);
int nfsb3_self(struct backend_client *bc, const struct nfs3_handle **out);
int nfsb3_parent(struct backend_client *bc, const struct op *op, bool second,
		 const struct nfs3_handle **dir, const char **leaf);
int nfsb3_object(struct backend_client *bc, const struct op *op, struct nfs3_handle *out,
		 enum nfs3_kind *kind);

/* NFSv3: forget the directory handles at or beneath client-relative
 * `path` (all for ""; /clients too with clients_dir); after a stale
 * reply, every handle kept for a name. */
void nfsb3_forget(struct backend_client *bc, const char *path, bool clients_dir);
void nfsb3_revalidate(struct backend_client *bc);

/* An open file: closed, its attributes asked, committed, opened by op's
 * path with `flags` (*is_file false for a directory). */
void nfsb_file_close(struct backend_client *bc, struct nfs_file *f);
int nfsb_file_getattr(struct backend_client *bc, const struct nfs_file *f);
int nfsb_file_commit(struct backend_client *bc, const struct nfs_file *f);
int nfsb_file_open(struct backend_client *bc, const struct op *op, int flags,
		   struct nfs_file *f, bool *is_file);

/* The open object of op's trace handle (NULL for none), and its close. */
struct nfs_handle *nfsb_handle_of(struct backend_client *bc, const struct op *op);
void nfsb_handle_close(struct backend_client *bc, struct nfs_handle *h);

/* op's read or write of a[1] bytes at off through f, held to the bytes
 * the row expects (a dbench 4 row; an NFS row takes what comes). */
int nfsb_io(struct backend_client *bc, const struct nfs_file *f, const struct op *op,
	    uint64_t off, bool write, char *buf, size_t *done);

/* An NFSv4 lock (F_WRLCK) or unlock (F_UNLCK) of len bytes at off (0:
 * to the end); BACKEND_NOT_SUPPORTED over NFSv3. */
int nfsb_lock_fh(struct backend_client *bc, struct nfsfh *fh, uint64_t off, uint64_t len,
		 int type);

/* An NFS-dialect file by path, opened (with `flags` added) once into
 * bc->cached[*slot]; and the cached files at or beneath a path
 * forgotten. */
int nfsb_cached_file(struct backend_client *bc, const struct op *op, int flags, int *slot);
void nfsb_cached_drop(struct backend_client *bc, const char *path);

/* ---- nfs_names.c: operations on names ---- */

int nfsb_mkdir_path(struct backend_client *bc, const struct op *op);
int nfsb_is_dir_op(struct backend_client *bc, const struct op *op, bool second);
int nfsb_getattr_path(struct backend_client *bc, const struct op *op);
int nfsb_rmtree_op(struct backend_client *bc, const struct op *op);
int nfsb_list(struct backend_client *bc, const struct op *op, bool parent, const char *pattern,
	      int64_t max);
int nfsb_remove_own(struct backend_client *bc);

/* ---- nfs_dbench4.c: dbench 4's operations ---- */

int nfsb_ntcreatex(struct backend_client *bc, const struct op *op);
int nfsb_closeop(struct backend_client *bc, const struct op *op);
int nfsb_rename(struct backend_client *bc, const struct op *op);
int nfsb_unlink(struct backend_client *bc, const struct op *op);
int nfsb_rmdir_op(struct backend_client *bc, const struct op *op);
int nfsb_mkdir_op(struct backend_client *bc, const struct op *op);
int nfsb_deltree(struct backend_client *bc, const struct op *op);
int nfsb_qfileinfo(struct backend_client *bc, const struct op *op);
int nfsb_fsstat(struct backend_client *bc, const struct op *op);
int nfsb_sfileinfo(struct backend_client *bc, const struct op *op);
int nfsb_findfirst(struct backend_client *bc, const struct op *op);
int nfsb_readx(struct backend_client *bc, const struct op *op);
int nfsb_writex(struct backend_client *bc, const struct op *op);
int nfsb_lockx(struct backend_client *bc, const struct op *op);
int nfsb_flush(struct backend_client *bc, const struct op *op);

/* ---- nfs_dialect.c: the NFS dialect ---- */

int nfsb3_setattr(struct backend_client *bc, const struct op *op);
int nfsb3_access(struct backend_client *bc, const struct op *op);
int nfsb3_readlink(struct backend_client *bc, const struct op *op);
int nfsb3_rw(struct backend_client *bc, const struct op *op);
int nfsb3_create(struct backend_client *bc, const struct op *op);
int nfsb3_symlink(struct backend_client *bc, const struct op *op);
int nfsb3_link(struct backend_client *bc, const struct op *op);
int nfsb3_readdirplus(struct backend_client *bc, const struct op *op);
int nfsb3_commit(struct backend_client *bc, const struct op *op);
int nfsb4_lock(struct backend_client *bc, const struct op *op);

/* ---- nfs_sys.c: a recording's calls ---- */

/* The requests netsys.c makes them with, a pass's start (an empty
 * client directory holding the initial state), and one call. */
extern const struct netsys_proto nfsb_sys_proto;
int nfsb_sys_start(struct backend_client *bc);
int nfsb_syscall(struct backend_client *bc, const struct op *op);

/* ---- nfs_target.c: the exports ---- */

const char **nfsb_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err);
struct backend_target *nfsb_target_open(TALLOC_CTX *mem_ctx, const char *spec,
					const struct backend_options *opts, char **err);
int nfsb_target_close(struct backend_target *t);
int nfsb_target_space(struct backend_target *t, struct backend_space *sp);
size_t nfsb_target_describe(const struct backend_target *t, struct dockey_value *f);
unsigned nfsb_check_program(const struct program *prog, const struct backend_options *opts,
			    char **report);

#endif
