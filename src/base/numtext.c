/*
 * numtext.c - integers as decimal text (see numtext.h).
 */
#include <string.h>

#include "numtext.h"

char *numtext_u64(char *p, uint64_t v, int width)
{
	char tmp[24], *end = tmp + sizeof(tmp), *q = end;

	do
		*--q = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (end - q < width && q > tmp)
		*--q = '0';
	memcpy(p, q, (size_t)(end - q));
	return p + (end - q);
}

char *numtext_i64(char *p, int64_t v)
{
	if (v < 0)
		*p++ = '-';
	p = numtext_u64(p, v < 0 ? -(uint64_t)v : (uint64_t)v, 1);
	*p = '\0';
	return p;
}
