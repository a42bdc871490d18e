/*
 * procs.c - the processes of a run: the signals of the parent, forking
 * the client processes and the --probe processes, waiting for them to be
 * ready, reaping them, and turning what went wrong with one (a failure it
 * recorded in its slot, a death, a fork that failed) into the run's
 * first failure.  Owns d->procs; knows nothing of phases or reports.
 * Whether a process that has not stopped is slow or hung is stop.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opclock.h"
#include "progname.h"
#include "run/client.h"
#include "run/driver_internal.h"
#include "run/hold.h"
#include "run/unforked.h"
#include "secret.h"
#include "probe.h"

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t interrupt_signal;	/* the first: INT, TERM, HUP, QUIT */
static uint64_t interrupt_ns;			/* ... and when it came */
static bool is_client;				/* this process is a client */

bool driver_is_client(void)
{
	return is_client;
}

void driver_catch_signals(void)
{
	procs_install_signals();
}

int driver_interrupt(void)
{
	return interrupted ? interrupt_signal : 0;
}

static void on_interrupt(int sig)
{
	if (!interrupted) {
		interrupt_signal = sig;
		interrupt_ns = monotonic_ns();	/* clock_gettime(): async-signal-safe */
	}
	interrupted++;
}

static void on_child(int sig)
{
	(void)sig;	/* only here to cut a sleep short */
}

void procs_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };	/* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* a dropped ssh session */
	sigaction(SIGQUIT, &sa, NULL);	/* ^\\ */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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

/* "NAME is N" (or "unlimited") of resource res, on mem_ctx, or NULL. */
static char *procs_rlimit(TALLOC_CTX *mem_ctx, int res, const char *name)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) != 0)
		return NULL;
	if (rl.rlim_cur == RLIM_INFINITY)
		return talloc_asprintf(mem_ctx, "%s is unlimited", name);
	return talloc_asprintf(mem_ctx, "%s is %llu", name, (unsigned long long)rl.rlim_cur);
}

const char *procs_limit_hint(TALLOC_CTX *mem_ctx, int err)
{
	char *hint = err == EMFILE ? procs_rlimit(mem_ctx, RLIMIT_NOFILE, "RLIMIT_NOFILE")
		     : err == EAGAIN ? procs_rlimit(mem_ctx, RLIMIT_NPROC, "RLIMIT_NPROC") : NULL;

	hint = hint ? talloc_asprintf(mem_ctx, " (%s)", hint) : NULL;
	return hint ? hint : "";
}

/* The limits behind a thread not made (EAGAIN: a count, or the memory
 * of its stack), " (RLIMIT_NPROC is N, RLIMIT_AS is N, kernel.threads-max
 * is N)"; for another errno, procs_limit_hint()'s. */
static const char *procs_thread_hint(TALLOC_CTX *mem_ctx, int err)
{
	if (err != EAGAIN)
		return procs_limit_hint(mem_ctx, err);
	char *nproc = procs_rlimit(mem_ctx, RLIMIT_NPROC, "RLIMIT_NPROC");
	char *as = procs_rlimit(mem_ctx, RLIMIT_AS, "RLIMIT_AS");
	char max[32] = "";
	FILE *f = fopen("/proc/sys/kernel/threads-max", "r");
	if (f && !fgets(max, sizeof(max), f))
		max[0] = '\0';
	if (f)
		fclose(f);
	max[strcspn(max, "\n")] = '\0';
	char *hint = talloc_asprintf(mem_ctx, " (%s%s%s%s%s)", nproc ? nproc : "", as ? ", " : "",
				     as ? as : "", *max ? ", kernel.threads-max is " : "", max);
	return hint ? hint : "";
}

/* Room for the message of the failure record set aside before the fork. */
#define SPARE_ROOM 512

bool procs_reserve(struct driver *d)
{
	d->procs.spare = talloc_zero(d->ctx, struct run_failure);
	d->procs.spare_text = d->procs.spare ? talloc_zero_array(d->procs.spare, char, SPARE_ROOM)
					     : NULL;
	if (!d->procs.spare_text) {
		say("cannot allocate the record of a failure: out of memory\n");
		return false;
	}
	return true;
}

struct run_failure *procs_new_failure(struct driver *d)
{
	struct run_failure *f = talloc_zero(d->ctx, struct run_failure);

	return f ? f : d->procs.spare;
}

const char *procs_or_lost(const char *what)
{
	return what ? what : "(lost: out of memory)";
}

/* A failure's message, put together without allocating. */
struct message {
	char text[8192];
	size_t len;
};

static void add(struct message *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(m->text + m->len, sizeof(m->text) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len = m->len + n < sizeof(m->text) ? m->len + n : sizeof(m->text) - 1;
}

/* Make f, with message m, the run's failure; when memory ran out for f
 * or its message, the record set aside takes its place, with as much of
 * the message as its room holds. */
static void set_failure(struct driver *d, struct run_failure *f, const struct message *m)
{
	f->text = f == d->procs.spare ? NULL : talloc_strndup(f, m->text, m->len);
	if (!f->text) {
		struct run_failure *spare = d->procs.spare;
		if (f != spare)
			*spare = *f;
		size_t n = m->len < SPARE_ROOM ? m->len : SPARE_ROOM - 1;
		memcpy(d->procs.spare_text, m->text, n);
		d->procs.spare_text[n] = '\0';
		spare->text = d->procs.spare_text;
		f = spare;
	}
	d->failure = f;
}

void procs_set_failure(struct driver *d, struct run_failure *f, int rank)
{
	struct message m = { .len = 0 };

	f->rank = cluster_mpi() ? rank : -1;
	f->host = f->rank >= 0 ? cluster_host(rank) : NULL;
	f->error = procs_or_lost(f->error);
	if (rank < 0)
		add(&m, "a rank ");
	if (f->rank >= 0)
		add(&m, "rank %d (%s), ", f->rank, f->host);
	if (f->client)
		add(&m, "client %u, ", f->client);
	if (f->line)
		add(&m, "%s:%u %s %s: ", d->plan->prog->source, f->line, f->operation,
		    procs_or_lost(f->path));
	add(&m, "%s", f->error);
	set_failure(d, f, &m);
}

/* Note a failure that is not an operation's (a death, a fork): the first
 * one wins. */
void procs_fail_process(struct driver *d, unsigned id, const char *what)
{
	if (d->failure)
		return;
	struct run_failure *f = procs_new_failure(d);
	f->client = id + 1;
	f->error = what;
	procs_set_failure(d, f, cluster_rank());
}

/* Note a failure of --probe process i: the first failure wins.  With
 * several probes the message names the directory of the one that failed. */
void procs_fail_probe(struct driver *d, unsigned i, const char *what)
{
	struct message m = { .len = 0 };

	if (d->failure)
		return;
	struct run_failure *f = procs_new_failure(d);
	f->path = talloc_strdup(f, d->plan->probe_dirs[i]);
	f->error = procs_or_lost(what);
	f->rank = cluster_mpi() ? 0 : -1;	/* the probes run on rank 0 alone */
	f->host = cluster_mpi() ? cluster_host(0) : NULL;
	if (f->rank >= 0)
		add(&m, "rank 0 (%s), ", f->host);
	add(&m, "probe%s%s, %s", d->plan->nprobes > 1 ? " of " : "",
	    d->plan->nprobes > 1 ? procs_or_lost(f->path) : "", f->error);
	set_failure(d, f, &m);
}

/* Note the failure a probe recorded in its slot, if one did. */
static void check_probes(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nprobes && !d->failure; i++) {
		const struct probe_slot *s = &d->stats->probe[i];
		if (stats_get(&s->state) == CLIENT_FAILED)
			procs_fail_probe(d, i, talloc_strndup(d->ctx, s->failure, sizeof(s->failure)));
	}
}

/* Note the failure client `id` recorded in its slot. */
static void fail_from_slot(struct driver *d, unsigned id)
{
	const struct client_failure *cf = &d->stats->slot[id].failure;
	char why[48];

	if (d->failure)
		return;
	if (cf->line == 0) {
		/* the threads of a recording not started: the errno, the limits */
		bool threads = cf->op == OP_SYS_THREAD && cf->err;
		procs_fail_process(d, id, talloc_asprintf(d->ctx, "setup: %s%s%s%s", cf->path,
						    threads ? ": " : "", threads ? strerror(cf->err) : "",
						    threads ? procs_thread_hint(d->ctx, cf->err) : ""));
		return;
	}
	struct run_failure *f = procs_new_failure(d);
	f->client = id + 1;
	f->line = cf->line;
	f->operation = op_table[cf->op].name;
	/* a block or SCSI row names no file: the device or target itself */
	f->path = op_is_block(cf->op) || op_is_scsi(cf->op)
			  ? secret_mask_url(f, d->plan->dirs[id % d->plan->ndirs])
			  : client_path(d, id, cf->path);
	if (cf->detail[0])	/* the backend's own account, such as a data mismatch */
		f->error = talloc_strndup(f, cf->detail, sizeof(cf->detail));
	else if (cf->err)
		f->error = talloc_asprintf(f, "%s%s", strerror(cf->err),
					   cf->err == EMFILE ? procs_limit_hint(f, EMFILE) : "");
	else
		f->error = talloc_asprintf(f, "succeeded, but %s was expected",
					   op_status_name(cf->op, cf->expected, why, sizeof(why)));
	procs_set_failure(d, f, cluster_rank());
}

/* n of the processes the parent set out to fork (ctl.procs_left) will
 * not be: taken off, so that the last of those forked is the last out. */
static void unforked(struct driver *d, unsigned n)
{
	__atomic_sub_fetch(&d->stats->ctl.procs_left, n, __ATOMIC_ACQ_REL);
}

/* Fork --probe process i; like a client, it returns through main. */
static bool fork_probe(struct driver *d, unsigned i)
{
	pid_t pid = fork();

	if (pid < 0) {
		int err = errno;
		procs_fail_probe(d, i, talloc_asprintf(d->ctx, "cannot start its process: %s%s",
						 strerror(err), procs_limit_hint(d->ctx, err)));
		return false;
	}
	if (pid == 0) {
		close(d->procs.start_pipe[1]);
		d->procs.child_status = probe_process_main(d->plan, d->stats, i,
							   targets_probe_fd(d), d->targets[0],
							   d->procs.start_pipe[0]);
		d->procs.in_child = true;
		is_client = true;
		return false;
	}
	d->procs.probe_pids[i] = pid;
	d->procs.probes_running++;
	d->procs.running++;
	return true;
}

/* Fork every --probe process. */
static bool fork_probes(struct driver *d)
{
	unsigned n = d->plan->nprobes;

	if (n && !(d->procs.probe_pids = talloc_zero_array(d->ctx, pid_t, n))) {
		procs_fail_probe(d, 0, "cannot start its process: out of memory");
		unforked(d, n);
		return false;
	}
	for (unsigned i = 0; i < n; i++)
		if (!fork_probe(d, i)) {
			if (!d->procs.in_child)	/* the probe itself returns so too */
				unforked(d, n - i);
			return false;
		}
	return true;
}

/* Which probe process pid is, or -1. */
static int probe_of(const struct driver *d, pid_t pid)
{
	for (unsigned i = 0; d->procs.probe_pids && i < d->plan->nprobes; i++)
		if (d->procs.probe_pids[i] == pid)
			return (int)i;
	return -1;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct proc_pid *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void index_pids(struct driver *d)
{
	d->procs.by_pid = talloc_array(d->ctx, struct proc_pid, d->procs.nprocs);
	if (!d->procs.by_pid)
		return;		/* proc_of() looks through procs.pids instead */
	for (unsigned p = 0; p < d->procs.nprocs; p++)
		d->procs.by_pid[p] = (struct proc_pid){ d->procs.pids[p], p };
	qsort(d->procs.by_pid, d->procs.nprocs, sizeof(*d->procs.by_pid), cmp_pid);
}

/* The index in d->procs.pids of client process `pid`, or -1. */
static int proc_of(const struct driver *d, pid_t pid)
{
	struct proc_pid key = { pid, 0 };

	for (unsigned p = 0; !d->procs.by_pid && p < d->procs.nprocs; p++)
		if (d->procs.pids[p] == pid)
			return (int)p;
	const struct proc_pid *hit = !d->procs.by_pid ? NULL
				     : bsearch(&key, d->procs.by_pid, d->procs.nprocs,
					       sizeof(key), cmp_pid);
	return hit && d->procs.pids[hit->p] == pid ? (int)hit->p : -1;
}

/* --cpus: client process p keeps to its CPU of the list, round robin.
 * cli.c checked that each CPU is one this process may use; should the
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

/* How many clients are set up and waiting to be released. */
static unsigned ready_clients(const struct driver *d)
{
	unsigned ready = 0;

	for (unsigned i = 0; i < d->plan->nclients; i++)
		ready += stats_get(&d->stats->slot[i].state) == CLIENT_READY;
	return ready;
}

/* Forking ended before client process p (a signal, a fork that failed):
 * those started are still to be reaped, the others never were. */
static void stop_forking(struct driver *d, TALLOC_CTX *pool, unsigned p)
{
	talloc_free(pool);
	unforked(d, d->procs.nprocs - p + d->plan->nprobes);
	d->procs.nprocs = p;
	index_pids(d);
}

/*
 * Fork the client processes.  Between two forks the parent writes to no
 * memory a child inherits but its stack (and, once a second, the stdio
 * buffer of each_second's line, flushed at once): the clients' pool
 * (client.h) is made once, before the first, and each child writes its
 * own copy; the pids go to memory the children do not inherit.
 */
bool procs_fork_clients(struct driver *d, void (*each_second)(struct driver *d, unsigned ready))
{
	uint64_t next_look = monotonic_ns() + 1000000000u;

	const struct run_plan *plan = d->plan;
	unsigned k = plan->clients_per_process;

	d->procs.nprocs = (plan->nclients + k - 1) / k;
	d->procs.pids = unforked_zero(d->ctx, sizeof(pid_t) * d->procs.nprocs);
	TALLOC_CTX *pool = client_pool(plan, k);
	if (!d->procs.pids || !pool) {
		talloc_free(pool);
		d->procs.nprocs = 0;
		procs_fail_process(d, 0, "cannot start its process: out of memory");
		return false;
	}
	fflush(NULL);
	client_set_parent(getpid());	/* before any fork: see client.h */
	stats_set(&d->stats->ctl.procs_left, d->procs.nprocs + plan->nprobes);
	for (unsigned p = 0; p < d->procs.nprocs; p++) {
		unsigned first = p * k;
		unsigned count = plan->nclients - first < k ? plan->nclients - first : k;
		if (interrupted) {	/* a signal: those started stop at once */
			stop_forking(d, pool, p);
			return false;
		}
		pid_t pid = fork();
		if (pid < 0) {
			int err = errno;
			procs_fail_process(d, first, talloc_asprintf(d->ctx,
				"cannot start its process: %s%s", strerror(err),
				procs_limit_hint(d->ctx, err)));
			stop_forking(d, pool, p);
			return false;
		}
		if (pid == 0) {
			/* The client process returns through main, which frees
			 * what it inherited, so that nothing is left behind.
			 * Under mpirun it leaves its rank's process group, which
			 * mpirun kills whole when a rank dies: it is to stop on
			 * its rank's death and remove its files first. */
			close(d->procs.start_pipe[1]);
			if (cluster_mpi())
				setpgid(0, 0);
			pin_process(plan, p);
			d->procs.child_status = client_process_main(pool, plan, d->stats, first,
								    count, d->targets,
								    d->procs.start_pipe[0]);
			d->procs.in_child = true;
			is_client = true;
			return false;
		}
		d->procs.pids[p] = pid;
		d->procs.running++;
		hold_after_fork(p + 1);
		if (each_second && monotonic_ns() >= next_look) {
			each_second(d, ready_clients(d));
			next_look += 1000000000u;
		}
	}
	talloc_free(pool);	/* the parent's copy, never used */
	index_pids(d);
	return fork_probes(d);
}

/* What went wrong with a process that exited with `status`, or NULL when
 * nothing did (or we killed it ourselves, abandoning its cleanup). */
static const char *exit_problem(struct driver *d, int status)
{
	if (WIFSIGNALED(status))
		return d->procs.abandoned
			       ? NULL
			       : procs_or_lost(talloc_asprintf(d->ctx, "died: killed by signal %d (%s)",
						 WTERMSIG(status), strsignal(WTERMSIG(status))));
	int code = WEXITSTATUS(status), sig = code - 128;
	if (sig > 0 && sig < NSIG && interrupted)
		return NULL;	/* the same signal as ours, to the whole group */
	if (sig > 0 && sig < NSIG)	/* client_exit_status(): it left early */
		return procs_or_lost(talloc_asprintf(d->ctx, "died: stopped by signal %d (%s)"
						     " before the run ended", sig, strsignal(sig)));
	if (code != 0)
		return procs_or_lost(talloc_asprintf(d->ctx, "died: exited with status %d", code));
	return NULL;
}

/*
 * Whether the parent, at a real-time priority (sampler_priority_raise()),
 * went down to the ordinary one to reap a child (with `block`, whatever
 * there is; else only when one has exited): *was keeps what to go back
 * to.  The kernel's release of a process walks its /proc entries and,
 * where an exiting thread of it is still taking its own away (one that
 * read /proc/thread-self, as an exact replay's streams do), waits for
 * that thread by spinning; at a real-time priority on the thread's CPU
 * it kept the thread from running until the kernel's throttling stopped
 * it, 0.95 s later (6 of 10 exact replays on one CPU, 2 of 20 on two at
 * load average 20).  Ordinary, it lets the thread finish.
 */
static bool reap_ordinary(bool block, int *was, struct sched_param *sp)
{
	siginfo_t si = { .si_pid = 0 };

	*was = sched_getscheduler(0);
	if ((*was & ~SCHED_RESET_ON_FORK) != SCHED_FIFO || sched_getparam(0, sp) != 0)
		return false;
	if (!block && (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0))
		return false;
	return sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ .sched_priority = 0 }) == 0;
}

/* Reap exited client processes and the probes; note the first that failed. */
static void reap(struct driver *d, bool block)
{
	int status;
	pid_t pid;

	while (d->procs.running > 0 && (pid = waitpid(-1, &status, block ? 0 : WNOHANG)) != 0) {
		if (pid < 0) {
			if (errno == EINTR && block)
				return;		/* let the caller look at signals */
			break;
		}
		int q = probe_of(d, pid), p = proc_of(d, pid);
		/* killed after a signal ended the run: said then, no failure */
		bool ours = d->procs.killed && (q >= 0 || p >= 0) &&
			    d->procs.killed[q >= 0 ? d->procs.nprocs + q : (unsigned)p];
		const char *problem = ours ? NULL : exit_problem(d, status);
		if (q >= 0) {
			d->procs.probe_pids[q] = 0;
			d->procs.probes_running--;
			d->procs.running--;
			check_probes(d);
			if (problem)
				procs_fail_probe(d, (unsigned)q, problem);
		}
		if (p >= 0) {
			d->procs.pids[p] = 0;
			d->procs.running--;
			unsigned first = p * d->plan->clients_per_process;
			for (unsigned c = first; problem && WIFEXITED(status) &&
			     c < d->plan->nclients && c < first + d->plan->clients_per_process; c++)
				if (stats_get(&d->stats->slot[c].state) == CLIENT_FAILED)
					fail_from_slot(d, c);
			if (problem)
				procs_fail_process(d, first, problem);
		}
		block = false;
	}
}

void procs_reap(struct driver *d, bool block)
{
	int was = SCHED_OTHER;
	struct sched_param sp = { 0 };
	bool lowered = d->procs.running > 0 && reap_ordinary(block, &was, &sp);

	reap(d, block);
	if (lowered)
		sched_setscheduler(0, was, &sp);
}

/* Look at every client's slot, and the probes', for a failure recorded
 * before its exit. */
void procs_check_slots(struct driver *d)
{
	for (unsigned i = 0; i < d->plan->nclients && !d->failure; i++) {
		if (stats_get(&d->stats->slot[i].state) == CLIENT_FAILED)
			fail_from_slot(d, i);
	}
	check_probes(d);
}

/* Wait until every client, and every probe, is set up and waiting for the
 * start. */
bool procs_wait_ready(struct driver *d, void (*each_second)(struct driver *d, unsigned ready),
		      void (*look)(struct driver *d))
{
	uint64_t next_look = monotonic_ns() + 1000000000u;
	bool first = d->plan->output_format == OUTPUT_DBENCH4;

	for (;;) {
		procs_reap(d, false);
		procs_check_slots(d);
		if (d->failure || interrupted ||
		    d->procs.running < d->procs.nprocs + d->plan->nprobes)
			return false;
		unsigned ready = ready_clients(d), probes = 0;
		for (unsigned i = 0; i < d->plan->nprobes; i++)
			probes += stats_get(&d->stats->probe[i].state) == CLIENT_READY;
		if (ready + probes == d->plan->nclients + d->plan->nprobes)
			return true;
		if (first && each_second)
			each_second(d, ready);
		first = false;
		if (monotonic_ns() >= next_look) {	/* one held stopped? */
			look(d);
			if (each_second)
				each_second(d, ready);
			next_look += 1000000000u;
		}
		monotonic_sleep_until(monotonic_ns() + 10000000u);
	}
}

/* A second SIGINT: stop waiting for the clients' cleanup. */
void procs_abandon(struct driver *d)
{
	d->procs.abandoned = true;
	for (unsigned p = 0; p < d->procs.nprocs; p++)
		if (d->procs.pids[p])
			kill(d->procs.pids[p], SIGKILL);
	for (unsigned i = 0; d->procs.probe_pids && i < d->plan->nprobes; i++)
		if (d->procs.probe_pids[i])
			kill(d->procs.probe_pids[i], SIGKILL);
}

/* Whether a signal ended the run that ended at end_ns (rather than
 * coming after its end, while the clients cleaned up). */
bool procs_signal_ended(uint64_t end_ns)
{
	return interrupted && end_ns && interrupt_ns <= end_ns;
}

unsigned procs_interrupts(void)
{
	return interrupted;
}

int procs_interrupt_signal(void)
{
	return interrupt_signal;
}
