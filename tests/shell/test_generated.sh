# test_generated.sh - generated programs as a property test of `dbench
# record` and the replay: random but valid programs of file calls
# (tests/tools/fsprog.c: nested mkdir/rmdir, create/write/read/truncate,
# renames over existing names and across directories, hard links (also
# linkat following a symbolic link), symbolic links to files and to
# directories with names beneath them, unlink of open files, chmod/utimes
# of files and of the root, processes and threads sharing descriptors),
# each recorded in a scratch directory, compiled, and replayed at N=1
# and N=4 with --strict: no refusal, no outcome difference, no call
# skipped, and the bytes the replay wrote N times the program's.
#
# A batch is one recording of CASES cases (one run of the interpreter,
# each case beneath a directory of its own), so that strace's start is
# paid once for many calls.  A batch that fails is cut down by delta
# debugging, first to the fewest cases, then to the fewest lines, and
# the case that is left is printed and saved beside the regression cases
# (tests/generated/found-SEED.case) to be fixed and kept.
# Every kept case in tests/generated/ runs first.
#
#   FSPROG_SEED     the first batch's seed (default: drawn, and printed)
#   FSPROG_BATCHES  batches to run (default 20), CASES cases of CALLS calls
#   FSPROG_CASES    (default 40) and FSPROG_CALLS (default 30)
#   FSPROG_TRACER   the tracer that records (default: dbench record's)
#   FSPROG_SHRINK_SECONDS  how long a failure is cut down (default 240)
. "$TOP/tests/shell/lib.sh"
. "$TOP/tests/shell/lib_record.sh"

GEN=$UNIT_DIR/fsprog
seed=${FSPROG_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
batches=${FSPROG_BATCHES:-20}
cases=${FSPROG_CASES:-40}
calls=${FSPROG_CALLS:-30}
# a recording or a replay of a batch takes a second or two: one that
# lasts a minute is a hang, a failure of its own (exit 124) to shrink
limit=60
# shrinking stops cutting after this many seconds (FSPROG_SHRINK_SECONDS)
# and keeps what it has: a failure that only shows now and then would
# otherwise try every cut of a thousand lines, hours under run.sh's limit
shrink_seconds=${FSPROG_SHRINK_SECONDS:-240}

# verdict SCRIPT [REPLAYS]: record SCRIPT's run in a scratch directory,
# compile the recording, replay it at 1 and 4 clients (REPLAYS times
# each, default 1: an order the replay misses may show only now and
# then); 0 when all holds, else 1 with the first thing that did not in
# $why.
verdict() {
	why=
	rm -rf "$T/v" && mkdir -p "$T/v/w" "$T/v/r"
	(cd "$T/v/w" && timeout -k 5 "$limit" "$DBENCH" record ${FSPROG_TRACER:+--tracer="$FSPROG_TRACER"} \
		-o "$T/v/rec.load" -- "$GEN" run "$1" \
		>"$T/v/prog.out" 2>"$T/v/rec.err") || { why="record: exit $?: $(tail -2 "$T/v/rec.err")"; return 1; }
	written=$(awk '$1 == "written" { print $2 }' "$T/v/prog.out")
	if grep -q 'with no row' "$T/v/rec.err"; then
		why="record left calls out: $(grep 'with no row' "$T/v/rec.err")"
		return 1
	fi
	out=$("$DBENCH" --check-loadfile -c "$T/v/rec.load" 2>&1) || { why="refused: $out"; return 1; }
	for n in $(for i in $(seq "${2:-1}"); do echo 1 4; done); do
		rm -rf "$T/v/r" && mkdir "$T/v/r"
		timeout -k 5 "$limit" "$DBENCH" --run-once --strict -q -c "$T/v/rec.load" -D "$T/v/r" \
			--json="$T/v/r.json" $n \
			>"$T/v/r.out" 2>&1 ||
			{ why="N=$n: exit $?: $(grep -E 'FAILED|error' "$T/v/r.out" | head -2)"; return 1; }
		set -- "$1" $(jq '([.ops[].errors] | add // 0), ([.ops[].skipped // 0] | add // 0), .result.bytes_written' \
			"$T/v/r.json")
		[ "$2" = 0 ] || { why="N=$n: $2 outcome differences"; return 1; }
		[ "$3" = 0 ] || { why="N=$n: $3 calls skipped"; return 1; }
		[ "$4" = $((n * written)) ] ||
			{ why="N=$n: the replay wrote $4 bytes, the program $written a client"; return 1; }
	done
	return 0
}

# ddmin FILE: cut FILE's lines (units) to a smallest set for which
# `fails_units` still fails (Zeller's delta debugging): remove one of N
# chunks at a time, N doubling when none can go.
ddmin() {
	dd_n=2
	while [ "$(date +%s)" -lt "$shrink_end" ]; do
		dd_len=$(wc -l <"$1")
		[ "$dd_len" -ge 2 ] || break
		[ "$dd_n" -le "$dd_len" ] || dd_n=$dd_len
		dd_cut=0 dd_i=0
		while [ $dd_i -lt $dd_n ]; do
			awk -v n=$dd_n -v i=$dd_i -v len=$dd_len \
				'{ k = int((NR - 1) * n / len) } k != i' "$1" >"$1.try"
			if fails_units "$1.try"; then
				mv "$1.try" "$1"
				dd_cut=1
				break
			fi
			dd_i=$((dd_i + 1))
		done
		if [ $dd_cut = 1 ]; then
			[ $dd_n -gt 2 ] && dd_n=$((dd_n - 1))
		else
			[ "$dd_n" -ge "$dd_len" ] && break
			dd_n=$((dd_n * 2))
		fi
	done
}

# kind WHY: what failed, without its numbers and paths ("N=: exit:
# FAILED: mkdir ENOENT"), so that a cut keeps the failure it cuts for
# rather than make another (a program of no calls, say).
kind() {
	printf '%s\n' "$1" | sed -E 's#(/[^ ]*|[0-9]+)##g; s/\(.*\)//g; s/  +/ /g'
}

# Units: a case a line (its lines joined by ';'), or a line each.
fails_units() {
	if [ "$unit" = case ]; then
		tr ';' '\n' <"$1" >"$T/try.script"
	else
		{ echo case; cat "$1"; } >"$T/try.script"
	fi
	! verdict "$T/try.script" && [ "$(kind "$why")" = "$target" ]
}

# shrink SCRIPT OUT: the fewest cases, then the fewest lines, that fail,
# as far as shrink_seconds allow.
shrink() {
	shrink_end=$(($(date +%s) + shrink_seconds))
	awk '/^case/ { if (c != "") print c; c = "case"; next } { c = c ";" $0 } END { print c }' \
		"$1" >"$T/units"
	unit=case
	ddmin "$T/units"
	tr ';' '\n' <"$T/units" | grep -v '^case$' >"$T/units.lines"
	unit=line
	ddmin "$T/units.lines"
	{ echo case; cat "$T/units.lines"; } >"$2"
}

# The kept cases run as one batch, replayed five times; when it fails,
# each alone names the culprit.  Each works beneath a directory cN of its
# own (a case kept later renames its cN when another has it).
begin "the kept cases (tests/generated/) record, compile and replay at 1 and 4 clients"
cat "$TOP"/tests/generated/*.case >"$T/kept.script"
clash=$(awk '$2 == "mkdir" && $3 ~ /^c[0-9]+$/ { print $3 }' "$TOP"/tests/generated/*.case | sort | uniq -d)
[ -z "$clash" ] || fail "kept cases share the directory $clash"
if ! verdict "$T/kept.script" 5; then
	all=$why
	for s in "$TOP"/tests/generated/*.case; do
		verdict "$s" 5 || fail "$(basename "$s"): $why"
	done
	fail "together: $all"
fi
end

begin "$batches batches of $cases generated programs (seed $seed) replay with no difference"
start=$(date +%s.%N)
b=0 found=0
while [ $b -lt $batches ]; do
	"$GEN" gen $((seed + b)) "$cases" "$calls" >"$T/batch.script"
	if ! verdict "$T/batch.script"; then
		first=$why target=$(kind "$why")
		# a failure that does not come back is said as such, not shrunk
		# (every cut would pass and be refused)
		if verdict "$T/batch.script" 2 || [ "$(kind "$why")" != "$target" ]; then
			fail "seed $((seed + b)) failed once and not again (${why:-passed twice}): $first"
			found=1
			break
		fi
		shrink "$T/batch.script" "$T/shrunk.script"
		verdict "$T/shrunk.script"
		keep="$TOP/tests/generated/found-$((seed + b)).case"
		cp "$T/shrunk.script" "$keep" 2>/dev/null || keep="(not saved: $TOP/tests/generated is not writable)"
		echo "# seed $((seed + b)): $first"
		echo "# shrunk to $(grep -vc '^case' "$T/shrunk.script") lines, saved as $keep: $why"
		sed 's/^/#   /' "$T/shrunk.script"
		fail "seed $((seed + b)) failed: $first (shrunk case above)"
		found=1
		break
	fi
	b=$((b + 1))
done
echo "# $((b * cases)) cases passed in $b batches from seed $seed, $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
end

finish
