/*
 * plot.h - a standalone SVG chart of a sweep: throughput against the
 * number of clients (log2 axis) with high/low whiskers around the mean,
 * and under it a second panel with p99 latency.  One series per input
 * (a sweep, or each side of a comparison).  The SVG needs nothing but a
 * browser to view.
 */
#ifndef DBENCH_PLOT_H
#define DBENCH_PLOT_H

#include <stddef.h>

/* One client count of a series. */
struct plot_point {
	unsigned procs;
	double mean, high, low;	/* MB/sec */
	double p99_ms;
};

struct plot_series {
	const char *name;	/* legend text */
	const struct plot_point *points;
	size_t npoints;
};

/* Write the chart to path.  0, or an errno value. */
int plot_svg(const char *path, const char *title, const struct plot_series *series,
	     size_t nseries);

#endif
