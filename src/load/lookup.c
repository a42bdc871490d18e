/*
 * lookup.c - where a loadfile named on the command line is (loadfile.h,
 * loadfile_lookup()): a name with a '/' is a path; a bare name is looked
 * for in the current directory, then in the directory of installed
 * loadfiles, as given and with ".load" and ".txt" after it, so that
 * `dbench -c build 8` finds PREFIX/share/dbench/build.load.
 *
 * Knows nothing of a loadfile's contents.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loadfile.h"

#ifndef DBENCH_DATADIR
#define DBENCH_DATADIR "/usr/local/share/dbench"
#endif

const char *loadfile_dir(void)
{
	const char *env = getenv("DBENCH_LOADFILE_DIR");

	return env && *env ? env : DBENCH_DATADIR;
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
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *p = talloc_asprintf(mem_ctx, "%s/%s%s", loadfile_dir(), name, suffixes[i]);
		if (p && readable(p))
			return p;
		talloc_free(p);
	}
	return name;
}
