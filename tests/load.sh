#!/bin/sh
# tests/load.sh - the suite on a busy machine: `make check` (or the make
# arguments given) with LOAD_PER_CPU (default 2) CPU-bound processes per
# CPU running beside it, which are stopped when make ends, fails or is
# interrupted, whatever happens.
#
#   tests/load.sh [MAKE ARGUMENT...]        (default: check)
#
# The load is stress-ng's --cpu workers where stress-ng is installed, else
# busy shell loops; each started in a session of its own and stopped by
# its process group.  The suite must pass so: a timed test judges by what
# the machine gave it, and skips (saying so) where that was too little to
# judge (tests/shell/lib.sh).  Prints the load, make's output, then the
# suite's summary again with the time it took and the load averages, and
# exits with make's status.
cd "$(dirname "$0")/.." || exit 2
per=${LOAD_PER_CPU:-2}
case $per in '' | *[!0-9]*) echo "load.sh: LOAD_PER_CPU must be a whole number" >&2; exit 2 ;; esac
n=$(($(nproc) * per))
[ $# -gt 0 ] || set -- check
groups=
log=$(mktemp)

stop_load() {
	for g in $groups; do
		kill -TERM "-$g" 2>/dev/null
	done
	sleep 1
	for g in $groups; do
		kill -KILL "-$g" 2>/dev/null
	done
	groups=
	rm -f "$log" "$log.rc"
}
trap stop_load EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if command -v stress-ng >/dev/null 2>&1; then
	setsid stress-ng --cpu "$n" --quiet </dev/null >/dev/null 2>&1 &
	groups=$!
	what="stress-ng --cpu $n"
else
	i=0
	while [ $i -lt $n ]; do
		setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
		groups="$groups $!"
		i=$((i + 1))
	done
	what="$n busy shell loops"
fi
echo "# load: $what ($per per CPU on $(nproc)); then make $*"
start=$(date +%s)
{ make "$@" 2>&1; echo $? >"$log.rc"; } | tee "$log"
status=$(cat "$log.rc" 2>/dev/null || echo 1)
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
echo "# under $what: ${summary:-no summary} in $(($(date +%s) - start)) s;" \
	"load averages at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
