/*
 * dialect.c - the list of loadfile dialects (dialect.h), in the order a
 * file and then each of its rows is offered to them: the system calls by
 * the file's first line; then a row to dbench 5.0's SMB dialect and its
 * block and SCSI dialects, whose names dbench 4.0 shares and which tell
 * their rows by shape, before dbench 4.0's and the NFS rows, found by
 * name.  A new dialect is a file of its own and a line here.
 */
#include "load/dialect.h"

static const struct dialect *const dialects[] = {
	&syscalls_dialect, &smb5_dialect, &block_dialect, &dbench4_dialect, &nfs_dialect,
};

#define NDIALECTS (sizeof(dialects) / sizeof(dialects[0]))

const struct dialect *dialect_of_file(const char *text, size_t len)
{
	for (size_t i = 0; i < NDIALECTS; i++)
		if (dialects[i]->detect_file && dialects[i]->detect_file(text, len))
			return dialects[i];
	return NULL;
}

const struct dialect *dialect_of_row(const struct token *name, const struct token *args,
				     int nargs, int *type)
{
	for (size_t i = 0; i < NDIALECTS; i++) {
		if (!dialects[i]->detect)
			continue;
		*type = dialects[i]->detect(name, args, nargs);
		if (*type >= 0)
			return dialects[i];
	}
	return NULL;
}
