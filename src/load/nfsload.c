/*
 * nfsload.c - dbench 5.0's NFS dialect of rows (nfs.load): GETATTR3,
 * READ3, WRITE3 ... found by name in op_table, on paths from "/" beneath
 * the client's directory, offsets that may be expressions, an NFS3
 * status number (0x...) or "*" last on every row.  Knows its status
 * column and its rules; the fields are read by loadfile.c.
 */
#include <inttypes.h>

#include "load/dialect.h"

static int detect(const struct token *name, const struct token *args, int nargs)
{
	(void)args;
	(void)nargs;
	int type = name->quoted ? -1 : op_lookup(name->s, name->len);
	return type >= 0 && op_table[type].dialect == OP_DIALECT_NFS ? type : -1;
}

static bool compile_row(struct dialect_ctx *dc, struct op *op, const struct token *tok,
			int nargs)
{
	if (!lex_has_status(dc->lx, op_table[op->type].name, op_table[op->type].nargs, nargs))
		return false;
	const struct token *t = &tok[nargs - 1];
	uint32_t v;

	if (lex_is(t, "*")) {
		op->flags |= OPF_ANY_STATUS;
		return true;
	}
	if (!lex_hex32(t, &v)) {
		lex_fail(dc->lx, "malformed NFS status '%s' (0x and a number, or *)",
			 lex_tokstr(dc->lx, t));
		return false;
	}
	op->status = nt_status_of_nfs3(v);
	return true;
}

static bool finish(struct dialect_ctx *dc, struct op *op)
{
	if (op->type == OP_WRITE3 && (op->a[2] < 0 || op->a[2] > 2)) {
		lex_fail(dc->lx, "stable %" PRId64 " is not 0 (unstable), 1 (data) or 2 (file)",
			 op->a[2]);
		return false;
	}
	return true;
}

const struct dialect nfs_dialect = {
	.name = "dbench 5.0's NFS",
	.kinds = 1u << OP_DIALECT_NFS,
	.rules = DIALECT_OWN_FILES | DIALECT_EXPRS,
	.detect = detect,
	.compile_row = compile_row,
	.finish = finish,
};
