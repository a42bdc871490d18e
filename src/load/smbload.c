/*
 * smbload.c - dbench 5.0's SMB dialect of rows (its loadfiles smb.load,
 * smb_1.load ...): which rows are its, their status column, their checks
 * (a struct dialect, load/dialect.h).  Knows the dialect's names, shapes
 * and rules; nothing of how a row is compiled or performed.
 *
 * A row of it is NAME "PATH" [ARG ...] STATUS, NAME one of OPEN, CLOSE,
 * READ, WRITE, MKDIR, RMDIR, UNLINK, READDIR, Deltree (any case), STATUS
 * SUCCESS, ERROR or "*".  Some names are dbench 4's too (Close, Mkdir,
 * Rmdir, Unlink, Deltree): a row is taken for this dialect by its shape
 * (see detect()), never by its name alone, so every dbench 4 row still
 * compiles as it did.  Paths are beneath each client, /client1 the
 * client's own directory; an open file is named by its path.
 */
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "load/dialect.h"

/* Whether a path token is \clients (or /clients) or beneath it. */
static bool under_clients(const struct token *t)
{
	const char *p = t->s, *end = t->s + t->len;

	while (p < end && (*p == '\\' || *p == '/'))
		p++;
	if (p == t->s || end - p < 7 || strncasecmp(p, "clients", 7) != 0)
		return false;
	return end - p == 7 || p[7] == '\\' || p[7] == '/';
}

/*
 * The row is of this dialect when its first field is a quoted path and
 * one of: the last field is SUCCESS or ERROR; the name is none of dbench
 * 4's (OPEN, READ, WRITE, READDIR), or CLOSE (dbench 4's takes a handle
 * number); the status is "*" and the path is not \clients or beneath it
 * (where a dbench 4 row must name its files).  So READ or WRITE with an
 * offset first (dbench 5.0's block dialect) is not of it.
 */
static int detect(const struct token *name, const struct token *args, int nargs)
{
	int type = name->quoted ? -1 : op_lookup_smb(name->s, name->len);

	if (type < 0 || nargs < 1 || !args[0].quoted)
		return -1;
	const struct token *status = &args[nargs - 1];
	if (lex_is(status, "SUCCESS") || lex_is(status, "ERROR"))
		return type;
	switch (type) {
	case OP_SMB_OPEN:
	case OP_SMB_READ:
	case OP_SMB_WRITE:
	case OP_SMB_READDIR:
	case OP_SMB_CLOSE:
		return type;
	default:
		break;
	}
	return lex_is(status, "*") && !under_clients(&args[0]) ? type : -1;
}

/* SUCCESS, ERROR or "*". */
static bool compile_row(struct dialect_ctx *dc, struct op *op, const struct token *tok,
			int nargs)
{
	const struct op_desc *d = &op_table[op->type];

	if (!lex_has_status(dc->lx, d->name, d->nargs, nargs))
		return false;
	const struct token *t = &tok[nargs - 1];
	if (lex_is(t, "SUCCESS")) {
		op->status = NT_OK;
	} else if (lex_is(t, "ERROR")) {
		op->status = NT_UNSUCCESSFUL;
	} else if (lex_is(t, "*")) {
		op->flags |= OPF_ANY_STATUS;
	} else {
		lex_fail(dc->lx, "malformed status '%s' (dbench 5.0's %s takes SUCCESS, ERROR or *)",
			 lex_tokstr(dc->lx, t), d->name);
		return false;
	}
	return true;
}

static bool finish(struct dialect_ctx *dc, struct op *op)
{
	if (op->type == OP_SMB_OPEN && (op->a[0] & ~(int64_t)SMB5_O_ALL)) {
		lex_fail(dc->lx, "OPEN flags 0x%" PRIx64 " hold bits outside 0x%x (0x01 O_RDONLY,"
			 " 0x02 O_WRONLY, 0x04 O_RDWR, 0x08 O_CREAT, 0x10 O_EXCL, 0x20 O_TRUNC,"
			 " 0x40 O_APPEND)", (uint64_t)op->a[0], SMB5_O_ALL);
		return false;
	}
	if (op_has(op->type, OPD_WHOLE))
		op->a[2] = op->a[1];	/* all of it, or the operation failed */
	return true;
}

/* dbench 5.0 puts each client's own directory, client<N>, beneath the
 * share, and its loadfiles name it "client1". */
static bool own_dir(const char *s, size_t len)
{
	return len == 7 && strncasecmp(s, "client1", 7) == 0;
}

const struct dialect smb5_dialect = {
	.name = "dbench 5.0's SMB",
	.kinds = 1u << OP_DIALECT_SMB5,
	.rules = DIALECT_OWN_FILES | DIALECT_EXPRS | DIALECT_BY_PATH | DIALECT_CAPPED,
	.detect = detect,
	.compile_row = compile_row,
	.finish = finish,
	.own_dir = own_dir,
};
