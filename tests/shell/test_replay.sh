# test_replay.sh - a recording (the system-call dialect, doc/SYSCALLS.md)
# replayed: streams in their recorded order, exact timing, N clients that
# never meet, the outcome check and --strict, skipped calls, the options.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

# within LOW HIGH VALUE: VALUE (a count, not a time) is in [LOW, HIGH]
within() {
	awk -v lo="$1" -v hi="$2" -v v="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# Two streams share one file: stream 1 appends to "a" and renames it to
# "b"; stream 2 then opens "b", reads all of it (the 4096 bytes made
# before the pass and the 1000 appended) and finds "a" gone; stream 1
# renames it back.  Run out of order, the open, the read or the stat has
# another outcome.
cat >"$T/two.load" <<'EOF'
syscalls 1
init file "a" 4096 0644
1 0.000 0.001 thread 2
1 0.010 0.001 openat "a" O_WRONLY|O_APPEND 0 3
1 0.020 0.001 write 3 1000 1000
1 0.030 0.001 close 3 0
1 0.040 0.001 rename "a" "b" 0
2 0.050 0.001 openat "b" O_RDONLY 0 3
2 0.060 0.001 read 3 65536 5096
2 0.070 0.001 close 3 0
2 0.080 0.001 stat "a" ENOENT
1 0.090 0.001 rename "b" "a" 0
EOF

begin "two streams renaming and reading one file replay in the recorded order 200 times"
passes=0 runs=0
while [ "$passes" -lt 200 ] && [ "$runs" -lt 20 ]; do
	"$DBENCH" -q -t 2 --warmup 0 --replay-timing=asap -c "$T/two.load" -D "$T/d" \
		--json="$T/two.json" 1 >"$T/two.out" 2>&1 || fail "exit status $?: $(tail -3 "$T/two.out")"
	errs=$(jq '[.ops[].errors] | add' "$T/two.json")
	expect_eq "$errs" 0 "outcome differences"
	expect_eq "$(jq '[.ops[].skipped // 0] | add' "$T/two.json")" 0 "skipped calls"
	# a pass is one read; a pass cut by the time limit may leave its
	# read in without its last rename
	n=$(jq '.ops.rename.count / 2 | floor' "$T/two.json")
	passes=$((passes + n)) runs=$((runs + 1))
done
[ "$passes" -ge 200 ] || fail "only $passes passes in $runs runs"
end

# every_tenth DURATION: 31 calls, one every 0.1 s, each recorded as
# taking DURATION seconds: a recording of 3 seconds.
every_tenth() {
	echo 'syscalls 1'
	i=0
	while [ $i -le 30 ]; do
		printf '1 %d.%d00000 %s stat "x" ENOENT\n' $((i / 10)) $((i % 10)) "$1"
		i=$((i + 1))
	done
}
every_tenth 0.000010 >"$T/exact.load"

begin "the recordings shipped replay with no outcome difference"
for f in build git; do
	"$DBENCH" --run-once -c "$TOP/loadfiles/$f.load" -D "$T/d" --json="$T/$f.json" 2 \
		>"$T/$f.out" 2>&1 || fail "$f: exit status $?: $(tail -3 "$T/$f.out")"
	expect_eq "$(jq '[.ops[].errors] | add' "$T/$f.json")" 0 "$f: outcome differences"
	expect_eq "$(jq '[.ops[].skipped // 0] | add' "$T/$f.json")" 0 "$f: calls skipped"
	[ "$(jq .replay.streams "$T/$f.json")" -gt 1 ] || fail "$f: one stream"
done
end

begin "exact timing replays a 3-second recording in 3 s and says how far behind it ran"
cpu_mark
"$DBENCH" --run-once --replay-timing=exact -c "$T/exact.load" -D "$T/d" \
	--json="$T/exact.json" 1 >"$T/exact.out" 2>&1 || fail "exit status $?"
el=$(jq .result.elapsed_s "$T/exact.json")
# never early (each call is held to its time); late by at most 5 %: the
# calls are a few microseconds of work, so on a busy machine only the
# wake-ups can be late, and 150 ms over 31 of them is generous for that
# (on a quiet machine: expect_between)
expect_between 2.99 "$el" 3.15 "the exact pass"
expect_eq "$(jq -r .replay.timing "$T/exact.json")" exact
expect_eq "$(jq .replay.behind_calls "$T/exact.json")" 31 "calls held to their time"
mx=$(jq .replay.behind_max_ms "$T/exact.json")
expect_within "$(echo "$mx / 1000" | bc -l)" 0.15 "the worst lag behind the recording"
expect_match "$(cat "$T/exact.out")" '^Behind the recording: mean [0-9.]+ ms, worst [0-9.]+ ms \(31 calls'
# and what makes a replay late on a busy machine: its thread's time
# runnable but waiting for a CPU, where the kernel says
if [ -r /proc/thread-self/schedstat ]; then
	w=$(jq .replay.cpu_wait_ms "$T/exact.json")
	within 0 3000 "$w" || fail "waited '$w' ms for a CPU in a 3 s pass"
	expect_match "$(cat "$T/exact.out")" '^Behind the recording: .*; its threads waited [0-9.]+ ms for a CPU$'
fi
# as fast as possible, the same 31 calls take a moment
cpu_mark
"$DBENCH" --run-once -c "$T/exact.load" -D "$T/d" --json="$T/asap.json" 1 >/dev/null 2>&1 ||
	fail "asap: exit status $?"
el=$(jq .result.elapsed_s "$T/asap.json")
expect_within "$el" 1 "the pass as fast as possible"
expect_eq "$(jq .replay.behind_calls "$T/asap.json")" null "asap has no lag"
expect_eq "$(jq .replay.cpu_wait_ms "$T/asap.json")" null "asap has no wait"
end

# The same 31 calls, each recorded as taking 50 ms: 50 ms of thinking
# between one's end and the next one's start, 1.5 s in all.
every_tenth 0.050000 >"$T/think.load"

begin "think timing keeps the gaps between a stream's calls, not their times: 1.5 s of a 3 s recording"
cpu_mark
"$DBENCH" --run-once --replay-timing=think -c "$T/think.load" -D "$T/d" \
	--json="$T/think.json" 1 >"$T/think.out" 2>&1 || fail "exit status $?"
el=$(jq .result.elapsed_s "$T/think.json")
# never early (each gap is held), late by at most 150 ms over 30 wake-ups
# on a busy machine, as exact timing's bound; exact timing takes 3 s
expect_between 1.49 "$el" 1.65 "the think pass"
expect_eq "$(jq -r .replay.timing "$T/think.json")" think
cpu_mark
"$DBENCH" --run-once --replay-timing=think --replay-speed=2 -c "$T/think.load" -D "$T/d" \
	--json="$T/think2.json" 1 >/dev/null 2>&1 || fail "--replay-speed=2: exit status $?"
el=$(jq .result.elapsed_s "$T/think2.json")
expect_between 0.745 "$el" 0.9 "the think pass at --replay-speed=2"
end

begin "--replay-speed=2 replays it in half the time; progress lines say how far behind"
cpu_mark
"$DBENCH" --run-once --replay-timing=exact --replay-speed=2 -c "$T/exact.load" -D "$T/d" \
	--json="$T/fast.json" 1 >"$T/fast.out" 2>&1 || fail "exit status $?"
el=$(jq .result.elapsed_s "$T/fast.json")
expect_between 1.49 "$el" 1.65 "the exact pass at speed 2"
expect_match "$(cat "$T/fast.out")" ' MB/sec  execute +[0-9]+ sec  latency .* behind [0-9.]+ ms, worst [0-9.]+ ms$'
only_progress_says_execute "$T/fast.out"
end

# A program working in a tree: absolute paths, a symbolic link to / and
# one climbing out, a file created through each; every one of them must
# land beneath the client's own directory.
cat >"$T/tree.load" <<'EOF'
syscalls 1
init dir "src" 0755
init file "src/in.c" 3000 0644
init symlink "root" "/"
init symlink "up" "../../../.."
1 0 0 openat "/src/in.c" O_RDONLY 0 3
1 0 0 read 3 8192 3000
1 0 0 close 3 0
1 0 0 mkdir "/obj" 0755 0
1 0 0 openat "obj/in.o" O_WRONLY|O_CREAT|O_EXCL 0644 4
1 0 0 write 4 2000 2000
1 0 0 close 4 0
1 0 0 openat "root/escaped-root" O_WRONLY|O_CREAT 0644 5
1 0 0 close 5 0
1 0 0 openat "up/escaped-up" O_WRONLY|O_CREAT 0644 6
1 0 0 close 6 0
1 0 0 rename "obj/in.o" "obj/out.o" 0
1 0 0 stat "obj/in.o" ENOENT
1 0 0 getdents64 4 32768 EBADF
EOF

begin "8 clients replay one recording, each in its own directory, and none escapes"
rm -rf "$T/d8" && mkdir "$T/d8"
"$DBENCH" --run-once --skip-cleanup -c "$T/tree.load" -D "$T/d8" --json="$T/d8.json" 8 \
	>"$T/d8.out" 2>&1 || fail "exit status $?: $(tail -3 "$T/d8.out")"
expect_eq "$(jq '[.ops[].errors] | add' "$T/d8.json")" 0 "outcome differences"
expect_eq "$(jq .ops.openat.count "$T/d8.json")" 32 "openat calls"
i=1
while [ $i -le 8 ]; do
	c="$T/d8/clients/client$i"
	[ "$(stat -c %s "$c/obj/out.o" 2>/dev/null)" = 2000 ] || fail "client$i has no obj/out.o of 2000 bytes"
	[ -f "$c/escaped-root" ] && [ -f "$c/escaped-up" ] || fail "client$i: the links did not resolve inside it"
	i=$((i + 1))
done
expect_eq "$(ls "$T/d8/clients" | wc -l)" 8 "entries of DIR/clients"
expect_eq "$(ls "$T/d8" | tr '\n' ' ')" "clients " "entries of DIR"
[ -e /escaped-root ] && fail "a file was made at /escaped-root"
[ -e "$T/escaped-up" ] && fail "a file was made above DIR"
end

# What tar does to "." when it extracts an archive of '.', and the other
# calls a program makes on the directory it runs in: they replay on the
# client's own directory (its mode, times), nothing above it.
cat >"$T/onroot.load" <<'EOF'
syscalls 1
init file "f" 10 0644
1 0.00 0 mkdirat "" 0700 EEXIST
1 0.01 0 newfstatat "" AT_SYMLINK_NOFOLLOW 0
1 0.02 0 openat "" O_RDONLY|O_DIRECTORY|O_CLOEXEC 0 3
1 0.03 0 getdents64 3 32768 *
1 0.04 0 fsync 3 0
1 0.05 0 fstat 3 0
1 0.06 0 close 3 0
1 0.07 0 chmod "" 0750 0
1 0.08 0 utimensat "" AT_SYMLINK_NOFOLLOW 0
1 0.09 0 fchownat "" 0 0 AT_SYMLINK_NOFOLLOW 0
1 0.12 0 statfs "" 0
1 0.13 0 access "/" R_OK 0
EOF

begin "calls on the root replay on the client's directory, and only there"
rm -rf "$T/dr8" && mkdir -p "$T/dr8" && chmod 0755 "$T/dr8"
"$DBENCH" --run-once --strict --skip-cleanup -c "$T/onroot.load" -D "$T/dr8" 2 \
	>"$T/onroot.out" 2>&1 || fail "exit status $?: $(grep -E 'FAILED|rror' "$T/onroot.out" | head -3)"
expect_eq "$(stat -c %a "$T/dr8/clients/client2")" 750 "the client's directory's mode"
expect_eq "$(stat -c %a "$T/dr8")" 755 "the target's mode"
expect_eq "$(stat -c %a "$T/dr8/clients")" 755 "DIR/clients' mode"
end

begin "the initial state is made before the measured window, each pass from anew"
"$DBENCH" -q -t 2 --warmup 0 -c "$T/tree.load" -D "$T/d" --json="$T/p.json" 1 >/dev/null 2>&1 ||
	fail "exit status $?"
# mkdir /obj and the O_EXCL create succeed in every pass: the last pass's
# tree was removed and the initial state made again
expect_eq "$(jq '[.ops[].errors] | add' "$T/p.json")" 0 "outcome differences over passes"
n=$(jq .ops.mkdir.count "$T/p.json")
[ "$n" -ge 2 ] || fail "only $n passes"
expect_eq "$(jq '.ops | has("init")' "$T/p.json")" false "init lines counted"
end

# openat2's RESOLVE_IN_ROOT fails a walk through ".." with EAGAIN when a
# rename happens anywhere on the machine meanwhile (the kernel cannot
# then prove the walk stayed inside); the replay tries again, as the
# kernel asks, rather than count an outcome difference.  The 'up' link
# of tree.load is such a walk; a second process renames without pause.
begin "renames elsewhere on the machine do not make a walk through .. differ"
mkdir -p "$T/ren" "$T/dr" && : >"$T/ren/a"
python3 -c '
import os, sys, time
os.chdir(sys.argv[1]); end = time.time() + 4
while time.time() < end:
    for _ in range(500):
        os.rename("a", "b"); os.rename("b", "a")
' "$T/ren" &
renamer=$!
"$DBENCH" -q -t 2 --warmup 0 -c "$T/tree.load" -D "$T/dr" --json="$T/ren.json" 1 >/dev/null 2>&1 ||
	fail "exit status $?"
kill $renamer 2>/dev/null
wait $renamer 2>/dev/null
expect_eq "$(jq '[.ops[].errors] | add' "$T/ren.json")" 0 "outcome differences beside the renames"
end

cat >"$T/diff.load" <<'EOF'
syscalls 1
1 0 0 stat "made-by-nobody" 0
1 0 0 openat "missing" O_RDONLY 0 3
1 0 0 read 3 100 100
1 0 0 close 3 0
1 0 0 stat "other" ENOENT
EOF

begin "an outcome difference is counted per call, and the run goes on"
"$DBENCH" --run-once -c "$T/diff.load" -D "$T/d" --json="$T/diff.json" 1 >"$T/diff.out" 2>&1
expect_status $? 0
expect_eq "$(jq .ops.stat.errors "$T/diff.json")" 1 "stat's differences"
expect_eq "$(jq .ops.stat.count "$T/diff.json")" 2 "stats made"
expect_eq "$(jq .ops.openat.errors "$T/diff.json")" 1 "openat's differences"
# the read and the close name a descriptor the replay never opened: not
# made, counted apart
expect_eq "$(jq .ops.read.skipped "$T/diff.json")" 1 "reads skipped"
expect_eq "$(jq .ops.close.skipped "$T/diff.json")" 1 "closes skipped"
expect_eq "$(jq '.ops.read.count' "$T/diff.json")" 0 "reads made"
expect_match "$(cat "$T/diff.out")" '^ stat +2 .* 1$'
expect_match "$(cat "$T/diff.out")" 'skipped \(a descriptor they name was never opened by the replay\): close 1, read 1'
end

begin "--strict fails the run on the first difference, naming its line"
"$DBENCH" --run-once --strict -c "$T/diff.load" -D "$T/d" 1 >"$T/strict.out" 2>&1
expect_status $? 1
expect_match "$(cat "$T/strict.out")" 'FAILED: client 1, .*diff.load:2 stat .*: ENOENT \(No such file or directory\), recorded 0'
expect_no_match "$(cat "$T/strict.out")" 'diff.load:[3-9]'
end

begin "syncfs is replayed on the descriptor's filesystem, with its outcome"
cat >"$T/syncfs.load" <<'EOF'
syscalls 1
init file "a" 4096 0644
1 0.000 0.001 openat "a" O_WRONLY 0 3
1 0.010 0.001 write 3 100 100
1 0.020 0.001 syncfs 3 0
1 0.030 0.001 close 3 0
1 0.040 0.001 syncfs 3 EBADF
EOF
out=$("$DBENCH" --run-once --strict -c "$T/syncfs.load" -D "$T/d" 1 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^ syncfs +2 '
end

begin "a POSIX ACL set as cp -a sets it is replayed as a valid one"
cat >"$T/acl.load" <<'EOF2'
syscalls 1
init file "a" 3 0644
1 0 0 openat "a" O_RDWR 0 3
1 0 0 fsetxattr 3 "system.posix_acl_access" 28 0 0
1 0 0 setxattr "a" "system.posix_acl_access" 44 0 0
1 0 0 fsetxattr 3 "user.x" 5 0 0
1 0 0 fgetxattr 3 "user.x" 64 5
1 0 0 close 3 0
EOF2
"$DBENCH" --run-once --strict -c "$T/acl.load" -D "$T/d" 1 >"$T/acl.out" 2>&1 ||
	fail "exit status $?: $(grep FAILED "$T/acl.out")"
end

begin "several streams keep one client's figures exact"
{
	echo 'syscalls 1'
	s=2
	while [ $s -le 8 ]; do echo "1 0 0 thread $s"; s=$((s + 1)); done
	i=0
	while [ $i -lt 500 ]; do
		s=1
		while [ $s -le 8 ]; do echo "$s 0 0 stat \"f$s\" ENOENT"; s=$((s + 1)); done
		i=$((i + 1))
	done
} >"$T/many.load"
"$DBENCH" --backend=null --run-once -c "$T/many.load" -D "$T/d" --json="$T/many.json" 4 \
	>/dev/null 2>&1 || fail "exit status $?"
expect_eq "$(jq .ops.stat.count "$T/many.json")" 16000 "stat calls of 4 clients x 8 streams"
expect_eq "$(jq .result.operations "$T/many.json")" 16000 "operations"
expect_eq "$(jq .replay.streams "$T/many.json")" 8 "streams"
# in exact timing each stream's thread says how long it waited for a CPU
"$DBENCH" --backend=null --run-once --replay-timing=exact -c "$T/many.load" -D "$T/d" \
	--json="$T/many-x.json" 4 >/dev/null 2>&1 || fail "exact: exit status $?"
expect_eq "$(jq .replay.behind_calls "$T/many-x.json")" 16028 "calls held to their time (and 7 thread rows a client)"
if [ -r /proc/thread-self/schedstat ]; then
	w=$(jq .replay.cpu_wait_ms "$T/many-x.json")
	within 0 60000 "$w" || fail "32 threads waited '$w' ms for a CPU"
fi
end

# run_cpu CPU ARGS...: the CPU seconds (user and system) that dbench ARGS,
# held to CPU, and what it reaped took, its output thrown away.
run_cpu() {
	(
		_cpu=$1
		shift
		taskset -c "$_cpu" "$DBENCH" "$@" >/dev/null 2>&1
		times
	) | awk 'NR == 2 { split($0, t, /[ms ]+/); printf "%.3f\n", t[1] * 60 + t[2] + t[3] * 60 + t[4] }'
}

# The kernel's release of a client process whose stream's thread read its
# own /proc entries (an exact replay's wait for a CPU) spins until that
# thread, still exiting, has taken them away: a parent at a real-time
# priority on the thread's CPU kept it from running until the kernel's
# throttling stopped the parent, 0.95 s of its CPU later.
begin "an exact replay of two streams is reaped at once by a real-time parent"
printf 'syscalls 1\n1 0 0 thread 2\n1 0.001 0 stat "a" ENOENT\n2 0.001 0 stat "b" ENOENT\n' \
	>"$T/reap.load"
"$DBENCH" --backend=null --run-once -c "$T/reap.load" -D "$T/d" --json="$T/reap.json" 1 \
	>/dev/null 2>&1 || fail "exit status $?"
if ! command -v taskset >/dev/null; then
	skip_block "no taskset"
elif [ "$(jq .result.sampler_realtime "$T/reap.json")" != true ]; then
	skip_block "the parent cannot take a real-time priority here"
else
	# on one CPU, which the thread and the parent share: the first this
	# test may use
	cpu=$(taskset -cp $$ | sed 's/.*: //; s/[,-].*//')
	asap=0 exact=0 i=0
	while [ $i -lt 5 ]; do
		a=$(run_cpu "$cpu" --backend=null --run-once -c "$T/reap.load" -D "$T/d" 1)
		x=$(run_cpu "$cpu" --backend=null --run-once --replay-timing=exact \
			-c "$T/reap.load" -D "$T/d" 1)
		asap=$(awk -v s="$asap" -v a="$a" 'BEGIN { print s + a }')
		exact=$(awk -v s="$exact" -v x="$x" 'BEGIN { print s + x }')
		i=$((i + 1))
	done
	awk -v a="$asap" -v x="$exact" 'BEGIN { exit !(x <= a + 0.5) }' ||
		fail "5 exact replays took $exact s of CPU, 5 asap ones $asap s"
fi
end

begin "--stagger spreads the clients' starts"
cpu_mark
"$DBENCH" --backend=null --run-once --stagger=2 -c "$T/diff.load" -D "$T/d" \
	--json="$T/st.json" 4 >/dev/null 2>&1
expect_status $? 0
el=$(jq .result.elapsed_s "$T/st.json")
# the last of 4 starts 1.5 s in
expect_between 1.4 "$el" 5 "4 clients staggered over 2 s"
end

begin "--check-loadfile summarises a recording and names what a backend cannot replay"
printf '%s\n' 'syscalls 1' '1 0 0 openat "f" O_RDWR|O_CREAT 0644 3' '1 0 0 fallocate 3 0 0 8192 0' \
	'1 0 0 symlink "f" "g" 0' >"$T/unsup.load"
out=$("$DBENCH" --check-loadfile -c "$T/tree.load" 2>&1) || fail "exit status $?"
expect_match "$out" '^streams 1$'
expect_match "$out" '^init_files 1$'
expect_match "$out" '^init_symlinks 2$'
expect_match "$out" '^init_bytes 3000$'
expect_match "$out" '^openat 4$'
out=$("$DBENCH" --check-loadfile --backend=smb -c "$T/tree.load" 2>&1)
expect_match "$out" '^init symlink: 2 symbolic links of the initial state not made by the smb backend'
out=$("$DBENCH" --check-loadfile --backend=smb -c "$T/unsup.load" 2>&1)
expect_match "$out" '^fallocate: 1 call not supported by the smb backend'
expect_match "$out" '^symlink: 1 call not supported by the smb backend'
end

begin "a recording's threads that cannot be started: the errno and the limits behind it"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	{
		echo 'syscalls 1'
		for i in $(seq 2 64); do echo "1 0.0 0.0 thread $i"; done
		for i in $(seq 1 64); do echo "$i 0.1 0.0 stat \"x$i\" ENOENT"; done
	} >"$T/many.load"
	mkdir -p "$T/dn" && chmod 777 "$T/dn" && chmod 755 "$T" && chmod 644 "$T/many.load"
	out=$(prlimit --nproc=8 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$DBENCH" --run-once -c "$T/many.load" -D "$T/dn" 1 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" "^FAILED: client 1, setup: cannot start the recording's 63 threads: Resource temporarily unavailable \(RLIMIT_NPROC is 8, RLIMIT_AS is [a-z0-9]+, kernel.threads-max is [0-9]+\)$"
else
	echo "# skipped: needs root and setpriv"
fi
end

begin "bad recordings and replay options are refused before any client starts"
printf 'syscalls 1\n1 0 0 stat "a/../b" 0\n' >"$T/bad.load"
out=$("$DBENCH" -c "$T/bad.load" -D "$T/d" 1 2>&1)
expect_status $? 2
expect_match "$out" "bad.load:2: path 'a/../b' has a '..' component"
out=$("$DBENCH" --replay-timing=later -c "$T/diff.load" -D "$T/d" 1 2>&1)
expect_status $? 2
expect_match "$out" "--replay-timing 'later' is not asap, think or exact"
out=$("$DBENCH" --replay-speed=0 --replay-timing=exact -c "$T/diff.load" -D "$T/d" 1 2>&1)
expect_status $? 2
out=$("$DBENCH" --strict -D "$T/d" 1 2>&1)
expect_status $? 2
expect_match "$out" '--strict is for a recording'
[ -z "$(ls "$T/d/clients" 2>/dev/null)" ] || fail "a client started"
end

finish
