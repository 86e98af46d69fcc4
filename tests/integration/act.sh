#!/bin/bash
# run.sh: long (started first)
# act.sh - `ssdbench act` and `ssdbench act-prep` end to end. Bad input is one
# line and exit 2; on a RAM-backed loop device: act-prep fills the device and
# the guard asks for --destroy on a signed one; a 12 s 3x run (1 s reports,
# 3 s slices) writes a log that act-analyze reads back, whose counts match
# the kernel's, whose slice table equals the one computed from the log, and
# whose screen figures equal those computed independently from the result's
# per-slice full-resolution histograms; the default (io_uring) mode, threads
# mode and commit writes make the kernel count exactly what ACT's model and
# one O_DSYNC pwrite per write give (reads, writes, flushes, bytes); a
# time-scaled hour logs every interval and is judged, marked scaled; a
# hopeless load stops on max-lag with ACT's ERROR lines and exit 1; a ladder
# writes one log per load. About 45 s.
source "$(dirname "$0")/lib.sh"

# --- bad input: exit 2, one line naming the value
bad() {   # bad NAME WANT ARGS...
    local name=$1 want=$2; shift 2
    local out rc
    out=$("$SSDBENCH" "$@" 2>&1 >/dev/null); rc=$?
    if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && grep -qF -- "$want" <<<"$out"; then
        pass "$name"
    else
        fail "$name" "rc=$rc out=$out"
    fi
}
bad bad_load "'3y'" act --load 3y --engine null /dev/x
bad bad_duration "'5q'" act --load 3x --duration 5q --engine null /dev/x
bad bad_option "'--lod'" act --lod 3x /dev/x
bad no_devices "--load" act
bad bad_set_key "nosuch-key" act --load 3x --engine null --set nosuch-key=1 /dev/x
bad missing_device "no such device" act --load 3x --duration 5 /dev/ssdbench-no-such-dev
printf 'device-names: /dev/x\ntest-duration-sec: 60\nread-reqs-per-sec: 2000\nscheduler-mode: noop\n' >"$WORK/bad.conf"
bad config_error_file_line "bad.conf:4" act "$WORK/bad.conf"
bad prep_no_device "no device" act-prep

# --- null engine: the log parses, the result names the phase
"$SSDBENCH" act --load 3x --duration 2 --engine null --slice 1 -q --log "$WORK/null.log" \
    --result "$WORK/null.json" /dev/ssdbench-null >"$WORK/null.txt" 2>&1
rc=$?
check null_run_exit0 test "$rc" -eq 0
"$SSDBENCH" act-analyze "$WORK/null.log" -t 1 >/dev/null 2>&1
check null_log_parses test $? -eq 0
check null_result_phase test "$(json_get "$WORK/null.json" "d['act']['loads'][0]['phase']")" = "act-3x"
check null_summary_table grep -q "^slice        1      2      4      8     16     32     64        1" "$WORK/null.txt"
# --find-max climbs 1x, 2x and stops at --max-load
"$SSDBENCH" act --find-max --max-load 2x --duration 1 --engine null -q --log "$WORK/fm.log" \
    --result "$WORK/fm.json" /dev/x >"$WORK/fm.txt" 2>&1
check find_max_ladder test "$(json_get "$WORK/fm.json" "[l['load'] for l in d['act']['loads']]")" = "[1, 2]"
check find_max_logs test -s "$WORK/fm-1x.log" -a -s "$WORK/fm-2x.log"
check find_max_reported grep -q "highest passing load: 2x" "$WORK/fm.txt"

# --- a time-scaled hour (1 report second = 2 ms): every interval logged and a
# PASS/FAIL verdict that says it is scaled
"$SSDBENCH" act --load 3x --duration 1h --tick-ms 2 --engine null -q --log "$WORK/sc.log" \
    --result "$WORK/sc.json" /dev/ssdbench-null >"$WORK/sc.txt" 2>&1
check scaled_exit0 test $? -eq 0
check scaled_every_interval test "$(grep -c '^after ' "$WORK/sc.log")" -eq 3600
check scaled_verdict test "$(json_get "$WORK/sc.json" "(lambda v: v['status'] in ('PASS', 'FAIL') and v['scaled'] and v['tick_ms'] == 2)(d['act']['loads'][0]['verdict'])")" = True
check scaled_verdict_text grep -qE '^verdict: (PASS|FAIL) \(scaled\): time-scaled run' "$WORK/sc.txt"
check scaled_issued_schedule test "$(json_get "$WORK/sc.json" "[r['read']['ios'] for r in d['phases'][0]['results'] if r['scope'] == 'job:service'][0] == d['act']['loads'][0]['derived']['scheduled_ios']['service']")" = True

if ! is_root; then
    skip loop_device_tests "not root: loop devices need root"
    exit 0
fi
settle() { command -v udevadm >/dev/null && udevadm settle 2>/dev/null; sleep 0.2; }
dev=$(make_loop 256) || { skip loop_device_tests "cannot create a loop device"; exit 0; }
settle

# --- act-prep: zero pass and random pass over all 256 MiB, dots, random end state
"$SSDBENCH" act-prep "$dev" --result "$WORK/prep.json" >"$WORK/prep.txt" 2>&1
rc=$?
check prep_exit0 test "$rc" -eq 0
check prep_passes test "$(grep -c -E '^(cleaning|salting) device' "$WORK/prep.txt")" -eq 2
check prep_dots test "$(grep -c -E '^\.{100}$' "$WORK/prep.txt")" -eq 2
check prep_bytes test "$(json_get "$WORK/prep.json" "[p['results'][0]['write']['bytes'] for p in d['phases']]")" = "[268435456, 268435456]"
check prep_kernel_writes test "$(json_get "$WORK/prep.json" "[k['write_bytes'] for p in d['phases'] for k in p['kernel_stats']]")" = "[268435456, 268435456]"
check prep_random_data test "$(head -c 65536 "$dev" | tr -d '\0' | wc -c)" -gt 60000

# --- the guard: a signed device is refused with the exact option to add
sig=$(make_loop 32) || { skip guard "cannot create a loop device"; sig=""; }
if [ -n "$sig" ] && command -v mkfs.ext4 >/dev/null; then
    mkfs.ext4 -q -F "$sig" >/dev/null 2>&1; settle
    out=$("$SSDBENCH" act-prep "$sig" 2>&1); rc=$?
    check prep_guard_refuses test "$rc" -eq 2
    check prep_guard_says_option grep -qF -- "add --destroy=$sig" <<<"$out"
    out=$("$SSDBENCH" act --load 1x --duration 1 "$sig" 2>&1 >"$WORK/refused.log"); rc=$?
    check act_guard_refuses test "$rc" -eq 2
    check act_guard_nothing_logged test ! -s "$WORK/refused.log"
    "$SSDBENCH" act-prep "$sig" --destroy "$sig" -q >/dev/null 2>&1
    check prep_destroy_consent test $? -eq 0
fi

# --- 12 s at 3x, threads mode (ACT's model): log, kernel counts, tables, screen
"$SSDBENCH" act --load 3x --duration 12 --threads --slice 3 -q "$dev" --log "$WORK/act.log" \
    --result "$WORK/act.json" >"$WORK/act.txt" 2>&1
rc=$?
check act_exit0 test "$rc" -eq 0
"$SSDBENCH" act-analyze "$WORK/act.log" -t 3 >"$WORK/an.txt" 2>&1
check act_log_parses test $? -eq 0
python3 - "$WORK/act.json" "$WORK/act.txt" "$WORK/an.txt" "$WORK/act.log" >"$WORK/checks.txt" <<'EOF'
import json, sys
res, summary, analysis, logf = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
d = json.load(open(res))
ph = d['phases'][0]
scope = {r['scope']: r for r in ph['results']}
ks = ph['kernel_stats'][0]
def out(name, ok, why=''):
    print(('PASS ' if ok else 'FAIL ') + 'act:' + name + ('' if ok else ': ' + why))
reads = scope['total']['read']['ios']
out('kernel_reads_equal', ks['read_ios'] + ks['read_merges'] == reads,
    f"kernel {ks['read_ios']}+{ks['read_merges']} vs ssdbench {reads}")
small = scope['job:service']['read']['ios']
out('small_read_rate', abs(small - 72000) <= 360, f"{small} small reads, 6000/s x 12 s = 72000")
lbr = scope['job:large-block-reads']['read']['ios']; lbw = scope['job:large-block-writes']['write']['ios']
out('lb_rates', abs(lbr - 847) <= 2 and abs(lbw - 847) <= 2, f"{lbr}/{lbw}, 70.59/s x 12 s = 847")
# the log's last cumulative reads: the result's count less at most one I/O per thread in flight
last = None
for line in open(logf):
    if line.startswith('reads ('):
        last = int(line.split('(')[1].split()[0])
out('log_counts', last is not None and reads - lbr - 10 <= last <= small, f"log {last}, result {small}")
# slice table: device columns of the summary == act-analyze's table of the log
def rows(path, col0):
    r = []
    for line in open(path):
        f = line.split()
        if len(f) >= 8 and f[0].isdigit():
            r.append(f[col0:col0 + 7])
    return r
dev_rows = rows(summary, 8); log_rows = rows(analysis, 1)
out('summary_table_equals_log', len(dev_rows) == 4 and dev_rows == log_rows, f"{dev_rows} vs {log_rows}")
# screen: max over slices of % >= 1/8/64 ms from the per-slice full-resolution histograms
load = d['act']['loads'][0]
sl = load['slices']
out('four_slices', len(sl) == 4 and [s['end_s'] for s in sl] == [3, 6, 9, 12], str([s['end_s'] for s in sl]))
for key, scr in (('reads', 'device'), ('reads_transaction', 'transaction')):
    mx = {'1': 0.0, '8': 0.0, '64': 0.0}
    for s in sl:
        h = s['histograms'][key]['histogram']
        n = h['n']
        ms = dict((i, c) for i, c in h['ms_log2'])
        for lim, b in (('1', 1), ('8', 4), ('64', 7)):
            over = sum(c for i, c in ms.items() if i >= b)
            mx[lim] = max(mx[lim], round(100.0 * over / n, 2) if n else 0)
    got = load['screen'][scr]['max_pct_over_ms']
    out('screen_' + scr, all(abs(got[k] - mx[k]) < 0.0051 for k in mx), f"{got} vs {mx}")
v = load['verdict']
out('verdict_none_short_run', v['status'] == 'none' and v['hours'] == 0, str(v))
out('act_object', d['act']['config']['read-reqs-per-sec'] == 6000 and load['derived']['service_threads'] > 0
    and d['act']['mode'] == 'threads', json.dumps(d['act']['config']))
EOF
cat "$WORK/checks.txt"

# --- the device sees what ACT makes it see. What one of ACT's writes (a
# blocking O_DSYNC pwrite) costs at the kernel on this device is measured
# with dd: the data write, then a cache flush (on a loop device: 2 writes,
# one of them empty, and 2 flushes). Every run below must equal the ACT
# model's schedule, which the result records, times that: counts, not rates,
# and no max-lag stop, so a loaded host cannot fail it. (Flushes of
# concurrent writes are merged by the block layer, for ACT's threads too:
# with commit writes only their upper bound is fixed.)
kname=$(basename "$dev")
kwf() { awk '{print $5 + $6, $16}' "/sys/class/block/$kname/stat"; }
read -r w0 f0 < <(kwf)
dd if=/dev/urandom of="$dev" bs=128k count=8 oflag=direct,dsync status=none
read -r w1 f1 < <(kwf)
per_w=$(( (w1 - w0) / 8 )); per_f=$(( (f1 - f0) / 8 ))
check dsync_write_cost_measured test $(( (w1 - w0) % 8 )) -eq 0 -a $(( (f1 - f0) % 8 )) -eq 0 -a "$per_w" -ge 1
settle
kernel_vs_model() {   # kernel_vs_model NAME RESULT: reads, writes, flushes, bytes against the model
    python3 - "$2" "$1" "$per_w" "$per_f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); name = sys.argv[2]; per_w, per_f = int(sys.argv[3]), int(sys.argv[4])
ph = d['phases'][0]; load = d['act']['loads'][0]
k = ph['kernel_stats'][0]
sc = {r['scope']: r for r in ph['results']}
svc = sc['job:service']
small_r, small_w = svc['read']['ios'], svc['write']['ios']
sch = load['derived'].get('scheduled_ios')
if sch is None:   # no schedule recorded: judge the kernel against what was issued
    print(f"FAIL act:{name}_schedule_recorded: no derived.scheduled_ios in the result")
    sch = {'service': small_r + small_w,
           'large_block_reads': sc['job:large-block-reads']['read']['ios'],
           'large_block_writes': sc['job:large-block-writes']['write']['ios']}
lbr, lbw = sch.get('large_block_reads', 0), sch.get('large_block_writes', 0)
lb = load['derived']['large_block_bytes']
ok = [
    ('issued_all_scheduled', small_r + small_w == sch['service'] and
     sc['job:large-block-reads']['read']['ios'] == lbr and
     sc['job:large-block-writes']['write']['ios'] == lbw, f"{small_r}+{small_w} vs {sch}"),
    ('kernel_reads', k['read_ios'] + k['read_merges'] == small_r + lbr,
     f"{k['read_ios']}+{k['read_merges']} vs {small_r} + {lbr}"),
    ('kernel_writes', k['write_ios'] + k['write_merges'] == per_w * (small_w + lbw),
     f"{k['write_ios']}+{k['write_merges']} vs {per_w} x ({small_w} + {lbw})"),
    # one writer at a time: one flush per write; concurrent writers (commit
    # writes from several slots, as from ACT's threads) share flushes the
    # block layer merges, so there only the bound holds
    ('kernel_flushes', k.get('flush_ios') == per_f * (small_w + lbw) if not small_w else
     0 < (k.get('flush_ios') or 0) <= per_f * (small_w + lbw),
     f"{k.get('flush_ios')} vs {per_f} x ({small_w} + {lbw})"),
    ('kernel_write_bytes', k['write_bytes'] == svc['write']['bytes'] + lbw * lb,
     f"{k['write_bytes']} vs {svc['write']['bytes']} + {lbw} x {lb}"),
]
for n, good, why in ok:
    print(f"PASS act:{name}_{n}" if good else f"FAIL act:{name}_{n}: {why}")
PY
}
"$SSDBENCH" act --load 3x --duration 3 -q --set max-lag-sec=0 --result "$WORK/km.json" \
    --log "$WORK/km.log" "$dev" >/dev/null 2>&1
check default_mode_exit0 test $? -eq 0
check default_mode_is_io_uring test "$(json_get "$WORK/km.json" "d['act']['engine']")" = "io_uring"
kernel_vs_model default_mode "$WORK/km.json"
"$SSDBENCH" act --load 3x --duration 3 -q --threads --set max-lag-sec=0 --result "$WORK/kt.json" \
    --log "$WORK/kt.log" "$dev" >/dev/null 2>&1
check threads_mode_exit0 test $? -eq 0
kernel_vs_model threads_mode "$WORK/kt.json"

# --- open loop with commit-to-device: small writes, counted as the kernel counts them
"$SSDBENCH" act --load 1x --duration 3 -q --set commit-to-device=yes --set max-lag-sec=0 \
    --log "$WORK/cd.log" --result "$WORK/cd.json" "$dev" >/dev/null 2>&1
rc=$?
check commit_exit0 test "$rc" -eq 0
kernel_vs_model commit "$WORK/cd.json"
check commit_small_writes test "$(json_get "$WORK/cd.json" "[r['write']['ios'] for r in d['phases'][0]['results'] if r['scope'] == 'job:service'][0] > 2500")" = True
check commit_log_writes grep -q "^$dev-writes (" "$WORK/cd.log"
check commit_open_loop test "$(json_get "$WORK/cd.json" "d['act']['mode']")" = "open-loop"

# --- max lag: 1 thread cannot do 400k reads/s: stopped, ERROR lines, exit 1
"$SSDBENCH" act --load 200x --duration 20 --threads --set service-threads=1 --set max-lag-sec=1 \
    -q --log "$WORK/lag.log" --result "$WORK/lag.json" "$dev" >"$WORK/lag.txt" 2>&1
rc=$?
check lag_exit1 test "$rc" -eq 1
check lag_error_lines grep -q "^ERROR: service thread can't keep up" "$WORK/lag.log"
check lag_act_stop_line grep -q "^ACT can't do requested load - test stopped" "$WORK/lag.log"
check lag_stopped_by test "$(json_get "$WORK/lag.json" "d['act']['loads'][0]['stopped_by']")" = "max-lag"
check lag_verdict_fail test "$(json_get "$WORK/lag.json" "d['act']['loads'][0]['verdict']['status']")" = "FAIL"
"$SSDBENCH" act-analyze "$WORK/lag.log" -t 1 >/dev/null 2>&1
check lag_analyze_fails test $? -eq 1

# --- ladder: one log per load, a summary row per load
"$SSDBENCH" act --load 1x,2x --duration 1 --slice 1 -q --log "$WORK/lad.log" "$dev" >"$WORK/lad.txt" 2>&1
check ladder_exit test $? -le 1
check ladder_logs test -s "$WORK/lad-1x.log" -a -s "$WORK/lad-2x.log"
check ladder_rows test "$(grep -c -E ' +[12]x +no +[0-9.]+/[0-9.]+ ' "$WORK/lad.txt")" -eq 2
