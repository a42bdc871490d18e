/*
 * initstate.h - what a recording found already there: its initial state
 * (doc/SYSCALLS.md, "The initial state").
 *
 * `dbench record` walks its roots before the command starts (bounded,
 * never following a symbolic link, never crossing into another file
 * system) and keeps each entry's type, mode, size and link target, and
 * with --with-data the bytes of each regular file.  After the command,
 * the initial state is what the walk found of what the rows touched:
 * each path named, every directory above it, the entries of a directory
 * whose listing was read, and the targets of the symbolic links among
 * them, parents first.
 *
 * `dbench convert` has no walk: the initial state is inferred from the
 * calls (initstate_infer()).
 *
 * Knows nothing of strace or of the writer.
 */
#ifndef RECORD_INITSTATE_H
#define RECORD_INITSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

#include "record/recording.h"

/* The most entries a walk keeps; past it the walk stops and says so. */
#define WALK_MAX_ENTRIES 1000000

struct walk;

/*
 * Walk rec's roots (rec->roots, rec->base set; the FIFOs, sockets and
 * devices found go into rec->special), leaving out directory
 * `skip` (the recorder's own scratch directory) when not NULL.  With
 * with_data the regular files' bytes are kept, at most max_data bytes in
 * all.  NULL on failure with *err a message on mem_ctx (a root that cannot
 * be read, the data over max_data).
 */
struct walk *walk_roots(TALLOC_CTX *mem_ctx, struct recording *rec, const char *skip,
			bool with_data, uint64_t max_data, char **err);

/* Whether the walk stopped at WALK_MAX_ENTRIES. */
bool walk_cut(const struct walk *w);

/* rec->init from the walk and rec->touched.  false when memory ran out. */
bool initstate_choose(struct recording *rec, const struct walk *w);

#endif
