/*
 * compare_writeback.c - the writeback part of "dbench compare"
 * (compare_parts.h): how much of what the clients wrote each device
 * wrote, the one over the other (a run's "written_ratio", result.h struct
 * writeback), every document against the first at each client count.
 *
 * The question a change of writeback settings (dirty ratios, expire
 * times) or of scheduler raises first is whether the data the clients
 * delete soon after writing it still reaches the disk: this ratio.  The
 * test is run by run, as for throughput (a run is the unit; its bytes are
 * not independent of each other), with Welch's test where each side has
 * the runs it needs.  Knows nothing of the other tables.
 */
#include <math.h>
#include <stdio.h>

#include "compare_parts.h"

/* Device DEV's ratio in each run of g that gives it, into v (g->nruns of
 * room); how many. */
static size_t run_ratios(TALLOC_CTX *ctx, const struct rundoc_group *g, const char *dev,
			 double *v)
{
	size_t n = 0;

	for (size_t r = 0; r < g->nruns; r++) {
		size_t nd;
		struct rundoc_disk *d = rundoc_disks(ctx, &g->runs[r], 1, &nd);
		const struct rundoc_disk *mine = rundoc_disk_named(d, nd, dev);
		if (mine && !isnan(mine->fig[RUNDOC_WRITTEN_RATIO]))
			v[n++] = mine->fig[RUNDOC_WRITTEN_RATIO];
	}
	return n;
}

static const struct compare_table writeback_table = {
	.title = "Writeback: bytes each device wrote over those the clients wrote beneath it"
		 " (dev/cli), run by run",
	.name_head = "device", .name_width = 10, .figure = "dev/cli", .change_fmt = "%+.1f%%",
	.change_width = 9, .better = "higher", .worse = "lower",
};

/* Device dev at A's group ga against every other document's group of that
 * count: a row each where both sides give the ratio, the untested counted
 * in *untested; the heading goes out before the first row of the table
 * (*head). */
static void device_rows(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			  const struct rundoc_group *ga, const char *dev, double alpha,
			  bool *head, size_t *untested)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	double *a = talloc_array(tmp, double, ga->nruns);
	size_t na = a ? run_ratios(tmp, ga, dev, a) : 0;

	for (size_t k = 1; na && k < ndocs; k++) {
		const struct rundoc_group *gb = rundoc_group_of(docs[k], ga->nprocs);
		double *b = gb ? talloc_array(tmp, double, gb->nruns) : NULL;
		size_t nb = b ? run_ratios(tmp, gb, dev, b) : 0;
		struct compare_row r;
		if (!nb)
			continue;
		compare_samples(&r, a, na, b, nb, alpha, true);
		if (!*head)
			compare_table_head(out, &writeback_table, ndocs > 2);
		*head = true;
		compare_table_row(out, &writeback_table, ga->nprocs, dev,
				  ndocs > 2 ? compare_label(k) : NULL, &r);
		*untested += !r.tested;
	}
	talloc_free(tmp);
}

void compare_report_writeback(FILE *out, const struct rundoc *const *docs, size_t ndocs,
			      double alpha)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	bool head = false;
	size_t untested = 0;

	for (size_t i = 0; tmp && i < docs[0]->ngroups; i++) {
		const struct rundoc_group *ga = &docs[0]->groups[i];
		size_t nd = 0;
		struct rundoc_disk *d = rundoc_disks(tmp, ga->runs, ga->nruns, &nd);
		for (size_t j = 0; j < nd; j++)
			device_rows(out, docs, ndocs, ga, d[j].device, alpha, &head, &untested);
	}
	compare_print_untested(out, untested);
	if (head)
		fprintf(out, "  (higher: more of what the clients wrote reached the device, or"
			" more besides it: the file system's own writes, another program's)\n");
	talloc_free(tmp);
}
