/*
 * smb.c - the "smb" backend: each loadfile operation as the libsmbclient
 * call closest to the SMB request it records, against a share on an SMB
 * server (--smb-share=//HOST[:PORT]/SHARE[/PATH]).
 *
 * Built as the module smb.so (modules.c holds its options, whose struct
 * of modules.h it reads, and loads it when a run selects it).  This file
 * owns its target (the share: checked and its PATH/clients made in the
 * parent, over a connection of the parent's own that is closed again
 * before any client starts) and each client's session: one libsmbclient
 * context per client, made in the client's process, with the handles
 * the trace has open.  It knows
 * nothing of the driver or the stats.  The share and credentials are
 * parsed by smb_args.c; FIND_FIRST's patterns are matched by dosmatch.c.
 *
 * libsmbclient reads its client settings from ~/.smb/smb.conf, else from
 * /etc/samba/smb.conf, as smbclient does; the dialects (SMB2_02 to
 * SMB3_11, or the one --smb-protocol pins, NT1 among them), the port,
 * the timeout and the credentials are set here whatever those say (and a
 * client blanks "workgroup" and "netbios name" among its settings once
 * logged on: smb_light_credentials()).  The
 * library cannot lock byte ranges or flush a file: LockX, UnlockX and
 * Flush are not supported (counted as such, never sent).  dbench 5.0's
 * SMB dialect (OPEN ... Deltree) is sent as that version's smb backend
 * sent it, through the same calls.  A recording's calls (the system-call dialect)
 * go through netsys.c, which this file gives libsmbclient's requests.  A query by a name the trace holds
 * open goes to the open file (smb_held()): libsmbclient has no compound,
 * so that is the one way to spare the server a create and a close.  The
 * server resolves every name: confinement beneath SHARE/PATH/clients
 * rests on the loadfile's paths (which never hold "..") and on the
 * server's own rules for links.
 */
#include <errno.h>
#include <fcntl.h>
#include <libsmbclient.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <tevent.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "dosmatch.h"
#include "jsontext.h"
#include "smb_args.h"
#include "smb_probe.h"
#include "backends/modules.h"
#include "backends/netsys.h"

/* NTCreateX's create_options bit beside NT_DIRECTORY_FILE (backend.h). */
#define SMB_NON_DIRECTORY_FILE 0x40

#define SMB_URL_MAX 4096		/* an smb:// URL we build, NUL included */

/* From the newest down: without --smb-protocol, the first the server
 * accepts is the one a negotiation over the whole range settles on.  NT1
 * (SMB1) is last and spoken only when --smb-protocol names it: the range
 * negotiated by default is SMB2_02 to SMB3_11 (SMB_NDEFAULT). */
static const char *const smb_dialects[] = { "SMB3_11", "SMB3_02", "SMB3_00", "SMB2_10",
					    "SMB2_02", "NT1" };
#define SMB_NDIALECTS (sizeof(smb_dialects) / sizeof(smb_dialects[0]))
#define SMB_NDEFAULT (SMB_NDIALECTS - 1)

/* ---- the target ---- */

struct backend_target {
	const struct smb_options *o;	/* the run's, smb_targets() completed */
	struct smb_share *share;
	char *share_url;	/* smb://HOST/SHARE, percent-encoded */
	char *base;		/* share_url[/PATH] */
	char *clients;		/* base + "/clients" */
	const char *dialect;	/* what the server and we settled on */
	char *server;		/* HOST:PORT, for messages and the JSON */
};

/* ---- URLs ---- */

/* Append `s` to the URL in buf (of SMB_URL_MAX), percent-encoding every
 * byte but letters, digits, '/' and "-._~" (libsmbclient decodes the
 * path, and takes '?' as the start of options).  ENAMETOOLONG when it
 * does not fit. */
static int smb_url_append(char *buf, size_t *len, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = *len;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || strchr("/-._~", c);
		if (n + (plain ? 1 : 3) >= SMB_URL_MAX)
			return ENAMETOOLONG;
		if (plain) {
			buf[n++] = (char)c;
		} else {
			buf[n++] = '%';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		}
	}
	buf[n] = '\0';
	*len = n;
	return 0;
}

/* buf = prefix + "/" + rel (rel encoded; nothing added for rel ""). */
static int smb_url(char *buf, const char *prefix, const char *rel)
{
	size_t len = strlen(prefix);

	if (len + 1 >= SMB_URL_MAX)
		return ENAMETOOLONG;
	memcpy(buf, prefix, len + 1);
	if (!*rel)
		return 0;
	buf[len++] = '/';
	return smb_url_append(buf, &len, rel);
}

/* ---- sessions ---- */

static void smb_auth(SMBCCTX *ctx, const char *server, const char *share, char *wg, int wglen,
		     char *user, int userlen, char *pass, int passlen)
{
	const struct smb_creds *creds = smbc_getOptionUserData(ctx);

	(void)server, (void)share;
	if (creds->domain)
		snprintf(wg, (size_t)wglen, "%s", creds->domain);
	snprintf(user, (size_t)userlen, "%s", creds->user);
	snprintf(pass, (size_t)passlen, "%s", creds->password);
}

/*
 * Every synchronous libsmbclient call makes an event context of its own
 * for the one request it waits on, with tevent's default backend: epoll,
 * which costs an epoll_create, two fcntl, an epoll_ctl and a close on top
 * of the wait, each request (strace -c: 11.6 system calls a request
 * against smbtorture's 7.6).  poll waits on the one socket as well with
 * none of them.  tevent's own public switch, for this process: tevent is
 * used here by libsmbclient alone.
 */
static void smb_tevent_poll(void)
{
	static bool done;
	TALLOC_CTX *tmp;

	if (done)
		return;
	done = true;
	if ((tmp = talloc_new(NULL)) && tevent_context_init_byname(tmp, "poll"))
		tevent_set_default_backend("poll");
	talloc_free(tmp);
}

static int smb_free_context(SMBCCTX **ctx)
{
	if (*ctx)
		smbc_free_context(*ctx, 1);
	*ctx = NULL;
	return 0;
}

/*
 * A new libsmbclient context for `t`, speaking dialects min..max (NULL
 * for the default range), owned by mem_ctx (freed with it, closing its
 * connections).  NULL on failure, errno set.
 */
static SMBCCTX *smb_context(TALLOC_CTX *mem_ctx, const struct backend_target *t,
			    const char *min, const char *max)
{
	SMBCCTX **holder = talloc(mem_ctx, SMBCCTX *);
	SMBCCTX *ctx;

	if (!holder) {
		errno = ENOMEM;
		return NULL;
	}
	smb_tevent_poll();
	*holder = ctx = smbc_new_context();
	if (!ctx) {
		talloc_free(holder);
		errno = ENOMEM;
		return NULL;
	}
	talloc_set_destructor(holder, smb_free_context);
	smbc_setDebug(ctx, 0);
	smbc_setOptionUserData(ctx, t->o->creds);
	smbc_setFunctionAuthDataWithContext(ctx, smb_auth);
	smbc_setOptionNoAutoAnonymousLogin(ctx, true);
	smbc_setOptionUseKerberos(ctx, false);
	smbc_setOptionFallbackAfterKerberos(ctx, true);
	smbc_setPort(ctx, (uint16_t)t->share->port);
	smbc_setTimeout(ctx, t->o->timeout * 1000);
	if (!smbc_setOptionProtocols(ctx, min ? min : smb_dialects[SMB_NDEFAULT - 1],
				     max ? max : smb_dialects[0]) ||
	    !smbc_init_context(ctx)) {
		int err = errno ? errno : EINVAL;
		talloc_free(holder);
		errno = err;
		return NULL;
	}
	return ctx;
}

/* ---- options, checked in main ---- */

static const char *smb_protocol_of(const char *name)
{
	for (size_t i = 0; i < SMB_NDIALECTS; i++)
		if (strcasecmp(name, smb_dialects[i]) == 0)
			return smb_dialects[i];
	return NULL;
}

/* The share as the one target, with the options checked and the
 * credentials read into `own` once, before any run. */
static const char **smb_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
{
	struct smb_options *o = own;
	struct smb_creds *creds = talloc_zero(mem_ctx, struct smb_creds);
	const char **specs = backend_one_target(mem_ctx, "smb", dirs, "smb-share", o->share,
						"//HOST[:PORT]/SHARE[/PATH]", err);

	if (!specs)
		return NULL;
	if (!creds) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	if (o->protocol && !(o->pinned = smb_protocol_of(o->protocol))) {
		*err = talloc_asprintf(mem_ctx, "--smb-protocol '%s': not NT1, SMB2_02, SMB2_10,"
				       " SMB3_00, SMB3_02 or SMB3_11", o->protocol);
		return NULL;
	}
	if (!smb_args_creds(mem_ctx, o->user, o->credentials, creds, err))
		return NULL;
	smb_args_forget_env();	/* no client carries them in its environment */
	o->creds = creds;
	return specs;
}

/* ---- the server's reasons ---- */

/*
 * libsmbclient says why a logon failed only in its debug messages; the
 * parent listens to them while it opens the target, and keeps the last
 * "login failed: REASON" (the server's NT status, as text) to name it.
 * Every message is taken here, so that none reaches our output.
 */
static char smb_reason[256];

static void smb_log(void *private_ptr, int level, const char *msg)
{
	const char *p = strstr(msg, "login failed: ");

	(void)private_ptr, (void)level;
	if (p) {
		snprintf(smb_reason, sizeof(smb_reason), "%s", p + strlen("login failed: "));
		smb_reason[strcspn(smb_reason, "\n")] = '\0';
	}
}

/* Why connecting to the target as the user failed, for the one error
 * line: the server's reason where it gave one. */
static char *smb_connect_error(TALLOC_CTX *mem_ctx, const struct backend_target *t, int err)
{
	const struct smb_share *sh = t->share;

	switch (err) {
	case EACCES:
	case EPERM:
		return talloc_asprintf(mem_ctx, "%s: logon as '%s%s%s' refused: %s", sh->spec,
				       t->o->creds->domain ? t->o->creds->domain : "",
				       t->o->creds->domain ? "/" : "", t->o->creds->user,
				       *smb_reason ? smb_reason : strerror(err));
	case ENOENT:
	case ENODEV:
		return talloc_asprintf(mem_ctx, "%s: no share '%s' on %s", sh->spec, sh->share,
				       t->server);
	default: {
		/* libsmbclient cannot tell a peer that speaks no SMB */
		const char *what = err == ECONNREFUSED || err == EHOSTUNREACH || err == ENETUNREACH
			? NULL : smb_probe_peer(mem_ctx, sh->host, sh->port, 2);
		return talloc_asprintf(mem_ctx, "%s: cannot connect: %s", sh->spec,
				       what ? what : strerror(err));
	}
	}
}

/* ---- the target ---- */

static int smb_stat(SMBCCTX *ctx, const char *url, struct stat *st)
{
	return smbc_getFunctionStat(ctx)(ctx, url, st) == 0 ? 0 : errno;
}

static int smb_mkdir(SMBCCTX *ctx, const char *url)
{
	return smbc_getFunctionMkdir(ctx)(ctx, url, 0755) == 0 ? 0 : errno;
}

static int smb_rmdir(SMBCCTX *ctx, const char *url)
{
	return smbc_getFunctionRmdir(ctx)(ctx, url) == 0 ? 0 : errno;
}

/* The share's URL prefix and its directories'; 0, ENAMETOOLONG (past
 * SMB_URL_MAX) or ENOMEM. */
static int smb_target_urls(struct backend_target *t)
{
	const struct smb_share *sh = t->share;
	bool v6 = strchr(sh->host, ':') != NULL;
	char buf[SMB_URL_MAX];
	size_t len = (size_t)snprintf(buf, sizeof(buf), "smb://%s%s%s/", v6 ? "[" : "", sh->host,
				      v6 ? "]" : "");

	if (len >= sizeof(buf) || smb_url_append(buf, &len, sh->share) != 0)
		return ENAMETOOLONG;
	if (!(t->share_url = talloc_strdup(t, buf)))
		return ENOMEM;
	if (*sh->path && (len + 1 >= sizeof(buf) || (buf[len++] = '/', buf[len] = '\0',
						      smb_url_append(buf, &len, sh->path) != 0)))
		return ENAMETOOLONG;
	/* room for what the clients add beneath: "/clients/clientN/" and a
	 * loadfile's path are checked as they come */
	t->base = talloc_strdup(t, buf);
	t->clients = talloc_asprintf(t, "%s/clients", buf);
	t->server = talloc_asprintf(t, "%s%s%s:%u", v6 ? "[" : "", sh->host, v6 ? "]" : "",
				    sh->port);
	return t->base && t->clients && t->server ? 0 : ENOMEM;
}

/* The dialect a negotiation over the whole range settles on: the newest
 * one the server accepts alone.  Each try is one more connection. */
static const char *smb_probe_dialect(const struct backend_target *t)
{
	struct stat st;

	for (size_t i = 0; i < SMB_NDEFAULT; i++) {
		TALLOC_CTX *tmp = talloc_new(NULL);
		SMBCCTX *ctx = smb_context(tmp, t, smb_dialects[i], smb_dialects[i]);
		bool ok = ctx && smb_stat(ctx, t->share_url, &st) == 0;
		talloc_free(tmp);
		if (ok)
			return smb_dialects[i];
	}
	return "unknown";
}

static struct backend_target *smb_target_open(TALLOC_CTX *mem_ctx, const char *spec,
					      const struct backend_options *opts, char **err)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	char *msg = NULL;
	struct stat st;
	int e;

	if (!tmp || !t)
		goto nomem;
	t->o = opts->own;
	if (opts->sync_open || opts->sync_dir || opts->fsync_writes || opts->xattr) {
		msg = talloc_strdup(tmp, "-s, -S, -F and -x are not supported by the smb backend"
				    " (libsmbclient can neither sync nor set a raw xattr)");
		goto fail;
	}
	if (!(t->share = smb_args_share(t, spec, &msg)))
		goto fail;
	if ((e = smb_target_urls(t)) == ENAMETOOLONG) {
		msg = talloc_asprintf(tmp, "--smb-share: the share's URL would be longer than"
				      " the %d bytes this backend builds", SMB_URL_MAX - 1);
		goto fail;
	}
	if (e)
		goto nomem;
	const struct smb_share *sh = t->share;
	/* libsmbclient calls a host it cannot resolve a missing share. */
	struct addrinfo *ai = NULL;
	if ((e = getaddrinfo(sh->host, NULL, NULL, &ai)) != 0) {
		msg = talloc_asprintf(tmp, "%s: unknown host '%s': %s", spec, sh->host,
				      gai_strerror(e));
		goto fail;
	}
	freeaddrinfo(ai);
	smbc_setLogCallback(NULL, NULL, smb_log);
	smb_reason[0] = '\0';
	SMBCCTX *ctx = smb_context(tmp, t, t->o->pinned, t->o->pinned);
	if (!ctx) {
		msg = talloc_asprintf(tmp, "%s: cannot set up libsmbclient: %s", spec,
				      strerror(errno));
		goto fail;
	}
	smbc_setDebug(ctx, 3);	/* for the server's reason, if it refuses */
	if ((e = smb_stat(ctx, t->share_url, &st)) != 0) {
		msg = smb_connect_error(tmp, t, e);
		goto fail;
	}
	smbc_setDebug(ctx, 0);
	if (*sh->path && (e = smb_stat(ctx, t->base, &st)) != 0) {
		msg = talloc_asprintf(tmp, "%s: no directory '%s' in the share: %s", spec,
				      sh->path, strerror(e));
		goto fail;
	}
	if (*sh->path && !S_ISDIR(st.st_mode)) {
		msg = talloc_asprintf(tmp, "%s: '%s' in the share is not a directory", spec,
				      sh->path);
		goto fail;
	}
	e = smb_mkdir(ctx, t->clients);
	if ((e != 0 && e != EEXIST) || (e = smb_stat(ctx, t->clients, &st)) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		msg = talloc_asprintf(tmp, "%s: cannot make directory 'clients': %s", spec,
				      e ? strerror(e) : "not a directory");
		goto fail;
	}
	t->dialect = t->o->pinned ? t->o->pinned : smb_probe_dialect(t);
	talloc_free(tmp);	/* the parent's connection: no client inherits it */
	return t;
nomem:
	msg = talloc_strdup(tmp, "out of memory");
fail:
	*err = talloc_strdup(mem_ctx, msg ? msg : "out of memory");
	talloc_free(t);
	talloc_free(tmp);
	return NULL;
}

/* Remove the clients directory if the clients left it empty, over a
 * connection of this process's own. */
static int smb_target_close(struct backend_target *t)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	SMBCCTX *ctx = tmp ? smb_context(tmp, t, t->o->pinned, t->o->pinned) : NULL;
	int e = ctx ? smb_rmdir(ctx, t->clients) : errno;

	talloc_free(tmp);
	return e == ENOTEMPTY || e == EEXIST || e == ENOENT ? 0 : e;
}

/* backend.target_space: the share's room, as the server gives it
 * (statvfs over a session of the parent's own, closed again). */
static int smb_target_space(struct backend_target *t, struct backend_space *sp)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	SMBCCTX *ctx = tmp ? smb_context(tmp, t, t->o->pinned, t->o->pinned) : NULL;
	struct statvfs v;
	int e = !ctx ? (errno ? errno : ENOMEM)
		     : smbc_getFunctionStatVFS(ctx)(ctx, t->base, &v) == 0 ? 0 : errno;

	talloc_free(tmp);
	if (e)
		return e;
	uint64_t unit = v.f_frsize ? v.f_frsize : v.f_bsize ? v.f_bsize : 1;
	*sp = (struct backend_space){
		.bytes = v.f_bavail > UINT64_MAX / unit ? UINT64_MAX : (uint64_t)v.f_bavail * unit,
		.inodes = v.f_favail, .inodes_known = v.f_files != 0,
		.block = v.f_bsize ? v.f_bsize : unit,
		.fs = backend_fs_id(t->server, t->share_url),
	};
	return 0;
}

static size_t smb_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	/* names the user chose go through the one rule for names (jsontext.h) */
	const struct dockey_value v[] = {
		{ DK_TARGET_SERVER, jsontext(t->server) },
		{ DK_TARGET_SHARE, jsontext(t->share->share) },
		{ DK_TARGET_PATH, jsontext(t->share->path) },
		{ DK_TARGET_PROTOCOL, json_string(t->dialect) },
		{ DK_TARGET_PROTOCOL_PINNED, json_boolean(t->o->pinned != NULL) },
		{ DK_TARGET_USER, jsontext(t->o->creds->user) },
		{ DK_TARGET_DOMAIN, jsontext(t->o->creds->domain) },
		{ DK_TARGET_LIBSMBCLIENT, json_string(smbc_version()) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

/* ---- the client ---- */

/* An open the trace holds: a file, or a directory (NTCreateX opens
 * those too), its URL (SET_FILE_INFORMATION sets times by name), and the
 * loadfile's name for it while that name still leads to it (the
 * program's interned path, compared by pointer; NULL once a Rename,
 * Unlink, Rmdir or Deltree at or above it has run). */
struct smb_handle {
	SMBCFILE *f;
	bool dir;
	char *url;
	const char *path;
};

struct backend_client {
	struct backend_target *t;
	const struct program *prog;
	SMBCCTX *ctx;		/* this client's session */
	char *client_url;	/* SHARE/PATH/clients/client<id> */
	struct smb_handle *h;	/* by handle slot */
	unsigned nh;
	size_t max_xfer;	/* largest ReadX/WriteX size in the program */
	char *wbuf, *rbuf;	/* WriteX's zeros (or pattern), ReadX's target */
	char url[SMB_URL_MAX], url2[SMB_URL_MAX];	/* an operation's names */
	struct verify *verify;	/* --verify: what this client wrote where; else NULL */
	SMBCFILE *fs;		/* the client directory, listed once, for QUERY_FS_INFORMATION */
	struct offset_state ost;	/* dbench 5.0 SMB rows' offset expressions */
	struct netsys *sys;	/* a recording's replay (the system-call dialect), or NULL */
};

static int smb_close_handle(struct backend_client *bc, struct smb_handle *h)
{
	int r = 0;

	if (h->f)
		r = h->dir ? smbc_getFunctionClosedir(bc->ctx)(bc->ctx, h->f)
			   : smbc_getFunctionClose(bc->ctx)(bc->ctx, h->f);
	h->f = NULL;
	h->path = NULL;
	TALLOC_FREE(h->url);
	return r == 0 ? 0 : errno;
}

static void smb_close_handles(struct backend_client *bc)
{
	for (unsigned i = 0; i < bc->nh; i++)
		smb_close_handle(bc, &bc->h[i]);
	if (bc->fs)
		smbc_getFunctionClosedir(bc->ctx)(bc->ctx, bc->fs);
	bc->fs = NULL;
}

/* The URL of an operation's first (or second) path in buf: beneath the
 * client directory, or the clients directory for "\clients". */
static int smb_op_url(struct backend_client *bc, char *buf, const struct op *op, bool second)
{
	const char *path = second ? op->path2 : op->path;

	if (!path)
		return EINVAL;
	if (op->flags & OPF_CLIENTS_DIR)
		return smb_url(buf, bc->t->clients, "");
	return smb_url(buf, bc->client_url, path);
}

static struct smb_handle *smb_handle_of(struct backend_client *bc, const struct op *op)
{
	if (op->handle == HANDLE_NONE || op->handle >= bc->nh || !bc->h[op->handle].f)
		return NULL;
	return &bc->h[op->handle];
}

/*
 * A file the trace holds open under the name op->path, or NULL.  A query
 * by that name is asked of the open file instead: one request on the
 * handle the server has already resolved (SMB2 would open, query and
 * close the name again; SMB1 looks the path up again), and no URL for
 * libsmbclient to parse.  Only for a query expected to succeed: one
 * expected to fail goes to the server by name, as the trace did.
 */
static struct smb_handle *smb_held(struct backend_client *bc, const struct op *op)
{
	if (op->status != NT_OK || (op->flags & OPF_ANY_STATUS) || !op->path)
		return NULL;
	for (unsigned i = 0; i < bc->nh; i++)
		if (bc->h[i].f && !bc->h[i].dir && bc->h[i].path == op->path)
			return &bc->h[i];
	return NULL;
}

/* A name at or above `path` changed (renamed, removed): the handles
 * opened under it, or beneath it, no longer answer for their names. */
static void smb_names_changed(struct backend_client *bc, const char *path)
{
	for (unsigned i = 0; i < bc->nh; i++)
		if (bc->h[i].path && loadfile_path_within(bc->h[i].path, path))
			bc->h[i].path = NULL;
}

static int smb_rmtree(SMBCCTX *ctx, char *buf);

/* Empty the directory at the URL in buf (of SMB_URL_MAX; restored on
 * return); ENOTDIR when it is none.  The names are read first, then
 * removed, so that no listing runs while it changes. */
static int smb_empty(SMBCCTX *ctx, char *buf)
{
	SMBCFILE *d = smbc_getFunctionOpendir(ctx)(ctx, buf);
	struct smbc_dirent *de;
	TALLOC_CTX *tmp;
	char **names = NULL;
	bool *dirs = NULL;
	size_t n = 0;
	int err = 0;

	if (!d)
		return errno;
	tmp = talloc_new(NULL);
	while (tmp && (de = smbc_getFunctionReaddir(ctx)(ctx, d)) != NULL) {
		if (strcmp(de->name, ".") == 0 || strcmp(de->name, "..") == 0)
			continue;
		names = talloc_realloc(tmp, names, char *, n + 1);
		dirs = talloc_realloc(tmp, dirs, bool, n + 1);
		if (!names || !dirs || !(names[n] = talloc_strdup(names, de->name))) {
			err = ENOMEM;
			break;
		}
		dirs[n++] = de->smbc_type == SMBC_DIR;
	}
	smbc_getFunctionClosedir(ctx)(ctx, d);
	size_t len = strlen(buf);
	for (size_t i = 0; err == 0 && i < n; i++) {
		size_t l = len + 1;
		if (l >= SMB_URL_MAX)
			err = ENAMETOOLONG;
		else if (buf[len] = '/', (err = smb_url_append(buf, &l, names[i])) == 0)
			err = dirs[i] ? smb_rmtree(ctx, buf)
				      : (smbc_getFunctionUnlink(ctx)(ctx, buf) == 0 ? 0 : errno);
		buf[len] = '\0';
	}
	talloc_free(tmp);
	return tmp ? err : ENOMEM;
}

/* Remove the tree at the URL in buf (restored on return): a file is
 * unlinked, a directory emptied and removed. */
static int smb_rmtree(SMBCCTX *ctx, char *buf)
{
	int err = smb_empty(ctx, buf);

	if (err == ENOTDIR)
		return smbc_getFunctionUnlink(ctx)(ctx, buf) == 0 ? 0 : errno;
	return err ? err : smb_rmdir(ctx, buf);
}

/* ---- operations ---- */

/* libsmbclient's open flags for a create disposition, which it maps back
 * to the same disposition (SUPERSEDE, which it lacks, as OVERWRITE_IF),
 * or -1 for an unknown one. */
static int smb_disposition_flags(int64_t disposition)
{
	switch (disposition) {
	case NT_OPEN:
		return 0;
	case NT_CREATE:
		return O_CREAT | O_EXCL;
	case NT_OPEN_IF:
		return O_CREAT;
	case NT_OVERWRITE:
		return O_TRUNC;
	case NT_SUPERSEDE:
	case NT_OVERWRITE_IF:
		return O_CREAT | O_TRUNC;
	default:
		return -1;
	}
}

static int smb_ntcreatex(struct backend_client *bc, const struct op *op)
{
	SMBCCTX *ctx = bc->ctx;
	int flags = smb_disposition_flags(op->a[1]), err;
	bool dir = (op->a[0] & NT_DIRECTORY_FILE) != 0;
	SMBCFILE *f = NULL;

	if (flags < 0)
		return EINVAL;
	if ((err = smb_op_url(bc, bc->url, op, false)) != 0)
		return err;
	if (dir) {
		/* A directory is made, then opened: libsmbclient opens no
		 * directory with a disposition. */
		if ((flags & O_CREAT) && (err = smb_mkdir(ctx, bc->url)) != 0 &&
		    (err != EEXIST || (flags & O_EXCL)))
			return err;
	} else {
		f = smbc_getFunctionOpen(ctx)(ctx, bc->url, flags | O_RDWR, 0644);
		/* Without FILE_NON_DIRECTORY_FILE a directory opens too. */
		dir = !f && errno == EISDIR && !(op->a[0] & SMB_NON_DIRECTORY_FILE);
		if (!f && !dir) {
			err = errno;
			verify_ntcreatex(bc->verify, VERIFY_NO_HANDLE, op->path,
					 VERIFY_OPEN_FAILED, false);
			return err;
		}
	}
	if (dir && !(f = smbc_getFunctionOpendir(ctx)(ctx, bc->url)))
		return errno;
	bool keep = op->status == NT_OK && op->handle < bc->nh;
	verify_ntcreatex(bc->verify, keep ? op->handle : VERIFY_NO_HANDLE, op->path,
			 dir ? VERIFY_OPENED_OTHER : VERIFY_OPENED_FILE, (flags & O_TRUNC) != 0);
	struct smb_handle nh = { .f = f, .dir = dir, .path = op->path };
	if (keep && !(nh.url = talloc_strdup(bc, bc->url)))
		err = ENOMEM;
	if (!keep || err) {
		/* not expected to open: keep nothing */
		smb_close_handle(bc, &nh);
		return err;
	}
	smb_close_handle(bc, &bc->h[op->handle]);
	bc->h[op->handle] = nh;
	return 0;
}

static int smb_closeop(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_handle_of(bc, op);

	if (!h)
		return EBADF;
	return smb_close_handle(bc, h);
}

static int smb_rename(struct backend_client *bc, const struct op *op)
{
	struct stat st;
	int err;

	if ((err = smb_op_url(bc, bc->url, op, false)) != 0 ||
	    (err = smb_op_url(bc, bc->url2, op, true)) != 0)
		return err;
	/* Whether a directory moves matters to --verify only: only then is
	 * it asked (a source that cannot be looked up counts as one). */
	bool is_dir = bc->verify && (smb_stat(bc->ctx, bc->url, &st) != 0 || S_ISDIR(st.st_mode));
	smb_names_changed(bc, op->path);
	smb_names_changed(bc, op->path2);
	if (smbc_getFunctionRename(bc->ctx)(bc->ctx, bc->url, bc->ctx, bc->url2) != 0)
		return errno;
	if (bc->verify)
		verify_rename(bc->verify, op->path, op->path2, is_dir);
	return 0;
}

static int smb_unlink(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	if (err)
		return err;
	smb_names_changed(bc, op->path);
	if (smbc_getFunctionUnlink(bc->ctx)(bc->ctx, bc->url) != 0)
		return errno;
	return 0;
}

/* As fileio's: the whole subtree goes, and a missing one is no error. */
static int smb_deltree(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	if (err)
		return err;
	smb_names_changed(bc, op->path);
	err = smb_rmtree(bc->ctx, bc->url);
	return err == ENOENT ? 0 : err;
}

static int smb_rmdirop(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	if (err)
		return err;
	smb_names_changed(bc, op->path);
	return smb_rmdir(bc->ctx, bc->url);
}

/* "\clients" exists already (target_open() made it): that is no error. */
static int smb_mkdirop(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	if (err || (err = smb_mkdir(bc->ctx, bc->url)) == 0)
		return err;
	return err == EEXIST && (op->flags & OPF_CLIENTS_DIR) ? 0 : err;
}

/*
 * QUERY_FILE_INFORMATION on an open handle.  A file's is asked by
 * lseek(SEEK_END), which sends the very request fstat() sends (the
 * basic and standard information of the handle) but on the handle alone:
 * fstat() parses the file's URL again first, and libsmbclient rebuilds
 * its credentials from smb.conf for every URL it parses (half of the
 * client's instructions an operation, callgrind shows).  Every read and
 * write seeks first, so the offset it leaves is never used.  A
 * directory's is fstat()'s, which libsmbclient answers from the listing
 * it holds.
 */
static int smb_query_handle(struct backend_client *bc, struct smb_handle *h)
{
	struct stat st;

	if (h->dir)
		return smbc_getFunctionFstat(bc->ctx)(bc->ctx, h->f, &st) == 0 ? 0 : errno;
	return smbc_getFunctionLseek(bc->ctx)(bc->ctx, h->f, 0, SEEK_END) < 0 ? errno : 0;
}

static int smb_qpathinfo(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_held(bc, op);
	struct stat st;

	if (h)
		return smb_query_handle(bc, h);
	int err = smb_op_url(bc, bc->url, op, false);
	return err ? err : smb_stat(bc->ctx, bc->url, &st);
}

static int smb_qfileinfo(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_handle_of(bc, op);

	return h ? smb_query_handle(bc, h) : EBADF;
}

/* The file system's figures are asked over a listing of the client
 * directory made once and kept (it holds nothing open on the server):
 * statvfs() by name would stat, list and close the name every time. */
static int smb_qfsinfo(struct backend_client *bc, const struct op *op)
{
	struct statvfs sv;

	(void)op;
	if (!bc->fs && !(bc->fs = smbc_getFunctionOpendir(bc->ctx)(bc->ctx, bc->client_url)))
		return errno;
	return smbc_getFunctionFstatVFS(bc->ctx)(bc->ctx, bc->fs, &sv) == 0 ? 0 : errno;
}

/* FileBasicInformation: the times set back as fileio sets them (access
 * 10 s, change 12 s, whole seconds), from now rather than from the file's
 * own times, which would take a query first. */
static int smb_sfileinfo(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_handle_of(bc, op);
	time_t now = time(NULL);
	struct timeval tv[2] = { { .tv_sec = now - 10 }, { .tv_sec = now - 12 } };

	if (!h)
		return EBADF;
	return smbc_getFunctionUtimes(bc->ctx)(bc->ctx, h->url, tv) == 0 ? 0 : errno;
}

/*
 * Without a wildcard, FIND_FIRST looks the name up.  With one, the
 * directory is listed (libsmbclient sends "*": it takes no pattern) up
 * to maxcnt entries and the pattern matched here, as the server would;
 * no match fails with ENOENT (NT_STATUS_NO_SUCH_FILE).
 */
static int smb_findfirst(struct backend_client *bc, const struct op *op)
{
	struct smbc_dirent *de;
	int64_t left = op->a[1];
	bool matched = false;
	int err;

	if (!(op->flags & OPF_WILDCARD))
		return smb_qpathinfo(bc, op);
	if (op->dir == DIR_NONE)
		return EINVAL;
	if ((err = smb_url(bc->url, bc->client_url, bc->prog->dirs[op->dir])) != 0)
		return err;
	SMBCFILE *d = smbc_getFunctionOpendir(bc->ctx)(bc->ctx, bc->url);
	if (!d)
		return errno;
	struct dosmatch_pattern pat = dosmatch_pattern_of(op->leaf);
	errno = 0;
	while (left-- > 0 && (de = smbc_getFunctionReaddir(bc->ctx)(bc->ctx, d)) != NULL)
		matched = matched || dosmatch(&pat, de->name);
	err = errno == ENOENT ? 0 : errno;	/* the end of the listing */
	smbc_getFunctionClosedir(bc->ctx)(bc->ctx, d);
	if (err)
		return err;
	return matched ? 0 : ENOENT;
}

static int smb_buffer(struct backend_client *bc, char **buf, int64_t size)
{
	if (size < 0 || (uint64_t)size > bc->max_xfer)
		return EINVAL;
	if (!*buf)
		*buf = talloc_zero_size(bc, bc->max_xfer ? bc->max_xfer : 1);
	return *buf ? 0 : ENOMEM;
}

/* Seek (no request: libsmbclient keeps the offset) and read or write. */
static int smb_seek(struct backend_client *bc, struct smb_handle *h, int64_t off)
{
	if (h->dir)
		return EISDIR;
	return smbc_getFunctionLseek(bc->ctx)(bc->ctx, h->f, (off_t)off, SEEK_SET) < 0 ? errno : 0;
}

static int smb_readx(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_handle_of(bc, op);
	int err;

	if (!h)
		return EBADF;
	if ((err = smb_buffer(bc, &bc->rbuf, op->a[1])) != 0 || (err = smb_seek(bc, h, op->a[0])))
		return err;
	ssize_t n = smbc_getFunctionRead(bc->ctx)(bc->ctx, h->f, bc->rbuf, (size_t)op->a[1]);
	if (n < 0)
		return errno;
	if (bc->verify && verify_check(bc->verify, op->handle, (uint64_t)op->a[0], bc->rbuf,
				       (size_t)n) != 0)
		return EILSEQ;
	return n == op->a[2] ? 0 : ENODATA;	/* the file is shorter than the trace says */
}

static int smb_writex(struct backend_client *bc, const struct op *op)
{
	struct smb_handle *h = smb_handle_of(bc, op);
	size_t size = (size_t)op->a[1];
	int err;

	if (!h)
		return EBADF;
	if ((err = smb_buffer(bc, &bc->wbuf, op->a[1])) != 0 || (err = smb_seek(bc, h, op->a[0])))
		return err;
	if (bc->verify)
		verify_fill(bc->verify, op->handle, (uint64_t)op->a[0], bc->wbuf, size);
	/* libsmbclient writes all of it or fails. */
	ssize_t n = smbc_getFunctionWrite(bc->ctx)(bc->ctx, h->f, bc->wbuf, size);
	err = n < 0 ? errno : 0;
	if (bc->verify)
		verify_wrote(bc->verify, op->handle, (uint64_t)op->a[0], n < 0 ? 0 : (size_t)n);
	if (err)
		return err;
	return n == op->a[2] ? 0 : EIO;
}

/* ---- dbench 5.0's SMB dialect ---- */

/* OPEN: smbc_open() of the path with 5.0's flags, as 5.0's smb backend
 * opens it, kept in the handle slot the compiler gave the path. */
static int smb_open5(struct backend_client *bc, const struct op *op)
{
	int flags = backend_smb5_open_flags(op->a[0]);
	int err = smb_op_url(bc, bc->url, op, false);

	if (err)
		return err;
	SMBCFILE *f = smbc_getFunctionOpen(bc->ctx)(bc->ctx, bc->url, flags, 0644);
	if (!f)
		return errno;
	struct smb_handle nh = { .f = f, .path = op->path };
	if (op->handle >= bc->nh || !(nh.url = talloc_strdup(bc, bc->url))) {
		/* not expected to open: keep nothing */
		smb_close_handle(bc, &nh);
		return op->handle >= bc->nh ? 0 : ENOMEM;
	}
	verify_ntcreatex(bc->verify, op->handle, op->path, VERIFY_OPENED_FILE,
			 (flags & O_TRUNC) != 0);
	smb_close_handle(bc, &bc->h[op->handle]);
	bc->h[op->handle] = nh;
	return 0;
}

/* READ and WRITE: ReadX and WriteX at the offset the row's expression
 * gives this client, of the whole length. */
BACKEND_HOOK_AT_OFFSET(smb_read5, smb_readx)
BACKEND_HOOK_AT_OFFSET(smb_write5, smb_writex)

/* List the directory at `url`: visit(arg, name) for each entry ("." and
 * ".." too) when visit is not NULL. */
static int smb_list(struct backend_client *bc, const char *url,
		    void (*visit)(void *arg, const char *name), void *arg)
{
	struct smbc_dirent *de;
	SMBCFILE *d = smbc_getFunctionOpendir(bc->ctx)(bc->ctx, url);

	if (!d)
		return errno;
	errno = 0;
	while ((de = smbc_getFunctionReaddir(bc->ctx)(bc->ctx, d)) != NULL)
		if (visit)
			visit(arg, de->name);
	int err = errno == ENOENT ? 0 : errno;	/* the end of the listing */
	smbc_getFunctionClosedir(bc->ctx)(bc->ctx, d);
	return err;
}

/* READDIR: the directory listed, as 5.0's smbc_opendir() lists it. */
static int smb_readdir5(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	return err ? err : smb_list(bc, bc->url, NULL, NULL);
}

/* Deltree as 5.0's SMB backend has it: everything beneath the directory
 * goes, the directory stays; a missing one fails. */
static int smb_deltree5(struct backend_client *bc, const struct op *op)
{
	int err = smb_op_url(bc, bc->url, op, false);

	if (err)
		return err;
	if (op->flags & OPF_CLIENTS_DIR)
		return EACCES;	/* every client's files are under it */
	smb_names_changed(bc, op->path);
	return smb_empty(bc->ctx, bc->url);
}

/* ---- the system-call dialect (netsys.h) ---- */

/*
 * A recording's calls as libsmbclient's requests on paths beneath the
 * client directory.  The library has no flush, no hard or symbolic link
 * and no owner to set: fsync, fdatasync, sync_file_range, link, symlink,
 * readlink and the chown calls are not supported (netsys_can()); lstat
 * is a stat, SMB2 having no links to stop at.
 */
static int smb_sys_url(struct backend_client *bc, char *buf, const char *path)
{
	return smb_url(buf, bc->client_url, path);
}

/* A directory refuses smbc_open() with EISDIR: one opened read-only is
 * then looked up as what it is. */
static int smb_sys_open(struct backend_client *bc, const char *path, int flags, uint32_t mode,
			void **file, bool *dir)
{
	struct stat st;
	int err = smb_sys_url(bc, bc->url, path);

	*dir = false;
	if (err)
		return err;
	SMBCFILE *f = smbc_getFunctionOpen(bc->ctx)(bc->ctx, bc->url, flags, (mode_t)mode);
	*file = f;
	if (f || errno != EISDIR || (flags & (O_ACCMODE | O_CREAT)) != O_RDONLY)
		return f ? 0 : errno;
	if ((err = smb_stat(bc->ctx, bc->url, &st)) != 0)
		return err;
	*dir = S_ISDIR(st.st_mode);
	return *dir ? 0 : EISDIR;
}

static void smb_sys_close(struct backend_client *bc, void *file)
{
	smbc_getFunctionClose(bc->ctx)(bc->ctx, file);
}

/* At an offset: a seek (no request: the library keeps it), then the
 * read or write, in as many requests as the library makes of it. */
static int smb_sys_pread(struct backend_client *bc, void *file, uint64_t off, size_t len,
			 char *buf, size_t *done)
{
	*done = 0;
	if (smbc_getFunctionLseek(bc->ctx)(bc->ctx, file, (off_t)off, SEEK_SET) < 0)
		return errno;
	while (*done < len) {
		ssize_t n = smbc_getFunctionRead(bc->ctx)(bc->ctx, file, buf + *done, len - *done);
		if (n < 0)
			return errno;
		if (n == 0)
			break;
		*done += (size_t)n;
	}
	return 0;
}

static int smb_sys_pwrite(struct backend_client *bc, void *file, uint64_t off, size_t len,
			  const char *buf, size_t *done)
{
	*done = 0;
	if (smbc_getFunctionLseek(bc->ctx)(bc->ctx, file, (off_t)off, SEEK_SET) < 0)
		return errno;
	/* libsmbclient writes all of it or fails */
	ssize_t n = smbc_getFunctionWrite(bc->ctx)(bc->ctx, file, buf, len);
	if (n < 0)
		return errno;
	*done = (size_t)n;
	return 0;
}

static int smb_sys_fstat(struct backend_client *bc, void *file, struct netsys_attr *a)
{
	struct stat st;

	if (smbc_getFunctionFstat(bc->ctx)(bc->ctx, file, &st) != 0)
		return errno;
	*a = (struct netsys_attr){ (uint64_t)st.st_size, st.st_mode };
	return 0;
}

static int smb_sys_stat(struct backend_client *bc, const char *path, bool follow,
			struct netsys_attr *a)
{
	struct stat st;
	int err = smb_sys_url(bc, bc->url, path);

	(void)follow;
	if (err || (err = smb_stat(bc->ctx, bc->url, &st)) != 0)
		return err;
	*a = (struct netsys_attr){ (uint64_t)st.st_size, st.st_mode };
	return 0;
}

static int smb_sys_ftruncate(struct backend_client *bc, void *file, uint64_t len)
{
	return smbc_getFunctionFtruncate(bc->ctx)(bc->ctx, file, (off_t)len) == 0 ? 0 : errno;
}

static int smb_sys_list(struct backend_client *bc, const char *path,
			void (*visit)(void *arg, const char *name), void *arg)
{
	int err = smb_sys_url(bc, bc->url, path);

	return err ? err : smb_list(bc, bc->url, visit, arg);
}

static int smb_sys_mkdir(struct backend_client *bc, const char *path, uint32_t mode)
{
	int err = smb_sys_url(bc, bc->url, path);

	(void)mode;
	return err ? err : smb_mkdir(bc->ctx, bc->url);
}

static int smb_sys_rmdir(struct backend_client *bc, const char *path)
{
	int err = smb_sys_url(bc, bc->url, path);

	return err ? err : smb_rmdir(bc->ctx, bc->url);
}

static int smb_sys_unlink(struct backend_client *bc, const char *path)
{
	int err = smb_sys_url(bc, bc->url, path);

	if (err)
		return err;
	return smbc_getFunctionUnlink(bc->ctx)(bc->ctx, bc->url) == 0 ? 0 : errno;
}

static int smb_sys_rename(struct backend_client *bc, const char *from, const char *to)
{
	int err = smb_sys_url(bc, bc->url, from);

	if (err || (err = smb_sys_url(bc, bc->url2, to)) != 0)
		return err;
	return smbc_getFunctionRename(bc->ctx)(bc->ctx, bc->url, bc->ctx, bc->url2) == 0 ? 0
											: errno;
}

static int smb_sys_chmod(struct backend_client *bc, const char *path, uint32_t mode)
{
	int err = smb_sys_url(bc, bc->url, path);

	if (err)
		return err;
	return smbc_getFunctionChmod(bc->ctx)(bc->ctx, bc->url, (mode_t)mode) == 0 ? 0 : errno;
}

static int smb_sys_utimes(struct backend_client *bc, const char *path)
{
	struct timeval tv[2] = { { .tv_sec = time(NULL) }, { .tv_sec = time(NULL) } };
	int err = smb_sys_url(bc, bc->url, path);

	if (err)
		return err;
	return smbc_getFunctionUtimes(bc->ctx)(bc->ctx, bc->url, tv) == 0 ? 0 : errno;
}

static int smb_sys_statfs(struct backend_client *bc, const char *path)
{
	struct statvfs sv;
	int err = smb_sys_url(bc, bc->url, path);

	if (err)
		return err;
	return smbc_getFunctionStatVFS(bc->ctx)(bc->ctx, bc->url, &sv) == 0 ? 0 : errno;
}

static const struct netsys_proto smb_sys_proto = {
	.open = smb_sys_open, .close = smb_sys_close,
	.pread = smb_sys_pread, .pwrite = smb_sys_pwrite,
	.fstat = smb_sys_fstat, .stat = smb_sys_stat, .ftruncate = smb_sys_ftruncate,
	.list = smb_sys_list, .mkdir = smb_sys_mkdir, .rmdir = smb_sys_rmdir,
	.unlink = smb_sys_unlink, .rename = smb_sys_rename, .chmod = smb_sys_chmod,
	.utimes = smb_sys_utimes, .statfs = smb_sys_statfs,
};

/* A recording's pass starts in an empty client directory holding its
 * initial state. */
static int smb_sys_start(struct backend_client *bc)
{
	int err;

	netsys_close_all(bc->sys);
	if ((err = smb_url(bc->url, bc->client_url, "")) != 0)
		return err;
	err = smb_rmtree(bc->ctx, bc->url);
	if ((err && err != ENOENT) || (err = smb_mkdir(bc->ctx, bc->client_url)) != 0)
		return err;
	return netsys_pass_start(bc->sys);
}

static int smb_syscall(struct backend_client *bc, const struct op *op)
{
	return netsys_op(bc->sys, op);
}

static unsigned smb_check_program(const struct program *prog, const struct backend_options *opts,
				  char **report)
{
	(void)opts;
	return prog->calls ? netsys_check_program(&smb_sys_proto, "smb", prog, report) : 0;
}

/* ---- the client's life ---- */

static int smb_client_destructor(struct backend_client *bc)
{
	if (bc->ctx && bc->sys)
		netsys_close_all(bc->sys);
	if (bc->ctx)
		smb_close_handles(bc);
	return 0;
}

/*
 * libsmbclient rebuilds its credentials from the parameter table for
 * every URL it parses, twice a call that names a file
 * (smbc_set_credentials_with_fallback() in SMBC_parse_path() and in
 * SMBC_server()), and cli_credentials_set_conf() looks "workgroup" and
 * "netbios name" up there by a linear scan of every parameter's name each
 * time, when they are set: 46 % of the client's instructions at client.txt
 * (callgrind).  Once the client has logged on, they are blanked in this
 * client process's own table, through libsmbclient's own call for
 * loading settings on top of those it read: the rebuilt credentials then
 * skip the scans.  Nothing sent changes: the session is up, the domain
 * of each call comes from the context (read at its making) and is
 * specified over the table's; only a reconnection during the run (after
 * the server dropped the session) would log on with no workstation name.
 * The settings come from a memfd: no file is written.  Where it cannot be
 * done the client goes on as it was, only dearer.
 */
static void smb_light_credentials(SMBCCTX *ctx)
{
	static const char conf[] = "[global]\n\tworkgroup =\n\tnetbios name =\n";
	char path[48];
	int fd = memfd_create("dbench-smb.conf", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, conf, sizeof(conf) - 1) == (ssize_t)(sizeof(conf) - 1)) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		smbc_setConfiguration(ctx, path);
	}
	close(fd);
}

static struct backend_client *smb_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					     unsigned id, const struct program *prog,
					     const struct backend_options *opts,
					     struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);
	char name[48];
	struct stat st;
	int e;

	if (!bc)
		goto nomem;
	bc->t = t;
	bc->prog = prog;
	bc->ost = backend_offset_state(id, opts);
	bc->nh = prog->max_handles;
	bc->max_xfer = loadfile_max_transfer(prog);
	backend_client_name(name, sizeof(name), opts, id);
	if (!(bc->h = talloc_zero_array(bc, struct smb_handle, bc->nh ? bc->nh : 1)) ||
	    !(bc->client_url = talloc_asprintf(bc, "%s/%s", t->clients, name)))
		goto nomem;
	/* Freed after the handles are closed: the destructor runs first. */
	if (!(bc->ctx = smb_context(bc, t, t->o->pinned, t->o->pinned))) {
		*err = talloc_asprintf(mem_ctx, "client %u: %s: cannot set up libsmbclient: %s",
				       id, t->share->spec, strerror(errno));
		goto fail;
	}
	talloc_set_destructor(bc, smb_client_destructor);
	/* The client directory exists from the start, so that a loadfile need
	 * not create it; one left behind must be a directory. */
	e = smb_mkdir(bc->ctx, bc->client_url);
	if ((e != 0 && e != EEXIST) || (e = smb_stat(bc->ctx, bc->client_url, &st)) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		*err = talloc_asprintf(mem_ctx, "client %u: %s: cannot make clients/%s: %s", id,
				       t->share->spec, name, e ? strerror(e) : "not a directory");
		goto fail;
	}
	smb_light_credentials(bc->ctx);
	bc->verify = verify;
	if (prog->calls && !(bc->sys = netsys_new(bc, prog, &smb_sys_proto, bc)))
		goto nomem;
	return bc;
nomem:
	*err = talloc_asprintf(mem_ctx, "client %u: out of memory", id);
fail:
	talloc_free(bc);
	return NULL;
}

static size_t smb_client_mem(const struct program *prog, const struct backend_options *opts)
{
	(void)opts;
	/* The state (with its two URL buffers), the handle table, the client
	 * URL, a URL per open handle, the two transfer buffers. */
	return sizeof(struct backend_client) + prog->max_handles * sizeof(struct smb_handle) +
	       (prog->max_handles + 1) * (256 + BACKEND_ALLOC_OVERHEAD) +
	       2 * loadfile_max_transfer(prog) + 8 * BACKEND_ALLOC_OVERHEAD +
	       (prog->calls ? netsys_mem(prog) : 0);
}

static void smb_pass_end(struct backend_client *bc)
{
	if (bc->sys)
		netsys_close_all(bc->sys);
	smb_close_handles(bc);
}

/* Each pass of a recording starts from its initial state. */
static int smb_pass_begin(struct backend_client *bc)
{
	return bc->sys ? smb_sys_start(bc) : 0;
}

static int smb_cleanup(struct backend_client *bc)
{
	smb_pass_end(bc);
	if (smb_url(bc->url, bc->client_url, "") != 0)
		return ENAMETOOLONG;
	int err = smb_rmtree(bc->ctx, bc->url);
	/* libsmbclient says ENOENT for a server it cannot reach too (smbd
	 * killed): the client's tree is gone only when the clients directory
	 * is there to say so, else its files are left and said to be */
	struct stat st;
	return err == ENOENT ? smb_stat(bc->ctx, bc->t->clients, &st) : err;
}

/* ---- the --probe process's directory ---- */

struct backend_lister {
	SMBCCTX *ctx;			/* the probe's own session */
	char url[SMB_URL_MAX];		/* SHARE/PATH/clients/NAME */
	char file[SMB_URL_MAX];		/* one of its files */
};

static struct backend_lister *smb_lister_open(TALLOC_CTX *mem_ctx, struct backend_target *t,
					      const char *name, char **err)
{
	struct backend_lister *l = talloc_zero(mem_ctx, struct backend_lister);

	if (!l || smb_url(l->url, t->clients, name) != 0) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		talloc_free(l);
		return NULL;
	}
	if (!(l->ctx = smb_context(l, t, t->o->pinned, t->o->pinned))) {
		*err = talloc_asprintf(mem_ctx, "%s: cannot set up libsmbclient: %s",
				       t->share->spec, strerror(errno));
		talloc_free(l);
		return NULL;
	}
	return l;
}

/* The directory and its files; one an earlier run left must be a
 * directory whose files of our names are files. */
static int smb_lister_make(struct backend_lister *l, unsigned nfiles,
			   void (*name_of)(char name[16], unsigned i))
{
	struct stat st;
	int err = smb_mkdir(l->ctx, l->url);

	if ((err && err != EEXIST) || (err = smb_stat(l->ctx, l->url, &st)) != 0)
		return err;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	for (unsigned i = 0; i < nfiles; i++) {
		char name[16];
		name_of(name, i);
		if ((err = smb_url(l->file, l->url, name)) != 0)
			return err;
		SMBCFILE *f = smbc_getFunctionOpen(l->ctx)(l->ctx, l->file,
							   O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (f) {
			smbc_getFunctionClose(l->ctx)(l->ctx, f);
			continue;
		}
		if ((err = errno) != EEXIST || (err = smb_stat(l->ctx, l->file, &st)) != 0)
			return err;
		if (!S_ISREG(st.st_mode))
			return EEXIST;
	}
	return 0;
}

/* As `ls -l` on a mounted share: the listing brings every entry's
 * attributes along (readdirplus), no request per name. */
static int smb_lister_list(struct backend_lister *l, uint64_t *entries)
{
	SMBCFILE *d = smbc_getFunctionOpendir(l->ctx)(l->ctx, l->url);
	const struct libsmb_file_info *fi;
	struct stat st;
	uint64_t n = 0;

	if (!d)
		return errno;
	while ((fi = smbc_getFunctionReaddirPlus2(l->ctx)(l->ctx, d, &st)) != NULL)
		n += strcmp(fi->name, ".") != 0 && strcmp(fi->name, "..") != 0;
	smbc_getFunctionClosedir(l->ctx)(l->ctx, d);
	*entries = n;
	return 0;
}

static int smb_lister_remove(struct backend_lister *l)
{
	return smb_rmtree(l->ctx, l->url);
}

/* The hooks, under the name, summary and options modules.c gives them. */
const struct backend smb_module = {
	.targets = smb_targets,
	.check_program = smb_check_program,
	.target_open = smb_target_open,
	.target_close = smb_target_close,
	.target_space = smb_target_space,
	.target_describe = smb_target_describe,
	.lister_open = smb_lister_open,
	.lister_make = smb_lister_make,
	.lister_list = smb_lister_list,
	.lister_remove = smb_lister_remove,
	.client_mem = smb_client_mem,
	.client_new = smb_client_new,
	.op = {
		[OP_NTCREATEX] = smb_ntcreatex,
		[OP_CLOSE] = smb_closeop,
		[OP_RENAME] = smb_rename,
		[OP_UNLINK] = smb_unlink,
		[OP_DELTREE] = smb_deltree,
		[OP_RMDIR] = smb_rmdirop,
		[OP_MKDIR] = smb_mkdirop,
		[OP_QPATHINFO] = smb_qpathinfo,
		[OP_QFILEINFO] = smb_qfileinfo,
		[OP_QFSINFO] = smb_qfsinfo,
		[OP_SFILEINFO] = smb_sfileinfo,
		[OP_FINDFIRST] = smb_findfirst,
		[OP_WRITEX] = smb_writex,
		[OP_READX] = smb_readx,
		[OP_SMB_OPEN] = smb_open5,
		[OP_SMB_CLOSE] = smb_closeop,
		[OP_SMB_READ] = smb_read5,
		[OP_SMB_WRITE] = smb_write5,
		[OP_SMB_MKDIR] = smb_mkdirop,
		[OP_SMB_RMDIR] = smb_rmdirop,
		[OP_SMB_UNLINK] = smb_unlink,
		[OP_SMB_READDIR] = smb_readdir5,
		[OP_SMB_DELTREE] = smb_deltree5,
		[OP_SYS_FIRST ... OP_SYS_LAST] = smb_syscall,
		/* LockX, UnlockX, Flush: libsmbclient has no call for them. */
	},
	.verifies = true,
	.pass_end = smb_pass_end,
	.pass_begin = smb_pass_begin,
	.cleanup = smb_cleanup,
};
