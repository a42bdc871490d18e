/*
 * tracer.h - what `dbench record` traces a program with: strace (runner.h,
 * its files read by trace_reader.h) or the kernel's BPF (tracer_bpf.c,
 * with its module record_bpf.so), behind one face, so that both feed the
 * one translator (translate.h) the same calls (struct sc_call, as
 * strace prints them) in the order they started.
 *
 * A tracer runs a job (a command to start, or running processes to
 * attach to), then hands out the calls it saw, and says what it lost.
 * Knows nothing of what the calls mean.
 */
#ifndef RECORD_TRACER_H
#define RECORD_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "record/strace_line.h"

struct tracer_job {
	/* record -- CMD: the program found on PATH, and argv */
	const char *path;
	char *const *argv;

	/* record -p: the processes (thread group ids), for how long (0: until
	 * SIGINT, SIGTERM or SIGHUP) */
	const int *pids;
	size_t npids;
	double duration;

	const char *scratch;	/* a directory of the recorder's own */
	size_t ring_bytes;	/* bpf: the ring buffer's size (0: the default) */
	unsigned traced_max;	/* bpf: the processes traced at once (0: the default;
				 * DBENCH_TEST_BPF_TRACED_MAX, a testing aid) */

	/* record -p: called once tracing has begun and before any call is
	 * handed out, with the kernel's monotonic time of that moment */
	int (*attached)(void *ctx, int64_t now_ns, char **err);
	void *ctx;
};

/* What a tracer could not see, for the `# lost:` line and the summary. */
struct tracer_loss {
	uint64_t dropped;	/* events the ring buffer had no room for */
	uint64_t calls_lost;	/* calls whose entry was dropped */
	uint64_t str_cut;	/* strings cut at the tracer's bound */
	uint64_t iov_cut;	/* vectors whose total is of their first iovecs only */
	uint64_t unpaired;	/* exits whose entry never came (begun before the recording) */
	uint64_t untraced;	/* processes started by traced ones and not traced
				 * (the tracer's table of them was full) */
	uint64_t stateless;	/* calls of traced threads not traced (the tracer
				 * could not keep the thread's state) */
};

/* The calls of a finished job, in start order. */
struct tracer_calls {
	void *impl;
	/* 1 with the next call in *c (strings on mem_ctx), 0 at the end, -1 with *err */
	int (*next)(void *impl, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err);
	/* where the last call came from, for messages */
	char *(*where)(TALLOC_CTX *mem_ctx, const void *impl);
	/* the same as a trace file's name (valid while impl lives) and a
	 * line, kept with each row; may be NULL (the rows then name the
	 * call's number), or false for a call of no file */
	bool (*origin)(const void *impl, const char **file, uint64_t *line);
	/* strace's files: lines not strace's, -f halves never rejoined */
	uint64_t (*bad_lines)(const void *impl);
	uint64_t (*unjoined)(const void *impl);
};

struct tracer_result {
	int status;		/* record -- CMD: the command's exit status, as a shell gives it */
	int stopped_by;		/* record -p: the signal that ended it, or 0 */
	struct tracer_loss loss;
	struct tracer_calls calls;
};

struct tracer {
	const char *name;	/* "strace", "bpf" */
	bool can_attach;	/* record -p */
	/* Whether it can trace here: 0, or -1 with *why on mem_ctx. */
	int (*check)(TALLOC_CTX *mem_ctx, char **why);
	/* Run the job: 0 with *out (its calls on mem_ctx), or -1 with *err
	 * (nothing was recorded). */
	int (*run)(TALLOC_CTX *mem_ctx, const struct tracer_job *job, struct tracer_result *out,
		   char **err);
};

extern const struct tracer tracer_strace;
extern const struct tracer tracer_bpf;

/* The calls of strace's files (record's -ff set, or the traces convert
 * reads): false with *err (on mem_ctx) when one cannot be opened. */
bool tracer_strace_files(TALLOC_CTX *mem_ctx, const char *const *files, size_t n,
			 struct tracer_calls *out, char **err);

/* Every file of the -ff set BASE.TID in dir (TID digits; NULL-ended, *n
 * of them), on mem_ctx; NULL when dir cannot be read. */
const char **tracer_strace_set(TALLOC_CTX *mem_ctx, const char *dir, const char *base, size_t *n);

/* Whether this process may load BPF tracing programs: root, or CAP_BPF
 * with CAP_PERFMON (or CAP_SYS_ADMIN).  false with *why. */
bool tracer_bpf_privileged(TALLOC_CTX *mem_ctx, char **why);

#endif
