/*
 * dbench4.c - dbench 4.0's dialect of rows (and dbench 3's, which is the
 * same less the status column): NTCreateX, ReadX, Close ... found by name
 * in op_table, open files named by the trace's handle numbers, an
 * NT_STATUS_* or "*" last.  Knows its status column and its rules; the
 * fields are read by loadfile.c as op_table gives them.
 */
#include <string.h>
#include <strings.h>

#include "load/dialect.h"

static int detect(const struct token *name, const struct token *args, int nargs)
{
	(void)args;
	(void)nargs;
	int type = name->quoted ? -1 : op_lookup(name->s, name->len);
	return type >= 0 && op_table[type].dialect == OP_DIALECT_DBENCH4 ? type : -1;
}

static bool nt_status_named(const struct token *t)
{
	return t->len > 10 && strncasecmp(t->s, "NT_STATUS_", 10) == 0;
}

/* NT_STATUS_..., "*", or nothing (dbench 3's form: the row must succeed). */
static bool compile_row(struct dialect_ctx *dc, struct op *op, const struct token *tok,
			int nargs)
{
	const struct op_desc *d = &op_table[op->type];
	const struct token *t = nargs > 0 ? &tok[nargs - 1] : NULL;

	if (t && nargs == d->nargs + 1 && lex_is(t, "*")) {
		op->flags |= OPF_ANY_STATUS;
		return true;
	}
	if (t && nargs == d->nargs + 1) {
		int s = t->quoted ? -1 : nt_status_lookup(t->s, t->len);
		if (s < 0) {
			lex_fail(dc->lx, "%s status '%s'", nt_status_named(t) ? "unknown" : "malformed",
				 lex_tokstr(dc->lx, t));
			return false;
		}
		op->status = s;
		return true;
	}
	if (nargs == d->nargs && nargs > 0 && !nt_status_named(t)) {
		op->flags |= OPF_DBENCH3;
		op->status = NT_OK;
		return true;
	}
	lex_fail(dc->lx, "%s takes %d argument%s, got %d", d->name, d->nargs,
		 d->nargs == 1 ? "" : "s", nargs - (t && nt_status_named(t)));
	return false;
}

static bool finish(struct dialect_ctx *dc, struct op *op)
{
	(void)dc;
	if ((op->flags & OPF_DBENCH3) && op_has(op->type, OPD_OPENS) && op->fnum == -1)
		op->status = NT_UNSUCCESSFUL;	/* dbench 3: fnum -1 means "must fail" */
	return true;
}

const struct dialect dbench4_dialect = {
	.name = "dbench 4.0",
	.kinds = 1u << OP_DIALECT_DBENCH4,
	.rules = DIALECT_CAPPED,
	.detect = detect,
	.compile_row = compile_row,
	.finish = finish,
};
