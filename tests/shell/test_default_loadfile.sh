# test_default_loadfile.sh - the built-in workload is what its generator makes.
# check-quick: one pass of the built-in loadfile (--run-once), no timed run
. "$TOP/tests/shell/lib.sh"

begin "loadfiles/default.txt is exactly tools/genload.c's output"
if cc -std=c11 -O2 -o "$T/genload" "$TOP/tools/genload.c"; then
	"$T/genload" >"$T/default.txt" || fail "genload exited $?"
	cmp -s "$T/default.txt" "$TOP/loadfiles/default.txt" ||
		fail "default.txt differs from genload's output: run 'make loadfile' and commit"
else
	fail "tools/genload.c does not compile"
fi
end

begin "the built-in loadfile is the one in loadfiles/"
a=$("$DBENCH" --check-loadfile | sed 1d)
b=$("$DBENCH" --check-loadfile -c "$TOP/loadfiles/default.txt" | sed 1d)
expect_eq "$a" "$b" "summary"
end

begin "one pass of the built-in loadfile meets every expected status"
out=$("$DBENCH" --run-once -q -D "$T" 1); rc=$?
expect_status $rc 0
expect_no_match "$out" '^FAILED'
expect_eq "$(ls -A "$T" | grep -v '^genload$\|^default.txt$')" "" "left behind"
end

finish
