/*
 * modload.h - the parts of dbench built as loadable modules (the smb,
 * nfs and iscsi backends, the bpf tracer of `dbench record`), found and
 * loaded by one function, so that their libraries are mapped only by a
 * process that uses them.
 *
 * A module NAME.so is read from $DBENCH_MODULE_DIR when it is set (and
 * the process is not set-id: secure_getenv()), else from the build
 * tree's module directory beside the executable (DBENCH_MODULE_REL,
 * relative to /proc/self/exe), else from the lib/dbench beside the
 * executable's bin directory (PREFIX/lib/dbench), where make install puts
 * them.  Knows nothing of what a module holds.
 *
 * A module is code run with the user's rights, root's often, from the
 * moment it is opened (its constructors, its libraries').  So before it
 * is opened:
 *  - its path is resolved one component at a time, as the kernel would,
 *    and the file, every directory passed through up to / and every
 *    symbolic link followed must be owned by root or the user dbench
 *    runs as (its effective uid), and writable by no one else: not by
 *    anyone, and not by a group with another member; a directory that
 *    others may write but is sticky (as /tmp) passes, for what is in it
 *    must then be root's or the user's too (git's safe.directory and
 *    ld.so's secure mode are the models);
 *  - the file must carry the note every module is built with (modnote.c:
 *    an ELF note "dbench", type MODLOAD_NOTE_TYPE) saying the version of
 *    the interface it was built for, MODLOAD_VERSION, the same as the
 *    binary's: a module of another build (stale, foreign) would read the
 *    binary's structures with another layout.
 * Then the symbol asked for must be a data object of the size the caller
 * expects (a function or an int of that name is no backend).
 */
#ifndef DBENCH_MODLOAD_H
#define DBENCH_MODLOAD_H

#include <stddef.h>

#include <talloc.h>

/* The interface between the binary and its modules: MODLOAD_ABI is
 * raised by hand when what a module may rely on changes without a header
 * changing; DBENCH_IFACE_HASH, the Makefile's hash of the headers the
 * modules compile against, changes with any of them. */
#define MODLOAD_ABI 1
#define MODLOAD_NOTE_NAME "dbench"
#define MODLOAD_NOTE_TYPE 1
#define MODLOAD_STR_(x) #x
#define MODLOAD_STR(x) MODLOAD_STR_(x)
#ifdef DBENCH_IFACE_HASH
#define MODLOAD_VERSION "ABI " MODLOAD_STR(MODLOAD_ABI) ", interface " DBENCH_IFACE_HASH
#endif

/*
 * The address of `symbol`, a data object of `size` bytes, in module
 * `name` (NAME.so), loaded once per process (a second call finds it
 * loaded); NULL with *err (on mem_ctx, one line) naming the file and why:
 * what on its path others could write, the versions when the module is
 * of another build, dlerror()'s reason.
 */
void *modload_symbol(TALLOC_CTX *mem_ctx, const char *name, const char *symbol, size_t size,
		     char **err);

/* The directory modules are read from, on mem_ctx. */
char *modload_dir(TALLOC_CTX *mem_ctx);

#endif
