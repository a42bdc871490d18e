#!/bin/sh
# tests/run.sh - runs every test and prints one summary line.
#
# Unit tests are cmocka binaries in $UNIT_DIR, run with TAP output; shell
# tests are tests/shell/test_*.sh, which print TAP through tests/shell/lib.sh.
# Each "ok" / "not ok" line counts as one test, and a test program that
# exits non-zero without reporting a failure (a crash) counts as one more
# failure.  The last line is "N passed, N failed".
: "${DBENCH:?DBENCH must name the binary under test}"
: "${UNIT_DIR:?UNIT_DIR must name the unit test directory}"
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

run_one() {
	name=$1
	shift
	echo "# $name"
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	cat "$out" >>"$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out"; then
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
