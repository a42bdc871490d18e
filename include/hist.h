/*
 * hist.h - latency histograms: log-linear, mergeable, fixed size.
 *
 * A histogram counts latencies in nanoseconds in buckets whose width grows
 * with the value, as HdrHistogram does: values below 64 ns have a bucket
 * each; above that, every power of two [2^k, 2^(k+1)) is split into 64
 * equal buckets, so a bucket is never wider than 1/64 of its lower bound
 * and a value reported as its bucket's midpoint is within 1/128 (0.8 %) of
 * the truth.  The buckets stop at 2^HIST_MAX_EXP ns (about 275 s): the top
 * one, HIST_BUCKETS - 1, starts at 2^38 - 2^31 ns (270.6 s) and holds
 * everything from there up.  The exact minimum, maximum and sum are kept
 * beside the buckets; the sum saturates at UINT64_MAX rather than wrap.
 *
 * The struct is plain data of fixed size, with no pointers, so it can live
 * in the shared stats region: one writer (the --probe process) records
 * into it, and the parent reads it and merges many into one.  Counts are
 * 64-bit, in the buckets too: one CPU replaying the null backend puts
 * 2^32 values into a few buckets in well under an hour.
 *
 * A histogram can also be kept in two parts and put together afterwards:
 * the clients' buckets live in per-CPU sets shared by many writers, and
 * each client's exact count, sum, minimum and maximum in its own slot
 * (stats.h); hist_add_bucket() and hist_add_totals() rebuild the whole.
 */
#ifndef DBENCH_HIST_H
#define DBENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6				/* 64 buckets per power of two */
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 38				/* 2^38 ns = 274.9 s */
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_EXP - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count;		/* values recorded */
	uint64_t sum_ns;	/* their sum, for the mean */
	uint64_t min_ns;	/* exact smallest value (0 when count == 0) */
	uint64_t max_ns;	/* exact largest value */
	uint64_t bucket[HIST_BUCKETS];
};

/* Record one value.  Safe for one writer while others read (each field is
 * written whole, and the count last, so a reader that loads the count first
 * finds at least that many values in the buckets), not for two writers. */
void hist_record(struct hist *h, uint64_t ns);

/* Add every value of `src` into `dst`.  `src` may be live (its writer still
 * recording); `dst` must not be.  An empty `src` changes nothing. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Add n values to bucket b (an index past the top is the top), and n
 * values whose sum, smallest and largest are given to the totals, for a
 * histogram kept in two parts.  The caller adds as many values to the
 * buckets as to the totals.  Neither may be used on a live `h`. */
void hist_add_bucket(struct hist *h, unsigned b, uint64_t n);
void hist_add_totals(struct hist *h, uint64_t n, uint64_t sum_ns, uint64_t min_ns,
		     uint64_t max_ns);

/*
 * The value at quantile q (0 < q <= 1): the midpoint of the bucket that
 * holds the ceil(q * count)-th smallest value (at least the first),
 * clamped to [min, max].  q >= 1 gives the exact maximum, and so does a
 * rank in the top bucket, which has no upper end and so no midpoint.  0
 * when the histogram is empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);

/*
 * The fewest values from which quantile q says more than the maximum:
 * below it the rank ceil(q * count) is the count itself, so the "p99"
 * of 50 values is their largest under another name.  A quantile needs a
 * value above it to mean anything: 2 for p50, 10 for p90, 100 for p99,
 * 1000 for p99.9 (1 for q <= 0 or q >= 1).  Reporters print no figure
 * for a quantile of fewer values.
 */
uint64_t hist_quantile_min_count(double q);

/* ---- the saved form ---- */

/*
 * A histogram saved as text (a run's JSON keeps one per operation type):
 * its non-empty buckets in ascending order, "INDEX:COUNT" each, separated
 * by single spaces ("70:3 71:12 130:1"); the count, sum, minimum and
 * maximum are saved beside it.  hist_format() writes it into buf (len
 * bytes, NUL-terminated, cut short if too small) and returns the length
 * it needs without the NUL, as snprintf does; a histogram may be live.
 * hist_parse() adds the buckets of `text` and the totals given to h,
 * which is then whole; it returns NULL, or what is wrong with text (an
 * index out of range or out of order, a count of 0, counts that do not
 * add up to `count`), and then h is unchanged.
 */
size_t hist_format(const struct hist *h, char *buf, size_t len);
const char *hist_parse(struct hist *h, const char *text, uint64_t count, uint64_t sum_ns,
		       uint64_t min_ns, uint64_t max_ns);

/* The values recorded in buckets above b, all of them past the bucket's
 * high end (for the share of a run's operations slower than a latency
 * taken from other runs). */
uint64_t hist_count_above(const struct hist *h, unsigned b);

/* Mean in ns, 0 when empty. */
double hist_mean(const struct hist *h);

/* Bucket index of a value (hist.c explains the geometry). */
static inline unsigned hist_bucket_of(uint64_t ns)
{
	if (ns < HIST_SUB)
		return (unsigned)ns;
	if (ns >> HIST_MAX_EXP)
		return HIST_BUCKETS - 1u;

	unsigned k = 63u - (unsigned)__builtin_clzll(ns);
	unsigned sub = (unsigned)(ns >> (k - HIST_SUB_BITS)) & (HIST_SUB - 1u);

	return ((k - HIST_SUB_BITS + 1u) << HIST_SUB_BITS) + sub;
}

/* The [low, high) range a bucket covers (for tests and for anyone
 * plotting a distribution).  The top bucket's high is UINT64_MAX; an index
 * past the top is read as the top. */
uint64_t hist_bucket_low(unsigned b);
uint64_t hist_bucket_high(unsigned b);

#endif
