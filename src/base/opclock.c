/*
 * opclock.c - choosing the operation clock and measuring the TSC's rate
 * (see opclock.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opclock.h"

#if OPCLOCK_HAVE_TSC
#include <cpuid.h>
#endif

static const struct opclock monotonic = { .tsc = false, .mult = 1ull << 32, .hz = 1e9 };

struct opclock opclock = monotonic;

#if OPCLOCK_HAVE_TSC
/* The kernel keeps time with the TSC, and the CPU says it runs at one rate
 * whatever the core's frequency or sleep state (invariant TSC). */
static bool tsc_trusted(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return false;

	char source[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (!f)
		return false;
	bool ok = fgets(source, sizeof(source), f) && strcmp(source, "tsc\n") == 0;
	fclose(f);
	return ok;
}

/* A TSC reading and the CLOCK_MONOTONIC time it stands for: the middle of
 * the tightest of a few brackets of two clock_gettime() calls. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 7; i++) {
		uint64_t before = monotonic_ns();
		uint64_t t = __rdtsc();
		uint64_t after = monotonic_ns();
		if (after - before < best) {
			best = after - before;
			*tsc = t;
			*ns = before + (after - before) / 2;
		}
	}
}
#endif

bool opclock_init(void)
{
	const char *force = getenv("DBENCH_OPCLOCK");

	if (force && force[0] == '\0')
		force = NULL;		/* set empty: as if unset */
	opclock = monotonic;
	if (force && strcmp(force, "monotonic") != 0)
		return false;
#if OPCLOCK_HAVE_TSC
	if (force || !tsc_trusted())
		return true;

	uint64_t t0, n0, t1, n1;
	pair(&t0, &n0);
	struct timespec nap = { 0, 10000000 };
	nanosleep(&nap, NULL);
	pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return true;

	double hz = (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
	if (hz < 1e8 || hz > 1e11)	/* not a counter this code knows */
		return true;
	opclock = (struct opclock){
		.tsc = true,
		.mult = (uint64_t)((double)(n1 - n0) / (double)(t1 - t0) * 4294967296.0 + 0.5),
		.hz = hz,
	};
#endif
	return true;
}

uint64_t opclock_at(uint64_t ns)
{
	uint64_t now_ns = monotonic_ns();

	if (!opclock.tsc)
		return ns;
	uint64_t now = opclock_start();
	double ahead = ns > now_ns ? (double)(ns - now_ns) * opclock.hz / 1e9 : 0;
	return now + (uint64_t)ahead;
}

const char *opclock_name(void)
{
	return opclock.tsc ? "tsc" : "clock_gettime";
}
