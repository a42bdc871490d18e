/*
 * test_fileio.c - the fileio backend against a scratch directory.
 *
 * Operations are built by hand (no parser): a small program whose dirs[]
 * names the directories the tests use.  Each test gets a fresh
 * ROOT/clients with client1 made by an NTCreateX, as client.txt does, and
 * a canary directory ROOT/canary beside it that no operation may touch.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend.h"
#include "localdir.h"

/* Directories the program names, by index; D_MANY onwards are "many0".. for the cache test. */
enum { D_ROOT, D_SUB, D_D, D_DE, D_D2, D_D2E, D_M, D_MANY };
#define NMANY 300
#define XFER 65536

struct fx {
	TALLOC_CTX *ctx;
	char root[64];
	char client[96];	/* ROOT/clients/client1 */
	char canary[96];	/* ROOT/canary, holding the file "keep" */
	int clients_fd;
	struct backend_target *target;	/* the root, as the driver opens it */
	struct program prog;
	struct backend_options opts;
	struct backend_client *bc;
	struct verify *verify;	/* --verify's state, the client's (run/client.c makes it) */
};

/* ---- building operations ---- */

static const char **test_dirs(TALLOC_CTX *ctx)
{
	const char **d = talloc_array(ctx, const char *, D_MANY + NMANY);
	const char *fixed[] = { "", "sub", "d", "d/e", "d2", "d2/e", "m" };

	for (int i = 0; i < D_MANY; i++)
		d[i] = fixed[i];
	for (int i = 0; i < NMANY; i++)
		d[D_MANY + i] = talloc_asprintf(d, "many%d", i);
	return d;
}

static uint16_t dir_of(const struct fx *f, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;

	for (size_t i = 0; i < f->prog.ndirs; i++) {
		if (strlen(f->prog.dirs[i]) == len && strncmp(f->prog.dirs[i], path, len) == 0)
			return (uint16_t)i;
	}
	fail_msg("no dirs[] entry for the parent of '%s'", path);
	return DIR_NONE;
}

/* An operation on client-relative `path` ("" is the client directory). */
static struct op path_op(const struct fx *f, enum op_type type, const char *path)
{
	struct op op = { .type = type, .status = NT_OK, .handle = HANDLE_NONE,
			 .path = path, .dir = DIR_NONE, .dir2 = DIR_NONE, .fnum = -1 };
	const char *slash = strrchr(path, '/');

	op.leaf = slash ? slash + 1 : path;
	if (path[0] != '\0')
		op.dir = dir_of(f, path);
	if (type == OP_FINDFIRST) {
		op.a[0] = 260;	/* level, max count, count: as client.txt */
		op.a[1] = 1366;
		op.flags |= strpbrk(op.leaf, "*?<>\"") ? OPF_WILDCARD : 0;
	}
	return op;
}

static struct op handle_op(enum op_type type, uint16_t handle, int64_t a0, int64_t a1,
			   int64_t a2)
{
	return (struct op){ .type = type, .status = NT_OK, .handle = handle,
			    .dir = DIR_NONE, .dir2 = DIR_NONE, .a = { a0, a1, a2 } };
}

static int run(struct fx *f, const struct op *op)
{
	return fileio_backend.op[op->type](f->bc, op);
}

/* NTCreateX of `path` into handle slot h (HANDLE_NONE: open and close). */
static int create(struct fx *f, const char *path, int64_t options, int64_t disposition,
		  uint16_t h)
{
	struct op op = path_op(f, OP_NTCREATEX, path);

	op.a[0] = options;
	op.a[1] = disposition;
	op.handle = h;
	return run(f, &op);
}

static int path_call(struct fx *f, enum op_type type, const char *path)
{
	struct op op = path_op(f, type, path);
	return run(f, &op);
}

static int rename_call(struct fx *f, const char *from, const char *to)
{
	struct op op = path_op(f, OP_RENAME, from);
	struct op op2 = path_op(f, OP_RENAME, to);

	op.path2 = op2.path;
	op.leaf2 = op2.leaf;
	op.dir2 = op2.dir;
	return run(f, &op);
}

static int make_file(struct fx *f, const char *path)
{
	return create(f, path, 0x40, 2, HANDLE_NONE);
}

static int make_dir(struct fx *f, const char *path)
{
	return create(f, path, 0x1, 2, HANDLE_NONE);
}

/* ---- looking at the result ---- */

static bool exists(const char *dir, const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return lstat(p, &st) == 0;
}

/* Whether dir/rel is a directory that holds nothing: what a client's
 * cleanup leaves of its own, for the target's close to remove. */
static bool emptied_dir(const char *dir, const char *rel)
{
	char p[512];
	struct stat st;
	struct dirent *e;
	int n = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	DIR *d = lstat(p, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(p) : NULL;
	if (!d)
		return false;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n == 0;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void assert_canary_intact(const struct fx *f)
{
	struct stat st;
	char p[128];

	snprintf(p, sizeof(p), "%s/keep", f->canary);
	assert_int_equal(lstat(p, &st), 0);
	assert_int_equal(st.st_size, 4);
	DIR *d = opendir(f->canary);
	int n = 0;
	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	assert_int_equal(n, 3);	/* ".", "..", "keep" */
}

static void plant_symlink(const struct fx *f, const char *rel, const char *target)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", f->client, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* ---- fixture ---- */

static void rm_rf(const char *path)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static int fx_setup(void **state)
{
	struct fx *f = talloc_zero(NULL, struct fx);
	char p[128], *err = NULL;

	f->ctx = f;
	snprintf(f->root, sizeof(f->root), "/tmp/test_fileio.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->client, sizeof(f->client), "%s/clients/client1", f->root);
	snprintf(f->canary, sizeof(f->canary), "%s/canary", f->root);
	snprintf(p, sizeof(p), "%s/clients", f->root);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(mkdir(f->canary, 0755), 0);
	snprintf(p, sizeof(p), "%s/keep", f->canary);
	int fd = open(p, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	snprintf(p, sizeof(p), "%s/clients", f->root);
	f->clients_fd = open(p, O_RDONLY | O_DIRECTORY);
	assert_true(f->clients_fd >= 0);
	f->target = fileio_backend.target_open(f, f->root, &f->opts, &err);
	assert_non_null(f->target);

	f->prog.dirs = test_dirs(f);
	f->prog.ndirs = D_MANY + NMANY;
	f->prog.max_handles = 4;
	f->prog.ops = talloc_zero_array(f, struct op, 1);
	f->prog.ops[0] = handle_op(OP_WRITEX, 0, 0, XFER, XFER);
	f->prog.nops = f->prog.ndistinct = 1;
	f->prog.op_offset = (const uint32_t[]){ 0 };
	f->prog.max_transfer = XFER;
	f->bc = fileio_backend.client_new(f, f->target, 1, &f->prog, &f->opts, f->verify, &err);
	assert_non_null(f->bc);
	*state = f;
	return make_dir(f, "");
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	close(f->clients_fd);
	rm_rf(f->root);
	talloc_free(f);
	return 0;
}

/* A client with options: replaces the fixture's client. */
static void reopen_client(struct fx *f, const struct backend_options *opts)
{
	char *err = NULL;

	talloc_free(f->bc);
	talloc_free(f->verify);
	f->opts = *opts;
	f->verify = opts->verify ? verify_new(f, 1, f->prog.max_handles, f->prog.npaths) : NULL;
	f->bc = fileio_backend.client_new(f, f->target, 1, &f->prog, &f->opts, f->verify, &err);
	assert_non_null(f->bc);
}

/* ---- data and handles ---- */

static void test_create_write_read_close(void **state)
{
	struct fx *f = *state;
	struct op op;
	struct stat st;
	char p[256];

	assert_int_equal(create(f, "file", 0x40, 5, 1), 0);
	op = handle_op(OP_WRITEX, 1, 0, 100, 100);
	assert_int_equal(run(f, &op), 0);
	op = handle_op(OP_READX, 1, 0, 100, 100);
	assert_int_equal(run(f, &op), 0);
	op = handle_op(OP_READX, 1, 60, 100, 40);	/* 40 bytes left before EOF */
	assert_int_equal(run(f, &op), 0);
	op = handle_op(OP_READX, 1, 60, 100, 100);	/* expected more than there is */
	assert_int_equal(run(f, &op), ENODATA);
	op = handle_op(OP_CLOSE, 1, 0, 0, 0);
	assert_int_equal(run(f, &op), 0);
	assert_int_equal(run(f, &op), EBADF);
	snprintf(p, sizeof(p), "%s/file", f->client);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 100);
}

static void test_verify_writes_a_pattern_and_catches_a_changed_byte(void **state)
{
	struct fx *f = *state;
	struct backend_options opts = { .verify = true };
	unsigned char disk[100], zeros[100] = { 0 };
	char p[256], want[VERIFY_DETAIL_MAX];
	struct op op;

	reopen_client(f, &opts);
	assert_int_equal(create(f, "file", 0x40, 5, 1), 0);
	op = handle_op(OP_WRITEX, 1, 0, 100, 100);
	assert_int_equal(run(f, &op), 0);
	snprintf(p, sizeof(p), "%s/file", f->client);
	int fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, disk, 100, 0), 100);
	assert_memory_not_equal(disk, zeros, 100);	/* the pattern, not zeros */
	op = handle_op(OP_READX, 1, 0, 100, 100);
	assert_int_equal(run(f, &op), 0);
	assert_null(verify_failure_detail(f->verify));

	unsigned char bad = disk[42] ^ 0x5a;
	assert_int_equal(pwrite(fd, &bad, 1, 42), 1);
	close(fd);
	assert_int_equal(run(f, &op), EILSEQ);
	snprintf(want, sizeof(want), "data mismatch at offset 42: expected %02x %02x %02x %02x"
		 " %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x found %02x",
		 disk[42], disk[43], disk[44], disk[45], disk[46], disk[47], disk[48], disk[49],
		 disk[50], disk[51], disk[52], disk[53], disk[54], disk[55], disk[56], disk[57],
		 bad);
	const char *detail = verify_failure_detail(f->verify);
	assert_non_null(detail);
	assert_memory_equal(detail, want, strlen(want));
	assert_null(verify_failure_detail(f->verify));	/* asking clears it */
	struct verify_tally t = verify_drain(f->verify);
	assert_int_equal(t.bytes_checked, 100 + 43);
	assert_int_equal(t.reads_checked, 2);
	assert_int_equal(t.mismatches, 1);
}

static void test_transfer_larger_than_program_max_is_einval(void **state)
{
	struct fx *f = *state;
	struct op op = handle_op(OP_WRITEX, 0, 0, XFER + 1, XFER + 1);

	assert_int_equal(create(f, "file", 0x40, 2, 0), 0);
	assert_int_equal(run(f, &op), EINVAL);
}

static void test_handle_ops_on_unopened_handle_are_ebadf(void **state)
{
	struct fx *f = *state;
	enum op_type types[] = { OP_CLOSE, OP_READX, OP_WRITEX, OP_LOCKX, OP_UNLOCKX,
				 OP_FLUSH, OP_QFILEINFO, OP_SFILEINFO };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct op none = handle_op(types[i], HANDLE_NONE, 0, 1, 1);
		struct op closed = handle_op(types[i], 2, 0, 1, 1);
		assert_int_equal(run(f, &none), EBADF);
		assert_int_equal(run(f, &closed), EBADF);
	}
}

static void test_file_info_lock_flush_and_fs_info_succeed(void **state)
{
	struct fx *f = *state;
	struct op ops[] = {
		handle_op(OP_WRITEX, 0, 0, 10, 10),
		handle_op(OP_LOCKX, 0, 2147483538, 1, 0),
		handle_op(OP_UNLOCKX, 0, 2147483538, 1, 0),
		handle_op(OP_FLUSH, 0, 0, 0, 0),
		handle_op(OP_QFILEINFO, 0, 1004, 0, 0),
		handle_op(OP_QFSINFO, HANDLE_NONE, 259, 0, 0),
	};

	assert_int_equal(create(f, "file", 0x40, 2, 0), 0);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		assert_int_equal(run(f, &ops[i]), 0);
}

static void test_set_file_information_moves_times_back(void **state)
{
	struct fx *f = *state;
	struct stat before, after;
	struct op op = handle_op(OP_SFILEINFO, 0, 1004, 0, 0);
	char p[256];

	assert_int_equal(create(f, "file", 0x40, 2, 0), 0);
	snprintf(p, sizeof(p), "%s/file", f->client);
	assert_int_equal(stat(p, &before), 0);
	assert_int_equal(run(f, &op), 0);
	assert_int_equal(stat(p, &after), 0);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec - 12);
	assert_int_equal(after.st_atim.tv_sec, before.st_atim.tv_sec - 10);
}

static void test_pass_end_closes_every_handle(void **state)
{
	struct fx *f = *state;
	struct op op = handle_op(OP_QFILEINFO, 0, 1004, 0, 0);

	assert_int_equal(create(f, "file", 0x40, 2, 0), 0);
	assert_int_equal(run(f, &op), 0);
	fileio_backend.pass_end(f->bc);
	assert_int_equal(run(f, &op), EBADF);
}

/* ---- NTCreateX ---- */

static void test_open_of_missing_file_fails_with_enoent(void **state)
{
	struct fx *f = *state;

	assert_int_equal(create(f, "mixfile", 0x40, 1, HANDLE_NONE), ENOENT);
	assert_int_equal(create(f, "d/x", 0x40, 2, HANDLE_NONE), ENOENT);	/* no "d" */
	assert_int_equal(create(f, "file", 0x40, 9, HANDLE_NONE), EINVAL);	/* disposition */
	assert_false(exists(f->client, "file"));
}

static void test_dispositions_create_and_truncate_as_named(void **state)
{
	struct fx *f = *state;
	struct op w = handle_op(OP_WRITEX, 0, 0, 10, 10);
	struct stat st;
	char p[256];

	snprintf(p, sizeof(p), "%s/f", f->client);
	assert_int_equal(create(f, "f", 0x40, 3, 0), 0);	/* OPEN_IF creates */
	assert_int_equal(run(f, &w), 0);
	fileio_backend.pass_end(f->bc);
	assert_int_equal(create(f, "f", 0x40, 1, HANDLE_NONE), 0);	/* OPEN keeps */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 10);
	assert_int_equal(create(f, "f", 0x40, 2, HANDLE_NONE), 0);	/* CREATE keeps, as dbench */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 10);
	assert_int_equal(create(f, "f", 0x40, 5, HANDLE_NONE), 0);	/* OVERWRITE_IF truncates */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 0);
}

static void test_directory_create_and_open_of_directory(void **state)
{
	struct fx *f = *state;
	struct stat st;
	char p[256];

	assert_int_equal(make_dir(f, "d"), 0);
	snprintf(p, sizeof(p), "%s/d", f->client);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* options 0, FILE_OPEN on a directory: opened read-only after EISDIR */
	assert_int_equal(create(f, "d", 0, 1, 1), 0);
	assert_int_equal(make_dir(f, "d"), 0);	/* exists: mkdir fails, open works */
	assert_int_equal(create(f, "nodir", 0x1, 1, HANDLE_NONE), ENOENT);	/* FILE_OPEN */
}

static void test_unexpected_success_keeps_no_descriptor(void **state)
{
	struct fx *f = *state;
	struct op op = path_op(f, OP_NTCREATEX, "file");
	int before;

	assert_int_equal(make_file(f, "file"), 0);
	before = open_fds();
	op.a[1] = 1;
	op.status = NT_OBJECT_NAME_NOT_FOUND;
	op.handle = 0;
	assert_int_equal(run(f, &op), 0);	/* the client will call this an error */
	assert_int_equal(open_fds(), before);
}

/* ---- paths ---- */

static void test_query_path_of_missing_file_fails_with_enoent(void **state)
{
	struct fx *f = *state;

	assert_int_equal(path_call(f, OP_QPATHINFO, "nope"), ENOENT);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/e/nope"), ENOENT);
	assert_int_equal(make_file(f, "file"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "file"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, ""), 0);
}

static void test_no_resolve_changes_no_outcome(void **state)
{
	struct fx *f = *state;
	struct backend_options o = { .no_resolve = true };

	reopen_client(f, &o);
	assert_int_equal(path_call(f, OP_QPATHINFO, "nope"), ENOENT);
	assert_int_equal(make_file(f, "file"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "file"), 0);
}

static void test_rename_moves_the_file(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_file(f, "a"), 0);
	assert_int_equal(rename_call(f, "a", "b"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "a"), ENOENT);
	assert_int_equal(path_call(f, OP_QPATHINFO, "b"), 0);
	assert_int_equal(rename_call(f, "a", "c"), ENOENT);
}

static void test_rename_of_directory_forgets_cached_descriptors(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(make_dir(f, "d/e"), 0);
	assert_int_equal(make_file(f, "d/e/x"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/e/x"), 0);	/* caches d, d/e */
	assert_int_equal(rename_call(f, "d", "d2"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/e/x"), ENOENT);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d2/e/x"), 0);
}

static void test_unlink_removes_file_once(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_file(f, "file"), 0);
	assert_int_equal(path_call(f, OP_UNLINK, "file"), 0);
	assert_false(exists(f->client, "file"));
	assert_int_equal(path_call(f, OP_UNLINK, "file"), ENOENT);
}

static void test_mkdir_and_rmdir(void **state)
{
	struct fx *f = *state;
	struct op clients = path_op(f, OP_MKDIR, "");

	clients.flags |= OPF_CLIENTS_DIR;
	assert_int_equal(run(f, &clients), 0);	/* "\clients" exists: fine */
	assert_int_equal(path_call(f, OP_MKDIR, "d"), 0);
	assert_int_equal(path_call(f, OP_MKDIR, "d"), EEXIST);
	assert_int_equal(make_file(f, "d/x"), 0);
	assert_int_equal(path_call(f, OP_RMDIR, "d"), ENOTEMPTY);
	assert_int_equal(path_call(f, OP_UNLINK, "d/x"), 0);
	assert_int_equal(path_call(f, OP_RMDIR, "d"), 0);
	assert_false(exists(f->client, "d"));
	assert_int_equal(path_call(f, OP_MKDIR, "d"), 0);	/* a new d, not the cached one */
	assert_int_equal(make_file(f, "d/y"), 0);
	assert_true(exists(f->client, "d/y"));
}

static void test_deltree_removes_directories_too(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(make_dir(f, "d/e"), 0);
	assert_int_equal(make_file(f, "d/e/x"), 0);
	assert_int_equal(make_file(f, "d/y"), 0);
	assert_int_equal(path_call(f, OP_DELTREE, "d"), 0);
	assert_false(exists(f->client, "d"));
	assert_int_equal(path_call(f, OP_DELTREE, "d"), 0);	/* already gone */
	assert_int_equal(path_call(f, OP_DELTREE, "d/e"), 0);	/* parent gone */
}

static void test_deltree_of_client_dir_then_recreate(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(make_file(f, "d/x"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/x"), 0);
	assert_int_equal(path_call(f, OP_DELTREE, ""), 0);
	assert_false(exists(f->root, "clients/client1"));
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/x"), ENOENT);
	assert_int_equal(make_dir(f, ""), 0);	/* the next pass begins so */
	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(make_file(f, "d/x"), 0);
	assert_true(exists(f->client, "d/x"));
}

static void test_deltree_refuses_the_shared_clients_dir(void **state)
{
	struct fx *f = *state;
	struct op op = path_op(f, OP_DELTREE, "");

	op.flags |= OPF_CLIENTS_DIR;
	assert_int_equal(run(f, &op), EACCES);
	assert_true(exists(f->root, "clients/client1"));
}

static void test_cache_stays_bounded_with_many_directories(void **state)
{
	struct fx *f = *state;
	char path[32];
	int before = open_fds();

	for (int i = 0; i < NMANY; i++) {
		snprintf(path, sizeof(path), "many%d", i);
		assert_int_equal(make_dir(f, path), 0);
		snprintf(path, sizeof(path), "many%d/x", i);
		assert_int_equal(make_file(f, path), 0);
	}
	for (int i = 0; i < NMANY; i++) {
		snprintf(path, sizeof(path), "many%d/x", i);
		assert_int_equal(path_call(f, OP_QPATHINFO, path), 0);
	}
	assert_true(open_fds() - before <= 257);
}

/* ---- FIND_FIRST ---- */

static void test_find_first_matches_dos_wildcards(void **state)
{
	struct fx *f = *state;

	assert_int_equal(path_call(f, OP_FINDFIRST, "FILLER.*"), ENOENT);
	assert_int_equal(make_file(f, "filler.000"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "FILLER.*"), 0);
	assert_int_equal(make_dir(f, "m"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/*"), 0);	/* "." and ".." */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/<.JNK"), ENOENT);
	assert_int_equal(make_file(f, "m/a.b.doc"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/<.JNK"), ENOENT);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/<.DOC"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/A.<"), ENOENT);	/* < stops at last dot */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/A.<DOC"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/a.b.do>>"), 0);	/* > may match nothing */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/a.b.d?"), ENOENT);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/a.b.doc\""), 0);	/* " at end */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/a\"b.doc"), 0);	/* " is a dot */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/*B*C"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/*.B.DOC"), 0);	/* ends alike */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/*XA.B.DOC"), ENOENT);	/* longer end */
	assert_int_equal(path_call(f, OP_FINDFIRST, "m/a.b.dOX"), ENOENT);
	assert_int_equal(path_call(f, OP_FINDFIRST, "d/*"), ENOENT);	/* no "d" */
}

static void test_find_first_without_wildcard_is_a_lookup(void **state)
{
	struct fx *f = *state;

	assert_int_equal(path_call(f, OP_FINDFIRST, "file"), ENOENT);
	assert_int_equal(make_file(f, "file"), 0);
	assert_int_equal(path_call(f, OP_FINDFIRST, "file"), 0);
}

static void test_find_first_reads_at_most_max_count_entries(void **state)
{
	struct fx *f = *state;
	struct op op = path_op(f, OP_FINDFIRST, "m/*");

	assert_int_equal(make_dir(f, "m"), 0);
	op.a[1] = 0;
	assert_int_equal(run(f, &op), ENOENT);
	op.a[1] = 1366;
	assert_int_equal(run(f, &op), 0);
}

/* ---- options ---- */

static void test_sync_options_and_xattrs_keep_outcomes(void **state)
{
	struct fx *f = *state;
	struct backend_options o = { .sync_open = true, .sync_dir = true,
				     .fsync_writes = true, .xattr = true };
	struct op w = handle_op(OP_WRITEX, 0, 0, 10, 10);
	struct op s = handle_op(OP_SFILEINFO, 0, 1004, 0, 0);
	char p[256], buf[64];

	reopen_client(f, &o);
	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(create(f, "d/f", 0x40, 5, 0), 0);
	snprintf(p, sizeof(p), "%s/d/f", f->client);
	ssize_t n = getxattr(p, "user.DosAttrib", buf, sizeof(buf));
	if (n < 0 && errno == ENOTSUP)
		skip();
	assert_int_equal(n, 44);
	assert_int_equal(run(f, &w), 0);
	assert_int_equal(run(f, &s), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "d/f"), 0);
	assert_int_equal(rename_call(f, "d/f", "d/g"), 0);
	assert_int_equal(path_call(f, OP_UNLINK, "d/g"), 0);
	assert_int_equal(path_call(f, OP_RMDIR, "d"), 0);
}

/* ---- confinement ---- */

static void test_symlink_parent_is_not_followed(void **state)
{
	struct fx *f = *state;

	plant_symlink(f, "sub", f->canary);
	assert_int_not_equal(create(f, "sub/x", 0x40, 5, HANDLE_NONE), 0);
	assert_int_not_equal(create(f, "sub/keep", 0x40, 5, HANDLE_NONE), 0);
	assert_int_not_equal(path_call(f, OP_UNLINK, "sub/keep"), 0);
	assert_int_not_equal(path_call(f, OP_QPATHINFO, "sub/keep"), 0);
	assert_int_not_equal(path_call(f, OP_FINDFIRST, "sub/*"), 0);
	assert_int_not_equal(path_call(f, OP_MKDIR, "sub/e"), 0);
	assert_int_not_equal(path_call(f, OP_DELTREE, "sub/keep"), 0);
	assert_int_not_equal(rename_call(f, "sub/keep", "stolen"), 0);
	assert_int_equal(make_file(f, "x"), 0);
	assert_int_not_equal(rename_call(f, "x", "sub/x"), 0);
	assert_canary_intact(f);
}

static void test_symlink_leaf_is_not_followed(void **state)
{
	struct fx *f = *state;

	plant_symlink(f, "sub", f->canary);
	assert_int_equal(create(f, "sub", 0x40, 5, HANDLE_NONE), BACKEND_REFUSED);	/* as a link */
	assert_int_not_equal(make_dir(f, "sub"), 0);
	assert_int_equal(path_call(f, OP_QPATHINFO, "sub"), 0);	/* the link itself */
	assert_int_equal(path_call(f, OP_UNLINK, "sub"), 0);	/* removes the link */
	assert_false(exists(f->client, "sub"));
	assert_canary_intact(f);
}

static void test_deltree_and_cleanup_do_not_follow_symlinks(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_dir(f, "d"), 0);
	plant_symlink(f, "sub", f->canary);
	plant_symlink(f, "d/link", f->canary);
	assert_int_equal(path_call(f, OP_DELTREE, "sub"), 0);
	assert_false(exists(f->client, "sub"));
	assert_canary_intact(f);
	assert_int_equal(path_call(f, OP_DELTREE, ""), 0);
	assert_false(exists(f->root, "clients/client1"));
	assert_canary_intact(f);
	assert_int_equal(make_dir(f, ""), 0);
	plant_symlink(f, "sub", f->canary);
	assert_int_equal(fileio_backend.cleanup(f->bc), 0);
	assert_true(emptied_dir(f->root, "clients/client1"));
	assert_canary_intact(f);
}

static void test_client_dir_replaced_by_symlink_is_not_followed(void **state)
{
	struct fx *f = *state;
	char p[128];

	/* Planted before the run: setup refuses it. */
	char *err = NULL;
	talloc_free(f->bc);
	rm_rf(f->client);
	snprintf(p, sizeof(p), "%s/clients/client1", f->root);
	assert_int_equal(symlink(f->canary, p), 0);
	f->bc = fileio_backend.client_new(f, f->target, 1, &f->prog, &f->opts, f->verify, &err);
	assert_null(f->bc);
	assert_string_equal(err, "cannot use directory clients/client1: "
				 "not a directory (a symbolic link?)");
	assert_canary_intact(f);

	/* Planted during the run, after a Deltree dropped the client dir. */
	assert_int_equal(unlink(p), 0);
	reopen_client(f, &f->opts);
	assert_int_equal(path_call(f, OP_DELTREE, ""), 0);
	assert_int_equal(symlink(f->canary, p), 0);
	assert_int_not_equal(path_call(f, OP_QPATHINFO, "keep"), 0);
	assert_int_not_equal(path_call(f, OP_UNLINK, "keep"), 0);
	assert_int_not_equal(make_file(f, "x"), 0);
	assert_int_not_equal(make_dir(f, ""), 0);
	assert_int_equal(path_call(f, OP_DELTREE, ""), 0);	/* unlinks the link */
	assert_false(exists(f->root, "clients/client1"));
	assert_canary_intact(f);
	assert_int_equal(symlink(f->canary, p), 0);
	assert_int_equal(fileio_backend.cleanup(f->bc), 0);
	assert_false(exists(f->root, "clients/client1"));
	assert_canary_intact(f);
}

/* ---- files of someone else's (localdir.h) ---- */

/* The reason fileio gave for its last refusal. */
static const char *refusal(struct fx *f)
{
	const char *why = fileio_backend.failure_detail(f->bc);
	return why ? why : "(none)";
}

static void assert_refused_because(struct fx *f, int err, const char *because)
{
	assert_int_equal(err, BACKEND_REFUSED);
	const char *why = refusal(f);
	if (!strstr(why, because) || !strstr(why, "a client writes only files it made"))
		fail_msg("refusal '%s' lacks '%s'", why, because);
}

/* A hard link to a file outside the target, planted where the client
 * opens, truncates or writes: refused before anything changes it. */
static void test_hard_link_from_outside_is_refused_and_left_alone(void **state)
{
	struct fx *f = *state;
	struct op w = handle_op(OP_WRITEX, 0, 0, 10, 10);
	char keep[128], p[256];

	snprintf(keep, sizeof(keep), "%s/keep", f->canary);
	snprintf(p, sizeof(p), "%s/x", f->client);
	assert_int_equal(link(keep, p), 0);
	for (int64_t disp = 0; disp <= 5; disp++) {	/* every disposition */
		assert_refused_because(f, create(f, "x", 0x40, disp, 0), "it has 2 links");
		assert_int_equal(run(f, &w), EBADF);	/* no handle to write through */
	}
	assert_canary_intact(f);
	assert_int_equal(path_call(f, OP_UNLINK, "x"), 0);	/* our name goes, not the file */
	assert_canary_intact(f);
	assert_int_equal(create(f, "x", 0x40, 5, 0), 0);	/* a file of our own again */
	assert_int_equal(run(f, &w), 0);
}

static void test_files_of_another_user_devices_and_fifos_are_refused(void **state)
{
	struct fx *f = *state;
	char p[256];

	snprintf(p, sizeof(p), "%s/fifo", f->client);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_refused_because(f, create(f, "fifo", 0x40, 1, 0), "it is a FIFO");
	snprintf(p, sizeof(p), "%s/theirs", f->client);
	assert_int_equal(make_file(f, "theirs"), 0);
	if (chown(p, 65534, 65534) != 0 || geteuid() == 65534)
		skip();		/* not root: no file of another user to make */
	assert_refused_because(f, create(f, "theirs", 0x40, 5, 0), "it belongs to uid 65534");
	snprintf(p, sizeof(p), "%s/null", f->client);
	assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_refused_because(f, create(f, "null", 0x40, 1, 0), "it is a character device");
}

/* What the lookup saw is not what the open got: another file was put in
 * its place in between. */
static void test_a_file_swapped_between_lookup_and_open_is_refused(void **state)
{
	struct fx *f = *state;
	struct localdir_owners own;
	struct stat seen, st;
	char why[192];
	int dirfd = openat(f->clients_fd, "client1", O_RDONLY | O_DIRECTORY);

	assert_true(dirfd >= 0);
	localdir_owners(&own, dirfd);
	assert_int_equal(make_file(f, "a"), 0);
	assert_int_equal(make_file(f, "b"), 0);
	assert_int_equal(fstatat(dirfd, "a", &seen, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(renameat(dirfd, "b", dirfd, "a"), 0);	/* the swap */
	assert_int_equal(localdir_open_own(dirfd, "a", O_RDWR | O_TRUNC, 0, &own, &seen, &st, why,
					   sizeof(why)), -BACKEND_REFUSED);
	assert_non_null(strstr(why, "another file took its name between the lookup and the open"));
	assert_int_equal(fstatat(dirfd, "a", &seen, AT_SYMLINK_NOFOLLOW), 0);
	int fd = localdir_open_own(dirfd, "a", O_RDWR | O_TRUNC, 0, &own, &seen, &st, why,
				   sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	close(dirfd);
}

/* ---- lifetime ---- */

/* A client's cleanup empties its directory; the target's close removes
 * it with the others (one process, not a thousand queueing on the lock
 * of DIR/clients), and DIR/clients then. */
static void test_cleanup_empties_client_dir_and_tolerates_absence(void **state)
{
	struct fx *f = *state;

	assert_int_equal(make_dir(f, "d"), 0);
	assert_int_equal(make_dir(f, "d/e"), 0);
	assert_int_equal(create(f, "d/e/x", 0x40, 2, 0), 0);
	assert_int_equal(fileio_backend.cleanup(f->bc), 0);
	assert_true(emptied_dir(f->root, "clients/client1"));
	assert_int_equal(fileio_backend.cleanup(f->bc), 0);
	assert_true(emptied_dir(f->root, "clients/client1"));
	assert_int_equal(path_call(f, OP_DELTREE, ""), 0);
	assert_false(exists(f->root, "clients/client1"));
	assert_int_equal(fileio_backend.cleanup(f->bc), 0);	/* nothing there */
	assert_false(exists(f->root, "clients/client1"));
	assert_int_equal(mkdirat(f->clients_fd, "client1", 0700), 0);
	assert_int_equal(fileio_backend.target_close(f->target), 0);
	assert_false(exists(f->root, "clients"));
}

static void test_freeing_client_closes_descriptors_and_frees_memory(void **state)
{
	struct fx *f = *state;
	TALLOC_CTX *ctx = talloc_new(NULL);
	struct op w = handle_op(OP_WRITEX, 0, 0, 100, 100);
	struct op r = handle_op(OP_READX, 0, 0, 100, 100);
	char *err = NULL;
	int before = open_fds();

	struct backend_client *bc = fileio_backend.client_new(ctx, f->target, 1, &f->prog,
							      &f->opts, f->verify, &err);
	assert_non_null(bc);
	struct fx g = *f;
	g.bc = bc;
	assert_int_equal(make_dir(&g, "d"), 0);
	assert_int_equal(create(&g, "d/x", 0x40, 2, 0), 0);
	assert_int_equal(run(&g, &w), 0);
	assert_int_equal(run(&g, &r), 0);
	assert_int_equal(path_call(&g, OP_FINDFIRST, "d/*"), 0);
	assert_true(open_fds() > before);
	talloc_free(bc);
	assert_int_equal(open_fds(), before);
	assert_int_equal(talloc_total_blocks(ctx), 1);
	talloc_free(ctx);
}

/*
 * A client process gives its client one pool of client_mem() bytes
 * (client.c).  Its state, its tables, the scan buffer and the buffers of
 * a Deltree and a cleanup of the deepest directories the program names
 * all fit: with a memory limit that lets nothing be allocated outside
 * the pool, every operation still succeeds.  (The limit counts the pool
 * with its headers, less than 256 bytes.)
 */
static void test_client_fits_the_pool_client_mem_asks_for(void **state)
{
	struct fx *f = *state;
	size_t size = fileio_backend.client_mem(&f->prog, &f->opts);
	TALLOC_CTX *pool = talloc_pool(f, size);
	char *err = NULL;

	assert_non_null(pool);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* still the one way to tell */
	assert_int_equal(talloc_set_memlimit(pool, size + 256), 0);
#pragma GCC diagnostic pop
	struct fx g = *f;
	g.bc = fileio_backend.client_new(pool, f->target, 1, &f->prog, &f->opts, f->verify, &err);
	assert_non_null(g.bc);
	assert_int_equal(make_dir(&g, "d"), 0);
	assert_int_equal(make_dir(&g, "d/e"), 0);
	assert_int_equal(make_file(&g, "d/e/x"), 0);
	assert_int_equal(path_call(&g, OP_FINDFIRST, "d/e/*"), 0);
	assert_int_equal(path_call(&g, OP_DELTREE, "d"), 0);
	assert_int_equal(make_dir(&g, "d2"), 0);
	assert_int_equal(make_dir(&g, "d2/e"), 0);
	assert_int_equal(make_file(&g, "d2/e/x"), 0);
	assert_int_equal(fileio_backend.cleanup(g.bc), 0);
	assert_true(emptied_dir(f->root, "clients/client1"));
	talloc_free(pool);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_create_write_read_close),
		T(test_verify_writes_a_pattern_and_catches_a_changed_byte),
		T(test_transfer_larger_than_program_max_is_einval),
		T(test_handle_ops_on_unopened_handle_are_ebadf),
		T(test_file_info_lock_flush_and_fs_info_succeed),
		T(test_set_file_information_moves_times_back),
		T(test_pass_end_closes_every_handle),
		T(test_open_of_missing_file_fails_with_enoent),
		T(test_dispositions_create_and_truncate_as_named),
		T(test_directory_create_and_open_of_directory),
		T(test_unexpected_success_keeps_no_descriptor),
		T(test_query_path_of_missing_file_fails_with_enoent),
		T(test_no_resolve_changes_no_outcome),
		T(test_rename_moves_the_file),
		T(test_rename_of_directory_forgets_cached_descriptors),
		T(test_unlink_removes_file_once),
		T(test_mkdir_and_rmdir),
		T(test_deltree_removes_directories_too),
		T(test_deltree_of_client_dir_then_recreate),
		T(test_deltree_refuses_the_shared_clients_dir),
		T(test_cache_stays_bounded_with_many_directories),
		T(test_find_first_matches_dos_wildcards),
		T(test_find_first_without_wildcard_is_a_lookup),
		T(test_find_first_reads_at_most_max_count_entries),
		T(test_sync_options_and_xattrs_keep_outcomes),
		T(test_symlink_parent_is_not_followed),
		T(test_symlink_leaf_is_not_followed),
		T(test_deltree_and_cleanup_do_not_follow_symlinks),
		T(test_client_dir_replaced_by_symlink_is_not_followed),
		T(test_hard_link_from_outside_is_refused_and_left_alone),
		T(test_files_of_another_user_devices_and_fifos_are_refused),
		T(test_a_file_swapped_between_lookup_and_open_is_refused),
		T(test_cleanup_empties_client_dir_and_tolerates_absence),
		T(test_freeing_client_closes_descriptors_and_frees_memory),
		T(test_client_fits_the_pool_client_mem_asks_for),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
