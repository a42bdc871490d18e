#!/bin/sh
# test_many.sh - hundreds of clients on two CPUs, as the reports this tool
# descends from ran it: slow clients are waited for, hung ones are not;
# setup, signals and cleanup at that scale; the warning when the measured
# window was too short for the workload.
. "$TOP/tests/shell/lib.sh"

CLIENT_TXT=/usr/share/dbench/client.txt
TP='^Throughput [0-9.]+ MB/sec'

# target NAME: a directory for a run, on a tmpfs of its own where root may
# mount one (hundreds of clients on the root disk would time its
# writeback, not the rule under test), else in $T.
target() {
	mount_tmpfs "$T/$1" 8g || mkdir -p "$T/$1"
	echo "$T/$1"
}

# status_of FILE RC WANT: RC is WANT, or the failure says why (FILE's
# FAILED line, or its last lines).
status_of() {
	[ "$2" -eq "$3" ] || fail "exit status $2, want $3: $(grep '^FAILED' "$1" || tail -n 3 "$1")"
}

# full_result FILE: FILE holds a whole result: the per-client summary with
# figures, the table and the Throughput line, and no FAILED line.
full_result() {
	expect_match "$(cat "$1")" '^Clients: slowest [0-9.]+ MB/sec, median [0-9.]+, fastest [0-9.]+; Jain'
	expect_match "$(cat "$1")" '^ NTCreateX +[0-9]+ '
	expect_match "$(cat "$1")" "$TP"
	expect_no_match "$(cat "$1")" '^FAILED'
}

# no_work NAME: the table of the run of $T/NAME.out counted no NTCreateX
# (the loadfiles' commonest operation) in its measured window.
no_work() {
	! grep -Eq '^ NTCreateX +[0-9]+ ' "$T/$1.out"
}

# starved NAME: the run of $T/NAME.json had under a tenth of a CPU in its
# measured window (.host.own_cpu_s, the CPU time of its clients, probe
# and parent, over the window's length), too little to show work in it:
# hundreds of clients on two CPUs beside other work, or clients asleep
# in the kernel (an fsync's journal commit behind the writeback of the
# other runs' file systems on the same disk) the whole window through;
# $starved says so with the figures.  1 when it had more, or the JSON
# does not say: a run with no work then fails.
starved() {
	starved=$(jq -r '.host | select(.window_s > 0 and .own_cpu_s < 0.1 * .window_s) |
		"its processes ran \(.own_cpu_s * 1000 | round) ms on a CPU in its \(.window_s * 100 |
		round / 100) s window, \(.own_cpu_s / .window_s * 1000 | round / 1000) of a CPU (other work: \(
		.other_cpu_pct | round) % of the machine)"' "$T/$1.json" 2>/dev/null)
	[ -n "$starved" ]
}

if [ -r "$CLIENT_TXT" ]; then
	# With 450 processes on 2 CPUs an operation takes seconds, and after
	# the end the last operations of hundreds of clients queue behind each
	# other: some are still in hand well past a --stop-timeout of 1 s,
	# which the run used to take for hung clients ("did not stop within
	# 1 s after the run ended; killed", exit 1).
	begin "450 clients of client.txt: slow last operations past --stop-timeout are waited for, a full result"
	d=$(target c450)
	"$DBENCH" -t 3 --warmup 0 --stop-timeout=1 -c "$CLIENT_TXT" -D "$d" \
		--json="$T/c450.json" 450 >"$T/c450.out" 2>&1
	status_of "$T/c450.out" $? 0
	if no_work c450 && starved c450; then
		skip_load "no work counted in the window: $starved"
	else
		full_result "$T/c450.out"
	fi
	expect_eq "$(jq -c '[.status.exit_code, (.clients | length), .fairness.median_mb_s != null]' \
		"$T/c450.json" 2>&1)" '[0,450,true]' "exit code, clients, median"
	expect_eq "$(ls -A "$d")" "" "left in the target"
	end
else
	echo "ok - # SKIP 450 clients of client.txt: no $CLIENT_TXT"
fi

# stop_client NAME NPROCS OPTION...: a 6 s run of NPROCS clients in the
# background, held as it releases its clients (DBENCH_TEST_HOLD=start)
# while one client process is sent SIGSTOP (continued 60 s later, should
# the run wait for it); $rc, $victim, and $killed the seconds from the
# release to the victim's end (killed), timed from cpu_mark.  The
# clients ask for the file system's size (statfs) after thinking 10 ms:
# replaying a loadfile flat out, and removing its files at the end,
# hundreds of them slow every fork and exec on the machine to seconds
# (under dbench 4.0 as well), this shell's included, which must see the
# victim die.
stop_client() {
	name=$1 n=$2
	shift 2
	d=$(target "$name")
	printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/statfs.txt"
	DBENCH_TEST_HOLD=start "$DBENCH" -t 6 --warmup 0 --think-time=10000 -c "$T/statfs.txt" \
		"$@" -D "$d" --json="$T/$name.json" "$n" >"$T/$name.out" 2>&1 &
	pid=$!
	held $pid || fail "the run was not held as it released its clients"
	victim=$(pgrep -P $pid -x dbench | head -n 1)
	kill -s STOP "$victim"
	(sleep 60; kill -s CONT "$victim") 2>/dev/null &
	guard=$!
	cpu_mark
	t0=$(date +%s.%N)
	kill -s CONT $pid
	while kill -0 "$victim" 2>/dev/null && [ "$(awk '{print $3}' /proc/$victim/stat)" != Z ]; do
		sleep 0.2
	done
	killed=$(echo "$(date +%s.%N) - $t0" | bc)
	wait $pid
	rc=$?
	kill $guard 2>/dev/null
}

begin "a SIGSTOPped client among 200 still fails the run within --stop-timeout, named and killed"
stop_client held200 200 --stop-timeout=2
status_of "$T/held200.out" $rc 1
expect_match "$(grep '^FAILED' "$T/held200.out")" "^FAILED: client [0-9]+, process $victim did not stop within 2 s after the run ended \\(it was held stopped by a signal\\); killed\$"
expect_match "$(cat "$T/held200.out")" "$TP"
kill -0 "$victim" 2>/dev/null && fail "the stopped client is still alive"
# the end comes 6 s after the release and the failure 2 s after it, at
# the next second's look; 2 s more for this shell to see it
expect_within "$killed" 11 "the stopped client's end from the release"
expect_eq "$(ls -A "$d")" "" "left in the target"
end

# A lone client whose operation in hand outlasts --stop-timeout after the
# end, while nothing else moves: the null backend spins each operation
# for the latencies DBENCH_NULL_DELAY_US lists, in turn.
null_run() {
	name=$1 delays=$2
	shift 2
	mkdir -p "$T/$name"
	printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
	cpu_mark
	t0=$(date +%s)
	DBENCH_NULL_DELAY_US=$delays "$DBENCH" --backend=null -c "$T/one.txt" -t 4 --warmup 0 \
		--stop-timeout=1 "$@" -D "$T/$name" --json="$T/$name.json" 1 >"$T/$name.out" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
}

# 3 s, then 4 s: the second is in hand at the end (4 s) and ends 3 s
# later, at 7 s; twice the worst latency seen (the first, 3 s) is 6 s
begin "an operation in hand younger than twice the worst latency the run saw is waited for"
null_run slow 3000000,4000000
status_of "$T/slow.out" $rc 0
expect_match "$(cat "$T/slow.out")" "$TP"
expect_no_match "$(cat "$T/slow.out")" '^FAILED'
end

# 1 ms, then 60 s: nothing moves after the end, and the operation in hand
# is far past twice the worst (1 ms, or a few under load)
begin "an operation that makes no progress fails the run --stop-timeout after the end"
null_run hung 1000,60000000
expect_status $rc 1
expect_match "$(grep '^FAILED' "$T/hung.out")" '^FAILED: client 1, process [0-9]+ did not stop within 1 s after the run ended: the run made no progress for 1 s, and its operation in hand had taken [0-9]+ s, over twice the worst latency seen \([0-9]+\.[0-9]{3} s\); killed$'
# the worst is the 1 ms operation's: 1 ms at least, and 9 ms at most on
# a quiet machine, or past it by no more than the client waited for a
# CPU in the window (a spin preempted: 4 ms beside stress-ng)
worst=$(sed -n 's/^FAILED: .* the worst latency seen (\([0-9.]*\) s); killed$/\1/p' "$T/hung.out")
wait_s=$(jq '.host.cpu_wait_s // 0' "$T/hung.json")
awk -v w="${worst:-0}" -v q="$wait_s" 'BEGIN { exit !(w >= 0.001 && w <= 0.009 + q) }' ||
	fail "the worst latency seen is ${worst:-missing} s, where the operation took 1 ms and the client waited $wait_s s for a CPU"
# 4 s, the stop timeout and a second's look: 6 s; 4 s more to say so
expect_within "$took" 10 "the run"
end

# signal_at NAME SIG WHEN OPTION...: 1000 clients asking for the file
# system's size after thinking 10 ms (light, so that this shell keeps a
# CPU) in the background, sent SIG when WHEN holds ("forked": the parent
# is held once it has forked 500 client processes, DBENCH_TEST_HOLD, and
# continued once the signal is sent; "ready": the clients were released,
# and 1 s more); $rc, $took the seconds from the signal to the exit (timed
# from cpu_mark), $out the output.  A client's operation in hand is then
# a statfs or a 10 ms pause.
signal_at() {
	name=$1 sig=$2 when=$3
	shift 3
	d=$(target "$name")
	printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/statfs.txt"
	hold=
	[ "$when" = forked ] && hold=fork:500
	DBENCH_TEST_HOLD=$hold "$DBENCH" --think-time=10000 -c "$T/statfs.txt" "$@" -D "$d" 1000 \
		>"$T/$name.out" 2>&1 &
	pid=$!
	case $when in
	forked)	held $pid || fail "the run was not held while it forked its clients" ;;
	ready)	wait_for_line "$T/$name.out" ' ready in ' 300 || fail "the run never said it was ready"
		sleep 1 ;;
	esac
	cpu_mark
	t0=$(date +%s.%N)
	kill -s "$sig" $pid
	[ "$when" != forked ] || kill -s CONT $pid
	wait $pid
	rc=$?
	took=$(echo "$(date +%s.%N) - $t0" | bc)
	out=$(cat "$T/$name.out")
}

# after_signal NAME STATUS LABEL: the run of signal_at ended with STATUS,
# said LABEL (an ERE), within 5 s of the signal on a quiet machine (2 s
# past the operations in hand, and 3 s more; it took 16 to 28 s when each
# client removed its own directory from the one they share and unmapped
# what it inherited), nothing of it left running or in its target.
after_signal() {
	status_of "$T/$1.out" $rc $2
	expect_match "$out" "$3"
	expect_within "$took" 5 "the stop from the signal to the exit"
	expect_eq "$(pgrep -f -- "-D $T/$1 " | wc -l)" 0 "processes of the run left"
	expect_eq "$(ls -A "$T/$1")" "" "left in the target"
}

begin "SIGTERM while 1000 clients are forked ends the run at once: interrupted, 143, nothing left"
signal_at sigsetup TERM forked -t 30 --warmup 5
after_signal sigsetup 143 '^interrupted in setup: no results$'
end

begin "SIGINT in the warmup of 1000 clients: interrupted, 130, nothing left"
signal_at sigwarm INT ready -t 30 --warmup 30
after_signal sigwarm 130 '^interrupted in warmup: no results$'
end

begin "SIGTERM in the measured window of 1000 clients: interrupted, the results so far, 143, nothing left"
signal_at sigexec TERM ready -t 30 --warmup 0
after_signal sigexec 143 '^interrupted after [0-9.]+ s of the measured window$'
expect_match "$out" "$TP"
end

# Forking a thousand client processes on two CPUs takes seconds, which
# passed without a line ("1000 clients ready in 3.27 s" after 3 s of
# silence): the once-a-second count began only once all were forked.
begin "1000 clients: a line a second counts those prepared while they are forked and set up"
mkdir -p "$T/prep"
"$DBENCH" -B null -t 1 --warmup 0 -D "$T/prep" 1000 >"$T/prep.out" 2>&1
status_of "$T/prep.out" $? 0
setup=$(sed -n 's/^1000 clients ready in \([0-9.]*\) s$/\1/p' "$T/prep.out")
lines=$(grep -Ec '^[0-9]+ of 1000 clients prepared, [0-9]+ s$' "$T/prep.out")
# a line each whole second, but for one that the move from forking to
# waiting may skip; none is due under 2 s
want=$(echo "$setup" | awk '{ n = int($1) - 1; print (n > 0 ? n : 0) }')
echo "# setup $setup s, $lines lines"
[ "$lines" -ge "$want" ] || fail "setup took $setup s and $lines lines said so, want $want at least"
awk '/ clients prepared, / { if ($1 < last || $1 > 1000) bad = 1; last = $1 } END { exit bad }' \
	"$T/prep.out" || fail "the counts go back or past 1000: $(grep prepared "$T/prep.out")"
end

# After a signal, as after a time limit, a slow client is waited for: its
# operation in hand outlasts --stop-timeout, but not twice the worst
# latency the run has seen (all take 2.5 s).  It was killed at the
# signal's stop timeout ("did not stop within 1 s of the signal; killed")
# and its files were left in the target.
begin "SIGTERM: clients in operations slower than --stop-timeout but not hung are waited for and clean up"
mkdir -p "$T/slowsig"
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
DBENCH_NULL_DELAY_US=2500000 "$DBENCH" --backend=null -c "$T/one.txt" -t 30 --warmup 0 \
	--stop-timeout=1 -D "$T/slowsig" 4 >"$T/slowsig.out" 2>&1 &
pid=$!
# past the first operations (2.5 s), so that the worst latency seen is theirs
wait_for_line "$T/slowsig.out" ' execute +([3-9]|[1-9][0-9]) sec' 300 ||
	fail "the run never reached its 3rd second"
cpu_mark
t0=$(date +%s.%N)
kill -s TERM $pid
wait $pid
rc=$?
took=$(echo "$(date +%s.%N) - $t0" | bc)
status_of "$T/slowsig.out" $rc 143
expect_no_match "$(cat "$T/slowsig.out")" 'did not stop'
expect_match "$(cat "$T/slowsig.out")" '^interrupted after [0-9.]+ s of the measured window$'
# the operations in hand end within 2.5 s of the signal
expect_within "$took" 6 "the stop from the signal to the exit"
expect_eq "$(ls -A "$T/slowsig")" "" "left in the target"
end

# The seeds ran a sweep to 128 clients with -t 5 on two CPUs: at 128 each
# client replayed a few per cent of the loadfile, its early part, and the
# point measured another workload than the point at 1, unsaid.
begin "--sweep=1,128 -t 3: a point too short for the workload says how much of the loadfile it replayed, in the JSON too"
d=$(target sweep)
"$DBENCH" --sweep=1,128 -t 3 -D "$d" --json="$T/sweep.json" >"$T/sweep.out" 2>&1
status_of "$T/sweep.out" $? 0
pass=$(jq '.runs[1].replayed.operations_per_pass' "$T/sweep.json")
# a pass of the built-in loadfile is some 40000 operations: 128 clients
# on a few CPUs replay far less than one each in 3 s
if [ "$(nproc)" -le 8 ]; then
	expect_eq "$(jq -c '.summary[1] | [.procs, .short_window, .replayed_share < 1]' \
		"$T/sweep.json")" '[128,true,true]' "the 128-client point"
fi
for i in 0 1; do
	n=$(jq ".runs[$i].config.nprocs" "$T/sweep.json")
	ops=$(jq ".runs[$i].replayed.median_operations" "$T/sweep.json")
	short=$(jq ".runs[$i].replayed.short_window" "$T/sweep.json")
	s=; [ "$n" -eq 1 ] || s=s
	if [ "$short" = true ]; then
		expect_match "$(cat "$T/sweep.out")" "^Short window: the median client replayed [0-9.]+ % of the loadfile \\($ops of $pass operations\\) in the measured window( and moved no data)?; the figures are those of that part of it, not of the whole workload\$"
		expect_match "$(cat "$T/sweep.out")" "^Short window at $n client$s: the median client replayed [0-9.]+ % of the loadfile in the measured window; the figures at that count are those of that part of it, not of the whole workload\$"
	else
		expect_no_match "$(cat "$T/sweep.out")" "^Short window at $n client$s:"
	fi
done
expect_match "$(cat "$T/sweep.out")" '^128 clients on [0-9]+ CPUs?: an operation.s latency includes its wait for a CPU$'
expect_eq "$(grep -c 'latency includes its wait for a CPU' "$T/sweep.out")" 1 "lines saying so"
end

begin "compare names two documents that replayed different shares of the loadfile"
jq '.runs[1]' "$T/sweep.json" >"$T/short.json"
jq '.runs[1] | .replayed.median_share = 1.5 | .replayed.short_window = false' \
	"$T/sweep.json" >"$T/whole.json"
out=$("$DBENCH" compare "$T/short.json" "$T/whole.json" 2>&1)
expect_match "$out" '^Warning: different shares of the loadfile at nprocs 128 \(B against A\): the median client replayed [0-9.]+ % of it in A.s measured window and 150 % in B.s; the two measured different parts of the workload$'
# a pass or more on both sides: each replayed the whole loadfile
jq '.replayed.median_share = 3' "$T/whole.json" >"$T/whole3.json"
expect_no_match "$("$DBENCH" compare "$T/whole.json" "$T/whole3.json" 2>&1)" 'different shares'
end

# The seeds' scenario: "dbench 775 on 5 partitions", five runs at once of
# 50, 50, 75, 150 and 450 clients, while a listing of a big directory was
# timed in each (--probe: 3000 files).  The partitions are ext4 images on
# a tmpfs (some 3 GB of it in all): on the root disk, a journal commit in
# one (an fsync, the Flush rows) waited for seconds behind the writeback
# of the others, and all 50 clients of a run slept in the kernel through
# their whole 3 s window (no work counted, 17 ms of CPU between them):
# the test's own writes, not the rule under test.
begin "five runs at once, 775 clients over five file systems, each timing a big listing: all end 0 and report it"
i=0 pids=
mount_tmpfs "$T/images" 8g || mkdir -p "$T/images"
for n in 50 50 75 150 450; do
	i=$((i + 1))
	d="$T/part$i"
	img="$T/images/part$i.img"
	mkdir -p "$d"
	if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null &&
	   { truncate -s 4G "$img" && mkfs.ext4 -q -F "$img" && mount -o loop "$img" "$d"; } \
	   >/dev/null 2>&1; then
		echo "# part$i: a loop-mounted ext4"
	else
		echo "# part$i: a directory (no loop mount here)"
	fi
	"$DBENCH" -t 3 --warmup 1 --probe -D "$d" --json="$T/part$i.json" $n \
		>"$T/part$i.out" 2>&1 &
	pids="$pids $!"
done
i=0
for p in $pids; do
	i=$((i + 1))
	wait $p
	status_of "$T/part$i.out" $? 0
	expect_eq "$(jq -c .status.exit_code "$T/part$i.json")" 0 "part$i: exit code"
	# a listing of 3000 names among 775 clients may take longer than the
	# window: then the one begun in the warmup is what the line times
	timed=$(jq -c '(.probe.count > 0 and .probe.max_ms > 0) or
		(.probe.straddled.count > 0 and .probe.straddled.max_ms > 0)' "$T/part$i.json")
	if { no_work part$i || [ "$timed" != true ]; } && starved part$i; then
		skip_load "part$i ($(jq .config.nprocs "$T/part$i.json") clients): no work or no listing timed in the window: $starved"
	else
		full_result "$T/part$i.out"
		expect_match "$(cat "$T/part$i.out")" '^Probe: .*(, max [0-9.]+ ms|, the longest [0-9.]+ ms)$'
		expect_eq "$timed" true "part$i: a listing timed"
	fi
	expect_eq "$(ls -A "$T/part$i" | grep -v lost+found)" "" "left in part$i"
	umount "$T/part$i" 2>/dev/null
done
umount "$T/images" 2>/dev/null	# its memory back
end

finish
