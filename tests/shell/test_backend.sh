# test_backend.sh - the backend interface as a run sees it: operations a
# backend cannot express are counted as not supported, never skipped
# silently and never a failure; --check-loadfile --backend names them.
# The null backend stands in for a network backend through its
# DBENCH_NULL_UNSUPPORTED test hook.
. "$TOP/tests/shell/lib.sh"

cat >"$T/locks.txt" <<'LOAD'
NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK
LockX 1 0 10 NT_STATUS_OK
UnlockX 1 0 10 NT_STATUS_OK
LockX 1 20 10 NT_STATUS_OK
UnlockX 1 20 10 NT_STATUS_OK
Close 1 NT_STATUS_OK
LOAD

begin "operations a backend cannot express are counted as not supported, and the run passes"
mkdir -p "$T/d"
out=$(DBENCH_NULL_UNSUPPORTED=LockX,UnlockX "$DBENCH" --backend=null --run-once \
	-c "$T/locks.txt" -D "$T/d" --json="$T/r.json" 2); rc=$?
expect_status $rc 0
expect_match "$out" '^ not supported by the backend, not performed: LockX 4, UnlockX 4$'
expect_no_match "$out" '^ LockX '
expect_match "$out" '^ NTCreateX +2 '
expect_eq "$(jq -c '[.ops.LockX.not_supported, .ops.UnlockX.not_supported,
		     .ops.LockX.count, .ops.Close.not_supported]' "$T/r.json")" \
	'[4,4,0,null]'
end

begin "a run whose backend expresses everything prints no not-supported line"
out=$("$DBENCH" --backend=null --run-once -c "$T/locks.txt" -D "$T/d" 1); rc=$?
expect_status $rc 0
expect_no_match "$out" 'not supported'
expect_match "$out" '^ LockX +2 '
end

begin "a malformed DBENCH_NULL_UNSUPPORTED fails the client's setup by name"
out=$(DBENCH_NULL_UNSUPPORTED=LockX,Nope "$DBENCH" --backend=null --run-once \
	-c "$T/locks.txt" -D "$T/d" 1 2>&1); rc=$?
expect_status $rc 1
expect_match "$out" 'DBENCH_NULL_UNSUPPORTED is not a list of operation names'
end

begin "--check-loadfile --backend reports nothing for a backend that expresses every operation"
out=$("$DBENCH" --check-loadfile --backend=fileio -c "$T/locks.txt"); rc=$?
expect_status $rc 0
expect_no_match "$out" 'not supported'
end
finish
