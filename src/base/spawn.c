/*
 * spawn.c - fork, set up, exec and wait (see spawn.h).
 *
 * Owns the child between fork and exec; knows nothing of what it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

/* In the child: descriptor `to` becomes what `how` says (spawn.h). */
static void child_fd(int how, int to)
{
	if (how == SPAWN_KEEP || how == to)
		return;
	int from = how == SPAWN_NULL ? open("/dev/null", O_RDWR) : how;
	if (from < 0 || dup2(from, to) < 0)
		_exit(127);
	if (how == SPAWN_NULL && from > 2)
		close(from);
}

pid_t spawn_start(const struct spawn *s)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (s->in_child)
		s->in_child(s->arg);
	for (const char *const *e = s->env; e && e[0] && e[1]; e += 2)
		setenv(e[0], e[1], 1);
	for (int i = 0; i < 3; i++)
		child_fd(s->fd[i], i);
	execvp(s->argv[0], s->argv);
	int err = errno;
	dprintf(STDERR_FILENO, "cannot run '%s': %s\n", s->argv[0], strerror(err));
	_exit(127);
}

int spawn_wait(pid_t pid, int *wstatus)
{
	while (waitpid(pid, wstatus, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int spawn_run(const struct spawn *s, int *wstatus)
{
	pid_t pid = spawn_start(s);

	return pid < 0 ? -1 : spawn_wait(pid, wstatus);
}

int spawn_code(int wstatus)
{
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

char *spawn_status_text(TALLOC_CTX *ctx, int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus) ? talloc_asprintf(ctx, "exit status %d", WEXITSTATUS(wstatus))
					    : NULL;
	return talloc_asprintf(ctx, "killed by signal %d (%s)", WTERMSIG(wstatus),
			       strsignal(WTERMSIG(wstatus)));
}
