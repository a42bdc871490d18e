/*
 * trace_reader.h - the calls of a trace, every thread's, in the order
 * they started.
 *
 * A trace is strace's output in one of two forms: -ff's file per thread
 * (PREFIX.TID, the thread id from the name) or -f's single file (the
 * thread id at the start of each line, a call interrupted by another
 * thread split into an "<unfinished ...>" and a "<... resumed>" half).
 * The reader merges the files by start time, rejoins the halves, and
 * hands out whole calls in start order.  Files are opened when the
 * merge reaches their first call and closed when read to the end, so a
 * build's thousand short processes hold a handful of descriptors.
 *
 * It keeps counts of what it could not use (lines not strace's, halves
 * never rejoined).  It knows nothing of what the calls do.
 */
#ifndef RECORD_TRACE_READER_H
#define RECORD_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "record/strace_line.h"

struct trace_reader;

/*
 * Open the trace made of `files` (n of them).  On failure NULL, with *err
 * a message on mem_ctx naming the file.
 */
struct trace_reader *trace_open(TALLOC_CTX *mem_ctx, const char *const *files, size_t n,
				char **err);

/*
 * The next call in start order into *c, its strings on mem_ctx: 1, or 0
 * at the end, or -1 with *err set (a file that cannot be read).
 * Lines that are not calls (signals, exits) are passed over.
 */
int trace_next(struct trace_reader *r, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err);

/* What the reader passed over: lines that are not strace's, and calls
 * whose second half never came (a thread that ended inside a call). */
uint64_t trace_bad_lines(const struct trace_reader *r);
uint64_t trace_unjoined(const struct trace_reader *r);

/* The file and line of the last call handed out, for messages. */
const char *trace_where(TALLOC_CTX *mem_ctx, const struct trace_reader *r);

/* The same as a file name (the reader's, while it lives) and a line;
 * false before the first call. */
bool trace_origin(const struct trace_reader *r, const char **path, uint64_t *line);

#endif
