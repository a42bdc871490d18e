/*
 * backend.c - what the backends share: the open(2) flags of an NTCreateX
 * disposition, the naming of client directories and the one target a
 * backend takes from an option of its own.  It knows no backend by name:
 * the list of them is registry.c's.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"

int backend_open_flags(int64_t disposition)
{
	switch (disposition) {
	case NT_OPEN:
		return 0;
	case NT_CREATE:
	case NT_OPEN_IF:
		return O_CREAT;
	case NT_SUPERSEDE:
	case NT_OVERWRITE:
	case NT_OVERWRITE_IF:
		return O_CREAT | O_TRUNC;
	default:
		return -1;
	}
}

int backend_smb5_open_flags(int64_t flags)
{
	int f = O_RDONLY;

	if ((flags & SMB5_O_RDWR) ||
	    (flags & (SMB5_O_RDONLY | SMB5_O_WRONLY)) == (SMB5_O_RDONLY | SMB5_O_WRONLY))
		f = O_RDWR;
	else if (flags & SMB5_O_WRONLY)
		f = O_WRONLY;
	if (flags & SMB5_O_CREAT)
		f |= O_CREAT;
	if (flags & SMB5_O_EXCL)
		f |= O_EXCL;
	if (flags & SMB5_O_TRUNC)
		f |= O_TRUNC;
	if (flags & SMB5_O_APPEND)
		f |= O_APPEND;
	return f;
}

const struct op *backend_op_at_offset(struct op *out, const struct program *prog,
				      const struct op *op, struct offset_state *st)
{
	*out = *op;
	out->a[0] = (int64_t)loadfile_offset(prog, op, st);
	out->expr = 0;
	return out;
}

const char *backend_detail_taken(bool *has, const char *text)
{
	bool had = *has;

	*has = false;
	return had ? text : NULL;
}

struct offset_state backend_offset_state(unsigned id, const struct backend_options *opts)
{
	return (struct offset_state){ .rng = 0x9e3779b97f4a7c15ull * id | 1, .client = id - 1,
				      .nclients = opts->nclients };
}

void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id)
{
	if (opts->ranked)
		snprintf(buf, len, "rank%u-client%u", opts->rank, id);
	else
		snprintf(buf, len, "client%u", id);
}

uint64_t backend_fs_id(const char *server, const char *share)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a over both, a 0 between */

	for (const char *s = server ? server : ""; ; s++) {
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
		if (!*s)
			break;
	}
	for (const char *s = share ? share : ""; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h | (1ull << 63);	/* never a local st_dev */
}

const char **backend_one_target(TALLOC_CTX *mem_ctx, const char *backend, const char **dirs,
				const char *option, const char *value, const char *hint,
				char **err)
{
	const char **list = NULL;

	if (dirs)
		*err = talloc_asprintf(mem_ctx, "--backend=%s takes its target from --%s, not -D",
				       backend, option);
	else if (!value || !*value)
		*err = talloc_asprintf(mem_ctx, "--backend=%s needs --%s=%s", backend, option, hint);
	else if (!(list = talloc_zero_array(mem_ctx, const char *, 2)))
		*err = talloc_strdup(mem_ctx, "out of memory");
	else
		list[0] = value;
	return list;
}
