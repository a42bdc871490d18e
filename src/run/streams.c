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

#define STREAMS_WAIT_NS 50000000	/* a wait looks at the abort flag this often */

/* A stream's counter and its waiters, a cache line each: the counter is
 * written by its stream alone and read by those that wait for it. */
struct progress {
	uint32_t done;		/* calls of the pass done (the futex word) */
	uint32_t waiters;	/* threads in a futex wait on done */
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
};

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
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
	if (!ss->progress || !ss->workers)
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
	for (unsigned i = 0; i < ss->n; i++)
		__atomic_store_n(&ss->progress[i].done, 0, __ATOMIC_RELAXED);
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

bool streams_wait(struct streams *ss, const struct call_dep *deps, uint32_t n)
{
	struct timespec ts = { 0, STREAMS_WAIT_NS };

	for (uint32_t i = 0; i < n; i++) {
		struct progress *p = &ss->progress[deps[i].stream];
		uint32_t v;
		while ((v = __atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) < deps[i].seq) {
			if (__atomic_load_n(&ss->abort, __ATOMIC_RELAXED))
				return false;
			/* waiters up, then done read again: streams_done() stores
			 * done, then reads waiters, so one of the two sees the
			 * other (and the timeout covers the rest) */
			__atomic_fetch_add(&p->waiters, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&p->done, __ATOMIC_SEQ_CST) == v)
				futex(&p->done, FUTEX_WAIT_PRIVATE, v, &ts);
			__atomic_fetch_sub(&p->waiters, 1, __ATOMIC_RELAXED);
		}
	}
	return !__atomic_load_n(&ss->abort, __ATOMIC_RELAXED);
}

void streams_done(struct streams *ss, unsigned s, uint32_t seq)
{
	struct progress *p = &ss->progress[s];

	__atomic_store_n(&p->done, seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->waiters, __ATOMIC_SEQ_CST))
		futex(&p->done, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

void streams_abort(struct streams *ss)
{
	__atomic_store_n(&ss->abort, 1, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < ss->n; i++) {
		if (__atomic_load_n(&ss->progress[i].waiters, __ATOMIC_SEQ_CST))
			futex(&ss->progress[i].done, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
	}
}

bool streams_aborted(const struct streams *ss)
{
	return __atomic_load_n(&ss->abort, __ATOMIC_RELAXED);
}
