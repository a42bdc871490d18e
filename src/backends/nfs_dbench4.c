/*
 * nfs_dbench4.c - dbench 4's operations over NFS (nfs_internal.h): each
 * as the NFS calls a client would make for it (NTCreateX a LOOKUP or a
 * CREATE, ReadX a READ, Flush a COMMIT ...), on the trace's handles;
 * --verify's records kept as fileio keeps them.  Locks need NFSv4.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/time.h>

#include "backends/nfs_internal.h"

int nfsb_ntcreatex(struct backend_client *bc, const struct op *op)
{
	int flags = backend_open_flags(op->a[1]);
	struct nfs_file f = { 0 };
	bool is_file = false;
	int err;

	if (flags < 0)
		return EINVAL;
	if (op->a[0] & NT_DIRECTORY_FILE) {
		enum nfs3_kind kind = NFS3_KIND_DIR;
		if (flags & O_CREAT)
			(void)nfsb_mkdir_path(bc, op);
		if (!bc->c3)
			err = nfsb_is_dir(bc->nfs, nfsb_path(bc, op, false));
		else if ((err = nfsb3_object(bc, op, &f.h3, &kind)) == 0 && kind != NFS3_KIND_DIR &&
			 kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
	} else {
		err = nfsb_file_open(bc, op, flags, &f, &is_file);
	}
	bool keep = err == 0 && op->status == NT_OK && op->handle < bc->nh;
	verify_ntcreatex(bc->verify, keep ? op->handle : VERIFY_NO_HANDLE, op->path,
			 err ? VERIFY_OPEN_FAILED : is_file ? VERIFY_OPENED_FILE : VERIFY_OPENED_OTHER,
			 (flags & O_TRUNC) != 0);
	if (!keep) {
		nfsb_file_close(bc, &f);
		return err;
	}
	nfsb_handle_close(bc, &bc->h[op->handle]);
	bc->h[op->handle] = (struct nfs_handle){ f, true, is_file };
	return 0;
}

int nfsb_closeop(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h)
		return EBADF;
	int rc = h->f.fh ? nfs_close(bc->nfs, h->f.fh) : 0;
	h->f.fh = NULL;
	nfsb_handle_close(bc, h);
	return nfsb_rc(rc);
}

int nfsb_rename(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *from, *to;
	const char *from_leaf, *to_leaf;
	int err;

	nfsb_cached_drop(bc, op->path);
	nfsb_cached_drop(bc, op->path2);
	if (bc->c3) {
		err = nfsb3_parent(bc, op, false, &from, &from_leaf);
		struct nfs3_handle from_h = err ? (struct nfs3_handle){ 0 } : *from;
		if (err == 0)
			err = nfsb3_parent(bc, op, true, &to, &to_leaf);
		if (err == 0)
			err = nfs3_rename(bc->c3, &from_h, from_leaf, to, to_leaf);
		nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
		nfsb3_forget(bc, op->path2, false);
	} else {
		err = nfsb_rc(nfs_rename(bc->nfs, nfsb_path(bc, op, false), nfsb_path(bc, op, true)));
	}
	if (err == 0 && bc->verify)
		verify_rename(bc->verify, op->path, op->path2, nfsb_is_dir_op(bc, op, true) == 0);
	return err;
}

int nfsb_unlink(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	int err;

	nfsb_cached_drop(bc, op->path);
	if (!bc->c3)
		err = nfsb_rc(nfs_unlink(bc->nfs, nfsb_path(bc, op, false)));
	else if ((err = nfsb3_parent(bc, op, false, &dir, &leaf)) == 0)
		err = nfs3_remove(bc->c3, dir, leaf);
	return err;
}

int nfsb_rmdir_op(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	int err;

	if (!bc->c3)
		return nfsb_rc(nfs_rmdir(bc->nfs, nfsb_path(bc, op, false)));
	err = nfsb3_parent(bc, op, false, &dir, &leaf);
	if (err == 0)
		err = nfs3_rmdir(bc->c3, dir, leaf);
	if (err == 0)
		nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
	return err;
}

int nfsb_mkdir_op(struct backend_client *bc, const struct op *op)
{
	int err = nfsb_mkdir_path(bc, op);

	/* \clients is every client's: that it exists is no failure */
	return err == EEXIST && (op->flags & OPF_CLIENTS_DIR) ? 0 : err;
}

int nfsb_deltree(struct backend_client *bc, const struct op *op)
{
	nfsb_cached_drop(bc, op->path);
	int err = nfsb_rmtree_op(bc, op);
	nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
	return err == ENOENT ? 0 : err;
}

int nfsb_qfileinfo(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	return h ? nfsb_file_getattr(bc, &h->f) : EBADF;
}

int nfsb_fsstat(struct backend_client *bc, const struct op *op)
{
	struct nfs_statvfs_64 sv;

	(void)op;
	if (bc->c3)
		return nfs3_fsstat(bc->c3, &bc->root);
	return nfsb_rc(nfs_statvfs64(bc->nfs, bc->dir, &sv));
}

int nfsb_sfileinfo(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);
	struct timeval tv[2];

	if (!h)
		return EBADF;
	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	tv[0].tv_sec -= 10;
	tv[1].tv_sec -= 12;
	if (bc->c3)
		return nfs3_set_times(bc->c3, &h->f.h3, (uint32_t)tv[0].tv_sec, (uint32_t)tv[1].tv_sec);
	return nfsb_rc(nfs_utimes(bc->nfs, nfsb_path(bc, op, false), tv));
}

int nfsb_findfirst(struct backend_client *bc, const struct op *op)
{
	if (!(op->flags & OPF_WILDCARD))
		return nfsb_getattr_path(bc, op);
	return nfsb_list(bc, op, true, op->leaf, op->a[1] > 0 ? op->a[1] : INT64_MAX);
}

int nfsb_readx(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h || !h->is_file)
		return EBADF;
	size_t n = 0;
	/* the data is looked at only to verify it */
	int err = nfsb_io(bc, &h->f, op, (uint64_t)op->a[0], false, bc->verify ? bc->buf : NULL, &n);
	if (err == 0 && bc->verify &&
	    verify_check(bc->verify, op->handle, (uint64_t)op->a[0], bc->buf, n) != 0)
		return EILSEQ;
	return err;
}

int nfsb_writex(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h || !h->is_file)
		return EBADF;
	if (bc->verify)
		verify_fill(bc->verify, op->handle, (uint64_t)op->a[0], bc->buf, (size_t)op->a[1]);
	size_t n = 0;
	int err = nfsb_io(bc, &h->f, op, (uint64_t)op->a[0], true, bc->buf, &n);
	if (bc->verify && n > 0)
		verify_wrote(bc->verify, op->handle, (uint64_t)op->a[0], n);
	if (err == 0 && bc->opts.fsync_writes)
		err = nfsb_file_commit(bc, &h->f);
	return err;
}

int nfsb_lockx(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	if (!h || !h->f.fh)
		return EBADF;
	return nfsb_lock_fh(bc, h->f.fh, (uint64_t)op->a[0], (uint64_t)op->a[1],
			   op->type == OP_LOCKX ? F_WRLCK : F_UNLCK);
}

int nfsb_flush(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h)
		return EBADF;
	return h->is_file ? nfsb_file_commit(bc, &h->f) : 0;
}
