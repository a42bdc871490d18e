/*
 * strace_line.h - one line of strace's output, taken apart.
 *
 * The recorder runs strace with -ttt -T -y -xx (and -ff, one file per
 * thread); `dbench convert` also reads -f files, whose lines start with
 * the thread id and split a call that another thread interrupted into
 * "<unfinished ...>" and "<... NAME resumed>" halves, and the other time
 * options (-tt, -t, -r, none).  This module takes one line of any of
 * these apart: the time and what kind it is, the call's name, its
 * arguments as text (split at the commas between them, not inside
 * strings, structures, arrays or -y's <...> annotations), the result and
 * the errno name, the duration.  Strings are decoded by
 * strace_string().  It keeps no state and knows nothing of descriptors.
 */
#ifndef RECORD_STRACE_LINE_H
#define RECORD_STRACE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#define SC_MAX_ARGS 8

enum sc_kind {
	SC_CALL,	/* a whole call */
	SC_UNFINISHED,	/* "NAME(args <unfinished ...>": args hold what came */
	SC_RESUMED,	/* "<... NAME resumed>args) = ...": args hold the rest */
	SC_OTHER,	/* a signal, an exit, strace's own notes: not a call */
};

/* What a line's time is, by strace's option (a trace reader's business:
 * the translation reads start_us alone). */
enum sc_clock {
	SC_CLOCK_EPOCH,		/* -ttt: seconds since 1970, to the microsecond */
	SC_CLOCK_DAY,		/* -tt: the time of day, to the microsecond */
	SC_CLOCK_SECONDS,	/* -t: the time of day, in whole seconds */
	SC_CLOCK_RELATIVE,	/* -r: the time since the line before */
	SC_CLOCK_NONE,		/* no time: start_us is 0 */
};

struct sc_call {
	enum sc_kind kind;
	int tid;		/* the -f prefix, or 0 when the line has none */
	int64_t start_us;	/* the line's time, in microseconds (see clock) */
	enum sc_clock clock;	/* what start_us is, as strace printed it */
	int64_t dur_us;		/* -T's duration, or -1 where the line has none */
	char name[32];
	char *raw;		/* the arguments' text, as printed, before splitting */
	int nargs;
	char *arg[SC_MAX_ARGS];	/* each argument's text, trimmed (later ones joined) */
	bool has_result;	/* "= ..." was there */
	bool ret_unknown;	/* "= ?" (the call never returned) */
	int64_t ret;		/* the result (for a failure: -1) */
	char err[24];		/* "ENOENT" for a failure, else "" */
};

/*
 * Take `line` (without its newline) apart into *c, whose strings are
 * allocated on mem_ctx.  Returns 0; -1 for a line that is not strace's
 * (c->kind then SC_OTHER); or SC_OUT_OF_RANGE for one of strace's shape
 * with a number no call gives (a result beyond 64 bits, a time or a
 * duration beyond any clock, a thread id of ten digits), the number in
 * c->raw: a trace no one should trust further.
 */
#define SC_OUT_OF_RANGE (-2)
int strace_line_parse(TALLOC_CTX *mem_ctx, const char *line, struct sc_call *c);

/*
 * Join an SC_UNFINISHED half and its SC_RESUMED half into *first: the
 * arguments of both, the result and the duration of the second.
 * Returns 0, or -1 when memory ran out.
 */
int strace_line_join(TALLOC_CTX *mem_ctx, struct sc_call *first, const struct sc_call *second);

/* A copy of c whose strings hang off the copy, on mem_ctx (NULL when
 * memory ran out). */
struct sc_call *strace_call_copy(TALLOC_CTX *mem_ctx, const struct sc_call *c);

/*
 * Decode a string argument as strace printed it ("\x2f\x74", "a\nb",
 * "\123", with a trailing "..." when it was cut short) into a NUL-ended
 * copy on mem_ctx; *cut says whether it was cut short.  NULL when `text`
 * is not a quoted string (NULL, an address), or memory ran out.
 */
char *strace_string(TALLOC_CTX *mem_ctx, const char *text, bool *cut);

/*
 * The descriptor number at the start of an argument ("3</tmp/x>" is 3,
 * and "0x3", printed raw); AT_FDCWD gives SC_AT_FDCWD.  Returns false
 * when the argument is neither.
 */
#define SC_AT_FDCWD (-100)
bool strace_fd(const char *text, int *fd);

/* An integer argument ("4096", "0x1000", "-1", "0644"); false when the
 * text is not one. */
bool strace_int(const char *text, int64_t *v);

/* The number in "[1234]" (an offset copy_file_range or sendfile was given),
 * or false for NULL. */
bool strace_bracketed_int(const char *text, int64_t *v);

/* The value of `field=` in a structure's text ("st_size=4096" in
 * "{st_mode=S_IFREG|0644, st_size=4096, ...}"), as a copy on mem_ctx, or
 * NULL when the structure has no such field. */
char *strace_field(TALLOC_CTX *mem_ctx, const char *text, const char *field);

/* The sum of every "iov_len=N" in a vector's text ([{iov_base=..., iov_len=10}, ...]). */
uint64_t strace_iov_total(const char *text);

#endif
