/*
 * interval.h - each operation type's latencies over one second of the
 * execute window, for the timeline: the parent's difference between the
 * clients' histograms (stats.h) at one sample and at the one before.
 *
 * The clients only ever add to the shared histogram sets, so what they
 * recorded between two looks is the later look less the earlier one,
 * bucket by bucket.  The parent keeps the earlier look, summed over every
 * set (directories and CPUs), for the chunks of buckets that some client
 * flagged (stats.h: a chunk nobody flagged is empty): nothing is added to
 * a client's operation, and nothing to its memory; the parent's grows by
 * 8 KB a flagged chunk of an operation type, its look and the one before
 * (a type's latencies under load spread over a chunk or two), whatever
 * the number of clients.
 */
#ifndef DBENCH_INTERVAL_H
#define DBENCH_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "stats.h"

/* One operation type's latencies over an interval. */
struct interval_op {
	uint64_t count;		/* values the clients recorded in it */
	double p99_ms;		/* their p99: the midpoint of the bucket of the
				 * ceil(0.99 count)-th smallest (hist.h); NAN
				 * from fewer than hist_quantile_min_count(0.99),
				 * 100, values */
};

struct stats_interval;

/* The parent's earlier look, empty (the execute phase's histograms are
 * empty before it opens); NULL when out of memory. */
struct stats_interval *stats_interval_new(TALLOC_CTX *mem_ctx);

/*
 * The latencies of each of the ntypes operation types in `types` that the
 * clients of r recorded since the previous call (the first: since the
 * region was mapped) into out[ntypes], and this look kept for the next
 * call.  False when memory ran out for the look of a chunk none looked
 * at before: out is then unknown (count 0, NAN) for the types it holds,
 * and their values go to the next interval that has the memory.
 */
bool stats_interval_take(struct stats_interval *iv, const struct stats_region *r,
			 const uint16_t *types, unsigned ntypes, struct interval_op *out);

/*
 * As stats_interval_take(), over the interval the last call covered
 * stretched to now: the values since the call before it.  For the
 * timeline's last point, taken again once every client can see that the
 * window closed, so that it holds the operations that ended between its
 * first look and the close (the same types as that call, for a type
 * whose look that call could not keep gives the values since the look
 * before it too).
 */
bool stats_interval_take_again(struct stats_interval *iv, const struct stats_region *r,
			       const uint16_t *types, unsigned ntypes, struct interval_op *out);

#endif
