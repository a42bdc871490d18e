# test_layers.sh - the layer rule of doc/DESIGN.md ("Modules"), held
# against the sources and the objects the build made of them.
#
# Layers, lowest first; a file may include and call only its own layer
# and the layers below it (those of a lower rank), and the contracts in
# include/:
#   0 base   1 load, net, schema   2 record, proto, stats, servers, host
#   3 backends   4 report   5 run   6 analysis (the readers of saved documents)
#   7 series (what runs the driver again and again)
#   8 top (src/cli.c, src/commands.c, src/main.c ...)
# check-quick: reads the sources and the objects
. "$TOP/tests/shell/lib.sh"

OBJ=$(dirname "$UNIT_DIR")

# The layer of a path beneath src/ (its folder, or "top" for the files at
# the top) and its rank in the list above (-1: not a layer).
cat >"$T/layer.awk" <<'AWK'
function layer(p) {
	sub(/^(.*\/)?src\//, "", p)
	return (p ~ /\//) ? substr(p, 1, index(p, "/") - 1) : "top"
}
function rank(l) {
	if (l == "base") return 0
	if (l == "load" || l == "net" || l == "schema") return 1
	if (l == "record" || l == "proto" || l == "stats" || l == "servers" || l == "host")
		return 2
	if (l == "backends") return 3
	if (l == "report") return 4
	if (l == "run") return 5
	if (l == "analysis") return 6
	if (l == "series") return 7
	if (l == "top") return 8
	return -1
}
AWK
echo '{ print layer($0) }' >"$T/print_layer.awk"

# The layers that include header $1 ("plan.h", "run/client.h"), one a
# line; an include/ header that includes it stands for its own includers.
includers() {
	grep -l "#include \"$1\"" "$TOP"/src/*.c "$TOP"/src/*/*.[ch] "$TOP"/include/*.h 2>/dev/null |
	while read -r f; do
		case $f in
		"$TOP"/include/*) includers "$(basename "$f")" ;;
		*) echo "$f" | awk -f "$T/layer.awk" -f "$T/print_layer.awk" ;;
		esac
	done | sort -u
}

begin "every header in include/ is a contract: more than one layer includes it"
for h in "$TOP"/include/*.h; do
	b=$(basename "$h")
	n=$(includers "$b" | wc -l)
	[ "$n" -ge 2 ] || fail "include/$b is included by $n layer(s): it belongs beside its source"
done
end

begin "a header beside its source is its layer's own: no other layer includes it"
for h in "$TOP"/src/*/*.h; do
	rel=${h#"$TOP"/src/}
	own=${rel%%/*}
	others=$(includers "$rel" | grep -vx "$own" | tr '\n' ' ')
	[ -z "$others" ] || fail "src/$rel is included by $others: a contract goes in include/"
done
end

# The objects of the sources, in $OBJ: those of another build made
# beneath it (build/san, build/plain below build) are not this build's.
(cd "$TOP/src" && ls *.c */*.c) | sed 's/\.c$//' | while read -r f; do
	[ -f "$OBJ/$f.o" ] && echo "$f"
done >"$T/objects"
# "FILE SYMBOL" lines: what each object defines, and what it calls or uses.
while read -r f; do
	nm --defined-only "$OBJ/$f.o" 2>/dev/null |
		awk -v f="$f" 'NF == 3 && $2 ~ /[TDBRC]/ { print f, $3 }'
done <"$T/objects" >"$T/defs"
while read -r f; do
	nm -u "$OBJ/$f.o" 2>/dev/null | awk -v f="$f" '{ print f, $NF }'
done <"$T/objects" >"$T/uses"
awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
	"$T/defs" "$T/uses" | sort -u >"$T/calls"

begin "the objects were found (the build's own files, a call graph of some size)"
[ "$(wc -l <"$T/calls")" -gt 100 ] || fail "only $(wc -l <"$T/calls") calls between files in $OBJ"
end

begin "no file calls into a layer above its own"
cat >"$T/up.awk" <<'AWK'
{
	a = layer("src/" $1); b = layer("src/" $2)
	if (a != b && (rank(a) < 0 || rank(b) < 0 || rank(a) <= rank(b)))
		print $1 " (" a ") calls " $3 " of " $2 " (" b ")"
}
AWK
up=$(awk -f "$T/layer.awk" -f "$T/up.awk" "$T/calls") || fail "awk failed"
expect_eq "$up" "" "calls against the layer rule"
end

begin "the readers of saved documents (analysis/) run nothing: no call into run/"
# the series that run the driver (sweep, ab, tune) are series/, above them
cat >"$T/runs.awk" <<'AWK'
layer("src/" $1) == "analysis" && layer("src/" $2) == "run" { print $1 " calls " $3 " of " $2 }
AWK
runs=$(awk -f "$T/layer.awk" -f "$T/runs.awk" "$T/calls") || fail "awk failed"
expect_eq "$runs" "" "readers that call the driver's layer"
end

begin "no circle between files: the calls between them order them"
awk '{ print $1, $2 }' "$T/calls" | sort -u >"$T/edges"
tsort "$T/edges" >/dev/null 2>"$T/loops" ||
	fail "files in a circle: $(grep -v 'input contains a loop' "$T/loops" | tr '\n' ' ')"
end

begin "loadfile.c names no dialect: it asks the list of load/dialect.c"
# (each dialect a file behind struct dialect: doc/DESIGN.md, "Dialects
# behind one face")
named=$(awk '$1 == "load/loadfile" && $2 != "load/loadfile" && $2 ~ /^load\// &&
	$2 !~ /^load\/(lex|dialect|optab|strset|ops)$/ { print $2 " (" $3 ")" }' "$T/calls")
expect_eq "$named" "" "what loadfile.c uses of the dialects' files"
end

finish
