/*
 * exitcode.h - the process exit codes every command of the program uses
 * (doc/DESIGN.md, "Exit codes").
 *
 * Below everything: it knows nothing of runs, reports or comparisons.
 */
#ifndef DBENCH_EXITCODE_H
#define DBENCH_EXITCODE_H

enum {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,		/* an operation error, a client died, an output lost */
	EXIT_BAD_INPUT = 2,		/* options, loadfile, target: found before any client starts */
	EXIT_SLOWER = 3,		/* compare or ab: a slowdown beyond --fail-above */
	EXIT_INCONCLUSIVE = 4,		/* compare or ab: no slowdown beyond it ruled out,
					 * or such a slowdown, but the machine's
					 * load or drift could explain it */
	EXIT_RECORDER = 125,		/* dbench record: the recorder failed once its command
					 * ran (else it exits with the command's status); 125
					 * as env(1), nice(1) and timeout(1) say their own */
	EXIT_INTERRUPTED = 130,		/* SIGINT (128 + signal in general) */
	EXIT_TERMINATED = 143,		/* SIGTERM */
};

#endif
