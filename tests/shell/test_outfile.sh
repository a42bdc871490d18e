# test_outfile.sh - what --json, --csv, --plot and compare's --plot do
# with each kind of path (outfile.h): a device is written into and never
# replaced, a full one fails the run with its errno, a FIFO's reader gets
# the document, a link is followed and kept, another user's file keeps
# its owner and mode, a Unix socket is connected to, a directory and a
# block device are refused before the run.  The devices are stand-ins
# made with mknod (root), never the machine's own.
# check-quick: single passes (--run-once), no timed run
. "$TOP/tests/shell/lib.sh"
mkdir -p "$T/d" "$T/o"
cd "$T/o" || exit 1
# the quickest real run: the null backend, one pass of the built-in loadfile
run() {
	"$DBENCH" --backend=null --run-once -q -D "$T/d" "$@"
}
is_root() { [ "$(id -u)" = 0 ]; }
stand_in() {	# NAME MAJOR MINOR: a character device, or 1 when mknod is refused
	mknod -m 666 "$1" c "$2" "$3" 2>/dev/null
}

begin "--json to a character device writes into it and leaves it a device"
if stand_in null 1 3; then
	run --json=null 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 0
	[ -c null ] || fail "null is no longer a character device: $(ls -l null)"
else
	echo "# skipped: mknod needs root"
fi
end

begin "--json to a full device fails the run with ENOSPC (exit 1), the device stays"
if stand_in full 1 7; then
	run --json=full 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 1
	expect_match "$(cat "$T/err")" "^dbench: cannot write JSON to 'full': No space left on device$"
	[ -c full ] || fail "full is no longer a character device"
else
	echo "# skipped: mknod needs root"
fi
end

begin "--json=- on a full standard output names ENOSPC, not an input/output error"
if stand_in full1 1 7; then
	run --json=- 1 >full1 2>"$T/err"; rc=$?
	expect_status $rc 1
	expect_match "$(cat "$T/err")" "^dbench: cannot write JSON to '-': No space left on device$"
else
	echo "# skipped: mknod needs root"
fi
end

begin "--json to a FIFO with a reader: the reader gets the whole document, the FIFO stays"
mkfifo fifo
timeout 60 cat fifo >"$T/fifo.json" &	# a FIFO replaced by a file: no writer ever
reader=$!
run --json=fifo 1 >/dev/null 2>"$T/err"; rc=$?
wait $reader
expect_status $rc 0
jq -e .result.operations "$T/fifo.json" >/dev/null 2>&1 || fail "the reader got no JSON document"
[ -p fifo ] || fail "fifo is no longer a FIFO"
end

begin "--json to a FIFO nobody reads fails at once with the reason, exit 1"
run --json=fifo 1 >/dev/null 2>"$T/err"; rc=$?
expect_status $rc 1
expect_match "$(cat "$T/err")" "cannot write JSON to 'fifo': a FIFO that no process has open for reading"
[ -p fifo ] || fail "fifo is no longer a FIFO"
end

begin "--json through a link to /proc/self/fd/1 (as /dev/stdout) reaches standard output"
ln -s /proc/self/fd/1 stdout
run --json=stdout 1 >"$T/via-link.out" 2>"$T/err"; rc=$?
expect_status $rc 0
grep -q '"dbench_version"' "$T/via-link.out" || fail "the document did not reach stdout"
[ -L stdout ] || fail "the link was replaced"
end

begin "--json through a symbolic link writes the file it names and keeps the link"
echo old >target.json
ln -s target.json link.json
run --json=link.json 1 >/dev/null; rc=$?
expect_status $rc 0
[ -L link.json ] || fail "link.json is no longer a link"
jq -e .result target.json >/dev/null 2>&1 || fail "target.json does not hold the document"
end

begin "--json over another user's file keeps its owner and mode"
if is_root; then
	echo theirs >theirs.json
	chown 65534:65534 theirs.json && chmod 640 theirs.json
	run --json=theirs.json 1 >/dev/null; rc=$?
	expect_status $rc 0
	expect_eq "$(stat -c '%u:%g %a' theirs.json)" "65534:65534 640" "owner, group and mode"
	jq -e .result theirs.json >/dev/null 2>&1 || fail "theirs.json does not hold the document"
else
	echo "# skipped: chown needs root"
fi
end

begin "--json to a listening Unix socket sends the document over a connection"
perl -MIO::Socket::UNIX -e '
	my $s = IO::Socket::UNIX->new(Local => "sock", Listen => 1) or die "listen: $!";
	open(my $ready, ">", "sock.ready"); close($ready);
	alarm 60;
	my $c = $s->accept or die; local $/; my $d = <$c>;
	open(my $o, ">", "sock.json"); print $o $d;' &
listener=$!
for _ in $(seq 600); do [ -e sock.ready ] && break; sleep 0.1; done
run --json=sock 1 >/dev/null 2>"$T/err"; rc=$?
wait $listener
expect_status $rc 0
jq -e .result.operations sock.json >/dev/null 2>&1 || fail "nothing came over the socket"
[ -S sock ] || fail "sock is no longer a socket"
end

begin "--json to a directory is refused before any client starts (exit 2)"
mkdir dir.json
out=$(run --json=dir.json 1 2>"$T/err"); rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "^dbench: cannot write JSON to 'dir.json': Is a directory$"
expect_eq "$out" "" "output of a run refused before it started"
[ -e "$T/d/clients" ] && fail "the target was touched"
end

begin "--json to a block device is refused before any client starts (exit 2)"
if is_root && mknod -m 660 blk b 7 0 2>/dev/null; then
	run --json=blk 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 2
	expect_match "$(cat "$T/err")" \
		"cannot write JSON to 'blk': not a file, a character device, a FIFO or a socket"
	[ -b blk ] || fail "blk is no longer a block device"
else
	echo "# skipped: mknod needs root"
fi
end

begin "--csv and --plot of a series: devices written into, a directory refused before the first run"
if stand_in null2 1 3 && stand_in full2 1 7; then
	run --repeat=1 --settle=0 --csv=null2 --plot=null2 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 0
	[ -c null2 ] || fail "null2 is no longer a character device"
	run --repeat=1 --settle=0 --csv=full2 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 1
	expect_match "$(cat "$T/err")" "cannot write CSV to 'full2': No space left on device"
	[ -c full2 ] || fail "full2 is no longer a character device"
fi
out=$(run --repeat=1 --settle=0 --plot=dir.json 1 2>"$T/err"); rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "cannot write the plot to 'dir.json': Is a directory"
expect_eq "$out" "" "output of a series refused before it started"
end

begin "two outputs of a series naming one file are refused before the first run (the first would be lost)"
out=$(run --repeat=1 --settle=0 --json=same.out --csv=same.out 1 2>"$T/err"); rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "^dbench: CSV and JSON would both be written to 'same.out': give each its own file\$"
expect_eq "$out" "" "output of a series refused before it started"
ln -s same.out alias.out
run --repeat=1 --settle=0 --json=alias.out --plot=same.out 1 >/dev/null 2>"$T/err"; rc=$?
expect_status $rc 2
run --repeat=1 --settle=0 --json=- --csv=- 1 >/dev/null 2>"$T/err"; rc=$?
expect_status $rc 2
if [ -c null2 ]; then	# a device takes any number
	run --repeat=1 --settle=0 --json=null2 --csv=null2 1 >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 0
fi
end

begin "compare --plot: a directory refused before the report (exit 2), a full device exit 1"
run --json="$T/a.json" 1 >/dev/null && run --json="$T/b.json" 1 >/dev/null ||
	fail "the runs to compare failed"
out=$("$DBENCH" compare --plot=dir.json "$T/a.json" "$T/b.json" 2>"$T/err"); rc=$?
expect_status $rc 2
expect_eq "$out" "" "a report before the refusal"
expect_match "$(cat "$T/err")" "cannot write the plot to 'dir.json': Is a directory"
if stand_in full3 1 7; then
	"$DBENCH" compare --plot=full3 "$T/a.json" "$T/b.json" >/dev/null 2>"$T/err"; rc=$?
	expect_status $rc 1
	expect_match "$(cat "$T/err")" "cannot write the plot to 'full3': No space left on device"
	[ -c full3 ] || fail "full3 is no longer a character device"
fi
end

finish
