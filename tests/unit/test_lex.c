/*
 * test_lex.c - the loadfile lexer's readers of fields (load/lex.h): a
 * time read as decimal seconds is the double strtod makes of it, by
 * either of its paths (plain digits, or strtod itself), and what it
 * refuses stays refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load/lex.h"

static bool seconds(const char *text, const char *refused, double *v)
{
	struct token t = { .s = text, .len = strlen(text) };

	return lex_seconds(&t, refused, v);
}

static void times_read_as_strtod_reads_them(void **state)
{
	static const char *const fixed[] = { "0", "0.0", "1", "1.", ".5", "0.000001", "0.1",
					     "0.3", "12.345678", "999999999.999999", "1000000000",
					     "12345.6789012345", "0.999999999999999",
					     "000012.500000" };
	char b[32];
	double v;
	(void)state;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		assert_true(seconds(fixed[i], "eE-+", &v));
		assert_true(v == strtod(fixed[i], NULL));
	}
	srandom(42);
	for (int i = 0; i < 200000; i++) {
		long whole = random() % 100000, frac = random() % 1000000;
		int places = 1 + (int)(random() % 9);
		snprintf(b, sizeof(b), "%ld.%0*ld", whole, places, frac % (places < 6 ? 100000 : 1000000));
		assert_true(seconds(b, "eE-+", &v));
		assert_true(v == strtod(b, NULL));
	}
}

static void what_is_not_plain_seconds_is_refused_as_before(void **state)
{
	double v;
	(void)state;

	assert_false(seconds("1e3", "eE-+", &v));
	assert_false(seconds("-1", "eE-+", &v));
	assert_false(seconds("1.2.3", "", &v));
	assert_false(seconds(".", "", &v));
	assert_false(seconds("0x10", "", &v));
	assert_false(seconds("1000000000.5", "", &v));
	assert_false(seconds("nan", "", &v));
	assert_true(seconds("1e3", "", &v));	/* strtod's, where allowed */
	assert_true(v == 1000.0);
	assert_true(seconds("0.0000000000000001", "eE-+", &v));	/* more digits: strtod's */
	assert_true(v == strtod("0.0000000000000001", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(times_read_as_strtod_reads_them),
		cmocka_unit_test(what_is_not_plain_seconds_is_refused_as_before),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
