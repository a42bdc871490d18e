/*
 * ops.h - the table of loadfile operations and NT status codes.
 *
 * Operations are data: one row per operation names it, gives its short
 * alias, lists the kinds of its arguments in loadfile order and says
 * whether it moves bytes.  The parser, the backends and the reporters all
 * read this table instead of repeating a switch over operation names.
 *
 * Two dialects share the table.  The rows up to OP_FLUSH are dbench 4's
 * SMB-flavoured operations, which name open files by trace handle; the
 * rows from OP_GETATTR3 on are dbench 5.0's NFS ones (GETATTR3, READ3,
 * ..., LOCK4), which name every file by path and whose status column is
 * an NFS3 status (0x...) or "*" for any outcome.  A loadfile may mix them.
 * The rows OP_SYS_FIRST .. OP_SYS_LAST are the system-call dialect's
 * (doc/SYSCALLS.md, src/load/syscalls.c), one per call, named exactly as
 * strace prints them ("openat", "pread64"); a file of that dialect holds
 * nothing else, and the other dialects' lookup (op_lookup()) never finds
 * them.  The rows OP_SMB_FIRST .. OP_SMB_LAST are dbench 5.0's SMB
 * dialect (OPEN, READ, WRITE, CLOSE ... by path, status SUCCESS, ERROR or
 * "*"); some share a name with a dbench 4 row ("CLOSE", "Mkdir"), so a
 * row is told to be of it by its shape (src/load/smbload.c), and only
 * op_lookup_smb() finds them.  The rows OP_BLOCK_FIRST .. OP_SCSI_LAST
 * are dbench 5.0's block dialect (READ, WRITE at an offset of one device,
 * FDATASYNC) and its SCSI dialect (TESTUNITREADY, READ10, PROUT ...: a
 * SCSI command each), status 0x.. or "*" (src/load/blockload.c); the
 * block dialect's READ and WRITE are told from the SMB dialect's by their
 * shape too (an offset first, not a path), and are named Read, Write and
 * Fdatasync in the table, so that no two rows share a name in a report.
 *
 * NT status codes are the expected-outcome column of a dbench 4 loadfile.
 * We keep the names and numeric values of the codes that real traces use;
 * an operation succeeds when its expected status is NT_STATUS_OK and fails
 * otherwise.
 */
#ifndef DBENCH_OPS_H
#define DBENCH_OPS_H

#include <stdbool.h>
#include <stdint.h>

enum op_type {
	OP_NTCREATEX,
	OP_CLOSE,
	OP_RENAME,
	OP_UNLINK,
	OP_DELTREE,
	OP_RMDIR,
	OP_MKDIR,
	OP_QPATHINFO,
	OP_QFILEINFO,
	OP_QFSINFO,
	OP_SFILEINFO,
	OP_FINDFIRST,
	OP_WRITEX,
	OP_READX,
	OP_LOCKX,
	OP_UNLOCKX,
	OP_FLUSH,
	/* the NFS dialect (dbench 5.0's nfs*.load); op_is_nfs() */
	OP_GETATTR3,
	OP_SETATTR3,
	OP_LOOKUP3,
	OP_ACCESS3,
	OP_READLINK3,
	OP_READ3,
	OP_WRITE3,
	OP_CREATE3,
	OP_MKDIR3,
	OP_SYMLINK3,
	OP_REMOVE3,
	OP_RMDIR3,
	OP_RENAME3,
	OP_LINK3,
	OP_READDIRPLUS3,
	OP_FSSTAT3,
	OP_FSINFO3,
	OP_PATHCONF3,
	OP_COMMIT3,
	OP_LOCK4,
	OP_UNLOCK4,
	OP_TEST4,
	/* the system-call dialect (doc/SYSCALLS.md): one row per call, named
	 * as strace prints it; op_is_syscall().  The last three (thread, fork,
	 * exec) are performed but neither timed nor counted. */
	OP_SYS_OPEN,
	OP_SYS_OPENAT,
	OP_SYS_CREAT,
	OP_SYS_CLOSE,
	OP_SYS_READ,
	OP_SYS_PREAD,
	OP_SYS_READV,
	OP_SYS_PREADV,
	OP_SYS_WRITE,
	OP_SYS_PWRITE,
	OP_SYS_WRITEV,
	OP_SYS_PWRITEV,
	OP_SYS_LSEEK,
	OP_SYS_FSYNC,
	OP_SYS_FDATASYNC,
	OP_SYS_SYNC_FILE_RANGE,
	OP_SYS_FTRUNCATE,
	OP_SYS_TRUNCATE,
	OP_SYS_FALLOCATE,
	OP_SYS_STAT,
	OP_SYS_LSTAT,
	OP_SYS_FSTAT,
	OP_SYS_NEWFSTATAT,
	OP_SYS_STATX,
	OP_SYS_ACCESS,
	OP_SYS_FACCESSAT,
	OP_SYS_GETDENTS,
	OP_SYS_MKDIR,
	OP_SYS_MKDIRAT,
	OP_SYS_RMDIR,
	OP_SYS_UNLINK,
	OP_SYS_UNLINKAT,
	OP_SYS_RENAME,
	OP_SYS_RENAMEAT,
	OP_SYS_RENAMEAT2,
	OP_SYS_LINK,
	OP_SYS_LINKAT,
	OP_SYS_SYMLINK,
	OP_SYS_SYMLINKAT,
	OP_SYS_READLINK,
	OP_SYS_READLINKAT,
	OP_SYS_CHMOD,
	OP_SYS_FCHMODAT,
	OP_SYS_FCHMOD,
	OP_SYS_CHOWN,
	OP_SYS_LCHOWN,
	OP_SYS_FCHOWN,
	OP_SYS_FCHOWNAT,
	OP_SYS_UTIMENSAT,
	OP_SYS_FUTIMENS,
	OP_SYS_GETXATTR,
	OP_SYS_LGETXATTR,
	OP_SYS_FGETXATTR,
	OP_SYS_SETXATTR,
	OP_SYS_LSETXATTR,
	OP_SYS_FSETXATTR,
	OP_SYS_LISTXATTR,
	OP_SYS_LLISTXATTR,
	OP_SYS_FLISTXATTR,
	OP_SYS_REMOVEXATTR,
	OP_SYS_LREMOVEXATTR,
	OP_SYS_FREMOVEXATTR,
	OP_SYS_STATFS,
	OP_SYS_FSTATFS,
	OP_SYS_COPY_FILE_RANGE,
	OP_SYS_SENDFILE,
	OP_SYS_DUP,
	OP_SYS_DUP2,
	OP_SYS_DUP3,
	OP_SYS_FCNTL,
	OP_SYS_CHDIR,
	OP_SYS_FCHDIR,
	OP_SYS_FLOCK,
	OP_SYS_THREAD,
	OP_SYS_FORK,
	OP_SYS_EXEC,
	/* dbench 5.0's SMB dialect (smb*.load, src/load/smbload.c): files
	 * named by path, SUCCESS, ERROR or * for the status; op_is_smb(). */
	OP_SMB_OPEN,
	OP_SMB_CLOSE,
	OP_SMB_READ,
	OP_SMB_WRITE,
	OP_SMB_MKDIR,
	OP_SMB_RMDIR,
	OP_SMB_UNLINK,
	OP_SMB_READDIR,
	OP_SMB_DELTREE,
	/* dbench 5.0's block dialect (block*.load, src/load/blockload.c): a
	 * device read and written at offsets; op_is_block(). */
	OP_BLOCK_READ,
	OP_BLOCK_WRITE,
	OP_BLOCK_FDATASYNC,
	/* its SCSI dialect (scsi.load, iscsi*.load): a command each, status
	 * the SCSI status expected; op_is_scsi(). */
	OP_SCSI_TESTUNITREADY,
	OP_SCSI_READ6,
	OP_SCSI_READ10,
	OP_SCSI_READ16,
	OP_SCSI_WRITE10,
	OP_SCSI_WRITE16,
	OP_SCSI_READCAPACITY10,
	OP_SCSI_SYNCHRONIZECACHE10,
	OP_SCSI_PROUT,
	OP_COUNT
};

#define OP_SYS_FIRST OP_SYS_OPEN
#define OP_SYS_LAST OP_SYS_EXEC
#define OP_SMB_FIRST OP_SMB_OPEN
#define OP_SMB_LAST OP_SMB_DELTREE
#define OP_BLOCK_FIRST OP_BLOCK_READ
#define OP_BLOCK_LAST OP_BLOCK_FDATASYNC
#define OP_SCSI_FIRST OP_SCSI_TESTUNITREADY
#define OP_SCSI_LAST OP_SCSI_PROUT

/* What one loadfile argument is; the parser validates and decodes by kind. */
enum arg_kind {
	ARG_PATH,	/* quoted "\clients\client1\..." path, stored client-relative */
	ARG_HANDLE,	/* fnum chosen by the trace, compiled to a handle slot */
	ARG_NUM,	/* any C integer: levels, flags, attributes, counts */
	ARG_OFFSET,	/* file offset: 0 .. OP_MAX_OFFSET; in an NFS or dbench 5.0
			 * SMB row also an expression evaluated as it runs
			 * (loadfile.h) */
	ARG_SIZE,	/* transfer or lock length: 0 .. OP_MAX_SIZE */
	ARG_BYTE,	/* a SCSI row's small field, 0 .. 255: packed into a[2],
			 * a byte each from the lowest (loadfile.h) */
};

/* Which way an operation moves data, for byte accounting. */
enum op_bytes {
	BYTES_NONE,
	BYTES_READ,
	BYTES_WRITE,
};

#define OP_MAX_ARGS 5
#define OP_MAX_SIZE (16 * 1024 * 1024)		/* largest ReadX/WriteX/LockX size */
#define OP_MAX_OFFSET (INT64_C(1) << 50)	/* 1 PiB: beyond that it is garbage */

struct op_desc {
	const char *name;	/* canonical dbench 4 spelling, e.g. "NTCreateX" */
	const char *alias;	/* short name accepted too, e.g. "Qpathinfo", or NULL */
	uint8_t nargs;		/* arguments between the name and the status */
	uint8_t args[OP_MAX_ARGS];	/* enum arg_kind of each argument */
	uint8_t bytes;		/* enum op_bytes */
	uint8_t size_arg;	/* index in args[] of the byte count, when bytes != NONE */
};

extern const struct op_desc op_table[OP_COUNT];

/* Whether operation type t is of the NFS dialect (status column NFS3). */
static inline bool op_is_nfs(int t)
{
	return t >= OP_GETATTR3 && t <= OP_TEST4;
}

/* Whether operation type t is a call of the system-call dialect. */
static inline bool op_is_syscall(int t)
{
	return t >= OP_SYS_FIRST && t <= OP_SYS_LAST;
}

/* Whether operation type t is of dbench 5.0's SMB dialect. */
static inline bool op_is_smb(int t)
{
	return t >= OP_SMB_FIRST && t <= OP_SMB_LAST;
}

/* Whether operation type t is of dbench 5.0's block dialect. */
static inline bool op_is_block(int t)
{
	return t >= OP_BLOCK_FIRST && t <= OP_BLOCK_LAST;
}

/* Whether operation type t is a command of the SCSI dialect (its status
 * column, op.status, is the SCSI status expected: 0 is GOOD). */
static inline bool op_is_scsi(int t)
{
	return t >= OP_SCSI_FIRST && t <= OP_SCSI_LAST;
}

/* Whether operation type t is performed but neither timed nor counted:
 * the system-call dialect's thread, fork and exec rows. */
static inline bool op_is_untimed(int t)
{
	return t >= OP_SYS_THREAD && t <= OP_SYS_EXEC;
}

/* The operation of the dbench 4 or NFS dialect named `name` (case-
 * insensitive, canonical or alias), or -1. */
int op_lookup(const char *name, size_t len);

/* The call of the system-call dialect named `name` (exactly, its strace
 * name or an alias: "pread64", "pread"), or -1. */
int op_lookup_syscall(const char *name, size_t len);

/* The operation of dbench 5.0's SMB dialect named `name` (case-
 * insensitive: "Deltree" is DELTREE), or -1. */
int op_lookup_smb(const char *name, size_t len);

/* The row of dbench 5.0's block or SCSI dialect named `name` as its
 * loadfiles spell it (case-insensitive: READ, WRITE, FDATASYNC, READ10,
 * PROUT ...), or -1. */
int op_lookup_block(const char *name, size_t len);

/* The SCSI status `status` by its SAM name, "RESERVATION CONFLICT", or
 * "status 0x.." for one without a name (a static string). */
const char *scsi_status_name(unsigned status, char buf[16]);

/* What an operation of type t expected, when its status is `status`, for
 * a message: "RESERVATION CONFLICT (0x18)" for a SCSI row, else the NT
 * status name.  In buf (at least 48 bytes), or a static string. */
const char *op_status_name(int t, unsigned status, char *buf, size_t len);

/*
 * NT status codes.  NT_OK is index 0 so that "expects success" is a test
 * against zero.
 */
enum nt_status {
	NT_OK,
	NT_OBJECT_NAME_NOT_FOUND,
	NT_NO_SUCH_FILE,
	NT_OBJECT_PATH_NOT_FOUND,
	NT_OBJECT_NAME_COLLISION,
	NT_OBJECT_NAME_INVALID,
	NT_ACCESS_DENIED,
	NT_SHARING_VIOLATION,
	NT_FILE_IS_A_DIRECTORY,
	NT_NOT_A_DIRECTORY,
	NT_DIRECTORY_NOT_EMPTY,
	NT_INVALID_HANDLE,
	NT_INVALID_PARAMETER,
	NT_END_OF_FILE,
	NT_DISK_FULL,
	NT_LOCK_NOT_GRANTED,
	NT_FILE_LOCK_CONFLICT,
	NT_RANGE_NOT_LOCKED,
	NT_DELETE_PENDING,
	NT_CANNOT_DELETE,
	NT_NO_MORE_FILES,
	NT_NOT_IMPLEMENTED,
	NT_UNSUCCESSFUL,
	NT_STATUS_COUNT,
	/* dbench 3 lines carry no status: success, or failure for fnum -1 */
};

/* "NT_STATUS_OBJECT_NAME_NOT_FOUND" etc. */
const char *nt_status_name(enum nt_status s);

/* Decode a status token: an NT_STATUS_ name or its 0x value.  Returns the
 * status, or -1 when the token is not a status we know. */
int nt_status_lookup(const char *tok, size_t len);

/* The NT status an NFS3 status number stands for, so that an NFS row's
 * expectation reads as a dbench 4 one: 0 (NFS3_OK) is NT_OK, the common
 * errors their NT twins, any other number NT_UNSUCCESSFUL. */
enum nt_status nt_status_of_nfs3(uint32_t nfs3);

#endif
