/*
 * strace_line.c - one line of strace's output taken apart (strace_line.h).
 *
 * Owns the shape of strace's lines; knows nothing of what the calls mean.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/strace_line.h"

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Digits at *pp (at most `most` of them, at least one) as a number;
 * advances *pp past them.  false for none, or more than `most`. */
static bool digits(const char **pp, int most, int64_t *v)
{
	const char *p = *pp;
	int n = 0;

	*v = 0;
	for (; isdigit((unsigned char)*p); p++, n++)
		if (n < most)
			*v = *v * 10 + (*p - '0');
	*pp = p;
	return n > 0 && n <= most;
}

/* A fraction of a second after its '.' at *pp, in microseconds. */
static int64_t micros(const char **pp)
{
	const char *p = *pp;
	int64_t frac = 0;
	int n = 0;

	for (; isdigit((unsigned char)*p); p++) {
		if (n < 6) {
			frac = frac * 10 + (*p - '0');
			n++;
		}
	}
	while (n++ < 6)
		frac *= 10;
	*pp = p;
	return frac;
}

/*
 * The line's time at *pp, in microseconds, and its kind: -ttt's
 * "1796169071.818458", -tt's "12:34:56.818458", -t's "12:34:56", -r's
 * "0.000123" (since the line before; told from -ttt by its size), or
 * none (SC_CLOCK_NONE, *pp unchanged).  Advances *pp past it; false for
 * a time out of range (more digits than any time has).
 */
static bool parse_time(const char **pp, int64_t *us, enum sc_clock *clock)
{
	const char *p = *pp;
	int64_t a, b, c;

	*us = 0;
	*clock = SC_CLOCK_NONE;
	if (!isdigit((unsigned char)*p))
		return true;
	const char *q = p;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q == ':') {
		if (!digits(&p, 2, &a) || *p++ != ':' || !digits(&p, 2, &b) || *p++ != ':' ||
		    !digits(&p, 2, &c) || a > 23 || b > 59 || c > 60)
			return false;
		*us = ((a * 60 + b) * 60 + c) * 1000000;
		*clock = SC_CLOCK_SECONDS;
		if (*p == '.') {
			p++;
			*us += micros(&p);
			*clock = SC_CLOCK_DAY;
		}
	} else if (*q == '.') {
		if (!digits(&p, 12, &a))
			return false;
		p++;
		*us = a * 1000000 + micros(&p);
		*clock = a >= 100000000 ? SC_CLOCK_EPOCH : SC_CLOCK_RELATIVE;
	} else {
		return true;	/* a number, not a time: the call's name follows no time */
	}
	*pp = p;
	return true;
}

/*
 * The end of the argument starting at p: the comma or the closing
 * parenthesis at depth 0, or the string's end.  Strings, (), [], {} and
 * -y's annotations (a '<' after a digit or AT_FDCWD) are skipped whole.
 */
static const char *arg_end(const char *start, const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		char c = *p;
		if (c == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return p;
		} else if (c == '<' && p > start && (isdigit((unsigned char)p[-1]) || p[-1] == 'D')) {
			for (p++; *p && *p != '>'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return p;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (depth == 0)
				return p;
			depth--;
		} else if (c == ',' && depth == 0) {
			return p;
		}
	}
	return p;
}

/* Split c->raw into c->arg[]; the arguments past SC_MAX_ARGS stay joined
 * to the last. */
static int split_args(TALLOC_CTX *mem_ctx, struct sc_call *c)
{
	const char *p = c->raw;

	c->nargs = 0;
	p = skip_spaces(p);
	while (*p) {
		const char *e = arg_end(c->raw, p);
		if (c->nargs == SC_MAX_ARGS - 1)
			e = p + strlen(p);
		const char *t = e;
		while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
			t--;
		if (t > p || *e == ',') {
			c->arg[c->nargs] = talloc_strndup(mem_ctx, p, (size_t)(t - p));
			if (!c->arg[c->nargs])
				return -1;
			c->nargs++;
		}
		if (*e != ',')
			break;
		p = skip_spaces(e + 1);
	}
	return 0;
}

/* The longest duration a line may give, in seconds (31 years): a time
 * (at most 12 digits of seconds) plus a duration, in microseconds, fits
 * in an int64_t. */
#define MAX_DURATION_S 1e9

/* " = RESULT [<annotation>] [ERRNO (text)] ... [<duration>]" after the
 * arguments' closing parenthesis; a duration below 0 or past
 * MAX_DURATION_S is none (-1).  false for a result beyond 64 bits. */
static bool parse_result(const char *p, struct sc_call *c)
{
	const char *end = p + strlen(p);
	const char *t = end;

	while (t > p && t[-1] == ' ')
		t--;
	if (t > p && t[-1] == '>') {
		const char *lt = t - 1;
		while (lt > p && *lt != '<')
			lt--;
		char *q;
		double d = strtod(lt + 1, &q);
		if (*lt == '<' && q == t - 1 && d >= 0 && d <= MAX_DURATION_S)
			c->dur_us = (int64_t)(d * 1e6 + 0.5);
	}
	p = skip_spaces(p);
	if (*p != '=')
		return true;
	p = skip_spaces(p + 1);
	c->has_result = true;
	if (*p == '?') {
		c->ret_unknown = true;
		return true;
	}
	char *q;
	errno = 0;
	c->ret = strtoll(p, &q, 0);
	if (q == p) {
		c->ret_unknown = true;
		return true;
	}
	if (errno == ERANGE)
		return false;
	p = q;
	if (*p == '<')		/* -y's name of a descriptor returned */
		for (p++; *p && *p != '>'; p++)
			if (*p == '\\' && p[1])
				p++;
	if (*p == '>')
		p++;
	if (c->ret < 0) {
		p = skip_spaces(p);
		size_t n = 0;
		while (isupper((unsigned char)p[n]) || isdigit((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n > 0 && n < sizeof(c->err)) {
			memcpy(c->err, p, n);
			c->err[n] = '\0';
		}
	}
	return true;
}

static bool is_other(const char *p)
{
	return strncmp(p, "---", 3) == 0 || strncmp(p, "+++", 3) == 0 ||
	       strncmp(p, "???", 3) == 0;
}

/* "NAME(" or "<... NAME resumed>" at p: the name into c; returns what
 * follows, or NULL. */
static const char *parse_name(const char *p, struct sc_call *c)
{
	bool resumed = strncmp(p, "<... ", 5) == 0;
	if (resumed)
		p += 5;
	size_t n = 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	if (n == 0 || n >= sizeof(c->name))
		return NULL;
	memcpy(c->name, p, n);
	c->name[n] = '\0';
	p += n;
	if (resumed) {
		if (strncmp(p, " resumed>", 9) != 0)
			return NULL;
		c->kind = SC_RESUMED;
		return p + 9;
	}
	if (*p != '(')
		return NULL;
	c->kind = SC_CALL;
	return p + 1;
}

/* A line of strace's shape with a number out of range at p. */
static int out_of_range(TALLOC_CTX *mem_ctx, struct sc_call *c, const char *p)
{
	c->kind = SC_OTHER;
	p += strspn(p, " =");
	c->raw = talloc_strndup(mem_ctx, p, strcspn(p, " ,)>]"));
	return SC_OUT_OF_RANGE;
}

int strace_line_parse(TALLOC_CTX *mem_ctx, const char *line, struct sc_call *c)
{
	const char *p = skip_spaces(line);

	memset(c, 0, sizeof(*c));
	c->kind = SC_OTHER;
	c->dur_us = -1;
	if (strncmp(p, "[pid ", 5) == 0) {
		const char *q = skip_spaces(p + 5);
		int64_t tid;
		if (!digits(&q, 9, &tid))
			return out_of_range(mem_ctx, c, skip_spaces(p + 5));
		c->tid = (int)tid;
		p = strchr(p, ']');
		if (!p)
			return -1;
		p = skip_spaces(p + 1);
	} else if (isdigit((unsigned char)*p)) {
		const char *q = p;
		int64_t tid;
		bool fits = digits(&q, 9, &tid);
		if (*q == ' ' && !fits)
			return out_of_range(mem_ctx, c, p);
		if (*q == ' ') {
			c->tid = (int)tid;
			p = skip_spaces(q);
		}
	}
	if (!parse_time(&p, &c->start_us, &c->clock))
		return out_of_range(mem_ctx, c, p);
	p = skip_spaces(p);
	if (is_other(p))
		return 0;
	p = parse_name(p, c);
	if (!p) {
		c->kind = SC_OTHER;
		return -1;
	}
	static const char unfinished[] = "<unfinished ...>";
	size_t len = strlen(p);
	const char *e;
	if (c->kind == SC_CALL && len >= sizeof(unfinished) - 1 &&
	    strcmp(p + len - (sizeof(unfinished) - 1), unfinished) == 0) {
		c->kind = SC_UNFINISHED;
		e = p + len - (sizeof(unfinished) - 1);
	} else {
		/* the arguments end at the parenthesis that closes the call */
		e = p;
		while (*e && *(e = arg_end(p, e)) == ',')
			e++;
		if (*e != ')') {
			c->kind = SC_OTHER;
			return -1;
		}
		if (!parse_result(e + 1, c))
			return out_of_range(mem_ctx, c, e + 1);
	}
	c->raw = talloc_strndup(mem_ctx, p, (size_t)(e - p));
	if (!c->raw || split_args(mem_ctx, c) != 0)
		return -1;
	return 0;
}

int strace_line_join(TALLOC_CTX *mem_ctx, struct sc_call *first, const struct sc_call *second)
{
	first->raw = talloc_asprintf(mem_ctx, "%s%s", first->raw, second->raw);
	if (!first->raw)
		return -1;
	first->kind = SC_CALL;
	first->dur_us = second->dur_us;
	first->has_result = second->has_result;
	first->ret_unknown = second->ret_unknown;
	first->ret = second->ret;
	memcpy(first->err, second->err, sizeof(first->err));
	return split_args(mem_ctx, first);
}

struct sc_call *strace_call_copy(TALLOC_CTX *mem_ctx, const struct sc_call *c)
{
	struct sc_call *d = talloc(mem_ctx, struct sc_call);
	bool ok = d != NULL;

	if (ok) {
		*d = *c;
		ok = !c->raw || (d->raw = talloc_strdup(d, c->raw)) != NULL;
	}
	for (int i = 0; ok && i < c->nargs; i++)
		ok = (d->arg[i] = talloc_strdup(d, c->arg[i])) != NULL;
	if (!ok) {
		talloc_free(d);
		return NULL;
	}
	return d;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *strace_string(TALLOC_CTX *mem_ctx, const char *text, bool *cut)
{
	const char *p = text;

	if (cut)
		*cut = false;
	if (*p != '"')
		return NULL;
	char *out = talloc_array(mem_ctx, char, strlen(text) + 1);
	if (!out)
		return NULL;
	size_t n = 0;
	for (p++; *p && *p != '"'; p++) {
		if (*p != '\\' || !p[1]) {
			out[n++] = *p;
			continue;
		}
		p++;
		int h1, h2;
		switch (*p) {
		case 'x':
			if ((h1 = hexval(p[1])) >= 0 && (h2 = hexval(p[2])) >= 0) {
				out[n++] = (char)(h1 * 16 + h2);
				p += 2;
			} else {
				out[n++] = 'x';
			}
			break;
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'v': out[n++] = '\v'; break;
		case 'f': out[n++] = '\f'; break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7': {
			int v = 0, k = 0;
			while (k < 3 && *p >= '0' && *p <= '7') {
				v = v * 8 + (*p++ - '0');
				k++;
			}
			p--;
			out[n++] = (char)v;
			break;
		}
		default: out[n++] = *p; break;
		}
	}
	out[n] = '\0';
	if (cut && *p == '"' && strncmp(p + 1, "...", 3) == 0)
		*cut = true;
	return out;
}

bool strace_fd(const char *text, int *fd)
{
	if (strncmp(text, "AT_FDCWD", 8) == 0) {
		*fd = SC_AT_FDCWD;
		return true;
	}
	char *q;
	bool hex = strncmp(text, "0x", 2) == 0;	/* a call printed raw */
	long v = strtol(text + (hex ? 2 : 0), &q, hex ? 16 : 10);
	if (q == text + (hex ? 2 : 0) || (*q && *q != '<') || v < 0 || v > 1 << 30)
		return false;
	*fd = (int)v;
	return true;
}

bool strace_int(const char *text, int64_t *v)
{
	char *q;

	errno = 0;
	*v = strtoll(text, &q, 0);
	return q != text && *q == '\0' && errno == 0;
}

bool strace_bracketed_int(const char *text, int64_t *v)
{
	if (*text != '[')
		return false;
	char *q;
	*v = strtoll(text + 1, &q, 10);
	return q != text + 1 && *q == ']';
}

char *strace_field(TALLOC_CTX *mem_ctx, const char *text, const char *field)
{
	size_t flen = strlen(field);

	for (const char *p = text; (p = strstr(p, field)) != NULL; p += flen) {
		if (p[flen] != '=' || (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		const char *v = p + flen + 1;
		return talloc_strndup(mem_ctx, v, (size_t)(arg_end(v, v) - v));
	}
	return NULL;
}

uint64_t strace_iov_total(const char *text)
{
	uint64_t total = 0;

	for (const char *p = text; (p = strstr(p, "iov_len=")) != NULL; p += 8)
		total += strtoull(p + 8, NULL, 10);
	return total;
}
