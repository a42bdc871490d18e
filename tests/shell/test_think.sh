# test_think.sh - --think-time: pauses between operations, never latency.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"
: >"$T/q.txt"
i=0
while [ $i -lt 1000 ]; do echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >>"$T/q.txt"; i=$((i + 1)); done

# within LOW HIGH VALUE
within() {
	awk -v lo="$1" -v hi="$2" -v v="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# A pause is never shorter than asked, and longer by the machine's delay
# in waking the client: the upper bounds are a quiet machine's, judged
# by expect_within against what the machine left the test (cpu_mark at
# the run's start); in seconds, the pauses' means in us / 1e6.
us() {
	echo "$1 / 1000000" | bc -l
}

begin "a fixed think time pauses each client before every operation, outside latency"
cpu_mark
"$DBENCH" --backend=null --run-once -q --think-time=1000 -c "$T/q.txt" -D "$T/d" \
	--json="$T/f.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/f.json")
awk -v v="$m" 'BEGIN { exit !(v >= 1000) }' || fail "mean pause $m us for --think-time=1000"
expect_within "$(us "$m")" 0.0015 "the mean pause for --think-time=1000"
# a pause taken into the latency would put the p99 at 1 ms at least
p99=$(jq .ops.QUERY_FS_INFORMATION.p99_ms "$T/f.json")
expect_within "$(echo "$p99 / 1000" | bc -l)" 0.0005 "the p99 latency (the pause kept out of it)"
el=$(jq .result.elapsed_s "$T/f.json")
awk -v v="$el" 'BEGIN { exit !(v >= 1.0) }' || fail "1000 pauses of 1 ms took $el s"
expect_within "$el" 10 "1000 pauses of 1 ms"
end

begin "exp:USEC pauses exponentially with that mean"
cpu_mark
"$DBENCH" --backend=null --run-once -q --think-time=exp:1000 -c "$T/q.txt" -D "$T/d" \
	--json="$T/e.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/e.json")
awk -v v="$m" 'BEGIN { exit !(v >= 850) }' || fail "mean pause $m us for exp:1000"
expect_within "$(us "$m")" 0.0014 "the mean pause for exp:1000"
end

begin "loadfile timestamps are reported as pauses too"
awk '{ printf "%.3f %s\n", NR * 0.001, $0 }' "$T/q.txt" >"$T/timed.txt"
cpu_mark
"$DBENCH" --backend=null --run-once -q -c "$T/timed.txt" -D "$T/d" --json="$T/t.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/t.json")
awk -v v="$m" 'BEGIN { exit !(v >= 500) }' || fail "mean pause $m us with 1 ms timestamps"
expect_within "$(us "$m")" 0.0015 "the mean pause with 1 ms timestamps"
end

begin "without pauses the mean pause is (next to) zero"
"$DBENCH" --backend=null --run-once -q -c "$T/q.txt" -D "$T/d" --json="$T/z.json" 1 >/dev/null
m=$(jq .result.think_time_mean_us "$T/z.json")
within 0 5 "$m" || fail "mean pause $m us with no think time"
end

for bad in "abc" "-5" "exp:" "exp:x" "1e9" ""; do
	begin "--think-time='$bad' is refused, exit 2"
	err=$("$DBENCH" --backend=null --run-once --think-time="$bad" -D "$T/d" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: --think-time '
	end
done

finish
