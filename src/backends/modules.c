/*
 * modules.c - the backends built as loadable modules, whose libraries
 * (libsmbclient and the Samba stack, libnfs, libiscsi) a run maps only
 * when it uses them: smb, nfs and iscsi.
 *
 * This file owns what of them the binary itself holds (their names,
 * summaries and options: --help, the parse of a command line and dbench
 * ab need no module) and the loading of a module once a run selects its
 * backend (backend_load(), through modload.h, which says where modules
 * are found).  A module, NAME.so, defines NAME_module: the backend's
 * hooks, which it reads its options for from the variables of
 * modules.h.  It knows nothing of what a backend does.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "backends/modules.h"
#include "modload.h"

/* ---- the options, read by the modules ---- */

char *smb_opt_share;
char *smb_opt_user;
char *smb_opt_credentials;
char *smb_opt_protocol;
int smb_opt_timeout = SMB_DEFAULT_TIMEOUT;

static const struct poptOption smb_options[] = {
	{ "smb-share", 0, POPT_ARG_STRING, &smb_opt_share, 0,
	  "smb backend: the share (and directory in it) to load:"
	  " //HOST[:PORT]/SHARE[/PATH]", "SHARE" },
	{ "smb-user", 0, POPT_ARG_STRING, &smb_opt_user, 0,
	  "smb backend: who logs on, [DOMAIN/]USER[%PASSWORD] (default: $USER,"
	  " password from $PASSWD)",
	  "USER" },
	{ "smb-credentials", 0, POPT_ARG_STRING, &smb_opt_credentials, 0,
	  "smb backend: an smbclient-style authentication file (username, password, domain)",
	  "FILE" },
	{ "smb-protocol", 0, POPT_ARG_STRING, &smb_opt_protocol, 0,
	  "smb backend: the one dialect to speak, NT1 (SMB1), SMB2_02, SMB2_10, SMB3_00,"
	  " SMB3_02 or SMB3_11 (default: the highest of SMB2_02 to SMB3_11 both sides speak)",
	  "DIALECT" },
	{ "smb-timeout", 0, POPT_ARG_INT, &smb_opt_timeout, 0,
	  "smb backend: seconds the server may take to answer before the run fails (default 10)",
	  "SECS" },
	POPT_TABLEEND
};

char *nfs_urls;
int nfs_timeout = NFS_DEFAULT_TIMEOUT;

static const struct poptOption nfs_options[] = {
	{ "nfs", 0, POPT_ARG_STRING, &nfs_urls, 0,
	  "the exports --backend=nfs loads, comma-separated URLs"
	  " nfs://HOST/EXPORT[?version=3|4&...]",
	  "URL" },
	{ "nfs-timeout", 0, POPT_ARG_INT, &nfs_timeout, 0,
	  "nfs backend: seconds the server may take to answer a call before the run fails"
	  " (default 5)", "SECS" },
	POPT_TABLEEND
};

char *iscsi_url_opt;
char *iscsi_initiator_opt;
int iscsi_timeout = ISCSI_DEFAULT_TIMEOUT;

static const struct poptOption iscsi_options[] = {
	{ "iscsi", 0, POPT_ARG_STRING, &iscsi_url_opt, 0,
	  "the LUN --backend=iscsi loads: iscsi://[USER%PASSWORD@]HOST[:PORT]/IQN/LUN",
	  "URL" },
	{ "iscsi-initiatorname", 0, POPT_ARG_STRING, &iscsi_initiator_opt, 0,
	  "the clients' initiator name, each client's with -N after it (default "
	  ISCSI_DEFAULT_INITIATOR ")", "IQN" },
	{ "iscsi-timeout", 0, POPT_ARG_INT, &iscsi_timeout, 0,
	  "how long the target may take over a login or a command (default 5)", "SECS" },
	POPT_TABLEEND
};

/* ---- the binary's part of each ---- */

const struct backend smb_backend = {
	.name = "smb",
	.summary = "an SMB server's share (--smb-share), through libsmbclient",
	.no_local_writes = "writes to a server",
	.options = smb_options,
	.module = "smb",
};

const struct backend nfs_backend = {
	.name = "nfs",
	.summary = "NFS exports (--nfs=URL), through libnfs with no mount",
	.no_local_writes = "writes to a server",
	.options = nfs_options,
	.module = "nfs",
};

const struct backend iscsi_backend = {
	.name = "iscsi",
	.summary = "a LUN of an iSCSI target (--iscsi=URL), through libiscsi: 5.0's SCSI"
		   " loadfiles",
	.no_local_writes = "sends its commands to an iSCSI target",
	.options = iscsi_options,
	.module = "iscsi",
};

/* ---- loading ---- */

/* The loaded backends: the module's hooks under the binary's name,
 * summary and options.  A backend is loaded once per process. */
#define NMODULES 3	/* smb, nfs, iscsi */
static struct backend loaded[NMODULES];
static const struct backend *loaded_from[NMODULES];

const struct backend *backend_load(TALLOC_CTX *mem_ctx, const struct backend *b, char **err)
{
	size_t i = 0;

	if (!b->module)
		return b;
	for (; i < NMODULES && loaded_from[i]; i++)
		if (loaded_from[i] == b)
			return &loaded[i];
	char *sym = talloc_asprintf(mem_ctx, "%s_module", b->module);
	char *why = NULL;
	if (!sym || i == NMODULES) {
		*err = talloc_asprintf(mem_ctx, "the %s backend: out of memory", b->name);
		return NULL;
	}
	const struct backend *m = modload_symbol(mem_ctx, b->module, sym, sizeof(*m), &why);
	if (!m) {
		*err = talloc_asprintf(mem_ctx, "cannot load the %s backend: %s", b->name, why);
		return NULL;
	}
	loaded[i] = *m;
	loaded[i].name = b->name;
	loaded[i].summary = b->summary;
	loaded[i].no_local_writes = b->no_local_writes;
	loaded[i].options = b->options;
	loaded[i].module = NULL;
	loaded_from[i] = b;
	return &loaded[i];
}
