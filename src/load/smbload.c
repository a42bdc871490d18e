/*
 * smbload.c - dbench 5.0's SMB dialect: which rows are its, and their
 * status column (see smbload.h).  Knows the dialect's names and shapes;
 * nothing of how a row is compiled or performed.
 */
#include <string.h>
#include <strings.h>

#include "ops.h"
#include "load/smbload.h"

static bool token_is(const struct token *t, const char *want)
{
	return !t->quoted && t->len == strlen(want) && strncmp(t->s, want, t->len) == 0;
}

/* Whether a path token is \clients (or /clients) or beneath it. */
static bool under_clients(const struct token *t)
{
	const char *p = t->s, *end = t->s + t->len;

	while (p < end && (*p == '\\' || *p == '/'))
		p++;
	if (p == t->s || end - p < 7 || strncasecmp(p, "clients", 7) != 0)
		return false;
	return end - p == 7 || p[7] == '\\' || p[7] == '/';
}

int smbload_row(const struct token *name, const struct token *args, int nargs)
{
	int type = name->quoted ? -1 : op_lookup_smb(name->s, name->len);

	if (type < 0 || nargs < 1 || !args[0].quoted)
		return -1;
	const struct token *status = &args[nargs - 1];
	if (token_is(status, "SUCCESS") || token_is(status, "ERROR"))
		return type;
	switch (type) {
	case OP_SMB_OPEN:
	case OP_SMB_READ:
	case OP_SMB_WRITE:
	case OP_SMB_READDIR:
	case OP_SMB_CLOSE:
		return type;
	default:
		break;
	}
	return token_is(status, "*") && !under_clients(&args[0]) ? type : -1;
}

enum smbload_status smbload_status(const struct token *t)
{
	if (token_is(t, "SUCCESS"))
		return SMBLOAD_SUCCESS;
	if (token_is(t, "ERROR"))
		return SMBLOAD_ERROR;
	if (token_is(t, "*"))
		return SMBLOAD_ANY;
	return SMBLOAD_BAD;
}

bool smbload_client_component(const char *s, size_t len)
{
	return len == 7 && strncasecmp(s, "client1", 7) == 0;
}
