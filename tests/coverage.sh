#!/bin/sh
# tests/coverage.sh - the share of src/'s lines a test run executed, from
# the gcov notes and counts of a build made with --coverage (make
# coverage: build/cov, the whole suite run there).
#
#   tests/coverage.sh OBJDIR [LOG]
#
# Prints a line per layer (src/base, src/load ...) and the total, "lines
# executed / lines", from gcov's summary of each source; with LOG, the
# test run's summary line too (a build at -O0 may fail a timing test:
# its count is said, not hidden).  Nothing is written into the tree:
# gcov runs in a scratch directory.
obj=${1:?usage: tests/coverage.sh OBJDIR [LOG]}
top=$(cd "$(dirname "$0")/.." && pwd)
obj=$(cd "$obj" && pwd) || exit 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$top" || exit 2
for src in src/*.c src/*/*.c src/*/*/*.c; do
	rel=${src#src/}
	o=$obj/${rel%.c}.o
	[ -f "$o" ] || continue
	# "File 'src/x.c'" then "Lines executed:85.00% of 120"; -n writes no .gcov
	(cd "$scratch" && gcov -n -o "$(dirname "$o")" "$top/$src" 2>/dev/null) |
		awk -v f="$src" '
			/^File / { name = $2; gsub(/\047/, "", name) }
			/^Lines executed:/ && name ~ ("(^|/)" f "$") {
				split($2, a, ":"); sub(/%/, "", a[2])
				printf "%s %d %d\n", f, a[2] * $4 / 100 + 0.5, $4
				exit
			}'
done >"$scratch/lines"

[ -s "$scratch/lines" ] || { echo "coverage.sh: no gcov data under $obj (make coverage builds it)" >&2; exit 1; }
awk '{
	split($1, p, "/"); layer = (p[3] == "" ? "src (cli, main)" : "src/" p[2])
	run[layer] += $2; all[layer] += $3; r += $2; n += $3
}
END {
	for (l in run) printf "%-18s %6d / %6d lines  %5.1f %%\n", l, run[l], all[l], 100 * run[l] / all[l] | "sort"
	close("sort")
	printf "%-18s %6d / %6d lines  %5.1f %%\n", "total", r, n, 100 * r / n
}' "$scratch/lines"
if [ -n "${2:-}" ]; then
	echo "the tests: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)"
fi
