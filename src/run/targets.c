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
#include <stdio.h>
#include <string.h>

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

/* Remove what clients that died (or were killed by a second SIGINT) left
 * behind: the backend's own cleanup, run from the parent. */
void targets_clean_leftovers(struct driver *d)
{
	const struct run_plan *plan = d->plan;

	/* clients of processes never forked (a signal or a failed fork
	 * stopped the forking) made nothing */
	unsigned forked = d->procs.nprocs * plan->clients_per_process;

	for (unsigned i = 0; i < plan->nclients && i < forked; i++) {
		if (stats_get(&d->stats->slot[i].cleaned))
			continue;
		TALLOC_CTX *tmp = talloc_new(d->ctx);
		char *err = NULL;
		struct backend_client *bc = plan->backend->client_new(
			tmp, d->targets[i % plan->ndirs], i + 1, plan->prog,
			&plan->bopts, NULL, &err);	/* it removes: nothing to verify */
		if (bc && plan->backend->cleanup(bc) != 0)
			say("files of client %u are left in %s/clients\n",
				i + 1, plan->dirs[i % plan->ndirs]);
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

/* Remove DIR/clients where the clients left it empty, once: the targets
 * are not closed again. */
void targets_close(struct driver *d)
{
	for (unsigned i = 0; d->targets && i < d->plan->ndirs; i++) {
		int err = d->targets[i] ? d->plan->backend->target_close(d->targets[i]) : 0;
		if (err)
			say("cannot remove '%s/clients': %s\n",
				d->plan->dirs[i], strerror(err));
	}
	d->targets = NULL;
}
