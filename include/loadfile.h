/*
 * loadfile.h - reading a loadfile and compiling it into a program.
 *
 * A loadfile is text, one operation per line (doc/DESIGN.md, "Loadfile").
 * It is read once, in the parent, and compiled into a `struct program`: an
 * array of decoded operations whose paths are already client-relative and
 * whose trace handles are already small slot numbers.  A client replays
 * the array and never looks at the text again; after fork the program is
 * shared copy-on-write and treated as read-only.
 *
 * Everything a program holds hangs off the program itself on the talloc
 * tree, so talloc_free(program) releases all of it.
 *
 * Errors come back as values: a talloc string "FILE:LINE: what is wrong"
 * (or "FILE: what is wrong" for whole-file problems) for the caller to
 * print.  Nothing here prints or exits.
 */
#ifndef DBENCH_LOADFILE_H
#define DBENCH_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <talloc.h>

#include "ops.h"

/* Limits the parser enforces; documented in dbench(1). */
#define LOADFILE_MAX_LINE 4096			/* bytes in one line */
#define LOADFILE_MAX_BYTES (192L * 1024 * 1024)	/* decompressed file size */
#define LOADFILE_MAX_OPS 3000000		/* operations in the file */
#define LOADFILE_PIPE_WAIT_S 10			/* for a pipe's first bytes */
#define LOADFILE_MAX_HANDLES 4096		/* handles open at once */
#define LOADFILE_MAX_UNROLLED (1 << 20)		/* operations after unrolling LOOPs */
#define LOADFILE_MAX_REPEAT 1000000000u		/* REPEAT's and LOOP's count */
#define LOADFILE_RANDOM_STRINGS 10		/* RANDOMSTRING 0 .. 9 */

#define HANDLE_NONE UINT16_MAX	/* op names no open handle (expected to fail) */
#define DIR_NONE UINT16_MAX	/* path is the client dir or "\clients": no parent in dirs[] */
#define LOADFILE_MAX_DIRS (UINT16_MAX - 1)

/* op.flags */
#define OPF_CLIENTS_DIR 0x01	/* path is "\clients" itself, not beneath the client */
#define OPF_WILDCARD	0x02	/* FIND_FIRST pattern holds * ? < > or " */
#define OPF_DBENCH3	0x04	/* line had no status column (dbench 3 form) */
#define OPF_TIMED	0x08	/* line had a leading timestamp */
#define OPF_ANY_STATUS	0x10	/* status "*": any outcome is as expected */

/*
 * The NFS dialect (dbench 5.0's nfs*.load) adds directive lines that the
 * compiler resolves, so that a client still replays a flat array:
 *   LOOP n ... ENDLOOP   the lines between are unrolled n times
 *   REPEAT n             the next operation runs n times (op.repeat)
 *   RANDOMSTRING i "s"   string $i (i 0..9) is s with each [set] replaced
 *                        by one character of the set, drawn once when the
 *                        file is compiled (a fixed seed: reproducible)
 *   WRITEPATTERN text    WRITE3 and WriteX write text over and over
 * and an NFS row's offset may be an expression, evaluated as it runs:
 *   "*" then qualifiers "/N" (align down), "%N" (modulo), "+N" (add):
 *   a random 64-bit number so transformed, in order; or
 *   "+N", "+child", "+num_children": the previous offset of this client
 *   (of the last operation that had one) plus N, the client's number
 *   from 0, or the number of clients.
 * Paths of an NFS row that lie outside \clients are taken beneath the
 * client's directory, so that clients never share a file.
 */
#define OFFSET_EXPR_MAX_QUAL 4

enum offset_base {
	OFFSET_RANDOM,		/* a random 64-bit number, then the qualifiers */
	OFFSET_PREV,		/* the previous offset + qual[0].value */
	OFFSET_PREV_CHILD,	/* the previous offset + the client number from 0 */
	OFFSET_PREV_NCHILD,	/* the previous offset + the number of clients */
};

struct offset_expr {
	uint8_t base;		/* enum offset_base */
	uint8_t nqual;
	struct {
		char op;	/* '/', '%' or '+' */
		uint64_t value;	/* nonzero */
	} qual[OFFSET_EXPR_MAX_QUAL];
};

/* What an expression's evaluation needs of the client running it. */
struct offset_state {
	uint64_t prev;		/* the last offset this client used */
	uint64_t rng;		/* xorshift state, nonzero */
	unsigned client;	/* from 0 */
	unsigned nclients;
};

/*
 * One compiled operation.  `a` holds the numeric arguments in loadfile
 * order, leaving out paths and handles:
 *   NTCreateX   a[0] create_options  a[1] disposition
 *   Unlink      a[0] attributes
 *   ReadX/WriteX a[0] offset  a[1] size  a[2] expected return
 *   LockX/UnlockX a[0] offset  a[1] length
 *   QUERY_PATH_INFORMATION, QUERY_FILE_INFORMATION, QUERY_FS_INFORMATION,
 *   SET_FILE_INFORMATION  a[0] level
 *   FIND_FIRST  a[0] level  a[1] max count  a[2] expected count
 *   READ3       a[0] offset  a[1] size
 *   WRITE3      a[0] offset  a[1] size  a[2] stable (0 unstable, 1 data, 2 file)
 *   LOCK4, UNLOCK4, TEST4  a[0] offset  a[1] length
 *   ACCESS3     a[0] access asked  a[1] access expected
 * An offset that is an expression is evaluated by loadfile_offset().
 */
struct op {
	uint8_t type;		/* enum op_type */
	uint8_t status;		/* enum nt_status expected */
	uint8_t flags;		/* OPF_* */
	uint16_t handle;	/* slot 0..max_handles-1, or HANDLE_NONE */
	uint16_t expr;		/* offset expression: program.exprs[expr - 1]; 0 = none */
	uint32_t line;		/* line number in the loadfile, from 1 */
	int32_t fnum;		/* the trace's own handle number, for messages */
	double timestamp;	/* seconds since the pass started, when OPF_TIMED */
	const char *path;	/* client-relative, '/'-separated; "" = the client dir;
				 * for an op on an open handle, the file it was opened
				 * on (for messages only: leaf and dir stay unset) */
	const char *path2;	/* Rename's new name, else NULL */
	const char *leaf;	/* last component of path ("" for the client dir) */
	const char *leaf2;	/* last component of path2 */
	uint16_t dir;		/* index in program.dirs of path's parent, or DIR_NONE */
	uint16_t dir2;		/* the same for path2 */
	uint32_t repeat;	/* times it runs in a row (REPEAT), at least 1 */
	int64_t a[3];
};

struct program {
	const char *source;	/* file name as given, or "(built-in)" */
	char sha256[65];	/* SHA-256 of the (decompressed) text, in hex */
	struct op *ops;
	size_t nops;
	unsigned max_handles;	/* most handles open at once during a pass */
	bool timed;		/* some line has a timestamp */
	uint64_t count[OP_COUNT];	/* operations of each type run in one pass */
	uint64_t bytes_read;	/* ReadX and READ3 bytes in one pass */
	uint64_t bytes_written;	/* WriteX and WRITE3 bytes in one pass */
	const struct offset_expr *exprs;	/* offset expressions, op.expr - 1 */
	size_t nexprs;
	const char *write_pattern;	/* WRITEPATTERN's text, or NULL */
	size_t write_pattern_len;
	size_t npaths;		/* distinct paths named */
	const char **dirs;	/* distinct parent directories, client-relative; */
	size_t ndirs;		/* dirs[0] is always "", the client dir itself */
};

/*
 * Compile loadfile text.  `name` is used in messages.  `text` need not be
 * NUL-terminated and may hold NUL bytes (which are rejected).  On success
 * returns a program allocated on mem_ctx; on failure NULL, with *err set to
 * a message allocated on mem_ctx (NULL if even that found no memory) and
 * errno to ENOMEM when memory ran out (not the file's fault), else to
 * another value.
 */
struct program *loadfile_compile(TALLOC_CTX *mem_ctx, const char *name,
				 const char *text, size_t len, char **err);

/*
 * Read and compile the file at `path`, a regular file or a pipe (see
 * LOADFILE_PIPE_WAIT_S); gzip input (by its magic bytes) is decompressed
 * transparently.  Same result conventions as loadfile_compile().
 */
struct program *loadfile_read(TALLOC_CTX *mem_ctx, const char *path, char **err);

/* The loadfile built into the binary (loadfiles/default.txt). */
struct program *loadfile_default(TALLOC_CTX *mem_ctx, char **err);

/* The text of the built-in loadfile and its length. */
extern const char default_loadfile_text[];
extern const char default_loadfile_end[];

/*
 * The summary `dbench --check-loadfile` prints, allocated on mem_ctx:
 * operations, one "NAME COUNT" line per type, bytes per pass, handles,
 * paths and directories.
 */
char *loadfile_summary(TALLOC_CTX *mem_ctx, const struct program *prog);

/* The offset operation `op` of prog works at: a[0], or its expression
 * evaluated for the client of `st`; either way it becomes st->prev. */
uint64_t loadfile_offset(const struct program *prog, const struct op *op,
			 struct offset_state *st);

/* The total of prog->count[]: operations run in one pass. */
uint64_t loadfile_ops_per_pass(const struct program *prog);

/* The most bytes one operation of prog moves (ReadX, WriteX, READ3,
 * WRITE3): what a client's transfer buffer must hold; 0 when none moves
 * any. */
size_t loadfile_max_transfer(const struct program *prog);

/* Whether client-relative `path` (op.path's form) is `top` itself or lies
 * beneath it: "foo" holds "foo" and "foo/x", not "foo.dbench" or
 * "foobar/x".  A trailing '/' on top is ignored; "" (the client
 * directory) holds every path. */
bool loadfile_path_within(const char *path, const char *top);

#endif
