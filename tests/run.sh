#!/bin/bash
# Runs every test: unit tests (normal and sanitizer builds), then the integration
# scripts in tests/integration/. Each test prints "PASS x", "FAIL x: why" or
# "SKIP x: why"; a binary or script that exits non-zero without printing a FAIL
# line counts as one failure. Ends with the line "N passed, N failed, N skipped".
# The integration scripts run TEST_JOBS at a time (default 2: most of their
# time is spent waiting on runs and devices); each has its own work directory
# and devices; the long ones (marked "# run.sh: long") start first, and the
# reports are printed in that order.
cd "$(dirname "$0")/.." || exit 1
export SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
export SSDBENCH_ASAN=${SSDBENCH_ASAN:-$PWD/build-asan/ssdbench}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$(mktemp /tmp/ssdbench-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0

# report NAME RC T0 T1 OUTFILE: the accounting of one finished test
report() {
    local name=$1 rc=$2 t0=$3 t1=$4 out
    out=$(cat "$5")
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

# run_to DIR NAME COMMAND...: runs one test, its output and "rc t0 t1" into DIR/NAME.*
run_to() {
    local dir=$1 name=$2; shift 2
    local key rc t0 t1
    key=$(printf '%s' "$name" | tr '/' '_')
    t0=$(date +%s.%N)
    "$@" >"$dir/$key.out" 2>&1; rc=$?
    t1=$(date +%s.%N)
    echo "$rc $t0 $t1" >"$dir/$key.rc"
}

run_one() {   # name, command...
    local dir key
    dir=$(mktemp -d /tmp/ssdbench-test1.XXXXXX)
    run_to "$dir" "$@"
    key=$(printf '%s' "$1" | tr '/' '_')
    report "$1" $(cat "$dir/$key.rc") "$dir/$key.out"
    rm -rf "$dir"
}

only=${1:-}
for t in build/tests/test_* build-asan/tests/test_*; do
    [ -x "$t" ] || continue
    [ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
    run_one "$t" "$t"
done
scripts=()
for t in tests/integration/*.sh; do
    [ -f "$t" ] || continue
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
    scripts+=("$t")
done
# the long scripts (a line "# run.sh: long" at the top) start first, so the
# pool does not end with one of them running alone
long=() short=()
for t in "${scripts[@]}"; do
    if head -n 12 "$t" | grep -q '^# run.sh: long'; then long+=("$t"); else short+=("$t"); fi
done
scripts=("${long[@]}" "${short[@]}")
pool=$(mktemp -d /tmp/ssdbench-tests.XXXXXX)
trap 'rm -f "$log"; rm -rf "$pool"' EXIT
jobs_max=${TEST_JOBS:-2}
next=0   # the next script whose report is printed, in order
for ((i = 0; i < ${#scripts[@]}; i++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    run_to "$pool" "${scripts[$i]}" bash "${scripts[$i]}" &
    # print the finished ones in order as soon as they are all there
    while [ "$next" -lt "$i" ]; do
        key=$(printf '%s' "${scripts[$next]}" | tr '/' '_')
        [ -f "$pool/$key.rc" ] || break
        report "${scripts[$next]}" $(cat "$pool/$key.rc") "$pool/$key.out"
        next=$((next + 1))
    done
done
wait
for ((; next < ${#scripts[@]}; next++)); do
    key=$(printf '%s' "${scripts[$next]}" | tr '/' '_')
    if [ -f "$pool/$key.rc" ]; then
        report "${scripts[$next]}" $(cat "$pool/$key.rc") "$pool/$key.out"
    else
        report "${scripts[$next]}" 1 0 0 /dev/null
    fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
