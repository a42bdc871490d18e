/*
 * strset.c - interned strings for the loadfile compilers (see strset.h):
 * open addressing on an FNV-1a hash.
 */
#include <stdbool.h>
#include <string.h>

#include "load/strset.h"


static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static bool strset_grow(TALLOC_CTX *ctx, struct strset *set)
{
	size_t nsize = set->size ? set->size * 2 : 256;
	const char **nslot = talloc_zero_array(ctx, const char *, nsize);
	uint32_t *nindex = talloc_array(ctx, uint32_t, nsize);
	const char **norder = talloc_realloc(ctx, set->order, const char *, nsize);

	if (!nslot || !nindex || !norder)
		return false;
	for (size_t i = 0; i < set->size; i++) {
		if (!set->slot[i])
			continue;
		size_t j = fnv1a(set->slot[i], strlen(set->slot[i])) & (nsize - 1);
		while (nslot[j])
			j = (j + 1) & (nsize - 1);
		nslot[j] = set->slot[i];
		nindex[j] = set->index[i];
	}
	talloc_free(set->slot);
	talloc_free(set->index);
	set->slot = nslot;
	set->index = nindex;
	set->order = norder;
	set->size = nsize;
	return true;
}

/* The slot of the string s[0..len) in the set, or the empty one where it
 * would go (the set has one: it is at most half full). */
static size_t probe(const struct strset *set, const char *s, size_t len)
{
	size_t j = fnv1a(s, len) & (set->size - 1);
	while (set->slot[j] &&
	       !(strncmp(set->slot[j], s, len) == 0 && set->slot[j][len] == '\0'))
		j = (j + 1) & (set->size - 1);
	return j;
}

long strset_find(const struct strset *set, const char *s, size_t len)
{
	if (!set->size)
		return -1;
	size_t j = probe(set, s, len);
	return set->slot[j] ? (long)set->index[j] : -1;
}

/* Index of the string s[0..len) in the set, adding it if new; -1 on ENOMEM. */
long strset_add(TALLOC_CTX *ctx, struct strset *set, const char *s, size_t len)
{
	if ((set->count + 1) * 2 > set->size && !strset_grow(ctx, set))
		return -1;
	size_t j = probe(set, s, len);
	if (set->slot[j])
		return set->index[j];
	char *copy = talloc_strndup(ctx, s, len);
	if (!copy)
		return -1;
	set->slot[j] = copy;
	set->index[j] = set->count;
	set->order[set->count] = copy;
	return set->count++;
}

void strset_free_index(struct strset *set)
{
	talloc_free(set->slot);
	talloc_free(set->index);
	set->slot = NULL;
	set->index = NULL;
}
