/*
 * pathmap.c - byte strings to pointers (pathmap.h).
 *
 * Owns its slots and the copies of the keys; knows nothing of paths.
 */
#include <stdint.h>
#include <string.h>

#include "grow.h"
#include "numtext.h"
#include "record/pathmap.h"

struct entry {
	const char *key;
	void *value;
};

struct pathmap {
	size_t *slots;		/* index into entries + 1, 0 = empty */
	size_t nslots;		/* a power of two */
	struct entry *entries;	/* in the order first put */
	size_t n, cap;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct pathmap *pathmap_new(TALLOC_CTX *mem_ctx)
{
	struct pathmap *m = talloc_zero(mem_ctx, struct pathmap);

	if (!m)
		return NULL;
	m->nslots = 64;
	m->slots = talloc_zero_array(m, size_t, m->nslots);
	if (!m->slots) {
		talloc_free(m);
		return NULL;
	}
	return m;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(const struct pathmap *m, const char *key)
{
	size_t i = (size_t)hash(key) & (m->nslots - 1);

	while (m->slots[i] && strcmp(m->entries[m->slots[i] - 1].key, key) != 0)
		i = (i + 1) & (m->nslots - 1);
	return i;
}

static bool grow(struct pathmap *m)
{
	size_t n = m->nslots * 2;
	size_t *slots = talloc_zero_array(m, size_t, n);

	if (!slots)
		return false;
	talloc_free(m->slots);
	m->slots = slots;
	m->nslots = n;
	for (size_t e = 0; e < m->n; e++)
		m->slots[find(m, m->entries[e].key)] = e + 1;
	return true;
}

void *pathmap_get(const struct pathmap *m, const char *key)
{
	size_t i = find(m, key);

	return m->slots[i] ? m->entries[m->slots[i] - 1].value : NULL;
}

bool pathmap_put(struct pathmap *m, const char *key, void *value)
{
	size_t i = find(m, key);

	if (m->slots[i]) {
		m->entries[m->slots[i] - 1].value = value;
		return true;
	}
	if (m->n == m->cap &&
	    !grow_array(m, (void **)&m->entries, sizeof(struct entry), &m->cap, m->n + 1, 64))
		return false;
	const char *copy = talloc_strdup(m, key);
	if (!copy)
		return false;
	m->entries[m->n] = (struct entry){ copy, value };
	m->slots[i] = ++m->n;
	if (m->n * 2 > m->nslots && !grow(m))
		return false;
	return true;
}

size_t pathmap_count(const struct pathmap *m)
{
	return m->n;
}

const char *pathmap_key(const struct pathmap *m, size_t i, void **value)
{
	if (value)
		*value = m->entries[i].value;
	return m->entries[i].key;
}

void pathmap_id_key(char key[PATHMAP_ID_KEY], int64_t id)
{
	numtext_i64(key, id);
}
