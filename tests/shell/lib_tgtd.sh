# tests/shell/lib_tgtd.sh - a private iSCSI target (tgt's tgtd) for the
# iscsi backend's tests and benches (sourced after lib.sh), started by
# tools/dbench-servers.
#
# tgtd_start runs `dbench-servers start iscsi --dir=$T/tgtd`: tgtd in the
# foreground in a session of its own, its iSCSI portal on 127.0.0.1 only,
# on a free port (ISCSI_PORT: tgtd's default is every address on 3260),
# and its control socket its own (-C TGTD_CTL: /run/tgtd/socket.TGTD_CTL,
# where the machine's tgtd uses socket.0); no configuration file is read
# (the machine's /etc/tgt is tgt-admin's, never run here).  One target,
# TGT_IQN, open to 127.0.0.1 alone, with LUN 1, a sparse file
# $T/tgtd/lun1.img of 16M (tgtd_start SIZE: of SIZE) through the rdwr
# backing store.  tgtd_lun N
# [BSTYPE [SIZE]] adds LUN N, backed by a sparse file $T/tgtd/lunN.img of
# SIZE (16M by default), through backing store BSTYPE (rdwr by default;
# aio answers SYNCHRONIZE CACHE with IMMED, which rdwr refuses).
# tgtd_stop ends tgtd by its pid and removes its control socket
# (`dbench-servers stop`); the EXIT trap does it too, so a failing test
# leaves no target running.
#
# After tgtd_start: ISCSI_PORT, TGTD_PID, TGTD_CTL, TGT_IQN, ISCSI_URL
# (iscsi://127.0.0.1:PORT/TGT_IQN; a LUN's is ISCSI_URL/N) and TGTD_LOG,
# tgtd's log, where tgtadm's output may go too.  Where that cannot be (not
# root, no tgtd), tgtd_start returns 1 with the reason in $TGTD_WHY.

TGT_IQN=iqn.2024-01.org.samba.dbench:test
TGTD_PID=
TGTD_CTL=
TGTD_DIR=$T/tgtd
TGTD_LOG=$TGTD_DIR/log/tgtd

tgtd_stop() {
	[ -f "$TGTD_DIR/server.env" ] || return 0
	"$SERVERS" stop "$TGTD_DIR"
	TGTD_PID=
}

trap 'tgtd_stop; cleanup_scratch' EXIT

# tgtadm_ ARGS: tgtadm on our control socket, for the iSCSI driver.
tgtadm_() {
	tgtadm -C "$TGTD_CTL" --lld iscsi "$@"
}

# tgtd_lun N [BSTYPE [SIZE]]: LUN N of the target, backed by a file.
tgtd_lun() {
	truncate -s "${3:-16M}" "$TGTD_DIR/lun$1.img" &&
	tgtadm_ --mode logicalunit --op new --tid 1 --lun "$1" \
		--backing-store "$TGTD_DIR/lun$1.img" --bstype "${2:-rdwr}"
}

# tgtd_target TID IQN ADDRESS: one more target, open to ADDRESS alone.
tgtd_target() {
	tgtadm_ --mode target --op new --tid "$1" --targetname "$2" &&
	tgtadm_ --mode target --op bind --tid "$1" --initiator-address "$3"
}

tgtd_start() {
	TGTD_WHY=
	if ! _out=$("$SERVERS" start iscsi --dir="$TGTD_DIR" --lun-size="${1:-16M}" 2>&1); then
		TGTD_WHY=$(printf '%s' "$_out" | tr '\n' ' ')
		return 1
	fi
	TGTD_PID=$(server_var "$TGTD_DIR" PID)
	TGTD_CTL=$(server_var "$TGTD_DIR" CTL)
	ISCSI_PORT=$(server_var "$TGTD_DIR" PORT)
	ISCSI_URL=$(server_var "$TGTD_DIR" URL)
	TGTD_LOG=$(server_var "$TGTD_DIR" LOG)
}
