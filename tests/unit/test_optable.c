/*
 * test_optable.c - the table of operations (include/ops.def, ops.h) holds
 * together: each dialect's rows are one run whose ends the FIRST and
 * LAST names give, every row is found by its dialect's lookup under its
 * name and alias, the flags a row carries are of its dialect, and what
 * the recorder writes of each call strace prints is a row the compiler
 * takes: the call's name is the row's name or alias, and the arguments
 * its shape writes are those of the row's signature.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ops.h"

/* The flags that only a call of the system-call dialect may carry. */
#define SYSCALL_FLAGS (OPD_CREAT | OPD_DUPS | OPD_MAKES | OPD_REMOVES | OPD_RENAMES | \
		       OPD_LINKS | OPD_DIR | OPD_SYMLINK | OPD_READS | OPD_STATS | OPD_RESIZES | \
		       OPD_MOVES_OFFSET | OPD_SEEKS | OPD_COPIES | OPD_OUT_FIRST | OPD_LISTS | \
		       OPD_CHDIR | OPD_READLINK | OPD_LOCK | OPD_UNTIMED)

/* The run of rows of dialect d: first and last, and that none between is
 * of another dialect. */
static void run_of(int d, int *first, int *last)
{
	*first = -1;
	for (int t = 0; t < OP_COUNT; t++) {
		if (op_table[t].dialect != d)
			continue;
		if (*first >= 0)
			assert_int_equal(*last, t - 1);	/* one run */
		if (*first < 0)
			*first = t;
		*last = t;
	}
	assert_true(*first >= 0);
}

static void test_each_dialect_is_one_run_between_its_first_and_last(void **state)
{
	static const struct { int dialect, first, last; } ends[] = {
		{ OP_DIALECT_SYSCALL, OP_SYS_FIRST, OP_SYS_LAST },
		{ OP_DIALECT_SMB5, OP_SMB_FIRST, OP_SMB_LAST },
		{ OP_DIALECT_BLOCK, OP_BLOCK_FIRST, OP_BLOCK_LAST },
		{ OP_DIALECT_SCSI, OP_SCSI_FIRST, OP_SCSI_LAST },
		{ OP_DIALECT_DBENCH4, -1, -1 },
		{ OP_DIALECT_NFS, -1, -1 },
	};
	int first, last;

	(void)state;
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		run_of(ends[i].dialect, &first, &last);
		if (ends[i].first >= 0) {
			assert_int_equal(first, ends[i].first);
			assert_int_equal(last, ends[i].last);
		}
	}
}

/* Row t under `name` by its dialect's lookup. */
static int lookup(int t, const char *name)
{
	switch (op_table[t].dialect) {
	case OP_DIALECT_DBENCH4:
	case OP_DIALECT_NFS:
		return op_lookup(name, strlen(name));
	case OP_DIALECT_SYSCALL:
		return op_lookup_syscall(name, strlen(name));
	case OP_DIALECT_SMB5:
		return op_lookup_smb(name, strlen(name));
	default:
		return op_lookup_block(name, strlen(name));
	}
}

static void test_every_row_is_found_by_its_name_and_alias(void **state)
{
	(void)state;
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_desc *d = &op_table[t];
		assert_non_null(d->name);
		assert_int_equal(lookup(t, d->name), t);
		if (d->alias)
			assert_int_equal(lookup(t, d->alias), t);
		for (int u = 0; u < t; u++)	/* no two rows share a name in a report */
			assert_string_not_equal(op_table[u].name, d->name);
	}
}

static void test_a_rows_flags_and_arguments_are_of_its_dialect(void **state)
{
	(void)state;
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_desc *d = &op_table[t];
		if (d->dialect != OP_DIALECT_SYSCALL)
			assert_int_equal(d->flags & SYSCALL_FLAGS, 0);
		else
			assert_int_equal(d->nargs, 0);	/* syscalls.c's signature says */
		for (int i = 0; i < d->nargs; i++)	/* a handle: one it opens or names */
			assert_true(d->args[i] != ARG_HANDLE || (d->flags & (OPD_HANDLE | OPD_OPENS)));
		assert_true(d->bytes == BYTES_NONE || d->dialect == OP_DIALECT_SYSCALL ||
			    d->args[d->size_arg] == ARG_SIZE);
	}
}

/* ops.def's views of the system calls: their signatures, and the calls
 * strace prints with the shapes the recorder reads. */
enum { OP_SYS_NONE = -1 };

static const char *const sigs[OP_COUNT] = {
#define SYSCALL(id, name, alias, sig, result, bytes, flags) [OP_SYS_##id] = sig,
#include "ops.def"
};

static const struct { const char *call; int op; const char *shape; } spellings[] = {
#define STRACE(call, id, shape, bpf) { #call, OP_SYS_##id, shape },
#define STRACE_UNASKED(call, id, shape) { #call, OP_SYS_##id, shape },
#include "ops.def"
};

static void test_every_call_strace_prints_is_written_as_its_row(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		const char *call = spellings[i].call;
		if (spellings[i].op < 0 || !spellings[i].shape)
			continue;	/* no row, or taken apart by the recorder */
		assert_int_equal(op_lookup_syscall(call, strlen(call)), spellings[i].op);
	}
}

/* The kind of an argument the recorder writes (by its shape's letter) or
 * the compiler reads (by its signature's): a path or string, a
 * descriptor, a new descriptor, a number. */
static char kind_of(char letter, bool shape)
{
	const char *paths = shape ? "PS" : "PQTX", *fds = shape ? "F" : "DE";

	if (strchr(paths, letter))
		return 'p';
	if (strchr(fds, letter))
		return 'd';
	return letter == 'G' ? 'g' : 'n';
}

static void test_what_the_recorder_writes_fits_the_rows_signature(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		const char *shape = spellings[i].shape, *sig;
		if (spellings[i].op < 0 || !shape)
			continue;
		sig = sigs[spellings[i].op];
		assert_non_null(sig);
		for (; *shape; shape++) {
			if (*shape == 'D' || *shape == '_')
				continue;	/* not written */
			assert_true(*sig);
			assert_int_equal(kind_of(*shape, true), kind_of(*sig++, false));
		}
		assert_int_equal(*sig, '\0');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_dialect_is_one_run_between_its_first_and_last),
		cmocka_unit_test(test_every_row_is_found_by_its_name_and_alias),
		cmocka_unit_test(test_a_rows_flags_and_arguments_are_of_its_dialect),
		cmocka_unit_test(test_every_call_strace_prints_is_written_as_its_row),
		cmocka_unit_test(test_what_the_recorder_writes_fits_the_rows_signature),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
