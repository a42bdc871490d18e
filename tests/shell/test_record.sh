# test_record.sh - `dbench record -- CMD` and `dbench convert`: real
# programs recorded by the tracer $TRACER (strace here; test_record_bpf.sh
# runs the same programs under the bpf tracer) into the system-call
# dialect, each recording checked by the compiler (--check-loadfile); the
# command's exit status passed on; strace missing, a command not found, a
# line beyond the loadfile's limits; the roots, privacy (--with-data) and
# traces made elsewhere (strace -ff, strace -f, fio's iolog), which do not
# depend on the tracer and run under strace's turn only.
# check-quick: records short programs, no timed run
. "$TOP/tests/shell/lib.sh"

TRACER=${TRACER:-strace}
if [ "$TRACER" = strace ]; then
	. "$TOP/tests/shell/lib_record.sh"
else
	# (a stat of the root: a recording with no call is no loadfile, exit 125)
	why=$(cd "$T" && "$DBENCH" record --tracer="$TRACER" -o /dev/null -- stat . 2>&1) ||
		{ echo "ok 1 # skip the $TRACER tracer cannot run here: ${why#dbench: }"; exit 0; }
fi

TWO=$UNIT_DIR/twothreads

# record_in DIR OUT CMD...: record CMD run in DIR into OUT (stderr in OUT.err).
record_in() {
	_d=$1 _o=$2
	shift 2
	(cd "$_d" && "$DBENCH" record --tracer="$TRACER" -o "$_o" -- "$@" 2>"$_o.err")
}

# checked FILE: the compiler takes it (exit 0) and it has some call.
checked() {
	_sum=$("$DBENCH" --check-loadfile -c "$1" 2>&1) || fail "--check-loadfile $1: $_sum"
	_ops=$(printf '%s\n' "$_sum" | awk '$1 == "operations" { print $2 }')
	[ "${_ops:-0}" -gt 0 ] || fail "$1 has no call: $_sum"
}

# A small tree to archive and copy: files, a subdirectory, a symbolic link.
mkdir -p "$T/w/src/sub"
for i in 1 2 3; do head -c $((i * 7000)) /dev/urandom >"$T/w/src/f$i"; done
echo "small" >"$T/w/src/sub/note"
ln -s f1 "$T/w/src/link"
(cd "$T/w" && tar cf "$T/src.tar" src)

begin "tar extracting an archive: its directories, files and link, nothing outside the roots"
mkdir -p "$T/x"
record_in "$T/x" "$T/tarx.load" tar xf "$T/src.tar" || fail "exit status $?"
checked "$T/tarx.load"
expect_match "$(cat "$T/tarx.load")" '^1 [0-9.]+ [0-9.]+ mkdirat "src" 0[0-7]+ 0$'
expect_match "$(cat "$T/tarx.load")" '^1 [0-9.]+ [0-9.]+ openat "src/f3" O_WRONLY\|O_CREAT\|O_EXCL[A-Z_|]* 0[0-7]+ [0-9]+$'
expect_match "$(cat "$T/tarx.load")" '^1 [0-9.]+ [0-9.]+ symlinkat "f1" "src/link" 0$'
expect_no_match "$(grep -v '^#' "$T/tarx.load")" '"/|src.tar'
expect_match "$(cat "$T/tarx.load.err")" '^  left out  [0-9]+ calls on paths outside the roots \(.*/usr'
expect_match "$(cat "$T/tarx.load.err")" '^  wrote     .*tarx.load: [0-9]+ lines'
end

begin "tar extracting an archive of '.' (tar czf x.tgz -C DIR .): its calls on the root are kept"
(cd "$T/w" && tar czf "$T/dot.tgz" -C src .)
mkdir -p "$T/xdot"
record_in "$T/xdot" "$T/tardot.load" tar xzf "$T/dot.tgz" || fail "exit status $?"
checked "$T/tardot.load"
expect_match "$(cat "$T/tardot.load")" '^1 [0-9.]+ [0-9.]+ mkdirat "" 0[0-7]+ EEXIST$'
expect_match "$(cat "$T/tardot.load")" '^1 [0-9.]+ [0-9.]+ (utimensat|fchownat|fchmodat|chmod) "" '
expect_match "$(cat "$T/tardot.load")" ' openat "sub/note" O_WRONLY\|O_CREAT\|O_EXCL'
end

begin "a call that would remove or replace the root is left out and counted, the rest kept"
mkdir -p "$T/gone"
(cd "$T" && "$DBENCH" record --root "$T/gone" -o "$T/gone.load" -- \
	sh -c "mkdir gone/sub; mv -T gone/sub gone 2>/dev/null; rmdir gone/sub; rmdir gone" \
	2>"$T/gone.err") || fail "exit status $?"
checked "$T/gone.load"
expect_match "$(cat "$T/gone.load")" ' (rmdir "sub"|unlinkat "sub" AT_REMOVEDIR) 0$'
expect_no_match "$(cat "$T/gone.load")" ' (rmdir|unlinkat|rename[a-z0-9]*) ("[^"]*" )?"" '
expect_match "$(cat "$T/gone.err")" '^ +[0-9]+ calls that would remove or replace the root, which a replay never does to the client.s directory \(.*rename.*, rmdir 1\)$'
end

begin "tar creating an archive: the files it read are the initial state, with their sizes"
record_in "$T/w" "$T/tarc.load" tar czf out.tgz src || fail "exit status $?"
checked "$T/tarc.load"
expect_match "$(cat "$T/tarc.load")" '^init file "src/f3" 21000 0644$'
expect_match "$(cat "$T/tarc.load")" '^init symlink "src/link" "f1"$'
expect_match "$(cat "$T/tarc.load")" '^init dir "src/sub" 0755$'
expect_match "$(cat "$T/tarc.load")" ' (creat "out.tgz" 0[0-7]+|openat "out.tgz" O_WRONLY[A-Z_|]*O_CREAT[A-Z_|]* 0[0-7]+) [0-9]+$'
expect_no_match "$(cat "$T/tarc.load")" '^init file "out.tgz"'
end

begin "cp -a of a tree: reads, writes and the listing of every directory"
rm -rf "$T/w/dst"
record_in "$T/w" "$T/cpa.load" cp -a src dst || fail "exit status $?"
checked "$T/cpa.load"
expect_match "$(cat "$T/cpa.load")" ' getdents64 [0-9]+ [0-9]+ [1-9][0-9]*$'
expect_match "$(cat "$T/cpa.load")" ' mkdir(at)? "dst/sub" '
expect_match "$(cat "$T/cpa.load")" '^init file "src/sub/note" 6 0644$'
end

begin "git init, add and commit, where git is installed"
if command -v git >/dev/null; then
	mkdir -p "$T/g"
	cp -a "$T/w/src" "$T/g/src"
	record_in "$T/g" "$T/git.load" sh -c 'git init -q repo && cp -r src repo/ && cd repo &&
		git add . && git -c user.name=t -c user.email=t@example.org commit -qm one' ||
		fail "exit status $?"
	checked "$T/git.load"
	expect_match "$(cat "$T/git.load")" ' fork [0-9]+$'
	expect_match "$(cat "$T/git.load")" ' openat "repo/.git/index.lock" '
	expect_match "$(cat "$T/git.load.err")" 'mapped into memory \(mmap\)'
else
	echo "# git is not installed"
fi
end

begin "a database written by sqlite3 (or python3's sqlite3)"
mkdir -p "$T/db"
if command -v sqlite3 >/dev/null; then
	record_in "$T/db" "$T/db.load" sqlite3 t.db 'create table t(a, b); begin;
		insert into t values (1, 2); insert into t values (3, 4); commit;' || fail "exit status $?"
else
	record_in "$T/db" "$T/db.load" python3 -c 'import sqlite3; c = sqlite3.connect("t.db");
c.execute("create table t(a, b)"); c.execute("insert into t values (1, 2)"); c.commit()' ||
		fail "exit status $?"
fi
checked "$T/db.load"
expect_match "$(cat "$T/db.load")" ' pwrite64 [0-9]+ [0-9]+ [0-9]+ [0-9]+$'
expect_match "$(cat "$T/db.load")" ' fdatasync [0-9]+ 0$'
expect_match "$(cat "$T/db.load")" ' fcntl [0-9]+ F_SETLK F_(RD|WR|UN)LCK SEEK_SET [0-9]+ [0-9]+ 0$'
end

begin "two threads sharing one file: a thread row, both streams on the one descriptor"
mkdir -p "$T/th"
record_in "$T/th" "$T/th.load" "$TWO" shared 4 || fail "exit status $?"
checked "$T/th.load"
expect_match "$(cat "$T/th.load")" '^1 [0-9.]+ [0-9.]+ thread 2$'
expect_match "$(cat "$T/th.load")" '^1 [0-9.]+ [0-9.]+ thread 3$'
expect_eq "$(grep -Ec '^[23] [0-9.]+ [0-9.]+ pwrite64 3 8192 (0|8192) 8192$' "$T/th.load")" 8 "pwrites by the threads"
expect_match "$(cat "$T/th.load")" '^[23] [0-9.]+ [0-9.]+ dup 3 [0-9]+$'
expect_match "$(cat "$T/th.load")" '^1 [0-9.]+ [0-9.]+ rename "shared" "shared.done" 0$'
expect_match "$(cat "$T/th.load.err")" '^  streams   3 '
end

begin "a command that fails leaves what it did, says so, and exits with its status"
mkdir -p "$T/f"
record_in "$T/f" "$T/fail.load" sh -c 'echo x > made; exit 3'
expect_status $? 3
checked "$T/fail.load"
expect_match "$(cat "$T/fail.load")" ' openat "made" '
expect_match "$(cat "$T/fail.load.err")" 'the command exited with status 3: .*fail.load holds what it did'
end

begin "a command killed by a signal: 128+N, and the loadfile still written"
record_in "$T/f" "$T/kill.load" sh -c 'echo y > before; kill -TERM $$'
expect_status $? 143
expect_match "$(cat "$T/kill.load")" ' openat "before" '
end

if [ "$TRACER" = strace ]; then
begin "strace missing, or a command not found: exit 2 with a clear line, nothing written"
out=$(cd "$T/f" && PATH=/nonexistent "$DBENCH" record --tracer=strace -o "$T/none.load" -- /bin/true 2>&1)
expect_status $? 2
expect_match "$out" '^dbench: strace is not installed'
out=$(cd "$T/f" && "$DBENCH" record -o "$T/none.load" -- no-such-command-here 2>&1)
expect_status $? 2
expect_match "$out" "^dbench: cannot run 'no-such-command-here': not found on PATH"
[ ! -e "$T/none.load" ] || fail "a loadfile was written"
out=$("$DBENCH" record 2>&1)
expect_status $? 2
expect_match "$out" 'needs a command to run'
end

begin "ptrace refused (as strace says in a container without CAP_SYS_PTRACE): exit 2, saying so"
mkdir -p "$T/fakebin"
printf '#!/bin/sh\necho "strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted" >&2\nexit 1\n' \
	>"$T/fakebin/strace"
chmod +x "$T/fakebin/strace"
out=$(cd "$T/f" && PATH="$T/fakebin:$PATH" "$DBENCH" record --tracer=strace -o "$T/refused.load" -- /bin/true 2>&1)
expect_status $? 2
expect_match "$out" '^dbench: strace cannot trace here \(strace: .*Operation not permitted\): ptrace is refused'
[ ! -e "$T/refused.load" ] || fail "a loadfile was written"
end
fi

begin "a line beyond the loadfile's limit is refused at once, naming the limit (125: the command ran)"
e=$(printf '\303\251%.0s' $(seq 120))
deep="$T/deep/$e/$e/$e/$e/$e"
mkdir -p "$deep"
out=$(cd "$T/deep" && "$DBENCH" record --tracer="$TRACER" -o "$T/deep.load" -- stat "$deep" 2>&1)
expect_status $? 125
expect_match "$out" 'LOADFILE_MAX_LINE'
[ ! -e "$T/deep.load" ] || fail "a loadfile was written"
end

begin "the recorder's own failure once the command ran is 125, told from the command's status"
mkfifo "$T/nobody.fifo"
out=$(cd "$T/f" && "$DBENCH" record --tracer="$TRACER" -o "$T/nobody.fifo" -- sh -c 'exit 1' 2>&1)
expect_status $? 125
expect_match "$out" "^dbench: cannot write '$T/nobody.fifo': a FIFO that no process has open for reading$"
expect_match "$out" '^dbench: the command exited with status 1$'
out=$(cd "$T/f" && "$DBENCH" record --tracer="$TRACER" -o "$T/f1.load" -- sh -c 'exit 1' 2>&1)
expect_status $? 1
out=$(cd "$T/f" && "$DBENCH" record --tracer="$TRACER" -o "$T/none.load" -- true 2>&1)
expect_status $? 125
expect_match "$out" '^dbench: no call beneath the roots: nothing to replay$'
[ ! -e "$T/none.load" ] || fail "a loadfile was written"
end

begin "FIFOs and devices beneath the root, found there or made: left out and counted, the rest replays"
mkdir -p "$T/fi"
echo data >"$T/fi/f"
mkfifo "$T/fi/ff"
[ "$(id -u)" -eq 0 ] && mknod "$T/fi/null" c 1 3
(sleep 0.3; echo hi >"$T/fi/ff") &
record_in "$T/fi" "$T/fifo.load" sh -c 'cat ff > out; cat f; [ -c null ] && cat null; ls > /dev/null
	mkfifo p; (echo x > p &); cat p > got; rm p' || fail "exit status $?"
wait
checked "$T/fifo.load"
expect_no_match "$(cat "$T/fifo.load")" '"(ff|p|null)"'
expect_match "$(cat "$T/fifo.load")" ' openat "out" O_WRONLY'
expect_match "$(cat "$T/fifo.load")" ' getdents64 [0-9]+ [0-9]+ \*$'
expect_match "$(cat "$T/fifo.load.err")" '^ +[0-9]+ calls on FIFOs, sockets or devices beneath the roots, which no replay makes$'
end

begin "a read or write of more than 16 MiB (dd bs=20M) is written as rows of 16 MiB, and replays"
mkdir -p "$T/dd"
record_in "$T/dd" "$T/dd.load" sh -c 'dd if=/dev/zero of=big bs=20M count=1 2>/dev/null
	dd if=big of=/dev/null bs=20M 2>/dev/null; rm big' || fail "exit status $?"
checked "$T/dd.load"
expect_eq "$(grep -Ec ' write 1 (16777216 16777216|4194304 4194304)$' "$T/dd.load")" 2 "rows of the write"
expect_eq "$(grep -Ec ' read 0 (16777216 16777216|4194304 4194304)$' "$T/dd.load")" 2 "rows of the read"
expect_match "$(cat "$T/dd.load.err")" '^  split     2 reads or writes of more than 16 MiB, each written as rows of at most 16 MiB'
end

begin "--root: several roots, paths from the directory they share; others left out"
mkdir -p "$T/r1/a" "$T/r2/b" "$T/r3"
echo one >"$T/r1/a/x"
(cd "$T/r3" && "$DBENCH" record --tracer="$TRACER" --root "$T/r1" --root "$T/r2" -o "$T/roots.load" -- \
	sh -c "cat $T/r1/a/x > $T/r2/b/y; cat $T/r1/a/x > here" 2>"$T/roots.err") || fail "exit status $?"
checked "$T/roots.load"
expect_match "$(cat "$T/roots.load")" '^init file "r1/a/x" 4 0644$'
expect_match "$(cat "$T/roots.load")" ' openat "r2/b/y" O_WRONLY'
expect_no_match "$(cat "$T/roots.load")" '"here"|"r3'
expect_match "$(cat "$T/roots.load")" "^# root: $T/r1$"
end

begin "the root by a symbolic link's name (\$PWD, --root as given) is the root"
mkdir -p "$T/real"
ln -s real "$T/link"
echo data >"$T/real/f"
(cd "$T/link" && PWD="$T/link" "$DBENCH" record --tracer="$TRACER" -o "$T/alias.load" -- cat "$T/link/f" >/dev/null 2>&1) ||
	fail "exit status $?"
expect_match "$(cat "$T/alias.load")" '^1 [0-9.]+ [0-9.]+ openat "f" O_RDONLY 0 [0-9]+$'
expect_match "$(cat "$T/alias.load")" "^# root: $T/real$"
(cd "$T/f" && "$DBENCH" record --tracer="$TRACER" --root "$T/link" -o "$T/alias2.load" -- cat "$T/link/f" >/dev/null 2>&1) ||
	fail "exit status $?"
expect_match "$(cat "$T/alias2.load")" '^init file "f" 5 0644$'
end

# rsync -a's receiver walks from / to its destination a component at a
# time (openat of each relative to the last, O_PATH) and fchdir()s
# there: the directories outside the root are the way in, and what it
# then makes relative to its working directory is beneath the root.
begin "a walk from / down to the root, relative to descriptors outside it, then fchdir (rsync's way)"
mkdir -p "$T/walk"
record_in "$T/walk" "$T/walk.load" python3 -c 'import os
fd = os.open("/", os.O_PATH | os.O_DIRECTORY)
for part in os.getcwd().strip("/").split("/"):
    nfd = os.open(part, os.O_PATH | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.fchdir(fd)
with open("made", "w") as f:
    f.write("x")' || fail "exit status $?"
checked "$T/walk.load"
expect_match "$(cat "$T/walk.load")" '^1 [0-9.]+ [0-9.]+ openat "made" O_WRONLY\|O_CREAT\|O_TRUNC[A-Z_|]* 0666 [0-9]+$'
expect_match "$(cat "$T/walk.load")" '^1 [0-9.]+ [0-9.]+ write [0-9]+ 1 1$'
expect_no_match "$(cat "$T/walk.load.err")" 'unresolved'
end

begin "privacy: no file's contents in a recording unless --with-data"
mkdir -p "$T/p"
printf 'SECRET-%s\n' sesame >"$T/p/secret"
record_in "$T/p" "$T/plain.load" cat secret >/dev/null || fail "exit status $?"
expect_no_match "$(cat "$T/plain.load")" 'SECRET|U0VDUkVU'
expect_match "$(cat "$T/plain.load")" '^init file "secret" 14 0644$'
(cd "$T/p" && "$DBENCH" record --tracer="$TRACER" --with-data -o "$T/data.load" -- cat secret >/dev/null 2>&1) ||
	fail "--with-data: exit status $?"
checked "$T/data.load"
expect_match "$(cat "$T/data.load")" "^init data \"secret\" 0 $(printf 'SECRET-sesame\n' | base64)$"
end

begin "privacy: --with-data of files others cannot read makes a 0600 recording, and says so"
chmod 0711 "$T"	# others may pass through the test's directory, as through a home
mkdir -p "$T/q/open" "$T/q/closed"
echo pub >"$T/q/open/a"
echo own >"$T/q/open/b" && chmod 0600 "$T/q/open/b"
echo hid >"$T/q/closed/c" && chmod 0700 "$T/q/closed"
(umask 022 && cd "$T/q" && "$DBENCH" record --tracer="$TRACER" --with-data -o "$T/pub.load" -- \
	cat open/a >/dev/null 2>"$T/pub.err") || fail "exit status $?"
expect_eq "$(stat -c %a "$T/pub.load")" 644 "the mode of a recording of readable files"
expect_no_match "$(cat "$T/pub.err")" 'others could not read'
for f in open/b closed/c; do
	rm -f "$T/priv.load" && : >"$T/priv.load" && chmod 0644 "$T/priv.load"
	(umask 022 && cd "$T/q" && "$DBENCH" record --tracer="$TRACER" --with-data -o "$T/priv.load" -- \
		cat open/a "$f" >/dev/null 2>"$T/priv.err") || fail "$f: exit status $?"
	expect_eq "$(stat -c %a "$T/priv.load")" 600 "the mode of a recording of $f"
	expect_match "$(cat "$T/priv.err")" "^dbench: $T/priv.load holds the contents of '$f', which others could not read: it is readable by its owner alone \(0600\)$"
done
checked "$T/priv.load"
end

begin "privacy: the command's passwords are masked as dbench masks its own, in the file and the summary; its control bytes shown as \\xHH"
(cd "$T/p" && "$DBENCH" record --tracer="$TRACER" -o "$T/pw.load" -- \
	sh -c 'cat secret' -U 'alice%s3cr3t' smb://bob:pw0rd@host/share >/dev/null 2>"$T/pw.err") ||
	fail "exit status $?"
expect_match "$(cat "$T/pw.load")" "^# command: sh -c 'cat secret' -U 'alice%\*\*\*' 'smb://bob:\*\*\*@host/share'$"
expect_match "$(cat "$T/pw.err")" "^dbench: recorded: sh -c 'cat secret' -U 'alice%\*\*\*' 'smb://bob:\*\*\*@host/share'$"
expect_no_match "$(cat "$T/pw.load" "$T/pw.err")" 's3cr3t|pw0rd'
esc=$(printf 'a\033[2Jb\rc')
(cd "$T/p" && "$DBENCH" record --tracer="$TRACER" -o "$T/esc.load" -- sh -c 'cat secret' "$esc" \
	>/dev/null 2>"$T/esc.err") || fail "exit status $?"
expect_match "$(cat "$T/esc.err")" "^dbench: recorded: sh -c 'cat secret' 'a\\\\x1b\\[2Jb\\\\x0dc'$"
tr -d '\n' <"$T/esc.err" | grep -q "$(printf '\033')" && fail "an escape byte reached the terminal"
end

if [ "$TRACER" = strace ]; then
begin "privacy: strace's trace, kept when a recording is refused, holds no byte read or written"
# the command copies the trace files of the processes that read and
# wrote, once they are gone (their files whole), each cp not its own
# (which would grow as it read it); strace prints strings with -xx, so
# the contents are looked for in both forms
mkdir -p "$T/kt/tmp" "$T/kt/r" "$T/kt/snap"
printf 'QZXJ-%s' sesame-opens >"$T/kt/r/secret"
(cd "$T/kt/r" && TMPDIR="$T/kt/tmp" "$DBENCH" record --tracer="$TRACER" -o "$T/kt.load" -- \
	sh -c 'cat secret >copy; dd if=secret of=copy2 bs=7 2>/dev/null; tee copy3 <secret >/dev/null
		for f in "$TMPDIR"/*/trace.*; do cp "$f" "$1"; done' sh "$T/kt/snap" >/dev/null 2>&1) ||
	fail "exit status $?"
checked "$T/kt.load"
traces=$(cat "$T"/kt/snap/trace.*)
expect_match "$traces" '(read|pread64)\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+\) += 0x'
expect_match "$traces" 'openat\(.*"(secret|\\x73\\x65\\x63\\x72\\x65\\x74)"'
hex=$(printf 'QZXJ' | od -An -tx1 | tr -d ' \n' | sed 's/../\\\\x&/g')
expect_no_match "$traces" "QZXJ|$hex|sesame"
end

begin "convert: strace -ff files by their prefix, and a -f file with its halves rejoined"
mkdir -p "$T/c"
cp "$T/w/src/f1" "$T/c/in"
(cd "$T/c" && strace -ff -ttt -T -y -xx -o "$T/ff" sh -c 'cat in > out & cat in > out2; wait') ||
	fail "strace -ff"
"$DBENCH" convert -o "$T/ff.load" "$T/ff" 2>"$T/ff.err" || fail "convert -ff: exit status $?"
checked "$T/ff.load"
expect_match "$(cat "$T/ff.load")" '^init file "in" 7000 0644$'
expect_match "$(cat "$T/ff.load")" ' openat "out2" O_WRONLY\|O_CREAT\|O_TRUNC 0666 [0-9]+$'
(cd "$T/c" && strace -f -ttt -T -y -o "$T/f.trace" sh -c 'cat in > out & cat in > out2; wait') ||
	fail "strace -f"
"$DBENCH" convert -o "$T/f.load" "$T/f.trace" 2>"$T/f.err" || fail "convert -f: exit status $?"
checked "$T/f.load"
expect_match "$(cat "$T/f.load")" '^init file "in" 7000 0644$'
expect_eq "$(grep -c ' fork ' "$T/f.load")" "$(grep -c ' fork ' "$T/ff.load")" "forks in -f and -ff"
out=$("$DBENCH" convert "$T/nothing-here" 2>&1)
expect_status $? 2
expect_match "$out" "cannot open '$T/nothing-here'"
out=$("$DBENCH" convert -o "$T/nodir/x.load" "$T/f.trace" 2>&1)
expect_status $? 1
expect_match "$out" "^dbench: cannot write '$T/nodir/x.load': No such file or directory$"
end

begin "convert: what the traced script made is no initial state (strace -ff -y into st/ of its own directory)"
mkdir -p "$T/sc/st"
(cd "$T/sc" && strace -ff -ttt -T -y -o st/st sh -c \
	'mkdir d; for i in 1 2 3; do echo $i > d/f$i; done; cat d/f2 >/dev/null; mv d/f1 d/g1; rm d/f3') ||
	fail "strace: exit status $?"
(cd "$T/sc" && "$DBENCH" convert -o "$T/sc.load" st/st 2>"$T/sc.err") || fail "convert: exit status $?"
checked "$T/sc.load"
expect_no_match "$(cat "$T/sc.load")" '^init '
expect_match "$(cat "$T/sc.err")" 'found there before: 0 directories, 0 files'
expect_match "$(cat "$T/sc.load")" ' renameat2? "d/f1" "d/g1" '
end

begin "convert: the trace's own files in the traced directory are not the program's"
mkdir -p "$T/own/st" "$T/own/data"
echo one >"$T/own/data/a"
(cd "$T/own" && strace -ff -ttt -T -y -o st/st tar cf ../own.tar . 2>/dev/null)
(cd "$T/own" && "$DBENCH" convert -o "$T/own.load" st/st 2>"$T/own.err") || fail "convert: exit status $?"
checked "$T/own.load"
expect_no_match "$(cat "$T/own.load")" '"st/st\.'
expect_match "$(cat "$T/own.load")" '^init file "data/a" 4 0644$'
expect_match "$(cat "$T/own.err")" "calls on paths outside the roots \(.*the trace's own files [0-9]+"
end

begin "convert: fio's iolog (version 3 as fio writes it, and version 2)"
if command -v fio >/dev/null; then
	mkdir -p "$T/fio"
	(cd "$T/fio" && fio --name=j --filename=data --size=64k --bs=4k --rw=randrw \
		--write_iolog=j.log --output=/dev/null) || fail "fio: exit status $?"
	"$DBENCH" convert -o "$T/fio.load" "$T/fio/j.log" 2>/dev/null || fail "convert: exit status $?"
	checked "$T/fio.load"
	expect_match "$(cat "$T/fio.load")" '^init file "data" [0-9]+ 0644$'
	n=$(grep -Ec ' (read|write) ' "$T/fio/j.log")
	expect_eq "$(grep -Ec ' (pread64|pwrite64) ' "$T/fio.load")" "$n" "reads and writes"
fi
printf 'fio version 2 iolog\nd/f add\nd/f open\nd/f write 0 4096\nd/f close\n' >"$T/v2.log"
"$DBENCH" convert -o "$T/v2.load" "$T/v2.log" 2>/dev/null || fail "convert v2: exit status $?"
checked "$T/v2.load"
expect_match "$(cat "$T/v2.load")" '^1 [0-9.]+ [0-9.]+ pwrite64 3 4096 0 4096$'
end
fi

# Whether this build replays the dialect (the replay came after the recorder).
printf 'syscalls 1\n1 0.0 0.0 mkdir "x" 0755 0\n' >"$T/probe.load"
mkdir -p "$T/probe"
if "$DBENCH" -c "$T/probe.load" --run-once -q -D "$T/probe" 1 2>&1 | grep -q 'not supported'; then
	replays=false
else
	replays=true
fi

# replayed FILE N: one pass at N clients, every outcome as recorded.
replayed() {
	rm -rf "$T/replay"
	mkdir -p "$T/replay"
	_out=$("$DBENCH" -c "$1" --run-once --strict -q -D "$T/replay" "$2" 2>&1)
	_rc=$?
	[ "$_rc" -eq 0 ] || fail "$1 at N=$2: exit status $_rc: $(printf '%s\n' "$_out" | grep -E 'FAILED|skipped|rror' | head -3)"
	printf '%s\n' "$_out" | grep -Eq 'not supported|skipped' &&
		fail "$1 at N=$2: $(printf '%s\n' "$_out" | grep -E 'not supported|skipped')"
	return 0
}

for n in 1 8; do
	begin "the recordings replay at N=$n with no outcome difference (tar, cp -a, git, the database, two threads)"
	if $replays; then
		for f in tarx tardot tarc cpa git db th fail gone sc own fifo dd; do
			[ -f "$T/$f.load" ] && replayed "$T/$f.load" "$n"
		done
	else
		echo "# skip: this build does not replay the system-call dialect"
	fi
	end
done

if [ "$TRACER" = strace ]; then
begin "the library: each recording in loadfiles/ compiles, is found by name, and is installed"
for f in "$TOP"/loadfiles/*.load; do
	checked "$f"
	n=$(basename "$f" .load)
	grep -q "^$n\.load " "$TOP/loadfiles/README" || fail "loadfiles/README says nothing of $n.load"
done
mkdir -p "$T/elsewhere"
out=$(cd "$T/elsewhere" && DBENCH_LOADFILE_DIR="$TOP/loadfiles" "$DBENCH" --check-loadfile -c sqlite 2>&1) ||
	fail "-c sqlite: $out"
expect_match "$out" "^loadfile $TOP/loadfiles/sqlite.load$"
cp "$T/tarx.load" "$T/elsewhere/sqlite"
out=$(cd "$T/elsewhere" && DBENCH_LOADFILE_DIR="$TOP/loadfiles" "$DBENCH" --check-loadfile -c sqlite 2>&1)
expect_match "$out" '^loadfile sqlite$'
out=$(cd "$T/elsewhere" && DBENCH_LOADFILE_DIR="$TOP/loadfiles" "$DBENCH" --check-loadfile -c nosuch 2>&1)
expect_status $? 2
expect_match "$out" "nosuch"
inst=$(make -s -n -C "$TOP" install DESTDIR="$T/inst" 2>&1)
for f in "$TOP"/loadfiles/*.load; do
	expect_match "$inst" "install -m 644 .*loadfiles/${f##*/}"
done
end
fi

finish
