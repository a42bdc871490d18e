/*
 * addr.h - TCP endpoints by name: connecting to a HOST and port, and
 * listening on one, for tbench and tbench_srv.
 *
 * HOST is a name, an IPv4 address or an IPv6 address (bare or in
 * brackets).  Every address a name resolves to is tried in turn, so that
 * "localhost" reaches a server bound to 127.0.0.1 alone as well as one
 * bound to ::1.  Errors come back as talloc strings naming the address
 * ("cannot connect to 127.0.0.1:7003: Connection refused"); nothing here
 * prints or exits, and nothing here knows of runs or loadfiles.
 */
#ifndef DBENCH_ADDR_H
#define DBENCH_ADDR_H

#include <stdbool.h>
#include <sys/socket.h>
#include <talloc.h>

#include "sockopt.h"

struct net_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* "127.0.0.1:7003", "[::1]:7003", on mem_ctx. */
char *net_addr_string(TALLOC_CTX *mem_ctx, const struct net_addr *a);

/*
 * A TCP socket connected to host:port, with every blocking call on it
 * bounded to timeout_ms (wire_set_timeout(); 0: not bounded), the connect
 * itself included, and then `opts` (may be NULL) set before connecting,
 * as 4.0 did; *used (may be NULL) gets the address it reached, which
 * later connections can take directly.  -1 with *err and errno
 * (ETIMEDOUT: no answer within the bound; EINTR: a signal came).
 */
int net_connect_host(TALLOC_CTX *mem_ctx, const char *host, unsigned port,
		     const struct sockopt_set *opts, unsigned timeout_ms, struct net_addr *used,
		     char **err);

/* The same to an address already resolved. */
int net_connect(TALLOC_CTX *mem_ctx, const struct net_addr *a, const struct sockopt_set *opts,
		unsigned timeout_ms, char **err);

/* A timeout for messages: "10 s", or "1500 ms" when not whole seconds. */
char *net_duration(TALLOC_CTX *mem_ctx, unsigned ms);

/*
 * A listening TCP socket on host:port (host NULL: every local address,
 * IPv6 and IPv4 where the system allows), SO_REUSEADDR and then `opts`
 * set; *bound gets the address, with the port the kernel chose when port
 * is 0.  -1 with *err.
 */
int net_listen_host(TALLOC_CTX *mem_ctx, const char *host, unsigned port,
		    const struct sockopt_set *opts, struct net_addr *bound, char **err);

#endif
