/*
 * tune_doc.c - what dbench tune writes for later (see tune_internal.h):
 * --json (every run's document, as dbench compare reads them, the race
 * and the verdict), --csv (a row a run) and --plot (the race and the
 * Pareto front, plot.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dockey.h"
#include "plot.h"
#include "series/tune_internal.h"
#include "jsontext.h"
#include "outfile.h"
#include "progname.h"
#include "report.h"
#include "version.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A number, or null for NAN. */
static json_t *real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* ---- --json ---- */

static json_t *settings_json(const struct tune *t)
{
	static const char *const kind[] = {
		[SETTING_SYSCTL] = "sysctl", [SETTING_SYSFS] = "sysfs", [SETTING_MOUNT] = "mount",
		[SETTING_ENV] = "env", [SETTING_OPT] = "opt",
	};
	json_t *a = json_array();

	for (size_t i = 0; i < t->nsettings; i++) {
		const struct setting *s = t->settings[i];
		json_t *values = json_array();
		for (size_t v = 0; v < s->nvalues; v++)
			json_array_append_new(values, jsontext(s->values[v]));
		const struct dockey_value v[] = {
			{ DK_TUNE_SETTING_KEY, jsontext(s->key) },
			{ DK_TUNE_SETTING_KIND, json_string(kind[s->kind]) },
			{ DK_TUNE_SETTING_PATH, jsontext(s->path) },
			{ DK_TUNE_SETTING_FOUND, jsontext(s->found) },
			{ DK_TUNE_SETTING_VALUES, values },
		};
		json_array_append_new(a, dockey_object(DK_TUNE_SETTING, NULL, v, LEN(v)));
	}
	return a;
}

/* A candidate's figure over its runs (DK_TUNE_FIGURE). */
static json_t *figure_json(const struct tune *t, size_t c, int which)
{
	double lo, hi;
	size_t n;
	double m = tune_median(t, c, which, &lo, &hi, &n);
	const struct dockey_value v[] = {
		{ DK_TUNE_FIGURE_MEDIAN, real(m) }, { DK_TUNE_FIGURE_LOW, real(lo) },
		{ DK_TUNE_FIGURE_HIGH, real(hi) }, { DK_TUNE_FIGURE_RUNS, json_integer((json_int_t)n) },
	};

	return dockey_object(DK_TUNE_FIGURE, NULL, v, LEN(v));
}

/* Candidate c's drop, null for one not dropped. */
static json_t *dropped_json(const struct tune *t, size_t c)
{
	const struct race_drop *d = race_dropped(t->race, c);

	if (!d)
		return json_null();
	const struct dockey_value v[] = {
		{ DK_TUNE_DROP_BLOCK, json_integer((json_int_t)d->block) },
		{ DK_TUNE_DROP_MEAN_RANK, real(d->mean_rank) },
		{ DK_TUNE_DROP_OF, json_integer((json_int_t)d->nalive) },
		{ DK_TUNE_DROP_AGAINST, json_integer((json_int_t)d->against + 1) },
		{ DK_TUNE_DROP_P, real(d->p) },
		{ DK_TUNE_DROP_TEST, json_string(d->wilcoxon ? "wilcoxon"
						 : tune_posthoc_rule(t->o->posthoc)->test) },
		{ DK_TUNE_DROP_LEVEL, real(d->level) },
	};
	return dockey_object(DK_TUNE_CAND_DROPPED, NULL, v, LEN(v));
}

static json_t *candidate_json(const struct tune *t, size_t c)
{
	const struct race_drop *d = race_dropped(t->race, c);
	unsigned last = d ? d->block : race_nblocks(t->race);
	json_t *values = json_object();

	for (size_t i = 0; i < t->nsettings; i++)
		json_object_set_new(values, t->settings[i]->key, jsontext(t->cand[c].value[i]));
	const struct dockey_value v[] = {
		{ DK_TUNE_CAND_ID, json_integer((json_int_t)c + 1) },
		{ DK_TUNE_CAND_LABEL, jsontext(t->cand[c].label) },
		{ DK_TUNE_CAND_AS_FOUND, json_boolean(t->cand[c].as_found) },
		{ DK_TUNE_CAND_VALUES, values },
		{ DK_TUNE_CAND_MEAN_RANK, real(last ? race_mean_rank(t->race, c, last) : NAN) },
		{ DK_TUNE_CAND_DROPPED, dropped_json(t, c) },
		{ DK_TUNE_CAND_THROUGHPUT, figure_json(t, c, 0) },
		{ DK_TUNE_CAND_P99, figure_json(t, c, 1) },
		{ DK_TUNE_CAND_PROBE, figure_json(t, c, 2) },
	};
	return dockey_object(DK_TUNE_CAND, NULL, v, LEN(v));
}

/* Each block's mean ranks, [block][candidate], null for one not in it. */
static json_t *ranks_json(const struct tune *t)
{
	json_t *blocks = json_array();

	for (unsigned b = 1; b <= race_nblocks(t->race); b++) {
		json_t *row = json_array();
		for (size_t c = 0; c < t->ncand; c++)
			json_array_append_new(row, real(race_mean_rank(t->race, c, b)));
		json_array_append_new(blocks, row);
	}
	return blocks;
}

static json_t *verdict_json(const struct tune *t)
{
	size_t *front = malloc(t->ncand * sizeof(*front));
	struct tune_gain g;
	bool beats = tune_beats_as_found(t, &g);
	json_t *f = json_array();
	size_t n = front ? tune_front(t, front) : 0;
	for (size_t i = 0; i < n; i++)
		json_array_append_new(f, json_integer((json_int_t)front[i] + 1));
	free(front);
	const struct dockey_value against[] = {
		{ DK_TUNE_AGAINST_DIFF, real(g.mean) }, { DK_TUNE_AGAINST_LOW, real(g.lo) },
		{ DK_TUNE_AGAINST_HIGH, real(g.hi) },
		{ DK_TUNE_AGAINST_PAIRS, json_integer((json_int_t)g.pairs) },
	};
	const struct dockey_value v[] = {
		{ DK_TUNE_VERDICT_BEST, json_integer((json_int_t)g.best + 1) },
		{ DK_TUNE_VERDICT_BEATS, json_boolean(beats) },
		{ DK_TUNE_VERDICT_AGAINST,
		  dockey_object(DK_TUNE_VERDICT_AGAINST, NULL, against, LEN(against)) },
		{ DK_TUNE_VERDICT_FRONT, f },
	};
	return dockey_object(DK_TUNE_VERDICT, NULL, v, LEN(v));
}

/* How the race went (DK_TUNE_RACE). */
static json_t *race_json(const struct tune *t)
{
	static const char *const end[] = {
		[TUNE_ONE_LEFT] = "one-left", [TUNE_EQUIVALENT] = "equivalent",
		[TUNE_BUDGET] = "budget", [TUNE_INTERRUPTED] = "interrupted",
		[TUNE_FAILED] = "failed",
	};
	const struct dockey_value v[] = {
		{ DK_TUNE_RACE_BLOCKS, json_integer((json_int_t)race_nblocks(t->race)) },
		{ DK_TUNE_RACE_RUNS, json_integer((json_int_t)t->nruns) },
		{ DK_TUNE_RACE_END, json_string(end[t->end]) },
		{ DK_TUNE_RACE_LEFT, json_integer((json_int_t)race_nalive(t->race)) },
	};
	return dockey_object(DK_TUNE_RACE, NULL, v, LEN(v));
}

static json_t *tune_json(const struct tune *t)
{
	json_t *cands = json_array(), *procs = json_array();

	for (size_t c = 0; c < t->ncand; c++)
		json_array_append_new(cands, candidate_json(t, c));
	for (size_t k = 0; k < t->nconds; k++)
		json_array_append_new(procs, json_integer(t->procs[k]));
	const struct dockey_value v[] = {
		{ DK_TUNE_VERSION, json_string(DBENCH_VERSION) },
		{ DK_TUNE_OBJECTIVE, json_string(t->o->objective ? t->o->objective : "throughput") },
		{ DK_TUNE_OPERATION, t->op ? json_string(t->op) : json_null() },
		{ DK_TUNE_SEED, json_integer((json_int_t)t->o->seed) },
		{ DK_TUNE_FIRST_TEST, json_integer((json_int_t)t->o->first_test) },
		{ DK_TUNE_ALPHA, json_real(t->o->alpha) },
		{ DK_TUNE_HOLM, json_boolean(t->o->posthoc == TUNE_POSTHOC_HOLM) },
		{ DK_TUNE_POSTHOC, json_string(tune_posthoc_rule(t->o->posthoc)->name) },
		{ DK_TUNE_EQUIVALENT, json_real(t->o->equivalent) },
		{ DK_TUNE_BUDGET_RUNS, json_integer((json_int_t)t->budget_runs) },
		{ DK_TUNE_BUDGET_S, json_integer((json_int_t)t->o->budget_s) },
		{ DK_TUNE_PROCS, procs },
		{ DK_TUNE_SETTINGS, settings_json(t) },
		{ DK_TUNE_CANDIDATES, cands },
		{ DK_TUNE_MEAN_RANKS, ranks_json(t) },
		{ DK_TUNE_RACE, race_json(t) },
		{ DK_TUNE_VERDICT, verdict_json(t) },
		{ DK_TUNE_RESTORED, json_boolean(t->restored) },
		{ DK_TUNE_JOURNAL, jsontext(t->journal_path) },
	};
	return dockey_object(DK_TUNE_CONFIG, NULL, v, LEN(v));
}

/* ---- --csv ---- */

static void csv_field(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputs(",", f);
}

static int write_csv(const struct tune *t)
{
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, t->o->csv_path, &f, &err);

	if (!o)
		return err;
	fprintf(f, "run,block,candidate,as_found,nprocs,exit_code,throughput_mb_s,p99_ms,"
		"probe_max_ms,figure,seconds,label\n");
	for (size_t i = 0; i < t->nruns; i++) {
		const struct tune_run *r = &t->runs[i];
		fprintf(f, "%zu,%u,%zu,%d,%u,%d", i + 1, r->block, r->cand + 1,
			t->cand[r->cand].as_found, t->procs[r->cond], r->rc);
		csv_field(f, r->mb_s);
		csv_field(f, r->p99_ms);
		csv_field(f, r->probe_ms);
		csv_field(f, r->figure);
		csv_field(f, r->seconds);
		fputs(",\"", f);
		for (const char *p = t->cand[r->cand].label; *p; p++)
			fprintf(f, *p == '"' ? "\"\"" : "%c", *p);
		fputs("\"\n", f);
	}
	return outfile_commit(o);
}

/* ---- --plot ---- */

/* The race panel: each candidate's mean rank block by block. */
static struct plot_xy_series *race_series(const struct tune *t, TALLOC_CTX *ctx)
{
	struct plot_xy_series *s = talloc_zero_array(ctx, struct plot_xy_series, t->ncand);
	unsigned nb = race_nblocks(t->race);

	for (size_t c = 0; s && c < t->ncand; c++) {
		double *x = talloc_array(s, double, nb + 1), *y = talloc_array(s, double, nb + 1);
		const struct race_drop *d = race_dropped(t->race, c);
		unsigned last = d ? d->block : nb;
		for (unsigned b = 1; b <= last; b++) {
			x[b - 1] = b;
			y[b - 1] = race_mean_rank(t->race, c, b);
		}
		s[c] = (struct plot_xy_series){
			.name = talloc_asprintf(s, "#%zu %s%s%s", c + 1, t->cand[c].as_found ?
						"as found: " : "", t->cand[c].label,
						d ? talloc_asprintf(s, " (dropped after block %u)",
								    d->block) : ""),
			.x = x, .y = y, .n = last, .line = true, .points = true, .color = (int)c,
		};
	}
	return s;
}

/* The front panel: every candidate a point, the front joined. */
static struct plot_xy_series *front_series(const struct tune *t, TALLOC_CTX *ctx)
{
	struct plot_xy_series *s = talloc_zero_array(ctx, struct plot_xy_series, 2);
	double *x = talloc_array(ctx, double, t->ncand), *y = talloc_array(ctx, double, t->ncand);
	double *fx = talloc_array(ctx, double, t->ncand), *fy = talloc_array(ctx, double, t->ncand);
	const char **labels = talloc_array(ctx, const char *, t->ncand);
	size_t *front = talloc_array(ctx, size_t, t->ncand), n = tune_front(t, front), k;
	double lo, hi;

	for (size_t c = 0; c < t->ncand; c++) {
		y[c] = tune_median(t, c, 0, &lo, &hi, &k);
		x[c] = tune_median(t, c, 1, &lo, &hi, &k);
		labels[c] = tune_cand_name(ctx, c);
	}
	for (size_t i = 0; i < n; i++) {	/* along the p99 axis */
		fx[i] = x[front[n - 1 - i]];
		fy[i] = y[front[n - 1 - i]];
	}
	s[0] = (struct plot_xy_series){ .name = "candidates (median MB/sec against median p99)",
					.x = x, .y = y, .n = t->ncand, .points = true,
					.labels = labels, .color = 0 };
	s[1] = (struct plot_xy_series){ .name = "the Pareto front", .x = fx, .y = fy, .n = n,
					.line = true, .points = true, .color = 1 };
	return s;
}

static int write_plot(const struct tune *t)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct plot_xy_panel panels[2] = {
		{ .xlabel = "block", .ylabel = "mean rank so far (1 = best)", .y_down = true,
		  .x_integer = true, .series = race_series(t, tmp), .nseries = t->ncand },
		{ .xlabel = t->op ? talloc_asprintf(tmp, "p99 of %s, ms", t->op)
				  : "p99 of the worst operation, ms",
		  .ylabel = "MB/sec", .series = front_series(t, tmp), .nseries = 2 },
	};
	char *title = talloc_asprintf(tmp, "dbench tune: %zu candidates, %u blocks, %zu runs",
				      t->ncand, race_nblocks(t->race), t->nruns);
	int err = plot_xy_svg(t->o->plot_path, title, panels, 2);

	talloc_free(tmp);
	return err;
}

bool tune_documents(const struct tune *t)
{
	int err;
	bool ok = true;

	if (t->o->json_path) {
		const struct dockey_value v[] = {
			{ DK_TUNE_SCHEMA, json_integer(DOCKEY_SCHEMA) },
			{ DK_TUNE_CONFIG, tune_json(t) },
			{ DK_TUNE_RUNS, json_incref(t->docs) },
		};
		json_t *doc = dockey_object(DK_TUNE, NULL, v, LEN(v));
		if ((err = report_json_dump(doc, t->o->json_path))) {
			say("cannot write JSON to '%s': %s\n", t->o->json_path, outfile_strerror(err));
			ok = false;
		}
		json_decref(doc);
	}
	if (t->o->csv_path && (err = write_csv(t))) {
		say("cannot write '%s': %s\n", t->o->csv_path, outfile_strerror(err));
		ok = false;
	}
	if (t->o->plot_path && t->nruns && (err = write_plot(t))) {
		say("cannot write '%s': %s\n", t->o->plot_path, outfile_strerror(err));
		ok = false;
	}
	return ok;
}
