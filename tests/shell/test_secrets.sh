# test_secrets.sh - no password in any message, and ps shows one mask
# whatever the password's length (secret.h): an abbreviated or misspelt
# --smb-user, smbclient's -U, a user:password@ in an SMB or NFS URL, a
# credentials file's lines, and the process's own command line while it
# runs.  No server is needed: a listener on 127.0.0.1 that never answers
# holds the smb backend's logon for --smb-timeout.
. "$TOP/tests/shell/lib.sh"
PW=Sekr1tPassw0rd

# no_password FILE...: none of them holds the password
no_password() {
	grep -l -- "$PW" "$@" >/dev/null 2>&1 && fail "the password is in: $(grep -h -- "$PW" "$@")"
	return 0
}

begin "an unknown option's value is never shown: --smb-us=, --smb-usr=, -U, in a run, ab and tune"
"$DBENCH" --smb-us="root%$PW" 1 >"$T/out" 2>"$T/err"; rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "^dbench: --smb-us: unknown option"
# a misspelling with no 'user' left in it: nothing says a password is there
"$DBENCH" --smb-usr="bob%$PW" 1 >>"$T/out" 2>>"$T/err"
"$DBENCH" ab --smb-usr="bob%$PW" --b=-F 1 >>"$T/out" 2>>"$T/err"
"$DBENCH" tune --smb-usr="bob%$PW" --set opt=-S 1 >>"$T/out" 2>>"$T/err"
"$DBENCH" -Zbob%"$PW" 1 >>"$T/out" 2>>"$T/err"
expect_eq "$(grep -c '^dbench: --smb-usr: unknown option; did you mean --smb-user?' "$T/err")" 3 \
	"lines naming --smb-usr alone"
expect_match "$(cat "$T/err")" "^dbench: -Z: unknown option"
no_password "$T/out" "$T/err"
end

begin "a misspelt --smbuser, its value as the next word, and smbclient's -U: masked"
"$DBENCH" --smbuser="root%$PW" 1 >"$T/out" 2>"$T/err"; rc=$?
expect_status $rc 2
"$DBENCH" -U "bob%$PW" 1 >>"$T/out" 2>>"$T/err"
"$DBENCH" compare --smb-user="bob%$PW" a b >>"$T/out" 2>>"$T/err"
"$(dirname "$DBENCH")/tbench_srv" --smb-user="bob%$PW" >>"$T/out" 2>>"$T/err"
expect_match "$(cat "$T/err")" "^dbench: --smbuser: unknown option"
expect_match "$(cat "$T/err")" "smb-user(=bob%\*\*\*)?: unknown option"
no_password "$T/out" "$T/err"
end

begin "a //USER:PASSWORD@HOST/SHARE URL is refused with its password masked"
USER=bob PASSWD=x "$DBENCH" --backend=smb --smb-share="//bob:$PW@host/share" 1 \
	>"$T/out" 2>"$T/err"; rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "'//bob:\*\*\*@host/share': a user in the share's name"
USER=bob PASSWD=x "$DBENCH" --backend=smb --smb-share="//bob:$PW@host:99999/share" 1 \
	>>"$T/out" 2>>"$T/err"
no_password "$T/out" "$T/err"
end

begin "an nfs://USER:PASSWORD@HOST URL is refused before libnfs sees it, masked"
"$DBENCH" --backend=nfs --nfs="nfs://bob:$PW@127.0.0.1/export" 1 >"$T/out" 2>"$T/err"; rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "^dbench: --nfs 'nfs://bob:\*\*\*@127.0.0.1/export': a password in the URL"
"$DBENCH" --backend=nfs --nfs="nfs://bob:$PW@127.0.0.1/export,," 1 >>"$T/out" 2>>"$T/err"
no_password "$T/out" "$T/err"
end

begin "a credentials file's lines are never echoed, the bad one named by its number"
printf 'username = bob\npasswrd = %s\n' "$PW" >"$T/auth"
"$DBENCH" --backend=smb --smb-share=//127.0.0.1/s --smb-credentials="$T/auth" 1 \
	>"$T/out" 2>"$T/err"; rc=$?
expect_status $rc 2
expect_match "$(cat "$T/err")" "auth:2: not 'username = ...'"
no_password "$T/out" "$T/err"
end

# A listener that accepts and never answers, for as long as a test needs
# (it is killed at the end), listening before the first run starts.
port=$(free_port)
perl -MIO::Socket::INET -e '
	my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $ARGV[0],
				      Listen => 8, ReuseAddr => 1) or exit 1;
	alarm 600; my @c; while (my $c = $s->accept) { push @c, $c }' "$port" &
listener=$!
i=0
while ! port_listening "$port" && kill -0 "$listener" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done

# ps_of PASSWORD: what ps and /proc/PID/cmdline show of a run logging on
# with it, while it waits for the silent server: once the mask is there
# (argv is masked as the program starts, before anything reads it; a
# busy machine may take seconds to get there).  Then the run is killed:
# a signal does not cut its wait for the logon short (--smb-timeout).
ps_of() {
	USER=x "$DBENCH" --backend=smb --smb-timeout=60 --smb-user="bob%$1" \
		--smb-share="//127.0.0.1:$port/s" 1 >/dev/null 2>&1 &
	_pid=$!
	wait_for_line "/proc/$_pid/cmdline" 'bob%\*\*\*' || fail "no mask in its command line"
	ps -o args= -p "$_pid" >"$T/ps.$2"
	tr '\0' '|' <"/proc/$_pid/cmdline" >"$T/cmdline.$2"
	kill -KILL "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
}

begin "ps and /proc/PID/cmdline show one mask whatever the password's length"
ps_of "$PW" long
ps_of "p4ss" short
expect_match "$(cat "$T/ps.long")" "--smb-user=bob%\*\*\* --smb-share=//127.0.0.1:$port/s 1\$"
expect_eq "$(cat "$T/ps.long")" "$(cat "$T/ps.short")" "ps of a long and a short password"
expect_eq "$(cat "$T/cmdline.long")" "$(cat "$T/cmdline.short")" \
	"/proc/PID/cmdline of a long and a short password"
no_password "$T/ps.long" "$T/cmdline.long"
end

kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
finish
