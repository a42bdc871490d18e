# test_tracers.sh - dbench record's two tracers: the same programs
# recorded by bpf and by strace give the same calls per type and both
# replay with no outcome difference; --with-data's bytes the same under
# both and with -p (the files found, never the bytes written; the
# recording its owner's alone when they are private), and a replay
# starts from them; bpf is the default and says so;
# nothing is lost silently (a ring buffer too small for a call, a table
# of traced processes too small for the children: the summary, the
# `# lost:` line, --check-loadfile, --strict-capture); -p
# records a running process without stopping it, and its recording
# replays at N=4; the options' errors.  Skipped, saying why, where the
# bpf tracer cannot run.
. "$TOP/tests/shell/lib.sh"

# (a stat of the root: a recording with no call is no loadfile, exit 125)
why=$(cd "$T" && "$DBENCH" record --tracer=bpf -o /dev/null -- stat . 2>&1) ||
	{ echo "ok 1 # skip the bpf tracer cannot run here: ${why#dbench: }"; exit 0; }
strace -f -qq -o /dev/null true 2>/dev/null && have_strace=true || have_strace=false
TWO=$UNIT_DIR/twothreads

# types FILE: the rows of a recording by call, "call count" a line.
types() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { c[$4]++ } END { for (t in c) print t, c[t] }' "$1" | sort
}

# agree A B: every type's count within 1 % (a type of fewer than 100 calls
# within one call: a program's own nondeterminism, git's retried lock).
agree() {
	join -a1 -a2 -e0 -o 0,1.2,2.2 "$1" "$2" |
		awk '{ d = $2 - $3; if (d < 0) d = -d; m = $2 > $3 ? $2 : $3
		       if (d > 1 && d > m / 100) { print $1 " " $2 " against " $3; bad = 1 } }
		     END { exit bad }'
}

# replayed FILE N: one pass at N clients, every outcome as recorded.
replayed() {
	rm -rf "$T/replay" && mkdir -p "$T/replay"
	_out=$("$DBENCH" -c "$1" --run-once --strict -q -D "$T/replay" "$2" 2>&1) ||
		fail "$1 at N=$2: exit status $?: $(printf '%s\n' "$_out" | grep -E 'FAILED|rror' | head -3)"
}

mkdir -p "$T/src/sub"
for i in 1 2 3 4 5 6; do head -c $((i * 5000)) /dev/urandom >"$T/src/f$i"; done
echo note >"$T/src/sub/note"
(cd "$T" && tar cf src.tar src)

begin "both tracers: the same calls per type (tar x, cp -a, two threads, sqlite), both replay"
if $have_strace; then
	for p in tarx cpa two db; do
		for t in bpf strace; do
			rm -rf "$T/run" && mkdir -p "$T/run"
			case $p in
			tarx) set -- tar xf "$T/src.tar" ;;
			cpa) cp -a "$T/src" "$T/run/src" && set -- cp -a src dst ;;
			two) set -- "$TWO" shared 200 ;;
			db) command -v sqlite3 >/dev/null || continue
			    set -- sqlite3 t.db 'create table t(a); insert into t values (1); select * from t;' ;;
			esac
			(cd "$T/run" && "$DBENCH" record --tracer=$t -o "$T/$p.$t.load" -- "$@" \
				>/dev/null 2>"$T/$p.$t.err") || fail "$p under $t: exit status $?"
			types "$T/$p.$t.load" >"$T/$p.$t.types"
			replayed "$T/$p.$t.load" 1
		done
		[ -f "$T/$p.bpf.types" ] || continue
		[ -s "$T/$p.bpf.types" ] || fail "$p: the bpf recording has no call"
		diff=$(agree "$T/$p.bpf.types" "$T/$p.strace.types") || fail "$p: bpf and strace differ: $diff"
	done
else
	echo "# strace cannot trace here: the bpf recordings alone"
fi
end

begin "descriptors made by pipe and the like are known: calls on them are not on descriptors never seen"
# The shell's own descriptors are the recorder's, never seen opened: its
# first command saves and closes them, the same in both commands below.
# Every other is a pipe's (the pipeline, `while read`'s), which the
# children inherit, dup2 onto 0 and 1, read, write and close: calls on
# descriptors not opened beneath the roots, which add nothing to those
# never seen opened.  (make -j2's jobserver pipe, inherited by every job,
# made hundreds of such calls "never seen opened", under both tracers.)
mkdir -p "$T/pipes"
unseen_in() {
	sed -n 's/^ *\([0-9][0-9]*\) calls on descriptors the trace never saw opened.*/\1/p' "$1"
}
for t in bpf strace; do
	[ $t = strace ] && ! $have_strace && continue
	for p in plain pipes; do
		rm -f "$T/pipes/out"
		case $p in
		plain) set -- ': >out; echo x >>out' ;;
		pipes) set -- 'echo x | cat >out; seq 3 | while read i; do echo $i >>out; done' ;;
		esac
		(cd "$T/pipes" && "$DBENCH" record --tracer=$t -o "$T/$p.$t.load" -- \
			sh -c "exec </dev/null >/dev/null 2>&1; $1" >/dev/null 2>"$T/$p.$t.err") ||
			fail "$p under $t: exit status $?"
	done
	expect_eq "$(cat "$T/pipes/out")" "$(printf 'x\n1\n2\n3')" "what the pipeline wrote under $t"
	expect_match "$(cat "$T/pipes.$t.err")" '^ +[1-9][0-9]* calls on descriptors not opened beneath the roots'
	expect_eq "$(unseen_in "$T/pipes.$t.err")" "$(unseen_in "$T/plain.$t.err")" \
		"calls on descriptors never seen opened under $t, with pipes against without"
	types "$T/pipes.$t.load" >"$T/pipes.$t.types"
done
if $have_strace; then
	diff=$(agree "$T/pipes.bpf.types" "$T/pipes.strace.types") || fail "bpf and strace differ: $diff"
fi
end

begin "--with-data: both tracers carry the bytes of the files found, never those written; a replay starts from them"
# The recorder reads the files beneath the roots itself, before the
# command starts, whichever tracer: the bytes the program reads or writes
# are not recorded (a write row is its length; the replay writes its
# pattern), so the two recordings are the same but for their times.
for t in bpf strace; do
	[ $t = strace ] && ! $have_strace && continue
	rm -rf "$T/wd.$t" && mkdir -p "$T/wd.$t"
	printf 'KNOWN-\001\377-bytes\n' >"$T/wd.$t/in"
	(cd "$T/wd.$t" && "$DBENCH" record --tracer=$t --with-data -o "$T/wd.$t.load" -- \
		sh -c 'cat in >out; printf WRITTEN-BYTES >>out' >/dev/null 2>"$T/wd.$t.err") ||
		fail "--with-data under $t: exit status $?"
	expect_match "$(cat "$T/wd.$t.load")" "^init data \"in\" 0 $(base64 <"$T/wd.$t/in")$"
	expect_match "$(cat "$T/wd.$t.load")" '^1 [0-9.]+ [0-9.]+ write 1 13 13$'
	expect_no_match "$(grep -v '^#' "$T/wd.$t.load")" "WRITTEN|$(printf WRITTEN | base64 | cut -c1-8)"
	# (the test's directory is its owner's alone: the recording is too)
	expect_eq "$(stat -c %a "$T/wd.$t.load")" 600 "the mode of the recording under $t"
	expect_match "$(cat "$T/wd.$t.err")" "^dbench: $T/wd.$t.load holds the contents of 'in', which others could not read"
	grep -v '^#' "$T/wd.$t.load" | awk '$1 ~ /^[0-9]+$/ { $2 = $3 = "" } { print }' >"$T/wd.$t.rows"
done
if $have_strace; then
	d=$(diff "$T/wd.bpf.rows" "$T/wd.strace.rows") || fail "bpf and strace differ: $d"
fi
rm -rf "$T/wdr" && mkdir -p "$T/wdr"
out=$("$DBENCH" -c "$T/wd.bpf.load" --run-once --strict --skip-cleanup -q -D "$T/wdr" 1 2>&1) ||
	fail "the replay: $out"
cmp "$T/wdr/clients/client1/in" "$T/wd.bpf/in" || fail "the replay's 'in' is not the recorded bytes"
cmp -n "$(stat -c %s "$T/wd.bpf/in")" "$T/wdr/clients/client1/out" "$T/wd.bpf/in" ||
	fail "the replay's 'out' does not start with the bytes its program copied from 'in'"
expect_eq "$(stat -c %s "$T/wdr/clients/client1/out")" "$(stat -c %s "$T/wd.bpf/out")" "the size of 'out'"
end

begin "bpf records the command from its execve: none of the recorder's own calls before it"
# The command is held on a pipe until it is traced; the hold's last calls
# (the pipe's ends closed and read) come after the tracing began, and are
# the recorder's: both tracers see the same calls on descriptors never
# seen opened (touch closes its standard output and error), on every run.
if $have_strace; then
	mkdir -p "$T/hold"
	unseen() {
		rm -f "$T/hold/made"
		(cd "$T/hold" && "$DBENCH" record --tracer=$1 -o "$T/hold.load" -- touch made 2>&1 >/dev/null) |
			sed -n 's/.*[^0-9]\([0-9][0-9]*\) calls on descriptors the trace never saw opened.*/\1/p'
	}
	want=$(unseen strace)
	[ -n "$want" ] || fail "touch under strace: no call on a descriptor never seen opened"
	for i in 1 2 3 4 5; do
		expect_eq "$(unseen bpf)" "$want" "calls on descriptors never seen opened, bpf against strace (run $i)"
	done
else
	echo "# strace cannot trace here: nothing to compare with"
fi
end

begin "bpf on the kernel it was built on reads none of the kernel's BTF"
# The module carries the BTF its relocations need, cut at build time from
# this kernel's; only on another kernel does libbpf read the kernel's own.
if $have_strace; then
	mkdir -p "$T/btf"
	# (LeakSanitizer cannot run under ptrace: a sanitizer build's leak
	# check is left to the other tests)
	(cd "$T/btf" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=open,openat -o "$T/btf.strace" \
		"$DBENCH" record --tracer=bpf -o "$T/btf.load" -- touch made >/dev/null 2>&1) ||
		fail "record under strace: exit status $?"
	expect_match "$(cat "$T/btf.strace")" 'record_bpf\.so'
	expect_no_match "$(cat "$T/btf.strace")" '/sys/kernel/btf/vmlinux'
else
	echo "# strace cannot trace here: what the recorder opens is not seen"
fi
end

begin "bpf is the default where it can run: the summary and the loadfile say which tracer"
mkdir -p "$T/d" && echo x >"$T/d/in"
out=$(cd "$T/d" && "$DBENCH" record -o "$T/default.load" -- cat in 2>&1 >/dev/null)
expect_status $? 0
expect_match "$out" '^  tracer    bpf$'
expect_match "$(cat "$T/default.load")" '^# tracer: bpf$'
expect_match "$(cat "$T/default.load")" '^1 [0-9.]+ [0-9.]+ openat "in" O_RDONLY 0 3$'
expect_no_match "$(cat "$T/default.load")" '^# lost:'
if $have_strace; then
	out=$(cd "$T/d" && "$DBENCH" record --tracer=strace -o "$T/st.load" -- cat in 2>&1 >/dev/null)
	expect_match "$out" '^  tracer    strace$'
fi
end

# A rename of two paths of 2,400 bytes each: one event of about 5 kB,
# which a ring buffer of one page can never hold.  (The paths come from
# the environment, for the command line is a line of the loadfile, and
# the root is their directory, where the row names them "a" and "b"; the
# shell then makes a file, once the ring buffer has been drained, so that
# the recording holds a call.)
long="$T/l"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do long="$long/$(printf 'd%.0s' $(seq 200))"; done
mkdir -p "$long"
touch "$long/a"
export L="$long"

begin "a ring buffer too small loses calls, and says so: summary, # lost:, --check-loadfile"
out=$(cd "$long" && "$DBENCH" record --ring-buffer=4K -o "$T/lost.load" -- \
	sh -c 'mv "$L/a" "$L/b"; sleep 0.5; : >c' 2>&1)
expect_status $? 0
expect_match "$out" '^  LOST      [0-9]+ events dropped \(the ring buffer was full: [1-9][0-9]* calls lost whole'
expect_match "$(cat "$T/lost.load")" '^# lost: [0-9]+ events dropped'
expect_no_match "$(cat "$T/lost.load")" ' renameat2? '
expect_match "$(cat "$T/lost.load")" ' openat "c" O_WRONLY\|O_CREAT\|O_TRUNC 0666 3$'
out=$("$DBENCH" --check-loadfile -c "$T/lost.load" 2>&1)
expect_match "$out" '^lost [0-9]+ events dropped \(the ring buffer was full'
# the same with room for it: nothing lost, the rename recorded
mv "$long/b" "$long/a" && rm -f "$long/c"
out=$(cd "$long" && "$DBENCH" record -o "$T/whole.load" -- sh -c 'mv "$L/a" "$L/b"' 2>&1)
expect_no_match "$out" 'LOST'
expect_match "$(cat "$T/whole.load")" ' renameat2? "'
expect_no_match "$("$DBENCH" --check-loadfile -c "$T/whole.load")" '^lost'
end

begin "--strict-capture: a loss fails the record (exit 125), the loadfile still written"
mv "$long/b" "$long/a" && rm -f "$long/c"
out=$(cd "$long" && "$DBENCH" record --strict-capture --ring-buffer=4K -o "$T/strict.load" -- \
	sh -c 'mv "$L/a" "$L/b"; sleep 0.5; : >c' 2>&1)
expect_status $? 125
expect_match "$out" '^dbench: --strict-capture: the recording is not whole \([0-9]+ events dropped'
[ -s "$T/strict.load" ] || fail "no loadfile written"
mv "$long/b" "$long/a"
(cd "$long" && "$DBENCH" record --strict-capture -o "$T/strict2.load" -- sh -c 'mv "$L/a" "$L/b"' \
	>/dev/null 2>&1) || fail "nothing lost, yet exit status $?"
end

begin "a traced-process table too small: the processes it could not hold are lost, and said"
# Three children alive at once under a table of two (the shell and the
# first): the other two go untraced, which the summary, the `# lost:`
# line, --check-loadfile and --strict-capture all say.
mkdir -p "$T/many"
three='(: >a; sleep 1) & (: >b; sleep 1) & (: >c; sleep 1) & wait'
out=$(cd "$T/many" && DBENCH_TEST_BPF_TRACED_MAX=2 "$DBENCH" record --tracer=bpf -o "$T/many.load" -- \
	sh -c "$three" 2>&1)
expect_status $? 0
expect_match "$out" '^  LOST      2 processes not traced, nor those they started \(the tracer'"'"'s table of processes was full\)'
expect_match "$(cat "$T/many.load")" '^# lost: 2 processes not traced'
out=$("$DBENCH" --check-loadfile -c "$T/many.load" 2>&1)
expect_match "$out" '^lost 2 processes not traced'
rm -f "$T/many/"?
out=$(cd "$T/many" && DBENCH_TEST_BPF_TRACED_MAX=2 "$DBENCH" record --tracer=bpf --strict-capture \
	-o "$T/many2.load" -- sh -c "$three" 2>&1)
expect_status $? 125
expect_match "$out" '^dbench: --strict-capture: the recording is not whole \(2 processes not traced'
# the default table holds them: nothing lost, every file made
rm -f "$T/many/"?
out=$(cd "$T/many" && "$DBENCH" record --tracer=bpf --strict-capture -o "$T/many3.load" -- \
	sh -c "$three" 2>&1)
expect_status $? 0
expect_no_match "$out" 'LOST'
for f in a b c; do expect_match "$(cat "$T/many3.load")" " openat \"$f\" O_WRONLY"; done
out=$(DBENCH_TEST_BPF_TRACED_MAX=0 "$DBENCH" record --tracer=bpf -o "$T/e.load" -- true 2>&1)
expect_status $? 2
expect_match "$out" '^dbench: DBENCH_TEST_BPF_TRACED_MAX must be a whole number from 1 to 65536$'
end

# A process already running: it appends to a log it opened before the
# recording (fd 3), reads an input it has read a little of (fd 4, its
# offset past 0), and writes and renames a file every 10 ms.
mkdir -p "$T/svc"
seq 10000 >"$T/svc/input"
cat >"$T/loop.sh" <<'EOF'
exec 3>>log 4<input
read first <&4
while :; do
	read line <&4
	echo "$line" >&3
	echo "$line" >cur.tmp
	mv cur.tmp cur
	sleep 0.01
done
EOF
(cd "$T/svc" && exec sh "$T/loop.sh") &
svc=$!
wait_for_line "$T/svc/log" '^2$' 10 || fail "the loop did not start"

begin "-p: a running process recorded without stopping it; its held descriptors open first"
out=$("$DBENCH" record -p "$svc" --duration=2 --root "$T/svc" -o "$T/svc.load" 2>&1)
expect_status $? 0
expect_match "$out" "^dbench: recorded: attached to $svc \\(sh\\)$"
expect_match "$out" '^  tracer    bpf$'
load=$(cat "$T/svc.load")
expect_match "$load" '^1 [0-9.]+ [0-9.]+ fork 2$'
expect_match "$load" '^2 [0-9.]+ [0-9.]+ openat "log" O_WRONLY\|O_APPEND[|A-Z_]* 0 3$'
expect_match "$load" '^2 [0-9.]+ [0-9.]+ openat "input" O_RDONLY[|A-Z_]* 0 4$'
expect_match "$load" '^2 [0-9.]+ [0-9.]+ lseek 4 [1-9][0-9]* SEEK_SET [1-9][0-9]*$'
expect_match "$load" ' renameat2? "cur.tmp" "cur"'
expect_match "$load" ' write 1 [0-9]+ [0-9]+$'
kill -0 "$svc" 2>/dev/null || fail "the process is gone"
state=$(awk '/^State:/ { print $2 }' "/proc/$svc/status")
[ "$state" != T ] && [ "$state" != t ] || fail "the process is left stopped ($state)"
n1=$(wc -l <"$T/svc/log")
sleep 0.5
n2=$(wc -l <"$T/svc/log")
[ "$n2" -gt "$n1" ] || fail "the process does not go on after the recording ($n1, $n2 lines)"
end

begin "-p: the recording compiles and replays at N=4 with no outcome difference"
out=$("$DBENCH" --check-loadfile -c "$T/svc.load" 2>&1) || fail "--check-loadfile: $out"
replayed "$T/svc.load" 4
end

begin "-p --with-data: the bytes of the files as the recording begins, its owner's alone"
out=$("$DBENCH" record -p "$svc" --duration=1 --with-data --root "$T/svc" -o "$T/svcd.load" 2>&1)
expect_status $? 0
awk '$1 == "init" && $2 == "data" && $3 == "\"input\"" { print $5 }' "$T/svcd.load" |
	while read -r b; do printf '%s\n' "$b" | base64 -d; done >"$T/svcd.input"
cmp "$T/svcd.input" "$T/svc/input" || fail "the recording's bytes of 'input' are not the file's"
expect_eq "$(stat -c %a "$T/svcd.load")" 600 "the mode of the recording"
expect_match "$out" "^dbench: $T/svcd.load holds the contents of '[a-z]+'.*, which others could not read"
end

begin "-p until SIGINT: the recording ends there, written, exit 0"
"$DBENCH" record -p "$svc" --root "$T/svc" -o "$T/int.load" 2>"$T/int.err" &
rec=$!
wait_for_line "$T/int.err" "^dbench: recording $svc \\(sh\\) \\(SIGINT, SIGTERM or SIGHUP ends it\\)$" 60 ||
	fail "the recorder did not say it was recording: $(cat "$T/int.err")"
sleep 0.5
kill -INT "$rec"
wait "$rec"
expect_status $? 0
expect_match "$(cat "$T/int.err")" "attached to $svc \\(sh\\), until Interrupt"
expect_match "$(cat "$T/int.load")" ' renameat2? "cur.tmp" "cur"'
end
kill "$svc"
wait "$svc" 2>/dev/null

# Between the walk of the roots and the tracer's attach the process goes
# on: here, made certain by the recorder's testing hook, it makes a file
# and removes another, then (traced) opens them, and renames a third it
# made over one that was there (mv: renameat2 RENAME_NOREPLACE, EEXIST).  The initial state must be what the traced calls
# found, not what the walk saw.
begin "-p: a file made or removed between the walk and the attach, as the calls found it"
mkdir -p "$T/gap"
echo old >"$T/gap/gone"
echo old >"$T/gap/cur"
cat >"$T/gap.sh" <<'EOF'
while [ ! -e ../walked ]; do sleep 0.01; done
echo new >made
echo new >moved
rm gone ../walked
while [ ! -e ../traced ]; do sleep 0.01; done
cat made gone >/dev/null 2>&1
mv moved cur
EOF
(cd "$T/gap" && exec sh "$T/gap.sh") &
gap=$!
DBENCH_TEST_AFTER_WALK="$T/walked" "$DBENCH" record -p "$gap" --root "$T/gap" -o "$T/gap.load" \
	2>"$T/gap.err" &
rec=$!
wait_for_line "$T/gap.err" "^dbench: recording $gap " 60 ||
	fail "the recorder did not say it was recording: $(cat "$T/gap.err")"
touch "$T/traced"
wait "$gap"
kill -INT "$rec" 2>/dev/null
wait "$rec"
expect_status $? 0
load=$(cat "$T/gap.load")
expect_match "$load" ' openat "made" O_RDONLY[|A-Z_]* 0 [0-9]+$'
expect_match "$load" ' openat "gone" O_RDONLY[|A-Z_]* 0 ENOENT$'
expect_match "$load" '^init file "made" '
expect_match "$load" ' renameat2 "moved" "cur" RENAME_NOREPLACE EEXIST$'
expect_match "$load" '^init file "moved" '
expect_no_match "$load" '^init file "gone" '
replayed "$T/gap.load" 2
end

begin "the options' errors: exit 2 before anything is traced, saying what"
out=$("$DBENCH" record -p 1 -o "$T/e.load" -- true 2>&1)
expect_status $? 2
expect_match "$out" 'either -p PID or -- COMMAND, not both'
out=$("$DBENCH" record -p 2147483647 -o "$T/e.load" 2>&1)
expect_status $? 2
expect_match "$out" '^dbench: -p 2147483647: no such process$'
out=$("$DBENCH" record -p x1 -o "$T/e.load" 2>&1)
expect_status $? 2
expect_match "$out" "-p 'x1': not a list of process ids"
out=$("$DBENCH" record --tracer=strace -p $$ -o "$T/e.load" 2>&1)
expect_status $? 2
expect_match "$out" 'the strace tracer cannot attach to running processes'
out=$("$DBENCH" record --duration=3 -o "$T/e.load" -- true 2>&1)
expect_status $? 2
expect_match "$out" '^dbench: --duration: only with -p$'
out=$("$DBENCH" record --tracer=dtrace -o "$T/e.load" -- true 2>&1)
expect_status $? 2
expect_match "$out" "^dbench: --tracer 'dtrace': bpf or strace$"
out=$("$DBENCH" record --ring-buffer=lots -o "$T/e.load" -- true 2>&1)
expect_status $? 2
expect_match "$out" "^dbench: --ring-buffer 'lots': a size"
[ ! -e "$T/e.load" ] || fail "a loadfile was written"
end

finish
