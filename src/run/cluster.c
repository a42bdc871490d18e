/*
 * cluster.c - the ranks of a run (see cluster.h): joining the MPI job, who
 * is where, the once-a-second exchange with rank 0 and the news between,
 * the reductions at the end, and the bound on every wait for another rank
 * (--stop-timeout) past which the cluster is broken.  Built with DBENCH_MPI it speaks MPI when mpirun started the
 * process; built without, it refuses to run under mpirun (every rank would
 * think itself alone and they would collide in DIR/clients).  Structs
 * travel as bytes: the ranks are assumed to run the same binary on the
 * same architecture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifdef DBENCH_MPI
#include <mpi.h>
#endif

#include "progname.h"
#include "cluster.h"

struct host_info {
	char host[65];		/* as uname gives them */
	char kernel[65];
};

static struct {
	bool mpi;
	bool in_step;		/* every collective of the current run was made */
	bool broken;		/* a rank did not answer: no more exchanges */
	uint64_t timeout_ns;	/* how long a rank waits for another's answer */
	unsigned rank, size;
	struct host_info *hosts;	/* size of them */
	struct host_info self;
	struct cluster_tick *ticks;	/* rank 0: each rank's latest, size of them */
} cl = { .in_step = true, .size = 1, .hosts = &cl.self };

/* mpirun (Open MPI, MPICH's hydra, PMIx launchers) leaves its mark in the
 * environment of the processes it starts. */
static bool started_by_mpirun(void)
{
	static const char *marks[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
				       "PMI_RANK" };
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (getenv(marks[i]))
			return true;
	return false;
}

static void describe_self(void)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(cl.self.host, sizeof(cl.self.host), "%s", u.nodename);
		snprintf(cl.self.kernel, sizeof(cl.self.kernel), "%s", u.release);
	}
}

int cluster_init(void)
{
	describe_self();
	if (!started_by_mpirun())
		return 0;
#ifdef DBENCH_MPI
	int rank, size;
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		say("cannot join the MPI job\n");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	cl.mpi = true;
	cl.rank = rank;
	cl.size = size;
	cl.hosts = calloc(size, sizeof(struct host_info));
	cl.ticks = rank == 0 ? calloc(size, sizeof(struct cluster_tick)) : NULL;
	if (!cl.hosts || (rank == 0 && !cl.ticks)) {
		say("rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Allgather(&cl.self, sizeof(cl.self), MPI_BYTE, cl.hosts, sizeof(cl.self),
		      MPI_BYTE, MPI_COMM_WORLD);
	return 0;
#else
	say("started by mpirun, but this dbench was built without MPI"
		" (build it with 'make MPI=1')\n");
	return 2;
#endif
}

int cluster_finish(int rc)
{
	if (!cl.mpi)
		return rc;
	fflush(NULL);
#ifdef DBENCH_MPI
	if (cl.in_step)
		MPI_Finalize();
#endif
	free(cl.hosts);
	free(cl.ticks);
	cl.hosts = &cl.self;
	cl.ticks = NULL;
	return rc;
}

bool cluster_mpi(void)
{
	return cl.mpi;
}

unsigned cluster_rank(void)
{
	return cl.rank;
}

unsigned cluster_size(void)
{
	return cl.size;
}

const char *cluster_host(unsigned rank)
{
	return rank < cl.size ? cl.hosts[rank].host : "";
}

const char *cluster_kernel(unsigned rank)
{
	return rank < cl.size ? cl.hosts[rank].kernel : "";
}

void cluster_run_begin(void)
{
	cl.in_step = false;
	cl.broken = false;
	cl.timeout_ns = 0;
}

void cluster_bound(unsigned timeout_s)
{
	cl.timeout_ns = timeout_s * 1000000000ull;
}

void cluster_run_end(void)
{
	cl.in_step = !cl.broken;	/* a broken job is not finalized: mpirun ends it */
}

bool cluster_broken(void)
{
	return cl.broken;
}

#ifdef DBENCH_MPI
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
	return cl.timeout_ns ? now_ns() + n * cl.timeout_ns : UINT64_MAX;
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
		if (idle && idle(arg) && cl.rank != 0 && now - start > 300000000u)
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
		cl.broken = true;
}
#endif

/*
 * Rank 0 takes each rank's flag and answers each with the verdict: news
 * if any flag was set, or the first rank that did not send its flag in
 * time.  The others wait for the verdict twice as long, so that rank 0
 * names a rank that fell silent before any of them gives up on rank 0.
 */
int cluster_news(bool mine, int *lost, bool (*idle)(void *), void *arg)
{
	*lost = -1;
	if (!cl.mpi || cl.broken)
		return cl.broken ? -1 : 0;
#ifdef DBENCH_MPI
	int32_t verdict[2] = { mine, -1 };	/* news, lost rank */
	if (cl.rank == 0) {
		int n = cl.size - 1;
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
			cl.broken = true;
			*lost = 0;
			return -1;
		}
	}
	if (verdict[1] >= 0) {
		cl.broken = true;
		*lost = verdict[1];
		return -1;
	}
	return verdict[0] ? 1 : 0;
#else
	(void)mine;
	(void)idle;
	(void)arg;
	return 0;
#endif
}

void cluster_tick_combine(struct cluster_tick *dst, const struct cluster_tick *src,
			  unsigned src_rank)
{
	dst->bytes += src->bytes;
	dst->ops += src->ops;
	dst->exec_bytes += src->exec_bytes;
	dst->exec_ops += src->exec_ops;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	stats_lag_add(&dst->lag, &src->lag);
	dst->running += src->running;
	dst->ready += src->ready;
	dst->done += src->done;
	if (src->done_s > dst->done_s)
		dst->done_s = src->done_s;
	if (src->setup_s > dst->setup_s)
		dst->setup_s = src->setup_s;
	if (src->interrupted > dst->interrupted)
		dst->interrupted = src->interrupted;
	if (src->failed_rank >= 0 && dst->failed_rank < 0) {
		dst->failed_rank = src_rank;
		dst->failure = src->failure;
	}
}

int cluster_differs(const void *mine, size_t len)
{
	int first = -1;

	if (!cl.mpi || cl.broken)
		return -1;
#ifdef DBENCH_MPI
	char *each = cl.rank == 0 ? malloc(len * cl.size) : NULL;
	if (cl.rank == 0 && !each)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(mine, len, MPI_BYTE, each, len, MPI_BYTE, 0, MPI_COMM_WORLD);
	for (unsigned r = 1; cl.rank == 0 && r < cl.size && first < 0; r++)
		if (memcmp(each, each + r * len, len) != 0)
			first = r;
	free(each);
	MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
#else
	(void)mine;
	(void)len;
#endif
	return first;
}

void cluster_tick(const struct cluster_tick *mine, struct cluster_tick *all)
{
	*all = *mine;
	if (!cl.mpi || cl.broken)
		return;
#ifdef DBENCH_MPI
	MPI_Request req;
	MPI_Igather(mine, sizeof(*mine), MPI_BYTE, cl.ticks, sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
	if (cl.broken)
		return;
	if (cl.rank == 0) {
		*all = cl.ticks[0];
		for (unsigned r = 1; r < cl.size; r++)
			cluster_tick_combine(all, &cl.ticks[r], r);
	}
#endif
}

void cluster_order(struct cluster_order *o)
{
#ifdef DBENCH_MPI
	if (cl.mpi && !cl.broken) {
		MPI_Request req;
		MPI_Ibcast(o, sizeof(*o), MPI_BYTE, 0, MPI_COMM_WORLD, &req);
		bounded(&req);
	}
#else
	(void)o;
#endif
}

void cluster_barrier(void)
{
#ifdef DBENCH_MPI
	if (cl.mpi && !cl.broken) {
		MPI_Request req;
		MPI_Ibarrier(MPI_COMM_WORLD, &req);
		bounded(&req);
	}
#endif
}

#ifdef DBENCH_MPI
/* MPI's reduction callback: inout[i] += in[i]. */
static void add_groups(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	for (int i = 0; i < *len; i++)
		stats_group_add((struct stats_group *)inout + i,
				(const struct stats_group *)in + i);
}
#endif

void cluster_reduce_groups(struct stats_group *g, unsigned n)
{
	if (!cl.mpi || cl.broken)
		return;
#ifdef DBENCH_MPI
	MPI_Datatype type;
	MPI_Op op;
	MPI_Type_contiguous(sizeof(*g), MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Op_create(add_groups, 1, &op);
	MPI_Request req;
	if (cl.rank == 0)
		MPI_Ireduce(MPI_IN_PLACE, g, n, type, op, 0, MPI_COMM_WORLD, &req);
	else
		MPI_Ireduce(g, NULL, n, type, op, 0, MPI_COMM_WORLD, &req);
	bounded(&req);
	MPI_Op_free(&op);
	MPI_Type_free(&type);
#else
	(void)g;
	(void)n;
#endif
}

void cluster_gather_clients(const struct stats_client *mine, unsigned n,
			    struct stats_client *all)
{
	if (!cl.mpi || cl.broken) {	/* broken: this rank's own, first */
		memcpy(all, mine, n * sizeof(*mine));
		return;
	}
#ifdef DBENCH_MPI
	MPI_Request req;
	MPI_Igather(mine, n * sizeof(*mine), MPI_BYTE, all, n * sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
#endif
}

void cluster_gather_ranks(const struct cluster_rank *mine, struct cluster_rank *all)
{
	if (!cl.mpi || cl.broken) {
		*all = *mine;
		return;
	}
#ifdef DBENCH_MPI
	MPI_Request req;
	MPI_Igather(mine, sizeof(*mine), MPI_BYTE, all, sizeof(*mine), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &req);
	bounded(&req);
#endif
}
