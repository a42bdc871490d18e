/*
 * infer.c - a trace's initial state inferred from its calls (infer.h).
 *
 * Owns what it knows of each name of the initial state (struct
 * infer_file, by its name before the trace) and what each name means as
 * the trace goes (struct iname, by its name now); knows nothing of
 * descriptors or of the writer.
 */
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "record/infer.h"
#include "record/pathmap.h"

enum state {
	S_UNKNOWN,
	S_EXISTED,	/* there before the trace */
	S_MAYBE,	/* opened with O_CREAT: there before, or made then */
	S_ABSENT,	/* not there before (ENOENT first, or made by an exclusive call) */
};

/* A name of the initial state. */
struct infer_file {
	char *path;		/* its name before the trace (the map's key) */
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

/* What a name means now. */
struct iname {
	struct infer_file *origin;	/* the name it had before the trace; NULL:
					 * the trace made it */
	bool gone;			/* removed, or renamed away: nothing there */
	bool parent;			/* a name beneath it is known */
};

struct infer {
	struct pathmap *files;	/* name before the trace -> struct infer_file */
	struct pathmap *names;	/* name now -> struct iname */
	bool ok;
};

struct infer *infer_new(TALLOC_CTX *mem_ctx)
{
	struct infer *inf = talloc_zero(mem_ctx, struct infer);

	if (inf && (!(inf->files = pathmap_new(inf)) || !(inf->names = pathmap_new(inf)))) {
		talloc_free(inf);
		return NULL;
	}
	if (inf)
		inf->ok = true;
	return inf;
}

static struct infer_file *file_of(struct infer *inf, const char *rel)
{
	struct infer_file *p = pathmap_get(inf->files, rel);

	if (!p && (p = talloc_zero(inf->files, struct infer_file)) &&
	    (!(p->path = talloc_strdup(p, rel)) || !pathmap_put(inf->files, rel, p)))
		p = NULL;
	if (!p)
		inf->ok = false;
	return p;
}

/* The directory of rel ("" for a name at the top), on mem_ctx. */
static char *dir_of(TALLOC_CTX *mem_ctx, const char *rel)
{
	const char *s = strrchr(rel, '/');

	return talloc_strndup(mem_ctx, rel, s ? (size_t)(s - rel) : 0);
}

/* What rel means now: on its first sight, the name its directory had
 * before the trace with rel's leaf, or nothing beneath a directory the
 * trace made or removed.  NULL when memory ran out. */
static struct iname *name_of(struct infer *inf, const char *rel)
{
	struct iname *n = pathmap_get(inf->names, rel);

	if (n || !inf->ok)
		return n;
	if (!(n = talloc_zero(inf->names, struct iname)) || !pathmap_put(inf->names, rel, n)) {
		inf->ok = false;
		return NULL;
	}
	if (!*rel) {
		n->origin = file_of(inf, "");	/* the root */
		return n;
	}
	char *dir = dir_of(NULL, rel);
	struct iname *d = dir ? name_of(inf, dir) : NULL;
	if (d && d->origin && !d->gone) {
		const char *leaf = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
		char *was = *d->origin->path ? talloc_asprintf(dir, "%s/%s", d->origin->path, leaf)
					     : talloc_strdup(dir, leaf);
		n->origin = was ? file_of(inf, was) : NULL;
	}
	if (d)
		d->parent = true;
	inf->ok = inf->ok && dir && d;
	talloc_free(dir);
	return n;
}

static void set_type(struct infer_file *p, enum rec_init_type t)
{
	if (p && !p->type_known) {
		p->type = t;
		p->type_known = true;
	}
}

/* p was there before the trace, and so was every directory above it. */
static void existed(struct infer *inf, struct infer_file *p)
{
	if (p->state == S_UNKNOWN || p->state == S_MAYBE)
		p->state = S_EXISTED;
	char *dir = talloc_strdup(NULL, p->path);
	for (char *s; dir && (s = strrchr(dir, '/')) != NULL;) {
		*s = '\0';
		struct infer_file *d = file_of(inf, dir);
		if (!d)
			break;
		if (d->state == S_EXISTED || d->state == S_ABSENT)
			break;	/* found not there first: something unseen made it */
		set_type(d, REC_DIR);
		d->state = S_EXISTED;
	}
	talloc_free(dir);
}

/* A call found name n there now: the name it had before the trace was
 * there then, unless the trace may have made it (an open with O_CREAT);
 * a name thought gone was made by something the trace does not show. */
static void exists(struct infer *inf, struct iname *n)
{
	if (!n)
		return;
	if (n->gone) {
		n->gone = false;
		n->origin = NULL;
	} else if (n->origin && n->origin->state == S_UNKNOWN) {
		existed(inf, n->origin);
	}
}

/* The directory above rel is there now (a name was made or moved in it). */
static void dir_exists(struct infer *inf, const char *rel)
{
	char *dir = dir_of(NULL, rel);
	struct iname *d = dir ? name_of(inf, dir) : NULL;

	exists(inf, d);
	if (d && d->origin && !d->gone)
		set_type(d->origin, REC_DIR);
	talloc_free(dir);
}

/* A call found no name n (ENOENT). */
static void absent(struct iname *n)
{
	if (n && !n->gone && n->origin && n->origin->state == S_UNKNOWN)
		n->origin->state = S_ABSENT;
}

/* The trace made name rel; `fresh` when the call needed it absent (mkdir,
 * O_EXCL, symlink, link), so that it was not there before either. */
static void made(struct infer *inf, const char *rel, bool fresh)
{
	struct iname *n = name_of(inf, rel);

	dir_exists(inf, rel);
	if (!n)
		return;
	if (fresh)
		absent(n);
	n->origin = NULL;
	n->gone = false;
}

/* The file of the initial state name n stands for now, or NULL. */
static struct infer_file *now(struct iname *n)
{
	return n && !n->gone ? n->origin : NULL;
}

/* ---- renames ---- */

/* Names beneath `from` (`from/...`) and what each meant, before a rename
 * moves them. */
struct moved {
	char **rest;		/* what follows from/ */
	struct iname *was;	/* copies */
	size_t n;
};

static bool collect(struct infer *inf, const char *from, struct moved *m, TALLOC_CTX *mem_ctx)
{
	size_t len = strlen(from), count = pathmap_count(inf->names);

	m->n = 0;
	m->rest = talloc_array(mem_ctx, char *, count ? count : 1);
	m->was = talloc_array(mem_ctx, struct iname, count ? count : 1);
	if (!m->rest || !m->was)
		return false;
	for (size_t i = 0; i < count; i++) {
		void *v;
		const char *k = pathmap_key(inf->names, i, &v);
		if (strncmp(k, from, len) != 0 || k[len] != '/' || ((struct iname *)v)->gone)
			continue;
		m->rest[m->n] = talloc_strdup(m->rest, k + len + 1);
		m->was[m->n++] = *(struct iname *)v;
		((struct iname *)v)->gone = true;
	}
	return true;
}

/* The names collected, beneath `to` now. */
static bool place_moved(struct infer *inf, const char *to, const struct moved *m)
{
	for (size_t i = 0; i < m->n; i++) {
		char *k = talloc_asprintf(inf->names, "%s/%s", to, m->rest[i]);
		struct iname *n = k ? talloc(inf->names, struct iname) : NULL;
		if (!n || !pathmap_put(inf->names, k, n))
			return false;
		*n = m->was[i];
		talloc_free(k);
	}
	return true;
}

/* rename(from, to): to means what from meant, beneath it too; from is
 * gone (or, exchanged, means what to meant). */
static void renamed(struct infer *inf, const char *from, const char *to, bool exchange)
{
	struct iname *a = name_of(inf, from), *b = name_of(inf, to);
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct moved ma = { 0 }, mb = { 0 };

	if (!a || !b || !tmp) {
		inf->ok = false;
		talloc_free(tmp);
		return;
	}
	exists(inf, a);
	dir_exists(inf, to);
	if (exchange)
		exists(inf, b);
	struct iname was_a = *a, was_b = *b;
	*b = was_a;
	*a = exchange ? was_b : (struct iname){ .origin = was_a.origin, .gone = true };
	if ((was_a.parent || was_b.parent) &&
	    (!collect(inf, from, &ma, tmp) || !collect(inf, to, &mb, tmp) ||
	     !place_moved(inf, to, &ma) || (exchange && !place_moved(inf, from, &mb))))
		inf->ok = false;
	talloc_free(tmp);
}

/* ---- what calls say ---- */

/* What stat printed: {st_mode=S_IFREG|0644, st_size=5000, ...} (or the
 * statx fields), of the file p stands for.  A file the trace may have
 * made (O_CREAT) that stat finds bytes in before any write existed. */
static void from_stat(struct infer *inf, struct infer_file *p, const char *text)
{
	const char *m = strstr(text, "st_mode=");
	const char *sz = strstr(text, "st_size=");

	if (!m) {
		m = strstr(text, "stx_mode=");
		sz = strstr(text, "stx_size=");
	}
	if (!p || !m || p->changed)
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
		if (p->state == S_MAYBE && p->size > 0)
			existed(inf, p);
	}
}

/* Every structure argument of c, as stat printed it. */
static void stats_of(struct infer *inf, struct infer_file *p, const struct sc_call *c)
{
	for (int i = 1; p && i < c->nargs; i++)
		if (c->arg[i][0] == '{')
			from_stat(inf, p, c->arg[i]);
}

/* The flags of an open call, as printed: creat's own, or the argument
 * its shape gives (open's second, openat's and openat2's third). */
static const char *open_flags(const struct infer_row *r)
{
	const char *n = strchr(r->shape, 'N');
	int i = n ? (int)(n - r->shape) : r->c->nargs;

	if (op_has(r->op, OPD_CREAT))
		return "O_CREAT|O_TRUNC";
	return i < r->c->nargs ? r->c->arg[i] : "";
}

/* An open that succeeded with O_CREAT but not O_EXCL: the file may have
 * been there, or made then. */
static struct infer_file *open_creating(struct infer *inf, const char *rel, struct iname *n)
{
	struct infer_file *p = now(n);

	dir_exists(inf, rel);
	if (p && p->state == S_UNKNOWN)
		p->state = S_MAYBE;
	else if (!p || p->state == S_ABSENT)
		made(inf, rel, false);
	return now(n);
}

static void on_open(struct infer *inf, struct infer_row *r)
{
	const struct sc_call *c = r->c;
	const char *f = open_flags(r);
	bool creat = strstr(f, "O_CREAT") != NULL, excl = strstr(f, "O_EXCL") != NULL;
	struct iname *n = name_of(inf, r->rel);

	if (c->ret < 0) {
		if (strcmp(c->err, "ENOENT") == 0)
			absent(n);
		else if (strcmp(c->err, "EEXIST") == 0)
			exists(inf, n);
		return;
	}
	if (!creat)
		exists(inf, n);
	else if (excl)
		made(inf, r->rel, true);
	r->opened = creat && !excl ? open_creating(inf, r->rel, n) : now(n);
	if (strstr(f, "O_DIRECTORY"))
		set_type(r->opened, REC_DIR);
	else if (creat)
		set_type(r->opened, REC_FILE);
	if (r->opened && strstr(f, "O_TRUNC"))
		r->opened->changed = true;
}

static void on_read(struct infer *inf, struct infer_file *p, int64_t got, uint64_t extent,
		    uint64_t asked)
{
	if (!p || p->changed || got < 0)
		return;
	if (p->state == S_MAYBE && got > 0)
		existed(inf, p);
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

/* A call that names a path it needs there (stat, chmod, readlink ...). */
static void on_path(struct infer *inf, const struct infer_row *r)
{
	const struct sc_call *c = r->c;
	struct iname *name = name_of(inf, r->rel);
	uint32_t f = op_table[r->op].flags;

	if (c->ret < 0) {
		if (strcmp(c->err, "ENOENT") == 0)
			absent(name);
		return;
	}
	exists(inf, name);
	struct infer_file *p = now(name);
	if (!p)
		return;
	if (f & OPD_CHDIR)
		set_type(p, REC_DIR);
	if (f & OPD_RESIZES)
		p->changed = true;
	stats_of(inf, p, c);
	const char *buf = strchr(r->shape, '_');	/* readlink's target */
	if ((f & OPD_READLINK) && !p->target && buf) {
		set_type(p, REC_SYMLINK);
		p->target = strace_string(p, c->arg[buf - r->shape], NULL);
	}
}

/* unlink, rmdir; rename; mkdir, symlink, link. */
static void on_names(struct infer *inf, const struct infer_row *r)
{
	const struct sc_call *c = r->c;
	const char *rel = r->rel, *rel2 = r->rel2;
	uint32_t f = op_table[r->op].flags;
	bool ok = c->ret >= 0;

	if (f & OPD_REMOVES) {
		struct iname *name = name_of(inf, rel);
		if (!ok) {
			if (strcmp(c->err, "ENOENT") == 0)
				absent(name);
			return;
		}
		exists(inf, name);
		bool dir = (f & OPD_DIR) || (c->nargs > 2 && strstr(c->arg[2], "AT_REMOVEDIR"));
		if (dir)
			set_type(now(name), REC_DIR);
		if (name)
			name->gone = true;
	} else if (f & OPD_RENAMES) {
		if (ok && rel2)
			renamed(inf, rel, rel2, strstr(c->raw ? c->raw : "", "RENAME_EXCHANGE") != NULL);
		else if (!ok && strcmp(c->err, "ENOENT") == 0)
			absent(name_of(inf, rel));
		else if (!ok && strcmp(c->err, "EEXIST") == 0 && rel2) {
			exists(inf, name_of(inf, rel));	/* the source is looked up first */
			exists(inf, name_of(inf, rel2));
		}
	} else {
		const char *made_name = rel2 ? rel2 : rel;	/* link's new name */
		if (rel2 && ok)
			exists(inf, name_of(inf, rel));
		if (ok)
			made(inf, made_name, true);
		else if (strcmp(c->err, "EEXIST") == 0) {
			struct iname *name = name_of(inf, made_name);
			exists(inf, name);
			if (f & OPD_DIR)
				set_type(now(name), REC_DIR);
		}
	}
}

/* A call on a descriptor: what it opened on. */
static void on_file(struct infer *inf, struct infer_row *r)
{
	struct infer_file *p = r->file;
	uint32_t f = op_table[r->op].flags;
	int bytes = op_table[r->op].bytes;

	if (f & OPD_COPIES) {
		on_read(inf, p, r->c->ret, r->extent, r->asked);
		if (r->file2 && r->c->ret >= 0)
			r->file2->changed = true;
	} else if (bytes == BYTES_READ) {
		on_read(inf, p, r->c->ret, r->extent, r->asked);
	} else if (bytes == BYTES_WRITE || (f & OPD_RESIZES)) {
		if (p && r->c->ret >= 0)
			p->changed = true;
	} else if (r->c->ret >= 0 && (f & OPD_STATS)) {
		stats_of(inf, p, r->c);
	} else if (r->c->ret >= 0 && (f & (OPD_LISTS | OPD_CHDIR))) {
		set_type(p, REC_DIR);
	}
}

bool infer_call(struct infer *inf, struct infer_row *r)
{
	uint32_t f = op_table[r->op].flags;

	r->opened = NULL;
	if (!r->rel)
		on_file(inf, r);
	else if (f & OPD_OPENS)
		on_open(inf, r);
	else if (f & (OPD_REMOVES | OPD_RENAMES | OPD_MAKES | OPD_LINKS))
		on_names(inf, r);
	else	/* every other call on a path needs it there */
		on_path(inf, r);
	return inf->ok;
}

/* ---- the state ---- */

/* Whether path's parent is one of the directories kept so far (dirs),
 * or the root. */
static bool parent_kept(struct pathmap *dirs, const char *path)
{
	const char *s = strrchr(path, '/');
	char *parent = s ? talloc_strndup(NULL, path, (size_t)(s - path)) : NULL;
	bool kept = !s || (parent && pathmap_get(dirs, parent));

	talloc_free(parent);
	return kept;
}

/* The entry of the state for p, named rel, its strings on mem_ctx. */
static void entry_of(TALLOC_CTX *mem_ctx, struct rec_init *e, struct infer_file *p, const char *rel)
{
	if (p->type == REC_SYMLINK && !p->target)
		p->type = REC_FILE;	/* a link whose target the trace never read */
	*e = (struct rec_init){ .path = talloc_strdup(mem_ctx, rel) };
	e->type = p->type_known ? p->type : REC_FILE;
	e->mode = p->mode_known ? p->mode : e->type == REC_DIR ? 0755 : 0644;
	e->size = e->type == REC_FILE ? p->size : 0;
	e->target = p->target ? talloc_strdup(mem_ctx, p->target) : NULL;
}

/* rec->init: v's k entries sorted, less those beneath a file or beneath
 * a parent left out. */
static bool set_state(struct recording *rec, struct rec_init *v, size_t k)
{
	recording_sort_init(v, k);
	struct pathmap *dirs = pathmap_new(NULL);
	bool ok = dirs != NULL;
	size_t kept = 0;
	for (size_t i = 0; ok && i < k; i++) {
		if (!parent_kept(dirs, v[i].path))
			continue;
		v[kept] = v[i];
		ok = v[kept].type != REC_DIR || pathmap_put(dirs, v[kept].path, v);
		kept++;
	}
	talloc_free(dirs);
	rec->init = v;
	rec->ninit = kept;
	return ok;
}

bool infer_finish(struct infer *inf, struct recording *rec)
{
	size_t n = pathmap_count(inf->files), k = 0;
	struct rec_init *v = talloc_zero_array(rec, struct rec_init, n ? n : 1);

	if (!v || !inf->ok)
		return false;
	for (size_t i = 0; i < n; i++) {
		void *val;
		const char *rel = pathmap_key(inf->files, i, &val);
		struct infer_file *p = val;
		if (p->state == S_EXISTED && *rel)
			entry_of(v, &v[k++], p, rel);
	}
	return set_state(rec, v, k);
}

/* Whether the calls found rel, or a directory above it, not there. */
static bool found_absent(struct infer *inf, const char *rel)
{
	char *p = talloc_strdup(NULL, rel);
	bool absent = false;

	while (p && *p && !absent) {
		struct infer_file *f = pathmap_get(inf->files, p);
		absent = f && f->state == S_ABSENT;
		char *s = strrchr(p, '/');
		if (!s)
			break;
		*s = '\0';
	}
	talloc_free(p);
	return absent;
}

bool infer_reconcile(struct infer *inf, struct recording *rec)
{
	size_t n = pathmap_count(inf->files), k = 0;
	struct rec_init *v = talloc_zero_array(rec, struct rec_init, rec->ninit + n + 1);
	struct pathmap *seen = pathmap_new(NULL);
	bool ok = v && seen && inf->ok;

	for (size_t i = 0; ok && i < rec->ninit; i++) {
		if (found_absent(inf, rec->init[i].path))
			continue;	/* made since the walk: not of the state */
		v[k] = rec->init[i];
		ok = pathmap_put(seen, v[k++].path, v);
	}
	for (size_t i = 0; ok && i < n; i++) {
		void *val;
		const char *rel = pathmap_key(inf->files, i, &val);
		struct infer_file *p = val;
		if (p->state == S_EXISTED && *rel && !pathmap_get(seen, rel))
			entry_of(v, &v[k++], p, rel);	/* made before the attach */
	}
	talloc_free(seen);
	return ok && set_state(rec, v, k);
}
