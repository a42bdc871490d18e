# test_smb.sh - --backend=smb against a real smbd this test starts (see
# lib_smbd.sh: a private configuration, 127.0.0.1, a free port): client.txt
# and the built-in loadfile replay with every operation type accounted
# for, the share is left empty, --verify checks its reads, the dialect and
# server go into the JSON, the password shows nowhere, and wrong
# credentials, a missing share and a server killed mid-run end the way
# dbench(1) says.
. "$TOP/tests/shell/lib.sh"
. "$TOP/tests/shell/lib_smbd.sh"
. "$TOP/tests/shell/lib_replaynet.sh"
CLIENT_TXT=/usr/share/dbench/client.txt

# NT1 is allowed so that --smb-protocol=NT1 can be tried; profiling counts
# smbd's requests by command.
SMBD_GLOBAL="	server min protocol = NT1
	smbd profiling level = count"
if ! smbd_start; then
	echo "ok 1 # skip $SMBD_WHY"
	exit 0
fi

# The operation types a loadfile holds, one name a line, sorted.
loadfile_ops() {
	awk '$1 !~ /^#/ && NF { print $1 }' "$1" | sort -u
}

# The operation names of a run's table (those performed, with a count).
table_ops() {
	printf '%s\n' "$1" | awk '/^ Operation /{t=1; next} t && /^ -+$/{next}
		t && /^ [A-Za-z_]+ +[0-9]+ /{print $1} t && /^$/{t=0}' | sort -u
}

# share_empty: nothing of ours is left on the share.
share_empty() {
	expect_eq "$(ls -A "$SMB_SHARE_DIR")" "" "left on the share"
}

smb() {
	"$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER%$SMB_PASS" "$@"
}

# The first 3000 lines of client.txt hold each of its operation types
# (LockX first at line 2784) and replay in a second or two over SMB.
head -n 3000 "$CLIENT_TXT" >"$T/head.txt"
# And a short one for the runs whose point is not the load.
head -n 200 "$CLIENT_TXT" >"$T/short.txt"

begin "client.txt (its first 3000 lines) --run-once over SMB: every operation type counted, the share left empty"
out=$(smb --run-once -c "$T/head.txt" --json="$T/once.json" 2); rc=$?
expect_status $rc 0
want=$(loadfile_ops "$T/head.txt" | grep -Evx 'LockX|UnlockX|Flush')
expect_eq "$(table_ops "$out")" "$want" "operations in the table"
expect_match "$out" '^ not supported by the backend, not performed: LockX [0-9]+, UnlockX [0-9]+, Flush [0-9]+$'
jq -e '[.ops[] | select(.errors > 0)] | length == 0' "$T/once.json" >/dev/null ||
	fail "errors: $(jq -c '[.ops[] | select(.errors > 0)]' "$T/once.json")"
share_empty
end

# Every operation type, each failure status the backend must produce
# among them, in a loadfile short enough to loop many times in a timed run.
cat >"$T/all.txt" <<'EOF'
Deltree "\clients\client1\t" NT_STATUS_OK
Mkdir "\clients\client1\t" NT_STATUS_OK
NTCreateX "\clients\client1\t\sub" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\t\sub" 0x1 0x2 1 NT_STATUS_OBJECT_NAME_COLLISION
NTCreateX "\clients\client1\t\a.dat" 0x40 0x5 2 NT_STATUS_OK
WriteX 2 0 65536 65536 NT_STATUS_OK
ReadX 2 4096 8192 8192 NT_STATUS_OK
ReadX 2 65536 4096 4096 NT_STATUS_END_OF_FILE
LockX 2 0 1 NT_STATUS_OK
UnlockX 2 0 1 NT_STATUS_OK
Flush 2 NT_STATUS_OK
QUERY_FILE_INFORMATION 2 1004 NT_STATUS_OK
SET_FILE_INFORMATION 2 1004 NT_STATUS_OK
Close 2 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\a.dat" 1004 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\none" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_FS_INFORMATION 259 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\*.DAT" 260 1366 1 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\<.JNK" 260 1366 0 NT_STATUS_NO_SUCH_FILE
Rename "\clients\client1\t\a.dat" "\clients\client1\t\b.dat" NT_STATUS_OK
NTCreateX "\clients\client1\t\a.dat" 0x40 0x1 3 NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\clients\client1\t\b.dat" 0x6 NT_STATUS_OK
Rmdir "\clients\client1\t\sub" NT_STATUS_OK
EOF

begin "a timed run over SMB: every operation type counted, no error, the share left empty"
out=$(smb -t 2 --warmup 0 -c "$T/all.txt" --json="$T/timed.json" 2); rc=$?
expect_status $rc 0
expect_match "$out" '^Throughput [0-9.]+ MB/sec'
want=$(loadfile_ops "$T/all.txt" | grep -Evx 'LockX|UnlockX|Flush')
expect_eq "$(table_ops "$out")" "$want" "operations in the table"
expect_match "$out" '^ not supported by the backend, not performed: LockX [0-9]+, UnlockX [0-9]+, Flush [0-9]+$'
expect_eq "$(jq -r .result.errors "$T/timed.json")" 0 "errors"
# its target's facts are members of the table (include/dockeys.def), of their types
out=$("$UNIT_DIR/dockeys" check "$T/timed.json") || fail "$out"
share_empty
end

begin "a timed run of the built-in loadfile over SMB: no error, the share left empty"
out=$(smb -t 2 --warmup 0 --json="$T/builtin.json" 2); rc=$?
expect_status $rc 0
expect_eq "$(jq -r .result.errors "$T/builtin.json")" 0 "errors"
share_empty
end

begin "the JSON names the server, the share and the dialect settled on, and no password"
jq -e --arg s "127.0.0.1:$SMB_PORT" '.environment.targets[0] | .server == $s and
	.share == "dbench" and .protocol == "SMB3_11" and .protocol_pinned == false and
	.user == "root"' "$T/timed.json" >/dev/null ||
	fail "target: $(jq -c '.environment.targets' "$T/timed.json")"
grep -q -- "$SMB_PASS" "$T/timed.json" && fail "the password is in the JSON"
end

begin "--smb-protocol pins the dialect, and the JSON says so"
out=$(smb --smb-protocol=SMB2_10 --run-once -q -c "$T/short.txt" --json="$T/pin.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(jq -r '.environment.targets[0] | "\(.protocol) \(.protocol_pinned)"' "$T/pin.json")" \
	"SMB2_10 true" "protocol"
share_empty
end

begin "--smb-protocol=NT1 speaks SMB1 (smbd's own count of SMB1 requests says so), and the JSON records it"
smbd_smb1_creates() {
	smbstatus -s "$T/smbd/smb.conf" --profile 2>/dev/null | awk '/^SMBntcreateX_count:/ { print $2 }'
}
before=$(smbd_smb1_creates)
out=$(smb --smb-protocol=nt1 --run-once -q -c "$T/head.txt" --json="$T/nt1.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(jq -r '.environment.targets[0] | "\(.protocol) \(.protocol_pinned)"' "$T/nt1.json")" \
	"NT1 true" "protocol"
expect_eq "$(jq -r .result.errors "$T/nt1.json")" 0 "errors"
after=$(smbd_smb1_creates)
[ "$((after - before))" -ge "$(grep -c '^NTCreateX.*NT_STATUS_OK' "$T/head.txt")" ] ||
	fail "smbd counted $((after - before)) SMB1 NTCreateX requests"
share_empty
end

begin "--verify over SMB checks the reads and passes"
out=$(smb --verify -c "$T/all.txt" -t 2 --warmup 0 --json="$T/verify.json" 2); rc=$?
expect_status $rc 0
expect_match "$out" '^Verify: [0-9.]+ MB checked in [1-9][0-9]* reads, no mismatch'
expect_eq "$(jq -r .result.verify.mismatches "$T/verify.json")" 0 "mismatches"
share_empty
end

begin "credentials from an authentication file, and from USER and PASSWD"
printf 'username = %s\npassword = %s\n' "$SMB_USER" "$SMB_PASS" >"$T/auth"
"$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-credentials="$T/auth" --run-once -q \
	-c "$T/short.txt" 1 >"$T/auth.out" 2>&1; rc=$?
expect_status $rc 0
USER=$SMB_USER PASSWD=$SMB_PASS "$DBENCH" --backend=smb --smb-share="$SMB_URL" --run-once -q \
	-c "$T/short.txt" 1 >"$T/env.out" 2>&1; rc=$?
expect_status $rc 0
share_empty
end

begin "the password is not in ps output, nor in the recorded command line, while the run goes on"
# once the run is at work (held as it releases its client): however long
# a busy machine took to start it, it has masked its command line, and
# it takes the SIGINT below (before its handler, a background job of a
# script ignores SIGINT, and the run went on for its 60 s)
DBENCH_TEST_HOLD=start "$DBENCH" --backend=smb --smb-share="$SMB_URL" \
	--smb-user="$SMB_USER%$SMB_PASS" -t 60 --warmup 0 -q --json="$T/ps.json" 1 >"$T/ps.out" 2>&1 &
pid=$!
released $pid || fail "the run was not held as it released its client"
ps -o args= -p "$pid" >"$T/ps.txt"
grep -q -- "--smb-user=$SMB_USER%" "$T/ps.txt" || fail "not the run's command: $(cat "$T/ps.txt")"
grep -q -- "$SMB_PASS" "$T/ps.txt" && fail "ps shows the password: $(cat "$T/ps.txt")"
tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$SMB_PASS" && fail "/proc/PID/cmdline holds it"
kill -INT "$pid"
wait "$pid"
grep -q -- "$SMB_PASS" "$T/ps.json" "$T/ps.out" && fail "the password was printed"
share_empty
end

begin "dbench ab over SMB: a password among a side's options shows nowhere, ps included"
"$DBENCH" ab --runs=1 --settle=0 --backend=smb --smb-share="$SMB_URL" -c "$T/short.txt" -t 4 \
	--warmup 0 -q --a="--smb-user=$SMB_USER%$SMB_PASS" \
	--b="--smb-protocol=SMB3_00 --smb-user=$SMB_USER%$SMB_PASS" --json="$T/ab.json" 1 \
	>"$T/ab.out" 2>&1 &
pid=$!
wait_for_line "/proc/$pid/cmdline" "$SMB_USER%\\*\\*\\*" || fail "no mask in its command line"
ps -o args= -p "$pid" >"$T/ps.txt"
grep -q -- "--a=--smb-user=$SMB_USER%" "$T/ps.txt" || fail "not the series' command: $(cat "$T/ps.txt") $(head -n 5 "$T/ab.out")"
grep -q -- "$SMB_PASS" "$T/ps.txt" && fail "ps shows the password: $(cat "$T/ps.txt")"
tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$SMB_PASS" && fail "/proc/PID/cmdline holds it"
wait "$pid"; rc=$?
expect_status $rc 0
expect_match "$(cat "$T/ab.out")" "^Run 2 of 2: side B \\(--smb-protocol=SMB3_00 --smb-user=$SMB_USER%\\*\\*\\*\\)"
grep -q -- "$SMB_PASS" "$T/ab.out" "$T/ab.json" && fail "the password was printed or recorded"
# each side's own options: B's --smb-protocol pins B alone, A negotiates
expect_eq "$(jq -r '[.runs[] | "\(.series.side) \(.environment.targets[0].protocol)'\
' \(.environment.targets[0].protocol_pinned)"] | sort | join(",")' "$T/ab.json")" \
	"A SMB3_11 false,B SMB3_00 true" "each side's dialect"
share_empty
end

begin "a wrong password: exit 2 with the server's reason, before any client starts"
out=$("$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER%not-$SMB_PASS" \
	-t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: //127.0.0.1:$SMB_PORT/dbench: logon as 'root' refused: The attempted logon is invalid"
expect_no_match "$out" 'clients ready'
expect_no_match "$out" "$SMB_PASS"
share_empty
end

begin "a missing share, a missing directory, a port nobody serves: exit 2, each named"
out=$(smb_url=//127.0.0.1:$SMB_PORT/nosuch; "$DBENCH" --backend=smb --smb-share="$smb_url" \
	--smb-user="$SMB_USER%$SMB_PASS" -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: //127.0.0.1:$SMB_PORT/nosuch: no share 'nosuch' on 127.0.0.1:$SMB_PORT$"
out=$("$DBENCH" --backend=smb --smb-share="$SMB_URL/no/dir" --smb-user="$SMB_USER%$SMB_PASS" \
	-t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: $SMB_URL/no/dir: no directory 'no/dir' in the share: "
port=$(free_port)
out=$("$DBENCH" --backend=smb --smb-share="//127.0.0.1:$port/dbench" \
	--smb-user="$SMB_USER%$SMB_PASS" -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: //127.0.0.1:$port/dbench: cannot connect: Connection refused$"
end

begin "bad smb options: exit 2, each named, before anything is sent"
out=$(smb --smb-protocol=SMB4 -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: --smb-protocol 'SMB4': not NT1, SMB2_02, SMB2_10, SMB3_00, SMB3_02 or SMB3_11$"
out=$(smb --smb-timeout=0 -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" '^dbench: --smb-timeout must be 1 to 3600 seconds$'
out=$("$DBENCH" --backend=smb --smb-user="$SMB_USER%$SMB_PASS" -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" '^dbench: --backend=smb needs --smb-share=//HOST\[:PORT\]/SHARE\[/PATH\]$'
out=$("$DBENCH" --backend=smb --smb-share=//127.0.0.1/d/../x --smb-user="$SMB_USER%$SMB_PASS" \
	-t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: --smb-share '//127.0.0.1/d/../x': the path has a '.' or '..' component"
out=$(smb -F -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" '^dbench: -s, -S, -F and -x are not supported by the smb backend'
share_empty
end

begin "--check-loadfile --backend=smb names what libsmbclient cannot send"
out=$("$DBENCH" --check-loadfile --backend=smb -c "$T/head.txt"); rc=$?
expect_status $rc 0
expect_match "$out" '^LockX: 2 operations not supported by the smb backend$'
expect_match "$out" '^Flush: [0-9]+ operations not supported by the smb backend$'
end

begin "--sweep with --think-time over SMB, and compare of two SMB runs"
out=$(smb -c "$T/short.txt" -t 1 --warmup 0 -q --think-time=exp:100 --sweep=1,2 \
	--json="$T/sweep.json" 2>&1); rc=$?
expect_status $rc 0
expect_eq "$(jq -c '[.runs[].config.nprocs]' "$T/sweep.json")" \
	"[1,2]" "sweep runs"
jq -e '[.runs[] | .result.think_time_mean_us > 0 and .result.errors == 0] | all' \
	"$T/sweep.json" >/dev/null || fail "think time or errors: $(jq -c '[.runs[].result]' "$T/sweep.json" | cut -c1-300)"
out=$("$DBENCH" compare "$T/timed.json" "$T/verify.json" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^Throughput, MB/sec'
share_empty
end

begin "--probe lists its directory on the share while the load runs, and removes it"
out=$("$DBENCH" --backend=smb --smb-share="$SMB_CS_URL" --smb-user="$SMB_USER%$SMB_PASS" \
	-c "$T/short.txt" -t 2 --warmup 0 --probe --json="$T/probe.json" 1 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "^Probe: [1-9][0-9]* listings? of 3000 entries in $SMB_CS_URL/clients/probe, p50 "
expect_eq "$(jq -r .probe.entries "$T/probe.json")" 3000 "entries"
expect_eq "$(ls -A "$SMB_CS_SHARE_DIR")" "" "left on the share"
end

begin "a password from \$PASSWD or \$USER is in no /proc/PID/environ of the run, the clients' included"
for how in PASSWD USER; do
	if [ "$how" = PASSWD ]; then
		PASSWD=$SMB_PASS "$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER" \
			-c "$T/short.txt" -t 3 --warmup 0 2 >"$T/env.out" 2>&1 &
	else
		USER="$SMB_USER%$SMB_PASS" "$DBENCH" --backend=smb --smb-share="$SMB_URL" \
			-c "$T/short.txt" -t 3 --warmup 0 2 >"$T/env.out" 2>&1 &
	fi
	pid=$!
	# up to 60 s: a sanitizer build on a busy machine took over 10 s to
	# start, and a look before the parent has forgotten it finds it
	for i in $(seq 600); do
		grep -q ' execute ' "$T/env.out" && break
		sleep 0.1
	done
	grep -q ' execute ' "$T/env.out" || fail "$how: no execute line within 60 s"
	seen=0
	for p in $pid $(pgrep -P "$pid"); do
		seen=$((seen + 1))
		grep -aq -- "$SMB_PASS" "/proc/$p/environ" 2>/dev/null && fail "$how: the password is in /proc/$p/environ"
	done
	[ "$seen" -ge 3 ] || fail "$how: looked at $seen processes, want the parent and 2 clients"
	wait "$pid"
	expect_status $? 0
done
share_empty
end

begin "a share whose URL passes 4095 bytes: exit 2 saying so, not 'out of memory'"
long=$(head -c 5000 /dev/zero | tr '\0' a)
"$DBENCH" --backend=smb --smb-share="$SMB_URL/$long" --smb-user="$SMB_USER%$SMB_PASS" -t 1 1 \
	>"$T/long.out" 2>&1
expect_status $? 2
expect_eq "$(cat "$T/long.out")" "dbench: --smb-share: the share's URL would be longer than the 4095 bytes this backend builds" "output"
end

# stopped_run OUT OPTION...: a run on the share, smbd held stopped
# (SIGSTOP, its whole session) once the clients have run a second; pid set.
stopped_run() {
	_o=$1
	shift
	"$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER%$SMB_PASS" -t 60 \
		--warmup 0 "$@" 2 >"$_o" 2>&1 &
	pid=$!
	for i in $(seq 300); do
		grep -q ' execute ' "$_o" && break
		sleep 0.1
	done
	kill -STOP "-$SMBD_PID"
	cpu_mark
	t0=$(date +%s%N)
}

# wait_capped: wait for $pid, 90 s at most; sets rc and ms since t0.
wait_capped() {
	for i in $(seq 900); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

begin "a recording's initial state the share has no room for is refused with the figures, exit 2, nothing made"
printf 'syscalls 1\ninit file "big" 1099511627776 0644\n1 0 0.000001 stat "big" 0\n' >"$T/huge.load"
out=$(smb -t 3 --warmup 0 -c "$T/huge.load" 100 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: no room in '.*' for the initial state: 100 clients need [0-9.]+ GB in 200 inodes, its file system has [0-9.]+ [kMG]?B( and [0-9]+ inodes)? free \(--force tries anyway\)\$"
share_empty
end

begin "smbd held stopped (SIGSTOP) mid-run: the run fails within a bound of --smb-timeout, exit 1, the FAILED line"
stopped_run "$T/stop.out" --smb-timeout 2 --stop-timeout 3
wait_capped
kill -CONT "-$SMBD_PID"
expect_status "$rc" 1
# libsmbclient bounds each SMB request by --smb-timeout and an operation
# may make three (create, query, close); then the parent tries once to
# remove the files: about 10 s on a quiet machine
expect_within "$(echo "$ms / 1000" | bc -l)" 20 "the failure from the server's stop"
out=$(cat "$T/stop.out")
# the operation's line and the server; libsmbclient says "Connection timed
# out" of it here, and once said another errno on a loaded machine
expect_match "$out" "^FAILED: client [12], (\(built-in\):[0-9]+ [A-Za-z_]+ )?//127\.0\.0\.1:$SMB_PORT/dbench/clients/client[12].*: [A-Z][a-z]"
expect_match "$out" '^Throughput [0-9.]+ MB/sec'
expect_match "$out" "^dbench: files of client [12] are left in $SMB_URL/clients"
expect_eq "$(pgrep -f -- "--smb-share=$SMB_URL" | tr '\n' ' ')" "" "processes of the run left"
rm -rf "$SMB_SHARE_DIR/clients"
end

begin "SIGTERM while smbd is held stopped: exit 143 within --stop-timeout, the interrupted label, nothing left running"
stopped_run "$T/stopterm.out" --smb-timeout 60 --stop-timeout 3
sleep 1
cpu_mark
t0=$(date +%s%N)
kill -TERM "$pid"
wait_capped
kill -CONT "-$SMBD_PID"
expect_status "$rc" 143
expect_within "$(echo "$ms / 1000" | bc -l)" 8 "the stop from the signal (stop timeout 3 s)"
out=$(cat "$T/stopterm.out")
expect_match "$out" '^interrupted after [0-9.]+ s of the measured window$'
expect_match "$out" '^dbench: process [0-9]+ \(client [12]\) did not stop within 3 s of the signal; killed$'
expect_no_match "$out" 'FAILED'
expect_eq "$(pgrep -f -- "--smb-share=$SMB_URL" | tr '\n' ' ')" "" "processes of the run left"
rm -rf "$SMB_SHARE_DIR/clients"
end

begin "a recording of the system-call dialect replays over SMB at 1 and 4 clients: every call made, no outcome difference, the files where the recording put them"
replaynet_write
replaynet_small smb "$SMB_SHARE_DIR"
end

begin "calls with no SMB request are counted and named as not performed (run and --check-loadfile), the rest replayed"
replaynet_unsup smb "$SMB_SHARE_DIR" smb fallocate fsetxattr fsync link symlink
rm -rf "$SMB_SHARE_DIR/clients"
end

begin "the shipped build recording replays over SMB at 4 clients: exit 0, no outcome difference, what SMB lacks named with its count"
smb -c "$TOP/loadfiles/build.load" --run-once --json="$T/b.json" 4 >"$T/b.out" 2>&1
expect_status $? 0
expect_eq "$(jq '[.ops[].errors] | add' "$T/b.json")" 0 "outcome differences"
expect_match "$(cat "$T/b.out")" "^ not supported by the backend, not performed: readlink 396, fchown 488, fchownat 56\$"
expect_eq "$(jq '.ops.openat.count' "$T/b.json")" $((2282 * 4)) "openat calls"
share_empty
end

# Last: it stops the server.
begin "smbd killed mid-run: the FAILED line, the results so far, exit 1 within 2 s"
"$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER%$SMB_PASS" -t 60 --warmup 0 \
	--json="$T/kill.json" 2 >"$T/kill.out" 2>&1 &
pid=$!
# Until the clients have run a second (setup may be slow under a sanitizer).
for i in $(seq 300); do
	grep -q ' execute ' "$T/kill.out" && break
	sleep 0.1
done
cpu_mark
t0=$(date +%s%N)
kill -KILL "-$SMBD_PID"
wait "$pid"; rc=$?
t1=$(date +%s%N)
SMBD_PID=
expect_status $rc 1
expect_match "$(cat "$T/kill.out")" '^FAILED: client [0-9]+, .*'
expect_match "$(cat "$T/kill.out")" '^ NTCreateX +[1-9][0-9]* '
expect_within "$(echo "($t1 - $t0) / 1000000000" | bc -l)" 2 "the stop from the server's death"
# what could not be removed is said to be left (libsmbclient's ENOENT for
# a server it cannot reach was taken for a tree already gone: nothing said)
if [ -n "$(ls -A "$SMB_SHARE_DIR/clients" 2>/dev/null)" ]; then
	expect_match "$(cat "$T/kill.out")" "^dbench: files of client [12] are left in $SMB_URL/clients"
fi
end

finish
