/*
 * blockload.c - dbench 5.0's block and SCSI dialects: which rows are
 * theirs, their status column, the checks of their fields (see
 * blockload.h).  Knows the dialects' names, shapes and the CDBs' limits;
 * nothing of how a row is compiled or sent.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "load/blockload.h"

#define SCSI_BLOCK 512		/* the dialect's unit, as dbench 5.0's */
#define LBA10_MAX UINT32_C(0xffffffff)
#define LBA6_MAX UINT32_C(0x1fffff)

int blockload_row(const struct token *name, const struct token *args, int nargs)
{
	if (name->quoted || (nargs > 0 && args[0].quoted))
		return -1;
	return op_lookup_block(name->s, name->len);
}

enum blockload_status blockload_status(int type, const struct token *t, unsigned *value)
{
	uint32_t v = 0;

	if (!t->quoted && t->len == 1 && t->s[0] == '*')
		return BLOCKLOAD_ANY;
	if (t->quoted || t->len < 3 || t->len > 10 || t->s[0] != '0' ||
	    (t->s[1] != 'x' && t->s[1] != 'X'))
		return BLOCKLOAD_BAD;
	for (size_t i = 2; i < t->len; i++) {
		char ch = t->s[i];
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
			   : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
			   : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16;
		if (d > 15)
			return BLOCKLOAD_BAD;
		v = v * 16 + d;
	}
	if (op_is_scsi(type) && v > 0xff)
		return BLOCKLOAD_NOT_BYTE;
	*value = v;
	return BLOCKLOAD_VALUE;
}

unsigned blockload_expected(int type, unsigned value)
{
	if (op_is_scsi(type))
		return value;
	return value == 0 ? NT_OK : NT_UNSUCCESSFUL;
}

bool blockload_random_lba(const struct op *op)
{
	return (op->type == OP_SCSI_READ6 || op->type == OP_SCSI_READ10 ||
		op->type == OP_SCSI_WRITE10) && !op->expr && op->a[0] == (int64_t)LBA10_MAX;
}

/* The most blocks a transfer of `type` may move: its CDB's length field,
 * and no more than OP_MAX_SIZE bytes. */
static int64_t max_blocks(int type)
{
	int64_t by_size = OP_MAX_SIZE / SCSI_BLOCK;

	if (type == OP_SCSI_READ6)
		return 256;
	if (type == OP_SCSI_READ10 || type == OP_SCSI_WRITE10)
		return by_size < 0xffff ? by_size : 0xffff;
	return by_size;
}

/* A transfer's fields: its length into bytes, its flags and group. */
static bool finish_transfer(struct op *op, char *why, size_t len)
{
	const char *name = op_table[op->type].name;
	int64_t blocks = op->a[1], most = max_blocks(op->type);
	int64_t lba_max = op->type == OP_SCSI_READ6 ? LBA6_MAX
			: op->type == OP_SCSI_READ16 || op->type == OP_SCSI_WRITE16 ? INT64_MAX
			: LBA10_MAX;

	if (op->type == OP_SCSI_READ6 && blocks < 1) {
		snprintf(why, len, "READ6 moves 1 to 256 blocks, not %" PRId64, blocks);
		return false;
	}
	if (blocks > most) {
		snprintf(why, len, "%s of %" PRId64 " blocks: at most %" PRId64 " (%s)", name,
			 blocks, most, most * SCSI_BLOCK == OP_MAX_SIZE
			 ? "16 MiB of 512-byte blocks" : "what its CDB's length field holds");
		return false;
	}
	if (!op->expr && op->a[0] > lba_max) {
		snprintf(why, len, "%s's LBA %" PRId64 " does not fit its CDB (at most 0x%" PRIx64
			 ")", name, op->a[0], (uint64_t)lba_max);
		return false;
	}
	if (loadfile_byte_arg(op, 1) > 0x1f) {
		snprintf(why, len, "%s's group number %u is more than 31", name,
			 loadfile_byte_arg(op, 1));
		return false;
	}
	op->a[1] = blocks * SCSI_BLOCK;
	return true;
}

/* A field that is a bit: 0 or 1. */
static bool is_bit(const struct op *op, unsigned i, const char *what, char *why, size_t len)
{
	if (loadfile_byte_arg(op, i) <= 1)
		return true;
	snprintf(why, len, "%s's %s is %u, not 0 or 1", op_table[op->type].name, what,
		 loadfile_byte_arg(op, i));
	return false;
}

/* An LBA that a 10-byte CDB carries as it stands. */
static bool lba10(const struct op *op, char *why, size_t len)
{
	if (op->a[0] >= 0 && op->a[0] <= (int64_t)LBA10_MAX)
		return true;
	snprintf(why, len, "%s's LBA %" PRId64 " does not fit its CDB (0 to 0xffffffff)",
		 op_table[op->type].name, op->a[0]);
	return false;
}

static bool finish_prout(const struct op *op, char *why, size_t len)
{
	if (loadfile_byte_arg(op, 0) > 0x1f) {
		snprintf(why, len, "PROUT's service action %u is more than 0x1f",
			 loadfile_byte_arg(op, 0));
		return false;
	}
	if (loadfile_byte_arg(op, 1) > 0xf) {
		snprintf(why, len, "PROUT's type %u is more than 0xf", loadfile_byte_arg(op, 1));
		return false;
	}
	if (op->a[0] < 0 || op->a[1] < 0) {
		snprintf(why, len, "PROUT's keys are numbers from 0 (a key of 8 bytes)");
		return false;
	}
	return true;
}

bool blockload_finish(struct op *op, char *why, size_t len)
{
	switch (op->type) {
	case OP_SCSI_READ6:
	case OP_SCSI_READ10:
	case OP_SCSI_READ16:
	case OP_SCSI_WRITE10:
	case OP_SCSI_WRITE16:
		return finish_transfer(op, why, len);
	case OP_SCSI_READCAPACITY10:
		return lba10(op, why, len) && is_bit(op, 0, "PMI", why, len);
	case OP_SCSI_SYNCHRONIZECACHE10:
		if (op->a[1] < 0 || op->a[1] > 0xffff) {
			snprintf(why, len, "SYNCHRONIZECACHE10 of %" PRId64 " blocks: 0 to 65535",
				 op->a[1]);
			return false;
		}
		return lba10(op, why, len) && is_bit(op, 0, "SYNC_NV", why, len) &&
		       is_bit(op, 1, "IMMED", why, len);
	case OP_SCSI_PROUT:
		return finish_prout(op, why, len);
	default:
		return true;
	}
}
