/*
 * infile.c - opening a file the user named for reading (see infile.h):
 * its kind checked on the descriptor, a pipe's first bytes waited for
 * with a bound.  Knows nothing of what is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"

/* What kind of file mode m is, for a refusal. */
static const char *infile_kind(mode_t m)
{
	return S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	     : S_ISSOCK(m) ? "a socket" : S_ISFIFO(m) ? "a pipe" : "a file of no known kind";
}

/* "not a regular file or a pipe", as `kinds` allows. */
static const char *infile_wanted(unsigned kinds)
{
	return kinds & INFILE_PIPE ? "not a regular file or a pipe" : "not a regular file";
}

/* Wait up to wait_s for the pipe fd's first bytes (or its end). */
static const char *infile_wait_pipe(TALLOC_CTX *mem_ctx, int fd, int wait_s)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	while ((r = poll(&pfd, 1, wait_s * 1000)) < 0 && errno == EINTR)
		;
	if (r > 0)
		return NULL;
	const char *why = r < 0 ? strerror(errno)
		: talloc_asprintf(mem_ctx, "a pipe with nothing written to it within %d s", wait_s);
	return why ? why : "a pipe with nothing written to it in time";
}

int infile_open(TALLOC_CTX *mem_ctx, const char *path, unsigned kinds, int wait_s,
		const char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	const char *w = NULL;
	bool bad = true;

	if (fd < 0 && errno == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		w = talloc_asprintf(mem_ctx, "a socket, %s", infile_wanted(kinds));
	else if (fd < 0 || fstat(fd, &st) != 0)
		w = talloc_strdup(mem_ctx, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		w = talloc_strdup(mem_ctx, strerror(EISDIR));
	else if (S_ISFIFO(st.st_mode) && (kinds & INFILE_PIPE))
		bad = (w = infile_wait_pipe(mem_ctx, fd, wait_s)) != NULL;
	else if (!S_ISREG(st.st_mode) || !(kinds & INFILE_REGULAR))
		w = talloc_asprintf(mem_ctx, "%s, %s", infile_kind(st.st_mode),
				    infile_wanted(kinds));
	else
		bad = false;
	if (!bad && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		w = talloc_strdup(mem_ctx, strerror(errno));
		bad = true;
	}
	*why = w ? w : "out of memory";
	if (bad) {
		if (fd >= 0)
			close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}
