/*
 * driver.h - one run of the benchmark: the plan, and the driver that
 * carries it out.
 *
 * main turns the command line into a `struct run_plan`; the driver makes
 * the client directories, forks the client processes, releases them
 * together, samples them once a second through the shared stats region,
 * moves them through warmup, execute and cleanup, reaps them, and hands
 * the result to the reporter.
 */
#ifndef DBENCH_DRIVER_H
#define DBENCH_DRIVER_H

#include <stdbool.h>

#include <jansson.h>

#include "backend.h"
#include "loadfile.h"

/* Exit codes (DESIGN.md section 3). */
enum {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_INTERRUPTED = 130,		/* SIGINT */
	EXIT_TERMINATED = 143,		/* SIGTERM */
};

#define DBENCH_MAX_CLIENTS 10000

struct run_plan {
	unsigned nclients;		/* NPROCS: clients in all */
	unsigned clients_per_process;	/* clients sharing one process */
	unsigned timelimit;		/* execute phase, seconds */
	unsigned warmup;		/* warmup phase before it, seconds */
	const char **dirs;		/* target directories; client i uses dirs[i % ndirs] */
	unsigned ndirs;
	double target_rate;		/* per-client MB/s pacing, 0 = none */
	double think_us;		/* pause between operations, microseconds */
	bool think_exp;			/* ... exponentially distributed with that mean */
	bool skip_cleanup;		/* leave DIR/clients behind */
	bool per_client_results;	/* a line per client after the table */
	bool run_once;			/* one pass per client, no time limit */
	bool quiet;			/* no progress lines */
	bool continue_on_error;		/* count unexpected outcomes, do not stop */
	bool probe;			/* --probe: time `ls -l` of a directory under load */
	const char *probe_dir;		/* --probe=DIR, or NULL: DIR/clients/probe, made
					 * for the run in the first target directory */
	const char *json_path;		/* --json: file, "-" for stdout, or NULL */
	json_t **result_doc;		/* if set: receives the run's JSON document */
	bool text_on_stderr;		/* human text to stderr (stdout holds JSON) */
	const char *command_line;	/* as typed, for the record */
	struct backend_options bopts;
	const struct backend *backend;
	const struct program *prog;	/* compiled loadfile, read-only */
};

/*
 * Run the plan; prints progress and results; returns an exit code.
 *
 * A client process (and the --probe process) returns from driver_run()
 * too, with its own exit status, so that it leaves through main and frees
 * what it inherited.  Callers that would do more after a run must check
 * driver_is_client() first and return at once when it is true.
 */
int driver_run(const struct run_plan *plan);

/* True in a forked process, a client or the probe (after driver_run()
 * returned in it). */
bool driver_is_client(void);

#endif
