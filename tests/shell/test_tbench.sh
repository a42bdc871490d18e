#!/bin/sh
# test_tbench.sh - tbench_srv and tbench (the sockio backend), real
# processes on loopback: our pair, each against dbench 4.0's (Debian's
# /usr/bin/tbench and /usr/bin/tbench_srv), hostile peers, and the server
# or the client stopped.
#
# Our server listens on 127.0.0.1 on a port the kernel picks (--port 0)
# and says which.  dbench 4.0's pair can only use port 7003, so the
# interoperation blocks run in a network namespace of their own (unshare
# -n) where 7003 is free whatever the machine runs; without one they take
# a lock and skip when 7003 is in use.  Every server starts in a session
# of its own (setsid) and is stopped by its pid, in the EXIT trap too; the
# ones the runs use are started by dbench-servers, as a user starts one.
. "$TOP/tests/shell/lib.sh"

BIN_DIR=$(dirname "$DBENCH")
TBENCH=$BIN_DIR/tbench
TBENCH_SRV=$BIN_DIR/tbench_srv
DEB_TBENCH=/usr/bin/tbench
DEB_TBENCH_SRV=/usr/bin/tbench_srv
CLIENT_TXT=/usr/share/dbench/client.txt

: >"$T/pids"
: >"$T/servers"
stop_all() {
	# each pid leads a session (setsid): its process group holds what
	# it forked
	for p in $(cat "$T/pids" 2>/dev/null); do
		kill -TERM -"$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
	done
	for d in $(cat "$T/servers" 2>/dev/null); do
		[ ! -f "$d/server.env" ] || "$SERVERS" stop "$d"
	done
}
trap 'stop_all; cleanup_scratch' EXIT

skip() {
	echo "ok $_n - $_name # SKIP $*"
}

# start_srv NAME [OPTION...]: our server on 127.0.0.1, a free port,
# started by dbench-servers (as a user starts one; OPTIONs one word each);
# sets srv_pid and srv_port, its output in $T/NAME.out and $T/NAME.err.
start_srv() {
	_s=$1
	shift
	for _o in "$@"; do
		set -- "$@" "--tbench-option=$_o"
		shift
	done
	"$SERVERS" start tbench --dir="$T/srv-$_s" "$@" >"$T/$_s.start" 2>&1 ||
		fail "dbench-servers start tbench: $(cat "$T/$_s.start")"
	echo "$T/srv-$_s" >>"$T/servers"
	ln -s "$T/srv-$_s/log/stdout" "$T/$_s.out"
	ln -s "$T/srv-$_s/log/stderr" "$T/$_s.err"
	srv_pid=$(server_var "$T/srv-$_s" PID)
	srv_port=$(server_var "$T/srv-$_s" PORT)
	[ -n "$srv_port" ] || fail "tbench_srv did not say where it listens: $(cat "$T/$_s.start")"
}

# start_srv_child NAME: the same, started here as this shell's child, for
# the blocks that check the status it exits with (wait needs a child).
start_srv_child() {
	_s=$1
	setsid "$TBENCH_SRV" --listen 127.0.0.1 --port 0 >"$T/$_s.out" 2>"$T/$_s.err" &
	srv_pid=$!
	echo "$srv_pid" >>"$T/pids"
	wait_for_line "$T/$_s.out" 'listening on' 120
	srv_port=$(sed -n 's/^tbench_srv: listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$T/$_s.out")
	[ -n "$srv_port" ] || fail "tbench_srv did not say where it listens: $(cat "$T/$_s.err")"
}

# exchange PORT BYTES [COUNT]: send the bytes (printf escapes) on a new
# connection and print, in hex, the COUNT bytes that come back (without
# COUNT, all until the server closes), waiting 3 s at most.
exchange() {
	timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 9
		printf "$2" >&3
		if [ -n "$3" ]; then head -c "$3" <&3; else cat <&3; fi |
			od -An -v -tx1 | tr -s " \n" " "' exchange "$@"
}

# children PID: the processes PID forked that are still there
children() {
	ps -o pid= --ppid "$1" | tr -d ' '
}

# in_session PID: every process of the session PID leads
in_session() {
	ps -e -o sid=,pid=,stat=,args= | awk -v s="$1" '$1 == s'
}

# pair7003 NAME N SERVER_WORD*N CLIENT...: start the server (its N words)
# listening on port 7003 of 127.0.0.1, run CLIENT against it (output in
# $T/NAME.cli), stop the server; the client's exit status, or 77 when
# port 7003 cannot be had.
cat >"$T/pair.sh" <<'EOF_PAIR'
name=$1 n=$2
shift 2
[ "$NETNS" = 1 ] && { ip link set lo up || exit 77; }
(
	# keep the first n words: rotate them to the end, drop the rest
	for i in $(seq "$n"); do set -- "$@" "$1"; shift; done
	shift $(($# - n))
	exec setsid "$@"
) >"$T/$name.srv" 2>&1 &
p=$!
echo "$p" >>"$T/pids"
shift "$n"
for i in $(seq 1200); do	# a minute at most: a busy machine starts it late
	bash -c 'exec 3<>/dev/tcp/127.0.0.1/7003' 2>/dev/null && break
	sleep 0.05
done
"$@" >"$T/$name.cli" 2>&1
rc=$?
kill -TERM -"$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
wait "$p"
exit $rc
EOF_PAIR
pair7003() {
	if unshare -n true 2>/dev/null; then
		NETNS=1 T=$T unshare -n sh "$T/pair.sh" "$@"
		return
	fi
	# No namespace: the machine's own port 7003, one test at a time.
	(
		flock -w 120 9 || exit 77
		ss -ltn 2>/dev/null | grep -q ':7003 ' && exit 77
		NETNS=0 T=$T sh "$T/pair.sh" "$@"
	) 9>/tmp/dbench-tbench-7003.lock
}

# ---- our server, on its own ----

begin "tbench_srv answers a request with a reply of the size it asks for"
start_srv_child srv1
out=$(exchange "$srv_port" '\0\0\0\4\0\0\0\4' 8)
expect_eq "$out" " 00 00 00 04 00 00 00 00 " "reply to the opening exchange"
out=$(exchange "$srv_port" '\0\0\0\14\0\0\0\2abcdefgh\0\0\0\4\0\0\0\0' 10)
expect_eq "$out" " 00 00 00 02 00 00 00 00 00 00 " "two requests in one write"
end

begin "a request header asking for 4 GB closes that connection with a log line; the server goes on"
out=$(exchange "$srv_port" '\377\377\377\377\0\0\0\4')
expect_status $? 0	# closed at once, not timed out
expect_eq "$out" "" "reply to a 4 GB request"
out=$(exchange "$srv_port" '\0\0\0\4\377\377\377\377')
expect_status $? 0
expect_eq "$out" "" "reply to a request wanting 4 GB back"
expect_match "$(cat "$T/srv1.err")" '^tbench_srv: 127\.0\.0\.1:[0-9]+: request header says 4294967295 bytes follow .*: connection closed$'
expect_match "$(cat "$T/srv1.err")" 'says 4 bytes follow and 4294967295 go back'
kill -0 "$srv_pid" 2>/dev/null || fail "the server died"
out=$(exchange "$srv_port" '\0\0\0\4\0\0\0\10' 12)
expect_eq "$out" " 00 00 00 08 00 00 00 00 00 00 00 00 " "the next connection's reply"
end

begin "short, garbage and abandoned requests leave neither a crash nor a zombie"
exchange "$srv_port" '\0\0' >/dev/null
exchange "$srv_port" 'GET / HTTP/1.0\r\n\r\n' >/dev/null
exchange "$srv_port" '\0\0\0\2\0\0\0\0' >/dev/null
exchange "$srv_port" '\0\0\3\350\0\0\0\4 only ten' >/dev/null
exchange "$srv_port" '' >/dev/null
# each connection's process says what it saw as it ends, and is reaped
for line in 'peer left after 2 bytes of a request header' 'request header says 1195725856 bytes' \
	'request header says 2 bytes' 'request cut short'; do
	wait_for_line "$T/srv1.err" "$line"
done
i=0
while [ -n "$(children "$srv_pid")" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
err=$(cat "$T/srv1.err")
expect_match "$err" 'peer left after 2 bytes of a request header: connection closed$'
expect_match "$err" 'request header says 1195725856 bytes follow'
expect_match "$err" 'request header says 2 bytes follow'
expect_match "$err" 'request cut short: Connection reset by peer: connection closed$'
kill -0 "$srv_pid" 2>/dev/null || fail "the server died"
expect_eq "$(children "$srv_pid")" "" "children left (zombies or not)"
end

begin "SIGTERM stops the server and every connection it serves"
for i in 1 2 3; do
	timeout 20 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"; printf "\0\0\0\4\0\0\0\4" >&3; sleep 15' \
		hold "$srv_port" &
done
i=0
while [ "$(children "$srv_pid" | wc -l)" -lt 3 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "$(children "$srv_pid" | wc -l)" 3 "connections served before SIGTERM"
kill -TERM "$srv_pid"
for i in $(seq 600); do
	[ -z "$(in_session "$srv_pid")" ] && break
	sleep 0.05
done
expect_eq "$(in_session "$srv_pid")" "" "processes left in the server's session"
wait "$srv_pid"
expect_status $? 0
expect_match "$(cat "$T/srv1.err")" '^tbench_srv: stopped by signal 15$'
end

begin "SIGINT stops it too"
start_srv_child srv2
timeout 20 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"; printf "\0\0\0\4\0\0\0\4" >&3; sleep 15' \
	hold "$srv_port" &
sleep 0.3
kill -INT "$srv_pid"
wait "$srv_pid"
expect_status $? 0
sleep 0.2
expect_eq "$(in_session "$srv_pid")" "" "processes left in the server's session"
end

begin "dbench 4.0's tbench runs against our tbench_srv without error"
pair7003 deb2ours 1 "$TBENCH_SRV" "$DEB_TBENCH" -t 2 2 127.0.0.1
rc=$?
if [ "$rc" -eq 77 ]; then
	skip "port 7003 is in use and no network namespace can be had"
else
	expect_status "$rc" 0
	out=$(cat "$T/deb2ours.cli")
	expect_match "$out" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency='
	expect_no_match "$out" 'lost sync|error|ERROR'
	expect_match "$(awk '$1 == "ReadX" { print $2 }' "$T/deb2ours.cli")" '^[1-9][0-9]*$'
	expect_eq "$(cat "$T/deb2ours.srv")" "tbench_srv: listening on [::]:7003
tbench_srv: stopped by signal 15" "the server's log"
	end
fi

# ---- our tbench (the sockio backend) ----

begin "tbench replays client.txt against our tbench_srv and exits 0"
start_srv srv3
"$TBENCH" -c "$CLIENT_TXT" -t 2 --warmup 0 --port "$srv_port" 2 127.0.0.1 >"$T/run1" 2>&1
expect_status $? 0
out=$(cat "$T/run1")
expect_match "$out" '^Throughput [0-9.]+ MB/sec \(NB=[0-9.]+ MB/sec  [0-9.]+ MBit/sec\)  2 procs$'
expect_no_match "$out" 'FAILED'
expect_match "$out" '^target: 127\.0\.0\.1$'
expect_match "$(awk '$1 == "ReadX" && $2 > 0 && $NF == 0' "$T/run1")" 'ReadX'
expect_match "$(awk '$1 == "NTCreateX" && $2 > 0 && $NF == 0' "$T/run1")" 'NTCreateX'
end

begin "dbench 4.0's layout and JSON: backend sockio, the server in the environment record"
"$TBENCH" -t 1 --warmup 0 --port "$srv_port" --output-format=dbench4 --json="$T/r.json" \
	1 127.0.0.1 >"$T/run2" 2>&1
expect_status $? 0
expect_match "$(tail -n 1 "$T/run2")" '^Throughput [0-9.]+ MB/sec  1 clients  1 procs  max_latency=[0-9.]+ ms$'
expect_eq "$(jq -r .config.backend "$T/r.json")" sockio "backend"
expect_eq "$(jq -r '.environment.targets[0].server' "$T/r.json")" "127.0.0.1:$srv_port" "server"
expect_eq "$(jq -r '.environment.targets[0].tcp_options' "$T/r.json")" "TCP_NODELAY SO_REUSEADDR" \
	"socket options"
# its target's facts are members of the table (include/dockeys.def), of their types
out=$("$UNIT_DIR/dockeys" check "$T/r.json") || fail "$out"
end

begin "the server killed during the run: the FAILED line, the results so far, exit 1 within 2 s"
DBENCH_TEST_HOLD=start "$TBENCH" -t 30 --warmup 0 --port "$srv_port" 2 127.0.0.1 >"$T/run3" 2>&1 &
cpid=$!
released $cpid || fail "the run was not held as it released its clients"
sleep 2
kill -KILL "$srv_pid"
cpu_mark
t0=$(date +%s%N)
wait "$cpid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
expect_status "$rc" 1
expect_within "$(echo "$ms / 1000" | bc -l)" 2 "the client's stop after the server's death"
out=$(cat "$T/run3")
expect_match "$out" "^FAILED: client [12], \(built-in\):[0-9]+ [A-Za-z_]+ .*: 127\.0\.0\.1:$srv_port: [a-z ]+: (Connection reset by peer|Broken pipe)$"
expect_match "$out" '^Throughput [0-9.]+ MB/sec'
sleep 0.2
# its connection processes end with it (the zombies they leave are for
# whoever adopts them to reap)
expect_eq "$(in_session "$srv_pid" | awk '$3 !~ /^Z/')" "" "server processes left after SIGKILL"
end

begin "no server listening: exit 2 with one line before any client starts"
"$TBENCH" -t 1 --port "$srv_port" 2 127.0.0.1 >"$T/run4" 2>"$T/err4"
expect_status $? 2
expect_eq "$(cat "$T/err4")" "tbench: cannot connect to 127.0.0.1:$srv_port: Connection refused" "message"
expect_eq "$(cat "$T/run4")" "" "standard output"
end

# ---- misbehaving peers (tests/tools/badpeer.py, on 127.0.0.1) ----

BADPEER=$TOP/tests/tools/badpeer.py

# start_bad MODE [OPTION...]: a misbehaving server (badpeer.py's modes) in
# a session of its own; sets bad_pid and bad_port.  The previous one's
# output goes first: the shell that starts it in the background opens
# (and empties) bad.out in the child, which may come after the wait
# below has found the previous server's port there.
start_bad() {
	rm -f "$T/bad.out" "$T/bad.err"
	setsid python3 "$BADPEER" server "$@" >"$T/bad.out" 2>"$T/bad.err" &
	bad_pid=$!
	echo "$bad_pid" >>"$T/pids"
	wait_for_line "$T/bad.out" '^port ' 120
	bad_port=$(sed -n 's/^port //p' "$T/bad.out")
	[ -n "$bad_port" ] || fail "badpeer.py did not say its port: $(cat "$T/bad.err")"
}

stop_bad() {
	kill -TERM "$bad_pid" 2>/dev/null
	wait "$bad_pid" 2>/dev/null
}

# capped OUT CMD...: CMD, its output in OUT, stopped after 90 s at most
# (a hang fails the block, not the suite); sets rc and ms, its time.
capped() {
	_o=$1
	shift
	_t0=$(date +%s%N)
	timeout -k 5 90 "$@" >"$_o" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - _t0) / 1000000))
}

# no_process_of_port PORT: no tbench process of a run against PORT is left.
no_process_of_port() {
	expect_eq "$(pgrep -f -- "--port $1 " | tr '\n' ' ')" "" "processes of the run left"
}

# The bound each run below must end within: --timeout 2 (or a stop timeout
# of 3) plus generous room for a machine that other tests load; before
# these waits had a bound, each of these runs waited for ever.
BOUND_MS=15000

for peer in "silent:accepts and never answers a client" \
	"half:answers the opening exchange, then half a reply header" \
	"trickle:answers the opening exchange, then trickles a reply a byte a second"; do
	mode=${peer%%:*}
	begin "a server that ${peer#*:}: tbench fails within --timeout, exit 1, the FAILED line naming the server and the wait"
	if [ "$mode" = silent ]; then
		start_bad silent --serve-first 1	# dbench's own check is answered
	else
		start_bad "$mode" --serve-first 1 --answer 1
	fi
	capped "$T/bad-$mode" "$TBENCH" -t 30 --warmup 0 --timeout 2 --port "$bad_port" 2 127.0.0.1
	expect_status "$rc" 1
	[ "$ms" -le "$BOUND_MS" ] || fail "it took $ms ms"
	out=$(cat "$T/bad-$mode")
	if [ "$mode" = silent ]; then
		expect_match "$out" "^FAILED: client [12], setup: 127\.0\.0\.1:$bad_port: waiting for the answer to the opening exchange: no answer within 2 s$"
	else
		expect_match "$out" "^FAILED: client [12], \(built-in\):[0-9]+ [A-Za-z_]+ .*: 127\.0\.0\.1:$bad_port: waiting for the reply: no answer within 2 s$"
		expect_match "$out" '^Throughput [0-9.]+ MB/sec'
	fi
	no_process_of_port "$bad_port"
	stop_bad
	end
done

begin "a server that accepts and never answers at all: exit 2 within --timeout, before any client starts"
start_bad silent
capped "$T/bad-mute" "$TBENCH" -t 30 --timeout 2 --port "$bad_port" 2 127.0.0.1
expect_status "$rc" 2
[ "$ms" -le "$BOUND_MS" ] || fail "it took $ms ms"
expect_eq "$(cat "$T/bad-mute")" "tbench: 127.0.0.1:$bad_port: waiting for the answer to the opening exchange: no answer within 2 s" "output"
stop_bad
end

begin "a server that answers with a reply of the wrong size: exit 2 with a line saying so"
start_bad garbage
capped "$T/bad-garbage" "$TBENCH" -t 30 --port "$bad_port" 2 127.0.0.1
expect_status "$rc" 2
expect_eq "$(cat "$T/bad-garbage")" "tbench: 127.0.0.1:$bad_port does not answer as a tbench server: its reply to the opening exchange says 7 bytes follow, not 4" "output"
stop_bad
end

# sig_run NAME SIGNAL WHEN SERVER_MODE [OPTION...]: tbench against a
# server that answers the opening exchange (each connection's, with
# --answer 1, or only dbench's own check without), sent SIGNAL 2 s after
# WHEN: "start", the clients' release (the run held there,
# DBENCH_TEST_HOLD, however long a busy machine took to set it up), or
# "launch", for a run that never gets that far; sets rc, ms (from the
# signal to the exit, timed from cpu_mark) and out.
sig_run() {
	_sn=$1 _sig=$2 _hold=
	[ "$3" = start ] && _hold=start
	shift 3
	start_bad "$@"
	DBENCH_TEST_HOLD=$_hold "$TBENCH" -t 60 --warmup 0 --timeout 60 --stop-timeout 3 \
		--port "$bad_port" 2 127.0.0.1 >"$T/$_sn" 2>&1 &
	_p=$!
	if [ -n "$_hold" ]; then
		released "$_p" ||
			fail "the run was not held as it released its clients: $(tail -n 3 "$T/$_sn")"
	fi
	sleep 2
	cpu_mark
	_t0=$(date +%s%N)
	kill -"$_sig" "$_p"
	for _i in $(seq 300); do
		kill -0 "$_p" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$_p" 2>/dev/null	# 30 s: it hung
	wait "$_p"
	rc=$?
	ms=$((($(date +%s%N) - _t0) / 1000000))
	out=$(cat "$T/$_sn")
	no_process_of_port "$bad_port"
	stop_bad
}

for sig in TERM:143 INT:130 HUP:129 QUIT:131; do
	begin "SIG${sig%:*} while every client waits on a silent server: exit ${sig#*:} within --stop-timeout, the interrupted label, nothing left running"
	sig_run "sig-${sig%:*}" "${sig%:*}" start silent --serve-first 1 --answer 1
	expect_status "$rc" "${sig#*:}"
	# 3 s of stop timeout, and room
	expect_within "$(echo "$ms / 1000" | bc -l)" 8 "the stop from the signal"
	expect_match "$out" '^interrupted after [0-9.]+ s of the measured window$'
	expect_match "$out" '^tbench: process [0-9]+ \(client [12]\) did not stop within 3 s of the signal; killed$'
	expect_no_match "$out" 'FAILED'
	end
done

begin "SIGTERM while the clients wait in their opening exchange: exit 143 within --stop-timeout"
sig_run sig-setup TERM launch silent --serve-first 1
expect_status "$rc" 143
expect_within "$(echo "$ms / 1000" | bc -l)" 8 "the stop from the signal"
expect_no_match "$out" 'FAILED'
end

begin "SIGTERM while dbench's own check waits on the server: exit 143 at once"
sig_run sig-check TERM launch silent
expect_status "$rc" 143
expect_within "$(echo "$ms / 1000" | bc -l)" 5 "the stop from the signal"
# the signal comes while it connects or while it waits for the answer
expect_match "$out" "^tbench: (cannot connect to 127\.0\.0\.1:$bad_port|127\.0\.0\.1:$bad_port: waiting for the answer to the opening exchange): interrupted by a signal$"
expect_eq "$(printf '%s\n' "$out" | wc -l)" 1 "lines of output"
end

# proc_mem PID: its open descriptors, VmRSS and RssAnon (kB), on one line
proc_mem() {
	awk -v fds="$(ls "/proc/$1/fd" | wc -l)" '$1 == "VmRSS:" { r = $2 }
		$1 == "RssAnon:" { a = $2 } END { print fds, r, a }' "/proc/$1/status"
}

begin "tbench_srv closes silent and half-header connections after --timeout, serves others meanwhile, and gives back their descriptors and memory"
start_srv srv6 --timeout=2
"$TBENCH" -t 1 --warmup 0 --port "$srv_port" 2 127.0.0.1 >/dev/null 2>&1 ||
	fail "the first run failed"
sleep 0.3
before=$(proc_mem "$srv_pid")
cpu_mark
held=
for i in $(seq 10); do
	for mode in silent half body; do
		python3 "$BADPEER" client "$mode" "$srv_port" 20 >"$T/held-$mode-$i" 2>&1 &
		held="$held $!"
	done
done
# thirty interpreters take a while to start on a busy machine; each
# connection is closed 2 s after it came
for i in $(seq 100); do
	[ "$(children "$srv_pid" | wc -l)" -ge 10 ] && break
	sleep 0.1
done
[ "$(children "$srv_pid" | wc -l)" -ge 10 ] || fail "fewer than 10 connections are served"
"$TBENCH" -t 2 --warmup 0 --port "$srv_port" 2 127.0.0.1 >"$T/beside" 2>&1
expect_status $? 0
expect_match "$(cat "$T/beside")" '^Throughput [0-9.]+ MB/sec'
wait $held
for mode in silent half body; do
	# closed after the 2 s (timed by each client from before it
	# connected), long before the 20 s the clients hold on: 9 s at most on
	# a quiet machine, judged by the CPU the machine left the test
	bad=$(cat "$T"/held-$mode-* | grep -v '^closed after [0-9.]* s$')
	expect_eq "$bad" "" "$mode clients not closed by the server"
	first=$(cat "$T"/held-$mode-* | awk '{ print $3 }' | sort -n | head -n 1)
	last=$(cat "$T"/held-$mode-* | awk '{ print $3 }' | sort -n | tail -n 1)
	[ -z "$first" ] || expect_between 2 "$first" 9 "the first close of a $mode client"
	[ -z "$last" ] || expect_within "$last" 9 "the last close of a $mode client"
done
err=$(cat "$T/srv6.err")
expect_eq "$(printf '%s\n' "$err" | grep -c ': no request for 2 s: connection closed$')" 10 "silent ones closed"
expect_eq "$(printf '%s\n' "$err" | grep -c ': nothing for 2 s after 4 bytes of a request header: connection closed$')" 10 "half headers closed"
expect_eq "$(printf '%s\n' "$err" | grep -c ': request not whole within 2 s: connection closed$')" 10 "half requests closed"
sleep 0.3
expect_eq "$(children "$srv_pid")" "" "connection processes left"
after=$(proc_mem "$srv_pid")
# descriptors and anonymous memory exactly as before; VmRSS counts the
# program's own pages too, which a path run first (the log lines) can
# bring in: a few pages at most
expect_eq "$(echo "$after" | cut -d' ' -f1)" "$(echo "$before" | cut -d' ' -f1)" "descriptors"
# (in a sanitizer build a page more: ASan's allocator takes its
# bookkeeping pages when a size is first used, 4 kB once under check-sanitize)
anon_before=$(echo "$before" | cut -d' ' -f3) anon_after=$(echo "$after" | cut -d' ' -f3)
if grep -Eq '__(asan|msan|tsan)_init' "$TBENCH_SRV"; then
	[ "$anon_after" -le $((anon_before + 4)) ] ||
		fail "RssAnon grew from $anon_before to $anon_after kB"
else
	expect_eq "$anon_after" "$anon_before" "RssAnon (kB)"
fi
rss_before=$(echo "$before" | cut -d' ' -f2) rss_after=$(echo "$after" | cut -d' ' -f2)
[ "$rss_after" -le $((rss_before + 64)) ] || fail "VmRSS grew from $rss_before to $rss_after kB"
"$SERVERS" stop "$T/srv-srv6" || fail "dbench-servers stop: exit $?"
end

begin "tbench refuses -D, file options and an unknown socket option with exit 2"
"$TBENCH" -t 1 -D "$T" 1 127.0.0.1 >/dev/null 2>"$T/e5"
expect_status $? 2
expect_match "$(cat "$T/e5")" 'tbench takes its SERVER after NPROCS, not -D'
"$TBENCH" -t 1 -s 1 127.0.0.1 >/dev/null 2>"$T/e6"
expect_status $? 2
expect_match "$(cat "$T/e6")" '-s, -S and -F have no files to sync'
"$TBENCH" -t 1 -T TCP_FASTER 1 127.0.0.1 >/dev/null 2>"$T/e7"
expect_status $? 2
expect_match "$(cat "$T/e7")" "socket option 'TCP_FASTER' is not a socket option"
"$TBENCH" -t 1 1 127.0.0.1 extra >/dev/null 2>"$T/e8"
expect_status $? 2
expect_match "$(cat "$T/e8")" 'give NPROCS and at most one SERVER'
end

begin "our tbench runs against dbench 4.0's tbench_srv without error"
pair7003 ours2deb 1 "$DEB_TBENCH_SRV" "$TBENCH" -c "$CLIENT_TXT" -t 2 --warmup 0 2 127.0.0.1
rc=$?
if [ "$rc" -eq 77 ]; then
	skip "port 7003 is in use and no network namespace can be had"
else
	expect_status "$rc" 0
	out=$(cat "$T/ours2deb.cli")
	expect_match "$out" '^Throughput [0-9.]+ MB/sec .*  2 procs$'
	expect_no_match "$out" 'FAILED'
	expect_no_match "$(cat "$T/ours2deb.srv")" 'overflow'
	end
fi

begin "tbench_srv refuses a bad socket option, port or address with exit 2"
"$TBENCH_SRV" -T TCP_FASTER --port 0 >/dev/null 2>"$T/e1"
expect_status $? 2
expect_match "$(cat "$T/e1")" "^tbench_srv: socket option 'TCP_FASTER' is not a socket option"
"$TBENCH_SRV" --port 70000 >/dev/null 2>"$T/e2"
expect_status $? 2
expect_eq "$(cat "$T/e2")" "tbench_srv: --port 70000 is not from 0 to 65535"
"$TBENCH_SRV" --port abc >/dev/null 2>"$T/e2"
expect_status $? 2
expect_eq "$(cat "$T/e2")" "tbench_srv: --port abc: invalid numeric value"
"$TBENCH_SRV" -p abc >/dev/null 2>"$T/e2"
expect_status $? 2
expect_eq "$(cat "$T/e2")" "tbench_srv: -p abc: invalid numeric value"
"$TBENCH_SRV" --port=abc >/dev/null 2>"$T/e2"
expect_status $? 2
expect_eq "$(cat "$T/e2")" "tbench_srv: --port=abc: invalid numeric value"
"$TBENCH_SRV" --listen 203.0.113.1 --port 0 >/dev/null 2>"$T/e3"
expect_status $? 2
expect_match "$(cat "$T/e3")" '^tbench_srv: cannot listen on 203\.0\.113\.1:0: '
end

finish
