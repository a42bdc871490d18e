/*
 * sysio.c - the system-call dialect replayed beneath a local directory
 * (see sysio.h): each recorded call made again, on the client's root.
 *
 * Confinement: every path goes through openat2() with RESOLVE_IN_ROOT
 * from the root's descriptor, so that ".." and symbolic links (absolute
 * ones too) resolve inside it; a call on a name itself (lstat, unlink,
 * rename, symlink, the l* xattr calls) is made relative to its parent
 * directory so resolved, and one that follows a name (chmod, truncate,
 * the xattr calls) on the file so resolved, through /proc/self/fd where
 * the kernel has no call on a descriptor opened with O_PATH.  Nothing is
 * ever looked up from the working directory.
 *
 * It knows nothing of streams, timing or the stats: a call is made and
 * its outcome compared with the recorded one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "backend.h"
#include "backends/openat2.h"
#include "backends/sysio.h"

#define SYSIO_INIT_CHUNK (64 * 1024)	/* the least pattern an init file is written from */

struct sysio {
	const struct program *prog;
	int clients_fd;		/* DIR/clients, the caller's */
	const char *name;	/* the root's name in it */
	int root;		/* DIR/clients/<name> */
	int *fds;		/* by slot, -1 when closed */
	unsigned nfds;
	char *rbuf;		/* what calls read into, prog->max_buffer bytes */
	const char *wbuf;	/* what writes send */
	size_t wlen;
	bool root_user;		/* may give files away (chown) */
	uid_t uid;
	gid_t gid;
};

void sysio_fill_pattern(char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)('a' + (i * 7 + i / 26) % 26);
}

/*
 * The value a set*xattr call sends: the pattern, except for a POSIX ACL
 * (cp -a and tar copy them), which the kernel parses: of the recorded
 * size 4 + 8 k, a valid ACL of k entries (user, named users, group,
 * mask, other; read and write for each), into buf (`cap` bytes).
 */
static const void *sysio_xattr_value(const struct sysio *s, char *buf, size_t cap,
				     const char *name, size_t size)
{
	size_t k = (size - 4) / 8;

	if ((strcmp(name, "system.posix_acl_access") != 0 &&
	     strcmp(name, "system.posix_acl_default") != 0) ||
	    size < 28 || (size - 4) % 8 || size > cap)
		return s->wbuf;
	memset(buf, 0, size);
	buf[0] = 2;			/* POSIX_ACL_XATTR_VERSION, little-endian */
	for (size_t i = 0; i < k; i++) {
		unsigned char *e = (unsigned char *)buf + 4 + 8 * i;
		uint16_t tag = i == 0 ? 0x01 : i == k - 1 ? 0x20 : k > 3 && i == k - 2 ? 0x10
			     : i == k - (k > 3 ? 3 : 2) ? 0x04 : 0x02;
		uint32_t id = tag == 0x02 ? (uint32_t)(s->uid + i) : UINT32_MAX;
		e[0] = tag & 0xff;
		e[1] = tag >> 8;
		e[2] = 6;		/* rw- */
		memcpy(e + 4, &id, 4);
	}
	return buf;
}

/* ---- resolving ---- */

/* Open client-relative `path` ("" the root) beneath the root with open
 * flags `flags`; a descriptor or -errno. */
static int sysio_open(struct sysio *s, const char *path, int64_t flags, int64_t mode)
{
	struct open_how how = { .flags = (uint64_t)flags | O_CLOEXEC,
				.mode = (flags & (O_CREAT | __O_TMPFILE)) ? (uint64_t)mode & 07777 : 0,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	long fd = openat2_retried(s->root, *path ? path : ".", &how);

	return fd < 0 ? -errno : (int)fd;
}

/* The parent directory of op's first (or second) path, opened O_PATH,
 * and the leaf in *leaf; the root itself (not to be closed) for a name
 * at the top.  A descriptor or -errno. */
static int sysio_parent(struct sysio *s, const struct op *op, bool second, const char **leaf)
{
	const char *path = second ? op->path2 : op->path;
	uint16_t dir = second ? op->dir2 : op->dir;

	*leaf = second ? op->leaf2 : op->leaf;
	if (dir == DIR_NONE || !s->prog->dirs[dir][0]) {
		if (!*path)
			*leaf = ".";
		return s->root;
	}
	return sysio_open(s, s->prog->dirs[dir], O_PATH | O_DIRECTORY, 0);
}

static void sysio_done(struct sysio *s, int fd)
{
	if (fd >= 0 && fd != s->root)
		close(fd);
}

/* "/proc/self/fd/N", the file an O_PATH descriptor holds, for the calls
 * that take no such descriptor. */
static const char *sysio_proc(char buf[40], int fd)
{
	snprintf(buf, 40, "/proc/self/fd/%d", fd);
	return buf;
}

/* The descriptor of a slot: >= 0, or -1 for a slot the recording left
 * closed (the call then sees EBADF), or -2 when the replay did not open
 * it (the call is skipped). */
static int sysio_fd(const struct sysio *s, uint16_t slot)
{
	if (slot == HANDLE_NONE)
		return -1;
	return slot < s->nfds && s->fds[slot] >= 0 ? s->fds[slot] : -2;
}

static void sysio_install(struct sysio *s, uint16_t slot, int fd)
{
	if (slot >= s->nfds) {
		close(fd);
		return;
	}
	if (s->fds[slot] >= 0)
		close(s->fds[slot]);
	s->fds[slot] = fd;
}

/* ---- outcomes ---- */

/* r, what the call returned (-1 with errno on failure), against the
 * recorded result. */
static int sysio_outcome(const struct op *op, const struct call *c, int64_t r, bool value)
{
	if (r < 0)
		return errno ? errno : EIO;
	if (!value || (op->flags & OPF_ANY_STATUS) || r == c->result)
		return 0;
	return BACKEND_OTHER_RESULT;
}

/* A descriptor the call made: into its slot when the recording made it
 * too, else closed again (an outcome difference). */
static int sysio_opened(struct sysio *s, const struct op *op, const struct call *c,
			uint16_t slot, int fd)
{
	if (fd < 0)
		return -fd;
	if (c->result < 0 || slot == HANDLE_NONE) {
		close(fd);
		return (op->flags & OPF_ANY_STATUS) ? 0 : BACKEND_OTHER_RESULT;
	}
	sysio_install(s, slot, fd);
	return 0;
}

/* ---- calls on names ---- */

static int sysio_call_open(struct sysio *s, const struct op *op, const struct call *c)
{
	return sysio_opened(s, op, c, op->handle, sysio_open(s, op->path, op->a[0], op->a[1]));
}

/* A call that follows its path: on the file it resolves to, opened with
 * `flags` (O_PATH for most). */
static int sysio_on_file(struct sysio *s, const struct op *op, const struct call *c)
{
	char acl[1024];
	char proc[40];
	int flags = op->type == OP_SYS_TRUNCATE ? O_WRONLY : O_PATH;
	int fd = sysio_open(s, op->path, flags | (op->type == OP_SYS_CHDIR ? O_DIRECTORY : 0), 0);
	int64_t r = 0;
	struct stat st;
	struct statfs sf;
	uid_t uid = (uid_t)op->a[0];
	gid_t gid = (gid_t)op->a[1];

	if (fd < 0)
		return -fd;
	const char *p = sysio_proc(proc, fd);
	switch (op->type) {
	case OP_SYS_STAT: r = fstat(fd, &st); break;
	case OP_SYS_TRUNCATE: r = ftruncate(fd, op->a[0]); break;
	case OP_SYS_ACCESS: r = faccessat(AT_FDCWD, p, (int)op->a[0], 0); break;
	case OP_SYS_FACCESSAT: r = faccessat(AT_FDCWD, p, (int)op->a[0],
					     (int)op->a[1] & AT_EACCESS); break;
	case OP_SYS_CHMOD:
	case OP_SYS_FCHMODAT: r = fchmodat(AT_FDCWD, p, (mode_t)op->a[0], 0); break;
	case OP_SYS_CHOWN:
	case OP_SYS_FCHOWNAT:
		if (!s->root_user) {	/* only our own ids, else a lookup alone */
			uid = op->a[0] == (int64_t)s->uid ? uid : (uid_t)-1;
			gid = op->a[1] == (int64_t)s->gid ? gid : (gid_t)-1;
		}
		r = fchownat(fd, "", uid, gid, AT_EMPTY_PATH);
		break;
	case OP_SYS_UTIMENSAT: r = utimensat(AT_FDCWD, p, NULL, 0); break;
	case OP_SYS_GETXATTR: r = getxattr(p, op->path2, s->rbuf, op->a[0]); break;
	case OP_SYS_SETXATTR:
		r = setxattr(p, op->path2, sysio_xattr_value(s, acl, sizeof(acl), op->path2, op->a[0]),
			     op->a[0], (int)op->a[1]);
		break;
	case OP_SYS_LISTXATTR: r = listxattr(p, s->rbuf, op->a[0]); break;
	case OP_SYS_REMOVEXATTR: r = removexattr(p, op->path2); break;
	case OP_SYS_STATFS: r = fstatfs(fd, &sf); break;
	case OP_SYS_CHDIR: r = 0; break;
	default: errno = EINVAL; r = -1; break;
	}
	int err = errno;
	close(fd);
	errno = err;
	return sysio_outcome(op, c, r, true);
}

/* A call on a name itself, in its parent directory. */
static int sysio_on_name(struct sysio *s, const struct op *op, const struct call *c)
{
	char acl[1024];
	char proc[PATH_MAX];
	const char *leaf;
	int dfd = sysio_parent(s, op, false, &leaf);
	int64_t r = 0;
	struct stat st;
	uid_t uid = (uid_t)op->a[0];
	gid_t gid = (gid_t)op->a[1];

	if (dfd < 0)
		return -dfd;
	/* the l* xattr calls have no *at form: the parent's /proc name and
	 * one component, which they do not follow */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dfd, leaf);
	switch (op->type) {
	case OP_SYS_LSTAT: r = fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW); break;
	case OP_SYS_NEWFSTATAT:
	case OP_SYS_STATX:
		/* without AT_SYMLINK_NOFOLLOW it follows: sysio_on_file's stat */
		r = fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW);
		break;
	case OP_SYS_MKDIR:
	case OP_SYS_MKDIRAT: r = mkdirat(dfd, leaf, (mode_t)op->a[0]); break;
	case OP_SYS_RMDIR: r = unlinkat(dfd, leaf, AT_REMOVEDIR); break;
	case OP_SYS_UNLINK: r = unlinkat(dfd, leaf, 0); break;
	case OP_SYS_UNLINKAT: r = unlinkat(dfd, leaf, (int)op->a[0] & AT_REMOVEDIR); break;
	case OP_SYS_SYMLINK:
	case OP_SYS_SYMLINKAT: r = symlinkat(op->path2, dfd, leaf); break;
	case OP_SYS_READLINK:
	case OP_SYS_READLINKAT: r = readlinkat(dfd, leaf, s->rbuf, op->a[0]); break;
	case OP_SYS_LCHOWN:
	case OP_SYS_FCHOWNAT:
		if (!s->root_user) {
			uid = op->a[0] == (int64_t)s->uid ? uid : (uid_t)-1;
			gid = op->a[1] == (int64_t)s->gid ? gid : (gid_t)-1;
		}
		r = fchownat(dfd, leaf, uid, gid, AT_SYMLINK_NOFOLLOW);
		break;
	case OP_SYS_UTIMENSAT: r = utimensat(dfd, leaf, NULL, AT_SYMLINK_NOFOLLOW); break;
	case OP_SYS_LGETXATTR: r = lgetxattr(proc, op->path2, s->rbuf, op->a[0]); break;
	case OP_SYS_LSETXATTR:
		r = lsetxattr(proc, op->path2, sysio_xattr_value(s, acl, sizeof(acl), op->path2,
								 op->a[0]), op->a[0], (int)op->a[1]);
		break;
	case OP_SYS_LLISTXATTR: r = llistxattr(proc, s->rbuf, op->a[0]); break;
	case OP_SYS_LREMOVEXATTR: r = lremovexattr(proc, op->path2); break;
	default: errno = EINVAL; r = -1; break;
	}
	int err = errno;
	sysio_done(s, dfd);
	errno = err;
	return sysio_outcome(op, c, r, true);
}

/* rename, renameat, renameat2, link, linkat: two names. */
static int sysio_two_names(struct sysio *s, const struct op *op, const struct call *c)
{
	char proc[40];
	const char *l1, *l2;
	int d1 = sysio_parent(s, op, false, &l1), d2 = -1, f = -1;
	int64_t r = -1;
	bool link = op->type == OP_SYS_LINK || op->type == OP_SYS_LINKAT;

	if (d1 < 0)
		return -d1;
	d2 = sysio_parent(s, op, true, &l2);
	if (d2 < 0) {
		errno = -d2;
	} else if (link && op->type == OP_SYS_LINKAT && (op->a[0] & AT_SYMLINK_FOLLOW)) {
		/* follow OLD inside the root only: its /proc name, resolved */
		f = sysio_open(s, op->path, O_PATH, 0);
		if (f < 0)
			errno = -f;
		else
			r = linkat(AT_FDCWD, sysio_proc(proc, f), d2, l2, AT_SYMLINK_FOLLOW);
	} else if (link) {
		r = linkat(d1, l1, d2, l2, 0);
	} else {
		unsigned flags = op->type == OP_SYS_RENAMEAT2 ? (unsigned)op->a[0] : 0;
		r = renameat2(d1, l1, d2, l2, flags);
	}
	int err = errno;
	if (f >= 0)
		close(f);
	sysio_done(s, d1);
	sysio_done(s, d2);
	errno = err;
	return sysio_outcome(op, c, r, true);
}

/* newfstatat and statx follow their name unless told not to. */
static int sysio_stat_at(struct sysio *s, const struct op *op, const struct call *c)
{
	if (op->a[0] & AT_SYMLINK_NOFOLLOW)
		return sysio_on_name(s, op, c);
	struct op follow = *op;
	follow.type = OP_SYS_STAT;
	return sysio_on_file(s, &follow, c);
}

/* ---- calls on descriptors ---- */

/* read-like and write-like calls, copy_file_range and sendfile. */
static int sysio_move(struct sysio *s, const struct op *op, const struct call *c, int fd)
{
	size_t len = (size_t)op->a[2];
	off_t off = (off_t)op->a[0];
	ssize_t r;

	switch (op->type) {
	case OP_SYS_READ:
	case OP_SYS_READV: r = read(fd, s->rbuf, len); break;
	case OP_SYS_PREAD:
	case OP_SYS_PREADV: r = pread(fd, s->rbuf, len, off); break;
	case OP_SYS_WRITE:
	case OP_SYS_WRITEV: r = write(fd, s->wbuf, len); break;
	case OP_SYS_PWRITE:
	case OP_SYS_PWRITEV: r = pwrite(fd, s->wbuf, len, off); break;
	case OP_SYS_COPY_FILE_RANGE: {
		int out = sysio_fd(s, c->handle2);
		loff_t in_off = op->a[0], out_off = c->x[0];
		if (out == -2)
			return BACKEND_SKIPPED;
		r = copy_file_range(fd, op->a[0] < 0 ? NULL : &in_off, out,
				    c->x[0] < 0 ? NULL : &out_off, len, (unsigned)c->x[1]);
		break;
	}
	case OP_SYS_SENDFILE: {
		int in = sysio_fd(s, c->handle2);
		if (in == -2)
			return BACKEND_SKIPPED;
		r = sendfile(fd, in, op->a[0] < 0 ? NULL : &off, len);
		break;
	}
	default: errno = EINVAL; r = -1; break;
	}
	return sysio_outcome(op, c, r, true);
}

/* dup, dup2, dup3, fcntl's F_DUPFD: a second descriptor of the file. */
static int sysio_dup(struct sysio *s, const struct op *op, const struct call *c, int fd)
{
	if (c->handle2 == op->handle && c->handle2 != HANDLE_NONE)	/* dup2(fd, fd) */
		return fd < 0 ? EBADF : 0;
	/* every descriptor of the replay is close-on-exec: dbench runs no
	 * program, and exec rows close what the recording closed */
	int nfd = fd < 0 ? (errno = EBADF, -1) : fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return sysio_opened(s, op, c, c->handle2, nfd < 0 ? -errno : nfd);
}

/*
 * flock, and fcntl's lock commands, as the recording's order needs them.
 * A blocking one that failed when recorded (a signal cut its wait short:
 * EINTR; EDEADLK) is made without blocking: its lock was held, and the
 * release it would wait for is ordered after it, so it fails at once, and
 * EWOULDBLOCK (EAGAIN, EACCES) counts as the recorded failure.  A lock the
 * replay took where the recording failed to is let go of again at once:
 * the recording's order gives it to other streams, which would wait for
 * it for ever.
 */
static int sysio_lock(const struct op *op, const struct call *c, int fd)
{
	bool fl_call = op->type == OP_SYS_FLOCK, failed = c->result < 0 && !(op->flags & OPF_ANY_STATUS);
	int cmd = (int)op->a[0];
	struct flock fl = { .l_type = (short)op->a[1], .l_whence = (short)op->a[2],
			    .l_start = c->x[0], .l_len = c->x[1] };
	bool blocks = fl_call ? !(cmd & (LOCK_NB | LOCK_UN)) : cmd == F_SETLKW || cmd == F_OFD_SETLKW;
	bool takes = fl_call ? !(cmd & LOCK_UN)
			     : cmd != F_GETLK && cmd != F_OFD_GETLK && fl.l_type != F_UNLCK;

	if (failed && blocks)
		cmd = fl_call ? cmd | LOCK_NB : cmd == F_SETLKW ? F_SETLK : F_OFD_SETLK;
	int64_t r = fl_call ? flock(fd, cmd) : fcntl(fd, cmd, &fl);
	int err = errno;
	if (r < 0 && failed && blocks && (err == EWOULDBLOCK || err == EACCES) &&
	    (c->result == -EINTR || c->result == -EDEADLK))
		return (int)-c->result;
	if (r == 0 && failed && takes) {
		struct flock un = fl;
		un.l_type = F_UNLCK;
		if (fl_call)
			flock(fd, LOCK_UN);
		else
			fcntl(fd, cmd == F_OFD_SETLKW || cmd == F_OFD_SETLK ? F_OFD_SETLK : F_SETLK, &un);
	}
	errno = err;
	return sysio_outcome(op, c, r, false);
}

static int sysio_fcntl(struct sysio *s, const struct op *op, const struct call *c, int fd)
{
	int64_t r;

	switch (op->a[0]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC: return sysio_dup(s, op, c, fd);
	case F_GETFD: /* ours are all close-on-exec: the recorded answer */
		r = fcntl(fd, F_GETFD);
		return sysio_outcome(op, c, r < 0 ? r : c->result, true);
	case F_SETFD: r = fcntl(fd, F_SETFD, FD_CLOEXEC); break;
	case F_GETFL: r = fcntl(fd, F_GETFL); break;
	case F_SETFL: r = fcntl(fd, F_SETFL, (int)op->a[1]); break;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW: return sysio_lock(op, c, fd);
	default: return BACKEND_NOT_SUPPORTED;
	}
	return sysio_outcome(op, c, r, true);
}

static int sysio_on_fd(struct sysio *s, const struct op *op, const struct call *c)
{
	char acl[1024];
	int fd = sysio_fd(s, op->handle);
	int64_t r;
	struct stat st;
	struct statfs sf;
	uid_t uid = (uid_t)op->a[0];
	gid_t gid = (gid_t)op->a[1];

	if (fd == -2)
		return BACKEND_SKIPPED;
	if (op_table[op->type].bytes != BYTES_NONE)
		return sysio_move(s, op, c, fd);
	switch (op->type) {
	case OP_SYS_CLOSE:
		r = close(fd);
		if (fd >= 0)
			s->fds[op->handle] = -1;
		break;
	case OP_SYS_LSEEK: r = lseek(fd, op->a[0], (int)op->a[1]); break;
	case OP_SYS_FSYNC: r = fsync(fd); break;
	case OP_SYS_FDATASYNC: r = fdatasync(fd); break;
	case OP_SYS_SYNCFS: r = syncfs(fd); break;
	case OP_SYS_SYNC_FILE_RANGE: r = sync_file_range(fd, op->a[0], op->a[1],
							 (unsigned)op->a[2]); break;
	case OP_SYS_FTRUNCATE: r = ftruncate(fd, op->a[0]); break;
	case OP_SYS_FALLOCATE: r = fallocate(fd, (int)op->a[0], op->a[1], op->a[2]); break;
	case OP_SYS_FSTAT: r = fstat(fd, &st); break;
	case OP_SYS_GETDENTS: r = syscall(SYS_getdents64, fd, s->rbuf, (size_t)op->a[0]); break;
	case OP_SYS_FCHMOD: r = fchmod(fd, (mode_t)op->a[0]); break;
	case OP_SYS_FCHOWN:
		if (!s->root_user) {
			uid = op->a[0] == (int64_t)s->uid ? uid : (uid_t)-1;
			gid = op->a[1] == (int64_t)s->gid ? gid : (gid_t)-1;
		}
		r = fchown(fd, uid, gid);
		break;
	case OP_SYS_FUTIMENS: r = futimens(fd, NULL); break;
	case OP_SYS_FGETXATTR: r = fgetxattr(fd, op->path2, s->rbuf, op->a[0]); break;
	case OP_SYS_FSETXATTR:
		r = fsetxattr(fd, op->path2, sysio_xattr_value(s, acl, sizeof(acl), op->path2,
							       op->a[0]), op->a[0], (int)op->a[1]);
		break;
	case OP_SYS_FLISTXATTR: r = flistxattr(fd, s->rbuf, op->a[0]); break;
	case OP_SYS_FREMOVEXATTR: r = fremovexattr(fd, op->path2); break;
	case OP_SYS_FSTATFS: r = fstatfs(fd, &sf); break;
	case OP_SYS_FCHDIR:
		r = fstat(fd, &st);
		if (r == 0 && !S_ISDIR(st.st_mode))
			errno = ENOTDIR, r = -1;
		break;
	case OP_SYS_FLOCK: return sysio_lock(op, c, fd);
	case OP_SYS_DUP:
	case OP_SYS_DUP2:
	case OP_SYS_DUP3: return sysio_dup(s, op, c, fd);
	case OP_SYS_FCNTL: return sysio_fcntl(s, op, c, fd);
	default: return BACKEND_NOT_SUPPORTED;
	}
	return sysio_outcome(op, c, r, true);
}

/* fork: the child's copies; exec: the close-on-exec ones close (a
 * process's end: all of its; a flock conversion's first step: their
 * flock locks go). */
static int sysio_table(struct sysio *s, const struct op *op)
{
	const uint16_t *l = &s->prog->slot_lists[op->a[0]];

	for (int64_t i = 0; i < op->a[1]; i++) {
		if (op->type == OP_SYS_EXEC && op->a[2] == EXEC_UNLOCK) {
			if (l[i] < s->nfds && s->fds[l[i]] >= 0)
				flock(s->fds[l[i]], LOCK_UN);
			continue;
		}
		if (op->type == OP_SYS_EXEC) {
			if (l[i] < s->nfds && s->fds[l[i]] >= 0) {
				close(s->fds[l[i]]);
				s->fds[l[i]] = -1;
			}
			continue;
		}
		int from = sysio_fd(s, l[2 * i]);
		if (from >= 0)
			sysio_install(s, l[2 * i + 1], fcntl(from, F_DUPFD_CLOEXEC, 0));
	}
	return 0;
}

int sysio_op(struct sysio *s, const struct op *op)
{
	const struct call *c = loadfile_call(s->prog, op);
	bool nofollow;

	errno = 0;
	switch (op->type) {
	case OP_SYS_OPEN: case OP_SYS_OPENAT: case OP_SYS_CREAT:
		return sysio_call_open(s, op, c);
	case OP_SYS_FCHOWNAT: case OP_SYS_UTIMENSAT:
		nofollow = op->a[op->type == OP_SYS_FCHOWNAT ? 2 : 0] & AT_SYMLINK_NOFOLLOW;
		return nofollow ? sysio_on_name(s, op, c) : sysio_on_file(s, op, c);
	case OP_SYS_STAT: case OP_SYS_TRUNCATE: case OP_SYS_ACCESS: case OP_SYS_FACCESSAT:
	case OP_SYS_CHMOD: case OP_SYS_FCHMODAT: case OP_SYS_CHOWN: case OP_SYS_GETXATTR:
	case OP_SYS_SETXATTR: case OP_SYS_LISTXATTR: case OP_SYS_REMOVEXATTR:
	case OP_SYS_STATFS: case OP_SYS_CHDIR:
		return sysio_on_file(s, op, c);
	case OP_SYS_NEWFSTATAT: case OP_SYS_STATX:
		return sysio_stat_at(s, op, c);
	case OP_SYS_LSTAT: case OP_SYS_MKDIR: case OP_SYS_MKDIRAT: case OP_SYS_RMDIR:
	case OP_SYS_UNLINK: case OP_SYS_UNLINKAT: case OP_SYS_SYMLINK: case OP_SYS_SYMLINKAT:
	case OP_SYS_READLINK: case OP_SYS_READLINKAT: case OP_SYS_LCHOWN:
	case OP_SYS_LGETXATTR: case OP_SYS_LSETXATTR: case OP_SYS_LLISTXATTR:
	case OP_SYS_LREMOVEXATTR:
		return sysio_on_name(s, op, c);
	case OP_SYS_RENAME: case OP_SYS_RENAMEAT: case OP_SYS_RENAMEAT2:
	case OP_SYS_LINK: case OP_SYS_LINKAT:
		return sysio_two_names(s, op, c);
	case OP_SYS_THREAD:
		return 0;
	case OP_SYS_FORK: case OP_SYS_EXEC:
		return c->result < 0 ? 0 : sysio_table(s, op);
	default:
		return sysio_on_fd(s, op, c);
	}
}

/* ---- the initial state ---- */

static int sysio_make_file(struct sysio *s, const struct init_entry *e)
{
	int fd = sysio_open(s, e->path, O_WRONLY | O_CREAT | O_EXCL, e->mode);
	int err = 0;

	if (fd < 0)
		return -fd;
	for (int64_t done = 0; done < e->size && !err;) {
		size_t n = e->size - done < (int64_t)s->wlen ? (size_t)(e->size - done) : s->wlen;
		ssize_t w = pwrite(fd, s->wbuf, n, done);
		err = w < 0 ? errno : w == 0 ? EIO : 0;
		done += w > 0 ? w : 0;
	}
	if (!err && fchmod(fd, e->mode) != 0)
		err = errno;
	close(fd);
	return err;
}

static int sysio_make(struct sysio *s, const struct init_entry *e)
{
	const char *slash = strrchr(e->path, '/');
	const char *leaf = slash ? slash + 1 : e->path;
	char parent[PATH_MAX];
	int err = 0, fd;

	if (e->kind == INIT_FILE)
		return sysio_make_file(s, e);
	if (e->kind == INIT_DATA) {
		fd = sysio_open(s, e->path, O_WRONLY, 0);
		if (fd < 0)
			return -fd;
		if (pwrite(fd, e->data, e->len, e->size) != (ssize_t)e->len)
			err = errno ? errno : EIO;
		close(fd);
		return err;
	}
	/* dir and symlink: in the parent, which an init dir line made */
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - e->path) : 0, e->path);
	fd = *parent ? sysio_open(s, parent, O_PATH | O_DIRECTORY, 0) : s->root;
	if (fd < 0)
		return -fd;
	if (e->kind == INIT_DIR)
		err = mkdirat(fd, leaf, 0700) == 0 && fchmodat(fd, leaf, e->mode, 0) == 0 ? 0 : errno;
	else
		err = symlinkat(e->target, fd, leaf) == 0 ? 0 : errno;
	sysio_done(s, fd);
	return err;
}

int sysio_pass_start(struct sysio *s)
{
	sysio_close_all(s);
	if (s->root >= 0)
		close(s->root);
	s->root = openat(s->clients_fd, s->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->root < 0)
		return errno;
	for (size_t i = 0; i < s->prog->ninit; i++) {
		int err = sysio_make(s, &s->prog->init[i]);
		if (err)
			return err;
	}
	return 0;
}

void sysio_close_all(struct sysio *s)
{
	for (unsigned i = 0; i < s->nfds; i++) {
		if (s->fds[i] >= 0)
			close(s->fds[i]);
		s->fds[i] = -1;
	}
}

static int sysio_destructor(struct sysio *s)
{
	sysio_close_all(s);
	if (s->root >= 0)
		close(s->root);
	return 0;
}

size_t sysio_mem(const struct program *prog)
{
	return sizeof(struct sysio) + prog->max_handles * sizeof(int) + prog->max_buffer +
	       SYSIO_INIT_CHUNK + 4 * BACKEND_ALLOC_OVERHEAD;
}

struct sysio *sysio_new(TALLOC_CTX *mem_ctx, const struct program *prog, int clients_fd,
			const char *name, const char *pattern, size_t len)
{
	struct sysio *s = talloc_zero(mem_ctx, struct sysio);
	size_t need = prog->max_buffer > SYSIO_INIT_CHUNK ? prog->max_buffer : SYSIO_INIT_CHUNK;

	if (!s)
		return NULL;
	*s = (struct sysio){ .prog = prog, .clients_fd = clients_fd, .name = name, .root = -1,
			     .nfds = prog->max_handles, .root_user = geteuid() == 0,
			     .uid = geteuid(), .gid = getegid() };
	talloc_set_destructor(s, sysio_destructor);
	s->fds = talloc_array(s, int, s->nfds ? s->nfds : 1);
	s->rbuf = talloc_size(s, prog->max_buffer ? prog->max_buffer : 1);
	if (pattern && len >= need) {
		s->wbuf = pattern;
		s->wlen = len;
	} else {
		char *w = talloc_size(s, need);
		if (w)
			sysio_fill_pattern(w, need);
		s->wbuf = w;
		s->wlen = need;
	}
	if (!s->fds || !s->rbuf || !s->wbuf) {
		talloc_free(s);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < s->nfds; i++)
		s->fds[i] = -1;
	int err = sysio_pass_start(s);
	if (err) {
		talloc_free(s);
		errno = err;
		return NULL;
	}
	return s;
}
