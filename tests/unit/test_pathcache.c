/*
 * test_pathcache.c - the slots of the files a client keeps open by path
 * (backends/pathcache.h): a path's home slot, a file that gives way to
 * another with the same home, and a pinned (locked) one that never does.
 *
 * Paths are compared by pointer, and a home is a hash of the pointer:
 * pointers 16 bytes apart into one array have different homes, pointers
 * PATHCACHE_SLOTS * 16 bytes apart the same one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "backends/pathcache.h"

#define SAME_HOME (PATHCACHE_SLOTS * 16)

static char names[SAME_HOME * 3];

/* The i-th path: i and i + PATHCACHE_SLOTS share a home. */
static const char *path(int i)
{
	return names + 16 * i;
}

/* Open `p` as a client would: the slot picked, then taken. */
static int open_path(struct pathcache *pc, const char *p)
{
	int slot = pathcache_pick(pc, p);

	assert_true(slot >= 0);
	pathcache_set(pc, slot, p);
	assert_int_equal(pathcache_find(pc, p), slot);
	return slot;
}

static void test_a_path_is_found_where_it_was_put(void **state)
{
	struct pathcache pc = { 0 };

	(void)state;
	assert_int_equal(pathcache_find(&pc, path(0)), -1);
	int a = open_path(&pc, path(0)), b = open_path(&pc, path(1));
	assert_int_not_equal(a, b);
	pathcache_set(&pc, a, NULL);
	assert_int_equal(pathcache_find(&pc, path(0)), -1);
	assert_int_equal(pathcache_find(&pc, path(1)), b);
}

static void test_an_unpinned_file_gives_way_to_one_with_its_home(void **state)
{
	struct pathcache pc = { 0 };

	(void)state;
	int a = open_path(&pc, path(0));
	assert_int_equal(pathcache_pick(&pc, path(PATHCACHE_SLOTS)), a);
}

/* The file in the home slot holds a lock: closing it to make room would
 * release the lock, so the newcomer goes elsewhere and both are found. */
static void test_a_pinned_file_never_gives_way(void **state)
{
	struct pathcache pc = { 0 };
	const char *locked = path(0), *other = path(PATHCACHE_SLOTS);

	(void)state;
	int a = open_path(&pc, locked);
	pc.pinned[a] = true;
	int b = open_path(&pc, other);
	assert_int_not_equal(b, a);
	assert_int_equal(pathcache_find(&pc, locked), a);
	assert_true(pc.pinned[a]);
	/* a third with that home takes neither of theirs */
	int c = open_path(&pc, path(2 * PATHCACHE_SLOTS));
	assert_int_not_equal(c, a);
	assert_int_not_equal(c, b);
	assert_int_equal(pathcache_find(&pc, other), b);
	/* and once the one away is gone, the rest are still found */
	pathcache_set(&pc, b, NULL);
	assert_int_equal(pathcache_find(&pc, other), -1);
	assert_int_equal(pathcache_find(&pc, locked), a);
	assert_int_equal(pathcache_find(&pc, path(2 * PATHCACHE_SLOTS)), c);
}

/* Every slot full, the home pinned: an unpinned file's slot is taken,
 * never a pinned one's; every slot pinned, there is none. */
static void test_when_full_only_an_unpinned_slot_is_taken(void **state)
{
	struct pathcache pc = { 0 };

	(void)state;
	for (int i = 0; i < PATHCACHE_SLOTS; i++)
		pc.pinned[open_path(&pc, path(i))] = i != 7;
	assert_int_equal(pathcache_pick(&pc, path(PATHCACHE_SLOTS)), pathcache_find(&pc, path(7)));
	pc.pinned[pathcache_find(&pc, path(7))] = true;
	assert_int_equal(pathcache_pick(&pc, path(PATHCACHE_SLOTS)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_path_is_found_where_it_was_put),
		cmocka_unit_test(test_an_unpinned_file_gives_way_to_one_with_its_home),
		cmocka_unit_test(test_a_pinned_file_never_gives_way),
		cmocka_unit_test(test_when_full_only_an_unpinned_slot_is_taken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
