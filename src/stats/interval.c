/*
 * interval.c - each operation type's latencies over one second (see
 * interval.h): the parent sums the flagged chunks of every histogram set
 * of the stats region and takes away what it summed at its last look.
 * Parent side only; knows nothing of samplers, ranks or reports.
 */
#include <math.h>
#include <string.h>

#include "interval.h"

struct stats_interval {
	/* the last look at chunk c of type t's buckets, summed over every
	 * set: STATS_CHUNK_BUCKETS counts, or NULL while no client flagged
	 * the chunk (then it is all 0); and the look before it, in the
	 * STATS_CHUNK_BUCKETS counts that follow, for a take again */
	uint64_t *last[OP_COUNT][STATS_OP_CHUNKS];
	struct hist scratch;	/* one type's interval at a time; empty between */
	uint64_t now[STATS_CHUNK_BUCKETS];	/* one chunk's look, summed */
};

struct stats_interval *stats_interval_new(TALLOC_CTX *mem_ctx)
{
	return talloc_zero(mem_ctx, struct stats_interval);
}

/* Whether a client flagged chunk c of type t in set k of r. */
static bool flagged_in(const struct stats_region *r, size_t k, unsigned t, unsigned c)
{
	return __atomic_load_n(&r->touched[k * STATS_SET_CHUNKS + t * STATS_OP_CHUNKS + c],
			       __ATOMIC_RELAXED);
}

/* ... in any set of r. */
static bool flagged(const struct stats_region *r, unsigned t, unsigned c)
{
	size_t nsets = (size_t)r->ndirs * r->ncpus;

	for (size_t k = 0; k < nsets; k++)
		if (flagged_in(r, k, t, c))
			return true;
	return false;
}

/* Room for the last look at every chunk of type t some client flagged;
 * false when memory ran out. */
static bool make_room(struct stats_interval *iv, const struct stats_region *r, unsigned t)
{
	for (unsigned c = 0; c < STATS_OP_CHUNKS; c++) {
		if (iv->last[t][c] || !flagged(r, t, c))
			continue;
		iv->last[t][c] = talloc_zero_array(iv, uint64_t, 2 * STATS_CHUNK_BUCKETS);
		if (!iv->last[t][c])
			return false;
	}
	return true;
}

/* The buckets of chunk c: [*first, *end). */
static void chunk_range(unsigned c, unsigned *first, unsigned *end)
{
	*first = c * STATS_CHUNK_BUCKETS;
	*end = *first + STATS_CHUNK_BUCKETS < HIST_BUCKETS ? *first + STATS_CHUNK_BUCKETS
							    : HIST_BUCKETS;
}

/* The scratch histogram += what chunk c of type t gained since the last
 * look, which becomes this one.  The chunk is read only in the sets
 * where a client flagged it: reading a page of the shared region that
 * nobody wrote allocates it.  The flag is set before the first add, so
 * a set flagged since the last look held nothing of the chunk then. */
static void take_chunk(struct stats_interval *iv, const struct stats_region *r, unsigned t,
		       unsigned c)
{
	size_t nsets = (size_t)r->ndirs * r->ncpus;
	uint64_t *now = iv->now, *last = iv->last[t][c];
	unsigned first, end;

	chunk_range(c, &first, &end);
	unsigned n = end - first;
	memset(now, 0, n * sizeof(now[0]));
	for (size_t k = 0; k < nsets; k++) {
		if (!flagged_in(r, k, t, c))
			continue;
		const uint64_t *b = &r->sets[k].bucket[t][first];
		for (unsigned i = 0; i < n; i++)
			now[i] += __atomic_load_n(&b[i], __ATOMIC_RELAXED);
	}
	/* each bucket only grows, and a later load of it sees no less than
	 * an earlier one */
	for (unsigned i = 0; i < n; i++)
		if (now[i] > last[i]) {
			hist_add_bucket(&iv->scratch, first + i, now[i] - last[i]);
			last[i] = now[i];
		}
}

/* Type t's interval from the scratch histogram, whose buckets outside
 * the chunks looked at are 0, and the scratch emptied again.  Its totals
 * are the buckets': the smallest and largest value are those of the first
 * and last bucket holding any (only the buckets are kept per interval). */
static struct interval_op result_of(struct stats_interval *iv, unsigned t)
{
	struct hist *h = &iv->scratch;
	uint64_t n = 0;
	unsigned first, end, low = 0, high = 0;

	for (unsigned c = 0; c < STATS_OP_CHUNKS; c++) {
		chunk_range(c, &first, &end);
		for (unsigned b = first; iv->last[t][c] && b < end; b++) {
			if (!h->bucket[b])
				continue;
			low = n ? low : b;
			high = b;
			n += h->bucket[b];
		}
	}
	hist_add_totals(h, n, 0, hist_bucket_low(low), high == HIST_BUCKETS - 1
			? hist_bucket_low(high) : hist_bucket_high(high) - 1);
	struct interval_op out = {
		.count = n,
		.p99_ms = n >= hist_quantile_min_count(0.99) ? hist_quantile(h, 0.99) / 1e6 : NAN,
	};
	h->count = h->sum_ns = h->min_ns = h->max_ns = 0;
	for (unsigned c = 0; c < STATS_OP_CHUNKS; c++) {
		chunk_range(c, &first, &end);
		if (iv->last[t][c])
			memset(&h->bucket[first], 0, (end - first) * sizeof(h->bucket[0]));
	}
	return out;
}

/* Type t's last look becomes the one before (forward), or the one before
 * the last look becomes the last (back). */
static void shift_looks(struct stats_interval *iv, unsigned t, bool forward)
{
	size_t len = STATS_CHUNK_BUCKETS * sizeof(uint64_t);

	for (unsigned c = 0; c < STATS_OP_CHUNKS; c++) {
		uint64_t *last = iv->last[t][c], *before = last + STATS_CHUNK_BUCKETS;
		if (last)
			memcpy(forward ? before : last, forward ? last : before, len);
	}
}

/* stats_interval_take(), or with again its take again. */
static bool take(struct stats_interval *iv, const struct stats_region *r,
		 const uint16_t *types, unsigned ntypes, struct interval_op *out, bool again)
{
	bool whole = true;

	for (unsigned k = 0; k < ntypes; k++) {
		unsigned t = types[k];
		out[k] = (struct interval_op){ .count = 0, .p99_ms = NAN };
		if (t >= OP_COUNT)
			continue;
		shift_looks(iv, t, !again);
		if (!make_room(iv, r, t)) {
			whole = false;
			continue;
		}
		for (unsigned c = 0; c < STATS_OP_CHUNKS; c++)
			if (iv->last[t][c])
				take_chunk(iv, r, t, c);
		out[k] = result_of(iv, t);
	}
	return whole;
}

bool stats_interval_take(struct stats_interval *iv, const struct stats_region *r,
			 const uint16_t *types, unsigned ntypes, struct interval_op *out)
{
	return take(iv, r, types, ntypes, out, false);
}

bool stats_interval_take_again(struct stats_interval *iv, const struct stats_region *r,
			       const uint16_t *types, unsigned ntypes, struct interval_op *out)
{
	return take(iv, r, types, ntypes, out, true);
}
