/*
 * fuzz_loadfile.c - libFuzzer target for the loadfile compiler.
 *
 * Every input is compiled with loadfile_compile().  A rejected input only
 * has to come back with an error message and no program.  An accepted one
 * must satisfy the invariants the replay and the reporters rely on without
 * checking them again: operation and status in range, handles below the
 * high-water mark, client-relative paths with no "." or ".." component,
 * directory indexes that name the path's real parent, byte and operation
 * totals that agree with the ops.  A violation calls abort(), which the
 * fuzzer reports with the input that caused it.  The whole tree is freed at
 * the end of each input, so LeakSanitizer sees anything the compiler leaks.
 *
 * Built by tests/fuzz/run.sh; the built-in loadfile symbols that
 * src/loadfile.c references are defined here, so src/default_loadfile.S is
 * not needed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <talloc.h>

#include "loadfile.h"

const unsigned char default_loadfile_gz[1];
const unsigned char default_loadfile_gz_end[1];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The loadfile line of the position being checked, for the message. */
static uint32_t at_line;

/* Name the broken invariant on stderr, then abort so the fuzzer saves the input. */
static void violated(const struct op *op, const char *what)
{
	if (op)
		fprintf(stderr, "invariant violated at line %u (op type %u): %s\n",
			(unsigned)at_line, (unsigned)op->type, what);
	else
		fprintf(stderr, "invariant violated: %s\n", what);
	abort();
}

#define CHECK(op, cond) do { if (!(cond)) violated((op), #cond); } while (0)

static bool has_path_arg(const struct op_desc *d)
{
	for (int i = 0; i < d->nargs; i++) {
		if (d->args[i] == ARG_PATH)
			return true;
	}
	return false;
}

static bool has_offset_arg(const struct op_desc *d)
{
	for (int i = 0; i < d->nargs; i++) {
		if (d->args[i] == ARG_OFFSET)
			return true;
	}
	return false;
}

static int path_args(const struct op_desc *d)
{
	int n = 0;
	for (int i = 0; i < d->nargs; i++)
		n += d->args[i] == ARG_PATH;
	return n;
}

/*
 * A client-relative path: "" (the client directory) or components joined
 * by single '/', none of them empty, "." or "..", and no backslash left.
 */
static void check_path_text(const struct op *op, const char *path)
{
	if (path[0] == '\0')
		return;
	CHECK(op, path[0] != '/');
	CHECK(op, strchr(path, '\\') == NULL);
	const char *p = path;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		CHECK(op, n > 0);
		CHECK(op, !(n == 1 && p[0] == '.'));
		CHECK(op, !(n == 2 && p[0] == '.' && p[1] == '.'));
		if (!slash)
			break;
		p = slash + 1;
	}
}

/*
 * path/leaf/dir agree: leaf is the tail of path after the last '/', and
 * dirs[dir] is everything before it ("" for a top-level name).  The empty
 * path (client dir or "\clients") has no parent.
 */
static void check_path(const struct program *prog, const struct op *op,
		       const char *path, const char *leaf, uint16_t dir)
{
	CHECK(op, path != NULL);
	CHECK(op, leaf != NULL);
	check_path_text(op, path);
	CHECK(op, leaf >= path && leaf <= path + strlen(path));
	CHECK(op, strchr(leaf, '/') == NULL);
	CHECK(op, leaf == path || leaf[-1] == '/');
	if (path[0] == '\0') {
		CHECK(op, dir == DIR_NONE);
		return;
	}
	CHECK(op, dir != DIR_NONE);
	CHECK(op, dir < prog->ndirs);
	const char *parent = prog->dirs[dir];
	size_t plen = leaf == path ? 0 : (size_t)(leaf - path - 1);
	CHECK(op, strlen(parent) == plen);
	CHECK(op, strncmp(parent, path, plen) == 0);
}

static void check_op(const struct program *prog, const struct op *op)
{
	CHECK(op, op->type < OP_COUNT);
	CHECK(op, op->status < NT_STATUS_COUNT);
	CHECK(op, op->handle == HANDLE_NONE || op->handle < prog->max_handles);
	CHECK(op, op->dir == DIR_NONE || op->dir < prog->ndirs);
	CHECK(op, op->dir2 == DIR_NONE || op->dir2 < prog->ndirs);
	if (op->flags & OPF_TIMED) {
		CHECK(op, prog->timed);
		CHECK(op, op->timestamp >= 0 && op->timestamp <= 1e9);
	}

	const struct op_desc *d = &op_table[op->type];
	if (has_path_arg(d)) {
		check_path(prog, op, op->path, op->leaf, op->dir);
	} else {
		/* path may name the file a bound handle is on, for messages */
		CHECK(op, op->leaf == NULL && op->dir == DIR_NONE);
		CHECK(op, op->path == NULL || op->handle != HANDLE_NONE);
		if (op->path)
			check_path_text(op, op->path);
	}
	if (path_args(d) == 2)
		check_path(prog, op, op->path2, op->leaf2, op->dir2);
	else
		CHECK(op, op->path2 == NULL && op->dir2 == DIR_NONE);

	/* Only operations that change nothing there, or make it, may touch
	 * the shared \clients. */
	if (op->flags & OPF_CLIENTS_DIR)
		CHECK(op, op->type == OP_MKDIR || op->type == OP_QPATHINFO ||
			  op->type == OP_MKDIR3 || op->type == OP_GETATTR3 ||
			  op->type == OP_LOOKUP3 || op->type == OP_ACCESS3);
	CHECK(op, op->repeat >= 1 && op->repeat <= LOADFILE_MAX_REPEAT);
	CHECK(op, op->expr <= prog->nexprs);
	if (op->expr)
		CHECK(op, (op_is_nfs(op->type) || op_is_smb(op->type) || op_is_block(op->type) ||
			   op_is_scsi(op->type)) && has_offset_arg(d));
	/* A handle the pass opened is one the op expects to succeed with. */
	if (op->type == OP_NTCREATEX)
		CHECK(op, (op->handle != HANDLE_NONE) == (op->status == NT_OK));
	else if (d->args[0] != ARG_HANDLE || d->nargs == 0)
		CHECK(op, op->handle == HANDLE_NONE);
	else if (op->status == NT_OK)
		CHECK(op, op->handle != HANDLE_NONE);

	if (d->bytes != BYTES_NONE) {
		CHECK(op, op->a[0] >= 0 && op->a[0] <= OP_MAX_OFFSET);
		CHECK(op, op->a[1] >= 0 && op->a[1] <= OP_MAX_SIZE);
		if (op->type == OP_WRITE3)
			CHECK(op, op->a[2] >= 0 && op->a[2] <= 2);	/* stable */
		else if (!op_is_nfs(op->type) && !op_is_block(op->type) && !op_is_scsi(op->type))
			CHECK(op, op->a[2] >= 0 && op->a[2] <= op->a[1]);
	}
	if (op->repeat > 1)
		CHECK(op, d->args[0] != ARG_HANDLE && op->type != OP_NTCREATEX);
	if (op->type == OP_LOCKX || op->type == OP_UNLOCKX) {
		CHECK(op, op->a[0] >= 0 && op->a[0] <= OP_MAX_OFFSET);
		CHECK(op, op->a[1] >= 0 && op->a[1] <= OP_MAX_SIZE);
	}
}

/*
 * Replay the handle slots: NTCreateX takes a free slot, an op on a handle
 * finds its slot open, a successful Close frees it, and the most slots
 * open at once is max_handles.  `open` has max_handles entries.
 */
static void check_handles(const struct program *prog, const char **open)
{
	unsigned nopen = 0, peak = 0;

	for (size_t i = 0; i < prog->nops; i++) {
		const struct op *op = loadfile_op(prog, i);
		uint16_t h = op->handle;
		at_line = loadfile_line(prog, i);
		if (h == HANDLE_NONE)
			continue;
		if (op->type == OP_NTCREATEX) {
			CHECK(op, open[h] == NULL);
			open[h] = op->path;
			if (++nopen > peak)
				peak = nopen;
			continue;
		}
		CHECK(op, open[h] != NULL);
		CHECK(op, op->path == NULL || op->path == open[h]);
		if (op->type == OP_CLOSE && op->status == NT_OK) {
			open[h] = NULL;
			nopen--;
		}
	}
	CHECK(NULL, peak == prog->max_handles);
}

static void check_program(const struct program *prog, bool unrolled)
{
	uint64_t count[OP_COUNT] = { 0 };
	uint64_t bytes_read = 0, bytes_written = 0;
	bool timed = false;
	uint32_t last_line = 0;

	CHECK(NULL, prog->nops >= 1);
	CHECK(NULL, prog->ops != NULL);
	CHECK(NULL, prog->max_handles <= LOADFILE_MAX_HANDLES);
	CHECK(NULL, prog->ndirs >= 1 && prog->ndirs <= LOADFILE_MAX_DIRS);
	CHECK(NULL, prog->dirs != NULL && prog->dirs[0] != NULL && prog->dirs[0][0] == '\0');
	for (size_t i = 0; i < prog->ndirs; i++) {
		CHECK(NULL, prog->dirs[i] != NULL);
		check_path_text(NULL, prog->dirs[i]);
	}
	CHECK(NULL, strlen(prog->sha256) == 64);

	for (size_t i = 0; i < prog->nops; i++) {
		/* each position's entry lies in the table, aligned */
		CHECK(NULL, prog->op_offset[i] % sizeof(struct op) == 0);
		CHECK(NULL, prog->op_offset[i] / sizeof(struct op) < prog->ndistinct);
		const struct op *op = loadfile_op(prog, i);
		at_line = loadfile_line(prog, i);
		CHECK(op, at_line >= 1);
		check_op(prog, op);
		/* one op per line, in order, but for a LOOP's unrolled copies */
		CHECK(op, at_line > last_line || unrolled);
		last_line = at_line;
		count[op->type] += op->repeat;
		timed |= (op->flags & OPF_TIMED) != 0;
		if (op_table[op->type].bytes == BYTES_READ)
			bytes_read += (uint64_t)op->a[1] * op->repeat;
		else if (op_table[op->type].bytes == BYTES_WRITE)
			bytes_written += (uint64_t)op->a[1] * op->repeat;
	}
	CHECK(NULL, bytes_read == prog->bytes_read);
	CHECK(NULL, bytes_written == prog->bytes_written);
	CHECK(NULL, timed == prog->timed);
	for (int t = 0; t < OP_COUNT; t++)
		CHECK(NULL, count[t] == prog->count[t]);

	const char **open = calloc(prog->max_handles + 1, sizeof(*open));
	CHECK(NULL, open != NULL);
	check_handles(prog, open);
	free(open);
}

/* Whether the text may have unrolled a LOOP (whose copies repeat lines). */
static bool mentions_endloop(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 7 <= size; i++) {
		if (strncasecmp((const char *)data + i, "ENDLOOP", 7) == 0)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	TALLOC_CTX *ctx = talloc_new(NULL);
	char *err = (char *)"unset";

	if (!ctx)
		return 0;
	struct program *prog = loadfile_compile(ctx, "fuzz", (const char *)data, size, &err);
	if (!prog) {
		/* A rejection names the input and says what is wrong. */
		CHECK(NULL, err != NULL);
		CHECK(NULL, strncmp(err, "fuzz:", 5) == 0);
	} else {
		CHECK(NULL, err == NULL);
		check_program(prog, mentions_endloop(data, size));
		char *summary = loadfile_summary(ctx, prog);
		CHECK(NULL, summary != NULL);
		CHECK(NULL, strncmp(summary, "loadfile fuzz\noperations ", 25) == 0);
	}
	talloc_free(ctx);
	return 0;
}
