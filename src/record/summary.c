/*
 * summary.c - a recording's summary (summary.h).
 *
 * Owns the wording of the summary; knows nothing of strace or the writer.
 */
#include <inttypes.h>
#include <string.h>

#include "record/pathmap.h"
#include "record/summary.h"

static const char *bytes_text(char *buf, size_t n, uint64_t b)
{
	if (b >= 10000000)
		snprintf(buf, n, "%.1f MB", (double)b / 1e6);
	else if (b >= 10000)
		snprintf(buf, n, "%.1f kB", (double)b / 1e3);
	else
		snprintf(buf, n, "%" PRIu64 " bytes", b);
	return buf;
}

static void files_line(FILE *f, const struct recording *rec)
{
	uint64_t dirs = 0, files = 0, links = 0, size = 0;
	char b[32];

	for (size_t i = 0; i < rec->ninit; i++) {
		if (rec->init[i].type == REC_DIR)
			dirs++;
		else if (rec->init[i].type == REC_SYMLINK)
			links++;
		else {
			files++;
			size += rec->init[i].size;
		}
	}
	fprintf(f, "  files     %zu paths named; found there before: %" PRIu64 " directories, "
		"%" PRIu64 " files (%s), %" PRIu64 " symbolic links%s\n",
		pathmap_count(rec->touched), dirs, files, bytes_text(b, sizeof(b), size), links,
		rec->walk_cut ? " (the walk of the roots stopped at its bound: narrow --root)" : "");
}

static void left_out(FILE *f, const struct recording *rec)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	const char *lead = "  left out  ";
	uint64_t outside = tally_total(&rec->outside);
	uint64_t norow = tally_total(&rec->norow);

	if (outside) {
		fprintf(f, "%s%" PRIu64 " calls on paths outside the roots (%s)\n", lead, outside,
			tally_text(tmp, &rec->outside, 6));
		lead = "            ";
	}
	if (rec->mmaps) {
		fprintf(f, "%s%" PRIu64 " files beneath the roots mapped into memory (mmap): their "
			"memory-mapped I/O has no row\n", lead, rec->mmaps);
		lead = "            ";
	}
	if (norow) {
		fprintf(f, "%s%" PRIu64 " calls beneath the roots with no row (%s)\n", lead, norow,
			tally_text(tmp, &rec->norow, 8));
		lead = "            ";
	}
	if (tally_total(&rec->on_root)) {
		fprintf(f, "%s%" PRIu64 " calls that would remove or replace the root, which a replay "
			"never does to the client's directory (%s)\n", lead, tally_total(&rec->on_root),
			tally_text(tmp, &rec->on_root, 8));
		lead = "            ";
	}
	if (rec->special_calls) {
		fprintf(f, "%s%" PRIu64 " calls on FIFOs, sockets or devices beneath the roots, which "
			"no replay makes\n", lead, rec->special_calls);
		lead = "            ";
	}
	if (rec->fd_outside) {
		fprintf(f, "%s%" PRIu64 " calls on descriptors not opened beneath the roots (pipes, "
			"sockets, files outside)\n", lead, rec->fd_outside);
		lead = "            ";
	}
	if (rec->fd_unseen) {
		fprintf(f, "%s%" PRIu64 " calls on descriptors the trace never saw opened (inherited: "
			"the terminal, a pipe; or open when the tracer attached, strace -p)\n", lead,
			rec->fd_unseen);
		lead = "            ";
	}
	if (rec->restarted) {
		fprintf(f, "%s%" PRIu64 " calls with no outcome (interrupted and restarted, or never "
			"returned)\n", lead, rec->restarted);
		lead = "            ";
	}
	if (rec->untraced_starts) {
		fprintf(f, "%s%" PRIu64 " threads whose start is not in the trace (taken as new "
			"processes)\n", lead, rec->untraced_starts);
		lead = "            ";
	}
	if (rec->unjoined) {
		fprintf(f, "%s%" PRIu64 " calls split by strace whose other half never came "
			"(unfinished, or resumed alone)\n", lead, rec->unjoined);
		lead = "            ";
	}
	if (rec->bad_lines)
		fprintf(f, "%s%" PRIu64 " lines that are not strace's\n", lead, rec->bad_lines);
	talloc_free(tmp);
}

void summary_print(FILE *f, const struct recording *rec, const char *output)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char r[32], w[32];
	uint64_t calls = tally_total(&rec->calls);

	if (rec->tracer)
		fprintf(f, "  tracer    %s%s%s%s\n", rec->tracer, rec->tracer_note ? " (" : "",
			rec->tracer_note ? rec->tracer_note : "", rec->tracer_note ? ")" : "");
	fprintf(f, "  streams   %u (of %" PRIu64 " processes and %" PRIu64 " threads seen)\n",
		rec->streams, rec->processes_seen + 1, rec->threads_seen);
	fprintf(f, "  calls     %" PRIu64 " beneath the roots%s%s\n", calls, calls ? ": " : "",
		tally_text(tmp, &rec->calls, 12));
	fprintf(f, "  bytes     %s read, %s written\n", bytes_text(r, sizeof(r), rec->bytes_read),
		bytes_text(w, sizeof(w), rec->bytes_written));
	files_line(f, rec);
	if (rec->split_calls)
		fprintf(f, "  split     %" PRIu64 " read%s or write%s of more than 16 MiB, each written "
			"as rows of at most 16 MiB, the most a row moves\n", rec->split_calls,
			rec->split_calls == 1 ? "" : "s", rec->split_calls == 1 ? "" : "s");
	if (rec->capped)
		fprintf(f, "  capped    %" PRIu64 " file%s larger than the 1 TiB an initial state's file "
			"may be, made at 1 TiB (the largest: '%s', %" PRIu64 " bytes)\n", rec->capped,
			rec->capped == 1 ? "" : "s", rec->capped_path, rec->capped_size);
	fprintf(f, "  duration  %.3f s, %.3f s of it in the calls kept\n", (double)rec->end_us / 1e6,
		(double)rec->io_us / 1e6);
	left_out(f, rec);
	char *lost = recording_lost_text(tmp, rec);
	if (lost)
		fprintf(f, "  LOST      %s: the recording is not whole\n", lost);
	if (output)
		fprintf(f, "  wrote     %s: %" PRIu64 " lines, %s\n", output, rec->lines_written,
			bytes_text(r, sizeof(r), rec->bytes_out));
	talloc_free(tmp);
}
