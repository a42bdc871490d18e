/*
 * result.h - what a run measured, in the form every reporter reads.
 *
 * The driver collects the shared stats region, its per-second timeline and
 * the failure (if any) into a `struct run_result`, allocated on talloc;
 * percentiles, per-client rates and fairness are computed here once, so
 * that the text report, the JSON document and any later comparison show
 * the same figures.  Throughput everywhere is the execute window's ReadX +
 * WriteX bytes over its measured length, in 10^6 bytes per second.
 */
#ifndef DBENCH_RESULT_H
#define DBENCH_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "blockstat.h"
#include "hostload.h"
#include "plan.h"
#include "hist.h"
#include "interval.h"
#include "stats.h"

/* One second of the execute window. */
struct timeline_point {
	double t_s;		/* end of the interval, seconds from the execute start */
	double mb_s;		/* bytes moved in the interval, per second */
	double ops_s;		/* operations in the interval, per second */
	double max_latency_ms;	/* worst operation latency seen in it */
	double probe_ms;	/* longest --probe listing that ended in it; NAN
				 * when none did, or without --probe */
	struct blockstat_figures *disks;	/* run_result.ndisks: each device's */
	double dirty_pages, writeback_pages;	/* /proc/vmstat at its end, or NAN */
	struct interval_op *ops;	/* [run_result.ntimeline_types]: each of those
					 * types' operations that ended in it and their
					 * p99 (interval.h); NULL when not measured (an
					 * MPI run of several ranks, whose histograms
					 * meet only at the end; memory ran out) */
};

/* One operation type over the execute window. */
struct op_result {
	uint64_t count;
	uint64_t errors;
	uint64_t unsupported;	/* not performed: the backend cannot express
				 * them (backend.h BACKEND_NOT_SUPPORTED) */
	uint64_t skipped;	/* a recording's calls not made: a descriptor they
				 * name was never opened (BACKEND_SKIPPED) */
	double mean_ms;
	double p50_ms, p90_ms, p99_ms, p999_ms;	/* NAN from fewer operations than
						 * the percentile needs (hist.h
						 * hist_quantile_min_count()) */
	double max_ms;		/* exact */
	/* The histogram it was filled from, borrowed, for the JSON to save
	 * whole (runs are pooled from it later): valid as long as the figures
	 * it came from, which the driver keeps until the run's reports are
	 * written; NULL when not kept. */
	const struct hist *hist;
};

struct client_result {
	unsigned rank;		/* MPI rank it ran on, 0 in a plain run */
	unsigned id;		/* 1-based within its rank, as in clientN */
	const char *directory;	/* its target directory */
	uint64_t bytes;
	uint64_t bytes_written;	/* of those, written (WriteX) */
	uint64_t ops;
	uint64_t errors;
	uint64_t unsupported;	/* operations it went past, not performed */
	double seconds;		/* its time in the execute window: to the end of
				 * its pass with --run-once, else all of it; 0
				 * when unknown (killed, failed in its setup) */
	double mb_s;		/* NAN when seconds is 0 */
};

/* One target directory's share of the run (clients are dealt out
 * round-robin over the -D directories). */
struct dir_result {
	const char *directory;
	unsigned clients;
	uint64_t bytes;
	double mb_s;
	uint64_t operations;	/* its clients' operations in the execute window */
	double p99_ms;		/* over all of them; NAN from fewer than 100 */
};

/* One rank of an MPI run; a plain run is one rank. */
struct rank_result {
	unsigned rank;
	const char *host;
	const char *kernel;	/* uname release */
	unsigned clients;
	uint64_t bytes;
	double seconds;		/* how long its clients ran in the execute window */
	double mb_s;		/* bytes over seconds */
};

/* --probe: the directory listings that started in the execute window. */
struct probe_result {
	const char *directory;	/* the directory listed */
	uint64_t count;		/* listings */
	uint64_t entries;	/* names the last of them read (. and .. aside) */
	double p50_ms, p99_ms;	/* listing times; NAN from fewer than 2 and
				 * 100 listings */
	double max_ms;		/* exact */
	uint64_t straddled;	/* listings begun in the warmup, ended in the
				 * execute window: not among count */
	double straddled_max_ms;	/* the longest of them, 0 without any */
};

/* How evenly the clients (or ranks) were served. */
struct fairness {
	double min_mb_s, median_mb_s, max_mb_s;
	double jain_index;	/* (sum x)^2 / (n sum x^2): 1 is perfectly even */
};				/* all NAN when a rate is missing (NAN) */

/* --verify over the execute window.  Its cost is the clients' time spent
 * generating the pattern for WriteX and comparing ReadX data with it
 * (CPU-bound work, timed on the monotonic clock); cost_pct puts that
 * against the clients' busy time, the sum of every operation's latency,
 * which includes it. */
struct verify_result {
	uint64_t bytes_checked;
	uint64_t reads_checked;
	uint64_t mismatches;
	double cost_s;
	double cost_pct;
};

/* How much of the loadfile the clients replayed in the execute window.
 * A window too short for the load (hundreds of clients on a few CPUs)
 * holds the early part of a pass alone, and its figures are those of
 * that part, not of the workload. */
struct replayed {
	uint64_t per_pass;	/* operations in a pass of the loadfile */
	uint64_t median_ops;	/* the median client's operations in the window,
				 * those the backend could not express included */
	double median_share;	/* median_ops / per_pass; NAN when not known */
	bool moved_nothing;	/* the median client moved no bytes, where a pass
				 * moves some */
	bool too_short;		/* median_share below 1 pass, or moved_nothing */
};

/* How much of what the clients wrote reached one device (blockstat_disk)
 * over the execute window, whose first and last readings bracket the
 * operations counted in it.  What the clients wrote in the window and the
 * device has not written by its end is either gone (deleted or
 * overwritten before writeback) or still in the page cache, dirty or under
 * writeback; what the device wrote may also be the warmup's, another
 * program's, or the file system's own (journal, metadata). */
struct writeback {
	double clients_bytes;	/* written by the clients whose target lies on the
				 * device (through loop devices too), those of
				 * ranks on other hosts aside; NAN when unknown */
	double device_bytes;	/* written to the device; NAN when unread */
	double ratio;		/* device_bytes / clients_bytes; NAN when either is
				 * unknown or the clients wrote nothing */
	double dirty_end_bytes;	/* the machine's page cache at the window's end: */
	double writeback_end_bytes;	/* dirty, and under writeback (NAN: unread) */
};

/* A target directory on no block device, whose writes no device shows. */
struct nodisk {
	const char *directory;
	const char *fstype;	/* its file system ("tmpfs"), "" when unknown */
};

/* Why a run failed. */
struct run_failure {
	int rank;		/* MPI rank, -1 in a plain run */
	const char *host;	/* that rank's host, NULL in a plain run */
	unsigned client;	/* 1-based within its rank */
	uint32_t line;		/* loadfile line, 0 when not an operation */
	const char *operation;	/* NULL when not an operation */
	const char *path;	/* full path, or NULL */
	const char *error;	/* strerror text, or what happened */
	const char *text;	/* the whole message after "FAILED: " */
};

/* --show-execute-time: one finished pass of the loadfile by one client. */
struct pass_time {
	unsigned client;	/* 0-based */
	double ms;		/* how long the pass took */
	double at_ms;		/* when it ended, since the clients were released */
};

struct run_result {
	const struct run_plan *plan;
	const char *started_at;		/* UTC, ISO 8601 */
	unsigned nclients;
	double exec_seconds;		/* measured length of the execute window */
	struct window_timing {		/* the window against the plan (rank 0's) */
		double planned_s;	/* -t; NAN with --run-once, which has no plan */
		double late_s;		/* how long after its planned end the parent
					 * closed it (the clients stopped on time by
					 * their own clocks), 0 when on time */
		bool late;		/* late_s beyond 1 % of the plan and 0.5 s:
					 * the text says so */
		double open_late_s;	/* how long after its opening the parent
					 * took the machine's reading that opens
					 * it (held stopped in the warmup), 0 when
					 * on time */
	} window;
	uint64_t bytes_read, bytes_written;
	uint64_t ops, errors;
	double max_latency_ms;		/* the worst operation of the execute window,
					 * straddling ones included */
	uint64_t straddled;		/* operations begun in the warmup and ended in
					 * the execute window: in no table */
	double straddled_max_ms;	/* the longest of them */
	const char *straddled_op;	/* its type, or NULL without any */
	struct op_result op[OP_COUNT];
	struct client_result *clients;	/* nclients */
	struct dir_result *dirs;	/* plan->ndirs of them */
	struct fairness fairness;
	struct replayed replayed;	/* of the loadfile, by the median client */
	struct rank_result *ranks;	/* nranks of them */
	unsigned nranks;
	bool mpi;			/* run by mpirun: name ranks in messages */
	struct fairness rank_fairness;	/* across ranks */
	double stonewall_s;		/* until the first rank finished; NAN
					 * when a rank's rate is missing */
	double stonewall_mb_s;		/* throughput while every rank ran; NAN
					 * likewise */
	struct probe_result *probe;	/* [nprobes], one per --probe in its order;
					 * NULL without --probe */
	unsigned nprobes;
	struct timeline_point *timeline;
	size_t ntimeline;
	const uint16_t *timeline_types;	/* the operation types of each point's ops:
					 * those of the loadfile */
	unsigned ntimeline_types;
	struct pass_time *passes;	/* --show-execute-time: in the order shown */
	size_t npasses;
	uint64_t passes_lost;		/* finished faster than they could be kept */
	struct run_failure *failure;	/* NULL when the run did not fail */
	bool interrupted;
	int exit_code;
	uint64_t files_left;		/* clients (and probes) whose files are left
					 * in the targets, every rank's: said on
					 * stderr, and the run fails */
	double setup_s;			/* from the first fork to all clients ready */
	double think_time_mean_us;	/* pauses before operations, per operation */
	uint64_t behind_calls;		/* --replay-timing=exact: calls timed, */
	double behind_mean_ms;		/* how late they started, on average */
	double behind_max_ms;		/* ... and at worst */
	double behind_wait_ms;		/* its threads' wait for a CPU; NAN unknown */
	double sampler_cpu_ms;		/* the parent's CPU per one-second sample */
	bool sampler_realtime;		/* ... taken at a real-time priority */
	const char *op_clock;		/* what latencies were read from (opclock.h) */
	double op_clock_hz;		/* its counts per second */
	struct verify_result verify;	/* meaningful with plan->bopts.verify */
	struct blockstat_disk *disks;	/* the devices under the targets (blockstat.h) */
	size_t ndisks;
	struct blockstat_memory memory;	/* dirty and writeback pages (NAN: unread) */
	struct writeback *writeback;	/* ndisks: what reached each device, or NULL */
	const char *writeback_none;	/* why no device shows the clients' writes:
					 * the backend's (backend.h no_local_writes),
					 * or NULL */
	struct nodisk *nodisk;		/* the target directories on no device */
	unsigned nnodisk;
	struct hostload host;		/* how busy the machine was in the execute
					 * window (rank 0's); host.measured false
					 * when it was not read */
	json_t *environment;		/* owned: released with the result */
	const char *missing;		/* what memory ran out for while the result
					 * was filled, left out of it (clients,
					 * directories, ranks or the timeline are
					 * then NULL or short); NULL when whole */
	double *scratch;		/* result_new(): room for max(nclients,
					 * nranks) rates, for the fairness */
};

/*
 * A result with room for every figure of a run of plan->nclients clients
 * on each of `nranks` ranks over plan->ndirs directories: the clients,
 * directories and ranks arrays and the scratch the fairness needs, so
 * that filling it (result_fill_figures(), result_fill_dir(),
 * result_fill_ranks()) allocates nothing.  The driver makes it before
 * the run, so that memory running out at its end cannot lose its
 * figures.  NULL when out of memory.  (A result made otherwise, by
 * talloc_zero() in the tests, has its arrays allocated as it is filled;
 * what cannot be is named in `missing`.)
 */
struct run_result *result_new(TALLOC_CTX *mem_ctx, const struct run_plan *plan,
			      unsigned nranks);

/* The throughput of the execute window, MB/sec. */
double result_throughput(const struct run_result *res);

/* The operations of the execute window per second (IOPS, for the block
 * and SCSI backends). */
double result_ops_per_s(const struct run_result *res);

/* Fill the figures of res from the stats region: totals, per-operation
 * percentiles, per-client rates, fairness and the probe's listings.
 * res->plan, nclients and exec_seconds must be set. */
void result_fill(struct run_result *res, const struct stats_region *stats);

/* What result_fill_figures() reads: the summed figures of all clients,
 * and each client's own (rank by rank, each rank's plan->nclients of
 * them). */
struct run_figures {
	const struct stats_group *all;
	const struct stats_client *clients;	/* res->nclients */
};

/* Each probe's figures (--probe) from its slot of the region. */
void result_fill_probe(struct run_result *res, const struct stats_region *stats);

/* result_fill() from figures gathered elsewhere (across MPI ranks); the
 * directories' shares follow, one at a time, by result_fill_dir(). */
void result_fill_figures(struct run_result *res, const struct run_figures *f);

/* Target directory d's share from g, the figures of its clients
 * (stats_group_collect() of d); `scratch` is a histogram's room for
 * merging g's.  Directory by directory, so that the figures of only one
 * directory need be held at a time. */
void result_fill_dir(struct run_result *res, unsigned d, const struct stats_group *g,
		     struct hist *scratch);

/* With res->ranks filled in (rank, host, kernel, clients, bytes, seconds)
 * and the timeline in place: each rank's rate, the fairness across ranks,
 * and the stonewall figures. */
void result_fill_ranks(struct run_result *res);

/* Bytes moved by all clients in the first t seconds of the execute window,
 * from the timeline (linear within a second). */
double result_bytes_by(const struct run_result *res, double t);

/* Fairness of n per-client rates (n >= 1). */
struct fairness result_fairness(const double *mb_s, unsigned n);

/* Indexes of the timeline's stalls: seconds below a tenth of the median
 * rate (MB/sec, or operations/sec when nothing moved bytes).  Returns the
 * count; the indexes are allocated on mem_ctx.  RESULT_NO_MEMORY (and
 * *idx NULL) when they cannot be. */
#define RESULT_NO_MEMORY ((size_t)-1)
size_t result_stalls(TALLOC_CTX *mem_ctx, const struct run_result *res, size_t **idx);

/* The block devices' and the page cache's figures from the readings in
 * bs (blockstat.h), one taken as the execute window opened, one at the
 * end of each timeline point and one as it closed: each point's, and the
 * window's, with what of the clients' writes reached each device (the
 * clients' figures must be in place).  Without readings (bs NULL, or the
 * window never opened) there are no devices and the page counts are NAN;
 * res->writeback_none, set before, leaves writeback NULL. */
void result_fill_disks(struct run_result *res, const struct blockstat *bs);

/* Make res own a JSON value: it is released when res is freed. */
void result_keep_json(struct run_result *res, json_t *v);

#endif
