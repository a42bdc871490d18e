# test_harness.sh - the harnesses that run dbench today (lkp-tests,
# mmtests, Phoronix, autotest) read our output with their own rules, in
# both layouts, and get the fields they get from Debian's dbench 4.0.
#
# The rules are written down here as the harnesses have them:
#   lkp-tests  programs/dbench/parse: on a line starting "Throughput",
#              split on '=', whitespace tokens 1, 3, 5 (from 0) of the
#              first part, the first token of the second; its older awk:
#              FS="[ =]", fields 2, 5, 8, 12.
#   mmtests    shellpacks dbench-bench: "completed in" lines sorted by
#              field 8, the rest without them; "grep execute" for the
#              progress lines (fields 3 and 6); "grep -A 99 Operation"
#              less -----, blank, Throughput and Operation lines for the
#              table (fields 1 and 3); field 4 of a "completed in" line
#              is the pass time, field 8 the time since the start.
#   Phoronix   pts/dbench: the last line containing "Throughput", token 2.
#   autotest   dbench: Throughput (.*?) MB/sec (.*?) procs
. "$TOP/tests/shell/lib.sh"
CLIENT_TXT=/usr/share/dbench/client.txt
NUM='^[0-9]+(\.[0-9]+)?$'

lkp() {		# TEXT -> "throughput clients procs max_latency"
	printf '%s\n' "$1" | awk '/^Throughput/ { split($0, a, "="); split(a[1], v);
		split(a[2], w); print v[2], v[4], v[6], w[1] }'
}
lkp_awk() {	# the older one
	printf '%s\n' "$1" | awk 'BEGIN { FS = "[ =]" } /^Throughput/ { print $2, $5, $8, $12 }'
}
phoronix() {
	printf '%s\n' "$1" | grep Throughput | tail -n 1 | awk '{ print $2 }'
}
autotest() {	# -> "throughput|procs-group", by the same (lazy) regex
	printf '%s\n' "$1" | perl -ne 'if (/Throughput (.*?) MB\/sec (.*?) procs/) {
		print "$1|$2\n"; exit }'
}
mm_remainder() { printf '%s\n' "$1" | sed -e '/completed in/d'; }
mm_tput() { mm_remainder "$1" | grep execute | awk '{ print $6, $3 }'; }
mm_op() {
	mm_remainder "$1" | grep -A 99 Operation |
		sed -e '/-----/d' -e '/^$/d' -e '/Throughput/d' -e '/Operation/d' |
		awk '{ print $1, $3 }'
}
mm_loadfile() {
	printf '%s\n' "$1" | grep "completed in" | sort -n -k8 | awk '{ print $8 / 1000, $4 }'
}
json() {	# FILE JQ [PRINTF]: a figure of a JSON document, printf-formatted
	if [ -n "${3:-}" ]; then
		jq -r "$2" "$1" | awk -v f="$3" '{ printf f "\n", $1, $2 }'
	else
		jq -r "$2" "$1"
	fi
}

# every line of TEXT is "NUMBER NUMBER"
all_numeric_pairs() {
	[ -n "$1" ] || { fail "no line at all"; return; }
	printf '%s\n' "$1" | awk -v n="$2" '!($1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/) { bad = 1 }
		END { exit bad }' || fail "$2: not all number pairs: $(printf '%s' "$1" | head -n 3)"
}

# Debian's dbench 4.0, the reference, and ours in both layouts: the same
# command, a short run on a scratch directory each.
mkdir -p "$T/ref" "$T/d4" "$T/cl"
(cd "$T/ref" && timeout 60 dbench -t 3 2 -c "$CLIENT_TXT" >"$T/ref.out" 2>&1)
ref_rc=$?
ref=$(cat "$T/ref.out")
"$DBENCH" -t 3 --warmup 0 -D "$T/d4" -c "$CLIENT_TXT" --output-format=dbench4 \
	--json="$T/d4.json" 2 >"$T/d4.out"
d4_rc=$?
d4=$(cat "$T/d4.out")
"$DBENCH" -t 3 --warmup 0 -D "$T/cl" -c "$CLIENT_TXT" --json="$T/cl.json" 2 >"$T/cl.out"
cl_rc=$?
cl=$(cat "$T/cl.out")

begin "the reference dbench 4.0 and both layouts of ours ran"
expect_status $ref_rc 0
expect_status $d4_rc 0
expect_status $cl_rc 0
expect_match "$ref" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency=[0-9.]+ ms$'
end

begin "dbench4: the Throughput line is the last line, shaped as 4.0's"
# the rate and the latency blanked; 4.0 prints them with %g, and a whole
# 582 MB/sec has no decimals (CI saw it)
last_shape() { tail -n 1 | sed -E 's/^Throughput [0-9.]+ /Throughput X /; s/=[0-9.]+ ms$/=X ms/'; }
expect_eq "$(printf '%s\n' "$d4" | last_shape)" "$(printf '%s\n' "$ref" | last_shape)" "last line"
end

begin "dbench4: every line has the shape of a line 4.0 prints"
# numbers and names blanked, each of our line shapes is one of 4.0's
shape() { sed -E -e 's/[0-9]+(\.[0-9]+)?/N/g' -e "s/'[^']*'/'F'/" \
	-e 's/^ ([A-Za-z]+) +N +N +N$/ OP N N N/' -e 's/^dbench version .*/dbench version V/' \
	-e 's/ +/ /g'; }
printf '%s\n' "$ref" | grep -v 'barrier semaphore' | shape | sort -u >"$T/ref.shapes"
printf '%s\n' "$d4" | shape | sort -u >"$T/d4.shapes"
extra=$(comm -13 "$T/ref.shapes" "$T/d4.shapes")
expect_eq "$extra" "" "line shapes 4.0 never prints"
expect_match "$d4" '^releasing clients$'
expect_match "$d4" '^2 of 2 processes prepared for launch +[0-9]+ sec$'
expect_match "$d4" '^   2  +[0-9]+  +[0-9]+\.[0-9]{2} MB/sec  execute +[0-9]+ sec  latency [0-9]+\.[0-9]{3} ms$'
expect_match "$d4" '^ Operation      Count    AvgLat    MaxLat$'
expect_match "$d4" '^ Qpathinfo  +[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$'
end

begin "dbench4: the setup and cleanup lines in 4.0's order and counts"
# setup_cleanup OUT: its launch and cleanup lines, seconds blanked, a
# "k of 2" said before all were ready as "<2 of 2"
setup_cleanup() {
	printf '%s\n' "$1" | grep -E 'prepared for launch|^releasing clients$|  cleanup ' |
		sed -E -e 's/[0-9]+ sec$/S sec/' -e 's/^[01] of 2 /<2 of 2 /' -e 's/ +/ /g'
}
# 4.0: "1 of 2" (the processes ready as it first looks; not said when
# both are), "2 of 2", "releasing clients", then cleanup from the 2
# processes running as the time is up down to 0, each count once
want="2 of 2 processes prepared for launch S sec
releasing clients
 2 cleanup S sec
 0 cleanup S sec"
expect_eq "$(setup_cleanup "$ref" | sed '1{/^<2 of 2 /d;}')" "$want" "4.0's own"
expect_eq "$(setup_cleanup "$d4" | sed '1{/^<2 of 2 /d;}')" "$want" "ours"
expect_eq "$(setup_cleanup "$d4" | grep -c '^<2 of 2 ')" \
	"$(setup_cleanup "$d4" | head -n 1 | grep -c '^<2 of 2 ')" "a first look's line first, at most"
end

begin "lkp-tests: throughput, clients, procs, max_latency as from 4.0"
set -- $(lkp "$ref")
expect_match "$1" "$NUM"; expect_eq "$2" 2 "4.0 clients"; expect_eq "$3" 2 "4.0 procs"
expect_match "$4" "$NUM"
set -- $(lkp "$d4")
expect_eq "$1" "$(json "$T/d4.json" .result.throughput_mb_s %.6g)" throughput
expect_eq "$2" 2 clients
expect_eq "$3" 2 procs
expect_eq "$4" "$(json "$T/d4.json" .result.max_latency_ms %.3f)" max_latency
expect_eq "$(lkp_awk "$d4")" "$(lkp "$d4")" "the older awk"
expect_eq "$(lkp_awk "$ref" | awk '{ print $2, $3 }')" "2 2" "the older awk on 4.0"
end

begin "Phoronix and autotest: throughput in both layouts, as from 4.0"
for out in "$ref" "$d4" "$cl"; do
	expect_match "$(phoronix "$out")" "$NUM"
	expect_eq "$(autotest "$out" | cut -d'|' -f1)" "$(phoronix "$out")" "autotest throughput"
	expect_eq "$(autotest "$out" | cut -d'|' -f2 | awk '{ print $NF }')" 2 "autotest procs"
done
expect_eq "$(phoronix "$d4")" "$(json "$T/d4.json" .result.throughput_mb_s %.6g)"
expect_eq "$(phoronix "$cl")" "$(json "$T/cl.json" .result.throughput_mb_s %.6g)"
end

begin "mmtests: a throughput per execute second in both layouts, as from 4.0"
for out in "$ref" "$d4" "$cl"; do
	t=$(mm_tput "$out")
	all_numeric_pairs "$t" "tput"
	# 4.0 shows seconds 1 .. 2 of a 3 s run, the third tick in cleanup
	expect_match "$(printf '%s\n' "$t" | awk '{ print $1 }' | tr '\n' ' ')" "^1 2 (3 )?\$"
done
end

begin "mmtests: per-operation count and mean latency in both layouts"
for out in "$ref" "$d4"; do
	expect_eq "$(mm_op "$out" | awk '{ print $1 }' | LC_ALL=C sort | tr '\n' ' ')" \
		"Close Deltree Find Flush LockX Mkdir NTCreateX Qfileinfo Qfsinfo Qpathinfo ReadX Rename Sfileinfo Unlink UnlockX WriteX " "4.0's operation names"
	all_numeric_pairs "$(mm_op "$out" | awk '{ print $2, $2 }')" "op mean"
done
expect_eq "$(mm_op "$d4" | awk '$1 == "ReadX" { print $2 }')" \
	"$(json "$T/d4.json" .ops.ReadX.mean_ms %.3f)" "ReadX mean"
expect_eq "$(printf '%s\n' "$d4" | awk '$1 == "ReadX" { print $2, $4 }')" \
	"$(json "$T/d4.json" '.ops.ReadX | "\(.count) \(.max_ms)"' '%d %.3f')" \
	"dbench4 ReadX count and MaxLat"
expect_eq "$(mm_op "$cl" | awk '$1 == "ReadX" { print $2 }')" \
	"$(json "$T/cl.json" .ops.ReadX.mean_ms %.3f)" "classic ReadX mean"
expect_eq "$(mm_op "$cl" | wc -l)" "$(json "$T/cl.json" '[.ops[] | select(.count > 0)] | length')" "classic rows"
end

begin "classic: the Throughput line is last and only progress lines say execute"
expect_match "$(printf '%s\n' "$cl" | tail -n 1)" '^Throughput [0-9.]+ MB/sec \(NB='
printf '%s\n' "$cl" >"$T/cl.txt"
only_progress_says_execute "$T/cl.txt"
end

# Passes of a known length: 8 operations of 10 ms each (the null backend
# sleeps that long in each), at least 80 ms a pass.
cat >"$T/pass.txt" <<'LOAD'
NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 65536 65536 NT_STATUS_OK
ReadX 1 0 65536 65536 NT_STATUS_OK
WriteX 1 65536 4096 4096 NT_STATUS_OK
ReadX 1 0 4096 4096 NT_STATUS_OK
Flush 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\f" 0x0 NT_STATUS_OK
LOAD
for layout in classic dbench4; do
	DBENCH_NULL_DELAY_US=10000 "$DBENCH" --backend=null -t 2 --warmup 0 -D "$T/cl" \
		-c "$T/pass.txt" --show-execute-time --output-format=$layout \
		--json="$T/pass-$layout.json" 2 >"$T/pass-$layout.out" 2>&1
	echo $? >"$T/pass-$layout.rc"
done

begin "mmtests: --show-execute-time gives each pass's time, in both layouts"
for layout in classic dbench4; do
	out=$(cat "$T/pass-$layout.out")
	expect_status "$(cat "$T/pass-$layout.rc")" 0
	expect_match "$out" '^   [01] completed in [0-9]+ ms at time [0-9]+ ms$'
	lf=$(mm_loadfile "$out")
	all_numeric_pairs "$lf" "$layout loadfile"
	# each pass took 8 x 10 ms at least, and ended within the 2 s run
	printf '%s\n' "$lf" | awk '$2 < 80 || $1 > 10 { bad = 1 } END { exit bad }' ||
		fail "$layout: a pass time out of range: $(printf '%s' "$lf" | head -n 3)"
	expect_eq "$(printf '%s\n' "$lf" | wc -l)" \
		"$(json "$T/pass-$layout.json" '.passes.list | length')" "$layout passes in JSON"
	expect_eq "$(printf '%s\n' "$out" | grep 'completed in' | awk '{ print $1, $4, $8 }')" \
		"$(json "$T/pass-$layout.json" '.passes.list[] | "\(.client) \(.ms | floor) \(.at_ms | floor)"')" \
		"$layout lines against JSON"
	# the rest of the pipeline still reads the same
	all_numeric_pairs "$(mm_tput "$out")" "$layout tput with passes"
	all_numeric_pairs "$(mm_op "$out" | awk '{ print $2, $2 }')" "$layout op with passes"
	expect_match "$(printf '%s\n' "$out" | tail -n 1)" '^Throughput '
done
end

begin "mmtests: --machine-readable pass lines give the time in field 4 of @"
out=$(DBENCH_NULL_DELAY_US=10000 "$DBENCH" --backend=null --run-once -D "$T/cl" \
	-c "$T/pass.txt" --show-execute-time --machine-readable -t 10000 2)
expect_status $? 0
ms=$(printf '%s\n' "$out" | grep "^@E@" | cut -d '@' -f 4 | head -n 1)
expect_match "$ms" '^[0-9]+$'
[ "${ms:-0}" -ge 80 ] || fail "first pass $ms ms, under 80"
expect_eq "$(printf '%s\n' "$out" | grep -c "^@E@")" 2 "one pass per client"
end

begin "without --show-execute-time no pass line, and passes is null in JSON"
expect_no_match "$cl" 'completed in'
expect_eq "$(json "$T/cl.json" .passes)" null "passes"
end

begin "an unknown option exits 2 and points at --help"
err=$("$DBENCH" --no-such-option 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" '^dbench: --no-such-option: .*dbench --help'
end

begin "--output-format takes classic or dbench4 only"
err=$("$DBENCH" --output-format=dbench3 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^dbench: --output-format must be 'classic' or 'dbench4'$"
end

begin "dbench 4.0's options run, and those that change nothing say so"
out=$("$DBENCH" -t 1 --warmup 0 -D "$T/d4" -c "$CLIENT_TXT" --stat-check -T TCP_NODELAY \
	--one-byte-write-fix -B fileio 1 2>"$T/err"); rc=$?
expect_status $rc 0
expect_match "$(cat "$T/err")" '^dbench: --stat-check changes nothing here'
expect_match "$(cat "$T/err")" "^dbench: --tcp-options 'TCP_NODELAY' changes nothing here"
expect_match "$out" '^Throughput '
end

begin "--fake-io moves no data but counts it"
out=$("$DBENCH" -t 1 --warmup 0 -D "$T/d4" -c "$CLIENT_TXT" --fake-io --skip-cleanup \
	--output-format=dbench4 1 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^Throughput [1-9][0-9.]* MB/sec  1 clients  1 procs'
big=$(find "$T/d4/clients" -type f -size +0 | head -n 1)
expect_eq "$big" "" "a file with data in it"
rm -rf "$T/d4/clients"
end

begin "--one-byte-write-fix extends a file by a zero byte without writing it"
# A zero byte 1 MB into a new file: written, it takes a block; with the
# fix the file is truncated to just past it, a hole with no block.
cat >"$T/one-byte.txt" <<'LOAD'
NTCreateX "\clients\client1\sparse" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 1048576 1 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
LOAD
for fix in "" --one-byte-write-fix; do
	rm -rf "$T/ob"; mkdir -p "$T/ob"
	"$DBENCH" --run-once --skip-cleanup -q -D "$T/ob" -c "$T/one-byte.txt" $fix 1 >/dev/null 2>&1 ||
		fail "run ${fix:-without the fix} failed"
	f="$T/ob/clients/client1/sparse"
	expect_eq "$(stat -c %s "$f")" 1048577 "size ${fix:-without the fix}"
	blocks="$blocks $(stat -c %b "$f")"
done
set -- $blocks
[ "${1:-0}" -gt 0 ] || fail "the byte written without the fix took no block"
expect_eq "${2:-}" 0 "blocks with the fix"
end

# A run that failed (its loadfile expects a file that is not there) and
# one interrupted by SIGINT, in both layouts.
cat >"$T/fail.txt" <<'LOAD'
NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 65536 65536 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\f" 0x0 NT_STATUS_OK
Unlink "\clients\client1\not-there" 0x0 NT_STATUS_OK
LOAD
for layout in classic dbench4; do
	DBENCH_NULL_DELAY_US=1000 "$DBENCH" -t 30 --warmup 0 -D "$T/cl" -c "$T/fail.txt" \
		--output-format=$layout --json="$T/fail-$layout.json" 2 >"$T/fail-$layout.out" 2>&1
	echo $? >"$T/fail-$layout.rc"
	"$DBENCH" -t 60 --warmup 0 -D "$T/cl" --output-format=$layout --json="$T/int-$layout.json" 2 \
		>"$T/int-$layout.out" 2>&1 &
	pid=$!
	wait_for_line "$T/int-$layout.out" ' execute +[0-9]+ sec' || fail "$layout: no execute second"
	kill -INT $pid
	wait $pid
	echo $? >"$T/int-$layout.rc"
done

begin "a failed or interrupted run's last line says PARTIAL, and every harness still reads it"
for layout in classic dbench4; do
	for what in fail int; do
		out=$(cat "$T/$what-$layout.out")
		last=$(printf '%s\n' "$out" | tail -n 1)
		case $what in
		fail) expect_status "$(cat "$T/$what-$layout.rc")" 1
		      expect_match "$last" '^Throughput .*  PARTIAL \(the run failed\)$' ;;
		int) expect_status "$(cat "$T/$what-$layout.rc")" 130
		     expect_match "$last" '^Throughput .*  PARTIAL \(interrupted by SIGINT\)$' ;;
		esac
		doc=$T/$what-$layout.json
		expect_eq "$(phoronix "$out")" "$(json "$doc" .result.throughput_mb_s %.6g)" \
			"$layout $what: Phoronix"
		expect_eq "$(autotest "$out")" "$(phoronix "$out")|$(printf '%s\n' "$last" |
			sed -E 's/^Throughput [^ ]+ MB\/sec (.*) procs .*/\1/')" "$layout $what: autotest"
		expect_eq "$(autotest "$out" | cut -d'|' -f2 | awk '{ print $NF }')" 2 \
			"$layout $what: autotest procs"
	done
	# a good run's last line has no marker
	expect_no_match "$(tail -n 1 "$T/pass-$layout.out")" PARTIAL
done
for what in fail int; do
	set -- $(lkp "$(cat "$T/$what-dbench4.out")")
	expect_eq "$1 $2 $3 $4" "$(json "$T/$what-dbench4.json" \
		'"\(.result.throughput_mb_s) 2 2 \(.result.max_latency_ms)"' | awk '{ printf "%.6g %s %s %.3f", $1, $2, $3, $4 }')" \
		"lkp-tests on the $what run"
	expect_eq "$(lkp_awk "$(cat "$T/$what-dbench4.out")")" "$(lkp "$(cat "$T/$what-dbench4.out")")" \
		"the older awk on the $what run"
done
end

begin "--machine-readable is dbench 5.0's lines, ending in the throughput record"
out=$("$DBENCH" -t 2 --warmup 0 -D "$T/d4" -c "$CLIENT_TXT" --machine-readable 1); rc=$?
expect_status $rc 0
expect_match "$out" '^@R@1@[0-9]+@[0-9]+\.[0-9]{2}@[0-9]+@[0-9]+\.[0-9]{3}@$'
expect_match "$out" '^:ReadX:[0-9]+:[0-9]+\.[0-9]{3}:[0-9]+\.[0-9]{3}:$'
expect_match "$(printf '%s\n' "$out" | tail -n 1)" '^;[0-9.]+;1;1;[0-9]+\.[0-9]{3};$'
end

finish
