/*
 * test_report.c - a run's figures (result.h) and how they are shown
 * (report.h), specified by example.
 *
 * result_fairness() and result_stalls() are fed hand-made rates and
 * timelines.  result_fill() runs end to end on a real stats region: three
 * clients record known operations with stats_record(), and every total,
 * per-operation figure and per-client rate must come out as worked out by
 * hand below.  That filled result, dressed with a timeline, a failure and
 * an environment, is then checked key by key in report_json(), written with
 * report_json_write() and read back, and shown by report_text() into an
 * in-memory FILE whose lines are compared exactly.  The --probe figures
 * come the same way: known listings recorded with stats_record_listing()
 * into the probe's slot, filled, shown and written.  Everything a test
 * allocates hangs off the fixture's talloc context, and so does every JSON
 * value it makes (keep_json), so a failed assertion leaks nothing either.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <talloc.h>

#include "backend.h"
#include "cluster.h"
#include "driver.h"
#include "loadfile.h"
#include "dockey.h"
#include "env.h"
#include "report.h"
#include "result.h"
#include "stats.h"
#include "version.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx

#define US 1000ull
#define MS 1000000ull

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Exact equality of doubles, printing both on failure. */
#define assert_double_is(got, want)                                           \
	do {                                                                  \
		double g_ = (got), w_ = (want);                               \
		if (!(g_ == w_))                                              \
			fail_msg("%s: got %.17g, want %.17g", #got, g_, w_);  \
	} while (0)

/* |got - want| <= rel * |want| */
#define assert_within(got, want, rel)                                         \
	do {                                                                  \
		double g_ = (got), w_ = (want);                               \
		if (!(fabs(g_ - w_) <= (rel) * fabs(w_)))                     \
			fail_msg("%s: got %.17g, want %.17g within %g", #got, \
				 g_, w_, (double)(rel));                      \
	} while (0)

/* ---- the plan and the known operations ---- */

#define SHA256_HEX "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

static const char *plan_dirs[] = { "/a", "/b" };

/* Three clients over the directories "/a" and "/b", the fileio backend,
 * a 10 s execute after 2 s warmup, unpaced, no sync options. */
static struct run_plan *plan_new(TALLOC_CTX *ctx)
{
	struct program *prog = talloc_zero(ctx, struct program);
	struct run_plan *plan = talloc_zero(ctx, struct run_plan);

	assert_non_null(prog);
	assert_non_null(plan);
	prog->source = "loadfiles/client.txt";
	memcpy(prog->sha256, SHA256_HEX, sizeof(prog->sha256));
	plan->nclients = 3;
	plan->clients_per_process = 1;
	plan->timelimit = 10;
	plan->warmup = 2;
	plan->dirs = plan_dirs;
	plan->ndirs = 2;
	plan->command_line = "dbench -c loadfiles/client.txt 3";
	plan->backend = &fileio_backend;
	plan->prog = prog;
	return plan;
}

/*
 * What the three clients do in the execute phase:
 *
 *   client 1  ReadX 65536 B 1 ms, ReadX 65536 B 3 ms, WriteX 4096 B 2 ms,
 *             NTCreateX 0.5 ms failed
 *   client 2  WriteX 131072 B 4 ms, Close 0.1 ms
 *   client 3  ReadX 1000 B 10 ms failed
 *
 * plus a warmup ReadX and a stop-phase WriteX that must not count.
 * Under --verify (counted whether or not the plan asks for it), client 1
 * checked both its reads, 131072 B in 1.5 ms, and client 3 found a
 * mismatch after 500 B in 0.5 ms; a warmup check must not count.
 */
#define C1_BYTES (65536 + 65536 + 4096)
#define C2_BYTES 131072
#define C3_BYTES 1000
#define EXEC_BYTES_READ (65536 + 65536 + 1000)
#define EXEC_BYTES_WRITTEN (4096 + 131072)
#define EXEC_SECONDS 2.0

/* The region of the three clients: two directories, two CPUs. */
static struct stats_region *region_new(TALLOC_CTX *ctx)
{
	return stats_map(ctx, 3, 2, 2, 1);
}

/* Record an operation of client i (0-based) of st, made on CPU `cpu`. */
static void record(struct stats_region *st, unsigned i, unsigned cpu, enum phase ph,
		   enum op_type op, uint64_t bytes, uint64_t ns, int failed, uint64_t tick)
{
	struct stats_sets sets = stats_sets_of(st, i);

	stats_record(&st->slot[i], &sets, cpu, ph, op, bytes, ns, failed, tick);
}

/* Client 1 moves between the CPUs; clients 1 and 3, of directory "/a",
 * share the set of CPU 1. */
static void record_known_ops(struct stats_region *st)
{
	struct client_slot *c1 = &st->slot[0], *c3 = &st->slot[2];

	record(st, 0, 0, PHASE_EXECUTE, OP_READX, 65536, 1 * MS, 0, 0);
	record(st, 0, 1, PHASE_EXECUTE, OP_READX, 65536, 3 * MS, 0, 0);
	record(st, 0, 1, PHASE_EXECUTE, OP_WRITEX, 4096, 2 * MS, 0, 1);
	record(st, 0, 0, PHASE_EXECUTE, OP_NTCREATEX, 0, 500 * US, 1, 1);
	record(st, 1, 1, PHASE_EXECUTE, OP_WRITEX, 131072, 4 * MS, 0, 0);
	record(st, 1, 0, PHASE_EXECUTE, OP_CLOSE, 0, 100 * US, 0, 1);
	record(st, 2, 1, PHASE_EXECUTE, OP_READX, 1000, 10 * MS, 1, 1);
	record(st, 2, 0, PHASE_WARMUP, OP_READX, 999999, 50 * MS, 1, 0);
	record(st, 1, 1, PHASE_STOP, OP_WRITEX, 777, 60 * MS, 0, 2);
	stats_record_verify(c1, PHASE_EXECUTE, &(struct verify_tally){ 131072, 2, 0, 1500 * US });
	stats_record_verify(c3, PHASE_EXECUTE, &(struct verify_tally){ 500, 1, 1, 500 * US });
	stats_record_verify(c1, PHASE_WARMUP, &(struct verify_tally){ 999, 1, 1, 9 * MS });
}

/* The clients' busy time: every execute operation's latency, in ms. */
#define EXEC_BUSY_MS (1 + 3 + 2 + 0.5 + 4 + 0.1 + 10)

/* A result filled from the known operations over a 2 s execute window. */
static struct run_result *filled_result(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_result *res = talloc_zero(ctx, struct run_result);

	assert_non_null(st);
	assert_non_null(res);
	record_known_ops(st);
	res->plan = plan_new(ctx);
	res->nclients = 3;
	res->exec_seconds = EXEC_SECONDS;
	result_fill(res, st);
	return res;
}

/* The filled result with what the driver adds: a start time, a two-point
 * timeline, a failure, exit code 1 and an environment it owns. */
static struct run_result *finished_result(void **state)
{
	struct run_result *res = filled_result(state);
	struct timeline_point *tl = talloc_array(res, struct timeline_point, 2);
	struct run_failure *f = talloc_zero(res, struct run_failure);
	json_t *env = json_pack("{s:s, s:i}", "kernel", "6.1.0", "cpus", 2);

	assert_non_null(tl);
	assert_non_null(f);
	assert_non_null(env);
	res->started_at = "2024-05-01T12:00:00Z";
	tl[0] = (struct timeline_point){ .t_s = 1.0, .mb_s = 0.125, .ops_s = 3.0, .max_latency_ms = 4.5, .probe_ms = 2.5 };
	tl[1] = (struct timeline_point){ .t_s = 2.0, .mb_s = 0.25, .ops_s = 4.0, .max_latency_ms = 10.0, .probe_ms = NAN };
	res->timeline = tl;
	res->ntimeline = 2;
	/* point 0's operations by type (Unlink: none in the run); point 1's
	 * were not measured */
	static const uint16_t types[] = { OP_NTCREATEX, OP_CLOSE, OP_READX, OP_WRITEX, OP_UNLINK };
	struct interval_op *ops = talloc_array(tl, struct interval_op, 5);
	assert_non_null(ops);
	ops[0] = (struct interval_op){ 1, NAN };
	ops[1] = (struct interval_op){ 1, NAN };
	ops[2] = (struct interval_op){ 150, 2.5 };
	ops[3] = (struct interval_op){ 0, NAN };
	ops[4] = (struct interval_op){ 0, NAN };
	tl[0].ops = ops;
	res->timeline_types = types;
	res->ntimeline_types = 5;
	f->client = 2;
	f->line = 17;
	f->operation = "ReadX";
	f->path = "/a/clients/client2/data.bin";
	f->error = "Input/output error";
	f->text = "client 2, line 17: ReadX /a/clients/client2/data.bin: Input/output error";
	res->failure = f;
	res->exit_code = EXIT_RUN_FAILED;
	res->setup_s = 0.5;
	res->sampler_cpu_ms = 0.25;
	res->op_clock = "tsc";
	res->op_clock_hz = 2.1e9;
	res->environment = env;
	result_keep_json(res, env);
	return res;
}

/*
 * What the probe does: a warmup listing of 50 ms and a stop-phase one of
 * 60 ms, which must not count, and four execute listings of 2, 1, 40 and
 * 3 ms, the last of which read 3001 names.
 */
static void record_known_listings(struct stats_region *st)
{
	struct probe_slot *p = &st->probe[0];

	stats_record_listing(p, PHASE_WARMUP, PHASE_EXECUTE, 3000, 50 * MS, 0);	/* straddles */
	stats_record_listing(p, PHASE_EXECUTE, PHASE_EXECUTE, 3000, 2 * MS, 2);
	stats_record_listing(p, PHASE_EXECUTE, PHASE_EXECUTE, 3000, 1 * MS, 3);
	stats_record_listing(p, PHASE_EXECUTE, PHASE_EXECUTE, 3000, 40 * MS, 4);
	stats_record_listing(p, PHASE_EXECUTE, PHASE_EXECUTE, 3001, 3 * MS, 5);
	stats_record_listing(p, PHASE_STOP, PHASE_STOP, 2, 60 * MS, 6);
}

/* The finished result of a run with --probe (probe_dir NULL: a bare
 * --probe, whose directory the command line makes DIR/clients/probe in
 * the first target) that made the known operations and listings. */
static struct run_result *probe_result(void **state, const char *probe_dir)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	struct stats_region *st = region_new(ctx);

	assert_non_null(st);
	record_known_ops(st);
	record_known_listings(st);
	if (!probe_dir) {
		probe_dir = talloc_asprintf(plan, "%s/clients/probe", plan->dirs[0]);
		plan->own_probe = 0;
	}
	plan->probe_dirs = talloc_memdup(plan, &probe_dir, sizeof(probe_dir));
	plan->nprobes = 1;
	result_fill(res, st);
	assert_non_null(res->probe);
	return res;
}

/* ---- result_fairness ---- */

static void fairness_of_equal_rates_is_one(void **state)
{
	const double r[] = { 1, 1, 1, 1 };
	struct fairness f = result_fairness(r, 4);

	(void)state;
	assert_double_is(f.min_mb_s, 1);
	assert_double_is(f.median_mb_s, 1);
	assert_double_is(f.max_mb_s, 1);
	assert_double_is(f.jain_index, 1.0);
}

static void fairness_of_one_busy_client_in_four_is_a_quarter(void **state)
{
	const double r[] = { 1, 0, 0, 0 };
	struct fairness f = result_fairness(r, 4);

	(void)state;
	assert_double_is(f.min_mb_s, 0);
	assert_double_is(f.median_mb_s, 0);
	assert_double_is(f.max_mb_s, 1);
	assert_double_is(f.jain_index, 0.25);
}

/* (2 + 4)^2 / (2 * (4 + 16)) = 36 / 40 */
static void fairness_of_2_and_4_is_0_9(void **state)
{
	const double r[] = { 2, 4 };
	struct fairness f = result_fairness(r, 2);

	(void)state;
	assert_double_is(f.min_mb_s, 2);
	assert_double_is(f.median_mb_s, 3);
	assert_double_is(f.max_mb_s, 4);
	assert_double_is(f.jain_index, 0.9);
}

/* sorted 1 2 3: the median is the middle one; 6^2 / (3 * 14) */
static void fairness_median_of_an_odd_count_is_the_middle_rate(void **state)
{
	const double r[] = { 3, 1, 2 };
	struct fairness f = result_fairness(r, 3);

	(void)state;
	assert_double_is(f.min_mb_s, 1);
	assert_double_is(f.median_mb_s, 2);
	assert_double_is(f.max_mb_s, 3);
	assert_double_is(f.jain_index, 36.0 / 42.0);
}

/* sorted 1 2 3 4: the median is (2 + 3) / 2; 10^2 / (4 * 30) */
static void fairness_median_of_an_even_count_is_the_mean_of_the_middle_two(void **state)
{
	const double r[] = { 4, 1, 3, 2 };
	struct fairness f = result_fairness(r, 4);

	(void)state;
	assert_double_is(f.min_mb_s, 1);
	assert_double_is(f.median_mb_s, 2.5);
	assert_double_is(f.max_mb_s, 4);
	assert_double_is(f.jain_index, 100.0 / 120.0);
}

static void fairness_of_one_client_is_its_own_rate_and_one(void **state)
{
	const double r[] = { 7.5 };
	struct fairness f = result_fairness(r, 1);

	(void)state;
	assert_double_is(f.min_mb_s, 7.5);
	assert_double_is(f.median_mb_s, 7.5);
	assert_double_is(f.max_mb_s, 7.5);
	assert_double_is(f.jain_index, 1.0);
}

/* A client whose rate is missing (NAN: it spent no time in the execute
 * window) leaves the fairness unknown, not "perfectly unfair". */
static void fairness_with_a_missing_rate_is_unknown(void **state)
{
	const double r[] = { 5, NAN, 5 };
	struct fairness f = result_fairness(r, 3);

	(void)state;
	assert_true(isnan(f.min_mb_s));
	assert_true(isnan(f.median_mb_s));
	assert_true(isnan(f.max_mb_s));
	assert_true(isnan(f.jain_index));
}

static void fairness_of_all_zero_rates_is_one_not_nan(void **state)
{
	const double r[] = { 0, 0, 0 };
	struct fairness f = result_fairness(r, 3);

	(void)state;
	assert_false(isnan(f.jain_index));
	assert_double_is(f.jain_index, 1.0);
	assert_double_is(f.min_mb_s, 0);
	assert_double_is(f.median_mb_s, 0);
	assert_double_is(f.max_mb_s, 0);
}

static void fairness_does_not_reorder_its_input(void **state)
{
	double r[] = { 4, 1, 3, 2 };

	(void)state;
	result_fairness(r, 4);
	assert_double_is(r[0], 4);
	assert_double_is(r[1], 1);
	assert_double_is(r[2], 3);
	assert_double_is(r[3], 2);
}

/* ---- result_stalls ---- */

/* A result holding only a timeline of the given rates. */
static struct run_result *timeline_result(TALLOC_CTX *ctx, const double *mb_s,
					  const double *ops_s, size_t n, uint64_t bytes)
{
	struct run_result *res = talloc_zero(ctx, struct run_result);

	assert_non_null(res);
	res->timeline = talloc_zero_array(res, struct timeline_point, n ? n : 1);
	assert_non_null(res->timeline);
	for (size_t i = 0; i < n; i++) {
		res->timeline[i].t_s = (double)(i + 1);
		res->timeline[i].mb_s = mb_s[i];
		res->timeline[i].ops_s = ops_s[i];
	}
	res->ntimeline = n;
	res->bytes_read = bytes;
	return res;
}

/* sorted 5 9 100 100 100 100: median 100, so below 10 is a stall */
static void stalls_are_seconds_below_a_tenth_of_the_median_rate(void **state)
{
	const double mb[] = { 100, 100, 5, 100, 9, 100 };
	const double ops[] = { 50, 50, 50, 50, 50, 50 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 6, 1);
	size_t *idx;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 2);
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 4);
}

static void a_second_at_exactly_a_tenth_of_the_median_is_not_a_stall(void **state)
{
	const double mb[] = { 100, 100, 10, 100 };
	const double ops[] = { 1, 1, 1, 1 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 4, 1);
	size_t *idx;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 0);
}

/* sorted 1 50 60 100: median (50 + 60) / 2 = 55, floor 5.5 */
static void stall_median_of_an_even_timeline_is_the_mean_of_the_middle_two(void **state)
{
	const double mb[] = { 60, 1, 100, 50 };
	const double ops[] = { 1, 1, 1, 1 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 4, 1);
	size_t *idx;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 1);
	assert_int_equal(idx[0], 1);
}

/* No bytes moved: MB/sec is 0 throughout and says nothing, so the
 * operation rate decides (sorted 10 200 200 200: median 200, floor 20). */
static void stalls_without_bytes_are_judged_by_operations(void **state)
{
	const double mb[] = { 0, 0, 0, 0 };
	const double ops[] = { 200, 10, 200, 200 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 4, 0);
	size_t *idx;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 1);
	assert_int_equal(idx[0], 1);
}

static void stalls_with_bytes_ignore_the_operation_rate(void **state)
{
	const double mb[] = { 100, 100, 100, 100 };
	const double ops[] = { 200, 10, 200, 200 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 4, 1);
	size_t *idx;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 0);
}

static void an_empty_timeline_has_no_stalls(void **state)
{
	struct run_result *res = talloc_zero(ctx_of(state), struct run_result);
	size_t *idx = NULL;

	assert_int_equal(result_stalls(ctx_of(state), res, &idx), 0);
	assert_non_null(idx);	/* always allocated, so always freeable */
}

static void stalls_leave_only_the_indexes_on_the_context(void **state)
{
	const double mb[] = { 100, 100, 5, 100, 9, 100 };
	const double ops[] = { 1, 1, 1, 1, 1, 1 };
	struct run_result *res = timeline_result(ctx_of(state), mb, ops, 6, 1);
	TALLOC_CTX *tmp = talloc_new(ctx_of(state));
	size_t *idx;

	result_stalls(tmp, res, &idx);
	assert_ptr_equal(talloc_parent(idx), tmp);
	assert_int_equal(talloc_total_blocks(tmp), 2);
}

/* ---- result_fill, end to end through the stats region ---- */

static void fill_sums_bytes_operations_and_errors_of_the_execute_phase(void **state)
{
	struct run_result *res = filled_result(state);

	assert_int_equal(res->bytes_read, EXEC_BYTES_READ);
	assert_int_equal(res->bytes_written, EXEC_BYTES_WRITTEN);
	assert_int_equal(res->ops, 7);
	assert_int_equal(res->errors, 2);
}

static void fill_sums_verify_work_and_its_share_of_operation_time(void **state)
{
	struct run_result *res = filled_result(state);

	assert_int_equal(res->verify.bytes_checked, 131072 + 500);
	assert_int_equal(res->verify.reads_checked, 3);
	assert_int_equal(res->verify.mismatches, 1);
	assert_double_is(res->verify.cost_s, 0.002);
	assert_within(res->verify.cost_pct, 100 * 2 / EXEC_BUSY_MS, 1e-12);
}

static void fill_gives_each_operation_its_count_errors_and_latencies(void **state)
{
	struct run_result *res = filled_result(state);
	const struct op_result *rd = &res->op[OP_READX], *wr = &res->op[OP_WRITEX];
	const struct op_result *cr = &res->op[OP_NTCREATEX], *cl = &res->op[OP_CLOSE];

	/* ReadX: 1, 3, 10 ms, one failed; the median is the 2nd, 3 ms; a
	 * p99 of 3 values would be the maximum: none */
	assert_int_equal(rd->count, 3);
	assert_int_equal(rd->errors, 1);
	assert_double_is(rd->max_ms, 10.0);
	assert_within(rd->mean_ms, 14.0 / 3, 1e-12);
	assert_within(rd->p50_ms, 3.0, 1.0 / 128);
	assert_true(isnan(rd->p90_ms) && isnan(rd->p99_ms) && isnan(rd->p999_ms));
	/* WriteX: 2, 4 ms; rank ceil(0.5 * 2) = 1 is 2 ms */
	assert_int_equal(wr->count, 2);
	assert_int_equal(wr->errors, 0);
	assert_double_is(wr->max_ms, 4.0);
	assert_double_is(wr->mean_ms, 3.0);
	assert_within(wr->p50_ms, 2.0, 1.0 / 128);
	/* one value: no quantile says more than the maximum */
	assert_int_equal(cr->count, 1);
	assert_int_equal(cr->errors, 1);
	assert_double_is(cr->max_ms, 0.5);
	assert_double_is(cr->mean_ms, 0.5);
	assert_true(isnan(cr->p50_ms) && isnan(cr->p999_ms));
	assert_int_equal(cl->count, 1);
	assert_int_equal(cl->errors, 0);
	assert_double_is(cl->max_ms, 0.1);
}

static void fill_leaves_operations_that_did_not_run_at_zero(void **state)
{
	struct run_result *res = filled_result(state);
	static const int unused[] = { OP_RENAME, OP_UNLINK, OP_DELTREE, OP_RMDIR,
				      OP_MKDIR, OP_QPATHINFO, OP_QFILEINFO, OP_QFSINFO,
				      OP_SFILEINFO, OP_FINDFIRST, OP_LOCKX, OP_UNLOCKX,
				      OP_FLUSH };

	for (size_t i = 0; i < NELEM(unused); i++) {
		const struct op_result *o = &res->op[unused[i]];
		assert_int_equal(o->count, 0);
		assert_int_equal(o->errors, 0);
		assert_double_is(o->mean_ms, 0);
		assert_true(isnan(o->p50_ms));	/* no figure of nothing */
		assert_double_is(o->max_ms, 0);
	}
}

/* The warmup ReadX took 50 ms and the stop-phase WriteX 60 ms: neither is
 * the worst of the execute window. */
static void fill_max_latency_is_the_worst_execute_operation(void **state)
{
	struct run_result *res = filled_result(state);

	assert_double_is(res->max_latency_ms, 10.0);
}

static void fill_gives_each_client_its_figures_and_directory_round_robin(void **state)
{
	struct run_result *res = filled_result(state);
	static const uint64_t bytes[] = { C1_BYTES, C2_BYTES, C3_BYTES };
	static const uint64_t ops[] = { 4, 2, 1 };
	static const uint64_t errors[] = { 1, 0, 1 };
	static const char *const dir[] = { "/a", "/b", "/a" };

	assert_non_null(res->clients);
	for (unsigned i = 0; i < 3; i++) {
		const struct client_result *c = &res->clients[i];
		assert_int_equal(c->id, i + 1);
		assert_string_equal(c->directory, dir[i]);
		assert_int_equal(c->bytes, bytes[i]);
		assert_int_equal(c->ops, ops[i]);
		assert_int_equal(c->errors, errors[i]);
		assert_double_is(c->mb_s, bytes[i] / 1e6 / EXEC_SECONDS);
	}
	assert_double_is(res->clients[0].mb_s, 0.067584);
	assert_double_is(res->clients[2].mb_s, 0.0005);
}

/* --run-once: a client's rate is over its own time, from the window's
 * start to the end of its pass (or the window's end, if later), so
 * clients doing the same work at different speeds differ.  One that never
 * said it stopped (killed, or failed in its setup) has no rate, and the
 * fairness of the clients is then unknown. */
static void fill_rates_each_client_over_its_own_time(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_result *res = talloc_zero(ctx, struct run_result);
	struct stats_group *g = talloc_zero(ctx, struct stats_group);
	struct stats_client figs[3];
	const uint64_t exec = 5000000000ull, window_end = exec + 2000000000ull;

	assert_non_null(st);
	assert_non_null(res);
	assert_non_null(g);
	record_known_ops(st);
	st->slot[0].end_ns = exec + 500000000ull;	/* its pass ended at 0.5 s */
	st->slot[1].end_ns = 0;				/* never stopped replaying */
	st->slot[2].end_ns = window_end + 3000000000ull;	/* after the window */
	stats_clients_collect(st, exec, window_end, figs);
	assert_double_is(figs[0].seconds, 0.5);
	assert_double_is(figs[1].seconds, 0);
	assert_double_is(figs[2].seconds, 2.0);
	res->plan = plan_new(ctx);
	res->nclients = 3;
	res->exec_seconds = EXEC_SECONDS;
	stats_group_collect(g, st, STATS_ALL_DIRS);
	result_fill_figures(res, &(struct run_figures){ g, figs });
	assert_non_null(res->clients);
	assert_double_is(res->clients[0].mb_s, C1_BYTES / 1e6 / 0.5);
	assert_true(isnan(res->clients[1].mb_s));
	assert_double_is(res->clients[2].mb_s, C3_BYTES / 1e6 / 2.0);
	assert_true(isnan(res->fairness.max_mb_s));
	assert_true(isnan(res->fairness.jain_index));
}

/* --run-once: a directory's rate is over its clients' time, to the end
 * of the last of their passes; a timed run's is over the whole window. */
static void fill_rates_each_directory_over_its_clients_time(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_plan *plan = plan_new(ctx);
	struct stats_group *g = talloc_zero(ctx, struct stats_group);
	struct hist *scratch = talloc(ctx, struct hist);
	struct stats_client figs[3];
	const uint64_t exec = 5000000000ull, window_end = exec + 2000000000ull;

	assert_non_null(st);
	assert_non_null(g);
	assert_non_null(scratch);
	record_known_ops(st);
	st->slot[0].end_ns = exec + 500000000ull;	/* directory 1: 0.5 s */
	st->slot[1].end_ns = exec + 1500000000ull;	/* directory 2: 1.5 s */
	st->slot[2].end_ns = exec + 1000000000ull;	/* directory 1: 1.0 s */
	stats_clients_collect(st, exec, window_end, figs);
	for (int once = 0; once <= 1; once++) {
		plan->run_once = once;
		struct run_result *res = result_new(ctx, plan, 1);
		assert_non_null(res);
		res->exec_seconds = EXEC_SECONDS;
		stats_group_collect(g, st, STATS_ALL_DIRS);
		result_fill_figures(res, &(struct run_figures){ g, figs });
		for (unsigned d = 0; d < 2; d++) {
			memset(g, 0, sizeof(*g));
			stats_group_collect(g, st, (int)d);
			result_fill_dir(res, d, g, scratch);
		}
		assert_double_is(res->dirs[0].mb_s,
				 (C1_BYTES + C3_BYTES) / 1e6 / (once ? 1.0 : EXEC_SECONDS));
		assert_double_is(res->dirs[1].mb_s, C2_BYTES / 1e6 / (once ? 1.5 : EXEC_SECONDS));
	}
}

/* Rates 0.067584, 0.065536 and 0.0005 MB/sec. */
static void fill_computes_fairness_from_the_client_rates(void **state)
{
	struct run_result *res = filled_result(state);
	double a = 0.067584, b = 0.065536, c = 0.0005;

	assert_double_is(res->fairness.min_mb_s, c);
	assert_double_is(res->fairness.median_mb_s, b);
	assert_double_is(res->fairness.max_mb_s, a);
	assert_within(res->fairness.jain_index,
		      (a + b + c) * (a + b + c) / (3 * (a * a + b * b + c * c)), 1e-12);
	assert_within(res->fairness.jain_index, 0.6715062014874529, 1e-12);
}

static void throughput_is_bytes_moved_over_the_execute_window(void **state)
{
	struct run_result *res = filled_result(state);

	assert_double_is(result_throughput(res),
			 (EXEC_BYTES_READ + EXEC_BYTES_WRITTEN) / 1e6 / EXEC_SECONDS);
	assert_within(result_throughput(res), 0.13362, 1e-15);
}

static void throughput_of_an_empty_window_is_zero(void **state)
{
	struct run_result res = { .bytes_read = 1000000, .exec_seconds = 0 };

	(void)state;
	assert_double_is(result_throughput(&res), 0);
	res.exec_seconds = -1;
	assert_double_is(result_throughput(&res), 0);
}

/* Interrupted before the execute window: no client spent any time in it,
 * so none has a rate, and the fairness is unknown (not 1, nor 0). */
static void fill_with_an_empty_window_gives_no_rates_and_no_fairness(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_result *res = talloc_zero(ctx, struct run_result);

	assert_non_null(st);
	record_known_ops(st);
	res->plan = plan_new(ctx);
	res->nclients = 3;
	res->exec_seconds = 0;
	result_fill(res, st);
	assert_int_equal(res->clients[0].bytes, C1_BYTES);
	for (unsigned i = 0; i < 3; i++)
		assert_true(isnan(res->clients[i].mb_s));
	assert_true(isnan(res->fairness.jain_index));
}

/* ---- ranks and the stonewall ---- */

/* A result of three ranks over a 10 s window whose timeline moved
 * 100 MB/sec for 4 s, then 50 for 6 s (one rank done at 4 s). */
static struct run_result *ranked_result(void **state, double first_done_s)
{
	struct run_result *res = talloc_zero(fixture_ctx(state), struct run_result);
	struct timeline_point *tl = talloc_array(res, struct timeline_point, 10);

	res->exec_seconds = 10;
	res->bytes_written = 700000000;		/* 4 * 100 + 6 * 50 MB */
	for (int i = 0; i < 10; i++)
		tl[i] = (struct timeline_point){ .t_s = i + 1, .mb_s = i < 4 ? 100 : 50 };
	res->timeline = tl;
	res->ntimeline = 10;
	res->nranks = 3;
	res->ranks = talloc_zero_array(res, struct rank_result, 3);
	res->ranks[0] = (struct rank_result){ .rank = 0, .bytes = 300000000, .seconds = 10 };
	res->ranks[1] = (struct rank_result){ .rank = 1, .bytes = 300000000, .seconds = 10 };
	res->ranks[2] = (struct rank_result){ .rank = 2, .bytes = 100000000,
					      .seconds = first_done_s };
	return res;
}

static void ranks_get_their_rates_and_fairness(void **state)
{
	struct run_result *res = ranked_result(state, 4);

	result_fill_ranks(res);
	assert_double_is(res->ranks[0].mb_s, 30);
	assert_double_is(res->ranks[2].mb_s, 25);
	assert_double_is(res->rank_fairness.min_mb_s, 25);
	assert_double_is(res->rank_fairness.max_mb_s, 30);
	/* (30 + 30 + 25)^2 / (3 * (900 + 900 + 625)) */
	assert_double_is(res->rank_fairness.jain_index, 85.0 * 85 / (3 * 2425.0));
}

static void stonewall_is_the_rate_until_the_first_rank_finished(void **state)
{
	struct run_result *res = ranked_result(state, 4);

	result_fill_ranks(res);
	assert_double_is(res->stonewall_s, 4);
	assert_double_is(res->stonewall_mb_s, 100);
	assert_double_is(result_throughput(res), 70);
}

static void stonewall_interpolates_within_a_second(void **state)
{
	struct run_result *res = ranked_result(state, 4.5);

	result_fill_ranks(res);
	/* 400 MB in 4 s, then half a second at 50 MB/sec */
	assert_double_is(result_bytes_by(res, 4.5), 425e6);
	assert_double_is(res->stonewall_mb_s, 425 / 4.5);
}

static void stonewall_of_a_window_every_rank_ran_is_the_throughput(void **state)
{
	struct run_result *res = ranked_result(state, 10);

	result_fill_ranks(res);
	assert_double_is(res->stonewall_s, 10);
	assert_double_is(res->stonewall_mb_s, 70);
}

static void a_rank_without_a_rate_leaves_the_stonewall_unknown(void **state)
{
	struct run_result *res = ranked_result(state, 0);	/* its figures never came */

	result_fill_ranks(res);
	assert_true(isnan(res->ranks[2].mb_s));
	assert_true(isnan(res->rank_fairness.jain_index));
	assert_true(isnan(res->stonewall_s));
	assert_true(isnan(res->stonewall_mb_s));
}

/* Rank 0 combines ticks: counts add up, the worst latency and the longest
 * run win, and the lowest failing rank's failure is the one kept. */
static void ticks_combine_sums_maxima_and_the_first_failure(void **state)
{
	struct cluster_tick all = { .bytes = 10, .ops = 1, .max_ns = 500, .running = 2,
				    .done = 1, .done_s = 3, .failed_rank = -1 };
	struct cluster_tick r1 = { .bytes = 5, .ops = 2, .max_ns = 900, .running = 1,
				   .done = 1, .done_s = 2, .failed_rank = 1,
				   .failure = { .client = 2, .error = "died" } };
	struct cluster_tick r2 = { .bytes = 1, .max_ns = 100, .interrupted = SIGTERM,
				   .failed_rank = 2, .failure = { .client = 1, .error = "later" } };

	(void)state;
	cluster_tick_combine(&all, &r1, 1);
	cluster_tick_combine(&all, &r2, 2);
	assert_int_equal(all.bytes, 16);
	assert_int_equal(all.ops, 3);
	assert_int_equal(all.max_ns, 900);
	assert_int_equal(all.running, 3);
	assert_int_equal(all.done, 2);
	assert_double_is(all.done_s, 3);
	assert_int_equal(all.interrupted, SIGTERM);
	assert_int_equal(all.failed_rank, 1);
	assert_int_equal(all.failure.client, 2);
	assert_string_equal(all.failure.error, "died");
}

/* Scratch histograms and rates are freed; only the clients array stays. */
static void fill_leaves_only_the_clients_and_directories_on_the_result(void **state)
{
	struct run_result *res = filled_result(state);

	assert_ptr_equal(talloc_parent(res->clients), res);
	assert_ptr_equal(talloc_parent(res->dirs), res);
	assert_int_equal(talloc_total_blocks(res), 3);
}

static void fill_splits_clients_and_bytes_by_directory(void **state)
{
	struct run_result *res = filled_result(state);

	assert_string_equal(res->dirs[0].directory, "/a");
	assert_string_equal(res->dirs[1].directory, "/b");
	assert_int_equal(res->dirs[0].clients, 2);	/* clients 1 and 3 */
	assert_int_equal(res->dirs[1].clients, 1);
	assert_int_equal(res->dirs[0].bytes, res->clients[0].bytes + res->clients[2].bytes);
	assert_int_equal(res->dirs[1].bytes, res->clients[1].bytes);
	/* "/a": 1, 3, 2, 0.5, 10 ms; "/b": 4, 0.1 ms: too few for a p99 */
	assert_int_equal(res->dirs[0].operations, 5);
	assert_int_equal(res->dirs[1].operations, 2);
	assert_true(isnan(res->dirs[0].p99_ms) && isnan(res->dirs[1].p99_ms));
}

/* result_new() makes room for every figure before the run: filling it
 * afterwards, clients, directories one at a time and ranks, allocates
 * nothing, so that memory running out at the end cannot lose them. */
static void fill_of_a_result_new_allocates_nothing(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_plan *plan = plan_new(ctx);
	struct run_result *res = result_new(ctx, plan, 1);
	struct stats_group *g = talloc_zero(ctx, struct stats_group);
	struct hist *scratch = talloc(ctx, struct hist);
	struct stats_client figs[3];

	assert_non_null(st);
	assert_non_null(res);
	assert_non_null(g);
	assert_non_null(scratch);
	record_known_ops(st);
	res->exec_seconds = EXEC_SECONDS;
	size_t blocks = talloc_total_blocks(res);
	stats_group_collect(g, st, STATS_ALL_DIRS);
	stats_clients_collect(st, 0, 0, figs);
	result_fill_figures(res, &(struct run_figures){ g, figs });
	for (unsigned d = 0; d < 2; d++) {
		memset(g, 0, sizeof(*g));
		stats_group_collect(g, st, (int)d);
		result_fill_dir(res, d, g, scratch);
	}
	res->ranks[0] = (struct rank_result){ .bytes = C1_BYTES + C2_BYTES + C3_BYTES,
					      .seconds = EXEC_SECONDS };
	result_fill_ranks(res);
	assert_int_equal(talloc_total_blocks(res), blocks);
	assert_null(res->missing);
	assert_int_equal(res->clients[1].bytes, C2_BYTES);
	assert_int_equal(res->dirs[0].clients, 2);
	assert_int_equal(res->dirs[1].bytes, C2_BYTES);
	assert_double_is(res->ranks[0].mb_s, (C1_BYTES + C2_BYTES + C3_BYTES) / 1e6 / EXEC_SECONDS);
}

/* ---- the probe's listings: stats_record_listing and result_fill ---- */

/* Sorted 1 2 3 40 ms: rank ceil(0.5 * 4) = 2 is 2 ms; a p99 of 4 would
 * be the maximum, so there is none. */
static void fill_probe_counts_only_listings_that_started_in_the_execute_phase(void **state)
{
	struct run_result *res = probe_result(state, NULL);
	const struct probe_result *p = res->probe;

	assert_int_equal(p->count, 4);
	assert_int_equal(p->entries, 3001);
	assert_double_is(p->max_ms, 40.0);
	assert_within(p->p50_ms, 2.0, 1.0 / 128);
	assert_true(isnan(p->p99_ms));
	/* the 50 ms listing begun in the warmup is told apart, not lost */
	assert_int_equal(p->straddled, 1);
	assert_double_is(p->straddled_max_ms, 50.0);
}

static void fill_probe_directory_is_the_default_or_the_one_given(void **state)
{
	assert_string_equal(probe_result(state, NULL)->probe->directory, "/a/clients/probe");
	assert_string_equal(probe_result(state, "/srv/big")->probe->directory, "/srv/big");
}

static void fill_without_probe_has_no_probe_result(void **state)
{
	assert_null(filled_result(state)->probe);
}

/* Only warmup and stop-phase listings: nothing to show, all zero. */
static const char *const bare_probe_dir[] = { "/a/clients/probe" };	/* a bare --probe's */

static void fill_probe_without_execute_listings_is_zero(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_result *res = talloc_zero(ctx, struct run_result);
	struct run_plan *plan = plan_new(ctx);

	assert_non_null(st);
	stats_record_listing(&st->probe[0], PHASE_WARMUP, PHASE_WARMUP, 3000, 5 * MS, 0);
	stats_record_listing(&st->probe[0], PHASE_STOP, PHASE_STOP, 3000, 6 * MS, 9);
	plan->probe_dirs = bare_probe_dir;
	plan->own_probe = 0;
	plan->nprobes = 1;
	res->plan = plan;
	res->nclients = 3;
	res->exec_seconds = EXEC_SECONDS;
	result_fill(res, st);
	assert_non_null(res->probe);
	assert_int_equal(res->probe->count, 0);
	assert_int_equal(res->probe->entries, 0);
	assert_true(isnan(res->probe->p50_ms) && isnan(res->probe->p99_ms));
	assert_double_is(res->probe->max_ms, 0);
}

/* The ring keeps the longest listing of each of the last STATS_WINDOWS
 * ticks; the clients' windows are apart from it. */
static void probe_windows_keep_the_longest_listing_of_each_tick(void **state)
{
	struct stats_region *st = region_new(ctx_of(state));
	const struct latency_windows *w;

	assert_non_null(st);
	w = &st->probe[0].win;
	stats_record_listing(&st->probe[0], PHASE_EXECUTE, PHASE_EXECUTE, 10, 5 * MS, 7);
	stats_record_listing(&st->probe[0], PHASE_EXECUTE, PHASE_EXECUTE, 10, 9 * MS, 7);
	stats_record_listing(&st->probe[0], PHASE_EXECUTE, PHASE_EXECUTE, 10, 4 * MS, 7);
	stats_record_listing(&st->probe[0], PHASE_WARMUP, PHASE_WARMUP, 10, 1 * MS, 8);
	record(st, 0, 0, PHASE_EXECUTE, OP_CLOSE, 0, 100 * US, 0, 7);
	assert_int_equal(stats_window_get(w, 7), 9 * MS);
	assert_int_equal(stats_window_get(w, 8), 1 * MS);
	assert_int_equal(stats_window_get(w, 9), 0);
	assert_int_equal(stats_window_get(w, 3), 0);	/* 7's place in the ring */
	assert_int_equal(stats_window_max(st, 7), 100 * US);
	stats_record_listing(&st->probe[0], PHASE_EXECUTE, PHASE_EXECUTE, 10, 2 * MS, 11);
	assert_int_equal(stats_window_get(w, 11), 2 * MS);
	assert_int_equal(stats_window_get(w, 7), 0);	/* overwritten */
}

/* ---- report_json ---- */

static json_t *get(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		fail_msg("no key '%s'", key);
	return v;
}

static json_int_t get_int(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_integer(v))
		fail_msg("'%s' is not an integer", key);
	return json_integer_value(v);
}

static double get_real(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_real(v))
		fail_msg("'%s' is not a real", key);
	return json_real_value(v);
}

static const char *get_str(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_string(v))
		fail_msg("'%s' is not a string", key);
	return json_string_value(v);
}

static int get_bool(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_boolean(v))
		fail_msg("'%s' is not a boolean", key);
	return json_is_true(v);
}

static void assert_null_at(json_t *obj, const char *key)
{
	if (!json_is_null(get(obj, key)))
		fail_msg("'%s' is not null", key);
}

static int release_json(json_t **holder)
{
	json_decref(*holder);
	return 0;
}

/* Hand v (may be NULL) to the test's context: json_decref at teardown. */
static json_t *keep_json(void **state, json_t *v)
{
	json_t **holder = talloc(ctx_of(state), json_t *);

	assert_non_null(holder);
	*holder = v;
	talloc_set_destructor(holder, release_json);
	return v;
}

/* The same for text from json_dumps(): copied to the context. */
static char *dump_of(void **state, json_t *doc, size_t flags)
{
	char *text = json_dumps(doc, flags);
	char *copy;

	assert_non_null(text);
	copy = talloc_strdup(ctx_of(state), text);
	free(text);
	assert_non_null(copy);
	return copy;
}

/* report_json(res), which must succeed, kept on the test's context.  It
 * holds every member of the table (dockeys.def), each of its type, and
 * no other (the environment aside: the tests' is a stand-in). */
static json_t *doc_of(void **state, const struct run_result *res)
{
	json_t *doc = keep_json(state, report_json(res));

	assert_non_null(doc);
	assert_true(json_is_object(doc));
	json_t *copy = json_deep_copy(doc);
	json_object_set_new(copy, dockey_name(DK_ENV), json_null());
	char *why = dockey_check(ctx_of(state), copy, DK_RUN, DOCKEY_SCHEMA);
	json_decref(copy);
	if (why)
		fail_msg("the document against the table: %s", why);
	return doc;
}

static void json_has_every_top_level_key(void **state)
{
	static const char *const keys[] = { "schema", "dbench_version", "started_at", "command_line",
					    "config", "environment", "result", "probe", "probes", "ops",
					    "timeline", "passes", "clients", "directories", "ranks",
					    "fairness", "rank_fairness", "status", "disks",
					    "memory", "writeback", "host", "series", "replayed", "replay" };
	json_t *doc = doc_of(state, finished_result(state));

	for (size_t i = 0; i < NELEM(keys); i++)
		get(doc, keys[i]);
	assert_int_equal(json_object_size(doc), NELEM(keys));
	assert_string_equal(json_object_iter_key(json_object_iter(doc)), "schema");
	assert_int_equal(get_int(doc, "schema"), DOCKEY_SCHEMA);
	assert_string_equal(get_str(doc, "dbench_version"), DBENCH_VERSION);
	assert_string_equal(get_str(doc, "started_at"), "2024-05-01T12:00:00Z");
	assert_string_equal(get_str(doc, "command_line"), "dbench -c loadfiles/client.txt 3");
}

static void json_environment_holds_the_members_of_the_table(void **state)
{
	const char *const dirs[] = { "/tmp", "/" };
	json_t *env = env_capture(dirs, 2, NULL);
	json_t *doc = keep_json(state, json_pack("{s:o}", dockey_name(DK_ENV), env));
	json_t *target = json_array_get(dockey_get(doc, DK_ENV_TARGETS), 1);
	char *why = dockey_check(ctx_of(state), dockey_get(doc, DK_ENV), DK_ENV, DOCKEY_SCHEMA);

	if (why)
		fail_msg("the environment against the table: %s", why);
	assert_string_equal(json_string_value(dockey_get(target, DK_TARGET_DIRECTORY)), "/");
	assert_int_equal(json_object_size(dockey_get(doc, DK_ENV_VM)), 6);
}

static void json_command_line_is_empty_when_not_recorded(void **state)
{
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	json_t *doc;

	plan->command_line = NULL;
	doc = doc_of(state, res);
	assert_string_equal(get_str(doc, "command_line"), "");
}

static void json_config_describes_the_plan(void **state)
{
	json_t *doc = doc_of(state, finished_result(state));
	json_t *cfg = get(doc, "config"), *dirs = get(cfg, "directories");

	assert_int_equal(get_int(cfg, "nprocs"), 3);
	assert_int_equal(get_int(cfg, "clients_per_process"), 1);
	assert_int_equal(get_int(cfg, "timelimit_s"), 10);
	assert_int_equal(get_int(cfg, "warmup_s"), 2);
	assert_string_equal(get_str(cfg, "loadfile"), "loadfiles/client.txt");
	assert_string_equal(get_str(cfg, "loadfile_sha256"), SHA256_HEX);
	assert_true(json_is_array(dirs));
	assert_int_equal(json_array_size(dirs), 2);
	assert_string_equal(json_string_value(json_array_get(dirs, 0)), "/a");
	assert_string_equal(json_string_value(json_array_get(dirs, 1)), "/b");
	assert_false(get_bool(cfg, "sync"));
	assert_false(get_bool(cfg, "sync_dir"));
	assert_false(get_bool(cfg, "fsync"));
	assert_false(get_bool(cfg, "xattr"));
	assert_false(get_bool(cfg, "run_once"));
	assert_false(get_bool(cfg, "verify"));
	assert_null_at(cfg, "target_rate_mb_s");
	assert_string_equal(get_str(cfg, "backend"), "fileio");
}

static void json_config_shows_options_pacing_and_backend_as_set(void **state)
{
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	json_t *doc, *cfg;

	plan->bopts.sync_open = true;
	plan->bopts.sync_dir = true;
	plan->bopts.fsync_writes = true;
	plan->bopts.xattr = true;
	plan->target_rate = 12.5;
	plan->backend = backend_by_name("null");
	assert_non_null(plan->backend);
	doc = doc_of(state, res);
	cfg = get(doc, "config");
	assert_true(get_bool(cfg, "sync"));
	assert_true(get_bool(cfg, "sync_dir"));
	assert_true(get_bool(cfg, "fsync"));
	assert_true(get_bool(cfg, "xattr"));
	assert_double_is(get_real(cfg, "target_rate_mb_s"), 12.5);
	assert_string_equal(get_str(cfg, "backend"), "null");
}

static void json_config_warmup_is_zero_with_run_once(void **state)
{
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	json_t *doc;

	plan->run_once = true;
	doc = doc_of(state, res);
	assert_int_equal(get_int(get(doc, "config"), "warmup_s"), 0);
	assert_true(get_bool(get(doc, "config"), "run_once"));
}

static void json_result_has_throughput_in_three_units_and_the_totals(void **state)
{
	struct run_result *res = finished_result(state);
	double tp = (EXEC_BYTES_READ + EXEC_BYTES_WRITTEN) / 1e6 / EXEC_SECONDS;
	json_t *doc = doc_of(state, res);
	json_t *r = get(doc, "result");

	assert_double_is(get_real(r, "throughput_mb_s"), tp);
	assert_double_is(get_real(r, "nb_mb_s"), tp * 1.25);
	assert_double_is(get_real(r, "mbit_s"), tp * 10);
	assert_double_is(get_real(r, "elapsed_s"), EXEC_SECONDS);
	assert_int_equal(get_int(r, "bytes_read"), EXEC_BYTES_READ);
	assert_int_equal(get_int(r, "bytes_written"), EXEC_BYTES_WRITTEN);
	assert_int_equal(get_int(r, "operations"), 7);
	assert_double_is(get_real(r, "ops_per_s"), 7 / EXEC_SECONDS);
	assert_int_equal(get_int(r, "errors"), 2);
	assert_double_is(get_real(r, "max_latency_ms"), 10.0);
	assert_double_is(get_real(r, "setup_s"), 0.5);
	assert_double_is(get_real(r, "sampler_cpu_ms"), 0.25);
	assert_double_is(get_real(r, "think_time_mean_us"), 0.0);	/* no pauses recorded */
	assert_double_is(get_real(r, "stonewall_mb_s"), res->stonewall_mb_s);
	assert_double_is(get_real(r, "stonewall_s"), res->stonewall_s);
	assert_null_at(r, "verify");		/* the plan has no --verify */
	assert_false(get_bool(r, "sampler_realtime"));
	assert_string_equal(get_str(r, "op_clock"), "tsc");
	assert_double_is(get_real(r, "op_clock_hz"), 2.1e9);
	assert_int_equal(get_int(get(r, "straddled"), "count"), 0);	/* none recorded */
	assert_null_at(get(r, "straddled"), "max_ms");
	assert_int_equal(get_int(r, "exit_code"), get_int(get(doc, "status"), "exit_code"));
	assert_double_is(get_real(get(r, "window"), "late_s"), 0.0);	/* a result not collected */
	assert_false(get_bool(get(r, "window"), "late"));
	assert_double_is(get_real(get(r, "window"), "open_late_s"), 0.0);
	assert_int_equal(json_object_size(get(r, "window")), 4);
	assert_int_equal(json_object_size(r), 22);
	/* interrupted: 130 in both places, not null in one */
	res->exit_code = 130;
	res->interrupted = true;
	doc = doc_of(state, res);
	assert_int_equal(get_int(get(doc, "result"), "exit_code"), 130);
	assert_int_equal(get_int(get(doc, "status"), "exit_code"), 130);
}

static void json_verify_holds_the_figures_with_verify(void **state)
{
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	json_t *doc, *v;

	plan->bopts.verify = true;
	doc = doc_of(state, res);
	assert_true(get_bool(get(doc, "config"), "verify"));
	v = get(get(doc, "result"), "verify");
	assert_int_equal(get_int(v, "bytes_checked"), 131572);
	assert_int_equal(get_int(v, "reads_checked"), 3);
	assert_int_equal(get_int(v, "mismatches"), 1);
	assert_double_is(get_real(v, "cost_s"), res->verify.cost_s);
	assert_double_is(get_real(v, "cost_pct"), res->verify.cost_pct);
	assert_int_equal(json_object_size(v), 5);
}

/* Flush gets errors without a count: listed; Rmdir has neither: not. */
static void json_ops_lists_only_operations_with_a_count_or_errors(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *ops;

	res->op[OP_FLUSH].errors = 1;
	doc = doc_of(state, res);
	ops = get(doc, "ops");
	assert_int_equal(json_object_size(ops), 5);
	get(ops, "ReadX");
	get(ops, "WriteX");
	get(ops, "NTCreateX");
	get(ops, "Close");
	assert_int_equal(get_int(get(ops, "Flush"), "count"), 0);
	assert_int_equal(get_int(get(ops, "Flush"), "errors"), 1);
	assert_null(json_object_get(ops, "Rmdir"));
}

static void json_ops_hold_the_figures_of_each_operation(void **state)
{
	struct run_result *res = finished_result(state);
	const struct op_result *o = &res->op[OP_READX];
	json_t *doc = doc_of(state, res);
	json_t *rd = get(get(doc, "ops"), "ReadX");

	assert_int_equal(json_object_size(rd), 8);
	assert_int_equal(get_int(rd, "count"), 3);
	assert_int_equal(get_int(rd, "errors"), 1);
	assert_double_is(get_real(rd, "mean_ms"), o->mean_ms);
	assert_double_is(get_real(rd, "p50_ms"), o->p50_ms);
	assert_null_at(rd, "p90_ms");	/* 3 values: too few, with the count beside */
	assert_null_at(rd, "p99_ms");
	assert_null_at(rd, "p999_ms");
	assert_double_is(get_real(rd, "max_ms"), 10.0);
	assert_null_at(get(get(doc, "ops"), "NTCreateX"), "p50_ms");
}

static void json_timeline_holds_each_point(void **state)
{
	json_t *doc = doc_of(state, finished_result(state));
	json_t *tl = get(doc, "timeline"), *p0, *p1;

	assert_true(json_is_array(tl));
	assert_int_equal(json_array_size(tl), 2);
	p0 = json_array_get(tl, 0);
	p1 = json_array_get(tl, 1);
	assert_double_is(get_real(p0, "t_s"), 1.0);
	assert_double_is(get_real(p0, "mb_s"), 0.125);
	assert_double_is(get_real(p0, "ops_s"), 3.0);
	assert_double_is(get_real(p0, "max_latency_ms"), 4.5);
	assert_double_is(get_real(p1, "t_s"), 2.0);
	assert_double_is(get_real(p1, "mb_s"), 0.25);
	assert_double_is(get_real(p1, "ops_s"), 4.0);
	assert_double_is(get_real(p1, "max_latency_ms"), 10.0);
}

/* Each point's operations: every type the run performed, its count and
 * p99 in that point (null from too few); null where not measured. */
static void json_timeline_points_hold_each_operations_count_and_p99(void **state)
{
	json_t *doc = doc_of(state, finished_result(state));
	json_t *tl = get(doc, "timeline");
	json_t *ops = get(json_array_get(tl, 0), "ops");

	assert_int_equal(json_object_size(ops), 4);	/* not Unlink, none in the run */
	assert_null(json_object_get(ops, "Unlink"));
	assert_int_equal(get_int(get(ops, "ReadX"), "count"), 150);
	assert_double_is(get_real(get(ops, "ReadX"), "p99_ms"), 2.5);
	assert_int_equal(get_int(get(ops, "NTCreateX"), "count"), 1);
	assert_null_at(get(ops, "NTCreateX"), "p99_ms");
	assert_int_equal(get_int(get(ops, "WriteX"), "count"), 0);
	assert_null_at(get(ops, "WriteX"), "p99_ms");
	assert_int_equal(json_object_size(get(ops, "Close")), 2);
	assert_null_at(json_array_get(tl, 1), "ops");
}

static void json_probe_is_null_without_probe(void **state)
{
	json_t *doc = doc_of(state, finished_result(state));
	json_t *p0 = json_array_get(get(doc, "timeline"), 0);

	assert_null_at(doc, "probe");
	assert_null_at(doc, "probes");
	assert_null_at(get(doc, "config"), "probe_directory");
	assert_null_at(get(doc, "config"), "probe_directories");
	assert_null(json_object_get(p0, "probe_ms"));
	assert_int_equal(json_object_size(p0), 8);	/* and disks, dirty, writeback, ops */
}

static void json_probe_holds_directory_count_entries_and_times(void **state)
{
	struct run_result *res = probe_result(state, NULL);
	json_t *doc = doc_of(state, res);
	json_t *p = get(doc, "probe");

	assert_int_equal(json_object_size(p), 7);
	assert_int_equal(get_int(get(p, "straddled"), "count"), 1);
	assert_double_is(get_real(get(p, "straddled"), "max_ms"), 50.0);
	assert_string_equal(get_str(p, "directory"), "/a/clients/probe");
	assert_int_equal(get_int(p, "count"), 4);
	assert_int_equal(get_int(p, "entries"), 3001);
	assert_double_is(get_real(p, "p50_ms"), res->probe->p50_ms);
	assert_null_at(p, "p99_ms");	/* 4 listings */
	assert_double_is(get_real(p, "max_ms"), 40.0);
	assert_string_equal(get_str(get(doc, "config"), "probe_directory"), "/a/clients/probe");
	/* the one probe is also the whole list of them */
	assert_true(json_equal(json_array_get(get(doc, "probes"), 0), p));
	assert_int_equal(json_array_size(get(doc, "probes")), 1);
	assert_string_equal(json_string_value(json_array_get(get(get(doc, "config"),
								 "probe_directories"), 0)),
			    "/a/clients/probe");
}

static void json_config_probe_directory_is_the_one_given(void **state)
{
	json_t *doc = doc_of(state, probe_result(state, "/srv/big"));

	assert_string_equal(get_str(get(doc, "config"), "probe_directory"), "/srv/big");
	assert_string_equal(get_str(get(doc, "probe"), "directory"), "/srv/big");
}

/* Point 0 saw a 2.5 ms listing end, point 1 none (NAN). */
static void json_timeline_points_carry_probe_ms_with_probe(void **state)
{
	json_t *doc = doc_of(state, probe_result(state, NULL));
	json_t *tl = get(doc, "timeline");

	assert_double_is(get_real(json_array_get(tl, 0), "probe_ms"), 2.5);
	assert_null_at(json_array_get(tl, 1), "probe_ms");
	assert_int_equal(json_object_size(json_array_get(tl, 0)), 9);
}

static void json_probe_times_are_null_without_a_listing(void **state)
{
	struct run_result *res = probe_result(state, NULL);
	json_t *doc, *p;

	res->probe->count = 0;
	res->probe->entries = 0;
	doc = doc_of(state, res);
	p = get(doc, "probe");
	assert_int_equal(get_int(p, "count"), 0);
	assert_int_equal(get_int(p, "entries"), 0);
	assert_null_at(p, "p50_ms");
	assert_null_at(p, "p99_ms");
	assert_null_at(p, "max_ms");
}

static void json_clients_hold_each_client_in_order(void **state)
{
	static const char *const dir[] = { "/a", "/b", "/a" };
	static const json_int_t bytes[] = { C1_BYTES, C2_BYTES, C3_BYTES };
	static const json_int_t ops[] = { 4, 2, 1 }, errors[] = { 1, 0, 1 };
	json_t *doc = doc_of(state, finished_result(state));
	json_t *cl = get(doc, "clients");

	assert_true(json_is_array(cl));
	assert_int_equal(json_array_size(cl), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *c = json_array_get(cl, i);
		assert_int_equal(get_int(c, "id"), i + 1);
		assert_string_equal(get_str(c, "directory"), dir[i]);
		assert_int_equal(get_int(c, "bytes"), bytes[i]);
		assert_double_is(get_real(c, "mb_s"), bytes[i] / 1e6 / EXEC_SECONDS);
		assert_int_equal(get_int(c, "operations"), ops[i]);
		assert_int_equal(get_int(c, "errors"), errors[i]);
	}
}

static void json_fairness_is_the_result_fairness(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc = doc_of(state, res);
	json_t *f = get(doc, "fairness");

	assert_double_is(get_real(f, "min_mb_s"), 0.0005);
	assert_double_is(get_real(f, "median_mb_s"), 0.065536);
	assert_double_is(get_real(f, "max_mb_s"), 0.067584);
	assert_double_is(get_real(f, "jain_index"), res->fairness.jain_index);
}

static void json_status_describes_the_failure(void **state)
{
	json_t *doc = doc_of(state, finished_result(state));
	json_t *st = get(doc, "status"), *f = get(st, "failure");

	assert_int_equal(get_int(st, "exit_code"), 1);
	assert_false(get_bool(st, "interrupted"));
	assert_int_equal(get_int(f, "client"), 2);
	assert_int_equal(get_int(f, "line"), 17);
	assert_string_equal(get_str(f, "operation"), "ReadX");
	assert_string_equal(get_str(f, "path"), "/a/clients/client2/data.bin");
	assert_string_equal(get_str(f, "error"), "Input/output error");
	assert_string_equal(get_str(f, "message"),
		"client 2, line 17: ReadX /a/clients/client2/data.bin: Input/output error");
}

/* A failure that was not an operation: no line, operation or path. */
static void json_failure_without_line_operation_or_path_has_nulls(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *f;

	res->failure->line = 0;
	res->failure->operation = NULL;
	res->failure->path = NULL;
	res->failure->error = "client process died";
	res->failure->text = "client 2: client process died";
	doc = doc_of(state, res);
	f = get(get(doc, "status"), "failure");
	assert_int_equal(get_int(f, "client"), 2);
	assert_null_at(f, "line");
	assert_null_at(f, "operation");
	assert_null_at(f, "path");
	assert_string_equal(get_str(f, "error"), "client process died");
}

/* The probe is no client: its failure has a null client number. */
static void json_failure_of_the_probe_has_a_null_client(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *f;

	res->failure->client = 0;
	res->failure->line = 0;
	res->failure->operation = NULL;
	res->failure->path = "/srv/big";
	res->failure->error = "cannot list '/srv/big': No such file or directory";
	res->failure->text = "probe, cannot list '/srv/big': No such file or directory";
	doc = doc_of(state, res);
	f = get(get(doc, "status"), "failure");
	assert_null_at(f, "client");
	assert_string_equal(get_str(f, "path"), "/srv/big");
	assert_string_equal(get_str(f, "message"),
			    "probe, cannot list '/srv/big': No such file or directory");
}

static void json_status_of_a_clean_run_has_no_failure(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *st;

	res->failure = NULL;
	res->exit_code = EXIT_OK;
	doc = doc_of(state, res);
	st = get(doc, "status");
	assert_int_equal(get_int(st, "exit_code"), 0);
	assert_null(json_object_get(st, "failure"));
	assert_int_equal(get_int(st, "files_left"), 0);
	assert_int_equal(json_object_size(st), 3);
}

/* The document shares the result's environment: one more reference, not
 * a copy; with no environment the key is null. */
static void json_environment_is_the_kept_object_or_null(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *want = keep_json(state, json_pack("{s:s, s:i}", "kernel", "6.1.0",
						  "cpus", 2));
	json_t *doc;

	assert_int_equal(res->environment->refcount, 1);	/* the result's own */
	doc = doc_of(state, res);
	assert_ptr_equal(get(doc, "environment"), res->environment);
	assert_true(json_equal(get(doc, "environment"), want));
	assert_int_equal(res->environment->refcount, 2);

	res->environment = NULL;
	doc = doc_of(state, res);
	assert_null_at(doc, "environment");
}

/* json_real() refuses NaN and infinities: such figures become null, and
 * the document still dumps and parses back as the same document. */
static void json_non_finite_figures_are_null_and_the_document_parses(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *back, *r;
	char *text;

	res->exec_seconds = 0;
	res->op[OP_READX].mean_ms = NAN;
	res->fairness.jain_index = INFINITY;
	res->timeline[0].mb_s = NAN;
	res->clients[0].mb_s = -INFINITY;
	res->max_latency_ms = NAN;
	doc = doc_of(state, res);
	r = get(doc, "result");
	assert_double_is(get_real(r, "throughput_mb_s"), 0);
	assert_double_is(get_real(r, "nb_mb_s"), 0);
	assert_double_is(get_real(r, "mbit_s"), 0);
	assert_double_is(get_real(r, "elapsed_s"), 0);
	assert_null_at(r, "max_latency_ms");
	assert_null_at(get(get(doc, "ops"), "ReadX"), "mean_ms");
	assert_null_at(get(doc, "fairness"), "jain_index");
	assert_null_at(json_array_get(get(doc, "timeline"), 0), "mb_s");
	assert_null_at(json_array_get(get(doc, "clients"), 0), "mb_s");

	text = dump_of(state, doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	back = keep_json(state, json_loads(text, 0, NULL));
	assert_non_null(back);
	assert_true(json_equal(back, doc));
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "inf"));
}

/*
 * Names are bytes: a loadfile, a directory on the command line or a path
 * in a loadfile (which accepts bytes >= 0x80) need not be UTF-8, but JSON
 * strings must be.  The document must still be made, with the name shown
 * as well as it can be, rather than lost.  (These two fail while
 * report_json.c hands raw bytes to json_pack's "s", which rejects invalid
 * UTF-8: the whole document, or the status.failure object, is dropped.)
 */
static void assert_readable_name(json_t *v, const char *head, const char *tail)
{
	const char *s;

	assert_true(json_is_string(v));
	s = json_string_value(v);
	assert_true(strncmp(s, head, strlen(head)) == 0);
	assert_true(strlen(s) >= strlen(tail));
	assert_string_equal(s + strlen(s) - strlen(tail), tail);
}

static void json_keeps_a_loadfile_and_directory_that_are_not_utf8(void **state)
{
	struct run_result *res = finished_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	static const char *latin1_dirs[] = { "/mnt/caf\xe9", "/b" };
	json_t *doc, *back;
	char *text;

	((struct program *)plan->prog)->source = "caf\xe9.txt";
	plan->dirs = latin1_dirs;
	doc = keep_json(state, report_json(res));
	assert_non_null(doc);
	assert_readable_name(get(get(doc, "config"), "loadfile"), "caf", ".txt");
	assert_readable_name(json_array_get(get(get(doc, "config"), "directories"), 0),
			     "/mnt/caf", "");
	text = dump_of(state, doc, 0);
	back = keep_json(state, json_loads(text, 0, NULL));
	assert_non_null(back);
}

static void json_keeps_a_failure_whose_path_is_not_utf8(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc;

	res->failure->path = "/a/clients/client2/caf\xe9.bin";
	res->failure->text = "client 2, line 17: ReadX /a/clients/client2/caf\xe9.bin: "
			     "Input/output error";
	doc = keep_json(state, report_json(res));
	assert_non_null(doc);
	assert_non_null(json_object_get(get(doc, "status"), "failure"));
	assert_readable_name(get(get(get(doc, "status"), "failure"), "path"),
			     "/a/clients/client2/caf", ".bin");
}

/* ---- report_json_write ---- */

static void json_written_to_a_file_is_the_document(void **state)
{
	struct run_result *res = finished_result(state);
	const char *path = talloc_asprintf(ctx_of(state), "%s/result.json",
					   fixture_scratch_dir(state, "test_report"));
	json_error_t err;
	json_t *doc, *back;

	assert_int_equal(report_json_write(res, path), 0);
	back = keep_json(state, json_load_file(path, 0, &err));
	if (!back)
		fail_msg("%s:%d: %s", path, err.line, err.text);
	doc = doc_of(state, res);
	assert_true(json_equal(back, doc));
}

static void json_written_into_a_missing_directory_is_enoent(void **state)
{
	struct run_result *res = finished_result(state);
	const char *path = talloc_asprintf(ctx_of(state), "%s/missing/result.json",
					   fixture_scratch_dir(state, "test_report"));

	assert_int_equal(report_json_write(res, path), ENOENT);
}

/* ---- report_text ---- */

/*
 * A result set by hand, so every printed figure is known: 116098000 bytes
 * in 1 s is 116.098 MB/sec.  In binary 116.098 * 1.25 is
 * 145.12250000000000227..., just above the half, so %g rounds it up to
 * 145.123; 116.098 * 10 is 1160.98.
 */
static struct run_result *text_result(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct run_result *res = talloc_zero(ctx, struct run_result);
	struct client_result *cl = talloc_zero_array(res, struct client_result, 3);

	assert_non_null(res);
	assert_non_null(cl);
	res->plan = plan_new(ctx);
	res->nclients = 3;
	res->exec_seconds = 1.0;
	res->bytes_read = 100000000;
	res->bytes_written = 16098000;
	res->op[OP_NTCREATEX] = (struct op_result){ .count = 1234, .errors = 2,
		.mean_ms = 0.5, .p50_ms = 0.25, .p90_ms = 1, .p99_ms = 3.125,
		.p999_ms = 7.5, .max_ms = 12.75 };
	res->op[OP_FLUSH].errors = 1;	/* no count: no row */
	for (unsigned i = 0; i < 3; i++) {
		cl[i].id = i + 1;
		cl[i].directory = plan_dirs[i % 2];
		cl[i].bytes = 1000000 * (i + 1);
		cl[i].ops = 10 * (i + 1);
		cl[i].errors = i;
		cl[i].mb_s = 0.5 * (i + 1);
	}
	res->clients = cl;
	res->fairness = (struct fairness){ 10, 20, 40, 0.9 };
	return res;
}

/* What report_text() prints, as a string on the test's context. */
static char *text_of(void **state, const struct run_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	char *s;

	assert_non_null(fp);
	report_text(fp, res);
	assert_int_equal(fclose(fp), 0);
	s = talloc_strndup(ctx_of(state), buf, len);
	free(buf);
	assert_non_null(s);
	return s;
}

/* The whole line of text that starts with prefix, or NULL. */
static const char *line_starting(void **state, const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, prefix, n) == 0)
			return talloc_strndup(ctx_of(state), p, strcspn(p, "\n"));
		if (!strchr(p, '\n'))
			break;
	}
	return NULL;
}

/* The last line of text (which ends in a newline). */
static const char *last_line(void **state, const char *text)
{
	size_t len = strlen(text);
	const char *p = text + len - 1;

	assert_true(len > 0 && text[len - 1] == '\n');
	while (p > text && p[-1] != '\n')
		p--;
	return talloc_strndup(ctx_of(state), p, strcspn(p, "\n"));
}

/* What memory ran out for is left out, not made up: no fairness line
 * without the clients, null in the JSON, and the rest as ever. */
static void a_result_without_its_clients_directories_and_ranks_still_reports(void **state)
{
	struct run_result *res = finished_result(state);

	res->clients = NULL;
	res->dirs = NULL;
	res->ranks = NULL;
	res->missing = "the per-client figures";
	res->plan = talloc_memdup(res, res->plan, sizeof(*res->plan));
	((struct run_plan *)res->plan)->per_client_results = true;
	const char *text = text_of(state, res);
	assert_null(line_starting(state, text, "Clients:"));
	assert_null(line_starting(state, text, "client "));
	assert_non_null(line_starting(state, text, " ReadX "));
	assert_true(strncmp(last_line(state, text), "Throughput ", 11) == 0);
	json_t *doc = doc_of(state, res);
	assert_true(json_is_null(get(doc, "clients")));
	assert_true(json_is_null(get(doc, "directories")));
	assert_true(json_is_null(get(doc, "ranks")));
	assert_true(json_is_object(get(doc, "result")));
}

/*
 * " %-24s %10s %9s %9s %9s %9s %9s %7s": a space, the name left-aligned in
 * 24 columns, then right-aligned columns of 10, five of 9 and one of 7,
 * each after a space.
 */
static void text_table_header_lines_up_the_columns(void **state)
{
	const char *want = " Operation (latency ms)" "  "	/* 22 + 2 = 24 */
			   " " "     Count"			/* 10 */
			   " " "   AvgLat"			/* 9 */
			   " " "      p50"
			   " " "      p99"
			   " " "    p99.9"
			   " " "   MaxLat"
			   " " " Errors";			/* 7 */
	char *text = text_of(state, text_result(state));

	assert_string_equal(want, " Operation (latency ms)        Count    AvgLat       p50"
				  "       p99     p99.9    MaxLat  Errors");
	assert_string_equal(line_starting(state, text, " Operation"), want);
	assert_int_equal(strlen(want), 94);
}

static void text_table_row_shows_the_operation_figures(void **state)
{
	const char *want = " NTCreateX" "               "	/* 24 */
			   " " "      1234"			/* %10 */
			   " " "    0.500"			/* %9.3f */
			   " " "    0.250"
			   " " "    3.125"
			   " " "    7.500"
			   " " "   12.750"
			   " " "      2";			/* %7 */
	char *text = text_of(state, text_result(state));

	assert_string_equal(line_starting(state, text, " NTCreateX"), want);
}

/* mmtests reads the table as every line from "Operation" on, less blank,
 * separator, Operation and Throughput lines: nothing else may be there. */
static void text_table_block_holds_only_the_table_then_throughput(void **state)
{
	struct run_result *res = text_result(state);
	struct probe_result p = { .directory = "/a", .count = 1, .entries = 1 };
	struct run_failure f = { .text = "client 2, line 17: ReadX: Input/output error" };

	res->op[OP_READX] = (struct op_result){ .count = 5, .mean_ms = 1, .max_ms = 2 };
	res->probe = &p;
	res->nprobes = 1;
	res->failure = &f;
	((struct run_plan *)res->plan)->per_client_results = true;
	const char *t = strstr(text_of(state, res), "\n Operation");
	assert_non_null(t);
	assert_string_equal(t + 1,
		" Operation (latency ms)        Count    AvgLat       p50       p99     p99.9"
		"    MaxLat  Errors\n"
		" ---------------------------------------------------------------------------"
		"------------------\n"
		" NTCreateX                      1234     0.500     0.250     3.125     7.500"
		"    12.750       2\n"
		" ReadX                             5     1.000     0.000     0.000     0.000"
		"     2.000       0\n"
		"\n"
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)  3 procs"
		"  PARTIAL (the run failed)\n");
}

/* mmtests takes every line with "execute" for a progress line. */
static void text_after_the_run_never_says_execute(void **state)
{
	struct run_result *res = text_result(state);
	struct probe_result p = { .directory = "/srv/big" };
	struct timeline_point tl[3] = {
		{ .t_s = 1, .mb_s = 100, .ops_s = 500, .max_latency_ms = 2, .probe_ms = NAN },
		{ .t_s = 2, .mb_s = 5, .ops_s = 30, .max_latency_ms = 812.5, .probe_ms = NAN },
		{ .t_s = 3, .mb_s = 100, .ops_s = 480, .max_latency_ms = 3, .probe_ms = NAN },
	};

	res->probe = &p;
	res->nprobes = 1;
	res->timeline = tl;
	res->ntimeline = 3;
	assert_null(strstr(text_of(state, res), "execute"));
}

static void text_table_skips_operations_that_did_not_run(void **state)
{
	char *text = text_of(state, text_result(state));

	assert_null(line_starting(state, text, " Flush"));
	assert_null(line_starting(state, text, " ReadX"));
	assert_null(line_starting(state, text, " Close"));
}

static void text_throughput_line_is_the_classic_one(void **state)
{
	char *text = text_of(state, text_result(state));

	assert_string_equal(line_starting(state, text, "Throughput"),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)  3 procs");
}

static void text_throughput_line_names_the_sync_options(void **state)
{
	struct run_result *res = text_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;

	plan->bopts.sync_open = true;
	assert_string_equal(line_starting(state, text_of(state, res), "Throughput"),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)"
		" (sync open)  3 procs");
	plan->bopts.sync_dir = true;
	assert_string_equal(line_starting(state, text_of(state, res), "Throughput"),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)"
		" (sync open) (sync dirs)  3 procs");
	plan->bopts.sync_open = false;
	assert_string_equal(line_starting(state, text_of(state, res), "Throughput"),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)"
		" (sync dirs)  3 procs");
}

static void text_throughput_line_alone_matches_the_report(void **state)
{
	struct run_result *res = text_result(state);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	report_throughput_line(fp, res);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "Throughput 116.098 MB/sec (NB=145.123 MB/sec"
				 "  1160.98 MBit/sec)  3 procs\n");
	free(buf);
}

/* Above the table, and nowhere without --probe. */
/* A window the parent closed late: the line says by how much, before
 * the table; the JSON holds the figures whether or not it is shown. */
static void text_late_window_line_says_how_late(void **state)
{
	struct run_result *res = text_result(state);
	const char *want = "Late window: the parent closed the measured window 13.02 s after its"
			   " planned end (it was stopped, or starved of CPU); the clients stopped"
			   " at the planned 4 s by their own clocks, and the figures are of those"
			   " 4 s";
	char *text;

	res->window = (struct window_timing){ .planned_s = 4, .late_s = 0.3 };
	assert_null(strstr(text_of(state, res), "Late window"));
	res->window = (struct window_timing){ .planned_s = 4, .late_s = 13.02, .late = true,
					      .open_late_s = 6.5 };
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Late window:"), want);
	assert_true(strstr(text, "Late window:") < strstr(text, " Operation"));
	assert_null(strstr(want, "execute"));
	json_t *w = get(get(doc_of(state, res), "result"), "window");
	assert_double_is(get_real(w, "planned_s"), 4.0);
	assert_double_is(get_real(w, "late_s"), 13.02);
	assert_true(get_bool(w, "late"));
	assert_double_is(get_real(w, "open_late_s"), 6.5);
}

static void text_probe_line_comes_before_the_table(void **state)
{
	struct run_result *res = text_result(state);
	struct probe_result p = { .directory = "/a/clients/probe", .count = 37, .entries = 3000,
				  .p50_ms = 1.234, .p99_ms = 5.678, .max_ms = 6.789 };
	const char *want = "Probe: 37 listings of 3000 entries in /a/clients/probe,"
			   " p50 1.234 ms, p99 5.678 ms, max 6.789 ms";
	char *text;

	assert_null(strstr(text_of(state, res), "Probe"));
	res->probe = &p;
	res->nprobes = 1;
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Probe:"), want);
	assert_true(strstr(text, "Probe:") < strstr(text, " Operation"));
}

/* A device that wrote 200 requests of 45 KiB (100 of 300 merged) and
 * read 10 of 4 KiB, and its backing device that did nothing. */
static void add_disks(struct run_result *res)
{
	struct blockstat_disk *k = talloc_zero_array(res, struct blockstat_disk, 2);
	struct blockstat_figures busy = {
		.reads_s = 5, .writes_s = 100, .read_kib_per_req = 4, .write_kib_per_req = 45,
		.read_merged_pct = 50, .write_merged_pct = 100.0 / 3, .in_flight = 3,
		.queue_depth = 3, .busy_pct = 97,
	};
	struct blockstat_figures idle = {
		.read_kib_per_req = NAN, .write_kib_per_req = NAN, .read_merged_pct = NAN,
		.write_merged_pct = NAN, .busy_pct = 0,
	};

	assert_non_null(k);
	k[0] = (struct blockstat_disk){ .device = "loop0", .under = "/mnt/a", .reads = 10,
					.writes = 200, .read_kib = 40, .write_kib = 9000,
					.fig = busy, .in_flight_max = 8 };
	k[1] = (struct blockstat_disk){ .device = "sda1", .under = "loop0", .fig = idle };
	res->disks = k;
	res->ndisks = 2;
	res->memory = (struct blockstat_memory){ .dirty_pages_mean = 2498, .dirty_pages_max = 2824,
						 .writeback_pages_mean = 22, .writeback_pages_max = 25 };
	for (size_t i = 0; i < res->ntimeline; i++) {
		res->timeline[i].disks = talloc_array(res, struct blockstat_figures, 2);
		assert_non_null(res->timeline[i].disks);
		res->timeline[i].disks[0] = busy;
		res->timeline[i].disks[1] = idle;
		res->timeline[i].dirty_pages = 100 + i;
		res->timeline[i].writeback_pages = NAN;
	}
}

static void text_disk_lines_come_before_the_throughput_line(void **state)
{
	struct run_result *res = text_result(state);
	char *text;

	assert_null(strstr(text_of(state, res), "Disk "));
	add_disks(res);
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Disk loop0"),
		"Disk loop0 (/mnt/a): 45.0 KiB per write, 33 % merged, 97 % busy; 200 writes,"
		" 10 reads of 4.0 KiB, 50 % merged; 3.00 in flight on average over the window,"
		" 8 at most at a once-a-second sample");
	assert_string_equal(line_starting(state, text, "Disk sda1"),
		"Disk sda1 (loop0): 0 % busy; no writes, no reads; 0.00 in flight on average"
		" over the window, 0 at most at a once-a-second sample");
	assert_string_equal(line_starting(state, text, "Page cache:"),
		"Page cache: 2498 dirty pages on average, 2824 at most; 22 under writeback on"
		" average, 25 at most");
	assert_true(strstr(text, "Page cache:") < strstr(text, "Throughput"));
}

static void json_disks_over_the_window_and_per_second(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *d0, *p1;

	add_disks(res);
	doc = doc_of(state, res);
	assert_int_equal(json_array_size(get(doc, "disks")), 2);
	d0 = json_array_get(get(doc, "disks"), 0);
	assert_string_equal(get_str(d0, "device"), "loop0");
	assert_string_equal(get_str(d0, "under"), "/mnt/a");
	assert_int_equal(get_int(d0, "writes"), 200);
	assert_double_is(get_real(d0, "write_kib"), 9000);
	assert_double_is(get_real(d0, "write_kib_per_request"), 45);
	assert_double_is(get_real(d0, "busy_pct"), 97);
	assert_double_is(get_real(d0, "in_flight_max"), 8);
	assert_null_at(json_array_get(get(doc, "disks"), 1), "write_kib_per_request");
	assert_double_is(get_real(get(doc, "memory"), "dirty_pages_max"), 2824);
	p1 = json_array_get(get(doc, "timeline"), 1);
	assert_double_is(get_real(p1, "dirty_pages"), 101);
	assert_null_at(p1, "writeback_pages");
	assert_string_equal(get_str(json_array_get(get(p1, "disks"), 1), "device"), "sda1");
	assert_double_is(get_real(json_array_get(get(p1, "disks"), 0), "in_flight"), 3);
	assert_double_is(get_real(json_array_get(get(p1, "disks"), 0), "writes_s"), 100);
}

/* add_disks() with what reached each device: the clients wrote 631.6 MB
 * beneath /mnt/a, loop0 wrote 9 MB of it (9000 KiB) and sda1, whose stat
 * file could not be read, is unknown; the page cache held 45.1 MB dirty
 * at the end.  /mnt/t, a tmpfs, is on no device. */
static void add_writeback(struct run_result *res)
{
	static struct nodisk tmpfs = { "/mnt/t", "tmpfs" };

	add_disks(res);
	res->disks[1].fig.busy_pct = NAN;
	res->writeback = talloc_zero_array(res, struct writeback, 2);
	assert_non_null(res->writeback);
	res->writeback[0] = (struct writeback){ 631619806, 9216000, 9216000 / 631619806.0,
						45.1e6, 4096 };
	res->writeback[1] = (struct writeback){ 631619806, NAN, NAN, 45.1e6, 4096 };
	res->nodisk = &tmpfs;
	res->nnodisk = 1;
}

static void text_writeback_lines_a_device_and_a_target_on_none(void **state)
{
	struct run_result *res = text_result(state);
	char *text;

	add_disks(res);
	assert_null(strstr(text_of(state, res), "Writeback"));	/* not measured */
	add_writeback(res);
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Writeback loop0"),
		"Writeback loop0 (/mnt/a): the clients wrote 631.6 MB, the device 9.2 MB (0.0146"
		" of it); the machine's page cache held 45.1 MB dirty and 4.1 kB under writeback"
		" at the end");
	assert_string_equal(line_starting(state, text, "Writeback sda1"),
		"Writeback sda1 (loop0): the clients wrote 631.6 MB; the device's stat file could"
		" not be read; the machine's page cache held 45.1 MB dirty and 4.1 kB under"
		" writeback at the end");
	assert_string_equal(line_starting(state, text, "Writeback /mnt/t"),
		"Writeback /mnt/t: no figure: a tmpfs file system, on no block device");
	assert_true(strstr(text, "Writeback loop0") < strstr(text, "Throughput"));
	/* near 1, three decimals: a journal's 0.5 % on top is seen */
	res->writeback[0].device_bytes = 634532160;
	res->writeback[0].ratio = 634532160 / 631619806.0;
	assert_non_null(strstr(text_of(state, res), "the device 634.5 MB (1.005 of it);"));
	res->writeback[0].ratio = 1;
	assert_non_null(strstr(text_of(state, res), "the device 634.5 MB (1.000 of it);"));
	/* a backend that writes nothing here: one line says so */
	res->writeback_none = "the null backend writes nothing";
	res->writeback = NULL;
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Writeback"),
		"Writeback: no figure: the null backend writes nothing");
	assert_null(strstr(text, "Writeback loop0"));
}

static void json_writeback_of_each_device_and_the_targets_on_none(void **state)
{
	struct run_result *res = finished_result(state);
	json_t *doc, *d0, *d1, *wb;

	add_writeback(res);
	res->memory.dirty_pages_end = 11011;
	doc = doc_of(state, res);
	d0 = json_array_get(get(doc, "disks"), 0);
	assert_double_is(get_real(d0, "clients_written_bytes"), 631619806);
	assert_double_is(get_real(d0, "written_bytes"), 9216000);
	assert_double_is(get_real(d0, "written_ratio"), 9216000 / 631619806.0);
	assert_double_is(get_real(d0, "dirty_end_bytes"), 45.1e6);
	assert_double_is(get_real(d0, "writeback_end_bytes"), 4096);
	d1 = json_array_get(get(doc, "disks"), 1);
	assert_null_at(d1, "written_bytes");
	assert_null_at(d1, "written_ratio");
	assert_double_is(get_real(get(doc, "memory"), "dirty_pages_end"), 11011);
	wb = get(doc, "writeback");
	assert_null_at(wb, "none");
	assert_int_equal(json_array_size(get(wb, "no_device")), 1);
	assert_string_equal(get_str(json_array_get(get(wb, "no_device"), 0), "directory"),
			    "/mnt/t");
	assert_string_equal(get_str(json_array_get(get(wb, "no_device"), 0), "fstype"), "tmpfs");
	/* not measured: every device's figures null, and why */
	res->writeback = NULL;
	res->writeback_none = "the smb backend writes to a server";
	doc = doc_of(state, res);
	assert_null_at(json_array_get(get(doc, "disks"), 0), "written_ratio");
	assert_string_equal(get_str(get(doc, "writeback"), "none"),
			    "the smb backend writes to a server");
}

static void text_probe_line_of_one_listing_and_of_none(void **state)
{
	struct run_result *res = text_result(state);
	struct probe_result p = { .directory = "/srv/big", .count = 1, .entries = 12,
				  .p50_ms = 0.5, .p99_ms = 0.5, .max_ms = 0.5 };

	res->probe = &p;
	res->nprobes = 1;
	assert_string_equal(line_starting(state, text_of(state, res), "Probe:"),
		"Probe: 1 listing of 12 entries in /srv/big, p50 0.500 ms, p99 0.500 ms,"
		" max 0.500 ms");
	p.p50_ms = p.p99_ms = NAN;	/* as result.c leaves them from one listing */
	assert_string_equal(line_starting(state, text_of(state, res), "Probe:"),
		"Probe: 1 listing of 12 entries in /srv/big, p50 - (1 listing, 2 needed),"
		" p99 - (1 listing, 100 needed), max 0.500 ms");
	p.count = 0;
	assert_string_equal(line_starting(state, text_of(state, res), "Probe:"),
		"Probe: no listing of /srv/big started in the measured window");
}

static void text_verify_line_comes_before_the_table_with_verify(void **state)
{
	struct run_result *res = text_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;
	char *text;

	assert_null(strstr(text_of(state, res), "Verify:"));
	plan->bopts.verify = true;
	res->verify = (struct verify_result){ 123456789, 4321, 0, 0.42, 1.3 };
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Verify:"),
		"Verify: 123.5 MB checked in 4321 reads, no mismatch, 0.42 s spent"
		" (1.3 % of operation time)");
	assert_true(strstr(text, "Verify:") < strstr(text, " Operation"));
	assert_true(strstr(text, "Verify:") < strstr(text, "Clients:"));
	res->verify = (struct verify_result){ 99999, 1, 1, 0.001, 50 };
	assert_string_equal(line_starting(state, text_of(state, res), "Verify:"),
		"Verify: 99999 bytes checked in 1 read, 1 mismatch, 0.00 s spent"
		" (50.0 % of operation time)");
	res->verify.mismatches = 2;
	assert_non_null(strstr(text_of(state, res), " read, 2 mismatches, "));
}

static void text_fairness_line_gives_slowest_median_fastest_and_jain(void **state)
{
	char *text = text_of(state, text_result(state));

	assert_string_equal(line_starting(state, text, "Clients:"),
		"Clients: slowest 10.00 MB/sec, median 20.00, fastest 40.00;"
		" Jain's fairness index 0.9000");
}

/* A rate missing (a client killed) leaves no figure a value: no line of
 * dashes, nothing. */
static void text_fairness_line_is_left_out_without_a_value(void **state)
{
	struct run_result *res = text_result(state);

	res->fairness = (struct fairness){ NAN, NAN, NAN, NAN };
	assert_null(line_starting(state, text_of(state, res), "Clients:"));
	assert_null(strstr(text_of(state, res), "fairness index -"));
}

/* 100, 5, 100 MB/sec: the second second is below a tenth of the median. */
static void text_stall_line_names_the_stalled_second(void **state)
{
	struct run_result *res = text_result(state);
	struct timeline_point *tl = talloc_array(res, struct timeline_point, 3);
	char *text;

	assert_non_null(tl);
	tl[0] = (struct timeline_point){ .t_s = 1, .mb_s = 100, .ops_s = 500, .max_latency_ms = 2, .probe_ms = NAN };
	tl[1] = (struct timeline_point){ .t_s = 2, .mb_s = 5, .ops_s = 30, .max_latency_ms = 812.5, .probe_ms = NAN };
	tl[2] = (struct timeline_point){ .t_s = 3, .mb_s = 100, .ops_s = 480, .max_latency_ms = 3, .probe_ms = NAN };
	res->timeline = tl;
	res->ntimeline = 3;
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "Stall:"),
		"Stall: second 2 of the measured window: 5.00 MB/sec, 30 ops/sec,"
		" worst latency 812.500 ms");
	assert_null(strstr(strstr(text, "Stall:") + 1, "Stall:"));
	assert_true(strstr(text, "Clients:") < strstr(text, "Stall:"));
}

static void text_without_stalls_has_no_stall_line(void **state)
{
	char *text = text_of(state, text_result(state));

	assert_null(strstr(text, "Stall:"));
}

static void text_per_client_lines_only_when_asked(void **state)
{
	struct run_result *res = text_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;

	assert_null(strstr(text_of(state, res), "client 1:"));
	plan->per_client_results = true;
	char *text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "client 1:"),
			    "client 1: 0.5 MB/sec  1000000 bytes  10 ops  0 errors");
	assert_string_equal(line_starting(state, text, "client 3:"),
			    "client 3: 1.5 MB/sec  3000000 bytes  30 ops  2 errors");
}

/* Above the table: the Throughput line is the last in every case. */
static void text_failed_line_comes_before_the_table(void **state)
{
	struct run_result *res = text_result(state);
	struct run_failure f = { .client = 2, .line = 17, .operation = "ReadX",
				 .error = "Input/output error",
				 .text = "client 2, line 17: ReadX: Input/output error" };
	char *text;

	assert_null(strstr(text_of(state, res), "FAILED"));
	res->failure = &f;
	((struct run_plan *)res->plan)->per_client_results = true;
	text = text_of(state, res);
	assert_string_equal(line_starting(state, text, "FAILED"),
			    "FAILED: client 2, line 17: ReadX: Input/output error");
	assert_true(strstr(text, "FAILED") < strstr(text, " Operation"));
	assert_string_equal(last_line(state, text),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)  3 procs"
		"  PARTIAL (the run failed)");
}

/* An interrupted run's last line names the signal; a good run's has no
 * marker (the line above). */
static void text_interrupted_run_ends_partial_with_the_signal(void **state)
{
	struct run_result *res = text_result(state);

	assert_null(strstr(text_of(state, res), "PARTIAL"));
	res->interrupted = true;
	res->exit_code = 128 + 2;
	assert_string_equal(last_line(state, text_of(state, res)),
		"Throughput 116.098 MB/sec (NB=145.123 MB/sec  1160.98 MBit/sec)  3 procs"
		"  PARTIAL (interrupted by SIGINT)");
}

/* The dbench4 layout: dbench 4.0's own lines, nothing else. */
static struct run_result *dbench4_result(void **state)
{
	struct run_result *res = text_result(state);

	((struct run_plan *)res->plan)->output_format = OUTPUT_DBENCH4;
	res->max_latency_ms = 12.75;
	res->op[OP_QPATHINFO] = (struct op_result){ .count = 7, .mean_ms = 0.125,
		.max_ms = 0.25 };
	return res;
}

static void dbench4_text_is_4_0s_table_then_its_throughput_line(void **state)
{
	struct run_result *res = dbench4_result(state);
	struct probe_result p = { .directory = "/a", .count = 1, .entries = 1 };

	res->probe = &p;	/* ours: the JSON's alone in this layout */
	res->nprobes = 1;
	assert_string_equal(text_of(state, res),
		"\n"
		" Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		" NTCreateX       1234     0.500    12.750\n"
		" Qpathinfo          7     0.125     0.250\n"
		"\n"
		"Throughput 116.098 MB/sec  3 clients  3 procs  max_latency=12.750 ms\n");
}

static void dbench4_throughput_line_counts_processes_and_sync_options(void **state)
{
	struct run_result *res = dbench4_result(state);
	struct run_plan *plan = (struct run_plan *)res->plan;

	plan->clients_per_process = 2;	/* 3 clients in 2 processes */
	plan->bopts.sync_open = plan->bopts.sync_dir = true;
	assert_string_equal(last_line(state, text_of(state, res)),
		"Throughput 116.098 MB/sec (sync open) (sync dirs)  3 clients  2 procs"
		"  max_latency=12.750 ms");
}

static void dbench4_per_client_lines_are_4_0s(void **state)
{
	struct run_result *res = dbench4_result(state);

	((struct run_plan *)res->plan)->per_client_results = true;
	char *text = text_of(state, res);
	assert_non_null(strstr(text, "\nPer client results:\nClient 0 did 10 lines and 1000000"
				     " bytes\nClient 1 did 20 lines and 2000000 bytes\n"));
	assert_true(strstr(text, "Per client") < strstr(text, "Throughput"));
}

static void dbench4_machine_readable_is_5_0s(void **state)
{
	struct run_result *res = dbench4_result(state);

	((struct run_plan *)res->plan)->machine_readable = true;
	assert_string_equal(text_of(state, res),
		"\n"
		" Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		":NTCreateX:1234:0.500:12.750:\n"
		":Qpathinfo:7:0.125:0.250:\n"
		"\n"
		";116.098;3;3;12.750;\n");
}

/* What a run_plan's lines before the table print, as a string. */
static char *lines_of(void **state, const struct run_plan *plan, const struct progress *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	report_header(fp, plan, 1);
	report_ready(fp, plan, 1, 0.25);
	for (; p && p->phase; p++)
		report_progress(fp, p);
	assert_int_equal(fclose(fp), 0);
	char *s = talloc_strndup(ctx_of(state), buf, len);
	free(buf);
	return s;
}

static void dbench4_lines_before_the_table_are_4_0s(void **state)
{
	struct run_plan *plan = plan_new(ctx_of(state));
	struct progress p[] = {
		{ OUTPUT_DBENCH4, false, 3, 3, 3000, 12.5, 0, "warmup", 1, 0, 4.5, false, 0, 0 },
		{ OUTPUT_DBENCH4, false, 3, 3, 30000, 133.714, 0, "execute", 12, 12, 0.25, false, 0, 0 },
		{ OUTPUT_DBENCH4, false, 3, 2, 30000, 0, 0, "cleanup", 1, 13, 0, false, 0, 0 },
		{ 0 },
	};

	plan->output_format = OUTPUT_DBENCH4;
	assert_string_equal(lines_of(state, plan, p),
		"dbench version " DBENCH_VERSION " - the dbench 4.00 output layout\n"
		"\n"
		"Running for 10 seconds with load 'loadfiles/client.txt' and minimum warmup 2 secs\n"
		"3 of 3 processes prepared for launch   0 sec\n"
		"releasing clients\n"
		"   3      1000    12.50 MB/sec  warmup   1 sec  latency 4.500 ms\n"
		"   3     10000   133.71 MB/sec  execute  12 sec  latency 0.250 ms\n"
		"   2  cleanup  13 sec\n");
	plan->machine_readable = true;
	for (int i = 0; p[i].phase; i++)
		p[i].machine_readable = true;
	assert_string_equal(strstr(lines_of(state, plan, p), "releasing clients\n"),
		"releasing clients\n"
		"@W@3@1000@12.50@1@4.500@\n"
		"@R@3@10000@133.71@12@0.250@\n"
		"@C@2@10000@0.00@13@0.000@\n");
}

/* Classic: no line before the progress lines says "execute". */
static void classic_lines_before_the_table_never_say_execute(void **state)
{
	struct run_plan *plan = plan_new(ctx_of(state));
	char *text = lines_of(state, plan, NULL);

	assert_null(strstr(text, "execute"));
	assert_non_null(strstr(text, "3 clients, 10 s measured after 2 s warmup\n"));
	assert_non_null(strstr(text, "3 clients ready in 0.25 s\n"));
}

/* The three clients of record_known_ops() (4, 2 and 1 operations; the
 * second moved 131072 bytes, the median) against a loadfile of per_pass
 * ReadX of 64 KiB. */
static struct run_result *result_of_passes(void **state, uint64_t per_pass, bool moves,
					   bool run_once)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *st = region_new(ctx);
	struct run_result *res = talloc_zero(ctx, struct run_result);
	struct run_plan *plan = plan_new(ctx);
	struct program *prog = (struct program *)plan->prog;

	assert_non_null(st);
	assert_non_null(res);
	record_known_ops(st);
	prog->count[moves ? OP_READX : OP_QFSINFO] = per_pass;
	prog->bytes_read = moves ? 65536 * per_pass : 0;
	plan->run_once = run_once;
	res->plan = plan;
	res->nclients = 3;
	res->exec_seconds = EXEC_SECONDS;
	result_fill(res, st);
	return res;
}

/* The median client (2 operations) replayed a quarter of a pass of 8. */
static void text_short_window_line_names_the_median_clients_share(void **state)
{
	struct run_result *res = result_of_passes(state, 8, true, false);
	json_t *r = get(doc_of(state, res), "replayed");

	assert_string_equal(line_starting(state, text_of(state, res), "Short window:"),
		"Short window: the median client replayed 25 % of the loadfile (2 of 8 operations)"
		" in the measured window; the figures are those of that part of it, not of the"
		" whole workload");
	assert_int_equal(json_integer_value(get(r, "operations_per_pass")), 8);
	assert_int_equal(json_integer_value(get(r, "median_operations")), 2);
	assert_true(json_real_value(get(r, "median_share")) == 0.25);
	assert_true(json_is_false(get(r, "moved_nothing")));
	assert_true(json_is_true(get(r, "short_window")));
}

/* A pass of 2: the median client replayed all of it; no line. */
static void text_has_no_short_window_line_after_a_whole_pass(void **state)
{
	struct run_result *res = result_of_passes(state, 2, true, false);

	assert_null(line_starting(state, text_of(state, res), "Short window:"));
	assert_true(json_is_false(get(get(doc_of(state, res), "replayed"), "short_window")));
}

/* A loadfile that moves nothing: the median client's 0 bytes are no
 * news, its share is. */
static void short_window_moved_nothing_only_where_a_pass_moves_bytes(void **state)
{
	struct run_result *res = result_of_passes(state, 2, false, false);

	assert_false(res->replayed.moved_nothing);
	assert_false(res->replayed.too_short);
	assert_string_equal(report_share_pct((char[16]){ 0 }, 0.0412), "4.1 %");
	assert_string_equal(report_share_pct((char[16]){ 0 }, 0.00041), "0.04 %");
	assert_string_equal(report_share_pct((char[16]){ 0 }, 1.5), "150 %");
	assert_string_equal(report_share_pct((char[16]){ 0 }, 1), "100 %");
	/* less than a pass never reads as a whole one */
	assert_string_equal(report_share_pct((char[16]){ 0 }, 0.9996), "99.96 %");
	assert_string_equal(report_share_pct((char[16]){ 0 }, 0.996), "99.6 %");
	assert_string_equal(report_share_pct((char[16]){ 0 }, 0.9999999), "99.9999 %");
}

/* With --run-once every client replays one whole pass: the window is the
 * workload, whatever the counts say (an operation ending after the stop
 * is counted in no window), and no Short window line is printed. */
static void run_once_has_no_short_window_line(void **state)
{
	struct run_result *res = result_of_passes(state, 8, true, true);

	assert_false(res->replayed.too_short);
	assert_null(line_starting(state, text_of(state, res), "Short window:"));
	assert_true(json_is_false(get(get(doc_of(state, res), "replayed"), "short_window")));
}

/* Classic: a cleanup line says how many clients are not done. */
static void classic_cleanup_lines_count_down_the_clients_left(void **state)
{
	struct run_plan *plan = plan_new(ctx_of(state));
	struct progress p[] = {
		{ OUTPUT_CLASSIC, false, 3, 3, 30000, 133.714, 120.5, "execute", 12, 12, 0.25, false, 0, 0 },
		{ OUTPUT_CLASSIC, false, 3, 2, 30000, 0, 0, "cleanup", 1, 13, 1.5, false, 0, 0 },
		{ 0 },
	};

	assert_non_null(strstr(lines_of(state, plan, p),
		"   3     10000   133.71 MB/sec  execute  12 sec  latency 0.250 ms  now 120.50 MB/sec\n"
		"   3     10000     0.00 MB/sec  cleanup   1 sec  latency 1.500 ms  now 0.00 MB/sec"
		"  2 left\n"));
}

/* The lines while the clients set up, in both layouts, and the one of a
 * signal that came before they were released. */
static void setup_lines_count_the_clients_prepared(void **state)
{
	struct run_plan *plan = plan_new(ctx_of(state));
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	report_setup(fp, plan, 2, 1.4);
	plan->output_format = OUTPUT_DBENCH4;
	report_setup(fp, plan, 2, 1.4);
	report_setup_interrupted(fp);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "2 of 3 clients prepared, 1 s\n"
				 "2 of 3 processes prepared for launch   1 sec\n"
				 "\ninterrupted in setup: no results\n");
	free(buf);
}

/* --show-execute-time: the line of the dbench that mmtests builds. */
static void pass_line_is_the_mmtests_forks(void **state)
{
	struct run_plan *plan = plan_new(ctx_of(state));
	struct pass_time p = { .client = 3, .ms = 1234.9, .at_ms = 5678.99 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	report_pass(fp, plan, &p);
	plan->output_format = OUTPUT_DBENCH4;
	report_pass(fp, plan, &p);
	plan->machine_readable = true;
	report_pass(fp, plan, &p);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "   3 completed in 1234 ms at time 5678 ms\n"
				 "   3 completed in 1234 ms at time 5678 ms\n"
				 "@E@3@1234\n");
	free(buf);
}

static void json_passes_list_each_pass_with_the_option(void **state)
{
	struct run_result *res = finished_result(state);
	struct pass_time p[2] = { { 0, 80.5, 81 }, { 1, 90.25, 92 } };

	assert_true(json_is_null(get(doc_of(state, res), "passes")));
	((struct run_plan *)res->plan)->show_execute_time = true;
	res->passes = p;
	res->npasses = 2;
	res->passes_lost = 7;
	char *s = json_dumps(get(doc_of(state, res), "passes"), JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(s, "{\"list\":[{\"client\":0,\"ms\":80.5,\"at_ms\":81.0},"
			       "{\"client\":1,\"ms\":90.25,\"at_ms\":92.0}],\"lost\":7}");
	free(s);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		/* result_fairness */
		T(fairness_of_equal_rates_is_one),
		T(fairness_of_one_busy_client_in_four_is_a_quarter),
		T(fairness_of_2_and_4_is_0_9),
		T(fairness_median_of_an_odd_count_is_the_middle_rate),
		T(fairness_median_of_an_even_count_is_the_mean_of_the_middle_two),
		T(fairness_of_one_client_is_its_own_rate_and_one),
		T(fairness_of_all_zero_rates_is_one_not_nan),
		T(fairness_with_a_missing_rate_is_unknown),
		T(fairness_does_not_reorder_its_input),
		/* result_stalls */
		T(stalls_are_seconds_below_a_tenth_of_the_median_rate),
		T(a_second_at_exactly_a_tenth_of_the_median_is_not_a_stall),
		T(stall_median_of_an_even_timeline_is_the_mean_of_the_middle_two),
		T(stalls_without_bytes_are_judged_by_operations),
		T(stalls_with_bytes_ignore_the_operation_rate),
		T(an_empty_timeline_has_no_stalls),
		T(stalls_leave_only_the_indexes_on_the_context),
		/* result_fill and result_throughput */
		T(fill_sums_bytes_operations_and_errors_of_the_execute_phase),
		T(fill_sums_verify_work_and_its_share_of_operation_time),
		T(fill_gives_each_operation_its_count_errors_and_latencies),
		T(fill_leaves_operations_that_did_not_run_at_zero),
		T(fill_max_latency_is_the_worst_execute_operation),
		T(fill_gives_each_client_its_figures_and_directory_round_robin),
		T(fill_rates_each_client_over_its_own_time),
		T(fill_rates_each_directory_over_its_clients_time),
		T(fill_computes_fairness_from_the_client_rates),
		T(throughput_is_bytes_moved_over_the_execute_window),
		T(throughput_of_an_empty_window_is_zero),
		T(fill_with_an_empty_window_gives_no_rates_and_no_fairness),
		T(fill_leaves_only_the_clients_and_directories_on_the_result),
		T(ranks_get_their_rates_and_fairness),
		T(stonewall_is_the_rate_until_the_first_rank_finished),
		T(stonewall_interpolates_within_a_second),
		T(stonewall_of_a_window_every_rank_ran_is_the_throughput),
		T(a_rank_without_a_rate_leaves_the_stonewall_unknown),
		T(ticks_combine_sums_maxima_and_the_first_failure),
		T(fill_splits_clients_and_bytes_by_directory),
		T(fill_of_a_result_new_allocates_nothing),
		T(a_result_without_its_clients_directories_and_ranks_still_reports),
		/* the probe's listings */
		T(fill_probe_counts_only_listings_that_started_in_the_execute_phase),
		T(fill_probe_directory_is_the_default_or_the_one_given),
		T(fill_without_probe_has_no_probe_result),
		T(fill_probe_without_execute_listings_is_zero),
		T(probe_windows_keep_the_longest_listing_of_each_tick),
		/* report_json */
		T(json_has_every_top_level_key),
		T(json_environment_holds_the_members_of_the_table),
		T(json_command_line_is_empty_when_not_recorded),
		T(json_config_describes_the_plan),
		T(json_config_shows_options_pacing_and_backend_as_set),
		T(json_config_warmup_is_zero_with_run_once),
		T(json_result_has_throughput_in_three_units_and_the_totals),
		T(json_verify_holds_the_figures_with_verify),
		T(json_ops_lists_only_operations_with_a_count_or_errors),
		T(json_ops_hold_the_figures_of_each_operation),
		T(json_timeline_holds_each_point),
		T(json_timeline_points_hold_each_operations_count_and_p99),
		T(json_probe_is_null_without_probe),
		T(json_probe_holds_directory_count_entries_and_times),
		T(json_config_probe_directory_is_the_one_given),
		T(json_timeline_points_carry_probe_ms_with_probe),
		T(json_probe_times_are_null_without_a_listing),
		T(json_clients_hold_each_client_in_order),
		T(json_fairness_is_the_result_fairness),
		T(json_status_describes_the_failure),
		T(json_failure_without_line_operation_or_path_has_nulls),
		T(json_failure_of_the_probe_has_a_null_client),
		T(json_status_of_a_clean_run_has_no_failure),
		T(json_environment_is_the_kept_object_or_null),
		T(json_non_finite_figures_are_null_and_the_document_parses),
		T(json_keeps_a_loadfile_and_directory_that_are_not_utf8),
		T(json_keeps_a_failure_whose_path_is_not_utf8),
		/* report_json_write */
		T(json_written_to_a_file_is_the_document),
		T(json_written_into_a_missing_directory_is_enoent),
		/* report_text */
		T(text_table_header_lines_up_the_columns),
		T(text_table_row_shows_the_operation_figures),
		T(text_table_skips_operations_that_did_not_run),
		T(text_throughput_line_is_the_classic_one),
		T(text_throughput_line_names_the_sync_options),
		T(text_throughput_line_alone_matches_the_report),
		T(text_late_window_line_says_how_late),
		T(text_probe_line_comes_before_the_table),
		T(text_disk_lines_come_before_the_throughput_line),
		T(json_disks_over_the_window_and_per_second),
		T(text_writeback_lines_a_device_and_a_target_on_none),
		T(json_writeback_of_each_device_and_the_targets_on_none),
		T(text_probe_line_of_one_listing_and_of_none),
		T(text_verify_line_comes_before_the_table_with_verify),
		T(text_fairness_line_gives_slowest_median_fastest_and_jain),
		T(text_fairness_line_is_left_out_without_a_value),
		T(text_stall_line_names_the_stalled_second),
		T(text_without_stalls_has_no_stall_line),
		T(text_per_client_lines_only_when_asked),
		T(text_failed_line_comes_before_the_table),
		T(text_interrupted_run_ends_partial_with_the_signal),
		T(text_table_block_holds_only_the_table_then_throughput),
		T(text_after_the_run_never_says_execute),
		T(dbench4_text_is_4_0s_table_then_its_throughput_line),
		T(dbench4_throughput_line_counts_processes_and_sync_options),
		T(dbench4_per_client_lines_are_4_0s),
		T(dbench4_machine_readable_is_5_0s),
		T(dbench4_lines_before_the_table_are_4_0s),
		T(classic_lines_before_the_table_never_say_execute),
		T(classic_cleanup_lines_count_down_the_clients_left),
		T(text_short_window_line_names_the_median_clients_share),
		T(text_has_no_short_window_line_after_a_whole_pass),
		T(short_window_moved_nothing_only_where_a_pass_moves_bytes),
		T(run_once_has_no_short_window_line),
		T(setup_lines_count_the_clients_prepared),
		T(pass_line_is_the_mmtests_forks),
		T(json_passes_list_each_pass_with_the_option),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
