/*
 * token.h - one field of a loadfile line, as the lexer (load/lex.h)
 * splits it for every dialect's compiler (private to src/load/).
 */
#ifndef DBENCH_LOAD_TOKEN_H
#define DBENCH_LOAD_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

struct token {
	const char *s;		/* the field's text, quotes left out (a string
				 * with escapes: its decoded bytes) */
	size_t len;
	bool quoted;		/* it was in double quotes */
};

#endif
