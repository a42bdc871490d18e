/*
 * selfdir.h - where the program's own files are: the backends' modules
 * and the loadfiles shipped with it, found from the executable itself
 * (/proc/self/exe), so that one binary finds them wherever it lies and
 * nothing of an installation's PREFIX is built into it.
 *
 * A binary in its build tree finds the tree's copies beside it; one
 * installed as PREFIX/bin/dbench finds PREFIX/lib/dbench and
 * PREFIX/share/dbench.  `make install` copies the tree's binary as it is.
 *
 * Below everything: it knows nothing of modules or loadfiles.
 */
#ifndef DBENCH_SELFDIR_H
#define DBENCH_SELFDIR_H

#include <talloc.h>

/*
 * The directory of one kind of the program's files, on mem_ctx: `built`
 * relative to the executable's directory where that is a directory (the
 * build tree's, "build/modules" or "loadfiles"), else `installed`
 * relative to the parent of the executable's directory ("lib/dbench"
 * for PREFIX/bin/dbench).  An executable that cannot be read is taken
 * to be in the current directory.  NULL when out of memory.
 */
char *selfdir_find(TALLOC_CTX *mem_ctx, const char *built, const char *installed);

#endif
