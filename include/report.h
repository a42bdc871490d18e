/*
 * report.h - showing a run: the text a person reads and the JSON a script
 * keeps.
 *
 * Text follows doc/DESIGN.md, "Output", in one of two layouts: classic (a
 * header, one progress line a second, notes such as fairness and stalls,
 * the per-operation table, the classic throughput line) or dbench4 (dbench
 * 4.0's lines, field for field, for the harnesses that parse them; what
 * 4.0 did not print is left to the JSON).  The JSON document holds the
 * whole result with the environment it came from.  Reporters only read the
 * result; they compute nothing that another reporter could disagree with.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "plan.h"
#include "result.h"

/* What a progress line shows. */
struct progress {
	enum output_format format;
	bool machine_readable;	/* dbench4 layout: dbench 5.0's @-lines */
	unsigned nclients;
	unsigned active;	/* clients not yet done with their cleanup */
	uint64_t lines;		/* operations done by all clients in the phase */
	double mb_s;		/* cumulative over the phase */
	double last_mb_s;	/* in the last second alone */
	const char *phase;	/* "warmup", "execute", "cleanup" */
	unsigned secs;		/* seconds into the phase */
	unsigned exec_secs;	/* seconds since the execute phase began (its
				 * cleanup lines count from there in dbench4) */
	double max_latency_ms;	/* worst operation latency in the last second */
	bool behind;		/* a recording in exact timing: how far behind */
	double behind_mean_ms;	/* the calls so far started late, on average */
	double behind_max_ms;	/* ... and at worst */
};

/*
 * The text of a run, in the order it is printed: the header, the line
 * saying the clients are released, a progress line a second (and a line per
 * finished loadfile pass with --show-execute-time), the end of the
 * progress lines, then everything after the run with the Throughput line
 * last.  Each follows plan->output_format; nranks > 1 in an MPI run
 * (plan->nclients each).
 */
void report_header(FILE *out, const struct run_plan *plan, unsigned nranks);
void report_ready(FILE *out, const struct run_plan *plan, unsigned nranks, double setup_s);
/* Once a second while the clients set up, before report_ready(): "312 of
 * 1000 clients prepared, 1 s" (dbench4: 4.0's "312 of 1000 processes
 * prepared for launch   1 sec"), `ready` clients of this process's. */
void report_setup(FILE *out, const struct run_plan *plan, unsigned ready, double secs);
/* A signal before the clients were released: nothing was measured. */
void report_setup_interrupted(FILE *out);
void report_progress(FILE *out, const struct progress *p);
void report_progress_end(FILE *out, const struct progress *p);

/* --show-execute-time: the line of one finished pass, as the dbench that
 * mmtests builds prints it ("   3 completed in 1234 ms at time 5678 ms",
 * or "@E@3@1234" with --machine-readable), in both layouts. */
void report_pass(FILE *out, const struct run_plan *plan, const struct pass_time *p);

/* The table, notes (fairness, stalls, probe, per-client lines, the FAILED
 * line) and the Throughput line, which is the last line in every layout.
 * False when memory ran out for the list of stalls, left out. */
bool report_text(FILE *out, const struct run_result *res);

/* A share of the loadfile (1 = one pass) in percent, with as many
 * decimals as it needs to say something: "57 %", "3.3 %", "0.41 %". */
const char *report_share_pct(char buf[16], double share);

/* The classic line alone: "Throughput X MB/sec (NB=Y MB/sec  Z MBit/sec)  N procs". */
void report_throughput_line(FILE *out, const struct run_result *res);

/* BYTES in decimal units, as every line gives a size: "12.3 MB", "512
 * bytes", "1.50 GB" ("-" for NAN).  Returns buf. */
const char *report_size_text(char buf[32], double bytes);

/* The result as a JSON document (a new reference). */
json_t *report_json(const struct run_result *res);

/* Write the result's document to path ("-" = stdout), whole or not at all
 * (outfile.h).  0, or an errno value. */
int report_json_write(const struct run_result *res, const char *path);

/* Write any JSON document the same way, indented, keys in order. */
int report_json_dump(json_t *doc, const char *path);

#endif
