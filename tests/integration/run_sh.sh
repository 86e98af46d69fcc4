#!/bin/bash
# run_sh.sh - tests/run.sh itself: every test has a time limit. run.sh runs
# the fixtures of tests/run_sh/ (a unit test and a script that hang, and a
# script that passes) with a 1 s default limit; each hung test fails by its
# own name, the script's "# run.sh: timeout 2" line overrides the default,
# its hung child is killed and its EXIT trap runs, the passing one still
# counts, and the last line keeps its format.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
fx=$PWD/tests/run_sh
mkdir -p "$WORK/out"
RUN_SH_FIXTURE_OUT=$WORK/out TEST_TIMEOUT=1 TEST_UNIT_DIRS=$fx/unit TEST_SCRIPT_DIR=$fx/scripts \
    timeout 120 tests/run.sh >"$WORK/run.txt" 2>&1
rc=$?
check suite_fails test "$rc" -eq 1
check unit_hang_named grep -qx "FAIL $fx/unit/test_hangs: timed out after 1 s" "$WORK/run.txt"
check script_hang_named grep -qx "FAIL $fx/scripts/hangs.sh: timed out after 2 s" "$WORK/run.txt"
check passing_script_counted grep -q "^$fx/scripts/quick.sh  *1 passed   0 failed" "$WORK/run.txt"
# the PASS lines the hung tests printed count; each hang is one failure
check last_line_exact test "$(tail -n 1 "$WORK/run.txt")" = "3 passed, 2 failed, 0 skipped"
check script_cleaned_up test -f "$WORK/out/hangs.cleaned"
child=$(cat "$WORK/out/hangs.child" 2>/dev/null)
check child_recorded test -n "$child"
# the killed child is gone, or a zombie nobody has reaped yet (its parent,
# the script, is gone too, so the reaper takes it a moment later)
gone() { # PID: it has ended (waiting up to 5 s for a slow host); no PID fails
    local i st
    [ "${1:-0}" -gt 0 ] 2>/dev/null || return 1
    for i in $(seq 50); do
        [ -e "/proc/$1" ] || return 0
        read -r _ _ st _ <"/proc/$1/stat" 2>/dev/null || return 0
        [ "$st" = Z ] && return 0
        sleep 0.1
    done
    return 1
}
check child_killed gone "${child:-0}"
[ "$rc" -eq 1 ] || cat "$WORK/run.txt"
