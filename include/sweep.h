/*
 * sweep.h - many runs, one summary: a sweep over client counts with
 * repeats (`dbench --sweep=LIST --repeat=K`).
 *
 * Each run is a full run as `dbench N` makes it, in a fresh client tree,
 * printing its usual output (the classic Throughput line included, so old
 * scripts keep working).  Between runs the sweep syncs and settles, and
 * with --drop-caches drops the page cache.  At the end it prints a table,
 * one row per N: runs, mean, high, low, standard deviation and coefficient
 * of variation of the throughput, the 95 % confidence interval of its
 * mean (as a half-width in percent of the mean), the worst operation
 * type's p99 latency over its runs pooled (their histograms merged), and
 * the worst maximum latency.
 * A failed run is recorded and the sweep goes on; an interrupted one ends
 * it.  What completed is always kept.
 *
 * --prepare's command runs before every run (after the rest) and
 * --cleanup's after it, whatever its outcome, with DBENCH_NPROCS,
 * DBENCH_RUN (from 1) and DBENCH_REPEAT in the environment (series.h
 * series_command(), as dbench ab's --prepare); one that fails stops the
 * sweep there, exit 1, with what completed kept.
 *
 * The time left said before each run counts the setup and cleanup as the
 * runs so far took them (with the commands and the rest's sync): a line
 * through their time against the client count, which grows with it.
 *
 * With a precision target, `repeat` is the most runs a count gets: after
 * the third successful run at a count, and after each one from then on,
 * the count stops as soon as the interval's half-width is within
 * precision percent of the mean.  The counts that used up `repeat` runs
 * without getting there are named at the end, and marked in the summary.
 */
#ifndef DBENCH_SWEEP_H
#define DBENCH_SWEEP_H

#include <stdbool.h>
#include <talloc.h>

#include "driver.h"

struct sweep_plan {
	unsigned *procs;	/* client counts, in order */
	unsigned nprocs;
	unsigned repeat;	/* runs per count; with precision, the most */
	double precision;	/* target: 95 % interval within +- this % of
				 * the mean; 0 for a fixed number of runs */
	unsigned settle;	/* seconds of rest after a sync between runs */
	bool drop_caches;	/* echo 3 > /proc/sys/vm/drop_caches between runs */
	const char *json_path;	/* the sweep document, "-" for stdout, or NULL */
	const char *csv_path;	/* one row per run, or NULL */
	const char *plot_path;	/* an SVG chart of the summary, or NULL */
	bool plot_log;		/* --plot-log: its latency axis logarithmic */
	const char *prepare;	/* a /bin/sh command before every run, or NULL */
	const char *cleanup;	/* ... and after every run, or NULL */
};

/*
 * Parse LIST: comma-separated items, each a count N or a range A..B, the
 * powers of two from A up to B (1..128 is 1 2 4 ... 128).  Counts must be
 * 1 .. DBENCH_MAX_CLIENTS.  Returns true with *out (on mem_ctx) and *n, or
 * false with *err (on mem_ctx).
 */
bool sweep_parse_list(TALLOC_CTX *mem_ctx, const char *list, unsigned **out,
		      unsigned *n, char **err);

/* Run the sweep: `base` is the plan of every run but its nclients. */
int sweep_run(const struct run_plan *base, const struct sweep_plan *sp);

#endif
