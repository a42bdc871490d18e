# tests/shell/lib_corpus.sh - a corpus of real programs as users run them,
# with small inputs, for test_corpus.sh (recorded, compiled, replayed)
# and bench/record-fidelity (what recording costs, how true a replay is).
# Sourced; needs only a POSIX shell.
#
#   corpus_names                 the programs, one word each
#   corpus_tools NAME            the commands NAME needs (to skip it where
#                                one is missing)
#   corpus_inputs WORK           make the inputs every program reads, once
#   corpus_prepare NAME DIR WORK a fresh DIR holding NAME's own inputs
#   corpus_cmd NAME WORK         NAME's command, a shell command run in DIR
#
# Each program works beneath its DIR only, and reads outside it only its
# inputs in WORK (an archive, a repository) and the system's files.

corpus_names() {
	echo tarx tarc cpio cpa rsync gitclone gitcommit gitgc make sqlite compileall \
	     findgrep sort gzip xz dpkgdeb sedi editor
}

corpus_tools() {
	case $1 in
	tarx|tarc) echo tar ;;
	cpio) echo cpio ;;
	cpa) echo cp ;;
	rsync) echo rsync ;;
	gitclone|gitcommit|gitgc) echo git ;;
	make) echo make cc ;;
	sqlite) echo sqlite3 ;;
	compileall|editor) echo python3 ;;
	findgrep) echo find xargs grep ;;
	sort) echo sort ;;
	gzip) echo gzip ;;
	xz) echo xz ;;
	dpkgdeb) echo dpkg-deb ;;
	sedi) echo sed ;;
	esac
}

# corpus_tree DIR: 120 files of 1 to 30 kB in 12 directories, a link.
corpus_tree() {
	mkdir -p "$1"
	for d in 1 2 3 4 5 6 7 8 9 10 11 12; do
		mkdir -p "$1/d$d/sub"
		for f in 1 2 3 4 5 6 7 8 9 10; do
			head -c $(((d * 10 + f) * 211 % 30000 + 1000)) /dev/urandom >"$1/d$d/f$f"
		done
		echo "needle $d" >"$1/d$d/sub/note.txt"
	done
	ln -s d1/f1 "$1/link"
}

corpus_inputs() {
	_w=$1
	mkdir -p "$_w"
	corpus_tree "$_w/tree"
	# archives of the tree's contents, made the usual way (-C DIR .)
	if command -v tar >/dev/null; then tar cf "$_w/tree.tar" -C "$_w/tree" .; fi
	if command -v cpio >/dev/null; then (cd "$_w/tree" && find . | cpio -o --quiet >"$_w/tree.cpio"); fi
	if command -v git >/dev/null; then
		git init -q "$_w/repo"
		cp -a "$_w/tree/d1" "$_w/tree/d2" "$_w/repo/"
		git -C "$_w/repo" add -A
		git -C "$_w/repo" -c user.name=c -c user.email=c@example.org commit -qm one
	fi
	# a small C project
	mkdir -p "$_w/cproj"
	for i in 1 2 3 4; do
		printf 'int f%d(int x) { return x * %d + %d; }\n' $i $i $i >"$_w/cproj/f$i.c"
	done
	printf 'int f1(int), f2(int), f3(int), f4(int);\nint main(void) { return f1(1) + f2(2) + f3(3) + f4(4) == 0; }\n' \
		>"$_w/cproj/main.c"
	printf 'OBJS = main.o f1.o f2.o f3.o f4.o\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n' >"$_w/cproj/Makefile"
	# SQL of 40 transactions, WAL mode
	{
		echo "pragma journal_mode=wal;"
		echo "create table t(id integer primary key, k integer, v text);"
		for i in $(seq 40); do
			echo "begin;"
			for j in 1 2 3 4 5; do echo "insert into t(k, v) values ($i$j, 'value $i $j');"; done
			echo "commit;"
		done
	} >"$_w/db.sql"
	# a Python package
	mkdir -p "$_w/pkg/sub"
	for i in $(seq 12); do
		printf 'def f%d(x):\n    return [x * i for i in range(%d)]\n' "$i" "$i" >"$_w/pkg/m$i.py"
	done
	: >"$_w/pkg/__init__.py" && : >"$_w/pkg/sub/__init__.py"
	# 600 kB of lines to sort, more than a 64 kB buffer
	seq 60000 | awk '{ print ($1 * 7919) % 60000, "line", $1 }' >"$_w/lines.txt"
	# a Debian package
	if command -v dpkg-deb >/dev/null; then
		mkdir -p "$_w/deb/DEBIAN" "$_w/deb/usr/share/corpus"
		printf 'Package: corpus\nVersion: 1\nArchitecture: all\nMaintainer: c <c@example.org>\nDescription: c\n' \
			>"$_w/deb/DEBIAN/control"
		cp -a "$_w/tree/d3" "$_w/tree/d4" "$_w/deb/usr/share/corpus/"
		dpkg-deb --build -Zgzip "$_w/deb" "$_w/corpus.deb" >/dev/null
	fi
}

corpus_prepare() {
	rm -rf "$2"
	mkdir -p "$2"
	case $1 in
	tarc|cpa|rsync|findgrep) cp -a "$3/tree" "$2/tree" ;;
	gitcommit|gitgc) git clone -q "$3/repo" "$2/repo" && cp -a "$3/tree/d5" "$2/repo/" ;;
	make) cp -a "$3/cproj/." "$2/" ;;
	compileall) cp -a "$3/pkg" "$2/pkg" ;;
	sort|gzip|xz|sedi|editor) cp "$3/lines.txt" "$2/lines.txt" ;;
	esac
	if [ "$1" = gitgc ]; then
		(cd "$2/repo" && git add -A && git -c user.name=c -c user.email=c@example.org commit -qm two)
	fi
}

corpus_cmd() {
	_w=$2
	case $1 in
	tarx) echo "tar xf $_w/tree.tar" ;;
	tarc) echo "tar cf out.tar tree" ;;
	cpio) echo "cpio -id --quiet < $_w/tree.cpio" ;;
	cpa) echo "cp -a tree copy" ;;
	rsync) echo "rsync -a tree/ copy/" ;;
	gitclone) echo "git clone -q --no-hardlinks $_w/repo clone" ;;
	gitcommit) echo "cd repo && git add -A && git -c user.name=c -c user.email=c@example.org commit -qm two" ;;
	gitgc) echo "cd repo && git gc -q" ;;
	make) echo "make -s -j2" ;;
	sqlite) echo "sqlite3 t.db < $_w/db.sql > /dev/null" ;;
	compileall) echo "python3 -m compileall -q pkg" ;;
	findgrep) echo "find tree -type f | xargs grep -l needle > /dev/null" ;;
	sort) echo "mkdir tmp && sort -S 64K -T tmp -o sorted.txt lines.txt" ;;
	gzip) echo "gzip -k lines.txt" ;;
	xz) echo "xz -k -T1 lines.txt" ;;
	dpkgdeb) echo "dpkg-deb -x $_w/corpus.deb out" ;;
	sedi) echo "sed -i s/line/LINE/ lines.txt" ;;
	editor) echo "python3 -c 'import os
d = open(\"lines.txt\").read().replace(\"line 7\", \"edited 7\")
with open(\".lines.txt.swp\", \"w\") as f:
    f.write(d); f.flush(); os.fsync(f.fileno())
os.rename(\".lines.txt.swp\", \"lines.txt\")'" ;;
	esac
}
