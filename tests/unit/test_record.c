/*
 * test_record.c - the recorder's parts (src/record/): strace's lines
 * taken apart, paths made whole, calls translated into rows of the
 * system-call dialect with the descriptor model behind them (dirfd and
 * working directory, fork copies, threads share, close-on-exec at exec,
 * identity from the opening call), the initial state inferred from a
 * trace, fio's iologs, and the file the writer makes of it all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"
#include "loadfile.h"
#include "record/fio_iolog.h"
#include "record/infer.h"
#include "record/loadwriter.h"
#include "record/paths.h"
#include "record/recording.h"
#include "record/strace_line.h"
#include "record/translate.h"

/* ---- strace's lines ---- */

static void test_a_whole_line_gives_time_name_arguments_result_and_duration(void **state)
{
	struct sc_call c;
	const char *line = "1796169071.819337 openat(AT_FDCWD<\\x2f\\x74>, \"\\x2f\\x65\\x74\\x63\", "
			   "O_RDONLY|O_CLOEXEC) = 3<\\x2f\\x65\\x74\\x63> <0.000012>";

	assert_int_equal(strace_line_parse(fixture_ctx(state), line, &c), 0);
	assert_int_equal(c.kind, SC_CALL);
	assert_int_equal(c.tid, 0);
	assert_true(c.start_us == INT64_C(1796169071819337));
	assert_true(c.dur_us == 12);
	assert_string_equal(c.name, "openat");
	assert_int_equal(c.nargs, 3);
	assert_string_equal(c.arg[0], "AT_FDCWD<\\x2f\\x74>");
	assert_string_equal(c.arg[2], "O_RDONLY|O_CLOEXEC");
	assert_true(c.has_result && !c.ret_unknown && c.ret == 3);
	assert_string_equal(c.err, "");
}

/* Every time option of strace, told apart; a time no clock shows is no
 * line of strace's. */
static void test_each_kind_of_time_strace_prints(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct sc_call c;
	static const struct {
		const char *line;
		enum sc_clock clock;
		int64_t us;
		int tid;
	} cases[] = {
		{ "1796169071.000001 close(3) = 0", SC_CLOCK_EPOCH, INT64_C(1796169071000001), 0 },
		{ "77 23:59:58.250000 close(3) = 0", SC_CLOCK_DAY, INT64_C(86398250000), 77 },
		{ "[pid 77] 00:00:01 close(3) = 0", SC_CLOCK_SECONDS, 1000000, 77 },
		{ "     0.000123 close(3) = 0", SC_CLOCK_RELATIVE, 123, 0 },
		{ "77 close(3) = 0", SC_CLOCK_NONE, 0, 77 },
		{ "close(3) = 0", SC_CLOCK_NONE, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(strace_line_parse(ctx, cases[i].line, &c), 0);
		assert_int_equal(c.clock, cases[i].clock);
		assert_true(c.start_us == cases[i].us);
		assert_int_equal(c.tid, cases[i].tid);
		assert_string_equal(c.name, "close");
	}
	assert_int_equal(strace_line_parse(ctx, "99999999999999999999.5 close(3) = 0", &c),
			 SC_OUT_OF_RANGE);
	assert_int_equal(strace_line_parse(ctx, "25:00:00.000001 close(3) = 0", &c), SC_OUT_OF_RANGE);
	assert_int_equal(strace_line_parse(ctx, "[pid 99999999999] 1.5 close(3) = 0", &c),
			 SC_OUT_OF_RANGE);
	assert_string_equal(c.raw, "99999999999");
	assert_int_equal(strace_line_parse(ctx, "1.5 close(3) = 99999999999999999999", &c),
			 SC_OUT_OF_RANGE);
	assert_string_equal(c.raw, "99999999999999999999");
}

static void test_a_failure_gives_its_errno_name(void **state)
{
	struct sc_call c;

	assert_int_equal(strace_line_parse(fixture_ctx(state),
		"12 1.5 stat(\"nothere\", 0x7ffd) = -1 ENOENT (No such file or directory) <0.000008>", &c), 0);
	assert_int_equal(c.tid, 12);
	assert_true(c.ret == -1);
	assert_string_equal(c.err, "ENOENT");
	assert_true(c.start_us == 1500000);
}

static void test_commas_inside_strings_structures_and_annotations_split_nothing(void **state)
{
	struct sc_call c;

	assert_int_equal(strace_line_parse(fixture_ctx(state),
		"[pid 7] 2.000001 write(3</a,b>, \"x,y\\\"z\"..., 10) = 10 <0.000001>", &c), 0);
	assert_int_equal(c.tid, 7);
	assert_int_equal(c.nargs, 3);
	assert_string_equal(c.arg[0], "3</a,b>");
	assert_string_equal(c.arg[1], "\"x,y\\\"z\"...");
	assert_int_equal(strace_line_parse(fixture_ctx(state),
		"2.0 fcntl(3, F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=1}) = 0", &c), 0);
	assert_int_equal(c.nargs, 3);
	assert_string_equal(strace_field(fixture_ctx(state), c.arg[2], "l_start"), "0");
	assert_string_equal(strace_field(fixture_ctx(state), c.arg[2], "l_len"), "1");
}

static void test_halves_of_an_interrupted_call_join_into_one(void **state)
{
	struct sc_call a, b;
	TALLOC_CTX *ctx = fixture_ctx(state);

	assert_int_equal(strace_line_parse(ctx, "5 1.000000 read(3</x>,  <unfinished ...>", &a), 0);
	assert_int_equal(a.kind, SC_UNFINISHED);
	assert_int_equal(strace_line_parse(ctx, "5 1.000400 <... read resumed>\"ab\", 4096) = 2 <0.000401>", &b), 0);
	assert_int_equal(b.kind, SC_RESUMED);
	assert_int_equal(strace_line_join(ctx, &a, &b), 0);
	assert_int_equal(a.kind, SC_CALL);
	assert_true(a.start_us == 1000000 && a.dur_us == 401 && a.ret == 2);
	assert_int_equal(a.nargs, 3);
	assert_string_equal(a.arg[2], "4096");
}

static void test_signals_exits_and_calls_that_never_returned(void **state)
{
	struct sc_call c;
	TALLOC_CTX *ctx = fixture_ctx(state);

	assert_int_equal(strace_line_parse(ctx, "1.0 --- SIGCHLD {si_signo=SIGCHLD} ---", &c), 0);
	assert_int_equal(c.kind, SC_OTHER);
	assert_int_equal(strace_line_parse(ctx, "1.0 +++ exited with 0 +++", &c), 0);
	assert_int_equal(c.kind, SC_OTHER);
	assert_int_equal(strace_line_parse(ctx, "1.0 exit_group(0) = ?", &c), 0);
	assert_true(c.ret_unknown);
	assert_int_equal(strace_line_parse(ctx, "not strace at all", &c), -1);
}

/* A time or a duration past what a recording can hold is refused: the
 * line (SC_OUT_OF_RANGE: the trace is then refused, naming it), or the
 * duration (-1, none).  Found by fuzz_strace: a duration of
 * <-5> was kept below -1, and one of <1e300> overflowed as microseconds;
 * a time of 17 digits did too before times had at most 12. */
static void test_a_time_or_duration_past_what_fits_is_refused(void **state)
{
	struct sc_call c;
	TALLOC_CTX *ctx = fixture_ctx(state);

	assert_int_equal(strace_line_parse(ctx, "17964472896447281.0 read(3, \"\", 1) = 0", &c),
			 SC_OUT_OF_RANGE);
	assert_int_equal(c.kind, SC_OTHER);
	assert_int_equal(strace_line_parse(ctx, "99999999999999999999999.5 read(3, \"\", 1) = 0", &c),
			 SC_OUT_OF_RANGE);
	assert_int_equal(strace_line_parse(ctx, "999999999999.999999 read(3, \"\", 1) = 0", &c), 0);
	assert_true(c.start_us == 999999999999999999);
	assert_int_equal(strace_line_parse(ctx, "1000000000000.0 read(3, \"\", 1) = 0", &c),
			 SC_OUT_OF_RANGE);
	assert_int_equal(strace_line_parse(ctx, "1.0 read(3, \"\", 1) = 0 <-5>", &c), 0);
	assert_true(c.dur_us == -1);
	assert_int_equal(strace_line_parse(ctx, "1.0 read(3, \"\", 1) = 0 <1e300>", &c), 0);
	assert_true(c.dur_us == -1);
	assert_int_equal(strace_line_parse(ctx, "1.0 read(3, \"\", 1) = 0 <2.5>", &c), 0);
	assert_true(c.dur_us == 2500000);
}

static void test_strings_decode_hex_octal_and_escapes(void **state)
{
	bool cut;
	TALLOC_CTX *ctx = fixture_ctx(state);

	assert_string_equal(strace_string(ctx, "\"\\x2f\\x61\"", &cut), "/a");
	assert_false(cut);
	assert_string_equal(strace_string(ctx, "\"a\\nb\\t\\\"\\\\\\101\"", &cut), "a\nb\t\"\\A");
	assert_string_equal(strace_string(ctx, "\"abc\"...", &cut), "abc");
	assert_true(cut);
	assert_null(strace_string(ctx, "NULL", &cut));
	assert_int_equal(strace_iov_total("[{iov_base=\"a\", iov_len=10}, {iov_base=\"b\", iov_len=22}]"), 32);
}

/* ---- paths ---- */

static void test_paths_are_made_plain_lexically(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	const char *two[] = { "/home/alice/src", "/tmp" };
	const char *near[] = { "/a/bc", "/a/b" };

	assert_string_equal(path_normalize(ctx, "/a/./b/../c//d/"), "/a/c/d");
	assert_string_equal(path_normalize(ctx, "/../.."), "/");
	assert_string_equal(path_common_dir(ctx, two, 2), "/");
	assert_string_equal(path_common_dir(ctx, near, 2), "/a");
	assert_string_equal(path_common_dir(ctx, near, 1), "/a/bc");
}

static void test_a_path_beneath_a_root_is_taken_from_the_base(void **state)
{
	struct recording *rec = recording_new(fixture_ctx(state));
	const char *roots[] = { "/home/alice/src", "/tmp" };

	rec->roots = roots;
	rec->nroots = 2;
	rec->base = "/";
	assert_string_equal(path_in_roots(rec, rec, "/home/alice/src/x.c"), "home/alice/src/x.c");
	assert_string_equal(path_in_roots(rec, rec, "/tmp"), "tmp");
	assert_null(path_in_roots(rec, rec, "/home/alice/srcx"));
	assert_null(path_in_roots(rec, rec, "/usr/lib/libc.so"));
	assert_string_equal(recording_quote(rec, "a \"b\"\\\n\x01\xc3\xa9"),
			    "\"a \\\"b\\\"\\\\\\n\\x01\\xc3\\xa9\"");
}

/* ---- calls into rows ---- */

/*
 * The loadfile (less its comments) that the calls in `lines` make, the
 * recording rooted at /r with its first thread working in /r; tallies
 * through *out_rec when asked.
 */
static char *rows_of(void **state, const char *const *lines, bool infer, struct recording **out_rec)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct recording *rec = recording_new(ctx);
	static const char *roots[] = { "/r" };
	struct infer *inf = infer ? infer_new(ctx) : NULL;

	rec->roots = roots;
	rec->nroots = 1;
	rec->base = "/r";
	rec->cwd0 = "/r";
	struct translate *tr = translate_new(ctx, rec);
	translate_infer(tr, inf, false);
	for (size_t i = 0; lines[i]; i++) {
		struct sc_call c;
		assert_int_equal(strace_line_parse(ctx, lines[i], &c), 0);
		if (c.tid == 0)
			c.tid = 100;
		assert_int_equal(translate_call(tr, &c), 0);
	}
	assert_int_equal(translate_finish(tr), 0);
	if (inf)
		assert_true(infer_finish(inf, rec));
	char *path = talloc_asprintf(ctx, "%s/out.load", fixture_scratch_dir(state, "record"));
	char *err = NULL;
	assert_int_equal(loadwriter_write(ctx, rec, path, &err), 0);
	FILE *f = fopen(path, "r");
	char line[4200];
	char *text = talloc_strdup(ctx, "");
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			text = talloc_asprintf_append(text, "%s", line);
	fclose(f);
	if (out_rec)
		*out_rec = rec;
	return text;
}

/* The lines of text before its first call. */
static char *init_lines(TALLOC_CTX *ctx, const char *text)
{
	const char *p = text;

	while (*p && !(*p >= '0' && *p <= '9'))
		p = strchrnul(p, '\n') + (strchr(p, '\n') != NULL);
	return talloc_strndup(ctx, text, (size_t)(p - text));
}

static void test_paths_resolve_against_directory_descriptors_and_the_working_directory(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"d\", O_RDONLY|O_DIRECTORY) = 3</r/d> <0.000001>",
		"100 1.000010 openat(3</r/d>, \"f\", O_RDONLY) = 4</r/d/f> <0.000001>",
		"100 1.000020 chdir(\"d/e\") = 0 <0.000001>",
		"100 1.000030 mkdir(\"../g\", 0755) = 0 <0.000001>",
		"100 1.000040 fchdir(3</r/d>) = 0 <0.000001>",
		"100 1.000050 unlinkat(AT_FDCWD</r/d>, \"f\", 0) = 0 <0.000002>",
		"100 1.000060 stat(\"/usr/lib/x\", 0x1) = 0 <0.000001>",
		NULL
	};
	struct recording *rec;

	assert_string_equal(rows_of(state, lines, false, &rec),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"d\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0.000010 0.000001 openat \"d/f\" O_RDONLY 0 4\n"
		"1 0.000020 0.000001 chdir \"d/e\" 0\n"
		"1 0.000030 0.000001 mkdir \"d/g\" 0755 0\n"
		"1 0.000040 0.000001 fchdir 3 0\n"
		"1 0.000050 0.000002 unlinkat \"d/f\" 0 0\n");
	assert_int_equal(tally_get(&rec->outside, "/usr"), 1);
}

/* read, write, pread64 and pwrite64 as dbench record has strace print
 * them, raw (hex numbers, no buffer, no -y name), make the rows their
 * decoded lines make. */
static void test_calls_printed_raw_make_the_rows_of_their_decoded_lines(void **state)
{
	const char *decoded[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"f\", O_RDWR|O_CREAT, 0644) = 3</r/f> <0.000001>",
		"100 1.000010 write(3</r/f>, \"abcdef\", 6) = 6 <0.000001>",
		"100 1.000020 pwrite64(3</r/f>, \"xyz\", 3, 8192) = 3 <0.000001>",
		"100 1.000030 pread64(3</r/f>, \"ab\", 4096, 0) = 4096 <0.000001>",
		"100 1.000040 read(3</r/f>, \"\", 65536) = 0 <0.000001>",
		"100 1.000050 read(10, 0x1, 1) = -1 EBADF (Bad file descriptor) <0.000001>",
		NULL
	};
	const char *raw[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"f\", O_RDWR|O_CREAT, 0644) = 3</r/f> <0.000001>",
		"100 1.000010 write(0x3, 0x55d0c0de0000, 0x6) = 0x6 <0.000001>",
		"100 1.000020 pwrite64(0x3, 0x55d0c0de0000, 0x3, 0x2000) = 0x3 <0.000001>",
		"100 1.000030 pread64(0x3, 0x7ffc00000000, 0x1000, 0) = 0x1000 <0.000001>",
		"100 1.000040 read(0x3, 0x7ffc00000000, 0x10000) = 0 <0.000001>",
		"100 1.000050 read(0xa, 0x1, 0x1) = -1 EBADF (Bad file descriptor) <0.000001>",
		NULL
	};
	char *want = rows_of(state, decoded, false, NULL);

	assert_non_null(strstr(want, " pwrite64 3 3 8192 3\n"));
	assert_string_equal(rows_of(state, raw, false, NULL), want);
}

static void test_a_working_directory_outside_the_roots_leaves_relative_paths_outside(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"/usr\", O_RDONLY|O_DIRECTORY) = 5</usr> <0.000001>",
		"100 1.000010 fchdir(5</usr>) = 0 <0.000001>",
		"100 1.000020 openat(AT_FDCWD</usr>, \"x\", O_RDONLY) = 6</usr/x> <0.000001>",
		"100 1.000030 chdir(\"/r/d\") = 0 <0.000001>",
		"100 1.000040 chdir(\"\\x2e\\x2e\"...) = 0 <0.000001>",
		"100 1.000050 stat(\"y\", 0x1) = 0 <0.000001>",
		NULL
	};
	struct recording *rec;

	/* after a chdir strace cut short, where "y" is cannot be told */
	assert_string_equal(rows_of(state, lines, false, &rec),
		"syscalls 1\n"
		"1 0.000030 0.000001 chdir \"d\" 0\n");
	assert_int_equal(tally_get(&rec->outside, "/usr"), 2);
	assert_true(rec->fd_outside == 1);	/* the fchdir */
	assert_int_equal(tally_get(&rec->outside, "(unresolved)"), 2);
}

static void test_a_fork_copies_the_table_and_a_thread_shares_it(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"a\", O_RDWR|O_CREAT, 0644) = 3</r/a> <0.000001>",
		"100 1.000010 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD) = 200 <0.000001>",
		"200 1.000020 close(3</r/a>) = 0 <0.000001>",
		"100 1.000030 write(3</r/a>, \"x\", 1) = 1 <0.000001>",
		"100 1.000040 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_THREAD}, 88) = 300 <0.000001>",
		"300 1.000050 close(3</r/a>) = 0 <0.000001>",
		"100 1.000060 write(3, \"x\", 1) = -1 EBADF (Bad file descriptor) <0.000001>",
		"200 1.000070 write(3, \"x\", 1) = -1 EBADF (Bad file descriptor) <0.000001>",
		NULL
	};

	/* the EBADFs: in the thread's table 3 is closed (no row, unknown
	 * there), in the child's it was closed before */
	assert_string_equal(rows_of(state, lines, false, NULL),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"a\" O_RDWR|O_CREAT 0644 3\n"
		"1 0.000010 0.000001 fork 2\n"
		"2 0.000020 0.000001 close 3 0\n"
		"1 0.000030 0.000001 write 3 1 1\n"
		"1 0.000040 0.000001 thread 3\n"
		"3 0.000050 0.000001 close 3 0\n");
}

static void test_an_open_that_got_the_number_another_thread_closed_comes_after_the_close(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"a\", O_RDONLY) = 3</r/a> <0.000001>",
		"100 1.000005 clone(child_stack=0x1, flags=CLONE_VM|CLONE_FILES|CLONE_THREAD) = 300 <0.000001>",
		"300 1.000010 openat(AT_FDCWD</r>, \"b\", O_RDONLY) = 3</r/b> <0.000040>",
		"100 1.000020 close(3</r/a>) = 0 <0.000001>",
		"300 1.000060 read(3</r/b>, \"\", 10) = 10 <0.000001>",
		NULL
	};

	assert_string_equal(rows_of(state, lines, false, NULL),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"a\" O_RDONLY 0 3\n"
		"1 0.000005 0.000001 thread 2\n"
		"1 0.000020 0.000001 close 3 0\n"
		"2 0.000020 0.000040 openat \"b\" O_RDONLY 0 3\n"
		"2 0.000060 0.000001 read 3 10 10\n");
}

static void test_close_on_exec_descriptors_close_at_exec(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"a\", O_RDONLY|O_CLOEXEC) = 3</r/a> <0.000001>",
		"100 1.000010 openat(AT_FDCWD</r>, \"b\", O_RDONLY) = 4</r/b> <0.000001>",
		"100 1.000020 fcntl(4</r/b>, F_SETFD, FD_CLOEXEC) = 0 <0.000001>",
		"100 1.000030 fcntl(4</r/b>, F_DUPFD_CLOEXEC, 10) = 10</r/b> <0.000001>",
		"100 1.000040 execve(\"/bin/true\", [\"true\"], 0x1 /* 3 vars */) = 0 <0.000100>",
		"100 1.000200 read(3, \"\", 10) = -1 EBADF (Bad file descriptor) <0.000001>",
		"100 1.000300 execve(\"/bin/true\", [\"true\"], 0x1 /* 3 vars */) = 0 <0.000100>",
		NULL
	};

	assert_string_equal(rows_of(state, lines, false, NULL),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"a\" O_RDONLY|O_CLOEXEC 0 3\n"
		"1 0.000010 0.000001 openat \"b\" O_RDONLY 0 4\n"
		"1 0.000020 0.000001 fcntl 4 F_SETFD FD_CLOEXEC 0\n"
		"1 0.000030 0.000001 fcntl 4 F_DUPFD_CLOEXEC 10 10\n"
		"1 0.000040 0.000100 exec 0\n");
}

static void test_identity_comes_from_the_opening_call_not_the_y_name(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"d\", O_RDONLY|O_DIRECTORY) = 3</r/d> <0.000001>",
		"100 1.000010 rename(\"d\", \"e\") = 0 <0.000001>",
		"100 1.000020 newfstatat(3</r/e>, \"\", {st_mode=S_IFDIR|0755}, AT_EMPTY_PATH) = 0 <0.000001>",
		"100 1.000030 openat(3</r/e>, \"x\", O_RDONLY) = -1 ENOENT (No such file) <0.000001>",
		"100 1.000040 utimensat(3</r/e (deleted)>, NULL, NULL, 0) = 0 <0.000001>",
		NULL
	};

	/* the directory was opened as "d": paths under 3 stay there */
	assert_string_equal(rows_of(state, lines, false, NULL),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"d\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0.000010 0.000001 rename \"d\" \"e\" 0\n"
		"1 0.000020 0.000001 fstat 3 0\n"
		"1 0.000030 0.000001 openat \"d/x\" O_RDONLY 0 ENOENT\n"
		"1 0.000040 0.000001 futimens 3 0\n");
}

static void test_descriptors_outside_the_roots_have_no_row(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"out\", O_WRONLY|O_CREAT, 0644) = 3</r/out> <0.000001>",
		"100 1.000010 dup2(3</r/out>, 1</dev/pts/0>) = 1</r/out> <0.000001>",
		"100 1.000020 write(1</r/out>, \"x\", 1) = 1 <0.000001>",
		"100 1.000030 openat(AT_FDCWD</r>, \"/etc/passwd\", O_RDONLY) = 4</etc/passwd> <0.000001>",
		"100 1.000040 dup2(4</etc/passwd>, 1</r/out>) = 1</etc/passwd> <0.000001>",
		"100 1.000050 write(1</etc/passwd>, \"x\", 1) = 1 <0.000001>",
		"100 1.000060 read(0</dev/pts/0>, \"x\", 1) = 1 <0.000001>",
		"100 1.000070 fcntl(3</r/out>, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=0}) = 0 <0.000001>",
		"100 1.000080 mmap(NULL, 4096, PROT_READ, MAP_SHARED, 3</r/out>, 0) = 0x7f00 <0.000001>",
		NULL
	};
	struct recording *rec;

	assert_string_equal(rows_of(state, lines, false, &rec),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"out\" O_WRONLY|O_CREAT 0644 3\n"
		"1 0.000010 0.000001 dup2 3 1 1\n"
		"1 0.000020 0.000001 write 1 1 1\n"
		"1 0.000070 0.000001 fcntl 3 F_SETLKW F_WRLCK SEEK_SET 0 0 0\n");
	assert_int_equal(tally_get(&rec->outside, "/etc"), 1);
	assert_true(rec->fd_outside == 2);	/* the dup2 from /etc, the write */
	assert_true(rec->fd_unseen == 1);	/* the read of fd 0, inherited */
	assert_true(rec->mmaps == 1);
}

/* A read or write of more than a row moves (16 MiB) is several rows, at
 * the offsets that follow; a failed one keeps one row of 16 MiB. */
static void test_a_move_of_more_than_16_mib_is_several_rows(void **state)
{
	const char *lines[] = {
		"100 1.000000 openat(AT_FDCWD</r>, \"out\", O_WRONLY|O_CREAT, 0644) = 3</r/out> <0.000001>",
		"100 1.000010 pwrite64(3</r/out>, \"\"..., 40000000, 100) = 40000000 <0.000003>",
		"100 1.000020 write(3</r/out>, \"\"..., 20000000) = -1 ENOSPC (No space left on device) <0.000001>",
		NULL
	};
	struct recording *rec;

	assert_string_equal(rows_of(state, lines, false, &rec),
		"syscalls 1\n"
		"1 0.000000 0.000001 openat \"out\" O_WRONLY|O_CREAT 0644 3\n"
		"1 0.000010 0.000001 pwrite64 3 16777216 100 16777216\n"
		"1 0.000010 0.000001 pwrite64 3 16777216 16777316 16777216\n"
		"1 0.000010 0.000001 pwrite64 3 6445568 33554532 6445568\n"
		"1 0.000020 0.000001 write 3 16777216 ENOSPC\n");
	assert_true(rec->split_calls == 1);	/* the failed write is capped, not split */
}

static void test_threads_that_touch_nothing_are_left_out_and_streams_numbered_in_order(void **state)
{
	const char *lines[] = {
		"100 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 200 <0.000001>",
		"200 1.000010 openat(AT_FDCWD</r>, \"/usr/x\", O_RDONLY) = 3</usr/x> <0.000001>",
		"100 1.000020 clone(child_stack=NULL, flags=SIGCHLD) = 300 <0.000001>",
		"300 1.000030 clone(child_stack=NULL, flags=CLONE_VM|CLONE_FILES|CLONE_THREAD) = 400 <0.000001>",
		"400 1.000040 mkdir(\"m\", 0700) = 0 <0.000001>",
		NULL
	};

	assert_string_equal(rows_of(state, lines, false, NULL),
		"syscalls 1\n"
		"1 0.000020 0.000001 fork 2\n"
		"2 0.000030 0.000001 thread 3\n"
		"3 0.000040 0.000001 mkdir \"m\" 0700 0\n");
}

/* ---- the initial state of a trace made elsewhere ---- */

static void test_what_existed_before_is_inferred_with_sizes_and_types(void **state)
{
	const char *lines[] = {
		"100 1.000000 newfstatat(AT_FDCWD</r>, \"s/a\", {st_mode=S_IFREG|0600, st_size=5000, ...}, 0) = 0 <0.000001>",
		"100 1.000010 openat(AT_FDCWD</r>, \"s/b\", O_RDONLY) = 3</r/s/b> <0.000001>",
		"100 1.000020 read(3</r/s/b>, \"...\", 4096) = 4096 <0.000001>",
		"100 1.000030 read(3</r/s/b>, \"...\", 4096) = 100 <0.000001>",
		"100 1.000040 openat(AT_FDCWD</r>, \"new\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4</r/new> <0.000001>",
		"100 1.000050 stat(\"gone\", 0x1) = -1 ENOENT (No such file or directory) <0.000001>",
		"100 1.000060 mkdir(\"t\", 0755) = -1 EEXIST (File exists) <0.000001>",
		"100 1.000070 getdents64(3</r/s/b>, 0x1 /* 3 entries */, 32768) = 72 <0.000001>",
		NULL
	};
	char *text = rows_of(state, lines, true, NULL);

	assert_non_null(strstr(text,
		"syscalls 1\n"
		"init dir \"s\" 0755\n"
		"init file \"s/a\" 5000 0600\n"
		"init file \"s/b\" 4196 0644\n"
		"init dir \"t\" 0755\n"));
	/* a listing the trace never named in full is any outcome */
	assert_non_null(strstr(text, " getdents64 3 32768 *\n"));
}

/* Names made, moved and removed by the trace: a directory it made and
 * what lies in it, a file it created, the names renames and links gave,
 * are no initial state; a name first seen under the name a rename gave
 * it is placed under the name it had before. */
static void test_what_the_trace_made_or_moved_is_placed_where_it_was(void **state)
{
	const char *lines[] = {
		/* made: a directory and a file in it, a file created, a link's new name */
		"100 1.000000 mkdir(\"d\", 0777) = 0 <0.000001>",
		"100 1.000010 openat(AT_FDCWD</r>, \"d/f1\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</r/d/f1> <0.000001>",
		"100 1.000020 close(3</r/d/f1>) = 0 <0.000001>",
		"100 1.000030 rename(\"d/f1\", \"d/g1\") = 0 <0.000001>",
		"100 1.000040 newfstatat(AT_FDCWD</r>, \"d/g1\", {st_mode=S_IFREG|0644, st_size=2, ...}, 0) = 0 <0.000001>",
		"100 1.000050 openat(AT_FDCWD</r>, \"c\", O_WRONLY|O_CREAT, 0666) = 3</r/c> <0.000001>",
		"100 1.000060 close(3</r/c>) = 0 <0.000001>",
		"100 1.000070 link(\"c\", \"c2\") = 0 <0.000001>",
		"100 1.000080 stat(\"c2\", {st_mode=S_IFREG|0644, st_size=0, ...}) = 0 <0.000001>",
		/* moved: a directory renamed, then a file first seen beneath its new name */
		"100 1.000090 rename(\"old\", \"new\") = 0 <0.000001>",
		"100 1.000100 openat(AT_FDCWD</r>, \"new/x\", O_RDONLY) = 3</r/new/x> <0.000001>",
		"100 1.000110 rename(\"new/x\", \"new/y\") = 0 <0.000001>",
		"100 1.000120 read(3</r/new/y>, \"...\", 4096) = 300 <0.000001>",
		"100 1.000130 close(3</r/new/y>) = 0 <0.000001>",
		/* linked and removed: each name there before */
		"100 1.000140 link(\"a\", \"b\") = 0 <0.000001>",
		"100 1.000150 unlink(\"u\") = 0 <0.000001>",
		"100 1.000160 openat(AT_FDCWD</r>, \"u\", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3</r/u> <0.000001>",
		"100 1.000170 close(3</r/u>) = 0 <0.000001>",
		/* created without O_EXCL, and found holding bytes before any write */
		"100 1.000180 openat(AT_FDCWD</r>, \"log\", O_RDWR|O_CREAT, 0644) = 3</r/log> <0.000001>",
		"100 1.000190 read(3</r/log>, \"...\", 4096) = 7 <0.000001>",
		"100 1.000200 close(3</r/log>) = 0 <0.000001>",
		NULL
	};
	char *text = rows_of(state, lines, true, NULL);

	assert_string_equal(init_lines(fixture_ctx(state), text),
			    "syscalls 1\n"
			    "init file \"a\" 0 0644\n"
			    "init file \"log\" 7 0644\n"
			    "init dir \"old\" 0755\n"
			    "init file \"old/x\" 300 0644\n"
			    "init file \"u\" 0 0644\n");
}

/* The state the compiler takes: nothing beneath a file or beneath a
 * directory left out, whatever the calls claimed. */
static void test_an_inferred_state_always_compiles(void **state)
{
	const char *lines[] = {
		"100 1.000000 stat(\"f\", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0 <0.000001>",
		"100 1.000010 stat(\"f/g\", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0 <0.000001>",
		"100 1.000020 stat(\"gone\", 0x1) = -1 ENOENT (No such file or directory) <0.000001>",
		"100 1.000030 stat(\"gone/x\", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0 <0.000001>",
		NULL
	};
	struct recording *rec;
	char *text = rows_of(state, lines, true, &rec);
	char *err = NULL;

	assert_non_null(loadfile_compile(fixture_ctx(state), "t.load", text, strlen(text), &err));
	assert_non_null(strstr(text, "init file \"f\" 1 0644\n"));
	assert_null(strstr(text, "\"f/g\" 1"));
	assert_null(strstr(text, "init file \"gone/x\""));
}

/* ---- fio's logs ---- */

static void test_a_fio_log_becomes_preads_and_pwrites_on_files_of_its_size(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	const char *dir = fixture_scratch_dir(state, "fio");
	char *log = talloc_asprintf(ctx, "%s/v2.log", dir);
	FILE *f = fopen(log, "w");
	fputs("fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb write 8192 4096\n"
	      "/dev/sdb wait 5\n/dev/sdb read 0 512\n/dev/sdb trim 0 4096\n/dev/sdb sync 0 0\n"
	      "/dev/sdb close\n", f);
	fclose(f);
	struct recording *rec = recording_new(ctx);
	static const char *roots[] = { "/r" };
	rec->roots = roots;
	rec->nroots = 1;
	rec->base = "/r";
	char *err = NULL;
	assert_int_equal(fio_iolog_read(ctx, rec, log, &err), 0);
	assert_int_equal(rec->ninit, 2);
	assert_string_equal(rec->init[0].path, "dev");
	assert_string_equal(rec->init[1].path, "dev/sdb");
	assert_true(rec->init[1].size == 12288);
	assert_int_equal(rec->nrows, 6);
	assert_string_equal(rec->rows[1].call, "pwrite64");
	assert_string_equal(rec->rows[1].args, " 3 4096 8192");
	assert_string_equal(rec->rows[2].call, "pread64");
	assert_true(rec->rows[2].start_us == 5000);
	assert_string_equal(rec->rows[3].args, " 3 FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE 0 4096");

	char *bad = talloc_asprintf(ctx, "%s/v3.log", dir);
	f = fopen(bad, "w");
	fputs("fio version 3 iolog\n10 data add\n20 data read 0 4096\n", f);
	fclose(f);
	rec = recording_new(ctx);
	rec->roots = roots;
	rec->nroots = 1;
	rec->base = "/r";
	assert_int_equal(fio_iolog_read(ctx, rec, bad, &err), -1);
	assert_non_null(strstr(err, "v3.log:3: read: 'data' is not open"));
}

/* ---- the writer ---- */

static void test_a_line_beyond_the_loadfile_limit_is_refused_naming_it(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct recording *rec = recording_new(ctx);
	static const char *roots[] = { "/r" };
	rec->roots = roots;
	rec->nroots = 1;
	rec->base = "/r";
	struct row *r = recording_add(rec);
	r->tid = 1;
	r->call = "stat";
	r->args = talloc_asprintf(ctx, " \"%0*d\"", LOADFILE_MAX_LINE, 7);
	char *path = talloc_asprintf(ctx, "%s/long.load", fixture_scratch_dir(state, "long"));
	char *err = NULL;
	assert_int_equal(loadwriter_write(ctx, rec, path, &err), LOADWRITER_LIMIT);
	assert_non_null(strstr(err, "LOADFILE_MAX_LINE"));
	FILE *f = fopen(path, "r");
	assert_null(f);	/* nothing half written */
	assert_string_equal(loadwriter_base64(ctx, (const unsigned char *)"any carnal pleas", 16),
			    "YW55IGNhcm5hbCBwbGVhcw==");
}

/* What the compiler would refuse is the recorder's bug: said as one,
 * naming the line, the row and the trace's line it came from, and
 * nothing written. */
static void test_a_row_the_compiler_refuses_is_never_written(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct recording *rec = recording_new(ctx);
	static const char *roots[] = { "/r" };
	static const char *sources[] = { "/t/trace.41" };
	rec->roots = roots;
	rec->nroots = 1;
	rec->base = "/r";
	rec->sources = sources;
	rec->nsources = 1;
	struct row *r = recording_add(rec);
	r->tid = 1;
	r->call = "stat";
	r->args = talloc_strdup(ctx, " \"a\"");
	r = recording_add(rec);
	r->tid = 1;
	r->call = "rmdir";
	r->args = talloc_strdup(ctx, " \"\"");
	r->src = 1;
	r->src_line = 7;
	char *path = talloc_asprintf(ctx, "%s/bug.load", fixture_scratch_dir(state, "bug"));
	char *err = NULL;

	assert_int_equal(loadwriter_write(ctx, rec, path, &err), LOADWRITER_REFUSED);
	char *want = talloc_asprintf(ctx, "a bug of the recorder: the loadfile it made is refused by "
				     "dbench's compiler, and nothing was written: %s:6: rmdir may not "
				     "name the root itself: a replay never removes or replaces the "
				     "client's directory; the line: '1 0.000000 0.000000 rmdir \"\" 0', "
				     "made from /t/trace.41:7 (please report it, with the trace)", path);
	assert_string_equal(err, want);
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_whole_line_gives_time_name_arguments_result_and_duration, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_each_kind_of_time_strace_prints, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_failure_gives_its_errno_name, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_commas_inside_strings_structures_and_annotations_split_nothing, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_halves_of_an_interrupted_call_join_into_one, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_signals_exits_and_calls_that_never_returned, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_time_or_duration_past_what_fits_is_refused, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_strings_decode_hex_octal_and_escapes, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_paths_are_made_plain_lexically, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_path_beneath_a_root_is_taken_from_the_base, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_paths_resolve_against_directory_descriptors_and_the_working_directory, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_calls_printed_raw_make_the_rows_of_their_decoded_lines, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_working_directory_outside_the_roots_leaves_relative_paths_outside, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_fork_copies_the_table_and_a_thread_shares_it, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_an_open_that_got_the_number_another_thread_closed_comes_after_the_close, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_close_on_exec_descriptors_close_at_exec, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_identity_comes_from_the_opening_call_not_the_y_name, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_descriptors_outside_the_roots_have_no_row, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_move_of_more_than_16_mib_is_several_rows, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_threads_that_touch_nothing_are_left_out_and_streams_numbered_in_order, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_what_existed_before_is_inferred_with_sizes_and_types, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_what_the_trace_made_or_moved_is_placed_where_it_was, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_an_inferred_state_always_compiles, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_fio_log_becomes_preads_and_pwrites_on_files_of_its_size, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_line_beyond_the_loadfile_limit_is_refused_naming_it, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_a_row_the_compiler_refuses_is_never_written, fixture_setup, fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
