# tests/shell/lib_ganesha.sh - a private NFS server (nfs-ganesha 4.3, FSAL
# VFS) for the nfs backend's tests (sourced after lib.sh), started by
# tools/dbench-servers.
#
# ganesha.nfsd cannot start without registering with a portmapper, and
# rpcbind is one service per network on port 111.  So `dbench-servers
# start nfs` runs both in a network and mount namespace of their own: only
# a loopback device, a private tmpfs on /run for rpcbind's socket and
# lock, and its own rpcbind and ganesha on the standard ports, which
# nothing else can see or collide with.  Nothing but loopback carries
# traffic.
#
# ganesha_reexec "$@" (first thing in the test) starts that server and
# re-runs the test inside its namespace (nsenter, as a user runs dbench
# against it), or sets GANESHA_WHY and returns 1 where it cannot be (not
# root, no unshare, no ganesha).  ganesha_start (in the re-run test) takes
# its names: GANESHA_DIR (the scratch directory), GANESHA_PID, RPCBIND_PID,
# GANESHA_LOG, NFS_EXPORT_DIR and NFS_URL (nfs://127.0.0.1/EXPORT); where
# the server did not start it returns 1 with its log's last lines in
# GANESHA_WHY.  ganesha_stop ends both by their pids (`dbench-servers
# stop`); the EXIT trap does it too.  ganesha_restart starts ganesha afresh
# on the same configuration and export, rpcbind staying up
# (`dbench-servers restart`).
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
GANESHA_DIR=${DBENCH_NFS_DIR:-}

ganesha_reexec() {
	[ -z "${DBENCH_NFS_DIR:-}" ] || return 0
	GANESHA_WHY=
	[ "$(id -u)" = 0 ] || GANESHA_WHY="not root"
	command -v ganesha.nfsd >/dev/null 2>&1 || GANESHA_WHY="no ganesha.nfsd"
	command -v rpcbind >/dev/null 2>&1 || [ -x /usr/sbin/rpcbind ] || GANESHA_WHY="no rpcbind"
	unshare -n -m true 2>/dev/null || GANESHA_WHY="${GANESHA_WHY:-cannot unshare a network namespace}"
	[ -z "$GANESHA_WHY" ] || return 1
	rm -rf "$T"
	_d=$(mktemp -d /tmp/dbench-nfs.XXXXXX) || { GANESHA_WHY="no scratch directory"; return 1; }
	if _out=$("$SERVERS" start nfs --dir="$_d" 2>&1); then
		DBENCH_NFS_DIR=$_d exec nsenter --target="$(server_var "$_d" RPCBIND_PID)" --net --mount --wd="$(pwd)" \
			sh "$0" "$@"
	fi
	# the test runs all the same, its ganesha_start failing with why
	rm -rf "$_d"
	DBENCH_NFS_DIR=failed DBENCH_NFS_WHY=$(printf '%s' "$_out" | tr '\n' ' ') exec sh "$0" "$@"
}

ganesha_stop() {
	[ -n "$GANESHA_DIR" ] && [ -f "$GANESHA_DIR/server.env" ] || return 0
	"$SERVERS" stop "$GANESHA_DIR"
	GANESHA_PID=
	RPCBIND_PID=
}

trap 'ganesha_stop; cleanup_scratch' EXIT

ganesha_start() {
	if [ "$GANESHA_DIR" = failed ]; then
		GANESHA_WHY=$DBENCH_NFS_WHY
		return 1
	fi
	GANESHA_PID=$(server_var "$GANESHA_DIR" PID)
	RPCBIND_PID=$(server_var "$GANESHA_DIR" RPCBIND_PID)
	GANESHA_LOG=$(server_var "$GANESHA_DIR" LOG)
	NFS_EXPORT_DIR=$(server_var "$GANESHA_DIR" EXPORT_DIR)
	NFS_URL=$(server_var "$GANESHA_DIR" URL)
}

# ganesha_restart: a fresh ganesha (see above for why), rpcbind kept.
ganesha_restart() {
	if ! _out=$("$SERVERS" restart "$GANESHA_DIR" 2>&1); then
		GANESHA_WHY=$(printf '%s' "$_out" | tr '\n' ' ')
		return 1
	fi
	GANESHA_PID=$(server_var "$GANESHA_DIR" PID)
}
