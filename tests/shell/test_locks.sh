# test_locks.sh - file locks in a recording's replay (doc/SYSCALLS.md,
# "Order between streams"): every kind of lock and of release keeps the
# recorded order and never deadlocks; a circle of waits is refused before
# any client starts; a lock the order did not foresee, or a circle of
# waits that got through, fails the run after --stop-timeout naming the
# row, in --run-once as in a timed run.  A hang is caught by the outer
# `timeout`, far above any limit the runs are given.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

# replay FILE.load [OPTION...]: one pass of $T/FILE.load, one client, the
# output in $T/FILE.out and $T/FILE.json; its exit status in $rc.
replay() {
	_f=$1
	shift
	rm -rf "$T/d/clients"
	timeout -k 10 120 "$DBENCH" --run-once --stop-timeout 5 -c "$T/$_f.load" -D "$T/d" \
		--json="$T/$_f.json" "$@" 1 >"$T/$_f.out" 2>&1
	rc=$?
}

# differences FILE: the outcome differences its run counted.
differences() {
	jq '[.ops[].errors] | add' "$T/$1.json" 2>/dev/null
}

# The recording the issue gave: the holder lets go at its exit, which no
# row says, while the other's flock waits for it.
begin "the recording of two processes contending for a flock lock replays once and ends"
if ! command -v strace >/dev/null || ! strace -f -qq -o /dev/null true 2>/dev/null; then
	_why="# skip: strace cannot trace here"
else
	mkdir -p "$T/rec"
	waited=0 tries=0
	# the second flock must have waited (a busy machine may start it late)
	while [ "$waited" = 0 ] && [ "$tries" -lt 3 ]; do
		rm -f "$T/rec/lk"
		(cd "$T/rec" && "$DBENCH" record -o "$T/issue.load" -- \
			sh -c 'flock lk sleep 0.5 & sleep 0.1; flock lk true; wait' 2>"$T/issue.err") ||
			fail "record: exit status $?"
		waited=$(awk '$4 == "flock" && $3 >= 0.2 { w = 1 } END { print w + 0 }' "$T/issue.load")
		tries=$((tries + 1))
	done
	[ "$waited" = 1 ] || fail "no flock waited in 3 recordings"
	replay issue
	expect_eq "$rc" 0 "exit status ($(tail -2 "$T/issue.out"))"
	expect_eq "$(jq .ops.flock.count "$T/issue.json")" 2 "flock calls"
	expect_eq "$(differences issue)" 0 "outcome differences"
fi
end

# A release on a later line than the call that waits for it, and every
# way a lock ends: each replays once, and over many passes of a timed
# run, with no difference and no hang.
cat >"$T/later.load" <<'EOF'
syscalls 1
1 0.00 0.001 thread 2
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 flock 3 LOCK_EX 0
2 0.03 0.001 openat "lk" O_RDWR 0 4
2 0.04 0.500 flock 4 LOCK_EX 0
1 0.50 0.001 write 3 10 10
1 0.51 0.001 flock 3 LOCK_UN 0
2 0.55 0.001 read 4 10 10
EOF
# an OFD lock, let go of at the close of its description's last
# descriptor (a dup), not at the first
cat >"$T/ofd.load" <<'EOF'
syscalls 1
1 0.00 0.001 fork 2
1 0.01 0.001 openat "db" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 dup 3 4
1 0.03 0.001 fcntl 3 F_OFD_SETLK F_WRLCK SEEK_SET 0 100 0
2 0.04 0.001 openat "db" O_RDWR 0 3
2 0.05 0.500 fcntl 3 F_OFD_SETLKW F_WRLCK SEEK_SET 50 10 0
1 0.10 0.001 write 3 100 100
1 0.20 0.001 close 3 0
1 0.30 0.001 write 4 100 100
1 0.50 0.001 close 4 0
2 0.56 0.001 pread64 3 10 50 10
EOF
# a flock lock let go of by an exec that closes its close-on-exec
# descriptor
cat >"$T/cloexec.load" <<'EOF'
syscalls 1
1 0.00 0.001 fork 2
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT|O_CLOEXEC 0644 3
1 0.02 0.001 flock 3 LOCK_EX 0
2 0.04 0.001 openat "lk" O_RDWR 0 3
2 0.05 0.500 flock 3 LOCK_SH 0
1 0.10 0.001 write 3 10 10
1 0.50 0.001 exec 0
1 0.51 0.001 stat "lk" 0
2 0.56 0.001 read 3 10 10
EOF
# lockf(3)'s F_LOCK, a POSIX lock from the offset, let go of when its
# process closes another descriptor of the file
cat >"$T/lockf.load" <<'EOF'
syscalls 1
1 0.00 0.001 fork 2
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 fcntl 3 F_SETLKW F_WRLCK SEEK_CUR 0 0 0
2 0.04 0.001 openat "lk" O_RDWR 0 3
2 0.05 0.500 fcntl 3 F_SETLKW F_WRLCK SEEK_CUR 0 0 0
1 0.10 0.001 write 3 10 10
1 0.30 0.001 openat "lk" O_RDONLY 0 4
1 0.50 0.001 close 4 0
2 0.56 0.001 read 3 10 10
2 0.57 0.001 fcntl 3 F_SETLK F_UNLCK SEEK_SET 0 0 0
EOF
# two threads of the holder's process waiting, each on a description of
# its own, taking the lock in the order they returned
cat >"$T/threads.load" <<'EOF'
syscalls 1
1 0.00 0.001 thread 2
1 0.00 0.001 thread 3
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 flock 3 LOCK_EX 0
2 0.03 0.001 openat "lk" O_RDWR 0 4
3 0.03 0.001 openat "lk" O_RDWR 0 5
2 0.04 0.700 flock 4 LOCK_EX 0
3 0.04 0.900 flock 5 LOCK_EX 0
1 0.10 0.001 write 3 10 10
1 0.50 0.001 close 3 0
2 0.75 0.001 write 4 10 10
2 0.80 0.001 close 4 0
3 0.95 0.001 read 5 20 10
3 0.96 0.001 close 5 0
EOF
# two shared holders both upgrading (the second gets it first, as
# flock(2) lets go of the old lock before it asks for the new), then a
# downgrade
cat >"$T/upgrade.load" <<'EOF'
syscalls 1
1 0.00 0.001 thread 2
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 flock 3 LOCK_SH 0
2 0.03 0.001 openat "lk" O_RDWR 0 4
2 0.04 0.001 flock 4 LOCK_SH 0
1 0.10 0.500 flock 3 LOCK_EX 0
2 0.20 0.001 flock 4 LOCK_EX 0
2 0.30 0.001 write 4 10 10
2 0.40 0.001 flock 4 LOCK_SH 0
2 0.50 0.001 flock 4 LOCK_UN 0
1 0.61 0.001 write 3 10 10
1 0.62 0.001 flock 3 LOCK_UN 0
EOF
# a blocking call a signal cut short while the lock was held
cat >"$T/eintr.load" <<'EOF'
syscalls 1
1 0.00 0.001 thread 2
1 0.01 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.02 0.001 flock 3 LOCK_EX 0
2 0.03 0.001 openat "lk" O_RDWR 0 4
2 0.04 0.300 flock 4 LOCK_EX EINTR
2 0.35 0.001 fcntl 4 F_OFD_SETLKW F_WRLCK SEEK_SET 0 0 0
1 0.50 0.001 flock 3 LOCK_UN 0
EOF
for f in later ofd cloexec lockf threads upgrade eintr; do
	begin "$f: the locks replay once and in a timed run with no difference and no hang"
	replay "$f"
	expect_eq "$rc" 0 "--run-once: exit status ($(grep -m1 FAILED "$T/$f.out"))"
	expect_eq "$(differences "$f")" 0 "--run-once: outcome differences"
	rm -rf "$T/d/clients"
	timeout -k 10 120 "$DBENCH" -t 2 --warmup 0 --stop-timeout 5 -c "$T/$f.load" -D "$T/d" \
		--json="$T/$f.t.json" 2 >"$T/$f.t.out" 2>&1
	expect_eq "$?" 0 "timed: exit status ($(grep -m1 FAILED "$T/$f.t.out"))"
	expect_eq "$(differences "$f.t")" 0 "timed: outcome differences"
	end
done

# A circle of waits written by hand: the compile refuses it, naming the
# waiting call and the release it waits for.
cat >"$T/circle.load" <<'EOF'
syscalls 1
1 0 0 openat "lk" O_RDWR|O_CREAT 0644 3
1 0 0 flock 3 LOCK_EX 0
1 0 0 thread 2
2 0 0 openat "lk" O_RDWR 0 4
2 0 1 flock 4 LOCK_EX 0
2 0 0 mkdir "d" 0755 0
1 0 0 stat "d" 0
1 0 0 flock 3 LOCK_UN 0
EOF
begin "a circle of waits written by hand is refused before any client starts"
replay circle
expect_eq "$rc" 2 "exit status"
expect_match "$(cat "$T/circle.out")" \
	"circle.load:6: flock waits for the release of its lock at .*circle.load:9, which waits for it in turn: the replay would deadlock"
[ -e "$T/d/clients" ] && fail "a client started"
end

# The compile follows the links a loadfile makes: a lock taken through a
# symbolic link to the file's directory is the same lock, and the circle
# it makes here is refused before any client starts.
cat >"$T/linked.load" <<'EOF'
syscalls 1
init dir "d" 0755
init file "d/lk" 0 0644
init symlink "dl" "d"
1 0.00 0 thread 2
1 0.01 0 openat "d/lk" O_RDWR 0 3
1 0.02 0 flock 3 LOCK_EX 0
2 0.03 0 openat "dl/lk" O_RDWR 0 4
2 0.04 0.5 flock 4 LOCK_EX 0
2 0.05 0 mkdir "x" 0755 0
1 0.06 0 stat "x" 0
1 0.07 0 flock 3 LOCK_UN 0
EOF
begin "a lock reached through a link to its directory is the same lock: its circle is refused"
replay linked
expect_eq "$rc" 2 "exit status"
expect_match "$(cat "$T/linked.out")" \
	"linked.load:9: flock waits for the release of its lock at .*linked.load:12, which waits for it in turn: the replay would deadlock"
[ -e "$T/d/clients" ] && fail "a client started"
end

# aliased FILE [OPTION...]: a run of $T/FILE.load, one client, whose
# d/lk2 is made a hard link of d/lk once the init lines have made both:
# one file under two names that no line of the loadfile makes, so the
# compile (which follows every link a loadfile makes, at any depth) sees
# two files and two locks where the kernel has one.  The run is held
# after its fork (DBENCH_TEST_HOLD) while the client sets up.  The
# output in $T/FILE.out, the exit status in $rc.
aliased() {
	_f=$1
	shift
	rm -rf "$T/d/clients"
	timeout -k 10 120 env DBENCH_TEST_HOLD=fork:1 "$DBENCH" -c "$T/$_f.load" -D "$T/d" \
		"$@" 1 >"$T/$_f.out" 2>&1 &
	_t=$!
	_p=
	for _i in $(seq 600); do
		_p=$(pgrep -P "$_t" | head -n 1)
		[ -n "$_p" ] && held "$_p" && [ -f "$T/d/clients/client1/d/lk2" ] && break
		sleep 0.1
	done
	ln -f "$T/d/clients/client1/d/lk" "$T/d/clients/client1/d/lk2" ||
		fail "d/lk2 was not made a link of d/lk"
	[ -n "$_p" ] && kill -s CONT "$_p"
	wait "$_t"
	rc=$?
}

# The replay then waits in the kernel for a lock no stream lets go of,
# until --stop-timeout.
cat >"$T/alias.load" <<'EOF'
syscalls 1
init dir "d" 0755
init file "d/lk" 0 0644
init file "d/lk2" 0 0644
1 0.00 0 thread 2
1 0.01 0 openat "d/lk" O_RDWR 0 3
1 0.02 0 flock 3 LOCK_EX 0
2 0.03 0 openat "d/lk2" O_RDWR 0 4
2 0.04 0.5 flock 4 LOCK_EX 0
2 0.05 0 mkdir "x" 0755 0
1 0.06 0 stat "x" 0
1 0.07 0 flock 3 LOCK_UN 0
EOF
begin "a lock the order did not foresee fails the run after --stop-timeout, naming its row"
for opt in "" --continue-on-error; do
	aliased alias --run-once $opt --stop-timeout 2
	expect_eq "$rc" 1 "$opt: exit status"
	expect_match "$(cat "$T/alias.out")" "FAILED: client 1, .*alias.load:(7|9) flock .*: stream (1|2) made no progress for 2 s \(--stop-timeout\): held in its flock by a lock no other stream let go of"
done
aliased alias -t 30 --stop-timeout 2
expect_eq "$rc" 1 "timed: exit status"
expect_match "$(cat "$T/alias.out")" "made no progress for 2 s"
end

begin "a timed run that ends while its streams wait for such a lock stops them at its end"
aliased alias -t 2 --warmup 0 --stop-timeout 300
expect_eq "$rc" 0 "exit status ($(grep -m1 FAILED "$T/alias.out"))"
end

# A try that failed when recorded (the lock was held) but finds it free
# in the replay, the holder reaching it through a link to its directory:
# the lock is let go of again, else the holder would wait for it for
# ever.
cat >"$T/try.load" <<'EOF'
syscalls 1
init dir "d" 0755
init file "d/lk" 0 0644
init symlink "dl" "d"
1 0.00 0 thread 2
2 0.01 0 openat "dl/lk" O_RDWR 0 4
2 0.02 0 flock 4 LOCK_EX|LOCK_NB EWOULDBLOCK
2 0.03 0 mkdir "x" 0755 0
1 0.04 0 openat "d/lk" O_RDWR 0 3
1 0.05 0 stat "x" 0
1 0.06 0 flock 3 LOCK_EX 0
1 0.07 0 flock 3 LOCK_UN 0
EOF
begin "a lock taken where the recording failed to take it is let go of again"
for opt in "" --continue-on-error; do
	replay try $opt
	expect_eq "$rc" 0 "$opt: exit status ($(grep -m1 FAILED "$T/try.out"))"
	expect_eq "$(jq .ops.flock.errors "$T/try.json")" 1 "$opt: flock differences"
done
end

# Streams waiting for a release that never comes: the holder failed
# first, and --strict stops the run there.  Neither waiter is left
# behind, stream 3 on the holder's counter, stream 2 in the kernel (the
# lock reached through d/lk2, made a hard link of d/lk by aliased, which
# the compile does not see; "held" keeps it after the holder's): the run
# ends well before the --stop-timeout given.
cat >"$T/failed.load" <<'EOF'
syscalls 1
init dir "d" 0755
init file "d/lk" 0 0644
init file "d/lk2" 0 0644
1 0.00 0 thread 2
1 0.00 0 thread 3
1 0.01 0 openat "d/lk" O_RDWR 0 3
1 0.02 0 flock 3 LOCK_EX 0
1 0.03 0 mkdir "held" 0755 0
2 0.03 0 stat "held" 0
2 0.03 0 openat "d/lk2" O_RDWR 0 5
2 0.04 0 mkdir "y" 0755 0
2 0.05 0.5 flock 5 LOCK_EX 0
3 0.05 0 openat "d/lk" O_RDWR 0 4
3 0.06 1.0 flock 4 LOCK_EX 0
1 0.07 0 stat "y" 0
1 0.08 0 stat "nothere" 0
1 0.09 0 flock 3 LOCK_UN 0
EOF
begin "streams waiting on one that failed are stopped with it, not left waiting"
aliased failed --run-once --strict --stop-timeout 300
expect_eq "$rc" 1 "exit status"
expect_match "$(cat "$T/failed.out")" \
	"FAILED: client 1, .*failed.load:17 stat .*nothere: ENOENT \(No such file or directory\), recorded 0"
end

# A blocking lock whose recorded wait was long: the holder let go at its
# end, which the recording does not time; an exact replay holds the
# release until the waiter returned, as it did.
cat >"$T/long.load" <<'EOF'
syscalls 1
1 0.000 0.001 fork 2
2 0.010 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
2 0.020 0.001 flock 3 LOCK_EX 0
1 0.050 0.001 openat "lk" O_RDWR|O_CREAT 0644 3
1 0.060 1.500 flock 3 LOCK_EX 0
EOF
begin "an exact replay of a long wait for a holder's end waits as long"
replay long --replay-timing=exact
expect_eq "$rc" 0 "exit status"
el=$(jq .result.elapsed_s "$T/long.json")
# never early: each call is held to its recorded time
awk -v e="$el" 'BEGIN { exit !(e >= 1.5) }' || fail "the pass took $el s, the wait 1.5 s"
end

# Many streams contending for one lock, each taking it after the one
# before let go.
awk -v n=300 'BEGIN {
	print "syscalls 1"
	for (k = 2; k <= n; k++) printf "1 0.000 0 fork %d\n", k
	for (k = 1; k <= n; k++) printf "%d 0.010 0 openat \"lk\" O_RDWR|O_CREAT 0644 3\n", k
	for (k = 1; k <= n; k++) printf "%d 0.020 %.3f flock 3 LOCK_EX 0\n", k, k == 1 ? 0.001 : 0.1 * k - 0.02
	for (k = 1; k <= n; k++) {
		printf "%d %.3f 0 write 3 10 10\n", k, 0.1 * k
		printf "%d %.3f 0 close 3 0\n", k, 0.1 * k + 0.05
	}
}' >"$T/many.load"
begin "300 streams contending for one lock replay once with no difference"
replay many
expect_eq "$rc" 0 "exit status ($(grep -m1 FAILED "$T/many.out"))"
expect_eq "$(jq .ops.flock.count "$T/many.json")" 300 "flock calls"
expect_eq "$(differences many)" 0 "outcome differences"
end

finish
