/*
 * targets.c - the run's targets through its backend (backend.h): each
 * opened in the parent before any fork (a target that cannot be used
 * stops the run with exit 2), described for the environment record, the
 * files of clients that died removed from the parent, and the clients
 * directories closed at the end (the same opening, closed again at once,
 * is how a series checks its targets before its first run: driver.c's
 * driver_check_start()).  Knows nothing of how a backend reaches its
 * storage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progname.h"
#include "run/driver_internal.h"
#include "probe.h"

/*
 * Open each target (plan->dirs) through the backend, which checks it and
 * makes its clients directory; the first that cannot be used stops the
 * run before anything is forked.
 */
bool targets_open(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	d->targets = talloc_zero_array(d->ctx, struct backend_target *, plan->ndirs);
	for (unsigned i = 0; d->targets && i < plan->ndirs; i++) {
		char *err = NULL;
		d->targets[i] = plan->backend->target_open(d->ctx, plan->dirs[i], &plan->bopts,
							   &err);
		if (!d->targets[i]) {
			say("%s\n", err ? err : "out of memory");
			return false;
		}
	}
	return d->targets != NULL;
}

/* What the initial state takes on one file system, the targets on it
 * added up, and the room it has. */
struct fs_need {
	struct backend_space room;
	const char *dir;	/* the first target on it, for the message */
	unsigned clients;
	uint64_t bytes, inodes;
};

/* a + b and a * b, at most UINT64_MAX */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Add target t's clients' copies of the initial state to the need of
 * its file system among g[0..*ng). */
static void add_need(struct driver *d, unsigned t, struct fs_need *g, unsigned *ng)
{
	const struct run_plan *plan = d->plan;
	unsigned clients = plan->nclients / plan->ndirs + (t < plan->nclients % plan->ndirs);
	struct backend_space room;
	uint64_t bytes, inodes;
	unsigned k = 0;

	if (!clients || plan->backend->target_space(d->targets[t], &room) != 0)
		return;		/* nothing made there, or nothing known */
	while (k < *ng && g[k].room.fs != room.fs)
		k++;
	if (k == *ng)
		g[(*ng)++] = (struct fs_need){ .room = room, .dir = plan->dirs[t] };
	loadfile_init_need(plan->prog, g[k].room.block, &bytes, &inodes);
	g[k].clients += clients;
	g[k].bytes = sat_add(g[k].bytes, sat_mul(bytes, clients));
	g[k].inodes = sat_add(g[k].inodes, sat_mul(inodes, clients));
}

/* "no room in 'DIR' for the initial state: 4 clients need 400.00 GB in 8
 * inodes, its file system has 67.1 MB and 16377 inodes free ..." */
static void say_no_room(const struct fs_need *n)
{
	char need[32], room[32], inodes[48] = "";

	if (n->room.inodes_known)
		snprintf(inodes, sizeof(inodes), " and %" PRIu64 " inodes", n->room.inodes);
	say("no room in '%s' for the initial state: %u client%s %s %s in %" PRIu64 " inodes,"
	    " its file system has %s%s free (--force tries anyway)\n", n->dir, n->clients,
	    n->clients == 1 ? "" : "s", n->clients == 1 ? "needs" : "need",
	    report_size_text(need, (double)n->bytes), n->inodes,
	    report_size_text(room, (double)n->room.bytes), inodes);
}

/*
 * A recording's initial state, one copy a client, fits in the room its
 * targets' file systems have (targets on one file system add up),
 * before any client makes it: false, having said the figures, when it
 * cannot.  --force tries anyway; a backend that cannot say its room is
 * not asked.
 */
bool targets_fit(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	unsigned ng = 0;

	if (!plan->prog->ninit || !plan->backend->target_space || plan->bopts.force)
		return true;
	struct fs_need *g = talloc_zero_array(d->ctx, struct fs_need, plan->ndirs);
	for (unsigned t = 0; g && t < plan->ndirs; t++)
		add_need(d, t, g, &ng);
	for (unsigned k = 0; k < ng; k++) {
		const struct fs_need *n = &g[k];
		bool space = n->bytes > n->room.bytes;
		if (!space && !(n->room.inodes_known && n->inodes > n->room.inodes))
			continue;
		say_no_room(n);
		talloc_free(g);
		return false;
	}
	talloc_free(g);
	return true;
}

/* What the backend says of each target for the environment record, or
 * NULL when it says nothing (local directories: env looks at the mount). */
struct env_facts *targets_describe(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	struct env_facts *facts;

	if (!plan->backend->target_describe ||
	    !(facts = talloc_zero_array(d->ctx, struct env_facts, plan->ndirs)))
		return NULL;
	for (unsigned i = 0; i < plan->ndirs; i++) {
		struct dockey_value *v = talloc_array(facts, struct dockey_value,
						      BACKEND_MAX_FACTS);
		facts[i] = (struct env_facts){
			v, v ? plan->backend->target_describe(d->targets[i], v) : 0 };
	}
	return facts;
}

/* The descriptor of the first target's clients directory, where a bare
 * --probe makes its directory; -1 when the target is not local (main has
 * refused a bare --probe then). */
int targets_probe_fd(const struct driver *d)
{
	const struct backend *b = d->plan->backend;

	return b->local_clients_fd ? b->local_clients_fd(d->targets[0]) : -1;
}

/* Whether a process of target `dir` was killed after a signal, not having
 * stopped (procs.c notes it): the parent leaves the target alone, for
 * what held the process would hold the parent too. */
static bool killed_on(const struct driver *d, unsigned dir)
{
	return d->procs.left && d->procs.left[dir];
}

/* Whether the parent leaves target `dir` as it is: a process of it was
 * killed after a signal, or the removal of leftovers could not reach it. */
static bool left_alone(const struct driver *d, unsigned dir)
{
	return killed_on(d, dir) || (d->unreachable && d->unreachable[dir]);
}

/* Client i's files are left in its target: said once (`why` after the
 * target's clients directory), counted for the exit status. */
static void say_left(struct driver *d, unsigned i, const char *why)
{
	const struct run_plan *plan = d->plan;

	if (!d->left_said)
		d->left_said = talloc_zero_array(d->ctx, bool, plan->nclients);
	if (d->left_said && d->left_said[i])
		return;
	if (d->left_said)
		d->left_said[i] = true;
	d->files_left++;
	say("files of client %u are left in %s/clients%s%s\n", i + 1, plan->dirs[i % plan->ndirs],
	    why ? ": " : "", why ? why : "");
}

/* Whether anything of client i is in its local target: its directory
 * (gone when the target was removed during the run).  True for a target
 * that is not local, which only its backend can look at. */
static bool client_files_there(const struct driver *d, unsigned i)
{
	const struct run_plan *plan = d->plan;
	struct stat st;
	char name[64];

	if (!plan->backend->local_clients_fd)
		return true;
	backend_client_name(name, sizeof(name), &plan->bopts, i + 1);
	return fstatat(plan->backend->local_clients_fd(d->targets[i % plan->ndirs]), name, &st,
		       AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/* Remove what client i left through its backend, which readies nothing
 * for it (client_new() makes no initial state): said when it cannot. */
static void remove_client(struct driver *d, unsigned i)
{
	const struct run_plan *plan = d->plan;
	unsigned t = i % plan->ndirs;
	TALLOC_CTX *tmp = talloc_new(d->ctx);
	char *err = NULL;
	struct backend_client *bc = plan->backend->client_new(
		tmp, d->targets[t], i + 1, plan->prog, &plan->bopts, NULL,
		&err);	/* it removes: nothing to verify */
	int e = 0;

	if (!bc) {
		say_left(d, i, err ? err : "out of memory");
		if (d->unreachable)
			d->unreachable[t] = true;
	} else if ((e = plan->backend->cleanup(bc)) != 0) {
		const char *detail = plan->backend->failure_detail
					     ? plan->backend->failure_detail(bc) : NULL;
		say_left(d, i, detail ? detail : strerror(e));
	}
	talloc_free(tmp);
}

/*
 * Remove what clients that died (or were killed by a second SIGINT) left
 * behind: the backend's own cleanup, run from the parent (none for a
 * backend that stores nothing), where something is there.  A target the
 * parent cannot reach (its server not answering: each try would wait the
 * backend's timeout) is given up at the first client that cannot be set
 * up, with a line saying why, and the rest of its clients' files are
 * said to be left.
 */
void targets_clean_leftovers(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	/* clients of processes never forked (a signal or a failed fork
	 * stopped the forking) made nothing */
	unsigned forked = d->procs.nprocs * plan->clients_per_process;

	if (plan->backend->cleanup && !d->unreachable)
		d->unreachable = talloc_zero_array(d->ctx, bool, plan->ndirs);
	for (unsigned i = 0; plan->backend->cleanup && i < plan->nclients && i < forked; i++) {
		unsigned t = i % plan->ndirs;
		if (stats_get(&d->stats->slot[i].cleaned))
			continue;
		if (killed_on(d, t))
			say_left(d, i, "its process did not stop after the signal");
		else if (left_alone(d, t))
			say_left(d, i, NULL);
		else if (client_files_there(d, i))
			remove_client(d, i);
	}
	for (unsigned i = 0; i < plan->nprobes; i++) {	/* the bare --probe's own */
		if (plan->own_probe != (int)i || stats_get(&d->stats->probe[i].cleaned))
			continue;
		if ((targets_probe_fd(d) >= 0
			     ? probe_remove_directory(targets_probe_fd(d))
			     : probe_remove_remote(plan->backend, d->targets[0])) != 0) {
			say("files of the probe are left in %s\n",
				plan->probe_dirs[i]);
			d->files_left++;
		}
	}
}

/*
 * Under MPI, before waiting for the other ranks: remove the empty
 * directories this process's clients left in a local target, and
 * DIR/clients if nothing else is left in it.  A parent may not live
 * through that wait: mpirun follows its SIGTERM with a SIGKILL a second
 * later, and once its clients are gone nobody else would.  Only its own
 * are removed here: another rank's client may have emptied its directory
 * for a moment mid-run; targets_close() takes those after the wait.
 */
void targets_close_own(struct driver *d)
{
	const struct run_plan *plan = d->plan;
	unsigned forked = d->procs.nprocs * plan->clients_per_process;

	if (plan->skip_cleanup || !plan->backend->local_clients_fd || !d->targets)
		return;
	for (unsigned i = 0; i < plan->nclients && i < forked; i++) {
		unsigned t = i % plan->ndirs;
		char name[64];

		if (!d->targets[t] || killed_on(d, t))
			continue;
		backend_client_name(name, sizeof(name), &plan->bopts, i + 1);
		unlinkat(plan->backend->local_clients_fd(d->targets[t]), name, AT_REMOVEDIR);
	}
	for (unsigned t = 0; t < plan->ndirs; t++) {
		int up = d->targets[t] && !killed_on(d, t)
				 ? openat(plan->backend->local_clients_fd(d->targets[t]), "..",
					  O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (up >= 0) {
			unlinkat(up, "clients", AT_REMOVEDIR);	/* fails while others remain */
			close(up);
		}
	}
}

/* A local target closed: each of this process's clients whose
 * directory is still there, though its cleanup said it was emptied (the
 * directory itself could not be removed), is said to be left, with why. */
static void say_dirs_left(struct driver *d, unsigned t)
{
	const struct run_plan *plan = d->plan;
	unsigned forked = d->procs.nprocs * plan->clients_per_process;
	int fd = plan->backend->local_clients_fd(d->targets[t]);
	char name[64];

	for (unsigned i = t; i < plan->nclients && i < forked; i += plan->ndirs) {
		if (d->left_said && d->left_said[i])
			continue;
		backend_client_name(name, sizeof(name), &plan->bopts, i + 1);
		if (unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			continue;
		char *why = talloc_asprintf(d->ctx, "%s: %s", name, strerror(errno));
		say_left(d, i, why ? why : name);
		talloc_free(why);
	}
}

/* Remove DIR/clients where the clients left it empty, once: the targets
 * are not closed again.  A local target whose leftovers could not all be
 * reached (a link planted at a client's directory) still has the empty
 * directories of the clients that cleaned up removed: that reaches no
 * server and removes nothing else (localdir_close()).  What of this
 * run's is still in a local target is said (say_dirs_left()). */
void targets_close(struct driver *d)
{
	bool local = d->plan->backend->local_clients_fd != NULL;

	for (unsigned i = 0; d->targets && i < d->plan->ndirs; i++) {
		/* its files are, said so */
		bool left = local ? killed_on(d, i) : left_alone(d, i);
		int err = d->targets[i] && !left ? d->plan->backend->target_close(d->targets[i]) : 0;
		if (err)
			say("cannot remove '%s/clients': %s\n",
				d->plan->dirs[i], strerror(err));
		if (local && d->targets[i] && !left && !d->plan->skip_cleanup)
			say_dirs_left(d, i);
	}
	d->targets = NULL;
}
