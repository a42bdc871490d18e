# test_convert.sh - `dbench convert` of strace's output made the usual
# ways: -f into one file (a thread id on each line) and -ff, with and
# without -y or -yy and -T, with -ttt, -tt, -t, -r or no time, a short
# -s (which cuts data, never a path), a relative -o into the traced directory, a trace attached with -p
# to a program already running.  Each is converted, compiled
# (--check-loadfile) and replayed with --strict at two clients.
. "$TOP/tests/shell/lib.sh"

command -v strace >/dev/null || { echo "ok 1 # skip strace is not installed"; exit 0; }
if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	echo "ok 1 # skip strace cannot trace here (ptrace refused)"
	exit 0
fi

mkdir -p "$T/w"
printf 'hello\n' >"$T/w/in"
SCRIPT='cat in > out; mkdir d; echo x > d/f; mv d/f d/g; ls d > /dev/null; rm d/g; rmdir d; rm out'

# traced NAME OPTION...: the script traced in $T/w by strace with the
# options, into $T/NAME/t (one file, or the -ff set t.PID).
traced() {
	tr_name=$1
	shift
	rm -rf "$T/$tr_name"
	mkdir -p "$T/$tr_name"
	(cd "$T/w" && strace "$@" -o "$T/$tr_name/t" sh -c "$SCRIPT") || fail "strace $*: exit status $?"
}

# converted NAME: $T/NAME/t converted from $T/w into $T/NAME.load
# (stderr in NAME.err), compiled, and replayed at 2 clients with no
# outcome difference.
converted() {
	(cd "$T/w" && "$DBENCH" convert -o "$T/$1.load" "$T/$1/t" 2>"$T/$1.err") ||
		fail "convert: exit status $?: $(grep '^dbench' "$T/$1.err")"
	_sum=$("$DBENCH" --check-loadfile -c "$T/$1.load" 2>&1) || fail "--check-loadfile: $_sum"
	rm -rf "$T/replay" && mkdir "$T/replay"
	_out=$("$DBENCH" -c "$T/$1.load" --run-once --strict -q -D "$T/replay" 2 2>&1) ||
		fail "replay: exit status $?: $(printf '%s\n' "$_out" | grep -E 'FAILED|rror' | head -2)"
}

# the_script NAME: the rows of what the script did beneath $T/w.
the_script() {
	_l=$(cat "$T/$1.load")
	expect_match "$_l" '^init file "in" 6 0644$'
	expect_match "$_l" ' openat "in" O_RDONLY'
	expect_match "$_l" ' openat "out" O_WRONLY\|O_CREAT\|O_TRUNC 0666 [0-9]+$'
	expect_match "$_l" ' mkdir "d" 0777 0$'
	expect_match "$_l" ' renameat2? "d/f" "d/g"( RENAME_NOREPLACE)? 0$'
	expect_match "$_l" ' getdents64 [0-9]+ [0-9]+ \*$'
	expect_match "$_l" ' (rmdir "d"|unlinkat "d" AT_REMOVEDIR) 0$'
	expect_eq "$(grep -c '^init ' "$T/$1.load")" 1 "init lines"
}

# (-s cuts the data strace prints, never a path)
for opts in "-f -ttt -T -y" "-f -tt -T -yy" "-f -ttt -xx" "-f -tt" "-f -t -T" "-f -r" "-f" \
	"-f -ttt -T -s 2" "-ff -ttt -T -y -xx" "-ff -tt -T -yy" "-ff -ttt" "-ff -tt"; do
	begin "strace $opts: converted, compiled, replayed, every call of the script there"
	name=$(printf '%s' "$opts" | tr -d ' -')
	traced "$name" $opts
	converted "$name"
	the_script "$name"
	end
done

begin "strace -ff -t or -r: refused, saying the times cannot order the files (exit 2)"
traced fft -ff -t
out=$(cd "$T/w" && "$DBENCH" convert -o "$T/fft.load" "$T/fft/t" 2>&1)
expect_status $? 2
expect_match "$out" "^dbench: '$T/fft/t\.[0-9]+': its times are whole seconds \(-t\): strace -ff's files are put in order by their times, which needs -tt or -ttt \(or trace with -f into one file\)$"
traced ffr -ff -r
out=$(cd "$T/w" && "$DBENCH" convert -o "$T/ffr.load" "$T/ffr/t" 2>&1)
expect_status $? 2
expect_match "$out" "its times are relative \(-r\)"
[ ! -e "$T/fft.load" ] && [ ! -e "$T/ffr.load" ] || fail "a loadfile was written"
end

begin "a relative -o into the traced directory: the trace's files are not the program's"
rm -rf "$T/w/tr"
mkdir "$T/w/tr"
(cd "$T/w" && strace -ff -ttt -T -y -o tr/t sh -c "$SCRIPT; ls -R . > /dev/null") || fail "strace: exit status $?"
(cd "$T/w" && "$DBENCH" convert -o "$T/rel.load" tr/t 2>"$T/rel.err") || fail "convert: exit status $?"
expect_no_match "$(cat "$T/rel.load")" '"tr/'
expect_match "$(cat "$T/rel.load")" ' mkdir "d" 0777 0$'
"$DBENCH" --check-loadfile -c "$T/rel.load" >/dev/null 2>&1 || fail "--check-loadfile: exit status $?"
rm -rf "$T/w/tr"
end

begin "strace -p attached to a running program: its older descriptors are counted, not an error"
cat >"$T/w/slow.sh" <<'EOF'
exec 3>>log
i=0
while [ $i -lt 40 ]; do
	echo $i >&3
	echo q > tmp.$i
	rm tmp.$i
	sleep 0.1
	i=$((i + 1))
done
EOF
(cd "$T/w" && exec sh slow.sh) &
prog=$!
sleep 0.5
mkdir -p "$T/p"
timeout -s INT 1.5 strace -f -ttt -T -y -p "$prog" -o "$T/p/t" 2>/dev/null
wait "$prog"
(cd "$T/w" && "$DBENCH" convert -o "$T/p.load" "$T/p/t" 2>"$T/p.err") ||
	fail "convert: exit status $?: $(grep '^dbench' "$T/p.err")"
expect_match "$(cat "$T/p.err")" '^ +[0-9]+ calls on descriptors the trace never saw opened'
expect_match "$(cat "$T/p.load")" ' unlinkat "tmp\.[0-9]+" 0 0$'
expect_no_match "$(cat "$T/p.load")" '"log"'
rm -rf "$T/replay" && mkdir "$T/replay"
out=$("$DBENCH" -c "$T/p.load" --run-once --strict -q -D "$T/replay" 2 2>&1) ||
	fail "replay: exit status $?: $(printf '%s\n' "$out" | grep -E 'FAILED|rror' | head -2)"
end

# hostile ONE-LINE...: a -f trace of those lines (printf's format), in $T/h.
hostile() {
	mkdir -p "$T/h"
	printf "$@" >"$T/h/t"
}

begin "absurd numbers in a trace: FILE:LINE and exit 2, never 'out of memory'"
hostile '100 1796169071.000001 openat(AT_FDCWD</r>, "a", O_RDONLY) = 1073741823</r/a> <0.000001>\n'
out=$("$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>&1)
expect_status $? 2
expect_eq "$out" "dbench: $T/h/t:1: openat returned descriptor 1073741823, beyond the most a loadfile names (1048575)"
hostile '100 1796169071.000001 openat(AT_FDCWD</r>, "a", O_RDONLY) = 3</r/a> <0.000001>\n%s\n' \
	'100 1796169071.000002 read(3</r/a>, "", 99999999999999999999999) = 99999999999999999999 <0.000001>'
out=$("$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>&1)
expect_status $? 2
expect_eq "$out" "dbench: $T/h/t:2: a number no call gives: '99999999999999999999'"
hostile '100 1796169071.000001 openat(AT_FDCWD</r>, "a", O_RDONLY) = 3</r/a> <0.000001>\n%s\n' \
	'100 1796169071.000002 lseek(3</r/a>, 99999999999999999999, SEEK_SET) = 0 <0.000001>'
out=$("$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>&1)
expect_status $? 2
expect_eq "$out" "dbench: $T/h/t:2: lseek: a number beyond 64 bits ('99999999999999999999')"
hostile '99999999999 1796169071.000001 close(3) = 0\n'
out=$("$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>&1)
expect_status $? 2
expect_eq "$out" "dbench: $T/h/t:1: a number no call gives: '99999999999'"
[ ! -e "$T/h.load" ] || fail "a loadfile was written"
end

begin "a size no file system holds (st_size=9000000000000000000) is made at 1 TiB, saying so"
hostile '100 1796169071.000001 newfstatat(AT_FDCWD</r>, "big", {st_mode=S_IFREG|0644, st_size=9000000000000000000, ...}, 0) = 0 <0.000001>\n'
"$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>"$T/h.err" || fail "exit status $?: $(cat "$T/h.err")"
expect_match "$(cat "$T/h.load")" '^init file "big" 1099511627776 0644$'
expect_match "$(cat "$T/h.err")" "^  capped    1 file larger than the 1 TiB an initial state's file may be, made at 1 TiB \(the largest: 'big', 9000000000000000000 bytes\)$"
end

begin "a hostile -f trace: interleaved halves, a half alone, a thread never started, a stray line"
hostile '%s\n' \
	'10 1796169071.000000 openat(AT_FDCWD</r>, "a", O_RDONLY <unfinished ...>' \
	'11 1796169071.000001 openat(AT_FDCWD</r>, "b", O_WRONLY|O_CREAT, 0644) = 3</r/b> <0.000001>' \
	'10 1796169071.000002 <... openat resumed>) = 4</r/a> <0.000003>' \
	'10 1796169071.000003 read(4</r/a>,  <unfinished ...>' \
	'11 1796169071.000004 write(3</r/b>, "x", 1) = 1 <0.000001>' \
	'11 1796169071.000005 <... close resumed>) = 0 <0.000001>' \
	'this is not a line of strace'"'"'s' \
	'11 1796169071.000006 close(3</r/b>) = 0 <0.000001>' \
	'10 1796169071.000007 +++ exited with 0 +++'
"$DBENCH" convert -o "$T/h.load" "$T/h/t" 2>"$T/h.err" || fail "exit status $?: $(cat "$T/h.err")"
expect_eq "$(grep -v '^#' "$T/h.load")" 'syscalls 1
init file "a" 0 0644
1 0.000000 0.000003 openat "a" O_RDONLY 0 4
1 0.000001 0.000000 fork 2
2 0.000001 0.000001 openat "b" O_WRONLY|O_CREAT 0644 3
2 0.000004 0.000001 write 3 1 1
2 0.000006 0.000001 close 3 0' "the rows"
expect_match "$(cat "$T/h.err")" ' 1 threads whose start is not in the trace \(taken as new processes\)$'
expect_match "$(cat "$T/h.err")" ' 2 calls split by strace whose other half never came \(unfinished, or resumed alone\)$'
expect_match "$(cat "$T/h.err")" " 1 lines that are not strace's$"
rm -rf "$T/replay" && mkdir "$T/replay"
out=$("$DBENCH" -c "$T/h.load" --run-once --strict -q -D "$T/replay" 2 2>&1) ||
	fail "replay: exit status $?: $(printf '%s\n' "$out" | grep -E 'FAILED|rror' | head -2)"
end

begin "-o naming the trace convert reads (or a link to it) is refused before anything is read"
hostile '%s\n' '10 1796169071.000000 close(3) = 0'
cp "$T/h/t" "$T/h/keep"
ln -sf t "$T/h/link"
out=$("$DBENCH" convert -o "$T/h/link" "$T/h/t" 2>&1)
expect_status $? 2
expect_eq "$out" "dbench: -o '$T/h/link' is the trace '$T/h/t' it reads: the loadfile would replace it"
cmp -s "$T/h/t" "$T/h/keep" || fail "the trace was changed"
end

begin "an -ff set is PREFIX.TID alone: a loadfile written beside it is no file of it"
traced beside -ff -ttt -T -y
(cd "$T/w" && "$DBENCH" convert -o "$T/beside/t.load" "$T/beside/t" 2>/dev/null) || fail "first: exit status $?"
(cd "$T/w" && "$DBENCH" convert -o "$T/beside/t.load" "$T/beside/t" 2>"$T/beside.err") ||
	fail "again, beside its loadfile: exit status $?: $(cat "$T/beside.err")"
expect_no_match "$(cat "$T/beside.err")" "not strace's"
expect_eq "$(grep -c '^dbench: converted: ' "$T/beside.err")" 1 "conversions"
end

finish
