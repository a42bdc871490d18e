# test_cli.sh - the command line: usage errors, exit codes, --check-loadfile.
# check-quick: options and their errors; three 1 s runs of the null backend
. "$TOP/tests/shell/lib.sh"
CLIENT_TXT=/usr/share/dbench/client.txt

begin "--version prints the version and exits 0"
out=$("$DBENCH" --version); rc=$?
expect_status $rc 0
expect_match "$out" '^dbench [0-9]+\.[0-9]+\.[0-9]+$'
end

begin "the version sorts after dbench 4.0 and 5.0, the tools it replaces, in --version, JSON and both banners"
v=$("$DBENCH" --version | awk '{ print $2 }')
if command -v dpkg >/dev/null 2>&1; then
	dpkg --compare-versions "$v" gt 5.0 || fail "$v does not sort after 5.0"
	dpkg --compare-versions "$v" gt "$(dpkg-query -W -f '${Version}' dbench 2>/dev/null || echo 4.0)" ||
		fail "$v does not sort after the installed dbench 4.0"
fi
expect_eq "$(printf '%s\n%s\n' "$v" 5.0 | sort -V | tail -n 1)" "$v" "sort -V against 5.0"
mkdir -p "$T/v"
"$DBENCH" -t 1 --warmup 0 -D "$T/v" --backend=null --json="$T/v.json" 1 >"$T/v.out" 2>&1
expect_eq "$(jq -r .dbench_version "$T/v.json")" "$v" "JSON dbench_version"
expect_eq "$(head -n 1 "$T/v.out" | awk '{ print $2 }')" "$v:" "classic banner"
"$DBENCH" -t 1 --warmup 0 -D "$T/v" --backend=null --output-format=dbench4 1 >"$T/v4.out" 2>&1
expect_eq "$(head -n 1 "$T/v4.out")" "dbench version $v - the dbench 4.00 output layout" "dbench4 banner"
rm -rf "$T/v" "$T/v.json" "$T/v.out" "$T/v4.out"	# later blocks expect an empty $T
end

begin "--help says how to replay dbench 4.0's workload, and the bytes an operation that make the built-in one's MB/sec differ"
help=$("$DBENCH" --help | tr -s ' \n' '  ')
expect_match "$help" '-c /usr/share/dbench/client\.txt replays 4\.0.s workload'
# the figures it gives are --check-loadfile's, bytes moved over operations
kb() { "$DBENCH" --check-loadfile "$@" | awk '$1 == "operations" { n = $2 }
	$1 == "bytes_read" || $1 == "bytes_written" { b += $2 } END { printf "%.1f", b / n / 1000 }'; }
builtin=$(kb)
ref=$(kb -c "$CLIENT_TXT")
expect_match "$help" "the built-in one, which moves $builtin KB an operation where dbench 4\.0.s client\.txt moves $ref KB"
end

begin "--help lists the options and exits 0"
out=$("$DBENCH" --help); rc=$?
expect_status $rc 0
for o in --timelimit --warmup --loadfile --directory --sync --sync-dir --fsync \
	--xattr --target-rate --clients-per-process --skip-cleanup \
	--per-client-results --run-once --no-resolve --quiet --check-loadfile; do
	expect_match "$out" -- "$o"
done
expect_match "$out" '^  compare   compare saved runs or sweeps with the first'
# the description column is not pushed to the right by a long argument
# placeholder: the short descriptions fit on their option's line
expect_match "$out" '^  -t, --timelimit=SECS +execute phase length \(default 600\)$'
expect_match "$out" '^      --warmup=SECS +warmup before it \(default: timelimit/5\)$'
expect_no_match "$out" '.{81}'
# every option's argument is shown joined by '=' (popt shows a list
# option's with a space, which reads as if "--probe DIR" were the form)
expect_match "$out" '^  -D, --directory=DIR  '
expect_no_match "$out" '^  (-[A-Za-z?], )?--[a-z-]+(\[)? [A-Z]'
expect_match "$("$DBENCH" --usage)" '^   or: dbench compare '
end

begin "--help lists every command, a line each; dbench help COMMAND and COMMAND --help give its own"
out=$("$DBENCH" --help); rc=$?
expect_status $rc 0
cmds=$(printf '%s\n' "$out" | sed -n '/^Commands (dbench help COMMAND, or dbench COMMAND --help, for its own):$/,/^$/p' |
	awk 'NR > 1 && NF { print $1 }')
for c in compare ab tune record convert help; do
	printf '%s\n' "$cmds" | grep -qx "$c" || fail "--help does not list $c: $cmds"
done
# one line each, name and summary, as git help
expect_eq "$(printf '%s\n' "$out" | grep -cE '^  (compare|ab|tune|record|convert|help) +[a-z]')" \
	"$(printf '%s\n' "$cmds" | wc -l)" "command lines"
for c in $cmds; do
	[ "$c" = help ] && continue
	own=$("$DBENCH" "$c" --help); rc=$?
	expect_status $rc 0
	expect_match "$own" "^Usage: dbench $c "
	expect_eq "$("$DBENCH" help "$c")" "$own" "dbench help $c"
	# --usage names each with its synopsis
	expect_match "$("$DBENCH" --usage)" "^   or: dbench $c "
done
out=$("$DBENCH" help); rc=$?
expect_status $rc 0
expect_match "$out" '^Usage: dbench \[OPTION\.\.\.\] NPROCS$'
expect_match "$out" '^  record    '
err=$("$DBENCH" help nosuch 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: nosuch: no such command (dbench help lists them)"
end

begin "--help lists every backend with a few words each"
# every backend there is, as the error for an unknown one names them
names=$("$DBENCH" -B no-such-backend 1 2>&1 | grep -oE "'[a-z0-9]+'" | tr -d "'")
[ "$(printf '%s\n' "$names" | wc -l)" -ge 5 ] || fail "backends named: $names"
help=$("$DBENCH" --help | sed -n '/^Backends (-B, --backend=NAME):$/,/^$/p')
expect_match "$help" '^Backends'
for b in $names; do
	expect_match "$help" "^  $b +[a-zA-Z(].{10,}"
done
expect_eq "$(printf '%s\n' "$help" | grep -cE '^  [a-z0-9]+ ')" "$(printf '%s\n' "$names" | wc -l)" \
	"backends listed"
expect_match "$("$DBENCH" --help)" '^  -B, --backend=NAME +how operations are carried out: one of the$'
expect_no_match "$("$DBENCH" --usage)" '^Backends'
end

begin "an unknown option's error is one line pointing at --help"
err=$("$DBENCH" --foo 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --foo: unknown option (dbench --help lists the options)"
err=$("$DBENCH" -t abc 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: -t abc: invalid numeric value (dbench --help lists the options)"
err=$("$DBENCH" --repeat x 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --repeat x: invalid numeric value (dbench --help lists the options)"
err=$("$(dirname "$DBENCH")/tbench" --foo 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: --foo: unknown option (tbench --help lists the options)"
err=$("$DBENCH" compare --foo a.json b.json 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --foo: unknown option (dbench compare --help lists the options)"
err=$("$DBENCH" compare --alpha x a.json b.json 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --alpha x: invalid numeric value (dbench compare --help lists the options)"
end

begin "an unknown long option within two edits of a known one: did you mean"
err=$("$DBENCH" --timelimt 5 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --timelimt: unknown option; did you mean --timelimit? (dbench --help lists the options)"
# a value after '=' is no part of the name; two letters swapped are one edit
err=$("$DBENCH" --wramup=3 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --wramup: unknown option; did you mean --warmup? (dbench --help lists the options)"
# as near to two: both named
err=$("$DBENCH" --sync-di 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --sync-di: unknown option; did you mean --sync-dir? (dbench --help lists the options)"
err=$("$DBENCH" --fsyn 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --fsyn: unknown option; did you mean --fsync? (dbench --help lists the options)"
# a backend's options are known too, and nothing is offered from far away
err=$("$DBENCH" --smb-shar=//h/s 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --smb-shar: unknown option; did you mean --smb-share? (dbench --help lists the options)"
err=$("$DBENCH" --duration=5 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --duration: unknown option (dbench --help lists the options)"
# every command's own table
err=$("$DBENCH" compare --fail-abov=5 a.json b.json 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --fail-abov: unknown option; did you mean --fail-above? (dbench compare --help lists the options)"
err=$("$DBENCH" record --outptu=x -- true 2>&1 >/dev/null)
expect_eq "$err" "dbench: --outptu: unknown option; did you mean --output? (dbench record --help lists the options)"
err=$("$(dirname "$DBENCH")/tbench_srv" --prot=1 2>&1 >/dev/null)
expect_eq "$err" "tbench_srv: --prot: unknown option; did you mean --port?"
end

begin "dbench ab and tune: an unknown option among the shared ones is offered the command's and a run's"
# ab sorts its own options from the run's both sides share: a word that
# is neither is said before any other error, with the near ones of both
err=$("$DBENCH" ab --runz=3 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --runz: unknown option; did you mean --runs? (dbench ab --help lists the options)"
err=$("$DBENCH" ab --b=-F --rnus 3 --backend=null 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --rnus: unknown option; did you mean --runs? (dbench ab --help lists the options)"
err=$("$DBENCH" ab --b=-F --timelimt=5 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --timelimt: unknown option; did you mean --timelimit? (dbench ab --help lists the options)"
err=$("$DBENCH" ab --b=-F --duration=5 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --duration: unknown option (dbench ab --help lists the options)"
# a run option's value is no option, nor is one in a cluster (-qc FILE)
err=$(cd "$T" && "$DBENCH" ab --b=-F --backend=null -qc --runz 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^dbench: cannot open loadfile '--runz': "
# dbench tune sorts its words the same way
err=$("$DBENCH" tune --set opt=,-F --budgt=3 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --budgt: unknown option; did you mean --budget? (dbench tune --help lists the options)"
err=$("$DBENCH" tune --restore --jounral=x 2>&1 >/dev/null)
expect_eq "$err" "dbench: --jounral: unknown option; did you mean --journal? (dbench tune --help lists the options)"
# nor is a word after --, or in a side's options, ab's: the run's message
err=$("$DBENCH" ab --b=--runz --backend=null 1 2>&1 >/dev/null)
expect_eq "$err" "dbench: --runz: unknown option (dbench --help lists the options)
dbench: (in side B's run: the shared options and --b='--runz')" "a side's unknown option"
end

begin "a missing or extra NPROCS is one line with the synopsis"
err=$("$DBENCH" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: NPROCS is missing (usage: dbench [OPTION...] NPROCS; dbench --help lists the options)"
err=$("$(dirname "$DBENCH")/tbench" 1 a b 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: give NPROCS and at most one SERVER (usage: tbench [OPTION...] NPROCS [SERVER]; tbench --help lists the options)"
err=$("$DBENCH" --check-loadfile 4 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --check-loadfile takes no NPROCS (usage: dbench --check-loadfile [-c FILE])"
end

begin "entered as tbench, every message is tbench's"
TB="$(dirname "$DBENCH")/tbench"
err=$("$TB" 0 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: NPROCS '0' is not a whole number from 1 to 10000"
err=$("$TB" --smb-timeout=5 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: --smb-timeout goes with --backend=smb"
err=$("$TB" -c "$T/nope" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^tbench: .*$T/nope"
err=$("$TB" --check-loadfile 4 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: --check-loadfile takes no NPROCS (usage: tbench --check-loadfile [-c FILE])"
err=$("$TB" compare --foo a.json b.json 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "tbench: --foo: unknown option (tbench compare --help lists the options)"
# (one file may be a dbench ab document, read before it is judged: none)
err=$("$TB" compare 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^tbench: compare takes 2 to"
err=$("$TB" --sweep=1 --json="$T/nodir/x.json" -t 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" "^tbench: "
[ -z "$(ls "$T")" ] || fail "files were created: $(ls "$T")"
end

begin "the header says which durations are the defaults"
out=$(timeout -s INT 2 "$DBENCH" --backend=null --warmup 0 -D "$T" 1)
expect_match "$out" '^dbench [0-9.]+: 1 client, 600 s measured \(default\) after 0 s warmup$'
out=$("$DBENCH" --backend=null -t 1 -D "$T" 1)
expect_match "$out" '^dbench [0-9.]+: 1 client, 1 s measured after 0 s warmup \(default: a fifth of that\)$'
out=$("$DBENCH" --backend=null -t 5 --warmup 0 -D "$T" --run-once 1)
expect_match "$out" '^dbench [0-9.]+: 1 client, one pass of the loadfile each$'
end

for args in "" "0" "abc" "1 2" "-t -5 1" "-t abc 1" "-t 0 1" "--warmup=-3 1" \
	"--bogus 1" "--clients-per-process=0 1" "-R -1 1" "10001" \
	"--sweep=1 --repeat=-1 -t 1 --backend=null" \
	"--sweep=1 --settle=-1 -t 1 --backend=null"; do
	begin "bad usage '$args' exits 2 with a one-line error"
	# shellcheck disable=SC2086
	err=$(cd "$T" && "$DBENCH" $args 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_match "$err" '^dbench: '
	[ -z "$(ls "$T")" ] || fail "files were created: $(ls "$T")"
	end
done

begin "a backend's option without that backend is refused, not ignored"
err=$(cd "$T" && "$DBENCH" --smb-share=//127.0.0.1/x -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --smb-share goes with --backend=smb"
err=$(cd "$T" && "$DBENCH" --backend=smb --smb-share=//127.0.0.1/x --nfs=nfs://127.0.0.1/e \
	-t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --nfs goes with --backend=nfs"
[ -z "$(ls "$T")" ] || fail "files were created: $(ls "$T")"
end

begin "a backend's numeric option without that backend is refused too"
err=$(cd "$T" && "$DBENCH" --smb-timeout=5 -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --smb-timeout goes with --backend=smb"
err=$(cd "$T" && "$DBENCH" --backend=null --port 7003 -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --port goes with --backend=sockio"
err=$(cd "$T" && "$DBENCH" --backend=smb --smb-share=//127.0.0.1/x --port=1 -t 1 1 \
	2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --port goes with --backend=sockio"
err=$(cd "$T" && "$DBENCH" --sweep=1,2 --port=1 -t 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --port goes with --backend=sockio"
[ -z "$(ls "$T")" ] || fail "files were created: $(ls "$T")"
end

begin "a missing -D directory is refused before any client starts"
err=$("$DBENCH" -D "$T/nope" -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use directory '$T/nope': No such file or directory"
end

begin "a -D that is a file is refused"
: >"$T/file"
err=$("$DBENCH" -D "$T/file" -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot use directory '$T/file': Not a directory"
rm -f "$T/file"
end

begin "a read-only -D is refused before any client starts"
if mount_tmpfs "$T/ro" 1m && mount -o remount,ro "$T/ro"; then
	err=$("$DBENCH" -D "$T/ro" -t 1 1 2>&1 >/dev/null); rc=$?
	expect_status $rc 2
	expect_eq "$err" "dbench: cannot create '$T/ro/clients': Read-only file system"
	umount "$T/ro"
else
	echo "# skipped: cannot mount a tmpfs here (not root?)"
fi
end

begin "--check-loadfile reports Debian's client.txt exactly"
if [ -r "$CLIENT_TXT" ]; then
	out=$("$DBENCH" --check-loadfile -c "$CLIENT_TXT"); rc=$?
	expect_status $rc 0
	expect_match "$out" '^operations 458344$'
	expect_match "$out" '^ReadX 124199$'
	expect_match "$out" '^NTCreateX 79230$'
	expect_match "$out" '^bytes_read 1472088767$'
	expect_match "$out" '^bytes_written 1015974170$'
	expect_match "$out" '^max_handles 23$'
else
	echo "# skipped: $CLIENT_TXT is absent (apt-get install dbench)"
fi
end

begin "--check-loadfile reads a gzip loadfile the same as plain text"
if [ -r "$CLIENT_TXT" ]; then
	head -n 2000 "$CLIENT_TXT" >"$T/small.txt"
	gzip -c "$T/small.txt" >"$T/small.txt.gz"
	a=$("$DBENCH" --check-loadfile -c "$T/small.txt" | sed 1d)
	b=$("$DBENCH" --check-loadfile -c "$T/small.txt.gz" | sed 1d)
	expect_eq "$b" "$a" "gzip summary"
	rm -f "$T/small.txt" "$T/small.txt.gz"
fi
end

begin "--check-loadfile without -c checks the built-in loadfile"
out=$(cd / && "$DBENCH" --check-loadfile); rc=$?
expect_status $rc 0
expect_match "$out" '^loadfile \(built-in\)$'
expect_match "$out" '^operations [1-9][0-9]*$'
end

begin "a bad loadfile is named with its line, exit 2"
printf '# comment\n\nFooBar 1 2 NT_STATUS_OK\n' >"$T/bad.txt"
err=$("$DBENCH" --check-loadfile -c "$T/bad.txt" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: $T/bad.txt:3: unknown operation 'FooBar'"
end

begin "a bad loadfile stops a run before any client starts"
err=$(cd "$T" && "$DBENCH" -c "$T/bad.txt" -t 1 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: $T/bad.txt:3: unknown operation 'FooBar'"
[ ! -e "$T/clients" ] || fail "clients/ was created"
rm -f "$T/bad.txt"
end

begin "a missing loadfile is named, exit 2"
err=$("$DBENCH" --check-loadfile -c "$T/none.txt" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot open loadfile '$T/none.txt': No such file or directory"
end

begin "an empty loadfile is an error naming the file"
: >"$T/empty.txt"
err=$("$DBENCH" --check-loadfile -c "$T/empty.txt" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: $T/empty.txt: no operations in loadfile"
rm -f "$T/empty.txt"
end

begin "a binary file as a loadfile is rejected, exit 2"
err=$("$DBENCH" --check-loadfile -c "$DBENCH" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: $DBENCH:1: control byte 0x7f in line (not a text loadfile?)"
end


# label_refused LABEL ERROR: --label=LABEL is bad usage with exactly ERROR
label_refused() {
	mkdir -p "$T/lbl"
	err=$("$DBENCH" --backend=null --run-once -q --label="$1" -D "$T/lbl" 1 2>&1 >/dev/null)
	rc=$?
	expect_status $rc 2
	expect_eq "$err" "$2" "the error for --label='$1'"
	[ -z "$(ls "$T/lbl")" ] || fail "files were created: $(ls "$T/lbl")"
}

begin "--label is refused empty, too long, with a control character or not UTF-8"
label_refused "" "dbench: --label must not be empty"
label_refused "$(printf 'x%.0s' $(seq 65))" "dbench: --label must be at most 64 characters, not 65"
label_refused "$(printf 'ext4\tjournal')" \
	"dbench: --label must not hold a control character (character 5 is U+0009)"
label_refused "$(printf 'a\nb')" \
	"dbench: --label must not hold a control character (character 2 is U+000A)"
label_refused "$(printf 'a\033[31m')" \
	"dbench: --label must not hold a control character (character 2 is U+001B)"
label_refused "$(printf 'nel\302\205')" \
	"dbench: --label must not hold a control character (character 4 is U+0085)"
label_refused "$(printf 'a\377b')" "dbench: --label is not valid UTF-8 (at byte 2)"
label_refused "$(printf 'ab\300\257')" "dbench: --label is not valid UTF-8 (at byte 3)"
label_refused "$(printf 'abc\355\240\200')" "dbench: --label is not valid UTF-8 (at byte 4)"
label_refused "$(printf 'cut\342\202')" "dbench: --label is not valid UTF-8 (at byte 4)"
end

begin "--label is named in the header, on the line before the loadfile's"
mkdir -p "$T/hd"
out=$("$DBENCH" --backend=null --run-once -q --label='6.1 data=journal' -D "$T/hd" 1) ||
	fail "exit status $?"
expect_eq "$(printf '%s\n' "$out" | sed -n 2,3p)" "label: 6.1 data=journal
loadfile: (built-in)" "header lines 2 and 3"
out=$("$DBENCH" --backend=null --run-once -q -D "$T/hd" 1) || fail "exit status $?"
expect_no_match "$out" '^label:'
end

begin "--label takes 64 characters of any script, counted as characters"
label=$(printf 'é%.0s' $(seq 63))€
mkdir -p "$T/d"
"$DBENCH" --backend=null --run-once -q --label="$label" --json="$T/l.json" -D "$T/d" 1 \
	>/dev/null; rc=$?
expect_status $rc 0
expect_eq "$(jq -r .config.label "$T/l.json")" "$label" "config.label"
end

begin "--plot-log without --plot is bad usage"
err=$(cd "$T" && "$DBENCH" --sweep=1 --plot-log -D "$T" 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: --plot-log goes with --plot"
end

finish
