/*
 * smb_probe.h - whether the peer at HOST:PORT speaks SMB at all, asked
 * after libsmbclient failed to connect, so that the one error line names
 * the true cause: libsmbclient waits out its timeout on a peer that
 * answers with something else, then says only "Connection timed out".
 *
 * It opens a TCP connection of its own, sends one SMB2 NEGOTIATE and
 * reads the first bytes of the answer.  Knows nothing of shares, users
 * or runs.
 */
#ifndef DBENCH_SMB_PROBE_H
#define DBENCH_SMB_PROBE_H

#include <talloc.h>

/*
 * What the peer did instead of speaking SMB, for a message: "answered
 * with something other than SMB (its first bytes: 48 54 54 50 'HTTP')",
 * "closed the connection without answering", "sent no answer within N s";
 * NULL when it answers as an SMB server does, or when it cannot be
 * reached at all (then libsmbclient's reason stands).  Waits at most
 * `secs` seconds for the answer.
 */
const char *smb_probe_peer(TALLOC_CTX *mem_ctx, const char *host, unsigned port, unsigned secs);

#endif
