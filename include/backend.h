/*
 * backend.h - the interface a storage backend implements: its targets,
 * its clients and the operations they perform.
 *
 * A backend carries out compiled loadfile operations against some storage.
 * `fileio` does it with local system calls, `null` not at all; network
 * backends (SMB through libsmbclient, NFS through libnfs, tbench's socket
 * protocol) plug in the same way.  The client module owns timing, pacing
 * and the comparison of outcomes with the loadfile's expected status; a
 * backend only performs one operation and says how it went.  A backend
 * knows nothing of the driver, the stats region or the reports.
 *
 * The contract, in the order the driver uses it (doc/DESIGN.md, "Adding a
 * backend"):
 *
 *   options          optional table of the backend's own options over a
 *                    struct of its own (fio's model: name, type, offset,
 *                    default, range, help); the command line parses every
 *                    backend's into a struct per backend and per parse
 *                    (backend_optset_new()), and the plan carries the
 *                    chosen one's (backend_options.own) to every hook.
 *   targets()        optional, in main: the target specs, when the backend
 *                    takes them from its own options (--nfs URL, a server
 *                    name) rather than from -D DIR ("." by default).
 *   check_program()  optional: what of a loadfile the backend cannot
 *                    express (--check-loadfile --backend=NAME says).
 *   target_open()    in the parent, once per target spec, before any
 *                    fork: check it can be used, make its clients
 *                    directory.  A failure stops the run with exit 2.
 *                    (A series of runs opens and closes each target
 *                    once more before its first run, to check it.)
 *   target_describe() optional: facts for the JSON environment record.
 *   prepare()        optional, in the parent: what all clients share.
 *   client_new()     in each client process, after the fork, for its
 *                    target: a network backend opens its own session
 *                    here; the parent's connection is never used by a
 *                    child.  (The parent also calls it, after the run, for
 *                    a client that died, to run cleanup() for it: so it
 *                    makes nothing but the client's directory.)
 *   op[]             the operations: 0, a positive errno, or
 *                    BACKEND_NOT_SUPPORTED.
 *   lister_*()       optional, for a bare --probe on a target that is not
 *                    local: the probe process's own session, its
 *                    directory made, listed and removed (local targets
 *                    give local_clients_fd() instead).
 *   pass_end(), cleanup()  per client, at the end of a pass and the run;
 *                    pass_begin() optional, before each pass, the first
 *                    (in the client's setup, before the start) included.
 *   target_close()   in the parent after the clients are gone (and in an
 *                    orphaned client process, see below): remove the
 *                    clients directory if the clients left it empty.
 *   talloc_free(target)  frees what the target holds (destructor).
 *
 * Every process the driver forks inherits the targets and frees them on
 * its way out: a target's destructor must only release local resources
 * (memory, descriptors) in a process other than the one that opened it
 * (compare getpid()), never talk over the parent's connection.
 *
 * Confinement (doc/DESIGN.md, "Safety") is the backend's duty: everything
 * it touches lies beneath TARGET/clients/clientN, except that an
 * operation whose path is "\clients" itself (OPF_CLIENTS_DIR) names
 * TARGET/clients.  Local paths are resolved relative to directory
 * descriptors, never following a symbolic link.
 */
#ifndef DBENCH_BACKEND_H
#define DBENCH_BACKEND_H

#include <stdbool.h>

#include <jansson.h>
#include <popt.h>
#include <talloc.h>

#include "dockey.h"
#include "loadfile.h"
#include "verify.h"

/* Options that change what a backend does (doc/DESIGN.md, "Options").  A
 * backend's own options (--smb-user ...) live in its own popt table. */
struct backend_options {
	bool sync_open;		/* -s: open files O_SYNC */
	bool sync_dir;		/* -S: fdatasync the parent dir after unlink, rmdir, rename */
	bool fsync_writes;	/* -F: fsync after every write */
	bool xattr;		/* -x: dbench 4.0's DOS attribute xattr traffic */
	bool no_resolve;	/* --no-resolve: no case-insensitive name lookup */
	bool ranked;		/* an MPI run: client dirs are rank<R>-client<N> */
	unsigned rank;		/* ... and this is R */
	bool verify;		/* --verify: WriteX writes a pattern that ReadX checks */
	unsigned nclients;	/* clients in the run (this rank's), for +num_children */
	bool fake_io;		/* --fake-io: ReadX/WriteX move no data, as in 4.0 */
	bool one_byte_write_fix;	/* --one-byte-write-fix: 4.0's, see fileio_writex */
	const char *tcp_options;	/* -T: socket options of a backend that opens
					 * sockets (sockio), NULL for its default */
	bool force;		/* --force: write a device or file that is mounted
				 * or in use (block) */
	const void *own;	/* the backend's own options: the struct its
				 * `options` table describes, filled by the
				 * command line (NULL for a backend without) */
};

/*
 * A backend's own option: one row of the table it declares over a struct
 * of its own (struct backend.options, ending with a row of NULL name).
 * The command line makes a popt row of each, pointed at the field
 * `offset` bytes into that parse's struct, and --help lists them under
 * the backend's name.  What popt's type cannot say (an INT's range) is
 * checked by backend_check_options() before the targets are made.
 */
enum backend_opt_type {
	BACKEND_OPT_STRING,	/* a char * field: NULL unless given */
	BACKEND_OPT_INT,	/* an int field: `def` unless given */
};

struct backend_opt {
	const char *name;	/* the long option without "--" ("smb-timeout") */
	enum backend_opt_type type;
	size_t offset;		/* of its field in the backend's struct (offsetof) */
	int def;		/* BACKEND_OPT_INT: its value when not given */
	int min, max;		/* BACKEND_OPT_INT: what it may be */
	const char *unit;	/* ... said after the range in its error
				 * ("seconds"), or NULL */
	const char *help;	/* what --help says of it */
	const char *arg;	/* --help's name of its value ("SECS") */
};

/* The room left on a target's file system (backend.target_space). */
struct backend_space {
	uint64_t bytes;		/* free to this user (root: with the reserve) */
	uint64_t inodes;	/* ... likewise, when inodes_known */
	bool inodes_known;	/* false where the file system counts none (btrfs) */
	uint64_t block;		/* its block size */
	uint64_t fs;		/* which file system: targets on one add up */
};

struct backend_target;	/* one target (a directory, a share, an export),
			 * opened in the parent; each backend defines its own */
struct backend_client;	/* one client's state: handles, directory cache */
struct backend_lister;	/* the --probe process's session on a remote target */

/*
 * What an operation returns when the backend cannot express it at all (an
 * SMB-only call on NFS, say): not an errno, so that a server's own
 * ENOTSUP stays an outcome like any other.  The client counts such an
 * operation as "not supported" (in the text and JSON tables), records no
 * latency for it, never fails the run for it, and goes on to the next.
 * An op[] entry left NULL means the same for every operation of its type.
 */
#define BACKEND_NOT_SUPPORTED (-1)

/*
 * A call of the system-call dialect (OPF_SYSCALL) returns 0 only when it
 * returned what the recording says (its byte count, offset, value), or a
 * positive errno when it failed; and two more outcomes, both outcome
 * differences (the client counts them as errors): it succeeded with
 * another value (BACKEND_OTHER_RESULT), or it was not made at all, for a
 * descriptor it names was never opened by the replay (BACKEND_SKIPPED),
 * so that no call is ever sent to a wrong descriptor.
 */
#define BACKEND_OTHER_RESULT (-2)
#define BACKEND_SKIPPED (-3)

/*
 * What an operation returns when it met a file that its client did not
 * make and left it alone (localdir.h says which files): a positive value
 * beyond every errno, with failure_detail() saying why ("refused: it has
 * 2 links ...").  It fails the operation whatever status the loadfile
 * expected; under --continue-on-error it is counted as an error and the
 * run goes on.
 */
#define BACKEND_REFUSED 4100

/*
 * What an operation returns when it ended with a status of the protocol's
 * own (a SCSI status with its sense data) other than the one its row
 * expects, failure_detail() naming both: an outcome difference, counted
 * as an error, which --continue-on-error goes on past (as it does past a
 * wrong NT status), unlike wrong data or a lost connection.
 */
#define BACKEND_OTHER_STATUS 4101

/* What one talloc allocation costs beyond its size: its header and the
 * rounding, rounded up. */
#define BACKEND_ALLOC_OVERHEAD 128

struct backend {
	const char *name;

	/* What it loads and how, in a few words, for --help's list of
	 * backends ("files beneath -D DIR, by system calls"). */
	const char *summary;

	/* NULL for a backend whose clients write files of the local file
	 * systems beneath its targets, so that a block device's writes can
	 * be held against theirs; else what it does instead, as it follows
	 * "the NAME backend" ("writes nothing", "writes to a server"). */
	const char *no_local_writes;

	/* Optional: the backend's own command-line options (above), a
	 * table over a struct of options_size bytes that the backend alone
	 * reads (backend_options.own); --help lists them. */
	const struct backend_opt *options;
	size_t options_size;

	/* What the command line asks of a backend, said here rather than
	 * by its name (doc/DESIGN.md, "Adding a backend"): */
	bool is_default;	/* dbench's backend without --backend */
	bool is_tbench;		/* tbench's backend without --backend, whose
				 * sockets -T (--tcp-options) sets */
	bool performs_nothing;	/* reads and writes nothing: --verify has
				 * nothing to check */

	/*
	 * NULL for a backend whose hooks the binary holds; else the stem of
	 * the module that holds them ("smb": smb.so, which defines
	 * smb_module), loaded by backend_load() when a run selects the
	 * backend.  Until then only the fields above are set.
	 */
	const char *module;

	/*
	 * Optional: the target specs, a NULL-terminated list on mem_ctx, for
	 * a backend that takes them from its own options.  `dirs` is what -D
	 * gave (NULL without -D), which the backend may take as its specs or
	 * refuse.  NULL and *err (one line) when the specs are missing or
	 * malformed: the run stops with exit 2.  Without this hook the
	 * targets are the -D directories, "." by default.  `own` is the
	 * backend's own options (backend_options.own), which this hook
	 * alone may complete with what they give once, on mem_ctx, before
	 * any run (smb's credentials, read from a file and the environment).
	 */
	const char **(*targets)(TALLOC_CTX *mem_ctx, const char **dirs, void *own,
				char **err);

	/*
	 * Optional: how many operations of `prog` the backend cannot express
	 * beyond those whose op[] entry is NULL (see backend_check_program()),
	 * with a line per kind appended to *report (a talloc string).  0 when
	 * it can express everything else.
	 */
	unsigned (*check_program)(const struct program *prog,
				  const struct backend_options *opts, char **report);

	/*
	 * Open target `spec` in the parent before any client starts: check
	 * that it can be used (the directory exists, the server answers, the
	 * credentials are accepted) and make its clients directory.  The
	 * target belongs to mem_ctx and releases what it holds when freed.
	 * NULL and *err (one line on mem_ctx, naming the target) when it
	 * cannot be used.
	 */
	struct backend_target *(*target_open)(TALLOC_CTX *mem_ctx, const char *spec,
					      const struct backend_options *opts, char **err);

	/*
	 * Remove the target's clients directory if the clients left it
	 * empty (it holding something is no error), with the empty client
	 * directories a cleanup() left.  0 or a positive errno.
	 * Called once in the parent after every client is gone, unless
	 * --skip-cleanup; and in a client process whose parent died, or
	 * the last one of the run out, where a backend whose connection is
	 * the parent's must leave it alone (and may return 0 having done
	 * nothing).
	 */
	int (*target_close)(struct backend_target *t);

	/* Optional: facts about the target for the JSON environment record
	 * (server, share, protocol version, export ...): members of its
	 * element of "targets", by their rows (DK_TARGET_SERVER ...), put
	 * in facts through backend_facts(); how many. */
	size_t (*target_describe)(const struct backend_target *t, struct dockey_value *facts);

	/*
	 * Optional, for a backend whose clients make a recording's initial
	 * state on the target: the room left on its file system, in the
	 * parent before any fork, so that a state that cannot fit is
	 * refused before anything is made.  0 or a positive errno (then
	 * nothing is checked).
	 */
	int (*target_space)(struct backend_target *t, struct backend_space *sp);

	/*
	 * Optional, for local targets only: the open descriptor of the
	 * target's clients directory, beneath which a bare --probe makes and
	 * lists its directory.  A backend without it refuses a bare --probe
	 * (--probe=DIR lists a local DIR whatever the backend).
	 */
	int (*local_clients_fd)(const struct backend_target *t);

	/*
	 * Optional, for a bare --probe on a target that is not local: the
	 * probe's directory, over a session of the calling process's own.
	 * lister_open() connects to `t` for directory `name` beneath its
	 * clients directory (in the probe process; in the parent, to remove
	 * what a dead probe left), its state on mem_ctx, or NULL and *err;
	 * lister_make() makes the directory holding `nfiles` empty files
	 * named by name_of() (taking over one that an earlier run left);
	 * lister_list() lists it, asking each entry's attributes as `ls -l`
	 * does, and sets *entries to the names read ("." and ".." aside);
	 * lister_remove() removes it and what it holds.  0 or a positive
	 * errno.
	 */
	struct backend_lister *(*lister_open)(TALLOC_CTX *mem_ctx, struct backend_target *t,
					      const char *name, char **err);
	int (*lister_make)(struct backend_lister *l, unsigned nfiles,
			   void (*name_of)(char name[16], unsigned i));
	int (*lister_list)(struct backend_lister *l, uint64_t *entries);
	int (*lister_remove)(struct backend_lister *l);

	/*
	 * Optional: called once in the parent before any client process is
	 * forked, to set up what every client may share (fileio maps one
	 * zero-filled I/O buffer for all of them).  What it maps belongs to
	 * mem_ctx.  0 or a positive errno.
	 */
	int (*prepare)(TALLOC_CTX *mem_ctx, const struct program *prog);

	/*
	 * Prepare client `id` (1-based) on target `t`, in its client process
	 * (a network backend opens its own session to the target here).  The
	 * client's directory beneath the target's clients directory is named
	 * by backend_client_name() and exists when this returns.  The state
	 * is allocated on mem_ctx and closes what it holds when freed.  On
	 * failure NULL and *err (on mem_ctx).  `verify` is the client's
	 * --verify state (verify.h), the caller's, NULL without --verify or
	 * when the backend does not verify (below).
	 */
	struct backend_client *(*client_new)(TALLOC_CTX *mem_ctx, struct backend_target *t,
					     unsigned id, const struct program *prog,
					     const struct backend_options *opts,
					     struct verify *verify, char **err);

	/*
	 * Optional: about how many bytes client_new() and the operations
	 * after it hold on mem_ctx at most at once, counting
	 * BACKEND_ALLOC_OVERHEAD for each allocation, so that a client
	 * process can give its clients one pool of that size (client.c).
	 * What grows with the run (--verify's records) may fall outside it.
	 */
	size_t (*client_mem)(const struct program *prog, const struct backend_options *opts);

	/*
	 * Perform one operation, indexed by op->type.  Returns 0 when it
	 * succeeded, a positive errno value when it failed, and
	 * BACKEND_NOT_SUPPORTED when the backend cannot express it.  A ReadX
	 * that read fewer bytes than the loadfile's expected return fails
	 * with ENODATA, a WriteX that wrote fewer with EIO (or the error
	 * that cut it short); a FIND_FIRST that found no match fails with
	 * ENOENT.
	 */
	int (*op[OP_COUNT])(struct backend_client *bc, const struct op *op);

	/*
	 * Optional: what the operation just performed, which failed, has to
	 * say beyond its errno (sockio: the connection's account), or NULL;
	 * asking clears it.  A failure with a detail is an error whatever
	 * status the loadfile expected, and stops the run even under
	 * --continue-on-error, unless it is BACKEND_REFUSED or
	 * BACKEND_OTHER_STATUS.
	 */
	const char *(*failure_detail)(struct backend_client *bc);

	/*
	 * For --verify: the backend writes the pattern and checks what it
	 * reads back with the state client_new() is given, which it tells
	 * what only it can know (verify.h: what an NTCreateX opened, whether
	 * a renamed name is a directory, the bytes of ReadX and WriteX).  The
	 * client module does the rest: the Close, Unlink, Rmdir and Deltree
	 * bookkeeping, the ends of a pass and of the run, the tally, and a
	 * ReadX that read wrong data, which fails with EILSEQ and
	 * verify_failure_detail() as its detail.
	 */
	bool verifies;

	/* Close every handle still open: called at the end of each pass. */
	void (*pass_end)(struct backend_client *bc);

	/*
	 * Optional: before each pass, the first included (right after
	 * client_new(), which makes none of it), outside the timed
	 * operations: a recording's initial state (program.init) made in an
	 * emptied client directory.  0 or a positive errno, which fails the
	 * client (whose cleanup() then removes what was made).
	 */
	int (*pass_begin)(struct backend_client *bc);

	/*
	 * Remove the client's directory and everything in it, never
	 * following a symbolic link (a local target's may leave the
	 * directory itself, empty, for target_close() to remove with the
	 * others).  0 or a positive errno, after which failure_detail() may
	 * name what is left ("cannot remove client1/pkg/f: ...").  NULL for
	 * a backend that stores nothing (sockio): there is nothing to
	 * remove, for the client or, after it died, for the parent.
	 */
	int (*cleanup)(struct backend_client *bc);
};

extern const struct backend fileio_backend;
extern const struct backend null_backend;
extern const struct backend smb_backend;
extern const struct backend sockio_backend;
extern const struct backend nfs_backend;
extern const struct backend block_backend;
extern const struct backend iscsi_backend;
extern const struct backend scsi_backend;

/* NTCreateX's create_disposition (its second number, op.a[1]) and the
 * create_options bit (of op.a[0]) that says the object is a directory,
 * as MS-SMB2 numbers them. */
enum nt_disposition {
	NT_SUPERSEDE, NT_OPEN, NT_CREATE, NT_OPEN_IF, NT_OVERWRITE, NT_OVERWRITE_IF,
};
#define NT_DIRECTORY_FILE 0x1

/* The most facts target_describe() gives of a target. */
#define BACKEND_MAX_FACTS 8

/* facts[0..n) = v[0..n), at most BACKEND_MAX_FACTS of them (the others'
 * values released); how many: a target_describe()'s return. */
static inline size_t backend_facts(struct dockey_value *facts, const struct dockey_value *v,
				   size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (i < BACKEND_MAX_FACTS)
			facts[i] = v[i];
		else
			json_decref(v[i].value);
	return n < BACKEND_MAX_FACTS ? n : BACKEND_MAX_FACTS;
}

/* open(2) flags for a create_disposition in its NT meaning: O_CREAT for
 * CREATE and OPEN_IF, O_CREAT | O_TRUNC for SUPERSEDE and the two
 * OVERWRITEs; -1 for an unknown one.  (dbench 4.0 opened plainly for
 * SUPERSEDE and OPEN_IF.) */
int backend_open_flags(int64_t disposition);

/* open(2) flags for the flags of dbench 5.0's SMB OPEN (SMB5_O_*, its
 * a[0]): O_RDWR for RDWR or for RDONLY and WRONLY together, else
 * O_WRONLY or O_RDONLY, then O_CREAT, O_EXCL, O_TRUNC, O_APPEND. */
int backend_smb5_open_flags(int64_t flags);

/* A dbench 5.0 SMB READ or WRITE, or an NFS row, with its offset
 * evaluated for the client of `st` (loadfile_offset()): a copy in *out
 * that a backend's ReadX or WriteX performs as it stands. */
const struct op *backend_op_at_offset(struct op *out, const struct program *prog,
				      const struct op *op, struct offset_state *st);

/* Defines the hook NAME of a row performed as the backend's HOOK at the
 * offset its expression gives the client (backend_op_at_offset()): dbench
 * 5.0's SMB READ and WRITE as fileio's and smb's ReadX and WriteX.  The
 * backend's struct backend_client holds the program (`prog`) and the
 * client's offset state (`ost`). */
#define BACKEND_HOOK_AT_OFFSET(name, hook)                                              \
	static int name(struct backend_client *bc, const struct op *op)                 \
	{                                                                               \
		struct op at;                                                           \
		return hook(bc, backend_op_at_offset(&at, bc->prog, op, &bc->ost));     \
	}

/* A backend's failure_detail(): `text` when *has says a failure left it,
 * else NULL; *has cleared, as asking clears it (the text stays for the
 * caller). */
const char *backend_detail_taken(bool *has, const char *text);

/* Where the offset expressions of client `id` (1-based) start: no
 * previous offset, a generator of the client's own (the same in every
 * run), its number from 0 and the clients' count. */
struct offset_state backend_offset_state(unsigned id, const struct backend_options *opts);

/* The name of client `id`'s directory beneath DIR/clients: "client<id>",
 * or "rank<R>-client<id>" in an MPI run, so that ranks sharing one network
 * filesystem never meet. */
void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id);

/* backend_space.fs of a remote file system, from its server and share
 * (or export): two targets on the same one get the same id. */
uint64_t backend_fs_id(const char *server, const char *share);

/* The backend called `name` ("fileio", "null"), or NULL. */
const struct backend *backend_by_name(const char *name);

/*
 * Backend `b` with every hook: `b` itself, or for a backend built as a
 * module (b->module) the one its module defines, loaded now (once per
 * process).  NULL and *err (one line on mem_ctx naming the module file
 * and why: dlerror()) when the module cannot be loaded.
 */
const struct backend *backend_load(TALLOC_CTX *mem_ctx, const struct backend *b, char **err);

/* The names of every backend for messages: "'fileio' or 'null'". */
const char *backend_names(TALLOC_CTX *mem_ctx);

/* The i-th backend (from 0) in the order --help lists them, or NULL past
 * the last. */
const struct backend *backend_nth(size_t i);

/*
 * The backends' own options of one command line: a struct for each
 * backend that has options, at their defaults, which the popt table of
 * backend_optset_popt() fills as the command line is parsed, noting the
 * options given.  Each parse has its own (dbench ab's two sides, a
 * tune's candidates): nothing of one is seen by another.  Owned by
 * mem_ctx, with the strings popt gave it (freed with it).  NULL when
 * out of memory.
 */
struct backend_optset;
struct backend_optset *backend_optset_new(TALLOC_CTX *mem_ctx);

/* The popt table, every backend's options under a heading of its name,
 * to include in the command line's (owned by the set). */
struct poptOption *backend_optset_popt(struct backend_optset *set);

/* Backend `b`'s struct of options in the set (what backend_options.own
 * points at), NULL for a backend without options. */
void *backend_optset_own(const struct backend_optset *set, const struct backend *b);

/* The long name of an option of a backend other than `b` that the
 * command line gave ("smb-share" or "smb-timeout" without --backend=smb),
 * its backend's name in *owner; NULL when there is none. */
const char *backend_optset_foreign(const struct backend_optset *set, const struct backend *b,
				   const char **owner);

/* What popt's types cannot check of `b`'s options in `own`: the first
 * number out of its row's range, as "--smb-timeout must be 1 to 3600
 * seconds" on mem_ctx; NULL when all are in range. */
char *backend_check_options(TALLOC_CTX *mem_ctx, const struct backend *b, const void *own);

/* The backend a command line without --backend runs: dbench's
 * (is_default) or, entered as tbench, tbench's (is_tbench). */
const struct backend *backend_default(bool tbench);

/*
 * What a targets() hook of a backend with one target named by an option
 * of its own gives: a list of `value` alone, on mem_ctx.  NULL and *err
 * when -D gave `dirs` ("--backend=block takes its target from --block,
 * not -D") or `value` is NULL or empty ("--backend=block needs
 * --block=HINT").
 */
const char **backend_one_target(TALLOC_CTX *mem_ctx, const char *backend, const char **dirs,
				const char *option, const char *value, const char *hint,
				char **err);

/*
 * How many operations of `prog` backend `b` cannot express: those whose
 * op[] entry is NULL and those its check_program() names.  *report (on
 * mem_ctx) gets a line per kind, "" when there are none.
 */
unsigned backend_check_program(TALLOC_CTX *mem_ctx, const struct backend *b,
			       const struct program *prog,
			       const struct backend_options *opts, char **report);

/*
 * Whether backend `b` performs none of the timed operations of `prog`
 * while it has some (the iSCSI backend given the built-in SMB loadfile):
 * a run would move nothing.  *first is then the first such operation's
 * name.
 */
bool backend_performs_none(const struct backend *b, const struct program *prog,
			   const char **first);

#endif
