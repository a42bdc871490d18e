/*
 * report.c - the human-readable output of a run (see report.h).
 */
#include <inttypes.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "report.h"
#include "version.h"

/*
 * The line shapes of dbench 4.0's own output (its dbench.c), which
 * lkp-tests, mmtests, Phoronix and autotest parse by field position.
 */
#define D4_PROGRESS "%4u  %8" PRIu64 "  %7.2f MB/sec  %s %3u sec  latency %.03f ms\n"
#define D4_CLEANUP "%4u  cleanup %3u sec\n"
#define D4_MACHINE "@%c@%u@%" PRIu64 "@%.2f@%u@%.03f@\n"	/* dbench 5.0's */

/* More clients than this to a CPU are far more than the CPUs (report_cpus). */
#define REPORT_CLIENTS_PER_CPU 10

static bool dbench4(const struct run_plan *plan)
{
	return plan->output_format == OUTPUT_DBENCH4;
}

/* Processes, as 4.0 counts them: one per --clients-per-process clients. */
static unsigned processes(const struct run_plan *plan, unsigned nranks)
{
	unsigned cpp = plan->clients_per_process ? plan->clients_per_process : 1;
	return (plan->nclients + cpp - 1) / cpp * nranks;
}

/* The options that shape the load, as they would be typed, on one line
 * after "options:"; no line when every one is at its default. */
static void report_load_options(FILE *out, const struct run_plan *plan)
{
	const struct backend_options *o = &plan->bopts;
	char *s = talloc_strdup(NULL, "");

	if (plan->think_us > 0)
		s = talloc_asprintf_append(s, " --think-time=%s%g", plan->think_exp ? "exp:" : "",
					   plan->think_us);
	if (plan->target_rate > 0)
		s = talloc_asprintf_append(s, " --target-rate=%g", plan->target_rate);
	if (o->sync_open)
		s = talloc_strdup_append(s, " --sync");
	if (o->sync_dir)
		s = talloc_strdup_append(s, " --sync-dir");
	if (o->fsync_writes)
		s = talloc_strdup_append(s, " --fsync");
	if (o->xattr)
		s = talloc_strdup_append(s, " --xattr");
	if (o->no_resolve)
		s = talloc_strdup_append(s, " --no-resolve");
	if (o->verify)
		s = talloc_strdup_append(s, " --verify");
	if (plan->clients_per_process > 1)
		s = talloc_asprintf_append(s, " --clients-per-process=%u",
					   plan->clients_per_process);
	if (plan->continue_on_error)
		s = talloc_strdup_append(s, " --continue-on-error");
	if (!plan->backend->is_default)
		s = talloc_asprintf_append(s, " --backend=%s", plan->backend->name);
	if (s && *s)
		fprintf(out, "options:%s\n", s);
	talloc_free(s);
}

/* The CPUs this process's clients may run on: --cpus, else those it may
 * use itself; 0 when not known. */
static unsigned usable_cpus(const struct run_plan *plan)
{
	cpu_set_t set;

	if (plan->ncpus)
		return plan->ncpus;
	return sched_getaffinity(0, sizeof(set), &set) == 0 ? (unsigned)CPU_COUNT(&set) : 0;
}

/* Far more clients than CPUs: said once, as a fact, for the latencies
 * it makes (an operation waits its turn for a CPU). */
static void report_cpus(FILE *out, const struct run_plan *plan)
{
	unsigned cpus = usable_cpus(plan);

	if (cpus && plan->nclients > REPORT_CLIENTS_PER_CPU * cpus)
		fprintf(out, "%u clients on %u CPU%s: an operation's latency includes its wait"
			" for a CPU\n", plan->nclients, cpus, cpus == 1 ? "" : "s");
}

void report_header(FILE *out, const struct run_plan *plan, unsigned nranks)
{
	unsigned n = plan->nclients * nranks;

	if (dbench4(plan)) {
		fprintf(out, "dbench version %s - the dbench 4.00 output layout\n\n",
			DBENCH_VERSION);
		fprintf(out, "Running for %u seconds with load '%s' and minimum warmup %u secs\n",
			plan->timelimit, plan->prog->source, plan->warmup);
		fflush(out);
		return;
	}
	fprintf(out, "dbench %s: %u client%s", DBENCH_VERSION, n, n == 1 ? "" : "s");
	if (nranks > 1)
		fprintf(out, " on %u ranks (%u each)", nranks, plan->nclients);
	if (plan->run_once)
		fprintf(out, ", one pass of the loadfile each\n");
	else
		fprintf(out, ", %u s measured%s after %u s warmup%s\n", plan->timelimit,
			plan->timelimit_default ? " (default)" : "", plan->warmup,
			plan->warmup_default ? " (default: a fifth of that)" : "");
	if (plan->label)
		fprintf(out, "label: %s\n", plan->label);
	fprintf(out, "loadfile: %s\n", plan->prog->source);
	report_load_options(out, plan);
	/* a backend that takes its targets from its own options names
	 * servers and exports, not directories */
	for (unsigned i = 0; i < plan->ndirs; i++)
		fprintf(out, "%s: %s\n", plan->backend->targets ? "target" : "directory",
			plan->dirs[i]);
	report_cpus(out, plan);
	fflush(out);
}

void report_ready(FILE *out, const struct run_plan *plan, unsigned nranks, double setup_s)
{
	unsigned n = plan->nclients * nranks;

	if (dbench4(plan)) {
		fprintf(out, "%u of %u processes prepared for launch %3.0f sec\n",
			processes(plan, nranks), processes(plan, nranks), setup_s);
		fprintf(out, "releasing clients\n");
	} else {
		fprintf(out, "%u client%s ready in %.2f s\n", n, n == 1 ? "" : "s", setup_s);
	}
	fflush(out);
}

void report_setup(FILE *out, const struct run_plan *plan, unsigned ready, double secs)
{
	unsigned cpp = plan->clients_per_process ? plan->clients_per_process : 1;

	if (dbench4(plan))
		fprintf(out, "%u of %u processes prepared for launch %3.0f sec\n", ready / cpp,
			processes(plan, 1), secs);
	else
		fprintf(out, "%u of %u clients prepared, %.0f s\n", ready, plan->nclients, secs);
	fflush(out);
}

void report_setup_interrupted(FILE *out)
{
	fprintf(out, "\ninterrupted in setup: no results\n");
	fflush(out);
}

/* dbench4: 4.0's line, or with --machine-readable 5.0's @-line. */
static void progress_dbench4(FILE *out, const struct progress *p)
{
	uint64_t lines = p->nclients ? p->lines / p->nclients : 0;
	bool cleanup = strcmp(p->phase, "cleanup") == 0;

	if (p->machine_readable)
		fprintf(out, D4_MACHINE, cleanup ? 'C' : strcmp(p->phase, "warmup") == 0 ? 'W' : 'R',
			cleanup ? p->active : p->nclients, lines, p->mb_s,
			cleanup ? p->exec_secs : p->secs, p->max_latency_ms);
	else if (cleanup)
		fprintf(out, D4_CLEANUP, p->active, p->exec_secs);
	else
		fprintf(out, D4_PROGRESS, p->nclients, lines, p->mb_s, p->phase, p->secs,
			p->max_latency_ms);
}

void report_progress(FILE *out, const struct progress *p)
{
	if (p->format == OUTPUT_DBENCH4)
		progress_dbench4(out, p);
	else {
		fprintf(out, "%4u %9" PRIu64 " %8.2f MB/sec  %-7s %3u sec  latency %.3f ms"
			"  now %.2f MB/sec",
			p->nclients, p->nclients ? p->lines / p->nclients : 0, p->mb_s,
			p->phase, p->secs, p->max_latency_ms, p->last_mb_s);
		if (strcmp(p->phase, "cleanup") == 0)	/* and how many are not done */
			fprintf(out, "  %u left", p->active);
		if (p->behind)		/* a recording in exact timing */
			fprintf(out, "  behind %.3f ms, worst %.3f ms", p->behind_mean_ms,
				p->behind_max_ms);
		fputc('\n', out);
	}
	fflush(out);
}

void report_pass(FILE *out, const struct run_plan *plan, const struct pass_time *p)
{
	/* whole ms, cut short as that dbench's were */
	if (plan->machine_readable)
		fprintf(out, "@E@%u@%" PRIu64 "\n", p->client, (uint64_t)p->ms);
	else
		fprintf(out, "%4u completed in %" PRIu64 " ms at time %" PRIu64 " ms\n", p->client,
			(uint64_t)p->ms, (uint64_t)p->at_ms);
}

/* 4.0 shows the last cleanup line, every client done, once they have all
 * exited; the classic layout has nothing to add. */
void report_progress_end(FILE *out, const struct progress *p)
{
	struct progress done = *p;

	if (p->format != OUTPUT_DBENCH4)
		return;
	done.active = 0;
	done.phase = "cleanup";
	progress_dbench4(out, &done);
	fflush(out);
}

/* A latency in ms with three decimals, or "-" where there is none (a
 * percentile from too few values). */
static const char *ms_or_dash(char buf[16], double v)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 16, "%.3f", v);
	return buf;
}

/* The classic table: its header (with the unit), a separator, a row per
 * operation that ran, and nothing else up to the blank line after it, for
 * the scripts that read it from "Operation" on (mmtests reads every line
 * from there to the Throughput line).  So what the table needs said about
 * it goes above the header: what a "-" means, and the operations the
 * backend could not express. */
static void report_table(FILE *out, const struct run_result *res)
{
	bool few = false;
	const char *sep = "\n not supported by the backend, not performed:";
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		if (o->count > 0)
			few = few || isnan(o->p50_ms) || isnan(o->p99_ms) || isnan(o->p999_ms);
		if (o->unsupported) {
			fprintf(out, "%s %s %" PRIu64, sep, op_table[t].name, o->unsupported);
			sep = ",";
		}
	}
	if (*sep == ',')
		fprintf(out, "\n");
	sep = "\n skipped (a descriptor they name was never opened by the replay):";
	for (int t = 0; t < OP_COUNT; t++) {
		if (res->op[t].skipped) {
			fprintf(out, "%s %s %" PRIu64, sep, op_table[t].name, res->op[t].skipped);
			sep = ",";
		}
	}
	if (*sep == ',')
		fprintf(out, "\n");
	if (few)
		fprintf(out, "\n -: fewer operations than the percentile needs (p50 %" PRIu64
			", p99 %" PRIu64 ", p99.9 %" PRIu64 "), where it would be the maximum\n",
			hist_quantile_min_count(0.50), hist_quantile_min_count(0.99),
			hist_quantile_min_count(0.999));
	fprintf(out, "\n %-24s %10s %9s %9s %9s %9s %9s %7s\n", "Operation (latency ms)",
		"Count", "AvgLat", "p50", "p99", "p99.9", "MaxLat", "Errors");
	fprintf(out, " %.93s\n", "-----------------------------------------------"
				  "-----------------------------------------------");
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		char p50[16], p99[16], p999[16];
		if (o->count == 0)
			continue;
		fprintf(out, " %-24s %10" PRIu64 " %9.3f %9s %9s %9s %9.3f %7" PRIu64 "\n",
			op_table[t].name, o->count, o->mean_ms, ms_or_dash(p50, o->p50_ms),
			ms_or_dash(p99, o->p99_ms), ms_or_dash(p999, o->p999_ms), o->max_ms,
			o->errors);
	}
	fprintf(out, "\n");
}

/* The name 4.0 gives an operation in its table: the short one. */
static const char *dbench4_name(int t)
{
	return op_table[t].alias ? op_table[t].alias : op_table[t].name;
}

/* 4.0's table: count, mean and worst latency in ms, in its columns. */
static void report_table_dbench4(FILE *out, const struct run_result *res)
{
	fprintf(out, " Operation      Count    AvgLat    MaxLat\n");
	fprintf(out, " ----------------------------------------\n");
	for (int t = 0; t < OP_COUNT; t++) {
		const struct op_result *o = &res->op[t];
		if (o->count == 0)
			continue;
		if (res->plan->machine_readable)
			fprintf(out, ":%s:%" PRIu64 ":%.03f:%.03f:\n", dbench4_name(t), o->count,
				o->mean_ms, o->max_ms);
		else
			fprintf(out, " %-12s %7" PRIu64 " %9.03f %9.03f\n", dbench4_name(t),
				o->count, o->mean_ms, o->max_ms);
	}
	fprintf(out, "\n");
}

/*
 * After the Throughput line of a run that failed or was interrupted:
 * "  PARTIAL (the run failed)" or "  PARTIAL (interrupted by SIGINT)", so
 * that a harness reading only the last line can tell it from a good run;
 * of one whose figures are whole but whose cleanup left files (exit 1),
 * "  FILES LEFT (the cleanup failed)".
 * It comes after everything the harnesses' rules read (test_harness.sh:
 * lkp-tests' fields and max_latency, Phoronix's second token, autotest's
 * "Throughput (.*?) MB/sec (.*?) procs"), which take it as before.
 */
static void report_partial(FILE *out, const struct run_result *res)
{
	int sig = res->exit_code > 128 ? res->exit_code - 128 : 0;
	const char *abbrev = sig ? sigabbrev_np(sig) : NULL;

	if (!res->failure && !res->missing && res->files_left && res->exit_code == EXIT_RUN_FAILED)
		fprintf(out, "  FILES LEFT (the cleanup failed)");
	else if (res->failure || res->exit_code == EXIT_RUN_FAILED)
		fprintf(out, "  PARTIAL (the run failed)");
	else if (abbrev)
		fprintf(out, "  PARTIAL (interrupted by SIG%s)", abbrev);
	else if (res->interrupted)
		fprintf(out, "  PARTIAL (interrupted by signal %d)", sig);
}

/* "Throughput X MB/sec  N clients  N procs  max_latency=Y ms", or 5.0's
 * machine-readable ";X;N;N;Y;"; max_latency is the worst operation of the
 * execute window, as 4.0's was. */
static void report_throughput_dbench4(FILE *out, const struct run_result *res)
{
	const struct run_plan *plan = res->plan;
	unsigned procs = processes(plan, res->nranks ? res->nranks : 1);

	if (plan->machine_readable)
		fprintf(out, ";%g;%u;%u;%.03f;\n", result_throughput(res), res->nclients, procs,
			res->max_latency_ms);
	else {
		fprintf(out, "Throughput %g MB/sec%s%s  %u clients  %u procs  max_latency=%.03f ms",
			result_throughput(res), plan->bopts.sync_open ? " (sync open)" : "",
			plan->bopts.sync_dir ? " (sync dirs)" : "", res->nclients, procs,
			res->max_latency_ms);
		report_partial(out, res);
		fputc('\n', out);
	}
}

void report_throughput_line(FILE *out, const struct run_result *res)
{
	double tp = result_throughput(res);

	fprintf(out, "Throughput %g MB/sec (NB=%g MB/sec  %g MBit/sec)%s%s  %u procs",
		tp, tp * 1.25, tp * 10,
		res->plan->bopts.sync_open ? " (sync open)" : "",
		res->plan->bopts.sync_dir ? " (sync dirs)" : "", res->nclients);
	report_partial(out, res);
	fputc('\n', out);
}

/* ", p99 1.234 ms", or from too few values ", p99 - (3 listings, 100
 * needed)"; `what` is the plural, its "s" dropped for one. */
static void print_quantile(FILE *out, const char *name, double v, uint64_t count, double q,
			   const char *what)
{
	if (isnan(v))
		fprintf(out, ", %s - (%" PRIu64 " %.*s, %" PRIu64 " needed)", name, count,
			(int)strlen(what) - (count == 1), what, hist_quantile_min_count(q));
	else
		fprintf(out, ", %s %.3f ms", name, v);
}

/* --probe: how long listing a directory took under the load; a line
 * per probe. */
static void report_probe(FILE *out, const struct probe_result *p)
{
	if (p->count == 0) {
		fprintf(out, "Probe: no listing of %s started in the measured window", p->directory);
	} else {
		fprintf(out, "Probe: %" PRIu64 " listing%s of %" PRIu64 " entries in %s", p->count,
			p->count == 1 ? "" : "s", p->entries, p->directory);
		print_quantile(out, "p50", p->p50_ms, p->count, 0.50, "listings");
		print_quantile(out, "p99", p->p99_ms, p->count, 0.99, "listings");
		fprintf(out, ", max %.3f ms", p->max_ms);
	}
	/* a listing the warmup began is not left out of sight */
	if (p->straddled)
		fprintf(out, "; %" PRIu64 " begun in warmup and ended in the measured window,"
			" the longest %.3f ms", p->straddled, p->straddled_max_ms);
	fputc('\n', out);
}

/* --verify: what was checked, what it found, what it cost. */
static void report_verify(FILE *out, const struct run_result *res)
{
	const struct verify_result *v = &res->verify;

	if (v->bytes_checked >= 100000)
		fprintf(out, "Verify: %.1f MB", v->bytes_checked / 1e6);
	else
		fprintf(out, "Verify: %" PRIu64 " bytes", v->bytes_checked);
	fprintf(out, " checked in %" PRIu64 " read%s, ", v->reads_checked,
		v->reads_checked == 1 ? "" : "s");
	if (v->mismatches == 0)
		fprintf(out, "no mismatch");
	else
		fprintf(out, "%" PRIu64 " mismatch%s", v->mismatches,
			v->mismatches == 1 ? "" : "es");
	fprintf(out, ", %.2f s spent (%.1f %% of operation time)\n", v->cost_s, v->cost_pct);
}

/* "N reads of S KiB, M % merged", or "no reads". */
static void disk_reads(FILE *out, uint64_t n, double kib, double merged)
{
	if (n == 0)
		fprintf(out, "no reads");
	else
		fprintf(out, "%" PRIu64 " read%s of %.1f KiB, %.0f %% merged", n,
			n == 1 ? "" : "s", kib, merged);
}

/* What each device under the targets did in the execute window, and the
 * page cache: request sizes and merging explain a change of throughput.
 * "Disk sda1 (/mnt): 45.0 KiB per write, 31 % merged, 97 % busy; ..." */
static void report_disks(FILE *out, const struct run_result *res)
{
	for (size_t d = 0; d < res->ndisks; d++) {
		const struct blockstat_disk *k = &res->disks[d];
		const struct blockstat_figures *x = &k->fig;

		if (isnan(x->busy_pct)) {
			fprintf(out, "Disk %s (%s): its stat file could not be read\n", k->device,
				k->under);
			continue;
		}
		fprintf(out, "Disk %s (%s): ", k->device, k->under);
		if (k->writes)
			fprintf(out, "%.1f KiB per write, %.0f %% merged, ", x->write_kib_per_req,
				x->write_merged_pct);
		fprintf(out, "%.0f %% busy; ", x->busy_pct);
		if (k->writes)
			fprintf(out, "%" PRIu64 " write%s, ", k->writes, k->writes == 1 ? "" : "s");
		else
			fprintf(out, "no writes, ");
		disk_reads(out, k->reads, x->read_kib_per_req, x->read_merged_pct);
		/* the mean is over the whole window (time_in_queue, iostat's aqu-sz),
		 * the most only at the once-a-second samples, so a mean above it is
		 * no contradiction: the line says which is which */
		fprintf(out, "; %.2f in flight on average over the window, %.0f at most at a"
			" once-a-second sample\n", x->queue_depth, k->in_flight_max);
	}
	if (res->ndisks && !isnan(res->memory.dirty_pages_mean))
		fprintf(out, "Page cache: %.0f dirty pages on average, %.0f at most;"
			" %.0f under writeback on average, %.0f at most\n",
			res->memory.dirty_pages_mean, res->memory.dirty_pages_max,
			res->memory.writeback_pages_mean, res->memory.writeback_pages_max);
}

const char *report_size_text(char buf[32], double bytes)
{
	if (isnan(bytes))
		snprintf(buf, 32, "-");
	else if (bytes < 1e3)
		snprintf(buf, 32, "%.0f bytes", bytes);
	else if (bytes < 1e6)
		snprintf(buf, 32, "%.1f kB", bytes / 1e3);
	else if (bytes < 1e9)
		snprintf(buf, 32, "%.1f MB", bytes / 1e6);
	else
		snprintf(buf, 32, "%.2f GB", bytes / 1e9);
	return buf;
}

/* "the clients wrote 631.6 MB, the device 12.3 MB (0.0195 of it)", or
 * what could not be known of it. */
static void writeback_written(FILE *out, const struct writeback *w)
{
	char cli[32], dev[32];

	report_size_text(cli, w->clients_bytes);
	report_size_text(dev, w->device_bytes);
	if (isnan(w->device_bytes))
		fprintf(out, "the clients wrote %s; the device's stat file could not be read", cli);
	else if (isnan(w->clients_bytes))
		fprintf(out, "the device wrote %s; the clients' writes are not known", dev);
	else if (w->clients_bytes == 0)
		fprintf(out, "the clients wrote nothing, the device %s", dev);
	else	/* 3 decimals from 0.1: 1.005 and 1.000 apart, as "%.3g" left "1" */
		fprintf(out, w->ratio >= 0.1 ? "the clients wrote %s, the device %s (%.3f of it)"
					   : "the clients wrote %s, the device %s (%.3g of it)",
			cli, dev, w->ratio);
}

/* How much of what the clients wrote reached each device by the end of
 * the window, and what the page cache still held: a line a device, and
 * a line for each target on none (doc/DESIGN.md, "Output"). */
static void report_writeback(FILE *out, const struct run_result *res)
{
	char dirty[32], wb[32];

	if (res->writeback_none) {
		if (res->ndisks || res->nnodisk)
			fprintf(out, "Writeback: no figure: %s\n", res->writeback_none);
		return;
	}
	for (size_t d = 0; res->writeback && d < res->ndisks; d++) {
		const struct writeback *w = &res->writeback[d];
		fprintf(out, "Writeback %s (%s): ", res->disks[d].device, res->disks[d].under);
		writeback_written(out, w);
		if (!isnan(w->dirty_end_bytes))
			fprintf(out, "; the machine's page cache held %s dirty and %s under writeback"
				" at the end", report_size_text(dirty, w->dirty_end_bytes),
				report_size_text(wb, w->writeback_end_bytes));
		fputc('\n', out);
	}
	for (unsigned i = 0; i < res->nnodisk; i++) {
		const struct nodisk *n = &res->nodisk[i];
		if (*n->fstype)
			fprintf(out, "Writeback %s: no figure: a %s file system, on no block device\n",
				n->directory, n->fstype);
		else
			fprintf(out, "Writeback %s: no figure: no block device found under it\n",
				n->directory);
	}
}

/* "Clients: slowest 1.00 MB/sec, median 2.00, fastest 3.00; Jain's
 * fairness index 0.9000" (who: "Clients" or "Ranks"); no line at all
 * when a rate is missing (a client killed, a run interrupted before the
 * window), which leaves none of the figures a value. */
static void print_fairness(FILE *out, const char *who, const struct fairness *f)
{
	if (isnan(f->jain_index))
		return;
	fprintf(out, "%s: slowest %.2f MB/sec, median %.2f, fastest %.2f; Jain's fairness index"
		" %.4f\n", who, f->min_mb_s, f->median_mb_s, f->max_mb_s, f->jain_index);
}

static void report_fairness(FILE *out, const struct run_result *res)
{
	if (!res->clients)
		return;		/* memory ran out for them (result.h missing) */
	print_fairness(out, "Clients", &res->fairness);
}

/* An MPI run: each rank's share, how even they were, and the throughput
 * while all of them ran (a straggler host shows as a gap between the
 * stonewall figure and the total). */
static void report_ranks(FILE *out, const struct run_result *res)
{
	const struct fairness *f = &res->rank_fairness;

	if (!res->mpi || !res->ranks)
		return;
	for (unsigned r = 0; r < res->nranks; r++) {
		const struct rank_result *rr = &res->ranks[r];
		char rate[32] = "-";
		if (!isnan(rr->mb_s))
			snprintf(rate, sizeof(rate), "%.2f", rr->mb_s);
		fprintf(out, "Rank %u (%s, %s): %u client%s, %s MB/sec over %.2f s\n",
			rr->rank, rr->host, rr->kernel, rr->clients, rr->clients == 1 ? "" : "s",
			rate, rr->seconds);
	}
	print_fairness(out, "Ranks", f);
	if (!isnan(res->stonewall_mb_s))	/* unknown without every rank's rate */
		fprintf(out, "Stonewall: %.2f MB/sec while every rank ran (the first %.2f s)\n",
			res->stonewall_mb_s, res->stonewall_s);
}

/* With several -D, each directory's share. */
static void report_dirs(FILE *out, const struct run_result *res)
{
	for (unsigned d = 0; res->dirs && res->plan->ndirs > 1 && d < res->plan->ndirs; d++) {
		const struct dir_result *dr = &res->dirs[d];
		fprintf(out, "Directory %s: %u client%s, %.2f MB/sec", dr->directory, dr->clients,
			dr->clients == 1 ? "" : "s", dr->mb_s);
		print_quantile(out, "p99", dr->p99_ms, dr->operations, 0.99, "operations");
		fputc('\n', out);
	}
}

/* False when memory ran out for the list. */
static bool report_stalls(FILE *out, const struct run_result *res)
{
	size_t *idx;
	size_t n = result_stalls(NULL, res, &idx);

	if (n == RESULT_NO_MEMORY)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct timeline_point *p = &res->timeline[idx[i]];
		fprintf(out, "Stall: second %.0f of the measured window: %.2f MB/sec,"
			" %.0f ops/sec, worst latency %.3f ms\n",
			p->t_s, p->mb_s, p->ops_s, p->max_latency_ms);
	}
	talloc_free(idx);
	return true;
}

static void report_per_client(FILE *out, const struct run_result *res)
{
	for (unsigned i = 0; res->clients && i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		if (res->mpi)
			fprintf(out, "rank %u ", c->rank);
		char rate[32] = "-";
		if (!isnan(c->mb_s))
			snprintf(rate, sizeof(rate), "%g", c->mb_s);
		fprintf(out, "client %u: %s MB/sec  %" PRIu64 " bytes  %" PRIu64 " ops  %"
			PRIu64 " errors\n", c->id, rate, c->bytes, c->ops, c->errors);
	}
}

/* 4.0's per-client lines: what each client did in the execute window. */
static void report_per_client_dbench4(FILE *out, const struct run_result *res)
{
	fprintf(out, "Per client results:\n");
	for (unsigned i = 0; res->clients && i < res->nclients; i++) {
		const struct client_result *c = &res->clients[i];
		fprintf(out, "Client %u did %" PRIu64 " lines and %" PRIu64 " bytes\n", i, c->ops,
			c->bytes);
	}
}

/* dbench4: the table, 4.0's per-client lines, the Throughput line; the
 * rest (percentiles, fairness, probe, stalls) is the JSON's.  A failure
 * is told, as 4.0 told its own, before the table. */
static void report_text_dbench4(FILE *out, const struct run_result *res)
{
	fprintf(out, "\n");
	if (res->failure)
		fprintf(out, "FAILED: %s\n", res->failure->text);
	report_table_dbench4(out, res);
	if (res->plan->per_client_results)
		report_per_client_dbench4(out, res);
	report_throughput_dbench4(out, res);
}

/* Everything of ours that is not the table or the Throughput line: above
 * the table, so that the table block holds only the table and the
 * Throughput line is the last. */
const char *report_share_pct(char buf[16], double share)
{
	double pct = share * 100;
	int prec = pct >= 10 ? 0 : pct >= 1 ? 1 : 2;

	/* less than a whole pass never reads "100 %": 99.96 % is 99.96 % */
	for (; pct < 100 && prec < 4; prec++) {
		snprintf(buf, 16, "%.*f", prec, pct);
		if (strtod(buf, NULL) < 100)
			break;
	}
	snprintf(buf, 16, "%.*f %%", prec, pct < 100 ? fmin(pct, 99.9999) : pct);
	return buf;
}

/* A window too short for the load: how much of the loadfile the median
 * client replayed in it. */
static void report_replayed(FILE *out, const struct replayed *r)
{
	char pct[16];

	if (!r->too_short)
		return;
	fprintf(out, "Short window: the median client replayed %s of the loadfile (%" PRIu64
		" of %" PRIu64 " operations) in the measured window%s; the figures are those of"
		" that part of it, not of the whole workload\n",
		report_share_pct(pct, r->median_share), r->median_ops, r->per_pass,
		r->moved_nothing ? " and moved no data" : "");
}

/* A window the parent closed late (held stopped, starved of CPU): by
 * how much, and that the figures are still those of the planned length. */
static void report_window(FILE *out, const struct window_timing *w)
{
	if (!w->late)
		return;
	fprintf(out, "Late window: the parent closed the measured window %.2f s after its planned"
		" end (it was stopped, or starved of CPU); the clients stopped at the planned %g s"
		" by their own clocks, and the figures are of those %g s\n", w->late_s,
		w->planned_s, w->planned_s);
}

static bool report_notes(FILE *out, const struct run_result *res)
{
	bool whole;

	fprintf(out, "\n");
	if (res->interrupted)
		fprintf(out, "interrupted after %.1f s of the measured window\n", res->exec_seconds);
	report_window(out, &res->window);
	report_replayed(out, &res->replayed);
	fprintf(out, "Rate: %.1f operations per second (IOPS), %g MB/sec of data moved\n",
		result_ops_per_s(res), result_throughput(res));
	for (unsigned i = 0; i < res->nprobes; i++)
		report_probe(out, &res->probe[i]);
	if (res->plan->bopts.verify)
		report_verify(out, res);
	report_fairness(out, res);
	report_ranks(out, res);
	report_dirs(out, res);
	if (res->straddled)
		fprintf(out, "Straddled: %" PRIu64 " operation%s began in warmup and ended in the"
			" measured window, in no table; the longest (%s) took %.3f ms\n", res->straddled,
			res->straddled == 1 ? "" : "s",
			res->straddled_op ? res->straddled_op : "?", res->straddled_max_ms);
	if (res->behind_calls) {
		fprintf(out, "Behind the recording: mean %.3f ms, worst %.3f ms (%" PRIu64
			" call%s held to their recorded time, at --replay-speed %g)",
			res->behind_mean_ms, res->behind_max_ms, res->behind_calls,
			res->behind_calls == 1 ? "" : "s", res->plan->replay_speed);
		if (!isnan(res->behind_wait_ms))
			fprintf(out, "; its threads waited %.3f ms for a CPU", res->behind_wait_ms);
		fputc('\n', out);
	}
	report_disks(out, res);
	report_writeback(out, res);
	whole = report_stalls(out, res);
	if (res->plan->per_client_results)
		report_per_client(out, res);
	if (res->failure)
		fprintf(out, "FAILED: %s\n", res->failure->text);
	return whole;
}

bool report_text(FILE *out, const struct run_result *res)
{
	bool whole = true;

	if (dbench4(res->plan)) {
		report_text_dbench4(out, res);
	} else if (res->interrupted && res->exec_seconds <= 0 && !res->failure) {
		/* Nothing was measured: no table, no Throughput 0. */
		fprintf(out, "\ninterrupted in warmup: no results\n");
	} else {
		whole = report_notes(out, res);
		report_table(out, res);
		report_throughput_line(out, res);
	}
	fflush(out);
	return whole;
}
