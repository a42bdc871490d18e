/*
 * outfile.c - whole-or-nothing output files: a temporary file beside the
 * destination, renamed into place (outfile.h).
 *
 * Owns the temporary file's name and stream until the commit; knows
 * nothing of what is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

struct outfile {
	char *path;	/* the destination */
	char *tmp;	/* the temporary beside it, or NULL when it is stdout */
	FILE *f;	/* open until commit or free */
	int fd;		/* the temporary's descriptor, under f */
	int err;	/* errno of the first failed write or close, or 0 */
};

/*
 * The stream's writes, straight to the temporary.  The errno of a failure
 * is kept here, when it happens: a caller that looks at errno later (after
 * a library has unwound and freed its own state) may find it changed.
 */
static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t size)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(o->fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int outfile_cookie_close(void *cookie)
{
	struct outfile *o = cookie;

	if (close(o->fd) != 0 && !o->err)
		o->err = errno;
	o->fd = -1;
	return o->err ? -1 : 0;
}

/* Freed without a commit: the temporary goes, the destination stays. */
static int outfile_destructor(struct outfile *o)
{
	if (o->f && o->tmp)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	return 0;
}

/* "DIR/.NAME.XXXXXX" beside path: the same directory, so rename works. */
static char *outfile_temp_name(TALLOC_CTX *mem_ctx, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;

	return talloc_asprintf(mem_ctx, "%.*s.%s.XXXXXX", dirlen, path,
			       slash ? slash + 1 : path);
}

/* A new temporary with the mode fopen(path, "w") would have given. */
static int outfile_make_temp(char *tmp)
{
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		int err = errno;
		close(fd);
		unlink(tmp);
		errno = err;
		return -1;
	}
	return fd;
}

struct outfile *outfile_open(TALLOC_CTX *mem_ctx, const char *path, FILE **f, int *err)
{
	struct outfile *o = talloc_zero(mem_ctx, struct outfile);

	*err = ENOMEM;
	if (!o || !(o->path = talloc_strdup(o, path)))
		goto fail;
	if (strcmp(path, "-") == 0) {
		*f = o->f = stdout;
		return o;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		*err = EISDIR;
		goto fail;
	}
	char *tmp = outfile_temp_name(o, path);
	if (!tmp)
		goto fail;
	int fd = outfile_make_temp(tmp);
	if (fd < 0) {
		*err = errno;
		goto fail;
	}
	o->tmp = tmp;
	o->fd = fd;
	talloc_set_destructor(o, outfile_destructor);
	o->f = fopencookie(o, "w", (cookie_io_functions_t){
		.write = outfile_cookie_write, .close = outfile_cookie_close });
	if (!o->f) {
		*err = errno;
		close(fd);
		o->fd = -1;
		goto fail;
	}
	*f = o->f;
	return o;
fail:
	talloc_free(o);
	return NULL;
}

int outfile_error(const struct outfile *o)
{
	if (o->err)
		return o->err;
	return ferror(o->f) ? EIO : 0;
}

int outfile_commit(struct outfile *o)
{
	errno = 0;
	int flushed = fflush(o->f);
	int err = outfile_error(o);

	if (!err && flushed == EOF)
		err = errno ? errno : EIO;
	if (o->tmp) {
		if (!err && fsync(o->fd) != 0)
			err = errno;
		FILE *f = o->f;
		o->f = NULL;
		if (fclose(f) == EOF && !err)
			err = o->err ? o->err : EIO;
		if (!err && rename(o->tmp, o->path) != 0)
			err = errno;
		else if (!err)
			o->tmp = NULL;	/* it is the destination now */
	}
	talloc_free(o);
	return err;
}

int outfile_check(const char *path)
{
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);

	if (!o)
		return err;
	talloc_free(o);
	return 0;
}
