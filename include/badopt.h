/*
 * badopt.h - what popt's parse stopped at, as the words the user typed,
 * for the one-line error of every command (dbench, dbench compare,
 * tbench_srv); and which option a word is, for a command that sorts its
 * words before popt parses them (dbench ab).
 *
 * Below everything: it knows nothing of runs, reports or comparisons.
 */
#ifndef DBENCH_BADOPT_H
#define DBENCH_BADOPT_H

#include <popt.h>
#include <stdbool.h>
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

/*
 * The same for a word found unknown before popt saw it (a command that
 * sorts its words between parses): "--runz=3: unknown option; did you
 * mean --runs?", the near ones from table, any password masked.
 */
const char *badopt_unknown(TALLOC_CTX *mem_ctx, const char *word, const struct poptOption *table);

/*
 * The option of table (its included tables too) that word is, as typed:
 * "--name", "--name=value", "-x", or a cluster of short options "-xyz"
 * (NULL unless each letter is one; then the last of them), else NULL.
 * *takes_next: whether the next word is its value ("--runs 3", "-qt 3");
 * an optional value never is.
 */
const struct poptOption *badopt_find(const struct poptOption *table, const char *word,
				     bool *takes_next);

#endif
