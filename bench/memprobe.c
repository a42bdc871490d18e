/*
 * memprobe.c - how fast this machine's memory is right now: a neutral
 * yardstick that bench/repeatability reads before every run, so that a
 * series can tell the machine's own drift from a program's.
 *
 * Two figures, each timed for SECS seconds over a region of MB megabytes
 * (default 128, four times a 32 MB last-level cache):
 *   chase  nanoseconds per load of a chain of dependent loads, each to a
 *          place the one before chose (a full-period linear congruential
 *          walk over the region's words): what a cache miss costs,
 *          page walks of the host's tables included
 *   copy   gigabytes a second copied from the region, 64 KB at a time,
 *          into one 64 KB buffer: what a file read that misses the cache
 *          costs (the kernel's copy to user space is the same loop)
 * It knows nothing of dbench.
 *
 *     cc -O2 -o memprobe bench/memprobe.c && ./memprobe 0.3
 *     chase 183.2 copy 15.78
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	size_t mb = argc > 2 ? strtoul(argv[2], NULL, 10) : 128;

	if (!(secs > 0) || mb < 1 || mb > 65536 || (mb & (mb - 1))) {
		fprintf(stderr, "usage: memprobe [SECS [MB]] (MB a power of two)\n");
		return 2;
	}
	size_t words = mb << 17;	/* 8-byte words in mb megabytes */
	uint64_t *a = malloc(words * sizeof *a);
	static char buf[65536];

	if (!a) {
		fprintf(stderr, "memprobe: cannot allocate %zu MB\n", mb);
		return 1;
	}
	/* x -> 5x + 12345 mod 2^k visits every word once before it repeats
	 * (Hull-Dobell: the increment odd, the multiplier 1 mod 4). */
	for (size_t i = 0; i < words; i++)
		a[i] = (i * 5 + 12345) & (words - 1);

	uint64_t p = 0, loads = 0;
	double t0 = now(), t;
	do {
		for (int i = 0; i < 100000; i++)
			p = a[p];
		loads += 100000;
	} while ((t = now()) - t0 < secs);
	double chase_ns = (t - t0) / (double)loads * 1e9;

	uint64_t bytes = 0;
	size_t span = words * sizeof *a;
	t0 = now();
	do {
		for (size_t off = 0; off + sizeof buf <= span; off += sizeof buf) {
			memcpy(buf, (char *)a + off, sizeof buf);
			__asm__ volatile("" : : "r"(buf) : "memory");
		}
		bytes += span;
	} while ((t = now()) - t0 < secs);

	/* p is printed (as +0) so that the chain cannot be optimised away */
	printf("chase %.1f copy %.2f\n", chase_ns + (double)(p == UINT64_MAX),
	       (double)bytes / (t - t0) / 1e9);
	free(a);
	return 0;
}
