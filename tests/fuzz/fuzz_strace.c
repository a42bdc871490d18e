/*
 * fuzz_strace.c - libFuzzer target for the strace line parser
 * (src/record/strace_line.c), which dbench record and dbench convert feed
 * every line of a trace with, including traces a user made elsewhere.
 *
 * The input is split into lines.  Each is taken apart; an accepted call
 * must hold what the recorder relies on without checking again: a kind
 * in range, a NUL-ended name and errno name, as many arguments as it
 * says (at most SC_MAX_ARGS), none NULL, a duration of -1 or more.  Every
 * argument then goes through the helpers that read arguments (strings,
 * descriptors, integers, structure fields, I/O vectors), a call is
 * copied, and an unfinished half is joined to the next line's resumed
 * half as the reader does.  A violation calls abort(), which the fuzzer
 * reports with the input; the tree is freed after each input, so
 * LeakSanitizer sees anything the parser leaks.  Built by
 * tests/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "record/strace_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violated(const char *what)
{
	fprintf(stderr, "invariant violated: %s\n", what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) violated(#cond); } while (0)

/* What the parser promises of a call it accepted. */
static void check_call(const struct sc_call *c)
{
	CHECK(c->kind >= SC_CALL && c->kind <= SC_OTHER);
	CHECK(memchr(c->name, '\0', sizeof(c->name)) != NULL);
	CHECK(memchr(c->err, '\0', sizeof(c->err)) != NULL);
	CHECK(c->dur_us >= -1);
	if (c->kind == SC_OTHER)
		return;
	CHECK(c->raw != NULL);
	CHECK(c->nargs >= 0 && c->nargs <= SC_MAX_ARGS);
	for (int i = 0; i < c->nargs; i++)
		CHECK(c->arg[i] != NULL);
	CHECK(!c->err[0] || c->has_result);
}

/* Every reader of an argument, on every argument. */
static void read_args(TALLOC_CTX *ctx, const struct sc_call *c)
{
	for (int i = 0; c->kind != SC_OTHER && i < c->nargs; i++) {
		bool cut;
		int fd;
		int64_t v;
		char *s = strace_string(ctx, c->arg[i], &cut);
		CHECK(!s || strlen(s) <= strlen(c->arg[i]));
		(void)strace_fd(c->arg[i], &fd);
		(void)strace_int(c->arg[i], &v);
		(void)strace_bracketed_int(c->arg[i], &v);
		(void)strace_field(ctx, c->arg[i], "st_size");
		(void)strace_iov_total(c->arg[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	TALLOC_CTX *ctx = talloc_new(NULL);
	char *text = talloc_strndup(ctx, (const char *)data, size);
	struct sc_call held = { .kind = SC_OTHER };

	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		struct sc_call c;
		int rc = strace_line_parse(ctx, line, &c);
		CHECK(rc == 0 || rc == -1 || rc == SC_OUT_OF_RANGE);
		CHECK(rc == 0 || c.kind == SC_OTHER);
		check_call(&c);
		read_args(ctx, &c);
		struct sc_call *copy = strace_call_copy(ctx, &c);
		CHECK(copy && copy->nargs == c.nargs);
		if (c.kind == SC_UNFINISHED) {
			held = c;
		} else if (c.kind == SC_RESUMED && held.kind == SC_UNFINISHED) {
			CHECK(strace_line_join(ctx, &held, &c) == 0);
			CHECK(held.kind == SC_CALL);
			check_call(&held);
			read_args(ctx, &held);
			held.kind = SC_OTHER;
		}
	}
	talloc_free(ctx);
	return 0;
}
