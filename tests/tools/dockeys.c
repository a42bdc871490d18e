/*
 * dockeys.c - the table of the JSON documents' members (dockey.h), for
 * the shell tests.
 *
 *   dockeys list          a line a member: its document (run, sweep, ab, tune),
 *                         its path there ("timeline[].disks[].device",
 *                         "ops.NAME.p99_ms"), its kind and its schema
 *   dockeys check FILE    FILE (a run's, a sweep's, dbench ab's or tune's
 *                         document) against the table at its schema: the
 *                         first fault on stdout and exit 1, else exit 0
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>
#include <talloc.h>

#include "dockey.h"

/* The document a shape is found in, and its path there, by its first use
 * (a row whose elements or members are of that shape). */
static char *shape_path(TALLOC_CTX *ctx, enum dockey shape, enum dockey *doc);

/* Row k's path in its document, into *doc. */
static char *row_path(TALLOC_CTX *ctx, enum dockey k, enum dockey *doc)
{
	const struct dockey_row *r = &dockey_rows[k];
	char *up = shape_path(ctx, r->parent, doc);

	if (dockey_rows[r->parent].parent != r->parent)	/* an object row */
		up = row_path(ctx, r->parent, doc);
	return talloc_asprintf(ctx, "%s%s%s", up, *up ? "." : "", r->name);
}

static char *shape_path(TALLOC_CTX *ctx, enum dockey shape, enum dockey *doc)
{
	if (dockey_rows[shape].parent != shape)
		return talloc_strdup(ctx, "");	/* not a shape: row_path() goes on */
	if (dockey_rows[shape].type & DKT_DOC) {
		*doc = shape;
		return talloc_strdup(ctx, "");
	}
	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++)
		if (dockey_rows[k].elem == shape && k != shape) {
			char *at = row_path(ctx, k, doc);
			unsigned type = dockey_rows[k].type;
			return talloc_asprintf(ctx, "%s%s", at, type & DKT_ARR ? "[]"
								: type & DKT_MAP ? ".NAME" : "");
		}
	return talloc_strdup(ctx, "?");
}

static const char *kind(unsigned type)
{
	static const char *const names[] = { "int", "num", "bool", "str", "obj", "arr", "map" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (type & (1u << i))
			return names[i];
	return "?";
}

static int list(void)
{
	TALLOC_CTX *ctx = talloc_new(NULL);

	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++) {
		if (dockey_rows[k].parent == k)
			continue;
		enum dockey doc = DK_NONE;
		char *path = row_path(ctx, k, &doc);
		printf("%s\t%s\t%s%s%s\t%u\n", doc == DK_SWEEP ? "sweep" : doc == DK_AB ? "ab"
						   : doc == DK_TUNE ? "tune" : "run",
		       path, kind(dockey_rows[k].type),
		       dockey_rows[k].type & DKT_NULL ? "|null" : "",
		       dockey_rows[k].type & DKT_OPT ? "|opt" : "", dockey_rows[k].since);
	}
	talloc_free(ctx);
	return 0;
}

static int check(const char *file)
{
	json_error_t jerr;
	json_t *doc = json_load_file(file, 0, &jerr);
	TALLOC_CTX *ctx = talloc_new(NULL);
	char *why;

	if (!doc) {
		printf("%s: %s\n", file, jerr.text);
		return 1;
	}
	enum dockey shape = dockey_get(doc, DK_AB_CONFIG) ? DK_AB
			    : dockey_get(doc, DK_SWEEP_CONFIG) ? DK_SWEEP
			    : dockey_get(doc, DK_TUNE_CONFIG) ? DK_TUNE : DK_RUN;
	long schema = dockey_schema_of(doc, shape == DK_RUN ? DK_RUN_SCHEMA : DK_SWEEP_SCHEMA);
	why = dockey_check(ctx, doc, shape, schema);
	if (why)
		printf("%s: %s\n", file, why);
	json_decref(doc);
	talloc_free(ctx);
	return why != NULL;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "list") == 0)
		return list();
	if (argc == 3 && strcmp(argv[1], "check") == 0)
		return check(argv[2]);
	fprintf(stderr, "usage: dockeys list | dockeys check FILE\n");
	return 2;
}
