#!/bin/sh
# tests/run.sh - runs every test and prints one summary line.
#
# Unit tests are cmocka binaries in $UNIT_DIR, run with TAP output; shell
# tests are tests/shell/test_*.sh, which print TAP through tests/shell/lib.sh.
# Each "ok" / "not ok" line counts as one test, and a test program that
# exits non-zero without reporting a failure (a crash) counts as one more
# failure.  The last line is "N passed, N failed".  A test program still
# running after TEST_TIMEOUT seconds (default 1200) is stopped (SIGTERM,
# then SIGKILL 10 s later) and counted as failed, so that one hang costs
# that program and not the whole suite.
: "${DBENCH:?DBENCH must name the binary under test}"
: "${UNIT_DIR:?UNIT_DIR must name the unit test directory}"
top=$(cd "$(dirname "$0")/.." && pwd)
limit=${TEST_TIMEOUT:-1200}
log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

run_one() {
	name=$1
	shift
	echo "# $name"
	timeout -k 10 "$limit" "$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	cat "$out" >>"$log"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "not ok - $name stopped after ${limit} s (a hang?)" | tee -a "$log"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $name exited with status $rc" | tee -a "$log"
	fi
}

for t in "$UNIT_DIR"/test_*; do
	[ -x "$t" ] || continue
	CMOCKA_MESSAGE_OUTPUT=TAP run_one "unit/$(basename "$t")" "$t"
done
for t in "$top"/tests/shell/test_*.sh; do
	[ -f "$t" ] || continue
	DBENCH="$DBENCH" TOP="$top" UNIT_DIR="$UNIT_DIR" run_one "shell/$(basename "$t")" sh "$t"
done

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
