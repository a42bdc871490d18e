/*
 * compare_parts.h - the parts of `dbench compare` (compare.h has the
 * command and what it reports), each specified by the unit tests: the
 * documents' labels and shared client counts, the settings that differ,
 * one figure judged A against B, the report put together, how much
 * evidence is enough (Welch's test is numstat's).  compare_judge.c judges one
 * figure and has the words for it; compare_latency.c is the latency
 * table, compare_writeback.c the writeback table, compare_table.c the
 * layout of their rows; compare.c the rest of the report and the
 * command.
 *
 * A contract, not compare's alone: dbench ab (src/series/) judges its
 * sides and its sequential looks with these, as compare does.  The t
 * distribution is numstat's (numstat.h).  Nothing here prints but
 * compare_report() to its stream, and nothing exits.
 */
#ifndef DBENCH_COMPARE_PARTS_H
#define DBENCH_COMPARE_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <talloc.h>

#include "rundoc.h"
#include "compare.h"

/* ---- the documents ---- */

/* The most documents one comparison takes: A to Z. */
#define COMPARE_MAX_DOCS 26

/* The label of document i (from 0) in the report: "A" for the baseline,
 * then "B", "C", ... */
const char *compare_label(size_t i);

/* Each document is a run document (rundoc.h). */

/* How many nprocs values the two sides share. */
size_t compare_common(const struct rundoc *a, const struct rundoc *b);

/* Each setting that differs as "  NAME: A-value -> B-value\n", in a fixed
 * order; "" when none does.  Allocated on mem_ctx. */
char *compare_env_diff(TALLOC_CTX *mem_ctx, const struct rundoc *a,
		       const struct rundoc *b);

/* ---- judging one figure ---- */

/* What could explain a significant difference other than the set-ups. */
enum compare_doubt {
	COMPARE_SOUND,		/* nothing that was measured */
	COMPARE_DOUBT_HOST,	/* the slower side's clients waited for a CPU longer,
				 * and that could account for it */
	COMPARE_DOUBT_DRIFT,	/* a side's throughput drifted over its runs, which
				 * came in one block after the other side's */
};

enum compare_verdict {
	COMPARE_UNTESTED,	/* a side has a single run: no test, no verdict */
	COMPARE_BETTER,		/* faster, or lower latency: tested, p < alpha */
	COMPARE_WORSE,		/* slower, or higher latency: tested, p < alpha */
	COMPARE_NO_CHANGE,	/* tested, p >= alpha */
};

/* One figure at one nprocs, A against B. */
struct compare_row {
	size_t na, nb;		/* runs on each side */
	double mean_a, mean_b;
	double change_pct;	/* (mean B - mean A) / mean A * 100 */
	bool tested;		/* na >= 2 and nb >= 2: the fields below are set */
	double t, df, p;	/* Welch's test; t > 0 when B is higher */
	double ci_low, ci_high;	/* (1 - alpha) interval for mean B - mean A */
	double bound_low;	/* the change in percent of A's mean is above this, */
	double bound_high;	/* and below this, each with confidence 1 - alpha
				 * (one-sided bounds); NAN untested */
	double sd_a, sd_b;	/* each side's standard deviation; NAN for one run */
	enum compare_verdict verdict;
	/* compare_pooled_p99(): the means are the sides' pooled p99s, and the
	 * test (t, df, p, interval, verdict) is of the shares below */
	bool pooled;
	bool rank;			/* judged by the rank test (compare_rank_instead()) */
	double above_a, above_b;	/* mean % of a run's operations above the
					 * joint p99; NAN when not pooled */
	/* compare_throughput(): whether the machine could explain a
	 * significant difference (compare_trust()), and whose runs */
	enum compare_doubt doubt;
	int doubt_side;			/* 0 for A, 1 for B; -1 without a doubt */
	int blocks_first;		/* each side's runs in one block on one host:
					 * the side that came first (0 A, 1 B);
					 * -1 when not */
};

/* The fewest runs a side that Welch's test can judge: with fewer a row is
 * untested. */
#define COMPARE_TEST_MIN_RUNS 2

/* Judge samples a (na >= 1 values) against b (nb >= 1).
 * higher_is_better: true for throughput, false for latency. */
void compare_samples(struct compare_row *row, const double *a, size_t na,
		     const double *b, size_t nb, double alpha, bool higher_is_better);

/* The p99 of operation type op at one nprocs, the runs of ga (A) and gb
 * pooled each, judged on the share of each run's operations slower than
 * the p99 of both sides pooled (compare_latency.c says why).  False, with
 * *row untouched, where a run kept no histogram or a side has fewer than
 * the 100 operations a p99 needs. */
bool compare_pooled_p99(struct compare_row *row, const struct rundoc_group *ga,
			const struct rundoc_group *gb, const char *op, double alpha);

/* Where the normal assumption is weak (shares of operations, bounded and
 * skewed): the row judged by the Mann-Whitney rank test instead of
 * Welch's, when its smallest p-value with na and nb runs is below alpha
 * (4 runs a side at 0.05); the interval, t and df are then NAN and
 * row->rank is set.  The direction is that of the means. */
void compare_rank_instead(struct compare_row *row, const double *a, size_t na,
			  const double *b, size_t nb, double alpha, bool higher_is_better);

/*
 * What --fail-above=pct says of a throughput row: a test of
 * non-inferiority.  B's slowdown is -change_pct; its one-sided (1 -
 * alpha) upper bound is -bound_low, its lower bound -bound_high.  OK
 * only on evidence: the upper bound below pct.  A regression when the
 * slowdown is significantly beyond pct (the lower bound above it), and
 * nothing of the machine's could explain it (else COMPARE_GATE_LOAD).
 * Anything else, an untested row too, cannot tell: COMPARE_GATE_UNSURE.
 */
enum compare_gate {
	COMPARE_GATE_OK,
	COMPARE_GATE_REGRESSION,	/* exit 3 */
	COMPARE_GATE_LOAD,		/* exit 4: the machine could explain it */
	COMPARE_GATE_UNSURE,		/* exit 4: more runs, or a steadier machine */
};

enum compare_gate compare_gate(const struct compare_row *row, double pct);

/* About how many runs a side would settle an unsure row at pct: the
 * fewest with which the one-sided bound, at the spread and the slowdown
 * the runs showed, would lie on one side of pct (numstat_runs_needed());
 * 0 when more than COMPARE_SENSIBLE_RUNS, or when a side has one run. */
size_t compare_gate_runs(const struct compare_row *row, double pct, double alpha);

/* ---- can a difference be trusted ---- */

/* What the machine did during one nprocs's runs of A (side 0) and B
 * (side 1), from the host load and start time each run recorded, and
 * what of it could explain a difference (compare_trust.c says how). */
struct compare_trust {
	size_t n[2];			/* runs of each side */
	bool host;			/* every run recorded its host load */
	double wait[2];			/* the mean of host.cpu_wait_pct */
	double other[2], steal[2];	/* ... of host.other_cpu_pct, steal_pct */
	double load_lo[2], load_hi[2];	/* the 1-minute load averages seen */
	double wait_p;			/* the waits of A against B's: the rank test's p
					 * where it can reach alpha, else Welch's */
	double adjusted_p;		/* ... of throughput / (1 - wait) */
	double adjusted_diff;		/* its mean B - mean A */
	double drift_rho[2], drift_p[2];	/* Spearman's rho of throughput over the
						 * runs' start, and its p; NAN with
						 * fewer than 3 runs */
	bool blocks;			/* on one host, all of one side's runs
					 * began before all of the other's */
	int first;			/* with blocks, the side that came first */
	enum compare_doubt doubt;	/* for the difference judged in row */
	int side;			/* the side the doubt names, -1 without */
};

/* The machine during the runs of ga (A) and gb (B), and the doubt on the
 * throughput row judged from them. */
void compare_trust(struct compare_trust *t, const struct rundoc_group *ga,
		   const struct rundoc_group *gb, const struct compare_row *row, double alpha);

/* The throughput at nprocs of doc against the baseline base; false, with
 * *row untouched, when either has no successful run there. */
bool compare_throughput(struct compare_row *row, const struct rundoc *base,
			const struct rundoc *doc, unsigned nprocs, double alpha);

/* What the report is asked for. */
struct compare_options {
	double alpha;		/* significance level of the tests */
	double fail_above;	/* --fail-above's percentage; < 0: not given */
	bool all;		/* --all: every p99 row, not only the significant */
	bool different_workloads;	/* --allow-different-workload, and they
					 * differ: figures shown, no verdict */
};

/*
 * What of the workload differs between the baseline and each other
 * document (the loadfile, by its SHA-256, with its name; the backend),
 * a line each ("  B: loadfile client.txt (sha256 beb789ca...) ->
 * one.txt (dd8e46ef...)"), on mem_ctx; "" when nothing does.  Runs of
 * different workloads measure different things: compare gives them no
 * verdict.
 */
char *compare_workload_diff(TALLOC_CTX *mem_ctx, const struct rundoc *const *docs,
			    size_t ndocs);

/* Shares of the loadfile replayed in the measured window (one side's
 * under a pass) further apart than this ratio are named: the two sides
 * measured different parts of the workload. */
#define COMPARE_SHARE_RATIO 1.25

/* A run further than this many scaled MADs (numstat.h) from the median
 * of its group is named as an outlier, in a group of at least
 * COMPARE_OUTLIER_MIN_RUNS runs: the MAD of 3 runs is the gap between
 * the two closest, and flags the third whenever it is not between them. */
#define COMPARE_OUTLIER_MADS 3.0
#define COMPARE_OUTLIER_MIN_RUNS 5

/* The report for ndocs (2 .. COMPARE_MAX_DOCS) loaded documents, each
 * sharing at least one nprocs with docs[0], the baseline.  Returns EXIT_OK
 * or EXIT_SLOWER. */
int compare_report(FILE *out, const struct rundoc *const *docs, size_t ndocs,
		   const struct compare_options *opt);

/* The writeback part of the report: at each nprocs of the baseline, for
 * each of its devices, the bytes the device wrote over those the clients
 * wrote beneath it, run by run, every document against the first; nothing
 * where no run gives the figure. */
void compare_report_writeback(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			      double alpha);

/* The latency part of the report: each operation's p99 (and each
 * --probe's) at each nprocs of the baseline, every document against it;
 * only the significant rows unless all. */
void compare_report_latency(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			    double alpha, bool all);

/* ---- a table of one figure, row by row ---- */

/* The layout of a table of one figure judged A against B at each nprocs,
 * a row per name (an operation, a device): nprocs, the name, the side
 * (three documents or more), runs, the two means, the change, the shares
 * above the joint p99 where there are any, t, df, p and the verdict. */
struct compare_table {
	const char *title;		/* the line above the heading */
	const char *name_head;		/* "operation", "device" */
	int name_width;			/* of the name column */
	const char *figure;		/* "p99": its columns "p99 A", "p99 B" */
	const char *change_fmt;		/* printf format of the change, "%+.2f%%" */
	int change_width;		/* of the change column */
	bool above;			/* the >p99 columns (compare_row.above_a) */
	const char *better, *worse;	/* the verdict's words */
};

/* The table's heading, with the side column when with_side. */
void compare_table_head(FILE *out, const struct compare_table *t, bool with_side);

/* One row: name at nprocs, of document side (NULL without the column). */
void compare_table_row(FILE *out, const struct compare_table *t, unsigned nprocs,
		       const char *name, const char *side, const struct compare_row *r);

/* ---- the report's words ---- */

/* fmt of v, or "-" for NAN or an infinity (a change from 0: "+inf%"
 * says nothing) (on ctx). */
const char *compare_num(TALLOC_CTX *ctx, const char *fmt, double v);

/* Why rows of a table were left untested, and what a test needs: "a
 * side has a single run there, and a test needs 2 runs a side at least
 * (--repeat=2)". */
extern const char compare_untested_why[];

/* The line under a table with n rows (> 0) untested for lack of runs:
 * "  (2 rows untested: <compare_untested_why>)"; nothing for 0. */
void compare_print_untested(FILE *out, size_t n);

/* A row's p-value as text, "<0.0001" below that. */
const char *compare_p_text(TALLOC_CTX *ctx, const struct compare_row *r);

/* A row's verdict in words: `better` or `worse` (faster or slower, for
 * throughput), "no significant change", or "untested (1 run of B)". */
const char *compare_verdict_text(TALLOC_CTX *ctx, const struct compare_row *r,
				 const char *better, const char *worse);

/* ---- how much evidence ---- */

/* Evidence is weak at an nprocs where a side has fewer runs than this, or
 * a coefficient of variation above COMPARE_WEAK_CV percent. */
#define COMPARE_MIN_RUNS 3
#define COMPARE_WEAK_CV 10.0

/* The change the --repeat advice resolves without --fail-above, in
 * percent of A's mean. */
#define COMPARE_RESOLUTION 5.0

/* The most runs a side the advice names (--repeat=N, --runs=N, "need
 * about N runs a side"): beyond it, an hour of one-minute runs a side,
 * the spread is what to work on, and the advice says so. */
#define COMPARE_SENSIBLE_RUNS 30

/* What reduces the spread, for the advice beyond COMPARE_SENSIBLE_RUNS. */
extern const char compare_steadier[];

#endif
