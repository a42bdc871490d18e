/*
 * module.h - the bpf tracer's module, record_bpf.so: what the binary
 * asks of it and what it answers.
 *
 * The module holds the BPF program (record.bpf.c, its skeleton) and the
 * libbpf glue: load, attach, the traced processes put in its map, the
 * command started held until then, the ring buffer drained into the
 * binary's sink until the traced processes are gone (record -- CMD) or
 * the time is up or a signal came (record -p), the kernel side's
 * counters read, everything detached.  It is a module so that libbpf
 * and libelf are mapped only by `dbench record --tracer=bpf`, never by
 * a run.  It knows nothing of what the events mean.
 */
#ifndef RECORD_BPF_MODULE_H
#define RECORD_BPF_MODULE_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "record/bpf/events.h"

/* Bumped whenever the structs below change: the binary refuses a module
 * of another. */
#define RECORD_BPF_ABI 3

struct record_bpf_job {
	const struct rec_want *wanted;	/* by system call number, REC_NR_MAX of them */
	size_t ring_bytes;		/* the ring buffer's size: a power of two of pages */
	unsigned traced_max;		/* the thread groups traced at once: 0 for the
					 * program's own bound (a smaller one: a testing aid) */

	/* record -- CMD: the program (found on PATH) and its argv */
	const char *path;
	char *const *argv;

	/* record -p: the thread groups, how long (0: until SIGINT or SIGTERM) */
	const int *pids;
	size_t npids;
	double duration;

	/* every event of the ring buffer: 0, or -1 to stop (with *err set) */
	int (*sink)(void *ctx, const void *data, size_t size, char **err);
	/* record -p: called once the processes are traced, before the first
	 * event, with the monotonic time (bpf_ktime_get_ns()'s clock) taken
	 * just before they were: every event comes after it */
	int (*attached)(void *ctx, int64_t before_ns, char **err);
	void *ctx;
};

struct record_bpf_result {
	int status;		/* record -- CMD: the command's, as a shell gives it */
	int stopped_by;		/* record -p: the signal that ended it, or 0 */
	uint64_t counts[RC_NCOUNTS];	/* the kernel side's, summed over the CPUs */
};

struct record_bpf_module {
	unsigned abi;		/* RECORD_BPF_ABI */
	/* Trace the job: 0, or -1 with *err (nothing was started). */
	int (*run)(TALLOC_CTX *mem_ctx, const struct record_bpf_job *job,
		   struct record_bpf_result *out, char **err);
};

extern const struct record_bpf_module record_bpf_module;

#endif
