/*
 * scsicmd.c - the SCSI dialect's rows as SCSI commands (see scsicmd.h):
 * the CDBs of SBC-3 and SPC-4, placed on a LUN; statuses, sense keys and
 * additional sense codes by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "scsicmd.h"

#define ROW_BLOCK 512		/* the dialect's unit */
#define LBA6_MAX UINT64_C(0x1fffff)
#define LBA10_MAX UINT64_C(0xffffffff)

/* ---- bytes ---- */

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* ---- placing a row on the LUN ---- */

/* A row's LBA and length, in 512-byte blocks, in the LUN's blocks; false
 * when the length is no whole number of them. */
static bool to_lun(uint64_t *lba, uint64_t *blocks, const struct scsi_geometry *g,
		   bool round_up, char *why, size_t len)
{
	uint64_t k = g->block_size / ROW_BLOCK;

	if (k <= 1)
		return true;
	*lba /= k;
	if (*blocks % k && !round_up) {
		snprintf(why, len, "%" PRIu64 " blocks of 512 bytes are no whole number of the"
			 " LUN's %" PRIu32 "-byte blocks", *blocks, g->block_size);
		return false;
	}
	*blocks = (*blocks + k - 1) / k;
	return true;
}

/* A transfer's LBA wrapped around the LUN and moved back from its end;
 * false when the transfer is larger than the LUN, or its LBA then does
 * not fit the CDB's `lba_max`. */
static bool place(uint64_t *lba, uint64_t blocks, uint64_t lba_max, const struct op *op,
		  const struct scsi_geometry *g, char *why, size_t len)
{
	if (blocks > g->blocks) {
		snprintf(why, len, "%s of %" PRIu64 " blocks on a LUN of %" PRIu64,
			 op_table[op->type].name, blocks, g->blocks);
		return false;
	}
	if (*lba > g->blocks - blocks) {
		*lba %= g->blocks;
		if (*lba > g->blocks - blocks)
			*lba = g->blocks - blocks;
	}
	if (*lba > lba_max) {
		snprintf(why, len, "%s's LBA %" PRIu64 " on a LUN of %" PRIu64 " blocks does not"
			 " fit its CDB (at most 0x%" PRIx64 ")", op_table[op->type].name, *lba,
			 g->blocks, lba_max);
		return false;
	}
	return true;
}

/* READ6/10/16 and WRITE10/16. */
static bool build_transfer(struct scsicmd *c, const struct op *op, uint64_t lba,
			   const struct scsi_geometry *g, char *why, size_t len)
{
	uint64_t blocks = (uint64_t)op->a[1] / ROW_BLOCK;
	uint8_t flags = (uint8_t)loadfile_byte_arg(op, 0), group = loadfile_byte_arg(op, 1);
	bool six = op->type == OP_SCSI_READ6;
	bool sixteen = op->type == OP_SCSI_READ16 || op->type == OP_SCSI_WRITE16;

	if (!to_lun(&lba, &blocks, g, false, why, len) ||
	    !place(&lba, blocks, six ? LBA6_MAX : sixteen ? UINT64_MAX : LBA10_MAX, op, g, why,
		   len))
		return false;
	c->len = (uint32_t)op->a[1];
	c->dir = op->type == OP_SCSI_WRITE10 || op->type == OP_SCSI_WRITE16 ? SCSICMD_OUT
									 : SCSICMD_IN;
	if (six) {
		c->cdb[0] = 0x08;
		put_be(c->cdb + 1, lba, 3);
		c->cdb[4] = (uint8_t)blocks;	/* 256 is 0 */
		c->cdb_len = 6;
	} else if (sixteen) {
		c->cdb[0] = op->type == OP_SCSI_READ16 ? 0x88 : 0x8a;
		c->cdb[1] = flags;
		put_be(c->cdb + 2, lba, 8);
		put_be(c->cdb + 10, blocks, 4);
		c->cdb[14] = group;
		c->cdb_len = 16;
	} else {
		c->cdb[0] = op->type == OP_SCSI_READ10 ? 0x28 : 0x2a;
		c->cdb[1] = flags;
		put_be(c->cdb + 2, lba, 4);
		c->cdb[6] = group;
		put_be(c->cdb + 7, blocks, 2);
		c->cdb_len = 10;
	}
	return true;
}

/* PERSISTENT RESERVE OUT: the service action and type in the CDB, the
 * keys in its parameter list (the rest of which, the flags, left 0). */
static void build_prout(struct scsicmd *c, const struct op *op)
{
	c->cdb[0] = 0x5f;
	c->cdb[1] = (uint8_t)(loadfile_byte_arg(op, 0) & 0x1f);
	c->cdb[2] = (uint8_t)(loadfile_byte_arg(op, 1) & 0x0f);	/* scope: the LU */
	put_be(c->cdb + 5, SCSICMD_PROUT_PARAMS, 4);
	c->cdb_len = 10;
	c->dir = SCSICMD_OUT;
	c->len = SCSICMD_PROUT_PARAMS;
	c->params = true;
	put_be(c->params_buf, (uint64_t)op->a[0], 8);
	put_be(c->params_buf + 8, (uint64_t)op->a[1], 8);
}

bool scsicmd_build(struct scsicmd *c, const struct op *op, uint64_t lba,
		   const struct scsi_geometry *g, char *why, size_t len)
{
	uint64_t blocks = (uint64_t)op->a[1];

	memset(c, 0, sizeof(*c));
	switch (op->type) {
	case OP_SCSI_TESTUNITREADY:
		c->cdb_len = 6;
		return true;
	case OP_SCSI_READCAPACITY10:
		blocks = 0;
		if (!to_lun(&lba, &blocks, g, true, why, len))
			return false;
		c->cdb[0] = 0x25;
		put_be(c->cdb + 2, lba, 4);
		c->cdb[8] = (uint8_t)loadfile_byte_arg(op, 0);
		c->cdb_len = 10;
		c->dir = SCSICMD_IN;
		c->len = 8;
		return true;
	case OP_SCSI_SYNCHRONIZECACHE10:
		if (!to_lun(&lba, &blocks, g, true, why, len))
			return false;
		c->cdb[0] = 0x35;
		c->cdb[1] = (uint8_t)((loadfile_byte_arg(op, 0) ? 0x04 : 0) |
				      (loadfile_byte_arg(op, 1) ? 0x02 : 0));
		put_be(c->cdb + 2, lba, 4);
		put_be(c->cdb + 7, blocks, 2);
		c->cdb_len = 10;
		return true;
	case OP_SCSI_PROUT:
		build_prout(c, op);
		return true;
	default:
		return build_transfer(c, op, lba, g, why, len);
	}
}

/* ---- asking the LUN ---- */

void scsicmd_read_capacity16(struct scsicmd *c)
{
	memset(c, 0, sizeof(*c));
	c->cdb[0] = 0x9e;	/* SERVICE ACTION IN (16) */
	c->cdb[1] = 0x10;	/* READ CAPACITY (16) */
	put_be(c->cdb + 10, 32, 4);
	c->cdb_len = 16;
	c->dir = SCSICMD_IN;
	c->len = 32;
}

void scsicmd_read_capacity10(struct scsicmd *c)
{
	memset(c, 0, sizeof(*c));
	c->cdb[0] = 0x25;
	c->cdb_len = 10;
	c->dir = SCSICMD_IN;
	c->len = 8;
}

static bool geometry(uint64_t last, uint64_t size, struct scsi_geometry *g)
{
	if (last == UINT64_MAX || size < 512 || size > 65536 || (size & (size - 1)))
		return false;
	g->blocks = last + 1;
	g->block_size = (uint32_t)size;
	return true;
}

bool scsicmd_capacity16(const uint8_t *data, size_t n, struct scsi_geometry *g)
{
	return n >= 12 && geometry(get_be(data, 8), get_be(data + 8, 4), g);
}

bool scsicmd_capacity10(const uint8_t *data, size_t n, struct scsi_geometry *g)
{
	return n >= 8 && get_be(data, 4) != LBA10_MAX &&
	       geometry(get_be(data, 4), get_be(data + 4, 4), g);
}

void scsicmd_inquiry(struct scsicmd *c)
{
	memset(c, 0, sizeof(*c));
	c->cdb[0] = 0x12;
	c->cdb[4] = 96;
	c->cdb_len = 6;
	c->dir = SCSICMD_IN;
	c->len = 96;
}

/* Field [from, from + len) of an INQUIRY answer as text, trailing blanks
 * and anything unprintable left out. */
static void id_field(char *out, const uint8_t *data, size_t n, size_t from, size_t len)
{
	size_t k = 0;

	for (size_t i = from; i < from + len && i < n; i++)
		out[k++] = data[i] >= 0x20 && data[i] < 0x7f ? (char)data[i] : '?';
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

void scsicmd_inquiry_ids(const uint8_t *data, size_t n, char vendor[9], char product[17],
			 char revision[5])
{
	id_field(vendor, data, n, 8, 8);
	id_field(product, data, n, 16, 16);
	id_field(revision, data, n, 32, 4);
}

/* ---- statuses and sense data ---- */

int scsicmd_sense_key(const uint8_t *s, size_t n)
{
	if (n >= 3 && ((s[0] & 0x7f) == 0x70 || (s[0] & 0x7f) == 0x71))
		return s[2] & 0x0f;
	if (n >= 2 && ((s[0] & 0x7f) == 0x72 || (s[0] & 0x7f) == 0x73))
		return s[1] & 0x0f;
	return -1;
}

/* The additional sense code and qualifier, or -1. */
static int sense_asc(const uint8_t *s, size_t n)
{
	if (n >= 14 && ((s[0] & 0x7f) == 0x70 || (s[0] & 0x7f) == 0x71))
		return s[12] << 8 | s[13];
	if (n >= 4 && ((s[0] & 0x7f) == 0x72 || (s[0] & 0x7f) == 0x73))
		return s[2] << 8 | s[3];
	return -1;
}

static const char *sense_key_name(int key)
{
	static const char *const names[16] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR", "HARDWARE ERROR",
		"ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT", "BLANK CHECK",
		"VENDOR SPECIFIC", "COPY ABORTED", "ABORTED COMMAND", "sense key 0xc",
		"VOLUME OVERFLOW", "MISCOMPARE", "sense key 0xf",
	};
	return key >= 0 && key < 16 ? names[key] : "no sense data";
}

/* The name of the common additional sense codes, or NULL. */
static const char *asc_name(int asc)
{
	static const struct { uint16_t code; const char *name; } names[] = {
		{ 0x0401, "LOGICAL UNIT IS IN PROCESS OF BECOMING READY" },
		{ 0x0c00, "WRITE ERROR" },
		{ 0x1100, "UNRECOVERED READ ERROR" },
		{ 0x1a00, "PARAMETER LIST LENGTH ERROR" },
		{ 0x2000, "INVALID COMMAND OPERATION CODE" },
		{ 0x2100, "LOGICAL BLOCK ADDRESS OUT OF RANGE" },
		{ 0x2400, "INVALID FIELD IN CDB" },
		{ 0x2500, "LOGICAL UNIT NOT SUPPORTED" },
		{ 0x2600, "INVALID FIELD IN PARAMETER LIST" },
		{ 0x2604, "INVALID RELEASE OF PERSISTENT RESERVATION" },
		{ 0x2700, "WRITE PROTECTED" },
		{ 0x2800, "NOT READY TO READY CHANGE, MEDIUM MAY HAVE CHANGED" },
		{ 0x2900, "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED" },
		{ 0x2a03, "RESERVATIONS PREEMPTED" },
		{ 0x2a04, "RESERVATIONS RELEASED" },
		{ 0x2a05, "REGISTRATIONS PREEMPTED" },
		{ 0x3a00, "MEDIUM NOT PRESENT" },
		{ 0x3f0e, "REPORTED LUNS DATA HAS CHANGED" },
		{ 0x4400, "INTERNAL TARGET FAILURE" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == asc)
			return names[i].name;
	return NULL;
}

void scsicmd_status_text(char *buf, size_t len, unsigned status, const uint8_t *sense,
			 size_t n)
{
	char own[16];
	int key = scsicmd_sense_key(sense, n), asc = sense_asc(sense, n);
	int at = snprintf(buf, len, "%s (0x%02x)", scsi_status_name(status, own), status & 0xffu);

	if (status != 0x02 || at < 0 || (size_t)at >= len)
		return;
	if (key < 0) {
		snprintf(buf + at, len - at, ", no sense data");
		return;
	}
	at += snprintf(buf + at, len - at, ", %s", sense_key_name(key));
	if (asc >= 0 && (size_t)at < len)
		snprintf(buf + at, len - at, ", asc/ascq 0x%02x/0x%02x%s%s%s", asc >> 8, asc & 0xff,
			 asc_name(asc) ? " (" : "", asc_name(asc) ? asc_name(asc) : "",
			 asc_name(asc) ? ")" : "");
}

/* ---- the conversation with a LUN ---- */

int scsicmd_send(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
		 struct scsicmd_outcome *o)
{
	if (p->lost) {
		snprintf(p->why, sizeof(p->why), "the connection to the target was lost before");
		return ENOTCONN;
	}
	for (int tries = 0;; tries++) {
		int e = p->send_once(p, c, buf, o);
		if (e || o->status != 0x02 || tries == SCSICMD_RETRIES ||
		    scsicmd_sense_key(o->sense, o->sense_len) != 0x06)	/* UNIT ATTENTION */
			return e;
	}
}

int scsicmd_ask(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf)
{
	struct scsicmd_outcome o;
	int e = scsicmd_send(p, c, buf, &o);

	if (!e && o.status != 0x00) {
		scsicmd_status_text(p->why, sizeof(p->why), o.status, o.sense, o.sense_len);
		return EIO;
	}
	return e;
}

int scsicmd_read_geometry(struct scsi_port *p)
{
	unsigned char data[32];
	struct scsicmd c;

	scsicmd_read_capacity16(&c);
	if (scsicmd_ask(p, &c, data) == 0 && scsicmd_capacity16(data, sizeof(data), &p->geom))
		return 0;
	if (p->lost)
		return ECONNRESET;
	scsicmd_read_capacity10(&c);
	int e = scsicmd_ask(p, &c, data);
	if (!e && !scsicmd_capacity10(data, 8, &p->geom)) {
		snprintf(p->why, sizeof(p->why), "READ CAPACITY says nothing usable");
		e = EIO;
	}
	return e;
}

void scsicmd_identify(struct scsi_port *p, char vendor[9], char product[17], char revision[5])
{
	unsigned char data[96] = { 0 };
	struct scsicmd c;

	scsicmd_inquiry(&c);
	if (scsicmd_ask(p, &c, data) != 0)
		memset(data, 0, sizeof(data));
	scsicmd_inquiry_ids(data, sizeof(data), vendor, product, revision);
}
