/*
 * test_compare.c - "dbench compare" (compare.h), specified by example:
 * Welch's test against values derived independently (closed forms, a
 * published R example), then the reading of documents,
 * the environment differences, the verdicts and the exit status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <talloc.h>

#include "ab.h"
#include "compare_parts.h"
#include "numstat.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx
#define N(array) (sizeof(array) / sizeof((array)[0]))
/* a test with a talloc context of its own (fixture.h) */
#define T(test) cmocka_unit_test_setup_teardown(test, setup, teardown)

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (within %g)", got, want, tol);
}

/* ---- Welch's test ---- */

static void welch_with_one_df_is_the_cauchy_tail(void **state)
{
	(void)state;
	/* a has no spread, b = {11, 13} has variance 2: se = 1, t = 2, and
	 * df = (sb)^2 / (sb^2 / 1) = 1; p = 1 - 2 atan(2) / pi */
	const double a[] = { 10, 10 }, b[] = { 11, 13 };
	double t, df, p = numstat_welch(a, 2, b, 2, &t, &df);

	assert_near(t, 2, 1e-14);
	assert_near(df, 1, 1e-14);
	assert_near(p, 1 - 2 * atan(2) / M_PI, 1e-12);
}

static void welch_with_two_df_has_a_closed_form(void **state)
{
	(void)state;
	/* b = {4, 6, 8}: mean 6, variance 4, se^2 = 4/3, t = 1 / sqrt(4/3) =
	 * sqrt(3)/2, df = 2; p = 1 - |t| / sqrt(2 + t^2) = 1 - sqrt(3/11) */
	const double a[] = { 5, 5, 5 }, b[] = { 4, 6, 8 };
	double t, df, p = numstat_welch(a, 3, b, 3, &t, &df);

	assert_near(t, sqrt(3) / 2, 1e-14);
	assert_near(df, 2, 1e-14);
	assert_near(p, 1 - sqrt(3.0 / 11), 1e-12);
}

static void welch_with_four_df_has_a_closed_form(void **state)
{
	(void)state;
	/* Equal variances (1) and sizes (3): t = 3 / sqrt(2/3), df = 2 (n - 1)
	 * = 4.  For 4 df, F(t) - 1/2 = 3/8 u (1 - t^2 / (12 (1 + t^2/4))) with
	 * u = t / sqrt(1 + t^2/4); p = 1 - 2 (F(t) - 1/2), about 0.0213 */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	double t, df, p = numstat_welch(a, 3, b, 3, &t, &df);
	double tt = 3 / sqrt(2.0 / 3), w = 1 + tt * tt / 4;
	double want = 1 - 2 * (3.0 / 8 * tt / sqrt(w) * (1 - tt * tt / (12 * w)));

	assert_near(t, tt, 1e-13);
	assert_near(df, 4, 1e-13);
	assert_near(p, want, 1e-12);
	assert_near(p, 0.0213, 1e-4);
}

/* R's own example, t.test(extra ~ group, data = sleep) (Student's sleep
 * data): "t = -1.8608, df = 17.776, p-value = 0.07939, 95 percent
 * confidence interval: -3.3654832 0.2054832" for group 1 minus group 2.
 * Here B is group 2, so t and the interval change sign. */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };

static void welch_matches_r_on_the_sleep_data(void **state)
{
	(void)state;
	double t, df, p = numstat_welch(sleep1, 10, sleep2, 10, &t, &df);

	assert_near(t, 1.8608, 5e-5);
	assert_near(df, 17.776, 5e-4);
	assert_near(p, 0.07939, 5e-6);
}

static void the_interval_matches_r_on_the_sleep_data(void **state)
{
	(void)state;
	struct compare_row r;

	compare_samples(&r, sleep1, 10, sleep2, 10, 0.05, true);
	assert_true(r.tested);
	assert_near(r.ci_low, -0.2054832, 5e-7);
	assert_near(r.ci_high, 3.3654832, 5e-7);
	assert_near(r.mean_a, 0.75, 1e-12);
	assert_near(r.mean_b, 2.33, 1e-12);
	assert_int_equal(r.verdict, COMPARE_NO_CHANGE);
	/* at alpha 0.1, p = 0.079 is significant */
	compare_samples(&r, sleep1, 10, sleep2, 10, 0.1, true);
	assert_int_equal(r.verdict, COMPARE_BETTER);
}

static void identical_samples_give_p_1(void **state)
{
	(void)state;
	const double a[] = { 3, 1, 2 }, b[] = { 1, 2, 3 }, c[] = { 5, 5 };
	double t, df;

	assert_true(numstat_welch(a, 3, b, 3, &t, &df) == 1);
	assert_true(t == 0);
	assert_true(numstat_welch(c, 2, c, 2, &t, &df) == 1);
}

static void samples_without_spread_but_apart_give_p_0(void **state)
{
	(void)state;
	const double a[] = { 5, 5 }, b[] = { 6, 6, 6 };
	double t, df;

	assert_true(numstat_welch(a, 2, b, 3, &t, &df) == 0);
	assert_true(isinf(t) && t > 0);
	assert_near(df, 3, 0);
}

static void a_single_value_gives_no_test(void **state)
{
	(void)state;
	const double a[] = { 5 }, b[] = { 6, 7 };

	assert_true(isnan(numstat_welch(a, 1, b, 2, NULL, NULL)));
}

/* ---- verdicts and --fail-above ---- */

static void a_clear_drop_in_throughput_is_slower(void **state)
{
	(void)state;
	const double a[] = { 100, 101, 99 }, b[] = { 80, 81, 79 };
	struct compare_row r;

	compare_samples(&r, a, 3, b, 3, 0.05, true);
	assert_int_equal(r.verdict, COMPARE_WORSE);
	assert_near(r.change_pct, -20, 1e-12);
	assert_true(r.p < 0.001);
	assert_true(r.ci_high < 0);
	/* the slowdown's one-sided 95 % bounds: 20 -+ t(0.95, 4) * sqrt(2/3) */
	assert_near(-r.bound_high, 20 - 2.131847 * sqrt(2.0 / 3), 1e-5);
	assert_near(-r.bound_low, 20 + 2.131847 * sqrt(2.0 / 3), 1e-5);
	assert_int_equal(compare_gate(&r, 5), COMPARE_GATE_REGRESSION);
	/* 20 % is within 22 %, but not on evidence: 21.7 % cannot be ruled out */
	assert_int_equal(compare_gate(&r, 20), COMPARE_GATE_UNSURE);
	assert_int_equal(compare_gate(&r, 22), COMPARE_GATE_OK);
}

static void a_lower_latency_is_better(void **state)
{
	(void)state;
	const double a[] = { 2.0, 2.1, 1.9 }, b[] = { 1.0, 1.1, 0.9 };
	struct compare_row r;

	compare_samples(&r, a, 3, b, 3, 0.05, false);
	assert_int_equal(r.verdict, COMPARE_BETTER);
	compare_samples(&r, b, 3, a, 3, 0.05, false);
	assert_int_equal(r.verdict, COMPARE_WORSE);
}

static void noise_is_no_significant_change_and_never_fails(void **state)
{
	(void)state;
	/* 30 % lower on average, but the spread swamps it */
	const double a[] = { 100, 40, 160 }, b[] = { 70, 20, 120 };
	struct compare_row r;

	compare_samples(&r, a, 3, b, 3, 0.05, true);
	assert_int_equal(r.verdict, COMPARE_NO_CHANGE);
	assert_true(r.ci_low < 0 && r.ci_high > 0);
	/* no verdict of slower, and no evidence of within 5 % either */
	assert_int_equal(compare_gate(&r, 5), COMPARE_GATE_UNSURE);
	assert_true(-r.bound_low > 100);
}

static void single_runs_are_untested_and_never_fail(void **state)
{
	(void)state;
	const double a[] = { 100 }, b[] = { 94 }, c[] = { 100 }, d[] = { 90, 91 };
	struct compare_row r;

	/* a 6 % drop seen once is no verdict: the noise of one run is unknown */
	compare_samples(&r, a, 1, b, 1, 0.05, true);
	assert_false(r.tested);
	assert_true(isnan(r.p));
	assert_int_equal(r.verdict, COMPARE_UNTESTED);
	assert_near(r.change_pct, -6, 1e-12);
	assert_int_equal(compare_gate(&r, 0), COMPARE_GATE_UNSURE);
	assert_int_equal(compare_gate(&r, 50), COMPARE_GATE_UNSURE);
	assert_int_equal(compare_gate_runs(&r, 5, 0.05), 0);
	compare_samples(&r, a, 1, c, 1, 0.05, true);
	assert_int_equal(r.verdict, COMPARE_UNTESTED);
	compare_samples(&r, b, 1, a, 1, 0.05, true);
	assert_int_equal(r.verdict, COMPARE_UNTESTED);
	/* two runs against one: still no test */
	compare_samples(&r, a, 1, d, 2, 0.05, true);
	assert_false(r.tested);
	assert_int_equal(r.verdict, COMPARE_UNTESTED);
	assert_int_equal(compare_gate(&r, 0), COMPARE_GATE_UNSURE);
}

/* ---- how much evidence ---- */

static void the_gate_passes_on_evidence_only(void **state)
{
	(void)state;
	/* equal sides, 8 runs each of CV 0.5 %: a 5 % slowdown is ruled out */
	const double a[] = { 100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1 };
	const double b[] = { 100.3, 99.6, 100.4, 99.9, 100.1, 100.6, 99.7, 100 };
	/* issue 44's series: CV 55 %, a 95 % interval of B-A of +-85 */
	const double c[] = { 40, 190, 95, 170, 65 }, d[] = { 35, 180, 60, 165, 90 };
	/* equal means, CV 10 %, 3 runs: more runs would tell, about how many */
	const double e[] = { 100, 110, 90 }, f[] = { 101, 111, 91 };
	struct compare_row r;

	compare_samples(&r, a, 8, b, 8, 0.05, true);
	assert_int_equal(compare_gate(&r, 5), COMPARE_GATE_OK);
	assert_true(-r.bound_low < 1);
	compare_samples(&r, c, 5, d, 5, 0.05, true);
	assert_int_equal(r.verdict, COMPARE_NO_CHANGE);
	assert_int_equal(compare_gate(&r, 5), COMPARE_GATE_UNSURE);
	assert_true(-r.bound_low > 70);
	/* beyond a sensible number of runs at that spread */
	assert_int_equal(compare_gate_runs(&r, 5, 0.05), 0);
	compare_samples(&r, e, 3, f, 3, 0.05, true);
	assert_int_equal(compare_gate(&r, 10), COMPARE_GATE_UNSURE);
	/* the bound falls below 10 % at 7 runs a side: t(0.95, 12) * 14.2 *
	 * sqrt(1/7) = 9.5 - 1 % faster seen; 6: t(0.95, 10) * 14.2 * sqrt(1/6)
	 * = 10.5 */
	size_t n = compare_gate_runs(&r, 10, 0.05);
	assert_true(n >= 4 && n <= 8);
	/* the machine's doubt turns a regression into the load's inconclusive */
	const double g[] = { 100, 101, 99 }, h[] = { 80, 81, 79 };
	compare_samples(&r, g, 3, h, 3, 0.05, true);
	r.doubt = COMPARE_DOUBT_HOST;
	assert_int_equal(compare_gate(&r, 5), COMPARE_GATE_LOAD);
}

/* ---- documents ---- */

/* A run as --json writes it, cut down to what compare reads. */
static json_t *run_doc(int nprocs, double mb_s, int exit_code)
{
	return json_pack("{s:s, s:{s:i, s:s, s:i, s:i, s:i, s:b, s:b, s:b, s:b, s:b, s:n, s:s, s:b},"
			 " s:{s:s, s:{s:s, s:s, s:s, s:s}, s:{s:s, s:i}, s:I,"
			 "    s:[{s:s, s:s, s:s, s:{s:s, s:i, s:i, s:i}}],"
			 "    s:{s:i, s:i, s:i, s:i, s:i, s:i}},"
			 " s:{s:f}, s:{s:{s:f}, s:{s:f}}, s:{s:i}}",
		"dbench_version", "0.1.0",
		"config", "nprocs", nprocs, "loadfile_sha256", "beef", "clients_per_process", 1,
		"timelimit_s", 600, "warmup_s", 0, "run_once", 1, "sync", 0, "sync_dir", 0,
		"fsync", 0, "xattr", 0, "target_rate_mb_s", "backend", "fileio", "verify", 0,
		"environment", "hostname", "vm",
		"kernel", "sysname", "Linux", "release", "6.1.0", "version", "#1 SMP",
		"machine", "x86_64",
		"cpu", "model", "Xeon", "count", 2, "memory_bytes", (json_int_t)1 << 34,
		"targets", "directory", "/tmp/d", "fstype", "ext4", "mount_options", "rw,relatime",
		"queue", "scheduler", "mq-deadline", "read_ahead_kb", 128, "nr_requests", 256,
		"rotational", 0,
		"vm", "dirty_ratio", 20, "dirty_background_ratio", 10,
		"dirty_expire_centisecs", 3000, "dirty_writeback_centisecs", 500,
		"swappiness", 60, "vfs_cache_pressure", 100,
		"result", "throughput_mb_s", mb_s,
		"ops", "ReadX", "p99_ms", mb_s / 100, "WriteX", "p99_ms", 1.0,
		"status", "exit_code", exit_code);
}

static json_t *sweep_doc(size_t n, const int *nprocs, const double *mb_s, const int *codes)
{
	json_t *runs = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, run_doc(nprocs[i], mb_s[i], codes ? codes[i] : 0));
	return json_pack("{s:{}, s:o, s:[]}", "sweep", "runs", runs, "summary");
}

static struct rundoc *set_of(void **state, const char *name, json_t *doc)
{
	char *err = NULL;
	struct rundoc *set = rundoc_from_json(ctx_of(state), name, doc, &err);

	if (!set)
		fail_msg("%s", err);
	return set;
}

static char *load_error(void **state, json_t *doc)
{
	char *err = NULL;

	assert_null(rundoc_from_json(ctx_of(state), "x.json", doc, &err));
	assert_non_null(err);
	return err;
}

static void a_single_run_is_one_group_at_its_nprocs(void **state)
{
	struct rundoc *s = set_of(state, "a.json", run_doc(4, 123.5, 0));

	assert_false(s->sweep);
	assert_int_equal(s->nruns, 1);
	assert_int_equal(s->nignored, 0);
	assert_int_equal(s->ngroups, 1);
	assert_int_equal(s->groups[0].nprocs, 4);
	assert_int_equal(s->groups[0].nruns, 1);
	assert_near(s->groups[0].mb_s[0], 123.5, 0);
	assert_ptr_equal(s->first, s->doc);
}

static void a_sweep_is_grouped_by_nprocs_without_its_failed_runs(void **state)
{
	const int np[] = { 4, 1, 4, 2, 1, 4 };
	const double mb[] = { 40, 10, 41, 20, 11, 42 };
	const int codes[] = { 0, 0, 0, 1, 0, 130 };
	struct rundoc *s = set_of(state, "sweep.json", sweep_doc(6, np, mb, codes));

	assert_true(s->sweep);
	assert_int_equal(s->nruns, 6);
	assert_int_equal(s->nignored, 2);
	assert_int_equal(s->ngroups, 2);
	assert_int_equal(s->groups[0].nprocs, 1);
	assert_int_equal(s->groups[0].nruns, 2);
	assert_near(s->groups[0].mb_s[0], 10, 0);
	assert_near(s->groups[0].mb_s[1], 11, 0);
	assert_int_equal(s->groups[1].nprocs, 4);
	assert_int_equal(s->groups[1].nruns, 2);
	assert_near(s->groups[1].mb_s[1], 41, 0);
	/* each run keeps its place in "runs" */
	assert_int_equal(s->groups[0].index[0], 1);
	assert_int_equal(s->groups[0].index[1], 4);
	assert_int_equal(s->groups[1].index[1], 2);
	assert_null(rundoc_group_of(s, 2));
	assert_ptr_equal(s->first, json_array_get(json_object_get(s->doc, "runs"), 0));
}

static void a_set_leaves_nothing_behind_when_freed(void **state)
{
	json_t *doc = run_doc(1, 10, 0);
	struct rundoc *s;

	json_incref(doc);
	s = set_of(state, "a.json", doc);
	talloc_free(s);
	assert_int_equal(talloc_total_blocks(ctx_of(state)), 1);
	assert_int_equal(doc->refcount, 1);
	json_decref(doc);
	/* and when it is refused */
	load_error(state, json_pack("[]"));
	talloc_free_children(ctx_of(state));
	assert_int_equal(talloc_total_blocks(ctx_of(state)), 1);
}

static void documents_that_are_not_results_are_refused_with_the_reason(void **state)
{
	json_t *no_nprocs = run_doc(1, 10, 0);
	json_t *bad_run = sweep_doc(0, NULL, NULL, NULL);
	const int np[] = { 1, 1 };
	const double mb[] = { 10, 10 };
	const int failed[] = { 1, 1 };

	json_object_del(json_object_get(no_nprocs, "config"), "nprocs");
	json_array_append_new(json_object_get(bad_run, "runs"), run_doc(2, 1, 0));
	json_array_append_new(json_object_get(bad_run, "runs"), json_pack("{s:{}}", "config"));

	assert_string_equal(load_error(state, json_pack("[1]")),
			    "'x.json' is not a dbench result: not a JSON object");
	assert_string_equal(load_error(state, json_pack("{s:i}", "a", 1)),
			    "'x.json' is not a dbench result: neither \"config\" nor \"runs\" at the top");
	assert_string_equal(load_error(state, no_nprocs),
			    "'x.json' is not a dbench result: the run has no config.nprocs");
	assert_string_equal(load_error(state, bad_run),
			    "'x.json' is not a dbench result: runs[1] has no config.nprocs");
	assert_string_equal(load_error(state, sweep_doc(0, NULL, NULL, NULL)),
			    "'x.json' is not a dbench result: \"runs\" is empty");
	assert_string_equal(load_error(state, sweep_doc(2, np, mb, failed)),
			    "'x.json' has no successful run (2 failed or without a throughput)");
}

static void files_that_cannot_be_read_or_parsed_are_named(void **state)
{
	const char *dir = fixture_scratch_dir(state, "test_compare");
	char *missing = talloc_asprintf(ctx_of(state), "%s/missing.json", dir);
	char *garbage = talloc_asprintf(ctx_of(state), "%s/garbage.json", dir);
	char *err = NULL;
	FILE *f = fopen(garbage, "w");

	assert_non_null(f);
	fputs("Throughput 12 MB/sec\n", f);
	fclose(f);
	assert_null(rundoc_load(ctx_of(state), missing, &err));
	assert_string_equal(err, talloc_asprintf(ctx_of(state),
			    "cannot read '%s': No such file or directory", missing));
	assert_null(rundoc_load(ctx_of(state), garbage, &err));
	assert_true(strncmp(err, talloc_asprintf(ctx_of(state), "'%s' is not JSON: ", garbage),
			    strlen(garbage) + 16) == 0);
	assert_non_null(strstr(err, " (line 1, column "));
	assert_null(rundoc_load(ctx_of(state), dir, &err));
	assert_string_equal(err, talloc_asprintf(ctx_of(state),
			    "cannot read '%s': Is a directory", dir));
}

/* ---- environments ---- */

static void identical_environments_have_no_differences(void **state)
{
	struct rundoc *a = set_of(state, "a", run_doc(1, 10, 0));
	struct rundoc *b = set_of(state, "b", run_doc(2, 20, 0));

	/* nprocs is set aside: it is what the tables are by */
	assert_string_equal(compare_env_diff(ctx_of(state), a, b), "");
}

static void each_differing_setting_is_named_with_both_values(void **state)
{
	json_t *db = run_doc(1, 10, 0);
	json_t *env = json_object_get(db, "environment");
	json_t *target = json_array_get(json_object_get(env, "targets"), 0);
	struct rundoc *a = set_of(state, "a", run_doc(1, 10, 0)), *b;

	json_object_set_new(json_object_get(env, "kernel"), "release", json_string("6.2.0"));
	json_object_set_new(target, "mount_options", json_string("rw,noatime"));
	json_object_set_new(json_object_get(target, "queue"), "scheduler", json_string("none"));
	json_object_set_new(json_object_get(target, "queue"), "read_ahead_kb", json_null());
	json_object_set_new(json_object_get(env, "vm"), "dirty_ratio", json_integer(40));
	json_object_set_new(json_object_get(env, "cpu"), "count", json_integer(8));
	json_object_set_new(json_object_get(db, "config"), "fsync", json_true());
	json_object_set_new(json_object_get(db, "config"), "target_rate_mb_s", json_real(2.5));
	json_object_del(json_object_get(db, "config"), "backend");
	json_object_set_new(json_object_get(db, "config"), "verify", json_true());
	b = set_of(state, "b", db);

	assert_string_equal(compare_env_diff(ctx_of(state), a, b),
		"  kernel.release: 6.1.0 -> 6.2.0\n"
		"  cpu.count: 2 -> 8\n"
		"  targets[0].mount_options: rw,relatime -> rw,noatime\n"
		"  targets[0].queue.scheduler: mq-deadline -> none\n"
		"  targets[0].queue.read_ahead_kb: 128 -> null\n"
		"  vm.dirty_ratio: 20 -> 40\n"
		"  config.fsync: false -> true\n"
		"  config.target_rate_mb_s: null -> 2.5\n"
		"  config.backend: fileio -> (absent)\n"
		"  config.verify: false -> true\n");
}

static void a_differing_setting_is_named_once(void **state)
{
	json_t *db = run_doc(1, 10, 0);
	struct rundoc *a = set_of(state, "a", run_doc(1, 10, 0)), *b;

	json_object_set_new(json_object_get(db, "config"), "cpus", json_pack("[i]", 0));
	b = set_of(state, "b", db);
	assert_string_equal(compare_env_diff(ctx_of(state), a, b),
			    "  config.cpus: (absent) -> [0]\n");
}

static void a_different_number_of_targets_is_named(void **state)
{
	json_t *db = run_doc(1, 10, 0);
	json_t *targets = json_object_get(json_object_get(db, "environment"), "targets");
	struct rundoc *a = set_of(state, "a", run_doc(1, 10, 0)), *b;

	json_array_append(targets, json_array_get(targets, 0));
	b = set_of(state, "b", db);
	assert_string_equal(compare_env_diff(ctx_of(state), a, b), "  targets: 1 -> 2\n");
}

static void a_sweep_speaks_through_its_first_successful_run(void **state)
{
	const int np[] = { 1, 1 };
	const double mb[] = { 10, 10 };
	const int codes[] = { 1, 0 };
	json_t *da = sweep_doc(2, np, mb, codes);
	json_t *failed = json_array_get(json_object_get(da, "runs"), 0);
	struct rundoc *a, *b = set_of(state, "b", run_doc(1, 10, 0));

	json_object_set_new(json_object_get(json_object_get(failed, "environment"), "kernel"),
			    "release", json_string("5.0"));
	a = set_of(state, "a", da);
	assert_string_equal(compare_env_diff(ctx_of(state), a, b), "");
}

/* ---- the report and its exit status ---- */

/* The report on documents docs[0 .. n), the first the baseline, into
 * *text (to be freed); its exit status. */
static int report_of_n(void **state, json_t **docs, size_t n, double fail_above, bool all,
		       char **text)
{
	const struct rundoc *sets[COMPARE_MAX_DOCS];
	struct compare_options opt = { .alpha = 0.05, .fail_above = fail_above, .all = all };
	size_t len;
	FILE *f = open_memstream(text, &len);
	int rc;

	assert_non_null(f);
	for (size_t k = 0; k < n; k++) {
		sets[k] = set_of(state, talloc_asprintf(ctx_of(state), "%s.json", compare_label(k)),
				 docs[k]);
		assert_int_not_equal(compare_common(sets[0], sets[k]), 0);
	}
	rc = compare_report(f, sets, n, &opt);
	fclose(f);
	return rc;
}

static int report_of(void **state, json_t *da, json_t *db, double fail_above, char **text)
{
	json_t *docs[] = { da, db };

	return report_of_n(state, docs, 2, fail_above, false, text);
}

static void a_significant_drop_beyond_the_limit_exits_3(void **state)
{
	const int np[] = { 1, 1, 1, 2, 2, 2 };
	const double ma[] = { 100, 101, 99, 200, 201, 199 };
	const double mb[] = { 80, 81, 79, 200, 202, 198 };
	char *text = NULL;

	assert_int_equal(report_of(state, sweep_doc(6, np, ma, NULL), sweep_doc(6, np, mb, NULL),
				   5, &text), EXIT_SLOWER);
	assert_non_null(strstr(text, "Environments: no differences\n"));
	assert_non_null(strstr(text, "     1       3/3     100.000      80.000   -20.00%"));
	assert_non_null(strstr(text, "slower\n"));
	assert_non_null(strstr(text, "no significant change\n"));
	assert_non_null(strstr(text, "\nRegression: B is slower than A by more than 5% at nprocs 1\n"));
	assert_null(strstr(text, "FAILED"));
	free(text);
}

static void a_drop_within_the_limit_exits_0(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 101, 99 }, mb[] = { 80, 81, 79 };
	char *text = NULL;

	/* 20 % slower, at most 21.7 % by the one-sided bound: within 25 % */
	assert_int_equal(report_of(state, sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL),
				   25, &text), 0);
	assert_non_null(strstr(text, "\nOK: B is nowhere slower than A by more than 25% (at most"
				     " 21.7% slower, by the one-sided 95% bound)\n"));
	free(text);
	/* without --fail-above there is no exit status to earn */
	assert_int_equal(report_of(state, sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL),
				   -1, &text), 0);
	assert_null(strstr(text, "OK:"));
	free(text);
}

static void a_noisy_drop_is_inconclusive_however_large(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 40, 160 }, mb[] = { 70, 20, 120 };
	char *text = NULL;

	/* neither shown beyond 5 % nor ruled out: no OK on no evidence */
	assert_int_equal(report_of(state, sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL),
				   5, &text), EXIT_INCONCLUSIVE);
	/* the 30 % seen would be shown beyond 5 % with about 28 runs a side */
	assert_non_null(strstr(text, "\nInconclusive: the runs cannot rule out a slowdown of B of up"
				     " to 100.0% at nprocs 1 (need about 28 runs a side at this"
				     " spread, CV 71.4%)\n"));
	assert_null(strstr(text, "OK:"));
	free(text);
}

static void runs_that_move_no_bytes_have_no_interval_in_percent_but_are_not_one_run(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double zero[] = { 0, 0, 0 };
	char *text = NULL;

	assert_int_equal(report_of(state, sweep_doc(3, np, zero, NULL), sweep_doc(3, np, zero, NULL),
				   -1, &text), 0);
	assert_non_null(strstr(text, "     1  0.000, no interval in % of a mean of 0 (3 runs)"));
	assert_null(strstr(text, "(1 run)"));
	free(text);
}

static void single_runs_never_exit_3_nor_pass_however_large_the_drop(void **state)
{
	char *text = NULL;

	assert_int_equal(report_of(state, run_doc(2, 100, 0), run_doc(2, 50, 0), 5, &text),
			 EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "-50.00%"));
	assert_non_null(strstr(text, "untested (1 run a side)\n"
				     "  (1 row untested: a side has a single run there, and a test"
				     " needs 2 runs a side at least (--repeat=2))\n"));
	/* the latency rows could not be tested either: said so, not as a
	 * finding of no change */
	assert_non_null(strstr(text, "rows could be tested: a side has a single run there, and a"
				     " test needs 2 runs a side at least (--repeat=2); --all shows"
				     " them)\n"));
	assert_null(strstr(text, "no significant change in any"));
	assert_non_null(strstr(text, "\nInconclusive: the runs cannot rule out a slowdown of B at"
				     " nprocs 2 (a side has a single run, no spread to judge by:"
				     " --repeat=3 at least)\n"));
	assert_null(strstr(text, "OK:"));
	free(text);
	/* nor one run against three */
	const int np[] = { 2, 2, 2 };
	const double mb[] = { 50, 51, 49 };
	assert_int_equal(report_of(state, run_doc(2, 100, 0), sweep_doc(3, np, mb, NULL), 5, &text),
			 EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "untested (1 run of A)\n"));
	free(text);
}

static void latency_rows_follow_the_operation_table(void **state)
{
	char *text = NULL;

	/* ReadX p99 is mb_s / 100: 1 ms in A, 2 ms in B; untested, so shown
	 * only with --all */
	json_t *docs[] = { run_doc(3, 100, 0), run_doc(3, 200, 0) };
	report_of_n(state, docs, 2, -1, true, &text);
	assert_non_null(strstr(text, "p99 latency, ms (lower is better)\n"));
	const char *w = strstr(text, "     3  WriteX  "), *r = strstr(text, "     3  ReadX  ");
	assert_non_null(w);
	assert_non_null(r);
	assert_true(w < r);
	assert_non_null(strstr(r, "+100.00%"));
	assert_non_null(strstr(r, "untested (1 run a side)\n"));
	assert_non_null(strstr(r, " rows untested: a side has a single run there, and a test"
				  " needs 2 runs a side at least (--repeat=2))\n"));
	free(text);
}

static void significant_p99_rows_alone_without_all(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 101, 99 }, mb[] = { 200, 202, 198 };
	json_t *docs[] = { sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL) };
	char *text = NULL;

	/* ReadX p99 doubles (mb_s / 100); WriteX stays at 1 ms */
	report_of_n(state, docs, 2, -1, false, &text);
	assert_non_null(strstr(text, "     1  ReadX  "));
	assert_null(strstr(text, "     1  WriteX  "));
	assert_non_null(strstr(text, "\n  (1 row without a significant change left out: --all shows"
				     " them)\n"));
	free(text);
}

/* The report (to be freed) on two sweeps of two runs at one client count:
 * A's throughputs a0 and a1, B's b0 and b1. */
static char *two_run_report(void **state, double a0, double a1, double b0, double b1)
{
	const int np[] = { 1, 1 };
	const double ma[] = { a0, a1 }, mb[] = { b0, b1 };
	json_t *docs[] = { sweep_doc(2, np, ma, NULL), sweep_doc(2, np, mb, NULL) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	return text;
}

static void two_runs_a_side_are_weak_evidence_with_the_runs_needed(void **state)
{
	char *text = two_run_report(state, 100, 60, 30, 28);

	/* 386 runs a side would tell 5 %: beyond what a person can run */
	assert_non_null(strstr(text, "\nWarning: weak evidence at nprocs 1 (B against A): 2 runs of A"
				     " and 2 of B (fewer than 3 a side); CV 35.4% in A (above 10%);"
				     " at CV 35.4%, --repeat=4 for a 95% interval of B-A within the"
				     " 63.7% seen; more than 30 runs a side would be needed for one"
				     " within +-5% of A's mean: reduce the spread first (a longer -t,"
				     " a quiet machine, the clients pinned with --cpus, a fresh file"
				     " system before each run: REPEATABLE FIGURES in dbench(1))\n"));
	assert_null(strstr(text, "386"));
	assert_non_null(strstr(text, "\nVerdict: B against A: no significant change at nprocs 1;"
				     " 1 warning above\n"));
	assert_null(strstr(text, "Evidence:"));
	free(text);
}

static void a_single_run_shows_no_spread(void **state)
{
	json_t *docs[] = { run_doc(2, 100, 0), run_doc(2, 94, 0) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	assert_non_null(strstr(text, "\nWarning: weak evidence at nprocs 2 (B against A): 1 run of A"
				     " and 1 of B (fewer than 3 a side); a single run shows no"
				     " spread: --repeat=3 at least\n"));
	assert_non_null(strstr(text, "\nVerdict: B against A: untested (a side of 1 run) at"
				     " nprocs 2; 1 warning above\n"));
	free(text);
}

static void the_change_seen_is_named_only_where_it_needs_fewer_runs(void **state)
{
	/* CVs 0.7 % and 1.4 %: 3 runs a side tell 5 %, and so the 50 % seen too */
	char *text = two_run_report(state, 100, 101, 50, 51);

	assert_non_null(strstr(text, "; at CV 1.4%, --repeat=3 for a 95% interval of B-A within"
				     " +-5% of A's mean\n"));
	free(text);
}

static void a_throughput_of_0_gives_no_cv_to_go_by(void **state)
{
	/* a loadfile of metadata alone moves no bytes: 0 MB/sec on each run */
	char *text = two_run_report(state, 0, 0, 0, 0);

	assert_non_null(strstr(text, "\nWarning: weak evidence at nprocs 1 (B against A): 2 runs of A"
				     " and 2 of B (fewer than 3 a side); no CV to go by (one run, or a"
				     " mean of 0, a side): --repeat=3 at least\n"));
	free(text);
}

static void an_outlier_is_named_by_its_place_in_its_file(void **state)
{
	const int np[] = { 1, 2, 1, 1, 1, 1 };
	const double ma[] = { 100, 50, 102, 98, 101, 52 }, mb[] = { 100, 50, 101, 99, 100, 100 };
	json_t *docs[] = { sweep_doc(6, np, ma, NULL), sweep_doc(6, np, mb, NULL) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	assert_non_null(strstr(text, "\nWarning: outlier at nprocs 1: runs[5] of A.json (A), 52.000"
				     " MB/sec, 16.2 MADs from the median 100.000 of its 5 runs\n"));
	free(text);
}

static void three_runs_are_too_few_for_the_outlier_rule(void **state)
{
	/* 100 101 130: the MAD (1) would make 130 an outlier of 29 MADs; of
	 * three runs that says only that the third is not between the others */
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 101, 130 }, mb[] = { 100, 101, 102 };
	json_t *docs[] = { sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	assert_null(strstr(text, "outlier at"));
	assert_non_null(strstr(text, "\nOutliers: not looked for where a side has fewer than 5"
				     " runs (the median distance of 3 runs is the gap between the"
				     " two closest)\n"));
	free(text);
}

/* ---- disks ---- */

/* Gives every run of doc one device, sda, with writes of kib KiB each,
 * merged % of them merged, busy % of the time busy. */
static json_t *with_disk(json_t *doc, double kib, double merged, double busy)
{
	size_t i;
	json_t *run;

	json_array_foreach(json_object_get(doc, "runs"), i, run)
		json_object_set_new(run, "disks", json_pack("[{s:s, s:f, s:f, s:n, s:f, s:n, s:f,"
							     " s:f, s:f}]", "device", "sda",
							     "reads_s", 0.0, "writes_s", 100.0 + i,
							     "read_kib_per_request",
							     "write_kib_per_request", kib + i,
							     "read_merged_pct",
							     "write_merged_pct", merged,
							     "queue_depth", 1.5, "busy_pct", busy));
	return doc;
}

static void each_sides_disks_are_shown_under_each_other(void **state)
{
	const int np[] = { 1, 1 };
	const double ma[] = { 100, 101 }, mb[] = { 80, 81 };
	/* A writes 45 and 46 KiB, B 12 and 13 KiB a request: a mean of 45.5
	 * against 12.5 */
	json_t *docs[] = { with_disk(sweep_doc(2, np, ma, NULL), 45, 31, 97),
			   with_disk(sweep_doc(2, np, mb, NULL), 12, 2, 60) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	assert_non_null(strstr(text,
		"\nDisks, the mean over each side's runs (as iostat -x: requests a second, KiB a"
		" request, % of requests merged, mean queue, % of time busy; then MB the clients"
		" wrote beneath it, MB it wrote, the one over the other, MB dirty in the page"
		" cache at the end)\n"
		"nprocs  side  device            r/s        w/s  rareq-sz  wareq-sz   %rrqm   %wrqm"
		"  aqu-sz   %util     cli-MB     dev-MB  dev/cli  dirty-MB\n"
		"     1  A     sda               0.0      100.5         -      45.5       -    31.0"
		"    1.50    97.0          -          -        -         -\n"
		"     1  B     sda               0.0      100.5         -      12.5       -     2.0"
		"    1.50    60.0          -          -        -         -\n"));
	/* runs saved without the writeback figures: no writeback table */
	assert_null(strstr(text, "Writeback"));
	free(text);
	/* without a device on either side, no such table */
	json_t *bare[] = { sweep_doc(2, np, ma, NULL), sweep_doc(2, np, mb, NULL) };
	report_of_n(state, bare, 2, -1, false, &text);
	assert_null(strstr(text, "Disks"));
	free(text);
}

/* Gives run i of doc's device sda the clients' writes of 100 MB and the
 * device's of ratio[i] of them. */
static json_t *with_writeback(json_t *doc, const double *ratio)
{
	size_t i;
	json_t *run;

	json_array_foreach(json_object_get(doc, "runs"), i, run)
		json_object_set_new(run, "disks", json_pack("[{s:s, s:f, s:f, s:f, s:f}]",
			"device", "sda", "clients_written_bytes", 100e6,
			"written_bytes", ratio[i] * 100e6, "written_ratio", ratio[i],
			"dirty_end_bytes", 5e6));
	return doc;
}

static void the_written_ratio_is_tested_run_by_run(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 101, 99 }, mb[] = { 80, 81, 79 };
	/* A's deletes beat writeback (a tenth reaches the disk), B's do not */
	const double ra[] = { 0.10, 0.12, 0.11 }, rb[] = { 0.95, 0.97, 0.96 };
	json_t *docs[] = { with_writeback(sweep_doc(3, np, ma, NULL), ra),
			   with_writeback(sweep_doc(3, np, mb, NULL), rb) };
	char *text = NULL;

	report_of_n(state, docs, 2, -1, false, &text);
	assert_non_null(strstr(text,
		"\nWriteback: bytes each device wrote over those the clients wrote beneath it"
		" (dev/cli), run by run\n"
		"nprocs  device      runs A/B   dev/cli A   dev/cli B     change        t      df"
		"        p  verdict\n"
		"     1  sda              3/3        0.11        0.96    +772.7%  104.103    4.00"
		"  <0.0001  higher\n"
		"  (higher: more of what the clients wrote reached the device, or more besides it:"
		" the file system's own writes, another program's)\n"));
	/* the disks table pools the bytes: 11 of 100 MB, 96 of 100 MB */
	assert_non_null(strstr(text, "     100.0       11.0    0.110       5.0\n"));
	free(text);
	/* one run a side: the rows untested, and what a test needs */
	const int one[] = { 1 };
	json_t *single[] = { with_writeback(sweep_doc(1, one, ma, NULL), ra),
			     with_writeback(sweep_doc(1, one, mb, NULL), rb) };
	report_of_n(state, single, 2, -1, false, &text);
	assert_non_null(strstr(text, "     1  sda              1/1         0.1        0.95    +850.0%"
				     "        -       -        -  untested (1 run a side)\n"
				     "  (1 row untested: a side has a single run there, and a test"
				     " needs 2 runs a side at least (--repeat=2))\n"));
	free(text);
	/* nothing reached the device in A's run: no change from 0 is shown
	 * (it read "+inf%") */
	const double none[] = { 0 };
	json_t *from0[] = { with_writeback(sweep_doc(1, one, ma, NULL), none),
			    with_writeback(sweep_doc(1, one, mb, NULL), rb) };
	report_of_n(state, from0, 2, -1, false, &text);
	assert_non_null(strstr(text, "     1  sda              1/1           0        0.95          -"
				     "        -       -        -  untested (1 run a side)\n"));
	assert_null(strstr(text, "inf"));
	free(text);
}

/* ---- three documents or more ---- */

static void each_document_is_judged_against_the_first(void **state)
{
	const int np[] = { 1, 1, 1, 2, 2, 2 };
	const double ma[] = { 100, 101, 99, 200, 201, 199 };
	const double mb[] = { 80, 81, 79, 200, 202, 198 };
	const double mc[] = { 100, 102, 98, 150, 151, 149 };
	json_t *docs[] = { sweep_doc(6, np, ma, NULL), sweep_doc(6, np, mb, NULL),
			   sweep_doc(6, np, mc, NULL) };
	char *text = NULL;

	assert_int_equal(report_of_n(state, docs, 3, 5, false, &text), EXIT_SLOWER);
	assert_non_null(strstr(text, "A: A.json (sweep, 6 runs at nprocs 1 2)\n"
				     "B: B.json (sweep, 6 runs at nprocs 1 2)\n"
				     "C: C.json (sweep, 6 runs at nprocs 1 2)\n"));
	assert_non_null(strstr(text, "Environments: no differences (A -> B)\n"));
	assert_non_null(strstr(text, "Environments: no differences (A -> C)\n"));
	/* per client count: every document's mean, high, low, and against A */
	assert_non_null(strstr(text, "\n     1  A        3     100.000     101.000      99.000"
				     "         -        -  -                         baseline\n"
				     "     1  B        3      80.000      81.000      79.000"
				     "   -20.00%  <0.0001  [-22.267, -17.733]        slower\n"
				     "     1  C        3     100.000     102.000      98.000"
				     "    +0.00%   1.0000  [-4.155, 4.155]           no significant"
				     " change\n"
				     "     2  A        3     200.000     201.000     199.000"));
	assert_non_null(strstr(text, "\n     2  C        3     150.000     151.000     149.000"
				     "   -25.00%  <0.0001"));
	/* --fail-above: B at 1 client, C at 2 */
	assert_non_null(strstr(text, "\nRegression: B is slower than A by more than 5% at nprocs 1\n"
				     "Regression: C is slower than A by more than 5% at nprocs 2\n"));
	assert_non_null(strstr(text, "\nVerdict: B against A: slower at nprocs 1, no significant"
				     " change at 2; C against A: slower at nprocs 2, no significant"
				     " change at 1\n"));
	free(text);
}

static void no_document_slower_beyond_the_limit_exits_0(void **state)
{
	const int np[] = { 1, 1, 1 };
	const double ma[] = { 100, 101, 99 }, mb[] = { 99, 100, 98 }, mc[] = { 110, 111, 109 };
	json_t *docs[] = { sweep_doc(3, np, ma, NULL), sweep_doc(3, np, mb, NULL),
			   sweep_doc(3, np, mc, NULL), run_doc(1, 100, 0) };
	char *text = NULL;

	/* B 1 % slower, at most 2.7 % by the one-sided bound; C faster */
	for (size_t k = 0; k < 4; k++)
		json_incref(docs[k]);	/* each report takes its own */
	assert_int_equal(report_of_n(state, docs, 3, 5, false, &text), EXIT_OK);
	json_decref(docs[3]);
	assert_non_null(strstr(text, "\nOK: B and C are nowhere slower than A by more than 5% (at"
				     " most 2.7% slower, by the one-sided 95% bound)\n"));
	free(text);
	/* D, a single run, rules nothing out */
	assert_int_equal(report_of_n(state, docs, 4, 5, false, &text), EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "     1  D        1     100.000     100.000     100.000"));
	assert_non_null(strstr(text, "\nInconclusive: the runs cannot rule out a slowdown of D at"
				     " nprocs 1 (a side has a single run"));
	assert_null(strstr(text, "OK:"));
	free(text);
}

/* ---- dbench ab's order ---- */

static void ab_order_is_a_b_b_a_counterbalanced(void **state)
{
	unsigned char o[10];
	const unsigned char want[10] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 };

	(void)state;
	ab_order(o, 5, false, 0);
	assert_memory_equal(o, want, sizeof(want));
}

static void ab_order_at_random_is_a_pair_at_a_time_and_the_seed_repeats_it(void **state)
{
	unsigned char o[200], again[200];
	unsigned first_b = 0;

	(void)state;
	ab_order(o, 100, true, 42);
	ab_order(again, 100, true, 42);
	assert_memory_equal(o, again, sizeof(o));
	for (int pair = 0; pair < 100; pair++) {
		assert_true(o[2 * pair] != o[2 * pair + 1]);
		first_b += o[2 * pair];
	}
	/* a fair coin: 100 pairs land far from all one way */
	assert_true(first_b > 25 && first_b < 75);
	ab_order(again, 100, true, 43);
	assert_memory_not_equal(o, again, sizeof(o));
}

static void the_labels_run_from_a_to_z(void **state)
{
	(void)state;
	assert_string_equal(compare_label(0), "A");
	assert_string_equal(compare_label(2), "C");
	assert_string_equal(compare_label(COMPARE_MAX_DOCS - 1), "Z");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(welch_with_one_df_is_the_cauchy_tail),
		cmocka_unit_test(welch_with_two_df_has_a_closed_form),
		cmocka_unit_test(welch_with_four_df_has_a_closed_form),
		cmocka_unit_test(welch_matches_r_on_the_sleep_data),
		cmocka_unit_test(the_interval_matches_r_on_the_sleep_data),
		cmocka_unit_test(identical_samples_give_p_1),
		cmocka_unit_test(samples_without_spread_but_apart_give_p_0),
		cmocka_unit_test(a_single_value_gives_no_test),
		cmocka_unit_test(a_clear_drop_in_throughput_is_slower),
		cmocka_unit_test(a_lower_latency_is_better),
		cmocka_unit_test(noise_is_no_significant_change_and_never_fails),
		cmocka_unit_test(single_runs_are_untested_and_never_fail),
		T(a_single_run_is_one_group_at_its_nprocs),
		T(a_sweep_is_grouped_by_nprocs_without_its_failed_runs),
		T(a_set_leaves_nothing_behind_when_freed),
		T(documents_that_are_not_results_are_refused_with_the_reason),
		T(files_that_cannot_be_read_or_parsed_are_named),
		T(identical_environments_have_no_differences),
		T(each_differing_setting_is_named_with_both_values),
		T(a_differing_setting_is_named_once),
		T(a_different_number_of_targets_is_named),
		T(a_sweep_speaks_through_its_first_successful_run),
		T(a_significant_drop_beyond_the_limit_exits_3),
		T(a_drop_within_the_limit_exits_0),
		T(a_noisy_drop_is_inconclusive_however_large),
		T(runs_that_move_no_bytes_have_no_interval_in_percent_but_are_not_one_run),
		T(single_runs_never_exit_3_nor_pass_however_large_the_drop),
		T(latency_rows_follow_the_operation_table),
		T(each_document_is_judged_against_the_first),
		T(no_document_slower_beyond_the_limit_exits_0),
		cmocka_unit_test(the_labels_run_from_a_to_z),
		T(three_runs_are_too_few_for_the_outlier_rule),
		cmocka_unit_test(ab_order_is_a_b_b_a_counterbalanced),
		cmocka_unit_test(ab_order_at_random_is_a_pair_at_a_time_and_the_seed_repeats_it),
		cmocka_unit_test(the_gate_passes_on_evidence_only),
		T(significant_p99_rows_alone_without_all),
		T(two_runs_a_side_are_weak_evidence_with_the_runs_needed),
		T(a_single_run_shows_no_spread),
		T(an_outlier_is_named_by_its_place_in_its_file),
		T(a_throughput_of_0_gives_no_cv_to_go_by),
		T(the_change_seen_is_named_only_where_it_needs_fewer_runs),
		T(each_sides_disks_are_shown_under_each_other),
		T(the_written_ratio_is_tested_run_by_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
