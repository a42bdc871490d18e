# test_docs.sh - the manual renders cleanly and names every option.
. "$TOP/tests/shell/lib.sh"

begin "dbench.1 renders under groff -man -ww without a warning"
warnings=$(groff -man -ww -Tutf8 "$TOP/man/dbench.1" 2>&1 >/dev/null)
expect_eq "$warnings" "" "groff warnings"
end

begin "the manual pages, README and DESIGN.md hold no control character but tab"
# a "\\f" that a script wrote as "\f" is a form feed, which groff prints as
# nothing and man shows as "DIR/clientRP"
bad=$(grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$TOP"/man/*.1 "$TOP/README" "$TOP/doc/DESIGN.md")
expect_eq "$bad" "" "lines with a control character"
end

begin "no merge conflict is left in the manual pages, README, DESIGN.md or the sources"
# groff prints the markers as text, without a warning
bad=$(grep -rnE '^(<<<<<<<|=======|>>>>>>>)( |$)' "$TOP/man" "$TOP/README" "$TOP/doc" "$TOP/src" \
	"$TOP/tests" | cut -c1-120)
expect_eq "$bad" "" "conflict markers"
end

begin "the manual pages carry the version of include/version.h, which --version prints"
v=$(sed -n 's/^#define DBENCH_VERSION "\(.*\)"$/\1/p' "$TOP/include/version.h")
expect_eq "$("$DBENCH" --version)" "dbench $v" "--version"
for m in dbench tbench tbench_srv; do
	expect_eq "$(awk '$1 == ".TH" { print $6 }' "$TOP/man/$m.1")" "$v\"" "$m.1's .TH version"
done
end

begin "dbench.1 documents every option that --help lists"
page=$(groff -man -Tascii -P-bcou "$TOP/man/dbench.1" 2>/dev/null)
for o in $("$DBENCH" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	printf '%s\n' "$page" | grep -q -- "$o" || fail "$o is not in the manual"
done
end

begin "the BACKENDS section leads from dbench 8 to every backend, an example each"
section=$(groff -man -Tascii -P-bcou "$TOP/man/dbench.1" 2>/dev/null | sed -n '/^BACKENDS$/,/^OUTPUT$/p')
expect_match "$section" '^       dbench 8$'
for b in $("$DBENCH" -B no-such-backend 1 2>&1 | grep -oE "'[a-z0-9]+'" | tr -d "'"); do
	[ "$b" = fileio ] && continue	# the backend of dbench 8 itself
	# its example, wherever groff broke the lines
	printf '%s\n' "$section" | tr -s '\n ' '  ' | grep -q -- "dbench --backend=$b " ||
		fail "no example of --backend=$b under BACKENDS"
done
end

begin "tbench_srv.1 renders cleanly and documents every option that --help lists"
TBENCH_SRV=$(dirname "$DBENCH")/tbench_srv
warnings=$(groff -man -ww -Tutf8 "$TOP/man/tbench_srv.1" 2>&1 >/dev/null)
expect_eq "$warnings" "" "groff warnings"
page=$(groff -man -Tascii -P-bcou "$TOP/man/tbench_srv.1" 2>/dev/null)
for o in $("$TBENCH_SRV" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	printf '%s\n' "$page" | grep -q -- "$o" || fail "$o is not in tbench_srv.1"
done
end

begin "tbench.1 renders cleanly and documents tbench's own options"
warnings=$(groff -man -ww -Tutf8 "$TOP/man/tbench.1" 2>&1 >/dev/null)
expect_eq "$warnings" "" "groff warnings"
page=$(groff -man -Tascii -P-bcou "$TOP/man/tbench.1" 2>/dev/null)
for o in --tcp-options --port --timelimit --loadfile --json --sweep --think-time; do
	printf '%s\n' "$page" | grep -q -- "$o" || fail "$o is not in tbench.1"
done
expect_match "$("$(dirname "$DBENCH")/tbench" --help | head -n 1)" '^Usage: tbench \[OPTION\.\.\.\] NPROCS \[SERVER\]$'
end

begin "the README's set-up commands are the ones CI runs"
expect_match "$(cat "$TOP/README")" '^    make check$'
# .ci/run's stage of it ('stage check make -j2 check': built two jobs at a time)
expect_match "$(cat "$TOP/.ci/run")" '^stage check make( -j[0-9]+)? check$'
end

finish
