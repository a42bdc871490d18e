/*
 * runner.c - a command run under strace (runner.h).
 *
 * Owns strace's command line and the process running it; knows nothing
 * of the trace's contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/runner.h"

static volatile sig_atomic_t child_pid;

static void pass_on(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/* Whether an executable file `name` is found on $PATH (or at name when it
 * has a slash); its path into *path when asked. */
static bool on_path(TALLOC_CTX *mem_ctx, const char *name, char **path)
{
	if (strchr(name, '/')) {
		if (path)
			*path = talloc_strdup(mem_ctx, name);
		return access(name, X_OK) == 0;
	}
	const char *env = getenv("PATH");
	char *dirs = talloc_strdup(mem_ctx, env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = talloc_asprintf(mem_ctx, "%s/%s", *d ? d : ".", name);
		struct stat st;
		if (p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0) {
			if (path)
				*path = p;
			return true;
		}
	}
	return false;
}

int runner_find(TALLOC_CTX *mem_ctx, const char *prog, char **path, char **err)
{
	if (on_path(mem_ctx, prog, path))
		return 0;
	*err = talloc_asprintf(mem_ctx, "cannot run '%s': %s", prog,
			       strchr(prog, '/') ? strerror(errno ? errno : ENOENT) : "not found on PATH");
	return -1;
}

/* Run argv with stderr into a pipe; the exit status, with what it said
 * on stderr (its first line) in *said. */
static int run_quiet(TALLOC_CTX *mem_ctx, char *const argv[], char **said)
{
	int pfd[2];

	*said = NULL;
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	char buf[512];
	size_t n = 0;
	ssize_t k;
	while ((k = read(pfd[0], buf + n, sizeof(buf) - 1 - n)) > 0 && n < sizeof(buf) - 1)
		n += (size_t)k;
	while (k > 0)
		k = read(pfd[0], buf, sizeof(buf));
	close(pfd[0]);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	*said = talloc_strdup(mem_ctx, buf);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int runner_check(TALLOC_CTX *mem_ctx, char **err)
{
	if (!on_path(mem_ctx, "strace", NULL)) {
		*err = talloc_strdup(mem_ctx, "strace is not installed (Debian: apt-get install strace); "
				     "dbench record runs the command under it");
		return -1;
	}
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int scope = 0;
	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = 0;
		fclose(f);
	}
	if (scope >= 3) {
		*err = talloc_strdup(mem_ctx, "ptrace is disabled on this machine (kernel.yama.ptrace_scope "
				     "is 3, until the next boot): strace cannot trace the command");
		return -1;
	}
	char *const probe[] = { "strace", "-f", "--seccomp-bpf", "-qq", "-e", "trace=close", "-o",
				"/dev/null", "true", NULL };
	char *said;
	int rc = run_quiet(mem_ctx, probe, &said);
	if (rc != 0) {
		*err = talloc_asprintf(mem_ctx, "strace cannot trace here (%s)%s",
				       said && *said ? said : "it failed",
				       strstr(said ? said : "", "ermitted")
				       ? ": ptrace is refused (a container without CAP_SYS_PTRACE, "
					 "or yama's ptrace_scope)" : "");
		return -1;
	}
	return 0;
}

int runner_run(TALLOC_CTX *mem_ctx, const char *trace_set, char *const argv[],
	       const char *prefix, char **err)
{
	size_t n = 0;
	while (argv[n])
		n++;
	const char *head[] = { "strace", "-ff", "-ttt", "-T", "-y", "-xx", "-qq", "--seccomp-bpf",
			       "-e", "signal=none", "-e", NULL, "-o", prefix, "--" };
	size_t nhead = sizeof(head) / sizeof(head[0]);
	char **args = talloc_array(mem_ctx, char *, nhead + n + 1);
	char *trace = talloc_asprintf(mem_ctx, "trace=%s", trace_set);
	if (!args || !trace) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < nhead; i++)
		args[i] = (char *)(head[i] ? head[i] : trace);
	for (size_t i = 0; i <= n; i++)
		args[nhead + i] = argv[i];

	struct sigaction ign = { .sa_handler = SIG_IGN }, pass = { .sa_handler = pass_on };
	struct sigaction old_int, old_quit, old_term, old_hup;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGTERM, &pass, &old_term);
	sigaction(SIGHUP, &pass, &old_hup);
	pid_t pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(args[0], args);
		fprintf(stderr, "cannot run strace: %s\n", strerror(errno));
		_exit(127);
	}
	int status = 0, rc;
	if (pid < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot start strace: %s", strerror(errno));
		rc = -1;
	} else {
		child_pid = pid;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		child_pid = 0;
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return rc;
}
