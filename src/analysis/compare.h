/*
 * compare.h - "dbench compare A.json B.json": did B change from A?
 *
 * A and B are result documents as --json writes them (one run) or as
 * --sweep writes them (many runs in "runs").  The runs of each that
 * succeeded (status.exit_code 0, with a throughput figure) are grouped by
 * config.nprocs; the rest are counted as ignored.  The report has three
 * parts: what differs between the two environments and settings (taken
 * from the first successful run of each), the throughput at every nprocs
 * the two have in common, and each operation's p99 latency there.
 *
 * Where both sides have two or more runs at an nprocs, Welch's t-test
 * says whether the change is more than run-to-run noise: the verdict is
 * "faster"/"slower" ("better"/"worse" for latency) only when p < alpha,
 * else "no significant change"; a (1 - alpha) confidence interval for
 * mean B - mean A goes with it.  With a single run on a side there is no
 * test, and the verdict follows the sign of the difference alone.
 *
 * --fail-above=PCT turns the throughput verdicts into an exit status: 3
 * when at some nprocs B is "slower" and by more than PCT percent of A's
 * mean.  So with a test the drop must be significant as well as large;
 * with a single run the plain difference decides.  Latency never changes
 * the exit status.
 *
 * The statistics need nothing beyond libm: the regularized incomplete beta
 * function by its continued fraction, Student's t distribution from it,
 * and t quantiles by bisection on the distribution function.  Nothing here
 * exits; compare_main() alone prints errors.
 */
#ifndef DBENCH_COMPARE_H
#define DBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <talloc.h>

#include "analysis/rundoc.h"
#include "base/exitcode.h"

/* ---- command ---- */

/* The whole subcommand.  argv[0] is "compare"; the rest are its options
 * (--fail-above=PCT, --alpha=P, --help) and the two files.  The report
 * goes to stdout, errors to stderr; returns the exit status. */
int compare_main(int argc, const char **argv);

/* ---- the two sides ---- */

/* The two sides are two run documents (rundoc.h). */

/* How many nprocs values the two sides share. */
size_t compare_common(const struct rundoc *a, const struct rundoc *b);

/* Each setting that differs as "  NAME: A-value -> B-value\n", in a fixed
 * order; "" when none does.  Allocated on mem_ctx. */
char *compare_env_diff(TALLOC_CTX *mem_ctx, const struct rundoc *a,
		       const struct rundoc *b);

/* ---- judging one figure ---- */

enum compare_verdict {
	COMPARE_SAME,		/* single run, no difference at all */
	COMPARE_BETTER,		/* faster, or lower latency */
	COMPARE_WORSE,		/* slower, or higher latency */
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
	enum compare_verdict verdict;
};

/* Judge samples a (na >= 1 values) against b (nb >= 1).
 * higher_is_better: true for throughput, false for latency. */
void compare_samples(struct compare_row *row, const double *a, size_t na,
		     const double *b, size_t nb, double alpha, bool higher_is_better);

/* Whether a throughput row fails --fail-above=pct (see the top). */
bool compare_fails(const struct compare_row *row, double pct);

/* The report for two loaded sides with at least one nprocs in common.
 * fail_above < 0: no --fail-above.  Returns EXIT_OK or EXIT_SLOWER. */
int compare_report(FILE *out, const struct rundoc *a, const struct rundoc *b,
		   double alpha, double fail_above);

/* ---- statistics ---- */

/* The regularized incomplete beta function I_x(a, b), a, b > 0. */
double compare_incbeta(double a, double b, double x);

/* P(T <= t) for Student's t with df degrees of freedom (df may be
 * INFINITY: the normal distribution). */
double compare_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1. */
double compare_t_quantile(double p, double df);

/* The mean of x (n >= 1 values) and the half-width of its two-sided
 * `level` confidence interval (0.95 for 95 %), mean +- t(1 - (1 - level)/2,
 * n - 1) * s / sqrt(n).  Returns false, with *half NAN, when n < 2. */
bool compare_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half);

/* Welch's t-test of b against a (na, nb >= 2): the two-sided p-value,
 * with t = (mean b - mean a) / standard error and the Welch-Satterthwaite
 * degrees of freedom stored through t and df when not NULL.  Samples of
 * no spread give p = 1 when their means agree and 0 when not.  NAN when
 * a side has fewer than two values. */
double compare_welch_p(const double *a, size_t na, const double *b, size_t nb,
		       double *t, double *df);

#endif
