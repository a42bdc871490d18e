# test_messages.sh - errors that name the true cause, against peers that
# are no servers of the protocol: a listener on 127.0.0.1 (perl, one
# process a connection) that answers an HTTP error, closes at once, or
# says nothing.  The nfs backend reaches it through the URL's nfsport= and
# mountport=, the smb backend through the share's port; and tbench's -T
# with a number too large.
. "$TOP/tests/shell/lib.sh"
# in a sanitizer build: what Samba's debug library keeps is its own
export LSAN_OPTIONS="suppressions=$TOP/tests/shell/lsan-samba.supp:fast_unwind_on_malloc=0:print_suppressions=0"

# listen PORTFILE MODE: a peer in the background on a free port (written
# to PORTFILE), for ten minutes at most (it is killed at the end).  MODE:
# http (answers an HTTP error to whatever comes), close (reads, then
# closes), silent (holds it open).  dbench's look at a peer that is no
# SMB server waits 2 s for its answer, and a busy machine took longer to
# run a process forked for the connection ("no answer within 2 s" from
# the peer that closes, beside another test): the one process takes
# every connection in turn, none forked, at a priority that other work
# cannot crowd out.
listen() {
	nice -n -10 perl -MIO::Socket::INET -e '
		my ($file, $mode) = @ARGV;
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0,
					      Listen => 8, ReuseAddr => 1) or die "listen: $!";
		open(my $f, ">", "$file.tmp"); print $f $s->sockport, "\n"; close $f;
		rename("$file.tmp", $file);
		alarm 600;
		my @held;
		while (my $c = $s->accept) {
			sysread($c, my $b, 4096) unless $mode eq "silent";
			syswrite($c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
				if $mode eq "http";
			if ($mode eq "close") { close($c) } else { push(@held, $c) }
		}' "$1" "$2" &
	PEERS="$PEERS $!"
	wait_for_line "$1" '^[0-9]+$' || echo "# the $2 peer never said its port"
}
PEERS=
listen "$T/http.port" http
listen "$T/close.port" close
listen "$T/silent.port" silent
HTTP=$(cat "$T/http.port") CLOSE=$(cat "$T/close.port") SILENT=$(cat "$T/silent.port")

nfs_at() {
	"$DBENCH" --backend=nfs --nfs="nfs://127.0.0.1/export?nfsport=$1&mountport=$1" 1 2>&1
}

begin "an NFS peer that answers garbage is named for it, not 'nfs_service failed'"
out=$(nfs_at "$HTTP"); rc=$?
expect_status $rc 2
expect_match "$out" "^dbench: cannot mount 'nfs://127.0.0.1/export\?nfsport=$HTTP&mountport=$HTTP': Incoming PDU exceeds limit of [0-9]+ bytes. \(what the server sent is no NFS reply\)\$"
end

begin "an NFS peer that closes the connection, or refuses it, is named for what it did"
out=$(nfs_at "$CLOSE"); rc=$?
expect_status $rc 2
expect_match "$out" ": the server closed the connection\$"
out=$(nfs_at 1); rc=$?
expect_status $rc 2
expect_match "$out" ": Connection refused\$"
end

smb_at() {
	USER=u PASSWD=p "$DBENCH" --backend=smb --smb-timeout=2 --smb-share="//127.0.0.1:$1/s" 1 2>&1
}

begin "an SMB peer that answers garbage at once is named for it, not 'Connection timed out'"
out=$(smb_at "$HTTP"); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: //127.0.0.1:$HTTP/s: cannot connect: the server answered with something other than SMB (its first bytes: 48 54 54 50 2f 31 2e 31 'HTTP/1.1')"
end

begin "an SMB peer that closes at once, or says nothing, is named for what it did"
out=$(smb_at "$CLOSE"); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: //127.0.0.1:$CLOSE/s: cannot connect: the server closed the connection without answering an SMB negotiation"
out=$(smb_at "$SILENT"); rc=$?
expect_status $rc 2
expect_eq "$out" "dbench: //127.0.0.1:$SILENT/s: cannot connect: the server accepted the connection but sent no answer within 2 s"
end

begin "-T with a whole number too large says it is too large"
out=$("$(dirname "$DBENCH")/tbench" -T SO_RCVTIMEO=99999999999 1 127.0.0.1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "tbench: socket option 'SO_RCVTIMEO=99999999999' is too large: at most 2147483647"
out=$("$(dirname "$DBENCH")/tbench" -T SO_RCVTIMEO=-5 1 127.0.0.1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$out" "tbench: socket option 'SO_RCVTIMEO=-5' needs a whole number from 0 to 2147483647 after '='"
end

kill $PEERS 2>/dev/null
finish
