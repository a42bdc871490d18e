/*
 * addr.c - resolving, connecting and listening (see addr.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "addr.h"
#include "wire.h"

/* getaddrinfo() for a host as addr.h reads it; 0 or -1 with *err. */
static int resolve(TALLOC_CTX *mem_ctx, const char *host, unsigned port, bool passive,
		   struct addrinfo **res, char **err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0) };
	char service[16], name[256];
	size_t len = host ? strlen(host) : 0;

	if (host && !*host) {
		*err = talloc_strdup(mem_ctx, "the address is empty");
		return -1;
	}
	/* "[::1]" is how an IPv6 address is written beside a port */
	if (host && len >= 2 && host[0] == '[' && host[len - 1] == ']' && len - 2 < sizeof(name)) {
		memcpy(name, host + 1, len - 2);
		name[len - 2] = '\0';
		host = name;
	}
	snprintf(service, sizeof(service), "%u", port);
	int rc = getaddrinfo(host, service, &hints, res);
	if (rc != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot resolve '%s': %s", host,
				       rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	return 0;
}

char *net_addr_string(TALLOC_CTX *mem_ctx, const struct net_addr *a)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		return talloc_asprintf(mem_ctx, "[%s]:%u", host, ntohs(s6->sin6_port));
	}
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)&a->ss;
	inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
	return talloc_asprintf(mem_ctx, "%s:%u", host, ntohs(s4->sin_port));
}

/* A TCP socket for a's family with its waits bounded to timeout_ms (0:
 * not) and then opts set; -1 with *err. */
static int socket_with(TALLOC_CTX *mem_ctx, const struct net_addr *a,
		       const struct sockopt_set *opts, bool reuse, unsigned timeout_ms, char **err)
{
	int one = 1;
	const char *bad = NULL;
	int fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot make a TCP socket: %s", strerror(errno));
		return -1;
	}
	if (reuse)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	int e = timeout_ms ? wire_set_timeout(fd, timeout_ms) : 0;
	if (e) {
		*err = talloc_asprintf(mem_ctx, "cannot bound a socket's waits: %s", strerror(e));
		close(fd);
		return -1;
	}
	e = opts ? sockopt_apply(opts, fd, &bad) : 0;
	if (e) {
		*err = talloc_asprintf(mem_ctx, "cannot set socket option %s: %s", bad, strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

int net_connect(TALLOC_CTX *mem_ctx, const struct net_addr *a, const struct sockopt_set *opts,
		unsigned timeout_ms, char **err)
{
	int fd = socket_with(mem_ctx, a, opts, false, timeout_ms, err);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&a->ss, a->len) != 0) {
		/* past SO_SNDTIMEO, Linux leaves the connection in progress */
		int e = errno == EINPROGRESS ? ETIMEDOUT : errno;
		if (e == ETIMEDOUT && timeout_ms)
			*err = talloc_asprintf(mem_ctx, "cannot connect to %s: no answer within %s",
					       net_addr_string(mem_ctx, a),
					       net_duration(mem_ctx, timeout_ms));
		else
			*err = talloc_asprintf(mem_ctx, "cannot connect to %s: %s",
					       net_addr_string(mem_ctx, a),
					       e == EINTR ? "interrupted by a signal" : strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

char *net_duration(TALLOC_CTX *mem_ctx, unsigned ms)
{
	if (ms % 1000)
		return talloc_asprintf(mem_ctx, "%u ms", ms);
	return talloc_asprintf(mem_ctx, "%u s", ms / 1000);
}

/* ai as a struct net_addr. */
static void addr_of(struct net_addr *out, const struct addrinfo *ai)
{
	memcpy(&out->ss, ai->ai_addr, ai->ai_addrlen);
	out->len = ai->ai_addrlen;
}

int net_connect_host(TALLOC_CTX *mem_ctx, const char *host, unsigned port,
		     const struct sockopt_set *opts, unsigned timeout_ms, struct net_addr *used,
		     char **err)
{
	struct addrinfo *res;
	struct net_addr a;
	int fd = -1;

	if (resolve(mem_ctx, host, port, false, &res, err) != 0)
		return -1;
	errno = 0;	/* a signal stops the tries (EINTR) */
	for (struct addrinfo *ai = res; ai && fd < 0 && errno != EINTR; ai = ai->ai_next) {
		addr_of(&a, ai);
		if (*err)
			TALLOC_FREE(*err);
		fd = net_connect(mem_ctx, &a, opts, timeout_ms, err);
	}
	freeaddrinfo(res);
	if (fd >= 0 && used)
		*used = a;
	return fd;
}

/* Bind and listen on a; -1 with *err. */
static int listen_on(TALLOC_CTX *mem_ctx, struct net_addr *a, const struct sockopt_set *opts,
		     char **err)
{
	int fd = socket_with(mem_ctx, a, opts, true, 0, err);

	if (fd < 0)
		return -1;
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) != 0 || listen(fd, 128) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a->ss, &a->len) != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot listen on %s: %s",
				       net_addr_string(mem_ctx, a), strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int net_listen_host(TALLOC_CTX *mem_ctx, const char *host, unsigned port,
		    const struct sockopt_set *opts, struct net_addr *bound, char **err)
{
	struct addrinfo *res;
	int fd = -1;

	if (resolve(mem_ctx, host, port, true, &res, err) != 0)
		return -1;
	/* Without a host, the IPv6 wildcard first: it takes IPv4 too. */
	for (int pass = host ? 1 : 0; pass < 2 && fd < 0; pass++) {
		for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
			if (pass == 0 && ai->ai_family != AF_INET6)
				continue;
			addr_of(bound, ai);
			if (*err)
				TALLOC_FREE(*err);
			fd = listen_on(mem_ctx, bound, opts, err);
		}
	}
	freeaddrinfo(res);
	return fd;
}
