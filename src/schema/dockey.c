/*
 * dockey.c - the table of the JSON documents' members (dockey.h,
 * dockeys.def): its rows, reading a member by its row, making an object
 * of a row's members, and checking a document against the table.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dockey.h"
#include "jsontext.h"
#include "result.h"

/* The writer's source of a row, from its field's C type: a field of a
 * type the writer cannot put out fails the build here. */
#define DOCKEY_KIND(field) _Generic((field), \
	double: DKS_DOUBLE, bool: DKS_BOOL, int: DKS_INT, unsigned: DKS_UNSIGNED, \
	unsigned long: DKS_U64, const char *: DKS_TEXT, char *: DKS_TEXT, double *: DKS_DOUBLES)
#define F(type, field) .src = DOCKEY_KIND(((type *)0)->field), .offset = offsetof(type, field), \
	.size = sizeof(((type *)0)->field)
#define CALC .src = DKS_CALC

const struct dockey_row dockey_rows[DK_COUNT] = {
#define DOCKEY(id, parent_, name_, type_, elem_, since_, src_, where_, meaning_) \
	[DK_##id] = { .parent = DK_##parent_, .elem = DK_##elem_, .name = name_, .type = type_, \
		      .since = since_, src_, .where = where_, .meaning = meaning_ },
#include "dockeys.def"
#undef DOCKEY
};

#undef F
#undef CALC

/* Never freed: jansson leaves an object of refcount (size_t)-1 alone. */
json_t dockey_absent_value = { JSON_NULL, (size_t)-1 };

static bool is_shape(enum dockey k)
{
	return dockey_rows[k].parent == k;
}

/* ---- reading ---- */

const json_t *dockey_get(const json_t *obj, enum dockey k)
{
	enum dockey chain[16];
	size_t n = 0;

	for (enum dockey r = k; !is_shape(r) && n < sizeof(chain) / sizeof(chain[0]);
	     r = dockey_rows[r].parent)
		chain[n++] = r;
	while (obj && n > 0)
		obj = json_object_get(obj, dockey_rows[chain[--n]].name);
	return obj;
}

char *dockey_path(TALLOC_CTX *mem_ctx, enum dockey k)
{
	if (is_shape(k) || is_shape(dockey_rows[k].parent))
		return talloc_strdup(mem_ctx, dockey_rows[k].name);
	char *up = dockey_path(mem_ctx, dockey_rows[k].parent);
	char *path = up ? talloc_asprintf(mem_ctx, "%s.%s", up, dockey_rows[k].name) : NULL;
	talloc_free(up);
	return path;
}

long dockey_schema_of(const json_t *doc, enum dockey k)
{
	const json_t *v = dockey_get(doc, k);

	if (!v)
		return 1;
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return -1;
	return (long)json_integer_value(v);
}

/* ---- writing ---- */

/* A count as a JSON integer, which is signed: the largest there is
 * rather than a negative one. */
static json_t *u64_json(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *real_json(double v)
{
	json_t *j = isfinite(v) ? json_real(v) : NULL;
	return j ? j : json_null();
}

/* Row r's value from its field in src. */
static json_t *field_value(const struct dockey_row *r, const void *src)
{
	const char *p = (const char *)src + r->offset;

	switch (r->src) {
	case DKS_DOUBLE:
		return real_json(*(const double *)p);
	case DKS_BOOL:
		return json_boolean(*(const bool *)p);
	case DKS_INT:
		return json_integer(*(const int *)p);
	case DKS_UNSIGNED:
		return json_integer(*(const unsigned *)p);
	case DKS_U64:
		return u64_json(*(const unsigned long *)p);
	case DKS_TEXT:
		return jsontext(*(const char *const *)p);
	case DKS_DOUBLES: {
		json_t *a = json_array();
		for (size_t i = 0; a && i < r->size / sizeof(double); i++)
			if (json_array_append_new(a, real_json(((const double *)p)[i]))) {
				json_decref(a);
				return NULL;
			}
		return a;
	}
	case DKS_CALC:
		break;
	}
	return NULL;
}

/* The most values one object takes from its writer. */
#define DOCKEY_MAX_CALC 64

/* Releases the values of calc[0..n) not taken (taken[], of
 * DOCKEY_MAX_CALC: those beyond it were not). */
static void release(const struct dockey_value *calc, size_t n, const bool *taken)
{
	for (size_t i = 0; i < n; i++)
		if (i >= DOCKEY_MAX_CALC || !taken[i])
			json_decref(calc[i].value);
}

json_t *dockey_object(enum dockey of, const void *src, const struct dockey_value *calc,
		      size_t ncalc)
{
	json_t *o = json_object();
	bool taken[DOCKEY_MAX_CALC] = { false }, ok = o != NULL && ncalc <= DOCKEY_MAX_CALC;

	for (enum dockey k = DK_NONE + 1; ok && k < DK_COUNT; k++) {
		const struct dockey_row *r = &dockey_rows[k];
		if (r->parent != of || k == of)
			continue;
		json_t *v = NULL;
		if (r->src != DKS_CALC) {
			v = field_value(r, src);
		} else {
			size_t i = 0;
			while (i < ncalc && calc[i].key != k)
				i++;
			if (i == ncalc && (r->type & DKT_OPT))
				continue;	/* absent */
			if (i == ncalc) {
				ok = false;	/* a member the writer did not give */
				break;
			}
			taken[i] = true;
			v = calc[i].value;
			if (v == DOCKEY_ABSENT)
				continue;
		}
		ok = v && json_object_set_new(o, r->name, v) == 0;
	}
	for (size_t i = 0; i < ncalc && ok; i++)
		ok = taken[i];	/* a value for no member of this object */
	if (ok)
		return o;
	release(calc, ncalc, taken);
	json_decref(o);
	return NULL;
}

/* ---- checking a document ---- */

/* Whether v is of kind `type` (one of DKT_INT ... DKT_MAP, with DKT_NULL). */
static bool type_ok(const json_t *v, unsigned type)
{
	if (json_is_null(v))
		return type & DKT_NULL;
	switch (type & 0xff) {
	case DKT_INT:
		return json_is_integer(v);
	case DKT_NUM:
		return json_is_number(v);
	case DKT_BOOL:
		return json_is_boolean(v);
	case DKT_STR:
		return json_is_string(v);
	case DKT_OBJ:
	case DKT_MAP:
		return json_is_object(v);
	case DKT_ARR:
		return json_is_array(v);
	}
	return false;
}

static const char *type_text(unsigned type)
{
	static const char *const text[] = { "a whole number", "a number", "true or false",
					    "a string", "an object", "an array", "an object" };

	for (unsigned i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (type & (1u << i))
			return text[i];
	return "?";
}

static char *check_object(TALLOC_CTX *ctx, const json_t *obj, enum dockey of, long schema,
			  const char *path);

/* The "schema" row of a document's shape. */
static enum dockey schema_row(enum dockey doc)
{
	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++)
		if (dockey_rows[k].parent == doc && k != doc &&
		    strcmp(dockey_rows[k].name, "schema") == 0)
			return k;
	return DK_NONE;
}

/* What is wrong with v, the member of row k (or an element of it, whole
 * false) at path. */
static char *check_value(TALLOC_CTX *ctx, const json_t *v, enum dockey k, long schema,
			 const char *path, bool whole)
{
	const struct dockey_row *r = &dockey_rows[k];
	unsigned type = whole ? r->type : DKT_OBJ;
	enum dockey shape = r->elem != DK_NONE ? r->elem : k;
	const json_t *e;
	const char *name;
	size_t i;
	char *why = NULL;

	if (whole && !type_ok(v, type))
		return talloc_asprintf(ctx, "%s: not %s%s", path, type_text(type),
				       type & DKT_NULL ? " or null" : "");
	if (json_is_null(v))
		return NULL;
	if (!whole && (dockey_rows[shape].type & DKT_DOC))	/* a document of its own schema */
		schema = dockey_schema_of(v, schema_row(shape));
	if (!whole || (type & DKT_OBJ))
		return check_object(ctx, v, shape, schema, path);
	if ((type & DKT_ARR) && r->elem != DK_NONE)
		json_array_foreach(v, i, e) {
			char *at = talloc_asprintf(ctx, "%s[%zu]", path, i);
			if ((why = check_value(ctx, e, k, schema, at, false)))
				return why;
		}
	if ((type & DKT_MAP) && r->elem != DK_NONE)
		json_object_foreach((json_t *)v, name, e) {
			char *at = talloc_asprintf(ctx, "%s.%s", path, name);
			if ((why = check_value(ctx, e, k, schema, at, false)))
				return why;
		}
	return NULL;
}

static char *check_object(TALLOC_CTX *ctx, const json_t *obj, enum dockey of, long schema,
			  const char *path)
{
	const char *name;
	const json_t *v;

	if (!json_is_object(obj))
		return talloc_asprintf(ctx, "%s: not an object", *path ? path : "the document");
	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++) {
		const struct dockey_row *r = &dockey_rows[k];
		if (r->parent != of || k == of || r->since > schema)
			continue;
		char *at = *path ? talloc_asprintf(ctx, "%s.%s", path, r->name)
				 : talloc_strdup(ctx, r->name);
		v = json_object_get(obj, r->name);
		char *why = v ? check_value(ctx, v, k, schema, at, true)
			      : r->type & DKT_OPT ? NULL
			      : talloc_asprintf(ctx, "%s: missing", at);
		if (why)
			return why;
	}
	json_object_foreach((json_t *)obj, name, v) {
		enum dockey k = DK_NONE + 1;
		while (k < DK_COUNT && (dockey_rows[k].parent != of || k == of ||
					strcmp(dockey_rows[k].name, name) != 0))
			k++;
		if (k == DK_COUNT || dockey_rows[k].since > schema)
			return *path ? talloc_asprintf(ctx, "%s.%s: not in the table", path, name)
				     : talloc_asprintf(ctx, "%s: not in the table", name);
	}
	return NULL;
}

char *dockey_check(TALLOC_CTX *mem_ctx, const json_t *doc, enum dockey shape, long schema)
{
	return check_object(mem_ctx, doc, shape, schema, "");
}
