/*
 * blockload.c - dbench 5.0's block and SCSI dialects of rows (its
 * loadfiles block1G4krr.load, block1G4krw.load, scsi.load, iscsi.load,
 * iscsi-read10-*.load and the reservation tests under iscsi/): which rows
 * are theirs, their status column, the checks of their fields (a struct
 * dialect, load/dialect.h).  Knows the dialects' names, shapes and the
 * CDBs' limits; nothing of how a row is compiled or sent.
 *
 * The block dialect: READ OFFSET SIZE STATUS, WRITE OFFSET SIZE STATUS and
 * FDATASYNC STATUS, on one device that every client shares; OFFSET a
 * number of bytes or an expression ("*" with /N %N +N, "+N" ...), STATUS
 * 0x.. (0 success, anything else failure: 5.0 never looked at it) or "*".
 *
 * The SCSI dialect: a SCSI command a row,
 *   TESTUNITREADY                       STATUS
 *   READ6 LBA BLOCKS                    STATUS
 *   READ10|READ16 LBA BLOCKS FLAGS GROUP STATUS   (FLAGS: the CDB's byte 1,
 *   WRITE10|WRITE16 LBA BLOCKS FLAGS GROUP STATUS  RDPROTECT/WRPROTECT,
 *                                                   DPO, FUA, FUA_NV)
 *   READCAPACITY10 LBA PMI              STATUS
 *   SYNCHRONIZECACHE10 LBA BLOCKS SYNC_NV IMMED STATUS
 *   PROUT ACTION TYPE KEY SA_KEY        STATUS   (PERSISTENT RESERVE OUT)
 * LBAs and lengths in 512-byte blocks as 5.0 has them (a backend turns
 * them into the device's own blocks), LBA an expression too, and an LBA
 * of 0xffffffff in READ6, READ10 and WRITE10 a random one (scsi.load's
 * convention); STATUS the SCSI status expected (0x00 GOOD, 0x02 CHECK
 * CONDITION, 0x18 RESERVATION CONFLICT ...) or "*".
 *
 * The names are dbench 5.0's; READ and WRITE are the SMB dialect's too,
 * whose rows name a quoted path first: a row is of the block dialect when
 * its first field is not quoted (see blockload_row()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "load/dialect.h"

#define SCSI_BLOCK 512		/* the dialect's unit, as dbench 5.0's */
#define LBA10_MAX UINT32_C(0xffffffff)
#define LBA6_MAX UINT32_C(0x1fffff)

/* A row of the dialects: its name is theirs and its first field is not
 * quoted (a path: the SMB dialect's READ and WRITE). */
static int detect(const struct token *name, const struct token *args, int nargs)
{
	if (name->quoted || (nargs > 0 && args[0].quoted))
		return -1;
	return op_lookup_block(name->s, name->len);
}

/* 0x.. (a block row: 0 success, anything else failure, as 5.0 never
 * looked further; a SCSI row: the status byte expected) or "*". */
static bool compile_row(struct dialect_ctx *dc, struct op *op, const struct token *tok,
			int nargs)
{
	const struct op_desc *d = &op_table[op->type];
	uint32_t v;

	if (!lex_has_status(dc->lx, d->name, d->nargs, nargs))
		return false;
	const struct token *t = &tok[nargs - 1];
	if (lex_is(t, "*")) {
		op->flags |= OPF_ANY_STATUS;
		return true;
	}
	if (!lex_hex32(t, &v)) {
		lex_fail(dc->lx, "malformed status '%s' (%s takes 0x and a number, or *)",
			 lex_tokstr(dc->lx, t), d->name);
		return false;
	}
	if (op_is_scsi(op->type) && v > 0xff) {
		lex_fail(dc->lx, "SCSI status '%s' is more than a byte (0x00 GOOD, 0x02 CHECK"
			 " CONDITION, 0x18 RESERVATION CONFLICT ...)", lex_tokstr(dc->lx, t));
		return false;
	}
	op->status = op_is_scsi(op->type) ? v : v == 0 ? NT_OK : NT_UNSUCCESSFUL;
	return true;
}

/* Whether the LBA a[0] of `op`, a number, is the legacy "a random LBA"
 * (scsi.load's 0xffffffff in READ6, READ10 and WRITE10). */
static bool random_lba(const struct op *op)
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

/* The checks that span a row's fields (the CDB's limits) and its
 * lengths turned into bytes (a[1]: BLOCKS x 512): false with why[]
 * saying what is wrong. */
static bool fields(struct op *op, char *why, size_t len)
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

/* The legacy random LBA made the expression "*", then fields(). */
static bool finish(struct dialect_ctx *dc, struct op *op)
{
	static const struct token any = { "*", 1, false };
	char why[160];

	if (random_lba(op)) {
		if (!dc->offset_expr(dc, &any, op))
			return false;
		op->a[0] = 0;
	}
	if (fields(op, why, sizeof(why)))
		return true;
	lex_fail(dc->lx, "%s", why);
	return false;
}

const struct dialect block_dialect = {
	.name = "dbench 5.0's block and SCSI",
	.kinds = 1u << OP_DIALECT_BLOCK | 1u << OP_DIALECT_SCSI,
	.rules = DIALECT_EXPRS,
	.detect = detect,
	.compile_row = compile_row,
	.finish = finish,
};
