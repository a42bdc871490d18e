/*
 * nfs.c - the "nfs" backend: replays a program against an NFS server
 * through libnfs, in user space, with no kernel mount, so that what is
 * measured is the server and the network alone.  Built with nfs3.c as
 * the module nfs.so (modules.c holds its options, --nfs and
 * --nfs-timeout, and loads it when a run selects it).
 *
 * A target is one export, named by a libnfs URL from --nfs
 * (nfs://HOST/EXPORT[?version=3|4&...]); a comma-separated list spreads
 * the clients over several, round-robin, as -D does over directories.
 * The parent mounts each target once to check it (unknown host, no such
 * export, access denied: exit 2 before any client starts) and to make and
 * remove EXPORT/clients; each client mounts it again with a libnfs context
 * of its own, after the fork.  Every call is synchronous, with libnfs'
 * reconnection off and its timeout set, so that a server that dies fails
 * the operation at hand instead of hanging the client.
 *
 * Both dialects run here: dbench 4's operations on the NFS calls a client
 * would make for them (NTCreateX a LOOKUP or CREATE, ReadX a READ, Flush
 * a COMMIT ...), and the NFS dialect's by path, each file opened once and
 * its handle kept in one of the client's 64 slots (pathcache.h): a file
 * opened into a slot another holds closes that one, but never one that
 * holds a lock, which would go with it; with all 64 locked, opening
 * another fails with ENOLCK.
 *
 * Over NFSv3 (the default) a client sends one RPC per operation, as a
 * kernel client with a warm dentry cache does: nfs3.c's calls on handles,
 * with the handles of the directories the loadfile names kept in a small
 * cache (NFS_DIR_SLOTS, indexed by program.dirs) that Rmdir, Rename and
 * Deltree clear beneath the name they change, and the handles of open
 * files kept with their trace handles.  A miss looks the directory up
 * component by component from the client's own directory, and a lookup
 * never follows a symbolic link.  A reply saying a handle is stale (its
 * object removed behind the client's back) fails that operation, and
 * every handle kept for a name is forgotten, so that the next operation
 * looks its names up again.  ACCESS3, READLINK3, SYMLINK3 and LINK3,
 * rare, go through libnfs' path calls (its directory cache off, since the
 * handle calls change directories behind its back).
 *
 * A recording's calls (the system-call dialect) go through netsys.c,
 * which this file gives libnfs' path calls, over NFSv3 and v4 alike.
 *
 * Over NFSv4 every operation goes through libnfs' path calls, which
 * resolve the path each time; locks need NFSv4 (libnfs has no NLM client
 * in its sync calls): over NFSv3 they are not supported, and said so.
 *
 * Owns: the libnfs contexts, handles and buffers.  Knows nothing of the
 * driver, the stats region or the reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <nfsc/libnfs.h>

#include "backend.h"
#include "backends/dosmatch.h"
#include "backends/modules.h"
#include "backends/netsys.h"
#include "backends/nfs3.h"
#include "backends/pathcache.h"
#include "secret.h"

#define NFS_PATH_MAX (LOADFILE_MAX_LINE + 64)
#define NFS_DIR_SLOTS 256		/* NFSv3 directory handles kept per client */
#define NFS_RMTREE_DEPTH 64
/* libnfs 4.0 encodes an NFSv4 WRITE into a request buffer of 4 KiB,
 * whatever its size, and fails one that does not fit (before sending
 * it: the call returns -1, which reads as EPERM); 5.0 sizes the buffer
 * to the write (libnfs commit 483be17).  So NFSv4 writes go in pieces
 * that fit. */
#define NFS4_WRITE_PIECE 3072

struct backend_target {
	const char *url;		/* as given */
	const char *server;
	const char *export;
	int version;			/* 3 or 4 */
	int timeout;			/* --nfs-timeout, seconds a call may wait */
	struct nfs_context *nfs;	/* the parent's mount */
	pid_t owner;			/* the process that mounted it */
};

/*
 * An open file or directory: over NFSv4 libnfs' open file (none for a
 * directory), over NFSv3 its handle.
 */
struct nfs_file {
	struct nfsfh *fh;		/* NFSv4 */
	struct nfs3_handle h3;		/* NFSv3 */
};

/* An open object of a trace handle. */
struct nfs_handle {
	struct nfs_file f;
	bool open;
	bool is_file;			/* else a directory */
};

/* An NFSv3 directory handle, of program.dirs[dir]. */
struct nfs_dir_slot {
	struct nfs3_handle h;		/* len 0: free */
	uint16_t dir;
};

struct backend_client {
	struct nfs_context *nfs;
	struct nfs3_conn *c3;		/* NFSv3's handle calls, else NULL */
	const struct program *prog;
	struct backend_options opts;
	int version;
	char name[40];			/* "clientN" */
	char dir[64];			/* "/clients/clientN" */
	char path[NFS_PATH_MAX], path2[NFS_PATH_MAX];
	struct nfs_handle *h;		/* [max_handles] */
	unsigned nh;
	/* the NFS dialect's files, by path: slots pinned once locked */
	struct pathcache cache;
	struct nfs_file cached[PATHCACHE_SLOTS];
	/* NFSv3: the export's root, its clients directory and ours (len 0
	 * until looked up), and the directories beneath ours */
	struct nfs3_handle root, clients, self;
	uint16_t *dir_slot;		/* [ndirs]: 1 + its slot, 0 for none */
	struct nfs_dir_slot slots[NFS_DIR_SLOTS];
	unsigned hand;			/* the next slot to take */
	char *buf;			/* reads and writes */
	size_t buflen;
	char *pattern;			/* [buflen] WRITEPATTERN's text over and over, or NULL */
	struct offset_state ost;
	struct verify *verify;
	struct netsys *sys;		/* a recording's replay (the system-call dialect), or NULL */
};

/* ---- URLs and mounts ---- */

/* What nfsb_mount()'s callback heard. */
struct nfsb_mounting {
	bool done;
	int err;		/* 0, or libnfs' negative status */
	char why[160];		/* its words, when it failed */
};

static void nfsb_mount_cb(int err, struct nfs_context *nfs, void *data, void *priv)
{
	struct nfsb_mounting *m = priv;

	(void)nfs;
	m->done = true;
	m->err = err;
	if (err)
		snprintf(m->why, sizeof(m->why), "%s", data ? (const char *)data : "mount failed");
}

/*
 * nfs_mount(), with the cause of a failure kept: the synchronous call
 * says only "nfs_service failed" when the server's answer cannot be read
 * (it overwrites the RPC layer's own words, such as "Incoming PDU exceeds
 * limit": a peer that sends something other than NFS).  The service loop
 * is ours, waking every 100 ms so that libnfs' own timeout is kept.
 * NULL, or the reason (on mem_ctx).  What the callback writes to lives on
 * mem_ctx: libnfs calls it once more when the context is destroyed after
 * a failure.
 */
static const char *nfsb_mount(TALLOC_CTX *mem_ctx, struct nfs_context *nfs, const char *server,
			      const char *path)
{
	struct nfsb_mounting *m = talloc_zero(mem_ctx, struct nfsb_mounting);

	if (!m)
		return "out of memory";
	if (nfs_mount_async(nfs, server, path, nfsb_mount_cb, m) != 0)
		return talloc_strdup(mem_ctx, nfs_get_error(nfs));
	while (!m->done) {
		struct pollfd p = { .fd = nfs_get_fd(nfs), .events = nfs_which_events(nfs) };
		int soerr = 0;
		socklen_t len = sizeof(soerr);
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			return talloc_asprintf(mem_ctx, "poll: %s", strerror(errno));
		if (p.revents & (POLLHUP | POLLERR))	/* libnfs says only "POLLHUP" */
			(void)getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		if (nfs_service(nfs, p.revents) >= 0)
			continue;
		/* a read of nothing (the peer closed) fails with no words */
		const char *why = nfs_get_error(nfs);
		if ((p.revents & (POLLHUP | POLLERR)) || !why || !*why)
			return soerr ? strerror(soerr) : "the server closed the connection";
		return talloc_asprintf(mem_ctx, "%s%s", why, strstr(why, "PDU")
				       ? " (what the server sent is no NFS reply)" : "");
	}
	return m->err ? talloc_strdup(mem_ctx, m->why) : NULL;
}

/* A context mounted on url, each call waiting `timeout` seconds at most,
 * or NULL and *err. */
static struct nfs_context *nfsb_connect(TALLOC_CTX *mem_ctx, const char *url, int timeout,
				       struct nfs_url **parsed, char **err)
{
	struct nfs_context *nfs = nfs_init_context();
	struct nfs_url *u = NULL;
	const char *why;

	if (!nfs) {
		*err = talloc_asprintf(mem_ctx, "'%s': cannot make a libnfs context", url);
		return NULL;
	}
	nfs_set_autoreconnect(nfs, 0);
	nfs_set_timeout(nfs, timeout * 1000);
	nfs_set_dircache(nfs, 0);
	u = nfs_parse_url_dir(nfs, url);
	if (!u) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not an NFS URL: %s", url,
				       nfs_get_error(nfs));
	} else if ((why = nfsb_mount(mem_ctx, nfs, u->server, u->path)) != NULL) {
		*err = talloc_asprintf(mem_ctx, "cannot mount '%s': %s", url, why);
	} else {
		if (parsed)
			*parsed = u;
		else
			nfs_destroy_url(u);
		return nfs;
	}
	if (u)
		nfs_destroy_url(u);
	nfs_destroy_context(nfs);
	return NULL;
}

/* What is wrong with a port libnfs would take from URL's query (nfsport=,
 * mountport=): a line on mem_ctx, or NULL when each is 1 to 65535 (libnfs
 * takes any number, and a bad one ends in "nfs_service failed"). */
static char *nfsb_port_problem(TALLOC_CTX *mem_ctx, const char *url)
{
	static const char *const names[] = { "nfsport=", "mountport=" };
	const char *q = strchr(url, '?');

	for (const char *arg = q; arg; arg = strchr(arg + 1, '&')) {
		for (size_t k = 0; k < 2; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(arg + 1, names[k], n) != 0)
				continue;
			const char *v = arg + 1 + n;
			size_t len = strcspn(v, "&");
			unsigned long port = 0;
			bool ok = len > 0 && len <= 5 && strspn(v, "0123456789") >= len;
			for (size_t i = 0; ok && i < len; i++)
				port = port * 10 + (unsigned)(v[i] - '0');
			if (!ok || port < 1 || port > 65535)
				return talloc_asprintf(mem_ctx, "--nfs '%s': %s%.*s is not a port from 1"
						       " to 65535", url, names[k], (int)len, v);
		}
	}
	return NULL;
}

static const char **nfsb_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
{
	const char *urls = ((const struct nfs_options *)own)->urls;

	if (dirs) {
		*err = talloc_strdup(mem_ctx, "--backend=nfs takes its targets from --nfs, not -D");
		return NULL;
	}
	if (!urls || !*urls) {
		*err = talloc_strdup(mem_ctx, "--backend=nfs needs --nfs=nfs://HOST/EXPORT");
		return NULL;
	}
	size_t n = 1;
	for (const char *p = urls; *p; p++)
		n += *p == ',';
	const char **list = talloc_zero_array(mem_ctx, const char *, n + 1);
	const char *p = urls;
	for (size_t i = 0; list && i < n; i++) {
		size_t len = strcspn(p, ",");
		if (len == 0) {
			*err = talloc_asprintf(mem_ctx, "--nfs '%s' has an empty URL",
					       secret_mask_url(mem_ctx, urls));
			return NULL;
		}
		list[i] = talloc_strndup(list, p, len);
		const char *shown = list[i] ? secret_mask_url(list, list[i]) : NULL;
		if (shown && strcmp(shown, list[i]) != 0) {	/* never handed to libnfs */
			*err = talloc_asprintf(mem_ctx, "--nfs '%s': a password in the URL (NFS"
					       " takes none: nfs://HOST/EXPORT)", shown);
			return NULL;
		}
		if (list[i] && (*err = nfsb_port_problem(mem_ctx, list[i])) != NULL)
			return NULL;
		p += len + (p[len] == ',');
	}
	if (!list)
		*err = talloc_strdup(mem_ctx, "out of memory");
	return list;
}

static int nfsb_target_destructor(struct backend_target *t)
{
	/* In a forked client this frees its copy and closes its descriptor
	 * of the socket, which sends nothing: the parent's mount lives on. */
	if (t->nfs)
		nfs_destroy_context(t->nfs);
	return 0;
}

static int nfsb_is_dir(struct nfs_context *nfs, const char *path)
{
	struct nfs_stat_64 st;
	int rc = nfs_stat64(nfs, path, &st);

	if (rc < 0)
		return -rc;
	return (st.nfs_mode & S_IFMT) == S_IFDIR ? 0 : ENOTDIR;
}

static struct backend_target *nfsb_target_open(TALLOC_CTX *mem_ctx, const char *spec,
					      const struct backend_options *opts, char **err)
{
	struct backend_target *t = talloc_zero(mem_ctx, struct backend_target);
	struct nfs_url *u = NULL;

	if (!t) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	t->url = talloc_strdup(t, spec);
	t->timeout = ((const struct nfs_options *)opts->own)->timeout;
	t->owner = getpid();
	talloc_set_destructor(t, nfsb_target_destructor);
	if (strncmp(spec, "nfs://", 6) != 0) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not an NFS URL (nfs://HOST/EXPORT)", spec);
		goto fail;
	}
	t->nfs = nfsb_connect(mem_ctx, spec, t->timeout, &u, err);
	if (!t->nfs)
		goto fail;
	t->server = talloc_strdup(t, u->server);
	t->export = talloc_strdup(t, u->path);
	nfs_destroy_url(u);
	t->version = strstr(spec, "version=4") ? 4 : 3;
	int rc = nfs_mkdir(t->nfs, "/clients");
	int e = rc == 0 || rc == -EEXIST ? nfsb_is_dir(t->nfs, "/clients") : -rc;
	if (e) {
		*err = talloc_asprintf(mem_ctx, "cannot make '%s/clients': %s", spec, strerror(e));
		goto fail;
	}
	return t;
fail:
	talloc_free(t);
	return NULL;
}

static int nfsb_target_close(struct backend_target *t)
{
	if (t->owner != getpid())
		return 0;
	int rc = nfs_rmdir(t->nfs, "/clients");
	return rc == 0 || rc == -ENOTEMPTY || rc == -EEXIST || rc == -ENOENT ? 0 : -rc;
}

/* backend.target_space: the export's room (FSSTAT), as the server gives
 * it to this user. */
static int nfsb_target_space(struct backend_target *t, struct backend_space *sp)
{
	struct nfs_statvfs_64 v;
	int rc = t->owner == getpid() ? nfs_statvfs64(t->nfs, "/", &v) : -EPERM;

	if (rc != 0)
		return -rc;
	uint64_t unit = v.f_frsize ? v.f_frsize : v.f_bsize ? v.f_bsize : 1;
	*sp = (struct backend_space){
		.bytes = v.f_bavail > UINT64_MAX / unit ? UINT64_MAX : v.f_bavail * unit,
		.inodes = v.f_favail, .inodes_known = v.f_files != 0,
		.block = v.f_bsize ? v.f_bsize : unit,
		.fs = backend_fs_id(t->server, t->export),
	};
	return 0;
}

static json_t *nfsb_target_describe(const struct backend_target *t)
{
	return json_pack("{s:s, s:s, s:s, s:i}", "url", t->url, "server", t->server,
			 "export", t->export, "nfs_version", t->version);
}

static const struct netsys_proto nfsb_sys_proto;
static int nfsb_sys_start(struct backend_client *bc);

/* Locks need NFSv4: count what an NFSv3 target cannot do; and the
 * calls of a recording that no NFS request does. */
static unsigned nfsb_check_program(const struct program *prog,
				  const struct backend_options *opts, char **report)
{
	static const int locks[] = { OP_LOCKX, OP_UNLOCKX, OP_LOCK4, OP_UNLOCK4, OP_TEST4 };
	unsigned total = prog->calls ? netsys_check_program(&nfsb_sys_proto, "nfs", prog, report)
				     : 0;
	const struct nfs_options *o = opts->own;
	bool v4 = o && o->urls && strstr(o->urls, "version=4") && !strstr(o->urls, "version=3");

	if (v4)
		return total;
	for (size_t i = 0; i < sizeof(locks) / sizeof(locks[0]); i++) {
		uint64_t n = prog->count[locks[i]];	/* REPEATs counted */
		if (n)
			*report = talloc_asprintf_append(*report,
				"%s: %" PRIu64 " operation%s not supported by the nfs backend over "
				"NFSv3 (locks need ?version=4)\n", op_table[locks[i]].name, n,
				n == 1 ? "" : "s");
		total += n;
	}
	return total;
}

/* ---- clients ---- */

static int nfsb_client_destructor(struct backend_client *bc)
{
	if (bc->nfs && bc->sys)
		netsys_close_all(bc->sys);
	if (bc->nfs)
		nfs_destroy_context(bc->nfs);
	return 0;
}

static struct backend_client *nfsb_client_new(TALLOC_CTX *mem_ctx, struct backend_target *t,
					     unsigned id, const struct program *prog,
					     const struct backend_options *opts,
					     struct verify *verify, char **err)
{
	struct backend_client *bc = talloc_zero(mem_ctx, struct backend_client);

	if (!bc)
		goto nomem;
	talloc_set_destructor(bc, nfsb_client_destructor);
	bc->prog = prog;
	bc->opts = *opts;
	bc->version = t->version;
	backend_client_name(bc->name, sizeof(bc->name), opts, id);
	snprintf(bc->dir, sizeof(bc->dir), "/clients/%s", bc->name);
	bc->nh = prog->max_handles;
	bc->h = talloc_zero_array(bc, struct nfs_handle, bc->nh + 1);
	bc->buflen = loadfile_max_transfer(prog) > 4096 ? loadfile_max_transfer(prog) : 4096;
	bc->buf = talloc_zero_array(bc, char, bc->buflen);
	bc->dir_slot = talloc_zero_array(bc, uint16_t, prog->ndirs + 1);
	if (!bc->h || !bc->buf || !bc->dir_slot)
		goto nomem;
	if (prog->write_pattern) {
		if (!(bc->pattern = talloc_array(bc, char, bc->buflen)))
			goto nomem;
		for (size_t i = 0; i < bc->buflen; i++)
			bc->pattern[i] = prog->write_pattern[i % prog->write_pattern_len];
	}
	bc->ost = backend_offset_state(id, opts);
	bc->verify = verify;
	bc->nfs = nfsb_connect(mem_ctx, t->url, t->timeout, NULL, err);
	if (!bc->nfs) {
		errno = EIO;
		talloc_free(bc);
		return NULL;
	}
	if (bc->version < 4) {
		bc->c3 = nfs3_conn_new(bc, bc->nfs);
		if (!bc->c3)
			goto nomem;
		int e = nfs3_root(bc->c3, &bc->root);
		if (e) {
			*err = talloc_asprintf(mem_ctx, "'%s': no root handle: %s", t->url, strerror(e));
			errno = e;
			talloc_free(bc);
			return NULL;
		}
	}
	int rc = nfs_mkdir(bc->nfs, bc->dir);
	if (rc != 0 && rc != -EEXIST) {
		*err = talloc_asprintf(mem_ctx, "cannot make '%s%s': %s", t->url, bc->dir,
				       nfs_get_error(bc->nfs));
		errno = -rc;
		talloc_free(bc);
		return NULL;
	}
	if (prog->calls && !(bc->sys = netsys_new(bc, prog, &nfsb_sys_proto, bc)))
		goto nomem;
	return bc;
nomem:
	talloc_free(bc);
	*err = talloc_strdup(mem_ctx, "out of memory");
	errno = ENOMEM;
	return NULL;
}

/* ---- paths (NFSv4) ---- */

/* The export path of op's first (second) path, in bc->path (path2). */
static const char *nfsb_path(struct backend_client *bc, const struct op *op, bool second)
{
	char *buf = second ? bc->path2 : bc->path;
	const char *rel = second ? op->path2 : op->path;

	if (op->flags & OPF_CLIENTS_DIR)
		return "/clients";
	if (!rel || !*rel)
		return bc->dir;
	snprintf(buf, NFS_PATH_MAX, "%s/%s", bc->dir, rel);
	return buf;
}

static int nfsb_rc(int rc)
{
	return rc < 0 ? -rc : 0;
}

/* ---- directory handles (NFSv3) ---- */

static void nfsb3_revalidate(struct backend_client *bc);

/* The handle of /clients, then of our own directory. */
static int nfsb3_clients(struct backend_client *bc, const struct nfs3_handle **out)
{
	int err = 0;

	nfsb3_revalidate(bc);
	if (bc->clients.len == 0)
		err = nfs3_lookup(bc->c3, &bc->root, "clients", &bc->clients, NULL);
	*out = &bc->clients;
	return err;
}

static int nfsb3_self(struct backend_client *bc, const struct nfs3_handle **out)
{
	const struct nfs3_handle *clients;
	enum nfs3_kind kind = NFS3_KIND_DIR;
	int err = 0;

	nfsb3_revalidate(bc);
	*out = &bc->self;
	if (bc->self.len)
		return 0;
	err = nfsb3_clients(bc, &clients);
	if (err == 0)
		err = nfs3_lookup(bc->c3, clients, bc->name, &bc->self, &kind);
	if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
		err = ENOTDIR;
	if (err)
		bc->self.len = 0;
	return err;
}

/* Look `rel` up from our directory, a component at a time. */
static int nfsb3_walk(struct backend_client *bc, const char *rel, struct nfs3_handle *out)
{
	const struct nfs3_handle *self;
	char name[NFS_PATH_MAX];
	int err = nfsb3_self(bc, &self);

	if (err)
		return err;
	*out = *self;
	while (*rel) {
		size_t len = strcspn(rel, "/");
		enum nfs3_kind kind = NFS3_KIND_DIR;
		memcpy(name, rel, len);
		name[len] = '\0';
		struct nfs3_handle next;
		err = nfs3_lookup(bc->c3, out, name, &next, &kind);
		if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
		if (err)
			return err;
		*out = next;
		rel += len + (rel[len] == '/');
	}
	return 0;
}

/* The handle of program.dirs[dir], from the cache or looked up into it. */
static int nfsb3_dir(struct backend_client *bc, uint16_t dir, const struct nfs3_handle **out)
{
	const char *rel = dir < bc->prog->ndirs ? bc->prog->dirs[dir] : NULL;

	if (!rel)
		return EINVAL;
	if (*rel == '\0')
		return nfsb3_self(bc, out);
	nfsb3_revalidate(bc);
	if (bc->dir_slot[dir]) {
		*out = &bc->slots[bc->dir_slot[dir] - 1].h;
		return 0;
	}
	struct nfs_dir_slot *s = &bc->slots[bc->hand];
	struct nfs3_handle h;
	int err = nfsb3_walk(bc, rel, &h);
	if (err)
		return err;
	if (s->h.len)
		bc->dir_slot[s->dir] = 0;	/* the oldest gives way */
	*s = (struct nfs_dir_slot){ h, dir };
	bc->dir_slot[dir] = (uint16_t)(bc->hand + 1);
	bc->hand = (bc->hand + 1) % NFS_DIR_SLOTS;
	*out = &s->h;
	return 0;
}

/* The directory holding op's first (second) path and the name in it. */
static int nfsb3_parent(struct backend_client *bc, const struct op *op, bool second,
			const struct nfs3_handle **dir, const char **leaf)
{
	uint16_t d = second ? op->dir2 : op->dir;

	if (!second && (op->flags & OPF_CLIENTS_DIR)) {
		*dir = &bc->root;
		*leaf = "clients";
		return 0;
	}
	if (d == DIR_NONE) {	/* our own directory */
		*leaf = bc->name;
		return nfsb3_clients(bc, dir);
	}
	*leaf = second ? op->leaf2 : op->leaf;
	return nfsb3_dir(bc, d, dir);
}

/* The handle of op's path itself, and what it is. */
static int nfsb3_object(struct backend_client *bc, const struct op *op, struct nfs3_handle *out,
			enum nfs3_kind *kind)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!(op->flags & OPF_CLIENTS_DIR) && op->dir == DIR_NONE) {
		int err = nfsb3_self(bc, &dir);
		if (err == 0) {
			*out = *dir;
			*kind = NFS3_KIND_DIR;
		}
		return err;
	}
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfs3_lookup(bc->c3, dir, leaf, out, kind);
}

/* Forget the directory handles at or beneath client-relative `path` (all
 * of them for our directory; /clients too for "\clients"): after an
 * Rmdir, Rename or Deltree they name something else, or nothing. */
static void nfsb3_forget(struct backend_client *bc, const char *path, bool clients_dir)
{
	bool all = !path || !*path;

	if (!bc->c3)
		return;
	if (clients_dir)
		bc->clients.len = 0;
	if (clients_dir || all)
		bc->self.len = 0;
	for (unsigned i = 0; i < NFS_DIR_SLOTS; i++) {
		struct nfs_dir_slot *s = &bc->slots[i];
		const char *d = bc->prog->dirs[s->dir];
		if (s->h.len && (clients_dir || all || loadfile_path_within(d, path))) {
			bc->dir_slot[s->dir] = 0;
			s->h.len = 0;
		}
	}
}

/* ---- open files ---- */

static void nfsb_file_close(struct backend_client *bc, struct nfs_file *f)
{
	if (f->fh)
		nfs_close(bc->nfs, f->fh);
	*f = (struct nfs_file){ 0 };
}

static int nfsb_file_getattr(struct backend_client *bc, const struct nfs_file *f)
{
	struct nfs_stat_64 st;

	if (bc->c3)
		return f->h3.len ? nfs3_getattr(bc->c3, &f->h3, NULL) : 0;
	return f->fh ? nfsb_rc(nfs_fstat64(bc->nfs, f->fh, &st)) : 0;
}

static int nfsb_file_commit(struct backend_client *bc, const struct nfs_file *f)
{
	if (bc->c3)
		return f->h3.len ? nfs3_commit(bc->c3, &f->h3) : 0;
	return f->fh ? nfsb_rc(nfs_fsync(bc->nfs, f->fh)) : 0;
}

/* Read or write size bytes at off through f, from or into buf; *done is
 * what moved.  A read into a NULL buf lets the data go (NFSv3: uncopied). */
static int nfsb_file_io(struct backend_client *bc, const struct nfs_file *f, uint64_t off,
			size_t size, bool write, char *buf, size_t *done)
{
	if (bc->c3)
		return write ? nfs3_write(bc->c3, &f->h3, off, size, buf, done)
			     : nfs3_read(bc->c3, &f->h3, off, size, buf, done);
	if (!write) {
		int rc = nfs_pread(bc->nfs, f->fh, off, size, buf ? buf : bc->buf);
		*done = rc < 0 ? 0 : (size_t)rc;
		return nfsb_rc(rc);
	}
	*done = 0;
	while (*done < size) {
		size_t n = size - *done < NFS4_WRITE_PIECE ? size - *done : NFS4_WRITE_PIECE;
		int rc = nfs_pwrite(bc->nfs, f->fh, off + *done, n, buf + *done);
		if (rc <= 0)
			return rc < 0 ? -rc : EIO;
		*done += (size_t)rc;
	}
	return 0;
}

/*
 * Open op's path as a file with `flags` (O_CREAT, O_TRUNC): *is_file
 * false when it names a directory (opened, with no file over NFSv4).
 */
static int nfsb_file_open(struct backend_client *bc, const struct op *op, int flags,
			  struct nfs_file *f, bool *is_file)
{
	*f = (struct nfs_file){ 0 };
	*is_file = true;
	if (!bc->c3) {
		const char *path = nfsb_path(bc, op, false);
		int err = nfsb_rc(nfs_open2(bc->nfs, path, O_RDWR | flags, 0644, &f->fh));
		if (err == EISDIR || err == EACCES) {	/* a directory opened as a file */
			err = nfsb_is_dir(bc->nfs, path);
			*is_file = err != 0;
		}
		return err;
	}
	const struct nfs3_handle *dir;
	const char *leaf;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;
	int create_err = 0;
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	if (err)
		return err;
	if (flags & O_CREAT) {
		/* UNCHECKED: an existing file is opened (and emptied) too */
		create_err = nfs3_create(bc->c3, dir, leaf, (flags & O_TRUNC) != 0, &f->h3);
		if (create_err == 0)
			return 0;
		if (create_err != EEXIST && create_err != EISDIR && create_err != EACCES)
			return create_err;
	}
	err = nfs3_lookup(bc->c3, dir, leaf, &f->h3, &kind);
	if (err == 0 && kind == NFS3_KIND_DIR)
		*is_file = false;	/* a directory opened as a file */
	else if (err == 0 && create_err)
		err = create_err;
	else if (err == 0 && kind == NFS3_KIND_OTHER)
		err = ELOOP;		/* a link, never followed */
	if (err)
		f->h3.len = 0;
	return err;
}

/* The file of op's trace handle, or NULL. */
static struct nfs_handle *nfsb_handle_of(struct backend_client *bc, const struct op *op)
{
	if (op->handle >= bc->nh || !bc->h[op->handle].open)
		return NULL;
	return &bc->h[op->handle];
}

static void nfsb_handle_close(struct backend_client *bc, struct nfs_handle *h)
{
	nfsb_file_close(bc, &h->f);
	*h = (struct nfs_handle){ 0 };
}

/* ---- the NFS dialect's files, by path ---- */

/* Close a cache slot's file and free the slot. */
static void nfsb_cache_clear(struct backend_client *bc, int slot)
{
	nfsb_file_close(bc, &bc->cached[slot]);
	pathcache_set(&bc->cache, slot, NULL);
}

/* An NFS-dialect file by path: opened (with `flags` added) once, kept in
 * bc->cached[*slot].  ENOLCK when every slot holds a locked file. */
static int nfsb_cached_file(struct backend_client *bc, const struct op *op, int flags,
			    int *slot)
{
	bool is_file;

	nfsb3_revalidate(bc);
	int i = pathcache_find(&bc->cache, op->path);
	if (i < 0) {
		if ((i = pathcache_pick(&bc->cache, op->path)) < 0)
			return ENOLCK;
		nfsb_cache_clear(bc, i);
		int err = nfsb_file_open(bc, op, flags, &bc->cached[i], &is_file);
		if (err == 0 && !is_file)
			err = EISDIR;
		if (err) {
			nfsb_file_close(bc, &bc->cached[i]);
			return err;
		}
		pathcache_set(&bc->cache, i, op->path);
	}
	*slot = i;
	return 0;
}

/* Forget the cached files at or beneath a path the operation removed or
 * renamed. */
static void nfsb_cached_drop(struct backend_client *bc, const char *path)
{
	for (int i = 0; i < PATHCACHE_SLOTS; i++) {
		if (bc->cache.path[i] && path && loadfile_path_within(bc->cache.path[i], path))
			nfsb_cache_clear(bc, i);
	}
}

/* After a reply said that a handle is stale, any handle kept for a name
 * may be: forget them all, directories and the NFS dialect's files. */
static void nfsb3_revalidate(struct backend_client *bc)
{
	if (bc->c3 && nfs3_take_stale(bc->c3)) {
		nfsb3_forget(bc, "", true);
		nfsb_cached_drop(bc, "");
	}
}

/* ---- operations on names ---- */

static int nfsb_mkdir_path(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!bc->c3)
		return nfsb_rc(nfs_mkdir(bc->nfs, nfsb_path(bc, op, false)));
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfs3_mkdir(bc->c3, dir, leaf);
}

/* 0 when op's path is a directory, else ENOTDIR or why not. */
static int nfsb_is_dir_op(struct backend_client *bc, const struct op *op, bool second)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;

	if (!bc->c3)
		return nfsb_is_dir(bc->nfs, nfsb_path(bc, op, second));
	int err = nfsb3_parent(bc, op, second, &dir, &leaf);
	if (err == 0)
		err = nfs3_lookup(bc->c3, dir, leaf, NULL, &kind);
	return err ? err : kind == NFS3_KIND_DIR ? 0 : ENOTDIR;
}

static int nfsb_getattr_obj(struct backend_client *bc, const struct op *op)
{
	struct nfs_stat_64 st;
	struct nfs3_handle h;
	enum nfs3_kind kind;

	if (!bc->c3)
		return nfsb_rc(nfs_stat64(bc->nfs, nfsb_path(bc, op, false), &st));
	if (!(op->flags & OPF_CLIENTS_DIR) && op->dir == DIR_NONE) {
		const struct nfs3_handle *self;
		int err = nfsb3_self(bc, &self);
		return err ? err : nfs3_getattr(bc->c3, self, NULL);
	}
	return nfsb3_object(bc, op, &h, &kind);	/* a LOOKUP brings the attributes */
}

/* Remove `name` in the directory at `parent` (a path, NFSv4; a handle,
 * NFSv3) and everything beneath it, never following a link. */
struct nfs_entry {
	char *name;
	enum nfs3_kind kind;
};

struct nfs_entries {
	TALLOC_CTX *mem_ctx;
	struct nfs_entry *e;
	size_t n;
	bool oom;
};

static bool nfsb3_collect(void *arg, const char *name, enum nfs3_kind kind)
{
	struct nfs_entries *l = arg;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return true;
	struct nfs_entry *e = talloc_realloc(l->mem_ctx, l->e, struct nfs_entry, l->n + 1);
	if (!e || !(e[l->n].name = talloc_strdup(e, name))) {
		l->oom = true;
		return false;
	}
	e[l->n++].kind = kind;
	l->e = e;
	return true;
}

static int nfsb3_rmtree(struct backend_client *bc, const struct nfs3_handle *parent,
			const char *name, int depth)
{
	struct nfs3_handle h;
	enum nfs3_kind kind = NFS3_KIND_UNKNOWN;
	int err = nfs3_lookup(bc->c3, parent, name, &h, &kind);

	if (err)
		return err;
	if (kind != NFS3_KIND_DIR || depth >= NFS_RMTREE_DEPTH)
		return nfs3_remove(bc->c3, parent, name);
	struct nfs_entries l = { .mem_ctx = talloc_new(bc) };
	if (!l.mem_ctx)
		return ENOMEM;
	err = nfs3_readdir(bc->c3, &h, nfsb3_collect, &l);
	if (err == 0 && l.oom)
		err = ENOMEM;
	for (size_t i = 0; err == 0 && i < l.n; i++)
		err = l.e[i].kind == NFS3_KIND_DIR ? nfsb3_rmtree(bc, &h, l.e[i].name, depth + 1)
						    : nfs3_remove(bc->c3, &h, l.e[i].name);
	talloc_free(l.mem_ctx);
	return err ? err : nfs3_rmdir(bc->c3, parent, name);
}

/* Remove path and everything beneath it, never following a link (NFS
 * READDIRPLUS says what each entry is; a link is removed, not followed). */
static int nfsb4_rmtree(struct backend_client *bc, const char *path, int depth)
{
	struct nfsdir *d;
	struct nfsdirent *e;
	int rc = nfs_opendir(bc->nfs, path, &d);

	if (rc == -ENOTDIR)
		return nfsb_rc(nfs_unlink(bc->nfs, path));
	if (rc < 0)
		return -rc;
	int err = 0;
	while (err == 0 && (e = nfs_readdir(bc->nfs, d)) != NULL) {
		if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
			continue;
		char *child = talloc_asprintf(bc, "%s/%s", path, e->name);
		if (!child)
			err = ENOMEM;
		else if ((e->mode & S_IFMT) == S_IFDIR && depth < NFS_RMTREE_DEPTH)
			err = nfsb4_rmtree(bc, child, depth + 1);
		else
			err = nfsb_rc(nfs_unlink(bc->nfs, child));
		talloc_free(child);
	}
	nfs_closedir(bc->nfs, d);
	return err ? err : nfsb_rc(nfs_rmdir(bc->nfs, path));
}

static int nfsb_rmtree_op(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;

	if (!bc->c3)
		return nfsb4_rmtree(bc, nfsb_path(bc, op, false), 0);
	int err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfsb3_rmtree(bc, dir, leaf, 0);
}

/* READDIRPLUS a directory: max entries at most; with a pattern, ENOENT
 * when none of them matches (as fileio does). */
struct nfs_listing {
	const struct dosmatch_pattern *pat;
	int64_t left;
	unsigned matches;
};

static bool nfsb_listed(void *arg, const char *name, enum nfs3_kind kind)
{
	struct nfs_listing *l = arg;

	(void)kind;
	if (l->left-- <= 0)
		return false;
	if (l->pat && l->matches == 0)
		l->matches += dosmatch(l->pat, name);
	return true;
}

static int nfsb_list(struct backend_client *bc, const struct op *op, bool parent,
		     const char *pattern, int64_t max)
{
	struct dosmatch_pattern pat = pattern ? dosmatch_pattern_of(pattern)
					      : (struct dosmatch_pattern){ 0 };
	struct nfs_listing l = { pattern ? &pat : NULL, max, 0 };
	int err = 0;

	if (bc->c3) {
		const struct nfs3_handle *dir;
		struct nfs3_handle h;
		enum nfs3_kind kind = NFS3_KIND_DIR;
		const char *leaf;
		if (parent)
			err = nfsb3_parent(bc, op, false, &dir, &leaf);
		else if ((err = nfsb3_object(bc, op, &h, &kind)) == 0)
			dir = &h;
		if (err == 0 && kind != NFS3_KIND_DIR && kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
		if (err == 0)
			err = nfs3_readdir(bc->c3, dir, nfsb_listed, &l);
	} else {
		char path[NFS_PATH_MAX];
		const char *full = nfsb_path(bc, op, false);
		struct nfsdir *d;
		struct nfsdirent *e;
		if (parent)
			snprintf(path, sizeof(path), "%.*s", (int)(strrchr(full, '/') - full), full);
		else
			snprintf(path, sizeof(path), "%s", full);
		err = nfsb_rc(nfs_opendir(bc->nfs, path, &d));
		if (err)
			return err;
		while ((e = nfs_readdir(bc->nfs, d)) != NULL && nfsb_listed(&l, e->name, 0))
			;
		nfs_closedir(bc->nfs, d);
	}
	return err ? err : !pattern || l.matches ? 0 : ENOENT;
}

/* ---- dbench 4's operations ---- */

static int nfsb_ntcreatex(struct backend_client *bc, const struct op *op)
{
	int flags = backend_open_flags(op->a[1]);
	struct nfs_file f = { 0 };
	bool is_file = false;
	int err;

	if (flags < 0)
		return EINVAL;
	if (op->a[0] & NT_DIRECTORY_FILE) {
		enum nfs3_kind kind = NFS3_KIND_DIR;
		if (flags & O_CREAT)
			(void)nfsb_mkdir_path(bc, op);
		if (!bc->c3)
			err = nfsb_is_dir(bc->nfs, nfsb_path(bc, op, false));
		else if ((err = nfsb3_object(bc, op, &f.h3, &kind)) == 0 && kind != NFS3_KIND_DIR &&
			 kind != NFS3_KIND_UNKNOWN)
			err = ENOTDIR;
	} else {
		err = nfsb_file_open(bc, op, flags, &f, &is_file);
	}
	bool keep = err == 0 && op->status == NT_OK && op->handle < bc->nh;
	verify_ntcreatex(bc->verify, keep ? op->handle : VERIFY_NO_HANDLE, op->path,
			 err ? VERIFY_OPEN_FAILED : is_file ? VERIFY_OPENED_FILE : VERIFY_OPENED_OTHER,
			 (flags & O_TRUNC) != 0);
	if (!keep) {
		nfsb_file_close(bc, &f);
		return err;
	}
	nfsb_handle_close(bc, &bc->h[op->handle]);
	bc->h[op->handle] = (struct nfs_handle){ f, true, is_file };
	return 0;
}

static int nfsb_closeop(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h)
		return EBADF;
	int rc = h->f.fh ? nfs_close(bc->nfs, h->f.fh) : 0;
	h->f.fh = NULL;
	nfsb_handle_close(bc, h);
	return nfsb_rc(rc);
}

static int nfsb_rename(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *from, *to;
	const char *from_leaf, *to_leaf;
	int err;

	nfsb_cached_drop(bc, op->path);
	nfsb_cached_drop(bc, op->path2);
	if (bc->c3) {
		err = nfsb3_parent(bc, op, false, &from, &from_leaf);
		struct nfs3_handle from_h = err ? (struct nfs3_handle){ 0 } : *from;
		if (err == 0)
			err = nfsb3_parent(bc, op, true, &to, &to_leaf);
		if (err == 0)
			err = nfs3_rename(bc->c3, &from_h, from_leaf, to, to_leaf);
		nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
		nfsb3_forget(bc, op->path2, false);
	} else {
		err = nfsb_rc(nfs_rename(bc->nfs, nfsb_path(bc, op, false), nfsb_path(bc, op, true)));
	}
	if (err == 0 && bc->verify)
		verify_rename(bc->verify, op->path, op->path2, nfsb_is_dir_op(bc, op, true) == 0);
	return err;
}

static int nfsb_unlink(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	int err;

	nfsb_cached_drop(bc, op->path);
	if (!bc->c3)
		err = nfsb_rc(nfs_unlink(bc->nfs, nfsb_path(bc, op, false)));
	else if ((err = nfsb3_parent(bc, op, false, &dir, &leaf)) == 0)
		err = nfs3_remove(bc->c3, dir, leaf);
	return err;
}

static int nfsb_rmdir_op(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	int err;

	if (!bc->c3)
		return nfsb_rc(nfs_rmdir(bc->nfs, nfsb_path(bc, op, false)));
	err = nfsb3_parent(bc, op, false, &dir, &leaf);
	if (err == 0)
		err = nfs3_rmdir(bc->c3, dir, leaf);
	if (err == 0)
		nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
	return err;
}

static int nfsb_mkdir_op(struct backend_client *bc, const struct op *op)
{
	int err = nfsb_mkdir_path(bc, op);

	/* \clients is every client's: that it exists is no failure */
	return err == EEXIST && (op->flags & OPF_CLIENTS_DIR) ? 0 : err;
}

static int nfsb_deltree(struct backend_client *bc, const struct op *op)
{
	nfsb_cached_drop(bc, op->path);
	int err = nfsb_rmtree_op(bc, op);
	nfsb3_forget(bc, op->path, (op->flags & OPF_CLIENTS_DIR) != 0);
	return err == ENOENT ? 0 : err;
}

static int nfsb_getattr_path(struct backend_client *bc, const struct op *op)
{
	/* An NFS-dialect file this client holds open: a GETATTR on its
	 * handle, as dbench 5.0 does from its handle cache. */
	nfsb3_revalidate(bc);
	int i = op_is_nfs(op->type) ? pathcache_find(&bc->cache, op->path) : -1;
	if (i >= 0)
		return nfsb_file_getattr(bc, &bc->cached[i]);
	return nfsb_getattr_obj(bc, op);
}

static int nfsb_qfileinfo(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	return h ? nfsb_file_getattr(bc, &h->f) : EBADF;
}

static int nfsb_fsstat(struct backend_client *bc, const struct op *op)
{
	struct nfs_statvfs_64 sv;

	(void)op;
	if (bc->c3)
		return nfs3_fsstat(bc->c3, &bc->root);
	return nfsb_rc(nfs_statvfs64(bc->nfs, bc->dir, &sv));
}

static int nfsb_sfileinfo(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);
	struct timeval tv[2];

	if (!h)
		return EBADF;
	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	tv[0].tv_sec -= 10;
	tv[1].tv_sec -= 12;
	if (bc->c3)
		return nfs3_set_times(bc->c3, &h->f.h3, (uint32_t)tv[0].tv_sec, (uint32_t)tv[1].tv_sec);
	return nfsb_rc(nfs_utimes(bc->nfs, nfsb_path(bc, op, false), tv));
}

static int nfsb_findfirst(struct backend_client *bc, const struct op *op)
{
	if (!(op->flags & OPF_WILDCARD))
		return nfsb_getattr_path(bc, op);
	return nfsb_list(bc, op, true, op->leaf, op->a[1] > 0 ? op->a[1] : INT64_MAX);
}

static int nfsb_io(struct backend_client *bc, const struct nfs_file *f, const struct op *op,
		   uint64_t off, bool write, char *buf, size_t *done)
{
	int err = nfsb_file_io(bc, f, off, (size_t)op->a[1], write, buf, done);

	if (err || op_is_nfs(op->type))
		return err;	/* 5.0 takes a short READ3 as it comes */
	if (*done < (size_t)op->a[2])
		return write ? EIO : ENODATA;
	return 0;
}

static int nfsb_readx(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h || !h->is_file)
		return EBADF;
	size_t n = 0;
	/* the data is looked at only to verify it */
	int err = nfsb_io(bc, &h->f, op, (uint64_t)op->a[0], false, bc->verify ? bc->buf : NULL, &n);
	if (err == 0 && bc->verify &&
	    verify_check(bc->verify, op->handle, (uint64_t)op->a[0], bc->buf, n) != 0)
		return EILSEQ;
	return err;
}

static int nfsb_writex(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h || !h->is_file)
		return EBADF;
	if (bc->verify)
		verify_fill(bc->verify, op->handle, (uint64_t)op->a[0], bc->buf, (size_t)op->a[1]);
	size_t n = 0;
	int err = nfsb_io(bc, &h->f, op, (uint64_t)op->a[0], true, bc->buf, &n);
	if (bc->verify && n > 0)
		verify_wrote(bc->verify, op->handle, (uint64_t)op->a[0], n);
	if (err == 0 && bc->opts.fsync_writes)
		err = nfsb_file_commit(bc, &h->f);
	return err;
}

static int nfsb_lock_fh(struct backend_client *bc, struct nfsfh *fh, uint64_t off,
		       uint64_t len, int type)
{
	/* a length of 0 is "to the end of the file", as in fcntl(2); NFSv4
	 * says that with all ones, libnfs with INT64_MAX */
	struct nfs4_flock fl = { .l_type = type, .l_whence = SEEK_SET,
				 .l_pid = (uint32_t)getpid(), .l_start = off,
				 .l_len = len ? len : (uint64_t)INT64_MAX - off };

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	return nfsb_rc(nfs_fcntl(bc->nfs, fh, NFS4_F_SETLK, &fl));
}

static int nfsb_lockx(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	if (!h || !h->f.fh)
		return EBADF;
	return nfsb_lock_fh(bc, h->f.fh, (uint64_t)op->a[0], (uint64_t)op->a[1],
			   op->type == OP_LOCKX ? F_WRLCK : F_UNLCK);
}

static int nfsb_flush(struct backend_client *bc, const struct op *op)
{
	struct nfs_handle *h = nfsb_handle_of(bc, op);

	if (!h)
		return EBADF;
	return h->is_file ? nfsb_file_commit(bc, &h->f) : 0;
}

/* ---- the NFS dialect ---- */

static int nfsb3_setattr(struct backend_client *bc, const struct op *op)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	if (bc->c3) {
		struct nfs3_handle h;
		enum nfs3_kind kind;
		int err = nfsb3_object(bc, op, &h, &kind);
		return err ? err : nfs3_set_times(bc->c3, &h, (uint32_t)tv[0].tv_sec,
						  (uint32_t)tv[1].tv_sec);
	}
	int rc = nfs_utimes(bc->nfs, nfsb_path(bc, op, false), tv);
	/* libnfs' NFSv4 SETATTR by path opens what it changes, which a
	 * directory refuses: beyond what it can express */
	if (rc == -EISDIR)
		return BACKEND_NOT_SUPPORTED;
	return nfsb_rc(rc);
}

static int nfsb3_access(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_access(bc->nfs, nfsb_path(bc, op, false), R_OK));
}

static int nfsb3_readlink(struct backend_client *bc, const struct op *op)
{
	char *target = NULL;
	int rc = nfs_readlink2(bc->nfs, nfsb_path(bc, op, false), &target);

	free(target);
	return nfsb_rc(rc);
}

static int nfsb3_rw(struct backend_client *bc, const struct op *op)
{
	uint64_t off = loadfile_offset(bc->prog, op, &bc->ost);
	bool write = op->type == OP_WRITE3;
	int slot, err = nfsb_cached_file(bc, op, 0, &slot);

	if (err)
		return err;
	const struct nfs_file *f = &bc->cached[slot];
	size_t n;
	err = nfsb_io(bc, f, op, off, write, !write ? NULL : bc->pattern ? bc->pattern : bc->buf, &n);
	if (err == 0 && write && op->a[2] > 0)
		err = nfsb_file_commit(bc, f);	/* stable: a COMMIT after */
	return err;
}

static int nfsb3_create(struct backend_client *bc, const struct op *op)
{
	int slot;

	nfsb_cached_drop(bc, op->path);
	return nfsb_cached_file(bc, op, O_CREAT, &slot);
}

static int nfsb3_symlink(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_symlink(bc->nfs, nfsb_path(bc, op, true), nfsb_path(bc, op, false)));
}

static int nfsb3_remove(struct backend_client *bc, const struct op *op)
{
	const struct nfs3_handle *dir;
	const char *leaf;
	int err;

	nfsb_cached_drop(bc, op->path);
	if (!bc->c3)
		return nfsb_rc(nfs_unlink(bc->nfs, nfsb_path(bc, op, false)));
	err = nfsb3_parent(bc, op, false, &dir, &leaf);
	return err ? err : nfs3_remove(bc->c3, dir, leaf);
}

static int nfsb3_link(struct backend_client *bc, const struct op *op)
{
	return nfsb_rc(nfs_link(bc->nfs, nfsb_path(bc, op, true), nfsb_path(bc, op, false)));
}

static int nfsb3_readdirplus(struct backend_client *bc, const struct op *op)
{
	return nfsb_list(bc, op, false, NULL, INT64_MAX);
}

static int nfsb3_commit(struct backend_client *bc, const struct op *op)
{
	int slot, err = nfsb_cached_file(bc, op, 0, &slot);

	return err ? err : nfsb_file_commit(bc, &bc->cached[slot]);
}

static int nfsb4_lock(struct backend_client *bc, const struct op *op)
{
	uint64_t off = loadfile_offset(bc->prog, op, &bc->ost);

	if (bc->version < 4)
		return BACKEND_NOT_SUPPORTED;
	int slot, err = nfsb_cached_file(bc, op, O_CREAT, &slot);
	if (err)
		return err;
	const struct nfs_file *f = &bc->cached[slot];
	if (op->type == OP_TEST4) {
		uint64_t cur;
		int rc = nfs_lseek(bc->nfs, f->fh, (int64_t)off, SEEK_SET, &cur);
		return nfsb_rc(rc < 0 ? rc : nfs_lockf(bc->nfs, f->fh, NFS4_F_TEST, (uint64_t)op->a[1]));
	}
	/* Unlocking what nobody locked succeeds, as with fcntl(2); NFSv4 has
	 * no lock state to send a LOCKU with then, so nothing is sent. */
	if (op->type == OP_UNLOCK4 && !bc->cache.pinned[slot])
		return 0;
	err = nfsb_lock_fh(bc, f->fh, off, (uint64_t)op->a[1],
			   op->type == OP_LOCK4 ? F_WRLCK : F_UNLCK);
	if (err == 0 && op->type == OP_LOCK4)
		bc->cache.pinned[slot] = true;
	return err;
}

/* ---- the system-call dialect (netsys.h) ---- */

/*
 * A recording's calls as libnfs' path calls beneath the client's
 * directory, over NFSv3 or v4 alike (the handle calls of nfs3.c keep
 * names of the loadfile, which a recording's descriptors outlive).
 * Every request has its call here; the owner a chown sets is the
 * replaying user's (AUTH_SYS sends no other).
 */
static const char *nfsb_sys_path(struct backend_client *bc, char *buf, const char *rel)
{
	if (!*rel)
		return bc->dir;
	snprintf(buf, NFS_PATH_MAX, "%s/%s", bc->dir, rel);
	return buf;
}

/* libnfs opens a directory as a file: a read-only open asks what it
 * opened (a GETATTR) and keeps no handle of a directory. */
static int nfsb_sys_open(struct backend_client *bc, const char *path, int flags, uint32_t mode,
			 void **file, bool *dir)
{
	struct nfsfh *fh = NULL;
	struct nfs_stat_64 st;
	int rc = nfs_open2(bc->nfs, nfsb_sys_path(bc, bc->path, path), flags, (int)mode, &fh);

	*file = fh;
	*dir = false;
	if (rc < 0 || (flags & (O_ACCMODE | O_CREAT)) != O_RDONLY)
		return nfsb_rc(rc);
	rc = nfs_fstat64(bc->nfs, fh, &st);
	*dir = rc == 0 && (st.nfs_mode & S_IFMT) == S_IFDIR;
	if (rc < 0 || *dir) {
		nfs_close(bc->nfs, fh);
		*file = NULL;
	}
	return nfsb_rc(rc);
}

static void nfsb_sys_close(struct backend_client *bc, void *file)
{
	nfs_close(bc->nfs, file);
}

static int nfsb_sys_pread(struct backend_client *bc, void *file, uint64_t off, size_t len,
			  char *buf, size_t *done)
{
	*done = 0;
	while (*done < len) {
		int rc = nfs_pread(bc->nfs, file, off + *done, len - *done, buf + *done);
		if (rc < 0)
			return -rc;
		if (rc == 0)
			break;
		*done += (size_t)rc;
	}
	return 0;
}

/* Over NFSv4 in pieces libnfs 4.0 can encode (NFS4_WRITE_PIECE). */
static int nfsb_sys_pwrite(struct backend_client *bc, void *file, uint64_t off, size_t len,
			   const char *buf, size_t *done)
{
	size_t piece = bc->version >= 4 ? NFS4_WRITE_PIECE : len;

	*done = 0;
	while (*done < len) {
		size_t n = len - *done < piece ? len - *done : piece;
		int rc = nfs_pwrite(bc->nfs, file, off + *done, n, buf + *done);
		if (rc <= 0)
			return rc < 0 ? -rc : EIO;
		*done += (size_t)rc;
	}
	return 0;
}

static int nfsb_sys_fstat(struct backend_client *bc, void *file, struct netsys_attr *a)
{
	struct nfs_stat_64 st;
	int rc = nfs_fstat64(bc->nfs, file, &st);

	*a = (struct netsys_attr){ st.nfs_size, (uint32_t)st.nfs_mode };
	return nfsb_rc(rc);
}

static int nfsb_sys_stat(struct backend_client *bc, const char *path, bool follow,
			 struct netsys_attr *a)
{
	struct nfs_stat_64 st = { 0 };
	const char *p = nfsb_sys_path(bc, bc->path, path);
	int rc = follow ? nfs_stat64(bc->nfs, p, &st) : nfs_lstat64(bc->nfs, p, &st);

	*a = (struct netsys_attr){ st.nfs_size, (uint32_t)st.nfs_mode };
	return nfsb_rc(rc);
}

static int nfsb_sys_ftruncate(struct backend_client *bc, void *file, uint64_t len)
{
	return nfsb_rc(nfs_ftruncate(bc->nfs, file, len));
}

static int nfsb_sys_fsync(struct backend_client *bc, void *file)
{
	return nfsb_rc(nfs_fsync(bc->nfs, file));
}

static int nfsb_sys_list(struct backend_client *bc, const char *path,
			 void (*visit)(void *arg, const char *name), void *arg)
{
	struct nfsdir *d;
	struct nfsdirent *e;
	int rc = nfs_opendir(bc->nfs, nfsb_sys_path(bc, bc->path, path), &d);

	if (rc < 0)
		return -rc;
	while ((e = nfs_readdir(bc->nfs, d)) != NULL)
		visit(arg, e->name);
	nfs_closedir(bc->nfs, d);
	return 0;
}

static int nfsb_sys_mkdir(struct backend_client *bc, const char *path, uint32_t mode)
{
	return nfsb_rc(nfs_mkdir2(bc->nfs, nfsb_sys_path(bc, bc->path, path), (int)mode));
}

static int nfsb_sys_rmdir(struct backend_client *bc, const char *path)
{
	return nfsb_rc(nfs_rmdir(bc->nfs, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_unlink(struct backend_client *bc, const char *path)
{
	return nfsb_rc(nfs_unlink(bc->nfs, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_rename(struct backend_client *bc, const char *from, const char *to)
{
	return nfsb_rc(nfs_rename(bc->nfs, nfsb_sys_path(bc, bc->path, from),
				  nfsb_sys_path(bc, bc->path2, to)));
}

static int nfsb_sys_link(struct backend_client *bc, const char *from, const char *to)
{
	return nfsb_rc(nfs_link(bc->nfs, nfsb_sys_path(bc, bc->path, from),
				nfsb_sys_path(bc, bc->path2, to)));
}

static int nfsb_sys_symlink(struct backend_client *bc, const char *target, const char *path)
{
	return nfsb_rc(nfs_symlink(bc->nfs, target, nfsb_sys_path(bc, bc->path, path)));
}

static int nfsb_sys_readlink(struct backend_client *bc, const char *path, size_t *len)
{
	char *target = NULL;
	int rc = nfs_readlink2(bc->nfs, nfsb_sys_path(bc, bc->path, path), &target);

	*len = target ? strlen(target) : 0;
	free(target);
	return nfsb_rc(rc);
}

static int nfsb_sys_chmod(struct backend_client *bc, const char *path, uint32_t mode)
{
	return nfsb_rc(nfs_chmod(bc->nfs, nfsb_sys_path(bc, bc->path, path), (int)mode));
}

static int nfsb_sys_chown(struct backend_client *bc, const char *path, bool follow)
{
	const char *p = nfsb_sys_path(bc, bc->path, path);
	int uid = (int)geteuid(), gid = (int)getegid();

	return nfsb_rc(follow ? nfs_chown(bc->nfs, p, uid, gid) : nfs_lchown(bc->nfs, p, uid, gid));
}

/* libnfs' NFSv4 SETATTR by path opens what it changes, which a directory
 * refuses: beyond what it can express, as for SETATTR3. */
static int nfsb_sys_utimes(struct backend_client *bc, const char *path)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	int rc = nfs_utimes(bc->nfs, nfsb_sys_path(bc, bc->path, path), tv);
	return rc == -EISDIR && bc->version >= 4 ? BACKEND_NOT_SUPPORTED : nfsb_rc(rc);
}

static int nfsb_sys_statfs(struct backend_client *bc, const char *path)
{
	struct nfs_statvfs_64 sv;

	return nfsb_rc(nfs_statvfs64(bc->nfs, nfsb_sys_path(bc, bc->path, path), &sv));
}

static int nfsb_sys_access(struct backend_client *bc, const char *path, int mode)
{
	return nfsb_rc(nfs_access(bc->nfs, nfsb_sys_path(bc, bc->path, path), mode));
}

static const struct netsys_proto nfsb_sys_proto = {
	.open = nfsb_sys_open, .close = nfsb_sys_close,
	.pread = nfsb_sys_pread, .pwrite = nfsb_sys_pwrite,
	.fstat = nfsb_sys_fstat, .stat = nfsb_sys_stat, .ftruncate = nfsb_sys_ftruncate,
	.fsync = nfsb_sys_fsync, .list = nfsb_sys_list, .mkdir = nfsb_sys_mkdir,
	.rmdir = nfsb_sys_rmdir, .unlink = nfsb_sys_unlink, .rename = nfsb_sys_rename,
	.link = nfsb_sys_link, .symlink = nfsb_sys_symlink, .readlink = nfsb_sys_readlink,
	.chmod = nfsb_sys_chmod, .chown = nfsb_sys_chown, .utimes = nfsb_sys_utimes,
	.statfs = nfsb_sys_statfs, .access = nfsb_sys_access,
};

/* Remove the client's directory and everything in it. */
static int nfsb_remove_own(struct backend_client *bc)
{
	const struct nfs3_handle *clients;
	int err;

	if (!bc->c3)
		err = nfsb4_rmtree(bc, bc->dir, 0);
	else if ((err = nfsb3_clients(bc, &clients)) == 0)
		err = nfsb3_rmtree(bc, clients, bc->name, 0);
	nfsb3_forget(bc, "", false);
	return err;
}

/* A recording's pass starts in an empty client directory holding its
 * initial state. */
static int nfsb_sys_start(struct backend_client *bc)
{
	netsys_close_all(bc->sys);
	int err = nfsb_remove_own(bc);
	if ((err && err != ENOENT) || (err = nfsb_rc(nfs_mkdir(bc->nfs, bc->dir))) != 0)
		return err;
	return netsys_pass_start(bc->sys);
}

static int nfsb_syscall(struct backend_client *bc, const struct op *op)
{
	return netsys_op(bc->sys, op);
}

static int nfsb_pass_begin(struct backend_client *bc)
{
	return bc->sys ? nfsb_sys_start(bc) : 0;
}

/* ---- the rest of the vtable ---- */

/*
 * What a failure has to say beyond its errno: over NFSv4, the known limit
 * of libnfs 4.0 that the server's NFS4ERR_BAD_SEQID or NFS4ERR_BAD_STATEID
 * reveals (libnfs makes them "Numerical result out of range" or "Invalid
 * argument"), with the way out; else nothing.  The words are libnfs' last
 * error, which the failed call set.
 */
static const char *nfsb_failure_detail(struct backend_client *bc)
{
	const char *e = bc->version == 4 ? nfs_get_error(bc->nfs) : NULL;

	if (e && strstr(e, "NFS4ERR_BAD_SEQID"))
		return "the server answered NFS4ERR_BAD_SEQID: libnfs 4.0 keeps its NFSv4 state"
		       " wrong after a lock or a SETATTR (man page, --nfs); measure over NFSv3"
		       " (?version=3)";
	if (e && strstr(e, "NFS4ERR_BAD_STATEID"))
		return "the server answered NFS4ERR_BAD_STATEID: libnfs 4.0 keeps its NFSv4 state"
		       " wrong after a lock or a SETATTR (man page, --nfs); measure over NFSv3"
		       " (?version=3)";
	return NULL;
}

static void nfsb_pass_end(struct backend_client *bc)
{
	if (bc->sys)
		netsys_close_all(bc->sys);
	for (unsigned i = 0; i < bc->nh; i++) {
		if (bc->h[i].open)
			nfsb_handle_close(bc, &bc->h[i]);
	}
	nfsb_cached_drop(bc, "");
}

static int nfsb_cleanup(struct backend_client *bc)
{
	nfsb_pass_end(bc);
	int err = nfsb_remove_own(bc);
	return err == ENOENT ? 0 : err;
}

/* The hooks, under the name, summary and options modules.c gives them. */
const struct backend nfs_module = {
	.targets = nfsb_targets,
	.check_program = nfsb_check_program,
	.target_open = nfsb_target_open,
	.target_close = nfsb_target_close,
	.target_space = nfsb_target_space,
	.target_describe = nfsb_target_describe,
	.client_new = nfsb_client_new,
	.op = {
		[OP_NTCREATEX] = nfsb_ntcreatex, [OP_CLOSE] = nfsb_closeop,
		[OP_RENAME] = nfsb_rename, [OP_UNLINK] = nfsb_unlink,
		[OP_DELTREE] = nfsb_deltree, [OP_RMDIR] = nfsb_rmdir_op,
		[OP_MKDIR] = nfsb_mkdir_op, [OP_QPATHINFO] = nfsb_getattr_path,
		[OP_QFILEINFO] = nfsb_qfileinfo, [OP_QFSINFO] = nfsb_fsstat,
		[OP_SFILEINFO] = nfsb_sfileinfo, [OP_FINDFIRST] = nfsb_findfirst,
		[OP_WRITEX] = nfsb_writex, [OP_READX] = nfsb_readx,
		[OP_LOCKX] = nfsb_lockx, [OP_UNLOCKX] = nfsb_lockx, [OP_FLUSH] = nfsb_flush,
		[OP_GETATTR3] = nfsb_getattr_path, [OP_SETATTR3] = nfsb3_setattr,
		[OP_LOOKUP3] = nfsb_getattr_path, [OP_ACCESS3] = nfsb3_access,
		[OP_READLINK3] = nfsb3_readlink, [OP_READ3] = nfsb3_rw, [OP_WRITE3] = nfsb3_rw,
		[OP_CREATE3] = nfsb3_create, [OP_MKDIR3] = nfsb_mkdir_op,
		[OP_SYMLINK3] = nfsb3_symlink, [OP_REMOVE3] = nfsb3_remove,
		[OP_RMDIR3] = nfsb_rmdir_op, [OP_RENAME3] = nfsb_rename, [OP_LINK3] = nfsb3_link,
		[OP_READDIRPLUS3] = nfsb3_readdirplus, [OP_FSSTAT3] = nfsb_fsstat,
		[OP_FSINFO3] = nfsb_fsstat, [OP_PATHCONF3] = nfsb_getattr_path,
		[OP_COMMIT3] = nfsb3_commit, [OP_LOCK4] = nfsb4_lock, [OP_UNLOCK4] = nfsb4_lock,
		[OP_TEST4] = nfsb4_lock,
		[OP_SYS_FIRST ... OP_SYS_LAST] = nfsb_syscall,
	},
	.verifies = true,
	.failure_detail = nfsb_failure_detail,
	.pass_end = nfsb_pass_end,
	.pass_begin = nfsb_pass_begin,
	.cleanup = nfsb_cleanup,
};
