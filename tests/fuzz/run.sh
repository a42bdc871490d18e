#!/bin/sh
# tests/fuzz/run.sh - build the loadfile fuzz target, replay its inputs, fuzz.
#
#   tests/fuzz/run.sh [BUILD_DIR]      (default build/fuzz, or $FUZZ_BUILD)
#
# 1. builds BUILD_DIR/fuzz_loadfile with clang, libFuzzer, ASan and UBSan;
# 2. replays every file of tests/fuzz/corpus/ and tests/fuzz/regressions/
#    once: this must pass;
# 3. fuzzes for FUZZ_SECONDS (default 60; 0 skips it) from a scratch copy of
#    those inputs in BUILD_DIR/corpus, so nothing new is written into the
#    tree.  A crash, leak, timeout or sanitizer report fails the run; the
#    input is saved under BUILD_DIR/artifacts/ and its path printed.
#
# Prints one TAP line per step ("ok 1 - fuzz corpus replay", "ok 2 - ...")
# for tests/run.sh-style counting, and exits non-zero on any failure.
# FUZZ_CC (default clang) and FUZZ_ARGS (extra libFuzzer flags) can be set.
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${FUZZ_BUILD:-$top/build/fuzz}}
seconds=${FUZZ_SECONDS:-60}
cc=${FUZZ_CC:-clang}
here=$top/tests/fuzz
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bin=$out/fuzz_loadfile
failed=0

case $seconds in
'' | *[!0-9]*) echo "run.sh: FUZZ_SECONDS must be a whole number of seconds, not '$seconds'" >&2; exit 2 ;;
esac

# Sanitizer reports go to the log with a stack, and abort so libFuzzer saves the input.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# The inputs to replay: every file of the corpus and the regressions but READMEs.
inputs() {
	for f in "$here"/corpus/* "$here"/regressions/*; do
		[ -f "$f" ] || continue
		case ${f##*/} in README*) continue ;; esac
		printf '%s\n' "$f"
	done
}

build() {
	# shellcheck disable=SC2046
	(cd "$top" && "$cc" -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -fno-omit-frame-pointer -D_GNU_SOURCE -std=c11 \
		-Wall -Wextra -Iinclude -Isrc $(pkg-config --cflags talloc zlib nettle) \
		-o "$bin" tests/fuzz/fuzz_loadfile.c src/load/loadfile.c src/load/ops.c \
		src/load/syscalls.c src/load/strset.c src/load/optab.c src/load/smbload.c src/load/blockload.c \
		src/base/infile.c \
		$(pkg-config --libs talloc zlib nettle)) >"$out/build.log" 2>&1
}

# ---- 1. build and replay ----
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "not ok 1 - fuzz corpus replay: $cc is not installed (apt-get install clang libclang-rt-14-dev)"
	echo "not ok 2 - fuzzing not run: no fuzz target"
	exit 1
fi
if ! build; then
	cat "$out/build.log"
	echo "not ok 1 - fuzz corpus replay: cannot build $bin (log above)"
	echo "not ok 2 - fuzzing not run: no fuzz target"
	exit 1
fi

n=$(inputs | wc -l)
# libFuzzer given files (not directories) runs each one once and exits.
inputs | tr '\n' '\0' | xargs -0 "$bin" -timeout=10 -rss_limit_mb=2048 >"$out/replay.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q 'ERROR: \|runtime error:\|invariant violated' "$out/replay.log"; then
	echo "ok 1 - fuzz corpus replay ($n inputs)"
else
	grep -v '^Running: \|^Executed ' "$out/replay.log" | sed 's/^/# /'
	culprit=$(grep '^Running: ' "$out/replay.log" | tail -n 1 | sed 's/^Running: //')
	echo "not ok 1 - fuzz corpus replay failed on ${culprit:-an input} (reproduce: $bin $culprit)"
	failed=1
fi

# ---- 2. fuzz ----
if [ "$seconds" -eq 0 ]; then
	echo "ok 2 - fuzzing # skipped: FUZZ_SECONDS=0"
	exit $failed
fi
if [ $failed -ne 0 ]; then
	echo "not ok 2 - fuzzing not run: the corpus replay failed"
	exit 1
fi

rm -rf "$out/corpus" "$out/artifacts"
mkdir -p "$out/corpus" "$out/artifacts"
inputs | while IFS= read -r f; do cp "$f" "$out/corpus/"; done
# shellcheck disable=SC2086
"$bin" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-dict="$here/loadfile.dict" -artifact_prefix="$out/artifacts/" \
	-print_final_stats=1 ${FUZZ_ARGS:-} "$out/corpus" >"$out/fuzz.log" 2>&1
rc=$?

# The last status line: "#N DONE cov: C ft: F corp: ..." or the last pulse.
last=$(grep -E '^#[0-9]+' "$out/fuzz.log" | tail -n 1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
echo "# fuzz log: $out/fuzz.log"
echo "# ${execs:-?} executions in $seconds s, cov ${cov:-?} edges, ft ${ft:-?} features, corpus ${corp:-?} inputs"

saved=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$out/fuzz.log" | tail -n 1)
if [ $rc -eq 0 ] && [ -z "$saved" ]; then
	echo "ok 2 - fuzzing for $seconds s found no crash"
	exit 0
fi
# Show the report itself: from the sanitizer/libFuzzer banner to the end.
sed -n '/^==[0-9]*==\|runtime error:\|invariant violated\|^INFO: libFuzzer: \|ERROR: libFuzzer/,$p' \
	"$out/fuzz.log" | head -n 80 | sed 's/^/# /'
what=$(grep -m 1 -o 'ERROR: [A-Za-z]*Sanitizer: .*\|ERROR: libFuzzer: .*\|runtime error: .*\|invariant violated.*' \
	"$out/fuzz.log" | sed 's/ on \(unknown \)*address.*//; s/ (pid=[0-9]*)//' | cut -c 1-160)
if [ -n "$saved" ]; then
	echo "# the input was saved as $saved"
	echo "# reproduce: $bin $saved"
	echo "# keep it as a regression case: cp $saved $here/regressions/"
fi
echo "not ok 2 - fuzzing for $seconds s found a crash: ${what:-exit status $rc}${saved:+ (input saved as $saved)}"
exit 1
