/*
 * null.c - the "null" backend: replays the program without a single
 * system call.  Every operation has the outcome the loadfile expects, so a
 * run measures the generator's own cost; the statistics still see every
 * operation.
 *
 * For tests, DBENCH_NULL_DELAY_US may hold a comma-separated list of
 * latencies in microseconds: each client's operations take them in turn,
 * spinning on the clock (no sleep, so the latency is exact to the clock's
 * resolution).  Percentiles of a run can then be checked against a known
 * distribution end to end.  DBENCH_NULL_UNSUPPORTED may hold a comma-
 * separated list of operation names the backend then treats as beyond it
 * (BACKEND_NOT_SUPPORTED), so that the counting and reporting of such
 * operations can be tested without a network backend.
 *
 * A call of the system-call dialect returns exactly what the recording
 * says it returned: the replay of a recording over null has no outcome
 * difference, and measures the replay's own cost (its waits between
 * streams included).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "localdir.h"
#include "opclock.h"

#define NULL_MAX_DELAYS 1024

struct backend_client {
	uint64_t delay_ns[NULL_MAX_DELAYS];
	unsigned ndelays;
	unsigned next;
	const struct program *prog;
	uint64_t unsupported[(OP_COUNT + 63) / 64];	/* a bit an op type, for
							 * DBENCH_NULL_UNSUPPORTED */
};

/* Parse DBENCH_NULL_DELAY_US; false when it is malformed. */
static bool parse_delays(struct backend_client *bc, const char *s)
{
	while (s && *s) {
		char *end;
		unsigned long long us = strtoull(s, &end, 10);
		if (end == s || (*end && *end != ',') || bc->ndelays == NULL_MAX_DELAYS ||
		    us > 100000000ull)
			return false;
		bc->delay_ns[bc->ndelays++] = us * 1000;
		s = *end ? end + 1 : end;
	}
	return true;
}

/* Parse DBENCH_NULL_UNSUPPORTED; false when a name is no operation's. */
static bool parse_unsupported(struct backend_client *bc, const char *s)
{
	while (s && *s) {
		size_t len = strcspn(s, ",");
		int t = op_lookup(s, len);
		if (t < 0)
			t = op_lookup_syscall(s, len);
		if (t < 0)
			return false;
		bc->unsupported[t / 64] |= UINT64_C(1) << t % 64;
		s += len + (s[len] == ',');
	}
	return true;
}

static struct backend_client *null_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					      unsigned id, const struct program *prog,
					      const struct backend_options *opts,
					      struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);

	(void)t, (void)id, (void)opts, (void)verify;	/* it reads and writes nothing */
	if (!bc) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	bc->prog = prog;
	if (!parse_delays(bc, getenv("DBENCH_NULL_DELAY_US"))) {
		*err = talloc_strdup(mem_ctx, "DBENCH_NULL_DELAY_US is not a list of"
				     " microsecond figures (at most 1024, each up to 100 s)");
		errno = EINVAL;
		talloc_free(bc);
		return NULL;
	}
	if (!parse_unsupported(bc, getenv("DBENCH_NULL_UNSUPPORTED"))) {
		*err = talloc_strdup(mem_ctx, "DBENCH_NULL_UNSUPPORTED is not a list of"
				     " operation names");
		errno = EINVAL;
		talloc_free(bc);
		return NULL;
	}
	return bc;
}

static int null_op(struct backend_client *bc, const struct op *op)
{
	if (__builtin_expect(bc->unsupported[op->type / 64] >> op->type % 64 & 1, 0))
		return BACKEND_NOT_SUPPORTED;
	if (bc->ndelays) {
		uint64_t until = monotonic_ns() + bc->delay_ns[bc->next++ % bc->ndelays];
		while (monotonic_ns() < until)
			;
	}
	if (op->flags & OPF_SYSCALL) {	/* exactly the recorded outcome */
		int64_t r = loadfile_call(bc->prog, op)->result;
		return r < 0 ? (int)-r : 0;
	}
	return op->status == NT_OK ? 0 : ENOENT;
}

static void null_pass_end(struct backend_client *bc)
{
	(void)bc;
}

static int null_cleanup(struct backend_client *bc)
{
	(void)bc;
	return 0;
}

static size_t null_client_mem(const struct program *prog, const struct backend_options *opts)
{
	(void)prog;
	(void)opts;
	return sizeof(struct backend_client) + BACKEND_ALLOC_OVERHEAD;
}

const struct backend null_backend = {
	.name = "null",
	.summary = "no I/O at all: the generator's own cost",
	.no_local_writes = "writes nothing",
	.performs_nothing = true,
	.target_open = localdir_open,	/* DIR/clients is made, as for fileio */
	.target_close = localdir_close,
	.local_clients_fd = localdir_clients_fd,
	.client_mem = null_client_mem,
	.client_new = null_client_new,
	.op = { [0 ... OP_COUNT - 1] = null_op },
	.pass_end = null_pass_end,
	.cleanup = null_cleanup,
};
