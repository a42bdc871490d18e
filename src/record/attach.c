/*
 * attach.c - running processes' state as calls (attach.h).
 *
 * Owns the reading of /proc for the processes named and the calls made
 * of it; knows nothing of the tracer or of the translator's model.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/attach.h"
#include "record/bpf_calls.h"
#include "record/paths.h"

struct attach {
	const struct recording *rec;
	const int *pids;
	size_t npids;
	char **names;		/* each process's comm */
	struct sc_call *calls;	/* the scan's */
	size_t ncalls, next, fds;
	int64_t now_us;
	struct tracer_calls then;
	bool in_then;		/* the scan's calls are all handed out */
};

static char *comm_of(TALLOC_CTX *mem_ctx, int pid)
{
	char path[64], buf[64] = "";

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return talloc_strdup(mem_ctx, buf);
}

struct attach *attach_new(TALLOC_CTX *mem_ctx, const struct recording *rec, const int *pids,
			  size_t npids, char **err)
{
	struct attach *a = talloc_zero(mem_ctx, struct attach);

	if (!a || !(a->names = talloc_zero_array(a, char *, npids))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	a->rec = rec;
	a->pids = pids;
	a->npids = npids;
	for (size_t i = 0; i < npids; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/fd", pids[i]);
		DIR *d = opendir(path);
		if (!d || !(a->names[i] = comm_of(a, pids[i]))) {
			*err = talloc_asprintf(mem_ctx, "-p %d: %s", pids[i],
					       errno == ENOENT ? "no such process" : strerror(errno));
			if (d)
				closedir(d);
			talloc_free(a);
			return NULL;
		}
		closedir(d);
	}
	return a;
}

/* A call of the scan, at the scan's moment; its arguments after. */
static struct sc_call *add_call(struct attach *a, int tid, const char *name, int64_t ret)
{
	struct sc_call *v = talloc_realloc(a, a->calls, struct sc_call, a->ncalls + 1);

	if (!v)
		return NULL;
	a->calls = v;
	struct sc_call *c = &v[a->ncalls++];
	*c = (struct sc_call){ .kind = SC_CALL, .tid = tid, .start_us = a->now_us, .dur_us = 0,
			       .has_result = true, .ret = ret };
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->raw = talloc_strdup(a, "");
	return c;
}

static bool add_arg(struct attach *a, struct sc_call *c, char *text)
{
	if (!c || !text || c->nargs >= SC_MAX_ARGS)
		return false;
	c->arg[c->nargs++] = talloc_steal(a, text);
	c->raw = talloc_asprintf_append(c->raw, "%s%s", c->nargs > 1 ? ", " : "", text);
	return c->raw != NULL;
}

static char *quote(TALLOC_CTX *mem_ctx, const char *s)
{
	char *q = talloc_strdup(mem_ctx, "\"");

	for (const unsigned char *p = (const unsigned char *)s; q && *p; p++)
		q = *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\'
		    ? talloc_asprintf_append(q, "%c", *p) : talloc_asprintf_append(q, "\\x%02x", *p);
	return q ? talloc_asprintf_append(q, "\"") : NULL;
}

/* fdinfo's flags (octal) and pos, or false. */
static bool fdinfo(int pid, int fd, uint64_t *flags, uint64_t *pos)
{
	char path[64], line[128];
	int got = 0;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v;
		if (sscanf(line, "pos: %llu", &v) == 1) {
			*pos = v;
			got |= 1;
		} else if (sscanf(line, "flags: %llo", &v) == 1) {
			*flags = v;
			got |= 2;
		}
	}
	if (f)
		fclose(f);
	return got == 3;
}

/* One descriptor: openat of its path (beneath the roots), and lseek to
 * its offset. */
static bool scan_fd(struct attach *a, int pid, int fd, TALLOC_CTX *tmp)
{
	char link[64], target[PATH_MAX];
	uint64_t flags = 0, pos = 0;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0 || target[0] != '/' || !fdinfo(pid, fd, &flags, &pos))
		return true;	/* gone, or a pipe, a socket, an anonymous inode */
	target[n] = '\0';
	const char *abs = path_normalize(tmp, target);
	bool in = abs && path_in_roots(tmp, a->rec, abs);
	/* a file outside is left out as any; a directory outside is opened
	 * too (with no row), for the paths the process names relative to it */
	if (!abs || (!in && !(flags & O_DIRECTORY)))
		return true;
	struct sc_call *c = add_call(a, pid, "openat", fd);
	char *fl = bpf_open_flags(a, flags);
	if (!add_arg(a, c, talloc_strdup(a, "AT_FDCWD")) || !add_arg(a, c, quote(a, abs)) ||
	    !add_arg(a, c, fl) || !add_arg(a, c, talloc_strdup(a, "0")))
		return false;
	a->fds += in;
	if (!in || pos == 0 || (flags & O_APPEND) || (flags & O_DIRECTORY))
		return true;
	c = add_call(a, pid, "lseek", (int64_t)pos);
	return add_arg(a, c, talloc_asprintf(a, "%d", fd)) &&
	       add_arg(a, c, talloc_asprintf(a, "%" PRIu64, pos)) &&
	       add_arg(a, c, talloc_strdup(a, "SEEK_SET"));
}

/* The numbers in a /proc directory (descriptors, threads), sorted. */
static int *numbers(TALLOC_CTX *mem_ctx, const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	int *v = talloc_array(mem_ctx, int, 0);
	struct dirent *de;

	*n = 0;
	while (d && v && (de = readdir(d)) != NULL) {
		char *end;
		long x = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name)
			continue;
		v = talloc_realloc(mem_ctx, v, int, *n + 1);
		if (v)
			v[(*n)++] = (int)x;
	}
	if (d)
		closedir(d);
	for (size_t i = 1; v && i < *n; i++)	/* a handful: insertion sort */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v;
}

/* One process: its fork from the recorder's, its directory, its
 * descriptors and its other threads. */
static bool scan_process(struct attach *a, int pid, TALLOC_CTX *tmp)
{
	char path[64], cwd[PATH_MAX];
	size_t nfd, ntask;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	int *fds = numbers(tmp, path, &nfd);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	int *tasks = numbers(tmp, path, &ntask);
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	ssize_t n = readlink(path, cwd, sizeof(cwd) - 1);
	if (!fds || !tasks || n <= 0)
		return true;	/* gone since: it makes no call */
	cwd[n] = '\0';
	struct sc_call *c = add_call(a, ATTACH_TID, "clone", pid);
	if (!add_arg(a, c, talloc_strdup(a, "flags=SIGCHLD")))
		return false;
	if (strcmp(cwd, a->rec->cwd0) != 0) {
		c = add_call(a, pid, "chdir", 0);
		if (!add_arg(a, c, quote(a, cwd)))
			return false;
	}
	for (size_t i = 0; i < nfd; i++)
		if (!scan_fd(a, pid, fds[i], tmp))
			return false;
	for (size_t i = 0; i < ntask; i++) {
		if (tasks[i] == pid)
			continue;
		c = add_call(a, pid, "clone", tasks[i]);
		if (!add_arg(a, c, talloc_strdup(a, "flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|"
						    "CLONE_THREAD|CLONE_SYSVSEM")))
			return false;
	}
	return true;
}

int attach_scan(struct attach *a, int64_t now_ns, char **err)
{
	TALLOC_CTX *tmp = talloc_new(a);

	a->now_us = now_ns / 1000;
	for (size_t i = 0; i < a->npids; i++)
		if (!scan_process(a, a->pids[i], tmp)) {
			talloc_free(tmp);
			*err = talloc_strdup(a, "out of memory reading the processes' descriptors");
			return -1;
		}
	talloc_free(tmp);
	return 0;
}

static int next(void *impl, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err)
{
	struct attach *a = impl;

	if (a->next < a->ncalls) {
		*c = a->calls[a->next++];
		return 1;
	}
	a->in_then = true;
	return a->then.next(a->then.impl, mem_ctx, c, err);
}

static char *where(TALLOC_CTX *mem_ctx, const void *impl)
{
	const struct attach *a = impl;

	if (!a->in_then)
		return talloc_asprintf(mem_ctx, "the state of the processes at the start");
	return a->then.where(mem_ctx, a->then.impl);
}

static uint64_t bad_lines(const void *impl)
{
	const struct attach *a = impl;

	return a->then.bad_lines(a->then.impl);
}

static uint64_t unjoined(const void *impl)
{
	const struct attach *a = impl;

	return a->then.unjoined(a->then.impl);
}

struct tracer_calls attach_calls(struct attach *a, struct tracer_calls then)
{
	a->then = then;
	return (struct tracer_calls){ .impl = a, .next = next, .where = where,
				      .bad_lines = bad_lines, .unjoined = unjoined };
}

char *attach_describe(TALLOC_CTX *mem_ctx, const struct attach *a)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && i < a->npids; i++)
		s = talloc_asprintf_append(s, "%s%d (%s)", i ? ", " : "", a->pids[i], a->names[i]);
	return s;
}

size_t attach_fds(const struct attach *a)
{
	return a->fds;
}
