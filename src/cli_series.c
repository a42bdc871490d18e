/*
 * cli_series.c - the words of a command that runs a series of plans
 * (see cli_series.h).
 */
#include <stdlib.h>
#include <string.h>

#include "badopt.h"
#include "cli_series.h"
#include "progname.h"
#include "secret.h"

void cli_split_words(const struct poptOption *table, const char *name, int argc,
		     const char **argv, const char **own, int *nown, const char **common,
		     int *ncommon)
{
	bool shared = false;

	own[(*nown)++] = name;
	for (int i = 1; i < argc; i++) {
		bool next;
		shared = shared || strcmp(argv[i], "--") == 0;
		if (!shared && badopt_find(table, argv[i], &next)) {
			own[(*nown)++] = argv[i];
			if (next && i + 1 < argc)
				own[(*nown)++] = argv[++i];
		} else if (strcmp(argv[i], "--") != 0) {
			common[(*ncommon)++] = argv[i];
		}
	}
	own[*nown] = common[*ncommon] = NULL;
}

const char *cli_unknown_shared(TALLOC_CTX *ctx, const struct poptOption *table, int argc,
			       const char **argv)
{
	const struct poptOption *run = cli_run_options(ctx);
	const struct poptOption both[] = {
		{ .argInfo = POPT_ARG_INCLUDE_TABLE, .arg = (void *)table },
		{ .argInfo = POPT_ARG_INCLUDE_TABLE, .arg = (void *)run },
		POPT_TABLEEND
	};
	bool next;

	if (!run)
		return "out of memory";
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (argv[i][0] != '-' || !argv[i][1])
			continue;	/* NPROCS, or a value of the command's own */
		if (!badopt_find(both, argv[i], &next))
			return badopt_unknown(ctx, argv[i], both);
		i += next;
	}
	return NULL;
}

char *cli_words_text(TALLOC_CTX *ctx, int n, const char **words)
{
	char *text = talloc_strdup(ctx, "");

	for (int i = 0; text && i < n; i++) {
		const char *w = secret_mask_word(text, words[i], i ? words[i - 1] : NULL);
		text = w ? talloc_asprintf_append(text, strpbrk(w, " \t'\"") ? "%s'%s'" : "%s%s",
						  i ? " " : "", w) : NULL;
	}
	return text;
}

bool cli_series_plan(TALLOC_CTX *ctx, const char *what, const char *opts,
		     const char **common, int ncommon, const char *last, struct cli *cli,
		     char **text)
{
	int nown = 0, n;
	const char **own = NULL, **words;
	int perr = *opts ? poptParseArgvString(opts, &nown, &own) : 0;

	if (perr) {	/* not echoed: it may hold a password */
		say("%s: cannot split its options into words: %s\n", what, poptStrerror(perr));
		return false;
	}
	words = talloc_array(ctx, const char *, ncommon + nown + 3);
	words[0] = progname();
	memcpy(words + 1, common, ncommon * sizeof(*words));
	for (int i = 0; i < nown; i++)	/* cli_parse() takes them over */
		words[1 + ncommon + i] = talloc_strdup(ctx, own[i]);
	n = 1 + ncommon + nown;
	if (last)
		words[n++] = last;
	words[n] = NULL;
	free(own);
	cli_parse(ctx, n, words, cli);
	*text = cli_words_text(ctx, nown, words + 1 + ncommon);
	return true;
}
