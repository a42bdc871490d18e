# test_env.sh - the result's "environment" object against the system tools.
#
# Each block runs one pass with --json on a target directory and checks
# .environment against what uname, getconf, /proc, findmnt and /sys say
# about the machine and that directory: a scratch directory under /tmp, a
# tmpfs mounted with options, and a loop-mounted ext4 image.
# check-quick: single passes (--run-once), no timed run
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"

# run_json DIR...: one pass with a -D for each DIR, the JSON in $T/r.json;
# fails the block when dbench or the document does.
run_json() {
	rm -f "$T/r.json"
	for d in "$@"; do
		set -- "$@" -D "$d"
		shift
	done
	timeout 120 "$DBENCH" --run-once -q --json="$T/r.json" "$@" 1 >"$T/r.out" 2>&1 ||
		fail "dbench --json exited with status $?: $(tail -n 3 "$T/r.out")"
	jq -e .environment "$T/r.json" >/dev/null 2>&1 || fail "no .environment in $T/r.json"
}

# envq FILTER: jq -r FILTER on the environment object ("" without one).
envq() {
	jq -r ".environment | $1" "$T/r.json" 2>/dev/null
}

# findmnt_col COL DIR: findmnt's COL for the mount holding DIR (the last
# line: of two mounts stacked on one place, the later is on top).
findmnt_col() {
	findmnt -n -o "$1" --target "$2" | tail -n 1
}

# sys_dev DIR: MAJ:MIN of the block device under DIR, as /sys/dev/block
# knows it; the mount's /dev source when st_dev is anonymous (btrfs).
sys_dev() {
	dev=$(stat -c '%Hd:%Ld' "$1")
	if [ -e "/sys/dev/block/$dev" ]; then
		echo "$dev"
		return
	fi
	src=$(findmnt -n --nofsroot -o SOURCE --target "$1" | tail -n 1)
	case $src in
	/dev/*) [ -b "$src" ] && stat -L -c '%Hr:%Lr' "$src" ;;
	esac
}

# sys_expect DIR: "DEVICE SCHEDULER READ_AHEAD NR_REQUESTS ROTATIONAL" from
# /sys for DIR ("null null" without a block device).
sys_expect() {
	dev=$(sys_dev "$1")
	[ -n "$dev" ] || { echo "null null"; return; }
	sys=$(readlink -f "/sys/dev/block/$dev")
	q=$sys/queue
	[ -e "$sys/partition" ] && q=${sys%/*}/queue
	[ -d "$q" ] || { echo "${sys##*/} null"; return; }
	sched=$(sed -nE 's/.*\[([^]]+)\].*/\1/p' "$q/scheduler")
	echo "${sys##*/} ${sched:-$(cat "$q/scheduler")} $(cat "$q/read_ahead_kb")" \
		"$(cat "$q/nr_requests") $(cat "$q/rotational")"
}

# check_target N DIR: targets[N] names DIR and agrees with findmnt and /sys.
check_target() {
	t=".targets[$1]"
	expect_eq "$(envq "$t.directory")" "$2" "$t.directory"
	expect_eq "$(envq "$t.fstype")" "$(findmnt_col FSTYPE "$2")" "$t.fstype"
	expect_eq "$(envq "$t.source")" "$(findmnt_col SOURCE "$2")" "$t.source"
	expect_eq "$(envq "$t.mount_options")" "$(findmnt_col OPTIONS "$2")" "$t.mount_options"
	expect_eq "$(envq "$t | if .queue == null then \"\(.block_device) null\" else
		\"\(.block_device) \(.queue | \"\(.scheduler) \(.read_ahead_kb) \(.nr_requests) \(.rotational)\")\" end")" \
		"$(sys_expect "$2")" "$t block_device and queue"
}

begin "the environment names this machine's kernel, CPUs, memory and vm tunables"
# the tunables as they were before the run and after it: another user of
# the machine may change one meanwhile (dbench tune does, and puts it
# back), and the document holds what it was when the run read it
vm_keys="dirty_ratio dirty_background_ratio dirty_expire_centisecs
	dirty_writeback_centisecs swappiness vfs_cache_pressure"
for k in $vm_keys; do
	echo "$k $(cat "/proc/sys/vm/$k")"
done >"$T/vm.before"
run_json "$T/d"
expect_eq "$(envq '.hostname')" "$(uname -n)" hostname
expect_eq "$(envq '.kernel.sysname')" "$(uname -s)" kernel.sysname
expect_eq "$(envq '.kernel.release')" "$(uname -r)" kernel.release
expect_eq "$(envq '.kernel.version')" "$(uname -v)" kernel.version
expect_eq "$(envq '.kernel.machine')" "$(uname -m)" kernel.machine
# getconf asks what env.c asks (online CPUs); nproc would honour affinity.
expect_eq "$(envq '.cpu.count')" "$(getconf _NPROCESSORS_ONLN)" cpu.count
expect_eq "$(envq '.memory_bytes')" \
	"$(awk '$1 == "MemTotal:" { printf "%.0f", $2 * 1024 }' /proc/meminfo)" memory_bytes
for k in $vm_keys; do
	got=$(envq ".vm.$k")
	[ "$got" = "$(awk -v k="$k" '$1 == k { print $2 }' "$T/vm.before")" ] ||
		expect_eq "$got" "$(cat "/proc/sys/vm/$k")" "vm.$k"
done
model=$(sed -nE 's/^model name[[:space:]]*: *(.*[^[:space:]])[[:space:]]*$/\1/p' /proc/cpuinfo | head -n 1)
[ -z "$model" ] || expect_eq "$(envq '.cpu.model')" "$model" cpu.model
end

begin "every number is a JSON integer and every key is there"
types=$(envq '[.cpu.count, .memory_bytes, (.vm[]), (.targets[0].queue // {} | .[] | numbers)]
	| map(type) | unique | join(" ")')
expect_eq "$types" number "types of the numbers"
expect_eq "$(envq '[.cpu.count, .memory_bytes, (.vm[])] | map(. == floor) | all')" true "integers"
expect_eq "$(envq 'keys_unsorted | join(" ")')" "hostname kernel cpu memory_bytes targets vm ranks" \
	"keys"
expect_eq "$(envq '.ranks | map([.rank, .host, .kernel]) | tostring')" \
	"[[0,\"$(uname -n)\",\"$(uname -r)\"]]" "a plain run is one rank"
expect_eq "$(envq '.targets[0] | keys_unsorted | join(" ")')" \
	"directory fstype source mount_options block_device queue backing_file backing_device backing_queue" "target keys"
end

begin "a scratch directory's mount and device match findmnt and /sys"
check_target 0 "$T/d"
end

begin "a tmpfs mounted with size and mode shows them, and no block device"
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/tmpfs" &&
	mount -t tmpfs -o size=64m,mode=0700 dbench-env "$T/tmpfs" 2>/dev/null; then
	run_json "$T/tmpfs"
	check_target 0 "$T/tmpfs"
	expect_eq "$(envq '.targets[0].fstype')" tmpfs fstype
	expect_eq "$(envq '.targets[0].source')" dbench-env source
	expect_match "$(envq '.targets[0].mount_options')" '^rw,(.*,)?size=65536k,mode=700$'
	expect_eq "$(envq '.targets[0] | [.block_device, .queue] | map(tostring) | join(" ")')" \
		"null null" "block_device and queue"
	umount "$T/tmpfs"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "several directories give one target each, in order"
if [ "$(id -u)" -eq 0 ] && mount_tmpfs "$T/tmpfs2" 16m; then
	run_json "$T/d" "$T/tmpfs2"
	expect_eq "$(envq '.targets | length')" 2 "number of targets"
	check_target 0 "$T/d"
	check_target 1 "$T/tmpfs2"
	umount "$T/tmpfs2"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "a bind mount is found by its mount point and names its root in the source"
mkdir -p "$T/bindsrc/sub" "$T/bind"
if [ "$(id -u)" -eq 0 ] && mount --bind "$T/bindsrc" "$T/bind" 2>/dev/null; then
	run_json "$T/bind/sub"
	check_target 0 "$T/bind/sub"
	expect_match "$(envq '.targets[0].source')" "\\[$T/bindsrc\\]\$"
	umount "$T/bind"
else
	echo "# skipped: cannot bind-mount here (not root?)"
fi
end

begin "a loop-mounted ext4 image names its loop device, scheduler and noatime"
if mount_ext4 "$T/ext4" noatime; then
	run_json "$T/ext4"
	check_target 0 "$T/ext4"
	loop=$(findmnt_col SOURCE "$T/ext4")
	loop=${loop#/dev/}
	expect_match "$loop" '^loop[0-9]+$'
	expect_eq "$(envq '.targets[0].fstype')" ext4 fstype
	expect_eq "$(envq '.targets[0].block_device')" "$loop" block_device
	expect_eq "$(envq '.targets[0].queue.scheduler')" \
		"$(sed -nE 's/.*\[([^]]+)\].*/\1/p' "/sys/block/$loop/queue/scheduler")" queue.scheduler
	expect_match "$(envq '.targets[0].mount_options')" '^rw,noatime(,|$)'
	expect_eq "$(envq '.targets[0].backing_file')" "$(cat "/sys/block/$loop/loop/backing_file")" \
		backing_file
	under=$(findmnt -n -o SOURCE --target "$T" | tail -n 1)
	under=$(basename "$(readlink -f "$under")")
	if [ -e "/sys/class/block/$under" ]; then
		expect_eq "$(envq '.targets[0].backing_device')" "$under" backing_device
		expect_eq "$(envq '.targets[0].backing_queue.read_ahead_kb')" \
			"$(cat "$(dirname "$(readlink -f "/sys/class/block/$under")")/queue/read_ahead_kb" \
			   "/sys/class/block/$under/queue/read_ahead_kb" 2>/dev/null | head -n 1)" \
			backing_queue.read_ahead_kb
	else
		expect_eq "$(envq '.targets[0].backing_device')" null "backing_device on $under"
	fi
	umount "$T/ext4"
fi
end

finish
