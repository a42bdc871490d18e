# test_schema.sh - the JSON documents' schema (include/dockey.h): the
# members a document of each schema holds, by the table dockeys.def;
# documents saved before there was a schema member (schema 1) read as
# they were; any other schema refused by its number.
# check-quick: reads saved documents, makes no run
. "$TOP/tests/shell/lib.sh"
S1=$TOP/tests/data/schema1

begin "the saved documents of schema 1 hold every member the table gives schema 1, and no other"
# a member renamed, removed or given another type in the table, without a
# new schema, no longer matches the documents users have: this fails
for f in run sweep ab; do
	out=$("$UNIT_DIR/dockeys" check "$S1/$f.json") || fail "$out"
done
end

# as_schema2 FILE OUT: FILE as this dbench would write it (schema 2: the
# same members, and the schema first, in each run of a series too)
as_schema2() {
	jq '{schema: 2} + . | if .runs then .runs |= map({schema: 2} + .) else . end' "$1" >"$2"
}

begin "a sweep of schema 1 is compared with one of schema 2: each side's figures are its own"
as_schema2 "$S1/sweep.json" "$T/sweep2.json"
"$UNIT_DIR/dockeys" check "$T/sweep2.json" || fail "the schema 2 copy is not of schema 2"
out=$("$DBENCH" compare "$S1/sweep.json" "$T/sweep2.json" 2>&1); rc=$?
expect_status $rc 0
for n in 1 2; do
	mb=$(jq --argjson n "$n" '.runs[] | select(.config.nprocs == $n) | .result.throughput_mb_s' \
		"$S1/sweep.json")
	wait=$(jq --argjson n "$n" '.runs[] | select(.config.nprocs == $n) | .host.cpu_wait_pct' \
		"$S1/sweep.json")
	mb=$(printf '%.3f' "$mb"); wait=$(printf '%.1f' "$wait")
	expect_match "$out" "^ +$n +1/1 +$mb +$mb +\\+0\\.00% "
	expect_match "$out" "^ +$n +A +1 +$wait% "
	expect_match "$out" "^ +$n +B +1 +$wait% "
done
expect_no_match "$out" 'nan|inf'
end

begin "a run and an ab series of schema 1 are read whole: the environment, the sides, the settings"
as_schema2 "$S1/run.json" "$T/run2.json"
out=$("$DBENCH" compare "$S1/run.json" "$T/run2.json" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^A: saved \(.*/run\.json: 1 run at nprocs 2\)$'
expect_match "$out" '^Environments: no differences$'
out=$("$DBENCH" compare "$S1/ab.json" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^B: --think-time=100 \(.*ab\.json, side B: dbench ab, 1 run at nprocs 1\)$'
expect_match "$out" '^  config\.think_time_us: 0\.0 -> 100\.0$'
end

begin "a document of a schema this dbench does not read is refused by its number, exit 2"
for s in 4 0 '"2"' 1.5; do
	jq --argjson s "$s" '{schema: $s} + .' "$S1/run.json" >"$T/s.json"
	out=$("$DBENCH" compare "$T/s.json" "$S1/run.json" 2>&1); rc=$?
	expect_status $rc 2
	expect_eq "$out" "dbench: '$T/s.json': a document of schema $s, this dbench reads 1..3" \
		"schema $s"
done
end

begin "a series with a run of another schema is refused, naming the run"
jq '.runs[1] = ({schema: 7} + .runs[1])' "$S1/sweep.json" >"$T/mixed.json"
out=$("$DBENCH" compare "$S1/run.json" -- "$S1/run.json" "$T/mixed.json" 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: '$T/mixed.json': runs[1] is a document of schema 7, this dbench reads 1..3"
end

finish
