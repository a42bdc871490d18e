/*
 * report.c - the human-readable output of a run (see report.h).
 */
#include <inttypes.h>

#include "report/report.h"
#include "base/version.h"

void report_header(FILE *out, const struct run_plan *plan, unsigned nranks)
{
	unsigned n = plan->nclients * nranks;

	fprintf(out, "dbench %s: %u client%s", DBENCH_VERSION, n, n == 1 ? "" : "s");
	if (nranks > 1)
		fprintf(out, " on %u ranks (%u each)", nranks, plan->nclients);
	if (plan->run_once)
		fprintf(out, ", one pass of the loadfile each\n");
	else
		fprintf(out, ", %u s execute after %u s warmup\n", plan->timelimit,
			plan->warmup);
	fprintf(out, "loadfile: %s\n", plan->prog->source);
	for (unsigned i = 0; i < plan->ndirs; i++)
		fprintf(out, "directory: %s\n", plan->dirs[i]);
	fflush(out);
}

void report_progress(FILE *out, const struct progress *p)
{
	fprintf(out, "%4u %9" PRIu64 " %8.2f MB/sec  %-7s %3u sec  latency %.3f ms"
		"  now %.2f MB/sec\n",
		p->nclients, p->nclients ? p->lines / p->nclients : 0, p->mb_s,
		p->phase, p->secs, p->max_latency_ms, p->last_mb_s);
	fflush(out);
}

static void report_table(FILE *out, const struct run_result *res)
{
	fprintf(out, "\n %-24s %10s %9s %9s %9s %9s %9s %7s\n", "Operation", "Count",
		"AvgLat", "p50", "p99", "p99.9", "MaxLat", "Errors");
	fprintf(out, " %.93s\n", "-----------------------------------------------"
				  "-----------------------------------------------");
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		if (o->count == 0)
			continue;
		fprintf(out, " %-24s %10" PRIu64 " %9.3f %9.3f %9.3f %9.3f %9.3f %7" PRIu64 "\n",
			op_table[t].name, o->count, o->mean_ms, o->p50_ms, o->p99_ms,
			o->p999_ms, o->max_ms, o->errors);
	}
	fprintf(out, " (latencies in ms)\n\n");
}

void report_throughput_line(FILE *out, const struct run_result *res)
{
	double tp = result_throughput(res);

	fprintf(out, "Throughput %g MB/sec (NB=%g MB/sec  %g MBit/sec)%s%s  %u procs\n",
		tp, tp * 1.25, tp * 10,
		res->plan->bopts.sync_open ? " (sync open)" : "",
		res->plan->bopts.sync_dir ? " (sync dirs)" : "", res->nclients);
}

/* --probe: how long listing a directory took under the load. */
static void report_probe(FILE *out, const struct run_result *res)
{
	const struct probe_result *p = res->probe;

	if (!p)
		return;
	if (p->count == 0) {
		fprintf(out, "Probe: no listing of %s started in the execute window\n",
			p->directory);
		return;
	}
	fprintf(out, "Probe: %" PRIu64 " listing%s of %" PRIu64 " entries in %s, p50 %.3f ms,"
		" p99 %.3f ms, max %.3f ms\n", p->count, p->count == 1 ? "" : "s", p->entries,
		p->directory, p->p50_ms, p->p99_ms, p->max_ms);
}

/* --verify: what was checked, what it found, what it cost. */
static void report_verify(FILE *out, const struct run_result *res)
{
	const struct verify_result *v = &res->verify;

	if (v->bytes_checked >= 100000)
		fprintf(out, "Verify: %.1f MB", v->bytes_checked / 1e6);
	else
		fprintf(out, "Verify: %" PRIu64 " bytes", v->bytes_checked);
	fprintf(out, " checked in %" PRIu64 " read%s, ", v->reads_checked,
		v->reads_checked == 1 ? "" : "s");
	if (v->mismatches == 0)
		fprintf(out, "no mismatch");
	else
		fprintf(out, "%" PRIu64 " mismatch%s", v->mismatches,
			v->mismatches == 1 ? "" : "es");
	fprintf(out, ", %.2f s spent (%.1f %% of operation time)\n", v->cost_s, v->cost_pct);
}

static void report_fairness(FILE *out, const struct run_result *res)
{
	const struct fairness *f = &res->fairness;

	fprintf(out, "Clients: slowest %.2f MB/sec, median %.2f, fastest %.2f;"
		" Jain's fairness index %.4f\n",
		f->min_mb_s, f->median_mb_s, f->max_mb_s, f->jain_index);
}

/* An MPI run: each rank's share, how even they were, and the throughput
 * while all of them ran (a straggler host shows as a gap between the
 * stonewall figure and the total). */
static void report_ranks(FILE *out, const struct run_result *res)
{
	const struct fairness *f = &res->rank_fairness;

	if (!res->mpi)
		return;
	for (unsigned r = 0; r < res->nranks; r++) {
		const struct rank_result *rr = &res->ranks[r];
		fprintf(out, "Rank %u (%s, %s): %u client%s, %.2f MB/sec over %.2f s\n",
			rr->rank, rr->host, rr->kernel, rr->clients, rr->clients == 1 ? "" : "s",
			rr->mb_s, rr->seconds);
	}
	fprintf(out, "Ranks: slowest %.2f MB/sec, median %.2f, fastest %.2f;"
		" Jain's fairness index %.4f\n",
		f->min_mb_s, f->median_mb_s, f->max_mb_s, f->jain_index);
	fprintf(out, "Stonewall: %.2f MB/sec while every rank ran (the first %.2f s)\n",
		res->stonewall_mb_s, res->stonewall_s);
}

/* With several -D, each directory's share. */
static void report_dirs(FILE *out, const struct run_result *res)
{
	for (unsigned d = 0; res->dirs && res->plan->ndirs > 1 && d < res->plan->ndirs; d++) {
		const struct dir_result *dr = &res->dirs[d];
		fprintf(out, "Directory %s: %u client%s, %.2f MB/sec, p99 %.3f ms\n",
			dr->directory, dr->clients, dr->clients == 1 ? "" : "s", dr->mb_s,
			dr->p99_ms);
	}
}

static void report_stalls(FILE *out, const struct run_result *res)
{
	size_t *idx;
	size_t n = result_stalls(NULL, res, &idx);

	for (size_t i = 0; i < n; i++) {
		const struct timeline_point *p = &res->timeline[idx[i]];
		fprintf(out, "Stall: second %.0f of the execute window: %.2f MB/sec,"
			" %.0f ops/sec, worst latency %.3f ms\n",
			p->t_s, p->mb_s, p->ops_s, p->max_latency_ms);
	}
	talloc_free(idx);
}

static void report_per_client(FILE *out, const struct run_result *res)
{
	for (unsigned i = 0; i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		if (res->mpi)
			fprintf(out, "rank %u ", c->rank);
		fprintf(out, "client %u: %g MB/sec  %" PRIu64 " bytes  %" PRIu64 " ops  %"
			PRIu64 " errors\n", c->id, c->mb_s, c->bytes, c->ops, c->errors);
	}
}

void report_text(FILE *out, const struct run_result *res)
{
	report_table(out, res);
	report_throughput_line(out, res);
	report_probe(out, res);
	if (res->plan->bopts.verify)
		report_verify(out, res);
	report_fairness(out, res);
	report_ranks(out, res);
	report_dirs(out, res);
	report_stalls(out, res);
	if (res->plan->per_client_results)
		report_per_client(out, res);
	if (res->failure)
		fprintf(out, "FAILED: %s\n", res->failure->text);
	fflush(out);
}
