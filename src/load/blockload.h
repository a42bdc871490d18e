/*
 * blockload.h - dbench 5.0's block and SCSI dialects (its loadfiles
 * block1G4krr.load, block1G4krw.load, scsi.load, iscsi.load,
 * iscsi-read10-*.load and the reservation tests under iscsi/), private
 * to src/load/: which rows are of them, what their status column says,
 * and the checks of their arguments that the generic compiler leaves to
 * them.  loadfile.c compiles the rows with the other dialects'
 * machinery (timestamps, LOOP, REPEAT, offset expressions, ARG_BYTE's
 * packing).
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
#ifndef DBENCH_LOAD_BLOCKLOAD_H
#define DBENCH_LOAD_BLOCKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "loadfile.h"
#include "load/token.h"

/* The operation type (OP_BLOCK_* or OP_SCSI_*) of the row whose name is
 * `name` and whose fields after it are args[0 .. nargs), or -1 when the
 * row is of neither dialect: its name is none of theirs, or its first
 * field is quoted (a path: the SMB dialect's READ and WRITE). */
int blockload_row(const struct token *name, const struct token *args, int nargs);

enum blockload_status {
	BLOCKLOAD_VALUE,	/* a status: *value holds it */
	BLOCKLOAD_ANY,		/* "*": any outcome */
	BLOCKLOAD_BAD,		/* not 0x and one to eight hex digits, or "*" */
	BLOCKLOAD_NOT_BYTE,	/* a SCSI row's status above 0xff */
};

/* The status column `t` of a row of type `type`. */
enum blockload_status blockload_status(int type, const struct token *t, unsigned *value);

/* The expected outcome of a row of type `type` whose status column said
 * `value`, as op.status holds it: a block row's NT_OK (0) or
 * NT_UNSUCCESSFUL (anything else); a SCSI row's status byte itself. */
unsigned blockload_expected(int type, unsigned value);

/* Whether the LBA a[0] of `op`, a number, is the legacy "a random LBA". */
bool blockload_random_lba(const struct op *op);

/*
 * The checks of a compiled row that span its fields, and its lengths
 * turned into bytes (a[1]: BLOCKS × 512): false with why[] saying what is
 * wrong (the CDB's limits: READ6 moves 1 to 256 blocks; a transfer at
 * most OP_MAX_SIZE bytes; FLAGS and GROUP what the CDB has room for; a
 * 10-byte CDB's LBA at most 0xffffffff).
 */
bool blockload_finish(struct op *op, char *why, size_t len);

#endif
