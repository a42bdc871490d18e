#!/bin/sh
# test_scsi.sh - the scsi backend (SG_IO on /dev/sgN or /dev/sdX).  What
# is not a SCSI device is refused before any client starts (exit 2),
# each named: a loop device (its driver has no SG_IO), a character device
# that is not sg, a regular file, a directory, options it has no use
# for.  A replay needs a scratch SCSI device whose contents may be lost:
# SCSI_TEST_DEVICE=/dev/sgN (or /dev/sdX) names one, else a scsi_debug
# disk (modprobe scsi_debug) is taken; never any other disk.  Where there
# is none, those blocks skip saying why (a container or a VM without
# SCSI has no sg driver at all).
# check-quick: refusals before any client starts; its replay needs a SCSI device
. "$TOP/tests/shell/lib.sh"

LOOPS=
trap 'for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done; cleanup_scratch' EXIT

printf 'TESTUNITREADY 0x00\nREADCAPACITY10 0 0 0x00\n' >"$T/tur.load"

begin "what is not a SCSI device is refused before any client starts (exit 2), each named"
for case in \
	"/dev/null|'/dev/null' is not a SCSI device: its driver has no SG_IO \\(Inappropriate ioctl" \
	"$T/tur.load|'$T/tur.load' is a regular file, not a SCSI generic device \\(/dev/sgN\\) or a SCSI disk \\(/dev/sdX\\)" \
	"$T|'$T' is a directory, not a SCSI generic device" \
	"$T/none|cannot use '$T/none': No such file or directory"; do
	dev=${case%%|*} want=${case#*|}
	out=$("$DBENCH" -B scsi --scsi="$dev" -c "$T/tur.load" --run-once 1 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "$dev: exit $rc, want 2"
	expect_match "$out" "^dbench: $want"
done
expect_match "$("$DBENCH" -B scsi -c "$T/tur.load" 1 2>&1)" 'needs --scsi=DEVICE'
expect_match "$("$DBENCH" -B scsi --scsi=/dev/null -D "$T" -c "$T/tur.load" 1 2>&1)" \
	'takes its target from --scsi, not -D'
expect_match "$("$DBENCH" -B scsi --scsi=/dev/null --scsi-timeout=0 -c "$T/tur.load" 1 2>&1)" \
	'--scsi-timeout must be 1 to 3600 seconds'
expect_match "$("$DBENCH" -B scsi --scsi=/dev/null --verify -c "$T/tur.load" 1 2>&1)" \
	'--verify cannot check a LUN'
[ ! -e "$T/none" ] || fail "$T/none was made"
end

begin "a loop device is refused: its driver speaks no SCSI; nothing is written to it"
truncate -s 8M "$T/img"
if loop=$(losetup -f --show "$T/img" 2>/dev/null); then
	LOOPS=$loop
	out=$("$DBENCH" -B scsi --scsi="$loop" -c "$T/tur.load" --run-once 1 2>&1)
	expect_status $? 2
	expect_match "$out" "^dbench: '$loop' is not a SCSI device: its driver has no SG_IO"
	expect_eq "$(tr -d '\000' <"$T/img" | wc -c)" 0 "bytes other than zero in the loop device's file"
else
	echo "# no loop device here: that case is not run"
fi
end

# A scratch SCSI device: the one named, else a scsi_debug disk's.
DEV=${SCSI_TEST_DEVICE:-}
if [ -z "$DEV" ]; then
	for h in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/scsi_generic/sg*; do
		[ -e "$h" ] && DEV=/dev/$(basename "$h") && break
	done
fi
if [ -z "$DEV" ]; then
	if grep -qw sg /proc/devices; then
		why="SCSI_TEST_DEVICE names no scratch device and scsi_debug is not loaded (modprobe scsi_debug)"
	else
		why="this kernel has no SCSI generic driver (no sg in /proc/devices): no SCSI device to load"
	fi
	skip "a replay on a SCSI device" "$why"
	skip "dbench 5.0's scsi.load" "$why"
	finish
	exit
fi

begin "a run of the SCSI dialect on $DEV: reads and writes, the table, the JSON"
printf 'READ10 */8 8 0 0 0x00\nWRITE10 */8 8 0x08 0 0x00\nREAD16 0 8 0 0 0x00\nTESTUNITREADY 0x00\n' >"$T/rw.load"
"$DBENCH" -B scsi --scsi="$DEV" -c "$T/rw.load" -t 2 --warmup 0 --json="$T/rw.json" 2 \
	>"$T/rw.out" 2>&1
expect_status $? 0
expect_match "$(cat "$T/rw.out")" '^ READ10 +[0-9]+ '
expect_eq "$(jq '[.ops[].errors] | add' "$T/rw.json")" 0 "errors"
expect_match "$(jq -r '.environment.targets[0].block_size' "$T/rw.json")" '^[0-9]+$'
# its target's facts are members of the table (include/dockeys.def), of their types
out=$("$UNIT_DIR/dockeys" check "$T/rw.json") || fail "$out"
end

begin "dbench 5.0's scsi.load replays on $DEV"
REF=$(dbench5_tarball)
if [ -n "$REF" ] && tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/scsi.load' 2>/dev/null; then
	"$DBENCH" -B scsi --scsi="$DEV" -c "$(echo "$T"/*/loadfiles/scsi.load)" --run-once 1 \
		>"$T/s.out" 2>&1
	expect_status $? 0
else
	echo "# no reference tarball: scsi.load is not run"
fi
end

finish
