# test_functions.sh - no function in src/ is longer than 80 lines
# (doc/DESIGN.md, "Modules"): a longer one does several jobs, which get
# a function each.  A function's length is counted from the line with its
# name to its closing brace; the sources put a function's opening and
# closing braces in column 0, which is how the awk below finds them.
# check-quick: reads the sources
. "$TOP/tests/shell/lib.sh"

MAX=80

# FILE NAME LINES for each function definition in the files given.
cat >"$T/funclen.awk" <<'AWK'
FNR == 1 { cand = 0; infn = 0 }
infn {
	if ($0 ~ /^}/) {
		print FILENAME, name, FNR - start + 1
		infn = 0
	}
	next
}
/^[A-Za-z_].*\(/ && $0 !~ /;[ \t]*$/ && $0 !~ /^#/ {
	s = $0
	sub(/\(.*/, "", s)
	sub(/.*[^A-Za-z0-9_]/, "", s)
	cand = FNR
	cname = s
	next
}
/^{/ && cand { infn = 1; start = cand; name = cname; cand = 0 }
AWK

find "$TOP/src" -name '*.c' | sort >"$T/sources"

begin "the measure finds every function of src/ (as many as the sources define)"
awk -f "$T/funclen.awk" $(cat "$T/sources") >"$T/lengths"
n=$(wc -l <"$T/lengths")
# each definition opens with a column-0 brace; the measure must see them all
braces=$(cat $(cat "$T/sources") | grep -c '^{')
expect_eq "$n" "$braces" "functions measured"
[ "$n" -gt 100 ] || fail "only $n functions found in src/"
end

begin "the measure counts a function from its name to its closing brace"
printf 'static int\nthree(void)\n{\n\treturn 3;\n}\n\nint two(int a,\n\tint b)\n{\n}\n' >"$T/shape.c"
expect_eq "$(awk -f "$T/funclen.awk" "$T/shape.c" | sed "s|$T/||")" \
	"$(printf 'shape.c three 4\nshape.c two 4')"
end

begin "no function in src/ is longer than $MAX lines"
long=$(awk -v max=$MAX '$3 > max { sub(/^.*\/src\//, "src/", $1); printf "%s %s() %d lines; ", $1, $2, $3 }' \
	"$T/lengths")
[ -z "$long" ] || fail "over $MAX lines: $long"
end

finish
