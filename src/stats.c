/*
 * stats.c - the shared stats region: mapping it, recording an operation
 * on the client side and a listing on the probe side, and summing slots on
 * the parent side.
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
	stats_window_note(&s->win, tick, ns);
}

void stats_record_listing(struct probe_slot *s, enum phase ph, uint64_t entries,
			  uint64_t ns, uint64_t tick)
{
	if (ph == PHASE_EXECUTE) {
		hist_record(&s->hist, ns);
		stats_set(&s->entries, entries);
	}
	stats_window_note(&s->win, tick, ns);
}

void stats_window_note(struct latency_windows *w, uint64_t tick, uint64_t ns)
{
	unsigned i = tick % STATS_WINDOWS;

	if (w->tick[i] != tick) {
		stats_set(&w->max_ns[i], 0);
		stats_set(&w->tick[i], tick);
	}
	if (ns > w->max_ns[i])
		stats_set(&w->max_ns[i], ns);
}

uint64_t stats_window_get(const struct latency_windows *w, uint64_t tick)
{
	unsigned i = tick % STATS_WINDOWS;
	uint64_t v = stats_get(&w->max_ns[i]);

	return stats_get(&w->tick[i]) == tick ? v : 0;
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

/* out += p, where p may be live. */
static void add_phase(struct phase_stats *out, const struct phase_stats *p)
{
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

void stats_sum(const struct stats_region *r, enum phase ph, struct phase_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < r->nclients; i++)
		add_phase(out, &r->slot[i].phase[ph]);
}

void stats_group_collect(struct stats_group *g, const struct stats_region *r,
			 unsigned first, unsigned step)
{
	for (unsigned i = first; i < r->nclients; i += step) {
		const struct client_slot *s = &r->slot[i];
		g->clients++;
		g->pause_ns += stats_get(&s->pause_ns);
		add_phase(&g->exec, &s->phase[PHASE_EXECUTE]);
		/* A histogram no operation reached is never read: reading a
		 * page of the shared region that nobody wrote allocates it. */
		for (int t = 0; t < OP_COUNT; t++)
			if (stats_get(&s->phase[PHASE_EXECUTE].op[t].count))
				hist_merge(&g->hist[t], &s->hist[t]);
	}
}

void stats_group_add(struct stats_group *dst, const struct stats_group *src)
{
	dst->clients += src->clients;
	dst->pause_ns += src->pause_ns;
	add_phase(&dst->exec, &src->exec);
	for (int t = 0; t < OP_COUNT; t++)
		hist_merge(&dst->hist[t], &src->hist[t]);
}

void stats_clients_collect(const struct stats_region *r, struct stats_client *out)
{
	for (unsigned i = 0; i < r->nclients; i++) {
		const struct phase_stats *p = &r->slot[i].phase[PHASE_EXECUTE];
		struct phase_stats one = { 0 };
		add_phase(&one, p);
		out[i] = (struct stats_client){ .bytes = stats_bytes(&one), .ops = one.ops };
		for (int t = 0; t < OP_COUNT; t++)
			out[i].errors += one.op[t].errors;
	}
}
