/*
 * modload.c - loading dbench's modules (modload.h).
 *
 * Owns where modules are looked for and the dlopen() of one; knows
 * nothing of backends or tracers.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modload.h"

#ifndef DBENCH_MODULE_REL
#define DBENCH_MODULE_REL "build/modules"
#endif

char *modload_dir(TALLOC_CTX *mem_ctx)
{
	const char *env = getenv("DBENCH_MODULE_DIR");
	char exe[PATH_MAX];
	struct stat st;

	if (env && *env)
		return talloc_strdup(mem_ctx, env);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return talloc_strdup(mem_ctx, ".");
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';	/* an absolute path: there is a '/' */
	char *dir = talloc_asprintf(mem_ctx, "%s/%s", exe, DBENCH_MODULE_REL);
	if (dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return dir;
	talloc_free(dir);
	char *up = strrchr(exe, '/');	/* BINDIR's parent, PREFIX ("" for /) */
	if (up)
		*up = '\0';
	return talloc_asprintf(mem_ctx, "%s/lib/dbench", exe);
}

void *modload_symbol(TALLOC_CTX *mem_ctx, const char *name, const char *symbol, char **err)
{
	char *dir = modload_dir(mem_ctx);
	char *path = dir ? talloc_asprintf(mem_ctx, "%s/%s.so", dir, name) : NULL;

	if (!path) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void *sym = h ? dlsym(h, symbol) : NULL;
	if (!sym) {
		*err = talloc_asprintf(mem_ctx, "%s", dlerror());
		if (h)
			dlclose(h);
		return NULL;
	}
	return sym;
}
