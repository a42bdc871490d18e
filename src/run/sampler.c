/*
 * sampler.c - the time of a run: the phases (setup, warmup, execute,
 * cleanup) published in the stats region, the once-a-second sample with
 * its progress line and timeline point, the start barrier and the tick
 * exchange that keep the ranks of an MPI run in step, and the sampler's
 * real-time priority.  Owns d->sampler; forks and reaps nothing itself.
 */
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "opclock.h"
#include "run/driver_internal.h"

/* Rank 0: a reading of how busy the machine is (hostload.h) and of the
 * run's processes, the clients first, then the probes. */
static void host_mark(struct driver *d, struct hostload_reading *r)
{
	unsigned nclients = d->procs.nprocs, n = nclients + d->plan->nprobes;
	pid_t *pids = talloc_array(d->ctx, pid_t, n ? n : 1);

	if (cluster_rank() != 0 || !pids || !d->procs.pids)
		return;
	for (unsigned i = 0; i < n; i++)
		pids[i] = i < nclients ? d->procs.pids[i]
			: d->procs.probe_pids ? d->procs.probe_pids[i - nclients] : 0;
	hostload_read(d->ctx, r, pids, n, nclients);
	d->sampler.host_marks++;
	talloc_free(pids);
}

/* Each operation type's latencies since the last point, on the timeline
 * (talloc_realloc() takes them along); NULL when not measured or out of
 * memory. */
static struct interval_op *point_ops(struct driver *d, struct timeline_point *timeline)
{
	struct sampler *s = &d->sampler;
	struct interval_op *ops;

	if (!s->interval)
		return NULL;
	ops = talloc_array(timeline, struct interval_op, s->ntypes ? s->ntypes : 1);
	if (ops && !stats_interval_take(s->interval, d->stats, s->types, s->ntypes, ops))
		TALLOC_FREE(ops);
	return ops;
}

/* The last point's operations taken again once the window has closed
 * (PHASE_STOP published): with those that ended between its look and the
 * close, which a client counts in the window too, and which the point
 * taken at the close, or a second's taken just before it (a point less
 * than 1 ms long is none), would leave out.  A point whose look was not
 * kept (out of memory) stays without. */
static void last_point_ops(struct driver *d)
{
	struct sampler *s = &d->sampler;

	if (!s->interval || !s->ntimeline)
		return;
	struct timeline_point *p = &s->timeline[s->ntimeline - 1];
	if (p->ops && !stats_interval_take_again(s->interval, d->stats, s->types, s->ntypes, p->ops))
		TALLOC_FREE(p->ops);
}

/* The devices' reading that closes the execute window, taken once every
 * client can see that it closed: the operations counted in the window
 * all ended before it.  When the timeline's last point ended the window,
 * its reading is taken again, still stamped at the window's end: the
 * last second's rates are then over the second the timeline shows, and
 * the seconds add up to the window's figures (sampler.end_ns must be
 * set). */
static void disks_close_window(struct driver *d)
{
	struct sampler *s = &d->sampler;

	if (!s->disks)
		return;
	if (s->ntimeline && s->last_ns == s->end_ns)
		blockstat_reread(s->disks, s->end_ns);
	else
		blockstat_read(s->disks, monotonic_ns());
}

void sampler_set_phase(struct driver *d, enum phase ph, uint64_t now)
{
	bool opens = ph == PHASE_EXECUTE && d->sampler.phase != PHASE_EXECUTE;
	bool closes = ph == PHASE_STOP && d->sampler.phase == PHASE_EXECUTE;

	/* the machine at both ends of the execute window; the devices read
	 * before any client can count an operation in it, stamped at the
	 * window's start as the timeline's seconds are */
	if (opens) {
		d->sampler.opened_ns = monotonic_ns();
		host_mark(d, &d->sampler.host_start);
		if (d->sampler.disks && !d->sampler.disks_opened)
			blockstat_read(d->sampler.disks, now);
		d->sampler.disks_opened = true;
	} else if (closes) {
		host_mark(d, &d->sampler.host_end);
	}
	d->sampler.phase = ph;
	d->sampler.phase_ns = now;
	stats_set(&d->stats->ctl.phase, ph);
	if (ph == PHASE_STOP && !d->sampler.closed_ns)
		d->sampler.closed_ns = monotonic_ns();
	if (closes) {
		disks_close_window(d);
		last_point_ops(d);
	}
}

static const char *phase_name(enum phase ph)
{
	static const char *names[] = { "setup", "warmup", "execute", "cleanup" };
	return names[ph];
}

/* True when every client has finished its one pass (--run-once). */
static bool all_passes_done(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nclients; i++) {
		uint64_t st = stats_get(&d->stats->slot[i].state);
		if (st == CLIENT_RUNNING || st == CLIENT_READY)
			return false;
	}
	return true;
}

/* How long this rank's clients ran in the execute window: to the end of
 * their last pass with --run-once, else the window. */
double sampler_rank_seconds(struct driver *d)
{
	const struct sampler *s = &d->sampler;
	double window = s->end_ns > s->exec_ns ? (s->end_ns - s->exec_ns) / 1e9 : 0;
	uint64_t end = 0;

	if (!d->plan->run_once || s->exec_ns == 0)
		return window;
	for (unsigned i = 0; i < d->plan->nclients; i++) {
		uint64_t e = stats_get(&d->stats->slot[i].end_ns);
		if (e > end)
			end = e;
	}
	return end > s->exec_ns ? (end - s->exec_ns) / 1e9 : 0;
}

/* The planned end of the execute window, at which the clients stop by
 * their own clocks (ctl.end_ns); 0 for none (--run-once). */
static uint64_t planned_end(const struct driver *d)
{
	return d->plan->run_once || !d->sampler.exec_ns
		       ? 0 : d->sampler.exec_ns + d->plan->timelimit * 1000000000ull;
}

/* `now`, or while the window is open and `now` is past its planned end,
 * that end: a parent late to close the window (stopped, or starved of
 * CPU) reads a window of the planned length, which is what the clients
 * counted operations in. */
static uint64_t window_clamp(const struct driver *d, uint64_t now)
{
	uint64_t end = planned_end(d);

	return d->sampler.phase == PHASE_EXECUTE && end && now > end ? end : now;
}

/* This rank's failure as it travels to rank 0. */
static void failure_to_wire(const struct run_failure *f, struct cluster_failure *w)
{
	memset(w, 0, sizeof(*w));
	w->client = f->client;
	w->line = f->line;
	snprintf(w->operation, sizeof(w->operation), "%s", f->operation ? f->operation : "");
	snprintf(w->path, sizeof(w->path), "%s", f->path ? f->path : "");
	snprintf(w->error, sizeof(w->error), "%s", f->error ? f->error : "");
}

/* Rank 0: another rank's failure becomes the run's. */
static void failure_from_wire(struct driver *d, const struct cluster_failure *w, int rank)
{
	struct run_failure *f = procs_new_failure(d);

	f->client = w->client;
	f->line = w->line;
	f->operation = w->operation[0] ? talloc_strdup(f, w->operation) : NULL;
	f->path = w->path[0] ? talloc_strdup(f, w->path) : NULL;
	f->error = talloc_strdup(f, w->error);
	procs_set_failure(d, f, rank);
}

/* Rank 0: another rank's failure in the latest tick becomes the run's,
 * unless the run failed already. */
static void take_remote_failure(struct driver *d)
{
	if (d->sampler.all.failed_rank > 0 && !d->failure)
		failure_from_wire(d, &d->sampler.all.failure, (int)d->sampler.all.failed_rank);
}

/* What this rank tells rank 0 at a tick. */
static void local_tick(struct driver *d, uint64_t tick, struct cluster_tick *t)
{
	struct phase_stats cur, exec;
	enum phase ph = d->sampler.phase == PHASE_STOP ? PHASE_EXECUTE : d->sampler.phase;

	stats_sum(d->stats, ph, &cur);
	stats_sum(d->stats, PHASE_EXECUTE, &exec);
	*t = (struct cluster_tick){
		.bytes = stats_bytes(&cur), .ops = cur.ops,
		.exec_bytes = stats_bytes(&exec), .exec_ops = exec.ops,
		.max_ns = stats_window_max(d->stats, tick),
		.running = d->procs.running,
		.interrupted = procs_interrupts() ? procs_interrupt_signal() : 0,
		.failed_rank = -1,
	};
	for (unsigned i = 0; d->plan->replay_timing == REPLAY_EXACT && i < d->plan->nclients; i++)
		stats_lag_add(&t->lag, &d->stats->slot[i].lag);
	if (d->plan->run_once && d->sampler.phase == PHASE_EXECUTE && all_passes_done(d)) {
		t->done = 1;
		t->done_s = sampler_rank_seconds(d);
	}
	if (d->failure) {
		t->failed_rank = cluster_rank();
		failure_to_wire(d->failure, &t->failure);
	}
}

/* The longest listing of any probe that ended during `tick`, in ms; NAN
 * when none did, or there is no probe. */
static double probe_ms(const struct driver *d, uint64_t tick)
{
	uint64_t ns = 0;

	for (unsigned i = 0; i < d->plan->nprobes; i++) {
		uint64_t v = stats_window_get(&d->stats->probe[i].win, tick);
		ns = v > ns ? v : ns;
	}
	return ns ? ns / 1e6 : NAN;
}

/* Close the timeline's current interval at `now`, which ends `tick`: the
 * execute figures gained since the last point (every rank's), per second. */
static void add_point(struct driver *d, uint64_t now, uint64_t tick, uint64_t bytes,
		      uint64_t ops, double max_latency_ms)
{
	double secs = now > d->sampler.last_ns ? (now - d->sampler.last_ns) / 1e9 : 0;

	if (secs < 0.001)
		return;
	struct timeline_point *grown = talloc_realloc(d->ctx, d->sampler.timeline,
						      struct timeline_point, d->sampler.ntimeline + 1);
	if (!grown) {		/* the next point takes this interval in */
		d->sampler.points_lost++;
		return;
	}
	d->sampler.timeline = grown;
	d->sampler.timeline[d->sampler.ntimeline++] = (struct timeline_point){
		.t_s = (now - d->sampler.exec_ns) / 1e9,
		.mb_s = (bytes - d->sampler.last_bytes) / 1e6 / secs,
		.ops_s = (ops - d->sampler.last_ops) / secs,
		.max_latency_ms = max_latency_ms,
		.probe_ms = probe_ms(d, tick),
		.ops = point_ops(d, grown),
	};
	d->sampler.last_bytes = bytes;
	d->sampler.last_ops = ops;
	d->sampler.last_ns = now;
	if (d->sampler.disks)
		blockstat_read(d->sampler.disks, now);
}

/* --show-execute-time: this rank's passes finished since the last look,
 * a line each, kept for the result. */
void sampler_take_passes(struct driver *d)
{
	struct sampler *s = &d->sampler;
	struct pass_record rec[STATS_PASS_RING];

	if (!d->plan->show_execute_time)
		return;
	if (!s->passes_seen)
		s->passes_seen = talloc_zero_array(d->ctx, uint64_t, d->plan->nclients);
	for (unsigned i = 0; s->passes_seen && i < d->plan->nclients; i++) {
		unsigned n = stats_passes_since(&d->stats->slot[i], &s->passes_seen[i], rec,
						&s->passes_lost);
		struct pass_time *p = n ? talloc_realloc(d->ctx, s->passes, struct pass_time,
							  s->npasses + n) : s->passes;
		if (!p) {	/* out of memory: counted among those lost */
			s->passes_lost += n;
			continue;
		}
		for (unsigned k = 0; p && k < n; k++) {
			struct pass_time *t = &p[s->npasses++];
			*t = (struct pass_time){ .client = i,
				.ms = (rec[k].end_ns - rec[k].start_ns) / 1e6,
				.at_ms = rec[k].end_ns > s->start_ns
						 ? (rec[k].end_ns - s->start_ns) / 1e6 : 0 };
			report_pass(d->text, d->plan, t);
		}
		s->passes = p;
	}
	fflush(d->text);
}

/* Once a second: the timeline point and the progress line of the second
 * that ended at `now`, from every rank's figures. */
static void sample(struct driver *d, uint64_t tick, uint64_t now, uint64_t *prev_bytes)
{
	const struct cluster_tick *all = &d->sampler.all;

	now = window_clamp(d, now);	/* a late look, at the window's end */
	double secs = now > d->sampler.phase_ns ? (now - d->sampler.phase_ns) / 1e9 : 0;
	double max_ms = all->max_ns / 1e6;

	if (d->sampler.phase == PHASE_EXECUTE)
		add_point(d, now, tick, all->exec_bytes, all->exec_ops, max_ms);
	sampler_take_passes(d);
	unsigned nclients = d->plan->nclients * cluster_size();
	unsigned procs = all->running - d->procs.probes_running;
	uint64_t exec_ns = d->sampler.exec_ns;
	struct progress p = {
		.format = d->plan->output_format,
		.machine_readable = d->plan->machine_readable,
		.nclients = nclients,
		.active = procs * d->plan->clients_per_process < nclients
				  ? procs * d->plan->clients_per_process : nclients,
		.exec_secs = now > exec_ns && exec_ns ? (unsigned)((now - exec_ns) / 1e9 + 0.5) : 0,
		.lines = all->ops,
		.mb_s = d->sampler.phase == PHASE_STOP || secs <= 0 ? 0 : all->bytes / 1e6 / secs,
		.last_mb_s = d->sampler.phase == PHASE_STOP ? 0 : (all->bytes - *prev_bytes) / 1e6,
		.phase = phase_name(d->sampler.phase),
		.secs = (unsigned)(secs + 0.5),
		.max_latency_ms = max_ms,
		.behind = d->plan->prog->calls && d->plan->replay_timing == REPLAY_EXACT,
		.behind_mean_ms = all->lag.count ? all->lag.sum_ns / 1e6 / all->lag.count : 0,
		.behind_max_ms = all->lag.max_ns / 1e6,
	};
	*prev_bytes = all->bytes;
	d->sampler.shown = p;
	/* dbench4: 4.0's cleanup lines count the processes down from those
	 * still running when the time was up to the 0 of the last line
	 * (report_progress_end()), which is said once */
	bool d4_done = p.format == OUTPUT_DBENCH4 && d->sampler.phase == PHASE_STOP && !p.active;
	if (!d->plan->quiet && !d4_done)
		report_progress(d->text, &p);
}

/* dbench4: as the time is up, 4.0's first cleanup line, the processes
 * running then ("   2  cleanup   3 sec"). */
static void show_cleanup_start(struct driver *d, uint64_t now)
{
	struct progress p = d->sampler.shown;

	if (d->plan->quiet || p.format != OUTPUT_DBENCH4 || !p.active)
		return;
	p.phase = "cleanup";
	p.exec_secs = (unsigned)((now - d->sampler.exec_ns) / 1e9 + 0.5);
	report_progress(d->text, &p);
}

/* Each point's latencies by operation type, of the loadfile's types, in
 * a run of one rank: the ranks' histograms meet only at the end. */
static void start_intervals(struct driver *d)
{
	struct sampler *s = &d->sampler;
	const struct program *prog = d->plan->prog;

	if (cluster_size() > 1 || s->interval)
		return;
	s->types = talloc_array(d->ctx, uint16_t, OP_COUNT);
	s->interval = s->types ? stats_interval_new(d->ctx) : NULL;
	if (!s->interval)
		return;
	for (unsigned t = 0; t < OP_COUNT; t++)
		if (prog->count[t])
			s->types[s->ntypes++] = (uint16_t)t;
}

/* The clients about to be released at `start`: the execute window's
 * planned opening (after the warmup) and end go to them first, which
 * they keep by their own clocks however late the parent is (stopped, or
 * starved of CPU); then the first phase. */
void sampler_release(struct driver *d, uint64_t start)
{
	const struct run_plan *plan = d->plan;
	bool warm = !plan->run_once && plan->warmup > 0;
	uint64_t open = start + (warm ? plan->warmup * 1000000000ull : 0);
	uint64_t span = plan->timelimit * 1000000000ull;
	uint64_t end = plan->run_once ? 0 : open + span;
	uint64_t look = UINT64_MAX;	/* no end (--run-once): never look */

	if (end) {	/* the clock's rate may be off by a part in 10^4 or so */
		uint64_t margin = (end - start) / 1000 + 20000000;
		look = opclock_at(end - (margin < span ? margin : span));
	}
	d->sampler.open_ns = open;
	stats_set(&d->stats->ctl.exec_ns, warm ? open : 0);
	stats_set(&d->stats->ctl.end_ns, end);
	stats_set(&d->stats->ctl.look_tc, look);
	if (warm)
		sampler_set_phase(d, PHASE_WARMUP, start);
	else
		sampler_start_execute(d, start);
}

/* Enter the execute phase, published at `now`; nothing has been counted
 * in it yet.  It began at its planned opening, where the clients began
 * it by their own clocks. */
void sampler_start_execute(struct driver *d, uint64_t now)
{
	if (d->sampler.open_ns)
		now = d->sampler.open_ns;
	sampler_set_phase(d, PHASE_EXECUTE, now);
	d->sampler.exec_ns = d->sampler.last_ns = now;
	d->sampler.last_bytes = d->sampler.last_ops = 0;
	start_intervals(d);
}

/* In step with other ranks: an MPI run whose ranks all answer. */
static bool together(void)
{
	return cluster_mpi() && !cluster_broken();
}

/* Leave the execute window, which ended at `end` (at the latest at its
 * planned end); the timeline's last point is closed with the latest
 * figures. */
static void end_execute(struct driver *d, uint64_t end)
{
	/* a parent still in the warmup past the planned opening: the
	 * clients opened the window there by their own clocks */
	if (d->sampler.phase == PHASE_WARMUP && d->sampler.open_ns && end > d->sampler.open_ns)
		sampler_start_execute(d, end);
	end = window_clamp(d, end);
	if (d->sampler.phase == PHASE_EXECUTE) {
		d->sampler.end_ns = end;
		uint64_t tick = stats_get(&d->stats->ctl.tick);
		if (!together())	/* a plain run can look again, now */
			local_tick(d, tick, &d->sampler.all);
		add_point(d, end, tick, d->sampler.all.exec_bytes, d->sampler.all.exec_ops,
			  d->sampler.all.max_ns / 1e6);
	} else {
		d->sampler.exec_ns = d->sampler.end_ns = end;	/* nothing was counted */
	}
	sampler_set_phase(d, PHASE_STOP, end);
}

/* Rank 0: phase changes due at `now`; returns true when the phase
 * changed. */
static bool advance(struct driver *d, uint64_t now)
{
	const struct run_plan *plan = d->plan;
	uint64_t in_phase = now - d->sampler.phase_ns;

	if (d->sampler.phase == PHASE_WARMUP &&
	    in_phase >= plan->warmup * 1000000000ull - 5000000) {
		sampler_start_execute(d, now);
		return true;
	}
	if (d->sampler.phase == PHASE_EXECUTE && !plan->run_once &&
	    in_phase >= plan->timelimit * 1000000000ull - 5000000) {
		/* its last second is already a point, ending there too */
		d->sampler.end_ns = window_clamp(d, now);
		sampler_set_phase(d, PHASE_STOP, now);
		return true;
	}
	if (d->sampler.phase == PHASE_EXECUTE && plan->run_once &&
	    d->sampler.all.done == cluster_size()) {
		uint64_t end = d->sampler.exec_ns + (uint64_t)(d->sampler.all.done_s * 1e9);
		end_execute(d, end > d->sampler.exec_ns && end <= now ? end : now);
		return true;
	}
	return false;
}

void sampler_stop_now(struct driver *d)
{
	if (d->sampler.phase != PHASE_STOP)
		end_execute(d, monotonic_ns());
}

/* Another rank: take up the phase rank 0 ordered. */
static void follow(struct driver *d, const struct cluster_order *o, uint64_t now)
{
	if (o->phase == d->sampler.phase)
		return;
	if (o->phase == PHASE_EXECUTE)
		sampler_start_execute(d, now);
	else if (o->phase == PHASE_STOP && d->sampler.phase == PHASE_EXECUTE)
		end_execute(d, now);
	else
		sampler_set_phase(d, o->phase, now);
}

/*
 * Thousands of clients that never sleep leave an ordinary sampler waiting
 * for a CPU for many seconds, and the phases it times stretch with it.
 * Where the system allows it (CAP_SYS_NICE), the parent runs at the lowest
 * real-time priority while the clients run; SCHED_RESET_ON_FORK keeps the
 * processes it forks ordinary.  Its work is a few milliseconds a second.
 */
bool sampler_priority_raise(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0;
}

void sampler_priority_drop(struct driver *d)
{
	struct sched_param sp = { .sched_priority = 0 };
	if (d->sampler.realtime)
		sched_setscheduler(0, SCHED_OTHER, &sp);
}

/* The CPU time this process has used, user and system, in ms. */
static double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
}

/* A rank fell silent: the run's failure, named on rank 0 when known, -1
 * when not (another rank that lost rank 0 finishes on its own, and
 * mpirun ends the job). */
static void rank_silent(struct driver *d, int lost)
{
	if (d->failure)
		return;
	struct run_failure *f = procs_new_failure(d);
	f->error = talloc_asprintf(f, "did not answer within %u s (held stopped, or its host"
				   " or network gone): its clients' figures are missing",
				   d->plan->stop_timeout);
	procs_set_failure(d, f, lost);	/* -1: a collective does not say who */
}

/*
 * One tick, on every rank at once: each tells rank 0 its figures; rank 0
 * takes in another rank's failure, shows the second, moves the phase on,
 * and orders every rank into it.  Returns true when the phase changed.
 * Between ticks (prev_bytes NULL), when a rank has news, the same without
 * the second's sample and the phase's timing: a stop goes out at once.
 */
static bool exchange(struct driver *d, uint64_t tick, uint64_t now, uint64_t *prev_bytes)
{
	struct cluster_tick mine;
	struct cluster_order order = { 0 };
	bool changed = false;

	local_tick(d, tick, &mine);
	d->sampler.running_told = mine.running;
	cluster_tick(&mine, &d->sampler.all);
	if (cluster_rank() == 0) {
		take_remote_failure(d);
		if (d->failure || (cluster_mpi() && d->sampler.all.interrupted))
			sampler_stop_now(d);
		/* --run-once: passes that ended during this second end the
		 * window at their end, before the second is sampled, so that
		 * no point (an empty one, a false stall) lies beyond it */
		if (prev_bytes && d->plan->run_once && d->sampler.phase == PHASE_EXECUTE &&
		    d->sampler.all.done == cluster_size())
			changed = advance(d, now);
		if (prev_bytes)
			sample(d, tick, now, prev_bytes);
		if (prev_bytes && d->sampler.phase != PHASE_STOP &&
		    (changed = advance(d, now)) && d->sampler.phase == PHASE_STOP)
			show_cleanup_start(d, now);
		order.phase = d->sampler.phase;
		order.running = d->sampler.all.running;
	}
	cluster_order(&order);
	if (cluster_rank() != 0 && !cluster_broken())
		follow(d, &order, now);
	if (cluster_broken())	/* a rank fell silent in the exchange */
		rank_silent(d, -1);
	d->sampler.running_all = cluster_broken() ? d->procs.running : order.running;
	return changed;
}

/* While a rank waits for the others: its own time limit still holds, so
 * that its clients stop on time when another rank is slow to answer.
 * True once the rank was sent a signal: it may give up waiting. */
static bool keep_time(void *arg)
{
	struct driver *d = arg;
	uint64_t now = monotonic_ns();

	if (d->sampler.phase == PHASE_EXECUTE && !d->plan->run_once &&
	    now - d->sampler.phase_ns >= d->plan->timelimit * 1000000000ull)
		end_execute(d, now);
	return procs_interrupts() > 0;
}

/*
 * An MPI run, until `next`: ten times a second every rank says whether it
 * has news that cannot wait for the tick (a signal or a failure before
 * the stop, a client process gone after it: an interrupted run must be
 * reported within the second mpirun allows before its SIGKILL).  1 when
 * one has, and every rank then exchanges at once; -1 when a rank fell
 * silent; 0 at `next`.  Every rank asks the same number of times.
 */
static int between_ticks(struct driver *d, uint64_t next)
{
	int lost, r;

	while (d->sampler.substep < 9) {
		monotonic_sleep_until(next - 1000000000ull + (d->sampler.substep + 1) * 100000000ull);
		d->sampler.substep++;
		procs_reap(d, false);
		bool news = d->sampler.phase != PHASE_STOP
				    ? procs_interrupts() || d->failure
				    : d->procs.running != d->sampler.running_told;
		r = cluster_news(news, &lost, keep_time, d);
		if (r < 0)
			rank_silent(d, lost);
		if (r != 0)
			return r;
	}
	d->sampler.substep = 0;
	while (monotonic_ns() < next)	/* the tick itself, signals or not */
		monotonic_sleep_until(next);
	/* Asked once more just before the tick's exchange, so that a rank
	 * that falls silent is named: the exchange cannot tell which. */
	if ((r = cluster_news(false, &lost, keep_time, d)) < 0) {
		rank_silent(d, lost);
		return r;
	}
	return 0;
}

/* Once a second, after the run ended (a time limit is a limit) and with
 * --run-once during the passes too (a pass has none, being held stopped
 * has). */
static void enforce_stop(struct driver *d, uint64_t now)
{
	/* the end the clients were told of: its publication, however late */
	struct run_clock clk = {
		.now = now, .start_ns = d->sampler.start_ns,
		.end_ns = d->sampler.phase == PHASE_STOP ? d->sampler.closed_ns : 0,
	};

	stop_enforce(d, &clk);
}

/* How long before the window's planned opening its devices' reading is
 * taken: more than the parent takes to wake and read them. */
#define DISKS_OPEN_LEAD_NS 5000000ull

/*
 * The devices' reading that opens the execute window after a warmup,
 * taken just before its planned opening and stamped there, when the tick
 * `next` is at or past it.  The clients open the window by their own
 * clocks (ctl.exec_ns); read when the parent wakes for that tick, the
 * devices would miss the writes the clients counted until then (13 of
 * them on a busy machine: "the device wrote -53248 bytes more").  False
 * when a signal woke the parent first (a client's exit, say): the loop
 * looks at it at once, and is back here for the reading after.
 */
static bool disks_open_early(struct driver *d, uint64_t next)
{
	struct sampler *s = &d->sampler;
	uint64_t at;

	if (!s->disks || s->disks_opened || s->phase != PHASE_WARMUP || !s->open_ns ||
	    next < s->open_ns)
		return true;
	at = s->open_ns > DISKS_OPEN_LEAD_NS ? s->open_ns - DISKS_OPEN_LEAD_NS : 0;
	monotonic_sleep_until(at);
	if (monotonic_ns() < at)
		return false;
	blockstat_read(s->disks, s->open_ns);
	s->disks_opened = true;
	return true;
}

/* The sampler: once a second until every client process (and the probes)
 * has exited. */
void sampler_loop(struct driver *d)
{
	uint64_t tick = 0, prev_bytes = 0;
	unsigned interrupts_seen = 0;
	double sample_ms = 0;	/* CPU of the once-a-second work alone */

	d->sampler.running_all = d->procs.running;
	d->sampler.running_told = d->procs.running;
	while (d->sampler.running_all > 0) {
		uint64_t next = d->sampler.start_ns + (tick + 1) * 1000000000ull;
		int news = 0;
		if (together()) {
			news = between_ticks(d, next);
		} else if (disks_open_early(d, next)) {
			monotonic_sleep_until(next);
		}
		uint64_t now = monotonic_ns();
		procs_reap(d, false);		/* an exit's failure is noted here */
		if (now >= next && (d->sampler.phase == PHASE_STOP || d->plan->run_once))
			enforce_stop(d, now);
		double cpu0 = cpu_ms();
		if (now >= next)
			procs_check_slots(d);	/* a failure before exiting, once a second */
		if (procs_interrupts() != interrupts_seen) {
			if (interrupts_seen == 0 && d->sampler.phase == PHASE_STOP)
				d->sampler.late_interrupt = true;
			interrupts_seen = procs_interrupts();
			/* the second signal, while the clients clean up */
			if (d->sampler.phase == PHASE_STOP && interrupts_seen >= 2)
				procs_abandon(d);
			if (!together())
				sampler_stop_now(d);
		}
		if (d->failure && !together())
			sampler_stop_now(d);
		if (news > 0) {		/* every rank, between ticks */
			exchange(d, tick, now, NULL);
			continue;
		}
		if (now < next) {	/* woken early, by a client's exit */
			if (!together()) {	/* a plain run may end now */
				if (d->plan->run_once && d->sampler.phase == PHASE_EXECUTE &&
				    all_passes_done(d)) {
					local_tick(d, tick, &d->sampler.all);
					advance(d, now);
				}
				d->sampler.running_all = d->procs.running;
			}
			/* Exits come in crowds at the end; each waitpid() looks
			 * through all our children, so reap them in batches. */
			uint64_t batch = now + 50000000u;
			while (d->sampler.running_all > 0 && monotonic_ns() < batch &&
			       monotonic_ns() < next && procs_interrupts() == interrupts_seen)
				monotonic_sleep_until(batch < next ? batch : next);
			continue;
		}
		if (exchange(d, tick, now, &prev_bytes))
			prev_bytes = 0;
		tick++;
		stats_set(&d->stats->ctl.tick, tick);
		sample_ms += cpu_ms() - cpu0;
	}
	d->sampler.cpu_ms = tick ? sample_ms / tick : 0;
}

/*
 * Release the clients of every rank together, once every rank's are set
 * up; false (and no release) when a rank failed or was procs_interrupts() in
 * setup.
 */
bool sampler_start_together(struct driver *d, bool ready)
{
	struct cluster_tick mine;
	struct cluster_order order = { .phase = PHASE_STOP };

	local_tick(d, 0, &mine);
	mine.ready = ready;
	mine.setup_s = d->setup_s;
	cluster_tick(&mine, &d->sampler.all);
	if (cluster_rank() == 0) {
		d->setup_s = d->sampler.all.setup_s;	/* the slowest rank's */
		take_remote_failure(d);
		if (d->sampler.all.ready == cluster_size())
			order.phase = PHASE_WARMUP;
	}
	cluster_order(&order);
	cluster_barrier();
	return order.phase == PHASE_WARMUP;
}
