# test_run.sh - `dbench N` end to end on scratch directories and a tmpfs.
. "$TOP/tests/shell/lib.sh"
CLIENT_TXT=/usr/share/dbench/client.txt
PROGRESS='^ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{2} MB/sec  (warmup |execute|cleanup) +[0-9]+ sec  latency [0-9]+\.[0-9]{3} ms  now [0-9]+\.[0-9]{2} MB/sec$'
TP='^Throughput ([0-9.e+]+) MB/sec \(NB=([0-9.e+]+) MB/sec  ([0-9.e+]+) MBit/sec\)  ([0-9]+) procs$'

# A small loadfile that writes and reads one file per client.
cat >"$T/one.txt" <<'LOAD'
NTCreateX "\clients\client1\data" 0x1 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\data\f.bin" 0x40 0x5 2 NT_STATUS_OK
WriteX 2 0 65536 65536 NT_STATUS_OK
WriteX 2 65536 4096 4096 NT_STATUS_OK
ReadX 2 0 32768 32768 NT_STATUS_OK
Close 2 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\data\missing" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
LOAD

begin "a default run prints header, progress, table and throughput, exit 0"
mkdir -p "$T/d"
out=$("$DBENCH" -t 3 --warmup 1 -D "$T/d" 2); rc=$?
expect_status $rc 0
expect_match "$out" '^dbench [0-9.]+: 2 clients, 3 s measured after 1 s warmup$'
expect_match "$out" "^directory: $T/d\$"
expect_match "$out" "$PROGRESS"
expect_match "$out" ' warmup '
expect_match "$out" ' execute '
expect_match "$out" '^ Operation \(latency ms\) +Count +AvgLat +p50 +p99 +p99\.9 +MaxLat +Errors$'
expect_match "$out" '^ ReadX +[1-9][0-9]*( +[0-9]+\.[0-9]{3}){5} +0$'
expect_match "$out" "$TP"
expect_match "$out" ' 2 procs$'
end

begin "the throughput line's NB is 1.25x and MBit 10x the throughput"
line=$(printf '%s\n' "$out" | grep '^Throughput')
ok=$(printf '%s\n' "$line" | sed -E "s|$TP|\1 \2 \3|" |
	awk '{ d1 = $2 / ($1 * 1.25); d2 = $3 / ($1 * 10);
	       print (d1 > 0.99999 && d1 < 1.00001 && d2 > 0.99999 && d2 < 1.00001) ? "yes" : "no" }')
expect_eq "$ok" yes "NB/MBit arithmetic in '$line'"
end

begin "a run leaves nothing behind in the target directory"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "-q prints no progress lines"
out=$("$DBENCH" -q -t 1 --warmup 0 -D "$T/d" 1); rc=$?
expect_status $rc 0
expect_no_match "$out" "$PROGRESS"
expect_match "$out" "$TP"
end

begin "--run-once moves exactly the loadfile's bytes per client"
out=$("$DBENCH" --run-once --per-client-results -c "$T/one.txt" -D "$T/d" 3); rc=$?
expect_status $rc 0
for i in 1 2 3; do
	expect_match "$out" "^client $i: [0-9.e+]+ MB/sec  102400 bytes  8 ops  0 errors\$"
done
expect_match "$out" '^ WriteX +6 '
expect_match "$out" '^ ReadX +3 '
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "--run-once with the default loadfile matches --check-loadfile's byte total"
sum=$("$DBENCH" --check-loadfile | awk '/^bytes_(read|written)/ { s += $2 } END { print s }')
out=$("$DBENCH" --run-once --per-client-results -q -D "$T/d" 2); rc=$?
expect_status $rc 0
got=$(printf '%s\n' "$out" | awk '/^client [0-9]+:/ { print $5 }' | sort -u)
expect_eq "$got" "$sum" "bytes per client"
end

begin "--skip-cleanup leaves the clients' files; several -D spread clients round-robin"
mkdir -p "$T/a" "$T/b"
out=$("$DBENCH" --run-once --skip-cleanup -c "$T/one.txt" -D "$T/a" -D "$T/b" 4); rc=$?
expect_status $rc 0
expect_eq "$(ls "$T/a/clients" | tr '\n' ' ')" "client1 client3 " "in $T/a/clients"
expect_eq "$(ls "$T/b/clients" | tr '\n' ' ')" "client2 client4 " "in $T/b/clients"
expect_eq "$(stat -c %s "$T/a/clients/client3/data/f.bin")" 69632 "file size"
rm -rf "$T/a" "$T/b"
end

begin "--clients-per-process runs K clients in each process"
out=$("$DBENCH" --run-once --clients-per-process=2 --per-client-results \
	-c "$T/one.txt" -D "$T/d" 5); rc=$?
expect_status $rc 0
expect_eq "$(printf '%s\n' "$out" | grep -c '  102400 bytes  8 ops  0 errors$')" 5 "clients done"
expect_match "$out" ' 5 procs$'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "-S and -s are named on the throughput line"
out=$("$DBENCH" -S -s --run-once -c "$T/one.txt" -D "$T/d" 1); rc=$?
expect_status $rc 0
expect_match "$out" '^Throughput .*MBit/sec\) \(sync open\) \(sync dirs\)  1 procs$'
end

begin "a run on a small tmpfs cleans up after itself"
if mount_tmpfs "$T/tmpfs" 256m; then
	out=$("$DBENCH" -t 2 --warmup 1 -D "$T/tmpfs" 2); rc=$?
	expect_status $rc 0
	expect_match "$out" "$TP"
	expect_eq "$(ls -A "$T/tmpfs")" "" "left on the tmpfs"
	umount "$T/tmpfs"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "Debian's client.txt runs without errors"
if [ -r "$CLIENT_TXT" ]; then
	out=$("$DBENCH" -c "$CLIENT_TXT" -t 3 --warmup 1 -D "$T/d" 2); rc=$?
	expect_status $rc 0
	expect_match "$out" "$TP"
	expect_no_match "$out" '^ [A-Za-z_]+ +[0-9]+( +[0-9]+\.[0-9]{3}){5} +[1-9][0-9]*$'
	expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
else
	echo "# skipped: $CLIENT_TXT is absent (apt-get install dbench)"
fi
end

begin "an outcome other than the expected status fails the run, exit 1, files removed"
printf 'NTCreateX "\\clients\\client1\\f" 0x40 0x5 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nQUERY_PATH_INFORMATION "\\clients\\client1\\nothere" 1004 NT_STATUS_OK\n' >"$T/bad.txt"
out=$("$DBENCH" -t 5 --warmup 0 -c "$T/bad.txt" -D "$T/d" 1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/bad.txt:3 QUERY_PATH_INFORMATION $T/d/clients/client1/nothere: No such file or directory\$"
expect_match "$out" "$(partial "$TP" 'the run failed')"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "a failure names its own line, past comments, where the same operation passed before"
# Lines 4 and 9 are one operation of the program (stored once): the one of
# line 9 fails, the file being gone by then, and the message names 9.
printf '# a header\nNTCreateX "\\clients\\client1\\f" 0x40 0x5 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nQUERY_PATH_INFORMATION "\\clients\\client1\\f" 1004 NT_STATUS_OK\n\n# now without it\nUnlink "\\clients\\client1\\f" 0x10 NT_STATUS_OK\n\nQUERY_PATH_INFORMATION "\\clients\\client1\\f" 1004 NT_STATUS_OK\n' >"$T/late.txt"
out=$("$DBENCH" --run-once -c "$T/late.txt" -D "$T/d" 1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/late.txt:9 QUERY_PATH_INFORMATION $T/d/clients/client1/f: No such file or directory\$"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "an operation that succeeds where the loadfile expects failure fails the run"
printf 'NTCreateX "\\clients\\client1\\f" 0x40 0x5 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nQUERY_PATH_INFORMATION "\\clients\\client1\\f" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n' >"$T/bad.txt"
out=$("$DBENCH" --run-once -c "$T/bad.txt" -D "$T/d" 1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/bad.txt:3 QUERY_PATH_INFORMATION $T/d/clients/client1/f: succeeded, but NT_STATUS_OBJECT_NAME_NOT_FOUND was expected\$"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

# Ten 64 KiB writes: 655360 bytes in one pass (printf, as dash's echo
# would take "\c" for an escape).
{
	printf '%s\n' 'NTCreateX "\clients\client1\paced" 0x40 0x5 1 NT_STATUS_OK'
	for i in 0 1 2 3 4 5 6 7 8 9; do echo "WriteX 1 $((i * 65536)) 65536 65536 NT_STATUS_OK"; done
	echo 'Close 1 NT_STATUS_OK'
} >"$T/ten.txt"

begin "-R paces a client to the target rate"
out=$("$DBENCH" --run-once -R 1 -c "$T/ten.txt" -D "$T/d" 1); rc=$?
expect_status $rc 0
mb=$(printf '%s\n' "$out" | sed -nE "s|$TP|\1|p")
expect_eq "$(echo "$mb" | awk '{ print ($1 > 0.5 && $1 <= 1.001) ? "paced" : "not paced" }')" paced "throughput $mb MB/sec at -R 1"
end

begin "loadfile timestamps pace the replay"
awk 'NR == 1 { print "0.0 " $0; next } { print "1.5 " $0 }' "$T/ten.txt" >"$T/timed.txt"
out=$("$DBENCH" --run-once -c "$T/timed.txt" -D "$T/d" 1); rc=$?
expect_status $rc 0
mb=$(printf '%s\n' "$out" | sed -nE "s|$TP|\1|p")
expect_eq "$(echo "$mb" | awk '{ print ($1 > 0 && $1 <= 0.4370) ? "paced" : "not paced" }')" paced "throughput $mb MB/sec with 1.5 s of timestamps"
end

begin "as root the sampler runs at real-time priority and the clients at an ordinary one"
if [ "$(id -u)" -eq 0 ]; then
	start_long_run "$T/d" 2 "$T/rt.out" --json="$T/rt.json"
	expect_match "$(chrt -p $pid)" 'policy: SCHED_FIFO'
	for c in $(pgrep -P $pid); do
		expect_match "$(chrt -p "$c")" 'policy: SCHED_OTHER'
	done
	kill -INT $pid
	wait $pid
	expect_eq "$(jq .result.sampler_realtime "$T/rt.json")" true "result.sampler_realtime"
fi
end

begin "operations are timed with the TSC where the kernel keeps time with it, else the monotonic clock"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
want=clock_gettime
case "$(uname -m)" in x86_64|i?86) [ "$cs" = tsc ] && want=tsc ;; esac
"$DBENCH" -q --run-once -c "$T/ten.txt" -D "$T/d" --json="$T/clk.json" 1 >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -r .result.op_clock "$T/clk.json")" "$want" "result.op_clock (clocksource $cs)"
DBENCH_OPCLOCK=monotonic "$DBENCH" -q --run-once -c "$T/ten.txt" -D "$T/d" --json="$T/clk.json" 1 \
	>/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -r .result.op_clock "$T/clk.json")" clock_gettime "result.op_clock, asked for"
expect_eq "$(jq .result.op_clock_hz "$T/clk.json")" 1000000000 "result.op_clock_hz, asked for"
err=$(DBENCH_OPCLOCK=rdtsc "$DBENCH" -q --run-once -c "$T/ten.txt" -D "$T/d" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: DBENCH_OPCLOCK is 'rdtsc': the one value it takes is monotonic"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "SIGINT stops the run, prints the results so far, exits 130, removes the files"
start_long_run "$T/d" 2 "$T/int.out"
kill -INT $pid
wait $pid; rc=$?
expect_status $rc 130
expect_match "$(cat "$T/int.out")" "$(partial "$TP" 'interrupted by SIGINT')"
expect_match "$(cat "$T/int.out")" '^interrupted after [0-9]+\.[0-9] s of the measured window$'
only_progress_says_execute "$T/int.out"
expect_eq "$(tail -n 1 "$T/int.out" | grep -cE "$(partial "$TP" 'interrupted by SIGINT')")" 1 \
	"the Throughput line last"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "SIGINT in warmup: 'no results', no Throughput 0, no fairness from nothing"
DBENCH_TEST_HOLD=start "$DBENCH" -t 60 --warmup 50 -D "$T/d" --json="$T/warm.json" 2 \
	>"$T/warm.out" 2>&1 &
pid=$!
released $pid || fail "the run was not held as it released its clients"
sleep 1
kill -INT $pid
wait $pid; rc=$?
expect_status $rc 130
out=$(cat "$T/warm.out")
expect_match "$out" '^interrupted in warmup: no results$'
expect_no_match "$out" '^Throughput '
expect_no_match "$out" 'fairness'
expect_eq "$(jq -c '[.result.throughput_mb_s, .result.nb_mb_s, .result.mbit_s,
		     .result.stonewall_mb_s, .status.interrupted]' "$T/warm.json")" \
	'[null,null,null,null,true]' "no figure in the JSON either"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "an operation that began in warmup and ended in the measured window is told, not hidden"
# Each operation takes 1.5 s: the first begins at 0 and ends at 1.5, past
# the end of the 1 s warmup.
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK' \
	'WriteX 1 0 4096 4096 NT_STATUS_OK' 'WriteX 1 0 4096 4096 NT_STATUS_OK' \
	'Close 1 NT_STATUS_OK' >"$T/slow.txt"
DBENCH_NULL_DELAY_US=1500000 "$DBENCH" --backend=null -t 2 --warmup 1 -c "$T/slow.txt" \
	-D "$T/d" --json="$T/slow.json" 1 >"$T/slow.out" 2>&1
expect_status $? 0
expect_eq "$(jq .result.straddled.count "$T/slow.json")" 1 "straddled.count"
expect_eq "$(jq -r .result.straddled.operation "$T/slow.json")" NTCreateX "straddled.operation"
expect_eq "$(jq '.result.straddled.max_ms >= 1400 and
		 .result.max_latency_ms >= .result.straddled.max_ms' "$T/slow.json")" true \
	"straddled.max_ms in max_latency_ms"
expect_match "$(cat "$T/slow.out")" '^Straddled: 1 operation began in warmup and ended in the measured window, in no table; the longest \(NTCreateX\) took 1[0-9]{3}\.[0-9]{3} ms$'
only_progress_says_execute "$T/slow.out"
end

finish
