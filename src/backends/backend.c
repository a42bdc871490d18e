/*
 * backend.c - the list of backends, found by name for --backend, their
 * options gathered for main (and one given to the wrong backend found),
 * the naming of client directories, which
 * every backend shares, and the check of what a backend cannot express.
 * Adding a backend adds it to `backends` below and nothing else here.
 */
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"

static const struct backend *const backends[] = { &fileio_backend, &null_backend,
						   &smb_backend, &sockio_backend, &nfs_backend };

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct backend *backend_by_name(const char *name)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	}
	return NULL;
}

const char *backend_names(TALLOC_CTX *mem_ctx)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && i < NBACKENDS; i++)
		s = talloc_asprintf_append(s, "%s'%s'",
					   i == 0 ? "" : i + 1 == NBACKENDS ? " or " : ", ",
					   backends[i]->name);
	return s;
}

struct poptOption *backend_option_table(TALLOC_CTX *mem_ctx)
{
	struct poptOption *t = talloc_zero_array(mem_ctx, struct poptOption, NBACKENDS + 1);
	size_t n = 0;

	for (size_t i = 0; t && i < NBACKENDS; i++) {
		if (!backends[i]->options)
			continue;
		t[n].argInfo = POPT_ARG_INCLUDE_TABLE;
		t[n].arg = (void *)backends[i]->options;
		t[n].descrip = talloc_asprintf(t, "Options of the %s backend:", backends[i]->name);
		n++;
	}
	return t;	/* ends with a zeroed entry: POPT_TABLEEND */
}

const char *backend_foreign_option(const struct backend *b, const char **owner)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (backends[i] == b || !backends[i]->options)
			continue;
		for (const struct poptOption *o = backends[i]->options; o->longName; o++) {
			if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && *(char **)o->arg) {
				*owner = backends[i]->name;
				return o->longName;
			}
		}
	}
	return NULL;
}

void backend_scrub_argv(int argc, char **argv)
{
	for (size_t i = 0; i < NBACKENDS; i++)
		if (backends[i]->scrub_argv)
			backends[i]->scrub_argv(argc, argv);
}

void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id)
{
	if (opts->ranked)
		snprintf(buf, len, "rank%u-client%u", opts->rank, id);
	else
		snprintf(buf, len, "client%u", id);
}

unsigned backend_check_program(TALLOC_CTX *mem_ctx, const struct backend *b,
			       const struct program *prog,
			       const struct backend_options *opts, char **report)
{
	unsigned missing[OP_COUNT] = { 0 }, total = 0;

	*report = talloc_strdup(mem_ctx, "");
	for (size_t i = 0; i < prog->nops; i++)
		missing[prog->ops[i].type] += b->op[prog->ops[i].type] == NULL;
	for (int t = 0; t < OP_COUNT; t++) {
		if (!missing[t])
			continue;
		total += missing[t];
		*report = talloc_asprintf_append(*report,
			"%s: %u operation%s not supported by the %s backend\n",
			op_table[t].name, missing[t], missing[t] == 1 ? "" : "s", b->name);
	}
	if (b->check_program)
		total += b->check_program(prog, opts, report);
	return total;
}
