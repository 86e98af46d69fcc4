#!/bin/bash
# act_analyze.sh - `ssdbench act-analyze` end to end: act_latency.py's table
# layout on an ACT 6.6 sample, the verdict and exit status (PASS 0, FAIL 1,
# bad input 2 with one line), and, when ACT_LATENCY_PY names a copy of ACT's
# analysis/act_latency.py, byte-identical tables for several option sets.
source "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data/act" && pwd)"

# --- exact table on the ACT 6.6 sample (values hand-computed in test_act_analyze.c)
out=$("$SSDBENCH" act-analyze "$DATA/act66_sample.log" -t 1 -n 3 -e 3 -x); rc=$?
check sample_stopped_early_fails test "$rc" -eq 1
printf '%8s%-31s\n%7s%-32s\n' "" reads "" " %>(ms)" >"$WORK/want.txt"
cat >>"$WORK/want.txt" <<'EOF'
slice        1      8     64       rate
-----   ------ ------ ------ ----------
    1     1.25   0.00   0.00     6000.0
    2     1.25   0.03   0.00     6000.0
    3     2.50   0.13   0.07     6000.0
-----   ------ ------ ------ ----------
  avg     1.67   0.05   0.02     6000.0
  max     2.50   0.13   0.07     6000.0
EOF
sed -n '/^        reads/,/^  max/p' <<<"$out" >"$WORK/got.txt"
check sample_table_exact cmp -s "$WORK/want.txt" "$WORK/got.txt"
check sample_verdict grep -q '^verdict: FAIL: stopped early' <<<"$out"

# --- a 24 h log at 1 h reports: hour 13 is the worst (4.90% >= 1 ms), all pass
gen_log() {   # gen_log FILE PCT_1MS_HOUR13_PER_100000
    python3 - "$1" "$2" <<'EOF'
import sys
path, worst = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write("\nACT version 6.6\nStorage device IO test\n\nACT-STORAGE CONFIGURATION\n"
            "device-names: /dev/sdb\nnum-devices: 1\ntest-duration-sec: 86400\n"
            "report-interval-sec: 3600\nmicrosecond-histograms: no\n\n"
            "DERIVED CONFIGURATION\n\nHISTOGRAM NAMES\nreads\n\n")
    cum = [0] * 8
    for h in range(1, 25):
        over = worst if h == 13 else 4500
        add = [100000 - over, over - 500, 400, 0, 90, 0, 0, 10]
        cum = [a + b for a, b in zip(cum, add)]
        cells = ["(%02d: %010d)" % (i, c) for i, c in enumerate(cum) if c]
        f.write("after %d sec:\nreads (%d total)\n" % (h * 3600, sum(cum)))
        for i in range(0, len(cells), 4):
            f.write(" " + " ".join(cells[i:i + 4]) + "\n")
        f.write("\n")
EOF
}
if command -v python3 >/dev/null; then
    gen_log "$WORK/pass.log" 4900
    out=$("$SSDBENCH" act-analyze "$WORK/pass.log" -n 3 -e 3); rc=$?
    check pass_exit0 test "$rc" -eq 0
    check pass_verdict grep -q '^verdict: PASS' <<<"$out"
    check pass_worst_hour grep -q 'worst hour: 13 (4.90% >= 1 ms, 0.10% >= 8 ms, 0.01% >= 64 ms)' <<<"$out"
    check pass_max_row grep -q '^  max     4.90   0.10   0.01$' <<<"$out"
    gen_log "$WORK/fail.log" 5000
    out=$("$SSDBENCH" act-analyze "$WORK/fail.log"); rc=$?
    check fail_exit1 test "$rc" -eq 1
    check fail_names_hour grep -q '^verdict: FAIL: hour 13 has 5.00% of reads >= 1 ms' <<<"$out"
else
    skip pass_fail_logs "python3 not found"
fi

# --- bad input: exit 2, one line naming the problem
out=$("$SSDBENCH" act-analyze "$DATA/act66_sample.log" 2>&1 >/dev/null); rc=$?
check short_log_stopped_exit1 test "$rc" -eq 1
check short_log_message grep -q 'could not find 3600 seconds of data' <<<"$out"
out=$("$SSDBENCH" act-analyze "$DATA/act30_sample.log" 2>&1 >/dev/null); rc=$?
check short_log_exit2 test "$rc" -eq 2
out=$("$SSDBENCH" act-analyze "$DATA/act66_sample.log" -t abc 2>&1); rc=$?
check bad_slice_exit2 test "$rc" -eq 2
check bad_slice_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
out=$("$SSDBENCH" act-analyze "$DATA/good.conf" 2>&1); rc=$?
check not_a_log_exit2 test "$rc" -eq 2
check not_a_log_named grep -q "good.conf: not an ACT log" <<<"$out"
out=$("$SSDBENCH" act-analyze "$DATA/act66_sample.log" -h writes 2>&1); rc=$?
check missing_hist_lists_names grep -q "it has: reads, /dev/sdb-reads" <<<"$out"

# --- side by side with ACT's own script, when a copy is provided
if [ -n "${ACT_LATENCY_PY:-}" ] && [ -f "$ACT_LATENCY_PY" ] && command -v python3 >/dev/null; then
    logs=("$DATA/act66_sample.log")
    [ -f "$WORK/pass.log" ] && logs+=("$WORK/pass.log")
    n=0
    for log in "${logs[@]}"; do
        for opts in "-t 1" "-t 1 -n 3 -e 3 -x" "-t 2 -n 1 -h /dev/sdb-reads -h large-block-writes" \
                    "-t 7200 -s 2 -n 20 -e 2 -x" "-t 3600"; do
            python3 "$ACT_LATENCY_PY" -l "$log" $opts 2>&1 | sed -n '/^     /,/^  max/p' >"$WORK/py.txt"
            grep -q '^  max' "$WORK/py.txt" || continue   # no full slice: nothing to compare
            "$SSDBENCH" act-analyze "$log" $opts 2>/dev/null | sed -n '/^     /,/^  max/p' >"$WORK/c.txt"
            n=$((n + 1))
            check "same_as_act_latency_py_$n" cmp -s "$WORK/py.txt" "$WORK/c.txt"
        done
    done
else
    skip same_as_act_latency_py "set ACT_LATENCY_PY to a copy of ACT's analysis/act_latency.py"
fi
