/*
 * report.h - the result of a run and the text that shows it.
 *
 * The driver fills a `struct run_result` (talloc) from the stats region
 * when the run ends; the reporters only read it.  Text output follows
 * DESIGN.md section 4: a header, one progress line a second, the
 * per-operation table and the classic throughput line.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "driver.h"
#include "stats.h"

struct client_result {
	uint64_t bytes;		/* bytes moved in the execute window */
	uint64_t ops;
	uint64_t errors;
};

struct run_result {
	unsigned nclients;
	double exec_seconds;		/* measured length of the execute window */
	struct phase_stats total;	/* execute window, all clients */
	struct client_result *clients;	/* nclients of them */
	char *failure;			/* why the run failed, or NULL */
	bool interrupted;		/* stopped by SIGINT/SIGTERM */
};

/* What a progress line shows. */
struct progress {
	unsigned nclients;
	uint64_t lines;		/* operations done by all clients in the phase */
	double mb_s;		/* cumulative over the phase */
	const char *phase;	/* "warmup", "execute", "cleanup" */
	unsigned secs;		/* seconds into the phase */
	double max_latency_ms;	/* worst operation latency in the last second */
};

/* MB/sec (10^6 bytes) for the execute window. */
double report_throughput(const struct run_result *res);

void report_header(FILE *out, const struct run_plan *plan);
void report_progress(FILE *out, const struct progress *p);
void report_table(FILE *out, const struct run_result *res);
void report_throughput_line(FILE *out, const struct run_plan *plan,
			    const struct run_result *res);
void report_per_client(FILE *out, const struct run_result *res);

#endif
