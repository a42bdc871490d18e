# test_timeline.sh - each timeline point's operations: how many of each
# type ended in that second and their p99, from the clients' histograms
# of that second (null from fewer than 100), against latencies the null
# backend makes known (DBENCH_NULL_DELAY_US: each client's operations
# spin for the listed microseconds in turn).
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d" "$T/e"

# A unit of 1000 lines, its delays listed line for line: 400
# QUERY_FS_INFORMATION of 1 ms, then 594 QUERY_PATH_INFORMATION of 50 us
# with a FIND_FIRST of 20 ms every 100th line (6: never 100 in a second).
# The loadfile is the unit three times, so each line keeps its delay.
awk 'BEGIN {
	for (u = 0; u < 3; u++)
		for (i = 0; i < 1000; i++)
			if (i < 400)
				print "QUERY_FS_INFORMATION 1 NT_STATUS_OK"
			else if (i % 100 == 50)
				print "FIND_FIRST \"\\clients\\client1\\*\" 260 1366 0 NT_STATUS_OK"
			else
				print "QUERY_PATH_INFORMATION \"\\clients\\client1\" 1004 NT_STATUS_OK"
}' >"$T/mix.txt"
delays=$(awk 'BEGIN { for (i = 0; i < 1000; i++)
	printf "%s%d", i ? "," : "", i < 400 ? 1000 : i % 100 == 50 ? 20000 : 50 }')

begin "each point gives each operation's count and p99 of that second: they add up to the run's, and a p99 is null from fewer than 100"
DBENCH_NULL_DELAY_US=$delays "$DBENCH" --backend=null -q --run-once -c "$T/mix.txt" \
	-D "$T/d" --json="$T/m.json" 1 >"$T/m.out" 2>&1; rc=$?
expect_status $rc 0
expect_eq "$(jq -c '[.timeline[] | .ops | keys] | unique' "$T/m.json")" \
	'[["FIND_FIRST","QUERY_FS_INFORMATION","QUERY_PATH_INFORMATION"]]' "each point's operations"
# --run-once: every operation ended before the last point was taken
for op in QUERY_FS_INFORMATION QUERY_PATH_INFORMATION FIND_FIRST; do
	expect_eq "$(jq "[.timeline[].ops.$op.count] | add" "$T/m.json")" \
		"$(jq ".ops.$op.count" "$T/m.json")" "$op: the seconds' counts against the run's"
done
expect_eq "$(jq '.ops.QUERY_PATH_INFORMATION.count' "$T/m.json")" 1782 "QUERY_PATH_INFORMATION in the run"
expect_eq "$(jq '[.timeline[].ops[] | (.count >= 100) == (.p99_ms != null)] | all' "$T/m.json")" \
	true "a p99 where 100 or more ended in the second, null where fewer did"
# 6 a unit, at 20 ms each: never enough
expect_eq "$(jq -c '[.timeline[].ops.FIND_FIRST.p99_ms] | unique' "$T/m.json")" '[null]' \
	"FIND_FIRST's p99"
end

begin "a second's p99 is that operation's own known latency or more, whichever others ran beside it"
# An operation spins for its delay at least: its bucket's midpoint is no
# lower than the delay less the bucket's width (1/64 of it), whatever the
# machine's load adds.  On a machine so busy that the client never ran
# 100 QUERY_PATH_INFORMATION in a second (594 of 50 us a unit), no
# second would hold a p99 to check: that is a failure too.
expect_eq "$(jq '[.timeline[].ops.QUERY_PATH_INFORMATION.p99_ms | select(. != null)] |
	length > 0 and all(. >= 0.049)' "$T/m.json")" true \
	"QUERY_PATH_INFORMATION: $(jq -c '[.timeline[].ops.QUERY_PATH_INFORMATION | [.count, .p99_ms]]' "$T/m.json")"
expect_eq "$(jq '[.timeline[].ops.QUERY_FS_INFORMATION.p99_ms | select(. != null)] |
	all(. >= 0.98)' "$T/m.json")" true \
	"QUERY_FS_INFORMATION: $(jq -c '[.timeline[].ops.QUERY_FS_INFORMATION | [.count, .p99_ms]]' "$T/m.json")"
end

begin "a timed run of 3 clients over 2 directories: the seconds' counts add up to the run's, but for an operation each client may have had in hand at the end"
# An operation that ended as the time was up can reach the run's figures
# after the last point was taken: at most one a client.
"$DBENCH" --backend=null -q -t 3 --warmup 1 -D "$T/d" -D "$T/e" --json="$T/t.json" 3 \
	>"$T/t.out" 2>&1; rc=$?
expect_status $rc 0
expect_eq "$(jq '.timeline | length' "$T/t.json")" 3 "points"
expect_eq "$(jq '[.ops | to_entries[] | select(.value.count > 0) | .key] | sort' "$T/t.json")" \
	"$(jq '.timeline[0].ops | keys' "$T/t.json")" "the operations of a point are the run's"
expect_eq "$(jq '.timeline as $tl | [.ops | to_entries[] | select(.value.count > 0) |
	.key as $k | .value.count as $n | ([$tl[].ops[$k].count] | add) as $s |
	$s <= $n and $s >= $n - 3] | all' "$T/t.json")" true "each operation's seconds against the run"
expect_eq "$(jq '[.timeline[].ops[] | (.count >= 100) == (.p99_ms != null)] | all' "$T/t.json")" \
	true "p99 where 100 or more"
end

rm -rf "$T/d" "$T/e"
finish
