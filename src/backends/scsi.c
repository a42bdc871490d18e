/*
 * scsi.c - the "scsi" backend: dbench 5.0's SCSI dialect (scsi.load and
 * the iSCSI files alike) sent to a local SCSI device through the
 * kernel's SG_IO, on a SCSI generic device (/dev/sgN) or a SCSI disk
 * (/dev/sdX), named by --scsi=DEVICE.
 *
 * The parent opens DEVICE once, never making it, and asks its driver
 * for SG_IO (SG_GET_VERSION_NUM): a loop, NVMe or virtio-blk device, a
 * regular file or another character device is refused, as is a disk
 * in use (mounted, a partition mounted, swap, under dm or md: devuse.h;
 * for /dev/sgN, the disk it is) unless --force; a disk is held O_EXCL
 * for the run.  It sends TEST UNIT READY, READ CAPACITY and INQUIRY;
 * a device that answers them with anything but GOOD stops the run
 * before any client starts.  Each client opens it again through
 * /proc/self/fd and sends one command at a time (scsicmd.h builds and
 * judges them), each bounded by --scsi-timeout, after which the kernel
 * aborts it.  All clients are one I_T nexus (one host): the
 * persistent-reservation tests, which need one each, want the iscsi
 * backend.
 *
 * Owns: the descriptors and the transfer buffer.  Knows nothing of the
 * driver, the stats region or the reports.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backend.h"
#include "scsicmd.h"
#include "backends/devuse.h"
#include "backends/scsirow.h"

/* The options of this backend alone (backend.h, struct backend_opt). */
struct scsi_options {
	char *path;		/* --scsi */
	int timeout;		/* --scsi-timeout, seconds for a command */
};

static const struct backend_opt scsi_options[] = {
	{ .name = "scsi", .type = BACKEND_OPT_STRING,
	  .offset = offsetof(struct scsi_options, path), .arg = "DEVICE",
	  .help = "the SCSI device --backend=scsi sends commands to through SG_IO: /dev/sgN or"
		  " /dev/sdX (what the loadfile writes there is lost)" },
	{ .name = "scsi-timeout", .type = BACKEND_OPT_INT,
	  .offset = offsetof(struct scsi_options, timeout), .def = 30, .min = 1, .max = 3600,
	  .unit = "seconds", .arg = "SECS",
	  .help = "how long the device may take over a command (default 30)" },
	{ .name = NULL }
};

/* One open descriptor of the device, as a LUN to talk to. */
struct sgdev {
	struct scsi_port port;		/* first: send_once() is handed it */
	int fd;
	unsigned timeout_ms;		/* --scsi-timeout's */
};

struct backend_target {
	const char *path;		/* as given */
	struct sgdev d;			/* the parent's: the O_EXCL claim */
	int flags;			/* what the clients open with */
	char vendor[9], product[17], revision[5];
};

struct backend_client {
	struct sgdev d;
	const struct program *prog;
	struct offset_state ost;
	unsigned char *buf;		/* max_transfer bytes, WRITEPATTERN's or zeros */
	char detail[SCSICMD_WHY_MAX + 64];	/* what failure_detail() says ... */
	bool has_detail;		/* ... when this is set */
};

static const char **scsi_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
{
	const struct scsi_options *o = own;

	return backend_one_target(mem_ctx, "scsi", dirs, "scsi", o->path,
				  "DEVICE (/dev/sgN or /dev/sdX, written in place)", err);
}

/* ---- one command ---- */

/* The sgdev's scsi_port.send_once: command c through SG_IO, the kernel
 * aborting it after --scsi-timeout seconds (d->timeout_ms). */
static int send_once(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
		     struct scsicmd_outcome *o)
{
	static const int dirs[] = { SG_DXFER_NONE, SG_DXFER_FROM_DEV, SG_DXFER_TO_DEV };
	struct sgdev *d = (struct sgdev *)p;
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = dirs[c->dir],
		.cmd_len = c->cdb_len,
		.mx_sb_len = sizeof(o->sense),
		.dxfer_len = c->len,
		.dxferp = c->params ? (void *)c->params_buf : buf,
		.cmdp = (unsigned char *)c->cdb,
		.sbp = o->sense,
		.timeout = d->timeout_ms,
	};

	if (ioctl(d->fd, SG_IO, &h) != 0) {
		int e = errno;
		snprintf(p->why, sizeof(p->why), "SG_IO: %s", strerror(e));
		p->lost = e != EINTR;
		return e;
	}
	if (h.host_status || (h.driver_status & 0x0f) == 0x06 /* DRIVER_TIMEOUT */) {
		snprintf(p->why, sizeof(p->why), "%s (host status 0x%02x, driver status 0x%02x)",
			 h.duration >= h.timeout ? "no answer from the device in time"
						 : "the command did not reach the device",
			 h.host_status, h.driver_status);
		return EIO;
	}
	o->status = h.status;
	o->sense_len = h.status == 0x02 ? h.sb_len_wr : 0;
	o->missing = c->dir == SCSICMD_IN && h.resid > 0 ? (size_t)h.resid : 0;
	return 0;
}

/* ---- the target ---- */

/* The disk (/dev/sdX) behind SCSI generic device `rdev`, as its dev_t,
 * from sysfs; 0 when it has none (a tape, a changer, an enclosure). */
static dev_t disk_of_sg(dev_t rdev)
{
	char dir[96], path[PATH_MAX];
	unsigned maj, min;

	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/block", major(rdev), minor(rdev));
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	dev_t dev = 0;
	for (struct dirent *de; !dev && (de = readdir(dp));) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		FILE *f = fopen(path, "r");
		if (f && fscanf(f, "%u:%u", &maj, &min) == 2)
			dev = makedev(maj, min);
		if (f)
			fclose(f);
	}
	closedir(dp);
	return dev;
}

/* Why the device of `st` may not be written (in use), or NULL. */
static char *in_use(TALLOC_CTX *mem_ctx, const char *path, const struct stat *st)
{
	dev_t disk = S_ISBLK(st->st_mode) ? st->st_rdev : disk_of_sg(st->st_rdev);
	char *why = disk ? devuse_block(mem_ctx, disk) : NULL;

	return why ? talloc_asprintf(mem_ctx, "'%s' is in use: %s (--force writes it anyway)",
				     path, why)
		   : NULL;
}

/* Open t->path for SG_IO: O_EXCL for a disk unless --force (or ranks
 * share it).  NULL, or why not. */
static char *open_device(TALLOC_CTX *mem_ctx, struct backend_target *t, const struct stat *st,
			 const struct backend_options *opts)
{
	int excl = S_ISBLK(st->st_mode) && !opts->force && !opts->ranked ? O_EXCL : 0;
	int version;

	t->flags = O_RDWR | O_NONBLOCK | O_CLOEXEC;
	if ((t->d.fd = open(t->path, t->flags | excl)) < 0)
		return errno == EBUSY ? talloc_asprintf(mem_ctx, "'%s' is in use: claimed by another"
							" program (mounted, part of md or dm ...)"
							" (--force writes it anyway)", t->path)
				      : talloc_asprintf(mem_ctx, "cannot open '%s': %s", t->path,
							strerror(errno));
	if (ioctl(t->d.fd, SG_GET_VERSION_NUM, &version) != 0)
		return talloc_asprintf(mem_ctx, "'%s' is not a SCSI device: its driver has no SG_IO"
				       " (%s; a loop, NVMe or virtio-blk device speaks no SCSI)",
				       t->path, strerror(errno));
	return opts->force ? NULL : in_use(mem_ctx, t->path, st);
}

/* Ask the device what it is: TEST UNIT READY, its geometry, INQUIRY.
 * NULL, or what it answered instead. */
static char *check_device(TALLOC_CTX *mem_ctx, struct backend_target *t)
{
	struct scsicmd tur = { .cdb_len = 6 };
	struct scsi_port *p = &t->d.port;

	if (scsicmd_ask(p, &tur, NULL) != 0)
		return talloc_asprintf(mem_ctx, "'%s' answers TEST UNIT READY with %s", t->path,
				       p->why);
	if (scsicmd_read_geometry(p) != 0)
		return talloc_asprintf(mem_ctx, "'%s': READ CAPACITY: %s", t->path, p->why);
	scsicmd_identify(p, t->vendor, t->product, t->revision);
	return NULL;
}

static int scsi_target_destructor(struct backend_target *t)
{
	if (t->d.fd >= 0)
		close(t->d.fd);
	return 0;
}

static struct backend_target *scsi_target_open(TALLOC_CTX *mem_ctx, const char *spec,
					       const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	const char *why = scsirow_pointless_option(opts);
	struct stat st;

	if (!t) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	t->d.fd = -1;
	t->d.port.send_once = send_once;
	t->d.timeout_ms = (unsigned)((const struct scsi_options *)opts->own)->timeout * 1000u;
	t->path = talloc_strdup(t, spec);
	talloc_set_destructor(t, scsi_target_destructor);
	if (why)
		*err = talloc_asprintf(mem_ctx, "%s: %s", spec, why);
	else if (stat(spec, &st) != 0)
		*err = talloc_asprintf(mem_ctx, "cannot use '%s': %s", spec, strerror(errno));
	else if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		*err = talloc_asprintf(mem_ctx, "'%s' is %s, not a SCSI generic device (/dev/sgN)"
				       " or a SCSI disk (/dev/sdX)", spec,
				       S_ISDIR(st.st_mode) ? "a directory" : S_ISREG(st.st_mode)
				       ? "a regular file" : "neither");
	else if (!(*err = open_device(mem_ctx, t, &st, opts)))
		*err = check_device(mem_ctx, t);
	if (!*err)
		return t;
	talloc_free(t);
	return NULL;
}

/* Nothing was made there: nothing to remove. */
static int scsi_target_close(struct backend_target *t)
{
	(void)t;
	return 0;
}

static size_t scsi_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	const struct dockey_value v[] = {
		{ DK_TARGET_SCSI, json_string(t->path) },
		{ DK_TARGET_BLOCKS, json_integer((json_int_t)t->d.port.geom.blocks) },
		{ DK_TARGET_BLOCK_SIZE, json_integer((int)t->d.port.geom.block_size) },
		{ DK_TARGET_VENDOR, json_string(t->vendor) },
		{ DK_TARGET_PRODUCT, json_string(t->product) },
		{ DK_TARGET_REVISION, json_string(t->revision) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

/* ---- clients ---- */

static int scsi_client_destructor(struct backend_client *bc)
{
	if (bc->d.fd >= 0)
		close(bc->d.fd);
	return 0;
}

static size_t transfer_len(const struct program *prog)
{
	return loadfile_max_transfer(prog) > 4096 ? loadfile_max_transfer(prog) : 4096;
}

static struct backend_client *scsi_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					      unsigned id, const struct program *prog,
					      const struct backend_options *opts,
					      struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);
	size_t len = transfer_len(prog);
	char self[64];

	(void)verify;	/* none: --verify is refused (scsirow_pointless_option()) */
	if (!bc || !(bc->buf = talloc_zero_array(bc, unsigned char, len))) {
		talloc_free(bc);
		*err = talloc_strdup(mem_ctx, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; prog->write_pattern && i < len; i++)
		bc->buf[i] = (unsigned char)prog->write_pattern[i % prog->write_pattern_len];
	bc->prog = prog;
	bc->ost = backend_offset_state(id, opts);
	bc->d.port.send_once = send_once;
	bc->d.port.geom = t->d.port.geom;
	bc->d.timeout_ms = t->d.timeout_ms;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", t->d.fd);
	bc->d.fd = open(self, t->flags);
	talloc_set_destructor(bc, scsi_client_destructor);
	if (bc->d.fd < 0) {
		int e = errno;
		*err = talloc_asprintf(mem_ctx, "cannot open '%s' again: %s", t->path, strerror(e));
		talloc_free(bc);
		errno = e;
		return NULL;
	}
	return bc;
}

static size_t scsi_client_mem(const struct program *prog, const struct backend_options *opts)
{
	(void)opts;
	return sizeof(struct backend_client) + transfer_len(prog) + 4 * BACKEND_ALLOC_OVERHEAD;
}

/* ---- operations ---- */

static int scsi_op(struct backend_client *bc, const struct op *op)
{
	return scsirow_perform(&bc->d.port, bc->prog, op, &bc->ost, bc->buf, bc->detail,
			       sizeof(bc->detail), &bc->has_detail);
}

static const char *scsi_failure_detail(struct backend_client *bc)
{
	return backend_detail_taken(&bc->has_detail, bc->detail);
}

static void scsi_pass_end(struct backend_client *bc)
{
	(void)bc;
}

/* Nothing was made: what was written stays, as on any LUN. */
static int scsi_cleanup(struct backend_client *bc)
{
	(void)bc;
	return 0;
}

const struct backend scsi_backend = {
	.name = "scsi",
	.summary = "a local SCSI disk (--scsi=/dev/sgN or /dev/sdX), through SG_IO: 5.0's"
		   " SCSI loadfiles",
	/* the block layer does not count passthrough requests in the
	 * disk's stat file */
	.no_local_writes = "sends SCSI commands by SG_IO, which the disk's stat file does"
			   " not count",
	.options = scsi_options,
	.options_size = sizeof(struct scsi_options),
	.targets = scsi_targets,
	.target_open = scsi_target_open,
	.target_close = scsi_target_close,
	.target_describe = scsi_target_describe,
	.client_new = scsi_client_new,
	.client_mem = scsi_client_mem,
	.op = { [OP_SCSI_FIRST ... OP_SCSI_LAST] = scsi_op },
	.failure_detail = scsi_failure_detail,
	.pass_end = scsi_pass_end,
	.cleanup = scsi_cleanup,
};
