/*
 * loadwriter.h - a recording written as a loadfile of the system-call
 * dialect (doc/SYSCALLS.md): `syscalls 1`, the comments saying what it
 * is of, the initial state, the rows.
 *
 * Before writing, threads that made no row (and started none that did)
 * are left out with the `thread`/`fork` rows that started them, and the
 * rest are numbered 1, 2, ... in the order they first appear.  The file
 * is written through outfile.h: whole or not at all.  A recording beyond
 * the loadfile limits (include/loadfile.h) is refused naming the limit;
 * one the compiler would refuse is the recorder's bug, said as such.
 *
 * Knows nothing of strace or of how the rows were made.
 */
#ifndef RECORD_LOADWRITER_H
#define RECORD_LOADWRITER_H

#include <talloc.h>

#include "record/recording.h"

enum loadwriter_status {
	LOADWRITER_OK,
	LOADWRITER_LIMIT,	/* beyond a loadfile's limits, or no call to write */
	LOADWRITER_REFUSED,	/* the compiler refuses what was made: a bug of the
				 * recorder, which is said as one */
	LOADWRITER_UNWRITTEN,	/* the file could not be written, or memory ran out */
};

/*
 * Write rec to `path` ("-": standard output).  The text is made in
 * memory and compiled first, by the compiler --check-loadfile runs
 * (loadfile.h): what the compiler refuses is never written, and the
 * message names the line, the row and the trace's line it came from.
 * LOADWRITER_OK, or another status with *err a message on mem_ctx.
 */
enum loadwriter_status loadwriter_write(TALLOC_CTX *mem_ctx, struct recording *rec,
					const char *path, char **err);

/* The base64 of n bytes, on mem_ctx. */
char *loadwriter_base64(TALLOC_CTX *mem_ctx, const unsigned char *p, size_t n);

#endif
