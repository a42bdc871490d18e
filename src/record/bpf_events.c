/*
 * bpf_events.c - the bpf tracer's events paired into calls and sorted
 * (bpf_events.h).
 *
 * Owns the scratch file of whole calls and its index; knows nothing of
 * libbpf or of what the calls mean.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "record/bpf_calls.h"
#include "record/bpf_events.h"
#include "record/pathmap.h"

/* A call in the scratch file: its entry event with the strings after it,
 * then its exit. */
struct stored {
	uint64_t end_ns;	/* 0: no exit */
	int64_t ret;
	uint32_t size;		/* the entry's bytes (event and strings) */
	uint32_t pad;
	/* the entry follows */
};

struct slot {
	uint64_t ts, seq, off;
};

struct bpf_events {
	int fd;
	FILE *out;
	char *outbuf;		/* out's buffer: few large writes while the program runs */
	uint64_t written;
	struct pathmap *open;	/* "tid" -> the entry waiting for its exit (a talloc copy) */
	size_t nopen;		/* entries in open: none, no look-up for a whole call */
	struct slot *index;
	size_t n, cap, next;
	const unsigned char *map;	/* the file, mapped once the tracing is over */
	size_t map_len;
	uint64_t unpaired;
};

#define OUT_BUF (1u << 20)

static int events_free(struct bpf_events *ev)
{
	if (ev->map)
		munmap((void *)ev->map, ev->map_len);
	if (ev->out)
		fclose(ev->out);
	else if (ev->fd >= 0)
		close(ev->fd);
	return 0;
}

struct bpf_events *bpf_events_new(TALLOC_CTX *mem_ctx, const char *dir, char **err)
{
	struct bpf_events *ev = talloc_zero(mem_ctx, struct bpf_events);

	if (!ev || !(ev->open = pathmap_new(ev))) {
		talloc_free(ev);
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	ev->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	talloc_set_destructor(ev, events_free);
	ev->outbuf = talloc_size(ev, OUT_BUF);
	if (ev->fd < 0 || !ev->outbuf || !(ev->out = fdopen(ev->fd, "w+")) ||
	    setvbuf(ev->out, ev->outbuf, _IOFBF, OUT_BUF) != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot make the bpf tracer's scratch file in '%s': %s",
				       dir, strerror(errno));
		talloc_free(ev);
		return NULL;
	}
	return ev;
}

/* Write a whole call: the entry (e, size bytes, then tail bytes of
 * strings) and its end. */
static int store_with(struct bpf_events *ev, const struct rec_event *e, uint32_t size,
		      const void *tail, uint32_t tail_size, uint64_t end_ns, int64_t ret, char **err)
{
	struct stored s = { .end_ns = end_ns, .ret = ret, .size = size + tail_size };

	if (ev->n == ev->cap &&
	    !grow_array_unset(ev, (void **)&ev->index, sizeof(struct slot), &ev->cap, ev->n + 1, 4096)) {
		*err = talloc_strdup(ev, "out of memory");
		return -1;
	}
	ev->index[ev->n++] = (struct slot){ e->ts, e->seq, ev->written };
	if (fwrite(&s, sizeof(s), 1, ev->out) != 1 || fwrite(e, size, 1, ev->out) != 1 ||
	    (tail_size && fwrite(tail, tail_size, 1, ev->out) != 1)) {
		*err = talloc_asprintf(ev, "cannot write the bpf tracer's scratch file: %s",
				       strerror(errno));
		return -1;
	}
	size_t pad = (8 - s.size % 8) % 8;
	static const char zeros[8];
	if (pad && fwrite(zeros, pad, 1, ev->out) != 1) {
		*err = talloc_asprintf(ev, "cannot write the bpf tracer's scratch file: %s",
				       strerror(errno));
		return -1;
	}
	ev->written += sizeof(s) + s.size + pad;
	return 0;
}

static int store(struct bpf_events *ev, const struct rec_event *e, uint32_t size, uint64_t end_ns,
		 int64_t ret, char **err)
{
	return store_with(ev, e, size, NULL, 0, end_ns, ret, err);
}

/* The entry a thread left open, taken out of the table (NULL: none). */
static struct rec_event *take_open(struct bpf_events *ev, uint32_t tid)
{
	char key[PATHMAP_ID_KEY];

	pathmap_id_key(key, tid);
	struct rec_event *e = pathmap_get(ev->open, key);
	if (e) {
		pathmap_put(ev->open, key, NULL);
		ev->nopen--;
	}
	return e;
}

static int put_open(struct bpf_events *ev, uint32_t tid, struct rec_event *e)
{
	char key[PATHMAP_ID_KEY];

	pathmap_id_key(key, tid);
	if (!pathmap_put(ev->open, key, e))
		return -1;
	ev->nopen++;
	return 0;
}

static int take_entry(struct bpf_events *ev, const struct rec_event *e, size_t size, char **err)
{
	struct rec_event *old = take_open(ev, e->tid);

	/* a thread in a call starts no other: its entry's exit never came */
	if (old) {
		int rc = store(ev, old, (uint32_t)talloc_get_size(old), 0, 0, err);
		talloc_free(old);
		if (rc)
			return rc;
	}
	struct rec_event *copy = talloc_memdup(ev, e, size);
	if (!copy || put_open(ev, e->tid, copy)) {
		*err = talloc_strdup(ev, "out of memory");
		return -1;
	}
	return 0;
}

/* An exit that brings strings its entry could not read: the entry
 * remade with them (on ev), or NULL when memory ran out. */
static struct rec_event *with_exit_strings(struct bpf_events *ev, const struct rec_event *entry,
					   const struct rec_event *exit, size_t exit_size)
{
	const char *in[2], *out[2];
	uint16_t len[2];
	const char *es = (const char *)(entry + 1), *xs = (const char *)(exit + 1);
	size_t room = exit_size - sizeof(*exit);

	if ((size_t)exit->len[0] + exit->len[1] > room)
		return talloc_memdup(ev, entry, talloc_get_size(entry));
	in[0] = es;
	in[1] = es + entry->len[0];
	out[0] = xs;
	out[1] = xs + exit->len[0];
	struct rec_event *e = talloc_size(ev, sizeof(*e) + 2u * REC_STR_MAX);
	if (!e)
		return NULL;
	*e = *entry;
	char *p = (char *)(e + 1);
	for (int k = 0; k < 2; k++) {
		bool again = exit->len[k] > 0;
		len[k] = again ? exit->len[k] : entry->len[k];
		memcpy(p, again ? out[k] : in[k], len[k]);
		p += len[k];
		e->len[k] = len[k];
		if (again)
			e->flags = (uint16_t)((e->flags & ~(k ? EVF_BAD1 : EVF_BAD0)) |
					      (exit->flags & (k ? EVF_CUT1 : EVF_CUT0)));
	}
	return talloc_realloc_size(ev, e, sizeof(*e) + len[0] + len[1]);
}

int bpf_events_take(struct bpf_events *ev, const void *data, size_t size, char **err)
{
	const struct rec_event *e = data;

	if (size < sizeof(*e))
		return 0;
	if (e->type == EV_ENTER)
		return take_entry(ev, e, size, err);
	if (e->type == EV_CALL) {
		struct rec_event *old = ev->nopen ? take_open(ev, e->tid) : NULL;
		int rc = old ? store(ev, old, (uint32_t)talloc_get_size(old), 0, 0, err) : 0;
		talloc_free(old);
		struct rec_event whole = *e;
		whole.extra[0] = whole.extra[1] = 0;
		/* extra[1] 0: the thread ended inside the call, which has no
		 * result; the call's strings follow the event */
		return rc ? rc : store_with(ev, &whole, sizeof(whole), e + 1, (uint32_t)(size - sizeof(*e)),
					   e->extra[1], (int64_t)e->extra[0], err);
	}
	if (e->type == EV_RETID) {
		struct rec_event *old = take_open(ev, (uint32_t)e->args[0]);
		if (old) {
			old->tid = e->tid;
			if (put_open(ev, e->tid, old)) {
				*err = talloc_strdup(ev, "out of memory");
				return -1;
			}
		}
		return 0;
	}
	struct rec_event *entry = take_open(ev, e->tid);
	if (!entry || entry->nr != e->nr) {
		ev->unpaired++;
		if (entry)
			put_open(ev, e->tid, entry);
		return 0;
	}
	if (e->len[0] || e->len[1]) {
		struct rec_event *again = with_exit_strings(ev, entry, e, size);
		talloc_free(entry);
		if (!(entry = again)) {
			*err = talloc_strdup(ev, "out of memory");
			return -1;
		}
	}
	int rc = store(ev, entry, (uint32_t)talloc_get_size(entry), e->ts, (int64_t)e->args[0], err);
	talloc_free(entry);
	return rc;
}

static int by_start(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int bpf_events_end(struct bpf_events *ev, char **err)
{
	for (size_t i = 0; i < pathmap_count(ev->open); i++) {
		void *v;
		pathmap_key(ev->open, i, &v);
		struct rec_event *e = v;
		if (e && store(ev, e, (uint32_t)talloc_get_size(e), 0, 0, err))
			return -1;
	}
	if (fflush(ev->out) != 0) {
		*err = talloc_asprintf(ev, "cannot write the bpf tracer's scratch file: %s",
				       strerror(errno));
		return -1;
	}
	/* a thread's calls come in order (each is stored at its end): one
	 * thread's never need the sort, which is then a scan */
	size_t i = 1;
	while (i < ev->n && by_start(&ev->index[i - 1], &ev->index[i]) < 0)
		i++;
	if (i < ev->n)
		qsort(ev->index, ev->n, sizeof(*ev->index), by_start);
	if (!ev->written)
		return 0;
	void *m = mmap(NULL, ev->written, PROT_READ, MAP_PRIVATE, ev->fd, 0);
	if (m == MAP_FAILED) {
		*err = talloc_asprintf(ev, "cannot read the bpf tracer's scratch file: %s",
				       strerror(errno));
		return -1;
	}
	ev->map = m;
	ev->map_len = ev->written;
	return 0;
}

int bpf_events_next(struct bpf_events *ev, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err)
{
	if (ev->next >= ev->n)
		return 0;
	const unsigned char *p = ev->map + ev->index[ev->next++].off;
	struct stored s;
	struct bpf_call b = { 0 };

	memcpy(&s, p, sizeof(s));
	memcpy(&b.e, p + sizeof(s), sizeof(b.e));
	b.end_ns = s.end_ns;
	b.ret = s.ret;
	const char *str = (const char *)(p + sizeof(s) + sizeof(b.e));
	size_t room = s.size - sizeof(b.e);
	if ((size_t)b.e.len[0] + b.e.len[1] <= room) {
		b.str[0] = b.e.len[0] ? str : NULL;
		b.str[1] = b.e.len[1] ? str + b.e.len[0] : NULL;
	}
	if (bpf_call_format(mem_ctx, &b, c) != 0) {
		*err = talloc_asprintf(mem_ctx, "the bpf tracer's call %d of thread %u cannot be read",
				       b.e.nr, b.e.tid);
		return -1;
	}
	return 1;
}

uint64_t bpf_events_calls(const struct bpf_events *ev)
{
	return ev->n;
}

uint64_t bpf_events_unpaired(const struct bpf_events *ev)
{
	return ev->unpaired;
}

uint64_t bpf_events_handed(const struct bpf_events *ev)
{
	return ev->next;
}
