# Makefile - builds ./dbench, runs every test, installs.
#
#   make                 build ./dbench, ./tbench (a link to it), ./tbench_srv and the
#                        smb, nfs and iscsi backends' modules (build/modules)
#   make check           build and run the unit and shell tests, three at a time
#                        (TEST_JOBS=N; TESTS="unit shell/test_cli.sh" runs those)
#   make check-quick     the unit tests and the shell tests that make no timed
#                        runs (a line "# check-quick: ..." in the test): the
#                        edit-test loop, under 2 minutes on two cores
#   make check-sanitize  the same suite with ASan + UBSan, in build/san
#   make analyze         compile every source with gcc's -fanalyzer, in
#                        build/analyze (a warning is an error)
#   make coverage        the suite (or TESTS) built with gcov, in build/cov,
#                        and the share of src/'s lines it ran
#   make fuzz            fuzz the loadfile compiler, the strace line parser and
#                        the run document reader (clang + libFuzzer) for
#                        FUZZ_SECONDS (default 60, all at once; 0 only replays
#                        their corpora)
#   make install         PREFIX=/usr/local DESTDIR= (binaries, backend modules, man pages,
#                        loadfiles)
#   make uninstall       the same PREFIX and DESTDIR: removes what install put
#   make loadfile        regenerate loadfiles/default.txt from tools/genload.c
#   make deps            install the Debian packages the build and tests need
#
# MPI=1 builds for runs across machines under mpirun (with mpicc); it is
# the default where mpicc is found, and MPI=0 builds without it.

PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
MODDIR   = $(PREFIX)/lib/dbench
MANDIR   = $(PREFIX)/share/man/man1
MAN5DIR  = $(PREFIX)/share/man/man5
DATADIR  = $(PREFIX)/share/dbench

CC      ?= cc
CFLAGS  ?= -O2 -g
MPI     ?= $(if $(shell command -v mpicc 2>/dev/null),1,0)
ifeq ($(MPI),1)
CC       = mpicc
NOT_BUILT = src/run/cluster_alone.c
else
NOT_BUILT = src/run/cluster_mpi.c
endif
# The binary's libraries; those of the backends built as modules (below)
# are the modules' own, mapped only by a run that uses them.
PKGS     = popt talloc zlib jansson nettle gsl
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) smbclient tevent libnfs libiscsi)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Wall -Wextra -Werror $(CFLAGS) \
             $(SAN_CFLAGS) $(PKG_CFLAGS)
LDLIBS     = $(PKG_LIBS) -lm

# O is the object directory; the sanitizer build uses its own.
O ?= build
ifeq ($(O),build)
BIN = dbench
else
BIN = $(O)/dbench
endif
# tbench is dbench entered under that name (main.c then runs the sockio
# backend): a hard link beside it.  tbench_srv, the server of tbench's
# protocol, is a program of its own.
TBENCH     = $(dir $(BIN))tbench
TBENCH_SRV = $(dir $(BIN))tbench_srv
NET_OBJS   = $(patsubst src/%.c,$(O)/%.o,$(wildcard src/net/*.c))

# The pipeline, a folder a layer: base (clock, exit codes), load (loadfile
# to program), net (TCP plumbing, tbench's messages), proto (what speaks a
# protocol and knows no backend: NFSv3 calls, SCSI commands, SMB's
# arguments and names), backends (performing operations), stats (shared-memory figures), run (plan, driver, clients),
# schema (the JSON documents' key table), host (the machine: environment,
# block devices' counters, load), report (result, text, JSON), analysis
# (what reads saved documents: compare, plot, rundoc), series (what runs
# the driver again and again: sweep, ab, tune),
# record (a program's file traffic, through strace, into a loadfile).
#
# The smb, nfs and iscsi backends are modules, NAME.so, which the binary
# loads when a run selects one (src/backends/modules.c): their sources are
# not in LIB_SRCS.  The binary exports to them what they call of it
# (modules.dynlist, made from the objects' symbols).  They are found in
# MOD_DIR, relative to the binary as MOD_REL says, or where make install
# puts them, MODDIR.
MOD_DIR    = $(O)/modules
MOD_REL    = $(patsubst $(dir $(BIN))%,%,$(MOD_DIR))
SMB_SRCS   = src/backends/smb.c src/proto/smb_probe.c
NFS_SRCS   = src/backends/nfs.c src/backends/nfs_dbench4.c src/backends/nfs_dialect.c \
             src/backends/nfs_handles.c src/backends/nfs_mount.c src/backends/nfs_names.c \
             src/backends/nfs_path4.c src/backends/nfs_sys.c src/backends/nfs_target.c \
             src/proto/nfs3.c
ISCSI_SRCS = src/backends/iscsi.c
MOD_OBJS   = $(patsubst src/%.c,$(O)/%.o,$(SMB_SRCS) $(NFS_SRCS) $(ISCSI_SRCS))
MODULES    = $(MOD_DIR)/smb.so $(MOD_DIR)/nfs.so $(MOD_DIR)/iscsi.so

# The bpf tracer of dbench record: its kernel side (record.bpf.c) built
# by clang against this kernel's BTF (vmlinux.h, made in $(O)/bpf at
# build time and never kept), embedded as bpftool's skeleton in the
# module record_bpf.so, linked with libbpf, which the binary loads only
# for a recording with that tracer.  Where BTF, bpftool, clang or libbpf
# is missing the module is left out, and --tracer=bpf says why.
BPFTOOL    := $(shell PATH="$$PATH:/usr/sbin:/sbin" command -v bpftool 2>/dev/null)
BPF_CLANG  := $(shell command -v clang 2>/dev/null)
BPF_ARCH   := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' \
                                   -e 's/s390x/s390/' -e 's/riscv64/riscv/')
BPF_MISSING := $(strip $(if $(wildcard /sys/kernel/btf/vmlinux),,no /sys/kernel/btf/vmlinux) \
                 $(if $(BPFTOOL),,no bpftool) $(if $(BPF_CLANG),,no clang) \
                 $(if $(shell pkg-config --exists libbpf && echo y),,no libbpf))
BPF_MOD_OBJ = $(O)/record/bpf/module.o
ifeq ($(BPF_MISSING),)
MODULES   += $(MOD_DIR)/record_bpf.so
else
$(O)/record/tracer_bpf.o: ALL_CFLAGS += -DDBENCH_BPF_MISSING='"$(BPF_MISSING)"'
endif
LIB_SRCS = $(filter-out $(SMB_SRCS) $(NFS_SRCS) $(ISCSI_SRCS) $(NOT_BUILT), \
             $(wildcard src/base/*.c src/load/*.c src/net/*.c src/proto/*.c src/backends/*.c \
                        src/stats/*.c src/schema/*.c src/host/*.c src/run/*.c src/report/*.c \
                        src/analysis/*.c src/series/*.c src/record/*.c))
HEADERS  = $(wildcard include/*.h src/*.h src/*/*.h src/*/*/*.h)
# The interface between the binary and its modules (include/modload.h): a
# hash of the headers they compile against, which every module carries in
# a note (src/base/modnote.c, linked into each) and the binary checks
# before it loads one, so that a module of another build is refused.
IFACE_HASH := $(shell cat $(sort $(HEADERS)) | sha256sum | cut -c1-16)
MOD_NOTE   = $(O)/base/modnote.o
$(O)/base/modload.o $(MOD_NOTE): ALL_CFLAGS += -DDBENCH_IFACE_HASH='"$(IFACE_HASH)"'
LIB_OBJS = $(LIB_SRCS:src/%.c=$(O)/%.o) $(O)/load/default_loadfile.o
MAIN_OBJ = $(O)/main.o $(O)/commands.o $(O)/cli.o $(O)/cli_ab.o $(O)/cli_series.o $(O)/cli_tune.o

UNIT_TESTS = $(patsubst tests/unit/%.c,$(O)/tests/%,$(wildcard tests/unit/test_*.c))

# Debian packages for building (first line) and for the tests (second).
DEB_BUILD = build-essential pkg-config libpopt-dev libtalloc-dev zlib1g-dev libjansson-dev nettle-dev \
            libsmbclient-dev libtevent-dev libnfs-dev libiscsi-dev libgsl-dev libbpf-dev bpftool clang
DEB_TEST  = libcmocka-dev dbench groff-base man-db strace util-linux jq valgrind clang time libxml2-utils \
            libclang-rt-14-dev e2fsprogs openmpi-bin libopenmpi-dev samba smbclient samba-testsuite iproute2 procps \
            nfs-ganesha nfs-ganesha-vfs rpcbind gdb git sqlite3 fio tgt \
            rsync cpio xz-utils python3 dpkg acl stress-ng

.PHONY: all check check-quick check-sanitize objects analyze coverage fuzz install uninstall \
	loadfile clean deps

all: $(BIN) $(TBENCH) $(TBENCH_SRV) $(MODULES)

# Under LeakSanitizer, libsmbclient's stack loaded by dlopen() after the
# start crashes the leak check's tracer at the exit ("Tracer caught signal
# 11"): the sanitizer build links it into the binary too, loaded at the
# start (smb.so is still what a run of the smb backend loads).
ifneq ($(SAN_CFLAGS),)
SAN_LDLIBS = -Wl,--no-as-needed $(shell pkg-config --libs smbclient tevent)
endif

$(BIN): $(LIB_OBJS) $(MAIN_OBJ) $(O)/modules.dynlist
	$(CC) $(ALL_CFLAGS) -Wl,-z,now -Wl,--dynamic-list=$(O)/modules.dynlist -o $@ \
		$(LIB_OBJS) $(MAIN_OBJ) $(LDLIBS) $(SAN_LDLIBS)

# What the modules call of the binary: the symbols they leave undefined
# that its objects define.
$(O)/modules.dynlist: $(MOD_OBJS) $(LIB_OBJS) $(MAIN_OBJ)
	{ nm -u $(MOD_OBJS) | awk 'NF == 2 { print "U", $$2 }'; \
	  nm -g --defined-only $(LIB_OBJS) $(MAIN_OBJ) | awk 'NF == 3 { print "D", $$3 }'; } | \
	awk '$$1 == "U" { u[$$2] = 1 } $$1 == "D" { d[$$2] = 1 } \
	     END { for (s in u) if (s in d) print "\t" s ";" }' | sort >$@.tmp
	{ echo '{'; cat $@.tmp; echo '};'; } >$@ && rm -f $@.tmp

# A module: position-independent objects, linked with its own libraries
# (--as-needed: not MPI's, which mpicc adds to every link).
$(MOD_OBJS): ALL_CFLAGS += -fPIC
MOD_LDFLAGS = -shared -Wl,-z,now -Wl,--as-needed
$(MOD_DIR)/smb.so: $(patsubst src/%.c,$(O)/%.o,$(SMB_SRCS)) $(MOD_NOTE)
	@mkdir -p $(MOD_DIR)
	$(CC) $(ALL_CFLAGS) $(MOD_LDFLAGS) -o $@ $^ $(shell pkg-config --libs smbclient tevent talloc)
$(MOD_DIR)/nfs.so: $(patsubst src/%.c,$(O)/%.o,$(NFS_SRCS)) $(MOD_NOTE)
	@mkdir -p $(MOD_DIR)
	$(CC) $(ALL_CFLAGS) $(MOD_LDFLAGS) -o $@ $^ $(shell pkg-config --libs libnfs talloc)
$(MOD_DIR)/iscsi.so: $(patsubst src/%.c,$(O)/%.o,$(ISCSI_SRCS)) $(MOD_NOTE)
	@mkdir -p $(MOD_DIR)
	$(CC) $(ALL_CFLAGS) $(MOD_LDFLAGS) -o $@ $^ $(shell pkg-config --libs libiscsi talloc)
$(O)/bpf/vmlinux.h: | $(O)
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c >$@.tmp && mv $@.tmp $@
$(O)/bpf/record.bpf.o: src/record/bpf/record.bpf.c src/record/bpf/events.h $(O)/bpf/vmlinux.h
	$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I$(O)/bpf -c -o $@ $<
$(O)/bpf/record.skel.h: $(O)/bpf/record.bpf.o
	$(BPFTOOL) gen object $(O)/bpf/record.lo $< && \
		$(BPFTOOL) gen skeleton $(O)/bpf/record.lo name record_bpf >$@.tmp && mv $@.tmp $@
# The kernel's BTF cut to what the program's CO-RE relocations use
# (bpftool gen min_core_btf: a few hundred bytes), embedded in the module
# with the identity of the kernel it was cut from (release, version, BTF
# size): a recording on that kernel needs not read and parse the kernel's
# 5 MB; on another the module lets libbpf read the kernel's own.
$(O)/bpf/record.btf.h: $(O)/bpf/record.skel.h
	$(BPFTOOL) gen min_core_btf /sys/kernel/btf/vmlinux $(O)/bpf/record.min.btf $(O)/bpf/record.lo && \
	{ printf 'static const char record_btf_release[] = "%s";\n' "$$(uname -r | sed 's/["\\]/\\&/g')"; \
	  printf 'static const char record_btf_version[] = "%s";\n' "$$(uname -v | sed 's/["\\]/\\&/g')"; \
	  printf 'static const long long record_btf_kernel_size = %s;\n' "$$(stat -c %s /sys/kernel/btf/vmlinux)"; \
	  printf 'static const unsigned char record_btf[] = {\n'; \
	  od -An -v -tx1 $(O)/bpf/record.min.btf | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  printf '};\n'; } >$@.tmp && mv $@.tmp $@
$(BPF_MOD_OBJ): $(O)/bpf/record.skel.h $(O)/bpf/record.btf.h
$(BPF_MOD_OBJ): ALL_CFLAGS += -fPIC -I$(O)/bpf
$(MOD_DIR)/record_bpf.so: $(BPF_MOD_OBJ) $(MOD_NOTE)
	@mkdir -p $(MOD_DIR)
	$(CC) $(ALL_CFLAGS) $(MOD_LDFLAGS) -o $@ $^ $(shell pkg-config --libs libbpf talloc)
$(O)/base/modload.o: ALL_CFLAGS += -DDBENCH_MODULE_REL='"$(MOD_REL)"'

$(TBENCH): $(BIN)
	ln -f $(BIN) $@

$(TBENCH_SRV): $(O)/servers/tbench_srv.o $(O)/base/badopt.o $(O)/base/secret.o $(NET_OBJS)
	$(CC) $(ALL_CFLAGS) -Wl,-z,now -o $@ $^ $(LDLIBS)

# Each object depends on the headers it includes, as the compiler found
# them (-MMD: OBJ.d beside it; -MP: a header since removed breaks nothing).
# An object without its .d (made before there were any) is made again.
DEPFLAGS = -MMD -MP
DEPFILES = $(patsubst src/%.c,$(O)/%.d,$(wildcard src/*.c src/*/*.c src/*/*/*.c)) \
	   $(patsubst tests/unit/%.c,$(O)/tests/%.d,$(wildcard tests/unit/*.c))
$(DEPFILES):
-include $(wildcard $(DEPFILES))
# The interface hash (IFACE_HASH) is of every header.
$(O)/base/modload.o $(MOD_NOTE): $(HEADERS)

$(O)/%.o: src/%.c $(O)/%.d | $(O)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# A loadfile named without a path is looked up beside the binary: in the
# source tree's loadfiles/ (LOADFILE_REL, relative to the binary), or once
# installed in PREFIX/share/dbench, found from the binary's own path as the
# modules are (src/base/selfdir.c).  No PREFIX is built in: make install
# copies the tree's binary as it is, and relinks nothing.
LOADFILE_REL = $(shell realpath -m --relative-to=$(dir $(BIN)) loadfiles)
$(O)/load/lookup.o: ALL_CFLAGS += -DDBENCH_LOADFILE_REL='"$(LOADFILE_REL)"'

# Switching MPI on or off relinks what links the cluster's transport
# (src/run/cluster_mpi.c, or cluster_alone.c without MPI).
$(O)/mpi-$(MPI).stamp: | $(O)
	rm -f $(O)/mpi-*.stamp && touch $@

$(BIN) $(UNIT_TESTS): $(O)/mpi-$(MPI).stamp

$(O)/load/default.txt.gz: loadfiles/default.txt | $(O)
	@mkdir -p $(dir $@)
	gzip -9 -n -c $< >$@.tmp && mv $@.tmp $@

$(O)/load/default_loadfile.o: src/load/default_loadfile.S $(O)/load/default.txt.gz | $(O)
	$(CC) $(SAN_CFLAGS) -DDEFAULT_LOADFILE_GZ='"$(O)/load/default.txt.gz"' -c -o $@ $<

# A unit test: its object and the fixture's, linked with the library
# (the objects kept: their .d files say what they include).
.PRECIOUS: $(O)/tests/%.o
$(O)/tests/%.o: tests/unit/%.c $(O)/tests/%.d | $(O)
	@mkdir -p $(O)/tests
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(shell pkg-config --cflags cmocka) -c -o $@ $<

$(O)/tests/%: $(O)/tests/%.o $(O)/tests/fixture.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/tests/fixture.o $(LIB_OBJS) $(LDLIBS) \
		$(shell pkg-config --libs cmocka)

# A tool of the shell tests (not itself a test: no test_ prefix).
$(O)/tests/hist_merge: tests/tools/hist_merge.c $(O)/stats/hist.o $(O)/load/ops.o include/hist.h include/ops.h
	@mkdir -p $(O)/tests
	$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/stats/hist.o $(O)/load/ops.o

# The JSON documents' table of members (include/dockeys.def), listed and
# held against a document, for test_json and test_docs.
$(O)/tests/dockeys: tests/tools/dockeys.c $(LIB_OBJS)
	@mkdir -p $(O)/tests
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# A program of the record tests: two threads sharing one file.  Traced by
# dbench record (strace), it is never sanitized, for
# LeakSanitizer's exit check cannot stop the world of a traced process
# and spins in sched_yield for ever (test_record hung under check-sanitize).
$(O)/tests/twothreads: tests/tools/twothreads.c
	@mkdir -p $(O)/tests
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(CFLAGS) -pthread -o $@ $<

# The generator and interpreter of random programs of file calls, for
# test_generated (recorded by strace too: never sanitized, as above).
$(O)/tests/fsprog: tests/tools/fsprog.c
	@mkdir -p $(O)/tests
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(CFLAGS) -pthread -o $@ $<

$(O):
	mkdir -p $(O)

CHECK_DEPS = $(BIN) $(TBENCH) $(TBENCH_SRV) $(MODULES) $(UNIT_TESTS) $(O)/tests/hist_merge \
	     $(O)/tests/twothreads $(O)/tests/fsprog $(O)/tests/dockeys
check: $(CHECK_DEPS)
	@DBENCH=$(abspath $(BIN)) UNIT_DIR=$(abspath $(O)/tests) TESTS="$(TESTS)" bash tests/run.sh

# The shell tests that say they make no timed run.
QUICK_TESTS = $(patsubst tests/%,%,$(shell grep -l '^\# check-quick: ' tests/shell/test_*.sh))
check-quick: $(CHECK_DEPS)
	@DBENCH=$(abspath $(BIN)) UNIT_DIR=$(abspath $(O)/tests) TESTS="unit $(QUICK_TESTS)" \
		bash tests/run.sh

check-sanitize:
	$(MAKE) O=build/san SAN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check

# Every object, for the analyzer (which a link does not need).
objects: $(LIB_OBJS) $(MAIN_OBJ) $(MOD_OBJS) $(O)/servers/tbench_srv.o \
	 $(if $(BPF_MISSING),,$(BPF_MOD_OBJ))

analyze:
	$(MAKE) O=build/analyze CFLAGS="-O1 -g -fanalyzer" objects

# The suite's failures do not stop the figure (a build at -O0 is slower
# than some timings allow): tests/coverage.sh says how many there were.
# DBENCH_COVERAGE: a client process writes its counts before its _exit().
# The counts of an earlier run are removed first.
coverage:
	@mkdir -p build
	find build/cov -name '*.gcda' -delete 2>/dev/null || true
	-$(MAKE) O=build/cov CFLAGS="-O0 -g --coverage -DDBENCH_COVERAGE" check >build/coverage.log 2>&1
	sh tests/coverage.sh build/cov build/coverage.log

FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(O)/fuzz

tools/genload: tools/genload.c
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

loadfile: tools/genload
	tools/genload > loadfiles/default.txt

# What install puts, and uninstall removes: one list each, so the two agree.
# The manual: a page for a run, one per command and one per file format
# (doc/DESIGN.md, Documentation); dbench-convert(1) is dbench-record(1).
MAN_PAGES  = $(wildcard man/*.1)
MAN5_PAGES = $(wildcard man/*.5)
LOADFILES  = $(wildcard loadfiles/*.txt loadfiles/*.load) loadfiles/README
INSTALLED  = $(addprefix $(DESTDIR)$(BINDIR)/,dbench tbench tbench_srv dbench-servers) \
             $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(MAN_PAGES)) dbench-convert.1) \
             $(addprefix $(DESTDIR)$(MAN5DIR)/,$(notdir $(MAN5_PAGES))) \
             $(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(LOADFILES))) \
             $(addprefix $(DESTDIR)$(MODDIR)/,$(notdir $(MODULES)))

# The modules go to MODDIR, which is BINDIR/../lib/dbench, and the
# loadfiles to DATADIR, BINDIR/../share/dbench: the binary looks for them
# there, relative to itself.  The directories install makes are listed in
# DATADIR/installed-dirs (with those of an earlier install), for uninstall.
INSTALL_DIRS = $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(MAN5DIR) $(DESTDIR)$(DATADIR) \
               $(DESTDIR)$(MODDIR)
DIRS_LIST    = $(DESTDIR)$(DATADIR)/installed-dirs
install: $(BIN) $(TBENCH_SRV) $(MODULES)
	@made=$$(for d in $(INSTALL_DIRS); do \
		while [ ! -e "$$d" ]; do echo "$$d"; d=$$(dirname "$$d"); done; done); \
	install -d $(INSTALL_DIRS) && \
	{ cat $(DIRS_LIST) 2>/dev/null; printf '%s\n' $$made; } | sort -ru >$(DIRS_LIST).tmp && \
	mv $(DIRS_LIST).tmp $(DIRS_LIST)
	install -m 644 $(MODULES) $(DESTDIR)$(MODDIR)/
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/dbench
	ln -f $(DESTDIR)$(BINDIR)/dbench $(DESTDIR)$(BINDIR)/tbench
	install -m 755 $(TBENCH_SRV) $(DESTDIR)$(BINDIR)/tbench_srv
	install -m 755 tools/dbench-servers $(DESTDIR)$(BINDIR)/dbench-servers
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/
	ln -sf dbench-record.1 $(DESTDIR)$(MANDIR)/dbench-convert.1
	install -m 644 $(MAN5_PAGES) $(DESTDIR)$(MAN5DIR)/
	install -m 644 $(LOADFILES) $(DESTDIR)$(DATADIR)/

# The files install put; then DATADIR and MODDIR, dbench's own, and the
# directories install made (deepest first), each when nothing else is
# left in it: a directory that was there before (BINDIR, MANDIR, MAN5DIR) stays.
# Those made that are still there (the user's own loadfile in DATADIR)
# stay listed, for the next uninstall.
uninstall:
	@made=$$(cat $(DIRS_LIST) 2>/dev/null); \
	rm -f $(INSTALLED) $(DIRS_LIST) && \
	for d in $(DESTDIR)$(DATADIR) $(DESTDIR)$(MODDIR) $$made; do \
		if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d" || exit 1; fi; done; \
	left=$$(for d in $$made; do if [ -d "$$d" ]; then echo "$$d"; fi; done); \
	if [ -n "$$left" ] && [ -d $(DESTDIR)$(DATADIR) ]; then \
		printf '%s\n' $$left >$(DIRS_LIST); fi

deps:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$(DEB_BUILD) $(DEB_TEST) >/dev/null

clean:
	rm -rf build dbench tbench tbench_srv tools/genload
