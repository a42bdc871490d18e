/*
 * test_streams.c - a client's streams on threads and the waits between
 * them (src/run/streams.c): waits that come true, many streams waiting
 * on one, and the guard against a circle of waits, which comes to
 * STREAMS_STALLED naming the circle instead of waiting for ever.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "fixture.h"
#include "run/streams.h"

#define MANY 64

/* What each stream waits for, does, and what its waits came to. */
struct plan {
	struct streams *ss;
	struct call_dep wait[MANY];	/* seq 0: none */
	uint32_t calls[MANY];		/* calls it does (after its wait) */
	unsigned sleep_ms[MANY];	/* before each call */
	enum streams_wait got[MANY];
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void stream_fn(void *arg, unsigned s)
{
	struct plan *p = arg;

	p->got[s] = p->wait[s].seq ? streams_wait(p->ss, s, &p->wait[s], 1) : STREAMS_GO;
	for (uint32_t i = 0; p->got[s] == STREAMS_GO && i < p->calls[s]; i++) {
		sleep_ms(p->sleep_ms[s]);
		streams_done(p->ss, s, i + 1);
	}
}

/* Every stream waiting for a call of stream 0's, each another: each is
 * woken when its call is done, and none is left waiting. */
static void test_many_streams_wait_on_one(void **state)
{
	struct plan *p = talloc_zero(fixture_ctx(state), struct plan);

	p->ss = streams_new(p, MANY);
	assert_non_null(p->ss);
	p->calls[0] = MANY;
	for (unsigned s = 1; s < MANY; s++)
		p->wait[s] = (struct call_dep){ .seq = s, .stream = 0 };
	assert_true(streams_run(p->ss, stream_fn, p));
	for (unsigned s = 0; s < MANY; s++)
		assert_int_equal(p->got[s], STREAMS_GO);
	assert_false(streams_aborted(p->ss));
}

/* A stream waited for makes a wake-up call only for the counts some
 * waiter sleeps on (its 32nd and 64th here), not one for each count
 * while it is waited for (63 before). */
static void test_a_wait_costs_its_stream_the_wakeups_it_needs(void **state)
{
	struct plan *p = talloc_zero(fixture_ctx(state), struct plan);

	p->ss = streams_new(p, 2);
	assert_non_null(p->ss);
	p->calls[0] = 64;
	p->sleep_ms[0] = 1;
	p->wait[1] = (struct call_dep){ .seq = 64, .stream = 0 };
	assert_true(streams_run(p->ss, stream_fn, p));
	assert_int_equal(p->got[1], STREAMS_GO);
	assert_true(streams_wakeups(p->ss) <= 2);
}

/* Two streams each waiting for the other (a circle no compiled program
 * has): past the limit, one of them comes to STREAMS_STALLED and names
 * the circle from itself, the other is stopped. */
static void test_a_circle_of_waits_stalls(void **state)
{
	struct plan *p = talloc_zero(fixture_ctx(state), struct plan);
	unsigned n;

	p->ss = streams_new(p, 3);
	streams_set_stall(p->ss, 200000000);
	p->wait[0] = (struct call_dep){ .seq = 1, .stream = 1 };
	p->wait[1] = (struct call_dep){ .seq = 2, .stream = 0 };
	p->calls[0] = p->calls[1] = 2;
	p->calls[2] = 3;	/* a third, free, goes on */
	assert_true(streams_run(p->ss, stream_fn, p));
	assert_true(streams_aborted(p->ss));
	assert_int_equal(p->got[2], STREAMS_GO);
	unsigned who = p->got[0] == STREAMS_STALLED ? 0 : 1;
	assert_int_equal(p->got[who], STREAMS_STALLED);
	assert_int_equal(p->got[1 - who], STREAMS_STOPPED);
	const struct call_dep *c = streams_stall(p->ss, &n);
	assert_int_equal(n, 2);
	assert_int_equal(c[0].stream, 1 - who);
	assert_int_equal(c[0].seq, p->wait[who].seq);
	assert_int_equal(c[1].stream, who);
	assert_int_equal(c[1].seq, p->wait[1 - who].seq);
}

/* A long wait for a stream that is busy (not itself waiting) is no
 * stall, however long it lasts. */
static void test_a_long_wait_for_a_busy_stream_is_no_stall(void **state)
{
	struct plan *p = talloc_zero(fixture_ctx(state), struct plan);

	p->ss = streams_new(p, 2);
	streams_set_stall(p->ss, 50000000);
	p->wait[0] = (struct call_dep){ .seq = 3, .stream = 1 };
	p->calls[1] = 3;
	p->sleep_ms[1] = 100;
	assert_true(streams_run(p->ss, stream_fn, p));
	assert_int_equal(p->got[0], STREAMS_GO);
	assert_false(streams_aborted(p->ss));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)
		T(test_many_streams_wait_on_one),
		T(test_a_wait_costs_its_stream_the_wakeups_it_needs),
		T(test_a_circle_of_waits_stalls),
		T(test_a_long_wait_for_a_busy_stream_is_no_stall),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
