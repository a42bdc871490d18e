# test_sweep.sh - --sweep: many runs, the classic lines, one summary.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

begin "a sweep runs every count and repeat, keeps each Throughput line, ends with a summary"
out=$("$DBENCH" --sweep=1,2 --repeat=2 --settle=0 --run-once -q -D "$T/d" \
	--json="$T/s.json" --csv="$T/s.csv"); rc=$?
expect_status $rc 0
expect_eq "$(printf '%s\n' "$out" | grep -c '^Throughput .*  1 procs$')" 2 "1-proc runs"
expect_eq "$(printf '%s\n' "$out" | grep -c '^Throughput .*  2 procs$')" 2 "2-proc runs"
expect_match "$out" '^ +procs +runs +mean +high +low +stddev +cv% +ci95% +p99 +max$'
expect_match "$out" '^ +1 +2( +[0-9]+\.[0-9]+){8}$'
expect_match "$out" '^ +2 +2( +[0-9]+\.[0-9]+){8}$'
expect_match "$out" '^Run 1 of 4: 1 client, repeat 1 of 2; no time left to tell \(--run-once\)$'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
# the document: of schema 3, every member of include/dockeys.def
expect_eq "$(jq -c '[keys_unsorted[0], .schema, [.runs[].schema]]' "$T/s.json")" \
	'["schema",3,[3,3,3,3]]' "the schema"
out=$("$UNIT_DIR/dockeys" check "$T/s.json") || fail "$out"
end

begin "a sweep of runs too short for any p99 shows none, not 0"
printf 'QUERY_FS_INFORMATION 1 NT_STATUS_OK\n%.0s' 1 2 3 4 5 >"$T/five.txt"
out=$("$DBENCH" --sweep=1 --repeat=2 --settle=0 --run-once -q --backend=null -c "$T/five.txt" \
	-D "$T/d" --json="$T/five.json" --csv="$T/five.csv"); rc=$?
expect_status $rc 0
expect_match "$out" '^ +1 +2( +[0-9]+\.[0-9]+){5} +- +- +[0-9]+\.[0-9]+$'
expect_eq "$(jq '.summary[0].p99_ms' "$T/five.json")" null "summary p99_ms"
expect_eq "$(tail -n +2 "$T/five.csv" | cut -d, -f8 | tr '\n' ' ')" "  " "CSV p99_ms"
end

begin "one run at a count has no spread: stddev and cv% are -, null in JSON, not 0"
out=$("$DBENCH" --sweep=1 --settle=0 --run-once -q --backend=null -D "$T/d" --json="$T/one.json"); rc=$?
expect_status $rc 0
# mean high low, then stddev cv% ci95% undefined, then p99 and max
expect_match "$out" '^ +1 +1( +[0-9]+\.[0-9]+){3}( +-){3}( +[0-9]+\.[0-9]+){2}$'
expect_eq "$(jq -c '.summary[0] | [.stddev, .cv_pct, .ci95_pct]' "$T/one.json")" "[null,null,null]" \
	"undefined spreads"
end

begin "each run of a sweep says which of how many it is, and the time left as planned"
out=$("$DBENCH" --sweep=1,2 --repeat=2 --settle=1 -t 1 --warmup=1 --backend=null -q -D "$T/d"); rc=$?
expect_status $rc 0
# 2 s a run, 1 s of settle between runs; from the second run on, the
# setup and cleanup the runs took on top (a few tenths of a second each
# here, more on a busy machine: at least the plan, never less)
runs=$(printf '%s\n' "$out" | grep '^Run ')
expect_eq "$(printf '%s\n' "$runs" | head -n 1)" \
	"Run 1 of 4: 1 client, repeat 1 of 2; about 11 s left (warmup + time limit + settle per run, setup and cleanup on top, not measured yet)" \
	"the first Run line"
printf '%s\n' "$runs" | sed 1d | sed -E 's/ (about ([0-9]+ min )?[0-9]+ s left)//' >"$T/runs"
expect_eq "$(cat "$T/runs")" \
"Run 2 of 4: 1 client, repeat 2 of 2; (warmup + time limit + settle per run, setup and cleanup as the runs so far took them)
Run 3 of 4: 2 clients, repeat 1 of 2; (warmup + time limit + settle per run, setup and cleanup as the runs so far took them)
Run 4 of 4: 2 clients, repeat 2 of 2; (warmup + time limit + settle per run, setup and cleanup as the runs so far took them)" \
	"the later Run lines"
planned="8 5 2"
for s in $(printf '%s\n' "$runs" | sed 1d | sed -nE 's/.*about ([0-9]+) s left.*/\1/p'); do
	set -- $planned
	[ "$s" -ge "$1" ] || fail "said $s s left where the plan alone leaves $1"
	shift; planned="$*"
done
end

begin "the time left counts the setup and cleanup the runs so far took (here a 2 s --prepare)"
pout=$("$DBENCH" --sweep=1 --repeat=3 --settle=0 -t 1 --warmup=0 --backend=null -q -D "$T/d" \
	--prepare='sleep 2' 2>&1); rc=$?
expect_status $rc 0
expect_match "$pout" '^Run 1 of 3: 1 client, repeat 1 of 3; about 3 s left '
# 2 runs of 1 s and at least 2 s of --prepare each: 6 s at least (4 s
# is not wrong only when the prepare is forgotten)
left=$(printf '%s\n' "$pout" | sed -nE 's/^Run 2 of 3: .*; about ([0-9]+) s left .*/\1/p')
[ "${left:-0}" -ge 6 ] || fail "run 2 said ${left:-no} s left, want 6 s at least"
end

begin "--prepare and --cleanup run around every run, the count, run and repeat in their environment"
pout=$("$DBENCH" --sweep=1,2 --repeat=2 --settle=0 --run-once --backend=null -q -D "$T/d" \
	--prepare='echo "prepare $DBENCH_NPROCS $DBENCH_RUN $DBENCH_REPEAT"' \
	--cleanup='echo "cleanup $DBENCH_NPROCS $DBENCH_RUN $DBENCH_REPEAT"' --json="$T/pc.json" 2>&1); rc=$?
expect_status $rc 0
expect_eq "$(printf '%s\n' "$pout" | grep -E '^(prepare|cleanup|Throughput) ' | sed -E 's/^Throughput .*  ([0-9]+) procs$/run \1/')" \
"prepare 1 1 1
run 1
cleanup 1 1 1
prepare 1 2 2
run 1
cleanup 1 2 2
prepare 2 3 1
run 2
cleanup 2 3 1
prepare 2 4 2
run 2
cleanup 2 4 2" "the order"
expect_eq "$(jq -c '.sweep | [.prepare, .cleanup]' "$T/pc.json")" \
	'["echo \"prepare $DBENCH_NPROCS $DBENCH_RUN $DBENCH_REPEAT\"","echo \"cleanup $DBENCH_NPROCS $DBENCH_RUN $DBENCH_REPEAT\""]' \
	"sweep.prepare and sweep.cleanup"
end

begin "a --prepare or --cleanup that fails stops the sweep: exit 1, the reason, the runs made kept"
pout=$("$DBENCH" --sweep=1,2 --repeat=2 --settle=0 --run-once --backend=null -q -D "$T/d" \
	--prepare='[ "$DBENCH_RUN" -lt 3 ]' --json="$T/pf.json" 2>&1); rc=$?
expect_status $rc 1
expect_match "$pout" '^dbench: --prepare failed before run 3 \(2 clients, repeat 1\): exit status 1: the sweep stops after 2 of 4 runs$'
expect_eq "$(jq '.runs | length' "$T/pf.json")" 2 "runs kept"
pout=$("$DBENCH" --sweep=1,2 --settle=0 --run-once --backend=null -q -D "$T/d" \
	--cleanup='kill -9 $$' --json="$T/cf.json" 2>&1); rc=$?
expect_status $rc 1
expect_match "$pout" '^dbench: --cleanup failed after run 1 \(1 client, repeat 1\): killed by signal 9 \(Killed\): the sweep stops after 1 of 2 runs$'
expect_eq "$(jq '.runs | length' "$T/cf.json")" 1 "runs kept"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
err=$("$DBENCH" --backend=null --run-once -D "$T/d" --prepare=true 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --settle, --drop-caches, --prepare and --cleanup go with --sweep, --repeat, --precision, --csv or --plot"
err=$("$DBENCH" --backend=null --run-once -D "$T/d" --sweep=1 --cleanup= 2>&1); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --cleanup needs a command"
end

begin "the sweep document holds every run and a summary per count"
expect_eq "$(jq '.runs | length' "$T/s.json")" 4 "runs"
expect_eq "$(jq -c '[.runs[].config.nprocs]' "$T/s.json")" "[1,1,2,2]" "run order"
expect_eq "$(jq -c '[.summary[].procs]' "$T/s.json")" "[1,2]" "summary procs"
for k in procs runs mean high low stddev cv_pct ci95_low ci95_high ci95_pct p99_ms max_ms; do
	jq -e ".summary[0] | has(\"$k\")" "$T/s.json" >/dev/null || fail "no summary.$k"
done
jq -e '.summary[] as $s | [.runs[] | select(.config.nprocs == $s.procs) | .result.throughput_mb_s] as $t |
	(($t | add / length) - $s.mean | fabs) < 1e-9 and ($t | max) == $s.high and ($t | min) == $s.low and
	(((($t | map((. - $s.mean) * (. - $s.mean)) | add) / (($t | length) - 1) | sqrt) - $s.stddev | fabs) < 1e-9) and
	((($s.stddev / $s.mean * 100) - $s.cv_pct | fabs) < 1e-9)' \
	"$T/s.json" >/dev/null || fail "summary does not match the runs"
end

# The figures of a device in the runs' "disks", in the order shown; the
# summary's are the means over the runs, but the ratio of written bytes,
# which is the runs' bytes pooled.
csv_keys='["reads_s","writes_s","read_kib_per_request","write_kib_per_request","read_merged_pct","write_merged_pct","queue_depth","busy_pct","clients_written_bytes","written_bytes","written_ratio","dirty_end_bytes"]'
disk_keys="$(printf '%s' "$csv_keys" | sed 's/,"written_ratio"//')"
# The devices the runs recorded, in the order first met.
devices='reduce (.runs[].disks[].device) as $d ([]; if index([$d]) then . else . + [$d] end)'

# same_cells WANT GOT: the two files' comma-separated cells, row by row,
# are both empty or the same numbers (to 1e-6).
same_cells() {
	paste -d'|' "$1" "$2" | awk -F'|' '{
		n = split($1, w, ","); split($2, g, ",")
		for (i = 1; i <= n; i++)
			if ((w[i] == "") != (g[i] == "") || (w[i] != "" && (w[i] - g[i] > 1e-6 || g[i] - w[i] > 1e-6)))
				{ print "run " NR ", column " i ": " g[i] ", want " w[i]; exit 1 }
	}' >"$T/diff" || fail "$(cat "$T/diff")"
}

# The CSV's first device column: after the 13 of every run (the last
# its label) and an OP_p99_ms for each operation.
first_dev=$((14 + $(head -n 1 "$T/s.csv" | tr , '\n' | grep -c '._p99_ms$')))

begin "--csv writes a header and one row per run"
expect_eq "$(head -n 1 "$T/s.csv" | cut -d, -f1-13)" \
	"procs,repeat,exit_code,throughput_mb_s,elapsed_s,operations,errors,p99_ms,max_latency_ms,started_at,ci95_low_mb_s,ci95_high_mb_s,label" "header"
expect_eq "$(head -n 1 "$T/s.csv" | cut -d, -f$first_dev-)" \
	"$(jq -r "$csv_keys as \$k | [$devices | .[] as \$d | \$k[] | \"\\(\$d)_\\(.)\"] | join(\",\")" "$T/s.json")" \
	"the devices' columns"
expect_eq "$(sed 1d "$T/s.csv" | cut -d, -f1-3 | tr '\n' ' ')" "1,1,0 1,2,0 2,1,0 2,2,0 " "rows"
end

begin "--csv: each run's row holds what each device did in that run"
[ "$(jq "[$devices] | length" "$T/s.json")" -gt 0 ] || echo "# no block device under $T: no device columns"
jq -r "$csv_keys as \$k | ($devices) as \$all | .runs[] | . as \$r |
	[\$all[] as \$d | (\$r.disks | map(select(.device == \$d))[0]) as \$e |
	 \$k[] | (\$e[.] // \"\") | tostring] | join(\",\")" "$T/s.json" >"$T/want.csv"
sed 1d "$T/s.csv" | cut -d, -f$first_dev- >"$T/got.csv"
same_cells "$T/want.csv" "$T/got.csv"
end

begin "--csv: a p99 column for each operation, each row the run's own, empty where it has none"
jq -r '[.runs[].ops | to_entries[] | select(.value.p99_ms != null) | .key] |
	reduce .[] as $o ([]; if index([$o]) then . else . + [$o] end) | map(. + "_p99_ms") | join(",")' \
	"$T/s.json" >"$T/want.csv"
expect_eq "$(head -n 1 "$T/s.csv" | cut -d, -f14-$((first_dev - 1)))" "$(cat "$T/want.csv")" "op columns"
expect_match "$(cat "$T/want.csv")" '^NTCreateX_p99_ms,'
jq -r '. as $doc | [.runs[].ops | to_entries[] | select(.value.p99_ms != null) | .key] |
	(reduce .[] as $o ([]; if index([$o]) then . else . + [$o] end)) as $ops |
	$doc.runs[] | . as $r | [$ops[] | $r.ops[.].p99_ms // "" | tostring] | join(",")' \
	"$T/s.json" >"$T/want.csv"
sed 1d "$T/s.csv" | cut -d, -f14-$((first_dev - 1)) >"$T/got.csv"
same_cells "$T/want.csv" "$T/got.csv"
expect_eq "$(sed 1d "$T/s.csv" | cut -d, -f13 | sort -u)" "" "label without --label"
end

begin "--csv: the label column holds --label, quoted as CSV quotes it, so that sweeps' CSVs join"
"$DBENCH" --sweep=1 --settle=0 --backend=null --run-once -q -D "$T/d" --label='ext4, "journal"' \
	--csv="$T/lab.csv" >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))
print(len(r), r[0]["label"], r[0]["procs"])' "$T/lab.csv")" '1 ext4, "journal" 1' "label read back"
end

begin "--csv or --plot on a single run: a series of one, as --repeat=1"
single=$("$DBENCH" --backend=null --run-once -q -D "$T/d" --csv="$T/single.csv" --plot="$T/single.svg" \
	--json="$T/single.json" 2); rc=$?
expect_status $rc 0
expect_match "$single" '^Throughput .*  2 procs$'
expect_match "$single" '^ +2 +1( +[0-9]+\.[0-9]+){3}'
expect_eq "$(sed 1d "$T/single.csv" | cut -d, -f1-3)" "2,1,0" "the run's row"
expect_eq "$(jq '.runs | length' "$T/single.json")" 1 "runs in the document"
expect_eq "$(grep -c "class='point'" "$T/single.svg")" 2 "points (1 count x 2 panels)"
err=$("$DBENCH" --backend=null --run-once -D "$T/d" --settle=1 2 2>&1); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --settle, --drop-caches, --prepare and --cleanup go with --sweep, --repeat, --precision, --csv or --plot"
end

begin "--plot=p.png: SVG is all it draws, so a PNG (JPEG, PDF ...) name is refused before any run"
for name in p.png p.JPG chart.pdf; do
	err=$("$DBENCH" --sweep=1 --settle=0 --backend=null --run-once -D "$T/d" --plot="$T/$name" 2>&1)
	expect_status $? 2
	expect_eq "$err" "dbench: --plot draws SVG only, and '$T/$name' names a $(case $name in
		*.png) echo PNG ;; *.JPG) echo JPEG ;; *) echo PDF ;; esac) file: give a name ending in .svg (rsvg-convert turns it into $(case $name in
		*.png) echo PNG ;; *.JPG) echo JPEG ;; *) echo PDF ;; esac))"
	[ ! -e "$T/$name" ] || fail "$name written"
done
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
err=$("$DBENCH" compare --plot="$T/c.png" "$T/s.json" "$T/s.json" 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: --plot draws SVG only, and '$T/c.png' names a PNG file: give a name ending in .svg (rsvg-convert turns it into PNG)"
end

begin "the summary has each device's figures at each count, the mean over its runs"
jq -e "$disk_keys as \$k | .runs as \$runs | all(.summary[]; . as \$s |
	[\$runs[] | select(.config.nprocs == \$s.procs and .status.exit_code == 0) | .disks[]] as \$e |
	(\$s.disks | map(.device)) == (\$e | map(.device) | reduce .[] as \$d ([]; if index([\$d]) then . else . + [\$d] end)) and
	all(\$s.disks[]; . as \$d | [\$e[] | select(.device == \$d.device)] as \$m |
		\$d.runs == (\$m | length) and
		all(\$k[]; . as \$f | [\$m[][\$f] | numbers] as \$v |
			if (\$v | length) == 0 then \$d[\$f] == null
			else ((\$v | add / length) - \$d[\$f] | fabs) < 1e-9 end)))" "$T/s.json" >/dev/null ||
	fail "summary.disks do not match the runs: $(jq -c '.summary[0].disks' "$T/s.json")"
jq -e 'all(.summary[].disks[]; .written_ratio == null or
	((.written_bytes / .clients_written_bytes) - .written_ratio | fabs) < 1e-9)' "$T/s.json" \
	>/dev/null || fail "summary ratios are not the bytes pooled: $(jq -c '.summary[0].disks' "$T/s.json")"
pairs=$(jq '[.summary[].disks[]] | length' "$T/s.json")
if [ "$pairs" -gt 0 ]; then
	expect_match "$out" '^Disks, the mean over the runs at each count \(as iostat -x: '
	expect_match "$out" '^ +procs +device +r/s +w/s +rareq-sz +wareq-sz +%rrqm +%wrqm +aqu-sz +%util +cli-MB +dev-MB +dev/cli +dirty-MB$'
	dev=$(jq -r '.summary[0].disks[0].device' "$T/s.json")
	expect_match "$out" "^ +1 +$dev( +([0-9]+\\.[0-9]+|-)){12}\$"
fi
expect_eq "$(printf '%s\n' "$out" | grep -cE '^ +[12] +[a-z][^ ]*( +([0-9]+\.[0-9]+|-)){12}$')" "$pairs" "device rows"
end

begin "a range A..B means the powers of two from A to B"
"$DBENCH" --sweep=1..8 --settle=0 --backend=null --run-once -q -D "$T/d" --json="$T/r.json" >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -c '[.summary[].procs]' "$T/r.json")" "[1,2,4,8]" "procs"
end

begin "--json=- leaves the sweep document alone on stdout"
"$DBENCH" --sweep=1 --settle=0 --backend=null --run-once -q -D "$T/d" --json=- >"$T/o.json" 2>"$T/o.txt"; rc=$?
expect_status $rc 0
jq -e '.runs and .summary' "$T/o.json" >/dev/null 2>&1 || fail "stdout is not the sweep document"
expect_match "$(cat "$T/o.txt")" '^Throughput '
end

begin "a failed run is recorded, the sweep goes on, and the exit status says so"
printf '%s\n' 'QUERY_PATH_INFORMATION "\clients\client1\nothere" 1004 NT_STATUS_OK' >"$T/bad.txt"
out=$("$DBENCH" --sweep=1,2 --settle=0 --run-once -q -c "$T/bad.txt" -D "$T/d" --json="$T/f.json"); rc=$?
expect_status $rc 1
expect_eq "$(jq -c '[.runs[].status.exit_code]' "$T/f.json")" "[1,1]" "exit codes"
expect_eq "$(jq -c '[.summary[].runs]' "$T/f.json")" "[0,0]" "successful runs"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

for args in "--sweep=0" "--sweep=a" "--sweep=4..2" "--sweep=1.." "--sweep=1,,2" "--sweep=1 4" \
	"--settle=2 1" "--drop-caches 1" "--sweep=1 --repeat=0" "--sweep=1,1" "--sweep=1..8,4"; do
	begin "bad sweep usage '$args' exits 2 before any run"
	# shellcheck disable=SC2086
	err=$(cd "$T/d" && "$DBENCH" --backend=null --run-once $args 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: '
	expect_eq "$(ls -A "$T/d")" "" "created in $T/d"
	end
done

begin "a series checks every target before its first run, as a run does: exit 2, no run, nothing made"
# a directory that is not there, and a server that does not answer (no
# directory: the backend says what is wrong with it)
for target in "-D $T/d -D $T/none" "--backend=sockio --port=1 -D 127.0.0.1"; do
	# shellcheck disable=SC2086
	plain=$("$DBENCH" --run-once $target 1 2>&1); rc=$?
	expect_status $rc 2
	expect_match "$plain" "^dbench: (cannot use directory '$T/none': No such file or directory|cannot connect to 127\\.0\\.0\\.1:1: .*)\$"
	for args in "--sweep=1,2" "--repeat=2 1" "--precision=5 1"; do
		# shellcheck disable=SC2086
		out=$("$DBENCH" --run-once --settle=0 $target $args 2>&1); rc=$?
		expect_status $rc 2
		expect_eq "$out" "$plain" "$target $args: what it says"
	done
done
# a clock DBENCH_OPCLOCK asks for that there is not
plain=$(DBENCH_OPCLOCK=bogus "$DBENCH" --run-once -D "$T/d" 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$plain" "dbench: DBENCH_OPCLOCK is 'bogus': the one value it takes is monotonic" "a run's"
for args in "--sweep=1,2" "--repeat=2 1"; do
	# shellcheck disable=SC2086
	out=$(DBENCH_OPCLOCK=bogus "$DBENCH" --run-once --settle=0 -D "$T/d" $args 2>&1); rc=$?
	expect_status $rc 2
	expect_eq "$out" "$plain" "DBENCH_OPCLOCK=bogus $args: what it says"
done
expect_eq "$(ls -A "$T/d")" "" "made in $T/d"
end

begin "a malformed --sweep says what is wrong with it, and where"
sweep_err() {
	"$DBENCH" --backend=null --run-once --sweep="$1" -D "$T/d" 2>&1 >/dev/null
}
expect_eq "$(sweep_err 4..1)" "dbench: --sweep '4..1': the range 4..1 goes down; a range A..B must go up (A at most B)"
expect_eq "$(sweep_err 1,8..2)" "dbench: --sweep '1,8..2': the range 8..2 goes down; a range A..B must go up (A at most B)"
expect_eq "$(sweep_err ..4)" "dbench: --sweep '..4': the range ..4 has no first count (A..B)"
expect_eq "$(sweep_err 1..)" "dbench: --sweep '1..': the range 1.. has no last count (A..B)"
expect_eq "$(sweep_err 0)" "dbench: --sweep '0': 0 is not a client count from 1 to 10000"
expect_eq "$(sweep_err 1..20000)" "dbench: --sweep '1..20000': 20000 is not a client count from 1 to 10000"
expect_eq "$(sweep_err 1,,2)" "dbench: --sweep '1,,2': item 2 is empty (two commas in a row, or one at an end)"
expect_eq "$(sweep_err 1,)" "dbench: --sweep '1,': item 2 is empty (two commas in a row, or one at an end)"
expect_eq "$(sweep_err '')" "dbench: --sweep '': item 1 is empty (two commas in a row, or one at an end)"
expect_eq "$(sweep_err 1-4)" "dbench: --sweep '1-4': '1-4' is not a client count (1 to 10000) or a range A..B"
expect_eq "$(sweep_err 1,2,1)" "dbench: --sweep '1,2,1': 1 client is in the list twice (--repeat=K runs each count K times)"
expect_eq "$(ls -A "$T/d")" "" "created in $T/d"
end

begin "the interval of the mean at 2 runs far apart is cut at 0 MB/sec, not negative"
# The first run's client is held stopped for 2 s of its 3: a third of the
# second's throughput, and the t-interval of 2 runs (t = 12.7) is then
# wider than the mean on either side.
# Each run is held as it releases its client (DBENCH_TEST_HOLD=start).
DBENCH_TEST_HOLD=start "$DBENCH" --sweep=1 --repeat=2 --settle=0 -t 3 --warmup=0 --backend=null \
	-q -D "$T/d" --json="$T/neg.json" --csv="$T/neg.csv" >"$T/neg.out" 2>&1 &
pid=$!
held $pid || fail "the first run was not held"
c=$(pgrep -P $pid)
kill -CONT $pid
sleep 0.3
kill -STOP $c
sleep 2
kill -CONT $c
released $pid || fail "the second run was not held"
wait $pid
expect_status $? 0
expect_eq "$(jq '.summary[0] | .ci95_high - .mean > .mean' "$T/neg.json")" true \
	"half-width wider than the mean (the case under test)"
expect_eq "$(jq '.summary[0].ci95_low' "$T/neg.json")" 0 "summary ci95_low"
expect_eq "$(tail -n +2 "$T/neg.csv" | cut -d, -f11 | tr '\n' ' ')" "0.000000 0.000000 " "CSV ci95_low"
end

begin "--drop-caches needs root"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	err=$(cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$DBENCH" --sweep=1 --drop-caches --backend=null --run-once 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_eq "$err" "dbench: --drop-caches needs root (it writes /proc/sys/vm/drop_caches)"
else
	echo "# skipped: needs root and setpriv"
fi
end

begin "--plot draws a well-formed SVG with one point per count in each panel"
"$DBENCH" --sweep=1..4 --settle=0 --backend=null --run-once -q -D "$T/d" --plot="$T/s.svg" >/dev/null; rc=$?
expect_status $rc 0
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/s.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_eq "$(grep -c "class='point'" "$T/s.svg")" 6 "points (3 counts x 2 panels)"
expect_eq "$(grep -c "class='whisker'" "$T/s.svg")" 3 "whiskers"
expect_match "$(cat "$T/s.svg")" "^<svg xmlns='http://www.w3.org/2000/svg'"
end


begin "without --label the plot's legend names the loadfile and the directory"
expect_match "$(cat "$T/s.svg")" ">\\(built-in\\) on $T/d</text>\$"
end

begin "--label names the sweep, each of its runs and the plot's legend"
"$DBENCH" --sweep=1,2 --settle=0 --backend=null --run-once -q -D "$T/d" \
	--label='ext4 <journal> & co' --json="$T/l.json" --plot="$T/l.svg" >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -r .sweep.label "$T/l.json")" 'ext4 <journal> & co' "sweep.label"
expect_eq "$(jq -r '[.runs[].config.label] | unique | .[]' "$T/l.json")" \
	'ext4 <journal> & co' "the runs' config.label"
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/l.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_match "$(cat "$T/l.svg")" ">ext4 &lt;journal&gt; &amp; co</text>\$"
expect_no_match "$(cat "$T/l.svg")" "built-in"
expect_eq "$(jq -c .sweep.label "$T/s.json")" null "sweep.label without --label"
end

begin "--plot-log draws the p99 panel on a log axis with a tick a decade"
"$DBENCH" --sweep=1,2 --settle=0 --backend=null --run-once -q -D "$T/d" --plot-log \
	--plot="$T/log.svg" >/dev/null; rc=$?
expect_status $rc 0
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/log.svg" 2>/dev/null || fail "not well-formed XML"
fi
expect_match "$(cat "$T/log.svg")" ">p99 latency, ms \\(log scale\\)</text>\$"
expect_match "$(cat "$T/log.svg")" "<text class='tick' [^>]*>(0\\.0*)?1</text>\$"
end

finish
