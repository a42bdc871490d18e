/*
 * test_bpf_calls.c - the bpf tracer's user side without a kernel: its
 * table covers every call the translator asks for, each call is printed
 * as strace prints it (flags by name, strings quoted, errno by name,
 * locks and clone flags as the translator reads them), and the events
 * of interleaved threads come out as whole calls in start order (an
 * entry with no exit as a call with no result; a string read again at
 * the exit replacing the one the entry could not read; a call sent whole
 * at its exit in its place by its start).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "record/bpf_calls.h"
#include "record/bpf_events.h"

static void test_every_call_of_the_translator_is_in_the_table(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	struct rec_want v[REC_NR_MAX];
	char *err = NULL;

	int n = bpf_calls_wanted(ctx, v, REC_NR_MAX, &err);
	if (n < 0)
		fail_msg("%s", err);
	assert_true(n > 80);
	assert_true(v[SYS_openat].on);
	assert_int_equal(v[SYS_openat].strs, 2);	/* the path, argument 1 */
	assert_int_equal(v[SYS_renameat2].strs, 2 | 8);
	assert_int_equal(v[SYS_openat2].kind, RK_HOW);
	assert_int_equal(v[SYS_writev].kind, RK_IOV);
	assert_int_equal(v[SYS_copy_file_range].loff, 2 | 8);
	assert_false(v[SYS_ioctl].on);	/* left out, as strace's set leaves it */
	talloc_free(ctx);
}

/* A call of nr with args, its strings, result and times. */
static struct bpf_call call(long nr, const uint64_t *args, const char *s0, const char *s1, int64_t ret)
{
	struct bpf_call b = { .e = { .ts = 5000000, .tid = 42, .tgid = 42, .nr = (int)nr, .type = EV_ENTER },
			      .end_ns = 5003000, .ret = ret };

	memcpy(b.e.args, args, sizeof(b.e.args));
	b.str[0] = s0;
	b.str[1] = s1;
	b.e.len[0] = s0 ? (uint16_t)(strlen(s0) + 1) : 0;
	b.e.len[1] = s1 ? (uint16_t)(strlen(s1) + 1) : 0;
	return b;
}

static void test_openat_as_strace_prints_it(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	uint64_t a[6] = { (uint64_t)AT_FDCWD, 0x1000, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644 };
	struct bpf_call b = call(SYS_openat, a, "d\"ir/f\n", NULL, 3);
	struct sc_call c;

	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.name, "openat");
	assert_int_equal(c.tid, 42);
	assert_int_equal(c.start_us, 5000);
	assert_int_equal(c.dur_us, 3);
	assert_int_equal(c.nargs, 4);
	assert_string_equal(c.arg[0], "AT_FDCWD");
	assert_string_equal(c.arg[1], "\"d\\x22ir/f\\x0a\"");
	assert_string_equal(c.arg[2], "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC");
	assert_string_equal(c.arg[3], "0644");
	assert_true(c.has_result);
	assert_int_equal(c.ret, 3);
	/* no O_CREAT: no mode, as strace */
	a[2] = O_RDONLY;
	b = call(SYS_openat, a, "x", NULL, -2);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_int_equal(c.nargs, 3);
	assert_int_equal(c.ret, -1);
	assert_string_equal(c.err, "ENOENT");
	/* mknodat's mode with its file type, as strace prints it: the
	 * recorder learns a FIFO was made */
	uint64_t m[6] = { (uint64_t)AT_FDCWD, 0x1000, S_IFIFO | 0644, 0 };
	b = call(SYS_mknodat, m, "p", NULL, 0);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.arg[2], "S_IFIFO|0644");
	talloc_free(ctx);
}

/* The calls that make descriptors on no path, as strace prints them: a
 * pair read at the exit (the kernel side's extra[2]), close-on-exec by
 * the call's own name. */
static void test_pipe_socket_and_dup3_as_strace_prints_them(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	struct rec_want v[REC_NR_MAX];
	char *err = NULL;
	struct sc_call c;

	assert_true(bpf_calls_wanted(ctx, v, REC_NR_MAX, &err) > 0);
	assert_int_equal(v[SYS_pipe2].kind, RK_FDPAIR);
	assert_int_equal(v[SYS_pipe2].loff, 1);
	assert_int_equal(v[SYS_socketpair].loff, 8);
	int fds[2] = { 3, 4 };
	struct bpf_call b = call(SYS_pipe2, (uint64_t[6]){ 0x1000, O_CLOEXEC }, NULL, NULL, 0);
	memcpy(&b.e.extra[2], fds, sizeof(fds));
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.raw, "[3, 4], O_CLOEXEC");
	b = call(SYS_pipe2, (uint64_t[6]){ 0x1000, 0 }, NULL, NULL, -24);	/* EMFILE */
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.raw, "0x1000, 0");
	b = call(SYS_socketpair, (uint64_t[6]){ 1, 1 | SOCK_CLOEXEC, 0, 0x2000 }, NULL, NULL, 0);
	memcpy(&b.e.extra[2], fds, sizeof(fds));
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.raw, "1, SOCK_CLOEXEC|0x1, 0, [3, 4]");
	b = call(SYS_memfd_create, (uint64_t[6]){ 0x3000, 1 }, "m", NULL, 5);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.raw, "\"m\", MFD_CLOEXEC");
	b = call(SYS_dup3, (uint64_t[6]){ 3, 7, O_CLOEXEC }, NULL, NULL, 7);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.raw, "3, 7, O_CLOEXEC");
	talloc_free(ctx);
}

static void test_cut_and_unreadable_strings(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	uint64_t a[6] = { 0x1000, 0 };
	struct bpf_call b = call(SYS_unlinkat, (uint64_t[6]){ (uint64_t)AT_FDCWD, 0x1000, 0x200 },
				 "long", NULL, 0);
	struct sc_call c;

	b.e.flags = EVF_CUT0;
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.arg[1], "\"long\"...");
	assert_string_equal(c.arg[2], "AT_REMOVEDIR");
	b = call(SYS_chdir, a, NULL, NULL, 0);
	b.e.flags = EVF_BAD0;
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.arg[0], "0x1000");	/* an address: no path */
	talloc_free(ctx);
}

static void test_fcntl_lock_clone_and_no_result(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	struct bpf_call b = call(SYS_fcntl, (uint64_t[6]){ 3, F_SETLKW, 0x2000 }, NULL, NULL, 0);
	struct sc_call c;

	b.e.extra[0] = F_WRLCK | (SEEK_SET << 16);
	b.e.extra[1] = 10;
	b.e.extra[2] = 20;
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.arg[1], "F_SETLKW");
	assert_string_equal(c.arg[2], "{l_type=F_WRLCK, l_whence=SEEK_SET, l_start=10, l_len=20}");
	b = call(SYS_fcntl, (uint64_t[6]){ 3, F_SETFD, FD_CLOEXEC }, NULL, NULL, 0);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_string_equal(c.arg[2], "FD_CLOEXEC");
	b = call(SYS_clone, (uint64_t[6]){ 0x3d0f00 }, NULL, NULL, 77);
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_non_null(strstr(c.raw, "flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|"));
	assert_non_null(strstr(c.raw, "CLONE_THREAD"));
	b.end_ns = 0;	/* the thread ended inside the call */
	assert_int_equal(bpf_call_format(ctx, &b, &c), 0);
	assert_false(c.has_result);
	talloc_free(ctx);
}

/* An event as the kernel side sends it: header, then the strings. */
static void *event(TALLOC_CTX *ctx, uint16_t type, uint32_t tid, uint64_t ts, int nr, int64_t ret,
		   const char *s0, size_t *size)
{
	size_t n = s0 ? strlen(s0) + 1 : 0;
	struct rec_event *e = talloc_zero_size(ctx, sizeof(*e) + n);

	*e = (struct rec_event){ .ts = ts, .seq = ts, .tid = tid, .tgid = tid, .nr = nr, .type = type };
	if (type == EV_ENTER) {
		e->args[0] = (uint64_t)AT_FDCWD;
		e->args[1] = 0x1000;
	} else {
		e->args[0] = (uint64_t)ret;
	}
	e->len[0] = (uint16_t)n;
	if (n)
		memcpy(e + 1, s0, n);
	*size = sizeof(*e) + n;
	return e;
}

static void take(struct bpf_events *ev, uint16_t type, uint32_t tid, uint64_t ts, int nr, int64_t ret,
		 const char *s0, uint16_t flags)
{
	size_t size;
	char *err = NULL;
	struct rec_event *e = event(ev, type, tid, ts, nr, ret, s0, &size);

	e->flags = flags;
	if (bpf_events_take(ev, e, size, &err) != 0)
		fail_msg("%s", err);
	talloc_free(e);
}

static void test_threads_interleaved_come_out_in_start_order(void **state)
{
	(void)state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	char *err = NULL;
	struct bpf_events *ev = bpf_events_new(ctx, "/tmp", &err);
	struct sc_call c;

	assert_non_null(ev);
	/* thread 1 starts first and ends last; thread 2's entry was unreadable */
	take(ev, EV_ENTER, 1, 1000, SYS_mkdirat, 0, "a", 0);
	take(ev, EV_ENTER, 2, 2000, SYS_mkdirat, 0, NULL, EVF_BAD0);
	take(ev, EV_EXIT, 2, 3000, SYS_mkdirat, 0, "b", 0);	/* read again at the exit */
	take(ev, EV_ENTER, 3, 2500, SYS_mkdirat, 0, "c", 0);	/* never returns */
	take(ev, EV_EXIT, 1, 9000, SYS_mkdirat, -17, NULL, 0);
	take(ev, EV_EXIT, 4, 9500, SYS_mkdirat, 0, NULL, 0);	/* begun before the recording */
	size_t size;	/* a whole call sent at its exit: a read of 512 bytes */
	struct rec_event *whole = event(ctx, EV_CALL, 5, 2200, SYS_read, 0, NULL, &size);
	whole->args[0] = 7;
	whole->args[2] = 4096;
	whole->extra[0] = 512;
	whole->extra[1] = 6200;
	assert_int_equal(bpf_events_take(ev, whole, size, &err), 0);
	assert_int_equal(bpf_events_end(ev, &err), 0);
	assert_int_equal(bpf_events_unpaired(ev), 1);
	assert_int_equal(bpf_events_next(ev, ctx, &c, &err), 1);
	assert_int_equal(c.tid, 1);
	assert_string_equal(c.arg[1], "\"a\"");
	assert_string_equal(c.err, "EEXIST");
	assert_int_equal(c.dur_us, 8);
	assert_int_equal(bpf_events_next(ev, ctx, &c, &err), 1);
	assert_int_equal(c.tid, 2);
	assert_string_equal(c.arg[1], "\"b\"");
	assert_int_equal(bpf_events_next(ev, ctx, &c, &err), 1);
	assert_int_equal(c.tid, 5);
	assert_string_equal(c.name, "read");
	assert_string_equal(c.raw, "7, NULL, 4096");
	assert_int_equal(c.ret, 512);
	assert_int_equal(c.dur_us, 4);
	assert_int_equal(bpf_events_next(ev, ctx, &c, &err), 1);
	assert_int_equal(c.tid, 3);
	assert_false(c.has_result);
	assert_int_equal(bpf_events_next(ev, ctx, &c, &err), 0);
	talloc_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_call_of_the_translator_is_in_the_table),
		cmocka_unit_test(test_openat_as_strace_prints_it),
		cmocka_unit_test(test_pipe_socket_and_dup3_as_strace_prints_them),
		cmocka_unit_test(test_cut_and_unreadable_strings),
		cmocka_unit_test(test_fcntl_lock_clone_and_no_result),
		cmocka_unit_test(test_threads_interleaved_come_out_in_start_order),
	};
	return cmocka_run_group_tests_name("tests", tests, NULL, NULL);
}
