# test_examples.sh - every example command of the README and of the man
# pages of dbench (dbench(1), a page per command, the file formats')
# run as a user would type it, so that an example that fails as written
# fails make check.
#
# The examples are read from the files, not listed here: the README's
# indented command lines (up to its Layout section), the pages' example
# blocks (.EX) and the commands their sections give as .TP headings
# (dbench.1's BACKENDS ladder).  An example added to any is run, or
# this test fails saying that it does not know how to.  Each runs in a
# scratch directory, through bash with pipefail (a pipe into jq fails
# with dbench), the PATH's dbench, tbench and tbench_srv the build's (the
# README's ./tbench too), changed only in what time and this machine
# need, the same for every example:
#   - a run of 1 s: "-t 1" for the example's -t, or added where it gives
#     none (the default is 600 s); --settle=0; a sweep of 1..2 clients,
#     --repeat=3; dbench ab --runs=2; sleep 0; --duration=2; at most 4
#     clients (NPROCS and N are 2);
#   - /mnt/..., /fs/dir and /srv/mail are directories beneath $T;
#   - a disk (/dev/sdb1, /dev/sdX, /dev/nvme1n1) is a loop device over a
#     file of $T, a SCSI disk (/dev/sg1) a scsi_debug disk or
#     SCSI_TEST_DEVICE; a server (fs1, 10.0.0.5) the one that
#     tools/dbench-servers starts on 127.0.0.1, with its credentials;
#     dbench 5.0's loadfiles come from its tarball (lib.sh);
#   - a file an example reads that no earlier one writes (new.json, "from
#     the other kernel"; FILE; mytrace.txt.gz; client-tiny.txt; a Makefile
#     for make -j4, recorded or run under strace; ./remake-fs.sh; the MPI
#     hostfile) is made first.
# Where that cannot be (not root, no tarball, no SCSI disk), or an example
# changes the machine (make deps, a kernel NFS mount), it is a skip with
# its reason.  Exit status 0 is a pass; 3 and 4 too for --fail-above,
# which judges.
. "$TOP/tests/shell/lib.sh"

SERVED= LOOPS= TB_PID= WRITER=
stop_all() {
	for d in $SERVED; do "$SERVERS" stop "$d" >/dev/null 2>&1; done
	[ -z "$TB_PID" ] || kill "$TB_PID" 2>/dev/null
	[ -z "$WRITER" ] || kill "$WRITER" 2>/dev/null
	for m in $(grep " $T" /proc/mounts | awk '{print $2}' | sort -r); do umount "$m" 2>/dev/null; done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
}
trap 'stop_all; cleanup_scratch' EXIT

W=$T/w
BIN=$T/bin
BUILD=$(dirname "$DBENCH")
mkdir -p "$W" "$BIN"
for p in dbench tbench tbench_srv; do ln -s "$BUILD/$p" "$BIN/$p"; done
ln -s "$BUILD/tbench" "$W/tbench"
ln -s "$BUILD/tbench_srv" "$W/tbench_srv"

# ---- the examples ----

# FILE:LINE, a tab, the command, one an example: README's indented
# command lines up to its Layout section (a list's words after the
# command, three spaces on, left out; a line ending in \ joined to the
# next), each man page's .EX lines that are commands (not its output:
# "dbench: ...", "dbench 6.0.0: ...") and its .TP headings that are.
examples() {
	awk -v f=README '
	function cmd(s) { return s ~ /^(sudo |make |\.\/|mpirun |dbench |tbench|jq |for |mount )/ }
	function emit(n, s) { gsub(/  +/, " ", s); printf "%s:%d\t%s\n", f, n, s }
	/^Layout$/ { exit }
	{
		line = $0
		if (cont != "") {
			sub(/^ +/, "", line)
			cont = cont " " line
			if (cont ~ /\\$/) sub(/ *\\$/, "", cont); else { emit(start, cont); cont = "" }
			next
		}
		if (line !~ /^    +[^ ]/) next
		s = line
		sub(/^ +/, "", s)
		if (!cmd(s)) next
		sub(/   +[a-z0-9][^-]*$/, "", s)
		if (s ~ /\\$/) { sub(/ *\\$/, "", s); cont = s; start = NR; next }
		emit(NR, s)
	}' "$TOP/README"
	# dbench's pages: a run's, each command's, the file formats' (not
	# dbench-servers(1), tbench(1) or tbench_srv(1))
	for m in "$TOP"/man/dbench*.[15]; do
	[ "${m##*/}" != dbench-servers.1 ] || continue
	awk -v f="man/${m##*/}" '
	function unesc(s) {
		gsub(/\\-/, "-", s); gsub(/\\\(aq/, "\047", s); gsub(/\\\(dq/, "\"", s)
		gsub(/\\&/, "", s); gsub(/\\e/, "\\", s); gsub(/\\%/, "", s)
		return s
	}
	function cmd(s) {
		return s ~ /^(sudo |make |\.\/|mpirun |dbench |tbench|jq |for |mount |taskset |strace |fio )/ &&
		       s !~ /^dbench (version |[0-9]+\.[0-9]+\.[0-9]+:)/
	}
	function emit(n, s) { gsub(/  +/, " ", s); printf "%s:%d\t%s\n", f, n, s }
	/^\.EX/ { ex = 1; next }
	/^\.EE/ { ex = 0; next }
	prev == ".TP" && /^\.B / { s = unesc(substr($0, 4)); gsub(/"/, "", s); if (cmd(s)) emit(NR, s) }
	{ prev = $0 }
	ex {
		s = unesc($0)
		if (cont != "") {
			cont = cont " " s
			if (cont ~ /\\$/) sub(/ *\\$/, "", cont); else { emit(start, cont); cont = "" }
			next
		}
		if (!cmd(s)) next
		if (s ~ /\\$/) { sub(/ *\\$/, "", s); cont = s; start = NR; next }
		emit(NR, s)
	}' "$m"
	done
}

# ---- what the examples read ----

mkdir -p "$T/mnt/test/photos" "$T/mnt/a" "$T/mnt/b" "$T/mnt/relatime" "$T/mnt/noatime" \
	"$T/mnt/nfs" "$T/fs/dir" "$T/srv/mail" "$T/home"
for i in 1 2 3 4 5 6 7 8; do echo "photo $i" >"$T/mnt/test/photos/p$i.jpg"; done
cp "$TOP/loadfiles/default.txt" "$W/FILE"
gzip -c "$TOP/loadfiles/default.txt" >"$W/mytrace.txt.gz"
# mmtests' client-tiny.txt: a short trace of dbench 4.0's kind
head -n 3000 /usr/share/dbench/client.txt >"$W/client-tiny.txt" 2>/dev/null ||
	cp "$TOP/loadfiles/default.txt" "$W/client-tiny.txt"
printf 'all: a.out b.out\na.out:\n\t@echo a >a.out\nb.out: a.out\n\t@cat a.out Makefile >b.out\n' \
	>"$W/Makefile"
printf '#!/bin/sh\n# a fresh file system before every run: here, what the last left\nrm -rf %s/mnt/test/clients\n' \
	"$T" >"$W/remake-fs.sh"
chmod +x "$W/remake-fs.sh"
printf 'localhost slots=8\n' >"$W/hosts"
REF=$(dbench5_tarball)
[ -z "$REF" ] || tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/block*.load' \
	'*/loadfiles/iscsi*.load' '*/loadfiles/scsi.load' 2>/dev/null
for f in "$T"/*/loadfiles/*.load; do [ -e "$f" ] && cp "$f" "$W/"; done

# Documents of the examples' workload (the built-in loadfile, fileio): the
# README compares runs "from the other kernel" (new.json) and four
# releases, which are these.
"$DBENCH" -t 1 --warmup 0 -q --sweep=1..2 --settle=0 -D "$T/mnt/test" \
	--json="$T/base.json" >/dev/null 2>&1
for f in new v6.1 v6.2 v6.3 v6.4; do cp "$T/base.json" "$W/$f.json"; done
# and pools each kernel's runs at 4 clients (those of dbench.1's loop)
"$DBENCH" -t 1 --warmup 0 -q -D "$T/mnt/test" --json="$T/base4.json" 4 >/dev/null 2>&1
for i in 1 2 3; do cp "$T/base4.json" "$W/a-$i.json"; cp "$T/base4.json" "$W/b-$i.json"; done

# ---- what the examples need of the machine ----

# loop_disk SIZE: a loop device over a sparse file of SIZE, its name
# printed; 1 where none can be attached (not root, no losetup)
loop_disk() {
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null || return 1
	_img=$(mktemp "$T/disk.XXXXXX") && truncate -s "$1" "$_img" &&
		_l=$(losetup -f --show "$_img" 2>/dev/null) || return 1
	LOOPS="$LOOPS $_l"
	echo "$_l"
}

# scsi_disk: SCSI_TEST_DEVICE, else a scsi_debug disk's generic device
scsi_disk() {
	[ -z "${SCSI_TEST_DEVICE:-}" ] || { echo "$SCSI_TEST_DEVICE"; return 0; }
	for h in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/scsi_generic/sg*; do
		[ -e "$h" ] && { echo "/dev/$(basename "$h")"; return 0; }
	done
	return 1
}

# server KIND: SRV, the directory of a private server of KIND, started
# the first time it is asked for; 1 (with why in $WHY) where none can be
server() {
	SRV=$T/srv-$1
	[ ! -f "$SRV/server.env" ] || return 0
	[ "$(id -u)" -eq 0 ] || { WHY="needs root for a private $1 server"; return 1; }
	if ! _o=$("$SERVERS" start "$@" --dir="$SRV" 2>&1); then
		WHY="dbench-servers start $1: $(printf '%s' "$_o" | tail -n 1)"
		return 1
	fi
	SERVED="$SERVED $SRV"
}

# ---- each example, runnable ----

# The changes every example gets (see the top), on its text.
general() {
	printf '%s\n' "$1" | sed -E "
		s#(^| )-t [0-9]+#\\1-t 1#g
		s#--duration=[0-9]+#--duration=2#g
		s#sleep [0-9]+#sleep 0#g
		s#(^|[ ='])/mnt/#\\1$T/mnt/#g
		s#(^|[ ='])/fs/dir#\\1$T/fs/dir#g
		s#(^|[ ='])/srv/mail#\\1$T/srv/mail#g
		s#--sweep=1\\.\\.[0-9]+#--sweep=1..2 --settle=0#g
		s#--repeat=[0-9]+#--repeat=3#g
		s#--runs=[0-9]+#--runs=2#g
		s#(^|[^0-9 ] )([5-9]|[1-9][0-9]+)(( 127\\.0\\.0\\.1| localhost)? *(\$|;|\\||2>))#\\14\\3#g
		s# NPROCS\$# 2#; s# N\$# 2#
		s#(^|[ /])mpirun #\\1mpirun --allow-run-as-root --oversubscribe --bind-to none #"
}

# Whether an example of dbench or tbench is a run with no time limit of
# its own (600 s): a run, not a command beside one, a check or a pass.
untimed_run() {
	case " $1 " in
	*" -t "* | *--run-once* | *--check-loadfile* | *" compare "* | *" record "* | *" convert "* | \
	*" tune --restore"*)
		return 1 ;;
	*" dbench "* | *" tbench "* | *" ./tbench "*) return 0 ;;
	esac
	return 1
}

# runnable EXAMPLE: sets CMD (a bash command line run in $W), ENV (words
# of env before it) and OKS (the exit statuses that pass); or SKIP to why
# it cannot run here.  Returns 1 when it knows no way to run it.
runnable() {
	CMD=$(general "$1") ENV= OKS=0 SKIP=
	if untimed_run "$1"; then
		CMD=$(printf '%s\n' "$CMD" | sed -E 's#(^|[ /;])(dbench|tbench)( ab)? #\1\2\3 -t 1 #')
	fi
	case $CMD in
	*" ab "*) case $CMD in *--runs=*) ;; *) CMD="$CMD --runs=2" ;; esac
		CMD="$CMD --settle=0" ;;
	esac
	case $1 in *--fail-above*) OKS="0 3 4" ;; esac
	case $1 in
	"sudo make deps"*)
		SKIP="installs Debian packages and builds the tree: CI's deps and check stages (.ci/run)" ;;
	"make check")
		SKIP="the suite this test is part of" ;;
	"mount -t nfs "*)
		SKIP="a kernel NFS mount changes this machine's mounts; the nfs backend's example runs against dbench-servers' nfs-ganesha" ;;
	"dbench tune "*) tune_example "$1" ;;
	dbench*--backend=smb* | dbench*-B\ smb*) smb_example ;;
	dbench*--backend=nfs*) nfs_example ;;
	dbench*iscsi://*) iscsi_example ;;
	dbench*--backend=scsi* | dbench*-B\ scsi*) scsi_example ;;
	dbench*--block=* | *" /dev/sdb1 "*) block_example ;;
	"dbench record -p "*) pid_example ;;
	./tbench_srv*) tbench_server ;;
	./tbench*) [ -n "$TB_PORT" ] || return 1
		CMD=$(printf '%s\n' "$CMD" | sed "s#^./tbench #./tbench --port=$TB_PORT #") ;;
	"tbench_srv & tbench "*)
		_p=$(free_port)
		CMD="tbench_srv --listen 127.0.0.1 --port=$_p & s=\$!; for i in \$(seq 100); do ss -Hltn 'sport = :$_p' | grep -q . && break; sleep 0.1; done; $(printf '%s\n' "$CMD" | sed "s#^tbench_srv & tbench -t 1 #tbench --port=$_p -t 1 #"); rc=\$?; kill \$s; exit \$rc" ;;
	mpirun*) ldd "$DBENCH" | grep -q libmpi ||
		SKIP="this dbench is built without MPI (make MPI=0)"
		# what Open MPI keeps past MPI_Finalize is not ours (test_mpi.sh)
		ENV="LSAN_OPTIONS=suppressions=$TOP/tests/shell/lsan-mpi.supp:fast_unwind_on_malloc=0" ;;
	dbench* | tbench* | jq* | "for "* | ./* | "strace "* | "fio "*) ;;
	*) return 1 ;;
	esac
	return 0
}

# The network backends' examples: the server's address and credentials
# for fs1's, the rest as written.
smb_example() {
	server smb || { SKIP=$WHY; return; }
	_d=$SRV
	_share=$(server_var "$_d" SHARE_DIR)
	_pass=$(sed -n 's/^password = //p' "$(server_var "$_d" CREDENTIALS)")
	mkdir -p "$_share/bench"
	cp "$(server_var "$_d" CREDENTIALS)" "$(server_var "$_d" HOME_DIR)/.dbench-auth"
	ENV="HOME=$(server_var "$_d" HOME_DIR) PASSWD=$_pass"
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#//fs1/data#$(server_var "$_d" URL)#;
		s#--smb-user='[^']*'#--smb-user='root%$_pass'#; s#--smb-user=me( |\$)#--smb-user=root\\1#")
}

nfs_example() {
	server nfs || { SKIP=$WHY; return; }
	_d=$SRV
	CMD="nsenter --target=$(server_var "$_d" RPCBIND_PID) --net $(printf '%s\n' "$CMD" |
		sed "s#nfs://fs1/export#$(server_var "$_d" URL)#")"
}

iscsi_example() {
	[ -e "$W/iscsi.load" ] || { SKIP="dbench 5.0's SCSI loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; }
	server iscsi || { SKIP=$WHY; return; }
	_d=$SRV
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#iscsi://[^/]+/[^/ ]+/#$(server_var "$_d" URL)/#")
}

scsi_example() {
	[ -e "$W/scsi.load" ] || { SKIP="dbench 5.0's SCSI loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; }
	_s=$(scsi_disk) ||
		{ SKIP="no scratch SCSI disk: SCSI_TEST_DEVICE names none and scsi_debug is not loaded"; return; }
	CMD=$(printf '%s\n' "$CMD" | sed "s#/dev/sg1#$_s#")
}

block_example() {
	case $CMD in *block1G*) [ -e "$W/block1G4krw.load" ] ||
		{ SKIP="dbench 5.0's block loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; } ;;
	esac
	_l=$(loop_disk 1G) || { SKIP="a disk: needs root and a loop device (losetup)"; return; }
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#/dev/(sdX|nvme1n1|sdb1)#$_l#g")
}

# "dbench record -p 4242": a program that writes beneath the root
pid_example() {
	if [ -z "$WRITER" ]; then
		printf '#!/bin/sh\nwhile :; do date >%s/srv/mail/new; cat %s/srv/mail/new >/dev/null; sleep 0.2; done\n' \
			"$T" "$T" >"$T/writer"
		chmod +x "$T/writer"
		setsid "$T/writer" </dev/null >/dev/null 2>&1 &
		WRITER=$!
	fi
	CMD=$(printf '%s\n' "$CMD" | sed "s#-p 4242#-p $WRITER#")
}

# dbench tune: a race of a few runs; a mount of its own (a tmpfs) for a
# mount: setting; none of this machine's sysctls or devices changed.
tune_example() {
	case $1 in
	*--restore*) return ;;
	*"--set vm."* | *"--set /sys/"* | *"--set /proc/"*)
		SKIP="changes this machine's sysctls or a device's settings (put back after): test_tune.sh races a loop device of its own"
		return ;;
	esac
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#--budget=[^ ]+##; s#--sweep=[0-9,]+#--sweep=1,2#
		s#mount:/mnt/#mount:$T/mnt/#g")
	CMD="$CMD --budget=6 --settle=0"
	_m=$(printf '%s\n' "$CMD" | sed -n -E "s#.*--set mount:($T/[^=]+)=.*#\\1#p")
	if [ -n "$_m" ] && ! mountpoint -q "$_m"; then
		mkdir -p "$_m"
		mount -t tmpfs -o size=1g dbench-example "$_m" 2>/dev/null ||
			SKIP="a mount to remount: needs root for a tmpfs"
	fi
}

TB_PORT=
tbench_server() {
	TB_PORT=$(free_port)
	CMD="true"
	"$BUILD/tbench_srv" --listen 127.0.0.1 --port="$TB_PORT" </dev/null >/dev/null 2>&1 &
	TB_PID=$!
	_i=0
	while ! port_listening "$TB_PORT" && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
	port_listening "$TB_PORT" || CMD="echo 'tbench_srv did not listen on $TB_PORT' >&2; exit 1"
}

# ---- the run ----

examples >"$T/examples"

begin "the examples are found: README's and the man pages', every command of them"
nr=$(grep -c '^README:' "$T/examples")
nm=$(grep -c '^man/' "$T/examples")
[ "$nr" -ge 30 ] || fail "only $nr examples found in the README"
[ "$nm" -ge 25 ] || fail "only $nm examples found in the man pages"
# the pages of the commands that have examples among them
for m in dbench.1 dbench-ab.1 dbench-compare.1 dbench-record.1; do
	grep -q "^man/$m:" "$T/examples" || fail "no example found in $m"
done
# the three of issue 44 that failed as written are among them
for e in "dbench ab --b='-F' " "dbench compare a-\\*.json -- b-\\*.json --fail-above=5" "dbench -c sqlite 8"; do
	grep -q "	$e" "$T/examples" || fail "no example /$e/"
done
echo "# $nr examples of the README, $nm of the man pages:" \
	"$(grep -o '^man/[^:]*' "$T/examples" | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')"
end

ran=0 skipped=0
while IFS='	' read -r where ex; do
	if ! runnable "$ex"; then
		begin "$where: $ex"
		fail "test_examples.sh knows no way to run it: add it to runnable()"
		end
		continue
	fi
	if [ -n "$SKIP" ]; then
		skip "$where: $ex" "$SKIP"
		skipped=$((skipped + 1))
		continue
	fi
	begin "$where: $ex"
	# shellcheck disable=SC2086
	(cd "$W" && env PATH="$BIN:$PATH" $ENV timeout 300 bash -o pipefail -c "$CMD") \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	case " $OKS " in
	*" $rc "*) ;;
	*) fail "exit status $rc (want $OKS) of: $CMD: $(grep -v '^$' "$T/err" | head -n 2 | tr '\n' ' ')" ;;
	esac
	ran=$((ran + 1))
	end
done <"$T/examples"
echo "# $ran examples run, $skipped skipped"

finish
