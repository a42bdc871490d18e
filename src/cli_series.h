/*
 * cli_series.h - the command line of a command that runs a series of
 * plans (dbench ab's sides, dbench tune's candidates): its own options
 * told from those every run shares, and a run's plan built by
 * cli_parse() (cli.h) from the shared words with its own added, as if
 * typed as one dbench command.
 *
 * The top of the program, beside cli.c; runs nothing.
 */
#ifndef DBENCH_CLI_SERIES_H
#define DBENCH_CLI_SERIES_H

#include <stdbool.h>

#include <popt.h>
#include <talloc.h>

#include "cli.h"

/* argv[1..] sorted into the command's own words (`table`'s options,
 * after `name`, the program name popt is given) and the rest, which
 * every run shares; the words after "--" are all shared.  own and common
 * have room for argc + 1 words; both end with NULL. */
void cli_split_words(const struct poptOption *table, const char *name, int argc,
		     const char **argv, const char **own, int *nown, const char **common,
		     int *ncommon);

/* The error for the first word of argv[1..] before "--" that is neither
 * one of the command's own options (table's) nor a run's (whose values
 * are skipped), with the options of either it may have been meant for
 * ("dbench ab --runz": --runs); NULL if none.  For the command to say
 * before any other error: a run's parse would offer a run's alone. */
const char *cli_unknown_shared(TALLOC_CTX *ctx, const struct poptOption *table, int argc,
			       const char **argv);

/* The words joined back into one line, any password among them masked
 * (secret.h), quoted where they hold a blank or quote: for the record and
 * the progress lines. */
char *cli_words_text(TALLOC_CTX *ctx, int n, const char **words);

/* A run's plan into *cli (cli_parse(), which says what is wrong with
 * the words itself): the shared words, then those of opts split as a
 * shell would, then `last` (a client count) when not NULL.  *text gets
 * opts' words as cli_words_text() shows them.  False, after saying why,
 * when opts cannot be split into words (not echoed: it may hold a
 * password). */
bool cli_series_plan(TALLOC_CTX *ctx, const char *what, const char *opts,
		     const char **common, int ncommon, const char *last, struct cli *cli,
		     char **text);

#endif
