/*
 * test_stats.c - the stats region's latency histograms (stats.h), kept
 * per directory and CPU and put together per group, specified by example.
 *
 * Clients record known latencies with stats_record() on CPUs the test
 * chooses; a group collected with stats_group_collect() must then equal,
 * bucket for bucket, a histogram made with hist_record() from the same
 * values, whichever sets they went through.  Also: the parent reads no
 * page of a set that nobody wrote, clients adding to one set at once lose
 * no count, and stats_cpu() names the CPU the caller runs on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stats.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx

#define US 1000ull
#define MS 1000000ull

/* Record an execute-phase operation of client i of r, made on CPU cpu. */
static void record(struct stats_region *r, unsigned i, unsigned cpu, enum op_type op,
		   uint64_t ns)
{
	struct stats_sets sets = stats_sets_of(r, i);

	stats_record(&r->slot[i], &sets, cpu, PHASE_EXECUTE, op, 0, ns, 0, 0);
}

static void assert_hist_equal(const struct hist *got, const struct hist *want)
{
	assert_int_equal(got->count, want->count);
	assert_int_equal(got->sum_ns, want->sum_ns);
	assert_int_equal(got->min_ns, want->min_ns);
	assert_int_equal(got->max_ns, want->max_ns);
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (got->bucket[b] != want->bucket[b])
			fail_msg("bucket %u: got %llu, want %llu", b, (unsigned long long)got->bucket[b],
				 (unsigned long long)want->bucket[b]);
}

static uint64_t bucket_sum(const struct hist *h)
{
	uint64_t n = 0;

	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		n += h->bucket[b];
	return n;
}

/* The group of directory dir (or STATS_ALL_DIRS), on ctx. */
static struct stats_group *collect(TALLOC_CTX *ctx, const struct stats_region *r, int dir)
{
	struct stats_group *g = talloc_zero(ctx, struct stats_group);

	assert_non_null(g);
	stats_group_collect(g, r, dir);
	return g;
}

/*
 * Two directories, two CPUs, four clients: clients 0 and 2 are in
 * directory 0, clients 1 and 3 in directory 1.  On CPU 1, client 0 and
 * client 1 (of different directories) use the same set index; clients 0
 * and 2 share the set of directory 0 on CPU 0, with values in the same
 * buckets.
 */
static const struct { unsigned client, cpu; enum op_type op; uint64_t ns; } known[] = {
	{ 0, 1, OP_READX, 3 * MS },
	{ 1, 1, OP_READX, 5 * MS },
	{ 1, 1, OP_READX, 5 * MS + 1 },
	{ 0, 0, OP_READX, 1 * MS },
	{ 2, 0, OP_READX, 1 * MS },
	{ 2, 0, OP_READX, 700 * US },
	{ 0, 0, OP_WRITEX, 2 * MS },
	{ 2, 0, OP_WRITEX, 40 },
	{ 3, 1, OP_WRITEX, 9 * MS },
	{ 3, 0, OP_CLOSE, 100 * US },
	{ 0, 5, OP_CLOSE, 300 * US },	/* CPU 5 of 2: the set of CPU 1 */
};

static struct stats_region *known_region(TALLOC_CTX *ctx)
{
	struct stats_region *r = stats_map(ctx, 4, 2, 2, 0);

	assert_non_null(r);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		record(r, known[i].client, known[i].cpu, known[i].op, known[i].ns);
	return r;
}

/* What hist_record() makes of the known values of directory dir (all
 * with STATS_ALL_DIRS) of type op. */
static struct hist *expected(TALLOC_CTX *ctx, int dir, enum op_type op)
{
	struct hist *h = talloc_zero(ctx, struct hist);

	assert_non_null(h);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].op == op && (dir < 0 || (int)(known[i].client % 2) == dir))
			hist_record(h, known[i].ns);
	return h;
}

static void groups_are_exactly_their_clients_values_whatever_the_sets(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = known_region(ctx);
	const int dirs[] = { STATS_ALL_DIRS, 0, 1 };

	for (size_t d = 0; d < 3; d++) {
		struct stats_group *g = collect(ctx, r, dirs[d]);
		for (int t = 0; t < OP_COUNT; t++)
			assert_hist_equal(&g->hist[t], expected(ctx, dirs[d], t));
	}
	assert_int_equal(collect(ctx, r, 0)->hist[OP_READX].count, 4);
	assert_int_equal(collect(ctx, r, 1)->hist[OP_READX].count, 2);
	assert_int_equal(collect(ctx, r, 1)->hist[OP_READX].min_ns, 5 * MS);
	assert_int_equal(collect(ctx, r, 0)->clients, 2);
}

/* The count the slots give is the number of values in the buckets. */
static void a_groups_count_is_its_bucket_sum_and_its_clients_count(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = known_region(ctx);
	struct stats_group *g = collect(ctx, r, STATS_ALL_DIRS);
	uint64_t all = 0;

	for (int t = 0; t < OP_COUNT; t++) {
		assert_int_equal(g->hist[t].count, bucket_sum(&g->hist[t]));
		assert_int_equal(g->hist[t].count, g->exec.op[t].count);
		all += g->hist[t].count;
	}
	assert_int_equal(all, sizeof(known) / sizeof(known[0]));
	assert_int_equal(g->exec.op[OP_CLOSE].min_ns, 100 * US);
	assert_int_equal(g->exec.op[OP_CLOSE].max_ns, 300 * US);
}

/* Warmup and stop-phase operations count in their phase, not in the
 * execute histograms. */
static void only_execute_phase_latencies_reach_the_buckets(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = stats_map(ctx, 1, 1, 2, 0);
	struct stats_sets sets = stats_sets_of(r, 0);

	assert_non_null(r);
	stats_record(&r->slot[0], &sets, 0, PHASE_WARMUP, OP_READX, 10, 7 * MS, 0, 0);
	stats_record(&r->slot[0], &sets, 1, PHASE_STOP, OP_READX, 10, 8 * MS, 0, 0);
	stats_record(&r->slot[0], &sets, 1, PHASE_EXECUTE, OP_READX, 10, 2 * MS, 0, 0);

	struct stats_group *g = collect(ctx, r, STATS_ALL_DIRS);
	assert_int_equal(g->hist[OP_READX].count, 1);
	assert_int_equal(bucket_sum(&g->hist[OP_READX]), 1);
	assert_int_equal(g->hist[OP_READX].max_ns, 2 * MS);
	assert_int_equal(r->slot[0].phase[PHASE_WARMUP].op[OP_READX].min_ns, 7 * MS);
}

/* Merging groups (as the MPI reduction does) gives the histogram of all
 * their values. */
static void directory_groups_add_up_to_the_whole(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = known_region(ctx);
	struct stats_group *sum = collect(ctx, r, 0);

	stats_group_add(sum, collect(ctx, r, 1));
	for (int t = 0; t < OP_COUNT; t++)
		assert_hist_equal(&sum->hist[t], expected(ctx, STATS_ALL_DIRS, t));
	assert_int_equal(sum->clients, 4);
}

/* Pages of the sets that are in memory after recording and collecting:
 * those some client wrote, no more. */
static void collecting_reads_no_page_of_a_set_nobody_wrote(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (page != STATS_CHUNK)
		skip();	/* below, a chunk is a page */
	struct stats_region *r = known_region(ctx);
	size_t len = (size_t)r->ndirs * r->ncpus * sizeof(struct hist_set);
	size_t npages = (len + page - 1) / page;
	unsigned char *in = talloc_array(ctx, unsigned char, npages);

	collect(ctx, r, STATS_ALL_DIRS);
	collect(ctx, r, 0);
	collect(ctx, r, 1);
	assert_int_equal(mincore(r->sets, len, in), 0);
	size_t resident = 0, flagged = 0;
	for (size_t p = 0; p < npages; p++) {
		resident += in[p] & 1;
		flagged += r->touched[p] != 0;	/* one chunk per page, sets back to back */
		assert_int_equal(in[p] & 1, r->touched[p] != 0);
	}
	assert_int_equal(resident, flagged);
	assert_true(resident > 0 && resident < npages);
}

/* The pages of the client slots of r in memory, counted, into in[]. */
static size_t slot_pages_in(const struct stats_region *r, unsigned char *in, size_t *npages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)&r->slot[0] / page * page;
	uintptr_t hi = (uintptr_t)&r->slot[r->nclients];
	size_t n = 0;

	*npages = (hi - lo + page - 1) / page;
	assert_int_equal(mincore((void *)lo, hi - lo, in), 0);
	for (size_t p = 0; p < *npages; p++)
		n += in[p] & 1;
	return n;
}

/* Limited to a program's operation types, the parent's reading of the
 * slots (the sampler's sums, the worst latency, the groups and the
 * clients' figures at the end) brings in no page of them that the
 * clients did not write: each slot spans nine pages, and reading those
 * nobody wrote allocated them, some 20 KB a client. */
static void reading_slots_brings_in_only_pages_the_clients_wrote(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = stats_map(ctx, 4, 2, 1, 0);
	uint64_t count[OP_COUNT] = { [OP_READX] = 3, [OP_CLOSE] = 1 };
	unsigned char in_before[64], in_after[64];
	size_t npages;

	assert_non_null(r);
	assert_true(sizeof(struct client_slot) * 4 / 4096 + 2 <= sizeof(in_before));
	stats_limit_types(r, count);
	for (unsigned i = 0; i < 4; i++) {
		struct stats_sets sets = stats_sets_of(r, i);
		stats_record(&r->slot[i], &sets, 0, PHASE_WARMUP, OP_READX, 4096, 5 * US, 0, 1);
		stats_record(&r->slot[i], &sets, 0, PHASE_EXECUTE, OP_CLOSE, 0, 7 * US, 0, 2);
		stats_record(&r->slot[i], &sets, 0, PHASE_STOP, OP_READX, 4096, 9 * US, 0, 3);
	}
	size_t before = slot_pages_in(r, in_before, &npages);

	struct phase_stats sum;
	for (int ph = 0; ph < PHASE_COUNT; ph++)
		stats_sum(r, ph, &sum);
	assert_int_equal(sum.op[OP_READX].count, 4);	/* the stop phase's */
	assert_int_equal(stats_max_latency(r), 9 * US);
	assert_int_equal(collect(ctx, r, STATS_ALL_DIRS)->exec.op[OP_CLOSE].count, 4);
	struct stats_client figs[4];
	stats_clients_collect(r, 0, UINT64_MAX, figs);
	assert_int_equal(figs[3].ops, 1);
	size_t after = slot_pages_in(r, in_after, &npages);

	assert_true(before < npages);
	assert_int_equal(after, before);
	assert_memory_equal(in_after, in_before, npages);
}

/* Two writers adding to the same buckets at once, as clients of one
 * directory on one CPU do when preempted: no count is lost. */
#define RACE_OPS 200000

struct racer {
	struct stats_region *r;
	unsigned client;
};

static void *race(void *arg)
{
	struct racer *w = arg;

	for (unsigned i = 0; i < RACE_OPS; i++)
		record(w->r, w->client, 0, OP_READX, i % 2 ? 1 * MS : 64);
	return NULL;
}

static void clients_adding_to_one_set_at_once_lose_no_count(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = stats_map(ctx, 2, 1, 1, 0);
	struct racer w[2] = { { r, 0 }, { r, 1 } };
	pthread_t th[2];

	assert_non_null(r);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, race, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);

	struct stats_group *g = collect(ctx, r, STATS_ALL_DIRS);
	const struct hist *h = &g->hist[OP_READX];
	assert_int_equal(h->count, 2 * RACE_OPS);
	assert_int_equal(bucket_sum(h), 2 * RACE_OPS);
	assert_int_equal(h->bucket[hist_bucket_of(64)], RACE_OPS);
	assert_int_equal(h->bucket[hist_bucket_of(1 * MS)], RACE_OPS);
}

/* Pinned to each CPU it may use in turn, the test finds stats_cpu() to
 * be that CPU: the one sched_getcpu() names.  Without an rseq area it is
 * 0 everywhere. */
static void stats_cpu_is_the_cpu_the_caller_runs_on(void **state)
{
	cpu_set_t allowed, one;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
		assert_int_equal(sched_getcpu(), c);
#if STATS_HAVE_RSEQ
		assert_int_equal(stats_cpu(), __rseq_size ? (unsigned)c : 0);
#else
		assert_int_equal(stats_cpu(), (unsigned)c);
#endif
	}
	assert_int_equal(sched_setaffinity(0, sizeof(allowed), &allowed), 0);
}

/* A client keeps bytes and counts per operation type only; the phase's
 * totals, by direction, are derived from them, in sums of sums too. */
static void phase_totals_come_from_the_operation_types(void **state)
{
	struct stats_region *r = stats_map(ctx_of(state), 2, 1, 1, 0);
	struct stats_sets sets = stats_sets_of(r, 0);
	struct phase_stats sum;

	assert_non_null(r);
	stats_record(&r->slot[0], &sets, 0, PHASE_EXECUTE, OP_READX, 4096, 5 * US, 0, 0);
	stats_record(&r->slot[1], &sets, 0, PHASE_EXECUTE, OP_READX, 4096, 5 * US, 0, 0);
	stats_record(&r->slot[0], &sets, 0, PHASE_EXECUTE, OP_WRITEX, 100, 9 * US, 0, 0);
	stats_record(&r->slot[0], &sets, 0, PHASE_EXECUTE, OP_CLOSE, 0, 1 * US, 1, 0);
	stats_record(&r->slot[0], &sets, 0, PHASE_WARMUP, OP_READX, 65536, 5 * US, 0, 0);
	stats_sum(r, PHASE_EXECUTE, &sum);
	assert_int_equal(sum.ops, 4);
	assert_int_equal(sum.bytes_read, 8192);
	assert_int_equal(sum.bytes_written, 100);
	assert_int_equal(sum.op[OP_READX].bytes, 8192);
	assert_int_equal(sum.op[OP_CLOSE].errors, 1);
	stats_sum(r, PHASE_WARMUP, &sum);
	assert_int_equal(sum.ops, 1);
	assert_int_equal(sum.bytes_read, 65536);

	struct stats_group *g = collect(ctx_of(state), r, STATS_ALL_DIRS);
	struct stats_group *twice = talloc_zero(ctx_of(state), struct stats_group);
	stats_group_add(twice, g);
	stats_group_add(twice, g);
	assert_int_equal(twice->exec.ops, 8);
	assert_int_equal(twice->exec.bytes_read, 16384);
	assert_int_equal(twice->exec.bytes_written, 200);
}

/* A pass of slot s from start to end, its times kept as with
 * --show-execute-time. */
static void pass_kept(struct client_slot *s, uint64_t start, uint64_t end)
{
	stats_pass_keep(s, start, end);
	stats_pass_done(s);
}

/* --show-execute-time: the parent takes each pass once, oldest first,
 * and counts those the ring no longer held. */
static void passes_are_taken_once_and_overrun_ones_counted(void **state)
{
	struct stats_region *r = stats_map(ctx_of(state), 1, 1, 1, 0);
	struct pass_record out[STATS_PASS_RING];
	uint64_t seen = 0, lost = 0;

	assert_non_null(r);
	pass_kept(&r->slot[0], 10, 20);
	pass_kept(&r->slot[0], 20, 35);
	assert_int_equal(stats_passes_since(&r->slot[0], &seen, out, &lost), 2);
	assert_int_equal(out[0].start_ns, 10);
	assert_int_equal(out[1].end_ns, 35);
	assert_int_equal(stats_passes_since(&r->slot[0], &seen, out, &lost), 0);
	for (uint64_t i = 0; i < STATS_PASS_RING + 5; i++)
		pass_kept(&r->slot[0], 100 + i, 101 + i);
	assert_int_equal(stats_passes_since(&r->slot[0], &seen, out, &lost), STATS_PASS_RING);
	assert_int_equal(lost, 5);
	assert_int_equal(out[0].start_ns, 105);
	assert_int_equal(seen, STATS_PASS_RING + 7);
	stats_pass_done(&r->slot[0]);	/* counted, not kept */
	assert_int_equal(stats_get(&r->slot[0].passes), STATS_PASS_RING + 8);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(groups_are_exactly_their_clients_values_whatever_the_sets),
		T(a_groups_count_is_its_bucket_sum_and_its_clients_count),
		T(only_execute_phase_latencies_reach_the_buckets),
		T(directory_groups_add_up_to_the_whole),
		T(collecting_reads_no_page_of_a_set_nobody_wrote),
		T(reading_slots_brings_in_only_pages_the_clients_wrote),
		T(clients_adding_to_one_set_at_once_lose_no_count),
		T(stats_cpu_is_the_cpu_the_caller_runs_on),
		T(phase_totals_come_from_the_operation_types),
		T(passes_are_taken_once_and_overrun_ones_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
