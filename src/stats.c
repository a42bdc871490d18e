/*
 * stats.c - the shared stats region: mapping it, recording an operation
 * on the client side, and summing slots on the parent side.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "stats.h"

struct mapping {
	void *addr;
	size_t len;
};

static int unmap(struct mapping *m)
{
	munmap(m->addr, m->len);
	return 0;
}

struct stats_region *stats_map(TALLOC_CTX *mem_ctx, unsigned nclients)
{
	struct mapping *m = talloc(mem_ctx, struct mapping);
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->len = sizeof(struct stats_region) + (size_t)nclients * sizeof(struct client_slot);
	m->addr = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->addr == MAP_FAILED) {
		int e = errno;
		talloc_free(m);
		errno = e;
		return NULL;
	}
	talloc_set_destructor(m, unmap);
	struct stats_region *r = m->addr;
	r->nclients = nclients;
	return r;
}

void stats_record(struct client_slot *s, enum phase ph, enum op_type op,
		  uint64_t bytes, uint64_t ns, int failed, uint64_t tick)
{
	struct phase_stats *p = &s->phase[ph];
	struct op_stats *o = &p->op[op];

	stats_add(&o->count, 1);
	stats_add(&o->total_ns, ns);
	if (ns > o->max_ns)
		stats_set(&o->max_ns, ns);
	if (failed)
		stats_add(&o->errors, 1);
	if (ph == PHASE_EXECUTE)
		hist_record(&s->hist[op], ns);
	if (op_table[op].bytes == BYTES_READ)
		stats_add(&p->bytes_read, bytes);
	else if (bytes)
		stats_add(&p->bytes_written, bytes);
	stats_add(&p->ops, 1);

	unsigned w = tick % STATS_WINDOWS;
	if (s->win_tick[w] != tick) {
		stats_set(&s->win_max_ns[w], 0);
		stats_set(&s->win_tick[w], tick);
	}
	if (ns > s->win_max_ns[w])
		stats_set(&s->win_max_ns[w], ns);
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
	unsigned w = tick % STATS_WINDOWS;
	uint64_t max = 0;

	for (unsigned i = 0; i < r->nclients; i++) {
		const struct client_slot *s = &r->slot[i];
		uint64_t v = stats_get(&s->win_max_ns[w]);
		if (stats_get(&s->win_tick[w]) == tick && v > max)
			max = v;
	}
	return max;
}

void stats_sum(const struct stats_region *r, enum phase ph, struct phase_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < r->nclients; i++) {
		const struct phase_stats *p = &r->slot[i].phase[ph];
		out->bytes_read += stats_get(&p->bytes_read);
		out->bytes_written += stats_get(&p->bytes_written);
		out->ops += stats_get(&p->ops);
		out->verify.bytes_checked += stats_get(&p->verify.bytes_checked);
		out->verify.reads_checked += stats_get(&p->verify.reads_checked);
		out->verify.mismatches += stats_get(&p->verify.mismatches);
		out->verify.ns += stats_get(&p->verify.ns);
		for (int t = 0; t < OP_COUNT; t++) {
			const struct op_stats *o = &p->op[t];
			struct op_stats *d = &out->op[t];
			d->count += stats_get(&o->count);
			d->errors += stats_get(&o->errors);
			d->total_ns += stats_get(&o->total_ns);
			uint64_t m = stats_get(&o->max_ns);
			if (m > d->max_ns)
				d->max_ns = m;
		}
	}
}

void stats_merge_hists(const struct stats_region *r, struct hist out[OP_COUNT])
{
	memset(out, 0, sizeof(struct hist) * OP_COUNT);
	for (unsigned i = 0; i < r->nclients; i++) {
		for (int t = 0; t < OP_COUNT; t++)
			hist_merge(&out[t], &r->slot[i].hist[t]);
	}
}
