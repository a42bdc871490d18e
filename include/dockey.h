/*
 * dockey.h - the members of the JSON documents dbench writes (a run's,
 * a sweep's, dbench ab's) and reads back (compare, sweep, ab): one table,
 * dockeys.def, a row a member, that the writers, the readers, the CSV
 * header and the tests all take names from.
 *
 * A member is named in the code by its row's id (DK_RESULT_THROUGHPUT),
 * never by a string: a row renamed or removed changes the writer and
 * every reader at once, or fails the build.  The table is a tree: each
 * row's parent is an object row or a shape, a row that is its own parent
 * and describes a document (DK_RUN) or what is found in several places
 * (each element of "timeline", each probe's figures).  dockey_get() walks
 * from an object of a row's shape down to the row; dockey_object() makes
 * an object of a row's members in the table's order, taking each either
 * from a field of a struct (the row's F(struct, field)) or from the
 * values the writer hands over.
 *
 * Documents carry their schema ("schema": DOCKEY_SCHEMA).  One written
 * before there was a schema member is of schema 1; a reader takes
 * DOCKEY_SCHEMA_MIN .. DOCKEY_SCHEMA and refuses any other by its number
 * (dockey_schema_of()).  A row's SINCE says which schema brought it: a
 * document of an older one lacks it, and the row's meaning says what
 * that means.  Any change to a member (a new one, a name, a type, a
 * meaning) makes a new schema.
 *
 * Knows the structs the run's figures are kept in (result.h), for the
 * writer's fields; nothing of how they are computed or judged.
 */
#ifndef DBENCH_DOCKEY_H
#define DBENCH_DOCKEY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>
#include <talloc.h>

/* The schema this dbench writes, and the oldest it reads. */
#define DOCKEY_SCHEMA 3
#define DOCKEY_SCHEMA_MIN 1

/* What a member holds: one kind, and the flags after it. */
enum dockey_type {
	DKT_INT = 1 << 0,	/* a whole number */
	DKT_NUM = 1 << 1,	/* a number (written with a fraction; read either way) */
	DKT_BOOL = 1 << 2,
	DKT_STR = 1 << 3,
	DKT_OBJ = 1 << 4,	/* an object of the row's children, or of ELEM's shape */
	DKT_ARR = 1 << 5,	/* an array, of ELEM's shape where there is one */
	DKT_MAP = 1 << 6,	/* an object of members named by data (an operation's
				 * name), each of ELEM's shape where there is one */
	DKT_NULL = 1 << 8,	/* may be null */
	DKT_OPT = 1 << 9,	/* may be absent */
	DKT_DOC = 1 << 11,	/* a shape that is a whole document (a file) */
};

enum dockey {
	DK_NONE,
#define DOCKEY(id, parent, name, type, elem, since, src, where, meaning) DK_##id,
#include "dockeys.def"
#undef DOCKEY
	DK_COUNT
};

/* Where the writer takes a member from (dockey_object()). */
enum dockey_src {
	DKS_CALC,	/* the value the writer hands over */
	DKS_DOUBLE,	/* a double: a number, null when not finite */
	DKS_BOOL,
	DKS_INT,
	DKS_UNSIGNED,
	DKS_U64,	/* saturated at the largest JSON integer */
	DKS_TEXT,	/* a string, through jsontext(); null for NULL */
	DKS_DOUBLES,	/* an array of doubles: [n] numbers or nulls */
};

/* One row of dockeys.def. */
struct dockey_row {
	enum dockey parent;	/* itself for a shape */
	enum dockey elem;	/* DK_NONE, or the shape of its elements */
	const char *name;	/* the member's name ("" for a shape) */
	unsigned type;		/* enum dockey_type */
	unsigned since;		/* the schema that brought it */
	enum dockey_src src;
	size_t offset, size;	/* the field, for all but DKS_CALC */
	const char *where;	/* where it is computed */
	const char *meaning;	/* one line */
};

extern const struct dockey_row dockey_rows[DK_COUNT];

/* ---- reading ---- */

/* The member of row k in obj, an object of k's shape (the document for
 * "result.throughput_mb_s", an element of "clients" for its "mb_s"), or
 * NULL when it is absent. */
const json_t *dockey_get(const json_t *obj, enum dockey k);

/* The member's name ("throughput_mb_s"). */
static inline const char *dockey_name(enum dockey k)
{
	return dockey_rows[k].name;
}

/* Its path from its shape, "result.throughput_mb_s" (on mem_ctx). */
char *dockey_path(TALLOC_CTX *mem_ctx, enum dockey k);

/* The schema of doc, a document whose schema member is row k (DK_RUN_SCHEMA
 * ...): 1 without one, the number it holds, or -1 when that is not a
 * whole number from 1 up. */
long dockey_schema_of(const json_t *doc, enum dockey k);

/* ---- writing ---- */

/* A value the writer hands over for a DKS_CALC row; DOCKEY_ABSENT leaves
 * the member out (a row that may be absent). */
struct dockey_value {
	enum dockey key;
	json_t *value;		/* taken over */
};
extern json_t dockey_absent_value;
#define DOCKEY_ABSENT (&dockey_absent_value)

/*
 * A new object of the members of row `of` (an object row or a shape), in
 * the table's order: a field's from src (the struct its rows' F() name),
 * the others from calc[0..ncalc), which it takes over.  NULL when memory
 * runs out, or when the call does not match the table (a value for a row
 * that is not a member of `of`, none for one that must be there): a
 * writer's mistake, which the tests of its document find at once.
 */
json_t *dockey_object(enum dockey of, const void *src, const struct dockey_value *calc,
		      size_t ncalc);

/* ---- checking a document ---- */

/*
 * What is wrong with doc as an object of shape `shape` and of the given
 * schema, against the table: a member missing, of another type, or not
 * in the table; NULL when nothing is.  The first fault, as
 * "PATH: what" (on mem_ctx).  For the tests: readers take what they
 * know and leave the rest.
 */
char *dockey_check(TALLOC_CTX *mem_ctx, const json_t *doc, enum dockey shape, long schema);

#endif
