/*
 * waitcheck.c - whether the streams of a compiled recording all finish
 * (see waitcheck.h): the replay played out once, with no clock, each
 * stream going as far as its waits let it and waking those that wait on
 * it; streams left waiting at the end wait on each other, and following
 * what each waits for from any of them comes round to a circle.
 *
 * It knows the program's streams and waits, nothing of what a call does.
 */
#include "load/waitcheck.h"

struct wstate {
	uint32_t done;		/* calls done */
	uint32_t met;		/* waits of its next call known to be met */
	int32_t next;		/* the next stream waiting on the same stream, or -1 */
	struct wait_edge on;	/* what its next call waits for, when it waits */
	bool waiting;
};

struct walk {
	const struct program *prog;
	struct wstate *st;
	int32_t *head;		/* by stream: the first stream waiting on it, or -1 */
	uint32_t *queue;	/* streams to look at again */
	size_t nqueue;
};

/* A wait of call pos not yet met, into *on; false when all are met.
 * s->met counts those known to be met. */
static bool unmet(const struct walk *w, struct wstate *s, uint32_t pos, struct wait_edge *on)
{
	const struct call *call = &w->prog->calls[pos];

	for (; s->met < call->ndeps; s->met++) {
		struct call_dep d = w->prog->deps[call->dep + s->met];
		if (w->st[d.stream].done < d.seq) {
			*on = (struct wait_edge){ pos, d };
			return true;
		}
	}
	return false;
}

/* Stream i goes as far as it can; those waiting on it look again. */
static void advance(struct walk *w, uint32_t i)
{
	const struct stream *str = &w->prog->streams[i];
	struct wstate *s = &w->st[i];
	uint32_t before = s->done;

	s->waiting = false;
	while (s->done < str->nops) {
		if (unmet(w, s, str->ops[s->done], &s->on)) {
			s->waiting = true;
			s->next = w->head[s->on.dep.stream];
			w->head[s->on.dep.stream] = (int32_t)i;
			break;
		}
		s->done++;
		s->met = 0;
	}
	if (s->done == before)
		return;
	for (int32_t k = w->head[i]; k >= 0; k = w->st[k].next)
		w->queue[w->nqueue++] = (uint32_t)k;
	w->head[i] = -1;
}

/* The circle reached from waiting stream `from`, into *cycle. */
static bool circle(TALLOC_CTX *mem_ctx, const struct walk *w, uint32_t from,
		   struct wait_edge **cycle, size_t *ncycle)
{
	unsigned n = w->prog->nstreams;
	int32_t *step = talloc_array(mem_ctx, int32_t, n);
	uint32_t s = from, prev = from, k = 0;

	if (!step)
		return false;
	for (unsigned i = 0; i < n; i++)
		step[i] = -1;
	while (step[s] < 0 && w->st[s].waiting) {
		step[s] = (int32_t)k++;
		prev = s;
		s = w->st[s].on.dep.stream;
	}
	/* one that waits on a stream that has finished (for a call past its
	 * end) is a circle of one */
	uint32_t start = w->st[s].waiting ? s : prev;
	size_t len = w->st[s].waiting ? k - (uint32_t)step[s] : 1;
	*cycle = talloc_array(mem_ctx, struct wait_edge, len);
	talloc_free(step);
	if (!*cycle)
		return false;
	s = start;
	for (size_t i = 0; i < len; i++) {
		(*cycle)[i] = w->st[s].on;
		s = w->st[s].on.dep.stream;
	}
	*ncycle = len;
	return true;
}

bool waitcheck(TALLOC_CTX *mem_ctx, const struct program *prog, struct wait_edge **cycle,
	       size_t *ncycle)
{
	unsigned n = prog->nstreams;
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	struct walk w = { .prog = prog };

	*cycle = NULL;
	*ncycle = 0;
	w.st = tmp ? talloc_zero_array(tmp, struct wstate, n) : NULL;
	w.head = tmp ? talloc_array(tmp, int32_t, n) : NULL;
	/* a stream is queued at most once a time its waited-on one moves,
	 * and is then on no waiting list: n entries are room enough */
	w.queue = tmp ? talloc_array(tmp, uint32_t, n) : NULL;
	if (!w.st || !w.head || !w.queue) {
		talloc_free(tmp);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		w.head[i] = -1;
		w.queue[w.nqueue++] = i;
	}
	while (w.nqueue > 0)
		advance(&w, w.queue[--w.nqueue]);
	bool all = true;
	for (unsigned i = 0; i < n && all; i++) {
		if (w.st[i].done < prog->streams[i].nops) {
			all = false;
			if (!circle(mem_ctx, &w, i, cycle, ncycle))
				*ncycle = 0;
		}
	}
	talloc_free(tmp);
	return all;
}
