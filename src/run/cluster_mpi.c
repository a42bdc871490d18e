/*
 * cluster_mpi.c - the ranks of a run over MPI (see cluster_transport.h):
 * joining the job, the once-a-second exchange with rank 0 and the news
 * between, the reductions at the end, each wait bounded by
 * --stop-timeout.  Structs travel as bytes: the ranks are assumed to run
 * the same binary on the same architecture.
 *
 * Linked only into a build with MPI (Makefile: MPI=1); knows nothing of
 * runs beyond the structs of cluster.h that travel.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "progname.h"
#include "run/cluster_transport.h"

/* The rank's state, cluster.c's, handed over at join. */
static struct cluster_state *cl;

#define TAG_NEWS 101		/* a rank's news flag, to rank 0 */
#define TAG_VERDICT 102		/* rank 0's answer, to every rank */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* When an answer due now must have come, n timeouts on; never before
 * cluster_bound(). */
static uint64_t deadline(unsigned n)
{
	return cl->timeout_ns ? now_ns() + n * cl->timeout_ns : UINT64_MAX;
}

/* Wait for n requests until `deadline`, after 2 ms looking every 200 us
 * (a rank at a real-time priority must not spin on a CPU its clients
 * need); the index of the first that did not complete, or -1 when all
 * did. */
static int wait_until(MPI_Request *req, int n, uint64_t deadline, bool (*idle)(void *),
		      void *arg)
{
	uint64_t start = now_ns();

	for (;;) {
		int first = -1;
		for (int i = 0; i < n && first < 0; i++) {
			int done = 0;
			MPI_Test(&req[i], &done, MPI_STATUS_IGNORE);
			if (!done)
				first = i;
		}
		uint64_t now = now_ns();
		if (first < 0 || now >= deadline)
			return first;
		if (idle && idle(arg) && cl->rank != 0 && now - start > 300000000u)
			return first;
		struct timespec ts = { 0, 200000 };
		if (now - start > 2000000u)	/* most answers come within 2 ms */
			nanosleep(&ts, NULL);
	}
}

/* Withdraw a receive that will not be answered, so that nothing is
 * written into its buffer once that is gone. */
static void cancel(MPI_Request *req)
{
	int done = 0;

	MPI_Test(req, &done, MPI_STATUS_IGNORE);
	if (!done) {
		MPI_Cancel(req);
		MPI_Wait(req, MPI_STATUS_IGNORE);
	}
}

/* A collective begun as request *req: a rank that does not take part
 * within the timeout breaks the cluster. */
static void bounded(MPI_Request *req)
{
	if (wait_until(req, 1, deadline(1), NULL, NULL) >= 0)
		cl->broken = true;
}
static int mpi_join(struct cluster_state *state)
{
	int rank, size;

	cl = state;

	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		say("cannot join the MPI job\n");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	cl->rank = rank;
	cl->size = size;
	cl->hosts = calloc(size, sizeof(struct cluster_host));
	cl->ticks = rank == 0 ? calloc(size, sizeof(struct cluster_tick)) : NULL;
	if (!cl->hosts || (rank == 0 && !cl->ticks)) {
		say("rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Allgather(&cl->self, sizeof(cl->self), MPI_BYTE, cl->hosts, sizeof(cl->self),
		      MPI_BYTE, MPI_COMM_WORLD);
	return 0;
}

static void mpi_finish(void)
{
	MPI_Finalize();
}

/*
 * Rank 0 takes each rank's flag and answers each with the verdict: news
 * if any flag was set, or the first rank that did not send its flag in
 * time.  The others wait for the verdict twice as long, so that rank 0
 * names a rank that fell silent before any of them gives up on rank 0.
 */
static int mpi_news(bool mine, int32_t verdict[2], bool (*idle)(void *), void *arg)
{
	verdict[0] = mine;
	verdict[1] = -1;
	if (cl->rank == 0) {
		int n = cl->size - 1;
		int32_t *flags = calloc(n, sizeof(int32_t));
		MPI_Request *req = calloc(n, sizeof(MPI_Request));
		if (!flags || !req)
			MPI_Abort(MPI_COMM_WORLD, 1);
		for (int i = 0; i < n; i++)
			MPI_Irecv(&flags[i], 1, MPI_INT32_T, i + 1, TAG_NEWS, MPI_COMM_WORLD, &req[i]);
		int late = wait_until(req, n, deadline(1), idle, arg);
		for (int i = 0; i < n; i++)
			verdict[0] |= (late < 0 || i < late) && flags[i];
		verdict[1] = late < 0 ? -1 : late + 1;
		for (int i = 0; i < n; i++)
			if (i + 1 != verdict[1])
				MPI_Send(verdict, 2, MPI_INT32_T, i + 1, TAG_VERDICT, MPI_COMM_WORLD);
		for (int i = late; i >= 0 && i < n; i++)	/* the silent ranks' */
			cancel(&req[i]);
		free(flags);
		free(req);
	} else {
		int32_t flag = mine;
		MPI_Request req[2];
		MPI_Isend(&flag, 1, MPI_INT32_T, 0, TAG_NEWS, MPI_COMM_WORLD, &req[0]);
		MPI_Irecv(verdict, 2, MPI_INT32_T, 0, TAG_VERDICT, MPI_COMM_WORLD, &req[1]);
		if (wait_until(req, 2, deadline(2), idle, arg) >= 0) {
			cancel(&req[1]);	/* the verdict, into this frame */
			return -1;
		}
	}
	return 0;
}

static int mpi_differs(const void *mine, size_t len)
{
	int first = -1;
	char *each = cl->rank == 0 ? malloc(len * cl->size) : NULL;
	if (cl->rank == 0 && !each)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(mine, len, MPI_BYTE, each, len, MPI_BYTE, 0, MPI_COMM_WORLD);
	for (unsigned r = 1; cl->rank == 0 && r < cl->size && first < 0; r++)
		if (memcmp(each, each + r * len, len) != 0)
			first = r;
	free(each);
	MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return first;
}

static void mpi_tick(const struct cluster_tick *mine)
{
	MPI_Request req;

	MPI_Igather(mine, sizeof(*mine), MPI_BYTE, cl->ticks, sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
}

static void mpi_order(struct cluster_order *o)
{
	MPI_Request req;

	MPI_Ibcast(o, sizeof(*o), MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	bounded(&req);
}

static void mpi_barrier(void)
{
	MPI_Request req;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	bounded(&req);
}

/* MPI's reduction callback: inout[i] += in[i]. */
static void add_groups(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	for (int i = 0; i < *len; i++)
		stats_group_add((struct stats_group *)inout + i,
				(const struct stats_group *)in + i);
}
static void mpi_reduce_groups(struct stats_group *g, unsigned n)
{
	MPI_Datatype type;
	MPI_Op op;
	MPI_Type_contiguous(sizeof(*g), MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Op_create(add_groups, 1, &op);
	MPI_Request req;
	if (cl->rank == 0)
		MPI_Ireduce(MPI_IN_PLACE, g, n, type, op, 0, MPI_COMM_WORLD, &req);
	else
		MPI_Ireduce(g, NULL, n, type, op, 0, MPI_COMM_WORLD, &req);
	bounded(&req);
	MPI_Op_free(&op);
	MPI_Type_free(&type);
}

static void mpi_gather_clients(const struct stats_client *mine, unsigned n,
			       struct stats_client *all)
{
	MPI_Request req;

	MPI_Igather(mine, n * sizeof(*mine), MPI_BYTE, all, n * sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
}

static void mpi_gather_ranks(const struct cluster_rank *mine, struct cluster_rank *all)
{
	MPI_Request req;

	MPI_Igather(mine, sizeof(*mine), MPI_BYTE, all, sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
}

static const struct cluster_transport mpi = {
	.join = mpi_join,
	.finish = mpi_finish,
	.news = mpi_news,
	.differs = mpi_differs,
	.tick = mpi_tick,
	.order = mpi_order,
	.barrier = mpi_barrier,
	.reduce_groups = mpi_reduce_groups,
	.gather_clients = mpi_gather_clients,
	.gather_ranks = mpi_gather_ranks,
};

const struct cluster_transport *const cluster_transport = &mpi;
