/*
 * replay-floor.c - the user CPU of a program that makes a client's system
 * calls and does nothing else: the floor under any load generator that
 * must make the same calls.
 *
 * It reads one client process's strace (made with -X raw, and the data,
 * listing and fstatfs calls in raw form, so that every argument it needs
 * is a number or a path), then repeats that call sequence on a directory
 * for a number of seconds: the same paths, flags, sizes and offsets, the
 * descriptors the trace's calls returned mapped to the ones they return
 * here, one zero-filled buffer for every read and write, each call made
 * with the bare instruction.  A descriptor the trace uses without having
 * opened it is the clients directory the parent opened before the fork:
 * here DIR itself.  Nothing is timed, counted per call or checked, except
 * that a call which failed in the trace should fail here and the others
 * succeed ("mismatched" counts those that did not, 0 for a faithful
 * replay).  Calls the client makes for its own process (signals, memory,
 * the start barrier) are left out.
 *
 *     strace -f -ff -X raw -e raw=pread64,pwrite64,getdents64,fstatfs \
 *         -o T dbench --run-once -D DIR 1
 *     cc -O2 -o replay-floor bench/replay-floor.c
 *     mkdir DIR/clients && replay-floor T.PID DIR/clients SECS
 *     replays 4 calls 1226369 user_us 576159.0 sys_us 3104546.0 mismatched 0
 *
 * The user and system times are this process's, from getrusage; the
 * caller divides them by the operations one pass of the loadfile holds,
 * times "replays".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { MAX_ARGS = 6, MAX_FDS = 4096, BUF_SIZE = 1 << 20 };

/* One call to make: its number and arguments (a path or a structure as a
 * pointer to a copy made when loading), and which arguments are
 * descriptors of the trace. */
struct call {
	long nr;
	long arg[MAX_ARGS];
	unsigned char fd_mask;		/* bit i: arg i is a traced descriptor */
	unsigned char buf_arg;		/* arg holding a buffer, or MAX_ARGS */
	int ret_fd;			/* the descriptor it returned in the trace, or -1 */
	bool failed;			/* it failed in the trace */
};

struct spec {
	const char *name;
	long nr;
	const char *args;	/* per argument: f descriptor, p path, b buffer, n number,
				 * h openat2's struct open_how, l fcntl's struct flock,
				 * - unused (0) */
	int returns_fd;
};

static const struct spec specs[] = {
	{ "openat", SYS_openat, "fpnn", 1 },
	{ "openat2", SYS_openat2, "fphn", 1 },
	{ "close", SYS_close, "f", 0 },
	{ "pread64", SYS_pread64, "fbnn", 0 },
	{ "pwrite64", SYS_pwrite64, "fbnn", 0 },
	{ "newfstatat", SYS_newfstatat, "fpbn", 0 },
	{ "fstat", SYS_fstat, "fb", 0 },
	{ "fstatfs", SYS_fstatfs, "fb", 0 },
	{ "getdents64", SYS_getdents64, "fbn", 0 },
	{ "mkdirat", SYS_mkdirat, "fpn", 0 },
	{ "unlinkat", SYS_unlinkat, "fpn", 0 },
	{ "renameat", SYS_renameat, "fpfp", 0 },
	{ "renameat2", SYS_renameat2, "fpfpn", 0 },
	{ "fsync", SYS_fsync, "f", 0 },
	{ "fdatasync", SYS_fdatasync, "f", 0 },
	{ "fcntl", SYS_fcntl, "fnl", 0 },
	{ "fgetxattr", SYS_fgetxattr, "fpbn", 0 },
	{ "fsetxattr", SYS_fsetxattr, "fpbnn", 0 },
	{ "utimensat", SYS_utimensat, "fn-n", 0 },
	{ "ftruncate", SYS_ftruncate, "fn", 0 },
};

static char *buf;

static void die(const char *what, const char *where, long line)
{
	if (line)
		fprintf(stderr, "replay-floor: %s:%ld: %s\n", where, line, what);
	else
		fprintf(stderr, "replay-floor: %s: %s\n", where, what);
	exit(2);
}

/* Memory for the loaded sequence, or the end of the program. */
static void *need(void *p)
{
	if (!p)
		die("out of memory", "loading the trace", 0);
	return p;
}

/* The next top-level argument of an strace argument list starting at *p:
 * a quoted string (returned unquoted, C escapes undone), or the raw text
 * of anything else up to the comma or closing parenthesis outside any
 * braces, brackets or quotes.  NULL at the end of the list. */
static char *next_arg(char **p)
{
	char *s = *p;
	while (*s == ' ')
		s++;
	if (*s == ')' || *s == '\0')
		return NULL;
	char *out = s, *w = s;
	if (*s == '"') {
		for (s++; *s && *s != '"'; s++) {
			if (*s != '\\') {
				*w++ = *s;
				continue;
			}
			s++;
			if (*s == 'x') {
				*w++ = (char)strtol((char[]){ s[1], s[2], 0 }, NULL, 16);
				s += 2;
			} else if (*s >= '0' && *s <= '7') {
				int v = 0, k = 0;
				while (k < 3 && *s >= '0' && *s <= '7')
					v = v * 8 + (*s++ - '0'), k++;
				s--;
				*w++ = (char)v;
			} else {
				*w++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
			}
		}
		if (*s == '"')
			s++;
		while (*s == '.')	/* a truncated string */
			s++;
	} else {
		int depth = 0;
		for (; *s; s++) {
			if (*s == '{' || *s == '[')
				depth++;
			else if (*s == '}' || *s == ']')
				depth--;
			else if (depth == 0 && (*s == ',' || *s == ')'))
				break;
		}
		w = s;
		while (w > out && w[-1] == ' ')
			w--;
	}
	char end = *s;
	*w = '\0';
	*p = end == ',' ? s + 1 : s;
	return out;
}

/* The text after the " = " that follows the argument list, or NULL. */
static char *return_value(char *open)
{
	char *found = NULL;

	for (char *s = strchr(open, ')'); s; s = strchr(s + 1, ')')) {
		char *e = s + 1 + strspn(s + 1, " ");
		if (e > s + 1 && e[0] == '=' && e[1] == ' ')
			found = e + 2;
	}
	return found;
}

/* The number after `name` in a structure strace printed, 0 without it. */
static long long field(const char *text, const char *name)
{
	const char *v = strstr(text, name);

	return v ? strtoll(v + strlen(name), NULL, 0) : 0;
}

static const struct spec *spec_of(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (strlen(specs[i].name) == len && memcmp(specs[i].name, name, len) == 0)
			return &specs[i];
	return NULL;
}

/* Read the trace into calls; paths are kept in their lines, which stay. */
static struct call *load(const char *file, size_t *ncalls)
{
	FILE *f = fopen(file, "r");
	if (!f)
		die(strerror(errno), file, 0);
	size_t n = 0, cap = 1024;
	struct call *calls = need(malloc(cap * sizeof(*calls)));
	char *line = NULL;
	size_t linecap = 0;
	long lineno = 0;

	while (getline(&line, &linecap, f) > 0) {
		lineno++;
		char *open = strchr(line, '(');
		if (!open)
			continue;
		const struct spec *sp = spec_of(line, (size_t)(open - line));
		char *ret_text = return_value(open);
		if (!sp || !ret_text)
			continue;	/* not a call we make, or one that did not return */
		if (n == cap)
			calls = need(realloc(calls, (cap *= 2) * sizeof(*calls)));
		struct call *c = &calls[n];
		memset(c, 0, sizeof(*c));
		c->nr = sp->nr;
		c->buf_arg = MAX_ARGS;
		char *p = open + 1;
		for (int i = 0; sp->args[i]; i++) {
			char *a = next_arg(&p);
			if (!a && strchr("fpb", sp->args[i]))
				die("fewer arguments than the call takes", file, lineno);
			if (!a)
				break;	/* openat's mode, given only with O_CREAT */
			switch (sp->args[i]) {
			case 'f':
				c->arg[i] = strtol(a, NULL, 0);
				if (c->arg[i] >= MAX_FDS)
					die("a descriptor beyond those this replays", file, lineno);
				if (c->arg[i] >= 0)
					c->fd_mask |= 1u << i;
				break;
			case 'p':
				c->arg[i] = (long)need(strdup(a));
				break;
			case 'b':
				c->buf_arg = (unsigned char)i;
				break;
			case 'n':
				c->arg[i] = strtol(a, NULL, 0);
				break;
			case 'h': {
				struct open_how *how = need(calloc(1, sizeof(*how)));
				how->flags = (uint64_t)field(a, "flags=");
				how->mode = (uint64_t)field(a, "mode=");
				how->resolve = (uint64_t)field(a, "resolve=");
				c->arg[i] = (long)how;
				break;
			}
			case 'l': {
				struct flock *lk = need(calloc(1, sizeof(*lk)));
				lk->l_type = (short)field(a, "l_type=");
				lk->l_whence = (short)field(a, "l_whence=");
				lk->l_start = field(a, "l_start=");
				lk->l_len = field(a, "l_len=");
				c->arg[i] = (long)lk;
				break;
			}
			default:
				break;
			}
		}
		long ret = strtol(ret_text, NULL, 0);
		if (sp->returns_fd && ret >= MAX_FDS)
			die("a descriptor beyond those this replays", file, lineno);
		c->ret_fd = sp->returns_fd && ret >= 0 ? (int)ret : -1;
		if (c->nr == SYS_close && !(c->fd_mask & 1))
			continue;	/* close(-1): nothing to close */
		c->failed = ret < 0;
		if (c->nr == SYS_fcntl && c->arg[1] != F_SETLK && c->arg[1] != F_GETLK &&
		    c->arg[1] != F_SETLKW && c->arg[1] != F_OFD_SETLK && c->arg[1] != F_OFD_GETLK)
			continue;
		n++;
	}
	free(line);
	fclose(f);
	if (n == 0)
		die("no call to replay (was it made with strace -X raw?)", file, 0);
	*ncalls = n;
	return calls;
}

/* The call itself, without libc's wrapper (which moves every argument
 * one register over and sets errno): -errno on failure. */
static inline long raw_syscall(long nr, const long *a)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = a[3];
	register long r8 __asm__("r8") = a[4];
	register long r9 __asm__("r9") = a[5];
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return r < 0 ? -errno : r;
#endif
}

static long replay(const struct call *calls, size_t n, int *fdmap, int dirfd)
{
	long mismatched = 0;

	for (size_t i = 0; i < n; i++) {
		const struct call *c = &calls[i];
		if (c->nr == SYS_close && fdmap[c->arg[0]] < 0)
			continue;	/* not one the sequence opened */
		long a[MAX_ARGS];
		memcpy(a, c->arg, sizeof(a));
		for (int k = 0; k < MAX_ARGS; k++) {
			if (c->fd_mask & (1u << k))
				a[k] = fdmap[a[k]] >= 0 ? fdmap[a[k]] : dirfd;
		}
		if (c->buf_arg < MAX_ARGS)
			a[c->buf_arg] = (long)buf;
		/* The sequence is read once per replay, from end to end: ask for
		 * the next record before the call's kernel work begins. */
		__builtin_prefetch(c + 1);
		__builtin_prefetch(c + 2);
		long r = raw_syscall(c->nr, a);
		mismatched += (r < 0) != c->failed;
		if (c->ret_fd >= 0)
			fdmap[c->ret_fd] = r >= 0 ? (int)r : -1;
		else if (c->nr == SYS_close)
			fdmap[c->arg[0]] = -1;
	}
	return mismatched;
}

static double us_of(struct timeval tv)
{
	return tv.tv_sec * 1e6 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: replay-floor TRACE DIR SECS\n");
		return 2;
	}
	double secs = atof(argv[3]);
	if (!(secs > 0))
		die("the seconds must be a positive number", argv[3], 0);
	size_t n;
	struct call *calls = load(argv[1], &n);
	int dirfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (dirfd < 0)
		die(strerror(errno), argv[2], 0);
	buf = need(aligned_alloc(4096, BUF_SIZE));
	memset(buf, 0, BUF_SIZE);
	for (size_t i = 0; i < n; i++) {
		const struct call *c = &calls[i];
		bool xattr = c->nr == SYS_fgetxattr || c->nr == SYS_fsetxattr;
		bool data = c->nr == SYS_pread64 || c->nr == SYS_pwrite64 || c->nr == SYS_getdents64;
		if ((data && c->arg[2] > BUF_SIZE) || (xattr && c->arg[3] > BUF_SIZE))
			die("a transfer larger than the buffer", argv[1], 0);
	}

	static int fdmap[MAX_FDS];
	struct timespec t0, t;
	struct rusage r0, r1;
	long replays = 0, mismatched = 0;

	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		memset(fdmap, 0xff, sizeof(fdmap));
		mismatched += replay(calls, n, fdmap, dirfd);
		replays++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < secs);
	getrusage(RUSAGE_SELF, &r1);
	printf("replays %ld calls %zu user_us %.1f sys_us %.1f mismatched %ld\n", replays, n,
	       us_of(r1.ru_utime) - us_of(r0.ru_utime), us_of(r1.ru_stime) - us_of(r0.ru_stime),
	       mismatched);
	return 0;
}
