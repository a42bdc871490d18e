/*
 * nfs.c - the "nfs" backend: replays a program against an NFS server
 * through libnfs, in user space, with no kernel mount, so that what is
 * measured is the server and the network alone.  Built with the nfs_*.c
 * beside it and nfs3.c as the module nfs.so (modules.c holds its
 * options, --nfs and --nfs-timeout, and loads it when a run selects it).
 *
 * This file is the backend's face: its hooks, and a client's life (its
 * own mount after the fork, its passes, its cleanup).  The rest is a
 * file a job (nfs_internal.h lists them, lowest first): the mounts
 * (nfs_mount.c), NFSv4's paths (nfs_path4.c), the handles kept between
 * operations (nfs_handles.c), operations on names (nfs_names.c), the
 * dialects it performs, dbench 4's (nfs_dbench4.c), the NFS dialect
 * (nfs_dialect.c) and a recording's calls (nfs_sys.c, through netsys.c),
 * and the exports probed by the parent (nfs_target.c).
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
 * Over NFSv3 (the default) a client sends one RPC per operation, as a
 * kernel client with a warm dentry cache does: nfs3.c's calls on handles,
 * with the handles of the directories the loadfile names kept in a small
 * cache, and the handles of open files kept with their trace handles
 * (nfs_handles.c).  A lookup never follows a symbolic link.  A reply
 * saying a handle is stale (its object removed behind the client's back)
 * fails that operation, and every handle kept for a name is forgotten,
 * so that the next operation looks its names up again.  ACCESS3,
 * READLINK3, SYMLINK3 and LINK3, rare, go through libnfs' path calls (its
 * directory cache off, since the handle calls change directories behind
 * its back).
 *
 * Over NFSv4 every operation goes through libnfs' path calls, which
 * resolve the path each time; locks need NFSv4 (libnfs has no NLM client
 * in its sync calls): over NFSv3 they are not supported, and said so.
 *
 * Owns: the libnfs contexts, handles and buffers.  Knows nothing of the
 * driver, the stats region or the reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/nfs_internal.h"

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

static int nfsb_pass_begin(struct backend_client *bc)
{
	return bc->sys ? nfsb_sys_start(bc) : 0;
}

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
		[OP_SYMLINK3] = nfsb3_symlink, [OP_REMOVE3] = nfsb_unlink,
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
