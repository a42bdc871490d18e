# test_safety.sh - nothing escapes the target, nothing hangs, nothing is lost.
. "$TOP/tests/shell/lib.sh"
TP='^Throughput [0-9.e+]+ MB/sec \(NB=[0-9.e+]+ MB/sec  [0-9.e+]+ MBit/sec\)  [0-9]+ procs$'

# A canary directory outside every target, and a fingerprint of it.
mkdir -p "$T/canary/sub"
echo "keep me" >"$T/canary/file"
echo "and me" >"$T/canary/sub/deeper"
fingerprint() {
	(cd "$T/canary" && find . -printf '%p %y %s %m %T@\n' | sort && find . -type f -exec sha256sum {} + | sort)
}
CANARY=$(fingerprint)
canary_intact() {
	[ "$(fingerprint)" = "$CANARY" ] || fail "the canary directory changed"
}

begin "a symlink planted at DIR/clients is refused before any client starts"
mkdir -p "$T/d1" && ln -s "$T/canary" "$T/d1/clients"
err=$("$DBENCH" -t 2 --warmup 0 -D "$T/d1" 2 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use '$T/d1/clients': not a directory (a symbolic link?)"
canary_intact
[ -L "$T/d1/clients" ] || fail "the planted link was removed"
end

begin "DIR/clients that is a regular file or a FIFO is named for what it is, not as a link"
mkdir -p "$T/nd1" "$T/nd2" && touch "$T/nd1/clients" && mkfifo "$T/nd2/clients"
err=$("$DBENCH" -t 2 --warmup 0 -D "$T/nd1" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use '$T/nd1/clients': not a directory but a regular file"
err=$("$DBENCH" -t 2 --warmup 0 -D "$T/nd2" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use '$T/nd2/clients': not a directory but a FIFO"
end

begin "a symlink planted at a client directory stops the run with a clear error"
mkdir -p "$T/d2/clients" && ln -s "$T/canary" "$T/d2/clients/client2"
out=$("$DBENCH" -t 2 --warmup 0 -D "$T/d2" 2); rc=$?
expect_status $rc 1
expect_match "$out" '^FAILED: client 2, setup: cannot use directory clients/client2: not a directory \(a symbolic link\?\)$'
canary_intact
expect_eq "$(ls -A "$T/d2/clients")" "client2" "left in $T/d2/clients"
end

begin "a symlink planted deeper is never followed: the operation fails"
mkdir -p "$T/d3/clients/client1" && ln -s "$T/canary" "$T/d3/clients/client1/sub"
printf '%s\n' 'NTCreateX "\clients\client1\sub\new" 0x40 0x5 1 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$T/deep.txt"
out=$("$DBENCH" --run-once -c "$T/deep.txt" -D "$T/d3" 1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/deep.txt:1 NTCreateX $T/d3/clients/client1/sub/new: Too many levels of symbolic links\$"
canary_intact
expect_eq "$(ls -A "$T/d3")" "" "left in $T/d3 (cleanup removes the link, not its target)"
end

# A link planted at the very name a client opens was refused, but named as
# "Too many levels of symbolic links", as though links looped; it is one
# link, refused by the rule the hard links and foreign files fall under.
begin "a symlink planted at the name a client opens is refused as a link, for writing and for reading"
for mode in 'write 0x40 0x5' 'read 0x0 0x1'; do
	set -- $mode
	rm -rf "$T/d3l"
	mkdir -p "$T/d3l/clients/client1" && ln -s "$T/canary" "$T/d3l/clients/client1/new"
	printf '%s\n' "NTCreateX \"\\clients\\client1\\new\" $2 $3 1 NT_STATUS_OK" \
		'Close 1 NT_STATUS_OK' >"$T/leaf.txt"
	out=$("$DBENCH" --run-once -c "$T/leaf.txt" -D "$T/d3l" 1); rc=$?
	expect_status $rc 1
	expect_match "$out" "^FAILED: client 1, $T/leaf.txt:1 NTCreateX $T/d3l/clients/client1/new: refused: it is a symbolic link, not a regular file or directory; a client writes only files it made\$"
	canary_intact
	expect_eq "$(ls -A "$T/d3l")" "" "left in $T/d3l ($1)"
done
end

# The Deltree of the client's directory that the built-in loadfile and
# dbench 4.0's client.txt begin with (a whole pass of either took a
# minute here, for nothing more).
begin "Deltree over a planted symlink removes the link, not what it points to"
mkdir -p "$T/d4/clients/client1" && ln -s "$T/canary" "$T/d4/clients/client1/~dmtmp"
grep -m 1 '^Deltree ' "$TOP/loadfiles/default.txt" >"$T/deltree.txt"
expect_eq "$(cat "$T/deltree.txt")" 'Deltree "\clients\client1" NT_STATUS_OK' "the built-in loadfile's Deltree"
out=$("$DBENCH" --run-once -q -c "$T/deltree.txt" -D "$T/d4" 1 2>&1); rc=$?
expect_status $rc 0
canary_intact
expect_eq "$(ls -A "$T/d4")" "" "left in $T/d4"
end

begin "a hard link planted where a client writes is refused with a FAILED line, the file left as it was"
mkdir -p "$T/hl1/clients/client1" && ln "$T/canary/file" "$T/hl1/clients/client1/ANNUAL.DOC"
printf '%s\n' 'NTCreateX "\clients\client1\ANNUAL.DOC" 0x40 0x5 1 NT_STATUS_OK' \
	'WriteX 1 0 65536 65536 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$T/link.txt"
out=$("$DBENCH" --run-once -c "$T/link.txt" -D "$T/hl1" 1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/link.txt:1 NTCreateX $T/hl1/clients/client1/ANNUAL.DOC: refused: it has 2 links \(a hard link to a file elsewhere\?\); a client writes only files it made\$"
canary_intact
expect_eq "$(stat -c %h "$T/canary/file")" 1 "links of the canary's file after the cleanup"
end

begin "a process hard-linking a file from outside into a client's directory during the run: the file unchanged byte for byte"
# The client creates ANNUAL.DOC (OPEN_IF: O_CREAT, no O_EXCL), writes it,
# removes it, then idles: the racer links the outside file to that name
# whenever it is free, and the next NTCreateX meets the link.
head -c 15 /dev/urandom >"$T/outside.doc"
before=$(sha256sum <"$T/outside.doc")
{
	printf '%s\n' 'NTCreateX "\clients\client1\office" 0x1 0x3 2 NT_STATUS_OK'
	printf '%s\n' 'Close 2 NT_STATUS_OK'
	printf '%s\n' 'NTCreateX "\clients\client1\office\docs" 0x1 0x3 2 NT_STATUS_OK'
	printf '%s\n' 'Close 2 NT_STATUS_OK'
	printf '%s\n' 'NTCreateX "\clients\client1\office\docs\ANNUAL.DOC" 0x40 0x3 1 NT_STATUS_OK'
	printf '%s\n' 'WriteX 1 0 2097152 2097152 NT_STATUS_OK'
	printf '%s\n' 'Close 1 NT_STATUS_OK'
	printf '%s\n' 'Unlink "\clients\client1\office\docs\ANNUAL.DOC" 0x0 NT_STATUS_OK'
	i=0; while [ $i -lt 300 ]; do printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK'; i=$((i + 1)); done
} >"$T/race.txt"
mkdir -p "$T/hl2"
# The racer links until told to stop, 2 s into the 3 s window: one still
# linking when the client removes its directory at the end would leave a
# file there, as anybody writing into it then would (CI, a quiet machine,
# once saw that: 'cannot remove client1/office/docs: Directory not empty')
perl -e '
	my ($from, $to, $stop) = @ARGV; my ($n, $end) = (0, time + 120);
	until (-e $stop || time > $end) { $n++ if link($from, $to); }
	print "$n\n";' "$T/outside.doc" "$T/hl2/clients/client1/office/docs/ANNUAL.DOC" "$T/hl2.stop" \
	>"$T/links" &
racer=$!
"$DBENCH" -t 3 --warmup 0 --continue-on-error -c "$T/race.txt" --json="$T/race.json" \
	-D "$T/hl2" 1 >"$T/race.out" 2>&1 &
run=$!
wait_for_line "$T/race.out" ' execute +2 sec'
touch "$T/hl2.stop"
wait $racer
wait $run; rc=$?
# (once seen failing, exit 1, beside other tests at a load of 130: say why)
[ "$rc" -eq 0 ] || fail "exit status $rc, want 0: $(grep -E '^(FAILED|dbench:)' "$T/race.out" | head -n 3)"
expect_eq "$(sha256sum <"$T/outside.doc")" "$before" "the outside file's checksum"
expect_eq "$(stat -c %s "$T/outside.doc")" 15 "the outside file's size"
refused=$(jq '.ops.NTCreateX.errors' "$T/race.json")
[ "$(cat "$T/links")" -gt 0 ] && [ "$refused" -gt 0 ] ||
	fail "the race was never run: $(cat "$T/links") links made, $refused NTCreateX refused"
end

begin "loadfile paths that climb out are refused at parse time, nothing touched"
for p in '\clients\client1\..\..\canary\file' '\clients\client2\x' '/etc/passwd' '\clients\..\canary'; do
	printf 'Unlink "%s" 0x6 NT_STATUS_OK\n' "$p" >"$T/escape.txt"
	err=$("$DBENCH" --run-once -c "$T/escape.txt" -D "$T/d5" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" "^dbench: $T/escape.txt:1: path "
done
canary_intact
[ ! -e "$T/d5" ] || fail "$T/d5 was created"
end

begin "a full filesystem stops the run within seconds, names ENOSPC, leaves it empty"
if mount_tmpfs "$T/full" 16m; then
	start=$(date +%s)
	out=$("$DBENCH" -t 60 --warmup 0 -D "$T/full" 2); rc=$?
	took=$(($(date +%s) - start))
	expect_status $rc 1
	expect_match "$out" "^FAILED: client [12], \\(built-in\\):[0-9]+ [A-Za-z]+ $T/full/clients/client[12]/[^ ]+: No space left on device\$"
	expect_match "$out" "$(partial "$TP" 'the run failed')"
	[ "$took" -le 15 ] || fail "took $took s to stop"
	expect_eq "$(ls -A "$T/full")" "" "left on the full tmpfs"
	umount "$T/full"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "--continue-on-error counts unexpected outcomes and keeps going"
printf '%s\n' 'QUERY_PATH_INFORMATION "\clients\client1\nothere" 1004 NT_STATUS_OK' \
	'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/errs.txt"
mkdir -p "$T/d"
out=$("$DBENCH" --run-once --continue-on-error -c "$T/errs.txt" -D "$T/d" 3); rc=$?
expect_status $rc 0
# 3 operations: a mean, p50 and the maximum, no p99 or p99.9 (too few)
expect_match "$out" '^ QUERY_PATH_INFORMATION +3( +[0-9]+\.[0-9]{3}){2} +- +- +[0-9]+\.[0-9]{3} +3$'
expect_match "$out" '^ QUERY_FS_INFORMATION +3( +[0-9]+\.[0-9]{3}){2} +- +- +[0-9]+\.[0-9]{3} +0$'
expect_no_match "$out" '^FAILED'
end

begin "a client killed by a signal fails the run within seconds; its files are removed"
start_long_run "$T/d6" 3 "$T/kill.out"
victim=$(pgrep -P $pid | head -n 1)
start=$(date +%s)
kill -KILL "$victim"
wait $pid; rc=$?
took=$(($(date +%s) - start))
expect_status $rc 1
expect_match "$(cat "$T/kill.out")" '^FAILED: client [123], died: killed by signal 9 \(Killed\)$'
expect_match "$(cat "$T/kill.out")" "$(partial "$TP" 'the run failed')"
[ "$took" -le 10 ] || fail "took $took s to notice"
expect_eq "$(ls -A "$T/d6")" "" "left in $T/d6"
end

begin "clients do not outlive a parent killed with SIGKILL"
start_long_run "$T/d7" 3 /dev/null
kids=$(pgrep -P $pid | tr '\n' ' ')
kill -KILL $pid
wait $pid 2>/dev/null
left=
# a minute at most: orphans clean up in seconds, more on a busy machine
for i in $(seq 60); do
	left=
	for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
	[ -z "$left" ] && break
	sleep 1
done
expect_eq "$left" "" "clients still running"
expect_eq "$(ls -A "$T/d7/clients" 2>/dev/null)" "" "client files left"
rm -rf "$T/d7"
end

begin "SIGTERM stops the run, prints results, exits 143, removes the files"
start_long_run "$T/d8" 2 "$T/term.out"
kill -TERM $pid
wait $pid; rc=$?
expect_status $rc 143
expect_match "$(cat "$T/term.out")" "$(partial "$TP" 'interrupted by SIGTERM')"
expect_eq "$(ls -A "$T/d8")" "" "left in $T/d8"
end

begin "a second SIGINT exits at once, after a best-effort cleanup"
start_long_run "$T/d9" 2 "$T/int2.out"
kill -INT $pid; kill -INT $pid
wait $pid; rc=$?
expect_status $rc 130
expect_eq "$(ls -A "$T/d9")" "" "left in $T/d9"
end

begin "running out of file descriptors names RLIMIT_NOFILE"
: >"$T/fds.txt"
for i in $(seq 1 40); do
	printf 'NTCreateX "\\clients\\client1\\f%d" 0x40 0x5 %d NT_STATUS_OK\n' "$i" "$i" >>"$T/fds.txt"
done
out=$(prlimit --nofile=24 "$DBENCH" --run-once -c "$T/fds.txt" -D "$T/d" 1); rc=$?
expect_status $rc 1
expect_match "$out" '^FAILED: client 1, .* NTCreateX .*: Too many open files \(RLIMIT_NOFILE is 24\)$'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "failing to fork names RLIMIT_NPROC, stops the clients already started"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$T/d10" && chmod 777 "$T/d10" && chmod 755 "$T"
	out=$(prlimit --nproc=4 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$DBENCH" -t 5 --warmup 0 -D "$T/d10" 8 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" '^FAILED: client [0-9]+, cannot start its process: Resource temporarily unavailable \(RLIMIT_NPROC is 4\)$'
	expect_eq "$(ls -A "$T/d10")" "" "left in $T/d10"
	expect_eq "$(pgrep -u nobody -f "$DBENCH" | tr '\n' ' ')" "" "processes left"
else
	echo "# skipped: needs root and setpriv"
fi
end

# tests/run.sh stops a test past its time limit with timeout(1): SIGTERM
# to the test's process group, which a server in a session of its own is
# not in.  The test's EXIT trap must still stop it and remove the scratch.
cat >"$T/stopped.sh" <<'S'
. "$TOP/tests/shell/lib.sh"
setsid sleep 300 >/dev/null 2>&1 &
srv=$!
trap 'kill -KILL $srv; cleanup_scratch' EXIT
echo "$srv $T" >"$INFO"
sleep 300
S

begin "a shell test stopped by SIGTERM runs its EXIT trap: its server stopped, its scratch gone"
INFO=$T/stopped.info timeout 3 sh "$T/stopped.sh" 2>/dev/null
read -r srv scratch <"$T/stopped.info" || fail "the stopped test did not start in 3 s"
if kill -0 "$srv" 2>/dev/null; then
	fail "its server $srv still runs"
	kill -KILL "$srv"
fi
if [ -d "$scratch" ]; then
	fail "its scratch $scratch is left"
	rm -rf "$scratch"
fi
end

finish
