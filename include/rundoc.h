/*
 * rundoc.h - reading run documents back: the JSON that --json writes for
 * one run ({"config", "result", "ops", "status", ...}) or for a series
 * ({"runs": [...], "summary": ...}).
 *
 * The one place that knows where a run's figures sit in its document:
 * its client count (config.nprocs), whether it succeeded
 * (status.exit_code), its throughput, its worst operation's p99, what
 * its disks did ("disks", as report_json writes it); the one reader of a
 * file of runs, sorted into groups by client count, which compare and
 * sweep share, and which refuses a document of a schema it does not read
 * (dockey.h); and the one text layout of a device's figures, which both
 * print.  Every member is named by its row of dockeys.def (dockey_get()),
 * never by a string.  Knows nothing of how runs are made or judged.
 */
#ifndef DBENCH_RUNDOC_H
#define DBENCH_RUNDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <talloc.h>

#include "dockey.h"
#include "hist.h"

/* ---- one run ---- */

/* config.nprocs: 1 .. DBENCH_MAX_CLIENTS, or 0 when it is missing or out
 * of range. */
unsigned rundoc_nprocs(const json_t *run);

/* Whether the run succeeded: status.exit_code is 0. */
bool rundoc_ok(const json_t *run);

/* The number of member k (DK_RESULT_THROUGHPUT), 0 when there is none. */
double rundoc_number(const json_t *run, enum dockey k);

/* The worst p99_ms over the run's operation types that have one (a p99
 * needs 100 operations), NAN without any. */
double rundoc_worst_p99(const json_t *run);

/* ---- latency histograms ---- */

/* Adds the run's latency histogram of operation type `op` ("ops.OP.hist",
 * hist.h's saved form) into h.  False, with h unchanged, when the run
 * has none for it (a document from before histograms were saved, or no
 * such operation) or it does not read back whole. */
bool rundoc_add_hist(struct hist *h, const json_t *run, const char *op);

/* Whether every one of runs[0..n) that performed operation type op kept
 * its histogram: only then can they be pooled. */
bool rundoc_hists_whole(const json_t *const *runs, size_t n, const char *op);

/* The p99 over runs[0..n) pooled, in ms: for each operation type, every
 * run's histogram merged and its p99 taken (where the pool holds the 100
 * values a p99 needs), the worst of them.  Where a run performed a type
 * without keeping its histogram, the median over the runs of each run's
 * worst p99 (rundoc_worst_p99()) instead.  NAN when there is neither. */
double rundoc_pooled_worst_p99(const json_t *const *runs, size_t n);

/* The share of the loadfile the run's median client replayed in the
 * measured window (replayed.median_share: 1 is a whole pass), NAN where
 * the document does not say. */
double rundoc_replayed(const json_t *run);

/* The median of rundoc_replayed() over those of runs[0..n) that say,
 * NAN when none does. */
double rundoc_replayed_median(const json_t *const *runs, size_t n);

/* ---- values ---- */

/* A member as the reader wants to see it: strings bare, the rest as JSON,
 * "(absent)" for none (on mem_ctx). */
char *rundoc_value_text(TALLOC_CTX *mem_ctx, const json_t *v);

/* Whether two members are the same value: numbers by value (a document
 * rewritten by jq may hold 2000 for 2000.0), the rest as JSON; two
 * absent members are the same. */
bool rundoc_same_value(const json_t *va, const json_t *vb);

/* ---- a file of runs ---- */

/* The successful runs of a document at one nprocs. */
struct rundoc_group {
	unsigned nprocs;
	size_t nruns;
	double *mb_s;		/* result.throughput_mb_s of each run */
	const json_t **runs;	/* each run's object, borrowed from the document */
	size_t *index;		/* each run's place in the document's "runs" (0 for a
				 * document of one run) */
};

/* A document and its successful runs by nprocs. */
struct rundoc {
	const char *name;		/* the file name, for messages */
	json_t *doc;			/* the document; released when this is freed */
	bool sweep;			/* a series ("runs"), not a single run */
	size_t nruns;			/* runs in the document */
	size_t nignored;		/* of them failed or without a throughput */
	const json_t *first;		/* first successful run: its environment and
					 * config stand for the whole document */
	const char *label;		/* its --label (sweep.label, else the first
					 * run's config.label), or NULL */
	struct rundoc_group *groups;	/* by ascending nprocs, none empty */
	size_t ngroups;
	size_t nfiles;			/* files pooled into it (rundoc_pool()): 1
					 * for a file read as it is */
	bool ab;			/* a dbench ab document, or a side of one */
	bool tune;			/* a dbench tune document, or a candidate of one */
	const char **origin_file;	/* a side made of others' runs: for each of
					 * its runs, the file it came from, */
	size_t *origin_index;		/* ... and its place in that file's runs;
					 * NULL for a file read as it is */
};

#define RUNDOC_PIPE_WAIT_S 10	/* for a pipe's first bytes (infile_open()) */

/* Read and check the document at path: a regular file, or a pipe written
 * to within RUNDOC_PIPE_WAIT_S (never a device, a socket or a FIFO nobody
 * writes).  NULL on failure, with *err (on mem_ctx) a one-line message
 * naming the file and what is wrong: a document (or a run in it) of a
 * schema this dbench does not read is refused as "'FILE': a document of
 * schema N, this dbench reads 1..2". */
struct rundoc *rundoc_load(TALLOC_CTX *mem_ctx, const char *path, char **err);

/* The same for a document already parsed; takes over the reference to
 * doc whatever happens.  name is used in messages. */
struct rundoc *rundoc_from_json(TALLOC_CTX *mem_ctx, const char *name, json_t *doc,
				char **err);

/* The group for nprocs, or NULL. */
const struct rundoc_group *rundoc_group_of(const struct rundoc *set, unsigned nprocs);

/* Where run `index` of set (rundoc_group.index) came from: its file and
 * its place in that file's runs, or RUNDOC_WHOLE_FILE for a file that is
 * the one run. */
#define RUNDOC_WHOLE_FILE ((size_t)-1)
void rundoc_origin(const struct rundoc *set, size_t index, const char **file, size_t *at);

/* ---- sides of several files, and of a dbench ab document ---- */

/* The run settings (config.*) that shape the load: runs pooled into one
 * side must agree on them all. */
extern const enum dockey rundoc_load_settings[];
extern const size_t rundoc_nload_settings;

/* The runs of parts[0..n), in order, as one side named `name` (compare's
 * "A1.json A2.json -- B1.json B2.json").  NULL, with *err naming the
 * files and each setting that shapes the load in which they differ, when
 * they are not runs of one set-up. */
struct rundoc *rundoc_pool(TALLOC_CTX *mem_ctx, const char *name,
			   const struct rundoc *const *parts, size_t n, char **err);

/* A dbench ab document's two sides, A and B, by each run's series.side;
 * false, with *err, when it is not one or a side has no successful run. */
bool rundoc_ab_sides(TALLOC_CTX *mem_ctx, const struct rundoc *set, struct rundoc **a,
		     struct rundoc **b, char **err);

/* A dbench tune document's candidates as sides, by each run's
 * series.side ("#3"), in the document's order ("as found" first), each
 * named by its settings: those with a successful run, at most max, into
 * sides[0..*n).  False, with *err, when it is not one or fewer than two
 * candidates have a successful run. */
bool rundoc_tune_sides(TALLOC_CTX *mem_ctx, const struct rundoc *set, const struct rundoc **sides,
		       size_t max, size_t *n, char **err);

/* ---- what the disks did ---- */

/* The figures of a device over a run's execute window, in the order they
 * are shown: requests per second, KiB per request, the share of requests
 * merged, the mean queue and the share of time busy; then the bytes the
 * clients wrote to it and it wrote (result.h struct writeback), the one
 * over the other, and the bytes the page cache held dirty at the end. */
enum rundoc_disk_figure {
	RUNDOC_READS_S, RUNDOC_WRITES_S, RUNDOC_READ_KIB, RUNDOC_WRITE_KIB,
	RUNDOC_READ_MERGED, RUNDOC_WRITE_MERGED, RUNDOC_QUEUE, RUNDOC_BUSY,
	RUNDOC_CLIENTS_WRITTEN, RUNDOC_WRITTEN, RUNDOC_WRITTEN_RATIO, RUNDOC_DIRTY_END,
	RUNDOC_DISK_FIGURES
};

/* Each figure's member in a run's "disks" entries and in a sweep
 * summary's, and its column heading (iostat -x's name for it). */
struct rundoc_disk_key {
	enum dockey run;	/* DK_DISK_WRITE_KIB_PER_REQ */
	enum dockey summary;	/* DK_SUMMARY_DISK_WRITE_KIB */
	const char *head;	/* "wareq-sz" */
};
extern const struct rundoc_disk_key rundoc_disk_keys[RUNDOC_DISK_FIGURES];

/* What one device did in a run, or the mean over several runs. */
struct rundoc_disk {
	const char *device;			/* "sda1", borrowed from a document */
	double fig[RUNDOC_DISK_FIGURES];	/* NAN where no run gives it */
	size_t nruns;				/* runs that recorded the device */
};

/* The devices that runs[0..n) recorded, in the order first met, each
 * figure the mean over the runs that give it (a figure is null where its
 * run had nothing to divide), but the ratio of written bytes, which is
 * the mean written over the mean the clients wrote where both are known
 * (the runs' bytes pooled).  NULL with *ndisks 0 when there is none, or
 * when memory runs out. */
struct rundoc_disk *rundoc_disks(TALLOC_CTX *mem_ctx, const json_t *const *runs, size_t n,
				 size_t *ndisks);

/* The same of a sweep summary's row (its "disks", the means over its
 * runs). */
struct rundoc_disk *rundoc_summary_disks(TALLOC_CTX *mem_ctx, const json_t *row,
					 size_t *ndisks);

/* The device of that name among disks[0..n), or NULL. */
const struct rundoc_disk *rundoc_disk_named(const struct rundoc_disk *disks, size_t n,
					    const char *device);

/* The text columns of a device: its name and its figures ("-" for NAN;
 * bytes in MB), and the heading over them; neither ends the line. */
void rundoc_print_disk_head(FILE *out);

/* What the columns are, for the line above a table of them: "as iostat
 * -x: requests a second, ..." */
extern const char rundoc_disk_legend[];
void rundoc_print_disk(FILE *out, const struct rundoc_disk *d);

#endif
