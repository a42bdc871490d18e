/*
 * test_numstat.c - the small statistics (numstat.h) and the one
 * JSON string rule (jsontext.h), specified by example; Student's t (GSL's)
 * and the rank tests against values derived independently (closed forms,
 * published tables, R's examples, orders counted by hand).
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
	/* one value has no spread: undefined, not 0 */
	assert_true(isnan(numstat_stddev(v, 1)));
	assert_true(isnan(numstat_variance(v, 1, 2)));
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

/* ---- Student's t (GSL) ---- */

static void t_p_matches_the_closed_forms_for_1_and_2_df(void **state)
{
	(void)state;
	const double ts[] = { -7, -1.5, -0.2, 0, 0.3, 1, 2.5, 40 };
	for (size_t i = 0; i < N(ts); i++) {
		double t = fabs(ts[i]);
		/* df 1 is Cauchy: P(|T| >= t) = 1 - 2 atan(t) / pi; df 2:
		 * 1 - t / sqrt(2 + t^2) */
		assert_near(numstat_t_p(ts[i], 1), 1 - 2 * atan(t) / M_PI, 1e-13);
		assert_near(numstat_t_p(ts[i], 2), 1 - t / sqrt(2 + t * t), 1e-13);
	}
	/* infinite df: the normal's two tails, 2 (1 - Phi(1.959963985)) */
	assert_near(numstat_t_p(1.959963985, INFINITY), 0.05, 1e-9);
	assert_true(isnan(numstat_t_p(NAN, 3)));
	assert_true(isnan(numstat_t_p(1, 0)));
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

static void diff_interval_matches_r_on_the_sleep_data(void **state)
{
	(void)state;
	/* R: t.test(extra ~ group, data = sleep): Welch, t = -1.8608, df =
	 * 17.776, 95 % interval of group 1 - group 2 [-3.3654832, 0.2054832];
	 * of group 2 - group 1 one-sided (alternative = "greater"), the lower
	 * bound 0.1066185 */
	const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	double diff, half;

	assert_true(numstat_diff_interval(g1, 10, g2, 10, 0.975, &diff, &half));
	assert_near(diff, 1.58, 1e-12);
	assert_near(diff - half, -0.2054832, 5e-7);
	assert_near(diff + half, 3.3654832, 5e-7);
	/* one-sided 95 %: t(0.95, 17.776) = 1.73458 * se 0.849091 */
	assert_true(numstat_diff_interval(g1, 10, g2, 10, 0.95, &diff, &half));
	assert_near(diff - half, 0.1066185, 5e-6);
	/* no spread: an interval of no width; one value: none */
	const double five[] = { 5, 5 }, six[] = { 6, 6, 6 };
	assert_true(numstat_diff_interval(five, 2, six, 3, 0.95, &diff, &half));
	assert_true(diff == 1 && half == 0);
	assert_false(numstat_diff_interval(five, 1, six, 3, 0.95, &diff, &half));
	assert_true(isnan(half));
}

static void runs_needed_reproduce_the_interval_they_predict(void **state)
{
	(void)state;
	/* sides of sd 3 and 4 (sa^2 + sb^2 = 25), a margin of 2 one-sided:
	 * n = 17 gives df 16 * 625 / 337 = 29.67, t(0.95) = 1.6986 * 5 /
	 * sqrt(17) = 2.0599 > 2; n = 18: df 31.54, 1.6948 * 5 / sqrt(18) =
	 * 1.9974 */
	assert_int_equal(numstat_runs_needed(3, 4, 2, 0.95, 100), 18);
	assert_int_equal(numstat_runs_needed(4, 3, 2, 0.95, 100), 18);
	/* equal spreads, two-sided: CV 10 %, +-5 %: t(0.975, 62) * 10 *
	 * sqrt(2/32) = 1.99897 * 2.5 = 4.997, while t(0.975, 60) * 10 *
	 * sqrt(2/31) = 2.00030 * 2.5400 = 5.081 */
	assert_int_equal(numstat_runs_needed(10, 10, 5, 0.975, 10000), 32);
	/* CV 35.36 %, +-63.75 %: t(0.975, 6) * 35.36 * sqrt(1/2) = 61.2;
	 * t(0.975, 4) * 35.36 * sqrt(2/3) = 80.2 */
	assert_int_equal(numstat_runs_needed(35.36, 35.36, 63.75, 0.975, 10000), 4);
	/* no spread: the fewest that give an interval */
	assert_int_equal(numstat_runs_needed(0, 0, 5, 0.975, 10000), 2);
	/* beyond reach (about 2 (1.96 * 1000)^2 runs), beyond the most asked
	 * for, no margin, no level, not a number: 0 */
	assert_int_equal(numstat_runs_needed(1000, 1000, 1, 0.975, 10000), 0);
	assert_int_equal(numstat_runs_needed(3, 4, 2, 0.95, 17), 0);
	assert_int_equal(numstat_runs_needed(3, 4, 0, 0.95, 100), 0);
	assert_int_equal(numstat_runs_needed(3, 4, 2, 1, 100), 0);
	assert_int_equal(numstat_runs_needed(NAN, 10, 5, 0.975, 10000), 0);
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

/* ---- rank statistics ---- */

static void spearman_of_a_perfect_order_is_1_with_its_exact_p(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5 }, up[] = { 10, 20, 30, 40, 50 };
	const double down[] = { 9, 7, 5, 3, 1 };
	double rho;

	(void)state;
	/* 2 of the 5! = 120 orders are as extreme: p = 1/60 */
	assert_near(numstat_spearman(x, up, 5, &rho), 2.0 / 120, 1e-12);
	assert_near(rho, 1, 1e-12);
	assert_near(numstat_spearman(x, down, 5, &rho), 2.0 / 120, 1e-12);
	assert_near(rho, -1, 1e-12);
	/* four: 2 of 24 */
	assert_near(numstat_spearman(x, up, 4, &rho), 2.0 / 24, 1e-12);
}

static void spearman_counts_every_order_of_four(void **state)
{
	/* y's ranks 2 1 4 3: sum d^2 = 4, rho = 1 - 6 * 4 / 60 = 0.6; of the
	 * 24 orders, 10 have |rho| >= 0.6 (sum d^2 of 0, 2, 4, 16, 18, 20:
	 * 1 + 3 + 1 + 1 + 3 + 1 of them) */
	const double x[] = { 1, 2, 3, 4 }, y[] = { 2, 1, 4, 3 };
	double rho;

	(void)state;
	assert_near(numstat_spearman(x, y, 4, &rho), 10.0 / 24, 1e-12);
	assert_near(rho, 0.6, 1e-12);
}

static void spearman_of_many_uses_the_t_approximation(void **state)
{
	/* 10 pairs (10! orders are too many to count): y's ranks 1 3 2 4 5 7
	 * 6 8 10 9, three pairs swapped, sum d^2 = 6, rho = 1 - 36 / 990 */
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const double y[] = { 1, 3, 2, 4, 5, 7, 6, 8, 10, 9 };
	double rho, want = 1 - 36.0 / 990;
	double t = want * sqrt(8 / (1 - want * want));

	(void)state;
	assert_near(numstat_t_p(t, 8), numstat_spearman(x, y, 10, &rho), 1e-12);
	assert_near(rho, want, 1e-12);
	assert_true(numstat_spearman(x, y, 10, &rho) < 1e-5);
}

static void spearman_without_spread_or_pairs_is_undefined(void **state)
{
	const double x[] = { 1, 2, 3 }, flat[] = { 5, 5, 5 };
	double rho;

	(void)state;
	assert_true(isnan(numstat_spearman(x, flat, 3, &rho)) && isnan(rho));
	assert_true(isnan(numstat_spearman(x, x, 2, &rho)) && isnan(rho));
}

static void rank_test_of_three_apart_is_one_tenth(void **state)
{
	/* all 3 of b above all of a: 2 of the C(6, 3) = 20 splits are as
	 * extreme (R: wilcox.test(1:3, 4:6)$p.value = 0.1) */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };

	(void)state;
	assert_near(numstat_rank_test(a, 3, b, 3), 0.1, 1e-12);
	assert_near(numstat_rank_test(b, 3, a, 3), 0.1, 1e-12);
	assert_near(numstat_rank_test_min_p(3, 3), 0.1, 1e-12);
	assert_near(numstat_rank_test_min_p(4, 4), 2.0 / 70, 1e-12);
}

static void rank_test_matches_r_on_the_depression_data(void **state)
{
	/* R's ?wilcox.test, the two-sample example: x (10) against y (5),
	 * W = 35, one-sided p 0.1272 (exact; no ties, so two-sided twice it) */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };

	(void)state;
	assert_near(numstat_rank_test(y, 5, x, 10) / 2, 0.1272, 5e-5);
	assert_near(numstat_rank_test(x, 10, y, 5), numstat_rank_test(y, 5, x, 10), 1e-15);
}

static void rank_test_of_many_uses_the_normal_with_ties(void **state)
{
	/* 20 a side (C(40, 20) splits are too many): b is a shifted by 0.5
	 * with ties; z from the tie-corrected variance, continuity 0.5 */
	double a[20], b[20], pool[40];

	(void)state;
	for (int i = 0; i < 20; i++) {
		a[i] = i / 2;	/* 0 0 1 1 ... 9 9 */
		b[i] = i / 2 + 3;
	}
	for (int i = 0; i < 20; i++)
		pool[i] = a[i], pool[20 + i] = b[i];
	/* the ranks by hand: values 0 .. 12, each value v held by the a's
	 * and b's equal to it */
	double w = 0, ties = 0;
	for (int v = 0; v <= 12; v++) {
		int below = 0, t = 0;
		for (int i = 0; i < 40; i++) {
			below += pool[i] < v;
			t += pool[i] == v;
		}
		double r = below + (t + 1) / 2.0;
		for (int i = 20; i < 40; i++)
			w += pool[i] == v ? r : 0;
		ties += (double)t * t * t - t;
	}
	double var = 400 / 12.0 * (41 - ties / (40.0 * 39));
	double z = (fabs(w - 20 * 41 / 2.0) - 0.5) / sqrt(var);
	assert_near(numstat_rank_test(a, 20, b, 20), erfc(z / sqrt(2)), 1e-12);
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

/* ---- several treatments over blocks ---- */

static void friedman_of_blocks_that_all_rank_alike(void **state)
{
	/* 4 blocks ranking 3 treatments 1 2 3: R = 4 8 12, A = 56, C = 48,
	 * T = 2 (16 + 0 + 16) / 8 = 8; chi-square with 2 df: p = e^-4 */
	double x[] = { 1, 5, 9, 2, 3, 4, 10, 20, 30, 0, 0.5, 7 }, sums[3];
	struct numstat_friedman f;

	(void)state;
	double p = numstat_friedman(x, 4, 3, sums, &f);
	assert_true(fabs(f.stat - 8) < 1e-12);
	assert_true(fabs(p - exp(-4)) < 1e-12);
	assert_true(sums[0] == 4 && sums[1] == 8 && sums[2] == 12);
	/* every block alike: no spread within the rank sums' pairs to
	 * divide by, the pairs are simply different */
	assert_true(numstat_friedman_pair_p(&f, 0, 2) == 0);
	assert_true(numstat_friedman_pair_p(&f, 1, 1) == 1);
}

static void friedman_with_ties_and_its_pairwise_comparison(void **state)
{
	/* ranks (1 2 3) (1 2 3) (2 1 3) (1.5 1.5 3): R = 5.5 6.5 12, A = 55.5,
	 * C = 48, T = 2 (6.25 + 2.25 + 16) / 7.5; p = e^(-T/2) with 2 df */
	double x[] = { 1, 2, 3, 1, 2, 3, 2, 1, 3, 1, 1, 3 }, sums[3];
	struct numstat_friedman f;

	(void)state;
	double p = numstat_friedman(x, 4, 3, sums, &f);
	double t = 2 * 24.5 / 7.5;
	assert_true(fabs(f.stat - t) < 1e-12);
	assert_true(fabs(p - exp(-t / 2)) < 1e-12);
	/* Conover: sum R^2 = 216.5, n A = 222, (n-1)(k-1) = 6:
	 * t = 6.5 / sqrt(2 * 5.5 / 6) on 6 df */
	double want = numstat_t_p(6.5 / sqrt(11.0 / 6), 6);
	assert_true(fabs(numstat_friedman_pair_p(&f, 0, 2) - want) < 1e-12);
	assert_true(fabs(numstat_friedman_pair_p(&f, 2, 0) - want) < 1e-12);
	/* one block, or all tied, has no test */
	assert_true(isnan(numstat_friedman(x, 1, 3, sums, &f)));
	double tied[] = { 4, 4, 4, 4 };
	assert_true(isnan(numstat_friedman(tied, 2, 2, sums, &f)));
	assert_true(isnan(numstat_friedman_pair_p(&f, 0, 1)));
}

static void holm_steps_down_and_never_below_an_earlier_step(void **state)
{
	double p[] = { 0.01, 0.04, 0.03 }, adj[3];
	double with_nan[] = { 0.2, NAN, 0.01 }, adj2[3];

	(void)state;
	/* sorted 0.01 0.03 0.04: 3 x 0.01, 2 x 0.03, max(0.06, 1 x 0.04) */
	assert_true(numstat_holm(p, 3, adj));
	assert_true(fabs(adj[0] - 0.03) < 1e-12);
	assert_true(fabs(adj[1] - 0.06) < 1e-12);
	assert_true(fabs(adj[2] - 0.06) < 1e-12);
	/* in place, capped at 1 */
	double big[] = { 0.6, 0.5 };
	assert_true(numstat_holm(big, 2, big));
	assert_true(big[0] == 1 && big[1] == 1);
	/* a NAN is a test not made: it stays NAN and is not counted */
	assert_true(numstat_holm(with_nan, 3, adj2));
	assert_true(fabs(adj2[2] - 0.02) < 1e-12 && fabs(adj2[0] - 0.2) < 1e-12);
	assert_true(isnan(adj2[1]));
}

static void best_bound_is_dunnetts_one_sided_constant(void **state)
{
	/* Dunnett's one-sided table, infinite degrees of freedom */
	const double at05[] = { 1.645, 1.916, 2.062, 2.160, 2.234, 2.292, 2.340 };

	(void)state;
	for (size_t m = 1; m <= 7; m++)
		assert_true(fabs(numstat_best_bound(m, 0.05) - at05[m - 1]) < 0.001);
	assert_true(fabs(numstat_best_bound(3, 0.01) - 2.685) < 0.001);
	/* one comparison: the normal quantile itself */
	assert_true(fabs(numstat_best_bound(1, 0.025) - 1.959964) < 1e-5);
	assert_true(isnan(numstat_best_bound(0, 0.05)));
	assert_true(isnan(numstat_best_bound(3, 0)) && isnan(numstat_best_bound(3, 1)));
}

static void signed_rank_counts_every_sign_as_r_does(void **state)
{
	double up[] = { 1, 2, 3, 4, 5 }, mixed[] = { 1, -2, 3, 4, 5 };
	double zero_kept_out[] = { 0, 1, 2, 3, 4, 5 }, none[] = { 0, 0 };

	(void)state;
	/* R: wilcox.test(1:5) V = 15, p = 0.0625 (2 of 32 signings) */
	assert_true(fabs(numstat_signed_rank(up, 5) - 0.0625) < 1e-12);
	/* V = 13: sums >= 13 or <= 2 are 6 of 32, R's 0.1875 */
	assert_true(fabs(numstat_signed_rank(mixed, 5) - 0.1875) < 1e-12);
	assert_true(fabs(numstat_signed_rank(zero_kept_out, 6) - 0.0625) < 1e-12);
	assert_true(numstat_signed_rank(none, 2) == 1);
	assert_true(isnan(numstat_signed_rank(none, 0)));
	/* many: the normal approximation, all positive is far out */
	double many[40];
	for (int i = 0; i < 40; i++)
		many[i] = i + 1;
	assert_true(numstat_signed_rank(many, 40) < 1e-6);
}

static void the_median_interval_takes_order_statistics(void **state)
{
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, lo, hi;

	(void)state;
	/* n 10: P(X <= 1) = 11/1024, twice is 0.021 <= 0.05; P(X <= 2) =
	 * 56/1024, twice 0.109 is not: [v(2), v(9)] */
	assert_true(numstat_median_interval(v, 10, 0.95, &lo, &hi));
	assert_true(lo == 2 && hi == 9);
	/* n 6: [min, max] misses with 2/64; n 5: 2/32 > 0.05, none */
	assert_true(numstat_median_interval(v, 6, 0.95, &lo, &hi));
	assert_true(lo == 1 && hi == 6);
	assert_false(numstat_median_interval(v, 5, 0.95, &lo, &hi));
	assert_true(isnan(lo) && isnan(hi));
}

static void obrien_fleming_bounds_of_five_equal_looks(void **state)
{
	/* Lan-DeMets O'Brien-Fleming spending, 5 equally spaced looks,
	 * two-sided 0.05 (or one-sided 0.025): the bounds published for it
	 * (gsDesign's sfLDOF; Jennison and Turnbull's tables) */
	double t[] = { 0.2, 0.4, 0.6, 0.8, 1 }, z[5];
	const double want[] = { 4.8769, 3.3569, 2.6803, 2.2898, 2.0310 };

	(void)state;
	assert_true(numstat_gs_bounds(t, 5, 0.05, true, z));
	for (int i = 0; i < 5; i++)
		assert_true(fabs(z[i] - want[i]) < 0.002);
	assert_true(numstat_gs_bounds(t, 5, 0.025, false, z));
	for (int i = 0; i < 5; i++)
		assert_true(fabs(z[i] - want[i]) < 0.002);
	/* one look is the fixed test */
	double one = 1;
	assert_true(numstat_gs_bounds(&one, 1, 0.05, true, z));
	assert_true(fabs(z[0] - 1.959964) < 1e-5);
	assert_true(fabs(numstat_gs_level(z[0], true) - 0.05) < 1e-9);
	/* fractions that do not rise, or pass 1, are refused */
	double bad[] = { 0.5, 0.5 };
	assert_false(numstat_gs_bounds(bad, 2, 0.05, true, z));
	assert_false(numstat_gs_bounds((double[]){ 1.5 }, 1, 0.05, true, z));
}

static void group_sequential_bounds_keep_the_chance_of_a_false_stop(void **state)
{
	/* 18 looks (ab's --runs=auto at 3..20 runs a side): a normal random
	 * walk under the null crosses some bound in about alpha of 20000
	 * walks; a fixed test at every look would cross far more often */
	double t[18], z[18];
	unsigned long long s = 12345;
	int crossed = 0, naive = 0;

	(void)state;
	for (int i = 0; i < 18; i++)
		t[i] = (i + 3) / 20.0;
	assert_true(numstat_gs_bounds(t, 18, 0.05, true, z));
	for (int w = 0; w < 20000; w++) {
		double sum = 0, prev = 0;
		bool c = false, n = false;
		for (int i = 0; i < 18; i++) {
			/* the increment: a normal of variance t[i] - prev (Box-Muller) */
			double u1, u2;
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			u1 = ((s >> 11) + 1.0) / 9007199254740993.0;
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			u2 = (s >> 11) / 9007199254740992.0;
			sum += sqrt(-2 * log(u1)) * cos(2 * M_PI * u2) * sqrt(t[i] - prev);
			prev = t[i];
			c = c || fabs(sum / sqrt(t[i])) > z[i];
			n = n || fabs(sum / sqrt(t[i])) > 1.959964;
		}
		crossed += c;
		naive += n;
	}
	/* 0.05 of 20000 is 1000, its binomial sd 31 */
	assert_true(crossed > 880 && crossed < 1120);
	assert_true(naive > 3000);
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
		cmocka_unit_test(t_p_matches_the_closed_forms_for_1_and_2_df),
		cmocka_unit_test(t_quantiles_match_the_tables),
		cmocka_unit_test(t_quantiles_invert_the_closed_forms),
		cmocka_unit_test(mean_interval_is_t_times_the_standard_error),
		cmocka_unit_test(diff_interval_matches_r_on_the_sleep_data),
		cmocka_unit_test(runs_needed_reproduce_the_interval_they_predict),
		cmocka_unit_test(spearman_of_a_perfect_order_is_1_with_its_exact_p),
		cmocka_unit_test(spearman_counts_every_order_of_four),
		cmocka_unit_test(spearman_of_many_uses_the_t_approximation),
		cmocka_unit_test(spearman_without_spread_or_pairs_is_undefined),
		cmocka_unit_test(rank_test_of_three_apart_is_one_tenth),
		cmocka_unit_test(rank_test_matches_r_on_the_depression_data),
		cmocka_unit_test(rank_test_of_many_uses_the_normal_with_ties),
		cmocka_unit_test(friedman_of_blocks_that_all_rank_alike),
		cmocka_unit_test(friedman_with_ties_and_its_pairwise_comparison),
		cmocka_unit_test(holm_steps_down_and_never_below_an_earlier_step),
		cmocka_unit_test(best_bound_is_dunnetts_one_sided_constant),
		cmocka_unit_test(signed_rank_counts_every_sign_as_r_does),
		cmocka_unit_test(the_median_interval_takes_order_statistics),
		cmocka_unit_test(obrien_fleming_bounds_of_five_equal_looks),
		cmocka_unit_test(group_sequential_bounds_keep_the_chance_of_a_false_stop),
		cmocka_unit_test(a_utf8_name_is_written_as_it_is),
		cmocka_unit_test(a_name_that_is_not_utf8_has_each_high_byte_as_hex),
		cmocka_unit_test(no_name_is_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
