/*
 * paths.c - absolute paths made plain and taken relative to the roots
 * (paths.h).
 *
 * Owns the lexical rules; knows nothing of calls or files.
 */
#include <string.h>

#include "record/paths.h"

char *path_normalize(TALLOC_CTX *mem_ctx, const char *abs)
{
	size_t len = strlen(abs);
	char *out = talloc_array(mem_ctx, char, len + 2);
	size_t n = 0;

	if (!out)
		return NULL;
	for (const char *p = abs; *p;) {
		while (*p == '/')
			p++;
		const char *e = strchrnul(p, '/');
		size_t k = (size_t)(e - p);
		if (k == 0 || (k == 1 && p[0] == '.')) {
			/* nothing */
		} else if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
		} else {
			out[n++] = '/';
			memcpy(out + n, p, k);
			n += k;
		}
		p = e;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

/* Whether abs is dir or lies beneath it. */
static bool beneath(const char *abs, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(abs, dir, n) == 0 && (abs[n] == '\0' || abs[n] == '/');
}

const char *path_in_roots(TALLOC_CTX *mem_ctx, const struct recording *rec, const char *abs)
{
	bool in = false;
	char *real = NULL;

	for (size_t i = 0; i < rec->nroots && !in; i++) {
		in = beneath(abs, rec->roots[i]);
		const char *alias = rec->aliases ? rec->aliases[i] : NULL;
		if (!in && alias && beneath(abs, alias)) {
			/* the same directory by a symbolic link's name */
			in = (real = talloc_asprintf(mem_ctx, "%s%s", rec->roots[i], abs + strlen(alias))) != NULL;
			abs = real;
		}
	}
	if (!in)
		return NULL;
	size_t n = strcmp(rec->base, "/") == 0 ? 0 : strlen(rec->base);
	const char *rel = abs + n;
	while (*rel == '/')
		rel++;
	char *out = talloc_strdup(mem_ctx, rel);
	talloc_free(real);
	return out;
}

char *path_common_dir(TALLOC_CTX *mem_ctx, const char *const *paths, size_t n)
{
	if (n == 0)
		return talloc_strdup(mem_ctx, "/");
	size_t len = strlen(paths[0]);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < len && paths[i][k] == paths[0][k])
			k++;
		/* a whole component: the next character ends both */
		if (k < len || (paths[i][k] != '\0' && paths[i][k] != '/'))
			while (k > 0 && paths[0][k] != '/')
				k--;
		len = k;
	}
	if (len == 0)
		return talloc_strdup(mem_ctx, "/");
	return talloc_strndup(mem_ctx, paths[0], len);
}
