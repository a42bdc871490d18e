/*
 * fixture.c - the unit tests' shared fixture (see fixture.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->ctx = talloc_new(NULL);
	*state = f;
	return f->ctx ? 0 : -1;
}

void fixture_remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = talloc_asprintf(NULL, "%s/%s", dir, e->d_name);
		if (p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			fixture_remove_tree(p);
		else if (p)
			unlink(p);
		talloc_free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	if (f->dir)
		fixture_remove_tree(f->dir);
	talloc_free(f->ctx);
	free(f);
	return 0;
}

TALLOC_CTX *fixture_ctx(void **state)
{
	return ((struct fixture *)*state)->ctx;
}

const char *fixture_scratch_dir(void **state, const char *what)
{
	struct fixture *f = *state;

	if (!f->dir) {
		f->dir = talloc_asprintf(f->ctx, "/tmp/%s.XXXXXX", what);
		assert_non_null(f->dir);
		assert_non_null(mkdtemp(f->dir));
	}
	return f->dir;
}
