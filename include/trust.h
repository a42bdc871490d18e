/*
 * trust.h - whether a file that decides what dbench does may be trusted:
 * whether anyone but root and the user dbench runs as could have written
 * it, or changed what its path leads to.  A module it loads (modload.h)
 * and the journal of `dbench tune` (which says what root writes where)
 * are read only when no one else could have.
 *
 * The path is resolved one component at a time, as the kernel would,
 * and the file, every directory passed through up to / and every
 * symbolic link followed must be owned by root or the user dbench runs
 * as (its effective uid), and writable by no one else: not by anyone,
 * not through an ACL entry, and not by a group with another member; a
 * directory that others may write but is sticky (as /tmp) passes, for
 * what is in it must then be root's or the user's too (git's
 * safe.directory and ld.so's secure mode are the models).
 *
 * Below everything: knows nothing of modules, runs or settings.
 */
#ifndef DBENCH_TRUST_H
#define DBENCH_TRUST_H

#include <stdbool.h>

#include <talloc.h>

/* `path` resolved, a regular file, with nothing on the way that another
 * user could have written: the path it resolves to (on mem_ctx), or NULL
 * and *why, one line naming what is wrong ("/x is writable by anyone
 * (mode 777)", "/x/y: No such file or directory"); *others says whether
 * it was another user's hand (the caller's reason to trust nothing more
 * may follow) rather than a file missing or of another kind. */
char *trust_path(TALLOC_CTX *mem_ctx, const char *path, char **why, bool *others);

#endif
