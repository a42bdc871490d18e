/*
 * summary.h - what a recording holds and what it left out, as the lines
 * `dbench record` and `dbench convert` print on standard error: streams,
 * calls by type, bytes, files, duration, and the calls left out with
 * why (paths outside the roots by top directory, memory-mapped I/O,
 * calls with no row, descriptors not beneath the roots, calls with no
 * outcome).
 *
 * Knows nothing of how the recording was made.
 */
#ifndef RECORD_SUMMARY_H
#define RECORD_SUMMARY_H

#include <stdio.h>

#include "record/recording.h"

/* Print rec's summary to f, written to `output`. */
void summary_print(FILE *f, const struct recording *rec, const char *output);

#endif
