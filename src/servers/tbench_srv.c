/*
 * tbench_srv.c - the server tbench talks to: answers each request with a
 * reply of the size it asks for (wire.h), one process per connection
 * as dbench 4.0's does, since what kernel comparisons measure is how the
 * scheduler handles those pairs of processes.
 *
 * The listening process accepts, forks and reaps; it keeps the pid of
 * every child so that SIGTERM, SIGINT or SIGHUP stops all of them before
 * it exits, and each child also dies with it (PR_SET_PDEATHSIG).  A child
 * serves one connection and never trusts the peer: a header asking for
 * more than TBENCH_MAX_BODY closes the connection with a log line instead
 * of reading or writing that much, and nothing is allocated by size.
 *
 * It knows nothing of loadfiles, backends or runs.
 */
#ifdef DBENCH_COVERAGE
#include <gcov.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <talloc.h>
#include <unistd.h>

#include "badopt.h"
#include "exitcode.h"
#include "version.h"
#include "addr.h"
#include "sockopt.h"
#include "wire.h"

#define SRV_MAX_CHILDREN 4096	/* connections served at once */
#define SRV_WINDOW 1024		/* bytes read at once: a whole small request */
#define SRV_ZEROS 65536		/* reply payload sent per sendmsg() */
#define SRV_DEFAULT_TIMEOUT 120	/* seconds a connection may stay silent */

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;	/* only to interrupt ppoll(); the loop reaps */
}

/* ---- one connection (a child process) ---- */

static uint8_t zeros[SRV_ZEROS];

struct conn {
	int fd;
	const char *peer;		/* "127.0.0.1:41234", for log lines */
	unsigned timeout_s;		/* how long it may keep us waiting */
	uint8_t buf[SRV_WINDOW];	/* what came and is not yet consumed */
	size_t have;
};

static void conn_log(const struct conn *c, const char *what)
{
	fprintf(stderr, "tbench_srv: %s: %s: connection closed\n", c->peer, what);
}

/*
 * Read the next request and throw its payload away.  1 with *want set, 0
 * when the peer closed between requests, -1 when the connection must
 * close (logged).
 */
static int conn_next_request(struct conn *c, uint32_t *want)
{
	char why[160];

	while (c->have < 8) {
		ssize_t n = recv(c->fd, c->buf + c->have, sizeof(c->buf) - c->have, 0);
		if (n > 0) {
			c->have += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && c->have == 0)
			return 0;
		if (n == 0)
			snprintf(why, sizeof(why), "peer left after %zu bytes of a request header",
				 c->have);
		else if ((errno == EAGAIN || errno == EWOULDBLOCK) && c->have == 0)
			snprintf(why, sizeof(why), "no request for %u s", c->timeout_s);
		else if (errno == EAGAIN || errno == EWOULDBLOCK)
			snprintf(why, sizeof(why), "nothing for %u s after %zu bytes of a request"
				 " header", c->timeout_s, c->have);
		else
			snprintf(why, sizeof(why), "receiving: %s", strerror(errno));
		conn_log(c, why);
		return -1;
	}
	uint32_t len = wire_get32(c->buf);
	*want = wire_get32(c->buf + 4);
	if (len < 4 || len > TBENCH_MAX_BODY || *want > TBENCH_MAX_BODY) {
		snprintf(why, sizeof(why), "request header says %u bytes follow and %u go back"
			 " (from 4 and 0 to %u)", len, *want, TBENCH_MAX_BODY);
		conn_log(c, why);
		return -1;
	}
	size_t total = (size_t)len + 4;
	if (c->have >= total) {
		memmove(c->buf, c->buf + total, c->have - total);
		c->have -= total;
		return 1;
	}
	int e = wire_discard(c->fd, total - c->have, wire_deadline(c->timeout_s * 1000u));
	c->have = 0;
	if (e == ETIMEDOUT) {
		snprintf(why, sizeof(why), "request not whole within %u s", c->timeout_s);
		conn_log(c, why);
		return -1;
	}
	if (e) {
		snprintf(why, sizeof(why), "request cut short: %s", strerror(e));
		conn_log(c, why);
		return -1;
	}
	return 1;
}

/* Send the reply header and `want` bytes of zeros; 0 or an errno. */
static int conn_reply(struct conn *c, uint32_t want)
{
	uint8_t hdr[4];
	size_t first = want < SRV_ZEROS ? want : SRV_ZEROS;
	struct iovec iov[2] = { { hdr, 4 }, { zeros, first } };

	uint64_t deadline = wire_deadline(c->timeout_s * 1000u);

	wire_put32(hdr, want);
	int e = wire_send_iov(c->fd, iov, 2, deadline);
	for (size_t left = want - first; !e && left > 0;) {
		size_t n = left < SRV_ZEROS ? left : SRV_ZEROS;
		struct iovec more = { zeros, n };
		e = wire_send_iov(c->fd, &more, 1, deadline);
		left -= n;
	}
	return e;
}

static void conn_serve(int fd, const char *peer, unsigned timeout_s)
{
	struct conn c = { .fd = fd, .peer = peer, .timeout_s = timeout_s };
	uint32_t want;
	int r;

	while ((r = conn_next_request(&c, &want)) > 0) {
		int e = conn_reply(&c, want);
		if (e) {
			char why[96];
			if (e == ETIMEDOUT)
				snprintf(why, sizeof(why), "reply not taken within %u s", timeout_s);
			else
				snprintf(why, sizeof(why), "sending: %s", strerror(e));
			conn_log(&c, why);
			break;
		}
	}
	close(fd);
}

/* ---- the listening process ---- */

struct server {
	int listen_fd;
	const struct sockopt_set *opts;
	unsigned timeout_s;		/* --timeout */
	pid_t children[SRV_MAX_CHILDREN];
	unsigned nchildren;
	sigset_t run_mask;		/* the mask children get back */
};

static void server_reap(struct server *s)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
		for (unsigned i = 0; i < s->nchildren; i++) {
			if (s->children[i] == pid) {
				s->children[i] = s->children[--s->nchildren];
				break;
			}
		}
	}
}

/* Stop every child and wait for them all. */
static void server_stop_children(struct server *s)
{
	for (unsigned i = 0; i < s->nchildren; i++)
		kill(s->children[i], SIGTERM);
	while (s->nchildren > 0) {
		pid_t pid = waitpid(-1, NULL, 0);
		if (pid < 0 && errno != EINTR)
			break;
		for (unsigned i = 0; pid > 0 && i < s->nchildren; i++) {
			if (s->children[i] == pid) {
				s->children[i] = s->children[--s->nchildren];
				break;
			}
		}
	}
}

static void child_main(struct server *s, int fd, const char *peer)
{
	pid_t parent = getppid();

	close(s->listen_fd);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	sigprocmask(SIG_SETMASK, &s->run_mask, NULL);
	if (getppid() != parent)
		_exit(0);	/* the server died before PDEATHSIG was armed */
	conn_serve(fd, peer, s->timeout_s);
#ifdef DBENCH_COVERAGE
	__gcov_dump();	/* make coverage: the counts _exit() would not write */
#endif
	_exit(0);
}

static void server_accept(TALLOC_CTX *mem_ctx, struct server *s)
{
	struct net_addr peer = { .len = sizeof(peer.ss) };
	int fd = accept4(s->listen_fd, (struct sockaddr *)&peer.ss, &peer.len, SOCK_CLOEXEC);

	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			fprintf(stderr, "tbench_srv: accepting: %s\n", strerror(errno));
		return;
	}
	char *name = net_addr_string(mem_ctx, &peer);
	const char *bad = "a timeout";
	/* each recv() and send() bounded, unless -T says otherwise */
	int e = wire_set_timeout(fd, s->timeout_s * 1000u);
	e = e ? e : sockopt_apply(s->opts, fd, &bad);
	if (e) {
		fprintf(stderr, "tbench_srv: %s: cannot set socket option %s: %s\n", name, bad,
			strerror(e));
	} else if (s->nchildren == SRV_MAX_CHILDREN) {
		fprintf(stderr, "tbench_srv: %s: already serving %d connections: refused\n", name,
			SRV_MAX_CHILDREN);
	} else {
		pid_t pid = fork();
		if (pid == 0)
			child_main(s, fd, name);
		if (pid > 0)
			s->children[s->nchildren++] = pid;
		else
			fprintf(stderr, "tbench_srv: %s: cannot fork: %s\n", name, strerror(errno));
	}
	close(fd);
	talloc_free(name);
}

/* Accept until a stop signal; returns it. */
static int server_loop(TALLOC_CTX *mem_ctx, struct server *s)
{
	struct pollfd p = { .fd = s->listen_fd, .events = POLLIN };

	while (!stop_signal) {
		int n = ppoll(&p, 1, NULL, &s->run_mask);
		server_reap(s);
		if (n > 0 && !stop_signal)
			server_accept(mem_ctx, s);
	}
	server_stop_children(s);
	return stop_signal;
}

/* The signals that stop the server or interrupt it, blocked except in
 * ppoll(). */
static void server_signals(struct server *s)
{
	struct sigaction stop = { .sa_handler = on_stop }, child = { .sa_handler = on_child };
	sigset_t block;

	sigemptyset(&stop.sa_mask);
	sigemptyset(&child.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &s->run_mask);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGHUP, &stop, NULL);
	sigaction(SIGCHLD, &child, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct srv_cmdline {
	char *listen;
	int port;
	int timeout;
	char *tcp_options;
	int version;
};

/* Set up from the command line and serve; the exit code. */
static int server_run(TALLOC_CTX *mem_ctx, const struct srv_cmdline *cl)
{
	struct server *s = talloc_zero(mem_ctx, struct server);
	struct net_addr addr;
	char *err = NULL;

	if (!s)
		return EXIT_RUN_FAILED;
	s->timeout_s = (unsigned)cl->timeout;
	s->opts = sockopt_parse(s, cl->tcp_options ? cl->tcp_options : SOCKOPT_DEFAULT, &err);
	if (s->opts)
		s->listen_fd = net_listen_host(s, cl->listen, cl->port, s->opts, &addr, &err);
	if (!s->opts || s->listen_fd < 0) {
		fprintf(stderr, "tbench_srv: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	fcntl(s->listen_fd, F_SETFL, O_NONBLOCK);	/* a vanished connection never blocks accept() */
	server_signals(s);
	printf("tbench_srv: listening on %s\n", net_addr_string(s, &addr));
	fflush(stdout);
	int sig = server_loop(s, s);
	close(s->listen_fd);
	fprintf(stderr, "tbench_srv: stopped by signal %d\n", sig);
	return EXIT_OK;
}

int main(int argc, const char **argv)
{
	struct srv_cmdline cl = { .port = TBENCH_PORT, .timeout = SRV_DEFAULT_TIMEOUT };
	struct poptOption table[] = {
		{ "listen", 'l', POPT_ARG_STRING, &cl.listen, 0,
		  "address to listen on (default: every local address)", "ADDR" },
		{ "port", 'p', POPT_ARG_INT, &cl.port, 0,
		  "TCP port (default 7003; 0: any free one, printed)", "PORT" },
		{ "timeout", 0, POPT_ARG_INT, &cl.timeout, 0,
		  "seconds a connection may leave the server waiting (no request, half a"
		  " request, a reply not taken) before it is closed (default 120)", "SECS" },
		{ "tcp-options", 'T', POPT_ARG_STRING, &cl.tcp_options, 0,
		  "socket options (default \"" SOCKOPT_DEFAULT "\")", "OPTIONS" },
		{ NULL, 't', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &cl.tcp_options, 0,
		  "the same, as dbench 4.0 spelled it", "OPTIONS" },
		{ "version", 'V', POPT_ARG_NONE, &cl.version, 0, "print the version", NULL },
		POPT_AUTOHELP	/* prints and exits 0 inside the option loop */
		POPT_TABLEEND
	};
	poptContext pc = poptGetContext("tbench_srv", argc, argv, table, 0);
	int rc, opt;

	while ((opt = poptGetNextOpt(pc)) > 0)
		;
	TALLOC_CTX *top = talloc_new(NULL);	/* after --help's exit: nothing leaks */
	if (opt < -1) {
		fprintf(stderr, "tbench_srv: %s\n", badopt_message(top, pc, opt, argc, argv, table));
		rc = EXIT_BAD_INPUT;
	} else if (poptPeekArg(pc)) {
		fprintf(stderr, "tbench_srv: unexpected argument '%s'\n", poptPeekArg(pc));
		rc = EXIT_BAD_INPUT;
	} else if (cl.port < 0 || cl.port > 65535) {
		fprintf(stderr, "tbench_srv: --port %d is not from 0 to 65535\n", cl.port);
		rc = EXIT_BAD_INPUT;
	} else if (cl.timeout < 1 || cl.timeout > 86400) {
		fprintf(stderr, "tbench_srv: --timeout %d is not from 1 to 86400 seconds\n",
			cl.timeout);
		rc = EXIT_BAD_INPUT;
	} else if (cl.version) {
		printf("tbench_srv %s\n", DBENCH_VERSION);
		rc = EXIT_OK;
	} else {
		rc = server_run(top, &cl);
	}
	poptFreeContext(pc);
	free(cl.listen);
	free(cl.tcp_options);
	talloc_free(top);
	return rc;
}
