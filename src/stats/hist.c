/*
 * hist.c - log-linear latency histograms: recording, merging, quantiles.
 *
 * Bucket geometry.  Values 0..63 have a bucket each (index = value).  A
 * value v >= 64 lies in octave k = floor(log2 v), k >= 6; the octave
 * [2^k, 2^(k+1)) is split into HIST_SUB buckets of width 2^(k-6), and the
 * sub-bucket is the six bits below the leading one.  So
 *
 *	index = (k - 5) * 64 + ((v >> (k - 6)) & 63)
 *
 * which continues the exact buckets without a gap: v = 64 gets index 64.
 * The last index, HIST_BUCKETS - 1, would naturally end at 2^HIST_MAX_EXP;
 * instead it absorbs every larger value too, so its high end is UINT64_MAX.
 * hist_bucket_of() is inline in hist.h: a client calls it for every
 * operation.
 *
 * Sharing.  One process records while another reads (the parent merging
 * the probe's histogram out of the shared stats region).  Every field is
 * written and read whole with __atomic builtins.  The writer stores the
 * count last with release order and readers load it first with acquire
 * order, so a reader never sees more values counted than it finds in the
 * buckets; on x86 both are plain moves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"

#define TOP (HIST_BUCKETS - 1u)

/* ---- field access: whole words, never torn ---- */

static inline uint64_t get64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void set64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* The count, ordered before any bucket read that follows it. */
static inline uint64_t get_count(const struct hist *h)
{
	return __atomic_load_n(&h->count, __ATOMIC_ACQUIRE);
}

/* Publish a count after the buckets it covers. */
static inline void set_count(struct hist *h, uint64_t v)
{
	__atomic_store_n(&h->count, v, __ATOMIC_RELEASE);
}

/* Sums saturate rather than wrap: a mean of UINT64_MAX says "huge", a
 * wrapped one says something false. */
static inline uint64_t add_sat64(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* ---- geometry ---- */

/* Indexes past the top are treated as the top bucket. */
uint64_t hist_bucket_low(unsigned b)
{
	if (b > TOP)
		b = TOP;
	if (b < HIST_SUB)
		return b;

	unsigned shift = (b >> HIST_SUB_BITS) - 1u;	/* k - HIST_SUB_BITS */
	uint64_t mantissa = HIST_SUB + (b & (HIST_SUB - 1u));

	return mantissa << shift;
}

uint64_t hist_bucket_high(unsigned b)
{
	if (b >= TOP)
		return UINT64_MAX;
	return hist_bucket_low(b + 1u);
}

/* ---- recording and merging ---- */

void hist_record(struct hist *h, uint64_t ns)
{
	uint64_t *slot = &h->bucket[hist_bucket_of(ns)];
	uint64_t n = get64(&h->count);	/* ours: we are the only writer */

	set64(slot, add_sat64(get64(slot), 1));
	set64(&h->sum_ns, add_sat64(get64(&h->sum_ns), ns));
	if (n == 0 || ns < get64(&h->min_ns))
		set64(&h->min_ns, ns);
	if (ns > get64(&h->max_ns))
		set64(&h->max_ns, ns);
	set_count(h, n + 1);
}

/*
 * `src` may be live (its writer still recording): we take its count first,
 * so the buckets we then add hold at least that many values.  The result
 * may include a few values recorded mid-merge, never fewer than counted.
 */
void hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t n = get_count(src);

	if (n == 0)
		return;

	uint64_t smin = get64(&src->min_ns);
	uint64_t smax = get64(&src->max_ns);
	uint64_t dn = get64(&dst->count);

	/* Only the buckets between min and max can be non-zero: the rest of
	 * a shared histogram's pages need never be touched. */
	unsigned last = hist_bucket_of(smax);
	for (unsigned b = hist_bucket_of(smin); b <= last; b++) {
		uint64_t add = get64(&src->bucket[b]);

		if (add != 0)
			set64(&dst->bucket[b], add_sat64(get64(&dst->bucket[b]), add));
	}
	set64(&dst->sum_ns, add_sat64(get64(&dst->sum_ns), get64(&src->sum_ns)));
	if (dn == 0 || smin < get64(&dst->min_ns))
		set64(&dst->min_ns, smin);
	if (smax > get64(&dst->max_ns))
		set64(&dst->max_ns, smax);
	set_count(dst, dn + n);
}

void hist_add_bucket(struct hist *h, unsigned b, uint64_t n)
{
	if (b > TOP)
		b = TOP;
	h->bucket[b] = add_sat64(h->bucket[b], n);
}

void hist_add_totals(struct hist *h, uint64_t n, uint64_t sum_ns, uint64_t min_ns,
		     uint64_t max_ns)
{
	if (n == 0)
		return;
	if (h->count == 0 || min_ns < h->min_ns)
		h->min_ns = min_ns;
	if (max_ns > h->max_ns)
		h->max_ns = max_ns;
	h->sum_ns = add_sat64(h->sum_ns, sum_ns);
	h->count += n;
}

/* ---- reading ---- */

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The rank of quantile q among n values: ceil(q * n), in [1, n]. */
static uint64_t rank_of(double q, uint64_t n)
{
	double want = q * (double)n;

	if (!(want > 1.0))	/* also catches NaN and q <= 0 */
		return 1;
	if (want >= (double)n)
		return n;

	uint64_t r = (uint64_t)want;

	return (double)r < want ? r + 1 : r;
}

uint64_t hist_quantile_min_count(double q)
{
	if (!(q > 0 && q < 1))
		return 1;
	double guess = 1 / (1 - q);
	uint64_t n = guess < 1e12 ? (uint64_t)guess : (uint64_t)1e12;

	/* 1 / (1 - q) is the answer but for rounding: settle it on rank_of() */
	while (n > 1 && rank_of(q, n - 1) < n - 1)
		n--;
	while (n < (uint64_t)1e12 && rank_of(q, n) >= n)
		n++;
	return n;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t n = get_count(h);

	if (n == 0)
		return 0;

	uint64_t min = get64(&h->min_ns);
	uint64_t max = get64(&h->max_ns);

	if (!(q < 1.0))		/* q >= 1, and NaN, mean the maximum */
		return max;

	uint64_t rank = rank_of(q, n);
	uint64_t seen = 0;
	unsigned b;

	for (b = 0; b < TOP; b++) {
		seen += get64(&h->bucket[b]);
		if (seen >= rank)
			break;
	}
	/* The top bucket has no upper end, so no midpoint: the max is the
	 * one value known to be in it. */
	if (b == TOP)
		return max;

	uint64_t lo = hist_bucket_low(b);

	return clamp(lo + (hist_bucket_high(b) - lo) / 2, min, max);
}

double hist_mean(const struct hist *h)
{
	uint64_t n = get_count(h);

	return n ? (double)get64(&h->sum_ns) / (double)n : 0.0;
}

uint64_t hist_count_above(const struct hist *h, unsigned b)
{
	uint64_t n = 0;

	for (unsigned i = b + 1u; i <= TOP; i++)
		n += get64(&h->bucket[i]);
	return n;
}

/* ---- the saved form ---- */

size_t hist_format(const struct hist *h, char *buf, size_t len)
{
	size_t need = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned b = 0; b <= TOP; b++) {
		uint64_t n = get64(&h->bucket[b]);
		if (n == 0)
			continue;
		/* past the end of buf, snprintf() only counts */
		need += (size_t)snprintf(need < len ? buf + need : NULL, need < len ? len - need : 0,
					 "%s%u:%" PRIu64, need ? " " : "", b, n);
	}
	return need;
}

/* A whole number at *p (digits only), moving *p past it; false when
 * there is none or it overflows. */
static bool read_u64(const char **p, uint64_t *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	unsigned long long x = strtoull(*p, &end, 10);
	if (errno)
		return false;
	*p = end;
	*v = x;
	return true;
}

const char *hist_parse(struct hist *h, const char *text, uint64_t count, uint64_t sum_ns,
		       uint64_t min_ns, uint64_t max_ns)
{
	const char *p = text;
	uint64_t seen = 0, prev = 0;
	bool first = true;

	/* a first pass checks it all, so that h changes only when whole */
	while (*p) {
		uint64_t b, n;
		if (!first && *p++ != ' ')
			return "buckets are not separated by single spaces";
		if (!read_u64(&p, &b) || *p++ != ':' || !read_u64(&p, &n))
			return "a bucket is not INDEX:COUNT";
		if (b > TOP)
			return "a bucket index is past the top";
		if (!first && b <= prev)
			return "bucket indexes are not in ascending order";
		if (n == 0)
			return "a bucket has a count of 0";
		if (__builtin_add_overflow(seen, n, &seen))
			return "the counts overflow";
		prev = b;
		first = false;
	}
	if (seen != count)
		return "the buckets' counts do not add up to the count";
	if (count && (min_ns > max_ns || hist_bucket_of(min_ns) > hist_bucket_of(max_ns)))
		return "the minimum is above the maximum";
	for (p = text; *p; p += *p == ' ') {
		uint64_t b, n;
		read_u64(&p, &b);
		p++;
		read_u64(&p, &n);
		hist_add_bucket(h, (unsigned)b, n);
	}
	hist_add_totals(h, count, sum_ns, min_ns, max_ns);
	return NULL;
}
