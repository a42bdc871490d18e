/*
 * cluster.c - the ranks of a run (see cluster.h): whether mpirun started
 * this process, who is where, and each exchange between ranks guarded so
 * that a process alone, or a cluster broken by a silent rank, makes none.
 * The exchanges themselves go through the build's transport
 * (cluster_transport.h: MPI's, or none in a build without MPI, which
 * refuses to run under mpirun: every rank would think itself alone and
 * they would collide in DIR/clients).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "progname.h"
#include "cluster.h"
#include "run/cluster_transport.h"

static struct cluster_state cl = { .in_step = true, .size = 1, .hosts = &cl.self };

/* The transport's exchanges are made once it joined, while no rank has
 * fallen silent. */
static bool talking(void)
{
	return cl.mpi && !cl.broken;
}

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
	if (!cluster_transport) {
		say("started by mpirun, but this dbench was built without MPI"
		    " (build it with 'make MPI=1')\n");
		return 2;
	}
	int rc = cluster_transport->join(&cl);
	cl.mpi = rc == 0;
	return rc;
}

int cluster_finish(int rc)
{
	if (!cl.mpi)
		return rc;
	fflush(NULL);
	if (cl.in_step)
		cluster_transport->finish();
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

int cluster_news(bool mine, int *lost, bool (*idle)(void *), void *arg)
{
	int32_t verdict[2];	/* news, lost rank */

	*lost = -1;
	if (!talking())
		return cl.broken ? -1 : 0;
	if (cluster_transport->news(mine, verdict, idle, arg) < 0) {
		cl.broken = true;
		*lost = 0;
		return -1;
	}
	if (verdict[1] >= 0) {
		cl.broken = true;
		*lost = verdict[1];
		return -1;
	}
	return verdict[0] ? 1 : 0;
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
	return talking() ? cluster_transport->differs(mine, len) : -1;
}

void cluster_tick(const struct cluster_tick *mine, struct cluster_tick *all)
{
	*all = *mine;
	if (!talking())
		return;
	cluster_transport->tick(mine);
	if (!cl.broken && cl.rank == 0) {
		*all = cl.ticks[0];
		for (unsigned r = 1; r < cl.size; r++)
			cluster_tick_combine(all, &cl.ticks[r], r);
	}
}

void cluster_order(struct cluster_order *o)
{
	if (talking())
		cluster_transport->order(o);
}

void cluster_barrier(void)
{
	if (talking())
		cluster_transport->barrier();
}

void cluster_reduce_groups(struct stats_group *g, unsigned n)
{
	if (talking())
		cluster_transport->reduce_groups(g, n);
}

void cluster_gather_clients(const struct stats_client *mine, unsigned n,
			    struct stats_client *all)
{
	if (talking())
		cluster_transport->gather_clients(mine, n, all);
	else	/* alone, or broken: this rank's own, first */
		memcpy(all, mine, n * sizeof(*mine));
}

void cluster_gather_ranks(const struct cluster_rank *mine, struct cluster_rank *all)
{
	if (talking())
		cluster_transport->gather_ranks(mine, all);
	else
		*all = *mine;
}
