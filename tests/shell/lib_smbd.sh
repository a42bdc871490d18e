# tests/shell/lib_smbd.sh - a private Samba server for the smb backend's
# tests (sourced after lib.sh).
#
# smbd_start writes an smb.conf of its own under $T/smbd (private, lock,
# state, cache, pid and ncalrpc directories there too; a passdb there; one
# share "dbench" on $T/smbd/share), listens on 127.0.0.1 only, on a free
# port picked now, and runs smbd in a session of its own (setsid: on
# SIGTERM smbd signals its whole process group, which must not be ours).
# The machine's own Samba configuration is never read or changed (-l sends
# even the log that smbd opens before reading its configuration there).  The
# client side (libsmbclient in dbench, smbclient) reads $HOME/.smb/smb.conf
# before the machine's: HOME is pointed at a private one, so neither reads
# /etc/samba/smb.conf either.
#
# After smbd_start: SMB_PORT, SMBD_PID, SMB_SHARE_DIR (the share's own
# directory), SMB_USER, SMB_PASS, SMB_URL (//127.0.0.1:PORT/dbench); and a
# second share with case-sensitive names, SMB_CS_URL on SMB_CS_SHARE_DIR,
# where making a file does not make smbd scan its directory for another
# case of the name (3000 files take seconds to make there, not minutes).
# smbd_stop ends it by its pid (its process group, which is its own); the
# EXIT trap does it too, so a failing test leaves no server running.
# SMBD_GLOBAL, set before smbd_start, holds more [global] lines (a bench
# allows NT1 with "server min protocol = NT1", say).
# smbd runs as root and serves the share as root: SMB_USER is root, added
# to the private passdb only.  Where that cannot be (not root, no smbd),
# smbd_start returns 1 with the reason in $SMBD_WHY.

SMB_USER=root
SMB_PASS=dbench-test-$$
SMBD_PID=

smbd_stop() {
	[ -n "$SMBD_PID" ] || return 0
	kill -TERM "-$SMBD_PID" 2>/dev/null
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$SMBD_PID" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "-$SMBD_PID" 2>/dev/null
	SMBD_PID=
}

trap 'smbd_stop; cleanup_scratch' EXIT

smbd_write_conf() {
	_d=$T/smbd
	cat >"$_d/smb.conf" <<EOF
[global]
	server role = standalone server
	smb ports = $SMB_PORT
	interfaces = 127.0.0.1
	bind interfaces only = yes
	disable netbios = yes
	private dir = $_d/private
	lock directory = $_d/lock
	state directory = $_d/state
	cache directory = $_d/cache
	pid directory = $_d/pid
	ncalrpc dir = $_d/ncalrpc
	binddns dir = $_d/binddns
	usershare path = $_d/usershares
	passdb backend = tdbsam:$_d/private/passdb.tdb
	log file = $_d/log/smbd.log
	log level = 1
	max log size = 0
	map to guest = never
	load printers = no
	printcap name = /dev/null
	disable spoolss = yes
${SMBD_GLOBAL:-}
[dbench]
	path = $_d/share
	read only = no
[dbenchcs]
	path = $_d/share-cs
	read only = no
	case sensitive = yes
EOF
	# The client's side: nothing from the machine, no broadcast lookups.
	cat >"$HOME/.smb/smb.conf" <<EOF
[global]
	name resolve order = host
	disable netbios = yes
	private dir = $_d/client
	lock directory = $_d/client
	state directory = $_d/client
	cache directory = $_d/client
EOF
}

smbd_start() {
	SMBD_WHY=
	if [ "$(id -u)" -ne 0 ]; then
		SMBD_WHY="smbd serves files as root here: run the tests as root"
		return 1
	fi
	for _t in smbd smbpasswd ss setsid; do
		if ! command -v "$_t" >/dev/null 2>&1; then
			SMBD_WHY="$_t is not installed (apt-get install samba smbclient iproute2)"
			return 1
		fi
	done
	_d=$T/smbd
	mkdir -p "$_d/private" "$_d/lock" "$_d/state" "$_d/cache" "$_d/pid" "$_d/ncalrpc" \
		"$_d/binddns" "$_d/usershares" "$_d/log" "$_d/share" "$_d/share-cs" "$_d/client" \
		"$T/home/.smb"
	chmod 700 "$_d/private"
	HOME=$T/home
	export HOME
	for _try in 1 2 3; do
		SMB_PORT=$(free_port)
		smbd_write_conf
		printf '%s\n%s\n' "$SMB_PASS" "$SMB_PASS" |
			smbpasswd -c "$_d/smb.conf" -a -s "$SMB_USER" >"$_d/log/smbpasswd" 2>&1 || {
			SMBD_WHY="smbpasswd failed: $(tail -n 1 "$_d/log/smbpasswd")"
			return 1
		}
		setsid smbd -F --no-process-group -s "$_d/smb.conf" -l "$_d/log" </dev/null \
			>"$_d/log/stdout" 2>&1 &
		SMBD_PID=$!
		for _i in $(seq 50); do
			port_listening "$SMB_PORT" && break
			kill -0 "$SMBD_PID" 2>/dev/null || break
			sleep 0.1
		done
		if port_listening "$SMB_PORT" && kill -0 "$SMBD_PID" 2>/dev/null; then
			SMB_SHARE_DIR=$_d/share
			SMB_URL=//127.0.0.1:$SMB_PORT/dbench
			SMB_CS_SHARE_DIR=$_d/share-cs
			SMB_CS_URL=//127.0.0.1:$SMB_PORT/dbenchcs
			return 0
		fi
		smbd_stop	# the port was taken meanwhile, or smbd failed: again
	done
	SMBD_WHY="smbd did not listen on 127.0.0.1: $(tail -n 3 "$_d/log/smbd.log" "$_d/log/stdout" 2>/dev/null | tr '\n' ' ')"
	return 1
}

# smb_client CMD: smbclient against the private server, for checks.
smb_client() {
	smbclient -s "$HOME/.smb/smb.conf" -p "$SMB_PORT" "//127.0.0.1/dbench" -U "$SMB_USER%$SMB_PASS" -c "$1" 2>&1
}
