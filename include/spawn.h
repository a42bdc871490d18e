/*
 * spawn.h - the one way dbench runs another program: fork, set up the
 * child (its environment, its standard descriptors, whatever the caller
 * must do there), exec, and wait for the exit status without losing it
 * to EINTR.  `dbench record`'s strace, and the commands a series runs
 * between its runs (--prepare, --remake), come here, as git's commands
 * go through its run-command.
 *
 * Below everything: knows nothing of what is run, of signals the caller
 * passes on, or of what the status means to it.
 */
#ifndef DBENCH_SPAWN_H
#define DBENCH_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include <talloc.h>

/* What a child's standard descriptor is: as the parent's, /dev/null,
 * or (any other value) that descriptor of the parent's. */
enum { SPAWN_KEEP = -1, SPAWN_NULL = -2 };

struct spawn {
	char *const *argv;		/* argv[0] looked up on $PATH, as execvp does */
	const char *const *env;		/* NAME, VALUE, ..., NULL: set in the child */
	int fd[3];			/* the child's 0, 1 and 2: SPAWN_KEEP, SPAWN_NULL or a descriptor */
	void (*in_child)(void *arg);	/* run in the child before anything else */
	void *arg;
};

/* Start s's program: its pid, or -1 with errno when it cannot fork.  A
 * program that cannot be run says so on the child's stderr ("cannot run
 * 'NAME': REASON") and exits 127. */
pid_t spawn_start(const struct spawn *s);

/* Wait for pid: 0 with its wait status in *wstatus, or -1 with errno
 * when it cannot be waited for.  EINTR is not a failure. */
int spawn_wait(pid_t pid, int *wstatus);

/* spawn_start then spawn_wait. */
int spawn_run(const struct spawn *s, int *wstatus);

/* A wait status as a shell's $? says it: the exit status, or 128 + the
 * signal that killed the program. */
int spawn_code(int wstatus);

/* "exit status N" or "killed by signal N (NAME)"; NULL for a clean exit. */
char *spawn_status_text(TALLOC_CTX *ctx, int wstatus);

#endif
