/*
 * test_grow.c - the one growth step of appended-to arrays (grow.h): the
 * first room, the doubling, the new elements zeroed, the old kept, and
 * an array left as it was when the room cannot be had; and the same
 * growth without the zeroing (grow_array_unset()).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "grow.h"

static void an_empty_array_gets_its_first_room(void **state)
{
	uint32_t *v = NULL;
	size_t cap = 0;

	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 1, 16));
	assert_non_null(v);
	assert_int_equal(cap, 16);
	assert_ptr_equal(talloc_parent(v), fixture_ctx(state));
	assert_int_equal(talloc_get_size(v), 16 * sizeof(*v));
}

static void the_room_doubles_until_it_holds_what_is_needed(void **state)
{
	uint32_t *v = NULL;
	size_t cap = 0;

	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 100, 16));
	assert_int_equal(cap, 128);	/* 16, 32, 64, 128 */
	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 129, 16));
	assert_int_equal(cap, 256);
}

static void an_array_with_room_is_left_alone(void **state)
{
	uint32_t *v = NULL, *before;
	size_t cap = 0;

	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 8, 8));
	before = v;
	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 8, 8));
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 8);
}

static void the_old_elements_are_kept_and_the_new_zeroed(void **state)
{
	uint64_t *v = NULL;
	size_t cap = 0;

	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 4, 4));
	for (size_t i = 0; i < cap; i++)
		v[i] = ~(uint64_t)0 - i;
	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 5, 4));
	assert_int_equal(cap, 8);
	for (size_t i = 0; i < 4; i++)
		assert_true(v[i] == ~(uint64_t)0 - i);
	for (size_t i = 4; i < 8; i++)
		assert_true(v[i] == 0);
}

static void a_room_that_would_overflow_is_refused_and_changes_nothing(void **state)
{
	uint64_t *v = NULL, *before;
	size_t cap = 0;

	assert_true(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 2, 2));
	before = v;
	assert_false(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, SIZE_MAX / 4,
				2));
	assert_false(grow_array(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, SIZE_MAX, 2));
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 2);
}

/* grow_array_unset(): the same room, the old elements kept, the same
 * refusal; only the zeroing is left out. */
static void unset_growth_doubles_keeps_and_refuses_as_grow_array(void **state)
{
	uint64_t *v = NULL, *before;
	size_t cap = 0;

	assert_true(grow_array_unset(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 3, 4));
	assert_int_equal(cap, 4);
	assert_ptr_equal(talloc_parent(v), fixture_ctx(state));
	for (size_t i = 0; i < cap; i++)
		v[i] = ~(uint64_t)0 - i;
	assert_true(grow_array_unset(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 17, 4));
	assert_int_equal(cap, 32);	/* 4, 8, 16, 32 */
	assert_int_equal(talloc_get_size(v), 32 * sizeof(*v));
	for (size_t i = 0; i < 4; i++)
		assert_true(v[i] == ~(uint64_t)0 - i);
	before = v;
	assert_true(grow_array_unset(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, 32, 4));
	assert_ptr_equal(v, before);
	assert_false(grow_array_unset(fixture_ctx(state), (void **)&v, sizeof(*v), &cap, SIZE_MAX, 4));
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 32);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(an_empty_array_gets_its_first_room),
		T(the_room_doubles_until_it_holds_what_is_needed),
		T(an_array_with_room_is_left_alone),
		T(the_old_elements_are_kept_and_the_new_zeroed),
		T(a_room_that_would_overflow_is_refused_and_changes_nothing),
		T(unset_growth_doubles_keeps_and_refuses_as_grow_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
