/*
 * tune_race.c - the race's statistics (see tune_race.h): the figures by
 * block, condition and candidate, the ranks, the tests and the drops.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series/tune_race.h"
#include "numstat.h"

struct race {
	struct race_params p;
	unsigned nblocks;
	double *fig;		/* [block][cond][cand]: NAN without a figure */
	bool *ran;		/* [block][cand]: in the race in that block */
	bool *alive;		/* [cand] */
	struct race_drop *drop;	/* [cand]: .block 0 while in the race */
	struct race_drop *last;	/* the last block's drops, [ncand] */
	double *level;		/* [k]: posthoc_level() among k, NAN until found */
	bool equivalent;
};

struct race *race_new(TALLOC_CTX *mem_ctx, const struct race_params *p)
{
	struct race *r = talloc_zero(mem_ctx, struct race);

	if (!r)
		return NULL;
	r->p = *p;
	r->alive = talloc_array(r, bool, p->ncand);
	r->drop = talloc_zero_array(r, struct race_drop, p->ncand);
	r->last = talloc_zero_array(r, struct race_drop, p->ncand);
	r->fig = talloc_array(r, double, 0);
	r->ran = talloc_array(r, bool, 0);
	r->level = talloc_array(r, double, p->ncand + 1);
	if (!r->alive || !r->drop || !r->last || !r->fig || !r->ran || !r->level) {
		talloc_free(r);
		return NULL;
	}
	for (size_t c = 0; c < p->ncand; c++)
		r->alive[c] = true;
	for (size_t k = 0; k <= p->ncand; k++)
		r->level[k] = NAN;
	return r;
}

static double *fig_at(const struct race *r, unsigned b, size_t cond, size_t cand)
{
	return &r->fig[((size_t)b * r->p.nconds + cond) * r->p.ncand + cand];
}

/* What the ranks order by: lower is better, a failed run the worst. */
static double loss(const struct race *r, unsigned b, size_t cond, size_t cand)
{
	double v = *fig_at(r, b, cond, cand);

	if (isnan(v))
		return INFINITY;
	return r->p.higher_better ? -v : v;
}

unsigned race_begin_block(struct race *r)
{
	size_t nfig = (size_t)(r->nblocks + 1) * r->p.nconds * r->p.ncand;
	double *fig = talloc_realloc(r, r->fig, double, nfig);
	bool *ran = talloc_realloc(r, r->ran, bool, (size_t)(r->nblocks + 1) * r->p.ncand);

	if (!fig || !ran)
		return 0;
	r->fig = fig;
	r->ran = ran;
	for (size_t i = (size_t)r->nblocks * r->p.nconds * r->p.ncand; i < nfig; i++)
		fig[i] = NAN;
	for (size_t c = 0; c < r->p.ncand; c++)
		ran[(size_t)r->nblocks * r->p.ncand + c] = r->alive[c];
	return ++r->nblocks;
}

void race_abort_block(struct race *r)
{
	if (r->nblocks)
		r->nblocks--;
}

void race_record(struct race *r, size_t cand, size_t cond, double figure)
{
	if (r->nblocks && cand < r->p.ncand && cond < r->p.nconds)
		*fig_at(r, r->nblocks - 1, cond, cand) = figure;
}

bool race_alive(const struct race *r, size_t cand)
{
	return cand < r->p.ncand && r->alive[cand];
}

size_t race_nalive(const struct race *r)
{
	size_t n = 0;

	for (size_t c = 0; c < r->p.ncand; c++)
		n += r->alive[c];
	return n;
}

unsigned race_nblocks(const struct race *r)
{
	return r->nblocks;
}

bool race_equivalent(const struct race *r)
{
	return r->equivalent;
}

const struct race_drop *race_dropped(const struct race *r, size_t cand)
{
	return cand < r->p.ncand && r->drop[cand].block ? &r->drop[cand] : NULL;
}

/* ---- ranks ---- */

/* The candidates in block upto (from 1), into set; their number. */
static size_t in_block(const struct race *r, unsigned upto, size_t *set)
{
	size_t k = 0;

	for (size_t c = 0; c < r->p.ncand; c++)
		if (r->ran[(size_t)(upto - 1) * r->p.ncand + c])
			set[k++] = c;
	return k;
}

/* The losses of set[0..k) over blocks 1..upto, a row a (block,
 * condition), on mem_ctx; *rows their number. */
static double *matrix(TALLOC_CTX *mem_ctx, const struct race *r, unsigned upto,
		      const size_t *set, size_t k, size_t *rows)
{
	double *x = talloc_array(mem_ctx, double, (size_t)upto * r->p.nconds * k + 1);

	*rows = 0;
	for (unsigned b = 0; x && b < upto; b++)
		for (size_t cond = 0; cond < r->p.nconds; cond++, ++*rows)
			for (size_t j = 0; j < k; j++)
				x[*rows * k + j] = loss(r, b, cond, set[j]);
	return x;
}

size_t race_block_size(const struct race *r, unsigned b)
{
	size_t k = 0;

	for (size_t c = 0; b && b <= r->nblocks && c < r->p.ncand; c++)
		k += r->ran[(size_t)(b - 1) * r->p.ncand + c];
	return k;
}

double race_mean_rank(const struct race *r, size_t cand, unsigned upto)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	size_t *set = talloc_array(tmp, size_t, r->p.ncand), k, rows, at = r->p.ncand;
	double mean = NAN;

	if (upto == 0 || upto > r->nblocks || !set) {
		talloc_free(tmp);
		return NAN;
	}
	k = in_block(r, upto, set);
	for (size_t j = 0; j < k; j++)
		at = set[j] == cand ? j : at;
	double *x = at < k ? matrix(tmp, r, upto, set, k, &rows) : NULL;
	double *sums = x ? talloc_array(tmp, double, k) : NULL;
	struct numstat_friedman f;
	if (sums) {
		numstat_friedman(x, rows, k, sums, &f);
		mean = sums[at] / rows;
	}
	talloc_free(tmp);
	return mean;
}

size_t race_best(const struct race *r)
{
	size_t best = r->p.ncand;
	double best_rank = INFINITY;

	for (size_t c = 0; c < r->p.ncand; c++) {
		if (!r->alive[c])
			continue;
		double m = r->nblocks ? race_mean_rank(r, c, r->nblocks) : 0;
		if (best == r->p.ncand || m < best_rank) {
			best = c;
			best_rank = m;
		}
	}
	return best;
}

/* ---- the tests ---- */

/* Drop set[j] after the open block, for the reasons given. */
static void drop(struct race *r, size_t *ndrops, size_t cand, double mean_rank, size_t k,
		 size_t against, double p, double level, bool wilcoxon)
{
	struct race_drop d = { .cand = cand, .block = r->nblocks, .mean_rank = mean_rank,
			       .nalive = k, .against = against, .p = p, .level = level,
			       .wilcoxon = wilcoxon };

	r->alive[cand] = false;
	r->drop[cand] = d;
	r->last[(*ndrops)++] = d;
}

/* Two left: Wilcoxon's signed-rank test on their paired losses. */
static void test_two(struct race *r, const double *x, size_t rows, const size_t *set,
		     const double *sums, size_t *ndrops)
{
	double *d = malloc(rows * sizeof(*d));

	if (!d)
		return;
	for (size_t i = 0; i < rows; i++) {
		double a = x[i * 2], b = x[i * 2 + 1];
		d[i] = a == b ? 0 : a - b;	/* two failures tie */
	}
	double p = numstat_signed_rank(d, rows);
	free(d);
	if (!(p < r->p.alpha) || sums[0] == sums[1])
		return;
	size_t worse = sums[0] > sums[1] ? 0 : 1;
	drop(r, ndrops, set[worse], sums[worse] / rows, 2, set[!worse], p, r->p.alpha, true);
}

/* The two-sided level a comparison with the best is held against among
 * k candidates: alpha, or with RACE_BEST twice the one-sided tail
 * beyond Dunnett's bound for k - 1 comparisons (so that the true best
 * is dropped at a look with a chance of at most alpha). */
static double posthoc_level(struct race *r, size_t k)
{
	if (r->p.rule != RACE_BEST)
		return r->p.alpha;
	if (isnan(r->level[k]))
		r->level[k] = numstat_gs_level(numstat_best_bound(k - 1, r->p.alpha), true);
	return r->level[k];
}

/* Three or more: Friedman, then each against the best (params.rule). */
static void test_many(struct race *r, const struct numstat_friedman *f, const size_t *set,
		      size_t *ndrops)
{
	size_t k = f->k, best = 0;
	double *p = f->p < r->p.alpha ? malloc(k * sizeof(*p)) : NULL, level;

	if (!p)
		return;
	for (size_t j = 1; j < k; j++)
		best = f->rank_sum[j] < f->rank_sum[best] ? j : best;
	for (size_t j = 0; j < k; j++)
		p[j] = j == best ? NAN : numstat_friedman_pair_p(f, best, j);
	level = posthoc_level(r, k);
	if (r->p.rule != RACE_HOLM || numstat_holm(p, k, p))
		for (size_t j = 0; j < k; j++)
			if (j != best && p[j] < level && f->rank_sum[j] > f->rank_sum[best])
				drop(r, ndrops, set[j], f->rank_sum[j] / f->n, k, set[best], p[j],
				     level, false);
	free(p);
}

/* Whether every candidate left is within the equivalence margin of the
 * best. */
static bool all_equivalent(const struct race *r)
{
	size_t best = race_best(r), others = 0;

	for (size_t c = 0; c < r->p.ncand; c++) {
		double mean, lo, hi;
		size_t n;
		if (!r->alive[c] || c == best)
			continue;
		others++;
		if (!race_paired_diff(r, c, best, 0.90, &mean, &lo, &hi, &n) ||
		    !(lo > -r->p.equivalent && hi < r->p.equivalent))
			return false;
	}
	return others > 0;
}

size_t race_end_block(struct race *r, const struct race_drop **drops)
{
	TALLOC_CTX *tmp = talloc_new(r);
	size_t *set = talloc_array(tmp, size_t, r->p.ncand), k, rows, ndrops = 0;

	*drops = r->last;
	k = set && r->nblocks ? in_block(r, r->nblocks, set) : 0;
	if (r->nblocks >= r->p.first_test && k >= 2) {
		double *x = matrix(tmp, r, r->nblocks, set, k, &rows);
		double *sums = x ? talloc_array(tmp, double, k) : NULL;
		struct numstat_friedman f;
		if (sums) {
			numstat_friedman(x, rows, k, sums, &f);
			if (k == 2)
				test_two(r, x, rows, set, sums, &ndrops);
			else
				test_many(r, &f, set, &ndrops);
		}
	}
	r->equivalent = r->p.equivalent > 0 && r->nblocks >= r->p.first_test &&
			race_nalive(r) >= 2 && all_equivalent(r);
	talloc_free(tmp);
	return ndrops;
}

/* ---- figures ---- */

bool race_paired_diff(const struct race *r, size_t a, size_t b, double level, double *mean,
		      double *lo, double *hi, size_t *npairs)
{
	double *d = malloc(((size_t)r->nblocks * r->p.nconds + 1) * sizeof(*d)), half;
	size_t n = 0;

	*mean = *lo = *hi = NAN;
	*npairs = 0;
	for (unsigned blk = 0; d && blk < r->nblocks; blk++) {
		for (size_t cond = 0; cond < r->p.nconds; cond++) {
			double fa = *fig_at(r, blk, cond, a), fb = *fig_at(r, blk, cond, b);
			if (isfinite(fa) && isfinite(fb) && fa > 0 && fb > 0)
				d[n++] = log(fa / fb);
		}
	}
	*npairs = n;
	double m;
	bool ok = d && numstat_mean_interval(d, n, level, &m, &half);
	if (ok) {
		*mean = expm1(m) * 100;
		*lo = expm1(m - half) * 100;
		*hi = expm1(m + half) * 100;
	}
	free(d);
	return ok;
}

size_t race_figures(const struct race *r, size_t cand, size_t cond, double *out)
{
	size_t n = 0;

	for (unsigned b = 0; b < r->nblocks; b++)
		if (r->ran[(size_t)b * r->p.ncand + cand])
			out[n++] = *fig_at(r, b, cond, cand);
	return n;
}
