#!/bin/bash
# intervals.sh - the interval series tells the truth around a stall: a paced
# run stopped with SIGSTOP for 2 s keeps every completion in the interval its
# completion time falls in (checked, exactly, against the per-I/O log), the
# stall is flagged in the result and the text, and the latency from the
# schedule stands beside the latency in the table, CSV and fio-shaped JSON.
# Also: the kernel's flush counts equal ssdbench's fsyncs on a loop device,
# and a busy host (made busy here) gets its warning line.
source "$(dirname "$0")/lib.sh"

# --- a hand-made stall
cd "$WORK" || exit 1
"$SSDBENCH" run --name=paced --ioengine=null --rw=randread --bs=4k --rate_iops=2000 --runtime=5 \
    --write_lat_log=paced --result "$WORK/stall.json" -q >"$WORK/stall.txt" 2>"$WORK/stall.err" &
pid=$!
wait_journal_rows "$WORK/stall.json.partial"
kill -STOP "$pid"
sleep 2
kill -CONT "$pid"
wait "$pid"
check stall_run_ok test $? -eq 0
cat >"$WORK/counts.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ph = doc['phases'][0]
iv = ph['intervals']
f = {n: i for i, n in enumerate(iv['fields'])}
step = iv['step_ms']
times = [int(line.split(',')[0]) for line in open(sys.argv[2])]
rows = iv['rows']
bad = []
prev = 0
for i, r in enumerate(rows):
    t = r[f['t_ms']]
    last = i == len(rows) - 1
    # interval i is [i*step, (i+1)*step) ms; drained completions stay in the last
    logged = sum(1 for x in times if x >= i * step and (last or x < (i + 1) * step))
    if 'read_ios' in f:
        counted = r[f['read_ios']]
    else:   # a series without counts: the rate times the row's length
        counted = round(r[f['read_iops']] * (t - prev) / 1000.0)
    if counted != logged:
        bad.append('interval %d (to %d ms): %d in the result, %d in the log' % (i, t, counted, logged))
    prev = t
total = ph['results'][0]['read']['ios']
if total != len(times):
    bad.append('total %d, log %d' % (total, len(times)))
if bad:
    print('; '.join(bad))
    sys.exit(1)
PY
check stall_interval_counts_equal_log python3 "$WORK/counts.py" "$WORK/stall.json" "$WORK/paced_clat.1.log"
check stall_flagged_in_result test "$(json_get "$WORK/stall.json" "d['phases'][0]['stalls']['count'] >= 1 and d['phases'][0]['stalls']['total_s'] > 0")" = True
check stall_marked_in_interval_rows test "$(json_get "$WORK/stall.json" "sum(1 for r in d['phases'][0]['intervals']['rows'] if r[d['phases'][0]['intervals']['fields'].index('stalled_ms')] > 0) >= 1")" = True
check stall_warning_in_text grep -q "WARNING: paced: the process did not run for" "$WORK/stall.txt"
check stall_marker_in_text_rows grep -q "STALL [0-9.]* s" "$WORK/stall.txt"
"$SSDBENCH" show --summary "$WORK/stall.json" >"$WORK/stall-summary.txt"
check stall_warning_in_summary grep -q "WARNING: paced: the process did not run for" "$WORK/stall-summary.txt"
# scheduled latency beside the latency: table, CSV, fio-shaped JSON, rows
check sched_in_table grep -q "^  from schedule  *read" "$WORK/stall.txt"
"$SSDBENCH" show --format csv "$WORK/stall.json" >"$WORK/stall.csv"
check sched_in_csv python3 -c "
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
tot = [r for r in rows[1:] if len(r) == len(head) and r[2] == 'total' and r[3] == 'read'][0]
want = json.load(open(sys.argv[2]))['phases'][0]['results'][0]['read']['scheduled_latency_ns']
assert float(tot[head.index('sched_p99.9_ns')]) == want['percentiles']['99.9'], tot
assert float(tot[head.index('sched_lat_max_ns')]) == want['max'], tot
" "$WORK/stall.csv" "$WORK/stall.json"
check intervals_in_csv python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows.index([]) if [] in rows else -1
assert i > 0, 'no interval table'
head = rows[i + 1]
for k in ('t_ms', 'read_ios', 'stalled_ms', 'read_sched_p99_ns', 'cpu_busy_pct', 'cpu_steal_pct', 'cpu_iowait_pct'):
    assert k in head, k
assert any(float(r[head.index('stalled_ms')]) > 0 for r in rows[i + 2:]), 'no stalled row'
" "$WORK/stall.csv"
"$SSDBENCH" show --format fio-json "$WORK/stall.json" >"$WORK/stall-fio.json"
check sched_in_fio_json test "$(python3 -c "
import json, sys
fj = json.load(open(sys.argv[1]))['jobs'][0]['read']
d = json.load(open(sys.argv[2]))['phases'][0]['results'][0]['read']
print(fj['ssdbench_sched_lat_ns']['N'] == d['ios'] and fj['ssdbench_sched_lat_ns']['max'] == d['scheduled_latency_ns']['max'])
" "$WORK/stall-fio.json" "$WORK/stall.json")" = True
check sched_in_interval_rows test "$(json_get "$WORK/stall.json" "max(r[d['phases'][0]['intervals']['fields'].index('read_sched_max_ns')] for r in d['phases'][0]['intervals']['rows']) == d['phases'][0]['results'][0]['read']['scheduled_latency_ns']['max']")" = True

# --- a busy host, made busy here: 4 spinning processes for the run
hogs=()
for _ in 1 2 3 4; do yes >/dev/null & hogs+=($!); done
"$SSDBENCH" run --name=busy --ioengine=null --rw=randread --bs=4k --rate_iops=500 --runtime=2 \
    -q --result "$WORK/busy.json" >"$WORK/busy.txt" 2>&1
for p in "${hogs[@]}"; do kill "$p"; done
wait "${hogs[@]}" 2>/dev/null
check busy_warning_line grep -q "^WARNING: the host was busy during the run" "$WORK/busy.txt"
check host_cpu_per_interval test "$(json_get "$WORK/busy.json" "all(k in d['phases'][0]['intervals']['fields'] for k in ('cpu_busy_pct', 'cpu_steal_pct', 'cpu_iowait_pct')) and 'cpu_iowait_pct' in d['host']")" = True

# --- flushes: the kernel's count equals ssdbench's fsyncs
if ! is_root; then
    skip loop_flush "not root: loop devices need root"
    exit 0
fi
dev=$(make_loop 64) || { skip loop_flush "cannot create a loop device"; exit 0; }
name=$(basename "$(readlink -f "$dev")")
if [ -z "$(disk_flushes "$dev")" ]; then
    skip loop_flush "kernel without flush counters in /sys/class/block/$name/stat (5.5+)"
    exit 0
fi
if [ "$(cat "/sys/class/block/$name/queue/write_cache" 2>/dev/null)" != "write back" ]; then
    skip loop_flush "$dev has no volatile write cache: fsync sends no flush to it"
    exit 0
fi
command -v udevadm >/dev/null && udevadm settle 2>/dev/null
f0=$(disk_flushes "$dev")
"$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=2m --ioengine=psync --fsync=4 \
    --destroy="$dev" -q --result "$WORK/flush.json" >/dev/null 2>&1
check flush_run_ok test $? -eq 0
f1=$(disk_flushes "$dev")
syncs=$(json_get "$WORK/flush.json" "d['phases'][0]['results'][0]['sync']['ios']")
ks="d['phases'][0]['kernel_stats'][0]"
check flush_did_fsync test "$syncs" -gt 100
check flush_equal_kernel_outside test "$syncs" = "$((f1 - f0))"
check flush_equal_kernel_in_phase test "$syncs" = "$(json_get "$WORK/flush.json" "$ks['flush_ios']")"
# the kernel counts each flush in write_ios too: writes + flushes = ios + merges
check flush_writes_add_up test "$(json_get "$WORK/flush.json" "$ks['write_ios'] + $ks['write_merges'] - $ks['flush_ios'] == d['phases'][0]['results'][0]['write']['ios']")" = True
check discard_fields_recorded test "$(json_get "$WORK/flush.json" "all(k in $ks for k in ('discard_ios', 'discard_merges', 'discard_bytes', 'discard_ticks_ms', 'flush_ticks_ms'))")" = True
