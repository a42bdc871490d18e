/*
 * version.h - the program's version, the one place it is set: --version,
 * the classic and dbench4 banners, every JSON document's dbench_version
 * and tbench_srv's --version print it; the manual pages' .TH lines carry
 * it too (tests/shell/test_docs.sh checks that they agree).
 *
 * MAJOR.MINOR.PATCH, each a whole number.  The major number follows the
 * tools this one replaces, dbench 4.0 and 5.0: a version comparison
 * (dpkg, rpm, a harness's) orders 6.0.0 after both, and a new major number,
 * not 5.1, says that the defaults differ from 5.0's (the built-in workload,
 * the text layout).  MINOR grows with what is added, PATCH with fixes.
 */
#ifndef DBENCH_VERSION_H
#define DBENCH_VERSION_H
#define DBENCH_VERSION "6.0.0"
#endif
