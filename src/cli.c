/*
 * cli.c - the command line (see cli.h): the popt table (data: options[]),
 * the checks that popt's types cannot express, and the plans built from
 * what was given, a function for each part of the plan.
 * Knows nothing of how a run is carried out.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "badopt.h"
#include "secret.h"
#include "outfile.h"
#include "progname.h"
#include "version.h"
#include "cli.h"
#include "loadfile.h"
#include "sockopt.h"
#include "cluster.h"
#include "probe.h"

#define WARMUP_DEFAULT INT_MIN	/* --warmup not given: a fifth of the time limit */
#define SPEED_DEFAULT (-1.0)	/* --replay-speed not given: 1 */
#define NOT_GIVEN INT_MIN	/* --repeat or --settle not given (-1 is bad input) */
/* What --help says of the built-in workload against dbench 4.0's: KB (10^3
 * bytes) moved a loadfile operation, --check-loadfile's bytes_read plus
 * bytes_written over operations (test_cli checks both figures). */
#define BUILTIN_KB_PER_OP "3.0"
#define CLIENT_TXT_KB_PER_OP "5.4"
#define OPT_TIMELIMIT 1		/* poptGetNextOpt()'s value for -t */
#define OPT_DIRECTORY 2		/* -D DIR, added to cl->dirs by add_word() */
#define OPT_PROBE 3		/* --probe[=DIR], added to cl->probes */

struct cmdline {
	int timelimit;
	bool timelimit_given;	/* -t was given: the header says when not */
	int warmup;
	int stop_timeout;
	char *loadfile;
	const char **dirs;
	int sync_open, sync_dir, fsync_writes, xattr, no_resolve, verify;
	double target_rate;
	int clients_per_process;
	int skip_cleanup, per_client_results, run_once, quiet, continue_on_error;
	int check_loadfile, version, help, usage;
	char *json;
	char *backend;
	char *sweep;		/* --sweep=LIST */
	int repeat, settle, drop_caches;	/* NOT_GIVEN when not given */
	char *precision;	/* --precision=PCT */
	char *cpus;		/* --cpus=LIST */
	char *csv;
	char *plot;
	int plot_log;		/* --plot-log */
	char *prepare, *cleanup;	/* --prepare=CMD, --cleanup=CMD */
	char *label;		/* --label=TEXT */
	char *think;		/* --think-time=USEC or exp:USEC */
	char *replay_timing;	/* --replay-timing=asap|think|exact */
	double replay_speed;	/* --replay-speed=X, SPEED_DEFAULT when not given */
	double stagger;		/* --stagger=SECS */
	int strict;		/* --strict */
	const char **probes;	/* each --probe[=DIR]; "" for the default directory */
	char *output_format;	/* --output-format=classic|dbench4 */
	int machine_readable, show_execute_time;
	int one_byte_write_fix, stat_check, fake_io;	/* dbench 4.0's fileio options */
	char *tcp_options;	/* -T: dbench 4.0's socket options, for tbench */
	int force;		/* --force: a device in use is written anyway */
	bool tbench;		/* entered as "tbench": sockio, NPROCS [SERVER] */
	struct backend_optset *bset;	/* the backends' own options (backend.h) */
};

/*
 * The options, in the order --help lists them: popt's table, except that
 * each pointer is the offset of the field of struct cmdline it sets
 * (FIELD), for option_table() to point at one parse's cmdline.  The
 * backends' own options follow these (backend_optset_popt()).
 */
#define FIELD(f) ((void *)offsetof(struct cmdline, f))
/* An option whose every use the parse loop takes (a list: -D, --probe).
 * Not popt's POPT_ARG_ARGV, which --help shows as "-D, --directory DIR"
 * and "--probe[ DIR]" where every other option reads "--opt=ARG". */
#define BY_LOOP ((void *)UINTPTR_MAX)

static const struct poptOption options[] = {
	{ "timelimit", 't', POPT_ARG_INT, FIELD(timelimit), OPT_TIMELIMIT,
	  "execute phase length (default 600)", "SECS" },
	{ "warmup", 0, POPT_ARG_INT, FIELD(warmup), 0,
	  "warmup before it (default: timelimit/5)", "SECS" },
	{ "stop-timeout", 0, POPT_ARG_INT, FIELD(stop_timeout), 0,
	  "once the run ends, a client or the probe that has not stopped within"
	  " this long, or an MPI rank silent this long, fails the run (default 10)", "SECS" },
	{ "loadfile", 'c', POPT_ARG_STRING, FIELD(loadfile), 0,
	  "loadfile to replay, a path or an installed one's name; .gz is read too"
	  " (default: the built-in one, which moves " BUILTIN_KB_PER_OP " KB an"
	  " operation where dbench 4.0's client.txt moves " CLIENT_TXT_KB_PER_OP
	  " KB, so its MB/sec is lower than 4.0's: -c /usr/share/dbench/client.txt"
	  " replays 4.0's workload)", "FILE" },
	{ "directory", 'D', POPT_ARG_STRING, BY_LOOP, OPT_DIRECTORY,
	  "target directory (default .); repeat to spread clients", "DIR" },
	{ "sync", 's', POPT_ARG_NONE, FIELD(sync_open), 0,
	  "open files O_SYNC", NULL },
	{ "sync-dir", 'S', POPT_ARG_NONE, FIELD(sync_dir), 0,
	  "fdatasync the directory after unlink, rmdir, rename", NULL },
	{ "fsync", 'F', POPT_ARG_NONE, FIELD(fsync_writes), 0,
	  "fsync after every write", NULL },
	{ "xattr", 'x', POPT_ARG_NONE, FIELD(xattr), 0,
	  "DOS attribute xattr traffic, as dbench 4.0", NULL },
	{ "target-rate", 'R', POPT_ARG_DOUBLE, FIELD(target_rate), 0,
	  "pace each client to this rate", "MB/s" },
	{ "clients-per-process", 0, POPT_ARG_INT, FIELD(clients_per_process), 0,
	  "clients sharing one process", "K" },
	{ "cpus", 0, POPT_ARG_STRING, FIELD(cpus), 0,
	  "keep client processes on these CPUs, round robin (0,2-3)", "LIST" },
	{ "skip-cleanup", 0, POPT_ARG_NONE, FIELD(skip_cleanup), 0,
	  "leave the clients/ tree behind", NULL },
	{ "per-client-results", 0, POPT_ARG_NONE, FIELD(per_client_results), 0,
	  "a result line per client", NULL },
	{ "run-once", 0, POPT_ARG_NONE, FIELD(run_once), 0,
	  "replay the loadfile once per client, then stop", NULL },
	{ "continue-on-error", 0, POPT_ARG_NONE, FIELD(continue_on_error), 0,
	  "count unexpected outcomes per operation instead of stopping", NULL },
	{ "replay-timing", 0, POPT_ARG_STRING, FIELD(replay_timing), 0,
	  "a recording's calls: as soon as they may (asap, the default), keeping"
	  " each stream's gaps (think) or at their recorded times (exact)",
	  "MODE" },
	{ "replay-speed", 0, POPT_ARG_DOUBLE, FIELD(replay_speed), 0,
	  "a recording's times and gaps divided by X (default 1)", "X" },
	{ "strict", 0, POPT_ARG_NONE, FIELD(strict), 0,
	  "a recording's first outcome difference fails the run", NULL },
	{ "stagger", 0, POPT_ARG_DOUBLE, FIELD(stagger), 0,
	  "spread the clients' starts over SECS seconds", "SECS" },
	{ "no-resolve", 0, POPT_ARG_NONE, FIELD(no_resolve), 0,
	  "no case-insensitive name resolution", NULL },
	{ "verify", 0, POPT_ARG_NONE, FIELD(verify), 0,
	  "write a known pattern and check every read of it; a mismatch fails"
	  " the run", NULL },
	{ "quiet", 'q', POPT_ARG_NONE, FIELD(quiet), 0,
	  "no progress lines", NULL },
	{ "json", 0, POPT_ARG_STRING, FIELD(json), 0,
	  "write the result as JSON (- for stdout; text goes to stderr)", "FILE" },
	{ "sweep", 0, POPT_ARG_STRING, FIELD(sweep), 0,
	  "run each client count in LIST (1,2,4 or 1..128: powers of two)", "LIST" },
	{ "repeat", 0, POPT_ARG_INT, FIELD(repeat), 0,
	  "runs per client count (default 1; with --precision the most, default 10)",
	  "K" },
	{ "precision", 0, POPT_ARG_STRING, FIELD(precision), 0,
	  "repeat each count until the 95% interval of the mean is within +-PCT% of"
	  " it (3 runs at least)", "PCT" },
	{ "settle", 0, POPT_ARG_INT, FIELD(settle), 0,
	  "sync, then rest this long between sweep runs (default 3)", "SECS" },
	{ "drop-caches", 0, POPT_ARG_NONE, FIELD(drop_caches), 0,
	  "drop the page cache between sweep runs (root)", NULL },
	{ "csv", 0, POPT_ARG_STRING, FIELD(csv), 0,
	  "write one row per run of the sweep or repeat to FILE (a run alone: a"
	  " series of one, as --repeat=1)", "FILE" },
	{ "plot", 0, POPT_ARG_STRING, FIELD(plot), 0,
	  "draw the sweep (throughput and p99 by clients) as an SVG", "FILE.svg" },
	{ "plot-log", 0, POPT_ARG_NONE, FIELD(plot_log), 0,
	  "draw the plot's p99 axis on a log scale (the default when the p99s span"
	  " more than two decades)", NULL },
	{ "prepare", 0, POPT_ARG_STRING, FIELD(prepare), 0,
	  "run CMD through /bin/sh before every run of a sweep or repeat (DBENCH_NPROCS,"
	  " DBENCH_RUN and DBENCH_REPEAT in its environment): a fresh mkfs and mount",
	  "CMD" },
	{ "cleanup", 0, POPT_ARG_STRING, FIELD(cleanup), 0,
	  "run CMD through /bin/sh after every run of a sweep or repeat, as --prepare",
	  "CMD" },
	{ "label", 0, POPT_ARG_STRING, FIELD(label), 0,
	  "name the run or sweep in its JSON, plot legends and dbench compare", "TEXT" },
	{ "think-time", 0, POPT_ARG_STRING, FIELD(think), 0,
	  "pause before each operation: USEC, or exp:USEC for an exponential"
	  " pause with that mean (not counted in latency)", "[exp:]USEC" },
	{ "probe", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, BY_LOOP, OPT_PROBE,
	  "time an ls -l of DIR once a second during the run (default: a"
	  " directory of 3000 files made for it in clients/); repeat for a process"
	  " per directory (DIR: a word after --probe that is no number or option)",
	  "DIR" },
	{ "force", 0, POPT_ARG_NONE, FIELD(force), 0,
	  "write a device or file that is mounted or in use (block)", NULL },
	{ "backend", 'B', POPT_ARG_STRING, FIELD(backend), 0,
	  "how operations are carried out: one of the backends listed below"
	  " (default fileio)", "NAME" },
	{ "output-format", 0, POPT_ARG_STRING, FIELD(output_format), 0,
	  "classic (default) or dbench4: dbench 4.0's text, line for line", "FORMAT" },
	{ "machine-readable", 0, POPT_ARG_NONE, FIELD(machine_readable), 0,
	  "the dbench4 layout in dbench 5.0's machine-readable lines", NULL },
	{ "show-execute-time", 0, POPT_ARG_NONE, FIELD(show_execute_time), 0,
	  "a line per finished loadfile pass: client, its time, time since the start",
	  NULL },
	{ "one-byte-write-fix", 0, POPT_ARG_NONE, FIELD(one_byte_write_fix), 0,
	  "dbench 4.0's: skip a 1-byte write of the byte already there", NULL },
	{ "stat-check", 0, POPT_ARG_NONE, FIELD(stat_check), 0,
	  "dbench 4.0's: stat first, skip calls that would change nothing", NULL },
	{ "fake-io", 0, POPT_ARG_NONE, FIELD(fake_io), 0,
	  "dbench 4.0's: count ReadX and WriteX bytes without reading or writing", NULL },
	{ "tcp-options", 'T', POPT_ARG_STRING, FIELD(tcp_options), 0,
	  "tbench's socket options (default \"" SOCKOPT_DEFAULT "\")", "OPTIONS" },
	{ "check-loadfile", 0, POPT_ARG_NONE, FIELD(check_loadfile), 0,
	  "validate the loadfile, print its summary, run nothing", NULL },
	{ "version", 'V', POPT_ARG_NONE, FIELD(version), 0,
	  "print the version", NULL },
	{ "help", '?', POPT_ARG_NONE, FIELD(help), 0,
	  "show this help message", NULL },
	{ "usage", 0, POPT_ARG_NONE, FIELD(usage), 0,
	  "show a brief usage message", NULL },
	POPT_TABLEEND
};

/* --think-time: "USEC" or "exp:USEC". */
static bool parse_think(const char *s, double *us, bool *exp)
{
	char *end;

	*exp = strncmp(s, "exp:", 4) == 0;
	s += *exp ? 4 : 0;
	errno = 0;
	*us = strtod(s, &end);
	return *s && !*end && !errno && *us >= 0 && *us <= 60e6 &&
	       (*s >= '0' && *s <= '9');
}

/* Whether a word after a bare --probe is its DIR: not an option, not
 * "--", and not a whole number (that is NPROCS: "--probe 4"). */
static bool probe_dir_word(const char *w)
{
	return w && *w && *w != '-' && w[strspn(w, "0123456789")] != '\0';
}

/*
 * popt takes the word after an option whose argument is optional as that
 * argument (unless it starts with '-'), so "--probe 4" would probe a
 * directory "4" and lose NPROCS.  So the word after a bare --probe is
 * joined to it only when it is a directory's name (probe_dir_word(): "--probe
 * /mnt/x 4"), and else the option becomes "--probe=", an empty DIR, before
 * popt sees it; --help says so.  Words after "--" are left alone.  *argc
 * becomes the count of the words returned.
 */
static const char **join_optional_args(TALLOC_CTX *mem_ctx, int *argc, const char **argv)
{
	const char **out = talloc_array(mem_ctx, const char *, *argc + 1);
	bool options = true;
	int n = 0;

	for (int i = 0; out && i < *argc; i++) {
		options = options && strcmp(argv[i], "--") != 0;
		if (!options || strcmp(argv[i], "--probe") != 0)
			out[n++] = argv[i];
		else if (i + 1 < *argc && probe_dir_word(argv[i + 1]))
			out[n++] = talloc_asprintf(out, "--probe=%s", argv[++i]);
		else
			out[n++] = "--probe=";
	}
	if (out) {
		out[n] = NULL;
		*argc = n;
	}
	return out;
}

/* gcc's -fanalyzer (12) loses the list stored through *list below, in
 * a struct cmdline made by talloc, and takes it and the word for leaks:
 * free_cmdline() frees both.  Silenced for these two functions only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif

/* Appends popt's malloc()ed word to a NULL-ended malloc()ed list (cl's
 * dirs or probes, which free_cmdline() frees).  False when out of memory. */
static bool add_word(const char ***list, char *word)
{
	size_t n = 0;

	while (*list && (*list)[n])
		n++;
	const char **grown = word ? realloc(*list, (n + 2) * sizeof(**list)) : NULL;
	if (!grown) {
		free(word);
		return false;
	}
	grown[n] = word;
	grown[n + 1] = NULL;
	*list = grown;
	return true;
}

/* An option the parse loop takes (poptGetNextOpt's value opt): 0, or
 * POPT_ERROR_MALLOC when its word could not be kept. */
static int take_option(struct cmdline *cl, poptContext pc, int opt)
{
	cl->timelimit_given = cl->timelimit_given || opt == OPT_TIMELIMIT;
	if (opt == OPT_DIRECTORY || opt == OPT_PROBE) {
		char *word = poptGetOptArg(pc);	/* malloc()ed; NULL for a bare --probe */
		if (!word)
			word = strdup("");
		if (!add_word(opt == OPT_DIRECTORY ? &cl->dirs : &cl->probes, word))
			return POPT_ERROR_MALLOC;
	}
	return 0;
}

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#pragma GCC diagnostic pop
#endif

/* popt hands string and argv results over as malloc()ed memory. */
static void free_cmdline(struct cmdline *cl)
{
	for (const char **d = cl->dirs; d && *d; d++)
		free((char *)*d);
	free(cl->dirs);
	free(cl->loadfile);
	free(cl->json);
	free(cl->backend);
	free(cl->sweep);
	free(cl->csv);
	free(cl->plot);
	free(cl->prepare);
	free(cl->cleanup);
	free(cl->label);
	free(cl->precision);
	free(cl->cpus);
	free(cl->think);
	free(cl->replay_timing);
	for (const char **p = cl->probes; p && *p; p++)
		free((char *)*p);
	free(cl->probes);
	free(cl->output_format);
	free(cl->tcp_options);
}

/* One line: what is wrong, the synopsis, where the options are listed. */
static void usage_error(const struct cmdline *cl, const char *what)
{
	say("%s (usage: %s [OPTION...] NPROCS%s; %s --help lists the options)\n", what,
	    progname(), cl->tbench ? " [SERVER]" : "", progname());
}

/* TEXT from column INDENT, wrapped at a space to end by column 80. */
static void print_wrapped(FILE *out, const char *text, int indent)
{
	int col = indent;

	while (*text) {
		int word = (int)strcspn(text, " ");
		if (col > indent && col + 1 + word > 80) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", word, text);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

/* --help: every backend, with what it loads in a few words. */
static void print_backends(FILE *out)
{
	fprintf(out, "\nBackends (-B, --backend=NAME):\n");
	for (size_t i = 0; backend_nth(i); i++) {
		const struct backend *b = backend_nth(i);
		fprintf(out, "  %-8s ", b->name);
		print_wrapped(out, b->summary ? b->summary : "", 11);
	}
}

/* NPROCS: a whole number of clients, 1 .. DBENCH_MAX_CLIENTS. */
static bool parse_nprocs(const char *s, unsigned *out)
{
	char *end;

	errno = 0;
	long v = strtol(s, &end, 10);	/* which would take " 4" and "+4" */
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno || v < 1 ||
	    v > DBENCH_MAX_CLIENTS)
		return false;
	*out = v;
	return true;
}

/* The program to run, or NULL with *rc the exit code: memory running out
 * is a failed run, not bad input. */
static struct program *load_program(TALLOC_CTX *mem_ctx, const char *path, int *rc)
{
	char *err = NULL;
	const char *found = path ? loadfile_lookup(mem_ctx, path) : NULL;
	struct program *prog = path ? loadfile_read(mem_ctx, found, &err)
				    : loadfile_default(mem_ctx, &err);
	if (!prog) {
		*rc = errno == ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
		/* a bare name found nowhere: where else it was looked for */
		bool nowhere = path && found == path && *path && !strchr(path, '/') &&
			       access(path, F_OK) != 0;
		const char *dir = nowhere ? loadfile_dir(mem_ctx) : NULL;
		say("%s%s%s%s\n", err ? err : "out of memory",
		    dir ? " (nor is it, with or without .load or .txt, among the loadfiles in " : "",
		    dir ? dir : "", dir ? ")" : "");
	}
	return prog;
}

/*
 * --cpus=LIST: CPU numbers and ranges A-B, comma-separated ("0,2-3"), in
 * the order clients are placed on them.  Each must be a CPU this process
 * may run on.  Returns NULL with *out and *n (on mem_ctx), or the error.
 */
static char *parse_cpus(TALLOC_CTX *mem_ctx, const char *list, unsigned **out, unsigned *n)
{
	cpu_set_t allowed;
	const char *p = list;

	*n = 0;
	*out = NULL;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return talloc_asprintf(mem_ctx, "--cpus: cannot read this process's CPUs: %s",
				       strerror(errno));
	for (;;) {
		char *end;
		unsigned long a, b;
		errno = 0;
		a = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : ULONG_MAX;
		b = a;
		if (a != ULONG_MAX && *end == '-')
			b = end[1] >= '0' && end[1] <= '9' ? strtoul(end + 1, &end, 10) : ULONG_MAX;
		if (a == ULONG_MAX || b == ULONG_MAX || errno || a > b || b >= CPU_SETSIZE ||
		    (*end && *end != ','))
			return talloc_asprintf(mem_ctx, "--cpus: '%s' is not a list of CPU numbers"
					       " and ranges A-B", list);
		for (unsigned long c = a; c <= b; c++) {
			if (!CPU_ISSET(c, &allowed))
				return talloc_asprintf(mem_ctx, "--cpus: CPU %lu is not one this"
						       " process may run on", c);
			unsigned *grown = talloc_realloc(mem_ctx, *out, unsigned, *n + 1);
			if (!grown)
				return talloc_strdup(mem_ctx, "--cpus: out of memory");
			grown[(*n)++] = c;
			*out = grown;
		}
		if (!*end)
			return NULL;
		p = end + 1;
	}
}

/* --precision: a number above 0 and at most 100; -1 when it is not. */
static double parse_percent(const char *s)
{
	char *end;

	errno = 0;
	double v = strtod(s, &end);
	return *s >= '0' && *s <= '9' && !*end && !errno && v > 0 && v <= 100 ? v : -1;
}

#define LABEL_MAX 64	/* characters of a --label */

/* The code point that starts at p, and its length in bytes; 0 when p
 * does not start a valid UTF-8 sequence (a stray or missing continuation
 * byte, an overlong form, a surrogate, past U+10FFFF). */
static unsigned utf8_next(const unsigned char *p, unsigned *cp)
{
	static const unsigned lead_bits[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned len = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
		     : (*p & 0xf8) == 0xf0 ? 4 : 0;
	unsigned c = *p & lead_bits[len];

	for (unsigned i = 1; len && i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the terminating NUL */
		c = c << 6 | (p[i] & 0x3f);
	}
	if (!len || c < least[len] || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return len;
}

/*
 * --label: what is wrong with it, or NULL.  It appears in legends, table
 * headers and JSON, so it must be valid UTF-8, 1 to LABEL_MAX characters,
 * with no control character.  A message is on mem_ctx.
 */
static const char *bad_label(TALLOC_CTX *mem_ctx, const char *label)
{
	const unsigned char *p = (const unsigned char *)label;
	size_t chars = 0;

	if (!*p)
		return "--label must not be empty";
	for (unsigned c, len; *p; p += len, chars++) {
		if (!(len = utf8_next(p, &c)))
			return talloc_asprintf(mem_ctx, "--label is not valid UTF-8 (at byte %zu)",
					       (size_t)(p - (const unsigned char *)label) + 1);
		if (c < 0x20 || (c >= 0x7f && c < 0xa0))
			return talloc_asprintf(mem_ctx, "--label must not hold a control character"
					       " (character %zu is U+%04X)", chars + 1, c);
	}
	if (chars > LABEL_MAX)
		return talloc_asprintf(mem_ctx, "--label must be at most %d characters, not %zu",
				       LABEL_MAX, chars);
	return NULL;
}

/* Whether the command makes a series of runs rather than one: a sweep, or
 * NPROCS repeated (a sweep of one count). */
static bool series(const struct cmdline *cl)
{
	/* --csv or --plot alone: a series of the one run (as --repeat=1) */
	return cl->sweep || cl->repeat != NOT_GIVEN || cl->precision || cl->csv || cl->plot;
}

/* The backend asked for: --backend, else tbench's as tbench, else the
 * default. */
static const struct backend *cli_backend(const struct cmdline *cl)
{
	return cl->backend ? backend_by_name(cl->backend) : backend_default(cl->tbench);
}

/* The backend asked for with every hook, its module loaded (backend.h);
 * NULL, said, when the module cannot be. */
static const struct backend *cli_backend_loaded(TALLOC_CTX *mem_ctx, const struct cmdline *cl)
{
	char *err = NULL;
	const struct backend *b = backend_load(mem_ctx, cli_backend(cl), &err);

	if (!b)
		say("%s\n", err);
	return b;
}

/* Checks that popt's types cannot express; returns the failing option. */
static const char *bad_option(TALLOC_CTX *mem_ctx, const struct cmdline *cl)
{
	if (cl->timelimit < 1)
		return "--timelimit must be at least 1 second";
	if (cl->warmup < 0 && cl->warmup != WARMUP_DEFAULT)
		return "--warmup must not be negative";
	if (cl->stop_timeout < 1 || cl->stop_timeout > 3600)
		return "--stop-timeout must be from 1 to 3600 seconds";
	if (cl->clients_per_process < 1)
		return "--clients-per-process must be at least 1";
	if (!(cl->target_rate >= 0) || cl->target_rate > 1e9 ||
	    (cl->target_rate > 0 && cl->target_rate < 1e-6))
		return "--target-rate must be 0 or from 0.000001 (a byte a second) to 1e9 MB/sec";
	if (cl->tbench && cl->dirs)
		return "tbench takes its SERVER after NPROCS, not -D (it has no directory)";
	if (cl->backend && !backend_by_name(cl->backend))
		return talloc_asprintf(mem_ctx, "--backend must be %s", backend_names(mem_ctx));
	const struct backend *b = cli_backend(cl);
	const char *owner, *foreign = backend_optset_foreign(cl->bset, b, &owner);
	if (foreign)
		return talloc_asprintf(mem_ctx, "--%s goes with --backend=%s", foreign, owner);
	if (cl->verify && b->performs_nothing)
		return talloc_asprintf(mem_ctx, "--verify needs real I/O: the %s backend reads and"
				       " writes nothing", b->name);
	if (cl->verify && cl->fake_io)
		return "--verify needs real I/O: --fake-io reads and writes no data";
	if (cl->json && !*cl->json)
		return "--json needs a file name, or - for standard output";
	if (!series(cl) && (cl->settle != NOT_GIVEN || cl->drop_caches || cl->prepare ||
			    cl->cleanup))
		return "--settle, --drop-caches, --prepare and --cleanup go with --sweep, --repeat,"
		       " --precision, --csv or --plot";
	if ((cl->prepare && !*cl->prepare) || (cl->cleanup && !*cl->cleanup))
		return cl->prepare && !*cl->prepare ? "--prepare needs a command"
						    : "--cleanup needs a command";
	if (cl->plot_log && !cl->plot)
		return "--plot-log goes with --plot";
	const char *label_why = cl->label ? bad_label(mem_ctx, cl->label) : NULL;
	if (label_why)
		return label_why;
	if (cl->repeat != NOT_GIVEN && (cl->repeat < 1 || cl->repeat > 1000))
		return "--repeat must be from 1 to 1000";
	if (cl->precision && !(parse_percent(cl->precision) > 0))
		return "--precision must be a percentage above 0 and at most 100";
	if (cl->precision && cl->repeat != NOT_GIVEN && cl->repeat < 3)
		return "--precision needs --repeat of at least 3 (it makes 3 runs at least)";
	if (cl->settle != NOT_GIVEN && (cl->settle < 0 || cl->settle > 86400))
		return "--settle must be from 0 to 86400 seconds";
	if (cl->drop_caches && geteuid() != 0)
		return "--drop-caches needs root (it writes /proc/sys/vm/drop_caches)";
	if (cl->sweep && cluster_mpi())
		return "--sweep does not run under mpirun: start one mpirun per client count";
	if (cl->output_format && strcmp(cl->output_format, "classic") != 0 &&
	    strcmp(cl->output_format, "dbench4") != 0)
		return "--output-format must be 'classic' or 'dbench4'";
	if (cl->machine_readable && cl->output_format && strcmp(cl->output_format, "classic") == 0)
		return "--machine-readable is dbench 5.0's form of the dbench4 layout, not of"
		       " the classic one";
	if (series(cl) && cluster_mpi())
		return "--repeat and --precision do not run under mpirun: start one mpirun per run";
	return NULL;
}

/* The command line as one string, each word quoted where a shell needs it
 * and its passwords masked (secret.h). */
static char *command_line(TALLOC_CTX *mem_ctx, int argc, const char **argv)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (int i = 0; i < argc && s; i++) {
		const char *a = secret_mask_word(mem_ctx, argv[i], i > 0 ? argv[i - 1] : NULL);
		if (!a)
			return NULL;
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789-_=./,:+@%") == strlen(a);
		s = talloc_asprintf_append(s, "%s%s", i ? " " : "", plain ? a : "'");
		for (const char *p = a; !plain && s && *p; p++)
			s = *p == '\'' ? talloc_strdup_append(s, "'\\''")
				       : talloc_asprintf_append(s, "%c", *p);
		if (!plain && s)
			s = talloc_strdup_append(s, "'");
	}
	return s;
}

/* dbench 4.0's options that have nothing to do here: taken, so that a
 * harness's command line runs, and said to do nothing. */
static void notice_dbench4_options(const struct cmdline *cl, const struct backend *b)
{
	if (cl->stat_check)
		say("--stat-check changes nothing here: every call is made"
			" as the loadfile has it and its outcome checked against the expected"
			" status\n");
	if (cl->tcp_options && !b->is_tbench)
		say("--tcp-options '%s' changes nothing here: it sets tbench's"
			" socket options, and the %s backend opens no socket\n", cl->tcp_options,
			b->name);
}

/* --output-format=dbench4, or --machine-readable (its 5.0 form). */
static bool dbench4_layout(const struct cmdline *cl)
{
	return cl->machine_readable ||
	       (cl->output_format && strcmp(cl->output_format, "dbench4") == 0);
}

/* The cmdline's popt strings go when the plan's memory does. */
static int cmdline_destructor(struct cmdline *cl)
{
	free_cmdline(cl);
	return 0;
}

/* Whether the i-th --probe may be used: not given twice, a directory
 * that can be listed, or bare where the targets are local.  False after
 * saying what is wrong. */
static bool probe_ok(const struct cmdline *cl, unsigned i, const struct backend *backend)
{
	const char *dir = cl->probes[i];

	for (unsigned j = 0; j < i; j++) {
		if (strcmp(cl->probes[j], dir) == 0) {
			say("--probe%s%s is given twice\n", *dir ? "=" : "", dir);
			return false;
		}
	}
	int err = *dir ? probe_check_directory(dir) : 0;
	if (err) {
		say("cannot use probe directory '%s': %s\n", dir, strerror(err));
		return false;
	}
	if (!*dir && !backend->local_clients_fd && !backend->lister_open) {
		say("--probe makes its directory in a local target, and the %s backend's are"
		    " not: give --probe=DIR\n", backend->name);
		return false;
	}
	return true;
}

/*
 * The --probe options in the plan (after its targets): each DIR a
 * directory to list, once each, and a bare --probe at most once
 * (DIR/clients/probe in the first target, its index own_probe); at most
 * PROBE_MAX.  Rank 0 runs the probes for all ranks.  False after saying
 * what is wrong.
 */
static bool plan_probes(TALLOC_CTX *mem_ctx, const struct cmdline *cl, struct run_plan *plan)
{
	unsigned count = 0;
	const char **dirs;

	while (cl->probes && cl->probes[count])
		count++;
	if (count > PROBE_MAX) {
		say("--probe is given %u times: at most %d\n", count, PROBE_MAX);
		return false;
	}
	if (!count)
		return true;
	if (!(dirs = talloc_zero_array(mem_ctx, const char *, count)))
		return false;
	for (unsigned i = 0; i < count; i++) {
		if (!probe_ok(cl, i, plan->backend))
			return false;
		dirs[i] = cl->probes[i];	/* popt's string, freed with the cmdline */
		if (!*dirs[i]) {
			plan->own_probe = (int)i;
			dirs[i] = talloc_asprintf(dirs, "%s/clients/" PROBE_OWN_DIR, plan->dirs[0]);
			if (!dirs[i])
				return false;
		}
	}
	plan->probe_dirs = dirs;
	plan->nprobes = cluster_rank() == 0 ? count : 0;
	return true;
}

/* How many target specs a NULL-terminated list holds. */
static unsigned count_targets(const char **dirs)
{
	unsigned n = 0;

	while (dirs[n])
		n++;
	return n;
}

/*
 * The words after the options: how many, the first (NPROCS) in *nprocs,
 * and tbench's SERVER in *server: one word more than NPROCS (or than
 * none, with --sweep).
 */
static unsigned take_words(poptContext pc, const struct cmdline *cl, const char **nprocs,
			   const char **server)
{
	const char *words[3] = { NULL };
	unsigned n = 0;

	while (n < 3 && (words[n] = poptGetArg(pc)))
		n++;
	*server = cl->tbench && n == (cl->sweep ? 1u : 2u) ? words[--n] : NULL;
	*nprocs = n ? words[0] : NULL;
	return n;
}

/*
 * The client counts: NPROCS in the plan, or --sweep's list; a series of
 * one count (--repeat, --precision) has a list of that one.  False after
 * saying what is wrong.
 */
static bool plan_clients(TALLOC_CTX *mem_ctx, const struct cmdline *cl, const char *nprocs,
			 unsigned nwords, struct cli *out)
{
	char *err = NULL;

	if (cl->sweep && nprocs) {
		say("--sweep takes the client counts from its list, not NPROCS '%s'\n", nprocs);
		return false;
	}
	if (cl->sweep) {
		if (!sweep_parse_list(mem_ctx, cl->sweep, &out->sweep.procs, &out->sweep.nprocs,
				      &err)) {
			say("%s\n", err);
			return false;
		}
		return true;
	}
	if (!nprocs || nwords > 1) {
		usage_error(cl, nprocs ? cl->tbench ? "give NPROCS and at most one SERVER"
						    : "give exactly one NPROCS"
				       : "NPROCS is missing");
		return false;
	}
	if (!parse_nprocs(nprocs, &out->plan.nclients)) {
		say("NPROCS '%s' is not a whole number from 1 to %d\n", nprocs, DBENCH_MAX_CLIENTS);
		return false;
	}
	if (series(cl)) {
		out->sweep.procs = talloc_memdup(mem_ctx, &out->plan.nclients, sizeof(unsigned));
		out->sweep.nprocs = 1;
	}
	return true;
}

/*
 * The targets: -D's directories, tbench's SERVER, or "." without either,
 * as the plan's backend reads them (its targets()), its own options
 * checked first.  False after saying what is wrong (nothing, when memory
 * ran out).
 */
static bool plan_targets(TALLOC_CTX *mem_ctx, const struct cmdline *cl, const char *server,
			 struct run_plan *plan)
{
	static const char *here[] = { ".", NULL };
	const char **given = cl->dirs;
	char *err = NULL;

	if (server) {	/* the server is the target */
		if (!(given = talloc_zero_array(mem_ctx, const char *, 2)))
			return false;
		given[0] = talloc_strdup(given, server);	/* popt's words go with it */
		if (!given[0])
			return false;
	}
	const char **dirs = given ? given : here;
	void *own = backend_optset_own(cl->bset, plan->backend);
	if ((err = backend_check_options(mem_ctx, plan->backend, own)) ||
	    (plan->backend->targets && !(dirs = plan->backend->targets(mem_ctx, given, own, &err)))) {
		say("%s\n", err ? err : "out of memory");
		return false;
	}
	plan->dirs = dirs;
	plan->ndirs = count_targets(dirs);
	return true;
}

/* --think-time in the plan.  False after saying what is wrong. */
static bool plan_think(const struct cmdline *cl, struct run_plan *plan)
{
	if (cl->think && !parse_think(cl->think, &plan->think_us, &plan->think_exp)) {
		say("--think-time '%s' is not USEC or exp:USEC (0 to 60000000 microseconds)\n",
		    cl->think);
		return false;
	}
	return true;
}

/* --cpus in the plan.  False after saying what is wrong. */
static bool plan_cpus(TALLOC_CTX *mem_ctx, const struct cmdline *cl, struct run_plan *plan)
{
	unsigned *cpus = NULL;
	char *why = cl->cpus ? parse_cpus(mem_ctx, cl->cpus, &cpus, &plan->ncpus) : NULL;

	if (why) {
		say("%s\n", why);
		return false;
	}
	plan->cpus = cpus;
	return true;
}

/* What the options say directly of the run: its phases, clients and
 * output. */
static void plan_settings(const struct cmdline *cl, const char *cmdline, struct run_plan *plan)
{
	plan->clients_per_process = cl->clients_per_process;
	plan->timelimit = cl->timelimit;
	plan->warmup = cl->warmup != WARMUP_DEFAULT ? (unsigned)cl->warmup
						    : (unsigned)cl->timelimit / 5;
	plan->timelimit_default = !cl->timelimit_given;
	plan->warmup_default = cl->warmup == WARMUP_DEFAULT;
	plan->stop_timeout = cl->stop_timeout;
	plan->target_rate = cl->target_rate;
	plan->skip_cleanup = cl->skip_cleanup;
	plan->per_client_results = cl->per_client_results;
	plan->run_once = cl->run_once;
	plan->quiet = cl->quiet;
	plan->machine_readable = cl->machine_readable;
	plan->output_format = dbench4_layout(cl) ? OUTPUT_DBENCH4 : OUTPUT_CLASSIC;
	plan->show_execute_time = cl->show_execute_time;
	plan->continue_on_error = cl->continue_on_error;
	plan->replay_speed = cl->replay_speed > 0 ? cl->replay_speed : 1;
	plan->stagger_s = cl->stagger;
	plan->strict = cl->strict;
	plan->json_path = series(cl) ? NULL : cl->json;	/* a series writes its own */
	plan->command_line = cmdline;
	plan->label = cl->label;
}

/* What the options ask of every backend, and of this one alone. */
static struct backend_options backend_settings(const struct cmdline *cl, unsigned nclients,
					       const struct backend *b)
{
	return (struct backend_options){
		.own = backend_optset_own(cl->bset, b),
		.sync_open = cl->sync_open, .sync_dir = cl->sync_dir,
		.fsync_writes = cl->fsync_writes, .xattr = cl->xattr,
		.no_resolve = cl->no_resolve, .verify = cl->verify,
		.fake_io = cl->fake_io, .one_byte_write_fix = cl->one_byte_write_fix,
		.tcp_options = cl->tcp_options, .force = cl->force,
		.ranked = cluster_mpi(), .rank = cluster_rank(), .nclients = nclients,
	};
}

/*
 * A run's --json file, checked before the run rather than after it (a
 * series checks its files itself; under mpirun rank 0 alone writes, so
 * none checks).  False after saying what is wrong.
 */
static bool check_json_file(const struct cmdline *cl)
{
	int err = !series(cl) && cl->json && strcmp(cl->json, "-") != 0 && !cluster_mpi()
			  ? outfile_check(cl->json) : 0;

	if (err)
		say("cannot write JSON to '%s': %s\n", cl->json, outfile_strerror(err));
	return !err;
}

/* What the options say of a series: its runs, rests and files. */
static void sweep_settings(const struct cmdline *cl, struct sweep_plan *sweep)
{
	sweep->repeat = cl->repeat != NOT_GIVEN ? (unsigned)cl->repeat : cl->precision ? 10 : 1;
	sweep->precision = cl->precision ? parse_percent(cl->precision) : 0;
	sweep->settle = cl->settle != NOT_GIVEN ? (unsigned)cl->settle : 3;
	sweep->drop_caches = cl->drop_caches;
	sweep->json_path = cl->json;
	sweep->csv_path = cl->csv;
	sweep->plot_path = cl->plot;
	sweep->plot_log = cl->plot_log;
	sweep->prepare = cl->prepare;
	sweep->cleanup = cl->cleanup;
}

/*
 * After the options: NPROCS (or --sweep's list), the loadfile, the
 * targets and what only a check can tell, then the plans, in that order
 * (the first thing wrong is the one said).  Returns the action; CLI_EXIT
 * (exit 2, or 1 when memory ran out) after saying what is wrong.
 */
/* The options of a recording's replay, checked against the loadfile,
 * and its timing in the plan.  False after saying what is wrong. */
static bool plan_replay(const struct cmdline *cl, struct run_plan *plan)
{
	const struct program *prog = plan->prog;
	enum replay_timing *timing = &plan->replay_timing;
	static const char *const names[] = { "asap", "think", "exact" };
	bool speed = cl->replay_speed != SPEED_DEFAULT;
	const char *only = cl->replay_timing ? "--replay-timing" : speed ? "--replay-speed"
			   : cl->strict ? "--strict" : NULL;

	if (only && !prog->calls) {
		say("%s is for a recording (a loadfile of the system-call dialect),"
		    " which %s is not\n", only, prog->source);
		return false;
	}
	for (*timing = REPLAY_ASAP; cl->replay_timing && *timing <= REPLAY_EXACT; (*timing)++) {
		if (strcmp(cl->replay_timing, names[*timing]) == 0)
			break;
	}
	if (*timing > REPLAY_EXACT) {
		say("--replay-timing '%s' is not asap, think or exact\n", cl->replay_timing);
		return false;
	}
	if (speed && !(cl->replay_speed >= 0.001 && cl->replay_speed <= 1e6)) {
		say("--replay-speed %g is not between 0.001 and 1000000\n", cl->replay_speed);
		return false;
	}
	if (!(cl->stagger >= 0 && cl->stagger <= 86400)) {
		say("--stagger %g is not between 0 and 86400 seconds\n", cl->stagger);
		return false;
	}
	return true;
}

/* A backend that performs none of the loadfile's operations is refused:
 * the run would report nothing moved, and exit 0. */
static bool plan_fits_backend(const struct cmdline *cl, const struct run_plan *plan)
{
	const char *first;

	if (!backend_performs_none(plan->backend, plan->prog, &first))
		return true;
	say("the %s backend performs none of the operations of %s%s%s (%s, ...): give it a"
	    " loadfile of its kind with -c (--check-loadfile --backend=%s lists what it cannot"
	    " perform)\n", plan->backend->name, cl->loadfile ? "'" : "",
	    cl->loadfile ? cl->loadfile : "the built-in loadfile", cl->loadfile ? "'" : "", first,
	    plan->backend->name);
	return false;
}

static enum cli_action build_plans(TALLOC_CTX *mem_ctx, poptContext pc, struct cmdline *cl,
				   const char *cmdline, struct cli *out)
{
	struct run_plan *plan = &out->plan;
	const char *nprocs, *server;
	unsigned nwords = take_words(pc, cl, &nprocs, &server);

	plan->own_probe = -1;
	if (!(plan->backend = cli_backend_loaded(mem_ctx, cl)) ||
	    !plan_clients(mem_ctx, cl, nprocs, nwords, out))
		return CLI_EXIT;
	notice_dbench4_options(cl, plan->backend);
	if (!(plan->prog = load_program(mem_ctx, cl->loadfile, &out->exit_code)) ||
	    !plan_fits_backend(cl, plan) || !plan_targets(mem_ctx, cl, server, plan) || !plan_think(cl, plan) ||
	    !plan_cpus(mem_ctx, cl, plan) || !plan_probes(mem_ctx, cl, plan) ||
	    !plan_replay(cl, plan))
		return CLI_EXIT;
	plan_settings(cl, cmdline, plan);
	plan->bopts = backend_settings(cl, plan->nclients, plan->backend);
	if (!check_json_file(cl))
		return CLI_EXIT;
	if (!series(cl))
		return CLI_RUN;
	sweep_settings(cl, &out->sweep);
	return CLI_SWEEP;
}

/* A cmdline with every option at its default, on mem_ctx; its popt
 * strings go when it does.  NULL when out of memory. */
static struct cmdline *new_cmdline(TALLOC_CTX *mem_ctx)
{
	struct cmdline *cl = talloc(mem_ctx, struct cmdline);

	if (!cl)
		return NULL;
	*cl = (struct cmdline){ .timelimit = 600, .warmup = WARMUP_DEFAULT, .stop_timeout = 10,
				.replay_speed = SPEED_DEFAULT,
				.clients_per_process = 1, .repeat = NOT_GIVEN, .settle = NOT_GIVEN,
				.tbench = progname_tbench() };
	talloc_set_destructor(cl, cmdline_destructor);
	return cl;
}

/* This parse's popt table, on cl: options[] pointed at cl's fields, then
 * the backends' options.  NULL when out of memory. */
static struct poptOption *option_table(struct cmdline *cl)
{
	size_t n = sizeof(options) / sizeof(options[0]);	/* with the end */
	struct poptOption *t = talloc_array(cl, struct poptOption, n + 1);

	for (size_t i = 0; t && i + 1 < n; i++) {
		t[i] = options[i];
		t[i].arg = options[i].arg == BY_LOOP ? NULL : (char *)cl + (uintptr_t)options[i].arg;
	}
	if (t && !(cl->bset = backend_optset_new(cl)))
		return NULL;
	if (t) {
		t[n - 1] = (struct poptOption){ .argInfo = POPT_ARG_INCLUDE_TABLE,
						.arg = backend_optset_popt(cl->bset) };
		t[n] = (struct poptOption)POPT_TABLEEND;
	}
	return t;
}

/* --help or --usage (popt's own --help would exit() from inside the
 * parser); the commands beside a run are main's to add. */
static void print_help(poptContext pc, const struct cmdline *cl)
{
	if (cl->help)
		poptPrintHelp(pc, stdout, 0);
	else
		poptPrintUsage(pc, stdout, 0);
	if (cl->help)
		print_backends(stdout);
}

/* --check-loadfile: the program, and the backend it is checked against. */
static enum cli_action check_loadfile(TALLOC_CTX *mem_ctx, poptContext pc,
				      const struct cmdline *cl, struct cli *out)
{
	out->backend_given = cl->backend != NULL;
	if (!(out->plan.backend = cli_backend_loaded(mem_ctx, cl)))
		return CLI_EXIT;
	out->plan.bopts.own = backend_optset_own(cl->bset, out->plan.backend);
	if (poptPeekArg(pc)) {
		say("--check-loadfile takes no NPROCS (usage: %s --check-loadfile [-c FILE])\n",
		    progname());
		return CLI_EXIT;
	}
	out->plan.prog = load_program(mem_ctx, cl->loadfile, &out->exit_code);
	return out->plan.prog ? CLI_CHECK_LOADFILE : CLI_EXIT;
}

const struct poptOption *cli_run_options(TALLOC_CTX *mem_ctx)
{
	struct cmdline *cl = new_cmdline(mem_ctx);

	return cl ? option_table(cl) : NULL;
}

void cli_parse(TALLOC_CTX *mem_ctx, int argc, const char **argv, struct cli *out)
{
	struct cmdline *cl = new_cmdline(mem_ctx);
	struct poptOption *table = cl ? option_table(cl) : NULL;
	const char *prog_name = progname(), *bad;
	int opt;

	*out = (struct cli){ .action = CLI_EXIT, .exit_code = EXIT_BAD_INPUT };
	if (!table) {
		say("out of memory\n");
		return;
	}
	int nargs = argc;
	const char **args = join_optional_args(mem_ctx, &nargs, argv);

	if (!args) {
		args = argv;
		nargs = argc;
	}
	poptContext pc = poptGetContext(prog_name, nargs, args, table, 0);

	poptSetOtherOptionHelp(pc, cl->tbench ? "[OPTION...] NPROCS [SERVER]" : "[OPTION...] NPROCS");
	while ((opt = poptGetNextOpt(pc)) > 0) {
		int err = take_option(cl, pc, opt);
		if (err) {
			opt = err;
			break;
		}
	}
	if (opt < -1) {
		say("%s (%s --help lists the options)\n",
		    badopt_message(mem_ctx, pc, opt, nargs, args, table), prog_name);
	} else if ((bad = bad_option(mem_ctx, cl))) {
		say("%s\n", bad);
	} else if (cl->help || cl->usage) {
		print_help(pc, cl);
		out->action = CLI_HELP;
		out->full_help = cl->help;
		out->exit_code = EXIT_OK;
	} else if (cl->version) {
		printf("%s %s\n", prog_name, DBENCH_VERSION);
		out->exit_code = EXIT_OK;
	} else if (cl->check_loadfile) {
		out->action = check_loadfile(mem_ctx, pc, cl, out);
	} else {
		out->action = build_plans(mem_ctx, pc, cl, command_line(mem_ctx, argc, argv), out);
	}
	poptFreeContext(pc);
}
