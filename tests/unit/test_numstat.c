/*
 * test_numstat.c - the small statistics (numstat.h) and the one
 * JSON string rule (jsontext.h), specified by example; Student's t
 * against values derived independently (closed forms, binomial sums,
 * published tables).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "jsontext.h"
#include "numstat.h"

static void sorting_puts_doubles_in_ascending_order(void **state)
{
	double v[] = { 3.5, -1, 2, 2, 1e9, 0 };

	(void)state;
	numstat_sort(v, 6);
	double want[] = { -1, 0, 2, 2, 3.5, 1e9 };
	assert_memory_equal(v, want, sizeof(want));
}

static void the_median_is_the_middle_or_the_mean_of_the_two_middle_ones(void **state)
{
	double odd[] = { 9, 1, 5 }, even[] = { 4, 1, 3, 10 }, one[] = { 7 };

	(void)state;
	assert_true(numstat_median(odd, 3) == 5);
	assert_true(numstat_median(even, 4) == 3.5);
	assert_true(numstat_median(one, 1) == 7);
	assert_true(isnan(numstat_median(NULL, 0)));
}

static void mean_and_sample_stddev(void **state)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	(void)state;
	assert_true(numstat_mean(v, 8) == 5);
	/* sum of squares 32 over n - 1 = 7 */
	assert_true(fabs(numstat_variance(v, 8, 5) - 32.0 / 7) < 1e-12);
	assert_true(fabs(numstat_stddev(v, 8) - sqrt(32.0 / 7)) < 1e-12);
	assert_true(numstat_stddev(v, 1) == 0);
	assert_true(isnan(numstat_mean(v, 0)));
}

static void the_mad_is_the_median_distance_from_the_median(void **state)
{
	double v[] = { 1, 1, 2, 2, 4, 6, 9 }, scratch[7];

	(void)state;
	/* median 2; distances 1 1 0 0 2 4 7; their median 1 */
	assert_true(numstat_mad(v, scratch, 7) == 1);
}

static void outliers_lie_beyond_3_scaled_mads_of_the_median(void **state)
{
	/* median 100; distances 0 2 2 1 48, their median 2: a scaled MAD of
	 * 2.9652, and 3 of them 8.9 */
	const double v[] = { 100, 102, 98, 101, 52 };
	double scratch[10], median, mad;
	bool out[5];

	(void)state;
	assert_int_equal(numstat_outliers(v, 5, 3, scratch, out, &median, &mad), 1);
	assert_true(out[4]);
	assert_false(out[0] || out[1] || out[2] || out[3]);
	assert_true(median == 100);
	assert_true(fabs(mad - 2 * 1.4826) < 1e-12);
	assert_true(v[4] == 52 && v[0] == 100);	/* left alone */
	/* a wider rule takes it in: 48 / 2.9652 = 16.2 MADs */
	assert_int_equal(numstat_outliers(v, 5, 16.3, scratch, out, &median, &mad), 0);
	assert_int_equal(numstat_outliers(v, 5, 16.1, scratch, out, &median, &mad), 1);
}

static void fewer_than_3_values_have_no_outlier(void **state)
{
	const double v[] = { 1, 1000 };
	double scratch[4], median, mad;
	bool out[2] = { true, true };

	(void)state;
	assert_int_equal(numstat_outliers(v, 2, 3, scratch, out, &median, &mad), 0);
	assert_false(out[0] || out[1]);
	assert_true(isnan(median) && isnan(mad));
}

#define N(array) (sizeof(array) / sizeof((array)[0]))

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (within %g)", got, want, tol);
}

/* ---- incomplete beta ---- */

/* For whole a and b, I_x(a, b) = P(X >= a) with X ~ Binomial(a+b-1, x):
 * an exact sum that shares nothing with the continued fraction. */
static double binomial_upper(int a, int b, double x)
{
	int n = a + b - 1;
	double sum = 0;

	for (int k = a; k <= n; k++)
		sum += exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) +
			   k * log(x) + (n - k) * log1p(-x));
	return sum;
}

static void incbeta_of_1_1_is_x(void **state)
{
	(void)state;
	for (double x = 0.05; x < 1; x += 0.1)
		assert_near(numstat_incbeta(1, 1, x), x, 1e-13);
}

static void incbeta_is_one_half_at_the_middle_when_symmetric(void **state)
{
	(void)state;
	const double as[] = { 0.5, 1, 3, 7.5, 20, 300 };
	for (size_t i = 0; i < N(as); i++)
		assert_near(numstat_incbeta(as[i], as[i], 0.5), 0.5, 1e-12);
}

static void incbeta_of_2_3_at_one_half_is_11_16ths(void **state)
{
	(void)state;
	/* P(Bin(4, 1/2) >= 2) = (6 + 4 + 1) / 16 */
	assert_near(numstat_incbeta(2, 3, 0.5), 0.6875, 1e-14);
}

static void incbeta_matches_its_closed_forms_with_a_unit_parameter(void **state)
{
	(void)state;
	/* I_x(a, 1) = x^a and I_x(1, b) = 1 - (1-x)^b */
	assert_near(numstat_incbeta(2.5, 1, 0.3), pow(0.3, 2.5), 1e-14);
	assert_near(numstat_incbeta(1, 4.5, 0.3), 1 - pow(0.7, 4.5), 1e-14);
	assert_near(numstat_incbeta(0.5, 1, 0.81), 0.9, 1e-14);
}

static void incbeta_matches_binomial_sums(void **state)
{
	(void)state;
	assert_near(numstat_incbeta(3, 5, 0.4), binomial_upper(3, 5, 0.4), 1e-13);
	assert_near(numstat_incbeta(5, 3, 0.9), binomial_upper(5, 3, 0.9), 1e-13);
	assert_near(numstat_incbeta(50, 60, 0.45), binomial_upper(50, 60, 0.45), 1e-12);
	assert_near(numstat_incbeta(12, 2, 0.2), binomial_upper(12, 2, 0.2), 1e-15);
}

static void incbeta_is_symmetric_and_bounded(void **state)
{
	(void)state;
	assert_near(numstat_incbeta(2.3, 7.1, 0.2) + numstat_incbeta(7.1, 2.3, 0.8), 1, 1e-13);
	assert_true(numstat_incbeta(2, 3, 0) == 0);
	assert_true(numstat_incbeta(2, 3, 1) == 1);
	assert_true(isnan(numstat_incbeta(0, 3, 0.5)));
}

/* ---- Student's t ---- */

static void t_cdf_matches_the_closed_forms_for_1_and_2_df(void **state)
{
	(void)state;
	const double ts[] = { -7, -1.5, -0.2, 0, 0.3, 1, 2.5, 40 };
	for (size_t i = 0; i < N(ts); i++) {
		double t = ts[i];
		/* df 1 is Cauchy; df 2: 1/2 + t / (2 sqrt(2 + t^2)) */
		assert_near(numstat_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-13);
		assert_near(numstat_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-13);
	}
}

static void t_quantiles_match_the_tables(void **state)
{
	(void)state;
	/* two-sided 95 % critical values from standard t tables */
	assert_near(numstat_t_quantile(0.975, 10), 2.228138852, 1e-8);
	assert_near(numstat_t_quantile(0.975, 1), 12.70620474, 1e-7);
	assert_near(numstat_t_quantile(0.975, INFINITY), 1.959963985, 1e-8);
	assert_near(numstat_t_quantile(0.95, 4), 2.131846786, 1e-8);
	assert_near(numstat_t_quantile(0.025, 10), -2.228138852, 1e-8);
	assert_true(numstat_t_quantile(0.5, 3) == 0);
	assert_true(isnan(numstat_t_quantile(1, 3)));
}

static void mean_interval_is_t_times_the_standard_error(void **state)
{
	(void)state;
	/* 10, 12, 14, 16: mean 13, s = sqrt(20/3), t(0.975, 3) = 3.182446305 */
	const double x[] = { 10, 12, 14, 16 };
	double mean, half;

	assert_true(numstat_mean_interval(x, 4, 0.95, &mean, &half));
	assert_near(mean, 13, 1e-12);
	assert_near(half, 3.182446305 * sqrt(20.0 / 3) / 2, 1e-8);
	/* 90 %: t(0.95, 3) = 2.353363435 */
	assert_true(numstat_mean_interval(x, 4, 0.90, &mean, &half));
	assert_near(half, 2.353363435 * sqrt(20.0 / 3) / 2, 1e-8);
	/* one value: a mean, no interval */
	assert_false(numstat_mean_interval(x, 1, 0.95, &mean, &half));
	assert_near(mean, 10, 1e-12);
	assert_true(isnan(half));
	/* no spread: an interval of no width */
	const double same[] = { 5, 5, 5 };
	assert_true(numstat_mean_interval(same, 3, 0.95, &mean, &half));
	assert_true(half == 0);
}

static void t_quantiles_invert_the_closed_forms(void **state)
{
	(void)state;
	const double ps[] = { 0.6, 0.9, 0.995, 0.9999 };
	for (size_t i = 0; i < N(ps); i++) {
		double p = ps[i];
		/* df 1: tan(pi (p - 1/2)); df 2: (2p - 1) / sqrt(2 p (1 - p)) */
		double t1 = tan(M_PI * (p - 0.5)), t2 = (2 * p - 1) / sqrt(2 * p * (1 - p));
		assert_near(numstat_t_quantile(p, 1), t1, 1e-9 * t1);
		assert_near(numstat_t_quantile(p, 2), t2, 1e-9 * t2);
	}
}

static void a_utf8_name_is_written_as_it_is(void **state)
{
	json_t *j = jsontext("/mnt/caf\xc3\xa9/d");

	(void)state;
	assert_string_equal(json_string_value(j), "/mnt/caf\xc3\xa9/d");
	json_decref(j);
}

static void a_name_that_is_not_utf8_has_each_high_byte_as_hex(void **state)
{
	json_t *j = jsontext("/tmp/caf\xe9/\xff\x80z");

	(void)state;
	assert_string_equal(json_string_value(j), "/tmp/caf\\xE9/\\xFF\\x80z");
	json_decref(j);
}

static void no_name_is_null(void **state)
{
	json_t *j = jsontext(NULL);

	(void)state;
	assert_true(json_is_null(j));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorting_puts_doubles_in_ascending_order),
		cmocka_unit_test(the_median_is_the_middle_or_the_mean_of_the_two_middle_ones),
		cmocka_unit_test(mean_and_sample_stddev),
		cmocka_unit_test(the_mad_is_the_median_distance_from_the_median),
		cmocka_unit_test(outliers_lie_beyond_3_scaled_mads_of_the_median),
		cmocka_unit_test(fewer_than_3_values_have_no_outlier),
		cmocka_unit_test(incbeta_of_1_1_is_x),
		cmocka_unit_test(incbeta_is_one_half_at_the_middle_when_symmetric),
		cmocka_unit_test(incbeta_of_2_3_at_one_half_is_11_16ths),
		cmocka_unit_test(incbeta_matches_its_closed_forms_with_a_unit_parameter),
		cmocka_unit_test(incbeta_matches_binomial_sums),
		cmocka_unit_test(incbeta_is_symmetric_and_bounded),
		cmocka_unit_test(t_cdf_matches_the_closed_forms_for_1_and_2_df),
		cmocka_unit_test(t_quantiles_match_the_tables),
		cmocka_unit_test(t_quantiles_invert_the_closed_forms),
		cmocka_unit_test(mean_interval_is_t_times_the_standard_error),
		cmocka_unit_test(a_utf8_name_is_written_as_it_is),
		cmocka_unit_test(a_name_that_is_not_utf8_has_each_high_byte_as_hex),
		cmocka_unit_test(no_name_is_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
