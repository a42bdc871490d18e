/*
 * ab_seq.c - the looks of dbench ab --runs=auto (see ab_seq.h).
 */
#include <math.h>
#include <stdio.h>

#include "series/ab_seq.h"
#include "compare_parts.h"
#include "dockey.h"
#include "numstat.h"

#define FIRST_LOOK 3	/* runs a side before the first look */

bool ab_seq_init(TALLOC_CTX *mem_ctx, struct ab_seq *q, const struct ab_plan *ap)
{
	*q = (struct ab_seq){ .max = ap->runs, .gate = ap->fail_above >= 0,
			      .fail_above = ap->fail_above, .alpha = ap->alpha,
			      .level = ap->alpha };
	if (ap->runs < FIRST_LOOK)
		return false;
	q->nlooks = ap->runs - FIRST_LOOK + 1;
	double *t = talloc_array(mem_ctx, double, q->nlooks);
	q->z = talloc_array(mem_ctx, double, q->nlooks);
	q->looks = json_array();
	for (unsigned i = 0; t && i < q->nlooks; i++)
		t[i] = (double)(FIRST_LOOK + i) / ap->runs;
	bool ok = t && q->z && q->looks &&
		  numstat_gs_bounds(t, q->nlooks, ap->alpha, !q->gate, q->z);
	talloc_free(t);
	return ok;
}

/* The gate at this look's level: decided when B's slowdown is ruled
 * below --fail-above (OK) or found beyond it; its line's words. */
static bool gate_look(const struct ab_seq *q, const struct compare_row *r, const char **what)
{
	enum compare_gate g = compare_gate(r, q->fail_above);

	*what = g == COMPARE_GATE_OK ? "B's slowdown is below --fail-above"
	      : r->tested && -r->bound_high > q->fail_above ? "B's slowdown is beyond --fail-above"
							    : "undecided";
	return g == COMPARE_GATE_OK || (r->tested && -r->bound_high > q->fail_above);
}

bool ab_seq_look(struct ab_seq *q, FILE *out, unsigned n, const double *a, size_t na,
		 const double *b, size_t nb)
{
	unsigned i = n - FIRST_LOOK;
	struct compare_row r;
	const char *what;
	bool decided;

	if (n < FIRST_LOOK || i >= q->nlooks)
		return false;
	q->level = numstat_gs_level(q->z[i], !q->gate);
	compare_samples(&r, a, na, b, nb, q->level, true);
	if (q->gate) {
		decided = gate_look(q, &r, &what);
		fprintf(out, "Look %u of %u at %u runs a side: B's slowdown %+.2f %%, one-sided"
			" bounds [%+.2f, %+.2f] at level %.3g: %s\n", i + 1, q->nlooks, n,
			-r.change_pct, -r.bound_high, -r.bound_low, q->level, what);
	} else {
		decided = r.tested && r.p < q->level;
		what = !decided ? "undecided" : r.verdict == COMPARE_BETTER ? "B is faster"
									  : "B is slower";
		fprintf(out, "Look %u of %u at %u runs a side: B %+.2f %%, p %.3g against the"
			" bound %.3g: %s\n", i + 1, q->nlooks, n, r.change_pct, r.p, q->level, what);
	}
	fflush(out);
	const struct dockey_value v[] = {
		{ DK_AB_LOOK_RUNS, json_integer(n) },
		{ DK_AB_LOOK_CHANGE, json_real(r.change_pct) },
		{ DK_AB_LOOK_P, r.tested ? json_real(r.p) : json_null() },
		{ DK_AB_LOOK_LEVEL, json_real(q->level) },
		{ DK_AB_LOOK_DECIDED, json_boolean(decided) },
	};
	json_array_append_new(q->looks, dockey_object(DK_AB_LOOK, NULL, v, sizeof(v) / sizeof(v[0])));
	if (decided)
		q->decided_at = n;
	return decided;
}

json_t *ab_seq_json(const struct ab_seq *q)
{
	const struct dockey_value v[] = {
		{ DK_AB_SEQ_SPENDING, json_string("obrien-fleming") },
		{ DK_AB_SEQ_MAX_RUNS, json_integer(q->max) },
		{ DK_AB_SEQ_ONE_SIDED, json_boolean(q->gate) },
		{ DK_AB_SEQ_LOOKS, json_incref(q->looks) },
		{ DK_AB_SEQ_DECIDED_AT, q->decided_at ? json_integer(q->decided_at) : json_null() },
		{ DK_AB_SEQ_LEVEL, json_real(q->level) },
	};
	return dockey_object(DK_AB_SEQUENTIAL, NULL, v, sizeof(v) / sizeof(v[0]));
}
