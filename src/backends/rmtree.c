/*
 * rmtree.c - removing a local directory tree with a bounded number of
 * descriptors, never following a link or entering another mount, and
 * giving the run's own directories their owner's permissions back (see
 * rmtree.h).  Owns the walk's stack of directories; knows nothing of
 * operations or clients.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backend.h"
#include "backends/openat2.h"
#include "backends/rmtree.h"

/* A directory the walk is in. */
struct level {
	int fd;			/* -1 while closed, to stay within RMTREE_OPEN */
	dev_t dev;		/* what it is, checked when it is opened again */
	ino_t ino;
	char *name;		/* its name in the level above (the first's in `parent`) */
	char *buf;		/* its getdents64 buffer while open */
	ssize_t len, pos;	/* ... what the buffer holds, and the next entry */
	ino_t *skip;		/* entries that could not be removed */
	size_t nskip;
};

struct walk {
	TALLOC_CTX *ctx;	/* everything below, freed at the end */
	int parent;
	unsigned flags;
	const struct localdir_owners *owners;
	struct level *lv;	/* [depth], the outermost first */
	size_t depth, cap;
	unsigned open;		/* levels whose fd is open */
	int err;		/* the first errno met */
	struct rmtree_left *left;
};

/* The mount id of an open descriptor (statx STATX_MNT_ID), and its
 * device. */
static bool mount_of(int fd, uint64_t *mnt, dev_t *dev)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) != 0)
		return false;
	*mnt = stx.stx_mask & STATX_MNT_ID ? stx.stx_mnt_id : 0;
	*dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	return true;
}

/* Directory `name` of `parent` opened with `flags` (O_RDONLY or O_PATH),
 * on the parent's mount, no link followed.  A descriptor or -errno. */
static int open_dir(int parent, const char *name, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long r = openat2_retried(parent, name, &how);

	if (r >= 0)
		return (int)r;
	if (errno != ENOSYS && errno != EPERM)
		return -errno;
	int fd = openat(parent, name, flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint64_t pm, cm;
	dev_t pd, cd;
	if (!mount_of(parent, &pm, &pd) || !mount_of(fd, &cm, &cd) || pm != cm || pd != cd) {
		close(fd);
		return -EXDEV;
	}
	return fd;
}

int rmtree_open_dir(int parent, const char *name)
{
	return open_dir(parent, name, O_RDONLY);
}

size_t rmtree_mem(size_t depth)
{
	size_t open = depth < RMTREE_OPEN ? depth : RMTREE_OPEN;
	size_t cap = 2 * depth > RMTREE_OPEN ? 2 * depth : RMTREE_OPEN;

	/* the open levels' buffers; the stack of levels, twice while it
	 * grows; each level's name; the walk's context */
	return open * (RMTREE_DENTS + BACKEND_ALLOC_OVERHEAD) +
	       2 * cap * sizeof(struct level) + 2 * BACKEND_ALLOC_OVERHEAD +
	       depth * (NAME_MAX + 1 + BACKEND_ALLOC_OVERHEAD) + 2 * BACKEND_ALLOC_OVERHEAD;
}

/* The first error, with the path of `entry` in the innermost level (NULL
 * for that level itself) for the caller's message. */
static void note(struct walk *w, int err, const char *entry)
{
	if (w->err)
		return;
	w->err = err;
	if (!w->left || !w->left->path || w->left->len == 0)
		return;
	char *p = w->left->path;
	size_t len = w->left->len, at = 0;
	p[0] = '\0';
	for (size_t i = 0; i <= w->depth && at + 1 < len; i++) {
		const char *n = i < w->depth ? w->lv[i].name : entry;
		if (n == NULL)
			break;
		int k = snprintf(p + at, len - at, "%s%s", at ? "/" : "", n);
		at += k < 0 ? 0 : (size_t)k;
	}
}

/* Entry `ino` of the innermost level could not be removed: said, and
 * passed over should the level be read again. */
static void not_removed(struct walk *w, int err, const char *entry, ino_t ino)
{
	struct level *l = &w->lv[w->depth - 1];
	ino_t *grown = talloc_realloc(w->ctx, l->skip, ino_t, l->nskip + 1);

	note(w, err, entry);
	if (grown) {
		l->skip = grown;
		l->skip[l->nskip++] = ino;
	}
}

/* Whether st is a directory one of the owners made that lacks some of
 * its owner's rwx. */
static bool wants_restoring(const struct stat *st, const struct localdir_owners *o)
{
	return S_ISDIR(st->st_mode) && (st->st_mode & S_IRWXU) != S_IRWXU && o &&
	       (st->st_uid == o->uid[0] || st->st_uid == o->uid[1]);
}

/*
 * Give directory `name` of `dirfd` (st: what fstatat saw) its owner's
 * read, write and search permission back.  The directory is pinned with
 * an O_PATH descriptor (on this mount, no link followed) and changed
 * through /proc/self/fd, so that nothing swapped in for it meanwhile is
 * ever changed.  Where that cannot be done the removal fails as it would
 * have, and says why.
 */
static void restore(int dirfd, const char *name, const struct stat *st,
		    const struct localdir_owners *o)
{
	struct stat now;
	char proc[40];

	if (!wants_restoring(st, o))
		return;
	int fd = open_dir(dirfd, name, O_PATH);
	if (fd < 0)
		return;
	if (fstat(fd, &now) == 0 && now.st_ino == st->st_ino && now.st_dev == st->st_dev &&
	    wants_restoring(&now, o)) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		(void)chmod(proc, (now.st_mode & 07777) | S_IRWXU);
	}
	close(fd);
}

/* Close the outermost open level but the innermost, to make room. */
static void close_outermost(struct walk *w)
{
	for (size_t i = 0; i + 1 < w->depth; i++) {
		struct level *l = &w->lv[i];
		if (l->fd >= 0) {
			close(l->fd);
			l->fd = -1;
			TALLOC_FREE(l->buf);
			w->open--;
			return;
		}
	}
}

/* Enter directory `fd`, called `name` in the innermost level (or in
 * `parent`).  False when out of memory (fd closed). */
static bool push(struct walk *w, const char *name, int fd)
{
	struct stat st;
	struct level *l;

	if (w->depth == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : RMTREE_OPEN;
		struct level *grown = talloc_realloc(w->ctx, w->lv, struct level, cap);
		if (!grown)
			goto nomem;
		w->lv = grown;
		w->cap = cap;
	}
	if (fstat(fd, &st) != 0) {
		note(w, errno, name);
		close(fd);
		return false;
	}
	l = &w->lv[w->depth];
	*l = (struct level){ .fd = fd, .dev = st.st_dev, .ino = st.st_ino,
			     .name = talloc_strdup(w->ctx, name),
			     .buf = talloc_size(w->ctx, RMTREE_DENTS) };
	if (!l->name || !l->buf) {
		talloc_free(l->name);
		talloc_free(l->buf);
		goto nomem;
	}
	w->depth++;
	if (++w->open > RMTREE_OPEN)
		close_outermost(w);
	return true;
nomem:
	note(w, ENOMEM, name);
	close(fd);
	return false;
}

/* The next entry of the innermost level that is neither "." nor ".." nor
 * one passed over; NULL at its end (an error said). */
static struct dirent64 *next_entry(struct walk *w)
{
	struct level *l = &w->lv[w->depth - 1];

	for (;;) {
		if (l->pos >= l->len) {
			l->len = getdents64(l->fd, l->buf, RMTREE_DENTS);
			l->pos = 0;
			if (l->len <= 0) {
				if (l->len < 0)
					note(w, errno, NULL);
				return NULL;
			}
		}
		struct dirent64 *d = (struct dirent64 *)(l->buf + l->pos);
		l->pos += d->d_reclen;
		const char *n = d->d_name;
		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		bool skip = false;
		for (size_t i = 0; i < l->nskip && !skip; i++)
			skip = l->skip[i] == d->d_ino;
		if (!skip)
			return d;
	}
}

/* The level above the innermost, open: opened again through ".." of
 * the innermost when it was closed, which must lead to the very
 * directory it was, and read from its start.  False when it cannot be. */
static bool reopen_outer(struct walk *w)
{
	struct level *in = &w->lv[w->depth - 1], *out = &w->lv[w->depth - 2];
	struct stat st;

	if (out->fd >= 0)
		return true;
	int fd = openat(in->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno
		: st.st_dev != out->dev || st.st_ino != out->ino ? ESTALE : 0;
	if (!err && !(out->buf = talloc_size(w->ctx, RMTREE_DENTS)))
		err = ENOMEM;
	if (err) {
		if (fd >= 0)
			close(fd);
		note(w, err, NULL);	/* the tree moved beneath the walk */
		return false;
	}
	out->fd = fd;
	out->len = out->pos = 0;
	w->open++;
	return true;
}

/* The innermost level is empty (or holds what cannot be removed): leave
 * it and remove it.  False when the walk cannot go on. */
static bool pop(struct walk *w)
{
	struct level *in = &w->lv[w->depth - 1];

	if (w->depth == 1) {
		close(in->fd);
		w->open--;
		if (!(w->flags & RMTREE_KEEP) && unlinkat(w->parent, in->name, AT_REMOVEDIR) != 0 &&
		    errno != ENOENT)
			note(w, errno, NULL);
		w->depth = 0;
		return false;
	}
	if (!reopen_outer(w))
		return false;
	close(in->fd);
	w->open--;
	TALLOC_FREE(in->buf);
	w->depth--;
	int fd = w->lv[w->depth - 1].fd;
	if (unlinkat(fd, in->name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		not_removed(w, errno, in->name, in->ino);
	TALLOC_FREE(in->name);
	return true;
}

/* Remove entry `n` of the innermost level: unlinked, or entered when it
 * is a directory.  False when the walk cannot go on (out of memory). */
static bool take(struct walk *w, const char *n, ino_t ino)
{
	int dirfd = w->lv[w->depth - 1].fd;
	struct stat st;

	if (fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			not_removed(w, errno, n, ino);
		return true;
	}
	int fd = -ENOTDIR;
	if (S_ISDIR(st.st_mode)) {
		if (w->flags & RMTREE_RESTORE)
			restore(dirfd, n, &st, w->owners);
		fd = rmtree_open_dir(dirfd, n);
	}
	if (fd == -ENOTDIR || fd == -ELOOP) {	/* a file, a link (or one swapped in) */
		if (unlinkat(dirfd, n, 0) != 0 && errno != ENOENT)
			not_removed(w, errno, n, ino);
		return true;
	}
	if (fd < 0) {
		if (fd != -ENOENT)
			not_removed(w, -fd, n, ino);
		return true;
	}
	char name[NAME_MAX + 1];	/* the buffer it lies in may be freed */
	snprintf(name, sizeof(name), "%s", n);
	return push(w, name, fd);
}

/* The first level: `name` in `parent`, entered when it is a directory.
 * False when there is nothing to walk (done, or said why). */
static bool start(struct walk *w, const char *name)
{
	struct stat st;

	if (fstatat(w->parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT || (w->flags & RMTREE_DIR_ONLY))
			note(w, errno, name);
		return false;
	}
	int fd = -ENOTDIR;
	if (S_ISDIR(st.st_mode)) {
		if (w->flags & RMTREE_RESTORE)
			restore(w->parent, name, &st, w->owners);
		fd = rmtree_open_dir(w->parent, name);
	}
	if ((fd == -ENOTDIR || fd == -ELOOP) && !(w->flags & RMTREE_DIR_ONLY)) {
		if (unlinkat(w->parent, name, 0) != 0 && errno != ENOENT)
			note(w, errno, name);
		return false;
	}
	if (fd < 0) {
		if (fd != -ENOENT || (w->flags & RMTREE_DIR_ONLY))
			note(w, fd == -ELOOP ? ENOTDIR : -fd, name);
		return false;
	}
	return push(w, name, fd);
}

int rmtree_at(TALLOC_CTX *mem_ctx, int parent, const char *name, unsigned flags,
	      const struct localdir_owners *owners, struct rmtree_left *left)
{
	struct walk w = { .ctx = talloc_new(mem_ctx), .parent = parent, .flags = flags,
			  .owners = owners, .left = left };
	bool go;

	if (left && left->path && left->len)
		left->path[0] = '\0';
	if (!w.ctx)
		return ENOMEM;
	go = start(&w, name);
	while (go) {
		struct dirent64 *e = next_entry(&w);
		go = e ? take(&w, e->d_name, e->d_ino) : pop(&w);
	}
	for (size_t i = 0; i < w.depth; i++)	/* stopped short */
		if (w.lv[i].fd >= 0)
			close(w.lv[i].fd);
	talloc_free(w.ctx);
	return w.err;
}
