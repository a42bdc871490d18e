/*
 * scsirow.c - a row of the SCSI dialect performed by a SCSI backend
 * (see scsirow.h): its command sent over the LUN's port (scsicmd.h)
 * and its outcome in a backend's terms.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "ops.h"
#include "backends/scsirow.h"

int scsirow_outcome(const struct op *op, unsigned status, const uint8_t *sense, size_t n,
		    char *detail, size_t dlen, bool *has_detail)
{
	char got[160], want[48];
	int err = status == 0x00 ? 0 : status == 0x18 ? EBUSY
		: status == 0x08 || status == 0x28 ? EAGAIN : EIO;

	if (err == 0 || (op->flags & OPF_ANY_STATUS) || status == op->status)
		return err;
	scsicmd_status_text(got, sizeof(got), status, sense, n);
	snprintf(detail, dlen, "%s, expected %s", got,
		 op_status_name(op->type, op->status, want, sizeof(want)));
	*has_detail = true;
	return BACKEND_OTHER_STATUS;	/* an outcome difference, not wrong data */
}

int scsirow_perform(struct scsi_port *p, const struct program *prog, const struct op *row,
		struct offset_state *ost, unsigned char *buf, char *detail, size_t dlen,
		bool *has_detail)
{
	bool has_lba = row->type != OP_SCSI_PROUT && row->type != OP_SCSI_TESTUNITREADY;
	struct op tmp;
	const struct op *op = has_lba ? backend_op_at_offset(&tmp, prog, row, ost) : row;
	struct scsicmd c;
	struct scsicmd_outcome out;
	int e;

	*has_detail = true;
	if (!scsicmd_build(&c, op, (uint64_t)op->a[0], &p->geom, detail, dlen))
		return EINVAL;
	if ((e = scsicmd_send(p, &c, buf, &out)) != 0) {
		snprintf(detail, dlen, "%s", p->why);
		return e;
	}
	if (out.status == 0x00 && out.missing && op_table[op->type].bytes) {
		snprintf(detail, dlen, "GOOD, but %zu of the %" PRIu32 " bytes asked for did not"
			 " come", out.missing, c.len);
		return ENODATA;
	}
	*has_detail = false;
	return scsirow_outcome(op, out.status, out.sense, out.sense_len, detail, dlen, has_detail);
}

const char *scsirow_pointless_option(const struct backend_options *opts)
{
	if (opts->sync_open || opts->sync_dir || opts->fsync_writes || opts->xattr)
		return "-s, -S, -F and -x have no files: the loadfile says what the LUN syncs"
		       " (SYNCHRONIZECACHE10, a WRITE's FUA bit)";
	if (opts->verify)
		return "--verify cannot check a LUN that all clients write where the"
		       " loadfile's LBAs send them";
	if (opts->fake_io)
		return "--fake-io leaves out dbench 4's ReadX and WriteX, which a SCSI"
		       " backend does not perform";
	return NULL;
}
