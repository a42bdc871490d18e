/*
 * sockopt.c - parsing and applying -T socket options (see sockopt.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "sockopt.h"

enum sockopt_kind {
	KIND_BOOL,	/* on unless NAME=0 */
	KIND_INT,	/* NAME=VALUE; alone it is 1, as in 4.0 */
	KIND_ON,	/* sets a fixed value; takes none */
	KIND_TIMEO,	/* NAME=MILLISECONDS, set as the struct timeval Linux wants */
};

struct sockopt_def {
	const char *name;
	int level;
	int option;
	int fixed;		/* the value a KIND_ON option sets */
	enum sockopt_kind kind;
};

static const struct sockopt_def defs[] = {
	{ "SO_KEEPALIVE", SOL_SOCKET, SO_KEEPALIVE, 0, KIND_BOOL },
	{ "SO_REUSEADDR", SOL_SOCKET, SO_REUSEADDR, 0, KIND_BOOL },
	{ "SO_BROADCAST", SOL_SOCKET, SO_BROADCAST, 0, KIND_BOOL },
	{ "TCP_NODELAY", IPPROTO_TCP, TCP_NODELAY, 0, KIND_BOOL },
	{ "IPTOS_LOWDELAY", IPPROTO_IP, IP_TOS, IPTOS_LOWDELAY, KIND_ON },
	{ "IPTOS_THROUGHPUT", IPPROTO_IP, IP_TOS, IPTOS_THROUGHPUT, KIND_ON },
	{ "SO_SNDBUF", SOL_SOCKET, SO_SNDBUF, 0, KIND_INT },
	{ "SO_RCVBUF", SOL_SOCKET, SO_RCVBUF, 0, KIND_INT },
	{ "SO_SNDLOWAT", SOL_SOCKET, SO_SNDLOWAT, 0, KIND_INT },
	{ "SO_RCVLOWAT", SOL_SOCKET, SO_RCVLOWAT, 0, KIND_INT },
	{ "SO_SNDTIMEO", SOL_SOCKET, SO_SNDTIMEO, 0, KIND_TIMEO },
	{ "SO_RCVTIMEO", SOL_SOCKET, SO_RCVTIMEO, 0, KIND_TIMEO },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

struct sockopt_setting {
	const struct sockopt_def *def;
	int value;
};

struct sockopt_set {
	struct sockopt_setting *items;
	size_t count;
};

static const struct sockopt_def *def_lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < NDEFS; i++) {
		if (strlen(defs[i].name) == len && strncasecmp(defs[i].name, name, len) == 0)
			return &defs[i];
	}
	return NULL;
}

/* One word, NAME or NAME=VALUE, into *out; NULL or what is wrong. */
static const char *parse_word(const char *w, size_t len, struct sockopt_setting *out)
{
	const char *eq = memchr(w, '=', len);
	size_t nlen = eq ? (size_t)(eq - w) : len;

	out->def = def_lookup(w, nlen);
	out->value = 1;
	if (!out->def)
		return "is not a socket option tbench knows (TCP_NODELAY, SO_KEEPALIVE,"
		       " SO_REUSEADDR, SO_BROADCAST, IPTOS_LOWDELAY, IPTOS_THROUGHPUT,"
		       " SO_SNDBUF, SO_RCVBUF, SO_SNDLOWAT, SO_RCVLOWAT, SO_SNDTIMEO,"
		       " SO_RCVTIMEO)";
	if (out->def->kind == KIND_ON) {
		out->value = out->def->fixed;
		return eq ? "takes no value" : NULL;
	}
	if (eq) {
		char num[32];
		size_t vlen = len - nlen - 1;
		char *end;
		if (vlen == 0 || vlen >= sizeof(num) || !isdigit((unsigned char)eq[1]))
			return vlen >= sizeof(num) && strspn(eq + 1, "0123456789") == vlen
			       ? "is too large: at most 2147483647"
			       : "needs a whole number from 0 to 2147483647 after '='";
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		errno = 0;
		long long v = strtoll(num, &end, 0);
		if (*end)
			return "needs a whole number from 0 to 2147483647 after '='";
		if (errno == ERANGE || v > INT_MAX)
			return "is too large: at most 2147483647";
		out->value = (int)v;
	}
	return NULL;
}

struct sockopt_set *sockopt_parse(TALLOC_CTX *mem_ctx, const char *spec, char **err)
{
	static const char seps[] = " \t,";
	struct sockopt_set *set = talloc_zero(mem_ctx, struct sockopt_set);
	size_t words = 0;

	for (const char *p = spec + strspn(spec, seps); *p; p += strspn(p, seps)) {
		words++;
		p += strcspn(p, seps);
	}
	if (set)
		set->items = talloc_zero_array(set, struct sockopt_setting, words ? words : 1);
	if (!set || !set->items) {
		talloc_free(set);
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	for (const char *p = spec + strspn(spec, seps); *p; p += strspn(p, seps)) {
		size_t len = strcspn(p, seps);
		const char *why = parse_word(p, len, &set->items[set->count]);
		if (why) {
			*err = talloc_asprintf(mem_ctx, "socket option '%.*s' %s", (int)len, p, why);
			talloc_free(set);
			return NULL;
		}
		set->count++;
		p += len;
	}
	return set;
}

int sockopt_apply(const struct sockopt_set *set, int fd, const char **failed)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct sockopt_setting *s = &set->items[i];
		struct timeval tv = { s->value / 1000, s->value % 1000 * 1000 };
		bool timeo = s->def->kind == KIND_TIMEO;
		if (setsockopt(fd, s->def->level, s->def->option, timeo ? (void *)&tv : (void *)&s->value,
			       timeo ? sizeof(tv) : sizeof(s->value)) != 0) {
			*failed = s->def->name;
			return errno;
		}
	}
	return 0;
}
