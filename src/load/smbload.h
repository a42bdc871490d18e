/*
 * smbload.h - dbench 5.0's SMB dialect (its loadfiles smb.load,
 * smb_1.load ...), private to src/load/: which rows are of it, what their
 * status column says.  loadfile.c compiles the rows with the other
 * dialects' machinery (paths, offset expressions, REPEAT, RANDOMSTRING)
 * and asks this module what is the dialect's own.
 *
 * A row of it is NAME "PATH" [ARG ...] STATUS, NAME one of OPEN, CLOSE,
 * READ, WRITE, MKDIR, RMDIR, UNLINK, READDIR, Deltree (any case), STATUS
 * SUCCESS, ERROR or "*".  Some names are dbench 4's too (Close, Mkdir,
 * Rmdir, Unlink, Deltree): a row is taken for this dialect by its shape
 * (see smbload_row()), never by its name alone, so every dbench 4 row
 * still compiles as it did.
 */
#ifndef DBENCH_LOAD_SMBLOAD_H
#define DBENCH_LOAD_SMBLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "load/token.h"

/*
 * The operation type (OP_SMB_*) of the row whose name is `name` and whose
 * fields after it are args[0 .. nargs), or -1 when the row is not of this
 * dialect.  It is when its first field is a quoted path and one of:
 * the last field is SUCCESS or ERROR; the name is none of dbench 4's
 * (OPEN, READ, WRITE, READDIR), or CLOSE (dbench 4's takes a handle
 * number); the status is "*" and the path is not \clients or beneath it
 * (where a dbench 4 row must name its files).  So READ or WRITE with an
 * offset first (dbench 5.0's block dialect) is not of it.
 */
int smbload_row(const struct token *name, const struct token *args, int nargs);

enum smbload_status {
	SMBLOAD_SUCCESS,	/* the operation must succeed */
	SMBLOAD_ERROR,		/* it must fail, however */
	SMBLOAD_ANY,		/* "*": either */
	SMBLOAD_BAD,		/* not a status of this dialect */
};

enum smbload_status smbload_status(const struct token *t);

/* Whether the row's path names the client's own directory by dbench
 * 5.0's name for it: its first component is "client1" (5.0 puts that
 * name for each client's own, client<N>, beneath the share). */
bool smbload_client_component(const char *s, size_t len);

#endif
