/*
 * translate.h - strace's calls, one at a time, into the rows of the
 * system-call dialect (doc/SYSCALLS.md).
 *
 * For each call it resolves every path whole (against the thread's
 * working directory or the directory descriptor's path, lexically), keeps
 * the rows of calls beneath the roots and counts the rest by why they
 * were left out, and keeps the descriptor model (fdmodel.h) up to date:
 * opens, closes, dups, close-on-exec, clone, execve, chdir.  The thread
 * of the first call is stream 1, working in rec->cwd0.
 *
 * Knows nothing of strace's files or of how the loadfile is written.
 */
#ifndef RECORD_TRANSLATE_H
#define RECORD_TRANSLATE_H

#include <talloc.h>

#include "record/recording.h"
#include "record/strace_line.h"

struct translate;

/* A translation into rec, whose roots, base and cwd0 are set. */
struct translate *translate_new(TALLOC_CTX *mem_ctx, struct recording *rec);

/* Infer the initial state as the calls go: convert, with no walk; -p
 * (walked), to reconcile it with the walk made before the attach. */
struct infer;
void translate_infer(struct translate *tr, struct infer *inf, bool walked);

/* Take one call (in start order).  Returns 0; -1 when memory ran out;
 * or 1 for a call no loadfile can hold (a descriptor or a number beyond
 * the dialect's), translate_why() saying why: the trace is refused. */
int translate_call(struct translate *tr, const struct sc_call *c);

/* Why the last call was refused (translate_call() returned 1). */
const char *translate_why(const struct translate *tr);

/* Where the next call given to translate_call() came from: the trace's
 * file (an index into rec->sources, from 1) and line, kept in its rows
 * (row.src) for messages.  Without it a row names the call's number. */
void translate_origin(struct translate *tr, uint32_t src, uint32_t line);

/* The end of the calls: what still waits is taken.  0, -1 or 1 as
 * translate_call() returns. */
int translate_finish(struct translate *tr);

/* The calls `dbench record` asks strace to trace (strace's -e trace=
 * list, each name with '?' so that one this machine lacks is no error). */
const char *translate_trace_set(TALLOC_CTX *mem_ctx);

/* Those of them strace is to print raw (its -e raw= list: each argument
 * a number, the descriptor without -y's name): read, write, pread64 and
 * pwrite64, whose buffer is no part of the row, so that a trace holds
 * none of the bytes the command read or wrote.  Their numbers in hex,
 * their results, failures and the descriptor's path (fdmodel.h, from
 * its opening) are read as they would be decoded. */
const char *translate_raw_set(TALLOC_CTX *mem_ctx);

/* The most descriptors beneath the roots open at once. */
unsigned translate_max_open(const struct translate *tr);

#endif
