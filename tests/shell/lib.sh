# tests/shell/lib.sh - helpers for the shell-level tests (sourced).
#
# A test file is a list of blocks, one behaviour each:
#
#   begin "throughput line has the classic format"
#   out=$("$DBENCH" ...) || fail "exit status $?"
#   expect_match "$out" '^Throughput [0-9.]+ MB/sec'
#   end
#
# begin/end print one TAP line ("ok N - name" or "not ok N - name"); a
# failed check inside the block records why and the block goes on to end.
# Every test gets a scratch directory $T, removed at exit.
: "${DBENCH:?DBENCH must name the binary under test}"
: "${TOP:?TOP must name the source tree}"
T=$(mktemp -d /tmp/dbench-test.XXXXXX)
trap 'cleanup_scratch' EXIT
# A test stopped by a signal (tests/run.sh's time limit, ^C) exits through
# its EXIT trap too, which sh alone would skip: the servers a test started
# in sessions of their own are stopped, the scratch directory removed.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
_n=0
_failed=0
_why=

cleanup_scratch() {
	for m in $(grep " $T" /proc/mounts | awk '{print $2}' | sort -r); do
		umount "$m" 2>/dev/null
	done
	rm -rf "$T"
}

begin() {
	_name=$1
	_why=
	_n=$((_n + 1))
}

fail() {
	[ -n "$_why" ] || _why=$*
}

end() {
	if [ -z "$_why" ]; then
		echo "ok $_n - $_name"
	else
		echo "not ok $_n - $_name: $_why"
		_failed=$((_failed + 1))
	fi
}

# skip WHAT WHY: a TAP line for blocks that cannot run here.
skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1: $2"
}

# expect_match TEXT ERE: some line of TEXT matches the extended regex.
expect_match() {
	printf '%s\n' "$1" | grep -Eq -- "$2" || fail "no line matches /$2/ in: $(printf '%s' "$1" | tail -n 5)"
}

# partial ERE WHY: ERE, a Throughput line's (ending in $), as a failed or
# interrupted run prints it: with "  PARTIAL (WHY)" at the end.
partial() {
	printf '%s  PARTIAL \\(%s\\)$' "${1%\$}" "$2"
}

expect_no_match() {
	printf '%s\n' "$1" | grep -Eq -- "$2" && fail "a line matches /$2/"
	return 0
}

# expect_eq GOT WANT [WHAT]
expect_eq() {
	[ "$1" = "$2" ] || fail "${3:-value}: got '$1', want '$2'"
}

# expect_status GOT WANT: exit status check
expect_status() {
	[ "$1" -eq "$2" ] || fail "exit status $1, want $2"
}

# only_progress_says_execute FILE: mmtests picks the progress lines out
# with "grep execute"; no other line of the output may hold the word.
only_progress_says_execute() {
	_lines=$(grep execute "$1" | grep -Evc ' MB/sec  execute +[0-9]+ sec  latency ')
	expect_eq "$_lines" 0 "lines of $1 that say execute and are no progress line"
}

# wait_for_line FILE ERE [SECONDS]: wait (up to SECONDS, default 60: a
# busy machine can take that long to set a run up) until a line of FILE
# matches ERE; 1 when none did.
wait_for_line() {
	_i=0
	while ! grep -Eq -- "$2" "$1" 2>/dev/null; do
		[ $_i -ge $((${3:-60} * 10)) ] && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

# A size-limited tmpfs at $1 (needs root); returns 1 where mounting is refused.
mount_tmpfs() {
	mkdir -p "$1" && mount -t tmpfs -o "size=${2:-64m}" dbench-test "$1" 2>/dev/null
}

# mount_ext4 DIR [OPTIONS]: a 64 MB ext4 image in $T loop-mounted at DIR
# (with mount OPTIONS added to loop); returns 1, having said why in a TAP
# comment, where none can be (not root, no mkfs.ext4, no loop device).
mount_ext4() {
	mkdir -p "$1"
	if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null; then
		echo "# skipped: needs root and mkfs.ext4"
		return 1
	fi
	_img="$T/$(basename "$1").img"
	if ! { truncate -s 64M "$_img" && mkfs.ext4 -q -F "$_img" &&
		mount -o "loop${2:+,$2}" "$_img" "$1"; } >/dev/null 2>&1; then
		echo "# skipped: cannot loop-mount an image here"
		return 1
	fi
}

# start_long_run DIR NPROCS OUT [OPTION...]: a 60 s run in the background,
# with any further options, its output in OUT; $pid is its process, and the
# clients are at work on return.
start_long_run() {
	_dir=$1 _nprocs=$2 _out=$3
	shift 3
	mkdir -p "$_dir"
	"$DBENCH" -t 60 --warmup 0 "$@" -D "$_dir" "$_nprocs" >"$_out" 2>&1 &
	pid=$!
	sleep 2
}

# port_listening PORT: something listens on 127.0.0.1:PORT (TCP).
port_listening() {
	ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# free_port: a TCP port nobody listens on, from the range above the
# ephemeral one's start (for a private server's tests).
free_port() {
	while :; do
		_p=$(( $(od -An -N2 -tu2 /dev/urandom) % 20000 + 20000 ))
		port_listening "$_p" || { echo "$_p"; return; }
	done
}

# The private servers of the network backends' tests are started and
# stopped by tools/dbench-servers, the script users start theirs with.
SERVERS=$TOP/tools/dbench-servers

# server_var DIR NAME: NAME from the server.env of dbench-servers' DIR.
server_var() {
	(. "$1/server.env" && eval "printf '%s' \"\${$2}\"")
}

# dbench5_tarball: the path of dbench 5.0's source tarball, for the tests
# that take its loadfiles: DBENCH5_TARBALL, else the one in shared/reference
# beside the repository (CI's clone) or two levels up from a worktree under
# wt/; nothing when there is none.
dbench5_tarball() {
	_ref=${DBENCH5_TARBALL:-}
	for _r in "$TOP/../shared/reference" "$TOP/../../shared/reference"; do
		[ -n "$_ref" ] || [ ! -r "$_r/dbench-5.0-a8e1c0f.tar.gz" ] ||
			_ref=$_r/dbench-5.0-a8e1c0f.tar.gz
	done
	echo "$_ref"
}

finish() {
	[ "$_failed" -eq 0 ]
}
