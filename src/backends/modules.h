/*
 * modules.h - the options of the backends built as loadable modules (smb,
 * nfs, iscsi), which the binary itself holds so that --help and the
 * parse of a command line need no module: modules.c defines them with
 * the popt tables that fill them, and each module reads its own.
 */
#ifndef DBENCH_BACKENDS_MODULES_H
#define DBENCH_BACKENDS_MODULES_H

#define SMB_DEFAULT_TIMEOUT 10		/* seconds an operation may wait for the server */
#define NFS_DEFAULT_TIMEOUT 5		/* seconds one RPC may wait, then it fails */
#define ISCSI_DEFAULT_INITIATOR "iqn.2011-09.org.samba.dbench:client"
#define ISCSI_DEFAULT_TIMEOUT 5		/* seconds for a login or a command */

extern char *smb_opt_share;		/* --smb-share */
extern char *smb_opt_user;		/* --smb-user */
extern char *smb_opt_credentials;	/* --smb-credentials */
extern char *smb_opt_protocol;		/* --smb-protocol */
extern int smb_opt_timeout;		/* --smb-timeout */

extern char *nfs_urls;			/* --nfs */
extern int nfs_timeout;			/* --nfs-timeout */

extern char *iscsi_url_opt;		/* --iscsi */
extern char *iscsi_initiator_opt;	/* --iscsi-initiatorname */
extern int iscsi_timeout;		/* --iscsi-timeout */

#endif
