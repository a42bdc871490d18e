/*
 * cli.h - the command line: the options (popt), the checks on what was
 * given, and the run plan (plan.h) and sweep plan built from them.
 *
 * Above the plan, the driver and the sweep, below main: it prints the
 * usage errors, --help, --usage (the options of a run: main adds the
 * commands) and --version itself and runs nothing.
 * Every backend's own options (backend.h) are among the options.
 */
#ifndef DBENCH_CLI_H
#define DBENCH_CLI_H

#include <popt.h>
#include <stdbool.h>

#include <talloc.h>

#include "sweep.h"
#include "plan.h"

enum cli_action {
	CLI_EXIT,		/* nothing more to do: leave with exit_code */
	CLI_HELP,		/* --help or --usage printed the options: the
				 * commands beside a run follow (commands.h) */
	CLI_CHECK_LOADFILE,	/* --check-loadfile: plan.prog, plan.backend and
				 * its options, plan.bopts.own */
	CLI_RUN,		/* one run of plan */
	CLI_SWEEP,		/* --sweep: runs of plan, one per sweep.procs */
};

struct cli {
	enum cli_action action;
	int exit_code;		/* CLI_EXIT: 0 (after --help ...), 2 (bad usage),
				 * or 1 (out of memory reading the loadfile) */
	bool full_help;		/* CLI_HELP: --help, not --usage */
	bool backend_given;	/* --backend was given (--check-loadfile reports on it) */
	struct run_plan plan;
	struct sweep_plan sweep;
};

/*
 * Parse argv and build the plans, all on mem_ctx (the strings the plan
 * points to live as long as it).  What was wrong with the command line
 * is said on stderr, with out->action CLI_EXIT and exit_code 2 (or 1).
 * The command line recorded in the plan has its passwords masked
 * (secret.h); main has hidden them from `ps` before.
 */
void cli_parse(TALLOC_CTX *mem_ctx, int argc, const char **argv, struct cli *out);

/*
 * A run's options, the backends' among them, on mem_ctx: for naming them
 * (badopt.h), never for a parse (their values point into it).  NULL when
 * out of memory.
 */
const struct poptOption *cli_run_options(TALLOC_CTX *mem_ctx);

#endif
