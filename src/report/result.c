/*
 * result.c - turning the stats region into a run's figures (see result.h):
 * totals, percentiles, per-client rates, fairness, the probe's listings
 * and stalls.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numstat.h"
#include "probe.h"
#include "result.h"

double result_throughput(const struct run_result *res)
{
	if (res->exec_seconds <= 0)
		return 0;
	return (res->bytes_read + res->bytes_written) / 1e6 / res->exec_seconds;
}

double result_ops_per_s(const struct run_result *res)
{
	return res->exec_seconds > 0 ? res->ops / res->exec_seconds : 0;
}

static double ms(double ns)
{
	return ns / 1e6;
}

/* Quantile q of h in ms; NAN from fewer values than it needs
 * (hist_quantile_min_count()), where it would be the maximum renamed. */
static double quantile_ms(const struct hist *h, double q)
{
	return h->count >= hist_quantile_min_count(q) ? ms(hist_quantile(h, q)) : NAN;
}

static void fill_op(struct op_result *o, const struct hist *h, uint64_t errors)
{
	o->count = h->count;
	o->errors = errors;
	o->mean_ms = ms(hist_mean(h));
	o->p50_ms = quantile_ms(h, 0.50);
	o->p90_ms = quantile_ms(h, 0.90);
	o->p99_ms = quantile_ms(h, 0.99);
	o->p999_ms = quantile_ms(h, 0.999);
	o->max_ms = ms(h->max_ns);
	o->hist = h;
}

/* The fairness of the n rates in v, which it sorts. */
static struct fairness fairness_of(double *v, unsigned n)
{
	struct fairness f = { 0 };
	double sum = 0, sumsq = 0;

	if (n == 0)
		return f;
	for (unsigned i = 0; i < n; i++)
		if (isnan(v[i]))	/* a rate missing: unknown, not unfair */
			return (struct fairness){ NAN, NAN, NAN, NAN };
	numstat_sort(v, n);
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		sumsq += v[i] * v[i];
	}
	f.min_mb_s = v[0];
	f.max_mb_s = v[n - 1];
	f.median_mb_s = numstat_median_sorted(v, n);
	f.jain_index = sumsq > 0 ? sum * sum / (n * sumsq) : 1;
	return f;
}

struct fairness result_fairness(const double *mb_s, unsigned n)
{
	double *v = malloc(sizeof(double) * (n ? n : 1));
	struct fairness f = { 0 };

	if (v && n) {
		memcpy(v, mb_s, sizeof(double) * n);
		f = fairness_of(v, n);
	}
	free(v);
	return f;
}

/* res->probe for each of the plan's probes, named; false when out of
 * memory (res->probe NULL then). */
static bool probes_new(struct run_result *res)
{
	const struct run_plan *plan = res->plan;

	res->nprobes = 0;
	if (!plan->nprobes)
		return true;
	res->probe = talloc_zero_array(res, struct probe_result, plan->nprobes);
	for (unsigned i = 0; res->probe && i < plan->nprobes; i++)
		if (!(res->probe[i].directory = talloc_strdup(res->probe, plan->probe_dirs[i])))
			TALLOC_FREE(res->probe);
	res->nprobes = res->probe ? plan->nprobes : 0;
	return res->probe != NULL;
}

struct run_result *result_new(TALLOC_CTX *mem_ctx, const struct run_plan *plan,
			      unsigned nranks)
{
	struct run_result *res = talloc_zero(mem_ctx, struct run_result);

	if (!res)
		return NULL;
	res->plan = plan;
	res->nranks = nranks;
	res->nclients = plan->nclients * nranks;
	res->clients = talloc_zero_array(res, struct client_result, res->nclients);
	res->dirs = talloc_zero_array(res, struct dir_result, plan->ndirs);
	res->ranks = talloc_zero_array(res, struct rank_result, nranks);
	res->scratch = talloc_array(res, double, res->nclients > nranks ? res->nclients : nranks);
	bool probes = probes_new(res);
	if (!res->clients || !res->dirs || !res->ranks || !res->scratch || !probes)
		TALLOC_FREE(res);
	return res;
}

/* Room for n rates: the scratch result_new() made, or an array of its
 * own on res (free it with drop_rates()); NULL when out of memory. */
static double *rates_of(struct run_result *res, unsigned n)
{
	return res->scratch ? res->scratch : talloc_array(res, double, n ? n : 1);
}

static void drop_rates(struct run_result *res, double *rates)
{
	if (rates != res->scratch)
		talloc_free(rates);
}

/* Note that memory ran out for `what`: the first such is named. */
static void note_missing(struct run_result *res, const char *what)
{
	if (!res->missing)
		res->missing = what;
}


static void fill_clients(struct run_result *res, const struct stats_client *figs)
{
	const struct run_plan *plan = res->plan;
	unsigned per_rank = res->nranks > 1 ? res->nclients / res->nranks : res->nclients;
	double *rates = rates_of(res, res->nclients);

	if (!res->clients)
		res->clients = talloc_zero_array(res, struct client_result, res->nclients);
	if (!res->clients || !rates) {
		TALLOC_FREE(res->clients);
		drop_rates(res, rates);
		note_missing(res, "the per-client figures");
		return;
	}
	for (unsigned i = 0; i < res->nclients; i++) {
		struct client_result *c = &res->clients[i];
		unsigned local = i % per_rank;
		c->rank = i / per_rank;
		c->id = local + 1;
		c->directory = plan->dirs[local % plan->ndirs];
		c->bytes = figs[i].bytes;
		c->bytes_written = figs[i].bytes_written;
		c->ops = figs[i].ops;
		c->errors = figs[i].errors;
		c->unsupported = figs[i].unsupported;
		/* its own time: with --run-once, until its pass ended; none
		 * (its rate missing) when it never ran in the execute window
		 * or never said when it stopped (killed, failed in its setup) */
		c->seconds = figs[i].seconds;
		c->mb_s = c->seconds > 0 ? c->bytes / 1e6 / c->seconds : NAN;
		rates[i] = c->mb_s;
	}
	res->fairness = fairness_of(rates, res->nclients);
	drop_rates(res, rates);
}

/* The median over the clients of each one's bytes (moved) or operations
 * (performed or gone past), in the scratch of the rates. */
static double client_median(struct run_result *res, bool bytes)
{
	double *v = rates_of(res, res->nclients), median;

	if (!v)
		return NAN;
	for (unsigned i = 0; i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		v[i] = bytes ? (double)c->bytes : (double)(c->ops + c->unsupported);
	}
	numstat_sort(v, res->nclients);
	median = numstat_median_sorted(v, res->nclients);
	drop_rates(res, v);
	return median;
}

/* How much of the loadfile the median client replayed in the window. */
static void fill_replayed(struct run_result *res)
{
	const struct program *prog = res->plan->prog;
	struct replayed *r = &res->replayed;

	*r = (struct replayed){ .per_pass = loadfile_ops_per_pass(prog), .median_share = NAN };
	if (!res->clients || res->nclients == 0 || r->per_pass == 0)
		return;
	double ops = client_median(res, false), bytes = client_median(res, true);
	if (isnan(ops) || isnan(bytes))
		return;
	r->median_ops = (uint64_t)ops;
	r->median_share = ops / r->per_pass;
	r->moved_nothing = bytes == 0 && prog->bytes_read + prog->bytes_written > 0;
	/* with --run-once the window is a whole pass by construction (an
	 * interrupt or a failure that cut it short says so itself) */
	r->too_short = !res->plan->run_once && (r->median_share < 1 || r->moved_nothing);
}

/* Directory d's time: with --run-once, until the last of its clients
 * ended its pass (like each client's own rate), else the whole window. */
static double dir_seconds(const struct run_result *res, unsigned d)
{
	const struct run_plan *plan = res->plan;
	double secs = 0;

	if (!plan->run_once || !res->clients)
		return res->exec_seconds;
	for (unsigned i = 0; i < res->nclients; i++)
		if ((res->clients[i].id - 1) % plan->ndirs == d && res->clients[i].seconds > secs)
			secs = res->clients[i].seconds;
	return secs > 0 ? secs : res->exec_seconds;
}

void result_fill_dir(struct run_result *res, unsigned d, const struct stats_group *g,
		     struct hist *scratch)
{
	if (!res->dirs || d >= res->plan->ndirs)
		return;
	struct dir_result *dr = &res->dirs[d];
	memset(scratch, 0, sizeof(*scratch));
	dr->directory = res->plan->dirs[d];
	dr->clients = g->clients;
	dr->bytes = stats_bytes(&g->exec);
	for (int t = 0; t < OP_COUNT; t++)
		hist_merge(scratch, &g->hist[t]);
	double secs = dir_seconds(res, d);
	dr->mb_s = secs > 0 ? dr->bytes / 1e6 / secs : 0;
	dr->operations = scratch->count;
	dr->p99_ms = quantile_ms(scratch, 0.99);
}

/* One probe's figures from its slot. */
static void fill_probe(struct probe_result *p, const struct probe_slot *s)
{
	p->count = s->hist.count;
	p->entries = stats_get(&s->entries);
	p->p50_ms = quantile_ms(&s->hist, 0.50);
	p->p99_ms = quantile_ms(&s->hist, 0.99);
	p->max_ms = ms(s->hist.max_ns);
	p->straddled = stats_get(&s->straddled);
	p->straddled_max_ms = ms(stats_get(&s->straddled_max_ns));
}

void result_fill_probe(struct run_result *res, const struct stats_region *stats)
{
	if (!res->probe && !probes_new(res)) {
		note_missing(res, "the probe's figures");
		return;
	}
	for (unsigned i = 0; i < res->nprobes; i++)
		fill_probe(&res->probe[i], &stats->probe[i]);
}

void result_fill_figures(struct run_result *res, const struct run_figures *f)
{
	const struct phase_stats *sum = &f->all->exec;

	res->bytes_read = sum->bytes_read;
	res->bytes_written = sum->bytes_written;
	res->ops = sum->ops;
	res->errors = 0;
	res->max_latency_ms = 0;
	uint64_t busy_ns = 0;
	for (int t = 0; t < OP_COUNT; t++) {
		busy_ns += sum->op[t].total_ns;
		fill_op(&res->op[t], &f->all->hist[t], sum->op[t].errors);
		res->op[t].unsupported = sum->op[t].unsupported;
		res->op[t].skipped = sum->op[t].skipped;
		res->errors += sum->op[t].errors;
		if (res->op[t].max_ms > res->max_latency_ms)
			res->max_latency_ms = res->op[t].max_ms;
	}
	res->verify = (struct verify_result){
		.bytes_checked = sum->verify.bytes_checked,
		.reads_checked = sum->verify.reads_checked,
		.mismatches = sum->verify.mismatches,
		.cost_s = sum->verify.ns / 1e9,
		.cost_pct = busy_ns ? 100.0 * sum->verify.ns / busy_ns : 0,
	};
	res->straddled = f->all->straddled.count;
	res->straddled_max_ms = ms(f->all->straddled.max_ns);
	res->straddled_op = res->straddled && f->all->straddled.type < OP_COUNT
				    ? op_table[f->all->straddled.type].name : NULL;
	if (res->straddled_max_ms > res->max_latency_ms)
		res->max_latency_ms = res->straddled_max_ms;
	fill_clients(res, f->clients);
	fill_replayed(res);
	if (!res->dirs && !(res->dirs = talloc_zero_array(res, struct dir_result,
							  res->plan->ndirs)))
		note_missing(res, "the per-directory figures");
	res->think_time_mean_us = res->ops ? f->all->pause_ns / 1e3 / res->ops : 0;
	res->behind_calls = f->all->lag.count;
	res->behind_mean_ms = f->all->lag.count ? f->all->lag.sum_ns / 1e6 / f->all->lag.count : 0;
	res->behind_max_ms = f->all->lag.max_ns / 1e6;
	res->behind_wait_ms = f->all->lag.waited ? f->all->lag.wait_ns / 1e6 : NAN;
}

void result_fill(struct run_result *res, const struct stats_region *stats)
{
	unsigned ndirs = res->plan->ndirs;
	struct stats_group *g = talloc_zero(res, struct stats_group);
	struct hist *scratch = talloc(res, struct hist);
	struct stats_client *clients = talloc_zero_array(res, struct stats_client,
							  stats->nclients);

	if (!g || !scratch || !clients) {
		note_missing(res, "the figures");
		goto out;
	}
	stats_group_collect(g, stats, STATS_ALL_DIRS);
	stats_clients_collect(stats, 0, 0, clients);
	for (unsigned i = 0; i < stats->nclients; i++)
		clients[i].seconds = res->exec_seconds;		/* each: the whole window */
	result_fill_figures(res, &(struct run_figures){ g, clients });
	for (unsigned d = 0; d < ndirs; d++) {
		memset(g, 0, sizeof(*g));
		stats_group_collect(g, stats, (int)d);
		result_fill_dir(res, d, g, scratch);
	}
	res->probe = NULL;
	res->nprobes = 0;
	if (res->plan->nprobes)
		result_fill_probe(res, stats);
out:
	for (int t = 0; t < OP_COUNT; t++)
		res->op[t].hist = NULL;		/* g's, going */
	talloc_free(g);
	talloc_free(scratch);
	talloc_free(clients);
}

double result_bytes_by(const struct run_result *res, double t)
{
	double bytes = 0, from = 0;

	for (size_t i = 0; i < res->ntimeline && from < t; i++) {
		const struct timeline_point *p = &res->timeline[i];
		double to = p->t_s < t ? p->t_s : t;
		if (to > from)
			bytes += p->mb_s * 1e6 * (to - from);
		from = p->t_s;
	}
	return bytes;
}

void result_fill_ranks(struct run_result *res)
{
	double *rates = rates_of(res, res->nranks);
	double first = res->exec_seconds;
	bool known = true;

	for (unsigned r = 0; res->ranks && r < res->nranks; r++) {
		struct rank_result *rr = &res->ranks[r];
		rr->mb_s = rr->seconds > 0 ? rr->bytes / 1e6 / rr->seconds : NAN;
		if (rates)
			rates[r] = rr->mb_s;
		if (rr->seconds < first)
			first = rr->seconds;
		known = known && !isnan(rr->mb_s);
	}
	if (res->ranks && rates)
		res->rank_fairness = fairness_of(rates, res->nranks);
	else
		note_missing(res, "the per-rank figures");
	drop_rates(res, rates);
	/* A rank without a rate leaves the stonewall unknown too; when every
	 * rank ran the whole window, the stonewall is the window. */
	res->stonewall_s = known ? first : NAN;
	if (!known)
		res->stonewall_mb_s = NAN;
	else if (first >= res->exec_seconds - 1e-6)
		res->stonewall_mb_s = result_throughput(res);
	else
		res->stonewall_mb_s = first > 0 ? result_bytes_by(res, first) / 1e6 / first : 0;
}

size_t result_stalls(TALLOC_CTX *mem_ctx, const struct run_result *res, size_t **idx)
{
	size_t n = res->ntimeline, count = 0;
	double *v = talloc_array(mem_ctx, double, n ? n : 1);
	bool by_bytes = res->bytes_read + res->bytes_written > 0;

	*idx = talloc_array(mem_ctx, size_t, n ? n : 1);
	if (!v || !*idx) {
		talloc_free(v);
		TALLOC_FREE(*idx);
		return RESULT_NO_MEMORY;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = by_bytes ? res->timeline[i].mb_s : res->timeline[i].ops_s;
	if (n > 0) {
		double floor = numstat_median(v, n) / 10;
		for (size_t i = 0; i < n; i++) {
			double x = by_bytes ? res->timeline[i].mb_s : res->timeline[i].ops_s;
			if (x < floor)
				(*idx)[count++] = i;
		}
	}
	talloc_free(v);
	return count;
}

/* Whether the clients of rank r write to rank 0's devices: on its host. */
static bool on_rank0_host(const struct run_result *res, unsigned r)
{
	if (!res->mpi || r == 0)
		return true;
	if (!res->ranks || r >= res->nranks || !res->ranks[0].host || !res->ranks[r].host)
		return false;
	return strcmp(res->ranks[0].host, res->ranks[r].host) == 0;
}

/* The bytes the clients wrote beneath the target directories of k. */
static double clients_wrote(const struct run_result *res, const struct blockstat_disk *k)
{
	unsigned ndirs = res->plan->ndirs;
	double bytes = 0;

	if (!res->clients || !k->dirs)
		return NAN;
	for (unsigned i = 0; i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		unsigned dir = (c->id - 1) % ndirs;
		for (unsigned j = 0; j < k->ndirs; j++)
			if (k->dirs[j] == dir && on_rank0_host(res, c->rank))
				bytes += c->bytes_written;
	}
	return bytes;
}

/* What of the clients' writes reached each device, by the end. */
static void fill_writeback(struct run_result *res)
{
	double page = (double)sysconf(_SC_PAGESIZE);

	res->writeback = talloc_zero_array(res, struct writeback, res->ndisks);
	if (!res->writeback) {
		note_missing(res, "the disks' figures");
		return;
	}
	for (size_t d = 0; d < res->ndisks; d++) {
		const struct blockstat_disk *k = &res->disks[d];
		struct writeback *w = &res->writeback[d];
		w->clients_bytes = clients_wrote(res, k);
		w->device_bytes = isnan(k->fig.busy_pct) ? NAN : k->write_kib * 1024;
		w->ratio = w->clients_bytes > 0 ? w->device_bytes / w->clients_bytes : NAN;
		w->dirty_end_bytes = res->memory.dirty_pages_end * page;
		w->writeback_end_bytes = res->memory.writeback_pages_end * page;
	}
}

/* The target directories on no device, from bs. */
static void fill_nodisk(struct run_result *res, const struct blockstat *bs)
{
	unsigned ndirs = res->plan->ndirs;

	res->nodisk = talloc_zero_array(res, struct nodisk, ndirs ? ndirs : 1);
	if (!res->nodisk) {
		note_missing(res, "the disks' figures");
		return;
	}
	for (unsigned i = 0; i < ndirs; i++) {
		const char *fstype = blockstat_no_device(bs, i);
		if (fstype)
			res->nodisk[res->nnodisk++] = (struct nodisk){ res->plan->dirs[i], fstype };
	}
}

void result_fill_disks(struct run_result *res, const struct blockstat *bs)
{
	size_t n = blockstat_ndisks(bs);

	res->disks = NULL;
	res->ndisks = 0;
	res->writeback = NULL;
	res->nodisk = NULL;
	res->nnodisk = 0;
	res->memory = blockstat_memory_unread;
	for (size_t i = 0; i < res->ntimeline; i++) {
		struct timeline_point *p = &res->timeline[i];

		p->disks = NULL;
		p->dirty_pages = p->writeback_pages = NAN;
	}
	if (blockstat_nreadings(bs) < 2)
		return;
	res->disks = blockstat_summary(res, bs, &res->memory);
	res->ndisks = res->disks ? n : 0;
	if (n && !res->disks)
		note_missing(res, "the disks' figures");
	if (!res->writeback_none) {
		fill_writeback(res);
		fill_nodisk(res, bs);
	}
	/* Reading i + 1 ends timeline point i. */
	for (size_t i = 0; i < res->ntimeline && i + 1 < blockstat_nreadings(bs); i++) {
		struct timeline_point *p = &res->timeline[i];

		p->disks = res->ndisks ? talloc_array(res, struct blockstat_figures, n) : NULL;
		if (res->ndisks && !p->disks)
			note_missing(res, "the disks' figures");
		blockstat_interval(bs, i + 1, p->disks, &p->dirty_pages, &p->writeback_pages);
	}
}

static int release_json(json_t **holder)
{
	json_decref(*holder);
	return 0;
}

void result_keep_json(struct run_result *res, json_t *v)
{
	json_t **holder = talloc(res, json_t *);
	if (!holder) {
		json_decref(v);
		return;
	}
	*holder = v;
	talloc_set_destructor(holder, release_json);
}
