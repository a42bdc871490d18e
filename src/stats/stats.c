/*
 * stats.c - the shared stats region: mapping it, recording an operation
 * on the client side and a listing on the probe side, and summing slots
 * and putting histograms together on the parent side.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stats.h"

struct mapping {
	void *addr;
	size_t len;
	pid_t owner;	/* the process that mapped it */
};

/* Only in the process that mapped it: a client process's copy goes with
 * the process, for a thousand of them unmapping it at once queue on the
 * one lock of the memory they share, some ten a second on two busy CPUs. */
static int unmap(struct mapping *m)
{
	if (getpid() == m->owner)
		munmap(m->addr, m->len);
	return 0;
}

/* n rounded up to a multiple of the page size. */
static size_t page_up(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

struct stats_region *stats_map(TALLOC_CTX *mem_ctx, unsigned nclients, unsigned ndirs,
			       unsigned ncpus, unsigned nprobes)
{
	struct mapping *m = talloc(mem_ctx, struct mapping);
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	ndirs = ndirs ? ndirs : 1;
	ncpus = ncpus ? ncpus : 1;
	size_t nsets = (size_t)ndirs * ncpus;
	size_t probes_at = sizeof(struct stats_region) +
			   (size_t)nclients * sizeof(struct client_slot);
	size_t touched_at = probes_at + (size_t)nprobes * sizeof(struct probe_slot);
	size_t sets_at = page_up(touched_at + nsets * STATS_SET_CHUNKS);
	m->len = sets_at + nsets * sizeof(struct hist_set);
	m->addr = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->addr == MAP_FAILED) {
		int e = errno;
		talloc_free(m);
		errno = e;
		return NULL;
	}
	m->owner = getpid();
	talloc_set_destructor(m, unmap);
	struct stats_region *r = m->addr;
	memset(r->types, 1, sizeof(r->types));
	r->nclients = nclients;
	r->ndirs = ndirs;
	r->ncpus = ncpus;
	r->nprobes = nprobes;
	r->probe = nprobes ? (struct probe_slot *)((char *)m->addr + probes_at) : NULL;
	r->touched = (uint8_t *)m->addr + touched_at;
	r->sets = (struct hist_set *)((char *)m->addr + sets_at);
	return r;
}

void stats_limit_types(struct stats_region *r, const uint64_t count[OP_COUNT])
{
	for (int t = 0; t < OP_COUNT; t++)
		r->types[t] = count[t] != 0;
}

struct stats_sets stats_sets_of(struct stats_region *r, unsigned client)
{
	size_t first = (size_t)(client % r->ndirs) * r->ncpus;

	return (struct stats_sets){ .set = &r->sets[first],
				    .touched = &r->touched[first * STATS_SET_CHUNKS],
				    .ncpus = r->ncpus };
}

void stats_record_listing(struct probe_slot *s, enum phase ph, enum phase end_ph,
			  uint64_t entries, uint64_t ns, uint64_t tick)
{
	if (ph == PHASE_EXECUTE) {
		hist_record(&s->hist, ns);
		stats_set(&s->entries, entries);
	}
	if (ph == PHASE_WARMUP && end_ph == PHASE_EXECUTE) {
		stats_add(&s->straddled, 1);
		if (ns > stats_get(&s->straddled_max_ns))
			stats_set(&s->straddled_max_ns, ns);
	}
	stats_window_note(&s->win, tick, ns);
}

uint64_t stats_window_get(const struct latency_windows *w, uint64_t tick)
{
	unsigned i = tick % STATS_WINDOWS;
	uint64_t v = stats_get(&w->max_ns[i]);

	return stats_get(&w->tick[i]) == tick ? v : 0;
}

uint64_t stats_window_latest(const struct latency_windows *w)
{
	uint64_t latest = 0;

	for (unsigned i = 0; i < STATS_WINDOWS; i++) {
		uint64_t t = stats_get(&w->tick[i]);
		if ((t > 0 || stats_get(&w->max_ns[i]) > 0) && t + 1 > latest)
			latest = t + 1;
	}
	return latest;
}

void stats_record_straddle(struct client_slot *s, enum op_type op, uint64_t ns)
{
	stats_add(&s->straddled.count, 1);
	if (ns > stats_get(&s->straddled.max_ns)) {
		stats_set(&s->straddled.type, op);
		stats_set(&s->straddled.max_ns, ns);
	}
}

/* dst takes in src's straddling operations. */
static void add_straddle(struct straddle *dst, uint64_t count, uint64_t max_ns, uint64_t type)
{
	dst->count += count;
	if (max_ns > dst->max_ns) {
		dst->max_ns = max_ns;
		dst->type = type;
	}
}

void stats_record_skipped(struct client_slot *s, enum phase ph, enum op_type op)
{
	stats_add(&s->phase[ph].op[op].skipped, 1);
}

void stats_lag_add(struct lag *l, const struct lag *s)
{
	l->count += stats_get(&s->count);
	l->sum_ns += stats_get(&s->sum_ns);
	l->wait_ns += stats_get(&s->wait_ns);
	l->waited += stats_get(&s->waited);
	uint64_t m = stats_get(&s->max_ns);
	if (m > l->max_ns)
		l->max_ns = m;
}

void stats_record_unsupported(struct client_slot *s, enum phase ph, enum op_type op)
{
	stats_add(&s->phase[ph].op[op].unsupported, 1);
}

void stats_record_verify(struct client_slot *s, enum phase ph, const struct verify_tally *t)
{
	struct verify_tally *v = &s->phase[ph].verify;

	stats_add(&v->bytes_checked, t->bytes_checked);
	stats_add(&v->reads_checked, t->reads_checked);
	stats_add(&v->mismatches, t->mismatches);
	stats_add(&v->ns, t->ns);
}

uint64_t stats_window_max(const struct stats_region *r, uint64_t tick)
{
	uint64_t max = 0;

	for (unsigned i = 0; i < r->nclients; i++) {
		uint64_t v = stats_window_get(&r->slot[i].win, tick);
		if (v > max)
			max = v;
	}
	return max;
}

uint64_t stats_max_latency(const struct stats_region *r)
{
	uint64_t max = 0;

	for (unsigned i = 0; i < r->nclients; i++) {
		const struct client_slot *s = &r->slot[i];
		uint64_t v = stats_get(&s->straddled.max_ns);
		max = v > max ? v : max;
		for (int ph = 0; ph < PHASE_COUNT; ph++)
			for (int t = 0; t < OP_COUNT; t++) {
				if (!r->types[t])
					continue;
				v = stats_get(&s->phase[ph].op[t].max_ns);
				max = v > max ? v : max;
			}
	}
	return max;
}

/* out += the figures of each operation type (of those with types[t],
 * all without types) and the verification work, from a slot (which may
 * be live) or from other sums; the phase's operation and byte totals
 * follow from the types' (a client does not keep them twice). */
static void add_figures(struct phase_stats *out, const struct op_stats *op,
			const struct verify_tally *v, const uint8_t *types)
{
	out->verify.bytes_checked += stats_get(&v->bytes_checked);
	out->verify.reads_checked += stats_get(&v->reads_checked);
	out->verify.mismatches += stats_get(&v->mismatches);
	out->verify.ns += stats_get(&v->ns);
	for (int t = 0; t < OP_COUNT; t++) {
		if (types && !types[t])
			continue;
		const struct op_stats *o = &op[t];
		struct op_stats *d = &out->op[t];
		uint64_t n = stats_get(&o->count);
		uint64_t min = stats_get(&o->min_ns);
		if (n && (d->count == 0 || min < d->min_ns))
			d->min_ns = min;
		d->count += n;
		out->ops += n;
		uint64_t bytes = stats_get(&o->bytes);
		d->bytes += bytes;
		if (op_table[t].bytes == BYTES_READ)
			out->bytes_read += bytes;
		else
			out->bytes_written += bytes;
		d->errors += stats_get(&o->errors);
		d->unsupported += stats_get(&o->unsupported);
		d->skipped += stats_get(&o->skipped);
		d->total_ns += stats_get(&o->total_ns);
		uint64_t m = stats_get(&o->max_ns);
		if (m > d->max_ns)
			d->max_ns = m;
	}
}

static void add_phase(struct phase_stats *out, const struct stats_region *r,
		      const struct phase_slot *p)
{
	add_figures(out, p->op, &p->verify, r->types);
}

static void add_sums(struct phase_stats *out, const struct phase_stats *p)
{
	add_figures(out, p->op, &p->verify, NULL);
}

void stats_sum(const struct stats_region *r, enum phase ph, struct phase_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < r->nclients; i++)
		add_phase(out, r, &r->slot[i].phase[ph]);
}

/* h += the buckets in chunk c of type t's buckets in `set`. */
static void add_chunk(struct hist *h, const struct hist_set *set, unsigned t, unsigned c)
{
	unsigned end = (c + 1) * STATS_CHUNK_BUCKETS;

	for (unsigned b = c * STATS_CHUNK_BUCKETS; b < end && b < HIST_BUCKETS; b++) {
		uint64_t n = __atomic_load_n(&set->bucket[t][b], __ATOMIC_RELAXED);
		if (n)
			hist_add_bucket(h, b, n);
	}
}

/* Add the buckets of directory d's sets to g's histograms.  Only chunks a
 * client flagged are read: reading a page of the shared region that
 * nobody wrote allocates it. */
static void add_sets(struct stats_group *g, const struct stats_region *r, unsigned d)
{
	for (size_t k = (size_t)d * r->ncpus; k < (size_t)(d + 1) * r->ncpus; k++) {
		const uint8_t *touched = &r->touched[k * STATS_SET_CHUNKS];

		for (unsigned t = 0; t < OP_COUNT; t++)
			for (unsigned c = 0; c < STATS_OP_CHUNKS; c++)
				if (__atomic_load_n(&touched[t * STATS_OP_CHUNKS + c], __ATOMIC_RELAXED))
					add_chunk(&g->hist[t], &r->sets[k], t, c);
	}
}

/*
 * A group's histograms: the exact totals from its clients' slots, the
 * buckets from its directories' sets.  The counts are loaded first, so
 * that buckets still being added to hold at least as many values.
 */
void stats_group_collect(struct stats_group *g, const struct stats_region *r, int dir)
{
	unsigned first = dir < 0 ? 0 : (unsigned)dir;
	unsigned step = dir < 0 ? 1 : r->ndirs;
	struct phase_stats exec = { 0 };

	for (unsigned i = first; i < r->nclients; i += step) {
		const struct client_slot *s = &r->slot[i];
		g->clients++;
		g->pause_ns += stats_get(&s->pause_ns);
		stats_lag_add(&g->lag, &s->lag);
		add_straddle(&g->straddled, stats_get(&s->straddled.count),
			     stats_get(&s->straddled.max_ns), stats_get(&s->straddled.type));
		add_phase(&exec, r, &s->phase[PHASE_EXECUTE]);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_stats *o = &exec.op[t];
		hist_add_totals(&g->hist[t], o->count, o->total_ns, o->min_ns, o->max_ns);
	}
	add_sums(&g->exec, &exec);
	for (unsigned d = first; d < (dir < 0 ? r->ndirs : first + 1); d++)
		add_sets(g, r, d);
}

void stats_group_add(struct stats_group *dst, const struct stats_group *src)
{
	dst->clients += src->clients;
	dst->pause_ns += src->pause_ns;
	stats_lag_add(&dst->lag, &src->lag);
	add_straddle(&dst->straddled, src->straddled.count, src->straddled.max_ns,
		     src->straddled.type);
	add_sums(&dst->exec, &src->exec);
	for (int t = 0; t < OP_COUNT; t++)
		hist_merge(&dst->hist[t], &src->hist[t]);
}

void stats_clients_collect(const struct stats_region *r, uint64_t exec_ns,
			   uint64_t window_end_ns, struct stats_client *out)
{
	for (unsigned i = 0; i < r->nclients; i++) {
		const struct phase_slot *p = &r->slot[i].phase[PHASE_EXECUTE];
		struct phase_stats one = { 0 };
		uint64_t end = __atomic_load_n(&r->slot[i].end_ns, __ATOMIC_ACQUIRE);
		if (end > window_end_ns)
			end = window_end_ns;	/* 0: it never said when it stopped */
		add_phase(&one, r, p);
		out[i] = (struct stats_client){ .bytes = stats_bytes(&one),
						.bytes_written = one.bytes_written, .ops = one.ops,
						.seconds = end > exec_ns ? (end - exec_ns) / 1e9 : 0 };
		for (int t = 0; t < OP_COUNT; t++) {
			out[i].errors += one.op[t].errors;
			out[i].unsupported += one.op[t].unsupported;
		}
	}
}

unsigned stats_passes_since(const struct client_slot *s, uint64_t *seen,
			    struct pass_record *out, uint64_t *lost)
{
	uint64_t done = __atomic_load_n(&s->passes, __ATOMIC_ACQUIRE);
	unsigned n = 0;

	if (done - *seen > STATS_PASS_RING) {
		*lost += done - *seen - STATS_PASS_RING;
		*seen = done - STATS_PASS_RING;
	}
	for (; *seen < done; (*seen)++, n++) {
		const struct pass_record *r = &s->pass[*seen % STATS_PASS_RING];
		out[n].start_ns = __atomic_load_n(&r->start_ns, __ATOMIC_RELAXED);
		out[n].end_ns = __atomic_load_n(&r->end_ns, __ATOMIC_RELAXED);
	}
	return n;
}
