/*
 * lockwait.h - a blocking lock call of a recording held to a limit
 * (private to src/run/).  A timer on the calling thread sends it a signal
 * whose handler does nothing, installed without SA_RESTART, so that the
 * call returns EINTR: after a number of seconds, and again every 20 ms
 * after that (a signal that came just before the call began is not
 * lost), or at once when another thread cuts the wait short.  The lock
 * such a call waits for may be one the recording's order did not foresee
 * (a file reached under two names); the limit keeps it from holding a
 * replay for ever.  It knows nothing of clients or calls: its caller
 * keeps a struct lockwait per thread, under a lock of its own when
 * another thread may cut it.
 */
#ifndef DBENCH_RUN_LOCKWAIT_H
#define DBENCH_RUN_LOCKWAIT_H

#include <stdbool.h>
#include <time.h>

struct lockwait {
	timer_t timer;
	bool armed;		/* between lockwait_arm() and lockwait_disarm() */
};

/* The signal's handler, for the whole process; once, before any arm. */
void lockwait_install(void);

/* Arm w on the calling thread to fire in `secs` seconds; false (nothing
 * armed: the call is then not bounded) when no timer could be made. */
bool lockwait_arm(struct lockwait *w, unsigned secs);

void lockwait_disarm(struct lockwait *w);

/* Fire w's timer now, if it is armed. */
void lockwait_cut(struct lockwait *w);

#endif
