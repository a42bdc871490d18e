/*
 * stats.h - the shared-memory region through which clients report.
 *
 * The driver maps one region (MAP_SHARED | MAP_ANONYMOUS) before it forks.
 * It holds a control block written only by the parent (the phase and the
 * one-second tick the clients read at each operation boundary), one cache-
 * line aligned slot per client, written only by that client, a slot for
 * each --probe process (see probe.h), written only by it, and the latency
 * histogram sets described below; the parent reads the slots once a
 * second.  No locks: every field but the sets' buckets has one writer, and
 * fields are 64-bit words read and written with relaxed atomics, so a
 * reader sees each value whole, if perhaps a moment old.
 *
 * Latency histograms are kept per CPU, not per client.  A client's own
 * histograms (some 8 KB of buckets for each operation type) were most of
 * its memory: under load latencies spread over many octaves, so a client
 * wrote a page or two of each type's buckets, some 90 KB of pages of its
 * own, times N.  Histograms are only ever read merged, all clients'
 * or one target directory's, so the region holds, for each directory, one
 * set of buckets per configured CPU, and a client adds to the set of its
 * directory and of the CPU it is running on.  The clients of a directory
 * on one CPU thus share a set, and a client can be preempted or migrated
 * mid-update: a bucket is the one field with many writers, added to with
 * one atomic fetch-and-add, so that no count is lost.  What must be exact
 * stays in the client's own slot as before: each operation type's count,
 * sum, minimum and maximum (op_stats), from which, with the buckets, a
 * group's histograms are put together when the run is over.
 */
#ifndef DBENCH_STATS_H
#define DBENCH_STATS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#if defined(__has_include) && __has_include(<sys/rseq.h>)
#include <sys/rseq.h>		/* glibc 2.35: __rseq_offset, __rseq_size */
#define STATS_HAVE_RSEQ 1
#else
#define STATS_HAVE_RSEQ 0
#endif

#include "hist.h"
#include "ops.h"
#include "verify.h"

#define STATS_CACHELINE 64
#define STATS_WINDOWS 4		/* per-second latency windows kept, a ring */
#define STATS_PATH_MAX 256	/* a failing path, as far as it fits */
#define STATS_MESSAGE_MAX 512	/* the probe's failure, as far as it fits */
#define STATS_CHUNK 4096	/* bytes of a set one "touched" flag stands for */
#define STATS_PASS_RING 64	/* --show-execute-time: latest passes kept per client */

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

/* Latency and outcome figures of one operation type.  In the execute
 * phase, count is also the number of values in the type's buckets.  A
 * cache line long: in a client's slot, where each starts a line, it is
 * with the latency window all that an operation writes.  (Padded rather
 * than aligned, so that sums of them on the heap need no alignment.) */
struct op_stats {
	uint64_t count;
	uint64_t errors;
	uint64_t total_ns;	/* sum of latencies */
	uint64_t min_ns;	/* 0 while count is 0 */
	uint64_t max_ns;
	uint64_t bytes;		/* ReadX or WriteX bytes requested, by op_table */
	uint64_t unsupported;	/* not performed: the backend cannot express them
				 * (BACKEND_NOT_SUPPORTED); not in count */
	uint64_t skipped;	/* a recording's calls not made, for a descriptor
				 * they name was never opened (BACKEND_SKIPPED);
				 * not in count */
};
_Static_assert(sizeof(struct op_stats) == STATS_CACHELINE, "op_stats fills a cache line");

/* The figures a client keeps for one phase, in its slot.  The tally
 * first: a parent that reads it then reads the page that the first
 * operation types' figures (the dbench 4 loadfile's) are on, which the
 * client writes anyway (see stats_region.types). */
struct phase_slot {
	struct verify_tally verify;	/* --verify: checking done by ReadX/WriteX */
	struct op_stats op[OP_COUNT] __attribute__((aligned(STATS_CACHELINE)));
} __attribute__((aligned(STATS_CACHELINE)));

/* A phase's figures summed over clients (stats_sum() and the groups
 * below): the slots' figures, with the totals a reader wants. */
struct phase_stats {
	uint64_t bytes_read;	/* ReadX bytes requested */
	uint64_t bytes_written;	/* WriteX bytes requested */
	uint64_t ops;		/* operations done (loadfile lines) */
	struct op_stats op[OP_COUNT];
	struct verify_tally verify;
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

/* One finished pass of the loadfile (--show-execute-time). */
struct pass_record {
	uint64_t start_ns;	/* CLOCK_MONOTONIC when the pass began */
	uint64_t end_ns;	/* ... and when its last operation ended */
};

/* Operations that began in the warmup and ended in the execute phase:
 * counted in neither phase's table, and told apart so that the worst
 * event of a run is not hidden. */
struct straddle {
	uint64_t count;
	uint64_t max_ns;	/* the longest of them */
	uint64_t type;		/* its enum op_type */
};

/* How far behind the recording a replay with --replay-timing=exact runs:
 * each call's start against its recorded one, in the execute phase; and
 * what makes it late on a busy machine, its threads' time runnable but
 * waiting for a CPU, over the run. */
struct lag {
	uint64_t count;		/* calls */
	uint64_t sum_ns;	/* late by, summed (a call on time adds 0) */
	uint64_t max_ns;	/* the latest */
	uint64_t wait_ns;	/* the threads' wait for a CPU, summed */
	uint64_t waited;	/* threads whose wait was read (0: unknown) */
};

struct client_slot {
	uint64_t state;				/* enum client_state */
	uint64_t passes;			/* completed loadfile passes */
	uint64_t end_ns;			/* CLOCK_MONOTONIC when it stopped replaying */
	uint64_t cleaned;			/* 1 once it removed its own files */
	uint64_t pause_ns;			/* execute phase: think time and
						 * timestamp waits before operations */
	struct straddle straddled;		/* begun in warmup, ended in execute */
	struct lag lag;				/* --replay-timing=exact */
	struct latency_windows win;		/* worst operation of each tick */
	struct phase_slot phase[PHASE_COUNT];	/* by the phase an op started in */
	struct client_failure failure;
	/* --show-execute-time: pass n (counted by `passes`) is
	 * pass[n % STATS_PASS_RING] once `passes` is past n; last, so that
	 * without the option these pages are never touched. */
	struct pass_record pass[STATS_PASS_RING];
} __attribute__((aligned(STATS_CACHELINE)));

/* The --probe process: its directory listings, each timed whole. */
struct probe_slot {
	uint64_t state;			/* enum client_state */
	uint64_t entries;		/* names read by the last execute-phase listing */
	uint64_t cleaned;		/* 1 once nothing of its own directory is left */
	struct latency_windows win;	/* longest listing that ended in each tick */
	uint64_t straddled;		/* listings begun in the warmup and ended in
					 * the execute phase: in no histogram */
	uint64_t straddled_max_ns;	/* the longest of them */
	struct hist hist;		/* listings that started in the execute phase */
	char failure[STATS_MESSAGE_MAX];	/* why, when state is CLIENT_FAILED */
} __attribute__((aligned(STATS_CACHELINE)));

struct stats_control {
	uint64_t phase;		/* enum phase; written by the parent */
	uint64_t tick;		/* seconds since the start; written by the parent */
	uint64_t exec_ns;	/* CLOCK_MONOTONIC at which the execute window is
				 * planned to open after a warmup, written by
				 * the parent before it releases the clients; 0
				 * for no warmup.  The clients end the warmup
				 * there by their own clocks, however late the
				 * parent is. */
	uint64_t end_ns;	/* ... and to end, written with it; 0 for none
				 * (--run-once).  The clients stop there by their
				 * own clocks, however late the parent is. */
	uint64_t look_tc;	/* the operation clock's reading (opclock.h) from
				 * which a client compares the end of each
				 * operation with end_ns: a little before it, for
				 * the clock's rate is known only so well;
				 * UINT64_MAX for none */
	uint64_t procs_left;	/* processes to be forked (clients, probes) that
				 * have not yet reached their end: set by the
				 * parent before its first fork, less those it
				 * then does not fork; each process takes itself
				 * off (atomically, the one field of this block
				 * they write) and the last one closes the
				 * targets (client.h) */
} __attribute__((aligned(STATS_CACHELINE)));

/* An operation type's buckets take whole chunks (5), so that a chunk, and
 * the page it lies in, holds the buckets of one type of one set. */
#define STATS_CHUNK_BUCKETS (STATS_CHUNK / sizeof(uint64_t))
#define STATS_OP_CHUNKS ((HIST_BUCKETS + STATS_CHUNK_BUCKETS - 1) / STATS_CHUNK_BUCKETS)
#define STATS_SET_CHUNKS (OP_COUNT * STATS_OP_CHUNKS)

/* The buckets (hist.h) of every operation type's execute-phase latencies,
 * of the clients of one directory while on one CPU: bucket[op][b] for b
 * below HIST_BUCKETS, the rest padding that is never written. */
struct hist_set {
	uint64_t bucket[OP_COUNT][STATS_OP_CHUNKS * STATS_CHUNK_BUCKETS];
} __attribute__((aligned(STATS_CHUNK)));

/*
 * The sets are page-aligned and come last.  Each set has a flag per
 * STATS_CHUNK bytes of buckets, which a client sets before its first add
 * there: the parent reads only flagged chunks, for reading a page of the
 * shared region that nobody wrote allocates it.  The flags of all sets lie
 * together, after the slots.
 */
struct stats_region {
	struct stats_control ctl;
	/* The operation types whose figures the parent reads from the slots:
	 * all of them once mapped, those of the program with
	 * stats_limit_types().  A slot's figures of all types span nine
	 * pages, of which a client writes those of the types it runs; a
	 * parent reading the others would allocate them (20 KB a client). */
	uint8_t types[OP_COUNT];
	unsigned nclients;
	unsigned ndirs;			/* client i is in directory i % ndirs */
	unsigned ncpus;			/* sets per directory */
	struct hist_set *sets;		/* [ndirs][ncpus] */
	uint8_t *touched;		/* [ndirs][ncpus][OP_COUNT][STATS_OP_CHUNKS] */
	unsigned nprobes;
	struct probe_slot *probe;	/* [nprobes], after the client slots; NULL
					 * without --probe */
	struct client_slot slot[];	/* nclients of them */
};

/* Map a zeroed region for n clients over ndirs directories, with ncpus
 * histogram sets for each (the configured CPUs, get_nprocs_conf(), in a
 * run) and nprobes probe slots; it is unmapped when mem_ctx is freed.
 * NULL when the mapping fails (errno set). */
struct stats_region *stats_map(TALLOC_CTX *mem_ctx, unsigned nclients, unsigned ndirs,
			       unsigned ncpus, unsigned nprobes);

/* Have the parent read from the slots only the figures of the operation
 * types whose count[] is not 0 (a program's: those its clients can
 * record); before any fork. */
void stats_limit_types(struct stats_region *r, const uint64_t count[OP_COUNT]);

/* Where a client's latencies go: the sets of its directory. */
struct stats_sets {
	struct hist_set *set;		/* [ncpus] */
	uint8_t *touched;		/* [ncpus][OP_COUNT][STATS_OP_CHUNKS] */
	unsigned ncpus;
};

/* The sets of client `client`'s directory. */
struct stats_sets stats_sets_of(struct stats_region *r, unsigned client);

/*
 * The CPU the caller is running on, for stats_record(): what the kernel
 * keeps in the thread's rseq area, which glibc registers (sched_getcpu()
 * reads the same), so a load.  0 where there is no rseq area (an old
 * kernel, glibc.pthread.rseq=0, valgrind): then every client of a
 * directory adds to one set, which costs contention, not counts, where
 * sched_getcpu() would cost a system call per operation on some systems.
 */
static inline unsigned stats_cpu(void)
{
#if STATS_HAVE_RSEQ
	if (__rseq_size == 0)
		return 0;

	const struct rseq *rs = (const struct rseq *)((char *)__builtin_thread_pointer() +
						      __rseq_offset);
	int cpu = (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

	return cpu < 0 ? 0 : (unsigned)cpu;
#else
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (unsigned)cpu;
#endif
}

/* Relaxed loads and stores of shared words. */
static inline uint64_t stats_get(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* The phase at `now` (CLOCK_MONOTONIC) as a forked process keeps it:
 * the parent's (ctl.phase), but a warmup ends at the window's planned
 * opening (ctl.exec_ns) by the process's own clock, however late the
 * parent says so. */
static inline enum phase stats_phase_at(const struct stats_region *r, uint64_t now)
{
	enum phase ph = (enum phase)stats_get(&r->ctl.phase);
	uint64_t open = stats_get(&r->ctl.exec_ns);

	return ph == PHASE_WARMUP && open && now >= open ? PHASE_EXECUTE : ph;
}

/* Whether the execute window's planned end (ctl.end_ns) has passed at
 * `now` (CLOCK_MONOTONIC) while the parent has not said stop: a forked
 * process stops there by its own clock, however late the parent. */
static inline bool stats_window_over(const struct stats_region *r, uint64_t now)
{
	uint64_t end = stats_get(&r->ctl.end_ns);

	return end && now >= end && stats_phase_at(r, now) == PHASE_EXECUTE;
}

static inline void stats_set(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline void stats_add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/* Record one directory listing of `entries` names that took `ns`,
 * started in phase `ph` and ended in phase `end_ph` (probe side): one
 * that began in the warmup and ended in the execute phase is counted as
 * straddling, as operations are. */
void stats_record_listing(struct probe_slot *s, enum phase ph, enum phase end_ph,
			  uint64_t entries, uint64_t ns, uint64_t tick);

/* Note a latency that ended during `tick` in a ring of windows (writer side),
 * and read the worst of a tick back, 0 when the ring holds none for it. */
static inline void stats_window_note(struct latency_windows *w, uint64_t tick, uint64_t ns)
{
	unsigned i = tick % STATS_WINDOWS;

	if (w->tick[i] != tick) {
		stats_set(&w->max_ns[i], 0);
		stats_set(&w->tick[i], tick);
	}
	if (ns > w->max_ns[i])
		stats_set(&w->max_ns[i], ns);
}
uint64_t stats_window_get(const struct latency_windows *w, uint64_t tick);
/* 1 + the latest tick in which the ring's writer noted a latency (an
 * operation of its ended then), 0 when it never noted one: how the parent
 * tells a client that goes on finishing operations from one that does
 * not (parent side). */
uint64_t stats_window_latest(const struct latency_windows *w);
/* Count an operation of type op that began in the warmup and ended in
 * the execute phase after ns (client side). */
void stats_record_straddle(struct client_slot *s, enum op_type op, uint64_t ns);

/* Count one operation the backend could not express (client side). */
void stats_record_unsupported(struct client_slot *s, enum phase ph, enum op_type op);

/* Count one call of a recording not made (BACKEND_SKIPPED; client side). */
void stats_record_skipped(struct client_slot *s, enum phase ph, enum op_type op);

/* Note that a call started late_ns after its recorded time (client side,
 * execute phase). */
static inline void stats_record_lag(struct client_slot *s, uint64_t late_ns)
{
	stats_add(&s->lag.count, 1);
	stats_add(&s->lag.sum_ns, late_ns);
	if (late_ns > s->lag.max_ns)
		stats_set(&s->lag.max_ns, late_ns);
}

/* Note that a thread replaying for slot s waited wait_ns for a CPU
 * (client side, exact timing). */
static inline void stats_record_wait(struct client_slot *s, uint64_t wait_ns)
{
	stats_add(&s->lag.wait_ns, wait_ns);
	stats_add(&s->lag.waited, 1);
}

/* l += what slot lag `s` holds (parent side). */
void stats_lag_add(struct lag *l, const struct lag *s);

/* Add the verification work of one operation (client side). */
void stats_record_verify(struct client_slot *s, enum phase ph, const struct verify_tally *t);

/*
 * Record one operation's outcome in a client's slot, and, in the execute
 * phase, its latency in the set of `cpu` (stats_cpu(); taken modulo
 * ncpus) among its directory's `sets` (client side).  Inline: it runs
 * for every operation.
 *
 * The chunk's flag is set (once) before the bucket is added to, and the
 * bucket before the count that covers it is published, so that a reader
 * loading the counts first finds at least as many values in the buckets.
 */
static inline __attribute__((always_inline)) void
stats_record(struct client_slot *s, const struct stats_sets *sets, unsigned cpu, enum phase ph,
	     enum op_type op, uint64_t bytes, uint64_t ns, int failed, uint64_t tick)
{
	struct op_stats *o = &s->phase[ph].op[op];
	uint64_t n = o->count;		/* ours: we are the only writer */

	if (ph == PHASE_EXECUTE) {
		if (__builtin_expect(cpu >= sets->ncpus, 0))
			cpu %= sets->ncpus;
		unsigned b = hist_bucket_of(ns);
		uint8_t *touched = &sets->touched[(cpu * OP_COUNT + op) * STATS_OP_CHUNKS +
						  b / STATS_CHUNK_BUCKETS];
		if (!__atomic_load_n(touched, __ATOMIC_RELAXED))
			__atomic_store_n(touched, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&sets->set[cpu].bucket[op][b], 1, __ATOMIC_RELAXED);
	}
	stats_add(&o->total_ns, ns);
	if (n == 0 || ns < o->min_ns)
		stats_set(&o->min_ns, ns);
	if (ns > o->max_ns)
		stats_set(&o->max_ns, ns);
	if (failed)
		stats_add(&o->errors, 1);
	if (bytes)
		stats_add(&o->bytes, bytes);
	__atomic_store_n(&o->count, n + 1, __ATOMIC_RELEASE);
	stats_window_note(&s->win, tick, ns);
}

/* --show-execute-time: the times of the pass client s is finishing go
 * in the ring, before stats_pass_done() counts it. */
static inline void stats_pass_keep(struct client_slot *s, uint64_t start_ns, uint64_t end_ns)
{
	uint64_t n = __atomic_load_n(&s->passes, __ATOMIC_RELAXED);
	struct pass_record *r = &s->pass[n % STATS_PASS_RING];

	__atomic_store_n(&r->start_ns, start_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&r->end_ns, end_ns, __ATOMIC_RELAXED);
}

/* A client finished a pass (its times kept first, when they are). */
static inline void stats_pass_done(struct client_slot *s)
{
	uint64_t n = __atomic_load_n(&s->passes, __ATOMIC_RELAXED);

	__atomic_store_n(&s->passes, n + 1, __ATOMIC_RELEASE);
}

/*
 * The passes of slot s after its first `seen`, oldest first, into out[]
 * (room for STATS_PASS_RING); returns how many.  Passes that the ring no
 * longer holds are skipped and added to *lost.  *seen moves past them all.
 */
unsigned stats_passes_since(const struct client_slot *s, uint64_t *seen,
			    struct pass_record *out, uint64_t *lost);

/* ReadX + WriteX bytes of a phase's figures. */
static inline uint64_t stats_bytes(const struct phase_stats *p)
{
	return p->bytes_read + p->bytes_written;
}

/* The worst latency any client saw during `tick`, in ns (parent side). */
uint64_t stats_window_max(const struct stats_region *r, uint64_t tick);

/* The worst latency of any operation any client has finished so far, in
 * any phase (those that straddled warmup and execute, and those that
 * ended after the end, included), in ns (parent side): a look at every
 * slot's figures, for the rare moment it is wanted. */
uint64_t stats_max_latency(const struct stats_region *r);

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
	struct lag lag;			/* behind the recording (exact timing) */
	struct straddle straddled;	/* count summed, the longest kept */
	struct phase_stats exec;	/* sums; op[].max_ns is the largest */
	struct hist hist[OP_COUNT];	/* merged latencies */
};

/* One client's own execute-phase figures. */
struct stats_client {
	uint64_t bytes;		/* ReadX + WriteX */
	uint64_t bytes_written;	/* WriteX alone */
	uint64_t ops;
	uint64_t errors;
	uint64_t unsupported;	/* operations it went past, not performed
				 * (BACKEND_NOT_SUPPORTED) */
	double seconds;		/* of the execute window it replayed in: up to
				 * its own end (--run-once: its pass), or all;
				 * 0 when it never said when it stopped */
};

#define STATS_ALL_DIRS (-1)

/* Add the clients of directory `dir` of r, or every client with
 * STATS_ALL_DIRS, into g (parent side).  The histograms are whole once
 * the clients have stopped recording. */
void stats_group_collect(struct stats_group *g, const struct stats_region *r, int dir);

/* dst += src. */
void stats_group_add(struct stats_group *dst, const struct stats_group *src);

/* Each client's figures into out[nclients] (parent side), its seconds
 * from exec_ns (the window began) to when it stopped replaying, or to
 * window_end_ns, whichever came first; 0 for a client that never said
 * it stopped replaying (killed, or failed in its setup). */
void stats_clients_collect(const struct stats_region *r, uint64_t exec_ns,
			   uint64_t window_end_ns, struct stats_client *out);

#endif
