/*
 * tune.c - "dbench tune" (see tune.h): the objective, the candidates'
 * plans, the journal and the values tried before the race, the race
 * itself run by run through the driver, and every setting put back.
 * What is reported is tune_report.c's and tune_doc.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"
#include "series/series.h"
#include "series/tune_internal.h"
#include "dockey.h"
#include "driver.h"
#include "ops.h"
#include "outfile.h"
#include "progname.h"
#include "rundoc.h"

#define DEFAULT_BLOCKS 20	/* without --budget: at most the full grid of 20 */

/* ---- the objective ---- */

/* The canonical name of operation `name` in any dialect, or NULL. */
static const char *op_named(const char *name)
{
	size_t len = strlen(name);
	int t = op_lookup(name, len);

	if (t < 0)
		t = op_lookup_syscall(name, len);
	if (t < 0)
		t = op_lookup_smb(name, len);
	if (t < 0)
		t = op_lookup_block(name, len);
	return t < 0 ? NULL : op_table[t].name;
}

static bool parse_objective(struct tune *t)
{
	const char *o = t->o->objective ? t->o->objective : "throughput";

	if (strcmp(o, "throughput") == 0) {
		t->objective = TUNE_THROUGHPUT;
	} else if (strcmp(o, "probe") == 0) {
		t->objective = TUNE_PROBE;
	} else if (strncmp(o, "p99:", 4) == 0 && (t->op = op_named(o + 4))) {
		t->objective = TUNE_P99;
	} else {
		say("--objective must be throughput, p99:OPERATION (an operation of the loadfile,"
		    " p99:ReadX) or probe, not '%s'\n", o);
		return false;
	}
	return true;
}

/* The objective's figure of a run's document, NAN where it has none. */
static double objective_figure(const struct tune *t, const struct tune_run *r)
{
	switch (t->objective) {
	case TUNE_THROUGHPUT:
		return r->mb_s;
	case TUNE_P99:
		return r->p99_ms;
	case TUNE_PROBE:
		return r->probe_ms;
	}
	return NAN;
}

/* A number of an object, NAN where it is null or absent. */
static double number_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The figures of a run, from its document. */
static void run_figures(const struct tune *t, struct tune_run *r, const json_t *doc)
{
	r->mb_s = r->p99_ms = r->probe_ms = NAN;
	if (doc && rundoc_ok(doc)) {
		r->mb_s = number_or_nan(dockey_get(doc, DK_RESULT_THROUGHPUT));
		if (t->op)
			r->p99_ms = number_or_nan(dockey_get(json_object_get(dockey_get(doc, DK_OPS),
									     t->op), DK_OP_P99));
		else
			r->p99_ms = rundoc_worst_p99(doc);
		r->probe_ms = number_or_nan(dockey_get(dockey_get(doc, DK_RUN_PROBE), DK_PROBE_MAX));
	}
	r->figure = objective_figure(t, r);
}

/* ---- the plans ---- */

/* Each candidate's plan at each client count: one per distinct opt=
 * value and count, built by the command line. */
static bool make_plans(struct tune *t, TALLOC_CTX *mem_ctx, tune_plan_fn plan_for, void *arg)
{
	size_t opt = t->nsettings;

	for (size_t i = 0; i < t->nsettings; i++)
		opt = t->settings[i]->kind == SETTING_OPT ? i : opt;
	for (size_t c = 0; c < t->ncand; c++) {
		const char *words = opt < t->nsettings ? t->cand[c].value[opt] : "";
		size_t same = c;
		for (size_t d = 0; d < c; d++)
			same = same == c && strcmp(opt < t->nsettings ? t->cand[d].value[opt] : "",
						   words) == 0 ? d : same;
		t->cand[c].plan = talloc_array(t->cand, const struct run_plan *, t->nconds);
		for (size_t k = 0; k < t->nconds; k++) {
			struct run_plan *p = same < c ? NULL : talloc(mem_ctx, struct run_plan);
			if (same == c && (!p || !plan_for(arg, mem_ctx, words,
							     t->o->sweep ? t->procs[k] : 0, p))) {
				if (*words)
					say("(in candidate %s: the shared options and opt='%s')\n",
					    tune_cand_name(mem_ctx, c), words);
				return false;
			}
			t->cand[c].plan[k] = same < c ? t->cand[same].plan[k] : p;
		}
	}
	return true;
}

/* The client counts: --sweep's, or the shared options' NPROCS. */
static bool client_counts(struct tune *t, TALLOC_CTX *mem_ctx, tune_plan_fn plan_for,
			  void *arg)
{
	struct run_plan plan;

	t->nconds = t->o->sweep ? t->o->nsweep : 1;
	t->procs = talloc_array(mem_ctx, unsigned, t->nconds);
	if (t->o->sweep) {
		memcpy(t->procs, t->o->sweep, t->nconds * sizeof(*t->procs));
		return true;
	}
	if (!plan_for(arg, mem_ctx, "", 0, &plan))
		return false;
	t->procs[0] = plan.nclients;
	return true;
}

/* What the plans need checked before anything changes: --probe for its
 * objective, every target usable (as a run checks its own). */
static bool plans_usable(struct tune *t)
{
	for (size_t c = 0; c < t->ncand; c++) {
		for (size_t k = 0; k < t->nconds; k++) {
			const struct run_plan *p = t->cand[c].plan[k];
			if (t->objective == TUNE_PROBE && !p->nprobes) {
				say("--objective=probe needs --probe among the run options\n");
				return false;
			}
			bool first = true;
			for (size_t d = 0; d < c && first; d++)
				first = t->cand[d].plan[k] != p;
			if (first && !driver_check_start(p))
				return false;
		}
	}
	return true;
}

/* ---- the journal and the values tried ---- */

/* Every setting back as found, and read back; false after saying which
 * could not be (the journal is then kept). */
static bool put_back(struct tune *t)
{
	bool all = true;

	for (size_t i = 0; i < t->nsettings; i++) {
		char *err = NULL;
		if (!setting_restore(t->settings[i], &err)) {
			say("%s could not be put back as found (%s): %s\n", t->settings[i]->key,
			    t->settings[i]->found ? t->settings[i]->found : "unset", err);
			all = false;
		}
	}
	return all;
}

/* The journal, where one is needed: before the first change. */
static bool start_journal(struct tune *t, TALLOC_CTX *mem_ctx, const struct run_plan *plan)
{
	char *err = NULL, *in_way;
	bool needed = false;

	for (size_t i = 0; i < t->nsettings; i++)
		needed = needed || setting_on_machine(t->settings[i]);
	if (!needed)
		return true;
	if (!t->o->journal && !(plan->backend && plan->backend->local_clients_fd && plan->ndirs)) {
		say("the settings need a journal, and this backend has no local directory to keep"
		    " it in: give --journal=FILE\n");
		return false;
	}
	t->journal_path = t->o->journal ? talloc_strdup(mem_ctx, t->o->journal)
					: journal_path(mem_ctx, plan->dirs[0]);
	if ((in_way = journal_in_the_way(mem_ctx, t->journal_path))) {
		say("%s\n", in_way);
		return false;
	}
	if (!(t->journal = journal_write(mem_ctx, t->journal_path, t->settings, t->nsettings,
					 &err))) {
		say("%s\n", err);
		return false;
	}
	return true;
}

/* Every value of every setting written once and read back, the value as
 * found put back after each: false after saying which was refused. */
static bool try_values(struct tune *t)
{
	for (size_t i = 0; i < t->nsettings; i++) {
		struct setting *s = t->settings[i];
		for (size_t v = 0; v < s->nvalues && s->kind != SETTING_OPT; v++) {
			char *err = NULL;
			bool ok = setting_set(s, s->values[v], &err);
			if (!ok)
				say("%s: refused before the race: %s\n", setting_label(s, s, s->values[v]),
				    err);
			if (!setting_restore(s, &err)) {
				say("%s could not be put back as found (%s): %s\n", s->key,
				    s->found ? s->found : "unset", err);
				t->failed = talloc_strdup(t->ctx, "a setting could not be put back");
				return false;
			}
			if (!ok || driver_interrupt())
				return false;
		}
	}
	return true;
}

/* Remove the journal once every setting is back; say where it is kept
 * otherwise. */
static bool finish_journal(struct tune *t)
{
	char *err = NULL;

	if (!t->journal)
		return t->restored;
	if (t->restored && journal_remove(t->journal, &err))
		return true;
	if (err)
		say("%s\n", err);
	else
		say("the journal %s keeps the settings as found: dbench tune --restore"
		    " --journal=%s puts them back\n", t->journal_path, t->journal_path);
	return false;
}

/* ---- the race ---- */

/* The values of candidate c in place, each read back; false after
 * saying what failed (the race stops). */
static bool set_candidate(struct tune *t, size_t c)
{
	for (size_t i = 0; i < t->nsettings; i++) {
		char *err = NULL;
		if (!setting_set(t->settings[i], t->cand[c].value[i], &err)) {
			t->failed = talloc_asprintf(t->ctx, "%s for candidate %zu: %s",
						    setting_label(t->ctx, t->settings[i],
								  t->cand[c].value[i]), c + 1, err);
			return false;
		}
	}
	return true;
}

/* "block 4: 5 of 12 candidates left; run 3 of 10: #5 at 8 clients
 * (vm.dirty_ratio=10); about 6 min left at most". */
static void say_position(struct tune *t, unsigned block, unsigned i, unsigned n,
			 const struct tune_run *r)
{
	char d[32];
	double each = t->nruns ? (series_now_s() - t->began) / t->nruns : 0;
	unsigned left = t->budget_runs - (unsigned)t->nruns;

	fprintf(t->text, "block %u: %zu of %zu candidates left; run %u of %u: #%zu", block,
		race_nalive(t->race), t->ncand, i + 1, n, r->cand + 1);
	if (t->nconds > 1)
		fprintf(t->text, " at %u client%s", t->procs[r->cond], t->procs[r->cond] == 1 ? "" : "s");
	fprintf(t->text, " (%s)", t->cand[r->cand].label);
	if (t->nruns)
		fprintf(t->text, "; about %s left at most\n", series_duration(d, (unsigned long)(each * left)));
	else
		fprintf(t->text, "; the budget: %u runs\n", t->budget_runs);
	fflush(t->text);
}

/* --prepare before a run, with the candidate and block in its
 * environment; false when it failed or a signal came. */
static bool prepare(struct tune *t, const struct tune_run *r)
{
	char cand[24], block[16];

	if (!t->o->prepare)
		return true;
	snprintf(cand, sizeof(cand), "%zu", r->cand + 1);
	snprintf(block, sizeof(block), "%u", r->block);
	const char *env[] = { "DBENCH_CANDIDATE", cand, "DBENCH_BLOCK", block, NULL };
	char *why = series_command(NULL, t->o->prepare, env);
	if ((t->signal = driver_interrupt()) == 0 && why)
		t->failed = talloc_asprintf(t->ctx, "--prepare failed before run %zu"
					    " (candidate #%zu): %s", t->nruns + 1, r->cand + 1, why);
	talloc_free(why);
	return !t->signal && !t->failed;
}

/* One run of the block; false when the race stops there. */
static bool one_run(struct tune *t, struct tune_run *r)
{
	struct run_plan plan = *t->cand[r->cand].plan[r->cond];
	json_t *doc = NULL;
	double start;

	if (!set_candidate(t, r->cand) || !prepare(t, r))
		return false;
	plan.json_path = NULL;
	plan.result_doc = &doc;
	plan.series_position = (unsigned)t->nruns + 1;
	plan.series_runs = t->budget_runs;
	plan.series_side = tune_cand_name(t->ctx, r->cand);
	start = series_now_s();
	r->rc = driver_run(&plan);
	if (driver_is_client()) {
		t->client_rc = r->rc;	/* a client process, on its way out */
		return false;
	}
	r->seconds = series_now_s() - start;
	run_figures(t, r, doc);
	if (doc) {
		json_object_set_new((json_t *)dockey_get(doc, DK_SERIES), dockey_name(DK_SERIES_BLOCK),
				    json_integer(r->block));
		json_array_append_new(t->docs, doc);
	}
	t->runs[t->nruns++] = *r;
	race_record(t->race, r->cand, r->cond, r->figure);
	if (r->rc > 128)
		t->signal = r->rc - 128;
	else if (r->rc == EXIT_BAD_INPUT)
		t->failed = talloc_asprintf(t->ctx, "run %zu (candidate #%zu) could not start",
					    t->nruns, r->cand + 1);
	else if (r->rc != EXIT_OK)
		t->run_failed = true;
	return !t->signal && !t->failed;
}

/* Candidate c's name and label, for lines: "#4 (vm.dirty_ratio=40)". */
static char *cand_text(const struct tune *t, TALLOC_CTX *mem_ctx, size_t c)
{
	return talloc_asprintf(mem_ctx, "#%zu (%s%s)", c + 1, t->cand[c].as_found ? "as found: " : "",
			       t->cand[c].label);
}

/* A line for each candidate the block dropped, saying why. */
static void say_drops(struct tune *t, const struct race_drop *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		TALLOC_CTX *tmp = talloc_new(NULL);
		fprintf(t->text, "dropped %s after block %u: mean rank %.2f of %zu, p %.3g (%s)"
			" against %s\n", cand_text(t, tmp, d[i].cand), d[i].block, d[i].mean_rank,
			d[i].nalive, d[i].p, d[i].wilcoxon ? "Wilcoxon's signed-rank test"
			: tune_posthoc_rule(t->o->posthoc)->words,
			cand_text(t, tmp, d[i].against));
		talloc_free(tmp);
	}
	fflush(t->text);
}

/* Whether the budget leaves room for a block of `need` runs; else the
 * race ends there. */
static bool block_fits(struct tune *t, size_t need)
{
	double each = t->nruns ? (series_now_s() - t->began) / t->nruns : 0;

	if (t->nruns + need > t->budget_runs)
		return false;
	return !t->o->budget_s || !t->nruns ||
	       series_now_s() - t->began + each * need <= t->o->budget_s;
}

/* The block's runs, every candidate left at every count, in an order
 * drawn from the seed, into r; their number. */
static size_t block_order(struct tune *t, unsigned block, struct tune_run *r)
{
	size_t n = 0;

	for (size_t c = 0; c < t->ncand; c++)
		for (size_t k = 0; race_alive(t->race, c) && k < t->nconds; k++)
			r[n++] = (struct tune_run){ .cand = c, .cond = k, .block = block };
	for (size_t i = n; i > 1; i--) {	/* Fisher-Yates */
		size_t j = (size_t)(series_random(&t->rng) % i);
		struct tune_run tmp = r[i - 1];
		r[i - 1] = r[j];
		r[j] = tmp;
	}
	return n;
}

/* One block; false when the race ends with it. */
static bool one_block(struct tune *t, struct tune_run *order)
{
	size_t n = race_nalive(t->race) * t->nconds;
	const struct race_drop *drops;

	if (!block_fits(t, n)) {
		t->end = TUNE_BUDGET;
		return false;
	}
	unsigned block = race_begin_block(t->race);
	n = block_order(t, block, order);
	for (size_t i = 0; i < n; i++) {
		if (t->nruns)
			series_rest(t->o->settle, false);
		if ((t->signal = driver_interrupt()))
			break;
		say_position(t, block, (unsigned)i, (unsigned)n, &order[i]);
		if (!one_run(t, &order[i]))
			break;
	}
	if (t->signal || t->failed || driver_is_client()) {
		t->end = t->signal ? TUNE_INTERRUPTED : TUNE_FAILED;
		race_abort_block(t->race);	/* its runs are kept, not ranked */
		return false;
	}
	say_drops(t, drops, race_end_block(t->race, &drops));
	if (race_nalive(t->race) == 1)
		t->end = TUNE_ONE_LEFT;
	else if (race_equivalent(t->race))
		t->end = TUNE_EQUIVALENT;
	else
		return true;
	return false;
}

/* The race's first lines: what races, in what order, for how long. */
static void say_start(struct tune *t)
{
	fprintf(t->text, "dbench tune: %zu candidates, objective %s; blocks in a random order,"
		" seed %llu (--seed=%llu repeats it); the first test after block %u;"
		" the budget %u runs%s\n", t->ncand, tune_objective_name(t),
		(unsigned long long)t->o->seed, (unsigned long long)t->o->seed,
		t->o->first_test, t->budget_runs,
		t->o->budget_runs ? "" : t->o->budget_s ? " at most, and the time given"
		: " (20 blocks of every candidate: --budget)");
	for (size_t c = 0; c < t->ncand; c++)
		fprintf(t->text, "  #%zu %s%s\n", c + 1, t->cand[c].as_found ? "as found: " : "",
			t->cand[c].label);
	fflush(t->text);
}

static void race(struct tune *t)
{
	struct tune_run *order = talloc_array(t->ctx, struct tune_run, t->ncand * t->nconds);

	say_start(t);
	t->began = series_now_s();
	while (order && one_block(t, order))
		;
	talloc_free(order);
	if (driver_is_client())
		return;
	static const char *const why[] = {
		[TUNE_ONE_LEFT] = "one candidate left",
		[TUNE_EQUIVALENT] = "the candidates left are equivalent (--equivalent)",
		[TUNE_BUDGET] = "the budget is spent",
		[TUNE_INTERRUPTED] = "interrupted",
		[TUNE_FAILED] = "a failure stopped it",
	};
	fprintf(t->text, "The race ends after block %u, %zu runs: %s\n", race_nblocks(t->race),
		t->nruns, why[t->end]);
}

/* ---- the command ---- */

/* Everything checked before anything changes; false after saying what
 * is wrong (exit 2). */
static bool setup(struct tune *t, TALLOC_CTX *mem_ctx, tune_plan_fn plan_for, void *arg)
{
	const char *paths[] = { t->o->json_path, t->o->csv_path, t->o->plot_path };

	char *refusal = t->o->plot_path ? plot_format_refusal(mem_ctx, t->o->plot_path) : NULL;

	for (size_t i = 0; i < 3; i++) {
		int err = paths[i] && strcmp(paths[i], "-") != 0 ? outfile_check(paths[i]) : 0;
		if (err) {
			say("cannot write '%s': %s\n", paths[i], outfile_strerror(err));
			return false;
		}
	}
	if (refusal) {
		say("%s\n", refusal);
		return false;
	}
	if (!parse_objective(t) || !tune_settings(t, mem_ctx) || !tune_candidates(t, mem_ctx) ||
	    !client_counts(t, mem_ctx, plan_for, arg) || !make_plans(t, mem_ctx, plan_for, arg) ||
	    !plans_usable(t))
		return false;
	struct race_params rp = { .ncand = t->ncand, .nconds = t->nconds,
				  .first_test = t->o->first_test, .alpha = t->o->alpha,
				  .rule = tune_posthoc_rule(t->o->posthoc)->rule,
				  .equivalent = t->o->equivalent,
				  .higher_better = t->objective == TUNE_THROUGHPUT };
	t->race = race_new(mem_ctx, &rp);
	t->docs = json_array();
	t->budget_runs = t->o->budget_runs ? t->o->budget_runs
					   : (unsigned)(DEFAULT_BLOCKS * t->ncand * t->nconds);
	t->runs = talloc_array(mem_ctx, struct tune_run, t->budget_runs + 1);
	return t->race && t->docs && t->runs;
}

int tune_run(const struct tune_options *o, tune_plan_fn plan_for, void *arg)
{
	TALLOC_CTX *top = talloc_new(NULL);
	bool json_stdout = o->json_path && strcmp(o->json_path, "-") == 0;
	struct tune t = { .o = o, .ctx = top, .text = json_stdout ? stderr : stdout,
			  .rng = o->seed };
	int rc = EXIT_BAD_INPUT;

	if (!setup(&t, top, plan_for, arg))
		goto out;
	driver_catch_signals();	/* from the journal on, a signal puts everything back */
	if (!start_journal(&t, top, t.cand[0].plan[0]))
		goto out;
	bool tried = try_values(&t);
	if (tried)
		race(&t);
	if (driver_is_client()) {
		rc = t.client_rc;
		goto out;
	}
	t.restored = put_back(&t);
	bool journal_gone = finish_journal(&t);
	if (t.journal && journal_gone)
		fprintf(t.text, "Every setting is back as found and read back; the journal %s is"
			" removed\n", t.journal_path);
	if ((t.signal = t.signal ? t.signal : driver_interrupt()) && !tried)
		fprintf(t.text, "Interrupted before the race (%s): every setting %s\n",
			strsignal(t.signal), t.restored ? "is back" : "could not be put back");
	if (t.failed)
		say("%s: the race stops after %zu runs\n", t.failed, t.nruns);
	if (tried && t.nruns)
		tune_report(&t);
	bool docs = !tried || tune_documents(&t);
	rc = t.signal ? 128 + t.signal
	     : !tried && t.restored && journal_gone && !t.failed ? EXIT_BAD_INPUT
	     : t.failed || t.run_failed || !docs || !t.restored || !journal_gone ? EXIT_RUN_FAILED
									       : EXIT_OK;
out:
	json_decref(t.docs);
	talloc_free(top);
	return rc;
}

char *tune_journal_default(TALLOC_CTX *mem_ctx, const char *dir)
{
	return journal_path(mem_ctx, dir);
}

int tune_restore(const char *path)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct setting **s;
	size_t n;
	bool untrusted, all = true;
	char *err = NULL;
	int rc = EXIT_BAD_INPUT;

	if (access(path, F_OK) != 0 && errno == ENOENT) {
		printf("no journal at %s: nothing to put back\n", path);
		rc = EXIT_OK;
		goto out;
	}
	if (!journal_read(tmp, path, &s, &n, &untrusted, &err)) {
		say("%s\n", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *now = talloc_strdup(tmp, s[i]->now ? s[i]->now : "");
		if (setting_restore(s[i], &err)) {
			printf("%s: %s%s\n", s[i]->key, s[i]->found,
			       strcmp(now, s[i]->found) ? talloc_asprintf(tmp, " (was %s)", now)
							: " (as it was)");
		} else {
			say("%s could not be put back as found (%s): %s\n", s[i]->key, s[i]->found,
			    err);
			all = false;
		}
	}
	rc = all && journal_unlink(tmp, path, &err) ? EXIT_OK : EXIT_RUN_FAILED;
	if (all && rc != EXIT_OK)
		say("%s\n", err);
	else if (rc == EXIT_OK)
		printf("every setting of %s is back; the journal is removed\n", path);
	else
		say("the journal %s is kept\n", path);
out:
	talloc_free(tmp);
	return rc;
}
