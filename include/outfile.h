/*
 * outfile.h - every file the program writes for the user (JSON, CSV,
 * SVG, converted loadfiles, recordings): the one way to write a path
 * given on the command line.  Never fopen() such a path yourself.
 *
 * What the path names decides how it is written:
 *
 *   "-"                standard output, written straight (the stdio
 *                      buffer of stdout is flushed first).
 *   nothing yet, or a  a temporary file beside it, renamed over it once
 *   regular file       every byte, the flush, the fsync and the close
 *                      have succeeded: the file appears whole or not at
 *                      all, and after a failure the previous one stays.
 *                      An existing file keeps its owner, group and mode.
 *                      (When the owner cannot be kept, as a user other
 *                      than root writing another user's file, the file
 *                      is written in place instead, as `>` would: owner
 *                      and mode stay, but a failure leaves it part
 *                      written.)
 *   a symbolic link    followed (a chain of them, up to 40): what it
 *                      leads to is written by these rules, and the link
 *                      stays.  A dangling link makes the file it names.
 *                      A link in a sticky world-writable directory (/tmp)
 *                      that neither we nor the directory's owner own is
 *                      refused (EACCES), as the kernel refuses to follow
 *                      it (fs.protected_symlinks).
 *   a character device, written straight into, never replaced: so
 *   a FIFO, a socket   --json=/dev/stdout, a terminal, a FIFO that a
 *                      process reads and a listening Unix socket work.
 *                      A FIFO no process reads fails at once
 *                      (OUTFILE_ENOREADER) rather than wait; a write error (ENOSPC from a full
 *                      device, EPIPE from a reader gone) is kept with its
 *                      errno, and SIGPIPE never ends the program.
 *                      /dev/stdout, /dev/stderr and /proc/self/fd/N that
 *                      name our own standard output or error write to it.
 *   a directory        refused (EISDIR).
 *   anything else      refused (OUTFILE_EKIND): a block device, say.
 *
 * Usage, for a file written in one go or over a whole run alike:
 *
 *	int err = outfile_check(path);           // before the work: exit 2
 *	...
 *	FILE *f;
 *	struct outfile *o = outfile_open(ctx, path, &f, &err);
 *	if (!o) ... say outfile_strerror(err), exit 1
 *	fprintf(f, ...);                          // as often as needed
 *	err = outfile_commit(o);                  // 0, or what failed: exit 1
 *
 * and talloc_free(o) instead of the commit abandons the file (the
 * temporary goes; what was written straight stays written).
 *
 * Below everything: it knows nothing of runs or reports.
 */
#ifndef DBENCH_OUTFILE_H
#define DBENCH_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <talloc.h>

/* Errors of our own, beyond every errno value: a path that is neither a
 * file, a character device, a FIFO nor a socket (a block device); a FIFO
 * that no process reads. */
#define OUTFILE_EKIND 4096
#define OUTFILE_ENOREADER 4097

/*
 * Whether `path` can be written, by the rules above: 0, or an errno value
 * (EISDIR, OUTFILE_EKIND, EACCES, EROFS, ELOOP ...).  Makes and removes a
 * temporary beside a file to be replaced; opens nothing that is written
 * straight (access(2) alone).  For refusing a destination before hours of
 * work, not a promise for later.
 */
int outfile_check(const char *path);

/*
 * Start writing `path`: the outfile (owned by mem_ctx) with *f the stream
 * to write, or NULL with *err an errno value or OUTFILE_EKIND.
 */
struct outfile *outfile_open(TALLOC_CTX *mem_ctx, const char *path, FILE **f, int *err);

/*
 * Make the file o writes readable and writable by its owner alone (0600)
 * before anything is written into it: a file made, replaced or written
 * in place gets that mode, whatever it had.  0; an errno value (EPERM:
 * another user's file written in place); or OUTFILE_EKIND for what is
 * written straight (standard output, a device, FIFO or socket), whose
 * mode is not the writer's to set.
 */
int outfile_private(struct outfile *o);

/*
 * The errno of the stream's first failed write, caught when it failed; 0
 * when nothing has failed.  For a writer whose formatter gave up part way.
 */
int outfile_error(const struct outfile *o);

/*
 * Finish: flush and close the stream; a file to be replaced is synced and
 * renamed into place.  Returns 0 or the first errno (a write error of the
 * stream counts), and frees the outfile either way.
 */
int outfile_commit(struct outfile *o);

/*
 * Whether two output paths would write one file, so that the second would
 * lose the first: the same name, or the same regular file under two
 * names ("-" twice is standard output twice).  A character device such
 * as /dev/null may take any number.
 */
bool outfile_same(const char *a, const char *b);

/* What an error of this module means, for "cannot write JSON to 'x': %s":
 * strerror(err), or words of our own for OUTFILE_EKIND and
 * OUTFILE_ENOREADER. */
const char *outfile_strerror(int err);

#endif
