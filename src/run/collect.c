/*
 * collect.c - the end of a run: every rank's figures reduced to rank 0
 * and turned into the result there (with the environment record), the
 * test hook that dumps this rank's histograms, and the text and JSON
 * reports.  Reads d->procs and d->sampler, writes neither.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/opclock.h"
#include "run/driver_internal.h"

/*
 * A test hook: with DBENCH_TEST_HIST_DIR set, each rank's own execute-phase
 * histograms, its clients' merged (struct hist[OP_COUNT], as bytes), go
 * to DIR/rank<R>.hist, so that a test can merge the ranks' on its own and
 * hold the percentiles rank 0 reduced over MPI against them.
 */
void collect_dump_hists(struct driver *d)
{
	const char *dir = getenv("DBENCH_TEST_HIST_DIR");

	if (!dir)
		return;
	struct stats_group *g = talloc_zero(d->ctx, struct stats_group);
	char *path = talloc_asprintf(d->ctx, "%s/rank%d.hist", dir, cluster_rank());
	stats_group_collect(g, d->stats, STATS_ALL_DIRS);
	FILE *f = fopen(path, "w");
	if (!f || fwrite(g->hist, sizeof(struct hist), OP_COUNT, f) != OP_COUNT)
		fprintf(stderr, "dbench: cannot write '%s'\n", path);
	if (f)
		fclose(f);
	talloc_free(path);
	talloc_free(g);
}

/* Every rank's figures, reduced to rank 0 and turned into the result
 * there.  The other ranks take part and get NULL. */
struct run_result *collect_result(struct driver *d, const char *started_at, json_t *env)
{
	const struct run_plan *plan = d->plan;
	unsigned nranks = cluster_size(), ndirs = plan->ndirs;
	bool root = cluster_rank() == 0;
	struct run_result *res = talloc_zero(d->ctx, struct run_result);
	struct stats_group *groups = talloc_zero_array(res, struct stats_group, 1 + ndirs);
	struct stats_client *mine = talloc_zero_array(res, struct stats_client, plan->nclients);
	struct stats_client *all = talloc_zero_array(res, struct stats_client,
						     plan->nclients * nranks);
	struct cluster_rank me = { .seconds = sampler_rank_seconds(d) };
	struct cluster_rank *ranks = talloc_zero_array(res, struct cluster_rank, nranks);

	stats_group_collect(&groups[0], d->stats, STATS_ALL_DIRS);
	for (unsigned i = 0; i < ndirs; i++)
		stats_group_collect(&groups[1 + i], d->stats, (int)i);
	stats_clients_collect(d->stats, mine);
	me.bytes = stats_bytes(&groups[0].exec);
	cluster_reduce_groups(groups, 1 + ndirs);
	cluster_gather_clients(mine, plan->nclients, all);
	cluster_gather_ranks(&me, ranks);
	if (!root) {
		talloc_free(res);
		return NULL;
	}
	res->plan = plan;
	res->started_at = talloc_strdup(res, started_at);
	res->nclients = plan->nclients * nranks;
	res->nranks = nranks;
	res->mpi = cluster_mpi();
	const struct sampler *s = &d->sampler;
	res->exec_seconds = s->end_ns > s->exec_ns ? (s->end_ns - s->exec_ns) / 1e9 : 0;
	result_fill_figures(res, &(struct run_figures){ &groups[0], &groups[1], all });
	if (plan->probe)
		result_fill_probe(res, d->stats);	/* rank 0's: the only one */
	res->timeline = talloc_steal(res, d->sampler.timeline);
	res->ntimeline = d->sampler.ntimeline;
	res->passes = talloc_steal(res, d->sampler.passes);
	res->npasses = d->sampler.npasses;
	res->passes_lost = d->sampler.passes_lost;
	res->ranks = talloc_zero_array(res, struct rank_result, nranks);
	for (unsigned r = 0; r < nranks; r++) {
		res->ranks[r] = (struct rank_result){
			.rank = r, .host = cluster_host(r), .kernel = cluster_kernel(r),
			.clients = plan->nclients, .bytes = ranks[r].bytes,
			.seconds = plan->run_once ? ranks[r].seconds : res->exec_seconds,
		};
	}
	result_fill_ranks(res);
	result_fill_disks(res, d->sampler.disks);
	res->failure = talloc_steal(res, d->failure);
	/* a signal after the execute window ended leaves the results whole,
	 * unless a second one abandoned the clients' cleanup */
	bool late = d->sampler.late_interrupt && !d->procs.abandoned;
	int sig = procs_interrupts() ? (late ? 0 : procs_interrupt_signal())
				     : (int)d->sampler.all.interrupted;
	res->interrupted = sig != 0;
	res->exit_code = res->failure ? EXIT_RUN_FAILED
		       : !res->interrupted ? EXIT_OK
		       : 128 + sig;
	res->setup_s = d->setup_s;
	res->sampler_cpu_ms = d->sampler.cpu_ms;
	res->sampler_realtime = d->sampler.realtime;
	res->op_clock = opclock_name();
	res->op_clock_hz = opclock.hz;
	res->environment = env;
	if (env) {
		json_t *list = json_array();
		for (unsigned r = 0; r < nranks; r++)
			json_array_append_new(list, json_pack("{s:I, s:s, s:s}",
				"rank", (json_int_t)r, "host", cluster_host(r),
				"kernel", cluster_kernel(r)));
		json_object_set_new(env, "ranks", list);
		result_keep_json(res, env);
	}
	return res;
}

int collect_report(struct driver *d, const struct run_result *res)
{
	report_text(d->text, res);
	if (d->plan->result_doc)
		*d->plan->result_doc = report_json(res);
	if (d->plan->json_path) {
		int err = report_json_write(res, d->plan->json_path);
		if (err) {
			fprintf(stderr, "dbench: cannot write JSON to '%s': %s\n",
				d->plan->json_path, strerror(err));
			return res->exit_code ? res->exit_code : EXIT_RUN_FAILED;
		}
	}
	return res->exit_code;
}
