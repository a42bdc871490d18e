/*
 * report.h - showing a run: the text a person reads and the JSON a script
 * keeps.
 *
 * Text follows DESIGN.md section 4: a header, one progress line a second,
 * the per-operation table, the classic throughput line, then fairness,
 * stalls and, on request, a line per client.  The JSON document holds the
 * whole result with the environment it came from.  Reporters only read the
 * result; they compute nothing that another reporter could disagree with.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "run/plan.h"
#include "report/result.h"

/* What a progress line shows. */
struct progress {
	unsigned nclients;
	uint64_t lines;		/* operations done by all clients in the phase */
	double mb_s;		/* cumulative over the phase */
	double last_mb_s;	/* in the last second alone */
	const char *phase;	/* "warmup", "execute", "cleanup" */
	unsigned secs;		/* seconds into the phase */
	double max_latency_ms;	/* worst operation latency in the last second */
};

/* The lines before a run; nranks > 1 in an MPI run (plan->nclients each). */
void report_header(FILE *out, const struct run_plan *plan, unsigned nranks);
void report_progress(FILE *out, const struct progress *p);

/* The table, throughput line, fairness, stalls, per-client lines and the
 * FAILED line: everything printed after the run. */
void report_text(FILE *out, const struct run_result *res);

/* The classic line alone: "Throughput X MB/sec (NB=Y MB/sec  Z MBit/sec)  N procs". */
void report_throughput_line(FILE *out, const struct run_result *res);

/* The result as a JSON document (a new reference). */
json_t *report_json(const struct run_result *res);

/* Write the document to path ("-" = stdout).  0, or an errno value. */
int report_json_write(const struct run_result *res, const char *path);

#endif
