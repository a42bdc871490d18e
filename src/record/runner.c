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
#include "spawn.h"

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
	struct spawn quiet = { .argv = argv, .fd = { SPAWN_NULL, SPAWN_NULL, pfd[1] } };
	pid_t pid = spawn_start(&quiet);
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
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
	return spawn_wait(pid, &status) == 0 ? spawn_code(status) : -1;
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

/* In strace's process: SIGINT and SIGQUIT as they were before the
 * recorder ignored them (old[0], old[1]), SIGTERM and SIGHUP default. */
static void signals_as_found(void *arg)
{
	const struct sigaction *old = arg;

	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGQUIT, &old[1], NULL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

int runner_run(TALLOC_CTX *mem_ctx, const char *trace_set, const char *raw_set, char *const argv[],
	       const char *prefix, char **err)
{
	size_t n = 0;
	while (argv[n])
		n++;
	const char *head[] = { "strace", "-ff", "-ttt", "-T", "-y", "-xx", "-qq", "--seccomp-bpf",
			       "-e", "signal=none", "-e", NULL, "-e", NULL, "-o", prefix, "--" };
	size_t nhead = sizeof(head) / sizeof(head[0]);
	char **args = talloc_array(mem_ctx, char *, nhead + n + 1);
	char *set[] = { talloc_asprintf(mem_ctx, "trace=%s", trace_set),
			talloc_asprintf(mem_ctx, "raw=%s", *raw_set ? raw_set : "none") };
	if (!args || !set[0] || !set[1]) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	for (size_t i = 0, k = 0; i < nhead; i++)
		args[i] = (char *)(head[i] ? head[i] : set[k++]);
	for (size_t i = 0; i <= n; i++)
		args[nhead + i] = argv[i];

	struct sigaction ign = { .sa_handler = SIG_IGN }, pass = { .sa_handler = pass_on };
	struct sigaction old[2], old_term, old_hup;
	sigaction(SIGINT, &ign, &old[0]);
	sigaction(SIGQUIT, &ign, &old[1]);
	sigaction(SIGTERM, &pass, &old_term);
	sigaction(SIGHUP, &pass, &old_hup);
	struct spawn st = { .argv = args, .fd = { SPAWN_KEEP, SPAWN_KEEP, SPAWN_KEEP },
			    .in_child = signals_as_found, .arg = old };
	pid_t pid = spawn_start(&st);
	int status = 0, rc;
	if (pid < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot start strace: %s", strerror(errno));
		rc = -1;
	} else {
		child_pid = pid;
		rc = spawn_wait(pid, &status) == 0 ? spawn_code(status) : -1;
		child_pid = 0;
	}
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGQUIT, &old[1], NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return rc;
}
