/*
 * sockio.c - the "sockio" backend, tbench's: each operation becomes one
 * request and one reply over a TCP connection to tbench_srv, of the sizes
 * the SMB request and reply of that operation would have, so that a run
 * measures the network stack and the scheduler and no file system.
 *
 * The sizes are dbench 4.0's (its sockio.c), so that our tbench and its
 * load a server alike and either can run against either server; the
 * message layout is in wire.h.  Like 4.0, a path counts as the name a
 * 4.0 client would have sent, "./clients/clientN/..." (its -D "."
 * prepended), two bytes a character.
 *
 * A target is a server: HOST from tbench's SERVER argument (or -D with
 * --backend=sockio), "localhost" by default, on --port (7003).
 * target_open() checks in the parent that a tbench server answers there;
 * each client opens its own connection in client_new().  Nothing is
 * stored anywhere, so there is nothing to clean up.  An exchange that
 * succeeds is the outcome the loadfile expected; one that fails (the
 * server gone, a reply of the wrong size) fails the run whatever the
 * loadfile expected, with the connection's account in failure_detail().
 *
 * It knows nothing of the driver, the stats region or the reports.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "backend.h"
#include "jsontext.h"
#include "backends/sockio.h"
#include "addr.h"
#include "sockopt.h"
#include "wire.h"

_Static_assert(OP_MAX_SIZE + 1024 <= TBENCH_MAX_BODY,
	       "a ReadX or WriteX of the largest size fits in a tbench message");

/* Replies this small come in one recv(); larger ones are read as a header
 * and then dropped in the kernel (MSG_TRUNC), never copied out. */
#define SOCKIO_SMALL_REPLY 1024

/* Seconds a client waits for the server by default: connecting, the
 * opening exchange, every request taken and every reply.  Loopback
 * answers in microseconds and a loaded machine in milliseconds; only a
 * server that has stopped answering takes this long. */
#define SOCKIO_DEFAULT_TIMEOUT 30

/* The command-line options of this backend alone (backend.h, struct
 * backend_opt); -T, which dbench 4.0 took whatever the backend, comes
 * in backend_options. */
struct sockio_options {
	int port;		/* --port */
	int timeout;		/* --timeout, seconds */
};

static const struct backend_opt sockio_opts[] = {
	{ .name = "port", .type = BACKEND_OPT_INT, .offset = offsetof(struct sockio_options, port),
	  .def = TBENCH_PORT, .min = 1, .max = 65535, .arg = "PORT",
	  .help = "the tbench server's TCP port (default 7003)" },
	{ .name = "timeout", .type = BACKEND_OPT_INT,
	  .offset = offsetof(struct sockio_options, timeout), .def = SOCKIO_DEFAULT_TIMEOUT,
	  .min = 1, .max = 3600, .unit = "seconds", .arg = "SECS",
	  .help = "seconds the tbench server may take to connect, take a request or reply before"
		  " the run fails (default 30)" },
	{ .name = NULL }
};

struct backend_target {
	const char *spec;		/* HOST as given */
	char *name;			/* "127.0.0.1:7003", the address reached */
	struct net_addr addr;
	struct sockopt_set *opts;
	const char *tcp_options;	/* as given, for the record */
	int port;			/* --port */
	int timeout;			/* --timeout, seconds */
};

struct backend_client {
	int fd;
	const struct backend_target *t;
	size_t name_len;		/* strlen("./clients/clientN") */
	const uint8_t *zeros;		/* request payload: TBENCH_MAX_BODY bytes */
	uint8_t hdr[8];
	uint8_t reply[SOCKIO_SMALL_REPLY];
	char detail[192];		/* what failure_detail() says ... */
	bool has_detail;		/* ... when this is set */
};

/* ---- message sizes ---- */

/*
 * What dbench 4.0's tbench sends and expects back for an operation: the
 * SMB header (39 bytes) and the request's own words, two bytes for each
 * character of a path.  One row per operation, read by sockio_sizes().
 */
struct sizing {
	uint16_t send;		/* fixed part of the request; 0: no exchange */
	uint8_t send_path;	/* bytes a path character adds (path and path2) */
	uint8_t send_data;	/* 1: the request carries the WriteX data */
	uint16_t recv;		/* fixed part of the reply */
	uint8_t recv_data;	/* 1: the reply carries the ReadX data */
	uint8_t recv_entry;	/* bytes per FIND_FIRST match */
};

static const struct sizing sizing[OP_COUNT] = {
	[OP_NTCREATEX] = { 39 + 31 + 2 + 2, 2, 0, 39 + 48, 0, 0 },
	[OP_CLOSE] = { 39 + 8, 0, 0, 39, 0, 0 },
	[OP_RENAME] = { 39 + 8, 2, 0, 39, 0, 0 },
	[OP_UNLINK] = { 39 + 2 + 2, 2, 0, 39, 0, 0 },
	[OP_DELTREE] = { 0, 0, 0, 0, 0, 0 },	/* 4.0 sends nothing */
	[OP_RMDIR] = { 39 + 2 + 2, 2, 0, 39, 0, 0 },
	[OP_MKDIR] = { 39 + 2 + 2, 2, 0, 39, 0, 0 },
	[OP_QPATHINFO] = { 39 + 16, 2, 0, 39 + 32, 0, 0 },
	[OP_QFILEINFO] = { 39 + 20, 0, 0, 39 + 32, 0, 0 },
	[OP_QFSINFO] = { 39 + 20, 0, 0, 39 + 32, 0, 0 },
	[OP_SFILEINFO] = { 39 + 32, 0, 0, 39 + 8, 0, 0 },
	[OP_FINDFIRST] = { 39 + 20, 2, 0, 39, 0, 90 },
	[OP_WRITEX] = { 39 + 20, 0, 1, 39 + 16, 0, 0 },
	[OP_READX] = { 39 + 20, 0, 0, 39 + 20, 1, 0 },
	[OP_LOCKX] = { 39 + 12, 0, 0, 39, 0, 0 },
	[OP_UNLOCKX] = { 39 + 12, 0, 0, 39, 0, 0 },
	[OP_FLUSH] = { 39 + 2, 0, 0, 39, 0, 0 },
};

/* The length of the name 4.0 gives a path: "./clients" for "\clients",
 * "./clients/clientN" for the client's own directory, and that, a slash
 * and the path beneath it otherwise. */
static size_t path_len(const struct op *op, const char *path, size_t name_len)
{
	if (op->flags & OPF_CLIENTS_DIR)
		return strlen("./clients");
	return *path ? name_len + 1 + strlen(path) : name_len;
}

bool sockio_sizes(const struct op *op, size_t name_len, uint32_t *send, uint32_t *recv)
{
	const struct sizing *z = &sizing[op->type];
	uint64_t s = z->send, r = z->recv;

	if (z->send == 0)
		return false;
	if (z->send_path) {
		s += z->send_path * path_len(op, op->path, name_len);
		if (op->path2)
			s += z->send_path * path_len(op, op->path2, name_len);
	}
	if (z->send_data)
		s += (uint64_t)op->a[1];		/* WriteX size */
	if (z->recv_data)
		r += (uint64_t)op->a[2];		/* ReadX expected return */
	r += (uint64_t)z->recv_entry * (uint64_t)op->a[2];	/* FIND_FIRST count */
	*send = s > TBENCH_MAX_BODY ? TBENCH_MAX_BODY : (uint32_t)s;
	*recv = r > TBENCH_MAX_BODY ? TBENCH_MAX_BODY : (uint32_t)r;
	return true;
}

/* ---- one exchange ---- */

/* Why a wait on the server ended, for messages: "no answer within 30 s"
 * for the timeout, else the errno's text. */
static const char *wait_failure(int err, int timeout, char buf[64])
{
	if (err == ETIMEDOUT)
		snprintf(buf, 64, "no answer within %d s", timeout);
	else if (err == EINTR)
		snprintf(buf, 64, "interrupted by a signal");
	else
		snprintf(buf, 64, "%s", strerror(err));
	return buf;
}

static int exchange_failed(struct backend_client *bc, int err, const char *what)
{
	char why[64];

	snprintf(bc->detail, sizeof(bc->detail), "%s: %s: %s", bc->t->name, what,
		 wait_failure(err, bc->t->timeout, why));
	bc->has_detail = true;
	return err;
}

/* Send `send` bytes asking for `recv` back, and take the reply; 0 or a
 * positive errno with bc->detail set. */
static int exchange(struct backend_client *bc, uint32_t send, uint32_t recv)
{
	struct iovec iov[2] = { { bc->hdr, 8 }, { (void *)bc->zeros, send - 8 } };
	int err;

	wire_request_header(bc->hdr, send, recv);
	err = wire_send_iov(bc->fd, iov, 2, wire_deadline(bc->t->timeout * 1000u));
	if (err)
		return exchange_failed(bc, err, "sending a request");
	/* the reply has the timeout from the moment the request is out */
	uint64_t deadline = wire_deadline(bc->t->timeout * 1000u);
	err = wire_recv_all(bc->fd, bc->reply, recv <= SOCKIO_SMALL_REPLY ? recv : 4, deadline);
	if (err)
		return exchange_failed(bc, err, "waiting for the reply");
	if (wire_get32(bc->reply) != recv - 4) {
		snprintf(bc->detail, sizeof(bc->detail),
			 "%s: a reply of %u bytes where %u were asked for: not a tbench server,"
			 " or out of step", bc->t->name, wire_get32(bc->reply), recv - 4);
		bc->has_detail = true;
		return EPROTO;
	}
	if (recv > SOCKIO_SMALL_REPLY && (err = wire_discard(bc->fd, recv - 4, deadline)))
		return exchange_failed(bc, err, "reading the reply");
	return 0;
}

static int sockio_op(struct backend_client *bc, const struct op *op)
{
	uint32_t send, recv;

	if (sockio_sizes(op, bc->name_len, &send, &recv)) {
		int err = exchange(bc, send, recv);
		if (err)
			return err;
	}
	/* The server did what the trace says it did, failures included. */
	return op->status == NT_OK ? 0 : ENOENT;
}

static const char *sockio_failure_detail(struct backend_client *bc)
{
	return backend_detail_taken(&bc->has_detail, bc->detail);
}

/* ---- targets and clients ---- */

static const char **sockio_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own,
				    char **err)
{
	const char **specs;

	(void)own;
	if (dirs)
		return dirs;
	if (!(specs = talloc_zero_array(mem_ctx, const char *, 2))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	specs[0] = "localhost";		/* as 4.0 */
	return specs;
}

/* Make the opening exchange on a new connection fd to t (closed on
 * failure); fd, or -1 and *err. */
static int greet(TALLOC_CTX *mem_ctx, const struct backend_target *t, int fd, char **err)
{
	uint8_t hdr[8], reply[4];
	struct iovec iov = { hdr, 8 };
	uint64_t deadline = wire_deadline(t->timeout * 1000u);
	char why[64];
	int e;

	if (fd < 0)
		return -1;
	wire_request_header(hdr, TBENCH_HELLO_SEND, TBENCH_HELLO_RECV);
	e = wire_send_iov(fd, &iov, 1, deadline);
	e = e ? e : wire_recv_all(fd, reply, 4, deadline);
	e = e ? e : wire_get32(reply) != TBENCH_HELLO_RECV - 4 ? EPROTO : 0;
	e = e ? e : wire_discard(fd, TBENCH_HELLO_RECV - 4, deadline);
	if (e == EPROTO) {
		*err = talloc_asprintf(mem_ctx, "%s does not answer as a tbench server: its reply"
				       " to the opening exchange says %u bytes follow, not %u",
				       t->name, wire_get32(reply), TBENCH_HELLO_RECV - 4);
	} else if (e) {
		*err = talloc_asprintf(mem_ctx, "%s: waiting for the answer to the opening"
				       " exchange: %s", t->name, wait_failure(e, t->timeout, why));
	}
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* What of the command line a server run has no use for, or NULL. */
static const char *pointless_option(const struct backend_options *opts)
{
	if (opts->sync_open || opts->sync_dir || opts->fsync_writes)
		return "-s, -S and -F have no files to sync";
	if (opts->xattr)
		return "-x has no files to give attributes";
	if (opts->verify)
		return "--verify has no data to check: the server sends zeros";
	return NULL;
}

static struct backend_target *sockio_target_open(TALLOC_CTX *mem_ctx, const char *spec,
						 const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	const char *why = pointless_option(opts);
	int fd;

	if (!t) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	t->spec = talloc_strdup(t, spec);
	t->port = ((const struct sockio_options *)opts->own)->port;
	t->timeout = ((const struct sockio_options *)opts->own)->timeout;
	t->tcp_options = talloc_strdup(t, opts->tcp_options ? opts->tcp_options : SOCKOPT_DEFAULT);
	if (why) {
		*err = talloc_asprintf(mem_ctx, "tbench (the sockio backend): %s", why);
		goto fail;
	}
	if (!(t->opts = sockopt_parse(t, t->tcp_options, err)))
		goto fail;
	fd = net_connect_host(t, spec, t->port, t->opts, t->timeout * 1000u, &t->addr,
			      err);
	if (fd >= 0)
		t->name = net_addr_string(t, &t->addr);
	if (greet(t, t, fd, err) < 0)
		goto fail;
	close(fd);
	return t;
fail:
	if (*err && talloc_parent(*err) != mem_ctx)
		*err = talloc_steal(mem_ctx, *err);
	talloc_free(t);
	return NULL;
}

static int sockio_target_close(struct backend_target *t)
{
	(void)t;	/* a server keeps nothing of ours */
	return 0;
}

static size_t sockio_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	const struct dockey_value v[] = {
		{ DK_TARGET_SERVER, json_string(t->name) },
		{ DK_TARGET_HOST, json_string(t->spec) },
		{ DK_TARGET_PORT, json_integer(t->port) },
		{ DK_TARGET_TCP_OPTIONS, jsontext(t->tcp_options) },
		{ DK_TARGET_TIMEOUT, json_integer(t->timeout) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

static int client_destroy(struct backend_client *bc)
{
	if (bc->fd >= 0)
		close(bc->fd);
	if (bc->zeros)
		munmap((void *)bc->zeros, TBENCH_MAX_BODY);
	return 0;
}

static struct backend_client *sockio_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
						unsigned id, const struct program *prog,
						const struct backend_options *opts,
						struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);
	char name[64];

	(void)prog, (void)verify;	/* no data to check (pointless_option) */
	if (!bc) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	bc->fd = -1;
	bc->t = t;
	talloc_set_destructor(bc, client_destroy);
	backend_client_name(name, sizeof(name), opts, id);
	bc->name_len = strlen("./clients/") + strlen(name);
	/* Never written, so every page of it is the kernel's one zero page. */
	void *z = mmap(NULL, TBENCH_MAX_BODY, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (z == MAP_FAILED) {
		*err = talloc_asprintf(mem_ctx, "cannot map a request buffer: %s", strerror(errno));
		talloc_free(bc);
		return NULL;
	}
	bc->zeros = z;
	bc->fd = greet(mem_ctx, t, net_connect(mem_ctx, &t->addr, t->opts,
					       t->timeout * 1000u, err), err);
	if (bc->fd < 0) {
		talloc_free(bc);
		return NULL;
	}
	return bc;
}

static size_t sockio_client_mem(const struct program *prog, const struct backend_options *opts)
{
	(void)prog, (void)opts;
	return sizeof(struct backend_client) + BACKEND_ALLOC_OVERHEAD;
}

static void sockio_pass_end(struct backend_client *bc)
{
	(void)bc;
}

const struct backend sockio_backend = {
	.name = "sockio",
	.summary = "tbench_srv over TCP at -D HOST, as tbench runs",
	.no_local_writes = "sends its data to tbench_srv",
	.options = sockio_opts,
	.options_size = sizeof(struct sockio_options),
	.is_tbench = true,
	.targets = sockio_targets,
	.target_open = sockio_target_open,
	.target_close = sockio_target_close,
	.target_describe = sockio_target_describe,
	.client_mem = sockio_client_mem,
	.client_new = sockio_client_new,
	.op = {
		[OP_NTCREATEX] = sockio_op, [OP_CLOSE] = sockio_op, [OP_RENAME] = sockio_op,
		[OP_UNLINK] = sockio_op, [OP_DELTREE] = sockio_op, [OP_RMDIR] = sockio_op,
		[OP_MKDIR] = sockio_op, [OP_QPATHINFO] = sockio_op, [OP_QFILEINFO] = sockio_op,
		[OP_QFSINFO] = sockio_op, [OP_SFILEINFO] = sockio_op, [OP_FINDFIRST] = sockio_op,
		[OP_WRITEX] = sockio_op, [OP_READX] = sockio_op, [OP_LOCKX] = sockio_op,
		[OP_UNLOCKX] = sockio_op, [OP_FLUSH] = sockio_op,
	},
	.failure_detail = sockio_failure_detail,
	.pass_end = sockio_pass_end,
	.cleanup = NULL,	/* a server keeps nothing of ours */
};
