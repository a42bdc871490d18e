/*
 * driver.c - one run from start to finish (see driver.h): target
 * directories, forking (the clients, and the --probe process beside them),
 * the start barrier, the once-a-second sampler and its phase changes,
 * failure and signal handling, reaping, the removal of DIR/clients, and
 * the final report.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/client.h"
#include "run/cluster.h"
#include "run/driver.h"
#include "report/env.h"
#include "base/opclock.h"
#include "run/probe.h"
#include "report/report.h"
#include "report/result.h"
#include "stats/stats.h"

struct driver {
	const struct run_plan *plan;
	TALLOC_CTX *ctx;
	struct stats_region *stats;
	struct backend_target **targets;	/* each of plan->dirs, opened */
	unsigned nprocs;
	pid_t *pids;		/* 0 once reaped */
	struct proc_pid *by_pid;	/* the client processes sorted by pid */
	pid_t probe_pid;	/* the --probe process; 0 without one or once reaped */
	unsigned running;	/* processes not yet reaped, the probe's included */
	int start_pipe[2];
	uint64_t start_ns;	/* clients released */
	uint64_t phase_ns;	/* current phase began */
	uint64_t exec_ns;	/* execute window began */
	uint64_t end_ns;	/* execute window ended */
	enum phase phase;
	struct run_failure *failure;	/* first failure seen, or NULL */
	FILE *text;			/* where human-readable output goes */
	struct timeline_point *timeline;	/* one point per execute second */
	size_t ntimeline;
	uint64_t last_bytes, last_ops;	/* execute figures at the last point */
	uint64_t last_ns;		/* when they were taken */
	bool abandoned;			/* clients were killed by a second SIGINT */
	bool in_child;			/* this is a client process, returning */
	double setup_s;			/* fork to all clients ready */
	double sampler_cpu_ms;		/* parent CPU per sample */
	bool sampler_realtime;		/* the parent ran at a real-time priority */
	int child_status;		/* its exit status */
	struct cluster_tick all;	/* every rank's figures at the last tick
					 * (rank 0; elsewhere only this rank's) */
	uint64_t running_all;		/* client processes left on every rank */
	struct progress shown;		/* the last progress line shown */
	uint64_t *passes_seen;		/* --show-execute-time: per client, passes taken */
	struct pass_time *passes;	/* ... and those passes */
	size_t npasses;
	uint64_t passes_lost;
};

/* A client process's pid and its index in driver.pids, for finding the
 * process an exit belongs to among thousands at once. */
struct proc_pid {
	pid_t pid;
	unsigned p;
};

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t interrupt_signal;	/* the first: SIGINT or SIGTERM */
static bool is_client;				/* this process is a client */

bool driver_is_client(void)
{
	return is_client;
}

static void on_interrupt(int sig)
{
	if (!interrupted)
		interrupt_signal = sig;
	interrupted++;
}

static void on_child(int sig)
{
	(void)sig;	/* only here to cut a sleep short */
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };	/* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int close_stream(FILE **f)
{
	fclose(*f);
	return 0;
}

/*
 * Open each target (plan->dirs) through the backend, which checks it and
 * makes its clients directory; the first that cannot be used stops the
 * run before anything is forked.
 */
static bool prepare_targets(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	d->targets = talloc_zero_array(d->ctx, struct backend_target *, plan->ndirs);
	for (unsigned i = 0; d->targets && i < plan->ndirs; i++) {
		char *err = NULL;
		d->targets[i] = plan->backend->target_open(d->ctx, plan->dirs[i], &plan->bopts,
							   &err);
		if (!d->targets[i]) {
			fprintf(stderr, "dbench: %s\n", err ? err : "out of memory");
			return false;
		}
	}
	return d->targets != NULL;
}

/* What the backend says of each target for the environment record, or
 * NULL when it says nothing (local directories: env looks at the mount). */
static json_t **describe_targets(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	json_t **facts;

	if (!plan->backend->target_describe ||
	    !(facts = talloc_zero_array(d->ctx, json_t *, plan->ndirs)))
		return NULL;
	for (unsigned i = 0; i < plan->ndirs; i++)
		facts[i] = plan->backend->target_describe(d->targets[i]);
	return facts;
}

/* The descriptor of the first target's clients directory, where a bare
 * --probe makes its directory; -1 when the target is not local (main has
 * refused a bare --probe then). */
static int probe_clients_fd(const struct driver *d)
{
	const struct backend *b = d->plan->backend;

	return b->local_clients_fd ? b->local_clients_fd(d->targets[0]) : -1;
}

/* Remove what clients that died (or were killed by a second SIGINT) left
 * behind: the backend's own cleanup, run from the parent. */
static void clean_leftovers(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	for (unsigned i = 0; i < plan->nclients; i++) {
		if (stats_get(&d->stats->slot[i].cleaned))
			continue;
		TALLOC_CTX *tmp = talloc_new(d->ctx);
		char *err = NULL;
		struct backend_client *bc = plan->backend->client_new(
			tmp, d->targets[i % plan->ndirs], i + 1, plan->prog,
			&plan->bopts, &err);
		if (bc && plan->backend->cleanup(bc) != 0)
			fprintf(stderr, "dbench: files of client %u are left in %s/clients\n",
				i + 1, plan->dirs[i % plan->ndirs]);
		talloc_free(tmp);
	}
	if (plan->probe && !plan->probe_dir && !stats_get(&d->stats->probe.cleaned) &&
	    (probe_clients_fd(d) >= 0 ? probe_remove_directory(probe_clients_fd(d))
				      : probe_remove_remote(plan->backend, d->targets[0])) != 0)
		fprintf(stderr, "dbench: files of the probe are left in %s\n",
			probe_directory(d->ctx, plan));
}

/* Remove DIR/clients where the clients left it empty. */
static void remove_clients_dirs(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->ndirs; i++) {
		int err = d->plan->backend->target_close(d->targets[i]);
		if (err)
			fprintf(stderr, "dbench: cannot remove '%s/clients': %s\n",
				d->plan->dirs[i], strerror(err));
	}
}

/* "DIR/clients/clientN/PATH" for messages. */
static const char *client_path(struct driver *d, unsigned id, const char *path)
{
	char name[48];

	backend_client_name(name, sizeof(name), &d->plan->bopts, id + 1);
	return talloc_asprintf(d->ctx, "%s/clients/%s%s%s",
			       d->plan->dirs[id % d->plan->ndirs], name,
			       path[0] ? "/" : "", path);
}

/* The resource limit behind an error, for messages: RLIMIT_NOFILE for
 * EMFILE, RLIMIT_NPROC for a fork()'s EAGAIN. */
static const char *limit_hint(TALLOC_CTX *mem_ctx, int err)
{
	struct rlimit rl;
	int res = err == EMFILE ? RLIMIT_NOFILE : err == EAGAIN ? RLIMIT_NPROC : -1;

	if (res < 0 || getrlimit(res, &rl) != 0)
		return "";
	if (rl.rlim_cur == RLIM_INFINITY)
		return talloc_asprintf(mem_ctx, " (%s is unlimited)",
				       res == RLIMIT_NOFILE ? "RLIMIT_NOFILE" : "RLIMIT_NPROC");
	return talloc_asprintf(mem_ctx, " (%s is %llu)",
			       res == RLIMIT_NOFILE ? "RLIMIT_NOFILE" : "RLIMIT_NPROC",
			       (unsigned long long)rl.rlim_cur);
}

/* The whole message of a failure: where (rank, client, loadfile line,
 * operation, path), then what. */
static void describe_failure(struct driver *d, struct run_failure *f, int rank)
{
	f->rank = cluster_mpi() ? rank : -1;
	f->host = cluster_mpi() ? cluster_host(rank) : NULL;
	char *t = f->rank >= 0 ? talloc_asprintf(f, "rank %d (%s), ", f->rank, f->host)
			       : talloc_strdup(f, "");
	if (f->client)
		t = talloc_asprintf_append(t, "client %u, ", f->client);
	if (f->line)
		t = talloc_asprintf_append(t, "%s:%u %s %s: ", d->plan->prog->source,
					   f->line, f->operation, f->path);
	f->text = talloc_strdup_append(t, f->error);
}

/* Note a failure that is not an operation's (a death, a fork): the first
 * one wins. */
static void fail_process(struct driver *d, unsigned id, const char *what)
{
	if (d->failure)
		return;
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);
	f->client = id + 1;
	f->error = what;
	describe_failure(d, f, cluster_rank());
	d->failure = f;
}

/* Note a failure of the --probe process: the first failure wins. */
static void fail_probe(struct driver *d, const char *what)
{
	if (d->failure)
		return;
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);
	f->path = probe_directory(f, d->plan);
	f->error = talloc_strdup(f, what);
	f->rank = cluster_mpi() ? 0 : -1;	/* the probe runs on rank 0 alone */
	f->host = cluster_mpi() ? cluster_host(0) : NULL;
	f->text = f->rank >= 0 ? talloc_asprintf(f, "rank 0 (%s), probe, %s", f->host, what)
			       : talloc_asprintf(f, "probe, %s", what);
	d->failure = f;
}

/* Note the failure the probe recorded in its slot, if it did. */
static void check_probe(struct driver *d)
{
	const struct probe_slot *s = &d->stats->probe;

	if (d->plan->probe && !d->failure && stats_get(&s->state) == CLIENT_FAILED)
		fail_probe(d, talloc_strndup(d->ctx, s->failure, sizeof(s->failure)));
}

/* Note the failure client `id` recorded in its slot. */
static void fail_from_slot(struct driver *d, unsigned id)
{
	const struct client_failure *cf = &d->stats->slot[id].failure;

	if (d->failure)
		return;
	if (cf->line == 0) {
		fail_process(d, id, talloc_asprintf(d->ctx, "setup: %s", cf->path));
		return;
	}
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);
	f->client = id + 1;
	f->line = cf->line;
	f->operation = op_table[cf->op].name;
	f->path = client_path(d, id, cf->path);
	if (cf->detail[0])	/* the backend's own account, such as a data mismatch */
		f->error = talloc_strndup(f, cf->detail, sizeof(cf->detail));
	else if (cf->err)
		f->error = talloc_asprintf(f, "%s%s", strerror(cf->err),
					   cf->err == EMFILE ? limit_hint(f, EMFILE) : "");
	else
		f->error = talloc_asprintf(f, "succeeded, but %s was expected",
					   nt_status_name(cf->expected));
	describe_failure(d, f, cluster_rank());
	d->failure = f;
}

/* Fork the --probe process; like a client, it returns through main. */
static bool fork_probe(struct driver *d)
{
	pid_t pid = fork();

	if (pid < 0) {
		int err = errno;
		fail_probe(d, talloc_asprintf(d->ctx, "cannot start its process: %s%s",
					      strerror(err), limit_hint(d->ctx, err)));
		return false;
	}
	if (pid == 0) {
		close(d->start_pipe[1]);
		d->child_status = probe_process_main(d->plan, d->stats, probe_clients_fd(d),
						     d->targets[0], d->start_pipe[0]);
		d->in_child = true;
		is_client = true;
		return false;
	}
	d->probe_pid = pid;
	d->running++;
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct proc_pid *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void index_pids(struct driver *d)
{
	d->by_pid = talloc_array(d->ctx, struct proc_pid, d->nprocs);
	for (unsigned p = 0; p < d->nprocs; p++)
		d->by_pid[p] = (struct proc_pid){ d->pids[p], p };
	qsort(d->by_pid, d->nprocs, sizeof(*d->by_pid), cmp_pid);
}

/* The index in d->pids of client process `pid`, or -1. */
static int proc_of(const struct driver *d, pid_t pid)
{
	struct proc_pid key = { pid, 0 };
	const struct proc_pid *hit = d->by_pid ? bsearch(&key, d->by_pid, d->nprocs,
							  sizeof(key), cmp_pid) : NULL;
	return hit && d->pids[hit->p] == pid ? (int)hit->p : -1;
}

/* Memory the children do not inherit (MADV_DONTFORK), for what the
 * parent writes between forks: in ordinary memory each write would leave
 * the child forked just before with a copy of the page of its own. */
struct unforked {
	void *addr;
	size_t len;
	pid_t owner;	/* the one process that has it */
};

static int unmap_unforked(struct unforked *u)
{
	if (getpid() == u->owner)
		munmap(u->addr, u->len);
	return 0;
}

/* len zeroed bytes of such memory, unmapped when mem_ctx is freed; NULL
 * when out of memory. */
static void *unforked_zero(TALLOC_CTX *mem_ctx, size_t len)
{
	struct unforked *u = talloc(mem_ctx, struct unforked);

	len = len ? len : 1;
	void *p = u ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0) : MAP_FAILED;
	if (p == MAP_FAILED) {
		talloc_free(u);
		return NULL;
	}
	madvise(p, len, MADV_DONTFORK);
	*u = (struct unforked){ p, len, getpid() };
	talloc_set_destructor(u, unmap_unforked);
	return p;
}

/* --cpus: client process p keeps to its CPU of the list, round robin.
 * main checked that each CPU is one this process may use; should the
 * kernel refuse all the same, the process runs where it would have. */
static void pin_process(const struct run_plan *plan, unsigned p)
{
	cpu_set_t set;

	if (!plan->ncpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(plan->cpus[p % plan->ncpus], &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Fork the client processes.  Between two forks the parent writes to no
 * memory a child inherits but its stack: the clients' pool (client.h) is
 * made once, before the first, and each child writes its own copy; the
 * pids go to memory the children do not inherit.
 */
static bool fork_clients(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	unsigned k = plan->clients_per_process;

	d->nprocs = (plan->nclients + k - 1) / k;
	d->pids = unforked_zero(d->ctx, sizeof(pid_t) * d->nprocs);
	TALLOC_CTX *pool = client_pool(plan, k);
	if (!d->pids || !pool) {
		talloc_free(pool);
		d->nprocs = 0;
		fail_process(d, 0, "cannot start its process: out of memory");
		return false;
	}
	fflush(NULL);
	for (unsigned p = 0; p < d->nprocs; p++) {
		unsigned first = p * k;
		unsigned count = plan->nclients - first < k ? plan->nclients - first : k;
		pid_t pid = fork();
		if (pid < 0) {
			int err = errno;
			talloc_free(pool);
			fail_process(d, first, talloc_asprintf(d->ctx,
				"cannot start its process: %s%s", strerror(err),
				limit_hint(d->ctx, err)));
			index_pids(d);	/* those started are still to be reaped */
			return false;
		}
		if (pid == 0) {
			/* The client process returns through main, which frees
			 * what it inherited, so that nothing is left behind.
			 * Under mpirun it leaves its rank's process group, which
			 * mpirun kills whole when a rank dies: it is to stop on
			 * its rank's death and remove its files first. */
			close(d->start_pipe[1]);
			if (cluster_mpi())
				setpgid(0, 0);
			pin_process(plan, p);
			d->child_status = client_process_main(pool, plan, d->stats, first, count,
							      d->targets, d->start_pipe[0]);
			d->in_child = true;
			is_client = true;
			return false;
		}
		d->pids[p] = pid;
		d->running++;
	}
	talloc_free(pool);	/* the parent's copy, never used */
	index_pids(d);
	return !plan->probe || fork_probe(d);
}

/* What went wrong with a process that exited with `status`, or NULL when
 * nothing did (or we killed it ourselves, abandoning its cleanup). */
static const char *exit_problem(struct driver *d, int status)
{
	if (WIFSIGNALED(status))
		return d->abandoned ? NULL
				    : talloc_asprintf(d->ctx, "died: killed by signal %d (%s)",
						      WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status) != 0)
		return talloc_asprintf(d->ctx, "died: exited with status %d", WEXITSTATUS(status));
	return NULL;
}

/* Reap exited client processes and the probe; note the first that failed. */
static void reap(struct driver *d, bool block)
{
	int status;
	pid_t pid;

	while (d->running > 0 && (pid = waitpid(-1, &status, block ? 0 : WNOHANG)) != 0) {
		if (pid < 0) {
			if (errno == EINTR && block)
				return;		/* let the caller look at signals */
			break;
		}
		const char *problem = exit_problem(d, status);
		if (pid == d->probe_pid) {
			d->probe_pid = 0;
			d->running--;
			check_probe(d);
			if (problem)
				fail_probe(d, problem);
		}
		int p = proc_of(d, pid);
		if (p >= 0) {
			d->pids[p] = 0;
			d->running--;
			unsigned first = p * d->plan->clients_per_process;
			for (unsigned c = first; problem && WIFEXITED(status) &&
			     c < d->plan->nclients && c < first + d->plan->clients_per_process; c++)
				if (stats_get(&d->stats->slot[c].state) == CLIENT_FAILED)
					fail_from_slot(d, c);
			if (problem)
				fail_process(d, first, problem);
		}
		block = false;
	}
}

/* Look at every client's slot, and the probe's, for a failure recorded
 * before its exit. */
static void check_slots(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nclients && !d->failure; i++) {
		if (stats_get(&d->stats->slot[i].state) == CLIENT_FAILED)
			fail_from_slot(d, i);
	}
	check_probe(d);
}

static void set_phase(struct driver *d, enum phase ph, uint64_t now)
{
	d->phase = ph;
	d->phase_ns = now;
	stats_set(&d->stats->ctl.phase, ph);
}

static void sleep_until(uint64_t deadline)
{
	struct timespec ts = { deadline / 1000000000u, deadline % 1000000000u };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Wait until every client, and the probe, is set up and waiting for the
 * start. */
static bool wait_ready(struct driver *d)
{
	for (;;) {
		reap(d, false);
		check_slots(d);
		if (d->failure || interrupted || d->running < d->nprocs + d->plan->probe)
			return false;
		unsigned ready = 0;
		for (unsigned i = 0; i < d->plan->nclients; i++)
			ready += stats_get(&d->stats->slot[i].state) == CLIENT_READY;
		if (ready == d->plan->nclients &&
		    (!d->plan->probe || stats_get(&d->stats->probe.state) == CLIENT_READY))
			return true;
		sleep_until(monotonic_ns() + 10000000u);
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
static double rank_seconds(struct driver *d)
{
	double window = d->end_ns > d->exec_ns ? (d->end_ns - d->exec_ns) / 1e9 : 0;
	uint64_t end = 0;

	if (!d->plan->run_once || d->exec_ns == 0)
		return window;
	for (unsigned i = 0; i < d->plan->nclients; i++) {
		uint64_t e = stats_get(&d->stats->slot[i].end_ns);
		if (e > end)
			end = e;
	}
	return end > d->exec_ns ? (end - d->exec_ns) / 1e9 : 0;
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
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);

	f->client = w->client;
	f->line = w->line;
	f->operation = w->operation[0] ? talloc_strdup(f, w->operation) : NULL;
	f->path = w->path[0] ? talloc_strdup(f, w->path) : NULL;
	f->error = talloc_strdup(f, w->error);
	describe_failure(d, f, rank);
	d->failure = f;
}

/* Rank 0: another rank's failure in the latest tick becomes the run's,
 * unless the run failed already. */
static void take_remote_failure(struct driver *d)
{
	if (d->all.failed_rank > 0 && !d->failure)
		failure_from_wire(d, &d->all.failure, (int)d->all.failed_rank);
}

/* What this rank tells rank 0 at a tick. */
static void local_tick(struct driver *d, uint64_t tick, struct cluster_tick *t)
{
	struct phase_stats cur, exec;
	enum phase ph = d->phase == PHASE_STOP ? PHASE_EXECUTE : d->phase;

	stats_sum(d->stats, ph, &cur);
	stats_sum(d->stats, PHASE_EXECUTE, &exec);
	*t = (struct cluster_tick){
		.bytes = stats_bytes(&cur), .ops = cur.ops,
		.exec_bytes = stats_bytes(&exec), .exec_ops = exec.ops,
		.max_ns = stats_window_max(d->stats, tick),
		.running = d->running,
		.interrupted = interrupted ? interrupt_signal : 0,
		.failed_rank = -1,
	};
	if (d->plan->run_once && d->phase == PHASE_EXECUTE && all_passes_done(d)) {
		t->done = 1;
		t->done_s = rank_seconds(d);
	}
	if (d->failure) {
		t->failed_rank = cluster_rank();
		failure_to_wire(d->failure, &t->failure);
	}
}

/* The longest probe listing that ended during `tick`, in ms; NAN when
 * none did, or there is no probe. */
static double probe_ms(const struct driver *d, uint64_t tick)
{
	uint64_t ns = d->plan->probe ? stats_window_get(&d->stats->probe.win, tick) : 0;
	return ns ? ns / 1e6 : NAN;
}

/* Close the timeline's current interval at `now`, which ends `tick`: the
 * execute figures gained since the last point (every rank's), per second. */
static void add_point(struct driver *d, uint64_t now, uint64_t tick, uint64_t bytes,
		      uint64_t ops, double max_latency_ms)
{
	double secs = now > d->last_ns ? (now - d->last_ns) / 1e9 : 0;

	if (secs < 0.001)
		return;
	d->timeline = talloc_realloc(d->ctx, d->timeline, struct timeline_point,
				     d->ntimeline + 1);
	d->timeline[d->ntimeline++] = (struct timeline_point){
		.t_s = (now - d->exec_ns) / 1e9,
		.mb_s = (bytes - d->last_bytes) / 1e6 / secs,
		.ops_s = (ops - d->last_ops) / secs,
		.max_latency_ms = max_latency_ms,
		.probe_ms = probe_ms(d, tick),
	};
	d->last_bytes = bytes;
	d->last_ops = ops;
	d->last_ns = now;
}

/* --show-execute-time: this rank's passes finished since the last look,
 * a line each, kept for the result. */
static void take_passes(struct driver *d)
{
	struct pass_record rec[STATS_PASS_RING];

	if (!d->plan->show_execute_time)
		return;
	if (!d->passes_seen)
		d->passes_seen = talloc_zero_array(d->ctx, uint64_t, d->plan->nclients);
	for (unsigned i = 0; d->passes_seen && i < d->plan->nclients; i++) {
		unsigned n = stats_passes_since(&d->stats->slot[i], &d->passes_seen[i], rec,
						&d->passes_lost);
		struct pass_time *p = n ? talloc_realloc(d->ctx, d->passes, struct pass_time,
							  d->npasses + n) : d->passes;
		for (unsigned k = 0; p && k < n; k++) {
			struct pass_time *t = &p[d->npasses++];
			*t = (struct pass_time){ .client = i,
				.ms = (rec[k].end_ns - rec[k].start_ns) / 1e6,
				.at_ms = rec[k].end_ns > d->start_ns ? (rec[k].end_ns - d->start_ns) / 1e6 : 0 };
			report_pass(d->text, d->plan, t);
		}
		d->passes = p;
	}
	fflush(d->text);
}

/* Once a second: the timeline point and the progress line of the second
 * that ended at `now`, from every rank's figures. */
static void sample(struct driver *d, uint64_t tick, uint64_t now, uint64_t *prev_bytes)
{
	const struct cluster_tick *all = &d->all;
	double secs = now > d->phase_ns ? (now - d->phase_ns) / 1e9 : 0;
	double max_ms = all->max_ns / 1e6;

	if (d->phase == PHASE_EXECUTE)
		add_point(d, now, tick, all->exec_bytes, all->exec_ops, max_ms);
	take_passes(d);
	unsigned nclients = d->plan->nclients * cluster_size();
	unsigned procs = all->running - (d->plan->probe && d->probe_pid ? 1 : 0);
	struct progress p = {
		.format = d->plan->output_format,
		.machine_readable = d->plan->machine_readable,
		.nclients = nclients,
		.active = procs * d->plan->clients_per_process < nclients
				  ? procs * d->plan->clients_per_process : nclients,
		.exec_secs = now > d->exec_ns && d->exec_ns ? (unsigned)((now - d->exec_ns) / 1e9 + 0.5)
							    : 0,
		.lines = all->ops,
		.mb_s = d->phase == PHASE_STOP || secs <= 0 ? 0 : all->bytes / 1e6 / secs,
		.last_mb_s = d->phase == PHASE_STOP ? 0 : (all->bytes - *prev_bytes) / 1e6,
		.phase = phase_name(d->phase),
		.secs = (unsigned)(secs + 0.5),
		.max_latency_ms = max_ms,
	};
	*prev_bytes = all->bytes;
	d->shown = p;
	if (!d->plan->quiet)
		report_progress(d->text, &p);
}

/* Enter the execute phase at `now`; nothing has been counted in it yet. */
static void start_execute(struct driver *d, uint64_t now)
{
	set_phase(d, PHASE_EXECUTE, now);
	d->exec_ns = d->last_ns = now;
	d->last_bytes = d->last_ops = 0;
}

/* Leave the execute window, which ended at `end`; the timeline's last
 * point is closed with the latest figures. */
static void end_execute(struct driver *d, uint64_t end)
{
	if (d->phase == PHASE_EXECUTE) {
		d->end_ns = end;
		uint64_t tick = stats_get(&d->stats->ctl.tick);
		if (!cluster_mpi())	/* a plain run can look again, now */
			local_tick(d, tick, &d->all);
		add_point(d, end, tick, d->all.exec_bytes, d->all.exec_ops, d->all.max_ns / 1e6);
	} else {
		d->exec_ns = d->end_ns = end;	/* nothing was counted */
	}
	set_phase(d, PHASE_STOP, end);
}

/* Rank 0: phase changes due at `now`; returns true when the phase
 * changed. */
static bool advance(struct driver *d, uint64_t now)
{
	const struct run_plan *plan = d->plan;
	uint64_t in_phase = now - d->phase_ns;

	if (d->phase == PHASE_WARMUP && in_phase >= plan->warmup * 1000000000ull - 5000000) {
		start_execute(d, now);
		return true;
	}
	if (d->phase == PHASE_EXECUTE && !plan->run_once &&
	    in_phase >= plan->timelimit * 1000000000ull - 5000000) {
		set_phase(d, PHASE_STOP, now);	/* its last second is already a point */
		d->end_ns = now;
		return true;
	}
	if (d->phase == PHASE_EXECUTE && plan->run_once && d->all.done == cluster_size()) {
		uint64_t end = d->exec_ns + (uint64_t)(d->all.done_s * 1e9);
		end_execute(d, end > d->exec_ns && end <= now ? end : now);
		return true;
	}
	return false;
}

static void stop_now(struct driver *d)
{
	if (d->phase != PHASE_STOP)
		end_execute(d, monotonic_ns());
}

/* Another rank: take up the phase rank 0 ordered. */
static void follow(struct driver *d, const struct cluster_order *o, uint64_t now)
{
	if (o->phase == d->phase)
		return;
	if (o->phase == PHASE_EXECUTE)
		start_execute(d, now);
	else if (o->phase == PHASE_STOP && d->phase == PHASE_EXECUTE)
		end_execute(d, now);
	else
		set_phase(d, o->phase, now);
}

/* A second SIGINT: stop waiting for the clients' cleanup. */
static void abandon_cleanup(struct driver *d)
{
	d->abandoned = true;
	for (unsigned p = 0; p < d->nprocs; p++)
		if (d->pids[p])
			kill(d->pids[p], SIGKILL);
	if (d->probe_pid)
		kill(d->probe_pid, SIGKILL);
}

/*
 * Thousands of clients that never sleep leave an ordinary sampler waiting
 * for a CPU for many seconds, and the phases it times stretch with it.
 * Where the system allows it (CAP_SYS_NICE), the parent runs at the lowest
 * real-time priority while the clients run; SCHED_RESET_ON_FORK keeps the
 * processes it forks ordinary.  Its work is a few milliseconds a second.
 */
static bool sampler_priority_raise(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0;
}

static void sampler_priority_drop(struct driver *d)
{
	struct sched_param sp = { .sched_priority = 0 };
	if (d->sampler_realtime)
		sched_setscheduler(0, SCHED_OTHER, &sp);
}

/* The sampler: once a second until every client process (and the probe)
 * has exited. */
static double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
}

/*
 * One tick, on every rank at once: each tells rank 0 its figures; rank 0
 * takes in another rank's failure, shows the second, moves the phase on,
 * and orders every rank into it.  Returns true when the phase changed.
 */
static bool exchange(struct driver *d, uint64_t tick, uint64_t now, uint64_t *prev_bytes)
{
	struct cluster_tick mine;
	struct cluster_order order = { 0 };
	bool changed = false;

	local_tick(d, tick, &mine);
	cluster_tick(&mine, &d->all);
	if (cluster_rank() == 0) {
		take_remote_failure(d);
		if (d->failure || (cluster_mpi() && d->all.interrupted))
			stop_now(d);
		sample(d, tick, now, prev_bytes);
		if (d->phase != PHASE_STOP)
			changed = advance(d, now);
		order.phase = d->phase;
		order.running = d->all.running;
	}
	cluster_order(&order);
	if (cluster_rank() != 0)
		follow(d, &order, now);
	d->running_all = order.running;
	return changed;
}

static void sample_loop(struct driver *d)
{
	uint64_t tick = 0, prev_bytes = 0;
	int interrupts_seen = 0;
	double sample_ms = 0;	/* CPU of the once-a-second work alone */

	d->running_all = d->running;
	while (d->running_all > 0) {
		uint64_t next = d->start_ns + (tick + 1) * 1000000000ull;
		sleep_until(next);
		uint64_t now = monotonic_ns();
		reap(d, false);		/* an exit's failure is noted here */
		double cpu0 = cpu_ms();
		if (now >= next)
			check_slots(d);	/* a failure before exiting, once a second */
		if (interrupted != interrupts_seen) {
			interrupts_seen = interrupted;
			if (d->phase == PHASE_STOP)
				abandon_cleanup(d);
			if (!cluster_mpi())
				stop_now(d);
		}
		if (d->failure && !cluster_mpi())
			stop_now(d);
		if (now < next) {	/* woken early, by a client's exit */
			if (!cluster_mpi()) {	/* a plain run may end now */
				if (d->plan->run_once && d->phase == PHASE_EXECUTE &&
				    all_passes_done(d)) {
					local_tick(d, tick, &d->all);
					advance(d, now);
				}
				d->running_all = d->running;
			}
			/* Exits come in crowds at the end; each waitpid() looks
			 * through all our children, so reap them in batches. */
			uint64_t batch = now + 50000000u;
			while (d->running_all > 0 && monotonic_ns() < batch &&
			       monotonic_ns() < next && interrupted == interrupts_seen)
				sleep_until(batch < next ? batch : next);
			continue;
		}
		if (exchange(d, tick, now, &prev_bytes))
			prev_bytes = 0;
		tick++;
		stats_set(&d->stats->ctl.tick, tick);
		sample_ms += cpu_ms() - cpu0;
	}
	d->sampler_cpu_ms = tick ? sample_ms / tick : 0;
}

static void utc_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * A test hook: with DBENCH_TEST_HIST_DIR set, each rank's own execute-phase
 * histograms, its clients' merged (struct hist[OP_COUNT], as bytes), go
 * to DIR/rank<R>.hist, so that a test can merge the ranks' on its own and
 * hold the percentiles rank 0 reduced over MPI against them.
 */
static void dump_hists(struct driver *d)
{
	const char *dir = getenv("DBENCH_TEST_HIST_DIR");

	if (!dir)
		return;
	struct stats_group *g = talloc_zero(d->ctx, struct stats_group);
	char *path = talloc_asprintf(d->ctx, "%s/rank%d.hist", dir, cluster_rank());
	stats_group_collect(g, d->stats, STATS_ALL_DIRS);
	FILE *f = fopen(path, "w");
	if (!f || fwrite(g->hist, sizeof(struct hist), OP_COUNT, f) != OP_COUNT)
		fprintf(stderr, "dbench: cannot write '%s'\n", path);
	if (f)
		fclose(f);
	talloc_free(path);
	talloc_free(g);
}

/* Every rank's figures, reduced to rank 0 and turned into the result
 * there.  The other ranks take part and get NULL. */
static struct run_result *collect(struct driver *d, const char *started_at, json_t *env)
{
	const struct run_plan *plan = d->plan;
	unsigned nranks = cluster_size(), ndirs = plan->ndirs;
	bool root = cluster_rank() == 0;
	struct run_result *res = talloc_zero(d->ctx, struct run_result);
	struct stats_group *groups = talloc_zero_array(res, struct stats_group, 1 + ndirs);
	struct stats_client *mine = talloc_zero_array(res, struct stats_client, plan->nclients);
	struct stats_client *all = talloc_zero_array(res, struct stats_client,
						     plan->nclients * nranks);
	struct cluster_rank me = { .seconds = rank_seconds(d) }, *ranks = talloc_zero_array(res, struct cluster_rank, nranks);

	stats_group_collect(&groups[0], d->stats, STATS_ALL_DIRS);
	for (unsigned i = 0; i < ndirs; i++)
		stats_group_collect(&groups[1 + i], d->stats, (int)i);
	stats_clients_collect(d->stats, mine);
	me.bytes = stats_bytes(&groups[0].exec);
	cluster_reduce_groups(groups, 1 + ndirs);
	cluster_gather_clients(mine, plan->nclients, all);
	cluster_gather_ranks(&me, ranks);
	if (!root) {
		talloc_free(res);
		return NULL;
	}
	res->plan = plan;
	res->started_at = talloc_strdup(res, started_at);
	res->nclients = plan->nclients * nranks;
	res->nranks = nranks;
	res->mpi = cluster_mpi();
	res->exec_seconds = d->end_ns > d->exec_ns ? (d->end_ns - d->exec_ns) / 1e9 : 0;
	result_fill_figures(res, &(struct run_figures){ &groups[0], &groups[1], all });
	if (plan->probe)
		result_fill_probe(res, d->stats);	/* rank 0's: the only one */
	res->timeline = talloc_steal(res, d->timeline);
	res->ntimeline = d->ntimeline;
	res->passes = talloc_steal(res, d->passes);
	res->npasses = d->npasses;
	res->passes_lost = d->passes_lost;
	res->ranks = talloc_zero_array(res, struct rank_result, nranks);
	for (unsigned r = 0; r < nranks; r++) {
		res->ranks[r] = (struct rank_result){
			.rank = r, .host = cluster_host(r), .kernel = cluster_kernel(r),
			.clients = plan->nclients, .bytes = ranks[r].bytes,
			.seconds = plan->run_once ? ranks[r].seconds : res->exec_seconds,
		};
	}
	result_fill_ranks(res);
	res->failure = talloc_steal(res, d->failure);
	int sig = interrupted ? interrupt_signal : (int)d->all.interrupted;
	res->interrupted = sig != 0;
	res->exit_code = res->failure ? EXIT_RUN_FAILED
		       : !res->interrupted ? EXIT_OK
		       : sig == SIGTERM ? EXIT_TERMINATED : EXIT_INTERRUPTED;
	res->setup_s = d->setup_s;
	res->sampler_cpu_ms = d->sampler_cpu_ms;
	res->sampler_realtime = d->sampler_realtime;
	res->op_clock = opclock_name();
	res->op_clock_hz = opclock.hz;
	res->environment = env;
	if (env) {
		json_t *list = json_array();
		for (unsigned r = 0; r < nranks; r++)
			json_array_append_new(list, json_pack("{s:I, s:s, s:s}",
				"rank", (json_int_t)r, "host", cluster_host(r),
				"kernel", cluster_kernel(r)));
		json_object_set_new(env, "ranks", list);
		result_keep_json(res, env);
	}
	return res;
}

static int report(struct driver *d, const struct run_result *res)
{
	report_text(d->text, res);
	if (d->plan->result_doc)
		*d->plan->result_doc = report_json(res);
	if (d->plan->json_path) {
		int err = report_json_write(res, d->plan->json_path);
		if (err) {
			fprintf(stderr, "dbench: cannot write JSON to '%s': %s\n",
				d->plan->json_path, strerror(err));
			return res->exit_code ? res->exit_code : EXIT_RUN_FAILED;
		}
	}
	return res->exit_code;
}

/* Where human-readable text goes: nowhere on ranks other than 0. */
static FILE *text_stream(struct driver *d, bool json_stdout)
{
	if (cluster_rank() != 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			FILE **p = talloc(d->ctx, FILE *);
			*p = f;
			talloc_set_destructor(p, close_stream);
			return f;
		}
	}
	return json_stdout || d->plan->text_on_stderr ? stderr : stdout;
}

/*
 * Release the clients of every rank together, once every rank's are set
 * up; false (and no release) when a rank failed or was interrupted in
 * setup.
 */
static bool start_together(struct driver *d, bool ready)
{
	struct cluster_tick mine;
	struct cluster_order order = { .phase = PHASE_STOP };

	local_tick(d, 0, &mine);
	mine.ready = ready;
	mine.setup_s = d->setup_s;
	cluster_tick(&mine, &d->all);
	if (cluster_rank() == 0) {
		d->setup_s = d->all.setup_s;	/* the slowest rank's */
		take_remote_failure(d);
		if (d->all.ready == cluster_size())
			order.phase = PHASE_WARMUP;
	}
	cluster_order(&order);
	cluster_barrier();
	return order.phase == PHASE_WARMUP;
}

/*
 * The ranks of an MPI run must run the same plan: their clients are
 * gathered rank by rank, and rank 0 times everyone's phases.  True when
 * they do; otherwise rank 0 says which rank differs.
 */
static bool ranks_agree(const struct run_plan *plan)
{
	struct {
		uint64_t nclients, ndirs, timelimit, warmup, run_once, per_process;
		char sha256[72];
	} mine;

	memset(&mine, 0, sizeof(mine));	/* no stray padding bytes to compare */
	mine.nclients = plan->nclients;
	mine.ndirs = plan->ndirs;
	mine.timelimit = plan->timelimit;
	mine.warmup = plan->warmup;
	mine.run_once = plan->run_once;
	mine.per_process = plan->clients_per_process;
	memcpy(mine.sha256, plan->prog->sha256, sizeof(plan->prog->sha256));

	int r = cluster_differs(&mine, sizeof(mine));
	if (r >= 0 && cluster_rank() == 0)
		fprintf(stderr, "dbench: rank %d (%s) was given another NPROCS, loadfile, number"
			" of directories, time limit, warmup, --run-once or --clients-per-process"
			" than rank 0: every rank needs the same\n", r, cluster_host(r));
	return r < 0;
}

int driver_run(const struct run_plan *plan)
{
	struct driver d = { .plan = plan, .ctx = talloc_new(NULL),
			    .start_pipe = { -1, -1 } };
	bool json_stdout = plan->json_path && strcmp(plan->json_path, "-") == 0;
	bool root = cluster_rank() == 0;
	char started_at[32];
	int rc = EXIT_RUN_FAILED;

	d.text = text_stream(&d, json_stdout);
	install_signals();
	if (!ranks_agree(plan)) {
		talloc_free(d.ctx);
		return EXIT_BAD_INPUT;	/* every rank, in step */
	}
	cluster_run_begin();
	if (!opclock_init()) {
		fprintf(stderr, "dbench: DBENCH_OPCLOCK is '%s': the one value it takes is "
			"monotonic\n", getenv("DBENCH_OPCLOCK"));
		talloc_free(d.ctx);
		return EXIT_BAD_INPUT;
	}
	if (!prepare_targets(&d)) {
		talloc_free(d.ctx);
		return EXIT_BAD_INPUT;
	}
	d.stats = stats_map(d.ctx, plan->nclients, plan->ndirs, (unsigned)get_nprocs_conf());
	if (!d.stats || pipe2(d.start_pipe, O_CLOEXEC) < 0) {
		fprintf(stderr, "dbench: cannot set up shared statistics for %u clients: %s\n",
			plan->nclients, strerror(errno));
		talloc_free(d.ctx);
		return EXIT_RUN_FAILED;
	}
	int perr = plan->backend->prepare ? plan->backend->prepare(d.ctx, plan->prog) : 0;
	if (perr) {
		fprintf(stderr, "dbench: cannot prepare the %s backend: %s\n",
			plan->backend->name, strerror(perr));
		talloc_free(d.ctx);
		return EXIT_RUN_FAILED;
	}
	json_t *env = root && (plan->json_path || plan->result_doc)
			      ? env_capture(plan->dirs, plan->ndirs, describe_targets(&d)) : NULL;
	utc_now(started_at);
	report_header(d.text, plan, cluster_size());
	set_phase(&d, PHASE_SETUP, monotonic_ns());
	d.sampler_realtime = sampler_priority_raise();
	bool forked = fork_clients(&d);
	if (d.in_child) {
		json_decref(env);
		talloc_free(d.ctx);
		return d.child_status;
	}
	uint64_t fork_ns = d.phase_ns;
	bool ready = forked && wait_ready(&d);
	d.setup_s = (monotonic_ns() - fork_ns) / 1e9;
	bool started = start_together(&d, ready);
	if (started)
		report_ready(d.text, plan, cluster_size(), d.setup_s);
	close(d.start_pipe[0]);
	d.start_ns = monotonic_ns();
	if (!started)
		stop_now(&d);
	else if (plan->run_once || plan->warmup == 0)
		start_execute(&d, d.start_ns);
	else
		set_phase(&d, PHASE_WARMUP, d.start_ns);
	close(d.start_pipe[1]);		/* releases every client at once */
	sample_loop(&d);
	take_passes(&d);
	if (started && root && !plan->quiet) {
		d.shown.format = plan->output_format;
		d.shown.machine_readable = plan->machine_readable;
		d.shown.exec_secs = (unsigned)((monotonic_ns() - d.exec_ns) / 1e9 + 0.5);
		report_progress_end(d.text, &d.shown);
	}
	reap(&d, false);
	sampler_priority_drop(&d);
	if (!plan->skip_cleanup)
		clean_leftovers(&d);
	cluster_barrier();		/* every rank's clients are gone */
	if (!plan->skip_cleanup)
		remove_clients_dirs(&d);
	dump_hists(&d);
	struct run_result *res = started || d.failure || cluster_mpi()
					 ? collect(&d, started_at, env) : NULL;
	if (res && (started || d.failure))
		rc = report(&d, res);
	else if (res)
		talloc_free(res);	/* and env with it */
	else if (root)
		json_decref(env);
	if (!started && !d.failure && interrupted)
		rc = interrupt_signal == SIGTERM ? EXIT_TERMINATED : EXIT_INTERRUPTED;
	struct cluster_order end = { .exit_code = rc };
	cluster_order(&end);		/* every rank leaves with rank 0's code */
	cluster_run_end();
	rc = (int)end.exit_code;
	talloc_free(d.ctx);
	return rc;
}
