/*
 * unforked.h - memory of the parent that the client processes do not
 * inherit (MADV_DONTFORK), for src/run/ alone.
 *
 * Two kinds of the parent's memory want it.  What the parent writes
 * between forks (the pids): in ordinary memory each write would leave the
 * child forked just before with a copy of the page.  And what only the
 * parent ever uses but must make before the first fork (the groups of
 * figures the end of the run fills): a child that inherited it would
 * unmap its copy on its way out, and a thousand children doing so at
 * once queue on the lock of the memory they all inherited from the one
 * parent (its anon_vma), some ten a second on two busy CPUs.  Knows
 * nothing of what the memory holds.
 */
#ifndef DBENCH_UNFORKED_H
#define DBENCH_UNFORKED_H

#include <stddef.h>

#include <talloc.h>

/* len zeroed bytes of such memory, unmapped when mem_ctx is freed in the
 * process that made it (a child freeing its copy of mem_ctx never had
 * them, and leaves them alone); NULL when out of memory. */
void *unforked_zero(TALLOC_CTX *mem_ctx, size_t len);

#endif
