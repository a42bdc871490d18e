/*
 * nfs_sys.c - a recording's calls (the system-call dialect) over NFS
 * (nfs_internal.h): netsys.c replays them, through the requests this
 * file fills in with libnfs' path calls beneath the client's directory,
 * over NFSv3 or v4 alike (the handle calls of nfs3.c keep names of the
 * loadfile, which a recording's descriptors outlive).  Every request has
 * its call here; the owner a chown sets is the replaying user's
 * (AUTH_SYS sends no other).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "backends/nfs_internal.h"

static const char *nfsb_sys_path(struct backend_client *bc, char *buf, const char *rel)
{
	if (!*rel)
		return bc->dir;
	snprintf(buf, NFS_PATH_MAX, "%s/%s", bc->dir, rel);
	return buf;
}

/* libnfs opens a directory as a file: a read-only open asks what it
 * opened (a GETATTR) and keeps no handle of a directory. */
static int nfsb_sys_open(struct backend_client *bc, const char *path, int flags, uint32_t mode,
			 void **file, bool *dir)
{
	struct nfsfh *fh = NULL;
	struct nfs_stat_64 st;
	int rc = nfs_open2(bc->nfs, nfsb_sys_path(bc, bc->path, path), flags, (int)mode, &fh);

	*file = fh;
	*dir = false;
	if (rc < 0 || (flags & (O_ACCMODE | O_CREAT)) != O_RDONLY)
		return nfsb_rc(rc);
	rc = nfs_fstat64(bc->nfs, fh, &st);
	*dir = rc == 0 && (st.nfs_mode & S_IFMT) == S_IFDIR;
	if (rc < 0 || *dir) {
		nfs_close(bc->nfs, fh);
		*file = NULL;
	}
	return nfsb_rc(rc);
}

static void nfsb_sys_close(struct backend_client *bc, void *file)
{
	nfs_close(bc->nfs, file);
}

static int nfsb_sys_pread(struct backend_client *bc, void *file, uint64_t off, size_t len,
			  char *buf, size_t *done)
{
	*done = 0;
	while (*done < len) {
		int rc = nfs_pread(bc->nfs, file, off + *done, len - *done, buf + *done);
		if (rc < 0)
			return -rc;
		if (rc == 0)
			break;
		*done += (size_t)rc;
	}
	return 0;
}

/* Over NFSv4 in pieces libnfs 4.0 can encode (NFS4_WRITE_PIECE). */
static int nfsb_sys_pwrite(struct backend_client *bc, void *file, uint64_t off, size_t len,
			   const char *buf, size_t *done)
{
	size_t piece = bc->version >= 4 ? NFS4_WRITE_PIECE : len;

	*done = 0;
	while (*done < len) {
		size_t n = len - *done < piece ? len - *done : piece;
		int rc = nfs_pwrite(bc->nfs, file, off + *done, n, buf + *done);
		if (rc <= 0)
			return rc < 0 ? -rc : EIO;
		*done += (size_t)rc;
	}
	return 0;
}

static int nfsb_sys_fstat(struct backend_client *bc, void *file, struct netsys_attr *a)
{
	struct nfs_stat_64 st;
	int rc = nfs_fstat64(bc->nfs, file, &st);

	*a = (struct netsys_attr){ st.nfs_size, (uint32_t)st.nfs_mode };
	return nfsb_rc(rc);
}

static int nfsb_sys_stat(struct backend_client *bc, const char *path, bool follow,
			 struct netsys_attr *a)
{
	struct nfs_stat_64 st = { 0 };
	const char *p = nfsb_sys_path(bc, bc->path, path);
	int rc = follow ? nfs_stat64(bc->nfs, p, &st) : nfs_lstat64(bc->nfs, p, &st);

	*a = (struct netsys_attr){ st.nfs_size, (uint32_t)st.nfs_mode };
	return nfsb_rc(rc);
}

static int nfsb_sys_ftruncate(struct backend_client *bc, void *file, uint64_t len)
{
	return nfsb_rc(nfs_ftruncate(bc->nfs, file, len));
}

static int nfsb_sys_fsync(struct backend_client *bc, void *file)
{
	return nfsb_rc(nfs_fsync(bc->nfs, file));
}

static int nfsb_sys_list(struct backend_client *bc, const char *path,
			 void (*visit)(void *arg, const char *name), void *arg)
{
	struct nfsdir *d;
	struct nfsdirent *e;
	int rc = nfs_opendir(bc->nfs, nfsb_sys_path(bc, bc->path, path), &d);

	if (rc < 0)
		return -rc;
	while ((e = nfs_readdir(bc->nfs, d)) != NULL)
		visit(arg, e->name);
	nfs_closedir(bc->nfs, d);
	return 0;
}

static int nfsb_sys_mkdir(struct backend_client *bc, const char *path, uint32_t mode)
{
	return nfsb_rc(nfs_mkdir2(bc->nfs, nfsb_sys_path(bc, bc->path, path), (int)mode));
}

static int nfsb_sys_rmdir(struct backend_client *bc, const char *path)
{
	return nfsb_rc(nfs_rmdir(bc->nfs, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_unlink(struct backend_client *bc, const char *path)
{
	return nfsb_rc(nfs_unlink(bc->nfs, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_rename(struct backend_client *bc, const char *from, const char *to)
{
	return nfsb_rc(nfs_rename(bc->nfs, nfsb_sys_path(bc, bc->path, from),
				  nfsb_sys_path(bc, bc->path2, to)));
}

static int nfsb_sys_link(struct backend_client *bc, const char *from, const char *to)
{
	return nfsb_rc(nfs_link(bc->nfs, nfsb_sys_path(bc, bc->path, from),
				nfsb_sys_path(bc, bc->path2, to)));
}

static int nfsb_sys_symlink(struct backend_client *bc, const char *target, const char *path)
{
	return nfsb_rc(nfs_symlink(bc->nfs, target, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_readlink(struct backend_client *bc, const char *path, size_t *len)
{
	char *target = NULL;
	int rc = nfs_readlink2(bc->nfs, nfsb_sys_path(bc, bc->path, path), &target);

	*len = target ? strlen(target) : 0;
	free(target);
	return nfsb_rc(rc);
}

static int nfsb_sys_chmod(struct backend_client *bc, const char *path, uint32_t mode)
{
	return nfsb_rc(nfs_chmod(bc->nfs, nfsb_sys_path(bc, bc->path, path), (int)mode));
}

static int nfsb_sys_chown(struct backend_client *bc, const char *path, bool follow)
{
	const char *p = nfsb_sys_path(bc, bc->path, path);
	int uid = (int)geteuid(), gid = (int)getegid();

	return nfsb_rc(follow ? nfs_chown(bc->nfs, p, uid, gid) : nfs_lchown(bc->nfs, p, uid, gid));
}

/* libnfs' NFSv4 SETATTR by path opens what it changes, which a directory
 * refuses: beyond what it can express, as for SETATTR3. */
static int nfsb_sys_utimes(struct backend_client *bc, const char *path)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	int rc = nfs_utimes(bc->nfs, nfsb_sys_path(bc, bc->path, path), tv);
	return rc == -EISDIR && bc->version >= 4 ? BACKEND_NOT_SUPPORTED : nfsb_rc(rc);
}

static int nfsb_sys_statfs(struct backend_client *bc, const char *path)
{
	struct nfs_statvfs_64 sv;

	return nfsb_rc(nfs_statvfs64(bc->nfs, nfsb_sys_path(bc, bc->path, path), &sv));
}

static int nfsb_sys_access(struct backend_client *bc, const char *path, int mode)
{
	return nfsb_rc(nfs_access(bc->nfs, nfsb_sys_path(bc, bc->path, path), mode));
}

const struct netsys_proto nfsb_sys_proto = {
	.open = nfsb_sys_open, .close = nfsb_sys_close,
	.pread = nfsb_sys_pread, .pwrite = nfsb_sys_pwrite,
	.fstat = nfsb_sys_fstat, .stat = nfsb_sys_stat, .ftruncate = nfsb_sys_ftruncate,
	.fsync = nfsb_sys_fsync, .list = nfsb_sys_list, .mkdir = nfsb_sys_mkdir,
	.rmdir = nfsb_sys_rmdir, .unlink = nfsb_sys_unlink, .rename = nfsb_sys_rename,
	.link = nfsb_sys_link, .symlink = nfsb_sys_symlink, .readlink = nfsb_sys_readlink,
	.chmod = nfsb_sys_chmod, .chown = nfsb_sys_chown, .utimes = nfsb_sys_utimes,
	.statfs = nfsb_sys_statfs, .access = nfsb_sys_access,
};

/* A recording's pass starts in an empty client directory holding its
 * initial state. */
int nfsb_sys_start(struct backend_client *bc)
{
	netsys_close_all(bc->sys);
	int err = nfsb_remove_own(bc);
	if ((err && err != ENOENT) || (err = nfsb_rc(nfs_mkdir(bc->nfs, bc->dir))) != 0)
		return err;
	return netsys_pass_start(bc->sys);
}

int nfsb_syscall(struct backend_client *bc, const struct op *op)
{
	return netsys_op(bc->sys, op);
}
