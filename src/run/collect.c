/*
 * collect.c - the end of a run: its memory set aside before the first
 * fork, every rank's figures reduced to rank 0
 * and turned into the result there (with the environment record), the
 * test hook that dumps this rank's histograms, and the text and JSON
 * reports.  Reads d->procs and d->sampler, writes neither.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "dockey.h"
#include "opclock.h"
#include "outfile.h"
#include "progname.h"
#include "run/driver_internal.h"
#include "run/unforked.h"

/*
 * What the end of the run needs, made now: the result with room for every
 * figure (result_new()), one group of all clients' figures, one for a
 * directory's at a time (a group is some 2 MB of histograms: a run over
 * a thousand directories holds one, never a thousand; both in memory the
 * clients do not inherit, unforked.h), and the clients' and ranks'
 * figures on their way to rank 0.
 */
bool collect_reserve(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	struct collect *c = &d->collect;
	unsigned nranks = cluster_size();

	c->res = cluster_rank() == 0 ? result_new(d->ctx, plan, nranks) : NULL;
	c->all = unforked_zero(d->ctx, sizeof(struct stats_group));	/* the clients' */
	c->dir = unforked_zero(d->ctx, sizeof(struct stats_group));	/* are no use */
	c->merged = talloc_zero(d->ctx, struct hist);
	c->mine = talloc_zero_array(d->ctx, struct stats_client, plan->nclients);
	c->clients = talloc_zero_array(d->ctx, struct stats_client, plan->nclients * nranks);
	c->ranks = talloc_zero_array(d->ctx, struct cluster_rank, nranks);
	if ((cluster_rank() == 0 && !c->res) || !c->all || !c->dir || !c->merged || !c->mine ||
	    !c->clients || !c->ranks) {
		say("cannot allocate the results of %u clients over %u"
			" director%s: out of memory\n", plan->nclients * nranks, plan->ndirs,
			plan->ndirs == 1 ? "y" : "ies");
		return false;
	}
	return true;
}

/*
 * A test hook: with DBENCH_TEST_HIST_DIR set, each rank's own execute-phase
 * histograms, its clients' merged (struct hist[OP_COUNT], as bytes), go
 * to DIR/rank<R>.hist, so that a test can merge the ranks' on its own and
 * hold the percentiles rank 0 reduced over MPI against them.
 */
void collect_dump_hists(struct driver *d)
{
	const char *dir = getenv("DBENCH_TEST_HIST_DIR");
	struct stats_group *g = d->collect.dir;

	if (!dir)
		return;
	char *path = talloc_asprintf(d->ctx, "%s/rank%d.hist", dir, cluster_rank());
	memset(g, 0, sizeof(*g));
	stats_group_collect(g, d->stats, STATS_ALL_DIRS);
	FILE *f = path ? fopen(path, "w") : NULL;
	if (!f || fwrite(g->hist, sizeof(struct hist), OP_COUNT, f) != OP_COUNT)
		say("cannot write '%s'\n", path ? path : dir);
	if (f)
		fclose(f);
	talloc_free(path);
}

/* Every rank's figures reduced to rank 0, all and a directory at a time,
 * and the totals, clients and directories of res filled there (the other
 * ranks take part, with res NULL). */
static void collect_figures(struct driver *d, struct run_result *res)
{
	const struct run_plan *plan = d->plan;
	struct collect *c = &d->collect;
	struct cluster_rank me = { .seconds = sampler_rank_seconds(d),
				   .files_left = d->files_left };
	const struct sampler *s = &d->sampler;

	memset(c->all, 0, sizeof(*c->all));
	stats_group_collect(c->all, d->stats, STATS_ALL_DIRS);
	stats_clients_collect(d->stats, s->exec_ns, s->end_ns, c->mine);
	me.bytes = stats_bytes(&c->all->exec);
	cluster_reduce_groups(c->all, 1);
	cluster_gather_clients(c->mine, plan->nclients, c->clients);
	cluster_gather_ranks(&me, c->ranks);
	if (res) {
		res->started_at = c->started_at;
		res->mpi = cluster_mpi();
		res->exec_seconds = s->end_ns > s->exec_ns ? (s->end_ns - s->exec_ns) / 1e9 : 0;
		result_fill_figures(res, &(struct run_figures){ c->all, c->clients });
	}
	for (unsigned i = 0; i < plan->ndirs; i++) {	/* one directory's group at a time */
		memset(c->dir, 0, sizeof(*c->dir));
		stats_group_collect(c->dir, d->stats, (int)i);
		cluster_reduce_groups(c->dir, 1);
		if (res)
			result_fill_dir(res, i, c->dir, c->merged);
	}
}

/* The window against the plan: how late the parent closed it (held
 * stopped, or starved of CPU), beyond 1 % of the plan and 0.5 s a fact
 * the text gives, and how late it took the machine's reading that opens
 * it. */
static void collect_window(const struct driver *d, struct run_result *res)
{
	const struct sampler *s = &d->sampler;
	double plan = d->plan->timelimit;
	uint64_t end = s->exec_ns + d->plan->timelimit * 1000000000ull;

	res->window.planned_s = d->plan->run_once ? NAN : plan;
	res->window.late_s = !d->plan->run_once && s->exec_ns && s->closed_ns > end
				     ? (s->closed_ns - end) / 1e9 : 0;
	res->window.late = res->window.late_s > (plan / 100 > 0.5 ? plan / 100 : 0.5);
	res->window.open_late_s = s->exec_ns && s->opened_ns > s->exec_ns
					  ? (s->opened_ns - s->exec_ns) / 1e9 : 0;
}

/* What the sampler kept, handed to the result: the probe's listings,
 * the timeline, the passes. */
static void collect_sampled(struct driver *d, struct run_result *res)
{
	collect_window(d, res);
	if (d->plan->nprobes)
		result_fill_probe(res, d->stats);	/* rank 0's: the only ones */
	res->timeline = talloc_steal(res, d->sampler.timeline);
	res->ntimeline = d->sampler.ntimeline;
	res->timeline_types = talloc_steal(res, d->sampler.types);
	res->ntimeline_types = d->sampler.ntypes;
	if (d->sampler.points_lost)
		res->missing = res->missing ? res->missing : "timeline points";
	res->passes = talloc_steal(res, d->sampler.passes);
	res->npasses = d->sampler.npasses;
	res->passes_lost = d->sampler.passes_lost;
}

/* Each rank's bytes and time, its host and kernel. */
static void collect_ranks(struct driver *d, struct run_result *res)
{
	const struct run_plan *plan = d->plan;

	for (unsigned r = 0; r < cluster_size(); r++) {
		/* a broken cluster gathered rank 0's alone: the others' figures
		 * are missing (no time, so no rate), not a rank that moved nothing */
		bool known = r == 0 || !cluster_broken();
		res->ranks[r] = (struct rank_result){
			.rank = r, .host = cluster_host(r), .kernel = cluster_kernel(r),
			.clients = plan->nclients, .bytes = known ? d->collect.ranks[r].bytes : 0,
			.seconds = !known ? 0 : plan->run_once ? d->collect.ranks[r].seconds
							       : res->exec_seconds,
		};
	}
	result_fill_ranks(res);
}

/* How the run ended: its failure, the signal that interrupted it, what
 * every rank left in the targets, and the exit code they make. */
static void collect_outcome(struct driver *d, struct run_result *res)
{
	res->failure = talloc_steal(res, d->failure);
	/* a signal after the execute window ended leaves the results whole,
	 * unless a second one abandoned the clients' cleanup */
	bool late = d->sampler.late_interrupt && !d->procs.abandoned;
	int sig = procs_interrupts() ? (late ? 0 : procs_interrupt_signal())
				     : (int)d->sampler.all.interrupted;
	res->interrupted = sig != 0;
	for (unsigned r = 0; r < cluster_size(); r++)	/* what a rank left fails the run */
		if (r == 0 || !cluster_broken())
			res->files_left += d->collect.ranks[r].files_left;
	res->exit_code = res->failure ? EXIT_RUN_FAILED
		       : !res->interrupted ? EXIT_OK
		       : 128 + sig;
	if ((res->missing || res->files_left) && res->exit_code == EXIT_OK)
		res->exit_code = EXIT_RUN_FAILED;
}

/* The environment record (rank 0's, or NULL), with every rank's host and
 * kernel, taken by the result. */
static void collect_environment(struct run_result *res, json_t *env)
{
	res->environment = env;
	if (!env)
		return;
	json_t *list = json_array();
	for (unsigned r = 0; r < cluster_size(); r++) {
		const struct dockey_value v[] = {
			{ DK_ENV_RANK_RANK, json_integer(r) },
			{ DK_ENV_RANK_HOST, json_string(cluster_host(r)) },
			{ DK_ENV_RANK_KERNEL, json_string(cluster_kernel(r)) },
		};
		json_array_append_new(list, dockey_object(DK_ENV_RANK, NULL, v,
							  sizeof(v) / sizeof(v[0])));
	}
	json_object_set_new(env, dockey_name(DK_ENV_RANKS), list);
	result_keep_json(res, env);
}

/* Every rank's figures, reduced to rank 0 and turned into the result
 * there, in the memory collect_reserve() made.  The other ranks take part
 * and get NULL. */
struct run_result *collect_result(struct driver *d, json_t *env)
{
	struct run_result *res = cluster_rank() == 0 ? d->collect.res : NULL;

	collect_figures(d, res);
	if (!res)
		return NULL;
	d->collect.res = NULL;		/* the caller's now */
	collect_sampled(d, res);
	collect_ranks(d, res);
	const struct backend *b = d->plan->backend;
	if (b->no_local_writes)		/* no device shows its clients' writes */
		res->writeback_none = talloc_asprintf(res, "the %s backend %s", b->name,
						      b->no_local_writes);
	result_fill_disks(res, d->sampler.disks);
	if (d->sampler.host_marks == 2)
		hostload_figures(&res->host, &d->sampler.host_start, &d->sampler.host_end,
				 res->exec_seconds, (unsigned)get_nprocs());
	collect_outcome(d, res);
	res->setup_s = d->setup_s;
	res->sampler_cpu_ms = d->sampler.cpu_ms;
	res->sampler_realtime = d->sampler.realtime;
	res->op_clock = opclock_name();
	res->op_clock_hz = opclock.hz;
	collect_environment(res, env);
	return res;
}

int collect_report(struct driver *d, struct run_result *res)
{
	if (!report_text(d->text, res) && !res->missing)
		res->missing = "the list of stalls";
	if (res->missing) {
		say("cannot allocate %s: out of memory; the results are"
			" without them\n", res->missing);
		if (res->exit_code == EXIT_OK)
			res->exit_code = EXIT_RUN_FAILED;
	}
	if (d->plan->result_doc)
		*d->plan->result_doc = report_json(res);
	if (d->plan->json_path) {
		int err = report_json_write(res, d->plan->json_path);
		if (err) {
			say("cannot write JSON to '%s': %s\n",
				d->plan->json_path, outfile_strerror(err));
			return res->exit_code ? res->exit_code : EXIT_RUN_FAILED;
		}
	}
	return res->exit_code;
}
