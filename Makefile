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
LIBS    := -luring -laio -lblkid -lcjson -lpthread -lm

SRC     := $(sort $(shell find src -name '*.c' ! -path 'src/cli/main.c'))
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

.PHONY: all asan tests test run deps install clean bench fuzzers fuzz
all: $(B)/ssdbench

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPT) $(INC) -MMD -MP -c $< -o $@

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
tests: $(B)/ssdbench $(A)/ssdbench $(TESTS) $(ATESTS)

deps:
	@scripts/install-deps.sh

# The one command for a new user: dependencies, build, default job.
run: deps
	@$(MAKE) --no-print-directory all
	./$(B)/ssdbench run

test:
	@scripts/install-deps.sh --test
	@$(MAKE) --no-print-directory tests
	@tests/run.sh

bench: all
	@bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(B)/ssdbench $(DESTDIR)$(PREFIX)/bin/ssdbench
	install -m 0644 man/ssdbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/ssdbench.1

clean:
	rm -rf $(B) $(A) $(FZ)

-include $(OBJ:.o=.d) $(AOBJ:.o=.d) $(FOBJ:.o=.d) $(B)/src/cli/main.d $(A)/src/cli/main.d
