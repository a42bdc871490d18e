/*
 * report.c - the human-readable output of a run (see report.h).
 */
#include <inttypes.h>

#include "report.h"
#include "version.h"

double report_throughput(const struct run_result *res)
{
	if (res->exec_seconds <= 0)
		return 0;
	return res->total.bytes / 1e6 / res->exec_seconds;
}

void report_header(FILE *out, const struct run_plan *plan)
{
	fprintf(out, "dbench %s: %u client%s", DBENCH_VERSION, plan->nclients,
		plan->nclients == 1 ? "" : "s");
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
	fprintf(out, "%4u %9" PRIu64 " %8.2f MB/sec  %-7s %3u sec  latency %.3f ms\n",
		p->nclients, p->nclients ? p->lines / p->nclients : 0, p->mb_s,
		p->phase, p->secs, p->max_latency_ms);
	fflush(out);
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

void report_table(FILE *out, const struct run_result *res)
{
	fprintf(out, "\n %-24s %10s %10s %10s %8s\n", "Operation", "Count", "AvgLat",
		"MaxLat", "Errors");
	fprintf(out, " %.66s\n", "------------------------------------------------------------------");
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_stats *o = &res->total.op[t];
		if (o->count == 0)
			continue;
		fprintf(out, " %-24s %10" PRIu64 " %10.3f %10.3f %8" PRIu64 "\n",
			op_table[t].name, o->count, ms(o->total_ns) / o->count,
			ms(o->max_ns), o->errors);
	}
	fprintf(out, "\n");
}

void report_throughput_line(FILE *out, const struct run_plan *plan,
			    const struct run_result *res)
{
	double tp = report_throughput(res);

	fprintf(out, "Throughput %g MB/sec (NB=%g MB/sec  %g MBit/sec)%s%s  %u procs\n",
		tp, tp * 1.25, tp * 10,
		plan->bopts.sync_open ? " (sync open)" : "",
		plan->bopts.sync_dir ? " (sync dirs)" : "", res->nclients);
	fflush(out);
}

void report_per_client(FILE *out, const struct run_result *res)
{
	for (unsigned i = 0; i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		fprintf(out, "client %u: %g MB/sec  %" PRIu64 " bytes  %" PRIu64 " ops  %" PRIu64 " errors\n",
			i + 1, res->exec_seconds > 0 ? c->bytes / 1e6 / res->exec_seconds : 0, c->bytes,
			c->ops, c->errors);
	}
}
