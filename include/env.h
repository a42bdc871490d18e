/*
 * env.h - a record of the machine and tunables a result came from.
 *
 * Read at run time from uname(2), /proc and /sys, and from the mount table
 * for each target directory, and returned as the JSON "environment" object
 * of a result (doc/DESIGN.md, "Output"):
 *
 *   hostname; kernel {sysname, release, version, machine};
 *   cpu {model, count}; memory_bytes;
 *   targets: [{directory, fstype, source, mount_options, block_device,
 *              queue {scheduler, read_ahead_kb, nr_requests, rotational},
 *              backing_file, backing_device, backing_queue {as queue}}
 *             or, for a target its backend describes, {directory, ...its facts}]
 *   (the backing_* keys name a loop device's file and the device and queue
 *   under it; null for any other device)
 *   vm {dirty_ratio, dirty_background_ratio, dirty_expire_centisecs,
 *       dirty_writeback_centisecs, swappiness, vfs_cache_pressure}
 *
 * A fact that cannot be read is JSON null, never a guess.  Nothing here
 * prints or exits.
 */
#ifndef DBENCH_ENV_H
#define DBENCH_ENV_H

#include <jansson.h>
#include <talloc.h>

#include "dockey.h"

/* What a backend said of one target (backend.h target_describe()):
 * members of its element of "targets", by their rows of dockeys.def. */
struct env_facts {
	const struct dockey_value *v;	/* the values taken over */
	size_t n;
};

/*
 * The environment object for a run on these targets; a new reference, or
 * NULL only when memory runs out.  `described` is NULL or has an entry per
 * target: none (n 0) for a local directory (its mount and device are
 * looked up), or the facts its backend gave, which stand in for the
 * mount's (a device or file named itself has both).
 */
json_t *env_capture(const char *const *dirs, unsigned ndirs, const struct env_facts *described);

/* The resolved sysfs directory (/sys/devices/.../block/sda/sda1) of the
 * block device holding PATH, as "block_device" names it; NULL when PATH
 * is on none (tmpfs, NFS) or cannot be looked at. */
char *env_block_sysdir(TALLOC_CTX *mem_ctx, const char *path);

/* The type of the file system holding PATH ("tmpfs", "nfs4"), from the
 * mount table; NULL when PATH or its mount cannot be looked at. */
char *env_fstype(TALLOC_CTX *mem_ctx, const char *path);

/* The backing file of the loop device at sysfs directory SYSDIR
 * (SYSDIR/loop/backing_file); NULL for any other device. */
char *env_loop_backing(TALLOC_CTX *mem_ctx, const char *sysdir);

/* One line of /proc/self/mountinfo, escapes (\040 and friends) decoded.
 * The strings are talloc children of the struct. */
struct env_mount {
	unsigned major, minor;	/* field 3, the superblock's st_dev */
	char *root;		/* field 4, the mount's root within the fs */
	char *mount_point;	/* field 5 */
	char *vfs_options;	/* field 6, per-mount options */
	char *fstype;		/* first field after " - " */
	char *source;		/* second field after " - " */
	char *fs_options;	/* third field after " - ", superblock options */
};

/* Parses one mountinfo line (ending at a newline or the string's end);
 * optional fields before the "-" separator are skipped.  NULL when the line
 * is not in mountinfo format or memory runs out. */
struct env_mount *env_mountinfo_parse_line(TALLOC_CTX *mem_ctx,
					   const char *line);

#endif
