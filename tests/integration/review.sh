#!/bin/bash
# review.sh - what a reviewer publishes from the suite: the mix a heading
# names is the mix that ran, preconditioning tables have their rows and mark
# partial intervals, baselines are checked, compare labels its series.
# Structure only (rows, columns, labels, ratios from the JSON), never rates.
source "$(dirname "$0")/lib.sh"
py() { python3 -c "$1" 2>&1; }

# --- --rwmixread with several mixed profiles is refused; --set NAME:... scopes
out=$("$SSDBENCH" suite --profiles database,fileserver --rwmixread 66 --sweep qd:1 --runtime 200ms \
    --precondition off --set ioengine=null -q none 2>&1); rc=$?
check rwmix_ambiguous_refused test $rc -eq 2
check rwmix_ambiguous_names_fix grep -q 'set database:rwmixread=66' <<<"$out"
"$SSDBENCH" suite --profiles database,fileserver --set database:rwmixread=66 --sweep qd:1 \
    --runtime 200ms --precondition off --set ioengine=null -q --result "$WORK/mix.json" none \
    >"$WORK/mix.txt" 2>&1
check rwmix_scoped_ok test $? -eq 0
check rwmix_scoped_params py "
import json; d=json.load(open('$WORK/mix.json'))
got={}
for ph in d['phases']:
    got[ph['name']] = [j.get('rwmixread', j.get('params', {}).get('rwmixread')) for j in ph['jobs']]
assert got['database QD1'] == [66], got
assert got['fileserver QD1'] == [80], got
"
check rwmix_heading_database grep -q '^== database: randrw 66/34' "$WORK/mix.txt"
check rwmix_heading_fileserver grep -q '^== fileserver: randrw 80/20' "$WORK/mix.txt"
check rwmix_heading_no_stale_mix bash -c "! grep -A2 '^== database' '$WORK/mix.txt' | grep -q '67%'"
"$SSDBENCH" suite --profiles database --rwmixread 66 --sweep qd:1 --runtime 200ms \
    --precondition off --set ioengine=null -q none >"$WORK/mix1.txt" 2>&1
check rwmix_single_mixed_ok grep -q '^== database: randrw 66/34' "$WORK/mix1.txt"

# --- preconditioning: per-direction rows on a fresh run, the tail marked
"$SSDBENCH" suite --profiles 8k-70-30 --sweep qd:1,2 --runtime 200ms --precondition 1100ms \
    --ss-interval 500ms --set ioengine=null -q --result "$WORK/pre.json" none >"$WORK/pre.txt" 2>&1
check precond_run_ok test $? -eq 0
check precond_tables py "
import json, re
d=json.load(open('$WORK/pre.json'))
txt=open('$WORK/pre.txt').read().split('\n')
ph=[p for p in d['phases'] if p['name'].endswith('precondition')][0]
rows=ph['intervals']['rows']
assert len(rows) >= 2, rows
i=[k for k,l in enumerate(txt) if l.strip().startswith('per direction:')][0]
body=[]
for l in txt[i+2:]:
    if not re.match(r'^\s+[0-9.]+s', l): break
    body.append(l)
assert len(body) == len(rows), (len(body), len(rows), txt[i:i+8])
step=ph['intervals']['step_ms']; prev=0
for l, r in zip(body, rows):
    part = r[0] - prev < step * 0.999; prev = r[0]
    assert ('*' in l.split()[0]) == part, (l, r[0])
# the main table: the last row is a tail, marked 'part' not a round
j=[k for k,l in enumerate(txt) if l.strip().startswith('time round')][0]
main=[l for l in txt[j+1:j+1+len(rows)]]
assert main[-1].split()[1] == 'part', main
assert all(l.split()[1].isdigit() for l in main[:-1]), main
"

# --- baselines: kind checked, both target counts, several at once
C=(--profiles 4k-random-read --sweep qd:1,2 --runtime 200ms --precondition off --set filesize=8m -q)
"$SSDBENCH" suite "${C[@]}" --result "$WORK/b1.json" "$WORK/j0.bin" >/dev/null 2>&1
check base1_ok test $? -eq 0
"$SSDBENCH" suite "${C[@]}" --result "$WORK/b2.json" "$WORK/j0.bin" "$WORK/j1.bin" >/dev/null 2>&1
check base2_ok test $? -eq 0
"$SSDBENCH" suite "${C[@]}" --baseline "$WORK/b1.json" --baseline "$WORK/b2.json" \
    --result "$WORK/b4.json" "$WORK/j0.bin" "$WORK/j1.bin" "$WORK/j2.bin" "$WORK/j3.bin" \
    >"$WORK/b4.txt" 2>&1
check base4_ok test $? -eq 0
check baselines_arithmetic py "
import json
d={k: json.load(open('$WORK/%s.json' % k)) for k in ('b1', 'b2', 'b4')}
def iops(doc, name):
    ph=[x for x in doc['phases'] if x['name'] == name][0]
    t=[r for r in ph['results'] if r['scope'] == 'total'][0]
    return t['read']['iops'] + t['write']['iops']
txt=open('$WORK/b4.txt').read().split('\n')
hdr=[l for l in txt if l.strip().startswith('point ') and 'x b1' in l]
assert len(hdr) == 1 and 'x b2' in hdr[0] and hdr[0].count('per target') == 2, hdr
pts=d['b4']['suite']['profiles'][0]['points']
for pt in pts:
    line=[l for l in txt if l.split()[:1] == [pt['label']]][0].split()
    for k, (b, n) in enumerate((('b1', 1), ('b2', 2))):
        f=iops(d['b4'], pt['phase']) / iops(d[b], pt['phase'])
        sc=pt['scalings'][k]
        assert abs(sc['factor'] - f) < 1e-9 * f, (sc, f)
        assert abs(sc['per_target'] - f * n / 4) < 1e-9 * f, (sc, f, n)
        assert sc['baseline_targets'] == n
        # text: the four scaling columns at the end, 2 decimals
        assert line[-4 + 2 * k] == '%.2fx' % sc['factor'], (line, sc)
        assert line[-3 + 2 * k] == '%.2fx' % sc['per_target'], (line, sc)
"
python3 -c "
import json; d=json.load(open('$WORK/b1.json')); del d['suite']; d['fileio']={}
json.dump(d, open('$WORK/fileio-like.json', 'w'))"
out=$("$SSDBENCH" suite "${C[@]}" --baseline "$WORK/fileio-like.json" "$WORK/j0.bin" 2>&1); rc=$?
check baseline_kind_refused test $rc -eq 2
check baseline_kind_named grep -q 'a fileio result' <<<"$out"

# --- progress: one line per point with point k/N, profile p/P and time left
"$SSDBENCH" suite --profiles 4k-random-read,8k-70-30 --sweep qd:1,2 --runtime 200ms \
    --precondition off --set ioengine=null none 2>"$WORK/prog.err" >/dev/null
check progress_run_ok test $? -eq 0
check progress_lines py "
import re
l=[x for x in open('$WORK/prog.err') if 'sweep-point:' in x]
got=[re.search(r'\[point (\d+)/(\d+), profile (\d+)/(\d+), up to .+ left\]', x).groups() for x in l]
assert got == [('1','4','1','2'), ('2','4','1','2'), ('3','4','2','2'), ('4','4','2','2')], got
"
out=$("$SSDBENCH" suite --profiles 4k-random-read,8k-70-30 --dry-run none 2>&1)
check dry_run_total grep -qE '^  total: up to [0-9.]+ (h|min|s)$' <<<"$out"
"$SSDBENCH" act --load 1x,2x --duration 1 --slice 1 --engine null --log "$WORK/p.log" none \
    >/dev/null 2>"$WORK/actprog.err"
check act_progress_lines py "
import re
l=[re.search(r'\[load (\d+)/(\d+), ([0-9.]+x);', x).groups() for x in open('$WORK/actprog.err') if '[load ' in x]
assert l == [('1','2','1x'), ('2','2','2x')], l
"
"$SSDBENCH" act --find-max --max-load 2x --duration 1 --slice 1 --engine null --log "$WORK/fm.log" \
    --result "$WORK/fm.json" none >"$WORK/fm.txt" 2>&1
check find_max_says_why grep -q 'stopped at the maximum load (--max-load 2x), none failed' "$WORK/fm.txt"
check find_max_json_why test "$(json_get "$WORK/fm.json" "d['act']['find_max']['stopped_by']")" = "max load reached"

# --- html: a mixed workload charts both directions; units once; one
# thousands style; no empty identity fields
"$SSDBENCH" report "$WORK/pre.json" -o "$WORK/pre.html" >/dev/null 2>&1
check html_report_ok test $? -eq 0
check html_write_direction_charts py "
s=open('$WORK/pre.html').read()
assert 'every point, reads: latency percentiles' in s and 'every point, writes: latency percentiles' in s
assert 'every point, writes: latency histogram' in s
"
check html_unit_once py "
import re
s=open('$WORK/pre.html').read()
for m in re.finditer(r'<th[^>]*>([^<]*?) <span class=\"unit\">\(([^)]*)\)</span>', s):
    assert not m.group(1).endswith(m.group(2)), m.group(0)
"
check html_thousands_style py "
import re
s=open('$WORK/pre.html').read()
cells=[re.sub('<[^>]*>', '', c) for c in re.findall(r'<td[^>]*>[^<]*</td>', s)]
bare=[c for c in cells if re.fullmatch(r'-?[0-9]{4,}(\.[0-9]+)?', c)]
assert not bare, bare[:5]
"

check html_headers_wrap grep -q 'th{background:#eaeef3;white-space:normal' "$WORK/pre.html"

# --- fileio: several baselines, a value and a ratio column each, by label;
# a baseline of another kind is refused naming the file and its kind
mkdir -p "$WORK/fio" && pushd "$WORK/fio" >/dev/null
FB=("$SSDBENCH" fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrd --events=400 --time=0
    --threads=1,2)
"${FB[@]}" prepare >/dev/null 2>&1
"${FB[@]}" --label "disk A" --result "$WORK/fa.json" run >/dev/null 2>&1
"${FB[@]}" --threads=1 --result "$WORK/fb.json" --label "" run >/dev/null 2>&1
"${FB[@]}" --label C --baseline "$WORK/fa.json" --baseline "$WORK/fb.json" --result "$WORK/fc.json" \
    run >"$WORK/fc.txt" 2>&1
check fileio_two_baselines_ok test $? -eq 0
check fileio_two_baselines_columns py "
import json
docs=[json.load(open('$WORK/%s.json' % n)) for n in ('fc', 'fa', 'fb')]
labels=['C', 'disk A', 'fb']  # fb: no label, the file's name
assert [b['label'] for b in docs[0]['fileio']['baselines']] == labels[1:], docs[0]['fileio']['baselines']
lines=open('$WORK/fc.txt').read().split('\\n')
def rows(title):
    i=lines.index(title)
    return lines[i + 1], [l.split() for l in lines[i + 2:i + 4]]
def cell(d, t, k):
    r=[r for r in d['fileio']['scaling'] if r['threads'] == t]
    return r[0][k] if r else None
for title, key, fmt, inv in (('Throughput, MiB/s (more is better)', 'mibps', '%.2f', False),
                             ('95% response time, ms (less is better)', 'pct_ms', '%.3f', True)):
    head, body = rows(title)
    for b in labels[1:]:
        want = 'ratio %s / C' % b if inv else 'ratio C / %s' % b
        assert want in head, (head, want)
    assert head.index(labels[1]) < head.index(labels[2]) < head.index('ratio'), head
    for r in body:
        t=int(r[0])
        assert r[1] == fmt % cell(docs[0], t, key), (r, key)
        for k, d in enumerate(docs[1:]):
            v = cell(d, t, key)
            assert r[2 + k] == (fmt % v if v is not None else '-'), (r, k)
            if v is None or v <= 0 or cell(docs[0], t, key) <= 0:
                assert r[4 + k] == '-', r
                continue
            q = v / cell(docs[0], t, key) if inv else cell(docs[0], t, key) / v
            assert r[4 + k] == '%.2f' % q, (r, k, q)
    assert body[1][3] == '-' and body[1][5] == '-', body
"
out=$("${FB[@]}" --baseline "$WORK/fa.json" --baseline "$WORK/b1.json" run 2>&1); rc=$?
check fileio_baseline_kind_refused test $rc -eq 2
check fileio_baseline_kind_named grep -qx "ssdbench: fileio: --baseline $WORK/b1.json: a suite result;.*" <<<"$out"
check fileio_baseline_kind_one_line test "$(grep -c . <<<"$out")" -eq 1
"${FB[@]}" cleanup >/dev/null 2>&1
popd >/dev/null

# --- overall progress: on a terminal one live line on stderr, rewritten with
# \r and cleared at the end, never in stdout; elsewhere one line per point
P=(--profiles 4k-random-read,8k-70-30 --sweep qd:1,2 --runtime 200ms --precondition off
   --set ioengine=null none)
"$SSDBENCH" suite "${P[@]}" >"$WORK/prog-out.txt" 2>"$WORK/prog-err.txt"
check progress_lines_ok test $? -eq 0
check progress_one_line_per_point py "
err=open('$WORK/prog-err.txt', newline='').read()
assert '\r' not in err and '\x1b' not in err, repr(err[:200])
pts=[l for l in err.split('\n') if l.startswith('ssdbench: suite: [point ')]
assert [l.split()[3] for l in pts] == ['1/4,', '2/4,', '3/4,', '4/4,'], pts
assert all(' left] sweep-point: ' in l for l in pts), pts
assert [l.split()[5] for l in pts] == ['1/2,', '1/2,', '2/2,', '2/2,'], pts
"
if command -v script >/dev/null; then
    # script gives the command a terminal; stdout goes to a file, stderr stays on the terminal
    script -qec "'$SSDBENCH' suite ${P[*]} >'$WORK/live-out.txt'" "$WORK/live-tty.txt" >/dev/null 2>&1
    check progress_live_ok test $? -eq 0
    check progress_live_line py "
tty=open('$WORK/live-tty.txt', encoding='utf-8', errors='replace', newline='').read()
for k in range(1, 5):
    assert '\r[point %d/4, profile %d/2, up to ' % (k, 1 if k < 3 else 2) in tty, (k, repr(tty[-600:]))
assert 'ssdbench: suite: [point' not in tty, 'one line per point on a terminal'
last=tty.rindex('\r[point 4/4')
assert '\r\x1b[K' in tty[last:], 'the live line is not cleared at the end'
out=open('$WORK/live-out.txt', newline='').read()
assert '\r' not in out and '[point' not in out and '\x1b' not in out, repr(out[:300])
plain=open('$WORK/prog-out.txt').read()
shape=lambda t: [l.split()[:1] for l in t.split('\n') if not l.startswith('WARNING')]
assert shape(out) == shape(plain), 'stdout differs from the run without a terminal'
"
    A2=(--load 1x,2x --duration 2 --slice 1 --engine null none)
    script -qec "'$SSDBENCH' act ${A2[*]} --log '$WORK/live-act.log' >'$WORK/live-act.txt'" \
        "$WORK/live-act-tty.txt" >/dev/null 2>&1
    check progress_live_act py "
tty=open('$WORK/live-act-tty.txt', encoding='utf-8', errors='replace', newline='').read()
assert '\r[load 1/2, 1x; ' in tty and '\r[load 2/2, 2x; ' in tty, repr(tty[-600:])
assert 'ssdbench: act: [load' not in tty
out=open('$WORK/live-act.txt', newline='').read()
assert '\r' not in out and '[load' not in out, repr(out[:300])
"
    "$SSDBENCH" act "${A2[@]}" --log "$WORK/plain-act.log" >/dev/null 2>"$WORK/plain-act-err.txt"
    check progress_lines_act py "
err=open('$WORK/plain-act-err.txt', newline='').read()
assert '\r' not in err
l=[x for x in err.split('\n') if x.startswith('ssdbench: act: [load ')]
assert len(l) == 2 and l[0].startswith('ssdbench: act: [load 1/2, 1x; ') and l[1].startswith('ssdbench: act: [load 2/2, 2x; '), l
"
else
    need_tool script util-linux progress_live
fi

# --- --dry-run: the plan with its total time, for the suite and ACT ladders
out=$("$SSDBENCH" suite --dry-run --profiles 4k-random-read,8k-70-30 --sweep qd:1,2 --runtime 10s \
    --precondition off none 2>&1)
check dry_run_suite_total grep -qx '  total: up to 40.0 s' <<<"$out"
out=$("$SSDBENCH" act --dry-run --engine null --load 1x,3x --duration 2h none 2>&1); rc=$?
check dry_run_act_ok test $rc -eq 0
check dry_run_act_plan py "
l='''$out'''.split('\n')
assert l[1].split()[:3] == ['load', '1x', '2000'] and l[2].split()[:3] == ['load', '3x', '6000'], l
assert l[-1] == '  total: 4 h 0 min', l
"
out=$("$SSDBENCH" act --dry-run --engine null --find-max --max-load 4x --duration 60 none 2>&1)
check dry_run_find_max py "
l='''$out'''.split('\n')
assert [x.split()[1] for x in l[1:-1]] == ['1x', '2x', '3x', '4x'], l
assert l[-1].startswith('  total: up to 4 min'), l
"
check dry_run_act_wrote_nothing test ! -e "$WORK/none"

# --- "did you mean" only for typos
out=$("$SSDBENCH" run --status-interval=1 2>&1)
check no_suggestion_other_meaning bash -c "! grep -q ss_interval <<<\"\$1\"" _ "$out"

if ! is_root; then
    skip loop_device_review "not root: loop devices need root"
    exit 0
fi
dev=$(make_loop 32) || { skip loop_device_review "cannot create a loop device"; exit 0; }
# --- a blank device is written without --destroy: the suite says so up front
"$SSDBENCH" suite --profiles 4k-random-write --sweep qd:1 --runtime 200ms --precondition off \
    --result "$WORK/blank.json" "$dev" >/dev/null 2>"$WORK/blank.err"
check blank_device_runs test $? -eq 0
check blank_device_announced grep -q "overwrites $dev for up to" "$WORK/blank.err"
"$SSDBENCH" report "$WORK/blank.json" -o "$WORK/blank.html" >/dev/null 2>&1
check html_device_identity grep -q "$(basename "$dev")" "$WORK/blank.html"
check html_no_empty_identity bash -c "! grep -qE 'serial ,|firmware ,|serial [?]|firmware [?]|, firmware <' '$WORK/blank.html'"
check blank_device_written test "$(head -c 4194304 "$dev" | tr -d '\0' | wc -c)" -gt 0
# --- act --op: the unused part is discarded, ACT uses the rest
"$SSDBENCH" act --load 1x --op 25 --duration 1 --slice 1 -q --log "$WORK/op.log" --result "$WORK/op.json" \
    "$dev" >/dev/null 2>&1
check act_op_ran test $? -le 1
check act_op_json py "
import json; d=json.load(open('$WORK/op.json'))
op=d['act']['over_provisioning']
assert op['pct'] == 25, op
x=op['discard'][0]
assert x['used_bytes'] == 32 * 1048576 * 3 // 4 // 131072 * 131072, x
assert x['offset'] == x['used_bytes'] and x['offset'] + x['length'] == 32 * 1048576, x
"
"$SSDBENCH" act --load 1x --op 25 --duration 1 --engine null --log "$WORK/op2.log" "$WORK/op.log" \
    >/dev/null 2>"$WORK/op2.err"
check act_op_file_refused test $? -eq 2
