/*
 * ops.c - the operation table, made from include/ops.def, and the NT
 * status names (see ops.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops.h"

/* A row's argument kinds, (ARG_PATH, ARG_NUM ...), as an array and a count. */
#define OP_ARGS(...) { __VA_ARGS__ }
#define OP_NARGS(...) (sizeof((const uint8_t[]){ 0, __VA_ARGS__ }) - 1)

const struct op_desc op_table[OP_COUNT] = {
#define OP(id, name, alias, dialect, args, bytes, size_arg, flags) \
	[OP_##id] = { name, alias, OP_NARGS args, OP_ARGS args, bytes, size_arg, dialect, flags },
/* a call's arguments are src/load/syscalls.c's business; one moving
 * bytes counts a[1] */
#define SYSCALL(id, name, alias, sig, result, bytes, flags) \
	[OP_SYS_##id] = { name, alias, 0, { 0 }, bytes, (bytes) != BYTES_NONE, \
			  OP_DIALECT_SYSCALL, flags },
#include "ops.def"
};

static int name_is(const char *want, const char *name, size_t len)
{
	return want && strlen(want) == len && strncasecmp(want, name, len) == 0;
}

static int name_is_exactly(const char *want, const char *name, size_t len)
{
	return want && strncmp(want, name, len) == 0 && want[len] == '\0';
}

/* The rows of dialect d, in the table's order, *n of them. */
static const uint8_t *rows_of(int d, int *n)
{
	static uint8_t rows[OP_DIALECT_COUNT][OP_COUNT];
	static int nrows[OP_DIALECT_COUNT];
	static bool made;

	if (!made) {
		for (int i = 0; i < OP_COUNT; i++)
			rows[op_table[i].dialect][nrows[op_table[i].dialect]++] = (uint8_t)i;
		made = true;
	}
	*n = nrows[d];
	return rows[d];
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
	for (int d = OP_DIALECT_DBENCH4; d <= OP_DIALECT_NFS; d++) {
		int n;
		const uint8_t *row = rows_of(d, &n);
		for (int k = 0; k < n; k++) {
			int i = row[k];
			if ((name_len[i] == len && strncasecmp(op_table[i].name, name, len) == 0) ||
			    (op_table[i].alias && alias_len[i] == len &&
			     strncasecmp(op_table[i].alias, name, len) == 0))
				return i;
		}
	}
	return -1;
}

int op_lookup_smb(const char *name, size_t len)
{
	int n;
	const uint8_t *row = rows_of(OP_DIALECT_SMB5, &n);

	for (int k = 0; k < n; k++) {
		if (name_is(op_table[row[k]].name, name, len))
			return row[k];
	}
	return -1;
}

int op_lookup_block(const char *name, size_t len)
{
	for (int d = OP_DIALECT_BLOCK; d <= OP_DIALECT_SCSI; d++) {
		int n;
		const uint8_t *row = rows_of(d, &n);
		for (int k = 0; k < n; k++) {
			if (name_is(op_table[row[k]].name, name, len))
				return row[k];
		}
	}
	return -1;
}

int op_lookup_syscall(const char *name, size_t len)
{
	int n;
	const uint8_t *row = rows_of(OP_DIALECT_SYSCALL, &n);

	for (int k = 0; k < n; k++) {
		if (name_is_exactly(op_table[row[k]].name, name, len) ||
		    name_is_exactly(op_table[row[k]].alias, name, len))
			return row[k];
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
