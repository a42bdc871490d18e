/*
 * sweep.c - a sweep over client counts with repeats (see sweep.h): the
 * list syntax, the runs and the rests between them, the summary table,
 * and the sweep's JSON and CSV files.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"
#include "rundoc.h"
#include "series/series.h"
#include "sweep.h"
#include "jsontext.h"
#include "numstat.h"
#include "ops.h"
#include "outfile.h"
#include "progname.h"
#include "version.h"
#include "report.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the list ---- */

/* The digits s[0..len) as a number, or -1 when they are not all digits
 * (or none); more than 6 digits is a number too large for a count. */
static long parse_digits(const char *s, size_t len)
{
	long v = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = i < 6 ? v * 10 + (s[i] - '0') : DBENCH_MAX_CLIENTS + 1L;
	}
	return v;
}

static bool add_count(TALLOC_CTX *mem_ctx, unsigned **out, unsigned *n, unsigned v)
{
	unsigned *grown = talloc_realloc(mem_ctx, *out, unsigned, *n + 1);
	if (!grown)
		return false;
	grown[(*n)++] = v;
	*out = grown;
	return true;
}

/* One item, s[0..len): "N" or "A..B", its counts appended to *out.  What
 * is wrong with it (on mem_ctx), or NULL. */
static char *parse_item(TALLOC_CTX *mem_ctx, const char *s, size_t len, unsigned **out,
			unsigned *n)
{
	const char *dots = memmem(s, len, "..", 2);
	size_t alen = dots ? (size_t)(dots - s) : len, blen = dots ? len - alen - 2 : 0;
	long a = parse_digits(s, alen), b = dots ? parse_digits(dots + 2, blen) : a;

	if (dots && alen == 0 && b >= 0)
		return talloc_asprintf(mem_ctx, "the range %.*s has no first count (A..B)",
				       (int)len, s);
	if (dots && blen == 0 && a >= 0)
		return talloc_asprintf(mem_ctx, "the range %.*s has no last count (A..B)",
				       (int)len, s);
	if (a < 0 || b < 0)
		return talloc_asprintf(mem_ctx, "'%.*s' is not a client count (1 to %d) or a"
				       " range A..B", (int)len, s, DBENCH_MAX_CLIENTS);
	for (int i = 0; i < 2; i++) {
		long v = i ? b : a;
		const char *text = i ? dots + 2 : s;
		if (v < 1 || v > DBENCH_MAX_CLIENTS)
			return talloc_asprintf(mem_ctx, "%.*s is not a client count from 1 to %d",
					       (int)(i ? blen : alen), text, DBENCH_MAX_CLIENTS);
	}
	if (a > b)
		return talloc_asprintf(mem_ctx, "the range %.*s goes down; a range A..B must go"
				       " up (A at most B)", (int)len, s);
	for (unsigned long v = a; v <= (unsigned long)b; v *= 2) {
		if (!add_count(mem_ctx, out, n, v))
			return talloc_strdup(mem_ctx, "out of memory");
	}
	return NULL;
}

bool sweep_parse_list(TALLOC_CTX *mem_ctx, const char *list, unsigned **out,
		      unsigned *n, char **err)
{
	const char *p = list;
	char *why = NULL;

	*out = NULL;
	*n = 0;
	for (unsigned item = 1; !why; item++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		why = len ? parse_item(mem_ctx, p, len, out, n)
			  : talloc_asprintf(mem_ctx, "item %u is empty (two commas in a row, or"
					    " one at an end)", item);
		if (!comma)
			break;
		p = comma + 1;
	}
	/* "1,1" or "1..8,4": the runs of one count are --repeat's */
	for (unsigned i = 0; !why && i < *n; i++) {
		for (unsigned j = 0; !why && j < i; j++) {
			if ((*out)[i] == (*out)[j])
				why = talloc_asprintf(mem_ctx, "%u client%s in the list twice"
						      " (--repeat=K runs each count K times)",
						      (*out)[i], (*out)[i] == 1 ? " is" : "s are");
		}
	}
	if (!why)
		return true;
	*err = talloc_asprintf(mem_ctx, "--sweep '%s': %s", list, why);
	TALLOC_FREE(*out);
	return false;
}

/* ---- figures from run documents ---- */

#define SWEEP_LEVEL 0.95	/* the confidence level of the summary's interval */
#define SWEEP_MAX_RUNS 4096	/* runs at one count that the figures take in */

/* The throughput of each successful run at procs, in run order, into tp
 * (SWEEP_MAX_RUNS at most); returns how many. */
static size_t throughputs(json_t *runs, unsigned procs, double *tp)
{
	size_t n = 0, i;
	json_t *doc;

	json_array_foreach(runs, i, doc) {
		if (rundoc_nprocs(doc) == procs && rundoc_ok(doc) && n < SWEEP_MAX_RUNS)
			tp[n++] = rundoc_number(doc, DK_RESULT_THROUGHPUT);
	}
	return n;
}

/* The half-width of the interval of the mean at procs in percent of the
 * mean, NAN with fewer than two runs; *n gets the successful runs. */
static double interval_pct(json_t *runs, unsigned procs, size_t *n)
{
	double tp[SWEEP_MAX_RUNS], mean, half;

	*n = throughputs(runs, procs, tp);
	if (!numstat_mean_interval(tp, *n, SWEEP_LEVEL, &mean, &half) || !(mean > 0))
		return NAN;
	return half / mean * 100;
}

/* Whether the runs at procs have reached the precision target: three
 * successful runs at least, and the interval within +-precision %. */
static bool precise(json_t *runs, unsigned procs, double precision)
{
	size_t n;
	double pct = interval_pct(runs, procs, &n);

	return n >= 3 && pct <= precision;
}

/* A number, or null where there is none. */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Each device's figures, the mean over the runs ok[0..n): [{"device",
 * "runs", and the members of a run's "disks" entries}]. */
static json_t *disks_summary(const json_t *const *ok, size_t n)
{
	size_t nd;
	struct rundoc_disk *d = rundoc_disks(NULL, ok, n, &nd);
	json_t *list = json_array();

	for (size_t k = 0; k < nd; k++) {
		struct dockey_value v[2 + RUNDOC_DISK_FIGURES] = {
			{ DK_SUMMARY_DISK_DEVICE, json_string(d[k].device) },
			{ DK_SUMMARY_DISK_RUNS, json_integer((json_int_t)d[k].nruns) },
		};
		for (int f = 0; f < RUNDOC_DISK_FIGURES; f++)
			v[2 + f] = (struct dockey_value){ rundoc_disk_keys[f].summary,
							  real_or_null(d[k].fig[f]) };
		json_array_append_new(list, dockey_object(DK_SUMMARY_DISK, NULL, v, LEN(v)));
	}
	talloc_free(d);
	return list;
}

/* The summary of the successful runs at one count, or NULL when no run
 * at that count was made (the sweep stopped before it).  Where no run
 * succeeded the figures are null, not a made-up 0. */
static json_t *summarise(json_t *runs, unsigned procs, double precision)
{
	double tp[SWEEP_MAX_RUNS], hi = 0, lo = 0, maxl = 0;
	double mean = 0, half = NAN;
	const json_t *ok[SWEEP_MAX_RUNS];
	size_t n = 0, tried = 0, i;
	bool too_short = false;
	json_t *doc;

	json_array_foreach(runs, i, doc) {
		if (rundoc_nprocs(doc) != procs)
			continue;
		tried++;
		if (n == SWEEP_MAX_RUNS || !rundoc_ok(doc))
			continue;
		too_short = too_short || json_is_true(dockey_get(doc, DK_REPLAYED_SHORT_WINDOW));
		tp[n] = rundoc_number(doc, DK_RESULT_THROUGHPUT);
		double m = rundoc_number(doc, DK_RESULT_MAX_LATENCY);
		maxl = m > maxl ? m : maxl;
		hi = n == 0 || tp[n] > hi ? tp[n] : hi;
		lo = n == 0 || tp[n] < lo ? tp[n] : lo;
		ok[n++] = doc;
	}
	if (n)
		numstat_mean_interval(tp, n, SWEEP_LEVEL, &mean, &half);
	double sd = sqrt(numstat_variance(tp, n, mean));
	/* the runs' latencies pooled: NAN without 100 operations of a type */
	double p99 = rundoc_pooled_worst_p99(ok, n);
	if (tried == 0)
		return NULL;
	if (n == 0)
		mean = hi = lo = sd = maxl = NAN;
	const struct dockey_value v[] = {
		{ DK_SUMMARY_PROCS, json_integer(procs) },
		{ DK_SUMMARY_RUNS, json_integer((json_int_t)n) },
		{ DK_SUMMARY_MEAN, real_or_null(mean) },
		{ DK_SUMMARY_HIGH, real_or_null(hi) },
		{ DK_SUMMARY_LOW, real_or_null(lo) },
		{ DK_SUMMARY_STDDEV, real_or_null(sd) },
		{ DK_SUMMARY_CV, real_or_null(mean > 0 ? sd / mean * 100 : n ? 0.0 : NAN) },
		/* a throughput is never negative: with few runs far apart the
		 * t-interval reaches below 0, its lower bound is cut at 0
		 * (ci95_pct keeps the half-width, the measure of precision) */
		{ DK_SUMMARY_CI95_LOW, real_or_null(mean - half > 0 ? mean - half
						    : isnan(half) ? NAN : 0) },
		{ DK_SUMMARY_CI95_HIGH, real_or_null(mean + half) },
		{ DK_SUMMARY_CI95_PCT, real_or_null(mean > 0 ? half / mean * 100 : NAN) },
		{ DK_SUMMARY_P99, real_or_null(p99) },
		{ DK_SUMMARY_MAX, real_or_null(maxl) },
		{ DK_SUMMARY_PRECISION_REACHED,
		  precision > 0 ? json_boolean(n >= 3 && half / mean * 100 <= precision)
				: DOCKEY_ABSENT },
		{ DK_SUMMARY_DISKS, disks_summary(ok, n) },
		{ DK_SUMMARY_REPLAYED_SHARE, real_or_null(rundoc_replayed_median(ok, n)) },
		{ DK_SUMMARY_SHORT_WINDOW, json_boolean(too_short) },
	};
	return dockey_object(DK_SUMMARY, NULL, v, LEN(v));
}

/* What the disks did at each count, where any was recorded. */
static void print_disks(FILE *out, json_t *summary)
{
	size_t i, any = 0;
	json_t *s;

	json_array_foreach(summary, i, s)
		any += json_array_size(dockey_get(s, DK_SUMMARY_DISKS));
	if (!any)
		return;
	fprintf(out, "\nDisks, the mean over the runs at each count (%s)\n", rundoc_disk_legend);
	fprintf(out, " %6s  ", "procs");
	rundoc_print_disk_head(out);
	fputc('\n', out);
	json_array_foreach(summary, i, s) {
		size_t nd;
		struct rundoc_disk *d = rundoc_summary_disks(NULL, s, &nd);
		for (size_t k = 0; k < nd; k++) {
			fprintf(out, " %6lld  ",
				(long long)json_integer_value(dockey_get(s, DK_SUMMARY_PROCS)));
			rundoc_print_disk(out, &d[k]);
			fputc('\n', out);
		}
		talloc_free(d);
	}
	fflush(out);
}

static void print_summary(FILE *out, json_t *summary)
{
	size_t i;
	json_t *s;

	fprintf(out, "\nSweep summary (MB/sec; latency in ms; ci95%%: the 95%% interval of the"
		     " mean, +- %% of it)\n");
	fprintf(out, " %6s %5s %10s %10s %10s %9s %7s %7s %10s %10s\n", "procs", "runs", "mean",
		"high", "low", "stddev", "cv%", "ci95%", "p99", "max");
	json_array_foreach(summary, i, s) {
		static const struct { enum dockey key; int width, prec; } col[] = {
			{ DK_SUMMARY_MEAN, 10, 2 }, { DK_SUMMARY_HIGH, 10, 2 },
			{ DK_SUMMARY_LOW, 10, 2 }, { DK_SUMMARY_STDDEV, 9, 2 },
			{ DK_SUMMARY_CV, 7, 2 }, { DK_SUMMARY_CI95_PCT, 7, 2 },
			{ DK_SUMMARY_P99, 10, 3 }, { DK_SUMMARY_MAX, 10, 3 },
		};
		fprintf(out, " %6lld %5lld",
			(long long)json_integer_value(dockey_get(s, DK_SUMMARY_PROCS)),
			(long long)json_integer_value(dockey_get(s, DK_SUMMARY_RUNS)));
		for (size_t c = 0; c < sizeof(col) / sizeof(col[0]); c++) {
			const json_t *v = dockey_get(s, col[c].key);
			if (json_is_number(v))	/* null: no run to take it from */
				fprintf(out, " %*.*f", col[c].width, col[c].prec, json_number_value(v));
			else
				fprintf(out, " %*s", col[c].width, "-");
		}
		fputc('\n', out);
	}
	fflush(out);
}

/* The counts whose measured window was too short for the load, a line
 * each: their figures are not those of the workload the others ran. */
static void print_short(FILE *out, json_t *summary)
{
	size_t i;
	json_t *s;

	json_array_foreach(summary, i, s) {
		long long procs = json_integer_value(dockey_get(s, DK_SUMMARY_PROCS));
		const json_t *share = dockey_get(s, DK_SUMMARY_REPLAYED_SHARE);
		char pct[16];
		if (!json_is_true(dockey_get(s, DK_SUMMARY_SHORT_WINDOW)))
			continue;
		fprintf(out, "Short window at %lld client%s: the median client replayed %s of the"
			" loadfile in the measured window%s; the figures at that count are those of"
			" that part of it, not of the whole workload\n", procs, procs == 1 ? "" : "s",
			json_is_number(share) ? report_share_pct(pct, json_number_value(share)) : "?",
			json_integer_value(dockey_get(s, DK_SUMMARY_RUNS)) > 1
				? " (the median over its runs)" : "");
	}
	fflush(out);
}

/* With a precision target: which counts did not reach it. */
static void print_precision(FILE *out, json_t *summary, const struct sweep_plan *sp)
{
	size_t i, missed = 0;
	json_t *s;

	if (!(sp->precision > 0))
		return;
	json_array_foreach(summary, i, s) {
		if (json_is_true(dockey_get(s, DK_SUMMARY_PRECISION_REACHED)))
			continue;
		const json_t *ci = dockey_get(s, DK_SUMMARY_CI95_PCT);
		char cis[32] = "no interval";
		if (json_is_number(ci))
			snprintf(cis, sizeof(cis), "+-%.2f%%", json_number_value(ci));
		long long procs = json_integer_value(dockey_get(s, DK_SUMMARY_PROCS));
		fprintf(out, "%s %lld client%s (%lld runs, %s)",
			missed++ ? "," : "Precision: not reached at", procs,
			procs == 1 ? "" : "s",
			(long long)json_integer_value(dockey_get(s, DK_SUMMARY_RUNS)), cis);
	}
	if (missed)
		fprintf(out, ": the 95%% interval is wider than +-%g%% of the mean after"
			" --repeat=%u runs\n", sp->precision, sp->repeat);
	else
		fprintf(out, "Precision: the 95%% interval is within +-%g%% of the mean at every"
			" client count\n", sp->precision);
	fflush(out);
}

/* ---- files ---- */

/* The summary's interval bound `key` at procs as CSV text, "" when none. */
static const char *csv_bound(char *buf, size_t len, json_t *summary, double procs,
			     enum dockey key)
{
	size_t i;
	json_t *s;

	*buf = '\0';
	json_array_foreach(summary, i, s) {
		const json_t *v = dockey_get(s, key);
		if (json_integer_value(dockey_get(s, DK_SUMMARY_PROCS)) == procs && json_is_number(v))
			snprintf(buf, len, "%.6f", json_number_value(v));
	}
	return buf;
}

/* A device's name as a CSV heading: a comma, quote or line end (which no
 * kernel name has) as '_'. */
static void put_csv_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(strchr(",\"\r\n", *name) ? '_' : *name, f);
}

/* TEXT as a CSV cell: quoted, its quotes doubled, when it holds a comma,
 * quote or line end (RFC 4180); as it is else. */
static void put_csv_text(FILE *f, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, f);
		return;
	}
	fputc('"', f);
	for (; *text; text++) {
		if (*text == '"')
			fputc('"', f);
		fputc(*text, f);
	}
	fputc('"', f);
}

/* The operations with a p99 in any run, in the order first met, on
 * mem_ctx; *n of them. */
static const char **csv_ops(TALLOC_CTX *mem_ctx, json_t *runs, size_t *n)
{
	const char **ops = talloc_array(mem_ctx, const char *, OP_COUNT);
	size_t i;
	json_t *doc, *o;
	const char *name;

	*n = 0;
	json_array_foreach(runs, i, doc) {
		json_object_foreach((json_t *)dockey_get(doc, DK_OPS), name, o) {
			bool seen = !json_is_number(dockey_get(o, DK_OP_P99));
			for (size_t k = 0; k < *n && !seen; k++)
				seen = strcmp(ops[k], name) == 0;
			if (!seen && ops && *n < OP_COUNT)
				ops[(*n)++] = name;
		}
	}
	return ops;
}

/* The headings of the devices' columns, a set per device any run
 * recorded: "sda1_reads_s,sda1_writes_s,...". */
static void csv_disk_heads(FILE *f, const struct rundoc_disk *all, size_t nall)
{
	for (size_t k = 0; k < nall; k++)
		for (int c = 0; c < RUNDOC_DISK_FIGURES; c++) {
			fputc(',', f);
			put_csv_name(f, all[k].device);
			fprintf(f, "_%s", dockey_name(rundoc_disk_keys[c].run));
		}
}

/* One run's figures under those headings, "" where it has none. */
static void csv_disk_cells(FILE *f, const json_t *run, const struct rundoc_disk *all,
			   size_t nall)
{
	size_t nd;
	struct rundoc_disk *d = rundoc_disks(NULL, &run, 1, &nd);

	for (size_t k = 0; k < nall; k++) {
		const struct rundoc_disk *mine = rundoc_disk_named(d, nd, all[k].device);
		for (int c = 0; c < RUNDOC_DISK_FIGURES; c++) {
			if (mine && !isnan(mine->fig[c]))
				fprintf(f, ",%.6f", mine->fig[c]);
			else
				fputc(',', f);
		}
	}
	talloc_free(d);
}

/* A run's p99 of each of ops, "" where it has none. */
static void csv_op_cells(FILE *f, const json_t *run, const char **ops, size_t nops)
{
	const json_t *all = dockey_get(run, DK_OPS);

	for (size_t k = 0; k < nops; k++) {
		const json_t *v = dockey_get(json_object_get(all, ops[k]), DK_OP_P99);
		if (json_is_number(v))
			fprintf(f, ",%.6f", json_number_value(v));
		else
			fputc(',', f);
	}
}

/* The first columns of --csv: a run's members, headed by their names
 * (and `head` after it), and what the sweep adds. */
enum csv_kind {
	CSV_PROCS,	/* the run's client count */
	CSV_REPEAT,	/* its place among the runs at that count */
	CSV_WHOLE,	/* the member, a whole number */
	CSV_REAL,	/* the member, 0 where there is none */
	CSV_COUNT,	/* the member as a count */
	CSV_WORST_P99,	/* the worst p99 of its operations, "" without one */
	CSV_TEXT,	/* the member, a string */
	CSV_BOUND,	/* the member of the summary at the run's count */
	CSV_QUOTED,	/* the member as a CSV cell, "" without one */
};
static const struct csv_col {
	enum csv_kind kind;
	enum dockey key;	/* DK_NONE: head is the whole heading */
	const char *head;
} csv_cols[] = {
	{ CSV_PROCS, DK_NONE, "procs" },
	{ CSV_REPEAT, DK_NONE, "repeat" },
	{ CSV_WHOLE, DK_STATUS_EXIT_CODE, "" },
	{ CSV_REAL, DK_RESULT_THROUGHPUT, "" },
	{ CSV_REAL, DK_RESULT_ELAPSED_S, "" },
	{ CSV_COUNT, DK_RESULT_OPERATIONS, "" },
	{ CSV_COUNT, DK_RESULT_ERRORS, "" },
	{ CSV_WORST_P99, DK_NONE, "p99_ms" },
	{ CSV_REAL, DK_RESULT_MAX_LATENCY, "" },
	{ CSV_TEXT, DK_RUN_STARTED_AT, "" },
	{ CSV_BOUND, DK_SUMMARY_CI95_LOW, "_mb_s" },
	{ CSV_BOUND, DK_SUMMARY_CI95_HIGH, "_mb_s" },
	{ CSV_QUOTED, DK_CONFIG_LABEL, "" },
};

static void csv_head(FILE *f)
{
	for (size_t c = 0; c < LEN(csv_cols); c++)
		fprintf(f, "%s%s%s", c ? "," : "",
			csv_cols[c].key != DK_NONE ? dockey_name(csv_cols[c].key) : "",
			csv_cols[c].head);
}

/* Run `doc`'s cells of csv_cols; repeat its place at its count. */
static void csv_cells(FILE *f, const json_t *doc, unsigned repeat, json_t *summary)
{
	double procs = rundoc_nprocs(doc);
	char buf[64];

	for (size_t c = 0; c < LEN(csv_cols); c++) {
		enum dockey k = csv_cols[c].key;
		if (c)
			fputc(',', f);
		switch (csv_cols[c].kind) {
		case CSV_PROCS:
			fprintf(f, "%.0f", procs);
			break;
		case CSV_REPEAT:
			fprintf(f, "%u", repeat);
			break;
		case CSV_WHOLE:
			fprintf(f, "%lld", (long long)json_integer_value(dockey_get(doc, k)));
			break;
		case CSV_REAL:
			fprintf(f, "%.6f", rundoc_number(doc, k));
			break;
		case CSV_COUNT:
			fprintf(f, "%.0f", rundoc_number(doc, k));
			break;
		case CSV_WORST_P99:	/* empty where no operation had a p99 */
			if (!isnan(rundoc_worst_p99(doc)))
				fprintf(f, "%.6f", rundoc_worst_p99(doc));
			break;
		case CSV_TEXT:
			fprintf(f, "%s", json_string_value(dockey_get(doc, k)));
			break;
		case CSV_BOUND:
			fputs(csv_bound(buf, sizeof(buf), summary, procs, k), f);
			break;
		case CSV_QUOTED:
			put_csv_text(f, json_string_value(dockey_get(doc, k)) ?: "");
			break;
		}
	}
}

/* One row per run: the run's figures; the interval of the mean at the
 * run's count, the same on every row of that count; its --label; each
 * operation's p99 in the run; then each device's figures in the run. */
static int write_csv(const char *path, json_t *runs, const unsigned *repeat_of,
		     json_t *summary)
{
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);
	size_t i, nall;
	json_t *doc;
	const json_t **each;
	struct rundoc_disk *all;

	if (!o)
		return err;
	/* the devices of every run, on o: freed with it */
	each = talloc_array(o, const json_t *, json_array_size(runs) + 1);
	json_array_foreach(runs, i, doc)
		if (each)
			each[i] = doc;
	all = each ? rundoc_disks(o, each, json_array_size(runs), &nall) : NULL;
	if (!all)
		nall = 0;
	size_t nops;
	const char **ops = csv_ops(o, runs, &nops);
	csv_head(f);
	for (size_t k = 0; k < nops; k++) {
		fputc(',', f);
		put_csv_name(f, ops[k]);
		fputs("_p99_ms", f);
	}
	csv_disk_heads(f, all, nall);
	fputc('\n', f);
	json_array_foreach(runs, i, doc) {
		csv_cells(f, doc, repeat_of[i], summary);
		csv_op_cells(f, doc, ops, nops);
		csv_disk_cells(f, doc, all, nall);
		fputc('\n', f);
	}
	return outfile_commit(o);
}

/* The summary as one chart series (counts where no run succeeded are left
 * out). */
static int write_plot(const struct sweep_plan *sp, const struct run_plan *base,
		      json_t *summary)
{
	size_t n = json_array_size(summary), k = 0, i;
	struct plot_point *pts = calloc(n ? n : 1, sizeof(*pts));
	json_t *s;

	if (!pts)
		return ENOMEM;
	json_array_foreach(summary, i, s) {
		if (json_integer_value(dockey_get(s, DK_SUMMARY_RUNS)) == 0)
			continue;
		const json_t *p99 = dockey_get(s, DK_SUMMARY_P99);
		pts[k++] = (struct plot_point){
			.procs = json_integer_value(dockey_get(s, DK_SUMMARY_PROCS)),
			.mean = json_real_value(dockey_get(s, DK_SUMMARY_MEAN)),
			.high = json_real_value(dockey_get(s, DK_SUMMARY_HIGH)),
			.low = json_real_value(dockey_get(s, DK_SUMMARY_LOW)),
			.p99_ms = json_is_number(p99) ? json_number_value(p99) : NAN,	/* null: none */
		};
	}
	char name[512];
	snprintf(name, sizeof(name), "%s on %s%s", base->prog->source, base->dirs[0],
		 base->ndirs > 1 ? " ..." : "");
	struct plot_series series = { base->label ? base->label : name, pts, k };
	struct plot_style style = { .title = "dbench sweep", .log_latency = sp->plot_log };
	int err = plot_svg(sp->plot_path, &style, &series, 1);
	free(pts);
	return err;
}

/* ---- the sweep ---- */

static json_t *sweep_config(const struct sweep_plan *sp, const struct run_plan *base)
{
	json_t *procs = json_array();

	for (unsigned i = 0; i < sp->nprocs; i++)
		json_array_append_new(procs, json_integer(sp->procs[i]));
	const struct dockey_value v[] = {
		{ DK_SWEEP_VERSION, json_string(DBENCH_VERSION) },
		{ DK_SWEEP_PROCS, procs },
		{ DK_SWEEP_REPEAT, json_integer(sp->repeat) },
		{ DK_SWEEP_PRECISION, sp->precision > 0 ? json_real(sp->precision) : json_null() },
		{ DK_SWEEP_SETTLE, json_integer(sp->settle) },
		{ DK_SWEEP_DROP_CACHES, json_boolean(sp->drop_caches) },
		{ DK_SWEEP_LABEL, jsontext(base->label) },
		{ DK_SWEEP_PREPARE, jsontext(sp->prepare) },
		{ DK_SWEEP_CLEANUP, jsontext(sp->cleanup) },
	};
	return dockey_object(DK_SWEEP_CONFIG, NULL, v, LEN(v));
}

/* With a precision target, where a count stands after each of its runs. */
static void print_progress(FILE *out, json_t *runs, unsigned procs, unsigned r,
			   const struct sweep_plan *sp)
{
	size_t n;
	double pct = interval_pct(runs, procs, &n);

	if (!(sp->precision > 0) || n < 2)
		return;
	fprintf(out, "Precision: %u client%s, run %u of at most %u: 95%% interval +-%.2f%% of"
		" the mean over %zu runs (target +-%g%%%s)\n", procs, procs == 1 ? "" : "s",
		r, sp->repeat, pct, n,
		sp->precision, n >= 3 && pct <= sp->precision ? ", reached" : "");
	fflush(out);
}


/*
 * The time a run takes beyond its warmup, time limit and settle (its
 * setup and cleanup, the rest's sync, --prepare and --cleanup), as the
 * runs so far took it: a least-squares line against the client count, as
 * creating and removing the clients' files grows with it.
 */
struct overhead {
	double n, sum_p, sum_s, sum_pp, sum_ps;
};

static void overhead_add(struct overhead *o, unsigned procs, double s)
{
	o->n++;
	o->sum_p += procs;
	o->sum_s += s;
	o->sum_pp += (double)procs * procs;
	o->sum_ps += procs * s;
}

/* The line's seconds at procs: the mean while one count was measured (or
 * where the line falls with the count), NAN before any run. */
static double overhead_at(const struct overhead *o, unsigned procs)
{
	if (o->n == 0)
		return NAN;
	double mp = o->sum_p / o->n, ms = o->sum_s / o->n;
	double var = o->sum_pp / o->n - mp * mp;
	double slope = var > 1e-9 ? (o->sum_ps / o->n - mp * ms) / var : 0;

	if (!(slope > 0))
		return ms;
	double at = ms + slope * (procs - mp);
	return at > 0 ? at : 0;
}

/*
 * Before run k (from 1) of a series, where it stands: "Run 3 of 14: 8
 * clients, repeat 1 of 2; about 1 h 02 min left", the time left from the
 * planned durations (warmup, time limit, and the settle between runs)
 * and, once a run has been made, its setup and cleanup as measured (ov).
 * With a precision target the total is the most runs the series can
 * take, and so is the time left.  No time with --run-once, whose runs
 * have no planned length.
 */
static void print_position(FILE *out, const struct run_plan *base, const struct sweep_plan *sp,
			   unsigned k, unsigned count_i, unsigned r, const struct overhead *ov)
{
	unsigned total = sp->nprocs * sp->repeat;
	/* this run, the rest at this count, every run of the counts after */
	unsigned left = sp->repeat - r + 1 + (sp->nprocs - count_i - 1) * sp->repeat;
	const char *most = sp->precision > 0 ? "at most " : "";
	double secs = (double)left * (base->warmup + base->timelimit) + (double)(left - 1) * sp->settle;
	char t[32];

	if (total < 2)
		return;
	for (unsigned i = count_i; ov->n > 0 && i < sp->nprocs; i++)
		secs += (i == count_i ? sp->repeat - r + 1 : sp->repeat) * overhead_at(ov, sp->procs[i]);
	fprintf(out, "Run %u of %s%u: %u client%s, repeat %u of %s%u", k, most, total,
		sp->procs[count_i], sp->procs[count_i] == 1 ? "" : "s", r, most, sp->repeat);
	if (base->run_once)
		fprintf(out, "; no time left to tell (--run-once)\n");
	else
		fprintf(out, "; %sabout %s left (warmup + time limit + settle per run, %s)\n", most,
			series_duration(t, (unsigned long)(secs + 0.5)),
			ov->n > 0 ? "setup and cleanup as the runs so far took them"
				  : "setup and cleanup on top, not measured yet");
	fflush(out);
}

/* --prepare's or --cleanup's command (what) around run k of procs
 * clients, repeat r; EXIT_OK, else it says why the sweep stops after done
 * runs and returns EXIT_RUN_FAILED, or 128 + the signal that came. */
static int run_command(const char *what, const char *cmd, unsigned procs, unsigned k,
		       unsigned r, unsigned done, unsigned total)
{
	char np[16], kk[16], rr[16];

	if (!cmd)
		return EXIT_OK;
	snprintf(np, sizeof(np), "%u", procs);
	snprintf(kk, sizeof(kk), "%u", k);
	snprintf(rr, sizeof(rr), "%u", r);
	const char *env[] = { "DBENCH_NPROCS", np, "DBENCH_RUN", kk, "DBENCH_REPEAT", rr, NULL };
	char *why = series_command(NULL, cmd, env);
	int sig = driver_interrupt();
	if (!sig && why)
		say("--%s failed %s run %u (%u client%s, repeat %u): %s: the sweep stops after %u"
		    " of %u runs\n", what, strcmp(what, "prepare") == 0 ? "before" : "after", k,
		    procs, procs == 1 ? "" : "s", r, why, done, total);
	talloc_free(why);
	return sig ? 128 + sig : why ? EXIT_RUN_FAILED : EXIT_OK;
}

/* Run k of the series (procs[i], repeat r) with its commands around it;
 * its exit status, its document added to runs; *stop when a command
 * failed. */
static int run_one(const struct run_plan *base, const struct sweep_plan *sp, json_t *runs,
		   unsigned *repeat_of, unsigned i, unsigned r, unsigned k, bool *stop)
{
	struct run_plan plan = *base;
	json_t *doc = NULL;
	unsigned total = sp->nprocs * sp->repeat, done = json_array_size(runs);
	int rc = run_command("prepare", sp->prepare, sp->procs[i], k, r, done, total);

	*stop = rc != EXIT_OK;
	if (*stop)
		return rc;
	plan.nclients = sp->procs[i];
	plan.bopts.nclients = plan.nclients;
	plan.json_path = NULL;
	plan.result_doc = &doc;
	plan.series_position = k;
	plan.series_runs = total;
	rc = driver_run(&plan);
	if (driver_is_client())
		return rc;	/* a client process, on its way out */
	if (doc) {
		repeat_of[json_array_size(runs)] = r;
		json_array_append_new(runs, doc);
	}
	int crc = run_command("cleanup", sp->cleanup, sp->procs[i], k, r, done + 1, total);
	*stop = crc != EXIT_OK;
	return rc == EXIT_OK || rc == EXIT_RUN_FAILED ? (*stop ? crc : rc) : rc;
}

/* Every run in order; returns the worst exit status and fills runs. */
static int run_all(const struct run_plan *base, const struct sweep_plan *sp, json_t *runs,
		   unsigned *repeat_of, FILE *text)
{
	int worst = EXIT_OK;
	unsigned k = 0;
	struct overhead ov = { 0 };

	for (unsigned i = 0; i < sp->nprocs; i++) {
		for (unsigned r = 1; r <= sp->repeat; r++) {
			double began = series_now_s();
			size_t before = json_array_size(runs);
			if (before > 0)
				series_rest(sp->settle, sp->drop_caches);
			if (driver_interrupt())
				return 128 + driver_interrupt();
			print_position(text, base, sp, ++k, i, r, &ov);
			bool stop = false;
			int rc = run_one(base, sp, runs, repeat_of, i, r, k, &stop);
			if (driver_is_client())
				return rc;
			if (rc == EXIT_BAD_INPUT && json_array_size(runs) > 0)
				return EXIT_RUN_FAILED;	/* e.g. the target went away mid-sweep */
			if (rc > 128 || rc == EXIT_BAD_INPUT)	/* 128 + a signal */
				return rc;
			if (stop)	/* --prepare or --cleanup failed */
				return rc > 128 ? rc : EXIT_RUN_FAILED;
			if (rc != EXIT_OK)
				worst = EXIT_RUN_FAILED;
			if (rc == EXIT_OK && !base->run_once)
				overhead_add(&ov, sp->procs[i], series_now_s() - began -
					     (before > 0 ? sp->settle : 0) - base->warmup - base->timelimit);
			print_progress(text, runs, sp->procs[i], r, sp);
			if (sp->precision > 0 && precise(runs, sp->procs[i], sp->precision))
				break;
		}
	}
	return worst;
}

/* Each output file can be written, before hours of runs rather than after. */
static int check_destinations(const struct sweep_plan *sp)
{
	const struct { const char *path, *what; } out[] = {
		{ sp->csv_path, "CSV" }, { sp->plot_path, "the plot" }, { sp->json_path, "JSON" },
	};
	char *why = sp->plot_path ? plot_format_refusal(NULL, sp->plot_path) : NULL;

	if (why) {
		say("%s\n", why);
		talloc_free(why);
		return EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		int err = out[i].path ? outfile_check(out[i].path) : 0;
		if (err) {
			say("cannot write %s to '%s': %s\n", out[i].what,
				out[i].path, outfile_strerror(err));
			return EXIT_BAD_INPUT;
		}
		for (size_t j = 0; out[i].path && j < i; j++) {
			if (out[j].path && outfile_same(out[i].path, out[j].path)) {
				say("%s and %s would both be written to '%s': give each its own"
				    " file\n", out[j].what, out[i].what, out[i].path);
				return EXIT_BAD_INPUT;
			}
		}
	}
	return EXIT_OK;
}

int sweep_run(const struct run_plan *base, const struct sweep_plan *sp)
{
	bool json_stdout = sp->json_path && strcmp(sp->json_path, "-") == 0;
	FILE *text = json_stdout ? stderr : stdout;
	json_t *runs = json_array(), *summary = json_array();
	unsigned *repeat_of = calloc((size_t)sp->nprocs * sp->repeat, sizeof(unsigned));
	struct run_plan plan = *base;

	if (!runs || !summary || !repeat_of) {
		say("out of memory\n");
		json_decref(runs);
		json_decref(summary);
		free(repeat_of);
		return EXIT_RUN_FAILED;
	}
	plan.text_on_stderr = json_stdout;
	driver_catch_signals();	/* between runs too: the summary of those made */
	/* its files, then its clock and targets as a run checks them: a series
	 * (refused under mpirun) stops before its first run, as a run would
	 * (exit 2) */
	int rc = check_destinations(sp);
	if (rc == EXIT_OK && !driver_check_start(&plan))
		rc = EXIT_BAD_INPUT;
	if (rc == EXIT_OK)
		rc = run_all(&plan, sp, runs, repeat_of, text);
	if (rc == EXIT_BAD_INPUT && json_array_size(runs) == 0) {
		json_decref(runs);
		json_decref(summary);
		free(repeat_of);
		return rc;	/* nothing ran: no summary, no files */
	}
	if (driver_is_client()) {
		json_decref(runs);
		json_decref(summary);
		free(repeat_of);
		return rc;
	}
	for (unsigned i = 0; i < sp->nprocs; i++) {
		bool seen = false;
		for (unsigned j = 0; j < i; j++)
			seen = seen || sp->procs[j] == sp->procs[i];
		json_t *row = seen ? NULL : summarise(runs, sp->procs[i], sp->precision);
		if (row)
			json_array_append_new(summary, row);
	}
	print_summary(text, summary);
	print_short(text, summary);
	print_disks(text, summary);
	print_precision(text, summary, sp);
	int err = 0;
	if (sp->csv_path && (err = write_csv(sp->csv_path, runs, repeat_of, summary)) != 0)
		say("cannot write CSV to '%s': %s\n", sp->csv_path,
			outfile_strerror(err));
	int perr = 0;
	if (sp->plot_path && (perr = write_plot(sp, base, summary)) != 0)
		say("cannot write the plot to '%s': %s\n", sp->plot_path,
			outfile_strerror(perr));
	err = err ? err : perr;
	const struct dockey_value v[] = {
		{ DK_SWEEP_SCHEMA, json_integer(DOCKEY_SCHEMA) },
		{ DK_SWEEP_CONFIG, sweep_config(sp, base) },
		{ DK_SWEEP_RUNS, runs },
		{ DK_SWEEP_SUMMARY, summary },
	};
	json_t *doc = dockey_object(DK_SWEEP, NULL, v, LEN(v));
	int jerr = 0;
	if (sp->json_path && (jerr = report_json_dump(doc, sp->json_path)) != 0)
		say("cannot write JSON to '%s': %s\n", sp->json_path,
			outfile_strerror(jerr));
	json_decref(doc);
	free(repeat_of);
	return rc != EXIT_OK ? rc : (err || jerr) ? EXIT_RUN_FAILED : EXIT_OK;
}
