/*
 * tune_setting.h - the settings dbench tune races (tune.h): what each
 * is, its value as found, writing a value and reading it back, putting
 * the value as found back, and each setting's line in the journal
 * (tune_journal.h) that puts them back after a crash.
 *
 * A setting is one of:
 *   a sysctl       "vm.dirty_ratio" or "/proc/sys/vm/dirty_ratio": the
 *                  file under /proc/sys;
 *   a sysfs file   "/sys/block/loop0/queue/read_ahead_kb": any writable
 *                  attribute under /sys; where the file lists choices
 *                  with the current one in brackets ("[none] kyber", a
 *                  scheduler), the bracketed one is its value;
 *   a mount        "mount:/mnt/x": the mount at that point, remounted
 *                  with a value's options added (tune_mount.h);
 *   an environment variable "env:NAME", set in this process (and so in
 *                  the clients forked by each run);
 *   the run's own options "opt": words added to a run's command line,
 *                  which the caller turns into a run plan; nothing to
 *                  write here.
 * A value is written only after the setting has been found (its path is
 * under /proc/sys or /sys once resolved, exists and opens for writing;
 * the mount is one), and every write is read back: a value the kernel
 * refuses, or keeps another way than written (rounds it), is an error
 * naming the value read.  The first three change the machine and go in
 * the journal; the last two end with the process.
 *
 * Knows nothing of runs, candidates or the race: values in, errors out
 * (one line each, on the context given, never printed here).
 */
#ifndef DBENCH_TUNE_SETTING_H
#define DBENCH_TUNE_SETTING_H

#include <stdbool.h>
#include <stddef.h>

#include <talloc.h>

enum setting_kind {
	SETTING_SYSCTL,
	SETTING_SYSFS,
	SETTING_MOUNT,
	SETTING_ENV,
	SETTING_OPT,
};

struct mount_found;

struct setting {
	enum setting_kind kind;
	const char *key;		/* as the user wrote it: "vm.dirty_ratio" */
	const char *path;		/* the file written (resolved), the mount
					 * point, the variable's name; NULL for opt */
	const char **values;		/* the values to race, as given */
	size_t nvalues;
	const char *found;		/* the value as found; NULL for an unset
					 * variable; "" for opt (no words added) */
	const char *now;		/* the value in place, as last written */
	struct mount_found *mount;	/* SETTING_MOUNT: the mount as found */
};

/* A setting named by key, with no value yet: NULL and *err ("not a
 * setting: ...") when the key names no kind above.  Nothing is read. */
struct setting *setting_new(TALLOC_CTX *mem_ctx, const char *key, char **err);

/* "KEY=V1,V2,...": a setting and its values, each of which may be
 * quoted with '...' or "..." (to hold a comma); an empty value is one
 * (opt's '' = no words).  NULL and *err when malformed. */
struct setting *setting_parse(TALLOC_CTX *mem_ctx, const char *spec, char **err);

/* Add a value (a copy) unless the setting has it already; false when out
 * of memory. */
bool setting_add_value(struct setting *s, const char *value);

/* Find the setting on this machine: resolve and check its path (under
 * /proc/sys or /sys, there, writable) or its mount point, and read its
 * value as found into found and now.  False and *err otherwise; nothing
 * is written. */
bool setting_find(struct setting *s, char **err);

/* Whether the setting changes the machine (sysctl, sysfs, mount): what
 * the journal must hold. */
bool setting_on_machine(const struct setting *s);

/* Whether two values are the same value of s (blanks between words
 * counted once; for opt and env exactly). */
bool setting_same(const struct setting *s, const char *a, const char *b);

/* Put value in place and read it back: true when the setting now holds
 * it (and s->now is it); else *err, naming what the kernel said or kept
 * ("the kernel keeps 4"), with s->now what was read.  Nothing is written
 * when value is already in place.  value NULL for env: unset. */
bool setting_set(struct setting *s, const char *value, char **err);

/* Put the value as found back, and read it back; false and *err when it
 * could not be (s->now then says what is in place). */
bool setting_restore(struct setting *s, char **err);

/* "vm.dirty_ratio=10" (or "env:X unset"), on mem_ctx. */
char *setting_label(TALLOC_CTX *mem_ctx, const struct setting *s, const char *value);

/* ---- the journal's lines ---- */

/* The setting as found, as one line of the journal (no newline): its
 * kind, where it is and what to put back, fields escaped so that no
 * value can make a second line or field. */
char *setting_journal_line(TALLOC_CTX *mem_ctx, const struct setting *s);

/* A line of the journal read back as a setting that setting_restore()
 * can put back, its path checked again as setting_find() does (a
 * journal's word is never taken for where to write).  NULL and *err
 * when the line is malformed or names no setting of the machine. */
struct setting *setting_from_journal_line(TALLOC_CTX *mem_ctx, const char *line, char **err);

#endif
