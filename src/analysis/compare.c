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
#include "load/ops.h"
#include "run/plan.h"

/* ---- statistics ---- */

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / n;
}

/* Sample variance (n - 1 in the denominator). */
static double variance_of(const double *x, size_t n, double mean)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (x[i] - mean) * (x[i] - mean);
	return s / (n - 1);
}

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
	*mean = n ? mean_of(x, n) : NAN;
	*half = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	*half = compare_t_quantile(1 - (1 - level) / 2, n - 1) *
		sqrt(variance_of(x, n, *mean) / n);
	return true;
}

double compare_welch_p(const double *a, size_t na, const double *b, size_t nb,
		       double *t_out, double *df_out)
{
	double t = NAN, df = NAN, p = NAN;

	if (na >= 2 && nb >= 2) {
		double ma = mean_of(a, na), mb = mean_of(b, nb);
		double sa = variance_of(a, na, ma) / na, sb = variance_of(b, nb, mb) / nb;

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
	row->mean_a = mean_of(a, na);
	row->mean_b = mean_of(b, nb);
	diff = row->mean_b - row->mean_a;
	row->change_pct = diff == 0 ? 0 : diff / row->mean_a * 100;
	row->tested = na >= 2 && nb >= 2;
	if (row->tested) {
		double se = sqrt(variance_of(a, na, row->mean_a) / na +
				 variance_of(b, nb, row->mean_b) / nb);
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

/* ---- reading a document ---- */

/* The member at a dotted path ("queue.scheduler"), or NULL. */
static const json_t *member(const json_t *obj, const char *path)
{
	char key[64];

	while (obj && *path) {
		size_t len = strcspn(path, ".");
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		obj = json_object_get(obj, key);
		path += len + (path[len] == '.');
	}
	return obj;
}

static int set_destructor(struct compare_set *set)
{
	json_decref(set->doc);
	return 0;
}

static struct compare_group *group_for(struct compare_set *set, unsigned nprocs)
{
	size_t i = 0;

	while (i < set->ngroups && set->groups[i].nprocs < nprocs)
		i++;
	if (i < set->ngroups && set->groups[i].nprocs == nprocs)
		return &set->groups[i];
	struct compare_group *g = talloc_realloc(set, set->groups, struct compare_group,
						 set->ngroups + 1);
	if (!g)
		return NULL;
	memmove(&g[i + 1], &g[i], (set->ngroups - i) * sizeof(*g));
	g[i] = (struct compare_group){ .nprocs = nprocs };
	set->groups = g;
	set->ngroups++;
	return &g[i];
}

/* Files one run into its group, or counts it as ignored.  NULL, or what
 * is wrong with it. */
static const char *add_run(struct compare_set *set, const json_t *run)
{
	const json_t *nprocs = member(run, "config.nprocs");
	const json_t *code = member(run, "status.exit_code");
	const json_t *tp = member(run, "result.throughput_mb_s");
	struct compare_group *g;

	if (!json_is_object(run))
		return "is not an object";
	if (!json_is_integer(nprocs) || json_integer_value(nprocs) < 1 ||
	    json_integer_value(nprocs) > DBENCH_MAX_CLIENTS)
		return "has no config.nprocs";
	if (!json_is_integer(code))
		return "has no status.exit_code";
	if (!json_is_number(tp) && !json_is_null(tp))
		return "has no result.throughput_mb_s";
	set->nruns++;
	if (json_integer_value(code) != 0 || json_is_null(tp)) {
		set->nignored++;
		return NULL;
	}
	g = group_for(set, json_integer_value(nprocs));
	if (!g)
		return "is too big for memory";
	g->mb_s = talloc_realloc(set, g->mb_s, double, g->nruns + 1);
	g->runs = talloc_realloc(set, g->runs, const json_t *, g->nruns + 1);
	if (!g->mb_s || !g->runs)
		return "is too big for memory";
	g->mb_s[g->nruns] = json_number_value(tp);
	g->runs[g->nruns++] = run;
	if (!set->first)
		set->first = run;
	return NULL;
}

/* Fills set from set->doc; NULL, or what is wrong (on set). */
static char *read_runs(struct compare_set *set)
{
	const json_t *runs = json_object_get(set->doc, "runs");
	const char *why;

	if (!json_is_object(set->doc))
		return talloc_strdup(set, "not a JSON object");
	if (!runs) {
		if (!json_object_get(set->doc, "config"))
			return talloc_strdup(set, "neither \"config\" nor \"runs\" at the top");
		why = add_run(set, set->doc);
		return why ? talloc_asprintf(set, "the run %s", why) : NULL;
	}
	if (!json_is_array(runs))
		return talloc_strdup(set, "\"runs\" is not an array");
	set->sweep = true;
	for (size_t i = 0; i < json_array_size(runs); i++) {
		why = add_run(set, json_array_get(runs, i));
		if (why)
			return talloc_asprintf(set, "runs[%zu] %s", i, why);
	}
	if (set->nruns == 0)
		return talloc_strdup(set, "\"runs\" is empty");
	return NULL;
}

struct compare_set *compare_set_from_json(TALLOC_CTX *mem_ctx, const char *name,
					  json_t *doc, char **err)
{
	struct compare_set *set = talloc_zero(mem_ctx, struct compare_set);
	char *why;

	if (!set) {
		json_decref(doc);
		*err = talloc_asprintf(mem_ctx, "'%s': out of memory", name);
		return NULL;
	}
	set->doc = doc;
	talloc_set_destructor(set, set_destructor);
	set->name = talloc_strdup(set, name);
	why = read_runs(set);
	if (why)
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dbench result: %s", name, why);
	else if (set->ngroups == 0)
		*err = talloc_asprintf(mem_ctx, "'%s' has no successful run (%zu failed or "
				       "without a throughput)", name, set->nignored);
	else
		return set;
	talloc_free(set);
	return NULL;
}

struct compare_set *compare_load(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	FILE *f = fopen(path, "r");
	json_error_t jerr;
	json_t *doc;
	int read_err;

	if (!f) {
		*err = talloc_asprintf(mem_ctx, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	errno = 0;
	doc = json_loadf(f, 0, &jerr);
	read_err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (read_err) {
		json_decref(doc);
		*err = talloc_asprintf(mem_ctx, "cannot read '%s': %s", path, strerror(read_err));
		return NULL;
	}
	if (!doc) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not JSON: %s (line %d, column %d)",
				       path, jerr.text, jerr.line, jerr.column);
		return NULL;
	}
	return compare_set_from_json(mem_ctx, path, doc, err);
}

const struct compare_group *compare_group_of(const struct compare_set *set, unsigned nprocs)
{
	for (size_t i = 0; i < set->ngroups; i++)
		if (set->groups[i].nprocs == nprocs)
			return &set->groups[i];
	return NULL;
}

size_t compare_common(const struct compare_set *a, const struct compare_set *b)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ngroups; i++)
		n += compare_group_of(b, a->groups[i].nprocs) != NULL;
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
	"queue.nr_requests", "queue.rotational",
};
static const char *const vm_items[] = {
	"vm.dirty_ratio", "vm.dirty_background_ratio", "vm.dirty_expire_centisecs",
	"vm.dirty_writeback_centisecs", "vm.swappiness", "vm.vfs_cache_pressure",
};
static const char *const config_items[] = {
	"loadfile_sha256", "clients_per_process", "cpus", "timelimit_s", "warmup_s", "run_once",
	"sync", "sync_dir", "fsync", "xattr", "target_rate_mb_s", "backend", "verify", "ranks",
	"probe_directory",
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

/* Appends "  NAME: A -> B" to *text when the members at path differ. */
static void diff_item(char **text, const char *name, const json_t *a, const json_t *b,
		      const char *path)
{
	const json_t *va = member(a, path), *vb = member(b, path);
	TALLOC_CTX *tmp;

	if (*text == NULL || (!va && !vb) || (va && vb && json_equal(va, vb)))
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

char *compare_env_diff(TALLOC_CTX *mem_ctx, const struct compare_set *a,
		       const struct compare_set *b)
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
static size_t op_p99s(const struct compare_group *g, const char *op, double *out)
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

static void print_side(FILE *out, const char *label, const struct compare_set *s)
{
	fprintf(out, "%s: %s (%s%zu run%s at nprocs", label, s->name,
		s->sweep ? "sweep, " : "", s->nruns, s->nruns == 1 ? "" : "s");
	for (size_t i = 0; i < s->ngroups; i++)
		fprintf(out, " %u", s->groups[i].nprocs);
	if (s->nignored)
		fprintf(out, "; %zu ignored: failed or without a throughput", s->nignored);
	fprintf(out, ")\n");
}

static void print_only_in(FILE *out, const struct compare_set *s, const struct compare_set *other,
			  const char *label)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (!compare_group_of(other, s->groups[i].nprocs))
			fprintf(out, "  nprocs %u: only in %s\n", s->groups[i].nprocs, label);
}

/* The throughput table; the number of nprocs that fail --fail-above. */
static size_t report_throughput(FILE *out, const struct compare_set *a,
				const struct compare_set *b, double alpha, double fail_above,
				char **failed)
{
	size_t nfail = 0;

	print_head(out, &throughput_measure, false, alpha);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct compare_group *ga = &a->groups[i];
		const struct compare_group *gb = compare_group_of(b, ga->nprocs);
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
static double precision_target(const struct compare_set *s, unsigned nprocs, bool *reached)
{
	const json_t *target = member(s->doc, "sweep.precision_pct");
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
static const char *precision_text(TALLOC_CTX *ctx, const struct compare_set *s,
				  const struct compare_group *g)
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
static void report_precision(FILE *out, const struct compare_set *a,
			     const struct compare_set *b)
{
	TALLOC_CTX *tmp = talloc_new(NULL);

	fprintf(out, "\nPrecision of each mean, MB/sec (95%% interval, +- %% of the mean)\n");
	fprintf(out, "%6s  %-44s  %s\n", "nprocs", "A", "B");
	for (size_t i = 0; tmp && i < a->ngroups; i++) {
		const struct compare_group *ga = &a->groups[i];
		const struct compare_group *gb = compare_group_of(b, ga->nprocs);
		if (gb)
			fprintf(out, "%6u  %-44s  %s\n", ga->nprocs, precision_text(tmp, a, ga),
				precision_text(tmp, b, gb));
	}
	talloc_free(tmp);
}

static void report_latency(FILE *out, const struct compare_set *a, const struct compare_set *b,
			   double alpha)
{
	size_t rows = 0;

	print_head(out, &latency_measure, true, alpha);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct compare_group *ga = &a->groups[i];
		const struct compare_group *gb = compare_group_of(b, ga->nprocs);
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

int compare_report(FILE *out, const struct compare_set *a, const struct compare_set *b,
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

static char *nprocs_list(TALLOC_CTX *ctx, const struct compare_set *s)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t i = 0; i < s->ngroups && text; i++)
		text = talloc_asprintf_append(text, "%s%u", i ? " " : "", s->groups[i].nprocs);
	return text;
}

/* Loads both sides; NULL, or the error message (on ctx). */
static char *load_both(TALLOC_CTX *ctx, const char *pa, const char *pb,
		       struct compare_set **a, struct compare_set **b)
{
	char *err = NULL;

	if (!(*a = compare_load(ctx, pa, &err)) || !(*b = compare_load(ctx, pb, &err)))
		return err;
	if (compare_common(*a, *b) == 0)
		return talloc_asprintf(ctx, "'%s' and '%s' have no nprocs in common "
				       "(%s against %s)", pa, pb, nprocs_list(ctx, *a),
				       nprocs_list(ctx, *b));
	return NULL;
}

/* The worst operation type's p99 of one run. */
static double run_worst_p99(const json_t *run)
{
	const char *name;
	json_t *o;
	double worst = 0;

	json_object_foreach(json_object_get(run, "ops"), name, o) {
		double v = json_number_value(json_object_get(o, "p99_ms"));
		worst = v > worst ? v : worst;
	}
	return worst;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* One side as a chart series: mean, high and low throughput and the
 * median worst-operation p99 at each nprocs. */
static struct plot_series side_series(TALLOC_CTX *mem_ctx, const struct compare_set *set,
				      const char *label)
{
	struct plot_point *pts = talloc_zero_array(mem_ctx, struct plot_point,
						   set->ngroups ? set->ngroups : 1);
	for (size_t g = 0; pts && g < set->ngroups; g++) {
		const struct compare_group *gr = &set->groups[g];
		double *p99 = talloc_array(pts, double, gr->nruns);
		double sum = 0, hi = gr->mb_s[0], lo = gr->mb_s[0];
		for (size_t r = 0; r < gr->nruns; r++) {
			sum += gr->mb_s[r];
			hi = gr->mb_s[r] > hi ? gr->mb_s[r] : hi;
			lo = gr->mb_s[r] < lo ? gr->mb_s[r] : lo;
			p99[r] = run_worst_p99(gr->runs[r]);
		}
		qsort(p99, gr->nruns, sizeof(double), cmp_double);
		size_t n = gr->nruns;
		pts[g] = (struct plot_point){ gr->nprocs, sum / n, hi, lo,
			n % 2 ? p99[n / 2] : (p99[n / 2 - 1] + p99[n / 2]) / 2 };
	}
	return (struct plot_series){
		talloc_asprintf(mem_ctx, "%s: %s", label, set->name), pts, pts ? set->ngroups : 0
	};
}

static int compare_plot(TALLOC_CTX *mem_ctx, const char *path, const struct compare_set *a,
			const struct compare_set *b)
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
	struct compare_set *a, *b;
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
