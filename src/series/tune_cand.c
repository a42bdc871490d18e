/*
 * tune_cand.c - dbench tune's settings and candidates (see
 * tune_internal.h): from --set, or a file of candidates a line each;
 * the combinations; "as found" always one of them, and first.
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series/tune_internal.h"
#include "infile.h"
#include "progname.h"

#define TUNE_MAX_CANDIDATES 1000
#define CANDIDATES_PIPE_WAIT_S 10

char *tune_cand_name(TALLOC_CTX *mem_ctx, size_t cand)
{
	return talloc_asprintf(mem_ctx, "#%zu", cand + 1);
}

/* The setting of key in t, or NULL. */
static struct setting *setting_of(const struct tune *t, const char *key)
{
	for (size_t i = 0; i < t->nsettings; i++)
		if (strcmp(t->settings[i]->key, key) == 0)
			return t->settings[i];
	return NULL;
}

static bool add_setting(struct tune *t, TALLOC_CTX *mem_ctx, struct setting *s)
{
	struct setting **l = talloc_realloc(mem_ctx, t->settings, struct setting *,
					    t->nsettings + 1);
	if (!l)
		return false;
	l[t->nsettings++] = s;
	t->settings = l;
	return true;
}

/* --set: one setting each, with its values. */
static bool settings_of_sets(struct tune *t, TALLOC_CTX *mem_ctx)
{
	for (size_t i = 0; i < t->o->nsets; i++) {
		char *err = NULL;
		struct setting *s = setting_parse(mem_ctx, t->o->sets[i], &err);
		if (!s) {
			say("--set '%s': %s\n", t->o->sets[i], err);
			return false;
		}
		if (setting_of(t, s->key)) {
			say("--set '%s': %s is given twice (its values go in one --set,"
			    " comma-separated)\n", t->o->sets[i], s->key);
			return false;
		}
		if (!add_setting(t, mem_ctx, s))
			return false;
	}
	return true;
}

/* The candidates file's lines, split into words, on mem_ctx: lines[i]
 * is NULL-ended; blank lines and comments are left out, and *lineno
 * keeps each line's number. */
static char ***file_lines(TALLOC_CTX *mem_ctx, const char *path, size_t *n, size_t **lineno)
{
	const char *why = NULL;
	int fd = infile_open(mem_ctx, path, INFILE_REGULAR | INFILE_PIPE, CANDIDATES_PIPE_WAIT_S,
			     &why);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char ***lines = talloc_array(mem_ctx, char **, 0), *line = NULL;
	size_t cap = 0, no = 0;

	*n = 0;
	*lineno = talloc_array(mem_ctx, size_t, 0);
	if (!f) {
		say("--candidates: cannot read '%s': %s\n", path, why ? why : strerror(errno));
		return NULL;
	}
	while (getline(&line, &cap, f) > 0) {
		int argc = 0;
		const char **argv = NULL;
		no++;
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t")] == '\0' || line[strspn(line, " \t")] == '#')
			continue;
		int e = poptParseArgvString(line, &argc, &argv);
		if (e) {
			say("%s:%zu: cannot split the line into words: %s\n", path, no, poptStrerror(e));
			lines = NULL;
			break;
		}
		lines = talloc_realloc(mem_ctx, lines, char **, *n + 1);
		*lineno = talloc_realloc(mem_ctx, *lineno, size_t, *n + 1);
		lines[*n] = talloc_array(lines, char *, argc + 1);
		for (int i = 0; i < argc; i++)
			lines[*n][i] = talloc_strdup(lines[*n], argv[i]);
		lines[*n][argc] = NULL;
		(*lineno)[(*n)++] = no;
		free(argv);
	}
	free(line);
	fclose(f);
	return lines;
}

/* The settings the file's words name, each with the values it gives. */
static bool settings_of_lines(struct tune *t, TALLOC_CTX *mem_ctx, char ***lines, size_t n,
			      const size_t *lineno)
{
	for (size_t l = 0; l < n; l++) {
		for (char **w = lines[l]; *w; w++) {
			char *eq = strchr(*w, '='), *err = NULL;
			char *key = eq ? talloc_strndup(mem_ctx, *w, eq - *w) : NULL;
			struct setting *s = key ? setting_of(t, key) : NULL;
			if (key && !s && (s = setting_new(mem_ctx, key, &err)) && !add_setting(t, mem_ctx, s))
				return false;
			if (!s || !setting_add_value(s, eq + 1)) {
				say("%s:%zu: %s\n", t->o->candidates, lineno[l],
				    err ? err : eq ? "out of memory" : "a word of a candidate is"
				    " KEY=VALUE");
				return false;
			}
		}
	}
	return true;
}

bool tune_settings(struct tune *t, TALLOC_CTX *mem_ctx)
{
	if (t->o->candidates) {
		size_t n, *lineno;
		char ***lines = file_lines(mem_ctx, t->o->candidates, &n, &lineno);
		if (!lines || !settings_of_lines(t, mem_ctx, lines, n, lineno))
			return false;
		if (n == 0) {
			say("--candidates: '%s' holds no candidate\n", t->o->candidates);
			return false;
		}
	} else if (!settings_of_sets(t, mem_ctx)) {
		return false;
	}
	for (size_t i = 0; i < t->nsettings; i++) {
		char *err = NULL;
		if (!setting_find(t->settings[i], &err)) {
			say("%s %s: %s\n", t->o->candidates ? "--candidates" : "--set",
			    t->settings[i]->key, err);
			return false;
		}
	}
	return true;
}

/* ---- the candidates ---- */

/* Whether a and b give every setting the same value. */
static bool same_cand(const struct tune *t, const char *const *a, const char *const *b)
{
	for (size_t i = 0; i < t->nsettings; i++)
		if (!setting_same(t->settings[i], a[i], b[i]))
			return false;
	return true;
}

/* Add the candidate of values (taken over) unless there is one like it. */
static bool add_cand(struct tune *t, TALLOC_CTX *mem_ctx, const char **values)
{
	for (size_t c = 0; c < t->ncand; c++)
		if (same_cand(t, t->cand[c].value, values))
			return true;
	if (t->ncand == TUNE_MAX_CANDIDATES) {
		say("more than %d candidates: race fewer values at once\n", TUNE_MAX_CANDIDATES);
		return false;
	}
	struct tune_cand *l = talloc_realloc(mem_ctx, t->cand, struct tune_cand, t->ncand + 1);
	if (!l)
		return false;
	t->cand = l;
	struct tune_cand *c = &t->cand[t->ncand++];
	*c = (struct tune_cand){ .value = talloc_steal(l, values) };
	c->label = talloc_strdup(l, "");
	for (size_t i = 0; c->label && i < t->nsettings; i++)
		c->label = talloc_asprintf_append(c->label, "%s%s", i ? " " : "",
						  setting_label(c->label, t->settings[i], values[i]));
	c->as_found = same_cand(t, values, (const char *const *)t->cand[0].value);
	return c->label != NULL;
}

/* Every combination of the settings' values, the first setting's
 * changing slowest. */
static bool combinations(struct tune *t, TALLOC_CTX *mem_ctx)
{
	size_t *at = talloc_zero_array(mem_ctx, size_t, t->nsettings + 1);

	while (at && at[0] < t->settings[0]->nvalues) {
		const char **v = talloc_array(mem_ctx, const char *, t->nsettings);
		for (size_t i = 0; v && i < t->nsettings; i++)
			v[i] = t->settings[i]->values[at[i]];
		if (!v || !add_cand(t, mem_ctx, v))
			return false;
		for (size_t i = t->nsettings; i-- > 0;) {	/* the next, as an odometer */
			if (++at[i] < t->settings[i]->nvalues || i == 0)
				break;
			at[i] = 0;
		}
	}
	return at != NULL;
}

/* The file's lines as candidates: a setting a line does not name keeps
 * its value as found. */
static bool file_candidates(struct tune *t, TALLOC_CTX *mem_ctx)
{
	size_t n, *lineno;
	char ***lines = file_lines(mem_ctx, t->o->candidates, &n, &lineno);

	for (size_t l = 0; lines && l < n; l++) {
		const char **v = talloc_array(mem_ctx, const char *, t->nsettings);
		for (size_t i = 0; v && i < t->nsettings; i++)
			v[i] = t->settings[i]->found;
		for (char **w = lines[l]; v && *w; w++) {
			char *key = talloc_strndup(v, *w, strchr(*w, '=') - *w);
			for (size_t i = 0; key && i < t->nsettings; i++)
				if (strcmp(t->settings[i]->key, key) == 0)
					v[i] = strchr(*w, '=') + 1;
		}
		if (!v || !add_cand(t, mem_ctx, v))
			return false;
	}
	return lines != NULL;
}

bool tune_candidates(struct tune *t, TALLOC_CTX *mem_ctx)
{
	const char **found = talloc_array(mem_ctx, const char *, t->nsettings);

	for (size_t i = 0; found && i < t->nsettings; i++)
		found[i] = t->settings[i]->found;
	if (!found || !add_cand(t, mem_ctx, found))
		return false;
	t->cand[0].as_found = true;
	if (!(t->o->candidates ? file_candidates(t, mem_ctx) : combinations(t, mem_ctx)))
		return false;
	if (t->ncand < 2) {
		say("every candidate is the settings as found: give values that differ from"
		    " them\n");
		return false;
	}
	return true;
}
