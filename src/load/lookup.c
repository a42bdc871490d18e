/*
 * lookup.c - where a loadfile named on the command line is (loadfile.h,
 * loadfile_lookup()): a name with a '/' is a path; a bare name is looked
 * for in the current directory, then among the loadfiles that come with
 * the binary (loadfile_dir(): the build tree's loadfiles/ beside it, or
 * once installed PREFIX/share/dbench), as given and with ".load" and
 * ".txt" after it, so that `dbench -c sqlite 8` finds sqlite.load.
 *
 * Knows nothing of a loadfile's contents.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loadfile.h"
#include "selfdir.h"

/* The build tree's loadfiles/, relative to the directory of the binary
 * (the Makefile says where that is for each build). */
#ifndef DBENCH_LOADFILE_REL
#define DBENCH_LOADFILE_REL "loadfiles"
#endif

char *loadfile_dir(TALLOC_CTX *mem_ctx)
{
	const char *env = getenv("DBENCH_LOADFILE_DIR");

	if (env && *env)
		return talloc_strdup(mem_ctx, env);
	return selfdir_find(mem_ctx, DBENCH_LOADFILE_REL, "share/dbench");
}

/* Whether path can be read as a loadfile: a file or a pipe, not a directory. */
static bool readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode));
}

const char *loadfile_lookup(TALLOC_CTX *mem_ctx, const char *name)
{
	static const char *const suffixes[] = { "", ".load", ".txt" };

	if (strchr(name, '/') || !*name || readable(name))
		return name;
	char *dir = loadfile_dir(mem_ctx);
	for (size_t i = 0; dir && i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *p = talloc_asprintf(mem_ctx, "%s/%s%s", dir, name, suffixes[i]);
		if (p && readable(p)) {
			talloc_free(dir);
			return p;
		}
		talloc_free(p);
	}
	talloc_free(dir);
	return name;
}
