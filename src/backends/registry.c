/*
 * registry.c - the list of backends, found by name for --backend (or by
 * their flags: the default), their own options made into the popt rows
 * of one command line and parsed into a struct per backend (and one
 * given to the wrong backend found), and the check of what a backend
 * cannot express.  Adding a backend adds it to `backends`
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

const struct backend *backend_default(bool tbench)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (tbench ? backends[i]->is_tbench : backends[i]->is_default)
			return backends[i];
	}
	return NULL;
}

/* ---- the backends' own options, one set per command line ---- */

/* One backend's options in a set: its struct, and the first of them the
 * command line gave (NULL for none), noted by popt's callback as it
 * parses: a number leaves no other mark of being given. */
struct backend_own {
	const struct backend *b;
	void *own;
	const char *given;
};

struct backend_optset {
	struct backend_own each[NBACKENDS];
	struct poptOption *popt;	/* the table that fills them */
};

/* popt hands strings over malloc()ed: they go with the set. */
static int optset_destructor(struct backend_optset *set)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		const struct backend_opt *o = backends[i]->options;
		for (; set->each[i].own && o && o->name; o++)
			if (o->type == BACKEND_OPT_STRING)
				free(*(char **)((char *)set->each[i].own + o->offset));
	}
	return 0;
}

static void note_given(poptContext pc, enum poptCallbackReason reason,
		       const struct poptOption *opt, const char *arg, const void *data)
{
	struct backend_own *bo = (struct backend_own *)data;

	(void)pc;
	(void)arg;
	if (reason == POPT_CALLBACK_REASON_OPTION && opt && !bo->given)
		bo->given = opt->longName;
}

/* Backend i's struct at its defaults and its popt rows, pointed at it
 * behind a callback row that notes each option given (popt still stores
 * its value).  False when out of memory. */
static bool optset_add(struct backend_optset *set, size_t i, struct poptOption *heading)
{
	const struct backend *b = backends[i];
	struct backend_own *bo = &set->each[i];
	size_t len = 0;

	while (b->options[len].name)
		len++;
	struct poptOption *rows = talloc_zero_array(set, struct poptOption, len + 2);
	if (!rows || !(bo->own = talloc_zero_size(set, b->options_size)))
		return false;
	rows[0] = (struct poptOption){ .argInfo = POPT_ARG_CALLBACK,
				       .arg = (void *)(uintptr_t)note_given,
				       .descrip = (const char *)bo };
	for (size_t o = 0; o < len; o++) {
		const struct backend_opt *row = &b->options[o];
		void *field = (char *)bo->own + row->offset;
		assert(row->offset + (row->type == BACKEND_OPT_INT ? sizeof(int) : sizeof(char *))
		       <= b->options_size);
		if (row->type == BACKEND_OPT_INT)
			*(int *)field = row->def;
		rows[o + 1] = (struct poptOption){
			row->name, 0, row->type == BACKEND_OPT_INT ? POPT_ARG_INT : POPT_ARG_STRING,
			field, 0, row->help, row->arg };
	}
	*heading = (struct poptOption){ .argInfo = POPT_ARG_INCLUDE_TABLE, .arg = rows,
		.descrip = talloc_asprintf(set, "Options of the %s backend:", b->name) };
	return heading->descrip != NULL;
}

struct backend_optset *backend_optset_new(TALLOC_CTX *mem_ctx)
{
	struct backend_optset *set = talloc_zero(mem_ctx, struct backend_optset);
	size_t n = 0;

	if (!set || !(set->popt = talloc_zero_array(set, struct poptOption, NBACKENDS + 1))) {
		talloc_free(set);
		return NULL;
	}
	talloc_set_destructor(set, optset_destructor);
	for (size_t i = 0; i < NBACKENDS; i++) {
		set->each[i].b = backends[i];
		if (backends[i]->options && !optset_add(set, i, &set->popt[n++])) {
			talloc_free(set);
			return NULL;
		}
	}
	return set;	/* popt ends with a zeroed entry: POPT_TABLEEND */
}

struct poptOption *backend_optset_popt(struct backend_optset *set)
{
	return set->popt;
}

void *backend_optset_own(const struct backend_optset *set, const struct backend *b)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i]->name, b->name) == 0)
			return set->each[i].own;
	}
	return NULL;
}

const char *backend_optset_foreign(const struct backend_optset *set, const struct backend *b,
				   const char **owner)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i]->name, b->name) != 0 && set->each[i].given) {
			*owner = backends[i]->name;
			return set->each[i].given;
		}
	}
	return NULL;
}

char *backend_check_options(TALLOC_CTX *mem_ctx, const struct backend *b, const void *own)
{
	for (const struct backend_opt *o = b->options; own && o && o->name; o++) {
		int v = o->type == BACKEND_OPT_INT ? *(const int *)((const char *)own + o->offset) : 0;
		if (o->type == BACKEND_OPT_INT && (v < o->min || v > o->max))
			return talloc_asprintf(mem_ctx, "--%s must be %d to %d%s%s", o->name, o->min,
					       o->max, o->unit ? " " : "", o->unit ? o->unit : "");
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
