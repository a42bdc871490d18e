/*
 * loadwriter.c - a recording as a loadfile (loadwriter.h).
 *
 * Owns the text of the dialect and the numbering of streams; knows
 * nothing of strace or of the walk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loadfile.h"
#include "numtext.h"
#include "outfile.h"
#include "record/loadwriter.h"
#include "record/pathmap.h"

/* What the writer knows of each thread: kept, and its stream number. */
struct tinfo {
	bool kept;
	unsigned stream;
};

struct writer {
	struct recording *rec;
	struct pathmap *threads;	/* "tid" -> struct tinfo */
	FILE *f;
	uint64_t bytes, lines, ops;
	char *err;			/* a limit crossed */
	int code;
	int last_tid;			/* tinfo()'s last answer, for the runs of */
	struct tinfo *last;		/* one thread's rows */
};

static struct tinfo *tinfo(struct writer *w, int tid)
{
	char key[PATHMAP_ID_KEY];

	if (w->last && w->last_tid == tid)
		return w->last;
	pathmap_id_key(key, tid);
	struct tinfo *t = pathmap_get(w->threads, key);
	if (!t && (t = talloc_zero(w->threads, struct tinfo)) && !pathmap_put(w->threads, key, t))
		t = NULL;
	w->last_tid = tid;
	w->last = t;
	return t;
}

static bool is_start(const struct row *r)
{
	return r->child != 0;
}

/* Keep the threads with a row of their own, and those that started a
 * kept thread (the rows of a start come before the child's, so one pass
 * from the end reaches every ancestor). */
static bool mark_kept(struct writer *w)
{
	struct recording *rec = w->rec;

	for (size_t i = 0; i < rec->nrows; i++) {
		struct tinfo *t = tinfo(w, rec->rows[i].tid);
		if (!t)
			return false;
		if (!is_start(&rec->rows[i]) && strcmp(rec->rows[i].call, "exec") != 0)
			t->kept = true;
	}
	for (size_t i = rec->nrows; i-- > 0;) {
		const struct row *r = &rec->rows[i];
		struct tinfo *c = is_start(r) ? tinfo(w, r->child) : NULL;
		if (is_start(r) && !c)
			return false;
		struct tinfo *t = c && c->kept ? tinfo(w, r->tid) : NULL;
		if (c && c->kept && !t)
			return false;
		if (t)
			t->kept = true;
	}
	return true;
}

/* Line buf (n bytes, its newline included; buf holds at least the first
 * 60 when it is longer than a loadfile's line) out, with the limits of a
 * loadfile checked as it goes. */
static void put_line(struct writer *w, const char *buf, int n)
{
	if (n < 0 || n > LOADFILE_MAX_LINE) {
		w->err = talloc_asprintf(w->rec, "line %llu would be longer than %d bytes, the most a "
					 "loadfile line holds (LOADFILE_MAX_LINE): %.60s...",
					 (unsigned long long)w->lines + 1, LOADFILE_MAX_LINE, buf);
		w->code = 2;
		return;
	}
	w->bytes += (uint64_t)n;
	w->lines++;
	if (w->bytes > (uint64_t)LOADFILE_MAX_BYTES) {
		w->err = talloc_asprintf(w->rec, "the loadfile would be larger than %ld bytes, the most "
					 "a loadfile holds (LOADFILE_MAX_BYTES), by line %llu",
					 (long)LOADFILE_MAX_BYTES, (unsigned long long)w->lines);
		w->code = 2;
		return;
	}
	fwrite(buf, 1, (size_t)n, w->f);
}

/* One line out, formatted. */
static void line(struct writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct writer *w, const char *fmt, ...)
{
	va_list ap;
	char buf[LOADFILE_MAX_LINE + 2];

	if (w->err)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_line(w, buf, n);
}

/* A row's line, "STREAM START DUR CALLARGS RESULT", as line() would print
 * it with "%u %lld.%06lld %lld.%06lld %s%s %s\n" but without printf: a
 * recording writes a line for every call it kept, and printf was a third
 * of writing them. */
static void row_line(struct writer *w, unsigned stream, int64_t start, int64_t dur,
		     const char *call, const char *args, const char *result)
{
	size_t lc = strlen(call), la = strlen(args), lr = strlen(result);
	char buf[LOADFILE_MAX_LINE + 2];

	if (w->err)
		return;
	if (start < 0 || dur < 0 || lc + la + lr + 3 * 21 + 10 > LOADFILE_MAX_LINE) {
		line(w, "%u %" PRId64 ".%06" PRId64 " %" PRId64 ".%06" PRId64 " %s%s %s\n", stream,
		     start / 1000000, start % 1000000, dur / 1000000, dur % 1000000, call, args, result);
		return;
	}
	char *p = numtext_u64(buf, stream, 1);
	*p++ = ' ';
	p = numtext_u64(p, (uint64_t)(start / 1000000), 1);
	*p++ = '.';
	p = numtext_u64(p, (uint64_t)(start % 1000000), 6);
	*p++ = ' ';
	p = numtext_u64(p, (uint64_t)(dur / 1000000), 1);
	*p++ = '.';
	p = numtext_u64(p, (uint64_t)(dur % 1000000), 6);
	*p++ = ' ';
	memcpy(p, call, lc);
	memcpy(p + lc, args, la);
	p += lc + la;
	*p++ = ' ';
	memcpy(p, result, lr);
	p += lr;
	*p++ = '\n';
	put_line(w, buf, (int)(p - buf));
}

char *loadwriter_base64(TALLOC_CTX *mem_ctx, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = talloc_array(mem_ctx, char, (n + 2) / 3 * 4 + 1);
	size_t k = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		out[k++] = a[(v >> 18) & 63];
		out[k++] = a[(v >> 12) & 63];
		out[k++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
		out[k++] = i + 2 < n ? a[v & 63] : '=';
	}
	out[k] = '\0';
	return out;
}

static void header(struct writer *w)
{
	struct recording *rec = w->rec;
	char when[64];
	struct tm tm;

	line(w, "syscalls 1\n");
	if (rec->command)
		line(w, "# command: %s\n", rec->command);
	if (rec->source)
		line(w, "# converted from: %s\n", rec->source);
	for (size_t i = 0; i < rec->nroots; i++)
		line(w, "# root: %s\n", rec->roots[i]);
	if (rec->nroots > 1)
		line(w, "# paths are relative to: %s\n", rec->base);
	if (rec->tracer)
		line(w, "# tracer: %s\n", rec->tracer);
	char *lost = recording_lost_text(rec, rec);
	if (lost)
		line(w, "# lost: %s\n", lost);
	talloc_free(lost);
	gmtime_r(&rec->when, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	line(w, "# recorded: %s\n", when);
	line(w, "# duration: %.6f s, %.6f s of it in the calls below\n",
	     (double)rec->end_us / 1e6, (double)rec->io_us / 1e6);
}

/* The init data lines of one file: chunks whose lines stay within
 * LOADFILE_MAX_LINE. */
static void init_data(struct writer *w, const struct rec_init *e, const char *q)
{
	size_t room = LOADFILE_MAX_LINE - 64 - strlen(q);
	size_t chunk = room / 4 * 3;

	if (chunk > 3072)
		chunk = 3072;
	for (uint64_t off = 0; off < e->size && chunk > 0 && !w->err; off += chunk) {
		size_t n = e->size - off < chunk ? (size_t)(e->size - off) : chunk;
		char *b = loadwriter_base64(w->rec, (const unsigned char *)e->data + off, n);
		line(w, "init data %s %" PRIu64 " %s\n", q, off, b ? b : "");
		talloc_free(b);
	}
}

static void init_lines(struct writer *w)
{
	struct recording *rec = w->rec;

	if (rec->ninit > LOADFILE_MAX_INIT) {
		w->err = talloc_asprintf(rec, "the initial state has %zu entries, more than the %d a "
					 "loadfile holds (LOADFILE_MAX_INIT): narrow --root", rec->ninit,
					 LOADFILE_MAX_INIT);
		w->code = 2;
		return;
	}
	for (size_t i = 0; i < rec->ninit && !w->err; i++) {
		const struct rec_init *e = &rec->init[i];
		char *q = recording_quote(rec, e->path);
		switch (e->type) {
		case REC_DIR:
			line(w, "init dir %s 0%o\n", q, e->mode);
			break;
		case REC_FILE:
			line(w, "init file %s %" PRIu64 " 0%o\n", q, e->size, e->mode);
			if (e->data && e->size)
				init_data(w, e, q);
			if (e->data && e->size && e->hidden && !rec->hidden_data++)
				rec->hidden_first = e->path;
			break;
		case REC_SYMLINK: {
			char *t = recording_quote(rec, e->target);
			line(w, "init symlink %s %s\n", q, t);
			talloc_free(t);
			break;
		}
		}
		talloc_free(q);
	}
}

static void rows(struct writer *w)
{
	struct recording *rec = w->rec;
	unsigned next = 1;
	int64_t last = 0;

	for (size_t i = 0; i < rec->nrows && !w->err; i++) {
		const struct row *r = &rec->rows[i];
		struct tinfo *t = tinfo(w, r->tid);
		if (!t->kept)
			continue;
		if (is_start(r) && !tinfo(w, r->child)->kept)
			continue;
		if (!t->stream)
			t->stream = next++;
		char num[NUMTEXT_MAX];
		const char *result = r->result;
		if (is_start(r)) {
			struct tinfo *c = tinfo(w, r->child);
			if (!c->stream)
				c->stream = next++;
			*numtext_u64(num, c->stream, 1) = '\0';
			result = num;
		}
		int64_t start = r->start_us < last ? last : r->start_us;
		last = start;
		if (++w->ops > LOADFILE_MAX_OPS) {
			w->err = talloc_asprintf(rec, "the recording has more than %d calls, the most a "
						 "loadfile holds (LOADFILE_MAX_OPS); the first %d end "
						 "%.3f s into it", LOADFILE_MAX_OPS, LOADFILE_MAX_OPS,
						 (double)start / 1e6);
			w->code = 2;
			return;
		}
		row_line(w, t->stream, start, r->dur_us, r->call, r->args, result);
		rec->rows[i].line = (uint32_t)w->lines;
	}
	rec->streams = next - 1;
	if (!w->err && rec->streams > LOADFILE_MAX_STREAMS) {
		w->err = talloc_asprintf(rec, "the recording has %u threads and processes, more than "
					 "the %d a loadfile holds (LOADFILE_MAX_STREAMS)", rec->streams,
					 LOADFILE_MAX_STREAMS);
		w->code = 2;
	}
}

/* The text of line n (from 1) of text, on mem_ctx. */
static char *text_line(TALLOC_CTX *mem_ctx, const char *text, size_t len, unsigned long n)
{
	const char *p = text, *end = text + len;

	for (unsigned long i = 1; i < n && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return talloc_strndup(mem_ctx, p, nl ? (size_t)(nl - p) : (size_t)(end - p));
}

/* Where the written line n came from: the trace's file and line of its
 * row, or the initial state, on mem_ctx. */
static char *line_origin(TALLOC_CTX *mem_ctx, const struct recording *rec, unsigned long n)
{
	for (size_t i = 0; i < rec->nrows; i++) {
		const struct row *r = &rec->rows[i];
		if (r->line != n)
			continue;
		if (r->src && r->src <= rec->nsources)
			return talloc_asprintf(mem_ctx, "made from %s:%" PRIu32, rec->sources[r->src - 1],
					       r->src_line);
		return talloc_asprintf(mem_ctx, "made from call %" PRIu32 " of the trace", r->src_line);
	}
	return talloc_strdup(mem_ctx, "of the initial state");
}

/* The compiler's refusal of text (named `name`), said as the recorder's
 * bug: its line, the row, the trace's line. */
static char *refusal(TALLOC_CTX *mem_ctx, const struct recording *rec, const char *name,
		     const char *text, size_t len, const char *why)
{
	size_t nl = strlen(name);
	unsigned long n = 0;

	if (why && strncmp(why, name, nl) == 0 && why[nl] == ':' && why[nl + 1] >= '0' &&
	    why[nl + 1] <= '9')
		n = strtoul(why + nl + 1, NULL, 10);
	char *row = n ? text_line(mem_ctx, text, len, n) : NULL;
	return talloc_asprintf(mem_ctx, "a bug of the recorder: the loadfile it made is refused by "
			       "dbench's compiler, and nothing was written: %s%s%s%s%s (please "
			       "report it, with the trace)", why ? why : "(no message)",
			       row ? "; the line: '" : "", row ? row : "", row ? "', " : "",
			       n ? line_origin(mem_ctx, rec, n) : "");
}

/* The text made into *text (malloc()ed, *len bytes), the limits checked:
 * LOADWRITER_OK, or a status with *err. */
static enum loadwriter_status render(TALLOC_CTX *mem_ctx, struct recording *rec, char **text,
				     size_t *len, char **err)
{
	struct writer w = { .rec = rec };

	w.threads = pathmap_new(rec);
	if (!w.threads || !mark_kept(&w) || !(w.f = open_memstream(text, len))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		talloc_free(w.threads);
		return LOADWRITER_UNWRITTEN;
	}
	header(&w);
	init_lines(&w);
	rows(&w);
	if (!w.err && w.ops == 0) {
		w.err = talloc_strdup(rec, "no call beneath the roots: nothing to replay");
		w.code = 2;
	}
	talloc_free(w.threads);
	if (fclose(w.f) != 0 && !w.err) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return LOADWRITER_UNWRITTEN;
	}
	if (w.err) {
		*err = talloc_steal(mem_ctx, w.err);
		return LOADWRITER_LIMIT;
	}
	rec->lines_written = w.lines;
	rec->bytes_out = w.bytes;
	return LOADWRITER_OK;
}

/* text to path, whole or not at all; readable by its owner alone when
 * it holds what others could not read (rec->hidden_data). */
static enum loadwriter_status put(TALLOC_CTX *mem_ctx, const struct recording *rec,
				  const char *path, const char *text, size_t len, char **err)
{
	FILE *f;
	int e = 0;
	struct outfile *o = outfile_open(mem_ctx, path, &f, &e);

	int p = o && rec->hidden_data ? outfile_private(o) : 0;
	if (p && p != OUTFILE_EKIND) {
		*err = talloc_asprintf(mem_ctx, "cannot make '%s' readable by its owner alone, as it "
				       "holds the contents of '%s', which others could not read: %s",
				       path, rec->hidden_first, strerror(p));
		talloc_free(o);
		return LOADWRITER_UNWRITTEN;
	}
	if (o && fwrite(text, 1, len, f) == len) {
		e = outfile_commit(o);
	} else if (o) {
		e = outfile_error(o) ? outfile_error(o) : EIO;
		talloc_free(o);	/* the destination stays as it was */
	}
	if (!e)
		return LOADWRITER_OK;
	*err = talloc_asprintf(mem_ctx, "cannot write '%s': %s", path, outfile_strerror(e));
	return LOADWRITER_UNWRITTEN;
}

enum loadwriter_status loadwriter_write(TALLOC_CTX *mem_ctx, struct recording *rec,
					const char *path, char **err)
{
	char *text = NULL, *why = NULL;
	size_t len = 0;
	enum loadwriter_status st = render(mem_ctx, rec, &text, &len, err);
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *name = strcmp(path, "-") == 0 ? "(standard output)" : path;

	if (st == LOADWRITER_OK && !loadfile_check(tmp, name, text, len, &why)) {
		bool oom = errno == ENOMEM;
		*err = oom ? talloc_strdup(mem_ctx, "out of memory checking the loadfile")
			   : refusal(mem_ctx, rec, name, text, len, why);
		st = oom ? LOADWRITER_UNWRITTEN : LOADWRITER_REFUSED;
	}
	talloc_free(tmp);
	if (st == LOADWRITER_OK)
		st = put(mem_ctx, rec, path, text, len, err);
	free(text);
	return st;
}
