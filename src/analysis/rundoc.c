/*
 * rundoc.c - reading run documents back (see rundoc.h): a run's figures
 * by name, a file of runs sorted into groups by client count, and what
 * the runs' disks did.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundoc.h"
#include "infile.h"
#include "numstat.h"
#include "ops.h"
#include "plan.h"

unsigned rundoc_nprocs(const json_t *run)
{
	const json_t *n = dockey_get(run, DK_CONFIG_NPROCS);

	if (!json_is_integer(n) || json_integer_value(n) < 1 ||
	    json_integer_value(n) > DBENCH_MAX_CLIENTS)
		return 0;
	return (unsigned)json_integer_value(n);
}

bool rundoc_ok(const json_t *run)
{
	return json_integer_value(dockey_get(run, DK_STATUS_EXIT_CODE)) == 0;
}

double rundoc_number(const json_t *run, enum dockey k)
{
	return json_number_value(dockey_get(run, k));
}

double rundoc_worst_p99(const json_t *run)
{
	const char *name;
	json_t *o;
	double worst = NAN;

	json_object_foreach((json_t *)dockey_get(run, DK_OPS), name, o) {
		const json_t *v = dockey_get(o, DK_OP_P99);
		if (json_is_number(v) && !(json_number_value(v) <= worst))
			worst = json_number_value(v);
	}
	return worst;
}

/* ---- latency histograms ---- */

/* A member that is a whole number of 0 or more, into *v. */
static bool get_count(const json_t *obj, enum dockey k, uint64_t *v)
{
	const json_t *j = dockey_get(obj, k);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/* The run's figures of operation type op ("ops.OP"), or NULL. */
static const json_t *op_of(const json_t *run, const char *op)
{
	return json_object_get(dockey_get(run, DK_OPS), op);
}

/* The run's "ops.OP.hist", or NULL. */
static const json_t *rundoc_member_hist(const json_t *run, const char *op)
{
	return dockey_get(op_of(run, op), DK_OP_HIST);
}

bool rundoc_add_hist(struct hist *h, const json_t *run, const char *op)
{
	const json_t *o = rundoc_member_hist(run, op);
	const char *buckets = json_string_value(dockey_get(o, DK_HIST_BUCKETS));
	uint64_t count, sum, min, max;

	return buckets && get_count(o, DK_HIST_COUNT, &count) && get_count(o, DK_HIST_SUM, &sum) &&
	       get_count(o, DK_HIST_MIN, &min) && get_count(o, DK_HIST_MAX, &max) &&
	       hist_parse(h, buckets, count, sum, min, max) == NULL;
}

bool rundoc_hists_whole(const json_t *const *runs, size_t n, const char *op)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *o = op_of(runs[i], op);
		if (json_integer_value(dockey_get(o, DK_OP_COUNT)) > 0 &&
		    !json_is_object(rundoc_member_hist(runs[i], op)))
			return false;
	}
	return true;
}

double rundoc_pooled_worst_p99(const json_t *const *runs, size_t n)
{
	struct hist *pool = malloc(sizeof(*pool));
	double worst = NAN, *each = NULL;
	bool whole = pool != NULL;

	for (int t = 0; whole && t < OP_COUNT; t++) {
		const char *op = op_table[t].name;
		whole = rundoc_hists_whole(runs, n, op);
		memset(pool, 0, sizeof(*pool));
		/* those without one performed none (rundoc_hists_whole()) */
		for (size_t i = 0; whole && i < n; i++)
			if (rundoc_member_hist(runs[i], op))
				whole = rundoc_add_hist(pool, runs[i], op);
		if (whole && pool->count >= hist_quantile_min_count(0.99)) {
			double p99 = hist_quantile(pool, 0.99) / 1e6;
			worst = isnan(worst) || p99 > worst ? p99 : worst;
		}
	}
	free(pool);
	if (whole)
		return worst;
	/* a run without its histograms: the median of the runs' own */
	each = malloc(sizeof(*each) * (n ? n : 1));
	size_t k = 0;
	for (size_t i = 0; each && i < n; i++) {
		each[k] = rundoc_worst_p99(runs[i]);
		k += !isnan(each[k]);
	}
	worst = each ? numstat_median(each, k) : NAN;
	free(each);
	return worst;
}

double rundoc_replayed(const json_t *run)
{
	const json_t *v = dockey_get(run, DK_REPLAYED_MEDIAN_SHARE);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double rundoc_replayed_median(const json_t *const *runs, size_t n)
{
	double *v = talloc_array(NULL, double, n ? n : 1), median;
	size_t k = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[k] = rundoc_replayed(runs[i])))
			k++;
	median = numstat_median(v, k);
	talloc_free(v);
	return median;
}

/* ---- values ---- */

char *rundoc_value_text(TALLOC_CTX *mem_ctx, const json_t *v)
{
	if (!v)
		return talloc_strdup(mem_ctx, "(absent)");
	if (json_is_string(v))
		return talloc_strdup(mem_ctx, json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	char *t = talloc_strdup(mem_ctx, s ? s : "?");
	free(s);
	return t;
}

bool rundoc_same_value(const json_t *va, const json_t *vb)
{
	if (!va || !vb)
		return !va && !vb;
	if (json_is_number(va) && json_is_number(vb))
		return json_number_value(va) == json_number_value(vb);
	return json_equal(va, vb);
}

#define RUNDOC_MAX_MB_S 1e12

static int set_destructor(struct rundoc *set)
{
	json_decref(set->doc);
	return 0;
}

static struct rundoc_group *group_for(struct rundoc *set, unsigned nprocs)
{
	size_t i = 0;

	while (i < set->ngroups && set->groups[i].nprocs < nprocs)
		i++;
	if (i < set->ngroups && set->groups[i].nprocs == nprocs)
		return &set->groups[i];
	struct rundoc_group *g = talloc_realloc(set, set->groups, struct rundoc_group,
						 set->ngroups + 1);
	if (!g)
		return NULL;
	memmove(&g[i + 1], &g[i], (set->ngroups - i) * sizeof(*g));
	g[i] = (struct rundoc_group){ .nprocs = nprocs };
	set->groups = g;
	set->ngroups++;
	return &g[i];
}

/* "has no PATH" of member k (on set). */
static const char *has_no(struct rundoc *set, enum dockey k)
{
	char *path = dockey_path(set, k);
	return path ? talloc_asprintf(set, "has no %s", path) : "is too big for memory";
}

/* Files one run into its group, or counts it as ignored.  NULL, or what
 * is wrong with it. */
static const char *add_run(struct rundoc *set, const json_t *run, size_t index)
{
	unsigned nprocs = rundoc_nprocs(run);
	const json_t *code = dockey_get(run, DK_STATUS_EXIT_CODE);
	const json_t *tp = dockey_get(run, DK_RESULT_THROUGHPUT);
	struct rundoc_group *g;

	if (!json_is_object(run))
		return "is not an object";
	if (nprocs == 0)
		return has_no(set, DK_CONFIG_NPROCS);
	if (!json_is_integer(code))
		return has_no(set, DK_STATUS_EXIT_CODE);
	if (!json_is_number(tp) && !json_is_null(tp))
		return has_no(set, DK_RESULT_THROUGHPUT);
	/* a rate is at least 0, and no machine moves an exabyte a second: a
	 * document saying otherwise was edited, and its figures would only
	 * print as nonsense (a 300-digit mean, a change of +inf%) */
	if (json_is_number(tp) && !(json_number_value(tp) >= 0 &&
				    json_number_value(tp) <= RUNDOC_MAX_MB_S))
		return talloc_asprintf(set, "has a %s that is no rate (below 0, or above 1e12"
				       " MB/sec)", dockey_path(set, DK_RESULT_THROUGHPUT));
	set->nruns++;
	if (json_integer_value(code) != 0 || json_is_null(tp)) {
		set->nignored++;
		return NULL;
	}
	g = group_for(set, nprocs);
	if (!g)
		return "is too big for memory";
	g->mb_s = talloc_realloc(set, g->mb_s, double, g->nruns + 1);
	g->runs = talloc_realloc(set, g->runs, const json_t *, g->nruns + 1);
	g->index = talloc_realloc(set, g->index, size_t, g->nruns + 1);
	if (!g->mb_s || !g->runs || !g->index)
		return "is too big for memory";
	g->mb_s[g->nruns] = json_number_value(tp);
	g->index[g->nruns] = index;
	g->runs[g->nruns++] = run;
	if (!set->first)
		set->first = run;
	return NULL;
}

/* A document of several runs (a sweep's, dbench ab's: "runs" is the
 * same member in each) or of one. */
static const json_t *runs_of(const json_t *doc)
{
	return dockey_get(doc, DK_SWEEP_RUNS);
}

/* Fills set from set->doc; NULL, or what is wrong (on set). */
static char *read_runs(struct rundoc *set)
{
	const json_t *runs = runs_of(set->doc);
	const char *why;

	if (!json_is_object(set->doc))
		return talloc_strdup(set, "not a JSON object");
	if (!runs) {
		if (!dockey_get(set->doc, DK_CONFIG))
			return talloc_asprintf(set, "neither \"%s\" nor \"%s\" at the top",
					       dockey_name(DK_CONFIG), dockey_name(DK_SWEEP_RUNS));
		why = add_run(set, set->doc, 0);
		return why ? talloc_asprintf(set, "the run %s", why) : NULL;
	}
	if (!json_is_array(runs))
		return talloc_asprintf(set, "\"%s\" is not an array", dockey_name(DK_SWEEP_RUNS));
	set->sweep = true;
	for (size_t i = 0; i < json_array_size(runs); i++) {
		why = add_run(set, json_array_get(runs, i), i);
		if (why)
			return talloc_asprintf(set, "runs[%zu] %s", i, why);
	}
	if (set->nruns == 0)
		return talloc_asprintf(set, "\"%s\" is empty", dockey_name(DK_SWEEP_RUNS));
	return NULL;
}

/* The document's --label, as a sweep or its first run recorded it. */
static const char *label_of(const struct rundoc *set)
{
	const json_t *sweep = dockey_get(set->doc, DK_SWEEP_LABEL);

	if (json_is_string(sweep))
		return json_string_value(sweep);
	return json_string_value(dockey_get(set->first, DK_CONFIG_LABEL));
}

/* "the schema" of a document whose schema member is k, against what this
 * dbench reads; NULL when it reads it. */
static char *schema_why(TALLOC_CTX *ctx, const json_t *doc, enum dockey k)
{
	long schema = json_is_object(doc) ? dockey_schema_of(doc, k) : 1;

	if (schema >= DOCKEY_SCHEMA_MIN && schema <= DOCKEY_SCHEMA)
		return NULL;
	char *v = json_dumps(dockey_get(doc, k), JSON_ENCODE_ANY | JSON_COMPACT);
	char *why = talloc_asprintf(ctx, "of schema %s, this dbench reads %d..%d", v ? v : "?",
				    DOCKEY_SCHEMA_MIN, DOCKEY_SCHEMA);
	free(v);
	return why;
}

/* A one-line refusal of a document, or of a run in it, of a schema this
 * dbench does not read (on ctx); NULL when there is none. */
static char *schema_refusal(TALLOC_CTX *ctx, const char *name, const json_t *doc)
{
	const json_t *runs = json_is_object(doc) ? runs_of(doc) : NULL;
	char *why = schema_why(ctx, doc, runs ? DK_SWEEP_SCHEMA : DK_RUN_SCHEMA);
	const json_t *run;
	size_t i;

	if (why)
		return talloc_asprintf(ctx, "'%s': a document %s", name, why);
	json_array_foreach(runs, i, run)
		if ((why = schema_why(ctx, run, DK_RUN_SCHEMA)))
			return talloc_asprintf(ctx, "'%s': runs[%zu] is a document %s", name, i, why);
	return NULL;
}

struct rundoc *rundoc_from_json(TALLOC_CTX *mem_ctx, const char *name,
					  json_t *doc, char **err)
{
	struct rundoc *set = talloc_zero(mem_ctx, struct rundoc);
	char *why;

	if (!set) {
		json_decref(doc);
		*err = talloc_asprintf(mem_ctx, "'%s': out of memory", name);
		return NULL;
	}
	set->doc = doc;
	talloc_set_destructor(set, set_destructor);
	set->name = talloc_strdup(set, name);
	set->nfiles = 1;
	set->ab = json_is_object(dockey_get(doc, DK_AB_CONFIG));
	set->tune = json_is_object(dockey_get(doc, DK_TUNE_CONFIG));
	if ((why = schema_refusal(mem_ctx, name, doc))) {
		*err = why;
		talloc_free(set);
		return NULL;
	}
	why = read_runs(set);
	set->label = label_of(set);
	if (why)
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dbench result: %s", name, why);
	else if (set->ngroups == 0)
		*err = talloc_asprintf(mem_ctx, "'%s' has no successful run (%zu failed or "
				       "without a throughput)", name, set->nignored);
	else
		return set;
	talloc_free(set);
	return NULL;
}

struct rundoc *rundoc_load(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	const char *why = NULL;
	int fd = infile_open(mem_ctx, path, INFILE_REGULAR | INFILE_PIPE, RUNDOC_PIPE_WAIT_S, &why);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	json_error_t jerr;
	json_t *doc;
	int read_err;

	if (!f) {
		*err = talloc_asprintf(mem_ctx, "cannot read '%s': %s", path,
				       fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	errno = 0;
	doc = json_loadf(f, 0, &jerr);
	read_err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (read_err) {
		json_decref(doc);
		*err = talloc_asprintf(mem_ctx, "cannot read '%s': %s", path, strerror(read_err));
		return NULL;
	}
	if (!doc) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not JSON: %s (line %d, column %d)",
				       path, jerr.text, jerr.line, jerr.column);
		return NULL;
	}
	return rundoc_from_json(mem_ctx, path, doc, err);
}

const struct rundoc_group *rundoc_group_of(const struct rundoc *set, unsigned nprocs)
{
	for (size_t i = 0; i < set->ngroups; i++)
		if (set->groups[i].nprocs == nprocs)
			return &set->groups[i];
	return NULL;
}

void rundoc_origin(const struct rundoc *set, size_t index, const char **file, size_t *at)
{
	*file = set->origin_file ? set->origin_file[index] : set->name;
	*at = set->origin_index ? set->origin_index[index] : set->sweep ? index : RUNDOC_WHOLE_FILE;
}

/* ---- sides of several files, and of a dbench ab document ---- */

const enum dockey rundoc_load_settings[] = {
	DK_CONFIG_LOADFILE_SHA256, DK_CONFIG_CLIENTS_PER_PROCESS, DK_CONFIG_CPUS,
	DK_CONFIG_TIMELIMIT, DK_CONFIG_WARMUP, DK_CONFIG_RUN_ONCE, DK_CONFIG_SYNC,
	DK_CONFIG_SYNC_DIR, DK_CONFIG_FSYNC, DK_CONFIG_XATTR, DK_CONFIG_TARGET_RATE,
	DK_CONFIG_BACKEND, DK_CONFIG_VERIFY, DK_CONFIG_RANKS, DK_CONFIG_THINK_TIME,
	DK_CONFIG_THINK_TIME_EXP, DK_CONFIG_NO_RESOLVE,
};
const size_t rundoc_nload_settings = sizeof(rundoc_load_settings) / sizeof(rundoc_load_settings[0]);

/* The settings that shape the load in which runs a and b differ, as
 * " NAME (A -> B)," each; "" when none (on ctx). */
static char *load_diff(TALLOC_CTX *ctx, const json_t *a, const json_t *b)
{
	char *text = talloc_strdup(ctx, "");

	for (size_t i = 0; text && i < rundoc_nload_settings; i++) {
		const json_t *va = dockey_get(a, rundoc_load_settings[i]);
		const json_t *vb = dockey_get(b, rundoc_load_settings[i]);
		if (!rundoc_same_value(va, vb))
			text = talloc_asprintf_append(text, "%s %s (%s -> %s)", *text ? "," : "",
						      dockey_name(rundoc_load_settings[i]),
						      rundoc_value_text(text, va),
						      rundoc_value_text(text, vb));
	}
	return text;
}

/* Every run of parts[0..n) (with side, only those of that ab side) as
 * one side named name, with where each came from. */
static struct rundoc *side_of(TALLOC_CTX *mem_ctx, const char *name,
			      const struct rundoc *const *parts, size_t n, const char *side,
			      char **err)
{
	json_t *runs = json_array(), *doc = json_object();
	size_t total = 0, i;
	const char **file = NULL;
	size_t *at = NULL;
	json_t *run;

	if (json_object_set_new(doc, dockey_name(DK_SWEEP_RUNS), runs)) {
		json_decref(doc);
		doc = NULL;	/* its runs released with it, or by the failed set */
	}
	for (size_t k = 0; k < n; k++)
		total += parts[k]->nruns;
	file = talloc_array(mem_ctx, const char *, total ? total : 1);
	at = talloc_array(mem_ctx, size_t, total ? total : 1);
	for (size_t k = 0; doc && file && at && k < n; k++) {
		const json_t *list = runs_of(parts[k]->doc);
		if (!list) {	/* a single run */
			file[json_array_size(runs)] = parts[k]->name;
			at[json_array_size(runs)] = RUNDOC_WHOLE_FILE;
			json_array_append(runs, parts[k]->doc);
			continue;
		}
		json_array_foreach(list, i, run) {
			const char *s = json_string_value(dockey_get(run, DK_SERIES_SIDE));
			if (side && (!s || strcmp(s, side) != 0))
				continue;
			file[json_array_size(runs)] = parts[k]->name;
			at[json_array_size(runs)] = i;
			json_array_append(runs, run);
		}
	}
	struct rundoc *set = doc && file && at ? rundoc_from_json(mem_ctx, name, doc, err) : NULL;
	if (!doc || !file || !at)
		*err = talloc_asprintf(mem_ctx, "'%s': out of memory", name);
	if (set) {
		set->origin_file = talloc_steal(set, file);
		set->origin_index = talloc_steal(set, at);
		set->nfiles = n;
		set->ab = side != NULL && parts[0]->ab;
		set->tune = side != NULL && parts[0]->tune;
	} else {
		talloc_free(file);
		talloc_free(at);
	}
	return set;
}

struct rundoc *rundoc_pool(TALLOC_CTX *mem_ctx, const char *name,
			   const struct rundoc *const *parts, size_t n, char **err)
{
	for (size_t k = 1; k < n; k++) {
		char *diff = load_diff(mem_ctx, parts[0]->first, parts[k]->first);
		if (diff && *diff) {
			*err = talloc_asprintf(mem_ctx, "'%s' and '%s' cannot be pooled into one side:"
					       " they differ in settings that shape the load:%s",
					       parts[0]->name, parts[k]->name, diff);
			return NULL;
		}
		talloc_free(diff);
	}
	return side_of(mem_ctx, name, parts, n, NULL, err);
}

bool rundoc_ab_sides(TALLOC_CTX *mem_ctx, const struct rundoc *set, struct rundoc **a,
		     struct rundoc **b, char **err)
{
	const struct rundoc *one[] = { set };
	char *name_a = talloc_asprintf(mem_ctx, "%s, side A", set->name);
	char *name_b = talloc_asprintf(mem_ctx, "%s, side B", set->name);

	*a = *b = NULL;
	if (!set->ab) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dbench ab document", set->name);
		return false;
	}
	if (name_a && name_b && (*a = side_of(mem_ctx, name_a, one, 1, "A", err)) &&
	    (*b = side_of(mem_ctx, name_b, one, 1, "B", err))) {
		/* a side without a --label of its own is named by its options */
		const char *opts[2] = { json_string_value(dockey_get(set->doc, DK_AB_A_OPTIONS)),
					json_string_value(dockey_get(set->doc, DK_AB_B_OPTIONS)) };
		struct rundoc *side[2] = { *a, *b };
		for (int s = 0; s < 2; s++)
			if (!side[s]->label && opts[s] && *opts[s])
				side[s]->label = talloc_strdup(side[s], opts[s]);
		return true;
	}
	TALLOC_FREE(*a);
	return false;
}

bool rundoc_tune_sides(TALLOC_CTX *mem_ctx, const struct rundoc *set, const struct rundoc **sides,
		       size_t max, size_t *n, char **err)
{
	const struct rundoc *one[] = { set };
	const json_t *cands = dockey_get(set->doc, DK_TUNE_CANDIDATES), *c;
	size_t i;

	*n = 0;
	if (!set->tune || !json_is_array(cands)) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dbench tune document", set->name);
		return false;
	}
	json_array_foreach(cands, i, c) {
		char *side = talloc_asprintf(mem_ctx, "#%zu", i + 1), *e = NULL;
		char *name = talloc_asprintf(mem_ctx, "%s, candidate %s", set->name, side);
		struct rundoc *s = *n < max ? side_of(mem_ctx, name, one, 1, side, &e) : NULL;
		const char *label = json_string_value(dockey_get(c, DK_TUNE_CAND_LABEL));
		if (!s)
			continue;	/* no successful run, or more than max */
		s->label = talloc_asprintf(s, "%s %s%s", side,
					   json_is_true(dockey_get(c, DK_TUNE_CAND_AS_FOUND)) ? "as found: "
					   : "", label ? label : "");
		sides[(*n)++] = s;
	}
	if (*n < 2)
		*err = talloc_asprintf(mem_ctx, "'%s': fewer than two of its candidates have a"
				       " successful run to compare", set->name);
	return *n >= 2;
}

/* ---- what the disks did ---- */

const struct rundoc_disk_key rundoc_disk_keys[RUNDOC_DISK_FIGURES] = {
	[RUNDOC_READS_S] = { DK_DISK_READS_S, DK_SUMMARY_DISK_READS_S, "r/s" },
	[RUNDOC_WRITES_S] = { DK_DISK_WRITES_S, DK_SUMMARY_DISK_WRITES_S, "w/s" },
	[RUNDOC_READ_KIB] = { DK_DISK_READ_KIB_PER_REQ, DK_SUMMARY_DISK_READ_KIB, "rareq-sz" },
	[RUNDOC_WRITE_KIB] = { DK_DISK_WRITE_KIB_PER_REQ, DK_SUMMARY_DISK_WRITE_KIB, "wareq-sz" },
	[RUNDOC_READ_MERGED] = { DK_DISK_READ_MERGED, DK_SUMMARY_DISK_READ_MERGED, "%rrqm" },
	[RUNDOC_WRITE_MERGED] = { DK_DISK_WRITE_MERGED, DK_SUMMARY_DISK_WRITE_MERGED, "%wrqm" },
	[RUNDOC_QUEUE] = { DK_DISK_QUEUE, DK_SUMMARY_DISK_QUEUE, "aqu-sz" },
	[RUNDOC_BUSY] = { DK_DISK_BUSY, DK_SUMMARY_DISK_BUSY, "%util" },
	[RUNDOC_CLIENTS_WRITTEN] = { DK_DISK_CLIENTS_WRITTEN, DK_SUMMARY_DISK_CLIENTS_WRITTEN,
				     "cli-MB" },
	[RUNDOC_WRITTEN] = { DK_DISK_WRITTEN, DK_SUMMARY_DISK_WRITTEN, "dev-MB" },
	[RUNDOC_WRITTEN_RATIO] = { DK_DISK_WRITTEN_RATIO, DK_SUMMARY_DISK_WRITTEN_RATIO,
				   "dev/cli" },
	[RUNDOC_DIRTY_END] = { DK_DISK_DIRTY_END, DK_SUMMARY_DISK_DIRTY_END, "dirty-MB" },
};

const struct rundoc_disk *rundoc_disk_named(const struct rundoc_disk *disks, size_t n,
					    const char *device)
{
	for (size_t i = 0; device && i < n; i++)
		if (strcmp(disks[i].device, device) == 0)
			return &disks[i];
	return NULL;
}

/* The entry for device in *disks, added (with no figures yet) if new. */
static struct rundoc_disk *disk_entry(TALLOC_CTX *mem_ctx, struct rundoc_disk **disks,
				      size_t *n, const char *device)
{
	struct rundoc_disk *d = (struct rundoc_disk *)rundoc_disk_named(*disks, *n, device);

	if (d)
		return d;
	d = talloc_realloc(mem_ctx, *disks, struct rundoc_disk, *n + 1);
	if (!d)
		return NULL;
	*disks = d;
	d = &d[(*n)++];
	*d = (struct rundoc_disk){ .device = device };
	return d;
}

/* The ratio of d's written bytes to the clients', pooled: the mean of
 * the one over the mean of the other, where every run that gave a ratio
 * gave both (GOT: per figure, the runs that gave it). */
static void pool_ratio(struct rundoc_disk *d, const size_t *got)
{
	double cli = d->fig[RUNDOC_CLIENTS_WRITTEN], dev = d->fig[RUNDOC_WRITTEN];

	if (got[RUNDOC_WRITTEN_RATIO] && got[RUNDOC_WRITTEN_RATIO] == got[RUNDOC_WRITTEN] &&
	    got[RUNDOC_WRITTEN_RATIO] == got[RUNDOC_CLIENTS_WRITTEN] && cli > 0)
		d->fig[RUNDOC_WRITTEN_RATIO] = dev / cli;
}

/* The devices of objs[0..n): runs (summary false) or a sweep summary's
 * rows, each figure the mean over those that give it (rundoc_disks()). */
static struct rundoc_disk *disks_of(TALLOC_CTX *mem_ctx, const json_t *const *objs, size_t n,
				    bool summary, size_t *ndisks)
{
	struct rundoc_disk *disks = NULL;
	size_t i, count = 0;	/* disks[count]; *ndisks only at the end */
	TALLOC_CTX *tmp = talloc_new(NULL);
	size_t *seen = NULL;	/* per disk and figure: the runs that gave it */
	json_t *entry;

	*ndisks = 0;
	for (size_t r = 0; tmp && r < n; r++) {
		const json_t *list = dockey_get(objs[r], summary ? DK_SUMMARY_DISKS : DK_DISKS);
		json_array_foreach(list, i, entry) {
			const char *name = json_string_value(dockey_get(entry, summary ?
				DK_SUMMARY_DISK_DEVICE : DK_DISK_DEVICE));
			size_t before = count;
			struct rundoc_disk *d = name ? disk_entry(mem_ctx, &disks, &count, name) : NULL;
			if (!d)
				continue;
			if (count != before) {
				seen = talloc_realloc(tmp, seen, size_t, count * RUNDOC_DISK_FIGURES);
				if (!seen)
					goto fail;
				memset(&seen[before * RUNDOC_DISK_FIGURES], 0,
				       RUNDOC_DISK_FIGURES * sizeof(*seen));
			}
			size_t *got = &seen[(d - disks) * RUNDOC_DISK_FIGURES];
			d->nruns++;
			for (int f = 0; f < RUNDOC_DISK_FIGURES; f++) {
				const json_t *v = dockey_get(entry, summary ? rundoc_disk_keys[f].summary
									  : rundoc_disk_keys[f].run);
				if (json_is_number(v)) {
					d->fig[f] += json_number_value(v);
					got[f]++;
				}
			}
		}
	}
	for (size_t k = 0; seen && k < count; k++)
		for (int f = 0; f < RUNDOC_DISK_FIGURES; f++) {
			size_t got = seen[k * RUNDOC_DISK_FIGURES + f];
			disks[k].fig[f] = got ? disks[k].fig[f] / got : NAN;
		}
	for (size_t k = 0; seen && k < count; k++)
		pool_ratio(&disks[k], &seen[k * RUNDOC_DISK_FIGURES]);
	talloc_free(tmp);
	*ndisks = count;
	return disks;
fail:
	talloc_free(tmp);
	talloc_free(disks);
	return NULL;
}

struct rundoc_disk *rundoc_disks(TALLOC_CTX *mem_ctx, const json_t *const *runs, size_t n,
				 size_t *ndisks)
{
	return disks_of(mem_ctx, runs, n, false, ndisks);
}

struct rundoc_disk *rundoc_summary_disks(TALLOC_CTX *mem_ctx, const json_t *row,
					 size_t *ndisks)
{
	return disks_of(mem_ctx, &row, 1, true, ndisks);
}

/* Each column's printf width and precision, and the unit it shows its
 * figure in (bytes as MB). */
static const struct { int width, prec; double unit; } disk_cols[RUNDOC_DISK_FIGURES] = {
	[RUNDOC_READS_S] = { 9, 1, 1 }, [RUNDOC_WRITES_S] = { 9, 1, 1 },
	[RUNDOC_READ_KIB] = { 8, 1, 1 }, [RUNDOC_WRITE_KIB] = { 8, 1, 1 },
	[RUNDOC_READ_MERGED] = { 6, 1, 1 }, [RUNDOC_WRITE_MERGED] = { 6, 1, 1 },
	[RUNDOC_QUEUE] = { 6, 2, 1 }, [RUNDOC_BUSY] = { 6, 1, 1 },
	[RUNDOC_CLIENTS_WRITTEN] = { 9, 1, 1e6 }, [RUNDOC_WRITTEN] = { 9, 1, 1e6 },
	[RUNDOC_WRITTEN_RATIO] = { 7, 3, 1 }, [RUNDOC_DIRTY_END] = { 8, 1, 1e6 },
};

const char rundoc_disk_legend[] =
	"as iostat -x: requests a second, KiB a request, % of requests merged, mean"
	" queue, % of time busy; then MB the clients wrote beneath it, MB it wrote, the"
	" one over the other, MB dirty in the page cache at the end";

void rundoc_print_disk_head(FILE *out)
{
	fprintf(out, "%-10s", "device");
	for (int f = 0; f < RUNDOC_DISK_FIGURES; f++)
		fprintf(out, "  %*s", disk_cols[f].width, rundoc_disk_keys[f].head);
}

void rundoc_print_disk(FILE *out, const struct rundoc_disk *d)
{
	fprintf(out, "%-10s", d->device);
	for (int f = 0; f < RUNDOC_DISK_FIGURES; f++) {
		if (isnan(d->fig[f]))
			fprintf(out, "  %*s", disk_cols[f].width, "-");
		else
			fprintf(out, "  %*.*f", disk_cols[f].width, disk_cols[f].prec,
				d->fig[f] / disk_cols[f].unit);
	}
}
