/*
 * badopt.c - the words of a bad option (see badopt.h), their passwords
 * masked (secret.h), the options it may have been meant for, and which
 * option of a table a word is.
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

/* "WORDS: REASON", and for an unknown long option what (as typed) "; did
 * you mean --x or --y?" when table has any within reach. */
static const char *message(TALLOC_CTX *mem_ctx, const char *words, int err, const char *what,
			   const struct poptOption *table)
{
	int best = BADOPT_MAX_EDITS + 1;
	char *list = NULL;

	if (err == POPT_ERROR_BADOPT && what && strncmp(what, "--", 2) == 0 && what[2])
		closest(mem_ctx, table, what + 2, strcspn(what + 2, "="), &best, &list);
	const char *text = talloc_asprintf(mem_ctx, "%s: %s%s%s%s", words, poptStrerror(err),
					   list && *list ? "; did you mean " : "",
					   list && *list ? list + 4 : "", list && *list ? "?" : "");
	return text ? text : "(out of memory)";
}

/* An unknown option as shown: its name alone, never a joined value
 * ("--smb-usr=bob%pw" is "--smb-usr"; a short one's letter, "-Zpw" is
 * "-Z"): what it was meant to carry cannot be known, so nothing of it is
 * printed, a misspelt password option's password least of all. */
static const char *unknown_name(TALLOC_CTX *mem_ctx, const char *what)
{
	size_t n = strncmp(what, "--", 2) == 0 ? strcspn(what, "=")
		   : what[0] == '-' && what[1] ? 2 : strlen(what);
	const char *name = talloc_strndup(mem_ctx, what, n);

	return name ? name : "(out of memory)";
}

const char *badopt_message(TALLOC_CTX *mem_ctx, poptContext pc, int err, int argc,
			   const char **argv, const struct poptOption *table)
{
	const char *what = poptBadOption(pc, POPT_BADOPTION_NOALIAS);

	if (err == POPT_ERROR_BADOPT && what)
		return message(mem_ctx, unknown_name(mem_ctx, what), err, what, table);
	return message(mem_ctx, badopt_words(mem_ctx, pc, argc, argv), err, what, table);
}

const char *badopt_unknown(TALLOC_CTX *mem_ctx, const char *word, const struct poptOption *table)
{
	return message(mem_ctx, unknown_name(mem_ctx, word), POPT_ERROR_BADOPT, word, table);
}

/* ---- which option a word is ---- */

/* The entry of t (and the tables it includes) whose long name is the
 * len letters at name, or, for len 0, whose short name is letter. */
static const struct poptOption *lookup(const struct poptOption *t, const char *name, size_t len,
				       char letter)
{
	for (; t && (t->longName || t->shortName || t->argInfo); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *o = lookup(t->arg, name, len, letter);
			if (o)
				return o;
		} else if (len ? t->longName && strlen(t->longName) == len &&
					 strncmp(t->longName, name, len) == 0
			       : t->shortName && t->shortName == letter) {
			return t;
		}
	}
	return NULL;
}

/* Whether popt takes a value for o; an optional one only when joined. */
static bool takes_value(const struct poptOption *o)
{
	unsigned type = o->argInfo & POPT_ARG_MASK;

	return type != POPT_ARG_NONE && type != POPT_ARG_VAL;
}

const struct poptOption *badopt_find(const struct poptOption *table, const char *word,
				     bool *takes_next)
{
	const struct poptOption *o = NULL;

	*takes_next = false;
	if (word[0] != '-' || !word[1])
		return NULL;
	if (word[1] == '-') {
		size_t len = strcspn(word + 2, "=");
		o = len ? lookup(table, word + 2, len, 0) : NULL;
		*takes_next = o && takes_value(o) && !word[2 + len] &&
			      !(o->argInfo & POPT_ARGFLAG_OPTIONAL);
		return o;
	}
	for (const char *c = word + 1; *c; c++) {	/* the rest after one that takes a value is it */
		if (!(o = lookup(table, NULL, 0, *c)))
			return NULL;
		if (takes_value(o)) {
			*takes_next = !c[1] && !(o->argInfo & POPT_ARGFLAG_OPTIONAL);
			return o;
		}
	}
	return o;
}
