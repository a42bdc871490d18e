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
#include <stdio.h>
#include <string.h>
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

/* What the backend says of each target for the environment record, or
 * NULL when it says nothing (local directories: env looks at the mount). */
json_t **targets_describe(struct driver *d)
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

/*
 * Remove what clients that died (or were killed by a second SIGINT) left
 * behind: the backend's own cleanup, run from the parent (none for a
 * backend that stores nothing).  A target the parent cannot reach (its
 * server not answering: each try would wait the backend's timeout) is
 * given up at the first client that cannot be set up, with a line saying
 * why, and the rest of its clients' files are said to be left.
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
		if (killed_on(d, t)) {
			say("files of client %u are left in %s/clients: its process did not stop"
			    " after the signal\n", i + 1, plan->dirs[t]);
			continue;
		}
		if (left_alone(d, t)) {
			say("files of client %u are left in %s/clients\n", i + 1, plan->dirs[t]);
			continue;
		}
		TALLOC_CTX *tmp = talloc_new(d->ctx);
		char *err = NULL;
		struct backend_client *bc = plan->backend->client_new(
			tmp, d->targets[t], i + 1, plan->prog, &plan->bopts, NULL,
			&err);	/* it removes: nothing to verify */
		if (!bc) {
			say("files of client %u are left in %s/clients: %s\n", i + 1,
			    plan->dirs[t], err ? err : "out of memory");
			if (d->unreachable)
				d->unreachable[t] = true;
		} else if (plan->backend->cleanup(bc) != 0) {
			say("files of client %u are left in %s/clients\n", i + 1, plan->dirs[t]);
		}
		talloc_free(tmp);
	}
	for (unsigned i = 0; i < plan->nprobes; i++) {	/* the bare --probe's own */
		if (plan->own_probe != (int)i || stats_get(&d->stats->probe[i].cleaned))
			continue;
		if ((targets_probe_fd(d) >= 0
			     ? probe_remove_directory(targets_probe_fd(d))
			     : probe_remove_remote(plan->backend, d->targets[0])) != 0)
			say("files of the probe are left in %s\n",
				plan->probe_dirs[i]);
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

/* Remove DIR/clients where the clients left it empty, once: the targets
 * are not closed again.  A local target whose leftovers could not all be
 * reached (a link planted at a client's directory) still has the empty
 * directories of the clients that cleaned up removed: that reaches no
 * server and removes nothing else (localdir_close()). */
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
	}
	d->targets = NULL;
}
