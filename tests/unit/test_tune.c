/*
 * test_tune.c - dbench tune's race (tune_race.h) on figures whose order
 * is known, and its settings' keys and values (tune_setting.h) as
 * parsed.  What touches the machine (writing, reading back, the
 * journal) is tests/shell/test_tune.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "series/tune_race.h"
#include "series/tune_setting.h"

/* A block of figures: cand c's figure is base[c] times (1 + wobble[c]). */
static void block(struct race *r, const double *base, size_t k, const double *wobble)
{
	race_begin_block(r);
	for (size_t c = 0; c < k; c++)
		if (race_alive(r, c))
			race_record(r, c, 0, base[c] * (1 + (wobble ? wobble[c] : 0)));
}

static void nothing_is_dropped_before_the_first_test(void **state)
{
	struct race_params p = { .ncand = 4, .nconds = 1, .first_test = 5, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	double mb[] = { 100, 90, 80, 70 };
	const struct race_drop *d;

	(void)state;
	for (int b = 0; b < 4; b++) {
		block(r, mb, 4, NULL);
		assert_int_equal(race_end_block(r, &d), 0);
	}
	assert_int_equal(race_nalive(r), 4);
	talloc_free(r);
}

static void blocks_that_agree_drop_all_but_the_best_at_the_first_test(void **state)
{
	/* five blocks ranking four alike: T = n (k - 1) = 15, p = 0.0018;
	 * every pair's rank sums differ with no spread: p 0, Holm 0 */
	struct race_params p = { .ncand = 4, .nconds = 1, .first_test = 5, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	double mb[] = { 70, 100, 90, 80 };
	const struct race_drop *d;
	size_t n = 0;

	(void)state;
	for (int b = 0; b < 5; b++) {
		block(r, mb, 4, NULL);
		n = race_end_block(r, &d);
	}
	assert_int_equal(n, 3);
	assert_int_equal(race_nalive(r), 1);
	assert_true(race_alive(r, 1));
	assert_int_equal(race_best(r), 1);
	/* the worst, candidate 0, had rank 4 of 4 against candidate 1 */
	const struct race_drop *why = race_dropped(r, 0);
	assert_non_null(why);
	assert_int_equal(why->block, 5);
	assert_true(why->mean_rank == 4 && why->nalive == 4 && why->against == 1);
	assert_true(why->p == 0 && !why->wilcoxon);
	assert_null(race_dropped(r, 1));
	talloc_free(r);
}

/* Five blocks of four latencies (lower wins), candidate 0 the best:
 * Friedman p 0.033; Conover's p against it 0.0015 for candidate 1,
 * 0.035 for 2 and 3; Holm's 0.0046, 0.070, 0.070. */
static const double posthoc_blocks[5][4] = {
	{ 1, 3, 2, 4 }, { 1, 4, 2, 3 }, { 2, 4, 3, 1 }, { 1, 3, 4, 2 }, { 1, 4, 2, 3 },
};

/* Five blocks of four latencies, candidate 0 the best (rank sum 8):
 * Friedman p 0.041; Conover's p against it 0.0408 for candidate 1,
 * 0.749 for 2, 0.0067 for 3; Dunnett's level for three comparisons,
 * two-sided, 0.0392. */
static const double near_blocks[5][4] = {
	{ 2, 4, 1, 3 }, { 2, 3, 1, 4 }, { 2, 4, 1, 3 }, { 1, 2, 3, 4 }, { 1, 2, 3, 4 },
};

/* The drops after block 5 of blocks, by rule. */
static size_t posthoc_drops(const double (*blocks)[4], enum race_rule rule, struct race **out)
{
	struct race_params p = { .ncand = 4, .nconds = 1, .first_test = 5, .alpha = 0.05,
				 .rule = rule };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;
	size_t n = 0;

	for (int b = 0; b < 5; b++) {
		block(r, blocks[b], 4, NULL);
		n = race_end_block(r, &d);
	}
	*out = r;
	return n;
}

static void f_race_drops_on_the_comparisons_as_they_are_holm_on_fewer(void **state)
{
	struct race *r;

	(void)state;
	/* F-Race: every one of the three under alpha */
	assert_int_equal(posthoc_drops(posthoc_blocks, RACE_PLAIN, &r), 3);
	assert_int_equal(race_nalive(r), 1);
	assert_true(race_alive(r, 0));
	assert_true(fabs(race_dropped(r, 2)->p - 0.0349) < 0.0001);
	talloc_free(r);
	/* Holm's correction lifts two of them above it */
	assert_int_equal(posthoc_drops(posthoc_blocks, RACE_HOLM, &r), 1);
	assert_int_equal(race_nalive(r), 3);
	assert_false(race_alive(r, 1));
	assert_true(fabs(race_dropped(r, 1)->p - 0.0046) < 0.0001);
	talloc_free(r);
}

static void comparisons_with_the_best_drop_below_dunnetts_level(void **state)
{
	struct race *r;

	(void)state;
	/* one-sided against Dunnett's bound for three: level 0.039, above
	 * the 0.035 that Holm's correction lifts to 0.070 */
	assert_int_equal(posthoc_drops(posthoc_blocks, RACE_BEST, &r), 3);
	assert_int_equal(race_nalive(r), 1);
	assert_true(fabs(race_dropped(r, 2)->p - 0.0349) < 0.0001);
	assert_true(fabs(race_dropped(r, 2)->level - 0.0392) < 0.0001);
	talloc_free(r);
	/* and below alpha: 0.0408 keeps candidate 1, which F-Race drops */
	assert_int_equal(posthoc_drops(near_blocks, RACE_BEST, &r), 1);
	assert_true(race_alive(r, 1) && race_alive(r, 2) && !race_alive(r, 3));
	talloc_free(r);
	assert_int_equal(posthoc_drops(near_blocks, RACE_PLAIN, &r), 2);
	assert_false(race_alive(r, 1));
	talloc_free(r);
}

static void a_lower_figure_wins_for_a_latency(void **state)
{
	struct race_params p = { .ncand = 3, .nconds = 1, .first_test = 3, .alpha = 0.05 };
	struct race *r = race_new(NULL, &p);
	double ms[] = { 5, 1, 3 };
	const struct race_drop *d;

	(void)state;
	for (int b = 0; b < 6 && race_nalive(r) > 1; b++) {
		block(r, ms, 3, NULL);
		race_end_block(r, &d);
	}
	assert_int_equal(race_nalive(r), 1);
	assert_true(race_alive(r, 1));
	talloc_free(r);
}

static void two_left_are_judged_by_the_signed_rank_test(void **state)
{
	/* six blocks, B ahead in each: Wilcoxon's p = 2/64 */
	struct race_params p = { .ncand = 2, .nconds = 1, .first_test = 5, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;
	double mb[] = { 100, 101 }, wob[][2] = { { 0, 0 }, { 0, 0.01 }, { 0.02, 0.03 },
						 { 0, 0.005 }, { 0.01, 0.04 }, { 0, 0.002 } };

	(void)state;
	for (int b = 0; b < 5; b++) {
		block(r, mb, 2, wob[b]);
		/* five blocks give at best 2/32 = 0.0625 */
		assert_int_equal(race_end_block(r, &d), 0);
	}
	block(r, mb, 2, wob[5]);
	assert_int_equal(race_end_block(r, &d), 1);
	assert_int_equal(d[0].cand, 0);
	assert_true(d[0].wilcoxon);
	assert_true(fabs(d[0].p - 2.0 / 64) < 1e-12);
	talloc_free(r);
}

static void a_failed_run_ranks_last_in_its_block(void **state)
{
	struct race_params p = { .ncand = 3, .nconds = 1, .first_test = 2, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;

	(void)state;
	race_begin_block(r);
	race_record(r, 0, 0, 100);
	race_record(r, 1, 0, NAN);	/* failed */
	race_record(r, 2, 0, 50);
	race_end_block(r, &d);
	assert_true(race_mean_rank(r, 1, 1) == 3);
	assert_true(race_mean_rank(r, 0, 1) == 1);
	talloc_free(r);
}

static void conditions_are_blocks_of_their_own(void **state)
{
	/* at 1 client A wins, at 8 B: over the two, neither leads */
	struct race_params p = { .ncand = 2, .nconds = 2, .first_test = 2, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;

	(void)state;
	for (int b = 0; b < 8; b++) {
		race_begin_block(r);
		race_record(r, 0, 0, 100);
		race_record(r, 1, 0, 90);
		race_record(r, 0, 1, 300);
		race_record(r, 1, 1, 330);
		assert_int_equal(race_end_block(r, &d), 0);
	}
	assert_true(race_mean_rank(r, 0, 8) == 1.5);
	talloc_free(r);
}

static void survivors_within_the_margin_end_the_race(void **state)
{
	struct race_params p = { .ncand = 3, .nconds = 1, .first_test = 3, .alpha = 0.05,
				 .higher_better = true, .equivalent = 2 };
	struct race *r = race_new(NULL, &p);
	const struct race_drop *d;
	/* all within about half a percent, in no consistent order */
	double mb[] = { 100, 100, 100 }, wob[][3] = { { 0, 0.003, -0.002 }, { 0.002, -0.001, 0 },
						      { -0.003, 0, 0.001 }, { 0.001, 0.002, -0.004 } };

	(void)state;
	for (int b = 0; b < 2; b++) {
		block(r, mb, 3, wob[b]);
		race_end_block(r, &d);
		assert_false(race_equivalent(r));	/* no test yet */
	}
	block(r, mb, 3, wob[2]);
	race_end_block(r, &d);
	block(r, mb, 3, wob[3]);
	race_end_block(r, &d);
	assert_true(race_equivalent(r));
	assert_int_equal(race_nalive(r), 3);
	/* without the stop, none */
	p.equivalent = 0;
	struct race *r2 = race_new(NULL, &p);
	for (int b = 0; b < 4; b++) {
		block(r2, mb, 3, wob[b]);
		race_end_block(r2, &d);
	}
	assert_false(race_equivalent(r2));
	talloc_free(r);
	talloc_free(r2);
}

/* n blocks of two candidates, a[i] and b[i] in block i. */
static void pairs(struct race *r, const double *a, const double *b, int n)
{
	const struct race_drop *d;

	for (int i = 0; i < n; i++) {
		race_begin_block(r);
		race_record(r, 0, 0, a[i]);
		race_record(r, 1, 0, b[i]);
		race_end_block(r, &d);
	}
}

static void the_paired_difference_is_a_ratio_in_percent_of_the_second(void **state)
{
	struct race_params p = { .ncand = 2, .nconds = 1, .first_test = 9, .alpha = 0.05,
				 .higher_better = true };
	struct race *r = race_new(NULL, &p);
	double mean, lo, hi;
	size_t n;
	/* a over b: ratios 1.1 and 1.2: the mean of their logs, its
	 * half-width t(0.975, 1) * (ln 1.2 - ln 1.1) / 2, back in percent */
	double a[] = { 110, 240 }, b[] = { 100, 200 };

	(void)state;
	pairs(r, a, b, 2);
	assert_true(race_paired_diff(r, 0, 1, 0.95, &mean, &lo, &hi, &n));
	assert_int_equal(n, 2);
	double m = (log(1.1) + log(1.2)) / 2, half = 12.706204736174707 * (log(1.2) - log(1.1)) / 2;
	assert_true(fabs(mean - (sqrt(1.1 * 1.2) - 1) * 100) < 1e-9);	/* +14.89 % */
	assert_true(fabs(lo - (exp(m - half) - 1) * 100) < 1e-6);
	assert_true(fabs(hi - (exp(m + half) - 1) * 100) < 1e-6);
	double out[2];
	assert_int_equal(race_figures(r, 0, 0, out), 2);
	assert_true(out[0] == 110 && out[1] == 240);
	/* b much slower and unsteady (as a paced as found under load): a's
	 * gain is sure.  In percent (+900, +3233, +1150, +6567, +1011) the
	 * one slowest run of b widens the interval past 0; as ratios it is
	 * [+608 %, +5467 %] */
	double a2[] = { 100, 100, 100, 100, 100 }, b2[] = { 10, 3, 8, 1.5, 9 };
	struct race *r2 = race_new(NULL, &p);
	pairs(r2, a2, b2, 5);
	assert_true(race_paired_diff(r2, 0, 1, 0.95, &mean, &lo, &hi, &n));
	assert_int_equal(n, 5);
	assert_true(lo > 500 && mean > lo && hi > mean);
	talloc_free(r2);
	talloc_free(r);
}

static void settings_are_told_apart_by_their_keys(void **state)
{
	char *err = NULL;
	struct setting *s;

	(void)state;
	s = setting_parse(NULL, "vm.dirty_ratio=5,10,20", &err);
	assert_non_null(s);
	assert_int_equal(s->kind, SETTING_SYSCTL);
	assert_string_equal(s->path, "/proc/sys/vm/dirty_ratio");
	assert_int_equal(s->nvalues, 3);
	assert_string_equal(s->values[2], "20");
	talloc_free(s);
	s = setting_parse(NULL, "/sys/block/loop0/queue/scheduler=none,mq-deadline", &err);
	assert_true(s && s->kind == SETTING_SYSFS && s->nvalues == 2);
	talloc_free(s);
	s = setting_parse(NULL, "mount:/mnt/x=noatime,relatime+nodiratime", &err);
	assert_true(s && s->kind == SETTING_MOUNT && strcmp(s->path, "/mnt/x") == 0);
	assert_string_equal(s->values[1], "relatime+nodiratime");
	talloc_free(s);
	s = setting_parse(NULL, "env:DBENCH_NULL_DELAY_US=0,2", &err);
	assert_true(s && s->kind == SETTING_ENV && strcmp(s->path, "DBENCH_NULL_DELAY_US") == 0);
	talloc_free(s);
	for (const char **bad = (const char *[]){ "/etc/passwd=x", "dirty_ratio=1", "env:1X=2",
						  "mount:x=ro", "vm.dirty_ratio", NULL };
	     *bad; bad++) {
		err = NULL;
		assert_null(setting_parse(NULL, *bad, &err));
		assert_non_null(err);
		talloc_free(err);
	}
}

static void opt_values_may_be_empty_or_quoted(void **state)
{
	char *err = NULL;
	struct setting *s = setting_parse(NULL, "opt=,-F,-S", &err);

	(void)state;
	assert_true(s && s->kind == SETTING_OPT && s->nvalues == 3);
	assert_string_equal(s->values[0], "");
	assert_string_equal(s->values[2], "-S");
	talloc_free(s);
	s = setting_parse(NULL, "opt='--cpus=0,1','',\"-F -S\"", &err);
	assert_true(s && s->nvalues == 3);
	assert_string_equal(s->values[0], "--cpus=0,1");
	assert_string_equal(s->values[1], "");
	assert_string_equal(s->values[2], "-F -S");
	char *label = setting_label(s, s, s->values[1]);
	assert_string_equal(label, "opt=''");
	talloc_free(s);
	s = setting_parse(NULL, "opt=-F,", &err);
	assert_true(s && s->nvalues == 2 && s->values[1][0] == '\0');
	talloc_free(s);
	assert_null(setting_parse(NULL, "opt='-F,-S", &err));
	talloc_free(err);
}

static void file_values_compare_as_the_kernel_prints_them(void **state)
{
	char *err = NULL;
	struct setting *s = setting_parse(NULL, "/sys/block/loop0/queue/scheduler=none", &err);

	(void)state;
	assert_true(setting_same(s, "[none] mq-deadline kyber\n", "none"));
	assert_false(setting_same(s, "none [mq-deadline] kyber", "none"));
	assert_true(setting_same(s, "4096\t87380  6291456\n", "4096 87380 6291456"));
	assert_false(setting_same(s, "4", "5"));
	talloc_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_is_dropped_before_the_first_test),
		cmocka_unit_test(blocks_that_agree_drop_all_but_the_best_at_the_first_test),
		cmocka_unit_test(f_race_drops_on_the_comparisons_as_they_are_holm_on_fewer),
		cmocka_unit_test(comparisons_with_the_best_drop_below_dunnetts_level),
		cmocka_unit_test(a_lower_figure_wins_for_a_latency),
		cmocka_unit_test(two_left_are_judged_by_the_signed_rank_test),
		cmocka_unit_test(a_failed_run_ranks_last_in_its_block),
		cmocka_unit_test(conditions_are_blocks_of_their_own),
		cmocka_unit_test(survivors_within_the_margin_end_the_race),
		cmocka_unit_test(the_paired_difference_is_a_ratio_in_percent_of_the_second),
		cmocka_unit_test(settings_are_told_apart_by_their_keys),
		cmocka_unit_test(opt_values_may_be_empty_or_quoted),
		cmocka_unit_test(file_values_compare_as_the_kernel_prints_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
