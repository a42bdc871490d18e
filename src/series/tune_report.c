/*
 * tune_report.c - what dbench tune says at the end (see
 * tune_internal.h): a table of every candidate, the winner against "as
 * found", and the Pareto front of throughput against p99 latency.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series/tune_internal.h"
#include "numstat.h"

#define LEVEL 0.95

const char *tune_objective_name(const struct tune *t)
{
	switch (t->objective) {
	case TUNE_THROUGHPUT:
		return "throughput (MB/sec, higher is better)";
	case TUNE_P99:
		return "p99 latency of its operation (ms, lower is better)";
	case TUNE_PROBE:
		return "the probe's longest listing (ms, lower is better)";
	}
	return "?";
}

static const struct tune_posthoc_rule posthoc_rules[] = {
	[TUNE_POSTHOC_BEST] = { RACE_BEST, "best", "friedman-conover-best",
				"Friedman, then Conover's test against Dunnett's bound" },
	[TUNE_POSTHOC_HOLM] = { RACE_HOLM, "holm", "friedman-conover-holm",
				"Friedman, then Conover's test with Holm's correction" },
	[TUNE_POSTHOC_NONE] = { RACE_PLAIN, "none", "friedman-conover",
				"Friedman, then Conover's test" },
};
#define NPOSTHOC (sizeof(posthoc_rules) / sizeof(posthoc_rules[0]))

const struct tune_posthoc_rule *tune_posthoc_rule(enum tune_posthoc p)
{
	return &posthoc_rules[p < NPOSTHOC ? p : TUNE_POSTHOC_BEST];
}

bool tune_posthoc_parse(const char *word, enum tune_posthoc *p)
{
	for (size_t i = 0; i < NPOSTHOC; i++)
		if (strcmp(word, posthoc_rules[i].name) == 0) {
			*p = (enum tune_posthoc)i;
			return true;
		}
	return false;
}

/* The figure `which` of a run: 0 throughput, 1 p99, 2 probe. */
static double run_value(const struct tune_run *r, int which)
{
	return which == 0 ? r->mb_s : which == 1 ? r->p99_ms : r->probe_ms;
}

/* Whether the runs had a probe. */
static bool probed(const struct tune *t)
{
	for (size_t i = 0; i < t->nruns; i++)
		if (!isnan(t->runs[i].probe_ms))
			return true;
	return false;
}

/* The median of figure `which` of candidate cand's successful runs at
 * condition cond (every condition for cond < 0). */
static double median_at(const struct tune *t, size_t cand, long cond, int which, double *lo,
			double *hi, size_t *n)
{
	double *v = malloc((t->nruns + 1) * sizeof(*v)), m = NAN;

	*n = 0;
	*lo = *hi = NAN;
	for (size_t i = 0; v && i < t->nruns; i++) {
		const struct tune_run *r = &t->runs[i];
		if (r->cand == cand && (cond < 0 || r->cond == (size_t)cond) && r->rc == 0 &&
		    !isnan(run_value(r, which)))
			v[(*n)++] = run_value(r, which);
	}
	if (v && *n) {
		numstat_sort(v, *n);
		m = numstat_median_sorted(v, *n);
		numstat_median_interval(v, *n, LEVEL, lo, hi);
	}
	free(v);
	return m;
}

double tune_median(const struct tune *t, size_t cand, int which, double *lo, double *hi,
		   size_t *n)
{
	return median_at(t, cand, -1, which, lo, hi, n);
}

/* A candidate's figure over the conditions, for the front: the median
 * at one count, the geometric mean of the counts' medians over several. */
static double front_value(const struct tune *t, size_t cand, int which)
{
	double logsum = 0, lo, hi;
	size_t n;

	for (size_t k = 0; k < t->nconds; k++) {
		double m = median_at(t, cand, (long)k, which, &lo, &hi, &n);
		if (!(m > 0))
			return NAN;
		logsum += log(m);
	}
	return exp(logsum / t->nconds);
}

size_t tune_front(const struct tune *t, size_t *front)
{
	int dims = probed(t) ? 3 : 2;
	double (*v)[3] = malloc(t->ncand * sizeof(*v));
	size_t n = 0;

	for (size_t c = 0; v && c < t->ncand; c++)
		for (int d = 0; d < 3; d++)	/* lower is better throughout */
			v[c][d] = d < dims ? (d ? 1 : -1) * front_value(t, c, d) : 0;
	for (size_t c = 0; v && c < t->ncand; c++) {
		bool dominated = isnan(v[c][0]) || isnan(v[c][1]) || isnan(v[c][2]);
		for (size_t o = 0; !dominated && o < t->ncand; o++) {
			bool no_worse = o != c, better = false;
			for (int d = 0; d < 3 && no_worse; d++) {
				no_worse = !isnan(v[o][d]) && v[o][d] <= v[c][d];
				better = better || v[o][d] < v[c][d];
			}
			dominated = no_worse && better;
		}
		if (!dominated)
			front[n++] = c;
	}
	for (size_t i = 1; i < n; i++)	/* most throughput first */
		for (size_t j = i; j > 0 && v[front[j]][0] < v[front[j - 1]][0]; j--) {
			size_t tmp = front[j];
			front[j] = front[j - 1];
			front[j - 1] = tmp;
		}
	free(v);
	return n;
}

/* ---- the table ---- */

/* v with the decimals its size deserves: 12345, 123.4, 1.23, 0.00123. */
static const char *figure_text(char buf[24], double v)
{
	double a = fabs(v);

	snprintf(buf, 24, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
	return buf;
}

/* "1234 [1200, 1250]", or "1234 [-]" where too few runs give an
 * interval, in a column of width w. */
static void put_figure(FILE *out, double m, double lo, double hi, int w)
{
	char buf[80], a[24], b[24], c[24];

	if (isnan(m))
		snprintf(buf, sizeof(buf), "-");
	else if (isnan(lo))
		snprintf(buf, sizeof(buf), "%s [-]", figure_text(a, m));
	else
		snprintf(buf, sizeof(buf), "%s [%s, %s]", figure_text(a, m), figure_text(b, lo),
			 figure_text(c, hi));
	fprintf(out, "  %-*s", w, buf);
}

/* Where candidate c stands at its last block: its mean rank "2.40 of 5",
 * and how it left the race. */
static void put_fate(FILE *out, const struct tune *t, size_t c)
{
	const struct race_drop *d = race_dropped(t->race, c);
	unsigned last = d ? d->block : race_nblocks(t->race);
	double rank = last ? race_mean_rank(t->race, c, last) : NAN;
	char fate[64];

	fprintf(out, "  %5.2f of %-3zu", rank, last ? race_block_size(t->race, last) : 0);
	if (d)
		snprintf(fate, sizeof(fate), "block %u: p %.2g vs #%zu", d->block, d->p,
			 d->against + 1);
	else
		snprintf(fate, sizeof(fate), "%s", c == race_best(t->race) ? "in (best)" : "in");
	fprintf(out, "  %-24s", fate);
}

static void table_rows(const struct tune *t, long cond, bool probe)
{
	for (size_t c = 0; c < t->ncand; c++) {
		double m[3], lo[3], hi[3];
		size_t n[3];
		for (int w = 0; w < 3; w++)
			m[w] = median_at(t, c, cond, w, &lo[w], &hi[w], &n[w]);
		fprintf(t->text, "  #%-3zu %4zu", c + 1, n[0]);
		put_figure(t->text, m[0], lo[0], hi[0], 24);
		put_figure(t->text, m[1], lo[1], hi[1], 22);
		if (probe)
			put_figure(t->text, m[2], lo[2], hi[2], 22);
		put_fate(t->text, t, c);
		fprintf(t->text, "  %s%s\n", t->cand[c].as_found ? "as found: " : "",
			t->cand[c].label);
	}
}

static void table(const struct tune *t)
{
	bool probe = probed(t);

	fprintf(t->text, "\nCandidates (median [95 %% interval] of each figure over the runs;"
		" the race's mean rank, 1 the best):\n");
	for (size_t k = 0; k < t->nconds; k++) {
		if (t->nconds > 1)
			fprintf(t->text, "at %u client%s:\n", t->procs[k], t->procs[k] == 1 ? "" : "s");
		fprintf(t->text, "  %-4s %4s  %-24s  %-22s", "", "runs", "MB/sec",
			t->op ? "p99 ms" : "worst p99 ms");
		if (probe)
			fprintf(t->text, "  %-22s", "probe max ms");
		fprintf(t->text, "  %-12s  %-24s  %s\n", "mean rank", "dropped after", "settings");
		table_rows(t, t->nconds > 1 ? (long)k : -1, probe);
	}
}

/* ---- the verdict ---- */

/* "+5.2 %" of a paired difference in the objective's better sense. */
bool tune_beats_as_found(const struct tune *t, struct tune_gain *g)
{
	const struct race_drop *d = race_dropped(t->race, 0);

	g->best = race_best(t->race);
	g->mean = g->lo = g->hi = NAN;
	g->pairs = 0;
	g->drop = d && g->best != 0 && d->against == g->best ? d : NULL;
	if (g->best == 0)
		return false;
	bool ok = race_paired_diff(t->race, g->best, 0, LEVEL, &g->mean, &g->lo, &g->hi,
				   &g->pairs);
	return g->drop || (ok && (t->objective == TUNE_THROUGHPUT ? g->lo > 0 : g->hi < 0));
}

static void verdict(const struct tune *t)
{
	struct tune_gain g;
	bool beats = tune_beats_as_found(t, &g);
	const char *what = t->objective == TUNE_THROUGHPUT ? "throughput"
			   : t->objective == TUNE_P99 ? "p99" : "probe latency";

	fputc('\n', t->text);
	if (g.best == 0) {
		fprintf(t->text, "No candidate beats what is there: as found (#1) ranks best"
			" of the %zu left.\n", race_nalive(t->race));
		return;
	}
	const char *label = t->cand[g.best].label;
	if (beats && g.pairs >= 2)
		fprintf(t->text, "Winner: #%zu (%s): %s %+.2f %% against as found, 95 %% interval"
			" [%+.2f, %+.2f] from %zu paired runs", g.best + 1, label, what, g.mean,
			g.lo, g.hi, g.pairs);
	else if (beats)
		fprintf(t->text, "Winner: #%zu (%s), against as found", g.best + 1, label);
	else if (g.pairs >= 2)
		fprintf(t->text, "No candidate beats what is there: the best, #%zu (%s), against as"
			" found: %s %+.2f %%, 95 %% interval [%+.2f, %+.2f] from %zu paired runs\n",
			g.best + 1, label, what, g.mean, g.lo, g.hi, g.pairs);
	else
		fprintf(t->text, "No candidate beats what is there: the best, #%zu (%s), has too few"
			" runs paired with as found to judge (%zu)\n", g.best + 1, label, g.pairs);
	if (beats && g.drop)
		fprintf(t->text, "; the race dropped as found against it after block %u (p %.3g)",
			g.drop->block, g.drop->p);
	if (beats)
		fputc('\n', t->text);
}

static void front_lines(const struct tune *t)
{
	size_t *front = malloc(t->ncand * sizeof(*front)), n = front ? tune_front(t, front) : 0;
	bool probe = probed(t);

	fprintf(t->text, "\nPareto front of throughput against %s%s%s (no other candidate"
		" is as good in all of them and better in one):\n", t->op ? "p99 of " : "worst p99",
		t->op ? t->op : "", probe ? " and the probe's longest listing" : "");
	for (size_t i = 0; i < n; i++) {
		size_t c = front[i], k;
		double lo, hi, m0 = front_value(t, c, 0), m1 = front_value(t, c, 1);
		char a[24], b[24];
		fprintf(t->text, "  #%-3zu %s MB/sec, p99 %s ms", c + 1, figure_text(a, m0),
			figure_text(b, m1));
		if (probe)
			fprintf(t->text, ", probe %s ms",
				figure_text(a, median_at(t, c, -1, 2, &lo, &hi, &k)));
		fprintf(t->text, "  %s%s\n", t->cand[c].as_found ? "as found: " : "",
			t->cand[c].label);
	}
	if (n == 0)
		fprintf(t->text, "  (no candidate has both figures)\n");
	free(front);
}

void tune_report(const struct tune *t)
{
	table(t);
	verdict(t);
	front_lines(t);
	fflush(t->text);
}
