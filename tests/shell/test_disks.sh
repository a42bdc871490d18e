# test_disks.sh - what the block layer did (blockstat.h), held against the
# device's own stat file read by the test around the run.
#
# A loop-mounted ext4 image takes a load of O_SYNC writes: each WriteX
# reaches the device before it returns, so the KiB the device wrote in the
# execute window are at least the bytes dbench wrote in it, and at most
# what the stat file says was written from before the run to after it.
. "$TOP/tests/shell/lib.sh"

cat >"$T/w.txt" <<'LOAD'
NTCreateX "\clients\client1\f.bin" 0x40 0x5 1 NT_STATUS_OK
WriteX 1 0 65536 65536 NT_STATUS_OK
WriteX 1 65536 65536 65536 NT_STATUS_OK
Close 1 NT_STATUS_OK
LOAD

# stat_field DEV N: field N of /sys/class/block/DEV/stat.
stat_field() {
	awk -v n="$2" '{print $n}' "/sys/class/block/$1/stat"
}

# jnum FILTER: jq -r on the run's document.
jnum() {
	jq -r "$1" "$T/r.json"
}

begin "a loop-mounted ext4 image: the device's requests match its stat file"
if mount_ext4 "$T/ext4"; then
	loop=$(findmnt -n -o SOURCE --target "$T/ext4" | tail -n 1)
	loop=${loop#/dev/}
	sync
	w0=$(stat_field "$loop" 5) s0=$(stat_field "$loop" 7)
	"$DBENCH" -t 2 --warmup 0 --sync -c "$T/w.txt" -D "$T/ext4" --json="$T/r.json" 2 \
		>"$T/out" 2>&1
	expect_status $? 0
	w1=$(stat_field "$loop" 5) s1=$(stat_field "$loop" 7)
	expect_eq "$(jnum '.disks[0].device')" "$loop" device
	expect_eq "$(jnum '.disks[0].under')" "$T/ext4" under
	writes=$(jnum '.disks[0].writes')
	kib=$(jnum '.disks[0].write_kib')
	[ "$writes" -ge 1 ] || fail "no write request counted: $writes"
	[ "$writes" -le $((w1 - w0)) ] ||
		fail "$writes write requests counted, the stat file saw $((w1 - w0))"
	awk -v k="$kib" -v s=$((s1 - s0)) 'BEGIN { exit !(k <= s / 2) }' ||
		fail "$kib KiB written counted, the stat file saw $(((s1 - s0) / 2))"
	awk -v k="$kib" -v b="$(jnum .result.bytes_written)" 'BEGIN { exit !(k * 1024 >= b) }' ||
		fail "$kib KiB reached the device, dbench wrote $(jnum .result.bytes_written) bytes with O_SYNC"
	expect_eq "$(jnum '(.disks[0].write_kib / .disks[0].writes * 100 | round) ==
			   (.disks[0].write_kib_per_request * 100 | round)')" true "KiB per write"
	expect_eq "$(jnum '.disks[0].busy_pct >= 0 and .disks[0].busy_pct <= 100')" true busy_pct
	# the timeline's seconds add up to the window
	expect_eq "$(jnum '[.timeline as $t | range(0; $t | length) |
		($t[.].t_s - (if . == 0 then 0 else $t[. - 1].t_s end)) * $t[.].disks[0].writes_s]
		| add - ('"$writes"') | fabs < 0.5')" true "timeline writes add up"
	expect_eq "$(jnum '[.timeline[] | .dirty_pages, .writeback_pages | type] | unique | join(",")')" \
		number "page counts"
	expect_eq "$(jnum '.memory | [.dirty_pages_mean, .writeback_pages_max] | map(type) | join(",")')" \
		number,number memory
	# the loop's backing file lies on a device of its own
	under=$(findmnt -n -o SOURCE --target "$T" | tail -n 1)
	under=$(basename "$(readlink -f "$under")")
	if [ -e "/sys/class/block/$under" ]; then
		expect_eq "$(jnum '.disks[1] | [.device, .under] | join(" ")')" "$under $loop" backing
	fi
	out=$(cat "$T/out")
	expect_match "$out" "^Disk $loop \\($T/ext4\\): [0-9]+\\.[0-9] KiB per write, [0-9]+ % merged, [0-9]+ % busy; $writes writes?, (no reads|[0-9]+ reads? of [0-9.]+ KiB, [0-9]+ % merged); [0-9.]+ in flight on average over the window, [0-9]+ at most at a once-a-second sample\$"
	expect_match "$out" '^Page cache: [0-9]+ dirty pages on average, [0-9]+ at most; [0-9]+ under writeback on average, [0-9]+ at most$'
	disk_at=$(grep -n '^Disk ' "$T/out" | head -n 1 | cut -d: -f1)
	tp_at=$(grep -n '^Throughput ' "$T/out" | cut -d: -f1)
	[ "${disk_at:-0}" -gt 0 ] && [ "$disk_at" -lt "${tp_at:-0}" ] ||
		fail "the Disk line ($disk_at) is not above the Throughput line ($tp_at)"
	umount "$T/ext4"
fi
end

begin "two loop devices on one disk: the disk's line names both"
if mount_ext4 "$T/la" && mount_ext4 "$T/lb"; then
	la=$(findmnt -n -o SOURCE --target "$T/la" | tail -n 1)
	lb=$(findmnt -n -o SOURCE --target "$T/lb" | tail -n 1)
	la=${la#/dev/} lb=${lb#/dev/}
	under=$(findmnt -n -o SOURCE --target "$T" | tail -n 1)
	under=$(basename "$(readlink -f "$under")")
	"$DBENCH" -t 1 --warmup 0 --sync -c "$T/w.txt" -D "$T/la" -D "$T/lb" --json="$T/r.json" 2 \
		>"$T/out" 2>&1
	expect_status $? 0
	expect_match "$(cat "$T/out")" "^Disk $la \\($T/la\\): "
	expect_match "$(cat "$T/out")" "^Disk $lb \\($T/lb\\): "
	if [ -e "/sys/class/block/$under" ]; then
		expect_match "$(cat "$T/out")" "^Disk $under \\($la, $lb\\): "
		expect_eq "$(jnum ".disks[] | select(.device == \"$under\") | .under")" "$la, $lb" under
		expect_eq "$(grep -c "^Disk $under " "$T/out")" 1 "lines of $under"
	fi
	umount "$T/la" "$T/lb"
fi
end

begin "a tmpfs target has no device: no Disk line, an empty disks list"
if [ "$(id -u)" -eq 0 ] && mount_tmpfs "$T/tmpfs" 32m; then
	out=$("$DBENCH" -t 1 --warmup 0 -c "$T/w.txt" -D "$T/tmpfs" --json="$T/r.json" 1 2>&1)
	expect_status $? 0
	expect_no_match "$out" '^Disk '
	expect_eq "$(jnum '.disks | length')" 0 "disks"
	expect_eq "$(jnum '.timeline[0].disks | length')" 0 "timeline disks"
	umount "$T/tmpfs"
else
	echo "# skipped: cannot mount a tmpfs here"
fi
end

finish
