/*
 * lex.c - the loadfile lexer (lex.h): bytes, fields, numbers, seconds and
 * the first problem's message.  Nothing here knows an operation.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/lex.h"

void lex_oom(struct lex *lx)
{
	lx->oom = true;
	if (!lx->err)
		lx->err = "";
}

void lex_fail(struct lex *lx, const char *fmt, ...)
{
	va_list ap;

	if (lx->err)
		return;
	va_start(ap, fmt);
	char *msg = talloc_vasprintf(lx->mem, fmt, ap);
	va_end(ap);
	lx->err = msg ? talloc_asprintf(lx->mem, "%s:%" PRIu32 ": %s", lx->name, lx->line, msg)
		      : NULL;
	talloc_free(msg);
	if (!lx->err)
		lex_oom(lx);
}

const char *lex_tokstr(struct lex *lx, const struct token *t)
{
	char out[48 * 4 + 1];
	size_t o = 0;

	for (size_t i = 0; i < t->len && i < 48; i++) {
		unsigned char ch = t->s[i];
		if (lx->escape && (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\'))
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", ch);
		else
			out[o++] = ch;
	}
	out[o] = '\0';
	return talloc_asprintf(lx->mem, "%s%s", out, t->len > 48 ? "..." : "");
}

bool lex_check_bytes(struct lex *lx, const char *p, const char *end)
{
	/* Eight bytes at a time while none is below 0x20 or is 0x7f (tabs
	 * take the byte-wise loop below, which names what is wrong). */
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	for (uint64_t w; end - p >= 8; p += 8) {
		memcpy(&w, p, 8);
		uint64_t del = w ^ (0x7f * ones);
		if (((w - 0x20 * ones) & ~w & highs) | ((del - ones) & ~del & highs))
			break;
	}
	for (; p < end; p++) {
		unsigned char ch = *p;
		if (ch == '\0') {
			lex_fail(lx, "NUL byte in line (not a text loadfile?)");
			return false;
		}
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			lex_fail(lx, "control byte 0x%02x in line (not a text loadfile?)", ch);
			return false;
		}
	}
	return true;
}

int lex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return 16;
}

/* The escape at p (after its backslash) as one byte into *ch; the byte
 * it ends at, or NULL after lex_fail(). */
static const char *unescape(struct lex *lx, const char *p, const char *end, char *ch)
{
	switch (*p) {
	case '\\': *ch = '\\'; return p;
	case '"': *ch = '"'; return p;
	case 'n': *ch = '\n'; return p;
	case 't': *ch = '\t'; return p;
	case 'x':
		if (end - p < 3 || lex_digit(p[1]) > 15 || lex_digit(p[2]) > 15) {
			lex_fail(lx, "malformed \\x escape (two hex digits)");
			return NULL;
		}
		*ch = (char)(lex_digit(p[1]) * 16 + lex_digit(p[2]));
		if (*ch == '\0') {
			lex_fail(lx, "a string may not hold a NUL byte (\\x00)");
			return NULL;
		}
		return p + 2;
	default:
		lex_fail(lx, "unknown escape '\\%c' (\\\\ \\\" \\n \\t \\xHH)", *p);
		return NULL;
	}
}

/* The quoted field at p (its opening quote) into *t: as it is, or with
 * its escapes decoded at strings + *used.  The byte after the closing
 * quote, or NULL after lex_fail(). */
static const char *quoted(struct lex *lx, const char *p, const char *end, struct token *t,
			  char *strings, size_t *used)
{
	if (!strings) {
		const char *q = memchr(p + 1, '"', end - p - 1);
		if (!q) {
			lex_fail(lx, "unterminated quote");
			return NULL;
		}
		*t = (struct token){ p + 1, q - p - 1, true };
		return q + 1;
	}
	char *out = strings + *used;
	size_t n = 0;
	for (p++; p < end && *p != '"'; p++) {
		char ch = *p;
		if (ch == '\\') {
			if (++p == end)
				break;
			if (!(p = unescape(lx, p, end, &ch)))
				return NULL;
		}
		out[n++] = ch;
	}
	if (p >= end) {
		lex_fail(lx, "unterminated quote");
		return NULL;
	}
	*t = (struct token){ out, n, true };
	*used += n + 1;
	out[n] = '\0';
	return p + 1;
}

int lex_tokenize(struct lex *lx, const char *p, const char *end, struct token *tok, int max,
		 char *strings)
{
	int n = 0;
	size_t used = 0;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return n;
		if (n == max) {
			lex_fail(lx, "too many fields (more than %d)", max);
			return -1;
		}
		struct token *t = &tok[n++];
		if (*p == '"') {
			if (!(p = quoted(lx, p, end, t, strings, &used)))
				return -1;
			if (p < end && *p != ' ' && *p != '\t') {
				lex_fail(lx, "no space after closing quote");
				return -1;
			}
			continue;
		}
		const char *s = p;
		while (p < end && *p != ' ' && *p != '\t') {
			if (*p == '"') {
				lex_fail(lx, "stray quote inside '%.*s'", (int)(p - s + 1), s);
				return -1;
			}
			p++;
		}
		*t = (struct token){ s, p - s, false };
	}
}

bool lex_has_status(struct lex *lx, const char *name, int want, int got)
{
	if (got == want + 1)
		return true;
	lex_fail(lx, "%s takes %d argument%s and a status, got %d field%s", name, want,
		 want == 1 ? "" : "s", got, got == 1 ? "" : "s");
	return false;
}

bool lex_is(const struct token *t, const char *word)
{
	return !t->quoted && strlen(word) == t->len && memcmp(t->s, word, t->len) == 0;
}

bool lex_number_at(const char **p, const char *end, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	const char *s = *p;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (end - s > 1 && s[0] == '0') {
		base = 8;
		s++;
	}
	const char *digits = s;
	for (; s < end && (unsigned)lex_digit(*s) < base; s++) {
		if (__builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, (unsigned)lex_digit(*s), &v))
			return false;
	}
	*p = s;
	*out = v;
	return s > digits || base == 8;
}

/* This runs for most fields of a loadfile, so it works in place. */
bool lex_int(struct lex *lx, const struct token *t, int64_t *out)
{
	const char *p = t->s, *end = t->s + t->len;
	bool neg = p < end && *p == '-';
	uint64_t v, limit = neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX;

	p += neg;
	if (t->quoted || p == end || lex_digit(*p) > 9 || !lex_number_at(&p, end, &v) ||
	    p != end || v > limit) {
		lex_fail(lx, "malformed number '%s'", lex_tokstr(lx, t));
		return false;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

bool lex_hex32(const struct token *t, uint32_t *out)
{
	uint32_t v = 0;

	if (t->quoted || t->len < 3 || t->len > 10 || t->s[0] != '0' ||
	    (t->s[1] != 'x' && t->s[1] != 'X'))
		return false;
	for (size_t i = 2; i < t->len; i++) {
		if (lex_digit(t->s[i]) > 15)
			return false;
		v = v * 16 + lex_digit(t->s[i]);
	}
	*out = v;
	return true;
}

/* Plain "DIGITS[.DIGITS]" of at most 15 digits (a loadfile's times,
 * every row of the system calls' dialect): its value into *out, the
 * double strtod gives (the digits as an integer, exact below 2^53, over
 * a power of ten, exact too: IEEE's division rounds the quotient as
 * strtod rounds the decimal); false for anything else. */
static bool plain_seconds(const struct token *t, double *out)
{
	static const double ten[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
					1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t n = 0;
	int digits = 0, after = -1;

	for (size_t i = 0; i < t->len; i++) {
		char ch = t->s[i];
		if (ch == '.' && after < 0) {
			after = 0;
		} else if (ch >= '0' && ch <= '9' && digits < 15) {
			n = n * 10 + (uint64_t)(ch - '0');
			digits++;
			after += after >= 0;
		} else {
			return false;
		}
	}
	if (!digits)
		return false;
	*out = (double)n / ten[after > 0 ? after : 0];
	return true;
}

bool lex_seconds(const struct token *t, const char *refused, double *out)
{
	char b[32];
	char *end;
	double fast;

	if (t->quoted || t->len == 0 || t->len >= sizeof(b))
		return false;
	if (!strpbrk(refused, ".0123456789") && plain_seconds(t, &fast)) {
		if (fast > 1e9)
			return false;
		*out = fast;
		return true;
	}
	memcpy(b, t->s, t->len);
	b[t->len] = '\0';
	double v = strtod(b, &end);
	if (*end || !isfinite(v) || v < 0 || v > 1e9 || strpbrk(b, "xXpPnN") ||
	    strpbrk(b, refused))
		return false;
	*out = v;
	return true;
}
