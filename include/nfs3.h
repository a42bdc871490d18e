/*
 * nfs3.h - NFSv3 calls on file handles, one at a time, over a mounted
 * libnfs context: the nfs backend's fast path.
 *
 * libnfs' path calls (nfs_open, nfs_stat64 ...) look up every component
 * of a path on every call; a client that keeps the handles of its
 * directories and open files sends one RPC per operation instead, as a
 * kernel client with a warm dentry cache does and as dbench 5.0 does from
 * its handle table.  This module sends those RPCs (libnfs' rpc_nfs3_*
 * layer) and waits for each reply, within the context's timeout: a call
 * never hangs, and once the connection is lost every later call fails at
 * once with EIO.
 *
 * It knows handles and names, never paths: which handle a name resolves
 * to, and when that goes stale, is the caller's business (the nfs
 * backend's nfs_handles.c), which nfs3_take_stale() tells of.  Every call
 * returns 0 or a positive errno (the NFS3 status as an errno).  A
 * protocol helper (src/proto/): it knows no backend.
 */
#ifndef DBENCH_NFS3_H
#define DBENCH_NFS3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <talloc.h>

#define NFS3_HANDLE_MAX 64	/* NFS3_FHSIZE */

/* A file handle, by value. */
struct nfs3_handle {
	uint32_t len;		/* 0: none */
	unsigned char data[NFS3_HANDLE_MAX];
};

/* What a LOOKUP, GETATTR or directory entry says an object is. */
enum nfs3_kind { NFS3_KIND_UNKNOWN, NFS3_KIND_FILE, NFS3_KIND_DIR, NFS3_KIND_OTHER };

struct nfs_context;
struct nfs3_conn;

/* The calls over `nfs` (mounted over NFSv3, owned by the caller and
 * outliving the result), on mem_ctx; NULL when out of memory. */
struct nfs3_conn *nfs3_conn_new(TALLOC_CTX *mem_ctx, struct nfs_context *nfs);

/* The handle of the mounted export's root. */
int nfs3_root(struct nfs3_conn *c, struct nfs3_handle *root);

/* Whether a reply said NFS3ERR_STALE (a handle sent names an object
 * that is gone) since the last time this was asked: the handles the
 * caller keeps may be stale. */
bool nfs3_take_stale(struct nfs3_conn *c);

/* ---- names in a directory ---- */

/* `name` in `dir`: its handle (out may be NULL) and what it is. */
int nfs3_lookup(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name,
		struct nfs3_handle *out, enum nfs3_kind *kind);
/* Create file `name` in `dir` (UNCHECKED: an existing file is opened),
 * emptied when `truncate`; its handle in *out. */
int nfs3_create(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name,
		bool truncate, struct nfs3_handle *out);
int nfs3_mkdir(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name);
int nfs3_remove(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name);
int nfs3_rmdir(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name);
int nfs3_rename(struct nfs3_conn *c, const struct nfs3_handle *from_dir, const char *from,
		const struct nfs3_handle *to_dir, const char *to);

/* READDIRPLUS all of `dir`: visit(arg, name, kind) for each entry ("."
 * and ".." too) until it returns false.  visit must send no call. */
int nfs3_readdir(struct nfs3_conn *c, const struct nfs3_handle *dir,
		 bool (*visit)(void *arg, const char *name, enum nfs3_kind kind), void *arg);

/* ---- objects ---- */

int nfs3_getattr(struct nfs3_conn *c, const struct nfs3_handle *fh, enum nfs3_kind *kind);
/* Set the access and modification times (seconds since the epoch). */
int nfs3_set_times(struct nfs3_conn *c, const struct nfs3_handle *fh, uint32_t atime,
		   uint32_t mtime);
int nfs3_fsstat(struct nfs3_conn *c, const struct nfs3_handle *fh);

/* Read up to `size` bytes at `off` into buf (in calls of the server's
 * largest read at most); *done is what came back, short at the end of
 * the file.  A NULL buf lets the data go where it arrived, uncopied. */
int nfs3_read(struct nfs3_conn *c, const struct nfs3_handle *fh, uint64_t off, size_t size,
	      char *buf, size_t *done);
/* Write size bytes (UNSTABLE, as a client with a page cache does); *done
 * is what the server took. */
int nfs3_write(struct nfs3_conn *c, const struct nfs3_handle *fh, uint64_t off, size_t size,
	       const char *buf, size_t *done);
int nfs3_commit(struct nfs3_conn *c, const struct nfs3_handle *fh);

#endif
