# test_docs.sh - the manual renders cleanly and names every option.
# check-quick: reads the man pages, README and sources
. "$TOP/tests/shell/lib.sh"

# The pages, split git's way (doc/DESIGN.md, Documentation): dbench(1)
# for a run, dbench-COMMAND(1) for each command, section 5 for the files
PAGES=$(cd "$TOP/man" && ls -- *.1 *.5)

begin "every manual page renders under groff -man -ww without a warning"
for m in $PAGES; do
	warnings=$(groff -man -ww -Tutf8 "$TOP/man/$m" 2>&1 >/dev/null)
	expect_eq "$warnings" "" "$m's groff warnings"
done
end

begin "every page opens with NAME, SYNOPSIS and DESCRIPTION, and its NAME is its file's"
for m in $PAGES; do
	heads=$(awk '$1 == ".SH" { $1 = ""; print }' "$TOP/man/$m" | head -n 3 | tr -d '"' | tr '\n' ' ')
	expect_eq "$heads" " NAME  SYNOPSIS  DESCRIPTION " "$m's first sections"
	# what man-db's index (whatis, apropos, man -k) reads of it
	expect_match "$(lexgrog "$TOP/man/$m")" "^$TOP/man/$m: \"${m%.*} - "
	expect_eq "$(awk '$1 == ".TH" { print $3 }' "$TOP/man/$m")" "${m##*.}" "$m's .TH section"
done
end

begin "no section of a page is repeated, and each dbench page's SEE ALSO names pages that exist"
for m in $PAGES; do
	dup=$(awk '$1 == ".SH" { $1 = ""; print }' "$TOP/man/$m" | sort | uniq -d)
	expect_eq "$dup" "" "$m's repeated sections"
	see=$(groff -man -Tascii -P-bcou "$TOP/man/$m" 2>/dev/null | awk '/^[A-Z][A-Z -]*$/ { on = ($0 == "SEE ALSO") } on')
	for ref in $(printf '%s\n' "$see" | grep -oE '(dbench|tbench)[a-z_-]*\([15]\)'); do
		name=${ref%(*}; sec=${ref#*(}; sec=${sec%)}
		[ -f "$TOP/man/$name.$sec" ] || fail "$m's SEE ALSO names $ref, which is not in man/"
	done
done
# dbench(1) leads to every other dbench page, and each leads back to it
see=$(groff -man -Tascii -P-bcou "$TOP/man/dbench.1" 2>/dev/null | awk '/^[A-Z][A-Z -]*$/ { on = ($0 == "SEE ALSO") } on')
for m in $PAGES; do
	case $m in dbench.1) continue ;; esac
	printf '%s\n' "$see" | grep -q -- "${m%.*}(${m##*.})" || fail "dbench.1's SEE ALSO does not name $m"
	groff -man -Tascii -P-bcou "$TOP/man/$m" 2>/dev/null | awk '/^[A-Z][A-Z -]*$/ { on = ($0 == "SEE ALSO") } on' |
		grep -q -- 'dbench(1)' || fail "$m's SEE ALSO does not name dbench(1)"
done
end

begin "the manual pages, README and DESIGN.md hold no control character but tab"
# a "\\f" that a script wrote as "\f" is a form feed, which groff prints as
# nothing and man shows as "DIR/clientRP"
bad=$(grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$TOP"/man/*.[15] "$TOP/README" "$TOP/doc/DESIGN.md")
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
for m in $PAGES; do
	expect_eq "$(awk '$1 == ".TH" { print $0 }' "$TOP/man/$m" | grep -oE '"dbench [^"]*"')" "\"dbench $v\"" \
		"$m's .TH version"
done
end

begin "dbench --help names the manual pages, each of them in man/"
out=$("$DBENCH" --help | sed -n '/^The manual pages: /,/^$/p' | tr -s '\n' ' ')
for m in $PAGES; do
	case $m in dbench.1 | dbench-*.5) ;; *) continue ;; esac
	printf '%s\n' "$out" | grep -q -- "${m%.*}(${m##*.})" || fail "--help does not name ${m%.*}(${m##*.})"
done
for ref in $(printf '%s\n' "$out" | grep -oE 'dbench[a-z-]*\([15]\)'); do
	[ -f "$TOP/man/${ref%(*}.$(printf '%s' "$ref" | tr -dc 15)" ] || fail "--help names $ref, not in man/"
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

# man_section PAGE NAME: the rendered page's section NAME, its heading to the next
man_section() {
	groff -man -Tascii -P-bcou "$TOP/man/$1" 2>/dev/null |
		awk -v h="$2" '/^[A-Z][A-Z -]*$/ { on = ($0 == h) } on'
}

# page_of COMMAND: the page that describes a command, git's way
page_of() {
	case $1 in
	convert) echo dbench-record.1 ;;	# one page for the two
	help) echo dbench.1 ;;
	*) echo "dbench-$1.1" ;;
	esac
}

begin "each command --help lists has its page, where its --help options are"
# the commands from --help, which prints the table main() dispatches
# from: a new command without its page of the manual fails here, and
# one whose options are documented on another page
cmds=$("$DBENCH" --help | sed -n '/^Commands (/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ "$(printf '%s\n' "$cmds" | wc -l)" -ge 5 ] || fail "commands listed by --help: $cmds"
for sub in $cmds; do
	m=$(page_of "$sub")
	[ -f "$TOP/man/$m" ] || { fail "dbench $sub has no page: no man/$m"; continue; }
	text=$(groff -man -Tascii -P-bcou "$TOP/man/$m" 2>/dev/null)
	# its NAME names it (man dbench-convert finds dbench-record's page)
	[ "$sub" = help ] || expect_match "$(lexgrog "$TOP/man/$m")" ": \"dbench-$sub - "
	# wherever groff broke or spread the line
	printf '%s\n' "$text" | tr -s '\n ' '  ' | grep -q -- "dbench $sub" ||
		fail "$m does not show dbench $sub"
	for o in $("$DBENCH" "$sub" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		[ "$o" = --help ] || printf '%s\n' "$text" | grep -q -- "$o" ||
			fail "dbench $sub's $o is not in $m"
	done
	# and its --help points to the page
	[ "$sub" = help ] || expect_match "$("$DBENCH" "$sub" --help | tail -n 1)" "^See man ${m%.1}[,.]"
	# dbench(1) leads to it under COMMANDS
	[ "$m" = dbench.1 ] || man_section dbench.1 COMMANDS | grep -q -- "${m%.1}(1)" ||
		fail "dbench.1's COMMANDS does not name ${m%.1}(1)"
done
end

# json_text DOC: where the manual describes that document's members (run:
# dbench-json(5)'s MEMBERS; sweep: dbench(1)'s --sweep option; ab:
# dbench-ab(1)'s DESCRIPTION; tune: dbench-tune(1)'s --json option), as
# one line
json_text() {
	case $1 in
	run) man_section dbench-json.5 MEMBERS ;;
	sweep) groff -man -Tascii -P-bcou "$TOP/man/dbench.1" 2>/dev/null |
		awk '/^       --sweep=LIST$/ { on = 1 } /^       --repeat=K$/ { on = 0 } on' ;;
	ab) man_section dbench-ab.1 DESCRIPTION ;;
	tune) groff -man -Tascii -P-bcou "$TOP/man/dbench-tune.1" 2>/dev/null |
		awk '/^       --json=FILE$/ { on = 1 } /^       --csv=FILE$/ { on = 0 } on' ;;
	esac | tr -s '\n ' '  '
}

begin "every member of the JSON documents (include/dockeys.def) is in the manual, where its document is"
# a member a writer puts out is a row of the table (no writer names one
# otherwise), so a new one without its entry in the manual fails here
"$UNIT_DIR/dockeys" list >"$T/keys" || fail "dockeys list"
[ "$(wc -l <"$T/keys")" -ge 300 ] || fail "only $(wc -l <"$T/keys") members listed"
for doc in run sweep ab tune; do
	text=$(json_text "$doc")
	[ ${#text} -gt 1000 ] || fail "no description of the $doc document found"
	awk -F'\t' -v d="$doc" '$1 == d { n = split($2, p, "."); sub(/\[\]$/, "", p[n]); print p[n] }' \
		"$T/keys" | sort -u >"$T/names"
	while read -r name; do
		printf '%s\n' "$text" | grep -Eq -- "(^|[^a-z_])$name([^a-z_]|\$)" ||
			fail "the $doc document's member $name is not where the manual describes it"
	done <"$T/names"
done
end

begin "EXIT STATUS names every status compare and ab end with, and what each means"
text=$(man_section dbench-compare.1 "EXIT STATUS")
for w in '^       3  ' '^       4  ' 'dbench +ab' 'inconclusive' 'fail-above'; do
	printf '%s\n' "$text" | grep -Eq -- "$w" || fail "EXIT STATUS lacks $w"
done
# 3 is compare's and ab's both, and wins over 4 when both apply
printf '%s\n' "$text" | awk '/^       4  / { exit } /^       3  / { on = 1 } on' | grep -Eq 'dbench +ab' ||
	fail "the entry for 3 does not name dbench ab"
# dbench ab's page leads there for them
text=$(man_section dbench-ab.1 "EXIT STATUS" | tr -s '\n ' '  ')
for w in ' 3 ' ' 4 ' 'fail-above' 'dbench-compare\(1\)'; do
	printf '%s\n' "$text" | grep -Eq -- "$w" || fail "dbench-ab.1's EXIT STATUS lacks $w"
done
end

begin "tbench_srv.1 renders cleanly and documents every option that --help lists"
TBENCH_SRV=$(dirname "$DBENCH")/tbench_srv
warnings=$(groff -man -ww -Tutf8 "$TOP/man/tbench_srv.1" 2>&1 >/dev/null)
expect_eq "$warnings" "" "groff warnings"
page=$(groff -man -Tascii -P-bcou "$TOP/man/tbench_srv.1" 2>/dev/null)
rc=0
help=$("$TBENCH_SRV" --help 2>&1) || rc=$?
expect_eq "$rc" 0 "tbench_srv --help's exit status (a leak report under the sanitizers makes it 1)"
for o in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	printf '%s\n' "$page" | grep -q -- "$o" || fail "$o is not in tbench_srv.1"
done
end

begin "dbench-servers.1 renders cleanly, documents every option and command --help lists, and dbench.1 points to it"
warnings=$(groff -man -ww -Tutf8 "$TOP/man/dbench-servers.1" 2>&1 >/dev/null)
expect_eq "$warnings" "" "groff warnings"
page=$(groff -man -Tascii -P-bcou "$TOP/man/dbench-servers.1" 2>/dev/null)
help=$("$TOP/tools/dbench-servers" --help)
for o in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u) start stop restart \
	smb nfs tbench iscsi; do
	printf '%s\n' "$page" | grep -q -- "$o" || fail "$o is not in dbench-servers.1"
done
# each network backend's example under BACKENDS names the kind that serves it
section=$(groff -man -Tascii -P-bcou "$TOP/man/dbench.1" 2>/dev/null | sed -n '/^BACKENDS$/,/^OUTPUT$/p' |
	tr -s '\n ' '  ')
for k in smb nfs tbench iscsi; do
	printf '%s\n' "$section" | grep -q -- "dbench-servers start $k" ||
		fail "BACKENDS does not point to dbench-servers start $k"
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

begin "every operation of include/ops.def is documented: a row's in dbench-loadfile.5, a call's in SYSCALLS.md"
# The table is the one place an operation is defined (doc/DESIGN.md, "Add
# a system call"): a row added there without its page fails here.
page=$(groff -man -Tascii -P-bcou "$TOP/man/dbench-loadfile.5" 2>/dev/null)
rows=$(sed -n 's/^OP([A-Z0-9_]*, "\([^"]*\)".*/\1/p' "$TOP/include/ops.def")
calls=$(sed -n 's/^SYSCALL([A-Z0-9_]*, "\([^"]*\)".*/\1/p' "$TOP/include/ops.def")
[ "$(echo "$rows" | wc -l)" -gt 50 ] && [ "$(echo "$calls" | wc -l)" -gt 50 ] ||
	fail "include/ops.def's rows were not found ($(echo "$rows" | wc -l), $(echo "$calls" | wc -l))"
for n in $rows; do
	printf '%s\n' "$page" | grep -qiw -- "$n" || fail "$n is not in dbench-loadfile.5"
done
for n in $calls; do
	grep -qw -- "$n" "$TOP/doc/SYSCALLS.md" || fail "$n is not in doc/SYSCALLS.md"
done
end

finish
