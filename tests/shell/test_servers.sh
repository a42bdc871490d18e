#!/bin/sh
# test_servers.sh - tools/dbench-servers, the script users (and the network
# backends' tests, through lib_smbd.sh, lib_ganesha.sh and lib_tgtd.sh)
# start a private server with: each kind starts on 127.0.0.1, the dbench
# command line it prints runs against it (with a short -t) and exits 0,
# no password is printed, stop leaves no process of it and no scratch
# directory; a server that cannot start is reported with its log, exit 1;
# bad input is one line and exit 2, nothing started.  The script trusts
# nothing it did not make: a scratch directory or server.env that another
# user could have written or swapped, or one that start did not write, is
# refused (exit 2) before anything is run, signalled or removed; a process
# is signalled only when it is one the start ran.
. "$TOP/tests/shell/lib.sh"

# Whatever a failing block left running is stopped by its pids.
stop_left() {
	for d in "$T"/srv-*; do
		[ -f "$d/server.env" ] && "$SERVERS" stop "$d" 2>/dev/null
	done
}
trap 'stop_left; cleanup_scratch' EXIT

# one_line TEXT: TEXT is a single line saying "dbench-servers: ..."
one_line() {
	expect_eq "$(printf '%s\n' "$1" | wc -l)" 1 "lines of the message '$1'"
	expect_match "$1" '^dbench-servers: [^ ]'
}

begin "bad input: one line and exit 2, nothing started, nothing removed"
mkdir -p "$T/full" && echo keep >"$T/full/mine"
for args in "start" "start foo" "start smb --dir" "start smb --bogus" "stop" "stop $T/full" \
	"stop $T/none" "stop $T/full $T/full" "restart $T/full" "frobnicate" "" \
	"start smb --dir=$T/full" "start tbench --lun-size=1G" "start smb --dir=$T/a;b"; do
	# shellcheck disable=SC2086 # the words of each case
	out=$("$SERVERS" $args 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq 2 ] || fail "'$args': exit $rc, want 2 ($out)"
	one_line "$out"
done
expect_match "$("$SERVERS" start foo 2>&1)" "unknown kind 'foo'"
expect_match "$("$SERVERS" stop "$T/full" 2>&1)" "holds no server"
expect_eq "$(cat "$T/full/mine")" keep "the file in a directory given to stop"
expect_eq "$(ls "$T" | grep -c '^srv-')" 0 "scratch directories made"
"$SERVERS" --help | grep -q -- '--dir=DIR' || fail "--help names no --dir"
end

# start_run_stop KIND: start KIND in $T/srv-KIND, run the printed command
# line with -t 2, stop; each step checked.
start_run_stop() {
	_k=$1 _d=$T/srv-$1
	out=$("$SERVERS" start "$_k" --dir="$_d" 2>"$T/$_k.err"); rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "start $_k: exit $rc: $(cat "$T/$_k.err")"
		return
	fi
	printf '%s\n' "$out" >"$T/$_k.start"
	cmd=$(printf '%s\n' "$out" | sed -n '/^run dbench against it with:$/{n;s/^  //;p;}')
	expect_match "$cmd" ' -t 10 '
	short=$(printf '%s' "$cmd" | sed 's/ -t 10 / -t 2 /')
	expect_match "$out" "^  .*dbench-servers stop $_d\$"
	pids=$(server_var "$_d" PIDS)
	[ -n "$pids" ] || fail "no pids in $_d/server.env"
	port=$(server_var "$_d" PORT)
	if [ -n "$port" ] && [ "$_k" != nfs ]; then
		expect_eq "$(ss -Hltn "sport = :$port" | awk '{print $4}' | sort -u)" "127.0.0.1:$port" \
			"where $_k listens"
	fi
	(cd "$T" && sh -c "$short") >"$T/$_k.run" 2>&1
	expect_status $? 0
	expect_match "$(cat "$T/$_k.run")" '^Throughput [0-9.]+ MB/sec.* 2 procs$'
	"$SERVERS" stop "$_d" >"$T/$_k.stop" 2>&1
	expect_status $? 0
	expect_eq "$(cat "$T/$_k.stop")" "" "what stop said"
	for pc in $pids; do
		p=${pc%%:*} c=$(echo "$pc" | cut -d: -f2)
		# ended at once (a zombie at most), reaped by whoever adopted it
		# within seconds
		st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
		[ -z "$st" ] || [ "$st" = Z ] || fail "$c (pid $p) is still there, state $st"
		for _i in $(seq 300); do [ -d "/proc/$p" ] || break; sleep 0.1; done
		[ ! -d "/proc/$p" ] || fail "$c (pid $p) was not reaped in 30 s"
	done
	[ ! -e "$_d" ] || fail "$_d is still there"
}

# can_serve KIND: whether this machine can run KIND's server at all
can_serve() {
	case $1 in
	tbench) return 0 ;;
	smb) _t="smbd smbpasswd" ;;
	iscsi) _t="tgtd tgtadm" ;;
	nfs) _t="ganesha.nfsd rpcinfo nsenter" ;;
	esac
	[ "$(id -u)" -eq 0 ] || { why="needs root"; return 1; }
	for _p in $_t; do
		command -v "$_p" >/dev/null 2>&1 || { why="no $_p"; return 1; }
	done
	[ "$1" != nfs ] || unshare -n -m true 2>/dev/null || { why="no network namespace"; return 1; }
}

for kind in tbench smb iscsi nfs; do
	if ! can_serve "$kind"; then
		skip "dbench-servers start $kind" "$why"
		continue
	fi
	begin "start $kind: its printed dbench command line runs against it and exits 0; stop leaves no process and no scratch directory"
	start_run_stop "$kind"
	end
done

if can_serve smb; then
	begin "start smb: the password is in the credentials file alone (mode 600), not printed"
	out=$("$SERVERS" start smb --dir="$T/srv-pw" 2>&1) || fail "start smb: $out"
	pw=$(sed -n 's/^password = //p' "$T/srv-pw/credentials")
	[ -n "$pw" ] || fail "no password in the credentials file"
	printf '%s\n' "$out" | grep -qF -- "$pw" && fail "the password was printed"
	expect_eq "$(stat -c %a "$T/srv-pw/credentials")" 600 "the credentials file's mode"
	expect_match "$out" "--smb-credentials=$T/srv-pw/credentials "
	"$SERVERS" stop "$T/srv-pw" || fail "stop: exit $?"
	end
fi

begin "a server that does not start: exit 1, its log's last lines, nothing left running"
out=$("$SERVERS" start tbench --dir="$T/srv-bad" --tbench-option=--timeout=abc 2>&1); rc=$?
expect_status $rc 1
expect_match "$out" '^dbench-servers: tbench_srv did not start'
expect_match "$out" '^  stderr: tbench_srv: --timeout=abc: invalid numeric value$'
[ ! -e "$T/srv-bad/server.env" ] || fail "server.env written for a server that did not start"
end

begin "stop of a server already gone (killed) removes its scratch directory, exit 0"
out=$("$SERVERS" start tbench --dir="$T/srv-gone" 2>&1) || fail "start tbench: $out"
p=$(server_var "$T/srv-gone" PID)
kill -KILL "$p"
for _i in $(seq 50); do [ -d "/proc/$p" ] || break; sleep 0.1; done
"$SERVERS" stop "$T/srv-gone"
expect_status $? 0
[ ! -e "$T/srv-gone" ] || fail "$T/srv-gone is still there"
end

begin "stop with a file system mounted inside the scratch directory: refused, nothing of it removed"
out=$("$SERVERS" start tbench --dir="$T/srv-mnt" 2>&1) || fail "start tbench: $out"
if mount_tmpfs "$T/srv-mnt/m" 1m; then
	echo keep >"$T/srv-mnt/m/precious"
	out=$("$SERVERS" stop "$T/srv-mnt" 2>&1); rc=$?
	expect_status $rc 1
	one_line "$out"
	expect_match "$out" "^dbench-servers: stop: $T/srv-mnt: '$T/srv-mnt/m' is mounted inside it: unmount it, then stop again"
	expect_eq "$(cat "$T/srv-mnt/m/precious" 2>&1)" keep "the file in the mounted file system"
	umount "$T/srv-mnt/m"
	"$SERVERS" stop "$T/srv-mnt"
	expect_status $? 0
	[ ! -e "$T/srv-mnt" ] || fail "$T/srv-mnt is still there after the unmount"
else
	skip_block "a tmpfs cannot be mounted here (not root?)"
	"$SERVERS" stop "$T/srv-mnt"
fi
end

begin "stop signals no process but the one it started: a pid whose start time differs is left alone"
out=$("$SERVERS" start tbench --dir="$T/srv-reuse" 2>&1) || fail "start tbench: $out"
p=$(server_var "$T/srv-reuse" PID)
# as if the server had ended and the kernel given its pid to another
# tbench_srv, started at another time
sed -i "s/^PIDS=.*/PIDS=$p:tbench_srv:1/" "$T/srv-reuse/server.env"
"$SERVERS" stop "$T/srv-reuse"
expect_status $? 0
sleep 0.5
[ -d "/proc/$p" ] || fail "the process was signalled"
[ ! -e "$T/srv-reuse" ] || fail "$T/srv-reuse is still there"
kill -TERM "$p"
end

# start_tbench NAME: a tbench server in $T/NAME (its pid in $p)
start_tbench() {
	out=$("$SERVERS" start tbench --dir="$T/$1" 2>&1) || fail "start tbench: $out"
	p=$(server_var "$T/$1" PID)
}

# refused WHAT WANT ARGS...: dbench-servers ARGS exits 2 within 20 s with
# one line matching WANT
refused() {
	_what=$1 _want=$2
	shift 2
	out=$(timeout 20 "$SERVERS" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "$_what: exit $rc, want 2 ($out)"
	one_line "$out"
	expect_match "$out" "$_want"
}

if [ "$(id -u)" -eq 0 ]; then
	begin "stop of a directory another user owns: refused, exit 2; its server.env is never run"
	# the attack: a user rewrites server.env, and root's stop used to
	# source it
	mkdir -p "$T/evil"
	printf 'KIND=tbench\nPIDS=\nid >%s/marker\n' "$T" >"$T/evil/server.env"
	chmod 600 "$T/evil/server.env"
	chown -R nobody "$T/evil"
	refused "stop" "^dbench-servers: stop: $T/evil is owned by nobody, not by you\$" stop "$T/evil"
	[ ! -e "$T/marker" ] || fail "server.env was run: $(cat "$T/marker")"
	[ -f "$T/evil/server.env" ] || fail "the directory was removed"
	refused "restart" "is owned by nobody" restart "$T/evil"
	[ ! -e "$T/marker" ] || fail "server.env was run by restart"
	# what start and restart run in the namespace takes no other
	# user's directory either (it would run ganesha from its config)
	refused "_nfs-ganesha" "^dbench-servers: _nfs-ganesha: $T/evil is owned by nobody, not by you\$" \
		_nfs-ganesha "$T/evil"
	refused "_nfs-setup" "is owned by nobody" _nfs-setup "$T/evil"
	end
else
	skip "stop of a directory another user owns" "needs root (chown)"
fi

begin "server.env holds what start wrote and nothing else: a line more is refused (FILE:LINE), never run"
start_tbench srv-inj
echo "id >$T/marker2" >>"$T/srv-inj/server.env"
refused "stop" "^dbench-servers: stop: $T/srv-inj/server.env:[0-9]+: not what dbench-servers start wrote there\$" \
	stop "$T/srv-inj"
[ ! -e "$T/marker2" ] || fail "server.env was run: $(cat "$T/marker2")"
[ -d "/proc/$p" ] || fail "the server was stopped"
sed -i '$d' "$T/srv-inj/server.env"
"$SERVERS" stop "$T/srv-inj" || fail "stop of the server.env restored: exit $?"
end

begin "server.env's values are checked, each refused before anything is signalled or removed"
start_tbench srv-val
env=$T/srv-val/server.env
cp "$env" "$T/env.saved"
for edit in "s/^KIND=.*/KIND=frob/|KIND 'frob' is no kind" \
	"s/^PORT=.*/PORT=70000/|PORT '70000' is not a port" \
	"s/^PORT=.*/PORT='1;id'/|PORT '1;id' is not a port" \
	"s/^TOKEN=.*/TOKEN=\$(id)/|TOKEN is not hexadecimal" \
	"s/^PIDS=.*/PIDS='$p:tbench_srv:1 1:rpcbind:1'/|names more than tbench_srv" \
	"s/^PIDS=.*/PIDS=$p:smbd:1/|is not PID:tbench_srv:START" \
	"s/^PID=.*/PID=1/|server.env:[0-9]+: not what" \
	"s#^OUT=.*#OUT=/etc/passwd#|server.env:[0-9]+: not what" \
	"s/^URL=.*/URL=127.0.0.1:1/|server.env:[0-9]+: not what" \
	"\$a HOME=/|server.env:[0-9]+: not what"; do
	sed "${edit%%|*}" "$T/env.saved" >"$env.new" && chmod 600 "$env.new" && mv "$env.new" "$env"
	refused "stop with '${edit%%|*}'" "${edit#*|}" stop "$T/srv-val"
	[ -d "/proc/$p" ] || fail "'${edit%%|*}': the server was stopped"
	[ -d "$T/srv-val" ] || fail "'${edit%%|*}': the directory was removed"
done
cp "$T/env.saved" "$env"
"$SERVERS" stop "$T/srv-val" || fail "stop of the server.env restored: exit $?"
end

begin "server.env that is no regular file of the user's, mode 600: refused, exit 2, no wait"
start_tbench srv-env
env=$T/srv-env/server.env
cp "$env" "$T/env.copy"
chmod 640 "$env"
refused "mode 640" "server.env has mode 640, not 600\$" stop "$T/srv-env"
chmod 660 "$env"
refused "mode 660" "server.env has mode 660, not 600\$" stop "$T/srv-env"
chmod 600 "$env"
mv "$env" "$T/env.real" && ln -s "$T/env.real" "$env"
refused "a symbolic link" "server.env is a symbolic link\$" stop "$T/srv-env"
rm "$env" && mkfifo -m 600 "$env"
refused "a FIFO" "server.env is not a regular file\$" stop "$T/srv-env"
rm "$env" && ln "$T/env.real" "$env"
refused "a hard link" "server.env has 2 links\$" stop "$T/srv-env"
rm "$env" && cp "$T/env.copy" "$env" && chmod 600 "$env"
if [ "$(id -u)" -eq 0 ]; then
	chown nobody "$env"
	refused "owned by nobody" "server.env is owned by nobody, not by you\$" stop "$T/srv-env"
	chown root "$env"
fi
[ -d "/proc/$p" ] || fail "the server was stopped"
"$SERVERS" stop "$T/srv-env" || fail "stop of the server.env restored: exit $?"
[ ! -d "/proc/$p" ] || [ "$(sed 's/.*) //' "/proc/$p/stat" | cut -c1)" = Z ] || fail "the server is still there"
end

begin "a scratch directory another user could change: stop refuses it, exit 2, leaves it"
start_tbench srv-dir
chmod 777 "$T/srv-dir"
refused "mode 777" "^dbench-servers: stop: $T/srv-dir is writable by anyone \\(mode 777\\)\$" stop "$T/srv-dir"
chmod 700 "$T/srv-dir"
ln -s "$T/srv-dir" "$T/srv-link"
refused "a symbolic link" "^dbench-servers: stop: $T/srv-link is a symbolic link" stop "$T/srv-link"
[ -f "$T/srv-dir/server.env" ] || fail "stop through the link removed the files"
if [ "$(id -u)" -eq 0 ]; then
	chgrp nogroup "$T/srv-dir" && chmod 770 "$T/srv-dir"
	refused "group-writable" "srv-dir is writable by group nogroup, which has other members" \
		stop "$T/srv-dir"
	chgrp root "$T/srv-dir" && chmod 700 "$T/srv-dir"
	# a directory above it that another user owns could swap it
	mkdir -m 755 "$T/nob" && chown nobody "$T/nob" && mv "$T/srv-dir" "$T/nob/srv-dir"
	refused "beneath nobody's" "^dbench-servers: stop: $T/nob is owned by nobody, not by root or you: another user could replace $T/nob/srv-dir\$" \
		stop "$T/nob/srv-dir"
	mv "$T/nob/srv-dir" "$T/srv-dir"
fi
[ -d "/proc/$p" ] || fail "the server was stopped"
"$SERVERS" stop "$T/srv-dir" || fail "stop: exit $?"
[ -L "$T/srv-link" ] || fail "the link was removed"
end

begin "start --dir: a symbolic link, or a directory another user owns or can write, is refused before anything starts"
mkdir -p "$T/target"
ln -s "$T/target" "$T/dirlink"
refused "a link" "^dbench-servers: --dir=$T/dirlink: $T/dirlink is a symbolic link" \
	start tbench --dir="$T/dirlink"
mkdir -m 777 "$T/open"
refused "mode 777" "^dbench-servers: --dir=$T/open: $T/open is writable by anyone \\(mode 777\\)\$" \
	start tbench --dir="$T/open"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 700 "$T/nobodys" && chown nobody "$T/nobodys"
	refused "nobody's" "$T/nobodys is owned by nobody, not by you\$" start tbench --dir="$T/nobodys"
	mkdir -m 770 "$T/grp" && chgrp nogroup "$T/grp"
	refused "group-writable" "$T/grp is writable by group nogroup, which has other members" \
		start tbench --dir="$T/grp"
	# a world-writable sticky directory (as /tmp) that another user owns:
	# that user may rename what anyone makes in it
	mkdir -m 1777 "$T/sticky" && chown nobody "$T/sticky"
	refused "beneath a sticky directory of nobody's" \
		"^dbench-servers: --dir=$T/sticky/srv: $T/sticky is owned by nobody, not by root or you: another user could replace $T/sticky/srv\$" \
		start tbench --dir="$T/sticky/srv"
	[ ! -e "$T/sticky/srv" ] || fail "$T/sticky/srv was made"
fi
expect_eq "$(ls -A "$T/target")$(ls -A "$T/open")" "" "what start left in them"
end

begin "start --dir of a new name makes it, and the directories above it, mode 700"
out=$("$SERVERS" start tbench --dir="$T/new/srv" 2>&1) || fail "start: $out"
expect_eq "$(stat -c %a "$T/new" "$T/new/srv" | tr '\n' ' ')" "700 700 " "modes"
expect_eq "$(stat -c %a "$T/new/srv/server.env" "$T/new/srv/log/stdout" | tr '\n' ' ')" "600 600 " \
	"modes of server.env and the log"
"$SERVERS" stop "$T/new/srv" || fail "stop: exit $?"
end

begin "stop signals no process it did not start: another tbench_srv's pid and start time in server.env"
start_tbench srv-other
# a tbench_srv of someone else's, started by hand
setsid "$(dirname "$DBENCH")/tbench_srv" --listen 127.0.0.1 --port 0 </dev/null >/dev/null 2>&1 &
other=$!
for _i in $(seq 50); do [ "$(cat "/proc/$other/comm" 2>/dev/null)" = tbench_srv ] && break; sleep 0.1; done
st=$(sed 's/.*) //' "/proc/$other/stat" | awk '{ print $20 }')
sed -i "s/^PID=.*/PID=$other/; s/^PIDS=.*/PIDS=$other:tbench_srv:$st/" "$T/srv-other/server.env"
"$SERVERS" stop "$T/srv-other"
expect_status $? 0
sleep 0.5
[ -d "/proc/$other" ] || fail "the other tbench_srv was signalled"
kill -TERM "$other" "$p" 2>/dev/null
end

begin "a tbench_srv another user could have written is not run: exit 2"
mkdir -m 777 "$T/bin"
cp "$(dirname "$DBENCH")/tbench_srv" "$T/bin/tbench_srv"
out=$(DBENCH=$T/bin/dbench "$SERVERS" start tbench --dir="$T/srv-bin" 2>&1)
expect_status $? 2
one_line "$out"
expect_match "$out" "^dbench-servers: tbench_srv: $T/bin is writable by anyone \\(mode 777\\): another user could replace $T/bin/tbench_srv\$"
[ ! -e "$T/srv-bin" ] || fail "$T/srv-bin was made"
end

if command -v setfacl >/dev/null; then
	begin "an ACL that lets another user write the scratch directory, or one above it: refused"
	mkdir "$T/acl" && setfacl -m u:nobody:rwx "$T/acl"
	refused "--dir" "^dbench-servers: --dir=$T/acl: $T/acl has an ACL that lets user nobody write it\$" \
		start tbench --dir="$T/acl"
	refused "a new name beneath" "$T/acl has an ACL that lets user nobody write it: another user could replace $T/acl/srv\$" \
		start tbench --dir="$T/acl/srv"
	setfacl -b "$T/acl" && setfacl -m g:nogroup:rwx "$T/acl"
	refused "a group's" "$T/acl has an ACL that lets group nogroup write it\$" start tbench --dir="$T/acl"
	# read and search for another user, or write masked out: no writer
	setfacl -b "$T/acl" && setfacl -m u:nobody:r-x "$T/acl"
	out=$("$SERVERS" start tbench --dir="$T/acl" 2>&1) || fail "an ACL that lets nobody read: $out"
	"$SERVERS" stop "$T/acl" || fail "stop: exit $?"
	start_tbench srv-acl
	setfacl -m u:nobody:rwx "$T/srv-acl"
	refused "stop" "^dbench-servers: stop: $T/srv-acl has an ACL that lets user nobody write it\$" stop "$T/srv-acl"
	setfacl -b "$T/srv-acl"
	"$SERVERS" stop "$T/srv-acl" || fail "stop: exit $?"
	end
else
	skip "ACLs" "no setfacl (apt-get install acl)"
fi

if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	begin "stop never removes a tgtd control socket that is not the start's (the machine's is socket.0)"
	start_tbench srv-ctl
	tok=$(server_var "$T/srv-ctl" TOKEN)
	cp "$T/srv-ctl/server.env" "$T/ctl.saved"
	# what start would write for an iscsi server on port 10000, whose
	# control socket would be socket.0
	printf '%s\n' KIND=iscsi "TOKEN=$tok" "PID=$p" "PIDS=$p:tgtd:1" PORT=10000 \
		"URL=iscsi://127.0.0.1:10000/iqn.2024-01.org.samba.dbench:test" \
		IQN=iqn.2024-01.org.samba.dbench:test CTL=0 "LOG=$T/srv-ctl/log/tgtd" \
		>"$T/srv-ctl/server.env"
	# in a mount namespace of its own, over a /run of its own
	out=$(unshare -m sh -c 'mount -t tmpfs tmpfs /run && mkdir /run/tgtd &&
		touch /run/tgtd/socket.0 /run/tgtd/socket.0.lock &&
		"$1" stop "$2" 2>&1; echo "rc=$?"; ls /run/tgtd' sh "$SERVERS" "$T/srv-ctl")
	expect_match "$out" "^dbench-servers: stop: $T/srv-ctl/server.env: PORT 10000 is not one start picks for tgtd \\(20000 to 39999\\)\$"
	expect_match "$out" '^rc=2$'
	expect_match "$out" '^socket\.0$'
	[ -d "$T/srv-ctl" ] || fail "the directory was removed"
	cp "$T/ctl.saved" "$T/srv-ctl/server.env"
	"$SERVERS" stop "$T/srv-ctl" || fail "stop: exit $?"
	end
else
	skip "a tgtd control socket not the start's" "needs root and unshare -m"
fi

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	begin "run by another user than root: its own directory serves, root's is refused"
	S=$(mktemp -d /tmp/dbench-servers-user.XXXXXX)
	chmod 755 "$S" && mkdir -m 700 "$S/n" && chown nobody "$S/n"
	as_nobody() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/ "$SERVERS" "$@"
	}
	out=$(as_nobody start tbench --dir="$S/n/srv" 2>&1) || fail "start as nobody: $out"
	expect_eq "$(stat -c '%U %a' "$S/n/srv" "$S/n/srv/server.env" | tr '\n' ' ')" \
		"nobody 700 nobody 600 " "owner and mode of the directory and server.env"
	np=$(server_var "$S/n/srv" PID)
	# root's server is not nobody's to stop, nor nobody's root's
	mkdir -m 755 "$S/r"
	out=$("$SERVERS" start tbench --dir="$S/r/srv-root" 2>&1) || fail "start: $out"
	p=$(server_var "$S/r/srv-root" PID)
	out=$(as_nobody stop "$S/r/srv-root" 2>&1)
	expect_status $? 2
	expect_eq "$out" "dbench-servers: stop: $S/r/srv-root is owned by root, not by you"
	refused "root stopping nobody's" "^dbench-servers: stop: $S/n/srv is owned by nobody, not by you\$" \
		stop "$S/n/srv"
	[ -d "/proc/$p" ] && [ -d "/proc/$np" ] || fail "a server was stopped"
	out=$(as_nobody stop "$S/n/srv" 2>&1) || fail "stop as nobody: $out"
	"$SERVERS" stop "$S/r/srv-root" || fail "stop of root's: exit $?"
	# what a failed stop above left running goes with the directory
	[ ! -e "$S/n/srv" ] || kill -TERM "$np"
	[ ! -e "$S/r/srv-root" ] || kill -TERM "$p"
	rm -rf "$S"
	end
else
	skip "run by another user than root" "needs root and setpriv"
fi

finish
