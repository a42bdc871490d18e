/*
 * fixture.h - the per-test fixture the cmocka unit tests share: a talloc
 * context for everything a test allocates, and a scratch directory made
 * on first use and removed (with all it holds) at teardown.
 */
#ifndef DBENCH_TEST_FIXTURE_H
#define DBENCH_TEST_FIXTURE_H

#include <talloc.h>

struct fixture {
	TALLOC_CTX *ctx;	/* everything a test allocates */
	char *dir;		/* scratch directory, made by fixture_scratch_dir() */
};

/* cmocka setup and teardown functions. */
int fixture_setup(void **state);
int fixture_teardown(void **state);

TALLOC_CTX *fixture_ctx(void **state);

/* The test's scratch directory under /tmp, named after `what`. */
const char *fixture_scratch_dir(void **state, const char *what);

/* Remove a directory tree (test scratch only: follows nothing, stops at
 * nothing). */
void fixture_remove_tree(const char *dir);

#endif
