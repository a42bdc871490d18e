/*
 * user-split.c - where a program's sampled user time lands: on the
 * instruction right after a system call, or anywhere else.
 *
 * With tick-based accounting, a tick that falls due while the kernel runs
 * with interrupts off is taken on the way back to user space: user time
 * charged to the program that made the call, at the instruction after its
 * `syscall`.  perf's cpu-clock samples come from a timer too and land the
 * same way, so the samples just after a syscall instruction measure that
 * charge, and the others the program's own user-space work.
 *
 * Reads `perf script --show-mmap-events -F ip,dso` of a cpu-clock:u
 * recording on stdin, turns each sample's address into an offset in the
 * file mapped there, and looks at the two bytes before it (0f 05 is
 * syscall on x86-64).  Prints "SYSCALL_RETURN OTHER", sample counts.
 *
 *     perf record -c 100000 -e cpu-clock:u -o p.data PROGRAM ...
 *     perf script -i p.data --show-mmap-events -F ip,dso | ./user-split
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_MAPS 4096

struct map {
	uint64_t start, len, pgoff;
	char path[256];
};

static struct map maps[MAX_MAPS];
static int nmaps;

/* "PERF_RECORD_MMAP2 pid/tid: [0xSTART(0xLEN) @ PGOFF ...]: prot PATH" */
static void add_map(const char *line)
{
	const char *b = strchr(line, '[');
	const char *path = strrchr(line, ' ');
	struct map m;

	if (!b || !path || path[1] != '/' || nmaps == MAX_MAPS)
		return;
	if (sscanf(b, "[%" SCNx64 "(%" SCNx64 ") @ %" SCNi64, &m.start, &m.len, &m.pgoff) != 3)
		return;
	snprintf(m.path, sizeof(m.path), "%s", path + 1);
	m.path[strcspn(m.path, "\n")] = '\0';
	maps[nmaps++] = m;
}

/* 1 if the two bytes before ip in the file mapped at dso are 0f 05. */
static int after_syscall(uint64_t ip, const char *dso)
{
	for (int i = nmaps - 1; i >= 0; i--) {
		const struct map *m = &maps[i];
		if (strcmp(m->path, dso) != 0 || ip < m->start || ip >= m->start + m->len)
			continue;
		uint64_t off = ip - m->start + m->pgoff;
		unsigned char b[2];
		int fd = open(dso, O_RDONLY);
		int ok = fd >= 0 && off >= 2 && pread(fd, b, 2, (off_t)off - 2) == 2;
		if (fd >= 0)
			close(fd);
		return ok && b[0] == 0x0f && b[1] == 0x05;
	}
	return 0;
}

int main(void)
{
	char line[4096];
	uint64_t sysret = 0, other = 0;

	while (fgets(line, sizeof(line), stdin)) {
		if (strstr(line, "PERF_RECORD_MMAP")) {
			add_map(line);
			continue;
		}
		uint64_t ip;
		char dso[256];
		if (sscanf(line, " %" SCNx64 " (%255[^)])", &ip, dso) != 2)
			continue;
		if (after_syscall(ip, dso))
			sysret++;
		else
			other++;
	}
	printf("%" PRIu64 " %" PRIu64 "\n", sysret, other);
	return 0;
}
