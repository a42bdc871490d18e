/*
 * tune_internal.h - the parts of dbench tune (tune.h) and what they
 * share: the candidates (tune_cand.c), the race through the driver and
 * the settings put back (tune.c), and what is reported (tune_report.c:
 * the table, the verdict, the front; tune_doc.c: --json, --csv, --plot).
 */
#ifndef DBENCH_TUNE_INTERNAL_H
#define DBENCH_TUNE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "series/tune_journal.h"
#include "series/tune_race.h"
#include "series/tune_setting.h"
#include "plan.h"
#include "tune.h"

/* What drives the race. */
enum tune_objective {
	TUNE_THROUGHPUT,	/* result.throughput_mb_s, higher wins */
	TUNE_P99,		/* ops.OP.p99_ms, lower wins */
	TUNE_PROBE,		/* probe.max_ms, the longest listing, lower wins */
};

/* A --posthoc rule: the race's, its name in --json (the test of a
 * drop) and in the line that says a drop. */
struct tune_posthoc_rule {
	enum race_rule rule;
	const char *name;		/* --posthoc's word */
	const char *test;		/* "friedman-conover-best" */
	const char *words;		/* "Friedman, then Conover's test ..." */
};

const struct tune_posthoc_rule *tune_posthoc_rule(enum tune_posthoc p);

/* One candidate: a value of every setting. */
struct tune_cand {
	const char **value;		/* [nsettings]; NULL: an env variable unset */
	char *label;			/* "vm.dirty_ratio=10 opt=-F" */
	bool as_found;			/* every value as found */
	const struct run_plan **plan;	/* [nconds]: its runs' plans */
};

/* One run made. */
struct tune_run {
	size_t cand;
	unsigned block;			/* from 1 */
	size_t cond;			/* index into procs */
	int rc;				/* driver_run()'s */
	double mb_s, p99_ms, probe_ms;	/* NAN where the run gave none */
	double figure;			/* the objective's, NAN for none */
	double seconds;			/* from its start to its end */
};

/* Why the race ended. */
enum tune_end {
	TUNE_ONE_LEFT,
	TUNE_EQUIVALENT,
	TUNE_BUDGET,
	TUNE_INTERRUPTED,
	TUNE_FAILED,
};

struct tune {
	const struct tune_options *o;
	TALLOC_CTX *ctx;		/* what the race's messages live on */
	FILE *text;			/* stdout, or stderr when --json=- */
	struct setting **settings;	/* [nsettings] */
	size_t nsettings;
	struct tune_cand *cand;		/* [ncand], "as found" first */
	size_t ncand;
	unsigned *procs;		/* [nconds]: the client counts */
	size_t nconds;
	enum tune_objective objective;
	const char *op;			/* TUNE_P99's operation */
	struct race *race;
	struct tune_run *runs;		/* [nruns], in order */
	size_t nruns;
	json_t *docs;			/* every run's document, in order */
	uint64_t rng;			/* the order's generator */
	unsigned budget_runs;		/* the budget in runs (the default's too) */
	char *journal_path;		/* NULL: nothing on the machine to journal */
	struct journal *journal;
	double began;			/* the first run's start (monotonic s) */
	enum tune_end end;
	int signal;			/* the signal that stopped it, or 0 */
	char *failed;			/* why it stopped otherwise, or NULL */
	bool run_failed;		/* a run failed and the race went on */
	bool restored;			/* every setting is back */
	int client_rc;			/* in a client process: its exit status */
};

/* ---- tune_cand.c ---- */

/* The settings of o->sets, or of the candidates file, into t; the
 * candidates (t->cand), the values as found first, once each found
 * (setting_find() done here).  False after saying what is wrong. */
bool tune_settings(struct tune *t, TALLOC_CTX *mem_ctx);
bool tune_candidates(struct tune *t, TALLOC_CTX *mem_ctx);

/* "#3", a candidate's name in lines and tables (on mem_ctx). */
char *tune_cand_name(TALLOC_CTX *mem_ctx, size_t cand);

/* ---- tune_report.c ---- */

/* The objective's unit and sense, for headers: "MB/sec", "higher". */
const char *tune_objective_name(const struct tune *t);

/* The table of every candidate, the verdict against "as found" and the
 * Pareto front, on t->text. */
void tune_report(const struct tune *t);

/* The candidates on the Pareto front (most throughput, least p99, and
 * least probe latency with --probe), into front (room for ncand, in the
 * order of their throughput, most first); their number. */
size_t tune_front(const struct tune *t, size_t *front);

/* The winner of the race (the best left) against as found: *g gets its
 * paired gain (race_paired_diff(), 95 %; NANs and 0 pairs when as found
 * is the best or too few pairs) and *drop the drop of as found against
 * the winner, or NULL.  True when the winner beats as found: the
 * interval rules out no gain, or the race's own test dropped as found
 * against it (its few pairs then may leave the interval wide). */
struct tune_gain {
	size_t best, pairs;
	double mean, lo, hi;
	const struct race_drop *drop;
};
bool tune_beats_as_found(const struct tune *t, struct tune_gain *g);

/* The median of a candidate's figure (0 throughput, 1 p99, 2 probe) over
 * its successful runs, and the 95 % interval of it (NAN where too few). */
double tune_median(const struct tune *t, size_t cand, int which, double *lo, double *hi,
		   size_t *n);

/* ---- tune_doc.c ---- */

/* --json, --csv and --plot; false after saying what could not be
 * written. */
bool tune_documents(const struct tune *t);

#endif
