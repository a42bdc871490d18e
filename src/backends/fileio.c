/*
 * fileio.c - the local-filesystem backend: each loadfile operation as the
 * system calls dbench 4.0's fileio backend makes for it.
 *
 * This file owns one client's descriptors: its own duplicate of
 * DIR/clients, a descriptor of DIR/clients/client<id>, the files the trace
 * has open (indexed by compiled handle slot), and a cache of descriptors of
 * the directories the trace names (indexed by program.dirs).  Every lookup
 * is a *at() call relative to one of those directories, and nothing ever
 * follows a symbolic link: leaves are opened with O_NOFOLLOW, directories
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) or, on kernels
 * without it, one O_NOFOLLOW component at a time.
 *
 * To keep the per-call-type system call counts of a run equal to dbench
 * 4.0's on the same loadfile, each operation makes the calls dbench's
 * path-based code makes, in *at() form: the name resolution it simulates
 * (a stat, and on a miss a case-insensitive scan of the parent), the
 * fstat after every open, the second directory scan of a wildcard
 * FIND_FIRST.  The differences are deliberate and listed where they occur:
 * Deltree removes directories too, outcomes are checked instead of
 * printed, a directory open on a cache miss is the only extra call, and
 * Deltree opens each directory with openat2(RESOLVE_NO_XDEV) so that it
 * never enters another mount.
 *
 * With --verify, WriteX writes verify.h's pattern from the client's own
 * buffer instead of zeros, every change an operation makes to the files
 * is reported to the client's verify state once it has succeeded, and
 * ReadX checks what it read; no system call is added.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "dosmatch.h"
#include "backends/openat2.h"
#include "backends/rmtree.h"
#include "backends/sysio.h"
#include "localdir.h"

#define FILEIO_DIR_FDS_MAX 256		/* cached directory descriptors at once */
#define FILEIO_DENTS_SIZE 8192		/* getdents64 buffer: a few hundred entries */
#define FILEIO_XATTR_NAME "user.DosAttrib"
#define FILEIO_XATTR_SIZE 44		/* dbench 4.0's DOS attribute blob */

struct backend_client {
	const struct program *prog;
	struct backend_options opts;
	char name[48];		/* the client dir beneath clients_fd */
	int clients_fd;		/* our duplicate of DIR/clients */
	int client_fd;		/* DIR/clients/client<id>, or -1 until needed */
	int *fds;		/* open files by handle slot, -1 when closed */
	unsigned nfds;
	int *dir_fds;		/* by program.dirs index, -1 when not cached */
	size_t ndirs;
	unsigned dirs_open;	/* entries of dir_fds that are >= 0 */
	size_t hand;		/* next eviction candidate in dir_fds */
	bool no_openat2;	/* the kernel lacks it: walk components instead */
	size_t max_xfer;	/* largest ReadX/WriteX size in the program */
	char *wbuf;		/* zeros for WriteX, allocated on first use */
	char *rbuf;		/* ReadX target, allocated on first use */
	char *dents;		/* getdents64 buffer for directory scans */
	uint64_t rng;		/* xorshift state for the xattr payload */
	struct verify *verify;	/* --verify: what this client wrote where; else NULL */
	struct offset_state ost;	/* dbench 5.0 SMB rows' offset expressions */
	struct sysio *sys;	/* a recording's replay (the system-call dialect), or NULL */
	struct localdir_owners owners;	/* who the files it opens may belong to */
	char detail[VERIFY_DETAIL_MAX];	/* why a file was refused, for failure_detail() */
	bool has_detail;	/* ... until failure_detail() is asked */
};

/* ---- descriptors ---- */

static void fileio_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void fileio_close_handles(struct backend_client *bc)
{
	for (unsigned i = 0; i < bc->nfds; i++)
		fileio_close(&bc->fds[i]);
}

static void fileio_uncache(struct backend_client *bc, size_t i)
{
	if (bc->dir_fds[i] >= 0)
		bc->dirs_open--;
	fileio_close(&bc->dir_fds[i]);
}

/*
 * Forget every cached directory at or beneath client-relative `path`
 * ("" is the client directory itself, which takes the client fd too):
 * after a Rmdir, Deltree or Rename their descriptors name the wrong thing.
 */
static void fileio_invalidate(struct backend_client *bc, const char *path)
{
	size_t len = strlen(path);

	if (len == 0)
		fileio_close(&bc->client_fd);
	for (size_t i = 0; i < bc->ndirs; i++) {
		const char *d = bc->prog->dirs[i];
		if (bc->dir_fds[i] < 0)
			continue;
		if (loadfile_path_within(d, path))
			fileio_uncache(bc, i);
	}
}

static int fileio_destructor(struct backend_client *bc)
{
	fileio_close_handles(bc);
	for (size_t i = 0; i < bc->ndirs; i++)
		fileio_uncache(bc, i);
	fileio_close(&bc->client_fd);
	fileio_close(&bc->clients_fd);
	return 0;
}

/* The client directory, reopened after a Deltree or Rmdir removed it.
 * Returns a descriptor or -errno. */
static int fileio_client_fd(struct backend_client *bc)
{
	if (bc->client_fd < 0) {
		bc->client_fd = openat(bc->clients_fd, bc->name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (bc->client_fd < 0)
			return -errno;
	}
	return bc->client_fd;
}

/* Open `rel` beneath `base` one component at a time, for kernels without
 * openat2.  Returns a descriptor or -errno. */
static int fileio_walk(int base, const char *rel)
{
	char comp[NAME_MAX + 1];
	int fd = base;

	while (*rel) {
		size_t n = strcspn(rel, "/");
		if (n == 0 || n > NAME_MAX ||
		    (rel[0] == '.' && (n == 1 || (n == 2 && rel[1] == '.')))) {
			if (fd != base)
				close(fd);
			return n > NAME_MAX ? -ENAMETOOLONG : -EINVAL;
		}
		memcpy(comp, rel, n);
		comp[n] = '\0';
		int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int err = errno;
		if (fd != base)
			close(fd);
		if (next < 0)
			return -err;
		fd = next;
		rel += n + (rel[n] == '/');
	}
	return fd == base ? -EINVAL : fd;
}

/*
 * openat2 of directory `rel` beneath `base` with `resolve`, or -ENOSYS
 * where the kernel lacks it (ENOSYS: old kernel; EPERM: a seccomp filter,
 * after which a real permission problem shows up again in the caller's
 * fallback).  Returns a descriptor or -errno.
 */
static int fileio_openat2(struct backend_client *bc, int base, const char *rel,
			  uint64_t flags, uint64_t resolve)
{
	struct open_how how = { .flags = flags | O_RDONLY | O_DIRECTORY | O_CLOEXEC,
				.resolve = resolve | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };

	if (!bc->no_openat2) {
		long fd = openat2_retried(base, rel, &how);
		if (fd >= 0)
			return (int)fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		bc->no_openat2 = true;
	}
	return -ENOSYS;
}

static int fileio_open_beneath(struct backend_client *bc, int base, const char *rel)
{
	int fd = fileio_openat2(bc, base, rel, 0, RESOLVE_BENEATH);

	return fd == -ENOSYS ? fileio_walk(base, rel) : fd;
}

/* Close one cached directory other than `keep`, round robin. */
static void fileio_evict(struct backend_client *bc, size_t keep)
{
	for (size_t n = 0; n < bc->ndirs; n++) {
		size_t i = bc->hand;
		bc->hand = (bc->hand + 1) % bc->ndirs;
		if (i != keep && bc->dir_fds[i] >= 0) {
			fileio_uncache(bc, i);
			return;
		}
	}
}

/*
 * Descriptor of program.dirs[idx], opening and caching it on a miss.
 * `keep` is a directory the caller still holds (Rename's other parent),
 * which eviction must spare.  Returns a descriptor or -errno.
 */
static int fileio_dir_fd(struct backend_client *bc, size_t idx, size_t keep)
{
	if (idx >= bc->ndirs)
		return -EINVAL;
	if (bc->prog->dirs[idx][0] == '\0')
		return fileio_client_fd(bc);
	if (bc->dir_fds[idx] >= 0)
		return bc->dir_fds[idx];
	int base = fileio_client_fd(bc);
	if (base < 0)
		return base;
	int fd = fileio_open_beneath(bc, base, bc->prog->dirs[idx]);
	if (fd < 0)
		return fd;
	if (bc->dirs_open >= FILEIO_DIR_FDS_MAX)
		fileio_evict(bc, keep);
	bc->dir_fds[idx] = fd;
	bc->dirs_open++;
	return fd;
}

/*
 * Where an operation's path (or Rename's second path) lives: returns the
 * parent directory's descriptor (or -errno) and sets *leaf to the name in
 * it.  "\clients" is DIR/clients seen as "."; the client directory ""
 * is its own name beneath DIR/clients.
 */
static int fileio_parent(struct backend_client *bc, const struct op *op, bool second,
			 size_t keep, const char **leaf)
{
	const char *path = second ? op->path2 : op->path;
	uint16_t dir = second ? op->dir2 : op->dir;

	if (path == NULL)
		return -EINVAL;
	if (op->flags & OPF_CLIENTS_DIR) {
		*leaf = ".";
		return bc->clients_fd;
	}
	if (dir == DIR_NONE) {
		*leaf = bc->name;
		return path[0] == '\0' ? bc->clients_fd : -EINVAL;
	}
	*leaf = second ? op->leaf2 : op->leaf;
	return fileio_dir_fd(bc, dir, keep);
}

/* The open file behind an operation's handle, or -EBADF. */
static int fileio_handle(const struct backend_client *bc, const struct op *op)
{
	if (op->handle == HANDLE_NONE || op->handle >= bc->nfds || bc->fds[op->handle] < 0)
		return -EBADF;
	return bc->fds[op->handle];
}

/* ---- directory scans ---- */

/* A read through a directory with getdents64 into a caller's buffer of
 * FILEIO_DENTS_SIZE bytes. */
struct fileio_scan {
	int fd;
	char *buf;
	ssize_t len, pos;
};

/*
 * Start reading directory `fd` (consumed: closed on failure).  The fstat
 * is the one glibc's opendir makes, which dbench 4.0 calls wherever we
 * scan; it also tells Deltree which device it is on.
 */
static int fileio_scan_start(struct fileio_scan *s, int fd, char *buf, struct stat *st)
{
	*s = (struct fileio_scan){ .fd = fd, .buf = buf };
	if (fd < 0)
		return errno;
	if (buf == NULL || fstat(fd, st) != 0) {
		int err = buf == NULL ? ENOMEM : errno;
		fileio_close(&s->fd);
		return err;
	}
	return 0;
}

/* A fresh description of directory `dirfd` (the cached descriptor's
 * offset must stay untouched), read into the client's buffer. */
static int fileio_scan_open(struct backend_client *bc, int dirfd, struct fileio_scan *s)
{
	struct stat st;

	if (bc->dents == NULL)
		bc->dents = talloc_size(bc, FILEIO_DENTS_SIZE);
	return fileio_scan_start(s, openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC),
				 bc->dents, &st);
}

/* Next entry name, or NULL at the end (*err set on a read error). */
static inline __attribute__((always_inline)) const char *
fileio_scan_next(struct fileio_scan *s, int *err)
{
	if (s->pos >= s->len) {
		s->len = getdents64(s->fd, s->buf, FILEIO_DENTS_SIZE);
		s->pos = 0;
		if (s->len <= 0) {
			*err = s->len < 0 ? errno : 0;
			return NULL;
		}
	}
	struct dirent64 *d = (struct dirent64 *)(s->buf + s->pos);
	s->pos += d->d_reclen;
	return d->d_name;
}

/* What dbench 4.0 does when a name is not found: read the parent until
 * an entry matches case-insensitively.  The answer is not used. */
static void fileio_case_scan(struct backend_client *bc, int dirfd, const char *leaf)
{
	struct fileio_scan s;
	const char *name;
	int err;

	if (fileio_scan_open(bc, dirfd, &s) != 0)
		return;
	/* Most entries differ in the first letter: check that before the call. */
	char first = dosmatch_lower(leaf[0]);
	while ((name = fileio_scan_next(&s, &err)) != NULL) {
		if (dosmatch_lower(name[0]) == first && strcasecmp(name, leaf) == 0)
			break;
	}
	fileio_close(&s.fd);
}

/* ---- DOS attribute xattr traffic (-x) ---- */

static void fileio_xattr_read_fd(const struct backend_client *bc, int fd)
{
	char buf[FILEIO_XATTR_SIZE];

	if (bc->opts.xattr)
		(void)fgetxattr(fd, FILEIO_XATTR_NAME, buf, sizeof(buf));
}

/* Read the attribute of `leaf` in `dirfd` without following a link at
 * the leaf: through our own descriptor's /proc entry, as glibc has no
 * getxattrat.  Failures are ignored, as dbench 4.0 ignores them. */
static void fileio_xattr_read_at(const struct backend_client *bc, int dirfd, const char *leaf)
{
	char path[64 + NAME_MAX], buf[FILEIO_XATTR_SIZE];
	int n;

	if (!bc->opts.xattr)
		return;
	n = snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dirfd, leaf);
	if (n > 0 && (size_t)n < sizeof(path))
		(void)lgetxattr(path, FILEIO_XATTR_NAME, buf, sizeof(buf));
}

/*
 * Read the attribute, then store a fresh one: a timestamp, whole seconds
 * one time in five so that some files share a value, as in dbench 4.0.
 * Returns 0 or the errno of the store.
 */
static int fileio_xattr_write_fd(struct backend_client *bc, int fd)
{
	char buf[FILEIO_XATTR_SIZE];
	struct timespec ts;
	int64_t stamp[2];

	if (!bc->opts.xattr)
		return 0;
	(void)fgetxattr(fd, FILEIO_XATTR_NAME, buf, sizeof(buf));
	bc->rng ^= bc->rng << 13;
	bc->rng ^= bc->rng >> 7;
	bc->rng ^= bc->rng << 17;
	clock_gettime(CLOCK_REALTIME, &ts);
	stamp[0] = ts.tv_sec;
	stamp[1] = bc->rng % 5 == 0 ? 0 : ts.tv_nsec / 1000;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, stamp, sizeof(stamp));
	if (fsetxattr(fd, FILEIO_XATTR_NAME, buf, sizeof(buf), 0) != 0)
		return errno;
	return 0;
}

/* ---- helpers shared by the path operations ---- */

/*
 * dbench 4.0's simulation of a CIFS server's name lookup: stat the name;
 * when it exists read its DOS attributes (-x), and when it does not, scan
 * the parent for a case-insensitive match (unless --no-resolve).
 * Returns the stat's outcome, 0 or an errno.
 */
static int fileio_resolve(struct backend_client *bc, int dirfd, const char *leaf,
			  struct stat *st)
{
	if (fstatat(dirfd, leaf, st, AT_SYMLINK_NOFOLLOW) == 0) {
		fileio_xattr_read_at(bc, dirfd, leaf);
		return 0;
	}
	int err = errno;
	if (err == ENOENT && !bc->opts.no_resolve)
		fileio_case_scan(bc, dirfd, leaf);
	return err;
}

/*
 * How every operation on op->path starts: the parent directory (a
 * descriptor, or -errno) and the leaf, then dbench 4.0's name resolution
 * of the leaf, whose outcome (0 or an errno) goes to *found and what it
 * found to *seen (st_mode 0 for nothing) if asked.
 */
static int fileio_lookup(struct backend_client *bc, const struct op *op, const char **leaf,
			 int *found, struct stat *seen)
{
	struct stat st;
	int dirfd = fileio_parent(bc, op, false, SIZE_MAX, leaf);

	if (dirfd >= 0) {
		int f = fileio_resolve(bc, dirfd, *leaf, seen ? seen : &st);
		if (found)
			*found = f;
		if (seen && f != 0)
			seen->st_mode = 0;
	}
	return dirfd;
}

/* -S: flush the directory that an unlink, rmdir or rename changed.  A new
 * descriptor, as dbench 4.0 opens the parent by name each time. */
static int fileio_sync_dir(const struct backend_client *bc, int dirfd)
{
	int err = 0;

	if (!bc->opts.sync_dir)
		return 0;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fdatasync(fd) != 0)
		err = errno;
	close(fd);
	return err;
}

/* ---- Deltree and cleanup ---- */

/* Remove `name` in `parent` as rmtree_at() does with `flags`; a failure
 * of the walk's own (RMTREE_RESTORE: the cleanup's) names what is left
 * in the client's detail, for failure_detail(). */
static int fileio_rmtree_at(struct backend_client *bc, int parent, const char *name,
			    unsigned flags)
{
	char path[VERIFY_DETAIL_MAX / 2];
	struct rmtree_left left = { path, sizeof(path) };
	int err = rmtree_at(bc, parent, name, flags, &bc->owners, &left);

	if (err && (flags & RMTREE_RESTORE)) {
		snprintf(bc->detail, sizeof(bc->detail), "cannot remove %s: %s", path,
			 strerror(err));
		bc->has_detail = true;
	}
	return err;
}

/* ---- operations ---- */

/* Open `leaf` in `dirfd` if it is a file of the client's own
 * (localdir_open_own(), which fills *st); a refusal's reason is kept for
 * failure_detail(). */
static int fileio_open_own(struct backend_client *bc, int dirfd, const char *leaf, int flags,
			   const struct stat *seen, struct stat *st)
{
	int fd = localdir_open_own(dirfd, leaf, flags, 0600, &bc->owners, seen, st, bc->detail,
				   sizeof(bc->detail));

	bc->has_detail = fd == -BACKEND_REFUSED;
	return fd;
}

/* Open the object an NTCreateX names, creating it as the disposition and
 * create options say: a file of the client's own, whose fstat goes to
 * *st.  `seen` is what the lookup found.  Returns a descriptor or -errno
 * (-BACKEND_REFUSED). */
static int fileio_create_open(struct backend_client *bc, const struct op *op,
			      int dirfd, const char *leaf, const struct stat *seen, struct stat *st)
{
	int flags = backend_open_flags(op->a[1]);
	int fd;

	if (flags < 0)
		return -EINVAL;
	if (op->a[0] & NT_DIRECTORY_FILE) {
		/* dbench 4.0 ignores the mkdir's outcome; so do we: the open says */
		if (flags & O_CREAT)
			(void)mkdirat(dirfd, leaf, 0700);
		flags = O_RDONLY | O_DIRECTORY;
	} else {
		flags |= O_RDWR | (bc->opts.sync_open ? O_SYNC : 0);
	}
	fd = fileio_open_own(bc, dirfd, leaf, flags, seen, st);
	if (fd == -EISDIR)
		fd = fileio_open_own(bc, dirfd, leaf, O_RDONLY | O_DIRECTORY, seen, st);
	return fd;
}

static int fileio_ntcreatex(struct backend_client *bc, const struct op *op)
{
	const char *leaf;
	struct stat seen, st;
	int dirfd = fileio_lookup(bc, op, &leaf, NULL, &seen);

	if (dirfd < 0)
		return -dirfd;
	int fd = fileio_create_open(bc, op, dirfd, leaf, &seen, &st);
	if (fd == -BACKEND_REFUSED)	/* the name is no longer one we know */
		verify_ntcreatex(bc->verify, VERIFY_NO_HANDLE, op->path, VERIFY_OPEN_FAILED, false);
	if (fd < 0)
		return -fd;
	int err = S_ISDIR(st.st_mode) ? 0 : fileio_xattr_write_fd(bc, fd);
	bool keep = err == 0 && op->status == NT_OK && op->handle < bc->nfds;
	verify_ntcreatex(bc->verify, keep ? op->handle : VERIFY_NO_HANDLE, op->path,
			 S_ISREG(st.st_mode) ? VERIFY_OPENED_FILE : VERIFY_OPENED_OTHER,
			 (backend_open_flags(op->a[1]) & O_TRUNC) != 0);
	if (!keep) {
		/* failed after all, or not expected to open: keep nothing */
		close(fd);
		return err;
	}
	fileio_close(&bc->fds[op->handle]);
	bc->fds[op->handle] = fd;
	return 0;
}

static int fileio_closeop(struct backend_client *bc, const struct op *op)
{
	int fd = fileio_handle(bc, op);

	if (fd < 0)
		return -fd;
	bc->fds[op->handle] = -1;
	return close(fd) == 0 ? 0 : errno;
}

static int fileio_rename(struct backend_client *bc, const struct op *op)
{
	const char *leaf, *leaf2;
	struct stat st;
	int from = fileio_parent(bc, op, false, SIZE_MAX, &leaf);

	if (from < 0)
		return -from;
	int to = fileio_parent(bc, op, true, op->dir, &leaf2);
	if (to < 0)
		return -to;
	/* Whether a directory moves matters to --verify; a source that
	 * could not be looked up counts as one (its files are forgotten). */
	bool is_dir = fileio_resolve(bc, from, leaf, &st) != 0 || S_ISDIR(st.st_mode);
	(void)fileio_resolve(bc, to, leaf2, &st);
	int err = renameat(from, leaf, to, leaf2) == 0 ? 0 : errno;
	int serr = fileio_sync_dir(bc, to);
	if (err == 0) {
		fileio_invalidate(bc, op->path);
		fileio_invalidate(bc, op->path2);
		if (bc->verify)
			verify_rename(bc->verify, op->path, op->path2, is_dir);
	}
	return err ? err : serr;
}

/* Unlink and Rmdir: resolve, remove, then -S's sync of the parent. */
static int fileio_remove(struct backend_client *bc, const struct op *op, int at_flags)
{
	const char *leaf;
	int dirfd = fileio_lookup(bc, op, &leaf, NULL, NULL);

	if (dirfd < 0)
		return -dirfd;
	int err = unlinkat(dirfd, leaf, at_flags) == 0 ? 0 : errno;
	int serr = fileio_sync_dir(bc, dirfd);
	if (err == 0 && (at_flags & AT_REMOVEDIR))
		fileio_invalidate(bc, op->path);
	return err ? err : serr;
}

static int fileio_unlink(struct backend_client *bc, const struct op *op)
{
	return fileio_remove(bc, op, 0);
}

/* Unlike dbench 4.0, which empties the tree but leaves its directories,
 * the whole subtree goes, so that a pass starts from nothing. */
static int fileio_deltree(struct backend_client *bc, const struct op *op)
{
	const char *leaf;

	if (op->flags & OPF_CLIENTS_DIR)
		return EACCES;	/* every client's files are under it */
	int dirfd = fileio_parent(bc, op, false, SIZE_MAX, &leaf);
	if (dirfd == -ENOENT)
		return 0;	/* nothing to delete */
	if (dirfd < 0)
		return -dirfd;
	int err = fileio_rmtree_at(bc, dirfd, leaf, 0);
	fileio_invalidate(bc, op->path);
	return err;
}

static int fileio_rmdir(struct backend_client *bc, const struct op *op)
{
	return fileio_remove(bc, op, AT_REMOVEDIR);
}

/* "\clients" already exists (the driver made it): mkdirat(fd, ".") gives
 * the EEXIST that dbench 4.0's mkdir gets and ignores. */
static int fileio_mkdir(struct backend_client *bc, const struct op *op)
{
	const char *leaf;
	int dirfd = fileio_lookup(bc, op, &leaf, NULL, NULL);

	if (dirfd < 0)
		return -dirfd;
	if (mkdirat(dirfd, leaf, 0777) == 0)
		return 0;
	if (errno == EEXIST && (op->flags & OPF_CLIENTS_DIR))
		return 0;
	return errno;
}

static int fileio_qpathinfo(struct backend_client *bc, const struct op *op)
{
	const char *leaf;
	int found = 0;
	int dirfd = fileio_lookup(bc, op, &leaf, &found, NULL);

	return dirfd < 0 ? -dirfd : found;
}

static int fileio_qfileinfo(struct backend_client *bc, const struct op *op)
{
	struct stat st;
	int fd = fileio_handle(bc, op);

	if (fd < 0)
		return -fd;
	if (fstat(fd, &st) != 0)
		return errno;
	fileio_xattr_read_fd(bc, fd);
	return 0;
}

/* dbench 4.0 calls statvfs on the target directory; the client directory
 * (or DIR/clients while it does not exist) is on the same filesystem. */
static int fileio_qfsinfo(struct backend_client *bc, const struct op *op)
{
	struct statvfs sv;
	int fd = bc->client_fd >= 0 ? bc->client_fd : bc->clients_fd;

	(void)op;
	return fstatvfs(fd, &sv) == 0 ? 0 : errno;
}

/* Move both times back, as dbench 4.0 does (atime -10 s, mtime -12 s,
 * whole seconds), through the handle rather than its name at open time. */
static int fileio_sfileinfo(struct backend_client *bc, const struct op *op)
{
	struct stat st;
	int fd = fileio_handle(bc, op);

	if (fd < 0)
		return -fd;
	fileio_xattr_read_fd(bc, fd);
	if (fstat(fd, &st) != 0)
		return errno;
	struct timespec ts[2] = {
		{ .tv_sec = st.st_atim.tv_sec - 10 },
		{ .tv_sec = st.st_mtim.tv_sec - 12 },
	};
	if (futimens(fd, ts) != 0)
		return errno;
	return S_ISDIR(st.st_mode) ? 0 : fileio_xattr_write_fd(bc, fd);
}

/* ---- FIND_FIRST ---- */

/*
 * dbench 4.0 resolves the pattern as a name (a stat that misses, and a
 * case-insensitive scan), then, for a wildcard, reads up to maxcnt
 * entries of the directory.  We look for an entry that matches, "." and
 * ".." included as a CIFS server lists them, and fail with ENOENT when
 * none did (NT_STATUS_NO_SUCH_FILE); dbench 4.0 never fails here.
 */
static int fileio_findfirst(struct backend_client *bc, const struct op *op)
{
	const char *leaf, *name;
	struct fileio_scan s;
	int64_t left = op->a[1];
	unsigned matches = 0;
	int err = 0, found = 0;
	int dirfd = fileio_lookup(bc, op, &leaf, &found, NULL);

	if (dirfd < 0)
		return -dirfd;
	if (!(op->flags & OPF_WILDCARD))
		return found;
	if ((err = fileio_scan_open(bc, dirfd, &s)) != 0)
		return err;
	/* Only whether anything matched decides the outcome: after the first
	 * match the rest is read (as dbench 4.0 reads it) but not matched. */
	struct dosmatch_pattern pat = dosmatch_pattern_of(leaf);
	while (left > 0 && (name = fileio_scan_next(&s, &err)) != NULL) {
		if (matches == 0)
			matches += dosmatch(&pat, name);
		left--;
	}
	fileio_close(&s.fd);
	if (err != 0)
		return err;
	return matches > 0 ? 0 : ENOENT;
}

/* ---- dbench 5.0's SMB dialect ---- */

/* OPEN: open(2) of the path with 5.0's flags (backend_smb5_open_flags),
 * kept in the handle slot the compiler gave the path. */
static int fileio_smb_open(struct backend_client *bc, const struct op *op)
{
	const char *leaf;
	int flags = backend_smb5_open_flags(op->a[0]);
	int dirfd = fileio_parent(bc, op, false, SIZE_MAX, &leaf);

	if (dirfd < 0)
		return -dirfd;
	struct stat st;
	int fd = fileio_open_own(bc, dirfd, leaf, flags | (bc->opts.sync_open ? O_SYNC : 0),
				 NULL, &st);
	if (fd < 0)
		return -fd;
	if (op->handle >= bc->nfds) {	/* not expected to open: keep nothing */
		close(fd);
		return 0;
	}
	verify_ntcreatex(bc->verify, op->handle, op->path, VERIFY_OPENED_FILE,
			 (flags & O_TRUNC) != 0);
	fileio_close(&bc->fds[op->handle]);
	bc->fds[op->handle] = fd;
	return 0;
}

static int fileio_readx(struct backend_client *bc, const struct op *op);
static int fileio_writex(struct backend_client *bc, const struct op *op);

/* READ and WRITE: ReadX and WriteX at the offset the row's expression
 * gives this client, of the whole length. */
BACKEND_HOOK_AT_OFFSET(fileio_smb_read, fileio_readx)
BACKEND_HOOK_AT_OFFSET(fileio_smb_write, fileio_writex)

/* The directory at op->path, opened afresh to be read.  -errno on failure. */
static int fileio_smb_dir(struct backend_client *bc, const struct op *op,
			  struct fileio_scan *s, char *buf)
{
	const char *leaf;
	struct stat st;
	int dirfd = fileio_parent(bc, op, false, SIZE_MAX, &leaf);

	if (dirfd < 0)
		return dirfd;
	int err = fileio_scan_start(s, rmtree_open_dir(dirfd, leaf), buf, &st);
	return -err;
}

/* READDIR: every entry of the directory read, as 5.0's opendir over SMB
 * lists them all. */
static int fileio_smb_readdir(struct backend_client *bc, const struct op *op)
{
	struct fileio_scan s = { .fd = -1 };	/* fileio_smb_dir() fills it when it
						 * succeeds, which -fanalyzer cannot tell */
	int err = 0;

	if (bc->dents == NULL && (bc->dents = talloc_size(bc, FILEIO_DENTS_SIZE)) == NULL)
		return ENOMEM;
	int e = fileio_smb_dir(bc, op, &s, bc->dents);
	if (e < 0)
		return -e;
	while (fileio_scan_next(&s, &err) != NULL)
		;
	fileio_close(&s.fd);
	return err;
}

/* Deltree as dbench 5.0's SMB backend has it: everything beneath the
 * directory goes, the directory stays; a missing one fails. */
static int fileio_smb_deltree(struct backend_client *bc, const struct op *op)
{
	const char *leaf;

	if (op->flags & OPF_CLIENTS_DIR)
		return EACCES;	/* every client's files are under it */
	int dirfd = fileio_parent(bc, op, false, SIZE_MAX, &leaf);
	if (dirfd < 0)
		return -dirfd;
	int err = fileio_rmtree_at(bc, dirfd, leaf, RMTREE_KEEP | RMTREE_DIR_ONLY);
	fileio_invalidate(bc, op->path);
	return err;
}

/* ---- data ---- */

/*
 * One zero-filled buffer that every client process maps (MAP_SHARED) for
 * both ReadX and WriteX: writes send zeros, as dbench 4.0 does, so every
 * file holds zeros and reading into the same buffer keeps it zero.  It
 * costs the clients no private memory and the caches one copy.
 */
static char *fileio_shared_buf;
static size_t fileio_shared_len;
static pid_t fileio_shared_owner;	/* the process that mapped it */

/* Only in the process that mapped it: in a client process the mapping
 * goes with the process (a thousand unmapping one shared mapping at once
 * queue on its lock). */
static int fileio_unmap_shared(char **buf)
{
	if (getpid() == fileio_shared_owner)
		munmap(*buf, fileio_shared_len);
	fileio_shared_buf = NULL;
	fileio_shared_len = 0;
	return 0;
}

static int fileio_prepare(TALLOC_CTX *mem_ctx, const struct program *prog)
{
	size_t len = loadfile_max_transfer(prog);
	char **owner = talloc(mem_ctx, char *);

	if (!owner)
		return ENOMEM;
	len = len ? len : 1;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		talloc_free(owner);
		return errno;
	}
	*owner = fileio_shared_buf = p;
	fileio_shared_len = len;
	if (prog->calls)	/* a recording's writes send a pattern, not zeros */
		sysio_fill_pattern(p, len);
	fileio_shared_owner = getpid();
	talloc_set_destructor(owner, fileio_unmap_shared);
	return 0;
}

/* The ReadX/WriteX buffer in *buf: the shared one when prepare() made it
 * large enough, else the client's own, allocated on first use.  --verify
 * writes and reads data of the client's own: it always has its own. */
static int fileio_buffer(struct backend_client *bc, char **buf, int64_t size)
{
	if (size < 0 || (uint64_t)size > bc->max_xfer)
		return EINVAL;
	if (*buf == NULL && !bc->verify && fileio_shared_buf &&
	    fileio_shared_len >= bc->max_xfer)
		*buf = fileio_shared_buf;
	if (*buf == NULL)
		*buf = talloc_zero_size(bc, bc->max_xfer ? bc->max_xfer : 1);
	return *buf == NULL ? ENOMEM : 0;
}

/* pread/pwrite of a[1] bytes at a[0]: a read of a count other than a[2]
 * fails with ENODATA (the file is shorter than the trace says), a short
 * write with EIO or the error that cut it short.  dbench 4.0 exits on a
 * short write but only warns on a short read.
 * Under --verify the bytes read are checked first: wrong data is the
 * worse news, and EILSEQ says it. */
static int fileio_readx(struct backend_client *bc, const struct op *op)
{
	int fd = fileio_handle(bc, op);
	int err;

	if (fd < 0)
		return -fd;
	if (bc->opts.fake_io)
		return 0;
	if ((err = fileio_buffer(bc, &bc->rbuf, op->a[1])) != 0)
		return err;
	ssize_t n = pread(fd, bc->rbuf, (size_t)op->a[1], (off_t)op->a[0]);
	if (n < 0)
		return errno;
	if (bc->verify && verify_check(bc->verify, op->handle, (uint64_t)op->a[0], bc->rbuf,
				       (size_t)n) != 0)
		return EILSEQ;
	return n == op->a[2] ? 0 : ENODATA;	/* the file is shorter than the trace says */
}

/*
 * --one-byte-write-fix, as dbench 4.0 had it: Windows clients extend a
 * file by writing one byte at its new end.  When that byte is already
 * there, or lies past the end and is zero, a truncate to just past it
 * (or nothing at all) leaves the file as the write would have.  True
 * when the write is thus done without writing.
 */
static bool one_byte_already_there(int fd, const struct op *op, unsigned char byte)
{
	struct stat st;
	unsigned char c;
	off_t at = (off_t)op->a[0];

	if (fstat(fd, &st) != 0)
		return false;
	if (st.st_size > at)
		return pread(fd, &c, 1, at) == 1 && c == byte;
	return byte == 0 && ftruncate(fd, at + 1) == 0;
}

static int fileio_writex(struct backend_client *bc, const struct op *op)
{
	int fd = fileio_handle(bc, op);
	int err;

	if (fd < 0)
		return -fd;
	if (bc->opts.fake_io)
		return 0;
	if ((err = fileio_buffer(bc, &bc->wbuf, op->a[1])) != 0)
		return err;
	/* A short write is retried for the rest, which then fails with the
	 * real reason (ENOSPC, EDQUOT, EFBIG).  Under --verify, what was
	 * written (all or part) holds the pattern. */
	size_t done = 0, size = (size_t)op->a[1];
	if (bc->verify)
		verify_fill(bc->verify, op->handle, (uint64_t)op->a[0], bc->wbuf, size);
	if (size == 1 && bc->opts.one_byte_write_fix && one_byte_already_there(fd, op, bc->wbuf[0]))
		done = size;
	while (done < size) {
		ssize_t n = pwrite(fd, bc->wbuf + done, size - done, (off_t)op->a[0] + done);
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			break;
		}
		done += n;
	}
	if (bc->verify)
		verify_wrote(bc->verify, op->handle, (uint64_t)op->a[0], done);
	if (err != 0)
		return err;
	if ((int64_t)done != op->a[2])
		return EIO;
	if (bc->opts.fsync_writes && fsync(fd) != 0)
		return errno;
	return 0;
}

/* A POSIX byte-range lock on the handle.  dbench 4.0 uses F_SETLKW; a
 * client's locks never conflict with its own, so F_SETLK behaves the
 * same and cannot hang a run. */
static int fileio_lock(struct backend_client *bc, const struct op *op, short type)
{
	int fd = fileio_handle(bc, op);
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = (off_t)op->a[0],
		.l_len = (off_t)op->a[1],
	};

	if (fd < 0)
		return -fd;
	return fcntl(fd, F_SETLK, &fl) == 0 ? 0 : errno;
}

static int fileio_lockx(struct backend_client *bc, const struct op *op)
{
	return fileio_lock(bc, op, F_WRLCK);
}

static int fileio_unlockx(struct backend_client *bc, const struct op *op)
{
	return fileio_lock(bc, op, F_UNLCK);
}

static int fileio_flush(struct backend_client *bc, const struct op *op)
{
	int fd = fileio_handle(bc, op);

	if (fd < 0)
		return -fd;
	return fsync(fd) == 0 ? 0 : errno;
}

/* ---- the client ---- */


static int *fileio_fd_table(struct backend_client *bc, unsigned n)
{
	int *t = talloc_array(bc, int, n ? n : 1);

	for (unsigned i = 0; t && i < n; i++)
		t[i] = -1;
	return t;
}

/*
 * What a client holds at most at once: its state, its two descriptor
 * tables and the scan buffer, and during a Deltree (or the cleanup, one
 * level more) the walk of the deepest directory the program names
 * (rmtree_mem(): a buffer for each of the few levels open at once).  Not
 * --verify's records and own transfer buffers.
 */
static size_t fileio_client_mem(const struct program *prog, const struct backend_options *opts)
{
	size_t depth = 1;

	(void)opts;
	for (size_t i = 0; i < prog->ndirs; i++) {
		size_t d = 1;
		for (const char *c = prog->dirs[i]; *c; c++)
			d += *c == '/';
		if (prog->dirs[i][0] && d + 1 > depth)
			depth = d + 1;
	}
	return sizeof(struct backend_client) + (prog->max_handles + prog->ndirs) * sizeof(int) +
	       FILEIO_DENTS_SIZE + rmtree_mem(depth) + 4 * BACKEND_ALLOC_OVERHEAD +
	       (prog->calls ? sysio_mem(prog) : 0);
}

/*
 * A recording's pass starts in an empty client directory holding its
 * initial state: whatever the last pass (or a run before, --skip-cleanup)
 * left goes first, the directory made anew.  0 or a positive errno.
 */
static int fileio_sys_start(struct backend_client *bc)
{
	if (bc->sys)
		sysio_close_all(bc->sys);
	fileio_invalidate(bc, "");
	int err = fileio_rmtree_at(bc, bc->clients_fd, bc->name, RMTREE_RESTORE);
	if (err && err != ENOENT)
		return err;
	if (mkdirat(bc->clients_fd, bc->name, 0755) != 0)
		return errno;
	if (!bc->sys) {
		bc->sys = sysio_new(bc, bc->prog, bc->clients_fd, bc->name, fileio_shared_buf,
				    fileio_shared_len);
		return bc->sys ? 0 : errno;
	}
	return sysio_pass_start(bc->sys);
}

/* A call of the system-call dialect. */
static int fileio_syscall(struct backend_client *bc, const struct op *op)
{
	return sysio_op(bc->sys, op);
}

static struct backend_client *fileio_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
						unsigned id, const struct program *prog,
						const struct backend_options *opts,
						struct verify *verify, char **err)
{
	struct backend_client *bc = talloc(mem_ctx, struct backend_client);

	if (bc == NULL)
		goto nomem;
	*bc = (struct backend_client){ .prog = prog, .opts = *opts,
				       .clients_fd = -1, .client_fd = -1,
				       .nfds = prog->max_handles, .ndirs = prog->ndirs,
				       .rng = 0x9e3779b97f4a7c15ull ^ id };
	bc->ost = backend_offset_state(id, opts);
	backend_client_name(bc->name, sizeof(bc->name), opts, id);
	bc->fds = fileio_fd_table(bc, bc->nfds);
	bc->dir_fds = fileio_fd_table(bc, (unsigned)bc->ndirs);	/* <= LOADFILE_MAX_DIRS */
	if (bc->fds == NULL || bc->dir_fds == NULL)
		goto nomem;
	talloc_set_destructor(bc, fileio_destructor);
	bc->clients_fd = fcntl(localdir_clients_fd(t), F_DUPFD_CLOEXEC, 0);
	if (bc->clients_fd < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot use clients directory for client %u: %s",
				       id, strerror(errno));
		talloc_free(bc);
		return NULL;
	}
	/* The client directory exists from the start, so that a loadfile need
	 * not create it; one left behind must be a real directory. */
	if ((mkdirat(bc->clients_fd, bc->name, 0755) < 0 && errno != EEXIST) ||
	    fileio_client_fd(bc) < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot use directory clients/%s: %s", bc->name,
				       localdir_strerror_at(bc->clients_fd, bc->name, errno));
		talloc_free(bc);
		return NULL;
	}
	localdir_owners(&bc->owners, bc->client_fd);
	bc->max_xfer = loadfile_max_transfer(prog);
	bc->verify = verify;
	return bc;
nomem:
	talloc_free(bc);
	*err = talloc_asprintf(mem_ctx, "client %u: out of memory", id);
	return NULL;
}

/* Why the last operation's file was refused, once. */
static const char *fileio_failure_detail(struct backend_client *bc)
{
	return backend_detail_taken(&bc->has_detail, bc->detail);
}

static void fileio_pass_end(struct backend_client *bc)
{
	fileio_close_handles(bc);
	if (bc->sys)
		sysio_close_all(bc->sys);
}

/* Each pass of a recording starts from its initial state. */
static int fileio_pass_begin(struct backend_client *bc)
{
	return bc->prog->calls ? fileio_sys_start(bc) : 0;
}

/* The client's directory is emptied and left for localdir_close() to
 * remove with the others: a thousand clients each removing its own from
 * DIR/clients queue on that directory's lock, each waiting for the one
 * before it to get a CPU again (some ten a second on two busy CPUs). */
static int fileio_cleanup(struct backend_client *bc)
{
	fileio_close_handles(bc);
	if (bc->sys)
		sysio_close_all(bc->sys);
	fileio_invalidate(bc, "");
	return fileio_rmtree_at(bc, bc->clients_fd, bc->name, RMTREE_KEEP | RMTREE_RESTORE);
}

const struct backend fileio_backend = {
	.name = "fileio",
	.summary = "files beneath -D DIR, by system calls (the default)",
	.is_default = true,
	.target_open = localdir_open,
	.target_close = localdir_close,
	.target_space = localdir_space,
	.local_clients_fd = localdir_clients_fd,
	.prepare = fileio_prepare,
	.client_mem = fileio_client_mem,
	.client_new = fileio_client_new,
	.op = {
		[OP_NTCREATEX] = fileio_ntcreatex,
		[OP_CLOSE] = fileio_closeop,
		[OP_RENAME] = fileio_rename,
		[OP_UNLINK] = fileio_unlink,
		[OP_DELTREE] = fileio_deltree,
		[OP_RMDIR] = fileio_rmdir,
		[OP_MKDIR] = fileio_mkdir,
		[OP_QPATHINFO] = fileio_qpathinfo,
		[OP_QFILEINFO] = fileio_qfileinfo,
		[OP_QFSINFO] = fileio_qfsinfo,
		[OP_SFILEINFO] = fileio_sfileinfo,
		[OP_FINDFIRST] = fileio_findfirst,
		[OP_WRITEX] = fileio_writex,
		[OP_READX] = fileio_readx,
		[OP_LOCKX] = fileio_lockx,
		[OP_UNLOCKX] = fileio_unlockx,
		[OP_FLUSH] = fileio_flush,
		[OP_SMB_OPEN] = fileio_smb_open,
		[OP_SMB_CLOSE] = fileio_closeop,
		[OP_SMB_READ] = fileio_smb_read,
		[OP_SMB_WRITE] = fileio_smb_write,
		[OP_SMB_MKDIR] = fileio_mkdir,
		[OP_SMB_RMDIR] = fileio_rmdir,
		[OP_SMB_UNLINK] = fileio_unlink,
		[OP_SMB_READDIR] = fileio_smb_readdir,
		[OP_SMB_DELTREE] = fileio_smb_deltree,
		[OP_SYS_FIRST ... OP_SYS_LAST] = fileio_syscall,
	},
	.verifies = true,
	.failure_detail = fileio_failure_detail,
	.pass_end = fileio_pass_end,
	.pass_begin = fileio_pass_begin,
	.cleanup = fileio_cleanup,
};
