# ssdbench build.  `make` builds build/ssdbench; `make test` builds the normal and
# sanitizer variants and runs every test; `make run` installs missing packages,
# builds and runs the default job.
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

CSTD    := -std=gnu11 -D_GNU_SOURCE -DSSDBENCH_VERSION=\"$(VERSION)\"
WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wno-format-truncation
OPT     ?= -O2 -g
INC     := -Isrc
LIBS    := -luring -laio -lblkid -lcjson -lz -lpthread -lm

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

.PHONY: all asan tests test run deps install clean bench fuzzers fuzz mpi
all: $(B)/ssdbench $(if $(filter 1,$(MPI)),$(M)/ssdbench)
mpi: $(M)/ssdbench

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPT) $(INC) -MMD -MP -c $< -o $@

$(M)/%.o: %.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CSTD) -DSSDBENCH_MPI $(WARN) $(OPT) $(INC) -MMD -MP -c $< -o $@

$(M)/ssdbench: $(M)/src/cli/main.o $(MOBJ)
	$(MPICC) $(OPT) -o $@ $^ $(LIBS)

$(A)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(ASANFL) $(INC) -MMD -MP -c $< -o $@

$(B)/libssdbench.a: $(OBJ)
	@rm -f $@; ar rcs $@ $^

$(A)/libssdbench.a: $(AOBJ)
	@rm -f $@; ar rcs $@ $^

$(B)/ssdbench: $(B)/src/cli/main.o $(B)/libssdbench.a
	$(CC) $(OPT) -o $@ $^ $(LIBS)

$(A)/ssdbench: $(A)/src/cli/main.o $(A)/libssdbench.a
	$(CC) $(ASANFL) -o $@ $^ $(LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libssdbench.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPT) $(INC) -Itests/unit -o $@ $< $(B)/libssdbench.a $(LIBS)

$(A)/tests/%: tests/unit/%.c $(A)/libssdbench.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(ASANFL) $(INC) -Itests/unit -o $@ $< $(A)/libssdbench.a $(LIBS)

$(FZ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZCC) $(CSTD) $(WARN) $(FUZZFL) -fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt $(INC) -MMD -MP -c $< -o $@

$(FZ)/libssdbench.a: $(FOBJ)
	@rm -f $@; ar rcs $@ $^

$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FZ)/libssdbench.a
	$(FUZZCC) $(CSTD) $(WARN) $(FUZZFL) -fsanitize=fuzzer $(INC) -Itests/fuzz -o $@ $< $(FZ)/libssdbench.a $(LIBS)

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

test:
	@scripts/install-deps.sh --test
	@$(MAKE) --no-print-directory -j$$(nproc) tests
	@tests/run.sh

bench: all
	@bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(B)/ssdbench $(DESTDIR)$(PREFIX)/bin/ssdbench
	install -m 0644 man/ssdbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/ssdbench.1

clean:
	rm -rf $(B) $(A) $(FZ) $(M)

-include $(OBJ:.o=.d) $(AOBJ:.o=.d) $(MOBJ:.o=.d) $(M)/src/cli/main.d $(FOBJ:.o=.d) $(B)/src/cli/main.d $(A)/src/cli/main.d
