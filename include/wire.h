/*
 * wire.h - the tbench message exchange, as dbench 4.0's tbench and
 * tbench_srv speak it, and the plain TCP plumbing both ends share.
 *
 * A client emulates one SMB request and its reply with one exchange over a
 * TCP connection:
 *
 *   request  [len: u32 big-endian][want: u32 big-endian][len - 4 bytes]
 *   reply    [want: u32 big-endian][want bytes]
 *
 * `len` counts everything after the first word (so a request of S bytes on
 * the wire carries len = S - 4, and len is at least 4: the `want` word);
 * `want` is how many bytes the reply carries after its own first word.
 * The payload bytes mean nothing: both ends send zeros here (4.0 sends
 * whatever its buffer held).  A connection opens with one exchange of an
 * 8-byte request wanting 4 bytes back.  The server answers each request
 * in turn on the same connection; the client never has two outstanding.
 *
 * This module knows nothing of loadfiles, backends or runs: it moves
 * bytes and says what went wrong as an errno value.
 */
#ifndef DBENCH_WIRE_H
#define DBENCH_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* dbench 4.0's port, which its tbench and tbench_srv cannot change. */
#define TBENCH_PORT 7003

/*
 * The most a request's `len` or `want` may say.  dbench 4.0's server
 * refuses more than 70000 bytes; our loadfiles allow ReadX and WriteX of
 * up to 16 MiB, and the SMB header sizes come on top.  Anything beyond is
 * garbage (or an attack), and the server closes the connection rather
 * than read or write it.
 */
#define TBENCH_MAX_BODY (32u * 1024 * 1024)

/* The opening exchange: an 8-byte request wanting a 4-byte reply. */
#define TBENCH_HELLO_SEND 8u
#define TBENCH_HELLO_RECV 8u

/* Write a request's two header words for a message of `send_size` bytes
 * on the wire (at least 8) whose reply is `recv_size` bytes (at least 4). */
void wire_request_header(uint8_t hdr[8], uint32_t send_size, uint32_t recv_size);

/* A big-endian 32-bit word at p. */
uint32_t wire_get32(const uint8_t *p);
void wire_put32(uint8_t *p, uint32_t v);

/*
 * Every wait below ends by a deadline, a CLOCK_MONOTONIC instant from
 * wire_deadline() (0: no deadline, the socket's blocking calls alone),
 * with ETIMEDOUT once it has passed, and with EINTR when a signal
 * interrupts it (a caller that wants to go on waiting calls again).  The
 * first call of each blocks, bounded by the socket's own timeout
 * (wire_set_timeout(), which should not exceed the time to the
 * deadline); what is left after a short call is waited for with poll(),
 * so that a peer that sends a byte now and then cannot stretch the wait
 * past the deadline.
 */

/* The deadline timeout_ms from now; 0 for 0 (none). */
uint64_t wire_deadline(unsigned timeout_ms);

/* Bound each blocking send and receive on fd, connect() included, to
 * timeout_ms (SO_SNDTIMEO, SO_RCVTIMEO; 0: no bound); 0 or an errno. */
int wire_set_timeout(int fd, unsigned timeout_ms);

/*
 * Send every byte of the iovec array (modified as it goes), going on
 * after short writes; 0 or a positive errno.  MSG_NOSIGNAL: a peer gone
 * is EPIPE, never a signal.
 */
int wire_send_iov(int fd, struct iovec *iov, int iovcnt, uint64_t deadline);

/* Receive exactly len bytes into buf; 0, ECONNRESET when the peer closed
 * before they came, or another positive errno. */
int wire_recv_all(int fd, void *buf, size_t len, uint64_t deadline);

/* Receive and throw away exactly len bytes without copying them out of
 * the kernel (MSG_TRUNC on a TCP socket); as wire_recv_all(). */
int wire_discard(int fd, size_t len, uint64_t deadline);

#endif
