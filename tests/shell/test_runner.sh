# test_runner.sh - tests/run.sh itself: its counts, and the second run
# alone of a program that could not judge for load beside the others.
# check-quick: small programs of its own; no timed run of dbench
. "$TOP/tests/shell/lib.sh"

# prog NAME BODY: a test program for the runner, in $T/progs.  The
# programs see $T as STATE (each run has a scratch directory of its own).
mkdir -p "$T/progs" "$T/unit" "$T/state"
prog() {
	printf 'STATE=%s\n%s\n' "$T/state" "$2" >"$T/progs/test_$1.sh"
}

# A program whose first run cannot judge its second block for load, and
# whose later run, alone, can: it says whether another program ran with
# it (each marks itself running for a second).
FLAKY='n=$(cat "$STATE/flaky.n" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$STATE/flaky.n"
touch "$STATE/run.flaky"; sleep 1
others=$(ls "$STATE" | grep -c "^run\." )
rm -f "$STATE/run.flaky"
echo "ok 1 - first"
if [ $n -eq 1 ]; then
	if [ "$CI" = true ]; then
		echo "not ok 2 - second: skipped for load on CI, which must be a quiet machine: it took 9 s (over 2 s)"
		exit 1
	fi
	echo "ok 2 - second # SKIP load: it took 9 s (over 2 s)"
elif [ "$others" -eq 1 ]; then
	echo "ok 2 - second, alone"
else
	echo "not ok 2 - second, beside $((others - 1)) other program(s)"
fi'
BESIDE='touch "$STATE/run.$$"; sleep 1.5; rm -f "$STATE/run.$$"; echo "ok 1 - beside"'
REAL='echo "not ok 1 - broken: a real failure"
echo "ok 2 - slow # SKIP load: it took 9 s (over 2 s)"
exit 1'

# runner [ENV...]: tests/run.sh over $T/progs, its output in $out and its
# status in $rc.
runner() {
	rm -f "$T/state/"*
	out=$(env "$@" DBENCH="$DBENCH" UNIT_DIR="$T/unit" TEST_SHELL_DIR="$T/progs" \
		TOP="$TOP" TESTS= bash "$TOP/tests/run.sh" 2>&1)
	rc=$?
}

prog flaky "$FLAKY"
prog beside "$BESIDE"
prog beside2 "$BESIDE"

begin "a program that could not judge a block for load beside others runs again alone, and its second verdict counts"
runner CI= TEST_JOBS=3
expect_status "$rc" 0
expect_eq "$(cat "$T/state/flaky.n")" 2 "runs of the flaky program"
expect_match "$out" '^# shell/test_flaky.sh: 1 block\(s\) could not judge for load beside the other programs; it runs again alone at the end$'
expect_match "$out" '^#   ok 2 - second # SKIP load: it took 9 s \(over 2 s\)$'
expect_match "$out" '^ok [0-9]+ - shell/test_flaky.sh: second, alone$'
expect_eq "$(printf '%s\n' "$out" | tail -n 1)" "4 passed, 0 failed, 0 skipped" "summary"
# its results come last, after the others'
expect_eq "$(printf '%s\n' "$out" | grep -E '^(not )?ok ' | tail -n 1 | sed 's/^ok [0-9]* - //')" \
	"shell/test_flaky.sh: second, alone" "last result"
end

begin "on CI the first run's load failure is not counted when the run alone passes"
runner CI=true TEST_JOBS=3
expect_status "$rc" 0
expect_match "$out" '^#   not ok 2 - second: skipped for load on CI'
expect_eq "$(printf '%s\n' "$out" | tail -n 1)" "4 passed, 0 failed, 0 skipped" "summary"
end

begin "a program run one at a time is not run again: its skip for load stands"
runner CI= TEST_JOBS=1
expect_status "$rc" 0
expect_eq "$(cat "$T/state/flaky.n")" 1 "runs of the flaky program"
expect_no_match "$out" 'runs again alone'
expect_eq "$(printf '%s\n' "$out" | tail -n 1)" "3 passed, 0 failed, 1 skipped" "summary"
end

begin "on CI, one at a time, a block skipped for load fails the suite"
runner CI=true TEST_JOBS=1
expect_status "$rc" 1
expect_eq "$(printf '%s\n' "$out" | tail -n 1)" "3 passed, 1 failed, 0 skipped" "summary"
end

prog real "$REAL"
begin "a program with a real failure is not run again: the failure and its load skip both stand"
runner CI= TEST_JOBS=3
expect_status "$rc" 1
expect_match "$out" '^not ok [0-9]+ - shell/test_real.sh: broken: a real failure$'
expect_no_match "$out" 'test_real.sh: .*runs again alone'
expect_eq "$(printf '%s\n' "$out" | tail -n 1)" "4 passed, 1 failed, 1 skipped" "summary"
end
