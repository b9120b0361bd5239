# mirror: the Human Mirror static site generator.
#
#   make                  build build/mirror
#   make test             run every test twice: plain and under ASan+UBSan
#                         (on a terminal outside CI, asks before installing
#                         missing packages: scripts/install-deps.sh)
#   make deps             install the missing Debian packages
#   make example          install what is missing, build the example store
#                         and run mirror on it
#   make hooks            install the commit-msg hook (scripts/commit-msg)
#   make clean            remove every build tree
#   make golden           regenerate the golden pages under tests/golden/
#   make install PREFIX=/usr/local DESTDIR=  (binary, man page, templates,
#                         themes and the starter rules rules/*.sql)
#
# Objects go under $(BUILD) (default build/); BUILD=build-x gives a
# separate tree, so two builds never share object files.

BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
MANDIR   = $(PREFIX)/share/man/man1
DATADIR  = $(PREFIX)/share/mirror

# make install and uninstall quote every path they are given ('...'), so
# a PREFIX with a space is one path; a value such quoting cannot hold is
# refused as the Makefile is read, before anything is built, installed
# or removed: a single or double quote, a backslash, a backtick or a
# newline (in the path as the shell and the compiled-in MIRROR_DATADIR
# see it), a '$' given on the command line or in the environment (make
# would expand it, or run a $(shell ...) in it), or a path that is not
# absolute (DESTDIR may be empty).
INSTALL_VARS = DESTDIR PREFIX BINDIR MANDIR DATADIR
define INSTALL_NL


endef
# install_raw VAR: why VAR's unexpanded value is refused, else nothing.
# Defaults from this file hold $(PREFIX) by design; they are not looked
# at before the value they refer to passed.
install_raw = $(if $(and $(findstring $$,$(value $(1))),$(filter-out \
    file,$(origin $(1)))),holds a '$$' (make would expand it))
# install_text VAR VALUE: why the expanded VALUE of VAR is refused.
install_text = $(or $(if $(findstring ',$(2)),holds a single quote), \
    $(if $(findstring ",$(2)),holds a double quote), \
    $(if $(findstring \,$(2)),holds a backslash), \
    $(if $(findstring `,$(2)),holds a backtick), \
    $(if $(findstring $(INSTALL_NL),$(2)),holds a newline), \
    $(if $(filter DESTDIR,$(1)),$(if $(2),$(if $(filter /%,$(firstword \
    $(2))),,is not an absolute path)),$(if $(filter /%,$(firstword $(2))),, \
    is not an absolute path)))
# install_why VAR: install_raw, else install_text of the expanded value
# (expanded only once the raw value passed).
install_why = $(or $(call install_raw,$(1)),$(call install_text,$(1),$($(1))))
# install_check VARS: "VAR: why" for the first refused of VARS, else
# nothing; later VARS are not expanded once one is refused.
install_check = $(if $(1),$(or $(if $(call install_why,$(firstword \
    $(1))),$(firstword $(1)) $(strip $(call install_why,$(firstword \
    $(1))))),$(call install_check,$(wordlist 2,99,$(1)))))
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
INSTALL_BAD := $(strip $(call install_check,$(INSTALL_VARS)))
ifneq ($(INSTALL_BAD),)
$(error $(INSTALL_BAD): make install and uninstall quote every path and \
    cannot quote this one safely; nothing was built, installed or removed)
endif
endif

VERSION  = 0.1.0
PKGS     = libcmark-gfm libgit2 sqlite3 jansson libisal nettle libmicrohttpd \
           liburing

CC      ?= cc
WARN     = -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wcast-qual \
           -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
           -Wformat-truncation=2 -Wvla -Wnull-dereference \
           -Wimplicit-fallthrough -Wundef -Wwrite-strings
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT     ?= -O2 -g
# MALLOC=jemalloc (the default) links jemalloc for malloc and free:
# a tenth of an M build's time went to glibc's malloc (doc/performance.md).
# MALLOC= keeps the C library's; sanitizer builds always do (ASan brings
# its own allocator).
MALLOC  ?= jemalloc
# SAN=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer.
ifeq ($(SAN),1)
OPT      = -O1 -g -fno-omit-frame-pointer
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
MALLOC   =
endif
ifeq ($(MALLOC),jemalloc)
PKGS    += jemalloc
MALLOC_CFLAGS = -DMIRROR_JEMALLOC
endif

# pkg-config is asked when this Makefile is read, so targets that install
# the packages first (test, example) run the build in a second make that
# reads it again after 'deps': on a fresh machine the first run works.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libmicrohttpd is compiled against but not linked: `mirror serve` opens
# it (gen/serve/mhd.c), by the SONAME of the library found here, so the
# other commands do not load its TLS stack at every start.
# libgit2 likewise (gen/gitlib/gitlib.c): loaded when a command first
# needs it, so that a build with no repository, a no-op and a sweep do
# not load its fifteen libraries (1.8 ms of every start).
PKG_LIBS   := $(shell pkg-config --libs \
                $(filter-out libmicrohttpd libgit2,$(PKGS)) 2>/dev/null)
MHD_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir \
                libmicrohttpd 2>/dev/null)/libmicrohttpd.so" 2>/dev/null | \
                sed -n 's/^ *SONAME *//p')
GIT_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir \
                libgit2 2>/dev/null)/libgit2.so" 2>/dev/null | \
                sed -n 's/^ *SONAME *//p')

ALL_CFLAGS  = $(CSTD) $(OPT) $(WARN) $(SANFLAGS) -Icore -Igen \
              -DMIRROR_VERSION='"$(VERSION)"' \
              -DMIRROR_DATADIR='"$(DATADIR)"' $(MALLOC_CFLAGS) $(PKG_CFLAGS) \
              $(if $(MHD_SONAME),-DMIRROR_MHD_SONAME='"$(MHD_SONAME)"') \
              $(if $(GIT_SONAME),-DMIRROR_GIT_SONAME='"$(GIT_SONAME)"') \
              $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LIBS        = $(PKG_LIBS) -lm

CORE_SRC = $(sort $(wildcard core/*/*.c))
GEN_SRC  = $(sort $(filter-out gen/cli/main.c,$(wildcard gen/*/*.c)))
CORE_OBJ = $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/core/store/store_schema_sql.o
GEN_OBJ  = $(GEN_SRC:%.c=$(BUILD)/%.o)

# The files with test hooks (doc/development.md "Test hooks"): built a
# second time with MIRROR_TEST_HOOKS into libmirror-test.a, the unit
# tests' library; the shipped binary's objects have no hook.
HOOK_SRC = core/rules/rules_run.c core/store/facts.c gen/git/history.c \
           gen/output/out_fs.c gen/output/out_journal.c
HOOK_OBJ = $(HOOK_SRC:%.c=$(BUILD)/test-hooks/%.o)
TEST_LIB_OBJ = $(filter-out $(HOOK_SRC:%.c=$(BUILD)/%.o),$(CORE_OBJ) \
               $(GEN_OBJ)) $(HOOK_OBJ)
MAIN_OBJ = $(BUILD)/gen/cli/main.o

UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps deps-ask hooks pkgs-present test check test-bins manifest mutants unit e2e example \
        example-run install uninstall clean memcheck bench golden golden-bench \
        screenshots
.SUFFIXES:

all: $(BUILD)/mirror

$(BUILD)/mirror: $(MAIN_OBJ) $(BUILD)/libmirror.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(BUILD)/libmirror.a $(LIBS)

# One archive for core/ and gen/ (less main), so tests link what they use.
$(BUILD)/libmirror.a: $(CORE_OBJ) $(GEN_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/test-hooks/%.o: %.c | pkgs-present
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DMIRROR_TEST_HOOKS -MMD -MP -c -o $@ $<

$(BUILD)/libmirror-test.a: $(TEST_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c | pkgs-present
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The store contract, compiled in so 'mirror init' needs no data files.
$(BUILD)/core/store/store_schema_sql.c: core/store/store-schema.sql
	@mkdir -p $(@D)
	awk 'BEGIN { print "const char store_schema_sql[] =" } \
	     { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); \
	       print "\"" $$0 "\\n\"" } \
	     END { print ";" }' $< > $@.tmp && mv $@.tmp $@

$(BUILD)/core/store/store_schema_sql.o: $(BUILD)/core/store/store_schema_sql.c
	$(CC) $(CSTD) $(OPT) $(SANFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libmirror-test.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DMIRROR_TEST_HOOKS \
	    $(shell pkg-config --cflags cmocka) -o $@ $< \
	    $(BUILD)/libmirror-test.a $(ALL_LDFLAGS) $(LIBS) \
	    $(shell pkg-config --libs cmocka zlib)

# A plain 'make' on a machine without the -dev packages says what to run
# instead of failing on a missing header.
pkgs-present:
	@pkg-config --exists $(PKGS) || { echo "make: missing build" \
	    "packages (pkg-config: $(PKGS)); run 'make deps' first" \
	    "('make example' and 'make test' do)" >&2; exit 1; }

-include $(CORE_OBJ:.o=.d) $(GEN_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) \
         $(HOOK_OBJ:.o=.d)

# Install what a fresh Debian machine lacks (a no-op when all is there).
deps:
	@sh scripts/install-deps.sh --yes

# What make test runs first. When packages are missing it names them and
# 'make deps', then asks (stdin a terminal) or, with no one to ask or CI
# set, installs them: make test must run on a fresh Debian machine.
deps-ask:
	@sh scripts/install-deps.sh

# make test: the suite plain, then the suite under ASan+UBSan.
test: deps-ask
	$(MAKE) check BUILD=build
	$(MAKE) check BUILD=build-san SAN=1

check: test-bins
	@sh tests/run.sh $(BUILD)

# What the suite runs: the binary, every unit test binary and the shim
# that watches who opens a store (tests/tools/storeguard.c).
test-bins: $(BUILD)/mirror $(UNIT_BIN) $(BUILD)/tests/storeguard.so

# Built without sanitizers: it is preloaded into sanitized binaries too.
$(BUILD)/tests/storeguard.so: tests/tools/storeguard.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 $(WARN) -fPIC -shared -o $@ $< -ldl

# make manifest: the suite once; when all of it passed, tests/manifest is
# rewritten with the cases each test file reported, else left alone
# (tests/run.sh --update-manifest). After adding or removing tests.
manifest: test-bins
	@sh tests/run.sh --update-manifest $(BUILD)

# make mutants: each tests/mutants/*.patch alone on a scratch clone of
# HEAD, built and tested; the suite must fail on every one that is not
# marked equivalent (tests/mutants/README.md, tests/tools/mutants.sh).
# MUTANTS=tests/mutants/20-x.patch tries some. Not part of make test.
mutants:
	@sh tests/tools/mutants.sh $(BUILD) $(MUTANTS)

example: deps
	@$(MAKE) --no-print-directory example-run

example-run: $(BUILD)/mirror
	@sh site-example/run.sh $(BUILD)

# make screenshots: the README's pictures of the example (the index, a
# project overview, a conflict; the overview on a phone), rewritten in
# doc/screenshots/ (headless chromium;
# tests/browser/screenshots.sh). Commit them when the pages change.
screenshots: deps $(BUILD)/mirror
	@sh tests/browser/screenshots.sh $(BUILD)

# make memcheck: the suite with every unit test and mirror run under
# valgrind; its reports go to $(BUILD)/memcheck/<pid>.log and any error in
# any of them fails the target (tests/tools/memcheck.sh).
memcheck: $(BUILD)/mirror $(UNIT_BIN)
	@sh tests/tools/memcheck.sh $(BUILD)

# make bench: every phase on generated stores of 10k and 100k facts
# (BENCH=full adds 1M) beside Hugo, cmark-gfm and the git command line,
# then build --repo of 10k and 100k one-fact projects (the projects
# rows), then the render of 10k at 1, 2 and nproc jobs, pinned (the
# cores row: speed-up and serial share); tables on stdout and $(BUILD)/bench/results.json
# (tests/bench/bench.py).
# bench_history times history_commit alone (also by hand: FILES), and
# the SHA-1 candidates and pack index writers; OpenSSL, one of the
# candidates, is linked into the bench alone (BENCH_PKGS), and so is
# libgit2, whose indexer it times (mirror opens libgit2: gen/gitlib).
BENCH_PKGS = libcrypto libgit2
$(BUILD)/bench_history: tests/bench/bench_history.c $(BUILD)/libmirror.a
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags $(BENCH_PKGS)) -o $@ $< \
	    $(BUILD)/libmirror.a $(ALL_LDFLAGS) $(LIBS) \
	    $(shell pkg-config --libs $(BENCH_PKGS))

bench:
	@MIRROR_EXTRA_PKGS="hugo cmark-gfm libssl-dev" \
	    sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory $(BUILD)/bench_history $(BUILD)/mirror
	@python3 tests/bench/bench.py $(BUILD) S M \
	    $(if $(filter full,$(BENCH)),L) P C

# make golden: render the golden store as tests/golden/run.sh does (in
# $(BUILD)/golden/), replace tests/golden/site/ and history.txt with the
# result and show what changed: a change of output is a diff to review
# (tests/e2e/t_golden.sh compares them in make check).
golden: $(BUILD)/mirror
	@rm -rf $(BUILD)/golden
	@sh tests/golden/run.sh $(BUILD)/mirror $(BUILD)/golden
	@rm -rf tests/golden/site
	@cp -R $(BUILD)/golden/site tests/golden/site
	@cp $(BUILD)/golden/history.txt tests/golden/history.txt
	@echo "golden: tests/golden/ regenerated; git status:"
	@git status --short -uall tests/golden

# make golden-bench: build the bench stores S and M and the example and
# compare the digests of their sites and commits to
# tests/golden/bench-digests.txt (UPDATE=1 rewrites it). Not part of
# make test (about a minute).
golden-bench: $(BUILD)/mirror
	@sh tests/golden/bench.sh $(BUILD) $(if $(UPDATE),update)

# ---- make fuzz (tests/fuzz/README.md) -------------------------------------
# libFuzzer harnesses for slot extraction, value normalisation, the
# template engine and escaping, built with clang under ASan+UBSan in
# $(FUZZ_BUILD)/ (the whole library too, with -fsanitize=fuzzer-no-link).
# Each target runs FUZZ_SECONDS on a scratch copy of its seed corpus
# tests/fuzz/corpus/<t>/ (the committed corpus never grows by itself);
# FUZZ_TARGETS=slot runs one. Not part of make test.
FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= slot normalize template escape
# -Wformat-truncation=2 is gcc's alone: clang rejects the unknown option.
FUZZ_WARN     = $(filter-out -Wformat-truncation=%,$(WARN))
FUZZ_BINS     = $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-bins

# fuzz-build only builds $(FUZZ_BUILD)/fuzz_<t>, e.g. to replay a crash:
# build-fuzz/fuzz_slot build-fuzz/fuzz-crashes/slot/crash-...
# clang and libclang-rt-dev are in install-deps.sh's list (make test
# builds the harnesses: tests/e2e/t_fuzz_build.sh).
fuzz-build:
	@sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory fuzz-bins BUILD=$(FUZZ_BUILD) \
	    CC=$(FUZZ_CC) WARN="$(FUZZ_WARN)" MALLOC= \
	    OPT="-O1 -g -fno-omit-frame-pointer" \
	    SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
	    FUZZ_TARGETS="$(FUZZ_TARGETS)"

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-bins: $(FUZZ_BINS)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/common.h $(BUILD)/libmirror.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libmirror.a \
	    -fsanitize=fuzzer,address,undefined $(LDFLAGS) $(LIBS)
# ---- end of make fuzz -----------------------------------------------------

install: $(BUILD)/mirror
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)' \
	    '$(DESTDIR)$(DATADIR)'
	install -m 755 $(BUILD)/mirror '$(DESTDIR)$(BINDIR)/mirror'
	install -m 644 doc/mirror.1 '$(DESTDIR)$(MANDIR)/mirror.1'
	cp -R templates themes '$(DESTDIR)$(DATADIR)/'
	for f in rules/*.sql; do [ ! -f "$$f" ] || { install -d \
	    '$(DESTDIR)$(DATADIR)/rules' && install -m 644 "$$f" \
	    '$(DESTDIR)$(DATADIR)/rules/'; } || exit 1; done

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/mirror' '$(DESTDIR)$(MANDIR)/mirror.1'
	rm -rf '$(DESTDIR)$(DATADIR)'

# make clean: every tree a build made: build/ (with build/example/),
# build-san/, the fuzz build and BUILD when another one is given (never
# the checkout or a folder above it).
holds_top = $(filter $(abspath $(1)) $(abspath $(1))/%,$(CURDIR))
clean:
	$(if $(call holds_top,$(BUILD))$(call holds_top,$(FUZZ_BUILD)),$(error \
	    make clean: BUILD=$(BUILD) or FUZZ_BUILD=$(FUZZ_BUILD) holds the \
	    checkout; nothing removed))
	rm -rf build build-san '$(FUZZ_BUILD)' '$(BUILD)'

# make hooks: scripts/commit-msg as this clone's commit-msg hook (git
# rev-parse finds the hooks folder from a worktree or with
# core.hooksPath too).
hooks:
	@hooks=$$(git rev-parse --git-path hooks) && mkdir -p "$$hooks" && \
	    cp scripts/commit-msg "$$hooks/commit-msg.tmp" && \
	    chmod 755 "$$hooks/commit-msg.tmp" && \
	    mv "$$hooks/commit-msg.tmp" "$$hooks/commit-msg" && \
	    echo "hooks: installed $$hooks/commit-msg"

# ---- make deb --------------------------------------------------------------
# A Debian package of what make install puts under PREFIX=/usr:
# $(BUILD)/$(DEB_PACKAGE)_$(VERSION)_<arch>.deb, built by scripts/mkdeb.sh
# with dpkg-deb (Depends from dpkg-shlibdeps when dpkg-dev is there).
# Reproducible: root:root, fixed modes, every mtime SOURCE_DATE_EPOCH
# (else the last commit's time). Tested by tests/e2e/t_deb.sh.
DEB_PACKAGE ?= mirror

.PHONY: deb

deb: $(BUILD)/mirror
	@MAKE="$(MAKE)" PACKAGE="$(DEB_PACKAGE)" VERSION="$(VERSION)" \
	    sh scripts/mkdeb.sh $(BUILD)
# ---- end of make deb -------------------------------------------------------
