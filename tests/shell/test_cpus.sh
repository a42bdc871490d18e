# test_cpus.sh - --cpus=LIST: client processes kept on CPUs, round robin.
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d"
last=$(($(nproc) - 1))

begin "each client process keeps to its CPU of the list, in turn; the parent is not pinned"
start_long_run "$T/d" 3 "$T/out" --backend=null --cpus="$last,0"
kids=$(pgrep -P "$pid" | sort -n)
got=$(for k in $kids; do sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$k/status"; done |
	tr '\n' ' ')
expect_eq "$got" "$last 0 $last " "client CPUs"
expect_eq "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")" \
	"$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" "parent CPUs"
kill -INT "$pid"
wait "$pid"
end

begin "the JSON document records the list; without --cpus it is null"
"$DBENCH" -q -t 1 --warmup=0 --backend=null --cpus="0-$last" -D "$T/d" --json="$T/c.json" 2 >/dev/null
expect_status $? 0
expect_eq "$(jq -c .config.cpus "$T/c.json")" "$(seq -s, 0 "$last" | sed 's/.*/[&]/')" "cpus"
"$DBENCH" -q -t 1 --warmup=0 --backend=null -D "$T/d" --json="$T/n.json" 2 >/dev/null
expect_eq "$(jq -c .config.cpus "$T/n.json")" "null" "no --cpus"
end

begin "compare names a difference in --cpus"
expect_match "$("$DBENCH" compare "$T/n.json" "$T/c.json")" '^  config.cpus: null -> \[0(,[0-9]+)*\]$'
end

for arg in "--cpus=" "--cpus=a" "--cpus=1-0" "--cpus=0," "--cpus=0-" "--cpus=-1" "--cpus=99999" \
	"--cpus=$((last + 1))"; do
	begin "refused with exit 2 before anything runs: $arg"
	err=$("$DBENCH" "$arg" -t 1 -D "$T/d" 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: --cpus: '
	expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
	end
done
finish
