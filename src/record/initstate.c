/*
 * initstate.c - the walk of the roots and the initial state chosen from
 * it (initstate.h).
 *
 * Owns the walk's entries; knows nothing of strace or of the writer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "record/initstate.h"
#include "record/pathmap.h"
#include "record/paths.h"

struct wentry {
	struct rec_init e;
	bool chosen;
};

struct walk {
	struct recording *rec;	/* its FIFOs, sockets and devices go into rec->special */
	struct pathmap *map;	/* relative path -> struct wentry */
	struct pathmap *children;	/* relative dir -> char ** (NULL-ended, on the walk) */
	bool cut;
	bool with_data;
	uint64_t data, max_data;
	char *err;
	const char *skip;
	dev_t dev;
};

static const char *join(TALLOC_CTX *mem_ctx, const char *dir, const char *name)
{
	return *dir ? talloc_asprintf(mem_ctx, "%s/%s", dir, name) : talloc_strdup(mem_ctx, name);
}

/* Read a regular file's bytes for --with-data. */
static const char *read_data(struct walk *w, int dirfd, const char *name, uint64_t size,
			     const char *rel)
{
	if (w->data + size > w->max_data) {
		w->err = talloc_asprintf(w, "--with-data: the files beneath the roots hold more than %llu "
					 "bytes, more than a loadfile can carry (LOADFILE_MAX_BYTES) "
					 "(at '%s')", (unsigned long long)w->max_data, rel);
		return NULL;
	}
	char *buf = talloc_array(w, char, size ? size : 1);
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t got = 0;
	while (buf && fd >= 0 && got < size) {
		ssize_t n = read(fd, buf + got, size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	if (buf && got < size)
		memset(buf + got, 0, size - got);
	w->data += size;
	return buf;
}

/* hidden: a directory above it keeps others out (no o+x). */
static bool add(struct walk *w, int dirfd, const char *name, const char *rel, const struct stat *st,
		bool hidden)
{
	struct wentry *we = talloc_zero(w, struct wentry);

	if (!we)
		return false;
	we->e.path = talloc_strdup(we, rel);
	we->e.mode = st->st_mode & 07777;
	if (S_ISDIR(st->st_mode)) {
		we->e.type = REC_DIR;
	} else if (S_ISLNK(st->st_mode)) {
		char buf[4096];
		ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf) - 1);
		we->e.type = REC_SYMLINK;
		we->e.target = talloc_strndup(we, buf, n > 0 ? (size_t)n : 0);
	} else if (S_ISREG(st->st_mode)) {
		we->e.type = REC_FILE;
		we->e.size = (uint64_t)st->st_size;
		we->e.hidden = hidden || !(st->st_mode & S_IROTH);
		if (w->with_data && !(we->e.data = read_data(w, dirfd, name, we->e.size, rel)))
			return false;
	} else {
		talloc_free(we);	/* devices, fifos, sockets: not made by a replay */
		return recording_special(w->rec, rel, true);
	}
	return pathmap_put(w->map, rel, we);
}

/* Walk the directory open at fd (relative path rel), then close it;
 * hidden when others cannot reach what it holds. */
static bool walk_dir(struct walk *w, int fd, const char *rel, bool hidden)
{
	DIR *d = fdopendir(fd);
	char **names = NULL;
	size_t n = 0;

	if (!d) {
		close(fd);
		return true;
	}
	struct dirent *de;
	bool ok = true;
	while (ok && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (pathmap_count(w->map) >= WALK_MAX_ENTRIES) {
			w->cut = true;
			break;
		}
		const char *crel = join(w, rel, de->d_name);
		struct stat st;
		if (!crel || fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (w->skip && S_ISDIR(st.st_mode) && strcmp(crel, w->skip) == 0)
			continue;
		names = talloc_realloc(w, names, char *, n + 2);
		ok = names && (names[n++] = talloc_strdup(names, de->d_name)) != NULL &&
		     add(w, fd, de->d_name, crel, &st, hidden);
		if (ok && S_ISDIR(st.st_mode) && st.st_dev == w->dev) {
			int cfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd >= 0)
				ok = walk_dir(w, cfd, crel, hidden || !(st.st_mode & S_IXOTH));
		}
	}
	closedir(d);
	if (ok && names) {
		names[n] = NULL;
		ok = pathmap_put(w->children, rel, names);
	}
	return ok;
}

/* Whether others than their owners cannot reach what lies beneath
 * directory abs: it or a directory above it has no o+x. */
static bool hidden_below(const char *abs)
{
	char *p = talloc_strdup(NULL, abs);
	bool hidden = false;
	struct stat st;

	while (p && *p && !hidden) {
		hidden = stat(p, &st) != 0 || !(st.st_mode & S_IXOTH);
		char *s = strrchr(p, '/');
		if (!s)
			break;
		*s = '\0';
	}
	talloc_free(p);
	return hidden;
}

/* The directories from the base down to the root, and the root's tree. */
static bool walk_root(struct walk *w, const struct recording *rec, const char *root)
{
	const char *rel = path_in_roots(w, rec, root);
	struct stat st;

	if (!rel)
		return false;
	/* each directory between the base and the root */
	for (const char *p = rel; *rel; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		const char *sub = talloc_strndup(w, rel, (size_t)(p - rel));
		const char *abs = join(w, strcmp(rec->base, "/") == 0 ? "" : rec->base, sub);
		if (abs && abs[0] != '/')
			abs = talloc_asprintf(w, "/%s", abs);
		if (!sub || !abs || lstat(abs, &st) != 0 || !add(w, AT_FDCWD, abs, sub, &st, false))
			return false;
		if (!*p)
			break;
	}
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		w->err = talloc_asprintf(w, "cannot read root '%s': %s", root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	w->dev = st.st_dev;
	return walk_dir(w, fd, rel, hidden_below(root));
}

struct walk *walk_roots(TALLOC_CTX *mem_ctx, struct recording *rec, const char *skip,
			bool with_data, uint64_t max_data, char **err)
{
	struct walk *w = talloc_zero(mem_ctx, struct walk);

	if (!w || !(w->map = pathmap_new(w)) || !(w->children = pathmap_new(w))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		talloc_free(w);
		return NULL;
	}
	w->rec = rec;
	w->with_data = with_data;
	w->max_data = max_data;
	w->skip = skip ? path_in_roots(w, rec, skip) : NULL;
	for (size_t i = 0; i < rec->nroots; i++) {
		if (!walk_root(w, rec, rec->roots[i])) {
			*err = talloc_steal(mem_ctx, w->err ? w->err : talloc_strdup(w, "out of memory"));
			talloc_free(w);
			return NULL;
		}
	}
	return w;
}

bool walk_cut(const struct walk *w)
{
	return w->cut;
}

/* ---- choosing ---- */

struct chooser {
	struct recording *rec;
	const struct walk *w;
	struct rec_init *out;
	size_t n, cap;
	bool ok;
};

static void choose_one(struct chooser *ch, struct wentry *we)
{
	if (we->chosen || !ch->ok)
		return;
	we->chosen = true;
	if (!grow_array(ch->rec, (void **)&ch->out, sizeof(struct rec_init), &ch->cap, ch->n + 1,
			256)) {
		ch->ok = false;
		return;
	}
	ch->out[ch->n++] = we->e;
}

static void choose_path(struct chooser *ch, const char *rel, int depth);

/* A symbolic link's target, from its parent directory, when it stays
 * beneath the base. */
static void choose_target(struct chooser *ch, const char *link, const char *target,
			  const char *rest, int depth)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *slash = strrchr(link, '/');
	char *dir = slash ? talloc_strndup(tmp, link, (size_t)(slash - link)) : talloc_strdup(tmp, "");
	const char *base = ch->rec->base;
	char *abs;

	if (target[0] == '/')
		abs = talloc_asprintf(tmp, "%s%s", target, rest);
	else
		abs = talloc_asprintf(tmp, "%s/%s/%s%s", strcmp(base, "/") ? base : "", dir, target, rest);
	abs = abs ? path_normalize(tmp, abs) : NULL;
	const char *rel = abs ? path_in_roots(tmp, ch->rec, abs) : NULL;
	if (rel)
		choose_path(ch, rel, depth + 1);
	talloc_free(tmp);
}

/* rel and every directory above it that the walk found, following the
 * symbolic links on the way. */
static void choose_path(struct chooser *ch, const char *rel, int depth)
{
	if (depth > 40 || !*rel)
		return;
	for (const char *p = rel;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char *prefix = talloc_strndup(NULL, rel, (size_t)(p - rel));
		struct wentry *we = prefix ? pathmap_get(ch->w->map, prefix) : NULL;
		talloc_free(prefix);
		if (!we)
			return;
		choose_one(ch, we);
		if (we->e.type == REC_SYMLINK) {
			choose_target(ch, we->e.path, we->e.target, p, depth);
			return;
		}
		if (!*p)
			return;
	}
}

bool initstate_choose(struct recording *rec, const struct walk *w)
{
	struct chooser ch = { rec, w, NULL, 0, 0, true };

	for (size_t i = 0; i < pathmap_count(rec->touched) && ch.ok; i++) {
		void *v;
		const char *rel = pathmap_key(rec->touched, i, &v);
		choose_path(&ch, rel, 0);
		char **names = ((uintptr_t)v & TOUCH_LISTED) ? pathmap_get(w->children, rel) : NULL;
		for (; names && *names && ch.ok; names++) {
			char *crel = *rel ? talloc_asprintf(NULL, "%s/%s", rel, *names) : talloc_strdup(NULL, *names);
			if (crel)
				choose_path(&ch, crel, 0);
			talloc_free(crel);
		}
	}
	if (!ch.ok)
		return false;
	recording_sort_init(ch.out, ch.n);
	rec->init = ch.out;
	rec->ninit = ch.n;
	rec->walk_cut = w->cut;
	return true;
}
