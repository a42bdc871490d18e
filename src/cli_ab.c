/*
 * cli_ab.c - the command line of "dbench ab" (ab.h): its own options, and
 * side A's and side B's run plans, each built by cli_parse() (cli.h) from
 * the options both share with the side's own added, as if typed as one
 * dbench command (cli_series.h).  Runs nothing itself: ab_run() does.
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "badopt.h"
#include "cli.h"
#include "cli_ab.h"
#include "cli_series.h"
#include "cluster.h"
#include "progname.h"
#include "secret.h"

/* ab's own options, and whether each takes a value. */
struct ab_words {
	char *a, *b, *order, *seed, *prepare, *json, *runs;
	int max_runs, settle, all, help;
	double fail_above, alpha;
	int fail_given;
};

#define FAIL_ABOVE 'f'

static struct poptOption *ab_table(struct ab_words *w)
{
	static struct poptOption t[14];
	const struct poptOption table[] = {
		{ "a", 0, POPT_ARG_STRING, &w->a, 0,
		  "side A's run options, added to those both share (quoted as for a shell;"
		  " default none: the shared options alone)", "OPTIONS" },
		{ "b", 0, POPT_ARG_STRING, &w->b, 0, "side B's run options", "OPTIONS" },
		{ "runs", 0, POPT_ARG_STRING, &w->runs, 0,
		  "runs a side (default 5), or auto: a look after every pair from 3 a side on,"
		  " stopping once the test is decided (O'Brien-Fleming alpha spending)", "K|auto" },
		{ "max-runs", 0, POPT_ARG_INT, &w->max_runs, 0,
		  "with --runs=auto, the most runs a side (default 20)", "K" },
		{ "order", 0, POPT_ARG_STRING, &w->order, 0,
		  "abba (default: A B B A A B ...) or random (each pair's order drawn from"
		  " --seed)", "ORDER" },
		{ "seed", 0, POPT_ARG_STRING, &w->seed, 0,
		  "the seed of --order=random (default: from the clock; printed)", "N" },
		{ "settle", 0, POPT_ARG_INT, &w->settle, 0,
		  "sync, then rest this long between runs (default 3)", "SECS" },
		{ "prepare", 0, POPT_ARG_STRING, &w->prepare, 0,
		  "run CMD through /bin/sh before every run, with DBENCH_SIDE=A or B in its"
		  " environment; its failure stops the series", "CMD" },
		{ "json", 0, POPT_ARG_STRING, &w->json, 0,
		  "write both sides' runs, in order, to FILE (- for stdout), for dbench compare"
		  " FILE", "FILE" },
		{ "fail-above", 0, POPT_ARG_DOUBLE, &w->fail_above, FAIL_ABOVE,
		  "a gate on evidence, as dbench compare's: exit 0 only when B's slowdown is"
		  " below PCT percent by its one-sided 95% bound, 3 when it is significantly"
		  " beyond PCT, else 4 (the runs cannot tell, or the machine's load or drift"
		  " could explain it)", "PCT" },
		{ "alpha", 0, POPT_ARG_DOUBLE, &w->alpha, 0,
		  "significance level of the tests (default 0.05)", "P" },
		{ "all", 0, POPT_ARG_NONE, &w->all, 0,
		  "every operation's p99 row, not only those with a significant change", NULL },
		{ "help", '?', POPT_ARG_NONE, &w->help, 0, "show this help message", NULL },
		POPT_TABLEEND
	};
	memcpy(t, table, sizeof(table));
	return t;
}

/* What is wrong with ab's own options, or NULL. */
static const char *bad_ab_option(const struct ab_words *w, struct ab_plan *ap)
{
	char *end;

	if (!w->b)
		return "dbench ab needs --b=OPTIONS, what side B adds to the shared options"
		       " (--a=OPTIONS, side A's, defaults to none)";
	ap->auto_runs = w->runs && strcmp(w->runs, "auto") == 0;
	errno = 0;
	long runs = !w->runs ? 5 : ap->auto_runs ? w->max_runs : strtol(w->runs, &end, 10);
	if (!ap->auto_runs && w->runs && (!*w->runs || *end || errno))
		runs = 0;
	if (!ap->auto_runs && (runs < 1 || runs > 1000))
		return "--runs must be from 1 to 1000, or auto";
	if (ap->auto_runs && (runs < 3 || runs > 1000))
		return "--max-runs must be from 3 to 1000";
	if (!ap->auto_runs && w->max_runs != 20)
		return "--max-runs goes with --runs=auto";
	ap->runs = (unsigned)runs;
	if (w->settle < 0 || w->settle > 86400)
		return "--settle must be from 0 to 86400 seconds";
	if (w->order && strcmp(w->order, "abba") != 0 && strcmp(w->order, "random") != 0)
		return "--order must be 'abba' or 'random'";
	ap->random = w->order && strcmp(w->order, "random") == 0;
	if (w->seed && !ap->random)
		return "--seed goes with --order=random";
	errno = 0;
	ap->seed = w->seed ? strtoull(w->seed, &end, 10)
			   : (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	if (w->seed && (!*w->seed || *end || errno || *w->seed == '-'))
		return "--seed must be a whole number";
	if (w->fail_given && !(w->fail_above >= 0 && w->fail_above < 1e300))
		return "--fail-above must be a percentage, 0 or more";
	if (!(w->alpha > 0 && w->alpha < 1))
		return "--alpha must lie between 0 and 1";
	if (w->json && !*w->json)
		return "--json needs a file name, or - for standard output";
	if (w->prepare && !*w->prepare)
		return "--prepare needs a command";
	if (cluster_mpi())
		return "dbench ab does not run under mpirun";
	return NULL;
}

/* Side s's plan, into *cli: the shared words, then the side's own.  False
 * after saying what is wrong (exit 2). */
static bool side_plan(TALLOC_CTX *ctx, int s, const char *opts, const char **common,
		      int ncommon, struct cli *cli, char **text)
{
	char what[8];

	snprintf(what, sizeof(what), "--%c", "ab"[s]);
	if (!cli_series_plan(ctx, what, opts, common, ncommon, NULL, cli, text))
		return false;
	if (cli->action == CLI_RUN && cli->plan.json_path) {
		say("--json in a side's or the shared options: dbench ab's own --json=FILE holds"
		    " both sides' runs\n");
		return false;
	}
	if (cli->action == CLI_RUN)
		return true;
	if (cli->action == CLI_SWEEP)
		say("dbench ab makes its own series: --sweep, --repeat and --precision do not"
		    " go with it (--runs=K runs each side K times)\n");
	else if (cli->action != CLI_EXIT || cli->exit_code == EXIT_OK)
		say("--a and --b take the options of a run, not --help, --version or"
		    " --check-loadfile\n");
	ab_say_side(s, *text ? *text : "?");
	return false;
}

int cli_ab(int argc, const char **argv)
{
	struct ab_words w = { .max_runs = 20, .settle = 3, .alpha = 0.05, .fail_above = -1 };
	struct poptOption *table = ab_table(&w);
	TALLOC_CTX *top = talloc_new(NULL);
	const char **own = talloc_array(top, const char *, argc + 2);
	const char **common = talloc_array(top, const char *, argc + 1);
	int nown = 0, ncommon = 0, opt, rc = EXIT_BAD_INPUT;
	struct ab_plan ap = { 0 };
	struct cli side[2];
	char *text[2];
	const char *bad;

	cli_split_words(table, "dbench ab", argc, argv, own, &nown, common, &ncommon);
	poptContext pc = poptGetContext("dbench ab", nown, own, table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] [--a=OPTIONS] --b=OPTIONS NPROCS\n"
			       "(the other OPTIONs, those of a run, both sides share: dbench --help)");
	while ((opt = poptGetNextOpt(pc)) > 0)
		w.fail_given |= opt == FAIL_ABOVE;
	if (opt < -1) {
		say("%s (dbench ab --help lists the options)\n",
		    badopt_message(top, pc, opt, nown, own, table));
	} else if (w.help) {
		poptPrintHelp(pc, stdout, 0);
		printf("\nSee man dbench-ab, its manual page.\n");
		rc = EXIT_OK;
	} else if ((bad = cli_unknown_shared(top, table, argc, argv))) {
		say("%s (dbench ab --help lists the options)\n", bad);
	} else if ((bad = bad_ab_option(&w, &ap))) {
		say("%s\n", bad);
	} else if (side_plan(top, 0, w.a ? w.a : "", common, ncommon, &side[0], &text[0]) &&
		   side_plan(top, 1, w.b, common, ncommon, &side[1], &text[1])) {
		ap.settle = w.settle;
		ap.prepare = w.prepare;
		ap.json_path = w.json;
		ap.a_options = text[0];
		ap.b_options = text[1];
		ap.fail_above = w.fail_given ? w.fail_above : -1;
		ap.alpha = w.alpha;
		ap.all = w.all;
		rc = ab_run(&side[0].plan, &side[1].plan, &ap);
	}
	poptFreeContext(pc);
	free(w.a), free(w.b), free(w.order), free(w.seed), free(w.prepare), free(w.json);
	free(w.runs);
	talloc_free(top);
	return rc;
}
