/*
 * probe.h - the --probe process: how interactive the file system stays
 * while the clients load it.
 *
 * People time `ls -l` on a big directory beside a benchmark, because a
 * change that raises throughput can make such a listing take minutes.
 * With --probe, one more process does just that while the load runs: it
 * opens a directory, reads every entry and lstat()s it, and times the
 * whole listing on the monotonic clock.  It lists once a second, half a
 * second into each second of the run (so that a listing ends inside the
 * second the timeline gives it to), or at once after a listing that
 * overran its second.  Listings that start in the execute phase go into a
 * histogram in the probe's slot of the stats region; those that started
 * in the warmup and ended in the execute phase are counted apart, with
 * the longest, as straddling operations are.  Every listing also goes
 * into the slot's per-second ring, from which the sampler takes the
 * timeline's probe_ms.
 *
 * --probe=DIR lists DIR, which is only ever read; given several times
 * (a directory on each of several file systems), it makes a probe process
 * for each directory, each with its own slot and its own Probe line.  A
 * bare --probe (at most once) lists a
 * directory made for the run, DIR/clients/probe in the first target
 * directory, holding PROBE_FILES empty files: the probe process makes it
 * while the clients set up (with *at() calls that never follow a symbolic
 * link) and removes it at the end; the parent removes it if the probe
 * process could not.
 *
 * The process mirrors a client's life: it marks its slot CLIENT_READY
 * once set up, waits on the start pipe, runs until the parent publishes
 * PHASE_STOP (or dies), cleans up, and returns its exit status so that it
 * leaves through main.
 */
#ifndef DBENCH_PROBE_H
#define DBENCH_PROBE_H

#include <talloc.h>

#include "plan.h"
#include "stats.h"

/*
 * Files in the default probe directory.  3000 names fill about 100 KB of
 * directory entries, several getdents() calls, and a listing with a stat
 * each takes a millisecond or more even from the cache: well above the
 * clock's and the histogram's resolution, the size of directory people
 * time `ls -l` on.  Yet they are few enough that making them adds little
 * to setup on a disk, and that listing once a second is no load of its
 * own beside the clients'.
 */
#define PROBE_FILES 3000

/* The most --probe options: a process each, beside the clients. */
#define PROBE_MAX 64

/* The directory a bare --probe makes and lists, beneath DIR/clients of
 * the first target (the plan's probe_dirs holds the whole path). */
#define PROBE_OWN_DIR "probe"

/* 0 when `dir` is a directory the probe can open for listing, else the
 * errno (ENOTDIR for anything else).  Used before anything runs. */
int probe_check_directory(const char *dir);

/*
 * The body of probe process i (its slot stats->probe[i], its directory
 * plan->probe_dirs[i]).  `clients_dirfd` is DIR/clients of the
 * first target (backend.h local_clients_fd), or -1 on a target that is
 * not local: then a bare --probe makes and lists its directory through
 * the backend's lister on `target`, the first target.  `start_fd` is the
 * read end of the start pipe.
 * Returns the exit status: 0, or 1 after a failure described in
 * stats->probe[i].failure.
 */
int probe_process_main(const struct run_plan *plan, struct stats_region *stats, unsigned i,
		       int clients_dirfd, struct backend_target *target, int start_fd);

/* Remove the default probe directory from DIR/clients.  0 when it is gone,
 * or there is nothing of ours there (a symbolic link or any other non-
 * directory at its name is left alone); else an errno. */
int probe_remove_directory(int clients_dirfd);

/* The same for a target that is not local, through the backend's
 * lister (backend.h), over a session of the caller's own. */
int probe_remove_remote(const struct backend *b, struct backend_target *t);

#endif
