/*
 * iscsi.c - the "iscsi" backend: dbench 5.0's SCSI dialect (iscsi.load,
 * iscsi-read10-*.load, the persistent-reservation tests) sent to an iSCSI
 * target through libiscsi, in user space, with no kernel initiator.
 * Built as the module iscsi.so (modules.c holds its options and loads it
 * when a run selects it).
 *
 * The target is one LUN named by --iscsi=iscsi://HOST[:PORT]/IQN/LUN
 * (user%password@ before HOST for CHAP).  The parent logs in once to
 * check it (a host that does not answer, a login refused, a LUN that is
 * not there: exit 2 before any client starts), reads its capacity and
 * INQUIRY for the environment, and logs out.  Each client logs in with a
 * session of its own, as initiator NAME-N (--iscsi-initiatorname, N the
 * client's number: each an I_T nexus of its own, as the reservation tests
 * need), and sends one command at a time, each the row's CDB as
 * scsicmd.h builds it.
 *
 * Every wait is bounded: libiscsi's asynchronous calls on a poll loop of
 * our own (a signal does not cut a command short), --iscsi-timeout
 * seconds for a login or a command, after which the session is given up;
 * libiscsi's reconnection is off, so that a target that dies fails the
 * command at hand and the run with it.  A UNIT ATTENTION (a reset, a
 * reservation released by another nexus) is the target's news, not the
 * command's outcome: the command is sent again, SCSICMD_RETRIES times at
 * most, as an initiator does.
 *
 * Owns: the libiscsi contexts and the transfer buffer.  Knows nothing of
 * the driver, the stats region or the reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "backend.h"
#include "opclock.h"
#include "scsicmd.h"
#include "secret.h"
#include "backends/modules.h"
#include "backends/scsirow.h"

/* A call libiscsi answers through a callback: a connection, a login or
 * a command. */
struct wait {
	bool done;
	int status;
	struct scsi_task *task;
	char why[SCSICMD_WHY_MAX];	/* libiscsi's words for a failure, taken
					 * before its next call overwrites them */
};

/* One login: the parent's check or a client's own.  The waits live here,
 * not on a stack: libiscsi calls a login's callback again when the
 * connection goes, and a command's when the context is destroyed. */
struct session {
	struct scsi_port port;		/* first: send_once() is handed it */
	struct iscsi_context *ctx;
	int lun;
	struct wait login, cmd;
	struct scsi_iovec iov;		/* a command's data in */
	int timeout;			/* --iscsi-timeout: seconds a login or a command
					 * may take */
};

struct backend_target {
	const char *shown;		/* the URL, its password masked */
	const char *url;		/* as given */
	int timeout;			/* --iscsi-timeout */
	const char *initiator;		/* --iscsi-initiatorname, or NULL */
	struct scsi_geometry geom;
	char vendor[9], product[17], revision[5];
	int lun;
};

struct backend_client {
	struct session s;
	const struct program *prog;
	struct offset_state ost;
	unsigned char *buf;		/* max_transfer bytes, WRITEPATTERN's or zeros */
	char detail[SCSICMD_WHY_MAX + 64];	/* what failure_detail() says ... */
	bool has_detail;		/* ... when this is set */
};

/* ---- options ---- */

static const char **iscsi_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
{
	const char **list = backend_one_target(mem_ctx, "iscsi", dirs, "iscsi",
					       ((const struct iscsi_options *)own)->url,
					       "iscsi://HOST[:PORT]/TARGET-IQN/LUN", err);

	/* The driver names the target in messages, the header and the JSON:
	 * it gets the URL with its password masked; the real one stays in
	 * the options, where target_open() takes it. */
	if (list && !(list[0] = secret_mask_url(list, list[0])))
		*err = talloc_strdup(mem_ctx, "out of memory");
	return list && list[0] ? list : NULL;
}

/* ---- a session ---- */

/* libiscsi's last error, on one line. */
static void error_text(char *buf, size_t len, struct iscsi_context *ctx)
{
	snprintf(buf, len, "%s", iscsi_get_error(ctx));
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = *(p + 1) ? ' ' : '\0';
}

static void on_done(struct iscsi_context *ctx, int status, void *data, void *priv)
{
	struct wait *w = priv;

	w->done = true;
	w->status = status;
	w->task = data;
	if (status != SCSI_STATUS_GOOD)
		error_text(w->why, sizeof(w->why), ctx);
}

/* Serve the session until w is done, `secs` seconds at most (a signal
 * does not end the wait).  0, or an errno with s->port.why set. */
static int serve(struct session *s, struct wait *w, int secs)
{
	uint64_t deadline = monotonic_ns() + (uint64_t)secs * 1000000000u;

	while (!w->done) {
		uint64_t now = monotonic_ns();
		if (now >= deadline) {
			snprintf(s->port.why, sizeof(s->port.why), "no answer from the target within %d s",
				 secs);
			return ETIMEDOUT;
		}
		uint64_t left_ms = (deadline - now) / 1000000u + 1;
		struct pollfd pfd = { .fd = iscsi_get_fd(s->ctx), .events =
					      (short)iscsi_which_events(s->ctx) };
		int r = poll(&pfd, 1, left_ms > 1000 ? 1000 : (int)left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(s->port.why, sizeof(s->port.why), "poll: %s", strerror(errno));
			return errno;
		}
		if (iscsi_service(s->ctx, r > 0 ? pfd.revents : 0) < 0) {
			if (w->done && w->why[0])	/* its own words come first */
				snprintf(s->port.why, sizeof(s->port.why), "%s", w->why);
			else
				error_text(s->port.why, sizeof(s->port.why), s->ctx);
			return ECONNRESET;
		}
	}
	return 0;
}

static int send_once(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
		     struct scsicmd_outcome *o);

/* A context for `url` as initiator `name`, libiscsi's reconnection off;
 * its LUN in s->lun and its portal in portal[].  0 or an errno. */
static int session_make(struct session *s, const char *url, const char *name,
			char portal[MAX_STRING_SIZE + 1])
{
	struct iscsi_url *u;

	s->port.send_once = send_once;
	if (!(s->ctx = iscsi_create_context(name))) {
		snprintf(s->port.why, sizeof(s->port.why), "cannot make a libiscsi context for initiator"
			 " '%s'", name);
		return EINVAL;
	}
	if (!(u = iscsi_parse_full_url(s->ctx, url))) {	/* its words quote the URL */
		snprintf(s->port.why, sizeof(s->port.why), "not an iSCSI URL"
			 " (iscsi://[USER%%PASSWORD@]HOST[:PORT]/TARGET-IQN/LUN)");
		return EINVAL;
	}
	iscsi_set_targetname(s->ctx, u->target);
	iscsi_set_session_type(s->ctx, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(s->ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	iscsi_set_noautoreconnect(s->ctx, 1);
	if (u->user[0])
		iscsi_set_initiator_username_pwd(s->ctx, u->user, u->passwd);
	s->lun = u->lun;
	snprintf(portal, MAX_STRING_SIZE + 1, "%s", u->portal);
	iscsi_destroy_url(u);
	return 0;
}

/* Connect to `portal` and log in.  0, EACCES for a login the target
 * refused, or another errno; s->port.why says what happened. */
static int session_login(struct session *s, const char *portal)
{
	int e;

	if (iscsi_connect_async(s->ctx, portal, on_done, &s->login) != 0 ||
	    (e = serve(s, &s->login, s->timeout)) != 0 || s->login.status != SCSI_STATUS_GOOD) {
		char why[SCSICMD_WHY_MAX];
		snprintf(why, sizeof(why), "%.200s", s->login.done ? s->login.why : s->port.why);
		snprintf(s->port.why, sizeof(s->port.why), "cannot connect to %.64s: %.200s", portal,
			 why[0] ? why : iscsi_get_error(s->ctx));
		return ECONNREFUSED;
	}
	s->login = (struct wait){ 0 };
	if (iscsi_login_async(s->ctx, on_done, &s->login) != 0) {
		error_text(s->port.why, sizeof(s->port.why), s->ctx);
		return EIO;
	}
	if ((e = serve(s, &s->login, s->timeout)) != 0)
		return e;
	if (s->login.status != SCSI_STATUS_GOOD) {
		snprintf(s->port.why, sizeof(s->port.why), "%s", s->login.why);
		return EACCES;
	}
	return 0;
}

/* Log in to the LUN of `url` as initiator `name`, and see that the LUN
 * answers TEST UNIT READY, waiting `timeout` seconds at most each time.
 * 0 or an errno with s->port.why set (EACCES: the login was refused). */
static int session_open(struct session *s, const char *url, const char *name, int timeout)
{
	char portal[MAX_STRING_SIZE + 1];
	struct scsicmd tur = { .cdb_len = 6 };
	int e;

	s->timeout = timeout;
	if (!(e = session_make(s, url, name, portal)))
		e = session_login(s, portal);
	if (!e && (e = scsicmd_ask(&s->port, &tur, NULL)) != 0 && !s->port.lost) {
		char why[SCSICMD_WHY_MAX];
		snprintf(why, sizeof(why), "%.200s", s->port.why);
		snprintf(s->port.why, sizeof(s->port.why), "LUN %d answers TEST UNIT READY with %.200s", s->lun,
			 why);
	}
	return e;
}

/* Log out (a second at most: a goodbye, not a wait) and let go. */
static void session_close(struct session *s)
{
	if (!s->ctx)
		return;
	if (!s->port.lost && iscsi_is_logged_in(s->ctx)) {
		s->login = (struct wait){ 0 };
		if (iscsi_logout_async(s->ctx, on_done, &s->login) == 0)
			serve(s, &s->login, 1);
	}
	iscsi_destroy_context(s->ctx);
	s->ctx = NULL;
}

/* libiscsi's parsed sense data as fixed-format bytes. */
static void sense_of(const struct scsi_task *task, struct scsicmd_outcome *o)
{
	memset(o->sense, 0, 18);
	o->sense[0] = 0x70;
	o->sense[2] = (uint8_t)(task->sense.key & 0x0f);
	o->sense[7] = 10;
	o->sense[12] = (uint8_t)(task->sense.ascq >> 8);
	o->sense[13] = (uint8_t)(task->sense.ascq & 0xff);
	o->sense_len = 18;
}

/* The transport's verdict on a command that came back: 0 with its
 * status in *o, or an errno (the connection is lost). */
static int settle(struct session *s, const struct scsicmd *c, struct scsicmd_outcome *o)
{
	struct scsi_task *task = s->cmd.task;
	int status = s->cmd.status;

	if (status == SCSI_STATUS_CANCELLED || status == SCSI_STATUS_ERROR ||
	    status == SCSI_STATUS_TIMEOUT || !task) {
		s->port.lost = true;
		snprintf(s->port.why, sizeof(s->port.why), "the connection to the target was lost (%s)",
			 iscsi_get_error(s->ctx));
		return ECONNRESET;
	}
	o->status = (unsigned)status & 0xff;
	o->sense_len = 0;
	if (status == SCSI_STATUS_CHECK_CONDITION)
		sense_of(task, o);
	o->missing = c->dir == SCSICMD_IN && task->residual_status == SCSI_RESIDUAL_UNDERFLOW
			     ? task->residual : 0;
	scsi_free_scsi_task(task);
	return 0;
}

/* The session's scsi_port.send_once: send command c and wait for it,
 * --iscsi-timeout seconds at most. */
static int send_once(struct scsi_port *p, const struct scsicmd *c, unsigned char *buf,
		     struct scsicmd_outcome *o)
{
	struct session *s = (struct session *)p;
	static const int dirs[] = { SCSI_XFER_NONE, SCSI_XFER_READ, SCSI_XFER_WRITE };
	struct iscsi_data out = { c->len, c->params ? (unsigned char *)c->params_buf : buf };
	struct scsi_task *task = scsi_create_task(c->cdb_len, (unsigned char *)c->cdb,
						  dirs[c->dir], (int)c->len);

	if (!task) {
		snprintf(s->port.why, sizeof(s->port.why), "out of memory for a SCSI task");
		return ENOMEM;
	}
	if (c->dir == SCSICMD_IN) {
		s->iov = (struct scsi_iovec){ .iov_base = buf, .iov_len = c->len };
		scsi_task_set_iov_in(task, &s->iov, 1);
	}
	s->cmd = (struct wait){ 0 };
	if (iscsi_scsi_command_async(s->ctx, s->lun, task, on_done,
				     c->dir == SCSICMD_OUT ? &out : NULL, &s->cmd) != 0) {
		snprintf(s->port.why, sizeof(s->port.why), "%s", iscsi_get_error(s->ctx));
		scsi_free_scsi_task(task);
		s->port.lost = true;
		return EIO;
	}
	int e = serve(s, &s->cmd, s->timeout);
	if (e) {
		s->port.lost = true;		/* the task stays libiscsi's, cancelled with the context */
		return e;
	}
	return settle(s, c, o);
}

/* The initiator name of client `id` (0 for the parent's check) of t. */
static char *initiator_name(TALLOC_CTX *mem_ctx, const struct backend_target *t, unsigned id,
			    const struct backend_options *opts)
{
	const char *base = t->initiator && *t->initiator ? t->initiator : ISCSI_DEFAULT_INITIATOR;

	if (opts->ranked)
		return talloc_asprintf(mem_ctx, "%s-r%u-%u", base, opts->rank, id);
	return talloc_asprintf(mem_ctx, "%s-%u", base, id);
}

/* ---- the target ---- */

/* Whether `url` has the shape libiscsi parses without complaint:
 * iscsi://[USER[%PASSWORD]@]HOST[:PORT]/TARGET/LUN, LUN a number. */
static bool url_shaped(const char *url)
{
	const char *host = url + strlen("iscsi://"), *lun = strrchr(url, '/');
	const char *target = strchr(host, '/');

	if (strncmp(url, "iscsi://", 8) != 0 || !target || target == host || lun == target ||
	    lun == target + 1 || !lun[1])
		return false;
	return strspn(lun + 1, "0123456789") == strlen(lun + 1);
}

/* Check the target over a login of the parent's own: its geometry and
 * its identity.  0 or an errno with s->port.why. */
static int check_target(struct backend_target *t, struct session *s,
			const struct backend_options *opts)
{
	int e = session_open(s, t->url, initiator_name(t, t, 0, opts), t->timeout);

	if (!e)
		e = scsicmd_read_geometry(&s->port);
	if (!e)
		scsicmd_identify(&s->port, t->vendor, t->product, t->revision);
	t->geom = s->port.geom;
	t->lun = s->lun;
	return e;
}

static struct backend_target *iscsi_target_open(TALLOC_CTX *mem_ctx, const char *spec,
						const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	struct session *s = talloc_zero(mem_ctx, struct session);
	const char *why = scsirow_pointless_option(opts);
	const struct iscsi_options *o = opts->own;

	/* spec is the URL as shown (iscsi_targets()); the real one is --iscsi */
	if (t) {
		t->timeout = o->timeout;
		t->initiator = o->initiator;
	}
	if (!t || !s || !(t->url = talloc_strdup(t, o->url)) ||
	    !(t->shown = talloc_strdup(t, spec))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
	} else if (why) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", t->shown, why);
	} else if (!url_shaped(t->url)) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not an iSCSI URL"
				       " (iscsi://HOST[:PORT]/TARGET-IQN/LUN)", t->shown);
	} else {
		int e = check_target(t, s, opts);
		if (e == EACCES)
			*err = talloc_asprintf(mem_ctx, "%s: login refused: %s", t->shown, s->port.why);
		else if (e)
			*err = talloc_asprintf(mem_ctx, "%s: %s", t->shown, s->port.why);
	}
	session_close(s);
	talloc_free(s);
	if (!*err)
		return t;
	talloc_free(t);
	return NULL;
}

/* Nothing was made there: nothing to remove. */
static int iscsi_target_close(struct backend_target *t)
{
	(void)t;
	return 0;
}

static size_t iscsi_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	const struct dockey_value v[] = {
		{ DK_TARGET_URL, json_string(t->shown) },
		{ DK_TARGET_LUN, json_integer(t->lun) },
		{ DK_TARGET_BLOCKS, json_integer((json_int_t)t->geom.blocks) },
		{ DK_TARGET_BLOCK_SIZE, json_integer((int)t->geom.block_size) },
		{ DK_TARGET_VENDOR, json_string(t->vendor) },
		{ DK_TARGET_PRODUCT, json_string(t->product) },
		{ DK_TARGET_REVISION, json_string(t->revision) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

/* ---- clients ---- */

static int iscsi_client_destructor(struct backend_client *bc)
{
	session_close(&bc->s);
	return 0;
}

static struct backend_client *iscsi_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					       unsigned id, const struct program *prog,
					       const struct backend_options *opts,
					       struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);
	size_t len = loadfile_max_transfer(prog) > 4096 ? loadfile_max_transfer(prog) : 4096;

	(void)verify;	/* none: --verify is refused (scsirow_pointless_option()) */
	if (!bc || !(bc->buf = talloc_zero_array(bc, unsigned char, len))) {
		talloc_free(bc);
		*err = talloc_strdup(mem_ctx, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	talloc_set_destructor(bc, iscsi_client_destructor);
	for (size_t i = 0; prog->write_pattern && i < len; i++)
		bc->buf[i] = (unsigned char)prog->write_pattern[i % prog->write_pattern_len];
	bc->prog = prog;
	bc->ost = backend_offset_state(id, opts);
	int e = session_open(&bc->s, t->url, initiator_name(bc, t, id, opts), t->timeout);
	if (!e)
		e = scsicmd_read_geometry(&bc->s.port);
	if (e) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", t->shown, bc->s.port.why);
		talloc_free(bc);
		errno = e;
		return NULL;
	}
	return bc;
}

static size_t iscsi_client_mem(const struct program *prog, const struct backend_options *opts)
{
	size_t len = loadfile_max_transfer(prog) > 4096 ? loadfile_max_transfer(prog) : 4096;

	(void)opts;
	return sizeof(struct backend_client) + len + 4 * BACKEND_ALLOC_OVERHEAD;
}

/* ---- operations ---- */

static int iscsi_op(struct backend_client *bc, const struct op *op)
{
	return scsirow_perform(&bc->s.port, bc->prog, op, &bc->ost, bc->buf, bc->detail,
			       sizeof(bc->detail), &bc->has_detail);
}

static const char *iscsi_failure_detail(struct backend_client *bc)
{
	return backend_detail_taken(&bc->has_detail, bc->detail);
}

static void iscsi_pass_end(struct backend_client *bc)
{
	(void)bc;
}

/* Nothing was made: what was written stays, as on any LUN. */
static int iscsi_cleanup(struct backend_client *bc)
{
	(void)bc;
	return 0;
}

/* The hooks, under the name, summary and options modules.c gives them. */
const struct backend iscsi_module = {
	.targets = iscsi_targets,
	.target_open = iscsi_target_open,
	.target_close = iscsi_target_close,
	.target_describe = iscsi_target_describe,
	.client_new = iscsi_client_new,
	.client_mem = iscsi_client_mem,
	.op = { [OP_SCSI_FIRST ... OP_SCSI_LAST] = iscsi_op },
	.failure_detail = iscsi_failure_detail,
	.pass_end = iscsi_pass_end,
	.cleanup = iscsi_cleanup,
};
