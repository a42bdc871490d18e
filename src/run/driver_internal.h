/*
 * driver_internal.h - the parts of the driver (driver.h) and the one
 * struct they share, for src/run/ alone.
 *
 * A run is one `struct driver`.  Each part owns its own sub-struct and is
 * the only one to write it; the rest is the run's common ground:
 *
 *   targets.c  the targets, through the backend: opened before any fork,
 *              described for the environment record, cleaned of what dead
 *              clients left, closed at the end.
 *   procs.c    the processes: signals, forking the clients and the
 *              --probe process, reaping them, turning a death or a failure
 *              a client recorded into the run's failure (d->procs).
 *   sampler.c  time: the phases, the once-a-second sample and progress
 *              line, the timeline, the start barrier and tick exchange of
 *              an MPI run, and the sampler's priority (d->sampler).
 *   collect.c  the end: every rank's figures into the result, and the
 *              text and JSON reports of it.
 *   driver.c   driver_run(), which calls them in order, and the checks
 *              before anything starts.
 *
 * Nothing here is seen outside src/run/: main, sweep and the tests know
 * only driver.h.
 */
#ifndef DBENCH_DRIVER_INTERNAL_H
#define DBENCH_DRIVER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>
#include <talloc.h>

#include "env.h"
#include "hostload.h"
#include "interval.h"
#include "report.h"
#include "result.h"
#include "cluster.h"
#include "driver.h"
#include "stats.h"

/* A client process's pid and its index in procs.pids, for finding the
 * process an exit belongs to among thousands at once. */
struct proc_pid {
	pid_t pid;
	unsigned p;
};

/* The processes of a run: procs.c's. */
struct procs {
	unsigned nprocs;		/* client processes */
	pid_t *pids;			/* 0 once reaped */
	struct proc_pid *by_pid;	/* the client processes sorted by pid */
	pid_t *probe_pids;		/* [plan->nprobes] --probe processes; 0 once reaped */
	unsigned probes_running;	/* of them not yet reaped */
	unsigned running;		/* processes not yet reaped, the probes' included */
	int start_pipe[2];		/* closing the write end releases everyone */
	bool abandoned;			/* clients were killed by a second SIGINT */
	uint64_t *stuck_ns;		/* per process, the probes' last: since when it
					 * has not stopped after the run ended, 0 if it
					 * has (stop_enforce) */
	struct {			/* after the end: the run's progress, as
					 * stop_enforce() last saw it */
		uint64_t at_ns;		/* when it last saw some */
		unsigned replaying;	/* processes still replaying then */
		unsigned running;	/* processes not yet reaped then */
		uint64_t latest;	/* stats_window_latest() of their clients */
	} progress;
	bool *killed;			/* per process, the probes' last: killed after
					 * a signal ended the run (no failure) */
	bool *left;			/* per target: one of its processes was, so
					 * the parent leaves it alone (targets.c) */
	struct run_failure *spare;	/* set aside before the fork, for a failure
					 * memory runs out for (procs_new_failure) */
	char *spare_text;		/* ... and the room for its message */
	bool in_child;			/* this is a client process, returning */
	int child_status;		/* ... and its exit status */
};

/* The run's time: sampler.c's. */
struct sampler {
	uint64_t start_ns;		/* clients released */
	uint64_t phase_ns;		/* current phase began */
	uint64_t open_ns;		/* execute window planned to open, where the
					 * clients open it by their own clocks */
	uint64_t exec_ns;		/* execute window began: open_ns */
	uint64_t end_ns;		/* execute window ended: at the latest its
					 * planned end, where the clients stopped */
	uint64_t closed_ns;		/* when the parent published the stop (later
					 * than end_ns when it was late) */
	uint64_t opened_ns;		/* when the parent took the machine's reading
					 * that opens the window (later than
					 * exec_ns when it was late) */
	enum phase phase;
	struct timeline_point *timeline;	/* one point per execute second */
	size_t ntimeline;
	unsigned points_lost;		/* not kept for lack of memory (the next
					 * point covers their seconds) */
	uint64_t last_bytes, last_ops;	/* execute figures at the last point */
	uint64_t last_ns;		/* when they were taken */
	struct stats_interval *interval;	/* each point's latencies by operation
						 * type (interval.h); NULL when not
						 * measured */
	uint16_t *types;		/* ... of these types: the loadfile's */
	unsigned ntypes;
	double cpu_ms;			/* parent CPU per sample */
	bool realtime;			/* the parent ran at a real-time priority */
	bool late_interrupt;		/* the first signal came after the execute
					 * window ended: the results are whole */
	unsigned substep;		/* MPI: tenths of the second asked about */
	uint64_t running_told;		/* this rank's processes at its last exchange */
	struct cluster_tick all;	/* every rank's figures at the last tick
					 * (rank 0; elsewhere only this rank's) */
	uint64_t running_all;		/* client processes left on every rank */
	struct progress shown;		/* the last progress line shown */
	uint64_t *passes_seen;		/* --show-execute-time: per client, passes taken */
	struct pass_time *passes;	/* ... and those passes */
	size_t npasses;
	uint64_t passes_lost;
	struct blockstat *disks;	/* rank 0: the targets' devices, or NULL */
	bool disks_opened;		/* their reading that opens the window is
					 * taken (before its planned opening) */
	struct hostload_reading host_start, host_end;	/* rank 0: the machine as the
							 * execute window opened and
							 * ended (hostload.h) */
	unsigned host_marks;		/* of them taken, in order */
};

/* The end of the run, made before any fork: collect.c's.  The result
 * with room for every figure, and the groups it is filled from, so that
 * memory running out at the end of a run cannot lose its figures. */
struct collect {
	char started_at[32];		/* UTC, when the clients were forked */
	struct run_result *res;		/* rank 0's result (result_new()) */
	struct stats_group *all;	/* every client's figures */
	struct stats_group *dir;	/* one directory's at a time */
	struct hist *merged;		/* scratch for a directory's p99 */
	struct stats_client *mine;	/* this rank's clients' own figures */
	struct stats_client *clients;	/* every rank's, rank by rank */
	struct cluster_rank *ranks;	/* every rank's totals */
};

struct driver {
	const struct run_plan *plan;
	TALLOC_CTX *ctx;		/* everything of the run; freed at its one exit */
	struct stats_region *stats;	/* shared with every client */
	struct backend_target **targets;	/* each of plan->dirs, opened (targets.c) */
	bool *unreachable;		/* per target: the removal of leftovers could not
					 * reach it, so it is left as it is (targets.c) */
	bool *left_said;		/* per client: its files were said to be left */
	unsigned files_left;		/* clients (and probes) whose files are left */
	struct run_failure *failure;	/* first failure seen, or NULL */
	FILE *text;			/* where human-readable output goes */
	double setup_s;			/* fork to all clients ready (the slowest rank's) */
	struct procs procs;
	struct sampler sampler;
	struct collect collect;
};

/* ---- targets.c ---- */

/* Open every target; false (after saying why) when one cannot be used. */
bool targets_open(struct driver *d);
/* Whether a recording's initial state fits on the targets; false after
 * saying the figures (unless --force). */
bool targets_fit(struct driver *d);
/* The backend's facts on each target for env_capture(), or NULL. */
struct env_facts *targets_describe(struct driver *d);
/* DIR/clients of the first target for a bare --probe; -1 when not local. */
int targets_probe_fd(const struct driver *d);
/* Remove what clients (and the probe) that died left behind. */
void targets_clean_leftovers(struct driver *d);
/* Remove each target's clients directory the clients left empty (with
 * --skip-cleanup too: an empty one holds nothing to keep), and the one
 * of each target opened before another failed; the targets are done
 * with then. */
void targets_close(struct driver *d);
/* Under MPI, before the wait for the other ranks: this process's own. */
void targets_close_own(struct driver *d);

/* ---- procs.c ---- */

void procs_install_signals(void);
/* " (RLIMIT_NOFILE is N)" after EMFILE, " (RLIMIT_NPROC is N)" after a
 * fork's EAGAIN, else "": the limit behind an error, for messages. */
const char *procs_limit_hint(TALLOC_CTX *mem_ctx, int err);
/* How many SIGINT/SIGTERM arrived, and the first one's number. */
unsigned procs_interrupts(void);
int procs_interrupt_signal(void);
/* Fork the client processes and the probe, calling each_second (if not
 * NULL) with how many clients are set up, once a second while it forks;
 * false when one could not be (the failure noted) or a signal came first:
 * procs.nprocs then counts those forked.  In a child it returns false
 * with procs.in_child. */
bool procs_fork_clients(struct driver *d, void (*each_second)(struct driver *d, unsigned ready));
/* Wait until every client and the probe is set up, calling each_second
 * (if not NULL) with how many clients are, once a second, and in the
 * dbench4 layout at the first look too when some are not (4.0's "1 of 2
 * processes prepared for launch" before "2 of 2"), and look once a
 * second before it (the stop policy's: stop_enforce()); false on a
 * failure or an interrupt first. */
bool procs_wait_ready(struct driver *d, void (*each_second)(struct driver *d, unsigned ready),
		      void (*look)(struct driver *d));
/* Reap exited processes, noting the first failure; block for one if asked. */
void procs_reap(struct driver *d, bool block);
/* Look at every slot for a failure recorded before its process exited. */
void procs_check_slots(struct driver *d);
/* A second SIGINT in cleanup: kill the clients, abandon their cleanup. */
void procs_abandon(struct driver *d);
/* Set aside the record of a failure, before any fork; false (after
 * saying so) when there is not enough memory. */
bool procs_reserve(struct driver *d);
/* A zeroed record for the run's first failure: a new one, or when memory
 * has run out, the one set aside (whose parts may then be NULL). */
struct run_failure *procs_new_failure(struct driver *d);
/* Complete failure `f` (its rank, host and whole message; rank -1 in an
 * MPI run: a rank not known) and make it the run's, or the record set
 * aside in its place when memory runs out for the message. */
void procs_set_failure(struct driver *d, struct run_failure *f, int rank);
/* `what`, or when it is NULL (memory ran out for it), words saying so. */
const char *procs_or_lost(const char *what);

/* Note a failure that is not an operation's (a death, a fork, a
 * process stuck) of client id (from 0), or of --probe process i: the
 * first failure wins. */
void procs_fail_process(struct driver *d, unsigned id, const char *what);
void procs_fail_probe(struct driver *d, unsigned i, const char *what);
/* Whether a signal ended the run that ended at end_ns (rather than
 * coming after its end, while the clients cleaned up). */
bool procs_signal_ended(uint64_t end_ns);

/* ---- stop.c ---- */

/* The time stop_enforce() judges by, from the sampler. */
struct run_clock {
	uint64_t now;			/* CLOCK_MONOTONIC */
	uint64_t start_ns;		/* the clients were released: tick 0 began */
	uint64_t end_ns;		/* the run ended; 0 while it has not */
};
/*
 * Once a second.  After the run ended (clk->end_ns), a process still
 * replaying is waited for while it is slow, not hung: it fails the run and
 * is killed only once plan->stop_timeout seconds have passed since the
 * end and since the run last made progress (a client finished an
 * operation or stopped replaying, a process exited), and its operation in
 * hand has lasted twice the worst latency the run has seen.  One held
 * stopped (SIGSTOP) for plan->stop_timeout seconds after the end, or
 * while it cleans up, fails at once.  Before the end (clk->end_ns 0: the
 * setup; with --run-once, the passes): one held stopped that long.
 * When a signal ended the run, a process hung at the last look before
 * stop_timeout has passed since the signal or the run's last progress
 * (held stopped; the run quiet that long, and it in an operation twice
 * the worst latency old or in its cleanup) is killed, and that is no
 * failure.
 */
void stop_enforce(struct driver *d, const struct run_clock *clk);

/* ---- sampler.c ---- */

void sampler_set_phase(struct driver *d, enum phase ph, uint64_t now);
void sampler_release(struct driver *d, uint64_t start);
void sampler_start_execute(struct driver *d, uint64_t now);
/* End the run's phases now, closing the execute window if open. */
void sampler_stop_now(struct driver *d);
/* Release every rank's clients together once all are ready; false when
 * a rank failed or was interrupted in setup. */
bool sampler_start_together(struct driver *d, bool ready);
/* Once a second until every client process (and the probe) has exited. */
void sampler_loop(struct driver *d);
/* The lowest real-time priority while the clients run, where allowed. */
bool sampler_priority_raise(void);
void sampler_priority_drop(struct driver *d);
/* --show-execute-time: take the passes finished since the last look,
 * printing a line each. */
void sampler_take_passes(struct driver *d);
/* How long this rank's clients ran in the execute window. */
double sampler_rank_seconds(struct driver *d);

/* ---- collect.c ---- */

/* Make the memory the end of the run needs (d->collect), before any
 * fork; false (after saying so) when there is not enough. */
bool collect_reserve(struct driver *d);
/* DBENCH_TEST_HIST_DIR: this rank's histograms to a file, for tests. */
void collect_dump_hists(struct driver *d);
/* Every rank's figures reduced into the result on rank 0, which takes
 * env; NULL elsewhere. */
struct run_result *collect_result(struct driver *d, json_t *env);
/* Text and JSON reports of the result, with a line on stderr for what
 * memory ran out for; the run's exit code. */
int collect_report(struct driver *d, struct run_result *res);

#endif
