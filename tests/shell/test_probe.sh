# test_probe.sh - --probe[=DIR]: an `ls -l` timed once a second under load.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

# A canary directory outside every target, and a fingerprint of it.
mkdir -p "$T/canary"
echo "keep me" >"$T/canary/file"
fingerprint() {
	(cd "$1" && find . -printf '%p %y %s %m %T@ %C@\n' | sort)
}

# ordered A B C ...: each a number, 0 < A <= B <= C ...
ordered() {
	echo "$@" | awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9.e+-]+$/ || \
		(i == 1 && !($i > 0)) || (i > 1 && !($i >= $(i - 1)))) exit 1 }'
}

begin "--probe lists 3000 files made for the run; times positive and ordered; removed after"
out=$("$DBENCH" -t 4 --warmup 1 -q --probe -D "$T/d" --json="$T/p.json" 2); rc=$?
expect_status $rc 0
count=$(jq .probe.count "$T/p.json")
[ "$count" -ge 2 ] 2>/dev/null || fail "probe.count $count, want at least 2"
expect_eq "$(jq .probe.entries "$T/p.json")" 3000 "probe.entries"
expect_eq "$(jq -r .probe.directory "$T/p.json")" "$T/d/clients/probe" "probe.directory"
expect_eq "$(jq -r .config.probe_directory "$T/p.json")" "$T/d/clients/probe" "config.probe_directory"
p50=$(jq .probe.p50_ms "$T/p.json"); max=$(jq .probe.max_ms "$T/p.json")
ordered "$p50" "$max" || fail "p50 $p50, max $max are not 0 < p50 <= max"
# a p99 of a few listings would be their maximum: none, and the count says why
expect_eq "$(jq .probe.p99_ms "$T/p.json")" null "probe.p99_ms of $count listings"
expect_match "$out" "^Probe: $count listings of 3000 entries in $T/d/clients/probe, p50 [0-9]+\.[0-9]{3} ms, p99 - \($count listings, 100 needed\), max [0-9]+\.[0-9]{3} ms\$"
expect_eq "$(jq -r .probe.max_ms "$T/p.json" | awk '{ printf "%.3f", $1 }')" \
	"$(printf '%s\n' "$out" | sed -n 's/^Probe: .*, max \([0-9.]*\) ms$/\1/p')" "printed max"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "--probe: every timeline point carries probe_ms, none above the maximum"
expect_eq "$(jq '[.timeline[] | has("probe_ms")] | all' "$T/p.json")" true "all points have probe_ms"
expect_eq "$(jq '[.timeline[].probe_ms | select(. != null)] | length >= 2' "$T/p.json")" true \
	"points with a listing"
jq -e '.probe.max_ms as $m | [.timeline[].probe_ms | select(. != null) | . > 0 and . <= $m] | all' \
	"$T/p.json" >/dev/null || fail "probe_ms outside (0, max]: $(jq -c '[.timeline[].probe_ms]' "$T/p.json")"
end

begin "without --probe: no Probe line, probe null, no probe_ms in the timeline"
out=$("$DBENCH" -t 1 --warmup 0 -q -D "$T/d" --json="$T/n.json" 1); rc=$?
expect_status $rc 0
expect_no_match "$out" '^Probe'
expect_eq "$(jq .probe "$T/n.json")" null "probe"
expect_eq "$(jq .config.probe_directory "$T/n.json")" null "config.probe_directory"
expect_eq "$(jq '[.timeline[] | has("probe_ms")] | any' "$T/n.json")" false "probe_ms in the timeline"
end

begin "--probe=DIR lists DIR's entries and leaves DIR as it was"
mkdir -p "$T/big/sub"
i=0
while [ $i -lt 122 ]; do : >"$T/big/f$i"; i=$((i + 1)); done
ln -s "$T/canary" "$T/big/link"
before=$(fingerprint "$T/big")
canary=$(fingerprint "$T/canary")
out=$("$DBENCH" -t 2 --warmup 0 -q --probe="$T/big" -D "$T/d" --json="$T/b.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(jq .probe.entries "$T/b.json")" 124 "probe.entries (122 files, a directory, a link)"
expect_eq "$(jq -r .probe.directory "$T/b.json")" "$T/big" "probe.directory"
expect_match "$out" "^Probe: [0-9]+ listings? of 124 entries in $T/big, "
expect_eq "$(fingerprint "$T/big")" "$before" "the listing of $T/big"
expect_eq "$(fingerprint "$T/canary")" "$canary" "the canary behind the link"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "--probe followed by NPROCS as the next word takes the default directory"
out=$("$DBENCH" -t 1 --warmup 0 -q -D "$T/d" --probe 1); rc=$?
expect_status $rc 0
expect_match "$out" "^Probe: [0-9]+ listings? of 3000 entries in $T/d/clients/probe, "
end

begin "--probe DIR, as --help shows --probe[=DIR], lists DIR as --probe=DIR does"
mkdir -p "$T/sp"
: >"$T/sp/one"
out=$("$DBENCH" -t 1 --warmup 0 -q --backend=null -D "$T/d" --probe "$T/sp" --json="$T/sp.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(jq -r '.probes | map(.directory) | join(" ")' "$T/sp.json")" "$T/sp" "the directories probed"
expect_match "$out" "^Probe: [0-9]+ listings? of 1 entr(y|ies) in $T/sp, "
expect_match "$("$DBENCH" --help)" '^      --probe\[=DIR\] '
end

for bad in missing file; do
	begin "--probe=DIR with a $bad DIR is refused before anything runs, exit 2"
	: >"$T/file"
	case $bad in
	missing) dir=$T/missing why='No such file or directory' ;;
	file) dir=$T/file why='Not a directory' ;;
	esac
	err=$("$DBENCH" -t 1 --warmup 0 --probe="$dir" -D "$T/d" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_eq "$err" "dbench: cannot use probe directory '$dir': $why"
	expect_eq "$(ls -A "$T/d")" "" "made in $T/d"
	end
done

begin "listings in the warmup are not counted"
"$DBENCH" -t 2 --warmup 3 -q --probe -D "$T/d" --json="$T/w.json" 1 >/dev/null; rc=$?
expect_status $rc 0
count=$(jq .probe.count "$T/w.json")
[ "$count" -ge 1 ] && [ "$count" -le 3 ] || fail "probe.count $count for a 2 s window after 3 s of warmup"
end

begin "--probe once per directory: a listing process, a Probe line and a probes[] entry each"
mkdir -p "$T/p1" "$T/p2"
touch "$T/p1/a" "$T/p1/b" "$T/p2/c"
out=$("$DBENCH" -t 2 --warmup 0 -q --probe="$T/p1" --probe="$T/p2" --probe -D "$T/d" \
	--json="$T/m.json" 1); rc=$?
expect_status $rc 0
expect_match "$out" "^Probe: [0-9]+ listings? of 2 entries in $T/p1, "
expect_match "$out" "^Probe: [0-9]+ listings? of 1 entries in $T/p2, "
expect_match "$out" "^Probe: [0-9]+ listings? of 3000 entries in $T/d/clients/probe, "
expect_eq "$(jq -c '[.probes[] | [.directory, .entries]]' "$T/m.json")" \
	"[[\"$T/p1\",2],[\"$T/p2\",1],[\"$T/d/clients/probe\",3000]]" "probes"
expect_eq "$(jq '.probe == .probes[0]' "$T/m.json")" true "probe is the first of probes"
expect_eq "$(jq -c '.config.probe_directories' "$T/m.json")" \
	"[\"$T/p1\",\"$T/p2\",\"$T/d/clients/probe\"]" "config.probe_directories"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "a directory given twice to --probe, or a bare --probe twice, is refused, exit 2"
err=$("$DBENCH" -t 1 --probe="$T/p1" --probe="$T/p1" -D "$T/d" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --probe=$T/p1 is given twice"
err=$("$DBENCH" -t 1 --probe --probe -D "$T/d" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --probe is given twice"
expect_eq "$(ls -A "$T/d")" "" "made in $T/d"
end

begin "with several probes, the one that fails is named by its directory"
mkdir -p "$T/gone2"
start_long_run "$T/d" 1 "$T/gone2.out" -q --probe="$T/p1" --probe="$T/gone2"
rmdir "$T/gone2"
wait $pid; rc=$?
expect_status $rc 1
expect_match "$(cat "$T/gone2.out")" "^FAILED: probe of $T/gone2, cannot list '$T/gone2': No such file or directory\$"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "a listing begun in warmup and ended in the measured window is counted apart and shown"
# Each listing takes 1.5 s more: the first begins at 0.5 s, in the 1 s
# warmup, and ends at 2 s, in the execute phase.
DBENCH_TEST_PROBE_DELAY_US=1500000 "$DBENCH" -t 3 --warmup 1 -q --probe -D "$T/d" \
	--json="$T/st.json" 1 >"$T/st.out"; rc=$?
expect_status $rc 0
expect_eq "$(jq .probe.straddled.count "$T/st.json")" 1 "probe.straddled.count"
expect_eq "$(jq '.probe.straddled.max_ms >= 1500' "$T/st.json")" true "probe.straddled.max_ms"
expect_match "$(cat "$T/st.out")" "^Probe: .*; 1 begun in warmup and ended in the measured window, the longest 1[0-9]{3}\.[0-9]{3} ms\$"
only_progress_says_execute "$T/st.out"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "a symlink planted at DIR/clients/probe fails the run; nothing is made behind it"
mkdir -p "$T/s/clients" && ln -s "$T/canary" "$T/s/clients/probe"
canary=$(fingerprint "$T/canary")
out=$("$DBENCH" -t 2 --warmup 0 -q --probe -D "$T/s" 2); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: probe, setup: cannot use directory '$T/s/clients/probe': not a directory \\(a symbolic link\\?\\)\$"
expect_eq "$(fingerprint "$T/canary")" "$canary" "the canary behind the link"
[ -L "$T/s/clients/probe" ] || fail "the planted link was removed"
expect_eq "$(ls -A "$T/s/clients")" "probe" "left in $T/s/clients"
end

begin "DIR removed under --probe=DIR fails the run, naming it"
mkdir -p "$T/gone"
start_long_run "$T/d" 1 "$T/gone.out" -q --probe="$T/gone"
rmdir "$T/gone"
start=$(date +%s)
wait $pid; rc=$?
took=$(($(date +%s) - start))
expect_status $rc 1
expect_match "$(cat "$T/gone.out")" "^FAILED: probe, cannot list '$T/gone': No such file or directory\$"
[ "$took" -le 10 ] || fail "took $took s to stop"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "a probe process killed by a signal fails the run; the parent removes its directory"
start_long_run "$T/k" 2 "$T/kill.out" --probe
probe=$(pgrep -P $pid -x dbench-probe)
[ -n "$probe" ] || fail "no dbench-probe process under $pid"
kill -KILL $probe
wait $pid; rc=$?
expect_status $rc 1
expect_match "$(cat "$T/kill.out")" '^FAILED: probe, died: killed by signal 9 \(Killed\)$'
expect_eq "$(ls -A "$T/k")" "" "left in $T/k"
end

begin "--skip-cleanup keeps the probe directory, and the next run takes it over"
mkdir -p "$T/again"
"$DBENCH" -t 1 --warmup 0 -q --probe --skip-cleanup -D "$T/again" 1 >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(ls "$T/again/clients/probe" | wc -l)" 3000 "files kept"
"$DBENCH" -t 1 --warmup 0 -q --probe -D "$T/again" --json="$T/a.json" 1 >/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq .probe.entries "$T/a.json")" 3000 "probe.entries"
expect_eq "$(ls -A "$T/again")" "" "left in $T/again"
end

finish
