/*
 * hostload.h - how busy the machine was while a run measured: what other
 * work took of the CPUs, and how long the run's own clients waited for
 * one.
 *
 * A comparison of two set-ups is only as good as the machine was steady:
 * runs of B made while something else ran look slower for no fault of
 * B's.  This module takes a reading of the machine when the execute
 * window opens and one when it ends (hostload_read), and turns the two
 * into figures (hostload_figures) that the run's JSON keeps and compare
 * and ab test: the CPU time every process used less the run's own
 * (/proc/stat's busy ticks less the clients', the probes' and the
 * driver's CPU), the time the hypervisor took (steal), the load average
 * at both ends, and the share of the clients' time spent runnable but
 * waiting for a CPU (/proc/PID/schedstat).
 *
 * The last is the one compare judges by.  Other work's CPU time grows
 * whenever a run leaves CPUs idle (an I/O-bound set-up on a shared
 * machine gives the others room), so it cannot tell a busier machine
 * from a lighter run; a client that waits for a CPU it wanted was
 * crowded out, whichever way.  The kernel's own work for the run (block
 * and file-system threads, interrupts) counts as other work.
 *
 * Knows nothing of the driver or the reporters: it reads procfs and
 * hands out plain figures.
 */
#ifndef DBENCH_HOSTLOAD_H
#define DBENCH_HOSTLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <talloc.h>

/* /proc/stat's first line, all CPUs, in seconds. */
struct hostload_cpu {
	double busy_s;		/* user, nice, system, irq, softirq (guest is in user) */
	double steal_s;		/* taken by the hypervisor */
};

/* One process's /proc/PID/schedstat, in seconds. */
struct hostload_sched {
	double run_s;		/* on a CPU */
	double wait_s;		/* runnable, waiting for one */
};

/* One reading: the machine and each of the run's processes. */
struct hostload_reading {
	double t_s;			/* when, on the monotonic clock: the middle of
					 * the reading (on a busy machine reading every
					 * process takes a while) */
	bool cpu_ok;			/* /proc/stat was read */
	struct hostload_cpu cpu;
	double loadavg[3];		/* 1, 5 and 15 minutes; NAN unread */
	double self_s;			/* the driver's own CPU (getrusage) */
	size_t nprocs;			/* the run's processes: clients first */
	size_t nclients;		/* of them client processes */
	struct hostload_sched *proc;	/* nprocs */
	bool *proc_ok;			/* nprocs: read at this reading */
};

/* The figures of the window between two readings; NAN where unknown. */
struct hostload {
	bool measured;		/* both readings were taken */
	unsigned cpus;		/* online CPUs */
	double window_s;	/* between the readings (near the execute window's
				 * length, a reading's time more or less) */
	double other_cpu_s;	/* busy CPU time less the run's own (0 at least) */
	double other_cpu_pct;	/* of all CPUs' time in the window */
	double own_cpu_s;	/* the run's processes' and the driver's */
	double steal_s;
	double steal_pct;	/* of all CPUs' time in the window */
	double cpu_wait_s;	/* the client processes' wait for a CPU */
	double cpu_wait_pct;	/* of the client processes' time in the window */
	unsigned procs_read;	/* client processes read at both ends */
	unsigned clients;	/* client processes in all */
	double loadavg_start[3], loadavg_end[3];
};

/* ---- parsing (pure, for the unit test) ---- */

/* The text of /proc/stat: its "cpu" line; false when it has none.  ticks
 * is USER_HZ (sysconf(_SC_CLK_TCK)). */
bool hostload_parse_stat(const char *text, long ticks, struct hostload_cpu *cpu);

/* The text of /proc/PID/schedstat ("RUN_NS WAIT_NS SLICES"). */
bool hostload_parse_schedstat(const char *text, struct hostload_sched *s);

/* The text of /proc/loadavg: its first three numbers. */
bool hostload_parse_loadavg(const char *text, double avg[3]);

/* ---- readings ---- */

/* Take a reading of the machine and of the processes pids[0..n), the
 * first nclients of them client processes (a pid of 0 is one gone);
 * the per-process parts on mem_ctx.  What cannot be read is marked so,
 * never guessed. */
void hostload_read(TALLOC_CTX *mem_ctx, struct hostload_reading *r, const pid_t *pids,
		   size_t n, size_t nclients);

/* The calling thread's time so far runnable but waiting for a CPU, in
 * nanoseconds, into *ns (/proc/thread-self/schedstat: a replay in exact
 * timing reads it for each of its threads); false where the kernel does
 * not say. */
bool hostload_thread_wait_ns(uint64_t *ns);

/* The figures between readings a and b, on a machine of cpus CPUs:
 * processes count where read at both.  The window is the time between
 * the readings (window_s where either has no time), so that the shares
 * are of the time the counters cover; a share is never above 100 %. */
void hostload_figures(struct hostload *h, const struct hostload_reading *a,
		      const struct hostload_reading *b, double window_s, unsigned cpus);

#endif
