/*
 * nfs3.c - NFSv3 calls on file handles, one at a time (see nfs3.h).
 *
 * Each call is sent with libnfs' rpc_nfs3_*_async and waited for here:
 * poll the context's socket, let libnfs service it, until the one
 * callback (nfs3_done) has run.  libnfs fails a call that outlives the
 * context's timeout (nfs_set_timeout) from rpc_service, which is called
 * at least every NFS3_POLL_MS for that; a deadline of our own backs it.
 * The callback copies what the caller asked for (a handle, the bytes
 * read, directory entries) out of the reply, whose memory is libnfs'
 * only while the callback runs.
 *
 * Owns: the state of the call in flight.  Knows nothing of paths,
 * loadfiles or the backend interface.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "nfs3.h"

#define NFS3_POLL_MS 100
#define NFS3_READDIR_DIRCOUNT 8192
#define NFS3_READDIR_MAXCOUNT 32768

/*
 * libnfs (1.x to 6.x) exports nfs_get_rootfh() without declaring it in
 * its public headers, and declares struct nfs_fh only as incomplete; this
 * is its layout (libnfs-private.h).
 */
struct nfs_fh {
	int len;
	char *val;
};
const struct nfs_fh *nfs_get_rootfh(struct nfs_context *nfs);

enum nfs3_proc { NFS3_PROC_STATUS, NFS3_PROC_LOOKUP, NFS3_PROC_CREATE, NFS3_PROC_GETATTR,
		 NFS3_PROC_READ, NFS3_PROC_WRITE, NFS3_PROC_READDIRPLUS };

struct nfs3_conn {
	struct nfs_context *nfs;
	struct rpc_context *rpc;
	uint64_t rmax, wmax;		/* the server's largest READ, WRITE */
	int timeout_ms;
	bool lost;			/* the connection failed: every call fails */
	bool stale;			/* a reply said NFS3ERR_STALE, not yet taken */

	/* the call in flight, and what its callback fills in */
	enum nfs3_proc proc;
	bool done;
	int err;
	struct nfs3_handle *fh;		/* LOOKUP, CREATE: the object's */
	enum nfs3_kind kind;		/* LOOKUP, GETATTR */
	char *buf;			/* READ: into, or NULL to let it go */
	size_t count;			/* READ, WRITE: bytes moved */
	bool eof;			/* READ, READDIRPLUS */
	uint64_t cookie;		/* READDIRPLUS: where the next one starts */
	size_t entries;			/* READDIRPLUS: in the last reply */
	char verf[NFS3_COOKIEVERFSIZE];
	bool (*visit)(void *arg, const char *name, enum nfs3_kind kind);
	void *arg;
};

struct nfs3_conn *nfs3_conn_new(TALLOC_CTX *mem_ctx, struct nfs_context *nfs)
{
	struct nfs3_conn *c = talloc_zero(mem_ctx, struct nfs3_conn);

	if (!c)
		return NULL;
	c->nfs = nfs;
	c->rpc = nfs_get_rpc_context(nfs);
	c->rmax = nfs_get_readmax(nfs);
	c->wmax = nfs_get_writemax(nfs);
	if (c->rmax == 0)
		c->rmax = 32768;
	if (c->wmax == 0)
		c->wmax = 32768;
	c->timeout_ms = nfs_get_timeout(nfs);
	return c;
}

int nfs3_root(struct nfs3_conn *c, struct nfs3_handle *root)
{
	const struct nfs_fh *fh = nfs_get_rootfh(c->nfs);

	if (!fh || fh->len <= 0 || fh->len > NFS3_HANDLE_MAX)
		return EINVAL;
	root->len = (uint32_t)fh->len;
	memcpy(root->data, fh->val, root->len);
	return 0;
}

bool nfs3_take_stale(struct nfs3_conn *c)
{
	bool stale = c->stale;

	c->stale = false;
	return stale;
}

/* ---- one call ---- */

static enum nfs3_kind nfs3_kind_of(const struct fattr3 *a)
{
	switch (a->type) {
	case NF3REG:
		return NFS3_KIND_FILE;
	case NF3DIR:
		return NFS3_KIND_DIR;
	default:
		return NFS3_KIND_OTHER;
	}
}

static enum nfs3_kind nfs3_post_op_kind(const struct post_op_attr *a)
{
	return a->attributes_follow ? nfs3_kind_of(&a->post_op_attr_u.attributes)
				    : NFS3_KIND_UNKNOWN;
}

static void nfs3_keep_handle(struct nfs3_conn *c, const struct nfs_fh3 *fh)
{
	if (!c->fh)
		return;
	if (fh->data.data_len == 0 || fh->data.data_len > NFS3_HANDLE_MAX) {
		c->err = EIO;
		return;
	}
	c->fh->len = fh->data.data_len;
	memcpy(c->fh->data, fh->data.data_val, fh->data.data_len);
}

static void nfs3_entries(struct nfs3_conn *c, const struct READDIRPLUS3resok *ok)
{
	memcpy(c->verf, ok->cookieverf, sizeof(c->verf));
	c->eof = ok->reply.eof;
	c->entries = 0;
	/* libnfs 4.0 lays the entries out 4-byte aligned: each is copied
	 * out before it is read */
	for (const struct entryplus3 *p = ok->reply.entries; p; c->entries++) {
		struct entryplus3 e;
		memcpy(&e, p, sizeof(e));
		c->cookie = e.cookie;
		if (c->visit && !c->visit(c->arg, e.name, nfs3_post_op_kind(&e.name_attributes))) {
			c->visit = NULL;
			c->eof = true;
		}
		p = e.nextentry;
	}
}

/* Every reply starts with its nfsstat3; what follows depends on c->proc. */
static void nfs3_done(struct rpc_context *rpc, int status, void *data, void *private_data)
{
	struct nfs3_conn *c = private_data;

	(void)rpc;
	c->done = true;
	if (status != RPC_STATUS_SUCCESS) {
		c->err = status == RPC_STATUS_TIMEOUT ? ETIMEDOUT : EIO;
		c->lost = c->lost || status != RPC_STATUS_TIMEOUT;
		return;
	}
	nfsstat3 st = *(const nfsstat3 *)data;
	if (st != NFS3_OK) {
		int e = -nfsstat3_to_errno((int)st);
		c->err = e > 0 ? e : EIO;
		c->stale = c->stale || st == NFS3ERR_STALE;
		return;
	}
	c->err = 0;
	switch (c->proc) {
	case NFS3_PROC_STATUS:
		break;
	case NFS3_PROC_LOOKUP: {
		const struct LOOKUP3resok *ok = &((LOOKUP3res *)data)->LOOKUP3res_u.resok;
		nfs3_keep_handle(c, &ok->object);
		c->kind = nfs3_post_op_kind(&ok->obj_attributes);
		break;
	}
	case NFS3_PROC_CREATE: {
		const struct CREATE3resok *ok = &((CREATE3res *)data)->CREATE3res_u.resok;
		if (ok->obj.handle_follows)
			nfs3_keep_handle(c, &ok->obj.post_op_fh3_u.handle);
		else
			c->err = EIO;	/* a server may leave it out; ganesha does not */
		break;
	}
	case NFS3_PROC_GETATTR:
		c->kind = nfs3_kind_of(&((GETATTR3res *)data)->GETATTR3res_u.resok.obj_attributes);
		break;
	case NFS3_PROC_READ: {
		const struct READ3resok *ok = &((READ3res *)data)->READ3res_u.resok;
		size_t n = ok->data.data_len < c->count ? ok->data.data_len : c->count;
		if (c->buf)
			memcpy(c->buf, ok->data.data_val, n);
		c->count = n;
		c->eof = ok->eof;
		break;
	}
	case NFS3_PROC_WRITE:
		c->count = ((WRITE3res *)data)->WRITE3res_u.resok.count;
		break;
	case NFS3_PROC_READDIRPLUS:
		nfs3_entries(c, &((READDIRPLUS3res *)data)->READDIRPLUS3res_u.resok);
		break;
	}
}

static int64_t nfs3_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Start a call of kind `proc`: 0, or EIO on a lost connection. */
static int nfs3_begin(struct nfs3_conn *c, enum nfs3_proc proc)
{
	if (c->lost)
		return EIO;
	c->proc = proc;
	c->done = false;
	c->err = EIO;
	return 0;
}

/* Wait for the call just sent (`sent` is what the send returned). */
static int nfs3_wait(struct nfs3_conn *c, int sent)
{
	if (sent != 0) {
		c->lost = true;		/* libnfs queues unless the context is broken */
		return EIO;
	}
	int64_t deadline = c->timeout_ms > 0 ? nfs3_now_ms() + c->timeout_ms + 1000 : INT64_MAX;
	while (!c->done) {
		struct pollfd pfd = { .fd = rpc_get_fd(c->rpc), .events = (short)rpc_which_events(c->rpc) };
		int n = poll(&pfd, 1, NFS3_POLL_MS);
		if (n < 0 && errno != EINTR) {
			c->lost = true;
			return EIO;
		}
		if (rpc_service(c->rpc, n > 0 ? pfd.revents : 0) < 0 && !c->done) {
			c->lost = true;
			return EIO;
		}
		if (!c->done && nfs3_now_ms() > deadline) {
			c->lost = true;	/* its reply, should it come, finds a lost connection */
			return ETIMEDOUT;
		}
	}
	return c->err;
}

static struct nfs_fh3 nfs3_fh3(const struct nfs3_handle *h)
{
	return (struct nfs_fh3){ .data = { h->len, (char *)h->data } };
}

/* ---- names in a directory ---- */

int nfs3_lookup(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name,
		struct nfs3_handle *out, enum nfs3_kind *kind)
{
	struct LOOKUP3args a = { .what = { nfs3_fh3(dir), (char *)name } };

	if (nfs3_begin(c, NFS3_PROC_LOOKUP))
		return EIO;
	c->fh = out;
	c->kind = NFS3_KIND_UNKNOWN;
	int err = nfs3_wait(c, rpc_nfs3_lookup_async(c->rpc, nfs3_done, &a, c));
	if (kind)
		*kind = c->kind;
	return err;
}

int nfs3_create(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name,
		bool truncate, struct nfs3_handle *out)
{
	struct CREATE3args a = { .where = { nfs3_fh3(dir), (char *)name } };

	a.how.mode = UNCHECKED;
	a.how.createhow3_u.obj_attributes.mode.set_it = 1;
	a.how.createhow3_u.obj_attributes.mode.set_mode3_u.mode = 0644;
	if (truncate) {
		a.how.createhow3_u.obj_attributes.size.set_it = 1;
		a.how.createhow3_u.obj_attributes.size.set_size3_u.size = 0;
	}
	if (nfs3_begin(c, NFS3_PROC_CREATE))
		return EIO;
	c->fh = out;
	return nfs3_wait(c, rpc_nfs3_create_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_mkdir(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name)
{
	struct MKDIR3args a = { .where = { nfs3_fh3(dir), (char *)name } };

	a.attributes.mode.set_it = 1;
	a.attributes.mode.set_mode3_u.mode = 0755;
	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_mkdir_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_remove(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name)
{
	struct REMOVE3args a = { .object = { nfs3_fh3(dir), (char *)name } };

	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_remove_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_rmdir(struct nfs3_conn *c, const struct nfs3_handle *dir, const char *name)
{
	struct RMDIR3args a = { .object = { nfs3_fh3(dir), (char *)name } };

	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_rmdir_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_rename(struct nfs3_conn *c, const struct nfs3_handle *from_dir, const char *from,
		const struct nfs3_handle *to_dir, const char *to)
{
	struct RENAME3args a = { .from = { nfs3_fh3(from_dir), (char *)from },
				 .to = { nfs3_fh3(to_dir), (char *)to } };

	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_rename_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_readdir(struct nfs3_conn *c, const struct nfs3_handle *dir,
		 bool (*visit)(void *arg, const char *name, enum nfs3_kind kind), void *arg)
{
	struct READDIRPLUS3args a = { .dir = nfs3_fh3(dir), .dircount = NFS3_READDIR_DIRCOUNT,
				      .maxcount = NFS3_READDIR_MAXCOUNT };
	int err = 0;

	c->cookie = 0;
	memset(c->verf, 0, sizeof(c->verf));
	c->visit = visit;
	c->arg = arg;
	c->eof = false;
	while (err == 0 && !c->eof) {
		a.cookie = c->cookie;
		memcpy(a.cookieverf, c->verf, sizeof(a.cookieverf));
		if (nfs3_begin(c, NFS3_PROC_READDIRPLUS))
			return EIO;
		err = nfs3_wait(c, rpc_nfs3_readdirplus_async(c->rpc, nfs3_done, &a, c));
		if (err == 0 && !c->eof && c->entries == 0)
			err = EIO;	/* no progress: asking again would loop */
	}
	c->visit = NULL;
	return err;
}

/* ---- objects ---- */

int nfs3_getattr(struct nfs3_conn *c, const struct nfs3_handle *fh, enum nfs3_kind *kind)
{
	struct GETATTR3args a = { .object = nfs3_fh3(fh) };

	if (nfs3_begin(c, NFS3_PROC_GETATTR))
		return EIO;
	c->kind = NFS3_KIND_UNKNOWN;
	int err = nfs3_wait(c, rpc_nfs3_getattr_async(c->rpc, nfs3_done, &a, c));
	if (kind)
		*kind = c->kind;
	return err;
}

int nfs3_set_times(struct nfs3_conn *c, const struct nfs3_handle *fh, uint32_t atime,
		   uint32_t mtime)
{
	struct SETATTR3args a = { .object = nfs3_fh3(fh) };

	a.new_attributes.atime.set_it = SET_TO_CLIENT_TIME;
	a.new_attributes.atime.set_atime_u.atime.seconds = atime;
	a.new_attributes.mtime.set_it = SET_TO_CLIENT_TIME;
	a.new_attributes.mtime.set_mtime_u.mtime.seconds = mtime;
	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_setattr_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_fsstat(struct nfs3_conn *c, const struct nfs3_handle *fh)
{
	struct FSSTAT3args a = { .fsroot = nfs3_fh3(fh) };

	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_fsstat_async(c->rpc, nfs3_done, &a, c));
}

int nfs3_read(struct nfs3_conn *c, const struct nfs3_handle *fh, uint64_t off, size_t size,
	      char *buf, size_t *done)
{
	size_t got = 0;
	int err = 0;

	while (err == 0 && got < size) {
		size_t n = size - got < c->rmax ? size - got : (size_t)c->rmax;
		struct READ3args a = { .file = nfs3_fh3(fh), .offset = off + got, .count = (count3)n };
		if (nfs3_begin(c, NFS3_PROC_READ))
			return EIO;
		c->buf = buf ? buf + got : NULL;
		c->count = n;
		c->eof = false;
		err = nfs3_wait(c, rpc_nfs3_read_async(c->rpc, nfs3_done, &a, c));
		if (err == 0)
			got += c->count;
		if (err == 0 && (c->eof || c->count == 0))
			break;
	}
	*done = got;
	return err;
}

int nfs3_write(struct nfs3_conn *c, const struct nfs3_handle *fh, uint64_t off, size_t size,
	       const char *buf, size_t *done)
{
	size_t put = 0;
	int err = 0;

	while (err == 0 && put < size) {
		size_t n = size - put < c->wmax ? size - put : (size_t)c->wmax;
		struct WRITE3args a = { .file = nfs3_fh3(fh), .offset = off + put, .count = (count3)n,
					.stable = UNSTABLE, .data = { (u_int)n, (char *)buf + put } };
		if (nfs3_begin(c, NFS3_PROC_WRITE))
			return EIO;
		c->count = 0;
		err = nfs3_wait(c, rpc_nfs3_write_async(c->rpc, nfs3_done, &a, c));
		if (err == 0 && c->count == 0)
			err = EIO;	/* no progress: the server took nothing */
		if (err == 0)
			put += c->count;
	}
	*done = put;
	return err;
}

int nfs3_commit(struct nfs3_conn *c, const struct nfs3_handle *fh)
{
	struct COMMIT3args a = { .file = nfs3_fh3(fh) };

	if (nfs3_begin(c, NFS3_PROC_STATUS))
		return EIO;
	return nfs3_wait(c, rpc_nfs3_commit_async(c->rpc, nfs3_done, &a, c));
}
