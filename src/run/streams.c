/*
 * streams.c - a client's threads, one a stream, and the waits between
 * them (see streams.h).  It owns the threads, the progress counters and
 * the futex waits; what a stream does is its caller's.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run/streams.h"

#define STREAMS_WAIT_S 1		/* a wait looks at the abort flag this often */

/*
 * A wait for a stream to have done seq calls sleeps on the bit seq % 32
 * of its counter's futex (FUTEX_WAIT_BITSET), and each new count wakes
 * that bit alone: of the many streams that may wait on one (every child
 * on its parent's fork rows), a call done wakes only those waiting for
 * it, about, not all of them each time (4000 streams: 56 s of mostly
 * futex wake-ups for a 16000-call recording).  And a count makes the
 * wake-up call only while some thread waits on its bit: one on every
 * count while any waited woke nobody most of the time (rsync's exact
 * replay, 3636 calls: 2420 such wake-ups of 2530 futex calls).
 */
static uint32_t seq_bit(uint32_t seq)
{
	return 1u << (seq % 32);
}

/* A stream's counter and its waiters, a cache line each: the counter is
 * written by its stream alone and read by those that wait for it; what
 * it waits for itself is written by it alone, only once it has to wait. */
struct progress {
	uint32_t done;		/* calls of the pass done (the futex word) */
	uint32_t waiters;	/* threads in a futex wait on done */
	uint16_t on_bit[32];	/* ... of them, those on each seq_bit() */
	uint32_t on;		/* the stream it waits for, + 1; 0 while it does not */
	uint32_t on_seq;	/* ... until it has done this many calls */
	uint64_t since_ns;	/* since when */
} __attribute__((aligned(64)));

struct worker {
	struct streams *ss;
	unsigned stream;
	pthread_t thread;
	bool started;
};

struct streams {
	unsigned n;
	struct progress *progress;	/* [n] */
	struct worker *workers;		/* [n]; workers[0] is the caller */
	void (*fn)(void *arg, unsigned stream);
	void *arg;
	uint32_t abort;
	uint64_t stall_ns;		/* streams_set_stall(); 0: never */
	bool (*stop)(void *arg);	/* streams_set_stop() */
	void *stop_arg;
	uint32_t stalled;		/* 1 once a wait found a circle */
	uint64_t wakeups;		/* futex wake-up calls made by streams_done() */
	struct call_dep *circle;	/* [n]: what it found */
	unsigned ncircle;
};

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts, uint32_t bits)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, bits);
}

struct streams *streams_new(TALLOC_CTX *mem_ctx, unsigned n)
{
	struct streams *ss = talloc_zero(mem_ctx, struct streams);

	if (!ss)
		return NULL;
	ss->n = n;
	/* a cache line each, aligned by hand: talloc aligns to 16 bytes */
	size_t line = sizeof(struct progress);
	char *raw = talloc_zero_size(ss, (n ? n : 1) * line + line - 1);
	ss->progress = raw ? (struct progress *)(((uintptr_t)raw + line - 1) & ~(uintptr_t)(line - 1))
			   : NULL;
	ss->workers = talloc_zero_array(ss, struct worker, n ? n : 1);
	ss->circle = talloc_zero_array(ss, struct call_dep, n ? n : 1);
	if (!ss->progress || !ss->workers || !ss->circle)
		TALLOC_FREE(ss);
	return ss;
}

static void *worker_main(void *p)
{
	struct worker *w = p;

	w->ss->fn(w->ss->arg, w->stream);
	return NULL;
}

bool streams_run(struct streams *ss, void (*fn)(void *arg, unsigned stream), void *arg)
{
	pthread_attr_t attr;
	int err = 0;

	ss->fn = fn;
	ss->arg = arg;
	__atomic_store_n(&ss->abort, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ss->stalled, 0, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < ss->n; i++) {
		__atomic_store_n(&ss->progress[i].done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&ss->progress[i].on, 0, __ATOMIC_RELAXED);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);	/* a replay thread's calls are shallow */
	for (unsigned i = 1; i < ss->n && !err; i++) {
		ss->workers[i] = (struct worker){ .ss = ss, .stream = i };
		err = pthread_create(&ss->workers[i].thread, &attr, worker_main, &ss->workers[i]);
		ss->workers[i].started = err == 0;
	}
	pthread_attr_destroy(&attr);
	if (err)
		streams_abort(ss);
	else
		fn(arg, 0);
	for (unsigned i = 1; i < ss->n; i++) {
		if (ss->workers[i].started)
			pthread_join(ss->workers[i].thread, NULL);
		ss->workers[i].started = false;
	}
	errno = err;
	return err == 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void streams_set_stall(struct streams *ss, uint64_t ns)
{
	ss->stall_ns = ns;
}

void streams_set_stop(struct streams *ss, bool (*stop)(void *arg), void *arg)
{
	ss->stop = stop;
	ss->stop_arg = arg;
}

/* Whether stream `self`, waiting, waits through streams each waiting
 * since stall_ns ago or more for itself; with `note`, the waits into
 * ss->circle.  The length of the circle, or 0. */
static unsigned circle_of(struct streams *ss, unsigned self, uint64_t now, bool note)
{
	unsigned s = self;

	for (unsigned k = 0; k < ss->n; k++) {
		const struct progress *p = &ss->progress[s];
		uint32_t on = __atomic_load_n(&p->on, __ATOMIC_ACQUIRE);
		if (!on || now - __atomic_load_n(&p->since_ns, __ATOMIC_RELAXED) < ss->stall_ns)
			return 0;
		if (note)
			ss->circle[k] = (struct call_dep){
				__atomic_load_n(&p->on_seq, __ATOMIC_RELAXED), (uint16_t)(on - 1) };
		s = on - 1;
		if (s == self)
			return k + 1;
	}
	return 0;	/* a circle that self only leads to: its own members find it */
}

/* Whether self is the first to find a circle, noted in ss->circle. */
static bool circle_found(struct streams *ss, unsigned self, uint64_t now)
{
	uint32_t no = 0;

	if (!circle_of(ss, self, now, false) ||
	    !__atomic_compare_exchange_n(&ss->stalled, &no, 1, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return false;
	ss->ncircle = circle_of(ss, self, now, true);
	if (ss->ncircle)
		return true;
	__atomic_store_n(&ss->stalled, 0, __ATOMIC_SEQ_CST);	/* it moved meanwhile */
	return false;
}

/* Stream self waits for stream d.stream to have done d.seq calls. */
static enum streams_wait wait_one(struct streams *ss, unsigned self, struct call_dep d)
{
	struct progress *p = &ss->progress[d.stream], *me = &ss->progress[self];
	uint32_t v;

	while ((v = __atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) < d.seq) {
		if (__atomic_load_n(&ss->abort, __ATOMIC_RELAXED))
			return STREAMS_STOPPED;
		uint64_t now = now_ns(), until = now + STREAMS_WAIT_S * 1000000000ull;
		struct timespec ts = { (time_t)(until / 1000000000u), (long)(until % 1000000000u) };
		if (!__atomic_load_n(&me->on, __ATOMIC_RELAXED)) {
			__atomic_store_n(&me->since_ns, now, __ATOMIC_RELAXED);
			__atomic_store_n(&me->on_seq, d.seq, __ATOMIC_RELAXED);
			__atomic_store_n(&me->on, d.stream + 1u, __ATOMIC_RELEASE);
		} else if (ss->stop && ss->stop(ss->stop_arg)) {
			streams_abort(ss);
			return STREAMS_STOPPED;
		} else if (ss->stall_ns && circle_found(ss, self, now)) {
			streams_abort(ss);
			return STREAMS_STALLED;
		}
		/* waiters up, then done read again: streams_done() stores
		 * done, then reads waiters, so one of the two sees the
		 * other (and the timeout covers the rest) */
		__atomic_fetch_add(&p->on_bit[d.seq % 32], 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&p->waiters, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&p->done, __ATOMIC_SEQ_CST) == v)
			futex(&p->done, FUTEX_WAIT_BITSET_PRIVATE, v, &ts, seq_bit(d.seq));
		__atomic_fetch_sub(&p->waiters, 1, __ATOMIC_RELAXED);
		__atomic_fetch_sub(&p->on_bit[d.seq % 32], 1, __ATOMIC_RELAXED);
	}
	return STREAMS_GO;
}

enum streams_wait streams_wait(struct streams *ss, unsigned self, const struct call_dep *deps,
			       uint32_t n)
{
	enum streams_wait w = STREAMS_GO;

	for (uint32_t i = 0; i < n && w == STREAMS_GO; i++) {
		w = wait_one(ss, self, deps[i]);
		if (__atomic_load_n(&ss->progress[self].on, __ATOMIC_RELAXED))
			__atomic_store_n(&ss->progress[self].on, 0, __ATOMIC_RELAXED);
	}
	if (w == STREAMS_GO && __atomic_load_n(&ss->abort, __ATOMIC_RELAXED))
		w = STREAMS_STOPPED;
	return w;
}

const struct call_dep *streams_stall(const struct streams *ss, unsigned *n)
{
	*n = ss->ncircle;
	return ss->circle;
}

void streams_done(struct streams *ss, unsigned s, uint32_t seq)
{
	struct progress *p = &ss->progress[s];

	/* a waiter counts itself on its bit, then among the waiters, then
	 * reads done: one of the two sees the other */
	__atomic_store_n(&p->done, seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->waiters, __ATOMIC_SEQ_CST) &&
	    __atomic_load_n(&p->on_bit[seq % 32], __ATOMIC_SEQ_CST)) {
		__atomic_fetch_add(&ss->wakeups, 1, __ATOMIC_RELAXED);
		futex(&p->done, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL, seq_bit(seq));
	}
}

void streams_abort(struct streams *ss)
{
	__atomic_store_n(&ss->abort, 1, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < ss->n; i++) {
		if (__atomic_load_n(&ss->progress[i].waiters, __ATOMIC_SEQ_CST))
			futex(&ss->progress[i].done, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL,
			      FUTEX_BITSET_MATCH_ANY);
	}
}

uint64_t streams_wakeups(const struct streams *ss)
{
	return __atomic_load_n(&ss->wakeups, __ATOMIC_RELAXED);
}

bool streams_aborted(const struct streams *ss)
{
	return __atomic_load_n(&ss->abort, __ATOMIC_RELAXED);
}
