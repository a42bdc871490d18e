/*
 * devuse.h - whether a block device or a file that a backend writes in
 * place (block, scsi) is in use by something else, for the one error
 * line that refuses it (unless --force); and who holds a flock() on a
 * file, which localdir.c asks too.  Private to src/backends/.
 *
 * "In use" is what the kernel and procfs can tell: a device mounted, or
 * for a whole disk one of its partitions; a device or partition under a
 * device-mapper or md device (its holders); a swap device or swap file;
 * a file that is a loop device's backing file.  A device claimed
 * exclusively by another program (O_EXCL, as mount, mkfs and the md and
 * dm drivers do) is found by the caller's own O_EXCL open.  Reads sysfs
 * and procfs only; knows nothing of backends or runs.
 */
#ifndef DBENCH_BACKENDS_DEVUSE_H
#define DBENCH_BACKENDS_DEVUSE_H

#include <sys/stat.h>
#include <sys/types.h>

#include <talloc.h>

/* What uses block device `dev` (a disk or a partition): "mounted on
 * /mnt", "mounted on /boot (partition sda1)", "a swap area", "held by
 * dm-0"; NULL when nothing that can be seen does. */
char *devuse_block(TALLOC_CTX *mem_ctx, dev_t dev);

/* What uses regular file `st`: "the backing file of /dev/loop3", "a swap
 * file"; NULL when nothing that can be seen does. */
char *devuse_file(TALLOC_CTX *mem_ctx, const struct stat *st);

/* The pid of the process that holds a flock() on the file of `st`, from
 * /proc/locks; 0 when none is found.  A file system whose st_dev is not
 * its superblock's (btrfs) is matched by inode alone. */
pid_t devuse_lock_holder(const struct stat *st);

#endif
