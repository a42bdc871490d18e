/*
 * grow.c - an appended-to array's capacity doubled (see grow.h).
 */
#include <stdint.h>
#include <string.h>

#include "grow.h"

static bool grow_to(const void *ctx, void **array, size_t size, size_t *cap, size_t need,
		    size_t first, bool zero)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : (first ? first : 1);
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return false;
	char *p = talloc_realloc_size(ctx, *array, n * size);
	if (!p)
		return false;
	if (zero)
		memset(p + *cap * size, 0, (n - *cap) * size);
	*array = p;
	*cap = n;
	return true;
}

bool grow_array(const void *ctx, void **array, size_t size, size_t *cap, size_t need,
		size_t first)
{
	return grow_to(ctx, array, size, cap, need, first, true);
}

bool grow_array_unset(const void *ctx, void **array, size_t size, size_t *cap, size_t need,
		      size_t first)
{
	return grow_to(ctx, array, size, cap, need, first, false);
}
