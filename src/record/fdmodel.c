/*
 * fdmodel.c - the recorded processes' descriptor tables and working
 * directories (fdmodel.h).
 *
 * Owns the tables, the open file descriptions and the working
 * directories; knows nothing of strace, roots or rows.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "record/fdmodel.h"
#include "record/pathmap.h"

struct fdent {
	struct ofd *o;		/* NULL: closed */
	bool cloexec;
};

struct fdtable {
	int refs;		/* threads sharing it */
	struct fdent *v;
	int n;			/* entries allocated */
};

struct fsinfo {
	int refs;
	char *cwd;
};

struct thread {
	struct fdtable *t;
	struct fsinfo *fs;
};

/* The thread found last: most calls are of the thread of the call
 * before, and a look-up by the text of its id cost a twentieth of a
 * recording's translation. */
struct last_thread {
	int tid;
	struct thread *t;	/* NULL: none */
};

struct fdmodel {
	struct pathmap *threads;	/* "tid" -> struct thread */
	struct last_thread *last;
	unsigned open_in_root, max_in_root;
};

struct fdmodel *fdmodel_new(TALLOC_CTX *mem_ctx)
{
	struct fdmodel *m = talloc_zero(mem_ctx, struct fdmodel);

	if (m && (!(m->threads = pathmap_new(m)) || !(m->last = talloc_zero(m, struct last_thread)))) {
		talloc_free(m);
		return NULL;
	}
	return m;
}

static struct thread *thread_of(const struct fdmodel *m, int tid)
{
	char key[PATHMAP_ID_KEY];

	if (m->last->t && m->last->tid == tid)
		return m->last->t;
	pathmap_id_key(key, tid);
	struct thread *t = pathmap_get(m->threads, key);
	if (t)
		*m->last = (struct last_thread){ tid, t };
	return t;
}

static bool put_thread(struct fdmodel *m, int tid, struct thread *t)
{
	char key[PATHMAP_ID_KEY];

	pathmap_id_key(key, tid);
	if (!pathmap_put(m->threads, key, t))
		return false;
	*m->last = (struct last_thread){ tid, t };
	return true;
}

bool fdmodel_known(const struct fdmodel *m, int tid)
{
	return thread_of(m, tid) != NULL;
}

bool fdmodel_add(struct fdmodel *m, int tid, const char *cwd)
{
	struct thread *t = talloc_zero(m, struct thread);

	if (!t || !(t->t = talloc_zero(m, struct fdtable)) || !(t->fs = talloc_zero(m, struct fsinfo)) ||
	    !(t->fs->cwd = talloc_strdup(t->fs, cwd)))
		return false;
	t->t->refs = t->fs->refs = 1;
	return put_thread(m, tid, t);
}

static void unref_ofd(struct fdmodel *m, struct ofd *o)
{
	if (o->in_root && m->open_in_root)
		m->open_in_root--;
	if (--o->refs == 0)
		talloc_free(o);
}

static void ref_ofd(struct fdmodel *m, struct ofd *o)
{
	o->refs++;
	if (o->in_root && ++m->open_in_root > m->max_in_root)
		m->max_in_root = m->open_in_root;
}

/* A copy of table src: every open descriptor points at the same
 * description. */
static struct fdtable *table_copy(struct fdmodel *m, const struct fdtable *src)
{
	struct fdtable *t = talloc_zero(m, struct fdtable);

	if (!t || (src->n && !(t->v = talloc_zero_array(t, struct fdent, src->n)))) {
		talloc_free(t);
		return NULL;
	}
	t->refs = 1;
	t->n = src->n;
	for (int i = 0; i < src->n; i++) {
		t->v[i] = src->v[i];
		if (t->v[i].o)
			ref_ofd(m, t->v[i].o);
	}
	return t;
}

static void table_unref(struct fdmodel *m, struct fdtable *t)
{
	if (--t->refs > 0)
		return;
	for (int i = 0; i < t->n; i++)
		if (t->v[i].o)
			unref_ofd(m, t->v[i].o);
	talloc_free(t);
}

bool fdmodel_clone(struct fdmodel *m, int parent, int child, unsigned long flags)
{
	struct thread *p = thread_of(m, parent);
	struct thread *c = talloc_zero(m, struct thread);

	if (!p || !c)
		return false;
	if (flags & CLONE_FILES) {
		c->t = p->t;
		c->t->refs++;
	} else if (!(c->t = table_copy(m, p->t))) {
		return false;
	}
	if (flags & CLONE_FS) {
		c->fs = p->fs;
		c->fs->refs++;
	} else {
		if (!(c->fs = talloc_zero(m, struct fsinfo)) ||
		    (p->fs->cwd && !(c->fs->cwd = talloc_strdup(c->fs, p->fs->cwd))))
			return false;
		c->fs->refs = 1;
	}
	struct thread *old = thread_of(m, child);
	if (old) {	/* a thread id used again: the old thread is gone */
		table_unref(m, old->t);
		if (--old->fs->refs == 0)
			talloc_free(old->fs);
	}
	return put_thread(m, child, c);
}

void fdmodel_exec(struct fdmodel *m, int tid)
{
	struct thread *t = thread_of(m, tid);

	if (!t)
		return;
	if (t->t->refs > 1) {
		struct fdtable *own = table_copy(m, t->t);
		if (!own)
			return;
		table_unref(m, t->t);
		t->t = own;
	}
	for (int i = 0; i < t->t->n; i++)
		if (t->t->v[i].o && t->t->v[i].cloexec) {
			unref_ofd(m, t->t->v[i].o);
			t->t->v[i].o = NULL;
		}
}

bool fdmodel_shared(const struct fdmodel *m, int tid)
{
	struct thread *t = thread_of(m, tid);

	return t && t->t->refs > 1;
}

static struct fdent *slot(const struct fdmodel *m, int tid, int fd)
{
	struct thread *t = thread_of(m, tid);

	if (!t || fd < 0 || fd >= t->t->n)
		return NULL;
	return &t->t->v[fd];
}

struct ofd *fdmodel_get(const struct fdmodel *m, int tid, int fd)
{
	struct fdent *e = slot(m, tid, fd);

	return e ? e->o : NULL;
}

/* The entry for fd in tid's table, grown to hold it. */
static struct fdent *slot_grow(struct fdmodel *m, int tid, int fd)
{
	struct thread *t = thread_of(m, tid);

	if (!t || fd < 0 || fd > (1 << 24))
		return NULL;
	size_t n = (size_t)t->t->n;	/* at most 2^25: an int */
	if (!grow_array(t->t, (void **)&t->t->v, sizeof(struct fdent), &n, (size_t)fd + 1, 16))
		return NULL;
	t->t->n = (int)n;
	return &t->t->v[fd];
}

struct ofd *fdmodel_open(struct fdmodel *m, int tid, int fd, bool cloexec, bool in_root)
{
	struct fdent *e = slot_grow(m, tid, fd);
	struct ofd *o = e ? talloc_zero(m, struct ofd) : NULL;

	if (!o)
		return NULL;
	if (e->o)
		unref_ofd(m, e->o);
	o->in_root = in_root;
	ref_ofd(m, o);
	e->o = o;
	e->cloexec = cloexec;
	return o;
}

bool fdmodel_dup(struct fdmodel *m, int tid, int oldfd, int newfd, bool cloexec)
{
	struct ofd *o = fdmodel_get(m, tid, oldfd);
	struct fdent *e = o ? slot_grow(m, tid, newfd) : NULL;

	if (!e)
		return false;
	if (e->o == o) {	/* dup2(fd, fd) changes nothing */
		return true;
	}
	ref_ofd(m, o);
	if (e->o)
		unref_ofd(m, e->o);
	e->o = o;
	e->cloexec = cloexec;
	return true;
}

bool fdmodel_close(struct fdmodel *m, int tid, int fd)
{
	struct fdent *e = slot(m, tid, fd);

	if (!e || !e->o)
		return false;
	unref_ofd(m, e->o);
	e->o = NULL;
	return true;
}

void fdmodel_set_cloexec(struct fdmodel *m, int tid, int fd, bool cloexec)
{
	struct fdent *e = slot(m, tid, fd);

	if (e && e->o)
		e->cloexec = cloexec;
}

void fdmodel_each(struct fdmodel *m, int tid, int lo, int hi,
		  void (*fn)(void *arg, int fd, struct ofd *o), void *arg)
{
	struct thread *t = thread_of(m, tid);

	for (int fd = lo < 0 ? 0 : lo; t && fd <= hi && fd < t->t->n; fd++)
		if (t->t->v[fd].o)
			fn(arg, fd, t->t->v[fd].o);
}

void fdmodel_each_cloexec(struct fdmodel *m, int tid,
			  void (*fn)(void *arg, int fd, struct ofd *o), void *arg)
{
	struct thread *t = thread_of(m, tid);

	for (int fd = 0; t && fd < t->t->n; fd++)
		if (t->t->v[fd].o && t->t->v[fd].cloexec)
			fn(arg, fd, t->t->v[fd].o);
}

const char *fdmodel_cwd(const struct fdmodel *m, int tid)
{
	struct thread *t = thread_of(m, tid);

	return t ? t->fs->cwd : NULL;
}

bool fdmodel_chdir(struct fdmodel *m, int tid, const char *path)
{
	struct thread *t = thread_of(m, tid);
	char *cwd = t && path ? talloc_strdup(t->fs, path) : NULL;

	if (!t || (path && !cwd))
		return false;
	talloc_free(t->fs->cwd);
	t->fs->cwd = cwd;
	return true;
}

unsigned fdmodel_open_in_root(const struct fdmodel *m)
{
	return m->open_in_root;
}

unsigned fdmodel_max_in_root(const struct fdmodel *m)
{
	return m->max_in_root;
}
