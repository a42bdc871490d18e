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
#
# The examples of a section (README's underlined headings, a page's .SH)
# run in its order (a later one may read what an earlier wrote), the
# sections side by side, six at a time, each in a tree of its own (its
# /mnt, /fs/dir, /srv/mail and working directory beneath $T/lane): most
# of an example's time is a 1 s run waiting on its clients.  A private
# server is one for all, its examples one at a time (flock).
. "$TOP/tests/shell/lib.sh"

SERVED= LOOPS= TB_PID= WRITERS= LANES=
stop_all() {
	for p in $LANES; do kill "$p" 2>/dev/null; done
	for d in $SERVED; do "$SERVERS" stop "$d" >/dev/null 2>&1; done
	[ -z "$TB_PID" ] || kill "$TB_PID" 2>/dev/null
	for p in $WRITERS; do kill "$p" 2>/dev/null; done
	for m in $(grep " $T" /proc/mounts | awk '{print $2}' | sort -r); do umount "$m" 2>/dev/null; done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
}
trap 'stop_all; cleanup_scratch' EXIT

BIN=$T/bin
BUILD=$(dirname "$DBENCH")
mkdir -p "$BIN"
for p in dbench tbench tbench_srv; do ln -s "$BUILD/$p" "$BIN/$p"; done

# ---- the examples ----

# FILE:LINE, a tab, the command, a tab, its section (FILE#N: the lane it
# runs in), one an example: README's indented
# command lines up to its Layout section (a list's words after the
# command, three spaces on, left out; a line ending in \ joined to the
# next), each man page's .EX lines that are commands (not its output:
# "dbench: ...", "dbench 6.0.0: ...") and its .TP headings that are.
examples() {
	awk -v f=README '
	function cmd(s) { return s ~ /^(sudo |make |\.\/|mpirun |dbench |tbench|jq |for |mount )/ }
	function emit(n, s) { gsub(/  +/, " ", s); printf "%s:%d\t%s\t%s#%d\n", f, n, s, f, sec }
	/^Layout$/ { exit }
	/^---+$/ { sec++; next }	# a heading'"'"'s underline
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
	function emit(n, s) { gsub(/  +/, " ", s); printf "%s:%d\t%s\t%s#%d\n", f, n, s, f, sec }
	/^\.SH/ { sec++ }
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

REF=$(dbench5_tarball)
[ -z "$REF" ] || tar -xzf "$REF" -C "$T" --wildcards '*/loadfiles/block*.load' \
	'*/loadfiles/iscsi*.load' '*/loadfiles/scsi.load' 2>/dev/null
# Documents of the examples' workload (the built-in loadfile, fileio): the
# README compares runs "from the other kernel" (new.json) and four
# releases, which are these; and dbench.1's loop pools each kernel's runs
# at 4 clients.
mkdir -p "$T/base"
"$DBENCH" -t 1 --warmup 0 -q --sweep=1..2 --settle=0 -D "$T/base" \
	--json="$T/base.json" >/dev/null 2>&1
"$DBENCH" -t 1 --warmup 0 -q -D "$T/base" --json="$T/base4.json" 4 >/dev/null 2>&1

# lane_tree ROOT: the directories and files the examples of a lane find, under
# ROOT (its working directory ROOT/w)
lane_tree() {
	mkdir -p "$1/mnt/test/photos" "$1/mnt/a" "$1/mnt/b" "$1/mnt/relatime" "$1/mnt/noatime" \
		"$1/mnt/nfs" "$1/fs/dir" "$1/srv/mail" "$1/home" "$1/w"
	for _k in 1 2 3 4 5 6 7 8; do echo "photo $_k" >"$1/mnt/test/photos/p$_k.jpg"; done
	ln -s "$BUILD/tbench" "$1/w/tbench"
	ln -s "$BUILD/tbench_srv" "$1/w/tbench_srv"
	cp "$TOP/loadfiles/default.txt" "$1/w/FILE"
	gzip -c "$TOP/loadfiles/default.txt" >"$1/w/mytrace.txt.gz"
	# mmtests' client-tiny.txt: a short trace of dbench 4.0's kind
	head -n 3000 /usr/share/dbench/client.txt >"$1/w/client-tiny.txt" 2>/dev/null ||
		cp "$TOP/loadfiles/default.txt" "$1/w/client-tiny.txt"
	printf 'all: a.out b.out\na.out:\n\t@echo a >a.out\nb.out: a.out\n\t@cat a.out Makefile >b.out\n' \
		>"$1/w/Makefile"
	printf '#!/bin/sh\n# a fresh file system before every run: here, what the last left\nrm -rf %s/mnt/test/clients\n' \
		"$1" >"$1/w/remake-fs.sh"
	chmod +x "$1/w/remake-fs.sh"
	printf 'localhost slots=8\n' >"$1/w/hosts"
	for f in "$T"/*/loadfiles/*.load; do [ -e "$f" ] && cp "$f" "$1/w/"; done
	for f in new v6.1 v6.2 v6.3 v6.4; do cp "$T/base.json" "$1/w/$f.json"; done
	for _k in 1 2 3; do cp "$T/base4.json" "$1/w/a-$_k.json"; cp "$T/base4.json" "$1/w/b-$_k.json"; done
}

# ---- what the examples need of the machine ----

# loop_disk SIZE: a loop device over a sparse file of SIZE, its name
# printed; 1 where none can be attached (not root, no losetup).  Run in a
# command substitution, so the caller adds the device to LOOPS (which
# stop_all detaches): set here, it was lost with the subshell, and every
# run left its loop devices attached to deleted files.
loop_disk() {
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null || return 1
	_img=$(mktemp "$T/disk.XXXXXX") && truncate -s "$1" "$_img" &&
		_l=$(losetup -f --show "$_img" 2>/dev/null) || return 1
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
		s#(^|[ ='])/mnt/#\\1$R/mnt/#g
		s#(^|[ ='])/fs/dir#\\1$R/fs/dir#g
		s#(^|[ ='])/srv/mail#\\1$R/srv/mail#g
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

# runnable EXAMPLE: sets CMD (a bash command line run in $R/w, the tree
# of its lane), ENV (words of env before it), OKS (the exit statuses that
# pass) and LOCK (a server's directory, its examples one at a time); or
# SKIP to why it cannot run here.  Returns 1 when it knows no way to run
# it.
runnable() {
	CMD=$(general "$1") ENV= OKS=0 SKIP= LOCK=
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
	LOCK=$_d
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
	LOCK=$_d
	CMD="nsenter --target=$(server_var "$_d" RPCBIND_PID) --net $(printf '%s\n' "$CMD" |
		sed "s#nfs://fs1/export#$(server_var "$_d" URL)#")"
}

iscsi_example() {
	[ -e "$R/w/iscsi.load" ] || { SKIP="dbench 5.0's SCSI loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; }
	server iscsi || { SKIP=$WHY; return; }
	_d=$SRV
	LOCK=$_d
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#iscsi://[^/]+/[^/ ]+/#$(server_var "$_d" URL)/#")
}

scsi_example() {
	[ -e "$R/w/scsi.load" ] || { SKIP="dbench 5.0's SCSI loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; }
	_s=$(scsi_disk) ||
		{ SKIP="no scratch SCSI disk: SCSI_TEST_DEVICE names none and scsi_debug is not loaded"; return; }
	CMD=$(printf '%s\n' "$CMD" | sed "s#/dev/sg1#$_s#")
}

block_example() {
	case $CMD in *block1G*) [ -e "$R/w/block1G4krw.load" ] ||
		{ SKIP="dbench 5.0's block loadfiles: no tarball (lib.sh's dbench5_tarball)"; return; } ;;
	esac
	_l=$(loop_disk 1G) || { SKIP="a disk: needs root and a loop device (losetup)"; return; }
	LOOPS="$LOOPS $_l"
	CMD=$(printf '%s\n' "$CMD" | sed -E "s#/dev/(sdX|nvme1n1|sdb1)#$_l#g")
}

# "dbench record -p 4242": a program that writes beneath the root (the
# lane's)
pid_example() {
	if [ ! -f "$R/writer.pid" ]; then
		printf '#!/bin/sh\nwhile :; do date >%s/srv/mail/new; cat %s/srv/mail/new >/dev/null; sleep 0.2; done\n' \
			"$R" "$R" >"$R/writer"
		chmod +x "$R/writer"
		setsid "$R/writer" </dev/null >/dev/null 2>&1 &
		echo $! >"$R/writer.pid"
		WRITERS="$WRITERS $!"
	fi
	CMD=$(printf '%s\n' "$CMD" | sed "s#-p 4242#-p $(cat "$R/writer.pid")#")
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
		s#mount:/mnt/#mount:$R/mnt/#g")
	CMD="$CMD --budget=6 --settle=0"
	_m=$(printf '%s\n' "$CMD" | sed -n -E "s#.*--set mount:($R/[^=]+)=.*#\\1#p")
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

# What each example runs, in order, here (servers, loop disks and mounts
# made one at a time, in the lane's tree R): $T/ex/I.cmd, .env, .oks,
# .lock; .skip for one that cannot run here, .none for one it knows no
# way to run.  The lane's examples, in order, in R/queue.
read -r t0 _ </proc/uptime
mkdir -p "$T/ex"
nex=0
while IFS='	' read -r where ex sect <&3; do
	nex=$((nex + 1))
	R=$T/lane/$(printf %s "$sect" | tr "/#" "__")
	[ -d "$R" ] || lane_tree "$R"
	if ! runnable "$ex"; then
		: >"$T/ex/$nex.none"
	elif [ -n "$SKIP" ]; then
		printf '%s\n' "$SKIP" >"$T/ex/$nex.skip"
	else
		printf '%s\n' "$CMD" >"$T/ex/$nex.cmd"
		printf '%s\n' "$ENV" >"$T/ex/$nex.env"
		printf '%s\n' "$OKS" >"$T/ex/$nex.oks"
		printf '%s\n' "${LOCK:-$R}.lock" >"$T/ex/$nex.lock"
		echo "$nex" >>"$R/queue"
	fi
done 3<"$T/examples"

# run_lane R: R's examples, one after another: I's output in I.out and
# I.err, its status in I.rc, its start and end (/proc/uptime) in I.time
run_lane() {
	while read -r _i; do
		read -r _s _ </proc/uptime
		# shellcheck disable=SC2046
		(cd "$1/w" && flock "$(cat "$T/ex/$_i.lock")" env PATH="$BIN:$PATH" \
			$(cat "$T/ex/$_i.env") timeout 300 bash -o pipefail -c "$(cat "$T/ex/$_i.cmd")") \
			>"$T/ex/$_i.out" 2>"$T/ex/$_i.err" </dev/null
		echo $? >"$T/ex/$_i.rc"
		read -r _e _ </proc/uptime
		echo "$_s $_e" >"$T/ex/$_i.time"
	done <"$1/queue"
}
read -r t1 _ </proc/uptime
# at most $lanes sections at a time (each a run of a few clients,
# mostly waiting)
lanes=6
mkdir -p "$T/done"
started=0
for q in $(find "$T/lane" -name queue | sort -V); do
	while [ $((started - $(ls "$T/done" | wc -l))) -ge "$lanes" ]; do sleep 0.2; done
	(run_lane "${q%/queue}"; : >"$T/done/$started") &
	LANES="$LANES $!"
	started=$((started + 1))
done
for p in $LANES; do wait "$p"; done
LANES=
read -r t2 _ </proc/uptime
echo "# made ready in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s" \
	"(servers, disks, mounts, trees), run in $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.0f", b - a }') s" \
	"($started sections, $lanes at a time)"

ran=0 skipped=0 nex=0
while IFS='	' read -r where ex sect <&3; do
	nex=$((nex + 1))
	if [ -f "$T/ex/$nex.none" ]; then
		begin "$where: $ex"
		fail "test_examples.sh knows no way to run it: add it to runnable()"
		end
		continue
	fi
	if [ -f "$T/ex/$nex.skip" ]; then
		skip "$where: $ex" "$(cat "$T/ex/$nex.skip")"
		skipped=$((skipped + 1))
		continue
	fi
	begin "$where: $ex"
	# shellcheck disable=SC2046
	took $(cat "$T/ex/$nex.time" 2>/dev/null || echo 0 0)
	rc=$(cat "$T/ex/$nex.rc" 2>/dev/null || echo none)
	case " $(cat "$T/ex/$nex.oks") " in
	*" $rc "*) ;;
	*) fail "exit status $rc (want $(cat "$T/ex/$nex.oks")) of: $(cat "$T/ex/$nex.cmd"): $(grep -v '^$' "$T/ex/$nex.err" | head -n 2 | tr '\n' ' ')" ;;
	esac
	ran=$((ran + 1))
	end
done 3<"$T/examples"
echo "# $ran examples run, $skipped skipped"

finish
