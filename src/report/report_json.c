/*
 * report_json.c - the result as a JSON document, written with jansson
 * (see report.h for the contract, dbench-json(5) for the keys).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "probe.h"
#include "report.h"
#include "jsontext.h"
#include "version.h"

/* json_real() of a non-finite value fails; a figure that is not a number
 * is written as null. */
static json_t *real(double v)
{
	json_t *j = json_real(v);
	return j ? j : json_null();
}

static json_t *config_json(const struct run_plan *plan, unsigned nranks)
{
	json_t *dirs = json_array();
	json_t *probes = plan->nprobes ? json_array() : json_null();

	for (unsigned i = 0; i < plan->ndirs; i++)
		json_array_append_new(dirs, jsontext(plan->dirs[i]));
	for (unsigned i = 0; i < plan->nprobes; i++)
		json_array_append_new(probes, jsontext(plan->probe_dirs[i]));
	/* the first probe's directory as a single run has always had it */
	json_t *probe = plan->nprobes ? json_incref(json_array_get(probes, 0)) : json_null();
	json_t *cpus = plan->ncpus ? json_array() : json_null();
	for (unsigned i = 0; i < plan->ncpus; i++)
		json_array_append_new(cpus, json_integer(plan->cpus[i]));
	return json_pack("{s:I, s:I, s:I, s:o, s:I, s:I, s:o, s:s, s:o, s:b, s:b, s:b, s:b, s:o,"
			 " s:s, s:b, s:o, s:o, s:b, s:o, s:b, s:b, s:b, s:o}",
			 "nprocs", (json_int_t)plan->nclients * nranks,
			 "ranks", (json_int_t)nranks,
			 "clients_per_process", (json_int_t)plan->clients_per_process,
			 "cpus", cpus,
			 "timelimit_s", (json_int_t)plan->timelimit,
			 "warmup_s", (json_int_t)(plan->run_once ? 0 : plan->warmup),
			 "loadfile", jsontext(plan->prog->source),
			 "loadfile_sha256", plan->prog->sha256,
			 "directories", dirs,
			 "sync", plan->bopts.sync_open,
			 "sync_dir", plan->bopts.sync_dir,
			 "fsync", plan->bopts.fsync_writes,
			 "xattr", plan->bopts.xattr,
			 "target_rate_mb_s", plan->target_rate > 0 ? real(plan->target_rate)
								   : json_null(),
			 "backend", plan->backend->name,
			 "run_once", plan->run_once,
			 "probe_directory", probe,
			 "probe_directories", probes,
			 "verify", plan->bopts.verify,
			 "think_time_us", real(plan->think_us),
			 "think_time_exponential", plan->think_exp,
			 "no_resolve", plan->bopts.no_resolve,
			 "continue_on_error", plan->continue_on_error,
			 "label", jsontext(plan->label));
}

/* --verify's figures, or null without it. */
static json_t *verify_json(const struct run_result *res)
{
	const struct verify_result *v = &res->verify;

	if (!res->plan->bopts.verify)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:o, s:o}",
			 "bytes_checked", (json_int_t)v->bytes_checked,
			 "reads_checked", (json_int_t)v->reads_checked,
			 "mismatches", (json_int_t)v->mismatches,
			 "cost_s", real(v->cost_s),
			 "cost_pct", real(v->cost_pct));
}

/* Operations begun in warmup that ended in execute. */
static json_t *straddled_json(const struct run_result *res)
{
	return json_pack("{s:I, s:o, s:o}", "count", (json_int_t)res->straddled,
			 "max_ms", res->straddled ? real(res->straddled_max_ms) : json_null(),
			 "operation", jsontext(res->straddled_op));
}

static json_t *result_json(const struct run_result *res)
{
	/* a run stopped before its execute window opened measured nothing:
	 * no throughput figure rather than 0 */
	bool none = res->interrupted && res->exec_seconds <= 0;
	double tp = none ? NAN : result_throughput(res);

	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I,"
			 " s:o, s:o, s:o, s:b, s:s, s:o, s:o, s:o, s:o}",
			 "exit_code", res->exit_code,	/* status.exit_code's, as readers look here too */
			 "throughput_mb_s", real(tp),
			 "ops_per_s", real(none ? NAN : result_ops_per_s(res)),
			 "stonewall_mb_s", real(none ? NAN : res->stonewall_mb_s),
			 "stonewall_s", real(res->stonewall_s),
			 "nb_mb_s", real(tp * 1.25),
			 "mbit_s", real(tp * 10),
			 "elapsed_s", real(res->exec_seconds),
			 "window", json_pack("{s:o, s:o, s:b}",
					     "planned_s", real(res->window.planned_s),
					     "late_s", real(res->window.late_s),
					     "late", res->window.late),
			 "bytes_read", (json_int_t)res->bytes_read,
			 "bytes_written", (json_int_t)res->bytes_written,
			 "operations", (json_int_t)res->ops,
			 "errors", (json_int_t)res->errors,
			 "max_latency_ms", real(res->max_latency_ms),
			 "setup_s", real(res->setup_s),
			 "sampler_cpu_ms", real(res->sampler_cpu_ms),
			 "sampler_realtime", res->sampler_realtime,
			 "op_clock", res->op_clock ? res->op_clock : "clock_gettime",
			 "op_clock_hz", real(res->op_clock_hz),
			 "think_time_mean_us", real(res->think_time_mean_us),
			 "verify", verify_json(res),
			 "straddled", straddled_json(res));
}

/* A count or time in ns as a JSON integer, which is signed: a saturated
 * sum (hist.h) stays the largest there is rather than turn negative. */
static json_int_t json_u64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v;
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
	json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:s}", "count", json_u64(h->count),
			      "sum_ns", json_u64(h->sum_ns), "min_ns", json_u64(h->min_ns),
			      "max_ns", json_u64(h->max_ns), "buckets", text);
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
	return json_pack("{s:s, s:o, s:I, s:o, s:o, s:o, s:o}",
			 "timing", timing[plan->replay_timing],
			 "speed", real(plan->replay_speed),
			 "streams", (json_int_t)plan->prog->nstreams,
			 "behind_calls", exact ? json_integer((json_int_t)res->behind_calls)
					       : json_null(),
			 "behind_mean_ms", exact ? real(res->behind_mean_ms) : json_null(),
			 "behind_max_ms", exact ? real(res->behind_max_ms) : json_null(),
			 "cpu_wait_ms", exact ? real(res->behind_wait_ms) : json_null());
}

static json_t *ops_json(const struct run_result *res)
{
	json_t *ops = json_object();

	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		if (o->count == 0 && o->errors == 0 && o->unsupported == 0 && o->skipped == 0)
			continue;
		json_t *j = json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
				      "count", (json_int_t)o->count,
				      "errors", (json_int_t)o->errors,
				      "mean_ms", real(o->mean_ms), "p50_ms", real(o->p50_ms),
				      "p90_ms", real(o->p90_ms), "p99_ms", real(o->p99_ms),
				      "p999_ms", real(o->p999_ms), "max_ms", real(o->max_ms));
		if (j && o->unsupported)	/* only where a backend could not */
			json_object_set_new(j, "not_supported", json_integer((json_int_t)o->unsupported));
		if (j && o->hist && o->count)	/* the latencies, for pooling runs exactly */
			json_object_set_new(j, "hist", hist_json(o->hist));
		if (j && o->skipped)	/* a recording's calls on a descriptor never opened */
			json_object_set_new(j, "skipped", json_integer((json_int_t)o->skipped));
		json_object_set_new(ops, op_table[t].name, j);
	}
	return ops;
}

/* One device's figures over an interval, into OBJ. */
static void add_figures(json_t *obj, const struct blockstat_figures *f)
{
	json_object_set_new(obj, "reads_s", real(f->reads_s));
	json_object_set_new(obj, "writes_s", real(f->writes_s));
	json_object_set_new(obj, "read_kib_per_request", real(f->read_kib_per_req));
	json_object_set_new(obj, "write_kib_per_request", real(f->write_kib_per_req));
	json_object_set_new(obj, "read_merged_pct", real(f->read_merged_pct));
	json_object_set_new(obj, "write_merged_pct", real(f->write_merged_pct));
	json_object_set_new(obj, "queue_depth", real(f->queue_depth));
	json_object_set_new(obj, "busy_pct", real(f->busy_pct));
}

/* A timeline point's devices: [{device, ..., in_flight}]. */
static json_t *point_disks_json(const struct run_result *res, const struct timeline_point *p)
{
	json_t *a = json_array();

	for (size_t d = 0; p->disks && d < res->ndisks; d++) {
		json_t *o = json_pack("{s:o}", "device", jsontext(res->disks[d].device));
		add_figures(o, &p->disks[d]);
		json_object_set_new(o, "in_flight", real(p->disks[d].in_flight));
		json_array_append_new(a, o);
	}
	return a;
}

/* What of the clients' writes reached a device (NULL: not measured). */
static void add_writeback(json_t *obj, const struct writeback *w)
{
	static const struct writeback none = { NAN, NAN, NAN, NAN, NAN };

	w = w ? w : &none;
	json_object_set_new(obj, "clients_written_bytes", real(w->clients_bytes));
	json_object_set_new(obj, "written_bytes", real(w->device_bytes));
	json_object_set_new(obj, "written_ratio", real(w->ratio));
	json_object_set_new(obj, "dirty_end_bytes", real(w->dirty_end_bytes));
	json_object_set_new(obj, "writeback_end_bytes", real(w->writeback_end_bytes));
}

/* The devices over the execute window. */
static json_t *disks_json(const struct run_result *res)
{
	json_t *a = json_array();

	for (size_t d = 0; d < res->ndisks; d++) {
		const struct blockstat_disk *k = &res->disks[d];
		json_t *o = json_pack("{s:o, s:o, s:I, s:I, s:o, s:o}",
			"device", jsontext(k->device), "under", jsontext(k->under),
			"reads", (json_int_t)k->reads, "writes", (json_int_t)k->writes,
			"read_kib", real(k->read_kib), "write_kib", real(k->write_kib));
		add_figures(o, &k->fig);
		json_object_set_new(o, "in_flight_max", real(k->in_flight_max));
		add_writeback(o, res->writeback ? &res->writeback[d] : NULL);
		json_array_append_new(a, o);
	}
	return a;
}

/* Why no device shows the clients' writes, and the targets on none:
 * {"none": TEXT or null, "no_device": [{directory, fstype}]}. */
static json_t *writeback_json(const struct run_result *res)
{
	json_t *list = json_array();

	for (unsigned i = 0; i < res->nnodisk; i++)
		json_array_append_new(list, json_pack("{s:o, s:o}",
			"directory", jsontext(res->nodisk[i].directory),
			"fstype", *res->nodisk[i].fstype ? jsontext(res->nodisk[i].fstype)
							 : json_null()));
	return json_pack("{s:o, s:o}", "none", res->writeback_none ? json_string(
				 res->writeback_none) : json_null(), "no_device", list);
}

static json_t *memory_json(const struct run_result *res)
{
	const struct blockstat_memory *m = &res->memory;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "dirty_pages_mean", real(m->dirty_pages_mean),
			 "dirty_pages_max", real(m->dirty_pages_max),
			 "writeback_pages_mean", real(m->writeback_pages_mean),
			 "writeback_pages_max", real(m->writeback_pages_max),
			 "dirty_pages_start", real(m->dirty_pages_start),
			 "dirty_pages_end", real(m->dirty_pages_end),
			 "writeback_pages_start", real(m->writeback_pages_start),
			 "writeback_pages_end", real(m->writeback_pages_end));
}

/* A timeline point's operations: {NAME: {count, p99_ms}} for each type
 * the run performed, or null when they were not measured. */
static json_t *point_ops_json(const struct run_result *res, const struct timeline_point *p)
{
	json_t *o = p->ops ? json_object() : json_null();

	for (unsigned k = 0; p->ops && k < res->ntimeline_types; k++) {
		unsigned t = res->timeline_types[k];
		if (t < OP_COUNT && res->op[t].count)
			json_object_set_new(o, op_table[t].name, json_pack("{s:I, s:o}",
				"count", json_u64(p->ops[k].count), "p99_ms", real(p->ops[k].p99_ms)));
	}
	return o;
}

static json_t *timeline_json(const struct run_result *res)
{
	json_t *tl = json_array();

	for (size_t i = 0; i < res->ntimeline; i++) {
		const struct timeline_point *p = &res->timeline[i];
		json_t *pt = json_pack("{s:o, s:o, s:o, s:o}",
			"t_s", real(p->t_s), "mb_s", real(p->mb_s),
			"ops_s", real(p->ops_s), "max_latency_ms", real(p->max_latency_ms));
		if (res->nprobes)
			json_object_set_new(pt, "probe_ms", real(p->probe_ms));
		json_object_set_new(pt, "disks", point_disks_json(res, p));
		json_object_set_new(pt, "dirty_pages", real(p->dirty_pages));
		json_object_set_new(pt, "writeback_pages", real(p->writeback_pages));
		json_object_set_new(pt, "ops", point_ops_json(res, p));
		json_array_append_new(tl, pt);
	}
	return tl;
}

/* --show-execute-time: every pass shown; null without the option. */
static json_t *passes_json(const struct run_result *res)
{
	json_t *list = json_array();

	if (!res->plan->show_execute_time) {
		json_decref(list);
		return json_null();
	}
	for (size_t i = 0; i < res->npasses; i++) {
		const struct pass_time *p = &res->passes[i];
		json_array_append_new(list, json_pack("{s:I, s:o, s:o}", "client",
			(json_int_t)p->client, "ms", real(p->ms), "at_ms", real(p->at_ms)));
	}
	return json_pack("{s:o, s:I}", "list", list, "lost", (json_int_t)res->passes_lost);
}

/* One probe's figures; null times without listings. */
static json_t *probe_json(const struct probe_result *p)
{
	return json_pack("{s:o, s:I, s:I, s:o, s:o, s:o, s:{s:I, s:o}}",
			 "directory", jsontext(p->directory),
			 "count", (json_int_t)p->count,
			 "entries", (json_int_t)p->entries,
			 "p50_ms", p->count ? real(p->p50_ms) : json_null(),
			 "p99_ms", p->count ? real(p->p99_ms) : json_null(),
			 "max_ms", p->count ? real(p->max_ms) : json_null(),
			 "straddled", "count", (json_int_t)p->straddled,
			 "max_ms", p->straddled ? real(p->straddled_max_ms) : json_null());
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

static json_t *clients_json(const struct run_result *res)
{
	json_t *cl = res->clients ? json_array() : json_null();

	for (unsigned i = 0; res->clients && i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		json_array_append_new(cl, json_pack("{s:I, s:I, s:o, s:I, s:o, s:I, s:I}",
			"rank", (json_int_t)c->rank,
			"id", (json_int_t)c->id, "directory", jsontext(c->directory),
			"bytes", (json_int_t)c->bytes, "mb_s", real(c->mb_s),
			"operations", (json_int_t)c->ops, "errors", (json_int_t)c->errors));
	}
	return cl;
}

static json_t *dirs_json(const struct run_result *res)
{
	json_t *dirs = res->dirs ? json_array() : json_null();

	for (unsigned d = 0; res->dirs && d < res->plan->ndirs; d++) {
		const struct dir_result *dr = &res->dirs[d];
		json_array_append_new(dirs, json_pack("{s:o, s:I, s:I, s:o, s:I, s:o}",
			"directory", jsontext(dr->directory), "clients", (json_int_t)dr->clients,
			"bytes", (json_int_t)dr->bytes, "mb_s", real(dr->mb_s),
			"operations", (json_int_t)dr->operations, "p99_ms", real(dr->p99_ms)));
	}
	return dirs;
}

static json_t *ranks_json(const struct run_result *res)
{
	json_t *ranks = res->ranks ? json_array() : json_null();

	for (unsigned r = 0; res->ranks && r < res->nranks; r++) {
		const struct rank_result *rr = &res->ranks[r];
		json_array_append_new(ranks, json_pack("{s:I, s:o, s:o, s:I, s:I, s:o, s:o}",
			"rank", (json_int_t)rr->rank, "host", jsontext(rr->host),
			"kernel", jsontext(rr->kernel), "clients", (json_int_t)rr->clients,
			"bytes", (json_int_t)rr->bytes, "seconds", real(rr->seconds),
			"mb_s", real(rr->mb_s)));
	}
	return ranks;
}

static json_t *fairness_json(const struct fairness *f)
{
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "min_mb_s", real(f->min_mb_s),
			 "median_mb_s", real(f->median_mb_s),
			 "max_mb_s", real(f->max_mb_s),
			 "jain_index", real(f->jain_index));
}

/* Three load averages, null where unread. */
static json_t *loadavg_json(const double v[3])
{
	return json_pack("[o, o, o]", real(v[0]), real(v[1]), real(v[2]));
}

/* How busy the machine was in the execute window (hostload.h); null
 * when it was not read. */
static json_t *host_json(const struct hostload *h)
{
	if (!h->measured)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o}",
			 "cpus", (json_int_t)h->cpus, "window_s", real(h->window_s),
			 "other_cpu_s", real(h->other_cpu_s), "other_cpu_pct", real(h->other_cpu_pct),
			 "own_cpu_s", real(h->own_cpu_s), "steal_s", real(h->steal_s),
			 "steal_pct", real(h->steal_pct), "cpu_wait_s", real(h->cpu_wait_s),
			 "cpu_wait_pct", real(h->cpu_wait_pct),
			 "client_processes", (json_int_t)h->clients,
			 "client_processes_read", (json_int_t)h->procs_read,
			 "loadavg_start", loadavg_json(h->loadavg_start),
			 "loadavg_end", loadavg_json(h->loadavg_end));
}

/* The run's place in a series: {position, runs, side}. */
static json_t *series_json(const struct run_plan *plan)
{
	bool alone = plan->series_position == 0;

	return json_pack("{s:I, s:I, s:o}", "position", (json_int_t)(alone ? 1 : plan->series_position),
			 "runs", (json_int_t)(alone ? 1 : plan->series_runs),
			 "side", jsontext(plan->series_side));
}

/* How much of the loadfile the median client replayed in the window. */
static json_t *replayed_json(const struct replayed *r)
{
	return json_pack("{s:I, s:I, s:o, s:b, s:b}",
			 "operations_per_pass", (json_int_t)r->per_pass,
			 "median_operations", (json_int_t)r->median_ops,
			 "median_share", real(r->median_share),
			 "moved_nothing", r->moved_nothing,
			 "short_window", r->too_short);
}

static json_t *status_json(const struct run_result *res)
{
	json_t *st = json_pack("{s:i, s:b, s:I}", "exit_code", res->exit_code,
			       "interrupted", res->interrupted,
			       "files_left", (json_int_t)res->files_left);
	const struct run_failure *f = res->failure;

	if (f)
		json_object_set_new(st, "failure", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			" s:o}",
			"rank", f->rank >= 0 ? json_integer(f->rank) : json_null(),
			"host", jsontext(f->host),
			"client", f->client ? json_integer(f->client) : json_null(),
			"line", f->line ? json_integer(f->line) : json_null(),
			"operation", jsontext(f->operation),
			"path", jsontext(f->path),
			"error", jsontext(f->error), "message", jsontext(f->text)));
	return st;
}

json_t *report_json(const struct run_result *res)
{
	json_t *env = res->environment ? json_incref(res->environment) : json_null();

	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"dbench_version", DBENCH_VERSION,
		"started_at", jsontext(res->started_at),
		"command_line", jsontext(res->plan->command_line ? res->plan->command_line : ""),
		"config", config_json(res->plan, res->nranks ? res->nranks : 1),
		"environment", env,
		"result", result_json(res),
		"replay", replay_json(res),
		"probe", res->nprobes ? probe_json(&res->probe[0]) : json_null(),
		"probes", probes_json(res),
		"ops", ops_json(res),
		"timeline", timeline_json(res),
		"passes", passes_json(res),
		"disks", disks_json(res),
		"memory", memory_json(res),
		"writeback", writeback_json(res),
		"clients", clients_json(res),
		"directories", dirs_json(res),
		"ranks", ranks_json(res),
		"fairness", fairness_json(&res->fairness),
		"rank_fairness", fairness_json(&res->rank_fairness),
		"host", host_json(&res->host),
		"series", series_json(res->plan),
		"replayed", replayed_json(&res->replayed),
		"status", status_json(res));
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
