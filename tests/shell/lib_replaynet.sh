# tests/shell/lib_replaynet.sh - recordings of the system-call dialect
# (doc/SYSCALLS.md) and the checks of their replay over a network backend,
# shared by test_smb.sh and test_nfs.sh (sourced after lib.sh).
#
# replaynet_write writes into $T: small.load, a file of the initial state
# read, one written through two descriptors (dup), renamed, its directory
# listed, the first removed, and calls on the root as tar makes them (a
# mkdir that finds it, a stat, chmod, utimensat, an open to list it;
# every call one both protocols have; fileio replays it with no outcome
# difference, which test_replay.sh's calls check in general); and
# unsup.load, calls no request of SMB or NFS does
# (fallocate, fsetxattr) and some SMB's client lacks (fsync, link,
# symlink), between calls both do.
#
# replaynet_small RUN DIR (its variables rn_*, never lib.sh's _n): "RUN ARGS..." runs dbench over the backend (a
# function of the test's); the small recording at 1 and 4 clients, with
# --strict and --skip-cleanup, must exit 0 with no outcome difference,
# leaving each client's file where the recording put it beneath
# DIR/clients, and nothing of what it removed.  DIR/clients is removed
# after.

replaynet_write() {
	cat >"$T/small.load" <<'EOF'
syscalls 1
init dir "in" 0755
init file "in/a.txt" 5000 0644
1 0.000000 0.000010 openat "in/a.txt" O_RDONLY 0 3
1 0.000020 0.000010 fstat 3 0
1 0.000030 0.000010 read 3 4096 4096
1 0.000040 0.000010 read 3 4096 904
1 0.000050 0.000010 read 3 4096 0
1 0.000060 0.000010 lseek 3 0 SEEK_END 5000
1 0.000070 0.000010 close 3 0
1 0.000080 0.000010 mkdir "out" 0755 0
1 0.000090 0.000010 openat "out/tmp" O_WRONLY|O_CREAT|O_TRUNC 0644 3
1 0.000100 0.000010 write 3 5000 5000
1 0.000110 0.000010 pwrite64 3 100 6000 100
1 0.000120 0.000010 ftruncate 3 8192 0
1 0.000130 0.000010 dup 3 4
1 0.000140 0.000010 close 3 0
1 0.000150 0.000010 write 4 192 192
1 0.000160 0.000010 close 4 0
1 0.000170 0.000010 rename "out/tmp" "out/done.txt" 0
1 0.000180 0.000010 openat "out" O_RDONLY|O_DIRECTORY 0 3
1 0.000190 0.000010 getdents64 3 32768 80
1 0.000200 0.000010 getdents64 3 32768 0
1 0.000210 0.000010 close 3 0
1 0.000220 0.000010 stat "out/done.txt" 0
1 0.000230 0.000010 unlink "in/a.txt" 0
1 0.000240 0.000010 stat "in/a.txt" ENOENT
1 0.000250 0.000010 openat "out/done.txt" O_RDONLY 0 3
1 0.000260 0.000010 pread64 3 8192 0 8192
1 0.000270 0.000010 close 3 0
1 0.000280 0.000010 rmdir "in" 0
1 0.000290 0.000010 mkdir "" 0755 EEXIST
1 0.000300 0.000010 stat "" 0
1 0.000310 0.000010 chmod "" 0755 0
1 0.000320 0.000010 utimensat "" 0 0
1 0.000330 0.000010 openat "" O_RDONLY|O_DIRECTORY 0 3
1 0.000340 0.000010 fstat 3 0
1 0.000350 0.000010 close 3 0
EOF
	cat >"$T/unsup.load" <<'EOF'
syscalls 1
init file "f" 100 0644
1 0.000000 0.000010 openat "f" O_RDWR 0 3
1 0.000010 0.000010 fallocate 3 0 0 8192 0
1 0.000020 0.000010 fsetxattr 3 "user.x" 4 0 0
1 0.000030 0.000010 write 3 100 100
1 0.000040 0.000010 fsync 3 0
1 0.000050 0.000010 close 3 0
1 0.000060 0.000010 link "f" "g" 0
1 0.000070 0.000010 symlink "f" "h" 0
1 0.000080 0.000010 rename "f" "e" 0
EOF
}

replaynet_small() {
	for rn_n in 1 4; do
		rm -rf "$2/clients"
		"$1" -c "$T/small.load" --run-once --strict --skip-cleanup --json="$T/small$rn_n.json" \
			"$rn_n" >"$T/small$rn_n.out" 2>&1
		expect_status $? 0 "$T/small$rn_n.out"
		expect_eq "$(jq '[.ops[].errors] | add' "$T/small$rn_n.json")" 0 "outcome differences"
		expect_eq "$(jq '[.ops[] | .not_supported // 0, .skipped // 0] | add' \
			"$T/small$rn_n.json")" 0 "calls not made"
		expect_eq "$(jq '.ops.getdents64.count' "$T/small$rn_n.json")" "$((2 * rn_n))" "listings"
		for rn_i in $(seq 1 "$rn_n"); do
			rn_c=$2/clients/client$rn_i
			expect_eq "$(stat -c %s "$rn_c/out/done.txt" 2>&1)" 8192 "client$rn_i's out/done.txt"
			[ ! -e "$rn_c/in" ] && [ ! -e "$rn_c/out/tmp" ] || fail "client$rn_i: in/ or out/tmp left"
		done
	done
	rm -rf "$2/clients"
}

# replaynet_unsup RUN DIR BACKEND CALL...: the unsup recording over RUN
# exits 0 with no outcome difference, each CALL (and no other) counted
# once as not performed in the table and the JSON and named by
# --check-loadfile for BACKEND, the calls around them made (the rename's
# DIR/clients/client1/e is there).  DIR/clients is left for the caller.
replaynet_unsup() {
	rn_run=$1 rn_dir=$2 rn_backend=$3
	shift 3
	rm -rf "$rn_dir/clients"
	"$rn_run" -c "$T/unsup.load" --run-once --skip-cleanup --json="$T/unsup.json" 1 \
		>"$T/unsup.out" 2>&1
	expect_status $? 0 "$T/unsup.out"
	expect_eq "$(jq '[.ops[].errors] | add' "$T/unsup.json")" 0 "outcome differences"
	expect_eq "$(jq '[.ops[].not_supported // 0] | add' "$T/unsup.json")" "$#" "calls not performed"
	rn_check=$("$rn_run" --check-loadfile -c "$T/unsup.load")
	for rn_c in "$@"; do
		expect_match "$(cat "$T/unsup.out")" "^ not supported by the backend, not performed:.* $rn_c 1(,|\$)"
		expect_eq "$(jq ".ops.$rn_c.not_supported" "$T/unsup.json")" 1 "$rn_c not supported"
		expect_match "$rn_check" "^$rn_c: 1 call not supported by the $rn_backend backend"
	done
	[ -f "$rn_dir/clients/client1/e" ] || fail "the rename after them was not made"
}
