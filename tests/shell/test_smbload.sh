# test_smbload.sh - dbench 5.0's SMB dialect (its loadfiles smb.load,
# smb_1.load, smb_2.load, smb_3.load, taken from the reference tarball
# beside the repository): compiled with FILE:LINE errors, replayed to the
# end over fileio, null and the smb backend (a private smbd, lib_smbd.sh,
# at SMB3_11 and at NT1), each client's files beneath its own directory.
. "$TOP/tests/shell/lib.sh"
. "$TOP/tests/shell/lib_smbd.sh"

REF=$(dbench5_tarball)
SMB5=
if [ -n "$REF" ] && tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/smb*.load' 2>/dev/null; then
	SMB5=$(ls "$T"/*/loadfiles/smb*.load)
fi
mkdir -p "$T/d"

# skip WHAT WHY: a TAP line for blocks that cannot run here.
skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1: $2"
}

# ops_match JSON SUMMARY N: each operation type counted as often as N
# clients' one pass of the loadfile runs it (its --check-loadfile summary).
ops_match() {
	awk '$1 ~ /^[A-Z]+$/ && $2 ~ /^[0-9]+$/ && $1 != "LOOP" { print $1, $2 }' "$2" |
	while read -r op n; do
		got=$(jq -r --arg o "$op" '.ops[$o].count // 0' "$1")
		[ "$got" -eq $((n * $3)) ] || echo "$op counted $got times, want $((n * $3))"
	done
}

if [ -z "$SMB5" ]; then
	skip "dbench 5.0's smb*.load" "no readable dbench-5.0-a8e1c0f.tar.gz in shared/reference (set DBENCH5_TARBALL)"
else
begin "dbench 5.0's smb*.load compile (from $(basename "$REF"))"
for f in $SMB5; do
	"$DBENCH" --check-loadfile -c "$f" >"$f.sum" 2>&1 || fail "$(basename "$f"): $(cat "$f.sum")"
done
expect_match "$(cat "$T"/*/loadfiles/smb.load.sum)" '^OPEN 1$'
expect_match "$(cat "$T"/*/loadfiles/smb.load.sum)" '^WRITE 12$'
end
fi

for f in $SMB5; do
	for b in fileio null; do
		begin "$(basename "$f") replays to the end over $b, 2 clients"
		"$DBENCH" --backend=$b -D "$T/d" -c "$f" --run-once --json="$T/r.json" 2 \
			>"$T/r.out" 2>&1
		expect_status $? 0
		bad=$(ops_match "$T/r.json" "$f.sum" 2)
		[ -z "$bad" ] || fail "$bad"
		expect_eq "$(jq '[.ops[].errors] | add' "$T/r.json")" 0 "errors"
		expect_eq "$(ls -A "$T/d")" "" "left in the directory"
		end
	done
done

# smb_2.load's own lines, for the placement of each client's files.
cat >"$T/smb_2.load" <<'L'
OPEN "/client1/test.txt" 0x0c SUCCESS
WRITE "/client1/test.txt" 0 4096 SUCCESS
REPEAT 9
WRITE "/client1/test.txt" +4096 4096 SUCCESS
CLOSE "/client1/test.txt" SUCCESS
L
begin "its paths lie beneath each client's directory, /client1 being that directory"
"$DBENCH" -D "$T/d" -c "$T/smb_2.load" --run-once --skip-cleanup -q 2 >"$T/r.out" 2>&1
expect_status $? 0
for c in client1 client2; do
	[ "$(stat -c %s "$T/d/clients/$c/test.txt" 2>/dev/null)" = 40960 ] ||
		fail "no 40960-byte clients/$c/test.txt: $(find "$T/d" | tr '\n' ' ')"
done
rm -rf "$T/d/clients"
end

# A loadfile of the dialect's own semantics: Deltree empties a directory
# and leaves it (RMDIR then succeeds), a read past the end fails, an
# OPEN without O_CREAT of a missing file fails.
cat >"$T/sem.load" <<'L'
MKDIR "/d" SUCCESS
OPEN "/d/f" 0x0c SUCCESS
WRITE "/d/f" 0 4096 SUCCESS
READ "/d/f" +0 4096 SUCCESS
READ "/d/f" 4096 1 ERROR
CLOSE "/d/f" SUCCESS
Deltree "/d" SUCCESS
READDIR "/d" SUCCESS
RMDIR "/d" SUCCESS
OPEN "/d/f" 0x04 ERROR
READDIR "/d" ERROR
L
begin "Deltree empties a directory and leaves it; READ and OPEN fail where 5.0's do (fileio)"
"$DBENCH" -D "$T/d" -c "$T/sem.load" --run-once --json="$T/r.json" 1 >"$T/r.out" 2>&1
expect_status $? 0
expect_eq "$(jq '[.ops[].errors] | add' "$T/r.json")" 0 "errors"
end

begin "a row of the dialect that is wrong: FILE:LINE and exit 2"
printf 'MKDIR "/d" SUCCESS\nOPEN "/d/f" 0x0c NT_STATUS_OK\n' >"$T/bad.load"
out=$("$DBENCH" -D "$T/d" -c "$T/bad.load" -t 1 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: $T/bad.load:2: malformed status 'NT_STATUS_OK' \(dbench 5.0's OPEN takes SUCCESS, ERROR or \*\)$"
end

begin "an expectation that does not hold: the FAILED line names the line, exit 1"
printf 'MKDIR "/d" SUCCESS\nRMDIR "/e" SUCCESS\n' >"$T/fail.load"
out=$("$DBENCH" -D "$T/d" -c "$T/fail.load" --run-once 1 2>&1); rc=$?
expect_status $rc 1
expect_match "$out" "^FAILED: client 1, $T/fail.load:2 RMDIR $T/d/clients/client1/e: No such file or directory$"
end

SMBD_GLOBAL="	server min protocol = NT1"
if ! smbd_start; then
	skip "over the smb backend" "$SMBD_WHY"
	finish
	exit
fi
smb() {
	"$DBENCH" --backend=smb --smb-share="$SMB_URL" --smb-user="$SMB_USER%$SMB_PASS" "$@"
}
for f in $SMB5 "$T/sem.load"; do
	for p in SMB3_11 NT1; do
		begin "$(basename "$f") replays to the end over SMB ($p), 2 clients, the share left empty"
		smb --smb-protocol=$p -c "$f" --run-once --json="$T/s.json" 2 >"$T/s.out" 2>&1
		expect_status $? 0
		expect_eq "$(jq -r '.environment.targets[0].protocol' "$T/s.json")" "$p" "dialect"
		expect_eq "$(jq '[.ops[].errors] | add' "$T/s.json")" 0 "errors"
		[ -f "$f.sum" ] && { bad=$(ops_match "$T/s.json" "$f.sum" 2); [ -z "$bad" ] || fail "$bad"; }
		expect_eq "$(ls -A "$SMB_SHARE_DIR")" "" "left on the share"
		end
	done
done

begin "sem.load, timed, over SMB: passes repeat with no error"
smb -c "$T/sem.load" -t 2 --warmup 0 --json="$T/t.json" 2 >"$T/t.out" 2>&1
expect_status $? 0
expect_eq "$(jq '[.ops[].errors] | add' "$T/t.json")" 0 "errors"
[ "$(jq '.ops.OPEN.count' "$T/t.json")" -ge 2 ] || fail "OPEN ran $(jq '.ops.OPEN.count' "$T/t.json") times"
end
finish
