/*
 * test_plot.c - the SVG chart (plot.h): tick labels, when the
 * latency axis turns logarithmic, where points land on it, and the marks
 * with their legend line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "fixture.h"

static const char *label(double v)
{
	static char buf[32];

	plot_tick_label(buf, sizeof(buf), v);
	return buf;
}

static void tick_labels_are_plain_decimals_without_trailing_zeros(void **state)
{
	(void)state;
	assert_string_equal(label(1), "1");
	assert_string_equal(label(10), "10");
	assert_string_equal(label(100), "100");
	assert_string_equal(label(1e6), "1000000");
	assert_string_equal(label(pow(10, -1)), "0.1");
	assert_string_equal(label(pow(10, -3)), "0.001");
	assert_string_equal(label(5 * pow(10, -2)), "0.05");
	assert_string_equal(label(2 * pow(10, 3)), "2000");
	assert_string_equal(label(0), "0");
	assert_string_equal(label(2.5), "2.5");
	assert_string_equal(label(0.6 * 3), "1.8");
}

/* A series whose p99 values are the given ones, at 1, 2, 4 ... clients. */
static struct plot_series series_of(struct plot_point *pts, const double *p99, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pts[i] = (struct plot_point){ .procs = 1u << i, .mean = 10, .high = 11, .low = 9,
					      .p99_ms = p99[i] };
	return (struct plot_series){ "s", pts, n };
}

static void the_latency_axis_is_log_past_two_decades_or_when_asked(void **state)
{
	struct plot_point pa[3], pb[3];
	double two_decades[] = { 1, 50, 100 }, more[] = { 1, 50, 100.5 };
	double zero[] = { 0, 2, 150 }, nan_[] = { NAN, 2, 150 }, flat[] = { 3, 3, 3 };
	struct plot_series s;

	(void)state;
	s = series_of(pa, two_decades, 3);
	assert_false(plot_latency_log(&s, 1, false));
	assert_true(plot_latency_log(&s, 1, true));
	s = series_of(pa, more, 3);
	assert_true(plot_latency_log(&s, 1, false));
	/* 0 and NaN have no place on a log axis: they are not its bottom */
	s = series_of(pa, zero, 3);
	assert_false(plot_latency_log(&s, 1, false));
	s = series_of(pa, nan_, 3);
	assert_false(plot_latency_log(&s, 1, false));
	s = series_of(pa, flat, 3);
	assert_false(plot_latency_log(&s, 1, false));
	assert_false(plot_latency_log(&s, 0, false));
	/* the span is over all series: 3 ms in one, 1000 ms in the other */
	double slow[] = { 400, 700, 1000 };
	struct plot_series two[2] = { series_of(pa, flat, 3), series_of(pb, slow, 3) };
	assert_true(plot_latency_log(two, 2, false));
}

/* The whole text of a file, on the test's context. */
static char *slurp(void **state, const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = talloc_zero_size(fixture_ctx(state), 1 << 20);
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	assert_true(n > 0 && n < (1 << 20) - 1);
	return text;
}

/* The cy of each latency point ("ms p99" in its title), in order. */
static size_t latency_ys(const char *svg, double *ys, size_t max)
{
	size_t n = 0;

	for (const char *p = svg; n < max && (p = strstr(p, "<circle class='point'")); p++) {
		double cy;
		const char *end = strstr(p, "</circle>");
		if (sscanf(p, "<circle class='point' cx='%*f' cy='%lf'", &cy) == 1 && end &&
		    memmem(p, end - p, "ms p99", 6))
			ys[n++] = cy;
	}
	return n;
}

/* Whether the y axis has a tick labelled text. */
static bool has_tick(const char *svg, const char *text)
{
	for (const char *p = svg; (p = strstr(p, "<text class='tick'")); p++) {
		const char *open = strchr(p, '>'), *close = strstr(p, "</text>");
		if (open && close && (size_t)(close - open - 1) == strlen(text) &&
		    strncmp(open + 1, text, strlen(text)) == 0)
			return true;
	}
	return false;
}

/* The chart of the series as text; style NULL: titled "t", the latency
 * axis as the values choose. */
static char *draw(void **state, const struct plot_style *style, const struct plot_series *s)
{
	static const struct plot_style plain = { .title = "t" };
	const char *dir = fixture_scratch_dir(state, "plot");
	char *path = talloc_asprintf(fixture_ctx(state), "%s/chart.svg", dir);

	assert_int_equal(plot_svg(path, style ? style : &plain, s, 1), 0);
	return slurp(state, path);
}

static const struct plot_style log_axis = { .title = "t", .log_latency = true };

static void decades_are_evenly_spaced_and_labelled_on_a_log_axis(void **state)
{
	struct plot_point pts[3];
	double p99[] = { 1, 10, 1000 }, ys[3];
	struct plot_series s = series_of(pts, p99, 3);
	char *svg = draw(state, NULL, &s);

	assert_non_null(strstr(svg, "p99 latency, ms (log scale)"));
	assert_true(has_tick(svg, "1"));
	assert_true(has_tick(svg, "10"));
	assert_true(has_tick(svg, "100"));
	assert_true(has_tick(svg, "1000"));
	assert_false(has_tick(svg, "2"));	/* no labels between decades over three */
	/* three decades from 1 to 1000 over the panel: 10 a third of the way up */
	assert_int_equal(latency_ys(svg, ys, 3), 3);
	assert_true(fabs((ys[0] - ys[1]) - (ys[1] - ys[2]) / 2) < 0.2);
	assert_true(ys[0] > ys[1] && ys[1] > ys[2]);
}

static void a_linear_axis_stays_linear_from_zero(void **state)
{
	struct plot_point pts[3];
	double p99[] = { 1, 5, 10 }, ys[3];
	struct plot_series s = series_of(pts, p99, 3);
	char *svg = draw(state, NULL, &s);

	assert_null(strstr(svg, "log scale"));
	assert_int_equal(latency_ys(svg, ys, 3), 3);
	/* 1, 5, 10 on 0..10: the gaps are 4 and 5 to 4 */
	assert_true(fabs((ys[0] - ys[1]) * 5 - (ys[1] - ys[2]) * 4) < 1);
}

static void a_log_axis_of_two_decades_labels_2_and_5_as_well(void **state)
{
	struct plot_point pts[2];
	double p99[] = { 3, 30 };
	struct plot_series s = series_of(pts, p99, 2);
	char *svg = draw(state, &log_axis, &s);

	for (const char *const *t = (const char *const[]){ "1", "2", "5", "10", "20", "50", "100",
							    NULL }; *t; t++)
		assert_true(has_tick(svg, *t));
	assert_false(has_tick(svg, "3"));
	assert_false(has_tick(svg, "200"));
}

static void a_zero_p99_is_left_out_of_a_log_axis(void **state)
{
	struct plot_point pts[3];
	double p99[] = { 0, 10, 1000 }, ys[3];
	struct plot_series s = series_of(pts, p99, 3);

	assert_int_equal(latency_ys(draw(state, &log_axis, &s), ys, 3), 2);
}

static void marked_points_get_an_asterisk_and_the_legend_says_why(void **state)
{
	struct plot_point pts[3];
	double p99[] = { 1, 2, 3 };
	struct plot_series s = series_of(pts, p99, 3);
	struct plot_style style = { .title = "t", .mark_note = "marks <this> & that" };

	pts[1].marked = true;
	char *svg = draw(state, &style, &s);
	const char *mark = strstr(svg, "class='mark'");
	assert_non_null(mark);
	assert_null(strstr(mark + 1, "class='mark'"));
	assert_non_null(strstr(mark, "2 clients: a significant change"));
	assert_non_null(strstr(svg, ">marks &lt;this&gt; &amp; that</tspan>"));
	/* without a note, no legend line for marks */
	style.mark_note = NULL;
	assert_null(strstr(draw(state, &style, &s), "class='mark-note'"));
}

/* Tooltips count clients as English does: "1 client", "2 clients". */
static void tooltips_say_1_client_and_2_clients(void **state)
{
	struct plot_point pts[2];
	double p99[] = { 1, 2 };
	struct plot_series s = series_of(pts, p99, 2);
	struct plot_style style = { .title = "t", .mark_note = "m" };

	pts[0].marked = pts[1].marked = true;
	char *svg = draw(state, &style, &s);
	for (const char *const *t = (const char *const[]){ "1 client: 10.00 MB/sec mean",
							    "1 client: 1.00 ms p99",
							    "2 clients: 2.00 ms p99",
							    "1 client: a significant change",
							    "2 clients: a significant change", NULL };
	     *t; t++)
		assert_non_null(strstr(svg, talloc_asprintf(fixture_ctx(state), "<title>%s</title>",
							    *t)));
	assert_null(strstr(svg, "1 clients"));
}

/* The cx of each point, in order. */
static size_t point_xs(const char *svg, double *xs, size_t max)
{
	size_t n = 0;

	for (const char *p = svg; n < max && (p = strstr(p, "<circle class='point'")); p++)
		if (sscanf(p, "<circle class='point' cx='%lf'", &xs[n]) == 1)
			n++;
	return n;
}

/* Two documents at one client count, of equal figures: side by side, not
 * one hidden under the other; a single series stays on its count. */
static void series_at_one_count_are_drawn_side_by_side(void **state)
{
	struct plot_point pa[1], pb[1];
	double p99[] = { 2 }, xs[4], one[2];
	struct plot_series two[2] = { series_of(pa, p99, 1), series_of(pb, p99, 1) };
	static const struct plot_style plain = { .title = "t" };
	const char *dir = fixture_scratch_dir(state, "plot");
	char *path = talloc_asprintf(fixture_ctx(state), "%s/two.svg", dir);

	assert_int_equal(plot_svg(path, &plain, two, 2), 0);
	/* A's throughput and p99, then B's */
	assert_int_equal(point_xs(slurp(state, path), xs, 4), 4);
	assert_true(xs[0] == xs[1] && xs[2] == xs[3]);
	assert_true(fabs(xs[2] - xs[0]) >= 8);
	assert_int_equal(point_xs(draw(state, NULL, &two[0]), one, 2), 2);
	/* the one series on the count, between where the two stand */
	assert_true(fabs(one[0] - (xs[0] + xs[2]) / 2) < 0.1);
}

static void control_characters_in_names_do_not_reach_the_svg(void **state)
{
	struct plot_point pts[1];
	double p99[] = { 1 };
	struct plot_series s = series_of(pts, p99, 1);
	struct plot_style style = { .title = "a\tb" };

	s.name = "x\ny\x7f";
	char *svg = draw(state, &style, &s);
	assert_non_null(strstr(svg, ">a?b</text>"));
	assert_non_null(strstr(svg, ">x?y?</text>"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tick_labels_are_plain_decimals_without_trailing_zeros),
		cmocka_unit_test(the_latency_axis_is_log_past_two_decades_or_when_asked),
		cmocka_unit_test_setup_teardown(decades_are_evenly_spaced_and_labelled_on_a_log_axis,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_linear_axis_stays_linear_from_zero,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_log_axis_of_two_decades_labels_2_and_5_as_well,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_zero_p99_is_left_out_of_a_log_axis,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(marked_points_get_an_asterisk_and_the_legend_says_why,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(tooltips_say_1_client_and_2_clients,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(series_at_one_count_are_drawn_side_by_side,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(control_characters_in_names_do_not_reach_the_svg,
						fixture_setup, fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
