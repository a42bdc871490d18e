# test_cleanup.sh - what a run leaves behind (issue 45): the removal of
# trees a replay made unremovable or deep, what is said and the exit
# status when something is left, and the initial state that must fit
# before anything is made.
. "$TOP/tests/shell/lib.sh"
TP='^Throughput [0-9.e+]+ MB/sec \(NB=[0-9.e+]+ MB/sec  [0-9.e+]+ MBit/sec\)  [0-9]+ procs$'

# A recording that builds a tree DEPTH levels deep with short paths: a
# new top made each time and the old tree renamed into it.
deep_recording() {
	awk -v n="$1" 'BEGIN {
		print "syscalls 1"
		print "1 0 0.000001 mkdir \"top\" 0755 0"
		for (i = 0; i < n; i++) {
			print "1 0 0.000001 mkdir \"n\" 0755 0"
			print "1 0 0.000001 rename \"top\" \"n/top\" 0"
			print "1 0 0.000001 rename \"n\" \"top\" 0"
		}
	}'
}

begin "an 8000-level tree is removed under ulimit -n 256: the walk holds a bounded number of descriptors"
deep_recording 8000 >"$T/deep.load"
mkdir -p "$T/deep"
out=$( (ulimit -n 256; "$DBENCH" --run-once -c "$T/deep.load" -D "$T/deep" 1) 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "$TP"
expect_eq "$(find "$T/deep" | wc -l)" 1 "entries left in the target"
end

begin "a directory the replay made read-only (chmod 0555, as Go's module cache) is removed by a user without root's rights"
if can_be_nobody; then
	cat >"$T/ro.load" <<-'EOF'
	syscalls 1
	1 0 0.000001 mkdir "pkg" 0755 0
	1 0 0.000001 mkdir "pkg/sub" 0755 0
	1 0 0.000001 openat "pkg/sub/f" O_WRONLY|O_CREAT 0644 3
	1 0 0.000001 close 3 0
	1 0 0.000001 chmod "pkg/sub" 0555 0
	1 0 0.000001 chmod "pkg" 0555 0
	EOF
	mkdir -m 777 "$T/ro"
	# a timed run: the next pass empties the directory too
	out=$(as_nobody "$DBENCH" -t 2 --warmup 0 -c "$T/ro.load" -D "$T/ro" 2 2>&1); rc=$?
	expect_status $rc 0
	expect_match "$out" "$TP"
	expect_no_match "$out" 'left in|FAILED'
	expect_eq "$(ls -A "$T/ro")" "" "left in the target"
	chmod -R u+rwx "$T/ro" 2>/dev/null
fi
end

begin "a directory the replay made mode 0 is removed with --run-once by a user without root's rights"
if can_be_nobody; then
	cat >"$T/zero.load" <<-'EOF'
	syscalls 1
	1 0 0.000001 mkdir "a" 0755 0
	1 0 0.000001 mkdir "a/b" 0755 0
	1 0 0.000001 chmod "a/b" 0 0
	1 0 0.000001 chmod "a" 0 0
	EOF
	mkdir -m 777 "$T/zero"
	out=$(as_nobody "$DBENCH" --run-once -c "$T/zero.load" -D "$T/zero" 1 2>&1); rc=$?
	expect_status $rc 0
	expect_match "$out" "$TP"
	expect_eq "$(ls -A "$T/zero")" "" "left in the target"
	chmod -R u+rwx "$T/zero" 2>/dev/null
fi
end

begin "a target removed during the run: its failure, and no line of files left where nothing is"
mkdir -p "$T/gone"
DBENCH_TEST_HOLD=start "$DBENCH" -t 5 --warmup 0 -D "$T/gone" 6 >"$T/gone.out" 2>&1 &
pid=$!
if held $pid; then
	# a client killed: the parent removes what it left, where nothing
	# is once the target is gone (the others go on making files while
	# the parent is held, and fail)
	kill -KILL "$(pgrep -P $pid | head -n 1)"
	while [ -e "$T/gone" ]; do rm -rf "$T/gone" 2>/dev/null; done
	kill -CONT $pid
fi
wait $pid; rc=$?
out=$(cat "$T/gone.out")
expect_status $rc 1
expect_match "$out" '^FAILED: client [0-9]+, '
expect_no_match "$out" 'are left in'
end

begin "a file made immutable in a client's directory is named as left, exit 1, the figures whole"
if mount_ext4 "$T/e4"; then
	# a workload that never removes the client's directory: the built-in
	# one's Deltree, at a pass's start and end, would fail on the file
	# made immutable when a pass ends inside the window (a quiet machine)
	printf '%s\n' 'NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK' \
		'WriteX 1 0 65536 65536 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$T/keep.load"
	"$DBENCH" -t 3 --warmup 0 -c "$T/keep.load" -D "$T/e4" 2 >"$T/e4.out" 2>&1 &
	pid=$!
	wait_for_line "$T/e4.out" ' execute +1 sec' && touch "$T/e4/clients/client1/stuck" &&
		chattr +i "$T/e4/clients/client1/stuck"
	wait $pid; rc=$?
	out=$(cat "$T/e4.out")
	expect_status $rc 1
	expect_match "$out" "^dbench: files of client 1 are left in $T/e4/clients: cannot remove client1/stuck: Operation not permitted\$"
	expect_match "$out" "${TP%\$}  FILES LEFT \\(the cleanup failed\\)\$"
	expect_eq "$(grep -c 'are left in' "$T/e4.out")" 1 "lines of files left"
	expect_eq "$(ls -A "$T/e4/clients")" client1 "left in the target"
	chattr -i "$T/e4/clients/client1/stuck"
fi
end

begin "an initial state larger than the target's free space is refused with the figures, exit 2, nothing made"
if mount_tmpfs "$T/small" 64m; then
	printf 'syscalls 1\ninit file "big" 100000000000 0644\n1 0 0.000001 stat "big" 0\n' >"$T/big.load"
	out=$("$DBENCH" -t 3 --warmup 0 -c "$T/big.load" -D "$T/small" 2 2>&1); rc=$?
	expect_status $rc 2
	expect_match "$out" "^dbench: no room in '$T/small' for the initial state: 2 clients need 200\.00 GB in 4 inodes, its file system has 6[0-9]\.[0-9] MB and [0-9]+ inodes free \(--force tries anyway\)\$"
	expect_eq "$(ls -A "$T/small")" "" "made in the target"
	# --force tries: the client that cannot make it fails its setup and
	# removes what it made (the parent makes nothing to remove it)
	out=$("$DBENCH" -t 3 --warmup 0 --force -c "$T/big.load" -D "$T/small" 1 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" '^FAILED: client 1, setup: cannot make the initial state: No space left on device$'
	expect_no_match "$out" 'are left in'
	expect_eq "$(ls -A "$T/small")" "" "left in the target"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "an initial state of more small files than the target has inodes is refused, naming the inodes"
if mount_tmpfs "$T/few" "64m,nr_inodes=1000"; then
	awk 'BEGIN { print "syscalls 1"; for (i = 0; i < 600; i++) printf "init file \"f%d\" 1 0644\n", i
		print "1 0 0.000001 stat \"f1\" 0" }' >"$T/many.load"
	out=$("$DBENCH" -t 3 --warmup 0 -c "$T/many.load" -D "$T/few" 2 2>&1); rc=$?
	expect_status $rc 2
	expect_match "$out" "^dbench: no room in '$T/few' for the initial state: 2 clients need [0-9.]+ MB in 1202 inodes, its file system has [0-9.]+ MB and 99[0-9] inodes free \(--force tries anyway\)\$"
	expect_eq "$(ls -A "$T/few")" "" "made in the target"
	out=$("$DBENCH" -t 1 --warmup 0 -c "$T/many.load" -D "$T/few" 1 2>&1); rc=$?
	expect_status $rc 0
	expect_match "$out" "$TP"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "two targets on one file system add up: each fits alone, both do not"
if mount_tmpfs "$T/two" 64m; then
	mkdir "$T/two/a" "$T/two/b"
	printf 'syscalls 1\ninit file "half" 40000000 0644\n1 0 0.000001 stat "half" 0\n' >"$T/half.load"
	out=$("$DBENCH" -t 3 --warmup 0 -c "$T/half.load" -D "$T/two/a" -D "$T/two/b" 2 2>&1); rc=$?
	expect_status $rc 2
	expect_match "$out" "^dbench: no room in '$T/two/a' for the initial state: 2 clients need 80\.0 MB in 4 inodes"
	out=$("$DBENCH" -t 1 --warmup 0 -c "$T/half.load" -D "$T/two/a" -D "$T/two/b" 1 2>&1); rc=$?
	expect_status $rc 0
	expect_eq "$(ls -A "$T/two/a" "$T/two/b" | tr -d '\n')" "$T/two/a:$T/two/b:" "left in the targets"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "a parent killed once its clients are gone leaves no empty client directories"
mkdir -p "$T/killed"
DBENCH_TEST_HOLD=reaped "$DBENCH" -t 2 --warmup 0 -D "$T/killed" 6 >"$T/killed.out" 2>&1 &
pid=$!
held $pid && kill -KILL $pid
wait $pid; rc=$?
expect_status $rc 137
expect_eq "$(ls -A "$T/killed")" "" "left in the target"
end

begin "a mount appearing in a client's directory during the run is left alone by the cleanup, named, exit 1"
mkdir -p "$T/victim/sub" "$T/mp" && echo "keep me" >"$T/victim/file"
"$DBENCH" -t 3 --warmup 0 -D "$T/mp" 2 >"$T/mp.out" 2>&1 &
pid=$!
if wait_for_line "$T/mp.out" ' execute +1 sec' && mkdir -p "$T/mp/clients/client1/mnt" &&
	mount --bind "$T/victim" "$T/mp/clients/client1/mnt" 2>/dev/null; then
	wait $pid; rc=$?
	out=$(cat "$T/mp.out")
	expect_status $rc 1
	expect_match "$out" "^dbench: files of client 1 are left in $T/mp/clients: cannot remove client1/mnt: Invalid cross-device link\$"
	expect_eq "$(cd "$T/victim" && find . | sort | tr '\n' ' ')" ". ./file ./sub " "the mounted directory"
	umount "$T/mp/clients/client1/mnt"
else
	wait $pid
	echo "# skipped: cannot bind-mount here (not root?)"
fi
end

begin "another user's directory in a client's directory is named as left when the run cannot remove it"
if can_be_nobody; then
	mkdir -m 777 "$T/nb"
	as_nobody "$DBENCH" -t 3 --warmup 0 -D "$T/nb" 2 >"$T/nb.out" 2>&1 &
	pid=$!
	wait_for_line "$T/nb.out" ' execute +1 sec' && mkdir "$T/nb/clients/client2/roots" &&
		touch "$T/nb/clients/client2/roots/f"
	wait $pid; rc=$?
	out=$(cat "$T/nb.out")
	expect_status $rc 1
	expect_match "$out" "^dbench: files of client 2 are left in $T/nb/clients: cannot remove client2/roots/f: Permission denied\$"
	expect_eq "$(grep -c 'are left in' "$T/nb.out")" 1 "lines of files left"
fi
end

finish
