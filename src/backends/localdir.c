/*
 * localdir.c - local directory targets (see localdir.h): the descriptors
 * of DIR and DIR/clients, made and checked in the parent before any fork,
 * inherited by every client process, closed when the target is freed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/localdir.h"

struct backend_target {
	const char *dir;	/* as given, for messages */
	int dirfd;		/* DIR */
	int clients_fd;		/* DIR/clients */
};

static int localdir_destructor(struct backend_target *t)
{
	if (t->clients_fd >= 0)
		close(t->clients_fd);
	if (t->dirfd >= 0)
		close(t->dirfd);
	return 0;
}

struct backend_target *localdir_open(TALLOC_CTX *mem_ctx, const char *dir,
				     const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc(mem_ctx, struct backend_target);
	bool made = false;	/* DIR/clients, by us */

	(void)opts;
	if (!t) {
		*err = talloc_asprintf(mem_ctx, "cannot use directory '%s': out of memory", dir);
		return NULL;
	}
	*t = (struct backend_target){ .dir = talloc_strdup(t, dir), .dirfd = -1,
				      .clients_fd = -1 };
	talloc_set_destructor(t, localdir_destructor);
	t->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot use directory '%s': %s", dir,
				       strerror(errno));
		goto fail;
	}
	made = mkdirat(t->dirfd, "clients", 0755) == 0;
	if (!made && errno != EEXIST) {
		*err = talloc_asprintf(mem_ctx, "cannot create '%s/clients': %s", dir,
				       strerror(errno));
		goto fail;
	}
	t->clients_fd = openat(t->dirfd, "clients",
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->clients_fd < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot use '%s/clients': %s", dir,
				       localdir_strerror(errno));
		goto fail;
	}
	return t;
fail:
	if (made)
		unlinkat(t->dirfd, "clients", AT_REMOVEDIR);	/* ours, and empty */
	talloc_free(t);
	return NULL;
}

int localdir_close(struct backend_target *t)
{
	if (unlinkat(t->dirfd, "clients", AT_REMOVEDIR) < 0 &&
	    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
		return errno;
	return 0;
}

const char *localdir_strerror(int err)
{
	return err == ELOOP || err == ENOTDIR ? "not a directory (a symbolic link?)"
					      : strerror(err);
}

int localdir_clients_fd(const struct backend_target *t)
{
	return t->clients_fd;
}
