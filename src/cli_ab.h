/*
 * cli_ab.h - "dbench ab" from the command line (ab.h is the command).
 */
#ifndef DBENCH_CLI_AB_H
#define DBENCH_CLI_AB_H

/* The whole subcommand: argv[0] is "ab", the rest its options, those both
 * sides share, and NPROCS.  Returns the exit status. */
int cli_ab(int argc, const char **argv);

#endif
