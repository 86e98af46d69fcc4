#!/bin/bash
# Runs every test: unit tests (normal and sanitizer builds), then the integration
# scripts in tests/integration/. Each test prints "PASS x", "FAIL x: why" or
# "SKIP x: why"; a binary or script that exits non-zero without printing a FAIL
# line counts as one failure. Ends with the line "N passed, N failed, N skipped".
# The integration scripts run TEST_JOBS at a time (default 3: most of their
# time is spent waiting on runs and devices); each has its own work directory
# and devices; the long ones (marked "# run.sh: long") start first, and the
# reports are printed in that order.
#
# Every test has a time limit: TEST_TIMEOUT seconds (default 300), three
# times that for a long script, or the N of a line "# run.sh: timeout N" in
# the first lines of a script. A test past its limit is killed (its process
# group: TERM, then KILL 10 s later) and fails with its name ("FAIL NAME:
# timed out after N s"); the suite goes on. TEST_UNIT_DIRS and
# TEST_SCRIPT_DIR (absolute paths) run other tests than the project's, for
# the test of this script itself (tests/integration/run_sh.sh).
cd "$(dirname "$0")/.." || exit 1
timeout_default=${TEST_TIMEOUT:-300}
unit_dirs=${TEST_UNIT_DIRS:-build/tests build-asan/tests}
script_dir=${TEST_SCRIPT_DIR:-tests/integration}
export SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
export SSDBENCH_ASAN=${SSDBENCH_ASAN:-$PWD/build-asan/ssdbench}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$(mktemp /tmp/ssdbench-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0

# report NAME RC T0 T1 OUTFILE [LIMIT]: the accounting of one finished test
# (LIMIT: it was killed at its time limit of LIMIT seconds)
report() {
    local name=$1 rc=$2 t0=$3 t1=$4 out
    out=$(cat "$5")
    printf '%s\n' "$out" >>"$log"
    local p f s
    p=$(grep -c '^PASS ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out"); s=$(grep -c '^SKIP ' <<<"$out")
    grep -E '^(FAIL|SKIP) ' <<<"$out"
    if [ -n "${6:-}" ]; then
        echo "FAIL $name: timed out after $6 s"; printf '%s\n' "$out" | tail -20
        f=$((f + 1))
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited with status $rc"; printf '%s\n' "$out" | tail -20
        f=1
    fi
    if [ "$f" -gt 0 ]; then printf '%s\n' "$out" | grep -v -E '^(PASS|FAIL|SKIP) ' | tail -30; fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    printf '%-44s %4d passed %3d failed %3d skipped %6.1fs\n' "$name" "$p" "$f" "$s" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')"
}

# limit_of FILE: the time limit of a test, in seconds
limit_of() {
    local n
    n=$(head -n 12 "$1" 2>/dev/null | sed -n 's/^# run\.sh: timeout \([0-9][0-9]*\).*/\1/p' | head -n 1)
    if [ -n "$n" ]; then echo "$n"
    elif head -n 12 "$1" 2>/dev/null | grep -q '^# run.sh: long'; then echo $((timeout_default * 3))
    else echo "$timeout_default"; fi
}

# run_to DIR NAME LIMIT COMMAND...: runs one test under its time limit, its
# output and "rc t0 t1 [limit]" into DIR/NAME.* (limit: it was killed there)
run_to() {
    local dir=$1 name=$2 limit=$3; shift 3
    local key rc t0 t1 killed=
    key=$(printf '%s' "$name" | tr '/' '_')
    t0=$(date +%s.%N)
    timeout -k 10 "$limit" "$@" >"$dir/$key.out" 2>&1 </dev/null; rc=$?
    t1=$(date +%s.%N)
    # 124: timeout's TERM ended it; 137: the KILL after it
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then killed=$limit; fi
    # written whole, then renamed: the pool's reader never sees half of it
    echo "$rc $t0 $t1 $killed" >"$dir/$key.rc.tmp" && mv "$dir/$key.rc.tmp" "$dir/$key.rc"
}

# report_from DIR NAME: report() on what run_to left in DIR
report_from() {
    local key rc t0 t1 killed
    key=$(printf '%s' "$2" | tr '/' '_')
    read -r rc t0 t1 killed <"$1/$key.rc"
    report "$2" "$rc" "$t0" "$t1" "$1/$key.out" "$killed"
}

run_one() {   # name, command...
    local dir
    dir=$(mktemp -d /tmp/ssdbench-test1.XXXXXX)
    run_to "$dir" "$1" "$(limit_of "$1")" "$@"
    report_from "$dir" "$1"
    rm -rf "$dir"
}

only=${1:-}
for d in $unit_dirs; do
  for t in "$d"/test_*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    [ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
    run_one "$t" "$t"
  done
done
scripts=()
for t in "$script_dir"/*.sh; do
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
jobs_max=${TEST_JOBS:-3}
next=0   # the next script whose report is printed, in order
for ((i = 0; i < ${#scripts[@]}; i++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    run_to "$pool" "${scripts[$i]}" "$(limit_of "${scripts[$i]}")" bash "${scripts[$i]}" &
    # print the finished ones in order as soon as they are all there
    while [ "$next" -lt "$i" ]; do
        key=$(printf '%s' "${scripts[$next]}" | tr '/' '_')
        [ -f "$pool/$key.rc" ] || break
        report_from "$pool" "${scripts[$next]}"
        next=$((next + 1))
    done
done
wait
for ((; next < ${#scripts[@]}; next++)); do
    key=$(printf '%s' "${scripts[$next]}" | tr '/' '_')
    if [ -f "$pool/$key.rc" ]; then
        report_from "$pool" "${scripts[$next]}"
    else
        report "${scripts[$next]}" 1 0 0 /dev/null
    fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
