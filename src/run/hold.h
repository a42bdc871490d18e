/*
 * hold.h - DBENCH_TEST_HOLD, a testing aid for src/run/ alone: the parent
 * stops itself (SIGSTOP) at a named point of a run, so that a test acts
 * on the run held there (a signal while the clients are forked) rather
 * than hoping that a sleep lands in the moment.  The test waits until
 * the parent is stopped (state T), does what it tests, and sends SIGCONT;
 * a signal sent meanwhile is handled as the parent goes on.
 *
 *   fork:N   once the parent has forked its Nth client process (N from 1;
 *            a run of fewer processes is never held)
 *   start    once the clients are released (the warmup or the measured
 *            window has begun)
 *   reaped   once every client process has exited and been reaped,
 *            before the parent removes what they left and closes the
 *            targets
 *
 * Unset or empty, nothing is held.  Knows nothing of runs but the
 * points' names; the man page's ENVIRONMENT says it to users.
 */
#ifndef DBENCH_RUN_HOLD_H
#define DBENCH_RUN_HOLD_H

#include <stdbool.h>

/* Read DBENCH_TEST_HOLD for this run: NULL when it is unset, empty or
 * well formed; otherwise the message saying what is wrong with it. */
const char *hold_read(void);

/* The parent has forked `forked` client processes: held there when
 * asked for fork:`forked`. */
void hold_after_fork(unsigned forked);

/* The clients were released: held there when asked for start. */
void hold_after_start(void);

/* Every client process is reaped: held there when asked for reaped. */
void hold_after_reap(void);

#endif
