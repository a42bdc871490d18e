# test_valgrind.sh - short runs under valgrind: no memory errors and no
# leaks in the parent, in any client process or in the --probe process, and
# the usual exit status.
#
# Every process writes its own log, $T/<run>/vg.PID (the clients and the
# probe are forked, so a run of N clients leaves N + 1 logs, one more with
# --probe).  A log passes when it ends with "ERROR SUMMARY: 0 errors" and
# names no definitely, indirectly or possibly lost bytes; a failure prints
# the first offending record's stack as comments.  What shared libraries'
# constructors allocate at load is theirs (valgrind.supp).  Skipped where valgrind
# is missing or $DBENCH is a sanitizer build (valgrind cannot run ASan,
# MSan or TSan binaries).
. "$TOP/tests/shell/lib.sh"

skip=
if ! command -v valgrind >/dev/null 2>&1; then
	skip="valgrind is not installed (apt-get install valgrind)"
elif grep -Eq '__(asan|msan|tsan)_init' "$DBENCH"; then
	skip="$DBENCH is a sanitizer build, which valgrind cannot run"
fi
if [ -n "$skip" ]; then
	echo "# $skip"
	begin "short runs under valgrind # skipped: $skip"
	end
	finish
	exit
fi

# vg RUN ARGS...: dbench under valgrind, logs in $T/RUN/, output in $T/RUN.out.
vg() {
	run=$1
	shift
	rm -rf "${T:?}/$run"
	mkdir -p "$T/$run"
	valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
		--suppressions="$TOP/tests/shell/valgrind.supp" \
		--trace-children=yes --child-silent-after-fork=no --num-callers=30 \
		--log-file="$T/$run/vg.%p" "$DBENCH" "$@" >"$T/$run.out" 2>&1
}

# vg_record ERE LOG: print as comments the first record of LOG whose
# heading matches ERE, up to the blank line that ends it; 1 if none.
vg_record() {
	awk -v re="^==[0-9]+== ($1)" '
		$0 ~ re { on = 1; found = 1 }
		on && /^==[0-9]+== $/ { exit }
		on && n++ < 30 { print "# " $0 }
		END { exit !found }' "$2"
}

# vg_clean RUN NLOGS: RUN left NLOGS logs, each clean; else fail() and
# print the first bad record of the first bad log.
vg_clean() {
	n=$(ls "$T/$1" | wc -l)
	[ "$n" -eq "$2" ] || fail "$n valgrind logs in $T/$1, want $2 (parent and clients)"
	for log in "$T/$1"/vg.*; do
		[ -f "$log" ] || continue
		pid=${log##*.}
		errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log")
		lost=$(grep -Eo '(definitely|indirectly|possibly) lost: [0-9,]+ bytes in [0-9,]+ blocks' "$log" |
			grep -v ' lost: 0 bytes' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		[ "$errors" = 0 ] && [ -z "$lost" ] && continue
		# A client's parent is the dbench process that left another log here.
		ppid=$(sed -n 's/^==[0-9]*== Parent PID: \([0-9]*\)$/\1/p' "$log")
		who="dbench process $pid"
		[ -f "$T/$1/vg.$ppid" ] && who="client process $pid (forked by $ppid)"
		fail "$who: ${errors:-no ERROR SUMMARY (killed?), so unknown} errors${lost:+; $lost}"
		# The first memory error or definite leak, else the first possible
		# leak, with its stack, for the report.
		vg_record 'Invalid|Conditional|Use of uninit|Mismatched|Syscall param|Source and dest|Argument|.* (definitely|indirectly) lost in loss record' "$log" ||
			vg_record '.* possibly lost in loss record' "$log"
		break
	done
}

# vg_status RUN GOT WANT: dbench's exit status, naming a FAILED line if any.
vg_status() {
	failed_line=$(grep -m 1 '^FAILED' "$T/$1.out")
	[ "$2" -eq "$3" ] ||
		fail "exit status $2, want $3${failed_line:+ ($failed_line)}"
}

# A 50-line loadfile: directories, files written and read back, a wildcard
# search, rename, unlink, locks, and a Deltree of what is left.
{
	cat <<'LOAD'
Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Mkdir "\clients\client1\vg" NT_STATUS_OK
Mkdir "\clients\client1\vg\sub" NT_STATUS_OK
QUERY_FS_INFORMATION 1 NT_STATUS_OK
LOAD
	for i in 1 2 3 4; do
		h=$((10 + i))
		# printf, not echo: dash's echo would take "\c" for an escape
		printf 'NTCreateX "\\clients\\client1\\vg\\f%d.dat" 0x40 0x5 %d NT_STATUS_OK\n' $i $h
		echo "WriteX $h 0 8192 8192 NT_STATUS_OK"
		echo "WriteX $h 8192 4096 4096 NT_STATUS_OK"
		echo "QUERY_FILE_INFORMATION $h 1004 NT_STATUS_OK"
		echo "ReadX $h 0 8192 8192 NT_STATUS_OK"
		echo "ReadX $h 4096 8192 8192 NT_STATUS_OK"
		echo "Close $h NT_STATUS_OK"
	done
	cat <<'LOAD'
FIND_FIRST "\clients\client1\vg\*.dat" 260 1366 4 NT_STATUS_OK
FIND_FIRST "\clients\client1\vg\*.txt" 260 1366 0 NT_STATUS_NO_SUCH_FILE
NTCreateX "\clients\client1\vg\f1.dat" 0x40 0x1 20 NT_STATUS_OK
LockX 20 0 4096 NT_STATUS_OK
SET_FILE_INFORMATION 20 1004 NT_STATUS_OK
Flush 20 NT_STATUS_OK
UnlockX 20 0 4096 NT_STATUS_OK
Close 20 NT_STATUS_OK
Rename "\clients\client1\vg\f1.dat" "\clients\client1\vg\sub\g1.dat" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\vg\f1.dat" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_PATH_INFORMATION "\clients\client1\vg\sub\g1.dat" 1004 NT_STATUS_OK
Unlink "\clients\client1\vg\f2.dat" 0x6 NT_STATUS_OK
Unlink "\clients\client1\vg\f2.dat" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\clients\client1\vg\missing" 0x40 0x1 21 NT_STATUS_OBJECT_NAME_NOT_FOUND
Rmdir "\clients\client1\vg\sub" NT_STATUS_DIRECTORY_NOT_EMPTY
Deltree "\clients\client1\vg" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\vg" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
LOAD
} >"$T/vg.txt"
mkdir -p "$T/d"

begin "--run-once of a 50-line loadfile under valgrind exits 0, files removed"
vg once --run-once -c "$T/vg.txt" -D "$T/d" 2; rc=$?
vg_status once $rc 0
expect_match "$(cat "$T/once.out")" '^Throughput [0-9.e+]+ MB/sec'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "--run-once: no memory errors or leaks in the parent or either client"
vg_clean once 3
end

begin "a timed run of the built-in loadfile with --json under valgrind exits 0"
vg timed -t 2 --warmup 1 -D "$T/d" --json="$T/r.json" 2; rc=$?
vg_status timed $rc 0
expect_match "$(cat "$T/timed.out")" '^Throughput [0-9.e+]+ MB/sec'
grep -q '"exit_code": *0' "$T/r.json" 2>/dev/null || fail "no \"exit_code\": 0 in $T/r.json"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "the timed run: no memory errors or leaks in the parent or either client"
vg_clean timed 3
end

begin "a timed run with --probe under valgrind exits 0, the probe directory removed"
vg probe -t 2 --warmup 1 --probe -D "$T/d" 1; rc=$?
vg_status probe $rc 0
expect_match "$(cat "$T/probe.out")" "^Probe: [0-9]+ listings? of 3000 entries in $T/d/clients/probe, "
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "the --probe run: no memory errors or leaks in the parent, the client or the probe"
vg_clean probe 3
end

begin "a run stopped by an unexpected outcome under valgrind exits 1, files removed"
printf 'NTCreateX "\\clients\\client1\\f" 0x40 0x5 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nQUERY_PATH_INFORMATION "\\clients\\client1\\nothere" 1004 NT_STATUS_OK\n' >"$T/fails.txt"
vg fails --run-once -c "$T/fails.txt" -D "$T/d" 1; rc=$?
vg_status fails $rc 1
expect_match "$(cat "$T/fails.out")" '^FAILED: client 1, .*fails.txt:3 QUERY_PATH_INFORMATION .*: No such file or directory$'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "the failed run: no memory errors or leaks in the parent or the client"
vg_clean fails 2
end

begin "--check-loadfile on a bad loadfile under valgrind exits 2 with the error"
printf 'Mkdir "\\clients\\client1\\a" NT_STATUS_OK\nReadX 7 0 10 10 NT_STATUS_OK\n' >"$T/bad.txt"
vg bad --check-loadfile -c "$T/bad.txt"; rc=$?
vg_status bad $rc 2
expect_eq "$(cat "$T/bad.out")" "dbench: $T/bad.txt:2: handle 7 is not open" "stderr"
end

begin "the rejected loadfile: no memory errors or leaks"
vg_clean bad 1
end

finish
