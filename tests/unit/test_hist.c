/*
 * test_hist.c - latency histograms: bucket geometry, quantile accuracy
 * against exact sorted percentiles, exact count/sum/min/max, merging and
 * edge values.
 *
 * Samples come from a fixed-seed splitmix64, so every run sees the same
 * data.  Exact percentiles use the histogram's own rank definition: the
 * q-quantile of n sorted values is the ceil(q * n)-th smallest (at least
 * the first).  Each accuracy test prints the worst relative error it saw
 * as a TAP comment.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"

#define TOP (HIST_BUCKETS - 1u)
#define NSAMPLES 1000000
#define US 1000ull
#define MS 1000000ull
#define SEC 1000000000ull

/* ---- helpers ---- */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

/* splitmix64 */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) * 0x1.0p-53;
}

/* Uniform integer in [lo, hi]. */
static uint64_t rng_between(uint64_t lo, uint64_t hi)
{
	return lo + rng_next() % (hi - lo + 1);
}

static struct hist *hist_new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double rel_err(uint64_t got, uint64_t want)
{
	return fabs((double)got - (double)want) / (double)want;
}

/* A histogram of samples[0..n), which is left sorted. */
static struct hist *record_all(uint64_t *samples, size_t n)
{
	struct hist *h = hist_new();

	for (size_t i = 0; i < n; i++)
		hist_record(h, samples[i]);
	qsort(samples, n, sizeof(samples[0]), cmp_u64);
	return h;
}

/* The exact q-quantile, q = ppm / 1e6, of sorted[0..n): integer ranks. */
static uint64_t exact_quantile(const uint64_t *sorted, size_t n, uint64_t ppm)
{
	uint64_t rank = ((uint64_t)n * ppm + 999999) / 1000000;

	return sorted[rank ? rank - 1 : 0];
}

/* Check p50, p90, p99 and p99.9 against the sorted samples, within 1 %;
 * returns the worst relative error. */
static double check_percentiles(const struct hist *h, const uint64_t *sorted, size_t n,
				const char *what)
{
	static const uint64_t ppm[] = { 500000, 900000, 990000, 999000 };
	double worst = 0;

	for (size_t i = 0; i < sizeof(ppm) / sizeof(ppm[0]); i++) {
		uint64_t want = exact_quantile(sorted, n, ppm[i]);
		uint64_t got = hist_quantile(h, (double)ppm[i] / 1e6);
		double err = rel_err(got, want);

		if (err > 0.01)
			fail_msg("%s p%g: got %llu ns, exact %llu ns (%.3f %%)", what,
				 (double)ppm[i] / 1e4, (unsigned long long)got,
				 (unsigned long long)want, err * 100);
		if (err > worst)
			worst = err;
	}
	print_message("# %s: worst percentile error %.4f %%\n", what, worst * 100);
	return worst;
}

/* count, sum, min and max as the samples say, and mean = sum / count. */
static void check_exact_fields(const struct hist *h, const uint64_t *sorted, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	assert_int_equal(h->count, n);
	assert_int_equal(h->sum_ns, sum);
	assert_int_equal(h->min_ns, sorted[0]);
	assert_int_equal(h->max_ns, sorted[n - 1]);
	assert_true(hist_mean(h) == (double)sum / (double)n);
	assert_int_equal(hist_quantile(h, 1.0), sorted[n - 1]);
}

/* ---- bucket geometry ---- */

static void assert_in_bucket(uint64_t v)
{
	unsigned b = hist_bucket_of(v);

	if (b > TOP)
		fail_msg("%llu: bucket %u past the top", (unsigned long long)v, b);
	if (v < hist_bucket_low(b) || (b != TOP && v >= hist_bucket_high(b)))
		fail_msg("%llu: outside bucket %u [%llu, %llu)", (unsigned long long)v, b,
			 (unsigned long long)hist_bucket_low(b),
			 (unsigned long long)hist_bucket_high(b));
}

static void test_values_below_64_have_a_bucket_each(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 64; v++) {
		assert_int_equal(hist_bucket_of(v), v);
		assert_int_equal(hist_bucket_low((unsigned)v), v);
		assert_int_equal(hist_bucket_high((unsigned)v), v + 1);
	}
}

static void test_every_value_to_100000_lies_in_its_bucket(void **state)
{
	(void)state;
	for (uint64_t v = 0; v <= 100000; v++)
		assert_in_bucket(v);
}

static void test_powers_of_two_and_neighbours_lie_in_their_buckets(void **state)
{
	(void)state;
	for (unsigned e = 1; e <= 40; e++) {
		uint64_t p = 1ull << e;

		assert_in_bucket(p - 1);
		assert_in_bucket(p);
		assert_in_bucket(p + 1);
		/* the bottom of each octave above 64 starts a bucket */
		if (p >= 64 && p < (1ull << HIST_MAX_EXP))
			assert_int_equal(hist_bucket_low(hist_bucket_of(p)), p);
	}
	for (unsigned i = 0; i < 100000; i++)
		assert_in_bucket(rng_next() >> (rng_next() % 64));
}

static void test_buckets_are_contiguous_and_increasing(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_low(0), 0);
	for (unsigned b = 0; b < TOP; b++) {
		uint64_t low = hist_bucket_low(b), high = hist_bucket_high(b);

		assert_true(low < high);
		assert_int_equal(high, hist_bucket_low(b + 1));
		assert_int_equal(hist_bucket_of(low), b);
		assert_int_equal(hist_bucket_of(high - 1), b);
	}
}

static void test_buckets_above_64_are_at_most_a_64th_of_their_low(void **state)
{
	(void)state;
	for (unsigned b = 64; b < TOP; b++) {
		uint64_t low = hist_bucket_low(b), width = hist_bucket_high(b) - low;

		assert_true(width * 64 <= low);
	}
}

static void test_top_bucket_absorbs_everything_larger(void **state)
{
	(void)state;
	assert_int_equal(HIST_BUCKETS, 2112);
	assert_int_equal(hist_bucket_low(TOP), (1ull << HIST_MAX_EXP) - (1ull << 31));
	assert_int_equal(hist_bucket_high(TOP), UINT64_MAX);
	assert_int_equal(hist_bucket_of(hist_bucket_low(TOP) - 1), TOP - 1);
	assert_int_equal(hist_bucket_of((1ull << HIST_MAX_EXP) - 1), TOP);
	assert_int_equal(hist_bucket_of(1ull << HIST_MAX_EXP), TOP);
	assert_int_equal(hist_bucket_of(1ull << 50), TOP);
	assert_int_equal(hist_bucket_of(UINT64_MAX), TOP);
}

/* ---- accuracy ---- */

static void test_single_value_quantile_is_the_value(void **state)
{
	(void)state;
	for (uint64_t v = 1000; v < 100 * SEC; v = v * 1001 / 1000 + 1) {
		struct hist h = { 0 };

		hist_record(&h, v);
		assert_int_equal(hist_quantile(&h, 0.5), v);
		assert_int_equal(hist_quantile(&h, 1.0), v);
	}
}

/*
 * Bracketed by 0 and UINT64_MAX, min and max cannot clamp the middle
 * value's quantile, so this measures the bucket midpoint itself.
 */
static void test_midpoint_is_within_0_8_percent_from_1us_to_100s(void **state)
{
	double worst = 0;
	uint64_t worst_v = 0;

	(void)state;
	for (uint64_t v = US; v <= 100 * SEC; v = v * 1001 / 1000 + 1) {
		for (uint64_t d = 0; d < 3; d++) {
			struct hist h = { 0 };
			uint64_t x = v + d;

			hist_record(&h, 0);
			hist_record(&h, x);
			hist_record(&h, UINT64_MAX);

			uint64_t got = hist_quantile(&h, 0.5);
			double err = rel_err(got, x);

			if (err > 0.008)
				fail_msg("%llu: quantile %llu (%.4f %%)", (unsigned long long)x,
					 (unsigned long long)got, err * 100);
			if (err > worst) {
				worst = err;
				worst_v = x;
			}
		}
	}
	/* the bottom of an octave is the worst case: 1/128 */
	for (unsigned e = 10; e < 37; e++) {
		struct hist h = { 0 };
		uint64_t x = 1ull << e;

		hist_record(&h, 0);
		hist_record(&h, x);
		hist_record(&h, UINT64_MAX);
		assert_true(rel_err(hist_quantile(&h, 0.5), x) == 1.0 / 128);
	}
	print_message("# midpoint: worst error %.4f %% at %llu ns\n", worst * 100,
		      (unsigned long long)worst_v);
}

static void test_uniform_1_to_10ms_percentiles_within_1_percent(void **state)
{
	uint64_t *s = malloc(NSAMPLES * sizeof(*s));

	(void)state;
	assert_non_null(s);
	rng_seed(1);
	for (size_t i = 0; i < NSAMPLES; i++)
		s[i] = rng_between(1 * MS, 10 * MS);

	struct hist *h = record_all(s, NSAMPLES);

	check_exact_fields(h, s, NSAMPLES);
	check_percentiles(h, s, NSAMPLES, "uniform 1..10 ms");
	free(h);
	free(s);
}

static void test_exponential_mean_1ms_percentiles_within_1_percent(void **state)
{
	uint64_t *s = malloc(NSAMPLES * sizeof(*s));

	(void)state;
	assert_non_null(s);
	rng_seed(2);
	for (size_t i = 0; i < NSAMPLES; i++)
		s[i] = (uint64_t)(-log(1.0 - rng_unit()) * (double)MS);

	struct hist *h = record_all(s, NSAMPLES);

	check_exact_fields(h, s, NSAMPLES);
	check_percentiles(h, s, NSAMPLES, "exponential mean 1 ms");
	/* the sample mean is near 1 ms, the median near ln 2 ms */
	assert_true(fabs(hist_mean(h) - 1e6) < 1e4);
	assert_true(rel_err(hist_quantile(h, 0.5), (uint64_t)(0.693147 * MS)) < 0.01);
	free(h);
	free(s);
}

/* Exactly 1 % of samples (every hundredth) near 50 ms, the rest near
 * 100 us: p99 is the largest fast one, p99.9 a slow one. */
static void test_bimodal_p99_and_p999_within_1_percent(void **state)
{
	uint64_t *s = malloc(NSAMPLES * sizeof(*s));

	(void)state;
	assert_non_null(s);
	rng_seed(3);
	for (size_t i = 0; i < NSAMPLES; i++) {
		if (i % 100 == 99)
			s[i] = rng_between(49 * MS, 51 * MS);
		else
			s[i] = rng_between(98 * US, 102 * US);
	}

	struct hist *h = record_all(s, NSAMPLES);
	uint64_t p99 = hist_quantile(h, 0.99), p999 = hist_quantile(h, 0.999);

	check_exact_fields(h, s, NSAMPLES);
	check_percentiles(h, s, NSAMPLES, "bimodal 100 us / 50 ms");
	assert_true(rel_err(p99, exact_quantile(s, NSAMPLES, 990000)) <= 0.01);
	assert_true(rel_err(p999, exact_quantile(s, NSAMPLES, 999000)) <= 0.01);
	assert_in_range(p99, 97 * US, 103 * US);
	assert_in_range(p999, 48 * MS, 52 * MS);
	free(h);
	free(s);
}

static void test_constant_gives_the_constant_at_every_quantile(void **state)
{
	struct hist *h = hist_new();
	static const double qs[] = { 0.0001, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0 };

	(void)state;
	for (unsigned i = 0; i < NSAMPLES; i++)
		hist_record(h, 123457);
	assert_int_equal(h->count, NSAMPLES);
	assert_int_equal(h->sum_ns, 123457ull * NSAMPLES);
	assert_int_equal(h->min_ns, 123457);
	assert_int_equal(h->max_ns, 123457);
	assert_true(hist_mean(h) == 123457.0);
	assert_int_equal(h->bucket[hist_bucket_of(123457)], NSAMPLES);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_int_equal(hist_quantile(h, qs[i]), 123457);
	free(h);
}

/* ---- count, sum, min, max, mean ---- */

static void test_count_sum_min_max_and_mean_are_exact(void **state)
{
	static const uint64_t v[] = { 5000, 3, 7777777, 1000, 274877906944ull, 64 };
	struct hist *h = hist_new();

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		hist_record(h, v[i]);
	assert_int_equal(h->count, 6);
	assert_int_equal(h->sum_ns, 5000 + 3 + 7777777 + 1000 + 274877906944ull + 64);
	assert_int_equal(h->min_ns, 3);
	assert_int_equal(h->max_ns, 274877906944ull);
	assert_true(hist_mean(h) == (5000 + 3 + 7777777 + 1000 + 274877906944.0 + 64) / 6);
	assert_int_equal(hist_quantile(h, 1.0), 274877906944ull);
	assert_int_equal(hist_quantile(h, 0.0001), 3);
	free(h);
}

static void test_empty_histogram_reads_as_zero(void **state)
{
	struct hist h = { 0 };

	(void)state;
	assert_int_equal(hist_quantile(&h, 0.0001), 0);
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	assert_int_equal(hist_quantile(&h, 1.0), 0);
	assert_true(hist_mean(&h) == 0.0);
	assert_int_equal(h.min_ns, 0);
}

/* ---- merging ---- */

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum_ns, b->sum_ns);
	assert_int_equal(a->min_ns, b->min_ns);
	assert_int_equal(a->max_ns, b->max_ns);
	assert_memory_equal(a->bucket, b->bucket, sizeof(a->bucket));
}

static void test_merging_eight_parts_equals_recording_all_in_one(void **state)
{
	struct hist *whole = hist_new(), *merged = hist_new(), *part[8];

	(void)state;
	for (unsigned i = 0; i < 8; i++)
		part[i] = hist_new();
	rng_seed(4);
	for (unsigned i = 0; i < 200000; i++) {
		/* log-uniform over 1 ns .. 2^40 ns, so every part has its own
		 * min and max and many buckets are hit */
		uint64_t v = (rng_next() >> (24 + rng_next() % 40)) + 1;

		hist_record(whole, v);
		hist_record(part[rng_next() % 8], v);
	}
	for (unsigned i = 0; i < 8; i++) {
		assert_true(part[i]->count > 0);
		hist_merge(merged, part[i]);
	}
	assert_hist_equal(merged, whole);
	assert_int_equal(hist_quantile(merged, 0.99), hist_quantile(whole, 0.99));
	for (unsigned i = 0; i < 8; i++)
		free(part[i]);
	free(merged);
	free(whole);
}

/* ---- the saved form ---- */

static void test_a_saved_histogram_reads_back_whole(void **state)
{
	struct hist *h = hist_new(), *back = hist_new();
	size_t len;
	char *text;

	(void)state;
	rng_seed(9);
	for (unsigned i = 0; i < 100000; i++)
		hist_record(h, (rng_next() >> (24 + rng_next() % 40)) + 1);
	len = hist_format(h, NULL, 0);
	text = malloc(len + 1);
	assert_non_null(text);
	assert_int_equal(hist_format(h, text, len + 1), len);
	assert_int_equal(strlen(text), len);
	assert_null(hist_parse(back, text, h->count, h->sum_ns, h->min_ns, h->max_ns));
	assert_hist_equal(back, h);
	/* a buffer too small is cut short, terminated, and says what it needs */
	char small[16];
	assert_int_equal(hist_format(h, small, sizeof(small)), len);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, text, sizeof(small) - 1);
	free(text);
	free(back);
	free(h);
}

static void test_the_saved_form_is_index_colon_count(void **state)
{
	struct hist *h = hist_new();
	char text[64];

	(void)state;
	hist_record(h, 5);
	hist_record(h, 5);
	hist_record(h, 64);
	hist_record(h, 1000);	/* octave 9: (9 - 5) * 64 + (1000 >> 3 & 63) = 256 + 61 */
	assert_int_equal(hist_format(h, text, sizeof(text)), strlen("5:2 64:1 317:1"));
	assert_string_equal(text, "5:2 64:1 317:1");
	/* an empty one is an empty string */
	free(h);
	h = hist_new();
	assert_int_equal(hist_format(h, text, sizeof(text)), 0);
	assert_string_equal(text, "");
	assert_null(hist_parse(h, "", 0, 0, 0, 0));
	assert_int_equal(h->count, 0);
	free(h);
}

static void test_a_bad_saved_form_is_refused_and_changes_nothing(void **state)
{
	static const struct { const char *text; uint64_t count; const char *why; } bad[] = {
		{ "5:2 64", 3, "a bucket is not INDEX:COUNT" },
		{ "5:2  64:1", 3, "a bucket is not INDEX:COUNT" },
		{ "5:2,64:1", 3, "buckets are not separated by single spaces" },
		{ "64:1 5:2", 3, "bucket indexes are not in ascending order" },
		{ "5:2 5:1", 3, "bucket indexes are not in ascending order" },
		{ "5:0", 0, "a bucket has a count of 0" },
		{ "999999:1", 1, "a bucket index is past the top" },
		{ "5:2 64:1", 4, "the buckets' counts do not add up to the count" },
		{ "-5:2", 2, "a bucket is not INDEX:COUNT" },
		{ "5:18446744073709551615 6:1", 0, "the counts overflow" },
	};
	struct hist *h = hist_new(), *empty = hist_new();

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = hist_parse(h, bad[i].text, bad[i].count, 10, 5, 64);
		if (!why || strcmp(why, bad[i].why) != 0)
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, why ? why : "(accepted)",
				 bad[i].why);
		assert_hist_equal(h, empty);
	}
	assert_non_null(hist_parse(h, "5:1", 1, 5, 64, 5));	/* min above max */
	free(empty);
	free(h);
}

static void test_count_above_a_bucket_leaves_that_bucket_out(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	hist_record(h, 10);
	hist_record(h, 100);
	hist_record(h, 100);
	hist_record(h, 5000);
	assert_int_equal(hist_count_above(h, hist_bucket_of(10)), 3);
	assert_int_equal(hist_count_above(h, hist_bucket_of(100)), 1);
	assert_int_equal(hist_count_above(h, hist_bucket_of(5000)), 0);
	assert_int_equal(hist_count_above(h, TOP), 0);
	free(h);
}

static void test_merging_an_empty_histogram_changes_nothing(void **state)
{
	struct hist *h = hist_new(), *empty = hist_new();

	(void)state;
	hist_record(h, 500);
	hist_record(h, 90000);

	struct hist before = *h;

	hist_merge(h, empty);
	assert_hist_equal(h, &before);
	assert_int_equal(h->min_ns, 500);
	free(empty);
	free(h);
}

static void test_merging_into_an_empty_histogram_copies(void **state)
{
	struct hist *src = hist_new(), *dst = hist_new();

	(void)state;
	hist_record(src, 700);
	hist_record(src, 1234567);
	hist_record(src, 900);
	hist_merge(dst, src);
	assert_hist_equal(dst, src);
	assert_int_equal(dst->min_ns, 700);	/* the empty dst's 0 did not win */
	free(dst);
	free(src);
}

static void test_merge_takes_the_smaller_min_and_larger_max(void **state)
{
	struct hist *a = hist_new(), *b = hist_new();

	(void)state;
	hist_record(a, 100);
	hist_record(a, 5000);
	hist_record(b, 40);
	hist_record(b, 3000);
	hist_merge(a, b);
	assert_int_equal(a->min_ns, 40);
	assert_int_equal(a->max_ns, 5000);
	assert_int_equal(a->count, 4);
	assert_int_equal(a->sum_ns, 8140);
	free(b);
	free(a);
}

/* ---- edge values and quantile arguments ---- */

static void test_zero_is_recorded_exactly(void **state)
{
	struct hist h = { 0 };

	(void)state;
	hist_record(&h, 0);
	assert_int_equal(h.count, 1);
	assert_int_equal(h.bucket[0], 1);
	assert_int_equal(h.min_ns, 0);
	assert_int_equal(h.max_ns, 0);
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	hist_record(&h, 10);
	assert_int_equal(h.min_ns, 0);	/* a recorded 0 stays the minimum */
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	assert_int_equal(hist_quantile(&h, 1.0), 10);
}

static void test_one_is_recorded_exactly(void **state)
{
	struct hist h = { 0 };

	(void)state;
	hist_record(&h, 1);
	hist_record(&h, 1000);
	assert_int_equal(h.bucket[1], 1);
	assert_int_equal(h.min_ns, 1);
	assert_int_equal(hist_quantile(&h, 0.5), 1);
}

static void test_uint64_max_lands_in_the_top_bucket_with_max_exact(void **state)
{
	struct hist h = { 0 };

	(void)state;
	hist_record(&h, 50);
	hist_record(&h, UINT64_MAX);
	assert_int_equal(h.bucket[TOP], 1);
	assert_int_equal(h.max_ns, UINT64_MAX);
	assert_int_equal(hist_quantile(&h, 1.0), UINT64_MAX);
	/* the top bucket has no midpoint: its quantiles are the max */
	assert_int_equal(hist_quantile(&h, 0.9), UINT64_MAX);
	assert_int_equal(hist_quantile(&h, 0.5), 50);
}

static void test_sum_saturates_instead_of_wrapping(void **state)
{
	struct hist h = { 0 };

	(void)state;
	hist_record(&h, UINT64_MAX);
	hist_record(&h, 5);
	assert_int_equal(h.sum_ns, UINT64_MAX);
	assert_int_equal(h.count, 2);
}

/* A bucket holds more than 2^32 values: one CPU of the null backend gets
 * there within the hour.  Merged and ranked without wrapping. */
static void test_buckets_count_past_2_to_the_32(void **state)
{
	struct hist *a = hist_new(), *b = hist_new();
	const uint64_t big = 3000000000ull;	/* each side: 3e9 values of 50 ns */

	(void)state;
	hist_add_bucket(a, hist_bucket_of(50), big);
	hist_add_totals(a, big, big * 50, 50, 50);
	hist_add_bucket(b, hist_bucket_of(50), big);
	hist_add_bucket(b, hist_bucket_of(5000), 1);
	hist_add_totals(b, big + 1, big * 50 + 5000, 50, 5000);
	hist_merge(a, b);
	assert_int_equal(a->count, 2 * big + 1);
	assert_int_equal(a->bucket[hist_bucket_of(50)], 2 * big);
	assert_int_equal(hist_quantile(a, 0.5), 50);
	assert_int_equal(hist_quantile(a, 1.0), 5000);
	free(a);
	free(b);
}

/* 1..10000 ns, one each: small ranks land on exact buckets. */
static void test_quantile_ranks_are_ceil_of_q_times_count(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	for (uint64_t v = 1; v <= 10000; v++)
		hist_record(h, v);
	assert_int_equal(hist_quantile(h, 0.0001), 1);	/* rank 1 */
	assert_int_equal(hist_quantile(h, 0.00011), 2);	/* rank ceil(1.1) = 2 */
	assert_int_equal(hist_quantile(h, 0.0063), 63);	/* rank 63 */
	assert_int_equal(hist_quantile(h, 0.0), 1);	/* rank at least 1 */
	assert_int_equal(hist_quantile(h, -3.0), 1);
	assert_true(rel_err(hist_quantile(h, 0.5), 5000) <= 1.0 / 128);
	assert_int_equal(hist_quantile(h, 1.0), 10000);
	free(h);
}

static void test_q_above_one_is_treated_as_one(void **state)
{
	struct hist h = { 0 };

	(void)state;
	hist_record(&h, 100);
	hist_record(&h, 123456789);	/* not a bucket midpoint */
	assert_int_equal(hist_quantile(&h, 1.5), 123456789);
	assert_int_equal(hist_quantile(&h, 100.0), 123456789);
	assert_int_equal(hist_quantile(&h, INFINITY), 123456789);
	assert_int_equal(hist_quantile(&h, 1.0), 123456789);
}

/* A quantile needs a value above its rank: from fewer, ceil(q * n) is n
 * and the quantile is the maximum. */
static void test_quantiles_need_a_value_above_them(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(hist_quantile_min_count(0.50), 2);
	assert_int_equal(hist_quantile_min_count(0.90), 10);
	assert_int_equal(hist_quantile_min_count(0.99), 100);
	assert_int_equal(hist_quantile_min_count(0.999), 1000);
	assert_int_equal(hist_quantile_min_count(1.0), 1);
	assert_int_equal(hist_quantile_min_count(0.0), 1);
	/* 98 values of 1 us and one of 1 s: the p99 is the 1 s; one more
	 * 1 us, and it is not */
	for (int i = 0; i < 98; i++)
		hist_record(h, 1000);
	hist_record(h, 1000000000);
	assert_true(hist_quantile(h, 0.99) > 990000000);
	hist_record(h, 1000);
	assert_true(hist_quantile(h, 0.99) < 1010);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* geometry */
		cmocka_unit_test(test_values_below_64_have_a_bucket_each),
		cmocka_unit_test(test_every_value_to_100000_lies_in_its_bucket),
		cmocka_unit_test(test_powers_of_two_and_neighbours_lie_in_their_buckets),
		cmocka_unit_test(test_buckets_are_contiguous_and_increasing),
		cmocka_unit_test(test_buckets_above_64_are_at_most_a_64th_of_their_low),
		cmocka_unit_test(test_top_bucket_absorbs_everything_larger),
		/* accuracy */
		cmocka_unit_test(test_single_value_quantile_is_the_value),
		cmocka_unit_test(test_midpoint_is_within_0_8_percent_from_1us_to_100s),
		cmocka_unit_test(test_uniform_1_to_10ms_percentiles_within_1_percent),
		cmocka_unit_test(test_exponential_mean_1ms_percentiles_within_1_percent),
		cmocka_unit_test(test_bimodal_p99_and_p999_within_1_percent),
		cmocka_unit_test(test_constant_gives_the_constant_at_every_quantile),
		/* exact fields */
		cmocka_unit_test(test_count_sum_min_max_and_mean_are_exact),
		cmocka_unit_test(test_empty_histogram_reads_as_zero),
		/* merging */
		cmocka_unit_test(test_merging_eight_parts_equals_recording_all_in_one),
		cmocka_unit_test(test_merging_an_empty_histogram_changes_nothing),
		cmocka_unit_test(test_a_saved_histogram_reads_back_whole),
		cmocka_unit_test(test_the_saved_form_is_index_colon_count),
		cmocka_unit_test(test_a_bad_saved_form_is_refused_and_changes_nothing),
		cmocka_unit_test(test_count_above_a_bucket_leaves_that_bucket_out),
		cmocka_unit_test(test_merging_into_an_empty_histogram_copies),
		cmocka_unit_test(test_merge_takes_the_smaller_min_and_larger_max),
		/* edges */
		cmocka_unit_test(test_zero_is_recorded_exactly),
		cmocka_unit_test(test_one_is_recorded_exactly),
		cmocka_unit_test(test_uint64_max_lands_in_the_top_bucket_with_max_exact),
		cmocka_unit_test(test_sum_saturates_instead_of_wrapping),
		cmocka_unit_test(test_buckets_count_past_2_to_the_32),
		cmocka_unit_test(test_quantile_ranks_are_ceil_of_q_times_count),
		cmocka_unit_test(test_q_above_one_is_treated_as_one),
		cmocka_unit_test(test_quantiles_need_a_value_above_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
