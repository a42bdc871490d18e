/*
 * compare_latency.c - the latency part of "dbench compare" (compare.h):
 * each operation's p99 (and each --probe's), every document against the
 * first, and the test that says whether a change is more than noise.
 *
 * Where every run of both sides kept its histograms (rundoc.h), a side's
 * p99 is that of its runs pooled, exact; the test compares, run by run,
 * the share of operations slower than the p99 of both sides pooled (a
 * side whose tail is heavier has more of its operations up there).  The
 * runs stay the unit of the test: operations within one run are not
 * independent of each other, runs are.  Shares are bounded and skewed
 * (many runs have none up there), so the test is the rank test where it
 * can come out significant with the runs there are, Welch's below that.  Runs saved without histograms,
 * and the probe's listings, are judged on each run's own p99 instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_parts.h"
#include "hist.h"
#include "numstat.h"
#include "ops.h"

/* The latency rows: one per operation type (0 .. OP_COUNT - 1), then one
 * per --probe directory, in the order of the run's "probes". */

/* A row's name: the operation's, or "(probe listing)" for the first
 * probe and "(probe listing 2)" ... for the others. */
static const char *row_name(TALLOC_CTX *ctx, int row)
{
	if (row < OP_COUNT)
		return op_table[row].name;
	return row == OP_COUNT ? "(probe listing)"
			       : talloc_asprintf(ctx, "(probe listing %d)", row - OP_COUNT + 1);
}

/* The most --probe directories a run of g listed. */
static int group_probes(const struct rundoc_group *g)
{
	int most = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const json_t *probes = dockey_get(g->runs[i], DK_RUN_PROBES);
		int n = json_is_array(probes) ? (int)json_array_size(probes)
					      : json_is_object(dockey_get(g->runs[i], DK_RUN_PROBE));
		most = n > most ? n : most;
	}
	return most;
}

/* The figures of a row in one run: an operation type's, or a probe's
 * (the first from "probe", which every document with --probe has; the
 * others from "probes"). */
static const json_t *row_figures(const json_t *run, int row)
{
	if (row < OP_COUNT)
		return json_object_get(dockey_get(run, DK_OPS), op_table[row].name);
	if (row == OP_COUNT)
		return dockey_get(run, DK_RUN_PROBE);
	return json_array_get(dockey_get(run, DK_RUN_PROBES), row - OP_COUNT);
}

/* The p99 of a row in each run of g that has one; their number. */
static size_t row_p99s(const struct rundoc_group *g, int row, double *out)
{
	enum dockey p99_key = row < OP_COUNT ? DK_OP_P99 : DK_PROBE_P99;
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const json_t *p99 = dockey_get(row_figures(g->runs[i], row), p99_key);
		if (json_is_number(p99))
			out[n++] = json_number_value(p99);
	}
	return n;
}

/* ---- pooled ---- */

/* Every run of g that performed op into pool; false when one did not
 * keep its histogram whole. */
static bool pool_group(struct hist *pool, const struct rundoc_group *g, const char *op)
{
	if (!rundoc_hists_whole(g->runs, g->nruns, op))
		return false;
	for (size_t i = 0; i < g->nruns; i++) {
		struct hist one = { 0 };
		if (rundoc_add_hist(&one, g->runs[i], op))
			hist_merge(pool, &one);
	}
	return true;
}

/* Each run of g with operations of type op: the percentage of them in
 * buckets above `bucket`; their number. */
static size_t shares_above(const struct rundoc_group *g, const char *op, unsigned bucket,
			   double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		struct hist one = { 0 };
		if (rundoc_add_hist(&one, g->runs[i], op) && one.count)
			out[n++] = 100.0 * hist_count_above(&one, bucket) / one.count;
	}
	return n;
}

bool compare_pooled_p99(struct compare_row *row, const struct rundoc_group *ga,
			const struct rundoc_group *gb, const char *op, double alpha)
{
	struct hist *h = calloc(3, sizeof(*h)), *pa = h, *pb = h + 1, *both = h + 2;
	double *sa = malloc(sizeof(double) * (ga->nruns + gb->nruns)), *sb = sa + ga->nruns;
	bool ok = h && sa && pool_group(pa, ga, op) && pool_group(pb, gb, op) &&
		  pa->count >= hist_quantile_min_count(0.99) &&
		  pb->count >= hist_quantile_min_count(0.99);

	if (ok) {
		hist_merge(both, pa);
		hist_merge(both, pb);
		unsigned b = hist_bucket_of(hist_quantile(both, 0.99));
		size_t na = shares_above(ga, op, b, sa), nb = shares_above(gb, op, b, sb);
		compare_samples(row, sa, na, sb, nb, alpha, false);
		compare_rank_instead(row, sa, na, sb, nb, alpha, false);
		row->pooled = true;
		row->above_a = row->mean_a;
		row->above_b = row->mean_b;
		row->mean_a = hist_quantile(pa, 0.99) / 1e6;
		row->mean_b = hist_quantile(pb, 0.99) / 1e6;
		double diff = row->mean_b - row->mean_a;
		row->change_pct = diff == 0 ? 0 : diff / row->mean_a * 100;
	}
	free(h);
	free(sa);
	return ok;
}

/* ---- the table ---- */

/* One row at one nprocs, g of document k against ga of A: pooled where
 * it can be, else on each run's p99.  False when there is nothing to
 * judge (no p99 on a side). */
static bool latency_row(struct compare_row *r, const struct rundoc_group *ga,
			const struct rundoc_group *gb, int row, double alpha)
{
	if (row < OP_COUNT && compare_pooled_p99(r, ga, gb, op_table[row].name, alpha))
		return true;
	double *v = malloc(sizeof(double) * (ga->nruns + gb->nruns));
	size_t na = v ? row_p99s(ga, row, v) : 0, nb = v ? row_p99s(gb, row, v + na) : 0;

	if (na && nb) {
		compare_samples(r, v, na, v + na, nb, alpha, false);
		r->above_a = r->above_b = NAN;
	}
	free(v);
	return na && nb;
}

static const struct compare_table latency_table = {
	.title = "p99 latency, ms (lower is better)", .name_head = "operation", .name_width = 22,
	.figure = "p99", .change_fmt = "%+.2f%%", .change_width = 8, .above = true,
	.better = "better", .worse = "worse",
};

/* Under the table: what it left out (rows tested without a significant
 * change; rows untested for lack of runs, which are no result), or with
 * --all the rows untested it shows. */
static void latency_notes(FILE *out, size_t shown, size_t same, size_t untested, bool all)
{
	const char *s = untested == 1 ? "" : "s";

	if (shown == 0 && same == 0 && untested == 0)
		fprintf(out, "  (no operation in common)\n");
	if (all)
		compare_print_untested(out, untested);
	if (all)
		return;
	if (shown == 0 && same == 0 && untested)
		fprintf(out, "  (none of the %zu rows could be tested: %s; --all shows them)\n",
			untested, compare_untested_why);
	else if (shown == 0 && same)
		fprintf(out, "  (no significant change in any of the %zu tested rows: --all shows"
			" them)\n", same);
	else if (same)
		fprintf(out, "  (%zu row%s without a significant change left out: --all shows"
			" them)\n", same, same == 1 ? "" : "s");
	if (untested && (shown || same))
		fprintf(out, "  (%zu row%s untested, left out: %s; --all shows them)\n", untested, s,
			compare_untested_why);
}

void compare_report_latency(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			    double alpha, bool all)
{
	const struct rundoc *a = docs[0];
	size_t rows = 0, hidden = 0, untested = 0;
	bool pooled = false, own = false;

	compare_table_head(out, &latency_table, ndocs > 2);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		int nrows = OP_COUNT + group_probes(ga);
		for (int row = 0; row < nrows; row++) {
			for (size_t k = 1; k < ndocs; k++) {
				const struct rundoc_group *gb = rundoc_group_of(docs[k], ga->nprocs);
				struct compare_row r;
				if (!gb || !latency_row(&r, ga, gb, row, alpha))
					continue;
				pooled = pooled || r.pooled;
				own = own || !r.pooled;
				untested += !r.tested;
				if (!all && !(r.tested && r.p < alpha)) {
					hidden++;
					continue;
				}
				TALLOC_CTX *tmp = talloc_new(NULL);
				const char *name = row_name(tmp, row);
				compare_table_row(out, &latency_table, ga->nprocs, name ? name : "?",
						  ndocs > 2 ? compare_label(k) : NULL, &r);
				talloc_free(tmp);
				rows++;
			}
		}
	}
	latency_notes(out, rows, all ? 0 : hidden - untested, untested, all);
	if (pooled)
		fprintf(out, "  (p99: each side's runs pooled; >p99: the mean share of a run's"
			" operations slower than the p99 of both sides pooled, which the test"
			" compares run by run: the Mann-Whitney rank test where it can reach p %g"
			" with the runs there are (4 a side at 0.05), Welch's t below that, with t"
			" and df)\n", alpha);
	if (own)
		fprintf(out, "  (rows without >p99: runs saved without histograms, or the probe's"
			" listings: the test compares each run's own p99)\n");
}
