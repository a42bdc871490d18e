/*
 * test_scsicmd.c - the SCSI dialect's rows as commands (scsicmd.h and
 * backends/scsirow.h): the CDB bytes of each row as SBC-3 and SPC-4 lay
 * them out, a row placed on a LUN of 512- and 4096-byte blocks (wrapped,
 * moved back from the end, refused where the CDB cannot hold it), READ
 * CAPACITY's and
 * INQUIRY's answers, statuses and sense data by name, a row's outcome
 * against its expected status, and the UNIT ATTENTION retry over a
 * transport's send_once (here one that answers from a script).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "ops.h"
#include "scsicmd.h"
#include "backends/scsirow.h"

static const struct program *compile(void **state, const char *text)
{
	char *err = NULL;
	struct program *prog = loadfile_compile(fixture_ctx(state), "t.load", text, strlen(text),
						&err);
	if (!prog)
		fail_msg("compile failed: %s", err);
	return prog;
}

static const struct scsi_geometry g512 = { .blocks = 32768, .block_size = 512 };
static const struct scsi_geometry g4k = { .blocks = 4096, .block_size = 4096 };

static void build_ok(const struct op *op, uint64_t lba, const struct scsi_geometry *g,
		     struct scsicmd *c)
{
	char why[160] = "";
	if (!scsicmd_build(c, op, lba, g, why, sizeof(why)))
		fail_msg("refused: %s", why);
}

/* ---- CDBs ---- */

static void test_read10_and_write16_cdbs(void **state)
{
	const struct program *p = compile(state, "READ10 1000 16 0x10 3 0x00\n"
					  "WRITE16 70000 8 0x08 5 0x00\n");
	struct scsicmd c;
	static const uint8_t r10[10] = { 0x28, 0x10, 0, 0, 0x03, 0xe8, 3, 0, 16, 0 };

	build_ok(loadfile_op(p, 0), 1000, &g512, &c);
	assert_int_equal(c.cdb_len, 10);
	assert_memory_equal(c.cdb, r10, 10);
	assert_int_equal(c.dir, SCSICMD_IN);
	assert_int_equal(c.len, 16 * 512);
	build_ok(loadfile_op(p, 1), 70000, &g512 /* 32768 blocks: 70000 wraps to 4464 */, &c);
	assert_int_equal(c.cdb_len, 16);
	assert_int_equal(c.dir, SCSICMD_OUT);
	assert_int_equal(c.cdb[0], 0x8a);
	assert_int_equal(c.cdb[1], 0x08);
	assert_int_equal(c.cdb[8] << 8 | c.cdb[9], 70000 % 32768);
	assert_int_equal(c.cdb[13], 8);
	assert_int_equal(c.cdb[14], 5);
}

static void test_read6_tur_sync_prout_cdbs(void **state)
{
	const struct program *p = compile(state, "READ6 0x1234 256 0x00\n"
					  "TESTUNITREADY 0x00\n"
					  "SYNCHRONIZECACHE10 8 16 1 1 0x00\n"
					  "PROUT 1 3 0xdeadbeef 0x1122 0x18\n");
	struct scsicmd c;

	build_ok(loadfile_op(p, 0), 0x1234, &g512, &c);
	assert_int_equal(c.cdb_len, 6);
	assert_int_equal(c.cdb[0], 0x08);
	assert_int_equal(c.cdb[2] << 8 | c.cdb[3], 0x1234);
	assert_int_equal(c.cdb[4], 0);		/* 256 blocks is 0 */
	build_ok(loadfile_op(p, 1), 0, &g512, &c);
	assert_int_equal(c.cdb_len, 6);
	assert_int_equal(c.cdb[0], 0x00);
	assert_int_equal(c.dir, SCSICMD_NONE);
	build_ok(loadfile_op(p, 2), 8, &g512, &c);
	assert_int_equal(c.cdb[0], 0x35);
	assert_int_equal(c.cdb[1], 0x06);	/* SYNC_NV and IMMED */
	assert_int_equal(c.cdb[5], 8);
	assert_int_equal(c.cdb[8], 16);
	build_ok(loadfile_op(p, 3), 0, &g512, &c);
	assert_int_equal(c.cdb[0], 0x5f);
	assert_int_equal(c.cdb[1], 1);		/* RESERVE */
	assert_int_equal(c.cdb[2], 3);		/* EXCLUSIVE ACCESS */
	assert_int_equal(c.cdb[8], SCSICMD_PROUT_PARAMS);
	assert_true(c.params);
	assert_int_equal(c.len, SCSICMD_PROUT_PARAMS);
	assert_int_equal((uint32_t)c.params_buf[4] << 24 | c.params_buf[5] << 16 | c.params_buf[6] << 8 |
			 c.params_buf[7], 0xdeadbeef);
	assert_int_equal(c.params_buf[14] << 8 | c.params_buf[15], 0x1122);
}

/* ---- a row placed on the LUN ---- */

static void test_rows_on_4k_blocks_and_at_the_end(void **state)
{
	const struct program *p = compile(state, "READ10 16 16 0 0 0x00\n"
					  "READ10 16 3 0 0 0x00\n"
					  "READ10 32767 8 0 0 0x00\n");
	struct scsicmd c;
	char why[160] = "";

	build_ok(loadfile_op(p, 0), 16, &g4k, &c);	/* 512-byte LBA 16 is 4 KiB block 2 */
	assert_int_equal(c.cdb[5], 2);
	assert_int_equal(c.cdb[8], 2);
	assert_int_equal(c.len, 16 * 512);
	assert_false(scsicmd_build(&c, loadfile_op(p, 1), 16, &g4k, why, sizeof(why)));
	assert_non_null(strstr(why, "no whole number of the LUN's 4096-byte blocks"));
	build_ok(loadfile_op(p, 2), 32767, &g512, &c);	/* would cross the end: moved back */
	assert_int_equal(c.cdb[4] << 8 | c.cdb[5], 32768 - 8);
}

static void test_transfer_larger_than_the_lun_refused(void **state)
{
	const struct program *p = compile(state, "READ10 0 64 0 0 0x00\n");
	const struct scsi_geometry tiny = { .blocks = 32, .block_size = 512 };
	struct scsicmd c;
	char why[160] = "";

	assert_false(scsicmd_build(&c, loadfile_op(p, 0), 0, &tiny, why, sizeof(why)));
	assert_string_equal(why, "READ10 of 64 blocks on a LUN of 32");
}

/* ---- answers ---- */

static void test_capacity_and_inquiry(void **state)
{
	static const uint8_t cap16[32] = { 0, 0, 0, 0, 0, 0, 0x7f, 0xff, 0, 0, 0x10, 0 };
	static const uint8_t cap10_bad[8] = { 0, 0, 0x10, 0, 0, 0, 0x03, 0 };	/* 768 bytes */
	struct scsi_geometry g;
	uint8_t inq[96];
	char v[9], pr[17], r[5];

	(void)state;
	assert_true(scsicmd_capacity16(cap16, sizeof(cap16), &g));
	assert_int_equal(g.blocks, 32768);
	assert_int_equal(g.block_size, 4096);
	assert_false(scsicmd_capacity10(cap10_bad, sizeof(cap10_bad), &g));
	memset(inq, ' ', sizeof(inq));
	memcpy(inq + 8, "IET", 3);
	memcpy(inq + 16, "VIRTUAL-DISK", 12);
	memcpy(inq + 32, "0001", 4);
	scsicmd_inquiry_ids(inq, sizeof(inq), v, pr, r);
	assert_string_equal(v, "IET");
	assert_string_equal(pr, "VIRTUAL-DISK");
	assert_string_equal(r, "0001");
}

static void test_status_and_sense_by_name(void **state)
{
	static const uint8_t fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x25, 0x00 };
	static const uint8_t desc[8] = { 0x72, 0x06, 0x29, 0x00 };
	char buf[200];

	(void)state;
	scsicmd_status_text(buf, sizeof(buf), 0x02, fixed, sizeof(fixed));
	assert_string_equal(buf, "CHECK CONDITION (0x02), ILLEGAL REQUEST, asc/ascq 0x25/0x00"
			    " (LOGICAL UNIT NOT SUPPORTED)");
	scsicmd_status_text(buf, sizeof(buf), 0x18, NULL, 0);
	assert_string_equal(buf, "RESERVATION CONFLICT (0x18)");
	assert_int_equal(scsicmd_sense_key(desc, sizeof(desc)), 0x06);
	scsicmd_status_text(buf, sizeof(buf), 0x02, NULL, 0);
	assert_string_equal(buf, "CHECK CONDITION (0x02), no sense data");
}

static void test_outcome_against_the_expected_status(void **state)
{
	const struct program *p = compile(state, "PROUT 1 3 1 0 0x18\nPROUT 2 3 1 0 0x00\n"
					  "PROUT 2 3 1 0 *\n");
	char d[200] = "";
	bool has = false;

	/* the status the row expects: an errno, no detail (the client says
	 * it was expected) */
	assert_int_equal(scsirow_outcome(loadfile_op(p, 0), 0x18, NULL, 0, d, sizeof(d), &has), EBUSY);
	assert_false(has);
	assert_int_equal(scsirow_outcome(loadfile_op(p, 1), 0x00, NULL, 0, d, sizeof(d), &has), 0);
	/* another status: an outcome difference, with both named */
	assert_int_equal(scsirow_outcome(loadfile_op(p, 1), 0x18, NULL, 0, d, sizeof(d), &has),
			 BACKEND_OTHER_STATUS);
	assert_true(has);
	assert_string_equal(d, "RESERVATION CONFLICT (0x18), expected GOOD (0x00)");
	has = false;
	assert_int_equal(scsirow_outcome(loadfile_op(p, 2), 0x08, NULL, 0, d, sizeof(d), &has), EAGAIN);
	assert_false(has);
}

/* ---- the conversation over a transport ---- */

/* A transport that answers from a script: statuses[i] for the i-th
 * command, a UNIT ATTENTION's sense data with CHECK CONDITION. */
struct scripted {
	struct scsi_port port;
	const unsigned *statuses;
	int n, sent;
};

static int scripted_send(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
			 struct scsicmd_outcome *o)
{
	struct scripted *s = (struct scripted *)p;
	(void)c;
	(void)buf;
	if (s->sent >= s->n) {
		snprintf(p->why, sizeof(p->why), "the script ran out");
		p->lost = true;
		return ECONNRESET;
	}
	memset(o, 0, sizeof(*o));
	o->status = s->statuses[s->sent++];
	if (o->status == 0x02) {
		o->sense[0] = 0x70;
		o->sense[2] = 0x06;	/* UNIT ATTENTION */
		o->sense[12] = 0x29;
		o->sense_len = 18;
	}
	return 0;
}

static void test_unit_attention_is_retried_then_given_up(void **state)
{
	static const unsigned twice[] = { 0x02, 0x02, 0x00 };
	static const unsigned always[] = { 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02 };
	struct scripted s = { .port.send_once = scripted_send, .statuses = twice, .n = 3 };
	struct scsicmd tur = { .cdb_len = 6 };

	(void)state;
	assert_int_equal(scsicmd_ask(&s.port, &tur, NULL), 0);
	assert_int_equal(s.sent, 3);
	s = (struct scripted){ .port.send_once = scripted_send, .statuses = always, .n = 8 };
	assert_int_equal(scsicmd_ask(&s.port, &tur, NULL), EIO);
	assert_int_equal(s.sent, SCSICMD_RETRIES + 1);
	assert_non_null(strstr(s.port.why, "UNIT ATTENTION"));
	s = (struct scripted){ .port.send_once = scripted_send, .statuses = twice, .n = 0 };
	assert_int_equal(scsicmd_ask(&s.port, &tur, NULL), ECONNRESET);
	assert_int_equal(scsicmd_ask(&s.port, &tur, NULL), ENOTCONN);	/* lost: not sent again */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read10_and_write16_cdbs, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_read6_tur_sync_prout_cdbs, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_rows_on_4k_blocks_and_at_the_end,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_transfer_larger_than_the_lun_refused,
						fixture_setup, fixture_teardown),
		cmocka_unit_test(test_capacity_and_inquiry),
		cmocka_unit_test(test_status_and_sense_by_name),
		cmocka_unit_test_setup_teardown(test_outcome_against_the_expected_status,
						fixture_setup, fixture_teardown),
		cmocka_unit_test(test_unit_attention_is_retried_then_given_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
