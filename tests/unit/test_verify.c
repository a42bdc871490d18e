/*
 * test_verify.c - the --verify pattern and the written-range bookkeeping
 * (verify.h), driven directly: open, write, read and rename as fileio
 * reports them, with buffers made by hand; and the glue every backend
 * shares (verify_ntcreatex, verify_after).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "loadfile.h"
#include "verify.h"

#define SIZE 8192

static struct verify *new_state(void **state)
{
	struct verify *v = verify_new(fixture_ctx(state), 1, 4, 16);
	assert_non_null(v);
	return v;
}

/* WriteX of [off, off + len) through handle h: fill, then record.  The
 * bytes go to image + off (an image of the file from offset 0), if any. */
static void write_range(struct verify *v, unsigned h, uint64_t off, size_t len,
			unsigned char *image)
{
	unsigned char buf[SIZE];

	assert_true(off + len <= sizeof(buf));
	verify_fill(v, h, off, buf, len);
	verify_wrote(v, h, off, len);
	if (image)
		memcpy(image + off, buf, len);
}

/* NTCreateX of a new `path` into handle h, then a WriteX of [0, len). */
static void create(struct verify *v, unsigned h, const char *path, size_t len,
		   unsigned char *image)
{
	verify_open(v, h, path, true);
	write_range(v, h, 0, len, image);
}

/* ReadX of [off, off + len) that finds `file` (the file's bytes from 0). */
static int read_range(struct verify *v, unsigned h, const unsigned char *file, uint64_t off,
		      size_t len)
{
	return verify_check(v, h, off, file + off, len);
}

/* ---- the pattern ---- */

/* Block b's words are splitmix64's output b + 1 (seeded with the key),
 * XORed with 0, 1, ... 7 times its increment: with key 0, the first two
 * outputs are 0xe220a8397b1dcdaf and 0x6e789e6aa1b965f4. */
static void test_pattern_is_splitmix64_by_block_little_endian(void **state)
{
	const unsigned char word0[8] = { 0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2 };
	const unsigned char word1[8] = { 0xba, 0xb1, 0x57, 0x04, 0x80, 0xd1, 0x17, 0x7c };
	const unsigned char word8[8] = { 0xf4, 0x65, 0xb9, 0xa1, 0x6a, 0x9e, 0x78, 0x6e };
	unsigned char got[72];

	(void)state;
	verify_pattern(0, 0, got, sizeof(got));
	assert_memory_equal(got, word0, 8);
	assert_memory_equal(got + 8, word1, 8);	/* word0 ^ 0x9e3779b97f4a7c15 */
	assert_memory_equal(got + 64, word8, 8);
}

static void test_pattern_is_the_same_bytes_at_any_alignment(void **state)
{
	static unsigned char whole[SIZE], part[SIZE];
	uint64_t key = verify_key(3, 7);

	(void)state;
	verify_pattern(key, 0, whole, SIZE);
	for (size_t off = 0; off < 24; off++) {
		for (size_t len = 0; len < 40; len++) {
			memset(part, 0, len + 1);
			verify_pattern(key, off, part, len);
			assert_memory_equal(part, whole + off, len);
			assert_int_equal(part[len], 0);	/* nothing past len */
		}
	}
	verify_pattern(key, 4093, part, 2000);
	assert_memory_equal(part, whole + 4093, 2000);
}

static void test_pattern_differs_by_client_and_generation(void **state)
{
	unsigned char a[64], b[64], c[64];
	int same_ab = 0, same_ac = 0;

	(void)state;
	assert_true(verify_key(1, 1) != verify_key(2, 1));
	assert_true(verify_key(1, 1) != verify_key(1, 2));
	verify_pattern(verify_key(1, 1), 0, a, 64);
	verify_pattern(verify_key(2, 1), 0, b, 64);
	verify_pattern(verify_key(1, 2), 0, c, 64);
	for (int i = 0; i < 64; i++) {
		same_ab += a[i] == b[i];
		same_ac += a[i] == c[i];
	}
	assert_true(same_ab < 8);	/* about 1 in 256 by chance */
	assert_true(same_ac < 8);
}

/* ---- reads are checked where the client wrote, nowhere else ---- */

static void test_read_checks_only_written_bytes(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	verify_open(v, 0, "f", true);
	write_range(v, 0, 100, 100, file);
	write_range(v, 0, 301, 99, file);
	/* the rest is zeros, as a hole reads */
	assert_int_equal(read_range(v, 0, file, 0, 500), 0);
	struct verify_tally t = verify_drain(v);
	assert_int_equal(t.bytes_checked, 199);
	assert_int_equal(t.reads_checked, 1);
	assert_int_equal(t.mismatches, 0);
	assert_int_equal(read_range(v, 0, file, 200, 101), 0);	/* between the two */
	assert_int_equal(read_range(v, 0, file, 150, 200), 0);	/* across both */
	t = verify_drain(v);
	assert_int_equal(t.bytes_checked, 50 + 49);
	assert_int_equal(t.reads_checked, 1);
}

static void test_touching_and_overlapping_writes_merge(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	verify_open(v, 0, "f", true);
	write_range(v, 0, 10, 10, NULL);
	write_range(v, 0, 30, 10, NULL);
	write_range(v, 0, 20, 10, NULL);	/* touches both: one extent [10, 40) */
	write_range(v, 0, 35, 15, NULL);	/* overlaps: [10, 50) */
	write_range(v, 0, 5, 1, NULL);	/* apart: [5, 6) */
	verify_fill(v, 0, 0, file, 60);
	assert_int_equal(read_range(v, 0, file, 0, 60), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 41);
	file[4] ^= 1;			/* never written: not compared */
	file[6] ^= 1;
	assert_int_equal(read_range(v, 0, file, 0, 60), 0);
	file[49] ^= 1;			/* the last byte written */
	assert_int_equal(read_range(v, 0, file, 0, 60), EILSEQ);
}

static void test_mismatch_names_offset_and_bytes(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];
	char want[VERIFY_DETAIL_MAX];
	unsigned char *p;

	create(v, 2, "f", 4096, file);
	file[1234] ^= 0xff;
	assert_int_equal(read_range(v, 2, file, 1000, 1000), EILSEQ);
	p = file + 1234;
	snprintf(want, sizeof(want), "data mismatch at offset 1234: expected "
		 "%02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x"
		 " found %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x",
		 p[0] ^ 0xff, p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
		 p[12], p[13], p[14], p[15],
		 p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
		 p[12], p[13], p[14], p[15]);
	assert_string_equal(verify_failure_detail(v), want);
	struct verify_tally t = verify_drain(v);
	assert_int_equal(t.mismatches, 1);
	assert_int_equal(t.bytes_checked, 235);	/* up to the differing byte */

	/* near the end of what was written, fewer bytes are known */
	file[1234] ^= 0xff;
	file[4093] = (unsigned char)~file[4093];
	assert_int_equal(read_range(v, 2, file, 0, 5000), EILSEQ);
	p = file + 4093;
	snprintf(want, sizeof(want), "data mismatch at offset 4093: expected %02x %02x %02x"
		 " found %02x %02x %02x", (unsigned char)~p[0], p[1], p[2], p[0], p[1], p[2]);
	assert_string_equal(verify_failure_detail(v), want);
}

/* In a partial first word, whole words, whole 64-byte blocks and a
 * partial last word alike. */
static void test_every_byte_is_compared(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	verify_open(v, 0, "f", true);
	write_range(v, 0, 3, 200, file);
	for (int i = 3; i < 203; i++) {
		file[i] ^= 0x80;
		assert_int_equal(read_range(v, 0, file, 0, 210), EILSEQ);
		char at[40];
		snprintf(at, sizeof(at), "at offset %d:", i);
		assert_non_null(strstr(verify_failure_detail(v), at));
		file[i] ^= 0x80;
	}
	assert_int_equal(read_range(v, 0, file, 0, 210), 0);
}

/* ---- what the namespace does to it ---- */

static void test_truncation_starts_a_new_generation(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char zeros[SIZE], file[SIZE];

	create(v, 0, "f", 4096, NULL);
	verify_open(v, 1, "f", true);	/* O_TRUNC: the old bytes are gone */
	assert_int_equal(read_range(v, 0, zeros, 0, 4096), 0);
	assert_int_equal(read_range(v, 1, zeros, 0, 4096), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 0);
	/* both handles see the new generation's bytes */
	write_range(v, 1, 0, 100, file);
	assert_int_equal(read_range(v, 0, file, 0, 100), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 100);
}

static void test_open_without_truncation_keeps_what_was_written(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	create(v, 0, "f", 100, file);
	verify_close(v, 0);
	verify_open(v, 3, "f", false);
	assert_int_equal(read_range(v, 3, file, 0, 100), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 100);
}

static void test_rename_carries_the_file_and_replaces_the_target(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char a[SIZE], b[SIZE], zeros[SIZE];

	create(v, 0, "a", 100, a);
	create(v, 1, "b", 100, b);
	verify_close(v, 0);
	verify_rename(v, "a", "b", false);	/* b's old file keeps only handle 1 */
	verify_open(v, 2, "b", false);
	assert_int_equal(read_range(v, 2, a, 0, 100), 0);
	assert_int_equal(read_range(v, 1, b, 0, 100), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 200);
	assert_int_equal(read_range(v, 2, b, 0, 100), EILSEQ);
	/* "a" is a new, unknown file now */
	verify_open(v, 0, "a", false);
	assert_int_equal(read_range(v, 0, zeros, 0, 100), 0);
	/* renaming a name onto itself changes nothing */
	verify_rename(v, "b", "b", false);
	assert_int_equal(read_range(v, 2, a, 0, 100), 0);
}

static void test_unlinked_file_stays_checked_through_its_handle(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE], zeros[SIZE];

	create(v, 0, "f", 100, file);
	verify_unlink(v, "f");
	verify_open(v, 1, "f", false);		/* a new file of that name */
	assert_int_equal(read_range(v, 1, zeros, 0, 100), 0);
	assert_int_equal(read_range(v, 0, file, 0, 100), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 100);
}

static void test_forget_tree_drops_names_beneath_it_only(void **state)
{
	struct verify *v = new_state(state);
	const char *names[] = { "d/f", "d/g/h", "dx/f", "d" };
	static unsigned char file[4][SIZE], zeros[SIZE];

	for (int i = 0; i < 4; i++) {
		create(v, 0, names[i], 64, file[i]);
		verify_close(v, 0);
	}
	verify_forget_tree(v, "d");
	for (int i = 0; i < 4; i++) {
		verify_open(v, 0, names[i], false);
		assert_int_equal(read_range(v, 0, i == 2 ? file[i] : zeros, 0, 64), 0);
		verify_close(v, 0);
	}
	assert_int_equal(verify_drain(v).bytes_checked, 64);
	verify_forget_tree(v, "");		/* the client directory: all */
	verify_open(v, 0, "dx/f", false);
	assert_int_equal(read_range(v, 0, zeros, 0, 64), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 0);
}

static void test_directory_rename_forgets_both_sides(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char zeros[SIZE];

	create(v, 0, "d/f", 64, NULL);
	verify_close(v, 0);
	create(v, 0, "e/f", 64, NULL);
	verify_close(v, 0);
	verify_rename(v, "d", "e", true);
	verify_open(v, 0, "d/f", false);
	verify_open(v, 1, "e/f", false);
	assert_int_equal(read_range(v, 0, zeros, 0, 64), 0);
	assert_int_equal(read_range(v, 1, zeros, 0, 64), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 0);
}

static void test_many_names_survive_removals(void **state)
{
	struct verify *v = new_state(state);	/* its table starts small */
	enum { N = 3000 };
	typedef char name_buf[16];
	name_buf *names = talloc_array(fixture_ctx(state), name_buf, N);
	unsigned char want[8], zeros[8] = { 0 };

	for (int i = 0; i < N; i++) {
		snprintf(names[i], 16, "n%d", i);
		create(v, 0, names[i], 8, NULL);
		verify_close(v, 0);
	}
	for (int i = 1; i < N; i += 2)
		verify_unlink(v, names[i]);
	for (int i = 0; i < N; i++) {
		verify_open(v, 0, names[i], false);
		verify_fill(v, 0, 0, want, 8);
		/* a kept name reads back its bytes; a removed one is new */
		assert_int_equal(verify_check(v, 0, 0, i % 2 ? zeros : want, 8), 0);
		verify_close(v, 0);
	}
	assert_int_equal(verify_drain(v).bytes_checked, 8 * (N / 2));
}

static void test_steady_state_allocates_nothing(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];
	size_t blocks = 0;

	for (int round = 0; round < 50; round++) {
		verify_open(v, 0, "a", true);
		verify_open(v, 1, "d/b", true);
		for (int k = 0; k < 8; k++) {
			write_range(v, 0, (uint64_t)k * 1000, 500, NULL);	/* 8 extents */
			write_range(v, 1, (uint64_t)k * 500, 500, NULL);	/* one */
		}
		verify_fill(v, 0, 0, file, SIZE);
		assert_int_equal(read_range(v, 0, file, 0, SIZE), 0);
		verify_rename(v, "a", "c", false);
		verify_pass_end(v);
		verify_unlink(v, "c");
		verify_forget_tree(v, "d");
		if (round == 1)
			blocks = talloc_total_blocks(v);
		if (round > 1)
			assert_int_equal(talloc_total_blocks(v), blocks);
	}
}

static void test_unknown_handles_check_nothing(void **state)
{
	struct verify *v = new_state(state);
	unsigned char buf[16] = { 1 };

	write_range(v, 0, 0, 16, NULL);		/* no file behind handle 0 */
	write_range(v, 99, 0, 16, NULL);	/* beyond the handle slots */
	assert_int_equal(verify_check(v, 0, 0, buf, 16), 0);
	assert_int_equal(verify_check(v, 99, 0, buf, 16), 0);
	verify_close(v, 99);
	assert_int_equal(verify_drain(v).bytes_checked, 0);
}

/* ---- the backend's hooks ---- */

static void test_a_mismatch_is_told_once(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	create(v, 0, "f", 100, file);
	assert_int_equal(read_range(v, 0, file, 0, 100), 0);
	assert_null(verify_failure_detail(v));
	file[10] ^= 1;
	assert_int_equal(read_range(v, 0, file, 0, 100), EILSEQ);
	assert_non_null(strstr(verify_failure_detail(v), "at offset 10:"));
	assert_null(verify_failure_detail(v));		/* asking clears it */
	assert_int_equal(read_range(v, 0, file, 0, 100), EILSEQ);
	assert_int_equal(read_range(v, 0, file, 20, 50), 0);
	assert_null(verify_failure_detail(v));		/* only the last check counts */
}

static void test_cleanup_forgets_every_file(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	create(v, 0, "f", 100, file);
	create(v, 1, "d/g", 100, file);
	verify_cleanup(v);
	verify_drain(v);
	verify_open(v, 0, "f", false);
	verify_open(v, 1, "d/g", false);
	file[10] ^= 1;
	assert_int_equal(read_range(v, 0, file, 0, 100), 0);
	assert_int_equal(read_range(v, 1, file, 0, 100), 0);
	assert_int_equal(verify_drain(v).bytes_checked, 0);
}

/* A client without --verify passes its NULL state to the hooks. */
static void test_hooks_of_a_client_without_verify_do_nothing(void **state)
{
	(void)state;
	struct verify_tally t = verify_drain(NULL);
	struct op close0 = { .type = OP_CLOSE, .handle = 0 };

	assert_null(verify_failure_detail(NULL));
	assert_int_equal(t.bytes_checked | t.reads_checked | t.mismatches | t.ns, 0);
	verify_ntcreatex(NULL, 0, "f", VERIFY_OPENED_FILE, true);
	verify_after(NULL, &close0, 0);
	verify_pass_end(NULL);
	verify_cleanup(NULL);
}

/* The bytes a read through handle h checks of `file` [0, 100). */
static uint64_t checked(struct verify *v, unsigned h, const unsigned char *file)
{
	verify_drain(v);
	assert_int_equal(read_range(v, h, file, 0, 100), 0);
	return verify_drain(v).bytes_checked;
}

/* An NTCreateX that opened a file holds its record in the handle; one
 * that opened a directory holds nothing; a failed one forgets the name
 * (the handles that hold its file still check it). */
static void test_ntcreatex_tells_a_file_a_directory_and_a_failure_apart(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];

	create(v, 0, "f", 100, file);
	verify_ntcreatex(v, 1, "f", VERIFY_OPENED_FILE, false);
	assert_int_equal(checked(v, 1, file), 100);
	verify_ntcreatex(v, 2, "f", VERIFY_OPENED_OTHER, false);
	assert_int_equal(checked(v, 2, file), 0);
	verify_ntcreatex(v, VERIFY_NO_HANDLE, "f", VERIFY_OPEN_FAILED, false);
	verify_ntcreatex(v, 3, "f", VERIFY_OPENED_FILE, false);	/* the name anew */
	assert_int_equal(checked(v, 3, file), 0);
	assert_int_equal(checked(v, 0, file), 100);
	verify_ntcreatex(v, 1, "f", VERIFY_OPENED_FILE, true);	/* truncated: closes h 1 */
	assert_int_equal(checked(v, 1, file), 0);
	assert_int_equal(checked(v, 0, file), 100);
}

/* After an operation, what every backend removed is forgotten: a Close's
 * handle, a successful Unlink's name (a failed one's stays), a successful
 * Rmdir's tree, and any Deltree's, failed or not. */
static void test_after_an_operation_what_it_removed_is_forgotten(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];
	struct op close0 = { .type = OP_CLOSE, .handle = 0 };
	struct op unlink_g = { .type = OP_UNLINK, .path = "g" };
	struct op rmdir_e = { .type = OP_RMDIR, .path = "e" };
	struct op deltree_d = { .type = OP_DELTREE, .path = "d" };

	create(v, 0, "f", 100, file);
	verify_after(v, &close0, 0);
	assert_int_equal(checked(v, 0, file), 0);

	create(v, 1, "g", 100, file);
	verify_close(v, 1);
	verify_after(v, &unlink_g, ENOENT);
	verify_open(v, 1, "g", false);
	assert_int_equal(checked(v, 1, file), 100);
	verify_close(v, 1);
	verify_after(v, &unlink_g, 0);
	verify_open(v, 1, "g", false);
	assert_int_equal(checked(v, 1, file), 0);

	create(v, 2, "e/x", 100, file);
	verify_close(v, 2);
	verify_after(v, &rmdir_e, ENOTEMPTY);
	verify_open(v, 2, "e/x", false);
	assert_int_equal(checked(v, 2, file), 100);
	verify_close(v, 2);
	verify_after(v, &rmdir_e, 0);
	verify_open(v, 2, "e/x", false);
	assert_int_equal(checked(v, 2, file), 0);

	create(v, 3, "d/x", 100, file);
	verify_close(v, 3);
	verify_after(v, &deltree_d, EIO);
	verify_open(v, 3, "d/x", false);
	assert_int_equal(checked(v, 3, file), 0);
}

/* dbench 5.0's SMB dialect closes, unlinks, removes and empties alike. */
static void test_after_a_5_0_operation_the_same_is_forgotten(void **state)
{
	struct verify *v = new_state(state);
	static unsigned char file[SIZE];
	struct op close0 = { .type = OP_SMB_CLOSE, .handle = 0 };
	struct op unlink_g = { .type = OP_SMB_UNLINK, .path = "g" };
	struct op rmdir_e = { .type = OP_SMB_RMDIR, .path = "e" };
	struct op deltree_d = { .type = OP_SMB_DELTREE, .path = "d" };

	create(v, 0, "f", 100, file);
	verify_after(v, &close0, 0);
	assert_int_equal(checked(v, 0, file), 0);
	create(v, 1, "g", 100, file);
	verify_close(v, 1);
	verify_after(v, &unlink_g, 0);
	verify_open(v, 1, "g", false);
	assert_int_equal(checked(v, 1, file), 0);
	create(v, 2, "e/x", 100, file);
	verify_close(v, 2);
	verify_after(v, &rmdir_e, 0);
	verify_open(v, 2, "e/x", false);
	assert_int_equal(checked(v, 2, file), 0);
	create(v, 3, "d/x", 100, file);
	verify_close(v, 3);
	verify_after(v, &deltree_d, ENOENT);
	verify_open(v, 3, "d/x", false);
	assert_int_equal(checked(v, 3, file), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pattern_is_splitmix64_by_block_little_endian),
		T(test_pattern_is_the_same_bytes_at_any_alignment),
		T(test_pattern_differs_by_client_and_generation),
		T(test_read_checks_only_written_bytes),
		T(test_touching_and_overlapping_writes_merge),
		T(test_mismatch_names_offset_and_bytes),
		T(test_every_byte_is_compared),
		T(test_truncation_starts_a_new_generation),
		T(test_open_without_truncation_keeps_what_was_written),
		T(test_rename_carries_the_file_and_replaces_the_target),
		T(test_unlinked_file_stays_checked_through_its_handle),
		T(test_forget_tree_drops_names_beneath_it_only),
		T(test_directory_rename_forgets_both_sides),
		T(test_many_names_survive_removals),
		T(test_steady_state_allocates_nothing),
		T(test_unknown_handles_check_nothing),
		T(test_a_mismatch_is_told_once),
		T(test_cleanup_forgets_every_file),
		T(test_hooks_of_a_client_without_verify_do_nothing),
		T(test_ntcreatex_tells_a_file_a_directory_and_a_failure_apart),
		T(test_after_an_operation_what_it_removed_is_forgotten),
		T(test_after_a_5_0_operation_the_same_is_forgotten),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
