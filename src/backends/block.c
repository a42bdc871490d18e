/*
 * block.c - the "block" backend: dbench 5.0's block dialect (Read and
 * Write at an offset, Fdatasync; src/load/blockload.c) on one block
 * device or regular file, named by --block=PATH, that every client reads
 * and writes in place, as 5.0's loadfiles describe (their offsets say
 * where each client goes: "+child", random ones ...).
 *
 * The parent opens PATH once, never making it: O_DIRECT where the target
 * allows it (a file on tmpfs does not: it is then read and written
 * through the page cache, and the run says so), O_RDWR, or O_RDONLY
 * where it cannot be written (a Write then fails naming why).  Unless
 * --force, it refuses a device or file in use (devuse.h) and holds the
 * device exclusively for the run (O_EXCL: nothing mounts it meanwhile),
 * and a flock() keeps a second run off it.  Each client opens it again
 * through /proc/self/fd (the same device or file, whatever PATH has
 * become).  An offset at or past the end wraps around the size, and a
 * transfer that would cross the end starts earlier, so that a 1 GiB
 * loadfile runs on a smaller device and a file never grows.
 *
 * Owns: the descriptors and the aligned transfer buffer.  Knows nothing
 * of the driver, the stats region or the reports.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "backends/devuse.h"

#define BLOCK_ALIGN 4096	/* the transfer buffer's alignment, for O_DIRECT */

/* The options of this backend alone (backend.h, struct backend_opt). */
struct block_options {
	char *path;		/* --block */
};

static const struct backend_opt block_options[] = {
	{ .name = "block", .type = BACKEND_OPT_STRING,
	  .offset = offsetof(struct block_options, path), .arg = "PATH",
	  .help = "the block device or file --backend=block reads and writes in place"
		  " (what the loadfile writes there is lost)" },
	{ .name = NULL }
};

struct backend_target {
	const char *path;	/* as given */
	int fd;			/* the parent's: the O_EXCL claim and the flock */
	int flags;		/* what the clients open with */
	int claim;		/* O_EXCL, or 0 (--force, MPI ranks) */
	bool is_block;
	bool direct;		/* O_DIRECT */
	bool readonly;		/* opened O_RDONLY: why in ro_why */
	const char *ro_why;
	uint64_t size;		/* bytes */
	unsigned sector;	/* what O_DIRECT aligns to (the logical block size) */
};

struct backend_client {
	const struct backend_target *t;
	const struct program *prog;
	int fd;
	bool fsync_writes;
	unsigned char *buf;	/* BLOCK_ALIGN-aligned, max_transfer bytes */
	struct offset_state ost;
	char detail[200];	/* what failure_detail() says ... */
	bool has_detail;	/* ... when this is set */
};

static const char **block_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
{
	const struct block_options *o = own;

	return backend_one_target(mem_ctx, "block", dirs, "block", o->path,
				  "PATH (a block device or a file, written in place)", err);
}

/* ---- the target ---- */

static int block_target_destructor(struct backend_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	return 0;
}

/* What of the command line the block backend has no use for, or NULL. */
static const char *pointless_option(const struct backend_options *opts)
{
	if (opts->sync_dir || opts->xattr)
		return "-S and -x have no directory or attributes on a device";
	if (opts->verify)
		return "--verify cannot check a device that all clients write where"
		       " the loadfile's offsets send them";
	if (opts->fake_io)
		return "--fake-io leaves out dbench 4's ReadX and WriteX, which the block"
		       " backend does not perform";
	return NULL;
}

/* Open t->path: O_DIRECT where it is allowed, O_EXCL for a device
 * unless --force (or ranks share it), read-only where it cannot be
 * written.  0 or an errno. */
static int open_target(struct backend_target *t, const struct backend_options *opts)
{
	int base = (opts->sync_open ? O_SYNC : 0) | O_CLOEXEC;
	int excl = t->is_block && !opts->force && !opts->ranked ? O_EXCL : 0;
	int access_mode = O_RDWR;

	for (;;) {
		int flags = base | access_mode | (t->direct ? O_DIRECT : 0);
		t->fd = open(t->path, flags | excl);
		if (t->fd >= 0) {
			t->flags = flags;
			t->claim = excl;
			return 0;
		}
		if (errno == EINVAL && t->direct) {
			t->direct = false;	/* tmpfs: through the page cache */
		} else if ((errno == EROFS || errno == EACCES) && access_mode == O_RDWR) {
			t->ro_why = talloc_strdup(t, strerror(errno));
			access_mode = O_RDONLY;
			t->readonly = true;
		} else {
			return errno;
		}
	}
}

/* A device that is read-only (a write-protected disk, losetup -r) takes
 * an O_RDWR open and refuses each write: it is opened O_RDONLY instead,
 * so that a Write fails naming why.  0 or an errno. */
static int check_read_only(struct backend_target *t)
{
	int ro = 0;

	if (!t->is_block || t->readonly || ioctl(t->fd, BLKROGET, &ro) != 0 || !ro)
		return 0;
	close(t->fd);		/* first: its exclusive claim is taken again */
	t->fd = open(t->path, (t->flags & ~O_ACCMODE) | O_RDONLY | t->claim);
	if (t->fd < 0)
		return errno;
	t->flags = (t->flags & ~O_ACCMODE) | O_RDONLY;
	t->readonly = true;
	t->ro_why = "the device is read-only";
	return 0;
}

/* The size and the alignment O_DIRECT wants.  0 or an errno. */
static int measure(struct backend_target *t, const struct stat *st)
{
	struct statx sx;

	t->size = (uint64_t)st->st_size;
	t->sector = 512;
	if (t->is_block) {
		int ssz = 0;
		if (ioctl(t->fd, BLKGETSIZE64, &t->size) != 0 || ioctl(t->fd, BLKSSZGET, &ssz) != 0)
			return errno;
		t->sector = ssz > 0 ? (unsigned)ssz : 512;
	} else if (statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
		   (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align) {
		t->sector = sx.stx_dio_offset_align;
	}
	return 0;
}

/* What keeps t from being used (in use, another run's lock), or NULL. */
static char *in_use(TALLOC_CTX *mem_ctx, struct backend_target *t, const struct stat *st,
		    const struct backend_options *opts)
{
	char *why = t->is_block ? devuse_block(mem_ctx, st->st_rdev) : devuse_file(mem_ctx, st);

	if (why)
		return talloc_asprintf(mem_ctx, "'%s' is in use: %s (--force writes it anyway)",
				       t->path, why);
	if (flock(t->fd, (opts->ranked ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 ||
	    errno != EWOULDBLOCK)
		return NULL;
	pid_t pid = devuse_lock_holder(st);
	if (pid == getpid())
		return NULL;
	return talloc_asprintf(mem_ctx, "'%s' is in use by another dbench run (pid %ld)"
			       " (--force writes it anyway)", t->path, (long)pid);
}

/* Why t, just opened, cannot be used, or NULL. */
static char *unusable(TALLOC_CTX *mem_ctx, struct backend_target *t, const struct stat *st,
		      const struct backend_options *opts)
{
	int e = check_read_only(t);

	if (!e)
		e = measure(t, st);
	if (e)
		return talloc_asprintf(mem_ctx, "'%s': cannot read its size: %s", t->path,
				       strerror(e));
	if (t->size == 0)
		return talloc_asprintf(mem_ctx, "'%s' is empty: the block backend reads and writes"
				       " within its size (make a file with truncate -s SIZE)",
				       t->path);
	return opts->force ? NULL : in_use(mem_ctx, t, st, opts);
}

static struct backend_target *block_target_open(TALLOC_CTX *mem_ctx, const char *spec,
						const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	const char *why = pointless_option(opts);
	struct stat st;

	if (!t) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	t->fd = -1;
	t->path = talloc_strdup(t, spec);
	t->direct = true;
	talloc_set_destructor(t, block_target_destructor);
	if (why) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", spec, why);
	} else if (stat(spec, &st) != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot use '%s': %s", spec, strerror(errno));
	} else if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		*err = talloc_asprintf(mem_ctx, "'%s' is %s, not a block device or a file", spec,
				       S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode)
				       ? "a character device" : "neither");
	} else if ((t->is_block = S_ISBLK(st.st_mode)), open_target(t, opts) != 0) {
		int e = errno;
		*err = e == EBUSY ? talloc_asprintf(mem_ctx, "'%s' is in use: %s (--force writes it"
						    " anyway)", spec, devuse_block(mem_ctx, st.st_rdev)
						    ?: "claimed by another program (mounted, part of"
						    " md or dm, or held by mkfs ...)")
				  : talloc_asprintf(mem_ctx, "cannot open '%s': %s", spec, strerror(e));
	} else {
		*err = unusable(mem_ctx, t, &st, opts);
	}
	if (!*err)
		return t;
	talloc_free(t);
	return NULL;
}

/* Nothing was made there: nothing to remove. */
static int block_target_close(struct backend_target *t)
{
	(void)t;
	return 0;
}

static size_t block_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	const struct dockey_value v[] = {
		{ DK_TARGET_BLOCK, json_string(t->path) },
		{ DK_TARGET_KIND, json_string(t->is_block ? "block device" : "file") },
		{ DK_TARGET_SIZE_BYTES, json_integer((json_int_t)t->size) },
		{ DK_TARGET_DIRECT_IO_ALIGN, json_integer((int)t->sector) },
		{ DK_TARGET_DIRECT_IO, json_boolean(t->direct) },
		{ DK_TARGET_READ_ONLY, json_boolean(t->readonly) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

/* ---- clients ---- */

static int block_client_destructor(struct backend_client *bc)
{
	if (bc->fd >= 0)
		close(bc->fd);
	return 0;
}

/* The transfer buffer: aligned for O_DIRECT, holding WRITEPATTERN's text
 * over and over, or zeros. */
static bool make_buffer(struct backend_client *bc, const struct program *prog)
{
	size_t len = loadfile_max_transfer(prog);
	unsigned char *raw = talloc_zero_array(bc, unsigned char, len + BLOCK_ALIGN);

	if (!raw)
		return false;
	bc->buf = (unsigned char *)(((uintptr_t)raw + BLOCK_ALIGN - 1) & ~(uintptr_t)(BLOCK_ALIGN - 1));
	for (size_t i = 0; prog->write_pattern && i < len; i++)
		bc->buf[i] = (unsigned char)prog->write_pattern[i % prog->write_pattern_len];
	return true;
}

static struct backend_client *block_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					       unsigned id, const struct program *prog,
					       const struct backend_options *opts,
					       struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);
	char self[64];

	(void)verify;	/* none: --verify is refused (pointless_option()) */

	if (!bc || !make_buffer(bc, prog)) {
		talloc_free(bc);
		*err = talloc_strdup(mem_ctx, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	bc->t = t;
	bc->prog = prog;
	bc->fsync_writes = opts->fsync_writes;
	bc->ost = backend_offset_state(id, opts);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", t->fd);
	bc->fd = open(self, t->flags);
	talloc_set_destructor(bc, block_client_destructor);
	if (bc->fd < 0) {
		int e = errno;
		*err = talloc_asprintf(mem_ctx, "cannot open '%s' again: %s", t->path, strerror(e));
		talloc_free(bc);
		errno = e;
		return NULL;
	}
	return bc;
}

static size_t block_client_mem(const struct program *prog, const struct backend_options *opts)
{
	(void)opts;
	return sizeof(struct backend_client) + loadfile_max_transfer(prog) + BLOCK_ALIGN +
	       2 * BACKEND_ALLOC_OVERHEAD;
}

/* ---- operations ---- */

/* What the operation failing now has to say beyond its errno. */
static void explain(struct backend_client *bc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void explain(struct backend_client *bc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bc->detail, sizeof(bc->detail), fmt, ap);
	va_end(ap);
	bc->has_detail = true;
}

/* Where a transfer of len bytes at offset `off` goes on the target: off
 * itself, or wrapped around the size (and moved back, to a multiple of
 * the sector, when it would cross the end).  False when len is more
 * than the whole target. */
static bool place(struct backend_client *bc, uint64_t off, uint64_t len, uint64_t *at)
{
	uint64_t size = bc->t->size;

	if (len > size) {
		explain(bc, "%" PRIu64 " bytes do not fit '%s' (%"
			 PRIu64 " bytes)", len, bc->t->path, size);
		return false;
	}
	if (off > size - len) {
		off %= size;
		if (off > size - len)
			off = (size - len) / bc->t->sector * bc->t->sector;
	}
	*at = off;
	return true;
}

/* The detail of a transfer that failed with err at `at`. */
static int transfer_failed(struct backend_client *bc, const char *what, int err, uint64_t at,
			   uint64_t len)
{
	if (err == EINVAL && bc->t->direct && (at % bc->t->sector || len % bc->t->sector))
		explain(bc, "%s of %" PRIu64 " bytes at %" PRIu64
			 ": O_DIRECT needs both to be multiples of %u bytes", what, len, at,
			 bc->t->sector);
	else if (err == EBADF && bc->t->readonly)
		explain(bc, "'%s' could only be opened read-only (%s)",
			 bc->t->path, bc->t->ro_why);
	return err;
}

/* A Read or a Write of the row's length at its offset, placed on the
 * target; the whole of it, or a failure saying how much. */
static int transfer(struct backend_client *bc, const struct op *op, bool write)
{
	struct op tmp;
	const struct op *o = backend_op_at_offset(&tmp, bc->prog, op, &bc->ost);
	uint64_t len = (uint64_t)o->a[1], at;

	if (!place(bc, (uint64_t)o->a[0], len, &at))
		return EINVAL;
	ssize_t r = write ? pwrite(bc->fd, bc->buf, len, (off_t)at)
			  : pread(bc->fd, bc->buf, len, (off_t)at);
	if (r < 0)
		return transfer_failed(bc, write ? "a write" : "a read", errno, at, len);
	if ((uint64_t)r < len) {
		explain(bc, "%s %zd of %" PRIu64 " bytes at %" PRIu64, write ? "wrote" : "read",
			r, len, at);
		return write ? EIO : ENODATA;
	}
	if (write && bc->fsync_writes && fdatasync(bc->fd) != 0)
		return errno;
	return 0;
}

static int block_read(struct backend_client *bc, const struct op *op)
{
	return transfer(bc, op, false);
}

static int block_write(struct backend_client *bc, const struct op *op)
{
	return transfer(bc, op, true);
}

static int block_fdatasync(struct backend_client *bc, const struct op *op)
{
	(void)op;
	return fdatasync(bc->fd) == 0 ? 0 : errno;
}

static const char *block_failure_detail(struct backend_client *bc)
{
	return backend_detail_taken(&bc->has_detail, bc->detail);
}

static void block_pass_end(struct backend_client *bc)
{
	(void)bc;
}

/* Nothing was made: the data written stays, as on any device. */
static int block_cleanup(struct backend_client *bc)
{
	(void)bc;
	return 0;
}

const struct backend block_backend = {
	.name = "block",
	.summary = "a disk or a file in place (--block=PATH): 5.0's block loadfiles",
	.options = block_options,
	.options_size = sizeof(struct block_options),
	.targets = block_targets,
	.target_open = block_target_open,
	.target_close = block_target_close,
	.target_describe = block_target_describe,
	.client_new = block_client_new,
	.client_mem = block_client_mem,
	.op = {
		[OP_BLOCK_READ] = block_read,
		[OP_BLOCK_WRITE] = block_write,
		[OP_BLOCK_FDATASYNC] = block_fdatasync,
	},
	.failure_detail = block_failure_detail,
	.pass_end = block_pass_end,
	.cleanup = block_cleanup,
};
