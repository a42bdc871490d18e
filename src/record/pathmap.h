/*
 * pathmap.h - a map from byte strings (paths, thread ids as text) to
 * pointers, for the recorder's tables: the initial walk, the paths a
 * recording touched, the processes and their threads.
 *
 * Open addressing on an FNV-1a hash, doubled at half full; the keys are
 * copied onto the map.  Entries are never removed (a recording only
 * learns).  Knows nothing of what the values are.
 */
#ifndef RECORD_PATHMAP_H
#define RECORD_PATHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

struct pathmap;

/* The key of a thread or process id (its decimal text), made without
 * printf: the tables by thread look one up for every call. */
#define PATHMAP_ID_KEY 21
void pathmap_id_key(char key[PATHMAP_ID_KEY], int64_t id);

/* An empty map on mem_ctx, or NULL when memory ran out. */
struct pathmap *pathmap_new(TALLOC_CTX *mem_ctx);

/* The value stored under key, or NULL. */
void *pathmap_get(const struct pathmap *m, const char *key);

/* Store value under key (replacing any); false when memory ran out. */
bool pathmap_put(struct pathmap *m, const char *key, void *value);

/* Entries stored. */
size_t pathmap_count(const struct pathmap *m);

/* The i-th stored key (0 <= i < pathmap_count), in the order first put,
 * and its value through *value when value is not NULL. */
const char *pathmap_key(const struct pathmap *m, size_t i, void **value);

#endif
