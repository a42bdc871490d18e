/*
 * syscalls.c - the compiler of the system-call dialect (doc/SYSCALLS.md):
 * a recording of a program's file traffic, one call a line, into the same
 * flat program the other dialects become (loadfile.h explains the layout).
 *
 * One pass over the lines: the initial state, then each call decoded by
 * its signature (sigs[] below), its descriptors renumbered per descriptor
 * table into slots (thread shares a table, fork copies it, exec closes the
 * close-on-exec ones), and its waits on the other streams worked out as
 * it goes (resource-oriented ordering): a call waits for the last call of
 * each other stream that wrote a resource it uses, and a write also for
 * the other streams' reads of it since.  Waits always name earlier lines,
 * and one already implied by an earlier wait of the same stream is left
 * out, so a single-stream file has none.  The first problem stops the
 * compile with "FILE:LINE: message".
 *
 * It knows nothing of backends or of how a client replays the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "grow.h"
#include "load/locks.h"
#include "load/optab.h"
#include "load/strset.h"
#include "load/dialect.h"
#include "load/waitcheck.h"

#define SC_MAX_TOKENS 12
#define SC_NONE UINT16_MAX		/* no stream */
#define SC_MAX_DATA 3072		/* bytes of one init data line */

/*
 * A call's signature (include/ops.def's SIG and RESULT): one letter per
 * argument, in the row's order.
 *   P the PATH (op.path)   Q a second path (op.path2)   T a symlink's
 *   TARGET, as written (op.path2)   X an xattr NAME (op.path2)
 *   D its FD (op.handle)   E a second FD (call.handle2)   G the new
 *   descriptor number of dup2/dup3 (call.handle2)
 *   N a number >= 0   S a number that may be negative   O an offset or
 *   "-" (-1)   F flags: names joined by | or a number   L the LEN of a
 *   call that moves bytes (op.a[2]; its counted bytes go in op.a[1])
 *   B the SIZE of the buffer it reads into or sends, a number >= 0 (a[0])
 * and how its RESULT reads: 'F' a new descriptor, 'B' bytes moved, 'V' a
 * value compared as it is, 'Z' 0, 'S' a new stream.
 */
struct sig {
	const char *args;
	char result;
};

/* fcntl with a lock command: FD CMD TYPE WHENCE START LEN. */
static const struct sig fcntl_lock_sig = { "DFFFSS", 'V' };

static bool is_lock_command(int64_t cmd)
{
	return cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW || cmd == F_OFD_GETLK ||
	       cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
}

/* Each call's signature, by operation type. */
static const struct sig sigs[OP_COUNT] = {
#define SYSCALL(id, name, alias, sig, result, bytes, flags) [OP_SYS_##id] = { sig, result },
#include "ops.def"
};

/* Whether call r's signature has argument `letter`. */
#define SIG_HAS(r, letter) (strchr((r)->sig->args, (letter)) != NULL)

/* The names a FLAGS argument may use, as Linux's headers spell them. */
static const struct {
	const char *name;
	int64_t value;
} flag_names[] = {
#define F(n) { #n, n }
	F(O_RDONLY), F(O_WRONLY), F(O_RDWR), F(O_CREAT), F(O_EXCL), F(O_NOCTTY), F(O_TRUNC),
	F(O_APPEND), F(O_NONBLOCK), F(O_NDELAY), F(O_DSYNC), F(O_SYNC), F(O_RSYNC),
	F(O_DIRECTORY), F(O_NOFOLLOW), F(O_CLOEXEC), F(O_DIRECT), F(O_LARGEFILE), F(O_NOATIME),
	F(O_PATH), F(O_TMPFILE), F(O_ASYNC), F(FASYNC),
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR), F(AT_SYMLINK_FOLLOW), F(AT_EMPTY_PATH),
	F(AT_NO_AUTOMOUNT), F(AT_EACCESS), F(AT_STATX_SYNC_AS_STAT), F(AT_STATX_FORCE_SYNC),
	F(AT_STATX_DONT_SYNC), F(RENAME_NOREPLACE), F(RENAME_EXCHANGE), F(RENAME_WHITEOUT),
	F(FALLOC_FL_KEEP_SIZE), F(FALLOC_FL_PUNCH_HOLE), F(FALLOC_FL_COLLAPSE_RANGE),
	F(FALLOC_FL_ZERO_RANGE), F(FALLOC_FL_INSERT_RANGE), F(FALLOC_FL_UNSHARE_RANGE),
	F(SEEK_SET), F(SEEK_CUR), F(SEEK_END), F(SEEK_DATA), F(SEEK_HOLE),
	F(F_OK), F(R_OK), F(W_OK), F(X_OK), F(XATTR_CREATE), F(XATTR_REPLACE),
	F(SYNC_FILE_RANGE_WAIT_BEFORE), F(SYNC_FILE_RANGE_WRITE), F(SYNC_FILE_RANGE_WAIT_AFTER),
	F(F_DUPFD), F(F_GETFD), F(F_SETFD), F(F_GETFL), F(F_SETFL), F(F_GETLK), F(F_SETLK),
	F(F_SETLKW), F(F_DUPFD_CLOEXEC), F(F_GETPIPE_SZ), F(F_SETPIPE_SZ), F(F_GET_SEALS),
	F(F_ADD_SEALS), F(F_GETOWN), F(F_SETOWN), F(F_GETSIG), F(F_SETSIG), F(F_SETLEASE),
	F(F_GETLEASE), F(F_NOTIFY), F(F_OFD_GETLK), F(F_OFD_SETLK), F(F_OFD_SETLKW),
	F(F_RDLCK), F(F_WRLCK), F(F_UNLCK), F(LOCK_SH), F(LOCK_EX), F(LOCK_UN), F(LOCK_NB),
	F(FD_CLOEXEC), F(STATX_TYPE), F(STATX_MODE), F(STATX_NLINK), F(STATX_UID), F(STATX_GID),
	F(STATX_ATIME), F(STATX_MTIME), F(STATX_CTIME), F(STATX_INO), F(STATX_SIZE),
	F(STATX_BLOCKS), F(STATX_BASIC_STATS), F(STATX_BTIME), F(STATX_ALL), F(STATX_MNT_ID),
#undef F
};

/* A resource (a path, a directory's listing, a descriptor) as the order
 * between streams sees it: its last writer, and each stream's last read
 * since. */
struct res {
	uint32_t wseq;
	uint16_t wstream;	/* SC_NONE: never written */
	uint16_t nreaders;
	uint16_t readers_cap;
	struct call_dep *readers;
};

/* A recorded descriptor in a table. */
struct fdent {
	int32_t slot;		/* -1: closed */
	bool cloexec;
	uint32_t line;		/* where it was opened */
	int32_t path;		/* paths index it was opened on, or -1 */
	uint32_t desc;		/* its open file description (shared by dup and fork) */
	int32_t file;		/* the file's first name (through a link known), or -1 */
	struct res res;
};

struct table {
	struct fdent *fd;	/* [n], indexed by the recorded number */
	uint32_t n;
};

/* A recorded thread or process as the compile goes. */
struct sstream {
	uint32_t id;
	uint32_t table;
	uint32_t *ops;
	uint32_t nops, cap;
	double last_end;	/* the end of its last call, or of the row that started it */
	struct call_dep *waited;	/* the most of each stream it has waited for */
	uint16_t nwaited, waited_cap;
	uint32_t start_dep_seq;	/* its first call waits for its parent's row */
	uint16_t parent;
	uint32_t last_line;	/* the line of its last call */
};

/* A lock event of the call being placed on a file's locks (struct sc's
 * lock_res): a write (a lock taken exclusive, one let go) or a read (a
 * shared one taken, one tried in vain, a query), made by the call, or
 * for a flock conversion's release, by the point just before it. */
struct lock_use {
	uint32_t file;
	bool write;
	struct call_dep at;
};

/* A blocking lock call that found its lock held, until it is granted:
 * locks_wait()'s cookie is its index. */
struct lock_waiter {
	uint32_t pos;
	struct call_dep me;
	uint32_t file;
	bool excl;
	double end;		/* when it returned, recorded */
};

/* A path a call reaches besides those it names: a directory above one
 * (read), or what a symbolic link it names points to. */
struct anc {
	long idx;		/* in paths */
	bool write;
};

struct sc {
	struct program *prog;
	struct lex lx;			/* the file, its line, its first problem */
	struct strset paths, dirs;
	struct strset parents;		/* the directories above a path in paths */
	struct res *path_res, *dir_res;
	size_t path_res_n, dir_res_n;
	struct sstream *streams;
	unsigned nstreams;
	uint16_t stream_of[2 * LOADFILE_MAX_STREAMS];	/* hash: index + 1, 0 empty */
	struct table *tables;
	unsigned ntables;
	uint16_t *free_slots;
	unsigned nfree, nslots, nopen;
	/* A slot is a resource too: a call taking one that another stream's
	 * call gave up waits for it, else the two could meet on it. */
	struct res slot_res[LOADFILE_MAX_HANDLES];
	uint16_t cur_stream;		/* the stream of the call being compiled */
	uint16_t *touched;		/* slots it took or gave up */
	size_t ntouched, touched_cap;
	struct op *ops;		/* one entry a position: none shared */
	struct call *calls;
	size_t cap;
	struct optab tab;	/* the positions' order (i for i) and lines */
	struct call_dep *deps;
	size_t ndeps, deps_cap;
	uint16_t *slot_lists;
	size_t nslot_lists, slot_lists_cap;
	struct init_entry *init;
	size_t init_cap;
	double last_start;
	bool in_calls;
	size_t max_buffer;
	char buf[LOADFILE_MAX_LINE];	/* a line's decoded strings */
	struct call_dep pending[LOADFILE_MAX_STREAMS];	/* this call's waits, unpruned */
	unsigned npending;
	struct anc *anc;	/* the call's paths' directories and links' targets */
	size_t nanc, anc_cap;
	uint32_t *link_to;	/* by paths index: a symbolic link's target's index + 1, or 0 */
	size_t link_n;
	uint32_t *link_text;	/* by paths index: its target text's index + 1, or 0 */
	size_t text_n;
	uint32_t *file_to;	/* by paths index: its file's first name's index + 1, or 0 */
	size_t file_n;
	uint32_t *first_of;	/* by paths index: nonzero once another name's file is its */
	size_t first_n;
	uint32_t nfresh;	/* the file identities made by name_gone() */
	struct res *desc_res;	/* by open file description: its offset */
	size_t desc_res_n;
	uint32_t ndesc;
	/* Locks (locks.h): the lock events on a file are uses of its
	 * lock_res, so that they keep their recorded order, and a blocking
	 * call that found its lock held takes its place among them, with
	 * late waits, once the model grants it. */
	struct locks *locks;
	struct res *lock_res;		/* by file identity */
	size_t lock_res_n;
	struct lock_use *lk;		/* this call's lock events */
	size_t nlk, lk_cap;
	struct lock_waiter *waiters;
	size_t nwaiters, waiters_cap;
	struct wait_edge *late;		/* waits found after their call was placed */
	size_t nlate, late_cap;
	struct op *exit_op;		/* the exit being placed (lock_exits()) */
};

#define fail(c, ...) lex_fail(&(c)->lx, __VA_ARGS__)

static const char *tokstr(struct sc *c, const struct token *t)
{
	return lex_tokstr(&c->lx, t);
}

/* Grow *arr (of `size`-byte elements, *cap of them) to hold `need`. */
static bool grow(struct sc *c, void **arr, size_t size, size_t *cap, size_t need)
{
	if (grow_array(c->prog, arr, size, cap, need, 16))
		return true;
	lex_oom(&c->lx);
	return false;
}

/* ---- numbers ---- */

/* A C integer (lex_int()), at least 0 unless neg_ok. */
static bool parse_int(struct sc *c, const struct token *t, bool neg_ok, int64_t *out)
{
	if (!lex_int(&c->lx, t, out))
		return false;
	if (!neg_ok && *out < 0) {
		fail(c, "negative number '%s' where none may be", tokstr(c, t));
		return false;
	}
	return true;
}

/* Seconds: decimal, at least 0. */
static bool parse_time(struct sc *c, const struct token *t, const char *what, double *out)
{
	if (lex_seconds(t, "eE-+", out))
		return true;
	fail(c, "malformed %s '%s' (decimal seconds, at least 0)", what, tokstr(c, t));
	return false;
}

/* Flags: names joined by |, each a name of flag_names[] or a number. */
static bool parse_flags(struct sc *c, const struct token *t, int64_t *out)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t v = 0;

	if (t->quoted || t->len == 0)
		goto bad;
	while (p <= end) {
		const char *bar = memchr(p, '|', end - p);
		const char *e = bar ? bar : end;
		struct token part = { p, e - p, false };
		size_t i, nnames = sizeof(flag_names) / sizeof(flag_names[0]);
		for (i = 0; i < nnames; i++) {
			if (lex_is(&part, flag_names[i].name))
				break;
		}
		int64_t one;
		if (i < nnames) {
			one = flag_names[i].value;
		} else if (part.len && lex_digit(*p) <= 9) {
			if (!parse_int(c, &part, false, &one))
				return false;
		} else {
			fail(c, "unknown flag '%s' in '%s'", tokstr(c, &part), tokstr(c, t));
			return false;
		}
		v |= one;
		if (!bar)
			break;
		p = bar + 1;
	}
	*out = v;
	return true;
bad:
	fail(c, "malformed flags '%s'", tokstr(c, t));
	return false;
}

/* An errno by name ("ENOENT"), or 0.  The other names Linux's headers
 * give some (EWOULDBLOCK, which flock(2) documents, for EAGAIN) are
 * taken too. */
static int errno_by_name(const struct token *t)
{
	static const struct { const char *name; int e; } aliases[] = {
		{ "EWOULDBLOCK", EWOULDBLOCK }, { "EDEADLOCK", EDEADLOCK },
		{ "ENOTSUP", ENOTSUP },
	};

	if (t->quoted || t->len < 2 || t->s[0] != 'E')
		return 0;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (lex_is(t, aliases[i].name))
			return aliases[i].e;
	}
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n && lex_is(t, n))
			return e;
	}
	return 0;
}

/* ---- paths ---- */

/* Note in c->parents each directory above the path s[0..len), new in
 * paths, so that a rename of one knows it has names beneath it.  False
 * when memory ran out. */
static bool parents_add(struct sc *c, const char *s, size_t len)
{
	for (const char *slash; (slash = memrchr(s, '/', len));) {
		size_t had = c->parents.count;
		len = slash - s;
		if (strset_add(c, &c->parents, s, len) < 0)
			return false;
		if (c->parents.count == had)	/* and those above it */
			break;
	}
	return true;
}

/* Intern a client-relative path; its index, or -1 after fail(). */
static long intern(struct sc *c, struct strset *set, const char *s, size_t len)
{
	size_t had = set->count;
	long i = strset_add(c->prog, set, s, len);
	if (i < 0 || (set == &c->paths && (size_t)i == had && !parents_add(c, s, len))) {
		lex_oom(&c->lx);
		return -1;
	}
	if (set == &c->dirs && i >= LOADFILE_MAX_DIRS) {
		fail(c, "more than %d distinct directories", LOADFILE_MAX_DIRS);
		return -1;
	}
	return i;
}

/*
 * A recorded path made client-relative: "/" separates, a leading one is
 * dropped, "." components go, ".." is refused.  Sets *path to the
 * interned string and *leaf_at to where its last component starts;
 * returns its index in paths, or -1 after fail().
 */
static long normal_path(struct sc *c, const struct token *t, const char **path,
			size_t *leaf_at)
{
	char rel[LOADFILE_MAX_LINE];
	size_t rlen = 0;

	*leaf_at = 0;
	if (!t->quoted) {
		fail(c, "a path is a quoted string, not '%s'", tokstr(c, t));
		return -1;
	}
	for (const char *p = t->s, *end = t->s + t->len; p < end;) {
		while (p < end && *p == '/')
			p++;
		const char *s = p;
		while (p < end && *p != '/')
			p++;
		size_t n = p - s;
		if (n == 0 || (n == 1 && s[0] == '.'))
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			fail(c, "path '%s' has a '..' component", tokstr(c, t));
			return -1;
		}
		if (n > 255) {
			fail(c, "path '%s' has a component longer than 255 bytes", tokstr(c, t));
			return -1;
		}
		if (rlen)
			rel[rlen++] = '/';
		*leaf_at = rlen;
		memcpy(rel + rlen, s, n);
		rlen += n;
	}
	long idx = intern(c, &c->paths, rel, rlen);
	if (idx >= 0)
		*path = c->paths.order[idx];
	return idx;
}

/* Where the last component of an interned path starts. */
static size_t leaf_at_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash + 1 - path) : 0;
}

/* The directory index of `path`'s parent (path[0 .. leaf_at - 1]), or of
 * path itself with whole. */
static long dir_index(struct sc *c, const char *path, size_t leaf_at, bool whole)
{
	size_t len = whole ? strlen(path) : leaf_at ? leaf_at - 1 : 0;
	return intern(c, &c->dirs, path, len);
}

/* ---- resources and waits ---- */

static struct res *res_at(struct sc *c, struct res **arr, size_t *n, size_t idx)
{
	if (idx >= *n) {
		size_t cap = *n;
		if (!grow(c, (void **)arr, sizeof(struct res), &cap, idx + 1))
			return NULL;
		for (size_t i = *n; i < cap; i++)
			(*arr)[i] = (struct res){ .wstream = SC_NONE };
		*n = cap;
	}
	return &(*arr)[idx];
}

/* Note that this call waits for `seq` calls of stream s. */
static void want(struct sc *c, uint16_t s, uint32_t seq)
{
	for (unsigned i = 0; i < c->npending; i++) {
		if (c->pending[i].stream == s) {
			if (seq > c->pending[i].seq)
				c->pending[i].seq = seq;
			return;
		}
	}
	c->pending[c->npending++] = (struct call_dep){ seq, s };
}

/* The waits a use of resource r by this call adds. */
static void use(struct sc *c, struct res *r, uint16_t s, bool write)
{
	if (!r)
		return;
	if (r->wstream != SC_NONE && r->wstream != s)
		want(c, r->wstream, r->wseq);
	if (write) {
		for (unsigned i = 0; i < r->nreaders; i++) {
			if (r->readers[i].stream != s)
				want(c, r->readers[i].stream, r->readers[i].seq);
		}
	}
}

/* After the call (seq of stream s) is placed: it is r's news. */
static void used(struct sc *c, struct res *r, uint16_t s, uint32_t seq, bool write)
{
	if (!r)
		return;
	if (write) {
		r->wstream = s;
		r->wseq = seq;
		r->nreaders = 0;
		return;
	}
	for (unsigned i = 0; i < r->nreaders; i++) {
		if (r->readers[i].stream == s) {
			r->readers[i].seq = seq;
			return;
		}
	}
	size_t cap = r->readers_cap;
	if (!grow(c, (void **)&r->readers, sizeof(struct call_dep), &cap, r->nreaders + 1u))
		return;
	r->readers_cap = cap > UINT16_MAX ? UINT16_MAX : cap;
	r->readers[r->nreaders++] = (struct call_dep){ seq, s };
}

/* The pending waits of a call of stream s, less those its stream has
 * already waited for, into the program's list. */
static void place_waits(struct sc *c, struct sstream *st, struct call *call)
{
	call->dep = c->ndeps;
	for (unsigned i = 0; i < c->npending; i++) {
		struct call_dep d = c->pending[i];
		unsigned j;
		for (j = 0; j < st->nwaited && st->waited[j].stream != d.stream; j++)
			;
		if (j < st->nwaited && st->waited[j].seq >= d.seq)
			continue;
		if (j == st->nwaited) {
			size_t cap = st->waited_cap;
			if (!grow(c, (void **)&st->waited, sizeof(struct call_dep), &cap, j + 1u))
				return;
			st->waited_cap = cap > UINT16_MAX ? UINT16_MAX : cap;
			st->nwaited++;
		}
		st->waited[j] = d;
		if (!grow(c, (void **)&c->deps, sizeof(struct call_dep), &c->deps_cap, c->ndeps + 1))
			return;
		c->deps[c->ndeps++] = d;
	}
	call->ndeps = c->ndeps - call->dep;
	c->npending = 0;
}

/* ---- streams, tables, slots ---- */

static unsigned stream_hash(uint32_t id)
{
	return (id * 2654435761u) % (2 * LOADFILE_MAX_STREAMS);
}

/* The stream of recorded id, or NULL (with *slot where it would go). */
static struct sstream *find_stream(struct sc *c, uint32_t id, unsigned *slot)
{
	unsigned h = stream_hash(id);
	while (c->stream_of[h]) {
		struct sstream *s = &c->streams[c->stream_of[h] - 1];
		if (s->id == id)
			return s;
		h = (h + 1) % (2 * LOADFILE_MAX_STREAMS);
	}
	if (slot)
		*slot = h;
	return NULL;
}

static struct sstream *new_stream(struct sc *c, uint32_t id, uint32_t table)
{
	unsigned h;

	if (find_stream(c, id, &h)) {
		fail(c, "stream %" PRIu32 " was started before", id);
		return NULL;
	}
	if (c->nstreams == LOADFILE_MAX_STREAMS) {
		fail(c, "more than %d streams", LOADFILE_MAX_STREAMS);
		return NULL;
	}
	size_t cap = c->nstreams;
	if (c->nstreams % 16 == 0 &&
	    !grow(c, (void **)&c->streams, sizeof(struct sstream), &cap, c->nstreams + 16))
		return NULL;
	struct sstream *s = &c->streams[c->nstreams++];
	*s = (struct sstream){ .id = id, .table = table, .parent = SC_NONE };
	c->stream_of[h] = c->nstreams;
	return s;
}

static uint32_t new_table(struct sc *c)
{
	size_t cap = c->ntables;
	if (c->ntables % 16 == 0 &&
	    !grow(c, (void **)&c->tables, sizeof(struct table), &cap, c->ntables + 16))
		return UINT32_MAX;
	c->tables[c->ntables] = (struct table){ 0 };
	return c->ntables++;
}

/* The entry of recorded fd in table t, grown as needed. */
static struct fdent *fd_entry(struct sc *c, uint32_t t, int64_t fd)
{
	struct table *tb = &c->tables[t];

	if (fd < 0 || fd >= LOADFILE_MAX_FD) {
		fail(c, "descriptor %" PRId64 " is not between 0 and %d", fd, LOADFILE_MAX_FD - 1);
		return NULL;
	}
	if ((uint32_t)fd >= tb->n) {
		size_t cap = tb->n;
		if (!grow(c, (void **)&tb->fd, sizeof(struct fdent), &cap, (size_t)fd + 1))
			return NULL;
		for (size_t i = tb->n; i < cap; i++)
			tb->fd[i] = (struct fdent){ .slot = -1, .path = -1, .file = -1,
						    .res = { .wstream = SC_NONE } };
		tb->n = cap;
	}
	return &tb->fd[fd];
}

static void use(struct sc *c, struct res *r, uint16_t s, bool write);

/* Note that the call takes or gives up `slot`. */
static void touch_slot(struct sc *c, uint16_t slot)
{
	if (grow(c, (void **)&c->touched, sizeof(uint16_t), &c->touched_cap, c->ntouched + 1))
		c->touched[c->ntouched++] = slot;
}

static int32_t take_slot(struct sc *c)
{
	if (c->nopen == LOADFILE_MAX_HANDLES) {
		fail(c, "more than %d descriptors open at once", LOADFILE_MAX_HANDLES);
		return -1;
	}
	c->nopen++;
	if (c->nopen > c->prog->max_handles)
		c->prog->max_handles = c->nopen;
	int32_t slot = c->nfree ? c->free_slots[--c->nfree] : (int32_t)c->nslots++;
	use(c, &c->slot_res[slot], c->cur_stream, true);	/* after its last giver */
	touch_slot(c, (uint16_t)slot);
	return slot;
}

static void give_slot(struct sc *c, struct fdent *e)
{
	if (e->slot < 0)
		return;
	c->free_slots[c->nfree++] = (uint16_t)e->slot;
	touch_slot(c, (uint16_t)e->slot);
	c->nopen--;
	e->slot = -1;
}

static bool slot_list_add(struct sc *c, uint16_t v)
{
	if (!grow(c, (void **)&c->slot_lists, sizeof(uint16_t), &c->slot_lists_cap,
		  c->nslot_lists + 1))
		return false;
	c->slot_lists[c->nslot_lists++] = v;
	return true;
}

/* ---- the initial state ---- */

static bool init_parent_made(struct sc *c, const char *path, size_t leaf_at)
{
	if (leaf_at == 0)
		return true;
	for (size_t i = c->prog->ninit; i-- > 0;) {
		const struct init_entry *e = &c->init[i];
		if (e->kind == INIT_DIR && strlen(e->path) == leaf_at - 1 &&
		    memcmp(e->path, path, leaf_at - 1) == 0)
			return true;
	}
	return false;
}

static const struct init_entry *init_find(struct sc *c, const char *path)
{
	for (size_t i = c->prog->ninit; i-- > 0;) {
		if (c->init[i].kind != INIT_DATA && c->init[i].path == path)
			return &c->init[i];
	}
	return NULL;
}

/* Base64 (RFC 4648, padded) into out; its length, or -1. */
static long base64_decode(const struct token *t, unsigned char *out, size_t cap)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = 0;

	if (t->quoted || t->len == 0 || t->len % 4)
		return -1;
	for (size_t i = 0; i < t->len; i += 4) {
		uint32_t v = 0;
		int pad = 0;
		for (int k = 0; k < 4; k++) {
			char ch = t->s[i + k];
			const char *d = ch ? strchr(digits, ch) : NULL;
			if (ch == '=' && i + 4 == t->len && k >= 2 && (k == 3 || t->s[i + 3] == '='))
				pad++;
			else if (!d || pad)
				return -1;
			v = v << 6 | (d ? (uint32_t)(d - digits) : 0);
		}
		for (int k = 0; k < 3 - pad; k++) {
			if (n == cap)
				return -1;
			out[n++] = v >> (16 - 8 * k) & 0xff;
		}
	}
	return (long)n;
}

/* init data PATH OFFSET BASE64: bytes of a file an init file line made. */
static bool init_data(struct sc *c, struct init_entry *e, const struct init_entry *had,
		      const struct token *tok)
{
	int64_t off;
	unsigned char bytes[SC_MAX_DATA];

	if (!had || had->kind != INIT_FILE) {
		fail(c, "init data for '%s', which no init file made", e->path);
		return false;
	}
	if (!parse_int(c, &tok[3], false, &off))
		return false;
	long len = base64_decode(&tok[4], bytes, sizeof(bytes));
	if (len < 0) {
		fail(c, "init data is not base64 of at most %d bytes", SC_MAX_DATA);
		return false;
	}
	if (off + len > had->size) {
		fail(c, "init data reaches byte %" PRId64 ", past the file's size %" PRId64,
		     off + len, had->size);
		return false;
	}
	e->size = off;
	e->len = len;
	if (!(e->data = talloc_memdup(c->prog, bytes, len ? len : 1))) {
		lex_oom(&c->lx);
		return false;
	}
	c->prog->ninit++;
	return true;
}

/* The kind of entry an init line makes (INIT_DIR ...), with its count of
 * arguments and the room for one more checked; -1 after saying what is
 * wrong. */
static int init_kind(struct sc *c, const struct token *tok, int n)
{
	static const struct { const char *word; int nargs; } kinds[] = {
		[INIT_DIR] = { "dir", 2 }, [INIT_FILE] = { "file", 3 },
		[INIT_SYMLINK] = { "symlink", 2 }, [INIT_DATA] = { "data", 3 },
	};
	int k;

	if (c->in_calls) {
		fail(c, "an init line after the first call (the initial state comes first)");
		return -1;
	}
	for (k = 0; k < 4 && !(n >= 2 && lex_is(&tok[1], kinds[k].word)); k++)
		;
	if (k == 4) {
		fail(c, "init takes dir, file, symlink or data, not '%s'",
		     n >= 2 ? tokstr(c, &tok[1]) : "");
		return -1;
	}
	if (n - 2 != kinds[k].nargs) {
		fail(c, "init %s takes %d arguments, got %d", kinds[k].word, kinds[k].nargs, n - 2);
		return -1;
	}
	if (c->prog->ninit == LOADFILE_MAX_INIT) {
		fail(c, "more than %d init lines", LOADFILE_MAX_INIT);
		return -1;
	}
	return k;
}

/* ---- symbolic links ---- */

/* The path a symbolic link at `link` (its last component at leaf_at)
 * holding `target` names, root-relative as the replay resolves it (a
 * leading / is the root); -1 for the root itself or above it. */
static long link_resolved(struct sc *c, const char *link, size_t leaf_at, const char *target)
{
	char out[LOADFILE_MAX_LINE];
	size_t n = 0;

	if (target[0] != '/' && leaf_at > 0) {
		n = leaf_at - 1;
		memcpy(out, link, n);
	}
	for (const char *p = target; *p;) {
		while (*p == '/')
			p++;
		const char *s = p;
		while (*p && *p != '/')
			p++;
		size_t len = p - s;
		if (len == 0 || (len == 1 && s[0] == '.'))
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (n == 0)
				return -1;
			while (n > 0 && out[n - 1] != '/')
				n--;
			n -= n > 0;
			continue;
		}
		if (n + len + 1 >= sizeof(out))
			return -1;
		if (n)
			out[n++] = '/';
		memcpy(out + n, s, len);
		n += len;
	}
	return n ? intern(c, &c->paths, out, n) : -1;
}

/* map[i] = to + 1 (0 for to -1), growing the map (by paths index). */
static bool map_set(struct sc *c, uint32_t **map, size_t *n, long i, long to)
{
	if (!grow_array(c->prog, (void **)map, sizeof(**map), n, (size_t)i + 1, 64)) {
		lex_oom(&c->lx);
		return false;
	}
	(*map)[i] = to < 0 ? 0 : (uint32_t)to + 1;
	return true;
}

/* The paths index of the target text of the symbolic link known at
 * paths index i, as made, or -1. */
static long link_text_of(const struct sc *c, long i)
{
	return (size_t)i < c->text_n ? (long)c->link_text[i] - 1 : -1;
}

/* Path index i now is a symbolic link holding the target text at paths
 * index `text` (-1: none there), resolved from the directory i is in: a
 * link renamed or linked elsewhere points from its new place. */
static bool link_note(struct sc *c, long i, long text)
{
	const char *p = c->paths.order[i];
	long to = text < 0 ? -1 : link_resolved(c, p, leaf_at_of(p), c->paths.order[text]);

	return !c->lx.err && map_set(c, &c->link_text, &c->text_n, i, text) &&
	       map_set(c, &c->link_to, &c->link_n, i, to);
}

/* The first name of the file at paths index i (itself unless a link or
 * rename gave it the file of another name): calls on two names of one
 * file keep their order through it. */
static long file_of(const struct sc *c, long i)
{
	return (size_t)i < c->file_n && c->file_to[i] ? (long)c->file_to[i] - 1 : i;
}

/* Name i now names the file that `first` is the first name of. */
static bool file_set(struct sc *c, long i, long first)
{
	return map_set(c, &c->file_to, &c->file_n, i, first) &&
	       (first == i || map_set(c, &c->first_of, &c->first_n, first, 0));
}

/* Name i names no file any more (unlinked, removed, renamed away): a file
 * made there later is another.  Where i is the first name of a file with
 * other names, the next one gets an identity of its own, "//N", which no
 * path the compiler interns from a row can be (they have no empty
 * component). */
static bool name_gone(struct sc *c, long i)
{
	if ((size_t)i >= c->first_n || !c->first_of[i])
		return map_set(c, &c->file_to, &c->file_n, i, -1);
	char id[24];
	int len = snprintf(id, sizeof(id), "//%" PRIu32, c->nfresh++);
	long fresh = intern(c, &c->paths, id, (size_t)len);
	return fresh >= 0 && map_set(c, &c->file_to, &c->file_n, i, fresh);
}

/* A symbolic link made at `path` (by init or a symlink call). */
static bool link_set(struct sc *c, const char *path, const char *target)
{
	long i = intern(c, &c->paths, path, strlen(path));
	long text = i < 0 ? -1 : intern(c, &c->paths, target, strlen(target));
	return text >= 0 && link_note(c, i, text);
}

/* Paths index i's link target's index, or -1 when no link is known there. */
static long link_of(const struct sc *c, long i)
{
	return (size_t)i < c->link_n ? (long)c->link_to[i] - 1 : -1;
}

/* Links a lookup follows at most, as the kernel's (MAXSYMLINKS). */
#define SC_LINK_HOPS 40

/* Where in path[0 .. len) (a slash or len) the first name that is a
 * symbolic link known to the compiler ends, the last name too with
 * `last`, and its target's paths index in *to; 0 when there is none. */
static size_t first_link(const struct sc *c, const char *path, size_t len, bool last, long *to)
{
	for (size_t k = 1; k <= len; k++) {
		if ((k < len && path[k] != '/') || (k == len && !last))
			continue;
		long i = strset_find(&c->paths, path, k);
		if (i >= 0 && (*to = link_of(c, i)) >= 0)
			return k;
	}
	return 0;
}

/*
 * The paths index of the name path[0 .. len) reaches once the symbolic
 * links known at the directories above it are followed, and at the name
 * itself with `last`: at any depth (l/sub/f, l pointing to d, is d/sub/f)
 * and through a chain (l to m to f); -1 when no link is on the way, or
 * after fail().  Calls through two such names keep their order through
 * the one both reach.
 */
static long followed(struct sc *c, const char *path, size_t len, bool last)
{
	char buf[2][LOADFILE_MAX_LINE];
	int cur = 0, hops = 0;
	long to;
	size_t at;

	if (!c->link_n || len >= sizeof(buf[0]))
		return -1;
	memcpy(buf[cur], path, len);
	while (hops < SC_LINK_HOPS && (at = first_link(c, buf[cur], len, last, &to)) > 0) {
		const char *t = c->paths.order[to];
		size_t tlen = strlen(t);
		if (tlen + len - at >= sizeof(buf[0]))
			return -1;
		memcpy(buf[!cur], t, tlen);
		memcpy(buf[!cur] + tlen, buf[cur] + at, len - at);
		len = tlen + len - at;
		cur = !cur;
		hops++;
	}
	return hops ? intern(c, &c->paths, buf[cur], len) : -1;
}

/* The directory index of the directory path[0 .. len) is once the links
 * on its way are followed (followed()), or -1 where none is: a name made
 * or listed beneath a link to a directory is one of that directory's. */
static long dir_through_link(struct sc *c, const char *path, size_t len)
{
	long to = len ? followed(c, path, len, true) : -1;

	return to >= 0 ? dir_index(c, c->paths.order[to], 0, true) : -1;
}

/* followed() of the name at paths index i, the last link too. */
static long whole_followed(struct sc *c, long i)
{
	const char *p = c->paths.order[i];

	return followed(c, p, strlen(p), true);
}

/* What an init dir, file or symlink line says beside its path: the
 * symlink's target, the file's size, the mode of either other; counted
 * in the program's summary.  False after saying what is wrong. */
static bool init_made(struct sc *c, struct init_entry *e, const struct token *tok)
{
	int64_t v;

	if (e->kind == INIT_SYMLINK) {
		if (!tok[3].quoted) {
			fail(c, "a symlink's target is a quoted string");
			return false;
		}
		long t = intern(c, &c->paths, tok[3].s, tok[3].len);
		if (t < 0)
			return false;
		e->target = c->paths.order[t];
		c->prog->init_symlinks++;
		return true;
	}
	if (e->kind == INIT_FILE) {
		if (!parse_int(c, &tok[3], false, &e->size))
			return false;
		if (e->size > LOADFILE_MAX_INIT_SIZE) {
			fail(c, "init file size %" PRId64 " is above the 1 TiB limit", e->size);
			return false;
		}
		c->prog->init_files++;
		c->prog->init_bytes += e->size;
	} else {
		c->prog->init_dirs++;
	}
	if (!parse_flags(c, &tok[e->kind == INIT_FILE ? 4 : 3], &v))
		return false;
	if (v < 0 || v > 07777) {
		fail(c, "mode %" PRIo64 " is not between 0 and 07777", v);
		return false;
	}
	e->mode = (uint32_t)v;
	return true;
}

static bool init_line(struct sc *c, const struct token *tok, int n)
{
	int k = init_kind(c, tok, n);

	if (k < 0)
		return false;
	if (!grow(c, (void **)&c->init, sizeof(struct init_entry), &c->init_cap,
		  c->prog->ninit + 1))
		return false;
	struct init_entry *e = &c->init[c->prog->ninit];
	*e = (struct init_entry){ .kind = k, .line = c->lx.line };
	size_t leaf_at;
	if (normal_path(c, &tok[2], &e->path, &leaf_at) < 0)
		return false;
	if (!*e->path) {
		fail(c, "init may not name the root itself");
		return false;
	}
	const struct init_entry *had = init_find(c, e->path);
	if (k == INIT_DATA)
		return init_data(c, e, had, tok);
	if (had) {
		fail(c, "'%s' was made before (line %" PRIu32 ")", e->path, had->line);
		return false;
	}
	if (!init_parent_made(c, e->path, leaf_at)) {
		fail(c, "the parent of '%s' is not made by an init dir line above", e->path);
		return false;
	}
	if (!init_made(c, e, tok))
		return false;
	if (k == INIT_SYMLINK && !link_set(c, e->path, e->target))
		return false;
	c->prog->ninit++;
	return true;
}

/* ---- one call ---- */

/* What a decoded call row is, before it is placed. */
struct row {
	struct op *op;
	struct call *call;
	struct sstream *st;
	const struct sig *sig;
	int64_t nums[5];
	int nnum;
	int64_t fd[2];		/* D and E/G as recorded, -1 when none */
	long path[2];		/* paths indices of P and Q, -1 when none */
	size_t leaf_at[2];
	struct fdent *ent;	/* D's entry */
	struct fdent *ent2;	/* E's or G's entry */
	int64_t gone_desc;	/* the description of a descriptor it replaced, or -1 */
};

/* Decode the arguments of r's signature. */
static bool parse_args(struct sc *c, struct row *r, const struct token *args)
{
	struct op *op = r->op;

	for (int i = 0; r->sig->args[i]; i++) {
		const struct token *t = &args[i];
		int64_t v = 0;
		char kind = r->sig->args[i];
		bool ok = true;
		switch (kind) {
		case 'P':
		case 'Q': {
			int w = kind == 'Q';
			const char *p;
			r->path[w] = normal_path(c, t, &p, &r->leaf_at[w]);
			if (r->path[w] < 0)
				return false;
			if (w)
				op->path2 = p, op->leaf2 = p + r->leaf_at[1];
			else
				op->path = p, op->leaf = p + r->leaf_at[0];
			continue;
		}
		case 'T':
		case 'X': {
			if (!t->quoted || (kind == 'X' && t->len == 0)) {
				fail(c, "%s is a quoted string%s, not '%s'",
				     kind == 'T' ? "a symlink's target" : "an xattr name",
				     kind == 'X' ? " (not empty)" : "", tokstr(c, t));
				return false;
			}
			long s = intern(c, &c->paths, t->s, t->len);
			if (s < 0)
				return false;
			op->path2 = c->paths.order[s];
			continue;
		}
		case 'D':
		case 'E':
		case 'G':
			ok = parse_int(c, t, false, &r->fd[kind != 'D']);
			if (ok && kind == 'D')
				op->fnum = (int32_t)(r->fd[0] < INT32_MAX ? r->fd[0] : INT32_MAX);
			continue;
		case 'O':
			if (lex_is(t, "-")) {
				v = -1;
				break;
			}
			ok = parse_int(c, t, false, &v);
			break;
		case 'S':
			ok = parse_int(c, t, true, &v);
			break;
		case 'F':
			ok = parse_flags(c, t, &v);
			break;
		case 'L':
		case 'N':
		case 'B':
			ok = parse_int(c, t, false, &v);
			break;
		}
		if (!ok)
			return false;
		if (kind == 'L')
			op->a[2] = v;
		else if (r->nnum == 5)
			return false;
		else
			r->nums[r->nnum++] = v;
	}
	return true;
}

/* The numbers into op.a[] and call.x[] (loadfile.h's layout). */
static void lay_out_numbers(struct row *r)
{
	struct op *op = r->op;
	int64_t *dst[5] = { &op->a[0], &op->a[1], &op->a[2], &r->call->x[0], &r->call->x[1] };

	if (op_table[op->type].bytes != BYTES_NONE) {
		dst[1] = &r->call->x[0];
		dst[2] = &r->call->x[1];
		op->a[0] = -1;
	}
	if (op_has(op->type, OPD_CREAT)) {
		op->a[0] = O_CREAT | O_WRONLY | O_TRUNC;
		dst[0] = &op->a[1];
	}
	for (int i = 0; i < r->nnum; i++)
		*dst[i] = r->nums[i];
}

/* The RESULT column. */
static bool parse_result(struct sc *c, struct row *r, const struct token *t)
{
	struct op *op = r->op;
	const char *name = op_table[op->type].name;
	int e;

	if (lex_is(t, "*")) {
		if (r->sig->result == 'F' || r->sig->result == 'S') {
			fail(c, "%s's RESULT is the %s it made: a number%s, not *", name,
			     r->sig->result == 'F' ? "descriptor" : "stream",
			     r->sig->result == 'F' ? " or an errno" : "");
			return false;
		}
		op->flags |= OPF_ANY_STATUS;
		return true;
	}
	if ((e = errno_by_name(t)) != 0) {
		if (r->sig->result == 'S') {
			fail(c, "%s's RESULT is the stream it started, not an errno", name);
			return false;
		}
		r->call->result = -e;
		op->status = NT_UNSUCCESSFUL;
		return true;
	}
	if (!t->quoted && t->len && t->s[0] == 'E') {
		fail(c, "unknown errno '%s'", tokstr(c, t));
		return false;
	}
	int64_t v;
	if (!parse_int(c, t, false, &v))
		return false;
	if (r->sig->result == 'Z' && v != 0) {
		fail(c, "%s returns 0 or an errno, not %" PRId64, name, v);
		return false;
	}
	r->call->result = v;
	return true;
}

/* Whether open flags (or a creat) may make or empty the file: a write. */
static bool opens_for_change(const struct op *op)
{
	return op->a[0] & (O_CREAT | O_TRUNC | __O_TMPFILE);
}

/* A's entry, checked: an FD that is not open is an error unless the
 * call is expected to fail with EBADF or may do anything. */
static bool bind_fd(struct sc *c, struct row *r, int64_t fd, struct fdent **out,
		    uint16_t *slot)
{
	struct fdent *e = fd_entry(c, r->st->table, fd);

	if (!e)
		return false;
	if (e->slot < 0 && !(r->op->flags & OPF_ANY_STATUS) && r->call->result != -EBADF) {
		fail(c, "descriptor %" PRId64 " is not open in stream %" PRIu32 "'s table", fd,
		     r->st->id);
		return false;
	}
	*out = e->slot < 0 ? NULL : e;
	*slot = e->slot < 0 ? HANDLE_NONE : (uint16_t)e->slot;
	return true;
}

/* Whether op is a lock call: flock, or fcntl with a lock command.  Its
 * order is its file's locks' (lock_effects()), not its path's. */
static bool is_lock_call(const struct op *op)
{
	return op_has(op->type, OPD_LOCK) &&
	       (op->type != OP_SYS_FCNTL || is_lock_command(op->a[0]));
}

/* The locks' description e->desc, new with the open r makes: on the file
 * at its path, or at the target of a symbolic link known there. */
static bool lock_file_open(struct sc *c, const struct row *r, const struct fdent *e)
{
	bool tmpfile = op_has(r->op->type, OPD_OPENS) && (r->op->a[0] & __O_TMPFILE) == __O_TMPFILE;
	long at = e->path >= 0 ? whole_followed(c, e->path) : -1;

	at = at >= 0 ? at : e->path;
	uint32_t file = tmpfile || at < 0 ? locks_anonymous_file(c->locks)
					  : locks_file(c->locks, (uint32_t)at);

	if (!file || !locks_desc_open(c->locks, e->desc, file)) {
		lex_oom(&c->lx);
		return false;
	}
	return true;
}

/* Open recorded fd `fd` in r's table on a new slot; the old one there
 * (dup2 onto an open descriptor) gives its slot over. */
static bool open_fd(struct sc *c, struct row *r, int64_t fd, bool cloexec, uint16_t *slot)
{
	struct fdent *e = fd_entry(c, r->st->table, fd);

	if (!e)
		return false;
	r->gone_desc = e->slot >= 0 ? (int64_t)e->desc : -1;	/* it closes */
	if (e->slot < 0 && (e->slot = take_slot(c)) < 0)
		return false;
	e->cloexec = cloexec;
	e->line = c->lx.line;
	e->path = r->path[0];
	e->desc = c->ndesc++;
	e->file = -1;
	if (r->path[0] >= 0) {	/* the file it opens, as the open resolved it */
		long to = whole_followed(c, r->path[0]);
		if (c->lx.err)
			return false;
		e->file = (int32_t)file_of(c, to >= 0 ? to : r->path[0]);
	}
	if (r->ent && r->ent != e) {	/* a dup: the same file, the same description */
		e->path = r->ent->path, e->desc = r->ent->desc, e->file = r->ent->file;
		locks_desc_ref(c->locks, e->desc);
	} else if (!lock_file_open(c, r, e)) {
		return false;
	}
	*slot = (uint16_t)e->slot;
	r->ent2 = e;
	return true;
}

/* fork: the child's table, a copy of the parent's on slots of its own. */
static bool fork_table(struct sc *c, struct row *r, struct sstream *child)
{
	struct table *pt = &c->tables[r->st->table];
	uint32_t t = new_table(c);

	if (t == UINT32_MAX)
		return false;
	child->table = t;
	r->op->a[0] = c->nslot_lists;
	pt = &c->tables[r->st->table];	/* new_table() may have moved it */
	for (uint32_t fd = 0; fd < pt->n; fd++) {
		if (pt->fd[fd].slot < 0)
			continue;
		struct fdent *e = fd_entry(c, t, fd);
		pt = &c->tables[r->st->table];
		if (!e || (e->slot = take_slot(c)) < 0)
			return false;
		e->cloexec = pt->fd[fd].cloexec;
		e->line = pt->fd[fd].line;
		e->path = pt->fd[fd].path;
		e->desc = pt->fd[fd].desc;	/* the child's descriptor shares the description */
		e->file = pt->fd[fd].file;
		locks_desc_ref(c->locks, e->desc);
		if (!slot_list_add(c, (uint16_t)pt->fd[fd].slot) ||
		    !slot_list_add(c, (uint16_t)e->slot))
			return false;
		r->op->a[1]++;
	}
	return true;
}

/* thread and fork: a new stream. */
static bool start_stream(struct sc *c, struct row *r)
{
	int64_t id = r->call->result;

	if (id <= 0 || id > UINT32_MAX) {
		fail(c, "%s's RESULT is the new stream, a positive number", op_table[r->op->type].name);
		return false;
	}
	struct sstream *child = new_stream(c, (uint32_t)id, r->st->table);
	if (!child)
		return false;
	r->st = &c->streams[r->call->stream];	/* new_stream() may have moved it */
	child->parent = r->call->stream;
	child->start_dep_seq = r->call->seq;
	child->last_end = r->op->timestamp + r->call->duration;
	return r->op->type == OP_SYS_THREAD || fork_table(c, r, child);
}

/* ---- locks ---- */

/* What the locks said to a name's change: false (out of memory) fails. */
static bool lock_names(struct sc *c, bool ok)
{
	if (!ok)
		lex_oom(&c->lx);
	return ok;
}

/* Note lock event `at` on `file` for the call being placed. */
static void lock_use(struct sc *c, uint32_t file, bool write, struct call_dep at)
{
	if (grow(c, (void **)&c->lk, sizeof(struct lock_use), &c->lk_cap, c->nlk + 1))
		c->lk[c->nlk++] = (struct lock_use){ file, write, at };
}

/* The noted lock events: the call (of stream s) waits for what they
 * need (before), then they are each file's news (after). */
static void lock_uses(struct sc *c, uint16_t s, bool after)
{
	for (size_t i = 0; i < c->nlk; i++) {
		struct res *r = res_at(c, &c->lock_res, &c->lock_res_n, c->lk[i].file);
		if (after)
			used(c, r, c->lk[i].at.stream, c->lk[i].at.seq, c->lk[i].write);
		else
			use(c, r, s, c->lk[i].write);
	}
	if (after)
		c->nlk = 0;
}

/* A descriptor of `table` on description `desc` closes, at event `at`:
 * noted when that ends a lock or leaves one to the description's last
 * close (apply false), then made (apply true). */
static void lock_close(struct sc *c, uint32_t table, uint32_t desc, struct call_dep at, bool apply)
{
	if (!apply && locks_close_matters(c->locks, table, desc))
		lock_use(c, locks_desc_file(c->locks, desc), true, at);
	else if (apply)
		locks_close(c->locks, table, desc);
}

/* What a lock call (flock; fcntl with a lock command) asks, and what the
 * recording says came of it. */
struct lock_call {
	struct lock_req req;
	bool lock, unlock;	/* neither: a query (F_GETLK, F_OFD_GETLK) */
	bool blocks;		/* flock without LOCK_NB, F_SETLKW, F_OFD_SETLKW */
	bool ok;		/* it succeeded (or any outcome will do) */
	bool busy;		/* it failed for the lock being held */
};

/* fcntl's range: from START (SEEK_SET) for LEN bytes, LEN 0 to the end,
 * a negative LEN before START.  From the offset or the end (SEEK_CUR,
 * SEEK_END), which the compile does not know: the whole file. */
static void lock_range(int64_t whence, int64_t start, int64_t len, struct lock_req *q)
{
	q->lo = 0;
	q->hi = LOCKS_EOF;
	if (whence != SEEK_SET || start < 0)
		return;
	if (len < 0 && start + len >= 0) {
		q->lo = start + len;
		q->hi = start;
	} else if (len > 0) {
		q->lo = start;
		q->hi = start > LOCKS_EOF - len ? LOCKS_EOF : start + len;
	} else if (len == 0) {
		q->lo = start;
	}
}

/* Whether r is a lock call on an open description, and what, into *lc. */
static bool lock_call_of(struct sc *c, const struct row *r, struct lock_call *lc)
{
	const struct op *op = r->op;
	int64_t res = r->call->result;

	if (!r->ent)
		return false;
	*lc = (struct lock_call){ .req = { .file = locks_desc_file(c->locks, r->ent->desc),
					   .owner = r->ent->desc, .hi = LOCKS_EOF } };
	if (op->type == OP_SYS_FLOCK) {
		int64_t how = op->a[0] & ~(int64_t)LOCK_NB;
		if (how != LOCK_SH && how != LOCK_EX && how != LOCK_UN)
			return false;
		lc->req.kind = LOCK_KIND_FLOCK;
		lc->req.excl = how == LOCK_EX;
		lc->unlock = how == LOCK_UN;
		lc->lock = !lc->unlock;
		lc->blocks = lc->lock && !(op->a[0] & LOCK_NB);
	} else if (op->type == OP_SYS_FCNTL && is_lock_command(op->a[0])) {
		int64_t cmd = op->a[0];
		bool ofd = cmd == F_OFD_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
		if (op->a[1] != F_RDLCK && op->a[1] != F_WRLCK && op->a[1] != F_UNLCK)
			return false;
		lc->req.kind = ofd ? LOCK_KIND_OFD : LOCK_KIND_POSIX;
		if (!ofd)
			lc->req.owner = r->st->table;	/* a process's: its table */
		lc->req.excl = op->a[1] == F_WRLCK;
		bool query = cmd == F_GETLK || cmd == F_OFD_GETLK;
		lc->unlock = !query && op->a[1] == F_UNLCK;
		lc->lock = !query && !lc->unlock;
		lc->blocks = lc->lock && (cmd == F_SETLKW || cmd == F_OFD_SETLKW);
		lock_range(op->a[2], r->call->x[0], r->call->x[1], &lc->req);
	} else {
		return false;
	}
	lc->ok = res >= 0 || (op->flags & OPF_ANY_STATUS);
	lc->busy = res == -EAGAIN || res == -EACCES || res == -EINTR || res == -EDEADLK;
	return true;
}

/* Lock call r waits for its lock (apply: joins the queue of the model). */
static bool lock_wait(struct sc *c, const struct row *r, const struct lock_call *lc)
{
	if (!grow(c, (void **)&c->waiters, sizeof(struct lock_waiter), &c->waiters_cap,
		  c->nwaiters + 1) ||
	    !locks_wait(c->locks, &lc->req, (uint32_t)c->nwaiters, r->op->timestamp + r->call->duration)) {
		lex_oom(&c->lx);
		return false;
	}
	c->waiters[c->nwaiters++] = (struct lock_waiter){
		.pos = (uint32_t)c->prog->nops, .me = { r->call->seq, r->call->stream },
		.file = lc->req.file, .excl = lc->req.excl,
		.end = r->op->timestamp + r->call->duration };
	return true;
}

/*
 * What lock call r does to the locks: noted before its waits are worked
 * out (apply false), so that it waits for the events it needs, then made
 * (apply true).  A lock taken, let go of, tried in vain or queried is an
 * event at its call; a blocking call that finds its lock held is no
 * event yet: it waits.  (A flock conversion's letting go of its old lock
 * is a row before it: unlock_first().)
 */
static bool lock_call_effects(struct sc *c, struct row *r, bool apply)
{
	struct lock_call lc;
	struct call_dep me = { r->call->seq, r->call->stream };
	bool oom = false;

	if (!lock_call_of(c, r, &lc) || (!lc.ok && !lc.busy))
		return true;
	if (lc.blocks && !lc.busy)
		r->op->flags |= OPF_LOCKWAIT;
	if (lc.lock && lc.req.kind == LOCK_KIND_FLOCK &&
	    locks_flock_of(c->locks, lc.req.owner) == (int)lc.req.excl)
		return true;	/* the flock lock it holds: nothing changes */
	if (!lc.lock || !lc.ok) {	/* let go of, tried in vain, queried */
		if (!apply)
			lock_use(c, lc.req.file, lc.unlock && lc.ok, me);
		else if (lc.unlock && lc.ok)
			locks_unset(c->locks, &lc.req, &oom);
	} else if (lc.blocks && locks_conflict(c->locks, &lc.req)) {
		if (apply && !lock_wait(c, r, &lc))
			return false;
	} else if (!apply) {
		lock_use(c, lc.req.file, lc.req.excl, me);
	} else if (!locks_set(c->locks, &lc.req)) {
		oom = true;
	}
	if (oom)
		lex_oom(&c->lx);
	return !oom;
}

/* The lock events of call r: its lock call's, those of the descriptors
 * it closes (close, one an open or dup2 replaces), a flock conversion's
 * letting go (unlock_first()). */
static bool lock_effects(struct sc *c, struct row *r, bool apply)
{
	struct call_dep me = { r->call->seq, r->call->stream };
	bool done = r->call->result >= 0 || (r->op->flags & OPF_ANY_STATUS);

	if (op_has(r->op->type, OPD_CLOSES) && r->ent && done)
		lock_close(c, r->st->table, r->ent->desc, me, apply);
	if (r->op->type == OP_SYS_EXEC && r->op->a[2] == EXEC_UNLOCK) {	/* unlock_first() */
		struct lock_req mine = { .kind = LOCK_KIND_FLOCK, .owner = r->ent->desc,
					 .file = locks_desc_file(c->locks, r->ent->desc),
					 .hi = LOCKS_EOF };
		bool oom = false;
		if (!apply)
			lock_use(c, mine.file, true, me);
		else
			locks_unset(c->locks, &mine, &oom);
		if (oom)
			lex_oom(&c->lx);
		return !oom;
	}
	if (r->gone_desc >= 0)
		lock_close(c, r->st->table, (uint32_t)r->gone_desc, me, apply);
	return lock_call_effects(c, r, apply);
}

/* Waiter k is granted its lock: it waits for the events before it on the
 * file (late: its call was placed long since), and is one of them. */
static bool granted(struct sc *c, uint32_t k)
{
	const struct lock_waiter *w = &c->waiters[k];
	struct res *r = res_at(c, &c->lock_res, &c->lock_res_n, w->file);

	if (!r)
		return false;
	c->npending = 0;
	use(c, r, w->me.stream, w->excl);
	if (r->wstream == w->me.stream && r->wseq >= w->me.seq)
		want(c, w->me.stream, r->wseq);	/* a later call of its own: a circle */
	if (!grow(c, (void **)&c->late, sizeof(struct wait_edge), &c->late_cap,
		  c->nlate + c->npending))
		return false;
	for (unsigned i = 0; i < c->npending; i++)
		c->late[c->nlate++] = (struct wait_edge){ w->pos, c->pending[i] };
	c->npending = 0;
	used(c, r, w->me.stream, w->me.seq, w->excl);
	if (c->exit_op && w->end > c->exit_op->timestamp)
		c->exit_op->timestamp = w->end;	/* it let go no earlier than that */
	return !c->lx.err;
}

/*
 * The waiters that returned by `now` (recorded), in the order they did,
 * take their locks if they are free: a waiter has it once it has
 * returned, not as soon as it is let go of (another stream may take it
 * first, as the recording shows).  With `force`, all that are left, free
 * or not: none will be let go of again.
 */
static bool grant_waiters(struct sc *c, double now, bool force)
{
	uint32_t k;
	bool oom = false;

	while (locks_granted(c->locks, now, &k, &oom) ||
	       (force && !oom && locks_force_next(c->locks, &k, &oom))) {
		if (!granted(c, k))
			return false;
	}
	if (oom)
		lex_oom(&c->lx);
	return !oom;
}

/* exec: the close-on-exec descriptors of the stream's table close. */
static bool exec_closes(struct sc *c, struct row *r, uint16_t s, bool place)
{
	struct table *tb = &c->tables[r->st->table];

	r->op->a[0] = c->nslot_lists;
	for (uint32_t fd = 0; fd < tb->n; fd++) {
		struct fdent *e = &tb->fd[fd];
		if (e->slot < 0 || !e->cloexec)
			continue;
		if (!place) {
			use(c, &e->res, s, true);
			lock_close(c, r->st->table, e->desc, (struct call_dep){ r->call->seq, s }, false);
			continue;
		}
		used(c, &e->res, s, r->call->seq, true);
		if (!slot_list_add(c, (uint16_t)e->slot))
			return false;
		r->op->a[1]++;
		lock_close(c, r->st->table, e->desc, (struct call_dep){ r->call->seq, s }, true);
		give_slot(c, e);
	}
	return true;
}

/* The resources of call r and whether it writes each; up to 6.  One in
 * a growing table (arr) is named by index until all are known: growing
 * the table for a later one moves the earlier ones. */
struct use {
	struct res *res;
	struct res **arr;
	size_t idx;
	bool write;
};

static struct use table_use(struct sc *c, struct res **arr, size_t *n, size_t idx, bool write)
{
	res_at(c, arr, n, idx);
	return (struct use){ .arr = arr, .idx = idx, .write = write };
}

static unsigned resources(struct sc *c, struct row *r, struct use *u)
{
	const struct op *op = r->op;
	unsigned n = 0;
	int t = op->type;
	uint32_t f = op_table[t].flags;
	bool reads = f & OPD_READS;
	bool locking = is_lock_call(op);
	bool names = (f & (OPD_MAKES | OPD_REMOVES | OPD_RENAMES | OPD_LINKS)) ||
		     ((f & OPD_OPENS) && (op->a[0] & O_CREAT));

	if (f & OPD_OPENS)
		reads = !opens_for_change(op);
	reads = reads || locking;
	for (int w = 0; w < 2; w++) {
		if (r->path[w] < 0 || (w == 1 && !names))
			continue;
		u[n++] = table_use(c, &c->path_res, &c->path_res_n, r->path[w], !reads);
		if (names) {
			const char *p = w ? op->path2 : op->path;
			long d = dir_index(c, p, r->leaf_at[w], false);
			if (d < 0)
				return 0;
			u[n++] = table_use(c, &c->dir_res, &c->dir_res_n, d, true);
			d = dir_through_link(c, p, r->leaf_at[w] ? r->leaf_at[w] - 1 : 0);
			if (d >= 0)
				u[n++] = table_use(c, &c->dir_res, &c->dir_res_n, d, true);
		}
	}
	/* a create through a link known at its path makes the name the link
	 * points to: the listing of that one's directory */
	long to = names && (f & OPD_OPENS) && r->path[0] >= 0 ? whole_followed(c, r->path[0]) : -1;
	if (to >= 0) {
		const char *p = c->paths.order[to];
		long d = dir_index(c, p, leaf_at_of(p), false);
		if (d < 0)
			return 0;
		u[n++] = table_use(c, &c->dir_res, &c->dir_res_n, d, true);
	}
	if (r->ent) {
		/* the descriptor, and the file it was opened on */
		u[n++] = (struct use){ .res = &r->ent->res, .write = !reads || (f & OPD_CLOSES) };
		long d = (f & OPD_LISTS) && r->ent->path >= 0
				 ? dir_index(c, c->paths.order[r->ent->path], 0, true) : -1;
		if (d >= 0)
			u[n++] = table_use(c, &c->dir_res, &c->dir_res_n, d, false);
		d = d >= 0 ? dir_through_link(c, c->paths.order[r->ent->path],
					      strlen(c->paths.order[r->ent->path])) : -1;
		if (d >= 0)
			u[n++] = table_use(c, &c->dir_res, &c->dir_res_n, d, false);
		/* a listing reads the directory's path too: its rmdir waits;
		 * a lock call's order is its file's locks' (lock_effects()) */
		if (r->ent->path >= 0 && !(f & OPD_CLOSES) && !is_lock_call(op))
			u[n++] = table_use(c, &c->path_res, &c->path_res_n, r->ent->path,
					   !reads);
	}
	if (r->ent2)
		u[n++] = (struct use){ .res = &r->ent2->res, .write = true };
	/* a call that moves a descriptor's offset writes its description's,
	 * which dup and fork share */
	bool moves = f & OPD_MOVES_OFFSET;
	if (moves && r->ent)
		u[n++] = table_use(c, &c->desc_res, &c->desc_res_n, r->ent->desc, true);
	if (moves && r->ent2)
		u[n++] = table_use(c, &c->desc_res, &c->desc_res_n, r->ent2->desc, true);
	if (c->lx.err)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (u[i].arr)
			u[i].res = &(*u[i].arr)[u[i].idx];
	}
	return n;
}

/* The descriptors a call opens, closes or names, on slots. */
static bool bind_descriptors(struct sc *c, struct row *r)
{
	struct op *op = r->op;
	int t = op->type;
	char res = r->sig->result;
	bool ok = r->call->result >= 0;
	bool cloexec;

	if (r->fd[0] >= 0 && !bind_fd(c, r, r->fd[0], &r->ent, &op->handle))
		return false;
	if (r->fd[1] >= 0 && strchr(r->sig->args, 'E') &&
	    !bind_fd(c, r, r->fd[1], &r->ent2, &r->call->handle2))
		return false;
	if ((res != 'F' && t != OP_SYS_FCNTL) || !ok)
		return true;
	if (op_has(t, OPD_OPENS))
		return open_fd(c, r, r->call->result, op->a[0] & O_CLOEXEC, &op->handle);
	if (t == OP_SYS_FCNTL) {
		if (op->a[0] != F_DUPFD && op->a[0] != F_DUPFD_CLOEXEC)
			return true;
		return open_fd(c, r, r->call->result, op->a[0] == F_DUPFD_CLOEXEC,
			       &r->call->handle2);
	}
	if (!SIG_HAS(r, 'G'))	/* dup: the lowest free number */
		return open_fd(c, r, r->call->result, false, &r->call->handle2);
	if (r->call->result != r->fd[1]) {	/* dup2, dup3: the number given */
		fail(c, "%s returns its NEWFD %" PRId64 ", not %" PRId64,
		     op_table[t].name, r->fd[1], r->call->result);
		return false;
	}
	if (r->fd[1] == r->fd[0]) {	/* dup2(fd, fd): nothing changes */
		r->call->handle2 = op->handle;
		return true;
	}
	cloexec = SIG_HAS(r, 'F') && (op->a[0] & O_CLOEXEC);	/* dup3's FLAGS */
	return open_fd(c, r, r->fd[1], cloexec, &r->call->handle2);
}

/* What a call changes in its table once placed: close, FD_CLOEXEC. */
static void table_after(struct sc *c, struct row *r)
{
	const struct op *op = r->op;

	if (r->call->result < 0 && !(op->flags & OPF_ANY_STATUS))
		return;
	if (op_has(op->type, OPD_CLOSES) && r->ent)
		give_slot(c, r->ent);
	if (op->type == OP_SYS_FCNTL && op->a[0] == F_SETFD && r->ent)
		r->ent->cloexec = op->a[1] & FD_CLOEXEC;
}

const char *loadfile_root_refusal(int type, bool first, bool second, bool fails)
{
	uint32_t f = op_table[type].flags;
	const char *replaces = "may not name the root itself: a replay never removes or replaces "
			       "the client's directory";

	if ((f & OPD_MAKES) && (f & OPD_DIR))	/* mkdir */
		return first && !fails ? "can only fail (EEXIST) on the root, the client's directory"
				       : NULL;
	if (f & (OPD_REMOVES | OPD_SYMLINK))
		return first ? replaces : NULL;
	if (f & (OPD_RENAMES | OPD_LINKS))
		return first || second ? replaces : NULL;
	return NULL;
}

/* Checks that span arguments. */
static bool check_call(struct sc *c, struct row *r)
{
	struct op *op = r->op;
	int t = op->type;
	const struct op_desc *d = &op_table[t];
	bool fails = r->call->result < 0 || (op->flags & OPF_ANY_STATUS);
	const char *why = loadfile_root_refusal(t, op->path && !*op->path,
						op->path2 && !*op->path2 && strchr(r->sig->args, 'Q'),
						fails);

	if (why) {
		fail(c, "%s %s", d->name, why);
		return false;
	}
	bool buffered = d->bytes != BYTES_NONE && !(d->flags & OPD_COPIES);
	if (buffered && d->bytes == BYTES_READ && op->a[2] > OP_MAX_SIZE)
		op->a[2] = OP_MAX_SIZE;	/* what it read tells: below */
	if (buffered && (op->a[2] > OP_MAX_SIZE || r->call->result > OP_MAX_SIZE)) {
		fail(c, "%s moves more than 16 MiB in one call, the limit", d->name);
		return false;
	}
	if (d->bytes != BYTES_NONE && r->call->result > op->a[2]) {
		fail(c, "%s returns %" PRId64 " bytes, more than its LEN %" PRId64, d->name,
		     r->call->result, op->a[2]);
		return false;
	}
	int64_t len = buffered ? op->a[2] : SIG_HAS(r, 'B') ? op->a[0] : 0;
	if (len > OP_MAX_SIZE) {
		fail(c, "%s's size %" PRId64 " is above the 16 MiB limit", d->name, len);
		return false;
	}
	if ((size_t)len > c->max_buffer)
		c->max_buffer = len;
	return true;
}

/* Add paths index i, and what a link known there points to, to c->anc. */
static bool reach(struct sc *c, long i, bool write)
{
	for (int k = 0; k < 2 && i >= 0; k++, i = link_of(c, i)) {
		size_t cap = c->anc_cap;
		if (!res_at(c, &c->path_res, &c->path_res_n, i) ||
		    !grow(c, (void **)&c->anc, sizeof(struct anc), &cap, c->nanc + 1))
			return false;
		c->anc_cap = cap;
		c->anc[c->nanc++] = (struct anc){ i, write };
	}
	return true;
}

/* Add to c->anc the name paths index i reaches through the links on its
 * way (followed()), written, the first name of its file, and the
 * directories above it, read: what a call on i does is done there.  True
 * where no link is on the way. */
static bool reach_followed(struct sc *c, long i)
{
	long to = whole_followed(c, i);

	if (to < 0)
		return !c->lx.err;
	const char *p = c->paths.order[to];
	for (const char *slash = strchr(p, '/'); slash; slash = strchr(slash + 1, '/')) {
		long d = intern(c, &c->paths, p, slash - p);
		if (d < 0 || !reach(c, d, false))
			return false;
	}
	return reach(c, to, true) && (file_of(c, to) == to || reach(c, file_of(c, to), true));
}

/*
 * The paths call r reaches besides those it names, into c->anc: each
 * directory above a named path ("a" and "a/b" for "a/b/c"; the root
 * never: nothing replaces it), read, so that the call keeps its order
 * with the mkdir, rename or rmdir of any of them in another stream; and
 * the target of a symbolic link known at a named path or above it
 * (made by init or a symlink row, moved by rename, copied by link, gone
 * by unlink), written for the named path itself, so that a call through
 * a link keeps its order with the calls on what it points to; and the
 * first name of the file a named path or the call's descriptor is on
 * (through a link, as the open resolved it), written, where a hard
 * link, a rename or a symbolic link gave it another.  Their table
 * entries exist on return, so that no growth moves the resources that
 * resources() then points at.
 */
static bool ancestors(struct sc *c, struct row *r)
{
	c->nanc = 0;
	for (int w = 0; w < 2; w++) {
		const char *p = w ? r->op->path2 : r->op->path;
		if (r->path[w] < 0 || !p)
			continue;
		for (const char *slash = strchr(p, '/'); slash; slash = strchr(slash + 1, '/')) {
			long i = intern(c, &c->paths, p, slash - p);
			if (i < 0 || !reach(c, i, false))
				return false;
		}
		long to = link_of(c, r->path[w]);
		if (to >= 0 && !reach(c, to, true))
			return false;
		if (file_of(c, r->path[w]) != r->path[w] && !reach(c, file_of(c, r->path[w]), true))
			return false;
		if (!reach_followed(c, r->path[w]))
			return false;
	}
	if (r->ent && r->ent->file >= 0 && r->ent->file != r->ent->path && !is_lock_call(r->op))
		return reach(c, r->ent->file, true);
	return true;
}

/* The name x renamed to y (exchanged with it): the symbolic link known
 * at x, the file x is a name of, and the file the locks know there, now
 * are y's (and y's x's; else x names nothing). */
static bool name_moved(struct sc *c, long x, long y, bool exchange)
{
	long tx = link_text_of(c, x), ty = link_text_of(c, y);
	long fx = file_of(c, x), fy = file_of(c, y);

	return link_note(c, y, tx) && link_note(c, x, exchange ? ty : -1) &&
	       file_set(c, y, fx) && (exchange ? file_set(c, x, fy) : name_gone(c, x)) &&
	       lock_names(c, locks_renamed(c->locks, x, y, exchange));
}

/* The names known beneath directory `from`, among paths 0 .. n-1, moved
 * beneath `to` by name_moved() (a directory renamed takes its tree with
 * it); with exchange, but a name whose counterpart is below `done`:
 * that pair was swapped already. */
static bool beneath_moved(struct sc *c, long from, long to, bool exchange, size_t n, size_t done)
{
	const char *f = c->paths.order[from], *t = c->paths.order[to];
	size_t flen = strlen(f), tlen = strlen(t);
	char buf[LOADFILE_MAX_LINE];

	if (strset_find(&c->parents, f, flen) < 0)
		return true;
	for (size_t i = 0; i < n; i++) {
		const char *p = c->paths.order[i];
		if (strncmp(p, f, flen) != 0 || p[flen] != '/')
			continue;
		size_t rest = strlen(p + flen);
		if (tlen + rest >= sizeof(buf))	/* no line could name it */
			continue;
		memcpy(buf, t, tlen);
		memcpy(buf + tlen, p + flen, rest);
		long j = intern(c, &c->paths, buf, tlen + rest);
		if (j < 0)
			return false;
		if ((size_t)j >= done && !name_moved(c, (long)i, j, exchange))
			return false;
	}
	return true;
}

/* rename (or an exchange of) from and to: the names and what is beneath
 * them; nothing for a name onto itself or onto another name of its file
 * (rename(2) does nothing for two hard links of one file). */
static bool renamed(struct sc *c, long from, long to, bool exchange)
{
	size_t n = c->paths.count;

	if (file_of(c, from) == file_of(c, to))
		return true;
	return name_moved(c, from, to, exchange) && beneath_moved(c, from, to, exchange, n, 0) &&
	       (!exchange || beneath_moved(c, to, from, true, n, n));
}

/* link from to: a link to a symbolic link is one; with follow
 * (AT_SYMLINK_FOLLOW), one to the file a link known at from points to,
 * the chain's end where that is a link too; beneath a link to a
 * directory, one to the name beneath its target (followed()). */
static bool linked(struct sc *c, long from, long to, bool follow)
{
	const char *p = c->paths.order[from];
	long target = followed(c, p, strlen(p), follow);

	if (target >= 0)
		from = target;
	return link_note(c, to, follow ? -1 : link_text_of(c, from)) &&
	       file_set(c, to, file_of(c, from)) &&
	       lock_names(c, locks_linked(c->locks, from, to));
}

/* After call r succeeded: the links it made, moved or removed, and the
 * files the locks know by these names (locks.h). */
static bool links_after(struct sc *c, struct row *r)
{
	uint32_t f = op_table[r->op->type].flags;
	/* renameat2's and linkat's FLAGS, where the call has them */
	int64_t flags = SIG_HAS(r, 'F') ? r->op->a[0] : 0;

	if (r->call->result < 0)
		return true;
	if (f & OPD_SYMLINK)
		return link_set(c, r->op->path, r->op->path2);
	if (f & OPD_RENAMES)
		return renamed(c, r->path[0], r->path[1], flags & RENAME_EXCHANGE);
	if (f & OPD_REMOVES) {
		locks_unlinked(c->locks, (uint32_t)r->path[0]);
		return name_gone(c, r->path[0]) &&
		       ((f & OPD_DIR) || link_note(c, r->path[0], -1));
	}
	if (f & OPD_LINKS)
		return linked(c, r->path[0], r->path[1], flags & AT_SYMLINK_FOLLOW);
	return true;
}

/* fork: the child copies each open descriptor of its parent's table, so
 * the fork reads each; a close by a thread sharing that table waits for
 * it (else the child's copy could be of a descriptor closed already). */
static void fork_reads(struct sc *c, struct row *r, uint16_t s, bool placed)
{
	struct table *tb = &c->tables[r->st->table];

	for (uint32_t fd = 0; fd < tb->n; fd++) {
		struct fdent *e = &tb->fd[fd];
		if (e->slot < 0)
			continue;
		if (placed)
			used(c, &e->res, s, r->call->seq, false);
		else
			use(c, &e->res, s, false);
	}
}

/* A position for op (its call already filled) at the end of stream st. */
static bool append_position(struct sc *c, struct sstream *st)
{
	size_t cap = st->cap;

	if (!grow(c, (void **)&st->ops, sizeof(uint32_t), &cap, st->nops + 1))
		return false;
	st->cap = cap;
	st->ops[st->nops++] = c->prog->nops;
	if (!optab_append(c->prog, &c->tab, (uint32_t)c->prog->nops, c->lx.line)) {
		lex_oom(&c->lx);
		return false;
	}
	c->prog->nops++;
	return true;
}

/* Place call r: its waits, its stream, its totals. */
static bool place(struct sc *c, struct row *r)
{
	struct use u[12];
	uint16_t s = r->call->stream;
	struct op *op = r->op;
	bool exec = op->type == OP_SYS_EXEC && op->a[2] == EXEC_ROW;

	c->nanc = 0;	/* an exec row names no path */
	if (op->type != OP_SYS_EXEC && !ancestors(c, r))
		return false;
	unsigned n = op->type != OP_SYS_EXEC ? resources(c, r, u) : 0;
	if (op->type == OP_SYS_EXEC && op->a[2] == EXEC_UNLOCK)	/* its descriptor: a read */
		u[n++] = (struct use){ .res = &r->ent->res };

	if (c->lx.err)
		return false;
	if (r->st->nops == 0 && r->st->parent != SC_NONE)
		want(c, r->st->parent, r->st->start_dep_seq);
	for (unsigned i = 0; i < n; i++)
		use(c, u[i].res, s, u[i].write);
	for (size_t i = 0; i < c->nanc; i++)
		use(c, &c->path_res[c->anc[i].idx], s, c->anc[i].write);
	if (op->type == OP_SYS_FORK)
		fork_reads(c, r, s, false);
	if ((exec && !exec_closes(c, r, s, false)) || !lock_effects(c, r, false))
		return false;
	lock_uses(c, s, false);
	place_waits(c, r->st, r->call);
	for (unsigned i = 0; i < n; i++)
		used(c, u[i].res, s, r->call->seq, u[i].write);
	for (size_t i = 0; i < c->nanc; i++)
		used(c, &c->path_res[c->anc[i].idx], s, r->call->seq, c->anc[i].write);
	if (!links_after(c, r))
		return false;
	if (op->type == OP_SYS_FORK)
		fork_reads(c, r, s, true);
	if ((exec && r->call->result == 0 && !exec_closes(c, r, s, true)) ||
	    !lock_effects(c, r, true))
		return false;
	lock_uses(c, s, true);
	table_after(c, r);
	for (size_t i = 0; i < c->ntouched; i++)
		used(c, &c->slot_res[c->touched[i]], s, r->call->seq, true);
	c->ntouched = 0;
	if (!op_is_untimed(op->type)) {
		const struct op_desc *d = &op_table[op->type];
		if (d->bytes == BYTES_READ)
			c->prog->bytes_read += op->a[1];
		else if (d->bytes == BYTES_WRITE)
			c->prog->bytes_written += op->a[1];
		c->prog->count[op->type]++;
	}
	if (!append_position(c, r->st))
		return false;
	r->st->last_line = c->lx.line;
	return !c->lx.err;
}

/* STREAM START DURATION: the row's stream, its times. */
static bool row_head(struct sc *c, struct row *r, const struct token *tok)
{
	int64_t id;
	double start, dur;

	if (!parse_int(c, &tok[0], false, &id) || !parse_time(c, &tok[1], "START", &start) ||
	    !parse_time(c, &tok[2], "DURATION", &dur))
		return false;
	if (id <= 0 || id > UINT32_MAX) {
		fail(c, "stream %" PRId64 " is not a positive number", id);
		return false;
	}
	if (start < c->last_start) {
		fail(c, "a call starting at %.6f, before the line above (%.6f)", start,
		     c->last_start);
		return false;
	}
	c->last_start = start;
	r->st = find_stream(c, (uint32_t)id, NULL);
	if (!r->st && c->nstreams == 0 && id == 1) {	/* stream 1 needs no start row */
		uint32_t t = new_table(c);
		r->st = t == UINT32_MAX ? NULL : new_stream(c, (uint32_t)id, t);
		if (!r->st)
			return false;
	} else if (!r->st) {
		fail(c, "stream %" PRId64 " was not started by a thread or fork row above", id);
		return false;
	}
	r->op->timestamp = start;
	r->call->duration = (float)dur;
	r->call->stream = r->st - c->streams;
	c->cur_stream = r->call->stream;
	r->call->seq = r->st->nops + 1;
	double gap = start - r->st->last_end;
	r->call->gap = gap > 0 ? (float)gap : 0;
	r->st->last_end = start + dur;
	if (start + dur > c->prog->duration)
		c->prog->duration = start + dur;
	return true;
}

/* Room for `need` operations and their calls, each set whole when it is
 * made: the room is not zeroed (grow_array_unset()). */
static bool grow_ops(struct sc *c, size_t need)
{
	size_t cap = c->cap, cap2 = c->cap;

	if (!grow_array_unset(c->prog, (void **)&c->ops, sizeof(struct op), &cap, need, 16) ||
	    !grow_array_unset(c->prog, (void **)&c->calls, sizeof(struct call), &cap2, need, 16)) {
		lex_oom(&c->lx);
		return false;
	}
	c->cap = cap < cap2 ? cap : cap2;
	return true;
}

static bool room_for_call(struct sc *c)
{
	if (c->prog->nops >= LOADFILE_MAX_OPS) {
		fail(c, "more than %d operations, the loadfile limit", LOADFILE_MAX_OPS);
		return false;
	}
	return c->prog->nops < c->cap || grow_ops(c, c->prog->nops + 1);
}

/*
 * A flock conversion (LOCK_SH to LOCK_EX or back, on a description that
 * holds the other) lets go of its lock before it asks for the new one, as
 * flock(2) does, and others may take the lock in between: here that is a
 * row of the compiler's before it, an exec row (EXEC_UNLOCK) at its line,
 * so that the conversion itself waits for its lock as any blocking call
 * does, not in the kernel, where another waiter woken by this release
 * could be first.  Call r moves one position on.
 */
static bool unlock_first(struct sc *c, struct row *r)
{
	struct lock_call lc;
	size_t pos = c->prog->nops;

	if (r->op->type != OP_SYS_FLOCK || !lock_call_of(c, r, &lc) || !lc.lock ||
	    (!lc.ok && !lc.busy) || locks_flock_of(c->locks, lc.req.owner) != !lc.req.excl)
		return true;
	if (pos + 1 >= LOADFILE_MAX_OPS) {
		fail(c, "more than %d operations, the loadfile limit", LOADFILE_MAX_OPS);
		return false;
	}
	if (!grow_ops(c, pos + 2))
		return false;
	c->ops[pos + 1] = *r->op;
	c->calls[pos + 1] = *r->call;
	struct op *op = &c->ops[pos];
	struct call *call = &c->calls[pos];
	r->op = &c->ops[pos + 1];
	r->call = &c->calls[pos + 1];
	*op = (struct op){ .type = OP_SYS_EXEC, .handle = HANDLE_NONE, .dir = DIR_NONE,
			   .dir2 = DIR_NONE, .fnum = -1, .repeat = 1, .flags = OPF_SYSCALL,
			   .timestamp = r->op->timestamp,
			   .a = { (int64_t)c->nslot_lists, 1, EXEC_UNLOCK } };
	*call = (struct call){ .handle2 = HANDLE_NONE, .stream = r->call->stream,
			       .seq = r->call->seq, .gap = r->call->gap };
	r->call->seq++;
	r->call->gap = 0;
	if (!slot_list_add(c, r->op->handle))
		return false;
	struct row first = { .op = op, .call = call, .st = r->st, .sig = &sigs[OP_SYS_EXEC],
			     .fd = { -1, -1 }, .path = { -1, -1 }, .ent = r->ent, .gone_desc = -1 };
	return place(c, &first);
}

static bool call_line(struct sc *c, const struct token *tok, int n)
{
	if (n < 4) {
		fail(c, "a call is STREAM START DURATION CALL ARGUMENTS... RESULT");
		return false;
	}
	int type = tok[3].quoted ? -1 : op_lookup_syscall(tok[3].s, tok[3].len);
	if (type < 0) {
		fail(c, "unknown call '%s'", tokstr(c, &tok[3]));
		return false;
	}
	if (!room_for_call(c))
		return false;
	c->in_calls = true;
	struct row r = { .sig = &sigs[type], .fd = { -1, -1 },
			 .path = { -1, -1 }, .gone_desc = -1 };
	r.op = &c->ops[c->prog->nops];
	r.call = &c->calls[c->prog->nops];
	*r.op = (struct op){ .type = type, .handle = HANDLE_NONE,
			     .dir = DIR_NONE, .dir2 = DIR_NONE, .fnum = -1, .repeat = 1,
			     .flags = OPF_SYSCALL };
	*r.call = (struct call){ .handle2 = HANDLE_NONE };
	if (type == OP_SYS_FCNTL && n - 5 == (int)strlen(fcntl_lock_sig.args))
		r.sig = &fcntl_lock_sig;
	int nargs = (int)strlen(r.sig->args);
	if (n - 5 != nargs) {
		fail(c, "%s takes %d argument%s and a RESULT, got %d field%s",
		     op_table[type].name, nargs, nargs == 1 ? "" : "s", n - 4, n == 5 ? "" : "s");
		return false;
	}
	if (!row_head(c, &r, tok) || !parse_args(c, &r, &tok[4]) ||
	    !parse_result(c, &r, &tok[n - 1]))
		return false;
	if (locks_waiting(c->locks) && !grant_waiters(c, r.op->timestamp, false))
		return false;
	lay_out_numbers(&r);
	if (type == OP_SYS_FCNTL && is_lock_command(r.op->a[0]) != (r.sig == &fcntl_lock_sig)) {
		fail(c, r.sig == &fcntl_lock_sig ? "fcntl with TYPE WHENCE START LEN takes a lock "
						   "command, not %" PRId64
						 : "fcntl's lock command %" PRId64 " takes TYPE WHENCE "
						   "START LEN", r.op->a[0]);
		return false;
	}
	for (int w = 0; w < 2; w++) {
		const char *p = w ? r.op->path2 : r.op->path;
		if (r.path[w] < 0 || !*p)
			continue;
		long d = dir_index(c, p, r.leaf_at[w], false);
		if (d < 0)
			return false;
		*(w ? &r.op->dir2 : &r.op->dir) = (uint16_t)d;
	}
	if (!check_call(c, &r) || !bind_descriptors(c, &r))
		return false;
	if (op_table[type].bytes != BYTES_NONE)	/* the bytes it counts */
		r.op->a[1] = (r.op->flags & OPF_ANY_STATUS) ? r.op->a[2]
			     : r.call->result > 0 ? r.call->result : 0;
	if (r.sig->result == 'S' && !start_stream(c, &r))
		return false;
	return unlock_first(c, &r) && place(c, &r);
}

/* ---- whole files ---- */

static const char *first_word(const char *text, size_t len, size_t *wlen)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s < eol && *s != '#') {
			const char *w = s;
			while (w < eol && *w != ' ' && *w != '\t' && *w != '\r')
				w++;
			*wlen = w - s;
			return s;
		}
		p = eol + 1;
	}
	*wlen = 0;
	return NULL;
}

/* Whether text's first line that is neither blank nor a comment begins
 * with the word "syscalls": a file of this dialect. */
static bool detect_file(const char *text, size_t len)
{
	size_t wlen;
	const char *w = first_word(text, len, &wlen);

	return w && wlen == 8 && memcmp(w, "syscalls", 8) == 0;
}

static bool compile_line(struct sc *c, const char *p, const char *end, bool *header)
{
	struct token tok[SC_MAX_TOKENS];
	const char *s = p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (end - s > 8 && memcmp(s, "# lost: ", 8) == 0 && !c->prog->lost) {
		c->prog->lost = talloc_strndup(c->prog, s + 8, (size_t)(end - s - 8));
		if (!c->prog->lost) {
			lex_oom(&c->lx);
			return false;
		}
	}
	if (s == end || *s == '#')
		return true;
	if (!lex_check_bytes(&c->lx, p, end))
		return false;
	int n = lex_tokenize(&c->lx, p, end, tok, SC_MAX_TOKENS, c->buf);
	if (n < 0)
		return false;
	if (!*header) {
		int64_t v;
		if (n != 2 || !lex_is(&tok[0], "syscalls") || tok[1].quoted ||
		    lex_digit(tok[1].s[0]) > 9) {
			fail(c, "the first line is 'syscalls 1'");
			return false;
		}
		if (!parse_int(c, &tok[1], false, &v))
			return false;
		if (v != 1) {
			fail(c, "version %" PRId64 " of the system-call dialect is not known "
				"(this dbench reads 1)", v);
			return false;
		}
		*header = true;
		return true;
	}
	if (lex_is(&tok[0], "init"))
		return init_line(c, tok, n);
	if (lex_is(&tok[0], "syscalls")) {
		fail(c, "a second 'syscalls' line");
		return false;
	}
	return call_line(c, tok, n);
}

/* ---- the end of the recording ---- */

/* A process (a table) as the recording ends: the stream of its table
 * whose last row comes last, and when the table's last call ended. */
struct table_end {
	uint32_t table;
	uint16_t carrier;
	uint32_t line;
	double end;
};

static int by_end(const void *a, const void *b)
{
	const struct table_end *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Whether the end of table t lets go of a lock, or of a descriptor whose
 * description keeps one to its last close. */
static bool end_matters(struct sc *c, uint32_t t)
{
	const struct table *tb = &c->tables[t];

	if (locks_proc_holds(c->locks, t))
		return true;
	for (uint32_t fd = 0; fd < tb->n; fd++) {
		const struct fdent *e = &tb->fd[fd];
		if (e->slot >= 0 && locks_close_matters(c->locks, t, e->desc))
			return true;
	}
	return false;
}

/*
 * The end of process te->table, which lets go of locks: an exec row of
 * the compiler's (EXEC_EXIT) at the end of the table's stream that ends
 * last, once its other streams have ended, closing every descriptor
 * still open in the table.  Timed when the last of them ended, or when
 * the last call it let have its lock returned, if later: the recording
 * has no row for a process's end.
 */
static bool add_exit(struct sc *c, const struct table_end *te)
{
	if (!room_for_call(c))
		return false;
	struct sstream *st = &c->streams[te->carrier];
	struct table *tb = &c->tables[te->table];
	struct op *op = &c->ops[c->prog->nops];
	struct call *call = &c->calls[c->prog->nops];
	struct call_dep me = { st->nops + 1, te->carrier };

	c->lx.line = te->line;
	c->cur_stream = te->carrier;
	*op = (struct op){ .type = OP_SYS_EXEC, .handle = HANDLE_NONE, .dir = DIR_NONE,
			   .dir2 = DIR_NONE, .fnum = -1, .repeat = 1, .timestamp = te->end,
			   .flags = OPF_SYSCALL, .a = { (int64_t)c->nslot_lists, 0, EXEC_EXIT } };
	*call = (struct call){ .handle2 = HANDLE_NONE, .stream = te->carrier, .seq = me.seq };
	for (unsigned i = 0; i < c->nstreams; i++) {
		if (i != te->carrier && c->streams[i].table == te->table && c->streams[i].nops)
			want(c, (uint16_t)i, c->streams[i].nops);
	}
	for (uint32_t fd = 0; fd < tb->n; fd++) {
		if (tb->fd[fd].slot >= 0)
			lock_close(c, te->table, tb->fd[fd].desc, me, false);
	}
	lock_uses(c, te->carrier, false);
	place_waits(c, st, call);
	for (uint32_t fd = 0; fd < tb->n; fd++) {
		if (tb->fd[fd].slot < 0)
			continue;
		if (!slot_list_add(c, (uint16_t)tb->fd[fd].slot))
			return false;
		op->a[1]++;
		lock_close(c, te->table, tb->fd[fd].desc, me, true);
		give_slot(c, &tb->fd[fd]);
	}
	locks_exit(c->locks, te->table);
	lock_uses(c, te->carrier, true);
	c->ntouched = 0;
	if (!append_position(c, st))
		return false;
	c->exit_op = op;
	bool ok = grant_waiters(c, INFINITY, false);
	c->exit_op = NULL;
	call->gap = op->timestamp > st->last_end ? (float)(op->timestamp - st->last_end) : 0;
	return ok && !c->lx.err;
}

/* The ends of the processes that let go of locks a call still waits
 * for, in the order they came; then every waiter left has its lock. */
static bool lock_exits(struct sc *c)
{
	if (!grant_waiters(c, INFINITY, false))
		return false;
	if (locks_waiting(c->locks) == 0)
		return true;
	struct table_end *te = talloc_array(c, struct table_end, c->ntables);
	if (!te) {
		lex_oom(&c->lx);
		return false;
	}
	for (unsigned t = 0; t < c->ntables; t++)
		te[t] = (struct table_end){ .table = t, .carrier = SC_NONE, .end = -1 };
	for (unsigned i = 0; i < c->nstreams; i++) {
		struct table_end *e = &te[c->streams[i].table];
		if (e->carrier == SC_NONE || c->streams[i].last_line >= e->line) {
			e->carrier = (uint16_t)i;
			e->line = c->streams[i].last_line;
		}
		if (c->streams[i].last_end > e->end)
			e->end = c->streams[i].last_end;
	}
	qsort(te, c->ntables, sizeof(*te), by_end);
	bool ok = true;
	for (unsigned t = 0; t < c->ntables && ok && locks_waiting(c->locks); t++) {
		if (te[t].carrier != SC_NONE && end_matters(c, te[t].table))
			ok = add_exit(c, &te[t]);
	}
	talloc_free(te);
	return ok && grant_waiters(c, INFINITY, true);
}

static int by_pos(const void *a, const void *b)
{
	const struct wait_edge *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Wait d into deps[start .. *n): a new one, or a later seq of a stream
 * already there. */
static void add_dep(struct call_dep *deps, size_t start, size_t *n, struct call_dep d)
{
	for (size_t i = start; i < *n; i++) {
		if (deps[i].stream == d.stream) {
			if (d.seq > deps[i].seq)
				deps[i].seq = d.seq;
			return;
		}
	}
	deps[(*n)++] = d;
}

/* The late waits into the calls' lists, each after the call's own. */
static bool merge_late(struct sc *c)
{
	if (c->nlate == 0)
		return true;
	qsort(c->late, c->nlate, sizeof(*c->late), by_pos);
	struct call_dep *deps = talloc_array(c->prog, struct call_dep, c->ndeps + c->nlate);
	if (!deps) {
		lex_oom(&c->lx);
		return false;
	}
	size_t n = 0, j = 0;
	for (size_t pos = 0; pos < c->prog->nops; pos++) {
		struct call *call = &c->calls[pos];
		size_t start = n;
		if (call->ndeps)
			memcpy(deps + n, c->deps + call->dep, call->ndeps * sizeof(*deps));
		n += call->ndeps;
		for (; j < c->nlate && c->late[j].pos == pos; j++)
			add_dep(deps, start, &n, c->late[j].dep);
		call->dep = (uint32_t)start;
		call->ndeps = (uint32_t)(n - start);
	}
	talloc_free(c->deps);
	c->deps = deps;
	c->ndeps = n;
	return true;
}

/* Call pos waits for dep: "FILE:LINE" of the call dep names, or the end
 * of its stream. */
static char *dep_row(struct sc *c, struct call_dep dep)
{
	const struct stream *st = &c->prog->streams[dep.stream];
	uint32_t pos = st->ops[(dep.seq && dep.seq <= st->nops ? dep.seq : st->nops) - 1];
	uint32_t line = loadfile_line(c->prog, pos);

	if (c->ops[pos].type == OP_SYS_EXEC && c->ops[pos].a[2] == EXEC_EXIT)
		return talloc_asprintf(c, "the end of stream %" PRIu32 " (after %s:%" PRIu32 ")",
				       st->id, c->lx.name, line);
	return talloc_asprintf(c, "%s:%" PRIu32, c->lx.name, line);
}

/* Whether the finished program's streams all finish, the late waits
 * counted; else the error naming a wait of the circle (a lock's, if one
 * is): the file cannot be replayed. */
static bool check_waits(struct sc *c)
{
	struct wait_edge *cycle;
	size_t ncycle, pick = 0;
	bool lock = false;

	if (c->nlate == 0 || waitcheck(c, c->prog, &cycle, &ncycle))
		return true;
	if (ncycle == 0) {
		lex_oom(&c->lx);
		return false;
	}
	for (size_t i = 0; i < ncycle && !lock; i++) {
		for (size_t j = 0; j < c->nlate && !lock; j++) {
			const struct wait_edge *e = &c->late[j];
			lock = e->pos == cycle[i].pos && e->dep.stream == cycle[i].dep.stream;
			pick = lock ? i : pick;
		}
	}
	const struct wait_edge *h = &cycle[pick];
	char *row = dep_row(c, h->dep);
	c->lx.err = row ? talloc_asprintf(c->prog, "%s:%" PRIu32 ": %s waits for %s%s, which waits "
				       "for it in turn: the replay would deadlock", c->lx.name,
				       loadfile_line(c->prog, h->pos),
				       op_table[c->ops[h->pos].type].name,
				       lock ? "the release of its lock at " : "", row)
		     : NULL;
	if (!c->lx.err)
		lex_oom(&c->lx);
	return false;
}

/* The streams' op lists and the rest into the program. */
static bool finish(struct sc *c)
{
	struct program *prog = c->prog;
	struct stream *st = talloc_array(prog, struct stream, c->nstreams ? c->nstreams : 1);

	if (!st) {
		lex_oom(&c->lx);
		return false;
	}
	for (unsigned i = 0; i < c->nstreams; i++) {
		st[i] = (struct stream){ .id = c->streams[i].id, .nops = c->streams[i].nops,
					 .ops = c->streams[i].ops };
		talloc_free(c->streams[i].waited);
	}
	prog->streams = st;
	prog->nstreams = c->nstreams;
	optab_finish(prog, &c->tab, prog);
	prog->ops = c->ops;
	prog->ndistinct = prog->nops;
	prog->calls = c->calls;
	prog->deps = c->deps;
	prog->ndeps = c->ndeps;
	prog->slot_lists = c->slot_lists;
	prog->init = c->init;
	prog->npaths = c->paths.count - c->nfresh;	/* not the identities of name_gone() */
	prog->dirs = c->dirs.order;
	prog->ndirs = c->dirs.count;
	prog->max_buffer = c->max_buffer;
	prog->max_transfer = c->max_buffer;
	return true;
}

static void free_scratch(struct sc *c)
{
	for (size_t i = 0; i < c->path_res_n; i++)
		talloc_free(c->path_res[i].readers);
	for (size_t i = 0; i < c->dir_res_n; i++)
		talloc_free(c->dir_res[i].readers);
	for (unsigned t = 0; t < c->ntables; t++) {
		for (uint32_t fd = 0; fd < c->tables[t].n; fd++)
			talloc_free(c->tables[t].fd[fd].res.readers);
		talloc_free(c->tables[t].fd);
	}
	for (unsigned i = 0; i < LOADFILE_MAX_HANDLES; i++)
		talloc_free(c->slot_res[i].readers);
	for (size_t i = 0; i < c->lock_res_n; i++)
		talloc_free(c->lock_res[i].readers);
	talloc_free(c->lock_res);
	talloc_free(c->lk);
	talloc_free(c->waiters);
	talloc_free(c->late);
	talloc_free(c->touched);
	talloc_free(c->anc);
	talloc_free(c->link_to);
	talloc_free(c->link_text);
	talloc_free(c->file_to);
	talloc_free(c->first_of);
	talloc_free(c->tables);
	talloc_free(c->path_res);
	talloc_free(c->dir_res);
	for (size_t i = 0; i < c->desc_res_n; i++)
		talloc_free(c->desc_res[i].readers);
	talloc_free(c->desc_res);
	talloc_free(c->free_slots);
	talloc_free(c->streams);
	strset_free_index(&c->paths);
	strset_free_index(&c->dirs);
}

static bool compile_file(struct program *prog, const char *name, const char *text,
			 size_t len, char **err, bool *oom)
{
	struct sc *c = talloc_zero(prog, struct sc);
	bool header = false, ok = false;

	*oom = false;
	*err = NULL;
	if (!c || !(c->free_slots = talloc_array(c, uint16_t, LOADFILE_MAX_HANDLES)) ||
	    strset_add(prog, &c->dirs, "", 0) != 0) {
		*oom = true;
		talloc_free(c);
		return false;
	}
	c->prog = prog;
	c->lx = (struct lex){ .mem = prog, .name = name, .escape = true };
	for (unsigned i = 0; i < LOADFILE_MAX_HANDLES; i++)
		c->slot_res[i].wstream = SC_NONE;
	if (!(c->locks = locks_new(c))) {
		*oom = true;
		talloc_free(c);
		return false;
	}
	for (const char *p = text, *end = text + len; p < end && !c->lx.err;) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		const char *stop = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
		c->lx.line++;
		if (eol - p > LOADFILE_MAX_LINE)
			fail(c, "line longer than %d bytes", LOADFILE_MAX_LINE);
		else
			compile_line(c, p, stop, &header);
		p = eol + 1;
	}
	if (!c->lx.err && prog->nops == 0 &&
	    !(c->lx.err = talloc_asprintf(prog, "%s: no calls in the recording", name)))
		lex_oom(&c->lx);
	if (!c->lx.err)
		ok = lock_exits(c) && merge_late(c) && finish(c) && check_waits(c);
	free_scratch(c);
	*oom = c->lx.oom;
	*err = c->lx.oom ? NULL : c->lx.err;
	talloc_free(c);
	return ok && !*oom;
}

const struct dialect syscalls_dialect = {
	.name = "system calls",
	.kinds = 1u << OP_DIALECT_SYSCALL,
	.detect_file = detect_file,
	.compile_file = compile_file,
};
