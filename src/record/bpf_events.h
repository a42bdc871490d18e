/*
 * bpf_events.h - the bpf tracer's events, paired into calls and handed
 * out in the order they started.
 *
 * The ring buffer brings every thread's events in the order they were
 * made, but some calls are two of them (their entry and their exit) and the
 * threads' calls interleave.  bpf_events_take() pairs a thread's entry
 * with its exit and writes the whole call to a scratch file beside an
 * index of (start, sequence, offset); once the tracing is over,
 * bpf_events_next() hands the calls out by the index sorted, as the
 * translator takes them (the start order, as trace_reader.h gives
 * strace's).  An entry whose exit never came (the thread ended inside
 * the call, or the recording stopped) is a call with no result.
 *
 * Knows nothing of libbpf (the module brings the events) nor of what a
 * call means (bpf_calls.h prints it).
 */
#ifndef RECORD_BPF_EVENTS_H_
#define RECORD_BPF_EVENTS_H_

#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "record/strace_line.h"

struct bpf_events;

/* A collection whose scratch file is made in dir (and removed at once:
 * it lives as long as its descriptor).  NULL with *err on mem_ctx. */
struct bpf_events *bpf_events_new(TALLOC_CTX *mem_ctx, const char *dir, char **err);

/* One event of the ring buffer.  0, or -1 when the scratch file could
 * not be written (*err, on the collection). */
int bpf_events_take(struct bpf_events *ev, const void *data, size_t size, char **err);

/* The tracing is over: the calls still open are taken as never
 * returned, the index sorted.  0, or -1 with *err. */
int bpf_events_end(struct bpf_events *ev, char **err);

/* The next call in start order into *c (its strings on mem_ctx): 1, 0 at
 * the end, or -1 with *err. */
int bpf_events_next(struct bpf_events *ev, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err);

/* Calls taken, and events that were neither (an exit whose entry never
 * came: the recording began inside the call). */
uint64_t bpf_events_calls(const struct bpf_events *ev);
uint64_t bpf_events_unpaired(const struct bpf_events *ev);

/* Calls handed out by bpf_events_next() so far, for messages. */
uint64_t bpf_events_handed(const struct bpf_events *ev);

#endif
