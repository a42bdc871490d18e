/*
 * selfdir.c - the directories of the program's own files, from the
 * executable's path (see selfdir.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "selfdir.h"

char *selfdir_find(TALLOC_CTX *mem_ctx, const char *built, const char *installed)
{
	char exe[PATH_MAX] = ".";
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';	/* an absolute path: there is a '/' */
	}
	char *dir = talloc_asprintf(mem_ctx, "%s/%s", exe, built);
	if (!dir)
		return NULL;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* "build/san/../../loadfiles" named as the directory it is */
		char *real = realpath(dir, NULL);
		if (real) {
			talloc_free(dir);
			dir = talloc_strdup(mem_ctx, real);
			free(real);
		}
		return dir;
	}
	talloc_free(dir);
	char *up = strrchr(exe, '/');	/* the parent, PREFIX ("" for /) */
	if (up)
		*up = '\0';
	else
		strcpy(exe, "..");
	return talloc_asprintf(mem_ctx, "%s/%s", exe, installed);
}
