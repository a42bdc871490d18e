/*
 * modload.h - the parts of dbench built as loadable modules (the smb,
 * nfs and iscsi backends, the bpf tracer of `dbench record`), found and
 * loaded by one function, so that their libraries are mapped only by a
 * process that uses them.
 *
 * A module NAME.so is read from $DBENCH_MODULE_DIR when it is set, else
 * from the build tree's module directory beside the executable
 * (DBENCH_MODULE_REL, relative to /proc/self/exe), else from the
 * lib/dbench beside the executable's bin directory (PREFIX/lib/dbench),
 * where make install puts them.  Knows nothing of what a module holds.
 */
#ifndef DBENCH_MODLOAD_H
#define DBENCH_MODLOAD_H

#include <talloc.h>

/*
 * The address of `symbol` in module `name` (NAME.so), loaded once per
 * process (a second call finds it loaded); NULL with *err (on mem_ctx)
 * naming the file and dlerror()'s reason.
 */
void *modload_symbol(TALLOC_CTX *mem_ctx, const char *name, const char *symbol, char **err);

/* The directory modules are read from, on mem_ctx. */
char *modload_dir(TALLOC_CTX *mem_ctx);

#endif
