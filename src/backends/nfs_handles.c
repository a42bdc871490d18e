/*
 * nfs_handles.c - what the nfs backend keeps between operations
 * (nfs_internal.h): over NFSv3 the handles of the export's clients
 * directory, of the client's own and of the directories the loadfile
 * names (NFS_DIR_SLOTS, indexed by program.dirs, looked up a component
 * at a time on a miss and forgotten beneath a name an operation
 * changes, or all of them after a reply said one was stale); the files
 * of the trace's handles, opened, read, written, committed and locked;
 * and the NFS dialect's files by path, each opened once into one of the
 * client's slots (pathcache.h).  Knows nothing of the operations that
 * use them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/nfs_internal.h"

/* ---- directory handles (NFSv3) ---- */

/* The handle of /clients, then of our own directory. */
int nfsb3_clients(struct backend_client *bc, const struct nfs3_handle **out)
{
	int err = 0;

	nfsb3_revalidate(bc);
	if (bc->clients.len == 0)
		err = nfs3_lookup(bc->c3, &bc->root, "clients", &bc->clients, NULL);
	*out = &bc->clients;
	return err;
}

int nfsb3_self(struct backend_client *bc, const struct nfs3_handle **out)
{
	const struct nfs3_handle *clients;
	enum nfs3_kind kind = NFS3_KIND_DIR;
	int err = 0;

	nfsb3_revalidate(bc);
	*out = &bc->self;
	if (bc->self.len)
		return 0;
	err = nfsb3_clients(bc, &clients);
	if (err == 0)
		err = nfs3_lookup(bc->c3, clients, bc->name, &bc->self, &kind);
	if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
		err = ENOTDIR;
	if (err)
		bc->self.len = 0;
	return err;
}

/* Look `rel` up from our directory, a component at a time. */
static int nfsb3_walk(struct backend_client *bc, const char *rel, struct nfs3_handle *out)
{
	const struct nfs3_handle *self;
	char name[NFS_PATH_MAX];
	int err = nfsb3_self(bc, &self);

	if (err)
		return err;
	*out = *self;
	while (*rel) {
		size_t len = strcspn(rel, "/");
		enum nfs3_kind kind = NFS3_KIND_DIR;
		memcpy(name, rel, len);
		name[len] = '\0';
		struct nfs3_handle next;
		err = nfs3_lookup(bc->c3, out, name, &next, &kind);
		if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
		if (err)
			return err;
		*out = next;
		rel += len + (rel[len] == '/');
	}
	return 0;
}

/* The handle of program.dirs[dir], from the cache or looked up into it. */
static int nfsb3_dir(struct backend_client *bc, uint16_t dir, const struct nfs3_handle **out)
{
	const char *rel = dir < bc->prog->ndirs ? bc->prog->dirs[dir] : NULL;

	if (!rel)
		return EINVAL;
	if (*rel == '\0')
		return nfsb3_self(bc, out);
	nfsb3_revalidate(bc);
	if (bc->dir_slot[dir]) {
		*out = &bc->slots[bc->dir_slot[dir] - 1].h;
		return 0;
	}
	struct nfs_dir_slot *s = &bc->slots[bc->hand];
	struct nfs3_handle h;
	int err = nfsb3_walk(bc, rel, &h);
	if (err)
		return err;
	if (s->h.len)
		bc->dir_slot[s->dir] = 0;	/* the oldest gives way */
	*s = (struct nfs_dir_slot){ h, dir };
	bc->dir_slot[dir] = (uint16_t)(bc->hand + 1);
	bc->hand = (bc->hand + 1) % NFS_DIR_SLOTS;
	*out = &s->h;
	return 0;
}

/* The directory holding op's first (second) path and the name in it. */
int nfsb3_parent(struct backend_client *bc, const struct op *op, bool second,
			const struct nfs3_handle **dir, const char **leaf)
{
	uint16_t d = second ? op->dir2 : op->dir;

	if (!second && (op->flags & OPF_CLIENTS_DIR)) {
		*dir = &bc->root;
		*leaf = "clients";
		return 0;
	}
	if (d == DIR_NONE) {	/* our own directory */
		*leaf = bc->name;
		return nfsb3_clients(bc, dir);
	}
	*leaf = second ? op->leaf2 : op->leaf;
	return nfsb3_dir(bc, d, dir);
}

/* The handle of op's path itself, and what it is. */
int nfsb3_object(struct backend_client *bc, const struct op *op, struct nfs3_handle *out,
			enum nfs3_kind *kind)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!(op->flags & OPF_CLIENTS_DIR) && op->dir == DIR_NONE) {
		int err = nfsb3_self(bc, &dir);
		if (err == 0) {
			*out = *dir;
			*kind = NFS3_KIND_DIR;
		}
		return err;
	}
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfs3_lookup(bc->c3, dir, leaf, out, kind);
}

/* Forget the directory handles at or beneath client-relative `path` (all
 * of them for our directory; /clients too for "\clients"): after an
 * Rmdir, Rename or Deltree they name something else, or nothing. */
void nfsb3_forget(struct backend_client *bc, const char *path, bool clients_dir)
{
	bool all = !path || !*path;

	if (!bc->c3)
		return;
	if (clients_dir)
		bc->clients.len = 0;
	if (clients_dir || all)
		bc->self.len = 0;
	for (unsigned i = 0; i < NFS_DIR_SLOTS; i++) {
		struct nfs_dir_slot *s = &bc->slots[i];
		const char *d = bc->prog->dirs[s->dir];
		if (s->h.len && (clients_dir || all || loadfile_path_within(d, path))) {
			bc->dir_slot[s->dir] = 0;
			s->h.len = 0;
		}
	}
}

/* ---- open files ---- */

void nfsb_file_close(struct backend_client *bc, struct nfs_file *f)
{
	if (f->fh)
		nfs_close(bc->nfs, f->fh);
	*f = (struct nfs_file){ 0 };
}

int nfsb_file_getattr(struct backend_client *bc, const struct nfs_file *f)
{
	struct nfs_stat_64 st;

	if (bc->c3)
		return f->h3.len ? nfs3_getattr(bc->c3, &f->h3, NULL) : 0;
	return f->fh ? nfsb_rc(nfs_fstat64(bc->nfs, f->fh, &st)) : 0;
}

int nfsb_file_commit(struct backend_client *bc, const struct nfs_file *f)
{
	if (bc->c3)
		return f->h3.len ? nfs3_commit(bc->c3, &f->h3) : 0;
	return f->fh ? nfsb_rc(nfs_fsync(bc->nfs, f->fh)) : 0;
}

/* Read or write size bytes at off through f, from or into buf; *done is
 * what moved.  A read into a NULL buf lets the data go (NFSv3: uncopied). */
static int nfsb_file_io(struct backend_client *bc, const struct nfs_file *f, uint64_t off,
			size_t size, bool write, char *buf, size_t *done)
{
	if (bc->c3)
		return write ? nfs3_write(bc->c3, &f->h3, off, size, buf, done)
			     : nfs3_read(bc->c3, &f->h3, off, size, buf, done);
	if (!write) {
		int rc = nfs_pread(bc->nfs, f->fh, off, size, buf ? buf : bc->buf);
		*done = rc < 0 ? 0 : (size_t)rc;
		return nfsb_rc(rc);
	}
	*done = 0;
	while (*done < size) {
		size_t n = size - *done < NFS4_WRITE_PIECE ? size - *done : NFS4_WRITE_PIECE;
		int rc = nfs_pwrite(bc->nfs, f->fh, off + *done, n, buf + *done);
		if (rc <= 0)
			return rc < 0 ? -rc : EIO;
		*done += (size_t)rc;
	}
	return 0;
}

/*
 * Open op's path as a file with `flags` (O_CREAT, O_TRUNC): *is_file
 * false when it names a directory (opened, with no file over NFSv4).
 */
int nfsb_file_open(struct backend_client *bc, const struct op *op, int flags,
			  struct nfs_file *f, bool *is_file)
{
	*f = (struct nfs_file){ 0 };
	*is_file = true;
	if (!bc->c3) {
		const char *path = nfsb_path(bc, op, false);
		int err = nfsb_rc(nfs_open2(bc->nfs, path, O_RDWR | flags, 0644, &f->fh));
		if (err == EISDIR || err == EACCES) {	/* a directory opened as a file */
			err = nfsb_is_dir(bc->nfs, path);
			*is_file = err != 0;
		}
		return err;
	}
	const struct nfs3_handle *dir;
	const char *leaf;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;
	int create_err = 0;
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	if (err)
		return err;
	if (flags & O_CREAT) {
		/* UNCHECKED: an existing file is opened (and emptied) too */
		create_err = nfs3_create(bc->c3, dir, leaf, (flags & O_TRUNC) != 0, &f->h3);
		if (create_err == 0)
			return 0;
		if (create_err != EEXIST && create_err != EISDIR && create_err != EACCES)
			return create_err;
	}
	err = nfs3_lookup(bc->c3, dir, leaf, &f->h3, &kind);
	if (err == 0 && kind == NFS3_KIND_DIR)
		*is_file = false;	/* a directory opened as a file */
	else if (err == 0 && create_err)
		err = create_err;
	else if (err == 0 && kind == NFS3_KIND_OTHER)
		err = ELOOP;		/* a link, never followed */
	if (err)
		f->h3.len = 0;
	return err;
}

/* The file of op's trace handle, or NULL. */
struct nfs_handle *nfsb_handle_of(struct backend_client *bc, const struct op *op)
{
	if (op->handle >= bc->nh || !bc->h[op->handle].open)
		return NULL;
	return &bc->h[op->handle];
}

void nfsb_handle_close(struct backend_client *bc, struct nfs_handle *h)
{
	nfsb_file_close(bc, &h->f);
	*h = (struct nfs_handle){ 0 };
}

int nfsb_io(struct backend_client *bc, const struct nfs_file *f, const struct op *op,
		   uint64_t off, bool write, char *buf, size_t *done)
{
	int err = nfsb_file_io(bc, f, off, (size_t)op->a[1], write, buf, done);

	if (err || op_is_nfs(op->type))
		return err;	/* 5.0 takes a short READ3 as it comes */
	if (*done < (size_t)op->a[2])
		return write ? EIO : ENODATA;
	return 0;
}

int nfsb_lock_fh(struct backend_client *bc, struct nfsfh *fh, uint64_t off,
		       uint64_t len, int type)
{
	/* a length of 0 is "to the end of the file", as in fcntl(2); NFSv4
	 * says that with all ones, libnfs with INT64_MAX */
	struct nfs4_flock fl = { .l_type = type, .l_whence = SEEK_SET,
				 .l_pid = (uint32_t)getpid(), .l_start = off,
				 .l_len = len ? len : (uint64_t)INT64_MAX - off };

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	return nfsb_rc(nfs_fcntl(bc->nfs, fh, NFS4_F_SETLK, &fl));
}

/* ---- the NFS dialect's files, by path ---- */

/* Close a cache slot's file and free the slot. */
static void nfsb_cache_clear(struct backend_client *bc, int slot)
{
	nfsb_file_close(bc, &bc->cached[slot]);
	pathcache_set(&bc->cache, slot, NULL);
}

/* An NFS-dialect file by path: opened (with `flags` added) once, kept in
 * bc->cached[*slot].  ENOLCK when every slot holds a locked file. */
int nfsb_cached_file(struct backend_client *bc, const struct op *op, int flags,
			    int *slot)
{
	bool is_file;

	nfsb3_revalidate(bc);
	int i = pathcache_find(&bc->cache, op->path);
	if (i < 0) {
		if ((i = pathcache_pick(&bc->cache, op->path)) < 0)
			return ENOLCK;
		nfsb_cache_clear(bc, i);
		int err = nfsb_file_open(bc, op, flags, &bc->cached[i], &is_file);
		if (err == 0 && !is_file)
			err = EISDIR;
		if (err) {
			nfsb_file_close(bc, &bc->cached[i]);
			return err;
		}
		pathcache_set(&bc->cache, i, op->path);
	}
	*slot = i;
	return 0;
}

/* Forget the cached files at or beneath a path the operation removed or
 * renamed. */
void nfsb_cached_drop(struct backend_client *bc, const char *path)
{
	for (int i = 0; i < PATHCACHE_SLOTS; i++) {
		if (bc->cache.path[i] && path && loadfile_path_within(bc->cache.path[i], path))
			nfsb_cache_clear(bc, i);
	}
}

/* After a reply said that a handle is stale, any handle kept for a name
 * may be: forget them all, directories and the NFS dialect's files. */
void nfsb3_revalidate(struct backend_client *bc)
{
	if (bc->c3 && nfs3_take_stale(bc->c3)) {
		nfsb3_forget(bc, "", true);
		nfsb_cached_drop(bc, "");
	}
}
