# tests/shell/lib_ganesha.sh - a private NFS server (nfs-ganesha 4.3, FSAL
# VFS) for the nfs backend's tests (sourced after lib.sh).
#
# ganesha.nfsd cannot start without registering with a portmapper, and
# rpcbind is one service per network on port 111.  So the test runs in a
# network and mount namespace of its own (unshare -n -m, as root): only a
# loopback device, a private tmpfs on /run for rpcbind's socket and lock,
# and its own rpcbind and ganesha on the standard ports, which nothing
# else can see or collide with.  Nothing but loopback carries traffic;
# ganesha listens on every address of a namespace that has only 127.0.0.1
# (its Bind_addr needs a non-loopback address to resolve).
#
# ganesha_reexec "$@" (first thing in the test) re-runs the test inside
# such a namespace, or sets GANESHA_WHY and returns 1 where it cannot be
# (not root, no unshare, no ganesha).  ganesha_start writes ganesha.conf
# under $T/ganesha (NFSv3 and v4, one export of $T/ganesha/export, no root
# squash, no grace period, its own recovery directory, no dbus) and starts
# rpcbind -w and ganesha.nfsd -F in sessions of their own; NFS_EXPORT_DIR
# and NFS_URL (nfs://127.0.0.1/EXPORT) are set.  ganesha_stop ends both by
# their pids; the EXIT trap does it too.  ganesha_restart starts ganesha
# afresh on the same configuration and export, rpcbind staying up.
#
# Why restart: ganesha 4.x (FSAL VFS) counts one more open descriptor for
# every NFSv3 CREATE of a file whose descriptor it holds open already (the
# old one is closed uncounted, vfs_open2_by_handle), so that count only
# grows under a loop of CREATE3 lines of one file, and nothing but a
# restart resets it.  From 50 % of its limit on descriptors (RLIMIT_NOFILE,
# which it cannot raise past the hard limit) its LRU thread closes
# descriptors in use; at 99 % every open is answered NFS3ERR_JUKEBOX
# (10008, 0x2718): after about 20000 such CREATEs under a limit of 20000.

GANESHA_PID=
RPCBIND_PID=

ganesha_reexec() {
	if [ -n "$DBENCH_NFS_NETNS" ]; then
		return 0
	fi
	GANESHA_WHY=
	[ "$(id -u)" = 0 ] || GANESHA_WHY="not root"
	command -v ganesha.nfsd >/dev/null 2>&1 || GANESHA_WHY="no ganesha.nfsd"
	command -v rpcbind >/dev/null 2>&1 || [ -x /usr/sbin/rpcbind ] || GANESHA_WHY="no rpcbind"
	unshare -n -m true 2>/dev/null || GANESHA_WHY="${GANESHA_WHY:-cannot unshare a network namespace}"
	[ -z "$GANESHA_WHY" ] || return 1
	rm -rf "$T"
	DBENCH_NFS_NETNS=1 exec unshare -n -m sh "$0" "$@"
}

# ganesha_end PID...: TERM, up to 3 s, then KILL.
ganesha_end() {
	for _p in "$@"; do
		kill -TERM "$_p" 2>/dev/null
	done
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		_alive=
		for _p in "$@"; do
			kill -0 "$_p" 2>/dev/null && _alive=1
		done
		[ -n "$_alive" ] || break
		sleep 0.2
	done
	for _p in "$@"; do
		kill -KILL "$_p" 2>/dev/null
	done
}

ganesha_stop() {
	ganesha_end $GANESHA_PID $RPCBIND_PID
	GANESHA_PID=
	RPCBIND_PID=
}

trap 'ganesha_stop; cleanup_scratch' EXIT

ganesha_listening() {
	ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

ganesha_start() {
	_g=$T/ganesha
	mkdir -p "$_g/export" "$_g/recov" "$_g/run"
	mount -t tmpfs tmpfs /run 2>/dev/null || { GANESHA_WHY="cannot mount a private /run"; return 1; }
	ip link set lo up 2>/dev/null || { GANESHA_WHY="cannot bring up lo"; return 1; }
	cat >"$_g/ganesha.conf" <<CONF
NFS_CORE_PARAM {
	Protocols = 3, 4;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Enable_UDP = false;
	Plugins_Dir = /usr/lib/x86_64-linux-gnu/ganesha;
}
NFSV4 {
	Graceless = true;
	RecoveryBackend = fs;
	RecoveryRoot = $_g/recov;
	Lease_Lifetime = 10;
}
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
	Export_Id = 1;
	Path = $_g/export;
	Pseudo = $_g/export;
	Access_Type = RW;
	Squash = No_Root_Squash;
	Protocols = 3, 4;
	Transports = TCP;
	SecType = sys;
	FSAL { Name = VFS; }
}
CONF
	_pdir=$(dirname "$(find /usr/lib -name libfsalvfs.so 2>/dev/null | head -n 1)")
	[ -n "$_pdir" ] && sed -i "s|Plugins_Dir = .*;|Plugins_Dir = $_pdir;|" "$_g/ganesha.conf"
	setsid rpcbind -f -w >"$_g/rpcbind.log" 2>&1 &
	RPCBIND_PID=$!
	for _i in $(seq 50); do ganesha_listening 111 && break; sleep 0.1; done
	ganesha_run || return 1
	NFS_EXPORT_DIR=$_g/export
	NFS_URL=nfs://127.0.0.1$_g/export
}

# ganesha_run: ganesha.nfsd on $T/ganesha's configuration, until it serves.
ganesha_run() {
	_g=$T/ganesha
	setsid ganesha.nfsd -F -f "$_g/ganesha.conf" -L "$_g/ganesha.log" -p "$_g/run/ganesha.pid" \
		-N NIV_EVENT >>"$_g/ganesha.out" 2>&1 &
	GANESHA_PID=$!
	# serving: NFS on 2049 and mountd on the port rpcbind names (a port
	# left registered by a ganesha before this one listens no more)
	for _i in $(seq 100); do
		_mp=$(rpcinfo -p 127.0.0.1 2>/dev/null | awk '$5 == "mountd" { print $4; exit }')
		ganesha_listening 2049 && [ -n "$_mp" ] && ganesha_listening "$_mp" && break
		kill -0 "$GANESHA_PID" 2>/dev/null || break
		sleep 0.1
	done
	if ! ganesha_listening 2049; then
		GANESHA_WHY="ganesha did not start: $(grep -E 'CRIT|FATAL|MAJ' "$_g/ganesha.log" | grep -v DBUS | tail -n 2)"
		return 1
	fi
	return 0
}

# ganesha_restart: a fresh ganesha (see the top for why), rpcbind kept.
ganesha_restart() {
	ganesha_end $GANESHA_PID
	GANESHA_PID=
	for _i in $(seq 50); do
		ganesha_listening 2049 || break
		sleep 0.1
	done
	ganesha_run
}
