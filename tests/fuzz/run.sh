#!/bin/sh
# tests/fuzz/run.sh - build the fuzz targets, replay their inputs, fuzz.
#
#   tests/fuzz/run.sh [BUILD_DIR]      (default build/fuzz, or $FUZZ_BUILD)
#
# The targets, each tests/fuzz/fuzz_NAME.c with its inputs in
# tests/fuzz/NAME/ (corpus/, regressions/ and the dictionary dict):
#
#   loadfile  the loadfile compiler (src/load/)
#   strace    the strace line parser (src/record/strace_line.c), which
#             dbench record and dbench convert feed every line of a trace
#   rundoc    the reader of run documents (src/analysis/rundoc.c), which
#             dbench compare feeds whatever JSON it is named
#
# FUZZ_TARGETS (default all three) chooses.  For each:
# 1. builds BUILD_DIR/fuzz_NAME with clang, libFuzzer, ASan and UBSan (the
#    targets at once);
# 2. replays every file of its corpus/ and regressions/ once: this must
#    pass;
# 3. fuzzes for FUZZ_SECONDS (default 60; 0 skips it), every target at
#    once (so the whole takes FUZZ_SECONDS, the CPUs shared), from a
#    scratch copy of those inputs in BUILD_DIR/NAME/corpus, so nothing new
#    is written into the tree.  A crash, leak, timeout or sanitizer report
#    fails the run; the input is saved under BUILD_DIR/NAME/artifacts/ and
#    its path printed.
#
# Prints two TAP lines per target ("ok 1 - loadfile: corpus replay (31
# inputs)", "ok 2 - loadfile: fuzzing for 60 s found no crash") and exits
# non-zero on any failure.  FUZZ_CC (default clang) and FUZZ_ARGS (extra
# libFuzzer flags) can be set.
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${FUZZ_BUILD:-$top/build/fuzz}}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-loadfile strace rundoc}
cc=${FUZZ_CC:-clang}
here=$top/tests/fuzz
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
failed=0 n=0

case $seconds in
'' | *[!0-9]*) echo "run.sh: FUZZ_SECONDS must be a whole number of seconds, not '$seconds'" >&2; exit 2 ;;
esac
for t in $targets; do
	[ -f "$here/fuzz_$t.c" ] || { echo "run.sh: no fuzz target '$t' (tests/fuzz/fuzz_$t.c)" >&2; exit 2; }
done

# Sanitizer reports go to the log with a stack, and abort so libFuzzer saves the input.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# sources NAME: the sources a target is built from, then its packages
# after a "--".  The loadfile compiler is every source of src/load/ (a
# file added there is built in without a change here) but lookup.c,
# which finds a loadfile by name on disk: the target has it in memory.
sources() {
	case $1 in
	loadfile) echo $(ls src/load/*.c | grep -v '/lookup\.c$') src/base/infile.c src/base/grow.c \
		-- talloc zlib nettle ;;
	strace) echo src/record/strace_line.c -- talloc ;;
	rundoc) echo src/analysis/rundoc.c src/schema/dockey.c src/base/jsontext.c src/stats/hist.c \
		src/base/numstat.c src/base/infile.c src/load/ops.c -- talloc jansson gsl ;;
	esac
}

# max_len NAME: the longest input the fuzzer makes (the seeds' scale).
max_len() {
	case $1 in
	loadfile) echo 8192 ;;
	strace) echo 4096 ;;
	rundoc) echo 16384 ;;
	esac
}

# build NAME: BUILD_DIR/fuzz_NAME, its log in BUILD_DIR/NAME/build.log.
build() {
	set -- "$1" $(sources "$1")
	name=$1 srcs= pkgs=
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs="$srcs $1"; shift; done
	shift
	pkgs=$*
	mkdir -p "$out/$name"
	# shellcheck disable=SC2046,SC2086
	(cd "$top" && "$cc" -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -fno-omit-frame-pointer -D_GNU_SOURCE -std=c11 \
		-Wall -Wextra -Iinclude -Isrc $(pkg-config --cflags $pkgs) \
		-o "$out/fuzz_$name" "tests/fuzz/fuzz_$name.c" $srcs \
		$(pkg-config --libs $pkgs) -lm) >"$out/$name/build.log" 2>&1
}

# inputs NAME: the inputs to replay: every file of its corpus and
# regressions but READMEs.
inputs() {
	for f in "$here/$1"/corpus/* "$here/$1"/regressions/*; do
		[ -f "$f" ] || continue
		case ${f##*/} in README*) continue ;; esac
		printf '%s\n' "$f"
	done
}

# replay NAME: TAP line 1 of the target; false when it failed.
replay() {
	bin=$out/fuzz_$1
	count=$(inputs "$1" | wc -l)
	# libFuzzer given files (not directories) runs each one once and exits.
	inputs "$1" | tr '\n' '\0' | xargs -0 "$bin" -timeout=10 -rss_limit_mb=2048 \
		>"$out/$1/replay.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q 'ERROR: \|runtime error:\|invariant violated' "$out/$1/replay.log"; then
		echo "ok $((n + 1)) - $1: corpus replay ($count inputs)"
		return 0
	fi
	grep -v '^Running: \|^Executed ' "$out/$1/replay.log" | sed 's/^/# /'
	culprit=$(grep '^Running: ' "$out/$1/replay.log" | tail -n 1 | sed 's/^Running: //')
	echo "not ok $((n + 1)) - $1: corpus replay failed on ${culprit:-an input} (reproduce: $bin $culprit)"
	return 1
}

# fuzz NAME: fuzzes it for $seconds into BUILD_DIR/NAME/fuzz.log (in the
# background, with the others).
fuzz() {
	rm -rf "$out/$1/corpus" "$out/$1/artifacts"
	mkdir -p "$out/$1/corpus" "$out/$1/artifacts"
	inputs "$1" | while IFS= read -r f; do cp "$f" "$out/$1/corpus/"; done
	# shellcheck disable=SC2086
	"$out/fuzz_$1" -max_total_time="$seconds" -max_len="$(max_len "$1")" -timeout=10 \
		-rss_limit_mb=2048 -dict="$here/$1/dict" -artifact_prefix="$out/$1/artifacts/" \
		-print_final_stats=1 ${FUZZ_ARGS:-} "$out/$1/corpus" >"$out/$1/fuzz.log" 2>&1
	echo $? >"$out/$1/fuzz.rc"
}

# verdict NAME: TAP line 2 of the target, from its fuzz.log; false when
# the fuzzing found something.
verdict() {
	log=$out/$1/fuzz.log
	rc=$(cat "$out/$1/fuzz.rc" 2>/dev/null || echo 1)
	# The last status line: "#N DONE cov: C ft: F corp: ..." or the last pulse.
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	echo "# $1: fuzz log $log"
	echo "# $1: ${execs:-?} executions in $seconds s, cov ${cov:-?} edges, ft ${ft:-?} features, corpus ${corp:-?} inputs"
	saved=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ] && [ -z "$saved" ]; then
		echo "ok $((n + 2)) - $1: fuzzing for $seconds s found no crash"
		return 0
	fi
	# Show the report itself: from the sanitizer/libFuzzer banner to the end.
	sed -n '/^==[0-9]*==\|runtime error:\|invariant violated\|^INFO: libFuzzer: \|ERROR: libFuzzer/,$p' \
		"$log" | head -n 80 | sed 's/^/# /'
	what=$(grep -m 1 -o 'ERROR: [A-Za-z]*Sanitizer: .*\|ERROR: libFuzzer: .*\|runtime error: .*\|invariant violated.*' \
		"$log" | sed 's/ on \(unknown \)*address.*//; s/ (pid=[0-9]*)//' | cut -c 1-160)
	if [ -n "$saved" ]; then
		echo "# the input was saved as $saved"
		echo "# reproduce: $out/fuzz_$1 $saved"
		echo "# keep it as a regression case: cp $saved $here/$1/regressions/"
	fi
	echo "not ok $((n + 2)) - $1: fuzzing for $seconds s found a crash: ${what:-exit status $rc}${saved:+ (input saved as $saved)}"
	return 1
}

# ---- 1. build (all at once) and replay ----
if ! command -v "$cc" >/dev/null 2>&1; then
	for t in $targets; do
		echo "not ok $((n + 1)) - $t: corpus replay: $cc is not installed (apt-get install clang libclang-rt-14-dev)"
		echo "not ok $((n + 2)) - $t: fuzzing not run: no fuzz target"
		n=$((n + 2))
	done
	exit 1
fi
for t in $targets; do
	{ build "$t"; echo $? >"$out/$t/build.rc"; } &
done
wait
# each target's first line, into NAME/replay.tap; those that replayed are ready
ready=
for t in $targets; do
	if [ "$(cat "$out/$t/build.rc")" -ne 0 ]; then
		{
			sed 's/^/# /' "$out/$t/build.log"
			echo "not ok $((n + 1)) - $t: corpus replay: cannot build $out/fuzz_$t (log above)"
			echo "not ok $((n + 2)) - $t: fuzzing not run: no fuzz target"
		} >"$out/$t/replay.tap"
		failed=1
	elif replay "$t" >"$out/$t/replay.tap"; then
		ready="$ready $t"
	else
		echo "not ok $((n + 2)) - $t: fuzzing not run: the corpus replay failed" >>"$out/$t/replay.tap"
		failed=1
	fi
	n=$((n + 2))
done

# ---- 2. fuzz (all at once), then each one's lines in order ----
if [ "$seconds" -gt 0 ]; then
	for t in $ready; do
		fuzz "$t" &
	done
	wait
fi
n=0
for t in $targets; do
	cat "$out/$t/replay.tap"
	case " $ready " in
	*" $t "*)
		if [ "$seconds" -eq 0 ]; then
			echo "ok $((n + 2)) - $t: fuzzing # SKIP FUZZ_SECONDS=0"
		elif ! verdict "$t"; then
			failed=1
		fi ;;
	esac
	n=$((n + 2))
done
exit $failed
