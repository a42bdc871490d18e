# test_backend.sh - the backend interface as a run sees it: operations a
# backend cannot express are counted as not supported, never skipped
# silently and never a failure; --check-loadfile --backend names them.
# The null backend stands in for a network backend through its
# DBENCH_NULL_UNSUPPORTED test hook.
# check-quick: single passes and errors before any client starts, no timed run
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
begin "a backend that performs none of the loadfile's operations is refused before anything is made, exit 2"
printf '0.000 TESTUNITREADY 0x00\n0.001 READ10 0 8 0 0 0x00\n' >"$T/scsi.load"
mkdir -p "$T/none"
out=$("$DBENCH" --backend=fileio -c "$T/scsi.load" -D "$T/none" -t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: the fileio backend performs none of the operations of '$T/scsi.load' (TESTUNITREADY, ...): give it a loadfile of its kind with -c (--check-loadfile --backend=fileio lists what it cannot perform)" "output"
expect_eq "$(ls -A "$T/none")" "" "made in the directory"
# the iSCSI backend given the built-in loadfile: refused before it connects
out=$("$DBENCH" --backend=iscsi --iscsi=iscsi://127.0.0.1:9/iqn.2000-01.org.example:none/1 \
	-t 2 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: the iscsi backend performs none of the operations of the built-in loadfile \\("
end
begin "every NFS row of include/ops.def is one the nfs backend performs"
# A line a row, its arguments made from the kinds the table gives them:
# a row added to the table that the nfs backend's op[] lacks is named
# here as not supported (over NFSv4, where the locks are too).
awk '/^OP\(/ { row = $0; while (row !~ /\)$/ && (getline more) > 0) row = row " " more
	if (row !~ /OP_DIALECT_NFS/) next
	split(row, f, "\""); line = f[2]
	a = row; sub(/^[^(]*\([^(]*\(/, "", a); sub(/\).*/, "", a)
	n = split(a, k, /, */); p = 0
	for (i = 1; i <= n; i++) {
		if (k[i] == "ARG_PATH") line = line " \"/f" (p++ ? "2" : "") "\""
		else if (k[i] == "ARG_SIZE") line = line " 1"
		else if (k[i] != "") line = line " 0"
	}
	print line " 0x00000000" }' "$TOP/include/ops.def" >"$T/nfsrows.load"
rows=$(wc -l <"$T/nfsrows.load")
[ "$rows" -ge 20 ] || fail "only $rows NFS rows made from include/ops.def"
out=$("$DBENCH" --check-loadfile --backend=nfs --nfs="nfs://127.0.0.1/x?version=${NFS_ROWS_VERSION:-4}" \
	-c "$T/nfsrows.load" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "^distinct_operations $rows\$"
expect_no_match "$out" 'not supported'
end

finish
