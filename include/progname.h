/*
 * progname.h - the name the program was entered under, "dbench" or
 * "tbench" (the same binary, doc/DESIGN.md), which starts every message
 * it prints on standard error, so that the user reads back the command
 * they typed.
 *
 * Below everything: it knows nothing of runs, reports or comparisons.
 */
#ifndef DBENCH_PROGNAME_H
#define DBENCH_PROGNAME_H

#include <stdbool.h>

/* "tbench" when argv0's last component is "tbench", "dbench" otherwise;
 * main sets it before anything is said. */
void progname_set(const char *argv0);

/* The name ("dbench" until progname_set() says otherwise). */
const char *progname(void);

/* Whether the program was entered as tbench. */
bool progname_tbench(void);

/* One message on standard error, "NAME: " and then fmt (which brings its
 * own newline), written in one piece. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
