/*
 * test_loadfile.c - the loadfile tokenizer and compiler (loadfile.h),
 * specified by example.
 *
 * Each test compiles a few lines of loadfile text with loadfile_compile(),
 * or a file with loadfile_read(), and checks the exact program or the exact
 * error message that comes back.  Every test runs on its own talloc
 * context; files a test needs are written at run time into a mkdtemp
 * directory that teardown removes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "loadfile.h"
#include "ops.h"

#define NAME "t.load"
#define CLIENT_TXT "/usr/share/dbench/client.txt"

/* The line most tests start with: opens trace handle 1 as slot 0. */
#define OPEN1 "NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 1 NT_STATUS_OK\n"

/* ---- fixture ---- */

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx
#define scratch_dir(state) fixture_scratch_dir((state), "test_loadfile")

static char *write_file(void **state, const char *name, const char *data, size_t len)
{
	char *path = talloc_asprintf(ctx_of(state), "%s/%s", scratch_dir(state), name);
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static char *write_gzip(void **state, const char *name, const char *data, size_t len)
{
	char *path = talloc_asprintf(ctx_of(state), "%s/%s", scratch_dir(state), name);
	gzFile gz = gzopen(path, "wb9");

	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, data, (unsigned)len), (int)len);
	assert_int_equal(gzclose(gz), Z_OK);
	return path;
}

/* ---- compiling and checking ---- */

static struct program *compile_ok_at(TALLOC_CTX *ctx, const char *text, size_t len,
				     const char *file, int line)
{
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx, NAME, text, len, &err);

	if (!prog)
		fail_msg("%s:%d: compile failed: %s", file, line, err ? err : "(no message)");
	if (err)
		fail_msg("%s:%d: compile succeeded but set err '%s'", file, line, err);
	return prog;
}

#define compile_ok(ctx, text) compile_ok_at((ctx), (text), strlen(text), __FILE__, __LINE__)

/* Compiling `text` fails with exactly the message `want`. */
static void rejected_at(TALLOC_CTX *ctx, const char *text, size_t len, const char *want,
			const char *file, int line)
{
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx, NAME, text, len, &err);

	if (prog)
		fail_msg("%s:%d: compiled (%zu ops), want error '%s'", file, line,
			 prog->nops, want);
	if (!err)
		fail_msg("%s:%d: returned NULL without a message, want '%s'", file, line, want);
	if (strcmp(err, want) != 0)
		fail_msg("%s:%d: wrong error\n   got '%s'\n  want '%s'", file, line, err, want);
	talloc_free(err);
}

#define assert_rejected(ctx, text, want) \
	rejected_at((ctx), (text), strlen(text), (want), __FILE__, __LINE__)
#define assert_rejected_len(ctx, text, len, want) \
	rejected_at((ctx), (text), (len), (want), __FILE__, __LINE__)

/* The directory an op's path lies in, as the program names it. */
static const char *dir_of(const struct program *prog, uint16_t dir)
{
	assert_true(dir < prog->ndirs);
	return prog->dirs[dir];
}

/* The program's operations by position, copied into one array on prog. */
static const struct op *by_position(const struct program *prog)
{
	struct op *ops = talloc_array(prog, struct op, prog->nops);

	assert_non_null(ops);
	for (size_t i = 0; i < prog->nops; i++)
		ops[i] = *loadfile_op(prog, i);
	return ops;
}

/* A fixed-seed generator, so "random" inputs are the same on every run. */
static uint32_t xorshift32(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* ---- tokenizer ---- */

static void test_quoted_path_may_hold_spaces(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Unlink \"\\clients\\client1\\my docs\\a b.txt\" 0x10 NT_STATUS_OK\n");

	assert_int_equal(prog->nops, 1);
	assert_int_equal(loadfile_op(prog, 0)->type, OP_UNLINK);
	assert_string_equal(loadfile_op(prog, 0)->path, "my docs/a b.txt");
	assert_string_equal(loadfile_op(prog, 0)->leaf, "a b.txt");
	assert_string_equal(dir_of(prog, loadfile_op(prog, 0)->dir), "my docs");
	assert_int_equal(loadfile_op(prog, 0)->a[0], 0x10);
}

static void test_tabs_separate_fields_like_spaces(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1 "ReadX\t1\t\t0 \t4096\t4096\tNT_STATUS_OK\n");

	assert_int_equal(prog->nops, 2);
	assert_int_equal(loadfile_op(prog, 1)->type, OP_READX);
	assert_int_equal(loadfile_op(prog, 1)->handle, 0);
	assert_int_equal(loadfile_op(prog, 1)->a[0], 0);
	assert_int_equal(loadfile_op(prog, 1)->a[1], 4096);
	assert_int_equal(loadfile_op(prog, 1)->a[2], 4096);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_OK);
}

static void test_crlf_line_endings_are_accepted(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\r\n"
		"Rmdir \"\\clients\\client1\\d\" NT_STATUS_DIRECTORY_NOT_EMPTY\r\n"
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\r\n");

	assert_int_equal(prog->nops, 3);
	assert_int_equal(loadfile_op(prog, 0)->status, NT_OK);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_DIRECTORY_NOT_EMPTY);
	assert_string_equal(loadfile_op(prog, 1)->path, "d");
	assert_int_equal(loadfile_op(prog, 2)->a[0], 1);
}

static void test_blank_and_comment_lines_are_skipped(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"\n"
		"# a comment\n"
		"   \n"
		"\t\n"
		"  # an indented comment\n"
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\n"
		"\n");

	assert_int_equal(prog->nops, 1);
	assert_int_equal(loadfile_op(prog, 0)->type, OP_QFSINFO);
	assert_int_equal(loadfile_line(prog, 0), 6);
}

/* A comment is free text: quotes and word count do not matter. */
static void test_comment_lines_may_hold_any_text(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"# recorded from \"Office Bench\n"
		"# one two three four five six seven eight nine ten eleven twelve thirteen\n"
		"#a\"b\n"
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\n");

	assert_int_equal(prog->nops, 1);
	assert_int_equal(loadfile_line(prog, 0), 4);
}

static void test_last_line_needs_no_newline(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\nFlush 1 NT_STATUS_INVALID_HANDLE");

	assert_int_equal(prog->nops, 2);
	assert_int_equal(loadfile_op(prog, 1)->type, OP_FLUSH);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_INVALID_HANDLE);
}

static void test_leading_timestamp_sets_timed_flag(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1 "1.25 ReadX 1 0 4096 4096 NT_STATUS_OK\n");

	assert_int_equal(prog->nops, 2);
	assert_true(prog->timed);
	assert_int_equal(loadfile_op(prog, 0)->flags & OPF_TIMED, 0);
	assert_int_equal(loadfile_op(prog, 1)->flags & OPF_TIMED, OPF_TIMED);
	assert_true(loadfile_op(prog, 1)->timestamp == 1.25);
	assert_int_equal(loadfile_op(prog, 1)->type, OP_READX);
	assert_int_equal(loadfile_op(prog, 1)->a[1], 4096);
}

static void test_loadfile_without_timestamps_is_not_timed(void **state)
{
	struct program *prog = compile_ok(ctx_of(state), OPEN1);

	assert_false(prog->timed);
	assert_int_equal(loadfile_op(prog, 0)->flags & OPF_TIMED, 0);
}

static void test_malformed_timestamp_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "1.2.3 QUERY_FS_INFORMATION 1 NT_STATUS_OK\n",
			"t.load:1: malformed timestamp '1.2.3'");
	assert_rejected(ctx, "0x10 QUERY_FS_INFORMATION 1 NT_STATUS_OK\n",
			"t.load:1: malformed timestamp '0x10'");
	assert_rejected(ctx, "2.5\n", "t.load:1: timestamp without an operation");
}

static void test_numbers_are_c_integers(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\f\" 0x40 017 10 NT_STATUS_OK\n"
		"LockX 10 0X1F 100 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 0)->a[0], 64);
	assert_int_equal(loadfile_op(prog, 0)->a[1], 15);
	/* handle "10" was read as ten: LockX 10 found it open */
	assert_int_equal(loadfile_op(prog, 0)->handle, 0);
	assert_int_equal(loadfile_op(prog, 1)->handle, 0);
	assert_int_equal(loadfile_op(prog, 1)->a[0], 31);
	assert_int_equal(loadfile_op(prog, 1)->a[1], 100);
}

static void test_malformed_numbers_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, OPEN1 "ReadX 1 12abc 4096 4096 NT_STATUS_OK\n",
			"t.load:2: malformed number '12abc'");
	assert_rejected(ctx, OPEN1 "ReadX 1 0xZZ 4096 4096 NT_STATUS_OK\n",
			"t.load:2: malformed number '0xZZ'");
	assert_rejected(ctx, OPEN1 "ReadX \"1\" 0 4096 4096 NT_STATUS_OK\n",
			"t.load:2: malformed number '1'");
	assert_rejected(ctx, OPEN1 "ReadX 1 08 4096 4096 NT_STATUS_OK\n",
			"t.load:2: malformed number '08'");
	assert_rejected(ctx, OPEN1 "ReadX 1 +5 4096 4096 NT_STATUS_OK\n",
			"t.load:2: malformed number '+5'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 99999999999999999999 NT_STATUS_OK\n",
			"t.load:1: malformed number '99999999999999999999'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 9223372036854775808 NT_STATUS_OK\n",
			"t.load:1: malformed number '9223372036854775808'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION -9223372036854775809 NT_STATUS_OK\n",
			"t.load:1: malformed number '-9223372036854775809'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 0x10000000000000000 NT_STATUS_OK\n",
			"t.load:1: malformed number '0x10000000000000000'");
}

static void test_numbers_reach_the_int64_limits(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"QUERY_FS_INFORMATION 9223372036854775807 NT_STATUS_OK\n"
		"QUERY_FS_INFORMATION -9223372036854775808 NT_STATUS_OK\n"
		"QUERY_FS_INFORMATION 0x7fffffffffffffff NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 0)->a[0], INT64_MAX);
	assert_int_equal(loadfile_op(prog, 1)->a[0], INT64_MIN);
	assert_int_equal(loadfile_op(prog, 2)->a[0], INT64_MAX);
}

static void test_stray_and_unterminated_quotes_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "Unlink \"\\clients\\client1\\x 0 NT_STATUS_OK\n",
			"t.load:1: unterminated quote");
	assert_rejected(ctx, "Unlink \"\\clients\\client1\\x\"0 NT_STATUS_OK\n",
			"t.load:1: no space after closing quote");
	assert_rejected(ctx, "Unlink a\"b\" 0 NT_STATUS_OK\n",
			"t.load:1: stray quote inside 'a\"'");
}

static void test_more_than_twelve_fields_are_rejected(void **state)
{
	assert_rejected(ctx_of(state), "Close 1 2 3 4 5 6 7 8 9 10 11 12 NT_STATUS_OK\n",
			"t.load:1: too many fields (more than 12)");
}

/* ---- operations ---- */

/* One line of each operation, and what each decodes to (loadfile.h). */
static void test_every_operation_decodes_its_arguments(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\dir\\f.txt\" 0x40 0x2 7 NT_STATUS_OK\n"
		"WriteX 7 100 4096 4000 NT_STATUS_OK\n"
		"ReadX 7 0 512 500 NT_STATUS_OK\n"
		"LockX 7 10 20 NT_STATUS_OK\n"
		"UnlockX 7 10 20 NT_STATUS_OK\n"
		"Flush 7 NT_STATUS_OK\n"
		"QUERY_FILE_INFORMATION 7 1005 NT_STATUS_OK\n"
		"SET_FILE_INFORMATION 7 1004 NT_STATUS_OK\n"
		"Close 7 NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\dir\\f.txt\" \"\\clients\\client1\\g.txt\" NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\g.txt\" 0x16 NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client1\\sub\" NT_STATUS_OK\n"
		"Rmdir \"\\clients\\client1\\sub\" NT_STATUS_OK\n"
		"Deltree \"\\clients\\client1\\dir\" NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\dir\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\dir\\*.txt\" 260 1366 2 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_int_equal(prog->nops, 17);
	for (int t = 0; t < OP_COUNT; t++)
		assert_int_equal(prog->count[t], op_is_nfs(t) || op_is_syscall(t) || op_is_smb(t) ||
						 op_is_block(t) || op_is_scsi(t) ? 0 : 1);

	assert_int_equal(op[0].type, OP_NTCREATEX);
	assert_string_equal(op[0].path, "dir/f.txt");
	assert_string_equal(op[0].leaf, "f.txt");
	assert_string_equal(dir_of(prog, op[0].dir), "dir");
	assert_int_equal(op[0].a[0], 0x40);
	assert_int_equal(op[0].a[1], 2);
	assert_int_equal(op[0].handle, 0);
	assert_int_equal(op[0].fnum, -1);	/* a slot is bound: the trace's 7 is dropped */

	assert_int_equal(op[1].type, OP_WRITEX);
	assert_int_equal(op[1].handle, 0);
	assert_int_equal(op[1].fnum, -1);
	assert_int_equal(op[1].a[0], 100);
	assert_int_equal(op[1].a[1], 4096);
	assert_int_equal(op[1].a[2], 4000);

	assert_int_equal(op[2].type, OP_READX);
	assert_int_equal(op[2].a[0], 0);
	assert_int_equal(op[2].a[1], 512);
	assert_int_equal(op[2].a[2], 500);

	assert_int_equal(op[3].type, OP_LOCKX);
	assert_int_equal(op[3].a[0], 10);
	assert_int_equal(op[3].a[1], 20);
	assert_int_equal(op[4].type, OP_UNLOCKX);
	assert_int_equal(op[4].a[0], 10);
	assert_int_equal(op[4].a[1], 20);

	assert_int_equal(op[5].type, OP_FLUSH);
	assert_int_equal(op[5].handle, 0);
	assert_int_equal(op[6].type, OP_QFILEINFO);
	assert_int_equal(op[6].a[0], 1005);
	assert_int_equal(op[7].type, OP_SFILEINFO);
	assert_int_equal(op[7].a[0], 1004);
	assert_int_equal(op[8].type, OP_CLOSE);
	assert_int_equal(op[8].handle, 0);

	assert_int_equal(op[9].type, OP_RENAME);
	assert_string_equal(op[9].path, "dir/f.txt");
	assert_string_equal(op[9].path2, "g.txt");
	assert_string_equal(op[9].leaf2, "g.txt");
	assert_string_equal(dir_of(prog, op[9].dir2), "");

	assert_int_equal(op[10].type, OP_UNLINK);
	assert_string_equal(op[10].path, "g.txt");
	assert_int_equal(op[10].a[0], 0x16);
	assert_null(op[10].path2);

	assert_int_equal(op[11].type, OP_MKDIR);
	assert_string_equal(op[11].path, "sub");
	assert_int_equal(op[12].type, OP_RMDIR);
	assert_int_equal(op[13].type, OP_DELTREE);
	assert_string_equal(op[13].path, "dir");

	assert_int_equal(op[14].type, OP_QPATHINFO);
	assert_int_equal(op[14].a[0], 1004);
	assert_int_equal(op[14].status, NT_OBJECT_NAME_NOT_FOUND);

	assert_int_equal(op[15].type, OP_QFSINFO);
	assert_int_equal(op[15].a[0], 259);
	assert_null(op[15].path);
	assert_int_equal(op[15].handle, HANDLE_NONE);

	assert_int_equal(op[16].type, OP_FINDFIRST);
	assert_string_equal(op[16].leaf, "*.txt");
	assert_int_equal(op[16].a[0], 260);
	assert_int_equal(op[16].a[1], 1366);
	assert_int_equal(op[16].a[2], 2);

	for (size_t i = 0; i < prog->nops; i++) {
		assert_int_equal(loadfile_line(prog, i), i + 1);
		assert_int_equal(op[i].status, i == 14 ? NT_OBJECT_NAME_NOT_FOUND : NT_OK);
	}
	assert_int_equal(prog->bytes_read, 512);
	assert_int_equal(prog->bytes_written, 4096);
	assert_int_equal(prog->max_handles, 1);
	assert_int_equal(prog->npaths, 5);	/* dir/f.txt g.txt sub dir dir/\*.txt */
	assert_int_equal(prog->ndirs, 2);	/* dir and the client dir */
}

static void test_operation_names_are_case_insensitive(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"ntcreatex \"\\clients\\client1\\f\" 0x40 0x2 1 NT_STATUS_OK\n"
		"WRITEX 1 0 10 10 NT_STATUS_OK\n"
		"query_file_information 1 1004 NT_STATUS_OK\n"
		"cLoSe 1 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 0)->type, OP_NTCREATEX);
	assert_int_equal(loadfile_op(prog, 1)->type, OP_WRITEX);
	assert_int_equal(loadfile_op(prog, 2)->type, OP_QFILEINFO);
	assert_int_equal(loadfile_op(prog, 3)->type, OP_CLOSE);
}

static void test_short_aliases_decode_like_the_long_names(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1
		"Qpathinfo \"\\clients\\client1\\f\" 1004 NT_STATUS_OK\n"
		"Qfileinfo 1 1005 NT_STATUS_OK\n"
		"Qfsinfo 259 NT_STATUS_OK\n"
		"Sfileinfo 1 1013 NT_STATUS_OK\n"
		"Find \"\\clients\\client1\\*\" 260 1366 1 NT_STATUS_OK\n"
		"qfsinfo 1 NT_STATUS_OK\n"
		"FIND \"\\clients\\client1\\f\" 1 2 1 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_int_equal(prog->nops, 8);
	assert_int_equal(op[1].type, OP_QPATHINFO);
	assert_string_equal(op[1].path, "f");
	assert_int_equal(op[1].a[0], 1004);
	assert_int_equal(op[2].type, OP_QFILEINFO);
	assert_int_equal(op[2].handle, 0);
	assert_int_equal(op[2].a[0], 1005);
	assert_int_equal(op[3].type, OP_QFSINFO);
	assert_int_equal(op[3].a[0], 259);
	assert_int_equal(op[4].type, OP_SFILEINFO);
	assert_int_equal(op[4].handle, 0);
	assert_int_equal(op[4].a[0], 1013);
	assert_int_equal(op[5].type, OP_FINDFIRST);
	assert_string_equal(op[5].path, "*");
	assert_int_equal(op[5].a[0], 260);
	assert_int_equal(op[5].a[1], 1366);
	assert_int_equal(op[5].a[2], 1);
	assert_int_equal(op[6].type, OP_QFSINFO);
	assert_int_equal(op[7].type, OP_FINDFIRST);
}

static void test_unknown_operation_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "Frobnicate 1 NT_STATUS_OK\n",
			"t.load:1: unknown operation 'Frobnicate'");
	assert_rejected(ctx, "NTCreate \"\\clients\\client1\\f\" 0 0 1 NT_STATUS_OK\n",
			"t.load:1: unknown operation 'NTCreate'");
	assert_rejected(ctx, "\"Close\" 1 NT_STATUS_OK\n",
			"t.load:1: unknown operation 'Close'");
	/* a long name is cut to 48 bytes in the message */
	assert_rejected(ctx, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz 1\n",
			"t.load:1: unknown operation "
			"'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv...'");
}

static void test_missing_arguments_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, OPEN1 "ReadX 1 0 4096 NT_STATUS_OK\n",
			"t.load:2: ReadX takes 4 arguments, got 3");
	assert_rejected(ctx, "Close NT_STATUS_OK\n", "t.load:1: Close takes 1 argument, got 0");
	assert_rejected(ctx, "Close\n", "t.load:1: Close takes 1 argument, got 0");
	assert_rejected(ctx, "NTCreateX \"\\clients\\client1\\f\" 0x40 NT_STATUS_OK\n",
			"t.load:1: NTCreateX takes 4 arguments, got 2");
}

static void test_extra_arguments_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, OPEN1 "Close 1 2 NT_STATUS_OK\n",
			"t.load:2: Close takes 1 argument, got 2");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 2 3 NT_STATUS_OK\n",
			"t.load:1: QUERY_FS_INFORMATION takes 1 argument, got 3");
	assert_rejected(ctx, OPEN1 "ReadX 1 0 4096 4096 4096 4096 NT_STATUS_OK\n",
			"t.load:2: ReadX takes 4 arguments, got 6");
}

static void test_dbench1_smb_loadfile_is_rejected(void **state)
{
	assert_rejected(ctx_of(state), "SMBopenX 0x1 0x2 \"\\x\" 0x3\n",
			"t.load:1: this is a dbench 1 (SMB sniff) loadfile, which is not supported");
}

/* ---- argument ranges ---- */

static void test_negative_offset_is_rejected(void **state)
{
	assert_rejected(ctx_of(state), OPEN1 "ReadX 1 -1 4096 4096 NT_STATUS_OK\n",
			"t.load:2: negative offset -1");
}

static void test_offset_above_one_pib_is_rejected(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1 "LockX 1 1125899906842624 1 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 1)->a[0], INT64_C(1) << 50);
	assert_rejected(ctx_of(state), OPEN1 "LockX 1 1125899906842625 1 NT_STATUS_OK\n",
			"t.load:2: offset 1125899906842625 above the 1 PiB limit");
}

static void test_negative_size_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, OPEN1 "WriteX 1 0 -1 0 NT_STATUS_OK\n",
			"t.load:2: negative size -1");
	assert_rejected(ctx, OPEN1 "LockX 1 0 -4096 NT_STATUS_OK\n",
			"t.load:2: negative size -4096");
}

static void test_size_is_limited_to_16_mib(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct program *prog = compile_ok(ctx,
		OPEN1 "WriteX 1 0 16777216 16777216 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 1)->a[1], 16777216);
	assert_int_equal(prog->bytes_written, 16777216);
	assert_rejected(ctx, OPEN1 "WriteX 1 0 16777217 0 NT_STATUS_OK\n",
			"t.load:2: size 16777217 above the 16 MiB limit");
	assert_rejected(ctx, OPEN1 "ReadX 1 0 4096 0x1000001 NT_STATUS_OK\n",
			"t.load:2: size 16777217 above the 16 MiB limit");
	assert_rejected(ctx, OPEN1 "LockX 1 0 16777217 NT_STATUS_OK\n",
			"t.load:2: size 16777217 above the 16 MiB limit");
}

static void test_expected_return_above_size_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct program *prog = compile_ok(ctx, OPEN1 "ReadX 1 0 4096 0 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 1)->a[2], 0);
	assert_rejected(ctx, OPEN1 "ReadX 1 0 4096 4097 NT_STATUS_OK\n",
			"t.load:2: expected return 4097 is more than the size 4096");
	assert_rejected(ctx, OPEN1 "WriteX 1 0 0 1 NT_STATUS_OK\n",
			"t.load:2: expected return 1 is more than the size 0");
}

static void test_handle_outside_int32_is_rejected(void **state)
{
	assert_rejected(ctx_of(state), "Close 4294967296 NT_STATUS_OK\n",
			"t.load:1: handle 4294967296 out of range");
}

/* ---- paths ---- */

static void test_path_becomes_client_relative_with_leaf_and_dir(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\a\\B.doc\" 0x40 0x2 1 NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\x\\y\\z.txt\" 0 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_string_equal(op[0].path, "a/B.doc");
	assert_string_equal(op[0].leaf, "B.doc");
	assert_string_equal(dir_of(prog, op[0].dir), "a");
	assert_string_equal(op[1].path, "x/y/z.txt");
	assert_string_equal(op[1].leaf, "z.txt");
	assert_string_equal(dir_of(prog, op[1].dir), "x/y");
	assert_int_equal(op[0].flags & OPF_CLIENTS_DIR, 0);
}

static void test_client_dir_itself_has_empty_path(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\\" 0x1 0x2 16385 NT_STATUS_OK\n");

	for (int i = 0; i < 2; i++) {
		assert_string_equal(loadfile_op(prog, i)->path, "");
		assert_string_equal(loadfile_op(prog, i)->leaf, "");
		assert_int_equal(loadfile_op(prog, i)->dir, DIR_NONE);
		assert_int_equal(loadfile_op(prog, i)->flags & OPF_CLIENTS_DIR, 0);
	}
	assert_int_equal(prog->npaths, 1);
}

static void test_path_in_client_dir_has_the_empty_dir(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\\client1\\top\" NT_STATUS_OK\n");

	assert_string_equal(loadfile_op(prog, 0)->path, "top");
	assert_string_equal(loadfile_op(prog, 0)->leaf, "top");
	assert_int_equal(loadfile_op(prog, 0)->dir, 0);
	assert_int_equal(prog->ndirs, 1);
	assert_string_equal(prog->dirs[0], "");
}

/* loadfile.h: dirs[0] is "" (the client dir) when any path is in it. */
static void test_client_dir_is_dirs_0_whatever_the_order(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\\client1\\a\\b\" NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client1\\x\" NT_STATUS_OK\n");

	assert_int_equal(prog->ndirs, 2);
	assert_string_equal(prog->dirs[0], "");
	assert_int_equal(loadfile_op(prog, 1)->dir, 0);
	assert_string_equal(dir_of(prog, loadfile_op(prog, 0)->dir), "a");
}

static void test_paths_and_dirs_are_interned(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\d\\f\" 0 NT_STATUS_NO_SUCH_FILE\n"
		"Unlink \"/clients/client1/d/f\" 0 NT_STATUS_NO_SUCH_FILE\n"
		"Unlink \"\\clients\\client1\\d\\g\" 0 NT_STATUS_NO_SUCH_FILE\n");
	const struct op *op = by_position(prog);

	assert_ptr_equal(op[1].path, op[2].path);
	assert_int_equal(op[1].dir, op[3].dir);
	assert_int_equal(prog->npaths, 3);	/* d, d/f, d/g */
	assert_int_equal(prog->ndirs, 2);	/* "", d */
}

static void test_forward_slashes_are_accepted(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Unlink \"/clients/client1/x\" 0 NT_STATUS_OK\n"
		"Unlink \"/clients/client1/d\\mixed/y\" 0 NT_STATUS_OK\n");

	assert_string_equal(loadfile_op(prog, 0)->path, "x");
	assert_string_equal(loadfile_op(prog, 1)->path, "d/mixed/y");
	assert_string_equal(loadfile_op(prog, 1)->leaf, "y");
	assert_string_equal(dir_of(prog, loadfile_op(prog, 1)->dir), "d/mixed");
}

static void test_clients_dir_allowed_for_mkdir_and_qpathinfo(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\" NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\\" 1004 NT_STATUS_OK\n");

	for (int i = 0; i < 2; i++) {
		assert_int_equal(loadfile_op(prog, i)->flags & OPF_CLIENTS_DIR, OPF_CLIENTS_DIR);
		assert_string_equal(loadfile_op(prog, i)->path, "");
		assert_int_equal(loadfile_op(prog, i)->dir, DIR_NONE);
	}
}

static void test_clients_dir_rejected_for_other_operations(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "Deltree \"\\clients\" NT_STATUS_OK\n",
			"t.load:1: Deltree may not name \\clients, which all clients share");
	assert_rejected(ctx, "Unlink \"\\clients\" 0 NT_STATUS_OK\n",
			"t.load:1: Unlink may not name \\clients, which all clients share");
	assert_rejected(ctx, "Rmdir \"/clients\" NT_STATUS_OK\n",
			"t.load:1: Rmdir may not name \\clients, which all clients share");
	assert_rejected(ctx, "Rename \"\\clients\\client1\\a\" \"\\clients\" NT_STATUS_OK\n",
			"t.load:1: Rename may not name \\clients, which all clients share");
	assert_rejected(ctx, "NTCreateX \"\\clients\" 0x1 0x2 1 NT_STATUS_OK\n",
			"t.load:1: NTCreateX may not name \\clients, which all clients share");
}

static void test_paths_outside_the_client_dir_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "Unlink \"\\clients\\client2\\x\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\client2\\x' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"\\etc\\passwd\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\etc\\passwd' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"/etc/passwd\" 0 NT_STATUS_OK\n",
			"t.load:1: path '/etc/passwd' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"clients\\client1\\x\" 0 NT_STATUS_OK\n",
			"t.load:1: path 'clients\\client1\\x' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"\\clients\\client10\\x\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\client10\\x' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"\\clients\\..\\x\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\..\\x' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Unlink \"\" 0 NT_STATUS_OK\n",
			"t.load:1: path '' is not \\clients\\client1 or beneath it");
	assert_rejected(ctx, "Rename \"\\clients\\client1\\a\" \"\\tmp\\a\" NT_STATUS_OK\n",
			"t.load:1: path '\\tmp\\a' is not \\clients\\client1 or beneath it");
}

static void test_dot_and_dotdot_components_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "Unlink \"\\clients\\client1\\..\\..\\x\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\client1\\..\\..\\x' has a '..' component");
	assert_rejected(ctx, "Unlink \"\\clients\\client1\\a\\..\\b\" 0 NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\client1\\a\\..\\b' has a '..' component");
	assert_rejected(ctx, "Deltree \"\\clients\\client1\\.\" NT_STATUS_OK\n",
			"t.load:1: path '\\clients\\client1\\.' has a '.' component");
	assert_rejected(ctx, "Unlink \"/clients/client1/a/../../../etc\" 0 NT_STATUS_OK\n",
			"t.load:1: path '/clients/client1/a/../../../etc' has a '..' component");
}

static void test_find_first_wildcards_set_the_wildcard_flag(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"FIND_FIRST \"\\clients\\client1\\*\" 260 1366 0 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\~dmtmp\\PWRPNT\\<.JNK\" 260 1366 0 NT_STATUS_NO_SUCH_FILE\n"
		"FIND_FIRST \"\\clients\\client1\\FILLER.?\" 260 1366 0 NT_STATUS_NO_SUCH_FILE\n"
		"FIND_FIRST \"\\clients\\client1\\plain.txt\" 260 1366 1 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_int_equal(op[0].flags & OPF_WILDCARD, OPF_WILDCARD);
	assert_string_equal(op[0].path, "*");
	assert_string_equal(dir_of(prog, op[0].dir), "");
	assert_int_equal(op[1].flags & OPF_WILDCARD, OPF_WILDCARD);
	assert_string_equal(op[1].leaf, "<.JNK");
	assert_string_equal(dir_of(prog, op[1].dir), "~dmtmp/PWRPNT");
	assert_int_equal(op[2].flags & OPF_WILDCARD, OPF_WILDCARD);
	assert_int_equal(op[3].flags & OPF_WILDCARD, 0);
}

/* ---- handles ---- */

static void test_ntcreatex_opens_a_slot_used_by_later_ops(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\a\" 0x40 0x2 9935 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\b\" 0x40 0x2 16385 NT_STATUS_OK\n"
		"WriteX 16385 0 10 10 NT_STATUS_OK\n"
		"ReadX 9935 0 10 10 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_int_equal(op[0].handle, 0);
	assert_int_equal(op[1].handle, 1);
	assert_int_equal(op[2].handle, 1);	/* 16385's */
	assert_int_equal(op[3].handle, 0);	/* 9935's */
	assert_int_equal(prog->max_handles, 2);
}

static void test_close_frees_the_slot_for_reuse(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\a\" 0x40 0x2 1 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\b\" 0x40 0x2 2 NT_STATUS_OK\n"
		"Close 1 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\c\" 0x40 0x2 3 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\d\" 0x40 0x2 1 NT_STATUS_OK\n");
	const struct op *op = by_position(prog);

	assert_int_equal(op[2].handle, 0);	/* Close names the slot it frees */
	assert_int_equal(op[3].handle, 0);	/* the freed slot is reused */
	assert_int_equal(op[4].handle, 2);	/* trace handle 1 again, in a new slot */
	assert_int_equal(prog->max_handles, 3);
}

static void test_max_handles_counts_the_peak(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\a\" 0x40 0x2 1 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\b\" 0x40 0x2 2 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\c\" 0x40 0x2 3 NT_STATUS_OK\n"
		"Close 1 NT_STATUS_OK\n"
		"Close 2 NT_STATUS_OK\n"
		"Close 3 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\a\" 0x40 0x2 4 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\b\" 0x40 0x2 5 NT_STATUS_OK\n"
		"Close 4 NT_STATUS_OK\n"
		"Close 5 NT_STATUS_OK\n");

	assert_int_equal(prog->max_handles, 3);
	for (size_t i = 0; i < prog->nops; i++)
		assert_true(loadfile_op(prog, i)->handle < 3);
}

static void test_op_on_unopened_handle_expecting_success_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, OPEN1 "ReadX 2 0 10 10 NT_STATUS_OK\n",
			"t.load:2: handle 2 is not open");
	assert_rejected(ctx, OPEN1 "Close 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\n",
			"t.load:3: handle 1 is not open");
	assert_rejected(ctx, "Flush -1 NT_STATUS_OK\n", "t.load:1: handle -1 is not open");
}

static void test_op_on_unopened_handle_expecting_failure_gets_no_handle(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1
		"ReadX 2 0 10 0 NT_STATUS_INVALID_HANDLE\n"
		"Close 77 NT_STATUS_INVALID_HANDLE\n");

	assert_int_equal(loadfile_op(prog, 1)->handle, HANDLE_NONE);
	assert_int_equal(loadfile_op(prog, 1)->fnum, 2);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_INVALID_HANDLE);
	assert_int_equal(loadfile_op(prog, 2)->handle, HANDLE_NONE);
}

static void test_failed_close_leaves_the_handle_open(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1
		"Close 1 NT_STATUS_ACCESS_DENIED\n"
		"ReadX 1 0 10 10 NT_STATUS_OK\n"
		"Close 1 NT_STATUS_OK\n");

	assert_int_equal(loadfile_op(prog, 1)->handle, 0);
	assert_int_equal(loadfile_op(prog, 2)->handle, 0);
	assert_int_equal(loadfile_op(prog, 3)->handle, 0);
}

static void test_reopening_an_open_handle_is_rejected(void **state)
{
	assert_rejected(ctx_of(state),
			OPEN1 "\nNTCreateX \"\\clients\\client1\\g\" 0x40 0x2 1 NT_STATUS_OK\n",
			"t.load:3: handle 1 is already open (opened at line 1)");
}

static void test_failing_ntcreatex_opens_nothing(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct program *prog = compile_ok(ctx,
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x1 1 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		OPEN1);

	assert_int_equal(loadfile_op(prog, 0)->handle, HANDLE_NONE);
	assert_int_equal(loadfile_op(prog, 0)->fnum, 1);
	assert_int_equal(loadfile_op(prog, 1)->handle, 0);	/* handle 1 was free to open */
	assert_int_equal(prog->max_handles, 1);

	assert_rejected(ctx,
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x1 1 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"Close 1 NT_STATUS_OK\n",
		"t.load:2: handle 1 is not open");
}

static void test_more_than_4096_open_handles_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *text = talloc_strdup(ctx, "");

	for (int i = 0; i < LOADFILE_MAX_HANDLES; i++)
		text = talloc_asprintf_append_buffer(text,
			"NTCreateX \"\\clients\\client1\\f%d\" 0x40 0x2 %d NT_STATUS_OK\n", i, i);
	assert_non_null(text);

	struct program *prog = compile_ok(ctx, text);
	assert_int_equal(prog->max_handles, LOADFILE_MAX_HANDLES);
	assert_int_equal(loadfile_op(prog, LOADFILE_MAX_HANDLES - 1)->handle, LOADFILE_MAX_HANDLES - 1);
	talloc_free(prog);

	text = talloc_asprintf_append_buffer(text,
		"NTCreateX \"\\clients\\client1\\last\" 0x40 0x2 99999 NT_STATUS_OK\n");
	assert_rejected(ctx, text, "t.load:4097: more than 4096 handles open at once");
}

/* ---- expected status ---- */

static void test_every_status_name_decodes(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	for (int s = 0; s < NT_STATUS_COUNT; s++) {
		char *line = talloc_asprintf(ctx, "QUERY_FS_INFORMATION 1 %s\n", nt_status_name(s));
		struct program *prog = compile_ok(ctx, line);
		assert_int_equal(loadfile_op(prog, 0)->status, s);
		talloc_free(prog);
		talloc_free(line);
	}
}

static void test_status_may_be_given_as_a_hex_value(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"QUERY_FS_INFORMATION 1 0xC0000034\n"
		"QUERY_FS_INFORMATION 1 0xc000000f\n"
		"QUERY_FS_INFORMATION 1 0x0\n"
		"QUERY_FS_INFORMATION 1 0x00000000\n"
		"QUERY_FS_INFORMATION 1 0x80000006\n");

	assert_int_equal(loadfile_op(prog, 0)->status, NT_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_NO_SUCH_FILE);
	assert_int_equal(loadfile_op(prog, 2)->status, NT_OK);
	assert_int_equal(loadfile_op(prog, 3)->status, NT_OK);
	assert_int_equal(loadfile_op(prog, 4)->status, NT_NO_MORE_FILES);
	for (int i = 0; i < 5; i++)
		assert_int_equal(loadfile_op(prog, i)->flags & OPF_DBENCH3, 0);
}

static void test_unknown_status_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 NT_STATUS_FOO\n",
			"t.load:1: unknown status 'NT_STATUS_FOO'");
	assert_rejected(ctx, OPEN1 "Close 1 NT_STATUS_OKAY\n",
			"t.load:2: unknown status 'NT_STATUS_OKAY'");
}

static void test_malformed_status_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 OK\n", "t.load:1: malformed status 'OK'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 0x\n", "t.load:1: malformed status '0x'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 0xZZ\n", "t.load:1: malformed status '0xZZ'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 0xC00000340\n",
			"t.load:1: malformed status '0xC00000340'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 NT_STATUS_\n",
			"t.load:1: malformed status 'NT_STATUS_'");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 -1\n", "t.load:1: malformed status '-1'");
}

/* ---- the dbench 3 form ---- */

static void test_dbench3_lines_without_status_expect_success(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 5\n"
		"WriteX 5 0 10 10\n"
		"Close 5\n"
		"Unlink \"\\clients\\client1\\f\" 0x16\n"
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\n");

	for (int i = 0; i < 4; i++) {
		assert_int_equal(loadfile_op(prog, i)->flags & OPF_DBENCH3, OPF_DBENCH3);
		assert_int_equal(loadfile_op(prog, i)->status, NT_OK);
	}
	assert_int_equal(loadfile_op(prog, 0)->handle, 0);
	assert_int_equal(loadfile_op(prog, 1)->handle, 0);
	assert_int_equal(loadfile_op(prog, 3)->a[0], 0x16);
	assert_int_equal(loadfile_op(prog, 4)->flags & OPF_DBENCH3, 0);
	assert_int_equal(prog->bytes_written, 10);
}

static void test_dbench3_ntcreatex_of_fnum_minus_one_must_fail(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x1 -1\n");

	assert_int_equal(loadfile_op(prog, 0)->flags & OPF_DBENCH3, OPF_DBENCH3);
	assert_int_equal(loadfile_op(prog, 0)->status, NT_UNSUCCESSFUL);
	assert_int_equal(loadfile_op(prog, 0)->handle, HANDLE_NONE);
	assert_int_equal(prog->max_handles, 0);
}

/* ---- bytes that are not text ---- */

static void test_nul_byte_is_rejected(void **state)
{
	static const char text[] = "# ok\nQUERY_FS_INFORMATION 1\0 NT_STATUS_OK\n";

	assert_rejected_len(ctx_of(state), text, sizeof(text) - 1,
			    "t.load:2: NUL byte in line (not a text loadfile?)");
}

static void test_control_bytes_are_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "QUERY_FS_INFORMATION\x01 1 NT_STATUS_OK\n",
			"t.load:1: control byte 0x01 in line (not a text loadfile?)");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1 NT_STATUS_OK\x7f\n",
			"t.load:1: control byte 0x7f in line (not a text loadfile?)");
	assert_rejected(ctx, "QUERY_FS_INFORMATION 1\rNT_STATUS_OK\n",
			"t.load:1: control byte 0x0d in line (not a text loadfile?)");
	assert_rejected(ctx, "# \x1b[31m\n", "t.load:1: control byte 0x1b in line (not a text loadfile?)");
	/* Past the first eight bytes, after a tab, and in the last word. */
	assert_rejected(ctx, "QUERY_FS_INFORMATION\t1 NT_STATUS_OK \x02\n",
			"t.load:1: control byte 0x02 in line (not a text loadfile?)");
	assert_rejected(ctx, "# 0123456789abcdef\x7f" "0123456789\n",
			"t.load:1: control byte 0x7f in line (not a text loadfile?)");
}

static void test_tabs_and_high_bytes_are_text(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"# caf\xc3\xa9 \xe2\x80\x94 0123456789abcdef\n"
		"QUERY_FS_INFORMATION\t1\tNT_STATUS_OK\n");

	assert_int_equal(prog->nops, 1);
}

static void test_binary_garbage_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char buf[4096];
	uint32_t seed = 12345;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(xorshift32(&seed) >> 24);
	assert_rejected_len(ctx, buf, sizeof(buf),
			    "t.load:1: control byte 0x1d in line (not a text loadfile?)");

	/* and no other seed crashes it or gets it accepted */
	for (uint32_t s = 1; s <= 500; s++) {
		char *err = NULL;
		seed = s;
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (char)(xorshift32(&seed) >> 24);
		assert_null(loadfile_compile(ctx, NAME, buf, sizeof(buf), &err));
		assert_non_null(err);
		assert_memory_equal(err, "t.load:", 7);
		talloc_free(err);
	}
}

/* Valid text with a few bytes changed: always a program or a message. */
static void test_mutated_loadfiles_never_crash(void **state)
{
	static const char base[] =
		"NTCreateX \"\\clients\\client1\\d\\f.txt\" 0x40 0x2 7 NT_STATUS_OK\n"
		"1.5 WriteX 7 100 4096 4000 NT_STATUS_OK\n"
		"ReadX 7 0 512 500\n"
		"Close 7 NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\d\\f.txt\" \"\\clients\\client1\\g\" 0xC0000034\n"
		"FIND_FIRST \"\\clients\\client1\\d\\*\" 260 1366 2 NT_STATUS_OK\n"
		"Mkdir \"\\clients\" NT_STATUS_OK\n";
	static const char alphabet[] = "\"\\/ .-0x19#\n\tNT_\r*<abcZ";
	TALLOC_CTX *ctx = ctx_of(state);
	char buf[sizeof(base)];
	uint32_t seed = 2024;
	size_t len = sizeof(base) - 1;

	for (int round = 0; round < 20000; round++) {
		memcpy(buf, base, len);
		int nmut = 1 + xorshift32(&seed) % 4;
		for (int m = 0; m < nmut; m++)
			buf[xorshift32(&seed) % len] =
				alphabet[xorshift32(&seed) % (sizeof(alphabet) - 1)];
		char *err = NULL;
		struct program *prog = loadfile_compile(ctx, NAME, buf, len, &err);
		assert_true((prog == NULL) != (err == NULL));
		if (prog) {
			for (size_t i = 0; i < prog->nops; i++) {
				const struct op *op = loadfile_op(prog, i);
				assert_true(op->type < OP_COUNT);
				assert_true(op->handle == HANDLE_NONE || op->handle < prog->max_handles);
				assert_true(op->dir == DIR_NONE || op->dir < prog->ndirs);
			}
		}
		talloc_free(prog);
		talloc_free(err);
	}
	assert_int_equal(talloc_total_blocks(ctx), 1);
}

static void test_overlong_line_is_rejected(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *pad = talloc_zero_array(ctx, char, LOADFILE_MAX_LINE + 2);

	/* a line of exactly LOADFILE_MAX_LINE bytes is fine */
	memset(pad, 'x', LOADFILE_MAX_LINE - 1);
	char *longest = talloc_asprintf(ctx, "#%s\nQUERY_FS_INFORMATION 1 NT_STATUS_OK\n", pad);
	assert_int_equal(strchr(longest, '\n') - longest, LOADFILE_MAX_LINE);
	struct program *prog = compile_ok(ctx, longest);
	assert_int_equal(prog->nops, 1);

	/* one more byte is not */
	memset(pad, 'x', LOADFILE_MAX_LINE);
	char *text = talloc_asprintf(ctx, "QUERY_FS_INFORMATION 1 NT_STATUS_OK\n#%s\n", pad);
	assert_rejected(ctx, text, "t.load:2: line longer than 4096 bytes");
	text = talloc_asprintf(ctx, "Unlink \"\\clients\\client1\\%s\" 0 NT_STATUS_OK", pad);
	assert_rejected(ctx, text, "t.load:1: line longer than 4096 bytes");
}


/* ---- dbench 5.0's SMB dialect (smb*.load) ---- */

static void test_smb5_rows_name_files_by_path_with_a_status(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"MKDIR \"/client1\" *\n"
		"MKDIR \"/foo\" SUCCESS\n"
		"OPEN \"/client1/test.txt\" 0x0c SUCCESS\n"
		"WRITE \"/client1/test.txt\" 0 50 SUCCESS\n"
		"REPEAT 10\n"
		"WRITE \"/client1/test.txt\" *%0x10000000/4096 4096 SUCCESS\n"
		"READ \"/client1/test.txt\" +50 100 ERROR\n"
		"CLOSE \"/client1/test.txt\" SUCCESS\n"
		"UNLINK \"/test.txt\" SUCCESS\n"
		"READDIR \"/\" SUCCESS\n"
		"RMDIR \"/foo\" ERROR\n"
		"Deltree \"/foo\" *\n");
	const struct op *op = by_position(prog);

	assert_int_equal(prog->nops, 11);
	assert_int_equal(op[0].type, OP_SMB_MKDIR);
	assert_string_equal(op[0].path, "");	/* 5.0's name for the client's own */
	assert_true(op[0].flags & OPF_ANY_STATUS);
	assert_string_equal(op[1].path, "foo");
	assert_int_equal(op[1].status, NT_OK);
	assert_false(op[1].flags & OPF_ANY_STATUS);
	assert_int_equal(op[2].type, OP_SMB_OPEN);
	assert_string_equal(op[2].path, "test.txt");
	assert_int_equal(op[2].a[0], SMB5_O_RDWR | SMB5_O_CREAT);
	assert_int_equal(op[2].handle, 0);
	assert_int_equal(op[3].type, OP_SMB_WRITE);
	assert_int_equal(op[3].handle, 0);
	assert_int_equal(op[3].a[0], 0);
	assert_int_equal(op[3].a[1], 50);
	assert_int_equal(op[3].a[2], 50);	/* all of it */
	assert_int_equal(op[4].repeat, 10);
	assert_int_not_equal(op[4].expr, 0);
	assert_int_equal(op[5].type, OP_SMB_READ);
	assert_int_equal(op[5].status, NT_UNSUCCESSFUL);
	assert_int_equal(op[5].handle, 0);
	assert_int_equal(op[6].type, OP_SMB_CLOSE);
	assert_int_equal(op[6].handle, 0);
	assert_int_equal(op[7].type, OP_SMB_UNLINK);
	assert_string_equal(op[7].path, "test.txt");
	assert_int_equal(op[8].type, OP_SMB_READDIR);
	assert_string_equal(op[8].path, "");
	assert_int_equal(op[9].type, OP_SMB_RMDIR);
	assert_int_equal(op[10].type, OP_SMB_DELTREE);
	assert_int_equal(prog->count[OP_SMB_WRITE], 11);
	assert_int_equal(prog->bytes_written, 50 + 10 * 4096);
	assert_int_equal(prog->bytes_read, 100);
	assert_int_equal(prog->max_handles, 1);
	assert_string_equal(op_table[OP_SMB_DELTREE].name, "DELTREE");
}

/* A row is of the dialect by its shape: dbench 4's rows of the same
 * names (Close, Mkdir, Unlink, Deltree) compile as they always did, and
 * READ or WRITE with an offset first (5.0's block dialect) is none of
 * it. */
static void test_smb5_rows_are_told_from_dbench4_rows_by_shape(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		OPEN1
		"Close 1 NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client1\\d\" *\n"
		"MKDIR \"/d\" *\n"
		"Mkdir \"\\clients\\client1\\e\" SUCCESS\n"
		"Deltree \"\\clients\\client1\\d\" NT_STATUS_OK\n"
		"deltree \"/d\" ERROR\n"
		"Unlink \"\\clients\\client1\\f\" 0x6\n"
		"UNLINK \"/f\" *\n"
		"OPEN \"/clients/client1/g\" 0x0c *\n"
		"close \"/g\" *\n");
	const struct op *op = by_position(prog);

	assert_int_equal(op[1].type, OP_CLOSE);
	assert_int_equal(op[2].type, OP_MKDIR);
	assert_int_equal(op[3].type, OP_SMB_MKDIR);
	assert_int_equal(op[4].type, OP_SMB_MKDIR);
	assert_string_equal(op[4].path, "e");
	assert_int_equal(op[5].type, OP_DELTREE);
	assert_int_equal(op[6].type, OP_SMB_DELTREE);
	assert_int_equal(op[7].type, OP_UNLINK);
	assert_true(op[7].flags & OPF_DBENCH3);
	assert_int_equal(op[8].type, OP_SMB_UNLINK);
	assert_int_equal(op[9].type, OP_SMB_OPEN);
	assert_string_equal(op[9].path, "g");
	assert_int_equal(op[10].type, OP_SMB_CLOSE);
	assert_int_equal(op[10].handle, op[9].handle);
	prog = compile_ok(ctx_of(state), "READ 0 4096 0x00000000\n");
	assert_int_equal(loadfile_op(prog, 0)->type, OP_BLOCK_READ);
}

static void test_smb5_rows_are_rejected_with_their_line(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "#\nOPEN \"/f\" 0x0c NT_STATUS_OK\n",
			"t.load:2: malformed status 'NT_STATUS_OK' (dbench 5.0's OPEN takes "
			"SUCCESS, ERROR or *)");
	assert_rejected(ctx, "WRITE \"/f\" 0 4096\n",
			"t.load:1: WRITE takes 3 arguments and a status, got 3 fields");
	assert_rejected(ctx, "OPEN \"/f\" 0x80 SUCCESS\n",
			"t.load:1: OPEN flags 0x80 hold bits outside 0x7f (0x01 O_RDONLY, "
			"0x02 O_WRONLY, 0x04 O_RDWR, 0x08 O_CREAT, 0x10 O_EXCL, 0x20 O_TRUNC, "
			"0x40 O_APPEND)");
	assert_rejected(ctx, "WRITE \"/f\" 0 1 SUCCESS\n",
			"t.load:1: WRITE of a file that is not open (no OPEN of it before)");
	assert_rejected(ctx, "OPEN \"/f\" 4 SUCCESS\nCLOSE \"/f\" SUCCESS\n"
			"CLOSE \"/f\" SUCCESS\n",
			"t.load:3: CLOSE of a file that is not open (no OPEN of it before)");
	assert_rejected(ctx, "OPEN \"/f\" 4 SUCCESS\nOPEN \"/client1/f\" 4 SUCCESS\n",
			"t.load:2: OPEN of a file that is open already (since line 1)");
	assert_rejected(ctx, "REPEAT 2\nOPEN \"/f\" 4 SUCCESS\n",
			"t.load:2: REPEAT (line 1) may not repeat OPEN, which uses a handle");
	assert_rejected(ctx, "MKDIR \"/a/../b\" SUCCESS\n",
			"t.load:1: path '/a/../b' has a '..' component");
	assert_rejected(ctx, "MKDIR \"/clients/client2/b\" SUCCESS\n",
			"t.load:1: path '/clients/client2/b' does not begin with / or is beneath "
			"\\clients but not \\clients\\client1");
	assert_rejected(ctx, "RMDIR \"/clients\" SUCCESS\n",
			"t.load:1: RMDIR may not name \\clients, which all clients share");
	assert_rejected(ctx, "OPEN \"/f\" 4 SUCCESS\nREAD \"/f\" *%0 1 SUCCESS\n",
			"t.load:2: offset '*%0' divides by zero");
}

/* ---- dbench 5.0's block and SCSI dialects (block*.load, scsi.load, iscsi*.load) ---- */

/* READ and WRITE at an offset of the device, FDATASYNC; the offset an
 * expression as in the NFS dialect; the status 0 for success. */
static void test_block_rows_read_and_write_at_offsets(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"LOOP 3\n"
		"READ */0x1000%0x40000000 4096 0x00000000\n"
		"ENDLOOP\n"
		"WRITE 8192 512 0x00000000\n"
		"write +512 512 0x5\n"
		"0.5 FDATASYNC *\n");
	const struct op *op = by_position(prog);

	assert_int_equal(prog->nops, 6);
	assert_int_equal(op[0].type, OP_BLOCK_READ);
	assert_int_not_equal(op[0].expr, 0);
	assert_int_equal(op[0].a[1], 4096);
	assert_int_equal(op[0].status, NT_OK);
	assert_null(op[0].path);
	assert_int_equal(op[0].handle, HANDLE_NONE);
	assert_int_equal(op[3].type, OP_BLOCK_WRITE);
	assert_int_equal(op[3].a[0], 8192);
	assert_int_equal(op[3].a[1], 512);
	assert_int_equal(op[4].status, NT_UNSUCCESSFUL);	/* must fail */
	assert_int_equal(op[5].type, OP_BLOCK_FDATASYNC);
	assert_true(op[5].flags & OPF_ANY_STATUS);
	assert_true(op[5].flags & OPF_TIMED);
	assert_int_equal(prog->bytes_read, 3 * 4096);
	assert_int_equal(prog->bytes_written, 1024);
	assert_int_equal(prog->count[OP_BLOCK_READ], 3);
	assert_string_equal(op_table[OP_BLOCK_READ].name, "Read");
	/* the client's offsets: +N on the one before */
	struct offset_state st = { .prev = 0, .rng = 1, .client = 0, .nclients = 1 };
	uint64_t at = loadfile_offset(prog, &op[0], &st);
	assert_int_equal(at % 0x1000, 0);
	assert_true(at < 0x40000000);
	assert_int_equal(loadfile_offset(prog, &op[3], &st), 8192);
	assert_int_equal(loadfile_offset(prog, &op[4], &st), 8192 + 512);
}

/* A SCSI command a row: LBAs and lengths in 512-byte blocks (a
 * transfer's length counted in bytes), its small fields a byte each of
 * a[2], the status the SCSI status expected. */
static void test_scsi_rows_are_commands_with_a_scsi_status(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"0.000 TESTUNITREADY 0x00\n"
		"0.000 READ6    0 1 0x00\n"
		"0.000 READ10 1000 256 0x10 3 0x00\n"
		"0.000 READ16    * 2 0 0 0x00\n"
		"0.000 WRITE10 5000 1 0x06 0 0x00\n"
		"0.000 WRITE16 +8 8 0x08 0 *\n"
		"0.000 READCAPACITY10 0 1 0x00\n"
		"0.000 SYNCHRONIZECACHE10 0 16 1 1 0x00\n"
		"0.000 PROUT 1  3 0xdeadbeef          0 0x18\n"
		"0.000 READ10 0xffffffff 1 0 0 0x02\n");
	const struct op *op = by_position(prog);

	assert_int_equal(prog->nops, 10);
	assert_int_equal(op[0].type, OP_SCSI_TESTUNITREADY);
	assert_int_equal(op[0].status, 0x00);
	assert_int_equal(op[1].type, OP_SCSI_READ6);
	assert_int_equal(op[1].a[1], 512);
	assert_int_equal(op[2].type, OP_SCSI_READ10);
	assert_int_equal(op[2].a[0], 1000);
	assert_int_equal(op[2].a[1], 256 * 512);
	assert_int_equal(loadfile_byte_arg(&op[2], 0), 0x10);
	assert_int_equal(loadfile_byte_arg(&op[2], 1), 3);
	assert_int_not_equal(op[3].expr, 0);
	assert_int_equal(op[4].type, OP_SCSI_WRITE10);
	assert_int_equal(loadfile_byte_arg(&op[4], 0), 0x06);
	assert_int_equal(op[5].type, OP_SCSI_WRITE16);
	assert_true(op[5].flags & OPF_ANY_STATUS);
	assert_int_equal(op[6].type, OP_SCSI_READCAPACITY10);
	assert_int_equal(loadfile_byte_arg(&op[6], 0), 1);
	assert_int_equal(op[7].type, OP_SCSI_SYNCHRONIZECACHE10);
	assert_int_equal(op[7].a[1], 16);
	assert_int_equal(loadfile_byte_arg(&op[7], 0), 1);
	assert_int_equal(loadfile_byte_arg(&op[7], 1), 1);
	assert_int_equal(op[8].type, OP_SCSI_PROUT);
	assert_int_equal(loadfile_byte_arg(&op[8], 0), 1);	/* RESERVE */
	assert_int_equal(loadfile_byte_arg(&op[8], 1), 3);	/* EXCLUSIVE ACCESS */
	assert_int_equal(op[8].a[0], 0xdeadbeef);
	assert_int_equal(op[8].a[1], 0);
	assert_int_equal(op[8].status, 0x18);
	assert_int_not_equal(op[9].expr, 0);	/* scsi.load's "a random LBA" */
	assert_int_equal(op[9].status, 0x02);
	assert_int_equal(prog->bytes_read, 512 + 256 * 512 + 2 * 512 + 512);
	assert_int_equal(prog->bytes_written, 512 + 8 * 512);
	char buf[48];
	assert_string_equal(op_status_name(OP_SCSI_PROUT, 0x18, buf, sizeof(buf)),
			    "RESERVATION CONFLICT (0x18)");
	assert_string_equal(op_status_name(OP_SCSI_READ10, 0x22, buf, sizeof(buf)),
			    "status 0x22 (0x22)");
	assert_string_equal(op_status_name(OP_READX, NT_OK, buf, sizeof(buf)), "NT_STATUS_OK");
}

static void test_block_and_scsi_rows_are_rejected_with_their_line(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "#\nREAD 0 4096 NT_STATUS_OK\n",
			"t.load:2: malformed status 'NT_STATUS_OK' (Read takes 0x and a number, or *)");
	assert_rejected(ctx, "READ 0 4096\n",
			"t.load:1: Read takes 2 arguments and a status, got 2 fields");
	assert_rejected(ctx, "WRITE 0 33554432 0x0\n",
			"t.load:1: size 33554432 above the 16 MiB limit");
	assert_rejected(ctx, "READ */0 1 0x0\n", "t.load:1: offset '*/0' divides by zero");
	assert_rejected(ctx, "TESTUNITREADY 0x100\n",
			"t.load:1: SCSI status '0x100' is more than a byte (0x00 GOOD, 0x02 CHECK "
			"CONDITION, 0x18 RESERVATION CONFLICT ...)");
	assert_rejected(ctx, "READ6 0 0 0x00\n", "t.load:1: READ6 moves 1 to 256 blocks, not 0");
	assert_rejected(ctx, "READ6 0 257 0x00\n",
			"t.load:1: READ6 of 257 blocks: at most 256 (what its CDB's length field "
			"holds)");
	assert_rejected(ctx, "READ10 0 32769 0 0 0x00\n",
			"t.load:1: READ10 of 32769 blocks: at most 32768 (16 MiB of 512-byte "
			"blocks)");
	assert_rejected(ctx, "READ10 0x100000000 1 0 0 0x00\n",
			"t.load:1: READ10's LBA 4294967296 does not fit its CDB (at most "
			"0xffffffff)");
	assert_rejected(ctx, "READ6 0x200000 1 0x00\n",
			"t.load:1: READ6's LBA 2097152 does not fit its CDB (at most 0x1fffff)");
	assert_rejected(ctx, "READ10 0 1 0x100 0 0x00\n",
			"t.load:1: READ10's field 1 is 256, not 0 to 255");
	assert_rejected(ctx, "WRITE16 0 1 0 32 0x00\n",
			"t.load:1: WRITE16's group number 32 is more than 31");
	assert_rejected(ctx, "READCAPACITY10 0 2 0x00\n",
			"t.load:1: READCAPACITY10's PMI is 2, not 0 or 1");
	assert_rejected(ctx, "SYNCHRONIZECACHE10 0 0 1 2 0x00\n",
			"t.load:1: SYNCHRONIZECACHE10's IMMED is 2, not 0 or 1");
	assert_rejected(ctx, "SYNCHRONIZECACHE10 0 65536 0 0 0x00\n",
			"t.load:1: SYNCHRONIZECACHE10 of 65536 blocks: 0 to 65535");
	assert_rejected(ctx, "PROUT 0x20 0 0 1 0x00\n",
			"t.load:1: PROUT's service action 32 is more than 0x1f");
	assert_rejected(ctx, "PROUT 1 16 1 0 0x00\n", "t.load:1: PROUT's type 16 is more than 0xf");
	assert_rejected(ctx, "PROUT 0 0 -1 1 0x00\n",
			"t.load:1: PROUT's keys are numbers from 0 (a key of 8 bytes)");
	assert_rejected(ctx, "READ10 \"/f\" 1 0 0 0x00\n",
			"t.load:1: unknown operation 'READ10'");
}

/* ---- the NFS dialect (dbench 5.0's nfs*.load) ---- */

static void test_nfs_rows_take_paths_offsets_sizes_and_a_status(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"GETATTR3 \"/clients/client1\" 0x00000000\n"
		"WRITE3 \"/clients/client1/test.file\" 1024 2048 2 0x00000000\n"
		"READ3 \"/clients/client1/test.file\" 4096 512 0x00000002\n"
		"RENAME3 \"/clients/client1/a\" \"/clients/client1/d/b\" *\n"
		"FSSTAT3 0x00000000\n");

	assert_int_equal(prog->nops, 5);
	assert_int_equal(loadfile_op(prog, 0)->type, OP_GETATTR3);
	assert_string_equal(loadfile_op(prog, 0)->path, "");
	assert_int_equal(loadfile_op(prog, 0)->status, NT_OK);
	assert_int_equal(loadfile_op(prog, 1)->type, OP_WRITE3);
	assert_string_equal(loadfile_op(prog, 1)->path, "test.file");
	assert_int_equal(loadfile_op(prog, 1)->a[0], 1024);
	assert_int_equal(loadfile_op(prog, 1)->a[1], 2048);
	assert_int_equal(loadfile_op(prog, 1)->a[2], 2);
	assert_int_equal(loadfile_op(prog, 1)->handle, HANDLE_NONE);
	assert_int_equal(loadfile_op(prog, 2)->status, NT_OBJECT_NAME_NOT_FOUND);
	assert_string_equal(loadfile_op(prog, 3)->path2, "d/b");
	assert_true(loadfile_op(prog, 3)->flags & OPF_ANY_STATUS);
	assert_false(loadfile_op(prog, 0)->flags & OPF_ANY_STATUS);
	assert_int_equal(loadfile_op(prog, 4)->type, OP_FSSTAT3);
	assert_int_equal(prog->bytes_written, 2048);
	assert_int_equal(prog->bytes_read, 512);
	assert_int_equal(prog->max_handles, 0);
}

static void test_nfs_status_numbers_map_to_nt_statuses(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"MKDIR3 \"/clients/client1/d\" 0x00000011\n"
		"RMDIR3 \"/clients/client1/d\" 0x00000042\n"
		"REMOVE3 \"/clients/client1/f\" 0x0000ABCD\n");

	assert_int_equal(loadfile_op(prog, 0)->status, NT_OBJECT_NAME_COLLISION);
	assert_int_equal(loadfile_op(prog, 1)->status, NT_DIRECTORY_NOT_EMPTY);
	assert_int_equal(loadfile_op(prog, 2)->status, NT_UNSUCCESSFUL);
}

static void test_nfs_rows_are_rejected_with_their_line(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "GETATTR3 \"/clients/client1\"\n",
			"t.load:1: GETATTR3 takes 1 argument and a status, got 1 field");
	assert_rejected(ctx, "#\nGETATTR3 \"/clients/client1\" NT_STATUS_OK\n",
			"t.load:2: malformed NFS status 'NT_STATUS_OK' (0x and a number, or *)");
	assert_rejected(ctx, "READ3 \"/clients/client1/f\" 0 1 0x0000000g\n",
			"t.load:1: malformed NFS status '0x0000000g' (0x and a number, or *)");
	assert_rejected(ctx, "WRITE3 \"/clients/client1/f\" 0 1 3 0x0\n",
			"t.load:1: stable 3 is not 0 (unstable), 1 (data) or 2 (file)");
	assert_rejected(ctx, "GETATTR3 \"clients/client1\" 0x0\n",
			"t.load:1: path 'clients/client1' does not begin with / or is beneath "
			"\\clients but not \\clients\\client1");
	assert_rejected(ctx, "GETATTR3 \"/clients/client2/f\" 0x0\n",
			"t.load:1: path '/clients/client2/f' does not begin with / or is beneath "
			"\\clients but not \\clients\\client1");
	assert_rejected(ctx, "REMOVE3 \"/clients\" *\n",
			"t.load:1: REMOVE3 may not name \\clients, which all clients share");
	assert_rejected(ctx, "READ3 \"/clients/client1/f\" *%0 1 0x0\n",
			"t.load:1: offset '*%0' divides by zero");
	assert_rejected(ctx, "READ3 \"/clients/client1/f\" *x5 1 0x0\n",
			"t.load:1: malformed offset '*x5' (a number, * with /N %N +N, +N, "
			"+child or +num_children)");
	assert_rejected(ctx, "READ3 \"/clients/client1/f\" 0 +1 0x0\n",
			"t.load:1: malformed number '+1'");
}

static void test_nfs_paths_outside_clients_lie_beneath_the_client(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"LOCK4 \"/foo.dbench\" 5 15 0x00000000\n"
		"MKDIR3 \"/clients\" *\n"
		"CREATE3 \"/x/y.file\" 0x0\n");

	assert_string_equal(loadfile_op(prog, 0)->path, "foo.dbench");
	assert_true(loadfile_op(prog, 1)->flags & OPF_CLIENTS_DIR);
	assert_string_equal(loadfile_op(prog, 2)->path, "x/y.file");
	assert_string_equal(dir_of(prog, loadfile_op(prog, 2)->dir), "x");
}

static void test_nfs_offset_expressions_evaluate_per_client(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"UNLOCK4 \"/f\" 0 0 0x0\n"
		"LOCK4 \"/f\" +child 1 0x0\n"
		"LOCK4 \"/f\" +num_children 1 0x0\n"
		"WRITE3 \"/f\" +0x100 1 0 0x0\n"
		"READ3 \"/f\" */0x1000%40960+7 4096 0x0\n");
	struct offset_state st = { .rng = 42, .client = 3, .nclients = 5 };

	assert_int_equal(prog->nexprs, 4);
	assert_int_equal(loadfile_offset(prog, loadfile_op(prog, 0), &st), 0);
	assert_int_equal(loadfile_offset(prog, loadfile_op(prog, 1), &st), 3);
	assert_int_equal(loadfile_offset(prog, loadfile_op(prog, 2), &st), 8);
	assert_int_equal(loadfile_offset(prog, loadfile_op(prog, 2), &st), 13);
	assert_int_equal(loadfile_offset(prog, loadfile_op(prog, 3), &st), 13 + 256);
	for (int i = 0; i < 100; i++) {
		uint64_t v = loadfile_offset(prog, loadfile_op(prog, 4), &st);
		assert_true(v >= 7 && v < 40960 + 7);
		assert_int_equal((v - 7) % 4096, 0);
	}
}

static void test_nfs_repeat_runs_the_next_operation_n_times(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"WRITE3 \"/clients/client1/t\" 0 32768 0 0x0\n"
		"REPEAT 1000\n"
		"# a comment between is fine\n"
		"WRITE3 \"/clients/client1/t\" +32768 32768 0 0x0\n"
		"COMMIT3 \"/clients/client1/t\" 0x0\n");

	assert_int_equal(prog->nops, 3);
	assert_int_equal(loadfile_op(prog, 0)->repeat, 1);
	assert_int_equal(loadfile_op(prog, 1)->repeat, 1000);
	assert_int_equal(loadfile_op(prog, 2)->repeat, 1);
	assert_int_equal(prog->count[OP_WRITE3], 1001);
	assert_int_equal(prog->bytes_written, 1001 * 32768);
	assert_int_equal(loadfile_ops_per_pass(prog), 1002);
}

static void test_the_largest_transfer_is_of_any_operation_that_moves_bytes(void **state)
{
	struct program *smb = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\f\" 0x0 0x2 1 NT_STATUS_OK\n"
		"WriteX 1 0 65536 65536 NT_STATUS_OK\n"
		"ReadX 1 0 4096 4096 NT_STATUS_OK\n"
		"LockX 1 0 1048576 NT_STATUS_OK\n"
		"Close 1 NT_STATUS_OK\n");
	struct program *nfs = compile_ok(ctx_of(state),
		"WRITE3 \"/clients/client1/t\" 0 8192 0 0x0\n"
		"READ3 \"/clients/client1/t\" 0 32768 0x0\n");
	struct program *none = compile_ok(ctx_of(state), "Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\n");

	assert_int_equal(loadfile_max_transfer(smb), 65536);	/* a lock's length moves nothing */
	assert_int_equal(loadfile_max_transfer(nfs), 32768);
	assert_int_equal(loadfile_max_transfer(none), 0);
}

static void test_nfs_loop_is_unrolled(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"MKDIR3 \"/clients/client1\" *\n"
		"LOOP 3\n"
		"CREATE3 \"/clients/client1/a\" 0x0\n"
		"REPEAT 2\n"
		"WRITE3 \"/clients/client1/a\" 0 10 0 0x0\n"
		"ENDLOOP\n"
		"Deltree \"/clients/client1\" 0x00000000\n");

	assert_int_equal(prog->nops, 1 + 2 * 3 + 1);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(loadfile_op(prog, 1 + 2 * k)->type, OP_CREATE3);
		assert_int_equal(loadfile_op(prog, 2 + 2 * k)->type, OP_WRITE3);
		assert_int_equal(loadfile_op(prog, 2 + 2 * k)->repeat, 2);
		assert_int_equal(loadfile_line(prog, 2 + 2 * k), 5);
	}
	assert_int_equal(loadfile_op(prog, 7)->type, OP_DELTREE);
	assert_int_equal(prog->count[OP_WRITE3], 6);
	assert_int_equal(prog->bytes_written, 60);
}

static void test_nfs_directives_are_checked(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_rejected(ctx, "REPEAT 0\nFSSTAT3 0x0\n",
			"t.load:1: REPEAT count 0 is not between 1 and 1000000000");
	assert_rejected(ctx, "REPEAT\n", "t.load:1: REPEAT takes one count, got 0 fields");
	assert_rejected(ctx, "FSSTAT3 0x0\nREPEAT 2\n",
			"t.load:2: REPEAT is not followed by an operation");
	assert_rejected(ctx, "REPEAT 2\nREPEAT 3\nFSSTAT3 0x0\n",
			"t.load:2: REPEAT (line 1) is followed by REPEAT, not an operation");
	assert_rejected(ctx, "REPEAT 2\n" OPEN1,
			"t.load:2: REPEAT (line 1) may not repeat NTCreateX, which uses a handle");
	assert_rejected(ctx, "LOOP 2\nFSSTAT3 0x0\n", "t.load:1: LOOP without an ENDLOOP");
	assert_rejected(ctx, "FSSTAT3 0x0\nENDLOOP\n", "t.load:2: ENDLOOP without a LOOP");
	assert_rejected(ctx, "LOOP 2\nLOOP 2\n", "t.load:2: LOOP inside the LOOP of line 1");
	assert_rejected(ctx, "LOOP 2\n" OPEN1 "ENDLOOP\n",
			"t.load:2: NTCreateX uses a handle, which a LOOP (line 1) may not hold");
	assert_rejected(ctx, "LOOP 1000000\nFSSTAT3 0x0\nFSSTAT3 0x0\nENDLOOP\n",
			"t.load:4: LOOP (line 1) unrolls to more than 1048576 operations");
	assert_rejected(ctx, "RANDOMSTRING 10 \"a\"\n",
			"t.load:1: RANDOMSTRING index 10 is not between 0 and 9");
	assert_rejected(ctx, "RANDOMSTRING 1 \"/t[01.file\"\n",
			"t.load:1: unbalanced [ in RANDOMSTRING");
	assert_rejected(ctx, "RANDOMSTRING 1 \"/t[].file\"\n", "t.load:1: empty [] in RANDOMSTRING");
	assert_rejected(ctx, "RANDOMSTRING 1 \"/a\"\nCREATE3 $2 *\n",
			"t.load:2: '$2' names no RANDOMSTRING");
	assert_rejected(ctx, "WRITEPATTERN\n", "t.load:1: WRITEPATTERN without a pattern");
	assert_rejected(ctx, "WRITEPATTERN ab\nWRITEPATTERN cd\n",
			"t.load:2: a second, different WRITEPATTERN (one loadfile writes one pattern)");
}

static void test_nfs_random_strings_are_drawn_from_their_sets(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"RANDOMSTRING 1 \"/test[0123456789][ab].file\"\n"
		"CREATE3 $1 *\n"
		"LOOKUP3 \"/clients/client1/$1\" 0x0\n"
		"WRITEPATTERN 1234567890\n"
		"WRITE3 $1 0 10 0 0x0\n");

	const char *p = loadfile_op(prog, 0)->path;
	assert_int_equal(strlen(p), strlen("test00.file"));
	assert_memory_equal(p, "test", 4);
	assert_non_null(strchr("0123456789", p[4]));
	assert_non_null(strchr("ab", p[5]));
	assert_string_equal(p + 6, ".file");
	assert_string_equal(loadfile_op(prog, 1)->path, p);
	assert_ptr_equal(loadfile_op(prog, 2)->path, p);
	assert_string_equal(prog->write_pattern, "1234567890");
	assert_int_equal(prog->write_pattern_len, 10);

	/* The same text draws the same strings: runs are reproducible. */
	struct program *again = compile_ok(ctx_of(state),
		"RANDOMSTRING 1 \"/test[0123456789][ab].file\"\nCREATE3 $1 *\n");
	assert_string_equal(loadfile_op(again, 0)->path, p);
}

static void test_dollar_is_literal_without_randomstring(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"Mkdir \"\\clients\\client1\\a$1\" NT_STATUS_OK\n");

	assert_string_equal(loadfile_op(prog, 0)->path, "a$1");
}

static void test_dialects_mix_and_status_star_means_any(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"0.000 Deltree \"/clients/client1\" 0x00000000\n"
		"0.000 MKDIR3 \"/clients/client1\" *\n"
		"Mkdir \"\\clients\\client1\\d\" *\n");

	assert_int_equal(loadfile_op(prog, 0)->type, OP_DELTREE);
	assert_int_equal(loadfile_op(prog, 0)->status, NT_OK);
	assert_true(loadfile_op(prog, 0)->flags & OPF_TIMED);
	assert_true(loadfile_op(prog, 1)->flags & OPF_ANY_STATUS);
	assert_true(loadfile_op(prog, 2)->flags & OPF_ANY_STATUS);
}

static void test_nfs_summary_counts_runs_not_lines(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	struct program *prog = compile_ok(ctx,
		"REPEAT 4\nREAD3 \"/clients/client1/f\" 0 100 0x0\n");
	char *s = loadfile_summary(ctx, prog);

	assert_non_null(strstr(s, "\noperations 4\nREAD3 4\nbytes_read 400\n"));
}

/* ---- whole files ---- */

static void test_empty_loadfile_is_rejected(void **state)
{
	assert_rejected(ctx_of(state), "", "t.load: no operations in loadfile");
}

static void test_comment_only_loadfile_is_rejected(void **state)
{
	assert_rejected(ctx_of(state), "# nothing here\n\n   \n# still nothing\n",
			"t.load: no operations in loadfile");
}

static void test_error_names_the_right_line_after_comments(void **state)
{
	assert_rejected(ctx_of(state),
			"# header\n\nBogusOp 1 NT_STATUS_OK\nQUERY_FS_INFORMATION 1 NT_STATUS_OK\n",
			"t.load:3: unknown operation 'BogusOp'");
}

static void test_ops_array_holds_exactly_the_operations(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"# c\n\n" OPEN1 "\n# c\nClose 1 NT_STATUS_OK\n\n\n");

	assert_int_equal(prog->nops, 2);
	assert_int_equal(talloc_array_length(prog->ops), 2);
	assert_int_equal(loadfile_line(prog, 0), 3);
	assert_int_equal(loadfile_line(prog, 1), 6);
	assert_string_equal(prog->source, NAME);
}

/*
 * Equal operations are one entry of the table, whatever the trace's handle
 * numbers; each position still runs its own operation, at its own line
 * (comments and blank lines between them).
 */
static void test_repeated_lines_share_one_entry(void **state)
{
	struct program *prog = compile_ok(ctx_of(state),
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 7 NT_STATUS_OK\n"
		"WriteX 7 0 4096 4096 NT_STATUS_OK\n"
		"# the same file again, on another handle\n"
		"Close 7 NT_STATUS_OK\n"
		"\n"
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 12 NT_STATUS_OK\n"
		"WriteX 12 0 4096 4096 NT_STATUS_OK\n"
		"ReadX 12 0 512 512 NT_STATUS_OK\n"
		"\n"
		"Close 12 NT_STATUS_OK\n");
	static const int type[] = { OP_NTCREATEX, OP_WRITEX, OP_CLOSE, OP_NTCREATEX,
				    OP_WRITEX, OP_READX, OP_CLOSE };
	static const uint32_t line[] = { 1, 2, 4, 6, 7, 8, 10 };

	assert_int_equal(prog->nops, 7);
	assert_int_equal(prog->ndistinct, 4);
	assert_int_equal(talloc_array_length(prog->ops), 4);
	for (size_t i = 0; i < prog->nops; i++) {
		assert_int_equal(loadfile_op(prog, i)->type, type[i]);
		assert_int_equal(loadfile_line(prog, i), line[i]);
	}
	assert_ptr_equal(loadfile_op(prog, 3), loadfile_op(prog, 0));
	assert_ptr_equal(loadfile_op(prog, 4), loadfile_op(prog, 1));
	assert_ptr_equal(loadfile_op(prog, 6), loadfile_op(prog, 2));
	assert_int_equal(loadfile_op(prog, 5)->a[1], 512);
	assert_int_equal(prog->count[OP_WRITEX], 2);
	assert_int_equal(prog->bytes_written, 8192);
}

/* ---- loadfile_read ---- */

static void test_read_compiles_a_plain_file(void **state)
{
	static const char text[] = OPEN1 "Close 1 NT_STATUS_OK\n";
	char *path = write_file(state, "plain.txt", text, sizeof(text) - 1);
	char *err = NULL;
	struct program *prog = loadfile_read(ctx_of(state), path, &err);

	assert_null(err);
	assert_non_null(prog);
	assert_string_equal(prog->source, path);
	assert_int_equal(prog->nops, 2);
}

static void test_read_of_a_missing_file_names_it(void **state)
{
	char *path = talloc_asprintf(ctx_of(state), "%s/missing.txt", scratch_dir(state));
	char *want = talloc_asprintf(ctx_of(state),
		"cannot open loadfile '%s': No such file or directory", path);
	char *err = NULL;

	assert_null(loadfile_read(ctx_of(state), path, &err));
	assert_non_null(err);
	assert_string_equal(err, want);
}

static void test_read_of_a_directory_is_rejected(void **state)
{
	const char *dir = scratch_dir(state);
	char *want = talloc_asprintf(ctx_of(state), "cannot open loadfile '%s': Is a directory", dir);
	char *err = NULL;

	assert_null(loadfile_read(ctx_of(state), dir, &err));
	assert_non_null(err);
	assert_string_equal(err, want);
}

static void test_read_of_an_empty_file_finds_no_operations(void **state)
{
	char *path = write_file(state, "empty.txt", "", 0);
	char *want = talloc_asprintf(ctx_of(state), "%s: no operations in loadfile", path);
	char *err = NULL;

	assert_null(loadfile_read(ctx_of(state), path, &err));
	assert_non_null(err);
	assert_string_equal(err, want);
}

static void test_read_reports_errors_with_the_file_name(void **state)
{
	static const char text[] = OPEN1 "Close 2 NT_STATUS_OK\n";
	char *path = write_file(state, "bad.txt", text, sizeof(text) - 1);
	char *want = talloc_asprintf(ctx_of(state), "%s:2: handle 2 is not open", path);
	char *err = NULL;

	assert_null(loadfile_read(ctx_of(state), path, &err));
	assert_string_equal(err, want);
}

static void assert_same_program(const struct program *a, const struct program *b)
{
	assert_int_equal(a->nops, b->nops);
	assert_int_equal(a->max_handles, b->max_handles);
	assert_int_equal(a->timed, b->timed);
	assert_int_equal(a->bytes_read, b->bytes_read);
	assert_int_equal(a->bytes_written, b->bytes_written);
	assert_int_equal(a->npaths, b->npaths);
	assert_int_equal(a->ndirs, b->ndirs);
	assert_memory_equal(a->count, b->count, sizeof(a->count));
	for (size_t i = 0; i < a->ndirs; i++)
		assert_string_equal(a->dirs[i], b->dirs[i]);
	for (size_t i = 0; i < a->nops; i++) {
		const struct op *x = loadfile_op(a, i), *y = loadfile_op(b, i);
		assert_int_equal(loadfile_line(a, i), loadfile_line(b, i));
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->status, y->status);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->handle, y->handle);
		assert_int_equal(x->fnum, y->fnum);
		assert_true(x->timestamp == y->timestamp);
		assert_int_equal(x->dir, y->dir);
		assert_int_equal(x->dir2, y->dir2);
		assert_memory_equal(x->a, y->a, sizeof(x->a));
		assert_int_equal(x->path == NULL, y->path == NULL);
		if (x->path)
			assert_string_equal(x->path, y->path);
		assert_int_equal(x->leaf == NULL, y->leaf == NULL);	/* NULL on handle ops */
		if (x->leaf)
			assert_string_equal(x->leaf, y->leaf);
		assert_int_equal(x->path2 == NULL, y->path2 == NULL);
		if (x->path2) {
			assert_string_equal(x->path2, y->path2);
			assert_string_equal(x->leaf2, y->leaf2);
		}
	}
}

static const char sample[] =
	"# a small trace\n"
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	"Mkdir \"\\clients\" NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\d\\f.txt\" 0x40 0x2 7 NT_STATUS_OK\n"
	"0.5 WriteX 7 100 4096 4000 NT_STATUS_OK\n"
	"ReadX 7 0 512 500 NT_STATUS_OK\n"
	"Close 7 NT_STATUS_OK\n"
	"Rename \"\\clients\\client1\\d\\f.txt\" \"\\clients\\client1\\g\" NT_STATUS_OK\n"
	"FIND_FIRST \"\\clients\\client1\\d\\*\" 260 1366 0 NT_STATUS_NO_SUCH_FILE\n";

/* A text of some 2.5 MB, more than the chunk loadfile_read() compiles
 * at a time: lines of many lengths, so that chunks end inside a line and
 * between a CR and its LF, with comments, and no newline at the end. */
static char *big_text(TALLOC_CTX *ctx, size_t *len)
{
	char *t = talloc_strdup(ctx, "Mkdir \"\\clients\" NT_STATUS_OK\n");

	for (unsigned i = 0; t && talloc_get_size(t) < (5u << 19); i++)
		t = talloc_asprintf_append(t, "%sNTCreateX \"\\clients\\client1\\f%0*u\" 0x40 0x2 1 "
					   "NT_STATUS_OK%s\nClose 1 NT_STATUS_OK\n",
					   i % 97 == 0 ? "# comment\n" : "", 1 + (int)(i % 23), i,
					   i % 3 ? "" : "\r");
	t = talloc_asprintf_append(t, "Flush 1 NT_STATUS_INVALID_HANDLE");
	assert_non_null(t);
	*len = strlen(t);
	return t;
}

/* Read a chunk at a time, plain or gzip, a large file compiles to the
 * program of its whole text, with the whole text's SHA-256. */
static void test_read_of_a_large_file_is_its_whole_text(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t len;
	char *text = big_text(ctx, &len);
	char *err = NULL;
	struct program *whole = compile_ok_at(ctx, text, len, __FILE__, __LINE__);
	struct program *a = loadfile_read(ctx, write_file(state, "big.txt", text, len), &err);
	assert_null(err);
	struct program *b = loadfile_read(ctx, write_gzip(state, "big.gz", text, len), &err);
	assert_null(err);

	assert_true(len > (2u << 20));	/* two chunks and more */
	assert_same_program(whole, a);
	assert_same_program(whole, b);
	assert_string_equal(whole->sha256, a->sha256);
	assert_string_equal(whole->sha256, b->sha256);
}

/* The line number of an error past the first chunk is the file's. */
static void test_read_of_a_large_file_names_the_line_of_an_error(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t len;
	char *text = big_text(ctx, &len);
	char *bad = talloc_asprintf(ctx, "%s\nBogus 1\nClose 1 NT_STATUS_OK\n", text);
	unsigned lines = 2;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	char *path = write_file(state, "bigbad.txt", bad, strlen(bad));
	char *want = talloc_asprintf(ctx, "%s:%u: unknown operation 'Bogus'", path, lines);
	char *err = NULL;

	assert_null(loadfile_read(ctx, path, &err));
	assert_non_null(err);
	assert_string_equal(err, want);
}

static void test_read_decompresses_gzip_to_the_same_program(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *plain = write_file(state, "plain.txt", sample, sizeof(sample) - 1);
	/* gzip is recognised by its magic bytes, not by the name */
	char *packed = write_gzip(state, "packed.txt", sample, sizeof(sample) - 1);
	char *err = NULL;
	struct program *a = loadfile_read(ctx, plain, &err);
	assert_null(err);
	struct program *b = loadfile_read(ctx, packed, &err);
	assert_null(err);
	struct program *c = compile_ok(ctx, sample);

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->nops, 8);
	assert_same_program(a, b);
	assert_same_program(a, c);
	assert_string_equal(b->source, packed);
}

/* loadfile_read() of `path` fails with zlib's message `what`, the
 * message naming the loadfile and its gzip data. */
static void assert_read_fails(void **state, const char *path, const char *what)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *want = talloc_asprintf(ctx, "cannot read loadfile '%s': its gzip data is damaged"
				     " or cut short (%s)", path, what);
	char *err = NULL;
	struct program *prog = loadfile_read(ctx, path, &err);

	if (prog)
		fail_msg("damaged gzip file '%s' compiled to %zu ops, want '%s'", path,
			 prog->nops, want);
	assert_non_null(err);
	assert_string_equal(err, want);
}

/*
 * A gzip file that lost its 8-byte trailer (CRC-32 and length) still
 * inflates to the whole text; only the missing trailer shows it is cut.
 */
static void test_read_rejects_a_gzip_file_without_its_trailer(void **state)
{
	char *packed = write_gzip(state, "cut.gz", sample, sizeof(sample) - 1);
	struct stat st;

	assert_int_equal(stat(packed, &st), 0);
	assert_int_equal(truncate(packed, st.st_size - 8), 0);
	assert_read_fails(state, packed, "unexpected end of file");
}

static void test_read_rejects_a_gzip_file_with_a_bad_checksum(void **state)
{
	char *packed = write_gzip(state, "crc.gz", sample, sizeof(sample) - 1);
	struct stat st;
	FILE *fp;

	assert_int_equal(stat(packed, &st), 0);
	fp = fopen(packed, "r+b");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, st.st_size - 8, SEEK_SET), 0);	/* the CRC-32 */
	int ch = fgetc(fp);
	assert_int_equal(fseek(fp, st.st_size - 8, SEEK_SET), 0);
	assert_int_equal(fputc(ch ^ 0xff, fp), ch ^ 0xff);
	assert_int_equal(fclose(fp), 0);
	assert_read_fails(state, packed, "incorrect data check");
}

/* gzip's magic and header, then a deflate block of the type that does
 * not exist (3): zlib knows it for gzip and says the data is bad. */
static void test_read_rejects_a_gzip_file_with_a_bad_block(void **state)
{
	static const char bad[] = { 0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x07, 0, 0 };

	assert_read_fails(state, write_file(state, "bad.gz", bad, sizeof(bad)),
			  "invalid block type");
}

/* ---- summary ---- */

static void test_summary_lists_counts_bytes_and_handles(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx, "small.load", sample, sizeof(sample) - 1,
						&err);
	assert_non_null(prog);

	char *s = loadfile_summary(ctx, prog);
	char *want = talloc_asprintf(ctx,
		"loadfile small.load\n"
		"operations 8\n"
		"NTCreateX 1\n"
		"Close 1\n"
		"Rename 1\n"
		"Deltree 1\n"
		"Mkdir 1\n"
		"FIND_FIRST 1\n"
		"WriteX 1\n"
		"ReadX 1\n"
		"bytes_read 512\n"
		"bytes_written 4096\n"
		"max_handles 1\n"
		"paths 4\n"
		"directories 2\n"
		"distinct_operations 8\n"
		"timed yes\n"
		"sha256 %s\n", prog->sha256);
	assert_string_equal(s, want);
	assert_ptr_equal(talloc_parent(s), ctx);
}

static void test_sha256_is_that_of_the_text(void **state)
{
	struct program *prog = compile_ok(ctx_of(state), "Qfsinfo 1 NT_STATUS_OK\n");

	assert_string_equal(prog->sha256,
		"9a442c2bea6288ed84aa01d907c5526c19004596b4e25d940f1b64f5997787bf");
}

/* ---- the reference and the built-in loadfiles ---- */

static void test_debian_client_txt_has_the_known_figures(void **state)
{
	char *err = NULL;

	if (access(CLIENT_TXT, R_OK) != 0) {
		print_message("# skipping: %s is not readable (%s); install Debian's dbench "
			      "package to run this test\n", CLIENT_TXT, strerror(errno));
		skip();
	}
	struct program *prog = loadfile_read(ctx_of(state), CLIENT_TXT, &err);
	if (!prog)
		fail_msg("%s", err);

	assert_int_equal(prog->nops, 458344);
	assert_int_equal(prog->count[OP_READX], 124199);
	assert_int_equal(prog->count[OP_NTCREATEX], 79230);
	assert_int_equal(prog->bytes_read, 1472088767);
	assert_int_equal(prog->bytes_written, 1015974170);
	assert_int_equal(prog->max_handles, 23);
	assert_false(prog->timed);
	for (size_t i = 0; i < prog->nops; i++) {
		const struct op *op = loadfile_op(prog, i);
		assert_true(op->handle == HANDLE_NONE || op->handle < prog->max_handles);
		assert_true(op->dir == DIR_NONE || op->dir < prog->ndirs);
		assert_int_equal(loadfile_line(prog, i), i + 1);
	}
	/* ignoring the trace's handle numbers, few of its lines differ */
	assert_true(prog->ndistinct < prog->nops / 10);
	assert_int_equal(prog->nlines, 1);	/* one operation a line, from line 1 */
}

static void test_builtin_loadfile_compiles(void **state)
{
	char *err = NULL;
	struct program *prog = loadfile_default(ctx_of(state), &err);

	if (!prog)
		fail_msg("built-in loadfile: %s", err ? err : "(no message)");
	assert_null(err);
	assert_true(prog->nops > 0);
	assert_true(prog->max_handles > 0);
	assert_true(default_loadfile_gz_end - default_loadfile_gz > 0);
}

/* ---- memory ---- */

static void test_freeing_a_program_frees_everything(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	size_t before = talloc_total_blocks(ctx);
	struct program *prog = compile_ok(ctx, sample);

	assert_ptr_equal(talloc_parent(prog), ctx);
	talloc_free(prog);
	assert_int_equal(talloc_total_blocks(ctx), before);

	char *path = write_gzip(state, "s.gz", sample, sizeof(sample) - 1);
	before = talloc_total_blocks(ctx);
	char *err = NULL;
	prog = loadfile_read(ctx, path, &err);
	assert_non_null(prog);
	talloc_free(prog);
	assert_int_equal(talloc_total_blocks(ctx), before);
}

static void test_failed_compile_leaves_only_the_message(void **state)
{
	static const char *const bad[] = {
		"",
		"Bogus\n",
		OPEN1 OPEN1,
		"Unlink \"\\clients\\client1\\a\\..\\b\" 0 NT_STATUS_OK\n",
		OPEN1 "ReadX 1 0 4096 4097 NT_STATUS_OK\n",
		"Mkdir \"\\clients\\client1\\a\" NT_STATUS_OK\nQUERY_FS_INFORMATION 1 NT_STATUS_FOO\n",
	};
	TALLOC_CTX *ctx = ctx_of(state);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t before = talloc_total_blocks(ctx);
		char *err = NULL;
		assert_null(loadfile_compile(ctx, NAME, bad[i], strlen(bad[i]), &err));
		assert_non_null(err);
		assert_ptr_equal(talloc_parent(err), ctx);
		assert_int_equal(talloc_total_blocks(ctx), before + 1);
		talloc_free(err);
	}
}

static void test_failed_read_leaves_only_the_message(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);
	char *bad = write_file(state, "bad.txt", "Bogus\n", 6);
	char *missing = talloc_asprintf(ctx, "%s/missing", scratch_dir(state));
	const char *paths[] = { bad, missing, scratch_dir(state) };

	for (size_t i = 0; i < 3; i++) {
		size_t before = talloc_total_blocks(ctx);
		char *err = NULL;
		assert_null(loadfile_read(ctx, paths[i], &err));
		assert_non_null(err);
		assert_ptr_equal(talloc_parent(err), ctx);
		assert_int_equal(talloc_total_blocks(ctx), before + 1);
		talloc_free(err);
	}
}

/* What Rmdir, Rename, Deltree and REMOVE3 forget beneath a path: the
 * path and what is beneath it, never a sibling that merely starts with
 * its name (the nfs backend once closed "foo.dbench", and with it a
 * lock, on REMOVE3 "foo"). */
static void test_path_within_stops_at_a_component(void **state)
{
	static const struct { const char *path, *top; bool within; } cases[] = {
		{ "foo", "foo", true }, { "foo/x", "foo", true },
		{ "foo/x/y", "foo/x", true }, { "foo.dbench", "foo", false },
		{ "foobar/x", "foo", false }, { "fo", "foo", false },
		{ "bar/foo", "foo", false },
		/* a trailing separator on the top changes nothing */
		{ "foo", "foo/", true }, { "foo/x", "foo/", true },
		{ "foo.dbench", "foo/", false },
		/* the client directory holds everything */
		{ "foo", "", true }, { "", "", true }, { "", "foo", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (loadfile_path_within(cases[i].path, cases[i].top) != cases[i].within)
			fail_msg("'%s' within '%s' should be %d", cases[i].path,
				 cases[i].top, cases[i].within);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* tokenizer */
		T(test_quoted_path_may_hold_spaces),
		T(test_tabs_separate_fields_like_spaces),
		T(test_crlf_line_endings_are_accepted),
		T(test_blank_and_comment_lines_are_skipped),
		T(test_comment_lines_may_hold_any_text),
		T(test_last_line_needs_no_newline),
		T(test_leading_timestamp_sets_timed_flag),
		T(test_loadfile_without_timestamps_is_not_timed),
		T(test_malformed_timestamp_is_rejected),
		T(test_numbers_are_c_integers),
		T(test_malformed_numbers_are_rejected),
		T(test_numbers_reach_the_int64_limits),
		T(test_stray_and_unterminated_quotes_are_rejected),
		T(test_more_than_twelve_fields_are_rejected),
		/* operations */
		T(test_every_operation_decodes_its_arguments),
		T(test_operation_names_are_case_insensitive),
		T(test_short_aliases_decode_like_the_long_names),
		T(test_unknown_operation_is_rejected),
		T(test_missing_arguments_are_rejected),
		T(test_extra_arguments_are_rejected),
		T(test_dbench1_smb_loadfile_is_rejected),
		/* argument ranges */
		T(test_negative_offset_is_rejected),
		T(test_offset_above_one_pib_is_rejected),
		T(test_negative_size_is_rejected),
		T(test_size_is_limited_to_16_mib),
		T(test_expected_return_above_size_is_rejected),
		T(test_handle_outside_int32_is_rejected),
		/* paths */
		T(test_path_becomes_client_relative_with_leaf_and_dir),
		T(test_client_dir_itself_has_empty_path),
		T(test_path_in_client_dir_has_the_empty_dir),
		T(test_client_dir_is_dirs_0_whatever_the_order),
		T(test_paths_and_dirs_are_interned),
		T(test_forward_slashes_are_accepted),
		T(test_clients_dir_allowed_for_mkdir_and_qpathinfo),
		T(test_clients_dir_rejected_for_other_operations),
		T(test_paths_outside_the_client_dir_are_rejected),
		T(test_dot_and_dotdot_components_are_rejected),
		T(test_find_first_wildcards_set_the_wildcard_flag),
		/* handles */
		T(test_ntcreatex_opens_a_slot_used_by_later_ops),
		T(test_close_frees_the_slot_for_reuse),
		T(test_max_handles_counts_the_peak),
		T(test_op_on_unopened_handle_expecting_success_is_rejected),
		T(test_op_on_unopened_handle_expecting_failure_gets_no_handle),
		T(test_failed_close_leaves_the_handle_open),
		T(test_reopening_an_open_handle_is_rejected),
		T(test_failing_ntcreatex_opens_nothing),
		T(test_more_than_4096_open_handles_are_rejected),
		/* expected status */
		T(test_every_status_name_decodes),
		T(test_status_may_be_given_as_a_hex_value),
		T(test_unknown_status_is_rejected),
		T(test_malformed_status_is_rejected),
		/* dbench 3 */
		T(test_dbench3_lines_without_status_expect_success),
		T(test_dbench3_ntcreatex_of_fnum_minus_one_must_fail),
		/* bytes that are not text */
		T(test_nul_byte_is_rejected),
		T(test_control_bytes_are_rejected),
		T(test_tabs_and_high_bytes_are_text),
		T(test_binary_garbage_is_rejected),
		T(test_mutated_loadfiles_never_crash),
		T(test_overlong_line_is_rejected),
		/* dbench 5.0's SMB dialect */
		T(test_smb5_rows_name_files_by_path_with_a_status),
		T(test_smb5_rows_are_told_from_dbench4_rows_by_shape),
		T(test_smb5_rows_are_rejected_with_their_line),
		/* dbench 5.0's block and SCSI dialects */
		T(test_block_rows_read_and_write_at_offsets),
		T(test_scsi_rows_are_commands_with_a_scsi_status),
		T(test_block_and_scsi_rows_are_rejected_with_their_line),
		/* the NFS dialect */
		T(test_nfs_rows_take_paths_offsets_sizes_and_a_status),
		T(test_nfs_status_numbers_map_to_nt_statuses),
		T(test_nfs_rows_are_rejected_with_their_line),
		T(test_nfs_paths_outside_clients_lie_beneath_the_client),
		T(test_nfs_offset_expressions_evaluate_per_client),
		T(test_nfs_repeat_runs_the_next_operation_n_times),
		T(test_the_largest_transfer_is_of_any_operation_that_moves_bytes),
		T(test_nfs_loop_is_unrolled),
		T(test_nfs_directives_are_checked),
		T(test_nfs_random_strings_are_drawn_from_their_sets),
		T(test_dollar_is_literal_without_randomstring),
		T(test_dialects_mix_and_status_star_means_any),
		T(test_nfs_summary_counts_runs_not_lines),
		/* whole files */
		T(test_empty_loadfile_is_rejected),
		T(test_comment_only_loadfile_is_rejected),
		T(test_error_names_the_right_line_after_comments),
		T(test_ops_array_holds_exactly_the_operations),
		T(test_repeated_lines_share_one_entry),
		/* loadfile_read */
		T(test_read_compiles_a_plain_file),
		T(test_read_of_a_missing_file_names_it),
		T(test_read_of_a_directory_is_rejected),
		T(test_read_of_an_empty_file_finds_no_operations),
		T(test_read_reports_errors_with_the_file_name),
		T(test_read_decompresses_gzip_to_the_same_program),
		T(test_read_rejects_a_gzip_file_without_its_trailer),
		T(test_read_rejects_a_gzip_file_with_a_bad_checksum),
		T(test_read_rejects_a_gzip_file_with_a_bad_block),
		/* summary, reference and built-in loadfiles */
		T(test_summary_lists_counts_bytes_and_handles),
		T(test_sha256_is_that_of_the_text),
		T(test_debian_client_txt_has_the_known_figures),
		T(test_read_of_a_large_file_is_its_whole_text),
		T(test_read_of_a_large_file_names_the_line_of_an_error),
		T(test_builtin_loadfile_compiles),
		/* memory */
		T(test_freeing_a_program_frees_everything),
		T(test_failed_compile_leaves_only_the_message),
		T(test_failed_read_leaves_only_the_message),
		/* paths */
		T(test_path_within_stops_at_a_component),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
