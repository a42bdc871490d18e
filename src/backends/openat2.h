/*
 * openat2.h - openat2(2) as the backends that confine paths call it.
 *
 * With RESOLVE_IN_ROOT or RESOLVE_BENEATH, the kernel fails a resolution
 * that met ".." with EAGAIN when a rename or a mount happened anywhere on
 * the machine meanwhile (it cannot then prove that ".." stayed inside),
 * and asks the caller to try again.  A replay sees it as an outcome that
 * differs from the recording's, at random, on a machine busy with other
 * work (test_replay's 'up' link, "../../../..", failed so in CI).  The
 * call is retried a bounded number of times; only a machine renaming
 * without pause for all of them sees EAGAIN.  Knows nothing of backends.
 */
#ifndef DBENCH_BACKENDS_OPENAT2_H
#define DBENCH_BACKENDS_OPENAT2_H

#include <errno.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { OPENAT2_TRIES = 128 };

/* A descriptor, or -1 with errno. */
static inline long openat2_retried(int dirfd, const char *path, const struct open_how *how)
{
	long fd;
	int tries = 0;

	do
		fd = syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
	while (fd < 0 && errno == EAGAIN && ++tries < OPENAT2_TRIES);
	return fd;
}

#endif
