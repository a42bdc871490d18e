/*
 * fio_iolog.c - fio's I/O logs as rows (fio_iolog.h).
 *
 * Owns the shape of fio's logs; knows nothing of strace or the writer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "loadfile.h"
#include "record/fio_iolog.h"
#include "record/pathmap.h"
#include "record/paths.h"

static const char v2[] = "fio version 2 iolog";
static const char v3[] = "fio version 3 iolog";

int fio_iolog_version(const char *first_line)
{
	if (strncmp(first_line, v2, sizeof(v2) - 1) == 0)
		return 2;
	if (strncmp(first_line, v3, sizeof(v3) - 1) == 0)
		return 3;
	return 0;
}

/* One file of the log. */
struct ffile {
	char *rel;
	int fd;
	bool open;
	uint64_t extent;	/* the furthest any access reached */
};

struct fio_state {
	TALLOC_CTX *mem_ctx;
	struct recording *rec;
	struct pathmap *files;	/* fio's name -> struct ffile */
	int next_fd;
	int64_t now_us;
	const char *where;	/* "FILE:LINE" for messages */
};

static struct ffile *file_of(struct fio_state *st, const char *name)
{
	struct ffile *f = pathmap_get(st->files, name);

	if (f)
		return f;
	if (!(f = talloc_zero(st->files, struct ffile)))
		return NULL;
	const char *rel = NULL;
	if (name[0] == '/') {
		char *abs = path_normalize(f, name);
		rel = abs ? path_in_roots(f, st->rec, abs) : NULL;
		if (!rel && abs)
			rel = abs + 1;
	} else {
		char *abs = path_normalize(f, talloc_asprintf(f, "/%s", name));
		rel = abs ? abs + 1 : NULL;
	}
	f->rel = rel ? talloc_strdup(f, rel) : NULL;
	f->fd = st->next_fd++;
	if (!f->rel || !pathmap_put(st->files, name, f))
		return NULL;
	return f;
}

static bool row(struct fio_state *st, const char *call, const char *args, const char *result)
{
	struct row *r = recording_add(st->rec);

	if (!r || !(r->args = talloc_strdup(st->rec, args)) || !tally_add(&st->rec->calls, call, 1))
		return false;
	r->start_us = st->now_us;
	r->tid = 1;
	r->call = call;
	snprintf(r->result, sizeof(r->result), "%s", result);
	if (st->now_us > st->rec->end_us)
		st->rec->end_us = st->now_us;
	return true;
}

/* One action on one file; NULL or a message. */
static const char *action(struct fio_state *st, struct ffile *f, const char *act, int nnum,
			  uint64_t off, uint64_t len)
{
	char a[128], res[32];
	char *q = recording_quote(st->mem_ctx, f->rel);

	if (!q)
		return "out of memory";
	if (strcmp(act, "add") == 0)
		return NULL;
	if (strcmp(act, "open") == 0) {
		if (!recording_touch(st->rec, f->rel, TOUCH_USED))
			return "out of memory";
		char *args = talloc_asprintf(st->mem_ctx, " %s O_RDWR 0", q);
		snprintf(res, sizeof(res), "%d", f->fd);
		f->open = true;
		return args && row(st, "openat", args, res) ? NULL : "out of memory";
	}
	if (!f->open)
		return talloc_asprintf(st->mem_ctx, "%s: '%s' is not open", act, f->rel);
	if (strcmp(act, "close") == 0) {
		f->open = false;
		snprintf(a, sizeof(a), " %d", f->fd);
		return row(st, "close", a, "0") ? NULL : "out of memory";
	}
	if (nnum < 2)
		return talloc_asprintf(st->mem_ctx, "%s needs an offset and a length", act);
	snprintf(res, sizeof(res), "%" PRIu64, len);
	if (strcmp(act, "read") == 0 || strcmp(act, "write") == 0) {
		bool rd = act[0] == 'r';
		snprintf(a, sizeof(a), " %d %" PRIu64 " %" PRIu64, f->fd, len, off);
		if (off + len > f->extent)
			f->extent = off + len;
		if (rd)
			st->rec->bytes_read += len;
		else
			st->rec->bytes_written += len;
		return row(st, rd ? "pread64" : "pwrite64", a, res) ? NULL : "out of memory";
	}
	if (strcmp(act, "sync") == 0 || strcmp(act, "datasync") == 0) {
		snprintf(a, sizeof(a), " %d", f->fd);
		return row(st, act[0] == 's' ? "fsync" : "fdatasync", a, "0") ? NULL : "out of memory";
	}
	if (strcmp(act, "trim") == 0) {
		snprintf(a, sizeof(a), " %d FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE %" PRIu64 " %" PRIu64,
			 f->fd, off, len);
		return row(st, "fallocate", a, "0") ? NULL : "out of memory";
	}
	return talloc_asprintf(st->mem_ctx, "unknown action '%s'", act);
}

/* One line of the log: NULL, or what is wrong with it. */
static const char *one_line(struct fio_state *st, int version, char *line)
{
	char name[4097], act[32];
	unsigned long long t = 0, off = 0, len = 0;
	int n;

	if (version == 3) {
		n = sscanf(line, "%llu %4096s %31s %llu %llu", &t, name, act, &off, &len);
		if (n < 3)
			return "not a version 3 line: TIME FILE ACTION [OFFSET LENGTH]";
		if ((int64_t)t < st->now_us)
			return "its time is before the line above's";
		st->now_us = (int64_t)t;
		n -= 3;
	} else {
		n = sscanf(line, "%4096s %31s %llu %llu", name, act, &off, &len);
		if (n < 2)
			return "not a version 2 line: FILE ACTION [OFFSET LENGTH]";
		n -= 2;
		if (strcmp(act, "wait") == 0) {
			if (n >= 1 && (int64_t)off * 1000 > st->now_us)
				st->now_us = (int64_t)off * 1000;
			return NULL;
		}
	}
	struct ffile *f = file_of(st, name);
	return f ? action(st, f, act, n, off, len) : "out of memory";
}

/* Every file at the size its furthest access needs, and its directories. */
static bool initial_state(struct fio_state *st)
{
	size_t n = pathmap_count(st->files);
	struct recording *rec = st->rec;
	struct pathmap *dirs = pathmap_new(st->mem_ctx);
	struct rec_init *v = talloc_zero_array(rec, struct rec_init, n * 8 + 1);
	size_t k = 0, cap = n * 8 + 1;

	if (!dirs || !v)
		return false;
	for (size_t i = 0; i < n; i++) {
		void *p;
		pathmap_key(st->files, i, &p);
		struct ffile *f = p;
		for (char *s = f->rel; (s = strchr(s, '/')) != NULL; s++) {
			char *d = talloc_strndup(v, f->rel, (size_t)(s - f->rel));
			if (!d || pathmap_get(dirs, d))
				continue;
			if (!pathmap_put(dirs, d, d))
				return false;
			if (!grow_array(rec, (void **)&v, sizeof(*v), &cap, k + 1, cap))
				return false;
			v[k++] = (struct rec_init){ .path = d, .type = REC_DIR, .mode = 0755 };
		}
		if (!grow_array(rec, (void **)&v, sizeof(*v), &cap, k + 1, cap))
			return false;
		v[k++] = (struct rec_init){ .path = talloc_strdup(v, f->rel), .type = REC_FILE,
					      .mode = 0644, .size = f->extent };
	}
	recording_sort_init(v, k);
	rec->init = v;
	rec->ninit = k;
	return true;
}

int fio_iolog_read(TALLOC_CTX *mem_ctx, struct recording *rec, const char *path, char **err)
{
	FILE *fp = fopen(path, "r");
	struct fio_state st = { .mem_ctx = talloc_new(mem_ctx), .rec = rec, .next_fd = 3 };
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int version = 0, rc = 0;

	if (!fp) {
		*err = talloc_asprintf(mem_ctx, "cannot open '%s': %s", path, strerror(errno));
		talloc_free(st.mem_ctx);
		return -1;
	}
	st.files = pathmap_new(st.mem_ctx);
	rec->first_tid = 1;
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		const char *why = NULL;
		if (lineno == 1)
			why = (version = fio_iolog_version(line)) ? NULL : "not a fio iolog (version 2 or 3)";
		else if (*line)
			why = one_line(&st, version, line);
		if (!why && rec->nrows > LOADFILE_MAX_OPS)
			why = "more calls than a loadfile holds (LOADFILE_MAX_OPS)";
		if (why) {
			*err = talloc_asprintf(mem_ctx, "%s:%lu: %s", path, lineno, why);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && lineno == 0) {
		*err = talloc_asprintf(mem_ctx, "%s: empty", path);
		rc = -1;
	}
	if (rc == 0 && !initial_state(&st)) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		rc = -1;
	}
	free(line);
	fclose(fp);
	talloc_free(st.mem_ctx);
	return rc;
}
