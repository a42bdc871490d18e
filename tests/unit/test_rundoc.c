/*
 * test_rundoc.c - reading a run's figures back from its JSON document
 * (analysis/rundoc.h), specified by example.  Loading whole files and
 * grouping them by client count is test_compare.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis/rundoc.h"
#include "run/plan.h"

static json_t *doc(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	return j;
}

static void nprocs_is_a_whole_number_in_range_or_0(void **state)
{
	json_t *ok = doc("{\"config\": {\"nprocs\": 16}}");
	json_t *missing = doc("{\"config\": {}}");
	json_t *real = doc("{\"config\": {\"nprocs\": 16.0}}");
	json_t *big = doc("{\"config\": {\"nprocs\": 10001}}");

	(void)state;
	assert_int_equal(rundoc_nprocs(ok), 16);
	assert_int_equal(rundoc_nprocs(missing), 0);
	assert_int_equal(rundoc_nprocs(real), 0);
	assert_int_equal(DBENCH_MAX_CLIENTS, 10000);
	assert_int_equal(rundoc_nprocs(big), 0);
	json_decref(ok), json_decref(missing), json_decref(real), json_decref(big);
}

static void a_run_succeeded_when_its_exit_code_is_0(void **state)
{
	json_t *ok = doc("{\"status\": {\"exit_code\": 0}}");
	json_t *failed = doc("{\"status\": {\"exit_code\": 1}}");

	(void)state;
	assert_true(rundoc_ok(ok));
	assert_false(rundoc_ok(failed));
	json_decref(ok), json_decref(failed);
}

static void the_worst_p99_is_over_every_operation_type(void **state)
{
	json_t *run = doc("{\"ops\": {\"ReadX\": {\"p99_ms\": 1.5}, \"WriteX\": {\"p99_ms\": 7.25},"
			  " \"Close\": {\"p99_ms\": 0.1}}, \"result\": {\"throughput_mb_s\": 12.5}}");
	json_t *none = doc("{}");

	(void)state;
	assert_true(rundoc_worst_p99(run) == 7.25);
	assert_true(rundoc_worst_p99(none) == 0);
	assert_true(rundoc_number(run, "result.throughput_mb_s") == 12.5);
	assert_true(rundoc_number(run, "result.missing") == 0);
	json_decref(run), json_decref(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nprocs_is_a_whole_number_in_range_or_0),
		cmocka_unit_test(a_run_succeeded_when_its_exit_code_is_0),
		cmocka_unit_test(the_worst_p99_is_over_every_operation_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
