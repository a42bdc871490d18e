/*
 * tracer_strace.c - strace as a tracer (tracer.h): the command run under
 * strace -ff (runner.h), its files read back in start order
 * (trace_reader.h).
 *
 * Owns the set of files of one recording; knows nothing of what the
 * calls mean.
 */
#include <dirent.h>
#include <string.h>

#include "record/runner.h"
#include "record/trace_reader.h"
#include "record/tracer.h"
#include "record/translate.h"

static int next(void *impl, TALLOC_CTX *mem_ctx, struct sc_call *c, char **err)
{
	return trace_next(impl, mem_ctx, c, err);
}

static char *where(TALLOC_CTX *mem_ctx, const void *impl)
{
	return (char *)trace_where(mem_ctx, impl);
}

static bool origin(const void *impl, const char **file, uint64_t *line)
{
	return trace_origin(impl, file, line);
}

static uint64_t bad_lines(const void *impl)
{
	return trace_bad_lines(impl);
}

static uint64_t unjoined(const void *impl)
{
	return trace_unjoined(impl);
}

bool tracer_strace_files(TALLOC_CTX *mem_ctx, const char *const *files, size_t n,
			 struct tracer_calls *out, char **err)
{
	struct trace_reader *r = trace_open(mem_ctx, files, n, err);

	if (!r)
		return false;
	*out = (struct tracer_calls){ .impl = r, .next = next, .where = where, .origin = origin,
				      .bad_lines = bad_lines, .unjoined = unjoined };
	return true;
}

const char **tracer_strace_set(TALLOC_CTX *mem_ctx, const char *dir, const char *base, size_t *n)
{
	DIR *d = opendir(dir);
	const char **v = talloc_array(mem_ctx, const char *, 1);
	size_t len = strlen(base);

	*n = 0;
	if (!d || !v) {
		if (d)
			closedir(d);
		return NULL;
	}
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		const char *tid = de->d_name + len + 1;	/* PREFIX.TID: digits alone */
		if (strncmp(de->d_name, base, len) != 0 || de->d_name[len] != '.' || !*tid ||
		    tid[strspn(tid, "0123456789")] != '\0')
			continue;
		v = talloc_realloc(mem_ctx, v, const char *, *n + 2);
		if (!v)
			break;
		v[(*n)++] = talloc_asprintf(v, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (v)
		v[*n] = NULL;
	return v;
}

static int strace_run(TALLOC_CTX *mem_ctx, const struct tracer_job *job, struct tracer_result *out,
		      char **err)
{
	char *prefix = talloc_asprintf(mem_ctx, "%s/trace", job->scratch);

	memset(out, 0, sizeof(*out));
	if (!job->argv) {
		*err = talloc_strdup(mem_ctx, "strace does not attach to running processes here: "
				     "record -p needs --tracer=bpf");
		return -1;
	}
	out->status = runner_run(mem_ctx, translate_trace_set(mem_ctx), translate_raw_set(mem_ctx),
				 job->argv, prefix, err);
	if (out->status < 0)
		return -1;
	size_t n;
	const char **files = tracer_strace_set(mem_ctx, job->scratch, "trace", &n);
	if (!files || !n) {
		*err = talloc_asprintf(mem_ctx, "strace left no trace of '%s'", job->argv[0]);
		return -1;
	}
	return tracer_strace_files(mem_ctx, files, n, &out->calls, err) ? 0 : -1;
}

const struct tracer tracer_strace = {
	.name = "strace",
	.can_attach = false,
	.check = runner_check,
	.run = strace_run,
};
