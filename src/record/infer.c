/*
 * infer.c - a trace's initial state inferred from its calls (infer.h).
 *
 * Owns what it knows of each path; knows nothing of descriptors or of
 * the writer.
 */
#include <stdlib.h>
#include <string.h>

#include "record/infer.h"
#include "record/pathmap.h"

enum state {
	S_EXISTED = 1,	/* there before the trace */
	S_MAYBE,	/* opened with O_CREAT: there before, or made then */
	S_CREATED,	/* made by the trace */
	S_ABSENT,	/* not there before (ENOENT first) */
};

struct ipath {
	enum state state;
	enum rec_init_type type;
	bool type_known;
	unsigned mode;
	bool mode_known;
	uint64_t size;
	bool size_exact;	/* from stat, or a short read */
	bool changed;		/* written, truncated: sizes seen later say nothing */
	char *target;		/* a symbolic link's, from readlink */
};

struct infer {
	struct pathmap *paths;
	bool ok;
};

struct infer *infer_new(TALLOC_CTX *mem_ctx)
{
	struct infer *inf = talloc_zero(mem_ctx, struct infer);

	if (inf && !(inf->paths = pathmap_new(inf))) {
		talloc_free(inf);
		return NULL;
	}
	if (inf)
		inf->ok = true;
	return inf;
}

static struct ipath *get(struct infer *inf, const char *rel)
{
	struct ipath *p = pathmap_get(inf->paths, rel);

	if (!p && (p = talloc_zero(inf->paths, struct ipath)) && !pathmap_put(inf->paths, rel, p))
		p = NULL;
	if (!p)
		inf->ok = false;
	return p;
}

static void set_type(struct ipath *p, enum rec_init_type t)
{
	if (!p->type_known) {
		p->type = t;
		p->type_known = true;
	}
}

/* rel was there before the trace (if nothing said otherwise yet), and so
 * was every directory above it. */
static struct ipath *existed(struct infer *inf, const char *rel)
{
	struct ipath *p = get(inf, rel);

	if (!p)
		return NULL;
	if (!p->state || p->state == S_MAYBE)
		p->state = S_EXISTED;
	char *dir = talloc_strdup(NULL, rel);
	for (char *s; dir && (s = strrchr(dir, '/')) != NULL;) {
		*s = '\0';
		struct ipath *d = get(inf, dir);
		if (!d)
			break;
		set_type(d, REC_DIR);
		if (d->state && d->state != S_MAYBE)
			break;
		d->state = S_EXISTED;
	}
	talloc_free(dir);
	return p;
}

/* rel was made by the trace: its parent was there (or made before it). */
static void created(struct infer *inf, const char *rel, enum rec_init_type t)
{
	struct ipath *p = get(inf, rel);

	if (!p)
		return;
	if (!p->state || p->state == S_ABSENT || p->state == S_MAYBE)
		p->state = S_CREATED;
	set_type(p, t);
	const char *s = strrchr(rel, '/');
	if (s) {
		char *dir = talloc_strndup(NULL, rel, (size_t)(s - rel));
		if (dir) {
			struct ipath *d = get(inf, dir);
			if (d && !d->state)
				existed(inf, dir);
			if (d)
				set_type(d, REC_DIR);
		}
		talloc_free(dir);
	}
}

/* What stat printed: {st_mode=S_IFREG|0644, st_size=5000, ...} (or the
 * statx fields). */
static void from_stat(struct ipath *p, const char *text)
{
	const char *m = strstr(text, "st_mode=");
	const char *sz = strstr(text, "st_size=");

	if (!m) {
		m = strstr(text, "stx_mode=");
		sz = strstr(text, "stx_size=");
	}
	if (!m || p->changed)
		return;
	m = strchr(m, '=') + 1;
	if (strncmp(m, "S_IFDIR", 7) == 0)
		set_type(p, REC_DIR);
	else if (strncmp(m, "S_IFLNK", 7) == 0)
		set_type(p, REC_SYMLINK);
	else if (strncmp(m, "S_IFREG", 7) == 0)
		set_type(p, REC_FILE);
	const char *bar = strchr(m, '|');
	if (bar && bar[1] == '0') {
		p->mode = (unsigned)strtoul(bar + 1, NULL, 8) & 07777;
		p->mode_known = true;
	}
	if (sz && p->type == REC_FILE) {
		p->size = strtoull(strchr(sz, '=') + 1, NULL, 10);
		p->size_exact = true;
	}
}

static bool named(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return true;
	return false;
}

/* The calls whose success says their (first) path was there. */
static const char *const needs_path[] = {
	"stat", "lstat", "newfstatat", "statx", "access", "faccessat", "faccessat2", "readlink",
	"readlinkat", "chmod", "fchmodat", "chown", "lchown", "fchownat", "truncate", "utimensat",
	"getxattr", "lgetxattr", "setxattr", "lsetxattr", "listxattr", "llistxattr", "removexattr",
	"lremovexattr", "statfs", "chdir", "unlink", "unlinkat", "rmdir", "rename", "renameat",
	"renameat2", "link", "linkat", NULL
};
static const char *const creates[] = { "mkdir", "mkdirat", "symlink", "symlinkat", "link", "linkat", NULL };
static const char *const changes[] = {
	"write", "pwrite64", "writev", "pwritev", "pwritev2", "ftruncate", "truncate", "fallocate", NULL
};
static const char *const reads[] = { "read", "pread64", "readv", "preadv", "preadv2", NULL };

/* The flags of an open call, as printed. */
static const char *open_flags(const struct sc_call *c)
{
	if (strcmp(c->name, "open") == 0)
		return c->nargs > 1 ? c->arg[1] : "";
	if (strcmp(c->name, "openat") == 0)
		return c->nargs > 2 ? c->arg[2] : "";
	return "O_CREAT|O_TRUNC";	/* creat */
}

static void on_open(struct infer *inf, const struct sc_call *c, const char *rel)
{
	const char *f = open_flags(c);
	bool creat = strstr(f, "O_CREAT") != NULL, excl = strstr(f, "O_EXCL") != NULL;
	struct ipath *p = get(inf, rel);

	if (!p)
		return;
	if (c->ret < 0) {
		if (strcmp(c->err, "ENOENT") == 0 && !p->state)
			p->state = S_ABSENT;
		else if (strcmp(c->err, "EEXIST") == 0)
			existed(inf, rel);
		return;
	}
	if (strstr(f, "O_DIRECTORY"))
		set_type(p, REC_DIR);
	if (!creat)
		existed(inf, rel);
	else if (excl)
		created(inf, rel, REC_FILE);
	else if (!p->state || p->state == S_ABSENT)
		p->state = p->state == S_ABSENT ? S_CREATED : S_MAYBE;
	if (creat) {
		set_type(p, REC_FILE);
		const char *s = strrchr(rel, '/');
		if (s) {
			char *dir = talloc_strndup(NULL, rel, (size_t)(s - rel));
			if (dir && !pathmap_get(inf->paths, dir))
				existed(inf, dir);
			talloc_free(dir);
		}
	}
	if (strstr(f, "O_TRUNC"))
		p->changed = true;
}

static void on_read(struct infer *inf, const char *rel, int64_t got, uint64_t extent, uint64_t asked)
{
	struct ipath *p = get(inf, rel);

	if (!p || p->changed || got < 0)
		return;
	if (p->state == S_MAYBE && got > 0)
		existed(inf, rel);
	if (p->state != S_EXISTED)
		return;
	set_type(p, REC_FILE);
	if (p->size_exact)
		return;
	if (extent > p->size)
		p->size = extent;
	if ((uint64_t)got < asked) {
		p->size = extent;
		p->size_exact = true;
	}
}

bool infer_call(struct infer *inf, const char *call, const struct sc_call *c, const char *rel,
		const char *rel2, uint64_t extent, uint64_t asked)
{
	const char *n = call;
	bool ok = c->ret >= 0;

	if (!rel)
		return inf->ok;
	if (strcmp(n, "open") == 0 || strcmp(n, "openat") == 0 || strcmp(n, "creat") == 0) {
		on_open(inf, c, rel);
	} else if (named(n, reads)) {
		on_read(inf, rel, c->ret, extent, asked);
	} else if (strcmp(n, "copy_file_range") == 0 || strcmp(n, "sendfile") == 0) {
		on_read(inf, rel, c->ret, extent, asked);
		struct ipath *p = rel2 ? get(inf, rel2) : NULL;
		if (p && ok)
			p->changed = true;
	} else if (named(n, changes)) {
		struct ipath *p = get(inf, rel);
		if (p && ok)
			p->changed = true;
	} else if (named(n, creates)) {
		const char *made = rel2 ? rel2 : rel;
		if (rel2 && ok)
			existed(inf, rel);
		if (ok)
			created(inf, made, strncmp(n, "mkdir", 5) == 0 ? REC_DIR
					   : strncmp(n, "symlink", 7) == 0 ? REC_SYMLINK : REC_FILE);
		else if (strcmp(c->err, "EEXIST") == 0 && existed(inf, made) && strncmp(n, "mkdir", 5) == 0)
			set_type(get(inf, made), REC_DIR);
	} else if (named(n, needs_path)) {
		struct ipath *p = get(inf, rel);
		if (p && !ok && strcmp(c->err, "ENOENT") == 0 && !p->state)
			p->state = S_ABSENT;
		if (p && ok) {
			existed(inf, rel);
			if (strcmp(n, "rmdir") == 0 || strcmp(n, "chdir") == 0)
				set_type(p, REC_DIR);
			for (int i = 1; i < c->nargs; i++)
				if (c->arg[i][0] == '{')
					from_stat(p, c->arg[i]);
			if ((strcmp(n, "readlink") == 0 || strcmp(n, "readlinkat") == 0) && !p->target) {
				set_type(p, REC_SYMLINK);
				p->target = strace_string(p, c->arg[strcmp(n, "readlink") ? 2 : 1], NULL);
			}
		}
		if (ok && rel2)
			created(inf, rel2, REC_FILE);
	} else if (ok && (strcmp(n, "fstat") == 0 || strcmp(n, "getdents64") == 0 ||
			  strcmp(n, "getdents") == 0 || strcmp(n, "fchdir") == 0)) {
		struct ipath *p = get(inf, rel);
		for (int i = 1; p && strcmp(n, "fstat") == 0 && i < c->nargs; i++)
			if (c->arg[i][0] == '{')
				from_stat(p, c->arg[i]);
		if (p && strcmp(n, "fstat") != 0)
			set_type(p, REC_DIR);
	}
	return inf->ok;
}

bool infer_finish(struct infer *inf, struct recording *rec)
{
	size_t n = pathmap_count(inf->paths), k = 0;
	struct rec_init *v = talloc_zero_array(rec, struct rec_init, n ? n : 1);

	if (!v || !inf->ok)
		return false;
	for (size_t i = 0; i < n; i++) {
		void *val;
		const char *rel = pathmap_key(inf->paths, i, &val);
		struct ipath *p = val;
		if (p->state != S_EXISTED || !*rel)
			continue;
		if (p->type == REC_SYMLINK && !p->target)
			p->type = REC_FILE;	/* a link whose target the trace never read */
		struct rec_init *e = &v[k++];
		e->path = talloc_strdup(v, rel);
		e->type = p->type_known ? p->type : REC_FILE;
		e->mode = p->mode_known ? p->mode : e->type == REC_DIR ? 0755 : 0644;
		e->size = e->type == REC_FILE ? p->size : 0;
		e->target = p->target ? talloc_strdup(v, p->target) : NULL;
	}
	recording_sort_init(v, k);
	rec->init = v;
	rec->ninit = k;
	return true;
}
