/*
 * stop.c - the stop policy of a run: once a second, whether a process
 * that has not stopped is slow or hung (still replaying after the end
 * while the run makes no progress and its operation in hand has lasted
 * twice the worst latency seen; held stopped by a signal), and what is
 * done then (its failure noted and it killed; after a signal ended the
 * run, killed with a line and no failure).  Reads the clients' slots and
 * procs.c's processes; forks and reaps nothing, knows nothing of phases
 * or reports.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progname.h"
#include "run/client.h"
#include "run/driver_internal.h"

/* Whether process `pid` is held stopped (SIGSTOP, SIGTSTP, a tracer):
 * state T or t in /proc/PID/stat, which follows the command name in
 * parentheses. */
static bool held_stopped(pid_t pid)
{
	char path[32], buf[256];
	ssize_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
}

/* The first client of process p that has not stopped replaying (or not
 * begun: it was still setting up), or -1 when all have. */
static int client_not_stopped(const struct driver *d, unsigned p)
{
	unsigned k = d->plan->clients_per_process;

	for (unsigned c = p * k; c < (p + 1) * k && c < d->plan->nclients; c++) {
		uint64_t st = stats_get(&d->stats->slot[c].state);
		if (st == CLIENT_STARTING || st == CLIENT_READY || st == CLIENT_RUNNING)
			return (int)c;
	}
	return -1;
}

/* What a process whose (first unstopped) client or probe is in `state`
 * is doing, for messages. */
static const char *doing(uint64_t state, bool probe)
{
	return state == CLIENT_STARTING || state == CLIENT_READY ? "set up"
	       : state != CLIENT_RUNNING ? "cleaned up"
	       : probe ? "listed its directory" : "replayed the loadfile";
}

/* 1 + the latest tick in which a client of process p finished an
 * operation, 0 when none has (stats_window_latest()). */
static uint64_t latest_op(const struct driver *d, unsigned p)
{
	unsigned k = d->plan->clients_per_process;
	uint64_t latest = 0;

	for (unsigned c = p * k; c < (p + 1) * k && c < d->plan->nclients; c++) {
		uint64_t t = stats_window_latest(&d->stats->slot[c].win);
		latest = t > latest ? t : latest;
	}
	return latest;
}

/*
 * After the end: whether the run moved since the last look, a second ago:
 * a client finished an operation (in this tick or the last), a process
 * stopped replaying, or one exited.  Notes when it last did.
 */
static void note_progress(struct driver *d, const struct run_clock *clk)
{
	uint64_t tick = stats_get(&d->stats->ctl.tick);
	unsigned replaying = 0, alive = 0;
	bool moved = false;

	for (unsigned p = 0; p < d->procs.nprocs; p++) {
		alive += d->procs.pids[p] != 0;
		if (!d->procs.pids[p] || client_not_stopped(d, p) < 0)
			continue;
		replaying++;
		moved = moved || latest_op(d, p) >= tick;
	}
	if (!d->procs.progress.at_ns)	/* the first look: since the end */
		moved = moved || replaying < alive || alive < d->procs.nprocs;
	else
		moved = moved || replaying < d->procs.progress.replaying ||
			d->procs.running < d->procs.progress.running;
	if (moved || !d->procs.progress.at_ns)
		d->procs.progress.at_ns = moved && clk->now > clk->end_ns ? clk->now : clk->end_ns;
	d->procs.progress.replaying = replaying;
	d->procs.progress.running = d->procs.running;
}

/*
 * Whether client process p's operation in hand (begun no earlier than the
 * end of the tick in which its last one ended, or than the release) is
 * younger than twice the worst latency the run has seen.  *op_s is its
 * age in seconds, *worst_ns that latency.
 */
static bool op_young(const struct driver *d, unsigned p, const struct run_clock *clk,
		     double *op_s, uint64_t *worst_ns)
{
	uint64_t began = clk->start_ns + latest_op(d, p) * 1000000000ull;

	*op_s = clk->now > began ? (clk->now - began) / 1e9 : 0;
	*worst_ns = stats_max_latency(d->stats);
	return *op_s * 1e9 < 2.0 * *worst_ns;
}

/* When the run last moved, the end at the earliest (note_progress()). */
static uint64_t moved_at(const struct driver *d, const struct run_clock *clk)
{
	return d->procs.progress.at_ns > clk->end_ns ? d->procs.progress.at_ns : clk->end_ns;
}

/*
 * Whether client process p, still replaying after the end, is slow rather
 * than hung: the run moved within the stop timeout, or p's operation in
 * hand is young (op_young()).
 */
static bool slow_not_hung(const struct driver *d, unsigned p, const struct run_clock *clk,
			  double *op_s, uint64_t *worst_ns)
{
	if (clk->now - moved_at(d, clk) < d->plan->stop_timeout * 1000000000ull)
		return true;
	return op_young(d, p, clk, op_s, worst_ns);
}

/*
 * Whether process `pid` (client process p, or probe i with p ==
 * nprocs + i) is stuck: still replaying (or listing) after the run ended,
 * or held stopped while it was `what` (set up, replayed the loadfile,
 * cleaned up...).  stuck_ns[p] keeps since when; the answer is what went
 * wrong once that is stop_timeout ago, and, for a client process held by
 * nothing but a slow operation, once the run has stopped moving too
 * (slow_not_hung()).
 */
static const char *stuck(struct driver *d, unsigned p, pid_t pid, bool replaying,
			 const struct run_clock *clk, const char *what)
{
	uint64_t *since = &d->procs.stuck_ns[p];
	bool held = held_stopped(pid);
	unsigned secs = d->plan->stop_timeout;
	double op_s = 0;
	uint64_t worst_ns = 0;

	if (!replaying && !held) {
		*since = 0;
		return NULL;
	}
	if (!*since)
		*since = replaying ? clk->end_ns : clk->now;
	if (clk->now - *since < secs * 1000000000ull)
		return NULL;
	if (replaying && held)
		return procs_or_lost(talloc_asprintf(d->ctx, "process %d did not stop within %u s"
				" after the run ended (it was held stopped by a signal); killed",
				(int)pid, secs));
	if (replaying && p < d->procs.nprocs && slow_not_hung(d, p, clk, &op_s, &worst_ns))
		return NULL;
	if (replaying && p < d->procs.nprocs)
		return procs_or_lost(talloc_asprintf(d->ctx, "process %d did not stop within %u s"
				" after the run ended: the run made no progress for %u s, and its"
				" operation in hand had taken %.0f s, over twice the worst latency"
				" seen (%.3f s); killed", (int)pid, secs, secs, op_s,
				worst_ns / 1e9));
	if (replaying)
		return procs_or_lost(talloc_asprintf(d->ctx, "process %d did not stop within %u s"
				" after the run ended; killed", (int)pid, secs));
	return procs_or_lost(talloc_asprintf(d->ctx, "process %d was held stopped by a signal"
			" for %u s while it %s; killed", (int)pid, secs, what));
}

/*
 * After a signal ended the run, a process that is hung is killed at the
 * last look (once a second) before the stop timeout has passed, so that
 * the run ends within it whatever its processes wait for (a server that
 * does not answer, a file system that hangs), with a line saying so and
 * no failure: the run is the signal's.  Hung: held stopped since the
 * signal, or, the run having made no progress for that long, still in an
 * operation twice as old as the worst latency seen, or cleaning up (a
 * probe: not stopped since the signal).  One the others' progress shows
 * to be slow, queued behind them, is waited for, as after a time limit.
 */
static bool hung_after_signal(const struct driver *d, unsigned p, pid_t pid,
			      const struct run_clock *clk)
{
	uint64_t limit = d->plan->stop_timeout * 1000000000ull, look = clk->now + 1000000000ull;
	double op_s;
	uint64_t worst_ns;

	if (look < clk->end_ns + limit)
		return false;
	if (p >= d->procs.nprocs || held_stopped(pid))
		return true;
	if (look < moved_at(d, clk) + limit)
		return false;
	return client_not_stopped(d, p) < 0 || !op_young(d, p, clk, &op_s, &worst_ns);
}

/* Kill the processes hung_after_signal() names.  Their targets are noted
 * (procs.left), which the parent then leaves alone, for what held the
 * process would hold the parent too. */
static void stop_after_signal(struct driver *d, const struct run_clock *clk)
{
	unsigned secs = d->plan->stop_timeout, k = d->plan->clients_per_process;

	if (!d->procs.left && !(d->procs.left = talloc_zero_array(d->ctx, bool, d->plan->ndirs)))
		return;
	for (unsigned p = 0; p < d->procs.nprocs; p++) {
		if (!d->procs.pids[p] || d->procs.killed[p] ||
		    !hung_after_signal(d, p, d->procs.pids[p], clk))
			continue;
		say("process %d (client %u) did not stop within %u s of the signal; killed\n",
		    (int)d->procs.pids[p], p * k + 1, secs);
		kill(d->procs.pids[p], SIGKILL);
		d->procs.killed[p] = true;
		for (unsigned c = p * k; c < (p + 1) * k && c < d->plan->nclients; c++)
			d->procs.left[c % d->plan->ndirs] = true;
	}
	for (unsigned i = 0; d->procs.probe_pids && i < d->plan->nprobes; i++) {
		unsigned q = d->procs.nprocs + i;
		if (!d->procs.probe_pids[i] || d->procs.killed[q] ||
		    !hung_after_signal(d, q, d->procs.probe_pids[i], clk))
			continue;
		say("the probe process %d did not stop within %u s of the signal; killed\n",
		    (int)d->procs.probe_pids[i], secs);
		kill(d->procs.probe_pids[i], SIGKILL);
		d->procs.killed[q] = true;
		d->procs.left[0] = true;
	}
}

void stop_enforce(struct driver *d, const struct run_clock *clk)
{
	unsigned n = d->procs.nprocs;

	if (!d->procs.stuck_ns &&
	    !(d->procs.stuck_ns = talloc_zero_array(d->ctx, uint64_t, n + d->plan->nprobes)))
		return;
	if (!d->procs.killed &&
	    !(d->procs.killed = talloc_zero_array(d->ctx, bool, n + d->plan->nprobes)))
		return;
	if (clk->end_ns)
		note_progress(d, clk);
	if (procs_signal_ended(clk->end_ns)) {
		stop_after_signal(d, clk);
		return;
	}
	for (unsigned p = 0; p < n; p++) {
		pid_t pid = d->procs.pids[p];
		int c = pid ? client_not_stopped(d, p) : -1;
		uint64_t st = c >= 0 ? stats_get(&d->stats->slot[c].state) : CLIENT_DONE;
		const char *why = pid ? stuck(d, p, pid, clk->end_ns && c >= 0, clk,
					      doing(st, false))
				      : NULL;
		if (why) {
			procs_fail_process(d, c >= 0 ? (unsigned)c : p * d->plan->clients_per_process,
				     why);
			kill(pid, SIGKILL);
		}
	}
	for (unsigned i = 0; d->procs.probe_pids && i < d->plan->nprobes; i++) {
		pid_t probe = d->procs.probe_pids[i];
		uint64_t st = probe ? stats_get(&d->stats->probe[i].state) : 0;
		const char *why = probe ? stuck(d, n + i, probe, clk->end_ns && (st == CLIENT_READY ||
						st == CLIENT_RUNNING || st == CLIENT_STARTING),
						clk, doing(st, true))
					: NULL;
		if (why) {
			procs_fail_probe(d, i, why);
			kill(probe, SIGKILL);
		}
	}
}

