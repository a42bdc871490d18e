/*
 * compare_table.c - the layout of a table of one figure judged run by run
 * (compare_parts.h, struct compare_table): its heading and its rows,
 * which the latency and the writeback tables share.  Knows nothing of
 * what the figure is, nor of how it was judged.
 */
#include <stdio.h>

#include "compare_parts.h"

void compare_table_head(FILE *out, const struct compare_table *t, bool with_side)
{
	const char *x = with_side ? "X" : "B";
	char runs[16], fig_a[32], fig_x[32];

	snprintf(runs, sizeof(runs), "runs A/%s", x);
	snprintf(fig_a, sizeof(fig_a), "%s A", t->figure);
	snprintf(fig_x, sizeof(fig_x), "%s %s", t->figure, x);
	fprintf(out, "\n%s\n%6s  %-*s  ", t->title, "nprocs", t->name_width, t->name_head);
	if (with_side)
		fprintf(out, "%-4s  ", "side");
	fprintf(out, "%8s  %10s  %10s  %*s  ", runs, fig_a, fig_x, t->change_width, "change");
	if (t->above) {
		char above_a[40], above_x[40];
		snprintf(above_a, sizeof(above_a), ">%s", fig_a);
		snprintf(above_x, sizeof(above_x), ">%s", fig_x);
		fprintf(out, "%7s  %7s  ", above_a, above_x);
	}
	fprintf(out, "%7s  %6s  %7s  %s\n", "t", "df", "p", "verdict");
}

void compare_table_row(FILE *out, const struct compare_table *t, unsigned nprocs,
		       const char *name, const char *side, const struct compare_row *r)
{
	TALLOC_CTX *tmp = talloc_new(NULL);

	fprintf(out, "%6u  %-*s  ", nprocs, t->name_width, name);
	if (side)
		fprintf(out, "%-4s  ", side);
	fprintf(out, "%8s  %10s  %10s  %*s  ", talloc_asprintf(tmp, "%zu/%zu", r->na, r->nb),
		compare_num(tmp, "%.4g", r->mean_a), compare_num(tmp, "%.4g", r->mean_b),
		t->change_width, compare_num(tmp, t->change_fmt, r->change_pct));
	if (t->above)
		fprintf(out, "%7s  %7s  ", compare_num(tmp, "%.2f%%", r->above_a),
			compare_num(tmp, "%.2f%%", r->above_b));
	fprintf(out, "%7s  %6s  %7s  %s\n", compare_num(tmp, "%.3f", r->t),
		compare_num(tmp, "%.2f", r->df), compare_p_text(tmp, r),
		compare_verdict_text(tmp, r, t->better, t->worse));
	talloc_free(tmp);
}
