/*
 * compare_trust.c - whether a difference "dbench compare" finds could be
 * the machine's doing rather than the set-ups' (compare_parts.h): the
 * host load each run recorded (hostload.h), the drift of each side over
 * its runs, and the order in which the sides' runs were made.
 *
 * Two things can make identical set-ups look different.  A busier
 * machine during one side's runs: its clients waited longer for a CPU.
 * If the throughput of each run, divided by the share of the clients'
 * time they did not spend waiting (what it would have been had they
 * never waited), no longer differs significantly, the waiting could
 * explain the difference.  And a machine that changed while the runs
 * were made: a side whose throughput trends over its runs (Spearman's
 * rank correlation with their start times), when each side's runs came
 * in one block, one side's after the other's, so that the change and the
 * set-ups cannot be told apart.  Alternated runs (dbench ab) spread
 * both over the two sides.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare_parts.h"
#include "numstat.h"

/* ---- one run ---- */

/* A run's start in seconds since the epoch, its place in its series a
 * fraction of a second on to order runs begun within one second; NAN
 * when it has no start time. */
static double run_start(const json_t *run)
{
	const char *s = json_string_value(dockey_get(run, DK_RUN_STARTED_AT));
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;

	if (!end || *end)
		return NAN;
	return (double)timegm(&tm) +
	       json_integer_value(dockey_get(run, DK_SERIES_POSITION)) / 1e4;
}

/* The number of member k in a run, NAN where there is none. */
static double run_figure(const json_t *run, enum dockey k)
{
	const json_t *v = dockey_get(run, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- one side ---- */

/* Side s's figures into t: its means, its drift; false when a run has
 * no host load. *start gets each run's start. */
static bool side_figures(struct compare_trust *t, int s, const struct rundoc_group *g,
			 double *start, double *wait, double *adjusted)
{
	bool host = true;

	t->n[s] = g->nruns;
	t->load_lo[s] = INFINITY;
	t->load_hi[s] = -INFINITY;
	for (size_t i = 0; i < g->nruns; i++) {
		const json_t *run = g->runs[i];
		start[i] = run_start(run);
		wait[i] = run_figure(run, DK_HOST_CPU_WAIT_PCT);
		host = host && wait[i] >= 0 && wait[i] <= 100;
		/* a run that waited all its time would have had no limit: 99 % */
		adjusted[i] = g->mb_s[i] / (1 - fmin(wait[i], 99) / 100);
		t->other[s] += run_figure(run, DK_HOST_OTHER_CPU_PCT) / g->nruns;
		t->steal[s] += run_figure(run, DK_HOST_STEAL_PCT) / g->nruns;
		for (int end = 0; end < 2; end++) {	/* the 1-minute average at both */
			const json_t *avg = json_array_get(dockey_get(run, end ? DK_HOST_LOADAVG_END
									  : DK_HOST_LOADAVG_START), 0);
			if (!json_is_number(avg))
				continue;
			t->load_lo[s] = fmin(t->load_lo[s], json_number_value(avg));
			t->load_hi[s] = fmax(t->load_hi[s], json_number_value(avg));
		}
	}
	t->wait[s] = numstat_mean(wait, g->nruns);
	t->drift_p[s] = numstat_spearman(start, g->mb_s, g->nruns, &t->drift_rho[s]);
	return host;
}

/* Whether all of a's runs started before all of b's. */
static bool before(const double *a, size_t na, const double *b, size_t nb)
{
	double last = -INFINITY, first = INFINITY;

	for (size_t i = 0; i < na; i++)
		last = fmax(last, a[i]);
	for (size_t i = 0; i < nb; i++)
		first = fmin(first, b[i]);
	return last < first;
}

/* Whether every run of both groups ran on one host. */
static bool one_host(const struct rundoc_group *ga, const struct rundoc_group *gb)
{
	const char *host = json_string_value(dockey_get(ga->runs[0], DK_ENV_HOSTNAME));

	for (int s = 0; s < 2; s++) {
		const struct rundoc_group *g = s ? gb : ga;
		for (size_t i = 0; i < g->nruns; i++) {
			const char *h = json_string_value(dockey_get(g->runs[i], DK_ENV_HOSTNAME));
			if (!host || !h || strcmp(h, host) != 0)
				return false;
		}
	}
	return true;
}

/* ---- the two sides ---- */

/* For a significant difference in row: what of t could explain it. */
static void judge(struct compare_trust *t, const struct compare_row *row, double alpha)
{
	if (row->verdict != COMPARE_BETTER && row->verdict != COMPARE_WORSE)
		return;
	/* throughput: B is slower when it is worse */
	int slower = row->verdict == COMPARE_WORSE ? 1 : 0;
	bool same_way = (t->adjusted_diff < 0) == (row->mean_b - row->mean_a < 0);
	if (t->host && t->wait[slower] > t->wait[!slower] &&
	    !(t->adjusted_p < alpha && same_way)) {
		t->doubt = COMPARE_DOUBT_HOST;
		t->side = slower;
	} else if (t->blocks && (t->drift_p[0] < alpha || t->drift_p[1] < alpha)) {
		t->doubt = COMPARE_DOUBT_DRIFT;
		t->side = t->drift_p[0] < alpha ? 0 : 1;
	}
}

void compare_trust(struct compare_trust *t, const struct rundoc_group *ga,
		   const struct rundoc_group *gb, const struct compare_row *row, double alpha)
{
	size_t n = ga->nruns + gb->nruns;
	/* zeroed: side_figures() fills all of it, but gcc's -fanalyzer cannot
	 * tell that writing *t leaves the groups' nruns alone */
	double *v = calloc(3 * n, sizeof(double));

	*t = (struct compare_trust){ .wait_p = NAN, .adjusted_p = NAN, .adjusted_diff = NAN,
				     .side = -1 };
	if (!v)
		return;
	double *start = v, *wait = v + n, *adj = v + 2 * n;
	bool host_a = side_figures(t, 0, ga, start, wait, adj);
	bool host_b = side_figures(t, 1, gb, start + ga->nruns, wait + ga->nruns,
				   adj + ga->nruns);
	t->host = host_a && host_b;
	if (t->host && ga->nruns >= 2 && gb->nruns >= 2) {
		/* shares of time, bounded: the rank test where it can tell */
		t->wait_p = numstat_rank_test_min_p(ga->nruns, gb->nruns) < alpha
			? numstat_rank_test(wait, ga->nruns, wait + ga->nruns, gb->nruns)
			: numstat_welch(wait, ga->nruns, wait + ga->nruns, gb->nruns, NULL, NULL);
		t->adjusted_p = numstat_welch(adj, ga->nruns, adj + ga->nruns, gb->nruns, NULL,
						NULL);
		t->adjusted_diff = numstat_mean(adj + ga->nruns, gb->nruns) -
				   numstat_mean(adj, ga->nruns);
	}
	bool timed = true;
	for (size_t i = 0; i < n; i++)
		timed = timed && !isnan(start[i]);
	if (timed && ga->nruns >= 2 && gb->nruns >= 2 && one_host(ga, gb)) {
		if (before(start, ga->nruns, start + ga->nruns, gb->nruns))
			t->blocks = true, t->first = 0;
		else if (before(start + ga->nruns, gb->nruns, start, ga->nruns))
			t->blocks = true, t->first = 1;
	}
	judge(t, row, alpha);
	free(v);
}
