/*
 * blockstat.h - what the block layer and the page cache did during a run.
 *
 * The settings of a target's device are in the environment (env.h); this
 * module records what the device did with the load, so that a change of
 * throughput can be explained by a change of request size, merging or
 * queue depth.  Its devices are the block device under each target
 * directory and, for a loop device, the device under its backing file
 * (and so on down, four levels at most), each once.  Its sources are the
 * devices' stat files (Documentation/block/stat.rst: requests completed,
 * merges, sectors, in flight, io_ticks, time_in_queue) and the page
 * counts nr_dirty and nr_writeback of /proc/vmstat.
 *
 * The driver takes a reading just before the execute window opens (before
 * any client can count an operation in it), one at the end of each
 * timeline second (blockstat_read), and one just after the window closes
 * (after every client can see that it did: blockstat_read, or
 * blockstat_reread when the last second's reading ended it), so that the
 * first and last readings bracket the operations counted in the window.
 * The module differences them into per-second figures and a summary of
 * the window.  A device or
 * file that cannot be read gives NAN figures, never a guess.  In an MPI
 * run only rank 0's devices are read.
 *
 * Knows nothing of the driver, the stats region or the reporters: it
 * reads sysfs and procfs and hands out plain figures.
 */
#ifndef DBENCH_BLOCKSTAT_H
#define DBENCH_BLOCKSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <talloc.h>

/* One reading of a device's stat file (the fields used here). */
struct blockstat_counters {
	uint64_t reads, read_merges, read_sectors;	/* fields 1-3 */
	uint64_t writes, write_merges, write_sectors;	/* fields 5-7 */
	uint64_t in_flight;				/* field 9 */
	uint64_t io_ticks_ms;				/* field 10: time busy */
	uint64_t queue_ms;				/* field 11: time_in_queue */
};

/* One reading of /proc/vmstat (the fields used here), in pages. */
struct blockstat_vm {
	uint64_t nr_dirty, nr_writeback;
};

/* A device's figures over an interval.  A ratio with nothing to divide
 * (no request of that kind) is NAN. */
struct blockstat_figures {
	double reads_s, writes_s;		/* requests completed per second */
	double read_kib_per_req, write_kib_per_req;
	double read_merged_pct, write_merged_pct;	/* merges / (merges + requests) */
	double in_flight;			/* requests in flight at its end */
	double queue_depth;			/* mean requests queued or in service */
	double busy_pct;			/* share of the interval with I/O in flight */
};

/* A device's share of the whole execute window. */
struct blockstat_disk {
	const char *device;		/* "sda1", "loop0", as /sys/class/block names it */
	const char *under;		/* what it holds: a target directory, or the
					 * loop device it backs ("loop0"); several
					 * as "loop0, loop1" */
	uint64_t reads, writes;		/* requests completed */
	double read_kib, write_kib;	/* moved by them */
	struct blockstat_figures fig;	/* over the window */
	double in_flight_max;		/* the most seen at a reading */
	const unsigned *dirs;		/* the target directories whose data it holds,
					 * directly or beneath loop devices: indexes
					 * into blockstat_open()'s DIRS */
	unsigned ndirs;
};

/* The page cache over the execute window, from the readings; NAN when
 * /proc/vmstat could not be read. */
struct blockstat_memory {
	double dirty_pages_mean, dirty_pages_max;
	double writeback_pages_mean, writeback_pages_max;
	double dirty_pages_start, dirty_pages_end;	/* at the first and the last */
	double writeback_pages_start, writeback_pages_end;	/* reading */
};

/* A blockstat_memory of nothing read: every figure NAN. */
extern const struct blockstat_memory blockstat_memory_unread;

/* ---- parsing and differencing (pure, for the unit test) ---- */

/* The text of a stat file (11, 15 or 17 fields); 0, or -1 when it does not
 * parse. */
int blockstat_parse_stat(const char *text, struct blockstat_counters *c);

/* The text of /proc/vmstat; 0, or -1 without nr_dirty and nr_writeback. */
int blockstat_parse_vmstat(const char *text, struct blockstat_vm *vm);

/* The figures between readings A and B taken SECS apart (> 0). */
void blockstat_diff(const struct blockstat_counters *a, const struct blockstat_counters *b,
		    double secs, struct blockstat_figures *f);

/* ---- the devices of a run ---- */

struct blockstat;

/* The devices under the target directories DIRS (none is fine: a tmpfs
 * has none).  NULL only when memory runs out. */
struct blockstat *blockstat_open(TALLOC_CTX *mem_ctx, const char *const *dirs,
				 unsigned ndirs);

/* Take a reading of every device and of /proc/vmstat, at NOW_NS on the
 * monotonic clock. */
void blockstat_read(struct blockstat *bs, uint64_t now_ns);

/* Take the latest reading's counters again, stamped NOW_NS (a first
 * reading when there is none). */
void blockstat_reread(struct blockstat *bs, uint64_t now_ns);

/* Why target directory DIR (an index into blockstat_open()'s DIRS) has no
 * device: NULL when one lies under it, else the type of its file system
 * ("tmpfs"), or "" when that could not be looked at. */
const char *blockstat_no_device(const struct blockstat *bs, unsigned dir);

/* How many devices, and how many readings so far. */
size_t blockstat_ndisks(const struct blockstat *bs);
size_t blockstat_nreadings(const struct blockstat *bs);

/* The figures of every device (DISKS, ndisks of them) and the page counts
 * (pages; NAN when unread) between reading I-1 and reading I (I >= 1).
 * DISKS may be NULL: the page counts alone. */
void blockstat_interval(const struct blockstat *bs, size_t i,
			struct blockstat_figures *disks, double *dirty_pages,
			double *writeback_pages);

/* Each device's share of the window from the first reading to the last,
 * allocated on mem_ctx (ndisks of them; NULL with none), and the page
 * cache over the readings. */
struct blockstat_disk *blockstat_summary(TALLOC_CTX *mem_ctx, const struct blockstat *bs,
					 struct blockstat_memory *mem);

#endif
