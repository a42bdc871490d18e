/*
 * ops.h - the table of loadfile operations and NT status codes.
 *
 * Operations are data: one row per operation, defined once in
 * include/ops.def, names it, gives its short alias, lists the kinds of
 * its arguments in loadfile order and says whether it moves bytes.  The
 * enum and op_table below are made from it, as are the other views of
 * the table (the system-call dialect's signatures, the recorder's calls);
 * the parser, the backends and the reporters all read it instead of
 * repeating a switch over operation names.
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

/* The operations, in the order of include/ops.def, which defines them. */
enum op_type {
#define OP(id, ...) OP_##id,
#define SYSCALL(id, ...) OP_SYS_##id,
#include "ops.def"
	OP_COUNT
};

/* The first and last rows of each dialect, whose rows ops.def keeps
 * together: for the backends' tables, which name them as ranges (a unit
 * test holds the table to it). */
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

/* The dialect a row is of (ops.def's DIALECT column). */
enum op_dialect {
	OP_DIALECT_DBENCH4,	/* dbench 4.0's rows: open files by handle */
	OP_DIALECT_NFS,		/* dbench 5.0's NFS rows: status NFS3 */
	OP_DIALECT_SYSCALL,	/* the system-call dialect's calls */
	OP_DIALECT_SMB5,	/* dbench 5.0's SMB rows: files by path */
	OP_DIALECT_BLOCK,	/* dbench 5.0's block rows: one device */
	OP_DIALECT_SCSI,	/* its SCSI rows: a command each, a SCSI status */
	OP_DIALECT_COUNT
};

/*
 * What a row means (ops.def's FLAGS column), for the compilers, the
 * replay and the recorder, which ask these rather than an operation's
 * type: the rows of the dialects of rows,
 */
enum op_flag {
	OPD_OPENS = 1u << 0,	/* opens a handle or descriptor on its path */
	OPD_CLOSES = 1u << 1,	/* closes one */
	OPD_HANDLE = 1u << 2,	/* names an open handle (dbench 4.0's fnum; 5.0
				 * SMB's path, which stands for one) */
	OPD_CLIENTS_DIR = 1u << 3,	/* may name \clients, which all clients share */
	OPD_WHOLE = 1u << 4,	/* moves its whole length, or fails (5.0's SMB) */
	OPD_PATTERN = 1u << 5,	/* its path's last component may be a wildcard */
	/* and the system-call dialect's calls, */
	OPD_CREAT = 1u << 6,	/* creat: open with O_CREAT|O_WRONLY|O_TRUNC, its
				 * first number MODE */
	OPD_DUPS = 1u << 7,	/* a new descriptor, a copy of FD (dup, dup2, dup3) */
	OPD_MAKES = 1u << 8,	/* makes the name PATH (mkdir, symlink) */
	OPD_REMOVES = 1u << 9,	/* removes the name PATH (unlink, rmdir) */
	OPD_RENAMES = 1u << 10,	/* moves the name PATH to NEW */
	OPD_LINKS = 1u << 11,	/* makes NEW a name of PATH's file */
	OPD_DIR = 1u << 12,	/* what it makes or removes is a directory */
	OPD_SYMLINK = 1u << 13,	/* what it makes is a symbolic link to TARGET */
	OPD_READS = 1u << 14,	/* changes nothing it names (stat, read ...) */
	OPD_STATS = 1u << 15,	/* gives a file's attributes (stat's family) */
	OPD_RESIZES = 1u << 16,	/* sets a file's size or blocks (truncate,
				 * fallocate) */
	OPD_MOVES_OFFSET = 1u << 17,	/* moves its descriptor's offset */
	OPD_SEEKS = 1u << 18,	/* sets that offset to its result (lseek) */
	OPD_COPIES = 1u << 19,	/* moves bytes from one descriptor to another */
	OPD_OUT_FIRST = 1u << 20,	/* its first descriptor is the one written
					 * (sendfile; copy_file_range's is read) */
	OPD_LISTS = 1u << 21,	/* lists the directory of its descriptor */
	OPD_CHDIR = 1u << 22,	/* changes the working directory */
	OPD_READLINK = 1u << 23,	/* reads a symbolic link's target */
	OPD_LOCK = 1u << 24,	/* a lock call: flock, fcntl with a lock command;
				 * its order is its file's locks' */
	OPD_UNTIMED = 1u << 25,	/* performed, neither timed nor counted: the
				 * thread, fork and exec rows */
};

struct op_desc {
	const char *name;	/* canonical dbench 4 spelling, e.g. "NTCreateX" */
	const char *alias;	/* short name accepted too, e.g. "Qpathinfo", or NULL */
	uint8_t nargs;		/* arguments between the name and the status */
	uint8_t args[OP_MAX_ARGS];	/* enum arg_kind of each argument */
	uint8_t bytes;		/* enum op_bytes */
	uint8_t size_arg;	/* index in args[] of the byte count, when bytes != NONE */
	uint8_t dialect;	/* enum op_dialect */
	uint32_t flags;		/* enum op_flag */
};

extern const struct op_desc op_table[OP_COUNT];

/* Whether operation type t has every flag of `f` (OPD_*). */
static inline bool op_has(int t, uint32_t f)
{
	return (op_table[t].flags & f) == f;
}

/* Whether operation type t is of the NFS dialect (status column NFS3). */
static inline bool op_is_nfs(int t)
{
	return op_table[t].dialect == OP_DIALECT_NFS;
}

/* Whether operation type t is a call of the system-call dialect. */
static inline bool op_is_syscall(int t)
{
	return op_table[t].dialect == OP_DIALECT_SYSCALL;
}

/* Whether operation type t is of dbench 5.0's SMB dialect. */
static inline bool op_is_smb(int t)
{
	return op_table[t].dialect == OP_DIALECT_SMB5;
}

/* Whether operation type t is of dbench 5.0's block dialect. */
static inline bool op_is_block(int t)
{
	return op_table[t].dialect == OP_DIALECT_BLOCK;
}

/* Whether operation type t is a command of the SCSI dialect (its status
 * column, op.status, is the SCSI status expected: 0 is GOOD). */
static inline bool op_is_scsi(int t)
{
	return op_table[t].dialect == OP_DIALECT_SCSI;
}

/* Whether operation type t is performed but neither timed nor counted:
 * the system-call dialect's thread, fork and exec rows. */
static inline bool op_is_untimed(int t)
{
	return op_table[t].flags & OPD_UNTIMED;
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
