/*
 * outfile.h - an output file (JSON, CSV, SVG) that appears whole or not
 * at all.
 *
 * The text is written to a temporary file beside the destination and
 * renamed over it once every byte, the final flush and the close have
 * succeeded; until then, and after any failure, the previous file at the
 * destination is left as it was.  A destination of "-" is standard
 * output, written directly and flushed.
 *
 * Below everything: it knows nothing of runs or reports.
 */
#ifndef DBENCH_OUTFILE_H
#define DBENCH_OUTFILE_H

#include <stdio.h>
#include <talloc.h>

struct outfile;

/*
 * Start writing `path`: returns the outfile (owned by mem_ctx; freeing it
 * without outfile_commit() removes the temporary file) with *f the stream
 * to write, or NULL with *err an errno value.
 */
struct outfile *outfile_open(TALLOC_CTX *mem_ctx, const char *path, FILE **f, int *err);

/*
 * The errno of the stream's first failed write, caught when it failed;
 * EIO for a stream in error with no errno kept (standard output); 0 when
 * nothing has failed.  For a writer whose formatter gave up part way.
 */
int outfile_error(const struct outfile *o);

/*
 * Finish: flush and close the stream and rename the file into place.
 * Returns 0 or the first errno (a write error of the stream counts), and
 * frees the outfile either way.
 */
int outfile_commit(struct outfile *o);

/*
 * Whether `path` can be written: a temporary file can be made beside it,
 * and it is not a directory.  Returns 0 or an errno value.  For checking
 * a destination before hours of work, not a promise for later.
 */
int outfile_check(const char *path);

#endif
