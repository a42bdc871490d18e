/*
 * driver.c - one run from start to finish (see driver.h): the checks
 * before anything starts, then the parts in order (driver_internal.h):
 * targets, processes, the sampler, collecting and reporting; one exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "opclock.h"
#include "progname.h"
#include "env.h"
#include "run/driver_internal.h"
#include "run/hold.h"

static int close_stream(FILE **f)
{
	fclose(*f);
	return 0;
}

static void utc_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
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
		say("rank %d (%s) was given another NPROCS, loadfile, number"
			" of directories, time limit, warmup, --run-once or --clients-per-process"
			" than rank 0: every rank needs the same\n", r, cluster_host(r));
	return r < 0;
}

/* The clock operations are timed with, as DBENCH_OPCLOCK asks; false,
 * said, when it asks for one there is not. */
static bool clock_ready(void)
{
	if (opclock_init())
		return true;
	say("DBENCH_OPCLOCK is '%s': the one value it takes is monotonic\n",
	    getenv("DBENCH_OPCLOCK"));
	return false;
}

/* DBENCH_TEST_HOLD, a testing aid (hold.h); false, said, when it names
 * no point of a run. */
static bool hold_ready(void)
{
	const char *err = hold_read();

	if (err)
		say("%s\n", err);
	return !err;
}

/* A line a second while the clients are forked and set up
 * (procs_fork_clients(), procs_wait_ready()). */
static void show_setup(struct driver *d, unsigned ready)
{
	report_setup(d->text, d->plan, ready, (monotonic_ns() - d->sampler.phase_ns) / 1e9);
}

/* Once a second while the clients set up: one held stopped that long
 * fails the run (stop_enforce(), before the end). */
static void look_for_stopped(struct driver *d)
{
	stop_enforce(d, &(struct run_clock){ .now = monotonic_ns() });
}

bool driver_check_start(const struct run_plan *plan)
{
	struct driver d = { .plan = plan, .ctx = talloc_new(NULL) };

	if (!d.ctx) {
		say("out of memory\n");
		return false;
	}
	bool ok = clock_ready() && hold_ready() && targets_open(&d) && targets_fit(&d);
	targets_close(&d);	/* what the opening made, as a run that stops there */
	talloc_free(d.ctx);
	return ok;
}

/*
 * What the clients need before they fork: the statistics, the pipe that
 * starts them, the slots of processes and results, the backend prepared;
 * on rank 0 the environment (into *env, for a JSON record) and the disks
 * to sample.  False after saying what is wrong.
 */
static bool driver_prepare(struct driver *d, json_t **env)
{
	const struct run_plan *plan = d->plan;
	bool root = cluster_rank() == 0;

	d->stats = stats_map(d->ctx, plan->nclients, plan->ndirs, (unsigned)get_nprocs_conf(),
			     plan->nprobes);
	if (!d->stats) {
		say("cannot set up shared statistics for %u clients: %s\n",
			plan->nclients, strerror(errno));
		return false;
	}
	stats_limit_types(d->stats, plan->prog->count);
	if (pipe2(d->procs.start_pipe, O_CLOEXEC) < 0) {
		int err = errno;
		say("cannot make the pipe that starts the clients: %s%s\n",
			strerror(err), procs_limit_hint(d->ctx, err));
		return false;
	}
	if (!procs_reserve(d) || !collect_reserve(d))
		return false;
	int perr = plan->backend->prepare ? plan->backend->prepare(d->ctx, plan->prog) : 0;
	if (perr) {
		say("cannot prepare the %s backend: %s\n",
			plan->backend->name, strerror(perr));
		return false;
	}
	if (root && (plan->json_path || plan->result_doc))
		*env = env_capture(plan->dirs, plan->ndirs, targets_describe(d));
	if (root)
		d->sampler.disks = blockstat_open(d->ctx, plan->dirs, plan->ndirs);
	return true;
}

/*
 * The setup phase: the clients forked, each ready, and every rank agreed
 * to start.  Whether the run starts; false too in a forked client
 * (d->procs.in_child), which leaves the driver with its own status.
 */
static bool driver_setup(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	utc_now(d->collect.started_at);
	report_header(d->text, plan, cluster_size());
	sampler_set_phase(d, PHASE_SETUP, monotonic_ns());
	d->sampler.realtime = sampler_priority_raise();
	void (*progress)(struct driver *, unsigned) = plan->quiet || cluster_mpi() ? NULL
										: show_setup;
	bool forked = procs_fork_clients(d, progress);
	if (d->procs.in_child)
		return false;
	uint64_t fork_ns = d->sampler.phase_ns;
	bool ready = forked && procs_wait_ready(d, progress, look_for_stopped);
	d->setup_s = (monotonic_ns() - fork_ns) / 1e9;
	bool started = sampler_start_together(d, ready);
	cluster_bound(plan->stop_timeout);	/* no rank waits for a silent one for ever */
	if (started)
		report_ready(d->text, plan, cluster_size(), d->setup_s);
	return started;
}

/* The clients released at once (or, when the run did not start, told to
 * stop), the phases sampled to the end, the progress lines closed. */
static void driver_execute(struct driver *d, bool started)
{
	const struct run_plan *plan = d->plan;

	close(d->procs.start_pipe[0]);
	d->sampler.start_ns = monotonic_ns();
	if (!started)
		sampler_stop_now(d);
	else
		sampler_release(d, d->sampler.start_ns);
	close(d->procs.start_pipe[1]);		/* releases every client at once */
	if (started)
		hold_after_start();
	sampler_loop(d);
	sampler_take_passes(d);
	if (started && cluster_rank() == 0 && !plan->quiet) {
		d->sampler.shown.format = plan->output_format;
		d->sampler.shown.machine_readable = plan->machine_readable;
		d->sampler.shown.exec_secs =
			(unsigned)((monotonic_ns() - d->sampler.exec_ns) / 1e9 + 0.5);
		report_progress_end(d->text, &d->sampler.shown);
	}
}

/*
 * After the end: the clients reaped, their files removed, the result
 * collected and reported (it takes *env), and every rank leaving with
 * rank 0's exit code, which is returned.
 */
static int driver_finish(struct driver *d, bool started, json_t **env)
{
	int rc = EXIT_RUN_FAILED;

	procs_reap(d, false);
	sampler_priority_drop(d);
	hold_after_reap();
	if (!d->plan->skip_cleanup)
		targets_clean_leftovers(d);
	if (cluster_mpi())
		targets_close_own(d);
	cluster_barrier();		/* every rank's clients are gone */
	targets_close(d);
	collect_dump_hists(d);
	struct run_result *res = started || d->failure || cluster_mpi()
					 ? collect_result(d, *env) : NULL;
	if (res)
		*env = NULL;		/* the result holds it now */
	if (res && (started || d->failure))
		rc = collect_report(d, res);
	else
		talloc_free(res);	/* and env with it */
	if (!started && !d->failure && procs_interrupts()) {
		rc = 128 + procs_interrupt_signal();
		if (cluster_rank() == 0)
			report_setup_interrupted(d->text);
	}
	struct cluster_order end = { .exit_code = rc };
	cluster_order(&end);		/* every rank leaves with rank 0's code */
	cluster_run_end();
	return (int)end.exit_code;
}

int driver_run(const struct run_plan *plan)
{
	struct driver d = { .plan = plan, .ctx = talloc_new(NULL),
			    .procs = { .start_pipe = { -1, -1 } } };
	bool json_stdout = plan->json_path && strcmp(plan->json_path, "-") == 0;
	json_t *env = NULL;	/* rank 0's environment record, until the result takes it */
	int rc = EXIT_BAD_INPUT;

	d.text = text_stream(&d, json_stdout);
	procs_install_signals();
	if (!ranks_agree(plan))
		goto out;	/* every rank, in step */
	cluster_run_begin();
	if (!clock_ready() || !hold_ready() || !targets_open(&d) || !targets_fit(&d)) {
		if (procs_interrupts())		/* a signal cut a wait on a server short */
			rc = 128 + procs_interrupt_signal();
		goto out;
	}
	rc = EXIT_RUN_FAILED;
	if (!driver_prepare(&d, &env))
		goto out;
	bool started = driver_setup(&d);
	if (d.procs.in_child) {
		rc = d.procs.child_status;
		goto out;
	}
	driver_execute(&d, started);
	rc = driver_finish(&d, started, &env);
out:
	if (!d.procs.in_child)
		targets_close(&d);	/* left early: what targets_open() made */
	json_decref(env);
	talloc_free(d.ctx);
	return rc;
}
