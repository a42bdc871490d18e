/*
 * devuse.c - what uses a block device or a file (see devuse.h): the
 * mounts, swaps and holders procfs and sysfs list, the loop devices'
 * backing files, the flock()s of /proc/locks.
 */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backends/devuse.h"

/* ---- sysfs ---- */

/* The resolved sysfs directory of block device `dev`, or NULL. */
static char *sysdir_of(TALLOC_CTX *mem_ctx, dev_t dev)
{
	char link[64], real[PATH_MAX];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(link, real) ? talloc_strdup(mem_ctx, real) : NULL;
}

/* Whether sysfs directory `dir` has an entry `name`. */
static bool has_entry(const char *dir, const char *name)
{
	char *path = talloc_asprintf(NULL, "%s/%s", dir, name);
	bool has = path && access(path, F_OK) == 0;

	talloc_free(path);
	return has;
}

/* How block device `other` relates to `dev`: 0 not at all, 1 the same
 * device, 2 a partition of disk `dev`, 3 the disk that partition `dev`
 * is on.  `mine` is dev's sysfs directory. */
static int relation(dev_t other, dev_t dev, const char *mine)
{
	if (other == dev)
		return 1;
	if (!mine || major(other) == 0)
		return 0;
	char *theirs = sysdir_of(NULL, other);
	int rel = 0;
	size_t n = theirs ? strlen(mine) : 0, m = theirs ? strlen(theirs) : 0;

	if (theirs && m > n && strncmp(theirs, mine, n) == 0 && theirs[n] == '/' &&
	    !strchr(theirs + n + 1, '/') && has_entry(theirs, "partition"))
		rel = 2;
	else if (theirs && n > m && strncmp(mine, theirs, m) == 0 && mine[m] == '/' &&
		 !strchr(mine + m + 1, '/') && has_entry(mine, "partition"))
		rel = 3;
	talloc_free(theirs);
	return rel;
}

/* " (partition sda1)" or " (disk sda)" for a relation, else "". */
static char *related_name(TALLOC_CTX *mem_ctx, int rel, dev_t other)
{
	char *dir = rel >= 2 ? sysdir_of(mem_ctx, other) : NULL;
	const char *name = dir ? strrchr(dir, '/') + 1 : NULL;

	if (!name)
		return talloc_strdup(mem_ctx, "");
	return talloc_asprintf(mem_ctx, " (%s %s)", rel == 2 ? "partition" : "disk", name);
}

/* "held by dm-0" when sysfs directory `dir` lists a holder, else NULL. */
static char *holder_of(TALLOC_CTX *mem_ctx, const char *dir)
{
	char *path = talloc_asprintf(mem_ctx, "%s/holders", dir);
	char *why = NULL;
	DIR *d = path ? opendir(path) : NULL;

	talloc_free(path);
	for (struct dirent *e; d && !why && (e = readdir(d));)
		if (e->d_name[0] != '.')
			why = talloc_asprintf(mem_ctx, "held by %s (%s)", e->d_name,
					      strrchr(dir, '/') + 1);
	if (d)
		closedir(d);
	return why;
}

/* A holder of disk `mine` or of one of its partitions. */
static char *held(TALLOC_CTX *mem_ctx, const char *mine)
{
	char *why = holder_of(mem_ctx, mine);
	DIR *d = why ? NULL : opendir(mine);

	for (struct dirent *e; d && !why && (e = readdir(d));) {
		char *sub = talloc_asprintf(mem_ctx, "%s/%s", mine, e->d_name);
		if (sub && e->d_name[0] != '.' && has_entry(sub, "partition"))
			why = holder_of(mem_ctx, sub);
		talloc_free(sub);
	}
	if (d)
		closedir(d);
	return why;
}

/* ---- procfs ---- */

/* The block device a mount's source names ("/dev/sda1"), or 0. */
static dev_t source_dev(const char *source)
{
	struct stat st;

	if (strncmp(source, "/dev/", 5) != 0 || stat(source, &st) != 0 || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* "mounted on /mnt" for the first mount of dev, a partition of it or its
 * disk, from /proc/self/mountinfo (its device number, and the source for
 * a file system whose number is anonymous, btrfs's); else NULL. */
static char *mounted(TALLOC_CTX *mem_ctx, dev_t dev, const char *mine)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], point[4096], source[4096];
	char *why = NULL;

	while (f && !why && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		const char *dash = strstr(line, " - ");
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, point) != 3 || !dash ||
		    sscanf(dash + 3, "%*s %4095s", source) != 1)
			continue;
		dev_t other = makedev(maj, min);
		int rel = relation(other, dev, mine);
		if (!rel && (other = source_dev(source)) != 0)
			rel = relation(other, dev, mine);
		if (rel)
			why = talloc_asprintf(mem_ctx, "mounted on %s%s", point,
					      related_name(mem_ctx, rel, other));
	}
	if (f)
		fclose(f);
	return why;
}

/* "a swap area" when /proc/swaps lists dev (or a partition of it), or the
 * file of `st`; else NULL. */
static char *swap_of(TALLOC_CTX *mem_ctx, dev_t dev, const char *mine, const struct stat *file)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096], name[4096];
	char *why = NULL;
	struct stat st;

	while (f && !why && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/' || stat(name, &st) != 0)
			continue;
		if (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev &&
		    st.st_ino == file->st_ino)
			why = talloc_strdup(mem_ctx, "a swap file in use");
		else if (!file && S_ISBLK(st.st_mode) && relation(st.st_rdev, dev, mine))
			why = talloc_asprintf(mem_ctx, "a swap area in use (%s)", name);
	}
	if (f)
		fclose(f);
	return why;
}

/* ---- what uses it ---- */

char *devuse_block(TALLOC_CTX *mem_ctx, dev_t dev)
{
	char *mine = sysdir_of(mem_ctx, dev);
	char *why = mounted(mem_ctx, dev, mine);

	if (!why)
		why = swap_of(mem_ctx, dev, mine, NULL);
	if (!why && mine)
		why = held(mem_ctx, mine);
	talloc_free(mine);
	return why;
}

/* "the backing file of /dev/loopN" when a loop device's backing file is
 * the file of `st`; else NULL. */
static char *loop_backing(TALLOC_CTX *mem_ctx, const struct stat *st)
{
	DIR *d = opendir("/sys/block");
	char *why = NULL;

	for (struct dirent *e; d && !why && (e = readdir(d));) {
		char path[320], name[PATH_MAX];
		struct stat b;
		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%.255s/loop/backing_file", e->d_name);
		FILE *f = fopen(path, "re");
		bool got = f && fgets(name, sizeof(name), f);
		if (f)
			fclose(f);
		if (got)
			name[strcspn(name, "\n")] = '\0';
		if (got && stat(name, &b) == 0 && b.st_dev == st->st_dev && b.st_ino == st->st_ino)
			why = talloc_asprintf(mem_ctx, "the backing file of /dev/%s", e->d_name);
	}
	if (d)
		closedir(d);
	return why;
}

char *devuse_file(TALLOC_CTX *mem_ctx, const struct stat *st)
{
	char *why = loop_backing(mem_ctx, st);

	return why ? why : swap_of(mem_ctx, 0, NULL, st);
}

pid_t devuse_lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256], kind[16];
	pid_t by_ino = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		long pid;
		unsigned maj, min;
		unsigned long ino;
		if (strstr(line, "->") ||	/* a process waiting for it */
		    sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &pid, &maj, &min,
			   &ino) != 5 || strcmp(kind, "FLOCK") != 0 || ino != st->st_ino)
			continue;
		if (maj == major(st->st_dev) && min == minor(st->st_dev)) {
			fclose(f);
			return (pid_t)pid;
		}
		by_ino = by_ino ? by_ino : (pid_t)pid;
	}
	fclose(f);
	return by_ino;
}
