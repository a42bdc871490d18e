/*
 * record.h - `dbench record` and `dbench convert`: a program's file
 * traffic as a loadfile of the system-call dialect (doc/SYSCALLS.md).
 *
 *   dbench record [-o FILE] [--root DIR ...] [--with-data] -- CMD [ARG...]
 *       runs CMD under strace and writes what it did beneath the roots
 *       (default: the current directory); exits with CMD's status, 2
 *       before CMD runs, EXIT_RECORDER (125) for its own failure after.
 *   dbench convert [-o FILE] [--root DIR ...] TRACE...
 *       the same from a trace made elsewhere: strace's -ff files (or
 *       their common prefix), a -f file, or fio's iolog (v2 or v3);
 *       exits 0, 2 for a trace it cannot convert, 1 for a loadfile it
 *       could not write.
 *
 * What either writes the compiler takes: it is compiled before it is
 * written (loadwriter.h).
 *
 * Both print a summary on standard error.  The implementation is the
 * record layer (src/record/); main.c dispatches to these two.
 */
#ifndef DBENCH_RECORD_H
#define DBENCH_RECORD_H

/* argv[0] is "record" / "convert"; returns the exit status. */
int record_main(int argc, const char **argv);
int convert_main(int argc, const char **argv);

#endif
