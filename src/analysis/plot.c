/*
 * plot.c - the SVG chart of a sweep (see plot.h): axes, grid, whiskers,
 * lines and legend, written directly as SVG text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "analysis/plot.h"
#include "base/outfile.h"

#define W 900
#define PANEL_H 300
#define LEFT 90
#define RIGHT 30
#define TOP 60
#define GAP 80

static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				      "#9467bd", "#8c564b" };

/* The value range a panel shows: 0 .. a round number above the data. */
static double nice_max(double v)
{
	if (v <= 0)
		return 1;
	double mag = pow(10, floor(log10(v)));
	double steps[] = { 1, 2, 2.5, 5, 10 };
	for (int i = 0; i < 5; i++) {
		if (steps[i] * mag >= v)
			return steps[i] * mag;
	}
	return 10 * mag;
}

static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

struct axes {
	double xmin, xmax;	/* log2 of procs */
	double ymax;
	int y0;			/* top of the panel */
};

/* x of a client count: a third of an octave of margin on either side, so
 * no mark sits on the frame. */
static double px(const struct axes *a, unsigned procs)
{
	double lo = a->xmin - 0.33, span = a->xmax - a->xmin + 0.66;
	return LEFT + (log2(procs) - lo) / span * (W - LEFT - RIGHT);
}

static double py(const struct axes *a, double v)
{
	return a->y0 + PANEL_H - v / a->ymax * PANEL_H;
}

static void frame(FILE *f, const struct axes *a, const char *ylabel)
{
	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#444'/>\n",
		LEFT, a->y0, W - LEFT - RIGHT, PANEL_H);
	for (int i = 0; i <= 5; i++) {
		double v = a->ymax * i / 5;
		fprintf(f, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>\n", LEFT,
			W - RIGHT, py(a, v), py(a, v));
		fprintf(f, "<text x='%d' y='%.1f' text-anchor='end' font-size='12'>%g</text>\n",
			LEFT - 6, py(a, v) + 4, v);
	}
	for (double e = a->xmin; e <= a->xmax + 1e-9; e += 1) {
		unsigned procs = (unsigned)llround(exp2(e));
		fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%d' y2='%d' stroke='#eee'/>\n",
			px(a, procs), px(a, procs), a->y0, a->y0 + PANEL_H);
		fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%u</text>\n",
			px(a, procs), a->y0 + PANEL_H + 16, procs);
	}
	fprintf(f, "<text x='%d' y='%d' font-size='13' transform='rotate(-90 %d %d)'"
		" text-anchor='middle'>%s</text>\n", 24, a->y0 + PANEL_H / 2, 24,
		a->y0 + PANEL_H / 2, ylabel);
	fprintf(f, "<text x='%d' y='%d' font-size='13' text-anchor='middle'>clients (log2)</text>\n",
		(W + LEFT) / 2, a->y0 + PANEL_H + 34);
}

/* One series in one panel: whiskers and points (throughput) or points
 * only (latency), joined by a line. */
static void series_marks(FILE *f, const struct axes *a, const struct plot_series *s,
			 const char *color, int latency)
{
	fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", color);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct plot_point *p = &s->points[i];
		fprintf(f, "%.1f,%.1f ", px(a, p->procs), py(a, latency ? p->p99_ms : p->mean));
	}
	fputs("'/>\n", f);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct plot_point *p = &s->points[i];
		double x = px(a, p->procs);
		if (!latency) {
			fprintf(f, "<line class='whisker' x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f'"
				" stroke='%s'/>\n", x, x, py(a, p->low), py(a, p->high), color);
			fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s'/>\n",
				x - 5, x + 5, py(a, p->high), py(a, p->high), color);
			fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s'/>\n",
				x - 5, x + 5, py(a, p->low), py(a, p->low), color);
		}
		fprintf(f, "<circle class='point' cx='%.1f' cy='%.1f' r='4' fill='%s'>"
			"<title>%u clients: %.2f %s</title></circle>\n", x,
			py(a, latency ? p->p99_ms : p->mean), color, p->procs,
			latency ? p->p99_ms : p->mean, latency ? "ms p99" : "MB/sec mean");
	}
}

int plot_svg(const char *path, const char *title, const struct plot_series *series,
	     size_t nseries)
{
	struct axes tp = { .xmin = 1e9, .xmax = 0, .y0 = TOP };
	struct axes lat = { .y0 = TOP + PANEL_H + GAP };
	double tmax = 0, lmax = 0;

	for (size_t s = 0; s < nseries; s++) {
		for (size_t i = 0; i < series[s].npoints; i++) {
			const struct plot_point *p = &series[s].points[i];
			double e = log2(p->procs);
			tp.xmin = e < tp.xmin ? floor(e) : tp.xmin;
			tp.xmax = e > tp.xmax ? ceil(e) : tp.xmax;
			tmax = fmax(tmax, fmax(p->high, p->mean));
			lmax = fmax(lmax, p->p99_ms);
		}
	}
	if (tp.xmin > tp.xmax)
		tp.xmin = tp.xmax = 0;
	tp.ymax = nice_max(tmax);
	lat.xmin = tp.xmin;
	lat.xmax = tp.xmax;
	lat.ymax = nice_max(lmax);

	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);
	if (!o)
		return err;
	int h = TOP + 2 * PANEL_H + GAP + 60 + 20 * (int)nseries;
	fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n"
		   "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'"
		   " viewBox='0 0 %d %d' font-family='sans-serif'>\n"
		   "<rect width='100%%' height='100%%' fill='white'/>\n", W, h, W, h);
	fputs("<text x='450' y='30' font-size='18' text-anchor='middle'>", f);
	put_text(f, title);
	fputs("</text>\n", f);
	frame(f, &tp, "MB/sec (mean, high-low)");
	frame(f, &lat, "p99 latency, ms");
	for (size_t s = 0; s < nseries; s++) {
		const char *color = colors[s % (sizeof(colors) / sizeof(colors[0]))];
		fprintf(f, "<g class='series'>\n");
		series_marks(f, &tp, &series[s], color, 0);
		series_marks(f, &lat, &series[s], color, 1);
		int ly = TOP + 2 * PANEL_H + GAP + 50 + 20 * (int)s;
		fprintf(f, "<rect x='%d' y='%d' width='14' height='14' fill='%s'/>"
			"<text x='%d' y='%d' font-size='13'>", LEFT, ly - 11, color, LEFT + 20, ly);
		put_text(f, series[s].name);
		fputs("</text>\n</g>\n", f);
	}
	fputs("</svg>\n", f);
	return outfile_commit(o);
}
