/*
 * nfs_path4.c - the nfs backend's paths over NFSv4 (nfs_internal.h),
 * where every call goes through libnfs' path calls: an operation's path
 * beneath the client's directory, and a tree removed by path.  Knows
 * nothing of NFSv3's handles.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/nfs_internal.h"

/* The export path of op's first (second) path, in bc->path (path2). */
const char *nfsb_path(struct backend_client *bc, const struct op *op, bool second)
{
	char *buf = second ? bc->path2 : bc->path;
	const char *rel = second ? op->path2 : op->path;

	if (op->flags & OPF_CLIENTS_DIR)
		return "/clients";
	if (!rel || !*rel)
		return bc->dir;
	snprintf(buf, NFS_PATH_MAX, "%s/%s", bc->dir, rel);
	return buf;
}

/* Remove path and everything beneath it, never following a link (NFS
 * READDIRPLUS says what each entry is; a link is removed, not followed). */
int nfsb4_rmtree(struct backend_client *bc, const char *path, int depth)
{
	struct nfsdir *d;
	struct nfsdirent *e;
	int rc = nfs_opendir(bc->nfs, path, &d);

	if (rc == -ENOTDIR)
		return nfsb_rc(nfs_unlink(bc->nfs, path));
	if (rc < 0)
		return -rc;
	int err = 0;
	while (err == 0 && (e = nfs_readdir(bc->nfs, d)) != NULL) {
		if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
			continue;
		char *child = talloc_asprintf(bc, "%s/%s", path, e->name);
		if (!child)
			err = ENOMEM;
		else if ((e->mode & S_IFMT) == S_IFDIR && depth < NFS_RMTREE_DEPTH)
			err = nfsb4_rmtree(bc, child, depth + 1);
		else
			err = nfsb_rc(nfs_unlink(bc->nfs, child));
		talloc_free(child);
	}
	nfs_closedir(bc->nfs, d);
	return err ? err : nfsb_rc(nfs_rmdir(bc->nfs, path));
}
