/*
 * test_rundoc.c - reading a run's figures back from its JSON document
 * (rundoc.h), specified by example: its figures, what its disks
 * did and how that is printed.  Loading whole files and grouping them by
 * client count is test_compare.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundoc.h"
#include "plan.h"

static void assert_near_p99(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * want))
		fail_msg("got %.12g, want %.12g", got, want);
}

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
	json_t *rare = doc("{\"ops\": {\"Flush\": {\"p99_ms\": null}}}");

	(void)state;
	assert_true(rundoc_worst_p99(run) == 7.25);
	assert_true(isnan(rundoc_worst_p99(none)));
	/* an operation too rare for a p99 (null) is none */
	assert_true(isnan(rundoc_worst_p99(rare)));
	assert_true(rundoc_number(run, DK_RESULT_THROUGHPUT) == 12.5);
	assert_true(rundoc_number(run, DK_RESULT_ELAPSED_S) == 0);
	json_decref(run), json_decref(none), json_decref(rare);
}

/* ---- what the disks did ---- */

/* A run whose ReadX latencies are those of h, saved as report_json
 * saves them (with a p99_ms of its own, which pooling must not use). */
static json_t *run_with_hist(const struct hist *h, double own_p99)
{
	char text[8192];

	assert_true(hist_format(h, text, sizeof(text)) < sizeof(text));
	return json_pack("{s:{s:{s:I, s:f, s:{s:I, s:I, s:I, s:I, s:s}}}}", "ops", "ReadX",
			 "count", (json_int_t)h->count, "p99_ms", own_p99, "hist",
			 "count", (json_int_t)h->count, "sum_ns", (json_int_t)h->sum_ns,
			 "min_ns", (json_int_t)h->min_ns, "max_ns", (json_int_t)h->max_ns,
			 "buckets", text);
}

static void pooled_runs_give_the_p99_of_their_merged_histograms(void **state)
{
	/* 60 fast reads in one run, 60 slow in the other: neither has the 100
	 * a p99 needs, their pool does, and its p99 is among the slow ones */
	struct hist *a = calloc(3, sizeof(*a)), *b = a + 1, *both = a + 2;

	(void)state;
	for (int i = 0; i < 60; i++) {
		hist_record(a, 1000 + i);
		hist_record(b, 5000000 + 1000 * i);
	}
	hist_merge(both, a);
	hist_merge(both, b);
	const json_t *runs[2] = { run_with_hist(a, 9), run_with_hist(b, 9) };
	assert_true(rundoc_hists_whole(runs, 2, "ReadX"));
	assert_near_p99(rundoc_pooled_worst_p99(runs, 2), hist_quantile(both, 0.99) / 1e6);
	assert_true(hist_quantile(both, 0.99) > 5000000);
	/* one run alone has too few */
	assert_true(isnan(rundoc_pooled_worst_p99(runs, 1)));
	json_decref((json_t *)runs[0]);
	json_decref((json_t *)runs[1]);
	free(a);
}

static void runs_without_histograms_pool_the_median_of_their_own_p99s(void **state)
{
	json_t *r1 = doc("{\"ops\": {\"ReadX\": {\"count\": 500, \"p99_ms\": 2}}}");
	json_t *r2 = doc("{\"ops\": {\"ReadX\": {\"count\": 500, \"p99_ms\": 4}}}");
	json_t *r3 = doc("{\"ops\": {\"ReadX\": {\"count\": 500, \"p99_ms\": 9}}}");
	const json_t *runs[3] = { r1, r2, r3 };

	(void)state;
	assert_false(rundoc_hists_whole(runs, 3, "ReadX"));
	assert_true(rundoc_pooled_worst_p99(runs, 3) == 4);
	json_decref(r1), json_decref(r2), json_decref(r3);
}

static void a_histogram_that_does_not_add_up_is_not_read(void **state)
{
	json_t *bad = doc("{\"ops\": {\"ReadX\": {\"count\": 3, \"hist\": {\"count\": 3,"
			  " \"sum_ns\": 30, \"min_ns\": 5, \"max_ns\": 20, \"buckets\": \"5:1 20:1\"}}}}");
	struct hist h = { 0 };

	(void)state;
	assert_false(rundoc_add_hist(&h, bad, "ReadX"));
	assert_int_equal(h.count, 0);
	assert_false(rundoc_add_hist(&h, bad, "WriteX"));
	json_decref(bad);
}

static void a_disks_figures_are_the_mean_over_the_runs_that_give_them(void **state)
{
	/* sda in both runs; its reads in the second only (null in the first:
	 * no read to divide by); loop0 in the second alone */
	json_t *r1 = doc("{\"disks\": [{\"device\": \"sda\", \"reads_s\": 0, \"writes_s\": 100,"
			 " \"read_kib_per_request\": null, \"write_kib_per_request\": 40,"
			 " \"read_merged_pct\": null, \"write_merged_pct\": 30, \"queue_depth\": 1,"
			 " \"busy_pct\": 90}]}");
	json_t *r2 = doc("{\"disks\": [{\"device\": \"loop0\", \"writes_s\": 7},"
			 " {\"device\": \"sda\", \"reads_s\": 10, \"writes_s\": 300,"
			 " \"read_kib_per_request\": 4, \"write_kib_per_request\": 50,"
			 " \"read_merged_pct\": 20, \"write_merged_pct\": 10, \"queue_depth\": 3,"
			 " \"busy_pct\": 100}]}");
	const json_t *runs[] = { r1, r2 };
	size_t n;
	struct rundoc_disk *d = rundoc_disks(NULL, runs, 2, &n);

	(void)state;
	assert_int_equal(n, 2);
	assert_string_equal(d[0].device, "sda");
	assert_int_equal(d[0].nruns, 2);
	assert_true(d[0].fig[RUNDOC_READS_S] == 5);
	assert_true(d[0].fig[RUNDOC_WRITES_S] == 200);
	assert_true(d[0].fig[RUNDOC_READ_KIB] == 4);
	assert_true(d[0].fig[RUNDOC_WRITE_KIB] == 45);
	assert_true(d[0].fig[RUNDOC_READ_MERGED] == 20);
	assert_true(d[0].fig[RUNDOC_WRITE_MERGED] == 20);
	assert_true(d[0].fig[RUNDOC_QUEUE] == 2);
	assert_true(d[0].fig[RUNDOC_BUSY] == 95);
	assert_string_equal(d[1].device, "loop0");
	assert_int_equal(d[1].nruns, 1);
	assert_true(d[1].fig[RUNDOC_WRITES_S] == 7);
	assert_true(isnan(d[1].fig[RUNDOC_BUSY]));
	assert_ptr_equal(rundoc_disk_named(d, n, "loop0"), &d[1]);
	assert_null(rundoc_disk_named(d, n, "sdb"));
	talloc_free(d);
	json_decref(r1), json_decref(r2);
}

static void the_written_ratio_of_several_runs_is_their_bytes_pooled(void **state)
{
	/* 10 bytes of 100 and 90 of 300: 100 of 400 pooled, 0.25, not the
	 * mean of the two ratios, 0.2 */
	json_t *r1 = doc("{\"disks\": [{\"device\": \"sda\", \"clients_written_bytes\": 100,"
			 " \"written_bytes\": 10, \"written_ratio\": 0.1, \"dirty_end_bytes\": 4}]}");
	json_t *r2 = doc("{\"disks\": [{\"device\": \"sda\", \"clients_written_bytes\": 300,"
			 " \"written_bytes\": 90, \"written_ratio\": 0.3, \"dirty_end_bytes\": 8}]}");
	json_t *old = doc("{\"disks\": [{\"device\": \"sda\", \"writes_s\": 1}]}");
	const json_t *runs[] = { r1, r2, old };
	size_t n;
	struct rundoc_disk *d = rundoc_disks(NULL, runs, 2, &n);

	(void)state;
	assert_int_equal(n, 1);
	assert_true(d[0].fig[RUNDOC_CLIENTS_WRITTEN] == 200);
	assert_true(d[0].fig[RUNDOC_WRITTEN] == 50);
	assert_true(d[0].fig[RUNDOC_WRITTEN_RATIO] == 0.25);
	assert_true(d[0].fig[RUNDOC_DIRTY_END] == 6);
	talloc_free(d);
	/* a run saved before these figures gives none of them */
	d = rundoc_disks(NULL, &runs[2], 1, &n);
	assert_int_equal(n, 1);
	assert_true(isnan(d[0].fig[RUNDOC_WRITTEN_RATIO]));
	assert_true(isnan(d[0].fig[RUNDOC_CLIENTS_WRITTEN]));
	talloc_free(d);
	json_decref(r1), json_decref(r2), json_decref(old);
}

static void runs_without_disks_have_none(void **state)
{
	json_t *r = doc("{\"disks\": []}"), *old = doc("{}");
	const json_t *runs[] = { r, old };
	size_t n = 99;

	(void)state;
	assert_null(rundoc_disks(NULL, runs, 2, &n));
	assert_int_equal(n, 0);
	json_decref(r), json_decref(old);
}

static void a_disk_prints_in_iostat_columns(void **state)
{
	struct rundoc_disk d = { "sda1", { 12, 340.25, NAN, 45, NAN, 31, 2.5, 97, 631619806,
					   12345678, 12345678.0 / 631619806, 45.1e6 }, 1 };
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	rundoc_print_disk_head(f);
	fputc('\n', f);
	rundoc_print_disk(f, &d);
	fclose(f);
	assert_string_equal(text,
		"device            r/s        w/s  rareq-sz  wareq-sz   %rrqm   %wrqm  aqu-sz   %util"
		"     cli-MB     dev-MB  dev/cli  dirty-MB\n"
		"sda1             12.0      340.2         -      45.0       -    31.0    2.50    97.0"
		"      631.6       12.3    0.020      45.1");
	free(text);
}

/* A throughput below 0 or past 1e12 MB/sec is no rate: the document is
 * refused, naming the member, where compare printed a 300-digit mean and
 * a change of +inf%, or called -5 MB/sec "slower". */
static void a_throughput_that_is_no_rate_is_refused(void **state)
{
	static const char *const bad[] = { "-5", "1e308", "-0.001" };
	static const char *const good[] = { "0", "116.098", "1e12" };
	char text[256];

	for (size_t i = 0; i < 3; i++) {
		TALLOC_CTX *ctx = talloc_new(NULL);
		char *err = NULL;
		snprintf(text, sizeof(text), "{\"config\": {\"nprocs\": 1}, \"status\":"
			 " {\"exit_code\": 0}, \"result\": {\"throughput_mb_s\": %s}}", bad[i]);
		assert_null(rundoc_from_json(ctx, "x.json", doc(text), &err));
		assert_non_null(err);
		assert_string_equal(err, "'x.json' is not a dbench result: the run has a"
				    " result.throughput_mb_s that is no rate (below 0, or above"
				    " 1e12 MB/sec)");
		snprintf(text, sizeof(text), "{\"config\": {\"nprocs\": 1}, \"status\":"
			 " {\"exit_code\": 0}, \"result\": {\"throughput_mb_s\": %s}}", good[i]);
		err = NULL;
		assert_non_null(rundoc_from_json(ctx, "x.json", doc(text), &err));
		talloc_free(ctx);
	}
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nprocs_is_a_whole_number_in_range_or_0),
		cmocka_unit_test(a_throughput_that_is_no_rate_is_refused),
		cmocka_unit_test(a_run_succeeded_when_its_exit_code_is_0),
		cmocka_unit_test(the_worst_p99_is_over_every_operation_type),
		cmocka_unit_test(pooled_runs_give_the_p99_of_their_merged_histograms),
		cmocka_unit_test(runs_without_histograms_pool_the_median_of_their_own_p99s),
		cmocka_unit_test(a_histogram_that_does_not_add_up_is_not_read),
		cmocka_unit_test(a_disks_figures_are_the_mean_over_the_runs_that_give_them),
		cmocka_unit_test(the_written_ratio_of_several_runs_is_their_bytes_pooled),
		cmocka_unit_test(runs_without_disks_have_none),
		cmocka_unit_test(a_disk_prints_in_iostat_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
