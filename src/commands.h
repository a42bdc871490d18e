/*
 * commands.h - dbench's commands beside a run (`dbench compare ...`,
 * `dbench ab ...`), git's way: one table, a row a command, that main()
 * dispatches from, that --help, --usage and `dbench help` list, and
 * that tests/shell/test_docs.sh reads through --help (each command's
 * options in its part of the manual).  A new command is a row in
 * commands.c and its entry function.
 *
 * The top of the program, beside main.c and cli.c: it knows each
 * command's entry and nothing of what the command does.
 */
#ifndef DBENCH_COMMANDS_H
#define DBENCH_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

struct command {
	const char *name;	/* the word after dbench */
	const char *synopsis;	/* what follows "dbench NAME" in its usage line */
	const char *summary;	/* one line for the list (at most 64 characters) */
	/* The whole command: argv[0] is its name, the rest its words;
	 * returns the exit status. */
	int (*entry)(int argc, const char **argv);
	bool runs;		/* it runs clients: MPI is set up first, and a
				 * client process leaves at once (main.c) */
};

/*
 * The command argv (a whole command line, argv[0] the program) asks for,
 * or NULL for a run.  *cargc and *cargv get the words to call its entry
 * with: from the command's name on, or for `dbench help NAME` NAME's
 * own --help ({NAME, "--help"}).
 */
const struct command *command_of(int argc, const char **argv, int *cargc,
				 const char ***cargv);

/* The commands for --help (help: a line each, name and summary) or
 * --usage (their usage lines, "   or: dbench NAME SYNOPSIS"). */
void commands_print(FILE *out, bool help);

#endif
