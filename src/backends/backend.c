/*
 * backend.c - the list of backends, found by name for --backend, and the
 * naming of client directories, which every backend shares.
 */
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"

static const struct backend *const backends[] = { &fileio_backend, &null_backend };

const struct backend *backend_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	}
	return NULL;
}

void backend_client_name(char *buf, size_t len, const struct backend_options *opts,
			 unsigned id)
{
	if (opts->ranked)
		snprintf(buf, len, "rank%u-client%u", opts->rank, id);
	else
		snprintf(buf, len, "client%u", id);
}
