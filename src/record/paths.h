/*
 * paths.h - the recorder's paths: absolute ones made plain, and taken
 * relative to the recording's base when they lie beneath its roots
 * (doc/SYSCALLS.md, "Paths").
 *
 * Lexical only: "." is dropped and ".." takes the component before it
 * back, without asking the file system (a recording resolves them
 * against what it knows, and the file system has changed since).
 */
#ifndef RECORD_PATHS_H
#define RECORD_PATHS_H

#include <talloc.h>

#include "record/recording.h"

/* Normalise absolute path `abs` lexically ("." dropped, ".." taken back,
 * "//" folded) into a copy on mem_ctx. */
char *path_normalize(TALLOC_CTX *mem_ctx, const char *abs);

/* `abs` (normalised) relative to rec's base when it lies beneath one of
 * its roots, or of their aliases ("" for the base itself), else NULL. */
const char *path_in_roots(TALLOC_CTX *mem_ctx, const struct recording *rec, const char *abs);

/* The longest directory that every one of the n absolute, normalised
 * paths lies beneath ("/" at least), on mem_ctx. */
char *path_common_dir(TALLOC_CTX *mem_ctx, const char *const *paths, size_t n);

#endif
