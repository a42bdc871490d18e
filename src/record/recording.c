/*
 * recording.c - a recording's rows, touched paths and tallies
 * (recording.h).
 *
 * Owns the arrays and maps of a recording; knows nothing of where the
 * calls came from or how the file is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "record/pathmap.h"
#include "record/recording.h"

struct recording *recording_new(TALLOC_CTX *mem_ctx)
{
	struct recording *rec = talloc_zero(mem_ctx, struct recording);

	if (!rec)
		return NULL;
	rec->touched = pathmap_new(rec);
	rec->calls.map = pathmap_new(rec);
	rec->norow.map = pathmap_new(rec);
	rec->outside.map = pathmap_new(rec);
	rec->on_root.map = pathmap_new(rec);
	rec->own = pathmap_new(rec);
	rec->special = pathmap_new(rec);
	rec->special_dirs = pathmap_new(rec);
	if (!rec->touched || !rec->calls.map || !rec->norow.map || !rec->outside.map ||
	    !rec->on_root.map || !rec->own || !rec->special || !rec->special_dirs) {
		talloc_free(rec);
		return NULL;
	}
	rec->first_tid = -1;
	return rec;
}

struct row *recording_add(struct recording *rec)
{
	if (rec->nrows == rec->caprows &&
	    !grow_array_unset(rec, (void **)&rec->rows, sizeof(struct row), &rec->caprows,
			      rec->nrows + 1, 1024))
		return NULL;
	struct row *r = &rec->rows[rec->nrows++];
	memset(r, 0, sizeof(*r));
	r->args = (char *)"";
	strcpy(r->result, "0");
	return r;
}

#define KEEP_BLOCK (64u << 10)

char *recording_keep(struct recording *rec, const char *s, size_t n)
{
	if (n >= KEEP_BLOCK / 8)
		return talloc_strndup(rec, s, n);
	if (n + 1 > rec->kept_room) {
		if (!(rec->kept = talloc_size(rec, KEEP_BLOCK)))
			return NULL;
		rec->kept_room = KEEP_BLOCK;
	}
	char *p = rec->kept;
	memcpy(p, s, n);
	p[n] = '\0';
	rec->kept += n + 1;
	rec->kept_room -= n + 1;
	return p;
}

bool recording_own(struct recording *rec, const char *abs)
{
	return pathmap_put(rec->own, abs, rec);
}

bool recording_is_own(const struct recording *rec, const char *abs)
{
	if (!pathmap_count(rec->own))
		return false;
	char *p = talloc_strdup(NULL, abs);
	bool own = false;
	while (p && !own) {	/* abs, then each directory above it */
		own = pathmap_get(rec->own, p) != NULL;
		char *s = strrchr(p, '/');
		if (!s || s == p)
			break;
		*s = '\0';
	}
	talloc_free(p);
	return own;
}

bool recording_special(struct recording *rec, const char *rel, bool is)
{
	if (!is)
		return !pathmap_get(rec->special, rel) || pathmap_put(rec->special, rel, NULL);
	const char *slash = strrchr(rel, '/');
	char *dir = talloc_strndup(NULL, rel, slash ? (size_t)(slash - rel) : 0);
	bool ok = dir && pathmap_put(rec->special, rel, rec) &&
		  pathmap_put(rec->special_dirs, dir, rec);
	talloc_free(dir);
	return ok;
}

bool recording_is_special(const struct recording *rec, const char *rel)
{
	return pathmap_get(rec->special, rel) != NULL;
}

bool recording_holds_special(const struct recording *rec, const char *rel)
{
	return pathmap_get(rec->special_dirs, rel) != NULL;
}

bool recording_touch(struct recording *rec, const char *rel, unsigned bits)
{
	uintptr_t old = (uintptr_t)pathmap_get(rec->touched, rel);

	if ((old | bits) == old)
		return true;
	return pathmap_put(rec->touched, rel, (void *)(old | bits));
}

bool tally_add(struct tally *t, const char *name, uint64_t n)
{
	uint64_t *v = pathmap_get(t->map, name);

	if (!v) {
		v = talloc_zero(t->map, uint64_t);
		if (!v || !pathmap_put(t->map, name, v))
			return false;
	}
	*v += n;
	return true;
}

uint64_t tally_get(const struct tally *t, const char *name)
{
	uint64_t *v = pathmap_get(t->map, name);

	return v ? *v : 0;
}

uint64_t tally_total(const struct tally *t)
{
	uint64_t total = 0;

	for (size_t i = 0; i < pathmap_count(t->map); i++) {
		void *v;
		pathmap_key(t->map, i, &v);
		total += *(uint64_t *)v;
	}
	return total;
}

struct named {
	const char *name;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

char *tally_text(TALLOC_CTX *mem_ctx, const struct tally *t, size_t max)
{
	size_t n = pathmap_count(t->map);
	struct named *v = talloc_array(mem_ctx, struct named, n ? n : 1);
	char *s = talloc_strdup(mem_ctx, "");

	if (!v || !s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		void *p;
		v[i].name = pathmap_key(t->map, i, &p);
		v[i].n = *(uint64_t *)p;
	}
	qsort(v, n, sizeof(*v), by_count);
	for (size_t i = 0; i < n && i < max && s; i++)
		s = talloc_asprintf_append(s, "%s%s %llu", i ? ", " : "", v[i].name,
					   (unsigned long long)v[i].n);
	if (s && n > max)
		s = talloc_asprintf_append(s, ", %zu more", n - max);
	talloc_free(v);
	return s;
}

char *recording_quote(TALLOC_CTX *mem_ctx, const char *s)
{
	size_t len = strlen(s);
	char *out = talloc_array(mem_ctx, char, len * 4 + 3);
	size_t n = 0;

	if (!out)
		return NULL;
	out[n++] = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"') {
			out[n++] = '\\';
			out[n++] = (char)*p;
		} else if (*p == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else if (*p == '\t') {
			out[n++] = '\\';
			out[n++] = 't';
		} else if (*p < 0x20 || *p >= 0x7f) {
			n += (size_t)snprintf(out + n, 5, "\\x%02x", *p);
		} else {
			out[n++] = (char)*p;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
	return out;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct rec_init *)a)->path, ((const struct rec_init *)b)->path);
}

void recording_cap_sizes(struct recording *rec, uint64_t most)
{
	for (size_t i = 0; i < rec->ninit; i++) {
		struct rec_init *e = &rec->init[i];
		if (e->type != REC_FILE || e->size <= most)
			continue;
		if (!rec->capped++ || e->size > rec->capped_size) {
			rec->capped_path = e->path;
			rec->capped_size = e->size;
		}
		e->size = most;
		e->data = NULL;	/* never read whole: more than --with-data takes */
	}
}

void recording_sort_init(struct rec_init *v, size_t n)
{
	if (n > 1)	/* v is NULL when nothing is there at the start */
		qsort(v, n, sizeof(*v), by_path);
}

char *recording_lost_text(TALLOC_CTX *mem_ctx, const struct recording *rec)
{
	char *s = talloc_strdup(mem_ctx, "");

	if (s && rec->lost_events)
		s = talloc_asprintf_append(s, "%llu events dropped (the ring buffer was full: "
					   "%llu calls lost whole, the others' results)",
					   (unsigned long long)rec->lost_events,
					   (unsigned long long)rec->lost_calls);
	if (s && rec->cut_paths)
		s = talloc_asprintf_append(s, "%s%llu paths cut short", *s ? ", " : "",
					   (unsigned long long)rec->cut_paths);
	if (s && rec->cut_strings > rec->cut_paths)
		s = talloc_asprintf_append(s, "%s%llu strings cut at the tracer's bound", *s ? ", " : "",
					   (unsigned long long)rec->cut_strings);
	if (s && rec->cut_vectors)
		s = talloc_asprintf_append(s, "%s%llu vectors of more iovecs than the tracer adds up",
					   *s ? ", " : "", (unsigned long long)rec->cut_vectors);
	if (s && rec->untraced_processes)
		s = talloc_asprintf_append(s, "%s%llu processes not traced, nor those they started "
					   "(the tracer's table of processes was full)", *s ? ", " : "",
					   (unsigned long long)rec->untraced_processes);
	if (s && rec->untraced_calls)
		s = talloc_asprintf_append(s, "%s%llu calls not traced (the tracer could not keep "
					   "their thread's state)", *s ? ", " : "",
					   (unsigned long long)rec->untraced_calls);
	if (s && !*s) {
		talloc_free(s);
		return NULL;
	}
	return s;
}
