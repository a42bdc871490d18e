/*
 * tune_race.h - the statistics of dbench tune's race: F-Race (Birattari,
 * Stuetzle, Paquete and Varrentrapp 2002, the engine of irace) over the
 * figures of the runs, one figure a run.
 *
 * The race is a series of blocks; a block holds one figure of every
 * candidate still in the race at every condition (client count).  Each
 * (block, condition) is a block of the statistics: the candidates are
 * ranked within it (1 the best, ties sharing their mean rank, a failed
 * run last), so that the machine drifting between blocks weighs on no
 * candidate.  After each block from `first_test` on, with three or more
 * candidates, Friedman's test over every block so far; when it finds a
 * difference at `alpha`, each candidate is compared with the best (the
 * lowest rank sum) by Conover's test on the rank sums, with `holm` the
 * p-values corrected together by Holm's method, and those worse at
 * `alpha` are dropped.  Without `holm` it is F-Race's rule as published
 * (Birattari's race.R, irace's aux2.friedman), the significant Friedman
 * test the only protection of the comparisons: fewer runs, and more
 * races that drop the true best (bench/README, "dbench tune's race").  With two candidates left, Wilcoxon's signed-rank test on
 * their paired figures decides, as irace does.  With `equivalent` > 0
 * the race is over too when every candidate left lies within that many
 * percent of the best: the 90 % interval (two one-sided tests at 5 %)
 * of each one's paired difference from the best, in percent, inside
 * (-equivalent, +equivalent).
 *
 * Plain numbers in, decisions out; knows nothing of runs, settings or
 * text (numstat.h does the arithmetic).
 */
#ifndef DBENCH_TUNE_RACE_H
#define DBENCH_TUNE_RACE_H

#include <stdbool.h>
#include <stddef.h>

#include <talloc.h>

/* The comparisons with the best after a significant Friedman test. */
enum race_rule {
	RACE_PLAIN,		/* each two-sided at alpha (F-Race as published) */
	RACE_HOLM,		/* the p-values corrected by Holm's method */
	RACE_BEST,		/* Hsu's comparisons with the best: each one-sided
				 * against Dunnett's bound for the k - 1 made */
};

struct race_params {
	size_t ncand;		/* candidates */
	size_t nconds;		/* conditions (client counts) a block holds */
	unsigned first_test;	/* the first block after which it tests (>= 2) */
	double alpha;		/* significance of the tests */
	double equivalent;	/* percent; 0: no stop for equivalence */
	bool higher_better;	/* a higher figure wins (throughput) */
	enum race_rule rule;	/* how the comparisons with the best drop */
};

/* Why a candidate left the race. */
struct race_drop {
	size_t cand;
	unsigned block;		/* the block after which (from 1) */
	double mean_rank;	/* its mean rank in that test, */
	size_t nalive;		/* ... among this many */
	size_t against;		/* the best then */
	double p;		/* the p-value it was dropped on (Conover's,
				 * Holm's with holm, Wilcoxon's for two) */
	double level;		/* the level p was held against */
	bool wilcoxon;		/* two were left: Wilcoxon's test */
};

struct race;

struct race *race_new(TALLOC_CTX *mem_ctx, const struct race_params *p);

/* Open the next block; its number (from 1). */
unsigned race_begin_block(struct race *r);

/* Candidate cand's figure at condition cond in the open block; NAN for
 * a run that gave none (failed): last in its block. */
void race_record(struct race *r, size_t cand, size_t cond, double figure);

/* Leave the open block out, as if it had never begun: a race stopped
 * in its middle (a signal, a failure) ranks only whole blocks. */
void race_abort_block(struct race *r);

/* Close the open block and test: the candidates dropped after it, into
 * *drops (until the next call), their number returned.  A candidate in
 * the race that has no figure in the block counts as failed there. */
size_t race_end_block(struct race *r, const struct race_drop **drops);

/* Whether the candidates left are equivalent within params.equivalent
 * (tested at the last block's end; false without the stop). */
bool race_equivalent(const struct race *r);

bool race_alive(const struct race *r, size_t cand);
size_t race_nalive(const struct race *r);
unsigned race_nblocks(const struct race *r);

/* The block after which cand was dropped, 0 while it is in the race; and
 * how (NULL while in). */
const struct race_drop *race_dropped(const struct race *r, size_t cand);

/* cand's mean rank over blocks 1..upto among the candidates in block
 * upto (those that ran in it): what the race saw of it then.  NAN when
 * it was not in block upto. */
double race_mean_rank(const struct race *r, size_t cand, unsigned upto);

/* The number of candidates in block b (from 1). */
size_t race_block_size(const struct race *r, unsigned b);

/* The candidate in the race with the lowest mean rank (the first such). */
size_t race_best(const struct race *r);

/* Candidate a's figure against b's over the (block, condition) pairs in
 * which both have a positive one: Student's t over the pairs' log ratios
 * ln(a / b), its mean and two-sided `level` interval turned back into
 * percent of b (the geometric mean ratio, -100 .. +inf, its interval
 * asymmetric), and their number.  A ratio's log, not a difference in
 * percent: one run of b at a tenth of its usual figure makes its pair's
 * percent ten times as large and can swamp the rest, where its log
 * counts as any other factor.  False (NANs) with fewer than two pairs. */
bool race_paired_diff(const struct race *r, size_t a, size_t b, double level, double *mean,
		      double *lo, double *hi, size_t *npairs);

/* Candidate cand's figures at condition cond (NAN for a failed run),
 * block by block, into out (room for race_nblocks()); their number. */
size_t race_figures(const struct race *r, size_t cand, size_t cond, double *out);

#endif
