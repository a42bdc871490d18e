/*
 * badopt.h - what popt's parse stopped at, as the words the user typed,
 * for the one-line error of every command (dbench, dbench compare,
 * tbench_srv).
 *
 * Below everything: it knows nothing of runs, reports or comparisons.
 */
#ifndef DBENCH_BADOPT_H
#define DBENCH_BADOPT_H

#include <popt.h>
#include <talloc.h>

/*
 * After poptGetNextOpt() failed: "-t abc" when the value after an option
 * was bad (popt names the value alone), otherwise what popt names
 * ("--foo", "--port=abc").  argv is what poptGetContext() was given.  On
 * mem_ctx, with any password in them masked (secret.h).
 */
const char *badopt_words(TALLOC_CTX *mem_ctx, poptContext pc, int argc, const char **argv);

/*
 * The whole of the error, on mem_ctx: badopt_words(), popt's reason for
 * err (poptGetNextOpt()'s value), and for an unknown long option the
 * known ones of table (its included tables too) within two edits of it
 * (a letter added, dropped, changed, or two swapped), the closest:
 * "--timelimt: unknown option; did you mean --timelimit?".
 */
const char *badopt_message(TALLOC_CTX *mem_ctx, poptContext pc, int err, int argc,
			   const char **argv, const struct poptOption *table);

#endif
