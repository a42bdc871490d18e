/*
 * modules.h - the options of the backends built as loadable modules (smb,
 * nfs, iscsi): the struct of each, which modules.c's tables describe
 * (backend.h, struct backend_opt) so that --help and the parse of a
 * command line need no module, and which the module's hooks read from
 * backend_options.own.
 */
#ifndef DBENCH_BACKENDS_MODULES_H
#define DBENCH_BACKENDS_MODULES_H

#define SMB_DEFAULT_TIMEOUT 10		/* seconds an operation may wait for the server */
#define NFS_DEFAULT_TIMEOUT 5		/* seconds one RPC may wait, then it fails */
#define ISCSI_DEFAULT_INITIATOR "iqn.2011-09.org.samba.dbench:client"
#define ISCSI_DEFAULT_TIMEOUT 5		/* seconds for a login or a command */

struct smb_creds;

struct smb_options {
	char *share;			/* --smb-share */
	char *user;			/* --smb-user */
	char *credentials;		/* --smb-credentials */
	char *protocol;			/* --smb-protocol */
	int timeout;			/* --smb-timeout, seconds */
	/* what the module's targets() makes of them, once, before any run */
	struct smb_creds *creds;	/* who logs on */
	const char *pinned;		/* the one dialect to speak, or NULL */
};

struct nfs_options {
	char *urls;			/* --nfs, comma-separated */
	int timeout;			/* --nfs-timeout, seconds */
};

struct iscsi_options {
	char *url;			/* --iscsi */
	char *initiator;		/* --iscsi-initiatorname */
	int timeout;			/* --iscsi-timeout, seconds */
};

#endif
