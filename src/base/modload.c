/*
 * modload.c - loading dbench's modules (modload.h).
 *
 * Owns where modules are looked for and the dlopen() of one; knows
 * nothing of backends or tracers.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "modload.h"
#include "selfdir.h"

#ifndef DBENCH_MODULE_REL
#define DBENCH_MODULE_REL "build/modules"
#endif

char *modload_dir(TALLOC_CTX *mem_ctx)
{
	const char *env = getenv("DBENCH_MODULE_DIR");

	if (env && *env)
		return talloc_strdup(mem_ctx, env);
	return selfdir_find(mem_ctx, DBENCH_MODULE_REL, "lib/dbench");
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
