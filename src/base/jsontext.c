/*
 * jsontext.c - names as JSON strings (see jsontext.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"

json_t *jsontext(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	char *esc = malloc(4 * strlen(s) + 1), *p = esc;
	if (!esc)
		return json_null();
	for (const unsigned char *q = (const unsigned char *)s; *q; q++)
		p += *q < 0x80 ? sprintf(p, "%c", *q) : sprintf(p, "\\x%02X", *q);
	j = json_string(esc);
	free(esc);
	return j ? j : json_null();
}
