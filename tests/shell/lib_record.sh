# tests/shell/lib_record.sh - what the tests of dbench record share
# (sourced after lib.sh): the test ends here, skipped, where strace is
# missing or cannot trace.
command -v strace >/dev/null || { echo "ok 1 # skip strace is not installed"; exit 0; }
if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	echo "ok 1 # skip strace cannot trace here (ptrace refused)"
	exit 0
fi
