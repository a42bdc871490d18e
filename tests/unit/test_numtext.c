/*
 * test_numtext.c - integers as decimal text (numtext.h): the same text
 * as printf's "%llu", "%0Nllu" and "%lld", at the ends of the ranges.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "numtext.h"

static void unsigned_numbers_read_as_printf_writes_them(void **state)
{
	static const uint64_t v[] = { 0, 1, 9, 10, 99, 123456, 999999, 1000000, UINT32_MAX,
				      UINT64_MAX };
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (int width = 1; width <= 8; width += 5) {
			char got[32], want[32];
			*numtext_u64(got, v[i], width) = '\0';
			snprintf(want, sizeof(want), "%0*" PRIu64, width, v[i]);
			assert_string_equal(got, want);
		}
	}
}

static void signed_numbers_read_as_printf_writes_them(void **state)
{
	static const int64_t v[] = { 0, 1, -1, 42, -4095, INT32_MIN, INT64_MAX, INT64_MIN };
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char got[NUMTEXT_MAX], want[32];
		char *end = numtext_i64(got, v[i]);
		snprintf(want, sizeof(want), "%" PRId64, v[i]);
		assert_string_equal(got, want);
		assert_ptr_equal(end, got + strlen(want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unsigned_numbers_read_as_printf_writes_them),
		cmocka_unit_test(signed_numbers_read_as_printf_writes_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
