/*
 * cli_tune.h - "dbench tune" from the command line (tune.h is the
 * command).
 */
#ifndef DBENCH_CLI_TUNE_H
#define DBENCH_CLI_TUNE_H

/* The whole subcommand: argv[0] is "tune", the rest its options, those
 * every run shares, and NPROCS.  Returns the exit status. */
int cli_tune(int argc, const char **argv);

#endif
