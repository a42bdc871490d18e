/*
 * driver.h - one run of the benchmark: the driver that carries out a
 * plan (plan.h), and the check of its targets that a series of runs
 * makes before its first.
 *
 * cli.c turns the command line into a `struct run_plan`; the driver opens
 * the targets through the backend, forks the client processes, releases
 * them together, samples them once a second through the shared stats
 * region, moves them through warmup, execute and cleanup, reaps them, and
 * hands the result to the reporter.  Its parts are in driver_internal.h.
 */
#ifndef DBENCH_DRIVER_H
#define DBENCH_DRIVER_H

#include <stdbool.h>

#include "plan.h"

/*
 * Run the plan; prints progress and results; returns an exit code.
 *
 * A client process (and the --probe process) returns from driver_run()
 * too, with its own exit status, so that it leaves through main and frees
 * what it inherited.  Callers that would do more after a run must check
 * driver_is_client() first and return at once when it is true.
 */
int driver_run(const struct run_plan *plan);

/*
 * Check what driver_run() checks before anything starts, the clock
 * DBENCH_OPCLOCK asks for and every target of the plan (each opened
 * through the backend: a directory, a server, then closed again, leaving
 * nothing behind): for a series of runs to stop before its first run
 * rather than in it.  False, after saying why as a
 * run would, when one cannot be used (a run's exit status 2).  Not for
 * mpirun, whose ranks agree on the plan first (a series is refused there).
 */
bool driver_check_start(const struct run_plan *plan);

/* True in a forked process, a client or the probe (after driver_run()
 * returned in it). */
bool driver_is_client(void);

/* A series of runs between them (its rests, its --prepare commands):
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are noted, as a run notes them,
 * rather than end the process; driver_interrupt() says the first that
 * came (0 while none has), and a run started after one stops at once. */
void driver_catch_signals(void);
int driver_interrupt(void);

#endif
