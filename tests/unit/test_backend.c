/*
 * test_backend.c - the backend interface's shared parts (backend.h) and
 * the local directory target (localdir.h), specified by example: the
 * list of backend names for messages, the check of what a backend cannot
 * express, the backends' own options parsed into a struct per backend and
 * per command line, and a local target's making, refusing and removing
 * of DIR/clients.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <popt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "localdir.h"

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx

static int fake_op(struct backend_client *bc, const struct op *op)
{
	(void)bc, (void)op;
	return 0;
}

/* A fake backend's own check: every WriteX beyond 64 KiB is beyond it. */
static unsigned fake_check(const struct program *prog, const struct backend_options *opts,
			   char **report)
{
	unsigned n = 0;

	(void)opts;
	for (size_t i = 0; i < prog->nops; i++)
		n += loadfile_op(prog, i)->type == OP_WRITEX && loadfile_op(prog, i)->a[1] > 65536;
	if (n)
		*report = talloc_asprintf_append(*report, "WriteX: %u larger than 64 KiB\n", n);
	return n;
}

/* A program of one entry a position (ops[i] at position i). */
static struct program *program_of(TALLOC_CTX *ctx, const enum op_type *types, size_t n)
{
	struct program *p = talloc_zero(ctx, struct program);
	uint32_t *at = talloc_array(p, uint32_t, n);

	p->ops = talloc_zero_array(p, struct op, n);
	p->nops = p->ndistinct = n;
	p->op_offset = at;
	for (size_t i = 0; i < n; i++) {
		p->ops[i].type = types[i];
		at[i] = i * sizeof(struct op);
	}
	return p;
}

static void the_names_of_every_backend_make_one_phrase(void **state)
{
	const char *s = backend_names(ctx_of(state));

	/* "'a', 'b' or 'c'": whatever backends there are, these two among them */
	assert_non_null(strstr(s, "'fileio'"));
	assert_non_null(strstr(s, "'null'"));
	assert_non_null(strstr(s, "' or '"));
	assert_null(strstr(strstr(s, "' or '") + 1, "' or '"));
	assert_int_equal(s[strlen(s) - 1], '\'');
}

static void ops_without_a_function_are_reported_by_type(void **state)
{
	enum op_type types[] = { OP_LOCKX, OP_WRITEX, OP_LOCKX, OP_UNLOCKX, OP_READX };
	struct program *prog = program_of(ctx_of(state), types, 5);
	struct backend fake = { .name = "fake" };
	struct backend_options opts = { 0 };
	char *report;

	fake.op[OP_WRITEX] = fake.op[OP_READX] = fake_op;
	assert_int_equal(backend_check_program(ctx_of(state), &fake, prog, &opts, &report), 3);
	assert_string_equal(report,
			    "LockX: 2 operations not supported by the fake backend\n"
			    "UnlockX: 1 operation not supported by the fake backend\n");
}

static void a_backends_own_check_adds_to_the_report(void **state)
{
	enum op_type types[] = { OP_WRITEX, OP_WRITEX, OP_FLUSH };
	struct program *prog = program_of(ctx_of(state), types, 3);
	struct backend fake = { .name = "fake", .check_program = fake_check };
	struct backend_options opts = { 0 };
	char *report;

	prog->ops[1].a[1] = 1 << 20;
	fake.op[OP_WRITEX] = fake_op;
	assert_int_equal(backend_check_program(ctx_of(state), &fake, prog, &opts, &report), 2);
	assert_string_equal(report,
			    "Flush: 1 operation not supported by the fake backend\n"
			    "WriteX: 1 larger than 64 KiB\n");
}

static void fileio_expresses_dbench4s_operations_and_null_every_one(void **state)
{
	struct backend_options opts = { 0 };
	enum op_type types[OP_COUNT];
	char *report;

	for (int t = 0; t < OP_COUNT; t++)
		types[t] = t;
	/* fileio: every dbench 4 operation (the NFS dialect is not its, nor
	 * the system calls) */
	struct program *prog = program_of(ctx_of(state), types, OP_GETATTR3);
	assert_int_equal(backend_check_program(ctx_of(state), &fileio_backend, prog, &opts,
					       &report), 0);
	assert_string_equal(report, "");
	prog = program_of(ctx_of(state), types, OP_COUNT);
	assert_int_equal(backend_check_program(ctx_of(state), &null_backend, prog, &opts,
					       &report), 0);
	/* ... and of every dialect, the NFS one and the block and SCSI ones
	 * are not fileio's: it replays dbench 5.0's SMB rows and every call
	 * of a recording */
	assert_int_equal(backend_check_program(ctx_of(state), &fileio_backend, prog, &opts,
					       &report),
			 OP_TEST4 - OP_GETATTR3 + 1 + OP_SCSI_LAST - OP_BLOCK_FIRST + 1);
	/* the block backend: the block dialect alone */
	assert_int_equal(backend_check_program(ctx_of(state), &block_backend, prog, &opts,
					       &report), OP_COUNT - 3);
	prog = program_of(ctx_of(state), types + OP_BLOCK_FIRST, OP_BLOCK_LAST - OP_BLOCK_FIRST + 1);
	assert_int_equal(backend_check_program(ctx_of(state), &block_backend, prog, &opts,
					       &report), 0);
	/* and dbench 5.0's SMB dialect */
	prog = program_of(ctx_of(state), types + OP_SMB_FIRST, OP_SMB_LAST - OP_SMB_FIRST + 1);
	assert_int_equal(backend_check_program(ctx_of(state), &fileio_backend, prog, &opts,
					       &report), 0);
	assert_string_equal(report, "");
}

static void dispositions_open_with_their_nt_meaning(void **state)
{
	(void)state;
	assert_int_equal(backend_open_flags(NT_OPEN), 0);
	assert_int_equal(backend_open_flags(NT_CREATE), O_CREAT);
	assert_int_equal(backend_open_flags(NT_OPEN_IF), O_CREAT);
	assert_int_equal(backend_open_flags(NT_SUPERSEDE), O_CREAT | O_TRUNC);
	assert_int_equal(backend_open_flags(NT_OVERWRITE), O_CREAT | O_TRUNC);
	assert_int_equal(backend_open_flags(NT_OVERWRITE_IF), O_CREAT | O_TRUNC);
	assert_int_equal(backend_open_flags(6), -1);
	assert_int_equal(backend_open_flags(-1), -1);
}

/* dbench 5.0's OPEN flags as its smb backend passes them to open(2):
 * 0x0c (smb.load's) is read-write and create. */
static void smb5_open_flags_are_5_0s_bits(void **state)
{
	(void)state;
	assert_int_equal(backend_smb5_open_flags(SMB5_O_RDONLY), O_RDONLY);
	assert_int_equal(backend_smb5_open_flags(SMB5_O_WRONLY), O_WRONLY);
	assert_int_equal(backend_smb5_open_flags(SMB5_O_RDWR), O_RDWR);
	assert_int_equal(backend_smb5_open_flags(SMB5_O_RDONLY | SMB5_O_WRONLY), O_RDWR);
	assert_int_equal(backend_smb5_open_flags(0x0c), O_RDWR | O_CREAT);
	assert_int_equal(backend_smb5_open_flags(SMB5_O_WRONLY | SMB5_O_CREAT | SMB5_O_EXCL |
						 SMB5_O_TRUNC | SMB5_O_APPEND),
			 O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_APPEND);
	assert_int_equal(backend_smb5_open_flags(0), O_RDONLY);
}

/* A 5.0 SMB READ or WRITE goes to the backend with its offset worked
 * out for the client: +N adds to the client's previous offset. */
static void an_offset_expression_becomes_the_ops_offset(void **state)
{
	static const char text[] = "OPEN \"/f\" 4 SUCCESS\nWRITE \"/f\" 100 10 SUCCESS\n"
				   "WRITE \"/f\" +4096 10 SUCCESS\nCLOSE \"/f\" SUCCESS\n";
	char *err = NULL;
	struct program *prog = loadfile_compile(ctx_of(state), "t.load", text,
						sizeof(text) - 1, &err);
	struct offset_state st = { .rng = 1, .client = 0, .nclients = 1 };
	struct op at;

	assert_non_null(prog);
	assert_int_equal(backend_op_at_offset(&at, prog, loadfile_op(prog, 1), &st)->a[0], 100);
	const struct op *op = backend_op_at_offset(&at, prog, loadfile_op(prog, 2), &st);
	assert_ptr_equal(op, &at);
	assert_int_equal(op->a[0], 4196);
	assert_int_equal(op->expr, 0);
	assert_int_equal(op->a[1], 10);
	assert_int_equal(op->handle, loadfile_op(prog, 2)->handle);
}

static void a_local_target_makes_its_clients_directory_and_removes_it_empty(void **state)
{
	const char *dir = fixture_scratch_dir(state, "localdir");
	struct backend_options opts = { 0 };
	char *err = NULL, path[512];
	struct stat st;

	struct backend_target *t = localdir_open(ctx_of(state), dir, &opts, &err);
	assert_non_null(t);
	snprintf(path, sizeof(path), "%s/clients", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(mkdirat(localdir_clients_fd(t), "client1", 0755), 0);
	int fd = openat(localdir_clients_fd(t), "client1/kept", O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(localdir_close(t), 0);		/* not empty: left, no error */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(unlinkat(localdir_clients_fd(t), "client1/kept", 0), 0);
	assert_int_equal(localdir_close(t), 0);		/* client1 empty: both go */
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
	talloc_free(t);
}

/* The clients' cleanup leaves their directories empty; the close removes
 * those, and only what rmdir would: not a directory that holds something,
 * a file or a symbolic link (to a directory, even an empty one). */
static void a_local_target_close_removes_the_empty_client_directories(void **state)
{
	const char *dir = fixture_scratch_dir(state, "localdir");
	struct backend_options opts = { 0 };
	char *err = NULL, outside[512];
	struct stat st;

	snprintf(outside, sizeof(outside), "%s/outside", dir);	/* empty */
	assert_int_equal(mkdir(outside, 0755), 0);
	struct backend_target *t = localdir_open(ctx_of(state), dir, &opts, &err);
	assert_non_null(t);
	int cfd = localdir_clients_fd(t);
	assert_int_equal(mkdirat(cfd, "client1", 0755), 0);
	assert_int_equal(mkdirat(cfd, "client2", 0755), 0);
	assert_int_equal(mkdirat(cfd, "client2/sub", 0755), 0);
	int fd = openat(cfd, "client3", O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlinkat(outside, cfd, "client4"), 0);
	assert_int_equal(localdir_close(t), 0);
	assert_int_equal(fstatat(cfd, "client1", &st, AT_SYMLINK_NOFOLLOW), -1);
	assert_int_equal(fstatat(cfd, "client2/sub", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(fstatat(cfd, "client3", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(fstatat(cfd, "client4", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(outside, &st), 0);	/* never followed */
	talloc_free(t);
}

static void a_symbolic_link_at_clients_is_refused(void **state)
{
	const char *dir = fixture_scratch_dir(state, "localdir");
	struct backend_options opts = { 0 };
	char *err = NULL, path[512], elsewhere[512];

	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", dir);
	snprintf(path, sizeof(path), "%s/clients", dir);
	assert_int_equal(mkdir(elsewhere, 0755), 0);
	assert_int_equal(symlink(elsewhere, path), 0);
	assert_null(localdir_open(ctx_of(state), dir, &opts, &err));
	char *want = talloc_asprintf(ctx_of(state),
				     "cannot use '%s/clients': not a directory (a symbolic link?)",
				     dir);
	assert_string_equal(err, want);
}

static void a_missing_directory_is_named_in_the_error(void **state)
{
	const char *dir = fixture_scratch_dir(state, "localdir");
	struct backend_options opts = { 0 };
	char *err = NULL;
	char *missing = talloc_asprintf(ctx_of(state), "%s/nope", dir);

	assert_null(localdir_open(ctx_of(state), missing, &opts, &err));
	assert_string_equal(err, talloc_asprintf(ctx_of(state),
						 "cannot use directory '%s': %s", missing,
						 strerror(ENOENT)));
}

/* ---- the backends' own options ---- */

/* Parse argv (after a program name) with the set's table; popt's value:
 * -1 when every word was an option of it. */
static int parse_into(struct backend_optset *set, const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	poptContext pc = poptGetContext("test", argc, argv, backend_optset_popt(set), 0);
	int rc;
	while ((rc = poptGetNextOpt(pc)) > 0)
		;
	poptFreeContext(pc);
	return rc;
}

/* The field of option `name` in b's struct `own`, found by its row. */
static const void *field_of(const struct backend *b, const void *own, const char *name)
{
	for (const struct backend_opt *o = b->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return (const char *)own + o->offset;
	fail_msg("the %s backend has no option --%s", b->name, name);
	return NULL;
}

static void each_command_line_parses_into_structs_of_its_own(void **state)
{
	const struct backend *sockio = backend_by_name("sockio"), *block = backend_by_name("block");
	struct backend_optset *a = backend_optset_new(ctx_of(state));
	struct backend_optset *b = backend_optset_new(ctx_of(state));
	const char *argv_a[] = { "dbench", "--port=7100", "--timeout", "5", NULL };
	const char *argv_b[] = { "dbench", "--block=/dev/x", NULL };

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(parse_into(a, argv_a), -1);
	assert_int_equal(parse_into(b, argv_b), -1);
	/* a's values are a's alone; b's sockio is at its defaults */
	assert_int_equal(*(const int *)field_of(sockio, backend_optset_own(a, sockio), "port"), 7100);
	assert_int_equal(*(const int *)field_of(sockio, backend_optset_own(a, sockio), "timeout"), 5);
	assert_int_equal(*(const int *)field_of(sockio, backend_optset_own(b, sockio), "port"), 7003);
	assert_int_equal(*(const int *)field_of(sockio, backend_optset_own(b, sockio), "timeout"), 30);
	assert_null(*(char *const *)field_of(block, backend_optset_own(a, block), "block"));
	assert_string_equal(*(char *const *)field_of(block, backend_optset_own(b, block), "block"),
			    "/dev/x");
	/* a backend without options has no struct */
	assert_null(backend_optset_own(a, &fileio_backend));
}

static void an_option_of_another_backend_is_named_with_its_owner(void **state)
{
	struct backend_optset *set = backend_optset_new(ctx_of(state));
	const char *argv[] = { "dbench", "--block=/dev/x", NULL };
	const char *owner = NULL;

	assert_int_equal(parse_into(set, argv), -1);
	assert_string_equal(backend_optset_foreign(set, &fileio_backend, &owner), "block");
	assert_string_equal(owner, "block");
	assert_null(backend_optset_foreign(set, &block_backend, &owner));
}

static void a_number_out_of_its_rows_range_is_said_by_name(void **state)
{
	const struct backend *sockio = backend_by_name("sockio");
	struct backend_optset *set = backend_optset_new(ctx_of(state));
	const char *in_range[] = { "dbench", "--timeout=3600", NULL };
	const char *port_0[] = { "dbench", "--port=0", NULL };

	assert_int_equal(parse_into(set, in_range), -1);
	assert_null(backend_check_options(ctx_of(state), sockio, backend_optset_own(set, sockio)));
	assert_int_equal(parse_into(set, port_0), -1);
	assert_string_equal(backend_check_options(ctx_of(state), sockio,
						  backend_optset_own(set, sockio)),
			    "--port must be 1 to 65535");
}

static void every_backends_options_are_whole_and_in_range(void **state)
{
	struct backend_optset *set = backend_optset_new(ctx_of(state));

	for (size_t i = 0; backend_nth(i); i++) {
		const struct backend *b = backend_nth(i);
		assert_true(!b->options == !b->options_size);
		for (const struct backend_opt *o = b->options; o && o->name; o++) {
			assert_non_null(o->help);
			assert_non_null(o->arg);
			assert_true(o->offset + (o->type == BACKEND_OPT_INT ? sizeof(int)
									   : sizeof(char *))
				    <= b->options_size);
			if (o->type == BACKEND_OPT_INT)
				assert_true(o->min <= o->def && o->def <= o->max);
		}
		/* at their defaults, every backend's options pass their check */
		assert_null(backend_check_options(ctx_of(state), b, backend_optset_own(set, b)));
	}
}

static void the_default_backends_are_said_by_their_flags(void **state)
{
	(void)state;
	assert_ptr_equal(backend_default(false), &fileio_backend);
	assert_string_equal(backend_default(true)->name, "sockio");
	assert_true(backend_by_name("null")->performs_nothing);
	assert_false(fileio_backend.performs_nothing);
}

static void a_target_of_an_option_is_that_options_value_alone(void **state)
{
	const char *dirs[] = { "/tmp", NULL };
	char *err = NULL;
	const char **list = backend_one_target(ctx_of(state), "block", NULL, "block", "/dev/x",
					       "PATH", &err);

	assert_non_null(list);
	assert_string_equal(list[0], "/dev/x");
	assert_null(list[1]);
	assert_null(backend_one_target(ctx_of(state), "block", dirs, "block", "/dev/x", "PATH",
				       &err));
	assert_string_equal(err, "--backend=block takes its target from --block, not -D");
	assert_null(backend_one_target(ctx_of(state), "block", NULL, "block", "", "PATH (a disk)",
				       &err));
	assert_string_equal(err, "--backend=block needs --block=PATH (a disk)");
}

static void a_failures_detail_is_handed_over_once(void **state)
{
	bool has = true;

	(void)state;
	assert_string_equal(backend_detail_taken(&has, "cannot remove f"), "cannot remove f");
	assert_false(has);
	assert_null(backend_detail_taken(&has, "cannot remove f"));
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(the_names_of_every_backend_make_one_phrase),
		T(ops_without_a_function_are_reported_by_type),
		T(a_backends_own_check_adds_to_the_report),
		T(fileio_expresses_dbench4s_operations_and_null_every_one),
		T(dispositions_open_with_their_nt_meaning),
		T(smb5_open_flags_are_5_0s_bits),
		T(an_offset_expression_becomes_the_ops_offset),
		T(a_local_target_makes_its_clients_directory_and_removes_it_empty),
		T(a_local_target_close_removes_the_empty_client_directories),
		T(a_symbolic_link_at_clients_is_refused),
		T(a_missing_directory_is_named_in_the_error),
		T(each_command_line_parses_into_structs_of_its_own),
		T(an_option_of_another_backend_is_named_with_its_owner),
		T(a_number_out_of_its_rows_range_is_said_by_name),
		T(every_backends_options_are_whole_and_in_range),
		T(the_default_backends_are_said_by_their_flags),
		T(a_target_of_an_option_is_that_options_value_alone),
		T(a_failures_detail_is_handed_over_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
