/*
 * backend.c - what the backends share: the open(2) flags of an NTCreateX
 * disposition and the naming of client directories.  It knows no backend
 * by name: the list of them is registry.c's.
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

void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id)
{
	if (opts->ranked)
		snprintf(buf, len, "rank%u-client%u", opts->rank, id);
	else
		snprintf(buf, len, "client%u", id);
}
