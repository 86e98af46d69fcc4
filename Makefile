# ssdbench build.  `make` builds build/ssdbench; `make test` builds the normal and
# sanitizer variants and runs every test; `make run` installs missing packages,
# builds and runs the default job; `make install` / `make uninstall` (PREFIX,
# DESTDIR).
#
# The user's CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS are appended after ours on
# every compile and link line of build/, build-asan/ and build-mpi/ (the
# clang fuzz build takes FUZZCFLAGS instead). WERROR=1 adds -Werror; `make
# test` (and so CI, .ci/run) sets it. A change of flags rebuilds the objects
# of that build (build*/.flags), -Werror alone does not: it changes no code.
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
PKG_CONFIG ?= pkg-config
WERROR  ?= 0

CSTD    := -std=gnu11 -D_GNU_SOURCE -DSSDBENCH_VERSION=\"$(VERSION)\"
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-format-truncation
WERRFL  := $(if $(filter 1,$(WERROR)),-Werror)
OPT     ?= -O2 -g
INC     := -Isrc

# Libraries: compile and link flags from pkg-config for those that ship a .pc
# (liburing, blkid, libcjson); libaio ships none. Without pkg-config (or a
# .pc) the plain -l flags.
PKGS      := liburing blkid libcjson sqlite3 zlib
HAVE_PKGS := $(shell $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null && echo 1)
PKG_CFLAGS := $(if $(HAVE_PKGS),$(shell $(PKG_CONFIG) --cflags $(PKGS)))
PKG_LIBS   := $(if $(HAVE_PKGS),$(shell $(PKG_CONFIG) --libs $(PKGS)),-luring -lblkid -lcjson -lsqlite3 -lz)
LIBS    := $(PKG_LIBS) -laio -lpthread -lm $(LDLIBS)

# every compile line: ours, then the user's
CFL      = $(CSTD) $(WARN) $(WERRFL) $(INC) $(PKG_CFLAGS)
USERFL   = $(CPPFLAGS) $(CFLAGS)

SRC     := $(sort $(shell find src -name '*.c' ! -path 'src/cli/main.c' ! -path 'src/mpi/*'))
TESTSRC := $(sort $(wildcard tests/unit/test_*.c))

B       := build
A       := build-asan
ASANFL  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

OBJ      := $(SRC:%.c=$(B)/%.o)
AOBJ     := $(SRC:%.c=$(A)/%.o)
TESTS    := $(TESTSRC:tests/unit/%.c=$(B)/tests/%)
ATESTS   := $(TESTSRC:tests/unit/%.c=$(A)/tests/%)

# libFuzzer harnesses (tests/fuzz/fuzz_*.c): built with clang into build-fuzz/;
# `make fuzz` runs each for FUZZ_TIME seconds on its corpus (tests/fuzz/run.sh).
FZ       := build-fuzz
FUZZCC   ?= clang
FUZZFL   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
            -Wno-unknown-warning-option
FOBJ     := $(SRC:%.c=$(FZ)/%.o)
FUZZSRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZERS  := $(FUZZSRC:tests/fuzz/%.c=$(FZ)/%)
FUZZ_TIME ?= 300

# The MPI build (docs/cluster.md): `make MPI=1` also builds build-mpi/ssdbench
# with mpicc, the one binary that includes src/mpi/; the plain build needs no
# MPI headers. `make tests` builds it whenever mpicc and mpirun are found.
MPICC    ?= mpicc
M        := build-mpi
MSRC     := $(SRC) $(sort $(wildcard src/mpi/*.c))
MOBJ     := $(MSRC:%.c=$(M)/%.o)
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && echo 1)
MPIBIN   := $(if $(filter 1,$(MPI)),$(M)/ssdbench,$(if $(HAVE_MPI),$(M)/ssdbench))

# The flags each build was made with (build*/.flags, rewritten only when they
# change): objects and links depend on it, so `make CFLAGS=-O0` rebuilds.
# -Werror is left out: it changes no object.
quote    = '$(subst ','\'',$(1))'
define flags_stamp
	@mkdir -p $(dir $@)
	@printf '%s\n' $(call quote,$(1)) | cmp -s - $@ 2>/dev/null || printf '%s\n' $(call quote,$(1)) >$@
endef
FLAGS_B  = $(CC) $(CSTD) $(WARN) $(INC) $(PKG_CFLAGS) $(OPT) $(USERFL) / $(LDFLAGS) $(LIBS)
FLAGS_A  = $(CC) $(CSTD) $(WARN) $(INC) $(PKG_CFLAGS) $(ASANFL) $(USERFL) / $(LDFLAGS) $(LIBS)
FLAGS_M  = $(MPICC) $(CSTD) $(WARN) $(INC) $(PKG_CFLAGS) $(OPT) $(USERFL) / $(LDFLAGS) $(LIBS)

# Unit tests: each test's object links against the archive (a thin one, so
# the linker names the members it takes); `ld --trace` writes those members
# into build*/unit/test_x.ld, and the test relinks only when one of them,
# its own object or the flags change. Touching one renderer relinks the few
# tests that use it, not all of them. When the trace names no member (another
# linker), the test depends on the whole archive.
define link_test
	@mkdir -p $(dir $@)
	$(1) -o $@ $< $(2)/libssdbench.a $(LDFLAGS) $(LIBS) -Wl,--trace >$(<:.o=.trace)
	@grep -E '^$(2)/src/.*\.o$$' $(<:.o=.trace) | sort -u >$(<:.o=.objs) || true
	@if [ -s $(<:.o=.objs) ]; then { printf '%s:' '$@'; tr '\n' ' ' <$(<:.o=.objs); echo; sed 's/$$/:/' $(<:.o=.objs); } >$(<:.o=.ld); \
	 else echo '$@: $(2)/libssdbench.a' >$(<:.o=.ld); fi; rm -f $(<:.o=.trace) $(<:.o=.objs)
endef

.PHONY: all asan tests test run deps install uninstall clean bench fuzzers fuzz mpi FORCE
all: $(B)/ssdbench $(if $(filter 1,$(MPI)),$(M)/ssdbench)
mpi: $(M)/ssdbench

$(B)/.flags: FORCE
	$(call flags_stamp,$(FLAGS_B))
$(A)/.flags: FORCE
	$(call flags_stamp,$(FLAGS_A))
$(M)/.flags: FORCE
	$(call flags_stamp,$(FLAGS_M))

$(B)/%.o: %.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CFL) $(OPT) $(USERFL) -MMD -MP -c $< -o $@

$(M)/%.o: %.c $(M)/.flags
	@mkdir -p $(dir $@)
	$(MPICC) $(CFL) -DSSDBENCH_MPI $(OPT) $(USERFL) -MMD -MP -c $< -o $@

$(M)/ssdbench: $(M)/src/cli/main.o $(MOBJ) $(M)/.flags
	$(MPICC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBS)

$(A)/%.o: %.c $(A)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CFL) $(ASANFL) $(USERFL) -MMD -MP -c $< -o $@

$(B)/libssdbench.a: $(OBJ)
	@rm -f $@; ar rcsT $@ $^

$(A)/libssdbench.a: $(AOBJ)
	@rm -f $@; ar rcsT $@ $^

$(B)/ssdbench: $(B)/src/cli/main.o $(B)/libssdbench.a $(B)/.flags
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $(B)/src/cli/main.o $(B)/libssdbench.a $(LIBS)

$(A)/ssdbench: $(A)/src/cli/main.o $(A)/libssdbench.a $(A)/.flags
	$(CC) $(ASANFL) $(CFLAGS) $(LDFLAGS) -o $@ $(A)/src/cli/main.o $(A)/libssdbench.a $(LIBS)

$(B)/unit/%.o: tests/unit/%.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CFL) $(OPT) $(USERFL) -Itests/unit -MMD -MP -c $< -o $@

$(A)/unit/%.o: tests/unit/%.c $(A)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CFL) $(ASANFL) $(USERFL) -Itests/unit -MMD -MP -c $< -o $@

# the tests' objects are kept (not intermediate), so a relink does not recompile
# (objects and link lists in build*/unit/, beside the binaries in build*/tests/)
.SECONDARY: $(TESTSRC:tests/unit/%.c=$(B)/unit/%.o) $(TESTSRC:tests/unit/%.c=$(A)/unit/%.o)

$(B)/tests/%: $(B)/unit/%.o $(B)/.flags | $(B)/libssdbench.a
	$(call link_test,$(CC) $(OPT) $(CFLAGS),$(B))

$(A)/tests/%: $(A)/unit/%.o $(A)/.flags | $(A)/libssdbench.a
	$(call link_test,$(CC) $(ASANFL) $(CFLAGS),$(A))

$(FZ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZCC) $(CSTD) $(WARN) $(WERRFL) $(FUZZFL) -fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt $(INC) $(PKG_CFLAGS) $(FUZZCFLAGS) -MMD -MP -c $< -o $@

$(FZ)/libssdbench.a: $(FOBJ)
	@rm -f $@; ar rcs $@ $^

$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FZ)/libssdbench.a
	$(FUZZCC) $(CSTD) $(WARN) $(WERRFL) $(FUZZFL) -fsanitize=fuzzer $(INC) $(PKG_CFLAGS) -Itests/fuzz $(FUZZCFLAGS) -o $@ $< $(FZ)/libssdbench.a $(LIBS)

fuzzers: $(FUZZERS)

fuzz: fuzzers
	@FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh

asan: $(A)/ssdbench
tests: $(B)/ssdbench $(A)/ssdbench $(TESTS) $(ATESTS) $(MPIBIN)

deps:
	@scripts/install-deps.sh

# The one command for a new user: dependencies, build, default job.
run: deps
	@$(MAKE) --no-print-directory all
	./$(B)/ssdbench run

# The tests, and CI (.ci/run), build with -Werror (also the builds the
# tests make themselves: the fuzzers).
test:
	@scripts/install-deps.sh --test
	@$(MAKE) --no-print-directory -j$$(nproc) tests WERROR=1
	@WERROR=1 tests/run.sh

bench: all
	@bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(B)/ssdbench $(DESTDIR)$(PREFIX)/bin/ssdbench
	install -m 0644 man/ssdbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/ssdbench.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	scripts/gen-completion.sh $(B)/ssdbench bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/ssdbench
	scripts/gen-completion.sh $(B)/ssdbench zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ssdbench

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ssdbench $(DESTDIR)$(PREFIX)/share/man/man1/ssdbench.1 \
	      $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ssdbench $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ssdbench

clean:
	rm -rf $(B) $(A) $(FZ) $(M)

-include $(OBJ:.o=.d) $(AOBJ:.o=.d) $(MOBJ:.o=.d) $(M)/src/cli/main.d $(FOBJ:.o=.d) $(B)/src/cli/main.d $(A)/src/cli/main.d
-include $(wildcard $(B)/unit/*.d $(A)/unit/*.d $(B)/unit/*.ld $(A)/unit/*.ld)
