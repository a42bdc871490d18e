/*
 * fio_iolog.h - fio's I/O logs (write_iolog=, versions 2 and 3) as rows
 * of the system-call dialect.
 *
 * A log is one job's I/O: "FILE add|open|close", "FILE read|write|trim
 * OFFSET LENGTH", "FILE sync|datasync ...", and in version 2 "FILE wait
 * MS" (the time since the start, in milliseconds); version 3 starts each
 * line with the microseconds since the start.  Each file becomes a
 * descriptor (3, 4, ...) of stream 1: open is `openat` (O_RDWR), read and
 * write are `pread64` and `pwrite64`, sync `fsync`, datasync
 * `fdatasync`, trim `fallocate` punching a hole.  A file name beneath the
 * roots is taken relative to them; any other keeps its whole path beneath
 * the replay's directory (/dev/sdb becomes dev/sdb): a log is about the
 * I/O, not where the file was.  The initial state holds every file at
 * the size its furthest access needs, and the directories above it.
 *
 * Knows nothing of strace.
 */
#ifndef RECORD_FIO_IOLOG_H
#define RECORD_FIO_IOLOG_H

#include <stdio.h>
#include <talloc.h>

#include "record/recording.h"

/* Whether the first line of a file (given) is a fio log's: 2 or 3, else 0. */
int fio_iolog_version(const char *first_line);

/*
 * Read the log at `path` into rec (roots and base set).  Returns 0, or
 * -1 with *err ("FILE:LINE: what") on mem_ctx.
 */
int fio_iolog_read(TALLOC_CTX *mem_ctx, struct recording *rec, const char *path, char **err);

#endif
