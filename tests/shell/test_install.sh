# test_install.sh - make install into a DESTDIR puts the programs (dbench,
# tbench, tbench_srv, dbench-servers), the backends' modules, manual pages
# and loadfiles where the installed dbench looks for them, relative to
# itself, without relinking the tree's binary, and make uninstall removes
# exactly what install put and the directories it made.
#
# It installs the binary under test as built (the same object directory),
# never rebuilding it beneath the other tests: nothing is installed when
# make says the build is not up to date.
# check-quick: installs and uninstalls; its one run fails before any client starts
. "$TOP/tests/shell/lib.sh"
# The smb module's connection that fails leaks what Samba's debug log keeps
# (lsan-samba.supp): under LeakSanitizer that alone would turn exit 2 into 1.
export LSAN_OPTIONS="suppressions=$TOP/tests/shell/lsan-samba.supp:fast_unwind_on_malloc=0:print_suppressions=0"

if [ "$DBENCH" = "$TOP/dbench" ]; then
	O=build
else
	O=${DBENCH%/dbench}
	O=${O#"$TOP"/}
fi
bins="$(dirname "$DBENCH")/dbench $(dirname "$DBENCH")/tbench_srv"
bins="$bins $TOP/$O/modules/smb.so $TOP/$O/modules/nfs.so $TOP/$O/modules/iscsi.so"
# no PREFIX is built into the binary: any will do
prefix=/opt/dbench-test
datadir=$prefix/share/dbench
D=$T/root
mk() { make -s -C "$TOP" O="$O" PREFIX="$prefix" DESTDIR="$D" "$@"; }

if ! mk -q $bins 2>/dev/null; then
	echo "# skipped: the build in $O is not up to date, and this test does not rebuild it"
	finish
	exit
fi

begin "make install puts the programs, the manual pages and every loadfile, nothing else"
mkdir -p "$D$prefix/bin"
echo mine >"$D$prefix/bin/other-program"	# someone else's, kept by uninstall
before=$(cd "$D" && find . -type d | sort)	# the directories that were there
tree=$(stat -c '%Y %i %s' "$DBENCH")
# under a umask that lets a group write: what install makes must still be
# what the loader takes (no module where others could write)
(umask 002 && mk install) >"$T/install.out" 2>&1 || fail "make install: $(tail -n 3 "$T/install.out")"
want=$( { printf '%s\n' "bin/dbench" "bin/tbench" "bin/tbench_srv" "bin/dbench-servers" \
		"bin/other-program" "share/dbench/installed-dirs" \
		"lib/dbench/smb.so" "lib/dbench/nfs.so" "lib/dbench/iscsi.so"
	  # every page of man/, each in its section's directory, and
	  # dbench-convert(1), a link to dbench-record(1)
	  for f in "$TOP"/man/*.[15]; do echo "share/man/man${f##*.}/$(basename "$f")"; done
	  echo "share/man/man1/dbench-convert.1"
	  # the bpf tracer's module, where this machine could build it
	  [ ! -f "$TOP/$O/modules/record_bpf.so" ] || echo "lib/dbench/record_bpf.so"
	  for f in "$TOP"/loadfiles/*; do echo "share/dbench/$(basename "$f")"; done; } | sort)
got=$(cd "$D$prefix" && find . ! -type d | sed 's|^\./||' | sort)
expect_eq "$got" "$want" "files installed"
expect_eq "$(stat -c %i "$D$prefix/bin/tbench")" "$(stat -c %i "$D$prefix/bin/dbench")" \
	"tbench is a link to dbench"
expect_eq "$(cmp "$D$prefix/share/dbench/default.txt" "$TOP/loadfiles/default.txt" && echo same)" same \
	"default.txt"
# man finds a command's page and a format's by their names
expect_eq "$(readlink "$D$prefix/share/man/man1/dbench-convert.1")" "dbench-record.1" "dbench-convert.1"
if command -v man >/dev/null; then
	# SECTION NAME FILE: man -w SECTION NAME finds FILE (dbench-convert's
	# link, the page it links to)
	while read -r sec name file; do
		expect_eq "$(MANPATH="$D$prefix/share/man" man -w "$sec" "$name" 2>&1)" \
			"$D$prefix/share/man/man$sec/$file" "man -w $sec $name"
	done <<-EOF
	1 dbench-record dbench-record.1
	1 dbench-convert dbench-record.1
	1 dbench-ab dbench-ab.1
	1 dbench-compare dbench-compare.1
	5 dbench-loadfile dbench-loadfile.5
	5 dbench-json dbench-json.5
	EOF
fi
# the tree's binary, copied as it is: not relinked with the PREFIX in it
expect_eq "$(stat -c '%Y %i %s' "$DBENCH")" "$tree" "the tree's binary (mtime, inode, size)"
expect_eq "$(cmp "$DBENCH" "$D$prefix/bin/dbench" && echo same)" same "the installed binary"
end

begin "make install for another PREFIX builds and links nothing (make -n)"
plan=$(make -n -C "$TOP" O="$O" PREFIX="$T/elsewhere" install 2>&1)
expect_no_match "$plan" '(cc|gcc|clang) .* -o '
expect_match "$plan" "install -m 755 .*dbench $T/elsewhere/bin/dbench"
end

begin "outside the source tree, -c NAME finds the installed loadfile in its PREFIX (default.txt, build)"
# found from the installed binary's own path: in DESTDIR, where a package
# would be unpacked, with nothing in the environment
out=$(cd / && env -u DBENCH_LOADFILE_DIR "$D$prefix/bin/dbench" --check-loadfile -c default.txt)
expect_match "$out" "^loadfile $D$datadir/default\\.txt\$"
expect_eq "$(printf '%s\n' "$out" | sed -n 's/^sha256 //p')" \
	"$("$DBENCH" --check-loadfile | sed -n 's/^sha256 //p')" "the built-in loadfile's text"
out=$(cd / && env -u DBENCH_LOADFILE_DIR "$D$prefix/bin/dbench" --check-loadfile -c build)
expect_match "$out" "^loadfile $D$datadir/build\\.load\$"
# DBENCH_LOADFILE_DIR names another
mkdir -p "$T/mine" && cp "$TOP/loadfiles/build.load" "$T/mine/mybuild.load"
out=$(cd / && DBENCH_LOADFILE_DIR="$T/mine" "$D$prefix/bin/dbench" --check-loadfile -c mybuild)
expect_match "$out" "^loadfile $T/mine/mybuild\\.load\$"
# a name found nowhere says where it was looked for
err=$(cd / && env -u DBENCH_LOADFILE_DIR "$D$prefix/bin/dbench" -c nosuch 1 2>&1); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot open loadfile 'nosuch': No such file or directory (nor is it, with or without .load or .txt, among the loadfiles in $D$datadir)"
# and the tree's binary still finds the tree's own
out=$(cd / && env -u DBENCH_LOADFILE_DIR "$DBENCH" --check-loadfile -c sqlite)
expect_match "$out" "^loadfile $TOP/loadfiles/sqlite\\.load\$"
end

begin "the installed dbench loads a backend's module from PREFIX/lib/dbench"
# Port 1 of loopback: nothing answers there, so the run stops with exit 2
# having loaded the module (the connection's error, not the module's).
smb() { (cd / && env -u DBENCH_MODULE_DIR "$D$prefix/bin/dbench" --backend=smb \
	--smb-share=//127.0.0.1:1/share --smb-user=u%p -t 1 1 2>&1); }
err=$(smb); rc=$?
expect_status $rc 2
expect_no_match "$err" "cannot load"
expect_match "$err" "127\.0\.0\.1"
mv "$D$prefix/lib/dbench/smb.so" "$T/smb.so"
err=$(smb); rc=$?
expect_status $rc 2
expect_eq "$err" "dbench: cannot load the smb backend: $D$prefix/lib/dbench/smb.so: No such file or directory"
mv "$T/smb.so" "$D$prefix/lib/dbench/smb.so"
end

begin "the installed dbench-servers names the installed programs in the command line it prints"
out=$(cd / && env -u DBENCH "$D$prefix/bin/dbench-servers" start tbench --dir="$T/srv" 2>&1)
expect_status $? 0
expect_match "$out" "^  $D$prefix/bin/tbench --port=[0-9]+ "
expect_match "$out" "^  $D$prefix/bin/dbench-servers stop $T/srv\$"
"$D$prefix/bin/dbench-servers" stop "$T/srv" || fail "stop: exit $?"
end

begin "make uninstall removes exactly what make install put"
echo mine >"$D$datadir/my-own.load"	# the user's own loadfile stays, and its directory
mk uninstall >"$T/uninstall.out" 2>&1 || fail "make uninstall: $(tail -n 3 "$T/uninstall.out")"
got=$(cd "$D$prefix" && find . ! -type d | sed 's|^\./||' | sort | tr '\n' ' ')
# the list of the directories install made that are still there (share,
# share/dbench) stays with them
expect_eq "$got" "bin/other-program share/dbench/installed-dirs share/dbench/my-own.load " "files left"
rm "$D$datadir/my-own.load"
mk uninstall >"$T/uninstall.out" 2>&1 || fail "make uninstall again: $(tail -n 3 "$T/uninstall.out")"
expect_eq "$([ -e "$D$datadir" ] && echo there)" "" "share/dbench, left empty"
expect_eq "$([ -e "$D$prefix/lib/dbench" ] && echo there)" "" "lib/dbench, left empty"
expect_eq "$(cd "$D$prefix" && find . ! -type d | tr '\n' ' ')" "./bin/other-program " "files left"
# the directories install made (lib, share/man/man1 ...) are gone, and
# those that were there (bin, with someone else's program) stay
expect_eq "$(cd "$D" && find . -type d | sort | tr '\n' ' ')" "$(printf '%s\n' "$before" | tr '\n' ' ')" \
	"directories left"
# into a PREFIX that did not exist, uninstall leaves nothing of it
make -s -C "$TOP" O="$O" PREFIX="$T/fresh/usr" install >"$T/fresh.out" 2>&1 ||
	fail "make install: $(tail -n 3 "$T/fresh.out")"
make -s -C "$TOP" O="$O" PREFIX="$T/fresh/usr" uninstall >"$T/fresh.out" 2>&1 ||
	fail "make uninstall: $(tail -n 3 "$T/fresh.out")"
expect_eq "$([ -e "$T/fresh" ] && find "$T/fresh" | tr '\n' ' ')" "" "left of a fresh PREFIX"
end

finish
