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

#include "plot.h"
#include "series/tune_internal.h"
#include "jsontext.h"
#include "outfile.h"
#include "progname.h"
#include "report.h"
#include "version.h"

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
		json_array_append_new(a, json_pack("{s:o, s:s, s:o, s:o, s:o}", "key", jsontext(s->key),
						   "kind", kind[s->kind], "path", jsontext(s->path),
						   "found", jsontext(s->found), "values", values));
	}
	return a;
}

/* {"median", "low", "high", "runs"} of a candidate's figure. */
static json_t *figure_json(const struct tune *t, size_t c, int which)
{
	double lo, hi;
	size_t n;
	double m = tune_median(t, c, which, &lo, &hi, &n);

	return json_pack("{s:o, s:o, s:o, s:I}", "median", real(m), "low", real(lo), "high",
			 real(hi), "runs", (json_int_t)n);
}

static json_t *candidate_json(const struct tune *t, size_t c)
{
	const struct race_drop *d = race_dropped(t->race, c);
	unsigned last = d ? d->block : race_nblocks(t->race);
	json_t *values = json_object(), *dropped = json_null();

	for (size_t i = 0; i < t->nsettings; i++)
		json_object_set_new(values, t->settings[i]->key, jsontext(t->cand[c].value[i]));
	if (d)
		dropped = json_pack("{s:I, s:f, s:I, s:I, s:f, s:s}", "block", (json_int_t)d->block,
				    "mean_rank", d->mean_rank, "of", (json_int_t)d->nalive,
				    "against", (json_int_t)d->against + 1, "p", d->p, "test",
				    d->wilcoxon ? "wilcoxon" : "friedman-conover-holm");
	return json_pack("{s:I, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "id", (json_int_t)c + 1,
			 "label", jsontext(t->cand[c].label), "as_found", t->cand[c].as_found,
			 "values", values, "mean_rank",
			 real(last ? race_mean_rank(t->race, c, last) : NAN), "dropped", dropped,
			 "throughput_mb_s", figure_json(t, c, 0), "p99_ms", figure_json(t, c, 1),
			 "probe_max_ms", figure_json(t, c, 2));
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
	size_t best = race_best(t->race), pairs = 0, *front = malloc(t->ncand * sizeof(*front));
	double mean = NAN, lo = NAN, hi = NAN;
	json_t *f = json_array();

	if (best != 0)
		race_paired_diff(t->race, best, 0, 0.95, &mean, &lo, &hi, &pairs);
	bool beats = best != 0 && (t->objective == TUNE_THROUGHPUT ? lo > 0 : hi < 0);
	size_t n = front ? tune_front(t, front) : 0;
	for (size_t i = 0; i < n; i++)
		json_array_append_new(f, json_integer((json_int_t)front[i] + 1));
	free(front);
	return json_pack("{s:I, s:b, s:{s:o, s:o, s:o, s:I}, s:o}", "best", (json_int_t)best + 1,
			 "beats_as_found", beats, "against_as_found", "diff_pct", real(mean),
			 "low", real(lo), "high", real(hi), "pairs", (json_int_t)pairs,
			 "pareto_front", f);
}

static json_t *tune_json(const struct tune *t)
{
	static const char *const end[] = {
		[TUNE_ONE_LEFT] = "one-left", [TUNE_EQUIVALENT] = "equivalent",
		[TUNE_BUDGET] = "budget", [TUNE_INTERRUPTED] = "interrupted",
		[TUNE_FAILED] = "failed",
	};
	json_t *cands = json_array(), *procs = json_array();

	for (size_t c = 0; c < t->ncand; c++)
		json_array_append_new(cands, candidate_json(t, c));
	for (size_t k = 0; k < t->nconds; k++)
		json_array_append_new(procs, json_integer(t->procs[k]));
	return json_pack("{s:s, s:s, s:s?, s:I, s:I, s:f, s:f, s:I, s:I, s:o, s:o, s:o, s:o, s:{s:I,"
			 " s:I, s:s, s:I}, s:o, s:b, s:o}",
			 "dbench_version", DBENCH_VERSION, "objective",
			 t->o->objective ? t->o->objective : "throughput", "operation", t->op,
			 "seed", (json_int_t)t->o->seed, "first_test", (json_int_t)t->o->first_test,
			 "alpha", t->o->alpha, "equivalent_pct", t->o->equivalent,
			 "budget_runs", (json_int_t)t->budget_runs, "budget_s",
			 (json_int_t)t->o->budget_s, "procs", procs, "settings", settings_json(t),
			 "candidates", cands, "mean_ranks", ranks_json(t), "race", "blocks",
			 (json_int_t)race_nblocks(t->race), "runs", (json_int_t)t->nruns, "end",
			 end[t->end], "left", (json_int_t)race_nalive(t->race), "verdict",
			 verdict_json(t), "restored", t->restored, "journal",
			 jsontext(t->journal_path));
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
		json_t *doc = json_pack("{s:o, s:O}", "tune", tune_json(t), "runs", t->docs);
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
