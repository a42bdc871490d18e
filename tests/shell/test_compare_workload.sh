# test_compare_workload.sh - "dbench compare" of documents that ran
# different workloads (issue 45): another loadfile or backend is named,
# and no verdict is given on it, --fail-above or not.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"

# run FILE OPTION...: a short run's document (the null backend unless told)
run() {
	_f=$1
	shift
	"$DBENCH" --backend=null --run-once -q --json="$_f" -D "$T/d" "$@" 1 >/dev/null ||
		fail "the run for $_f failed"
}

for i in 1 2 3; do
	run "$T/a$i.json"
	run "$T/b$i.json" -c "$T/one.txt"
done
sha_a=$(jq -r .config.loadfile_sha256 "$T/a1.json" | cut -c1-12)
sha_b=$(jq -r .config.loadfile_sha256 "$T/b1.json" | cut -c1-12)

begin "another loadfile is refused with the two named, exit 2, --fail-above or not"
for gate in "" "--fail-above=5"; do
	out=$("$DBENCH" compare $gate "$T"/a?.json -- "$T"/b?.json 2>&1); rc=$?
	expect_status $rc 2
	expect_eq "$out" "dbench: the documents ran different workloads, which are no change of the set-up to judge: B: loadfile (built-in) (sha256 $sha_a...) -> $T/one.txt (sha256 $sha_b...) (--allow-different-workload shows their figures side by side, without a verdict)"
done
end

begin "another backend is refused too, naming both"
"$DBENCH" --run-once -q --json="$T/f.json" -D "$T/d" 1 >/dev/null || fail "the fileio run failed"
out=$("$DBENCH" compare "$T/a1.json" "$T/f.json" 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" '^dbench: the documents ran different workloads, which are no change of the set-up to judge: B: backend null -> fileio \('
end

begin "--allow-different-workload shows the figures and the difference, no verdict, and --fail-above does not apply"
out=$("$DBENCH" compare --fail-above=5 --allow-different-workload "$T"/a?.json -- "$T"/b?.json 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^Throughput, MB/sec'
expect_match "$out" '^Verdict: none: the documents ran different workloads, whose figures differ by design and are no change of the set-up \(--fail-above does not apply\):$'
expect_match "$out" "^  B: loadfile \\(built-in\\) \\(sha256 $sha_a\\.\\.\\.\\) -> $T/one.txt \\(sha256 $sha_b\\.\\.\\.\\)\$"
expect_no_match "$out" '^(Regression|Inconclusive|OK):'
end

begin "the same workload is compared as ever, the option changing nothing"
out=$("$DBENCH" compare --allow-different-workload "$T/a1.json" "$T/a2.json" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^Verdict: B against A: '
end

finish
