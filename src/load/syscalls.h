/*
 * syscalls.h - the system-call dialect's compiler (doc/SYSCALLS.md),
 * private to src/load/: loadfile_compile() hands it a file that begins
 * with "syscalls 1".
 */
#ifndef DBENCH_LOAD_SYSCALLS_H
#define DBENCH_LOAD_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>

#include "loadfile.h"

/* Whether text's first line that is neither blank nor a comment begins
 * with the word "syscalls": a file of this dialect. */
bool syscalls_is_dialect(const char *text, size_t len);

/*
 * Compile text into prog (zeroed but for its source), as
 * loadfile_compile() does the other dialects: on success true; else
 * false with *err a "NAME:LINE: ..." message on prog (NULL when memory
 * ran out, *oom then true).  What prog holds after a failure is freed
 * with it.
 */
bool syscalls_compile(struct program *prog, const char *name, const char *text,
		      size_t len, char **err, bool *oom);

#endif
