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

begin "a fixed think time pauses each client before every operation, outside latency"
"$DBENCH" --backend=null --run-once -q --think-time=1000 -c "$T/q.txt" -D "$T/d" \
	--json="$T/f.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/f.json")
within 1000 1500 "$m" || fail "mean pause $m us for --think-time=1000"
p99=$(jq .ops.QUERY_FS_INFORMATION.p99_ms "$T/f.json")
within 0 0.5 "$p99" || fail "p99 $p99 ms: the pause leaked into the latency"
el=$(jq .result.elapsed_s "$T/f.json")
within 1.0 10 "$el" || fail "1000 pauses of 1 ms took $el s"
end

begin "exp:USEC pauses exponentially with that mean"
"$DBENCH" --backend=null --run-once -q --think-time=exp:1000 -c "$T/q.txt" -D "$T/d" \
	--json="$T/e.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/e.json")
within 850 1400 "$m" || fail "mean pause $m us for exp:1000"
end

begin "loadfile timestamps are reported as pauses too"
awk '{ printf "%.3f %s\n", NR * 0.001, $0 }' "$T/q.txt" >"$T/timed.txt"
"$DBENCH" --backend=null --run-once -q -c "$T/timed.txt" -D "$T/d" --json="$T/t.json" 1 >/dev/null; rc=$?
expect_status $rc 0
m=$(jq .result.think_time_mean_us "$T/t.json")
within 500 1500 "$m" || fail "mean pause $m us with 1 ms timestamps"
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
