/*
 * loadfile.h - reading a loadfile and compiling it into a program.
 *
 * A loadfile is text, one operation per line (doc/DESIGN.md, "Loadfile").
 * It is read once, in the parent, and compiled into a `struct program`:
 * decoded operations whose paths are already client-relative and whose
 * trace handles are already small slot numbers.  Each distinct operation
 * is stored once, in a table (program.ops), and the loadfile's sequence
 * as 4 bytes a position (program.op_offset): client.txt's 458,344
 * positions hold some 26,000 distinct operations.  loadfile_op() is the
 * operation at a position, loadfile_line() its line.  A client replays
 * the positions in order and never looks at the text again; after fork
 * the program is shared copy-on-write and treated as read-only.
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

/* Limits the parser enforces; documented in dbench-loadfile(5). */
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
#define OPF_SYSCALL	0x20	/* a call of the system-call dialect: prog->calls[] */
#define OPF_LOCKWAIT	0x40	/* a blocking lock call of a recording: it may wait
				 * in the kernel for a lock another stream holds */

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
/*
 * dbench 5.0's SMB dialect (src/load/smbload.h) compiles as the NFS
 * dialect does, with its own rows (OP_SMB_*): its paths are taken
 * beneath the client's directory too, "/client1" (5.0's name for each
 * client's own) being that directory; OPEN, READ, WRITE and CLOSE name
 * the file by path, which the compiler turns into a handle slot as it
 * does a dbench 4 fnum; READ and WRITE must move their whole length.
 * OPEN's flags (a[0]) are 5.0's bits, which the backend maps:
 */
#define SMB5_O_RDONLY	0x01
#define SMB5_O_WRONLY	0x02
#define SMB5_O_RDWR	0x04
#define SMB5_O_CREAT	0x08
#define SMB5_O_EXCL	0x10
#define SMB5_O_TRUNC	0x20
#define SMB5_O_APPEND	0x40
#define SMB5_O_ALL	0x7f

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
 *   OPEN        a[0] flags (SMB5_O_*)
 *   READ, WRITE a[0] offset  a[1] size  a[2] the size again (all of it)
 *   Read, Write (the block dialect's READ, WRITE)  a[0] offset  a[1] size
 *   the SCSI dialect's rows (src/load/blockload.h): LBAs and lengths in
 *   512-byte blocks as the loadfile has them, but a transfer's length in
 *   bytes; their small fields (ARG_BYTE) a byte each of a[2], the first
 *   lowest (loadfile_byte_arg()); op.status the SCSI status expected
 *     READ6       a[0] LBA  a[1] bytes
 *     READ10, READ16, WRITE10, WRITE16  a[0] LBA  a[1] bytes
 *                 byte 0 the CDB's flags byte (1)  byte 1 its group number
 *     READCAPACITY10  a[0] LBA  byte 0 PMI
 *     SYNCHRONIZECACHE10  a[0] LBA  a[1] blocks  byte 0 SYNC_NV  byte 1 IMMED
 *     PROUT       a[0] reservation key  a[1] service action key
 *                 byte 0 service action  byte 1 type
 * An offset or LBA that is an expression is evaluated by loadfile_offset().
 */
struct op {
	uint8_t type;		/* enum op_type */
	uint8_t status;		/* enum nt_status expected; a SCSI row: its SCSI status */
	uint8_t flags;		/* OPF_* */
	uint16_t handle;	/* slot 0..max_handles-1, or HANDLE_NONE */
	uint16_t expr;		/* offset expression: program.exprs[expr - 1]; 0 = none */
	int32_t fnum;		/* the trace's own handle number, for messages: kept
				 * only where it names no open handle (handle
				 * HANDLE_NONE) and in the system-call dialect; -1
				 * where a slot was bound, so that the same
				 * operation on other trace handles is one entry */
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

/*
 * The system-call dialect (doc/SYSCALLS.md, src/load/syscalls.c).  Its
 * calls are ops too (OPF_SYSCALL), with what struct op has no room for in
 * a parallel array, program.calls.  How a call's arguments are laid out:
 *   op.path, leaf, dir    the PATH it names (of symlink: the link's own)
 *   op.path2              the second path (rename's NEW, link's NEW), or
 *                         symlink's TARGET as written, or an xattr NAME
 *   op.handle, op.fnum    its FD's slot and the recorded number (sendfile:
 *                         FD_OUT; copy_file_range: FD_IN)
 *   call.handle2          the second descriptor's slot: copy_file_range's
 *                         FD_OUT, sendfile's FD_IN; the new descriptor of
 *                         dup, dup2, dup3 and fcntl F_DUPFD(_CLOEXEC)
 *   op.a[], call.x[]      the numbers in their order: a[0], a[1], a[2],
 *                         x[0], x[1]; creat is compiled as open, its
 *                         a[0] O_CREAT|O_WRONLY|O_TRUNC and a[1] its MODE.
 *                         A call moving bytes (op_table's bytes) differs:
 *                         a[0] its OFFSET (-1 for none, as read's), a[1]
 *                         the bytes it counts (the recorded result; LEN
 *                         when that is "*"), a[2] its LEN; copy_file_range
 *                         has OFF_OUT in x[0] and FLAGS in x[1].
 *   fork                  a[0], a[1]: slot_lists[a[0] ..] holds a[1] pairs
 *                         (parent's slot, child's slot) to duplicate
 *   exec                  a[0], a[1]: slot_lists[a[0] ..] holds a[1]
 *                         slots; a[2] what is done with them (enum
 *                         exec_kind): a recording's exec row closes its
 *                         close-on-exec ones; the compiler adds rows of
 *                         its own, untimed as exec is, with the line of
 *                         the row they come from: the end of a process
 *                         that held locks (every slot of its table still
 *                         open closes; its stream's last line), the first
 *                         step of a flock conversion (its slot's flock
 *                         lock is let go of; the conversion's line)
 *   thread                nothing to do: the new stream's first call waits
 *                         for it (a dependency)
 * A stream's calls run in their order; across streams, a call first waits
 * for each (stream, seq) in deps[dep .. dep + ndeps): until that stream
 * has finished its first seq calls of the pass.  Most waits name earlier
 * lines; a blocking lock call's may name a later one (the release of the
 * lock it waits for), and the compiler has checked that no circle of
 * waits is left.
 */
#define LOADFILE_MAX_STREAMS 4096		/* threads and processes recorded */
#define LOADFILE_MAX_FD (1 << 20)		/* a recorded descriptor number */
#define LOADFILE_MAX_INIT 1000000		/* init lines */
#define LOADFILE_MAX_INIT_SIZE (INT64_C(1) << 40)	/* an init file's size */

struct call {
	int64_t result;		/* what it returned: >= 0 the value, < 0 minus
				 * the errno; any outcome with OPF_ANY_STATUS */
	int64_t x[2];		/* numbers beyond op.a[] (see above) */
	uint32_t dep;		/* its waits: program.deps[dep .. dep + ndeps) */
	uint32_t ndeps;
	uint32_t seq;		/* its place in its stream, from 1 */
	uint16_t stream;	/* index in program.streams */
	uint16_t handle2;	/* the second descriptor's slot, or HANDLE_NONE */
	float gap;		/* seconds from the end of the stream's previous
				 * call (or of the row that started it) to its
				 * start: --replay-timing=think keeps it */
	float duration;		/* how long it took when recorded */
};

enum exec_kind {
	EXEC_ROW,		/* the recording's exec row */
	EXEC_EXIT,		/* a process's end: its descriptors close */
	EXEC_UNLOCK,		/* a flock conversion's first step: flock(LOCK_UN) */
};

/* Wait until stream `stream` has finished `seq` calls of the pass. */
struct call_dep {
	uint32_t seq;
	uint16_t stream;
};

/* A recorded thread or process: its calls in their order. */
struct stream {
	uint32_t id;		/* the STREAM number the recording gave it */
	uint32_t nops;
	const uint32_t *ops;	/* indices into program.ops: positions */
};

enum init_kind { INIT_DIR, INIT_FILE, INIT_SYMLINK, INIT_DATA };

/* One line of the initial state, made in file order before each pass. */
struct init_entry {
	uint8_t kind;		/* enum init_kind */
	uint32_t mode;		/* dir, file */
	uint32_t line;
	const char *path;	/* client-relative; never "" */
	const char *target;	/* symlink: as written */
	int64_t size;		/* file: its size; data: the offset */
	const unsigned char *data;	/* data: the bytes */
	size_t len;
};

/* Line numbers of positions: from position `pos` on (up to the next
 * run's), position p is at line `line + (p - pos)`. */
struct line_run {
	uint32_t pos;
	uint32_t line;
};

struct program {
	const char *source;	/* file name as given, or "(built-in)" */
	char sha256[65];	/* SHA-256 of the (decompressed) text, in hex */
	/*
	 * The operations: position i of the loadfile (from 0, after LOOPs
	 * are unrolled) runs the entry of ops at byte offset op_offset[i]
	 * (loadfile_op(); an offset, not an index, spares the loop a
	 * multiplication).  Each distinct operation is one entry of ops, in
	 * the order of first appearance; an entry is final once made
	 * (nothing of a later line changes it).  Invariant: in the
	 * system-call dialect (calls != NULL) no entry is shared, position
	 * i runs ops[i], so that calls[], streams' indices and
	 * loadfile_call() keep meaning positions.
	 */
	struct op *ops;		/* [ndistinct] */
	size_t ndistinct;
	const uint32_t *op_offset;	/* [nops] */
	size_t nops;		/* positions */
	const struct line_run *lines;	/* [nlines], by position; what
					 * loadfile_line() reads */
	size_t nlines;
	unsigned max_handles;	/* most handles open at once during a pass */
	bool timed;		/* some line has a timestamp */
	uint64_t count[OP_COUNT];	/* operations of each type run in one pass */
	uint64_t bytes_read;	/* ReadX and READ3 bytes in one pass */
	uint64_t bytes_written;	/* WriteX and WRITE3 bytes in one pass */
	size_t max_transfer;	/* the largest count of bytes one op moves */
	const struct offset_expr *exprs;	/* offset expressions, op.expr - 1 */
	size_t nexprs;
	const char *write_pattern;	/* WRITEPATTERN's text, or NULL */
	size_t write_pattern_len;
	size_t npaths;		/* distinct paths named */
	const char **dirs;	/* distinct parent directories, client-relative; */
	size_t ndirs;		/* dirs[0] is always "", the client dir itself */
	/* the system-call dialect (NULL and 0 for the others) */
	const struct call *calls;	/* [nops], parallel to ops (one entry a position) */
	const struct call_dep *deps;
	size_t ndeps;
	const struct stream *streams;
	unsigned nstreams;
	const uint16_t *slot_lists;	/* fork's and exec's slots (see above) */
	const struct init_entry *init;	/* the initial state, in file order */
	size_t ninit;
	uint64_t init_files, init_dirs, init_symlinks;
	uint64_t init_bytes;		/* the sizes of its files */
	double duration;		/* the recording's: the last call's end */
	char *lost;			/* its `# lost:` line's text (what the tracer
					 * could not see), or NULL */
	size_t max_buffer;		/* the largest LEN or SIZE a call reads into
					 * or writes from (at most OP_MAX_SIZE) */
};

/* The operation at position pos (0 .. nops-1). */
static inline const struct op *loadfile_op(const struct program *prog, size_t pos)
{
	return (const struct op *)((const char *)prog->ops + prog->op_offset[pos]);
}

/* The loadfile line of position pos, from 1 (a binary search: for
 * messages, not the replay's loop). */
uint32_t loadfile_line(const struct program *prog, size_t pos);

/* Small field i (ARG_BYTE, from 0) of a SCSI row: byte i of a[2]. */
static inline unsigned loadfile_byte_arg(const struct op *op, unsigned i)
{
	return (unsigned)((uint64_t)op->a[2] >> (8 * i) & 0xff);
}

/* The call of an op of the system-call dialect (whose entries are its
 * positions: see struct program). */
static inline const struct call *loadfile_call(const struct program *prog,
					       const struct op *op)
{
	return &prog->calls[op - prog->ops];
}

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
 * Whether text compiles: loadfile_compile()'s verdict, *err and errno,
 * the program freed at once and its text's SHA-256 never taken (the
 * recorder's check of what it writes: the hash was a sixth of it).
 */
bool loadfile_check(TALLOC_CTX *mem_ctx, const char *name, const char *text, size_t len,
		    char **err);

/*
 * Read and compile the file at `path`, a regular file or a pipe (see
 * LOADFILE_PIPE_WAIT_S); gzip input (by its magic bytes) is decompressed
 * transparently.  Same result conventions as loadfile_compile().
 */
struct program *loadfile_read(TALLOC_CTX *mem_ctx, const char *path, char **err);

/*
 * Where the loadfile the user named is: `name` itself when it holds a
 * '/' or names a file here; else the first of NAME, NAME.load and
 * NAME.txt found in loadfile_dir(); else `name` (whose error then names
 * what was typed).  The result is name or a string on mem_ctx.
 */
const char *loadfile_lookup(TALLOC_CTX *mem_ctx, const char *name);

/* The directory of the loadfiles that come with the binary, on mem_ctx:
 * $DBENCH_LOADFILE_DIR, else the build tree's loadfiles/ beside the
 * binary, else (installed as PREFIX/bin/dbench) PREFIX/share/dbench
 * (selfdir.h).  NULL when out of memory. */
char *loadfile_dir(TALLOC_CTX *mem_ctx);

/* The loadfile built into the binary (loadfiles/default.txt). */
struct program *loadfile_default(TALLOC_CTX *mem_ctx, char **err);

/* The built-in loadfile, gzip-compressed, and its end. */
extern const unsigned char default_loadfile_gz[];
extern const unsigned char default_loadfile_gz_end[];

/*
 * The summary `dbench --check-loadfile` prints, allocated on mem_ctx:
 * operations, one "NAME COUNT" line per type, bytes per pass, handles,
 * paths, directories and distinct operations (table entries).
 */
char *loadfile_summary(TALLOC_CTX *mem_ctx, const struct program *prog);

/* The offset operation `op` of prog works at: a[0], or its expression
 * evaluated for the client of `st`; either way it becomes st->prev. */
uint64_t loadfile_offset(const struct program *prog, const struct op *op,
			 struct offset_state *st);

/* The total of prog->count[]: operations run in one pass. */
uint64_t loadfile_ops_per_pass(const struct program *prog);

/*
 * What one client's copy of the initial state (program.init) takes on a
 * file system of `block`-byte blocks: *bytes, each file's size and each
 * directory rounded up to whole blocks (a symbolic link's target is taken
 * as held in its inode), and *inodes, one an entry.  The client's own
 * directory is counted too when there is a state at all; 0 and 0 when
 * there is none.
 */
void loadfile_init_need(const struct program *prog, uint64_t block, uint64_t *bytes,
			uint64_t *inodes);

/* The most bytes one operation of prog moves (ReadX, WriteX, READ3,
 * WRITE3): what a client's transfer buffer must hold; 0 when none moves
 * any.  Kept as the program is compiled (max_transfer), so that each of
 * a thousand clients does not read the whole program to learn it. */
size_t loadfile_max_transfer(const struct program *prog);

/* Whether client-relative `path` (op.path's form) is `top` itself or lies
 * beneath it: "foo" holds "foo" and "foo/x", not "foo.dbench" or
 * "foobar/x".  A trailing '/' on top is ignored; "" (the client
 * directory) holds every path. */
bool loadfile_path_within(const char *path, const char *top);

/*
 * Why a call of the system-call dialect (an OP_SYS_* type) may not name
 * the root, the client's directory, as its first path (`first`) or its
 * second (`second`, rename's NEW, link's NEW), given whether it is
 * recorded to fail (an errno or *): a message to follow the call's
 * name, or NULL when it may.  A replay never removes or replaces the
 * client's directory: rmdir, unlink, rename, link and symlink may not
 * name it; mkdir may, recorded to fail (EEXIST).  Every other call may
 * (stat, chmod, chown, utimensat, an open to list it or fsync it, the
 * xattr calls).  The compiler refuses such a row; the recorder leaves
 * the call out.
 */
const char *loadfile_root_refusal(int type, bool first, bool second, bool fails);

#endif
