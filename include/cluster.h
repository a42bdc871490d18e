/*
 * cluster.h - the ranks of a run spread over several machines.
 *
 * Under mpirun every rank is a dbench of its own: it makes its clients'
 * directories (DIR/clients/rank<R>-client<N>), forks its NPROCS clients
 * and samples them.  This module is the only place that speaks MPI.  Rank
 * 0 decides and the others follow: once a second every rank sends rank 0
 * a `cluster_tick` (how far its clients got, whether one failed) and rank
 * 0 answers every rank with a `cluster_order` (the phase to be in).  At
 * the end the figures of all clients are reduced to rank 0, which alone
 * prints and writes JSON.
 *
 * A build without MPI (cluster_local.c), or an MPI build not started by
 * mpirun, is a cluster of one rank: every call is then local and cheap,
 * and the driver runs one code path either way.
 *
 * A rank whose process dies makes mpirun end every rank (SIGTERM, then
 * SIGKILL a second later); so that their files are still removed, clients
 * of an MPI run live in process groups of their own and clean up when
 * their rank goes away (PR_SET_PDEATHSIG).  A rank that stops answering
 * (held stopped, say) is found by the others within the run's
 * --stop-timeout, and they finish without it.
 */
#ifndef DBENCH_CLUSTER_H
#define DBENCH_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

/* A rank's first failure, as it travels to rank 0. */
struct cluster_failure {
	uint32_t client;	/* 1-based within its rank; 0 for the rank itself */
	uint32_t line;		/* loadfile line, 0 when not an operation */
	char operation[32];	/* "" when not an operation */
	char path[1024];	/* "" when none */
	char error[512];
};

/* What a rank reports once a second.  Rank 0 receives them combined: the
 * counts summed, max_ns, done_s and setup_s the largest, and the failure of the
 * lowest rank that has one. */
struct cluster_tick {
	uint64_t bytes, ops;		/* current phase so far */
	uint64_t exec_bytes, exec_ops;	/* execute phase so far */
	uint64_t max_ns;		/* worst latency in the second that ended */
	struct lag lag;			/* a recording's exact timing, so far */
	uint64_t running;		/* client processes not yet reaped */
	uint64_t ready;			/* ranks whose clients are all set up */
	uint64_t done;			/* ranks whose clients finished (--run-once) */
	double done_s;			/* longest execute time among those */
	double setup_s;			/* longest setup, fork to all clients ready */
	uint64_t interrupted;		/* the first SIGINT or SIGTERM a rank caught
					 * (the higher number of two), 0 if none */
	int64_t failed_rank;		/* -1 when no rank failed */
	struct cluster_failure failure;
};

/* What rank 0 tells every rank after each tick. */
struct cluster_order {
	uint64_t phase;		/* enum phase every rank is to be in */
	uint64_t running;	/* client processes left on all ranks */
	double exec_s;		/* rank 0's execute window so far */
	int64_t exit_code;	/* the run's, once it is known */
};

/* A rank's own figures at the end of a run (every rank has the plan's
 * NPROCS clients: the driver makes sure of that first). */
struct cluster_rank {
	uint64_t bytes;		/* ReadX + WriteX in the execute window */
	double seconds;		/* how long its clients ran in it */
	uint64_t files_left;	/* clients (and probes) whose files it left */
};

/* ---- life cycle (main) ---- */

/* Join the MPI job when mpirun started this process; otherwise become a
 * cluster of one.  0, or a one-line message on stderr and an exit code. */
int cluster_init(void);

/* Leave the job and return rc (a rank; a client process leaves without
 * touching MPI, see main.c).  A rank that fell out of step with the others
 * (it returned early on an error) leaves without MPI_Finalize, so that
 * mpirun ends the job instead of waiting for it. */
int cluster_finish(int rc);

/* ---- who we are ---- */

bool cluster_mpi(void);			/* started by mpirun */
unsigned cluster_rank(void);
unsigned cluster_size(void);
const char *cluster_host(unsigned rank);	/* of any rank */
const char *cluster_kernel(unsigned rank);

/* ---- one run (driver) ---- */

/* A run starts: until cluster_run_end(), this rank is out of step. */
void cluster_run_begin(void);
void cluster_run_end(void);

/* From the start of the clients on: a rank that does not answer another
 * within timeout_s seconds (cluster_news(), or any exchange below)
 * breaks the cluster.  Before, ranks wait for each other's setup as long
 * as it takes. */
void cluster_bound(unsigned timeout_s);

/*
 * Between ticks, ten times a second: whether any rank has news that
 * cannot wait for the next tick (a signal, a failure, clients gone after
 * the stop).  Every rank gets the same answer: 1 news, 0 none, -1 when a
 * rank did not answer within the timeout, *lost then being that rank.
 * From then on the cluster is broken: every call below returns at once,
 * with this rank's own figures, and the rank is to finish on its own.
 * While it waits, idle(arg) is called every few hundred microseconds; a
 * rank other than 0 for which it returns true gives up on rank 0 after
 * 300 ms (mpirun's SIGTERM: it has a second to finish on its own).
 */
int cluster_news(bool mine, int *lost, bool (*idle)(void *), void *arg);
bool cluster_broken(void);

/* Whether every rank holds the same len bytes at `mine` as rank 0: -1
 * when they all do, else the lowest rank that differs (on every rank). */
int cluster_differs(const void *mine, size_t len);

/* Every rank sends its tick; rank 0 gets them combined in *all (other
 * ranks: *all is *mine). */
void cluster_tick(const struct cluster_tick *mine, struct cluster_tick *all);

/* Rank 0's order reaches every rank. */
void cluster_order(struct cluster_order *o);

/* Wait for every rank. */
void cluster_barrier(void);

/* Sum n groups over all ranks into rank 0's g[]. */
void cluster_reduce_groups(struct stats_group *g, unsigned n);

/* Every rank's n client figures, rank by rank, into rank 0's all[]
 * (n * cluster_size() of them). */
void cluster_gather_clients(const struct stats_client *mine, unsigned n,
			    struct stats_client *all);

/* Every rank's figures into rank 0's all[] (cluster_size() of them). */
void cluster_gather_ranks(const struct cluster_rank *mine, struct cluster_rank *all);

/* Combine src into dst as rank 0 does with ticks (exposed for tests). */
void cluster_tick_combine(struct cluster_tick *dst, const struct cluster_tick *src,
			  unsigned src_rank);

#endif
