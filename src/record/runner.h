/*
 * runner.h - running a command under strace, the way `dbench record`
 * needs it: every process and thread followed, one file per thread
 * (-ff), times (-ttt), durations (-T), descriptors' paths (-y), strings
 * in hex (-xx), and a seccomp-bpf filter (--seccomp-bpf) so that calls
 * outside the traced set do not stop the command at all.
 *
 * Knows nothing of what the trace says.
 */
#ifndef RECORD_RUNNER_H
#define RECORD_RUNNER_H

#include <talloc.h>

/*
 * Whether strace is there and may trace here: not found, yama's
 * ptrace_scope 3, or a probe run refused (no CAP_SYS_PTRACE in a
 * container) give -1 with *err a message on mem_ctx saying which.
 */
int runner_check(TALLOC_CTX *mem_ctx, char **err);

/*
 * The command's program found as execvp would find it: 0 with its path
 * in *path, or -1 with *err saying why not.
 */
int runner_find(TALLOC_CTX *mem_ctx, const char *prog, char **path, char **err);

/*
 * Run argv (argv[0] the program) under strace, tracing the calls of
 * `trace_set` (strace's -e trace= list), those of `raw_set` raw (its
 * -e raw= list: numbers, no buffer's contents), writing PREFIX.TID files.
 * SIGINT and SIGQUIT reach the command (the terminal sends them to both)
 * and the recorder waits; SIGTERM and SIGHUP are passed on to strace.
 * Returns the command's exit status as a shell gives it (128+N for a
 * signal), or -1 with *err when strace could not be started.
 */
int runner_run(TALLOC_CTX *mem_ctx, const char *trace_set, const char *raw_set, char *const argv[],
	       const char *prefix, char **err);

#endif
