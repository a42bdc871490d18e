/*
 * smb_args.h - what a user tells the smb backend on the command line: the
 * share (--smb-share=//HOST[:PORT]/SHARE[/PATH]) and the credentials
 * (--smb-user=[DOMAIN/]USER[%PASSWORD], an smbclient-style authentication
 * file given with --smb-credentials=FILE, or the USER and PASSWD
 * environment variables, as smbclient takes them).
 *
 * This module only parses and checks text; it knows nothing of
 * libsmbclient, of the run or of how the password is sent.  A password
 * lives in one talloc string whose destructor wipes it (main has masked
 * it in the process's argument area already, secret.h, so that `ps`
 * shows no password while a run goes on).  Errors are talloc strings
 * on mem_ctx naming the input ("--smb-share '...': ..."), never holding a
 * password.
 */
#ifndef DBENCH_SMB_ARGS_H
#define DBENCH_SMB_ARGS_H

#include <stdbool.h>
#include <talloc.h>

#define SMB_DEFAULT_PORT 445
#define SMB_ARGS_LINE_MAX 4096	/* bytes of a credentials file's line */
#define SMB_ARGS_PIPE_WAIT_S 10	/* for a credentials pipe's first bytes */

/* Where on the server the run's files go: SHARE/PATH/clients. */
struct smb_share {
	char *host;		/* name or IPv4 address; an IPv6 one without its [] */
	unsigned port;		/* SMB_DEFAULT_PORT unless given */
	bool port_given;	/* the spec named a port */
	char *share;		/* the share's name */
	char *path;		/* '/'-separated directory in the share, "" for its root */
	char *spec;		/* as the user wrote it, for messages */
};

/* Who logs on.  Any field may be NULL where nothing gave it. */
struct smb_creds {
	char *domain;
	char *user;
	char *password;		/* wiped when freed */
};

/*
 * Parse "//HOST[:PORT]/SHARE[/PATH]" ("smb://" may stand for "//").  PATH
 * may not hold "." or ".." components or empty ones (a trailing '/' is
 * allowed).  Returns the share on mem_ctx, or NULL with *err.
 */
struct smb_share *smb_args_share(TALLOC_CTX *mem_ctx, const char *spec, char **err);

/*
 * Fill in what `creds` lacks, in smbclient's order of precedence: first
 * --smb-user (`user`, may be NULL), then the authentication file (`file`,
 * may be NULL), then $USER (which may itself be USER%PASSWORD) and
 * $PASSWD.  A user but no password anywhere is an error (nothing is
 * prompted for); "USER%" gives an empty password on purpose.  Returns
 * false with *err on mem_ctx.
 */
bool smb_args_creds(TALLOC_CTX *mem_ctx, const char *user, const char *file,
		    struct smb_creds *creds, char **err);

/* Parse "[DOMAIN/]USER[%PASSWORD]" (DOMAIN\USER too) into what `creds`
 * does not hold yet.  False with *err when USER is empty. */
bool smb_args_user(TALLOC_CTX *mem_ctx, const char *arg, const char *what,
		   struct smb_creds *creds, char **err);

/*
 * Read an authentication file: "username = [DOMAIN/]USER", "password =
 * PASSWORD", "domain = DOMAIN" lines (keys in any case, blanks around '='
 * ignored, the value taken to the end of the line); blank lines and lines
 * starting with '#' or ';' are skipped, "realm" is accepted and unused.
 * Anything else is an error naming FILE:LINE.
 */
bool smb_args_credentials_file(TALLOC_CTX *mem_ctx, const char *path,
			       struct smb_creds *creds, char **err);

/*
 * Blank, where the environment holds them, the password of $PASSWD and
 * the one a $USER of the form USER%PASSWORD carries: what
 * /proc/PID/environ shows of this process and of every process it forks
 * afterwards (and what a program they start would inherit).  For once
 * the credentials are taken (smb_args_creds()); getenv() then finds them
 * empty.
 */
void smb_args_forget_env(void);

#endif
