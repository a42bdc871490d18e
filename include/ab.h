/*
 * ab.h - "dbench ab": is B faster than A?  Two set-ups run in turn, in
 * an order that a busy or changing machine cannot turn into a verdict,
 * then judged as dbench compare judges two sides (compare.h).
 *
 * The command line gives the options both sides share and each side's
 * own (--a=OPTIONS, --b=OPTIONS); the top of the program turns them into
 * two run plans, A's and B's, and an ab plan, and ab_run() does the
 * rest: the order of the 2K runs (counterbalanced A B B A A B B A ...,
 * or each pair in a random order from a seed it prints), before every
 * run the --prepare command with DBENCH_SIDE=A or B, a rest between
 * runs, a line before each with the time left, and at the end compare's
 * report on the two sides with its one verdict, which names the machine
 * where its load or a drift could explain a difference.  Every run is
 * kept, in order, in one document ({"ab", "runs"}) that dbench compare
 * reads; an interrupt keeps the runs done and reports what they show.
 *
 * With --runs=auto the series is a group-sequential test: after every
 * pair of runs from 3 a side on, the test compare would make (Welch's
 * on the throughput; with --fail-above its gate) is made at the level
 * that O'Brien and Fleming's alpha spending allows that look
 * (numstat_gs_bounds()), and the series stops once it is decided, at
 * the most runs at the latest; compare's report then judges at the
 * level of the last look, so that stopping early makes no false verdict
 * more likely than --alpha says.
 */
#ifndef DBENCH_AB_H
#define DBENCH_AB_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

struct ab_plan {
	unsigned runs;		/* per side; with auto_runs the most */
	bool auto_runs;		/* --runs=auto: stop once the test is decided */
	bool random;		/* --order=random: each pair AB or BA by the seed */
	uint64_t seed;		/* its seed (printed) */
	unsigned settle;	/* seconds of rest after a sync between runs */
	const char *prepare;	/* a /bin/sh command before every run, or NULL */
	const char *json_path;	/* the document, "-" for stdout, or NULL */
	const char *a_options;	/* each side's options as given, for the record */
	const char *b_options;
	double fail_above;	/* compare's --fail-above; < 0: not given */
	double alpha;		/* significance level of the tests */
	bool all;		/* every p99 row */
};

/* The order of a series of `runs` runs a side: order[i] is 0 for A and
 * 1 for B, 2 * runs of them.  Counterbalanced, A B B A repeated, unless
 * random: then each pair (runs 1-2, 3-4, ...) is A B or B A as the seed
 * draws it.  Either way each side has `runs` and no side leads by more
 * than one at any point. */
void ab_order(unsigned char *order, unsigned runs, bool random, uint64_t seed);

/* The line after a message about side s's run (0 A, 1 B), naming whose it
 * was: "(in side B's run: the shared options and --b='-t 0')"; opts as
 * masked for the record. */
void ab_say_side(int s, const char *opts);

/* Run the series: a's plan for side A's runs, b's for B's (the same
 * NPROCS), as ap says.  Prints each run's usual output and the report;
 * returns compare's exit status (0, 3 with --fail-above, 4 where the
 * runs cannot tell or the machine could explain a slowdown), 1 when a run or --prepare failed or
 * a file could not be written, 2 when a target cannot be used before the
 * first run, 128 + N after signal N (the runs done reported first). */
int ab_run(const struct run_plan *a, const struct run_plan *b, const struct ab_plan *ap);

#endif
