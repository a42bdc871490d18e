#!/bin/sh
# test_iscsi.sh - the iscsi backend against a real iSCSI target: tgt's
# tgtd started by the test, private to it (lib_tgtd.sh: 127.0.0.1, a port
# and a control socket of its own), with file-backed LUNs.  dbench 5.0's
# SCSI loadfiles, taken from the reference tarball beside the repository:
# iscsi.load, the three iscsi-read10 files and the persistent-reservation
# tests under iscsi/ (the parallel ones two runs at once, as their .sh
# drivers run them) replay, each on a LUN of its own and side by side, so
# that the whole takes about as long as the longest (20 s); a target that
# refuses the login, a LUN that is not there and other bad targets stop
# the run before any client starts (exit 2); a target killed or held
# stopped mid-run fails it (exit 1), within --iscsi-timeout.
. "$TOP/tests/shell/lib.sh"
. "$TOP/tests/shell/lib_tgtd.sh"

if ! tgtd_start; then
	echo "ok 1 # SKIP no private iSCSI target here: $TGTD_WHY"
	exit 0
fi

REF=$(dbench5_tarball)
L5=
if [ -n "$REF" ] && tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/iscsi*' 2>/dev/null; then
	L5=$(echo "$T"/*/loadfiles)
fi

begin "a private tgtd serves a file-backed LUN on 127.0.0.1, and a run of the SCSI dialect reads it"
# LUN 1 rdwr, the reads' own; 2 aio (iscsi.load's SYNCHRONIZECACHE10 has
# IMMED, which tgt's rdwr store refuses); 3 and 4 rdwr, for that refusal
# (4 under --continue-on-error); 10 and up, one for each reservation test
tgtd_lun 2 aio >>"$TGTD_LOG" 2>&1 &&
	tgtd_lun 3 >>"$TGTD_LOG" 2>&1 &&
	tgtd_lun 4 >>"$TGTD_LOG" 2>&1 || fail "tgtadm: $(tail -n 2 "$TGTD_LOG")"
printf 'TESTUNITREADY 0x00\nREAD10 0 8 0 0 0x00\nREADCAPACITY10 0 0 0x00\n' >"$T/tur.load"
"$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -c "$T/tur.load" --run-once --json="$T/t.json" 1 \
	>"$T/t.out" 2>&1
expect_status $? 0
expect_eq "$(jq -c '.environment.targets[0] | [.lun, .blocks, .block_size, .vendor]' "$T/t.json")" \
	'[1,32768,512,"IET"]' "the LUN in the environment"
# its target's facts are members of the table (include/dockeys.def), of their types
out=$("$UNIT_DIR/dockeys" check "$T/t.json") || fail "$out"
expect_eq "$(ss -Hltn "sport = :$ISCSI_PORT" | awk '{print $4}')" "127.0.0.1:$ISCSI_PORT" \
	"where tgtd listens"
end

if [ -z "$L5" ]; then
	skip "dbench 5.0's iSCSI loadfiles" "no readable dbench-5.0-a8e1c0f.tar.gz in shared/reference (set DBENCH5_TARBALL)"
	finish
	exit
fi

# run_bg NAME LUN LOADFILE [OPTION...]: a --run-once replay in the
# background, its output in $T/NAME.out and its exit status in
# $T/NAME.rc; its initiator name is NAME's, so that two runs at once are
# two I_T nexuses whatever their client numbers.  wait_bg waits for all
# of them (a plain wait would wait for tgtd too).
BG=
run_bg() {
	_run=$1 _lun=$2 _load=$3
	shift 3
	("$DBENCH" -B iscsi --iscsi="$ISCSI_URL/$_lun" --iscsi-initiatorname="$TGT_IQN:$_run" \
		-c "$_load" --run-once --json="$T/$_run.json" "$@" 1 >"$T/$_run.out" 2>&1
	 echo $? >"$T/$_run.rc") &
	BG="$BG $!"
}
wait_bg() {
	# shellcheck disable=SC2086
	wait $BG
	BG=
}

# ran NAME STATUS: run_bg NAME ended with STATUS, its operations those of
# one pass of its loadfile (--check-loadfile's summary), none in error
# when it was to succeed.
ran() {
	_rc=$(cat "$T/$1.rc" 2>/dev/null)
	[ "$_rc" = "$2" ] || { fail "$1: exit ${_rc:-none}, want $2: $(grep -E 'FAILED|dbench:' "$T/$1.out")"; return; }
	[ "$2" -eq 0 ] || return
	# one jq: the loadfile, the errors, then each operation's count
	jq -r '.config.loadfile, ([.ops[].errors] | add),
		(.ops | to_entries[] | select(.value.count > 0) | "\(.key) \(.value.count)")' \
		"$T/$1.json" >"$T/$1.jq"
	"$DBENCH" --check-loadfile -c "$(head -n 1 "$T/$1.jq")" |
		awk 'NR > 2 && $1 ~ /^[A-Z0-9]+$/ { print $1, $2 }' | sort >"$T/$1.want"
	tail -n +3 "$T/$1.jq" | sort >"$T/$1.got"
	cmp -s "$T/$1.want" "$T/$1.got" ||
		fail "$1: operations counted: $(tr '\n' ' ' <"$T/$1.got"), want $(tr '\n' ' ' <"$T/$1.want")"
	expect_eq "$(sed -n 2p "$T/$1.jq")" 0 "$1's errors"
}

# The persistent-reservation tests: the sequential ones and the two
# parallel pairs (the second of each started once the first holds its
# reservation), on LUNs 10 and up, with the three iscsi-read10 files on
# LUN 1 and iscsi.load on LUN 2, all at once; a copy of register_twice
# and of release_parallel_2 with SPC-4's answer in the row that expects
# another.
# Every LUN is made first: a LUN added tells every session of the target
# so (a UNIT ATTENTION each).
for lun in $(seq 10 25); do
	tgtd_lun $lun aio 1M >>"$TGTD_LOG" 2>&1 || fail "tgtadm: $(tail -n 1 "$TGTD_LOG")"
done
lun=10
for f in "$L5"/iscsi/*.load; do
	b=$(basename "$f" .load)
	case $b in *parallel_2) continue ;; esac
	run_bg "$b" $lun "$f"
	case $b in *parallel_1) eval "lun_$b=$lun" ;; esac
	lun=$((lun + 1))
done
for f in "$L5"/iscsi-read10-*.load; do
	run_bg "$(basename "$f" .load)" 1 "$f"
done
run_bg iscsi 2 "$L5/iscsi.load"
run_bg rdwr 3 "$L5/iscsi.load"
run_bg rdwr_coe 4 "$L5/iscsi.load" --continue-on-error
sed '$s/0x00$/0x18/' "$L5/iscsi/register_twice.load" >"$T/register_twice_spc.load"
run_bg register_twice_spc $lun "$T/register_twice_spc.load"
lun=$((lun + 1))
sed 's/^20.000/2.000/' "$L5/iscsi/release_parallel_1.load" >"$T/release_1_spc.load"
run_bg release_1_spc $lun "$T/release_1_spc.load"
# the reservations of the parallel_1 files are made at 0 s: a second
# after each run has released its client, however long it took to start
for b in reserve_parallel_1 release_parallel_1 prout_reserve_parallel_1 prout_release_parallel_1 \
	release_1_spc; do
	wait_for_line "$T/$b.out" ' ready in ' 120 || echo "# $b never said it was ready"
done
sleep 1
for b in reserve_parallel release_parallel prout_reserve_parallel prout_release_parallel; do
	eval "run_bg ${b}_2 \$lun_${b}_1 \"$L5/iscsi/${b}_2.load\""
done
sed 's/0x02$/0x18/; s/^20.000/0.000/' "$L5/iscsi/release_parallel_2.load" >"$T/release_2_spc.load"
run_bg release_2_spc $lun "$T/release_2_spc.load"

# While they run (20 s, the parallel tests' timestamps), the blocks below
# that need no LUN of theirs.

begin "a timed run of random READ10s by 2 clients: the table, percentiles, timeline and JSON as ever"
printf 'READ10 */8 8 0 0 0x00\nWRITE10 */8 8 0x08 0 0x00\n' >"$T/rw.load"
"$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -c "$T/rw.load" -t 2 --warmup 0 --json="$T/rw.json" 2 \
	>"$T/rw.out" 2>&1
expect_status $? 0
expect_match "$(cat "$T/rw.out")" '^ READ10 +[0-9]+ '
expect_match "$(cat "$T/rw.out")" '^Rate: [0-9.]+ operations per second \(IOPS\)'
expect_match "$(jq '.ops.READ10.p99_ms' "$T/rw.json")" '^[0-9.e-]+$'
expect_match "$(jq '.timeline | length' "$T/rw.json")" '^[12]$'
expect_eq "$(jq '.ops.READ10.errors + .ops.WRITE10.errors' "$T/rw.json")" 0 "errors"
end

begin "bad targets stop the run before any client starts (exit 2), each named"
# a second target that wants CHAP, which the clients do not give
tgtd_target 2 "$TGT_IQN:chap" 127.0.0.1 >>"$TGTD_LOG" 2>&1 &&
	tgtadm_ --mode logicalunit --op new --tid 2 --lun 1 --backing-store "$TGTD_DIR/lun1.img" \
		>>"$TGTD_LOG" 2>&1 &&
	tgtadm_ --mode account --op new --user dbench --password "chap-$$-secret" >>"$TGTD_LOG" 2>&1 &&
	tgtadm_ --mode account --op bind --tid 2 --user dbench >>"$TGTD_LOG" 2>&1 ||
	fail "tgtadm: $(tail -n 1 "$TGTD_LOG")"
port=$(free_port)
for case in \
	"iscsi://127.0.0.1:$ISCSI_PORT/iqn.2024-01.org.example:nosuch/1|login refused: .*Target not found" \
	"$ISCSI_URL/9|LUN 9 answers TEST UNIT READY with CHECK CONDITION \\(0x02\\), ILLEGAL REQUEST, asc/ascq 0x25/0x00 \\(LOGICAL UNIT NOT SUPPORTED\\)" \
	"iscsi://127.0.0.1:$ISCSI_PORT/$TGT_IQN:chap/1|login refused: .*Authentication failure" \
	"iscsi://127.0.0.1:$port/$TGT_IQN/1|cannot connect to 127.0.0.1:$port: .*Connection refused" \
	"iscsi://127.0.0.1:$ISCSI_PORT/$TGT_IQN|is not an iSCSI URL" \
	"nfs://127.0.0.1/x/1|is not an iSCSI URL"; do
	url=${case%%|*} want=${case#*|}
	out=$("$DBENCH" -B iscsi --iscsi="$url" -c "$T/tur.load" --run-once 1 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "$url: exit $rc, want 2"
	expect_match "$out" "^dbench: .*$want"
done
expect_match "$("$DBENCH" -B iscsi -c "$T/tur.load" 1 2>&1)" 'needs --iscsi='
expect_match "$("$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -D "$T" -c "$T/tur.load" 1 2>&1)" \
	'takes its target from --iscsi, not -D'
expect_match "$("$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" --iscsi-timeout=0 -c "$T/tur.load" 1 2>&1)" \
	'--iscsi-timeout must be 1 to 3600 seconds'
expect_match "$("$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -F -c "$T/tur.load" 1 2>&1)" \
	'-s, -S, -F and -x have no files'
end

begin "CHAP: the target's user and password log in, a wrong one is refused; the password is in no message nor the JSON"
"$DBENCH" -B iscsi --iscsi="iscsi://dbench%chap-$$-secret@127.0.0.1:$ISCSI_PORT/$TGT_IQN:chap/1" \
	-c "$T/tur.load" --run-once --json="$T/pw.json" 1 >"$T/pw.out" 2>&1
expect_status $? 0
! grep -q "chap-$$-secret" "$T/pw.json" "$T/pw.out" || fail "the password is in the output or the JSON"
expect_match "$(cat "$T/pw.out")" "iscsi://dbench%\\*\\*\\*@127"
out=$("$DBENCH" -B iscsi --iscsi="iscsi://dbench%wrong-secret@127.0.0.1:$ISCSI_PORT/$TGT_IQN:chap/1" \
	-c "$T/tur.load" --run-once 1 2>&1)
expect_status $? 2
expect_match "$out" "^dbench: iscsi://dbench%\\*\\*\\*@127.0.0.1:$ISCSI_PORT/$TGT_IQN:chap/1: login refused: .*Authentication failure"
expect_no_match "$out" 'wrong-secret'
end

wait_bg


begin "iscsi.load replays to the end, its PROUTs' statuses as the file expects"
ran iscsi 0
expect_eq "$(jq '.ops.PROUT.count' "$T/iscsi.json")" 8 "PROUTs"
end

begin "iscsi.load on a LUN that refuses SYNCHRONIZE CACHE with IMMED (tgt's rdwr store) fails there, naming the sense"
ran rdwr 1
expect_match "$(cat "$T/rdwr.out")" "^FAILED: client 1, .*/iscsi.load:53 SYNCHRONIZECACHE10 $ISCSI_URL/3: CHECK CONDITION \\(0x02\\), ILLEGAL REQUEST, asc/ascq 0x24/0x00 \\(INVALID FIELD IN CDB\\), expected GOOD \\(0x00\\)$"
end

begin "iscsi.load under --continue-on-error on that LUN: the refused SYNCHRONIZE CACHE is counted, the run goes to its end"
# the target's answer, CHECK CONDITION with sense data, is an outcome
# difference like a wrong NT status, not wrong data that stops the run
rc=$(cat "$T/rdwr_coe.rc" 2>/dev/null)
expect_eq "$rc" 0 "exit status ($(grep -E 'FAILED|dbench:' "$T/rdwr_coe.out"))"
expect_no_match "$(cat "$T/rdwr_coe.out")" '^FAILED:'
expect_eq "$(jq -c '[.ops.SYNCHRONIZECACHE10.count, .ops.SYNCHRONIZECACHE10.errors]' "$T/rdwr_coe.json")" \
	'[1,1]' "SYNCHRONIZECACHE10's count and errors"
expect_eq "$(jq '[.ops[].errors] | add' "$T/rdwr_coe.json")" 1 "errors"
expect_eq "$(jq '.ops.PROUT.count' "$T/rdwr_coe.json")" 8 "PROUTs (the rows after it)"
end

for f in "$L5"/iscsi-read10-*.load; do
	b=$(basename "$f" .load)
	begin "$b.load replays to the end (100,000 READ10s)"
	ran "$b" 0
	expect_eq "$(jq '.ops.READ10.count' "$T/$b.json")" 100000 "READ10s"
	end
done

for f in "$L5"/iscsi/*.load; do
	b=$(basename "$f" .load)
	case $b in
	*release_parallel_2)
		# Its one row, at 20 s, releases a reservation of the other
		# run's from a nexus that is not registered, and expects CHECK
		# CONDITION: SPC-4 and tgt answer RESERVATION CONFLICT, so it
		# fails there, saying both; with the standard's answer in the
		# row it replays (below).
		begin "iscsi/$b.load replays; the target answers RESERVATION CONFLICT where the row expects CHECK CONDITION"
		ran "$b" 1
		expect_match "$(cat "$T/$b.out")" "^FAILED: client 1, .*$b.load:[0-9]+ PROUT $ISCSI_URL/[0-9]+: RESERVATION CONFLICT \\(0x18\\), expected CHECK CONDITION \\(0x02\\)$"
		;;
	register_twice)
		# Its last row registers again, from a registered nexus, with
		# reservation key 0 where the nexus's key is 0xdeadbeef, and
		# expects GOOD: SPC-4 and tgt answer RESERVATION CONFLICT
		# (prout_register_twice's last row gives the key, and passes).
		begin "iscsi/$b.load replays; the target answers RESERVATION CONFLICT where the row expects GOOD"
		ran "$b" 1
		expect_match "$(cat "$T/$b.out")" "^FAILED: client 1, .*$b.load:7 PROUT $ISCSI_URL/[0-9]+: RESERVATION CONFLICT \\(0x18\\), expected GOOD \\(0x00\\)$"
		;;
	*)
		begin "iscsi/$b.load replays to the end, every status as the file expects"
		ran "$b" 0
		;;
	esac
	end
done

begin "register_twice and release_parallel_2 with SPC-4's answer in the row that expects another replay to the end"
ran register_twice_spc 0
ran release_1_spc 0
ran release_2_spc 0
end

# at_work OUT: wait until the run writing OUT has reported a second of
# work (a minute at most).
at_work() {
	wait_for_line "$1" ' execute ' 60
}

# stopped_run OUT [OPTION...]: a long run of 2 clients in the background
# ($pid), the target held stopped (SIGSTOP) once they are at work.
stopped_run() {
	_out=$1
	shift
	"$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -c "$T/rw.load" -t 60 --warmup 0 "$@" 2 \
		>"$_out" 2>&1 &
	pid=$!
	at_work "$_out"
	kill -STOP "$TGTD_PID"
	cpu_mark
	t0=$(date +%s%N)
}

# wait_capped: wait for $pid, 60 s at most; rc its status, ms the time
# since t0.
wait_capped() {
	for _i in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

begin "tgtd held stopped (SIGSTOP) mid-run: the run fails within --iscsi-timeout, exit 1, the FAILED line"
stopped_run "$T/stop.out" --iscsi-timeout 2 --stop-timeout 3
wait_capped
kill -CONT "$TGTD_PID"
expect_status "$rc" 1
# a command waits 2 s: about 2 s on a quiet machine
expect_within "$(echo "$ms / 1000" | bc -l)" 10 "the failure from the target's stop"
expect_match "$(cat "$T/stop.out")" "^FAILED: client [12], $T/rw.load:[12] (READ10|WRITE10) $ISCSI_URL/1: no answer from the target within 2 s$"
expect_match "$(cat "$T/stop.out")" '^Throughput [0-9.]+ MB/sec'
end

begin "SIGTERM while tgtd is held stopped: exit 143 within --stop-timeout"
stopped_run "$T/term.out" --iscsi-timeout 60 --stop-timeout 3
sleep 0.5	# the clients are waiting on the target
cpu_mark
t0=$(date +%s%N)
kill -TERM "$pid"
wait_capped
kill -CONT "$TGTD_PID"
expect_status "$rc" 143
expect_within "$(echo "$ms / 1000" | bc -l)" 10 "the stop from the signal (stop timeout 3 s)"
expect_no_match "$(cat "$T/term.out")" 'FAILED'
end

begin "tgtd killed mid-run: the run fails at once, exit 1, the FAILED line naming the lost connection"
"$DBENCH" -B iscsi --iscsi="$ISCSI_URL/1" -c "$T/rw.load" -t 60 --warmup 0 2 >"$T/kill.out" 2>&1 &
pid=$!
at_work "$T/kill.out"
cpu_mark
t0=$(date +%s%N)
kill -KILL "$TGTD_PID"
wait_capped
expect_status "$rc" 1
expect_within "$(echo "$ms / 1000" | bc -l)" 15 "the failure from the target's death"
expect_match "$(cat "$T/kill.out")" "^FAILED: client [12], $T/rw.load:[12] (READ10|WRITE10) $ISCSI_URL/1: the connection to the target was lost"
expect_match "$(cat "$T/kill.out")" '^Throughput [0-9.]+ MB/sec'
end

finish
