#!/bin/bash
# seeds.sh - each published table ssdbench reproduces (docs/seeds.md) comes
# out of one command with the seed's rows and columns: 000 per-LUN vs stripe
# with scaling against a smaller setup, 001 the preconditioning series per
# direction and the threads x queue table, 002 sysbench's throughput and p95
# tables of three setups with two ratio columns, 004 the ACT certification
# summary over a ladder. Short times on loop devices; structure, labels,
# units and ratio arithmetic from the JSON, never rates.
source "$(dirname "$0")/lib.sh"
py() { python3 -c "$1" 2>&1; }

# --- 002: three fileio setups, sysbench's two tables, ratios against RAID10
for s in intel strip raid; do
    mkdir -p "$WORK/$s"
    (cd "$WORK/$s" && "$SSDBENCH" fileio --file-num=2 --file-total-size=8M --file-block-size=16384 \
        prepare >/dev/null 2>&1 &&
     "$SSDBENCH" fileio --file-num=2 --file-total-size=8M --file-block-size=16384 \
        --file-test-mode=rndrd --events=2000 --time=0 --threads=1,2,4 --result "$WORK/$s.json" \
        run >/dev/null 2>&1)
    check "s002_run_$s" test $? -eq 0
done
"$SSDBENCH" compare --baseline RAID10 --label "Intel 320" --label "Intel 320 2 strip" --label RAID10 \
    "$WORK/intel.json" "$WORK/strip.json" "$WORK/raid.json" >"$WORK/s002.txt" 2>&1
check s002_compare_ok test $? -eq 0
check s002_tables py "
import json
txt=open('$WORK/s002.txt').read().split('\n')
docs=[json.load(open('$WORK/%s.json' % s)) for s in ('intel', 'strip', 'raid')]
labs=['Intel 320', 'Intel 320 2 strip', 'RAID10']
def table(title):
    i=txt.index('== ' + title)
    hdr=txt[i+1]; rows=[]
    for l in txt[i+2:]:
        if not l.strip(): break
        rows.append(l.split())
    return hdr, rows
for title, key, lat in (('Throughput, MiB/s (more is better)', 'mibps', False),
                        ('95% response time, ms (less is better)', 'pct_ms', True)):
    hdr, rows = table(title)
    assert hdr.split()[0] == 'threads', hdr
    for l in labs: assert l in hdr, (l, hdr)
    want = ['ratio RAID10 / Intel 320', 'ratio RAID10 / Intel 320 2 strip'] if lat else \
           ['ratio Intel 320 / RAID10', 'ratio Intel 320 2 strip / RAID10']
    for w in want: assert w in hdr, (w, hdr)
    assert [r[0] for r in rows] == ['1', '2', '4'], rows
    for r in rows:
        t = int(r[0])
        v = [[x for x in d['fileio']['scaling'] if x['threads'] == t][0][key] for d in docs]
        assert r[1:4] == ['%.2f' % x for x in v], (r, v)
        rat = [v[2] / v[0], v[2] / v[1]] if lat else [v[0] / v[2], v[1] / v[2]]
        for k in range(2):
            assert r[4 + k] == '%.2f' % rat[k], (r, rat)
"

if ! is_root; then
    skip loop_device_seeds "not root: loop devices need root"
    exit 0
fi
settle() { command -v udevadm >/dev/null && udevadm settle 2>/dev/null; sleep 0.2; }
L=()
for k in 0 1 2 3 4; do
    d=$(make_loop 64) || { skip loop_device_seeds "cannot create a loop device"; exit 0; }
    L+=("$d")
done
settle

# --- 000: single card (2 LUNs) as the baseline; dual card (4 LUNs) per LUN
# and as one stripe, with the factor and the factor per LUN
C=(--profiles 4k-random-read --sweep qd:1,2 --runtime 200ms --precondition off -q)
"$SSDBENCH" suite "${C[@]}" --result "$WORK/single.json" "${L[0]}" "${L[1]}" >/dev/null 2>&1
check s000_single_ok test $? -eq 0
"$SSDBENCH" suite "${C[@]}" --baseline "$WORK/single.json" --result "$WORK/dual.json" \
    "${L[0]}" "${L[1]}" "${L[2]}" "${L[3]}" >"$WORK/dual.txt" 2>&1
check s000_dual_ok test $? -eq 0
"$SSDBENCH" suite "${C[@]}" --layout stripe:128k --baseline "$WORK/single.json" \
    --result "$WORK/stripe.json" "${L[0]}" "${L[1]}" "${L[2]}" "${L[3]}" >"$WORK/stripe.txt" 2>&1
check s000_stripe_ok test $? -eq 0
"$SSDBENCH" compare --metrics iops,lat --label per-LUN --label stripe "$WORK/dual.json" \
    "$WORK/stripe.json" >"$WORK/s000cmp.txt" 2>&1
check s000_compare_ok test $? -eq 0
check s000_tables py "
import json
single=json.load(open('$WORK/single.json'))
def iops(d, name):
    ph=[x for x in d['phases'] if x['name'] == name][0]
    t=[r for r in ph['results'] if r['scope'] == 'total'][0]
    return t['read']['iops'] + t['write']['iops']
for name in ('dual', 'stripe'):
    d=json.load(open('$WORK/%s.json' % name)); txt=open('$WORK/%s.txt' % name).read().split('\n')
    assert len(d['suite']['targets']) == 4
    hdr=[l for l in txt if l.strip().startswith('point ')][0]
    assert 'x single' in hdr and 'per target' in hdr, hdr
    pts=d['suite']['profiles'][0]['points']
    assert [p['label'] for p in pts] == ['QD1', 'QD2']
    for p in pts:
        f=iops(d, p['phase']) / iops(single, p['phase'])
        line=[l for l in txt if l.split()[:1] == [p['label']]][0].split()
        assert line[-2] == '%.2fx' % f, (line, f)
        assert line[-1] == '%.2fx' % (f * 2 / 4), (line, f)
txt=open('$WORK/s000cmp.txt').read().split('\n')
i=txt.index('== 4k-random-read: IOPS (more is better)')
assert txt[i+1].split() == ['point', 'per-LUN', 'stripe', 'ratio', 'stripe', '/', 'per-LUN'], txt[i+1]
j=txt.index('== 4k-random-read: mean latency (all I/Os) (less is better)')
assert 'ratio per-LUN / stripe' in txt[j+1], txt[j+1]
"

# --- 001: preconditioning series per direction, then the threads x queue table
"$SSDBENCH" suite --profiles 8k-70-30 --sweep tq:1,2x1,2 --runtime 200ms --precondition 1s \
    --ss-interval 250ms --result "$WORK/s001.json" -q "${L[4]}" >"$WORK/s001.txt" 2>&1
check s001_ok test $? -eq 0
check s001_tables py "
import json, re
d=json.load(open('$WORK/s001.json')); txt=open('$WORK/s001.txt').read().split('\n')
pc=d['suite']['profiles'][0]['precondition']
rows=pc['intervals']['rows']
i=[k for k,l in enumerate(txt) if l.strip().startswith('time round')][0]
body=[l for l in txt[i+1:i+1+len(rows)] if re.match(r'^\s+[0-9.]+s', l)]
assert len(body) == len(rows) >= 4, (len(body), len(rows))
j=[k for k,l in enumerate(txt) if l.strip() == 'per direction:'][0]
assert 'read IOPS' in txt[j+1] and 'write IOPS' in txt[j+1], txt[j+1]
dbody=[l for l in txt[j+2:j+2+len(rows)] if re.match(r'^\s+[0-9.]+s', l)]
assert len(dbody) == len(rows), (len(dbody), len(rows))
k=[n for n,l in enumerate(txt) if l.strip().startswith('point ') and 'IOPS' in l][0]
pts=[l.split()[0] for l in txt[k+1:k+5]]
assert pts == ['1T1Q', '1T2Q', '2T1Q', '2T2Q'], pts
for l, p in zip(txt[k+1:k+5], d['suite']['profiles'][0]['points']):
    assert l.split()[1] == '%.0f' % p['combined']['iops'], (l, p['combined'])
"

# --- 004: the ACT certification summary over a ladder, 20% over-provisioned
"$SSDBENCH" act --find-max --max-load 2x --op 20 --duration 2 --slice 1 -q --log "$WORK/act.log" \
    --result "$WORK/act.json" "${L[4]}" >"$WORK/act.txt" 2>&1
check s004_act_ran test $? -le 1
check s004_summary py "
import json
d=json.load(open('$WORK/act.json')); txt=open('$WORK/act.txt').read().split('\n')
i=[k for k,l in enumerate(txt) if l.startswith('drive ')][0]
assert txt[i].split() == ['drive', 'size', 'load', 'OP', '>', '1', 'ms', '>', '8', 'ms', '>', '64', 'ms',
                          'date', 'result'], txt[i]
assert txt[i+1].split() == ['total/ssd'] * 3, txt[i+1]
loads=d['act']['loads']
rows=txt[i+2:i+2+len(loads)]
for l, ld in zip(rows, loads):
    f=l.split()
    at=f.index('%gx' % ld['load'])
    assert f[at+1] == '20%', f
    for k, ms in enumerate(('1', '8', '64')):
        want='%.2f/%.2f' % (ld['screen']['transaction']['max_pct_over_ms'][ms],
                            ld['screen']['device']['max_pct_over_ms'][ms])
        assert f[at+2+k] == want, (f, want)
    assert f[at+5] == d['phases'][[p['name'] for p in d['phases']].index(ld['phase'])]['started'][:10]
op=d['act']['over_provisioning']
assert op['pct'] == 20 and op['discard'][0]['used_bytes'] == 64 * 1048576 * 8 // 10 // 131072 * 131072, op
fm=d['act']['find_max']
tail=[l for l in txt if l.startswith('highest passing load') or l.startswith('no load passed')][0]
if fm['first_failing_load']:
    assert fm['stopped_by'] == 'a load failed' and 'failed' in tail, (fm, tail)
else:
    assert fm['stopped_by'] == 'max load reached' and 'maximum load' in tail, (fm, tail)
"
check s004_verdict_names_column py "
txt=open('$WORK/act.txt').read().split('\n')
v=[l for l in txt if l.startswith('load passed') or l.startswith('load failed')]
assert v and all('judged on the' in l for l in v), v
"

# --- 004 on the html page: the ACT page has the summary table with the text
# summary's cells, row for row (drive, size, load, OP, the three
# total/device cells, date, result)
"$SSDBENCH" report -o "$WORK/act.html" "$WORK/act.json" >/dev/null 2>&1
check s004_html_ok test -s "$WORK/act.html"
check s004_html_summary py "
import html, re
txt=open('$WORK/act.txt').read().split('\n')
i=[k for k,l in enumerate(txt) if l.startswith('drive ')][0]
want=[]
for l in txt[i+2:]:
    if not l.strip() or l.startswith('('): break
    want.append(l.split())
page=open('$WORK/act.html').read()
t=page[page.index('<caption>Certification summary</caption>'):]
t=t[:t.index('</table>')]
head=[html.unescape(re.sub('<[^>]*>', '', c)) for c in re.findall(r'<th[^>]*>.*?</th>', t)]
assert head == ['drive', 'size', 'load', 'OP', '% of small reads over, total / device only', 'date',
                'result', '> 1 ms', '> 8 ms', '> 64 ms'], head
rows=[[html.unescape(re.sub('<[^>]*>', '', c)) for c in re.findall(r'<td[^>]*>.*?</td>', r)]
      for r in re.findall(r'<tr>(.*?)</tr>', t.split('<tbody>')[1])]
assert want and len(rows) == len(want), (rows, want)
for r, w in zip(rows, want):
    assert ' '.join(r).split() == w, (r, w)
"

# --- dates: ISO 8601 everywhere (the ACT summary's date column, the suite
# header, the report's "started"), never a locale form like the seed's 24/08/2015
check dates_iso py "
import json, re
txt=open('$WORK/act.txt').read().split('\n')
i=[k for k,l in enumerate(txt) if l.startswith('drive ')][0]
dates=[]
for l in txt[i+2:]:
    if not l.strip() or l.startswith('('): break
    dates.append(re.search(r'\s(\S+)\s+(pass|fail|PASS|FAIL|INCOMPLETE|interrupted)', l).group(1))
assert dates and all(re.fullmatch(r'\d{4}-\d{2}-\d{2}', x) for x in dates), dates
d=json.load(open('$WORK/act.json'))
assert re.fullmatch(r'\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z', d['started']), d['started']
assert all(re.fullmatch(r'\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z', p['started']) for p in d['phases'])
page=open('$WORK/act.html').read()
assert not re.search(r'\b\d{1,2}/\d{1,2}/\d{4}\b', page), 'a locale date on the page'
"
"$SSDBENCH" show "$WORK/dual.json" >"$WORK/dual-show.txt" 2>&1
check dates_iso_suite_header grep -qE '^ssdbench .* suite on .*, started [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "$WORK/dual-show.txt"
