/*
 * scsicmd.h - the SCSI dialect's rows (src/load/blockload.c) as SCSI
 * commands, for the backends that send them: iscsi (libiscsi) and scsi
 * (SG_IO).  Each row's CDB, data direction and length, placed on the LUN
 * at hand; READ CAPACITY's answer; what a status and sense data say.
 * One place for all of it, so that both transports send the same bytes,
 * and the conversation both have with a LUN (retrying a UNIT ATTENTION,
 * READ CAPACITY, INQUIRY) over a transport's send_once.  A protocol
 * helper (src/proto/): it knows nothing of backends (what a row's
 * outcome is to a backend is backends/scsirow.h's), of how a transport
 * moves a command, of clients or of runs.
 *
 * A row counts LBAs and lengths in 512-byte blocks, as dbench 5.0's
 * loadfiles do.  On a LUN of larger logical blocks they are turned into
 * its blocks (the byte offset, rounded down to a block; a transfer must
 * be a whole number of them).  A read or write whose LBA is at or past
 * the LUN's end wraps around its size, and one that would cross the end
 * starts earlier, so that a loadfile made for a large LUN runs on a
 * small one (5.0 cut such a transfer down to one block instead).
 */
#ifndef DBENCH_BACKENDS_SCSICMD_H
#define DBENCH_BACKENDS_SCSICMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadfile.h"

#define SCSICMD_PROUT_PARAMS 24		/* PERSISTENT RESERVE OUT's parameter list */
#define SCSICMD_SENSE_MAX 96		/* sense bytes kept */
#define SCSICMD_RETRIES 5		/* a UNIT ATTENTION is taken this often (as
					 * Linux's sd retries a command) */

/* The LUN as READ CAPACITY describes it. */
struct scsi_geometry {
	uint64_t blocks;		/* logical blocks */
	uint32_t block_size;		/* bytes in one */
};

enum scsicmd_dir { SCSICMD_NONE, SCSICMD_IN, SCSICMD_OUT };

/* One command, ready to send. */
struct scsicmd {
	uint8_t cdb[16];
	uint8_t cdb_len;
	uint8_t dir;			/* enum scsicmd_dir */
	uint32_t len;			/* bytes in or out */
	bool params;			/* data out is params[], not the caller's buffer */
	uint8_t params_buf[SCSICMD_PROUT_PARAMS];
};

/*
 * The command of SCSI row `op`, its LBA already evaluated (`lba`, in
 * 512-byte blocks), for a LUN of geometry `g`.  False with why[] when it
 * cannot be sent as such: a transfer larger than the LUN or not a whole
 * number of its blocks, an LBA past what the CDB holds once placed.
 */
bool scsicmd_build(struct scsicmd *cmd, const struct op *op, uint64_t lba,
		   const struct scsi_geometry *g, char *why, size_t len);

/* READ CAPACITY (16), and (10) for a target without it. */
void scsicmd_read_capacity16(struct scsicmd *cmd);
void scsicmd_read_capacity10(struct scsicmd *cmd);

/* Their answers: false when it says nothing usable (no blocks, a block
 * size that is not a power of two from 512 to 64 KiB). */
bool scsicmd_capacity16(const uint8_t *data, size_t n, struct scsi_geometry *g);
bool scsicmd_capacity10(const uint8_t *data, size_t n, struct scsi_geometry *g);

/* INQUIRY of the standard page (96 bytes); its vendor, product and
 * revision as text without trailing blanks, "" where it has none. */
void scsicmd_inquiry(struct scsicmd *cmd);
void scsicmd_inquiry_ids(const uint8_t *data, size_t n, char vendor[9], char product[17],
			 char revision[5]);

/* The sense key of fixed or descriptor sense data, or -1 for none. */
int scsicmd_sense_key(const uint8_t *sense, size_t n);

/* "CHECK CONDITION (0x02), ILLEGAL REQUEST, asc/ascq 0x24/0x00 (INVALID
 * FIELD IN CDB)" or "RESERVATION CONFLICT (0x18)" into buf. */
void scsicmd_status_text(char *buf, size_t len, unsigned status, const uint8_t *sense,
			 size_t n);

#define SCSICMD_WHY_MAX 320		/* a failure's words */

/* What came back from one command: its SCSI status and sense data. */
struct scsicmd_outcome {
	unsigned status;
	uint8_t sense[SCSICMD_SENSE_MAX];
	size_t sense_len;
	size_t missing;		/* bytes of data in asked for that did not come */
};

/*
 * A LUN as a transport reaches it (a libiscsi session, an SG_IO
 * descriptor), embedded in the transport's own state.  send_once sends
 * c and waits for it, data in or out being buf (or c's own parameter
 * list): 0 with what came back in *o, or an errno with why[] set, and
 * lost set when the transport is gone for good.
 */
struct scsi_port {
	int (*send_once)(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
			 struct scsicmd_outcome *o);
	struct scsi_geometry geom;	/* scsicmd_read_geometry()'s */
	bool lost;
	char why[SCSICMD_WHY_MAX];
};

/* Send c, again after a UNIT ATTENTION (SCSICMD_RETRIES times at most):
 * send_once's answer. */
int scsicmd_send(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
		 struct scsicmd_outcome *o);

/* A query of the backend's own (TEST UNIT READY, READ CAPACITY,
 * INQUIRY): 0 when GOOD, else an errno with why[] saying what came back. */
int scsicmd_ask(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf);

/* The LUN's geometry into p->geom, by READ CAPACITY (16), else (10).
 * 0 or an errno with why[]. */
int scsicmd_read_geometry(struct scsi_port *p);

/* INQUIRY's vendor, product and revision ("" each where it fails). */
void scsicmd_identify(struct scsi_port *p, char vendor[9], char product[17], char revision[5]);

#endif
