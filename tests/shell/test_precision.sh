# test_precision.sh - --precision=PCT with --repeat=MAX: repeat each client
# count until the 95 % interval of the mean is within +-PCT % of it.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"
# short timed runs of the null backend: the generator alone, no disk;
# paced to 20 MB/sec a client where the runs must agree closely
quick="-t 1 --warmup=0 --settle=0 --backend=null -q -D $T/d"
paced="$quick -R 20"

# t(0.975, n - 1) for n = 2 .. 6, from the tables
t975() {
	case $1 in 2) echo 12.7062047 ;; 3) echo 4.30265273 ;; 4) echo 3.18244631 ;;
	5) echo 2.77644511 ;; 6) echo 2.57058184 ;; *) echo 0 ;; esac
}

# interval_ok FILE PROCS: the summary's interval at PROCS, recomputed from
# the runs with the t table above, agrees to a millionth of the mean.  A
# throughput is never negative, so the lower bound is cut at 0 (runs far
# apart, as on a busy machine, can reach below it).
interval_ok() {
	jq -r --argjson p "$2" '.runs[] | select(.config.nprocs == $p and .status.exit_code == 0) |
		.result.throughput_mb_s' "$1" >"$T/tp"
	n=$(wc -l <"$T/tp")
	want=$(awk -v t="$(t975 "$n")" '{ v[NR] = $1; s += $1 } END {
		m = s / NR; for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2
		h = t * sqrt(q / (NR - 1)) / sqrt(NR)
		printf "%.9g %.9g %.9g %.9g\n", m, (m - h > 0 ? m - h : 0), m + h, h / m * 100 }' "$T/tp")
	got=$(jq -r --argjson p "$2" '.summary[] | select(.procs == $p) |
		"\(.mean) \(.ci95_low) \(.ci95_high) \(.ci95_pct)"' "$1")
	echo "$want $got" | awk '{ m = $1; for (i = 1; i <= 4; i++) {
		d = $i - $(i + 4); if (d < 0) d = -d
		if (d > (i == 4 ? 1e-6 : m * 1e-6)) exit 1 } }'
}

# precision_series NAME RUNS SUMMARY OPTION...: a series of one client,
# its document NAME.json and CSV NAME.csv in $T, its text in $out; the
# exit status, the number of runs and [[procs, runs, reached]] checked
precision_series() {
	name=$1 runs=$2 summary=$3
	shift 3
	out=$("$DBENCH" "$@" --json="$T/$name.json" --csv="$T/$name.csv" 1); rc=$?
	expect_status $rc 0
	expect_eq "$(jq '.runs | length' "$T/$name.json")" "$runs" "runs"
	expect_eq "$(jq -c '[.summary[] | [.procs, .runs, .precision_reached]]' "$T/$name.json")" \
		"$summary" "summary"
}

begin "a loose target stops a count after 3 runs and says it was reached"
precision_series loose 3 "[[1,3,true]]" $paced --precision=100 --repeat=8
expect_eq "$(jq -c '.sweep | [.repeat, .precision_pct]' "$T/loose.json")" "[8,100]" "sweep settings"
expect_match "$out" '^Precision: the 95% interval is within \+-100% of the mean at every client count$'
expect_eq "$(printf '%s\n' "$out" | grep -c '^Throughput ')" 3 "Throughput lines"
# the total and the time left are the most --repeat allows: 8 and 6 runs
# of 1 s at least (more where a busy machine made the runs so far take
# longer, which the time left counts)
for r in 1:8 3:6; do
	left=$(printf '%s\n' "$out" | sed -n "s/^Run ${r%:*} of at most 8: 1 client, repeat ${r%:*} of at most 8; at most about \([0-9]*\) s left .*/\1/p")
	[ -n "$left" ] && [ "$left" -ge "${r#*:}" ] ||
		fail "run ${r%:*}: '$(printf '%s\n' "$out" | grep "^Run ${r%:*} of")', want at most about ${r#*:} s left or more"
done
end

begin "an unreachable target stops at --repeat runs and names the count that missed it"
precision_series tight 4 "[[1,4,false]]" $quick --precision=0.000001 --repeat=4
expect_match "$out" '^Precision: 1 client, run 2 of at most 4: 95% interval \+-[0-9.]+% of the mean over 2 runs \(target \+-1e-06%\)$'
expect_match "$out" '^Precision: not reached at 1 client \(4 runs, \+-[0-9.]+%\): the 95% interval is wider than \+-1e-06% of the mean after --repeat=4 runs$'
end

begin "the interval in the document is the mean +- t(0.975, n-1) s / sqrt(n) of its runs"
interval_ok "$T/tight.json" 1 || fail "4 runs: summary $(jq -c '.summary' "$T/tight.json")"
interval_ok "$T/loose.json" 1 || fail "3 runs: summary $(jq -c '.summary' "$T/loose.json")"
end

begin "the CSV carries the interval of each row's client count"
# columns 11 and 12; the devices' columns, if any, come after them
expect_eq "$(head -n 1 "$T/tight.csv" | cut -d, -f11-12)" "ci95_low_mb_s,ci95_high_mb_s" "header"
want=$(jq -r '.summary[0] | "\(.ci95_low) \(.ci95_high)"' "$T/tight.json" |
	awk '{ printf "%.6f,%.6f", $1, $2 }')
expect_eq "$(sed 1d "$T/tight.csv" | cut -d, -f11-12 | sort -u)" "$want" "interval columns"
end

begin "in a sweep each count stops on its own, each with its interval"
"$DBENCH" $paced --sweep=1,2 --precision=100 --repeat=5 --json="$T/sw.json" >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -c '[.runs[].config.nprocs]' "$T/sw.json")" "[1,1,1,2,2,2]" "runs"
interval_ok "$T/sw.json" 1 || fail "interval at 1"
interval_ok "$T/sw.json" 2 || fail "interval at 2"
end

begin "--repeat with NPROCS is a sweep of that one count; a single run has no interval"
"$DBENCH" $quick --repeat=1 1 --json="$T/one.json" >"$T/one.txt"; rc=$?
expect_status $rc 0
expect_eq "$(jq -c '[.summary[] | [.runs, .ci95_low, .ci95_pct]]' "$T/one.json")" "[[1,null,null]]" "summary"
# nor a standard deviation or CV: all three are undefined
expect_match "$(cat "$T/one.txt")" '^ +1 +1( +[0-9]+\.[0-9]+){3}( +-){3} +[0-9.]+ +[0-9.]+$'
end

begin "compare shows each side's interval and a target that was not reached"
out=$("$DBENCH" compare "$T/loose.json" "$T/tight.json"); rc=$?
expect_status $rc 0
expect_match "$out" '^Precision of each mean'
expect_match "$out" '^ +1 +[0-9.]+ \+-[0-9.]+% \(3 runs\) +[0-9.]+ \+-[0-9.]+% \(4 runs\), target \+-1e-06% not reached$'
end

for args in "--precision=0 1" "--precision=-5 1" "--precision=101 1" "--precision=abc 1" \
	"--precision=nan 1" "--precision=5 --repeat=2 1" "--precision=5 --repeat=0 1"; do
	begin "refused with exit 2: $args"
	err=$("$DBENCH" $args -t 1 -D "$T/d" 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: --(precision|repeat) '
	expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
	end
done
finish
