# test_paths.sh - every option that names a path, given what it should
# not be: a character device (a stand-in made with mknod, root; /dev/zero's
# numbers, which never ends), a FIFO nobody writes, a socket, a symbolic
# link loop, a dangling link, a directory.  Each is refused in bounded
# time (no hang, no endless read) with exit status 2 and a line naming
# what the path is.  Outputs (--json ...) have test_outfile.sh.
. "$TOP/tests/shell/lib.sh"
# in a sanitizer build: what Samba's debug library keeps is its own
export LSAN_OPTIONS="suppressions=$TOP/tests/shell/lsan-samba.supp:fast_unwind_on_malloc=0:print_suppressions=0"
mkdir -p "$T/p" "$T/d"
cd "$T/p" || exit 1
mkfifo fifo
ln -s loopb loopa && ln -s loopa loopb
ln -s nowhere dangling
mkdir dir
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => "sock", Listen => 1) or exit 1'
zero=
mknod -m 666 zero c 1 5 2>/dev/null && zero=zero	# root only

# refused WHAT WANT CMD...: CMD exits 2 within 20 s (a FIFO's wait is 10 s)
# and its message holds WANT.
refused() {
	_what=$1 _want=$2
	shift 2
	_out=$(timeout 20 "$@" 2>&1); _rc=$?
	[ "$_rc" = 124 ] && { fail "$_what: still running after 20 s"; return; }
	[ "$_rc" = 2 ] || fail "$_what: exit status $_rc, want 2 ($_out)"
	printf '%s\n' "$_out" | grep -qF -- "$_want" || fail "$_what: '$_out' lacks '$_want'"
}

begin "-c LOADFILE: a device, FIFO, socket, loop, dangling link or directory is named for what it is"
[ -n "$zero" ] && refused "-c zero" "'zero': a character device, not a regular file or a pipe" \
	"$DBENCH" --check-loadfile -c zero
refused "-c fifo" "'fifo': a pipe with nothing written to it within 10 s" "$DBENCH" --check-loadfile -c fifo
refused "-c sock" "'sock': a socket, not a regular file or a pipe" "$DBENCH" --check-loadfile -c sock
refused "-c loopa" "'loopa': Too many levels of symbolic links" "$DBENCH" --check-loadfile -c loopa
refused "-c dangling" "'dangling': No such file or directory" "$DBENCH" --check-loadfile -c dangling
refused "-c dir" "'dir': Is a directory" "$DBENCH" --check-loadfile -c dir
end

SMB="env USER=u $DBENCH --backend=smb --smb-share=//127.0.0.1:1/s"

begin "--smb-credentials: a device is never read without end, a FIFO never waited on forever"
[ -n "$zero" ] && refused "zero" "'zero': a character device, not a regular file or a pipe" $SMB --smb-credentials=zero 1
refused "fifo" "'fifo': a pipe with nothing written to it within 10 s" $SMB --smb-credentials=fifo 1
refused "sock" "'sock': a socket, not a regular file or a pipe" $SMB --smb-credentials=sock 1
refused "loopa" "'loopa': Too many levels of symbolic links" $SMB --smb-credentials=loopa 1
refused "dir" "'dir': Is a directory" $SMB --smb-credentials=dir 1
head -c 100000 /dev/zero | tr '\0' a >long
refused "a line of 100000 bytes" "long:1: a line longer than 4096 bytes" $SMB --smb-credentials=long 1
end

begin "--smb-credentials from a pipe (/dev/stdin) is read"
out=$(printf 'username = bob\npassword = pw\n' | $SMB --smb-credentials=/dev/stdin 1 2>&1); rc=$?
expect_status $rc 2
expect_match "$out" "//127.0.0.1:1/s: cannot connect: Connection refused"
end

begin "convert TRACE: a device, FIFO, socket, loop or directory is named, never read"
[ -n "$zero" ] && refused "zero" "'zero': a character device, not a regular file" \
	"$DBENCH" convert -o "$T/out.load" zero
refused "fifo" "'fifo': a pipe, not a regular file" "$DBENCH" convert -o "$T/out.load" fifo
refused "sock" "'sock': a socket, not a regular file" "$DBENCH" convert -o "$T/out.load" sock
refused "loopa" "'loopa': Too many levels of symbolic links" "$DBENCH" convert -o "$T/out.load" loopa
refused "dir" "'dir': Is a directory" "$DBENCH" convert -o "$T/out.load" dir
[ -e "$T/out.load" ] && fail "a loadfile was written"
end

begin "--probe=DIR and -D DIR: what is no directory is refused before the run"
for k in fifo sock loopa dangling; do
	refused "--probe=$k" "cannot use probe directory '$k'" "$DBENCH" -t 1 -D "$T/d" --probe=$k 1
	refused "-D $k" "'$k'" "$DBENCH" -t 1 -D $k 1
done
[ -e "$T/d/clients" ] && fail "the target was touched"
end

# compare's documents: a FIFO nobody wrote made it wait forever, and a
# device was read as though it were a document ('not JSON: ... near end of
# file' for /dev/zero, without end for a device that keeps giving bytes)
begin "compare DOC: a device, FIFO, socket, loop, dangling link or directory is named for what it is"
"$DBENCH" -B null -t 1 --warmup 0 -D "$T/d" --json="$T/a.json" 1 >/dev/null 2>&1 ||
	fail "the run for a document failed"
[ -n "$zero" ] && refused "zero" "'zero': a character device, not a regular file or a pipe" \
	"$DBENCH" compare "$T/a.json" zero
refused "fifo" "'fifo': a pipe with nothing written to it within 10 s" "$DBENCH" compare "$T/a.json" fifo
refused "sock" "'sock': a socket, not a regular file or a pipe" "$DBENCH" compare "$T/a.json" sock
refused "loopa" "'loopa': Too many levels of symbolic links" "$DBENCH" compare "$T/a.json" loopa
refused "dangling" "'dangling': No such file or directory" "$DBENCH" compare "$T/a.json" dangling
refused "dir" "'dir': Is a directory" "$DBENCH" compare "$T/a.json" dir
end

begin "compare DOC from a pipe (/dev/stdin) is read"
out=$("$DBENCH" compare "$T/a.json" /dev/stdin <"$T/a.json" 2>&1); rc=$?
expect_status $rc 0
expect_match "$out" "^Throughput, MB/sec"
end

finish
