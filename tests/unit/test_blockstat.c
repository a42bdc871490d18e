/*
 * test_blockstat.c - the block layer's figures (blockstat.h), specified by
 * example: stat files of the kernel's three lengths, /proc/vmstat text,
 * the differencing of two readings into per-second figures, and the
 * module on a directory with no block device under it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <math.h>
#include <string.h>

#include "blockstat.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx

/* ---- stat files ---- */

/* A 17-field line as a 5.x kernel prints it for a disk. */
static const char stat17[] =
	"    4101      212   245010     1937    12043     3971  1052896    19215"
	"        2    11204    21786        0        0        0        0      872      634\n";

static void parses_a_stat_file_of_17_fields(void **state)
{
	struct blockstat_counters c;

	(void)state;
	assert_int_equal(blockstat_parse_stat(stat17, &c), 0);
	assert_int_equal(c.reads, 4101);
	assert_int_equal(c.read_merges, 212);
	assert_int_equal(c.read_sectors, 245010);
	assert_int_equal(c.writes, 12043);
	assert_int_equal(c.write_merges, 3971);
	assert_int_equal(c.write_sectors, 1052896);
	assert_int_equal(c.in_flight, 2);
	assert_int_equal(c.io_ticks_ms, 11204);
	assert_int_equal(c.queue_ms, 21786);
}

static void parses_the_older_11_and_15_field_files(void **state)
{
	struct blockstat_counters c;

	(void)state;
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10 11\n", &c), 0);
	assert_int_equal(c.writes, 5);
	assert_int_equal(c.queue_ms, 11);
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &c), 0);
	assert_int_equal(c.io_ticks_ms, 10);
}

static void refuses_a_stat_file_that_is_not_one(void **state)
{
	struct blockstat_counters c = { .reads = 77 };

	(void)state;
	assert_int_equal(blockstat_parse_stat("", &c), -1);
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10\n", &c), -1);
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10 11 12\n", &c), -1);
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10 x\n", &c), -1);
	assert_int_equal(blockstat_parse_stat("1 2 3 4 5 6 7 8 9 10 11 junk\n", &c), -1);
	assert_int_equal(blockstat_parse_stat("99999999999999999999999 2 3 4 5 6 7 8 9 10 11\n",
					      &c), -1);
	assert_int_equal(c.reads, 77);	/* untouched */
}

/* ---- /proc/vmstat ---- */

static void takes_dirty_and_writeback_pages_from_vmstat(void **state)
{
	struct blockstat_vm vm;

	(void)state;
	assert_int_equal(blockstat_parse_vmstat("nr_free_pages 1000\nnr_dirty_threshold 5\n"
						"nr_dirty 4252\nnr_writeback_temp 9\n"
						"nr_writeback 17\npgpgin 3\n", &vm), 0);
	assert_int_equal(vm.nr_dirty, 4252);
	assert_int_equal(vm.nr_writeback, 17);
}

static void vmstat_without_the_counts_does_not_parse(void **state)
{
	struct blockstat_vm vm;

	(void)state;
	assert_int_equal(blockstat_parse_vmstat("nr_dirty 1\n", &vm), -1);
	assert_int_equal(blockstat_parse_vmstat("nr_dirty_threshold 1\nnr_writeback 2\n", &vm),
			 -1);
	assert_int_equal(blockstat_parse_vmstat("", &vm), -1);
}

/* ---- differencing ---- */

static void two_readings_give_sizes_merges_busy_and_depth(void **state)
{
	struct blockstat_counters a = {
		.reads = 100, .read_merges = 0, .read_sectors = 800,
		.writes = 1000, .write_merges = 500, .write_sectors = 10000,
		.in_flight = 0, .io_ticks_ms = 1000, .queue_ms = 5000,
	};
	struct blockstat_counters b = {
		.reads = 110, .read_merges = 10, .read_sectors = 880,	/* 10 reads, 40 KiB */
		.writes = 1200, .write_merges = 600, .write_sectors = 28000, /* 200 of 45 KiB */
		.in_flight = 3, .io_ticks_ms = 2940, .queue_ms = 11000,
	};
	struct blockstat_figures f;

	(void)state;
	blockstat_diff(&a, &b, 2.0, &f);
	assert_float_equal(f.reads_s, 5, 1e-9);
	assert_float_equal(f.writes_s, 100, 1e-9);
	assert_float_equal(f.read_kib_per_req, 4, 1e-9);
	assert_float_equal(f.write_kib_per_req, 45, 1e-9);
	assert_float_equal(f.read_merged_pct, 50, 1e-9);	/* 10 of 20 */
	assert_float_equal(f.write_merged_pct, 100.0 / 3, 1e-9);	/* 100 of 300 */
	assert_float_equal(f.busy_pct, 97, 1e-9);		/* 1940 ms of 2000 */
	assert_float_equal(f.queue_depth, 3, 1e-9);		/* 6000 ms over 2000 */
	assert_float_equal(f.in_flight, 3, 1e-9);
}

static void no_requests_give_no_sizes_and_no_merge_share(void **state)
{
	struct blockstat_counters a = { .reads = 5, .writes = 7, .io_ticks_ms = 10 };
	struct blockstat_figures f;

	(void)state;
	blockstat_diff(&a, &a, 1.0, &f);
	assert_float_equal(f.reads_s, 0, 0);
	assert_float_equal(f.writes_s, 0, 0);
	assert_true(isnan(f.read_kib_per_req));
	assert_true(isnan(f.write_kib_per_req));
	assert_true(isnan(f.read_merged_pct));
	assert_true(isnan(f.write_merged_pct));
	assert_float_equal(f.busy_pct, 0, 0);
}

static void busy_is_capped_and_a_reset_counter_counts_nothing(void **state)
{
	struct blockstat_counters a = { .writes = 500, .io_ticks_ms = 0 };
	struct blockstat_counters b = { .writes = 10, .io_ticks_ms = 1010 };
	struct blockstat_figures f;

	(void)state;
	blockstat_diff(&a, &b, 1.0, &f);	/* the tick runs a little ahead */
	assert_float_equal(f.busy_pct, 100, 0);
	assert_float_equal(f.writes_s, 0, 0);
}

/* ---- the module ---- */

static void a_directory_on_no_block_device_has_no_disks(void **state)
{
	const char *dirs[] = { "/proc" };
	struct blockstat *bs = blockstat_open(ctx_of(state), dirs, 1);
	struct blockstat_memory mem;
	double dirty, wb;

	assert_non_null(bs);
	assert_int_equal(blockstat_ndisks(bs), 0);
	blockstat_read(bs, 1000000000);
	blockstat_read(bs, 2000000000);
	assert_int_equal(blockstat_nreadings(bs), 2);
	assert_null(blockstat_summary(ctx_of(state), bs, &mem));
	blockstat_interval(bs, 1, NULL, &dirty, &wb);
	/* /proc/vmstat is there on any Linux this runs on */
	assert_false(isnan(dirty));
	assert_false(isnan(wb));
	assert_false(isnan(mem.dirty_pages_mean));
	assert_true(mem.dirty_pages_max >= mem.dirty_pages_mean);
}

static void the_window_closes_on_the_latest_reading_taken_again(void **state)
{
	const char *dirs[] = { "/proc" };
	struct blockstat *bs = blockstat_open(ctx_of(state), dirs, 1);
	struct blockstat_memory mem;

	assert_non_null(bs);
	blockstat_reread(bs, 1000000000);	/* none yet: a first reading */
	assert_int_equal(blockstat_nreadings(bs), 1);
	blockstat_read(bs, 2000000000);
	blockstat_reread(bs, 2500000000);	/* the last second's, taken again */
	assert_int_equal(blockstat_nreadings(bs), 2);
	assert_null(blockstat_summary(ctx_of(state), bs, &mem));
	assert_false(isnan(mem.dirty_pages_start));
	assert_false(isnan(mem.dirty_pages_end));
	assert_false(isnan(mem.writeback_pages_end));
}

static void a_target_on_no_device_says_its_file_system(void **state)
{
	const char *dirs[] = { "/proc", "/no/such/dir" };
	struct blockstat *bs = blockstat_open(ctx_of(state), dirs, 2);

	assert_non_null(bs);
	assert_string_equal(blockstat_no_device(bs, 0), "proc");
	assert_string_equal(blockstat_no_device(bs, 1), "");	/* cannot be looked at */
	assert_string_equal(blockstat_no_device(bs, 2), "");	/* no such target */
	assert_string_equal(blockstat_no_device(NULL, 0), "");
}

static void the_readings_go_with_the_object(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t before = talloc_total_blocks(ctx);
	const char *dirs[] = { "/proc", "." };
	struct blockstat *bs = blockstat_open(ctx, dirs, 2);

	assert_non_null(bs);
	for (int i = 0; i < 3; i++)
		blockstat_read(bs, (uint64_t)(i + 1) * 1000000000);
	talloc_free(bs);
	assert_int_equal(talloc_total_blocks(ctx), before);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(parses_a_stat_file_of_17_fields),
		T(parses_the_older_11_and_15_field_files),
		T(refuses_a_stat_file_that_is_not_one),
		T(takes_dirty_and_writeback_pages_from_vmstat),
		T(vmstat_without_the_counts_does_not_parse),
		T(two_readings_give_sizes_merges_busy_and_depth),
		T(no_requests_give_no_sizes_and_no_merge_share),
		T(busy_is_capped_and_a_reset_counter_counts_nothing),
		T(a_directory_on_no_block_device_has_no_disks),
		T(the_window_closes_on_the_latest_reading_taken_again),
		T(a_target_on_no_device_says_its_file_system),
		T(the_readings_go_with_the_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
