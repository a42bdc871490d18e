/*
 * compare_judge.c - judging one figure of "dbench compare", A against B
 * (compare_parts.h): the verdict of Welch's test (numstat.h), whether
 * the machine could explain it (compare_trust.c), whether it fails
 * --fail-above, how many runs a side would do, and the words the tables
 * print for them.  Knows nothing of the report's layout.
 */
#include <math.h>
#include <stdio.h>

#include "compare_parts.h"
#include "numstat.h"

/* ---- how much evidence ---- */

const char compare_steadier[] =
	"reduce the spread first (a longer -t, a quiet machine, the clients pinned with"
	" --cpus, a fresh file system before each run: REPEATABLE FIGURES in dbench(1))";

/* ---- judging one figure ---- */

/* The interval and the one-sided bounds of row, tested. */
static void intervals(struct compare_row *row, const double *a, size_t na,
		      const double *b, size_t nb, double alpha)
{
	double diff, half, one;

	row->p = numstat_welch(a, na, b, nb, &row->t, &row->df);
	numstat_diff_interval(a, na, b, nb, 1 - alpha / 2, &diff, &half);
	row->ci_low = diff - half;
	row->ci_high = diff + half;
	numstat_diff_interval(a, na, b, nb, 1 - alpha, &diff, &one);
	row->bound_low = (diff - one) / row->mean_a * 100;
	row->bound_high = (diff + one) / row->mean_a * 100;
}

void compare_samples(struct compare_row *row, const double *a, size_t na,
		     const double *b, size_t nb, double alpha, bool higher_is_better)
{
	double diff;

	*row = (struct compare_row){ .na = na, .nb = nb, .t = NAN, .df = NAN, .p = NAN,
				     .ci_low = NAN, .ci_high = NAN, .bound_low = NAN,
				     .bound_high = NAN, .above_a = NAN, .above_b = NAN,
				     .doubt_side = -1, .blocks_first = -1 };
	row->mean_a = numstat_mean(a, na);
	row->mean_b = numstat_mean(b, nb);
	row->sd_a = numstat_stddev(a, na);
	row->sd_b = numstat_stddev(b, nb);
	diff = row->mean_b - row->mean_a;
	row->change_pct = diff == 0 ? 0 : diff / row->mean_a * 100;
	row->tested = na >= COMPARE_TEST_MIN_RUNS && nb >= COMPARE_TEST_MIN_RUNS;
	if (row->tested)
		intervals(row, a, na, b, nb, alpha);
	if (!row->tested)
		row->verdict = COMPARE_UNTESTED;
	else if (diff == 0 || !(row->p < alpha))
		row->verdict = COMPARE_NO_CHANGE;
	else
		row->verdict = (diff > 0) == higher_is_better ? COMPARE_BETTER : COMPARE_WORSE;
}

void compare_rank_instead(struct compare_row *row, const double *a, size_t na,
			  const double *b, size_t nb, double alpha, bool higher_is_better)
{
	double diff = row->mean_b - row->mean_a;

	if (!row->tested || !(numstat_rank_test_min_p(na, nb) < alpha))
		return;
	row->p = numstat_rank_test(a, na, b, nb);
	row->t = row->df = row->ci_low = row->ci_high = NAN;
	row->rank = true;
	if (diff == 0 || !(row->p < alpha))
		row->verdict = COMPARE_NO_CHANGE;
	else
		row->verdict = (diff > 0) == higher_is_better ? COMPARE_BETTER : COMPARE_WORSE;
}

enum compare_gate compare_gate(const struct compare_row *row, double pct)
{
	if (!row->tested || !(row->mean_a > 0))
		return COMPARE_GATE_UNSURE;
	if (-row->bound_low < pct)
		return COMPARE_GATE_OK;
	if (-row->bound_high > pct)
		return row->doubt == COMPARE_SOUND ? COMPARE_GATE_REGRESSION : COMPARE_GATE_LOAD;
	return COMPARE_GATE_UNSURE;
}

size_t compare_gate_runs(const struct compare_row *row, double pct, double alpha)
{
	double margin = fabs(pct + row->change_pct);	/* from the slowdown seen */

	size_t now = row->na > row->nb ? row->na : row->nb;

	if (!row->tested || !(row->mean_a > 0))
		return 0;
	size_t n = numstat_runs_needed(row->sd_a / row->mean_a * 100,
				       row->sd_b / row->mean_a * 100, margin, 1 - alpha,
				       COMPARE_SENSIBLE_RUNS);
	/* sides of unequal runs are judged by Welch's df: never fewer than now */
	return n && n <= now ? (now < COMPARE_SENSIBLE_RUNS ? now + 1 : 0) : n;
}

bool compare_throughput(struct compare_row *row, const struct rundoc *base,
			const struct rundoc *doc, unsigned nprocs, double alpha)
{
	const struct rundoc_group *ga = rundoc_group_of(base, nprocs);
	const struct rundoc_group *gb = rundoc_group_of(doc, nprocs);

	if (!ga || !gb)
		return false;
	compare_samples(row, ga->mb_s, ga->nruns, gb->mb_s, gb->nruns, alpha, true);
	struct compare_trust t;
	compare_trust(&t, ga, gb, row, alpha);
	row->doubt = t.doubt;
	row->doubt_side = t.side;
	row->blocks_first = t.blocks ? t.first : -1;
	return true;
}

/* "untested (1 run of B)": which side had too few runs for a test. */
static const char *untested_text(TALLOC_CTX *ctx, const struct compare_row *r)
{
	if (r->na < COMPARE_TEST_MIN_RUNS && r->nb < COMPARE_TEST_MIN_RUNS)
		return "untested (1 run a side)";
	return talloc_asprintf(ctx, "untested (1 run of %s)",
			       r->na < COMPARE_TEST_MIN_RUNS ? "A" : "B");
}

#define STR_(x) #x
#define STR(x) STR_(x)
const char compare_untested_why[] =
	"a side has a single run there, and a test needs " STR(COMPARE_TEST_MIN_RUNS)
	" runs a side at least (--repeat=" STR(COMPARE_TEST_MIN_RUNS) ")";

const char *compare_verdict_text(TALLOC_CTX *ctx, const struct compare_row *r,
				 const char *better, const char *worse)
{
	if (r->doubt != COMPARE_SOUND)
		return r->doubt == COMPARE_DOUBT_HOST ? "inconclusive: host load"
						      : "inconclusive: drift";
	return r->verdict == COMPARE_BETTER ? better
	     : r->verdict == COMPARE_WORSE ? worse
	     : r->verdict == COMPARE_NO_CHANGE ? "no significant change" : untested_text(ctx, r);
}

void compare_print_untested(FILE *out, size_t n)
{
	if (n)
		fprintf(out, "  (%zu row%s untested: %s)\n", n, n == 1 ? "" : "s",
			compare_untested_why);
}

const char *compare_num(TALLOC_CTX *ctx, const char *fmt, double v)
{
	return isfinite(v) ? talloc_asprintf(ctx, fmt, v) : "-";
}

const char *compare_p_text(TALLOC_CTX *ctx, const struct compare_row *r)
{
	return r->tested && r->p < 0.0001 ? "<0.0001" : compare_num(ctx, "%.4f", r->p);
}

static const char *const labels[COMPARE_MAX_DOCS] = {
	"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
	"N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
};

const char *compare_label(size_t i)
{
	return i < COMPARE_MAX_DOCS ? labels[i] : "?";
}
