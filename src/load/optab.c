/*
 * optab.c - the table of distinct operations, the positions' order and
 * their line runs (see optab.h): open addressing on a hash of an
 * operation's fields, compared field by field (never struct op's padding).
 */
#include <string.h>

#include "grow.h"
#include "load/optab.h"

#define EMPTY UINT32_MAX

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t op_hash(const struct op *op)
{
	uint64_t ts;

	memcpy(&ts, &op->timestamp, sizeof(ts));
	uint64_t h = mix(0, (uint64_t)op->type | (uint64_t)op->status << 8 |
			 (uint64_t)op->flags << 16 | (uint64_t)op->handle << 24 |
			 (uint64_t)op->expr << 40);
	h = mix(h, (uint64_t)(uint32_t)op->fnum | (uint64_t)op->repeat << 32);
	h = mix(h, (uint64_t)op->dir | (uint64_t)op->dir2 << 16);
	h = mix(h, (uintptr_t)op->path);
	h = mix(h, (uintptr_t)op->path2);
	h = mix(h, (uintptr_t)op->leaf ^ (uintptr_t)op->leaf2 << 1);
	for (int i = 0; i < 3; i++)
		h = mix(h, (uint64_t)op->a[i]);
	h = mix(h, ts);
	return h ^ h >> 29;
}

/* Paths are interned strings: equal names are equal pointers. */
static bool op_equal(const struct op *x, const struct op *y)
{
	return x->type == y->type && x->status == y->status && x->flags == y->flags &&
	       x->handle == y->handle && x->expr == y->expr && x->fnum == y->fnum &&
	       memcmp(&x->timestamp, &y->timestamp, sizeof(x->timestamp)) == 0 &&
	       x->path == y->path && x->path2 == y->path2 && x->leaf == y->leaf &&
	       x->leaf2 == y->leaf2 && x->dir == y->dir && x->dir2 == y->dir2 &&
	       x->repeat == y->repeat && x->a[0] == y->a[0] && x->a[1] == y->a[1] &&
	       x->a[2] == y->a[2];
}

/* Double the hash (and make room for the entries it may then index: no
 * more than a loadfile's lines, LOADFILE_MAX_OPS + 1). */
static bool grow_hash(TALLOC_CTX *ctx, struct optab *t)
{
	size_t nsize = t->size ? t->size * 2 : 1024;
	size_t cap = nsize / 2 < LOADFILE_MAX_OPS + 1 ? nsize / 2 : LOADFILE_MAX_OPS + 1;
	uint32_t *nslot = talloc_array(ctx, uint32_t, nsize);
	struct op *nops = talloc_realloc(ctx, t->ops, struct op, cap);

	if (!nslot || !nops) {
		talloc_free(nslot);
		if (nops)
			t->ops = nops;
		return false;
	}
	t->ops = nops;
	memset(nslot, 0xff, nsize * sizeof(*nslot));
	for (size_t i = 0; i < t->n; i++) {
		size_t j = op_hash(&t->ops[i]) & (nsize - 1);
		while (nslot[j] != EMPTY)
			j = (j + 1) & (nsize - 1);
		nslot[j] = (uint32_t)i;
	}
	talloc_free(t->slot);
	t->slot = nslot;
	t->size = nsize;
	return true;
}

long optab_intern(TALLOC_CTX *ctx, struct optab *t, const struct op *op)
{
	if (t->n + 1 > t->size / 2 && !grow_hash(ctx, t))
		return -1;
	size_t j = op_hash(op) & (t->size - 1);
	while (t->slot[j] != EMPTY) {
		if (op_equal(&t->ops[t->slot[j]], op))
			return t->slot[j];
		j = (j + 1) & (t->size - 1);
	}
	t->ops[t->n] = *op;
	t->slot[j] = (uint32_t)t->n;
	return (long)t->n++;
}

bool optab_reserve(TALLOC_CTX *ctx, struct optab *t, size_t need)
{
	return grow_array(ctx, (void **)&t->order, sizeof(uint32_t), &t->pcap, need, 64);
}

bool optab_begin(TALLOC_CTX *ctx, struct optab *t, size_t cap)
{
	*t = (struct optab){ .order = talloc_array(ctx, uint32_t, cap ? cap : 1) };
	t->pcap = t->order ? (cap ? cap : 1) : 0;
	return t->order != NULL;
}

/* A new run where the line does not follow on from the last run's. */
static bool note_line(TALLOC_CTX *ctx, struct optab *t, uint32_t pos, uint32_t line)
{
	const struct line_run *last = t->nlines ? &t->lines[t->nlines - 1] : NULL;

	if (last && last->line + (pos - last->pos) == line)
		return true;
	if (!grow_array(ctx, (void **)&t->lines, sizeof(struct line_run), &t->lcap, t->nlines + 1,
			16))
		return false;
	t->lines[t->nlines++] = (struct line_run){ pos, line };
	return true;
}

bool optab_append(TALLOC_CTX *ctx, struct optab *t, uint32_t entry, uint32_t line)
{
	if (!optab_reserve(ctx, t, t->npos + 1) || !note_line(ctx, t, (uint32_t)t->npos, line))
		return false;
	t->order[t->npos++] = entry;
	return true;
}

uint32_t optab_line(const struct line_run *runs, size_t n, size_t pos)
{
	size_t lo = 0, hi = n;	/* the last run whose pos <= pos is in [lo, hi) */

	if (n == 0)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (runs[mid].pos <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return runs[lo].line + (uint32_t)(pos - runs[lo].pos);
}

uint32_t loadfile_line(const struct program *prog, size_t pos)
{
	return optab_line(prog->lines, prog->nlines, pos);
}

/* Array p of n elements of `size` bytes cut to its length (talloc would
 * free it for n == 0: then it stays as it is). */
static void *shrink(TALLOC_CTX *ctx, void *p, size_t size, size_t n)
{
	void *q = p && n ? talloc_realloc_size(ctx, p, size * n) : NULL;
	return q ? q : p;
}

void optab_finish(TALLOC_CTX *ctx, struct optab *t, struct program *prog)
{
	/* entries become byte offsets: below 2^32, the table being below
	 * talloc's 256 MiB (loadfile.c's assertion) */
	for (size_t i = 0; i < t->npos; i++)
		t->order[i] *= (uint32_t)sizeof(struct op);
	prog->op_offset = shrink(ctx, t->order, sizeof(*t->order), t->npos);
	prog->nops = t->npos;
	prog->lines = shrink(ctx, t->lines, sizeof(*t->lines), t->nlines);
	prog->nlines = t->nlines;
	if (t->ops) {
		prog->ops = shrink(ctx, t->ops, sizeof(*t->ops), t->n);
		prog->ndistinct = t->n;
	}
	talloc_free(t->slot);
	*t = (struct optab){ 0 };
}
