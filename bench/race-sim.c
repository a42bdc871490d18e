/*
 * race-sim.c - dbench tune's race statistics (src/series/tune_race.c, the
 * very object the program links) on figures drawn from distributions
 * whose order is known: what the rule of elimination costs and how
 * often it keeps the true best, over thousands of races in seconds,
 * with no machine noise but the one drawn.
 *
 * A candidate i is a per-operation delay d_i (us) over an overhead of
 * OVER us: its throughput is 1 / (OVER + d_i) times a run's noise, a
 * factor exp(N(0, SD)) of its own, times the block's factor exp(N(0,
 * BSD)) shared by every run of the block (a machine drifting between
 * blocks).  The candidates are 0, 2, 4 ... 14 us (the last one "as
 * found"), as bench/tune-race's; the true best is 0 us.  Each race runs
 * as `dbench tune` does: blocks of every candidate left while the budget
 * (BUDGET runs, 20 blocks of every candidate by default) has room for
 * one, the race's test after each block, the end when one is left.
 *
 * Prints, for the rule given (-r holm: Conover's test of each candidate
 * against the best with Holm's correction, dbench tune's default; -r
 * none: the same tests uncorrected, as F-Race and irace do, tune's
 * --no-holm): how often the true best won, the runs against the full
 * grids (every candidate as many runs as the winner had), the blocks,
 * how often the race ended at the budget.
 *
 *     cc -O2 -Iinclude -Isrc -o race-sim bench/race-sim.c \
 *         build/series/tune_race.o build/base/numstat.o -lgsl -lgslcblas -ltalloc -lm
 *     ./race-sim [-n RACES] [-s SD] [-b BSD] [-o OVER] [-f FIRST] [-a ALPHA]
 *                [-B BUDGET] [-r holm|none] [-S SEED]
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

static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

struct sim {
	unsigned races, first, budget;
	double sd, bsd, over, alpha;
	bool holm;
};

struct outcome {
	unsigned wins, blocks, runs, at_budget, second_dropped;
};

/* One race; what it came to, added to *o. */
static void one_race(const struct sim *s, struct outcome *o)
{
	struct race_params p = { .ncand = K, .nconds = 1, .first_test = s->first,
				 .alpha = s->alpha, .higher_better = true,
				 .holm = s->holm };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;
	unsigned runs = 0;

	while (race_nalive(r) > 1 && runs + race_nalive(r) <= s->budget) {
		double block = exp(s->bsd * normal());
		race_begin_block(r);
		for (size_t c = 0; c < K; c++) {
			if (!race_alive(r, c))
				continue;
			race_record(r, c, 0, block * exp(s->sd * normal()) / (s->over + 2.0 * c));
			runs++;
		}
		race_end_block(r, &d);
	}
	o->wins += race_best(r) == 0;
	o->blocks += race_nblocks(r);
	o->runs += runs;
	o->at_budget += race_nalive(r) > 1;
	o->second_dropped += !race_alive(r, 1);
	talloc_free(r);
}

int main(int argc, char **argv)
{
	struct sim s = { .races = 2000, .first = 5, .budget = 20 * K, .sd = 0.22, .bsd = 0,
			 .over = 34, .alpha = 0.05, .holm = true };
	struct outcome o = { 0 };
	int opt;

	rng_state = 88172645463325252ull;
	while ((opt = getopt(argc, argv, "n:s:b:o:f:a:B:r:S:")) != -1) {
		switch (opt) {
		case 'n': s.races = (unsigned)atoi(optarg); break;
		case 's': s.sd = atof(optarg); break;
		case 'b': s.bsd = atof(optarg); break;
		case 'o': s.over = atof(optarg); break;
		case 'f': s.first = (unsigned)atoi(optarg); break;
		case 'a': s.alpha = atof(optarg); break;
		case 'B': s.budget = (unsigned)atoi(optarg); break;
		case 'r': s.holm = strcmp(optarg, "none") != 0; break;
		case 'S': rng_state = strtoull(optarg, NULL, 0) | 1; break;
		default:
			fprintf(stderr, "usage: race-sim [-n RACES] [-s SD] [-b BSD] [-o OVER] [-f FIRST]"
				" [-a ALPHA] [-B BUDGET] [-r holm|none] [-S SEED]\n");
			return 2;
		}
	}
	for (unsigned i = 0; i < s.races; i++)
		one_race(&s, &o);
	printf("rule %s, sd %.3g, block sd %.3g, overhead %g us, first test %u, alpha %g,"
	       " budget %u: true best %u of %u (%.1f %%); runs %.3f of the grids; mean blocks"
	       " %.1f; at the budget %.0f %%; 2 us dropped %.0f %%\n",
	       s.holm ? "holm" : "none", s.sd, s.bsd, s.over, s.first, s.alpha, s.budget, o.wins,
	       s.races, 100.0 * o.wins / s.races, (double)o.runs / ((double)o.blocks * K),
	       (double)o.blocks / s.races, 100.0 * o.at_budget / s.races,
	       100.0 * o.second_dropped / s.races);
	return 0;
}
