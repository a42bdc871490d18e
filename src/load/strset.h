/*
 * strset.h - a set of interned strings, private to the loadfile
 * compilers (loadfile.c, syscalls.c): each distinct string is stored once
 * on the program's talloc tree and named by its index in insertion order.
 */
#ifndef DBENCH_LOAD_STRSET_H
#define DBENCH_LOAD_STRSET_H

#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

/* A set of interned strings: open addressing on an FNV-1a hash. */
struct strset {
	const char **slot;
	uint32_t *index;	/* position in insertion order, per slot */
	size_t size;		/* power of two */
	size_t count;
	const char **order;	/* strings by insertion order */
};

/* Index of the string s[0..len) in the set, adding it (a copy on ctx) if
 * new; -1 when memory ran out. */
long strset_add(TALLOC_CTX *ctx, struct strset *set, const char *s, size_t len);

/* Index of the string s[0..len) in the set, or -1 when it is not there. */
long strset_find(const struct strset *set, const char *s, size_t len);

/* Free what the set itself holds (the index), leaving the strings and
 * `order` to their talloc parent. */
void strset_free_index(struct strset *set);

#endif
