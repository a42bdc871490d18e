/*
 * test_interval.c - each operation type's latencies over one interval
 * (interval.h), as the timeline takes them once a second, specified by
 * example.
 *
 * Clients record known latencies with stats_record() into a real stats
 * region, on CPUs and in directories the test chooses; each look with
 * stats_interval_take() must count exactly the values recorded since the
 * look before and give their p99 (the midpoint of the bucket of the
 * ceil(0.99 n)-th smallest), or NAN from fewer than 100 of them; and it
 * reads no page of a set that nobody wrote.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "interval.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx

#define US 1000ull
#define MS 1000000ull
#define S 1000000000ull

/* Four clients over two directories and two CPUs. */
static struct stats_region *region(TALLOC_CTX *ctx)
{
	struct stats_region *r = stats_map(ctx, 4, 2, 2, 0);

	assert_non_null(r);
	return r;
}

/* n execute-phase operations of type op taking ns each, dealt over the
 * clients and CPUs of r in turn. */
static void record(struct stats_region *r, enum op_type op, unsigned n, uint64_t ns)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned client = i % r->nclients;
		struct stats_sets sets = stats_sets_of(r, client);
		stats_record(&r->slot[client], &sets, i / r->nclients % r->ncpus, PHASE_EXECUTE, op,
			     0, ns, 0, 0);
	}
}

/* What the p99 of values whose ceil(0.99 n)-th smallest is v must be: the
 * midpoint of v's bucket, in ms. */
static double midpoint_ms(uint64_t v)
{
	unsigned b = hist_bucket_of(v);
	uint64_t lo = hist_bucket_low(b);

	return (lo + (hist_bucket_high(b) - lo) / 2) / 1e6;
}

static const uint16_t types[] = { OP_READX, OP_WRITEX, OP_CLOSE };
#define NTYPES (sizeof(types) / sizeof(types[0]))

static void take(struct stats_interval *iv, const struct stats_region *r,
		 struct interval_op out[NTYPES])
{
	assert_true(stats_interval_take(iv, r, types, NTYPES, out));
}

/* A look gives the values since the look before, not the run's: the
 * slow ReadX of the first second are not in the second's p99. */
static void each_look_counts_the_values_since_the_look_before(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	struct interval_op out[NTYPES];

	assert_non_null(iv);
	/* second 1: 198 ReadX of 1 ms and 2 of 50 ms (the 198th of 200 is
	 * 1 ms); 99 WriteX, one short of a p99 */
	record(r, OP_READX, 198, 1 * MS);
	record(r, OP_READX, 2, 50 * MS);
	record(r, OP_WRITEX, 99, 2 * MS);
	take(iv, r, out);
	assert_int_equal(out[0].count, 200);
	assert_true(out[0].p99_ms == midpoint_ms(1 * MS));
	assert_int_equal(out[1].count, 99);
	assert_true(isnan(out[1].p99_ms));
	assert_int_equal(out[2].count, 0);
	assert_true(isnan(out[2].p99_ms));

	/* second 2: 100 ReadX of 3 ms, one WriteX; the run's ReadX p99 would
	 * be 3 ms's bucket too, but over 300 values, the 50 ms ones among */
	record(r, OP_READX, 100, 3 * MS);
	record(r, OP_WRITEX, 1, 7 * MS);
	take(iv, r, out);
	assert_int_equal(out[0].count, 100);
	assert_true(out[0].p99_ms == midpoint_ms(3 * MS));
	assert_int_equal(out[1].count, 1);
	assert_true(isnan(out[1].p99_ms));

	/* second 3: nothing */
	take(iv, r, out);
	for (unsigned k = 0; k < NTYPES; k++) {
		assert_int_equal(out[k].count, 0);
		assert_true(isnan(out[k].p99_ms));
	}

	/* second 4: 990 Close of 100 us and 10 of 9 ms: the 990th of 1000 is
	 * 100 us, the 991st 9 ms */
	record(r, OP_CLOSE, 990, 100 * US);
	record(r, OP_CLOSE, 10, 9 * MS);
	take(iv, r, out);
	assert_int_equal(out[2].count, 1000);
	assert_true(out[2].p99_ms == midpoint_ms(100 * US));
	record(r, OP_CLOSE, 989, 100 * US);
	record(r, OP_CLOSE, 11, 9 * MS);
	take(iv, r, out);
	assert_int_equal(out[2].count, 1000);
	assert_true(out[2].p99_ms == midpoint_ms(9 * MS));
}

/* The seconds' counts add up to the run's, type by type. */
static void the_looks_add_up_to_the_run(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	struct interval_op out[NTYPES];
	uint64_t sum[NTYPES] = { 0 };

	assert_non_null(iv);
	for (unsigned s = 0; s < 5; s++) {
		record(r, OP_READX, 37 * s + 1, (s + 1) * 100 * US);
		record(r, OP_CLOSE, 500 - 90 * s, 40);
		take(iv, r, out);
		for (unsigned k = 0; k < NTYPES; k++)
			sum[k] += out[k].count;
	}
	struct stats_group *g = talloc_zero(ctx, struct stats_group);
	assert_non_null(g);
	stats_group_collect(g, r, STATS_ALL_DIRS);
	for (unsigned k = 0; k < NTYPES; k++)
		assert_int_equal(sum[k], g->hist[types[k]].count);
}

/* A rank across chunks of buckets: 100 values of 40 ns (the first chunk)
 * and 50 of 10 s (a later one); the 149th of 150 is 10 s.  A value in
 * the top bucket, which has no midpoint, is given as the bucket's low end. */
static void the_rank_is_found_across_chunks_and_in_the_top_bucket(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	struct interval_op out[NTYPES];

	assert_non_null(iv);
	record(r, OP_READX, 100, 40);
	record(r, OP_READX, 50, 10 * S);
	take(iv, r, out);
	assert_int_equal(out[0].count, 150);
	assert_true(out[0].p99_ms == midpoint_ms(10 * S));
	record(r, OP_WRITEX, 100, 300 * S);
	take(iv, r, out);
	assert_int_equal(out[1].count, 100);
	assert_true(out[1].p99_ms == hist_bucket_low(HIST_BUCKETS - 1) / 1e6);
}

/* Only the types asked for are taken, in the order asked; the others are
 * left for a later look that asks for them. */
static void only_the_types_asked_for_are_taken(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	const uint16_t close_first[] = { OP_CLOSE, OP_READX };
	struct interval_op out[NTYPES];

	assert_non_null(iv);
	record(r, OP_READX, 120, 2 * MS);
	record(r, OP_CLOSE, 3, 1 * MS);
	assert_true(stats_interval_take(iv, r, close_first, 2, out));
	assert_int_equal(out[0].count, 3);
	assert_int_equal(out[1].count, 120);
	assert_true(out[1].p99_ms == midpoint_ms(2 * MS));
	record(r, OP_WRITEX, 150, 5 * MS);
	assert_true(stats_interval_take(iv, r, close_first, 1, out));
	assert_int_equal(out[0].count, 0);
	take(iv, r, out);
	assert_int_equal(out[1].count, 150);
}

/* Taken again, a look covers the interval of the one before stretched to
 * now: the timeline's last point, taken again at the window's close.  A
 * type whose values first came after the look taken again has them all. */
static void a_look_taken_again_stretches_the_last_interval_to_now(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	struct interval_op out[NTYPES];

	assert_non_null(iv);
	record(r, OP_READX, 50, 1 * MS);
	take(iv, r, out);
	record(r, OP_READX, 60, 2 * MS);
	take(iv, r, out);
	assert_int_equal(out[0].count, 60);
	assert_true(isnan(out[0].p99_ms));
	record(r, OP_READX, 40, 2 * MS);
	record(r, OP_CLOSE, 7, 40);
	assert_true(stats_interval_take_again(iv, r, types, NTYPES, out));
	assert_int_equal(out[0].count, 100);	/* 60 + 40, not the first 50 */
	assert_true(out[0].p99_ms == midpoint_ms(2 * MS));
	assert_int_equal(out[2].count, 7);
	/* and again: still from the same look */
	record(r, OP_READX, 1, 2 * MS);
	assert_true(stats_interval_take_again(iv, r, types, NTYPES, out));
	assert_int_equal(out[0].count, 101);
	assert_int_equal(out[2].count, 7);
	/* a plain look after it goes on from there */
	record(r, OP_READX, 3, 2 * MS);
	take(iv, r, out);
	assert_int_equal(out[0].count, 3);
	assert_int_equal(out[2].count, 0);
}

/* Pages of the sets in memory after recording and looking: those some
 * client wrote, no more (the looks sum a chunk over the sets that
 * flagged it only). */
static void looking_reads_no_page_of_a_set_nobody_wrote(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (page != STATS_CHUNK)
		skip();	/* below, a chunk is a page */
	struct stats_region *r = region(ctx);
	struct stats_interval *iv = stats_interval_new(ctx);
	struct interval_op out[NTYPES];
	size_t len = (size_t)r->ndirs * r->ncpus * sizeof(struct hist_set);
	size_t npages = (len + page - 1) / page;
	unsigned char *in = talloc_array(ctx, unsigned char, npages);

	assert_non_null(iv);
	/* client 0 on CPU 0 alone: of the four sets, one holds ReadX */
	struct stats_sets sets = stats_sets_of(r, 0);
	for (unsigned i = 0; i < 200; i++)
		stats_record(&r->slot[0], &sets, 0, PHASE_EXECUTE, OP_READX, 0, 1 * MS, 0, 0);
	take(iv, r, out);
	take(iv, r, out);
	assert_int_equal(out[0].count, 0);
	assert_int_equal(mincore(r->sets, len, in), 0);
	size_t resident = 0;
	for (size_t p = 0; p < npages; p++) {
		resident += in[p] & 1;
		assert_int_equal(in[p] & 1, r->touched[p] != 0);
	}
	assert_int_equal(resident, 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(each_look_counts_the_values_since_the_look_before),
		T(the_looks_add_up_to_the_run),
		T(the_rank_is_found_across_chunks_and_in_the_top_bucket),
		T(only_the_types_asked_for_are_taken),
		T(a_look_taken_again_stretches_the_last_interval_to_now),
		T(looking_reads_no_page_of_a_set_nobody_wrote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
