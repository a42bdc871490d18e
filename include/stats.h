/*
 * stats.h - the shared-memory region through which clients report.
 *
 * The driver maps one region (MAP_SHARED | MAP_ANONYMOUS) before it forks.
 * It holds a control block written only by the parent (the phase and the
 * one-second tick the clients read at each operation boundary), a slot for
 * the --probe process (see probe.h), written only by it, and one
 * cache-line aligned slot per client, written only by that client; the
 * parent reads the slots once a second.  No locks: every field has one writer, and
 * fields are 64-bit words read and written with relaxed atomics, so a
 * reader sees each value whole, if perhaps a moment old.
 */
#ifndef DBENCH_STATS_H
#define DBENCH_STATS_H

#include <stdint.h>
#include <talloc.h>

#include "hist.h"
#include "ops.h"
#include "verify.h"

#define STATS_CACHELINE 64
#define STATS_WINDOWS 4		/* per-second latency windows kept, a ring */
#define STATS_PATH_MAX 256	/* a failing path, as far as it fits */
#define STATS_MESSAGE_MAX 512	/* the probe's failure, as far as it fits */

enum phase {
	PHASE_SETUP,		/* clients are preparing; not released yet */
	PHASE_WARMUP,		/* running, not counted */
	PHASE_EXECUTE,		/* running and counted */
	PHASE_STOP,		/* finish the current operation, clean up, exit */
	PHASE_COUNT
};

enum client_state {
	CLIENT_STARTING,	/* forked, setting up */
	CLIENT_READY,		/* set up, waiting for the start */
	CLIENT_RUNNING,
	CLIENT_CLEANUP,		/* removing its files */
	CLIENT_DONE,		/* finished and cleaned up */
	CLIENT_FAILED,		/* stopped on an error, described in the slot */
};

/* Latency and outcome figures of one operation type. */
struct op_stats {
	uint64_t count;
	uint64_t errors;
	uint64_t total_ns;	/* sum of latencies */
	uint64_t max_ns;
};

/* The figures a client keeps for one phase. */
struct phase_stats {
	uint64_t bytes_read;	/* ReadX bytes requested */
	uint64_t bytes_written;	/* WriteX bytes requested */
	uint64_t ops;		/* operations done (loadfile lines) */
	struct op_stats op[OP_COUNT];
	struct verify_tally verify;	/* --verify: checking done by ReadX/WriteX */
};

/* What a client that stopped on an error reports. */
struct client_failure {
	uint32_t line;		/* loadfile line */
	uint32_t op;		/* enum op_type */
	int32_t err;		/* errno, or 0 when it succeeded but should not have */
	uint32_t expected;	/* enum nt_status expected */
	char path[STATS_PATH_MAX];
	char detail[VERIFY_DETAIL_MAX];	/* the backend's word on it ("data
					 * mismatch at ..."), or "" */
};

/* The worst latency of each of the last STATS_WINDOWS one-second ticks, a
 * ring its one writer fills as it goes and the parent's sampler reads. */
struct latency_windows {
	uint64_t tick[STATS_WINDOWS];	/* tick an entry belongs to */
	uint64_t max_ns[STATS_WINDOWS];	/* worst latency that ended in that tick */
};

struct client_slot {
	uint64_t state;				/* enum client_state */
	uint64_t passes;			/* completed loadfile passes */
	uint64_t end_ns;			/* CLOCK_MONOTONIC when it stopped replaying */
	uint64_t cleaned;			/* 1 once it removed its own files */
	uint64_t pause_ns;			/* execute phase: think time and
						 * timestamp waits before operations */
	struct latency_windows win;		/* worst operation of each tick */
	struct phase_stats phase[PHASE_COUNT];	/* by the phase an op started in */
	struct hist hist[OP_COUNT];		/* execute-phase latencies */
	struct client_failure failure;
} __attribute__((aligned(STATS_CACHELINE)));

/* The --probe process: its directory listings, each timed whole. */
struct probe_slot {
	uint64_t state;			/* enum client_state */
	uint64_t entries;		/* names read by the last execute-phase listing */
	uint64_t cleaned;		/* 1 once nothing of its own directory is left */
	struct latency_windows win;	/* longest listing that ended in each tick */
	struct hist hist;		/* listings that started in the execute phase */
	char failure[STATS_MESSAGE_MAX];	/* why, when state is CLIENT_FAILED */
} __attribute__((aligned(STATS_CACHELINE)));

struct stats_control {
	uint64_t phase;		/* enum phase; written by the parent */
	uint64_t tick;		/* seconds since the start; written by the parent */
} __attribute__((aligned(STATS_CACHELINE)));

struct stats_region {
	struct stats_control ctl;
	unsigned nclients;
	struct probe_slot probe;	/* zero and unused without --probe */
	struct client_slot slot[];	/* nclients of them */
};

/* Map a zeroed region for n clients; it is unmapped when mem_ctx is freed.
 * NULL when the mapping fails (errno set). */
struct stats_region *stats_map(TALLOC_CTX *mem_ctx, unsigned nclients);

/* Relaxed loads and stores of shared words. */
static inline uint64_t stats_get(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void stats_set(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline void stats_add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/* Record one operation's outcome in a client's slot (client side). */
void stats_record(struct client_slot *s, enum phase ph, enum op_type op,
		  uint64_t bytes, uint64_t ns, int failed, uint64_t tick);

/* Record one directory listing of `entries` names that took `ns` and
 * started in phase `ph` (probe side). */
void stats_record_listing(struct probe_slot *s, enum phase ph, uint64_t entries,
			  uint64_t ns, uint64_t tick);

/* Note a latency that ended during `tick` in a ring of windows (writer side),
 * and read the worst of a tick back, 0 when the ring holds none for it. */
void stats_window_note(struct latency_windows *w, uint64_t tick, uint64_t ns);
uint64_t stats_window_get(const struct latency_windows *w, uint64_t tick);
/* Add the verification work of one operation (client side). */
void stats_record_verify(struct client_slot *s, enum phase ph, const struct verify_tally *t);

/* ReadX + WriteX bytes of a phase's figures. */
static inline uint64_t stats_bytes(const struct phase_stats *p)
{
	return p->bytes_read + p->bytes_written;
}

/* The worst latency any client saw during `tick`, in ns (parent side). */
uint64_t stats_window_max(const struct stats_region *r, uint64_t tick);

/* Sum of all clients' figures for a phase (parent side). */
void stats_sum(const struct stats_region *r, enum phase ph, struct phase_stats *out);

/*
 * ---- Figures of groups of clients ----
 *
 * What the result is computed from: the execute-phase figures of a group
 * of clients (all of them, or those of one target directory), summed.
 * Plain data of fixed size, so that one group's figures can be added to
 * another's, as the ranks of an MPI run do on their way to rank 0.
 */
struct stats_group {
	uint64_t clients;
	uint64_t pause_ns;		/* think time and timestamp waits */
	struct phase_stats exec;	/* sums; op[].max_ns is the largest */
	struct hist hist[OP_COUNT];	/* merged latencies */
};

/* One client's own execute-phase figures. */
struct stats_client {
	uint64_t bytes;		/* ReadX + WriteX */
	uint64_t ops;
	uint64_t errors;
};

/* Add the clients first, first + step, ... of r into g (parent side). */
void stats_group_collect(struct stats_group *g, const struct stats_region *r,
			 unsigned first, unsigned step);

/* dst += src. */
void stats_group_add(struct stats_group *dst, const struct stats_group *src);

/* Each client's figures into out[nclients] (parent side). */
void stats_clients_collect(const struct stats_region *r, struct stats_client *out);

#endif
