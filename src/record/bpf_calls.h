/*
 * bpf_calls.h - the bpf tracer's calls as the translator takes them.
 *
 * The kernel side (bpf/record.bpf.c) sends a call's raw registers, the
 * strings it named and what its structures held; the translator
 * (translate.h) takes calls as strace prints them (struct sc_call: each
 * argument's text, flags by name, strings quoted).  This module owns
 * the table between the two: for each system call the translator asks
 * for (translate_trace_set()), its number on this machine, what the
 * kernel side must read at its entry (struct rec_want), and how each
 * argument is printed.  It knows nothing of libbpf, of the ring buffer
 * or of the order of calls (bpf_events.h).
 */
#ifndef RECORD_BPF_CALLS_H
#define RECORD_BPF_CALLS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "record/bpf/events.h"
#include "record/strace_line.h"

/* One whole call: its entry's event, the result and the end. */
struct bpf_call {
	struct rec_event e;	/* the entry: e.ts is the start */
	uint64_t end_ns;	/* the exit's time, or 0 when it never came */
	int64_t ret;		/* the result (a negative errno for a failure) */
	const char *str[2];	/* the strings, len[k] bytes each (NUL-ended) */
};

/*
 * Fill v[0..n) (indexed by system call number) with what the kernel side
 * must trace and read for every call of the translator's set that this
 * machine has.  Returns the number of calls wanted, or -1 with *err
 * naming a call of the set that the table lacks (both come from
 * include/ops.def's STRACE rows: only a call of the set this build does
 * not know could be missing).
 */
int bpf_calls_wanted(TALLOC_CTX *mem_ctx, struct rec_want *v, size_t n, char **err);

/*
 * The call as strace would have printed it, into *c (its strings on
 * mem_ctx).  A call whose exit never came has no result (c->has_result
 * false: the translator counts it as never returned).  Returns 0, or -1
 * for a number the table does not know or memory running out.
 */
int bpf_call_format(TALLOC_CTX *mem_ctx, const struct bpf_call *b, struct sc_call *c);

/* Open flags as strace prints them ("O_WRONLY|O_APPEND|O_CLOEXEC"), on
 * mem_ctx: for the descriptors `record -p` finds open (attach.h). */
char *bpf_open_flags(TALLOC_CTX *mem_ctx, uint64_t flags);

#endif
