/*
 * sysio.h - the system-call dialect replayed on a local directory, for
 * the fileio backend (private to src/backends/).
 *
 * One client's replay state: its root (DIR/clients/clientN, the
 * recording's root), its descriptors by slot, its read buffer.  Every
 * call is one of the recording's, made again beneath the root: a path is
 * resolved with openat2(RESOLVE_IN_ROOT), so that a symbolic link, even
 * an absolute one, never leads out of it; a call on the link itself
 * (lstat, unlink, rename ...) works on its parent directory so resolved.
 * The streams of a client call sysio_op() from threads of their own at
 * once: nothing here changes but the slot the call opens or closes,
 * which the recording's order (loadfile.h's waits) keeps to one stream
 * at a time.
 */
#ifndef DBENCH_BACKENDS_SYSIO_H
#define DBENCH_BACKENDS_SYSIO_H

#include <stddef.h>
#include <talloc.h>

#include "loadfile.h"

struct sysio;

/*
 * The replay state of client directory `name` beneath `clients_fd` (which
 * must outlive it), on mem_ctx; it makes the initial state for the first
 * pass.  `pattern` (of `len` bytes, or NULL) is what writes send, shared
 * by every client (sysio_fill_pattern()); without it the state has its
 * own.  NULL and errno when it cannot.
 */
struct sysio *sysio_new(TALLOC_CTX *mem_ctx, const struct program *prog, int clients_fd,
			const char *name, const char *pattern, size_t len);

/* About how much memory sysio_new() holds for prog, with talloc's
 * overhead (backend.h client_mem()). */
size_t sysio_mem(const struct program *prog);

/* The bytes every write sends: a fixed pattern, into buf. */
void sysio_fill_pattern(char *buf, size_t len);

/* Perform one call: 0 when it returned what the recording says, a
 * positive errno when it failed with that one, BACKEND_OTHER_RESULT when
 * it succeeded with another value, BACKEND_SKIPPED when a descriptor it
 * names was not opened, BACKEND_NOT_SUPPORTED for what this replay cannot
 * express. */
int sysio_op(struct sysio *s, const struct op *op);

/* A new pass: close what is open and make the initial state again in the
 * root, which the caller has emptied (or made anew).  0 or a positive
 * errno. */
int sysio_pass_start(struct sysio *s);

/* Close every descriptor of the replay (before the cleanup). */
void sysio_close_all(struct sysio *s);

#endif
