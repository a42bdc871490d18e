/*
 * tracer_bpf.c - the kernel's BPF as a tracer (tracer.h): the binary's
 * half of the bpf tracer.
 *
 * Owns whether the bpf tracer can run here (built, privileged, its
 * module loaded and of this binary's ABI, its programs loadable), the
 * job handed to the module (bpf/module.h) and the events it brings,
 * paired and sorted (bpf_events.h) into calls printed as strace would
 * (bpf_calls.h).  Knows nothing of libbpf: the module does.
 */
#include <stdio.h>
#include <string.h>

#include "modload.h"
#include "record/bpf/module.h"
#include "record/bpf_calls.h"
#include "record/bpf_events.h"
#include "record/tracer.h"

/* The ring buffer's default size.  Its pages are allocated, zeroed and
 * mapped (twice) at every recording, unmapped and freed at its end: at
 * 32 MiB that was 40 % of the CPU a recording of `touch` cost.  The
 * recorder is woken at a quarter of it, so that 8 MiB leaves 6 MiB to
 * fill before a call is lost: nothing was, even with 256 KiB, recording
 * 200,000 calls of two threads or cp -a and tar c of 3,000 files at a
 * load average of 20 on 2 CPUs. */
#define DEFAULT_RING_BYTES (8u << 20)

bool tracer_bpf_privileged(TALLOC_CTX *mem_ctx, char **why)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long eff = 0;
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	if (f)
		fclose(f);
	const unsigned long long sys_admin = 1ull << 21, perfmon = 1ull << 38, bpf = 1ull << 39;
	if (found && ((eff & sys_admin) || ((eff & perfmon) && (eff & bpf))))
		return true;
	*why = talloc_strdup(mem_ctx, "the bpf tracer needs root, or CAP_BPF with CAP_PERFMON");
	return false;
}

/* The module, loaded once and checked against this binary's ABI. */
static const struct record_bpf_module *module(TALLOC_CTX *mem_ctx, char **why)
{
#ifdef DBENCH_BPF_MISSING
	*why = talloc_asprintf(mem_ctx, "this dbench was built without the bpf tracer (%s)", DBENCH_BPF_MISSING);
	return NULL;
#else
	static const struct record_bpf_module *m;
	char *err = NULL;

	if (m)
		return m;
	const struct record_bpf_module *got = modload_symbol(mem_ctx, "record_bpf", "record_bpf_module",
							     sizeof(*got), &err);
	if (!got) {
		*why = talloc_asprintf(mem_ctx, "the bpf tracer's module cannot be loaded: %s", err);
		return NULL;
	}
	if (got->abi != RECORD_BPF_ABI) {
		*why = talloc_asprintf(mem_ctx, "the bpf tracer's module is of another dbench (ABI %u, this one's %u)",
				       got->abi, RECORD_BPF_ABI);
		return NULL;
	}
	return m = got;
#endif
}

/* Built, privileged, its module loaded: whether its programs load here
 * is known when they are (run). */
static int bpf_check(TALLOC_CTX *mem_ctx, char **why)
{
	return tracer_bpf_privileged(mem_ctx, why) && module(mem_ctx, why) ? 0 : -1;
}

/* What the module calls back: the events and the moment of attaching. */
struct bpf_job_ctx {
	struct bpf_events *ev;
	const struct tracer_job *job;
};

static int sink(void *ctx, const void *data, size_t size, char **err)
{
	struct bpf_job_ctx *c = ctx;

	return bpf_events_take(c->ev, data, size, err);
}

static int attached(void *ctx, int64_t before_ns, char **err)
{
	struct bpf_job_ctx *c = ctx;

	return c->job->attached ? c->job->attached(c->job->ctx, before_ns, err) : 0;
}

static int next(void *impl, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err)
{
	return bpf_events_next(impl, mem_ctx, c, err);
}

static char *where(TALLOC_CTX *mem_ctx, const void *impl)
{
	return talloc_asprintf(mem_ctx, "call %llu (in start order) of the bpf tracer's",
			       (unsigned long long)bpf_events_handed(impl));
}

static uint64_t none(const void *impl)
{
	(void)impl;
	return 0;
}

static int bpf_run(TALLOC_CTX *mem_ctx, const struct tracer_job *job, struct tracer_result *out,
		   char **err)
{
	const struct record_bpf_module *m = module(mem_ctx, err);
	struct rec_want *wanted = talloc_zero_array(mem_ctx, struct rec_want, REC_NR_MAX);
	struct bpf_job_ctx ctx = { .job = job };

	memset(out, 0, sizeof(*out));
	out->status = -1;
	if (!m || !wanted || bpf_calls_wanted(mem_ctx, wanted, REC_NR_MAX, err) < 0 ||
	    !(ctx.ev = bpf_events_new(mem_ctx, job->scratch, err)))
		return -1;
	struct record_bpf_job bj = {
		.wanted = wanted, .ring_bytes = job->ring_bytes ? job->ring_bytes : DEFAULT_RING_BYTES,
		.traced_max = job->traced_max,
		.path = job->path, .argv = job->argv, .pids = job->pids, .npids = job->npids,
		.duration = job->duration, .sink = sink, .attached = attached, .ctx = &ctx,
	};
	struct record_bpf_result r;
	if (m->run(mem_ctx, &bj, &r, err) != 0)
		return -1;
	out->status = r.status;
	out->stopped_by = r.stopped_by;
	if (bpf_events_end(ctx.ev, err) != 0)
		return -1;
	out->loss = (struct tracer_loss){ .dropped = r.counts[RC_DROPPED],
					  .calls_lost = r.counts[RC_CALLS_LOST],
					  .str_cut = r.counts[RC_STR_CUT],
					  .iov_cut = r.counts[RC_IOV_CUT],
					  .untraced = r.counts[RC_UNTRACED],
					  .stateless = r.counts[RC_NO_STATE],
					  .unpaired = bpf_events_unpaired(ctx.ev) };
	out->calls = (struct tracer_calls){ .impl = ctx.ev, .next = next, .where = where,
					    .bad_lines = none, .unjoined = none };
	return 0;
}

const struct tracer tracer_bpf = {
	.name = "bpf",
	.can_attach = true,
	.check = bpf_check,
	.run = bpf_run,
};
