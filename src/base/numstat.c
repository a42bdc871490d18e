/*
 * numstat.c - the small statistics of numstat.h.
 */
#include <math.h>
#include <stdlib.h>

#include "numstat.h"

int numstat_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void numstat_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), numstat_cmp);
}

double numstat_median_sorted(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double numstat_median(double *v, size_t n)
{
	numstat_sort(v, n);
	return numstat_median_sorted(v, n);
}

double numstat_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : NAN;
}

double numstat_variance(const double *v, size_t n, double mean)
{
	double s = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - mean) * (v[i] - mean);
	return s / (n - 1);
}

double numstat_stddev(const double *v, size_t n)
{
	return sqrt(numstat_variance(v, n, numstat_mean(v, n)));
}

double numstat_mad(double *v, double *scratch, size_t n)
{
	double med = numstat_median(v, n);

	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(v[i] - med);
	return numstat_median(scratch, n);
}

/* ---- outliers ---- */

size_t numstat_outliers(const double *v, size_t n, double k, double *scratch, bool *out,
			double *median, double *mad)
{
	size_t count = 0;

	*median = *mad = NAN;
	for (size_t i = 0; i < n; i++)
		out[i] = false;
	if (n < 3)
		return 0;
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[i];
	*median = numstat_median(scratch, n);
	*mad = NUMSTAT_MAD_SCALE * numstat_mad(scratch, scratch + n, n);
	for (size_t i = 0; i < n; i++) {
		out[i] = fabs(v[i] - *median) > k * *mad;
		count += out[i];
	}
	return count;
}

/* ---- Student's t ---- */

/*
 * The continued fraction of I_x(a, b) (without its front factor
 * x^a (1-x)^b / (a B(a, b))):  1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),
 *   d(2m)   = m(b-m) x / ((a+2m-1)(a+2m)),
 * evaluated front to back by the modified Lentz method.  It converges
 * quickly for x < (a+1)/(a+b+2); the caller sees to that.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = tiny, c = tiny, d = 0;

	for (int j = 1; j <= 20000; j++) {
		double num = 1;
		int k = j - 1, m = k / 2;

		if (k % 2 == 1)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else if (k > 0)
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		f *= c * d;
		if (fabs(c * d - 1) < eps)
			break;
	}
	return f;
}

double numstat_incbeta(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
			   a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	/* I_x(a, b) = 1 - I_(1-x)(b, a), where the fraction converges */
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0: the upper tail, without the cancellation that
 * 1 - cdf would suffer far out. */
static double t_upper(double t, double df)
{
	if (isinf(t))
		return 0;
	if (isinf(df) || df > 1e7)
		return 0.5 * erfc(t / sqrt(2));
	return 0.5 * numstat_incbeta(df / 2, 0.5, df / (df + t * t));
}

double numstat_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t >= 0 ? 1 - t_upper(t, df) : t_upper(-t, df);
}

double numstat_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	double tail = p > 0.5 ? 1 - p : p;	/* wanted P(T > t), t > 0 */
	double lo = 0, hi = 1;

	while (t_upper(hi, df) > tail && hi < 1e300) {
		lo = hi;
		hi *= 2;
	}
	for (int i = 0; i < 300 && hi - lo > 1e-13 * hi; i++) {
		double mid = lo + (hi - lo) / 2;
		if (t_upper(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	double t = lo + (hi - lo) / 2;
	return p > 0.5 ? t : -t;
}

bool numstat_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half)
{
	*mean = n ? numstat_mean(x, n) : NAN;
	*half = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	*half = numstat_t_quantile(1 - (1 - level) / 2, n - 1) *
		sqrt(numstat_variance(x, n, *mean) / n);
	return true;
}
