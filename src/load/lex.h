/*
 * lex.h - the loadfile lexer every dialect's compiler uses (private to
 * src/load/): a line's bytes checked, the line split into fields, a
 * field read as a number or as seconds, and the first problem kept as a
 * "FILE:LINE: message" for the one place that prints it.
 *
 * It knows the text of a line and nothing of operations, dialects or
 * programs: what a field means is the compiler's business.
 */
#ifndef DBENCH_LOAD_LEX_H
#define DBENCH_LOAD_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "load/token.h"

/* One file being compiled, as its messages see it. */
struct lex {
	TALLOC_CTX *mem;	/* what messages are allocated on (the program) */
	const char *name;	/* the file's name, first in every message */
	uint32_t line;		/* the line being read, from 1 */
	char *err;		/* the first problem; "" when memory ran out */
	bool oom;		/* memory ran out: not the file's fault */
	bool escape;		/* messages show a field's bytes below 0x20,
				 * above 0x7e, '"' and '\\' as \xHH (a dialect
				 * whose strings hold any byte) */
};

/* ---- problems ---- */

/* Keep "NAME:LINE: message" as lx->err, unless a problem is kept already. */
void lex_fail(struct lex *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Memory ran out: the compiler reports that once the program is freed. */
void lex_oom(struct lex *lx);

/* A field as printable text for a message, cut to 48 bytes and "...". */
const char *lex_tokstr(struct lex *lx, const struct token *t);

/* ---- lines and fields ---- */

/* Whether [p, end) holds no byte a text loadfile never has (NUL, a
 * control byte other than tab, DEL); else false after lex_fail(). */
bool lex_check_bytes(struct lex *lx, const char *p, const char *end);

/*
 * Split [p, end) into at most `max` fields at spaces and tabs: a field
 * in double quotes is one (the quotes left out, a space needed after the
 * closing one); a quote inside an unquoted field is an error.  With
 * `strings` NULL a quoted field is taken as it is; else its escapes
 * (\\ \" \n \t \xHH, no \x00) are decoded into strings, which has room
 * for the line, and the field points there, NUL-terminated.  Returns the
 * count, or -1 after lex_fail().
 */
int lex_tokenize(struct lex *lx, const char *p, const char *end, struct token *tok, int max,
		 char *strings);

/* Whether a row of `name`, which takes `want` fields and a status, has
 * `got` fields, all of them; else false after lex_fail(). */
bool lex_has_status(struct lex *lx, const char *name, int want, int got);

/* Whether t is `word`, unquoted. */
bool lex_is(const struct token *t, const char *word);

/* ---- values ---- */

/* A hex digit's value, or 16 for any other byte. */
int lex_digit(char ch);

/* The unsigned number at *p (0x hex, 0 octal or decimal digits, within
 * uint64_t), *p moved past it: false when there is none or it is too
 * large.  What follows it is the caller's to judge. */
bool lex_number_at(const char **p, const char *end, uint64_t *out);

/* A C integer, as strtoll(s, &end, 0) reads one, but the whole field must
 * be the number: [-] then 0x hex, 0 octal or decimal digits, within
 * int64_t.  False after lex_fail() ("malformed number '...'"). */
bool lex_int(struct lex *lx, const struct token *t, int64_t *out);

/* "0x" and one to eight hex digits, unquoted, into *out: false, without
 * a message, when the field is not that (the status column of dbench
 * 5.0's NFS, block and SCSI rows). */
bool lex_hex32(const struct token *t, uint32_t *out);

/* Decimal seconds from 0 to 1e9, the whole unquoted field, none of the
 * bytes of `refused` in it (strtod's hex, infinities and NaNs are always
 * refused): false, without a message, when it is not. */
bool lex_seconds(const struct token *t, const char *refused, double *out);

#endif
