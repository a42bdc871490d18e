/*
 * badopt.c - the words of a bad option (see badopt.h), their passwords
 * masked (secret.h), and the options it may have been meant for.
 */
#include <string.h>

#include "badopt.h"
#include "secret.h"

const char *badopt_words(TALLOC_CTX *mem_ctx, poptContext pc, int argc, const char **argv)
{
	const char *what = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
	int at = 0;

	if (!what)
		return "(unknown)";
	for (int i = 1; i < argc; i++)
		if (argv[i] == what)
			at = i;
	const char *prev = at > 0 ? argv[at - 1] : NULL;
	const char *shown = secret_mask_word(mem_ctx, what, prev);
	if (shown && what[0] != '-' && prev && prev[0] == '-') {
		const char *opt = secret_mask_word(mem_ctx, prev, at > 1 ? argv[at - 2] : NULL);
		shown = opt ? talloc_asprintf(mem_ctx, "%s %s", opt, shown) : NULL;
	}
	return shown ? shown : "(out of memory)";
}

/* ---- did you mean ---- */

#define BADOPT_MAX_EDITS 2
#define BADOPT_MAX_NAME 64

/* The edits from a (na letters) to b: letters added, dropped, changed,
 * and neighbours swapped (the optimal string alignment distance). */
static int edits(const char *a, size_t na, const char *b, size_t nb)
{
	int d[BADOPT_MAX_NAME + 1][BADOPT_MAX_NAME + 1];

	if (na > BADOPT_MAX_NAME || nb > BADOPT_MAX_NAME)
		return BADOPT_MAX_EDITS + 1;
	for (size_t i = 0; i <= na; i++)
		for (size_t j = 0; j <= nb; j++) {
			if (i == 0 || j == 0) {
				d[i][j] = (int)(i + j);
				continue;
			}
			int cost = a[i - 1] != b[j - 1];
			int best = d[i - 1][j - 1] + cost;
			best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
			best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

/* The closest long options of table (and those it includes) to name,
 * within BADOPT_MAX_EDITS: appended to *list as " or --x", the distance
 * of those in it in *best (lowered, and the list begun again, by a
 * closer one). */
static void closest(TALLOC_CTX *ctx, const struct poptOption *t, const char *name, size_t n,
		    int *best, char **list)
{
	for (; t && (t->longName || t->shortName || t->argInfo); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			closest(ctx, t->arg, name, n, best, list);
			continue;
		}
		if (!t->longName || (t->argInfo & POPT_ARGFLAG_DOC_HIDDEN))
			continue;
		int e = edits(name, n, t->longName, strlen(t->longName));
		if (e > BADOPT_MAX_EDITS || e > *best || e == 0)
			continue;
		if (e < *best) {
			*best = e;
			talloc_free(*list);
			*list = talloc_strdup(ctx, "");
		}
		if (*list)
			*list = talloc_asprintf_append(*list, " or --%s", t->longName);
	}
}

const char *badopt_message(TALLOC_CTX *mem_ctx, poptContext pc, int err, int argc,
			   const char **argv, const struct poptOption *table)
{
	const char *words = badopt_words(mem_ctx, pc, argc, argv);
	const char *what = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
	int best = BADOPT_MAX_EDITS + 1;
	char *list = NULL;

	if (err == POPT_ERROR_BADOPT && what && strncmp(what, "--", 2) == 0 && what[2])
		closest(mem_ctx, table, what + 2, strcspn(what + 2, "="), &best, &list);
	const char *text = talloc_asprintf(mem_ctx, "%s: %s%s%s%s", words, poptStrerror(err),
					   list && *list ? "; did you mean " : "",
					   list && *list ? list + 4 : "", list && *list ? "?" : "");
	return text ? text : "(out of memory)";
}
