/*
 * nfs_mount.c - the nfs backend's mounts (nfs_internal.h): a libnfs
 * context mounted on an export's URL, with the cause of a failure kept,
 * the ports a URL asks for checked before libnfs sees them, and whether
 * a path of a mounted export is a directory.  Knows nothing of clients,
 * handles or operations.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "backends/nfs_internal.h"

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
struct nfs_context *nfsb_connect(TALLOC_CTX *mem_ctx, const char *url, int timeout,
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
char *nfsb_port_problem(TALLOC_CTX *mem_ctx, const char *url)
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

int nfsb_is_dir(struct nfs_context *nfs, const char *path)
{
	struct nfs_stat_64 st;
	int rc = nfs_stat64(nfs, path, &st);

	if (rc < 0)
		return -rc;
	return (st.nfs_mode & S_IFMT) == S_IFDIR ? 0 : ENOTDIR;
}
