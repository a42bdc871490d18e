/*
 * commands.c - the table of dbench's commands (see commands.h), what
 * --help and --usage say of them, and `dbench help`.
 */
#include <string.h>

#include "cli_ab.h"
#include "cli_tune.h"
#include "commands.h"
#include "compare.h"
#include "exitcode.h"
#include "progname.h"
#include "record.h"

static int help_main(int argc, const char **argv);

/* In the order --help lists them. */
static const struct command commands[] = {
	{ "compare", "[OPTION...] A.json B.json [C.json ...]",
	  "compare saved runs or sweeps with the first, and judge the change",
	  compare_main, false },
	{ "ab", "[OPTION...] [--a=OPTIONS] --b=OPTIONS NPROCS",
	  "is B faster than A? both set-ups in turn, then one verdict", cli_ab, true },
	{ "tune", "[OPTION...] --set KEY=V1,V2,... NPROCS",
	  "which setting serves this load best? a race, then all put back", cli_tune, true },
	{ "record", "[OPTION...] -- COMMAND [ARG...]",
	  "a program's file traffic, run under strace, as a loadfile", record_main, false },
	{ "convert", "[OPTION...] TRACE...",
	  "a trace made elsewhere (strace, fio's iolog) as a loadfile", convert_main, false },
	{ "help", "[COMMAND]", "the commands, or a command's own help", help_main, false },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const struct command *command_of(int argc, const char **argv, int *cargc,
				 const char ***cargv)
{
	static const char *own_help[3] = { NULL, "--help", NULL };
	const struct command *c = argc > 1 ? find(argv[1]) : NULL;
	const struct command *asked = c && c->entry == help_main && argc == 3 ? find(argv[2]) : NULL;

	if (asked && asked != c) {
		own_help[0] = asked->name;
		*cargc = 2;
		*cargv = own_help;
		return asked;
	}
	*cargc = argc - 1;
	*cargv = argv + 1;
	return c;
}

void commands_print(FILE *out, bool help)
{
	if (help)
		fprintf(out, "\nCommands (%s help COMMAND, or %s COMMAND --help, for its own):\n",
			progname(), progname());
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (help)
			fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
		else
			fprintf(out, "   or: %s %s %s\n", progname(), commands[i].name,
				commands[i].synopsis);
	}
	if (help)
		fprintf(out, "\nThe manual pages: dbench(1), a run; dbench-COMMAND(1), each command"
			" (convert's\nis dbench-record(1)); dbench-loadfile(5); dbench-json(5).\n");
}

/* `dbench help`: the commands; `dbench help NAME` is NAME's --help
 * (command_of()), so that what is left here is a name that is none. */
static int help_main(int argc, const char **argv)
{
	if (argc > 2) {
		say("help takes one command (usage: %s help [COMMAND])\n", progname());
		return EXIT_BAD_INPUT;
	}
	if (argc > 1 && strcmp(argv[1], "help") != 0 && strcmp(argv[1], "--help") != 0) {
		say("%s: no such command (%s help lists them)\n", argv[1], progname());
		return EXIT_BAD_INPUT;
	}
	printf("Usage: %s [OPTION...] NPROCS\n", progname());
	commands_print(stdout, false);
	commands_print(stdout, true);
	printf("\n%s --help lists the options of a run.\n", progname());
	return EXIT_OK;
}
