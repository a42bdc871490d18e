/*
 * tune_journal.h - dbench tune's journal: the file that keeps each
 * setting of the machine as found (tune_setting.h), so that what a tune
 * changed can be put back whatever became of it.
 *
 * It is written and fsynced (with its directory) before the first
 * setting changes, made anew (never over a file that is there), mode
 * 0600; removed only once every setting is back.  A tune killed on the
 * way (SIGKILL, a crash, the machine's power) leaves it, and
 * `dbench tune --restore` reads it back and puts the settings back from
 * it; a new tune refuses to start while it is there.
 *
 * The journal says what root writes where, so it is trusted only as a
 * module is (trust.h): neither it nor any directory on its way could
 * have been written by a user other than root and the one dbench runs
 * as, and it has one link.  What it says is checked again as a setting
 * given on the command line is (tune_setting.h): only the values come
 * from it, never where they are written.
 *
 * The format, a line each, tab-separated fields escaped with %XX:
 *   dbench tune journal 1
 *   # comments
 *   pid	PID				(the tune that wrote it)
 *   sysctl	/proc/sys/vm/dirty_ratio	20
 *   sysfs	/sys/devices/.../read_ahead_kb	128
 *   mount	/mnt/x	rw,relatime	rw	/dev/loop0
 *
 * Knows nothing of runs or the race.
 */
#ifndef DBENCH_TUNE_JOURNAL_H
#define DBENCH_TUNE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <talloc.h>

#include "series/tune_setting.h"

#define JOURNAL_NAME ".dbench-tune-journal"

/* DIR/.dbench-tune-journal, on mem_ctx. */
char *journal_path(TALLOC_CTX *mem_ctx, const char *dir);

/* NULL when there is no file at path; else why a tune cannot start
 * there, naming it: a journal a tune left (and how to put it back), or
 * the tune that is running with it. */
char *journal_in_the_way(TALLOC_CTX *mem_ctx, const char *path);

struct journal;

/* Make the journal at path with every setting of settings[0..n) that is
 * on the machine, as found; fsynced, with its directory.  NULL and *err
 * when it cannot be made, or could be changed by another user (then it
 * is removed again): nothing may change before it is there. */
struct journal *journal_write(TALLOC_CTX *mem_ctx, const char *path,
			      struct setting *const *settings, size_t n, char **err);

/* Remove the journal (every setting being back), and fsync its
 * directory; false and *err when it cannot be. */
bool journal_remove(struct journal *j, char **err);

/* Read the journal at path back as settings to put back (into *settings,
 * *n, on mem_ctx): NULL-free, each found again on this machine.  False
 * and *err when there is none, it may not be trusted (*untrusted true),
 * a tune is still running with it, or a line is not understood (the
 * file and line named). */
bool journal_read(TALLOC_CTX *mem_ctx, const char *path, struct setting ***settings,
		  size_t *n, bool *untrusted, char **err);

/* Remove the journal at path once journal_read() settings are back. */
bool journal_unlink(TALLOC_CTX *mem_ctx, const char *path, char **err);

#endif
