#!/bin/bash
# suite.sh - `ssdbench suite`, `profiles`, `compare` and `purge` end to end,
# with seconds per point: the preconditioning series and every sweep point
# present, read profiles preconditioned with writes, per-target results for
# jbod, profile shares measured over a run (null engine) against their
# definitions, compare's ratio columns and the baseline scaling against the
# numbers in the files; as root on RAM-backed loop devices: the stripe mapping
# checked with the kernel's per-device counters, purge / discard-unused and
# the active range.
source "$(dirname "$0")/lib.sh"

py() { python3 -c "$@"; }

# --- profiles: the required set, and a job file fio itself accepts
"$SSDBENCH" profiles >"$WORK/profiles.txt"
ok=1
for p in 4k-random-read 4k-random-write 8k-random-read 8k-random-write 8k-70-30 128k-seq-read \
    128k-seq-write database email fileserver webserver latency ecw; do
    grep -q "^$p " "$WORK/profiles.txt" || { ok=0; echo "missing profile $p"; }
done
check profiles_listed test $ok -eq 1
check profiles_show_definition grep -q "bssplit=512/4:1k/1:1536/1" "$WORK/profiles.txt"
"$SSDBENCH" profiles --jobfile >"$WORK/all.fio"
if command -v fio >/dev/null; then
    check profiles_jobfile_fio_parses fio --parse-only "$WORK/all.fio"
fi
cat >"$WORK/mine.fio" <<'EOF'
[oltp-16k]
description=16 KiB OLTP
rw=randrw
rwmixread=60
bs=16k
EOF
check profiles_user_file grep -q "^oltp-16k " <("$SSDBENCH" profiles --profile-file "$WORK/mine.fio")
printf '[bad]\nrw=randrw\nbs=4q\n' >"$WORK/bad.fio"
out=$("$SSDBENCH" profiles --profile-file "$WORK/bad.fio" 2>&1); rc=$?
check profiles_bad_file_exit2 test $rc -eq 2
check profiles_bad_file_names_line grep -q "bad.fio:3" <<<"$out"

# --- bad input: one line, exit 2, nothing run
out=$("$SSDBENCH" suite --profiles fileservr "$WORK/x.bin" 2>&1); rc=$?
check bad_profile_exit2 test $rc -eq 2
check bad_profile_suggests grep -q "did you mean 'fileserver'" <<<"$out"
check bad_profile_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
out=$("$SSDBENCH" suite --sweep qd:0 "$WORK/x.bin" 2>&1); rc=$?
check bad_sweep_exit2 test $rc -eq 2
out=$("$SSDBENCH" suite --set iodepth=4 "$WORK/x.bin" 2>&1); rc=$?
check set_controlled_refused test $rc -eq 2
check no_file_created test ! -e "$WORK/x.bin"

# --- a short suite on a file: preconditioning series, every point, read
# profile preconditioned with writes, a fixed-load profile
f="$WORK/s.bin"
"$SSDBENCH" suite --profiles 8k-70-30,webserver,latency --sweep tq:1,2x1,2 --runtime 0.3s \
    --precondition auto --precondition-load 2x2 --ss-interval 0.2s --ss-max-rounds 6 \
    --set filesize=16m -q --result "$WORK/file.json" "$f" >"$WORK/file.txt" 2>"$WORK/file.err"
check file_suite_ok test $? -eq 0
check file_suite_precond_series py "
import json; d=json.load(open('$WORK/file.json'))
for p in d['suite']['profiles']:
    pc = p['precondition']; ss = pc['steady_state']
    assert len(pc['intervals']['rows']) >= 5, (p['name'], len(pc['intervals']['rows']))
    assert pc['intervals']['fields'][:3] == ['t_ms', 'round', 'iops']
    assert ss['rule'] == 'snia' and ss['window'] == 5 and isinstance(ss['reached'], bool)
    assert ss['rounds'] <= 6 and 'fit' in ss and ss['statement']
    ph = [x for x in d['phases'] if x['name'] == pc['phase']][0]
    assert ph['kind'] == 'precondition'
    assert len(ph['intervals']['rows']) == len(pc['intervals']['rows'])
"
check file_suite_every_point py "
import json; d=json.load(open('$WORK/file.json'))
names = {p['name']: p['kind'] for p in d['phases']}
for prof in ['8k-70-30', 'webserver']:
    for lab in ['1T1Q', '1T2Q', '2T1Q', '2T2Q']:
        assert names.get(prof + ' ' + lab) == 'sweep-point', prof + ' ' + lab
assert names.get('latency/read 1T1Q') == 'sweep-point' and names.get('latency/write 1T1Q') == 'sweep-point'
pts = [pt['phase'] for p in d['suite']['profiles'] for pt in p['points']]
assert len(pts) == 10 and all(pt in names for pt in pts)
"
check webserver_preconditioned_with_writes py "
import json; d=json.load(open('$WORK/file.json'))
ph = [x for x in d['phases'] if x['name'] == 'webserver precondition'][0]
t = [r for r in ph['results'] if r['scope'] == 'total'][0]
assert t['read']['ios'] == 0 and t['write']['ios'] > 0
assert ph['jobs'][0]['params']['rw'] == 'randwrite'
p = [p for p in d['suite']['profiles'] if p['name'] == 'webserver'][0]
assert p['precondition']['switched_to_write'] is True
pt = [x for x in d['phases'] if x['name'] == 'webserver 2T2Q'][0]
t = [r for r in pt['results'] if r['scope'] == 'total'][0]
assert t['write']['ios'] == 0 and t['read']['ios'] > 0
"
check file_suite_text_tables grep -q "^  2T2Q " "$WORK/file.txt"
check file_suite_text_precond grep -q "steady state" "$WORK/file.txt"

# --- jbod on two files: per-target results and the total
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1,2 --runtime 0.3s --precondition off \
    --set filesize=16m -q --result "$WORK/one.json" "$WORK/j0.bin" >/dev/null 2>&1
check single_ok test $? -eq 0
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1,2 --runtime 0.3s --precondition off \
    --set filesize=16m --baseline "$WORK/one.json" -q --result "$WORK/jbod.json" \
    "$WORK/j0.bin" "$WORK/j1.bin" >"$WORK/jbod.txt" 2>&1
check jbod_ok test $? -eq 0
check jbod_per_target py "
import json; d=json.load(open('$WORK/jbod.json'))
assert d['suite']['layout'] == 'jbod' and d['suite']['load_per'] == 'target'
for ph in d['phases']:
    sc = {r['scope']: r for r in ph['results']}
    assert set(sc) == {'total', 'target:t0', 'target:t1'}, set(sc)
    n = [sc[k]['read']['ios'] for k in ('total', 'target:t0', 'target:t1')]
    assert n[0] == n[1] + n[2] and n[1] > 0 and n[2] > 0, n
    assert ph['jobs'][0]['workers'] == 2 * ph['jobs'][0]['params']['numjobs']
for pt in d['suite']['profiles'][0]['points']:
    assert len(pt['targets']) == 2
"
check jbod_scaling_against_baseline py "
import json; a=json.load(open('$WORK/one.json')); b=json.load(open('$WORK/jbod.json'))
def iops(d, name):
    ph = [x for x in d['phases'] if x['name'] == name][0]
    t = [r for r in ph['results'] if r['scope'] == 'total'][0]
    return t['read']['iops'] + t['write']['iops']
for pt in b['suite']['profiles'][0]['points']:
    f = iops(b, pt['phase']) / iops(a, pt['phase'])
    assert abs(pt['scaling']['factor'] - f) < 1e-6 * f, (pt['scaling'], f)
    assert abs(pt['scaling']['per_target'] - f / 2) < 1e-6 * f
"
check jbod_text_per_target grep -q "per target" "$WORK/jbod.txt"

# --- compare: ratio columns equal the files' own numbers
"$SSDBENCH" compare --metrics iops,lat "$WORK/one.json" "$WORK/jbod.json" >"$WORK/cmp.txt" 2>&1
check compare_ok test $? -eq 0
check compare_ratio py "
import json, re
a=json.load(open('$WORK/one.json')); b=json.load(open('$WORK/jbod.json'))
def iops(d, name):
    ph = [x for x in d['phases'] if x['name'] == name][0]
    t = [r for r in ph['results'] if r['scope'] == 'total'][0]
    return t['read']['iops'] + t['write']['iops']
want = iops(b, '4k-random-read QD2') / iops(a, '4k-random-read QD2')
lines = open('$WORK/cmp.txt').read().split('\n')
i = [k for k, l in enumerate(lines) if l.startswith('== 4k-random-read: IOPS')][0]
row = [l for l in lines[i:] if l.split()[:1] == ['QD2']][0].split()
assert abs(float(row[3]) - round(want, 2)) < 0.006, (row, want)
assert abs(float(row[1]) - iops(a, '4k-random-read QD2')) <= 0.5
"
"$SSDBENCH" compare --format csv "$WORK/one.json" "$WORK/jbod.json" "$WORK/jbod.json" >"$WORK/cmp.csv"
check compare_three_csv py "
import csv
rows = list(csv.reader(open('$WORK/cmp.csv')))
assert rows[0] == ['group', 'metric', 'row', 'one', 'jbod', 'jbod #3',
                   'ratio jbod / one (throughput; latency inverted)',
                   'ratio jbod #3 / one (throughput; latency inverted)'], rows[0]
assert all(r[4] == r[5] and r[6] == r[7] for r in rows[1:] if r[6])
"
out=$("$SSDBENCH" compare "$WORK/one.json" 2>&1); rc=$?
check compare_needs_two test $rc -eq 2

# --- profile shares measured over a run (null engine: no device in the way)
"$SSDBENCH" suite --profiles fileserver,webserver,ecw,database --sweep qd:8 --runtime 0.5s \
    --precondition off --set ioengine=null -q --result "$WORK/shares.json" none >/dev/null 2>&1
check shares_run_ok test $? -eq 0
check profile_shares_within_1pct py "
import json, math; d=json.load(open('$WORK/shares.json'))
# read share (%) and block-size mix (bytes: share %) from the published definitions
mix = {'fileserver': (80, {512: 10, 1024: 5, 2048: 5, 4096: 60, 8192: 2, 16384: 4, 32768: 4, 65536: 10}),
       'webserver': (100, {512: 22, 1024: 15, 2048: 8, 4096: 23, 8192: 15, 16384: 2, 32768: 6,
                           65536: 7, 131072: 1, 524288: 1}),
       'ecw': (40, {512: 4, 1024: 1, 1536: 1, 2048: 1, 2560: 1, 3072: 1, 3584: 1, 4096: 67,
                    8192: 10, 16384: 7, 32768: 3, 65536: 3}),
       'database': (67, {8192: 100})}
for name, (rd, m) in mix.items():
    mean = sum(b * p for b, p in m.items()) / 100
    sd = math.sqrt(sum(b * b * p for b, p in m.items()) / 100 - mean * mean)
    ph = [x for x in d['phases'] if x['name'] == name + ' QD8'][0]
    t = [r for r in ph['results'] if r['scope'] == 'total'][0]
    r, w = t['read'], t['write']
    n = r['ios'] + w['ios']
    assert n > 20000, (name, n)
    # 1 % (1 point for the read share), or 4.5 standard errors on a loaded machine
    share = 100.0 * r['ios'] / n
    tol = max(1.0, 450 * math.sqrt(rd / 100 * (1 - rd / 100) / n))
    assert abs(share - rd) <= tol, (name, share, rd, tol)
    got = (r['bytes'] + w['bytes']) / n
    tol = max(0.01, 4.5 * sd / math.sqrt(n) / mean)
    assert abs(got - mean) <= tol * mean, (name, got, mean, tol, n)
"

# --- purge of a file: a file ssdbench made is its own; a foreign one is refused
"$SSDBENCH" purge --format json "$f" >"$WORK/purge.json"
check purge_file_ok test $? -eq 0
check purge_file_method py "
import json; p=json.load(open('$WORK/purge.json'))['purge'][0]
assert p['method'] in ('punch-hole', 'zero-fill') and p['length'] == 16*1024*1024, p
"
head -c 65536 /dev/urandom >"$WORK/foreign.bin"
sum=$(md5sum <"$WORK/foreign.bin")
out=$("$SSDBENCH" purge "$WORK/foreign.bin" 2>&1); rc=$?
check purge_foreign_refused test $rc -eq 2
check purge_foreign_untouched test "$sum" = "$(md5sum <"$WORK/foreign.bin")"
out=$("$SSDBENCH" suite --profiles 4k-random-read --range 80% --discard-unused --precondition off \
    --sweep qd:1 --runtime 0.2s "$WORK/j0.bin" 2>&1); rc=$?
check discard_unused_file_refused test $rc -eq 2

# --- SIGINT: complete result with the suite object, marked interrupted
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1 --runtime 30s --precondition off \
    --set ioengine=null -q --result "$WORK/int.json" none >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/int.json.partial"
kill -INT $pid
wait $pid; rc=$?
check sigint_exit_130 test $rc -eq 130
check sigint_result py "
import json; d=json.load(open('$WORK/int.json'))
assert d['interrupted'] and d['suite']['profiles'][0]['points'][0]['combined']['iops'] > 0
"

if ! is_root; then
    skip loop_device_tests "not root: loop devices need root"
    exit 0
fi
A=$(make_loop 64) && B=$(make_loop 64) || { skip loop_device_tests "cannot create loop devices"; exit 0; }
for d in "$A" "$B"; do echo 2 >"/sys/block/$(basename "$d")/queue/nomerges" 2>/dev/null; done

# --- stripe mapping by the kernel's counters. 16 MiB chunks over 2 x 64 MiB:
# a 12.5 % range is chunk 0, which lives on the first device only.
read ra0 wa0 < <(disk_ios "$A"); read rb0 wb0 < <(disk_ios "$B")
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:4 --runtime 0.5s --precondition off \
    --layout stripe:16m --range 12.5% -q --result "$WORK/st1.json" "$A" "$B" >/dev/null 2>"$WORK/st1.err"
check stripe_run_ok test $? -eq 0 || sed 's/^/    /' "$WORK/st1.err"
read ra1 wa1 < <(disk_ios "$A"); read rb1 wb1 < <(disk_ios "$B")
n=$(json_get "$WORK/st1.json" "[r for r in d['phases'][0]['results'] if r['scope']=='total'][0]['read']['ios']")
check stripe_chunk0_on_first_device test "$((ra1 - ra0))" = "$n"
check stripe_chunk0_not_on_second test "$((rb1 - rb0))" -eq 0
check stripe_did_io test "$n" -gt 1000
# full range, 64 KiB chunks: each device's count equals its per-target result
read ra0 wa0 < <(disk_ios "$A"); read rb0 wb0 < <(disk_ios "$B")
"$SSDBENCH" suite --profiles 4k-random-read --sweep tq:2x2 --runtime 0.5s --precondition off \
    --layout stripe:64k -q --result "$WORK/st2.json" "$A" "$B" >/dev/null 2>"$WORK/st2.err"
check stripe2_run_ok test $? -eq 0 || sed 's/^/    /' "$WORK/st2.err"
read ra1 wa1 < <(disk_ios "$A"); read rb1 wb1 < <(disk_ios "$B")
t0=$(json_get "$WORK/st2.json" "[r for r in d['phases'][0]['results'] if r['scope']=='target:t0'][0]['read']['ios']")
t1=$(json_get "$WORK/st2.json" "[r for r in d['phases'][0]['results'] if r['scope']=='target:t1'][0]['read']['ios']")
check stripe_t0_equals_kernel test "$((ra1 - ra0))" = "$t0"
check stripe_t1_equals_kernel test "$((rb1 - rb0))" = "$t1"
check stripe_balanced test "$((t0 * 10))" -gt "$(((t0 + t1) * 3))" -a "$((t1 * 10))" -gt "$(((t0 + t1) * 3))"

# --- jbod with purge, preconditioning and 20 % over-provisioning
read ra0 wa0 < <(disk_ios "$A"); read rb0 wb0 < <(disk_ios "$B")
"$SSDBENCH" suite --profiles 4k-random-write --sweep qd:1,2 --runtime 0.3s --precondition auto \
    --precondition-load 2x2 --ss-interval 0.2s --ss-max-rounds 6 --purge --range 80% \
    --discard-unused -q --result "$WORK/op.json" "$A" "$B" >/dev/null 2>"$WORK/op.err"
check op_run_ok test $? -eq 0 || sed 's/^/    /' "$WORK/op.err"
read ra1 wa1 < <(disk_ios "$A"); read rb1 wb1 < <(disk_ios "$B")
check op_purge_and_discard py "
import json; s=json.load(open('$WORK/op.json'))['suite']
# 80 % of 64 MiB floored to 4 KiB: 53687091.2 -> 53686272
assert [x['offset'] for x in s['discard_unused']] == [53686272, 53686272], s['discard_unused']
assert all(x['method'] == 'discard' for x in s['discard_unused'])
assert [x['method'] for x in s['profiles'][0]['purge']] == ['discard', 'discard']
assert s['active_range_pct'] == 80
"
check op_writes_equal_kernel py "
import json; d=json.load(open('$WORK/op.json'))
for scope, k in (('target:t0', $((wa1 - wa0))), ('target:t1', $((wb1 - wb0)))):
    n = sum([r for r in ph['results'] if r['scope'] == scope][0]['write']['ios'] for ph in d['phases'])
    assert n == k, (scope, n, k)
"
check op_loop_precond_and_points py "
import json; d=json.load(open('$WORK/op.json'))
assert [p['name'] for p in d['phases']] == ['4k-random-write precondition', '4k-random-write QD1',
                                            '4k-random-write QD2'], [p['name'] for p in d['phases']]
pc = d['suite']['profiles'][0]['precondition']
assert len(pc['intervals']['rows']) >= 5 and pc['steady_state']['window'] == 5
for ph in d['phases']:
    assert {r['scope'] for r in ph['results']} == {'total', 'target:t0', 'target:t1'}
"
check op_region_is_80pct py "
import json; d=json.load(open('$WORK/op.json'))
assert all(ph['jobs'][0]['params']['range']['size_pct'] == 80 for ph in d['phases'])
"

# --- purge of a device: the method is recorded; a file system is refused
"$SSDBENCH" purge --result "$WORK/pd.json" "$A" >/dev/null
check purge_device_discard test "$(json_get "$WORK/pd.json" "d['purge'][0]['method']")" = discard
if command -v mkfs.ext4 >/dev/null; then
    mkfs.ext4 -q -F "$B" >/dev/null 2>&1
    out=$("$SSDBENCH" purge "$B" 2>&1); rc=$?
    check purge_ext4_refused test $rc -eq 2
    check purge_ext4_names_override grep -q -- "--destroy" <<<"$out"
    "$SSDBENCH" purge --destroy "$B" "$B" >/dev/null
    check purge_with_consent test $? -eq 0
fi
