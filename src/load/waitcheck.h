/*
 * waitcheck.h - whether the streams of a compiled recording all finish
 * (private to src/load/).  Each stream runs its calls in order, each once
 * the (stream, calls done) it waits for are done, as a client replays
 * them (src/run/streams.c).  The compiler of the system-call dialect asks
 * before it hands a program over: the wait of a blocking lock call for
 * the release of its lock names a later line, and such waits may close a
 * circle, which would deadlock every replay.  It knows the program's
 * streams and waits, nothing of what a call does.
 */
#ifndef DBENCH_LOAD_WAITCHECK_H
#define DBENCH_LOAD_WAITCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "loadfile.h"

/* Call `pos` (a position) waits for dep. */
struct wait_edge {
	uint32_t pos;
	struct call_dep dep;
};

/* Whether every stream of prog finishes, each call waiting for its waits
 * (prog->deps).  When not: false, and *cycle (on mem_ctx, *ncycle of
 * them) the waits of one circle, each a call and what it waits for;
 * *cycle NULL and *ncycle 0 when memory ran out. */
bool waitcheck(TALLOC_CTX *mem_ctx, const struct program *prog, struct wait_edge **cycle,
	       size_t *ncycle);

#endif
