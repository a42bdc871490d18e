/*
 * ab.c - "dbench ab" (see ab.h): the order of the runs, the series with
 * its --prepare command (series.h), its rests and the time left, the
 * document of both sides, and compare's report on them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "series/ab_seq.h"
#include "compare_parts.h"
#include "series/series.h"
#include "driver.h"
#include "jsontext.h"
#include "outfile.h"
#include "progname.h"
#include "report.h"
#include "version.h"

static const char *const side_name[2] = { "A", "B" };

void ab_say_side(int s, const char *opts)
{
	say("(in side %s's run: the shared options and --%c='%s')\n", side_name[s], "ab"[s],
	    opts && *opts ? opts : "");
}

/* ---- the order ---- */

void ab_order(unsigned char *order, unsigned runs, bool random, uint64_t seed)
{
	uint64_t state = seed;

	for (unsigned pair = 0; pair < runs; pair++) {
		/* A B, B A, A B, ...: the pattern A B B A, or a coin per pair */
		unsigned first = random ? (unsigned)(series_random(&state) >> 63) : pair % 2;
		order[2 * pair] = (unsigned char)first;
		order[2 * pair + 1] = (unsigned char)!first;
	}
}

/* ---- the series ---- */

struct series {
	const struct ab_plan *ap;
	const struct run_plan *plan[2];
	unsigned char *order;
	unsigned total;		/* 2 * runs */
	json_t *runs;		/* each run's document, in order */
	FILE *text;
	double began;		/* the first run's start, monotonic seconds */
	unsigned done;		/* runs made (their documents or not) */
	int signal;		/* the signal that stopped it, or 0 */
	char *failed;		/* why it stopped otherwise, or NULL */
	bool run_failed;	/* a run failed and the series went on */
	int client_rc;		/* in a client process: its exit status */
	struct ab_seq *seq;	/* --runs=auto: its looks, else NULL */
};

/* "Run 3 of 10: side B (-F); about 2 min 10 s left": the time left from
 * the runs made so far, or before the first as planned. */
static void print_position(struct series *s, unsigned i)
{
	const struct run_plan *p = s->plan[s->order[i]];
	const char *opts = s->order[i] ? s->ap->b_options : s->ap->a_options;
	unsigned left = s->total - i;
	char t[32];
	double each = i ? (series_now_s() - s->began) / i
			: p->warmup + p->timelimit + (s->total > 1 ? s->ap->settle : 0);

	fprintf(s->text, "Run %u of %s%u: side %s (%s)", i + 1, s->seq ? "at most " : "", s->total,
		side_name[s->order[i]], *opts ? opts : "the common options alone");
	if (p->run_once && i == 0)
		fprintf(s->text, "; no time left to tell yet (--run-once)\n");
	else
		fprintf(s->text, "; about %s left%s\n", series_duration(t, (unsigned long)(left * each)),
			i ? "" : " (warmup + time limit + settle per run)");
	fflush(s->text);
}

/* Run i of the series; false when the series stops there. */
static bool one_run(struct series *s, unsigned i, int *rc)
{
	int side = s->order[i];
	struct run_plan plan = *s->plan[side];
	json_t *doc = NULL;

	if (s->ap->prepare) {
		const char *env[] = { "DBENCH_SIDE", side_name[side], NULL };
		char *why = series_command(NULL, s->ap->prepare, env);
		if ((s->signal = driver_interrupt())) {
			talloc_free(why);	/* the signal stopped it */
			return false;
		}
		if (why) {
			s->failed = talloc_asprintf(NULL, "--prepare failed before run %u (side %s):"
						    " %s", i + 1, side_name[side], why);
			talloc_free(why);
			return false;
		}
	}
	plan.json_path = NULL;
	plan.result_doc = &doc;
	plan.series_position = i + 1;
	plan.series_runs = s->total;
	plan.series_side = side_name[side];
	*rc = driver_run(&plan);
	if (driver_is_client()) {
		s->client_rc = *rc;	/* a client process, on its way out */
		return false;
	}
	s->done++;
	if (doc)
		json_array_append_new(s->runs, doc);
	if (*rc > 128)
		s->signal = *rc - 128;
	else if (*rc == EXIT_BAD_INPUT)	/* a target gone between runs, say */
		s->failed = talloc_asprintf(NULL, "run %u (side %s) could not start", i + 1,
					    side_name[side]);
	else if (*rc != EXIT_OK)
		s->run_failed = true;
	return *rc <= 128 && *rc != EXIT_BAD_INPUT;
}

/* The throughput of side's successful runs so far, into v; their
 * number. */
static size_t side_figures(const struct series *s, const char *side, double *v)
{
	size_t n = 0, i;
	json_t *run;

	json_array_foreach(s->runs, i, run) {
		const char *of = json_string_value(dockey_get(run, DK_SERIES_SIDE));
		if (of && strcmp(of, side) == 0 && rundoc_ok(run))
			v[n++] = rundoc_number(run, DK_RESULT_THROUGHPUT);
	}
	return n;
}

/* --runs=auto after run i: a look once each side has as many runs (a
 * pair is done); true when it decides the test. */
static bool look(struct series *s, unsigned i)
{
	double *a = malloc((i + 1) * sizeof(*a)), *b = malloc((i + 1) * sizeof(*b));
	bool decided = false;

	if (s->seq && a && b && (i + 1) % 2 == 0)
		decided = ab_seq_look(s->seq, s->text, (i + 1) / 2, a, side_figures(s, "A", a), b,
				      side_figures(s, "B", b));
	free(a);
	free(b);
	return decided;
}

/* Every run in order, until one stops the series or a look decides. */
static void run_series(struct series *s)
{
	s->began = series_now_s();
	for (unsigned i = 0; i < s->total; i++) {
		int rc = EXIT_OK;
		if (i > 0)
			series_rest(s->ap->settle, false);
		if ((s->signal = driver_interrupt()))
			return;
		print_position(s, i);
		if (!one_run(s, i, &rc) || look(s, i))
			return;
	}
}

/* ---- the document and the verdict ---- */

static json_t *ab_config(const struct series *s)
{
	json_t *order = json_array();

	for (unsigned i = 0; i < s->total; i++)
		json_array_append_new(order, json_string(side_name[s->order[i]]));
	const struct dockey_value v[] = {
		{ DK_AB_VERSION, json_string(DBENCH_VERSION) },
		{ DK_AB_RUNS_A_SIDE, json_integer(s->ap->runs) },
		{ DK_AB_ORDER, json_string(s->ap->random ? "random" : "abba") },
		{ DK_AB_SEED, s->ap->random ? json_integer((json_int_t)s->ap->seed) : json_null() },
		{ DK_AB_SEQUENCE, order },
		{ DK_AB_SETTLE, json_integer(s->ap->settle) },
		{ DK_AB_PREPARE, jsontext(s->ap->prepare) },
		{ DK_AB_A_OPTIONS, jsontext(s->ap->a_options) },
		{ DK_AB_B_OPTIONS, jsontext(s->ap->b_options) },
		{ DK_AB_RUNS_DONE, json_integer(s->done) },
		{ DK_AB_COMPLETE, json_boolean((s->done == s->total || (s->seq && s->seq->decided_at)) &&
					       !s->signal && !s->failed) },
		{ DK_AB_SEQUENTIAL, s->seq ? ab_seq_json(s->seq) : json_null() },
	};
	return dockey_object(DK_AB_CONFIG, NULL, v, sizeof(v) / sizeof(v[0]));
}

/* Compare's report on the two sides of doc; its exit status, or 1 when
 * a side has no successful run to judge. */
static int verdict(FILE *out, json_t *doc, const struct ab_plan *ap, const struct ab_seq *seq)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char *err = NULL;
	/* after looks, at the last look's level: what its boundary allows */
	struct compare_options opt = { .alpha = seq ? seq->level : ap->alpha,
				       .fail_above = ap->fail_above, .all = ap->all };
	struct rundoc *whole = rundoc_from_json(tmp, ap->json_path ? ap->json_path : "dbench ab",
						json_incref(doc), &err);
	struct rundoc *a = NULL, *b = NULL;
	int rc = EXIT_RUN_FAILED;

	if (whole && rundoc_ab_sides(tmp, whole, &a, &b, &err) && compare_common(a, b)) {
		const struct rundoc *sides[2] = { a, b };
		fputc('\n', out);
		rc = compare_report(out, sides, 2, &opt);
	} else {
		fprintf(out, "\nNo verdict: %s\n", err ? err : "the sides share no run");
	}
	talloc_free(tmp);
	return rc;
}

/* The series' first line: its runs and their order. */
static void say_order(const struct series *s)
{
	const struct ab_plan *ap = s->ap;

	fprintf(s->text, "dbench ab: %s%u run%s a side, in the order", ap->auto_runs ? "at most " : "",
		ap->runs, ap->runs == 1 ? "" : "s");
	for (unsigned i = 0; i < s->total; i++)
		fprintf(s->text, " %s", side_name[s->order[i]]);
	if (ap->random)
		fprintf(s->text, " (random, seed %llu: --seed=%llu repeats it)\n",
			(unsigned long long)ap->seed, (unsigned long long)ap->seed);
	else
		fprintf(s->text, " (counterbalanced)\n");
	if (ap->auto_runs)
		fprintf(s->text, "A look after every pair of runs from 3 a side on, each at the level"
			" that O'Brien and Fleming's alpha spending leaves it: the series stops once"
			" the test is decided\n");
}

/* What the series came to, before the report. */
static void say_end(const struct series *s)
{
	if (s->failed)
		say("%s: the series stops after %u of %u runs\n", s->failed, s->done, s->total);
	if (s->signal)
		fprintf(s->text, "\nInterrupted after %u of %u runs (%s): what they show\n", s->done,
			s->total, strsignal(s->signal));
	if (s->seq && s->seq->decided_at)
		fprintf(s->text, "\nDecided at %u runs a side: the report judges at the level of"
			" that look, %.3g\n", s->seq->decided_at, s->seq->level);
	else if (s->seq)
		fprintf(s->text, "\nUndecided after %u runs a side: the report judges at the level"
			" of the last look, %.3g\n", s->done / 2, s->seq->level);
}

/* Both sides' clocks and targets, before the first run, as a run checks
 * its own: a series stops there rather than in its third run. */
static bool sides_usable(const struct ab_plan *ap, const struct run_plan *pa,
			 const struct run_plan *pb)
{
	if (!driver_check_start(pa)) {
		ab_say_side(0, ap->a_options);
		return false;
	}
	if (!driver_check_start(pb)) {
		ab_say_side(1, ap->b_options);
		return false;
	}
	return true;
}

int ab_run(const struct run_plan *a, const struct run_plan *b, const struct ab_plan *ap)
{
	bool json_stdout = ap->json_path && strcmp(ap->json_path, "-") == 0;
	struct run_plan pa = *a, pb = *b;
	struct series s = { .ap = ap, .plan = { &pa, &pb }, .total = 2 * ap->runs,
			    .runs = json_array(), .text = json_stdout ? stderr : stdout };
	int err = ap->json_path && !json_stdout ? outfile_check(ap->json_path) : 0, rc;
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct ab_seq seq;

	pa.text_on_stderr = pb.text_on_stderr = json_stdout;
	s.order = talloc_array(tmp, unsigned char, s.total ? s.total : 1);
	if (!s.order || !s.runs || (ap->auto_runs && !ab_seq_init(tmp, &seq, ap))) {
		say("out of memory\n");
		json_decref(s.runs);
		talloc_free(tmp);
		return EXIT_RUN_FAILED;
	}
	s.seq = ap->auto_runs ? &seq : NULL;
	if (err)
		say("cannot write JSON to '%s': %s\n", ap->json_path, outfile_strerror(err));
	if (err || !sides_usable(ap, &pa, &pb)) {
		json_decref(s.runs);
		json_decref(s.seq ? seq.looks : NULL);
		talloc_free(tmp);
		return EXIT_BAD_INPUT;
	}
	ab_order(s.order, ap->runs, ap->random, ap->seed);
	say_order(&s);
	driver_catch_signals();
	run_series(&s);
	if (driver_is_client()) {
		json_decref(s.runs);
		talloc_free(tmp);
		return s.client_rc;
	}
	const struct dockey_value v[] = {
		{ DK_AB_SCHEMA, json_integer(DOCKEY_SCHEMA) },
		{ DK_AB_CONFIG, ab_config(&s) },
		{ DK_AB_RUNS, s.runs },
	};
	json_t *doc = dockey_object(DK_AB, NULL, v, sizeof(v) / sizeof(v[0]));
	say_end(&s);
	rc = verdict(s.text, doc, ap, s.seq);
	int jerr = ap->json_path ? report_json_dump(doc, ap->json_path) : 0;
	if (jerr)
		say("cannot write JSON to '%s': %s\n", ap->json_path, outfile_strerror(jerr));
	json_decref(doc);
	json_decref(s.seq ? seq.looks : NULL);
	talloc_free(s.failed);
	talloc_free(tmp);
	if (s.signal)
		return 128 + s.signal;
	if (s.failed || s.run_failed || jerr)
		return EXIT_RUN_FAILED;
	return rc;
}
