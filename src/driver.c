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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "driver.h"
#include "env.h"
#include "report.h"
#include "result.h"
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
	struct run_failure *failure;	/* first failure seen, or NULL */
	FILE *text;			/* where human-readable output goes */
	struct timeline_point *timeline;	/* one point per execute second */
	size_t ntimeline;
	struct phase_stats last;	/* execute figures at the last point */
	uint64_t last_ns;		/* when they were taken */
	bool abandoned;			/* clients were killed by a second SIGINT */
	bool in_child;			/* this is a client process, returning */
	double setup_s;			/* fork to all clients ready */
	double sampler_cpu_ms;		/* parent CPU per sample */
	int child_status;		/* its exit status */
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
			tmp, d->clients_dirfd[i % plan->ndirs], i + 1, plan->prog,
			&plan->bopts, &err);
		if (bc && plan->backend->cleanup(bc) != 0)
			fprintf(stderr, "dbench: files of client %u are left in %s/clients\n",
				i + 1, plan->dirs[i % plan->ndirs]);
		talloc_free(tmp);
	}
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

/* "DIR/clients/clientN/PATH" for messages. */
static const char *client_path(struct driver *d, unsigned id, const char *path)
{
	return talloc_asprintf(d->ctx, "%s/clients/client%u%s%s",
			       d->plan->dirs[id % d->plan->ndirs], id + 1,
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

/* Note a failure that is not an operation's (a death, a fork): the first
 * one wins. */
static void fail_process(struct driver *d, unsigned id, const char *what)
{
	if (d->failure)
		return;
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);
	f->client = id + 1;
	f->error = what;
	f->text = talloc_asprintf(f, "client %u, %s", id + 1, what);
	d->failure = f;
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
	f->text = talloc_asprintf(f, "client %u, %s:%u %s %s: %s", f->client,
				  d->plan->prog->source, f->line, f->operation, f->path,
				  f->error);
	d->failure = f;
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
			int err = errno;
			fail_process(d, first, talloc_asprintf(d->ctx,
				"cannot start its process: %s%s", strerror(err),
				limit_hint(d->ctx, err)));
			return false;
		}
		if (pid == 0) {
			/* The client process returns through main, which frees
			 * what it inherited, so that nothing is left behind. */
			close(d->start_pipe[1]);
			d->child_status = client_process_main(plan, d->stats, first, count,
							      d->clients_dirfd, d->start_pipe[0]);
			d->in_child = true;
			is_client = true;
			return false;
		}
		d->pids[p] = pid;
		d->running++;
	}
	return true;
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
			if (WIFSIGNALED(status) && d->abandoned) {
				/* we killed it: not a failure of the run */
			} else if (WIFSIGNALED(status)) {
				fail_process(d, first, talloc_asprintf(d->ctx,
					"died: killed by signal %d (%s)", WTERMSIG(status),
					strsignal(WTERMSIG(status))));
			} else if (WEXITSTATUS(status) != 0) {
				for (unsigned c = first; c < d->plan->nclients &&
				     c < first + d->plan->clients_per_process; c++)
					if (stats_get(&d->stats->slot[c].state) == CLIENT_FAILED)
						fail_from_slot(d, c);
				fail_process(d, first, talloc_asprintf(d->ctx,
					"died: exited with status %d", WEXITSTATUS(status)));
			}
		}
		block = false;
	}
}

/* Look at every client's slot for a failure recorded before its exit. */
static void check_slots(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nclients && !d->failure; i++) {
		if (stats_get(&d->stats->slot[i].state) == CLIENT_FAILED)
			fail_from_slot(d, i);
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

/* Close the timeline's current interval at `now`: the execute figures
 * gained since the last point, per second. */
static void add_point(struct driver *d, uint64_t now, double max_latency_ms)
{
	struct phase_stats sum;
	double secs = now > d->last_ns ? (now - d->last_ns) / 1e9 : 0;

	if (secs < 0.001)
		return;
	stats_sum(d->stats, PHASE_EXECUTE, &sum);
	d->timeline = talloc_realloc(d->ctx, d->timeline, struct timeline_point,
				     d->ntimeline + 1);
	d->timeline[d->ntimeline++] = (struct timeline_point){
		.t_s = (now - d->exec_ns) / 1e9,
		.mb_s = (stats_bytes(&sum) - stats_bytes(&d->last)) / 1e6 / secs,
		.ops_s = (sum.ops - d->last.ops) / secs,
		.max_latency_ms = max_latency_ms,
	};
	d->last = sum;
	d->last_ns = now;
}

/* Once a second: the timeline point and the progress line of the second
 * that ended at `now` (tick `tick` in the clients' latency windows). */
static void sample(struct driver *d, uint64_t tick, uint64_t now, uint64_t *prev_bytes)
{
	struct phase_stats sum;
	enum phase ph = d->phase == PHASE_STOP ? PHASE_EXECUTE : d->phase;
	double secs = now > d->phase_ns ? (now - d->phase_ns) / 1e9 : 0;
	double max_ms = stats_window_max(d->stats, tick) / 1e6;

	if (d->phase == PHASE_EXECUTE)
		add_point(d, now, max_ms);
	stats_sum(d->stats, ph, &sum);
	uint64_t bytes = stats_bytes(&sum);
	struct progress p = {
		.nclients = d->plan->nclients,
		.lines = sum.ops,
		.mb_s = d->phase == PHASE_STOP || secs <= 0 ? 0 : bytes / 1e6 / secs,
		.last_mb_s = d->phase == PHASE_STOP ? 0 : (bytes - *prev_bytes) / 1e6,
		.phase = phase_name(d->phase),
		.secs = (unsigned)(secs + 0.5),
		.max_latency_ms = max_ms,
	};
	*prev_bytes = bytes;
	if (!d->plan->quiet)
		report_progress(d->text, &p);
}

/* Enter the execute phase at `now`; nothing has been counted in it yet. */
static void start_execute(struct driver *d, uint64_t now)
{
	set_phase(d, PHASE_EXECUTE, now);
	d->exec_ns = d->last_ns = now;
	memset(&d->last, 0, sizeof(d->last));
}

/* Leave the execute window, which ended at `end`. */
static void end_execute(struct driver *d, uint64_t end)
{
	if (d->phase == PHASE_EXECUTE) {
		d->end_ns = end;
		add_point(d, end, stats_window_max(d->stats, stats_get(&d->stats->ctl.tick)) / 1e6);
	} else {
		d->exec_ns = d->end_ns = end;	/* nothing was counted */
	}
	set_phase(d, PHASE_STOP, end);
}

/* Phase changes due at `now`; returns true when the phase changed. */
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
	if (d->phase == PHASE_EXECUTE && plan->run_once && all_passes_done(d)) {
		uint64_t end = 0;
		for (unsigned i = 0; i < plan->nclients; i++) {
			uint64_t e = stats_get(&d->stats->slot[i].end_ns);
			if (e > end)
				end = e;
		}
		end_execute(d, end > d->exec_ns ? end : now);
		return true;
	}
	return false;
}

static void stop_now(struct driver *d)
{
	if (d->phase != PHASE_STOP)
		end_execute(d, now_ns());
}

/* A second SIGINT: stop waiting for the clients' cleanup. */
static void abandon_cleanup(struct driver *d)
{
	d->abandoned = true;
	for (unsigned p = 0; p < d->nprocs; p++)
		if (d->pids[p])
			kill(d->pids[p], SIGKILL);
}

/* The sampler: once a second until every client process has exited. */
static double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
}

static void sample_loop(struct driver *d)
{
	uint64_t tick = 0, prev_bytes = 0;
	int interrupts_seen = 0;
	double cpu0 = cpu_ms();

	while (d->running > 0) {
		uint64_t next = d->start_ns + (tick + 1) * 1000000000ull;
		sleep_until(next);
		uint64_t now = now_ns();
		reap(d, false);
		check_slots(d);
		if (interrupted != interrupts_seen) {
			interrupts_seen = interrupted;
			if (d->phase == PHASE_STOP)
				abandon_cleanup(d);
			stop_now(d);
		}
		if (d->failure)
			stop_now(d);
		if (now >= next) {	/* a whole second is over: show it */
			sample(d, tick, now, &prev_bytes);
			tick++;
			stats_set(&d->stats->ctl.tick, tick);
		}
		if (d->phase != PHASE_STOP && advance(d, now))
			prev_bytes = 0;
	}
	d->sampler_cpu_ms = tick ? (cpu_ms() - cpu0) / tick : 0;
}

static void utc_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static struct run_result *collect(struct driver *d, const char *started_at, json_t *env)
{
	struct run_result *res = talloc_zero(d->ctx, struct run_result);

	res->plan = d->plan;
	res->started_at = talloc_strdup(res, started_at);
	res->nclients = d->plan->nclients;
	res->exec_seconds = d->end_ns > d->exec_ns ? (d->end_ns - d->exec_ns) / 1e9 : 0;
	result_fill(res, d->stats);
	res->timeline = talloc_steal(res, d->timeline);
	res->ntimeline = d->ntimeline;
	res->failure = talloc_steal(res, d->failure);
	res->interrupted = interrupted > 0;
	res->exit_code = res->failure ? EXIT_RUN_FAILED
		       : !res->interrupted ? EXIT_OK
		       : interrupt_signal == SIGTERM ? EXIT_TERMINATED : EXIT_INTERRUPTED;
	res->setup_s = d->setup_s;
	res->sampler_cpu_ms = d->sampler_cpu_ms;
	res->environment = env;
	if (env)
		result_keep_json(res, env);
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

int driver_run(const struct run_plan *plan)
{
	struct driver d = { .plan = plan, .ctx = talloc_new(NULL),
			    .start_pipe = { -1, -1 } };
	bool json_stdout = plan->json_path && strcmp(plan->json_path, "-") == 0;
	char started_at[32];
	int rc = EXIT_RUN_FAILED;

	d.text = json_stdout || plan->text_on_stderr ? stderr : stdout;
	install_signals();
	if (!prepare_targets(&d)) {
		talloc_free(d.ctx);
		return EXIT_BAD_INPUT;
	}
	d.stats = stats_map(d.ctx, plan->nclients);
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
	json_t *env = plan->json_path || plan->result_doc
			      ? env_capture(plan->dirs, plan->ndirs) : NULL;
	utc_now(started_at);
	report_header(d.text, plan);
	set_phase(&d, PHASE_SETUP, now_ns());
	bool forked = fork_clients(&d);
	if (d.in_child) {
		json_decref(env);
		talloc_free(d.ctx);
		return d.child_status;
	}
	uint64_t fork_ns = d.phase_ns;
	bool started = forked && wait_ready(&d);
	d.setup_s = (now_ns() - fork_ns) / 1e9;
	if (started)
		fprintf(d.text, "%u client%s ready in %.2f s\n", plan->nclients,
			plan->nclients == 1 ? "" : "s", d.setup_s);
	close(d.start_pipe[0]);
	d.start_ns = now_ns();
	if (!started)
		stop_now(&d);
	else if (plan->run_once || plan->warmup == 0)
		start_execute(&d, d.start_ns);
	else
		set_phase(&d, PHASE_WARMUP, d.start_ns);
	close(d.start_pipe[1]);		/* releases every client at once */
	sample_loop(&d);
	reap(&d, false);
	if (!plan->skip_cleanup) {
		clean_leftovers(&d);
		remove_clients_dirs(&d);
	}
	if (started || d.failure)
		rc = report(&d, collect(&d, started_at, env));
	else
		json_decref(env);
	if (!started && !d.failure && interrupted)
		rc = interrupt_signal == SIGTERM ? EXIT_TERMINATED : EXIT_INTERRUPTED;
	talloc_free(d.ctx);
	return rc;
}
