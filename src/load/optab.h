/*
 * optab.h - a program's positions as it is compiled, private to the
 * loadfile compilers (loadfile.c, syscalls.c): the table of distinct
 * operations (each interned once, by a hash over its fields), the
 * sequence of positions as indices into it, and the positions' line
 * numbers as runs (struct line_run).  It knows struct op's fields, not
 * what a line of any dialect says.
 */
#ifndef DBENCH_LOAD_OPTAB_H
#define DBENCH_LOAD_OPTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "loadfile.h"

struct optab {
	struct op *ops;		/* the distinct operations, [n] of [size / 2]
				 * (or of LOADFILE_MAX_OPS + 1, the most lines) */
	size_t n;
	uint32_t *slot;		/* hash slots: an index into ops, or UINT32_MAX */
	size_t size;		/* power of two, 0 before the first intern */
	uint32_t *order;	/* the positions' entries, [npos] of [pcap] */
	size_t npos, pcap;
	struct line_run *lines;	/* [nlines] of [lcap] */
	size_t nlines, lcap;
};

/* Room for exactly `cap` positions to begin with (LOOP's limit is
 * measured against it); false when memory ran out. */
bool optab_begin(TALLOC_CTX *ctx, struct optab *t, size_t cap);

/* Make room for `need` positions in all; false when memory ran out. */
bool optab_reserve(TALLOC_CTX *ctx, struct optab *t, size_t need);

/* The index of an operation equal to *op in the table, adding a copy if
 * there is none; -1 when memory ran out.  *op must be final. */
long optab_intern(TALLOC_CTX *ctx, struct optab *t, const struct op *op);

/* Append a position running entry `entry`, from loadfile line `line`;
 * false when memory ran out. */
bool optab_append(TALLOC_CTX *ctx, struct optab *t, uint32_t entry, uint32_t line);

/* The line of position pos among runs[0 .. n). */
uint32_t optab_line(const struct line_run *runs, size_t n, size_t pos);

/* Hand the positions and their lines to prog (op_offset, nops, lines),
 * and the table too when one was interned (ops, ndistinct); the hash
 * goes. */
void optab_finish(TALLOC_CTX *ctx, struct optab *t, struct program *prog);

#endif
