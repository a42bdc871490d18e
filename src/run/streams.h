/*
 * streams.h - the threads of one client replaying a recording's streams
 * at once, and the waits between them (private to src/run/).
 *
 * Each stream has a progress counter: how many of its calls of the pass
 * are done.  A call waits for the counters its dependencies name
 * (loadfile.h struct call_dep) with a futex, woken only when someone
 * waits, and then only those waiting for that count, so a stream nobody
 * waits for pays one relaxed store a call.  It
 * knows nothing of what a call is: client.c runs the calls.
 */
#ifndef DBENCH_RUN_STREAMS_H
#define DBENCH_RUN_STREAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "loadfile.h"

struct streams;

/* The state for n streams on mem_ctx, or NULL. */
struct streams *streams_new(TALLOC_CTX *mem_ctx, unsigned n);

/*
 * Run fn(arg, i) for every stream i at once, stream 0 on the calling
 * thread and each other on a thread of its own, and return when all have
 * returned: one pass.  The counters start again from 0.  False when a
 * thread could not be started (errno set); the streams started are
 * stopped (streams_abort) and waited for first.
 */
bool streams_run(struct streams *ss, void (*fn)(void *arg, unsigned stream), void *arg);

/* What a wait came to. */
enum streams_wait {
	STREAMS_GO,		/* every dependency is done */
	STREAMS_STOPPED,	/* the pass was aborted first */
	STREAMS_STALLED,	/* this stream found a circle of streams waiting
				 * on each other (streams_stall()); the pass is
				 * aborted */
};

/* Stream `self` waits until every dependency of deps[0 .. n) is done. */
enum streams_wait streams_wait(struct streams *ss, unsigned self, const struct call_dep *deps,
			       uint32_t n);

/* A guard, for waits no program should have (the compiler refuses a
 * circle of waits): once a stream has waited `ns` for a stream that
 * waits, through others, for it, each of them waiting that long, its
 * wait comes to STREAMS_STALLED.  0, the default: never. */
void streams_set_stall(struct streams *ss, uint64_t ns);

/* A wait looks at stop(arg) about once a second: when it is true (the
 * run has ended), the pass is aborted and the wait comes to
 * STREAMS_STOPPED.  NULL, the default: only an abort stops a wait. */
void streams_set_stop(struct streams *ss, bool (*stop)(void *arg), void *arg);

/* The circle a wait came to STREAMS_STALLED for: *n waits, each the
 * (stream, seq) the one before waits for, the first the stalled
 * stream's own. */
const struct call_dep *streams_stall(const struct streams *ss, unsigned *n);

/* Stream s has done its first `seq` calls of the pass. */
void streams_done(struct streams *ss, unsigned s, uint32_t seq);

/* Stop the pass: every wait returns false from now on, until the next
 * streams_run(). */
void streams_abort(struct streams *ss);
bool streams_aborted(const struct streams *ss);

/* The futex wake-up calls streams_done() made so far: one only where a
 * thread waits on the count's bit (what waiting costs the stream waited
 * for). */
uint64_t streams_wakeups(const struct streams *ss);

#endif
