/*
 * test_numstat.c - the small statistics (base/numstat.h) and the one
 * JSON string rule (base/jsontext.h), specified by example.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "base/jsontext.h"
#include "base/numstat.h"

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
		cmocka_unit_test(a_utf8_name_is_written_as_it_is),
		cmocka_unit_test(a_name_that_is_not_utf8_has_each_high_byte_as_hex),
		cmocka_unit_test(no_name_is_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
