/*
 * bpf-floor.c - what each part of the bpf tracer's work costs a traced
 * system call (bench/bpf-floor runs it): a loop of pread64 of 64 bytes
 * on a tmpfs file, its CPU time a call bare and with each set of
 * programs of bpf-floor.bpf.c attached (they trace the loop's thread
 * alone), in rounds that alternate the sets; the best and the median of
 * the rounds.  A set the kernel refuses (no BPF trampolines, say) is
 * said so, with the reason.
 *
 *     bpf-floor OBJ [CALLS [ROUNDS]]   the table
 *     bpf-floor -l CALLS DELAY         the loop alone after DELAY seconds
 *                                      (to trace it from outside)
 *
 * Knows nothing of dbench: it measures the kernel's side of tracing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>

static const char *const sets[][3] = {
	{ "bare" },
	{ "empty_enter", "empty_exit" },
	{ "test_exit" },
	{ "one_exit" },
	{ "rec_enter", "rec_exit" },
	{ "tramp_entry", "tramp_exit" },
	{ "tramp_one" },
};
#define NSETS (sizeof(sets) / sizeof(sets[0]))
#define MAX_ROUNDS 50

static double now(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The loop's CPU time a call, ns. */
static double loop(long n)
{
	char path[] = "/dev/shm/bpf-floor.XXXXXX", buf[64];
	int fd = mkstemp(path);

	memset(buf, 'x', sizeof(buf));
	if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf)) {
		perror("bpf-floor: /dev/shm");
		exit(1);
	}
	unlink(path);
	double c0 = now(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < n; i++)
		if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			exit(1);
	double c1 = now(CLOCK_THREAD_CPUTIME_ID);
	close(fd);
	return (c1 - c0) / (double)n * 1e9;
}

static int on_event(void *ctx, void *data, size_t size)
{
	(void)ctx, (void)data, (void)size;
	return 0;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* The loop in a child of its own, as a traced program is: forked held
 * on *go until it is let go, its result written to *res. */
static pid_t start_loop(long n, int *go, int *res)
{
	int g[2], r[2];

	if (pipe(g) != 0 || pipe(r) != 0) {
		perror("bpf-floor: pipe");
		exit(1);
	}
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(g[1]);
		close(r[0]);
		if (read(g[0], &c, 1) != 1)
			_exit(0);
		double v = loop(n);
		_exit(write(r[1], &v, sizeof(v)) == sizeof(v) ? 0 : 1);
	}
	close(g[0]);
	close(r[1]);
	*go = g[1];
	*res = r[0];
	return pid;
}

static void detach(struct bpf_link **links, struct bpf_object *o)
{
	for (int i = 0; i < 3; i++) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
	bpf_object__close(o);
}

/* The loaded object with set k's programs attached (their links in
 * links), tracing the thread tid: NULL with *err. */
static struct bpf_object *attach_set(const char *obj, size_t k, pid_t tid, struct bpf_link **links,
				     int *err)
{
	int nlinks = 0;

	struct bpf_object *o = bpf_object__open_file(obj, NULL);
	struct bpf_program *p;

	*err = o ? 0 : -errno;
	if (!o)
		return NULL;
	struct bpf_map *ro = bpf_object__find_map_by_name(o, ".rodata");
	size_t sz;
	__u32 *target = ro ? (__u32 *)bpf_map__initial_value(ro, &sz) : NULL;
	if (target)
		*target = (__u32)tid;
	bpf_object__for_each_program(p, o) {
		bool on = false;
		for (int i = 0; i < 3 && sets[k][i]; i++)
			on |= strcmp(sets[k][i], bpf_program__name(p)) == 0;
		bpf_program__set_autoload(p, on);
	}
	*err = bpf_object__load(o);
	bpf_object__for_each_program(p, o)
		if (!*err && bpf_program__autoload(p) && nlinks < 3 &&
		    !(links[nlinks++] = bpf_program__attach(p)))
			*err = -errno;
	if (*err) {
		detach(links, o);
		return NULL;
	}
	return o;
}

/* One round of set k: its ns a call, or -errno when it cannot be
 * loaded or attached; *fixed: the load and attach's wall time, ms.  The
 * events are drained here, as the recorder drains its. */
static double measure(const char *obj, size_t k, long n, double *fixed)
{
	int go, res, err = 0;
	pid_t pid = start_loop(n, &go, &res);
	double t0 = now(CLOCK_MONOTONIC), v = -EINVAL;
	struct bpf_link *links[3] = { NULL };
	struct bpf_object *o = k ? attach_set(obj, k, pid, links, &err) : NULL;
	struct ring_buffer *rb = o ? ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(o, "events")),
						      on_event, NULL, NULL) : NULL;

	*fixed = (now(CLOCK_MONOTONIC) - t0) * 1e3;
	if ((k == 0 || rb) && write(go, "g", 1) == 1) {
		struct pollfd pf = { .fd = res, .events = POLLIN };
		while (rb && poll(&pf, 1, 0) == 0)
			ring_buffer__poll(rb, 20);
		if (read(res, &v, sizeof(v)) != sizeof(v))
			v = -EIO;
	}
	close(go);
	close(res);
	waitpid(pid, NULL, 0);
	ring_buffer__free(rb);
	detach(links, o);
	return err ? err : v;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "-l") == 0) {
		usleep((useconds_t)(atof(argv[3]) * 1e6));
		printf("%.1f\n", loop(atol(argv[2])));
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: bpf-floor OBJ [CALLS [ROUNDS]] | -l CALLS DELAY\n");
		return 2;
	}
	long n = argc > 2 ? atol(argv[2]) : 500000;
	int rounds = argc > 3 ? atoi(argv[3]) : 5;
	static double ns[NSETS][MAX_ROUNDS], fixed[NSETS];
	int refused[NSETS] = { 0 };

	if (rounds < 1 || rounds > MAX_ROUNDS || n < 1) {
		fprintf(stderr, "bpf-floor: CALLS over 0, ROUNDS 1 to %d\n", MAX_ROUNDS);
		return 2;
	}
	libbpf_set_print(quiet);
	for (int r = 0; r < rounds; r++)
		for (size_t k = 0; k < NSETS; k++) {
			double f = 0, v = refused[k] ? refused[k] : measure(argv[1], k, n, &f);
			if (v < 0)
				refused[k] = (int)v;
			ns[k][r] = v;
			if (r == 0 || f < fixed[k])
				fixed[k] = f;
		}
	printf("%-26s %9s %9s %9s %12s\n", "programs", "best ns", "median", "+ best", "load ms");
	qsort(ns[0], (size_t)rounds, sizeof(double), by_value);
	for (size_t k = 0; k < NSETS; k++) {
		char name[64];
		snprintf(name, sizeof(name), "%s%s%s", sets[k][0], sets[k][1] ? " " : "",
			 sets[k][1] ? sets[k][1] : "");
		if (refused[k]) {
			printf("%-26s refused: %s\n", name, strerror(-refused[k]));
			continue;
		}
		qsort(ns[k], (size_t)rounds, sizeof(double), by_value);
		printf("%-26s %9.1f %9.1f %+9.1f %12.1f\n", name, ns[k][0], ns[k][rounds / 2],
		       ns[k][0] - ns[0][0], k ? fixed[k] : 0.0);
	}
	return 0;
}
