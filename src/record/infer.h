/*
 * infer.h - the initial state of a trace made elsewhere, inferred from
 * its calls (`dbench convert` has no walk of the roots).
 *
 * A path beneath the roots whose first call shows it was there (a stat,
 * an open without O_CREAT, an unlink that succeeded, a mkdir that found
 * it: EEXIST) existed before the trace; one whose first call failed with
 * ENOENT, or that a call created, did not.  Every directory above a path
 * that existed existed too.  Types and modes come from what stat printed
 * (st_mode), else from the call (rmdir, chdir, O_DIRECTORY, getdents: a
 * directory); a file's size from what stat printed before the trace
 * changed it, else the furthest a read reached (exactly, when a read
 * came back short).  A file opened with O_CREAT that a read found bytes
 * in before any write existed too.
 *
 * Knows nothing of strace's text beyond the call's arguments; the
 * translation calls it for every row.
 */
#ifndef RECORD_INFER_H
#define RECORD_INFER_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "record/recording.h"
#include "record/strace_line.h"

struct infer;

struct infer *infer_new(TALLOC_CTX *mem_ctx);

/*
 * A row: `call` as written, strace's call c (its arguments and outcome)
 * on rel (the first path, or the descriptor's file) and rel2 (the second
 * path of rename and link; the file written by copy_file_range and
 * sendfile).  For reads and copies, `extent` is where the read ended
 * (its offset plus what it read) and `asked` what it asked for.  false
 * when memory ran out.
 */
bool infer_call(struct infer *inf, const char *call, const struct sc_call *c, const char *rel,
		const char *rel2, uint64_t extent, uint64_t asked);

/* rec->init from what was inferred, parents first.  false when memory
 * ran out. */
bool infer_finish(struct infer *inf, struct recording *rec);

#endif
