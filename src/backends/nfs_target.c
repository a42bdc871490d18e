/*
 * nfs_target.c - the nfs backend's targets (nfs_internal.h): the exports
 * --nfs names, each probed by the parent before any client starts (its
 * mount, EXPORT/clients made: an unknown host, no such export or access
 * denied stops the run with exit 2), its room asked for a recording's
 * initial state, described for the JSON, and its clients directory
 * removed at the end when empty; and what of a loadfile the backend
 * cannot express (locks over NFSv3, the calls of a recording no NFS
 * request makes).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "backends/modules.h"
#include "backends/nfs_internal.h"
#include "secret.h"

const char **nfsb_targets(TALLOC_CTX *mem_ctx, const char **dirs, void *own, char **err)
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

struct backend_target *nfsb_target_open(TALLOC_CTX *mem_ctx, const char *spec,
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

int nfsb_target_close(struct backend_target *t)
{
	if (t->owner != getpid())
		return 0;
	int rc = nfs_rmdir(t->nfs, "/clients");
	return rc == 0 || rc == -ENOTEMPTY || rc == -EEXIST || rc == -ENOENT ? 0 : -rc;
}

/* backend.target_space: the export's room (FSSTAT), as the server gives
 * it to this user. */
int nfsb_target_space(struct backend_target *t, struct backend_space *sp)
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

size_t nfsb_target_describe(const struct backend_target *t, struct dockey_value *f)
{
	const struct dockey_value v[] = {
		{ DK_TARGET_URL, json_string(t->url) },
		{ DK_TARGET_SERVER, json_string(t->server) },
		{ DK_TARGET_EXPORT, json_string(t->export) },
		{ DK_TARGET_NFS_VERSION, json_integer(t->version) },
	};
	return backend_facts(f, v, sizeof(v) / sizeof(v[0]));
}

/* Locks need NFSv4: count what an NFSv3 target cannot do; and the
 * calls of a recording that no NFS request does. */
unsigned nfsb_check_program(const struct program *prog,
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
