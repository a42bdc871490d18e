/*
 * numstat.h - the statistics of a handful of figures: sorting doubles,
 * median, mean, sample standard deviation, median absolute deviation and
 * the outliers it shows, Student's t with the confidence interval of a
 * mean it gives, a trend over order (Spearman's rank correlation) and a
 * two-sample rank test (Mann-Whitney); for several treatments over
 * blocks, Friedman's test with its pairwise comparisons, Holm's
 * correction, Wilcoxon's signed-rank test and the median's interval
 * (dbench tune's race).  One copy for every module that summarises runs
 * or clients (result, sweep, compare, ab, tune).
 *
 * The figures come from GNU GSL (gsl_stats_*, gsl_sort, gsl_cdf_*):
 * nothing here computes a special function itself.  What is ours is the
 * convention around them: a figure that is not defined (the spread of one
 * value, a test of too few) is NAN, never 0 and never an abort, and the
 * exact small-sample distributions of the two rank statistics, counted
 * over every arrangement of the ranks where there are few enough.
 *
 * Plain arrays of doubles in, doubles out; no I/O.  Below everything:
 * knows nothing of runs, JSON or histograms (those percentiles are
 * hist.h's).
 */
#ifndef DBENCH_NUMSTAT_H
#define DBENCH_NUMSTAT_H

#include <stdbool.h>
#include <stddef.h>

/* qsort()'s comparison of two doubles, ascending. */
int numstat_cmp(const void *a, const void *b);

/* Sort v[0..n) ascending, in place. */
void numstat_sort(double *v, size_t n);

/* The median of v[0..n), which is sorted: the middle value, or the mean
 * of the two middle ones; NAN when n is 0. */
double numstat_median_sorted(const double *v, size_t n);

/* The median of v[0..n), which it sorts in place. */
double numstat_median(double *v, size_t n);

/* The mean of v[0..n); NAN when n is 0. */
double numstat_mean(const double *v, size_t n);

/* The sample variance about `mean` (n - 1 in the denominator); NAN when
 * n is below 2: one value has no spread to speak of. */
double numstat_variance(const double *v, size_t n, double mean);

/* The sample standard deviation of v[0..n); NAN when n is below 2. */
double numstat_stddev(const double *v, size_t n);

/* The median absolute deviation from the median of v[0..n), unscaled;
 * v is sorted in place and `scratch` (n doubles) is overwritten.  NAN
 * when n is 0. */
double numstat_mad(double *v, double *scratch, size_t n);

/* ---- outliers ---- */

/* The MAD times this estimates the standard deviation of normally
 * distributed figures (1 / the normal's 0.75 quantile). */
#define NUMSTAT_MAD_SCALE 1.4826

/* Which of v[0..n) lie more than k scaled MADs (NUMSTAT_MAD_SCALE times
 * the MAD) from their median: out[i] is set for each, and their number
 * returned; *median and *mad (scaled) get what they were judged by.
 * Fewer than 3 values have no outlier (and NAN for both); callers that
 * judge runs ask for more (a MAD of 3 values is the gap between the two
 * closest of them).  v is left alone; scratch holds 2n doubles. */
size_t numstat_outliers(const double *v, size_t n, double k, double *scratch, bool *out,
			double *median, double *mad);

/* ---- Student's t ---- */

/* The t with P(T <= t) = p for df degrees of freedom (df may be INFINITY:
 * the normal distribution); NAN unless 0 < p < 1 and df > 0. */
double numstat_t_quantile(double p, double df);

/* The two-sided p-value of t: P(|T| >= |t|); NAN for a NAN t or df <= 0. */
double numstat_t_p(double t, double df);

/* Welch's t-test of b against a (na, nb >= 2): the two-sided p-value,
 * with t = (mean b - mean a) / standard error and the Welch-Satterthwaite
 * degrees of freedom stored through t and df when not NULL.  Samples of
 * no spread give p = 1 when their means agree and 0 when not.  NAN when
 * a side has fewer than two values. */
double numstat_welch(const double *a, size_t na, const double *b, size_t nb, double *t,
		     double *df);

/* The interval of mean b - mean a by Welch's test (na, nb >= 2): *diff,
 * and *half, its half-width t(level, df) * standard error, so that the
 * difference lies within diff +- half: two-sided with confidence 1 -
 * alpha at level 1 - alpha/2; a one-sided bound (diff - half below it, or
 * diff + half above) with confidence 1 - alpha at level 1 - alpha.
 * Samples of no spread give a half-width of 0.  False, with *half NAN,
 * when a side has fewer than two values. */
bool numstat_diff_interval(const double *a, size_t na, const double *b, size_t nb,
			   double level, double *diff, double *half);

/* The fewest runs a side, n from 2 to max, for which the interval above
 * of two sides of n runs each, of standard deviations sa and sb, has a
 * half-width of `margin` or less: t(level, df) * sqrt((sa^2 + sb^2) / n)
 * <= margin, df Welch's, (n - 1) (sa^2 + sb^2)^2 / (sa^4 + sb^4) (2n - 2
 * for sa = sb).  0 when more than max would be needed or a figure is
 * not a number.  A sample's spread is what the runs so far showed: the
 * count is an estimate, "about N". */
size_t numstat_runs_needed(double sa, double sb, double margin, double level, size_t max);

/* The mean of x (n >= 1 values) and the half-width of its two-sided
 * `level` confidence interval (0.95 for 95 %), mean +- t(1 - (1 - level)/2,
 * n - 1) * s / sqrt(n).  Returns false, with *half NAN, when n < 2. */
bool numstat_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half);

/* ---- rank statistics ---- */

/* Up to this many arrangements of the ranks, the rank tests below count
 * them all for an exact p-value; beyond it they use the large-sample
 * approximation. */
#define NUMSTAT_EXACT_MAX 200000

/* Spearman's rank correlation of y with x (n pairs, ties given their
 * mean rank) through *rho, and the two-sided p-value of "no monotonic
 * trend": exact over every order of y's ranks when n! is at most
 * NUMSTAT_EXACT_MAX (n <= 8), else from t = rho sqrt((n-2)/(1-rho^2))
 * with n - 2 degrees of freedom.  NAN (and *rho NAN) with fewer than 3
 * pairs or when x or y has no spread; NAN when out of memory. */
double numstat_spearman(const double *x, const double *y, size_t n, double *rho);

/* The Mann-Whitney (Wilcoxon rank-sum) test of b against a: the two-sided
 * p-value that the two come from one distribution, from the ranks alone
 * (ties share their mean rank).  Exact over every split of the pooled
 * ranks into na and nb when there are at most NUMSTAT_EXACT_MAX splits,
 * else by the normal approximation with the tie correction.  The
 * smallest p-value it can give is 2 / C(na + nb, na): 0.1 with 3 runs a
 * side, 0.029 with 4.  NAN when a side is empty or out of memory. */
double numstat_rank_test(const double *a, size_t na, const double *b, size_t nb);

/* The smallest two-sided p-value numstat_rank_test() can give for these
 * sample sizes (all values distinct): 2 / C(na + nb, na). */
double numstat_rank_test_min_p(size_t na, size_t nb);

/* ---- several treatments over blocks (racing) ---- */

/* Friedman's test of k treatments measured once in each of n blocks:
 * x[b * k + j] is treatment j's figure in block b, and a lower figure
 * is better (rank 1).  Ranks are taken within each block (ties share
 * their mean rank).  The statistic is Conover's form, which allows for
 * ties: T = (k - 1) sum_j (R_j - n (k + 1) / 2)^2 / (A - C), with R_j
 * the rank sums, A the sum of the squared ranks and C = n k (k + 1)^2 /
 * 4, referred to the chi-square distribution with k - 1 degrees of
 * freedom (GSL's). */
struct numstat_friedman {
	size_t n, k;		/* blocks, treatments */
	double *rank_sum;	/* R_j, [k] (the caller's array) */
	double a, c;		/* A and C above */
	double stat;		/* T */
	double p;		/* its p-value; NAN when n < 2, k < 2 or every
				 * block ties all its treatments */
};

/* Fill f for x (n blocks of k figures); rank_sum has room for k.  The
 * p-value is f->p, also returned.  NAN when out of memory. */
double numstat_friedman(const double *x, size_t n, size_t k, double *rank_sum,
			struct numstat_friedman *f);

/* The post-hoc comparison after a Friedman test (Conover, Practical
 * Nonparametric Statistics, 1999; the one of F-Race): the two-sided
 * p-value that treatments i and j differ, from t = |R_i - R_j| /
 * sqrt(2 (n A - sum R^2) / ((n - 1) (k - 1))) with (n - 1)(k - 1)
 * degrees of freedom.  Where every block ranks the treatments alike the
 * denominator is 0: p is 0 for different rank sums, 1 for equal ones.
 * NAN when f has no p-value. */
double numstat_friedman_pair_p(const struct numstat_friedman *f, size_t i, size_t j);

/* Holm's step-down correction of m p-values for testing them together:
 * adjusted[i] = max over the sorted p up to p_i of (m - rank + 1) p,
 * at most 1, m counting the p-values that are numbers (a NAN, a test
 * not made, stays NAN).  adjusted may be p itself.  False when out of memory. */
bool numstat_holm(const double *p, size_t m, double *adjusted);

/* The one-sided bound of m comparisons of one treatment with each of m
 * others made together (Dunnett's constant, infinite degrees of
 * freedom): the z at which the largest of m standard normal statistics
 * equicorrelated at 1/2 (differences from one shared treatment, equal
 * variances) stays below z with chance 1 - alpha, from
 * P = integral of phi(u) Phi(u + z sqrt 2)^m du (Simpson's rule, Newton
 * from Bonferroni's bound).  1.645 for m = 1, 2.344 for m = 7 at 0.05.
 * It is the bound of Hsu's multiple comparisons with the best (Gupta's
 * subset selection): a treatment dropped when it is worse than the
 * best of the others by more than z standard errors, the true best is
 * dropped with a chance of at most alpha.  NAN for m = 0 or alpha out
 * of (0, 1). */
double numstat_best_bound(size_t m, double alpha);

/* Wilcoxon's signed-rank test of paired differences d[0..n): the
 * two-sided p-value that they are centred on 0.  Zero differences are
 * left out (Wilcoxon's way), ties share their mean rank.  Exact over
 * every sign of the ranks when 2^n' (n' the non-zero ones) is at most
 * NUMSTAT_EXACT_MAX, else the normal approximation with the tie and
 * continuity corrections.  1 when every difference is 0; NAN when n is
 * 0 or out of memory. */
double numstat_signed_rank(const double *d, size_t n);

/* The distribution-free interval of the median of sorted v[0..n) with
 * confidence at least `level` (0.95): [v[r - 1], v[n - r]] for the
 * largest r whose binomial(n, 1/2) tails leave that much.  False, *lo
 * and *hi NAN, when even [min, max] covers less (fewer than 6 values
 * for 95 %). */
bool numstat_median_interval(const double *v, size_t n, double level, double *lo, double *hi);

/* ---- group-sequential tests ---- */

/* The points of the grid the bounds below integrate over. */
#define NUMSTAT_GS_GRID 301

/* The bounds of a group-sequential test with k looks at the information
 * fractions t[0..k) (ascending, from above 0 to 1 at the planned end):
 * z[i] is the bound on the standardised statistic at look i, crossed
 * (above it one-sided; beyond +-z[i] two-sided) with the chance alpha
 * spends there.  The spending is O'Brien and Fleming's by Lan and
 * DeMets (1983): on each side alpha_s(t) = 2 - 2 Phi(z(1 - a/2) /
 * sqrt(t)), a = alpha (one-sided) or alpha / 2 (two-sided), so that the
 * chance of crossing any bound under the null is alpha, for a statistic
 * of independent increments; the bounds are found by recursive
 * numerical integration of its density between them (Armitage,
 * McPherson and Rowe 1969; Jennison and Turnbull 2000, ch. 19) on a
 * grid of NUMSTAT_GS_GRID points.  O'Brien and Fleming's spends almost
 * nothing early, so that an early stop takes an overwhelming
 * difference and the last look keeps nearly all of alpha.  A look that
 * spends nothing has an infinite bound.  False for bad input or out of
 * memory. */
bool numstat_gs_bounds(const double *t, size_t k, double alpha, bool two_sided, double *z);

/* The nominal level of a look whose bound is z: the p-value at which a
 * test of that look stops, 1 - Phi(z) (twice that two-sided). */
double numstat_gs_level(double z, bool two_sided);

#endif
