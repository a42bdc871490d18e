# test_writeback.sh - how much of what the clients wrote reached the disk
# (result.h struct writeback), held against the device's own stat file
# read by the test around each run.
#
# A loop-mounted ext4 image takes two loads.  One writes 4 MiB files and
# unlinks them at once: ext4 allocates a file's blocks only at writeback,
# so the data of a file unlinked first never reaches the device, and the
# device writes far less than the clients did (the journal's commits of
# the creates and unlinks, a few blocks each).  The other rewrites one
# file in place with -F (fsync after every write): all of it reaches the
# device within the window, the ratio near 1 (a little above: the
# journal's blocks of each fsync).
. "$TOP/tests/shell/lib.sh"

# 4 MiB written and unlinked; 4 MiB rewritten in place and kept.
cat >"$T/unlink.txt" <<'LOAD'
NTCreateX "\clients\client1\f.bin" 0x40 0x5 1 NT_STATUS_OK
WriteX 1 0 1048576 1048576 NT_STATUS_OK
WriteX 1 1048576 1048576 1048576 NT_STATUS_OK
WriteX 1 2097152 1048576 1048576 NT_STATUS_OK
WriteX 1 3145728 1048576 1048576 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\f.bin" 0x6 NT_STATUS_OK
LOAD
sed '/^Unlink/d; s/0x40 0x5/0x40 0x3/' "$T/unlink.txt" >"$T/keep.txt"

# sectors_written DEV: field 7 of /sys/block/DEV/stat.
sectors_written() {
	awk '{print $7}' "/sys/block/$1/stat"
}

# jnum FILTER: jq -r on the run's document.
jnum() {
	jq -r "$1" "$T/r.json"
}

# ratio_within LO HI WHAT: the loop device's ratio in the run's document.
ratio_within() {
	awk -v r="$(jnum '.disks[0].written_ratio')" -v lo="$1" -v hi="$2" \
		'BEGIN { exit !(r >= lo && r <= hi) }' ||
		fail "$3: ratio $(jnum '.disks[0].written_ratio'), want $1 .. $2"
}

# run_on_image LOADFILE OPTION...: a 2-client run on the image, the loop
# device's sectors written read before and after it ($s0, $s1).
run_on_image() {
	_load=$1
	shift
	sync
	s0=$(sectors_written "$loop")
	"$DBENCH" -t 3 --warmup 0 "$@" -c "$_load" -D "$T/ext4" --json="$T/r.json" 2 \
		>"$T/out" 2>&1
	_rc=$?
	s1=$(sectors_written "$loop")
	expect_status $_rc 0
	expect_eq "$(jnum '.disks[0].device')" "$loop" device
	cli=$(jnum '.disks[0].clients_written_bytes')
	dev=$(jnum '.disks[0].written_bytes')
	# the clients wrote beneath the image, and all of it is theirs
	expect_eq "$cli" "$(jnum .result.bytes_written)" "clients' bytes on $loop"
	[ "$cli" -gt 0 ] 2>/dev/null || fail "the clients wrote '$cli' bytes"
	# the window lies within the run: the device wrote no more in it
	# than the stat file saw from before the run to after it
	[ "$dev" -le $(((s1 - s0) * 512)) ] 2>/dev/null ||
		fail "$dev bytes written in the window, the stat file saw $(((s1 - s0) * 512))"
	expect_eq "$(jnum '(.disks[0].written_bytes / .disks[0].clients_written_bytes * 1e6
			   | round) == (.disks[0].written_ratio * 1e6 | round)')" true ratio
	echo "# $(basename "$_load") $*: the clients wrote $cli bytes, $loop $dev in the window" \
		"(ratio $(jnum '.disks[0].written_ratio')), $(((s1 - s0) * 512)) over the run"
}

begin "ext4 on a loop device: files unlinked before writeback barely reach it, fsynced ones do"
if mount_ext4 "$T/ext4"; then
	loop=$(findmnt -n -o SOURCE --target "$T/ext4" | tail -n 1)
	loop=${loop#/dev/}
	run_on_image "$T/unlink.txt"
	# well under 1 by dbench's count and by the test's own, over the
	# whole run (setup and cleanup included)
	ratio_within 0 0.2 "unlinked"
	awk -v d=$(((s1 - s0) * 512)) -v c="$cli" 'BEGIN { exit !(d < 0.2 * c) }' ||
		fail "the stat file saw $(((s1 - s0) * 512)) bytes for the clients' $cli"
	out=$(cat "$T/out")
	expect_match "$out" "^Writeback $loop \\($T/ext4\\): the clients wrote [0-9.]+ [kMG]B, the device [0-9.]+ (bytes|[kMG]B) \\([0-9.e-]+ of it\\); the machine's page cache held [0-9.]+ (bytes|[kMG]B) dirty and [0-9.]+ (bytes|[kMG]B) under writeback at the end\$"

	run_on_image "$T/keep.txt" -F
	# near 1: every write reached the device before the next began
	ratio_within 0.9 1.5 "fsynced"
	# every write counted was fsynced before it ended, so before the
	# window's last reading: all of it is among the device's bytes
	[ "$dev" -ge "$cli" ] || fail "the device wrote $dev bytes in the window, the clients $cli"
	# and the stat file agrees: the run wrote at least what the clients
	# did, and the window holds nearly all of it
	[ $(((s1 - s0) * 512)) -ge "$cli" ] ||
		fail "the stat file saw $(((s1 - s0) * 512)) bytes for the clients' $cli, fsynced"
	awk -v d=$(((s1 - s0) * 512)) -v w="$dev" 'BEGIN { exit !(w >= 0.9 * d) }' ||
		fail "the window holds $dev of the $(((s1 - s0) * 512)) bytes the run wrote"
	umount "$T/ext4"
fi
end

begin "two targets: a device counts the clients whose directory lies on it alone"
if [ "$(id -u)" -eq 0 ] && mount -o loop "$T/ext4.img" "$T/ext4" 2>/dev/null &&
	mount_tmpfs "$T/tmpfs" 32m; then
	# one pass each: client1 on the image, client2 on the tmpfs
	"$DBENCH" --run-once --warmup 0 -c "$T/unlink.txt" -D "$T/ext4" -D "$T/tmpfs" \
		--json="$T/r.json" 2 >"$T/out" 2>&1
	expect_status $? 0
	expect_eq "$(jnum .result.bytes_written)" 8388608 "both clients' bytes"
	expect_eq "$(jnum '.disks[0].clients_written_bytes')" 4194304 "the image's client's"
	expect_eq "$(jnum '.writeback.no_device | map(.directory + " " + .fstype) | join(",")')" \
		"$T/tmpfs tmpfs" "targets on no device"
	expect_match "$(cat "$T/out")" "^Writeback $T/tmpfs: no figure: a tmpfs file system, on no block device\$"
	umount "$T/ext4" "$T/tmpfs"
else
	echo "# skipped: cannot mount the image and a tmpfs here"
fi
end

begin "a device written in place with O_DIRECT: the window's readings bracket the clients' writes"
# Every 4 KiB write the clients counted was on the device before it
# returned, so before the window's last reading: the device never shows
# less than the clients counted.  Before the last reading followed the
# stop, a write could be counted that the device had not yet shown: 2
# runs in 6 here; and once the clients opened the window by their own
# clocks, before the first reading was taken just before the opening,
# the parent woken for it read the device after their first writes of
# the window (-45056 to -49152 bytes in 3 runs of 12 at a load average
# of 7).  What the device shows beyond the clients' count was written
# in the window but not counted in it: a write begun in the warmup or
# ended after the stop, and the warmup's last 5 ms before the opening
# reading (8192 to 2215936 bytes in 12 runs, under 1 % of the clients'),
# more while the parent, between its first reading and the opening,
# waits for a CPU.  So the bound is a tenth of the clients' bytes, well
# under the second of warmup's writes that a window opened at the wrong
# reading would take in.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && truncate -s 64M "$T/dev.img" &&
	dev_loop=$(losetup -f --show "$T/dev.img" 2>/dev/null); then
	printf 'LOOP 64\nWRITE */0x1000%%0x4000000 4096 0x00000000\nENDLOOP\n' >"$T/w4k.load"
	for i in 1 2 3; do
		"$DBENCH" -B block --block="$dev_loop" -c "$T/w4k.load" -t 1 --warmup 1 \
			--json="$T/r.json" 2 >"$T/out" 2>&1
		expect_status $? 0
		expect_eq "$(jnum '.disks[0].device')" "${dev_loop#/dev/}" device
		gap=$(jnum '.disks[0].write_kib * 1024 - .result.bytes_written')
		echo "# run $i: the clients wrote $(jnum .result.bytes_written) bytes, the" \
			"device $gap more"
		[ "$gap" -ge 0 ] && [ "$gap" -le "$(jnum '.result.bytes_written / 10 | floor')" ] \
			2>/dev/null ||
			fail "run $i: the device wrote $gap bytes more than the clients counted"
		expect_eq "$(jnum '.disks[0].written_bytes - .disks[0].clients_written_bytes')" \
			"$gap" "run $i: the figures of the device's line"
	done
	losetup -d "$dev_loop"
else
	echo "# skipped: needs root and a loop device (losetup -f)"
fi
end

begin "a backend that writes nothing here says so, and no device counts its bytes"
mkdir -p "$T/d"
"$DBENCH" -B null -t 1 --warmup 0 -c "$T/unlink.txt" -D "$T/d" --json="$T/r.json" 1 \
	>"$T/out" 2>&1
expect_status $? 0
expect_eq "$(jnum .writeback.none)" "the null backend writes nothing" why
expect_eq "$(jnum '[.disks[].written_ratio] | map(select(. != null)) | length')" 0 ratios
if [ "$(jnum '.disks | length')" -gt 0 ]; then
	expect_match "$(cat "$T/out")" '^Writeback: no figure: the null backend writes nothing$'
fi
end

finish
