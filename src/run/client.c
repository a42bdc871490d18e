/*
 * client.c - the replay loop of a client process (see client.h): pacing,
 * timing each backend call, checking outcomes, recording them, stopping
 * and cleaning up; and the signals and start barrier of every forked
 * process, which the probe process shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "run/client.h"
#include "run/lockwait.h"
#include "run/streams.h"
#include "cluster.h"
#include "hostload.h"
#include "opclock.h"

/* What a thread replaying a client keeps of its own: the client's one
 * lane, or in a recording of several streams, one per stream. */
struct lane {
	uint64_t prev_end_ns;		/* --replay-timing=think: its last call's end */
	uint64_t paced_bytes;		/* bytes since pacing began, for -R */
	uint64_t rng;			/* xorshift64 state for exponential think time */
	pthread_mutex_t *lock;		/* the client's, when lanes share its slot */
	struct lockwait lockwait;	/* in a blocking lock call: its limit (under lock) */
	uint64_t end_ns;		/* several streams: when its calls of the pass
					 * were done */
};

/* One client's replay state, private to its process. */
struct client {
	unsigned id;			/* 0-based */
	struct client_slot *slot;
	struct stats_sets sets;		/* its directory's latency histograms */
	struct backend_client *bc;
	struct verify *verify;		/* --verify: what it wrote where, else NULL */
	size_t pos;			/* next operation */
	uint32_t rep;			/* times position pos has run (REPEAT) */
	uint64_t pass_start_ns;		/* when the current pass began */
	uint64_t pace_start_ns;
	uint64_t start_ns;		/* --stagger: not before then */
	bool finished;			/* --run-once: its pass is done */
	struct lane lane;		/* a single stream's */
	/* a recording of several streams: a thread each */
	struct streams *ss;
	struct lane *lanes;		/* [nlanes] */
	unsigned nlanes;
	pthread_mutex_t lock;		/* the slot's, shared by the lanes */
	bool failed;			/* a lane stopped the run */
	bool unanswered;		/* an operation waited for its server in vain
					 * (ETIMEDOUT): no more calls to it, cleanup
					 * included; the parent tries once */
	uint64_t pass_end_ns;		/* when its last finished pass ended */
	uint64_t wait_from_ns;		/* exact timing, one stream: its thread's
					 * wait for a CPU when it began, */
	bool wait_read;			/* if read */
};

static volatile sig_atomic_t stop_requested;
/* Nonzero while current_phase() must look past ctl.phase: a stop was
 * asked, or a warmup goes on whose end the process keeps by its own
 * clock (ctl.exec_ns); so that the execute phase pays one test of it
 * per look, as it did of stop_requested alone.  Set after
 * stop_requested, by ask_stop(). */
static volatile sig_atomic_t phase_watch;
static volatile sig_atomic_t stop_signal;	/* the signal that asked, or 0 */
static volatile sig_atomic_t window_over;	/* the execute window's planned end
						 * passed, by this process's clock */
static pid_t parent_pid;			/* the driver's (client_set_parent()) */

void client_set_parent(pid_t pid)
{
	parent_pid = pid;
}

bool client_parent_gone(void)
{
	return getppid() != parent_pid;
}

void client_close_if_last(const struct run_plan *plan, struct stats_region *r,
			  struct backend_target *const *targets, unsigned n)
{
	bool last = __atomic_sub_fetch(&r->ctl.procs_left, 1, __ATOMIC_ACQ_REL) == 0;

	/* The last process out closes the targets as the parent would have,
	 * so that a parent killed once its clients are gone leaves nothing
	 * (the parent's own close then finds nothing to do): not under
	 * mpirun, where other ranks' clients may still work beneath
	 * DIR/clients.  An orphan always tries (while another process's
	 * directory remains, that fails). */
	if (plan->skip_cleanup || !(client_parent_gone() || (last && !cluster_mpi())))
		return;
	for (unsigned d = 0; d < n; d++)
		plan->backend->target_close(targets[d]);
}

/* Stop as on the parent's word (from a signal handler too). */
static void ask_stop(void)
{
	stop_requested = 1;
	phase_watch = 1;
}

static void on_stop_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
	ask_stop();
}

void client_watch_parent(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* a dropped session: stop and clean up */
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGINT, SIG_IGN);	/* the parent handles ^C for everyone */
	lockwait_install();
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (client_parent_gone())	/* it died before the line above */
		ask_stop();
}

/* The phase while phase_watch is set: a stop asked, or the warmup's
 * phase by this process's clock, the execute window's from its planned
 * opening (stats_phase_at()) however late the parent says so, so that a
 * parent held stopped or starved of CPU does not stretch the warmup.
 * Once the parent has said the warmup is over there is nothing more to
 * watch but a stop, which the fence makes sure is not lost: one asked
 * after the clear is seen below, or sets phase_watch again itself. */
static enum phase watched_phase(const struct stats_region *r) __attribute__((noinline));
static enum phase watched_phase(const struct stats_region *r)
{
	if (stop_requested)
		return PHASE_STOP;
	enum phase ph = stats_phase_at(r, monotonic_ns());
	if ((enum phase)stats_get(&r->ctl.phase) != PHASE_WARMUP) {
		phase_watch = 0;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (stop_requested)
			phase_watch = 1;
	}
	return ph;
}

static enum phase current_phase(const struct stats_region *r)
{
	if (__builtin_expect(phase_watch, 0))
		return watched_phase(r);
	return (enum phase)stats_get(&r->ctl.phase);
}

/*
 * The execute window ends at its planned end (ctl.end_ns) by the
 * clients' own clocks, even when the parent, held stopped or starved of
 * CPU, publishes the stop late: a stopped parent does not stretch the
 * load.  From then on the process stops as on the parent's word.  True
 * when `now` (CLOCK_MONOTONIC) is past it.
 */
static bool window_ended(const struct stats_region *r, uint64_t now)
{
	if (!stats_window_over(r, now))
		return false;
	window_over = 1;
	ask_stop();
	return true;
}

static bool window_ended_now(const struct stats_region *r) __attribute__((noinline));
static bool window_ended_now(const struct stats_region *r)
{
	return window_ended(r, monotonic_ns());
}

/* Whether an operation of the execute window that ended at reading t1
 * of the operation clock ended after the window: CLOCK_MONOTONIC is
 * looked at only near the end (ctl.look_tc), a load and a test before. */
static inline __attribute__((always_inline)) bool
past_window(const struct stats_region *r, uint64_t t1)
{
	return __builtin_expect(t1 >= stats_get(&r->ctl.look_tc), 0) && window_ended_now(r);
}

/* A process that stopped at the window's planned end by its own clock
 * waits for the parent's word before it cleans up, so that none of its
 * cleanup falls within what the parent reads as the window (the
 * devices' reading that closes it): until the parent publishes the stop,
 * dies, or a signal asks. */
static void wait_for_the_stop(const struct stats_region *r)
{
	long nap = 1000000;

	while (window_over && !stop_signal && stats_get(&r->ctl.phase) != PHASE_STOP &&
	       !client_parent_gone()) {
		struct timespec ts = { 0, nap };
		nanosleep(&ts, NULL);
		nap = nap < 50000000 ? 2 * nap : nap;
	}
}

/* Sleep until `deadline_ns`, waking early if the run stops.  Pacing time
 * is never part of an operation's latency.  The sleep is to the deadline
 * itself (TIMER_ABSTIME): a relative one comes late by whatever passed
 * between reading the clock and going to sleep. */
static void sleep_until(const struct stats_region *r, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = monotonic_ns();
		if (now >= deadline_ns || current_phase(r) == PHASE_STOP || window_ended(r, now))
			return;
		uint64_t wake = deadline_ns, end = stats_get(&r->ctl.end_ns);
		if (end > now && end < wake)
			wake = end;	/* wake at the window's end */
		if (wake - now > 100000000u)
			wake = now + 100000000u;	/* look at the phase every 100 ms */
		monotonic_sleep_until(wake);
	}
}

/*
 * The pauses below are out of line, behind a test the loop makes inline:
 * inlined, their floating-point constants were kept in registers across
 * the loop and loaded again after every backend call (callgrind, one
 * pass of client.txt over null: 313.5 user instructions an operation,
 * 304.9 out of line).
 */

/* A loadfile timestamp holds an operation back until its time in the
 * pass (an operation with OPF_TIMED).  True when it counts. */
static bool wait_for_timestamp(const struct run_plan *plan, const struct stats_region *r,
			       const struct client *c, const struct op *op)
	__attribute__((noinline));
static bool wait_for_timestamp(const struct run_plan *plan, const struct stats_region *r,
			       const struct client *c, const struct op *op)
{
	if (plan->target_rate > 0)
		return false;
	sleep_until(r, c->pass_start_ns + (uint64_t)(op->timestamp * 1e9));
	return true;
}

/* A uniform draw in (0, 1] from the lane's own generator. */
static double uniform(struct lane *l)
{
	l->rng ^= l->rng << 13;
	l->rng ^= l->rng >> 7;
	l->rng ^= l->rng << 17;
	return ((l->rng >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* --think-time (plan->think_us > 0): the pause a networked client makes
 * before each request.  True. */
static bool think(const struct run_plan *plan, const struct stats_region *r, struct lane *l)
	__attribute__((noinline));
static bool think(const struct run_plan *plan, const struct stats_region *r, struct lane *l)
{
	double us = plan->think_exp ? -log(uniform(l)) * plan->think_us : plan->think_us;
	sleep_until(r, monotonic_ns() + (uint64_t)(us * 1000));
	return true;
}

/* -R (plan->target_rate > 0): after moving bytes, wait until the target
 * rate has caught up. */
static void hold_to_rate(const struct run_plan *plan, const struct stats_region *r,
			 const struct client *c, const struct lane *l)
	__attribute__((noinline));
static void hold_to_rate(const struct run_plan *plan, const struct stats_region *r,
			 const struct client *c, const struct lane *l)
{
	double ns = l->paced_bytes / (plan->target_rate * 1e6) * 1e9;
	/* beyond 2^62 ns (146 years) the conversion would overflow: that is
	 * "until the run stops" */
	sleep_until(r, ns < 0x1p62 ? c->pace_start_ns + (uint64_t)ns : UINT64_MAX);
}

static void record_failure(struct client *c, const struct op *op, uint32_t line, int err,
			   const char *detail)
{
	struct client_failure *f = &c->slot->failure;
	f->line = line;
	f->op = op->type;
	f->err = err < 0 ? 0 : err;
	f->expected = op->status;
	snprintf(f->path, sizeof(f->path), "%s", op->path ? op->path : "");
	snprintf(f->detail, sizeof(f->detail), "%s", detail ? detail : "");
	stats_set(&c->slot->state, CLIENT_FAILED);
}

/*
 * A loadfile of any size is read once per pass from one end to the other,
 * and each operation's system calls push the next record out of the cache:
 * ask for it (all the lines it may straddle) as soon as this operation's
 * calls are done, so that it comes in while the outcome is recorded.
 */
static void prefetch_op(const struct op *op)
{
	const char *p = (const char *)op;

	__builtin_prefetch(p);
	__builtin_prefetch(p + sizeof(*op) - 1);
	__builtin_prefetch(p + sizeof(*op) / 2);
}

/* A pass of client c is over, its last operation having ended at `end`;
 * the next is readied unless it was the last.  What the backend does at
 * a pass's end (closing what the loadfile left open) is no part of the
 * pass.  False when that failed (recorded in the slot). */
static bool pass_over_at(const struct run_plan *plan, struct client *c, uint64_t end)
{
	plan->backend->pass_end(c->bc);
	verify_pass_end(c->verify);
	if (plan->show_execute_time)
		stats_pass_keep(c->slot, c->pass_start_ns, end);
	stats_pass_done(c->slot);
	c->pass_end_ns = end;
	c->finished = plan->run_once;
	int err = !c->finished && plan->backend->pass_begin ? plan->backend->pass_begin(c->bc) : 0;
	if (err) {
		struct client_failure *f = &c->slot->failure;
		f->err = err;
		snprintf(f->path, sizeof(f->path), "cannot ready the next pass: %s", strerror(err));
		stats_set(&c->slot->state, CLIENT_FAILED);
		return false;
	}
	c->pass_start_ns = monotonic_ns();	/* the readying is no part of the pass */
	return true;
}

/* pass_over_at() now, the pass's last operation having just returned. */
static bool pass_over(const struct run_plan *plan, struct client *c) __attribute__((noinline));
static bool pass_over(const struct run_plan *plan, struct client *c)
{
	return pass_over_at(plan, c, monotonic_ns());
}

/* Move client c on from op (at its position) to its next operation, ending a pass after the last;
 * false when the next pass could not be readied.  Inlined in the loop and
 * its pass end kept out of line: called, it cost 7 more user instructions
 * an operation (callgrind, client.txt one pass over null). */
static inline __attribute__((always_inline)) bool
next_op(const struct run_plan *plan, struct client *c, const struct op *op)
{
	if (op->repeat > 1 && ++c->rep < op->repeat)
		return true;	/* REPEAT: the same operation again */
	c->rep = 0;
	if (++c->pos < plan->prog->nops)
		return true;
	c->pos = 0;
	return pass_over(plan, c);
}

/* What the operation bc just failed has to say beyond its errno: --verify's
 * mismatch, else the backend's own account; or NULL. */
static const char *failure_detail(const struct backend *b, struct client *c)
{
	const char *detail = verify_failure_detail(c->verify);

	if (!detail && b->failure_detail)
		detail = b->failure_detail(c->bc);
	return detail;
}

/* What an operation's errno says beyond its outcome: true when a stop
 * signal cut its wait on a peer short; a server that never answered
 * (ETIMEDOUT) is noted for the cleanup.  Behind err > 0 in the loop. */
static inline bool cut_short(struct client *c, int err)
{
	if (err == ETIMEDOUT)
		__atomic_store_n(&c->unanswered, true, __ATOMIC_RELAXED);
	return err == EINTR && stop_requested;
}

/* ---- a recording's outcomes and timing ---- */

/* Whether a call of a recording came out otherwise than recorded. */
static bool call_differs(const struct program *prog, const struct op *op, int err)
{
	if (err == BACKEND_SKIPPED)
		return true;
	if (op->flags & OPF_ANY_STATUS)
		return false;
	int64_t r = loadfile_call(prog, op)->result;
	return err != (r < 0 ? (int)-r : 0);
}

/* What a call's difference was, for the failure record. */
static const char *call_difference(char *buf, size_t len, const struct program *prog,
				   const struct op *op, int err)
{
	int64_t r = loadfile_call(prog, op)->result;
	const char *want = r < 0 ? strerrorname_np((int)-r) : NULL;
	char rec[32];

	if (want)
		snprintf(rec, sizeof(rec), "%s", want);
	else
		snprintf(rec, sizeof(rec), "%lld", (long long)r);
	if (err == BACKEND_SKIPPED)
		snprintf(buf, len, "not made: descriptor %d was never opened by the replay",
			 (int)op->fnum);
	else if (err == BACKEND_OTHER_RESULT)
		snprintf(buf, len, "returned another value than the recorded %s", rec);
	else if (err)
		snprintf(buf, len, "%s (%s), recorded %s", strerrorname_np(err) ? strerrorname_np(err)
			 : "?", strerror(err), rec);
	else
		snprintf(buf, len, "succeeded, recorded %s", rec);
	return buf;
}

/* Woken from clock_nanosleep(), a thread ran 15 to 40 us after the time
 * it asked for (medians; 70 to 90 us with the default timer slack of
 * 50 us, client_process_main() sets 1 ns) on the 2-CPU VM of bench/README,
 * "Exact timing".  A recording's call is held to its time closer than
 * that: the sleep ends PACE_SPIN_NS early and the rest is spent watching
 * the clock (0.1 us late in the median for sleeps up to 200 us, 13 us
 * for 2 ms ones, on the same loaded machine), at most that much CPU a
 * held call. */
#define PACE_SPIN_NS 30000

/* Hold a recording's call until `at` (monotonic_ns()'s scale), or until
 * the run stops. */
static void pace_until(const struct stats_region *r, uint64_t at)
{
	sleep_until(r, at - PACE_SPIN_NS);
	while (monotonic_ns() < at && current_phase(r) != PHASE_STOP)
		;
}

/* --replay-timing: hold a call of a recording back to its time.  True
 * when it paused; in exact timing, how late it starts is noted. */
static bool pace_call(const struct run_plan *plan, const struct stats_region *r,
		      struct client *c, struct lane *l, const struct op *op, enum phase ph)
	__attribute__((noinline));
static bool pace_call(const struct run_plan *plan, const struct stats_region *r,
		      struct client *c, struct lane *l, const struct op *op, enum phase ph)
{
	const struct call *call = loadfile_call(plan->prog, op);
	uint64_t at;

	if (plan->replay_timing == REPLAY_ASAP || plan->target_rate > 0)
		return false;
	if (plan->replay_timing == REPLAY_THINK)
		at = l->prev_end_ns + (uint64_t)(call->gap / plan->replay_speed * 1e9);
	else
		at = c->pass_start_ns + (uint64_t)(op->timestamp / plan->replay_speed * 1e9);
	uint64_t now = monotonic_ns();
	if (now >= at) {
		if (plan->replay_timing == REPLAY_EXACT && ph == PHASE_EXECUTE) {
			if (l->lock)
				pthread_mutex_lock(l->lock);
			stats_record_lag(c->slot, now - at);
			if (l->lock)
				pthread_mutex_unlock(l->lock);
		}
		return false;
	}
	pace_until(r, at);
	if (plan->replay_timing == REPLAY_EXACT && ph == PHASE_EXECUTE &&
	    current_phase(r) != PHASE_STOP) {
		if (l->lock)
			pthread_mutex_lock(l->lock);
		stats_record_lag(c->slot, 0);
		if (l->lock)
			pthread_mutex_unlock(l->lock);
	}
	return true;
}

/* Exact timing: a thread's wait for a CPU so far into *ns, read when it
 * begins replaying and when it is done; false when not read.  On a busy
 * machine that wait is what makes the replay late (bench/README, "Exact
 * timing"); the summary and the JSON say how long it was. */
static bool wait_read(const struct run_plan *plan, uint64_t *ns)
{
	return plan->replay_timing == REPLAY_EXACT && hostload_thread_wait_ns(ns);
}

/* The thread that read `from` with wait_read() is done replaying: its
 * wait for a CPU since in *ns; false when not read. */
static bool waited_since(const struct run_plan *plan, uint64_t from, uint64_t *ns)
{
	uint64_t now;

	if (!wait_read(plan, &now))
		return false;
	*ns = now > from ? now - from : 0;
	return true;
}

/* ---- one operation ----
 *
 * A function each: a row of a dbench 4.0 or 5.0 loadfile on a client's
 * one lane (run_row()), a call of a recording of one stream (run_call())
 * and one of a stream among several, whose lanes share the client's
 * slot under its lock (run_stream_call()); each inlined where it runs,
 * so that the loop of a dbench 4.0 loadfile carries nothing of
 * recordings and a lane of its own takes no lock.  What they share is
 * in the pieces they call, none of which is told which of them calls.
 */

/* The first failure of client c that stops the run, in its slot (under
 * the client's lock when its lanes share it): operation op of a dbench
 * 4.0 or 5.0 loadfile, at the client's position (its lanes being one). */
static void stop_on_row(const struct run_plan *plan, struct client *c, const struct op *op,
			int err, const char *detail)
{
	if (c->failed)
		return;
	c->failed = true;
	record_failure(c, op, loadfile_line(plan->prog, c->pos), err, detail);
}

/* stop_on_row() for a call of a recording: its entry is its position
 * (struct program), and without a detail its difference from the
 * recorded outcome is said. */
static void stop_on_call(const struct run_plan *plan, struct client *c, const struct op *op,
			 int err, const char *detail)
{
	char why[VERIFY_DETAIL_MAX];

	if (c->failed)
		return;
	c->failed = true;
	if (!detail)
		detail = call_difference(why, sizeof(why), plan->prog, op, err);
	record_failure(c, op, loadfile_line(plan->prog, (size_t)(op - plan->prog->ops)), err,
		       detail);
}

/* A recording's call not made: one the backend cannot express, or one
 * on a descriptor never opened (BACKEND_SKIPPED), counted as such, not
 * timed (under the client's lock when its lanes share the slot).  False
 * when that stops the run (a call not made, with --strict). */
static bool call_not_made(const struct run_plan *plan, struct client *c, const struct op *op,
			  int err, enum phase ph)
{
	if (err != BACKEND_SKIPPED) {
		stats_record_unsupported(c->slot, ph, op->type);
		return true;
	}
	stats_record_skipped(c->slot, ph, op->type);
	if (plan->strict)
		stop_on_call(plan, c, op, err, NULL);
	return !plan->strict;
}

/* ---- a recording's blocking lock calls ---- */

/* The recorded number of the stream lane l replays. */
static uint32_t lane_stream(const struct program *prog, const struct client *c,
			    const struct lane *l)
{
	size_t s = c->lanes && l != &c->lane ? (size_t)(l - c->lanes) : 0;

	return s < prog->nstreams ? prog->streams[s].id : 0;
}

/* Stop client c's streams: those waiting for another stream return
 * (streams_abort()), and a blocking lock call is cut short at once. */
static void stop_streams(struct client *c)
{
	streams_abort(c->ss);
	pthread_mutex_lock(&c->lock);
	for (unsigned s = 0; s < c->nlanes; s++)
		lockwait_cut(&c->lanes[s].lockwait);
	pthread_mutex_unlock(&c->lock);
}

/* The run fails: lane l's lock call `op` was held --stop-timeout. */
static void stalled_in_lock(const struct run_plan *plan, struct client *c, struct lane *l,
			    const struct op *op)
{
	char why[VERIFY_DETAIL_MAX];

	snprintf(why, sizeof(why), "stream %" PRIu32 " made no progress for %u s (--stop-timeout):"
		 " held in its %s by a lock no other stream let go of",
		 lane_stream(plan->prog, c, l), plan->stop_timeout, op_table[op->type].name);
	if (l->lock)
		pthread_mutex_lock(l->lock);
	stop_on_call(plan, c, op, EINTR, why);
	if (l->lock)
		pthread_mutex_unlock(l->lock);
}

/*
 * A blocking lock call (OPF_LOCKWAIT), held to --stop-timeout: the lock
 * it waits for in the kernel may be one the recording's order did not
 * foresee (a file reached under two names), and then no stream would let
 * go of it.  Its outcome in *err and 1; 0 when the run's stop cut it
 * short (nothing to record); -1 when it was held that long: the run
 * fails.
 */
static int bounded_lock_call(const struct run_plan *plan, const struct stats_region *r,
			     struct client *c, struct lane *l, const struct op *op,
			     int (*perform)(struct backend_client *, const struct op *), int *err)
	__attribute__((noinline));
static int bounded_lock_call(const struct run_plan *plan, const struct stats_region *r,
			     struct client *c, struct lane *l, const struct op *op,
			     int (*perform)(struct backend_client *, const struct op *), int *err)
{
	uint64_t t0 = monotonic_ns();

	if (l->lock)
		pthread_mutex_lock(l->lock);
	lockwait_arm(&l->lockwait, plan->stop_timeout);
	if (l->lock)
		pthread_mutex_unlock(l->lock);
	bool stopped = c->ss && streams_aborted(c->ss);	/* before it was armed */
	*err = stopped ? EINTR : perform(c->bc, op);
	if (l->lock)
		pthread_mutex_lock(l->lock);
	lockwait_disarm(&l->lockwait);
	if (l->lock)
		pthread_mutex_unlock(l->lock);
	if (*err != EINTR)
		return 1;
	if (stopped || (c->ss && streams_aborted(c->ss)) || current_phase(r) == PHASE_STOP)
		return 0;
	if (monotonic_ns() - t0 < plan->stop_timeout * 1000000000ull)
		return 1;	/* another signal's */
	stalled_in_lock(plan, c, l, op);
	return -1;
}

/* After a pause before an operation, which is no part of its latency:
 * *t0 moved past it, and its time added to the client's pauses in the
 * execute window (under the client's lock when its lanes share the
 * slot).  False when the run ended during it. */
static inline __attribute__((always_inline)) bool
resumed(struct stats_region *r, struct client *c, enum phase ph, uint64_t *t0)
{
	uint64_t t = opclock_start();

	if (ph == PHASE_EXECUTE)
		stats_add(&c->slot->pause_ns, opclock_ns(*t0, t));
	*t0 = t;
	return current_phase(r) != PHASE_STOP;
}

/* A recording's call made: a blocking lock call (OPF_LOCKWAIT) held to
 * --stop-timeout, any other made at once.  Its outcome in *err and 1;
 * else bounded_lock_call()'s 0 or -1. */
static inline __attribute__((always_inline)) int
make_call(const struct run_plan *plan, const struct stats_region *r, struct client *c,
	  struct lane *l, const struct op *op, int *err)
{
	int (*perform)(struct backend_client *, const struct op *) = plan->backend->op[op->type];

	if (__builtin_expect(perform && (op->flags & OPF_LOCKWAIT), 0)) {
		int e = 0;	/* its own: *err need not live in memory */
		int made = bounded_lock_call(plan, r, c, l, op, perform, &e);
		*err = e;
		return made;
	}
	*err = perform ? perform(c->bc, op) : BACKEND_NOT_SUPPORTED;
	return 1;
}

/* A client of one lane has made an operation: the next is the client's
 * next, asked for while this one's outcome is recorded. */
static inline __attribute__((always_inline)) void
prefetch_next(const struct run_plan *plan, const struct client *c)
{
	const struct program *prog = plan->prog;

	prefetch_op(loadfile_op(prog, c->pos + 1 < prog->nops ? c->pos + 1 : 0));
}

/* What is recorded of an operation that was made and timed. */
struct outcome {
	const struct op *op;
	enum phase ph;		/* the phase it began in */
	uint64_t t0, t1;	/* the operation clock around its call */
	int err;
	const char *detail;	/* a failure no expected status excuses (wrong
				 * data), or NULL */
	bool failed;
};

/* A failure that --continue-on-error (a recording's replay without
 * --strict) goes on past: a refused file, to which nothing was written,
 * or another status than the row's (a SCSI status with sense data);
 * never wrong data or a connection's end. */
static inline bool hard_failure(const struct outcome *o)
{
	return o->detail && o->err != BACKEND_REFUSED && o->err != BACKEND_OTHER_STATUS;
}

/* Operation o in client c's slot (under the client's lock when its
 * lanes share the slot); the bytes it moved. */
static inline __attribute__((always_inline)) uint64_t
record_op(struct stats_region *r, struct client *c, const struct outcome *o)
{
	const struct op_desc *d = &op_table[o->op->type];
	uint64_t bytes = (d->bytes != BYTES_NONE && o->err == 0) ? (uint64_t)o->op->a[1] : 0;
	enum phase ph = o->ph;

	/* One that ended after the execute window is not counted in it (a
	 * client held stopped across the end would otherwise add work done
	 * after the time limit): the table of the phase after is never
	 * reported. */
	if (ph == PHASE_EXECUTE && (current_phase(r) == PHASE_STOP || past_window(r, o->t1)))
		ph = PHASE_STOP;
	stats_record(c->slot, &c->sets, stats_cpu(), ph, o->op->type, bytes,
		     opclock_ns(o->t0, o->t1), o->failed, stats_get(&r->ctl.tick));
	if (ph == PHASE_WARMUP && current_phase(r) == PHASE_EXECUTE)
		stats_record_straddle(c->slot, o->op->type, opclock_ns(o->t0, o->t1));
	if (c->verify && d->bytes != BYTES_NONE) {
		struct verify_tally t = verify_drain(c->verify);
		stats_record_verify(c->slot, ph, &t);
	}
	return bytes;
}

/* After an operation's record: -R holds the lane to the target rate. */
static inline __attribute__((always_inline)) void
rate_held(const struct run_plan *plan, const struct stats_region *r, const struct client *c,
	  struct lane *l, uint64_t bytes)
{
	l->paced_bytes += bytes;
	if (plan->target_rate > 0)
		hold_to_rate(plan, r, c, l);
}

/*
 * Run operation op of a dbench 4.0 or 5.0 loadfile (the netbench, NFS,
 * SMB, block and SCSI dialects) on client c's one lane: its pacing, the
 * call, its outcome against the row's expected status, and its record.
 * False when it did not go as the loadfile expected and that stops the
 * run.  An operation the backend cannot express (BACKEND_NOT_SUPPORTED)
 * is counted as such and passed over.
 */
static inline __attribute__((always_inline)) bool
run_row(const struct run_plan *plan, struct stats_region *r, struct client *c,
	const struct op *op, enum phase ph)
{
	struct lane *l = &c->lane;
	struct outcome o = { .op = op, .ph = ph, .t0 = opclock_start() };

	bool paused = (op->flags & OPF_TIMED) && wait_for_timestamp(plan, r, c, op);
	if (plan->think_us > 0)
		paused = think(plan, r, l) || paused;
	if (paused && !resumed(r, c, ph, &o.t0))
		return true;	/* the run ended during the pause */
	int (*perform)(struct backend_client *, const struct op *) = plan->backend->op[op->type];
	o.err = perform ? perform(c->bc, op) : BACKEND_NOT_SUPPORTED;
	o.t1 = opclock_end();
	prefetch_next(plan, c);
	if (__builtin_expect(o.err == BACKEND_NOT_SUPPORTED, 0)) {
		stats_record_unsupported(c->slot, ph, op->type);	/* counted, not timed */
		return true;
	}
	if (o.err > 0 && cut_short(c, o.err))
		return true;	/* a wait on a peer, cut short by a stop signal */
	if (__builtin_expect(c->verify != NULL, 0))
		verify_after(c->verify, op, o.err);
	o.detail = o.err > 0 ? failure_detail(plan->backend, c) : NULL;
	o.failed = (!(op->flags & OPF_ANY_STATUS) && (o.err == 0) != (op->status == NT_OK)) ||
		   o.detail;
	uint64_t bytes = record_op(r, c, &o);
	bool stop = o.failed && (!plan->continue_on_error || hard_failure(&o));
	if (__builtin_expect(stop, 0))
		stop_on_row(plan, c, op, o.err, o.detail);
	rate_held(plan, r, c, l, bytes);
	return !stop;
}

/* Operation op of a recording made on lane l, up to its outcome: its
 * pacing and the call.  False when there is nothing to record (the run
 * ended during a pause or a lock call, or the call is untimed), with
 * *go what the lane's run returns (false when the run fails). */
static inline __attribute__((always_inline)) bool
call_made(const struct run_plan *plan, struct stats_region *r, struct client *c, struct lane *l,
	  struct outcome *o, bool *go)
{
	const struct op *op = o->op;

	*go = true;
	bool paused = plan->replay_timing != REPLAY_ASAP && pace_call(plan, r, c, l, op, o->ph);
	if (plan->think_us > 0)
		paused = think(plan, r, l) || paused;
	if (paused) {
		if (l->lock)
			pthread_mutex_lock(l->lock);
		bool on = resumed(r, c, o->ph, &o->t0);
		if (l->lock)
			pthread_mutex_unlock(l->lock);
		if (!on)
			return false;	/* the run ended during the pause */
	}
	int made = make_call(plan, r, c, l, op, &o->err);
	if (made <= 0) {
		*go = made == 0;	/* cut short by the run's stop, or held too long */
		return false;
	}
	o->t1 = opclock_end();
	return true;
}

/* After a recording's call returned: --replay-timing=think's next gap
 * counts from here.  False for a call performed but not counted (a
 * thread, fork or exec row). */
static inline __attribute__((always_inline)) bool
call_counted(const struct run_plan *plan, struct lane *l, const struct outcome *o)
{
	if (plan->replay_timing == REPLAY_THINK)
		l->prev_end_ns = monotonic_ns();
	return !op_is_untimed(o->op->type);
}

/* Whether a recording's call was not made (call_not_made()). */
static inline bool call_skipped(int err)
{
	return __builtin_expect(err == BACKEND_NOT_SUPPORTED || err == BACKEND_SKIPPED, 0);
}

/* Call o judged against its recording: a failure with a detail (wrong
 * data) is one whatever was recorded. */
static inline __attribute__((always_inline)) void
call_judged(const struct run_plan *plan, struct client *c, struct outcome *o)
{
	o->detail = o->err > 0 ? failure_detail(plan->backend, c) : NULL;
	o->failed = call_differs(plan->prog, o->op, o->err) || o->detail;
}

/* Call o recorded (under the client's lock when its lanes share the
 * slot), the bytes it moved in *bytes; false when it stops the run (a
 * difference does only with --strict). */
static inline __attribute__((always_inline)) bool
call_recorded(const struct run_plan *plan, struct stats_region *r, struct client *c,
	      const struct outcome *o, uint64_t *bytes)
{
	*bytes = record_op(r, c, o);
	bool stop = o->failed && (plan->strict || hard_failure(o));
	if (__builtin_expect(stop, 0))
		stop_on_call(plan, c, o->op, o->err, o->detail);
	return !stop;
}

/*
 * Run call op of a recording of one stream on client c's one lane: its
 * pacing, the call, its outcome against the recorded one, and its
 * record.  False when that stops the run (with --strict, or a hard
 * failure).  A call the backend cannot express, or one on a descriptor
 * never opened, is counted as such and passed over (call_not_made()); a
 * thread, fork or exec row is performed but not counted.
 */
static inline __attribute__((always_inline)) bool
run_call(const struct run_plan *plan, struct stats_region *r, struct client *c,
	 const struct op *op, enum phase ph)
{
	struct lane *l = &c->lane;
	struct outcome o = { .op = op, .ph = ph, .t0 = opclock_start() };
	uint64_t bytes;
	bool go;

	if (!call_made(plan, r, c, l, &o, &go))
		return go;
	prefetch_next(plan, c);
	if (!call_counted(plan, l, &o))
		return true;
	if (call_skipped(o.err))
		return call_not_made(plan, c, op, o.err, ph);
	if (o.err > 0 && cut_short(c, o.err))
		return true;	/* a wait on a peer, cut short by a stop signal */
	call_judged(plan, c, &o);
	go = call_recorded(plan, r, c, &o, &bytes);
	rate_held(plan, r, c, l, bytes);
	return go;
}

/* run_call() for call op of stream lane l of a recording of several,
 * whose lanes share the client's slot under its lock. */
static inline __attribute__((always_inline)) bool
run_stream_call(const struct run_plan *plan, struct stats_region *r,
		struct client *c, struct lane *l, const struct op *op, enum phase ph)
{
	struct outcome o = { .op = op, .ph = ph, .t0 = opclock_start() };
	uint64_t bytes;
	bool go;

	if (!call_made(plan, r, c, l, &o, &go))
		return go;
	if (!call_counted(plan, l, &o))
		return true;
	if (call_skipped(o.err)) {
		pthread_mutex_lock(l->lock);
		go = call_not_made(plan, c, op, o.err, ph);
		pthread_mutex_unlock(l->lock);
		return go;
	}
	if (o.err > 0 && cut_short(c, o.err))
		return true;	/* a wait on a peer, cut short by a stop signal */
	call_judged(plan, c, &o);
	pthread_mutex_lock(l->lock);
	go = call_recorded(plan, r, c, &o, &bytes);
	pthread_mutex_unlock(l->lock);
	rate_held(plan, r, c, l, bytes);
	return go;
}

/* Run client c's next row of a dbench 4.0 or 5.0 loadfile and move on;
 * false when that stops the run. */
static inline __attribute__((always_inline)) bool
step_row(const struct run_plan *plan, struct stats_region *r, struct client *c, enum phase ph)
{
	const struct op *op = loadfile_op(plan->prog, c->pos);

	return run_row(plan, r, c, op, ph) && next_op(plan, c, op);
}

/* step_row() for a recording of one stream. */
static inline __attribute__((always_inline)) bool
step_call(const struct run_plan *plan, struct stats_region *r, struct client *c, enum phase ph)
{
	const struct op *op = loadfile_op(plan->prog, c->pos);

	return run_call(plan, r, c, op, ph) && next_op(plan, c, op);
}

/* The step of one client in a round: step_row() or step_call(). */
typedef bool step_fn(const struct run_plan *plan, struct stats_region *r, struct client *c,
		     enum phase ph);

/* ---- a recording of several streams ---- */

struct lane_run {
	const struct run_plan *plan;
	struct stats_region *r;
	struct client *c;
};

/* The run fails: stream s, about to make `op`, found its streams
 * waiting on each other in a circle (a guard: the compiler refuses
 * one): the line of each call waited for. */
static void stalled_in_wait(struct lane_run *lr, unsigned s, const struct op *op)
{
	const struct program *prog = lr->plan->prog;
	char why[VERIFY_DETAIL_MAX];
	unsigned n, from = s;
	const struct call_dep *circle = streams_stall(lr->c->ss, &n);
	int o = snprintf(why, sizeof(why), "stream %" PRIu32 " made no progress for %u s "
			 "(--stop-timeout): ", prog->streams[s].id, lr->plan->stop_timeout);

	for (unsigned k = 0; k < n && o > 0 && (size_t)o < sizeof(why); k++) {
		const struct stream *to = &prog->streams[circle[k].stream];
		uint32_t seq = circle[k].seq <= to->nops ? circle[k].seq : to->nops;
		o += snprintf(why + o, sizeof(why) - o, "%sstream %" PRIu32 " waits for stream %"
			      PRIu32 "'s line %" PRIu32, k ? ", " : "", prog->streams[from].id, to->id,
			      seq ? loadfile_line(prog, to->ops[seq - 1]) : 0);
		from = circle[k].stream;
	}
	pthread_mutex_lock(&lr->c->lock);
	stop_on_call(lr->plan, lr->c, op, 0, why);
	pthread_mutex_unlock(&lr->c->lock);
}

/* One stream's calls of the pass, in order, each after those it waits
 * for. */
static void run_stream(void *arg, unsigned s)
{
	struct lane_run *lr = arg;
	const struct program *prog = lr->plan->prog;
	const struct stream *st = &prog->streams[s];
	struct lane *l = &lr->c->lanes[s];
	uint64_t wait_from;
	bool waits = wait_read(lr->plan, &wait_from);

	l->prev_end_ns = lr->c->pass_start_ns;
	for (uint32_t i = 0; i < st->nops; i++) {
		const struct op *op = loadfile_op(prog, st->ops[i]);
		const struct call *call = loadfile_call(prog, op);
		enum phase ph = current_phase(lr->r);
		if (ph == PHASE_STOP)
			break;
		enum streams_wait w = streams_wait(lr->c->ss, s, &prog->deps[call->dep],
						   call->ndeps);
		if (w == STREAMS_STALLED)
			stalled_in_wait(lr, s, op);
		if (w != STREAMS_GO) {
			stop_streams(lr->c);
			break;
		}
		if (i == 0 && s > 0)	/* think: its gap counts from its start */
			l->prev_end_ns = monotonic_ns();
		if (!run_stream_call(lr->plan, lr->r, lr->c, l, op, ph)) {
			stop_streams(lr->c);
			break;
		}
		streams_done(lr->c->ss, s, i + 1);
	}
	l->end_ns = monotonic_ns();
	uint64_t waited;
	if (waits && waited_since(lr->plan, wait_from, &waited)) {
		pthread_mutex_lock(&lr->c->lock);	/* the lanes share the slot */
		stats_record_wait(lr->c->slot, waited);
		pthread_mutex_unlock(&lr->c->lock);
	}
	if (current_phase(lr->r) == PHASE_STOP)
		stop_streams(lr->c);
}

/* Whether the run has ended (streams_set_stop()): `r` is the stats
 * region. */
static bool run_stopped(void *r)
{
	return current_phase(r) == PHASE_STOP;
}

/* Client c's passes of a recording of several streams; false when it
 * stopped the run. */
static bool replay_streams(const struct run_plan *plan, struct stats_region *r,
			   struct client *c)
{
	struct lane_run lr = { plan, r, c };

	if (c->start_ns > monotonic_ns())	/* --stagger */
		sleep_until(r, c->start_ns);
	c->pass_start_ns = monotonic_ns();
	streams_set_stop(c->ss, run_stopped, r);
	while (current_phase(r) != PHASE_STOP) {
		if (!streams_run(c->ss, run_stream, &lr)) {
			struct client_failure *f = &c->slot->failure;
			f->err = errno;
			f->op = OP_SYS_THREAD;	/* the errno and its limits are said */
			snprintf(f->path, sizeof(f->path), "cannot start the recording's %u threads",
				 plan->prog->nstreams - 1);
			stats_set(&c->slot->state, CLIENT_FAILED);
			return false;
		}
		if (c->failed)
			return false;
		if (streams_aborted(c->ss))
			return true;	/* stopped within the pass */
		/* it ended with the last of its streams, not when they were
		 * all joined */
		uint64_t end = 0;
		for (unsigned s = 0; s < plan->prog->nstreams; s++)
			end = c->lanes[s].end_ns > end ? c->lanes[s].end_ns : end;
		if (!pass_over_at(plan, c, end))
			return false;
		if (c->finished)
			return true;
	}
	return true;
}

static void *client_thread(void *arg)
{
	struct lane_run *lr = arg;

	return replay_streams(lr->plan, lr->r, lr->c) ? NULL : (void *)1;
}

/* Each client of the process on a thread of its own (the first on this
 * one), each running its streams' threads.  Out of line: its arrays of
 * `count` would make the loop of every other loadfile keep a frame
 * pointer, a register fewer for it. */
static bool replay_all_streams(const struct run_plan *plan, struct stats_region *r,
			       struct client *cl, unsigned count) __attribute__((noinline));
static bool replay_all_streams(const struct run_plan *plan, struct stats_region *r,
			       struct client *cl, unsigned count)
{
	struct lane_run lr[count];
	pthread_t th[count];
	bool started[count], ok = true;

	for (unsigned i = 0; i < count; i++) {
		lr[i] = (struct lane_run){ plan, r, &cl[i] };
		started[i] = i > 0 && pthread_create(&th[i], NULL, client_thread, &lr[i]) == 0;
		if (i > 0 && !started[i])
			ok = replay_streams(plan, r, &cl[i]) && ok;
	}
	ok = replay_streams(plan, r, &cl[0]) && ok;
	for (unsigned i = 1; i < count; i++) {
		void *ret = NULL;
		if (started[i] && pthread_join(th[i], &ret) == 0 && ret)
			ok = false;
	}
	return ok;
}

/* One operation of each unfinished client in turn until told to stop,
 * each by `step`; inlined once for recordings and once for the other
 * dialects, the step with it. */
static inline __attribute__((always_inline)) bool
rounds(const struct run_plan *plan, struct stats_region *r, struct client *cl, unsigned count,
       step_fn *step)
{
	for (unsigned left = count; left > 0;) {
		left = 0;
		for (unsigned i = 0; i < count; i++) {
			if (cl[i].finished)
				continue;
			/* looked at before each operation: with many clients in
			 * a process, a round can outlast the time limit */
			enum phase ph = current_phase(r);
			if (ph == PHASE_STOP)
				return true;
			if (!step(plan, r, &cl[i], ph))
				return false;
			left += !cl[i].finished;
		}
	}
	return true;
}

/* rounds() with --stagger: a client is passed over until its start. */
static inline __attribute__((always_inline)) bool
replay_staggered(const struct run_plan *plan, struct stats_region *r, struct client *cl,
		 unsigned count, step_fn *step)
{
	for (unsigned left = count; left > 0;) {
		uint64_t now = monotonic_ns(), next = UINT64_MAX;
		left = 0;
		for (unsigned i = 0; i < count; i++) {
			if (cl[i].finished)
				continue;
			left++;
			if (cl[i].start_ns > now) {
				next = cl[i].start_ns < next ? cl[i].start_ns : next;
				continue;
			}
			enum phase ph = current_phase(r);
			if (ph == PHASE_STOP)
				return true;
			if (!step(plan, r, &cl[i], ph))
				return false;
			left -= cl[i].finished;
			next = 0;
		}
		if (next != UINT64_MAX && next != 0)
			sleep_until(r, next);
		if (current_phase(r) == PHASE_STOP)
			return true;
	}
	return true;
}

/* Take one operation of each unfinished client in turn until told to stop. */
static bool replay(const struct run_plan *plan, struct stats_region *r,
		   struct client *cl, unsigned count)
{
	uint64_t start = monotonic_ns();

	if (stats_get(&r->ctl.exec_ns))		/* a warmup, ended by our clock */
		phase_watch = 1;
	for (unsigned i = 0; i < count; i++) {
		cl[i].start_ns = start + (uint64_t)(plan->stagger_s * 1e9 * cl[i].id /
						    (plan->nclients ? plan->nclients : 1));
		cl[i].pass_start_ns = cl[i].pace_start_ns = cl[i].lane.prev_end_ns = cl[i].start_ns;
		stats_set(&cl[i].slot->state, CLIENT_RUNNING);
	}
	if (plan->prog->nstreams > 1)
		return replay_all_streams(plan, r, cl, count);
	if (plan->stagger_s > 0)
		return plan->prog->calls ? replay_staggered(plan, r, cl, count, step_call)
					 : replay_staggered(plan, r, cl, count, step_row);
	return plan->prog->calls ? rounds(plan, r, cl, count, step_call)
				 : rounds(plan, r, cl, count, step_row);
}

/* Every client of the process says it has stopped before the first
 * begins removing its files, so that the parent does not take the last
 * of many for one that goes on replaying (stop_enforce()). */
static void clean_up(const struct run_plan *plan, struct stats_region *r, unsigned first,
		     struct client *cl, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		if (stats_get(&r->slot[first + i].state) != CLIENT_FAILED)
			stats_set(&r->slot[first + i].state, CLIENT_CLEANUP);
	for (unsigned i = 0; cl && i < count; i++) {
		if (!cl[i].bc || cl[i].unanswered)
			continue;
		plan->backend->pass_end(cl[i].bc);
		verify_pass_end(cl[i].verify);
		if (!plan->skip_cleanup &&
		    (!plan->backend->cleanup || plan->backend->cleanup(cl[i].bc) == 0))
			stats_set(&cl[i].slot->cleaned, 1);
		if (!plan->skip_cleanup)
			verify_cleanup(cl[i].verify);
	}
}

bool client_stop_requested(void)
{
	return stop_requested;
}

int client_exit_status(const struct stats_region *r, bool ok)
{
	if (stop_signal && stats_get(&r->ctl.phase) != PHASE_STOP)
		return 128 + stop_signal;	/* stopped before the parent said so */
	return ok ? 0 : 1;
}

void client_wait_for_start(int start_fd)
{
	char b;
	while (read(start_fd, &b, 1) < 0 && errno == EINTR && !stop_requested)
		;
}

/*
 * A client process's memory: `shared` holds the array of its clients,
 * and each client has a talloc pool of its own, so that no one pool
 * comes near talloc's limit on a single allocation (256 MiB: about 6500
 * clients of the built-in loadfile).  A talloc object, the parent of all,
 * and itself a pool that holds them all, up to CLIENT_MEM_BLOCK: one
 * block of the parent's heap rather than one per piece, wherever malloc
 * found room for each, so that the few KB a client process writes at
 * the start of each piece cover as few pages as they can.  Pools beyond
 * the block (a process of many clients) are blocks of their own.
 */
struct client_mem {
	TALLOC_CTX *shared;
	TALLOC_CTX **each;
	unsigned count;
};

#define CLIENT_MEM_BLOCK (64u << 20)

TALLOC_CTX *client_pool(const struct run_plan *plan, unsigned count)
{
	const struct backend *b = plan->backend;
	size_t each = BACKEND_ALLOC_OVERHEAD +
		      (b->client_mem ? b->client_mem(plan->prog, &plan->bopts) : 0);

	if (count > plan->nclients)
		count = plan->nclients;	/* no process runs more clients than there are */
	size_t shared = BACKEND_ALLOC_OVERHEAD + count * sizeof(struct client);
	size_t all = (2 + (size_t)count) * BACKEND_ALLOC_OVERHEAD + shared +
		     count * (sizeof(TALLOC_CTX *) + each);
	struct client_mem *m = talloc_pooled_object(NULL, struct client_mem, 2 + count,
						    all < CLIENT_MEM_BLOCK ? all : CLIENT_MEM_BLOCK);
	if (m == NULL)
		return NULL;
	*m = (struct client_mem){ .count = count };
	m->shared = talloc_pool(m, shared);
	m->each = talloc_array(m, TALLOC_CTX *, count);
	bool ok = m->shared && m->each;
	for (unsigned i = 0; ok && i < count; i++)
		ok = (m->each[i] = talloc_pool(m, each)) != NULL;
	if (!ok)
		TALLOC_FREE(m);
	return m;
}

/* A recording of several streams: a lane each, sharing the slot under
 * the client's lock, and their threads' waits. */
static bool client_streams(const struct run_plan *plan, struct client *c, TALLOC_CTX *mem)
{
	unsigned n = plan->prog->nstreams;

	c->ss = streams_new(mem, n);
	c->lanes = talloc_zero_array(mem, struct lane, n);
	c->nlanes = n;
	if (!c->ss || !c->lanes || pthread_mutex_init(&c->lock, NULL) != 0)
		return false;
	streams_set_stall(c->ss, plan->stop_timeout * 1000000000ull);
	for (unsigned s = 0; s < n; s++)
		c->lanes[s] = (struct lane){ .rng = c->lane.rng ^ (0xbf58476d1ce4e5b9ull * (s + 1)),
					     .lock = &c->lock };
	return true;
}

/* Client c's backend state on ctx, with its --verify state when the run
 * verifies data, its first pass readied; NULL and *err when either
 * cannot be made, the state and *err when the pass cannot be. */
static struct backend_client *client_open(TALLOC_CTX *ctx, const struct run_plan *plan,
					  struct client *c, struct backend_target *t, char **err)
{
	const struct program *prog = plan->prog;

	if (plan->bopts.verify && plan->backend->verifies &&
	    !(c->verify = verify_new(ctx, c->id + 1, prog->max_handles, prog->npaths))) {
		*err = talloc_asprintf(ctx, "client %u: out of memory", c->id + 1);
		errno = ENOMEM;
		return NULL;
	}
	struct backend_client *bc = plan->backend->client_new(ctx, t, c->id + 1, prog,
							      &plan->bopts, c->verify, err);
	/* the first pass readied as every later one is (a recording's
	 * initial state): client_new() makes nothing of it, so that the
	 * parent, removing what a client that died left, never does */
	int e = bc && plan->backend->pass_begin ? plan->backend->pass_begin(bc) : 0;
	if (e) {	/* bc is kept: its cleanup removes what was made */
		*err = talloc_asprintf(ctx, "cannot make the initial state: %s", strerror(e));
		errno = e;
	}
	return bc;
}

/* The replay of the process's clients begins: paced to a recording, its
 * threads' sleeps end when asked, not up to the default 50 us after (see
 * pace_until()); one stream's thread in exact timing reads its wait for
 * a CPU.  This and replay_ends() are out of line: written in
 * client_process_main(), where the replay's loop is inlined, they cost
 * that loop 8 user instructions an operation of client.txt (callgrind,
 * null backend). */
static void replay_begins(const struct run_plan *plan, struct client *cl)
	__attribute__((noinline));
static void replay_begins(const struct run_plan *plan, struct client *cl)
{
	if (plan->prog->calls && plan->replay_timing != REPLAY_ASAP)
		prctl(PR_SET_TIMERSLACK, 1ul);
	if (plan->prog->calls && plan->prog->nstreams <= 1)
		cl->wait_read = wait_read(plan, &cl->wait_from_ns);
}

/* The replay is over: when each client stopped replaying (with
 * --run-once, its pass's end), and the thread's wait, which stands for
 * all the process's clients, in the first one's slot. */
static void replay_ends(const struct run_plan *plan, struct client *cl, unsigned count)
	__attribute__((noinline));
static void replay_ends(const struct run_plan *plan, struct client *cl, unsigned count)
{
	uint64_t end = monotonic_ns();

	for (unsigned i = 0; i < count; i++)
		stats_set(&cl[i].slot->end_ns, cl[i].finished ? cl[i].pass_end_ns : end);
	uint64_t waited;
	if (cl->wait_read && waited_since(plan, cl->wait_from_ns, &waited))
		stats_record_wait(cl->slot, waited);
}

int client_process_main(TALLOC_CTX *pool, const struct run_plan *plan,
			struct stats_region *stats, unsigned first, unsigned count,
			struct backend_target *const *targets, int start_fd)
{
	struct client_mem *mem = talloc_get_type_abort(pool, struct client_mem);
	struct client *cl = count <= mem->count ? talloc_zero_array(mem->shared, struct client, count)
						: NULL;
	bool ok = cl != NULL;

	client_watch_parent();
	for (unsigned i = 0; ok && i < count; i++) {
		char *err = NULL;
		unsigned id = first + i;
		cl[i].id = id;
		cl[i].slot = &stats->slot[id];
		cl[i].sets = stats_sets_of(stats, id);
		cl[i].lane.rng = 0x9e3779b97f4a7c15ull * (id + 1);
		if (plan->prog->nstreams > 1 && !client_streams(plan, &cl[i], mem->each[i]))
			err = "out of memory for the recording's streams";
		else
			cl[i].bc = client_open(mem->each[i], plan, &cl[i], targets[id % plan->ndirs],
					       &err);
		if ((!cl[i].bc || err) && stop_requested) {
			ok = false;	/* a stop signal cut its setup short */
		} else if (!cl[i].bc || err) {	/* err: its first pass not readied */
			struct client_failure *f = &cl[i].slot->failure;
			f->err = errno ? errno : EIO;
			snprintf(f->path, sizeof(f->path), "%s", err ? err : "setup failed");
			stats_set(&cl[i].slot->state, CLIENT_FAILED);
			ok = false;
		} else {
			stats_set(&cl[i].slot->state, CLIENT_READY);
		}
	}
	if (ok) {
		replay_begins(plan, cl);
		client_wait_for_start(start_fd);
		ok = replay(plan, stats, cl, count);
		replay_ends(plan, cl, count);
		wait_for_the_stop(stats);
	}
	clean_up(plan, stats, first, cl, count);
	client_close_if_last(plan, stats, targets, plan->ndirs);
	for (unsigned i = 0; ok && i < count; i++)
		stats_set(&cl[i].slot->state, CLIENT_DONE);
	for (unsigned i = 0; cl && i < count; i++)
		if (cl[i].lanes)
			pthread_mutex_destroy(&cl[i].lock);
	talloc_free(pool);
	return client_exit_status(stats, ok);
}
