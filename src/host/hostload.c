/*
 * hostload.c - how busy the machine was during a run (see hostload.h):
 * /proc/stat, /proc/loadavg and each process's /proc/PID/schedstat, read
 * at the two ends of the execute window and differenced; and a thread's
 * own wait for a CPU, for a replay in exact timing.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "hostload.h"

/* ---- parsing ---- */

bool hostload_parse_stat(const char *text, long ticks, struct hostload_cpu *cpu)
{
	unsigned long long v[8] = { 0 };	/* user nice system idle iowait irq softirq steal */
	const char *line = text;

	while (line && strncmp(line, "cpu ", 4) != 0) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line || ticks <= 0)
		return false;
	/* kernels before 2.6.11 have no steal: 7 numbers are enough */
	int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 7)
		return false;
	cpu->busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / ticks;
	cpu->steal_s = (double)v[7] / ticks;
	return true;
}

bool hostload_parse_schedstat(const char *text, struct hostload_sched *s)
{
	unsigned long long run, wait;

	if (sscanf(text, "%llu %llu", &run, &wait) != 2)
		return false;
	s->run_s = run / 1e9;
	s->wait_s = wait / 1e9;
	return true;
}

bool hostload_parse_loadavg(const char *text, double avg[3])
{
	return sscanf(text, "%lf %lf %lf", &avg[0], &avg[1], &avg[2]) == 3;
}

/* ---- readings ---- */

/* The start of a small file into buf (len bytes, NUL-terminated); false
 * when it cannot be read. */
static bool read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (got <= 0)
		return false;
	buf[got] = '\0';
	return true;
}

static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return NAN;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

void hostload_read(TALLOC_CTX *mem_ctx, struct hostload_reading *r, const pid_t *pids,
		   size_t n, size_t nclients)
{
	char buf[1024];
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	*r = (struct hostload_reading){ .loadavg = { NAN, NAN, NAN }, .nclients = nclients };
	/* the "cpu" line comes first: the start of the file is enough */
	r->cpu_ok = read_small("/proc/stat", buf, sizeof(buf)) &&
		    hostload_parse_stat(buf, sysconf(_SC_CLK_TCK), &r->cpu);
	if (!read_small("/proc/loadavg", buf, sizeof(buf)) ||
	    !hostload_parse_loadavg(buf, r->loadavg))
		r->loadavg[0] = r->loadavg[1] = r->loadavg[2] = NAN;
	r->self_s = self_cpu_s();
	r->proc = talloc_zero_array(mem_ctx, struct hostload_sched, n ? n : 1);
	r->proc_ok = talloc_zero_array(mem_ctx, bool, n ? n : 1);
	r->nprocs = r->proc && r->proc_ok ? n : 0;	/* 0: no process read */
	for (size_t i = 0; i < r->nprocs; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pids[i]);
		r->proc_ok[i] = pids[i] > 0 && read_small(path, buf, sizeof(buf)) &&
				hostload_parse_schedstat(buf, &r->proc[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->t_s = (t0.tv_sec + t1.tv_sec) / 2.0 + (t0.tv_nsec + t1.tv_nsec) / 2e9;
}

bool hostload_thread_wait_ns(uint64_t *ns)
{
	char buf[128];
	struct hostload_sched s;

	if (!read_small("/proc/thread-self/schedstat", buf, sizeof(buf)) ||
	    !hostload_parse_schedstat(buf, &s))
		return false;
	*ns = (uint64_t)(s.wait_s * 1e9 + 0.5);
	return true;
}

/* a of b in percent, 100 at most; NAN where b is not above 0. */
static double pct(double a, double b)
{
	return b > 0 ? fmin(100, 100 * a / b) : NAN;
}

void hostload_figures(struct hostload *h, const struct hostload_reading *a,
		      const struct hostload_reading *b, double window_s, unsigned cpus)
{
	double own = b->self_s - a->self_s, wait = 0;
	unsigned read = 0;

	if (a->t_s > 0 && b->t_s > a->t_s)
		window_s = b->t_s - a->t_s;
	*h = (struct hostload){ .measured = true, .cpus = cpus, .window_s = window_s,
				.clients = (unsigned)a->nclients };
	for (int i = 0; i < 3; i++) {
		h->loadavg_start[i] = a->loadavg[i];
		h->loadavg_end[i] = b->loadavg[i];
	}
	for (size_t i = 0; i < a->nprocs && i < b->nprocs; i++) {
		if (!a->proc_ok[i] || !b->proc_ok[i])
			continue;
		own += b->proc[i].run_s - a->proc[i].run_s;
		if (i < a->nclients) {
			wait += b->proc[i].wait_s - a->proc[i].wait_s;
			read++;
		}
	}
	h->own_cpu_s = own;
	h->procs_read = read;
	h->cpu_wait_s = read ? wait : NAN;
	h->cpu_wait_pct = read ? pct(wait, read * window_s) : NAN;
	if (!a->cpu_ok || !b->cpu_ok) {
		h->other_cpu_s = h->other_cpu_pct = h->steal_s = h->steal_pct = NAN;
		return;
	}
	/* ticks are coarse (10 ms): a short window can come out a little
	 * below the run's own; no other work is 0, not less */
	h->other_cpu_s = fmax(0, b->cpu.busy_s - a->cpu.busy_s - own);
	h->other_cpu_pct = pct(h->other_cpu_s, cpus * window_s);
	h->steal_s = b->cpu.steal_s - a->cpu.steal_s;
	h->steal_pct = pct(h->steal_s, cpus * window_s);
}
