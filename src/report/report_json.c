/*
 * report_json.c - the result as a JSON document, written with jansson
 * (see report.h for the contract, dbench-json(5) for the keys).  Every
 * member is a row of dockeys.def: the rows give the names, the order and
 * the fields read from the result; what is computed here is handed to
 * dockey_object() by the row's id.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dockey.h"
#include "outfile.h"
#include "probe.h"
#include "report.h"
#include "jsontext.h"
#include "version.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* json_real() of a non-finite value fails; a figure that is not a number
 * is written as null. */
static json_t *real(double v)
{
	json_t *j = json_real(v);
	return j ? j : json_null();
}

/* A list of names, as they are or through jsontext(); null for none. */
static json_t *names_json(const char *const *names, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < n; i++)
		json_array_append_new(a, jsontext(names[i]));
	return a;
}

static json_t *config_json(const struct run_plan *plan, unsigned nranks)
{
	json_t *probes = plan->nprobes ? names_json(plan->probe_dirs, plan->nprobes) : json_null();
	/* the first probe's directory as a single run has always had it */
	json_t *probe = plan->nprobes ? json_incref(json_array_get(probes, 0)) : json_null();
	json_t *cpus = plan->ncpus ? json_array() : json_null();

	for (unsigned i = 0; i < plan->ncpus; i++)
		json_array_append_new(cpus, json_integer(plan->cpus[i]));
	const struct dockey_value v[] = {
		{ DK_CONFIG_NPROCS, json_integer((json_int_t)plan->nclients * nranks) },
		{ DK_CONFIG_RANKS, json_integer(nranks) },
		{ DK_CONFIG_CPUS, cpus },
		{ DK_CONFIG_WARMUP, json_integer(plan->run_once ? 0 : plan->warmup) },
		{ DK_CONFIG_LOADFILE, jsontext(plan->prog->source) },
		{ DK_CONFIG_LOADFILE_SHA256, json_string(plan->prog->sha256) },
		{ DK_CONFIG_DIRECTORIES, names_json(plan->dirs, plan->ndirs) },
		{ DK_CONFIG_TARGET_RATE, plan->target_rate > 0 ? real(plan->target_rate)
							       : json_null() },
		{ DK_CONFIG_BACKEND, json_string(plan->backend->name) },
		{ DK_CONFIG_PROBE_DIRECTORY, probe },
		{ DK_CONFIG_PROBE_DIRECTORIES, probes },
	};
	return dockey_object(DK_CONFIG, plan, v, LEN(v));
}

/* --verify's figures, or null without it. */
static json_t *verify_json(const struct run_result *res)
{
	if (!res->plan->bopts.verify)
		return json_null();
	return dockey_object(DK_RESULT_VERIFY, &res->verify, NULL, 0);
}

/* Operations begun in warmup that ended in execute. */
static json_t *straddled_json(const struct run_result *res)
{
	const struct dockey_value v[] = {
		{ DK_STRADDLED_MAX, res->straddled ? real(res->straddled_max_ms) : json_null() },
	};
	return dockey_object(DK_RESULT_STRADDLED, res, v, LEN(v));
}

static json_t *result_json(const struct run_result *res)
{
	/* a run stopped before its execute window opened measured nothing:
	 * no throughput figure rather than 0 */
	bool none = res->interrupted && res->exec_seconds <= 0;
	double tp = none ? NAN : result_throughput(res);
	const struct dockey_value v[] = {
		{ DK_RESULT_THROUGHPUT, real(tp) },
		{ DK_RESULT_OPS_PER_S, real(none ? NAN : result_ops_per_s(res)) },
		{ DK_RESULT_STONEWALL_MB_S, real(none ? NAN : res->stonewall_mb_s) },
		{ DK_RESULT_NB_MB_S, real(tp * 1.25) },
		{ DK_RESULT_MBIT_S, real(tp * 10) },
		{ DK_RESULT_WINDOW, dockey_object(DK_RESULT_WINDOW, &res->window, NULL, 0) },
		{ DK_RESULT_OP_CLOCK, json_string(res->op_clock ? res->op_clock : "clock_gettime") },
		{ DK_RESULT_VERIFY, verify_json(res) },
		{ DK_RESULT_STRADDLED, straddled_json(res) },
	};
	return dockey_object(DK_RESULT, res, v, LEN(v));
}

/* A histogram in its saved form (hist.h): {count, sum_ns, min_ns, max_ns,
 * buckets}; null when memory runs out for its text. */
static json_t *hist_json(const struct hist *h)
{
	size_t len = hist_format(h, NULL, 0);
	char *text = malloc(len + 1);

	if (!text)
		return json_null();
	hist_format(h, text, len + 1);
	const struct dockey_value v[] = { { DK_HIST_BUCKETS, json_string(text) } };
	json_t *j = dockey_object(DK_HIST, h, v, LEN(v));
	free(text);
	return j;
}

/* A recording's replay: its timing and, in exact timing, how far behind
 * the recording it ran; null for the other dialects. */
static json_t *replay_json(const struct run_result *res)
{
	static const char *const timing[] = { "asap", "think", "exact" };
	const struct run_plan *plan = res->plan;

	if (!plan->prog->calls)
		return json_null();
	bool exact = plan->replay_timing == REPLAY_EXACT;
	const struct dockey_value v[] = {
		{ DK_REPLAY_TIMING, json_string(timing[plan->replay_timing]) },
		{ DK_REPLAY_SPEED, real(plan->replay_speed) },
		{ DK_REPLAY_STREAMS, json_integer((json_int_t)plan->prog->nstreams) },
		{ DK_REPLAY_BEHIND_CALLS, exact ? json_integer((json_int_t)res->behind_calls)
						: json_null() },
		{ DK_REPLAY_BEHIND_MEAN, exact ? real(res->behind_mean_ms) : json_null() },
		{ DK_REPLAY_BEHIND_MAX, exact ? real(res->behind_max_ms) : json_null() },
		{ DK_REPLAY_CPU_WAIT, exact ? real(res->behind_wait_ms) : json_null() },
	};
	return dockey_object(DK_REPLAY, NULL, v, LEN(v));
}

/* A count that is there only when it is not 0. */
static json_t *count_if(uint64_t n)
{
	return n ? json_integer((json_int_t)n) : DOCKEY_ABSENT;
}

static json_t *ops_json(const struct run_result *res)
{
	json_t *ops = json_object();

	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		if (o->count == 0 && o->errors == 0 && o->unsupported == 0 && o->skipped == 0)
			continue;
		const struct dockey_value v[] = {
			/* only where a backend could not */
			{ DK_OP_NOT_SUPPORTED, count_if(o->unsupported) },
			/* the latencies, for pooling runs exactly */
			{ DK_OP_HIST, o->hist && o->count ? hist_json(o->hist) : DOCKEY_ABSENT },
			/* a recording's calls on a descriptor never opened */
			{ DK_OP_SKIPPED, count_if(o->skipped) },
		};
		json_object_set_new(ops, op_table[t].name, dockey_object(DK_OP, o, v, LEN(v)));
	}
	return ops;
}

/* A timeline point's devices: [{device, ..., in_flight}]. */
static json_t *point_disks_json(const struct run_result *res, const struct timeline_point *p)
{
	json_t *a = json_array();

	for (size_t d = 0; p->disks && d < res->ndisks; d++) {
		const struct dockey_value v[] = {
			{ DK_POINT_DISK_DEVICE, jsontext(res->disks[d].device) },
		};
		json_array_append_new(a, dockey_object(DK_POINT_DISK, &p->disks[d], v, LEN(v)));
	}
	return a;
}

/* A device over the execute window, with what of the clients' writes
 * reached it (w NULL: not measured). */
static json_t *disk_json(const struct blockstat_disk *k, const struct writeback *w)
{
	static const struct writeback none = { NAN, NAN, NAN, NAN, NAN };

	w = w ? w : &none;
	const struct dockey_value v[] = {
		{ DK_DISK_CLIENTS_WRITTEN, real(w->clients_bytes) },
		{ DK_DISK_WRITTEN, real(w->device_bytes) },
		{ DK_DISK_WRITTEN_RATIO, real(w->ratio) },
		{ DK_DISK_DIRTY_END, real(w->dirty_end_bytes) },
		{ DK_DISK_WRITEBACK_END, real(w->writeback_end_bytes) },
	};
	return dockey_object(DK_DISK, k, v, LEN(v));
}

/* The devices over the execute window. */
static json_t *disks_json(const struct run_result *res)
{
	json_t *a = json_array();

	for (size_t d = 0; d < res->ndisks; d++)
		json_array_append_new(a, disk_json(&res->disks[d],
						   res->writeback ? &res->writeback[d] : NULL));
	return a;
}

/* Why no device shows the clients' writes, and the targets on none:
 * {"none": TEXT or null, "no_device": [{directory, fstype}]}. */
static json_t *writeback_json(const struct run_result *res)
{
	json_t *list = json_array();

	for (unsigned i = 0; i < res->nnodisk; i++) {
		const struct nodisk *n = &res->nodisk[i];
		const struct dockey_value v[] = {
			{ DK_NODISK_FSTYPE, *n->fstype ? jsontext(n->fstype) : json_null() },
		};
		json_array_append_new(list, dockey_object(DK_NODISK, n, v, LEN(v)));
	}
	const struct dockey_value v[] = { { DK_WRITEBACK_NO_DEVICE, list } };
	return dockey_object(DK_WRITEBACK, res, v, LEN(v));
}

/* A timeline point's operations: {NAME: {count, p99_ms}} for each type
 * the run performed, or null when they were not measured. */
static json_t *point_ops_json(const struct run_result *res, const struct timeline_point *p)
{
	json_t *o = p->ops ? json_object() : json_null();

	for (unsigned k = 0; p->ops && k < res->ntimeline_types; k++) {
		unsigned t = res->timeline_types[k];
		if (t < OP_COUNT && res->op[t].count)
			json_object_set_new(o, op_table[t].name,
					    dockey_object(DK_POINT_OP, &p->ops[k], NULL, 0));
	}
	return o;
}

static json_t *timeline_json(const struct run_result *res)
{
	json_t *tl = json_array();

	for (size_t i = 0; i < res->ntimeline; i++) {
		const struct timeline_point *p = &res->timeline[i];
		const struct dockey_value v[] = {
			{ DK_POINT_PROBE, res->nprobes ? real(p->probe_ms) : DOCKEY_ABSENT },
			{ DK_POINT_DISKS, point_disks_json(res, p) },
			{ DK_POINT_OPS, point_ops_json(res, p) },
		};
		json_array_append_new(tl, dockey_object(DK_POINT, p, v, LEN(v)));
	}
	return tl;
}

/* --show-execute-time: every pass shown; null without the option. */
static json_t *passes_json(const struct run_result *res)
{
	if (!res->plan->show_execute_time)
		return json_null();
	json_t *list = json_array();
	for (size_t i = 0; i < res->npasses; i++)
		json_array_append_new(list, dockey_object(DK_PASS, &res->passes[i], NULL, 0));
	const struct dockey_value v[] = { { DK_PASSES_LIST, list } };
	return dockey_object(DK_PASSES, res, v, LEN(v));
}

/* One probe's figures; null times without listings. */
static json_t *probe_json(const struct probe_result *p)
{
	const struct dockey_value straddled[] = {
		{ DK_PROBE_STRADDLED_MAX, p->straddled ? real(p->straddled_max_ms) : json_null() },
	};
	const struct dockey_value v[] = {
		{ DK_PROBE_P50, p->count ? real(p->p50_ms) : json_null() },
		{ DK_PROBE_P99, p->count ? real(p->p99_ms) : json_null() },
		{ DK_PROBE_MAX, p->count ? real(p->max_ms) : json_null() },
		{ DK_PROBE_STRADDLED, dockey_object(DK_PROBE_STRADDLED, p, straddled,
						    LEN(straddled)) },
	};
	return dockey_object(DK_PROBE, p, v, LEN(v));
}

/* Every probe's figures in the order of the --probe options; null without
 * --probe.  "probe" holds the first of them, as it did before a run could
 * have more than one. */
static json_t *probes_json(const struct run_result *res)
{
	json_t *a = res->nprobes ? json_array() : json_null();

	for (unsigned i = 0; i < res->nprobes; i++)
		json_array_append_new(a, probe_json(&res->probe[i]));
	return a;
}

/* n elements of `size` bytes from `first`, each an object of shape
 * `shape`; null where the result holds none (memory ran out). */
static json_t *list_json(enum dockey shape, const void *first, size_t n, size_t size)
{
	json_t *a = first ? json_array() : json_null();

	for (size_t i = 0; first && i < n; i++)
		json_array_append_new(a, dockey_object(shape, (const char *)first + i * size,
						       NULL, 0));
	return a;
}

/* How busy the machine was in the execute window (hostload.h); null
 * when it was not read. */
static json_t *host_json(const struct hostload *h)
{
	return h->measured ? dockey_object(DK_HOST, h, NULL, 0) : json_null();
}

/* The run's place in a series: {position, runs, side}. */
static json_t *series_json(const struct run_plan *plan)
{
	bool alone = plan->series_position == 0;
	const struct dockey_value v[] = {
		{ DK_SERIES_POSITION, json_integer(alone ? 1 : plan->series_position) },
		{ DK_SERIES_RUNS, json_integer(alone ? 1 : plan->series_runs) },
	};
	return dockey_object(DK_SERIES, plan, v, LEN(v));
}

static json_t *failure_json(const struct run_failure *f)
{
	const struct dockey_value v[] = {
		{ DK_FAILURE_RANK, f->rank >= 0 ? json_integer(f->rank) : json_null() },
		{ DK_FAILURE_CLIENT, f->client ? json_integer(f->client) : json_null() },
		{ DK_FAILURE_LINE, f->line ? json_integer(f->line) : json_null() },
	};
	return dockey_object(DK_STATUS_FAILURE, f, v, LEN(v));
}

static json_t *status_json(const struct run_result *res)
{
	const struct dockey_value v[] = {
		{ DK_STATUS_FAILURE, res->failure ? failure_json(res->failure) : DOCKEY_ABSENT },
	};
	return dockey_object(DK_STATUS, res, v, LEN(v));
}

json_t *report_json(const struct run_result *res)
{
	const struct run_result *r = res;
	const struct dockey_value v[] = {
		{ DK_RUN_SCHEMA, json_integer(DOCKEY_SCHEMA) },
		{ DK_RUN_VERSION, json_string(DBENCH_VERSION) },
		{ DK_RUN_COMMAND_LINE, jsontext(r->plan->command_line ? r->plan->command_line : "") },
		{ DK_CONFIG, config_json(r->plan, r->nranks ? r->nranks : 1) },
		{ DK_ENV, r->environment ? json_incref(r->environment) : json_null() },
		{ DK_RESULT, result_json(r) },
		{ DK_REPLAY, replay_json(r) },
		{ DK_RUN_PROBE, r->nprobes ? probe_json(&r->probe[0]) : json_null() },
		{ DK_RUN_PROBES, probes_json(r) },
		{ DK_OPS, ops_json(r) },
		{ DK_TIMELINE, timeline_json(r) },
		{ DK_PASSES, passes_json(r) },
		{ DK_DISKS, disks_json(r) },
		{ DK_MEMORY, dockey_object(DK_MEMORY, &r->memory, NULL, 0) },
		{ DK_WRITEBACK, writeback_json(r) },
		{ DK_CLIENTS, list_json(DK_CLIENT, r->clients, r->nclients, sizeof(*r->clients)) },
		{ DK_DIRS, list_json(DK_DIR, r->dirs, r->plan->ndirs, sizeof(*r->dirs)) },
		{ DK_RANKS, list_json(DK_RANK, r->ranks, r->nranks, sizeof(*r->ranks)) },
		{ DK_FAIRNESS, dockey_object(DK_FAIR, &r->fairness, NULL, 0) },
		{ DK_RANK_FAIRNESS, dockey_object(DK_FAIR, &r->rank_fairness, NULL, 0) },
		{ DK_HOST, host_json(&r->host) },
		{ DK_SERIES, series_json(r->plan) },
		{ DK_REPLAYED, dockey_object(DK_REPLAYED, &r->replayed, NULL, 0) },
		{ DK_STATUS, status_json(r) },
	};
	return dockey_object(DK_RUN, r, v, LEN(v));
}
int report_json_dump(json_t *doc, const char *path)
{
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);

	if (!o)
		return err;
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 || fputc('\n', f) == EOF) {
		err = outfile_error(o);
		if (!err)	/* the encoder itself gave up: out of memory */
			err = ENOMEM;
		talloc_free(o);	/* the previous file stays */
		return err;
	}
	return outfile_commit(o);
}

int report_json_write(const struct run_result *res, const char *path)
{
	json_t *doc = report_json(res);

	if (!doc)
		return ENOMEM;
	int err = report_json_dump(doc, path);
	json_decref(doc);
	return err;
}
