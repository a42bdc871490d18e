#!/bin/sh
# test_servers.sh - tools/dbench-servers, the script users (and the network
# backends' tests, through lib_smbd.sh, lib_ganesha.sh and lib_tgtd.sh)
# start a private server with: each kind starts on 127.0.0.1, the dbench
# command line it prints runs against it (with a short -t) and exits 0,
# no password is printed, stop leaves no process of it and no scratch
# directory; a server that cannot start is reported with its log, exit 1;
# bad input is one line and exit 2, nothing started.
. "$TOP/tests/shell/lib.sh"

# Whatever a failing block left running is stopped by its pids.
stop_left() {
	for d in "$T"/srv-*; do
		[ -f "$d/server.env" ] && "$SERVERS" stop "$d" 2>/dev/null
	done
}
trap 'stop_left; cleanup_scratch' EXIT

# one_line TEXT: TEXT is a single line saying "dbench-servers: ..."
one_line() {
	expect_eq "$(printf '%s\n' "$1" | wc -l)" 1 "lines of the message '$1'"
	expect_match "$1" '^dbench-servers: [^ ]'
}

begin "bad input: one line and exit 2, nothing started, nothing removed"
mkdir -p "$T/full" && echo keep >"$T/full/mine"
for args in "start" "start foo" "start smb --dir" "start smb --bogus" "stop" "stop $T/full" \
	"stop $T/none" "stop $T/full $T/full" "restart $T/full" "frobnicate" "" \
	"start smb --dir=$T/full" "start tbench --lun-size=1G" "start smb --dir=$T/a;b"; do
	# shellcheck disable=SC2086 # the words of each case
	out=$("$SERVERS" $args 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq 2 ] || fail "'$args': exit $rc, want 2 ($out)"
	one_line "$out"
done
expect_match "$("$SERVERS" start foo 2>&1)" "unknown kind 'foo'"
expect_match "$("$SERVERS" stop "$T/full" 2>&1)" "holds no server"
expect_eq "$(cat "$T/full/mine")" keep "the file in a directory given to stop"
expect_eq "$(ls "$T" | grep -c '^srv-')" 0 "scratch directories made"
"$SERVERS" --help | grep -q -- '--dir=DIR' || fail "--help names no --dir"
end

# start_run_stop KIND: start KIND in $T/srv-KIND, run the printed command
# line with -t 2, stop; each step checked.
start_run_stop() {
	_k=$1 _d=$T/srv-$1
	out=$("$SERVERS" start "$_k" --dir="$_d" 2>"$T/$_k.err"); rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "start $_k: exit $rc: $(cat "$T/$_k.err")"
		return
	fi
	printf '%s\n' "$out" >"$T/$_k.start"
	cmd=$(printf '%s\n' "$out" | sed -n '/^run dbench against it with:$/{n;s/^  //;p;}')
	expect_match "$cmd" ' -t 10 '
	short=$(printf '%s' "$cmd" | sed 's/ -t 10 / -t 2 /')
	expect_match "$out" "^  .*dbench-servers stop $_d\$"
	pids=$(server_var "$_d" PIDS)
	[ -n "$pids" ] || fail "no pids in $_d/server.env"
	port=$(server_var "$_d" PORT)
	if [ -n "$port" ] && [ "$_k" != nfs ]; then
		expect_eq "$(ss -Hltn "sport = :$port" | awk '{print $4}' | sort -u)" "127.0.0.1:$port" \
			"where $_k listens"
	fi
	(cd "$T" && sh -c "$short") >"$T/$_k.run" 2>&1
	expect_status $? 0
	expect_match "$(cat "$T/$_k.run")" '^Throughput [0-9.]+ MB/sec.* 2 procs$'
	"$SERVERS" stop "$_d" >"$T/$_k.stop" 2>&1
	expect_status $? 0
	expect_eq "$(cat "$T/$_k.stop")" "" "what stop said"
	for pc in $pids; do
		p=${pc%%:*} c=$(echo "$pc" | cut -d: -f2)
		# ended at once (a zombie at most), reaped by whoever adopted it
		# within seconds
		st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
		[ -z "$st" ] || [ "$st" = Z ] || fail "$c (pid $p) is still there, state $st"
		for _i in $(seq 50); do [ -d "/proc/$p" ] || break; sleep 0.1; done
		[ ! -d "/proc/$p" ] || fail "$c (pid $p) was not reaped in 5 s"
	done
	[ ! -e "$_d" ] || fail "$_d is still there"
}

# can_serve KIND: whether this machine can run KIND's server at all
can_serve() {
	case $1 in
	tbench) return 0 ;;
	smb) _t="smbd smbpasswd" ;;
	iscsi) _t="tgtd tgtadm" ;;
	nfs) _t="ganesha.nfsd rpcinfo nsenter" ;;
	esac
	[ "$(id -u)" -eq 0 ] || { why="needs root"; return 1; }
	for _p in $_t; do
		command -v "$_p" >/dev/null 2>&1 || { why="no $_p"; return 1; }
	done
	[ "$1" != nfs ] || unshare -n -m true 2>/dev/null || { why="no network namespace"; return 1; }
}

for kind in tbench smb iscsi nfs; do
	if ! can_serve "$kind"; then
		skip "dbench-servers start $kind" "$why"
		continue
	fi
	begin "start $kind: its printed dbench command line runs against it and exits 0; stop leaves no process and no scratch directory"
	start_run_stop "$kind"
	end
done

if can_serve smb; then
	begin "start smb: the password is in the credentials file alone (mode 600), not printed"
	out=$("$SERVERS" start smb --dir="$T/srv-pw" 2>&1) || fail "start smb: $out"
	pw=$(sed -n 's/^password = //p' "$T/srv-pw/credentials")
	[ -n "$pw" ] || fail "no password in the credentials file"
	printf '%s\n' "$out" | grep -qF -- "$pw" && fail "the password was printed"
	expect_eq "$(stat -c %a "$T/srv-pw/credentials")" 600 "the credentials file's mode"
	expect_match "$out" "--smb-credentials=$T/srv-pw/credentials "
	"$SERVERS" stop "$T/srv-pw" || fail "stop: exit $?"
	end
fi

begin "a server that does not start: exit 1, its log's last lines, nothing left running"
out=$("$SERVERS" start tbench --dir="$T/srv-bad" --tbench-option=--timeout=abc 2>&1); rc=$?
expect_status $rc 1
expect_match "$out" '^dbench-servers: tbench_srv did not start'
expect_match "$out" '^  stderr: tbench_srv: --timeout=abc: invalid numeric value$'
[ ! -e "$T/srv-bad/server.env" ] || fail "server.env written for a server that did not start"
end

begin "stop of a server already gone (killed) removes its scratch directory, exit 0"
out=$("$SERVERS" start tbench --dir="$T/srv-gone" 2>&1) || fail "start tbench: $out"
p=$(server_var "$T/srv-gone" PID)
kill -KILL "$p"
for _i in $(seq 50); do [ -d "/proc/$p" ] || break; sleep 0.1; done
"$SERVERS" stop "$T/srv-gone"
expect_status $? 0
[ ! -e "$T/srv-gone" ] || fail "$T/srv-gone is still there"
end

begin "stop signals no process but the one it started: a pid whose start time differs is left alone"
out=$("$SERVERS" start tbench --dir="$T/srv-reuse" 2>&1) || fail "start tbench: $out"
p=$(server_var "$T/srv-reuse" PID)
# as if the server had ended and the kernel given its pid to another
# tbench_srv, started at another time
sed -i "s/^PIDS=.*/PIDS=$p:tbench_srv:1/" "$T/srv-reuse/server.env"
"$SERVERS" stop "$T/srv-reuse"
expect_status $? 0
sleep 0.5
[ -d "/proc/$p" ] || fail "the process was signalled"
[ ! -e "$T/srv-reuse" ] || fail "$T/srv-reuse is still there"
kill -TERM "$p"
end

finish
