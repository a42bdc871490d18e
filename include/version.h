/* version.h - the program's version, printed by --version and in results. */
#ifndef DBENCH_VERSION_H
#define DBENCH_VERSION_H
#define DBENCH_VERSION "0.1.0"
#endif
