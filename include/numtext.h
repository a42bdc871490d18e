/*
 * numtext.h - integers as decimal text without printf, for the loops
 * that print one or more numbers for every call of a recording (a row's
 * times and result, a thread id as a table's key), where printf's
 * parsing of its format was a large part of the time.
 *
 * The text is the same as printf's "%llu" (with zeros before it to a
 * width, as "%06llu") and "%lld".  Below everything: knows nothing of
 * what the numbers are.
 */
#ifndef DBENCH_NUMTEXT_H
#define DBENCH_NUMTEXT_H

#include <stdint.h>

/* The room numtext_i64() needs: "-9223372036854775808" and a NUL. */
#define NUMTEXT_MAX 21

/* v's digits at p, at least `width` of them (zeros before; width at most
 * 20), with no NUL after: returns the end. */
char *numtext_u64(char *p, uint64_t v, int width);

/* v in decimal at p ('-' before a negative one), NUL-terminated: returns
 * the NUL's address.  p has room for NUMTEXT_MAX bytes. */
char *numtext_i64(char *p, int64_t v);

#endif
