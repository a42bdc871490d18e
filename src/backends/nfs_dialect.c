/*
 * nfs_dialect.c - dbench 5.0's NFS dialect over NFS (nfs_internal.h):
 * its calls by path, each file opened once and kept in one of the
 * client's slots (a file opened into a slot another holds closes that
 * one, never one that holds a lock); ACCESS3, READLINK3, SYMLINK3 and
 * LINK3 through libnfs' path calls; LOCK4, UNLOCK4 and TEST4 over NFSv4
 * alone.  The rows it shares with dbench 4's operations (MKDIR3,
 * REMOVE3, GETATTR3 ...) are nfs_dbench4.c's and nfs_names.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

#include "backends/nfs_internal.h"

int nfsb3_setattr(struct backend_client *bc, const struct op *op)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	if (bc->c3) {
		struct nfs3_handle h;
		enum nfs3_kind kind;
		int err = nfsb3_object(bc, op, &h, &kind);
		return err ? err : nfs3_set_times(bc->c3, &h, (uint32_t)tv[0].tv_sec,
						  (uint32_t)tv[1].tv_sec);
	}
	int rc = nfs_utimes(bc->nfs, nfsb_path(bc, op, false), tv);
	/* libnfs' NFSv4 SETATTR by path opens what it changes, which a
	 * directory refuses: beyond what it can express */
	if (rc == -EISDIR)
		return BACKEND_NOT_SUPPORTED;
	return nfsb_rc(rc);
}

int nfsb3_access(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_access(bc->nfs, nfsb_path(bc, op, false), R_OK));
}

int nfsb3_readlink(struct backend_client *bc, const struct op *op)
{
	char *target = NULL;
	int rc = nfs_readlink2(bc->nfs, nfsb_path(bc, op, false), &target);

	free(target);
	return nfsb_rc(rc);
}

int nfsb3_rw(struct backend_client *bc, const struct op *op)
{
	uint64_t off = loadfile_offset(bc->prog, op, &bc->ost);
	bool write = op->type == OP_WRITE3;
	int slot, err = nfsb_cached_file(bc, op, 0, &slot);

	if (err)
		return err;
	const struct nfs_file *f = &bc->cached[slot];
	size_t n;
	err = nfsb_io(bc, f, op, off, write, !write ? NULL : bc->pattern ? bc->pattern : bc->buf, &n);
	if (err == 0 && write && op->a[2] > 0)
		err = nfsb_file_commit(bc, f);	/* stable: a COMMIT after */
	return err;
}

int nfsb3_create(struct backend_client *bc, const struct op *op)
{
	int slot;

	nfsb_cached_drop(bc, op->path);
	return nfsb_cached_file(bc, op, O_CREAT, &slot);
}

int nfsb3_symlink(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_symlink(bc->nfs, nfsb_path(bc, op, true), nfsb_path(bc, op, false)));
}

int nfsb3_link(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_link(bc->nfs, nfsb_path(bc, op, true), nfsb_path(bc, op, false)));
}

int nfsb3_readdirplus(struct backend_client *bc, const struct op *op)
{
	return nfsb_list(bc, op, false, NULL, INT64_MAX);
}

int nfsb3_commit(struct backend_client *bc, const struct op *op)
{
	int slot, err = nfsb_cached_file(bc, op, 0, &slot);

	return err ? err : nfsb_file_commit(bc, &bc->cached[slot]);
}

int nfsb4_lock(struct backend_client *bc, const struct op *op)
{
	uint64_t off = loadfile_offset(bc->prog, op, &bc->ost);

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	int slot, err = nfsb_cached_file(bc, op, O_CREAT, &slot);
	if (err)
		return err;
	const struct nfs_file *f = &bc->cached[slot];
	if (op->type == OP_TEST4) {
		uint64_t cur;
		int rc = nfs_lseek(bc->nfs, f->fh, (int64_t)off, SEEK_SET, &cur);
		return nfsb_rc(rc < 0 ? rc : nfs_lockf(bc->nfs, f->fh, NFS4_F_TEST, (uint64_t)op->a[1]));
	}
	/* Unlocking what nobody locked succeeds, as with fcntl(2); NFSv4 has
	 * no lock state to send a LOCKU with then, so nothing is sent. */
	if (op->type == OP_UNLOCK4 && !bc->cache.pinned[slot])
		return 0;
	err = nfsb_lock_fh(bc, f->fh, off, (uint64_t)op->a[1],
			   op->type == OP_LOCK4 ? F_WRLCK : F_UNLCK);
	if (err == 0 && op->type == OP_LOCK4)
		bc->cache.pinned[slot] = true;
	return err;
}
