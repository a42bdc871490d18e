#!/bin/sh
# test_block.sh - the block backend: dbench 5.0's block dialect (READ,
# WRITE at an offset, FDATASYNC) on a regular file and on a loop device,
# every client on the one target; the data lands at the loadfile's
# offsets, wrapped around the size; a device or file in use (mounted, a
# loop device's backing file, another run's) is refused unless --force;
# nothing but the path named is ever written.  5.0's own block*.load come
# from the reference tarball beside the repository when it is there.
. "$TOP/tests/shell/lib.sh"

LOOPS=
# The loop devices this test attached are detached again, whatever happens.
trap 'for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done; cleanup_scratch' EXIT

# attach FILE [OPTION]: a loop device on FILE, its name on stdout.
attach() {
	_l=$(losetup -f --show ${2:-} "$1" 2>/dev/null) || return 1
	echo "$_l"
}

REF=$(dbench5_tarball)
BLOCK5=
if [ -n "$REF" ] && tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/block*.load' 2>/dev/null; then
	BLOCK5=$(ls "$T"/*/loadfiles/block*.load)
fi

truncate -s 64M "$T/dev.img"
# Writes at 0 and the 4 KiB after, a read in the first MiB, then anywhere.
cat >"$T/mixed.load" <<'L'
WRITE 0 4096 0x00000000
WRITE +4096 4096 0x00000000
READ */0x1000%0x100000 4096 0x00000000
LOOP 20
WRITE */0x1000%0x40000000 4096 0x00000000
READ */0x1000%0x40000000 8192 0x00000000
ENDLOOP
FDATASYNC 0x00000000
L

begin "a loadfile of the block dialect replays on a file, 3 clients, O_DIRECT, the file never grows"
"$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" --run-once --json="$T/m.json" 3 \
	>"$T/m.out" 2>&1
expect_status $? 0
expect_eq "$(jq -c '[.ops.Read.count, .ops.Write.count, .ops.Fdatasync.count]' "$T/m.json")" \
	"[63,66,3]" "Read, Write, Fdatasync counts"
expect_eq "$(jq '.result.bytes_written' "$T/m.json")" $((66 * 4096)) "bytes written"
expect_eq "$(jq '.result.bytes_read' "$T/m.json")" $((3 * 4096 + 60 * 8192)) "bytes read"
expect_eq "$(jq -c '.environment.targets[0] | [.kind, .size_bytes, .direct_io]' "$T/m.json")" \
	'["file",67108864,true]' "the target in the environment"
# its target's facts are members of the table (include/dockeys.def), of their types
out=$("$UNIT_DIR/dockeys" check "$T/m.json") || fail "$out"
expect_eq "$(stat -c %s "$T/dev.img")" 67108864 "the file's size"
expect_match "$(cat "$T/m.out")" '^Rate: [0-9.]+ operations per second \(IOPS\), [0-9.]+ MB/sec of data moved$'
expect_match "$(cat "$T/m.out")" '^ Read +63 '
expect_eq "$(ls -A "$T" | grep -c clients)" 0 "clients directories made"
end

begin "writes land at the loadfile's offsets, wrapped around the size and moved back from the end"
truncate -s 1M "$T/small.img"
cat >"$T/place.load" <<'L'
WRITEPATTERN abcdefgh
WRITE 8192 4096 0x0
WRITE 0x100003000 4096 0x0
WRITE 1044480 8192 0x0
L
"$DBENCH" -B block --block="$T/small.img" -c "$T/place.load" --run-once 1 >"$T/p.out" 2>&1
expect_status $? 0
# 8192 as given; 0x100003000 % 1 MiB = 12288; 1 MiB - 4096 + 8192 crosses
# the end: the write ends there, at 1 MiB - 8192
for at in 8192 12288 1040384 1044480; do
	expect_eq "$(dd if="$T/small.img" bs=4096 skip=$((at / 4096)) count=1 2>/dev/null |
		head -c 8)" abcdefgh "the data at $at"
done
expect_eq "$(dd if="$T/small.img" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\0' | wc -c)" 0 \
	"the 4 KiB at 4096, never written"
expect_eq "$(stat -c %s "$T/small.img")" 1048576 "the file's size"
end

if [ -z "$BLOCK5" ]; then
	skip "dbench 5.0's block*.load" "no readable dbench-5.0-a8e1c0f.tar.gz in shared/reference (set DBENCH5_TARBALL)"
else
for f in $BLOCK5; do
	begin "dbench 5.0's $(basename "$f") replays on a file, 2 clients, the JSON, percentiles and timeline as ever"
	"$DBENCH" --check-loadfile -c "$f" >"$T/5.sum" 2>&1 || fail "$(cat "$T/5.sum")"
	"$DBENCH" -B block --block="$T/dev.img" -c "$f" -t 2 --warmup 0 --json="$T/5.json" 2 \
		>"$T/5.out" 2>&1
	expect_status $? 0
	op=$(jq -r '.ops | keys[0]' "$T/5.json")
	expect_match "$op" '^(Read|Write)$'
	expect_eq "$(jq ".ops.$op.errors" "$T/5.json")" 0 "errors"
	expect_match "$(jq ".ops.$op.p99_ms" "$T/5.json")" '^[0-9.e-]+$'
	expect_match "$(jq '.timeline | length' "$T/5.json")" '^[12]$'
	expect_match "$(jq '.result.ops_per_s' "$T/5.json")" '^[0-9.]+$'
	expect_match "$(cat "$T/5.out")" '^Throughput [0-9.]+ MB/sec'
	expect_eq "$(stat -c %s "$T/dev.img")" 67108864 "the file's size"
	end
done
fi

begin "a sweep and a compare of block runs work as on any other backend"
"$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 1 --warmup 0 --settle 0 \
	--sweep=1,2 --json="$T/sw.json" >"$T/sw.out" 2>&1
expect_status $? 0
expect_eq "$(jq '.runs | length' "$T/sw.json")" 2 "runs in the sweep"
"$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 1 --warmup 0 \
	--json="$T/c1.json" 1 >/dev/null 2>&1
"$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 1 --warmup 0 \
	--json="$T/c2.json" 1 >/dev/null 2>&1
out=$("$DBENCH" compare --all "$T/c1.json" "$T/c2.json" 2>&1)
expect_match "$out" '^ +1  Read +1/1 '
expect_match "$out" '^Throughput, MB/sec'
end

begin "bad targets stop the run before any client starts (exit 2), each named, nothing made"
for args in "--block=$T/none.img" "--block=$T" "--block=/dev/null" "" "-D $T --block=$T/dev.img" \
	"--block=$T/dev.img --verify" "--block=$T/dev.img -S"; do
	# shellcheck disable=SC2086
	out=$("$DBENCH" -B block $args -c "$T/mixed.load" -t 1 1 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$args': exit $rc, want 2"
	expect_match "$out" '^dbench: '
done
expect_match "$("$DBENCH" -B block --block="$T/none.img" -c "$T/mixed.load" 1 2>&1)" \
	"cannot use '$T/none.img': No such file or directory"
[ ! -e "$T/none.img" ] || fail "$T/none.img was made"
expect_match "$("$DBENCH" -B block --block=/dev/null -c "$T/mixed.load" 1 2>&1)" \
	"'/dev/null' is a character device, not a block device or a file"
: >"$T/empty.img"
expect_match "$("$DBENCH" -B block --block="$T/empty.img" -c "$T/mixed.load" 1 2>&1)" \
	"'$T/empty.img' is empty"
expect_match "$("$DBENCH" -B block -c "$T/mixed.load" 1 2>&1)" 'needs --block=PATH'
expect_match "$("$DBENCH" --block="$T/dev.img" -c "$T/mixed.load" 1 2>&1)" \
	'--block goes with --backend=block'
end

begin "a second run on the same file is refused while the first holds it"
DBENCH_TEST_HOLD=start "$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 30 --warmup 0 1 \
	>"$T/long.out" 2>&1 &
first=$!
released $first || fail "the first run was not held as it released its client"
out=$("$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 1 1 2>&1)
expect_status $? 2
expect_match "$out" "'$T/dev.img' is in use by another dbench run \\(pid $first\\)"
kill -INT "$first"
wait "$first"
end

begin "a WRITE misaligned for O_DIRECT fails the run, saying why"
printf 'WRITE 100 4096 0x0\n' >"$T/odd.load"
"$DBENCH" -B block --block="$T/dev.img" -c "$T/odd.load" --run-once 1 >"$T/odd.out" 2>&1
expect_status $? 1
expect_match "$(cat "$T/odd.out")" "FAILED: client 1, $T/odd.load:1 Write $T/dev.img: a write of 4096 bytes at 100: O_DIRECT needs both to be multiples of [0-9]+ bytes"
end

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip "the block backend on loop devices" "needs root, losetup and mkfs.ext4"
	finish
	exit
fi
if ! LOOP=$(attach "$T/dev.img"); then
	skip "the block backend on loop devices" "no loop device could be attached here (losetup -f)"
	finish
	exit
fi
LOOPS=$LOOP

begin "a loadfile of the block dialect replays on a loop device; the Disk line and the environment name it"
"$DBENCH" -B block --block="$LOOP" -c "$T/mixed.load" -t 2 --warmup 0 --json="$T/l.json" 2 \
	>"$T/l.out" 2>&1
expect_status $? 0
dev=${LOOP#/dev/}
expect_eq "$(jq -r '.environment.targets[0] | [.kind, .block_device, .backing_file] | join(",")' \
	"$T/l.json")" "block device,$dev,$T/dev.img" "the target in the environment"
expect_match "$(cat "$T/l.out")" "^Disk $dev \\($LOOP\\): "
expect_eq "$(jq '.ops.Write.errors + .ops.Read.errors' "$T/l.json")" 0 "errors"
end

begin "a file that is a loop device's backing file is refused, and taken with --force"
out=$("$DBENCH" -B block --block="$T/dev.img" -c "$T/mixed.load" -t 1 1 2>&1)
expect_status $? 2
expect_match "$out" "'$T/dev.img' is in use: the backing file of $LOOP \\(--force writes it anyway\\)"
"$DBENCH" -B block --block="$T/dev.img" --force -c "$T/mixed.load" --run-once 1 >"$T/f.out" 2>&1
expect_status $? 0
end

begin "a mounted device is refused (exit 2, where it is mounted), and its image file too"
truncate -s 64M "$T/fs.img"
mkfs.ext4 -q -F "$T/fs.img" >/dev/null 2>&1
mkdir -p "$T/mnt"
if FS=$(attach "$T/fs.img") && LOOPS="$LOOPS $FS" && mount "$FS" "$T/mnt" 2>/dev/null; then
	echo kept >"$T/mnt/kept"
	out=$("$DBENCH" -B block --block="$FS" -c "$T/mixed.load" -t 1 1 2>&1)
	expect_status $? 2
	expect_match "$out" "'$FS' is in use: mounted on $T/mnt \\(--force writes it anyway\\)"
	out=$("$DBENCH" -B block --block="$T/fs.img" -c "$T/mixed.load" -t 1 1 2>&1)
	expect_status $? 2
	expect_match "$out" "the backing file of $FS"
	expect_eq "$(cat "$T/mnt/kept")" kept "the file system's file"
	umount "$T/mnt"
	e2fsck -fn "$FS" >/dev/null 2>&1 || fail "the file system was damaged"
else
	fail "cannot mount an ext4 image on a loop device here"
fi
end

begin "a read-only device is read, and a WRITE on it fails saying why"
if RO=$(attach "$T/small.img" -r); then
	LOOPS="$LOOPS $RO"
	printf 'READ 0 4096 0x0\nREAD 4096 4096 0x0\n' >"$T/r.load"
	"$DBENCH" -B block --block="$RO" -c "$T/r.load" --run-once 1 >"$T/ro.out" 2>&1
	expect_status $? 0
	"$DBENCH" -B block --block="$RO" -c "$T/place.load" --run-once 1 >"$T/rw.out" 2>&1
	expect_status $? 1
	expect_match "$(cat "$T/rw.out")" "FAILED: .* Write $RO: '$RO' could only be opened read-only"
else
	fail "no read-only loop device could be attached"
fi
end

begin "a file on ramfs, which refuses O_DIRECT, is read and written through the page cache"
mkdir -p "$T/ramfs"
if mount -t ramfs dbench-test "$T/ramfs" 2>/dev/null; then
	truncate -s 8M "$T/ramfs/dev.img"
	"$DBENCH" -B block --block="$T/ramfs/dev.img" -c "$T/mixed.load" --run-once \
		--json="$T/t.json" 2 >"$T/t.out" 2>&1
	expect_status $? 0
	expect_eq "$(jq '.environment.targets[0].direct_io' "$T/t.json")" false "direct_io"
	umount "$T/ramfs"
else
	fail "cannot mount a ramfs here"
fi
end

finish
