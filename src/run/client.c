/*
 * client.c - the replay loop of a client process (see client.h): pacing,
 * timing each backend call, checking outcomes, recording them, stopping
 * and cleaning up; and the signals and start barrier of every forked
 * process, which the probe process shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "run/client.h"
#include "opclock.h"

/* One client's replay state, private to its process. */
struct client {
	unsigned id;			/* 0-based */
	struct client_slot *slot;
	struct stats_sets sets;		/* its directory's latency histograms */
	struct backend_client *bc;
	size_t pos;			/* next operation */
	uint32_t rep;			/* times ops[pos] has run (REPEAT) */
	uint64_t pass_start_ns;		/* when the current pass began */
	uint64_t paced_bytes;		/* bytes since pacing began, for -R */
	uint64_t pace_start_ns;
	bool finished;			/* --run-once: its pass is done */
	uint64_t rng;			/* xorshift64 state for exponential think time */
};

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;	/* the signal that asked, or 0 */
static pid_t parent_pid;			/* the driver's (client_set_parent()) */

void client_set_parent(pid_t pid)
{
	parent_pid = pid;
}

bool client_parent_gone(void)
{
	return getppid() != parent_pid;
}

void client_close_if_orphaned(const struct run_plan *plan,
			      struct backend_target *const *targets, unsigned n)
{
	if (plan->skip_cleanup || !client_parent_gone())
		return;
	/* Nobody is left to remove DIR/clients; the last one out does
	 * (while another process's directory remains, this fails). */
	for (unsigned d = 0; d < n; d++)
		plan->backend->target_close(targets[d]);
}

static void on_stop_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
	stop_requested = 1;
}

void client_watch_parent(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* a dropped session: stop and clean up */
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGINT, SIG_IGN);	/* the parent handles ^C for everyone */
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (client_parent_gone())	/* it died before the line above */
		stop_requested = 1;
}

static enum phase current_phase(const struct stats_region *r)
{
	if (stop_requested)
		return PHASE_STOP;
	return (enum phase)stats_get(&r->ctl.phase);
}

/* Sleep until `deadline_ns`, waking early if the run stops.  Pacing time
 * is never part of an operation's latency. */
static void sleep_until(const struct stats_region *r, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = monotonic_ns();
		if (now >= deadline_ns || current_phase(r) == PHASE_STOP)
			return;
		uint64_t left = deadline_ns - now;
		if (left > 100000000u)
			left = 100000000u;	/* look at the phase every 100 ms */
		struct timespec ts = { left / 1000000000u, left % 1000000000u };
		nanosleep(&ts, NULL);
	}
}

/* A loadfile timestamp holds an operation back until its time in the
 * pass.  True when the operation has one that counts. */
static bool wait_for_timestamp(const struct run_plan *plan, const struct stats_region *r,
			       const struct client *c, const struct op *op)
{
	if (!(op->flags & OPF_TIMED) || plan->target_rate > 0)
		return false;
	sleep_until(r, c->pass_start_ns + (uint64_t)(op->timestamp * 1e9));
	return true;
}

/* A uniform draw in (0, 1] from the client's own generator. */
static double uniform(struct client *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return ((c->rng >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* --think-time: the pause a networked client makes before each request.
 * True when there is one. */
static bool think(const struct run_plan *plan, const struct stats_region *r, struct client *c)
{
	if (plan->think_us <= 0)
		return false;
	double us = plan->think_exp ? -log(uniform(c)) * plan->think_us : plan->think_us;
	sleep_until(r, monotonic_ns() + (uint64_t)(us * 1000));
	return true;
}

/* -R: after moving bytes, wait until the target rate has caught up. */
static void hold_to_rate(const struct run_plan *plan, const struct stats_region *r,
			 const struct client *c)
{
	if (plan->target_rate > 0) {
		double ns = c->paced_bytes / (plan->target_rate * 1e6) * 1e9;
		/* beyond 2^62 ns (146 years) the conversion would overflow:
		 * that is "until the run stops" */
		sleep_until(r, ns < 0x1p62 ? c->pace_start_ns + (uint64_t)ns : UINT64_MAX);
	}
}

static void record_failure(struct client *c, const struct op *op, int err,
			   const char *detail)
{
	struct client_failure *f = &c->slot->failure;
	f->line = op->line;
	f->op = op->type;
	f->err = err;
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

/* Move client c on to its next operation, ending a pass after the last. */
static void next_op(const struct run_plan *plan, struct client *c)
{
	if (plan->prog->ops[c->pos].repeat > 1 && ++c->rep < plan->prog->ops[c->pos].repeat)
		return;		/* REPEAT: the same operation again */
	c->rep = 0;
	if (++c->pos == plan->prog->nops) {
		plan->backend->pass_end(c->bc);
		uint64_t end = monotonic_ns();
		stats_pass_done(c->slot, c->pass_start_ns, end, plan->show_execute_time);
		c->pos = 0;
		c->pass_start_ns = end;
		c->finished = plan->run_once;
	}
}

/* What the operation bc just failed has to say beyond its errno: --verify's
 * mismatch, else the backend's own account; or NULL. */
static const char *failure_detail(const struct backend *b, struct backend_client *bc)
{
	const char *detail = b->verify ? verify_failure_detail(b->verify(bc)) : NULL;

	if (!detail && b->failure_detail)
		detail = b->failure_detail(bc);
	return detail;
}

/* Run one operation of client c; false when it did not go as the
 * loadfile expected.  An operation the backend cannot express
 * (BACKEND_NOT_SUPPORTED) is counted as such and passed over. */
static bool step(const struct run_plan *plan, struct stats_region *r, struct client *c,
		 enum phase ph)
{
	const struct program *prog = plan->prog;
	const struct op *op = &prog->ops[c->pos];
	const struct op_desc *d = &op_table[op->type];

	uint64_t t0 = opclock_start();
	/* The clock is read again only after a pause, which is not latency. */
	bool paused = wait_for_timestamp(plan, r, c, op);
	paused = think(plan, r, c) || paused;
	if (paused) {
		uint64_t t = opclock_start();
		if (ph == PHASE_EXECUTE)
			stats_add(&c->slot->pause_ns, opclock_ns(t0, t));
		if (current_phase(r) == PHASE_STOP)
			return true;	/* the run ended during the pause */
		t0 = t;
	}
	int (*perform)(struct backend_client *, const struct op *) = plan->backend->op[op->type];
	int err = perform ? perform(c->bc, op) : BACKEND_NOT_SUPPORTED;
	uint64_t t1 = opclock_end();
	prefetch_op(&prog->ops[c->pos + 1 < prog->nops ? c->pos + 1 : 0]);
	if (err == BACKEND_NOT_SUPPORTED) {	/* counted, never a failure */
		stats_record_unsupported(c->slot, ph, op->type);
		next_op(plan, c);
		return true;
	}
	/* A failure with a detail (wrong data) no expected status excuses. */
	const char *detail = err ? failure_detail(plan->backend, c->bc) : NULL;
	bool failed = (!(op->flags & OPF_ANY_STATUS) && (err == 0) != (op->status == NT_OK)) ||
		      detail;
	uint64_t bytes = (d->bytes != BYTES_NONE && err == 0) ? (uint64_t)op->a[1] : 0;

	/* One that ended after the execute window is not counted in it (a
	 * client held stopped across the end would otherwise add work done
	 * after the time limit): the table of the phase after is never
	 * reported. */
	if (ph == PHASE_EXECUTE && current_phase(r) == PHASE_STOP)
		ph = PHASE_STOP;
	stats_record(c->slot, &c->sets, stats_cpu(), ph, op->type, bytes, opclock_ns(t0, t1),
		     failed, stats_get(&r->ctl.tick));
	if (ph == PHASE_WARMUP && current_phase(r) == PHASE_EXECUTE)
		stats_record_straddle(c->slot, op->type, opclock_ns(t0, t1));
	if (plan->bopts.verify && d->bytes != BYTES_NONE && plan->backend->verify) {
		struct verify_tally t = verify_drain(plan->backend->verify(c->bc));
		stats_record_verify(c->slot, ph, &t);
	}
	c->paced_bytes += bytes;
	hold_to_rate(plan, r, c);
	if (failed && (!plan->continue_on_error || detail)) {
		record_failure(c, op, err, detail);
		return false;
	}
	next_op(plan, c);
	return true;
}

/* Take one operation of each unfinished client in turn until told to stop. */
static bool replay(const struct run_plan *plan, struct stats_region *r,
		   struct client *cl, unsigned count)
{
	uint64_t start = monotonic_ns();

	for (unsigned i = 0; i < count; i++) {
		cl[i].pass_start_ns = cl[i].pace_start_ns = start;
		stats_set(&cl[i].slot->state, CLIENT_RUNNING);
	}
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

/* Every client of the process says it has stopped before the first
 * begins removing its files, so that the parent does not take the last
 * of many for one that goes on replaying (procs_enforce_stop()). */
static void clean_up(const struct run_plan *plan, struct stats_region *r, unsigned first,
		     struct client *cl, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		if (stats_get(&r->slot[first + i].state) != CLIENT_FAILED)
			stats_set(&r->slot[first + i].state, CLIENT_CLEANUP);
	for (unsigned i = 0; cl && i < count; i++) {
		if (!cl[i].bc)
			continue;
		plan->backend->pass_end(cl[i].bc);
		if (!plan->skip_cleanup && plan->backend->cleanup(cl[i].bc) == 0)
			stats_set(&cl[i].slot->cleaned, 1);
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
		cl[i].rng = 0x9e3779b97f4a7c15ull * (id + 1);
		cl[i].bc = plan->backend->client_new(mem->each[i], targets[id % plan->ndirs],
						     id + 1, plan->prog, &plan->bopts, &err);
		if (!cl[i].bc) {
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
		client_wait_for_start(start_fd);
		ok = replay(plan, stats, cl, count);
		uint64_t end = monotonic_ns();
		for (unsigned i = 0; i < count; i++)
			stats_set(&cl[i].slot->end_ns, end);
	}
	clean_up(plan, stats, first, cl, count);
	client_close_if_orphaned(plan, targets, plan->ndirs);
	for (unsigned i = 0; ok && i < count; i++)
		stats_set(&cl[i].slot->state, CLIENT_DONE);
	talloc_free(pool);
	return client_exit_status(stats, ok);
}
