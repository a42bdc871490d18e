/*
 * series.c - between the runs of a series (see series.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/series.h"
#include "progname.h"

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
