# tests/shell/lib_smbd.sh - a private Samba server for the smb backend's
# tests (sourced after lib.sh), started by tools/dbench-servers.
#
# smbd_start runs `dbench-servers start smb --dir=$T/smbd`: an smb.conf of
# its own there (private, lock, state, cache, pid and ncalrpc directories
# there too; a passdb there; a share "dbench" on $T/smbd/share), smbd on
# 127.0.0.1 only, on a free port, in a session of its own.  The machine's
# own Samba configuration is never read or changed.  The client side
# (libsmbclient in dbench, smbclient) reads $HOME/.smb/smb.conf before the
# machine's: HOME is pointed at the private one the script wrote, so
# neither reads /etc/samba/smb.conf either.
#
# After smbd_start: SMB_PORT, SMBD_PID, SMB_SHARE_DIR (the share's own
# directory), SMB_USER, SMB_PASS, SMB_URL (//127.0.0.1:PORT/dbench); and a
# second share with case-sensitive names, SMB_CS_URL on SMB_CS_SHARE_DIR,
# where making a file does not make smbd scan its directory for another
# case of the name (3000 files take seconds to make there, not minutes).
# smbd_stop ends it by its pid (`dbench-servers stop`); the EXIT trap does
# it too, so a failing test leaves no server running.  SMBD_GLOBAL, set
# before smbd_start, holds more [global] lines (a bench allows NT1 with
# "server min protocol = NT1", say), one a line.  smbd runs as root and
# serves the share as root: SMB_USER is root, added to the private passdb
# only.  Where that cannot be (not root, no smbd), smbd_start returns 1
# with the reason in $SMBD_WHY.

SMB_USER=root
SMB_PASS=
SMBD_PID=
SMBD_DIR=$T/smbd

smbd_stop() {
	[ -f "$SMBD_DIR/server.env" ] || return 0
	"$SERVERS" stop "$SMBD_DIR"
	SMBD_PID=
}

trap 'smbd_stop; cleanup_scratch' EXIT

smbd_start() {
	SMBD_WHY=
	# each line of SMBD_GLOBAL an option of its own
	set --
	while IFS= read -r _l; do
		_l=$(printf '%s' "$_l" | sed 's/^[[:space:]]*//')
		[ -z "$_l" ] || set -- "$@" "--smb-global=$_l"
	done <<EOF
${SMBD_GLOBAL:-}
EOF
	if ! _out=$("$SERVERS" start smb --dir="$SMBD_DIR" "$@" 2>&1); then
		SMBD_WHY=$(printf '%s' "$_out" | tr '\n' ' ')
		return 1
	fi
	SMBD_PID=$(server_var "$SMBD_DIR" PID)
	SMB_PORT=$(server_var "$SMBD_DIR" PORT)
	SMB_URL=$(server_var "$SMBD_DIR" URL)
	SMB_CS_URL=$(server_var "$SMBD_DIR" CS_URL)
	SMB_SHARE_DIR=$(server_var "$SMBD_DIR" SHARE_DIR)
	SMB_CS_SHARE_DIR=$(server_var "$SMBD_DIR" CS_SHARE_DIR)
	SMB_PASS=$(sed -n 's/^password = //p' "$(server_var "$SMBD_DIR" CREDENTIALS)")
	HOME=$(server_var "$SMBD_DIR" HOME_DIR)
	export HOME
}

# smb_client CMD: smbclient against the private server, for checks.
smb_client() {
	smbclient -s "$HOME/.smb/smb.conf" -p "$SMB_PORT" "//127.0.0.1/dbench" -U "$SMB_USER%$SMB_PASS" -c "$1" 2>&1
}
