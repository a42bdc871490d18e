# tests/shell/lib_tgtd.sh - a private iSCSI target (tgt's tgtd) for the
# iscsi backend's tests and benches (sourced after lib.sh).
#
# tgtd_start runs tgtd in the foreground (-f) in a session of its own
# (setsid), its iSCSI portal on 127.0.0.1 only, on a free port picked now
# (ISCSI_PORT: tgtd's default is every address on 3260), and its control
# socket its own (-C TGTD_CTL: /run/tgtd/socket.TGTD_CTL, where the
# machine's tgtd uses socket.0).  tgtd reads no configuration file (the
# machine's /etc/tgt is tgt-admin's, never run here); tgtadm makes one
# target, TGT_IQN, open to 127.0.0.1 alone.  tgtd_lun N [BSTYPE [SIZE]]
# adds LUN N, backed by a sparse file $T/tgtd/lunN.img of SIZE (16M by
# default), through backing store BSTYPE (rdwr by default; aio answers
# SYNCHRONIZE CACHE with IMMED, which rdwr refuses).  tgtd_stop ends
# tgtd by its pid and removes its control socket; the EXIT trap does it
# too, so a failing test leaves no target running.
#
# After tgtd_start: ISCSI_PORT, TGTD_PID, TGTD_CTL, TGT_IQN and ISCSI_URL
# (iscsi://127.0.0.1:PORT/TGT_IQN; a LUN's is ISCSI_URL/N).  Where that
# cannot be (not root, no tgtd), tgtd_start returns 1 with the reason in
# $TGTD_WHY.

TGT_IQN=iqn.2024-01.org.samba.dbench:test
TGTD_PID=
TGTD_CTL=

tgtd_stop() {
	[ -n "$TGTD_PID" ] || return 0
	kill -TERM "$TGTD_PID" 2>/dev/null
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$TGTD_PID" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$TGTD_PID" 2>/dev/null
	wait "$TGTD_PID" 2>/dev/null
	rm -f "/run/tgtd/socket.$TGTD_CTL" "/run/tgtd/socket.$TGTD_CTL.lock"
	TGTD_PID=
}

trap 'tgtd_stop; cleanup_scratch' EXIT

# tgtadm_ ARGS: tgtadm on our control socket, for the iSCSI driver.
tgtadm_() {
	tgtadm -C "$TGTD_CTL" --lld iscsi "$@"
}

# tgtd_lun N [BSTYPE [SIZE]]: LUN N of the target, backed by a file.
tgtd_lun() {
	truncate -s "${3:-16M}" "$T/tgtd/lun$1.img" &&
	tgtadm_ --mode logicalunit --op new --tid 1 --lun "$1" \
		--backing-store "$T/tgtd/lun$1.img" --bstype "${2:-rdwr}"
}

# tgtd_target TID IQN ADDRESS: one more target, open to ADDRESS alone.
tgtd_target() {
	tgtadm_ --mode target --op new --tid "$1" --targetname "$2" &&
	tgtadm_ --mode target --op bind --tid "$1" --initiator-address "$3"
}

tgtd_start() {
	TGTD_WHY=
	if [ "$(id -u)" -ne 0 ]; then
		TGTD_WHY="tgtd needs root (its control socket is under /run/tgtd)"
		return 1
	fi
	for _t in tgtd tgtadm ss setsid; do
		if ! command -v "$_t" >/dev/null 2>&1; then
			TGTD_WHY="$_t is not installed (apt-get install tgt iproute2)"
			return 1
		fi
	done
	mkdir -p "$T/tgtd"
	for _try in 1 2 3; do
		ISCSI_PORT=$(free_port)
		# a number no other tgtd here has: one for each port, within
		# what -C takes (0 to 32767)
		TGTD_CTL=$((ISCSI_PORT - 10000))
		[ ! -e "/run/tgtd/socket.$TGTD_CTL" ] || continue
		setsid tgtd -f -C "$TGTD_CTL" --iscsi "portal=127.0.0.1:$ISCSI_PORT" </dev/null \
			>"$T/tgtd/log" 2>&1 &
		TGTD_PID=$!
		for _i in $(seq 50); do
			port_listening "$ISCSI_PORT" && [ -S "/run/tgtd/socket.$TGTD_CTL" ] && break
			kill -0 "$TGTD_PID" 2>/dev/null || break
			sleep 0.1
		done
		if port_listening "$ISCSI_PORT" && tgtd_target 1 "$TGT_IQN" 127.0.0.1 \
			>>"$T/tgtd/log" 2>&1; then
			ISCSI_URL=iscsi://127.0.0.1:$ISCSI_PORT/$TGT_IQN
			return 0
		fi
		tgtd_stop	# the port was taken meanwhile, or tgtd failed: again
	done
	TGTD_WHY="tgtd did not serve 127.0.0.1: $(tail -n 3 "$T/tgtd/log" | tr '\n' ' ')"
	return 1
}
