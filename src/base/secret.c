/*
 * secret.c - finding the passwords in the user's input and masking them
 * (see secret.h).  Owns the rules and the rewriting of the process's
 * argument area; knows nothing of what the options mean.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "secret.h"

/* ---- the rules ---- */

/* Whether option NAME (n bytes, without its dashes) may carry USER%PASSWORD. */
static bool secret_user_option(const char *name, size_t n)
{
	static const char smb_user[] = "smb-user";

	if (n == 1 && name[0] == 'U')
		return true;	/* smbclient's -U, typed out of habit */
	if (n >= 5 && n <= sizeof(smb_user) - 1 && strncasecmp(name, smb_user, n) == 0)
		return true;	/* an abbreviation, which popt takes for unknown */
	for (size_t i = 0; i + 4 <= n; i++)
		if (strncasecmp(name + i, "user", 4) == 0)
			return true;
	return false;
}

/* The option name in an option word ("--smb-user=x" gives "smb-user"):
 * its start and length, or NULL when the word is no option. */
static const char *secret_option_name(const char *word, size_t *n)
{
	if (word[0] != '-' || word[1] == '\0' || strcmp(word, "--") == 0)
		return NULL;
	const char *name = word + (word[1] == '-' ? 2 : 1);
	*n = strcspn(name, "=");
	return name;
}

/* The password of the URL authority starting at p (after "//"): where it
 * starts and its length; false when the authority has none. */
static bool secret_url_password(const char *p, size_t *start, size_t *len)
{
	size_t auth = strcspn(p, "/?# \t'\"");
	const char *at = NULL;

	for (size_t i = 0; i < auth; i++)
		if (p[i] == '@')
			at = p + i;
	if (!at)
		return false;
	size_t user = strcspn(p, ":%");
	if (p + user >= at)
		return false;	/* user@host: no password */
	*start = user + 1;
	*len = (size_t)(at - (p + *start));
	return true;
}

char *secret_mask_url(TALLOC_CTX *mem_ctx, const char *text)
{
	char *out = talloc_strdup(mem_ctx, "");
	const char *p = text, *slashes;

	while (out && (slashes = strstr(p, "//")) != NULL) {
		size_t start, len;
		const char *auth = slashes + 2;
		if (!secret_url_password(auth, &start, &len)) {
			out = talloc_strndup_append(out, p, (size_t)(auth - p));
			p = auth;
			continue;
		}
		out = talloc_strndup_append(out, p, (size_t)(auth + start - p));
		if (out)
			out = talloc_strdup_append(out, SECRET_MASK);
		p = auth + start + len;
	}
	return out ? talloc_strdup_append(out, p) : NULL;
}

/* `word` with what follows the first '%' of its part `value` masked: the
 * word itself when that has no '%', NULL when out of memory. */
static const char *secret_mask_percent(TALLOC_CTX *mem_ctx, const char *word,
				       const char *value)
{
	const char *pct = strchr(value, '%');

	if (!pct)
		return word;
	return talloc_asprintf(mem_ctx, "%.*s" SECRET_MASK, (int)(pct + 1 - word), word);
}

/* secret_mask_word() for a word of its own: the word itself when nothing
 * is masked, NULL when out of memory. */
static const char *secret_mask_flat(TALLOC_CTX *mem_ctx, const char *word, const char *prev)
{
	size_t n, pn;
	const char *name = secret_option_name(word, &n);
	const char *pname = prev ? secret_option_name(prev, &pn) : NULL;
	const char *masked = word;

	if (name && name[n] == '=' && secret_user_option(name, n))	/* --user=U%P */
		masked = secret_mask_percent(mem_ctx, word, name + n + 1);
	else if (pname && pname[pn] == '\0' && secret_user_option(pname, pn))
		masked = secret_mask_percent(mem_ctx, word, word);	/* --user U%P */
	char *url = masked ? secret_mask_url(mem_ctx, masked) : NULL;
	if (!url)
		return NULL;
	return strcmp(url, word) == 0 ? word : url;
}

/* Where the word of a command line starting at p ends: at a blank, a
 * quote running to its match. */
static const char *secret_inner_end(const char *p)
{
	char quote = 0;

	for (; *p; p++) {
		if (quote)
			quote = *p == quote ? 0 : quote;
		else if (*p == '\'' || *p == '"')
			quote = *p;
		else if (*p == ' ' || *p == '\t')
			break;
	}
	return p;
}

/* `word` with each word of the command line `text` (its tail) masked as a
 * word of its own, the blanks between them kept; NULL when out of memory. */
static char *secret_mask_inner(TALLOC_CTX *mem_ctx, const char *word, const char *text)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char *out = talloc_strndup(mem_ctx, word, (size_t)(text - word));
	const char *prev = NULL, *p = text;

	while (out && tmp && *p) {
		size_t blanks = strspn(p, " \t");
		out = talloc_strndup_append(out, p, blanks);
		p += blanks;
		if (!*p || !out)
			break;
		const char *end = secret_inner_end(p);
		char *inner = talloc_strndup(tmp, p, (size_t)(end - p));
		const char *m = inner ? secret_mask_flat(tmp, inner, prev) : NULL;
		if (!m) {
			TALLOC_FREE(out);
			break;
		}
		out = talloc_strdup_append(out, m);
		prev = inner;
		p = end;
	}
	if (!tmp)
		TALLOC_FREE(out);
	talloc_free(tmp);
	return out;
}

const char *secret_mask_word(TALLOC_CTX *mem_ctx, const char *word, const char *prev)
{
	size_t n;
	const char *masked = secret_mask_flat(mem_ctx, word, prev);
	const char *name = masked ? secret_option_name(masked, &n) : NULL;
	const char *value = name && name[n] == '=' ? name + n + 1 : masked;

	/* a command line within a word: dbench ab's --a='-D x --smb-user=U%P',
	 * or the word after --a */
	if (!value || (value[0] != '-' && !strpbrk(value, " \t")))
		return masked;
	char *inner = secret_mask_inner(mem_ctx, masked, value);
	if (!inner)
		return NULL;
	return strcmp(inner, word) == 0 ? word : inner;
}

/* ---- the process's argument area ---- */

/* The words as given, for the parser: a copy per call, each kept for the
 * life of the process (argv points into it), chained from the latest. */
struct argv_copy {
	struct argv_copy *prev;
	char words[];
};
static struct argv_copy *secret_argv_copies;

/* Whether argv's words lie one after the other, as the kernel lays them
 * out: then [argv[0], the last one's NUL] is the area ps reads. */
static bool secret_contiguous(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (argv[i] != argv[i - 1] + strlen(argv[i - 1]) + 1)
			return false;
	return argc > 0;
}

/*
 * Rewrite the area as setproctitle(3) does: the masked words joined by
 * spaces and ended by a NUL, the rest spaces up to a last byte that is
 * not NUL.  The kernel then gives /proc/PID/cmdline (and so ps) the text
 * up to that NUL alone: neither the words nor the NULs after them tell
 * how long a password was.  A word that does not fit whole is left out
 * with all after it.  When the words fill the area exactly (with their
 * NULs: the masks as long as the passwords), they are put back as they
 * were, one after the other, which shows no length either.
 */
static void secret_rewrite_area(char *area, size_t size, int argc, const char **shown)
{
	size_t at = 0, packed = 0;

	for (int i = 0; i < argc; i++)
		packed += strlen(shown[i]) + 1;
	if (packed == size) {
		for (int i = 0; i < argc; i++) {
			memcpy(area + at, shown[i], strlen(shown[i]) + 1);
			at += strlen(shown[i]) + 1;
		}
		return;
	}
	if (size < 2)
		return;
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(shown[i]);
		if (at + (i > 0) + len + 2 > size)	/* the NUL and the last byte */
			break;
		if (i > 0)
			area[at++] = ' ';
		memcpy(area + at, shown[i], len);
		at += len;
	}
	area[at] = '\0';
	memset(area + at + 1, ' ', size - at - 1);
}

void secret_hide_argv(int argc, char **argv)
{
	/* Words not laid out as the kernel does (never, from execve) are
	 * left alone: no area to rewrite. */
	if (!secret_contiguous(argc, argv))
		return;
	char *area = argv[0];
	size_t size = (size_t)(argv[argc - 1] + strlen(argv[argc - 1]) + 1 - area);
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char **shown = talloc_array(tmp, const char *, argc);
	bool any = false;

	for (int i = 0; shown && i < argc; i++) {
		shown[i] = secret_mask_word(tmp, argv[i], i > 0 ? argv[i - 1] : NULL);
		if (!shown[i])
			shown[i] = "";	/* no memory: show nothing rather than the word */
		any = any || shown[i] != argv[i];
	}
	struct argv_copy *copy = shown && any ? malloc(sizeof(*copy) + size) : NULL;
	if (copy) {
		char *secret_argv_copy = copy->words;

		copy->prev = secret_argv_copies;
		secret_argv_copies = copy;
		memcpy(secret_argv_copy, area, size);
		for (int i = 0; i < argc; i++) {	/* the parser reads the copies */
			bool same = shown[i] == argv[i];
			argv[i] = secret_argv_copy + (argv[i] - area);
			if (same)
				shown[i] = argv[i];
		}
		secret_rewrite_area(area, size, argc, shown);
	}
	talloc_free(tmp);
}
