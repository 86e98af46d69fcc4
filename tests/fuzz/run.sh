#!/bin/bash
# Runs every libFuzzer harness built in build-fuzz/ on its seed corpus
# (tests/fuzz/corpus/NAME/, crash regressions included) and then fuzzes it
# for FUZZ_TIME seconds (default 300) or FUZZ_RUNS inputs (default: no limit),
# whichever comes first. New corpus entries and any crashing input go to a
# private temporary directory (FUZZ_OUT=DIR keeps them there); the tree is
# never written. Prints "PASS fuzz:NAME: N execs" or "FAIL fuzz:NAME: why" per
# harness; exits non-zero when one failed. `make fuzz` runs this.
#   FUZZ_ONLY=result   only harnesses whose name contains the word
#   FUZZ_JOBS=N        harnesses run N at a time (default 1)
#   FUZZ_MAXLEN=N      longest input libFuzzer makes (default: its own choice)
cd "$(dirname "$0")/../.." || exit 1
T=${FUZZ_TIME:-300}
RUNS=${FUZZ_RUNS:--1}
OUT=${FUZZ_OUT:-}
if [ -z "$OUT" ]; then
    OUT=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-fuzz-run.XXXXXX")
    # kept when a harness failed, for its crash input and log
    trap 'grep -q "^FAIL " "$OUT/results" 2>/dev/null && echo "(crash inputs and logs kept in $OUT)" || rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

one() {   # NAME: prints the PASS/FAIL line
    local name=$1 bin=build-fuzz/fuzz_$1 dir=$OUT/$1
    mkdir -p "$dir/corpus" "$dir/crash"
    if [ ! -x "$bin" ]; then
        echo "FAIL fuzz:$name: $bin is not built (make fuzzers)"
        return
    fi
    # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: a leak or
    # a runaway allocation; -error_exitcode: any sanitizer report
    "$bin" -max_total_time="$T" -runs="$RUNS" -timeout=10 -rss_limit_mb=2048 -error_exitcode=77 \
        -artifact_prefix="$dir/crash/" -print_final_stats=1 ${FUZZ_MAXLEN:+-max_len=$FUZZ_MAXLEN} \
        "$dir/corpus" "$PWD/tests/fuzz/corpus/$name" >"$dir/log" 2>&1
    local rc=$? execs
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$dir/log")
    if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
        echo "PASS fuzz:$name: ${execs} execs in up to ${T}s, corpus $(ls "$dir/corpus" | wc -l) new"
    else
        echo "FAIL fuzz:$name: exit $rc; crash input in $dir/crash/ ($(ls "$dir/crash" | head -1)):"
        grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$dir/log" | head -12
    fi
}

names=()
for s in tests/fuzz/fuzz_*.c; do
    n=$(basename "$s" .c); n=${n#fuzz_}
    [ -n "${FUZZ_ONLY:-}" ] && [[ "$n" != *"$FUZZ_ONLY"* ]] && continue
    names+=("$n")
done
jobs_max=${FUZZ_JOBS:-1}
results=$OUT/results
: >"$results"
for n in "${names[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    one "$n" >>"$results" &
done
wait
cat "$results"
! grep -q '^FAIL ' "$results"
