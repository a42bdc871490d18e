/*
 * infer.h - the initial state of a trace made elsewhere, inferred from
 * its calls (`dbench convert` has no walk of the roots), and the walk
 * of `dbench record -p` made to agree with the calls (the processes went
 * on between the walk and the attach).
 *
 * It keeps two views of the paths beneath the roots.  One is what each
 * name was before the trace began: there (a stat, an open without
 * O_CREAT, an unlink that succeeded, a mkdir that found it: EEXIST),
 * not there (its first call failed with ENOENT, or made it), or unknown.
 * The other is what each name means as the trace goes: the name of the
 * initial state it came from, or nothing when the trace made it (mkdir,
 * an open with O_CREAT, symlink, link's new name) or removed it.  A
 * rename moves a name's meaning, its children's too, so that a file
 * first seen under the name a rename gave it is placed under the name
 * it had before; nothing beneath a directory the trace made is of the
 * initial state.  A file opened with O_CREAT (not O_EXCL) that a read
 * found bytes in before any write, or stat found bytes in, existed; a
 * rename that failed with EEXIST found both its names there.
 *
 * Every directory above a path that existed existed too, and an entry
 * whose parent is not one of the state's directories is left out, so
 * that the state is one the compiler takes.  Types and modes come from
 * what stat printed (st_mode), else from the call (rmdir, chdir,
 * O_DIRECTORY, getdents: a directory); a file's size from what stat
 * printed before the trace changed it, else the furthest a read reached
 * (exactly, when a read came back short).
 *
 * Knows nothing of strace's text beyond the call's arguments, nor of
 * descriptors: the translation keeps, for each open file description,
 * the struct infer_file its open returned and hands it back for the
 * calls on the descriptor.
 */
#ifndef RECORD_INFER_H
#define RECORD_INFER_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "record/recording.h"
#include "record/strace_line.h"

struct infer;

/* A file of the initial state as a descriptor opened it (opaque). */
struct infer_file;

struct infer *infer_new(TALLOC_CTX *mem_ctx);

/* One row, as the inference sees it. */
struct infer_row {
	int op;				/* the row's call, OP_SYS_* (ops.h) */
	const char *shape;		/* strace's arguments of it (ops.def's STRACE) */
	const struct sc_call *c;	/* strace's call: its arguments, its outcome */
	const char *rel, *rel2;		/* the paths named (rename's and link's two) */
	struct infer_file *file;	/* the descriptor's (the one read, for a copy) */
	struct infer_file *file2;	/* copy_file_range's and sendfile's written one */
	uint64_t extent;		/* a read's end: its offset plus what it read */
	uint64_t asked;			/* what a read asked for */
	struct infer_file *opened;	/* out: what an open opened, for its descriptor */
};

/* Take one row; false when memory ran out. */
bool infer_call(struct infer *inf, struct infer_row *row);

/* rec->init from what was inferred, parents first.  false when memory
 * ran out. */
bool infer_finish(struct infer *inf, struct recording *rec);

/* rec->init, chosen from a walk made before the calls were traced (-p:
 * the processes went on in between), made to agree with the calls: a
 * name whose first call found it there joins it, a name (and what lies
 * beneath it) that the calls found not there, or made when it could
 * not have been there, leaves it.  false when memory ran out. */
bool infer_reconcile(struct infer *inf, struct recording *rec);

#endif
