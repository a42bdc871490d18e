/*
 * wire.c - framing of tbench messages and whole-buffer socket I/O (see
 * wire.h).  Only sockets and bytes: no loadfile, no backend, no run.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>

#include "opclock.h"
#include "wire.h"

uint32_t wire_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void wire_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

void wire_request_header(uint8_t hdr[8], uint32_t send_size, uint32_t recv_size)
{
	wire_put32(hdr, send_size - 4);
	wire_put32(hdr + 4, recv_size - 4);
}

uint64_t wire_deadline(unsigned timeout_ms)
{
	return timeout_ms ? monotonic_ns() + timeout_ms * 1000000ull : 0;
}

int wire_set_timeout(int fd, unsigned timeout_ms)
{
	struct timeval tv = { timeout_ms / 1000, timeout_ms % 1000 * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
		return errno;
	return 0;
}

/*
 * A call that moved nothing (EAGAIN: the socket's own timeout ran out) or
 * only part of what was asked for: wait for fd to be ready for `events`
 * until the deadline.  0 to try again; ETIMEDOUT past the deadline; EINTR
 * when a signal came.  Without a deadline the socket's blocking call is
 * the only wait, and this returns 0 at once.
 */
static int wait_more(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	uint64_t now = monotonic_ns();

	if (!deadline)
		return 0;
	if (now >= deadline)
		return ETIMEDOUT;
	int n = poll(&p, 1, (int)((deadline - now + 999999) / 1000000));
	return n < 0 ? errno : n == 0 ? ETIMEDOUT : 0;
}

int wire_send_iov(int fd, struct iovec *iov, int iovcnt, uint64_t deadline)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = iovcnt };
	int flags = MSG_NOSIGNAL;

	while (msg.msg_iovlen > 0) {
		ssize_t n = sendmsg(fd, &msg, flags);
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return errno;
		if (n < 0 && !deadline)
			return ETIMEDOUT;	/* the socket's own timeout */
		n = n < 0 ? 0 : n;
		/* Step past what went out: whole iovecs (empty ones too), then
		 * part of one. */
		while (msg.msg_iovlen > 0 && (size_t)n >= msg.msg_iov->iov_len) {
			n -= msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (n > 0 && msg.msg_iovlen > 0) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= n;
		}
		int e = msg.msg_iovlen > 0 ? wait_more(fd, POLLOUT, deadline) : 0;
		if (e)
			return e;
		flags |= deadline ? MSG_DONTWAIT : 0;	/* poll() waits now */
	}
	return 0;
}

/*
 * What MSG_TRUNC "receives" into: the kernel writes nothing there, but a
 * sanitizer checks the whole range a recv() names, so each call names no
 * more than this.  Never written, it stays untouched zero pages.
 */
static char discard_sink[1 << 17];

/*
 * recv() until len bytes came, with `flags` added to MSG_WAITALL.  The
 * first call blocks (the socket's own timeout, wire_set_timeout(), bounds
 * it); once it comes back short, the rest is waited for with poll() up to
 * the deadline, so that a peer sending a byte now and then cannot stretch
 * the wait.
 */
static int recv_exactly(int fd, void *buf, size_t len, int flags, uint64_t deadline)
{
	char *p = buf;

	while (len > 0) {
		size_t ask = (flags & MSG_TRUNC) && len > sizeof(discard_sink) ? sizeof(discard_sink)
									       : len;
		ssize_t n = recv(fd, p, ask, MSG_WAITALL | flags);
		if (n == 0)
			return ECONNRESET;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return errno;
		if (n < 0 && !deadline)
			return ETIMEDOUT;	/* the socket's own timeout */
		if (n > 0) {
			len -= n;
			if (!(flags & MSG_TRUNC))
				p += n;
		}
		if (n == (ssize_t)ask)
			continue;	/* a piece of a large discard */
		int e = len > 0 ? wait_more(fd, POLLIN, deadline) : 0;
		if (e)
			return e;
		flags |= deadline ? MSG_DONTWAIT : 0;	/* poll() waits now */
	}
	return 0;
}

int wire_recv_all(int fd, void *buf, size_t len, uint64_t deadline)
{
	return recv_exactly(fd, buf, len, 0, deadline);
}

int wire_discard(int fd, size_t len, uint64_t deadline)
{
	return recv_exactly(fd, discard_sink, len, MSG_TRUNC, deadline);
}
