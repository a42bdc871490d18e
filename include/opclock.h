/*
 * opclock.h - the clock every operation's latency is read from.
 *
 * A client reads a clock twice per operation, and on a fast filesystem
 * the vDSO's clock_gettime() (a call, a sequence-counted read of the
 * kernel's time page, a scaling) was the largest single item of its own
 * user time.  Where the kernel itself keeps time with the TSC (its
 * clocksource is "tsc", which it picks only for an invariant TSC it has
 * found in step on every CPU), an operation is timed with the bare
 * instruction instead, and the difference of two readings turned into
 * nanoseconds with a rate measured against CLOCK_MONOTONIC when the
 * program starts.  Anywhere else the readings are CLOCK_MONOTONIC
 * nanoseconds themselves.
 *
 * Only differences of readings taken within one process mean anything:
 * a latency, a pause.  Instants (when a pass began, when the run ends)
 * stay on CLOCK_MONOTONIC, so the calibration's few parts per million
 * never accumulate.
 */
#ifndef DBENCH_OPCLOCK_H
#define DBENCH_OPCLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define OPCLOCK_HAVE_TSC 1
#else
#define OPCLOCK_HAVE_TSC 0
#endif

struct opclock {
	bool tsc;		/* readings are TSC counts */
	uint64_t mult;		/* nanoseconds per count, times 2^32 */
	double hz;		/* counts per second (1e9 without the TSC) */
};

/* Set by opclock_init(); forked clients inherit it. */
extern struct opclock opclock;

/*
 * Choose the clock and, for the TSC, measure its rate: some 10 ms of
 * sleeping, once per process tree, before the clients are forked.  The
 * environment variable DBENCH_OPCLOCK=monotonic forces CLOCK_MONOTONIC
 * (for comparing the two, and for tests); set empty, it is as if unset.
 * Without a TSC the kernel trusts, the readings are clock_gettime()'s.
 * False only when DBENCH_OPCLOCK holds anything else (the clock is then
 * the monotonic one); the caller names the variable.
 */
bool opclock_init(void);

/* "tsc" or "clock_gettime", for the run's record. */
const char *opclock_name(void);

/* CLOCK_MONOTONIC now, in nanoseconds: every instant of a run (a pass's
 * start, a deadline, the end), and the operation clock without a TSC. */
static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleep until CLOCK_MONOTONIC reaches `deadline` (monotonic_ns()'s
 * scale), or a signal arrives: the caller looks at the clock again. */
static inline void monotonic_sleep_until(uint64_t deadline)
{
	struct timespec ts = { deadline / 1000000000u, deadline % 1000000000u };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* A reading at the start of what is timed. */
static inline uint64_t opclock_start(void)
{
#if OPCLOCK_HAVE_TSC
	if (__builtin_expect(opclock.tsc, 1))
		return __rdtsc();
#endif
	return monotonic_ns();
}

/* A reading at the end of what is timed: taken only once everything
 * before it has run, so that nothing timed is left outside. */
static inline uint64_t opclock_end(void)
{
#if OPCLOCK_HAVE_TSC
	if (__builtin_expect(opclock.tsc, 1)) {
		unsigned aux;
		return __rdtscp(&aux);
	}
#endif
	return opclock_start();
}

/* About the reading the operation clock will give at CLOCK_MONOTONIC
 * `ns` (a later instant), from the rate measured at the start: off by
 * that rate's error times the wait, so that a reader that must be exact
 * compares it with some margin and then looks at CLOCK_MONOTONIC. */
uint64_t opclock_at(uint64_t ns);

/* Nanoseconds between two readings; 0 if the end reads before the start
 * (counters of two CPUs a few counts apart, for one that migrated). */
static inline uint64_t opclock_ns(uint64_t start, uint64_t end)
{
	if (__builtin_expect(end < start, 0))
		return 0;
	return (uint64_t)(((unsigned __int128)(end - start) * opclock.mult) >> 32);
}

#endif
