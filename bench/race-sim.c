/*
 * race-sim.c - dbench tune's race statistics (src/series/tune_race.c, the
 * very object the program links) on figures drawn from distributions
 * whose order is known: what each rule of elimination costs and how
 * often it keeps the true best, over thousands of races in seconds,
 * with no machine noise but the one drawn.
 *
 * A candidate i is a per-operation delay d_i (us) over an overhead of
 * OVER us: its throughput is 1 / (OVER + d_i) times a run's noise, a
 * factor exp(N(0, SD)) of its own, times the block's factor exp(N(0,
 * BSD)) shared by every run of the block (a machine drifting between
 * blocks).  Two cases of eight candidates, the last one "as found", the
 * first the true best:
 *   steps  0, 2, 4 ... 14 us (bench/tune-race's: 2 us is 5.9 % at 34);
 *   tied   0, 0.5, 1, 1.5, 4, 8, 12, 14 us: three within 1.5 to 4.4 %
 *          of the best, which a race can hardly tell apart from it.
 * Each race runs as `dbench tune` does: blocks of every candidate left
 * while the budget (BUDGET runs, 20 blocks of every candidate by
 * default) has room for one, the race's test after each block, the end
 * when one is left (or, with -e PCT, when the candidates left are
 * within PCT % of the best, dbench tune's --equivalent).  Every rule races the same draws: the noise of a
 * run is a function of (seed, race, block, candidate), so the rules
 * differ by their decisions alone.
 *
 * Prints a line per case and rule (-r: best, Hsu's comparisons with the
 * best, dbench tune's default; holm, Conover's tests with Holm's
 * correction, --posthoc=holm; none, uncorrected as F-Race publishes,
 * --posthoc=none): how often the true best won and how often it was
 * still in at the end, how often the winner was within 2 % of it, the
 * runs against the full grids (every candidate as many runs as the
 * winner had), the runs and blocks a race, how often the race ended at
 * the budget.
 *
 *     cc -O2 -Iinclude -Isrc -o race-sim bench/race-sim.c \
 *         build/series/tune_race.o build/base/numstat.o -lgsl -lgslcblas -ltalloc -lm
 *     ./race-sim [-n RACES] [-s SD] [-b BSD] [-o OVER] [-f FIRST] [-a ALPHA]
 *                [-B BUDGET] [-e PCT] [-c steps|tied|all] [-r best,holm,none] [-S SEED]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series/tune_race.h"

#define K 8

static const struct sim_case {
	const char *name;
	double delay[K];
} cases[] = {
	{ "steps", { 0, 2, 4, 6, 8, 10, 12, 14 } },
	{ "tied", { 0, 0.5, 1, 1.5, 4, 8, 12, 14 } },
};

static const struct sim_rule {
	const char *name;
	enum race_rule rule;
} rules[] = {
	{ "best", RACE_BEST },
	{ "holm", RACE_HOLM },
	{ "none", RACE_PLAIN },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))
#define NRULES (sizeof(rules) / sizeof(rules[0]))

struct sim {
	unsigned races, first, budget;
	double sd, bsd, over, alpha, equivalent;
	uint64_t seed;
};

struct outcome {
	unsigned wins, kept, near, blocks, runs, at_budget;
};

/* A uniform in (0, 1) that is a function of its arguments alone
 * (splitmix64's finaliser over them). */
static double uniform_at(uint64_t seed, uint64_t race, uint64_t block, uint64_t cand,
			 uint64_t which)
{
	uint64_t z = seed ^ (race * 0x9e3779b97f4a7c15ull) ^ (block * 0xbf58476d1ce4e5b9ull) ^
		     (cand * 0x94d049bb133111ebull) ^ (which * 0x2545f4914f6cdd1dull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((z >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal, a function of its arguments (cand K: the block's). */
static double normal_at(const struct sim *s, unsigned race, unsigned block, size_t cand)
{
	return sqrt(-2 * log(uniform_at(s->seed, race, block, cand, 0))) *
	       cos(2 * M_PI * uniform_at(s->seed, race, block, cand, 1));
}

/* Race number i of case c by rule; what it came to, added to *o. */
static void one_race(const struct sim *s, const struct sim_case *c, enum race_rule rule,
		     unsigned i, struct outcome *o)
{
	struct race_params p = { .ncand = K, .nconds = 1, .first_test = s->first,
				 .alpha = s->alpha, .equivalent = s->equivalent,
				 .higher_better = true, .rule = rule };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;
	unsigned runs = 0;

	while (race_nalive(r) > 1 && !race_equivalent(r) && runs + race_nalive(r) <= s->budget) {
		unsigned b = race_begin_block(r);
		double block = exp(s->bsd * normal_at(s, i, b, K));
		for (size_t n = 0; n < K; n++) {
			if (!race_alive(r, n))
				continue;
			race_record(r, n, 0, block * exp(s->sd * normal_at(s, i, b, n)) /
						 (s->over + c->delay[n]));
			runs++;
		}
		race_end_block(r, &d);
	}
	size_t w = race_best(r);
	o->wins += w == 0;
	o->kept += race_alive(r, 0);
	o->near += (s->over + c->delay[0]) / (s->over + c->delay[w]) >= 0.98;
	o->blocks += race_nblocks(r);
	o->runs += runs;
	o->at_budget += race_nalive(r) > 1 && !race_equivalent(r);
	talloc_free(r);
}

static void report(const struct sim *s, const struct sim_case *c, const struct sim_rule *u,
		   const struct outcome *o)
{
	double n = s->races;

	printf("%-6s %-5s %6.1f %% %6.1f %% %6.1f %%  %.3f  %6.1f  %6.1f  %5.1f %%\n", c->name,
	       u->name, 100 * o->wins / n, 100 * o->kept / n, 100 * o->near / n,
	       (double)o->runs / ((double)o->blocks * K), o->runs / n, o->blocks / n,
	       100 * o->at_budget / n);
}

static int usage(void)
{
	fprintf(stderr, "usage: race-sim [-n RACES] [-s SD] [-b BSD] [-o OVER] [-f FIRST]"
		" [-a ALPHA] [-B BUDGET] [-e PCT] [-c steps|tied|all] [-r best,holm,none]"
		" [-S SEED]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sim s = { .races = 2000, .first = 5, .budget = 20 * K, .sd = 0.22, .bsd = 0,
			 .over = 34, .alpha = 0.05, .seed = 88172645463325252ull };
	const char *want_case = "all", *want_rules = "best,holm,none";
	int opt;

	while ((opt = getopt(argc, argv, "n:s:b:o:f:a:B:e:c:r:S:")) != -1) {
		switch (opt) {
		case 'n': s.races = (unsigned)atoi(optarg); break;
		case 's': s.sd = atof(optarg); break;
		case 'b': s.bsd = atof(optarg); break;
		case 'o': s.over = atof(optarg); break;
		case 'f': s.first = (unsigned)atoi(optarg); break;
		case 'a': s.alpha = atof(optarg); break;
		case 'B': s.budget = (unsigned)atoi(optarg); break;
		case 'e': s.equivalent = atof(optarg); break;
		case 'c': want_case = optarg; break;
		case 'r': want_rules = optarg; break;
		case 'S': s.seed = strtoull(optarg, NULL, 0); break;
		default: return usage();
		}
	}
	printf("%u races, sd %.3g, block sd %.3g, overhead %g us, first test %u, alpha %g,"
	       " budget %u runs, equivalent %g %%\n", s.races, s.sd, s.bsd, s.over, s.first,
	       s.alpha, s.budget, s.equivalent);
	printf("case   rule   best won   kept     within 2 %%  runs/grid  runs  blocks  at budget\n");
	for (size_t c = 0; c < NCASES; c++) {
		if (strcmp(want_case, "all") && strcmp(want_case, cases[c].name))
			continue;
		for (size_t u = 0; u < NRULES; u++) {
			struct outcome o = { 0 };
			if (!strstr(want_rules, rules[u].name))
				continue;
			for (unsigned i = 0; i < s.races; i++)
				one_race(&s, &cases[c], rules[u].rule, i, &o);
			report(&s, &cases[c], &rules[u], &o);
		}
	}
	return 0;
}
