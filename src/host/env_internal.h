/*
 * env_internal.h - the text parsers behind env_capture(), exposed only so
 * that tests/unit/test_env.c can feed them fixture text.  Not part of the
 * public interface (that is include/env.h); nothing outside src/host/env.c and
 * its unit test should include this.
 *
 * Every function takes the text it parses rather than a path, allocates its
 * result on mem_ctx, and returns NULL (or -1) for "not there" or "cannot
 * parse"; none prints.
 */
#ifndef DBENCH_ENV_INTERNAL_H
#define DBENCH_ENV_INTERNAL_H

#include <jansson.h>
#include <talloc.h>

/* The mount in mountinfo TEXT that holds PATH (a realpath): among the lines
 * whose major:minor is MAJOR:MINOR, the one whose mount point is the
 * longest prefix of PATH, the later line winning a tie (it is mounted on
 * top).  When no line has that device (a btrfs subvolume's own anonymous
 * device), the longest prefix among all lines.  NULL when nothing matches. */
struct env_mount *env_mountinfo_find(TALLOC_CTX *mem_ctx, const char *text,
				     unsigned major, unsigned minor,
				     const char *path);

/* The options as findmnt's OPTIONS column shows them (libmount's
 * merge_optstr): VFS then superblock options, with every "rw" and "ro"
 * taken out and one "ro" or "rw" put in front, "ro" if either side is
 * read-only.  Identical strings are returned once. */
char *env_merge_options(TALLOC_CTX *mem_ctx, const char *vfs, const char *fs);

/* The source as findmnt's SOURCE column shows it: "SOURCE", or
 * "SOURCE[ROOT]" for a bind mount or a subvolume (root other than "/"). */
char *env_mount_source(TALLOC_CTX *mem_ctx, const struct env_mount *m);

/* The active scheduler in the text of a queue/scheduler file: the
 * [bracketed] word, or the only word when there are no brackets. */
char *env_parse_scheduler(TALLOC_CTX *mem_ctx, const char *text);

/* The "queue" object of the block device whose resolved sysfs directory
 * is SYSDIR (/sys/devices/.../block/sda or .../sda/sda1): read from
 * SYSDIR/queue or, for a partition (SYSDIR/partition exists), from the
 * parent directory's queue.  JSON null when there is no queue directory;
 * NULL only when memory runs out. */
json_t *env_block_queue(TALLOC_CTX *mem_ctx, const char *sysdir);

/* The CPU model in the text of /proc/cpuinfo: the first "model name", else
 * "Hardware", "Processor" or "cpu model" (as ARM and MIPS name it). */
char *env_parse_cpu_model(TALLOC_CTX *mem_ctx, const char *text);

/* MemTotal in the text of /proc/meminfo, in bytes; -1 when absent. */
long long env_parse_mem_total(const char *text);

#endif
