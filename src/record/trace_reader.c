/*
 * trace_reader.c - a trace's calls in start order (trace_reader.h).
 *
 * Owns the trace files while they are read and the calls waiting for
 * their turn; knows nothing of what the calls do.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "record/trace_reader.h"

/* A call read and waiting for its turn (its strings hang off it). */
struct qcall {
	struct sc_call c;
	uint64_t line;
};

struct source {
	const char *path;
	int file_tid;		/* from PREFIX.TID, or 0 */
	FILE *f;
	int64_t first;		/* the start of its first call */
	enum sc_clock clock;	/* its times' kind, by its first call */
	int64_t clock_sum;	/* -r: the times so far added up */
	int64_t day;		/* -tt, -t: a day for each midnight passed */
	int64_t last_raw;	/* the last time read, as printed */
	int64_t last_start;	/* the last start handed on (by its lines' order) */
	bool done;		/* read to the end (or never had a call) */
	uint64_t line;
	struct qcall **ready;	/* whole calls, ascending start: ready[head .. nready) */
	size_t head, nready, capready;
	struct qcall **pending;	/* first halves waiting for their second */
	size_t npending, cappending;
};

struct trace_reader {
	struct source *src;	/* ascending first start */
	size_t n;
	size_t next_idle;	/* src[next_idle ...] not yet opened */
	uint64_t bad, unjoined;
	const char *last_path;
	uint64_t last_line;
	char *linebuf;
	size_t linecap;
};

static int tid_of_name(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash) || !dot[1])
		return 0;
	for (const char *p = dot + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return atoi(dot + 1);
}

static int cmp_first(const void *a, const void *b)
{
	const struct source *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

static int reader_destructor(struct trace_reader *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->src[i].f)
			fclose(r->src[i].f);
	free(r->linebuf);
	return 0;
}

/* The start of the file's first call, by its first lines. */
static int first_start(struct trace_reader *r, struct source *s, char **err, TALLOC_CTX *mem_ctx)
{
	FILE *f = fopen(s->path, "r");

	if (!f) {
		*err = talloc_asprintf(mem_ctx, "cannot open '%s': %s", s->path, strerror(errno));
		return -1;
	}
	s->done = true;
	TALLOC_CTX *tmp = talloc_new(NULL);
	ssize_t len;
	int rc = 0;
	for (uint64_t n = 1; (len = getline(&r->linebuf, &r->linecap, f)) >= 0; n++) {
		struct sc_call c;
		if (len > 0 && r->linebuf[len - 1] == '\n')
			r->linebuf[len - 1] = '\0';
		int parsed = strace_line_parse(tmp, r->linebuf, &c);
		if (parsed == SC_OUT_OF_RANGE) {
			*err = talloc_asprintf(mem_ctx, "%s:%llu: a number no call gives: '%s'", s->path,
					       (unsigned long long)n, c.raw ? c.raw : "");
			rc = -1;
			break;
		}
		if (parsed == 0 && c.kind != SC_OTHER) {
			s->first = c.clock == SC_CLOCK_EPOCH || c.clock == SC_CLOCK_DAY ? c.start_us : 0;
			s->clock = c.clock;
			s->done = false;
			break;
		}
		talloc_free_children(tmp);
	}
	talloc_free(tmp);
	fclose(f);
	return rc;
}

static const char *clock_name(enum sc_clock c)
{
	switch (c) {
	case SC_CLOCK_EPOCH: return "-ttt's";
	case SC_CLOCK_DAY: return "-tt's";
	case SC_CLOCK_SECONDS: return "whole seconds (-t)";
	case SC_CLOCK_RELATIVE: return "relative (-r)";
	case SC_CLOCK_NONE: break;
	}
	return "none";
}

/* Several files (-ff's) are put in order by their times, which must be
 * to the microsecond and of one kind; one file's lines are in order
 * already.  false with *err. */
static bool clocks_agree(struct trace_reader *r, TALLOC_CTX *mem_ctx, char **err)
{
	const struct source *a = NULL;

	for (size_t i = 0; i < r->n && r->n > 1; i++) {
		const struct source *s = &r->src[i];
		if (s->done)
			continue;	/* no call */
		if (s->clock != SC_CLOCK_EPOCH && s->clock != SC_CLOCK_DAY) {
			*err = talloc_asprintf(mem_ctx, "'%s': its times are %s: strace -ff's files are "
					       "put in order by their times, which needs -tt or -ttt "
					       "(or trace with -f into one file)", s->path,
					       clock_name(s->clock));
			return false;
		}
		if (a && a->clock != s->clock) {
			*err = talloc_asprintf(mem_ctx, "'%s' has %s times and '%s' %s: the files of "
					       "one trace, traced with other options?", a->path,
					       clock_name(a->clock), s->path, clock_name(s->clock));
			return false;
		}
		a = s;
	}
	return true;
}

#define DAY_US (86400LL * 1000000)

/* The line's start as the merge orders it: -tt's and -t's past midnight
 * a day on; -r's added up; a time not of the file's kind in the place
 * of the line before; in a file of coarse times (-t, -r, none), at least
 * a microsecond after the call before, so that the lines' order stays
 * the calls' order. */
static void line_time(struct source *s, struct sc_call *c)
{
	bool call = c->kind != SC_OTHER && c->kind != SC_RESUMED;
	bool coarse = s->clock != SC_CLOCK_EPOCH && s->clock != SC_CLOCK_DAY;
	int64_t t = c->start_us;

	if (c->clock != s->clock) {
		t = s->last_start;
	} else if (c->clock == SC_CLOCK_RELATIVE) {
		s->clock_sum += t;
		t = s->clock_sum;
	} else if (c->clock == SC_CLOCK_DAY || c->clock == SC_CLOCK_SECONDS) {
		if (t + DAY_US / 2 < s->last_raw)
			s->day += DAY_US;	/* past midnight */
		s->last_raw = t;
		t += s->day;
	}
	if (coarse && call && t <= s->last_start)
		t = s->last_start + 1;
	if (call && t > s->last_start)
		s->last_start = t;
	c->start_us = t;
}

struct trace_reader *trace_open(TALLOC_CTX *mem_ctx, const char *const *files, size_t n,
				char **err)
{
	struct trace_reader *r = talloc_zero(mem_ctx, struct trace_reader);

	if (!r || !(r->src = talloc_zero_array(r, struct source, n ? n : 1)))
		goto nomem;
	talloc_set_destructor(r, reader_destructor);
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->src[i].path = talloc_strdup(r, files[i]);
		if (!r->src[i].path)
			goto nomem;
		r->src[i].file_tid = n > 1 ? tid_of_name(files[i]) : 0;
		if (first_start(r, &r->src[i], err, mem_ctx) != 0) {
			talloc_free(r);
			return NULL;
		}
	}
	qsort(r->src, n, sizeof(*r->src), cmp_first);
	if (!clocks_agree(r, mem_ctx, err)) {
		talloc_free(r);
		return NULL;
	}
	return r;
nomem:
	talloc_free(r);
	*err = talloc_strdup(mem_ctx, "out of memory");
	return NULL;
}

static bool push(struct source *s, struct qcall ***arr, size_t *n, size_t *cap, struct qcall *q)
{
	if (*n == *cap && !grow_array(s->path, (void **)arr, sizeof(**arr), cap, *n + 1, 16))
		return false;
	(*arr)[(*n)++] = q;
	return true;
}

/* A whole call into the ready list, which stays in start order.  The
 * calls taken from its head leave their room there until the list is
 * full and they are half of it: the list can hold most of a trace
 * (behind a call unfinished all along, a thread's wait for the others),
 * and moving it down at every call taken made reading such a trace
 * quadratic. */
static bool ready_add(struct source *s, struct qcall *q)
{
	if (s->nready == s->capready && s->head > 0 && s->head >= s->nready / 2) {
		s->nready -= s->head;
		memmove(s->ready, s->ready + s->head, s->nready * sizeof(*s->ready));
		s->head = 0;
	}
	if (!push(s, &s->ready, &s->nready, &s->capready, q))
		return false;
	size_t i = s->nready - 1;
	while (i > s->head && s->ready[i - 1]->c.start_us > q->c.start_us) {
		s->ready[i] = s->ready[i - 1];
		i--;
	}
	s->ready[i] = q;
	return true;
}

/* The ready list's first call, or NULL. */
static struct qcall *ready_head(const struct source *s)
{
	return s->head < s->nready ? s->ready[s->head] : NULL;
}

/* Whether the head of the ready list may go: no first half still waiting
 * started before it. */
static bool head_free(const struct source *s)
{
	const struct qcall *h = ready_head(s);

	if (!h)
		return false;
	for (size_t i = 0; i < s->npending; i++)
		if (s->pending[i]->c.start_us < h->c.start_us)
			return false;
	return true;
}

/* One line of s taken in: a whole call, a half, or nothing.  0; -1 when
 * memory ran out; 1 for a line with a number out of range (*err says
 * where, on mem_ctx). */
static int take_line(struct trace_reader *r, struct source *s, const char *line,
		     TALLOC_CTX *mem_ctx, char **err)
{
	struct qcall *q = talloc_zero(s->path, struct qcall);

	if (!q)
		return -1;
	q->line = s->line;
	int parsed = strace_line_parse(q, line, &q->c);
	if (parsed == SC_OUT_OF_RANGE) {
		*err = talloc_asprintf(mem_ctx, "%s:%llu: a number no call gives: '%s'", s->path,
				       (unsigned long long)s->line, q->c.raw ? q->c.raw : "");
		talloc_free(q);
		return 1;
	}
	line_time(s, &q->c);
	if (parsed != 0 || q->c.kind == SC_OTHER) {
		if (parsed != 0 && *line)
			r->bad++;
		talloc_free(q);
		return 0;
	}
	if (q->c.tid == 0)
		q->c.tid = s->file_tid ? s->file_tid : 1;
	if (q->c.kind == SC_CALL)
		return ready_add(s, q) ? 0 : -1;
	if (q->c.kind == SC_UNFINISHED)
		return push(s, &s->pending, &s->npending, &s->cappending, q) ? 0 : -1;
	/* SC_RESUMED: the first half of the same thread and call */
	for (size_t i = 0; i < s->npending; i++) {
		struct qcall *p = s->pending[i];
		if (p->c.tid != q->c.tid || strcmp(p->c.name, q->c.name) != 0)
			continue;
		s->pending[i] = s->pending[--s->npending];
		int rc = strace_line_join(p, &p->c, &q->c);
		talloc_free(q);
		return rc == 0 && ready_add(s, p) ? 0 : -1;
	}
	r->unjoined++;
	talloc_free(q);
	return 0;
}

/* gcc's -fanalyzer (12) loses the FILE stored in s->f, an element of the
 * talloc()ed sources, and takes it for a leak in the two functions
 * below: it is closed at the file's end (fill()) or by the reader's
 * destructor.  Silenced for these two functions only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-file-leak"
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif

/* Read s until its head may go or it ends. */
static int fill(struct trace_reader *r, struct source *s, char **err, TALLOC_CTX *mem_ctx)
{
	while (!s->done && !head_free(s)) {
		errno = 0;
		ssize_t len = getline(&r->linebuf, &r->linecap, s->f);
		if (len < 0) {
			if (ferror(s->f)) {
				*err = talloc_asprintf(mem_ctx, "cannot read '%s': %s", s->path,
						       strerror(errno ? errno : EIO));
				return -1;
			}
			s->done = true;
			r->unjoined += s->npending;
			s->npending = 0;
			fclose(s->f);
			s->f = NULL;
			break;
		}
		s->line++;
		if (len > 0 && r->linebuf[len - 1] == '\n')
			r->linebuf[len - 1] = '\0';
		int rc = take_line(r, s, r->linebuf, mem_ctx, err);
		if (rc != 0) {
			if (rc < 0)
				*err = talloc_strdup(mem_ctx, "out of memory");
			return -1;
		}
	}
	return 0;
}

static int activate(struct trace_reader *r, struct source *s, char **err, TALLOC_CTX *mem_ctx)
{
	s->f = fopen(s->path, "r");
	if (!s->f) {
		*err = talloc_asprintf(mem_ctx, "cannot open '%s': %s", s->path, strerror(errno));
		return -1;
	}
	return fill(r, s, err, mem_ctx);
}

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#pragma GCC diagnostic pop
#endif

int trace_next(struct trace_reader *r, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err)
{
	for (;;) {
		struct source *best = NULL;
		for (size_t i = 0; i < r->next_idle; i++) {
			struct source *s = &r->src[i];
			if (ready_head(s) && (!best || ready_head(s)->c.start_us < ready_head(best)->c.start_us))
				best = s;
		}
		if (r->next_idle < r->n &&
		    (!best || r->src[r->next_idle].first <= ready_head(best)->c.start_us)) {
			struct source *s = &r->src[r->next_idle++];
			if (!s->done && activate(r, s, err, mem_ctx) != 0)
				return -1;
			continue;
		}
		if (!best)
			return 0;
		struct qcall *q = ready_head(best);
		if (++best->head == best->nready)
			best->head = best->nready = 0;
		*c = q->c;
		talloc_steal(mem_ctx, q);
		r->last_path = best->path;
		r->last_line = q->line;
		if (fill(r, best, err, mem_ctx) != 0)
			return -1;
		return 1;
	}
}

uint64_t trace_bad_lines(const struct trace_reader *r)
{
	return r->bad;
}

uint64_t trace_unjoined(const struct trace_reader *r)
{
	return r->unjoined;
}

const char *trace_where(TALLOC_CTX *mem_ctx, const struct trace_reader *r)
{
	return talloc_asprintf(mem_ctx, "%s:%llu", r->last_path ? r->last_path : "?",
			       (unsigned long long)r->last_line);
}

bool trace_origin(const struct trace_reader *r, const char **path, uint64_t *line)
{
	*path = r->last_path;
	*line = r->last_line;
	return r->last_path != NULL;
}
