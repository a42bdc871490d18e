# test_modules.sh - the smb, nfs and iscsi backends are modules that a run
# loads only when it selects one: a run of another backend maps none of
# their libraries, the build tree's modules are found with no setup, and a
# module that is missing or broken stops the run before any client starts
# with one line naming the file and exit 2.  A module is opened only from
# where no one but root and the user can write (the file, each directory
# and link on its path), and only when it was built for this binary's
# interface (its note), the symbol the table the binary takes; else one
# line, exit 2, and nothing of the module has run.  (The backends
# themselves are tested against their servers by test_smb, test_nfs and
# test_iscsi.)
# check-quick: one run stopped as soon as its clients exist; errors before any start
. "$TOP/tests/shell/lib.sh"

NETLIBS='libsmbclient|libnfs|libiscsi|libgnutls|libicu'
# The sanitizer build links libsmbclient's stack in (the Makefile says why).
if grep -q '__asan_init' "$DBENCH"; then
	NETLIBS='libnfs|libiscsi'
fi

# The directory the binary loads its modules from, and the object
# directory (the note every module is linked with, base/modnote.o).
modules=$(cd / && env -u DBENCH_MODULE_DIR strace -f -e trace=openat "$DBENCH" --check-loadfile \
	--backend=iscsi 2>&1 | sed -n 's/.*openat([^"]*"\([^"]*\)\/iscsi\.so".*/\1/p' | head -n 1)
OBJ=$(dirname "$modules")

# evil_module FILE SYMBOL: a module defining SYMBOL (one byte) whose
# constructor writes the user it ran as into $T/marker
evil_module() {
	printf '%s\n' '#include <stdio.h>' '#include <unistd.h>' \
		'__attribute__((constructor)) static void evil(void)' \
		"{ FILE *f = fopen(\"$T/marker\", \"w\"); if (f) { fprintf(f, \"uid=%d\\n\", (int)geteuid()); fclose(f); } }" \
		"const char $2[1] = { 0 };" >"$T/evil.c"
	cc -shared -fPIC -o "$1" "$T/evil.c" "$OBJ/base/modnote.o"
}

# refused DIR WANT: a run of the nfs backend with DBENCH_MODULE_DIR=DIR
# stops before any client with one line, exit 2, the message WANT
# (after "cannot load the nfs backend: "), and no constructor ran
refused() {
	rm -f "$T/marker"
	err=$(DBENCH_MODULE_DIR="$1" "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
	expect_status $? 2
	expect_eq "$err" "dbench: cannot load the nfs backend: $2"
	[ ! -e "$T/marker" ] || fail "the module's constructor ran: $(cat "$T/marker")"
}
ONLY="a module is loaded only from where no one but root and you can write"

begin "a fileio run maps none of the network backends' libraries"
mkdir -p "$T/dir"
"$DBENCH" -q -t 30 -D "$T/dir" 1 >"$T/run.out" 2>&1 &
pid=$!
# the maps once the run's clients exist (the parent has set up by then)
i=0
while [ $i -lt 600 ] && ! pgrep -P $pid >/dev/null; do sleep 0.1; i=$((i + 1)); done
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
	expect_eq "$err" "dbench: cannot load the $b backend: $T/empty/$b.so: No such file or directory"
done
err=$(DBENCH_MODULE_DIR="$T/empty" "$DBENCH" --check-loadfile --backend=nfs 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: cannot load the nfs backend: $T/empty/nfs.so: No such file or directory"
end

begin "a broken module: not a shared object, or one without the backend"
mkdir -p "$T/broken"
echo "not a module" >"$T/broken/nfs.so"
err=$(DBENCH_MODULE_DIR="$T/broken" "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
expect_status $? 2
expect_match "$err" "^dbench: cannot load the nfs backend: $T/broken/nfs\\.so: "
expect_eq "$(printf '%s\n' "$err" | wc -l)" 1 "lines"
# the iscsi module where the smb one should be: it defines iscsi_module
expect_match "$modules" '^/'
cp "$modules/iscsi.so" "$T/broken/smb.so"
err=$(DBENCH_MODULE_DIR="$T/broken" "$DBENCH" --backend=smb --smb-share=//127.0.0.1/s -t 1 1 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: cannot load the smb backend: $T/broken/smb.so: undefined symbol: smb_module"
end

begin "a module where anyone may write is never opened, directly, through a link or a relative path"
mkdir -m 777 "$T/open"
evil_module "$T/open/nfs.so" nfs_module
refused "$T/open" "$T/open/nfs.so: $T/open is writable by anyone (mode 777): $ONLY"
ln -s open "$T/link"
refused "$T/link" "$T/link/nfs.so: $T/open is writable by anyone (mode 777): $ONLY"
(cd "$T" && refused open "open/nfs.so: $T/open is writable by anyone (mode 777): $ONLY"; echo "$_why" >"$T/why")
[ -z "$(cat "$T/why")" ] || fail "$(cat "$T/why")"
# the file itself
mkdir -p "$T/mine" && evil_module "$T/mine/nfs.so" nfs_module && chmod 666 "$T/mine/nfs.so"
refused "$T/mine" "$T/mine/nfs.so: $T/mine/nfs.so is writable by anyone (mode 666): $ONLY"
end

if [ "$(id -u)" -eq 0 ]; then
	begin "a module owned by another user, or on a path another user owns or a group of others may write, is never opened"
	mkdir -p "$T/own" && evil_module "$T/own/nfs.so" nfs_module && chown nobody "$T/own/nfs.so"
	refused "$T/own" "$T/own/nfs.so: $T/own/nfs.so is owned by nobody, not by root or you: $ONLY"
	chown root "$T/own/nfs.so" && chgrp nogroup "$T/own/nfs.so" && chmod 664 "$T/own/nfs.so"
	refused "$T/own" "$T/own/nfs.so: $T/own/nfs.so is writable by group nogroup, which has other members (mode 664): $ONLY"
	chgrp root "$T/own/nfs.so" && chmod 644 "$T/own/nfs.so"
	# a directory on the way, group-writable by a group with others in it
	mkdir -m 775 "$T/grp" && chgrp nogroup "$T/grp" && mkdir "$T/grp/mods"
	cp "$modules/nfs.so" "$T/grp/mods/nfs.so"
	refused "$T/grp/mods" "$T/grp/mods/nfs.so: $T/grp is writable by group nogroup, which has other members (mode 775): $ONLY"
	# a directory of another user's on the way
	mkdir -m 755 "$T/nob" && chown nobody "$T/nob" && mkdir "$T/nob/mods"
	cp "$modules/nfs.so" "$T/nob/mods/nfs.so"
	refused "$T/nob/mods" "$T/nob/mods/nfs.so: $T/nob is owned by nobody, not by root or you: $ONLY"
	# a link of another user's, to a directory that passes
	mkdir -p "$T/good" && cp "$modules/nfs.so" "$T/good/nfs.so"
	ln -s "$T/good" "$T/nlink" && chown -h nobody "$T/nlink"
	refused "$T/nlink" "$T/nlink/nfs.so: the symbolic link $T/nlink is owned by nobody, not by root or you: $ONLY"
	out=$(DBENCH_MODULE_DIR="$T/good" "$DBENCH" --check-loadfile --backend=nfs 2>&1)
	expect_status $? 0
	# the issue's: build/modules beside a binary copied to a sticky
	# directory anyone may write (as /tmp), made there by another user
	rel=${modules#"$(dirname "$DBENCH")"/}
	mkdir -m 1777 "$T/tmp" && cp "$DBENCH" "$T/tmp/dbench"
	mkdir -p "$T/tmp/$rel" && evil_module "$T/tmp/$rel/nfs.so" nfs_module
	top=$T/tmp/${rel%%/*}
	chown -R nobody "$top"
	rm -f "$T/marker"
	err=$(cd / && env -u DBENCH_MODULE_DIR "$T/tmp/dbench" --check-loadfile --backend=nfs 2>&1)
	expect_status $? 2
	expect_eq "$err" "dbench: cannot load the nfs backend: $T/tmp/$rel/nfs.so: $top is owned by nobody, not by root or you: $ONLY"
	[ ! -e "$T/marker" ] || fail "the module's constructor ran: $(cat "$T/marker")"
	end
else
	skip "modules owned by another user" "needs root (chown)"
fi

begin "a module of another build, or of none: one line naming the file and both versions, exit 2, nothing of it run"
want=$(strings -n 8 "$modules/nfs.so" | grep -m 1 '^ABI [0-9]*, interface [0-9a-f]*$')
expect_match "$want" '^ABI [0-9]+, interface [0-9a-f]{16}$'
mkdir -p "$T/stale"
perl -0777 -pe 's/(ABI \d+, interface )[0-9a-f]{16}/${1}0000000000000000/' "$modules/nfs.so" \
	>"$T/stale/nfs.so"
refused "$T/stale" "$T/stale/nfs.so: a module of another build, ${want%,*}, interface 0000000000000000; this dbench takes $want (rebuild or reinstall it)"
# the right symbol with another layout and no note: it used to crash
printf 'const unsigned char nfs_module[4096] = { [0 ... 4095] = 0xff };\n' >"$T/layout.c"
mkdir -p "$T/layout" && cc -shared -fPIC -o "$T/layout/nfs.so" "$T/layout.c"
refused "$T/layout" "$T/layout/nfs.so: no dbench module version in it (a module of an older dbench, or none of dbench's); this dbench takes $want"
# truncated
mkdir -p "$T/short" && head -c 1000 "$modules/nfs.so" >"$T/short/nfs.so"
refused "$T/short" "$T/short/nfs.so: a truncated ELF file"
head -c 20 "$modules/nfs.so" >"$T/short/nfs.so"
refused "$T/short" "$T/short/nfs.so: not an ELF shared object of this machine's"
end

begin "a module whose symbol is no table (a function, an int): refused, exit 2"
mkdir -p "$T/fn"
printf 'int nfs_module(void) { return 0; }\n' >"$T/fn.c"
cc -shared -fPIC -o "$T/fn/nfs.so" "$T/fn.c" "$OBJ/base/modnote.o"
refused "$T/fn" "$T/fn/nfs.so: nfs_module is a function, not the data dbench takes"
printf 'const int nfs_module = 1;\n' >"$T/int.c"
cc -shared -fPIC -o "$T/fn/nfs.so" "$T/int.c" "$OBJ/base/modnote.o"
err=$(DBENCH_MODULE_DIR="$T/fn" "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
expect_status $? 2
expect_match "$err" "^dbench: cannot load the nfs backend: $T/fn/nfs\\.so: nfs_module is 4 bytes, where this dbench takes [0-9]+\$"
end

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	begin "a set-uid dbench takes no module directory from its caller's environment"
	# a copy of the binary beside its modules, where nobody can reach it
	S=$(mktemp -d /tmp/dbench-suid.XXXXXX)
	chmod 755 "$S"
	rel=${modules#"$(dirname "$DBENCH")"/}
	cp "$DBENCH" "$S/dbench" && mkdir -p "$S/$rel" "$S/caller" &&
		cp "$modules"/*.so "$S/$rel/" && cp "$modules/iscsi.so" "$S/caller/nfs.so"
	as_nobody() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			env DBENCH_MODULE_DIR="$S/caller" "$S/dbench" --check-loadfile --backend=nfs 2>&1
	}
	# not set-uid: the caller's directory is the one read
	err=$(as_nobody)
	expect_eq "$err" "dbench: cannot load the nfs backend: $S/caller/nfs.so: undefined symbol: nfs_module"
	chmod 4755 "$S/dbench"
	if [ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$S/dbench" --version >/dev/null 2>&1; echo $?)" -ne 0 ]; then
		echo "# a set-uid copy does not run here (nosuid?)"
	else
		out=$(as_nobody)
		expect_status $? 0
		expect_match "$out" '^loadfile \(built-in\)$'
	fi
	rm -rf "$S"
	end
else
	skip "a set-uid dbench and DBENCH_MODULE_DIR" "needs root and setpriv"
fi

begin "a FIFO where the module should be: refused at once, no wait for a writer"
mkdir -p "$T/fifo" && mkfifo "$T/fifo/nfs.so"
rm -f "$T/marker"
err=$(DBENCH_MODULE_DIR="$T/fifo" timeout 20 "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
expect_status $? 2
expect_eq "$err" "dbench: cannot load the nfs backend: $T/fifo/nfs.so: $T/fifo/nfs.so is not a regular file"
end

if command -v setfacl >/dev/null; then
	begin "an ACL that lets another user write the module or a directory on its way: never opened"
	mkdir -p "$T/acl/mods" && evil_module "$T/acl/mods/nfs.so" nfs_module
	setfacl -m u:nobody:rwx "$T/acl"
	refused "$T/acl/mods" "$T/acl/mods/nfs.so: $T/acl has an ACL that lets user nobody write it: $ONLY"
	setfacl -b "$T/acl" && setfacl -m g:nogroup:rw "$T/acl/mods/nfs.so"
	refused "$T/acl/mods" "$T/acl/mods/nfs.so: $T/acl/mods/nfs.so has an ACL that lets group nogroup write it: $ONLY"
	# the mask lets no write through: nobody can write it
	setfacl -m m::r "$T/acl/mods/nfs.so" && setfacl -m u:nobody:rwx "$T/acl"
	setfacl -m m::r-x "$T/acl"
	err=$(DBENCH_MODULE_DIR="$T/acl/mods" "$DBENCH" --backend=nfs --nfs=nfs://127.0.0.1/e -t 1 1 2>&1)
	expect_no_match "$err" "ACL"
	end
else
	skip "ACLs on a module's path" "no setfacl (apt-get install acl)"
fi

finish
