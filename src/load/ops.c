/*
 * ops.c - the operation table and the NT status names (see ops.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops.h"

#define A(...) { __VA_ARGS__ }

const struct op_desc op_table[OP_COUNT] = {
	[OP_NTCREATEX] = { "NTCreateX", NULL, 4,
			   A(ARG_PATH, ARG_NUM, ARG_NUM, ARG_HANDLE), BYTES_NONE, 0 },
	[OP_CLOSE]     = { "Close", NULL, 1, A(ARG_HANDLE), BYTES_NONE, 0 },
	[OP_RENAME]    = { "Rename", NULL, 2, A(ARG_PATH, ARG_PATH), BYTES_NONE, 0 },
	[OP_UNLINK]    = { "Unlink", NULL, 2, A(ARG_PATH, ARG_NUM), BYTES_NONE, 0 },
	[OP_DELTREE]   = { "Deltree", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_RMDIR]     = { "Rmdir", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_MKDIR]     = { "Mkdir", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_QPATHINFO] = { "QUERY_PATH_INFORMATION", "Qpathinfo", 2,
			   A(ARG_PATH, ARG_NUM), BYTES_NONE, 0 },
	[OP_QFILEINFO] = { "QUERY_FILE_INFORMATION", "Qfileinfo", 2,
			   A(ARG_HANDLE, ARG_NUM), BYTES_NONE, 0 },
	[OP_QFSINFO]   = { "QUERY_FS_INFORMATION", "Qfsinfo", 1,
			   A(ARG_NUM), BYTES_NONE, 0 },
	[OP_SFILEINFO] = { "SET_FILE_INFORMATION", "Sfileinfo", 2,
			   A(ARG_HANDLE, ARG_NUM), BYTES_NONE, 0 },
	[OP_FINDFIRST] = { "FIND_FIRST", "Find", 4,
			   A(ARG_PATH, ARG_NUM, ARG_NUM, ARG_NUM), BYTES_NONE, 0 },
	[OP_WRITEX]    = { "WriteX", NULL, 4,
			   A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE, ARG_SIZE), BYTES_WRITE, 2 },
	[OP_READX]     = { "ReadX", NULL, 4,
			   A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE, ARG_SIZE), BYTES_READ, 2 },
	[OP_LOCKX]     = { "LockX", NULL, 3,
			   A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE), BYTES_NONE, 0 },
	[OP_UNLOCKX]   = { "UnlockX", NULL, 3,
			   A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE), BYTES_NONE, 0 },
	[OP_FLUSH]     = { "Flush", NULL, 1, A(ARG_HANDLE), BYTES_NONE, 0 },

	[OP_GETATTR3]  = { "GETATTR3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SETATTR3]  = { "SETATTR3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_LOOKUP3]   = { "LOOKUP3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_ACCESS3]   = { "ACCESS3", NULL, 3, A(ARG_PATH, ARG_NUM, ARG_NUM), BYTES_NONE, 0 },
	[OP_READLINK3] = { "READLINK3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_READ3]     = { "READ3", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_READ, 2 },
	[OP_WRITE3]    = { "WRITE3", NULL, 4,
			   A(ARG_PATH, ARG_OFFSET, ARG_SIZE, ARG_NUM), BYTES_WRITE, 2 },
	[OP_CREATE3]   = { "CREATE3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_MKDIR3]    = { "MKDIR3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SYMLINK3]  = { "SYMLINK3", NULL, 2, A(ARG_PATH, ARG_PATH), BYTES_NONE, 0 },
	[OP_REMOVE3]   = { "REMOVE3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_RMDIR3]    = { "RMDIR3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_RENAME3]   = { "RENAME3", NULL, 2, A(ARG_PATH, ARG_PATH), BYTES_NONE, 0 },
	[OP_LINK3]     = { "LINK3", NULL, 2, A(ARG_PATH, ARG_PATH), BYTES_NONE, 0 },
	[OP_READDIRPLUS3] = { "READDIRPLUS3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_FSSTAT3]   = { "FSSTAT3", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_FSINFO3]   = { "FSINFO3", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_PATHCONF3] = { "PATHCONF3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_COMMIT3]   = { "COMMIT3", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_LOCK4]     = { "LOCK4", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_NONE, 0 },
	[OP_UNLOCK4]   = { "UNLOCK4", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_NONE, 0 },
	[OP_TEST4]     = { "TEST4", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_NONE, 0 },

	/* The system-call dialect: its arguments are src/load/syscalls.c's
	 * business (nargs 0 here); a call moving bytes counts a[1]. */
	[OP_SYS_OPEN] = { "open", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_OPENAT] = { "openat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_CREAT] = { "creat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_CLOSE] = { "close", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_READ] = { "read", NULL, 0, A(0), BYTES_READ, 1 },
	[OP_SYS_PREAD] = { "pread64", "pread", 0, A(0), BYTES_READ, 1 },
	[OP_SYS_READV] = { "readv", NULL, 0, A(0), BYTES_READ, 1 },
	[OP_SYS_PREADV] = { "preadv", "preadv2", 0, A(0), BYTES_READ, 1 },
	[OP_SYS_WRITE] = { "write", NULL, 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_PWRITE] = { "pwrite64", "pwrite", 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_WRITEV] = { "writev", NULL, 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_PWRITEV] = { "pwritev", "pwritev2", 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_LSEEK] = { "lseek", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FSYNC] = { "fsync", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FDATASYNC] = { "fdatasync", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_SYNC_FILE_RANGE] = { "sync_file_range", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FTRUNCATE] = { "ftruncate", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_TRUNCATE] = { "truncate", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FALLOCATE] = { "fallocate", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_STAT] = { "stat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LSTAT] = { "lstat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FSTAT] = { "fstat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_NEWFSTATAT] = { "newfstatat", "fstatat", 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_STATX] = { "statx", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_ACCESS] = { "access", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FACCESSAT] = { "faccessat", "faccessat2", 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_GETDENTS] = { "getdents64", "getdents", 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_MKDIR] = { "mkdir", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_MKDIRAT] = { "mkdirat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_RMDIR] = { "rmdir", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_UNLINK] = { "unlink", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_UNLINKAT] = { "unlinkat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_RENAME] = { "rename", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_RENAMEAT] = { "renameat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_RENAMEAT2] = { "renameat2", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LINK] = { "link", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LINKAT] = { "linkat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_SYMLINK] = { "symlink", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_SYMLINKAT] = { "symlinkat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_READLINK] = { "readlink", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_READLINKAT] = { "readlinkat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_CHMOD] = { "chmod", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCHMODAT] = { "fchmodat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCHMOD] = { "fchmod", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_CHOWN] = { "chown", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LCHOWN] = { "lchown", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCHOWN] = { "fchown", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCHOWNAT] = { "fchownat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_UTIMENSAT] = { "utimensat", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FUTIMENS] = { "futimens", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_GETXATTR] = { "getxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LGETXATTR] = { "lgetxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FGETXATTR] = { "fgetxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_SETXATTR] = { "setxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LSETXATTR] = { "lsetxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FSETXATTR] = { "fsetxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LISTXATTR] = { "listxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LLISTXATTR] = { "llistxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FLISTXATTR] = { "flistxattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_REMOVEXATTR] = { "removexattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_LREMOVEXATTR] = { "lremovexattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FREMOVEXATTR] = { "fremovexattr", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_STATFS] = { "statfs", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FSTATFS] = { "fstatfs", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_COPY_FILE_RANGE] = { "copy_file_range", NULL, 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_SENDFILE] = { "sendfile", "sendfile64", 0, A(0), BYTES_WRITE, 1 },
	[OP_SYS_DUP] = { "dup", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_DUP2] = { "dup2", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_DUP3] = { "dup3", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCNTL] = { "fcntl", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_CHDIR] = { "chdir", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FCHDIR] = { "fchdir", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FLOCK] = { "flock", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_THREAD] = { "thread", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_FORK] = { "fork", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SYS_EXEC] = { "exec", NULL, 0, A(0), BYTES_NONE, 0 },

	/* dbench 5.0's SMB dialect: a file by path; READ and WRITE expect
	 * their whole length (a[2] = a[1]); src/load/smbload.c. */
	[OP_SMB_OPEN]    = { "OPEN", NULL, 2, A(ARG_PATH, ARG_NUM), BYTES_NONE, 0 },
	[OP_SMB_CLOSE]   = { "CLOSE", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SMB_READ]    = { "READ", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_READ, 2 },
	[OP_SMB_WRITE]   = { "WRITE", NULL, 3, A(ARG_PATH, ARG_OFFSET, ARG_SIZE), BYTES_WRITE, 2 },
	[OP_SMB_MKDIR]   = { "MKDIR", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SMB_RMDIR]   = { "RMDIR", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SMB_UNLINK]  = { "UNLINK", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SMB_READDIR] = { "READDIR", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },
	[OP_SMB_DELTREE] = { "DELTREE", NULL, 1, A(ARG_PATH), BYTES_NONE, 0 },

	/* dbench 5.0's block dialect: an offset in bytes and a size; and
	 * its SCSI dialect: LBAs and lengths in 512-byte blocks (a[1] holds
	 * the length in bytes), the small fields packed in a[2] (ARG_BYTE);
	 * src/load/blockload.c, loadfile.h. */
	[OP_BLOCK_READ]  = { "Read", NULL, 2, A(ARG_OFFSET, ARG_SIZE), BYTES_READ, 1 },
	[OP_BLOCK_WRITE] = { "Write", NULL, 2, A(ARG_OFFSET, ARG_SIZE), BYTES_WRITE, 1 },
	[OP_BLOCK_FDATASYNC] = { "Fdatasync", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SCSI_TESTUNITREADY] = { "TESTUNITREADY", NULL, 0, A(0), BYTES_NONE, 0 },
	[OP_SCSI_READ6]  = { "READ6", NULL, 2, A(ARG_OFFSET, ARG_SIZE), BYTES_READ, 1 },
	[OP_SCSI_READ10] = { "READ10", NULL, 4, A(ARG_OFFSET, ARG_SIZE, ARG_BYTE, ARG_BYTE),
			     BYTES_READ, 1 },
	[OP_SCSI_READ16] = { "READ16", NULL, 4, A(ARG_OFFSET, ARG_SIZE, ARG_BYTE, ARG_BYTE),
			     BYTES_READ, 1 },
	[OP_SCSI_WRITE10] = { "WRITE10", NULL, 4, A(ARG_OFFSET, ARG_SIZE, ARG_BYTE, ARG_BYTE),
			      BYTES_WRITE, 1 },
	[OP_SCSI_WRITE16] = { "WRITE16", NULL, 4, A(ARG_OFFSET, ARG_SIZE, ARG_BYTE, ARG_BYTE),
			      BYTES_WRITE, 1 },
	[OP_SCSI_READCAPACITY10] = { "READCAPACITY10", NULL, 2, A(ARG_NUM, ARG_BYTE),
				     BYTES_NONE, 0 },
	[OP_SCSI_SYNCHRONIZECACHE10] = { "SYNCHRONIZECACHE10", NULL, 4,
					 A(ARG_NUM, ARG_NUM, ARG_BYTE, ARG_BYTE), BYTES_NONE, 0 },
	[OP_SCSI_PROUT] = { "PROUT", NULL, 4, A(ARG_BYTE, ARG_BYTE, ARG_NUM, ARG_NUM),
			    BYTES_NONE, 0 },
};

static int name_is(const char *want, const char *name, size_t len)
{
	return want && strlen(want) == len && strncasecmp(want, name, len) == 0;
}

static int name_is_exactly(const char *want, const char *name, size_t len)
{
	return want && strncmp(want, name, len) == 0 && want[len] == '\0';
}

int op_lookup(const char *name, size_t len)
{
	/* Hot in the parser: compare lengths before letters. */
	static size_t name_len[OP_COUNT], alias_len[OP_COUNT];

	if (name_len[0] == 0) {
		for (int i = 0; i < OP_COUNT; i++) {
			name_len[i] = strlen(op_table[i].name);
			alias_len[i] = op_table[i].alias ? strlen(op_table[i].alias) : 0;
		}
	}
	for (int i = 0; i < OP_SYS_FIRST; i++) {
		if ((name_len[i] == len && strncasecmp(op_table[i].name, name, len) == 0) ||
		    (op_table[i].alias && alias_len[i] == len &&
		     strncasecmp(op_table[i].alias, name, len) == 0))
			return i;
	}
	return -1;
}

int op_lookup_smb(const char *name, size_t len)
{
	for (int i = OP_SMB_FIRST; i <= OP_SMB_LAST; i++) {
		if (strlen(op_table[i].name) == len && strncasecmp(op_table[i].name, name, len) == 0)
			return i;
	}
	return -1;
}

int op_lookup_block(const char *name, size_t len)
{
	for (int i = OP_BLOCK_FIRST; i <= OP_SCSI_LAST; i++) {
		if (name_is(op_table[i].name, name, len))
			return i;
	}
	return -1;
}

int op_lookup_syscall(const char *name, size_t len)
{
	for (int i = OP_SYS_FIRST; i <= OP_SYS_LAST; i++) {
		if (name_is_exactly(op_table[i].name, name, len) ||
		    name_is_exactly(op_table[i].alias, name, len))
			return i;
	}
	return -1;
}

static const struct {
	const char *name;
	uint32_t value;
} nt_status_table[NT_STATUS_COUNT] = {
	[NT_OK]                    = { "NT_STATUS_OK", 0x00000000 },
	[NT_OBJECT_NAME_NOT_FOUND] = { "NT_STATUS_OBJECT_NAME_NOT_FOUND", 0xC0000034 },
	[NT_NO_SUCH_FILE]          = { "NT_STATUS_NO_SUCH_FILE", 0xC000000F },
	[NT_OBJECT_PATH_NOT_FOUND] = { "NT_STATUS_OBJECT_PATH_NOT_FOUND", 0xC000003A },
	[NT_OBJECT_NAME_COLLISION] = { "NT_STATUS_OBJECT_NAME_COLLISION", 0xC0000035 },
	[NT_OBJECT_NAME_INVALID]   = { "NT_STATUS_OBJECT_NAME_INVALID", 0xC0000033 },
	[NT_ACCESS_DENIED]         = { "NT_STATUS_ACCESS_DENIED", 0xC0000022 },
	[NT_SHARING_VIOLATION]     = { "NT_STATUS_SHARING_VIOLATION", 0xC0000043 },
	[NT_FILE_IS_A_DIRECTORY]   = { "NT_STATUS_FILE_IS_A_DIRECTORY", 0xC00000BA },
	[NT_NOT_A_DIRECTORY]       = { "NT_STATUS_NOT_A_DIRECTORY", 0xC0000103 },
	[NT_DIRECTORY_NOT_EMPTY]   = { "NT_STATUS_DIRECTORY_NOT_EMPTY", 0xC0000101 },
	[NT_INVALID_HANDLE]        = { "NT_STATUS_INVALID_HANDLE", 0xC0000008 },
	[NT_INVALID_PARAMETER]     = { "NT_STATUS_INVALID_PARAMETER", 0xC000000D },
	[NT_END_OF_FILE]           = { "NT_STATUS_END_OF_FILE", 0xC0000011 },
	[NT_DISK_FULL]             = { "NT_STATUS_DISK_FULL", 0xC000007F },
	[NT_LOCK_NOT_GRANTED]      = { "NT_STATUS_LOCK_NOT_GRANTED", 0xC0000055 },
	[NT_FILE_LOCK_CONFLICT]    = { "NT_STATUS_FILE_LOCK_CONFLICT", 0xC0000054 },
	[NT_RANGE_NOT_LOCKED]      = { "NT_STATUS_RANGE_NOT_LOCKED", 0xC000007E },
	[NT_DELETE_PENDING]        = { "NT_STATUS_DELETE_PENDING", 0xC0000056 },
	[NT_CANNOT_DELETE]         = { "NT_STATUS_CANNOT_DELETE", 0xC0000121 },
	[NT_NO_MORE_FILES]         = { "NT_STATUS_NO_MORE_FILES", 0x80000006 },
	[NT_NOT_IMPLEMENTED]       = { "NT_STATUS_NOT_IMPLEMENTED", 0xC0000002 },
	[NT_UNSUCCESSFUL]          = { "NT_STATUS_UNSUCCESSFUL", 0xC0000001 },
};

const char *scsi_status_name(unsigned status, char buf[16])
{
	switch (status) {
	case 0x00: return "GOOD";
	case 0x02: return "CHECK CONDITION";
	case 0x04: return "CONDITION MET";
	case 0x08: return "BUSY";
	case 0x18: return "RESERVATION CONFLICT";
	case 0x28: return "TASK SET FULL";
	case 0x30: return "ACA ACTIVE";
	case 0x40: return "TASK ABORTED";
	default:
		snprintf(buf, 16, "status 0x%02x", status & 0xffu);
		return buf;
	}
}

const char *op_status_name(int t, unsigned status, char *buf, size_t len)
{
	char own[16];

	if (!op_is_scsi(t))
		return nt_status_name((enum nt_status)status);
	snprintf(buf, len, "%s (0x%02x)", scsi_status_name(status, own), status & 0xffu);
	return buf;
}

const char *nt_status_name(enum nt_status s)
{
	return s < NT_STATUS_COUNT ? nt_status_table[s].name : "NT_STATUS_?";
}

/* A 0x status must be exactly hex digits after the prefix, at most 8. */
static int nt_status_by_value(const char *tok, size_t len)
{
	char buf[16];
	char *end;

	if (len < 3 || len > 10)
		return -1;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	if (!isxdigit((unsigned char)buf[2]))
		return -1;
	unsigned long v = strtoul(buf + 2, &end, 16);
	if (*end != '\0')
		return -1;
	for (int i = 0; i < NT_STATUS_COUNT; i++) {
		if (nt_status_table[i].value == v)
			return i;
	}
	return -1;
}

enum nt_status nt_status_of_nfs3(uint32_t nfs3)
{
	static const struct {
		uint32_t nfs3;
		enum nt_status nt;
	} map[] = {
		{ 0, NT_OK },				/* NFS3_OK */
		{ 1, NT_ACCESS_DENIED },		/* NFS3ERR_PERM */
		{ 2, NT_OBJECT_NAME_NOT_FOUND },	/* NFS3ERR_NOENT */
		{ 13, NT_ACCESS_DENIED },		/* NFS3ERR_ACCES */
		{ 17, NT_OBJECT_NAME_COLLISION },	/* NFS3ERR_EXIST */
		{ 20, NT_NOT_A_DIRECTORY },		/* NFS3ERR_NOTDIR */
		{ 21, NT_FILE_IS_A_DIRECTORY },		/* NFS3ERR_ISDIR */
		{ 22, NT_INVALID_PARAMETER },		/* NFS3ERR_INVAL */
		{ 28, NT_DISK_FULL },			/* NFS3ERR_NOSPC */
		{ 66, NT_DIRECTORY_NOT_EMPTY },		/* NFS3ERR_NOTEMPTY */
		{ 10004, NT_NOT_IMPLEMENTED },		/* NFS3ERR_NOTSUPP */
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].nfs3 == nfs3)
			return map[i].nt;
	}
	return NT_UNSUCCESSFUL;
}

int nt_status_lookup(const char *tok, size_t len)
{
	if (len > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
		return nt_status_by_value(tok, len);
	for (int i = 0; i < NT_STATUS_COUNT; i++) {
		if (name_is(nt_status_table[i].name, tok, len))
			return i;
	}
	return -1;
}
