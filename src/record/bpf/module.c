/*
 * module.c - the bpf tracer's module (module.h): the BPF program
 * loaded, attached and drained with libbpf.
 *
 * Owns the skeleton, the command held until it is traced, the signals
 * while tracing and the end of the tracing; knows nothing of what the
 * events mean (the binary's sink does).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record/bpf/module.h"
#include "record.btf.h"
#include "record.skel.h"

/* libbpf's last message, for the error of a load that failed. */
static char last_said[512];

static int keep_message(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	buf[strcspn(buf, "\n")] = '\0';
	if (*buf)
		snprintf(last_said, sizeof(last_said), "%s", buf);
	return 0;
}

/* The BTF the program's CO-RE relocations are resolved against: the one
 * cut to them at build time (record.btf.h), when this is the kernel it was
 * cut from (its release, version and BTF size), as a path to a memfd that
 * holds it (the descriptor returned, to close after loading); else -1:
 * libbpf reads the kernel's own (5 MB, 1,341 reads of sysfs, parsed: 40 %
 * of a recording's fixed CPU). */
static int own_btf(char *path, size_t n)
{
	struct utsname u;
	struct stat st;

	if (uname(&u) != 0 || strcmp(u.release, record_btf_release) != 0 ||
	    strcmp(u.version, record_btf_version) != 0 || stat("/sys/kernel/btf/vmlinux", &st) != 0 ||
	    st.st_size != record_btf_kernel_size)
		return -1;
	int fd = memfd_create("dbench-record-btf", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(path, n, "/proc/self/fd/%d", fd);
	if (write(fd, record_btf, sizeof(record_btf)) != (ssize_t)sizeof(record_btf) ||
	    access(path, R_OK) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The skeleton opened, sized and loaded: NULL with *err saying why. */
static struct record_bpf *load(TALLOC_CTX *mem_ctx, const struct record_bpf_job *job, char **err)
{
	size_t ring_bytes = job->ring_bytes;
	char path[64];
	int btf = own_btf(path, sizeof(path));
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf >= 0 ? path : NULL);

	libbpf_set_print(keep_message);
	last_said[0] = '\0';
	struct record_bpf *s = record_bpf__open_opts(&opts);
	int rc = s ? 0 : -errno;

	if (s && ring_bytes) {
		rc = bpf_map__set_max_entries(s->maps.events, (__u32)ring_bytes);
		s->rodata->wake_bytes = ring_bytes / 4;
	}
	if (s && !rc && job->traced_max)
		rc = bpf_map__set_max_entries(s->maps.traced, job->traced_max);
	if (s) {
		s->rodata->nr_execve = SYS_execve;
		s->rodata->nr_execveat = SYS_execveat;
	}
	if (!rc && s)
		rc = record_bpf__load(s);
	if (btf >= 0)
		close(btf);
	if (!rc && s)
		rc = record_bpf__attach(s);
	if (s && !rc)
		return s;
	*err = talloc_asprintf(mem_ctx, "the bpf tracer's programs cannot be loaded here: %s%s%s",
			       strerror(rc < 0 ? -rc : EINVAL), *last_said ? ": " : "", last_said);
	record_bpf__destroy(s);
	return NULL;
}

static int fill_wanted(struct record_bpf *s, const struct rec_want *wanted)
{
	for (__u32 nr = 0; nr < REC_NR_MAX; nr++)
		if (wanted[nr].on &&
		    bpf_map__update_elem(s->maps.wanted, &nr, sizeof(nr), &wanted[nr], sizeof(wanted[nr]), 0))
			return -1;
	return 0;
}

/* Trace the thread group pid: from now on, or (the command held) from
 * its execve on, so that the hold's own calls are not the command's. */
static int trace_tgid(struct record_bpf *s, int pid, bool at_exec)
{
	__u32 key = (__u32)pid;
	__u8 how = at_exec ? 2 : 1;	/* record.bpf.c's TRACED_AT_EXEC, TRACED */

	return bpf_map__update_elem(s->maps.traced, &key, sizeof(key), &how, sizeof(how), BPF_ANY);
}

static bool none_traced(struct record_bpf *s)
{
	__u32 key;

	return bpf_map__get_next_key(s->maps.traced, NULL, &key, sizeof(key)) != 0;
}

static volatile sig_atomic_t got_signal;
static struct sigaction saved[6];	/* the dispositions before tracing */
static volatile sig_atomic_t command_pid;

static void on_stop(int sig)
{
	got_signal = sig;
}

/* SIGCHLD only interrupts the wait for events, so that the command's end
 * is seen at once rather than at the next poll. */
static void on_child(int sig)
{
	(void)sig;
}

static void pass_on(int sig)
{
	if (command_pid > 0)
		kill((pid_t)command_pid, sig);
}

struct drain {
	const struct record_bpf_job *job;
	char *err;
	bool failed;
};

static int on_event(void *ctx, void *data, size_t size)
{
	struct drain *d = ctx;

	if (d->failed)
		return 0;
	if (d->job->sink(d->job->ctx, data, size, &d->err) != 0)
		d->failed = true;
	return 0;
}

static void restore_signals(const struct sigaction old[6]);

/* The command forked, held on a pipe until it is traced: its pid, and
 * the pipe's write end in *go (closing it unwritten ends the child). */
static pid_t hold_command(const struct record_bpf_job *job, int *go)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		restore_signals(saved);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execv(job->path, job->argv);
		fprintf(stderr, "cannot run '%s': %s\n", job->path, strerror(errno));
		_exit(127);
	}
	close(p[0]);
	if (pid < 0)
		close(p[1]);
	*go = p[1];
	return pid;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The signals that end or shorten the wait for events (set_signals()),
 * blocked from before the command is let go (or -p's processes taken)
 * but while the drain loop waits: one that came since the last wait (the
 * command's end, SIGCHLD, before the loop or between its check and its
 * wait) ends the next at once rather than after its 100 ms.  With a plain
 * wait, a third of the recordings of `touch` at a load of 13 waited out
 * those 100 ms.  *old: the mask before; *waiting: the mask in the wait. */
static void block_signals(sigset_t *old, sigset_t *waiting)
{
	static const int sigs[4] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP };
	sigset_t mine;

	sigemptyset(&mine);
	for (int i = 0; i < 4; i++)
		sigaddset(&mine, sigs[i]);
	sigprocmask(SIG_BLOCK, &mine, old);
	*waiting = *old;
	for (int i = 0; i < 4; i++)
		sigdelset(waiting, sigs[i]);
}

/* The wait for the kernel side's wake-ups: edge-triggered, so that the
 * recorder sleeps once it has drained until the next wake-up (a quarter
 * of the buffer) or its clock, rather than returning at once whenever an
 * event came since (libbpf's own descriptor is level-triggered: a
 * service's recorder drained in small batches, 1,000 times a second).
 * -1: libbpf's, when this one cannot be made. */
static int edge_epoll(struct record_bpf *s)
{
	int fd = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };

	if (fd >= 0 && epoll_ctl(fd, EPOLL_CTL_ADD, bpf_map__fd(s->maps.events), &ev) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Drain until the command and every process it started are gone, or
 * (record -p) until the time is up, a signal came or they are gone;
 * waiting: the signal mask while it waits (block_signals()). */
static void drain_loop(struct record_bpf *s, struct ring_buffer *rb, const struct record_bpf_job *job,
		       pid_t child, const sigset_t *waiting, int *status)
{
	double end = job->duration > 0 ? now_s() + job->duration : 0;
	bool reaped = child <= 0;
	int own = edge_epoll(s), epfd = own >= 0 ? own : ring_buffer__epoll_fd(rb);

	for (;;) {
		struct epoll_event ev;
		epoll_pwait(epfd, &ev, 1, 100, waiting);
		ring_buffer__consume(rb);
		if (!reaped) {
			int st;
			pid_t r = waitpid(child, &st, WNOHANG);
			if (r == child) {
				reaped = true;
				*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				command_pid = 0;
			}
		}
		if (child <= 0 && (got_signal || (end > 0 && now_s() >= end)))
			break;
		if (reaped && none_traced(s))
			break;
	}
	ring_buffer__consume(rb);
	if (own >= 0)
		close(own);
}

static void read_counts(struct record_bpf *s, uint64_t *out)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *v = ncpu > 0 ? calloc((size_t)ncpu, sizeof(*v)) : NULL;

	for (__u32 k = 0; v && k < RC_NCOUNTS; k++) {
		if (bpf_map__lookup_elem(s->maps.counts, &k, sizeof(k), v, (size_t)ncpu * sizeof(*v), 0))
			continue;
		for (int c = 0; c < ncpu; c++)
			out[k] += v[c];
	}
	free(v);
}

/* The signals while tracing: record -- CMD lets the terminal's SIGINT and
 * SIGQUIT reach the command alone and passes SIGTERM and SIGHUP on;
 * record -p stops at SIGINT, SIGTERM or SIGHUP; SIGCHLD wakes the wait;
 * SIGPIPE is ignored (the held command may die before it is released). */
static void set_signals(bool command, struct sigaction old[6])
{
	static const int sigs[4] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	struct sigaction ign = { .sa_handler = SIG_IGN }, pass = { .sa_handler = pass_on },
			 stop = { .sa_handler = on_stop }, child = { .sa_handler = on_child };

	got_signal = 0;
	for (int i = 0; i < 4; i++) {
		const struct sigaction *a = command ? (i < 2 ? &ign : &pass) : (i == 1 ? &ign : &stop);
		sigaction(sigs[i], a, &old[i]);
	}
	sigaction(SIGCHLD, &child, &old[4]);
	sigaction(SIGPIPE, &ign, &old[5]);
}

static void restore_signals(const struct sigaction old[6])
{
	static const int sigs[6] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE };

	for (int i = 0; i < 6; i++)
		sigaction(sigs[i], &old[i], NULL);
}

/* Start what the job traces: the command held (pid child, released by
 * writing to go, which is closed) or the processes named.  0, or -1 with
 * *err. */
static int start(TALLOC_CTX *mem_ctx, struct record_bpf *s, const struct record_bpf_job *job,
		 pid_t child, int go, char **err)
{
	if (job->argv) {
		int rc = trace_tgid(s, child, true);
		if (rc == 0 && write(go, "g", 1) != 1)
			rc = -errno;	/* EPIPE: the command died held (SIGPIPE is ignored) */
		close(go);
		if (rc) {
			*err = talloc_asprintf(mem_ctx, "cannot trace '%s': %s", job->path, strerror(-rc));
			return -1;
		}
		return 0;
	}
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	int64_t before = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
	for (size_t i = 0; i < job->npids; i++)
		if (trace_tgid(s, job->pids[i], false)) {
			*err = talloc_asprintf(mem_ctx, "cannot trace process %d: %s", job->pids[i],
					       strerror(errno));
			return -1;
		}
	return job->attached && job->attached(job->ctx, before, err) ? -1 : 0;
}

/* The command forked and held before anything is loaded: a fork after
 * would copy the page tables of the ring buffer's mappings (twice its
 * size, every page mapped at once), and the child would unmap them at its
 * execve; with a 32 MiB buffer that was a fifth of a recording's fixed
 * CPU. */
static int bpf_run(TALLOC_CTX *mem_ctx, const struct record_bpf_job *job,
		   struct record_bpf_result *out, char **err)
{
	struct drain d = { .job = job };
	struct record_bpf *s = NULL;
	struct ring_buffer *rb = NULL;
	pid_t child = 0;
	int go = -1, rc = -1;
	bool started = false;

	memset(out, 0, sizeof(*out));
	set_signals(job->argv != NULL, saved);
	if (job->argv && (child = hold_command(job, &go)) < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot start '%s': %s", job->path, strerror(errno));
		goto done;
	}
	command_pid = child;
	if (!(s = load(mem_ctx, job, err)))
		goto done;
	if (fill_wanted(s, job->wanted) ||
	    !(rb = ring_buffer__new(bpf_map__fd(s->maps.events), on_event, &d, NULL))) {
		*err = talloc_asprintf(mem_ctx, "the bpf tracer's maps cannot be set: %s", strerror(errno));
		goto done;
	}
	sigset_t old_mask, waiting;
	block_signals(&old_mask, &waiting);
	started = start(mem_ctx, s, job, child, go, err) == 0;
	go = -1;
	if (started) {
		drain_loop(s, rb, job, child, &waiting, &out->status);
		out->stopped_by = got_signal;
		read_counts(s, out->counts);
		rc = d.failed ? -1 : 0;
		if (d.failed)
			*err = talloc_steal(mem_ctx, d.err);
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
done:
	if (go >= 0)
		close(go);	/* the command, never released, ends (exit 127) */
	while (!started && child > 0 && waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
	command_pid = 0;
	restore_signals(saved);
	ring_buffer__free(rb);
	record_bpf__destroy(s);
	return rc;
}

const struct record_bpf_module record_bpf_module = {
	.abi = RECORD_BPF_ABI,
	.run = bpf_run,
};
