/*
 * compare.h - "dbench compare A.json B.json [C.json ...]": did B (and C
 * ...) change from A?
 *
 * Each document is a result as --json writes it (one run) or as --sweep
 * writes it (many runs in "runs").  The first is the baseline, A; the
 * others are B, C, ... (26 at most), each judged against A alone.  The
 * runs of each that succeeded (status.exit_code 0, with a throughput
 * figure) are grouped by config.nprocs; the rest are counted as ignored.
 * The report has these parts: what differs between A's environment and
 * settings and each other's (taken from the first successful run of
 * each), the throughput at every nprocs of A that another shares (with
 * two documents the pair's table; with more, each document's mean, high
 * and low with its change against A), a warning where the evidence is
 * weak or a run is an outlier, the precision of each mean, what the
 * disks did, each operation's p99 latency there (only the significant
 * changes unless --all), and one verdict line.
 *
 * Where both sides have two or more runs at an nprocs, Welch's t-test
 * says whether the change is more than run-to-run noise: the verdict is
 * "faster"/"slower" ("better"/"worse" for latency) only when p < alpha,
 * else "no significant change"; a (1 - alpha) confidence interval for
 * mean B - mean A goes with it.  With a single run on a side there is no
 * test and no verdict: the change is shown, "untested".
 *
 * --fail-above=PCT turns the throughput into an exit status, a test of
 * non-inferiority (compare_parts.h, compare_gate()): 0 only when at
 * every nprocs every document's slowdown is below PCT percent of A's mean
 * by its one-sided (1 - alpha) bound; 3 when somewhere the slowdown is
 * significantly beyond PCT (its lower bound above it); else 4, the runs
 * cannot tell (or the machine could explain it).  An untested side never
 * fails, nor passes.  Latency never changes the exit status.
 *
 * The parts of the report, each testable alone, are in
 * compare_parts.h.  Nothing exits but through
 * compare_main(), which alone prints errors.
 */
#ifndef DBENCH_COMPARE_H
#define DBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "exitcode.h"

/* ---- command ---- */

/* The whole subcommand.  argv[0] is "compare"; the rest are its options
 * (--fail-above=PCT, --alpha=P, --all, --plot=FILE, --plot-log, --help)
 * and the files.  The report goes to stdout, errors to stderr; returns
 * the exit status. */
int compare_main(int argc, const char **argv);

#endif
