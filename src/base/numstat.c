/*
 * numstat.c - the statistics of numstat.h, on GNU GSL.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "numstat.h"

int numstat_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void numstat_sort(double *v, size_t n)
{
	if (n > 1)
		gsl_sort(v, 1, n);
}

double numstat_median_sorted(const double *v, size_t n)
{
	return n ? gsl_stats_median_from_sorted_data(v, 1, n) : NAN;
}

double numstat_median(double *v, size_t n)
{
	numstat_sort(v, n);
	return numstat_median_sorted(v, n);
}

double numstat_mean(const double *v, size_t n)
{
	return n ? gsl_stats_mean(v, 1, n) : NAN;
}

double numstat_variance(const double *v, size_t n, double mean)
{
	return n < 2 ? NAN : gsl_stats_variance_m(v, 1, n, mean);
}

double numstat_stddev(const double *v, size_t n)
{
	return sqrt(numstat_variance(v, n, numstat_mean(v, n)));
}

double numstat_mad(double *v, double *scratch, size_t n)
{
	if (n == 0)
		return NAN;
	/* gsl_stats_mad0 leaves its data alone: sorted as promised */
	double mad = gsl_stats_mad0(v, 1, n, scratch);
	numstat_sort(v, n);
	return mad;
}

/* ---- outliers ---- */

size_t numstat_outliers(const double *v, size_t n, double k, double *scratch, bool *out,
			double *median, double *mad)
{
	size_t count = 0;

	*median = *mad = NAN;
	for (size_t i = 0; i < n; i++)
		out[i] = false;
	if (n < 3)
		return 0;
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[i];
	*median = numstat_median(scratch, n);
	*mad = NUMSTAT_MAD_SCALE * numstat_mad(scratch, scratch + n, n);
	for (size_t i = 0; i < n; i++) {
		out[i] = fabs(v[i] - *median) > k * *mad;
		count += out[i];
	}
	return count;
}

/* ---- Student's t ---- */

/* GSL's default error handler aborts the program; the arguments here are
 * checked first, and what is left of an error is a NAN, not an abort. */
static void gsl_quiet(void)
{
	static bool done;

	if (!done)
		gsl_set_error_handler_off();
	done = true;
}

double numstat_t_quantile(double p, double df)
{
	gsl_quiet();
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* GSL's t of infinite df is NAN: the normal it tends to */
	return isinf(df) ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, df);
}

double numstat_t_p(double t, double df)
{
	gsl_quiet();
	if (isnan(t) || !(df > 0))
		return NAN;
	double upper = isinf(df) ? gsl_cdf_ugaussian_Q(fabs(t)) : gsl_cdf_tdist_Q(fabs(t), df);
	return fmin(1, 2 * upper);
}

double numstat_welch(const double *a, size_t na, const double *b, size_t nb, double *t_out,
		     double *df_out)
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

bool numstat_diff_interval(const double *a, size_t na, const double *b, size_t nb,
			   double level, double *diff, double *half)
{
	double df;

	*diff = numstat_mean(b, nb) - numstat_mean(a, na);
	*half = NAN;
	if (na < 2 || nb < 2 || !(level > 0 && level < 1))
		return false;
	double se = sqrt(numstat_variance(a, na, numstat_mean(a, na)) / na +
			 numstat_variance(b, nb, numstat_mean(b, nb)) / nb);
	numstat_welch(a, na, b, nb, NULL, &df);
	*half = se > 0 ? numstat_t_quantile(level, df) * se : 0;
	return true;
}

/* The half-width numstat_runs_needed() weighs for n runs a side. */
static double half_width(double va, double vb, size_t n, double level)
{
	double df = va + vb > 0 ? (n - 1.0) * (va + vb) * (va + vb) / (va * va + vb * vb)
				: 2.0 * n - 2;
	return numstat_t_quantile(level, df) * sqrt((va + vb) / n);
}

size_t numstat_runs_needed(double sa, double sb, double margin, double level, size_t max)
{
	double va = sa * sa, vb = sb * sb;
	size_t lo = 2, hi = max;

	if (!(va >= 0 && vb >= 0 && margin > 0 && level > 0 && level < 1) || max < 2 ||
	    isinf(va) || isinf(vb) || half_width(va, vb, hi, level) > margin)
		return 0;
	/* the half-width falls as n grows: the first n within the margin */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (half_width(va, vb, mid, level) <= margin)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

bool numstat_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half)
{
	*mean = n ? numstat_mean(x, n) : NAN;
	*half = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	*half = numstat_t_quantile(1 - (1 - level) / 2, n - 1) *
		sqrt(numstat_variance(x, n, *mean) / n);
	return true;
}

/* ---- rank statistics ---- */

/* The rank of each of v[0..n) among them, from 1, ties sharing their mean
 * rank, into rank; *ties gets the sum of t^3 - t over groups of t equal
 * values (for the normal approximation's correction).  False when out of
 * memory. */
static bool midranks(const double *v, size_t n, double *rank, double *ties)
{
	size_t *order = malloc(n * sizeof(*order));

	if (!order)
		return false;
	gsl_sort_index(order, v, 1, n);
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && v[order[j]] == v[order[i]])
			j++;
		double t = j - i;
		for (size_t k = i; k < j; k++)
			rank[order[k]] = (i + 1 + j) / 2.0;	/* mean of i+1 .. j */
		*ties += t * t * t - t;
		i = j;
	}
	free(order);
	return true;
}

/* C(n, k) as a double (exact while it fits in 53 bits). */
static double choose(size_t n, size_t k)
{
	double c = 1;

	if (k > n)
		return 0;
	for (size_t i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return floor(c + 0.5);
}

/* Enumerating arrangements: a statistic is "at least as extreme" as the
 * one seen when it lies as far from its mean or farther, with a little
 * room for the rounding of sums of half-ranks. */
struct tally {
	double centre, seen;	/* the statistic's mean, |seen - centre| */
	double extreme, total;	/* arrangements counted */
};

static void tally(struct tally *t, double stat)
{
	t->extreme += fabs(stat - t->centre) >= t->seen - 1e-9 * (1 + t->seen);
	t->total++;
}

/* Every choice of k of rank[from..n), the sum of the chosen so far being
 * sum, into t. */
static void splits(const double *rank, size_t from, size_t n, size_t k, double sum,
		   struct tally *t)
{
	if (k == 0) {
		tally(t, sum);
		return;
	}
	for (size_t i = from; i + k <= n; i++)
		splits(rank, i + 1, n, k - 1, sum + rank[i], t);
}

double numstat_rank_test_min_p(size_t na, size_t nb)
{
	return na && nb ? fmin(1, 2 / choose(na + nb, na)) : NAN;
}

double numstat_rank_test(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double *pool = na && nb ? malloc(2 * n * sizeof(*pool)) : NULL, ties, p = NAN;

	if (!pool)
		return NAN;
	double *rank = pool + n;
	for (size_t i = 0; i < na; i++)
		pool[i] = a[i];
	for (size_t i = 0; i < nb; i++)
		pool[na + i] = b[i];
	if (midranks(pool, n, rank, &ties)) {
		double w = 0, centre = nb * (n + 1) / 2.0;
		for (size_t i = na; i < n; i++)
			w += rank[i];
		if (choose(n, nb) <= NUMSTAT_EXACT_MAX) {
			struct tally t = { .centre = centre, .seen = fabs(w - centre) };
			splits(rank, 0, n, nb, 0, &t);
			p = t.extreme / t.total;
		} else {
			double var = na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
			double dev = fmax(0, fabs(w - centre) - 0.5);	/* continuity */
			p = var > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(dev / sqrt(var))) : 1;
		}
	}
	free(pool);
	return p;
}

/* Every order of r[from..n) (Heap's algorithm, in place), the statistic
 * being the sum of x[i] r[i] over all i, into t. */
static void orders(const double *x, double *r, size_t k, size_t n, struct tally *t)
{
	if (k <= 1) {
		double s = 0;
		for (size_t i = 0; i < n; i++)
			s += x[i] * r[i];
		tally(t, s);
		return;
	}
	for (size_t i = 0; i < k; i++) {
		orders(x, r, k - 1, n, t);
		size_t j = k % 2 ? 0 : i;
		double tmp = r[j];
		r[j] = r[k - 1];
		r[k - 1] = tmp;
	}
}

double numstat_spearman(const double *x, const double *y, size_t n, double *rho)
{
	double *work = n >= 3 ? malloc(4 * n * sizeof(*work)) : NULL, p = NAN, tx, ty;

	*rho = NAN;
	if (!work)
		return NAN;
	double *rx = work + 2 * n, *ry = work + 3 * n;
	if (midranks(x, n, rx, &tx) && midranks(y, n, ry, &ty) &&
	    gsl_stats_variance(rx, 1, n) > 0 && gsl_stats_variance(ry, 1, n) > 0) {
		*rho = gsl_stats_spearman(x, 1, y, 1, n, work);
		double fact = 1;
		for (size_t i = 2; i <= n; i++)
			fact *= i;
		if (fact <= NUMSTAT_EXACT_MAX) {
			/* rho is linear in the sum of rx ry over the pairs: count
			 * the orders of y's ranks that move it as far */
			double seen = 0, centre = n * gsl_stats_mean(rx, 1, n) * gsl_stats_mean(ry, 1, n);
			for (size_t i = 0; i < n; i++)
				seen += rx[i] * ry[i];
			struct tally t = { .centre = centre, .seen = fabs(seen - centre) };
			orders(rx, ry, n, n, &t);
			p = t.extreme / t.total;
		} else if (fabs(*rho) >= 1) {
			p = 0;
		} else {
			p = numstat_t_p(*rho * sqrt((n - 2) / (1 - *rho * *rho)), n - 2);
		}
	}
	free(work);
	return p;
}

/* ---- several treatments over blocks (racing) ---- */

double numstat_friedman(const double *x, size_t n, size_t k, double *rank_sum,
			struct numstat_friedman *f)
{
	double *rank = k ? malloc(k * sizeof(*rank)) : NULL, ties;

	*f = (struct numstat_friedman){ .n = n, .k = k, .rank_sum = rank_sum, .p = NAN,
					.stat = NAN };
	for (size_t j = 0; j < k; j++)
		rank_sum[j] = 0;
	if (!rank)
		return NAN;
	for (size_t b = 0; b < n; b++) {
		if (!midranks(x + b * k, k, rank, &ties)) {
			free(rank);
			return NAN;
		}
		for (size_t j = 0; j < k; j++) {
			rank_sum[j] += rank[j];
			f->a += rank[j] * rank[j];
		}
	}
	free(rank);
	f->c = n * k * (k + 1.0) * (k + 1.0) / 4;
	if (n < 2 || k < 2 || !(f->a - f->c > 1e-9 * f->c))
		return NAN;
	double centre = n * (k + 1.0) / 2, ss = 0;
	for (size_t j = 0; j < k; j++)
		ss += (rank_sum[j] - centre) * (rank_sum[j] - centre);
	gsl_quiet();
	f->stat = (k - 1.0) * ss / (f->a - f->c);
	f->p = gsl_cdf_chisq_Q(f->stat, k - 1.0);
	return f->p;
}

double numstat_friedman_pair_p(const struct numstat_friedman *f, size_t i, size_t j)
{
	if (isnan(f->p) || i >= f->k || j >= f->k)
		return NAN;
	double sum2 = 0, df = (f->n - 1.0) * (f->k - 1.0);
	for (size_t t = 0; t < f->k; t++)
		sum2 += f->rank_sum[t] * f->rank_sum[t];
	double var = 2 * (f->n * f->a - sum2) / df, diff = fabs(f->rank_sum[i] - f->rank_sum[j]);
	/* n A - sum R^2 is 0 when every block ranks alike; rounding may
	 * leave a trace of it */
	if (!(var > 1e-9 * f->n * f->a))
		return diff > 1e-9 ? 0 : 1;
	return numstat_t_p(diff / sqrt(var), df);
}

/* P(the largest of m normals equicorrelated at 1/2 is below z), and
 * its derivative in z into *dp. */
static double best_cover(size_t m, double z, double *dp)
{
	const int n = 240;
	const double lo = -8, h = 16.0 / n, s = sqrt(2);
	double p = 0, d = 0;

	for (int i = 0; i <= n; i++) {
		double u = lo + i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
		double f = gsl_ran_ugaussian_pdf(u), c = gsl_cdf_ugaussian_P(u + z * s);
		double cm = pow(c, (double)m - 1);
		p += w * f * cm * c;
		d += w * f * (double)m * cm * gsl_ran_ugaussian_pdf(u + z * s) * s;
	}
	*dp = d * h / 3;
	return p * h / 3;
}

double numstat_best_bound(size_t m, double alpha)
{
	if (m == 0 || !(alpha > 0 && alpha < 1))
		return NAN;
	gsl_quiet();
	double z = gsl_cdf_ugaussian_Qinv(alpha / (double)m), dp;
	for (int i = 0; i < 50; i++) {
		double step = (best_cover(m, z, &dp) - (1 - alpha)) / dp;
		if (!isfinite(step))
			break;
		z -= step;
		if (fabs(step) < 1e-10)
			break;
	}
	return z;
}

/* The order of p[0..m) ascending, a NAN last. */
static int cmp_p(const void *a, const void *b)
{
	double x = **(const double *const *)a, y = **(const double *const *)b;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

bool numstat_holm(const double *p, size_t m, double *adjusted)
{
	if (m == 0)
		return true;	/* nothing to adjust (and qsort takes no NULL) */
	const double **order = malloc(m * sizeof(*order));
	double *out = malloc(m * sizeof(*out)), run = 0;
	size_t tested = 0;

	if (!order || !out) {
		free(order);
		free(out);
		return false;
	}
	for (size_t i = 0; i < m; i++) {
		order[i] = &p[i];
		tested += !isnan(p[i]);
	}
	qsort(order, m, sizeof(*order), cmp_p);
	for (size_t r = 0; r < m; r++) {
		size_t i = (size_t)(order[r] - p);
		double v = isnan(p[i]) ? NAN : fmin(1, (tested - r) * p[i]);
		run = isnan(v) ? run : fmax(run, v);	/* never below an earlier step */
		out[i] = isnan(v) ? NAN : run;
	}
	for (size_t i = 0; i < m; i++)
		adjusted[i] = out[i];
	free(order);
	free(out);
	return true;
}

/* Every sign of r[from..n), the sum of the positive ones so far being
 * sum, into t. */
static void signs(const double *r, size_t from, size_t n, double sum, struct tally *t)
{
	if (from == n) {
		tally(t, sum);
		return;
	}
	signs(r, from + 1, n, sum + r[from], t);
	signs(r, from + 1, n, sum, t);
}

double numstat_signed_rank(const double *d, size_t n)
{
	double *abs_d = n ? malloc(2 * n * sizeof(*abs_d)) : NULL, ties, p = NAN;
	size_t m = 0;

	if (!abs_d)
		return NAN;
	double *rank = abs_d + n;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0 && !isnan(d[i]))
			abs_d[m++] = fabs(d[i]);
	if (m == 0 || !midranks(abs_d, m, rank, &ties)) {
		free(abs_d);
		return m == 0 ? 1 : NAN;
	}
	double w = 0, centre = m * (m + 1) / 4.0;	/* the positive ranks' sum */
	for (size_t i = 0, r = 0; i < n; i++) {
		if (d[i] == 0 || isnan(d[i]))
			continue;
		if (d[i] > 0)
			w += rank[r];
		r++;
	}
	if (ldexp(1, (int)fmin(m, 60)) <= NUMSTAT_EXACT_MAX) {
		struct tally t = { .centre = centre, .seen = fabs(w - centre) };
		signs(rank, 0, m, 0, &t);
		p = t.extreme / t.total;
	} else {
		double var = m * (m + 1) * (2 * m + 1) / 24.0 - ties / 48;
		double dev = fmax(0, fabs(w - centre) - 0.5);
		p = var > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(dev / sqrt(var))) : 1;
	}
	free(abs_d);
	return p;
}

bool numstat_median_interval(const double *v, size_t n, double level, double *lo, double *hi)
{
	size_t r = 0;

	*lo = *hi = NAN;
	gsl_quiet();
	/* the interval [v(r), v(n+1-r)] misses the median with chance
	 * 2 P(X <= r - 1), X binomial(n, 1/2): the largest r within 1 - level */
	while (r < n / 2 && 2 * gsl_cdf_binomial_P((unsigned)r, 0.5, (unsigned)n) <= 1 - level)
		r++;
	if (r == 0)
		return false;
	*lo = v[r - 1];
	*hi = v[n - r];
	return true;
}

/* ---- group-sequential tests ---- */

/* The chance one side spends by information fraction t (Lan-DeMets
 * O'Brien-Fleming), for a side's level a. */
static double spent(double t, double a)
{
	return t > 0 ? 2 - 2 * gsl_cdf_ugaussian_P(gsl_cdf_ugaussian_Pinv(1 - a / 2) / sqrt(t))
		     : 0;
}

/* The density of the sum so far on the continuation region of a look:
 * grid points s, Simpson's weights w times the density. */
struct gs_grid {
	double s[NUMSTAT_GS_GRID], wf[NUMSTAT_GS_GRID];
};

/* The region (lo, hi) on the grid, each point's weight times f(s). */
static void grid_set(struct gs_grid *g, double lo, double hi, const struct gs_grid *prev,
		     double sd, double t)
{
	double h = (hi - lo) / (NUMSTAT_GS_GRID - 1);

	for (size_t i = 0; i < NUMSTAT_GS_GRID; i++) {
		double s = lo + i * h, f = 0;
		if (prev)	/* the previous density moved by an increment of sd */
			for (size_t j = 0; j < NUMSTAT_GS_GRID; j++)
				f += prev->wf[j] * gsl_ran_ugaussian_pdf((s - prev->s[j]) / sd) / sd;
		else
			f = gsl_ran_ugaussian_pdf(s / sqrt(t)) / sqrt(t);
		double simpson = i == 0 || i == NUMSTAT_GS_GRID - 1 ? 1 : i % 2 ? 4 : 2;
		g->s[i] = s;
		g->wf[i] = f * simpson * h / 3;
	}
}

/* The chance of going on from g and crossing b (and -b two-sided) after
 * an increment of sd. */
static double crossing(const struct gs_grid *g, double b, double sd, bool two_sided)
{
	double p = 0;

	for (size_t i = 0; i < NUMSTAT_GS_GRID; i++)
		p += g->wf[i] * (gsl_cdf_ugaussian_Q((b - g->s[i]) / sd) +
				 (two_sided ? gsl_cdf_ugaussian_P((-b - g->s[i]) / sd) : 0));
	return p;
}

/* The bound on the sum at a look whose crossing chance is target, by
 * bisection; INFINITY when it spends nothing. */
static double solve_bound(const struct gs_grid *g, double target, double sd, double t,
			  bool two_sided)
{
	double lo = 0, hi = 40 * sqrt(t);

	if (!(target > 0))
		return INFINITY;
	for (int i = 0; i < 200 && hi - lo > 1e-10; i++) {
		double mid = (lo + hi) / 2;
		if (crossing(g, mid, sd, two_sided) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

bool numstat_gs_bounds(const double *t, size_t k, double alpha, bool two_sided, double *z)
{
	double a = two_sided ? alpha / 2 : alpha, b = 0;

	if (k == 0 || !(alpha > 0 && alpha < 1))
		return false;
	for (size_t i = 0; i < k; i++)
		if (!(t[i] > (i ? t[i - 1] : 0)) || t[i] > 1 + 1e-12)
			return false;
	struct gs_grid *g = malloc(2 * sizeof(*g));
	if (!g)
		return false;
	gsl_quiet();
	for (size_t i = 0; i < k; i++) {
		double side = spent(t[i], a) - (i ? spent(t[i - 1], a) : 0);
		double sd = sqrt(t[i] - (i ? t[i - 1] : 0)), target = two_sided ? 2 * side : side;
		struct gs_grid *now = &g[i % 2], *prev = &g[(i + 1) % 2];
		if (i == 0)
			b = gsl_cdf_ugaussian_Qinv(side) * sqrt(t[0]);
		else
			b = solve_bound(prev, target, sd, t[i], two_sided);
		z[i] = b / sqrt(t[i]);
		double hi = isinf(b) ? 10 * sqrt(t[i]) : b;
		grid_set(now, two_sided ? -hi : -10 * sqrt(t[i]), hi, i ? prev : NULL, sd, t[i]);
	}
	free(g);
	return true;
}

double numstat_gs_level(double z, bool two_sided)
{
	gsl_quiet();
	if (isinf(z))
		return 0;
	return fmin(1, (two_sided ? 2 : 1) * gsl_cdf_ugaussian_Q(z));
}
