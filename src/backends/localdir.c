/*
 * localdir.c - local directory targets (see localdir.h): the descriptors
 * of DIR and DIR/clients, made and checked in the parent before any fork,
 * inherited by every client process, closed when the target is freed;
 * and the rule that a client opens only files of its own.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "localdir.h"
#include "backends/devuse.h"

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

/*
 * Lock DIR/clients for this run: exclusive, or shared among the ranks
 * of an MPI run, which work side by side beneath it.  The lock is the
 * open file's, which every client process inherits, so it lasts while
 * any process of the run is alive and goes with the last of them: a run
 * that died holds nothing.  0; EWOULDBLOCK when another run holds it,
 * with its pid in *holder (0 when unknown); ESTALE when the directory
 * locked is no longer DIR/clients (the run that held it removed it).
 * The same directory twice in one run (-D A -D A) is this run's own.
 */
static int lock_clients(struct backend_target *t, bool shared, pid_t *holder)
{
	struct stat locked, now;

	if (flock(t->clients_fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK)
			return 0;	/* no locks on this file system: none to take */
		if (fstat(t->clients_fd, &locked) != 0)
			return errno;
		*holder = devuse_lock_holder(&locked);
		return *holder == getpid() ? 0 : EWOULDBLOCK;
	}
	if (fstat(t->clients_fd, &locked) != 0 ||
	    fstatat(t->dirfd, "clients", &now, AT_SYMLINK_NOFOLLOW) != 0 ||
	    locked.st_ino != now.st_ino || locked.st_dev != now.st_dev || locked.st_nlink == 0)
		return ESTALE;
	return 0;
}

/* Make DIR/clients (or take over the one an earlier run left), open it
 * and lock it.  0, or an errno with *err set. */
static int open_clients(struct backend_target *t, const struct backend_options *opts,
			TALLOC_CTX *mem_ctx, char **err)
{
	for (unsigned tries = 0;; tries++) {
		bool made = mkdirat(t->dirfd, "clients", 0755) == 0;
		if (!made && errno != EEXIST) {
			*err = talloc_asprintf(mem_ctx, "cannot create '%s/clients': %s", t->dir,
					       strerror(errno));
			return errno;
		}
		t->clients_fd = openat(t->dirfd, "clients",
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = t->clients_fd < 0 ? errno : 0;
		pid_t holder = 0;
		if (e == ENOENT && tries < 10)
			continue;	/* removed by a run ending: make it again */
		if (!e && (e = lock_clients(t, opts->ranked, &holder)) == ESTALE && tries < 10) {
			close(t->clients_fd);
			t->clients_fd = -1;
			continue;
		}
		if (e == EWOULDBLOCK && holder)
			*err = talloc_asprintf(mem_ctx, "another dbench run (pid %d) is using '%s'",
					       (int)holder, t->dir);
		else if (e == EWOULDBLOCK)
			*err = talloc_asprintf(mem_ctx, "another dbench run is using '%s'", t->dir);
		else if (e)
			*err = talloc_asprintf(mem_ctx, "cannot use '%s/clients': %s", t->dir,
					       localdir_strerror_at(t->dirfd, "clients", e));
		if (e && made && e != EWOULDBLOCK)
			unlinkat(t->dirfd, "clients", AT_REMOVEDIR);	/* ours, and empty */
		return e;
	}
}

struct backend_target *localdir_open(TALLOC_CTX *mem_ctx, const char *dir,
				     const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc(mem_ctx, struct backend_target);

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
	if (open_clients(t, opts, mem_ctx, err) != 0)
		goto fail;
	return t;
fail:
	talloc_free(t);
	return NULL;
}

/* Remove every empty directory in DIR/clients, the clients' own that
 * their cleanup left (rmdir removes nothing else: a directory that holds
 * something, a file, a symbolic link stay). */
static void remove_empty_dirs(struct backend_target *t)
{
	int fd = openat(t->clients_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(dir)) != NULL)
		if ((e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) && strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0)
			unlinkat(t->clients_fd, e->d_name, AT_REMOVEDIR);
	closedir(dir);
}

int localdir_close(struct backend_target *t)
{
	struct stat held, now;

	remove_empty_dirs(t);
	/* gone already (a run's last client closed it), and made again by
	 * another run since: not ours to remove */
	if (fstat(t->clients_fd, &held) == 0 && (held.st_nlink == 0 ||
	    (fstatat(t->dirfd, "clients", &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	     (now.st_ino != held.st_ino || now.st_dev != held.st_dev))))
		return 0;
	if (unlinkat(t->dirfd, "clients", AT_REMOVEDIR) < 0 &&
	    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
		return errno;
	return 0;
}

/* What kind of file mode m is, for a message. */
static const char *localdir_kind(mode_t m)
{
	return S_ISREG(m) ? "a regular file" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
	     : S_ISLNK(m) ? "a symbolic link" : "no file of a known kind";
}

const char *localdir_strerror_at(int dirfd, const char *name, int err)
{
	struct stat st;

	if (err != ELOOP && err != ENOTDIR)
		return strerror(err);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode))
		return "not a directory (a symbolic link?)";
	return S_ISREG(st.st_mode) ? "not a directory but a regular file"
	     : S_ISFIFO(st.st_mode) ? "not a directory but a FIFO"
	     : S_ISSOCK(st.st_mode) ? "not a directory but a socket"
	     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "not a directory but a device"
	     : "not a directory";
}

int localdir_space(struct backend_target *t, struct backend_space *sp)
{
	struct statvfs v;
	struct stat st;
	bool root = geteuid() == 0;

	if (fstatvfs(t->clients_fd, &v) != 0 || fstat(t->clients_fd, &st) != 0)
		return errno;
	uint64_t unit = v.f_frsize ? v.f_frsize : v.f_bsize;
	*sp = (struct backend_space){
		.bytes = (uint64_t)(root ? v.f_bfree : v.f_bavail) * unit,
		.inodes = root ? v.f_ffree : v.f_favail,
		.inodes_known = v.f_files != 0,
		.block = v.f_bsize ? v.f_bsize : unit,
		.fs = (uint64_t)st.st_dev,
	};
	return 0;
}

int localdir_clients_fd(const struct backend_target *t)
{
	return t->clients_fd;
}

/* ---- a client's own files ---- */

void localdir_owners(struct localdir_owners *o, int client_fd)
{
	struct stat st;

	o->uid[0] = o->uid[1] = geteuid();
	if (fstat(client_fd, &st) == 0)
		o->uid[1] = st.st_uid;
}

const char *localdir_not_own(const struct stat *st, const struct stat *seen,
			     const struct localdir_owners *o, char *why, size_t len)
{
	static const char rule[] = "; a client writes only files it made";

	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		snprintf(why, len, "refused: it is %s, not a regular file or directory%s",
			 localdir_kind(st->st_mode), rule);
	else if (S_ISREG(st->st_mode) && st->st_nlink > 1)
		snprintf(why, len, "refused: it has %ju links (a hard link to a file elsewhere?)%s",
			 (uintmax_t)st->st_nlink, rule);
	else if (st->st_uid != o->uid[0] && st->st_uid != o->uid[1])
		snprintf(why, len, "refused: it belongs to uid %ju, not to this run's (uid %ju)%s",
			 (uintmax_t)st->st_uid, (uintmax_t)o->uid[0], rule);
	else if (seen && seen->st_mode &&
		 (seen->st_ino != st->st_ino || seen->st_dev != st->st_dev))
		snprintf(why, len, "refused: another file took its name between the lookup and"
			 " the open%s", rule);
	else
		return NULL;
	return why;
}

int localdir_open_own(int dirfd, const char *leaf, int flags, mode_t mode,
		      const struct localdir_owners *o, const struct stat *seen,
		      struct stat *st, char *why, size_t len)
{
	int fd = openat(dirfd, leaf, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			mode);
	int err = 0;

	if (fd < 0 && errno == ELOOP && fstatat(dirfd, leaf, st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st->st_mode) && localdir_not_own(st, NULL, o, why, len))
		return -BACKEND_REFUSED;	/* a link planted at the name itself */
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) != 0)
		err = errno;
	else if (localdir_not_own(st, seen, o, why, len))
		err = BACKEND_REFUSED;
	else if ((flags & O_TRUNC) && S_ISREG(st->st_mode) && st->st_size > 0 &&
		 (err = ftruncate(fd, 0) == 0 ? 0 : errno) == 0)
		st->st_size = 0;
	if (err) {
		close(fd);
		return -err;
	}
	return fd;
}
