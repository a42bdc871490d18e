/*
 * series.c - between the runs of a series (see series.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "series/series.h"
#include "progname.h"
#include "spawn.h"

void series_rest(unsigned settle, bool drop_caches)
{
	sync();
	if (drop_caches) {
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "3\n", 2) != 2)
			say("cannot drop caches: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	if (settle)
		sleep(settle);
}

char *series_command(TALLOC_CTX *ctx, const char *cmd, const char *const *env)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct spawn sh = { .argv = argv, .env = env,
			    .fd = { SPAWN_KEEP, STDERR_FILENO, SPAWN_KEEP } };
	pid_t pid = spawn_start(&sh);
	int st;

	if (pid < 0)
		return talloc_asprintf(ctx, "cannot start it: %s", strerror(errno));
	if (spawn_wait(pid, &st) != 0)
		return talloc_asprintf(ctx, "cannot wait for it: %s", strerror(errno));
	return spawn_status_text(ctx, st);
}

uint64_t series_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double series_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *series_duration(char buf[32], unsigned long s)
{
	if (s >= 3600)
		snprintf(buf, 32, "%lu h %02lu min", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, 32, "%lu min %lu s", s / 60, s % 60);
	else
		snprintf(buf, 32, "%lu s", s);
	return buf;
}
