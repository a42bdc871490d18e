/*
 * attach.h - what `dbench record -p PID` knows of processes that were
 * running before the recording began, as calls the translator takes.
 *
 * A recording of a command starts with the command: every descriptor it
 * uses was opened in the trace.  Processes already running hold
 * descriptors opened before, and have threads started before; a replay
 * needs them.  At the moment tracing begins this module reads, for each
 * process, its threads (/proc/PID/task), its working directory
 * (/proc/PID/cwd) and its descriptors (/proc/PID/fd: the path; fdinfo:
 * the flags and the offset), and makes of them the calls that would
 * have made that state, all at that moment: a process of the recorder's
 * own (stream 1, which does nothing else) forks each process named; the
 * process goes to its directory (chdir, when it is not the recorder's),
 * opens each descriptor beneath the roots with its flags (openat, the
 * offset set by lseek) and starts its other threads (clone with
 * CLONE_THREAD).  What cannot be known: anything done before (the
 * files' history, descriptors on files since removed, closed or
 * outside the roots), which are left out as any call outside the roots.
 * The processes are only read, never stopped.
 *
 * Knows nothing of the tracer or of how the calls are translated.
 */
#ifndef RECORD_ATTACH_H
#define RECORD_ATTACH_H

#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "record/recording.h"
#include "record/strace_line.h"
#include "record/tracer.h"

/* The thread id of the recorder's own process in the calls (above any
 * real thread id: pid_max is at most 2^22). */
#define ATTACH_TID (1 << 30)

struct attach;

/* The processes to attach to, checked: each a running process the
 * recorder may read.  NULL with *err naming the first that is not. */
struct attach *attach_new(TALLOC_CTX *mem_ctx, const struct recording *rec, const int *pids,
			  size_t npids, char **err);

/* Read the processes now, at monotonic time now_ns (tracing has just
 * begun): 0, or -1 with *err (a process gone is no error: it made no
 * call). */
int attach_scan(struct attach *a, int64_t now_ns, char **err);

/* The calls of the scan, then those of `then`. */
struct tracer_calls attach_calls(struct attach *a, struct tracer_calls then);

/* "1234 (nginx), 1240 (python3)": the processes, for the recording's
 * comment. */
char *attach_describe(TALLOC_CTX *mem_ctx, const struct attach *a);

/* Descriptors held beneath the roots at the scan, and processes read. */
size_t attach_fds(const struct attach *a);

#endif
