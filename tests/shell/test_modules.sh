# test_modules.sh - the smb, nfs and iscsi backends are modules that a run
# loads only when it selects one: a run of another backend maps none of
# their libraries, the build tree's modules are found with no setup, and a
# module that is missing or broken stops the run before any client starts
# with one line naming the file and exit 2.  (The backends themselves are
# tested against their servers by test_smb, test_nfs and test_iscsi.)
. "$TOP/tests/shell/lib.sh"

NETLIBS='libsmbclient|libnfs|libiscsi|libgnutls|libicu'
# The sanitizer build links libsmbclient's stack in (the Makefile says why).
if grep -q '__asan_init' "$DBENCH"; then
	NETLIBS='libnfs|libiscsi'
fi

begin "a fileio run maps none of the network backends' libraries"
mkdir -p "$T/dir"
"$DBENCH" -q -t 30 -D "$T/dir" 1 >"$T/run.out" 2>&1 &
pid=$!
# the maps once the run's clients exist (the parent has set up by then)
i=0
while [ $i -lt 100 ] && ! pgrep -P $pid >/dev/null; do sleep 0.1; i=$((i + 1)); done
maps=$(cat /proc/$pid/maps 2>/dev/null)
kill -INT $pid
wait $pid
expect_match "$maps" 'dbench'
expect_no_match "$maps" "$NETLIBS"
expect_no_match "$(ldd "$DBENCH")" "$NETLIBS"
end

begin "the build tree's modules are found from any directory with no setup"
for b in smb nfs iscsi; do
	out=$(cd / && env -u DBENCH_MODULE_DIR "$DBENCH" --check-loadfile --backend=$b 2>&1)
	expect_status $? 0
	expect_match "$out" '^loadfile \(built-in\)$'
done
end

begin "--help and option checks need no module"
mkdir -p "$T/empty"
out=$(DBENCH_MODULE_DIR="$T/empty" "$DBENCH" --help 2>&1)
expect_status $? 0
expect_match "$out" '--smb-share=SHARE'
expect_match "$out" '--nfs=URL'
expect_match "$out" '--iscsi=URL'
err=$(DBENCH_MODULE_DIR="$T/empty" "$DBENCH" --smb-share=//127.0.0.1/s 1 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: --smb-share goes with --backend=smb"
end

begin "a missing module: one line naming the file, exit 2, before any client starts"
for b in smb nfs iscsi; do
	case $b in
	smb) arg=--smb-share=//127.0.0.1/s ;;
	nfs) arg=--nfs=nfs://127.0.0.1/e ;;
	iscsi) arg=--iscsi=iscsi://127.0.0.1/iqn.2000-01.x:t/0 ;;
	esac
	err=$(DBENCH_MODULE_DIR="$T/empty" "$DBENCH" --backend=$b $arg -t 1 1 2>&1)
	expect_status $? 2
	expect_eq "$err" "dbench: cannot load the $b backend: $T/empty/$b.so: cannot open shared object file: No such file or directory"
done
err=$(DBENCH_MODULE_DIR="$T/empty" "$DBENCH" --check-loadfile --backend=nfs 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: cannot load the nfs backend: $T/empty/nfs.so: cannot open shared object file: No such file or directory"
end

begin "a broken module: not a shared object, or one without the backend"
mkdir -p "$T/broken"
echo "not a module" >"$T/broken/nfs.so"
err=$(DBENCH_MODULE_DIR="$T/broken" "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
expect_status $? 2
expect_match "$err" "^dbench: cannot load the nfs backend: $T/broken/nfs\\.so: "
expect_eq "$(printf '%s\n' "$err" | wc -l)" 1 "lines"
# the iscsi module where the smb one should be: it defines iscsi_module
modules=$(cd / && env -u DBENCH_MODULE_DIR strace -f -e trace=openat "$DBENCH" --check-loadfile \
	--backend=iscsi 2>&1 | sed -n 's/.*openat([^"]*"\([^"]*\)\/iscsi\.so".*/\1/p' | head -n 1)
expect_match "$modules" '^/'
cp "$modules/iscsi.so" "$T/broken/smb.so"
err=$(DBENCH_MODULE_DIR="$T/broken" "$DBENCH" --backend=smb --smb-share=//127.0.0.1/s -t 1 1 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: cannot load the smb backend: $T/broken/smb.so: undefined symbol: smb_module"
end

finish
