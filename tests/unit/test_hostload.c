/*
 * test_hostload.c - how busy the machine was (hostload.h), specified by
 * example: the procfs files as the kernel writes them, and the figures
 * of a window from two readings made up by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hostload.h"

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (within %g)", got, want, tol);
}

static void the_cpu_line_gives_busy_and_steal_seconds(void **state)
{
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	const char *stat = "cpu  57095 5 36974 96998 8852 7 1665 3113 0 0\n"
			   "cpu0 28084 0 16096 53004 2939 0 536 1602 0 0\n"
			   "intr 123\n";
	struct hostload_cpu cpu;

	(void)state;
	assert_true(hostload_parse_stat(stat, 100, &cpu));
	/* busy: user + nice + system + irq + softirq, not idle or iowait */
	assert_near(cpu.busy_s, (57095 + 5 + 36974 + 7 + 1665) / 100.0, 1e-9);
	assert_near(cpu.steal_s, 31.13, 1e-9);
	assert_false(hostload_parse_stat("intr 1\n", 100, &cpu));
	assert_false(hostload_parse_stat("cpu  1 2 3\n", 100, &cpu));
	/* a kernel without steal: seven numbers */
	assert_true(hostload_parse_stat("cpu  1 2 3 4 5 6 7\n", 1, &cpu));
	assert_near(cpu.steal_s, 0, 0);
}

static void schedstat_gives_the_time_on_a_cpu_and_waiting_for_one(void **state)
{
	struct hostload_sched s;
	double avg[3];

	(void)state;
	assert_true(hostload_parse_schedstat("2500000000 139438 17\n", &s));
	assert_near(s.run_s, 2.5, 1e-12);
	assert_near(s.wait_s, 139438e-9, 1e-15);
	assert_false(hostload_parse_schedstat("", &s));
	assert_true(hostload_parse_loadavg("177.35 69.32 25.68 12/1234 5678\n", avg));
	assert_near(avg[0], 177.35, 1e-12);
	assert_near(avg[2], 25.68, 1e-12);
	assert_false(hostload_parse_loadavg("x", avg));
}

/* A reading of two client processes and a probe. */
static struct hostload_reading reading(double busy, double steal, double self,
				       struct hostload_sched *p, bool *ok)
{
	return (struct hostload_reading){ .cpu_ok = true, .cpu = { busy, steal },
					  .loadavg = { 1, 2, 3 }, .self_s = self, .nprocs = 3,
					  .nclients = 2, .proc = p, .proc_ok = ok };
}

/* The readings of the next two tests: two clients and a probe, 4 s on 2
 * CPUs as the counters have it. */
static void two_readings(struct hostload_reading *a, struct hostload_reading *b)
{
	static struct hostload_sched pa[3] = { { 10, 5 }, { 20, 5 }, { 1, 0 } };
	static struct hostload_sched pb[3] = { { 11, 7 }, { 21.5, 6 }, { 1.1, 0.5 } };
	static bool ok[3] = { true, true, true };

	*a = reading(100, 10, 3, pa, ok);
	*b = reading(107, 10.4, 3.4, pb, ok);
}

static void the_window_is_other_work_steal_and_the_clients_wait(void **state)
{
	/* 4 s on 2 CPUs: 8 CPU-seconds.  The machine was busy for 7 of them;
	 * the clients ran 1 + 1.5, the probe 0.1, the driver 0.4: 3 s own, 4
	 * other.  The clients waited 2 + 1 s of their 8. */
	struct hostload_reading a, b;
	struct hostload h;

	(void)state;
	two_readings(&a, &b);
	b.loadavg[0] = 9;
	hostload_figures(&h, &a, &b, 4, 2);
	assert_true(h.measured);
	assert_near(h.own_cpu_s, 3, 1e-9);
	assert_near(h.other_cpu_s, 4, 1e-9);
	assert_near(h.other_cpu_pct, 50, 1e-9);
	assert_near(h.steal_s, 0.4, 1e-9);
	assert_near(h.steal_pct, 5, 1e-9);
	assert_near(h.cpu_wait_s, 3, 1e-9);
	assert_near(h.cpu_wait_pct, 37.5, 1e-9);	/* 3 of 2 x 4 s */
	assert_int_equal(h.procs_read, 2);
	assert_near(h.loadavg_start[0], 1, 0);
	assert_near(h.loadavg_end[0], 9, 0);
}

static void a_process_read_at_one_end_only_is_left_out(void **state)
{
	struct hostload_sched pa[3] = { { 10, 5 }, { 20, 5 }, { 1, 0 } };
	struct hostload_sched pb[3] = { { 11, 7 }, { 0, 0 }, { 1, 0 } };
	bool oka[3] = { true, true, true }, okb[3] = { true, false, true };
	struct hostload_reading a = reading(100, 0, 0, pa, oka), b = reading(100.5, 0, 0, pb, okb);
	struct hostload h;

	(void)state;
	hostload_figures(&h, &a, &b, 1, 1);
	assert_int_equal(h.procs_read, 1);
	/* 2 s of its 1 (a made-up reading): a share is 100 % at most */
	assert_near(h.cpu_wait_pct, 100, 1e-9);
	/* busy 0.5 s, own 1 s: ticks are coarse, and no other work is 0 */
	assert_near(h.other_cpu_s, 0, 0);
	/* without /proc/stat, no figures of the machine */
	b.cpu_ok = false;
	hostload_figures(&h, &a, &b, 1, 1);
	assert_true(isnan(h.other_cpu_s) && isnan(h.steal_pct));
	assert_near(h.cpu_wait_s, 2, 1e-9);
}

static void the_window_is_the_time_between_the_readings(void **state)
{
	/* the execute window was 4 s, but the readings were taken 5 s apart
	 * (a busy machine delayed the second): the clients' 3 s of waiting is
	 * 30 % of their 2 x 5 s, not 37.5 % of 2 x 4 s */
	struct hostload_reading a, b;
	struct hostload h;

	(void)state;
	two_readings(&a, &b);
	a.t_s = 1000;
	b.t_s = 1005;
	hostload_figures(&h, &a, &b, 4, 2);
	assert_near(h.window_s, 5, 1e-9);
	assert_near(h.cpu_wait_pct, 30, 1e-9);
	assert_near(h.other_cpu_pct, 40, 1e-9);	/* 4 s of 2 x 5 */
}

static void a_reading_of_this_process_is_whole(void **state)
{
	pid_t self = getpid();
	struct hostload_reading r;
	void *ctx = talloc_new(NULL);

	(void)state;
	hostload_read(ctx, &r, &self, 1, 1);
	assert_true(r.cpu_ok);
	assert_true(r.cpu.busy_s > 0);
	assert_true(r.loadavg[0] >= 0);
	assert_int_equal(r.nprocs, 1);
	assert_true(r.proc_ok[0]);
	assert_true(r.proc[0].run_s > 0);
	assert_true(r.t_s > 0);
	pid_t gone = 0;
	hostload_read(ctx, &r, &gone, 1, 1);
	assert_false(r.proc_ok[0]);
	talloc_free(ctx);
}

/* The second figure of /proc/thread-self/schedstat, as read by hand. */
static uint64_t wait_by_hand(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &run, &wait), 2);
	fclose(f);
	return wait;
}

static void a_threads_wait_for_a_cpu_is_its_own_schedstats(void **state)
{
	uint64_t got = UINT64_MAX;

	(void)state;
	if (access("/proc/thread-self/schedstat", R_OK) != 0) {
		assert_false(hostload_thread_wait_ns(&got));	/* the kernel does not say */
		return;
	}
	uint64_t before = wait_by_hand();
	assert_true(hostload_thread_wait_ns(&got));
	uint64_t after = wait_by_hand();
	assert_true(before <= got && got <= after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_cpu_line_gives_busy_and_steal_seconds),
		cmocka_unit_test(schedstat_gives_the_time_on_a_cpu_and_waiting_for_one),
		cmocka_unit_test(the_window_is_other_work_steal_and_the_clients_wait),
		cmocka_unit_test(a_process_read_at_one_end_only_is_left_out),
		cmocka_unit_test(the_window_is_the_time_between_the_readings),
		cmocka_unit_test(a_reading_of_this_process_is_whole),
		cmocka_unit_test(a_threads_wait_for_a_cpu_is_its_own_schedstats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
