/*
 * dosmatch.h - does a name match a FIND_FIRST pattern, as an SMB server
 * would match it?  Patterns hold the DOS wildcards CIFS clients send
 * (* ? < > and "), and case is ignored (ASCII only).  Used by the backends
 * that list a directory themselves (fileio with getdents, smb through
 * libsmbclient, which sends no pattern); knows nothing of either.
 */
#ifndef DBENCH_DOSMATCH_H
#define DBENCH_DOSMATCH_H

#include <stdbool.h>
#include <stddef.h>

/* A pattern, with the length of the run of plain characters (no
 * wildcard) it ends with: a quick test that rejects most names. */
struct dosmatch_pattern {
	const char *s;
	size_t len, tail;
};

/* The pattern `s` (which must outlive it). */
struct dosmatch_pattern dosmatch_pattern_of(const char *s);

/* Does `name` match `pat`, ignoring ASCII case?  ".." matches as "."
 * does, as on a CIFS server; a name longer than NAME_MAX never does. */
bool dosmatch(const struct dosmatch_pattern *pat, const char *name);

/* ASCII case folding, as strcasecmp() does in the C locale we run in. */
static inline char dosmatch_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

#endif
