/*
 * rundoc.h - reading run documents back: the JSON that --json writes for
 * one run ({"config", "result", "ops", "status", ...}) or for a series
 * ({"runs": [...], "summary": ...}).
 *
 * The one place that knows where a run's figures sit in its document:
 * its client count (config.nprocs), whether it succeeded
 * (status.exit_code), its throughput, its worst operation's p99; and the
 * one reader of a file of runs, sorted into groups by client count, which
 * compare and sweep share.  Knows nothing of how runs are made or judged.
 */
#ifndef DBENCH_RUNDOC_H
#define DBENCH_RUNDOC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>
#include <talloc.h>

/* ---- one run ---- */

/* The member at a dotted path ("config.nprocs"), or NULL. */
const json_t *rundoc_member(const json_t *obj, const char *path);

/* config.nprocs: 1 .. DBENCH_MAX_CLIENTS, or 0 when it is missing or out
 * of range. */
unsigned rundoc_nprocs(const json_t *run);

/* Whether the run succeeded: status.exit_code is 0. */
bool rundoc_ok(const json_t *run);

/* The number at a dotted path ("result.throughput_mb_s"), 0 when there is
 * none. */
double rundoc_number(const json_t *run, const char *path);

/* The worst p99_ms over the run's operation types, 0 without any. */
double rundoc_worst_p99(const json_t *run);

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
};

/* Read and check the document at path.  NULL on failure, with *err (on
 * mem_ctx) a one-line message naming the file and what is wrong. */
struct rundoc *rundoc_load(TALLOC_CTX *mem_ctx, const char *path, char **err);

/* The same for a document already parsed; takes over the reference to
 * doc whatever happens.  name is used in messages. */
struct rundoc *rundoc_from_json(TALLOC_CTX *mem_ctx, const char *name, json_t *doc,
				char **err);

/* The group for nprocs, or NULL. */
const struct rundoc_group *rundoc_group_of(const struct rundoc *set, unsigned nprocs);

#endif
