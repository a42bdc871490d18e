/*
 * compare.c - "dbench compare": two result documents side by side, with
 * the statistics that say whether a difference is noise (see compare.h).
 */
#include <errno.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/plot.h"
#include "base/numstat.h"
#include "load/ops.h"
#include "run/plan.h"

/* ---- statistics ---- */

/*
 * The continued fraction of I_x(a, b) (without its front factor
 * x^a (1-x)^b / (a B(a, b))):  1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),
 *   d(2m)   = m(b-m) x / ((a+2m-1)(a+2m)),
 * evaluated front to back by the modified Lentz method.  It converges
 * quickly for x < (a+1)/(a+b+2); the caller sees to that.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = tiny, c = tiny, d = 0;

	for (int j = 1; j <= 20000; j++) {
		double num = 1;
		int k = j - 1, m = k / 2;

		if (k % 2 == 1)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else if (k > 0)
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		f *= c * d;
		if (fabs(c * d - 1) < eps)
			break;
	}
	return f;
}

double compare_incbeta(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
			   a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	/* I_x(a, b) = 1 - I_(1-x)(b, a), where the fraction converges */
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0: the upper tail, without the cancellation that
 * 1 - cdf would suffer far out. */
static double t_upper(double t, double df)
{
	if (isinf(t))
		return 0;
	if (isinf(df) || df > 1e7)
		return 0.5 * erfc(t / sqrt(2));
	return 0.5 * compare_incbeta(df / 2, 0.5, df / (df + t * t));
}

double compare_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t >= 0 ? 1 - t_upper(t, df) : t_upper(-t, df);
}

double compare_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	double tail = p > 0.5 ? 1 - p : p;	/* wanted P(T > t), t > 0 */
	double lo = 0, hi = 1;

	while (t_upper(hi, df) > tail && hi < 1e300) {
		lo = hi;
		hi *= 2;
	}
	for (int i = 0; i < 300 && hi - lo > 1e-13 * hi; i++) {
		double mid = lo + (hi - lo) / 2;
		if (t_upper(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	double t = lo + (hi - lo) / 2;
	return p > 0.5 ? t : -t;
}

bool compare_mean_interval(const double *x, size_t n, double level, double *mean,
			   double *half)
{
	*mean = n ? numstat_mean(x, n) : NAN;
	*half = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	*half = compare_t_quantile(1 - (1 - level) / 2, n - 1) *
		sqrt(numstat_variance(x, n, *mean) / n);
	return true;
}

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
			p = compare_incbeta(df / 2, 0.5, df / (df + t * t));
		}
	}
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return p;
}

/* ---- judging one figure ---- */

void compare_samples(struct compare_row *row, const double *a, size_t na,
		     const double *b, size_t nb, double alpha, bool higher_is_better)
{
	double diff;

	*row = (struct compare_row){ .na = na, .nb = nb, .t = NAN, .df = NAN, .p = NAN,
				     .ci_low = NAN, .ci_high = NAN };
	row->mean_a = numstat_mean(a, na);
	row->mean_b = numstat_mean(b, nb);
	diff = row->mean_b - row->mean_a;
	row->change_pct = diff == 0 ? 0 : diff / row->mean_a * 100;
	row->tested = na >= 2 && nb >= 2;
	if (row->tested) {
		double se = sqrt(numstat_variance(a, na, row->mean_a) / na +
				 numstat_variance(b, nb, row->mean_b) / nb);
		row->p = compare_welch_p(a, na, b, nb, &row->t, &row->df);
		double half = compare_t_quantile(1 - alpha / 2, row->df) * se;
		row->ci_low = diff - half;
		row->ci_high = diff + half;
	}
	if (diff == 0)
		row->verdict = row->tested ? COMPARE_NO_CHANGE : COMPARE_SAME;
	else if (row->tested && !(row->p < alpha))
		row->verdict = COMPARE_NO_CHANGE;
	else
		row->verdict = (diff > 0) == higher_is_better ? COMPARE_BETTER : COMPARE_WORSE;
}

bool compare_fails(const struct compare_row *row, double pct)
{
	return row->verdict == COMPARE_WORSE && fabs(row->change_pct) > pct;
}

size_t compare_common(const struct rundoc *a, const struct rundoc *b)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ngroups; i++)
		n += rundoc_group_of(b, a->groups[i].nprocs) != NULL;
	return n;
}

/* ---- environments ---- */

/* What the two sides must share to be compared fairly, as paths from a
 * run's "environment" (targets aside) and "config" objects. */
static const char *const env_items[] = {
	"hostname", "kernel.release", "kernel.version", "cpu.model", "cpu.count",
	"memory_bytes",
};
static const char *const target_items[] = {
	"fstype", "mount_options", "queue.scheduler", "queue.read_ahead_kb",
	"queue.nr_requests", "queue.rotational", "backing_device", "backing_queue.scheduler",
	"backing_queue.read_ahead_kb", "backing_queue.nr_requests",
};
static const char *const vm_items[] = {
	"vm.dirty_ratio", "vm.dirty_background_ratio", "vm.dirty_expire_centisecs",
	"vm.dirty_writeback_centisecs", "vm.swappiness", "vm.vfs_cache_pressure",
};
static const char *const config_items[] = {
	"loadfile_sha256", "clients_per_process", "cpus", "timelimit_s", "warmup_s", "run_once",
	"sync", "sync_dir", "fsync", "xattr", "target_rate_mb_s", "backend", "verify", "ranks",
	"probe_directory", "think_time_us", "think_time_exponential", "no_resolve",
	"continue_on_error", "cpus",
};

/* A value as the reader wants to see it: strings bare, the rest as JSON. */
static char *value_text(TALLOC_CTX *mem_ctx, const json_t *v)
{
	if (!v)
		return talloc_strdup(mem_ctx, "(absent)");
	if (json_is_string(v))
		return talloc_strdup(mem_ctx, json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	char *t = talloc_strdup(mem_ctx, s ? s : "?");
	free(s);
	return t;
}

/* Whether two members are the same value: numbers by value (a document
 * rewritten by jq may hold 2000 for 2000.0), the rest as JSON. */
static bool same_value(const json_t *va, const json_t *vb)
{
	if (!va || !vb)
		return !va && !vb;
	if (json_is_number(va) && json_is_number(vb))
		return json_number_value(va) == json_number_value(vb);
	return json_equal(va, vb);
}

/* Appends "  NAME: A -> B" to *text when the members at path differ. */
static void diff_item(char **text, const char *name, const json_t *a, const json_t *b,
		      const char *path)
{
	const json_t *va = rundoc_member(a, path), *vb = rundoc_member(b, path);
	TALLOC_CTX *tmp;

	if (*text == NULL || same_value(va, vb))
		return;
	tmp = talloc_new(NULL);
	*text = talloc_asprintf_append(*text, "  %s: %s -> %s\n", name,
				       value_text(tmp, va), value_text(tmp, vb));
	talloc_free(tmp);
}

static void diff_list(char **text, const char *prefix, const json_t *a, const json_t *b,
		      const char *const *items, size_t n)
{
	for (size_t i = 0; i < n && *text; i++) {
		char *name = talloc_asprintf(NULL, "%s%s", prefix, items[i]);
		if (name)
			diff_item(text, name, a, b, items[i]);
		talloc_free(name);
	}
}

#define LEN(array) (sizeof(array) / sizeof((array)[0]))

char *compare_env_diff(TALLOC_CTX *mem_ctx, const struct rundoc *a,
		       const struct rundoc *b)
{
	const json_t *ea = json_object_get(a->first, "environment");
	const json_t *eb = json_object_get(b->first, "environment");
	const json_t *ta = json_object_get(ea, "targets"), *tb = json_object_get(eb, "targets");
	size_t na = json_array_size(ta), nb = json_array_size(tb);
	char *text = talloc_strdup(mem_ctx, "");

	diff_item(&text, "dbench_version", a->first, b->first, "dbench_version");
	diff_list(&text, "", ea, eb, env_items, LEN(env_items));
	if (na != nb && text)
		text = talloc_asprintf_append(text, "  targets: %zu -> %zu\n", na, nb);
	for (size_t i = 0; i < na && i < nb && text; i++) {
		char *prefix = talloc_asprintf(NULL, "targets[%zu].", i);
		if (prefix)
			diff_list(&text, prefix, json_array_get(ta, i), json_array_get(tb, i),
				  target_items, LEN(target_items));
		talloc_free(prefix);
	}
	diff_list(&text, "", ea, eb, vm_items, LEN(vm_items));
	diff_list(&text, "config.", json_object_get(a->first, "config"),
		  json_object_get(b->first, "config"), config_items, LEN(config_items));
	return text;
}

/* ---- the report ---- */

/* How one kind of figure is shown and judged. */
struct measure {
	const char *title;
	const char *mean_head;	/* heading over the two means, "mean" or "p99" */
	const char *num_fmt;	/* printf format of a value, for means and interval */
	const char *better, *worse;
	bool higher_is_better;
};

static const struct measure throughput_measure = {
	"Throughput, MB/sec (higher is better)", "mean", "%.3f", "faster", "slower", true,
};
static const struct measure latency_measure = {
	"p99 latency, ms (lower is better)", "p99", "%.4g", "better", "worse", false,
};

static const char *verdict_text(TALLOC_CTX *ctx, const struct measure *m,
				const struct compare_row *r)
{
	const char *word = r->verdict == COMPARE_BETTER ? m->better
			 : r->verdict == COMPARE_WORSE ? m->worse
			 : r->verdict == COMPARE_SAME ? "same" : "no significant change";

	return r->tested ? word : talloc_asprintf(ctx, "%s (1 run: no test)", word);
}

static const char *num(TALLOC_CTX *ctx, const char *fmt, double v)
{
	return isnan(v) ? "-" : talloc_asprintf(ctx, fmt, v);
}

static void print_head(FILE *out, const struct measure *m, bool with_op, double alpha)
{
	char *a = talloc_asprintf(NULL, "%s A", m->mean_head);
	char *b = talloc_asprintf(NULL, "%s B", m->mean_head);
	char *ci = talloc_asprintf(NULL, "%g%% interval of B-A", 100 * (1 - alpha));

	fprintf(out, "\n%s\n", m->title);
	fprintf(out, "%6s  ", "nprocs");
	if (with_op)
		fprintf(out, "%-22s  ", "operation");
	fprintf(out, "%8s  %10s  %10s  %8s  %7s  %6s  %7s  %-24s  %s\n", "runs A/B",
		a ? a : "A", b ? b : "B", "change", "t", "df", "p", ci ? ci : "interval",
		"verdict");
	talloc_free(a);
	talloc_free(b);
	talloc_free(ci);
}

static void print_row(FILE *out, const struct measure *m, unsigned nprocs, const char *op,
		      const struct compare_row *r)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *ci = "-";

	if (r->tested)
		ci = talloc_asprintf(tmp, talloc_asprintf(tmp, "[%s, %s]", m->num_fmt, m->num_fmt),
				     r->ci_low, r->ci_high);
	fprintf(out, "%6u  ", nprocs);
	if (op)
		fprintf(out, "%-22s  ", op);
	fprintf(out, "%8s  %10s  %10s  %8s  %7s  %6s  %7s  %-24s  %s\n",
		talloc_asprintf(tmp, "%zu/%zu", r->na, r->nb),
		num(tmp, m->num_fmt, r->mean_a), num(tmp, m->num_fmt, r->mean_b),
		num(tmp, "%+.2f%%", r->change_pct),
		num(tmp, "%.3f", r->t), num(tmp, "%.2f", r->df),
		r->tested && r->p < 0.0001 ? "<0.0001" : num(tmp, "%.4f", r->p),
		ci ? ci : "?", verdict_text(tmp, m, r));
	talloc_free(tmp);
}

/* The name the --probe listings go by in the latency rows. */
#define COMPARE_PROBE_ROW "(probe listing)"

/* The p99 of operation op in each run of g that did it (or of the probe's
 * listings, for COMPARE_PROBE_ROW); their number. */
static size_t op_p99s(const struct rundoc_group *g, const char *op, double *out)
{
	size_t n = 0;
	bool probe = strcmp(op, COMPARE_PROBE_ROW) == 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const json_t *of = probe ? json_object_get(g->runs[i], "probe")
					 : json_object_get(json_object_get(g->runs[i], "ops"), op);
		const json_t *p99 = json_object_get(of, "p99_ms");
		if (json_is_number(p99))
			out[n++] = json_number_value(p99);
	}
	return n;
}

static void print_side(FILE *out, const char *label, const struct rundoc *s)
{
	fprintf(out, "%s: %s (%s%zu run%s at nprocs", label, s->name,
		s->sweep ? "sweep, " : "", s->nruns, s->nruns == 1 ? "" : "s");
	for (size_t i = 0; i < s->ngroups; i++)
		fprintf(out, " %u", s->groups[i].nprocs);
	if (s->nignored)
		fprintf(out, "; %zu ignored: failed or without a throughput", s->nignored);
	fprintf(out, ")\n");
}

static void print_only_in(FILE *out, const struct rundoc *s, const struct rundoc *other,
			  const char *label)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (!rundoc_group_of(other, s->groups[i].nprocs))
			fprintf(out, "  nprocs %u: only in %s\n", s->groups[i].nprocs, label);
}

/* The throughput table; the number of nprocs that fail --fail-above. */
static size_t report_throughput(FILE *out, const struct rundoc *a,
				const struct rundoc *b, double alpha, double fail_above,
				char **failed)
{
	size_t nfail = 0;

	print_head(out, &throughput_measure, false, alpha);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		const struct rundoc_group *gb = rundoc_group_of(b, ga->nprocs);
		struct compare_row r;
		if (!gb)
			continue;
		compare_samples(&r, ga->mb_s, ga->nruns, gb->mb_s, gb->nruns, alpha, true);
		print_row(out, &throughput_measure, ga->nprocs, NULL, &r);
		if (fail_above >= 0 && compare_fails(&r, fail_above)) {
			nfail++;
			*failed = talloc_asprintf_append(*failed, " %u", ga->nprocs);
		}
	}
	print_only_in(out, a, b, "A");
	print_only_in(out, b, a, "B");
	return nfail;
}

/* A side's precision target at nprocs, from a sweep made with --precision:
 * the target in percent (0 when there was none) and whether it was met. */
static double precision_target(const struct rundoc *s, unsigned nprocs, bool *reached)
{
	const json_t *target = rundoc_member(s->doc, "sweep.precision_pct");
	const json_t *summary = json_object_get(s->doc, "summary");
	size_t i;
	json_t *row;

	*reached = false;
	if (!json_is_number(target))
		return 0;
	json_array_foreach(summary, i, row) {
		if (json_integer_value(json_object_get(row, "procs")) == nprocs)
			*reached = json_is_true(json_object_get(row, "precision_reached"));
	}
	return json_number_value(target);
}

/* One side's mean at one nprocs with its 95 % interval, as text. */
static const char *precision_text(TALLOC_CTX *ctx, const struct rundoc *s,
				  const struct rundoc_group *g)
{
	double mean, half;
	bool reached;
	double target = precision_target(s, g->nprocs, &reached);
	const char *text = compare_mean_interval(g->mb_s, g->nruns, 0.95, &mean, &half) &&
			   mean > 0
		? talloc_asprintf(ctx, "%.3f +-%.2f%% (%zu runs)", mean, half / mean * 100,
				  g->nruns)
		: talloc_asprintf(ctx, "%.3f, no interval (1 run)", mean);

	if (target > 0 && !reached)
		text = talloc_asprintf(ctx, "%s, target +-%g%% not reached", text, target);
	return text;
}

/* Each side's mean throughput with the 95 % interval of the mean: how
 * precisely each side was measured, whatever the test above says about
 * the difference. */
static void report_precision(FILE *out, const struct rundoc *a,
			     const struct rundoc *b)
{
	TALLOC_CTX *tmp = talloc_new(NULL);

	fprintf(out, "\nPrecision of each mean, MB/sec (95%% interval, +- %% of the mean)\n");
	fprintf(out, "%6s  %-44s  %s\n", "nprocs", "A", "B");
	for (size_t i = 0; tmp && i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		const struct rundoc_group *gb = rundoc_group_of(b, ga->nprocs);
		if (gb)
			fprintf(out, "%6u  %-44s  %s\n", ga->nprocs, precision_text(tmp, a, ga),
				precision_text(tmp, b, gb));
	}
	talloc_free(tmp);
}

static void report_latency(FILE *out, const struct rundoc *a, const struct rundoc *b,
			   double alpha)
{
	size_t rows = 0;

	print_head(out, &latency_measure, true, alpha);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		const struct rundoc_group *gb = rundoc_group_of(b, ga->nprocs);
		if (!gb)
			continue;
		double *va = talloc_array(NULL, double, ga->nruns + gb->nruns);
		for (int op = 0; va && op <= OP_COUNT; op++) {
			const char *name = op < OP_COUNT ? op_table[op].name : COMPARE_PROBE_ROW;
			double *vb = va + ga->nruns;
			size_t na = op_p99s(ga, name, va);
			size_t nb = op_p99s(gb, name, vb);
			struct compare_row r;
			if (na == 0 || nb == 0)
				continue;
			compare_samples(&r, va, na, vb, nb, alpha, false);
			print_row(out, &latency_measure, ga->nprocs, name, &r);
			rows++;
		}
		talloc_free(va);
	}
	if (rows == 0)
		fprintf(out, "  (no operation in common)\n");
}

int compare_report(FILE *out, const struct rundoc *a, const struct rundoc *b,
		   double alpha, double fail_above)
{
	char *diff = compare_env_diff(NULL, a, b);
	char *failed = talloc_strdup(NULL, "");
	size_t nfail;

	print_side(out, "A", a);
	print_side(out, "B", b);
	if (diff && *diff)
		fprintf(out, "\nEnvironments differ:\n%s", diff);
	else
		fprintf(out, "\nEnvironments: no differences\n");
	nfail = report_throughput(out, a, b, alpha, fail_above, &failed);
	report_precision(out, a, b);
	report_latency(out, a, b, alpha);
	if (fail_above >= 0 && nfail)
		fprintf(out, "\nFAILED: B is slower than A by more than %g%% at nprocs%s\n",
			fail_above, failed ? failed : "");
	else if (fail_above >= 0)
		fprintf(out, "\nOK: B is nowhere slower than A by more than %g%%\n", fail_above);
	talloc_free(diff);
	talloc_free(failed);
	return nfail ? EXIT_SLOWER : EXIT_OK;
}

/* ---- command ---- */

static char *nprocs_list(TALLOC_CTX *ctx, const struct rundoc *s)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t i = 0; i < s->ngroups && text; i++)
		text = talloc_asprintf_append(text, "%s%u", i ? " " : "", s->groups[i].nprocs);
	return text;
}

/* Loads both sides; NULL, or the error message (on ctx). */
static char *load_both(TALLOC_CTX *ctx, const char *pa, const char *pb,
		       struct rundoc **a, struct rundoc **b)
{
	char *err = NULL;

	if (!(*a = rundoc_load(ctx, pa, &err)) || !(*b = rundoc_load(ctx, pb, &err)))
		return err;
	if (compare_common(*a, *b) == 0)
		return talloc_asprintf(ctx, "'%s' and '%s' have no nprocs in common "
				       "(%s against %s)", pa, pb, nprocs_list(ctx, *a),
				       nprocs_list(ctx, *b));
	return NULL;
}

/* One side as a chart series: mean, high and low throughput and the
 * median worst-operation p99 at each nprocs. */
static struct plot_series side_series(TALLOC_CTX *mem_ctx, const struct rundoc *set,
				      const char *label)
{
	struct plot_point *pts = talloc_zero_array(mem_ctx, struct plot_point,
						   set->ngroups ? set->ngroups : 1);
	for (size_t g = 0; pts && g < set->ngroups; g++) {
		const struct rundoc_group *gr = &set->groups[g];
		double *p99 = talloc_array(pts, double, gr->nruns);
		double sum = 0, hi = gr->mb_s[0], lo = gr->mb_s[0];
		for (size_t r = 0; r < gr->nruns; r++) {
			sum += gr->mb_s[r];
			hi = gr->mb_s[r] > hi ? gr->mb_s[r] : hi;
			lo = gr->mb_s[r] < lo ? gr->mb_s[r] : lo;
			p99[r] = rundoc_worst_p99(gr->runs[r]);
		}
		size_t n = gr->nruns;
		pts[g] = (struct plot_point){ gr->nprocs, sum / n, hi, lo,
					      numstat_median(p99, n) };
	}
	return (struct plot_series){
		talloc_asprintf(mem_ctx, "%s: %s", label, set->name), pts, pts ? set->ngroups : 0
	};
}

static int compare_plot(TALLOC_CTX *mem_ctx, const char *path, const struct rundoc *a,
			const struct rundoc *b)
{
	struct plot_series s[2] = { side_series(mem_ctx, a, "A"), side_series(mem_ctx, b, "B") };
	return plot_svg(path, "dbench compare", s, 2);
}

int compare_main(int argc, const char **argv)
{
	double alpha = 0.05, fail_above = -1;
	char *plot = NULL;
	int help = 0, opt, rc = EXIT_BAD_INPUT;
	bool fail_given = false;
	struct poptOption table[] = {
		{ "fail-above", 0, POPT_ARG_DOUBLE, &fail_above, 'f',
		  "exit 3 when B is slower than A by more than PCT percent (and "
		  "significantly so, where both have 2 or more runs)", "PCT" },
		{ "alpha", 0, POPT_ARG_DOUBLE, &alpha, 0,
		  "significance level of the t-tests (default 0.05)", "P" },
		{ "plot", 0, POPT_ARG_STRING, &plot, 0,
		  "draw both sides (throughput and p99 by clients) as an SVG", "FILE.svg" },
		{ "help", '?', POPT_ARG_NONE, &help, 0, "show this help message", NULL },
		POPT_TABLEEND
	};
	TALLOC_CTX *top = talloc_new(NULL);
	const char **args = talloc_array(top, const char *, argc + 1);
	poptContext pc;
	struct rundoc *a, *b;
	const char *fa, *fb;
	char *err;

	if (!args || argc < 1) {
		talloc_free(top);
		return EXIT_BAD_INPUT;
	}
	/* popt names the program after argv[0] in its usage lines */
	args[0] = "dbench compare";
	memcpy(&args[1], &argv[1], (argc - 1) * sizeof(*args));
	args[argc] = NULL;
	pc = poptGetContext("dbench compare", argc, args, table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] A.json B.json");
	while ((opt = poptGetNextOpt(pc)) > 0)
		fail_given |= opt == 'f';
	fa = poptGetArg(pc);
	fb = poptGetArg(pc);
	if (opt < -1) {
		fprintf(stderr, "dbench: %s: %s\n",
			poptBadOption(pc, POPT_BADOPTION_NOALIAS), poptStrerror(opt));
	} else if (help) {
		poptPrintHelp(pc, stdout, 0);
		rc = EXIT_OK;
	} else if (fail_given && !(fail_above >= 0 && isfinite(fail_above))) {
		fprintf(stderr, "dbench: --fail-above must be a percentage, 0 or more\n");
	} else if (!(alpha > 0 && alpha < 1)) {
		fprintf(stderr, "dbench: --alpha must lie between 0 and 1\n");
	} else if (!fa || !fb || poptPeekArg(pc)) {
		fprintf(stderr, "dbench: compare takes two result files, A and B\n");
		poptPrintUsage(pc, stderr, 0);
	} else if ((err = load_both(top, fa, fb, &a, &b))) {
		fprintf(stderr, "dbench: %s\n", err);
	} else {
		rc = compare_report(stdout, a, b, alpha, fail_given ? fail_above : -1);
		if (fflush(stdout) == EOF) {
			fprintf(stderr, "dbench: cannot write the report: %s\n", strerror(errno));
			rc = EXIT_BAD_INPUT;
		}
		int perr = plot ? compare_plot(top, plot, a, b) : 0;
		if (perr) {
			fprintf(stderr, "dbench: cannot write the plot to '%s': %s\n", plot,
				strerror(perr));
			rc = rc ? rc : EXIT_BAD_INPUT;
		}
	}
	free(plot);
	poptFreeContext(pc);
	talloc_free(top);
	return rc;
}
