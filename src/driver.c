/*
 * driver.c - one run from start to finish (see driver.h): target
 * directories, forking, the start barrier, the once-a-second sampler and
 * its phase changes, failure and signal handling, reaping, the removal of
 * DIR/clients, and the final report.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "driver.h"
#include "report.h"
#include "stats.h"

struct driver {
	const struct run_plan *plan;
	TALLOC_CTX *ctx;
	struct stats_region *stats;
	int *dirfd;		/* each target directory */
	int *clients_dirfd;	/* DIR/clients in each */
	unsigned nprocs;
	pid_t *pids;		/* 0 once reaped */
	unsigned running;	/* processes not yet reaped */
	int start_pipe[2];
	uint64_t start_ns;	/* clients released */
	uint64_t phase_ns;	/* current phase began */
	uint64_t exec_ns;	/* execute window began */
	uint64_t end_ns;	/* execute window ended */
	enum phase phase;
	char *failure;		/* first failure seen, or NULL */
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted++;
}

static void on_child(int sig)
{
	(void)sig;	/* only here to cut a sleep short */
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
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

static int close_fd(int *fd)
{
	close(*fd);
	return 0;
}

/* An fd that is closed when ctx is freed. */
static int keep_fd(TALLOC_CTX *ctx, int fd)
{
	int *p = talloc(ctx, int);
	if (p) {
		*p = fd;
		talloc_set_destructor(p, close_fd);
	}
	return fd;
}

/*
 * Open each target directory and DIR/clients in it, creating the latter.
 * DIR/clients must be a real directory: a symbolic link there is refused.
 */
static bool prepare_targets(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	d->dirfd = talloc_array(d->ctx, int, plan->ndirs);
	d->clients_dirfd = talloc_array(d->ctx, int, plan->ndirs);
	for (unsigned i = 0; i < plan->ndirs; i++) {
		const char *dir = plan->dirs[i];
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "dbench: cannot use directory '%s': %s\n", dir,
				strerror(errno));
			return false;
		}
		d->dirfd[i] = keep_fd(d->ctx, fd);
		if (mkdirat(fd, "clients", 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "dbench: cannot create '%s/clients': %s\n", dir,
				strerror(errno));
			return false;
		}
		int cfd = openat(fd, "clients", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0) {
			fprintf(stderr, "dbench: cannot use '%s/clients': %s\n", dir,
				errno == ELOOP || errno == ENOTDIR
					? "not a directory (a symbolic link?)" : strerror(errno));
			return false;
		}
		d->clients_dirfd[i] = keep_fd(d->ctx, cfd);
	}
	return true;
}

/* Remove DIR/clients where the clients left it empty. */
static void remove_clients_dirs(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->ndirs; i++) {
		if (unlinkat(d->dirfd[i], "clients", AT_REMOVEDIR) < 0 &&
		    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
			fprintf(stderr, "dbench: cannot remove '%s/clients': %s\n",
				d->plan->dirs[i], strerror(errno));
	}
}

static bool fork_clients(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	unsigned k = plan->clients_per_process;

	d->nprocs = (plan->nclients + k - 1) / k;
	d->pids = talloc_zero_array(d->ctx, pid_t, d->nprocs);
	fflush(NULL);
	for (unsigned p = 0; p < d->nprocs; p++) {
		unsigned first = p * k;
		unsigned count = plan->nclients - first < k ? plan->nclients - first : k;
		pid_t pid = fork();
		if (pid < 0) {
			d->failure = talloc_asprintf(d->ctx, "cannot start client process %u: %s",
						     p + 1, strerror(errno));
			return false;
		}
		if (pid == 0) {
			close(d->start_pipe[1]);
			_exit(client_process_main(plan, d->stats, first, count,
						  d->clients_dirfd, d->start_pipe[0]));
		}
		d->pids[p] = pid;
		d->running++;
	}
	return true;
}

/* "DIR/clients/clientN/PATH" for messages. */
static const char *client_path(struct driver *d, unsigned id, const char *path)
{
	return talloc_asprintf(d->ctx, "%s/clients/client%u%s%s",
			       d->plan->dirs[id % d->plan->ndirs], id + 1,
			       path[0] ? "/" : "", path);
}

static char *describe_failure(struct driver *d, unsigned id)
{
	const struct client_failure *f = &d->stats->slot[id].failure;

	if (f->line == 0)
		return talloc_asprintf(d->ctx, "client %u, setup: %s", id + 1, f->path);
	const char *what = f->err ? strerror(f->err)
				  : talloc_asprintf(d->ctx, "succeeded, but %s was expected",
						    nt_status_name(f->expected));
	return talloc_asprintf(d->ctx, "client %u, %s:%u %s %s: %s", id + 1,
			       d->plan->prog->source, f->line, op_table[f->op].name,
			       client_path(d, id, f->path), what);
}

/* Reap exited client processes; note the first that failed. */
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
		for (unsigned p = 0; p < d->nprocs; p++) {
			if (d->pids[p] != pid)
				continue;
			d->pids[p] = 0;
			d->running--;
			unsigned first = p * d->plan->clients_per_process;
			if (d->failure)
				break;
			if (WIFSIGNALED(status))
				d->failure = talloc_asprintf(d->ctx,
					"client %u died: killed by signal %d (%s)", first + 1,
					WTERMSIG(status), strsignal(WTERMSIG(status)));
			else if (WEXITSTATUS(status) != 0)
				for (unsigned c = first; c < d->plan->nclients &&
				     c < first + d->plan->clients_per_process && !d->failure; c++)
					if (stats_get(&d->stats->slot[c].state) == CLIENT_FAILED)
						d->failure = describe_failure(d, c);
			if (!d->failure && WIFEXITED(status) && WEXITSTATUS(status) != 0)
				d->failure = talloc_asprintf(d->ctx,
					"client %u exited with status %d", first + 1,
					WEXITSTATUS(status));
		}
		block = false;
	}
}

/* Look at every client's slot for a failure recorded before its exit. */
static void check_slots(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nclients && !d->failure; i++) {
		if (stats_get(&d->stats->slot[i].state) == CLIENT_FAILED)
			d->failure = describe_failure(d, i);
	}
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

/* Wait until every client is set up and waiting for the start. */
static bool wait_ready(struct driver *d)
{
	for (;;) {
		reap(d, false);
		check_slots(d);
		if (d->failure || interrupted || d->running < d->nprocs)
			return false;
		unsigned ready = 0;
		for (unsigned i = 0; i < d->plan->nclients; i++)
			ready += stats_get(&d->stats->slot[i].state) == CLIENT_READY;
		if (ready == d->plan->nclients)
			return true;
		sleep_until(now_ns() + 10000000u);
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

static void print_progress(struct driver *d, uint64_t tick, uint64_t now)
{
	struct phase_stats sum;
	enum phase ph = d->phase == PHASE_STOP ? PHASE_EXECUTE : d->phase;
	double secs = now > d->phase_ns ? (now - d->phase_ns) / 1e9 : 0;

	if (d->plan->quiet)
		return;
	stats_sum(d->stats, ph, &sum);
	struct progress p = {
		.nclients = d->plan->nclients,
		.lines = sum.ops,
		.mb_s = d->phase == PHASE_STOP || secs <= 0 ? 0 : sum.bytes / 1e6 / secs,
		.phase = phase_name(d->phase),
		.secs = (unsigned)(secs + 0.5),
		.max_latency_ms = stats_window_max(d->stats, tick) / 1e6,
	};
	report_progress(stdout, &p);
}

/* Phase changes due at `now`. */
static void advance(struct driver *d, uint64_t now)
{
	const struct run_plan *plan = d->plan;
	uint64_t in_phase = now - d->phase_ns;

	if (d->phase == PHASE_WARMUP && in_phase >= plan->warmup * 1000000000ull - 5000000) {
		set_phase(d, PHASE_EXECUTE, now);
		d->exec_ns = now;
	} else if (d->phase == PHASE_EXECUTE && !plan->run_once &&
		   in_phase >= plan->timelimit * 1000000000ull - 5000000) {
		d->end_ns = now;
		set_phase(d, PHASE_STOP, now);
	} else if (d->phase == PHASE_EXECUTE && plan->run_once && all_passes_done(d)) {
		d->end_ns = 0;
		for (unsigned i = 0; i < plan->nclients; i++) {
			uint64_t e = stats_get(&d->stats->slot[i].end_ns);
			if (e > d->end_ns)
				d->end_ns = e;
		}
		set_phase(d, PHASE_STOP, now);
	}
}

static void stop_now(struct driver *d)
{
	if (d->phase != PHASE_STOP) {
		d->end_ns = now_ns();
		if (d->phase != PHASE_EXECUTE)
			d->exec_ns = d->end_ns;	/* nothing was counted */
		set_phase(d, PHASE_STOP, d->end_ns);
	}
}

/* The sampler: once a second until every client process has exited. */
static void sample_loop(struct driver *d)
{
	uint64_t tick = 0;
	int interrupts_seen = 0;

	while (d->running > 0) {
		uint64_t next = d->start_ns + (tick + 1) * 1000000000ull;
		sleep_until(next);
		uint64_t now = now_ns();
		reap(d, false);
		check_slots(d);
		if (interrupted != interrupts_seen) {
			interrupts_seen = interrupted;
			if (d->phase == PHASE_STOP) {	/* a second ^C: abandon cleanup */
				for (unsigned p = 0; p < d->nprocs; p++)
					if (d->pids[p])
						kill(d->pids[p], SIGKILL);
			}
			stop_now(d);
		}
		if (d->failure)
			stop_now(d);
		if (now >= next) {	/* a whole second is over: show it */
			print_progress(d, tick, now);
			tick++;
			stats_set(&d->stats->ctl.tick, tick);
		}
		if (d->phase != PHASE_STOP)
			advance(d, now);
	}
}

static struct run_result *collect(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	struct run_result *res = talloc_zero(d->ctx, struct run_result);

	res->nclients = plan->nclients;
	res->exec_seconds = d->end_ns > d->exec_ns ? (d->end_ns - d->exec_ns) / 1e9 : 0;
	stats_sum(d->stats, PHASE_EXECUTE, &res->total);
	res->clients = talloc_zero_array(res, struct client_result, plan->nclients);
	for (unsigned i = 0; i < plan->nclients; i++) {
		const struct phase_stats *p = &d->stats->slot[i].phase[PHASE_EXECUTE];
		res->clients[i].bytes = stats_get(&p->bytes);
		res->clients[i].ops = stats_get(&p->ops);
		for (int t = 0; t < OP_COUNT; t++)
			res->clients[i].errors += stats_get(&p->op[t].errors);
	}
	res->failure = d->failure;
	res->interrupted = interrupted > 0;
	return res;
}

static int report(struct driver *d, const struct run_result *res)
{
	report_table(stdout, res);
	report_throughput_line(stdout, d->plan, res);
	if (d->plan->per_client_results)
		report_per_client(stdout, res);
	fflush(stdout);
	if (res->failure) {
		printf("FAILED: %s\n", res->failure);
		fflush(stdout);
		return EXIT_RUN_FAILED;
	}
	return res->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

int driver_run(const struct run_plan *plan)
{
	struct driver d = { .plan = plan, .ctx = talloc_new(NULL),
			    .start_pipe = { -1, -1 } };
	int rc = EXIT_RUN_FAILED;

	install_signals();
	if (!prepare_targets(&d)) {
		talloc_free(d.ctx);
		return EXIT_BAD_INPUT;
	}
	d.stats = stats_map(d.ctx, plan->nclients);
	if (!d.stats || pipe2(d.start_pipe, O_CLOEXEC) < 0) {
		fprintf(stderr, "dbench: cannot set up shared statistics: %s\n", strerror(errno));
		talloc_free(d.ctx);
		return EXIT_RUN_FAILED;
	}
	report_header(stdout, plan);
	set_phase(&d, PHASE_SETUP, now_ns());
	bool started = fork_clients(&d) && wait_ready(&d);
	close(d.start_pipe[0]);
	if (started) {
		set_phase(&d, plan->run_once || plan->warmup == 0 ? PHASE_EXECUTE : PHASE_WARMUP,
			  now_ns());
		d.start_ns = d.exec_ns = d.phase_ns;
	} else {
		stop_now(&d);
		d.start_ns = now_ns();
	}
	close(d.start_pipe[1]);		/* releases every client at once */
	sample_loop(&d);
	reap(&d, false);
	if (!plan->skip_cleanup)
		remove_clients_dirs(&d);
	if (started || d.failure)
		rc = report(&d, collect(&d));
	if (!started && !d.failure && interrupted)
		rc = EXIT_INTERRUPTED;
	talloc_free(d.ctx);
	return rc;
}
