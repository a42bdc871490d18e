/*
 * tune.h - "dbench tune": which setting serves this workload best?  A
 * race of candidate settings (kernel tunables, files under /sys, mount
 * options, the run's own options), every setting put back whatever
 * happens.
 *
 * The command line gives the options every run shares (as dbench ab's),
 * the settings with their values (--set KEY=V1,V2,... or a file of
 * candidates), and the race's own options; the top of the program turns
 * them into a struct tune_options and a way to build a run plan for a
 * candidate's own options, and tune_run() does the rest:
 *  - finds every setting and its value as found (refusing, exit 2,
 *    anything outside /proc/sys and /sys, missing or not writable),
 *    makes the candidates (the combinations, or the file's lines; the
 *    values as found always one of them), and writes the journal
 *    (tune_journal.h) before anything changes;
 *  - writes every value once and reads it back, putting the value as
 *    found back at once (a value the kernel refuses or rounds is refused
 *    before the race, naming what it kept);
 *  - races the candidates (tune_race.h) in blocks of every survivor at
 *    every client count in a random order drawn from a printed seed, a
 *    line before each run and one for each drop;
 *  - puts every setting back and reads it back, at the end, on
 *    SIGINT/SIGTERM/SIGHUP and after any failure, then removes the
 *    journal;
 *  - reports every candidate, the winner against "as found", the Pareto
 *    front of throughput against p99 latency, and --json, --csv, --plot.
 * tune_restore() is --restore: the settings of a journal a killed tune
 * left put back.
 */
#ifndef DBENCH_TUNE_H
#define DBENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <talloc.h>

#include "plan.h"

/* --posthoc: how the comparisons with the best drop a candidate. */
enum tune_posthoc {
	TUNE_POSTHOC_BEST,		/* Hsu's comparisons with the best (default) */
	TUNE_POSTHOC_HOLM,		/* Holm's correction */
	TUNE_POSTHOC_NONE,		/* uncorrected, F-Race's (--no-holm) */
};

struct tune_options {
	const char *const *sets;	/* --set KEY=V1,V2,..., as given */
	size_t nsets;
	const char *candidates;		/* --candidates=FILE, or NULL */
	const unsigned *sweep;		/* --sweep's client counts, or NULL: the
					 * shared options' NPROCS */
	size_t nsweep;
	const char *objective;		/* "throughput", "p99:OPERATION" or "probe" */
	unsigned first_test;		/* --first-test: blocks before the first test */
	double alpha;			/* significance of the race's tests */
	enum tune_posthoc posthoc;	/* --posthoc: the comparisons with the best */
	double equivalent;		/* --equivalent=PCT, 0 without */
	unsigned budget_runs;		/* --budget=RUNS, 0 without */
	unsigned budget_s;		/* --budget=TIME in seconds, 0 without */
	uint64_t seed;			/* the order's seed (printed) */
	unsigned settle;		/* seconds of rest after a sync between runs */
	const char *prepare;		/* a /bin/sh command before every run, or NULL */
	const char *journal;		/* --journal=FILE, or NULL: under the target */
	const char *json_path;		/* every run, the race and the verdict, or NULL */
	const char *csv_path;		/* a row a run, or NULL */
	const char *plot_path;		/* the race and the front as SVG, or NULL */
};

/* The plan of a run with `words` (a candidate's opt= value, "" for none)
 * added to the shared options, at `nprocs` clients (0: the shared
 * options' NPROCS): the command line's, which says what is wrong itself
 * (false: exit 2).  The plan and what it points to live on mem_ctx. */
typedef bool (*tune_plan_fn)(void *arg, TALLOC_CTX *mem_ctx, const char *words,
			     unsigned nprocs, struct run_plan *plan);

/* The race.  Returns 0 (the race ran and every setting is back), 1 (a
 * run or --prepare failed, an output could not be written, or a setting
 * could not be put back: the journal is then kept and named), 2 (bad
 * input, found before anything changed), 128 + N after signal N (the
 * runs done reported, every setting put back first). */
int tune_run(const struct tune_options *o, tune_plan_fn plan_for, void *arg);

/* The journal's default place for a target directory: DIR/.dbench-tune-journal
 * (on mem_ctx). */
char *tune_journal_default(TALLOC_CTX *mem_ctx, const char *dir);

/* --restore: every setting of the journal at path put back and read back,
 * a line each on stdout, and the journal removed.  0 when all are back;
 * 1 when one could not be (the journal kept); 2 when there is no journal,
 * it may not be trusted, or it is not understood. */
int tune_restore(const char *path);

/* --posthoc's word (best, holm, none) into *p; false for another. */
bool tune_posthoc_parse(const char *word, enum tune_posthoc *p);

#endif
