# test_compare.sh - "dbench compare A B": environment differences, verdicts,
# --fail-above and bad input, on documents from real (null backend) runs
# and copies of them edited with jq.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

# run FILE: one short run's document
run() {
	"$DBENCH" --backend=null --run-once -q --json="$1" -D "$T/d" 1 >/dev/null ||
		fail "the run for $1 failed"
}

# sweep OUT MB/S...: a sweep document of copies of r1.json, one run per
# throughput figure given
sweep() {
	out=$1
	shift
	printf '%s\n' "$@" | jq -s --slurpfile r "$T/r1.json" \
		'{sweep: {}, runs: map(. as $mb | $r[0] | .result.throughput_mb_s = $mb), summary: []}' \
		>"$out" || fail "cannot make $out"
}

# compare ARGS...: "dbench compare ARGS", its stderr kept in $T/err
compare() {
	"$DBENCH" compare "$@" 2>"$T/err"
}

# expect_rc GOT WANT: an exit status check that shows the error, if any
expect_rc() {
	[ "$1" -eq "$2" ] || fail "exit status $1, want $2: $(head -n 1 "$T/err")"
}

begin "dbench knows the compare subcommand"
run "$T/r1.json"
run "$T/r2.json"
out=$("$DBENCH" compare --help 2>&1); rc=$?
expect_status $rc 0
printf '%s\n' "$out" | grep -q 'A\.json B\.json' ||
	fail "'dbench compare --help' shows no compare usage: is compare wired into main.c?"
expect_match "$out" '--fail-above=PCT'
expect_match "$out" '--alpha=P'
# each form of the usage a command line a user can type as shown
expect_match "$out" '^Usage: dbench compare \[OPTION\.\.\.\] A\.json B\.json'
expect_match "$out" '^   or: dbench compare \[OPTION\.\.\.\] A1\.json .* -- B1\.json'
expect_match "$out" '^   or: dbench compare \[OPTION\.\.\.\] AB\.json'
end

begin "two runs of one machine: no environment differences, exit 0"
out=$(compare "$T/r1.json" "$T/r2.json"); rc=$?
expect_rc $rc 0
expect_match "$out" "^A: $T/r1.json \\(1 run at nprocs 1\\)\$"
expect_match "$out" '^Environments: no differences$'
expect_match "$out" '^ +1 +1/1 +[0-9.]+ +[0-9.]+ +[-+][0-9.]+% .* untested \(1 run a side\)$'
expect_match "$(compare --all "$T/r1.json" "$T/r2.json")" '^ +1  ReadX +1/1 '
end

begin "runs with --probe on both sides get a row for the listings' p99"
mkdir -p "$T/pd"
for f in pa pb; do
	"$DBENCH" --backend=null -q -t 2 --warmup 0 --probe -D "$T/pd" --json="$T/$f.json" 1 \
		>/dev/null || fail "the --probe run for $f failed"
done
# two listings have no p99 (it needs 100): no row from nothing
out=$(compare --all "$T/pa.json" "$T/pb.json"); rc=$?
expect_rc $rc 0
expect_no_match "$out" 'probe listing'
# as a run of 100 listings or more has it
for f in pa pb; do
	jq '.probe.p99_ms = 2.5' "$T/$f.json" >"$T/${f}99.json"
done
out=$(compare --all "$T/pa99.json" "$T/pb99.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^ +1  \(probe listing\) +1/1 +[0-9.]+ +[0-9.]+ '
out=$(compare "$T/r1.json" "$T/pb.json"); rc=$?
expect_no_match "$out" 'probe listing'
expect_match "$out" "^  config.probe_directory: null -> $T/pd/clients/probe\$"
end

begin "runs with two --probe directories on both sides get a row for each"
for f in pa pb; do
	jq '.probe.p99_ms = 2.5 | .probes = [.probe, (.probe | .p99_ms = 40)]' "$T/$f.json" \
		>"$T/${f}2.json"
done
jq '.probes[1].p99_ms = 80' "$T/pb2.json" >"$T/pb2s.json"
out=$(compare --all "$T/pa2.json" "$T/pb2s.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^ +1  \(probe listing\) +1/1 +2\.5 +2\.5 +\+0\.00% '
expect_match "$out" '^ +1  \(probe listing 2\) +1/1 +40 +80 +\+100\.00% .* untested \(1 run a side\)$'
out=$(compare --all "$T/pa2.json" "$T/pa99.json"); rc=$?
expect_no_match "$out" 'probe listing 2'
end

begin "each differing setting is listed with both values"
jq '.environment.kernel.release = "9.9.9-test" |
	.environment.targets[0].mount_options = "rw,noatime" |
	.environment.vm.swappiness = 1 | .config.fsync = true' "$T/r1.json" >"$T/env.json"
out=$(compare "$T/r1.json" "$T/env.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Environments differ:$'
expect_match "$out" "^  kernel.release: $(jq -r .environment.kernel.release "$T/r1.json") -> 9.9.9-test\$"
expect_match "$out" "^  targets\\[0\\].mount_options: $(jq -r '.environment.targets[0].mount_options' "$T/r1.json") -> rw,noatime\$"
expect_match "$out" "^  vm.swappiness: $(jq -r .environment.vm.swappiness "$T/r1.json") -> 1\$"
expect_match "$out" '^  config.fsync: false -> true$'
expect_eq "$(printf '%s\n' "$out" | grep -c '^  [a-z].*: .* -> ')" 4 "differences listed"
expect_no_match "$out" 'no differences'
end

# A pass of the built-in loadfile at 2 ms an operation is 80 s: a second
# of such a run says what it records, and the document compared is
# r1.json with that run's three settings.
begin "runs 0 us and 2000 us of think time apart: the options that shape the load differ"
"$DBENCH" --backend=null -t 1 --warmup 0 -q --think-time=2000 --no-resolve -x \
	--json="$T/think1.json" -D "$T/d" 1 >"$T/think.out" || fail "the --think-time run failed"
expect_match "$(cat "$T/think.out")" '^options: --think-time=2000 --xattr --no-resolve --backend=null$'
jq --slurpfile t "$T/think1.json" '.config += ($t[0].config |
	{think_time_us, xattr, no_resolve})' "$T/r1.json" >"$T/think.json" || fail "cannot make think.json"
out=$(compare "$T/r1.json" "$T/think.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Environments differ:$'
expect_match "$out" '^  config.think_time_us: 0(\.0)? -> 2000(\.0)?$'
expect_match "$out" '^  config.xattr: false -> true$'
expect_match "$out" '^  config.no_resolve: false -> true$'
expect_eq "$(printf '%s\n' "$out" | grep -c '^  [a-z].*: .* -> ')" 3 "differences listed"
end

begin "a clearly slower B, 3 runs each: slower, exit 3 under --fail-above=5"
sweep "$T/a.json" 100 110 90
sweep "$T/slow.json" 70 72 68
out=$(compare --fail-above=5 "$T/a.json" "$T/slow.json"); rc=$?
expect_rc $rc 3
expect_match "$out" '^A: .*a.json \(sweep, 3 runs at nprocs 1\)$'
expect_match "$out" '^ +1 +3/3 +100\.000 +70\.000 +-30\.00% +-[0-9.]+ +[0-9.]+ +[<0-9.]+ +\[-[0-9.]+, -[0-9.]+\] +slower$'
expect_match "$out" '^Regression: B is slower than A by more than 5% at nprocs 1$'
expect_no_match "$out" '^FAILED'
end

begin "the same slowdown within the limit exits 0 where its bound is within, on evidence"
# 30 % slower; by the one-sided 95 % bound at most 46.4 %: within 50, not 40
out=$(compare --fail-above=50 "$T/a.json" "$T/slow.json"); rc=$?
expect_rc $rc 0
expect_match "$out" 'slower$'
expect_match "$out" '^OK: B is nowhere slower than A by more than 50% \(at most 46\.4% slower, by the one-sided 95% bound\)$'
out=$(compare --fail-above=40 "$T/a.json" "$T/slow.json"); rc=$?
expect_rc $rc 4
expect_match "$out" '^Inconclusive: the runs cannot rule out a slowdown of B of up to 46\.4% at nprocs 1 \(need about [0-9]+ runs a side at this spread, CV 10\.0%\)$'
expect_no_match "$out" '^OK'
end

begin "equal means at a CV of 10 %, 3 runs: no change seen, but no OK under --fail-above=5"
sweep "$T/same.json" 92 108 101
out=$(compare --fail-above=5 "$T/a.json" "$T/same.json"); rc=$?
expect_rc $rc 4
expect_match "$out" '^ +1 +3/3 +100\.000 +100\.333 +\+0\.33% .* no significant change$'
expect_match "$out" '^Inconclusive: the runs cannot rule out a slowdown of B of up to [0-9.]+% at nprocs 1 \(need about [0-9]+ runs a side at this spread, CV 10\.0%\)$'
expect_no_match "$out" '^(FAILED|Regression|OK)'
end

begin "the gate passes only on evidence: OK, Inconclusive and Regression under --fail-above=5"
# known-equal sides, 8 runs each at a CV of 0.5 %: a 5 % slowdown is ruled out
sweep "$T/eq-a.json" 100 101 99 100.5 99.5 100.2 99.8 100.1
sweep "$T/eq-b.json" 100.3 99.6 100.4 99.9 100.1 100.6 99.7 100
out=$(compare --fail-above=5 "$T/eq-a.json" "$T/eq-b.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^OK: B is nowhere slower than A by more than 5% \(at most 0\.4% slower, by the one-sided 95% bound\)$'
echo "# the gate: $(printf '%s\n' "$out" | grep '^OK')"
# issue 44's series: 5 runs a side, CV 55 %, around a mean of 112 MB/s; the
# interval of B-A is some 180 MB/s wide: it rules out no slowdown of 5 %
sweep "$T/noisy-a.json" 40 190 95 165 70
sweep "$T/noisy-b.json" 50 185 60 150 93.5
out=$(compare --fail-above=5 "$T/noisy-a.json" "$T/noisy-b.json"); rc=$?
expect_rc $rc 4
expect_match "$out" '^ +1 +5/5 +112\.000 +107\.700 +-3\.84% .* no significant change$'
expect_match "$out" '^Inconclusive: the runs cannot rule out a slowdown of B of up to 67\.9% at nprocs 1; more than 30 runs a side would be needed at this spread \(CV 56\.7%\): reduce the spread first \(a longer -t, a quiet machine'
expect_no_match "$out" '^(OK|Regression)'
echo "# the gate: $(printf '%s\n' "$out" | grep '^Inconclusive' | cut -c1-120)..."
# a slowed copy of the equal side (the runs of -F on a slow disk): 20 %
# slower, significantly beyond 5 %
jq '.runs |= map(.result.throughput_mb_s *= 0.8)' "$T/eq-b.json" >"$T/eq-slow.json"
out=$(compare --fail-above=5 "$T/eq-a.json" "$T/eq-slow.json"); rc=$?
expect_rc $rc 3
expect_match "$out" '^Regression: B is slower than A by more than 5% at nprocs 1$'
expect_no_match "$out" '^(OK|Inconclusive)'
echo "# the gate: $(printf '%s\n' "$out" | grep '^Regression')"
end

begin "2 runs a side: a warning with the --repeat that would tell the change from noise"
sweep "$T/a2.json" 100 60
sweep "$T/b2.json" 30 28
out=$(compare "$T/a2.json" "$T/b2.json"); rc=$?
expect_rc $rc 0
expect_match "$out" ' no significant change$'
# CV of A: sd(100, 60) / 80 = 35.4 %; 386 runs a side give t(0.975, 770)
# * 35.36 * sqrt(2/386) = 4.996 <= 5, 385 give 5.003; 4 give t(0.975, 6)
# * 35.36 * sqrt(2/4) = 61.2, within the 63.75 % seen, and 3 give 80.2
expect_match "$out" '^Warning: weak evidence at nprocs 1 \(B against A\): 2 runs of A and 2 of B \(fewer than 3 a side\); CV 35\.4% in A \(above 10%\); at CV 35\.4%, --repeat=4 for a 95% interval of B-A within the 63\.7% seen; more than 30 runs a side would be needed for one within \+-5% of A.s mean: reduce the spread first \(a longer -t, a quiet machine, the clients pinned with --cpus, a fresh file system before each run: REPEATABLE FIGURES in dbench\(1\)\)$'
expect_match "$out" '^  \(--repeat=N: the smallest N, 3 at least, with t\(0\.975, 2N-2\) \* CV \* sqrt\(2/N\)'
expect_match "$out" '^Verdict: B against A: no significant change at nprocs 1; 1 warning above$'
end

begin "a CV above 10 % with enough runs: a warning; --fail-above is the width asked"
sweep "$T/noisy.json" 100 140 70 95
out=$(compare --fail-above=20 "$T/slow.json" "$T/noisy.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Warning: weak evidence at nprocs 1 \(B against A\): CV 28\.6% in B \(above 10%\); at CV 28\.6%, --repeat=[0-9]+ for a 95% interval of B-A within \+-20% of A.s mean'
expect_no_match "$out" 'fewer than 3'
end

begin "a run far from its group's median is named as an outlier, by file and place"
sweep "$T/out.json" 100 102 98 101 52
out=$(compare "$T/a.json" "$T/out.json"); rc=$?
expect_rc $rc 0
# median 100, distances 0 2 2 1 48: MAD 2, scaled 2.965; 48 / 2.965 = 16.2
expect_match "$out" "^Warning: outlier at nprocs 1: runs\\[4\\] of $T/out.json \\(B\\), 52\\.000 MB/sec, 16\\.2 MADs from the median 100\\.000 of its 5 runs\$"
expect_eq "$(printf '%s\n' "$out" | grep -c 'outlier')" 1 "outliers"
end

begin "steady evidence says so; one verdict line"
out=$(compare "$T/a.json" "$T/slow.json"); rc=$?
# 3 runs a side: steady, but too few to look for outliers in
expect_match "$out" '^Evidence: 3 or more runs a side, CV at most 10%$'
expect_match "$out" '^Outliers: not looked for where a side has fewer than 5 runs '
expect_no_match "$out" '^Warning'
expect_eq "$(printf '%s\n' "$out" | grep -c '^Verdict: ')" 1 "verdict lines"
expect_match "$out" '^Verdict: B against A: slower at nprocs 1$'
end

begin "p99 rows only where the change is significant; --all shows every row"
# ReadX twice as slow in every run of B, the totals doubled: a bucket of
# the logarithmic part (from 64 ns) an octave (64 buckets) up, one of the
# exact nanoseconds below 64 to the bucket of twice its value (2B: a null
# run's p99 can be under 64 ns, where +64 buckets would be 37 -> 101 ns)
jq '.runs |= map(.ops.ReadX.hist |= (.sum_ns *= 2 | .min_ns *= 2 | .max_ns *= 2 |
	.buckets |= (split(" ") | map(split(":") | (.[0] | tonumber) as $b |
		"\(if $b < 64 then 2 * $b else $b + 64 end):\(.[1])") | join(" "))))' \
	"$T/slow.json" >"$T/slowread.json"
out=$(compare "$T/a.json" "$T/slowread.json"); rc=$?
expect_rc $rc 0
expect_eq "$(printf '%s\n' "$out" | grep -cE '^ +1  [A-Za-z][^ ]* +3/3 ')" 1 "p99 rows"
# the pooled p99 doubles, and more of B's reads than of A's lie above
# the p99 of both sides pooled (copies of one run: no spread, p < 0.0001)
expect_match "$out" '^ +1  ReadX +3/3 +[0-9.e-]+ +[0-9.e-]+ +\+(99|10[0-9])\.[0-9]+% +[0-9.]+% +[0-9.]+% .* <0\.0001 +worse$'
expect_match "$out" '^  \(p99: each side.s runs pooled; >p99: the mean share of a run.s operations slower than the p99 of both sides pooled'
# the operations with a pooled p99 (from 100 of them in 3 runs on) each
# have a row
ops=$(jq '[.runs[0].ops[] | select(.count * 3 >= 100)] | length' "$T/a.json")
expect_match "$out" "^  \\($((ops - 1)) rows without a significant change left out: --all shows them\\)\$"
out=$(compare --all "$T/a.json" "$T/slowread.json")
expect_eq "$(printf '%s\n' "$out" | grep -cE '^ +1  [A-Za-z][^ ]* +3/3 ')" "$ops" "p99 rows with --all"
end

begin "runs saved without histograms are judged on each run's own p99"
for f in a slow; do
	jq '.runs |= map(.ops |= map_values(del(.hist)))' "$T/$f.json" >"$T/old-$f.json"
done
jq '.runs |= map(.ops.ReadX.p99_ms *= 10)' "$T/old-slow.json" >"$T/old-slowread.json"
out=$(compare "$T/old-a.json" "$T/old-slowread.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^ +1  ReadX +3/3 +[0-9.e-]+ +[0-9.e-]+ +\+900\.00% +- +- .* worse$'
expect_match "$out" '^  \(rows without >p99: runs saved without histograms, or the probe.s listings: the test compares each run.s own p99\)$'
end

begin "each side's disks at each count, the mean over its runs, one under the other"
# disk DOC KIB MERGED BUSY: every run of DOC writes KIB (then KIB+1, ...)
# KiB a request to sdz, MERGED % of them merged, BUSY % of the time busy
disk() {
	jq --argjson kib "$2" --argjson m "$3" --argjson b "$4" '.runs |= [to_entries[] | .key as $i |
		.value | .disks = [{device: "sdz", reads_s: 0, writes_s: (100 + $i),
		read_kib_per_request: null, write_kib_per_request: ($kib + $i), read_merged_pct: null,
		write_merged_pct: $m, queue_depth: 1.5, busy_pct: $b}]]' "$1" >"$1.disk" && mv "$1.disk" "$1"
}
sweep "$T/da.json" 100 110 90
sweep "$T/db.json" 70 72 68
disk "$T/da.json" 45 31 97
disk "$T/db.json" 12 2 60
out=$(compare "$T/da.json" "$T/db.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Disks, the mean over each side.s runs \(as iostat -x: '
expect_match "$out" '^nprocs  side  device +r/s +w/s +rareq-sz +wareq-sz +%rrqm +%wrqm +aqu-sz +%util +cli-MB +dev-MB +dev/cli +dirty-MB$'
# writes of 45, 46 and 47 KiB: 46 a request; 12, 13, 14: 13; runs saved
# without the writeback figures: none of them
expect_match "$out" '^ +1  A +sdz +0\.0 +101\.0 +- +46\.0 +- +31\.0 +1\.50 +97\.0 +- +- +- +-$'
expect_match "$out" '^ +1  B +sdz +0\.0 +101\.0 +- +13\.0 +- +2\.0 +1\.50 +60\.0 +- +- +- +-$'
expect_no_match "$out" '^Writeback'
jq '.runs |= map(.disks = [])' "$T/da.json" >"$T/nodisk.json"
expect_no_match "$(compare "$T/nodisk.json" "$T/nodisk.json")" '^Disks'
end

begin "a sweep's failed runs are ignored and counted"
sweep "$T/part.json" 70 72 68 1
jq '.runs[3].status.exit_code = 1' "$T/part.json" >"$T/part1.json"
out=$(compare "$T/a.json" "$T/part1.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^B: .*part1.json \(sweep, 4 runs at nprocs 1; 1 ignored: failed or without a throughput\)$'
expect_match "$out" '^ +1 +3/3 +100\.000 +70\.000 '
end

begin "single runs are untested: the difference shown, no verdict; --fail-above neither trips nor passes"
jq '.result.throughput_mb_s = 100' "$T/r1.json" >"$T/one-a.json"
jq '.result.throughput_mb_s = 94' "$T/r1.json" >"$T/one-b.json"
out=$(compare --fail-above=5 "$T/one-a.json" "$T/one-b.json"); rc=$?
expect_rc $rc 4
expect_match "$out" '^ +1 +1/1 +100\.000 +94\.000 +-6\.00% .* untested \(1 run a side\)$'
expect_match "$out" '^Verdict: B against A: untested \(a side of 1 run\) at nprocs 1; 1 warning above$'
expect_match "$out" '^Inconclusive: the runs cannot rule out a slowdown of B at nprocs 1 \(a side has a single run, no spread to judge by: --repeat=3 at least\)$'
expect_no_match "$out" '^OK'
# without --fail-above there is no exit status to earn
compare "$T/one-a.json" "$T/one-b.json" >/dev/null; rc=$?
expect_rc $rc 0
expect_no_match "$out" '^Regression'
# what could not be tested is said, with the runs a test needs, never
# read as a finding
expect_match "$out" '^  \(1 row untested: a side has a single run there, and a test needs 2 runs a side at least \(--repeat=2\)\)$'
expect_match "$out" '^  \(none of the [0-9]+ rows could be tested: a side has a single run there, and a test needs 2 runs a side at least \(--repeat=2\); --all shows them\)$'
expect_no_match "$out" 'no significant change in any'
expect_no_match "$out" '^Note: each file is a side of its own'
# single runs of two set-ups given without --: each file is judged alone,
# and the report says how to pool them
jq '.result.throughput_mb_s = 98' "$T/r1.json" >"$T/one-c.json"
out=$(compare "$T/one-a.json" "$T/one-c.json" "$T/one-b.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Note: each file is a side of its own, judged alone against A; to pool the runs of two set-ups into two sides, put -- between them: dbench compare A1\.json A2\.json -- B1\.json B2\.json$'
end

# sweep_wb OUT RATIO...: a sweep document of copies of r1.json, one run per
# ratio given, each with a device sda to which the clients wrote 100 MB and
# which wrote RATIO of it
sweep_wb() {
	out=$1
	shift
	printf '%s\n' "$@" | jq -s --slurpfile r "$T/r1.json" '{sweep: {}, runs: map(. as $x |
		$r[0] | .disks = [{device: "sda", under: "/mnt", clients_written_bytes: 1e8,
		written_bytes: ($x * 1e8), written_ratio: $x, dirty_end_bytes: 5e6}]),
		summary: []}' >"$out" || fail "cannot make $out"
}

begin "the share of the clients' writes that reached a device, tested run by run"
sweep_wb "$T/wa.json" 0.10 0.12 0.11
sweep_wb "$T/wb.json" 0.95 0.97 0.96
out=$(compare "$T/wa.json" "$T/wb.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^Writeback: bytes each device wrote over those the clients wrote beneath it \(dev/cli\), run by run$'
expect_match "$out" '^ +1  sda +3/3 +0\.11 +0\.96 +\+772\.7% +[0-9.]+ +4\.00 +<0\.0001  higher$'
# the disks table: MB the clients wrote and the device, pooled
expect_match "$out" '^ +1  A +sda .* 100\.0 +11\.0 +0\.110 +5\.0$'
expect_match "$out" '^ +1  B +sda .* 100\.0 +96\.0 +0\.960 +5\.0$'
sweep_wb "$T/w1.json" 0.95
out=$(compare "$T/wa.json" "$T/w1.json"); rc=$?
expect_match "$out" '^ +1  sda +3/1 .* untested \(1 run of B\)$'
end

begin "a document from dbench --sweep is read run by run"
"$DBENCH" --backend=null --run-once -q --sweep=1,2 --repeat=2 --settle=0 \
	--json="$T/sweep.json" -D "$T/d" >/dev/null 2>&1 || fail "the sweep failed"
out=$(compare --all "$T/sweep.json" "$T/sweep.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^A: .*sweep.json \(sweep, 4 runs at nprocs 1 2\)$'
expect_match "$out" '^ +1 +2/2 .* 1\.0000 .* no significant change$'
expect_match "$out" '^ +2 +2/2 .* 1\.0000 .* no significant change$'
expect_match "$out" '^ +2  ReadX +2/2 '
out=$(compare "$T/sweep.json" "$T/r1.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^ +1 +2/1 .* untested \(1 run of B\)$'
expect_match "$out" '^  nprocs 2: only in A$'
end

begin "a file that is missing, not JSON or not a result: exit 2, the file named"
echo 'Throughput 12 MB/sec' >"$T/text.json"
echo '{"hello": 1}' >"$T/other.json"
jq '.config.nprocs = 2' "$T/r1.json" >"$T/two.json"
for case in "missing.json|^dbench: cannot read '$T/missing.json': No such file or directory\$" \
	"text.json|^dbench: '$T/text.json' is not JSON: " \
	"other.json|^dbench: '$T/other.json' is not a dbench result: " \
	"two.json|^dbench: '$T/r1.json' and '$T/two.json' have no nprocs in common \\(1 against 2\\)\$"; do
	f=${case%%|*}
	out=$(compare "$T/r1.json" "$T/$f"); rc=$?
	expect_rc $rc 2
	expect_eq "$out" "" "stdout for $f"
	expect_eq "$(wc -l <"$T/err")" 1 "lines on stderr for $f"
	expect_match "$(cat "$T/err")" "${case#*|}"
done
end

begin "bad options and a missing file operand: exit 2"
for args in "--alpha=2 $T/r1.json $T/r2.json" "--fail-above=-1 $T/r1.json $T/r2.json" \
	"--alpha=x $T/r1.json $T/r2.json" "$T/r1.json" "$(printf "$T/r1.json %.0s" $(seq 27))"; do
	# shellcheck disable=SC2086 # split on purpose
	compare $args >/dev/null; rc=$?
	expect_rc $rc 2
	expect_match "$(head -n 1 "$T/err")" '^dbench: '
done
end

begin "a report that cannot be written to stdout: exit 1, said once on stderr"
err=$("$DBENCH" compare "$T/r1.json" "$T/r2.json" 2>&1 >/dev/full); rc=$?
expect_status $rc 1
expect_eq "$err" "dbench: cannot write standard output: No space left on device"
end

begin "three documents: each one's mean, high and low at each count, each against the first"
sweep "$T/c.json" 101 111 91
out=$(compare "$T/a.json" "$T/slow.json" "$T/c.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^C: .*c.json \(sweep, 3 runs at nprocs 1\)$'
expect_match "$out" '^Environments: no differences \(A -> C\)$'
expect_match "$out" '^ +1 +A +3 +100\.000 +110\.000 +90\.000 +- +- +- +baseline$'
expect_match "$out" '^ +1 +B +3 +70\.000 +72\.000 +68\.000 +-30\.00% +[<0-9.]+ +\[-[0-9.]+, -[0-9.]+\] +slower$'
expect_match "$out" '^ +1 +C +3 +101\.000 +111\.000 +91\.000 +\+1\.00% +[0-9.]+ +\[-[0-9.]+, [0-9.]+\] +no significant change$'
expect_match "$(compare --all "$T/a.json" "$T/slow.json" "$T/c.json")" '^ +1  ReadX +C +3/3 '
# three series are meant as three sides: no word of pooling
expect_no_match "$out" '^Note: each file is a side of its own'
end

begin "--fail-above judges each document against the first: exit 3, the slower one named"
out=$(compare --fail-above=5 "$T/a.json" "$T/c.json" "$T/slow.json"); rc=$?
expect_rc $rc 3
expect_match "$out" ' C is slower than A by more than 5% at nprocs 1$'
expect_no_match "$out" ' B is slower than A by more than'
# C 30 % slower, B within its spread: a regression wins over the inconclusive
expect_match "$out" '^Inconclusive: the runs cannot rule out a slowdown of B of up to '
out=$(compare --fail-above=5 "$T/eq-a.json" "$T/eq-b.json" "$T/eq-b.json"); rc=$?
expect_rc $rc 0
expect_match "$out" '^OK: B and C are nowhere slower than A by more than 5% \(at most 0\.4% slower, by the one-sided 95% bound\)$'
end

begin "a later document with no count in common with the first: exit 2, both named"
out=$(compare "$T/r1.json" "$T/r2.json" "$T/two.json"); rc=$?
expect_rc $rc 2
expect_eq "$out" "" "stdout"
expect_match "$(cat "$T/err")" "^dbench: '$T/r1.json' and '$T/two.json' have no nprocs in common \\(1 against 2\\)\$"
end

begin "compare --plot draws one series per side"
mkdir -p "$T/pd"
"$DBENCH" --sweep=1,2 --settle=0 --backend=null --run-once -q -D "$T/pd" --json="$T/pa.json" >/dev/null 2>&1
"$DBENCH" --sweep=1,2 --settle=0 --backend=null --run-once -q -D "$T/pd" --json="$T/pb.json" >/dev/null 2>&1
"$DBENCH" compare --plot="$T/c.svg" "$T/pa.json" "$T/pb.json" >/dev/null 2>&1; rc=$?
expect_status $rc 0
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/c.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_eq "$(grep -c "<g class='series'>" "$T/c.svg")" 2 "series"
expect_eq "$(grep -c "class='point'" "$T/c.svg")" 8 "points (2 sides x 2 counts x 2 panels)"
"$DBENCH" compare --plot="$T/c3.svg" "$T/pa.json" "$T/pb.json" "$T/pa.json" >/dev/null 2>&1; rc=$?
expect_status $rc 0
expect_eq "$(grep -c "<g class='series'>" "$T/c3.svg")" 3 "series of three documents"
end


begin "--label names each document in the header and in the plot's legend"
mkdir -p "$T/ld"
"$DBENCH" --backend=null --run-once -q --label='6.1 ext4' --json="$T/la.json" -D "$T/ld" 1 \
	>/dev/null || fail "the labelled run A failed"
"$DBENCH" --sweep=1 --repeat=2 --settle=0 --backend=null --run-once -q --label='6.2 <ext4>' \
	--json="$T/lb.json" -D "$T/ld" >/dev/null || fail "the labelled sweep B failed"
out=$(compare --plot="$T/l.svg" "$T/la.json" "$T/lb.json" "$T/r1.json"); rc=$?
expect_rc $rc 0
expect_match "$out" "^A: 6\\.1 ext4 \\($T/la\\.json: 1 run at nprocs 1\\)\$"
expect_match "$out" "^B: 6\\.2 <ext4> \\($T/lb\\.json: sweep, 2 runs at nprocs 1\\)\$"
expect_match "$out" "^C: $T/r1\\.json \\(1 run at nprocs 1\\)\$"
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/l.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_match "$(cat "$T/l.svg")" ">A: 6\\.1 ext4</text>\$"
expect_match "$(cat "$T/l.svg")" ">B: 6\\.2 &lt;ext4&gt;</text>\$"
expect_match "$(cat "$T/l.svg")" ">C: $T/r1\\.json</text>\$"
end

# with_p99 IN OUT MS: IN with every operation's p99 set to MS
with_p99() {
	jq --argjson ms "$3" '(if .runs then .runs[] else . end).ops |= map_values(.p99_ms = $ms | del(.hist))' \
		"$1" >"$2" || fail "cannot make $2"
}

begin "the plot's p99 panel turns logarithmic when the documents span more than two decades"
with_p99 "$T/pa.json" "$T/p99-fast.json" 0.5
with_p99 "$T/pb.json" "$T/p99-slow.json" 400
with_p99 "$T/pb.json" "$T/p99-near.json" 40
compare --plot="$T/wide.svg" "$T/p99-fast.json" "$T/p99-slow.json" >/dev/null; rc=$?
expect_rc $rc 0
expect_match "$(cat "$T/wide.svg")" ">p99 latency, ms \\(log scale\\)</text>\$"
for tick in 0.1 1 10 100 1000; do
	expect_match "$(cat "$T/wide.svg")" "<text class='tick' [^>]*>$tick</text>\$"
done
compare --plot="$T/narrow.svg" "$T/p99-fast.json" "$T/p99-near.json" >/dev/null; rc=$?
expect_rc $rc 0
expect_match "$(cat "$T/narrow.svg")" ">p99 latency, ms</text>\$"
compare --plot="$T/forced.svg" --plot-log "$T/p99-fast.json" "$T/p99-near.json" >/dev/null; rc=$?
expect_rc $rc 0
expect_match "$(cat "$T/forced.svg")" ">p99 latency, ms \\(log scale\\)</text>\$"
compare --plot-log "$T/p99-fast.json" "$T/p99-near.json" >/dev/null; rc=$?
expect_rc $rc 2
expect_eq "$(cat "$T/err")" "dbench: --plot-log goes with --plot"
end

begin "the plot marks a significant change from A with an asterisk, and its legend says so"
# a.json: 100 110 90; same.json: 92 108 101 (p 0.97); slow.json: 70 72 68 (p 0.03)
compare --plot="$T/marks.svg" "$T/a.json" "$T/same.json" "$T/slow.json" >/dev/null; rc=$?
expect_rc $rc 0
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/marks.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_eq "$(grep -c "class='mark'" "$T/marks.svg")" 1 "marks"
expect_match "$(grep "class='mark'" "$T/marks.svg")" "fill='#2ca02c'[^>]*>\\*<title>1 client: a significant change</title>"
expect_match "$(cat "$T/marks.svg")" ">marks a throughput significantly different from A's \\(Welch's t-test, p &lt; 0\\.05\\)</tspan>"
compare --alpha=0.01 --plot="$T/marks01.svg" "$T/a.json" "$T/same.json" "$T/slow.json" >/dev/null
rc=$?
expect_rc $rc 0
expect_eq "$(grep -c "class='mark'" "$T/marks01.svg")" 0 "marks at --alpha=0.01"
expect_match "$(cat "$T/marks01.svg")" "\\(Welch's t-test, p &lt; 0\\.01\\)</tspan>"
compare --plot="$T/nomarks.svg" "$T/r1.json" "$T/r2.json" >/dev/null; rc=$?
expect_rc $rc 0
expect_eq "$(grep -c "class='mark'" "$T/nomarks.svg")" 0 "marks with single runs"
expect_match "$(cat "$T/nomarks.svg")" ">marks a significant change from A; none here: a test needs 2 or more runs on each side</tspan>"
end

# one FILE MB/S: a single run's document, a copy of r1.json at that throughput
one() {
	jq --argjson mb "$2" '.result.throughput_mb_s = $mb' "$T/r1.json" >"$1" || fail "cannot make $1"
}

# timed DOC START STEP: DOC's runs started STEP seconds apart from START (epoch)
timed() {
	jq --argjson t "$2" --argjson s "$3" \
		'.runs |= [to_entries[] | .value.started_at = (($t + .key * $s) | todate) | .value]' \
		"$1" >"$1.t" && mv "$1.t" "$1"
}

# waits DOC PCT: every run of DOC's clients waited PCT % of their time for a CPU
waits() {
	jq --argjson w "$2" '.runs |= map(.host.cpu_wait_pct = $w)' "$1" >"$1.w" && mv "$1.w" "$1"
}

begin "files around -- are pooled into two sides, to the verdict of the same runs in one document"
i=0
for mb in 100 110 90; do i=$((i + 1)); one "$T/pa-$i.json" $mb; done
i=0
for mb in 70 72 68; do i=$((i + 1)); one "$T/pb-$i.json" $mb; done
pooled=$(compare --fail-above=5 "$T"/pa-*.json -- "$T"/pb-*.json); rc=$?
expect_rc $rc 3
whole=$(compare --fail-above=5 "$T/a.json" "$T/slow.json")
expect_match "$pooled" "^A: $T/pa-1.json and 2 more \\(pooled from 3 files, 3 runs at nprocs 1\\)\$"
expect_match "$pooled" "^B: $T/pb-1.json and 2 more \\(pooled from 3 files, 3 runs at nprocs 1\\)\$"
for what in '^ +1 +3/3 ' '^Verdict: ' '^Regression: '; do
	expect_eq "$(printf '%s\n' "$pooled" | grep -E "$what")" \
		"$(printf '%s\n' "$whole" | grep -E "$what")" "$what"
done
end

begin "options after -- are options, as in git; a second -- is refused"
# the man page's form: dbench compare a-*.json -- b-*.json --fail-above=5
after=$(compare "$T"/pa-*.json -- "$T"/pb-*.json --fail-above=5); rc=$?
expect_rc $rc 3
expect_eq "$after" "$pooled" "the report with --fail-above after --"
expect_eq "$(compare "$T"/pa-*.json -- --fail-above=5 "$T"/pb-*.json)" "$pooled" \
	"the report with --fail-above between"
compare "$T"/pa-*.json -- "$T"/pb-*.json --no-such >/dev/null; rc=$?
expect_rc $rc 2
expect_eq "$(cat "$T/err")" "dbench: --no-such: unknown option (dbench compare --help lists the options)" \
	"an unknown option after --"
compare "$T/pa-1.json" -- "$T/pb-1.json" -- "$T/pb-2.json" >/dev/null; rc=$?
expect_rc $rc 2
expect_eq "$(cat "$T/err")" "dbench: compare with -- takes side A's files before it and side B's after it, one or more each, and one -- between them" \
	"a second --"
end

begin "a side whose files differ in a setting that shapes the load is refused, naming it"
jq '.config.sync = true | .config.timelimit_s = 9' "$T/pb-3.json" >"$T/pb-sync.json"
compare "$T"/pa-*.json -- "$T/pb-1.json" "$T/pb-sync.json" >/dev/null; rc=$?
expect_rc $rc 2
expect_eq "$(cat "$T/err")" "dbench: '$T/pb-1.json' and '$T/pb-sync.json' cannot be pooled into one side: they differ in settings that shape the load: timelimit_s (600 -> 9), sync (false -> true)" \
	"the message"
compare "$T"/pa-*.json -- >/dev/null; rc=$?
expect_rc $rc 2
expect_match "$(cat "$T/err")" "^dbench: compare with -- takes side A's files before it and side B's after it"
end

begin "an outlier in a pooled side is named by its file"
i=0
for mb in 100 102 98 101 52; do i=$((i + 1)); one "$T/po-$i.json" $mb; done
out=$(compare "$T"/pa-*.json -- "$T"/po-*.json); rc=$?
expect_rc $rc 0
expect_match "$out" "^Warning: outlier at nprocs 1: $T/po-5.json \\(B\\), 52\\.000 MB/sec, 16\\.2 MADs from the median 100\\.000 of its 5 runs\$"
end

begin "each side's runs in one block on one host: the verdict says so, with dbench ab as the remedy"
cp "$T/a.json" "$T/ba.json"
cp "$T/slow.json" "$T/bb.json"
timed "$T/ba.json" 1700000000 10
timed "$T/bb.json" 1700000100 10
out=$(compare "$T/ba.json" "$T/bb.json"); rc=$?
expect_match "$out" "^Verdict: B against A: slower at nprocs 1; A's runs all came before B's, on one host: a change of the machine between the two would look the same \\(dbench ab alternates the sides\\)\$"
expect_match "$out" "^  nprocs 1: A's runs all came before B's, on one host\$"
# alternated, the same runs say nothing of it
timed "$T/bb.json" 1700000005 10
expect_match "$(compare "$T/ba.json" "$T/bb.json")" "^Verdict: B against A: slower at nprocs 1\$"
end

begin "the machine busier during B's runs: inconclusive, exit 4 under --fail-above, not 3"
cp "$T/a.json" "$T/ha.json"
cp "$T/slow.json" "$T/hb.json"
waits "$T/ha.json" 10
waits "$T/hb.json" 60
out=$(compare --fail-above=5 "$T/ha.json" "$T/hb.json"); rc=$?
expect_rc $rc 4
# 30 % slower, but 60 % of B's time waiting for a CPU against 10 % of A's
expect_match "$out" '^ +1 +3/3 .* inconclusive: host load$'
expect_match "$out" "^Verdict: B against A: inconclusive: the machine was busier during B's runs at nprocs 1\$"
expect_match "$out" "^Inconclusive: B is slower than A by more than 5% at nprocs 1, but the machine's load or drift could explain it"
expect_no_match "$out" '^Regression'
expect_match "$out" '^ +1  B +3 +60\.0% '
# a little more waiting cannot explain 30 %: still slower, exit 3
waits "$T/hb.json" 15
out=$(compare --fail-above=5 "$T/ha.json" "$T/hb.json"); rc=$?
expect_rc $rc 3
expect_match "$out" '^Verdict: B against A: slower at nprocs 1$'
end

begin "a side that drifted over its runs, made in one block: inconclusive"
sweep "$T/da.json" 110 108 106 104 102
sweep "$T/db.json" 90 91 89 90 91
timed "$T/da.json" 1700000000 10
timed "$T/db.json" 1700000100 10
out=$(compare --fail-above=5 "$T/da.json" "$T/db.json"); rc=$?
expect_rc $rc 4
expect_match "$out" "^  nprocs 1: A's throughput drifted over its runs \\(rho -1\\.00, p 0\\.0167\\)\$"
expect_match "$out" "^Verdict: B against A: inconclusive: A's throughput drifted over its runs, made in one block at nprocs 1; A's runs all came before B's"
# alternated, the drift weighs on both sides alike: a verdict, the drift noted
timed "$T/db.json" 1700000005 10
out=$(compare --fail-above=5 "$T/da.json" "$T/db.json"); rc=$?
expect_rc $rc 3
expect_match "$out" "^  nprocs 1: A's throughput drifted over its runs \\(rho -1\\.00, p 0\\.0167\\); the sides alternated, so a drift of the machine weighs on both alike\$"
end

finish
