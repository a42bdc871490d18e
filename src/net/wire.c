/*
 * wire.c - framing of tbench messages and whole-buffer socket I/O (see
 * wire.h).  Only sockets and bytes: no loadfile, no backend, no run.
 */
#include <errno.h>
#include <sys/socket.h>
#include <sys/uio.h>

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

int wire_send_iov(int fd, struct iovec *iov, int iovcnt)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = iovcnt };

	while (msg.msg_iovlen > 0) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		/* Step past what went out: whole iovecs, then part of one. */
		while (msg.msg_iovlen > 0 && (size_t)n >= msg.msg_iov->iov_len) {
			n -= msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen > 0) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= n;
		}
	}
	return 0;
}

/*
 * What MSG_TRUNC "receives" into: the kernel writes nothing there, but a
 * sanitizer checks the whole range a recv() names, so each call names no
 * more than this.  Never written, it stays untouched zero pages.
 */
static char discard_sink[1 << 17];

/* recv() until len bytes came, with `flags` added to MSG_WAITALL. */
static int recv_exactly(int fd, void *buf, size_t len, int flags)
{
	char *p = buf;

	while (len > 0) {
		size_t ask = (flags & MSG_TRUNC) && len > sizeof(discard_sink) ? sizeof(discard_sink)
									       : len;
		ssize_t n = recv(fd, p, ask, MSG_WAITALL | flags);
		if (n == 0)
			return ECONNRESET;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		len -= n;
		if (!(flags & MSG_TRUNC))
			p += n;
	}
	return 0;
}

int wire_recv_all(int fd, void *buf, size_t len)
{
	return recv_exactly(fd, buf, len, 0);
}

int wire_discard(int fd, size_t len)
{
	return recv_exactly(fd, discard_sink, len, MSG_TRUNC);
}
