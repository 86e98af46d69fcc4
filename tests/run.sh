#!/bin/bash
# Runs every test: unit tests (normal and sanitizer builds), then the integration
# scripts in tests/integration/. Each test prints "PASS x", "FAIL x: why" or
# "SKIP x: why"; a binary or script that exits non-zero without printing a FAIL
# line counts as one failure. Ends with the line "N passed, N failed, N skipped".
cd "$(dirname "$0")/.." || exit 1
export SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
export SSDBENCH_ASAN=${SSDBENCH_ASAN:-$PWD/build-asan/ssdbench}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$(mktemp /tmp/ssdbench-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0

run_one() {   # name, command...
    local name=$1; shift
    local out rc t0 t1
    t0=$(date +%s.%N)
    out=$("$@" 2>&1); rc=$?
    t1=$(date +%s.%N)
    printf '%s\n' "$out" >>"$log"
    local p f s
    p=$(grep -c '^PASS ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out"); s=$(grep -c '^SKIP ' <<<"$out")
    grep -E '^(FAIL|SKIP) ' <<<"$out"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited with status $rc"; printf '%s\n' "$out" | tail -20
        f=1
    fi
    if [ "$f" -gt 0 ]; then printf '%s\n' "$out" | grep -v -E '^(PASS|FAIL|SKIP) ' | tail -30; fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    printf '%-44s %4d passed %3d failed %3d skipped %6.1fs\n' "$name" "$p" "$f" "$s" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')"
}

only=${1:-}
for t in build/tests/test_* build-asan/tests/test_*; do
    [ -x "$t" ] || continue
    [ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
    run_one "$t" "$t"
done
for t in tests/integration/*.sh; do
    [ -f "$t" ] || continue
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
    run_one "$t" bash "$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
