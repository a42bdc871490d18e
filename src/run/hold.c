/*
 * hold.c - DBENCH_TEST_HOLD (see hold.h): read once a run, before any
 * fork; the parent's points of the run then ask whether to stop there.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "run/hold.h"

static unsigned hold_fork;	/* fork:N, 0 for none */
static bool hold_start;		/* start */
static bool hold_reaped;	/* reaped */

const char *hold_read(void)
{
	const char *v = getenv("DBENCH_TEST_HOLD");
	char *end;

	hold_fork = 0;
	hold_start = hold_reaped = false;
	if (!v || !*v)
		return NULL;
	if (strcmp(v, "start") == 0 || strcmp(v, "reaped") == 0) {
		hold_start = v[0] == 's';
		hold_reaped = v[0] == 'r';
		return NULL;
	}
	if (strncmp(v, "fork:", 5) == 0 && v[5] >= '1' && v[5] <= '9') {
		errno = 0;
		unsigned long n = strtoul(v + 5, &end, 10);
		if (!*end && errno == 0 && n <= 1000000) {
			hold_fork = (unsigned)n;
			return NULL;
		}
	}
	return "DBENCH_TEST_HOLD must be 'start', 'reaped' or 'fork:N' (N from 1 to 1000000)";
}

void hold_after_fork(unsigned forked)
{
	if (hold_fork && forked == hold_fork)
		raise(SIGSTOP);
}

void hold_after_start(void)
{
	if (hold_start)
		raise(SIGSTOP);
}

void hold_after_reap(void)
{
	if (hold_reaped)
		raise(SIGSTOP);
}
