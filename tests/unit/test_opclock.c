/*
 * test_opclock.c - the clock operations are timed with (opclock.h): what
 * it chooses, and that its nanoseconds are the monotonic clock's.
 *
 * Each interval is measured by both clocks at once, the operation clock's
 * readings taken inside the monotonic clock's, so that a loaded machine
 * makes both longer but never tells them apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opclock.h"

/* The kernel's clocksource, "" when it cannot be read. */
static void clocksource(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* A 20 ms sleep timed by both: the operation clock's figure lies within
 * the monotonic clock's, give or take 100 parts per million. */
static void assert_agrees_with_the_monotonic_clock(void)
{
	uint64_t outer0 = monotonic_ns();
	uint64_t t0 = opclock_start();
	struct timespec nap = { 0, 20000000 };
	nanosleep(&nap, NULL);
	uint64_t t1 = opclock_end();
	uint64_t outer = monotonic_ns() - outer0;
	uint64_t inner = opclock_ns(t0, t1);

	if ((double)inner < 20e6 * (1 - 1e-4) || (double)inner > (double)outer * (1 + 1e-4))
		fail_msg("%s: %llu ns inside a monotonic %llu ns", opclock_name(),
			 (unsigned long long)inner, (unsigned long long)outer);
}

/* opclock_init() with DBENCH_OPCLOCK set to value, and unset again. */
static bool init_with(const char *value)
{
	setenv("DBENCH_OPCLOCK", value, 1);
	bool ok = opclock_init();
	unsetenv("DBENCH_OPCLOCK");
	return ok;
}

static void assert_monotonic(void)
{
	assert_false(opclock.tsc);
	assert_string_equal(opclock_name(), "clock_gettime");
	assert_true(opclock.hz == 1e9);
}

/* Where the kernel keeps time with the TSC, so do we; elsewhere the
 * readings are the monotonic clock's own nanoseconds. */
static void the_tsc_is_used_where_the_kernel_trusts_it(void **state)
{
	(void)state;
	char cs[32];

	unsetenv("DBENCH_OPCLOCK");
	assert_true(opclock_init());
	clocksource(cs, sizeof(cs));
	if (OPCLOCK_HAVE_TSC && strcmp(cs, "tsc") == 0) {
		assert_true(opclock.tsc);
		assert_string_equal(opclock_name(), "tsc");
		assert_true(opclock.hz > 1e8 && opclock.hz < 1e11);
	} else {
		assert_monotonic();
	}
	assert_agrees_with_the_monotonic_clock();
}

static void the_monotonic_clock_can_be_asked_for(void **state)
{
	(void)state;

	assert_true(init_with("monotonic"));
	assert_monotonic();
	assert_int_equal(opclock_ns(1000, 4500), 3500);
	assert_agrees_with_the_monotonic_clock();
}

/* Any other value is refused, and leaves the monotonic clock. */
static void another_value_is_refused(void **state)
{
	(void)state;

	assert_false(init_with("tsc"));
	assert_monotonic();
	assert_false(init_with("Monotonic"));
	assert_monotonic();
}

/* Readings of two CPUs a few counts apart give 0, never a wrapped
 * difference of some 584 years. */
static void an_end_before_its_start_is_no_time(void **state)
{
	(void)state;

	opclock_init();
	assert_int_equal(opclock_ns(1000, 999), 0);
	assert_int_equal(opclock_ns(5, 5), 0);
}

/* A difference of a day converts without overflow. */
static void long_intervals_convert_whole(void **state)
{
	(void)state;

	opclock_init();
	uint64_t day = 86400ull * 1000000000u;
	uint64_t counts = (uint64_t)(opclock.hz * 86400.0);
	uint64_t ns = opclock_ns(0, counts);
	assert_true(ns > day - day / 100000 && ns < day + day / 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_tsc_is_used_where_the_kernel_trusts_it),
		cmocka_unit_test(the_monotonic_clock_can_be_asked_for),
		cmocka_unit_test(another_value_is_refused),
		cmocka_unit_test(an_end_before_its_start_is_no_time),
		cmocka_unit_test(long_intervals_convert_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
