/*
 * infile.h - every file the program reads that the user named (a
 * loadfile, a credentials file, a trace to convert): what it may be, and
 * the one way to open it, so that no such file makes the program wait
 * without bound or read without end.
 *
 * A regular file is opened as it is.  A pipe (a FIFO, /dev/stdin of a
 * shell pipeline, bash's <(...)) is taken where the caller allows one, and
 * only once its writer has written something within the caller's wait:
 * the open itself never waits for a FIFO's writer.  Anything else is
 * refused with its kind named: a directory ("Is a directory"), a device
 * (/dev/zero would never end), a socket.
 *
 * Below everything: it knows nothing of what the file holds.
 */
#ifndef DBENCH_INFILE_H
#define DBENCH_INFILE_H

#include <talloc.h>

#define INFILE_REGULAR 1	/* a regular file */
#define INFILE_PIPE 2		/* a pipe whose writer writes within the wait */

/*
 * Open `path` for reading if it is one of `kinds`: a blocking descriptor,
 * or -1 with *why (on mem_ctx) saying why not, such as "a character
 * device, not a regular file or a pipe" or "a pipe with nothing written
 * to it within 10 s".  `wait_s` bounds the wait for a pipe's first bytes.
 */
int infile_open(TALLOC_CTX *mem_ctx, const char *path, unsigned kinds, int wait_s,
		const char **why);

#endif
