/*
 * blockstat.c - the block layer's and the page cache's figures of a run
 * (see blockstat.h).
 *
 * Owns the devices' stat files and /proc/vmstat while a run lasts: they
 * are opened once, by blockstat_open(), and read with pread(2) at every
 * reading, so a reading costs a few system calls and no path lookup.  The
 * readings are kept on the blockstat object; everything else is
 * differencing.  Finding the device under a directory is env.c's
 * (env_block_sysdir), so that "block_device" in the environment and the
 * devices here are the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockstat.h"
#include "env.h"

#define MAX_DISKS 64		/* devices followed at most */
#define MAX_LOOP_DEPTH 4	/* loop devices on files on loop devices ... */
#define VMSTAT_BUF 65536

struct reading {
	uint64_t ns;
	struct blockstat_counters *c;	/* ndisks */
	bool *ok;			/* ndisks: c[d] was read */
	struct blockstat_vm vm;
	bool vm_ok;
};

struct blockstat {
	size_t ndisks;
	const char **device;		/* ndisks names */
	const char **under;		/* ndisks: what each holds */
	int *fd;			/* ndisks stat files, -1 when unopened */
	unsigned ndirs;			/* the target directories */
	bool *on;			/* [d * ndirs + i]: directory i's data lies on
					 * device d */
	const char **nodev;		/* ndirs: blockstat_no_device() */
	int vm_fd;			/* /proc/vmstat, or -1 */
	char *buf;			/* VMSTAT_BUF bytes for reading */
	struct reading *readings;
	size_t nreadings;
};

/* ---- parsing ---- */

int blockstat_parse_stat(const char *text, struct blockstat_counters *c)
{
	unsigned long long v[17];
	const char *p = text;
	int n = 0;

	while (n < 17) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno != 0)
			return -1;
		n++;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if ((n != 11 && n != 15 && n != 17) || *p != '\0')
		return -1;
	*c = (struct blockstat_counters){
		.reads = v[0], .read_merges = v[1], .read_sectors = v[2],
		.writes = v[4], .write_merges = v[5], .write_sectors = v[6],
		.in_flight = v[8], .io_ticks_ms = v[9], .queue_ms = v[10],
	};
	return 0;
}

/* The value of "KEY value" at the start of a line of TEXT; false when
 * there is no such line. */
static bool vm_value(const char *text, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line;) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
			char *end;

			errno = 0;
			*out = strtoull(line + klen + 1, &end, 10);
			return errno == 0 && end > line + klen + 1;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return false;
}

int blockstat_parse_vmstat(const char *text, struct blockstat_vm *vm)
{
	struct blockstat_vm v;

	if (!vm_value(text, "nr_dirty", &v.nr_dirty) ||
	    !vm_value(text, "nr_writeback", &v.nr_writeback))
		return -1;
	*vm = v;
	return 0;
}

/* ---- differencing ---- */

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* B - A, 0 when the counter went backwards (a device that was reset). */
static double grew(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

void blockstat_diff(const struct blockstat_counters *a, const struct blockstat_counters *b,
		    double secs, struct blockstat_figures *f)
{
	double rd = grew(a->reads, b->reads), wr = grew(a->writes, b->writes);
	double rm = grew(a->read_merges, b->read_merges);
	double wm = grew(a->write_merges, b->write_merges);
	double busy = ratio(grew(a->io_ticks_ms, b->io_ticks_ms), secs * 10);

	*f = (struct blockstat_figures){
		.reads_s = ratio(rd, secs),
		.writes_s = ratio(wr, secs),
		.read_kib_per_req = ratio(grew(a->read_sectors, b->read_sectors) / 2, rd),
		.write_kib_per_req = ratio(grew(a->write_sectors, b->write_sectors) / 2, wr),
		.read_merged_pct = ratio(rm * 100, rm + rd),
		.write_merged_pct = ratio(wm * 100, wm + wr),
		.in_flight = (double)b->in_flight,
		.queue_depth = ratio(grew(a->queue_ms, b->queue_ms), secs * 1000),
		.busy_pct = busy > 100 ? 100 : busy,	/* the tick is coarse */
	};
}

const struct blockstat_memory blockstat_memory_unread = {
	NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
};

static void nan_figures(struct blockstat_figures *f)
{
	*f = (struct blockstat_figures){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
}

/* ---- the devices ---- */

static int close_fds(struct blockstat *bs)
{
	for (size_t d = 0; d < bs->ndisks; d++)
		if (bs->fd[d] >= 0)
			close(bs->fd[d]);
	if (bs->vm_fd >= 0)
		close(bs->vm_fd);
	return 0;
}

/* Device NAME's index, or ndisks when it is not among them. */
static size_t device_index(const struct blockstat *bs, const char *name)
{
	size_t d = 0;

	while (d < bs->ndisks && strcmp(bs->device[d], name) != 0)
		d++;
	return d;
}

/* Whether the list "a, b, c" holds item. */
static bool listed(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p; p = strstr(p, ", ") ? strstr(p, ", ") + 2 : NULL)
		if (strncmp(p, item, n) == 0 && (p[n] == '\0' || strncmp(p + n, ", ", 2) == 0))
			return true;
	return false;
}

/* Adds the device at sysfs directory SYSDIR, holding UNDER; one there
 * already (a disk under two loop devices, two targets on one file system)
 * adds UNDER to what it holds, "loop0, loop1".  Notes that target
 * directory DIR lies on it; then the same for the device under a loop
 * device's backing file.  DEPTH counts the loops followed. */
static void add_device(struct blockstat *bs, const char *sysdir, const char *under,
		       unsigned dir, int depth)
{
	const char *name = strrchr(sysdir, '/') + 1;
	TALLOC_CTX *tmp_ctx = talloc_new(NULL);
	size_t d = device_index(bs, name);
	char *backing, *below;

	if (d == MAX_DISKS)
		goto out;
	if (d == bs->ndisks) {
		char *path = talloc_asprintf(tmp_ctx, "%s/stat", sysdir);
		bs->device[d] = talloc_strdup(bs, name);
		bs->under[d] = talloc_strdup(bs, under);
		bs->fd[d] = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		bs->ndisks++;
	} else if (!listed(bs->under[d], under)) {
		char *both = talloc_asprintf(bs, "%s, %s", bs->under[d], under);
		if (both) {
			talloc_free((char *)bs->under[d]);
			bs->under[d] = both;
		}
	}
	bs->on[d * bs->ndirs + dir] = true;
	backing = depth < MAX_LOOP_DEPTH ? env_loop_backing(tmp_ctx, sysdir) : NULL;
	below = backing ? env_block_sysdir(tmp_ctx, backing) : NULL;
	if (below)
		add_device(bs, below, name, dir, depth + 1);
out:
	talloc_free(tmp_ctx);
}

struct blockstat *blockstat_open(TALLOC_CTX *mem_ctx, const char *const *dirs,
				 unsigned ndirs)
{
	struct blockstat *bs = talloc_zero(mem_ctx, struct blockstat);

	if (!bs)
		return NULL;
	bs->ndirs = ndirs;
	bs->device = talloc_zero_array(bs, const char *, MAX_DISKS);
	bs->under = talloc_zero_array(bs, const char *, MAX_DISKS);
	bs->fd = talloc_array(bs, int, MAX_DISKS);
	bs->on = talloc_zero_array(bs, bool, MAX_DISKS * (ndirs ? ndirs : 1));
	bs->nodev = talloc_zero_array(bs, const char *, ndirs ? ndirs : 1);
	bs->buf = talloc_array(bs, char, VMSTAT_BUF);
	bs->vm_fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
	talloc_set_destructor(bs, close_fds);
	if (!bs->device || !bs->under || !bs->fd || !bs->on || !bs->nodev || !bs->buf) {
		talloc_free(bs);
		return NULL;
	}
	for (unsigned i = 0; i < ndirs; i++) {
		char *sysdir = env_block_sysdir(bs, dirs[i]);

		if (sysdir)
			add_device(bs, sysdir, dirs[i], i, 0);
		else if (!(bs->nodev[i] = env_fstype(bs, dirs[i])))
			bs->nodev[i] = "";
		talloc_free(sysdir);
	}
	return bs;
}

const char *blockstat_no_device(const struct blockstat *bs, unsigned dir)
{
	return bs && dir < bs->ndirs ? bs->nodev[dir] : "";
}

/* The text of the file open at FD into bs->buf; false when unreadable. */
static bool read_fd(struct blockstat *bs, int fd)
{
	size_t len = 0;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = pread(fd, bs->buf + len, VMSTAT_BUF - 1 - len, (off_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		len += (size_t)n;
		if (n == 0 || len == VMSTAT_BUF - 1)
			break;
	}
	bs->buf[len] = '\0';
	return true;
}

/* Fill R, whose arrays are made, with a reading at NOW_NS. */
static void take(struct blockstat *bs, struct reading *r, uint64_t now_ns)
{
	r->ns = now_ns;
	for (size_t d = 0; d < bs->ndisks; d++)
		r->ok[d] = read_fd(bs, bs->fd[d]) &&
			   blockstat_parse_stat(bs->buf, &r->c[d]) == 0;
	r->vm_ok = read_fd(bs, bs->vm_fd) && blockstat_parse_vmstat(bs->buf, &r->vm) == 0;
}

void blockstat_read(struct blockstat *bs, uint64_t now_ns)
{
	struct reading *grown = talloc_realloc(bs, bs->readings, struct reading,
					       bs->nreadings + 1);
	struct reading *r;

	if (!grown)
		return;
	bs->readings = grown;
	r = &grown[bs->nreadings];
	*r = (struct reading){ .ns = now_ns };
	r->c = talloc_zero_array(grown, struct blockstat_counters, bs->ndisks ? bs->ndisks : 1);
	r->ok = talloc_zero_array(grown, bool, bs->ndisks ? bs->ndisks : 1);
	if (!r->c || !r->ok)
		return;
	take(bs, r, now_ns);
	bs->nreadings++;
}

void blockstat_reread(struct blockstat *bs, uint64_t now_ns)
{
	if (bs->nreadings == 0)
		blockstat_read(bs, now_ns);
	else
		take(bs, &bs->readings[bs->nreadings - 1], now_ns);
}

size_t blockstat_ndisks(const struct blockstat *bs)
{
	return bs ? bs->ndisks : 0;
}

size_t blockstat_nreadings(const struct blockstat *bs)
{
	return bs ? bs->nreadings : 0;
}

/* Device D's figures from reading A to reading B. */
static void figures_between(const struct blockstat *bs, size_t d, size_t a, size_t b,
			    struct blockstat_figures *f)
{
	const struct reading *ra = &bs->readings[a], *rb = &bs->readings[b];
	double secs = rb->ns > ra->ns ? (rb->ns - ra->ns) / 1e9 : 0;

	if (secs > 0 && ra->ok[d] && rb->ok[d])
		blockstat_diff(&ra->c[d], &rb->c[d], secs, f);
	else
		nan_figures(f);
}

void blockstat_interval(const struct blockstat *bs, size_t i,
			struct blockstat_figures *disks, double *dirty_pages,
			double *writeback_pages)
{
	const struct reading *r = i < bs->nreadings ? &bs->readings[i] : NULL;

	for (size_t d = 0; disks && d < bs->ndisks; d++) {
		if (r && i >= 1)
			figures_between(bs, d, i - 1, i, &disks[d]);
		else
			nan_figures(&disks[d]);
	}
	*dirty_pages = r && r->vm_ok ? (double)r->vm.nr_dirty : NAN;
	*writeback_pages = r && r->vm_ok ? (double)r->vm.nr_writeback : NAN;
}

/* The page counts over the readings after the first (each ends a second,
 * or the window), and at the first and the last. */
static void memory_over(const struct blockstat *bs, struct blockstat_memory *mem)
{
	double dirty = 0, wb = 0, dmax = 0, wmax = 0;
	size_t n = 0;

	*mem = blockstat_memory_unread;
	for (size_t i = 1; i < bs->nreadings; i++) {
		const struct reading *r = &bs->readings[i];

		if (!r->vm_ok)
			continue;
		dirty += r->vm.nr_dirty;
		wb += r->vm.nr_writeback;
		dmax = fmax(dmax, (double)r->vm.nr_dirty);
		wmax = fmax(wmax, (double)r->vm.nr_writeback);
		n++;
	}
	if (n)
		*mem = (struct blockstat_memory){
			.dirty_pages_mean = dirty / n, .dirty_pages_max = dmax,
			.writeback_pages_mean = wb / n, .writeback_pages_max = wmax,
		};
	const struct reading *first = bs->nreadings ? &bs->readings[0] : NULL;
	const struct reading *last = bs->nreadings ? &bs->readings[bs->nreadings - 1] : NULL;
	mem->dirty_pages_start = first && first->vm_ok ? (double)first->vm.nr_dirty : NAN;
	mem->writeback_pages_start = first && first->vm_ok ? (double)first->vm.nr_writeback : NAN;
	mem->dirty_pages_end = last && last->vm_ok ? (double)last->vm.nr_dirty : NAN;
	mem->writeback_pages_end = last && last->vm_ok ? (double)last->vm.nr_writeback : NAN;
	if (!n)
		mem->dirty_pages_mean = mem->dirty_pages_max = mem->writeback_pages_mean =
			mem->writeback_pages_max = NAN;
}

/* The target directories on device D, into k (on mem_ctx). */
static void dirs_of(TALLOC_CTX *mem_ctx, const struct blockstat *bs, size_t d,
		    struct blockstat_disk *k)
{
	unsigned *dirs = talloc_array(mem_ctx, unsigned, bs->ndirs ? bs->ndirs : 1);

	k->ndirs = 0;
	for (unsigned i = 0; dirs && i < bs->ndirs; i++)
		if (bs->on[d * bs->ndirs + i])
			dirs[k->ndirs++] = i;
	k->dirs = dirs;
}

struct blockstat_disk *blockstat_summary(TALLOC_CTX *mem_ctx, const struct blockstat *bs,
					 struct blockstat_memory *mem)
{
	size_t last = bs && bs->nreadings ? bs->nreadings - 1 : 0;
	struct blockstat_disk *out;

	*mem = blockstat_memory_unread;
	if (!bs)
		return NULL;
	memory_over(bs, mem);
	if (bs->ndisks == 0 || bs->nreadings == 0)
		return NULL;
	out = talloc_zero_array(mem_ctx, struct blockstat_disk, bs->ndisks);
	for (size_t d = 0; out && d < bs->ndisks; d++) {
		const struct reading *a = &bs->readings[0], *b = &bs->readings[last];
		struct blockstat_disk *k = &out[d];

		k->device = talloc_strdup(out, bs->device[d]);
		k->under = talloc_strdup(out, bs->under[d]);
		dirs_of(out, bs, d, k);
		figures_between(bs, d, 0, last, &k->fig);
		k->in_flight_max = NAN;
		if (!a->ok[d] || !b->ok[d])
			continue;
		k->reads = (uint64_t)grew(a->c[d].reads, b->c[d].reads);
		k->writes = (uint64_t)grew(a->c[d].writes, b->c[d].writes);
		k->read_kib = grew(a->c[d].read_sectors, b->c[d].read_sectors) / 2;
		k->write_kib = grew(a->c[d].write_sectors, b->c[d].write_sectors) / 2;
		k->in_flight_max = 0;
		for (size_t i = 0; i <= last; i++)
			if (bs->readings[i].ok[d])
				k->in_flight_max = fmax(k->in_flight_max,
							(double)bs->readings[i].c[d].in_flight);
	}
	return out;
}
