/*
 * compare_judge.c - judging one figure of "dbench compare", A against B
 * (compare_internal.h): Welch's test, the verdict and whether it fails
 * --fail-above, how many runs a side would do, and the words the tables
 * print for them.  Knows nothing of the report's layout.
 */
#include <math.h>
#include <stdio.h>

#include "analysis/compare_internal.h"
#include "numstat.h"

/* ---- statistics ---- */

double compare_welch_p(const double *a, size_t na, const double *b, size_t nb,
		       double *t_out, double *df_out)
{
	double t = NAN, df = NAN, p = NAN;

	if (na >= 2 && nb >= 2) {
		double ma = numstat_mean(a, na), mb = numstat_mean(b, nb);
		double sa = numstat_variance(a, na, ma) / na, sb = numstat_variance(b, nb, mb) / nb;

		if (sa + sb == 0) {
			/* no spread at all: the means either agree or they do not */
			df = na + nb - 2;
			t = ma == mb ? 0 : copysign(INFINITY, mb - ma);
			p = ma == mb ? 1 : 0;
		} else {
			t = (mb - ma) / sqrt(sa + sb);
			df = (sa + sb) * (sa + sb) / (sa * sa / (na - 1) + sb * sb / (nb - 1));
			p = numstat_t_p(t, df);
		}
	}
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return p;
}

/* ---- how much evidence ---- */

/* The half-width of the (1 - alpha) interval of mean B - mean A with n
 * runs a side whose coefficient of variation is cv (both in percent of
 * the mean): t(1 - alpha/2, 2n - 2) * cv * sqrt(2 / n). */
static double diff_half_width(double cv, size_t n, double alpha)
{
	return numstat_t_quantile(1 - alpha / 2, 2.0 * n - 2) * cv * sqrt(2.0 / n);
}

size_t compare_runs_needed(double cv_pct, double resolution_pct, double alpha)
{
	size_t lo = 2, hi = COMPARE_MAX_REPEAT;

	if (!(cv_pct >= 0) || !(resolution_pct > 0))
		return 0;
	if (diff_half_width(cv_pct, hi, alpha) > resolution_pct)
		return 0;
	/* the half-width falls as n grows: the first n within the resolution */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (diff_half_width(cv_pct, mid, alpha) <= resolution_pct)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- judging one figure ---- */

void compare_samples(struct compare_row *row, const double *a, size_t na,
		     const double *b, size_t nb, double alpha, bool higher_is_better)
{
	double diff;

	*row = (struct compare_row){ .na = na, .nb = nb, .t = NAN, .df = NAN, .p = NAN,
				     .ci_low = NAN, .ci_high = NAN, .above_a = NAN, .above_b = NAN };
	row->mean_a = numstat_mean(a, na);
	row->mean_b = numstat_mean(b, nb);
	diff = row->mean_b - row->mean_a;
	row->change_pct = diff == 0 ? 0 : diff / row->mean_a * 100;
	row->tested = na >= 2 && nb >= 2;
	if (row->tested) {
		double se = sqrt(numstat_variance(a, na, row->mean_a) / na +
				 numstat_variance(b, nb, row->mean_b) / nb);
		row->p = compare_welch_p(a, na, b, nb, &row->t, &row->df);
		double half = numstat_t_quantile(1 - alpha / 2, row->df) * se;
		row->ci_low = diff - half;
		row->ci_high = diff + half;
	}
	if (!row->tested)
		row->verdict = COMPARE_UNTESTED;
	else if (diff == 0 || !(row->p < alpha))
		row->verdict = COMPARE_NO_CHANGE;
	else
		row->verdict = (diff > 0) == higher_is_better ? COMPARE_BETTER : COMPARE_WORSE;
}

bool compare_fails(const struct compare_row *row, double pct)
{
	return row->verdict == COMPARE_WORSE && fabs(row->change_pct) > pct;
}

bool compare_throughput(struct compare_row *row, const struct rundoc *base,
			const struct rundoc *doc, unsigned nprocs, double alpha)
{
	const struct rundoc_group *ga = rundoc_group_of(base, nprocs);
	const struct rundoc_group *gb = rundoc_group_of(doc, nprocs);

	if (!ga || !gb)
		return false;
	compare_samples(row, ga->mb_s, ga->nruns, gb->mb_s, gb->nruns, alpha, true);
	return true;
}

/* "untested (1 run of B)": which side had too few runs for a test. */
static const char *untested_text(TALLOC_CTX *ctx, const struct compare_row *r)
{
	if (r->na < 2 && r->nb < 2)
		return "untested (1 run a side)";
	return talloc_asprintf(ctx, "untested (1 run of %s)", r->na < 2 ? "A" : "B");
}

const char *compare_verdict_text(TALLOC_CTX *ctx, const struct compare_row *r,
				 const char *better, const char *worse)
{
	return r->verdict == COMPARE_BETTER ? better
	     : r->verdict == COMPARE_WORSE ? worse
	     : r->verdict == COMPARE_NO_CHANGE ? "no significant change" : untested_text(ctx, r);
}

const char *compare_num(TALLOC_CTX *ctx, const char *fmt, double v)
{
	return isnan(v) ? "-" : talloc_asprintf(ctx, fmt, v);
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
