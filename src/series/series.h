/*
 * series.h - what every series of runs does between them, for --sweep
 * and dbench ab alike: the rest (a sync, the page cache dropped if
 * asked, a pause), the user's --prepare and --cleanup commands, the
 * seeded numbers their random orders are drawn from, the clock and the
 * time left said in words.
 */
#ifndef DBENCH_SERIES_H
#define DBENCH_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

/* Between runs: sync, drop the page cache when asked (root), then rest
 * `settle` seconds (cut short by a signal). */
void series_rest(unsigned settle, bool drop_caches);

/* Run cmd through /bin/sh, with env's NAME, VALUE pairs (NULL-ended) set
 * in its environment and its output on stderr (stdout carries the
 * results).  NULL when it succeeded, else what went wrong, on ctx: "exit
 * status 1", "killed by signal 9 (Killed)", "cannot start it: ...". */
char *series_command(TALLOC_CTX *ctx, const char *cmd, const char *const *env);

/* The next number of a sequence that its seed alone decides (splitmix64):
 * *state is the seed at first and moves on with each call.  The order of
 * a series' runs is drawn from it, so that a seed repeats it. */
uint64_t series_random(uint64_t *state);

/* The monotonic clock in seconds. */
double series_now_s(void);

/* "1 h 02 min", "25 min 30 s", "45 s": s seconds into buf. */
const char *series_duration(char buf[32], unsigned long s);

#endif
