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
 * hooks, which read its options from the struct modules.h declares
 * (backend_options.own).  It knows nothing of what a backend does.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "backends/modules.h"
#include "modload.h"

/* ---- the options, whose structs the modules read ---- */

#define SMB_OPT(f) .offset = offsetof(struct smb_options, f)

static const struct backend_opt smb_options[] = {
	{ .name = "smb-share", .type = BACKEND_OPT_STRING, SMB_OPT(share), .arg = "SHARE",
	  .help = "smb backend: the share (and directory in it) to load:"
		  " //HOST[:PORT]/SHARE[/PATH]" },
	{ .name = "smb-user", .type = BACKEND_OPT_STRING, SMB_OPT(user), .arg = "USER",
	  .help = "smb backend: who logs on, [DOMAIN/]USER[%PASSWORD] (default: $USER,"
		  " password from $PASSWD)" },
	{ .name = "smb-credentials", .type = BACKEND_OPT_STRING, SMB_OPT(credentials),
	  .arg = "FILE", .help = "smb backend: an smbclient-style authentication file (username,"
				 " password, domain)" },
	{ .name = "smb-protocol", .type = BACKEND_OPT_STRING, SMB_OPT(protocol), .arg = "DIALECT",
	  .help = "smb backend: the one dialect to speak, NT1 (SMB1), SMB2_02, SMB2_10, SMB3_00,"
		  " SMB3_02 or SMB3_11 (default: the highest of SMB2_02 to SMB3_11 both sides"
		  " speak)" },
	{ .name = "smb-timeout", .type = BACKEND_OPT_INT, SMB_OPT(timeout),
	  .def = SMB_DEFAULT_TIMEOUT, .min = 1, .max = 3600, .unit = "seconds", .arg = "SECS",
	  .help = "smb backend: seconds the server may take to answer before the run fails"
		  " (default 10)" },
	{ .name = NULL }
};

static const struct backend_opt nfs_options[] = {
	{ .name = "nfs", .type = BACKEND_OPT_STRING, .offset = offsetof(struct nfs_options, urls),
	  .arg = "URL", .help = "the exports --backend=nfs loads, comma-separated URLs"
				" nfs://HOST/EXPORT[?version=3|4&...]" },
	{ .name = "nfs-timeout", .type = BACKEND_OPT_INT,
	  .offset = offsetof(struct nfs_options, timeout), .def = NFS_DEFAULT_TIMEOUT, .min = 1,
	  .max = 3600, .unit = "seconds", .arg = "SECS",
	  .help = "nfs backend: seconds the server may take to answer a call before the run fails"
		  " (default 5)" },
	{ .name = NULL }
};

#define ISCSI_OPT(f) .offset = offsetof(struct iscsi_options, f)

static const struct backend_opt iscsi_options[] = {
	{ .name = "iscsi", .type = BACKEND_OPT_STRING, ISCSI_OPT(url), .arg = "URL",
	  .help = "the LUN --backend=iscsi loads: iscsi://[USER%PASSWORD@]HOST[:PORT]/IQN/LUN" },
	{ .name = "iscsi-initiatorname", .type = BACKEND_OPT_STRING, ISCSI_OPT(initiator),
	  .arg = "IQN", .help = "the clients' initiator name, each client's with -N after it"
				" (default " ISCSI_DEFAULT_INITIATOR ")" },
	{ .name = "iscsi-timeout", .type = BACKEND_OPT_INT, ISCSI_OPT(timeout),
	  .def = ISCSI_DEFAULT_TIMEOUT, .min = 1, .max = 3600, .unit = "seconds", .arg = "SECS",
	  .help = "how long the target may take over a login or a command (default 5)" },
	{ .name = NULL }
};

/* ---- the binary's part of each ---- */

const struct backend smb_backend = {
	.name = "smb",
	.summary = "an SMB server's share (--smb-share), through libsmbclient",
	.no_local_writes = "writes to a server",
	.options = smb_options,
	.options_size = sizeof(struct smb_options),
	.module = "smb",
};

const struct backend nfs_backend = {
	.name = "nfs",
	.summary = "NFS exports (--nfs=URL), through libnfs with no mount",
	.no_local_writes = "writes to a server",
	.options = nfs_options,
	.options_size = sizeof(struct nfs_options),
	.module = "nfs",
};

const struct backend iscsi_backend = {
	.name = "iscsi",
	.summary = "a LUN of an iSCSI target (--iscsi=URL), through libiscsi: 5.0's SCSI"
		   " loadfiles",
	.no_local_writes = "sends its commands to an iSCSI target",
	.options = iscsi_options,
	.options_size = sizeof(struct iscsi_options),
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
	loaded[i].options_size = b->options_size;
	loaded[i].is_default = b->is_default;
	loaded[i].is_tbench = b->is_tbench;
	loaded[i].performs_nothing = b->performs_nothing;
	loaded[i].module = NULL;
	loaded_from[i] = b;
	return &loaded[i];
}
