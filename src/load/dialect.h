/*
 * dialect.h - the loadfile dialects behind one face (private to
 * src/load/).  Each dialect is a file of its own that fills a struct
 * dialect; dialect.c lists them in the order they are asked, and
 * loadfile.c asks the list, never a dialect by name.
 *
 * Two kinds of dialect:
 * - a dialect of rows (dbench 4.0, dbench 5.0's NFS, SMB, block and SCSI)
 *   says whether a row is its own (detect), reads the row's status column
 *   (compile_row) and checks the row once its arguments are read
 *   (finish).  loadfile.c does the rest, the same for all of them: the
 *   fields by the kinds op_table gives, paths, handles, timestamps and
 *   the directives.  A file may mix their rows.
 * - a dialect of whole files (the system calls) says whether a file is
 *   its own by its first line (detect_file) and compiles it whole
 *   (compile_file) with the lexer of load/lex.h.
 *
 * A dialect knows its names, shapes and rules; nothing of how a program
 * is run.
 */
#ifndef DBENCH_LOAD_DIALECT_H
#define DBENCH_LOAD_DIALECT_H

#include <stdbool.h>
#include <stddef.h>

#include "loadfile.h"
#include "load/lex.h"

/* What a row dialect's hooks may ask of the compiler calling them. */
struct dialect_ctx {
	struct lex *lx;		/* messages, and the fields' values */
	/* The offset expression t ("*" with qualifiers, "+N" ...) as
	 * op->expr, as an offset field holding one is read. */
	bool (*offset_expr)(struct dialect_ctx *dc, const struct token *t, struct op *op);
};

/* rules: how the shared machinery treats a dialect's rows */
enum {
	DIALECT_OWN_FILES = 1 << 0,	/* a path from "/" names the client's own
					 * files, as \clients\client1 does */
	DIALECT_EXPRS = 1 << 1,		/* an offset field may be an expression */
	DIALECT_BY_PATH = 1 << 2,	/* an open file is named by its path */
	DIALECT_CAPPED = 1 << 3,	/* a row moving bytes expects no more
					 * back than its size */
};

struct dialect {
	const char *name;	/* for messages and tests */
	unsigned kinds;		/* its rows' OP_DIALECT_*, as 1 << kind */
	unsigned rules;		/* DIALECT_* */

	/* a dialect of whole files (else NULL) */
	bool (*detect_file)(const char *text, size_t len);
	/* Compile text into prog (zeroed but for its source): true; or
	 * false with *err "NAME:LINE: ..." on prog (NULL and *oom when
	 * memory ran out).  What prog holds after a failure goes with it. */
	bool (*compile_file)(struct program *prog, const char *name, const char *text,
			     size_t len, char **err, bool *oom);

	/* a dialect of rows (else NULL) */
	/* The type (OP_*) of the row whose name is `name` and whose fields
	 * after it are args[0 .. nargs), or -1 when the row is not its. */
	int (*detect)(const struct token *name, const struct token *args, int nargs);
	/* The status column of op's row (op->status, OPF_ANY_STATUS;
	 * OPF_DBENCH3 where the dialect has a form without it): false after
	 * lex_fail(), the count of fields among what is wrong. */
	bool (*compile_row)(struct dialect_ctx *dc, struct op *op, const struct token *args,
			    int nargs);
	/* The checks that span the row's fields, once they are read. */
	bool (*finish)(struct dialect_ctx *dc, struct op *op);
	/* Whether a path's first component, s[0 .. len), names the client's
	 * own directory in the dialect's words (NULL: none does). */
	bool (*own_dir)(const char *s, size_t len);
};

extern const struct dialect dbench4_dialect, nfs_dialect, smb5_dialect, block_dialect,
	syscalls_dialect;

/* The dialect of whole files that text is of, or NULL (a file of rows). */
const struct dialect *dialect_of_file(const char *text, size_t len);

/* The dialect of rows the row is of, and its type in *type; or NULL. */
const struct dialect *dialect_of_row(const struct token *name, const struct token *args,
				     int nargs, int *type);

#endif
