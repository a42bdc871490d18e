/*
 * ab_seq.h - dbench ab --runs=auto (ab.h): the looks of its
 * group-sequential test.  After every pair of runs from 3 a side on,
 * the throughput of the runs so far is judged as compare would judge
 * it (Welch's test, or with --fail-above its gate of non-inferiority),
 * at the nominal level that O'Brien and Fleming's alpha spending leaves
 * that look (numstat_gs_bounds(): two-sided for the test, one-sided for
 * the gate); the series stops once a look decides.
 *
 * Knows nothing of runs: figures in, a line and a decision out.
 */
#ifndef DBENCH_AB_SEQ_H
#define DBENCH_AB_SEQ_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>
#include <talloc.h>

#include "ab.h"

struct ab_seq {
	unsigned max;		/* runs a side at most */
	unsigned nlooks;	/* looks at most: at 3 .. max runs a side */
	double *z;		/* [nlooks]: each look's bound */
	bool gate;		/* --fail-above: the gate's one-sided test */
	double fail_above, alpha;
	json_t *looks;		/* the looks made */
	unsigned decided_at;	/* runs a side at the look that decided, or 0 */
	double level;		/* the nominal level of the last look made */
};

/* The bounds of ap's series (ap->runs the most a side, at least 3) into
 * q, on mem_ctx; false when they cannot be computed. */
bool ab_seq_init(TALLOC_CTX *mem_ctx, struct ab_seq *q, const struct ab_plan *ap);

/* The look at n runs a side (n >= 3; the throughputs of the successful
 * ones, a[0..na) and b[0..nb)): a line on out, and true when it decides
 * (the series stops). */
bool ab_seq_look(struct ab_seq *q, FILE *out, unsigned n, const double *a, size_t na,
		 const double *b, size_t nb);

/* The "sequential" member of the ab record. */
json_t *ab_seq_json(const struct ab_seq *q);

#endif
