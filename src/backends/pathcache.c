/*
 * pathcache.c - the slots of the files a client keeps open by path (see
 * pathcache.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "backends/pathcache.h"

static int home(const char *path)
{
	return (int)(((uintptr_t)path >> 4) % PATHCACHE_SLOTS);
}

int pathcache_find(const struct pathcache *pc, const char *path)
{
	int h = home(path);

	if (pc->path[h] == path)
		return h;
	for (int i = 0; pc->away && i < PATHCACHE_SLOTS; i++) {
		if (pc->path[i] == path)
			return i;
	}
	return -1;
}

int pathcache_pick(const struct pathcache *pc, const char *path)
{
	int h = home(path), pick = -1;

	if (!pc->pinned[h])
		return h;
	for (int i = 0; i < PATHCACHE_SLOTS; i++) {
		if (!pc->path[i])
			return i;
		if (!pc->pinned[i] && pick < 0)
			pick = i;
	}
	return pick;
}

void pathcache_set(struct pathcache *pc, int slot, const char *path)
{
	if (pc->path[slot] && home(pc->path[slot]) != slot)
		pc->away--;
	if (path && home(path) != slot)
		pc->away++;
	pc->path[slot] = path;
	pc->pinned[slot] = false;
}
