/*
 * plan.h - what one run is to do: the run plan that main builds from the
 * command line and the driver carries out.
 *
 * Below the driver and everything that reads a plan (client, probe,
 * result, report, sweep): it holds data only, no function, and knows
 * nothing of how a run is carried out.
 */
#ifndef DBENCH_PLAN_H
#define DBENCH_PLAN_H

#include <stdbool.h>

#include <jansson.h>

#include "backend.h"
#include "exitcode.h"
#include "loadfile.h"

#define DBENCH_MAX_CLIENTS 10000

/* The text layout (--output-format): ours, or dbench 4.0's line for line
 * for the harnesses that parse it. */
enum output_format {
	OUTPUT_CLASSIC,
	OUTPUT_DBENCH4,
};

/* --replay-timing: how a recording's calls are spaced (doc/SYSCALLS.md). */
enum replay_timing {
	REPLAY_ASAP,		/* each as soon as the calls it waits for are done */
	REPLAY_THINK,		/* keeping the gaps between a stream's calls */
	REPLAY_EXACT,		/* each at its recorded time from the pass's start */
};

struct run_plan {
	unsigned nclients;		/* NPROCS: clients in all */
	unsigned clients_per_process;	/* clients sharing one process */
	const unsigned *cpus;		/* --cpus: client process p is kept on CPU
					 * cpus[p % ncpus]; NULL: where the
					 * scheduler puts it (the parent is never
					 * pinned) */
	unsigned ncpus;
	unsigned timelimit;		/* execute phase, seconds */
	unsigned warmup;		/* warmup phase before it, seconds */
	bool timelimit_default;		/* -t not given: 600 s */
	bool warmup_default;		/* --warmup not given: timelimit / 5 */
	unsigned stop_timeout;		/* once the run ends, how long a client process
					 * or the probe may take to stop; how long an
					 * MPI rank may leave the others unanswered */
	const char **dirs;		/* target specs (-D directories, or the backend's
					 * own: backend.h targets); client i uses
					 * dirs[i % ndirs] */
	unsigned ndirs;
	double target_rate;		/* per-client MB/s pacing, 0 = none */
	double think_us;		/* pause between operations, microseconds */
	bool think_exp;			/* ... exponentially distributed with that mean */
	bool skip_cleanup;		/* leave DIR/clients behind */
	bool per_client_results;	/* a line per client after the table */
	bool run_once;			/* one pass per client, no time limit */
	bool quiet;			/* no progress lines */
	enum output_format output_format;
	bool machine_readable;		/* dbench4 layout in dbench 5.0's @-lines */
	bool show_execute_time;		/* a line per finished loadfile pass */
	bool continue_on_error;		/* count unexpected outcomes, do not stop */
	enum replay_timing replay_timing;	/* a recording's (--replay-timing) */
	double replay_speed;		/* --replay-speed: recorded times divided by it */
	double stagger_s;		/* --stagger: client i starts i * stagger_s /
					 * nclients seconds after the release */
	bool strict;			/* --strict: a recording's first outcome
					 * difference fails the run */
	unsigned nprobes;		/* --probe, once per directory: processes that
					 * time `ls -l` under load; 0 without */
	const char *const *probe_dirs;	/* [nprobes]: the directory each probe
					 * lists: --probe=DIR as given, or for a bare
					 * --probe DIR/clients/probe in the first
					 * target, made for the run */
	int own_probe;			/* the bare --probe's index in probe_dirs,
					 * or -1 */
	const char *json_path;		/* --json: file, "-" for stdout, or NULL */
	json_t **result_doc;		/* if set: receives the run's JSON document */
	bool text_on_stderr;		/* human text to stderr (stdout holds JSON) */
	const char *command_line;	/* as typed, for the record */
	const char *label;		/* --label: the run's name in its JSON, plot
					 * legends and compare's headers, or NULL */
	unsigned series_position;	/* its place in a series of runs (sweep, ab),
					 * from 1; 0 for a run on its own */
	unsigned series_runs;		/* the runs the series plans (the most, with
					 * --precision) */
	const char *series_side;	/* dbench ab: "A" or "B"; else NULL */
	struct backend_options bopts;
	const struct backend *backend;
	const struct program *prog;	/* compiled loadfile, read-only */
};

#endif
