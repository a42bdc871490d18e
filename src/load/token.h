/*
 * token.h - one field of a loadfile line, as the compilers of src/load/
 * split it (private to src/load/).
 */
#ifndef DBENCH_LOAD_TOKEN_H
#define DBENCH_LOAD_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

struct token {
	const char *s;		/* the field's text, quotes left out */
	size_t len;
	bool quoted;		/* it was in double quotes */
};

#endif
