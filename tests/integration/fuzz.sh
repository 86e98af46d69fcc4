#!/bin/bash
# run.sh: long (started first)
# Smoke run of every libFuzzer harness in tests/fuzz/: builds them with clang
# (make fuzzers), replays each seed corpus (crash regressions included) and
# fuzzes each for a few seconds (FUZZ_SMOKE_TIME, default 5; at most 20000
# inputs), two harnesses at a time. clang is a test dependency (scripts/install-deps.sh --test), so a
# missing clang is a failure, not a skip. Longer runs: make fuzz FUZZ_TIME=600.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
if ! command -v "${FUZZCC:-clang}" >/dev/null 2>&1; then
    fail build "${FUZZCC:-clang} not found (scripts/install-deps.sh --test installs clang)"
    exit 1
fi
if ! make --no-print-directory -j2 fuzzers >"$WORK/build.log" 2>&1; then
    fail build "make fuzzers failed: $(grep -m3 -E 'error|undefined' "$WORK/build.log")"
    exit 1
fi
pass build
FUZZ_TIME=${FUZZ_SMOKE_TIME:-5} FUZZ_RUNS=20000 FUZZ_JOBS=${FUZZ_JOBS:-2} FUZZ_OUT="$WORK/fuzz" tests/fuzz/run.sh
