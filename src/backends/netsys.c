/*
 * netsys.c - the system-call dialect replayed over a network file
 * protocol (see netsys.h): the recording's descriptors, offsets and
 * listings kept here, each call made as the protocol's nearest request
 * through the backend's table, its outcome compared with the recorded
 * one.
 *
 * A descriptor is a slot holding an open file description (struct
 * netsys_desc): the protocol's handle (none for a directory, which is
 * named by its path), the offset that read, write and lseek move, the
 * access mode and O_APPEND, and a directory's listing for getdents64.
 * dup, fcntl's F_DUPFD and fork put one description into two slots, as
 * the kernel shares one; it is closed when its last slot closes.
 *
 * Confinement: the paths of a recording never hold ".." (the compiler
 * refuses them), and the backend puts them beneath the client's
 * directory; a symbolic link the replay makes whose target is absolute
 * or climbs above the client's directory gets a target that leads to
 * the same place inside it (as openat2's RESOLVE_IN_ROOT resolves it for
 * fileio), so that the server, following it, stays there.
 *
 * It knows nothing of the stats, the timing or how a backend reaches its
 * server.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/netsys.h"
#include "backends/sysio.h"

#define NETSYS_CHUNK (64 * 1024)	/* the least buffer: init files, copies */
#define NETSYS_MAX_TARGET 4096		/* a symbolic link's target, rewritten */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

struct netsys_desc {
	unsigned refs;		/* slots holding it; 0: free */
	void *file;		/* the protocol's handle; NULL for a directory */
	bool dir;
	bool append;		/* O_APPEND: each write at the end */
	int accmode;		/* O_RDONLY, O_WRONLY or O_RDWR */
	const char *path;	/* what it was opened on (the program's) */
	uint64_t off;
	/* a directory's listing, read at its first getdents64: each
	 * entry's size in a linux_dirent64, and how far calls have read */
	uint16_t *reclens;
	size_t nents, pos;
	bool listed, nomem;
};

struct netsys {
	const struct program *prog;
	const struct netsys_proto *p;
	struct backend_client *bc;
	struct netsys_desc **fds;	/* by slot, NULL when closed */
	struct netsys_desc *descs;	/* nfds of them: no more are ever open */
	unsigned nfds;
	char *rbuf, *wbuf;		/* what calls read into, what writes send */
	size_t buflen;
	pthread_mutex_t lock;
};

/* ---- what can be replayed ---- */

bool netsys_can(const struct netsys_proto *p, const struct op *op)
{
	switch (op->type) {
	case OP_SYS_FALLOCATE: case OP_SYS_FLOCK:
	case OP_SYS_GETXATTR: case OP_SYS_LGETXATTR: case OP_SYS_FGETXATTR:
	case OP_SYS_SETXATTR: case OP_SYS_LSETXATTR: case OP_SYS_FSETXATTR:
	case OP_SYS_LISTXATTR: case OP_SYS_LLISTXATTR: case OP_SYS_FLISTXATTR:
	case OP_SYS_REMOVEXATTR: case OP_SYS_LREMOVEXATTR: case OP_SYS_FREMOVEXATTR:
		return false;
	case OP_SYS_FSYNC: case OP_SYS_FDATASYNC: case OP_SYS_SYNC_FILE_RANGE: case OP_SYS_SYNCFS:
		return p->fsync != NULL;
	case OP_SYS_LINK: case OP_SYS_LINKAT:
		return p->link != NULL;
	case OP_SYS_SYMLINK: case OP_SYS_SYMLINKAT:
		return p->symlink != NULL;
	case OP_SYS_READLINK: case OP_SYS_READLINKAT:
		return p->readlink != NULL;
	case OP_SYS_CHOWN: case OP_SYS_LCHOWN: case OP_SYS_FCHOWN: case OP_SYS_FCHOWNAT:
		return p->chown != NULL;
	case OP_SYS_LSEEK:
		return op->a[1] == SEEK_SET || op->a[1] == SEEK_CUR || op->a[1] == SEEK_END;
	case OP_SYS_RENAMEAT2:
		return (op->a[0] & ~(int64_t)RENAME_NOREPLACE) == 0;
	case OP_SYS_FCNTL:
		return op->a[0] == F_DUPFD || op->a[0] == F_DUPFD_CLOEXEC || op->a[0] == F_GETFD ||
		       op->a[0] == F_SETFD || op->a[0] == F_GETFL || op->a[0] == F_SETFL;
	default:
		return true;
	}
}

unsigned netsys_check_program(const struct netsys_proto *p, const char *name,
			      const struct program *prog, char **report)
{
	uint64_t n[OP_COUNT] = { 0 }, links = 0;
	unsigned total = 0;

	for (size_t i = 0; i < prog->nops; i++) {
		const struct op *op = loadfile_op(prog, i);
		if (op_is_syscall(op->type) && !netsys_can(p, op))
			n[op->type] += op->repeat;
	}
	for (int t = 0; t < OP_COUNT; t++) {
		if (!n[t])
			continue;
		*report = talloc_asprintf_append(*report,
			"%s: %" PRIu64 " call%s not supported by the %s backend (no request of its"
			" protocol does it)\n", op_table[t].name, n[t], n[t] == 1 ? "" : "s", name);
		total += (unsigned)n[t];
	}
	for (size_t i = 0; i < prog->ninit; i++)
		links += prog->init[i].kind == INIT_SYMLINK;
	if (links && !p->symlink)
		*report = talloc_asprintf_append(*report,
			"init symlink: %" PRIu64 " symbolic link%s of the initial state not made by"
			" the %s backend (its protocol's client cannot)\n", links,
			links == 1 ? "" : "s", name);
	return total;
}

/* ---- descriptors ---- */

static void ns_release(struct netsys *s, struct netsys_desc *d)
{
	if (--d->refs > 0)
		return;
	if (d->file)
		s->p->close(s->bc, d->file);
	TALLOC_FREE(d->reclens);
	*d = (struct netsys_desc){ 0 };
}

/* Put d into `slot` (closing what it held); a slot beyond the table
 * (the recording did not keep it) takes nothing. */
static void ns_install(struct netsys *s, uint16_t slot, struct netsys_desc *d)
{
	d->refs++;
	if (slot >= s->nfds) {
		ns_release(s, d);
		return;
	}
	if (s->fds[slot])
		ns_release(s, s->fds[slot]);
	s->fds[slot] = d;
}

static struct netsys_desc *ns_free_desc(struct netsys *s)
{
	for (unsigned i = 0; i < s->nfds; i++)
		if (s->descs[i].refs == 0)
			return &s->descs[i];
	return NULL;
}

/* The description of a slot; NULL with *skip when the replay did not
 * open it (the call is not made), NULL alone for a slot the recording
 * left closed (the call sees EBADF). */
static struct netsys_desc *ns_desc(const struct netsys *s, uint16_t slot, bool *skip)
{
	*skip = false;
	if (slot == HANDLE_NONE)
		return NULL;
	*skip = slot >= s->nfds || !s->fds[slot];
	return *skip ? NULL : s->fds[slot];
}

/* The outcome: err, else value against the recorded result. */
static int ns_outcome(const struct op *op, const struct call *c, int err, int64_t value)
{
	if (err)
		return err;
	return value == c->result || (op->flags & OPF_ANY_STATUS) ? 0 : BACKEND_OTHER_RESULT;
}

/* ---- symbolic links' targets ---- */

/*
 * The target a link at `path` gets: `target` itself, unless it is
 * absolute or climbs above the client's directory, when it becomes a
 * relative one to the same place inside (a ".." at the top staying
 * there, as openat2's RESOLVE_IN_ROOT has it), in buf.  NULL when that
 * does not fit.
 */
static const char *ns_target(const char *path, const char *target, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/');
	size_t depth = 0, level, len = 0;

	for (const char *c = path; slash && c <= slash; c++)
		depth += *c == '/';
	level = *target == '/' ? 0 : depth;
	bool escapes = *target == '/';
	for (const char *c = target; *c && !escapes;) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			escapes = level-- == 0;
		else if (n && !(n == 1 && c[0] == '.'))
			level++;
		c += n + (c[n] == '/');
	}
	if (!escapes)
		return target;
	/* the place from the top: the link's directory (for a relative
	 * target), then each component */
	char norm[NETSYS_MAX_TARGET];
	size_t nlen = 0;
	if (*target != '/' && slash)
		nlen = (size_t)snprintf(norm, sizeof(norm), "%.*s", (int)(slash - path), path);
	norm[nlen] = '\0';
	for (const char *c = target; *c;) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			char *up = strrchr(norm, '/');
			nlen = up ? (size_t)(up - norm) : 0;
			norm[nlen] = '\0';
		} else if (n && !(n == 1 && c[0] == '.')) {
			if (nlen + n + 2 > sizeof(norm))
				return NULL;
			nlen += (size_t)snprintf(norm + nlen, sizeof(norm) - nlen, "%s%.*s",
						 nlen ? "/" : "", (int)n, c);
		}
		c += n + (c[n] == '/');
	}
	for (size_t i = 0; i < depth; i++) {
		if (len + 4 > cap)
			return NULL;
		memcpy(buf + len, "../", 4);
		len += 3;
	}
	if (len + nlen + 2 > cap)
		return NULL;
	snprintf(buf + len, cap - len, "%s", nlen ? norm : len ? "" : ".");
	if (!nlen && len)
		buf[len - 1] = '\0';	/* "../.." for the top itself */
	return buf;
}

static int ns_symlink(struct netsys *s, const char *target, const char *path)
{
	char buf[NETSYS_MAX_TARGET];
	const char *t = ns_target(path, target, buf, sizeof(buf));

	return t ? s->p->symlink(s->bc, t, path) : ENAMETOOLONG;
}

/* ---- opening ---- */

/* Open op's path as the recorded flags say: a regular file through the
 * protocol, a directory by its name alone. */
static int ns_open(struct netsys *s, const struct op *op, const struct call *c)
{
	int flags = (int)op->a[0];
	struct netsys_attr a;
	void *file = NULL;
	bool dir = false;
	int err;

	if (flags & O_DIRECTORY) {
		err = s->p->stat(s->bc, op->path, !(flags & O_NOFOLLOW), &a);
		err = err ? err : S_ISDIR(a.mode) ? 0 : ENOTDIR;
		dir = true;
	} else {
		err = s->p->open(s->bc, op->path, flags & (O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC),
				 (uint32_t)op->a[1] & 07777, &file, &dir);
	}
	if (err)
		return err;
	struct netsys_desc *d = ns_free_desc(s);
	if (c->result < 0 || op->handle == HANDLE_NONE || !d) {
		if (file)
			s->p->close(s->bc, file);
		return (op->flags & OPF_ANY_STATUS) ? 0 : BACKEND_OTHER_RESULT;
	}
	*d = (struct netsys_desc){ .file = file, .dir = dir, .append = (flags & O_APPEND) != 0,
				   .accmode = flags & O_ACCMODE, .path = op->path };
	ns_install(s, op->handle, d);
	return 0;
}

/* dup, dup2, dup3, fcntl's F_DUPFD: the description in a second slot. */
static int ns_dup(struct netsys *s, const struct op *op, const struct call *c,
		  struct netsys_desc *d)
{
	if (!d)
		return EBADF;
	if (c->handle2 == op->handle)	/* dup2(fd, fd) */
		return 0;
	if (c->result < 0 || c->handle2 == HANDLE_NONE)
		return (op->flags & OPF_ANY_STATUS) ? 0 : BACKEND_OTHER_RESULT;
	ns_install(s, c->handle2, d);
	return 0;
}

/* fork: the child's slots share the parent's descriptions; exec: the
 * close-on-exec ones close. */
static int ns_table(struct netsys *s, const struct op *op)
{
	const uint16_t *l = &s->prog->slot_lists[op->a[0]];

	if (op->type == OP_SYS_EXEC && op->a[2] == EXEC_UNLOCK)
		return 0;	/* no lock was taken: flock is not performed */
	for (int64_t i = 0; i < op->a[1]; i++) {
		if (op->type == OP_SYS_EXEC) {
			if (l[i] < s->nfds && s->fds[l[i]]) {
				ns_release(s, s->fds[l[i]]);
				s->fds[l[i]] = NULL;
			}
			continue;
		}
		if (l[2 * i] < s->nfds && s->fds[l[2 * i]])
			ns_install(s, l[2 * i + 1], s->fds[l[2 * i]]);
	}
	return 0;
}

/* ---- moving bytes ---- */

/* Read up to len bytes of d at off (the description's own offset, moved
 * on, for off < 0) into buf; *done what came. */
static int ns_read(struct netsys *s, struct netsys_desc *d, int64_t off, size_t len,
		   char *buf, size_t *done)
{
	*done = 0;
	if (d->dir)
		return EISDIR;
	if (d->accmode == O_WRONLY)
		return EBADF;
	int err = s->p->pread(s->bc, d->file, off < 0 ? d->off : (uint64_t)off, len, buf, done);
	if (!err && off < 0)
		d->off += *done;
	return err;
}

static int ns_write(struct netsys *s, struct netsys_desc *d, int64_t off, size_t len,
		    const char *buf, size_t *done)
{
	struct netsys_attr a;
	int err;

	*done = 0;
	if (d->dir)
		return EISDIR;
	if (d->accmode == O_RDONLY)
		return EBADF;
	if (off < 0 && d->append) {	/* at the end, as the file is now */
		if ((err = s->p->fstat(s->bc, d->file, &a)) != 0)
			return err;
		d->off = a.size;
	}
	err = s->p->pwrite(s->bc, d->file, off < 0 ? d->off : (uint64_t)off, len, buf, done);
	if (!err && off < 0)
		d->off += *done;
	return err;
}

/* copy_file_range and sendfile: what the protocol's client would do
 * without a copy on the server, a read and a write a chunk at a time. */
static int ns_copy(struct netsys *s, struct netsys_desc *in, int64_t in_off,
		   struct netsys_desc *out, int64_t out_off, uint64_t len, int64_t *moved)
{
	int err = 0;

	*moved = 0;
	while ((uint64_t)*moved < len && !err) {
		size_t n = len - (uint64_t)*moved < s->buflen ? (size_t)(len - (uint64_t)*moved)
							     : s->buflen;
		size_t got, put;
		err = ns_read(s, in, in_off < 0 ? -1 : in_off + *moved, n, s->rbuf, &got);
		if (err || got == 0)
			break;
		err = ns_write(s, out, out_off < 0 ? -1 : out_off + *moved, got, s->rbuf, &put);
		*moved += (int64_t)put;
		if (put < got)
			break;
	}
	return *moved > 0 ? 0 : err;
}

static int ns_move(struct netsys *s, const struct op *op, const struct call *c,
		   struct netsys_desc *d)
{
	size_t len = (size_t)op->a[2], done = 0;
	int64_t moved = 0;
	bool skip;
	int err;

	switch (op->type) {
	case OP_SYS_READ: case OP_SYS_READV: case OP_SYS_PREAD: case OP_SYS_PREADV:
		err = ns_read(s, d, op->type == OP_SYS_READ || op->type == OP_SYS_READV ? -1 : op->a[0],
			      len, s->rbuf, &done);
		return ns_outcome(op, c, err, (int64_t)done);
	case OP_SYS_WRITE: case OP_SYS_WRITEV: case OP_SYS_PWRITE: case OP_SYS_PWRITEV:
		err = ns_write(s, d, op->type == OP_SYS_WRITE || op->type == OP_SYS_WRITEV ? -1
										 : op->a[0],
			       len, s->wbuf, &done);
		return ns_outcome(op, c, err, (int64_t)done);
	case OP_SYS_COPY_FILE_RANGE: {
		struct netsys_desc *out = ns_desc(s, c->handle2, &skip);
		if (skip)
			return BACKEND_SKIPPED;
		err = out ? ns_copy(s, d, op->a[0], out, c->x[0], len, &moved) : EBADF;
		return ns_outcome(op, c, err, moved);
	}
	case OP_SYS_SENDFILE: {
		struct netsys_desc *in = ns_desc(s, c->handle2, &skip);
		if (skip)
			return BACKEND_SKIPPED;
		err = in ? ns_copy(s, in, op->a[0], d, -1, len, &moved) : EBADF;
		return ns_outcome(op, c, err, moved);
	}
	default:
		return BACKEND_NOT_SUPPORTED;
	}
}

/* ---- directories ---- */

static void ns_listed(void *arg, const char *name)
{
	struct netsys_desc *d = arg;
	uint16_t *r = talloc_realloc(NULL, d->reclens, uint16_t, d->nents + 1);

	if (!r) {
		d->nomem = true;
		return;
	}
	d->reclens = r;
	/* a linux_dirent64: 19 bytes, the name and its NUL, to 8 bytes */
	r[d->nents++] = (uint16_t)((19 + strlen(name) + 1 + 7) & ~(size_t)7);
}

/* getdents64: the directory listed at the first call, then as many
 * entries a call as fit in LEN, as the kernel hands them out. */
static int ns_getdents(struct netsys *s, const struct op *op, const struct call *c,
		       struct netsys_desc *d)
{
	size_t cap = (size_t)op->a[0], used = 0;

	if (!d->dir)
		return ENOTDIR;
	if (!d->listed) {
		TALLOC_FREE(d->reclens);
		d->nents = d->pos = 0;
		d->nomem = false;
		int err = s->p->list(s->bc, d->path, ns_listed, d);
		if (!err && d->nomem)
			err = ENOMEM;
		if (err)
			return err;
		d->listed = true;
	}
	while (d->pos < d->nents && used + d->reclens[d->pos] <= cap)
		used += d->reclens[d->pos++];
	if (used == 0 && d->pos < d->nents)
		return EINVAL;	/* LEN holds not even one entry */
	return ns_outcome(op, c, 0, (int64_t)used);
}

static int ns_lseek(struct netsys *s, const struct op *op, const struct call *c,
		    struct netsys_desc *d)
{
	struct netsys_attr a = { 0 };
	int64_t base = op->a[1] == SEEK_SET ? 0 : (int64_t)d->off;

	if (op->a[1] == SEEK_END && !d->dir) {
		int err = s->p->fstat(s->bc, d->file, &a);
		if (err)
			return err;
		base = (int64_t)a.size;
	}
	if (base + op->a[0] < 0)
		return EINVAL;
	d->off = (uint64_t)(base + op->a[0]);
	if (d->dir && d->off == 0)
		d->listed = false;	/* rewound: listed again */
	return ns_outcome(op, c, 0, (int64_t)d->off);
}

/* ---- calls on descriptors ---- */

static int ns_fcntl(struct netsys *s, const struct op *op, const struct call *c,
		    struct netsys_desc *d)
{
	if (op->a[0] == F_DUPFD || op->a[0] == F_DUPFD_CLOEXEC)
		return ns_dup(s, op, c, d);
	if (!d)
		return EBADF;
	if (op->a[0] == F_SETFL)
		d->append = (op->a[1] & O_APPEND) != 0;
	/* F_GETFD and F_GETFL answer what the recorded process's table
	 * held: no request of a protocol asks it */
	return ns_outcome(op, c, 0, op->a[0] == F_GETFD || op->a[0] == F_GETFL ? c->result : 0);
}

static int ns_on_fd(struct netsys *s, const struct op *op, const struct call *c)
{
	bool skip;
	struct netsys_desc *d = ns_desc(s, op->handle, &skip);
	struct netsys_attr a;
	int err;

	if (skip)
		return BACKEND_SKIPPED;
	if (op->type == OP_SYS_DUP || op->type == OP_SYS_DUP2 || op->type == OP_SYS_DUP3)
		return ns_dup(s, op, c, d);
	if (op->type == OP_SYS_FCNTL)
		return ns_fcntl(s, op, c, d);
	if (!d)
		return EBADF;
	if (op_table[op->type].bytes != BYTES_NONE)
		return ns_move(s, op, c, d);
	switch (op->type) {
	case OP_SYS_CLOSE:
		ns_release(s, d);
		s->fds[op->handle] = NULL;
		return ns_outcome(op, c, 0, 0);
	case OP_SYS_LSEEK: return ns_lseek(s, op, c, d);
	case OP_SYS_GETDENTS: return ns_getdents(s, op, c, d);
	case OP_SYS_FSYNC: case OP_SYS_FDATASYNC: case OP_SYS_SYNC_FILE_RANGE: case OP_SYS_SYNCFS:
		err = d->dir ? 0 : s->p->fsync(s->bc, d->file);	/* a directory's names are stable */
		break;
	case OP_SYS_FTRUNCATE:
		err = d->dir ? EINVAL : d->accmode == O_RDONLY ? EINVAL
			     : s->p->ftruncate(s->bc, d->file, (uint64_t)op->a[0]);
		break;
	case OP_SYS_FSTAT:
		err = d->dir ? s->p->stat(s->bc, d->path, true, &a) : s->p->fstat(s->bc, d->file, &a);
		break;
	/* no request on a handle of either protocol's client: by its name */
	case OP_SYS_FCHMOD: err = s->p->chmod(s->bc, d->path, (uint32_t)op->a[0]); break;
	case OP_SYS_FCHOWN: err = s->p->chown(s->bc, d->path, true); break;
	case OP_SYS_FUTIMENS: err = s->p->utimes(s->bc, d->path); break;
	case OP_SYS_FSTATFS: err = s->p->statfs(s->bc, d->path); break;
	case OP_SYS_FCHDIR: err = d->dir ? 0 : ENOTDIR; break;
	default: return BACKEND_NOT_SUPPORTED;
	}
	return ns_outcome(op, c, err, 0);
}

/* ---- calls on names ---- */

static int ns_truncate(struct netsys *s, const char *path, uint64_t len)
{
	void *file;
	bool dir;
	int err = s->p->open(s->bc, path, O_WRONLY, 0, &file, &dir);

	if (err)
		return err;
	err = s->p->ftruncate(s->bc, file, len);
	s->p->close(s->bc, file);
	return err;
}

static int ns_readlink(struct netsys *s, const struct op *op, const struct call *c)
{
	size_t len = 0;
	int err = s->p->readlink(s->bc, op->path, &len);

	return ns_outcome(op, c, err, (int64_t)(len < (uint64_t)op->a[0] ? len : (size_t)op->a[0]));
}

/* rename, renameat, renameat2 (RENAME_NOREPLACE: the new name looked up
 * first, no protocol having the flag), link, linkat. */
static int ns_two_names(struct netsys *s, const struct op *op, const struct call *c)
{
	struct netsys_attr a;
	int err = 0;

	if (op->type == OP_SYS_LINK || op->type == OP_SYS_LINKAT)
		return ns_outcome(op, c, s->p->link(s->bc, op->path, op->path2), 0);
	if (op->type == OP_SYS_RENAMEAT2 && (op->a[0] & RENAME_NOREPLACE)) {
		err = s->p->stat(s->bc, op->path2, false, &a);
		err = err == 0 ? EEXIST : err == ENOENT ? 0 : err;
	}
	return ns_outcome(op, c, err ? err : s->p->rename(s->bc, op->path, op->path2), 0);
}

static int ns_on_name(struct netsys *s, const struct op *op, const struct call *c)
{
	const struct netsys_proto *p = s->p;
	const char *path = op->path;
	struct netsys_attr a;
	int err;

	switch (op->type) {
	case OP_SYS_STAT: err = p->stat(s->bc, path, true, &a); break;
	case OP_SYS_LSTAT: err = p->stat(s->bc, path, false, &a); break;
	case OP_SYS_NEWFSTATAT: case OP_SYS_STATX:
		err = p->stat(s->bc, path, !(op->a[0] & AT_SYMLINK_NOFOLLOW), &a);
		break;
	case OP_SYS_ACCESS: case OP_SYS_FACCESSAT:
		err = p->access ? p->access(s->bc, path, (int)op->a[0]) : p->stat(s->bc, path, true, &a);
		break;
	case OP_SYS_TRUNCATE: err = ns_truncate(s, path, (uint64_t)op->a[0]); break;
	case OP_SYS_MKDIR: case OP_SYS_MKDIRAT: err = p->mkdir(s->bc, path, (uint32_t)op->a[0]); break;
	case OP_SYS_RMDIR: err = p->rmdir(s->bc, path); break;
	case OP_SYS_UNLINK: err = p->unlink(s->bc, path); break;
	case OP_SYS_UNLINKAT:
		err = (op->a[0] & AT_REMOVEDIR) ? p->rmdir(s->bc, path) : p->unlink(s->bc, path);
		break;
	case OP_SYS_SYMLINK: case OP_SYS_SYMLINKAT: err = ns_symlink(s, op->path2, path); break;
	case OP_SYS_READLINK: case OP_SYS_READLINKAT: return ns_readlink(s, op, c);
	case OP_SYS_CHMOD: case OP_SYS_FCHMODAT: err = p->chmod(s->bc, path, (uint32_t)op->a[0]); break;
	case OP_SYS_CHOWN: err = p->chown(s->bc, path, true); break;
	case OP_SYS_LCHOWN: err = p->chown(s->bc, path, false); break;
	case OP_SYS_FCHOWNAT: err = p->chown(s->bc, path, !(op->a[2] & AT_SYMLINK_NOFOLLOW)); break;
	case OP_SYS_UTIMENSAT: err = p->utimes(s->bc, path); break;
	case OP_SYS_STATFS: err = p->statfs(s->bc, path); break;
	case OP_SYS_CHDIR:
		err = p->stat(s->bc, path, true, &a);
		err = err ? err : S_ISDIR(a.mode) ? 0 : ENOTDIR;
		break;
	default: return BACKEND_NOT_SUPPORTED;
	}
	return ns_outcome(op, c, err, 0);
}

static int ns_call(struct netsys *s, const struct op *op, const struct call *c)
{
	switch (op->type) {
	case OP_SYS_OPEN: case OP_SYS_OPENAT: case OP_SYS_CREAT:
		return ns_open(s, op, c);
	case OP_SYS_RENAME: case OP_SYS_RENAMEAT: case OP_SYS_RENAMEAT2:
	case OP_SYS_LINK: case OP_SYS_LINKAT:
		return ns_two_names(s, op, c);
	case OP_SYS_THREAD:
		return 0;
	case OP_SYS_FORK: case OP_SYS_EXEC:
		return c->result < 0 ? 0 : ns_table(s, op);
	case OP_SYS_STAT: case OP_SYS_LSTAT: case OP_SYS_NEWFSTATAT: case OP_SYS_STATX:
	case OP_SYS_ACCESS: case OP_SYS_FACCESSAT: case OP_SYS_TRUNCATE: case OP_SYS_MKDIR:
	case OP_SYS_MKDIRAT: case OP_SYS_RMDIR: case OP_SYS_UNLINK: case OP_SYS_UNLINKAT:
	case OP_SYS_SYMLINK: case OP_SYS_SYMLINKAT: case OP_SYS_READLINK: case OP_SYS_READLINKAT:
	case OP_SYS_CHMOD: case OP_SYS_FCHMODAT: case OP_SYS_CHOWN: case OP_SYS_LCHOWN:
	case OP_SYS_FCHOWNAT: case OP_SYS_UTIMENSAT: case OP_SYS_STATFS: case OP_SYS_CHDIR:
		return ns_on_name(s, op, c);
	default:
		return ns_on_fd(s, op, c);
	}
}

int netsys_op(struct netsys *s, const struct op *op)
{
	if (!netsys_can(s->p, op))
		return BACKEND_NOT_SUPPORTED;
	pthread_mutex_lock(&s->lock);
	int r = ns_call(s, op, loadfile_call(s->prog, op));
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* ---- the initial state ---- */

/* An init file of e->size bytes of the pattern, or init data's bytes
 * written into one. */
static int ns_make_file(struct netsys *s, const struct init_entry *e)
{
	bool data = e->kind == INIT_DATA;
	void *file;
	bool dir;
	int err = s->p->open(s->bc, e->path, data ? O_WRONLY : O_WRONLY | O_CREAT | O_EXCL,
			     e->mode & 07777, &file, &dir);
	size_t done = 0;

	if (err)
		return err;
	if (data) {
		err = s->p->pwrite(s->bc, file, (uint64_t)e->size, e->len, (const char *)e->data, &done);
		err = err ? err : done < e->len ? EIO : 0;
	}
	for (int64_t at = 0; !data && at < e->size && !err; at += (int64_t)done) {
		size_t n = e->size - at < (int64_t)s->buflen ? (size_t)(e->size - at) : s->buflen;
		err = s->p->pwrite(s->bc, file, (uint64_t)at, n, s->wbuf, &done);
		err = err ? err : done == 0 ? EIO : 0;
	}
	s->p->close(s->bc, file);
	return err;
}

int netsys_pass_start(struct netsys *s)
{
	netsys_close_all(s);
	for (size_t i = 0; i < s->prog->ninit; i++) {
		const struct init_entry *e = &s->prog->init[i];
		int err = 0;
		if (e->kind == INIT_DIR)
			err = s->p->mkdir(s->bc, e->path, e->mode & 07777);
		else if (e->kind == INIT_SYMLINK)
			err = s->p->symlink ? ns_symlink(s, e->target, e->path) : 0;
		else
			err = ns_make_file(s, e);
		if (err)
			return err;
	}
	return 0;
}

void netsys_close_all(struct netsys *s)
{
	for (unsigned i = 0; i < s->nfds; i++) {
		if (s->fds[i])
			ns_release(s, s->fds[i]);
		s->fds[i] = NULL;
	}
}

static int ns_destructor(struct netsys *s)
{
	netsys_close_all(s);
	pthread_mutex_destroy(&s->lock);
	return 0;
}

size_t netsys_mem(const struct program *prog)
{
	size_t buf = prog->max_buffer > NETSYS_CHUNK ? prog->max_buffer : NETSYS_CHUNK;

	return sizeof(struct netsys) +
	       prog->max_handles * (sizeof(struct netsys_desc *) + sizeof(struct netsys_desc)) +
	       2 * buf + 5 * BACKEND_ALLOC_OVERHEAD;
}

struct netsys *netsys_new(TALLOC_CTX *mem_ctx, const struct program *prog,
			  const struct netsys_proto *proto, struct backend_client *bc)
{
	struct netsys *s = talloc_zero(mem_ctx, struct netsys);
	size_t buf = prog->max_buffer > NETSYS_CHUNK ? prog->max_buffer : NETSYS_CHUNK;
	unsigned n = prog->max_handles ? prog->max_handles : 1;

	if (!s)
		return NULL;
	*s = (struct netsys){ .prog = prog, .p = proto, .bc = bc, .nfds = prog->max_handles,
			      .buflen = buf };
	s->fds = talloc_zero_array(s, struct netsys_desc *, n);
	s->descs = talloc_zero_array(s, struct netsys_desc, n);
	s->rbuf = talloc_size(s, buf);
	char *w = talloc_size(s, buf);
	if (!s->fds || !s->descs || !s->rbuf || !w || pthread_mutex_init(&s->lock, NULL) != 0) {
		talloc_free(s);
		return NULL;
	}
	sysio_fill_pattern(w, buf);
	s->wbuf = w;
	talloc_set_destructor(s, ns_destructor);
	return s;
}
