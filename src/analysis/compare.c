/*
 * compare.c - "dbench compare": each result document against the first,
 * with the statistics that say whether a difference is noise (see
 * compare.h).
 */
#include <errno.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_parts.h"
#include "plot.h"
#include "badopt.h"
#include "numstat.h"
#include "outfile.h"
#include "progname.h"
#include "ops.h"
#include "plan.h"
#include "report.h"

size_t compare_common(const struct rundoc *a, const struct rundoc *b)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ngroups; i++)
		n += rundoc_group_of(b, a->groups[i].nprocs) != NULL;
	return n;
}

/* ---- environments ---- */

/* What the two sides must share to be compared fairly: members of a
 * run's "environment" (its targets aside) and "config", each named by
 * its path below the first of them (DK_NONE: from the run's top). */
struct item {
	enum dockey key;
	enum dockey below;	/* its name's path starts below this */
};
static const struct item env_items[] = {
	{ DK_RUN_VERSION, DK_NONE },
	{ DK_ENV_HOSTNAME, DK_ENV }, { DK_KERNEL_RELEASE, DK_ENV }, { DK_KERNEL_VERSION, DK_ENV },
	{ DK_CPU_MODEL, DK_ENV }, { DK_CPU_COUNT, DK_ENV }, { DK_ENV_MEMORY_BYTES, DK_ENV },
};
static const struct item vm_items[] = {
	{ DK_VM_DIRTY_RATIO, DK_ENV }, { DK_VM_DIRTY_BACKGROUND_RATIO, DK_ENV },
	{ DK_VM_DIRTY_EXPIRE, DK_ENV }, { DK_VM_DIRTY_WRITEBACK, DK_ENV },
	{ DK_VM_SWAPPINESS, DK_ENV }, { DK_VM_VFS_CACHE_PRESSURE, DK_ENV },
};
static const struct item config_items[] = {
	{ DK_CONFIG_LOADFILE_SHA256, DK_NONE }, { DK_CONFIG_CLIENTS_PER_PROCESS, DK_NONE },
	{ DK_CONFIG_CPUS, DK_NONE }, { DK_CONFIG_TIMELIMIT, DK_NONE },
	{ DK_CONFIG_WARMUP, DK_NONE }, { DK_CONFIG_RUN_ONCE, DK_NONE },
	{ DK_CONFIG_SYNC, DK_NONE }, { DK_CONFIG_SYNC_DIR, DK_NONE }, { DK_CONFIG_FSYNC, DK_NONE },
	{ DK_CONFIG_XATTR, DK_NONE }, { DK_CONFIG_TARGET_RATE, DK_NONE },
	{ DK_CONFIG_BACKEND, DK_NONE }, { DK_CONFIG_VERIFY, DK_NONE },
	{ DK_CONFIG_RANKS, DK_NONE }, { DK_CONFIG_PROBE_DIRECTORY, DK_NONE },
	{ DK_CONFIG_PROBE_DIRECTORIES, DK_NONE }, { DK_CONFIG_THINK_TIME, DK_NONE },
	{ DK_CONFIG_THINK_TIME_EXP, DK_NONE }, { DK_CONFIG_NO_RESOLVE, DK_NONE },
	{ DK_CONFIG_CONTINUE_ON_ERROR, DK_NONE },
};
/* a target's: a member of it, or of its queue or its backing device's */
static const struct { enum dockey key, queue; } target_items[] = {
	{ DK_TARGET_FSTYPE, DK_NONE }, { DK_TARGET_MOUNT_OPTIONS, DK_NONE },
	{ DK_TARGET_QUEUE, DK_QUEUE_SCHEDULER }, { DK_TARGET_QUEUE, DK_QUEUE_READ_AHEAD_KB },
	{ DK_TARGET_QUEUE, DK_QUEUE_NR_REQUESTS }, { DK_TARGET_QUEUE, DK_QUEUE_ROTATIONAL },
	{ DK_TARGET_BACKING_DEVICE, DK_NONE },
	{ DK_TARGET_BACKING_QUEUE, DK_QUEUE_SCHEDULER },
	{ DK_TARGET_BACKING_QUEUE, DK_QUEUE_READ_AHEAD_KB },
	{ DK_TARGET_BACKING_QUEUE, DK_QUEUE_NR_REQUESTS },
};

/* Appends "  NAME: A -> B" to *text when va and vb differ. */
static void diff_values(char **text, const char *name, const json_t *va, const json_t *vb)
{
	TALLOC_CTX *tmp;

	if (*text == NULL || name == NULL || rundoc_same_value(va, vb))
		return;
	tmp = talloc_new(NULL);
	*text = talloc_asprintf_append(*text, "  %s: %s -> %s\n", name,
				       rundoc_value_text(tmp, va), rundoc_value_text(tmp, vb));
	talloc_free(tmp);
}

/* Each of items[0..n) of runs a and b, named by its path (below its
 * `below`). */
static void diff_list(char **text, const json_t *a, const json_t *b, const struct item *items,
		      size_t n)
{
	for (size_t i = 0; i < n && *text; i++) {
		char *name = dockey_path(NULL, items[i].key);
		size_t skip = 0;
		if (name && items[i].below != DK_NONE)
			skip = strlen(dockey_name(items[i].below)) + 1;	/* "environment." */
		diff_values(text, name ? name + skip : NULL, dockey_get(a, items[i].key),
			    dockey_get(b, items[i].key));
		talloc_free(name);
	}
}

/* The targets' members of target_items, "targets[I].queue.scheduler". */
static void diff_target(char **text, size_t i, const json_t *ta, const json_t *tb)
{
	for (size_t k = 0; k < sizeof(target_items) / sizeof(target_items[0]) && *text; k++) {
		enum dockey key = target_items[k].key, q = target_items[k].queue;
		const json_t *va = dockey_get(ta, key), *vb = dockey_get(tb, key);
		char *name = q == DK_NONE
			? talloc_asprintf(NULL, "targets[%zu].%s", i, dockey_name(key))
			: talloc_asprintf(NULL, "targets[%zu].%s.%s", i, dockey_name(key),
					  dockey_name(q));
		if (q != DK_NONE) {
			va = dockey_get(va, q);
			vb = dockey_get(vb, q);
		}
		diff_values(text, name, va, vb);
		talloc_free(name);
	}
}

#define LEN(array) (sizeof(array) / sizeof((array)[0]))

char *compare_env_diff(TALLOC_CTX *mem_ctx, const struct rundoc *a,
		       const struct rundoc *b)
{
	const json_t *ta = dockey_get(a->first, DK_ENV_TARGETS);
	const json_t *tb = dockey_get(b->first, DK_ENV_TARGETS);
	size_t na = json_array_size(ta), nb = json_array_size(tb);
	char *text = talloc_strdup(mem_ctx, "");

	diff_list(&text, a->first, b->first, env_items, LEN(env_items));
	if (na != nb && text)
		text = talloc_asprintf_append(text, "  %s: %zu -> %zu\n",
					      dockey_name(DK_ENV_TARGETS), na, nb);
	for (size_t i = 0; i < na && i < nb && text; i++)
		diff_target(&text, i, json_array_get(ta, i), json_array_get(tb, i));
	diff_list(&text, a->first, b->first, vm_items, LEN(vm_items));
	diff_list(&text, a->first, b->first, config_items, LEN(config_items));
	return text;
}

/* "client.txt (sha256 beb789ca1fdd...)" of a document's config. */
static char *loadfile_text(TALLOC_CTX *ctx, const struct rundoc *d)
{
	const json_t *name = dockey_get(d->first, DK_CONFIG_LOADFILE);
	const json_t *sha = dockey_get(d->first, DK_CONFIG_LOADFILE_SHA256);

	return talloc_asprintf(ctx, "%s (sha256 %.12s...)",
			       json_is_string(name) ? json_string_value(name) : "?",
			       json_is_string(sha) ? json_string_value(sha) : "?");
}

char *compare_workload_diff(TALLOC_CTX *mem_ctx, const struct rundoc *const *docs,
			    size_t ndocs)
{
	char *text = talloc_strdup(mem_ctx, "");

	for (size_t k = 1; k < ndocs && text; k++) {
		const char *who = compare_label(k);
		const json_t *ra = docs[0]->first, *rb = docs[k]->first;
		if (!rundoc_same_value(dockey_get(ra, DK_CONFIG_LOADFILE_SHA256),
				       dockey_get(rb, DK_CONFIG_LOADFILE_SHA256)))
			text = talloc_asprintf_append(text, "  %s: loadfile %s -> %s\n", who,
						      loadfile_text(text, docs[0]),
						      loadfile_text(text, docs[k]));
		const json_t *ba = dockey_get(ra, DK_CONFIG_BACKEND);
		const json_t *bb = dockey_get(rb, DK_CONFIG_BACKEND);
		if (text && !rundoc_same_value(ba, bb))
			text = talloc_asprintf_append(text, "  %s: backend %s -> %s\n", who,
						      rundoc_value_text(text, ba),
						      rundoc_value_text(text, bb));
	}
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

static const char *verdict_text(TALLOC_CTX *ctx, const struct measure *m,
				const struct compare_row *r)
{
	return compare_verdict_text(ctx, r, m->better, m->worse);
}

static const char *interval_text(TALLOC_CTX *ctx, const struct measure *m,
				 const struct compare_row *r)
{
	if (!r->tested)
		return "-";
	return talloc_asprintf(ctx, talloc_asprintf(ctx, "[%s, %s]", m->num_fmt, m->num_fmt),
			       r->ci_low, r->ci_high);
}

/* The heading of a table of pairs, B against A.  With a side column (three
 * documents or more) each row names its document X, and the figures are
 * X against A. */
static void print_head(FILE *out, const struct measure *m, bool with_side, double alpha)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *x = with_side ? "X" : "B";

	fprintf(out, "\n%s\n", m->title);
	fprintf(out, "%6s  ", "nprocs");
	if (with_side)
		fprintf(out, "%-4s  ", "side");
	fprintf(out, "%8s  %10s  %10s  %8s  %7s  %6s  %7s  %-24s  %s\n",
		talloc_asprintf(tmp, "runs A/%s", x), talloc_asprintf(tmp, "%s A", m->mean_head),
		talloc_asprintf(tmp, "%s %s", m->mean_head, x), "change", "t", "df", "p",
		talloc_asprintf(tmp, "%g%% interval of %s-A", 100 * (1 - alpha), x), "verdict");
	talloc_free(tmp);
}

static void print_row(FILE *out, const struct measure *m, unsigned nprocs, const char *side,
		      const struct compare_row *r)
{
	TALLOC_CTX *tmp = talloc_new(NULL);

	fprintf(out, "%6u  ", nprocs);
	if (side)
		fprintf(out, "%-4s  ", side);
	fprintf(out, "%8s  %10s  %10s  %8s  %7s  %6s  %7s  %-24s  %s\n",
		talloc_asprintf(tmp, "%zu/%zu", r->na, r->nb),
		compare_num(tmp, m->num_fmt, r->mean_a), compare_num(tmp, m->num_fmt, r->mean_b),
		compare_num(tmp, "%+.2f%%", r->change_pct),
		compare_num(tmp, "%.3f", r->t), compare_num(tmp, "%.2f", r->df), compare_p_text(tmp, r),
		interval_text(tmp, m, r), verdict_text(tmp, m, r));
	talloc_free(tmp);
}

/* The highest and lowest throughput of a group's runs. */
static void group_range(const struct rundoc_group *g, double *hi, double *lo)
{
	*hi = *lo = g->mb_s[0];
	for (size_t r = 1; r < g->nruns; r++) {
		*hi = g->mb_s[r] > *hi ? g->mb_s[r] : *hi;
		*lo = g->mb_s[r] < *lo ? g->mb_s[r] : *lo;
	}
}

static void print_side(FILE *out, const char *label, const struct rundoc *s)
{
	if (s->label)
		fprintf(out, "%s: %s (%s: ", label, s->label, s->name);
	else
		fprintf(out, "%s: %s (", label, s->name);
	if (s->nfiles > 1)
		fprintf(out, "pooled from %zu files, ", s->nfiles);
	else if (s->ab)
		fprintf(out, "dbench ab, ");
	else if (s->tune)
		fprintf(out, "dbench tune, ");
	else if (s->sweep && !s->origin_file)
		fprintf(out, "sweep, ");
	fprintf(out, "%zu run%s at nprocs", s->nruns, s->nruns == 1 ? "" : "s");
	for (size_t i = 0; i < s->ngroups; i++)
		fprintf(out, " %u", s->groups[i].nprocs);
	if (s->nignored)
		fprintf(out, "; %zu ignored: failed or without a throughput", s->nignored);
	fprintf(out, ")\n");
}

/* What differs between the baseline's environment and each other's. */
static void report_environments(FILE *out, const struct rundoc *const *docs, size_t ndocs)
{
	for (size_t k = 1; k < ndocs; k++) {
		char *diff = compare_env_diff(NULL, docs[0], docs[k]);
		char *pair = ndocs == 2 ? talloc_strdup(diff, "")
					: talloc_asprintf(diff, " (A -> %s)", compare_label(k));
		if (diff && *diff)
			fprintf(out, "\nEnvironments differ%s:\n%s", pair ? pair : "", diff);
		else
			fprintf(out, "\nEnvironments: no differences%s\n", pair ? pair : "");
		talloc_free(diff);
	}
}

/* The client counts that the baseline and the others do not share. */
static void print_unshared(FILE *out, const struct rundoc *const *docs, size_t ndocs)
{
	for (size_t k = 1; k < ndocs; k++) {
		for (size_t i = 0; i < docs[0]->ngroups; i++) {
			unsigned n = docs[0]->groups[i].nprocs;
			if (rundoc_group_of(docs[k], n))
				continue;
			if (ndocs == 2)
				fprintf(out, "  nprocs %u: only in A\n", n);
			else
				fprintf(out, "  nprocs %u: in A, not in %s\n", n, compare_label(k));
		}
		for (size_t i = 0; i < docs[k]->ngroups; i++) {
			unsigned n = docs[k]->groups[i].nprocs;
			if (rundoc_group_of(docs[0], n))
				continue;
			if (ndocs == 2)
				fprintf(out, "  nprocs %u: only in B\n", n);
			else
				fprintf(out, "  nprocs %u: in %s, not in A\n", n, compare_label(k));
		}
	}
}

/* Two documents: the throughput table of B against A. */
static void report_pair_throughput(FILE *out, const struct rundoc *a, const struct rundoc *b,
				   double alpha)
{
	size_t untested = 0;

	print_head(out, &throughput_measure, false, alpha);
	for (size_t i = 0; i < a->ngroups; i++) {
		struct compare_row r;
		if (compare_throughput(&r, a, b, a->groups[i].nprocs, alpha)) {
			print_row(out, &throughput_measure, a->groups[i].nprocs, NULL, &r);
			untested += !r.tested;
		}
	}
	compare_print_untested(out, untested);
}

/* One document's row of the table by side: its mean, high and low, and
 * against the baseline (r NULL: it is the baseline). */
static void print_side_row(FILE *out, unsigned nprocs, const char *side,
			   const struct rundoc_group *g, const struct compare_row *r)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const struct measure *m = &throughput_measure;
	double hi, lo;

	group_range(g, &hi, &lo);
	fprintf(out, "%6u  %-4s  %4zu  %10.3f  %10.3f  %10.3f  %8s  %7s  %-24s  %s\n", nprocs,
		side, g->nruns, numstat_mean(g->mb_s, g->nruns), hi, lo,
		r ? compare_num(tmp, "%+.2f%%", r->change_pct) : "-", r ? compare_p_text(tmp, r) : "-",
		r ? interval_text(tmp, m, r) : "-", r ? verdict_text(tmp, m, r) : "baseline");
	talloc_free(tmp);
}

/* Three documents or more: at each client count of the baseline, every
 * document's mean, high and low, and each against the baseline. */
static void report_throughput_by_side(FILE *out, const struct rundoc *const *docs,
				      size_t ndocs, double alpha)
{
	char ci[64];
	size_t untested = 0;

	snprintf(ci, sizeof(ci), "%g%% interval of X-A", 100 * (1 - alpha));
	fprintf(out, "\n%s, each document X against A\n", throughput_measure.title);
	fprintf(out, "%6s  %-4s  %4s  %10s  %10s  %10s  %8s  %7s  %-24s  %s\n", "nprocs",
		"side", "runs", "mean", "high", "low", "change", "p", ci, "verdict");
	for (size_t i = 0; i < docs[0]->ngroups; i++) {
		unsigned n = docs[0]->groups[i].nprocs;
		print_side_row(out, n, "A", &docs[0]->groups[i], NULL);
		for (size_t k = 1; k < ndocs; k++) {
			struct compare_row r;
			if (!compare_throughput(&r, docs[0], docs[k], n, alpha))
				continue;
			print_side_row(out, n, compare_label(k), rundoc_group_of(docs[k], n), &r);
			untested += !r.tested;
		}
	}
	compare_print_untested(out, untested);
}

/* The coefficient of variation of a group's throughput in percent, NAN
 * with fewer than two runs. */
static double group_cv(const struct rundoc_group *g)
{
	double mean = numstat_mean(g->mb_s, g->nruns);

	if (g->nruns < 2 || !(mean > 0))
		return NAN;
	return numstat_stddev(g->mb_s, g->nruns) / mean * 100;
}

/* The option that makes more runs: dbench ab's --runs for its runs, else
 * --repeat. */
static const char *more_runs(const struct rundoc_group *g)
{
	return json_is_string(dockey_get(g->runs[0], DK_SERIES_SIDE)) ? "--runs" : "--repeat";
}

/* What is weak about the evidence of B (label) against A at one nprocs,
 * as "2 runs of A and 2 of B (fewer than 3 a side); CV 34.2% in B (above
 * 10%)", with the --repeat that would do; NULL when nothing is. */
static char *weak_text(TALLOC_CTX *ctx, const struct rundoc_group *ga,
		       const struct rundoc_group *gb, const char *label,
		       const struct compare_options *opt)
{
	double cva = group_cv(ga), cvb = group_cv(gb);
	bool few = ga->nruns < COMPARE_MIN_RUNS || gb->nruns < COMPARE_MIN_RUNS;
	bool noisy_a = cva > COMPARE_WEAK_CV, noisy_b = cvb > COMPARE_WEAK_CV;
	double resolution = opt->fail_above > 0 ? opt->fail_above : COMPARE_RESOLUTION;
	double cv = isnan(cva) ? cvb : isnan(cvb) ? cva : fmax(cva, cvb);
	double mean_a = numstat_mean(ga->mb_s, ga->nruns);
	double seen = mean_a > 0 ? fabs(numstat_mean(gb->mb_s, gb->nruns) / mean_a - 1) * 100
				 : NAN;
	char *text = talloc_strdup(ctx, "");

	if (!few && !noisy_a && !noisy_b)
		return NULL;
	if (few)
		text = talloc_asprintf_append(text, "%zu run%s of A and %zu of %s (fewer than %d"
					      " a side); ", ga->nruns, ga->nruns == 1 ? "" : "s",
					      gb->nruns, label, COMPARE_MIN_RUNS);
	if (noisy_a && noisy_b)
		text = talloc_asprintf_append(text, "CV %.1f%% in A and %.1f%% in %s (above %g%%); ",
					      cva, cvb, label, COMPARE_WEAK_CV);
	else if (noisy_a || noisy_b)
		text = talloc_asprintf_append(text, "CV %.1f%% in %s (above %g%%); ",
					      noisy_a ? cva : cvb, noisy_a ? "A" : label,
					      COMPARE_WEAK_CV);
	if (isnan(cv))
		return talloc_asprintf_append(text, "%s: %s=%d at least",
					      ga->nruns < 2 && gb->nruns < 2
					      ? "a single run shows no spread"
					      : "no CV to go by (one run, or a mean of 0, a side)",
					      more_runs(ga), COMPARE_MIN_RUNS);
	double level = 1 - opt->alpha / 2;
	size_t need = numstat_runs_needed(cv, cv, resolution, level, COMPARE_SENSIBLE_RUNS);
	size_t need_seen = seen > resolution ? numstat_runs_needed(cv, cv, seen, level,
								   COMPARE_SENSIBLE_RUNS) : 0;
	need = need && need < COMPARE_MIN_RUNS ? COMPARE_MIN_RUNS : need;
	need_seen = need_seen && need_seen < COMPARE_MIN_RUNS ? COMPARE_MIN_RUNS : need_seen;
	text = talloc_asprintf_append(text, "at CV %.1f%%", cv);
	if (need)
		text = talloc_asprintf_append(text, ", %s=%zu for a %g%% interval of %s-A within"
					      " +-%g%% of A's mean", more_runs(ga), need,
					      100 * (1 - opt->alpha), label, resolution);
	/* fewer runs tell a larger change; worth saying where they are fewer */
	if (need_seen && need_seen < need)
		text = talloc_asprintf_append(text, ", %s=%zu for one within the %.1f%% seen",
					      more_runs(ga), need_seen, seen);
	else if (need_seen && !need)
		text = talloc_asprintf_append(text, ", %s=%zu for a %g%% interval of %s-A within"
					      " the %.1f%% seen", more_runs(ga), need_seen,
					      100 * (1 - opt->alpha), label, seen);
	if (!need)
		text = talloc_asprintf_append(text, "%s more than %d runs a side would be needed"
					      " for one within +-%g%% of A's mean: %s",
					      need_seen ? ";" : ",", COMPARE_SENSIBLE_RUNS,
					      resolution, compare_steadier);
	return text;
}

/* Each run of g more than COMPARE_OUTLIER_MADS from the median of its
 * group, a line each. */
static size_t print_outliers(FILE *out, const struct rundoc *doc, const char *label,
			     const struct rundoc_group *g)
{
	double *scratch = talloc_array(NULL, double, 2 * g->nruns), median, mad;
	bool *flag = talloc_array(scratch, bool, g->nruns);
	size_t n = 0;

	if (g->nruns >= COMPARE_OUTLIER_MIN_RUNS && flag &&
	    numstat_outliers(g->mb_s, g->nruns, COMPARE_OUTLIER_MADS, scratch, flag, &median,
			     &mad)) {
		for (size_t r = 0; r < g->nruns; r++) {
			if (!flag[r])
				continue;
			const char *file;
			size_t at;
			rundoc_origin(doc, g->index[r], &file, &at);
			if (at == RUNDOC_WHOLE_FILE)
				fprintf(out, "Warning: outlier at nprocs %u: %s (%s), %.3f MB/sec, ",
					g->nprocs, file, label, g->mb_s[r]);
			else
				fprintf(out, "Warning: outlier at nprocs %u: runs[%zu] of %s (%s), %.3f"
					" MB/sec, ", g->nprocs, at, file, label, g->mb_s[r]);
			if (mad > 0)
				fprintf(out, "%.1f MADs from the median %.3f of its %zu runs\n",
					fabs(g->mb_s[r] - median) / mad, median, g->nruns);
			else
				fprintf(out, "off the median %.3f that most of its %zu runs share\n",
					median, g->nruns);
			n++;
		}
	}
	talloc_free(scratch);
	return n;
}

/* Two sides that replayed different shares of the loadfile in their
 * measured windows, one of them less than a pass, measured different
 * parts of the workload: a line at each shared count where they did
 * (a share a quarter larger than the other, or some against none); how
 * many. */
static size_t print_replayed(FILE *out, const struct rundoc *a, const struct rundoc *b,
			     const char *label)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		const struct rundoc_group *gb = rundoc_group_of(b, ga->nprocs);
		double sa = gb ? rundoc_replayed_median(ga->runs, ga->nruns) : NAN;
		double sb = gb ? rundoc_replayed_median(gb->runs, gb->nruns) : NAN;
		double lo = sa < sb ? sa : sb, hi = sa < sb ? sb : sa;
		char pa[16], pb[16];
		if (isnan(sa) || isnan(sb) || lo >= 1 || hi <= lo * COMPARE_SHARE_RATIO)
			continue;
		fprintf(out, "Warning: different shares of the loadfile at nprocs %u (%s against A):"
			" the median client replayed %s of it in A's measured window and %s in %s's;"
			" the two measured different parts of the workload\n", ga->nprocs, label,
			report_share_pct(pa, sa), report_share_pct(pb, sb), label);
		n++;
	}
	return n;
}

/* Where the evidence is weak, and the runs far from their group: a
 * "Warning:" line each; their number. */
/* Three documents or more, each a single run at every count: most likely
 * the runs of two set-ups, each file judged alone against the first where
 * the user meant two pooled sides. */
static void print_pool_hint(FILE *out, const struct rundoc *const *docs, size_t ndocs)
{
	if (ndocs < 3)
		return;
	for (size_t k = 0; k < ndocs; k++)
		for (size_t i = 0; i < docs[k]->ngroups; i++)
			if (docs[k]->groups[i].nruns > 1)
				return;
	fprintf(out, "Note: each file is a side of its own, judged alone against A; to pool"
		" the runs of two set-ups into two sides, put -- between them: dbench compare"
		" A1.json A2.json -- B1.json B2.json\n");
}

static size_t report_warnings(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			      const struct compare_options *opt)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	size_t n = 0, weak = 0;

	fputc('\n', out);
	for (size_t k = 1; k < ndocs; k++)
		n += print_replayed(out, docs[0], docs[k], compare_label(k));
	for (size_t k = 1; k < ndocs; k++) {
		for (size_t i = 0; i < docs[0]->ngroups; i++) {
			const struct rundoc_group *ga = &docs[0]->groups[i];
			const struct rundoc_group *gb = rundoc_group_of(docs[k], ga->nprocs);
			char *why = gb ? weak_text(tmp, ga, gb, compare_label(k), opt) : NULL;
			if (why)
				fprintf(out, "Warning: weak evidence at nprocs %u (%s against A): %s\n",
					ga->nprocs, compare_label(k), why);
			weak += why != NULL;
		}
	}
	print_pool_hint(out, docs, ndocs);
	bool judged = true;
	for (size_t k = 0; k < ndocs; k++)
		for (size_t i = 0; i < docs[k]->ngroups; i++) {
			n += print_outliers(out, docs[k], compare_label(k), &docs[k]->groups[i]);
			judged = judged && docs[k]->groups[i].nruns >= COMPARE_OUTLIER_MIN_RUNS;
		}
	if (!judged)
		fprintf(out, "Outliers: not looked for where a side has fewer than %d runs (the"
			" median distance of 3 runs is the gap between the two closest)\n",
			COMPARE_OUTLIER_MIN_RUNS);
	if (weak)
		fprintf(out, "  (%s=N: the smallest N, %d at least, with t(%g, 2N-2) * CV *"
			" sqrt(2/N), the half-width of the interval of X-A with N runs a side at the"
			" larger CV of the two, within the width named)\n",
			more_runs(&docs[0]->groups[0]), COMPARE_MIN_RUNS, 1 - opt->alpha / 2);
	else if (n == 0)
		fprintf(out, "Evidence: %d or more runs a side, CV at most %g%%%s\n",
			COMPARE_MIN_RUNS, COMPARE_WEAK_CV, judged ? ", no outlier" : "");
	talloc_free(tmp);
	return n + weak;
}

/* The kinds of throughput verdict, in the order the verdict line lists
 * them.  A doubt (compare_trust()) overrides a significant verdict, and
 * is listed once for each side it names: its text takes that side's
 * label. */
static const struct {
	enum compare_verdict verdict;	/* unless a doubt */
	bool tested;
	enum compare_doubt doubt;
	const char *text;
} verdict_kinds[] = {
	{ COMPARE_WORSE, true, COMPARE_SOUND, "slower" },
	{ COMPARE_BETTER, true, COMPARE_SOUND, "faster" },
	{ COMPARE_WORSE, true, COMPARE_DOUBT_HOST,
	  "inconclusive: the machine was busier during %s's runs" },
	{ COMPARE_WORSE, true, COMPARE_DOUBT_DRIFT,
	  "inconclusive: %s's throughput drifted over its runs, made in one block" },
	{ COMPARE_NO_CHANGE, true, COMPARE_SOUND, "no significant change" },
	{ COMPARE_UNTESTED, false, COMPARE_SOUND, "untested (a side of 1 run)" },
};

/* Whether row r is of kind v, naming side (for a doubt). */
static bool of_kind(const struct compare_row *r, size_t v, int side)
{
	if (verdict_kinds[v].doubt != COMPARE_SOUND)
		return r->doubt == verdict_kinds[v].doubt && r->doubt_side == side;
	return r->doubt == COMPARE_SOUND && r->verdict == verdict_kinds[v].verdict &&
	       r->tested == verdict_kinds[v].tested;
}

/* "; A's runs all came before B's, on one host: ..." where at some count
 * each side's runs came in one block; "" where none did. */
static const char *blocks_text(TALLOC_CTX *ctx, const struct rundoc *const *docs, size_t k,
			       double alpha)
{
	for (size_t i = 0; i < docs[0]->ngroups; i++) {
		struct compare_row r;
		if (!compare_throughput(&r, docs[0], docs[k], docs[0]->groups[i].nprocs, alpha) ||
		    r.blocks_first < 0)
			continue;
		const char *x = compare_label(k), *first = r.blocks_first ? x : "A";
		return talloc_asprintf(ctx, "; %s's runs all came before %s's, on one host: a change"
				       " of the machine between the two would look the same (dbench ab"
				       " alternates the sides)", first, r.blocks_first ? "A" : x);
	}
	return "";
}

/* Document k against the baseline in a few words: "B against A: slower
 * at nprocs 1 2, no significant change at 4". */
static char *doc_verdict(TALLOC_CTX *ctx, const struct rundoc *const *docs, size_t k,
			 double alpha)
{
	char *text = talloc_asprintf(ctx, "%s against A:", compare_label(k));
	bool first = true;

	for (size_t v = 0; text && v < sizeof(verdict_kinds) / sizeof(verdict_kinds[0]); v++) {
		for (int side = 0; side < (verdict_kinds[v].doubt ? 2 : 1); side++) {
			char *counts = talloc_strdup(text, "");
			for (size_t i = 0; counts && i < docs[0]->ngroups; i++) {
				struct compare_row r;
				unsigned n = docs[0]->groups[i].nprocs;
				if (compare_throughput(&r, docs[0], docs[k], n, alpha) &&
				    of_kind(&r, v, verdict_kinds[v].doubt ? side : -1))
					counts = talloc_asprintf_append(counts, " %u", n);
			}
			if (!counts || !*counts)
				continue;
			char *kind = talloc_asprintf(counts, verdict_kinds[v].text,
						     side ? compare_label(k) : "A");
			text = talloc_asprintf_append(text, "%s %s at%s%s", first ? "" : ",", kind,
						      first ? " nprocs" : "", counts);
			first = false;
		}
	}
	return text ? talloc_asprintf_append(text, "%s", blocks_text(text, docs, k, alpha)) : NULL;
}

/* The one line that sums the throughput up, for every document. */
static void report_verdict(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			   double alpha, size_t nwarnings)
{
	TALLOC_CTX *tmp = talloc_new(NULL);

	fprintf(out, "\nVerdict:");
	for (size_t k = 1; k < ndocs; k++) {
		char *v = doc_verdict(tmp, docs, k, alpha);
		fprintf(out, "%s %s", k > 1 ? ";" : "", v ? v : "?");
	}
	if (nwarnings)
		fprintf(out, "; %zu warning%s above", nwarnings, nwarnings == 1 ? "" : "s");
	fputc('\n', out);
	talloc_free(tmp);
}

/* A side's precision target at nprocs, from a sweep made with --precision:
 * the target in percent (0 when there was none) and whether it was met. */
static double precision_target(const struct rundoc *s, unsigned nprocs, bool *reached)
{
	const json_t *target = dockey_get(s->doc, DK_SWEEP_PRECISION);
	const json_t *summary = dockey_get(s->doc, DK_SWEEP_SUMMARY);
	size_t i;
	json_t *row;

	*reached = false;
	if (!json_is_number(target))
		return 0;
	json_array_foreach(summary, i, row) {
		if (json_integer_value(dockey_get(row, DK_SUMMARY_PROCS)) == nprocs)
			*reached = json_is_true(dockey_get(row, DK_SUMMARY_PRECISION_REACHED));
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
	bool interval = numstat_mean_interval(g->mb_s, g->nruns, 0.95, &mean, &half);
	const char *text = !interval ? talloc_asprintf(ctx, "%.3f, no interval (1 run)", mean)
		: mean > 0 ? talloc_asprintf(ctx, "%.3f +-%.2f%% (%zu runs)", mean,
					     half / mean * 100, g->nruns)
		: talloc_asprintf(ctx, "%.3f, no interval in %% of a mean of 0 (%zu runs)", mean,
				  g->nruns);

	if (target > 0 && !reached)
		text = talloc_asprintf(ctx, "%s, target +-%g%% not reached", text, target);
	return text;
}

/* Each side's mean throughput with the 95 % interval of the mean: how
 * precisely each side was measured, whatever the test above says about
 * the difference.  Two documents side by side, more one row each. */
static void report_precision(FILE *out, const struct rundoc *const *docs, size_t ndocs)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const struct rundoc *a = docs[0];

	fprintf(out, "\nPrecision of each mean, MB/sec (95%% interval, +- %% of the mean)\n");
	if (ndocs == 2)
		fprintf(out, "%6s  %-44s  %s\n", "nprocs", "A", "B");
	else
		fprintf(out, "%6s  %-4s  %s\n", "nprocs", "side", "mean");
	for (size_t i = 0; tmp && i < a->ngroups; i++) {
		const struct rundoc_group *ga = &a->groups[i];
		const struct rundoc_group *gb = rundoc_group_of(docs[1], ga->nprocs);
		if (ndocs == 2) {
			if (gb)
				fprintf(out, "%6u  %-44s  %s\n", ga->nprocs,
					precision_text(tmp, a, ga), precision_text(tmp, docs[1], gb));
			continue;
		}
		for (size_t k = 0; k < ndocs; k++) {
			const struct rundoc_group *g = rundoc_group_of(docs[k], ga->nprocs);
			if (g)
				fprintf(out, "%6u  %-4s  %s\n", ga->nprocs, compare_label(k),
					precision_text(tmp, docs[k], g));
		}
	}
	talloc_free(tmp);
}

/* What each document's disks did at each count of A, the mean over its
 * runs there: a change of request size or of merging between A and B is
 * often what explains a change of throughput.  Nothing where no run
 * recorded a device. */
static void report_disks(FILE *out, const struct rundoc *const *docs, size_t ndocs)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	bool head = false;

	for (size_t i = 0; tmp && i < docs[0]->ngroups; i++) {
		unsigned n = docs[0]->groups[i].nprocs;
		for (size_t k = 0; k < ndocs; k++) {
			const struct rundoc_group *g = rundoc_group_of(docs[k], n);
			size_t nd = 0;
			struct rundoc_disk *d = g ? rundoc_disks(tmp, g->runs, g->nruns, &nd) : NULL;
			if (nd && !head) {
				fprintf(out, "\nDisks, the mean over each side's runs (%s)\n%6s  %-4s  ",
					rundoc_disk_legend, "nprocs", "side");
				rundoc_print_disk_head(out);
				fputc('\n', out);
				head = true;
			}
			for (size_t j = 0; j < nd; j++) {
				fprintf(out, "%6u  %-4s  ", n, compare_label(k));
				rundoc_print_disk(out, &d[j]);
				fputc('\n', out);
			}
		}
	}
	talloc_free(tmp);
}

/* ---- the machine ---- */

/* One side's row of the machine table. */
static void machine_row(FILE *out, unsigned nprocs, const char *side,
			const struct compare_trust *t, int s)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *load = t->load_lo[s] <= t->load_hi[s]
		? talloc_asprintf(tmp, "%.1f-%.1f", t->load_lo[s], t->load_hi[s]) : "-";

	fprintf(out, "%6u  %-4s  %4zu  %8s  %7s  %6s  %11s  %9s  %7s\n", nprocs, side, t->n[s],
		compare_num(tmp, "%.1f%%", t->wait[s]), compare_num(tmp, "%.1f%%", t->other[s]),
		compare_num(tmp, "%.1f%%", t->steal[s]), load,
		compare_num(tmp, "%+.2f", t->drift_rho[s]), compare_num(tmp, "%.4f", t->drift_p[s]));
	talloc_free(tmp);
}

/* What the machine did while document k's runs and A's were made at one
 * count, where that says something: the notes under the table. */
static void machine_notes(FILE *out, unsigned nprocs, const char *x,
			  const struct compare_trust *t, double alpha)
{
	const char *side[2] = { "A", x };

	if (t->host && !isnan(t->wait_p))
		fprintf(out, "  nprocs %u: the clients waited for a CPU %.1f%% of their time in A's"
			" runs, %.1f%% in %s's (p %.4f); the throughput corrected for it (over 1 -"
			" wait), %s against A: p %.4f\n", nprocs, t->wait[0], t->wait[1], x,
			t->wait_p, x, t->adjusted_p);
	for (int s = 0; s < 2; s++)
		if (t->drift_p[s] < alpha)
			fprintf(out, "  nprocs %u: %s's throughput drifted over its runs (rho %+.2f,"
				" p %.4f)%s\n", nprocs, side[s], t->drift_rho[s], t->drift_p[s],
				t->blocks ? "" : "; the sides alternated, so a drift of the machine"
				" weighs on both alike");
	if (t->blocks)
		fprintf(out, "  nprocs %u: %s's runs all came before %s's, on one host\n", nprocs,
			side[t->first], side[!t->first]);
}

/* How busy the machine was during each side's runs, whether a side
 * drifted, and in what order the sides ran: what compare_trust() judges
 * by.  Nothing where no run recorded its host load. */
static void report_machine(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			   double alpha)
{
	bool head = false;

	for (size_t i = 0; i < docs[0]->ngroups; i++) {
		const struct rundoc_group *ga = &docs[0]->groups[i];
		for (size_t k = 1; k < ndocs; k++) {
			const struct rundoc_group *gb = rundoc_group_of(docs[k], ga->nprocs);
			struct compare_row r;
			struct compare_trust t;
			if (!gb || !compare_throughput(&r, docs[0], docs[k], ga->nprocs, alpha))
				continue;
			compare_trust(&t, ga, gb, &r, alpha);
			if (!t.host && !t.blocks && isnan(t.drift_p[0]) && isnan(t.drift_p[1]))
				continue;
			if (!head)
				fprintf(out, "\nMachine, the mean over each side's runs (wait: the clients'"
					" time waiting for a CPU; other: other work's CPU time, of all"
					" CPUs; drift: Spearman's rho of throughput over the runs'"
					" order)\n%6s  %-4s  %4s  %8s  %7s  %6s  %11s  %9s  %7s\n",
					"nprocs", "side", "runs", "wait", "other", "steal", "load avg",
					"drift rho", "p");
			head = true;
			if (k == 1)
				machine_row(out, ga->nprocs, "A", &t, 0);
			machine_row(out, ga->nprocs, compare_label(k), &t, 1);
			machine_notes(out, ga->nprocs, compare_label(k), &t, alpha);
		}
	}
}

/* The client counts, as " 1 2 4", at which doc's gate at --fail-above
 * against the baseline is `gate`; "" where it is nowhere. */
static char *gate_counts(TALLOC_CTX *ctx, const struct rundoc *base, const struct rundoc *doc,
			 const struct compare_options *opt, enum compare_gate gate)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t i = 0; text && i < base->ngroups; i++) {
		struct compare_row r;
		unsigned n = base->groups[i].nprocs;
		if (compare_throughput(&r, base, doc, n, opt->alpha) &&
		    compare_gate(&r, opt->fail_above) == gate)
			text = talloc_asprintf_append(text, " %u", n);
	}
	return text;
}

/* " (need about 12 runs a side at this spread, CV 8.1%)", or what stands
 * in the way of a number, for an unsure row r against A's group ga. */
static char *runs_text(TALLOC_CTX *ctx, const struct compare_row *r,
		       const struct rundoc_group *ga, const struct compare_options *opt)
{
	size_t need = compare_gate_runs(r, opt->fail_above, opt->alpha);
	double cv = fmax(r->sd_a / r->mean_a, r->sd_b / r->mean_b) * 100;
	struct compare_row even = *r;	/* the same spread, no slowdown */

	if (!r->tested)
		return talloc_asprintf(ctx, " (a side has a single run, no spread to judge by:"
				       " %s=%d at least)", more_runs(ga), COMPARE_MIN_RUNS);
	if (need)
		return talloc_asprintf(ctx, " (need about %zu runs a side at this spread, CV"
				       " %.1f%%)", need, cv);
	even.change_pct = 0;
	if (compare_gate_runs(&even, opt->fail_above, opt->alpha))
		return talloc_asprintf(ctx, "; the slowdown seen, %.1f%%, is too close to %g%% to"
				       " tell either way with %d runs a side at this spread (CV"
				       " %.1f%%)", -r->change_pct, opt->fail_above,
				       COMPARE_SENSIBLE_RUNS, cv);
	return talloc_asprintf(ctx, "; more than %d runs a side would be needed at this spread"
			       " (CV %.1f%%): %s", COMPARE_SENSIBLE_RUNS, cv, compare_steadier);
}

/* The line of each count where doc k's runs can neither rule out a
 * slowdown beyond --fail-above nor show one; how many. */
static size_t print_unsure(FILE *out, const struct rundoc *const *docs, size_t k,
			   const struct compare_options *opt)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	size_t n = 0;

	for (size_t i = 0; i < docs[0]->ngroups; i++) {
		const struct rundoc_group *ga = &docs[0]->groups[i];
		struct compare_row r;
		if (!compare_throughput(&r, docs[0], docs[k], ga->nprocs, opt->alpha) ||
		    compare_gate(&r, opt->fail_above) != COMPARE_GATE_UNSURE)
			continue;
		if (r.tested)
			fprintf(out, "Inconclusive: the runs cannot rule out a slowdown of %s of up"
				" to %.1f%% at nprocs %u%s\n", compare_label(k),
				fmin(-r.bound_low, 100), ga->nprocs, runs_text(tmp, &r, ga, opt));
		else
			fprintf(out, "Inconclusive: the runs cannot rule out a slowdown of %s at"
				" nprocs %u%s\n", compare_label(k), ga->nprocs,
				runs_text(tmp, &r, ga, opt));
		n++;
	}
	talloc_free(tmp);
	return n;
}

/* The largest upper bound of a slowdown (percent) over every document
 * and count, for the OK line. */
static double worst_bound(const struct rundoc *const *docs, size_t ndocs,
			  const struct compare_options *opt)
{
	double worst = -INFINITY;

	for (size_t k = 1; k < ndocs; k++)
		for (size_t i = 0; i < docs[0]->ngroups; i++) {
			struct compare_row r;
			if (compare_throughput(&r, docs[0], docs[k], docs[0]->groups[i].nprocs,
					       opt->alpha))
				worst = fmax(worst, -r.bound_low);
		}
	return worst;
}

/* "B", "B and C", "B, C and D": the labels of documents 1 .. ndocs-1. */
static char *others_text(TALLOC_CTX *ctx, size_t ndocs)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t k = 1; text && k < ndocs; k++)
		text = talloc_asprintf_append(text, "%s%s",
					      k == 1 ? "" : k + 1 == ndocs ? " and " : ", ",
					      compare_label(k));
	return text;
}

/*
 * --fail-above, a test of non-inferiority (compare_gate()): a line for
 * each document significantly slower than the baseline by more than the
 * limit somewhere, one for each that would be but that the machine could
 * explain, one for each count where the runs can tell neither, or one
 * line saying that none is slower, on evidence.  Returns EXIT_SLOWER,
 * EXIT_INCONCLUSIVE (where only the latter kinds are) or EXIT_OK.
 */
static int report_gate(FILE *out, const struct rundoc *const *docs, size_t ndocs,
		       const struct compare_options *opt)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	size_t nfail = 0, nunsure = 0;

	if (opt->fail_above < 0) {
		talloc_free(tmp);
		return EXIT_OK;
	}
	fputc('\n', out);
	for (size_t k = 1; k < ndocs; k++) {
		char *failed = gate_counts(tmp, docs[0], docs[k], opt, COMPARE_GATE_REGRESSION);
		char *load = gate_counts(tmp, docs[0], docs[k], opt, COMPARE_GATE_LOAD);
		if (failed && *failed)
			fprintf(out, "Regression: %s is slower than A by more than %g%% at nprocs%s\n",
				compare_label(k), opt->fail_above, failed);
		if (load && *load)
			fprintf(out, "Inconclusive: %s is slower than A by more than %g%% at nprocs%s,"
				" but the machine's load or drift could explain it (see the verdict);"
				" dbench ab alternates the sides\n", compare_label(k), opt->fail_above,
				load);
		nfail += failed && *failed;
		nunsure += (load && *load) + print_unsure(out, docs, k, opt);
	}
	double worst = worst_bound(docs, ndocs, opt);
	if (nfail == 0 && nunsure == 0)
		fprintf(out, "OK: %s %s nowhere slower than A by more than %g%% (%s%s, by the"
			" one-sided %g%% bound)\n", others_text(tmp, ndocs), ndocs == 2 ? "is" : "are",
			opt->fail_above, worst > 0 ? "at most " : "faster everywhere",
			worst > 0 ? talloc_asprintf(tmp, "%.1f%% slower", worst) : "",
			100 * (1 - opt->alpha));
	talloc_free(tmp);
	return nfail ? EXIT_SLOWER : nunsure ? EXIT_INCONCLUSIVE : EXIT_OK;
}

int compare_report(FILE *out, const struct rundoc *const *docs, size_t ndocs,
		   const struct compare_options *opt)
{
	for (size_t k = 0; k < ndocs; k++)
		print_side(out, compare_label(k), docs[k]);
	report_environments(out, docs, ndocs);
	if (ndocs == 2)
		report_pair_throughput(out, docs[0], docs[1], opt->alpha);
	else
		report_throughput_by_side(out, docs, ndocs, opt->alpha);
	print_unshared(out, docs, ndocs);
	size_t nwarnings = report_warnings(out, docs, ndocs, opt);
	report_precision(out, docs, ndocs);
	report_disks(out, docs, ndocs);
	compare_report_writeback(out, docs, ndocs, opt->alpha);
	compare_report_latency(out, docs, ndocs, opt->alpha, opt->all);
	report_machine(out, docs, ndocs, opt->alpha);
	if (opt->different_workloads) {	/* the figures side by side, no judgement */
		char *diff = compare_workload_diff(NULL, docs, ndocs);
		fprintf(out, "\nVerdict: none: the documents ran different workloads, whose figures"
			" differ by design and are no change of the set-up%s:\n%s",
			opt->fail_above >= 0 ? " (--fail-above does not apply)" : "",
			diff ? diff : "");
		talloc_free(diff);
		return EXIT_OK;
	}
	report_verdict(out, docs, ndocs, opt->alpha, nwarnings);
	return report_gate(out, docs, ndocs, opt);
}

/* ---- command ---- */

static char *nprocs_list(TALLOC_CTX *ctx, const struct rundoc *s)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t i = 0; i < s->ngroups && text; i++)
		text = talloc_asprintf_append(text, "%s%u", i ? " " : "", s->groups[i].nprocs);
	return text;
}

/* A side pooled from files paths[0..n): the file, or "FIRST and N more". */
static const char *side_name(TALLOC_CTX *ctx, const char *const *paths, size_t n)
{
	return n == 1 ? paths[0] : talloc_asprintf(ctx, "%s and %zu more", paths[0], n - 1);
}

/* The files paths[0..n) pooled into one side, into *side; NULL or the
 * error (on ctx). */
/* The refusal of a dbench ab or tune document among other files. */
static char *whole_document(TALLOC_CTX *ctx, const char *path, const struct rundoc *doc)
{
	return talloc_asprintf(ctx, "'%s' is a dbench %s document, %s in one: compare it alone"
			       " (dbench compare %s)", path, doc->ab ? "ab" : "tune",
			       doc->ab ? "both sides" : "every candidate", path);
}

static char *load_side(TALLOC_CTX *ctx, const char *const *paths, size_t n,
		       const struct rundoc **side)
{
	const struct rundoc **parts = talloc_array(ctx, const struct rundoc *, n);
	char *err = NULL;

	for (size_t k = 0; parts && k < n; k++) {
		if (!(parts[k] = rundoc_load(ctx, paths[k], &err)))
			return err;
		if (parts[k]->ab || parts[k]->tune)
			return whole_document(ctx, paths[k], parts[k]);
	}
	if (!parts || !(*side = rundoc_pool(ctx, side_name(ctx, paths, n), parts, n, &err)))
		return err ? err : talloc_strdup(ctx, "out of memory");
	return NULL;
}

/*
 * The documents to compare, into docs and *ndocs: each file as it is,
 * the first the baseline; with files after "--" (bpaths), those before
 * pooled into side A and those after into side B; a dbench ab document
 * given alone, its two sides.  NULL, or the error message (on ctx).
 */
static char *load_docs(TALLOC_CTX *ctx, const char *const *paths, size_t n,
		       const char *const *bpaths, size_t nb, bool pooled,
		       const struct rundoc **docs, size_t *ndocs)
{
	char *err = NULL;

	*ndocs = pooled ? 2 : n;
	if (pooled) {
		if ((err = load_side(ctx, paths, n, &docs[0])) ||
		    (err = load_side(ctx, bpaths, nb, &docs[1])))
			return err;
	}
	for (size_t k = 0; !pooled && k < n; k++) {
		if (!(docs[k] = rundoc_load(ctx, paths[k], &err)))
			return err;
		if (docs[k]->ab && n == 1) {
			struct rundoc *a, *b;
			if (!rundoc_ab_sides(ctx, docs[0], &a, &b, &err))
				return err;
			docs[0] = a;
			docs[1] = b;
			*ndocs = 2;
		} else if (docs[k]->tune && n == 1) {
			/* docs[0], the document, is read before its sides replace it */
			if (!rundoc_tune_sides(ctx, docs[0], docs, COMPARE_MAX_DOCS, ndocs, &err))
				return err;
		} else if (docs[k]->ab || docs[k]->tune) {
			return whole_document(ctx, paths[k], docs[k]);
		}
	}
	for (size_t k = 1; k < *ndocs; k++)
		if (compare_common(docs[0], docs[k]) == 0)
			return talloc_asprintf(ctx, "'%s' and '%s' have no nprocs in common "
					       "(%s against %s)", docs[0]->name, docs[k]->name,
					       nprocs_list(ctx, docs[0]), nprocs_list(ctx, docs[k]));
	return NULL;
}

/* Document k as a chart series: mean, high and low throughput and the
 * median worst-operation p99 at each nprocs, named by its --label or its
 * file; a point is marked where the test finds it faster or slower than
 * the baseline.  *tested says whether any point could be tested. */
static struct plot_series side_series(TALLOC_CTX *mem_ctx, const struct rundoc *const *docs,
				      size_t k, double alpha, bool *tested)
{
	const struct rundoc *set = docs[k];
	struct plot_point *pts = talloc_zero_array(mem_ctx, struct plot_point,
						   set->ngroups ? set->ngroups : 1);
	for (size_t g = 0; pts && g < set->ngroups; g++) {
		const struct rundoc_group *gr = &set->groups[g];
		double hi, lo;
		struct compare_row r;
		group_range(gr, &hi, &lo);
		bool judged = k > 0 && compare_throughput(&r, docs[0], set, gr->nprocs, alpha) &&
			      r.tested;
		*tested = *tested || judged;
		pts[g] = (struct plot_point){
			.procs = gr->nprocs, .mean = numstat_mean(gr->mb_s, gr->nruns),
			.high = hi, .low = lo,
			.p99_ms = rundoc_pooled_worst_p99(gr->runs, gr->nruns),
			.marked = judged && (r.verdict == COMPARE_BETTER ||
					     r.verdict == COMPARE_WORSE),
		};
	}
	return (struct plot_series){
		talloc_asprintf(mem_ctx, "%s: %s", compare_label(k), set->label ? set->label
										 : set->name),
		pts, pts ? set->ngroups : 0
	};
}

static int compare_plot(TALLOC_CTX *mem_ctx, const char *path, bool log_latency,
			const struct rundoc *const *docs, size_t ndocs, double alpha)
{
	struct plot_series *s = talloc_array(mem_ctx, struct plot_series, ndocs);
	struct plot_style style = { .title = "dbench compare", .log_latency = log_latency };
	bool tested = false;

	if (!s)
		return ENOMEM;
	for (size_t k = 0; k < ndocs; k++)
		s[k] = side_series(s, docs, k, alpha, &tested);
	style.mark_note = tested
		? talloc_asprintf(s, "marks a throughput significantly different from A's"
				  " (Welch's t-test, p < %g)", alpha)
		: "marks a significant change from A; none here: a test needs 2 or more runs"
		  " on each side";
	return plot_svg(path, &style, s, ndocs);
}

/* The report on stdout and the plot, if asked for: the exit code.  A
 * report that cannot be written is main()'s to tell, as for every
 * command. */
static int compare_and_plot(TALLOC_CTX *mem_ctx, const struct rundoc *const *docs, size_t ndocs,
			    const struct compare_options *opt, const char *plot, int plot_log)
{
	int rc = compare_report(stdout, docs, ndocs, opt);
	int err = plot ? compare_plot(mem_ctx, plot, plot_log, docs, ndocs, opt->alpha) : 0;

	if (err) {
		say("cannot write the plot to '%s': %s\n", plot, outfile_strerror(err));
		rc = rc ? rc : EXIT_RUN_FAILED;
	}
	return rc;
}

static void say_how_many_files(poptContext pc)
{
	say("compare takes 2 to %d result files, the baseline first (or a dbench ab"
	    " document alone, or each side's files around --)\n", COMPARE_MAX_DOCS);
	poptPrintUsage(pc, stderr, 0);
}

/* What is wrong with --plot=PLOT and --plot-log, on ctx, or NULL: the
 * one without the other, a name of another image format, a file that
 * cannot be written. */
static char *plot_refusal(TALLOC_CTX *ctx, const char *plot, int plot_log)
{
	int err;
	char *why;

	if (!plot)
		return plot_log ? talloc_strdup(ctx, "--plot-log goes with --plot") : NULL;
	why = plot_format_refusal(ctx, plot);
	if (!why && (err = outfile_check(plot)) != 0)
		why = talloc_asprintf(ctx, "cannot write the plot to '%s': %s", plot,
				      outfile_strerror(err));
	return why;
}

/* compare's options as given. */
struct compare_words {
	struct compare_options opt;
	char *plot;
	int help, all, plot_log, allow_different;
	bool fail_given;
	const struct poptOption *table;	/* compare_table()'s, for a misspelt option */
};

#define FAIL_ABOVE 'f'

static struct poptOption *compare_table(struct compare_words *w)
{
	static struct poptOption t[8];
	const struct poptOption table[] = {
		{ "fail-above", 0, POPT_ARG_DOUBLE, &w->opt.fail_above, FAIL_ABOVE,
		  "a gate on evidence: exit 0 only when every document's slowdown against"
		  " the first is below PCT percent by its one-sided 95% bound, 3 when one"
		  " is significantly beyond PCT, else 4 (the runs cannot tell, or the"
		  " machine's load or drift could explain it)", "PCT" },
		{ "alpha", 0, POPT_ARG_DOUBLE, &w->opt.alpha, 0,
		  "significance level of the t-tests (default 0.05)", "P" },
		{ "all", 0, POPT_ARG_NONE, &w->all, 0,
		  "every operation's p99 row, not only those with a significant change", NULL },
		{ "allow-different-workload", 0, POPT_ARG_NONE, &w->allow_different, 0,
		  "show documents of different loadfiles or backends side by side, with no"
		  " verdict and no --fail-above (refused otherwise, exit 2)", NULL },
		{ "plot", 0, POPT_ARG_STRING, &w->plot, 0,
		  "draw every document (throughput and p99 by clients) as an SVG", "FILE.svg" },
		{ "plot-log", 0, POPT_ARG_NONE, &w->plot_log, 0,
		  "draw the plot's p99 axis on a log scale (the default when the p99s span"
		  " more than two decades)", NULL },
		{ "help", '?', POPT_ARG_NONE, &w->help, 0, "show this help message", NULL },
		POPT_TABLEEND
	};
	memcpy(t, table, sizeof(table));
	return t;
}

/*
 * For popt, "--" ends the options; for compare it parts side A's files
 * from side B's, and options may come on either side of it (git's
 * convention: `dbench compare a-*.json -- b-*.json --fail-above=5`).  So
 * the words before it and those after it are parsed apart, with one
 * table: each part's leftovers are its side's files.
 */
struct part {
	const char **words;	/* the name popt shows, then the part's words */
	int n;
	poptContext pc;		/* NULL: no such part */
	const char **files;	/* popt's leftovers, NULL-ended, or NULL */
	size_t nfiles;
	int rc;			/* poptGetNextOpt()'s last: -1, or an error */
};

/* argv[from..to) as part p, parsed into w.  False when out of memory. */
static bool parse_part(TALLOC_CTX *ctx, struct part *p, const char **argv, int from, int to,
		       const struct poptOption *table, struct compare_words *w)
{
	p->n = 1 + to - from;
	p->words = talloc_array(ctx, const char *, p->n + 1);
	if (!p->words)
		return false;
	p->words[0] = progname_tbench() ? "tbench compare" : "dbench compare";
	memcpy(p->words + 1, argv + from, (to - from) * sizeof(*argv));
	p->words[p->n] = NULL;
	p->pc = poptGetContext(p->words[0], p->n, p->words, table, 0);
	poptSetOtherOptionHelp(p->pc, "[OPTION...] A.json B.json [C.json ...]\n"
			       "   or: dbench compare [OPTION...] A1.json [A2.json ...] -- B1.json [B2.json ...]\n"
			       "   or: dbench compare [OPTION...] AB.json  (a dbench ab document)");
	while ((p->rc = poptGetNextOpt(p->pc)) > 0)
		w->fail_given |= p->rc == FAIL_ABOVE;
	p->files = poptGetArgs(p->pc);
	while (p->files && p->files[p->nfiles])
		p->nfiles++;
	return true;
}

/* What is wrong with the options, said; or false. */
static bool bad_options(TALLOC_CTX *ctx, const struct part *p, const struct compare_words *w)
{
	const struct part *bad = p[0].rc < -1 ? &p[0] : p[1].pc && p[1].rc < -1 ? &p[1] : NULL;
	char *err;

	if (bad)
		say("%s (%s --help lists the options)\n",
		    badopt_message(ctx, bad->pc, bad->rc, bad->n, bad->words, w->table),
		    bad->words[0]);
	else if (w->help)
		return false;
	else if (w->fail_given && !(w->opt.fail_above >= 0 && isfinite(w->opt.fail_above)))
		say("--fail-above must be a percentage, 0 or more\n");
	else if ((err = plot_refusal(ctx, w->plot, w->plot_log)))
		say("%s\n", err);
	else if (!(w->opt.alpha > 0 && w->opt.alpha < 1))
		say("--alpha must lie between 0 and 1\n");
	else
		return false;
	return true;
}

/* Documents of different workloads (loadfile, backend) are no
 * comparison of set-ups: refused, the differences said on one line,
 * unless --allow-different-workload, which shows them without a verdict.
 * True when refused. */
static bool different_workloads(TALLOC_CTX *ctx, const struct rundoc *const *docs, size_t ndocs,
				struct compare_words *w)
{
	char *diff = compare_workload_diff(ctx, docs, ndocs);

	if (!diff || !*diff)
		return false;
	if (w->allow_different) {
		w->opt.different_workloads = true;
		return false;
	}
	char *line = talloc_strdup(ctx, "");
	for (char *s = diff, *nl; line && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		*nl = '\0';
		line = talloc_asprintf_append(line, "%s%s", *line ? "; " : "", s + 2);
	}
	say("the documents ran different workloads, which are no change of the set-up to judge:"
	    " %s (--allow-different-workload shows their figures side by side, without a"
	    " verdict)\n", line ? line : "out of memory");
	return true;
}

/* The command once its words are parsed: p[1] the files after "--" (its
 * pc NULL without one), extra the further "--" given. */
static int compare_parts(TALLOC_CTX *ctx, const struct part *p, int extra,
			 struct compare_words *w)
{
	const struct rundoc *docs[COMPARE_MAX_DOCS];
	bool pooled = p[1].pc != NULL;
	size_t ndocs = 0;
	char *err;

	if (bad_options(ctx, p, w))
		return EXIT_BAD_INPUT;
	if (w->help) {
		poptPrintHelp(p[0].pc, stdout, 0);
		printf("\nSee man dbench-compare, its manual page.\n");
		return EXIT_OK;
	}
	if (pooled && (p[0].nfiles == 0 || p[1].nfiles == 0 || extra)) {
		say("compare with -- takes side A's files before it and side B's after it, one or"
		    " more each%s\n", extra ? ", and one -- between them" : "");
	} else if (!pooled && (p[0].nfiles > COMPARE_MAX_DOCS || p[0].nfiles == 0)) {
		say_how_many_files(p[0].pc);
	} else if ((err = load_docs(ctx, p[0].files, p[0].nfiles, p[1].files, p[1].nfiles,
				    pooled, docs, &ndocs))) {
		say("%s\n", err);
	} else if (ndocs < 2) {
		say_how_many_files(p[0].pc);
	} else if (!different_workloads(ctx, docs, ndocs, w)) {
		w->opt.all = w->all;
		return compare_and_plot(ctx, docs, ndocs, &w->opt, w->plot, w->plot_log);
	}
	return EXIT_BAD_INPUT;
}

int compare_main(int argc, const char **argv)
{
	struct compare_words w = { .opt = { .alpha = 0.05, .fail_above = -1 } };
	const struct poptOption *table = w.table = compare_table(&w);
	TALLOC_CTX *top = talloc_new(NULL);
	struct part p[2] = { { 0 } };
	int dashes = argc, extra = 0, rc = EXIT_BAD_INPUT;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") != 0)
			continue;
		extra += dashes < argc;
		dashes = dashes < argc ? dashes : i;
	}
	if (!top || argc < 1 || !parse_part(top, &p[0], argv, 1, dashes, table, &w) ||
	    (dashes < argc && !parse_part(top, &p[1], argv, dashes + 1, argc, table, &w)))
		say("out of memory\n");
	else
		rc = compare_parts(top, p, extra, &w);
	free(w.plot);
	for (int i = 0; i < 2; i++)
		if (p[i].pc)
			poptFreeContext(p[i].pc);
	talloc_free(top);
	return rc;
}
