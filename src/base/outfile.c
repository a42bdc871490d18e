/*
 * outfile.c - writing a path the user named (outfile.h): what the path
 * leads to, how each kind is written, and the stream that keeps the
 * errno of its first failed write.
 *
 * Owns the following of the path's symbolic links (by hand, so that a
 * file to be replaced is replaced where it lives and the link stays),
 * the temporary beside it until the commit, and the descriptor written
 * straight.  Knows nothing of what is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

#define OUTFILE_MAX_LINKS 40		/* as the kernel's limit on a path's links */
#define OUTFILE_PROC_MAGIC 0x9fa0	/* PROC_SUPER_MAGIC: /proc's links are no paths */

enum outfile_mode {
	OUTFILE_REPLACE,	/* a temporary beside dest, renamed over it */
	OUTFILE_IN_PLACE,	/* dest itself, cut to what was written at the commit */
	OUTFILE_STRAIGHT,	/* a device, FIFO, socket or our stdout: as it comes */
};

/* Where a path leads, its links followed. */
struct outfile_target {
	char *dest;		/* the last name: what is replaced or opened */
	struct stat st;		/* what is there; st_mode 0 when nothing is */
	bool via_proc;		/* reached through a link in /proc: opened by it */
	int std_fd;		/* 1 or 2 when that is our stdout or stderr, else -1 */
};

struct outfile {
	struct outfile_target t;
	enum outfile_mode mode;
	char *tmp;	/* OUTFILE_REPLACE: the temporary until it is renamed */
	FILE *f;	/* open until commit or free */
	int fd;		/* under f */
	off_t written;	/* bytes written, where OUTFILE_IN_PLACE cuts the file */
	int err;	/* errno of the first failed write or close, or 0 */
};

/* ---- where the path leads ---- */

/* "DIR/" of path ("" when it has no slash), on mem_ctx. */
static char *outfile_dir_of(TALLOC_CTX *mem_ctx, const char *path)
{
	const char *slash = strrchr(path, '/');

	return talloc_strndup(mem_ctx, path, slash ? (size_t)(slash - path + 1) : 0);
}

/* Whether the kernel would refuse to follow link `p` under
 * fs.protected_symlinks: a link in a sticky world-writable directory,
 * owned neither by us nor by the directory's owner. */
static bool outfile_protected_link(const char *p, const struct stat *lst)
{
	char *dir = outfile_dir_of(NULL, p);
	struct stat ds;
	bool sticky = dir && stat(*dir ? dir : ".", &ds) == 0 &&
		      (ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH);

	talloc_free(dir);
	return sticky && lst->st_uid != geteuid() && lst->st_uid != ds.st_uid;
}

/* Whether link `p` lives in /proc (/dev/stdout's /proc/self/fd/1, and
 * /dev/fd/N through /dev/fd): its target is a description, not a path. */
static bool outfile_in_proc(const char *p)
{
	char *dir = outfile_dir_of(NULL, p);
	struct statfs fs;
	bool proc = dir && statfs(*dir ? dir : ".", &fs) == 0 && fs.f_type == OUTFILE_PROC_MAGIC;

	talloc_free(dir);
	return proc;
}

/* 1 or 2 when st is the file our stdout or stderr is open on, else -1. */
static int outfile_std_fd(const struct stat *st)
{
	for (int fd = 1; fd <= 2; fd++) {
		struct stat s;
		if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return fd;
	}
	return -1;
}

/* The target of link p, made relative to p's directory, on mem_ctx. */
static char *outfile_readlink(TALLOC_CTX *mem_ctx, const char *p)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	if (buf[0] == '/')
		return talloc_strdup(mem_ctx, buf);
	char *dir = outfile_dir_of(mem_ctx, p);
	return dir ? talloc_asprintf(mem_ctx, "%s%s", dir, buf) : NULL;
}

/* Follow path's symbolic links to what it leads to (t on mem_ctx).
 * 0 or an errno value. */
static int outfile_follow(TALLOC_CTX *mem_ctx, const char *path, struct outfile_target *t)
{
	char *p = talloc_strdup(mem_ctx, path);

	*t = (struct outfile_target){ .std_fd = -1 };
	if (path[0] == '\0')
		return ENOENT;
	for (int hops = 0; p; hops++) {
		struct stat lst;
		if (lstat(p, &lst) != 0) {
			if (errno != ENOENT)
				return errno;
			t->dest = p;	/* a new name */
			return 0;
		}
		if (!S_ISLNK(lst.st_mode)) {
			t->dest = p;
			t->st = lst;
			return 0;
		}
		if (outfile_in_proc(p)) {
			t->dest = p;
			t->via_proc = true;
			if (stat(p, &t->st) != 0)
				return errno;
			t->std_fd = outfile_std_fd(&t->st);
			return 0;
		}
		if (hops == OUTFILE_MAX_LINKS)
			return ELOOP;
		if (outfile_protected_link(p, &lst))
			return EACCES;
		p = outfile_readlink(mem_ctx, p);
		if (!p && errno != ENOMEM)
			return errno;
	}
	return ENOMEM;
}

/* How the target is written, or an error (negative). */
static int outfile_mode_of(const struct outfile_target *t)
{
	mode_t m = t->st.st_mode;

	if (m == 0)
		return OUTFILE_REPLACE;
	if (S_ISDIR(m))
		return -EISDIR;
	if (S_ISREG(m))
		return t->via_proc ? OUTFILE_STRAIGHT : OUTFILE_REPLACE;
	if (S_ISCHR(m) || S_ISFIFO(m) || S_ISSOCK(m))
		return OUTFILE_STRAIGHT;
	return -OUTFILE_EKIND;
}

/* ---- the stream ---- */

/* write(), with a SIGPIPE it raises (a reader gone) taken back: the
 * errno EPIPE tells it, and the program goes on to say so. */
static ssize_t outfile_write_nosigpipe(int fd, const char *buf, size_t size)
{
	sigset_t pipe, old, pending;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &old);
	bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
	ssize_t n = write(fd, buf, size);
	int err = errno;
	if (n < 0 && err == EPIPE && !was_pending)
		sigtimedwait(&pipe, NULL, &(struct timespec){ 0 });
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return n;
}

/* The stream's writes.  The errno of a failure is kept here, when it
 * happens: a caller that looks at errno later (after a library has
 * unwound and freed its own state) may find it changed. */
static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t size)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = o->mode == OUTFILE_STRAIGHT
				    ? outfile_write_nosigpipe(o->fd, buf + done, size - done)
				    : write(o->fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	o->written += (off_t)done;
	return (ssize_t)done;
}

static int outfile_cookie_close(void *cookie)
{
	struct outfile *o = cookie;

	if (close(o->fd) != 0 && !o->err && errno != EINTR)
		o->err = errno;
	o->fd = -1;
	return o->err ? -1 : 0;
}

/* Freed without a commit: the temporary goes, the destination stays. */
static int outfile_destructor(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	return 0;
}

/* ---- opening each kind ---- */

/* "DIR/.NAME.XXXXXX" beside dest: the same directory, so rename works. */
static char *outfile_temp_name(TALLOC_CTX *mem_ctx, const char *dest)
{
	const char *slash = strrchr(dest, '/');
	int dirlen = slash ? (int)(slash - dest + 1) : 0;

	return talloc_asprintf(mem_ctx, "%.*s.%s.XXXXXX", dirlen, dest, slash ? slash + 1 : dest);
}

/* The temporary gets the owner, group and mode of the file it replaces
 * (old), or for a new name the mode fopen(path, "w") would give.  0, or
 * EPERM when the owner cannot be kept, or another errno. */
static int outfile_keep_owner(int fd, const struct stat *old)
{
	struct stat now;

	if (old->st_mode == 0) {
		mode_t mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask) == 0 ? 0 : errno;
	}
	if (fstat(fd, &now) != 0)
		return errno;
	if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
	    fchown(fd, old->st_uid, old->st_gid) != 0)
		return errno == EINVAL ? EPERM : errno;	/* EINVAL: an id not mapped here */
	return fchmod(fd, old->st_mode & 07777) == 0 ? 0 : errno;
}

/* A temporary beside the destination, as the file it replaces; -1 with
 * errno (EPERM: the owner cannot be kept) when it cannot be made. */
static int outfile_make_temp(struct outfile *o)
{
	if (!(o->tmp = outfile_temp_name(o, o->t.dest))) {
		errno = ENOMEM;
		return -1;
	}
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	int err = fd < 0 ? errno : outfile_keep_owner(fd, &o->t.st);
	if (fd >= 0 && err) {
		close(fd);
		unlink(o->tmp);
	}
	if (err) {
		TALLOC_FREE(o->tmp);
		errno = err;
		return -1;
	}
	return fd;
}

/* A Unix socket at path: connected to as a stream. */
static int outfile_connect(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* The descriptor of what is written straight: our stdout or stderr (its
 * stdio buffer flushed first), a Unix socket, or the device, FIFO (no
 * waiting for a reader) or file itself.  -1 with errno when it fails. */
static int outfile_open_straight(const struct outfile_target *t)
{
	if (t->std_fd >= 0) {
		fflush(t->std_fd == 1 ? stdout : stderr);
		return fcntl(t->std_fd, F_DUPFD_CLOEXEC, 3);
	}
	if (S_ISSOCK(t->st.st_mode))
		return outfile_connect(t->dest);
	int fd = open(t->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK |
			       (S_ISREG(t->st.st_mode) ? O_APPEND : 0));
	if (fd < 0 && errno == ENXIO && S_ISFIFO(t->st.st_mode))
		errno = OUTFILE_ENOREADER;
	if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The descriptor o is written through, by its mode (which a file whose
 * owner cannot be kept turns to OUTFILE_IN_PLACE).  -1 with errno. */
static int outfile_open_fd(struct outfile *o)
{
	if (o->mode == OUTFILE_STRAIGHT)
		return outfile_open_straight(&o->t);
	int fd = outfile_make_temp(o);
	if (fd >= 0 || errno != EPERM || o->t.st.st_mode == 0)
		return fd;
	o->mode = OUTFILE_IN_PLACE;
	return open(o->t.dest, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
}

struct outfile *outfile_open(TALLOC_CTX *mem_ctx, const char *path, FILE **f, int *err)
{
	struct outfile *o = talloc_zero(mem_ctx, struct outfile);

	*err = ENOMEM;
	if (!o)
		return NULL;
	o->fd = -1;
	talloc_set_destructor(o, outfile_destructor);
	if (strcmp(path, "-") == 0) {
		o->t = (struct outfile_target){ .dest = talloc_strdup(o, path), .std_fd = 1,
						.st.st_mode = S_IFIFO };
		*err = o->t.dest ? 0 : ENOMEM;
	} else {
		*err = outfile_follow(o, path, &o->t);
	}
	int mode = *err ? 0 : outfile_mode_of(&o->t);
	if (*err || mode < 0) {
		*err = *err ? *err : -mode;
		goto fail;
	}
	o->mode = (enum outfile_mode)mode;
	if ((o->fd = outfile_open_fd(o)) < 0) {
		*err = errno;
		goto fail;
	}
	o->f = fopencookie(o, "w", (cookie_io_functions_t){
		.write = outfile_cookie_write, .close = outfile_cookie_close });
	if (!o->f) {
		*err = errno;
		goto fail;
	}
	*f = o->f;
	return o;
fail:
	talloc_free(o);
	return NULL;
}

int outfile_private(struct outfile *o)
{
	if (o->mode == OUTFILE_STRAIGHT)
		return OUTFILE_EKIND;
	return fchmod(o->fd, 0600) == 0 ? 0 : errno;
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
	if (!err && o->mode == OUTFILE_IN_PLACE && ftruncate(o->fd, o->written) != 0)
		err = errno;
	if (!err && o->mode != OUTFILE_STRAIGHT && fsync(o->fd) != 0)
		err = errno;
	FILE *f = o->f;
	o->f = NULL;
	if (fclose(f) == EOF && !err)
		err = o->err ? o->err : EIO;
	if (!err && o->tmp && rename(o->tmp, o->t.dest) != 0)
		err = errno;
	else if (!err)
		o->tmp = NULL;	/* it is the destination now */
	talloc_free(o);
	return err;
}

int outfile_check(const char *path)
{
	struct outfile *o = talloc_zero(NULL, struct outfile);
	int err = o ? 0 : ENOMEM;

	if (!o || strcmp(path, "-") == 0)
		goto out;
	o->fd = -1;
	talloc_set_destructor(o, outfile_destructor);
	if ((err = outfile_follow(o, path, &o->t)) != 0)
		goto out;
	int mode = outfile_mode_of(&o->t);
	if (mode < 0) {
		err = -mode;
	} else if (mode == OUTFILE_STRAIGHT) {
		if (o->t.std_fd < 0 && !S_ISSOCK(o->t.st.st_mode) &&
		    faccessat(AT_FDCWD, o->t.dest, W_OK, AT_EACCESS) != 0)
			err = errno;
	} else if ((o->fd = outfile_make_temp(o)) < 0) {
		/* a file whose owner cannot be kept is written in place */
		err = errno != EPERM || o->t.st.st_mode == 0 ? errno
		      : faccessat(AT_FDCWD, o->t.dest, W_OK, AT_EACCESS) == 0 ? 0 : errno;
	}
out:
	talloc_free(o);	/* the temporary goes */
	return err;
}

bool outfile_same(const char *a, const char *b)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct outfile_target ta, tb;
	bool same;

	if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		same = strcmp(a, b) == 0;
	else if (!tmp || outfile_follow(tmp, a, &ta) != 0 || outfile_follow(tmp, b, &tb) != 0)
		same = strcmp(a, b) == 0;	/* one cannot be written at all */
	else if (ta.st.st_mode && tb.st.st_mode)	/* both there: one file, not a device */
		same = S_ISREG(ta.st.st_mode) && ta.st.st_dev == tb.st.st_dev &&
		       ta.st.st_ino == tb.st.st_ino;
	else		/* a name to be made: the same name, its links followed */
		same = strcmp(ta.dest, tb.dest) == 0;
	talloc_free(tmp);
	return same;
}

const char *outfile_strerror(int err)
{
	if (err == OUTFILE_EKIND)
		return "not a file, a character device, a FIFO or a socket";
	if (err == OUTFILE_ENOREADER)
		return "a FIFO that no process has open for reading";
	return strerror(err);
}
