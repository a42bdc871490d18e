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
#
# Skips.  A block that cannot run, or cannot judge, here says so with
# TAP's "# SKIP" (tests/run.sh counts skips apart from passes):
#   skip WHAT WHY       a line of its own, for a block that is left out
#   skip_block WHY      in a block: end prints "ok N - NAME # SKIP WHY"
#                       (a failure noted in the block still fails it)
#   skip_load WHY       skip_block for the machine's load ("load: WHY");
#                       where CI=true (.ci/run: a quiet machine, where a
#                       test must judge) the block fails instead;
#                       tests/run.sh runs a program that did either
#                       beside others again alone, and that run counts
#
# A block's time (a comment after its line when 5 s or more) is from its
# begin to its end; took START END says its work was done before, in a
# background job, from START to END.
#
# Timing.  A time is never held to a constant alone: it is judged by
# what the machine gave the test meanwhile (a loaded machine is slower,
# and a test that can no longer tell says so rather than fail or pass):
#   cpu_mark            the start of a timed interval
#   cpu_left            the CPUs (e.g. 1.87, at most nproc) the machine
#                       left this test since cpu_mark: all of them less
#                       what processes other than the test's own (this
#                       shell and every process under it) used
#   expect_within SECONDS LIMIT WHAT
#                       SECONDS (timed from cpu_mark) is at most LIMIT,
#                       what it takes on a quiet machine, or past it at
#                       most LIMIT times nproc / cpu_left; skip_load
#                       when past it with under a tenth of a CPU left
#   expect_between LOW SECONDS LIMIT WHAT
#                       the same, and SECONDS is LOW at least
#   wait_for_line FILE ERE   waits for the program's own word, not a
#                       sleep (a minute at most, or as told)
#
# Holding a run at a moment, rather than hoping that a sleep lands in it:
# DBENCH_TEST_HOLD=fork:N or start (man page, ENVIRONMENT) makes the
# run's parent stop itself there; held PID waits until it has, the test
# does what it tests (a signal), and kill -CONT PID lets it go on.
: "${DBENCH:?DBENCH must name the binary under test}"
: "${TOP:?TOP must name the source tree}"
. "$TOP/tests/shell/lib_load.sh"
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
_skip=

cleanup_scratch() {
	for m in $(grep " $T" /proc/mounts | awk '{print $2}' | sort -r); do
		umount "$m" 2>/dev/null
	done
	rm -rf "$T"
}

begin() {
	_name=$1
	_why=
	_skip=
	_n=$((_n + 1))
	read -r _began _ </proc/uptime
}

fail() {
	[ -n "$_why" ] || _why=$*
}

end() {
	if [ -z "$_why" ] && [ -n "$_skip" ]; then
		echo "ok $_n - $_name # SKIP $_skip"
	elif [ -z "$_why" ]; then
		echo "ok $_n - $_name"
	else
		echo "not ok $_n - $_name: $_why"
		_failed=$((_failed + 1))
	fi
	block_time
}

# block_time: a comment with the block's seconds when it took 5 or more
# (where a suite's time goes; TEST_TIMES=1 for every block's).
block_time() {
	read -r _ended _ </proc/uptime
	awk -v b="${_began:-$_ended}" -v e="$_ended" -v all="${TEST_TIMES:-}" \
		'BEGIN { if (e - b >= 5 || all != "") printf "# %.1f s\n", e - b }'
}

# took START END: the block in hand did its work before its begin, from
# START to END (/proc/uptime's seconds): its time is END - START.
took() {
	read -r _now _ </proc/uptime
	_began=$(awk -v n="$_now" -v s="$1" -v e="$2" 'BEGIN { printf "%.2f", n - (e - s) }')
}

# skip WHAT WHY: a TAP line for blocks that cannot run here.
skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}

# skip_block WHY: the block in hand is skipped (see Skips above).
skip_block() {
	[ -n "$_skip" ] || _skip=$*
}

# skip_load WHY: skipped for the machine's load; a failure on CI.
skip_load() {
	if [ "${CI:-}" = true ]; then
		fail "$LOAD_CI_FAIL, which must be a quiet machine: $*"
	else
		skip_block "$LOAD_SKIP$*"
	fi
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

# expect_status GOT WANT [OUTPUT]: exit status check; on a mismatch the
# first lines of OUTPUT that dbench wrote as errors (dbench: ..., FAILED: ...)
# go into the failure, to say why
expect_status() {
	[ "$1" -eq "$2" ] || fail "exit status $1, want $2${3:+: $(grep -E '^(dbench|FAILED)' "$3" 2>/dev/null | head -2 | tr '\n' ' ')}"
}

# only_progress_says_execute FILE: mmtests picks the progress lines out
# with "grep execute"; no other line of the output may hold the word.
only_progress_says_execute() {
	_lines=$(grep execute "$1" | grep -Evc ' MB/sec  execute +[0-9]+ sec  latency ')
	expect_eq "$_lines" 0 "lines of $1 that say execute and are no progress line"
}

# _cpu_now: "SECONDS BUSY OWN": the monotonic-ish time, the machine's
# busy CPU time (/proc/stat: user, nice, system, irq, softirq, steal) and
# this test's own (this shell and every live process under it, with
# what each has reaped), the last two in clock ticks.
_cpu_now() {
	# cat, not awk, opens the files: a process may be gone by then
	{ head -n 1 /proc/stat; cat /proc/[0-9]*/stat 2>/dev/null; } |
	awk -v top=$$ -v now="$(date +%s.%N)" '
		NR == 1 {
			busy = $2 + $3 + $4 + $7 + $8 + $9
			next
		}
		{
			pid = $1
			sub(/^.*\) /, "")	# past the name, which may hold blanks
			ppid[pid] = $2
			t[pid] = $12 + $13 + $14 + $15	# utime stime cutime cstime
		}
		END {
			for (p in t) {
				q = p
				for (i = 0; q != top && q > 1 && i < 64; i++)
					q = ppid[q]
				if (q == top)
					own += t[p]
			}
			printf "%s %d %d\n", now, busy, own
		}'
}

# cpu_mark: the start of a timed interval (see Timing above).
cpu_mark() {
	_cpu_mark=$(_cpu_now)
}

# cpu_left: the CPUs the machine left this test since cpu_mark, as a
# number from 0 to nproc with two decimals.
cpu_left() {
	echo "$_cpu_mark $(_cpu_now)" | awk -v hz="$(getconf CLK_TCK)" -v n="$(nproc)" '{
		wall = $4 - $1
		other = (($5 - $2) - ($6 - $3)) / hz
		left = wall > 0 ? n - other / wall : n
		if (left < 0)
			left = 0
		if (left > n)
			left = n
		printf "%.2f\n", left
	}'
}

# expect_within SECONDS LIMIT WHAT: SECONDS, timed since cpu_mark, is at
# most LIMIT (what WHAT takes on a quiet machine, the test's headroom
# included), or, past it, at most LIMIT times nproc over the CPUs the
# machine left the test since; past LIMIT with under a tenth of a CPU
# left, a skip for load, not a verdict.
expect_within() {
	awk -v s="$1" -v lim="$2" 'BEGIN { exit !(s <= lim) }' && return 0
	_left=$(cpu_left)
	_took=$(printf '%.3g' "$1")
	if awk -v l="$_left" 'BEGIN { exit !(l < 0.1) }'; then
		skip_load "$3 took $_took s (over $2 s) while the machine left this test $_left of a CPU"
		return 0
	fi
	awk -v s="$1" -v lim="$2" -v l="$_left" -v n="$(nproc)" \
		'BEGIN { exit !(s <= lim * n / (l < n ? l : n)) }' ||
		fail "$3 took $_took s, over $2 s with the machine's $(nproc) CPUs ($_left of them left to this test)"
	return 0
}

# expect_between LOW SECONDS LIMIT WHAT: SECONDS is LOW at least (a bound
# no load moves: a pause is never cut short) and, as expect_within has
# it, LIMIT at most on a quiet machine.
expect_between() {
	awk -v s="$2" -v lo="$1" 'BEGIN { exit !(s >= lo) }' ||
		fail "$4 took $2 s, under $1 s"
	expect_within "$2" "$3" "$4"
}

# cpu_ns PID: the nanoseconds PID has run on a CPU so far
# (/proc/PID/schedstat), 0 when it is gone.
cpu_ns() {
	_ns=0
	read -r _ns _ 2>/dev/null <"/proc/$1/schedstat"
	echo "${_ns:-0}"
}

# ran_since PID NS [SECONDS]: wait (up to SECONDS, default 60) until PID
# has run on a CPU a millisecond more than the NS cpu_ns gave: it is at
# work, however long a busy machine took to get it there; 1 when it never
# did.
ran_since() {
	_i=0
	while [ "$(cpu_ns "$1")" -le $(($2 + 1000000)) ]; do
		[ $_i -ge $((${3:-60} * 20)) ] && return 1
		sleep 0.05
		_i=$((_i + 1))
	done
}

# held PID [SECONDS]: wait (up to SECONDS, default 120) until PID is
# stopped, as DBENCH_TEST_HOLD makes a run's parent; 1 when it never was
# (or is gone).
held() {
	_i=0
	while [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != T ]; do
		kill -0 "$1" 2>/dev/null || return 1
		[ $_i -ge $((${2:-120} * 20)) ] && return 1
		sleep 0.05
		_i=$((_i + 1))
	done
}

# released PID: the run PID, started with DBENCH_TEST_HOLD=start, once
# held as it releases its clients, let go on: they are at work on return;
# 1 when it never held.
released() {
	held "$1" || return 1
	kill -s CONT "$1"
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

# can_be_nobody: whether as_nobody can run here (root, with setpriv);
# returns 1, having said why in a TAP comment, where it cannot.  $T is
# opened to others for it: make what nobody writes in it with mode 777.
can_be_nobody() {
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
		echo "# skipped: needs root and setpriv"
		return 1
	fi
	chmod 755 "$T"
}

# as_nobody COMMAND...: COMMAND run as the user nobody, in no group, for
# what a user without root's rights meets.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# mount_ext4 DIR [OPTIONS]: a 64 MB ext4 image in $T loop-mounted at DIR
# (with mount OPTIONS added to loop); returns 1, the block skipped saying
# why (skip_block), where none can be (not root, no mkfs.ext4, no loop
# device).
mount_ext4() {
	mkdir -p "$1"
	if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null; then
		skip_block "needs root and mkfs.ext4"
		return 1
	fi
	_img="$T/$(basename "$1").img"
	if ! { truncate -s 64M "$_img" && mkfs.ext4 -q -F "$_img" &&
		mount -o "loop${2:+,$2}" "$_img" "$1"; } >/dev/null 2>&1; then
		skip_block "cannot loop-mount an image here"
		return 1
	fi
}

# start_long_run DIR NPROCS OUT [OPTION...]: a 60 s run in the background,
# with any further options, its output in OUT; $pid is its process, and the
# clients have been at work for 2 s on return (the run held as it released
# them, DBENCH_TEST_HOLD=start, however long a busy machine took to set up;
# 1 when it never got there).
start_long_run() {
	_dir=$1 _nprocs=$2 _out=$3
	shift 3
	mkdir -p "$_dir"
	DBENCH_TEST_HOLD=start "$DBENCH" -t 60 --warmup 0 "$@" -D "$_dir" "$_nprocs" >"$_out" 2>&1 &
	pid=$!
	held $pid || return 1
	kill -s CONT $pid
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
