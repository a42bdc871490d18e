/*
 * scsirow.h - what the SCSI backends, iscsi and scsi, share beyond the
 * protocol (scsicmd.h): a row of the SCSI dialect performed over a LUN's
 * port, its outcome against the status the row expects in a backend's
 * terms (backend.h), and the options of a run a LUN has no use for.
 * Private to src/backends/.
 */
#ifndef DBENCH_BACKENDS_SCSIROW_H
#define DBENCH_BACKENDS_SCSIROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "loadfile.h"
#include "scsicmd.h"

/*
 * Row `op` of program `prog`: its LBA evaluated ("+N" counts from the
 * LBA of the row before that had one, in *ost), its command built, sent
 * and judged against the status the row expects (scsirow_outcome()).
 * 0, or an errno with detail[] set (*has_detail) where there is more to
 * say than the errno; buf holds max_transfer bytes.
 */
int scsirow_perform(struct scsi_port *p, const struct program *prog, const struct op *op,
		    struct offset_state *ost, unsigned char *buf, char *detail, size_t dlen,
		    bool *has_detail);

/* What of the command line a SCSI backend has no use for (-s, -S, -F,
 * -x, --verify, --fake-io), or NULL. */
const char *scsirow_pointless_option(const struct backend_options *opts);

/*
 * The outcome of row `op` whose command ended with SCSI status `status`
 * (and sense data): 0 for GOOD; the status the row expects, an errno
 * (EBUSY for RESERVATION CONFLICT, EAGAIN for BUSY and TASK SET FULL, EIO
 * for the rest); another, BACKEND_OTHER_STATUS with detail[] saying both
 * (*has_detail): an outcome difference, which fails the row whatever it
 * expected and which --continue-on-error goes on past.  GOOD where the
 * row expects another status is left to the client, which says so.
 */
int scsirow_outcome(const struct op *op, unsigned status, const uint8_t *sense, size_t n,
		    char *detail, size_t dlen, bool *has_detail);

#endif
