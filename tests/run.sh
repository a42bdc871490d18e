#!/bin/bash
# tests/run.sh - runs the test programs, TEST_JOBS of them at a time
# (default 3: most of a program's time is waiting on its timed runs, and
# three on two cores leave the CPUs mostly idle), and prints their
# results as one TAP stream.
#
# Unit tests are cmocka binaries in $UNIT_DIR, run with TAP output; shell
# tests are tests/shell/test_*.sh, which print TAP through tests/shell/lib.sh.
# Each program's output is printed whole once it is done, in the order the
# programs are listed, its "ok" / "not ok" lines renumbered 1, 2, ... across
# the whole run ("ok 57 - shell/test_run.sh: the result line ...") and
# followed by a line with the program's counts and its time; the plan
# ("1..N") comes last, then the summary "N passed, N failed, N skipped".
# A skipped test is an "ok" line with a "# SKIP" directive (TAP's, in
# any case): it is counted as skipped, not passed.
#
# A test program that exits non-zero without reporting a failure (a
# crash) counts as one more failure.  One still running after
# TEST_TIMEOUT seconds (default 1200) is stopped (SIGTERM, then SIGKILL
# 10 s later) and counted as failed, so that one hang costs that program
# and not the whole suite.
#
# The programs start longest first, by their times in the last run (kept
# in $UNIT_DIR/times; in a fresh tree, tests/times: those of a full run
# on a quiet two-core machine; one in neither counts as the longest), so
# that the last to end are short ones rather than one long program alone.
# A shell test with a line "# run alone: REASON" (timing it measures, a
# machine-wide resource) runs with no other test beside it, before the
# others (then none has to be waited for to make room).
#
# A program that ran beside others and could not judge a block for the
# machine's load (lib.sh's skip_load: a skip, or on CI a failure), with
# no other failure, is run again alone once the others are done: the
# load was likely the suite's own programs, and the verdict that counts
# is the one given on a machine the suite leaves quiet.  Its first run's
# load lines are kept as comments above its results, which come last.
# The words that mark those lines are tests/shell/lib_load.sh's, which
# lib.sh prints.
#
# TESTS, when set, names the programs to run ("unit/test_stats
# shell/test_mpi.sh"; "unit" for every unit test).
: "${DBENCH:?DBENCH must name the binary under test}"
: "${UNIT_DIR:?UNIT_DIR must name the unit test directory}"
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/shell/lib_load.sh"
limit=${TEST_TIMEOUT:-1200}
jobs=${TEST_JOBS:-3}
shell_dir=${TEST_SHELL_DIR:-$top/tests/shell}	# another only to test this script
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The programs, one a line: NAME, whether it runs alone, the command.
wanted() {
	[ -z "${TESTS:-}" ] && return 0
	case " $TESTS " in *" $1 "* | *" ${1%%/*} "*) return 0 ;; esac
	return 1
}
names=() alone=() cmds=()
for t in "$UNIT_DIR"/test_*; do
	[ -x "$t" ] || continue
	wanted "unit/$(basename "$t")" || continue
	names+=("unit/$(basename "$t")") alone+=(0) cmds+=("$t")
done
for t in "$shell_dir"/test_*.sh; do
	[ -f "$t" ] || continue
	wanted "shell/$(basename "$t")" || continue
	a=0
	grep -q '^# run alone: ' "$t" && a=1
	names+=("shell/$(basename "$t")") alone+=("$a") cmds+=("$t")
done
count=${#names[@]}

# The order to start them in: those that run alone, then the longest
# first (see above).
times_file=$UNIT_DIR/times
declare -A last=()
for f in "$top/tests/times" "$times_file"; do
	[ -r "$f" ] || continue
	while read -r t_name t_secs; do
		case $t_name in '#'* | '') continue ;; esac
		[ -n "$t_secs" ] && last[$t_name]=$t_secs
	done <"$f"
done
mapfile -t order < <(for ((i = 0; i < count; i++)); do
	echo "${alone[$i]} ${last[${names[$i]}]:-100000} $i"
done | sort -k1,1nr -k2,2nr -k3,3n | cut -d' ' -f3)

# run_one I: program I into $work/I.out, its status in $work/I.rc and its
# seconds in $work/I.time (written last: the program is done).
run_one() {
	local i=$1 name=${names[$1]} start
	start=$(date +%s.%N)
	case $name in
	unit/*) CMOCKA_MESSAGE_OUTPUT=TAP timeout -k 10 "$limit" "${cmds[$i]}" ;;
	shell/*) DBENCH="$DBENCH" TOP="$top" UNIT_DIR="$UNIT_DIR" \
		 timeout -k 10 "$limit" sh "${cmds[$i]}" ;;
	esac >"$work/$i.out" 2>&1 </dev/null
	echo $? >"$work/$i.rc"
	awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f\n", e - s }' >"$work/$i.time.new"
	mv "$work/$i.time.new" "$work/$i.time"
}

# show I: program I's output, renumbered into the one stream.
n=0 passed=0 failed=0 skipped=0
show() {
	local i=$1 name=${names[$1]} rc out p f s
	rc=$(cat "$work/$i.rc")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "not ok - stopped after ${limit} s (a hang?)" >>"$work/$i.out"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$work/$i.out"; then
		echo "not ok - exited with status $rc" >>"$work/$i.out"
	fi
	echo "# $name"
	# the program's own plan is left out: the stream has one, at its end
	# and its own numbers must run 1, 2, 3 ... (a test that skips or
	# repeats one has lost count of its tests)
	out=$(awk -v n="$n" -v name="$name" '
		/^(not )?ok / {
			not = /^not /
			if (match($0, /^(not )?ok [0-9]+/)) {
				own = $0
				sub(/^(not )?ok /, "", own)
				if (own + 0 != ++k && !bad)
					bad = "its test " k " is numbered " (own + 0)
			}
			sub(/^(not )?ok( [0-9]+)?( -)? ?/, "")
			printf "%sok %d - %s: %s\n", not ? "not " : "", ++n, name, $0
			next
		}
		/^[0-9]+\.\.[0-9]+$/ { next }
		{ print }
		END {
			if (bad)
				printf "not ok %d - %s: its TAP numbering is not 1, 2, 3 ...: %s\n",
				       ++n, name, bad
		}' "$work/$i.out")
	[ -n "$out" ] && printf '%s\n' "$out"
	s=$(printf '%s\n' "$out" | grep -Eic '^ok [0-9]+ .*# *skip([^a-z]|$)')
	p=$(($(printf '%s\n' "$out" | grep -c '^ok ') - s))
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	n=$((n + p + s + f)) passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	echo "# $name: $p passed, $f failed, $s skipped in $(cat "$work/$i.time") s"
}

# load_lines I: program I's lines for blocks it could not judge for load
# (see lib.sh's skip_load), when they are its only failures and it ran
# beside others; nothing otherwise.
load_lines() {
	local i=$1 rc
	[ "$jobs" -gt 1 ] && [ "${alone[$i]}" -eq 0 ] || return 0
	rc=$(cat "$work/$i.rc")
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && return 0
	[ "$rc" -ne 0 ] && ! grep -Eq '^not ok ' "$work/$i.out" && return 0
	grep -Eq '^not ok ' "$work/$i.out" &&
		grep -E '^not ok ' "$work/$i.out" | grep -vq ": $LOAD_CI_FAIL" &&
		return 0
	grep -E "^not ok .*: $LOAD_CI_FAIL|^ok .*# SKIP $LOAD_SKIP" "$work/$i.out"
}

# Start the programs in order, at most $jobs at a time, one marked to run
# alone with nothing beside it; print each, in order, once it is done,
# except one to run again alone (see above), whose turn comes at the end.
running=0 next_show=0 again=()
flush() {
	local lines
	while [ "$next_show" -lt "$count" ] && [ -f "$work/$next_show.time" ]; do
		lines=$(load_lines "$next_show")
		if [ -n "$lines" ]; then
			again+=("$next_show")
			printf '%s\n' "$lines" >"$work/$next_show.load"
			echo "# ${names[$next_show]}: $(printf '%s\n' "$lines" | wc -l) block(s) could not judge for load beside the other programs; it runs again alone at the end"
		else
			show "$next_show"
		fi
		next_show=$((next_show + 1))
	done
}
reap() {	# wait for one program to finish
	wait -n
	running=$((running - 1))
	flush
}
suite_start=$(date +%s)
for next in "${order[@]}"; do
	limit_now=$jobs
	[ "${alone[$next]}" -eq 1 ] && limit_now=1
	while [ "$running" -ge "$limit_now" ]; do
		reap
	done
	run_one "$next" &
	running=$((running + 1))
	if [ "${alone[$next]}" -eq 1 ]; then
		while [ "$running" -gt 0 ]; do reap; done
	fi
done
while [ "$running" -gt 0 ]; do reap; done
flush
for i in "${again[@]}"; do
	rm -f "$work/$i.time"
	run_one "$i"
	echo "# ${names[$i]}: its first run, beside the other programs, could not judge:"
	sed 's/^/#   /' "$work/$i.load"
	show "$i"
done
# this run's times for the next one's order, the others' kept
for ((i = 0; i < count; i++)); do
	last[${names[$i]}]=$(cat "$work/$i.time" 2>/dev/null || echo "${last[${names[$i]}]:-}")
done
for t_name in "${!last[@]}"; do
	echo "$t_name ${last[$t_name]}"
done | sort >"$times_file.new" 2>/dev/null && mv "$times_file.new" "$times_file"
echo "1..$n"
echo "# $count test programs in $(($(date +%s) - suite_start)) s, $jobs at a time"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
