# test_tune.sh - "dbench tune": its options, settings refused before
# anything changes (one that does not exist, one the kernel rounds, a
# remount the kernel refuses), the race's drops on candidates of known
# order, its budget and its equivalence stop, --seed repeating a race,
# what it writes, and every setting put back: at the end, after SIGINT
# and SIGTERM, and with --restore after the parent was SIGKILLed in the
# middle of the race.
#
# The settings a test changes are its own objects': the read_ahead_kb of
# the loop device under an ext4 image the test mounts (5 written there
# reads back 4, a value the kernel rounds), and that mount's options.
# Candidates of known order are the null backend's per-operation delays
# (DBENCH_NULL_DELAY_US) and --target-rate's pacing.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"
# runs of the null backend, no rest
quick="--settle=0 -t 1 --warmup 0 -q --backend=null"

# lines PATTERN FILE: the lines of FILE that match, in order
lines() {
	grep -E -- "$1" "$2"
}

begin "dbench tune --help lists its options; dbench help tune is it"
out=$("$DBENCH" tune --help); rc=$?
expect_status $rc 0
expect_match "$out" '^Usage: dbench tune \[OPTION\.\.\.\] --set KEY=V1,V2,\.\.\. NPROCS$'
for o in "--set KEY" --candidates= --sweep= --objective= --first-test= --alpha= --budget= \
	--equivalent= --seed= --settle= --prepare= --journal= --restore --json= --csv= --plot=; do
	expect_match "$out" "^ +$o"
done
expect_eq "$("$DBENCH" help tune)" "$out" "dbench help tune"
expect_match "$("$DBENCH" --help)" '^  tune +which setting serves this load best\?'
end

begin "bad usage and settings that are none are refused before anything, exit 2"
for case in "|dbench tune needs --set KEY=V1,V2,... or --candidates=FILE" \
	"--set opt=,-F --candidates=x|--set and --candidates do not go together" \
	"--set opt=,-F --first-test=1|--first-test must be from 2 to 1000" \
	"--set opt=,-F --budget=1y|--budget must be a number of runs" \
	"--set opt=,-F --objective=p99:Nosuch|--objective must be throughput, p99:OPERATION" \
	"--set opt=,-F --objective=probe|--objective=probe needs --probe" \
	"--set opt=,-F --posthoc=dunn|--posthoc must be best, holm or none" \
	"--set opt=,-F --posthoc=holm --no-holm|--no-holm and --posthoc do not go together" \
	"--set opt=,-F --plot=x.png|--plot draws SVG only" \
	"--set /etc/passwd=x|'/etc/passwd' is not a setting" \
	"--set vm.no_such_tunable_here=1|--set vm.no_such_tunable_here: /proc/sys/vm/no_such_tunable_here: No such file or directory" \
	"--set /sys/kernel/no_such_attr=1,2|--set /sys/kernel/no_such_attr: /sys/kernel/no_such_attr: No such file or directory" \
	"--set opt=,-F --set opt=-S|opt is given twice" \
	"--set opt=|every candidate is the settings as found" \
	"--set opt=--nosuch|--nosuch: unknown option"; do
	args=${case%%|*} want=${case#*|}
	# shellcheck disable=SC2086
	err=$("$DBENCH" tune $args $quick -D "$T/d" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" "$want"
done
expect_eq "$(ls -A "$T/d")" "" "left in the target"
end

# The candidates' order is known: the null backend's delays per
# operation, as found being none at all.
begin "the race drops the candidates known worse, each with why"
out=$(env -u DBENCH_NULL_DELAY_US "$DBENCH" tune --set env:DBENCH_NULL_DELAY_US=50,200,800 \
	--first-test=3 --seed=11 $quick -D "$T/d" --json="$T/race.json" --csv="$T/race.csv" \
	--plot="$T/race.svg" 1); rc=$?
expect_status $rc 0
expect_match "$out" '^dbench tune: 4 candidates, objective throughput \(MB/sec, higher is better\); blocks in a random order, seed 11 \(--seed=11 repeats it\); the first test after block 3;'
expect_match "$out" '^  #1 as found: env:DBENCH_NULL_DELAY_US unset$'
expect_match "$out" '^block 1: 4 of 4 candidates left; run 1 of 4: #[1-4] \('
for c in 2 3 4; do
	expect_match "$out" "^dropped #$c \\(env:DBENCH_NULL_DELAY_US=[0-9]+\\) after block 3: mean rank [0-9.]+ of 4, p [0-9.e-]+ \\(Friedman, then Conover's test against Dunnett's bound\\) against #1 \\(as found: env:DBENCH_NULL_DELAY_US unset\\)\$"
done
expect_match "$out" '^The race ends after block 3, 12 runs: one candidate left$'
expect_match "$out" '^  #1 +3 .* in \(best\) +as found: env:DBENCH_NULL_DELAY_US unset$'
expect_match "$out" '^No candidate beats what is there: as found \(#1\) ranks best of the 1 left\.$'
expect_match "$out" '^Pareto front of throughput against worst p99'
expect_eq "$(jq -c '.tune.race' "$T/race.json")" '{"blocks":3,"runs":12,"end":"one-left","left":1}' "the race"
expect_eq "$(jq -c '[.tune.candidates[] | .dropped.block]' "$T/race.json")" '[null,3,3,3]' "drops"
expect_eq "$(jq -c '[.tune.posthoc, .tune.holm, [.tune.candidates[1:][] | .dropped.test]]' "$T/race.json")" \
	'["best",false,["friedman-conover-best","friedman-conover-best","friedman-conover-best"]]' \
	"the comparisons with the best, the default"
# Dunnett's one-sided bound for three comparisons, 2.062: twice its tail
expect_eq "$(jq -c '[.tune.candidates[1:][] | .dropped.level * 10000 | round]' "$T/race.json")" \
	'[392,392,392]' "the level each drop was held against"
expect_eq "$(jq '.runs | length' "$T/race.json")" 12 "runs kept"
# of schema 3, every member a row of include/dockeys.def, of its type
expect_eq "$(jq -c '[keys_unsorted[0], .schema]' "$T/race.json")" '["schema",3]' "the schema"
out=$("$UNIT_DIR/dockeys" check "$T/race.json") || fail "$out"
expect_eq "$(wc -l <"$T/race.csv")" 13 "the CSV's rows"
xmllint --noout "$T/race.svg" || fail "the plot is not well-formed XML"
expect_eq "$(grep -c "<polyline" "$T/race.svg")" 5 "lines: a candidate each and the front"
expect_eq "$(ls -A "$T/d")" "" "left in the target (no journal: nothing of the machine changed)"
end

begin "dbench compare reads the document, a document a candidate, as found the baseline"
out=$("$DBENCH" compare "$T/race.json"); rc=$?
expect_status $rc 0
expect_match "$out" "^A: #1 as found: env:DBENCH_NULL_DELAY_US unset \\($T/race.json, candidate #1: dbench tune, 3 runs at nprocs 1\\)\$"
for s in A B C D; do
	expect_match "$out" "^     1  $s +3 "
done
end

begin "a candidate that beats what is there is the winner, with the interval of its gain"
out=$(DBENCH_NULL_DELAY_US=400 "$DBENCH" tune --set env:DBENCH_NULL_DELAY_US=0 --seed=3 \
	$quick -D "$T/d" 1); rc=$?
expect_status $rc 0
# two candidates: Wilcoxon's test, whose five blocks give 2/32 at best,
# six 2/64
expect_match "$out" '^dropped #1 \(as found: env:DBENCH_NULL_DELAY_US=400\) after block 6: mean rank 2.00 of 2, p 0.0312 \(Wilcoxon'"'"'s signed-rank test\) against #2 \(env:DBENCH_NULL_DELAY_US=0\)$'
expect_match "$out" '^Winner: #2 \(env:DBENCH_NULL_DELAY_US=0\): throughput \+[0-9.]+ % against as found, 95 % interval \[\+[0-9.]+, \+[0-9.]+\] from [0-9]+ paired runs; the race dropped as found against it after block 6 \(p 0.0312\)$'
end

begin "the budget ends the race, whole blocks only"
out=$(env -u DBENCH_NULL_DELAY_US "$DBENCH" tune --set env:DBENCH_NULL_DELAY_US=5,10 \
	--budget=8 --seed=1 $quick -D "$T/d" 1); rc=$?
expect_status $rc 0
expect_match "$out" '; the budget 8 runs$'
expect_match "$out" '^The race ends after block 2, 6 runs: the budget is spent$'
expect_eq "$(printf '%s\n' "$out" | grep -c '^block ')" 6 "runs begun"
end

begin "candidates within --equivalent of each other end the race"
# both paced to 20 MB/s a client: an environment variable nothing reads
# is no difference
out=$(env -u DBENCH_TUNE_TEST_UNUSED "$DBENCH" tune --set env:DBENCH_TUNE_TEST_UNUSED=1 \
	--equivalent=10 --first-test=3 --seed=5 $quick -t 2 -R 20 -D "$T/d" 1); rc=$?
expect_status $rc 0
expect_match "$out" '^The race ends after block 3, 6 runs: the candidates left are equivalent \(--equivalent\)$'
expect_match "$out" '^No candidate beats what is there'
end

begin "--seed repeats a race run for run; another seed, another order; --no-holm"
# paced candidates: the drops are the same every time; the three races
# at once, each in a directory of its own (paced, they wait more than
# they work)
races=
for r in 7 7b 8; do
	mkdir -p "$T/seed$r"
	"$DBENCH" tune --set "opt='-R 10','-R 40'" --seed=${r%b} --first-test=4 --no-holm $quick -R 5 \
		-D "$T/seed$r" 1 >"$T/seed$r.out" 2>&1 &
	races="$races $!"
done
for p in $races; do wait "$p"; done
for r in 7 7b 8; do
	lines '^(block|dropped|The race)' "$T/seed$r.out" | sed 's/; about .*//; s/; the budget.*//' \
		>"$T/order$r"
done
[ -s "$T/order7" ] || fail "no race lines from seed 7"
expect_eq "$(cat "$T/order7")" "$(cat "$T/order7b")" "the same seed's races"
grep -q '^dropped #1 .*(Friedman, then Conover'"'"'s test)' "$T/order8" ||
	fail "the slowest (as found, -R 5) was not dropped, by F-Race's rule"
[ "$(cat "$T/order7")" != "$(cat "$T/order8")" ] || fail "seeds 7 and 8 gave one order"
end

# ---- settings of the machine: a loop device and a mount of the test's own ----

if ! mount_ext4 "$T/m"; then
	skip "settings of the machine (a loop device's read-ahead, a remount)" "no loop-mounted ext4 here"
	finish
	exit
fi
dev=$(findmnt -n -o SOURCE --target "$T/m" | tail -n 1)
ra=/sys/block/${dev#/dev/}/queue/read_ahead_kb
ra0=$(cat "$ra")
opts0=$(findmnt -n -o OPTIONS --target "$T/m" | tail -n 1)
journal=$T/m/.dbench-tune-journal

# as_found: every setting of the machine as the test found it, and no
# journal left
as_found() {
	expect_eq "$(cat "$ra")" "$ra0" "$ra after $1"
	expect_eq "$(findmnt -n -o OPTIONS --target "$T/m" | tail -n 1)" "$opts0" "the mount after $1"
	[ ! -e "$journal" ] || fail "the journal is left after $1"
}

begin "a value the kernel rounds is refused before the race, naming what it kept"
err=$("$DBENCH" tune --set "$ra=16,5" $quick -D "$T/m" 1 2>&1 >"$T/out"); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: $ra=5: refused before the race: the kernel keeps 4, not 5" "the message"
expect_no_match "$(cat "$T/out")" '^block '
as_found "a refused value"
end

begin "a remount the kernel refuses is refused before the race; the mount as found"
err=$("$DBENCH" tune --set "mount:$T/m=noatime,no_such_option_x" $quick -D "$T/m" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^dbench: mount:$T/m=no_such_option_x: refused before the race: the kernel refuses the remount with no_such_option_x: Invalid argument\$"
as_found "a refused remount"
# an option whose value as found the mount does not show could not be put back
err=$("$DBENCH" tune --set "mount:$T/m=commit=60" $quick -D "$T/m" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "commit=60: the mount shows no commit= as found .*so it could not be put back"
err=$("$DBENCH" tune --set "mount:$T/d=noatime" $quick -D "$T/m" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "$T/d is not a mount point"
as_found "a mount point that is none"
end

begin "a race of the machine's settings puts every one back at its end"
out=$("$DBENCH" tune --set "$ra=16,64" --set "mount:$T/m=noatime" --budget=6 --seed=2 \
	$quick -D "$T/m" 1); rc=$?
expect_status $rc 0
expect_match "$out" "^  #1 as found: $ra=$ra0 mount:$T/m=$opts0\$"
expect_match "$out" "^Every setting is back as found and read back; the journal $journal is removed\$"
as_found "the race"
end

# held_at_change PID: let the held parent go on from run to run until it
# is held with both the read-ahead and the mount changed (a candidate of
# neither value as found); 1 when the race ended first.
held_at_change() {
	while held "$1"; do
		if [ "$(cat "$ra")" != "$ra0" ] &&
			findmnt -n -o OPTIONS --target "$T/m" | tail -n 1 | grep -q noatime; then
			return 0
		fi
		kill -CONT "$1"
	done
	return 1
}

for sig in INT:130 TERM:143; do
	want=${sig#*:} sig=${sig%:*}
	begin "SIG$sig in the middle of the race puts every setting back, then reports"
	DBENCH_TEST_HOLD=start "$DBENCH" tune --set "$ra=16" --set "mount:$T/m=noatime" \
		--seed=4 --settle=0 -t 3 --warmup 0 -q --backend=null -D "$T/m" 1 >"$T/sig.out" 2>&1 &
	pid=$!
	if held_at_change $pid; then
		[ -e "$journal" ] || fail "no journal while the race runs"
		kill -$sig $pid
		kill -CONT $pid
		wait $pid; rc=$?
		expect_status $rc "$want"
		expect_match "$(cat "$T/sig.out")" '^The race ends after block [0-9]+, [0-9]+ runs: interrupted$'
		expect_match "$(cat "$T/sig.out")" '^Every setting is back as found and read back'
		as_found "SIG$sig"
	else
		wait $pid
		fail "the race ended before a candidate changed both settings: $(tail -n 2 "$T/sig.out")"
	fi
	end
done

begin "the parent SIGKILLed in the middle of the race: a new tune refuses, --restore puts every setting back"
DBENCH_TEST_HOLD=start "$DBENCH" tune --set "$ra=16" --set "mount:$T/m=noatime" --seed=4 \
	--settle=0 -t 3 --warmup 0 -q --backend=null -D "$T/m" 1 >"$T/kill.out" 2>&1 &
pid=$!
if held_at_change $pid; then
	kill -KILL $pid
	wait $pid 2>/dev/null
	[ "$(cat "$ra")" = 16 ] || fail "the read-ahead is not the candidate's after SIGKILL"
	[ -e "$journal" ] || fail "no journal after SIGKILL"
	# the clients, orphaned, stop and clean up; the target is then free
	i=0
	while [ -e "$T/m/clients" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	err=$("$DBENCH" tune --set "$ra=64" $quick -D "$T/m" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_eq "$err" "dbench: $journal: a tune that did not finish left this journal, and its settings may not be as they were: dbench tune --restore --journal=$journal puts them back" "the refusal"
	out=$("$DBENCH" tune --restore -D "$T/m"); rc=$?
	expect_status $rc 0
	expect_match "$out" "^$(realpath "$ra"): $ra0 \\(was 16\\)\$"
	expect_match "$out" "^mount:$T/m: $opts0 \\(was .*noatime.*\\)\$"
	expect_match "$out" "^every setting of $journal is back; the journal is removed\$"
	as_found "--restore"
	out=$("$DBENCH" tune --restore -D "$T/m"); rc=$?
	expect_status $rc 0
	expect_eq "$out" "no journal at $journal: nothing to put back" "a second --restore"
else
	wait $pid
	fail "the race ended before a candidate changed both settings: $(tail -n 2 "$T/kill.out")"
fi
end

begin "a journal another user could have written is not trusted"
printf 'dbench tune journal 1\nsysfs\t%s\t%s\n' "$ra" 64 >"$T/j"
chmod 666 "$T/j"
err=$("$DBENCH" tune --restore --journal="$T/j" 2>&1); rc=$?
expect_status $rc 2
expect_match "$err" "^dbench: $T/j: $T/j is writable by anyone \\(mode 666\\): a journal is trusted only where no one but root and you could have written it\$"
chmod 600 "$T/j"
ln "$T/j" "$T/j2"
err=$("$DBENCH" tune --restore --journal="$T/j" 2>&1); rc=$?
expect_status $rc 2
expect_match "$err" "has 2 links"
rm -f "$T/j2"
# and what it names is found again, never taken from it
printf 'dbench tune journal 1\nsysfs\t/etc/passwd\tx\n' >"$T/j"
err=$("$DBENCH" tune --restore --journal="$T/j" 2>&1); rc=$?
expect_status $rc 2
expect_match "$err" "^dbench: $T/j:2: '/etc/passwd' is not a setting"
expect_eq "$(cat "$ra")" "$ra0" "the read-ahead"
end

finish
