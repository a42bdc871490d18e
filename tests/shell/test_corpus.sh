# test_corpus.sh - real programs as users run them (tests/shell/
# lib_corpus.sh: tar x of a -C DIR . archive, tar c, cpio -i, cp -a,
# rsync -a, git clone, commit and gc, make -j2, sqlite3 in WAL mode,
# python3 -m compileall, find | xargs grep, sort with temporary files,
# gzip, xz, dpkg-deb -x, sed -i, an editor's save), each with small
# inputs: recorded by `dbench record` (its default tracer), compiled, and
# replayed once at 1 and at 8 clients with --strict: no outcome
# difference and no call skipped; the bytes each client wrote within 2 %
# of the program's (its write calls beneath the root, as the recording
# has them), and what the files grew by at 1 client within 2 % of what
# the program's grew by, so that what the recording missed cannot pass
# in silence.  Each program's "left out" lines (what the
# replay cannot reproduce, with counts) are printed.
. "$TOP/tests/shell/lib.sh"
. "$TOP/tests/shell/lib_record.sh"
. "$TOP/tests/shell/lib_corpus.sh"

W=$T/inputs
corpus_inputs "$W" >/dev/null 2>&1

# within2 A B [C]: A within 2 % of B's size, or of C's when larger.
within2() {
	awk -v a="$1" -v b="$2" -v c="${3:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b
		exit !(d <= 0.02 * (b > c ? b : c > 1 ? c : 1)) }'
}

# written LOAD: the bytes the recorded program's write calls wrote.
written() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $NF ~ /^[0-9]+$/ &&
	     $4 ~ /^(write|pwrite64|writev|pwritev2?|copy_file_range|sendfile)$/ { s += $NF }
	     END { print s + 0 }' "$1"
}

# init_bytes LOAD: the total size of the files of its initial state.
init_bytes() {
	awk '$1 == "init" && $2 == "file" { s += $4 } END { print s + 0 }' "$1"
}

# tree_bytes DIR: the total size of the regular files beneath DIR.
tree_bytes() {
	find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}

# replayed LOAD N: replay LOAD once at N clients (the last at N=1 kept in
# $T/r/clients/client1); its JSON in $T/r.json.
replayed() {
	rm -rf "$T/r" && mkdir "$T/r"
	"$DBENCH" --run-once --strict --skip-cleanup -q -c "$1" -D "$T/r" --json="$T/r.json" "$2" \
		>"$T/r.out" 2>&1
}

for p in $(corpus_names); do
	missing=
	for tool in $(corpus_tools "$p"); do
		command -v "$tool" >/dev/null || missing=$tool
	done
	if [ -n "$missing" ]; then
		skip "$p" "$missing is not installed"
		continue
	fi
	begin "$p: recorded, compiled, replayed at 1 and 8 clients with no difference"
	corpus_prepare "$p" "$T/w" "$W" >/dev/null 2>&1
	before=$(tree_bytes "$T/w")
	(cd "$T/w" && "$DBENCH" record -o "$T/$p.load" -- sh -c "$(corpus_cmd "$p" "$W")" \
		>/dev/null 2>"$T/$p.err") || { fail "record: exit $?: $(tail -3 "$T/$p.err")"; end; continue; }
	out=$("$DBENCH" --check-loadfile -c "$T/$p.load" 2>&1) || { fail "refused: $out"; end; continue; }
	want=$(written "$T/$p.load")
	for n in 8 1; do
		# a replay that failed has no figures to judge: the next program
		replayed "$T/$p.load" $n ||
			{ fail "N=$n: exit $?: $(grep -E 'FAILED|rror' "$T/r.out" | head -2)"; end; continue 2; }
		set -- $(jq '([.ops[].errors] | add // 0), ([.ops[].skipped // 0] | add // 0), .result.bytes_written' "$T/r.json")
		expect_eq "$1" 0 "N=$n: outcome differences"
		expect_eq "$2" 0 "N=$n: calls skipped"
		within2 "$(($3 / n))" "$want" || fail "N=$n: a client wrote $(($3 / n)) bytes, the program $want"
	done
	# what the files grew by: the program's from before to after, the
	# replay's from its initial state (the files the program used)
	had=$(($(tree_bytes "$T/w") - before))
	got=$(($(tree_bytes "$T/r/clients/client1") - $(init_bytes "$T/$p.load")))
	within2 "$got" "$had" "$want" || fail "the replay's files grew by $got bytes, the program's by $had"
	echo "# $p: $(grep -c '^[0-9]' "$T/$p.load") calls, $want bytes written, files grew by $had bytes (replay $got)"
	sed -n '/^  left out/,/^  wrote/p' "$T/$p.err" | grep -v '^  wrote' | sed "s/^/# $p: /"
	end
done

finish
