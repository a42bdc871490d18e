/*
 * numstat.h - the small statistics of a handful of figures: sorting
 * doubles, median, mean, sample standard deviation, median absolute
 * deviation and the outliers it shows, and Student's t distribution with the confidence interval of
 * a mean that it gives.  One copy for every module that summarises runs or
 * clients (result, sweep, compare).
 *
 * The t distribution needs nothing beyond libm: the regularized
 * incomplete beta function by its continued fraction, the distribution
 * function from it, and quantiles by bisection on that.
 *
 * Plain arrays of doubles in, doubles out; no allocation, no I/O.  Below
 * everything: knows nothing of runs, JSON or histograms (those percentiles
 * are hist.h's).
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

/* The sample variance about `mean` (n - 1 in the denominator); 0 when n
 * is below 2. */
double numstat_variance(const double *v, size_t n, double mean);

/* The sample standard deviation of v[0..n); 0 when n is below 2. */
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
 * Fewer than 3 values have no outlier (and NAN for both).  v is left
 * alone; scratch holds 2n doubles. */
size_t numstat_outliers(const double *v, size_t n, double k, double *scratch, bool *out,
			double *median, double *mad);

/* ---- Student's t ---- */

/* The regularized incomplete beta function I_x(a, b), a, b > 0. */
double numstat_incbeta(double a, double b, double x);

/* P(T <= t) for Student's t with df degrees of freedom (df may be
 * INFINITY: the normal distribution). */
double numstat_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1. */
double numstat_t_quantile(double p, double df);

/* The mean of x (n >= 1 values) and the half-width of its two-sided
 * `level` confidence interval (0.95 for 95 %), mean +- t(1 - (1 - level)/2,
 * n - 1) * s / sqrt(n).  Returns false, with *half NAN, when n < 2. */
bool numstat_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half);

#endif
