/*
 * smb_probe.c - does the peer speak SMB (see smb_probe.h): one SMB2
 * NEGOTIATE over a connection of our own, and the first bytes back.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "addr.h"
#include "smb_probe.h"

#define SMB_PROBE_CONNECT_MS 2000	/* the TCP connect, which libsmbclient made already */

/* An SMB2 NEGOTIATE offering 2.02 and 2.1, in its NetBIOS session frame:
 * what any SMB2 server answers with a NEGOTIATE response (or an SMB1-only
 * one with an SMB1 error). */
static size_t smb_probe_request(uint8_t *buf)
{
	static const uint8_t dialects[] = { 0x02, 0x02, 0x10, 0x02 };
	uint8_t *h = buf + 4, *b = h + 64;
	size_t len = 64 + 36 + sizeof(dialects);

	memset(buf, 0, 4 + len);
	buf[1] = (uint8_t)(len >> 16), buf[2] = (uint8_t)(len >> 8), buf[3] = (uint8_t)len;
	memcpy(h, "\xfeSMB", 4);
	h[4] = 64;		/* StructureSize */
	h[14] = 1;		/* CreditRequest; Command 0 is NEGOTIATE */
	b[0] = 36;		/* StructureSize */
	b[2] = sizeof(dialects) / 2;	/* DialectCount */
	b[4] = 1;		/* SecurityMode: signing enabled */
	memcpy(b + 36, dialects, sizeof(dialects));
	return 4 + len;
}

/* "48 54 54 50 'HTTP'" for the n bytes at p. */
static char *smb_probe_bytes(TALLOC_CTX *mem_ctx, const uint8_t *p, size_t n)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && i < n; i++)
		s = talloc_asprintf_append(s, "%s%02x", i ? " " : "", p[i]);
	s = s ? talloc_strdup_append(s, " '") : NULL;
	for (size_t i = 0; s && i < n; i++)
		s = talloc_asprintf_append(s, "%c", isprint(p[i]) ? p[i] : '.');
	return s ? talloc_strdup_append(s, "'") : NULL;
}

const char *smb_probe_peer(TALLOC_CTX *mem_ctx, const char *host, unsigned port, unsigned secs)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char *err = NULL, *opts_err = NULL;
	char *spec = talloc_asprintf(tmp, "SO_SNDTIMEO=%d SO_RCVTIMEO=%u", SMB_PROBE_CONNECT_MS,
				     secs * 1000);
	struct sockopt_set *opts = spec ? sockopt_parse(tmp, spec, &opts_err) : NULL;
	int fd = opts ? net_connect_host(tmp, host, port, opts, 0, NULL, &err) : -1;
	uint8_t req[128], got[8];
	size_t n = 0;
	const char *what = NULL;

	if (fd < 0)
		goto out;	/* not reached at all: libsmbclient's reason stands */
	size_t len = smb_probe_request(req);
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
		goto out;
	ssize_t r = 1;
	while (n < sizeof(got) && (r = recv(fd, got + n, sizeof(got) - n, 0)) > 0)
		n += (size_t)r;
	if (n >= 8 && got[0] == 0 && (memcmp(got + 4, "\xfeSMB", 4) == 0 ||
				      memcmp(got + 4, "\xffSMB", 4) == 0))
		goto out;	/* an SMB server */
	if (n > 0)
		what = talloc_asprintf(mem_ctx, "the server answered with something other than SMB (its"
				       " first bytes: %s)", smb_probe_bytes(tmp, got, n));
	else if (r == 0)
		what = "the server closed the connection without answering an SMB negotiation";
	else if (errno == EAGAIN || errno == EWOULDBLOCK)
		what = talloc_asprintf(mem_ctx, "the server accepted the connection but sent no answer"
				       " within %u s", secs);
out:
	if (fd >= 0)
		close(fd);
	talloc_free(tmp);
	return what;
}
