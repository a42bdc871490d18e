/*
 * plot.c - the SVG chart of a sweep (see plot.h): axes, grid, whiskers,
 * lines, marks and legend, written directly as SVG text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <talloc.h>

#include "plot.h"
#include "outfile.h"

#define W 900
#define PANEL_H 300
#define LEFT 90
#define RIGHT 30
#define TOP 60
#define GAP 80
#define LEGEND_ROW 20

static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				      "#9467bd", "#8c564b" };
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))

/* The value range a linear panel shows: 0 .. a round number above the
 * data. */
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

void plot_tick_label(char *buf, size_t size, double v)
{
	if (v == 0 || !isfinite(v) || fabs(v) >= 1e9 || fabs(v) < 1e-6) {
		snprintf(buf, size, "%g", v);
		return;
	}
	/* the fewest decimals that show v exactly, to a millionth */
	int d = 0;
	while (d < 6 && fabs(v * pow(10, d) - round(v * pow(10, d))) > 1e-6 * fabs(v * pow(10, d)))
		d++;
	snprintf(buf, size, "%.*f", d, v);
}

/* Text for an SVG text node: markup escaped, control characters (which
 * XML does not allow) shown as '?'. */
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
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc('?', f);
		else
			fputc(*s, f);
	}
}

struct axes {
	double xmin, xmax;	/* log2 of procs */
	bool log;		/* y from 10^ylo to 10^yhi; else linear, 0 to ymax */
	double ymax;
	int ylo, yhi;
	int y0;			/* top of the panel */
	size_t nseries;		/* the series drawn side by side at a count */
};

/* x of a client count: a third of an octave of margin on either side, so
 * no mark sits on the frame. */
static double px(const struct axes *a, unsigned procs)
{
	double lo = a->xmin - 0.33, span = a->xmax - a->xmin + 0.66;
	return LEFT + (log2(procs) - lo) / span * (W - LEFT - RIGHT);
}

/* x of series `index`'s marks at a client count: the series side by
 * side about it (as a grouped bar chart's bars), a step apart that keeps
 * them within a third of an octave, 16 px at most, so that equal figures
 * of two documents (one count, two runs alike) do not hide each other. */
static double sx(const struct axes *a, unsigned procs, size_t index)
{
	double octave = (W - LEFT - RIGHT) / (a->xmax - a->xmin + 0.66);
	double step = a->nseries > 1 ? fmin(16, octave / 3 / (a->nseries - 1)) : 0;

	return px(a, procs) + (index - (a->nseries - 1) / 2.0) * step;
}

/* Whether v has a place on the panel's y axis. */
static bool shown(const struct axes *a, double v)
{
	return isfinite(v) && (!a->log || v > 0);
}

static double py(const struct axes *a, double v)
{
	double frac = a->log ? (log10(v) - a->ylo) / (a->yhi - a->ylo) : v / a->ymax;
	return a->y0 + PANEL_H - frac * PANEL_H;
}

/* A horizontal grid line at v, with its label when label is true. */
static void grid_line(FILE *f, const struct axes *a, double v, const char *stroke, bool label)
{
	char text[32];

	fprintf(f, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='%s'/>\n", LEFT,
		W - RIGHT, py(a, v), py(a, v), stroke);
	if (!label)
		return;
	plot_tick_label(text, sizeof(text), v);
	fprintf(f, "<text class='tick' x='%d' y='%.1f' text-anchor='end' font-size='12'>%s</text>\n",
		LEFT - 6, py(a, v) + 4, text);
}

/* Linear: six lines from 0.  Log: a labelled line a decade, lighter
 * ones at 2 .. 9 times it, those at 2 and 5 labelled too when the axis
 * spans no more than two decades. */
static void y_grid(FILE *f, const struct axes *a)
{
	if (!a->log) {
		for (int i = 0; i <= 5; i++)
			grid_line(f, a, a->ymax * i / 5, "#ddd", true);
		return;
	}
	bool minor_labels = a->yhi - a->ylo <= 2;
	for (int e = a->ylo; e <= a->yhi; e++) {
		double decade = pow(10, e);
		grid_line(f, a, decade, "#bbb", true);
		for (int m = 2; e < a->yhi && m <= 9; m++)
			grid_line(f, a, m * decade, "#eee", minor_labels && (m == 2 || m == 5));
	}
}

static void frame(FILE *f, const struct axes *a, const char *ylabel)
{
	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#444'/>\n",
		LEFT, a->y0, W - LEFT - RIGHT, PANEL_H);
	y_grid(f, a);
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

/* Series past the palette are told apart by dashes as well. */
static const char *dashes(size_t s)
{
	return (s / NCOLORS) % 2 ? " stroke-dasharray='8 4'" : "";
}

/* One series in one panel: whiskers and points (throughput) or
 * points only (latency), joined by a line. */
static void series_marks(FILE *f, const struct axes *a, const struct plot_series *s,
			 size_t index, int latency)
{
	const char *color = colors[index % NCOLORS];

	fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", color,
		dashes(index));
	for (size_t i = 0; i < s->npoints; i++) {
		const struct plot_point *p = &s->points[i];
		double v = latency ? p->p99_ms : p->mean;
		if (shown(a, v))
			fprintf(f, "%.1f,%.1f ", sx(a, p->procs, index), py(a, v));
	}
	fputs("'/>\n", f);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct plot_point *p = &s->points[i];
		double x = sx(a, p->procs, index), v = latency ? p->p99_ms : p->mean;
		if (!shown(a, v))
			continue;
		if (!latency) {
			fprintf(f, "<line class='whisker' x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f'"
				" stroke='%s'/>\n", x, x, py(a, p->low), py(a, p->high), color);
			fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s'/>\n",
				x - 5, x + 5, py(a, p->high), py(a, p->high), color);
			fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s'/>\n",
				x - 5, x + 5, py(a, p->low), py(a, p->low), color);
		}
		fprintf(f, "<circle class='point' cx='%.1f' cy='%.1f' r='4' fill='%s'>"
			"<title>%u client%s: %.2f %s</title></circle>\n", x, py(a, v), color,
			p->procs, p->procs == 1 ? "" : "s", v, latency ? "ms p99" : "MB/sec mean");
	}
}

/* A series' marks over its throughput whiskers, haloed in white so that
 * they stand out over the lines drawn before them. */
static void series_asterisks(FILE *f, const struct axes *a, const struct plot_series *s,
			     size_t index)
{
	for (size_t i = 0; i < s->npoints; i++) {
		const struct plot_point *p = &s->points[i];
		if (p->marked && shown(a, p->high))
			fprintf(f, "<text class='mark' x='%.1f' y='%.1f' text-anchor='middle'"
				" font-size='22' font-weight='bold' fill='%s' stroke='white'"
				" stroke-width='3' paint-order='stroke'>*<title>%u client%s:"
				" a significant change</title></text>\n", sx(a, p->procs, index),
				py(a, p->high) + 2, colors[index % NCOLORS], p->procs,
				p->procs == 1 ? "" : "s");
	}
}

bool plot_latency_log(const struct plot_series *series, size_t nseries, bool forced)
{
	double lo = INFINITY, hi = 0;

	for (size_t s = 0; s < nseries; s++) {
		for (size_t i = 0; i < series[s].npoints; i++) {
			double v = series[s].points[i].p99_ms;
			if (v > 0 && isfinite(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	}
	return forced || (hi > 0 && hi > 100 * lo);
}

/* The panels' ranges, from every series' points. */
static void set_axes(struct axes *tp, struct axes *lat, const struct plot_series *series,
		     size_t nseries, bool log_latency)
{
	double tmax = 0, lmax = 0, lmin = INFINITY;

	*tp = (struct axes){ .xmin = 1e9, .xmax = 0, .y0 = TOP, .nseries = nseries };
	for (size_t s = 0; s < nseries; s++) {
		for (size_t i = 0; i < series[s].npoints; i++) {
			const struct plot_point *p = &series[s].points[i];
			double e = log2(p->procs);
			tp->xmin = e < tp->xmin ? floor(e) : tp->xmin;
			tp->xmax = e > tp->xmax ? ceil(e) : tp->xmax;
			tmax = fmax(tmax, fmax(p->high, p->mean));
			if (isfinite(p->p99_ms)) {
				lmax = fmax(lmax, p->p99_ms);
				lmin = p->p99_ms > 0 ? fmin(lmin, p->p99_ms) : lmin;
			}
		}
	}
	if (tp->xmin > tp->xmax)
		tp->xmin = tp->xmax = 0;
	tp->ymax = nice_max(tmax);
	*lat = (struct axes){ .xmin = tp->xmin, .xmax = tp->xmax, .log = log_latency,
			      .nseries = nseries,
			      .ymax = nice_max(lmax), .y0 = TOP + PANEL_H + GAP };
	if (log_latency && lmax > 0) {
		lat->ylo = (int)floor(log10(lmin));
		lat->yhi = (int)ceil(log10(lmax));
	}
	if (lat->yhi <= lat->ylo)
		lat->yhi = lat->ylo + 1;
}

/* A legend row: a line with a point in the series' colour, then its
 * name. */
static void legend_row(FILE *f, int y, size_t index, const char *name)
{
	const char *color = colors[index % NCOLORS];

	fprintf(f, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='%s' stroke-width='2'%s/>"
		"<circle cx='%d' cy='%d' r='4' fill='%s'/>"
		"<text x='%d' y='%d' font-size='13'>", LEFT, LEFT + 24, y - 4, y - 4, color,
		dashes(index), LEFT + 12, y - 4, color, LEFT + 32, y);
	put_text(f, name);
	fputs("</text>\n", f);
}

static const char *other_format(const char *path)
{
	static const struct { const char *ext, *format; } formats[] = {
		{ "png", "PNG" }, { "jpg", "JPEG" }, { "jpeg", "JPEG" }, { "gif", "GIF" },
		{ "webp", "WebP" }, { "bmp", "BMP" }, { "tif", "TIFF" }, { "tiff", "TIFF" },
		{ "pdf", "PDF" }, { "eps", "EPS" }, { "ps", "PostScript" },
	};
	const char *base = strrchr(path, '/'), *dot = strrchr(base ? base + 1 : path, '.');

	for (size_t i = 0; dot && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcasecmp(dot + 1, formats[i].ext) == 0)
			return formats[i].format;
	return NULL;
}

char *plot_format_refusal(void *mem_ctx, const char *path)
{
	const char *format = other_format(path);

	if (!format)
		return NULL;
	return talloc_asprintf(mem_ctx, "--plot draws SVG only, and '%s' names a %s file:"
			       " give a name ending in .svg (rsvg-convert turns it into %s)",
			       path, format, format);
}

int plot_svg(const char *path, const struct plot_style *style,
	     const struct plot_series *series, size_t nseries)
{
	struct axes tp, lat;
	bool log_latency = plot_latency_log(series, nseries, style->log_latency);

	set_axes(&tp, &lat, series, nseries, log_latency);
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);
	if (!o)
		return err;
	int legend_y = TOP + 2 * PANEL_H + GAP + 62;	/* under the x axis label */
	int h = legend_y + 10 + LEGEND_ROW * (int)(nseries + (style->mark_note != NULL));
	fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n"
		   "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'"
		   " viewBox='0 0 %d %d' font-family='sans-serif'>\n"
		   "<rect width='100%%' height='100%%' fill='white'/>\n", W, h, W, h);
	fprintf(f, "<text x='%d' y='30' font-size='18' text-anchor='middle'>", W / 2);
	put_text(f, style->title);
	fputs("</text>\n", f);
	frame(f, &tp, "MB/sec (mean, high-low)");
	frame(f, &lat, log_latency ? "p99 latency, ms (log scale)" : "p99 latency, ms");
	for (size_t s = 0; s < nseries; s++) {
		fprintf(f, "<g class='series'>\n");
		series_marks(f, &tp, &series[s], s, 0);
		series_marks(f, &lat, &series[s], s, 1);
		legend_row(f, legend_y + LEGEND_ROW * (int)s, s, series[s].name);
		fputs("</g>\n", f);
	}
	for (size_t s = 0; s < nseries; s++)	/* over every line */
		series_asterisks(f, &tp, &series[s], s);
	if (style->mark_note) {
		int y = legend_y + LEGEND_ROW * (int)nseries;
		fprintf(f, "<text class='mark-note' x='%d' y='%d' font-size='13'>"
			"<tspan font-size='20' font-weight='bold' dy='4'>*</tspan>"
			"<tspan dx='12' dy='-4'>", LEFT + 6, y);
		put_text(f, style->mark_note);
		fputs("</tspan></text>\n", f);
	}
	fputs("</svg>\n", f);
	return outfile_commit(o);
}

/* ---- charts of points ---- */

struct xy_axes {
	double xlo, xhi, ylo, yhi;	/* the ranges shown */
	double xstep, ystep;		/* between ticks */
	bool y_down;
	int y0;				/* top of the panel */
};

/* A tick step of 1, 2 or 5 times a power of ten that cuts span into
 * about five. */
static double tick_step(double span, bool integer)
{
	double raw = span > 0 ? span / 5 : 1, mag = pow(10, floor(log10(raw)));
	double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag
									       : 10 * mag;
	return integer && step < 1 ? 1 : step;
}

/* The range a set of values is shown over: whole tick steps around them. */
static void xy_range(double lo, double hi, bool integer, double *from, double *to,
		     double *step)
{
	if (!(lo <= hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi == lo) {
		lo -= fabs(lo) > 0 ? fabs(lo) / 10 : 1;
		hi += fabs(hi) > 0 ? fabs(hi) / 10 : 1;
	}
	*step = tick_step(hi - lo, integer);
	*from = floor(lo / *step) * *step;
	*to = ceil(hi / *step) * *step;
	if (*to == *from)
		*to = *from + *step;
}

static double xy_px(const struct xy_axes *a, double x)
{
	return LEFT + 10 + (x - a->xlo) / (a->xhi - a->xlo) * (W - LEFT - RIGHT - 20);
}

static double xy_py(const struct xy_axes *a, double y)
{
	double frac = (y - a->ylo) / (a->yhi - a->ylo);
	return a->y0 + 10 + (a->y_down ? frac : 1 - frac) * (PANEL_H - 20);
}

static void xy_set_axes(struct xy_axes *a, const struct plot_xy_panel *p, int y0)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

	for (size_t s = 0; s < p->nseries; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			double x = p->series[s].x[i], y = p->series[s].y[i];
			if (isfinite(x) && isfinite(y)) {
				xlo = fmin(xlo, x), xhi = fmax(xhi, x);
				ylo = fmin(ylo, y), yhi = fmax(yhi, y);
			}
		}
	*a = (struct xy_axes){ .y_down = p->y_down, .y0 = y0 };
	xy_range(xlo, xhi, p->x_integer, &a->xlo, &a->xhi, &a->xstep);
	xy_range(ylo, yhi, false, &a->ylo, &a->yhi, &a->ystep);
}

static void xy_frame(FILE *f, const struct xy_axes *a, const struct plot_xy_panel *p)
{
	char text[32];

	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#444'/>\n",
		LEFT, a->y0, W - LEFT - RIGHT, PANEL_H);
	for (double y = a->ylo; y <= a->yhi + a->ystep / 1e6; y += a->ystep) {
		plot_tick_label(text, sizeof(text), fabs(y) < a->ystep / 1e6 ? 0 : y);
		fprintf(f, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>\n"
			"<text class='tick' x='%d' y='%.1f' text-anchor='end' font-size='12'>%s"
			"</text>\n", LEFT, W - RIGHT, xy_py(a, y), xy_py(a, y), LEFT - 6,
			xy_py(a, y) + 4, text);
	}
	for (double x = a->xlo; x <= a->xhi + a->xstep / 1e6; x += a->xstep) {
		plot_tick_label(text, sizeof(text), fabs(x) < a->xstep / 1e6 ? 0 : x);
		fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%d' y2='%d' stroke='#eee'/>\n"
			"<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%s</text>\n",
			xy_px(a, x), xy_px(a, x), a->y0, a->y0 + PANEL_H, xy_px(a, x),
			a->y0 + PANEL_H + 16, text);
	}
	fprintf(f, "<text x='%d' y='%d' font-size='13' transform='rotate(-90 %d %d)'"
		" text-anchor='middle'>", 24, a->y0 + PANEL_H / 2, 24, a->y0 + PANEL_H / 2);
	put_text(f, p->ylabel);
	fprintf(f, "</text>\n<text x='%d' y='%d' font-size='13' text-anchor='middle'>",
		(W + LEFT) / 2, a->y0 + PANEL_H + 34);
	put_text(f, p->xlabel);
	fputs("</text>\n", f);
}

static void xy_series(FILE *f, const struct xy_axes *a, const struct plot_xy_series *s,
		      size_t index)
{
	size_t c = s->color >= 0 ? (size_t)s->color : index;
	const char *color = colors[c % NCOLORS];

	if (s->line) {
		fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", color,
			dashes(c));
		for (size_t i = 0; i < s->n; i++)
			if (isfinite(s->x[i]) && isfinite(s->y[i]))
				fprintf(f, "%.1f,%.1f ", xy_px(a, s->x[i]), xy_py(a, s->y[i]));
		fputs("'/>\n", f);
	}
	for (size_t i = 0; i < s->n; i++) {
		if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
			continue;
		double x = xy_px(a, s->x[i]), y = xy_py(a, s->y[i]);
		if (s->points)
			fprintf(f, "<circle class='point' cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n", x,
				y, color);
		if (s->labels && s->labels[i]) {
			fprintf(f, "<text class='label' x='%.1f' y='%.1f' font-size='11' fill='%s'>",
				x + 6, y - 6, color);
			put_text(f, s->labels[i]);
			fputs("</text>\n", f);
		}
	}
}

int plot_xy_svg(const char *path, const char *title, const struct plot_xy_panel *panels,
		size_t npanels)
{
	size_t nlegend = 0;
	FILE *f;
	int err;

	for (size_t p = 0; p < npanels; p++)
		for (size_t s = 0; s < panels[p].nseries; s++)
			nlegend += panels[p].series[s].name != NULL;
	struct outfile *o = outfile_open(NULL, path, &f, &err);
	if (!o)
		return err;
	int legend_y = TOP + (int)npanels * (PANEL_H + GAP) + 2;
	int h = legend_y + 10 + LEGEND_ROW * (int)nlegend;
	fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n"
		   "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'"
		   " viewBox='0 0 %d %d' font-family='sans-serif'>\n"
		   "<rect width='100%%' height='100%%' fill='white'/>\n"
		   "<text x='%d' y='30' font-size='18' text-anchor='middle'>", W, h, W, h, W / 2);
	put_text(f, title);
	fputs("</text>\n", f);
	for (size_t p = 0; p < npanels; p++) {
		struct xy_axes a;
		xy_set_axes(&a, &panels[p], TOP + (int)p * (PANEL_H + GAP));
		xy_frame(f, &a, &panels[p]);
		for (size_t s = 0; s < panels[p].nseries; s++) {
			const struct plot_xy_series *sr = &panels[p].series[s];
			fputs("<g class='series'>\n", f);
			xy_series(f, &a, sr, s);
			if (sr->name)
				legend_row(f, legend_y += LEGEND_ROW, sr->color >= 0 ? (size_t)sr->color
									 : s, sr->name);
			fputs("</g>\n", f);
		}
	}
	fputs("</svg>\n", f);
	return outfile_commit(o);
}
