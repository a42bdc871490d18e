/*
 * loadfile.c - a loadfile's text, from a file, gzip or a pipe, into a
 * program, and the machinery the dialects of rows share.
 *
 * A file that a dialect of whole files claims (load/dialect.h) is handed
 * to it.  Otherwise one pass over the text: each line is split into
 * fields (load/lex.h), the dialect that claims the row reads its status
 * column, each argument is decoded by the kind op_table gives it, and
 * the dialect checks the row.  This file names no dialect.  Paths become
 * client-relative strings (interned, so the 450,000 lines of client.txt
 * hold a few hundred distinct strings), trace handles become slot
 * numbers, and the pass's byte totals and handle high-water mark are
 * counted on the way.  The first problem stops the compile with a
 * "FILE:LINE: message" error.
 *
 * The NFS dialect's directives (LOOP, REPEAT, RANDOMSTRING, WRITEPATTERN;
 * see loadfile.h) are resolved here too, so that what a client replays is
 * still one flat sequence; only offset expressions are left to run time.
 * Each operation is final once finish_op() is done with it (its handle
 * bound, its REPEAT count set): only then is it interned in the table of
 * distinct operations (load/optab.h) and its position appended.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nettle/sha2.h>
#include <zlib.h>

#include "infile.h"
#include "loadfile.h"
#include "load/dialect.h"
#include "load/optab.h"
#include "load/strset.h"

#define MAX_TOKENS 12
#define LOADFILE_CHUNK (1u << 20)	/* bytes of a loadfile read at a time */

/* A trace handle that is open at this point of the pass. */
struct open_handle {
	int32_t fnum;
	uint16_t slot;
	uint32_t line;		/* where it was opened, for messages */
	const char *path;	/* what it was opened on */
};

struct compiler {
	struct program *prog;
	struct lex lx;			/* the file, its line, its first problem */
	struct dialect_ctx dc;		/* what the row dialects' hooks are given */
	const struct dialect *dl;	/* the row's dialect */
	struct strset paths;
	struct strset dirs;
	struct open_handle *open;	/* currently open handles */
	unsigned nopen;
	uint16_t *free_slots;		/* slots freed by Close, reused first */
	unsigned nfree;
	unsigned nslots;		/* slots ever handed out */
	struct optab tab;		/* the distinct ops and the positions */
	/* the NFS dialect's directives */
	uint32_t repeat;		/* a REPEAT waiting for its operation, or 0 */
	uint32_t repeat_line;
	uint32_t loop_count;		/* inside LOOP n: n; else 0 */
	uint32_t loop_line;
	size_t loop_start;		/* the position of the LOOP's body */
	char *randstr[LOADFILE_RANDOM_STRINGS];
	bool have_randstr;
	uint64_t rng;			/* RANDOMSTRING's draws */
	struct offset_expr *exprs;
	size_t nexprs;
};

/* ---- messages ---- */

#define fail(c, ...) lex_fail(&(c)->lx, __VA_ARGS__)

static const char *tokstr(struct compiler *c, const struct token *t)
{
	return lex_tokstr(&c->lx, t);
}

static bool parse_timestamp(struct compiler *c, const struct token *t, double *out)
{
	if (lex_seconds(t, "", out))
		return true;
	fail(c, "malformed timestamp '%s'", tokstr(c, t));
	return false;
}

/* ---- paths ---- */

static bool is_sep(char ch)
{
	return ch == '\\' || ch == '/';
}

/* Next component of a path: skips separators, returns its length (0 at end). */
static size_t next_component(const char **p, const char *end)
{
	while (*p < end && is_sep(**p))
		(*p)++;
	const char *s = *p;
	while (*p < end && !is_sep(**p))
		(*p)++;
	return *p - s;
}

static bool component_is(const char *s, size_t len, const char *want)
{
	return strlen(want) == len && strncasecmp(s, want, len) == 0;
}

/* Intern dir as a directory; returns its index or -1 after fail(). */
static long add_dir(struct compiler *c, const char *s, size_t len)
{
	long d = strset_add(c->prog, &c->dirs, s, len);
	if (d < 0)
		lex_oom(&c->lx);
	else if (d >= LOADFILE_MAX_DIRS)
		fail(c, "more than %d distinct directories", LOADFILE_MAX_DIRS);
	return d >= LOADFILE_MAX_DIRS ? -1 : d;
}

bool loadfile_path_within(const char *path, const char *top)
{
	size_t len = strlen(top);

	while (len > 0 && top[len - 1] == '/')
		len--;
	return len == 0 || (strncmp(path, top, len) == 0 &&
			    (path[len] == '\0' || path[len] == '/'));
}

/*
 * Turn "\clients\client1\a\b" into client-relative "a/b", with its parent
 * directory and leaf.  `second` selects path2/leaf2/dir2.
 */
static bool parse_path(struct compiler *c, const struct token *t, struct op *op,
		       bool second)
{
	const char *p = t->s, *end = t->s + t->len;
	char rel[LOADFILE_MAX_LINE];	/* rel[0..rlen) is all that is read */
	size_t rlen = 0, leaf_at = 0;
	rel[0] = '\0';
	size_t n;

	n = next_component(&p, end);
	if (t->len == 0 || !is_sep(t->s[0]))
		goto outside;
	if (c->dl->own_dir && c->dl->own_dir(p - n, n)) {
		n = 1;		/* the dialect's name for the client's own directory */
	} else if (!component_is(p - n, n, "clients")) {
		if (!(c->dl->rules & DIALECT_OWN_FILES))
			goto outside;
		p = t->s;	/* an NFS or SMB row's own file: beneath the client dir */
		n = 1;
	} else if ((n = next_component(&p, end)) == 0) {
		op->flags |= OPF_CLIENTS_DIR;
	} else if (!component_is(p - n, n, "client1")) {
		goto outside;
	}
	while (n > 0 && (n = next_component(&p, end)) > 0) {
		const char *s = p - n;
		if (component_is(s, n, "..") || component_is(s, n, ".")) {
			fail(c, "path '%s' has a '%.*s' component", tokstr(c, t), (int)n, s);
			return false;
		}
		if (rlen)
			rel[rlen++] = '/';
		leaf_at = rlen;
		memcpy(rel + rlen, s, n);
		rlen += n;
	}

	long idx = strset_add(c->prog, &c->paths, rel, rlen);
	if (idx < 0) {
		lex_oom(&c->lx);
		return false;
	}
	const char *path = c->paths.order[idx];
	uint16_t dir = DIR_NONE;
	if (rlen > 0) {
		long d = add_dir(c, rel, leaf_at ? leaf_at - 1 : 0);
		if (d < 0)
			return false;
		dir = d;
	}
	if (second) {
		op->path2 = path;
		op->leaf2 = path + leaf_at;
		op->dir2 = dir;
	} else {
		op->path = path;
		op->leaf = path + leaf_at;
		op->dir = dir;
	}
	return true;
outside:
	if (c->dl->rules & DIALECT_OWN_FILES)
		fail(c, "path '%s' does not begin with / or is beneath \\clients but not "
			"\\clients\\client1", tokstr(c, t));
	else
		fail(c, "path '%s' is not \\clients\\client1 or beneath it", tokstr(c, t));
	return false;
}

/* "\clients" is shared by every client: only harmless operations may name it. */
static bool check_clients_dir(struct compiler *c, const struct op *op)
{
	if (!(op->flags & OPF_CLIENTS_DIR) || op_has(op->type, OPD_CLIENTS_DIR))
		return true;
	fail(c, "%s may not name \\clients, which all clients share",
	     op_table[op->type].name);
	return false;
}

/* ---- handles ---- */

static struct open_handle *find_open(struct compiler *c, int32_t fnum)
{
	for (unsigned i = 0; i < c->nopen; i++) {
		if (c->open[i].fnum == fnum)
			return &c->open[i];
	}
	return NULL;
}

static bool open_handle(struct compiler *c, struct op *op)
{
	struct open_handle *h = find_open(c, op->fnum);
	if (h) {
		fail(c, "handle %" PRId32 " is already open (opened at line %" PRIu32 ")",
		     op->fnum, h->line);
		return false;
	}
	if (c->nopen == LOADFILE_MAX_HANDLES) {
		fail(c, "more than %d handles open at once", LOADFILE_MAX_HANDLES);
		return false;
	}
	uint16_t slot = c->nfree ? c->free_slots[--c->nfree] : c->nslots++;
	c->open[c->nopen++] = (struct open_handle){ op->fnum, slot, c->lx.line, op->path };
	op->handle = slot;
	if (c->nopen > c->prog->max_handles)
		c->prog->max_handles = c->nopen;
	return true;
}

static void close_handle(struct compiler *c, struct open_handle *h)
{
	c->free_slots[c->nfree++] = h->slot;
	*h = c->open[--c->nopen];
}

/*
 * Resolve the handle argument.  A handle that is not open is an error
 * when the operation is expected to succeed, and HANDLE_NONE otherwise.
 */
static bool bind_handle(struct compiler *c, struct op *op)
{
	bool by_path = c->dl->rules & DIALECT_BY_PATH;

	if (by_path) {
		/* dbench 5.0's SMB rows name an open file by its path: the
		 * path's index in the set stands for the trace's handle */
		long idx = strset_add(c->prog, &c->paths, op->path, strlen(op->path));
		if (idx < 0) {
			lex_oom(&c->lx);
			return false;
		}
		op->fnum = (int32_t)idx;
	}
	if (op_has(op->type, OPD_OPENS)) {
		struct open_handle *h = by_path ? find_open(c, op->fnum) : NULL;
		if (h && op->status == NT_OK) {
			fail(c, "OPEN of a file that is open already (since line %" PRIu32 ")",
			     h->line);
			return false;
		}
		if (op->status == NT_OK)
			return open_handle(c, op);
		op->handle = HANDLE_NONE;
		return true;
	}
	struct open_handle *h = find_open(c, op->fnum);
	if (!h && op->status == NT_OK && by_path) {
		fail(c, "%s of a file that is not open (no OPEN of it before)",
		     op_table[op->type].name);
		return false;
	}
	if (!h && op->status == NT_OK) {
		fail(c, "handle %" PRId32 " is not open", op->fnum);
		return false;
	}
	op->handle = h ? h->slot : HANDLE_NONE;
	if (h)
		op->path = h->path;	/* for messages: the file the handle is on */
	if (h && op_has(op->type, OPD_CLOSES) && op->status == NT_OK)
		close_handle(c, h);
	return true;
}

/* ---- offset expressions (NFS rows) ---- */

/* "*" with qualifiers, "+N", "+child" or "+num_children" into an
 * expression of the program; op->expr names it. */
static bool parse_offset_expr(struct compiler *c, const struct token *t, struct op *op)
{
	const char *p = t->s + 1, *end = t->s + t->len;
	struct offset_expr e = { .base = OFFSET_RANDOM };

	if (t->s[0] == '+') {
		if (component_is(p, end - p, "child")) {
			e.base = OFFSET_PREV_CHILD;
		} else if (component_is(p, end - p, "num_children")) {
			e.base = OFFSET_PREV_NCHILD;
		} else {
			e.base = OFFSET_PREV;
			e.nqual = 1;
			e.qual[0].op = '+';
			if (!lex_number_at(&p, end, &e.qual[0].value) || p != end)
				goto bad;
		}
	}
	while (e.base == OFFSET_RANDOM && p < end) {
		char q = *p++;
		uint64_t v;
		if ((q != '/' && q != '%' && q != '+') || !lex_number_at(&p, end, &v))
			goto bad;
		if (v == 0 && q != '+') {
			fail(c, "offset '%s' divides by zero", tokstr(c, t));
			return false;
		}
		if (e.nqual == OFFSET_EXPR_MAX_QUAL) {
			fail(c, "offset '%s' has more than %d qualifiers", tokstr(c, t),
			     OFFSET_EXPR_MAX_QUAL);
			return false;
		}
		e.qual[e.nqual].op = q;
		e.qual[e.nqual++].value = v;
	}
	if (c->nexprs == UINT16_MAX) {
		fail(c, "more than %d offset expressions", UINT16_MAX);
		return false;
	}
	if (c->nexprs % 64 == 0) {
		struct offset_expr *n = talloc_realloc(c->prog, c->exprs, struct offset_expr,
						       c->nexprs + 64);
		if (!n) {
			lex_oom(&c->lx);
			return false;
		}
		c->exprs = n;
	}
	c->exprs[c->nexprs++] = e;
	op->expr = c->nexprs;
	return true;
bad:
	fail(c, "malformed offset '%s' (a number, * with /N %%N +N, +N, +child or "
		"+num_children)", tokstr(c, t));
	return false;
}

/* parse_offset_expr() for a row dialect's hooks (struct dialect_ctx). */
static bool dialect_offset_expr(struct dialect_ctx *dc, const struct token *t, struct op *op)
{
	struct compiler *c = (struct compiler *)((char *)dc - offsetof(struct compiler, dc));
	return parse_offset_expr(c, t, op);
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

uint64_t loadfile_offset(const struct program *prog, const struct op *op,
			 struct offset_state *st)
{
	if (!op->expr)
		return st->prev = (uint64_t)op->a[0];
	const struct offset_expr *e = &prog->exprs[op->expr - 1];
	uint64_t v;

	switch (e->base) {
	case OFFSET_PREV_CHILD:
		return st->prev += st->client;
	case OFFSET_PREV_NCHILD:
		return st->prev += st->nclients;
	case OFFSET_PREV:
		return st->prev += e->qual[0].value;
	default:
		v = xorshift64(&st->rng);
		for (unsigned i = 0; i < e->nqual; i++) {
			uint64_t q = e->qual[i].value;
			v = e->qual[i].op == '/' ? v / q * q : e->qual[i].op == '%' ? v % q : v + q;
		}
		return st->prev = v;
	}
}

/* ---- one line ---- */

/* Where the next argument of each kind goes: the paths, a[], a[2]'s bytes. */
struct arg_pos {
	int path, num, byte;
};

/* A SCSI row's small field, a byte of a[2] (loadfile_byte_arg()). */
static bool parse_byte_arg(struct compiler *c, struct op *op, const struct token *t,
			   int *nbyte)
{
	int64_t v;

	if (!lex_int(&c->lx, t, &v))
		return false;
	if (v < 0 || v > 0xff) {
		fail(c, "%s's field %d is %" PRId64 ", not 0 to 255", op_table[op->type].name,
		     *nbyte + 1, v);
		return false;
	}
	op->a[2] |= v << (8 * (*nbyte)++);
	return true;
}

static bool parse_arg(struct compiler *c, struct op *op, enum arg_kind kind,
		      const struct token *t, struct arg_pos *at)
{
	int64_t v;
	int *nnum = &at->num;

	if (kind == ARG_PATH)
		return parse_path(c, t, op, at->path++ > 0);
	if (kind == ARG_BYTE)
		return parse_byte_arg(c, op, t, &at->byte);
	if (kind == ARG_OFFSET && (c->dl->rules & DIALECT_EXPRS) && !t->quoted &&
	    (t->s[0] == '*' || t->s[0] == '+')) {
		op->a[(*nnum)++] = 0;
		return parse_offset_expr(c, t, op);
	}
	if (!lex_int(&c->lx, t, &v))
		return false;
	switch (kind) {
	case ARG_HANDLE:
		if (v < INT32_MIN || v > INT32_MAX) {
			fail(c, "handle %" PRId64 " out of range", v);
			return false;
		}
		op->fnum = (int32_t)v;
		return true;
	case ARG_OFFSET:
		if (v < 0 || v > OP_MAX_OFFSET) {
			fail(c, v < 0 ? "negative offset %" PRId64
				      : "offset %" PRId64 " above the 1 PiB limit", v);
			return false;
		}
		break;
	case ARG_SIZE:
		if (v < 0 || v > OP_MAX_SIZE) {
			fail(c, v < 0 ? "negative size %" PRId64
				      : "size %" PRId64 " above the 16 MiB limit", v);
			return false;
		}
		break;
	default:
		break;
	}
	op->a[(*nnum)++] = v;
	return true;
}

/* Add op's share to the pass's totals. */
static void count_op(struct program *prog, const struct op *op)
{
	const struct op_desc *d = &op_table[op->type];

	if (d->bytes == BYTES_READ)
		prog->bytes_read += (uint64_t)op->a[1] * op->repeat;
	else if (d->bytes == BYTES_WRITE)
		prog->bytes_written += (uint64_t)op->a[1] * op->repeat;
	if (d->bytes != BYTES_NONE && op->a[1] > 0 && (uint64_t)op->a[1] > prog->max_transfer)
		prog->max_transfer = (size_t)op->a[1];
	prog->count[op->type] += op->repeat;
}

/* Append a position running table entry `entry`, from line `line`. */
static bool add_position(struct compiler *c, uint32_t entry, uint32_t line)
{
	if (!optab_append(c->prog, &c->tab, entry, line)) {
		lex_oom(&c->lx);
		return false;
	}
	count_op(c->prog, &c->tab.ops[entry]);
	c->prog->nops++;
	return true;
}

/* Op is final: its entry in the table (a new one or an equal one's), at
 * the next position.  The trace's handle number is dropped where a slot
 * was bound (the slot is what runs; messages name the path). */
static bool add_op(struct compiler *c, struct op *op)
{
	if (op->handle != HANDLE_NONE)
		op->fnum = -1;
	long entry = optab_intern(c->prog, &c->tab, op);
	if (entry < 0) {
		lex_oom(&c->lx);
		return false;
	}
	return add_position(c, (uint32_t)entry, c->lx.line);
}

/* What REPEAT and LOOP may hold: operations that open no handle and name
 * none, whose copies are independent of each other. */
static bool check_directives(struct compiler *c, struct op *op)
{
	const struct op_desc *d = &op_table[op->type];
	bool handle = d->args[0] == ARG_HANDLE || (d->flags & (OPD_OPENS | OPD_CLOSES));

	op->repeat = c->repeat ? c->repeat : 1;
	if (handle && c->repeat) {
		fail(c, "REPEAT (line %" PRIu32 ") may not repeat %s, which uses a handle",
		     c->repeat_line, d->name);
		return false;
	}
	if (handle && c->loop_count) {
		fail(c, "%s uses a handle, which a LOOP (line %" PRIu32 ") may not hold",
		     d->name, c->loop_line);
		return false;
	}
	c->repeat = 0;
	return true;
}

/* Checks that span arguments (the shared ones, then the dialect's),
 * handle binding and the pass's totals. */
static bool finish_op(struct compiler *c, struct op *op)
{
	const struct op_desc *d = &op_table[op->type];

	if (!check_clients_dir(c, op) || !check_directives(c, op))
		return false;
	if ((d->flags & OPD_PATTERN) && op->leaf && strpbrk(op->leaf, "*?<>\""))
		op->flags |= OPF_WILDCARD;
	if (!c->dl->finish(&c->dc, op))
		return false;
	if ((c->dl->rules & DIALECT_CAPPED) && d->bytes != BYTES_NONE && op->a[2] > op->a[1]) {
		fail(c, "expected return %" PRId64 " is more than the size %" PRId64,
		     op->a[2], op->a[1]);
		return false;
	}
	if (d->flags & (OPD_OPENS | OPD_CLOSES | OPD_HANDLE)) {
		if (!bind_handle(c, op))
			return false;
	}
	return add_op(c, op);
}

/* ---- the NFS dialect's directives ---- */

/* A count for REPEAT or LOOP: 1 .. LOADFILE_MAX_REPEAT. */
static bool parse_count(struct compiler *c, const char *what, const struct token *tok,
			int n, uint32_t *out)
{
	int64_t v;

	if (n != 2) {
		fail(c, "%s takes one count, got %d field%s", what, n - 1, n == 2 ? "" : "s");
		return false;
	}
	if (!lex_int(&c->lx, &tok[1], &v))
		return false;
	if (v < 1 || v > LOADFILE_MAX_REPEAT) {
		fail(c, "%s count %" PRId64 " is not between 1 and %u", what, v,
		     LOADFILE_MAX_REPEAT);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

/* ENDLOOP: the body, positions loop_start..nops, copied loop_count - 1
 * times, each copy with its original's entry and line. */
static bool unroll_loop(struct compiler *c)
{
	struct optab *t = &c->tab;
	size_t body = c->prog->nops - c->loop_start;
	uint64_t total = c->prog->nops + (uint64_t)body * (c->loop_count - 1);

	if (total > LOADFILE_MAX_UNROLLED && total > t->pcap) {
		fail(c, "LOOP (line %" PRIu32 ") unrolls to more than %d operations",
		     c->loop_line, LOADFILE_MAX_UNROLLED);
		return false;
	}
	if (!optab_reserve(c->prog, t, total + 1)) {
		lex_oom(&c->lx);
		return false;
	}
	for (uint32_t k = 1; k < c->loop_count; k++) {
		for (size_t i = c->loop_start; i < c->loop_start + body; i++) {
			if (!add_position(c, t->order[i], optab_line(t->lines, t->nlines, i)))
				return false;
		}
	}
	c->loop_count = 0;
	return true;
}

/* RANDOMSTRING i "text": each [set] of text becomes one of its characters. */
static bool random_string(struct compiler *c, const struct token *tok, int n)
{
	int64_t idx;
	char out[LOADFILE_MAX_LINE];
	size_t len = 0;

	if (n != 3) {
		fail(c, "RANDOMSTRING takes an index and a string, got %d field%s", n - 1,
		     n == 2 ? "" : "s");
		return false;
	}
	if (!lex_int(&c->lx, &tok[1], &idx))
		return false;
	if (idx < 0 || idx >= LOADFILE_RANDOM_STRINGS) {
		fail(c, "RANDOMSTRING index %" PRId64 " is not between 0 and %d", idx,
		     LOADFILE_RANDOM_STRINGS - 1);
		return false;
	}
	for (const char *p = tok[2].s, *end = p + tok[2].len; p < end; p++) {
		if (*p != '[') {
			out[len++] = *p;
			continue;
		}
		const char *close = memchr(p, ']', end - p);
		if (!close || close == p + 1) {
			fail(c, close ? "empty [] in RANDOMSTRING" : "unbalanced [ in RANDOMSTRING");
			return false;
		}
		out[len++] = p[1 + xorshift64(&c->rng) % (uint64_t)(close - p - 1)];
		p = close;
	}
	talloc_free(c->randstr[idx]);
	c->randstr[idx] = talloc_strndup(c->prog, out, len);
	if (!c->randstr[idx]) {
		lex_oom(&c->lx);
		return false;
	}
	c->have_randstr = true;
	return true;
}

/* WRITEPATTERN text: the rest of the line, which all writes repeat. */
static bool write_pattern(struct compiler *c, const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	p += strlen("WRITEPATTERN");
	if (p < end)
		p++;		/* the one separator after the word */
	if (p >= end) {
		fail(c, "WRITEPATTERN without a pattern");
		return false;
	}
	struct program *prog = c->prog;
	if (prog->write_pattern && ((size_t)(end - p) != prog->write_pattern_len ||
				    memcmp(prog->write_pattern, p, end - p) != 0)) {
		fail(c, "a second, different WRITEPATTERN (one loadfile writes one pattern)");
		return false;
	}
	prog->write_pattern = talloc_strndup(prog, p, end - p);
	prog->write_pattern_len = end - p;
	if (!prog->write_pattern) {
		lex_oom(&c->lx);
		return false;
	}
	return true;
}

/* A directive line: true when tok[0] names one (and it was handled or
 * failed, *ok saying which). */
static bool directive(struct compiler *c, const struct token *tok, int n,
		      const char *line, const char *end, bool *ok)
{
	const struct token *t = &tok[0];
	bool pending = c->repeat != 0;

	if (t->quoted)
		return false;
	if (component_is(t->s, t->len, "WRITEPATTERN")) {
		*ok = write_pattern(c, line, end);
		return true;
	}
	if (component_is(t->s, t->len, "RANDOMSTRING")) {
		*ok = random_string(c, tok, n);
		return true;
	}
	bool loop = component_is(t->s, t->len, "LOOP");
	bool endloop = component_is(t->s, t->len, "ENDLOOP");
	bool repeat = component_is(t->s, t->len, "REPEAT");
	if (!loop && !endloop && !repeat)
		return false;
	*ok = false;
	if (pending) {
		fail(c, "REPEAT (line %" PRIu32 ") is followed by %.*s, not an operation",
		     c->repeat_line, (int)t->len, t->s);
	} else if (repeat) {
		*ok = parse_count(c, "REPEAT", tok, n, &c->repeat);
		c->repeat_line = c->lx.line;
	} else if (loop && c->loop_count) {
		fail(c, "LOOP inside the LOOP of line %" PRIu32, c->loop_line);
	} else if (loop) {
		*ok = parse_count(c, "LOOP", tok, n, &c->loop_count);
		c->loop_line = c->lx.line;
		c->loop_start = c->prog->nops;
	} else if (!c->loop_count) {
		fail(c, "ENDLOOP without a LOOP");
	} else if (n != 1) {
		fail(c, "ENDLOOP takes nothing after it");
	} else {
		*ok = unroll_loop(c);
	}
	return true;
}

/* Line p..end with each $i replaced by RANDOMSTRING i, into buf. */
static bool substitute(struct compiler *c, const char *p, const char *end, char *buf,
		       const char **bend)
{
	size_t len = 0;

	for (; p < end; p++) {
		const char *add = p;
		size_t alen = 1;
		if (*p == '$') {
			int idx = p + 1 < end ? lex_digit(p[1]) : 99;
			if (idx >= LOADFILE_RANDOM_STRINGS || !c->randstr[idx]) {
				fail(c, "'$%.1s' names no RANDOMSTRING", p + 1 < end ? p + 1 : "");
				return false;
			}
			add = c->randstr[idx];
			alen = strlen(add);
			p++;
		}
		if (len + alen > LOADFILE_MAX_LINE) {
			fail(c, "line longer than %d bytes after RANDOMSTRING substitution",
			     LOADFILE_MAX_LINE);
			return false;
		}
		memcpy(buf + len, add, alen);
		len += alen;
	}
	*bend = buf + len;
	return true;
}

static bool compile_line(struct compiler *c, const char *p, const char *end)
{
	struct token tok[MAX_TOKENS];
	const char *first_char = p;

	while (first_char < end && (*first_char == ' ' || *first_char == '\t'))
		first_char++;
	if (first_char < end && *first_char == '#')
		return true;		/* a comment: anything may follow */
	char subst[LOADFILE_MAX_LINE];
	if (c->have_randstr && memchr(p, '$', end - p)) {
		if (!substitute(c, p, end, subst, &end))
			return false;
		p = subst;
	}
	int n = lex_tokenize(&c->lx, p, end, tok, MAX_TOKENS, NULL);
	if (n <= 0)
		return n == 0;
	bool ok;
	if (directive(c, tok, n, p, end, &ok))
		return ok;

	if (c->prog->nops >= LOADFILE_MAX_OPS) {
		fail(c, "more than %d operations, the loadfile limit", LOADFILE_MAX_OPS);
		return false;
	}
	struct op this = { .handle = HANDLE_NONE, .dir = DIR_NONE, .dir2 = DIR_NONE,
			   .fnum = -1, .repeat = 1 };
	struct op *op = &this;
	int first = 0;
	if (!tok[0].quoted && (isdigit((unsigned char)tok[0].s[0]) || tok[0].s[0] == '.')) {
		if (!parse_timestamp(c, &tok[0], &op->timestamp))
			return false;
		op->flags |= OPF_TIMED;
		c->prog->timed = true;
		first = 1;
	}
	if (first == n) {
		fail(c, "timestamp without an operation");
		return false;
	}
	const struct token *name = &tok[first];
	if (name->len >= 3 && strncasecmp(name->s, "SMB", 3) == 0) {
		fail(c, "this is a dbench 1 (SMB sniff) loadfile, which is not supported");
		return false;
	}
	const struct token *args = &tok[first + 1];
	int nargs = n - first - 1;
	int type;
	if (!(c->dl = dialect_of_row(name, args, nargs, &type))) {
		fail(c, "unknown operation '%s'", tokstr(c, name));
		return false;
	}
	op->type = type;
	const struct op_desc *d = &op_table[type];
	if (!c->dl->compile_row(&c->dc, op, args, nargs))
		return false;

	struct arg_pos at = { 0, 0, 0 };
	for (int i = 0; i < d->nargs; i++) {
		if (!parse_arg(c, op, d->args[i], &args[i], &at))
			return false;
	}
	return finish_op(c, op);
}

/* ---- whole files ---- */

/* The hash in hex.  Nettle's SHA-256 allocates nothing (so it cannot fail
 * when memory runs out) and uses the CPU's SHA instructions where it has
 * them: client.txt's 26 MB in milliseconds.  OpenSSL's did the same at
 * the cost of 3 MB of start-up in every run. */
static void sha256_finish(struct sha256_ctx *md, char out[65])
{
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_digest(md, sizeof(digest), digest);
	for (unsigned int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

static void sha256_hex(const char *text, size_t len, char out[65])
{
	struct sha256_ctx md;

	sha256_init(&md);
	sha256_update(&md, len, (const uint8_t *)text);
	sha256_finish(&md, out);
}

/* The table of distinct ops (at most one a line) must stay below talloc's
 * limit on one allocation (256 MiB); load/optab.c holds it to that many. */
_Static_assert((LOADFILE_MAX_OPS + 1) * sizeof(struct op) < 0x10000000,
	       "LOADFILE_MAX_OPS operations do not fit one talloc allocation");

/* The lines of text, at most LOADFILE_MAX_OPS + 1: room for every position. */
static size_t count_lines(const char *text, size_t len)
{
	size_t n = 1;
	for (const char *p = text; n <= LOADFILE_MAX_OPS && (p = memchr(p, '\n', text + len - p)); p++)
		n++;
	return n;
}

static bool compile_lines(struct compiler *c, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		c->lx.line++;
		const char *stop = (eol > p && eol[-1] == '\r') ? eol - 1 : eol;
		/* Bytes first: binary garbage is named as such, not as a long line. */
		if (!lex_check_bytes(&c->lx, p, stop - p > LOADFILE_MAX_LINE ? p + LOADFILE_MAX_LINE : stop))
			return false;
		if (eol - p > LOADFILE_MAX_LINE) {
			fail(c, "line longer than %d bytes", LOADFILE_MAX_LINE);
			return false;
		}
		if (!compile_line(c, p, stop))
			return false;
		if (!nl)
			break;
		p = nl + 1;
	}
	return true;
}

/* A file of a dialect of whole files (the system calls), with the same
 * result conventions as loadfile_compile(). */
static struct program *compiled_whole(TALLOC_CTX *mem_ctx, const struct dialect *dl,
				      struct program *prog, const char *name, const char *text,
				      size_t len, bool hash, char **err)
{
	bool oom;

	if (!dl->compile_file(prog, name, text, len, err, &oom)) {
		if (*err)
			*err = talloc_steal(mem_ctx, *err);
		talloc_free(prog);
		if (oom)
			*err = talloc_asprintf(mem_ctx, "%s: out of memory", name);
		errno = oom ? ENOMEM : EINVAL;
		return NULL;
	}
	if (hash)
		sha256_hex(text, len, prog->sha256);
	return prog;
}

/* The compiler of a program named `name`, with room for `cap` positions
 * to begin with; NULL when memory ran out. */
static struct program *compile_begin(TALLOC_CTX *mem_ctx, struct compiler *c, const char *name,
				     size_t cap)
{
	struct program *prog = talloc_zero(mem_ctx, struct program);

	*c = (struct compiler){ .prog = prog, .lx = { .mem = prog, .name = name },
				.rng = 0x2545f4914f6cdd1dull };
	c->dc = (struct dialect_ctx){ .lx = &c->lx, .offset_expr = dialect_offset_expr };
	if (!prog)
		return NULL;
	prog->source = talloc_strdup(prog, name);
	bool tab = optab_begin(prog, &c->tab, cap);
	c->open = talloc_array(prog, struct open_handle, LOADFILE_MAX_HANDLES);
	c->free_slots = talloc_array(prog, uint16_t, LOADFILE_MAX_HANDLES);
	/* dirs[0] is always the client directory itself. */
	if (!prog->source || !tab || !c->open || !c->free_slots ||
	    strset_add(prog, &c->dirs, "", 0) != 0)
		lex_oom(&c->lx);
	return prog;
}

/* The program once every line went through compile_lines() (`ok` when
 * the last did), with the text's SHA-256; or NULL, *err and errno as
 * loadfile_compile() says. */
static struct program *compile_end(TALLOC_CTX *mem_ctx, struct compiler *c, bool ok,
				   const char *sha256, char **err)
{
	struct program *prog = c->prog;
	const char *name = c->lx.name;

	if (c->lx.err)
		;
	else if (ok && c->repeat)
		c->lx.err = talloc_asprintf(prog, "%s:%" PRIu32 ": REPEAT is not followed by an "
					"operation", name, c->repeat_line);
	else if (c->loop_count)
		c->lx.err = talloc_asprintf(prog, "%s:%" PRIu32 ": LOOP without an ENDLOOP",
					name, c->loop_line);
	else if (prog->nops == 0 &&
		 !(c->lx.err = talloc_asprintf(prog, "%s: no operations in loadfile", name)))
		lex_oom(&c->lx);
	if (c->lx.err) {
		if (!c->lx.oom)
			*err = talloc_steal(mem_ctx, c->lx.err);
		talloc_free(prog);
		if (c->lx.oom)	/* the program's memory is free again for the message */
			*err = talloc_asprintf(mem_ctx, "%s: out of memory", name);
		errno = c->lx.oom ? ENOMEM : EINVAL;
		return NULL;
	}
	talloc_free(c->open);
	talloc_free(c->free_slots);
	talloc_free(c->paths.slot);
	talloc_free(c->paths.index);
	talloc_free(c->paths.order);
	talloc_free(c->dirs.slot);
	talloc_free(c->dirs.index);
	optab_finish(prog, &c->tab, prog);
	memcpy(prog->sha256, sha256, sizeof(prog->sha256));
	prog->npaths = c->paths.count;
	prog->dirs = c->dirs.order;
	prog->ndirs = c->dirs.count;
	prog->exprs = c->exprs;
	prog->nexprs = c->nexprs;
	for (int i = 0; i < LOADFILE_RANDOM_STRINGS; i++)
		talloc_free(c->randstr[i]);
	return prog;
}

/* loadfile_compile(), the text's SHA-256 taken when `hash`. */
static struct program *compile_text(TALLOC_CTX *mem_ctx, const char *name, const char *text,
				    size_t len, bool hash, char **err)
{
	struct compiler c;
	char sha256[65] = "";

	*err = NULL;
	const struct dialect *dl = dialect_of_file(text, len);
	if (dl) {
		struct program *prog = talloc_zero(mem_ctx, struct program);
		if (prog && (prog->source = talloc_strdup(prog, name)))
			return compiled_whole(mem_ctx, dl, prog, name, text, len, hash, err);
		talloc_free(prog);
		*err = talloc_asprintf(mem_ctx, "%s: out of memory", name);
		errno = ENOMEM;
		return NULL;
	}
	struct program *prog = compile_begin(mem_ctx, &c, name, count_lines(text, len));
	if (!prog)
		return NULL;
	bool ok = !c.lx.err && compile_lines(&c, text, len);
	if (hash)
		sha256_hex(text, len, sha256);
	return compile_end(mem_ctx, &c, ok, sha256, err);
}

struct program *loadfile_compile(TALLOC_CTX *mem_ctx, const char *name,
				 const char *text, size_t len, char **err)
{
	return compile_text(mem_ctx, name, text, len, true, err);
}

bool loadfile_check(TALLOC_CTX *mem_ctx, const char *name, const char *text, size_t len,
		    char **err)
{
	struct program *prog = compile_text(mem_ctx, name, text, len, false, err);

	if (!prog)
		return false;	/* (errno as it was left) */
	talloc_free(prog);
	return true;
}

/* zlib labels a gzdopen()ed stream "<fd:N>: "; the caller names the file. */
static const char *zlib_message(const char *msg)
{
	const char *colon = strncmp(msg, "<fd:", 4) == 0 ? strstr(msg, ": ") : NULL;
	return colon ? colon + 2 : msg;
}

/* A loadfile being read through zlib, which passes plain text through
 * unchanged. */
struct reader {
	gzFile gz;
	const char *path;
	size_t total;		/* bytes read so far, decompressed */
};

/*
 * Up to `want` more bytes of the loadfile into buf: how many, 0 at its
 * end, or -1 with *err (on mem_ctx) and errno set when it cannot be read
 * or is larger than LOADFILE_MAX_BYTES once decompressed.
 */
static long read_more(TALLOC_CTX *mem_ctx, struct reader *r, char *buf, size_t want, char **err)
{
	int n = gzread(r->gz, buf, (unsigned)(want > (1u << 30) ? 1u << 30 : want));

	if (n > 0) {
		r->total += (size_t)n;
		if (r->total <= (size_t)LOADFILE_MAX_BYTES)
			return n;
		*err = talloc_asprintf(mem_ctx, gzdirect(r->gz)
			? "%s: larger than %ld MiB, the loadfile limit"
			: "%s: more than %ld MiB once decompressed, the loadfile limit",
			r->path, LOADFILE_MAX_BYTES >> 20);
		errno = EFBIG;
		return -1;
	}
	/* gzread() returns 0 for a truncated stream too: ask zlib. */
	int errnum;
	const char *msg = gzerror(r->gz, &errnum);
	if (n == 0 && (errnum == Z_OK || errnum == Z_STREAM_END))
		return 0;
	*err = errnum == Z_ERRNO
		       ? talloc_asprintf(mem_ctx, "cannot read loadfile '%s': %s", r->path,
					 strerror(errno))
		       : talloc_asprintf(mem_ctx, "cannot read loadfile '%s': its gzip data is "
					 "damaged or cut short (%s)", r->path, zlib_message(msg));
	errno = EINVAL;
	return -1;
}

/* Fill buf (cap bytes, *n of them read already) as far as the file goes:
 * false with *err set when it cannot be read. */
static bool read_full(TALLOC_CTX *mem_ctx, struct reader *r, char *buf, size_t cap, size_t *n,
		      char **err)
{
	long got = 1;

	while (*n < cap && (got = read_more(mem_ctx, r, buf + *n, cap - *n, err)) > 0)
		*n += (size_t)got;
	return got >= 0;
}

/* The rest of the loadfile after the n bytes of buf (cap long, on
 * mem_ctx): all of its text, *len long, or NULL with *err set. */
static char *read_rest(TALLOC_CTX *mem_ctx, struct reader *r, char *buf, size_t n, size_t cap,
		       size_t *len, char **err)
{
	while (n == cap) {
		/* one byte past the limit tells a file that reaches it */
		cap = cap * 2 > (size_t)LOADFILE_MAX_BYTES ? (size_t)LOADFILE_MAX_BYTES + 1 : cap * 2;
		char *nbuf = talloc_realloc(mem_ctx, buf, char, cap);
		if (!nbuf) {
			*err = talloc_asprintf(mem_ctx, "%s: out of memory", r->path);
			errno = ENOMEM;
			return NULL;
		}
		buf = nbuf;
		if (!read_full(mem_ctx, r, buf, cap, &n, err))
			return NULL;
	}
	*len = n;
	return buf;
}

/*
 * Open the loadfile: a regular file, or a pipe (a FIFO, /dev/stdin from a
 * shell pipeline) whose writer has something within LOADFILE_PIPE_WAIT_S
 * (infile.h).  Returns a blocking descriptor, or -1 with *err set.
 */
static int open_loadfile(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	const char *why;
	int fd = infile_open(mem_ctx, path, INFILE_REGULAR | INFILE_PIPE, LOADFILE_PIPE_WAIT_S,
			     &why);

	if (fd < 0)
		*err = talloc_asprintf(mem_ctx, "cannot open loadfile '%s': %s", path, why);
	return fd;
}

/*
 * Compile a loadfile of the classic dialects as it is read, a chunk at a
 * time: its text is never held whole (client.txt's 26 MB would be, beside
 * its 40 MB program, the largest moment of a run's memory).  buf (of
 * LOADFILE_CHUNK bytes, on tmp) holds its first n bytes.  As when the
 * file is read whole first, what is wrong with reading it is reported
 * rather than what is wrong with its text: the compile stops at its
 * first error and the rest is still read.
 */
static struct program *compile_stream(TALLOC_CTX *mem_ctx, TALLOC_CTX *tmp, struct reader *r,
				      char *buf, size_t n, char **err)
{
	struct compiler c;
	char sha256[65] = "";
	struct sha256_ctx md;
	struct program *prog = compile_begin(mem_ctx, &c, r->path, LOADFILE_CHUNK / 16);
	bool ok = prog && !c.lx.err, more = true;
	long got = 0;

	sha256_init(&md);
	while (ok) {
		/* whole lines; at the end, or a line longer than the chunk, all */
		const char *nl = memrchr(buf, '\n', n);
		size_t use = !more || (!nl && n == LOADFILE_CHUNK) ? n : nl ? (size_t)(nl - buf) + 1 : 0;
		sha256_update(&md, use, (const uint8_t *)buf);
		ok = compile_lines(&c, buf, use);
		memmove(buf, buf + use, n - use);
		n -= use;
		if (!more)
			break;
		if ((got = read_more(tmp, r, buf + n, LOADFILE_CHUNK - n, err)) < 0)
			break;
		n += (size_t)got;
		more = got > 0;
	}
	while (got > 0)		/* the compile stopped: is the rest readable? */
		got = read_more(tmp, r, buf, LOADFILE_CHUNK, err);
	if (ok)
		sha256_finish(&md, sha256);
	if (!prog)
		return NULL;
	if (got < 0) {
		int saved = errno;
		talloc_free(prog);
		errno = saved;
		return NULL;
	}
	return compile_end(mem_ctx, &c, ok, sha256, err);
}

struct program *loadfile_read(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	struct program *prog = NULL;
	struct reader r = { .path = path };
	size_t n = 0, len = 0;

	*err = NULL;
	int fd = open_loadfile(tmp, path, err);
	char *buf = fd < 0 ? NULL : talloc_array(tmp, char, LOADFILE_CHUNK);
	if (fd >= 0 && (!buf || !(r.gz = gzdopen(fd, "rb")))) {
		if (!r.gz)
			close(fd);
		*err = talloc_asprintf(tmp, "%s: out of memory", path);
		errno = ENOMEM;
	} else if (fd >= 0 && read_full(tmp, &r, buf, LOADFILE_CHUNK, &n, err)) {
		/* A file of one chunk, or of a dialect of whole files, is
		 * compiled whole. */
		char *text = NULL;
		if (n < LOADFILE_CHUNK || dialect_of_file(buf, n))
			text = read_rest(tmp, &r, buf, n, LOADFILE_CHUNK, &len, err);
		else
			prog = compile_stream(mem_ctx, tmp, &r, buf, n, err);
		if (text && !*err)
			prog = loadfile_compile(mem_ctx, path, text, len, err);
	}
	int saved = errno;
	if (r.gz)
		gzclose(r.gz);
	if (!prog && *err && talloc_parent(*err) == tmp)
		talloc_steal(mem_ctx, *err);
	talloc_free(tmp);
	errno = saved;
	return prog;
}

/* The built-in loadfile's text, inflated on mem_ctx (*len long), or NULL
 * when memory ran out (errno ENOMEM) or the embedded data is damaged. */
static char *default_text(TALLOC_CTX *mem_ctx, size_t *len)
{
	const unsigned char *gz = default_loadfile_gz;
	size_t gzlen = (size_t)(default_loadfile_gz_end - gz);
	/* gzip's trailer ends with the text's size, little-endian */
	size_t size = gzlen < 18 ? 0 : (size_t)gz[gzlen - 4] | (size_t)gz[gzlen - 3] << 8 |
		(size_t)gz[gzlen - 2] << 16 | (size_t)gz[gzlen - 1] << 24;
	char *text = talloc_array(mem_ctx, char, size + 1);
	z_stream zs = { .next_in = (unsigned char *)gz, .avail_in = (uInt)gzlen,
			.next_out = (unsigned char *)text, .avail_out = (uInt)size + 1 };

	if (!text || inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		talloc_free(text);
		errno = ENOMEM;
		return NULL;
	}
	int z = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	if (z != Z_STREAM_END || zs.total_out != size) {
		talloc_free(text);
		errno = EINVAL;
		return NULL;
	}
	*len = size;
	return text;
}

struct program *loadfile_default(TALLOC_CTX *mem_ctx, char **err)
{
	size_t len = 0;
	char *text = default_text(mem_ctx, &len);

	if (!text) {
		int saved = errno;
		*err = talloc_strdup(mem_ctx, saved == ENOMEM ? "(built-in): out of memory"
					      : "(built-in): the loadfile in the binary is damaged");
		errno = saved;
		return NULL;
	}
	struct program *prog = loadfile_compile(mem_ctx, "(built-in)", text, len, err);
	int saved = errno;
	talloc_free(text);
	errno = saved;
	return prog;
}

char *loadfile_summary(TALLOC_CTX *mem_ctx, const struct program *prog)
{
	char *s = talloc_asprintf(mem_ctx, "loadfile %s\noperations %" PRIu64 "\n",
				  prog->source, loadfile_ops_per_pass(prog));
	for (int i = 0; i < OP_COUNT && s; i++) {
		if (prog->count[i])
			s = talloc_asprintf_append(s, "%s %" PRIu64 "\n",
						   op_table[i].name, prog->count[i]);
	}
	if (s && prog->calls)
		s = talloc_asprintf_append(s,
			"streams %u\nwaits %zu\nrecorded_seconds %.6f\n"
			"init_dirs %" PRIu64 "\ninit_files %" PRIu64 "\ninit_symlinks %" PRIu64
			"\ninit_bytes %" PRIu64 "\n", prog->nstreams, prog->ndeps, prog->duration,
			prog->init_dirs, prog->init_files, prog->init_symlinks, prog->init_bytes);
	if (s && prog->lost)
		s = talloc_asprintf_append(s, "lost %s\n", prog->lost);
	if (!s)
		return NULL;
	return talloc_asprintf_append(s,
		"bytes_read %" PRIu64 "\nbytes_written %" PRIu64 "\n"
		"max_handles %u\npaths %zu\ndirectories %zu\ndistinct_operations %zu\n"
		"timed %s\nsha256 %s\n",
		prog->bytes_read, prog->bytes_written, prog->max_handles, prog->npaths,
		prog->ndirs, prog->ndistinct, prog->timed ? "yes" : "no", prog->sha256);
}

size_t loadfile_max_transfer(const struct program *prog)
{
	if (prog->calls)
		return prog->max_buffer;
	return prog->max_transfer;
}

void loadfile_init_need(const struct program *prog, uint64_t block, uint64_t *bytes,
			uint64_t *inodes)
{
	uint64_t b = 0, n = 0;

	if (block == 0)
		block = 1;
	for (size_t i = 0; i < prog->ninit; i++) {
		const struct init_entry *e = &prog->init[i];
		if (e->kind == INIT_DATA)
			continue;	/* bytes of a file counted by its size */
		n++;
		if (e->kind == INIT_DIR)
			b += block;
		else if (e->kind == INIT_FILE && e->size > 0)	/* <= LOADFILE_MAX_INIT_SIZE */
			b += ((uint64_t)e->size + block - 1) / block * block;
	}
	if (n) {	/* the client's directory */
		n++;
		b += block;
	}
	*bytes = b;
	*inodes = n;
}

uint64_t loadfile_ops_per_pass(const struct program *prog)
{
	uint64_t n = 0;
	for (int i = 0; i < OP_COUNT; i++)
		n += prog->count[i];
	return n;
}
