/*
 * series.h - what every series of runs does between them, for --sweep
 * and dbench ab alike: the rest (a sync, the page cache dropped if
 * asked, a pause) and the time left said in words.
 */
#ifndef DBENCH_SERIES_H
#define DBENCH_SERIES_H

#include <stdbool.h>

/* Between runs: sync, drop the page cache when asked (root), then rest
 * `settle` seconds (cut short by a signal). */
void series_rest(unsigned settle, bool drop_caches);

/* "1 h 02 min", "25 min 30 s", "45 s": s seconds into buf. */
const char *series_duration(char buf[32], unsigned long s);

#endif
