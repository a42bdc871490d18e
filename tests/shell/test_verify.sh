# test_verify.sh - --verify: reads are checked against what was written,
# a byte changed behind the client's back fails the run, and nothing the
# client itself did (rename, truncate, unlink, deltree) is mistaken for
# corruption.
. "$TOP/tests/shell/lib.sh"
CLIENT_TXT=/usr/share/dbench/client.txt
VERIFY_LINE='^Verify: [0-9.]+ MB checked in [0-9]+ reads, no mismatch, [0-9.]+ s spent \([0-9.]+ % of operation time\)$'
mkdir -p "$T/d"

# jqv FILE EXPR: one value from a JSON document
jqv() {
	jq -r "$2" "$1"
}

# checked FILE: [bytes checked, reads checked, mismatches] of a run's document
checked() {
	jq -c '.result.verify | [.bytes_checked, .reads_checked, .mismatches]' "$1"
}

begin "a --verify run of client.txt checks its reads and passes"
if [ -r "$CLIENT_TXT" ]; then
	out=$("$DBENCH" --verify -c "$CLIENT_TXT" -t 3 --warmup 0 -q -D "$T/d" \
		--json="$T/c.json" 2); rc=$?
	expect_status $rc 0
	expect_match "$out" "$VERIFY_LINE"
	expect_eq "$(jqv "$T/c.json" .config.verify)" true "config.verify"
	expect_eq "$(jqv "$T/c.json" .result.verify.mismatches)" 0 "mismatches"
	jq -e '.result.verify | .bytes_checked > 0 and .reads_checked > 0' "$T/c.json" \
		>/dev/null || fail "nothing was checked: $(jq -c .result.verify "$T/c.json")"
	jq -e '.result.verify.bytes_checked <= .result.bytes_read' "$T/c.json" >/dev/null ||
		fail "more bytes checked than read: $(jq -c '[.result.verify.bytes_checked, .result.bytes_read]' "$T/c.json")"
	jq -e '.result.verify | .cost_s > 0 and .cost_pct > 0 and .cost_pct < 100' "$T/c.json" \
		>/dev/null || fail "cost: $(jq -c .result.verify "$T/c.json")"
	expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
else
	fail "$CLIENT_TXT is absent (apt-get install dbench)"
fi
end

begin "without --verify there is no Verify line and result.verify is null"
out=$("$DBENCH" --run-once -q -D "$T/d" --json="$T/n.json" 1); rc=$?
expect_status $rc 0
expect_no_match "$out" '^Verify:'
expect_eq "$(jqv "$T/n.json" .config.verify)" false "config.verify"
expect_eq "$(jqv "$T/n.json" .result.verify)" null "result.verify"
end

# A file written at once and read back three seconds later: the pause in
# which the tests below change a byte of it from outside.
cat >"$T/late.txt" <<'EOF'
0.0 NTCreateX "\clients\client1\data.bin" 0x0 5 1 NT_STATUS_OK
0.0 WriteX 1 0 65536 65536 NT_STATUS_OK
0.0 Close 1 NT_STATUS_OK
3.0 NTCreateX "\clients\client1\data.bin" 0x0 1 2 NT_STATUS_OK
3.0 ReadX 2 0 65536 65536 NT_STATUS_OK
3.0 Close 2 NT_STATUS_OK
EOF

begin "the paused loadfile passes untouched, every byte it wrote checked"
out=$("$DBENCH" --verify --run-once -q -c "$T/late.txt" -D "$T/d" --json="$T/u.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(checked "$T/u.json")" "[65536,1,0]" "bytes, reads, mismatches"
expect_match "$out" '^Verify: 65536 bytes checked in 1 read, no mismatch, '
end

# corrupt_run DIR [OPTION]: run late.txt in DIR and, once the file is
# written, flip byte 12345 of it; sets $out, $rc, $was and $now (the byte
# before and after, in hex).
corrupt_run() {
	f="$1/clients/client1/data.bin"
	"$DBENCH" --verify --run-once -q -c "$T/late.txt" -D "$1" --json="$1.json" $2 1 \
		>"$1.out" 2>&1 &
	bg=$!
	i=0
	while [ "$(stat -c %s "$f" 2>/dev/null)" != 65536 ] && [ $i -lt 1200 ]; do	# 60 s
		sleep 0.05
		i=$((i + 1))
	done
	was=$(od -An -tx1 -j12345 -N1 "$f" 2>/dev/null | tr -d ' ')
	if [ -n "$was" ]; then
		now=$(printf '%02x' $((0x$was ^ 0xff)))
		printf "\\$(printf %03o $((0x$now)))" |
			dd of="$f" bs=1 seek=12345 conv=notrunc 2>/dev/null
	else
		fail "$f was never written"
	fi
	wait $bg
	rc=$?
	out=$(cat "$1.out")
}

begin "a byte changed from outside during the pause fails the run, exit 1, files removed"
mkdir -p "$T/c"
corrupt_run "$T/c"
expect_status $rc 1
B='( [0-9a-f]{2}){15}'
expect_match "$out" "^FAILED: client 1, $T/late.txt:5 ReadX $T/c/clients/client1/data.bin: data mismatch at offset 12345: expected $was$B found $now$B\$"
# every byte but the first is the same on both sides
tail_exp=$(printf '%s\n' "$out" | sed -nE 's/.* expected [0-9a-f]{2}(( [0-9a-f]{2}){15}) found.*/\1/p')
tail_got=$(printf '%s\n' "$out" | sed -nE 's/.* found [0-9a-f]{2}(( [0-9a-f]{2}){15})$/\1/p')
[ -n "$tail_exp" ] && [ "$tail_exp" = "$tail_got" ] || fail "after the first byte: '$tail_exp' vs '$tail_got'"
expect_match "$out" '^Verify: [0-9]+ bytes checked in 1 read, 1 mismatch, '
expect_eq "$(jqv "$T/c.json" .result.verify.mismatches)" 1 "mismatches"
expect_match "$(jqv "$T/c.json" .status.failure.error)" \
	"^data mismatch at offset 12345: expected $was$B found $now$B\$"
expect_eq "$(jqv "$T/c.json" .status.failure.path)" "$T/c/clients/client1/data.bin" "failure.path"
expect_eq "$(ls -A "$T/c")" "" "left in $T/c"
end

begin "--continue-on-error does not let a data mismatch pass"
mkdir -p "$T/e"
corrupt_run "$T/e" --continue-on-error
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/late.txt:5 ReadX .*: data mismatch at offset 12345: "
expect_eq "$(ls -A "$T/e")" "" "left in $T/e"
end

# Every way the client itself changes a file, then a read that must be
# checked against the right pattern (or not at all); the comments give the
# bytes each ReadX checks.
cat >"$T/moves.txt" <<'EOF'
Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 100 NT_STATUS_OK
Close 100 NT_STATUS_OK
# rename carries the pattern: 8192
NTCreateX "\clients\client1\a" 0x0 5 1 NT_STATUS_OK
WriteX 1 0 8192 8192 NT_STATUS_OK
Close 1 NT_STATUS_OK
Rename "\clients\client1\a" "\clients\client1\b" NT_STATUS_OK
NTCreateX "\clients\client1\b" 0x0 1 2 NT_STATUS_OK
ReadX 2 0 8192 8192 NT_STATUS_OK
# the old name is a new file with a hole: 4096
NTCreateX "\clients\client1\a" 0x0 3 3 NT_STATUS_OK
WriteX 3 4096 4096 4096 NT_STATUS_OK
ReadX 3 0 8192 8192 NT_STATUS_OK
Close 3 NT_STATUS_OK
# OVERWRITE empties b under its open handle 2, which then reads the new data: 100
NTCreateX "\clients\client1\b" 0x0 4 4 NT_STATUS_OK
WriteX 4 4096 100 100 NT_STATUS_OK
ReadX 2 0 4196 4196 NT_STATUS_OK
Close 4 NT_STATUS_OK
Close 2 NT_STATUS_OK
# unlinked while open: a new c (10), the old one through its handle (1000)
NTCreateX "\clients\client1\c" 0x0 2 5 NT_STATUS_OK
WriteX 5 0 1000 1000 NT_STATUS_OK
Unlink "\clients\client1\c" 0x0 NT_STATUS_OK
NTCreateX "\clients\client1\c" 0x0 2 6 NT_STATUS_OK
WriteX 6 2000 10 10 NT_STATUS_OK
ReadX 6 0 2010 2010 NT_STATUS_OK
ReadX 5 0 1000 1000 NT_STATUS_OK
Close 5 NT_STATUS_OK
Close 6 NT_STATUS_OK
# rename over an open file: the new e (3000), the old e through its handle (5000)
NTCreateX "\clients\client1\d" 0x0 5 7 NT_STATUS_OK
WriteX 7 0 3000 3000 NT_STATUS_OK
Close 7 NT_STATUS_OK
NTCreateX "\clients\client1\e" 0x0 5 8 NT_STATUS_OK
WriteX 8 0 5000 5000 NT_STATUS_OK
Rename "\clients\client1\d" "\clients\client1\e" NT_STATUS_OK
NTCreateX "\clients\client1\e" 0x0 1 9 NT_STATUS_OK
ReadX 9 0 3000 3000 NT_STATUS_OK
ReadX 8 0 5000 5000 NT_STATUS_OK
Close 8 NT_STATUS_OK
Close 9 NT_STATUS_OK
# a renamed directory's files are forgotten (0), a new one's are new (8)
Mkdir "\clients\client1\dir" NT_STATUS_OK
NTCreateX "\clients\client1\dir\f" 0x0 5 10 NT_STATUS_OK
WriteX 10 0 4096 4096 NT_STATUS_OK
Close 10 NT_STATUS_OK
Rename "\clients\client1\dir" "\clients\client1\dir2" NT_STATUS_OK
NTCreateX "\clients\client1\dir2\f" 0x0 1 11 NT_STATUS_OK
ReadX 11 0 4096 4096 NT_STATUS_OK
Close 11 NT_STATUS_OK
Mkdir "\clients\client1\dir" NT_STATUS_OK
NTCreateX "\clients\client1\dir\f" 0x0 3 12 NT_STATUS_OK
WriteX 12 4096 8 8 NT_STATUS_OK
ReadX 12 0 4104 4104 NT_STATUS_OK
Close 12 NT_STATUS_OK
# after a Deltree, a file of the same name is new: 1
Deltree "\clients\client1\dir" NT_STATUS_OK
Mkdir "\clients\client1\dir" NT_STATUS_OK
NTCreateX "\clients\client1\dir\f" 0x0 3 13 NT_STATUS_OK
WriteX 13 100 1 1 NT_STATUS_OK
ReadX 13 0 101 101 NT_STATUS_OK
Close 13 NT_STATUS_OK
# OVERWRITE_IF (10) and SUPERSEDE (50) empty a file too
NTCreateX "\clients\client1\g" 0x0 5 14 NT_STATUS_OK
WriteX 14 0 4096 4096 NT_STATUS_OK
Close 14 NT_STATUS_OK
NTCreateX "\clients\client1\g" 0x0 5 15 NT_STATUS_OK
WriteX 15 8192 10 10 NT_STATUS_OK
ReadX 15 0 8202 8202 NT_STATUS_OK
Close 15 NT_STATUS_OK
NTCreateX "\clients\client1\g" 0x0 0 16 NT_STATUS_OK
WriteX 16 50 50 50 NT_STATUS_OK
ReadX 16 0 100 100 NT_STATUS_OK
Close 16 NT_STATUS_OK
EOF

begin "rename, truncate, unlink, deltree: every read checked where it should be, no false mismatch"
out=$("$DBENCH" --verify --run-once -q -c "$T/moves.txt" -D "$T/d" --json="$T/m.json" 1); rc=$?
expect_status $rc 0
expect_eq "$(checked "$T/m.json")" "[21467,11,0]" "bytes, reads, mismatches"
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

begin "the same, pass after pass, with two clients"
out=$("$DBENCH" --verify -t 2 --warmup 0 -q -c "$T/moves.txt" -D "$T/d" --json="$T/p.json" 2); rc=$?
expect_status $rc 0
jq -e '.result.verify | .mismatches == 0 and .bytes_checked > 21467' "$T/p.json" >/dev/null ||
	fail "verify: $(jq -c .result.verify "$T/p.json")"
end

begin "--verify with the null backend is refused, exit 2"
err=$("$DBENCH" --verify --backend=null --run-once -D "$T/d" 1 2>&1 >/dev/null); rc=$?
expect_status $rc 2
expect_match "$err" '^dbench: --verify needs real I/O'
expect_eq "$(ls -A "$T/d")" "" "left in $T/d"
end

finish
