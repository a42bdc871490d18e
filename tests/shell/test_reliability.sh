# test_reliability.sh - what an adversarial afternoon found (issue 17):
# bind mounts, resource limits, output files, signals and stuck clients.
. "$TOP/tests/shell/lib.sh"
TP='^Throughput [0-9.e+]+ MB/sec \(NB=[0-9.e+]+ MB/sec  [0-9.e+]+ MBit/sec\)  [0-9]+ procs$'

# The lowest address-space limit (KB) at which the program starts at all,
# found by halves (below it, libraries' constructors may crash: not ours).
lowest_vm_limit() {
	_lo=1000 _hi=4000000
	while [ $((_hi - _lo)) -gt 250 ]; do
		_mid=$(((_lo + _hi) / 2))
		if (ulimit -v $_mid; "$DBENCH" --version >/dev/null 2>&1; exit $?) 2>/dev/null; then
			_hi=$_mid
		else
			_lo=$_mid
		fi
	done
	echo $_hi
}

# A victim directory outside the target, and a fingerprint of it.
victim_make() {
	rm -rf "$T/victim" && mkdir -p "$T/victim/sub" &&
		echo "keep me" >"$T/victim/file" && echo "and me" >"$T/victim/sub/deeper"
}
victim_intact() {
	[ "$(cd "$T/victim" && find . | sort | tr '\n' ' ')" = ". ./file ./sub ./sub/deeper " ] ||
		fail "the directory outside the target changed: $(cd "$T/victim" && find . | tr '\n' ' ')"
}

begin "Deltree and cleanup never enter a bind mount of the same file system"
victim_make
mkdir -p "$T/bm/clients/client1/a/bm"
if mount --bind "$T/victim" "$T/bm/clients/client1/a/bm" 2>/dev/null; then
	printf '%s\n' 'Deltree "\clients\client1\a" NT_STATUS_OK' >"$T/bm.txt"
	out=$("$DBENCH" --run-once -c "$T/bm.txt" -D "$T/bm" 1 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" "^FAILED: client 1, $T/bm.txt:1 Deltree $T/bm/clients/client1/a: Invalid cross-device link\$"
	victim_intact
	umount "$T/bm/clients/client1/a/bm"
else
	echo "# skipped: cannot bind-mount here (not root?)"
fi
end

begin "a client process's memory is sized for the clients it runs, with no 256 MiB ceiling"
mkdir -p "$T/pool"
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
out=$("$DBENCH" --run-once -c "$T/one.txt" --clients-per-process=100000 -D "$T/pool" 2 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "$TP"
# A 2000-level path: each client holds a directory buffer per level, 16 MB,
# so 20 clients in one process need more than talloc's 256 MiB at once.
deep='\clients\client1'
i=0; while [ $i -lt 2000 ]; do deep="$deep\\a"; i=$((i + 1)); done
printf 'QUERY_PATH_INFORMATION "%s" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND\n' "$deep" >"$T/deep.txt"
out=$("$DBENCH" --run-once -c "$T/deep.txt" --clients-per-process=20 -D "$T/pool" 20 2>&1); rc=$?
expect_status $rc 0
expect_no_match "$out" 'out of memory'
end

begin "a loadfile over the size limit names the limit; one under it loads"
# 150 MiB of comments: more than the 128 MiB that used to be the real limit.
{ echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK'
  yes "#$(head -c 4000 /dev/zero | tr '\0' x)" | head -c 150M; } | gzip -1 >"$T/big.gz"
out=$("$DBENCH" --check-loadfile -c "$T/big.gz" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^operations 1$'
rm -f "$T/big.gz"
# A gzip bomb: 200 MiB of newlines in under a megabyte.
{ echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK'; head -c 200M /dev/zero | tr '\0' '\n'; } |
	gzip -1 >"$T/bomb.gz"
out=$("$DBENCH" --check-loadfile -c "$T/bomb.gz" 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: $T/bomb.gz: more than 192 MiB once decompressed, the loadfile limit"
rm -f "$T/bomb.gz"
grep -q 'more than 192 MiB once decompressed' "$TOP/man/dbench-loadfile.5" ||
	fail "the man page does not give the 192 MiB limit"
# A plain file over the limit is no question of decompression.
{ echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK'; head -c 200M /dev/zero | tr '\0' '\n'; } >"$T/big.txt"
out=$("$DBENCH" --check-loadfile -c "$T/big.txt" 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: $T/big.txt: larger than 192 MiB, the loadfile limit"
rm -f "$T/big.txt"
end

begin "a loadfile of more than 3000000 operations is refused, naming the file, line and limit"
# Comments and blank lines do not count; the operation past the limit does.
yes 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' | head -n 3000000 | gzip -1 >"$T/max.gz"
out=$("$DBENCH" --check-loadfile -c "$T/max.gz" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^operations 3000000$'
{ echo '# one comment'; echo; yes 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' | head -n 3000001; } |
	gzip -1 >"$T/over.gz"
out=$("$DBENCH" --check-loadfile -c "$T/over.gz" 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: $T/over.gz:3000003: more than 3000000 operations, the loadfile limit"
mkdir -p "$T/over"
out=$("$DBENCH" -t 5 -c "$T/over.gz" -D "$T/over" 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: $T/over.gz:3000003: more than 3000000 operations, the loadfile limit"
expect_eq "$(ls -A "$T/over")" "" "made in the target"
rm -f "$T/max.gz" "$T/over.gz"
grep -q 'more than 3000000 operations' "$TOP/man/dbench-loadfile.5" ||
	fail "the man page does not give the 3000000-operation limit"
end

begin "a device or a FIFO nobody writes to is refused, not read forever"
out=$("$DBENCH" --check-loadfile -c /dev/zero 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: cannot open loadfile '/dev/zero': a character device, not a regular file or a pipe"
mkfifo "$T/fifo"
start=$(date +%s)
out=$(timeout 60 "$DBENCH" -t 2 -c "$T/fifo" -D "$T" 1 2>&1); rc=$?
took=$(($(date +%s) - start))
expect_status $rc 2
expect_eq "$out" "dbench: cannot open loadfile '$T/fifo': a pipe with nothing written to it within 10 s"
[ "$took" -le 20 ] || fail "took $took s to give up"
[ -e "$T/clients" ] && fail "DIR/clients made for a refused loadfile"
out=$(echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' | "$DBENCH" --check-loadfile -c /dev/stdin 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" '^operations 1$'
end

begin "memory running out while loading the built-in loadfile is not bad input"
if grep -Eq '__(asan|msan|tsan)_init' "$DBENCH"; then
	echo "# skipped: a sanitizer build reserves its shadow memory, ulimit -v stops it first"
else
	# Somewhere between the dynamic loader failing and the run starting,
	# an address-space limit makes the compile of the built-in loadfile
	# fail; at every limit the outcome is a clear message and exit 1.
	hi=$(lowest_vm_limit)
	hit=0 v=$hi
	while [ $v -le $((hi + 20000)) ]; do
		out=$( (ulimit -v $v; "$DBENCH" --check-loadfile 2>&1) ); rc=$?
		[ $rc -lt 128 ] || fail "status $rc at ulimit -v $v: $out"
		case $out in
		*"out of memory"*)
			hit=$((hit + 1))
			expect_status $rc 1
			expect_eq "$out" "dbench: (built-in): out of memory" "message at ulimit -v $v";;
		"loadfile (built-in)"*)
			break;;
		esac
		v=$((v + 250))
	done
	[ $hit -gt 0 ] || fail "no address-space limit made the load run out of memory"
fi
end

begin "a run over 1000 directories reports each of them: one directory's figures at a time"
# A directory's figures are some 290 KB of histograms: held all at once,
# a thousand of them passed talloc's 256 MiB limit, and the parent
# crashed in the end with every result lost.
mkdir -p "$T/many"
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
set --
i=0
while [ $i -lt 1000 ]; do
	mkdir "$T/many/d$i" && set -- "$@" -D "$T/many/d$i"
	i=$((i + 1))
done
out=$( (ulimit -n 4096 && "$DBENCH" --run-once -c "$T/one.txt" --json="$T/many.json" "$@" 2) 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "$TP"
expect_match "$out" "^Directory $T/many/d999: 0 clients, "
expect_eq "$(jq '.directories | length' "$T/many.json")" 1000 "directories in the JSON"
expect_eq "$(jq -c '[.directories[0,1,2].clients]' "$T/many.json")" "[1,1,0]" "clients of the first three"
expect_eq "$(find "$T/many" -mindepth 2 | wc -l)" 0 "left in the targets"
set --
end

begin "memory running out at any point of a run: a message and exit 1, never a crash"
if grep -Eq '__(asan|msan|tsan)_init' "$DBENCH"; then
	echo "# skipped: a sanitizer build reserves its shadow memory, ulimit -v stops it first"
else
	# From the lowest address-space limit at which the program starts at
	# all, upwards until runs succeed: every limit in between runs out
	# somewhere (the loadfile, the shared region, the results at the end).
	hi=$(lowest_vm_limit)
	mkdir -p "$T/vm1" "$T/vm2"
	v=$hi ok=0 oom=0
	while [ $v -le $((hi + 40000)) ] && [ $ok -lt 8 ]; do
		out=$( (ulimit -v $v; "$DBENCH" --run-once -c "$T/one.txt" -D "$T/vm1" -D "$T/vm2" \
			--per-client-results --json="$T/vm.json" 4 2>&1) ); rc=$?
		[ $rc -lt 128 ] || { fail "status $rc at ulimit -v $v: $(printf '%s' "$out" | tail -n 2)"; break; }
		if [ $rc -eq 0 ]; then
			ok=$((ok + 1))
			expect_match "$out" "$TP"
		else
			oom=$((oom + 1))
			expect_status $rc 1
			# said on stderr where the parent ran out, or as the run's
			# failure where a client process could not be started
			expect_match "$out" '^(dbench: |FAILED: ).*(out of memory|Cannot allocate memory)'
		fi
		v=$((v + 250))
	done
	[ $oom -gt 0 ] || fail "no address-space limit made the run run out of memory"
	[ $ok -gt 0 ] || fail "no run succeeded up to ulimit -v $v"
fi
end

begin "memory running out for the record of a client's failure: the run fails with its message"
# gdb makes every allocation of a failure record fail once the clients are
# forked (procs_check_slots is first called then): the one set aside
# before the fork takes its place.
if ! command -v gdb >/dev/null 2>&1; then
	echo "# skipped: no gdb"
elif ! gdb -batch -nx -ex run -ex 'printf "exit code %d\n", $_exitcode' --args /bin/sh -c 'exit 3' \
	2>/dev/null | grep -q '^exit code 3$'; then
	echo "# skipped: gdb cannot run a program here (ptrace not allowed?)"
else
	mkdir -p "$T/oomf"
	printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_ACCESS_DENIED' >"$T/oomf.txt"
	cat >"$T/oomf.gdb" <<-'EOF'
	set breakpoint pending on
	set confirm off
	break procs_check_slots
	run
	delete
	break _talloc_zero if $_streq((char *)$rdx, "struct run_failure")
	commands
	silent
	return (void *)0
	continue
	end
	continue
	printf "exit code %d\n", $_exitcode
	EOF
	out=$(timeout 120 gdb -batch -nx -x "$T/oomf.gdb" --args "$DBENCH" --run-once \
		-c "$T/oomf.txt" -D "$T/oomf" --json="$T/oomf.json" 1 2>&1)
	expect_no_match "$out" 'SIGSEGV|received signal'
	expect_match "$out" '^exit code 1$'
	expect_match "$out" "^FAILED: client 1, $T/oomf.txt:1 QUERY_FS_INFORMATION $T/oomf/clients/client1: succeeded, but NT_STATUS_ACCESS_DENIED was expected\$"
	expect_eq "$(jq -r '.status.failure.client' "$T/oomf.json" 2>&1)" 1 "failed client in the JSON"
	expect_eq "$(ls -A "$T/oomf")" "" "left in the target"
fi
end

begin "clients' rates that are missing give no fairness: null in the JSON, no line in the text"
# interrupted in the warmup: no client spent any time in the execute window
mkdir -p "$T/fair"
"$DBENCH" -t 30 --warmup=20 -D "$T/fair" --json="$T/fair.json" 2 >"$T/fair.out" 2>&1 &
pid=$!
wait_for_line "$T/fair.out" ' ready in ' 300 || fail "the run never said it was ready"
kill -INT $pid
wait $pid
expect_eq "$(jq -c '[.fairness[]] + [.clients[].mb_s]' "$T/fair.json")" \
	"[null,null,null,null,null,null]" "fairness and rates of a run interrupted in its warmup"
# a client killed outright: it never said when it stopped
start_long_run "$T/fair" 2 "$T/fair.out" --json="$T/fair2.json" --per-client-results
kill -KILL "$(pgrep -P $pid | head -n 1)"
wait $pid
# no line of "-": what has no value is left out
expect_no_match "$(cat "$T/fair.out")" "^Clients:"
expect_match "$(cat "$T/fair.out")" '^Throughput '
expect_match "$(cat "$T/fair.out")" "^client [12]: - MB/sec  "
expect_eq "$(jq -c '[.fairness[]]' "$T/fair2.json")" "[null,null,null,null]" "fairness with a client killed"
expect_eq "$(jq -c '[.clients[].mb_s | select(. == null)] | length' "$T/fair2.json")" 1 "rates missing"
end

begin "a target that cannot be used stops the run with nothing left in the others"
mkdir -p "$T/first"
out=$("$DBENCH" --run-once -c "$T/one.txt" -D "$T/first" -D "$T/missing" 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: cannot use directory '$T/missing': No such file or directory"
expect_eq "$(ls -A "$T/first")" "" "left in the first target"
end

begin "too few descriptors: the message names what could not be made, nothing is left"
mkdir -p "$T/fds"
# (the redirections are made before the limit, which the shell's own
# saving of descriptors would exceed)
err=$( (ulimit -n 4 && exec "$DBENCH" --run-once -c "$T/one.txt" -D "$T/fds" 1) 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use '$T/fds/clients': Too many open files"
expect_eq "$(ls -A "$T/fds")" "" "left at ulimit -n 4"
for n in 5 6; do
	err=$( (ulimit -n $n && exec "$DBENCH" --run-once -c "$T/one.txt" -D "$T/fds" 1) 2>&1 >/dev/null); rc=$?
	expect_status $rc 1
	expect_eq "$err" "dbench: cannot make the pipe that starts the clients: Too many open files (RLIMIT_NOFILE is $n)"
	expect_eq "$(ls -A "$T/fds")" "" "left at ulimit -n $n"
done
end

begin "the parent killed: its clients and the probe stop and the last one out removes the tree"
# Who ends last, a client or the probe (whose directory holds a thousand
# files), varies: three tries.
for try in 1 2 3; do
	mkdir -p "$T/orphan"
	"$DBENCH" -t 60 --warmup 0 --probe -D "$T/orphan" 2 >"$T/orphan.out" 2>&1 &
	pid=$!
	i=0
	wait_for_line "$T/orphan.out" ' ready in ' 300 || fail "the run never said it was ready"
	sleep 1
	kids=$(pgrep -P $pid)
	[ -n "$kids" ] || fail "no client or probe process found"
	kill -KILL $pid
	wait $pid 2>/dev/null
	for k in $kids; do
		i=0
		while [ $i -lt 300 ] && kill -0 "$k" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
		kill -0 "$k" 2>/dev/null && fail "process $k outlived its parent by 30 s"
	done
	expect_eq "$(ls -A "$T/orphan")" "" "left in the target, try $try"
	rm -rf "$T/orphan"
done
end

begin "a second run in the same directory is refused while the first runs; the lock goes with it"
mkdir -p "$T/lock"
"$DBENCH" -t 60 --warmup 0 -D "$T/lock" 2 >"$T/lock.out" 2>&1 &
pid=$!
i=0
wait_for_line "$T/lock.out" ' ready in ' 300 || fail "the run never said it was ready"
out=$("$DBENCH" -t 5 --warmup 0 -D "$T/lock" 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: another dbench run (pid $pid) is using '$T/lock'"
mkdir -p "$T/free"
out=$("$DBENCH" -t 5 --warmup 0 -D "$T/free" -D "$T/lock" 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$(ls -A "$T/free" 2>/dev/null)" "" "left in the free target"
expect_eq "$(ls "$T/lock/clients" | tr '\n' ' ')" "client1 client2 " "the first run's tree"
kill -s INT $pid
wait $pid; rc=$?
expect_status $rc 130
expect_match "$(cat "$T/lock.out")" "$(partial "$TP" 'interrupted by SIGINT')"
expect_eq "$(ls -A "$T/lock")" "" "left in the target"
# The lock went with the run; the same directory twice is one run's own.
out=$("$DBENCH" --run-once -c "$T/one.txt" -D "$T/lock" -D "$T/lock" 2 2>&1); rc=$?
expect_status $rc 0
# A run whose every process was killed holds no lock: its tree is taken over.
"$DBENCH" -t 60 --warmup 0 -D "$T/lock" 2 >"$T/lock.out" 2>&1 &
pid=$!
i=0
wait_for_line "$T/lock.out" ' ready in ' 300 || fail "the run never said it was ready"
sleep 1
kids=$(pgrep -P $pid)
kill -s STOP $pid $kids
kill -s KILL $pid $kids
wait $pid 2>/dev/null
sleep 0.5
[ -d "$T/lock/clients/client1" ] || fail "the killed run left no tree to take over"
out=$("$DBENCH" --run-once -c "$T/one.txt" -D "$T/lock" 2 2>&1); rc=$?
expect_status $rc 0
expect_eq "$(ls -A "$T/lock")" "" "left in the target after the killed run's"
end

begin "an output file that cannot be written whole leaves the previous one as it was"
if mount_tmpfs "$T/full" 1m; then
	printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
	for f in old.json old.csv old.svg run.json; do echo "{\"old\": \"$f\"}" >"$T/full/$f"; done
	dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null
	before=$(cd "$T/full" && sha256sum old.json old.csv old.svg run.json)
	mkdir -p "$T/out"
	out=$("$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/out" \
		--json="$T/full/run.json" 1 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" "^dbench: cannot write JSON to '$T/full/run.json': No space left on device\$"
	out=$("$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/out" --sweep=1,2 \
		--settle=0 --json="$T/full/old.json" --csv="$T/full/old.csv" \
		--plot="$T/full/old.svg" 2>&1); rc=$?
	expect_status $rc 1
	expect_match "$out" "^dbench: cannot write CSV to '$T/full/old.csv': No space left on device\$"
	expect_eq "$(cd "$T/full" && sha256sum old.json old.csv old.svg run.json)" "$before" "previous files"
	expect_eq "$(ls -A "$T/full" | tr '\n' ' ')" "filler old.csv old.json old.svg run.json " "files on the full tmpfs"
	umount "$T/full"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "a sweep checks its --json, --csv and --plot destinations before the first run"
for opt in --json --csv --plot; do
	mkdir -p "$T/dest"
	out=$("$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/dest" --sweep=1 \
		$opt="$T/missing/x" 2>&1); rc=$?
	expect_status $rc 2
	expect_match "$out" "^dbench: cannot write (JSON|CSV|the plot) to '$T/missing/x': No such file or directory\$"
	expect_no_match "$out" '^Throughput'
	expect_eq "$(ls -A "$T/dest")" "" "$opt: made in the target"
done
end

begin "sweep summaries: no row for a count never run, no figures where no run succeeded"
printf '%s\n' 'QUERY_PATH_INFORMATION "\clients\client1\nothere" 1004 NT_STATUS_OK' >"$T/bad.txt"
mkdir -p "$T/sw"
out=$("$DBENCH" --sweep=1 --settle=0 --run-once -q -c "$T/bad.txt" -D "$T/sw" --json="$T/sw.json" 2>&1); rc=$?
expect_status $rc 1
expect_eq "$(jq -c '.summary[0] | [.runs, .mean, .high, .low, .stddev, .cv_pct, .p99_ms, .max_ms]' "$T/sw.json")" \
	"[0,null,null,null,null,null,null,null]" "summary of a count whose runs all failed"
expect_match "$out" '^ +1 +0( +-){8}$'
# The target goes away while the sweep rests after its first run: the
# second count never runs, and that is a failed sweep, not bad usage.
mkdir -p "$T/gone"
"$DBENCH" --sweep=1,2 --settle=4 --run-once -c "$T/one.txt" -D "$T/gone" --json="$T/gone.json" \
	>"$T/gone.out" 2>&1 &
spid=$!
i=0
wait_for_line "$T/gone.out" '^Throughput' 300 || fail "the sweep's first run never ended"
rm -rf "$T/gone"
wait $spid; rc=$?
expect_status $rc 1
expect_eq "$(jq -c '[.summary[].procs]' "$T/gone.json")" "[1]" "counts in the summary"
expect_no_match "$(cat "$T/gone.out")" '^ +2 +0 '
end

begin "results that cannot be written to stdout fail the run, said on stderr"
mkdir -p "$T/so"
err=$("$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/so" 1 2>&1 >/dev/full); rc=$?
expect_status $rc 1
expect_match "$err" '^dbench: cannot write standard output: '
err=$("$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/so" 1 2>&1 >&-); rc=$?
expect_status $rc 1
expect_eq "$err" "dbench: cannot write standard output: Bad file descriptor"
err=$("$DBENCH" --version 2>&1 >/dev/full); rc=$?
expect_status $rc 1
expect_eq "$err" "dbench: cannot write standard output: No space left on device"
err=$("$DBENCH" --check-loadfile -c "$T/one.txt" 2>&1 >/dev/full); rc=$?
expect_status $rc 1
# A closed stdout is not handed to the --json file: the document is whole.
"$DBENCH" --backend=null --run-once -c "$T/one.txt" -D "$T/so" --json="$T/so.json" 1 >&- 2>/dev/null
jq -e '.result' "$T/so.json" >/dev/null || fail "the --json document is not valid JSON"
expect_eq "$(ls -A "$T/so")" "" "left in the target"
end

for args in " 4" "+4" "--warmup=-1" "-R 1e-300" "-R 1e-7"; do
	begin "'$args' is refused as documented, exit 2, nothing made"
	mkdir -p "$T/cli"
	case $args in
	-*) set -- $args 1;;
	*) set -- "$args";;
	esac
	err=$(cd "$T/cli" && "$DBENCH" --backend=null -t 1 "$@" 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: (NPROCS|--warmup|--target-rate) '
	expect_eq "$(ls -A "$T/cli")" "" "made in the directory"
	end
done

begin "the smallest -R paces: a byte a second lets one 64 KB WriteX through in 2 s"
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK' \
	'WriteX 1 0 65536 65536 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$T/w.txt"
mkdir -p "$T/pace"
out=$("$DBENCH" -R 0.000001 -t 2 --warmup 0 -c "$T/w.txt" -D "$T/pace" --json="$T/pace.json" 1 2>&1); rc=$?
expect_status $rc 0
expect_eq "$(jq '.ops.WriteX.count' "$T/pace.json")" 1 "WriteX operations"
end

begin "a directory moved out of the target mid-run: only what is beneath it is touched"
# Documented limit: the client follows a moved directory it holds open.
mkdir -p "$T/mv" "$T/outside/keep"
echo "keep me" >"$T/outside/keep/file"
printf '%s\n' 'NTCreateX "\clients\client1\d" 0x1 0x3 1 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
	'NTCreateX "\clients\client1\d\f" 0x0 0x5 2 NT_STATUS_OK' \
	'WriteX 2 0 4096 4096 NT_STATUS_OK' 'Close 2 NT_STATUS_OK' >"$T/mv.txt"
"$DBENCH" -t 3 --warmup 0 -c "$T/mv.txt" -D "$T/mv" 1 >"$T/mv.out" 2>&1 &
mpid=$!
i=0
while [ $i -lt 1200 ] && [ ! -e "$T/mv/clients/client1/d/f" ]; do sleep 0.05; i=$((i + 1)); done
mv "$T/mv/clients/client1/d" "$T/outside/d"
wait $mpid
expect_eq "$(cd "$T/outside" && find . | sort | tr '\n' ' ')" ". ./d ./d/f ./keep ./keep/file " "outside the target"
expect_eq "$(cat "$T/outside/keep/file")" "keep me" "the file beside the moved directory"
expect_eq "$(ls -A "$T/mv")" "" "left in the target"
grep -q 'is followed: the client goes on creating' "$TOP/man/dbench.1" || fail "the man page does not state the limit"
end

begin "a client or the probe stopped by SIGTERM before the run ends fails the run"
start_long_run "$T/term" 2 "$T/term.out"
victim=$(pgrep -P $pid | head -n 1)
kill -TERM "$victim"
wait $pid; rc=$?
expect_status $rc 1
expect_match "$(cat "$T/term.out")" '^FAILED: client [12], died: stopped by signal 15 \(Terminated\) before the run ended$'
expect_eq "$(ls -A "$T/term")" "" "left in the target"
start_long_run "$T/pterm" 1 "$T/pterm.out" --probe
kill -TERM "$(pgrep -P $pid -x dbench-probe)"
wait $pid; rc=$?
expect_status $rc 1
expect_match "$(cat "$T/pterm.out")" '^FAILED: probe, died: stopped by signal 15 \(Terminated\) before the run ended$'
expect_eq "$(ls -A "$T/pterm")" "" "left in the target"
end

for sig in HUP:1 QUIT:3; do
	num=${sig#*:} sig=${sig%:*}
	begin "SIG$sig to the process group stops, reports, cleans up, exits 128+signal"
	mkdir -p "$T/$sig"
	DBENCH_TEST_HOLD=start setsid "$DBENCH" -t 60 --warmup 0 -D "$T/$sig" 2 >"$T/$sig.out" 2>&1 &
	pid=$!
	released $pid || fail "the run was not held as it released its clients"
	sleep 1
	/bin/kill -s $sig -- -$pid
	wait $pid; rc=$?
	expect_status $rc $((128 + num))
	expect_match "$(cat "$T/$sig.out")" "$(partial "$TP" "interrupted by SIG$sig")"
	expect_eq "$(ls -A "$T/$sig")" "" "left in the target"
	end
done

begin "--run-once: the timeline ends at elapsed_s, no false Stall line"
# Think time spreads the clients' ends over tens of milliseconds, so that
# some exits arrive while the parent reaps the first ones.
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' '1.2 QUERY_FS_INFORMATION 1 NT_STATUS_OK' \
	'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/ro.txt"
mkdir -p "$T/ro"
for i in 1 2 3; do
	out=$("$DBENCH" --run-once --think-time=exp:15000 -c "$T/ro.txt" -D "$T/ro" \
		--json="$T/ro.json" 3 2>&1) || fail "exit status $?"
	expect_no_match "$out" '^Stall'
	late=$(jq '.result.elapsed_s as $e | [.timeline[] | select(.t_s > $e + 0.000001)] | length' "$T/ro.json")
	expect_eq "$late" 0 "timeline points after elapsed_s, run $i"
done
end

# A run whose one client is held stopped across the end of its execute
# window, so that the parent waits for it in the cleanup; $pid, $victim.
# Timed from what the run says, not from its start: on a busy machine the
# setup alone can take seconds.  The run is held as it releases the
# client (DBENCH_TEST_HOLD=start), and the client stopped once it has run
# after the release; the window is over once the progress line says
# "cleanup".  The stop
# timeout (60 s) keeps the parent waiting for the client for as long as
# the test needs.
start_held_run() {
	mkdir -p "$1"
	DBENCH_TEST_HOLD=start "$DBENCH" -t 4 --warmup 0 --stop-timeout=60 -D "$1" \
		--json="$1.json" 1 >"$1.out" 2>&1 &
	pid=$!
	held $pid || fail "the run was not held as it released its client"
	victim=$(pgrep -P $pid | head -n 1)
	ran=$(cpu_ns "$victim")
	kill -s CONT $pid
	ran_since "$victim" "$ran" || fail "the client never ran after the release"
	kill -s STOP "$victim"
	wait_for_line "$1.out" ' cleanup ' || fail "the run never said its window was over"
}

# gone PID [SECONDS]: wait up to SECONDS (default 10) for PID to end; 1
# when it is still there.
gone() {
	_t=0
	while kill -0 "$1" 2>/dev/null; do
		[ $_t -ge $((${2:-10} * 10)) ] && return 1
		sleep 0.1
		_t=$((_t + 1))
	done
}

begin "a SIGINT after the execute window ended: results whole, exit 0, the cleanup goes on"
start_held_run "$T/late"
kill -s INT $pid
sleep 0.5
kill -0 "$victim" 2>/dev/null || fail "the first SIGINT in the cleanup killed the client"
kill -s CONT "$victim"
wait $pid; rc=$?
expect_status $rc 0
expect_eq "$(jq .status.interrupted "$T/late.json")" false "status.interrupted"
expect_match "$(cat "$T/late.out")" "$TP"
expect_eq "$(ls -A "$T/late")" "" "left in the target"
end

begin "a second SIGINT in the cleanup kills the clients; the parent removes their files"
start_held_run "$T/late2"
kill -s INT $pid
sleep 0.5
kill -s INT $pid
# the parent kills it at once; 10 s are for a busy machine
gone "$victim" 10 || fail "the second SIGINT left the client alive"
kill -s CONT "$victim" 2>/dev/null
wait $pid; rc=$?
expect_status $rc 130
expect_eq "$(ls -A "$T/late2")" "" "left in the target"
end

# stop_one NAME WHO COMMAND...: COMMAND in the background, its output in
# $T/NAME.out, held as it releases its clients (DBENCH_TEST_HOLD=start):
# its process WHO ("client" or "probe") is sent SIGSTOP once it has run
# after the release (it is at work, whatever the machine's load), and
# never continued.  $victim is that process, $others_s the seconds from
# the release until no other process of the run was left ("" if that was
# never seen), $took the seconds from the release to the end and $rc the
# exit status; cpu_mark is at the release.
stop_one() {
	name=$1 who=$2
	shift 2
	DBENCH_TEST_HOLD=start "$@" >"$T/$name.out" 2>&1 &
	pid=$!
	held $pid || fail "the run was not held as it released its clients"
	case $who in
	probe) victim=$(pgrep -P $pid -x dbench-probe);;
	*) victim=$(pgrep -P $pid -x dbench | head -n 1);;
	esac
	ran=$(cpu_ns "$victim")
	cpu_mark
	t0=$(date +%s.%N)
	kill -s CONT $pid
	ran_since "$victim" "$ran" || fail "the $who never ran after the release"
	kill -s STOP "$victim"
	(sleep 40; kill -s CONT "$victim") 2>/dev/null &
	guard=$!
	others_s=
	while kill -0 $pid 2>/dev/null; do
		if [ -z "$others_s" ] && [ -z "$(pgrep -P $pid | grep -vx "$victim")" ]; then
			others_s=$(echo "$(date +%s.%N) - $t0" | bc)
		fi
		sleep 0.1
	done
	wait $pid
	rc=$?
	took=$(echo "$(date +%s.%N) - $t0" | bc)
	kill $guard 2>/dev/null
}

# stop_after_end NAME NPROCS WHO [OPTION...]: stop_one of a 3 s run with
# --stop-timeout=2 in $T/NAME.
stop_after_end() {
	mkdir -p "$T/$1"
	stop_one "$1" "$3" "$DBENCH" -t 3 --warmup 0 --stop-timeout=2 -D "$T/$1" \
		--json="$T/$1.json" "$4" "$2"
}

# held_failed NAME MESSAGE: the run of stop_one in $T/NAME failed with
# "FAILED: MESSAGE" (an ERE) in a few seconds, its results printed and in
# its JSON, its stopped client killed and nothing left in its target.
held_failed() {
	expect_status $rc 1
	out=$(cat "$T/$1.out")
	expect_match "$out" "^FAILED: $2\$"
	expect_match "$out" "$(partial "$TP" 'the run failed')"
	expect_eq "$(jq -c '[.status.exit_code, .status.failure.client != null]' "$T/$1.json")" \
		"[1,true]" "status"
	# the end (3 s), the stop timeout (2 s), a second's look; 4 s more
	expect_within "$took" 10 "the run from the release"
	kill -0 "$victim" 2>/dev/null && fail "the stopped client is still alive"
	expect_eq "$(ls -A "$T/$1")" "" "left in the target"
}

begin "a client held stopped past --stop-timeout after the end fails the run, named and killed"
stop_after_end held 2 client --warmup=0
# the other client stops at the end (3 s) and cleans up, the stopped one
# held meanwhile: gone before the stop timeout has passed
[ -n "$others_s" ] || fail "the other client process was never seen gone"
expect_within "${others_s:-0}" 4.5 "the other client's end from the release"
held_failed held "client [12], process $victim did not stop within 2 s after the run ended \\(it was held stopped by a signal\\); killed"
end

begin "so is the --probe process, held stopped in its setup or after the end"
stop_after_end heldp 1 probe --probe
expect_status $rc 1
expect_match "$(cat "$T/heldp.out")" "^FAILED: probe, process $victim (did not stop within 2 s after the run ended \\(it was held stopped by a signal\\)|was held stopped by a signal for 2 s while it set up); killed\$"
kill -0 "$victim" 2>/dev/null && fail "the stopped probe is still alive"
expect_eq "$(ls -A "$T/heldp")" "" "left in the target"
end

begin "--run-once: a client held stopped for --stop-timeout during its pass fails the run, named and killed"
mkdir -p "$T/once"
i=0; while [ $i -lt 4000 ]; do echo 'QUERY_FS_INFORMATION 1 NT_STATUS_OK'; i=$((i + 1)); done \
	>"$T/slow.txt"
# 4000 operations of 1 ms: a pass of some 4 s, stopped once at work
stop_one once client env DBENCH_NULL_DELAY_US=1000 "$DBENCH" --run-once --backend=null \
	-c "$T/slow.txt" --stop-timeout=2 -D "$T/once" --json="$T/once.json" 2
held_failed once "client [12], process $victim was held stopped by a signal for 2 s while it replayed the loadfile; killed"
end

begin "no operation after the time limit is counted: a pause the end cut short is not followed by one"
printf '%s\n' 'QUERY_FS_INFORMATION 1 NT_STATUS_OK' >"$T/one.txt"
mkdir -p "$T/cut"
out=$("$DBENCH" -t 2 --warmup 0 --think-time=5000000 -c "$T/one.txt" -D "$T/cut" \
	--json="$T/cut.json" 2 2>&1); rc=$?
expect_status $rc 0
expect_eq "$(jq .result.operations "$T/cut.json")" 0 "operations counted"
end

begin "--stop-timeout takes 1 to 3600 seconds"
for v in 0 -1 3601 x; do
	err=$("$DBENCH" --stop-timeout=$v -D "$T" 1 2>&1); rc=$?
	expect_status $rc 2
	case $v in
	x) expect_match "$err" '^dbench: --stop-timeout=x: invalid numeric value';;
	*) expect_eq "$err" "dbench: --stop-timeout must be from 1 to 3600 seconds";;
	esac
done
end

finish
