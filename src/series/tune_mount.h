/*
 * tune_mount.h - a mount's options as dbench tune changes them (a
 * setting "mount:/mnt/x", tune_setting.h): read from
 * /proc/self/mountinfo, changed by one remount (mount(2), MS_REMOUNT)
 * with a value's options added, and put back as found.
 *
 * A value is options joined by '+' ("noatime", "noatime+commit=60").
 * The VFS's own (ro/rw, noatime/relatime/strictatime, nodiratime,
 * nosuid, nodev, noexec, sync, dirsync, lazytime, nosymfollow and their
 * opposites) become the remount's flags, every one of them given, so
 * that what is not changed stays as found; the rest are the file
 * system's, passed as its data.  A remount is read back: each flag must
 * be as asked and each file-system option shown in the mount's options,
 * or the value is refused with what the mount shows.
 *
 * The file system's options cannot always be put back: a kernel shows
 * only those that differ from its defaults.  So before anything
 * changes, mount_check_values() refuses "key=value" where the mount does
 * not show key= as found (what to put back is unknown).  Putting back
 * works from what the mount shows then: a key's value as found, a word
 * set since by its opposite ("discard" by "nodiscard"), a word gone by
 * itself; and it is read back: the options shown must be those as
 * found.
 *
 * Knows nothing of runs or the race.
 */
#ifndef DBENCH_TUNE_MOUNT_H
#define DBENCH_TUNE_MOUNT_H

#include <stdbool.h>

#include <talloc.h>

/* A mount as found. */
struct mount_found {
	char *source;		/* what is mounted (for the message) */
	char *vfs;		/* the mount's own options: "rw,relatime" */
	char *super;		/* its file system's: "rw,commit=60" */
};

/* The mount whose mount point is path (the topmost there), into *m on
 * mem_ctx; false and *err when path is no mount point. */
bool mount_read(TALLOC_CTX *mem_ctx, const char *path, struct mount_found *m, char **err);

/* Whether the values to be raced (values[0..n)) can be put back from:
 * false and *err when one sets an option that could not be (or is
 * empty). */
bool mount_check_values(TALLOC_CTX *mem_ctx, const struct mount_found *m,
			const char *const *values, size_t n, char **err);

/* The mount's options now, as a value is shown: its own options, and
 * the file system's but for rw/ro ("rw,relatime" or
 * "rw,relatime,commit=60"), on mem_ctx. */
char *mount_text(TALLOC_CTX *mem_ctx, const struct mount_found *m);

/* Remount path with value's options added to those as found (m), and
 * read it back; false and *err (what the kernel said, or what the mount
 * shows) when not.  *now gets the options shown afterwards. */
bool mount_apply(TALLOC_CTX *mem_ctx, const char *path, const struct mount_found *m,
		 const char *value, char **now, char **err);

/* Remount path as found (m), if it is not, and read it back; *now gets
 * the options shown afterwards. */
bool mount_put_back(TALLOC_CTX *mem_ctx, const char *path, const struct mount_found *m,
		    char **now, char **err);

#endif
