/*
 * recording.h - a recording on its way to a loadfile: the rows of the
 * system-call dialect (doc/SYSCALLS.md), what the rows touched, and the
 * tallies of the summary.
 *
 * The translation (strace's calls, fio's iolog) appends rows in the order
 * the calls started; the initial state is chosen from what they touched;
 * the writer numbers the streams and writes the file; the summary reads
 * the tallies.  Rows name threads by their thread ids until the writer
 * turns those into stream numbers.
 *
 * Knows nothing of strace's text or of files: it is the data between them.
 */
#ifndef RECORD_RECORDING_H
#define RECORD_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

/* One call of the dialect. */
struct row {
	int64_t start_us;	/* from the recording's start */
	int64_t dur_us;
	int tid;		/* the thread that made it */
	int child;		/* `thread` and `fork`: the thread started; else 0 */
	const char *call;	/* the name written (static) */
	char *args;		/* the arguments, each after a space, or "" */
	char result[24];	/* "3", "ENOENT", "*" */
	uint32_t src;		/* the trace file it came from: sources[src - 1]; 0
				 * when the tracer names none */
	uint32_t src_line;	/* its line there, or (src 0) the call's number */
	uint32_t line;		/* the loadfile's line it was written on, or 0 */
};

/* What a row did to a path beneath the roots (bits of the touched map). */
enum {
	TOUCH_USED = 1,		/* named by a call */
	TOUCH_LISTED = 2,	/* a directory whose listing was read */
};

/* One entry of the initial state. */
enum rec_init_type { REC_DIR, REC_FILE, REC_SYMLINK };
struct rec_init {
	char *path;		/* relative to the recording's base */
	enum rec_init_type type;
	unsigned mode;		/* permission bits */
	uint64_t size;		/* REC_FILE */
	char *target;		/* REC_SYMLINK */
	const char *data;	/* REC_FILE's bytes (size of them), or NULL */
	bool hidden;		/* REC_FILE: others (not its owner) could not read
				 * it, by its mode or a directory above it */
};

/* A count by name (calls by type, reasons for leaving out). */
struct tally {
	struct pathmap *map;	/* name -> uint64_t* */
};

struct recording {
	/* what it is of */
	const char *command;	/* as typed, for the comment; or NULL */
	const char *source;	/* convert: the trace's name; or NULL */
	const char *const *roots;	/* absolute, resolved */
	const char *const *aliases;	/* [nroots]: each root as the command may
					 * name it (through a symbolic link: $PWD,
					 * --root as given), or NULL */
	size_t nroots;
	const char *base;	/* the longest directory the roots share */
	struct pathmap *own;	/* the recorder's own files (absolute: the trace's
				 * files, the scratch directory): calls on them or
				 * beneath them are not the program's */
	const char *cwd0;	/* the first thread's working directory */
	time_t when;		/* when it was made */

	/* the trace files the rows came from (row.src) */
	const char **sources;
	uint32_t nsources;

	/* the rows */
	struct row *rows;
	size_t nrows, caprows;
	char *kept;		/* recording_keep()'s block: where its next copy goes */
	size_t kept_room;	/* and the bytes left there */
	int first_tid;		/* stream 1 */
	int64_t t0_us;		/* the first call's start, absolute */
	int64_t end_us;		/* the last call's end, from t0 */
	int64_t io_us;		/* the rows' durations added up */

	/* the initial state, parents first */
	struct rec_init *init;
	size_t ninit;
	bool walk_cut;		/* the walk stopped at its bound */
	uint64_t capped;	/* files of sizes no loadfile makes, made at the
				 * most it does; the largest, and its size */
	const char *capped_path;
	uint64_t capped_size;
	uint64_t hidden_data;	/* files whose bytes were written (init data) that
				 * others could not read; the first of them */
	const char *hidden_first;

	struct pathmap *touched;	/* relative path -> TOUCH_* bits (as a pointer) */
	struct pathmap *special;	/* relative path -> non-NULL: a FIFO, socket or
					 * device (the walk found it, mknod made it, stat
					 * showed it), which no replay makes */
	struct pathmap *special_dirs;	/* relative directory -> non-NULL: holds one */

	/* the summary's tallies */
	struct tally calls;		/* rows by call */
	struct tally norow;		/* calls beneath the roots with no row, by call */
	struct tally outside;		/* calls on paths outside, by top directory */
	struct tally on_root;		/* calls that would remove or replace the root,
					 * which no replay makes, by call */
	uint64_t special_calls;		/* calls on FIFOs, sockets, devices: left out */
	uint64_t split_calls;		/* reads and writes of more than a row moves,
					 * written as several rows */
	uint64_t fd_outside;		/* calls on descriptors not beneath the roots */
	uint64_t fd_unseen;		/* calls on descriptors the trace never saw
					 * opened (inherited, or open at an attach) */
	uint64_t mmaps;			/* files beneath the roots mapped into memory */
	uint64_t restarted;		/* interrupted and restarted, or never returned */
	uint64_t cut_paths;		/* paths the tracer cut short */
	uint64_t bytes_read, bytes_written;
	uint64_t threads_seen, processes_seen;
	uint64_t untraced_starts;	/* threads whose start was not in the trace */
	uint64_t unjoined;		/* -f halves never rejoined */
	uint64_t bad_lines;		/* lines that are not strace's */
	unsigned streams;		/* numbered by the writer */

	/* the tracer (record): its name, and why when not the default's */
	const char *tracer;
	const char *tracer_note;
	/* what it could not see: all of these go into the `# lost:` line */
	uint64_t lost_events;		/* events its ring buffer had no room for */
	uint64_t lost_calls;		/* of them, calls lost whole (their entry) */
	uint64_t cut_strings;		/* strings cut at its bound (paths too) */
	uint64_t cut_vectors;		/* iovecs totalled from their first ones only */
	uint64_t untraced_processes;	/* started by traced ones, its table of them full */
	uint64_t untraced_calls;	/* of traced threads whose state it could not keep */
	uint64_t lines_written;
	uint64_t bytes_out;
};

/* An empty recording on mem_ctx (NULL when memory ran out). */
struct recording *recording_new(TALLOC_CTX *mem_ctx);

/* A new row at the end (its fields zeroed but for result "0"), or NULL
 * when memory ran out. */
struct row *recording_add(struct recording *rec);

/* A copy of the n bytes at s with a NUL after them, kept as long as rec
 * (never freed alone): a row's arguments.  Copies share blocks of 64 KiB
 * rather than take an allocation each, for a row is made for every call.
 * NULL when memory ran out. */
char *recording_keep(struct recording *rec, const char *s, size_t n);

/* Note an absolute path as the recorder's own (recording.own); false
 * when memory ran out. */
bool recording_own(struct recording *rec, const char *abs);

/* Whether absolute path abs is one of the recorder's own or lies beneath
 * one. */
bool recording_is_own(const struct recording *rec, const char *abs);

/* Note that rel is (or, removed, no longer is) a FIFO, socket or device;
 * false when memory ran out. */
bool recording_special(struct recording *rec, const char *rel, bool is);

/* Whether rel is one (rec->special); whether directory rel holds one. */
bool recording_is_special(const struct recording *rec, const char *rel);
bool recording_holds_special(const struct recording *rec, const char *rel);

/* Mark a path (relative) with TOUCH_* bits; false when memory ran out. */
bool recording_touch(struct recording *rec, const char *rel, unsigned bits);

/* Make every file of the initial state larger than `most` bytes (a size
 * no loadfile makes: a trace's absurd st_size, a sparse file of
 * terabytes) `most` bytes, counted in rec->capped. */
void recording_cap_sizes(struct recording *rec, uint64_t most);

/* Sort initial-state entries by path: parents before children. */
void recording_sort_init(struct rec_init *v, size_t n);

/* Count n more of `name` in a tally; false when memory ran out. */
bool tally_add(struct tally *t, const char *name, uint64_t n);

/* The count of `name`, and the total over every name. */
uint64_t tally_get(const struct tally *t, const char *name);
uint64_t tally_total(const struct tally *t);

/* "name N, name N, ..." largest first (ties by name), at most `max`
 * names and then "N more"; "" for an empty tally. */
char *tally_text(TALLOC_CTX *mem_ctx, const struct tally *t, size_t max);

/* What the recording lost, as the `# lost:` line and the summary say it
 * ("12 events dropped (the ring buffer was full), 2 paths cut short"),
 * or NULL when it lost nothing. */
char *recording_lost_text(TALLOC_CTX *mem_ctx, const struct recording *rec);

/* `rel` as the dialect writes a string: in double quotes, with \\ \" \n
 * \t and \xHH for every other byte outside printable ASCII. */
char *recording_quote(TALLOC_CTX *mem_ctx, const char *s);

#endif
