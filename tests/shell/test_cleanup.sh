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

finish
