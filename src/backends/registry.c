/*
 * registry.c - the list of backends, found by name for --backend, their
 * options gathered for the command line (and one given to the wrong
 * backend found), and the check of
 * what a backend cannot express.  Adding a backend adds it to `backends`
 * below and nothing else here.  The layers above reach the backends
 * through this file; no backend calls into it.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static const struct backend *const backends[] = { &fileio_backend, &null_backend,
						   &smb_backend, &sockio_backend, &nfs_backend,
						   &block_backend, &iscsi_backend, &scsi_backend };

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct backend *backend_by_name(const char *name)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	}
	return NULL;
}

const struct backend *backend_nth(size_t i)
{
	return i < NBACKENDS ? backends[i] : NULL;
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

/* Per backend, the first of its options the command line gave (NULL for
 * none), noted by popt's callback as it parses: a number leaves no other
 * mark of being given. */
static const char *given_option[NBACKENDS];

/* The numbers of each backend's options as the program started, and
 * whether they were taken: a command line parsed again (each side of
 * dbench ab) starts from them, not from the last one's values. */
#define MAX_BACKEND_OPTIONS 16
static int first_int[NBACKENDS][MAX_BACKEND_OPTIONS];
static bool firsts_taken;

static void take_firsts(void)
{
	for (size_t i = 0; i < NBACKENDS && !firsts_taken; i++) {
		for (size_t o = 0; backends[i]->options && backends[i]->options[o].longName; o++) {
			const struct poptOption *p = &backends[i]->options[o];
			assert(o < MAX_BACKEND_OPTIONS);
			if ((p->argInfo & POPT_ARG_MASK) == POPT_ARG_INT)
				first_int[i][o] = *(int *)p->arg;
		}
	}
	firsts_taken = true;
}

/* popt's strings of a parse before: a plan made from one may still point
 * at them, so they are kept (and still reachable) until the exit. */
static char **kept;
static size_t nkept;

static void keep(char *s)
{
	char **more = s ? realloc(kept, (nkept + 1) * sizeof(*kept)) : NULL;

	if (more) {
		kept = more;
		kept[nkept++] = s;
	}
}

/* Before a parse: backend i's options as the program started. */
static void reset_options(size_t i)
{
	for (size_t o = 0; backends[i]->options && backends[i]->options[o].longName; o++) {
		const struct poptOption *p = &backends[i]->options[o];
		if ((p->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING) {
			keep(*(char **)p->arg);
			*(char **)p->arg = NULL;
		} else if ((p->argInfo & POPT_ARG_MASK) == POPT_ARG_INT) {
			*(int *)p->arg = first_int[i][o];
		}
	}
}

static void note_given(poptContext pc, enum poptCallbackReason reason,
		       const struct poptOption *opt, const char *arg, const void *slot)
{
	(void)pc;
	(void)arg;
	if (reason == POPT_CALLBACK_REASON_PRE)
		reset_options((size_t)((const char **)slot - given_option));
	else if (reason == POPT_CALLBACK_REASON_OPTION && opt && !*(const char **)slot)
		*(const char **)slot = opt->longName;
}

struct poptOption *backend_option_table(TALLOC_CTX *mem_ctx)
{
	struct poptOption *t = talloc_zero_array(mem_ctx, struct poptOption, NBACKENDS + 1);
	size_t n = 0;

	take_firsts();

	for (size_t i = 0; t && i < NBACKENDS; i++) {
		given_option[i] = NULL;
		if (!backends[i]->options)
			continue;
		/* the backend's table behind a callback entry that notes each
		 * option given (popt still stores its value) */
		size_t len = 0;
		while (backends[i]->options[len].longName)
			len++;
		struct poptOption *own = talloc_zero_array(t, struct poptOption, len + 2);
		if (!own)
			return NULL;
		own[0] = (struct poptOption){ .argInfo = POPT_ARG_CALLBACK | POPT_CBFLAG_PRE,
					      .arg = (void *)(uintptr_t)note_given,
					      .descrip = (const char *)&given_option[i] };
		memcpy(own + 1, backends[i]->options, len * sizeof(*own));
		t[n].argInfo = POPT_ARG_INCLUDE_TABLE;
		t[n].arg = own;
		t[n].descrip = talloc_asprintf(t, "Options of the %s backend:", backends[i]->name);
		n++;
	}
	return t;	/* ends with a zeroed entry: POPT_TABLEEND */
}

const char *backend_foreign_option(const struct backend *b, const char **owner)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i]->name, b->name) != 0 && given_option[i]) {
			*owner = backends[i]->name;
			return given_option[i];
		}
	}
	return NULL;
}

unsigned backend_check_program(TALLOC_CTX *mem_ctx, const struct backend *b,
			       const struct program *prog,
			       const struct backend_options *opts, char **report)
{
	unsigned missing[OP_COUNT] = { 0 }, total = 0;

	*report = talloc_strdup(mem_ctx, "");
	for (size_t i = 0; i < prog->nops; i++)	/* positions, not REPEATs */
		missing[loadfile_op(prog, i)->type] += b->op[loadfile_op(prog, i)->type] == NULL;
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

bool backend_performs_none(const struct backend *b, const struct program *prog,
			   const char **first)
{
	bool timed = false;

	*first = NULL;
	/* the table holds each op in the order of its first position */
	for (size_t i = 0; i < prog->ndistinct; i++) {
		int t = prog->ops[i].type;
		if (op_is_untimed(t))
			continue;
		if (b->op[t])
			return false;
		if (!timed)
			*first = op_table[t].name;
		timed = true;
	}
	return timed;
}
