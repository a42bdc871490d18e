# test_reliability.sh - what an adversarial afternoon found (issue 17):
# bind mounts, resource limits, output files, signals and stuck clients.
. "$TOP/tests/shell/lib.sh"
TP='^Throughput [0-9.e+]+ MB/sec \(NB=[0-9.e+]+ MB/sec  [0-9.e+]+ MBit/sec\)  [0-9]+ procs$'

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

finish
