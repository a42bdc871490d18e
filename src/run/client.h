/*
 * client.h - replaying the program: the body of a client process.
 *
 * A client process runs one or more clients (--clients-per-process),
 * taking one operation of each in turn.  For every operation it waits
 * out any pacing first (loadfile timestamps, --target-rate), then times
 * the backend call alone, compares the outcome with the loadfile's
 * expected status, and records it in its own stats slot under the phase
 * the parent has published.  It stops at an operation boundary when the
 * parent says so, when the parent dies, or at the first unexpected
 * outcome, then removes its files.
 */
#ifndef DBENCH_CLIENT_H
#define DBENCH_CLIENT_H

#include "plan.h"
#include "stats.h"

/*
 * The memory of a client process of up to `count` clients (fewer when the
 * run has fewer): a talloc pool per client, sized to what it holds at
 * once (backend.h's client_mem()), and one for the clients' array, all
 * in one block as far as talloc allows, which the parent makes once
 * before it forks any and leaves alone, and each client process takes
 * over as its own copy.  So a client process never calls malloc: each
 * call would write malloc's state in libc and on the heap, pages it
 * shares with the parent until then, and allocated one by one its state
 * would be scattered over such pages.  Of the pool, only the pages a
 * client process writes are its own.  NULL when out of memory; there is
 * no limit on count below that.
 */
TALLOC_CTX *client_pool(const struct run_plan *plan, unsigned count);

/*
 * Run clients first .. first+count-1 (0-based) in this process, in `pool`
 * (client_pool()), which it frees.  `targets[d]` is plan->dirs[d] as the
 * backend opened it; `start_fd` is the read end of the start pipe, which
 * reaches end-of-file when the parent releases everyone.  A client
 * outliving its parent closes the targets too (backend.h target_close:
 * DIR/clients goes once empty), as the parent would have.  Returns the process's exit
 * status: 0, or 1 after a failure recorded in the slot.
 */
int client_process_main(TALLOC_CTX *pool, const struct run_plan *plan,
			struct stats_region *stats, unsigned first, unsigned count,
			struct backend_target *const *targets, int start_fd);

/*
 * The life of any process the driver forks, shared with the --probe
 * process (probe.h).  client_watch_parent() makes SIGTERM (SIGHUP,
 * SIGQUIT), and the
 * parent's death, a request to stop, which client_stop_requested() then
 * reports; ^C is left to the parent.  client_wait_for_start() returns when
 * the parent releases everyone (or a stop is requested first).
 */
void client_watch_parent(void);
bool client_stop_requested(void);

/*
 * The parent's death.  The driver names itself before its first fork
 * (client_set_parent(getpid())), so that a process forked just as it died
 * still knows (PR_SET_PDEATHSIG only covers what comes after it is set,
 * and an orphan's new parent need not be init).  A process outliving the
 * parent removes its own files as ever, then each target's clients
 * directory (client_close_if_last(): the first n of targets; nothing
 * with --skip-cleanup), as the parent would have; so does the last
 * process of the run out (ctl.procs_left) with the parent alive, but
 * under mpirun, so that a parent killed after its clients left leaves
 * no empty directories.  Every forked process calls it once, at its end.
 */
void client_set_parent(pid_t pid);
bool client_parent_gone(void);
void client_close_if_last(const struct run_plan *plan, struct stats_region *r,
			  struct backend_target *const *targets, unsigned n);

/*
 * A forked process's exit status: 0 or 1 from `ok`, unless a signal
 * (SIGTERM, SIGHUP, SIGQUIT) stopped it while the run was still going, in
 * which case 128 + that signal, so that the parent can tell a client that
 * left early from one that finished.
 */
int client_exit_status(const struct stats_region *r, bool ok);
void client_wait_for_start(int start_fd);

#endif
