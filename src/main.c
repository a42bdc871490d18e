/*
 * main.c - dbench's entry: one of the commands of commands.h (`dbench
 * compare ...`, `dbench ab ...`), or the command line (cli.h) and what
 * it asks for: --help, --check-loadfile, a run or a sweep; and the
 * standard descriptors, open before anything and checked at the end.
 * Nothing else lives here.
 */
#ifdef DBENCH_COVERAGE
#include <gcov.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>
#include <unistd.h>

#include "commands.h"
#include "sweep.h"
#include "progname.h"
#include "secret.h"
#include "cli.h"
#include "loadfile.h"
#include "cluster.h"
#include "driver.h"

/* --check-loadfile: the summary, and with --backend what that backend
 * cannot express (still exit 0: a run counts those as not supported). */
static int check_loadfile(TALLOC_CTX *mem_ctx, const struct cli *cli)
{
	fputs(loadfile_summary(mem_ctx, cli->plan.prog), stdout);
	if (cli->backend_given) {
		char *report = NULL;
		struct backend_options opts = { .own = cli->plan.bopts.own };
		backend_check_program(mem_ctx, cli->plan.backend, cli->plan.prog, &opts, &report);
		fputs(report, stdout);
	}
	return EXIT_OK;
}

/*
 * Descriptors 0, 1 and 2 open before anything else is: a closed one would
 * be handed to the next open() (a target directory, the --json file),
 * and text meant for the terminal would land there.  A closed stdout
 * becomes /dev/null opened read-only, so that writing to it fails as it
 * would have and stdout_finish() says so.  Returns whether stdout was
 * closed.
 */
static bool std_fds_open(void)
{
	bool stdout_closed = false;

	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		stdout_closed = stdout_closed || fd == 1;
		int nfd = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
		if (nfd >= 0 && nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
	return stdout_closed;
}

/*
 * The results on stdout are the point of a run: an error writing them
 * (a full disk, a closed descriptor, a pipe's reader gone), at the final
 * flush and close or earlier, fails the run unless it failed already.
 */
static int stdout_finish(int rc, bool stdout_closed)
{
	errno = 0;
	bool failed = ferror(stdout);
	if (fflush(stdout) == EOF)
		failed = true;
	int err = errno;
	if (fclose(stdout) == EOF && !failed) {
		failed = true;
		err = errno;
	}
	if (!failed && !stdout_closed)
		return rc;
	/* a write that failed during the run left no errno behind */
	say("cannot write standard output: %s\n",
		stdout_closed ? strerror(EBADF) : err ? strerror(err)
			      : "a write failed, results are missing");
	return rc == EXIT_OK ? EXIT_RUN_FAILED : rc;
}

/* The way out once a run, a sweep or an ab series is over and what it
 * made is freed.  A client process (or a probe) leaves at once, without
 * the libraries' exit handlers, MPI's (the rank's, not its own) and the
 * others', which cost a thousand processes seconds of CPU at the end of
 * a run, for nothing. */
static int leave(int rc, bool stdout_closed)
{
	if (driver_is_client()) {
		fflush(NULL);
#ifdef DBENCH_COVERAGE
		__gcov_dump();	/* make coverage: the counts _exit() would not write */
#endif
		_exit(rc);
	}
	return cluster_finish(stdout_finish(rc, stdout_closed));
}

/* A command of commands.h: one that runs clients after MPI's start and
 * out through leave(), the others as they are. */
static int run_command(const struct command *c, int argc, const char **argv,
		       bool stdout_closed)
{
	if (!c->runs)
		return stdout_finish(c->entry(argc, argv), stdout_closed);
	int rc = cluster_init();
	return rc ? rc : leave(c->entry(argc, argv), stdout_closed);
}

int main(int argc, const char **argv)
{
	secret_hide_argv(argc, (char **)argv);	/* before `ps` or anything else reads them */
	progname_set(argc > 0 ? argv[0] : NULL);
	bool stdout_closed = std_fds_open();
	int cargc;
	const char **cargv;
	const struct command *command = command_of(argc, argv, &cargc, &cargv);
	if (command)
		return run_command(command, cargc, cargv, stdout_closed);
	int rc = cluster_init();
	if (rc)
		return rc;

	TALLOC_CTX *top = talloc_new(NULL);
	struct cli cli;

	cli_parse(top, argc, argv, &cli);
	switch (cli.action) {
	case CLI_EXIT:
		rc = cli.exit_code;
		break;
	case CLI_HELP:
		commands_print(stdout, cli.full_help);
		rc = cli.exit_code;
		break;
	case CLI_CHECK_LOADFILE:
		rc = check_loadfile(top, &cli);
		break;
	case CLI_RUN:
		rc = driver_run(&cli.plan);
		break;
	case CLI_SWEEP:
		rc = sweep_run(&cli.plan, &cli.sweep);
		break;
	}
	talloc_free(top);
	return leave(rc, stdout_closed);
}
