/*
 * numstat.c - the small statistics of numstat.h.
 */
#include <math.h>
#include <stdlib.h>

#include "base/numstat.h"

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
