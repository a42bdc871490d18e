/*
 * streams.h - the threads of one client replaying a recording's streams
 * at once, and the waits between them (private to src/run/).
 *
 * Each stream has a progress counter: how many of its calls of the pass
 * are done.  A call waits for the counters its dependencies name
 * (loadfile.h struct call_dep) with a futex, woken only when someone
 * waits, so a stream nobody waits for pays one relaxed store a call.  It
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

/* Wait until every dependency of deps[0 .. n) is done.  False when the
 * pass is aborted first. */
bool streams_wait(struct streams *ss, const struct call_dep *deps, uint32_t n);

/* Stream s has done its first `seq` calls of the pass. */
void streams_done(struct streams *ss, unsigned s, uint32_t seq);

/* Stop the pass: every wait returns false from now on, until the next
 * streams_run(). */
void streams_abort(struct streams *ss);
bool streams_aborted(const struct streams *ss);

#endif
