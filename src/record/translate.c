/*
 * translate.c - strace's calls into the dialect's rows (translate.h).
 *
 * Owns its view of the calls (include/ops.def's STRACE rows: what strace
 * prints for each and the row it becomes; what a call does to the
 * descriptors comes from that row's flags) and the resolution of paths;
 * knows nothing of files, of the walk or of the writer.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loadfile.h"
#include "numtext.h"
#include "ops.h"
#include "record/fdmodel.h"
#include "record/infer.h"
#include "record/paths.h"
#include "record/translate.h"

/* A call held back, and where it came from. */
struct held {
	struct sc_call *c;
	uint32_t src, src_line;
};

struct translate {
	struct recording *rec;
	struct held *deferred;		/* opens waiting for the close of their FD */
	size_t ndeferred;
	uint32_t src, src_line;		/* where the call being taken came from */
	bool origin_given;		/* translate_origin() named it */
	uint32_t ncalls;		/* calls taken */
	char *why;			/* a call that cannot be a row: why */
	struct fdmodel *fds;
	struct infer *inf;	/* convert, -p: the initial state is inferred; else NULL */
	bool walked;		/* -p: and the roots were walked, their listings known */
	TALLOC_CTX *tmp;	/* freed after every call (a pool: its many small
				 * pieces cost no malloc and free each) */
};

/* What a call does beyond its row, when it succeeds (effect_of()). */
enum effect {
	E_NONE,
	E_OPEN,		/* the result is a new descriptor on the path */
	E_CLOSE,
	E_DUP,		/* dup, dup2, dup3: the result is a copy of the FD */
	E_READ,		/* the result is bytes read */
	E_WRITE,	/* the result is bytes written */
	E_COPY,		/* the result is bytes read and written */
	E_LIST,		/* getdents: the FD's directory was listed */
	E_CHDIR,
	E_FCHDIR,
	E_NOROW,	/* beneath the roots but the dialect has no row for it */
};

/*
 * A call as strace prints it (ops.def's STRACE rows, where the letters
 * of its shape are explained): the row it becomes, written with the
 * call's own name (the row's name or alias), or none; a call with no
 * shape is taken apart (apart[] below).
 */
struct callspec {
	const char *name;	/* as strace prints it */
	int op;			/* OP_SYS_*, or OP_SYS_NONE */
	const char *shape;
	bool asked;		/* the tracers ask for it */
};

enum { OP_SYS_NONE = -1 };

static const struct callspec calls[] = {
#define STRACE(call, id, shape, bpf) { #call, OP_SYS_##id, shape, true },
#define STRACE_UNASKED(call, id, shape) { #call, OP_SYS_##id, shape, false },
#include "ops.def"
};

/* What a call of spec does beyond its row, from its row's flags. */
static enum effect effect_of(const struct callspec *spec)
{
	if (spec->op < 0)
		return E_NOROW;
	uint32_t f = op_table[spec->op].flags;
	int bytes = op_table[spec->op].bytes;
	if (f & OPD_OPENS)
		return E_OPEN;
	if (f & OPD_CLOSES)
		return E_CLOSE;
	if (f & OPD_DUPS)
		return E_DUP;
	if (f & OPD_COPIES)
		return E_COPY;
	if (bytes != BYTES_NONE)
		return bytes == BYTES_READ ? E_READ : E_WRITE;
	if (f & OPD_LISTS)
		return E_LIST;
	if (f & OPD_CHDIR)
		return spec->shape[0] == 'P' ? E_CHDIR : E_FCHDIR;
	return E_NONE;
}

/* The calls the recorder asks the tracers for: the table's that either
 * asks for (strace's -e trace=, bpf_calls.c's wanted numbers). */
const char *translate_trace_set(TALLOC_CTX *mem_ctx)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].asked)
			s = talloc_asprintf_append(s, "%s?%s", *s ? "," : "", calls[i].name);
	return s;
}

/* A call strace prints raw (translate_raw_set()): one that moves bytes
 * through a buffer (read, write, pread64, pwrite64), of a descriptor,
 * the buffer and numbers alone. */
static bool printed_raw(const struct callspec *c)
{
	enum effect e = c->asked && c->shape ? effect_of(c) : E_NONE;

	return (e == E_READ || e == E_WRITE) && strncmp(c->shape, "F_N", 3) == 0 &&
	       c->shape[strspn(c->shape + 3, "N") + 3] == '\0';
}

const char *translate_raw_set(TALLOC_CTX *mem_ctx)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (printed_raw(&calls[i]))
			s = talloc_asprintf_append(s, "%s?%s", *s ? "," : "", calls[i].name);
	return s;
}

static const struct callspec *spec_of(const char *name)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(calls[i].name, name) == 0)
			return &calls[i];
	return NULL;
}

/* The top directory of an absolute path outside the roots, for the
 * summary ("/usr"). */
static char *top_dir(TALLOC_CTX *mem_ctx, const char *abs)
{
	const char *e = strchr(abs + 1, '/');

	return e ? talloc_strndup(mem_ctx, abs, (size_t)(e - abs)) : talloc_strdup(mem_ctx, abs);
}

/* ---- one call ---- */

/* Where a call's arguments lead: every path and descriptor beneath the
 * roots, or why not. */
enum where { W_IN, W_OUTSIDE, W_SPECIAL, W_FD_OUTSIDE, W_FD_UNSEEN, W_UNKNOWN };

struct call_state {
	struct translate *tr;
	const struct sc_call *c;
	const struct callspec *spec;
	enum effect effect;		/* effect_of(spec) */
	enum where where;
	const char *outside_top;	/* a path outside: its top directory */
	const char *outside_abs;	/* and the first such path, absolute */
	char *args;			/* the row's arguments so far */
	size_t args_len;		/* its length */
	size_t args_cap;		/* the bytes allocated for it */
	const char *path[2];		/* the absolute paths named, in order */
	const char *rel[2];
	int npath;
	int fd[2];			/* the descriptors named */
	int nfd;
	bool empty_path_fd;		/* a D P pair with "" and AT_EMPTY_PATH */
	const char *too_big;		/* a number argument beyond 64 bits */
	const char *special[2];		/* W_SPECIAL: the FIFOs, sockets, devices named */
};

/* The call cannot be a row (a value no loadfile holds): why, for
 * translate_why(); returns 1. */
static int refuse(struct translate *tr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct translate *tr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	talloc_free(tr->why);
	tr->why = talloc_vasprintf(tr, fmt, ap);
	va_end(ap);
	return tr->why ? 1 : -1;
}

const char *translate_why(const struct translate *tr)
{
	return tr->why;
}

/* Whether the n bytes at p are a decimal number strtoll reads whole
 * and in range without asking it: an optional '-', then "0" or at most
 * 18 digits not starting with 0 (which strtoll's base 0 takes as octal). */
static bool plain_decimal(const char *p, size_t n)
{
	size_t i = *p == '-';

	if (n <= i || n - i > 18 || (p[i] == '0' && n - i > 1))
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* Whether a number or flags token, as strace printed it, holds only
 * numbers of 64 bits: "0644", "O_RDONLY|0x800000", "-1". */
static bool number_fits(const char *tok)
{
	for (const char *p = tok; *p;) {
		size_t n = strcspn(p, "|");
		if ((isdigit((unsigned char)*p) || *p == '-') && !plain_decimal(p, n)) {
			char *end;
			errno = 0;
			(void)strtoll(p, &end, 0);
			if (errno == ERANGE || (size_t)(end - p) != n)
				return false;
		}
		p += n + (p[n] == '|');
	}
	return true;
}

/* Argument v appended to the row's, after a space (no format, and a
 * realloc only when its room, doubled, is short: the arguments of every
 * call of a recording pass here); NULL (memory ran out) makes the row's
 * NULL. */
static void add_arg(struct call_state *s, const char *v)
{
	if (!s->args)
		return;
	size_t n = v ? strlen(v) : 0, need = s->args_len + n + 2;
	char *a = v ? s->args : NULL;

	if (a && need > s->args_cap) {
		size_t cap = s->args_cap * 2 > need ? s->args_cap * 2 : need;
		if ((a = talloc_realloc(NULL, s->args, char, cap)))
			s->args_cap = cap;
	}
	if (!a) {
		talloc_free(s->args);
		s->args = NULL;
		return;
	}
	a[s->args_len] = ' ';
	memcpy(a + s->args_len + 1, v, n + 1);
	s->args_len += n + 1;
	s->args = a;
}

static bool has_flag(const char *text, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = text; p && (p = strstr(p, flag)) != NULL; p += n) {
		bool start = p == text || p[-1] == '|' || p[-1] == ' ' || p[-1] == '=' || p[-1] == '{';
		bool end = p[n] == '\0' || p[n] == '|' || p[n] == ',' || p[n] == '}' || p[n] == ' ';
		if (start && end)
			return true;
	}
	return false;
}

/* A number or flags as printed, less strace's comments ("0x10 /\* AT_??? *\/"). */
static char *token(TALLOC_CTX *mem_ctx, const char *text)
{
	const char *c = strstr(text, " /*");
	size_t n = c ? (size_t)(c - text) : strlen(text);

	return talloc_strndup(mem_ctx, text, n);
}

/* Resolve path argument `text` against directory descriptor dirfd (or
 * the working directory): the absolute path, or NULL with s->where set. */
static const char *resolve(struct call_state *s, int dirfd, const char *text)
{
	struct translate *tr = s->tr;
	bool cut;
	char *p = strace_string(tr->tmp, text, &cut);

	if (!p || cut) {
		if (cut)
			tr->rec->cut_paths++;
		s->where = W_UNKNOWN;
		return NULL;
	}
	if (p[0] == '/')
		return path_normalize(tr->tmp, p);
	const char *dir;
	if (dirfd == SC_AT_FDCWD) {
		dir = fdmodel_cwd(tr->fds, s->c->tid);
	} else {
		struct ofd *o = fdmodel_get(tr->fds, s->c->tid, dirfd);
		dir = o ? o->path : NULL;
	}
	if (!dir) {
		s->where = W_UNKNOWN;
		return NULL;
	}
	return path_normalize(tr->tmp, talloc_asprintf(tr->tmp, "%s/%s", dir, p));
}

/* A path argument: resolved, checked, written. */
static void arg_path(struct call_state *s, int dirfd, const char *text)
{
	const char *abs;

	if (s->empty_path_fd) {
		struct ofd *o = fdmodel_get(s->tr->fds, s->c->tid, dirfd);
		abs = o ? o->path : NULL;
		if (!abs)
			s->where = W_UNKNOWN;
	} else {
		abs = resolve(s, dirfd, text);
	}
	if (!abs)
		return;
	bool own = recording_is_own(s->tr->rec, abs);
	const char *rel = own ? NULL : path_in_roots(s->tr->tmp, s->tr->rec, abs);
	if (rel && recording_is_special(s->tr->rec, rel)) {
		s->special[s->special[0] ? 1 : 0] = rel;
		if (s->where == W_IN)
			s->where = W_SPECIAL;
		return;
	}
	if (!rel) {
		if (s->where == W_IN) {
			s->where = W_OUTSIDE;
			s->outside_top = own ? "the trace's own files" : top_dir(s->tr->tmp, abs);
			s->outside_abs = abs;
		}
		return;
	}
	if (s->npath < 2) {
		s->path[s->npath] = abs;
		s->rel[s->npath++] = rel;
	}
	add_arg(s, recording_quote(s->tr->tmp, rel));
}

static void arg_fd(struct call_state *s, const char *text)
{
	int fd;

	if (!strace_fd(text, &fd) || fd < 0) {
		s->where = W_UNKNOWN;
		return;
	}
	struct ofd *o = fdmodel_get(s->tr->fds, s->c->tid, fd);
	if (!o || !o->in_root) {
		if (s->where == W_IN)
			s->where = o ? W_FD_OUTSIDE : W_FD_UNSEEN;
		return;
	}
	if (s->nfd < 2)
		s->fd[s->nfd++] = fd;
	char num[NUMTEXT_MAX];
	numtext_i64(num, fd);
	add_arg(s, num);
}

/* The arguments by the spec's shape. */
static void walk_shape(struct call_state *s)
{
	const struct sc_call *c = s->c;
	int dirfd = SC_AT_FDCWD;
	int i = 0;

	for (const char *k = s->spec->shape; *k && s->where == W_IN; k++, i++) {
		const char *a = i < c->nargs ? c->arg[i] : NULL;
		if (!a && *k != 'O') {
			s->where = W_UNKNOWN;
			break;
		}
		switch (*k) {
		case 'D':
			if (!strace_fd(a, &dirfd))
				s->where = W_UNKNOWN;
			break;
		case 'P':
			arg_path(s, dirfd, a);
			dirfd = SC_AT_FDCWD;
			s->empty_path_fd = false;
			break;
		case 'F':
			arg_fd(s, a);
			break;
		case 'N': {
			char *t = token(s->tr->tmp, a);
			int64_t v;	/* printed raw, in hex: the row's decimal */
			if (t && t[0] == '0' && t[1] == 'x' && printed_raw(s->spec) &&
			    strace_int(t, &v) && v >= 0 && (t = talloc_size(s->tr->tmp, NUMTEXT_MAX)))
				numtext_i64(t, v);
			if (t && !number_fits(t))
				s->too_big = t;
			add_arg(s, t);
			break;
		}
		case 'G': {
			int fd;
			char num[16];
			snprintf(num, sizeof(num), "%d", strace_fd(a, &fd) ? fd : -1);
			add_arg(s, num);
			break;
		}
		case 'O': {
			char *t = a ? token(s->tr->tmp, a) : "0";
			if (t && !number_fits(t))
				s->too_big = t;
			add_arg(s, t);
			break;
		}
		case 'S': {
			char *str = strace_string(s->tr->tmp, a, NULL);
			if (!str)
				s->where = W_UNKNOWN;
			else
				add_arg(s, recording_quote(s->tr->tmp, str));
			break;
		}
		case 'V': {
			char num[24];
			snprintf(num, sizeof(num), "%llu", (unsigned long long)strace_iov_total(a));
			add_arg(s, num);
			break;
		}
		case 'L': {
			int64_t v;
			char num[24];
			if (strace_bracketed_int(a, &v))
				snprintf(num, sizeof(num), "%lld", (long long)v);
			else
				strcpy(num, "-");
			add_arg(s, num);
			break;
		}
		default:
			break;
		}
	}
}

static struct row *add_row(struct translate *tr, const struct sc_call *c, const char *call,
			   const char *args)
{
	struct recording *rec = tr->rec;
	struct row *r = recording_add(rec);

	if (!r)
		return NULL;
	r->start_us = c->start_us - rec->t0_us;
	if (r->start_us < 0)
		r->start_us = 0;
	r->dur_us = c->dur_us > 0 ? c->dur_us : 0;
	r->tid = c->tid;
	r->call = call;
	r->src = tr->src;
	r->src_line = tr->src_line;
	r->args = recording_keep(rec, args ? args : "", args ? strlen(args) : 0);
	if (c->ret < 0 && c->err[0])
		snprintf(r->result, sizeof(r->result), "%s", c->err);
	else
		numtext_i64(r->result, c->ret);	/* (no printf: a row for every call) */
	if (r->start_us + r->dur_us > rec->end_us)
		rec->end_us = r->start_us + r->dur_us;
	rec->io_us += r->dur_us;
	if (!r->args || !tally_add(&rec->calls, call, 1))
		return NULL;
	return r;
}

/* The row of a read or write whose LEN or result passes OP_MAX_SIZE, the
 * most one row moves (doc/SYSCALLS.md), made rows of at most that much
 * each, one after the other (at the offsets that follow, for pread64's
 * and pwrite64's kind), the call's time shared between them; a failed
 * write keeps one row, of OP_MAX_SIZE.  rec->rows[at] is the call's row.
 * false when memory ran out. */
static bool chunked(struct translate *tr, const struct call_state *s, size_t at)
{
	const struct sc_call *c = s->c;
	const char *shape = s->spec->shape;
	bool vec = shape[1] == 'V', has_off = strlen(shape) >= 4 && shape[3] == 'N';
	int64_t len = vec ? (int64_t)strace_iov_total(c->arg[1]) : strtoll(c->arg[2], NULL, 0), off = 0;
	uint64_t ret = c->ret > 0 ? (uint64_t)c->ret : 0, done = 0;

	if (c->ret <= OP_MAX_SIZE && (len <= OP_MAX_SIZE || s->effect == E_READ))
		return true;	/* a read's LEN alone the compiler takes as 16 MiB */
	if (has_off && !strace_int(c->arg[3], &off))
		return true;	/* written as printed: the compiler says what is wrong */
	uint64_t n = c->ret > 0 ? (ret + OP_MAX_SIZE - 1) / OP_MAX_SIZE : 1;
	struct row first = tr->rec->rows[at];
	tr->rec->split_calls += n > 1;
	for (uint64_t k = 0; k < n; k++) {
		struct row *r = k ? recording_add(tr->rec) : &tr->rec->rows[at];
		int64_t part = len - (int64_t)(k * OP_MAX_SIZE) < OP_MAX_SIZE ? len - (int64_t)(k * OP_MAX_SIZE)
									       : OP_MAX_SIZE;
		uint64_t got = ret - done < (uint64_t)part ? ret - done : (uint64_t)part;
		if (!r)
			return false;
		*r = first;
		r->dur_us = first.dur_us / (int64_t)n;
		r->args = has_off ? talloc_asprintf(tr->rec, " %d %lld %lld", s->fd[0], (long long)part,
						    (long long)(off + (int64_t)done))
				  : talloc_asprintf(tr->rec, " %d %lld", s->fd[0], (long long)part);
		if (c->ret >= 0)
			snprintf(r->result, sizeof(r->result), "%llu", (unsigned long long)got);
		done += got;
		if (!r->args || (k && !tally_add(&tr->rec->calls, first.call, 1)))
			return false;
	}
	return true;
}

/* Count a call left out, by why. */
static bool left_out(struct translate *tr, const struct call_state *s)
{
	struct recording *rec = tr->rec;

	switch (s->where) {
	case W_OUTSIDE:
		return tally_add(&rec->outside, s->outside_top ? s->outside_top : "?", 1);
	case W_UNKNOWN:
		return tally_add(&rec->outside, "(unresolved)", 1);
	case W_SPECIAL:
		rec->special_calls++;
		return true;
	case W_FD_OUTSIDE:
		rec->fd_outside++;
		return true;
	case W_FD_UNSEEN:
		rec->fd_unseen++;
		return true;
	case W_IN:
		break;
	}
	return true;
}

/* The open family's descriptor, once it is known to be beneath the roots. */
static bool effect_open(struct translate *tr, const struct call_state *s, const char *flags)
{
	struct ofd *o = fdmodel_open(tr->fds, s->c->tid, (int)s->c->ret,
				     flags && has_flag(flags, "O_CLOEXEC"), true);

	if (!o || !(o->path = talloc_strdup(o, s->path[0])))
		return false;
	o->is_dir = flags && has_flag(flags, "O_DIRECTORY");
	o->append = flags && has_flag(flags, "O_APPEND");
	return true;
}

/* A call opening a descriptor on a path outside the roots: the descriptor
 * is known, so that later calls on it are counted as outside. */
static bool open_outside(struct translate *tr, const struct sc_call *c, const char *abs,
			 const char *flags)
{
	struct ofd *o = fdmodel_open(tr->fds, c->tid, (int)c->ret,
				     flags && has_flag(flags, "O_CLOEXEC"), false);

	return o && (!abs || (o->path = talloc_strdup(o, abs)));
}

static const char *flags_arg(const struct call_state *s)
{
	const char *shape = s->spec->shape;

	for (int i = 0; shape[i]; i++)
		if (shape[i] == 'N' && i < s->c->nargs)
			return s->c->arg[i];
	return NULL;
}

/* A read or write that moves the offset (read, write, readv, writev)
 * moves it by what it moved; lseek sets it (generic()). */
static void advance(struct translate *tr, const struct call_state *s)
{
	struct ofd *o = fdmodel_get(tr->fds, s->c->tid, s->fd[0]);

	if (o && op_has(s->spec->op, OPD_MOVES_OFFSET))
		o->pos += (uint64_t)s->c->ret;
}

/* Where a read or copy of the call starts: its offset argument at
 * shape position i ([N] or N), or the descriptor's offset. */
static uint64_t read_from(const struct call_state *s, struct ofd *o, int i)
{
	int64_t off;

	if (i < s->c->nargs && (strace_int(s->c->arg[i], &off) || strace_bracketed_int(s->c->arg[i], &off)))
		return (uint64_t)off;
	return o->pos;
}

/* The inference's view of a row: its paths, or the file its descriptor
 * was opened on, and for a read or copy where it ended and what it asked
 * for.  What an open opened goes into *opened. */
static bool infer_row(struct translate *tr, const struct call_state *s, struct infer_file **opened)
{
	const struct sc_call *c = s->c;
	struct ofd *o = s->nfd ? fdmodel_get(tr->fds, c->tid, s->fd[0]) : NULL;
	struct infer_row r = { .op = s->spec->op, .shape = s->spec->shape, .c = c,
			       .rel = s->npath ? s->rel[0] : NULL,
			       .rel2 = s->npath > 1 ? s->rel[1] : NULL };

	if (!s->npath && o) {
		const char *shape = s->spec->shape;
		r.file = o->note;
		if (s->effect == E_READ && c->ret >= 0) {
			r.extent = read_from(s, o, strlen(shape) >= 4 && shape[3] == 'N' ? 3 : 99) +
				   (uint64_t)c->ret;
			r.asked = shape[1] == 'V' ? strace_iov_total(c->arg[1])
						  : (uint64_t)strtoull(c->arg[2], NULL, 0);
		} else if (s->effect == E_COPY && c->ret >= 0 && s->nfd > 1) {
			bool cfr = !op_has(s->spec->op, OPD_OUT_FIRST);	/* FD_IN first */
			struct ofd *out = fdmodel_get(tr->fds, c->tid, s->fd[cfr ? 1 : 0]);
			struct ofd *in = fdmodel_get(tr->fds, c->tid, s->fd[cfr ? 0 : 1]);
			r.file = in ? in->note : NULL;
			r.file2 = out ? out->note : NULL;
			r.extent = in ? read_from(s, in, 2 - cfr) + (uint64_t)c->ret : 0;
			r.asked = (uint64_t)strtoull(c->arg[cfr ? 4 : 3], NULL, 0);
		}
	}
	bool ok = infer_call(tr->inf, &r);
	*opened = r.opened;
	return ok;
}

/* What a successful call does to the model. */
static bool apply_effect(struct translate *tr, struct call_state *s)
{
	const struct sc_call *c = s->c;
	struct recording *rec = tr->rec;

	switch (s->effect) {
	case E_OPEN:
		return effect_open(tr, s, op_has(s->spec->op, OPD_CREAT) ? NULL : flags_arg(s));
	case E_CLOSE:
		fdmodel_close(tr->fds, c->tid, s->fd[0]);
		return true;
	case E_DUP: {
		const char *flags = flags_arg(s);	/* dup3's */
		bool cloexec = flags && has_flag(flags, "O_CLOEXEC");
		return fdmodel_dup(tr->fds, c->tid, s->fd[0], (int)c->ret, cloexec);
	}
	case E_READ:
		rec->bytes_read += (uint64_t)c->ret;
		advance(tr, s);
		return true;
	case E_WRITE:
		rec->bytes_written += (uint64_t)c->ret;
		advance(tr, s);
		return true;
	case E_COPY:
		rec->bytes_read += (uint64_t)c->ret;
		rec->bytes_written += (uint64_t)c->ret;
		return true;
	case E_LIST: {
		struct ofd *o = fdmodel_get(tr->fds, c->tid, s->fd[0]);
		const char *rel = o ? path_in_roots(tr->tmp, rec, o->path) : NULL;
		return !rel || recording_touch(rec, rel, TOUCH_LISTED);
	}
	case E_CHDIR:
		return fdmodel_chdir(tr->fds, c->tid, s->path[0]);
	case E_FCHDIR: {
		struct ofd *o = fdmodel_get(tr->fds, c->tid, s->fd[0]);
		return !o || fdmodel_chdir(tr->fds, c->tid, o->path);
	}
	case E_NONE:
	case E_NOROW:
		break;
	}
	return true;
}

/*
 * A call left out still changes the model: a descriptor opened outside
 * the roots is still a descriptor (later calls on it are counted as
 * outside, and its number is no longer what it was), a dup can put one
 * over a descriptor beneath the roots, a chdir moves the working
 * directory.  false when memory ran out.
 */
static bool outside(struct translate *tr, const struct call_state *s)
{
	const struct sc_call *c = s->c;
	const struct callspec *spec = s->spec;
	int fd;

	if (s->effect == E_OPEN && c->ret >= 0)	/* its path, for calls relative to it */
		return open_outside(tr, c, s->where == W_OUTSIDE ? s->outside_abs : NULL,
				    op_has(spec->op, OPD_CREAT) ? NULL : flags_arg(s));
	if (s->effect == E_DUP && c->ret >= 0) {
		if (strace_fd(c->arg[0], &fd) && fdmodel_get(tr->fds, c->tid, fd))
			fdmodel_dup(tr->fds, c->tid, fd, (int)c->ret, false);
		else
			fdmodel_close(tr->fds, c->tid, (int)c->ret);
	} else if (s->effect == E_CLOSE && strace_fd(c->arg[0], &fd)) {
		fdmodel_close(tr->fds, c->tid, fd);
	} else if (s->effect == E_FCHDIR && c->ret == 0 && strace_fd(c->arg[0], &fd)) {
		struct ofd *o = fdmodel_get(tr->fds, c->tid, fd);
		return fdmodel_chdir(tr->fds, c->tid, o ? o->path : NULL);
	} else if (s->effect == E_CHDIR && c->ret == 0) {
		bool cut;
		char *p = strace_string(tr->tmp, c->arg[0], &cut);
		const char *cwd = fdmodel_cwd(tr->fds, c->tid);
		if (p && !cut && (cwd || p[0] == '/')) {
			char *abs = p[0] == '/' ? p : talloc_asprintf(tr->tmp, "%s/%s", cwd, p);
			return abs && fdmodel_chdir(tr->fds, c->tid, path_normalize(tr->tmp, abs));
		}
		return fdmodel_chdir(tr->fds, c->tid, NULL);	/* somewhere unknown */
	}
	return true;
}

/* Whether the replay may not make the call on the root, the client's
 * directory (rmdir or rename of it: loadfile_root_refusal()). */
static bool root_refused(const struct call_state *s)
{
	int type = s->spec->op;
	bool first = s->npath > 0 && !*s->rel[0], second = s->npath > 1 && !*s->rel[1];

	return type >= 0 && (first || second) &&
	       loadfile_root_refusal(type, first, second, s->c->ret < 0) != NULL;
}

/* Whether a stat the call printed shows a FIFO, socket or device. */
static bool shows_special(const struct sc_call *c)
{
	static const char *const kinds[] = { "S_IFIFO", "S_IFSOCK", "S_IFCHR", "S_IFBLK" };

	for (int i = 1; i < c->nargs; i++) {
		const char *m = c->arg[i][0] == '{' ? strstr(c->arg[i], "_mode=") : NULL;
		for (size_t k = 0; m && k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (strncmp(m + 6, kinds[k], strlen(kinds[k])) == 0)
				return true;
	}
	return false;
}

/* Whether mknod's or mknodat's mode makes a FIFO, socket or device. */
static bool shows_special_mode(const struct sc_call *c)
{
	int i = strcmp(c->name, "mknodat") == 0 ? 2 : 1;
	const char *m = i < c->nargs ? c->arg[i] : "";
	int64_t v;

	if (strace_int(m, &v)) {	/* a number (the bpf tracer's): its type bits */
		unsigned t = (unsigned)v & S_IFMT;
		return t == S_IFIFO || t == S_IFSOCK || t == S_IFCHR || t == S_IFBLK;
	}
	return has_flag(m, "S_IFIFO") || has_flag(m, "S_IFSOCK") || has_flag(m, "S_IFCHR") ||
	       has_flag(m, "S_IFBLK");
}

/*
 * FIFOs, sockets and devices beneath the roots, which no replay makes:
 * a call that stat shows one, or a mknod that makes one, names one from
 * then on (rec->special); a call naming one is left out (W_SPECIAL),
 * and an unlink or a rename of one moves the mark.  false when memory
 * ran out.
 */
static bool special_names(struct translate *tr, struct call_state *s)
{
	const struct sc_call *c = s->c;
	struct recording *rec = tr->rec;
	bool mknod = strncmp(c->name, "mknod", 5) == 0;	/* mknod, mknodat: no row */
	int op = s->spec->op;

	if (s->where == W_IN && s->npath && c->ret == 0 &&
	    (shows_special(c) || (mknod && shows_special_mode(c)))) {
		s->where = W_SPECIAL;
		s->special[0] = s->rel[0];
		return recording_special(rec, s->rel[0], true);
	}
	if (s->where != W_SPECIAL || c->ret != 0)
		return true;
	if (op >= 0 && op_has(op, OPD_REMOVES))
		return recording_special(rec, s->special[0], false);
	if (op >= 0 && op_has(op, OPD_RENAMES) && s->npath)	/* onto a name in the roots */
		return recording_special(rec, s->special[0], false) &&
		       recording_special(rec, s->rel[0], true);
	return true;
}

/* Whether the directory a getdents call lists holds a FIFO, socket or
 * device, which the replay's will not. */
static bool lists_special(struct translate *tr, const struct call_state *s)
{
	struct ofd *o = fdmodel_get(tr->fds, s->c->tid, s->fd[0]);
	const char *rel = o ? path_in_roots(tr->tmp, tr->rec, o->path) : NULL;

	return rel && recording_holds_special(tr->rec, rel);
}

/* utimensat(fd, NULL, times, 0): glibc's futimens(). */
static const struct callspec futimens_spec = { "futimens", OP_SYS_FUTIMENS, "F___", false };

/* A call of the table. */
static int generic(struct translate *tr, const struct sc_call *c, const struct callspec *spec)
{
	struct call_state s = { .tr = tr, .c = c, .spec = spec, .where = W_IN, .args_cap = 128 };

	if (!spec)	/* spec_of() a name of the table: never */
		return -1;
	s.args = talloc_zero_size(tr->tmp, s.args_cap);
	/* fstat(), futimens() and the like as glibc makes them: on an FD */
	bool empty = c->nargs > 1 && strcmp(c->arg[1], "\"\"") == 0 && spec->shape[0] == 'D';
	if (empty && spec->op == OP_SYS_NEWFSTATAT && has_flag(c->arg[3], "AT_EMPTY_PATH"))
		s.spec = spec_of("fstat");	/* a row */
	else if (spec->op == OP_SYS_UTIMENSAT && c->nargs > 1 && strcmp(c->arg[1], "NULL") == 0)
		s.spec = &futimens_spec;
	else if (empty)
		s.empty_path_fd = true;	/* statx(fd, "", AT_EMPTY_PATH): the FD's file */
	spec = s.spec;
	if (!spec)
		return -1;
	s.effect = effect_of(spec);
	const char *call = spec->name;	/* the row's name or alias */
	walk_shape(&s);
	if (!s.args || !special_names(tr, &s))
		return -1;
	if (s.where == W_IN && s.npath == 0 && s.nfd == 0)
		s.where = W_UNKNOWN;
	if (s.where != W_IN)
		return outside(tr, &s) && left_out(tr, &s) ? 0 : -1;
	if (root_refused(&s))
		return tally_add(&tr->rec->on_root, call, 1) ? 0 : -1;
	if (s.too_big)
		return refuse(tr, "%s: a number beyond 64 bits ('%s')", c->name, s.too_big);
	for (int i = 0; i < s.npath; i++)
		if (!recording_touch(tr->rec, s.rel[i], TOUCH_USED))
			return -1;
	if (s.effect == E_NOROW)
		return tally_add(&tr->rec->norow, c->name, 1) ? 0 : -1;
	struct row *r = add_row(tr, c, call, s.args);
	struct infer_file *opened = NULL;
	if (!r || (tr->inf && !infer_row(tr, &s, &opened)))
		return -1;
	if ((s.effect == E_READ || s.effect == E_WRITE) &&
	    !chunked(tr, &s, (size_t)(r - tr->rec->rows)))
		return -1;
	r = &tr->rec->rows[tr->rec->nrows - 1];	/* the call's last row */
	bool unwalked = tr->inf && !tr->walked;
	if (s.effect == E_LIST && c->ret >= 0 && (unwalked || lists_special(tr, &s)))
		strcpy(r->result, "*");	/* what the replay's listing holds differs */
	if (op_has(spec->op, OPD_SEEKS) && c->ret >= 0) {
		struct ofd *o = fdmodel_get(tr->fds, c->tid, s.fd[0]);
		if (o)
			o->pos = (uint64_t)c->ret;
	}
	if (c->ret < 0)
		return s.effect == E_CLOSE ? (fdmodel_close(tr->fds, c->tid, s.fd[0]), 0) : 0;
	if (!apply_effect(tr, &s))
		return -1;
	if (s.effect == E_OPEN)
		fdmodel_get(tr->fds, c->tid, (int)c->ret)->note = opened;
	return 0;
}

/* fcntl: descriptor copies, close-on-exec, flags and locks have rows;
 * the other commands are counted. */
static int do_fcntl(struct translate *tr, const struct sc_call *c)
{
	int fd;
	struct ofd *o = c->nargs >= 2 && strace_fd(c->arg[0], &fd) ? fdmodel_get(tr->fds, c->tid, fd) : NULL;
	const char *cmd = c->nargs >= 2 ? c->arg[1] : "";
	bool dupfd = strcmp(cmd, "F_DUPFD") == 0 || strcmp(cmd, "F_DUPFD_CLOEXEC") == 0;

	if (!o || !o->in_root) {
		if (dupfd && c->ret >= 0) {
			if (o)
				fdmodel_dup(tr->fds, c->tid, fd, (int)c->ret, false);
			else
				fdmodel_close(tr->fds, c->tid, (int)c->ret);
		}
		if (o && strcmp(cmd, "F_SETFD") == 0 && c->ret == 0)
			fdmodel_set_cloexec(tr->fds, c->tid, fd, c->nargs > 2 && has_flag(c->arg[2], "FD_CLOEXEC"));
		*(o ? &tr->rec->fd_outside : &tr->rec->fd_unseen) += 1;
		return 0;
	}
	char *args = talloc_asprintf(tr->tmp, " %d %s", fd, cmd);
	bool lock = strstr(cmd, "LK") != NULL && strncmp(cmd, "F_", 2) == 0;
	if (lock && c->nargs > 2) {
		const char *a = c->arg[2];
		char *type = strace_field(tr->tmp, a, "l_type");
		char *whence = strace_field(tr->tmp, a, "l_whence");
		char *start = strace_field(tr->tmp, a, "l_start");
		char *len = strace_field(tr->tmp, a, "l_len");
		if (!type || !whence || !start || !len)
			return tally_add(&tr->rec->norow, "fcntl", 1) ? 0 : -1;
		args = talloc_asprintf_append(args, " %s %s %s %s", type, whence, start, len);
	} else if (dupfd || strcmp(cmd, "F_SETFD") == 0 || strcmp(cmd, "F_GETFD") == 0 ||
		   strcmp(cmd, "F_GETFL") == 0 || strcmp(cmd, "F_SETFL") == 0) {
		args = talloc_asprintf_append(args, " %s", c->nargs > 2 ? token(tr->tmp, c->arg[2]) : "0");
	} else {
		return tally_add(&tr->rec->norow, "fcntl", 1) ? 0 : -1;
	}
	if (!args || !add_row(tr, c, "fcntl", args))
		return -1;
	if (c->ret < 0)
		return 0;
	if (dupfd)
		return fdmodel_dup(tr->fds, c->tid, fd, (int)c->ret, strcmp(cmd, "F_DUPFD_CLOEXEC") == 0) ? 0 : -1;
	if (strcmp(cmd, "F_SETFD") == 0)
		fdmodel_set_cloexec(tr->fds, c->tid, fd, c->nargs > 2 && has_flag(c->arg[2], "FD_CLOEXEC"));
	return 0;
}

/* openat2(dirfd, path, {flags=..., mode=..., resolve=...}, size): written
 * as the openat it amounts to. */
static int do_openat2(struct translate *tr, const struct sc_call *c)
{
	if (c->nargs < 3)
		return 0;
	char *flags = strace_field(tr->tmp, c->arg[2], "flags");
	char *mode = strace_field(tr->tmp, c->arg[2], "mode");
	struct sc_call o = *c;
	o.nargs = 4;
	o.arg[2] = flags ? flags : (char *)"0";
	o.arg[3] = mode ? mode : (char *)"0";
	return generic(tr, &o, spec_of("openat"));
}

/* mmap of a file: memory-mapped I/O, which no row can replay. */
static int do_mmap(struct translate *tr, const struct sc_call *c)
{
	int fd;

	if (c->nargs < 5 || !strace_fd(c->arg[4], &fd) || fd < 0 || c->ret == -1)
		return 0;
	struct ofd *o = fdmodel_get(tr->fds, c->tid, fd);
	if (o && o->in_root)
		tr->rec->mmaps++;
	else
		*(o ? &tr->rec->fd_outside : &tr->rec->fd_unseen) += 1;
	return 0;
}

struct range_state {
	struct translate *tr;
	int tid;
	bool cloexec;
	bool in_root;
};

static void range_one(void *arg, int fd, struct ofd *o)
{
	struct range_state *r = arg;

	r->in_root = r->in_root || o->in_root;
	if (r->cloexec)
		fdmodel_set_cloexec(r->tr->fds, r->tid, fd, true);
	else
		fdmodel_close(r->tr->fds, r->tid, fd);
}

/* close_range(lo, hi, flags): the descriptors go (or become close-on-exec)
 * with no row; the replay closes them when their numbers are opened again. */
static int do_close_range(struct translate *tr, const struct sc_call *c)
{
	int64_t lo, hi;

	if (c->ret != 0 || c->nargs < 2 || !strace_int(c->arg[0], &lo))
		return 0;
	if (!strace_int(c->arg[1], &hi))
		hi = 1 << 30;
	struct range_state r = { tr, c->tid, c->nargs > 2 && has_flag(c->arg[2], "CLOSE_RANGE_CLOEXEC"), false };
	fdmodel_each(tr->fds, c->tid, (int)lo, (int)(hi > 1 << 30 ? 1 << 30 : hi), range_one, &r);
	if (r.in_root)
		return tally_add(&tr->rec->norow, "close_range", 1) ? 0 : -1;
	return 0;
}

/* Whether a call that makes descriptors asks for close-on-exec: a flag
 * named *_CLOEXEC among its arguments (pipe2's O_CLOEXEC, socket's
 * SOCK_CLOEXEC, eventfd2's EFD_CLOEXEC ...; memfd_create's name, quoted,
 * is no flag). */
static bool asks_cloexec(const struct sc_call *c)
{
	for (int i = 0; i < c->nargs; i++)
		if (c->arg[i][0] != '"' && strstr(c->arg[i], "_CLOEXEC"))
			return true;
	return false;
}

/* The two descriptors of a pipe's or socketpair's array as strace prints
 * it, "[3, 4]" (with -y "[3<pipe:[9]>, 4<pipe:[9]>]"): how many read. */
static int fd_pair(const char *text, int fds[2])
{
	const char *p = text;
	int n = 0;

	if (*p++ != '[')
		return 0;
	while (n < 2) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > 1 << 30)
			break;
		fds[n++] = (int)v;
		if (!(p = strchr(end, ',')) || n == 2)
			break;
		p += strspn(p, ", ");
	}
	return n;
}

/* pipe, socket and ops.def's other calls that make descriptors on no
 * path: known from now on, as descriptors outside the roots, so that
 * the calls on them (a make's jobserver pipe, in every job it starts)
 * are counted as such and not as on descriptors never seen opened. */
static int do_makes_fd(struct translate *tr, const struct sc_call *c)
{
	bool pair = strncmp(c->name, "pipe", 4) == 0 || strcmp(c->name, "socketpair") == 0;
	int at = strcmp(c->name, "socketpair") == 0 ? 3 : 0;
	int fds[2], n = 0;

	if (c->ret < 0)
		return 0;
	if (!pair)
		fds[n++] = (int)c->ret;
	else if (c->nargs > at)
		n = fd_pair(c->arg[at], fds);
	for (int i = 0; i < n; i++)
		if (!fdmodel_open(tr->fds, c->tid, fds[i], asks_cloexec(c), false))
			return -1;
	return 0;
}

/* clone's flags: CLONE_FILES and CLONE_FS are what the model needs. */
static unsigned long clone_flags(const char *text)
{
	unsigned long f = 0;

	if (has_flag(text, "CLONE_FILES"))
		f |= CLONE_FILES;
	if (has_flag(text, "CLONE_FS"))
		f |= CLONE_FS;
	if (has_flag(text, "CLONE_THREAD"))
		f |= CLONE_THREAD;
	return f;
}

/* clone, clone3, fork, vfork: a `thread` or `fork` row, and the child's
 * table shared or copied. */
static int do_clone(struct translate *tr, const struct sc_call *c)
{
	if (c->ret <= 0)
		return 0;
	unsigned long flags = 0;
	if (strcmp(c->name, "clone") == 0 || strcmp(c->name, "clone3") == 0) {
		char *f = strace_field(tr->tmp, c->raw, "flags");
		flags = f ? clone_flags(f) : 0;
	}
	int child = (int)c->ret;
	if (!fdmodel_clone(tr->fds, c->tid, child, flags))
		return -1;
	if (flags & CLONE_THREAD)
		tr->rec->threads_seen++;
	else
		tr->rec->processes_seen++;
	struct row *r = add_row(tr, c, (flags & CLONE_FILES) ? "thread" : "fork", "");
	if (!r)
		return -1;
	r->child = child;
	return 0;
}

static void count_cloexec(void *arg, int fd, struct ofd *o)
{
	(void)fd;
	*(bool *)arg = *(bool *)arg || o->in_root;
}

/* execve: the close-on-exec descriptors close; a row when one of them lay
 * beneath the roots (else the exec changes nothing a replay holds). */
static int do_exec(struct translate *tr, const struct sc_call *c)
{
	if (c->ret != 0)
		return 0;
	bool in_root = false;
	fdmodel_each_cloexec(tr->fds, c->tid, count_cloexec, &in_root);
	fdmodel_exec(tr->fds, c->tid);
	if (!in_root)
		return 0;
	return add_row(tr, c, "exec", "") ? 0 : -1;
}

struct translate *translate_new(TALLOC_CTX *mem_ctx, struct recording *rec)
{
	struct translate *tr = talloc_zero(mem_ctx, struct translate);

	if (!tr || !(tr->fds = fdmodel_new(tr)) || !(tr->tmp = talloc_pool(tr, 16384))) {
		talloc_free(tr);
		return NULL;
	}
	tr->rec = rec;
	return tr;
}

/* Whether the call's outcome says nothing: interrupted and restarted, or
 * never returned (the thread ended inside it). */
static bool no_outcome(const struct sc_call *c)
{
	return !c->has_result || c->ret_unknown ||
	       (c->ret < 0 && strncmp(c->err, "ERESTART", 8) == 0);
}

/* Whether c (of spec, or none) hands out the lowest free descriptor (an
 * open, dup, F_DUPFD), which cannot be one still open in its table. */
static bool takes_free_fd(const struct sc_call *c, const struct callspec *spec)
{
	if (c->ret < 0 || !spec || spec->op < 0)
		return false;
	if (spec->op == OP_SYS_FCNTL)
		return c->nargs > 1 && strncmp(c->arg[1], "F_DUPFD", 7) == 0;
	return op_has(spec->op, OPD_OPENS) ||
	       (op_has(spec->op, OPD_DUPS) && !strchr(spec->shape, 'G'));	/* not dup2's */
}

/* Whether c, which succeeded, returned a descriptor. */
static bool returns_fd(const struct sc_call *c, const struct callspec *spec)
{
	return takes_free_fd(c, spec) ||
	       (c->ret >= 0 && spec && spec->op >= 0 && op_has(spec->op, OPD_DUPS));
}

/* A thread whose start is not in the trace (strace -p of a program with
 * threads, a trace cut short): a process the first thread forked when
 * its first call began, with a table of its own.  false when memory ran
 * out. */
static bool untraced_start(struct translate *tr, const struct sc_call *c)
{
	struct sc_call start = { .kind = SC_CALL, .tid = tr->rec->first_tid,
				 .start_us = c->start_us, .ret = c->tid };
	struct row *r = add_row(tr, &start, "fork", "");

	if (!r)
		return false;
	r->child = c->tid;
	tr->rec->untraced_starts++;
	tr->rec->processes_seen++;
	return true;
}

/* The calls taken apart: ops.def's STRACE rows without a shape. */
static const struct {
	const char *name;
	int (*take)(struct translate *tr, const struct sc_call *c);
} apart[] = {
	{ "fcntl", do_fcntl }, { "fcntl64", do_fcntl }, { "openat2", do_openat2 },
	{ "mmap", do_mmap }, { "close_range", do_close_range }, { "clone", do_clone },
	{ "clone3", do_clone }, { "fork", do_clone }, { "vfork", do_clone },
	{ "execve", do_exec }, { "execveat", do_exec },
	{ "pipe", do_makes_fd }, { "pipe2", do_makes_fd }, { "socketpair", do_makes_fd },
	{ "socket", do_makes_fd }, { "accept", do_makes_fd }, { "accept4", do_makes_fd },
	{ "eventfd", do_makes_fd }, { "eventfd2", do_makes_fd }, { "memfd_create", do_makes_fd },
	{ "epoll_create", do_makes_fd }, { "epoll_create1", do_makes_fd },
};

/* One call, by its name (spec_of() it). */
static int dispatch(struct translate *tr, const struct sc_call *c, const struct callspec *spec)
{
	int rc = 0;

	if (spec && spec->shape) {
		rc = generic(tr, c, spec);
	} else if (spec) {
		for (size_t i = 0; i < sizeof(apart) / sizeof(apart[0]); i++)
			if (strcmp(apart[i].name, spec->name) == 0)
				rc = apart[i].take(tr, c);
	}
	talloc_free_children(tr->tmp);
	return rc;
}

/*
 * Calls are taken in the order they started, but a descriptor is handed
 * out when its call ends: a thread's open that started before another
 * thread's close of the same number, and returned that number, comes
 * after the close.  Such an open waits here until its descriptor is free
 * in the model (the close came) or the calls reach its end; its row then
 * goes after the close's (the writer keeps the start times in order).
 */
static int run_deferred(struct translate *tr, int64_t now, bool all)
{
	uint32_t src = tr->src, src_line = tr->src_line;

	for (size_t i = 0; i < tr->ndeferred;) {
		struct held h = tr->deferred[i];
		struct sc_call *d = h.c;
		bool free_now = !fdmodel_get(tr->fds, d->tid, (int)d->ret);
		if (!all && !free_now && d->start_us + (d->dur_us > 0 ? d->dur_us : 0) > now) {
			i++;
			continue;
		}
		memmove(tr->deferred + i, tr->deferred + i + 1, (--tr->ndeferred - i) * sizeof(*tr->deferred));
		tr->src = h.src;
		tr->src_line = h.src_line;
		int rc = dispatch(tr, d, spec_of(d->name));
		talloc_free(d);
		if (rc)
			return rc;
		i = 0;
	}
	tr->src = src;
	tr->src_line = src_line;
	return 0;
}

void translate_origin(struct translate *tr, uint32_t src, uint32_t line)
{
	tr->src = src;
	tr->src_line = line;
	tr->origin_given = true;
}

int translate_call(struct translate *tr, const struct sc_call *c)
{
	struct recording *rec = tr->rec;
	const struct callspec *spec = spec_of(c->name);

	tr->ncalls++;
	if (!tr->origin_given) {
		tr->src = 0;
		tr->src_line = tr->ncalls;
	}
	tr->origin_given = false;

	if (rec->first_tid < 0) {
		rec->first_tid = c->tid;
		rec->t0_us = c->start_us;
	}
	if (!fdmodel_known(tr->fds, c->tid)) {
		if (!fdmodel_add(tr->fds, c->tid, rec->cwd0))
			return -1;
		if (c->tid != rec->first_tid && !untraced_start(tr, c))
			return -1;
	}
	if (no_outcome(c)) {
		rec->restarted++;
		return 0;
	}
	if (returns_fd(c, spec) && c->ret >= LOADFILE_MAX_FD)
		return refuse(tr, "%s returned descriptor %lld, beyond the most a loadfile names (%d)",
			      c->name, (long long)c->ret, LOADFILE_MAX_FD - 1);
	if (run_deferred(tr, c->start_us, false))
		return -1;
	if (takes_free_fd(c, spec) && fdmodel_get(tr->fds, c->tid, (int)c->ret) &&
	    fdmodel_shared(tr->fds, c->tid)) {
		struct held *v = talloc_realloc(tr, tr->deferred, struct held, tr->ndeferred + 1);
		if (!v || !(v[tr->ndeferred].c = strace_call_copy(v, c)))
			return -1;
		v[tr->ndeferred].src = tr->src;
		v[tr->ndeferred].src_line = tr->src_line;
		tr->deferred = v;
		tr->ndeferred++;
		return 0;
	}
	int rc = dispatch(tr, c, spec);
	if (rc)
		return rc;
	return tr->ndeferred ? run_deferred(tr, c->start_us, false) : 0;
}

int translate_finish(struct translate *tr)
{
	return run_deferred(tr, 0, true);
}

void translate_infer(struct translate *tr, struct infer *inf, bool walked)
{
	tr->inf = inf;
	tr->walked = walked;
}

unsigned translate_max_open(const struct translate *tr)
{
	return fdmodel_max_in_root(tr->fds);
}
