/*
 * test_syscalls.c - the compiler of the system-call dialect
 * (doc/SYSCALLS.md, src/load/syscalls.c): every call and how its
 * arguments are laid out, the initial state, descriptors across streams
 * (thread shares a table, fork copies it, exec closes the close-on-exec
 * ones), the waits between streams, and each malformed row's error.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>

#include <cmocka.h>

#include "fixture.h"
#include "loadfile.h"

#define NAME "rec.load"

static struct program *compiled(TALLOC_CTX *ctx, const char *body)
{
	char *text = talloc_asprintf(ctx, "syscalls 1\n%s", body);
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx, NAME, text, strlen(text), &err);

	if (!prog)
		fail_msg("compile failed: %s", err ? err : "(no message)");
	return prog;
}

/* The compile fails with exactly `want` (line numbers count the header). */
static void rejected(TALLOC_CTX *ctx, const char *body, const char *want)
{
	char *text = talloc_asprintf(ctx, "syscalls 1\n%s", body);
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx, NAME, text, strlen(text), &err);

	if (prog)
		fail_msg("compiled, wanted: %s\n  input: %s", want, body);
	assert_non_null(err);
	if (strcmp(err, want) != 0)
		fail_msg("got:  %s\nwant: %s", err, want);
}

static const struct call *call_of(const struct program *p, size_t i)
{
	return loadfile_call(p, loadfile_op(p, i));
}

/* Call i waits for exactly one call: the seq-th of stream index s. */
static void assert_one_wait(const struct program *p, size_t i, unsigned s, uint32_t seq)
{
	const struct call *c = call_of(p, i);
	assert_int_equal(c->ndeps, 1);
	assert_int_equal(p->deps[c->dep].stream, s);
	assert_int_equal(p->deps[c->dep].seq, seq);
}

static void test_the_example_of_the_spec_compiles(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"# command: cat\n"
		"init dir \"sub\" 0755\n"
		"init file \"in.txt\" 5000 0644\n"
		"init symlink \"latest\" \"in.txt\"\n"
		"1 0.000000 0.000004 openat \"in.txt\" O_RDONLY|O_CLOEXEC 0 3\n"
		"1 0.000012 0.000002 fstat 3 0\n"
		"1 0.000020 0.000009 read 3 131072 5000\n"
		"1 0.000031 0.000001 read 3 131072 0\n"
		"1 0.000035 0.000001 close 3 0\n"
		"1 0.000040 0.000006 fork 2\n"
		"2 0.000051 0.000005 openat \"out.txt\" O_WRONLY|O_CREAT|O_TRUNC 0644 3\n"
		"2 0.000060 0.000011 write 3 5000 5000\n"
		"2 0.000075 0.000002 close 3 0\n"
		"2 0.000080 0.000003 exec 0\n"
		"2 0.000090 0.000008 rename \"out.txt\" \"done.txt\" 0\n"
		"2 0.000101 0.000003 stat \"nothere\" ENOENT\n");

	assert_int_equal(p->nops, 12);
	assert_int_equal(p->nstreams, 2);
	assert_int_equal(p->streams[0].id, 1);
	assert_int_equal(p->streams[0].nops, 6);
	assert_int_equal(p->streams[1].id, 2);
	assert_int_equal(p->streams[1].nops, 6);
	assert_int_equal(p->ninit, 3);
	assert_int_equal(p->init_bytes, 5000);
	assert_int_equal(p->bytes_read, 5000);
	assert_int_equal(p->bytes_written, 5000);
	/* fork, exec are not counted */
	assert_int_equal(loadfile_ops_per_pass(p), 10);
	assert_int_equal(p->count[OP_SYS_OPENAT], 2);
	assert_int_equal(p->count[OP_SYS_FORK], 0);
	/* stream 2's first call waits for the fork, and nothing else waits */
	assert_int_equal(p->ndeps, 1);
	assert_int_equal(call_of(p, 6)->ndeps, 1);
	assert_int_equal(p->deps[call_of(p, 6)->dep].stream, 0);
	assert_int_equal(p->deps[call_of(p, 6)->dep].seq, 6);
	assert_int_equal(call_of(p, 11)->result, -ENOENT);
	assert_int_equal(loadfile_op(p, 11)->status, NT_UNSUCCESSFUL);
	assert_true(loadfile_op(p, 0)->flags & OPF_SYSCALL);
	assert_float_equal(p->duration, 0.000104, 1e-9);
	/* no entry is shared (the two "close 3 0"): calls[] stays parallel */
	assert_int_equal(p->ndistinct, p->nops);
	for (size_t i = 0; i < p->nops; i++)
		assert_ptr_equal(loadfile_op(p, i), &p->ops[i]);
	assert_int_equal(loadfile_line(p, 11) - loadfile_line(p, 0), 11);
}

/* One row of every call, as the table of doc/SYSCALLS.md gives it. */
static void test_every_call_decodes_its_arguments(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 open \"a\" O_RDWR|O_CREAT 0600 3\n"		/* 0 */
		"1 0 0 openat \"/d/./b\" O_RDONLY 0 4\n"
		"1 0 0 creat \"c\" 0644 5\n"
		"1 0 0 read 3 100 10\n"
		"1 0 0 pread64 3 100 7 100\n"
		"1 0 0 pread 3 100 7 *\n"				/* 5 */
		"1 0 0 readv 3 50 50\n"
		"1 0 0 preadv2 3 50 9 50\n"
		"1 0 0 write 3 20 20\n"
		"1 0 0 pwrite 3 20 30 20\n"
		"1 0 0 writev 3 20 20\n"				/* 10 */
		"1 0 0 pwritev 3 20 30 20\n"
		"1 0 0 lseek 3 -5 SEEK_END 95\n"
		"1 0 0 fsync 3 0\n"
		"1 0 0 fdatasync 3 0\n"
		"1 0 0 sync_file_range 3 0 4096 SYNC_FILE_RANGE_WRITE 0\n" /* 15 */
		"1 0 0 ftruncate 3 10 0\n"
		"1 0 0 truncate \"a\" 11 0\n"
		"1 0 0 fallocate 3 FALLOC_FL_KEEP_SIZE 0 8192 0\n"
		"1 0 0 stat \"a\" 0\n"
		"1 0 0 lstat \"a\" 0\n"					/* 20 */
		"1 0 0 fstat 3 0\n"
		"1 0 0 newfstatat \"a\" AT_SYMLINK_NOFOLLOW 0\n"
		"1 0 0 statx \"a\" 0 STATX_BASIC_STATS 0\n"
		"1 0 0 access \"a\" R_OK|W_OK 0\n"
		"1 0 0 faccessat2 \"a\" F_OK AT_EACCESS 0\n"		/* 25 */
		"1 0 0 getdents64 4 32768 48\n"
		"1 0 0 mkdir \"e\" 0755 0\n"
		"1 0 0 mkdirat \"e/f\" 0700 0\n"
		"1 0 0 rmdir \"e/f\" 0\n"
		"1 0 0 unlink \"c\" 0\n"				/* 30 */
		"1 0 0 unlinkat \"e\" AT_REMOVEDIR 0\n"
		"1 0 0 rename \"a\" \"a2\" 0\n"
		"1 0 0 renameat \"a2\" \"a3\" 0\n"
		"1 0 0 renameat2 \"a3\" \"a\" RENAME_NOREPLACE 0\n"
		"1 0 0 link \"a\" \"h\" 0\n"				/* 35 */
		"1 0 0 linkat \"a\" \"h2\" AT_SYMLINK_FOLLOW 0\n"
		"1 0 0 symlink \"/etc/passwd\" \"s\" 0\n"
		"1 0 0 symlinkat \"a\" \"s2\" 0\n"
		"1 0 0 readlink \"s\" 4096 11\n"
		"1 0 0 readlinkat \"s2\" 4096 1\n"			/* 40 */
		"1 0 0 chmod \"a\" 0640 0\n"
		"1 0 0 fchmodat \"a\" 0600 0\n"
		"1 0 0 fchmod 3 0600 0\n"
		"1 0 0 chown \"a\" -1 -1 0\n"
		"1 0 0 lchown \"s\" 1000 -1 EPERM\n"			/* 45 */
		"1 0 0 fchown 3 -1 100 0\n"
		"1 0 0 fchownat \"a\" -1 -1 AT_SYMLINK_NOFOLLOW 0\n"
		"1 0 0 utimensat \"a\" 0 0\n"
		"1 0 0 futimens 3 0\n"
		"1 0 0 getxattr \"a\" \"user.x\" 64 ENODATA\n"		/* 50 */
		"1 0 0 lgetxattr \"a\" \"user.x\" 64 ENODATA\n"
		"1 0 0 fgetxattr 3 \"user.x\" 0 ENODATA\n"
		"1 0 0 setxattr \"a\" \"user.x\" 5 XATTR_CREATE 0\n"
		"1 0 0 lsetxattr \"a\" \"user.y\" 5 0 0\n"
		"1 0 0 fsetxattr 3 \"user.z\" 5 XATTR_REPLACE ENODATA\n" /* 55 */
		"1 0 0 listxattr \"a\" 1024 14\n"
		"1 0 0 llistxattr \"a\" 1024 14\n"
		"1 0 0 flistxattr 3 1024 14\n"
		"1 0 0 removexattr \"a\" \"user.x\" 0\n"
		"1 0 0 lremovexattr \"a\" \"user.y\" 0\n"		/* 60 */
		"1 0 0 fremovexattr 3 \"user.z\" ENODATA\n"
		"1 0 0 statfs \"\" 0\n"
		"1 0 0 fstatfs 3 0\n"
		"1 0 0 copy_file_range 3 0 5 - 9223372035781033984 0 11\n"
		"1 0 0 sendfile 5 3 - 100 11\n"				/* 65 */
		"1 0 0 dup 3 6\n"
		"1 0 0 dup2 3 7 7\n"
		"1 0 0 dup3 3 8 O_CLOEXEC 8\n"
		"1 0 0 fcntl 3 F_DUPFD_CLOEXEC 10 10\n"
		"1 0 0 fcntl 3 F_GETFL 0 32770\n"			/* 70 */
		"1 0 0 chdir \"d\" 0\n"
		"1 0 0 fchdir 4 0\n"
		"1 0 0 thread 2\n"
		"1 0 0 exec 0\n"
		"2 0 0 fork 3\n"					/* 75 */
		"3 0 0 close 3 0\n"
		"3 0 0 flock 4 LOCK_EX|LOCK_NB 0\n"
		"3 0 0 fcntl 4 F_SETLKW F_WRLCK SEEK_SET -5 100 0\n"
		"3 0 0 syncfs 4 0\n");
	const struct op *o = p->ops;

	assert_int_equal(p->nops, 80);
	assert_int_equal(o[77].type, OP_SYS_FLOCK);
	assert_int_equal(o[77].a[0], LOCK_EX | LOCK_NB);
	assert_int_equal(o[78].a[0], F_SETLKW);
	assert_int_equal(o[78].a[1], F_WRLCK);
	assert_int_equal(o[78].a[2], SEEK_SET);
	assert_int_equal(call_of(p, 78)->x[0], -5);
	assert_int_equal(call_of(p, 78)->x[1], 100);
	for (size_t i = 0; i < p->nops; i++)
		assert_true(o[i].flags & OPF_SYSCALL);
	assert_int_equal(o[0].type, OP_SYS_OPEN);
	assert_string_equal(o[0].path, "a");
	assert_int_equal(o[0].a[0], O_RDWR | O_CREAT);
	assert_int_equal(o[0].a[1], 0600);
	assert_int_equal(o[0].fnum, -1);
	assert_string_equal(o[1].path, "d/b");	/* "/" and "." go */
	assert_string_equal(o[1].leaf, "b");
	assert_string_equal(p->dirs[o[1].dir], "d");
	assert_int_equal(o[2].type, OP_SYS_CREAT);	/* as open O_CREAT|O_WRONLY|O_TRUNC */
	assert_int_equal(o[2].a[0], O_CREAT | O_WRONLY | O_TRUNC);
	assert_int_equal(o[2].a[1], 0644);
	assert_int_equal(o[3].type, OP_SYS_READ);
	assert_int_equal(o[3].handle, o[0].handle);
	assert_int_equal(o[3].fnum, 3);
	assert_int_equal(o[3].a[0], -1);
	assert_int_equal(o[3].a[1], 10);	/* bytes counted: the result */
	assert_int_equal(o[3].a[2], 100);	/* LEN */
	assert_int_equal(o[4].type, OP_SYS_PREAD);
	assert_int_equal(o[4].a[0], 7);
	assert_int_equal(o[5].type, OP_SYS_PREAD);	/* the alias */
	assert_true(o[5].flags & OPF_ANY_STATUS);
	assert_int_equal(o[5].a[1], 100);	/* "*": LEN is counted */
	assert_int_equal(o[7].type, OP_SYS_PREADV);
	assert_int_equal(o[9].type, OP_SYS_PWRITE);
	assert_int_equal(o[9].a[0], 30);
	assert_int_equal(o[12].a[0], -5);
	assert_int_equal(o[12].a[1], SEEK_END);
	assert_int_equal(call_of(p, 12)->result, 95);
	assert_int_equal(o[15].a[2], SYNC_FILE_RANGE_WRITE);
	assert_int_equal(o[17].a[0], 11);
	assert_int_equal(o[18].a[0], 1);	/* FALLOC_FL_KEEP_SIZE */
	assert_int_equal(o[18].a[2], 8192);
	assert_int_equal(o[22].type, OP_SYS_NEWFSTATAT);
	assert_int_equal(o[23].a[1], 0x7ff);	/* STATX_BASIC_STATS */
	assert_int_equal(o[25].type, OP_SYS_FACCESSAT);
	assert_int_equal(o[26].type, OP_SYS_GETDENTS);
	assert_int_equal(o[26].a[0], 32768);
	assert_int_equal(call_of(p, 26)->result, 48);
	assert_int_equal(o[31].a[0], 0x200);	/* AT_REMOVEDIR */
	assert_string_equal(o[32].path, "a");
	assert_string_equal(o[32].path2, "a2");
	assert_int_equal(o[34].a[0], 1);	/* RENAME_NOREPLACE */
	assert_string_equal(o[37].path, "s");
	assert_string_equal(o[37].path2, "/etc/passwd");	/* as written */
	assert_int_equal(o[44].a[0], -1);
	assert_int_equal(o[45].a[0], 1000);
	assert_int_equal(call_of(p, 45)->result, -EPERM);
	assert_string_equal(o[50].path2, "user.x");
	assert_int_equal(o[50].a[0], 64);
	assert_int_equal(o[53].a[0], 5);
	assert_int_equal(o[53].a[1], 1);	/* XATTR_CREATE */
	assert_string_equal(o[62].path, "");	/* the root itself */
	assert_int_equal(o[64].handle, o[0].handle);
	assert_int_equal(call_of(p, 64)->handle2, o[2].handle);
	assert_int_equal(o[64].a[0], 0);
	assert_int_equal(call_of(p, 64)->x[0], -1);
	assert_int_equal(o[64].a[2], 9223372035781033984);
	assert_int_equal(o[64].a[1], 11);
	assert_int_equal(p->count[OP_SYS_COPY_FILE_RANGE], 1);
	assert_int_equal(o[65].handle, o[2].handle);	/* FD_OUT */
	assert_int_equal(call_of(p, 65)->handle2, o[0].handle);
	assert_int_equal(o[65].a[0], -1);
	assert_int_equal(o[65].a[2], 100);
	assert_int_not_equal(call_of(p, 66)->handle2, HANDLE_NONE);
	assert_int_not_equal(call_of(p, 66)->handle2, o[0].handle);
	assert_int_equal(o[69].a[0], F_DUPFD_CLOEXEC);
	assert_int_equal(o[70].a[0], F_GETFL);
	assert_int_equal(call_of(p, 70)->result, 32770);
	assert_int_equal(call_of(p, 70)->handle2, HANDLE_NONE);
	assert_int_equal(o[73].type, OP_SYS_THREAD);
	/* exec closes 8 (dup3 O_CLOEXEC) and 10 (F_DUPFD_CLOEXEC) */
	assert_int_equal(o[74].type, OP_SYS_EXEC);
	assert_int_equal(o[74].a[1], 2);
	assert_int_equal(p->nstreams, 3);
	/* every call type but the untimed three is counted once or more */
	for (int t = OP_SYS_FIRST; t <= OP_SYS_LAST; t++) {
		if (op_is_untimed(t))
			assert_int_equal(p->count[t], 0);
		else if (p->count[t] == 0)
			fail_msg("%s not counted", op_table[t].name);
	}
}

static void test_initial_state(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init dir \"/src\" 0755\n"
		"init dir \"src/lib\" 0700\n"
		"init file \"src/lib/a.c\" 12 0644\n"
		"init data \"src/lib/a.c\" 2 aGVsbG8=\n"
		"init symlink \"src/cur\" \"../x/\\\"q\\\"\"\n"
		"1 0 0 stat \"src/cur\" 0\n");

	assert_int_equal(p->ninit, 5);
	assert_int_equal(p->init_dirs, 2);
	assert_int_equal(p->init_files, 1);
	assert_int_equal(p->init_symlinks, 1);
	assert_int_equal(p->init_bytes, 12);
	assert_int_equal(p->init[0].kind, INIT_DIR);
	assert_string_equal(p->init[0].path, "src");
	assert_int_equal(p->init[1].mode, 0700);
	assert_int_equal(p->init[2].kind, INIT_FILE);
	assert_int_equal(p->init[2].size, 12);
	assert_int_equal(p->init[3].kind, INIT_DATA);
	assert_int_equal(p->init[3].size, 2);	/* the offset */
	assert_int_equal(p->init[3].len, 5);
	assert_memory_equal(p->init[3].data, "hello", 5);
	assert_int_equal(p->init[4].kind, INIT_SYMLINK);
	assert_string_equal(p->init[4].target, "../x/\"q\"");	/* as written */
}

/* thread shares the table: a descriptor opened by one stream is the
 * other's, on the same slot; a read of it in the other stream waits. */
static void test_thread_shares_the_descriptor_table(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.1 0 thread 2\n"
		"1 0.2 0 openat \"f\" O_RDONLY 0 3\n"
		"2 0.3 0 read 3 10 0\n"
		"2 0.4 0 close 3 0\n"
		"1 0.5 0 fstat 3 EBADF\n");

	assert_int_equal(loadfile_op(p, 2)->handle, loadfile_op(p, 1)->handle);
	/* read waits for the open (stream 1's 2nd call), and the thread row
	 * before it is implied */
	assert_one_wait(p, 2, 0, 2);
	/* fstat of a closed descriptor, EBADF recorded: no handle, waits for
	 * the close in stream 2 */
	assert_int_equal(loadfile_op(p, 4)->handle, HANDLE_NONE);
}

/* fork copies the table: the child's descriptor is its own slot, and
 * closing it leaves the parent's open. */
static void test_fork_copies_the_descriptor_table(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"f\" O_RDONLY 0 3\n"
		"1 0 0 fork 2\n"
		"2 0 0 close 3 0\n"
		"1 0 0 read 3 10 0\n"
		"2 0 0 read 3 10 EBADF\n");

	assert_int_equal(loadfile_op(p, 1)->a[1], 1);	/* one pair to copy */
	uint16_t from = p->slot_lists[loadfile_op(p, 1)->a[0]], to = p->slot_lists[loadfile_op(p, 1)->a[0] + 1];
	assert_int_equal(from, loadfile_op(p, 0)->handle);
	assert_int_not_equal(to, from);
	assert_int_equal(loadfile_op(p, 2)->handle, to);
	assert_int_equal(loadfile_op(p, 3)->handle, from);
	assert_int_equal(loadfile_op(p, 4)->handle, HANDLE_NONE);
	assert_int_equal(p->max_handles, 2);
	/* the parent's read does not wait for the child's close */
	assert_int_equal(call_of(p, 3)->ndeps, 0);
}

/* exec closes what was opened close-on-exec, and only that; F_SETFD
 * changes it. */
static void test_exec_closes_close_on_exec_descriptors(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"a\" O_RDONLY|O_CLOEXEC 0 3\n"
		"1 0 0 openat \"b\" O_RDONLY 0 4\n"
		"1 0 0 openat \"c\" O_RDONLY 0 5\n"
		"1 0 0 fcntl 5 F_SETFD FD_CLOEXEC 0\n"
		"1 0 0 exec 0\n"
		"1 0 0 read 4 1 0\n"
		"1 0 0 read 3 1 EBADF\n");

	rejected(ctx,
		"1 0 0 openat \"a\" O_RDONLY|O_CLOEXEC 0 3\n"
		"1 0 0 exec 0\n"
		"1 0 0 read 3 1 0\n",
		NAME ":4: descriptor 3 is not open in stream 1's table");
	assert_int_equal(loadfile_op(p, 4)->a[1], 2);
	const uint16_t *l = &p->slot_lists[loadfile_op(p, 4)->a[0]];
	assert_int_equal(l[0], loadfile_op(p, 0)->handle);
	assert_int_equal(l[1], loadfile_op(p, 2)->handle);
	assert_int_equal(loadfile_op(p, 5)->handle, loadfile_op(p, 1)->handle);
}

/* Across streams, a name's users keep their order; reads run freely. */
static void test_waits_follow_the_resources(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"
		"1 0 0 thread 3\n"
		"2 0 0 stat \"x\" ENOENT\n"			/* 2: reads x */
		"3 0 0 stat \"x\" ENOENT\n"			/* 3: reads x: no wait */
		"1 0 0 openat \"x\" O_WRONLY|O_CREAT 0644 3\n"	/* 4: waits for both */
		"2 0 0 stat \"y\" ENOENT\n"			/* 5: free */
		"3 0 0 rename \"x\" \"y\" 0\n"			/* 6: waits for 4 and 5 */
		"2 0 0 stat \"other\" ENOENT\n");		/* 7: free */

	assert_int_equal(call_of(p, 3)->ndeps, 1);	/* only its start */
	const struct call *c = call_of(p, 4);
	assert_int_equal(c->ndeps, 2);
	assert_int_equal(p->deps[c->dep].stream, 1);
	assert_int_equal(p->deps[c->dep].seq, 1);
	assert_int_equal(p->deps[c->dep + 1].stream, 2);
	assert_int_equal(p->deps[c->dep + 1].seq, 1);
	assert_int_equal(call_of(p, 5)->ndeps, 0);
	c = call_of(p, 6);
	assert_int_equal(c->ndeps, 2);
	for (unsigned i = 0; i < c->ndeps; i++) {
		const struct call_dep *d = &p->deps[c->dep + i];
		if (d->stream == 0)
			assert_int_equal(d->seq, 3);	/* the open */
		else if (d->stream == 1)
			assert_int_equal(d->seq, 2);	/* the stat of y */
		else
			fail_msg("waits for stream %u", d->stream);
	}
	assert_int_equal(call_of(p, 7)->ndeps, 0);
	/* every wait names an earlier line */
	for (size_t i = 0; i < p->nops; i++) {
		const struct call *k = call_of(p, i);
		for (unsigned j = 0; j < k->ndeps; j++) {
			const struct call_dep *d = &p->deps[k->dep + j];
			const struct stream *s = &p->streams[d->stream];
			assert_true(s->ops[d->seq - 1] < i);
		}
	}
}

/* A call beneath a directory waits for another stream's mkdir, rename
 * or rmdir of any directory above it, and such a call waits for the
 * calls beneath it (found by test_generated: tests/generated/
 * ancestor-mkdir.case). */
static void test_waits_follow_the_directories_above(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"
		"1 0 0 mkdir \"a\" 0755 0\n"			/* 1 */
		"2 0 0 mkdir \"a/b\" 0755 0\n"			/* 2: waits for 1 */
		"2 0 0 openat \"a/b/f\" O_WRONLY|O_CREAT 0644 3\n"	/* 3 */
		"1 0 0 rename \"a\" \"z\" 0\n"			/* 4: waits for 3 */
		"2 0 0 stat \"z/b/f\" 0\n"			/* 5: waits for 4 */
		"2 0 0 stat \"q/r\" ENOENT\n");			/* 6: free */

	assert_one_wait(p, 2, 0, 2);
	assert_one_wait(p, 4, 1, 2);
	assert_one_wait(p, 5, 0, 3);
	assert_int_equal(call_of(p, 6)->ndeps, 0);
}

/* A fork copies every open descriptor of its table: a close of one by a
 * thread sharing that table waits for the fork (found by
 * test_generated: tests/generated/fork-copies.case). */
static void test_a_close_waits_for_a_fork_that_copies_it(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"
		"2 0 0 openat \"f\" O_WRONLY|O_CREAT 0644 3\n"	/* 1 */
		"2 0 0 fork 3\n"					/* 2 */
		"3 0 0 fsync 3 0\n"				/* 3: waits for the fork */
		"1 0 0 close 3 0\n");				/* 4: waits for it too */

	assert_one_wait(p, 4, 1, 2);
}

/* A call through a symbolic link keeps its order with the calls on what
 * the link points to, the link known from an init line or a symlink
 * row and followed through renames (found by test_generated:
 * tests/generated/symlink-target.case). */
static void test_a_call_through_a_link_waits_for_its_target(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init dir \"d\" 0755\n"
		"init symlink \"d/up\" \"../t\"\n"
		"1 0 0 thread 2\n"
		"1 0 0 symlink \"f0\" \"d/l1\" 0\n"		/* 1 */
		"1 0 0 rename \"d/l1\" \"d/f5\" 0\n"		/* 2 */
		"1 0 0 unlink \"d/f0\" ENOENT\n"			/* 3 */
		"2 0 0 truncate \"d/f5\" 10 ENOENT\n"		/* 4: waits for 3 */
		"1 0 0 mkdir \"t\" 0755 0\n"			/* 5 */
		"2 0 0 stat \"d/up/x\" ENOENT\n"			/* 6: waits for 5 */
		"2 0 0 link \"d/f5\" \"d/f6\" 0\n"		/* 7: a link to the link */
		"1 0 0 openat \"d/f6\" O_WRONLY|O_CREAT 0644 3\n"	/* 8: makes d/f0 */
		"2 0 0 openat \"d/f5\" O_WRONLY 0 4\n");		/* 9: waits for 8 */

	assert_one_wait(p, 4, 0, 4);
	assert_one_wait(p, 6, 0, 5);
	assert_one_wait(p, 9, 0, 6);
	/* a descriptor opened through a link is on its target */
	p = compiled(ctx,
		"1 0 0 fork 2\n"
		"1 0 0 symlink \"f6\" \"l7\" 0\n"
		"1 0 0 openat \"f6\" O_WRONLY|O_CREAT|O_TRUNC 0644 3\n"
		"1 0 0 openat \"l7\" O_RDONLY 0 4\n"
		"2 0 0 truncate \"f6\" 5427 0\n"			/* 4 */
		"1 0 0 pread64 4 249 812 249\n");			/* 5: waits for 4 */
	assert_one_wait(p, 5, 1, 1);
}

/* A directory renamed takes the names beneath it along: a file opened
 * beneath it is the file of the same name beneath the new one, and a
 * link moved with it points from there (found by test_generated:
 * tests/generated/dir-rename.case); an exchange swaps both trees. */
static void test_a_directory_renamed_takes_its_names_along(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 openat \"d/f\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 symlink \"f\" \"d/l\" 0\n"
		"1 0 0 rename \"d\" \"e\" 0\n"
		"2 0 0 pread64 3 10 0 0\n"				/* 5 */
		"1 0 0 openat \"e/f\" O_RDWR|O_TRUNC 0 4\n"	/* 6: waits for 5 */
		"2 0 0 truncate \"e/l\" 10 0\n");			/* 7: waits for 6 */

	assert_one_wait(p, 6, 1, 1);
	assert_one_wait(p, 7, 0, 6);
	p = compiled(ctx,
		"1 0 0 thread 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 mkdir \"e\" 0755 0\n"
		"1 0 0 openat \"d/f\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 openat \"e/g\" O_RDWR|O_CREAT 0644 4\n"
		"1 0 0 renameat2 \"d\" \"e\" RENAME_EXCHANGE 0\n"
		"2 0 0 pread64 3 10 0 0\n"				/* 6 */
		"2 0 0 pread64 4 10 0 0\n"				/* 7 */
		"1 0 0 truncate \"e/f\" 0 0\n"			/* 8: waits for 6 */
		"1 0 0 truncate \"d/g\" 0 0\n");			/* 9: waits for 7 */
	assert_one_wait(p, 8, 1, 1);
	assert_one_wait(p, 9, 1, 2);
}

/* A create through a link makes the name the link points to: a listing
 * of that name's directory keeps its order with it; a link hard-linked
 * elsewhere points from its new directory (found by test_generated:
 * tests/generated/create-through-link.case). */
static void test_a_create_through_a_link_changes_its_targets_listing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 fork 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 mkdir \"d/e\" 0755 0\n"
		"1 0 0 symlink \"../x\" \"d/l\" 0\n"
		"1 0 0 link \"d/l\" \"d/e/f\" 0\n"
		"1 0 0 openat \"d\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0 0 getdents64 3 32768 120\n"			/* 6 */
		"2 0 0 openat \"d/e/f\" O_WRONLY|O_CREAT 0644 3\n");	/* 7: waits for 6 */

	assert_one_wait(p, 7, 0, 7);
}

/* A rename of a name onto itself moves nothing: the link known there
 * stays (found by test_generated: tests/generated/rename-self.case). */
static void test_a_rename_onto_itself_moves_nothing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 symlink \"x\" \"l1\" 0\n"
		"1 0 0 rename \"l1\" \"l1\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 openat \"l1\" O_RDWR|O_CREAT 0644 3\n"	/* 3 */
		"1 0 0 openat \"x\" O_WRONLY 0 3\n");		/* 4: waits for 3 */
	assert_one_wait(p, 4, 1, 1);
}

/* A link made through a symbolic link with AT_SYMLINK_FOLLOW is a name
 * of the file the link points to, also once the link is gone: a
 * truncate by it and a read of that file keep their order
 * (tests/generated/link-follow.case). */
static void test_a_link_that_follows_names_the_links_target(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"f\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 symlink \"f\" \"l\" 0\n"
		"1 0 0 linkat \"l\" \"g\" AT_SYMLINK_FOLLOW 0\n"
		"1 0 0 unlink \"l\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 truncate \"g\" 0 0\n"		/* 5 */
		"1 0 0 pread64 3 4096 0 0\n");		/* 6: waits for 5 */
	assert_one_wait(p, 6, 1, 1);
}

/* rename(2) of a name onto another hard link of its file does nothing:
 * the link known at the old name stays (tests/generated/
 * rename-hard-links.case). */
static void test_a_rename_onto_another_link_of_its_file_moves_nothing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 symlink \"x\" \"l1\" 0\n"
		"1 0 0 link \"l1\" \"l2\" 0\n"
		"1 0 0 rename \"l1\" \"l2\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 openat \"l1\" O_RDWR|O_CREAT 0644 3\n"	/* 4 */
		"1 0 0 openat \"x\" O_WRONLY 0 3\n");		/* 5: waits for 4 */
	assert_one_wait(p, 5, 1, 1);
}

/* A name renamed away names nothing: what is made there later is
 * another file, and a rename of it onto the same name again moves it
 * (as an editor saves: a temporary renamed over the file, twice). */
static void test_a_name_made_again_is_another_file(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 symlink \"x\" \"t\" 0\n"
		"1 0 0 rename \"t\" \"f\" 0\n"
		"1 0 0 symlink \"y\" \"t\" 0\n"
		"1 0 0 rename \"t\" \"f\" 0\n"
		"1 0 0 symlink \"z\" \"t\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 openat \"f\" O_RDWR|O_CREAT 0644 3\n"	/* 6 */
		"1 0 0 openat \"y\" O_WRONLY 0 3\n");		/* 7: waits for 6 */
	assert_one_wait(p, 7, 1, 1);
}

/* A name made beneath a symbolic link to a directory is one of that
 * directory's: its listing keeps its order with the create
 * (tests/generated/create-beneath-link.case). */
static void test_a_create_beneath_a_link_changes_its_targets_listing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 fork 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 symlink \"d\" \"l\" 0\n"
		"1 0 0 openat \"d\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0 0 getdents64 3 32768 48\n"			/* 4 */
		"2 0 0 openat \"l/f\" O_WRONLY|O_CREAT 0644 3\n");	/* 5: waits for 4 */
	assert_one_wait(p, 5, 0, 5);
}

/* A file beneath a symbolic link to a directory, at any depth (l/sub/f,
 * l pointing to d), is the one beneath the directory: a truncate by the
 * one name and a read of the other keep their order
 * (tests/generated/beneath-link-deep.case). */
static void test_a_file_two_levels_beneath_a_link_is_its_targets(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 mkdir \"d/sub\" 0755 0\n"
		"1 0 0 openat \"d/sub/f\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 symlink \"d\" \"l\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 truncate \"l/sub/f\" 0 0\n"		/* 5 */
		"1 0 0 pread64 3 4096 0 0\n");		/* 6: waits for 5 */
	assert_one_wait(p, 6, 1, 1);
}

/* A name made two levels beneath a link to a directory changes the
 * listing of the directory beneath the target. */
static void test_a_create_two_levels_beneath_a_link_changes_its_listing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 fork 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 mkdir \"d/sub\" 0755 0\n"
		"1 0 0 symlink \"d\" \"l\" 0\n"
		"1 0 0 openat \"d/sub\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0 0 getdents64 3 32768 48\n"			/* 5 */
		"2 0 0 openat \"l/sub/f\" O_WRONLY|O_CREAT 0644 3\n");	/* 6: waits for 5 */
	assert_one_wait(p, 6, 0, 6);
}

/* linkat(AT_SYMLINK_FOLLOW) through a chain of links (l to m to f) names
 * the file at the chain's end (tests/generated/link-follow-chain.case). */
static void test_a_link_that_follows_a_chain_names_its_end(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"f\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 symlink \"f\" \"m\" 0\n"
		"1 0 0 symlink \"m\" \"l\" 0\n"
		"1 0 0 linkat \"l\" \"g\" AT_SYMLINK_FOLLOW 0\n"
		"1 0 0 unlink \"l\" 0\n"
		"1 0 0 unlink \"m\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 0 truncate \"g\" 0 0\n"		/* 7 */
		"1 0 0 pread64 3 4096 0 0\n");		/* 8: waits for 7 */
	assert_one_wait(p, 8, 1, 1);
}

/* A listing reads its directory's path: its rmdir by another stream
 * waits for it (found by test_generated: tests/generated/
 * list-rmdir.case; the kernel's getdents64 on a removed directory
 * fails with ENOENT). */
static void test_an_rmdir_waits_for_a_listing(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 fork 2\n"
		"1 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 openat \"d\" O_RDONLY|O_DIRECTORY 0 3\n"
		"1 0 0 getdents64 3 32768 48\n"			/* 3 */
		"2 0 0 rmdir \"d\" 0\n");				/* 4: waits for 3 */

	assert_one_wait(p, 4, 0, 4);
}

/* Two names of one file (a hard link, a rename) keep the order of the
 * calls on it (found by test_generated: tests/generated/
 * hard-link.case). */
static void test_calls_on_two_names_of_a_file_keep_their_order(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init file \"f1\" 100 0644\n"
		"1 0 0 fork 2\n"
		"2 0 0 openat \"f1\" O_RDONLY 0 3\n"
		"1 0 0 link \"f1\" \"f3\" 0\n"
		"1 0 0 openat \"f3\" O_WRONLY 0 3\n"
		"1 0 0 pwrite64 3 100 200 100\n"			/* 4 */
		"2 0 0 pread64 3 300 0 300\n"			/* 5: waits for 4 */
		"1 0 0 rename \"f3\" \"f4\" 0\n"
		"1 0 0 openat \"f4\" O_WRONLY 0 4\n"
		"1 0 0 ftruncate 4 0 0\n"				/* 8 */
		"2 0 0 pread64 3 300 0 0\n");			/* 9: waits for 8 */

	assert_one_wait(p, 5, 0, 4);
	assert_one_wait(p, 9, 0, 7);
}

/* Calls that move a descriptor's offset keep their order across the
 * streams that share its open file description: threads on one
 * descriptor, a dup, a fork's copy (found by test_generated:
 * tests/generated/shared-offset.case). */
static void test_offsets_shared_keep_their_order(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init file \"f\" 100 0644\n"
		"1 0 0 openat \"f\" O_RDONLY 0 3\n"
		"1 0 0 thread 2\n"
		"1 0 0 dup 3 4\n"
		"1 0 0 fork 3\n"
		"2 0 0 read 3 60 60\n"				/* 4 */
		"1 0 0 read 4 60 40\n"				/* 5: waits for 4 */
		"3 0 0 lseek 3 0 SEEK_CUR 100\n");		/* 6: waits for 5 */

	assert_one_wait(p, 5, 1, 1);
	const struct call *c = call_of(p, 6);	/* the read, besides stream 2's on "f" */
	bool found = false;
	for (unsigned i = 0; i < c->ndeps; i++)
		found |= p->deps[c->dep + i].stream == 0 && p->deps[c->dep + i].seq == 5;
	assert_true(found);
}

/* A slot one stream gave up and another takes is a resource of its own:
 * else the first's close could come after the second's open, on the
 * second's descriptor. */
static void test_a_slot_taken_again_waits_for_its_giver(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"
		"2 0 0 openat \"a\" O_RDONLY 0 3\n"
		"2 0 0 close 3 0\n"
		"1 0 0 openat \"b\" O_RDONLY 0 4\n");

	assert_int_equal(loadfile_op(p, 3)->handle, loadfile_op(p, 1)->handle);
	assert_one_wait(p, 3, 1, 2);
}

static void test_a_single_stream_has_no_waits(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"x\" O_WRONLY|O_CREAT 0644 3\n"
		"1 0 0 write 3 10 10\n"
		"1 0 0 rename \"x\" \"y\" 0\n"
		"1 0 0 close 3 0\n");

	assert_int_equal(p->ndeps, 0);
	assert_int_equal(p->nstreams, 1);
}

static void test_think_gaps_are_per_stream(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 1.0 0.5 thread 2\n"
		"2 1.75 0.25 stat \"a\" ENOENT\n"
		"1 2.0 0 stat \"b\" ENOENT\n"
		"2 3.0 0 stat \"c\" ENOENT\n");

	assert_float_equal(call_of(p, 0)->gap, 1.0, 1e-6);
	assert_float_equal(call_of(p, 1)->gap, 0.25, 1e-6);	/* from the thread row's end */
	assert_float_equal(call_of(p, 2)->gap, 0.5, 1e-6);
	assert_float_equal(call_of(p, 3)->gap, 1.0, 1e-6);
	assert_float_equal(p->duration, 3.0, 1e-9);
}

static void test_escapes_in_strings(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 stat \"a b\\\\c\\\"d\\ne\\tf\\xe9\" ENOENT\n");

	assert_string_equal(loadfile_op(p, 0)->path, "a b\\c\"d\ne\tf\xe9");
}

/* Each malformed row names the file, the line and what is wrong. */
static void test_malformed_rows_are_refused(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	static const struct {
		const char *body;
		const char *want;
	} cases[] = {
		{ "1 0 0 frobnicate 3 0\n", ":2: unknown call 'frobnicate'" },
		{ "1 0 0 Close 3 0\n", ":2: unknown call 'Close'" },
		{ "1 0 0 stat \"a\"\n", ":2: stat takes 1 argument and a RESULT, got 1 field" },
		{ "1 0 0 stat \"a\" 0 0\n", ":2: stat takes 1 argument and a RESULT, got 3 fields" },
		{ "1 0 0\n", ":2: a call is STREAM START DURATION CALL ARGUMENTS... RESULT" },
		{ "0 0 0 stat \"a\" 0\n", ":2: stream 0 is not a positive number" },
		{ "x 0 0 stat \"a\" 0\n", ":2: malformed number 'x'" },
		{ "1 -1 0 stat \"a\" 0\n", ":2: malformed START '-1' (decimal seconds, at least 0)" },
		{ "1 0 1e3 stat \"a\" 0\n", ":2: malformed DURATION '1e3' (decimal seconds, at least 0)" },
		{ "1 2 0 stat \"a\" 0\n1 1 0 stat \"a\" 0\n",
		  ":3: a call starting at 1.000000, before the line above (2.000000)" },
		{ "1 0 0 stat \"a\" 0\n2 0 0 stat \"a\" 0\n",
		  ":3: stream 2 was not started by a thread or fork row above" },
		{ "1 0 0 thread 1\n", ":2: stream 1 was started before" },
		{ "5 0 0 stat \"a\" 0\n",
		  ":2: stream 5 was not started by a thread or fork row above" },
		{ "1 0 0 thread *\n", ":2: thread's RESULT is the stream it made: a number, not *" },
		{ "1 0 0 fork ENOMEM\n", ":2: fork's RESULT is the stream it started, not an errno" },
		{ "1 0 0 stat a 0\n", ":2: a path is a quoted string, not 'a'" },
		{ "1 0 0 stat \"a/../b\" 0\n", ":2: path 'a/../b' has a '..' component" },
		{ "1 0 0 stat \"a\\x00\" 0\n", ":2: a string may not hold a NUL byte (\\x00)" },
		{ "1 0 0 stat \"a\\q\" 0\n", ":2: unknown escape '\\q' (\\\\ \\\" \\n \\t \\xHH)" },
		{ "1 0 0 stat \"a\\x4\" 0\n", ":2: malformed \\x escape (two hex digits)" },
		{ "1 0 0 stat \"a 0\n", ":2: unterminated quote" },
		{ "1 0 0 stat \"a\"b 0\n", ":2: no space after closing quote" },
		{ "1 0 0 stat a\"b 0\n", ":2: stray quote inside 'a\"'" },
		{ "1 0 0 stat \"a\" 5\n", ":2: stat returns 0 or an errno, not 5" },
		{ "1 0 0 stat \"a\" ENOTANERRNO\n", ":2: unknown errno 'ENOTANERRNO'" },
		{ "1 0 0 openat \"a\" O_BOGUS 0 3\n", ":2: unknown flag 'O_BOGUS' in 'O_BOGUS'" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 *\n",
		  ":2: openat's RESULT is the descriptor it made: a number or an errno, not *" },
		{ "1 0 0 read 3 10 10\n", ":2: descriptor 3 is not open in stream 1's table" },
		{ "1 0 0 read -3 10 10\n", ":2: negative number '-3' where none may be" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 3\n1 0 0 read 3 10 11\n",
		  ":3: read returns 11 bytes, more than its LEN 10" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 3\n1 0 0 read 3 33554432 20000000\n",
		  ":3: read moves more than 16 MiB in one call, the limit" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 3\n1 0 0 dup2 3 5 6\n",
		  ":3: dup2 returns its NEWFD 5, not 6" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 2000000\n",
		  ":2: descriptor 2000000 is not between 0 and 1048575" },
		{ "1 0 0 rmdir \"/\" 0\n",
		  ":2: rmdir may not name the root itself: a replay never removes or replaces the "
		  "client's directory" },
		{ "1 0 0 rmdir \"\" EBUSY\n",
		  ":2: rmdir may not name the root itself: a replay never removes or replaces the "
		  "client's directory" },
		{ "1 0 0 rename \"a\" \"\" 0\n",
		  ":2: rename may not name the root itself: a replay never removes or replaces the "
		  "client's directory" },
		{ "1 0 0 renameat2 \".\" \"b\" RENAME_NOREPLACE EINVAL\n",
		  ":2: renameat2 may not name the root itself: a replay never removes or replaces the "
		  "client's directory" },
		{ "1 0 0 mkdirat \"\" 0755 0\n",
		  ":2: mkdirat can only fail (EEXIST) on the root, the client's directory" },
		{ "1 0 0 getxattr \"a\" \"\" 10 0\n",
		  ":2: an xattr name is a quoted string (not empty), not ''" },
		{ "1 0 0 stat \"a\" 0\ninit dir \"d\" 0755\n",
		  ":3: an init line after the first call (the initial state comes first)" },
		{ "init pipe \"d\" 0755\n", ":2: init takes dir, file, symlink or data, not 'pipe'" },
		{ "init dir \"d\"\n", ":2: init dir takes 2 arguments, got 1" },
		{ "init dir \"\" 0755\n", ":2: init may not name the root itself" },
		{ "init dir \"d\" 0755\ninit dir \"d\" 0700\n", ":3: 'd' was made before (line 2)" },
		{ "init file \"d/f\" 1 0644\n",
		  ":2: the parent of 'd/f' is not made by an init dir line above" },
		{ "init dir \"d\" 010000\n", ":2: mode 10000 is not between 0 and 07777" },
		{ "init data \"f\" 0 aGk=\n", ":2: init data for 'f', which no init file made" },
		{ "init file \"f\" 1 0644\ninit data \"f\" 0 aGk=\n",
		  ":3: init data reaches byte 2, past the file's size 1" },
		{ "init file \"f\" 9 0644\ninit data \"f\" 0 aGk\n",
		  ":3: init data is not base64 of at most 3072 bytes" },
		{ "init file \"f\" 2000000000000 0644\n",
		  ":2: init file size 2000000000000 is above the 1 TiB limit" },
		{ "init symlink \"s\" t\n", ":2: a symlink's target is a quoted string" },
		{ "syscalls 1\n", ":2: a second 'syscalls' line" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 3\n1 0 0 fcntl 3 F_SETLK 0 0\n",
		  ":3: fcntl's lock command 6 takes TYPE WHENCE START LEN" },
		{ "1 0 0 openat \"a\" O_RDONLY 0 3\n1 0 0 fcntl 3 F_GETFL F_RDLCK 0 0 0 0\n",
		  ":3: fcntl with TYPE WHENCE START LEN takes a lock command, not 3" },
		{ "1 0 0 stat \"a\" 0 \x01\n", ":2: control byte 0x01 in line (not a text loadfile?)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		rejected(ctx, cases[i].body, talloc_asprintf(ctx, NAME "%s", cases[i].want));
}

/* What tar does to "." at the start and the end of an extraction, and
 * the other calls that may name the root: they compile. */
static void test_calls_on_the_root_compile(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.1 0 mkdirat \"\" 0700 EEXIST\n"
		"1 0.2 0 mkdir \"/\" 0755 *\n"
		"1 0.3 0 newfstatat \"\" AT_SYMLINK_NOFOLLOW 0\n"
		"1 0.4 0 openat \".\" O_RDONLY|O_DIRECTORY|O_CLOEXEC 0 3\n"
		"1 0.5 0 getdents64 3 32768 48\n"
		"1 0.6 0 fsync 3 0\n"
		"1 0.7 0 close 3 0\n"
		"1 0.8 0 utimensat \"\" AT_SYMLINK_NOFOLLOW 0\n"
		"1 0.9 0 fchownat \"\" 0 0 AT_SYMLINK_NOFOLLOW 0\n"
		"1 1.0 0 chmod \"\" 0755 0\n"
		"1 1.1 0 lsetxattr \"\" \"user.x\" 4 0 0\n"
		"1 1.2 0 getxattr \"\" \"user.x\" 64 4\n");

	assert_int_equal(p->nops, 12);
	assert_string_equal(loadfile_op(p, 0)->path, "");
	assert_int_equal(call_of(p, 0)->result, -EEXIST);
	assert_string_equal(loadfile_op(p, 3)->path, "");
	assert_int_equal(p->count[OP_SYS_GETDENTS], 1);
	assert_null(loadfile_root_refusal(OP_SYS_CHMOD, true, false, false));
	assert_null(loadfile_root_refusal(OP_SYS_MKDIRAT, true, false, true));
	assert_non_null(loadfile_root_refusal(OP_SYS_RENAME, false, true, true));
}

static void test_header_and_whole_file_errors(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	char *err = NULL;
	const char *v2 = "# recorded\nsyscalls 2\n";
	const char *bad = "syscalls one\n";
	const char *empty = "syscalls 1\ninit dir \"d\" 0755\n";

	assert_null(loadfile_compile(ctx, NAME, v2, strlen(v2), &err));
	assert_string_equal(err, NAME ":2: version 2 of the system-call dialect is not known "
				      "(this dbench reads 1)");
	assert_null(loadfile_compile(ctx, NAME, bad, strlen(bad), &err));
	assert_string_equal(err, NAME ":1: the first line is 'syscalls 1'");
	assert_null(loadfile_compile(ctx, NAME, empty, strlen(empty), &err));
	assert_string_equal(err, NAME ": no calls in the recording");
}

/* The other dialects never see the system calls' rows, nor they theirs. */
static void test_dialects_keep_their_names(void **state)
{
	(void)state;
	assert_int_equal(op_lookup("close", 5), OP_CLOSE);
	assert_int_equal(op_lookup("openat", 6), -1);
	assert_int_equal(op_lookup_syscall("close", 5), OP_SYS_CLOSE);
	assert_int_equal(op_lookup_syscall("Close", 5), -1);
	assert_int_equal(op_lookup_syscall("sendfile64", 10), OP_SYS_SENDFILE);
	assert_int_equal(op_lookup_syscall("getdents", 8), OP_SYS_GETDENTS);
}

/* An empty name is no operation's (found by gcc -fanalyzer: the lookup
 * compared it with the first operation without an alias, a NULL, and
 * matched; DBENCH_NULL_UNSUPPORTED=",LockX" reaches it). */
static void test_an_empty_name_is_no_operation(void **state)
{
	(void)state;
	assert_int_equal(op_lookup("", 0), -1);
	assert_int_equal(op_lookup("x", 0), -1);
	assert_int_equal(op_lookup_syscall("", 0), -1);
}

static void test_summary_tells_streams_and_initial_state(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init dir \"d\" 0755\n"
		"init file \"d/f\" 100 0644\n"
		"1 0 0.5 thread 2\n"
		"2 1 1 stat \"d/f\" 0\n");
	char *s = loadfile_summary(ctx, p);

	assert_non_null(strstr(s, "\nstat 1\n"));
	assert_non_null(strstr(s, "\nstreams 2\n"));
	assert_non_null(strstr(s, "\nrecorded_seconds 2.000000\n"));
	assert_non_null(strstr(s, "\ninit_dirs 1\ninit_files 1\ninit_symlinks 0\n"
				  "init_bytes 100\n"));
	assert_null(strstr(s, "thread"));
}

/* The number of calls of stream `stream` call pos waits for (0: none). */
static uint32_t waits_for(const struct program *p, size_t pos, uint16_t stream)
{
	const struct call *c = call_of(p, pos);

	for (uint32_t i = 0; i < c->ndeps; i++) {
		if (p->deps[c->dep + i].stream == stream)
			return p->deps[c->dep + i].seq;
	}
	return 0;
}

/* The recording of `flock lk sleep 0.5 & sleep 0.1; flock lk true`: the
 * holder lets go at its exit, which no row says; the waiter's blocking
 * flock waits for an exit the compiler adds at the end of the holder's
 * stream, timed when the waiter returned. */
static void test_a_blocking_lock_waits_for_its_holders_exit(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.00 0.001 fork 2\n"						/* 0 */
		"2 0.01 0.001 openat \"lk\" O_RDONLY|O_CREAT 0666 3\n"
		"2 0.02 0.001 flock 3 LOCK_EX 0\n"
		"1 0.10 0.001 fork 3\n"
		"3 0.11 0.001 openat \"lk\" O_RDONLY|O_CREAT 0666 3\n"
		"3 0.12 0.400 flock 3 LOCK_EX 0\n");				/* 5 */

	assert_int_equal(p->nops, 7);
	const struct op *exit = loadfile_op(p, 6);
	assert_int_equal(exit->type, OP_SYS_EXEC);
	assert_int_equal(exit->a[2], EXEC_EXIT);
	assert_int_equal(call_of(p, 6)->stream, 1);
	assert_int_equal(p->streams[1].nops, 3);
	assert_int_equal(p->streams[1].ops[2], 6);
	assert_int_equal(exit->a[1], 1);	/* it closes the holder's descriptor */
	assert_int_equal(p->slot_lists[exit->a[0]], loadfile_op(p, 1)->handle);
	assert_float_equal(exit->timestamp, 0.52, 1e-9);
	assert_int_equal(loadfile_line(p, 6), loadfile_line(p, 2));
	assert_int_equal(waits_for(p, 5, 1), 3);
	assert_true(loadfile_op(p, 5)->flags & OPF_LOCKWAIT);
	assert_int_equal(loadfile_ops_per_pass(p), 4);	/* the exit is not counted */
}

/* An unlock on a later line than the blocking call it frees: the holder's
 * unlock waits for nothing of the waiter's (a circle before), the
 * waiter's flock for the unlock; no exit is added. */
static void test_a_blocking_lock_waits_for_a_later_unlock(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.00 0.001 thread 2\n"					/* 0 */
		"1 0.01 0.001 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0.02 0.001 flock 3 LOCK_EX 0\n"
		"2 0.03 0.001 openat \"lk\" O_RDWR 0 4\n"
		"2 0.04 0.500 flock 4 LOCK_EX 0\n"
		"1 0.50 0.001 write 3 10 10\n"					/* 5 */
		"1 0.51 0.001 flock 3 LOCK_UN 0\n"
		"2 0.55 0.001 read 4 10 0\n");

	assert_int_equal(p->nops, 8);
	assert_int_equal(waits_for(p, 6, 1), 0);
	assert_int_equal(waits_for(p, 5, 1), 1);	/* the open, by the resources */
	assert_int_equal(waits_for(p, 4, 0), 5);	/* the unlock, its stream's 5th */
	assert_int_equal(waits_for(p, 7, 0), 4);	/* the write, by the resources */
}

/* Each kind ends as the kernel ends it: a POSIX lock at any close of a
 * descriptor of the file by its process, an OFD lock and a flock lock at
 * the last close of their description (a dup keeps it), any at an exec
 * that closes a close-on-exec descriptor of it. */
static void test_locks_end_as_the_kernel_ends_them(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 fork 2\n"						/* 0 */
		"1 0 0 openat \"posix\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 fcntl 3 F_SETLK F_WRLCK SEEK_SET 0 0 0\n"
		"1 0 0 openat \"ofd\" O_RDWR|O_CREAT 0644 4\n"
		"1 0 0 fcntl 4 F_OFD_SETLK F_WRLCK SEEK_SET 0 0 0\n"
		"1 0 0 dup 4 5\n"						/* 5 */
		"1 0 0 openat \"fl\" O_RDWR|O_CREAT|O_CLOEXEC 0644 6\n"
		"1 0 0 flock 6 LOCK_SH 0\n"
		"2 0 1 openat \"posix\" O_RDWR 0 7\n"
		"2 0 1 fcntl 7 F_SETLKW F_RDLCK SEEK_SET 0 10 0\n"
		"2 0 1 openat \"ofd\" O_RDWR 0 8\n"				/* 10 */
		"2 0 1 fcntl 8 F_OFD_SETLKW F_RDLCK SEEK_SET 5 1 0\n"
		"2 0 1 openat \"fl\" O_RDWR 0 9\n"
		"2 0 1 flock 9 LOCK_EX 0\n"
		"1 0 0 openat \"posix\" O_RDONLY 0 10\n"
		"1 0 0 close 10 0\n"						/* 15 */
		"1 0 0 close 4 0\n"
		"1 0 0 close 5 0\n"
		"1 0 0 exec 0\n");

	/* the POSIX lock ends at the close of another descriptor of the file */
	assert_int_equal(waits_for(p, 9, 0), 10);
	/* the OFD lock at the close of the dup, its description's last */
	assert_int_equal(waits_for(p, 11, 0), 12);
	/* the flock lock at the exec that closes its close-on-exec descriptor */
	assert_int_equal(waits_for(p, 13, 0), 13);
	assert_int_equal(p->nops, 19);	/* no exit: nothing waits at the end */
}

/* A lock a forked child inherits (the description it shares) is its own
 * too: its blocking lock on a description of its own would wait for its
 * own end, and the file is refused. */
static void test_a_lock_held_through_an_inherited_descriptor(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);

	rejected(ctx,
		"1 0 0 openat \"fl\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 flock 3 LOCK_EX 0\n"
		"1 0 0 fork 2\n"
		"1 0 0 close 3 0\n"
		"2 0 1 openat \"fl\" O_RDWR 0 4\n"
		"2 0 1 flock 4 LOCK_EX 0\n",					/* line 7 */
		NAME ":7: flock waits for the release of its lock at the end of stream 2 (after "
		NAME ":7), which waits for it in turn: the replay would deadlock");
}

/* Two threads of one process: each open makes a description of its own,
 * so their flock locks conflict; POSIX locks are the process's, and never
 * do. */
static void test_threads_of_a_process_contend_for_flock_not_posix_locks(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"						/* 0 */
		"1 0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 flock 3 LOCK_EX 0\n"
		"1 0 0 fcntl 3 F_SETLK F_WRLCK SEEK_SET 0 0 0\n"
		"2 0 1 openat \"lk\" O_RDWR 0 4\n"
		"2 0 1 fcntl 4 F_SETLKW F_WRLCK SEEK_SET 0 0 0\n"		/* 5 */
		"2 0 1 flock 4 LOCK_EX 0\n"
		"1 0 0 flock 3 LOCK_UN 0\n");

	/* after the first's POSIX lock, as recorded; not after its unlock */
	assert_int_equal(waits_for(p, 5, 0), 4);
	assert_int_equal(p->nops, 8);	/* no exit */
	assert_int_equal(waits_for(p, 6, 0), 5);	/* the unlock */
}

/* Byte ranges that do not overlap, and shared locks, wait for nothing;
 * a write lock waits for the read locks over its range. */
static void test_ranges_and_shared_locks_do_not_wait(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"db\" O_RDWR|O_CREAT 0644 3\n"			/* 0 */
		"1 0 0 fcntl 3 F_SETLK F_WRLCK SEEK_SET 0 10 0\n"
		"1 0 0 fcntl 3 F_SETLK F_RDLCK SEEK_SET 20 10 0\n"
		"1 0 0 fork 2\n"
		"2 0 1 openat \"db\" O_RDWR 0 3\n"
		"2 0 1 fcntl 3 F_SETLKW F_WRLCK SEEK_SET 10 10 0\n"		/* 5 */
		"2 0 1 fcntl 3 F_SETLKW F_RDLCK SEEK_SET 20 5 0\n"
		"2 0 1 fcntl 3 F_SETLKW F_WRLCK SEEK_SET 10 -10 0\n"
		"1 0 0 fcntl 3 F_SETLK F_UNLCK SEEK_SET 0 0 0\n");

	assert_int_equal(waits_for(p, 5, 0), 0);
	assert_int_equal(waits_for(p, 6, 0), 0);
	assert_int_equal(waits_for(p, 7, 0), 5);	/* [0, 10): the unlock */
	p = compiled(ctx,
		"1 0 0 openat \"db\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 fcntl 3 F_SETLK F_RDLCK SEEK_SET 20 10 0\n"
		"1 0 0 fork 2\n"
		"2 0 1 openat \"db\" O_RDWR 0 3\n"
		"2 0 1 fcntl 3 F_SETLKW F_WRLCK SEEK_CUR 0 0 0\n"
		"1 0 0 fcntl 3 F_SETLK F_UNLCK SEEK_SET 25 1 0\n");		/* 5 */
	/* from the offset: the whole file, as far as the compile knows, which
	 * stays locked on both sides of the byte let go of: until the end */
	assert_int_equal(waits_for(p, 4, 0), 5);
	assert_int_equal(loadfile_op(p, 6)->a[2], EXEC_EXIT);
}

/* A lock let go of, and the name taken by a new file: the new file's
 * lock is no conflict. */
static void test_a_new_file_at_a_locked_name_is_another_file(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"			/* 0 */
		"1 0 0 flock 3 LOCK_EX 0\n"
		"1 0 0 rename \"lk\" \"old\" 0\n"
		"1 0 0 fork 2\n"
		"2 0 1 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"2 0 1 flock 3 LOCK_EX 0\n"					/* 5 */
		"2 0 1 openat \"old\" O_RDWR 0 4\n"
		"2 0 1 flock 4 LOCK_EX 0\n"
		"1 0 0 close 3 0\n");

	assert_int_equal(waits_for(p, 5, 0), 0);
	assert_int_equal(waits_for(p, 7, 0), 5);	/* "old" is the locked one */
}

/* A symbolic link known at a path (init symlink, symlink) leads the lock
 * to its target: the same lock, and a waiter for it. */
static void test_a_lock_through_a_known_link_is_its_targets(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"init file \"lk\" 0 0644\n"
		"init symlink \"alias\" \"lk\"\n"
		"1 0.0 0 thread 2\n"						/* 0 */
		"1 0.0 0 openat \"lk\" O_RDWR 0 3\n"
		"1 0.0 0 flock 3 LOCK_EX 0\n"
		"2 0.1 0 symlink \"lk\" \"other\" 0\n"
		"2 0.2 0 openat \"alias\" O_RDWR 0 4\n"
		"2 0.3 0.4 flock 4 LOCK_EX 0\n"				/* 5 */
		"1 0.5 0 flock 3 LOCK_UN 0\n"
		"2 0.8 0 openat \"other\" O_RDWR 0 5\n"
		"2 0.9 0 flock 5 LOCK_SH|LOCK_NB EAGAIN\n");

	assert_int_equal(waits_for(p, 5, 0), 4);	/* the unlock */
	assert_int_equal(waits_for(p, 8, 0), 0);	/* held by its own stream */
	/* the try, after the lock it found held, a line before: no circle */
	assert_int_equal(p->nops, 9);
}

/* A try that failed because the lock was held runs while it is held:
 * after the holder took it, before it let go. */
static void test_a_failed_try_runs_while_the_lock_is_held(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0 0 thread 2\n"						/* 0 */
		"1 0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"2 0 0 stat \"x\" ENOENT\n"
		"1 0 0 flock 3 LOCK_EX 0\n"
		"2 0 0 openat \"lk\" O_RDWR 0 4\n"
		"2 0 0 flock 4 LOCK_EX|LOCK_NB EWOULDBLOCK\n"			/* 5 */
		"2 0 0 fcntl 4 F_OFD_SETLK F_WRLCK SEEK_SET 0 0 0\n"
		"1 0 0 flock 3 LOCK_UN 0\n");

	assert_int_equal(call_of(p, 5)->result, -EAGAIN);	/* EWOULDBLOCK, its other name */
	assert_int_equal(waits_for(p, 5, 0), 3);	/* the holder's flock */
	assert_int_equal(waits_for(p, 7, 1), 4);	/* the try */
	assert_int_equal(waits_for(p, 6, 0), 0);	/* OFD and flock locks never meet */
}

/* Waiters for one lock take it in the order they returned, each after
 * the one before let go. */
static void test_waiters_take_the_lock_in_the_order_they_returned(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.0 0 thread 2\n"						/* 0 */
		"1 0.0 0 thread 3\n"
		"1 0.0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0.0 0 flock 3 LOCK_EX 0\n"
		"2 0.1 0 openat \"lk\" O_RDWR 0 4\n"
		"3 0.1 0 openat \"lk\" O_RDWR 0 5\n"				/* 5 */
		"3 0.2 0.8 flock 5 LOCK_EX 0\n"
		"2 0.3 0.3 flock 4 LOCK_EX 0\n"
		"1 0.5 0 flock 3 LOCK_UN 0\n"
		"2 0.7 0 close 4 0\n"
		"3 1.0 0 close 5 0\n");					/* 10 */

	assert_int_equal(waits_for(p, 7, 0), 5);	/* the unlock */
	assert_int_equal(waits_for(p, 6, 1), 3);	/* stream 2's close */
}

/* flock converts by letting go first, a row of the compiler's before
 * the conversion (an exec row, EXEC_UNLOCK, at its line): a downgrade
 * lets a shared waiter in from there; two shared holders both upgrading
 * (the first waits for the second's unlock, the second for the first to
 * have let go of its shared lock) is no circle, and the first waits for
 * its lock before its call, not in the kernel, where the second's letting
 * go would wake it first. */
static void test_flock_conversions_let_go_first(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct program *p = compiled(ctx,
		"1 0.0 0 thread 2\n"						/* 0 */
		"1 0.0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0.0 0 flock 3 LOCK_EX 0\n"
		"2 0.1 0 openat \"lk\" O_RDWR 0 4\n"
		"2 0.1 0.4 flock 4 LOCK_SH 0\n"
		"1 0.2 0 stat \"x\" ENOENT\n"					/* 5 */
		"1 0.3 0 flock 3 LOCK_SH 0\n"					/* 6, 7 */
		"2 0.6 0 close 4 0\n");
	const struct op *first = loadfile_op(p, 6);
	assert_int_equal(first->type, OP_SYS_EXEC);
	assert_int_equal(first->a[2], EXEC_UNLOCK);
	assert_int_equal(first->a[1], 1);
	assert_int_equal(p->slot_lists[first->a[0]], loadfile_op(p, 7)->handle);
	assert_int_equal(loadfile_line(p, 6), loadfile_line(p, 7));
	assert_int_equal(call_of(p, 7)->seq, 6);
	assert_int_equal(waits_for(p, 4, 0), 5);	/* the letting go */
	assert_int_equal(loadfile_ops_per_pass(p), 7);	/* not counted */

	p = compiled(ctx,
		"1 0.0 0 thread 2\n"						/* 0 */
		"1 0.0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0.0 0 flock 3 LOCK_SH 0\n"
		"2 0.0 0 openat \"lk\" O_RDWR 0 4\n"
		"2 0.0 0 flock 4 LOCK_SH 0\n"
		"1 0.1 0.5 flock 3 LOCK_EX 0\n"				/* 5, 6 */
		"2 0.2 0 flock 4 LOCK_EX 0\n"					/* 7, 8 */
		"2 0.3 0 flock 4 LOCK_UN 0\n"
		"1 0.7 0 stat \"x\" ENOENT\n");				/* 10 */
	assert_int_equal(waits_for(p, 7, 0), 4);	/* stream 1 let go of its shared lock */
	assert_int_equal(waits_for(p, 6, 1), 5);	/* stream 2's unlock */
	assert_int_equal(waits_for(p, 8, 0), 0);
}

/* A circle of waits written by hand is refused, naming both rows. */
static void test_a_circle_of_waits_is_refused(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);

	rejected(ctx,
		"1 0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"			/* line 2 */
		"1 0 0 flock 3 LOCK_EX 0\n"
		"1 0 0 thread 2\n"
		"2 0 0 openat \"lk\" O_RDWR 0 4\n"
		"2 0 1 flock 4 LOCK_EX 0\n"					/* line 6 */
		"2 0 0 mkdir \"d\" 0755 0\n"
		"1 0 0 stat \"d\" 0\n"
		"1 0 0 flock 3 LOCK_UN 0\n",					/* line 9 */
		NAME ":6: flock waits for the release of its lock at " NAME ":9, which waits for "
		"it in turn: the replay would deadlock");
	/* a lock no stream lets go of but at the end of its own process */
	rejected(ctx,
		"1 0 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n"
		"1 0 0 flock 3 LOCK_EX 0\n"
		"1 0 0 openat \"lk\" O_RDWR 0 4\n"
		"1 0 0 flock 4 LOCK_EX 0\n",					/* line 5 */
		NAME ":5: flock waits for the release of its lock at the end of stream 1 (after "
		NAME ":5), which waits for it in turn: the replay would deadlock");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)
		T(test_the_example_of_the_spec_compiles),
		T(test_every_call_decodes_its_arguments),
		T(test_initial_state),
		T(test_thread_shares_the_descriptor_table),
		T(test_fork_copies_the_descriptor_table),
		T(test_exec_closes_close_on_exec_descriptors),
		T(test_waits_follow_the_resources),
		T(test_waits_follow_the_directories_above),
		T(test_a_close_waits_for_a_fork_that_copies_it),
		T(test_a_call_through_a_link_waits_for_its_target),
		T(test_a_directory_renamed_takes_its_names_along),
		T(test_a_rename_onto_itself_moves_nothing),
		T(test_a_create_through_a_link_changes_its_targets_listing),
		T(test_a_link_that_follows_names_the_links_target),
		T(test_a_rename_onto_another_link_of_its_file_moves_nothing),
		T(test_a_name_made_again_is_another_file),
		T(test_a_create_beneath_a_link_changes_its_targets_listing),
		T(test_a_file_two_levels_beneath_a_link_is_its_targets),
		T(test_a_create_two_levels_beneath_a_link_changes_its_listing),
		T(test_a_link_that_follows_a_chain_names_its_end),
		T(test_an_rmdir_waits_for_a_listing),
		T(test_calls_on_two_names_of_a_file_keep_their_order),
		T(test_offsets_shared_keep_their_order),
		T(test_a_slot_taken_again_waits_for_its_giver),
		T(test_a_single_stream_has_no_waits),
		T(test_think_gaps_are_per_stream),
		T(test_escapes_in_strings),
		T(test_malformed_rows_are_refused),
		T(test_calls_on_the_root_compile),
		T(test_header_and_whole_file_errors),
		T(test_dialects_keep_their_names),
		T(test_an_empty_name_is_no_operation),
		T(test_summary_tells_streams_and_initial_state),
		T(test_a_blocking_lock_waits_for_its_holders_exit),
		T(test_a_blocking_lock_waits_for_a_later_unlock),
		T(test_locks_end_as_the_kernel_ends_them),
		T(test_a_lock_held_through_an_inherited_descriptor),
		T(test_threads_of_a_process_contend_for_flock_not_posix_locks),
		T(test_ranges_and_shared_locks_do_not_wait),
		T(test_a_new_file_at_a_locked_name_is_another_file),
		T(test_a_lock_through_a_known_link_is_its_targets),
		T(test_a_failed_try_runs_while_the_lock_is_held),
		T(test_waiters_take_the_lock_in_the_order_they_returned),
		T(test_flock_conversions_let_go_first),
		T(test_a_circle_of_waits_is_refused),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
