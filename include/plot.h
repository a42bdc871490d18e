/*
 * plot.h - a standalone SVG chart of a sweep: throughput against the
 * number of clients (log2 axis) with high/low whiskers around the mean,
 * and under it a second panel with p99 latency.  One series per input
 * (a sweep, or each document of a comparison), each with its legend
 * entry; several series stand side by side at each count, a few pixels
 * apart, so that equal figures do not hide each other (one count, two
 * documents).  The SVG needs nothing but a browser to view.
 *
 * The latency axis is linear from 0, or logarithmic (a decade a step,
 * labelled 0.1, 1, 10, 100 ... ms) when asked for or when the p99 values
 * span more than two decades, so that a slow curve does not flatten a
 * fast one against the floor.  A value of 0 has no place on a log axis
 * and is left out there.  A point may be marked (an asterisk over its
 * whisker) to say that it differs significantly from the first series;
 * what the mark means is the caller's text in the legend.  Knows nothing
 * of runs or documents: the caller hands it numbers and words.
 */
/*
 * Beside it, a chart of panels of points on linear axes (plot_xy_svg()):
 * each panel its series of (x, y) points, joined or not, each point with
 * a label beside it and a tooltip if given; dbench tune draws its race
 * (each candidate's mean rank block by block) and its Pareto front
 * (throughput against p99) with it.
 */
#ifndef DBENCH_PLOT_H
#define DBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>

/* One client count of a series. */
struct plot_point {
	unsigned procs;
	double mean, high, low;	/* MB/sec */
	double p99_ms;
	bool marked;		/* an asterisk over the throughput whisker */
};

struct plot_series {
	const char *name;	/* legend text */
	const struct plot_point *points;
	size_t npoints;
};

/* What is drawn besides the series. */
struct plot_style {
	const char *title;
	bool log_latency;	/* a log latency axis whatever the values */
	const char *mark_note;	/* the legend line that explains the marks, or NULL */
};

/* Write the chart to path.  0, or an errno value. */
int plot_svg(const char *path, const struct plot_style *style,
	     const struct plot_series *series, size_t nseries);

/* When path's extension names an image format other than SVG (.png,
 * .jpg, .pdf ...): the message that refuses it, on mem_ctx; else NULL (.svg,
 * or no known image extension: -, /dev/stdout).  A chart written as SVG
 * under a .png name is one no viewer opens: callers refuse it (exit 2)
 * before any run rather than convert (that takes a rasteriser dbench does
 * not link; rsvg-convert does it, as the message says). */
char *plot_format_refusal(void *mem_ctx, const char *path);

/* ---- charts of points ---- */

struct plot_xy_series {
	const char *name;		/* legend text, or NULL: not in the legend */
	const double *x, *y;		/* [n]; a NAN point is left out */
	size_t n;
	bool line;			/* join the points in order */
	bool points;			/* a circle at each */
	const char *const *labels;	/* [n] text beside each point, or NULL */
	int color;			/* the palette's colour, -1: the series' index */
};

struct plot_xy_panel {
	const char *xlabel, *ylabel;
	bool y_down;			/* y grows downwards (a rank: 1 on top) */
	bool x_integer;			/* x ticks at whole numbers only */
	const struct plot_xy_series *series;
	size_t nseries;
};

/* Write the panels, one under the other, with their series' legend under
 * them all, to path.  0, or an errno value. */
int plot_xy_svg(const char *path, const char *title, const struct plot_xy_panel *panels,
		size_t npanels);

/* Whether the latency axis is logarithmic: forced, or the positive p99
 * values of all series span more than two decades (largest > 100 times
 * the smallest). */
bool plot_latency_log(const struct plot_series *series, size_t nseries, bool forced);

/* The label of a tick at v, a power of ten or 2 or 5 times one, as plain
 * decimals without trailing zeros: "0.01", "0.5", "1", "20", "1000". */
void plot_tick_label(char *buf, size_t size, double v);

#endif
