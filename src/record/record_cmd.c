/*
 * record_cmd.c - the `dbench record` and `dbench convert` commands
 * (record.h): their options, and the steps from a command or a trace to
 * a loadfile and its summary.
 *
 * Owns the order of the steps and the scratch directory of the trace;
 * knows nothing of strace's text, the descriptor model or the dialect's
 * text (the modules beside it do).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "badopt.h"
#include "exitcode.h"
#include "loadfile.h"
#include "infile.h"
#include "outfile.h"
#include "progname.h"
#include "record.h"
#include "secret.h"
#include "record/fio_iolog.h"
#include "record/infer.h"
#include "record/trace_reader.h"
#include "record/initstate.h"
#include "record/loadwriter.h"
#include "record/pathmap.h"
#include "record/paths.h"
#include "record/recording.h"
#include "record/attach.h"
#include "record/runner.h"
#include "record/tracer.h"
#include "record/summary.h"
#include "record/translate.h"

struct options {
	char *output;
	const char **roots;	/* as given */
	size_t nroots;
	int with_data;
	char *tracer;		/* --tracer, or NULL for the default */
	char *ring;		/* --ring-buffer as given */
	int strict;		/* --strict-capture */
	char *pids;		/* -p as given */
	double duration;	/* --duration */
	int help;
	const char **rest;	/* the command, or the trace files */
	size_t nrest;
};

/* What parse() returns when --help was printed: exit 0, do nothing else. */
#define PARSE_HELP (-1)

/* Parse argv (argv[0] the subcommand's name); EXIT_OK to go on, PARSE_HELP,
 * or the status to exit with (a usage error, said). */
static int parse(TALLOC_CTX *mem_ctx, int argc, const char **argv, bool record, struct options *o)
{
	char *root = NULL;
	struct poptOption table[] = {
		{ "output", 'o', POPT_ARG_STRING, &o->output, 'o',
		  record ? "the loadfile to write (default record.load; - for standard output)"
			 : "the loadfile to write (default: standard output)", "FILE" },
		{ "root", 0, POPT_ARG_STRING, &root, 'r',
		  "replay only what lies beneath DIR (default: the current directory, for convert the "
		  "traced program's); may be given several times", "DIR" },
		{ "help", '?', POPT_ARG_NONE, &o->help, 0, "show this help message", NULL },
		/* record's own, the last but one: convert ends the table before it */
		{ "with-data", 0, POPT_ARG_NONE, &o->with_data, 0,
		  "copy the contents of the files found there into the loadfile (never done otherwise)",
		  NULL },
		{ "tracer", 0, POPT_ARG_STRING, &o->tracer, 0,
		  "bpf (the kernel's BPF: the default where this dbench has it and may load it) or "
		  "strace", "NAME" },
		{ "pid", 'p', POPT_ARG_STRING, &o->pids, 0,
		  "record these running processes (and the children they start) instead of a command; "
		  "bpf only", "PID[,PID...]" },
		{ "duration", 0, POPT_ARG_DOUBLE, &o->duration, 0,
		  "with -p: stop after SECS (default: at SIGINT, SIGTERM or SIGHUP)", "SECS" },
		{ "ring-buffer", 0, POPT_ARG_STRING, &o->ring, 0,
		  "bpf: the ring buffer's size, rounded up to a power of two (default 8M)", "SIZE" },
		{ "strict-capture", 0, POPT_ARG_NONE, &o->strict, 0,
		  "fail (exit 1) when the tracer lost any call or cut any path", NULL },
		POPT_TABLEEND
	};
	if (!record)
		table[3] = (struct poptOption)POPT_TABLEEND;
	const char **args = talloc_array(mem_ctx, const char *, argc + 1);
	args[0] = talloc_asprintf(args, "%s %s", progname(), argv[0]);
	memcpy(&args[1], &argv[1], (size_t)(argc - 1) * sizeof(*args));
	args[argc] = NULL;
	/* options end at the command's name: its own options are its own */
	poptContext pc = poptGetContext(args[0], argc, args, table, POPT_CONTEXT_POSIXMEHARDER);
	poptSetOtherOptionHelp(pc, record ? "[OPTION...] -- COMMAND [ARG...]" : "[OPTION...] TRACE...");
	int id, rc = EXIT_OK;
	while ((id = poptGetNextOpt(pc)) > 0) {
		if (id != 'r')
			continue;
		o->roots = talloc_realloc(mem_ctx, o->roots, const char *, o->nroots + 1);
		o->roots[o->nroots++] = talloc_strdup(o->roots, root);
		free(root);	/* popt's copy, malloc()ed, one per --root */
		root = NULL;
	}
	/* popt's copies: ours on mem_ctx instead */
	char **given[] = { &o->output, &o->tracer, &o->ring, &o->pids };
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (*given[i]) {
			char *g = *given[i];
			*given[i] = talloc_strdup(mem_ctx, g);
			free(g);
		}
	if (id < -1) {
		say("%s (%s --help lists the options)\n",
		    badopt_message(mem_ctx, pc, id, argc, args, table), args[0]);
		rc = EXIT_BAD_INPUT;
	} else if (o->help) {
		poptPrintHelp(pc, stdout, 0);
		printf("\nSee man dbench-record, the manual page of record and convert.\n");
		rc = PARSE_HELP;
	} else {
		const char **rest = poptGetArgs(pc);
		for (; rest && rest[o->nrest]; o->nrest++)
			;
		o->rest = talloc_array(mem_ctx, const char *, o->nrest + 1);
		for (size_t i = 0; i < o->nrest; i++)
			o->rest[i] = talloc_strdup(o->rest, rest[i]);
		o->rest[o->nrest] = NULL;
		if (o->nrest == 0 && !(record && o->pids)) {
			say("%s needs %s (%s --help)\n", args[0],
			    record ? "a command to run: -- COMMAND [ARG...]" : "a trace to read", args[0]);
			rc = EXIT_BAD_INPUT;
		}
	}
	poptFreeContext(pc);
	return rc;
}

/* The roots, resolved; the base they share; the recording's cwd. */
static int set_roots(struct recording *rec, const struct options *o, const char *cwd0)
{
	size_t n = o->nroots ? o->nroots : 1;
	const char **roots = talloc_array(rec, const char *, n);
	const char **aliases = talloc_zero_array(rec, const char *, n);

	for (size_t i = 0; i < n; i++) {
		const char *given = o->nroots ? o->roots[i] : cwd0;
		/* the name the command may use: as given, or the shell's $PWD */
		const char *alias = o->nroots ? given : getenv("PWD");
		if (alias && alias[0] != '/')
			alias = talloc_asprintf(aliases, "%s/%s", cwd0, alias);
		char real[PATH_MAX];
		struct stat st;
		if (!realpath(given, real) || stat(real, &st) != 0) {
			say("--root '%s': %s\n", given, strerror(errno));
			return EXIT_BAD_INPUT;
		}
		if (!S_ISDIR(st.st_mode)) {
			say("--root '%s': not a directory\n", given);
			return EXIT_BAD_INPUT;
		}
		roots[i] = talloc_strdup(roots, real);
		char alias_real[PATH_MAX];
		if (alias && realpath(alias, alias_real) && strcmp(alias_real, real) == 0 &&
		    strcmp((alias = path_normalize(aliases, alias)), real) != 0)
			aliases[i] = alias;
	}
	rec->roots = roots;
	rec->aliases = aliases;
	rec->nroots = n;
	rec->base = path_common_dir(rec, roots, n);
	return EXIT_OK;
}

/* The traced program's directory as the root, whether or not it exists
 * here (a trace made on another machine). */
static int set_roots_as_written(struct recording *rec, const char *dir)
{
	const char **roots = talloc_array(rec, const char *, 1);

	if (!roots || !(roots[0] = path_normalize(roots, dir)))
		return EXIT_RUN_FAILED;
	rec->roots = roots;
	rec->nroots = 1;
	rec->base = roots[0];
	return EXIT_OK;
}

/* The command as typed, each word quoted when the shell would need it,
 * with its passwords masked as dbench's own arguments are (secret.h):
 * for the `# command:` line and the summary. */
static char *command_text(TALLOC_CTX *mem_ctx, const char *const *argv)
{
	char *s = talloc_strdup(mem_ctx, "");

	for (size_t i = 0; s && argv[i]; i++) {
		const char *a = secret_mask_word(s, argv[i], i ? argv[i - 1] : NULL);
		if (!a)
			return NULL;
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789-_./=:,+@%") == strlen(a);
		s = talloc_asprintf_append(s, "%s", i ? " " : "");
		if (plain) {
			s = talloc_asprintf_append(s, "%s", a);
			continue;
		}
		s = talloc_asprintf_append(s, "'");
		for (const char *p = a; s && *p; p++) {
			unsigned char ch = (unsigned char)*p;
			s = ch == '\'' ? talloc_asprintf_append(s, "'\\''")
			    : ch == '\n' ? talloc_asprintf_append(s, "\\n")
			    : ch < 0x20 || ch == 0x7f ? talloc_asprintf_append(s, "\\x%02x", ch)
			    : talloc_asprintf_append(s, "%c", ch);	/* no terminal's escapes */
		}
		s = talloc_asprintf_append(s, "'");
	}
	return s;
}

/* Where the call the tracer just handed out came from, for its rows:
 * its trace file (kept in rec->sources, found by name in `index`) and
 * line.  false when memory ran out. */
static bool originate(struct recording *rec, struct translate *tr, const struct tracer_calls *calls,
		      struct pathmap *index)
{
	const char *file;
	uint64_t line;

	if (!calls->origin(calls->impl, &file, &line)) {
		translate_origin(tr, 0, 0);
		return true;
	}
	uintptr_t i = (uintptr_t)pathmap_get(index, file);
	if (!i) {
		const char **v = talloc_realloc(rec, rec->sources, const char *, rec->nsources + 1);
		if (!v || !(v[rec->nsources] = talloc_strdup(v, file)))
			return false;
		rec->sources = v;
		i = ++rec->nsources;
		if (!pathmap_put(index, file, (void *)i))
			return false;
	}
	translate_origin(tr, (uint32_t)i, line > UINT32_MAX ? UINT32_MAX : (uint32_t)line);
	return true;
}

/* Read the calls through the translation into rec; stops at once at the
 * loadfile's limit of calls.  EXIT_OK or a status, said. */
static int translate_calls(struct recording *rec, struct tracer_calls *calls, struct infer *inf,
			   bool walked)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char *err = NULL;
	int rc = EXIT_OK;
	struct translate *tr = translate_new(tmp, rec);
	TALLOC_CTX *one = talloc_pool(tmp, 16384);	/* a call's text: freed after each */
	struct pathmap *sources = pathmap_new(tmp);

	if (!tr || !one || !sources) {
		say("out of memory\n");
		talloc_free(tmp);
		return EXIT_RUN_FAILED;
	}
	translate_infer(tr, inf, walked);
	struct sc_call c;
	int got;
	while ((got = calls->next(calls->impl, one, &c, &err)) > 0) {
		if (calls->origin && !originate(rec, tr, calls, sources)) {
			say("out of memory\n");
			rc = EXIT_RUN_FAILED;
			break;
		}
		int taken = translate_call(tr, &c);
		if (taken != 0) {
			if (taken > 0)
				say("%s: %s\n", calls->where(one, calls->impl), translate_why(tr));
			else
				say("out of memory translating the trace at %s\n",
				    calls->where(one, calls->impl));
			rc = taken > 0 ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
			break;
		}
		talloc_free_children(one);
		if (rec->nrows > LOADFILE_MAX_OPS) {
			say("the recording has more than %d calls, the most a loadfile holds "
			    "(LOADFILE_MAX_OPS): the first %d end %.3f s into it; record a shorter run "
			    "or narrow --root\n", LOADFILE_MAX_OPS, LOADFILE_MAX_OPS,
			    (double)rec->rows[LOADFILE_MAX_OPS - 1].start_us / 1e6);
			rc = EXIT_BAD_INPUT;
			break;
		}
	}
	if (got < 0) {
		say("%s\n", err);
		rc = EXIT_BAD_INPUT;
	}
	int taken = rc == EXIT_OK ? translate_finish(tr) : 0;
	if (taken != 0) {
		say("%s\n", taken > 0 ? translate_why(tr) : "out of memory translating the trace");
		rc = taken > 0 ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	rec->unjoined = calls->unjoined(calls->impl);
	rec->bad_lines = calls->bad_lines(calls->impl);
	talloc_free(tmp);
	return rc;
}

/* convert's trace files through the translation. */
static int translate_trace(struct recording *rec, const char *const *files, size_t n,
			   struct infer *inf)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct tracer_calls calls;
	char *err = NULL;
	int rc = EXIT_BAD_INPUT;

	if (tracer_strace_files(tmp, files, n, &calls, &err))
		rc = translate_calls(rec, &calls, inf, false);
	else
		say("%s\n", err ? err : "out of memory");
	talloc_free(tmp);
	return rc;
}

/* The exit status of a loadfile not written: record's, once its command
 * ran, is EXIT_RECORDER whatever the cause; convert's is 2 for a trace
 * beyond a loadfile's limits, 1 for a file it could not write (or its
 * own bug). */
static int unwritten_status(enum loadwriter_status st, bool record)
{
	if (record)
		return EXIT_RECORDER;
	return st == LOADWRITER_LIMIT ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
}

/* The line that says a recording holds what others could not read, and
 * what became of the file's mode. */
static void say_hidden(TALLOC_CTX *mem_ctx, const struct recording *rec, const char *output)
{
	struct stat st;
	bool file = strcmp(output, "-") != 0 && stat(output, &st) == 0 && S_ISREG(st.st_mode);
	char *more = rec->hidden_data > 1
		     ? talloc_asprintf(mem_ctx, " and %llu more", (unsigned long long)rec->hidden_data - 1)
		     : "";

	if (file)
		say("%s holds the contents of '%s'%s, which others could not read: it is readable "
		    "by its owner alone (0600)\n", output, rec->hidden_first, more);
	else
		say("the recording holds the contents of '%s'%s, which others could not read: it "
		    "went to %s, whose mode is not dbench's to set\n", rec->hidden_first, more,
		    strcmp(output, "-") == 0 ? "standard output" : output);
}

/* Choose the initial state, write the loadfile and say what it holds;
 * how the writing went in *st. */
static int finish(TALLOC_CTX *mem_ctx, struct recording *rec, const struct walk *w,
		  struct infer *inf, const char *output, enum loadwriter_status *st)
{
	char *err = NULL;
	bool record = rec->command != NULL;

	*st = LOADWRITER_UNWRITTEN;
	if ((w && !initstate_choose(rec, w)) ||
	    (inf && !(w ? infer_reconcile(inf, rec) : infer_finish(inf, rec)))) {
		say("out of memory choosing the initial state\n");
		return unwritten_status(*st, record);
	}
	recording_cap_sizes(rec, (uint64_t)LOADFILE_MAX_INIT_SIZE);
	if ((*st = loadwriter_write(mem_ctx, rec, output, &err)) != LOADWRITER_OK) {
		say("%s\n", err);
		return unwritten_status(*st, record);
	}
	if (rec->command)
		say("recorded: %s\n", rec->command);
	else
		say("converted: %s\n", rec->source);
	if (rec->hidden_data)
		say_hidden(mem_ctx, rec, output);
	summary_print(stderr, rec, strcmp(output, "-") == 0 ? "standard output" : output);
	return EXIT_OK;
}

static char *scratch_dir(TALLOC_CTX *mem_ctx)
{
	const char *tmp = getenv("TMPDIR");
	char *t = talloc_asprintf(mem_ctx, "%s/dbench-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	return t && mkdtemp(t) ? t : NULL;
}

static void remove_dir(const char *dir)
{
	size_t n;
	const char **files = tracer_strace_set(NULL, dir, "trace", &n);

	for (size_t i = 0; files && i < n; i++)
		unlink(files[i]);
	talloc_free(files);
	rmdir(dir);
}

/* -p's list: thread group ids, at least one. */
static int parse_pids(TALLOC_CTX *mem_ctx, const char *text, int **pids, size_t *n)
{
	*n = 0;
	*pids = talloc_array(mem_ctx, int, strlen(text) / 2 + 1);
	for (const char *p = text; *pids && *p;) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > INT_MAX || (*end && *end != ',')) {
			say("-p '%s': not a list of process ids (PID[,PID...])\n", text);
			return EXIT_BAD_INPUT;
		}
		(*pids)[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (!*n) {
		say("-p '%s': not a list of process ids (PID[,PID...])\n", text);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* --ring-buffer's SIZE (K, M, G), rounded up to a power of two of at
 * least a page; 0 for the default. */
static int parse_ring(const char *text, size_t *bytes)
{
	char *end;
	double v = text ? strtod(text, &end) : 0;
	double unit = 1;

	*bytes = 0;
	if (!text)
		return EXIT_OK;
	if (*end == 'K' || *end == 'k')
		unit = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		unit = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		unit = 1024.0 * 1024 * 1024, end++;
	if (end == text || *end || v <= 0 || v * unit > 1024.0 * 1024 * 1024) {
		say("--ring-buffer '%s': a size of at most 1G (4K, 64M, ...)\n", text);
		return EXIT_BAD_INPUT;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE), want = (size_t)(v * unit);
	for (*bytes = page; *bytes < want; *bytes *= 2)
		;
	return EXIT_OK;
}

/* DBENCH_TEST_BPF_TRACED_MAX, a testing aid: how many processes the bpf
 * tracer traces at once (0, unset or empty: its own bound), so that a
 * test can fill its table with a few. */
static int parse_traced_max(unsigned *max)
{
	const char *v = getenv("DBENCH_TEST_BPF_TRACED_MAX");
	char *end;

	*max = 0;
	if (!v || !*v)
		return EXIT_OK;
	errno = 0;
	unsigned long n = v[0] >= '1' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
	if (n == 0 || *end || errno || n > 65536) {
		say("DBENCH_TEST_BPF_TRACED_MAX must be a whole number from 1 to 65536\n");
		return EXIT_BAD_INPUT;
	}
	*max = (unsigned)n;
	return EXIT_OK;
}

/* The tracer: --tracer's, or bpf where it can run, else strace.  NULL
 * when none can (said). */
static const struct tracer *choose_tracer(TALLOC_CTX *top, const struct options *o,
					  struct recording *rec)
{
	char *why = NULL;

	if (o->tracer) {
		const struct tracer *t = strcmp(o->tracer, "bpf") == 0 ? &tracer_bpf
				       : strcmp(o->tracer, "strace") == 0 ? &tracer_strace : NULL;
		if (!t)
			say("--tracer '%s': bpf or strace\n", o->tracer);
		else if (o->pids && !t->can_attach)
			say("-p: the %s tracer cannot attach to running processes (--tracer=bpf can)\n",
			    t->name);
		else if (t->check(top, &why) != 0)
			say("%s\n", why);
		else
			return rec->tracer = t->name, t;
		return NULL;
	}
	if (tracer_bpf.check(top, &why) == 0)
		return rec->tracer = "bpf", &tracer_bpf;
	if (o->pids) {
		say("-p needs the bpf tracer: %s\n", why);
		return NULL;
	}
	rec->tracer_note = talloc_asprintf(rec, "not bpf: %s", why);
	if (tracer_strace.check(top, &why) != 0) {
		say("%s (and %s)\n", why, rec->tracer_note);
		return NULL;
	}
	return rec->tracer = "strace", &tracer_strace;
}

/* The options that need checking beyond popt's. */
static int check_options(TALLOC_CTX *top, const struct options *o, struct tracer_job *job)
{
	if (o->pids && o->nrest) {
		say("record: either -p PID or -- COMMAND, not both\n");
		return EXIT_BAD_INPUT;
	}
	if (o->duration < 0 || (o->duration > 0 && !o->pids)) {
		say("--duration: %s\n", o->duration < 0 ? "at least 0 seconds" : "only with -p");
		return EXIT_BAD_INPUT;
	}
	int rc = parse_ring(o->ring, &job->ring_bytes);
	if (rc == EXIT_OK)
		rc = parse_traced_max(&job->traced_max);
	if (rc == EXIT_OK && o->pids)
		rc = parse_pids(top, o->pids, (int **)&job->pids, &job->npids);
	job->duration = o->duration;
	return rc;
}

/* -p: the processes' state read as tracing begins, and the user told. */
static int attached(void *ctx, int64_t now_ns, char **err)
{
	struct attach *a = ctx;

	if (attach_scan(a, now_ns, err) != 0)
		return -1;
	char *who = attach_describe(NULL, a);
	say("recording %s (SIGINT, SIGTERM or SIGHUP ends it)\n", who ? who : "the processes");
	talloc_free(who);
	return 0;
}

/* DBENCH_TEST_AFTER_WALK, a testing aid for -p: a file made once the
 * roots are walked; the tracer is not attached until it is removed (at
 * most 60 s), so that a test can make the processes act in between. */
static void test_after_walk(void)
{
	const char *v = getenv("DBENCH_TEST_AFTER_WALK");
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int fd = v && *v ? open(v, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;

	if (fd < 0)
		return;
	close(fd);
	for (int i = 0; i < 6000 && access(v, F_OK) == 0; i++)
		nanosleep(&tick, NULL);
}

/* Everything before the tracing: EXIT_OK, or a status (said). */
static int record_prepare(TALLOC_CTX *top, const struct options *o, struct recording *rec,
			  struct tracer_job *job, struct walk **w)
{
	char *err = NULL, *path = NULL;
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd))) {
		say("cannot tell the current directory: %s\n", strerror(errno));
		return EXIT_BAD_INPUT;
	}
	rec->cwd0 = talloc_strdup(rec, cwd);
	int rc = set_roots(rec, o, cwd);
	if (rc)
		return rc;
	int e = strcmp(o->output, "-") == 0 ? 0 : outfile_check(o->output);
	if (e) {
		say("cannot write '%s': %s\n", o->output, outfile_strerror(e));
		return EXIT_BAD_INPUT;
	}
	if (o->nrest && runner_find(top, o->rest[0], &path, &err) != 0) {
		say("%s\n", err);
		return EXIT_BAD_INPUT;
	}
	job->path = path;
	job->argv = o->nrest ? (char *const *)o->rest : NULL;
	if (o->pids && !(job->ctx = attach_new(top, rec, job->pids, job->npids, &err))) {
		say("%s\n", err);
		return EXIT_BAD_INPUT;
	}
	job->attached = o->pids ? attached : NULL;
	if (!(job->scratch = scratch_dir(top))) {
		say("cannot make a scratch directory for the trace: %s\n", strerror(errno));
		return EXIT_BAD_INPUT;
	}
	char real[PATH_MAX];
	if (!recording_own(rec, realpath(job->scratch, real) ? real : job->scratch)) {
		say("out of memory\n");
		return EXIT_RUN_FAILED;
	}
	*w = walk_roots(top, rec, job->scratch, o->with_data, (uint64_t)LOADFILE_MAX_BYTES / 4 * 3, &err);
	if (!*w) {
		say("%s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (o->pids)
		test_after_walk();
	return EXIT_OK;
}

/* Run the tracer; when bpf was chosen by default and its programs cannot
 * be loaded, strace instead (noted).  0, or -1 with *err. */
static int run_tracer(TALLOC_CTX *top, const struct options *o, struct recording *rec,
		      const struct tracer *t, const struct tracer_job *job, struct tracer_result *res,
		      char **err)
{
	char *why = NULL;

	if (t->run(top, job, res, err) == 0)
		return 0;
	if (t != &tracer_bpf || o->tracer || o->pids || res->status >= 0 ||
	    tracer_strace.check(top, &why) != 0)
		return -1;
	rec->tracer = tracer_strace.name;
	rec->tracer_note = talloc_asprintf(rec, "not bpf: %s", *err);
	return tracer_strace.run(top, job, res, err);
}

/* The tracer's run and its calls translated: EXIT_OK or a status (said);
 * the command's status in *status. */
static int record_trace(TALLOC_CTX *top, const struct options *o, struct recording *rec,
			const struct tracer *t, const struct tracer_job *job, struct infer *inf,
			int *status)
{
	struct tracer_result res;
	char *err = NULL;

	if (run_tracer(top, o, rec, t, job, &res, &err) != 0) {
		say("%s\n", err);
		return res.status < 0 ? EXIT_BAD_INPUT : EXIT_RECORDER;
	}
	*status = res.status;
	rec->lost_events = res.loss.dropped;
	rec->lost_calls = res.loss.calls_lost;
	rec->cut_strings = res.loss.str_cut;
	rec->cut_vectors = res.loss.iov_cut;
	rec->untraced_processes = res.loss.untraced;
	rec->untraced_calls = res.loss.stateless;
	if (o->pids) {
		rec->command = talloc_asprintf(rec, "attached to %s%s%s",
					       attach_describe(rec, job->ctx),
					       res.stopped_by ? ", until " : "",
					       res.stopped_by ? strsignal(res.stopped_by) : "");
		res.calls = attach_calls(job->ctx, res.calls);
	}
	int rc = translate_calls(rec, &res.calls, inf, true);
	if (o->pids && rec->processes_seen)
		rec->processes_seen--;	/* the recorder's own process, which forked them */
	return rc == EXIT_OK ? EXIT_OK : EXIT_RECORDER;	/* the command ran */
}

int record_main(int argc, const char **argv)
{
	TALLOC_CTX *top = talloc_new(NULL);
	struct options o = { .output = NULL };
	struct recording *rec = recording_new(top);
	struct tracer_job job = { .path = NULL };
	const struct tracer *t = NULL;
	struct walk *w = NULL;
	struct infer *inf = NULL;	/* -p: the walk reconciled with the calls */
	int status = 0, rc = rec ? parse(top, argc, argv, true, &o) : EXIT_RUN_FAILED;

	if (rc == PARSE_HELP) {
		talloc_free(top);
		return EXIT_OK;
	}
	if (!o.output)
		o.output = "record.load";
	if (rc == EXIT_OK)
		rc = check_options(top, &o, &job);
	if (rc == EXIT_OK && !(t = choose_tracer(top, &o, rec)))
		rc = EXIT_BAD_INPUT;
	if (rc == EXIT_OK)
		rc = record_prepare(top, &o, rec, &job, &w);
	if (rec) {
		rec->command = o.nrest ? command_text(rec, o.rest) : NULL;
		rec->when = time(NULL);
	} else {
		say("out of memory\n");
	}
	if (rc == EXIT_OK && o.pids && !(inf = infer_new(top))) {
		say("out of memory\n");
		rc = EXIT_RUN_FAILED;
	}
	if (rc == EXIT_OK)
		rc = record_trace(top, &o, rec, t, &job, inf, &status);
	enum loadwriter_status st = LOADWRITER_OK;
	if (rc == EXIT_OK)
		rc = finish(top, rec, w, inf, o.output, &st);
	if (job.scratch && st == LOADWRITER_REFUSED)
		say("the trace is kept in %s for the report\n", job.scratch);
	else if (job.scratch)
		remove_dir(job.scratch);
	if (rc == EXIT_OK && o.strict && recording_lost_text(top, rec)) {
		say("--strict-capture: the recording is not whole (%s)\n", recording_lost_text(top, rec));
		rc = EXIT_RECORDER;
	}
	if (rc == EXIT_OK && status != 0)
		say("the command exited with status %d: %s holds what it did until then\n", status,
		    o.output);
	else if (rc == EXIT_RECORDER && status != 0)
		say("the command exited with status %d\n", status);
	talloc_free(top);
	return rc == EXIT_OK ? status : rc;
}

/* The working directory the trace's first -y annotation of AT_FDCWD
 * names ("AT_FDCWD</home/alice/src>"), or NULL. */
static char *traced_cwd(TALLOC_CTX *mem_ctx, const char *const *files, size_t n)
{
	char *found = NULL, *line = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < n && !found; i++) {
		FILE *f = fopen(files[i], "r");
		for (int k = 0; f && k < 2000 && !found && getline(&line, &cap, f) >= 0; k++) {
			char *p = strstr(line, "AT_FDCWD<");
			char *e = p ? strchr(p, '>') : NULL;
			if (!e)
				continue;
			*e = '\0';
			char *quoted = talloc_asprintf(mem_ctx, "\"%s\"", p + 9);
			found = quoted ? strace_string(mem_ctx, quoted, NULL) : NULL;
		}
		if (f)
			fclose(f);
	}
	free(line);
	return found;
}

/* The trace's files: those named, or the -ff set of a prefix named. */
static const char **convert_files(TALLOC_CTX *mem_ctx, const struct options *o, size_t *n)
{
	struct stat st;

	if (o->nrest == 1 && stat(o->rest[0], &st) != 0 && errno == ENOENT) {
		char *dir = talloc_strdup(mem_ctx, o->rest[0]);
		char *slash = strrchr(dir, '/');
		const char *base = slash ? slash + 1 : dir;
		if (slash)
			*slash = '\0';
		const char **v = tracer_strace_set(mem_ctx, slash ? (*dir ? dir : "/") : ".", base, n);
		if (v && *n)
			return v;
		say("cannot open '%s': %s (nor is it the prefix of strace -ff files)\n", o->rest[0],
		    strerror(ENOENT));
		return NULL;
	}
	/* Each is read more than once: a regular file, never a pipe or a device
	 * that would hold or never end the reading (infile.h). */
	for (size_t i = 0; i < o->nrest; i++) {
		const char *why;
		int fd = infile_open(mem_ctx, o->rest[i], INFILE_REGULAR, 0, &why);
		if (fd < 0) {
			say("cannot open '%s': %s\n", o->rest[i], why);
			return NULL;
		}
		close(fd);
	}
	*n = o->nrest;
	return o->rest;
}

/* The first line of a file, for telling a fio log from a trace. */
static char *first_line(TALLOC_CTX *mem_ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[256] = "";

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return talloc_strdup(mem_ctx, buf);
}

static int convert_run(TALLOC_CTX *top, struct options *o, struct recording *rec)
{
	size_t n;
	const char **files = convert_files(top, o, &n);
	char cwd[PATH_MAX];
	char *err = NULL;
	enum loadwriter_status st;

	if (!files)
		return EXIT_BAD_INPUT;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(o->output, "-") != 0 && outfile_same(o->output, files[i])) {
			say("-o '%s' is the trace '%s' it reads: the loadfile would replace it\n",
			    o->output, files[i]);
			return EXIT_BAD_INPUT;
		}
	}
	char *line = first_line(top, files[0]);
	if (!line) {
		say("cannot open '%s': %s\n", files[0], strerror(errno));
		return EXIT_BAD_INPUT;
	}
	bool fio = fio_iolog_version(line) != 0;
	if (fio && n > 1) {
		say("convert reads one fio log at a time\n");
		return EXIT_BAD_INPUT;
	}
	char *traced = fio ? NULL : traced_cwd(top, files, n);
	for (size_t i = 0; i < n; i++) {	/* the trace's files, where it was made */
		char real[PATH_MAX];
		if (realpath(files[i], real) && !recording_own(rec, real))
			return EXIT_RUN_FAILED;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		say("cannot tell the current directory: %s\n", strerror(errno));
		return EXIT_BAD_INPUT;
	}
	/* the traced program's directory need not exist here: the roots are
	 * taken as written when it does not */
	rec->cwd0 = traced ? traced : o->nroots ? o->roots[0] : talloc_strdup(rec, cwd);
	int rc = traced && !o->nroots ? set_roots_as_written(rec, traced) : set_roots(rec, o, cwd);
	if (rc)
		return rc;
	if (rec->cwd0[0] != '/')
		rec->cwd0 = rec->roots[0];
	rec->source = talloc_asprintf(rec, "%s%s", o->nrest == 1 ? o->rest[0] : files[0],
				      n > 1 ? " (and the rest of the set)" : "");
	rec->when = time(NULL);
	if (fio) {
		if (fio_iolog_read(top, rec, files[0], &err) != 0) {
			say("%s\n", err);
			return EXIT_BAD_INPUT;
		}
		rec->streams = 1;
		return finish(top, rec, NULL, NULL, o->output, &st);
	}
	struct infer *inf = infer_new(top);
	if (!inf)
		return EXIT_RUN_FAILED;
	rc = translate_trace(rec, files, n, inf);
	if (rc == EXIT_OK && rec->first_tid < 0) {
		say("'%s' holds no call strace printed\n", files[0]);
		rc = EXIT_BAD_INPUT;
	}
	return rc ? rc : finish(top, rec, NULL, inf, o->output, &st);
}

int convert_main(int argc, const char **argv)
{
	TALLOC_CTX *top = talloc_new(NULL);
	struct options o = { .output = NULL };
	struct recording *rec = recording_new(top);
	int rc = rec ? parse(top, argc, argv, false, &o) : EXIT_RUN_FAILED;

	if (rc == PARSE_HELP)
		rc = EXIT_OK;
	else if (rc == EXIT_OK) {
		if (!o.output)
			o.output = "-";
		rc = convert_run(top, &o, rec);
	}
	talloc_free(top);
	return rc;
}
