/*
 * progname.c - the program's name and its messages on standard error
 * (see progname.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progname.h"

static bool tbench;

void progname_set(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	tbench = argv0 && strcmp(base ? base + 1 : argv0, "tbench") == 0;
}

const char *progname(void)
{
	return tbench ? "tbench" : "dbench";
}

bool progname_tbench(void)
{
	return tbench;
}

void say(const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;

	va_start(ap, fmt);
	int n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {	/* no memory for the copy: the same, in two writes */
		fprintf(stderr, "%s: ", progname());
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		return;
	}
	fprintf(stderr, "%s: %s", progname(), text);
	free(text);
}
