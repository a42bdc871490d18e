/*
 * numtext.c - integers as decimal text (see numtext.h).
 */
#include "numtext.h"

char *numtext_u64(char *p, uint64_t v, int width)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n < width && n < (int)sizeof(tmp))
		tmp[n++] = '0';
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

char *numtext_i64(char *p, int64_t v)
{
	if (v < 0)
		*p++ = '-';
	p = numtext_u64(p, v < 0 ? -(uint64_t)v : (uint64_t)v, 1);
	*p = '\0';
	return p;
}
