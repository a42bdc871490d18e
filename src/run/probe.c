/*
 * probe.c - the --probe process (see probe.h): making and removing the
 * default probe directory, the once-a-second listing, and its timing
 * (which the testing aid DBENCH_TEST_PROBE_DELAY_US lengthens).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "localdir.h"
#include "run/client.h"
#include "opclock.h"
#include "probe.h"

#define PROBE_NAME PROBE_OWN_DIR
#define NS_PER_S 1000000000ull

struct probe {
	struct stats_region *stats;
	struct probe_slot *slot;
	int clients_dirfd;		/* DIR/clients of the first target, or -1 */
	const struct backend *b;	/* ... and when -1, the backend whose */
	struct backend_lister *l;	/* lister makes and lists our directory */
	bool own_dir;			/* the default directory: ours to make and remove */
	const char *dir;		/* what is listed, as a path for messages */
	uint64_t delay_ns;		/* DBENCH_TEST_PROBE_DELAY_US: added to each listing */
};

/* The run stopped, or the execute window's planned end passed (the
 * parent may be late to say so: no listing beyond it). */
static bool stopping(const struct probe *p)
{
	return client_stop_requested() || stats_get(&p->stats->ctl.phase) == PHASE_STOP ||
	       stats_window_over(p->stats, monotonic_ns());
}

/* Describe the failure in the slot, for the parent to report; false. */
static bool fail(struct probe *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->slot->failure, sizeof(p->slot->failure), fmt, ap);
	va_end(ap);
	stats_set(&p->slot->state, CLIENT_FAILED);
	return false;
}

static void file_name(char name[16], unsigned i)
{
	snprintf(name, 16, "file%04u", i);
}

int probe_check_directory(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Make DIR/clients/probe and its files, or take over one that an earlier
 * run left (--skip-cleanup): a real directory, whose files of our names
 * are regular files.  A symbolic link anywhere is refused, never
 * followed. */
static bool make_directory(struct probe *p)
{
	if (p->l) {
		int err = p->b->lister_make(p->l, PROBE_FILES, file_name);
		return err == 0 || fail(p, "setup: cannot create '%s' and its files: %s", p->dir,
					strerror(err));
	}
	if (mkdirat(p->clients_dirfd, PROBE_NAME, 0755) < 0 && errno != EEXIST)
		return fail(p, "setup: cannot create directory '%s': %s", p->dir, strerror(errno));
	int fd = openat(p->clients_dirfd, PROBE_NAME,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(p, "setup: cannot use directory '%s': %s", p->dir,
			    localdir_strerror_at(p->clients_dirfd, PROBE_NAME, errno));
	bool ok = true;
	for (unsigned i = 0; ok && i < PROBE_FILES; i++) {
		char name[16];
		struct stat st;
		file_name(name, i);
		int f = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		int err = errno;
		if (f >= 0)
			close(f);
		else if (err != EEXIST || fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
			 !S_ISREG(st.st_mode))
			ok = fail(p, "setup: cannot create '%s/%s': %s", p->dir, name, strerror(err));
	}
	close(fd);
	return ok;
}

int probe_remove_directory(int clients_dirfd)
{
	int fd = openat(clients_dirfd, PROBE_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno == ENOENT || errno == ELOOP || errno == ENOTDIR ? 0 : errno;
	for (unsigned i = 0; i < PROBE_FILES; i++) {
		char name[16];
		file_name(name, i);
		if (unlinkat(fd, name, 0) != 0 && errno != ENOENT && !err)
			err = errno;
	}
	close(fd);
	if (unlinkat(clients_dirfd, PROBE_NAME, AT_REMOVEDIR) != 0 && errno != ENOENT && !err)
		err = errno;
	return err;
}

/* Open the directory as `ls` would: by its path for --probe=DIR (the
 * lookup is part of what a user waits for), beneath DIR/clients without
 * following a link for our own. */
static DIR *open_listing(const struct probe *p)
{
	int fd = p->own_dir ? openat(p->clients_dirfd, PROBE_NAME,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			    : open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && !d) {
		int err = errno;
		close(fd);
		errno = err;
	}
	return d;
}

/* One listing: every name but . and .., each lstat()ed (a name that goes
 * away in between is no error: the directory is not ours to hold still).
 * Sets *entries to the names read; false after fail(). */
static bool list_once(struct probe *p, uint64_t *entries)
{
	if (p->l) {
		int err = p->b->lister_list(p->l, entries);
		return err == 0 || fail(p, "cannot list '%s': %s", p->dir, strerror(err));
	}
	DIR *d = open_listing(p);
	struct dirent *e;
	struct stat st;
	uint64_t n = 0;

	if (!d)
		return fail(p, "cannot list '%s': %s", p->dir, strerror(errno));
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno != ENOENT) {
			fail(p, "cannot stat '%s/%s': %s", p->dir, e->d_name, strerror(errno));
			closedir(d);
			return false;
		}
	}
	int err = errno;
	closedir(d);
	if (err)
		return fail(p, "cannot list '%s': %s", p->dir, strerror(err));
	*entries = n;
	if (p->delay_ns) {	/* a testing aid: a listing as slow as asked */
		struct timespec ts = { p->delay_ns / NS_PER_S, p->delay_ns % NS_PER_S };
		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR && !stopping(p))
			;
	}
	return true;
}

/* Sleep until `deadline`, looking at the phase at least every 100 ms;
 * false as soon as the run stops. */
static bool wait_until(const struct probe *p, uint64_t deadline)
{
	for (;;) {
		if (stopping(p))
			return false;
		uint64_t now = monotonic_ns();
		if (now >= deadline)
			return true;
		uint64_t until = deadline - now > NS_PER_S / 10 ? now + NS_PER_S / 10 : deadline;
		struct timespec ts = { until / NS_PER_S, until % NS_PER_S };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* List half a second into every second from the start, or at once when
 * the last listing ran past the next such moment, until the run stops.
 * A listing counts in the phase it started in. */
static bool run_listings(struct probe *p)
{
	uint64_t base = monotonic_ns() + NS_PER_S / 2, next = base;

	while (wait_until(p, next)) {
		uint64_t entries = 0, t0 = monotonic_ns();
		enum phase ph = client_stop_requested() ? PHASE_STOP : stats_phase_at(p->stats, t0);
		if (!list_once(p, &entries))
			return false;
		uint64_t t1 = monotonic_ns();
		stats_record_listing(p->slot, ph, stats_phase_at(p->stats, t1),
				     entries, t1 - t0, stats_get(&p->stats->ctl.tick));
		next = base + ((t0 - base) / NS_PER_S + 1) * NS_PER_S;
	}
	return true;
}

int probe_remove_remote(const struct backend *b, struct backend_target *t)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char *err = NULL;
	struct backend_lister *l = b->lister_open(tmp, t, PROBE_NAME, &err);
	int e = l ? b->lister_remove(l) : EIO;

	talloc_free(tmp);
	return e == ENOENT ? 0 : e;
}

/* The backend's session for our directory on a target that is not local. */
static bool open_lister(struct probe *p, TALLOC_CTX *ctx, struct backend_target *target)
{
	char *err = NULL;

	if (!(p->l = p->b->lister_open(ctx, target, PROBE_NAME, &err)))
		return fail(p, "setup: %s", err ? err : "out of memory");
	return true;
}

int probe_process_main(const struct run_plan *plan, struct stats_region *stats, unsigned i,
		       int clients_dirfd, struct backend_target *target, int start_fd)
{
	TALLOC_CTX *ctx = talloc_new(NULL);
	struct probe p = {
		.stats = stats, .slot = &stats->probe[i],
		.clients_dirfd = clients_dirfd, .own_dir = plan->own_probe == (int)i,
		.dir = plan->probe_dirs[i], .b = plan->backend,
	};
	bool ok;

	const char *delay = getenv("DBENCH_TEST_PROBE_DELAY_US");
	p.delay_ns = delay ? strtoull(delay, NULL, 10) * 1000 : 0;
	/* Named, so that ps and pgrep tell it from the clients. */
	prctl(PR_SET_NAME, "dbench-probe");
	client_watch_parent();
	ok = !p.own_dir || clients_dirfd >= 0 || open_lister(&p, ctx, target);
	ok = ok && (!p.own_dir || make_directory(&p));
	if (ok) {
		stats_set(&p.slot->state, CLIENT_READY);
		client_wait_for_start(start_fd);
		stats_set(&p.slot->state, CLIENT_RUNNING);
		ok = run_listings(&p);
	}
	if (ok)
		stats_set(&p.slot->state, CLIENT_CLEANUP);
	if (!p.own_dir || (!plan->skip_cleanup &&
			   (p.l ? p.b->lister_remove(p.l) : probe_remove_directory(clients_dirfd)) == 0))
		stats_set(&p.slot->cleaned, 1);
	client_close_if_last(plan, stats, &target, 1);	/* its directory is in the first */
	if (ok)
		stats_set(&p.slot->state, CLIENT_DONE);
	talloc_free(ctx);
	return client_exit_status(stats, ok);
}
