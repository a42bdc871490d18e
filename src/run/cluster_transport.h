/*
 * cluster_transport.h - how the ranks of a run talk, for cluster.c alone:
 * the state every rank keeps, and the table of calls that carry it
 * between ranks.  cluster_mpi.c fills the table with MPI's calls; a build
 * without MPI links cluster_alone.c, whose table is none, and cluster.c
 * then refuses a process that mpirun started.  The build chooses the
 * file (Makefile: MPI=1 or 0); no other code asks which it was.
 *
 * Knows nothing of runs beyond the structs of cluster.h that travel.
 */
#ifndef DBENCH_RUN_CLUSTER_TRANSPORT_H
#define DBENCH_RUN_CLUSTER_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"

struct cluster_host {
	char host[65];		/* as uname gives them */
	char kernel[65];
};

struct cluster_state {
	bool mpi;
	bool in_step;		/* every collective of the current run was made */
	bool broken;		/* a rank did not answer: no more exchanges */
	uint64_t timeout_ns;	/* how long a rank waits for another's answer */
	unsigned rank, size;
	struct cluster_host *hosts;	/* size of them */
	struct cluster_host self;
	struct cluster_tick *ticks;	/* rank 0: each rank's latest, size of them */
};

/* Each call is made only once the transport joined (state->mpi) and
 * while the cluster is not broken; a rank that does not answer within
 * the bound sets state->broken.  The semantics are cluster.h's functions of the
 * same names. */
struct cluster_transport {
	/* Join the job, keeping `state` (this rank's, cluster.c's) for the
	 * calls after: its rank, size, hosts (every rank's self) and, on
	 * rank 0, ticks; 0, or the exit status with the reason said. */
	int (*join)(struct cluster_state *state);
	void (*finish)(void);
	/* The verdict of a news exchange: verdict[0] news, verdict[1] the
	 * rank lost (-1 none); -1 when rank 0 itself fell silent. */
	int (*news)(bool mine, int32_t verdict[2], bool (*idle)(void *), void *arg);
	int (*differs)(const void *mine, size_t len);
	/* Every rank's tick into rank 0's state->ticks. */
	void (*tick)(const struct cluster_tick *mine);
	void (*order)(struct cluster_order *o);
	void (*barrier)(void);
	void (*reduce_groups)(struct stats_group *g, unsigned n);
	void (*gather_clients)(const struct stats_client *mine, unsigned n,
			       struct stats_client *all);
	void (*gather_ranks)(const struct cluster_rank *mine, struct cluster_rank *all);
};

/* MPI's table (cluster_mpi.c), or NULL in a build without MPI
 * (cluster_alone.c). */
extern const struct cluster_transport *const cluster_transport;

#endif
