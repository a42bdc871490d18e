/*
 * dosmatch.c - matching names against FIND_FIRST's DOS patterns (see
 * dosmatch.h), for every backend that lists a directory itself.
 */
#include <limits.h>
#include <string.h>

#include "dosmatch.h"

/* A name being matched: its text, length and last dot (len when none). */
struct dosmatch_name {
	const char *s;
	size_t len, dot;
};

/*
 * Advance the set of name positions a pattern has reached (`cur`) over
 * one pattern character into `nxt`.  Besides * and ?, the DOS wildcards
 * CIFS clients send: < is any run of characters that does not go past
 * the name's last dot (it may take the dot itself), > is any one
 * character but nothing at a dot or at the end (except that it may take
 * a final dot), " is a dot or nothing at the end.
 */
static void dosmatch_step(char pc, const struct dosmatch_name *n, const bool *cur, bool *nxt)
{
	bool star = false;

	for (size_t i = 0; i <= n->len; i++) {
		bool at_end = i == n->len, at_dot = !at_end && n->s[i] == '.';

		star = star || (pc == '*' && cur[i]);
		nxt[i] = nxt[i] || star;
		if (!cur[i] || pc == '*')
			continue;
		if (pc == '<') {
			size_t lim = n->dot < n->len && i <= n->dot ? n->dot + 1 : n->len;
			for (size_t j = i; j <= lim; j++)
				nxt[j] = true;
		} else if (pc == '>') {
			nxt[at_end || at_dot ? i : i + 1] = true;
			if (at_dot && i + 1 == n->len)
				nxt[i + 1] = true;
		} else if (pc == '"') {
			if (at_dot || at_end)
				nxt[at_dot ? i + 1 : i] = true;
		} else if (!at_end && (pc == '?' || dosmatch_lower(pc) == dosmatch_lower(n->s[i]))) {
			nxt[i + 1] = true;
		}
	}
}

struct dosmatch_pattern dosmatch_pattern_of(const char *s)
{
	struct dosmatch_pattern p = { .s = s, .len = strlen(s) };

	while (p.tail < p.len && !strchr("*?<>\"", p.s[p.len - p.tail - 1]))
		p.tail++;
	return p;
}

/* The set of reachable positions is carried along the pattern, so no
 * pattern takes more than length(pat) * length(name) steps. */
bool dosmatch(const struct dosmatch_pattern *pat, const char *name)
{
	struct dosmatch_name n = { .s = strcmp(name, "..") == 0 ? "." : name };
	bool cur[NAME_MAX + 2], nxt[NAME_MAX + 2];

	n.len = strlen(n.s);
	if (n.len > NAME_MAX || n.len < pat->tail)
		return false;
	/* The pattern's closing literals must spell the name's end. */
	for (size_t i = 1; i <= pat->tail; i++)
		if (dosmatch_lower(pat->s[pat->len - i]) != dosmatch_lower(n.s[n.len - i]))
			return false;
	const char *dot = strrchr(n.s, '.');
	n.dot = dot ? (size_t)(dot - n.s) : n.len;
	/* Only positions 0..len matter: clear and copy no more than those. */
	memset(cur, 0, n.len + 1);
	cur[0] = true;
	for (const char *pc = pat->s; *pc; pc++) {
		bool any = false;
		memset(nxt, 0, n.len + 1);
		dosmatch_step(*pc, &n, cur, nxt);
		for (size_t i = 0; i <= n.len; i++)
			any = any || nxt[i];
		if (!any)
			return false;
		memcpy(cur, nxt, n.len + 1);
	}
	return cur[n.len];
}
