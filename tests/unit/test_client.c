/*
 * test_client.c - the memory the parent makes for a client process
 * (client.h client_pool()), looked at through talloc's tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fixture.h"
#include "backend.h"
#include "run/client.h"

#define HOLES 4000

/* The lowest and highest address of the objects in a talloc tree, and
 * how many there are (a pool's size is not its own: talloc gives 0). */
struct extent {
	uintptr_t lo, hi;
	size_t count;
};

static void cover(const void *ptr, int depth, int max_depth, int is_ref, void *priv)
{
	struct extent *e = priv;
	uintptr_t p = (uintptr_t)ptr;
	size_t size = talloc_get_size(ptr);

	(void)depth, (void)max_depth;
	if (is_ref)
		return;
	e->lo = p < e->lo ? p : e->lo;
	e->hi = p + size > e->hi ? p + size : e->hi;
	e->count++;
}

/* A heap with holes of several sizes spread over a few MB, as the
 * parent's is after parsing, probing and describing the targets. */
static void **riddle_heap(void)
{
	void **blocks = calloc(HOLES, sizeof(void *));

	assert_non_null(blocks);
	for (int i = 0; i < HOLES; i++)
		assert_non_null(blocks[i] = malloc(64 + (size_t)(i % 7) * 160));
	for (int i = 0; i < HOLES; i += 2) {
		free(blocks[i]);
		blocks[i] = NULL;
	}
	return blocks;
}

static void free_blocks(void **blocks)
{
	for (int i = 0; i < HOLES; i++)
		free(blocks[i]);
	free(blocks);
}

/* One block however riddled the parent's heap, so that the few KB a
 * client process writes at the start of each piece share pages: before,
 * each piece went wherever malloc found a hole (three pages written
 * where one or two would do).  Fails with one malloc per piece. */
static void test_a_client_process_memory_is_one_block(void **state)
{
	struct program prog = { .max_handles = 4 };
	struct run_plan plan = { .nclients = 3, .backend = &fileio_backend, .prog = &prog };
	void **blocks = riddle_heap();
	/* three pools and, in 4 KB, the array of three clients and the headers */
	size_t room = 3 * (fileio_backend.client_mem(&prog, &plan.bopts) +
			   2 * BACKEND_ALLOC_OVERHEAD) + 4096;

	(void)state;
	TALLOC_CTX *pool = client_pool(&plan, 3);
	assert_non_null(pool);
	struct extent e = { .lo = UINTPTR_MAX };
	talloc_report_depth_cb(pool, 0, -1, cover, &e);
	assert_int_equal(e.count, 1 + 1 + 1 + 3);	/* itself, shared, each[], 3 pools */
	assert_in_range(e.hi - e.lo, 0, room);
	talloc_free(pool);
	free_blocks(blocks);
}

/* More clients than talloc allows in one allocation (256 MiB): each is
 * given its pool all the same. */
static void test_a_process_of_many_clients_gets_a_pool_each(void **state)
{
	struct program prog = { .max_handles = 4 };
	unsigned n = 16000;	/* about 16000 * 17 KB */
	struct run_plan plan = { .nclients = n, .backend = &fileio_backend, .prog = &prog };

	(void)state;
	TALLOC_CTX *pool = client_pool(&plan, n);
	assert_non_null(pool);
	struct extent e = { .lo = UINTPTR_MAX };
	talloc_report_depth_cb(pool, 0, -1, cover, &e);
	assert_int_equal(e.count, 1 + 1 + 1 + n);
	talloc_free(pool);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_a_client_process_memory_is_one_block),
		T(test_a_process_of_many_clients_gets_a_pool_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
