/*
 * cli_tune.c - the command line of "dbench tune" (tune.h): its own
 * options into struct tune_options, and each candidate's run plan built
 * by cli_parse() from the options every run shares with the candidate's
 * opt= words added (cli_series.h).  Runs nothing itself: tune_run() and
 * tune_restore() do.
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "badopt.h"
#include "cli.h"
#include "cli_series.h"
#include "cli_tune.h"
#include "cluster.h"
#include "progname.h"
#include "sweep.h"
#include "tune.h"

/* tune's own options as popt fills them. */
struct tune_words {
	const char **sets;
	char *candidates, *sweep, *objective, *budget, *seed, *prepare, *journal;
	char *json, *csv, *plot, *posthoc;
	int first_test, no_holm, settle, restore, help;
	double alpha, equivalent;
};

static struct poptOption *tune_table(struct tune_words *w)
{
	static struct poptOption t[22];
	const struct poptOption table[] = {
		{ "set", 0, POPT_ARG_ARGV, &w->sets, 0,
		  "a setting and the values to race (again for another): a sysctl"
		  " (vm.dirty_ratio=10,20,40), a file under /sys, mount:/PATH=OPTIONS,..."
		  " (remounted with them added; '+' joins several), env:NAME=... or opt=... (the"
		  " run's own options; '' for none)", "KEY=V1,V2" },
		{ "candidates", 0, POPT_ARG_STRING, &w->candidates, 0,
		  "the candidates a line each, KEY=VALUE words (instead of --set's combinations)",
		  "FILE" },
		{ "sweep", 0, POPT_ARG_STRING, &w->sweep, 0,
		  "client counts a candidate must do well at, each a block of its own"
		  " (instead of NPROCS)", "N1,N2,..." },
		{ "objective", 0, POPT_ARG_STRING, &w->objective, 0,
		  "what the race ranks: throughput (default), p99:OPERATION or probe (the"
		  " --probe listing's longest); every one is measured in every run", "WHAT" },
		{ "first-test", 0, POPT_ARG_INT, &w->first_test, 0,
		  "blocks before the first test (default 5)", "K" },
		{ "alpha", 0, POPT_ARG_DOUBLE, &w->alpha, 0,
		  "significance level of the race's tests (default 0.05)", "P" },
		{ "posthoc", 0, POPT_ARG_STRING, &w->posthoc, 0,
		  "how the comparisons with the best drop a candidate: best (Hsu's, one-sided"
		  " against Dunnett's bound; default), holm (Holm's correction) or none (as F-Race"
		  " does)", "RULE" },
		{ "no-holm", 0, POPT_ARG_NONE, &w->no_holm, 0, "the same as --posthoc=none", NULL },
		{ "budget", 0, POPT_ARG_STRING, &w->budget, 0,
		  "at most this many runs, or this long (90s, 30m, 2h); default 20 blocks of"
		  " every candidate", "RUNS|TIME" },
		{ "equivalent", 0, POPT_ARG_DOUBLE, &w->equivalent, 0,
		  "end the race when every candidate left is within PCT percent of the best",
		  "PCT" },
		{ "seed", 0, POPT_ARG_STRING, &w->seed, 0,
		  "the seed of the runs' order (default: from the clock; printed)", "N" },
		{ "settle", 0, POPT_ARG_INT, &w->settle, 0,
		  "sync, then rest this long between runs (default 3)", "SECS" },
		{ "prepare", 0, POPT_ARG_STRING, &w->prepare, 0,
		  "run CMD through /bin/sh before every run, with DBENCH_CANDIDATE and"
		  " DBENCH_BLOCK in its environment", "CMD" },
		{ "journal", 0, POPT_ARG_STRING, &w->journal, 0,
		  "keep the settings as found here (default: .dbench-tune-journal in the first"
		  " target directory)", "FILE" },
		{ "restore", 0, POPT_ARG_NONE, &w->restore, 0,
		  "put back the settings of a tune that was killed, from its journal", NULL },
		{ "json", 0, POPT_ARG_STRING, &w->json, 0,
		  "write every run, the race and the verdict to FILE (- for stdout)", "FILE" },
		{ "csv", 0, POPT_ARG_STRING, &w->csv, 0, "write a row a run to FILE", "FILE" },
		{ "plot", 0, POPT_ARG_STRING, &w->plot, 0,
		  "draw the race and the Pareto front as SVG in FILE", "FILE" },
		{ "help", '?', POPT_ARG_NONE, &w->help, 0, "show this help message", NULL },
		POPT_TABLEEND
	};
	memcpy(t, table, sizeof(table));
	return t;
}

/* --budget: a count of runs, or a time with its unit. */
static const char *parse_budget(const char *s, struct tune_options *o)
{
	char *end;
	errno = 0;
	unsigned long v = s && *s != '-' ? strtoul(s, &end, 10) : 0;

	if (!s)
		return NULL;
	if (errno || end == s || v == 0 || v > 100000000)
		return "--budget must be a number of runs (60) or a time (90s, 30m, 2h)";
	if (!*end)
		o->budget_runs = (unsigned)v;
	else if (strcmp(end, "s") == 0 || strcmp(end, "m") == 0 || strcmp(end, "min") == 0 ||
		 strcmp(end, "h") == 0)
		o->budget_s = (unsigned)(v * (*end == 'h' ? 3600 : *end == 'm' ? 60 : 1));
	else
		return "--budget must be a number of runs (60) or a time (90s, 30m, 2h)";
	return NULL;
}

/* What is wrong with tune's own options, or NULL; o filled from them. */
static const char *bad_tune_option(TALLOC_CTX *ctx, const struct tune_words *w,
				   struct tune_options *o)
{
	char *end, *err = NULL;
	unsigned *procs;
	unsigned n;

	if (!w->sets && !w->candidates)
		return "dbench tune needs --set KEY=V1,V2,... or --candidates=FILE";
	if (w->sets && w->candidates)
		return "--set and --candidates do not go together: the file's lines are the"
		       " candidates";
	if (w->first_test < 2 || w->first_test > 1000)
		return "--first-test must be from 2 to 1000";
	if (!(w->alpha > 0 && w->alpha < 1))
		return "--alpha must lie between 0 and 1";
	if (!(w->equivalent >= 0 && w->equivalent < 100))
		return "--equivalent must be a percentage from 0 to 100";
	o->posthoc = w->no_holm ? TUNE_POSTHOC_NONE : TUNE_POSTHOC_BEST;
	if (w->posthoc && (w->no_holm || !tune_posthoc_parse(w->posthoc, &o->posthoc)))
		return w->no_holm ? "--no-holm and --posthoc do not go together: --no-holm is"
				    " --posthoc=none"
				  : "--posthoc must be best, holm or none";
	if (w->settle < 0 || w->settle > 86400)
		return "--settle must be from 0 to 86400 seconds";
	errno = 0;
	o->seed = w->seed ? strtoull(w->seed, &end, 10)
			  : (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	if (w->seed && (!*w->seed || *end || errno || *w->seed == '-'))
		return "--seed must be a whole number";
	if (w->sweep && !sweep_parse_list(ctx, w->sweep, &procs, &n, &err))
		return err;
	if (w->sweep) {
		o->sweep = procs;
		o->nsweep = n;
	}
	if ((w->json && !*w->json) || (w->csv && !*w->csv) || (w->plot && !*w->plot) ||
	    (w->journal && !*w->journal) || (w->candidates && !*w->candidates))
		return "--json, --csv, --plot, --journal and --candidates need a file name";
	if (w->prepare && !*w->prepare)
		return "--prepare needs a command";
	if (cluster_mpi())
		return "dbench tune does not run under mpirun";
	return parse_budget(w->budget, o);
}

/* ---- the candidates' plans ---- */

/* What tune_run() needs to build a plan: the shared words. */
struct shared {
	const char **common;
	int ncommon;
};

/* A candidate's plan (tune_plan_fn): the shared words, its opt= words,
 * then the client count when the race sweeps. */
static bool candidate_plan(void *arg, TALLOC_CTX *mem_ctx, const char *words, unsigned nprocs,
			   struct run_plan *plan)
{
	const struct shared *sh = arg;
	char *count = nprocs ? talloc_asprintf(mem_ctx, "%u", nprocs) : NULL, *text;
	struct cli *cli = talloc_zero(mem_ctx, struct cli);

	if (!cli || !cli_series_plan(mem_ctx, "opt", words, sh->common, sh->ncommon, count, cli,
				     &text))
		return false;
	if (cli->action == CLI_RUN && cli->plan.json_path) {
		say("--json in a candidate's or the shared options: dbench tune's own --json=FILE"
		    " holds every run\n");
		return false;
	}
	if (cli->action == CLI_SWEEP)
		say("dbench tune makes its own series: --sweep, --repeat and --precision of a run"
		    " do not go with it (its own --sweep=N1,N2 races at those counts)\n");
	else if (cli->action != CLI_RUN && (cli->action != CLI_EXIT || cli->exit_code == EXIT_OK))
		say("dbench tune takes the options of a run, not --help, --version or"
		    " --check-loadfile\n");
	if (cli->action != CLI_RUN)
		return false;
	*plan = cli->plan;
	return true;
}

/* --restore's journal: --journal=FILE, or the default in -D DIR (the one
 * run option it takes), or in ".". */
static char *restore_path(TALLOC_CTX *ctx, const struct tune_words *w, const char **common,
			  int n)
{
	const char *dir = ".";

	for (int i = 0; i < n; i++) {
		if ((strcmp(common[i], "-D") == 0 || strcmp(common[i], "--directory") == 0) &&
		    i + 1 < n && dir[0] == '.' && !dir[1])
			dir = common[++i];
		else if (strncmp(common[i], "--directory=", 12) == 0 && dir[0] == '.' && !dir[1])
			dir = common[i] + 12;
		else if (strncmp(common[i], "-D", 2) == 0 && common[i][2] && dir[0] == '.' && !dir[1])
			dir = common[i] + 2;
		else {
			say("--restore takes --journal=FILE or one -D DIR, nothing else of a run:"
			    " '%s'\n", common[i]);
			return NULL;
		}
	}
	return w->journal ? talloc_strdup(ctx, w->journal) : tune_journal_default(ctx, dir);
}

/* The options as popt left them, into o. */
static void fill_options(const struct tune_words *w, struct tune_options *o)
{
	size_t n = 0;

	while (w->sets && w->sets[n])
		n++;
	o->sets = w->sets;
	o->nsets = n;
	o->candidates = w->candidates;
	o->objective = w->objective;
	o->first_test = (unsigned)w->first_test;
	o->alpha = w->alpha;
	o->equivalent = w->equivalent;
	o->settle = (unsigned)w->settle;
	o->prepare = w->prepare;
	o->journal = w->journal;
	o->json_path = w->json;
	o->csv_path = w->csv;
	o->plot_path = w->plot;
}

static void free_words(struct tune_words *w)
{
	for (size_t i = 0; w->sets && w->sets[i]; i++)
		free((char *)w->sets[i]);	/* popt's copies, each its own */
	free(w->sets);
	free(w->candidates), free(w->sweep), free(w->objective), free(w->budget);
	free(w->seed), free(w->prepare), free(w->journal), free(w->json), free(w->csv);
	free(w->plot), free(w->posthoc);
}

int cli_tune(int argc, const char **argv)
{
	struct tune_words w = { .first_test = 5, .alpha = 0.05, .settle = 3 };
	struct poptOption *table = tune_table(&w);
	TALLOC_CTX *top = talloc_new(NULL);
	const char **own = talloc_array(top, const char *, argc + 2);
	const char **common = talloc_array(top, const char *, argc + 1);
	int nown = 0, ncommon = 0, opt, rc = EXIT_BAD_INPUT;
	struct tune_options o = { 0 };
	const char *bad;
	char *path;

	cli_split_words(table, "dbench tune", argc, argv, own, &nown, common, &ncommon);
	poptContext pc = poptGetContext("dbench tune", nown, own, table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] --set KEY=V1,V2,... NPROCS\n"
			       "   or: dbench tune --restore [--journal=FILE | -D DIR]\n"
			       "(the other OPTIONs, those of a run, every run shares: dbench --help)");
	while ((opt = poptGetNextOpt(pc)) > 0)
		;
	if (opt < -1) {
		say("%s: %s (dbench tune --help lists the options)\n",
		    badopt_words(top, pc, nown, own), poptStrerror(opt));
	} else if (w.help) {
		poptPrintHelp(pc, stdout, 0);
		printf("\nSee man dbench-tune, its manual page.\n");
		rc = EXIT_OK;
	} else if ((bad = cli_unknown_shared(top, table, argc, argv))) {
		say("%s (dbench tune --help lists the options)\n", bad);
	} else if (w.restore) {
		if ((path = restore_path(top, &w, common, ncommon)))
			rc = tune_restore(path);
	} else if ((bad = bad_tune_option(top, &w, &o))) {
		say("%s\n", bad);
	} else {
		struct shared sh = { common, ncommon };
		fill_options(&w, &o);
		rc = tune_run(&o, candidate_plan, &sh);
	}
	poptFreeContext(pc);
	free_words(&w);
	talloc_free(top);
	return rc;
}
