/*
 * nfs_names.c - the nfs backend's operations on names (nfs_internal.h),
 * over NFSv3's handles or NFSv4's paths alike: a directory made, asked
 * whether it is one, attributes by name (from an NFS-dialect file held
 * open when there is one), a tree removed, a directory listed (with a
 * pattern, as FIND_FIRST asks), the client's own directory removed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dosmatch.h"
#include "backends/nfs_internal.h"

int nfsb_mkdir_path(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!bc->c3)
		return nfsb_rc(nfs_mkdir(bc->nfs, nfsb_path(bc, op, false)));
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfs3_mkdir(bc->c3, dir, leaf);
}

/* 0 when op's path is a directory, else ENOTDIR or why not. */
int nfsb_is_dir_op(struct backend_client *bc, const struct op *op, bool second)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;

	if (!bc->c3)
		return nfsb_is_dir(bc->nfs, nfsb_path(bc, op, second));
	int err = nfsb3_parent(bc, op, second, &dir, &leaf);
	if (err == 0)
		err = nfs3_lookup(bc->c3, dir, leaf, NULL, &kind);
	return err ? err : kind == NFS3_KIND_DIR ? 0 : ENOTDIR;
}

static int nfsb_getattr_obj(struct backend_client *bc, const struct op *op)
{
	struct nfs_stat_64 st;
	struct nfs3_handle h;
	enum nfs3_kind kind;

	if (!bc->c3)
		return nfsb_rc(nfs_stat64(bc->nfs, nfsb_path(bc, op, false), &st));
	if (!(op->flags & OPF_CLIENTS_DIR) && op->dir == DIR_NONE) {
		const struct nfs3_handle *self;
		int err = nfsb3_self(bc, &self);
		return err ? err : nfs3_getattr(bc->c3, self, NULL);
	}
	return nfsb3_object(bc, op, &h, &kind);	/* a LOOKUP brings the attributes */
}

int nfsb_getattr_path(struct backend_client *bc, const struct op *op)
{
	/* An NFS-dialect file this client holds open: a GETATTR on its
	 * handle, as dbench 5.0 does from its handle cache. */
	nfsb3_revalidate(bc);
	int i = op_is_nfs(op->type) ? pathcache_find(&bc->cache, op->path) : -1;
	if (i >= 0)
		return nfsb_file_getattr(bc, &bc->cached[i]);
	return nfsb_getattr_obj(bc, op);
}

/* The entries of a directory, as nfs3_readdir() lists them. */
struct nfs_entry {
	char *name;
	enum nfs3_kind kind;
};

struct nfs_entries {
	TALLOC_CTX *mem_ctx;
	struct nfs_entry *e;
	size_t n;
	bool oom;
};

static bool nfsb3_collect(void *arg, const char *name, enum nfs3_kind kind)
{
	struct nfs_entries *l = arg;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return true;
	struct nfs_entry *e = talloc_realloc(l->mem_ctx, l->e, struct nfs_entry, l->n + 1);
	if (!e || !(e[l->n].name = talloc_strdup(e, name))) {
		l->oom = true;
		return false;
	}
	e[l->n++].kind = kind;
	l->e = e;
	return true;
}

/* Remove `name` in the directory at handle `parent` and everything
 * beneath it, never following a link (NFSv3). */
static int nfsb3_rmtree(struct backend_client *bc, const struct nfs3_handle *parent,
			const char *name, int depth)
{
	struct nfs3_handle h;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;
	int err = nfs3_lookup(bc->c3, parent, name, &h, &kind);

	if (err)
		return err;
	if (kind != NFS3_KIND_DIR || depth >= NFS_RMTREE_DEPTH)
		return nfs3_remove(bc->c3, parent, name);
	struct nfs_entries l = { .mem_ctx = talloc_new(bc) };
	if (!l.mem_ctx)
		return ENOMEM;
	err = nfs3_readdir(bc->c3, &h, nfsb3_collect, &l);
	if (err == 0 && l.oom)
		err = ENOMEM;
	for (size_t i = 0; err == 0 && i < l.n; i++)
		err = l.e[i].kind == NFS3_KIND_DIR ? nfsb3_rmtree(bc, &h, l.e[i].name, depth + 1)
						    : nfs3_remove(bc->c3, &h, l.e[i].name);
	talloc_free(l.mem_ctx);
	return err ? err : nfs3_rmdir(bc->c3, parent, name);
}

int nfsb_rmtree_op(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!bc->c3)
		return nfsb4_rmtree(bc, nfsb_path(bc, op, false), 0);
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfsb3_rmtree(bc, dir, leaf, 0);
}

/* Remove the client's directory and everything in it. */
int nfsb_remove_own(struct backend_client *bc)
{
	const struct nfs3_handle *clients;
	int err;

	if (!bc->c3)
		err = nfsb4_rmtree(bc, bc->dir, 0);
	else if ((err = nfsb3_clients(bc, &clients)) == 0)
		err = nfsb3_rmtree(bc, clients, bc->name, 0);
	nfsb3_forget(bc, "", false);
	return err;
}

/* READDIRPLUS a directory: max entries at most; with a pattern, ENOENT
 * when none of them matches (as fileio does). */
struct nfs_listing {
	const struct dosmatch_pattern *pat;
	int64_t left;
	unsigned matches;
};

static bool nfsb_listed(void *arg, const char *name, enum nfs3_kind kind)
{
	struct nfs_listing *l = arg;

	(void)kind;
	if (l->left-- <= 0)
		return false;
	if (l->pat && l->matches == 0)
		l->matches += dosmatch(l->pat, name);
	return true;
}

int nfsb_list(struct backend_client *bc, const struct op *op, bool parent,
		     const char *pattern, int64_t max)
{
	struct dosmatch_pattern pat = pattern ? dosmatch_pattern_of(pattern)
					      : (struct dosmatch_pattern){ 0 };
	struct nfs_listing l = { pattern ? &pat : NULL, max, 0 };
	int err = 0;

	if (bc->c3) {
		const struct nfs3_handle *dir;
		struct nfs3_handle h;
		enum nfs3_kind kind = NFS3_KIND_DIR;
		const char *leaf;
		if (parent)
			err = nfsb3_parent(bc, op, false, &dir, &leaf);
		else if ((err = nfsb3_object(bc, op, &h, &kind)) == 0)
			dir = &h;
		if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
		if (err == 0)
			err = nfs3_readdir(bc->c3, dir, nfsb_listed, &l);
	} else {
		char path[NFS_PATH_MAX];
		const char *full = nfsb_path(bc, op, false);
		struct nfsdir *d;
		struct nfsdirent *e;
		if (parent)
			snprintf(path, sizeof(path), "%.*s", (int)(strrchr(full, '/') - full), full);
		else
			snprintf(path, sizeof(path), "%s", full);
		err = nfsb_rc(nfs_opendir(bc->nfs, path, &d));
		if (err)
			return err;
		while ((e = nfs_readdir(bc->nfs, d)) != NULL && nfsb_listed(&l, e->name, 0))
			;
		nfs_closedir(bc->nfs, d);
	}
	return err ? err : !pattern || l.matches ? 0 : ENOENT;
}
