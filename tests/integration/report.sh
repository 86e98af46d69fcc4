#!/bin/bash
# run.sh: long (started first)
# report.sh - `ssdbench report` end to end on results made here (single runs,
# a suite with preconditioning and a QD sweep, ACT loads on the null engine,
# a fileio thread list): every page is well-formed XML and self-contained (no
# http/https, no script, no external resource), holds the charts its kinds
# call for, and the CSV tables round-trip: every number equals the one in the
# JSON (copied figures exactly; percentiles, histogram bins and "% over X ms"
# recomputed from the stored buckets). With Chromium installed the combined
# page is rendered headless and every chart's plot area must hold drawn data.
source "$(dirname "$0")/lib.sh"

R="$WORK/r"
mkdir -p "$R"
cd "$WORK" || exit 1

# --- results to report on (a few seconds in all)
"$SSDBENCH" run --name=a --filename="$WORK/f" --size=16m --rw=randrw --bs=4k --iodepth=4 --runtime=1 \
    --interval=250ms --result "$R/single.json" -q >/dev/null
check make_single test -s "$R/single.json"
"$SSDBENCH" run --name=a --filename="$WORK/g" --size=16m --rw=randrw --bs=4k --iodepth=4 --runtime=1 \
    --interval=250ms --direct=0 --result "$R/single2.json" -q >/dev/null
truncate -s 32m "$WORK/s.img"
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1,2,4 --runtime 500ms --precondition auto \
    --ss-interval 100ms --ss-max-rounds 6 --precondition-load 1x2 --result "$R/suite.json" \
    --destroy "$WORK/s.img" -q "$WORK/s.img" >/dev/null 2>&1
"$SSDBENCH" act --engine null --load 1x,2x --duration 4s --tick-ms 100 --slice 1 --log "$WORK/act.log" \
    --result "$R/act.json" -q /dev/ssdbench-report-test-null >/dev/null 2>&1
mkdir -p "$WORK/fio"
(cd "$WORK/fio" && "$SSDBENCH" fileio --file-num=2 --file-total-size=4M prepare >/dev/null &&
    "$SSDBENCH" fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrd --threads=1,2 --time=1 \
        --result "$R/fileio.json" -q run >/dev/null)
KINDS="single"
for k in suite act fileio; do
    if [ -s "$R/$k.json" ]; then KINDS="$KINDS $k"; else skip "make_$k" "ssdbench $k produced no result"; fi
done

# --- one page per kind, the overlay of two runs (its profile "a" also gets a
# comparables chart), and everything in one page
for k in $KINDS; do
    "$SSDBENCH" report "$R/$k.json" -o "$WORK/$k.html"
    check "html_$k" test -s "$WORK/$k.html"
done
"$SSDBENCH" report "$R/single.json" "$R/single2.json" --label ssd --label cache -o "$WORK/overlay.html"
check html_overlay test -s "$WORK/overlay.html"
all=()
for k in $KINDS; do all+=("$R/$k.json"); done
"$SSDBENCH" report "${all[@]}" --title "all kinds" -o "$WORK/all.html"
check html_all test -s "$WORK/all.html"

# tables fit the page: every <table> sits directly in the horizontal scroll
# wrapper (a wide table scrolls inside it, the page never gets wider), and
# the wrapper scrolls
cat >"$WORK/wrap.py" <<'EOF'
import re, sys
for f in sys.argv[1:]:
    s = open(f, encoding='utf-8').read()
    n = len(re.findall(r'<table\b', s))
    wrapped = len(re.findall(r'<div class="tablewrap"><table\b', s))
    assert n > 0 and wrapped == n, (f, n, wrapped)
    assert re.search(r'\.tablewrap\{overflow-x:auto', s), f
EOF
check tables_in_scroll_wrapper python3 "$WORK/wrap.py" "$WORK/all.html" "$WORK/overlay.html"
# one thousands style: the counts and rates the paragraphs print are grouped
# as the table cells are ("2,000 small reads/s", never "2000")
cat >"$WORK/para.py" <<'EOF'
import html, re, sys
s = open(sys.argv[1], encoding='utf-8').read()
paras = [html.unescape(re.sub('<[^>]*>', '', p)) for p in re.findall(r'<p[^>]*>.*?</p>', s, re.S)]
units = r'(small reads/s|client writes/s|s logged|IOPS|-byte requests|files of|requests,)'
bare = [m.group(0) for p in paras for m in re.finditer(r'(?<![\d,.])\d{4,}(\.\d+)? ?' + units, p)]
grouped = [m.group(0) for p in paras for m in re.finditer(r'\d{1,3}(,\d{3})+ ?' + units, p)]
assert not bare, bare
assert grouped, 'no grouped number found in the paragraphs'
EOF
check html_paragraph_thousands python3 "$WORK/para.py" "$WORK/all.html"

# well-formed (XML parser), self-contained, and the expected number of charts
cat >"$WORK/page.py" <<'EOF'
import re, sys, xml.dom.minidom
path, want = sys.argv[1], int(sys.argv[2])
text = open(path, encoding='utf-8').read()
xml.dom.minidom.parseString(text.encode('utf-8'))
low = text.lower()
for bad in ('http:', 'https:', '<script', '<link', '<img', '<iframe', '@import', 'url(', ' src=', '//fonts'):
    assert bad not in low, '%s: found %r' % (path, bad)
charts = len(re.findall(r'<svg class="chart"', text))
assert charts == want, '%s: %d charts, want %d' % (path, charts, want)
assert '@media print' in text and 'name="viewport"' in text, 'print and phone CSS'
EOF
# single: percentiles, histogram, IOPS and latency over time; suite: convergence,
# window, precondition latency, 5 per-point charts, every point's percentiles and
# histogram; act: ladder, 2 loads, percentiles, histogram; fileio: 2 + 2
# (each kind has one result in the combined page, so it charts the same there)
declare -A CHARTS=([single]=4 [overlay]=5 [suite]=10 [act]=5 [fileio]=4 [all]=0)
for k in $KINDS; do CHARTS[all]=$((CHARTS[all] + CHARTS[$k])); done
for k in $KINDS overlay all; do
    check "wellformed_selfcontained_$k" python3 "$WORK/page.py" "$WORK/$k.html" "${CHARTS[$k]}"
done
check overlay_ratio grep -q "cache vs ssd (above 1: better)" "$WORK/overlay.html"
check overlay_labels grep -q ">ssd read<" "$WORK/overlay.html"
check setup_header grep -q ">What was tested<" "$WORK/single.html"
check setup_command_line grep -q "ssdbench run --name=a" "$WORK/single.html"
if [[ " $KINDS " == *" suite "* ]]; then
    check suite_window_marks grep -q "least-squares fit" "$WORK/suite.html"
    check suite_verdict grep -Eq 'class="verdict (pass|fail)"' "$WORK/suite.html"
fi
if [[ " $KINDS " == *" act "* ]]; then
    check act_coloured_cells grep -q '<td class="ok">' "$WORK/act.html"
    check act_limits_drawn grep -q "limit 0.1 %" "$WORK/act.html"
fi
if [[ " $KINDS " == *" fileio "* ]]; then
    check fileio_tables grep -q "Throughput, MiB/s (more is better)" "$WORK/fileio.html"
fi

# --- CSV: one file per table plus an index; every number against the JSON
"$SSDBENCH" report "${all[@]}" --format csv -o "$WORK/csv"
check csv_dir test -s "$WORK/csv/index.csv"
check csv_every_table python3 -c "
import csv, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, 'index.csv'))))
assert len(rows) >= 20, len(rows)
for r in rows:
    assert os.path.getsize(os.path.join(d, r['file'])) > 0, r['file']
" "$WORK/csv"
cat >"$WORK/roundtrip.py" <<'EOF'
import csv, decimal, glob, json, math, os, sys
d, files = sys.argv[1], sys.argv[2:]
docs = [json.load(open(f)) for f in files]
checked = 0

def table(name):
    with open(os.path.join(d, name + '.csv')) as f:
        rows = list(csv.reader(f))
    return rows[0], [[None if c == '' else c for c in r] for r in rows[1:]]

def num(c):
    return None if c is None else float(c)

def same(a, b, what, rel=0.0):
    global checked
    checked += 1
    ok = a == b if rel == 0 else (a == b or abs(a - b) <= rel * max(abs(a), abs(b)))
    assert ok, '%s: csv %r != json %r' % (what, a, b)

# the histogram as stored: bucket -> [lo, hi), the report's percentile rule
def bucket_lo(i):
    if i < 256:
        return i
    shift = (i >> 7) - 1
    return (i - (shift << 7)) << shift

def bucket_mid(i):
    if i < 256:
        return i
    shift = (i >> 7) - 1
    return bucket_lo(i) + (1 << shift) // 2

def intval(v):
    return int(v)

def percentile(h, p):
    n = intval(h['n'])
    rank = max(1, math.ceil(decimal.Decimal(repr(p)) / 100 * n))
    c = 0
    for i, k in h['buckets']:
        c += intval(k)
        if c >= rank:
            return float(min(max(bucket_mid(i), intval(h['min'])), intval(h['max'])))

def hist_bin(lo):
    if lo < 8:
        return lo, lo + 1
    w = 1 << (lo.bit_length() - 1 - 3)
    return lo // w * w, lo // w * w + w

def pct_over_ms(h, ms):   # exact from the millisecond buckets (2^k ms thresholds)
    n = intval(h['n'])
    k = int(math.log2(ms))
    c = sum(intval(v) for i, v in h['ms_log2'] if i >= k + 1)
    return 100.0 * (c / n) if n else 0.0

def phase(doc, name):
    return next(p for p in doc['phases'] if p['name'] == name)

def scope(ph, s='total'):
    return next(r for r in ph['results'] if r['scope'] == s)

# the single run: in this report it is the only result with run phases, so
# its tables have one read and one write column
single = docs[0]
ph = phase(single, 'a')
sc = scope(ph)
hdr, rows = table('run-a-summary')
for r in rows:
    dd = sc[r[1]]
    lat = dd['latency_ns']
    same(num(r[2]), dd['iops'], 'summary iops')
    same(num(r[3]), dd['mbps'], 'summary mbps')
    same(num(r[4]), lat['mean'], 'summary mean')
    for col, p in ((5, '50'), (6, '99'), (7, '99.9')):
        same(num(r[col]), float(lat['percentiles'][p]), 'summary p' + p)
    same(num(r[8]), float(lat['max']), 'summary max')
    same(num(r[9]), lat['stddev'], 'summary stddev')
    same(num(r[10]), float(dd['ios']), 'summary ios')
hdr, rows = table('run-a-percentiles')
for ci, dname in ((1, 'read'), (2, 'write')):
    lat = sc[dname]['latency_ns']
    for r in rows:
        if r[ci] is None:
            continue
        p = num(r[0])
        want = float(intval(lat['histogram']['max'])) if p == 100 else percentile(lat['histogram'], p)
        same(num(r[ci]), want, 'percentile %s p%g' % (dname, p))
        if '%g' % p in lat['percentiles']:
            same(num(r[ci]), float(lat['percentiles']['%g' % p]), 'stored percentile %s p%g' % (dname, p))
hdr, rows = table('run-a-histogram')
for dname, col in (('read', 2), ('write', 4)):
    h = sc[dname]['latency_ns']['histogram']
    bins = {}
    for i, k in h['buckets']:
        lo, hi = hist_bin(bucket_lo(i))
        bins[lo] = bins.get(lo, 0) + intval(k)
    n = intval(h['n'])
    seen = 0
    for r in rows:
        lo = int(num(r[0]))
        same(num(r[col]), float(bins.get(lo, 0)), 'histogram %s count at %d' % (dname, lo))
        same(num(r[col + 1]), 100.0 * bins.get(lo, 0) / n, 'histogram %s share' % dname, 1e-12)
        same(num(r[1]), float(hist_bin(lo)[1]), 'histogram bin end')
        seen += bins.get(lo, 0)
    same(float(seen), float(n), 'histogram total ' + dname)
hdr, rows = table('run-a-intervals')
iv = ph['intervals']
fi = {f: i for i, f in enumerate(iv['fields'])}
byt = {row[fi['t_ms']] / 1000: row for row in iv['rows']}
for r in rows:
    row = byt.get(num(r[0]))
    if row is None:
        continue
    same(num(r[1]), float(row[fi['read_iops']]), 'interval read iops')
    same(num(r[3]), float(row[fi['read_lat_mean_ns']]), 'interval read mean')
    same(num(r[4]), float(row[fi['read_lat_max_ns']]), 'interval read max')
    same(num(r[5]), float(row[fi['read_p99_ns']]), 'interval read p99')
hdr, rows = table('results')
for r, doc in zip(rows, docs):
    same(num(r[3]), doc['duration_s'], 'duration')
    same(num(r[9]), float(doc['host']['memory_bytes']), 'memory')

for doc in docs[1:]:
    if 'suite' in doc:
        for prof in doc['suite']['profiles']:
            hdr, rows = table('sweep-' + prof['name'])
            pts = {p['label']: p['combined'] for p in prof['points']}
            keys = ['iops', 'mbps', 'lat_avg_ns', 'p99_ns', 'lat_max_ns', 'lat_sd_avg_ns']
            for r in rows:
                for k, key in enumerate(keys):
                    same(num(r[1 + k]), float(pts[r[0]][key]), 'sweep %s %s' % (r[0], key))
            pc = prof['precondition']
            hdr, rows = table('pre-%s-intervals' % prof['name'])
            fi = {f: i for i, f in enumerate(pc['intervals']['fields'])}
            # a tail shorter than the step (the time after the last round) is
            # no interval: the chart and its table leave it out
            byt, prev = {}, 0
            for row in pc['intervals']['rows']:
                if row[fi['t_ms']] - prev >= pc['intervals']['step_ms'] * 0.999:
                    byt[row[fi['t_ms']] / 1000] = row
                prev = row[fi['t_ms']]
            for r in rows:
                row = byt[num(r[0])]
                for k, key in enumerate(['iops', 'mbps', 'lat_avg_ns', 'lat_max_ns', 'lat_sd_avg_ns', 'p99_ns']):
                    same(num(r[1 + k]), float(row[fi[key]]), 'precondition ' + key)
            hdr, rows = table('pre-%s-rounds' % prof['name'])
            byr = {row[fi['round']]: row for row in pc['intervals']['rows'] if row[fi['round']] >= 1}
            for r in rows:
                same(num(r[1]), float(byr[num(r[0])][fi['iops']]), 'round iops')
    if 'act' in doc:
        hdr, rows = table('act-loads')
        loads = doc['act']['loads']
        for r, load in zip(rows, loads):
            same(num(r[2]), float(load['read_reqs_per_sec']), 'act reads/s')
            for k, ms in enumerate(('1', '8', '64')):
                same(num(r[5 + 2 * k]), float(load['screen']['transaction']['max_pct_over_ms'][ms]), 'act trans max')
                same(num(r[6 + 2 * k]), float(load['screen']['device']['max_pct_over_ms'][ms]), 'act device max')
        for load in loads:
            name = '%gx' % load['load']
            hdr, rows = table('act-%s-slices' % name)
            for r, sl in zip(rows, load['slices']):
                same(num(r[1]), float(sl['end_s']), 'act slice end')
                for h, key in enumerate(('reads_transaction', 'reads')):
                    hs = sl['histograms'][key]
                    for k in range(7):
                        ms = 1 << k
                        v = num(r[2 + 7 * h + k])
                        if str(ms) in hs['pct_over_ms']:
                            same(v, float(hs['pct_over_ms'][str(ms)]), 'act slice %s >= %d ms' % (key, ms))
                        same(v, pct_over_ms(hs['histogram'], ms), 'act slice %s >= %d ms (buckets)' % (key, ms), 1e-12)
    if 'fileio' in doc:
        hdr, rows = table('fileio-scaling')
        sc_ = {s['threads']: s for s in doc['fileio']['scaling']}
        for r in rows:
            s = sc_[num(r[0])]
            for k, key in enumerate(['mibps', 'read_mibps', 'write_mibps', 'iops', 'pct_ms', 'avg_ms']):
                same(num(r[1 + k]), float(s[key]), 'fileio ' + key)

assert checked > 300, checked
print('checked %d numbers' % checked)
EOF
"$SSDBENCH" report "$R/single.json" "${all[@]:1}" --format csv -o "$WORK/csv1"
check csv_round_trip python3 "$WORK/roundtrip.py" "$WORK/csv1" "$R/single.json" "${all[@]:1}"
check csv_stdout grep -q "^# results: What was tested" <("$SSDBENCH" report "$R/single.json" --format csv)

# --- bad input: one line naming the problem, exit 2, no page written
out=$("$SSDBENCH" report "$WORK/none.json" -o "$WORK/bad.html" 2>&1); rc=$?
check missing_file_exit2 test $rc -eq 2
check missing_file_named grep -q "none.json" <<<"$out"
check missing_file_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
echo '{"schema": "ssdbench-result/1", "phases": [' >"$WORK/broken.json"
out=$("$SSDBENCH" report "$WORK/broken.json" -o "$WORK/bad.html" 2>&1); rc=$?
check broken_json_exit2 test $rc -eq 2
check broken_json_named grep -q "broken.json" <<<"$out"
out=$("$SSDBENCH" report "$R/single.json" --baseline 3 -o "$WORK/bad.html" 2>&1); rc=$?
check bad_baseline_exit2 test $rc -eq 2
out=$("$SSDBENCH" report "$R/single.json" --format pdf 2>&1); rc=$?
check bad_format_exit2 test $rc -eq 2
out=$("$SSDBENCH" report "$R/single.json" --titel x 2>&1); rc=$?
check unknown_option_suggests grep -q "did you mean '--title'" <<<"$out"
check no_page_on_error test ! -e "$WORK/bad.html"
out=$("$SSDBENCH" report 2>&1); rc=$?
check no_results_exit2 test $rc -eq 2

# --- the sanitizer build renders the same page
if [ -x "${SSDBENCH_ASAN:-}" ]; then
    "$SSDBENCH_ASAN" report "${all[@]}" --title "all kinds" -o "$WORK/asan.html" 2>"$WORK/asan.err"
    check asan_report test $? -eq 0
    check asan_same_page cmp -s "$WORK/asan.html" "$WORK/all.html"
fi

# --- rendered in a real browser: every chart's plot area holds drawn data
CHROMIUM=/usr/bin/chromium
if [ ! -x "$CHROMIUM" ]; then
    fail screenshot "$CHROMIUM is missing: the Debian package chromium (scripts/install-deps.sh --test installs it)"
    exit 1
fi
chrome() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$WORK/chrome.XXXXXX")" "$@" 2>/dev/null
}
# the plot frames' positions, measured by the browser on a probe copy of the page
python3 - "$WORK/all.html" "$WORK/probe.html" <<'EOF'
import sys
s = open(sys.argv[1], encoding='utf-8').read()
js = '''<script>
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var r = svg.querySelector('rect').getBoundingClientRect();
    out.push([r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(Math.round).join(','));
  });
  var pre = document.createElement('pre');
  pre.id = 'boxes'; pre.textContent = out.join(';');
  pre.style.position = 'absolute'; pre.style.top = '0'; pre.style.visibility = 'hidden';
  document.body.appendChild(pre);
});
</script>'''
open(sys.argv[2], 'w', encoding='utf-8').write(s.replace('</body>', js + '</body>'))
EOF
chrome --window-size=1000,2000 --dump-dom "file://$WORK/probe.html" | grep -o '<pre id="boxes"[^<]*</pre>' |
    sed 's/<[^>]*>//g' >"$WORK/boxes.txt"
check screenshot_layout test -s "$WORK/boxes.txt"
height=$(tr ';' '\n' <"$WORK/boxes.txt" | awk -F, '{b = $2 + $4; if (b > m) m = b} END {print m + 40}')
chrome --window-size=1000,"${height:-2000}" --force-device-scale-factor=0.5 --screenshot="$WORK/all.png" \
    "file://$WORK/probe.html" >/dev/null
check screenshot_taken test -s "$WORK/all.png"
cat >"$WORK/png.py" <<'EOF'
# Decodes the screenshot (8-bit RGB/RGBA PNG, no library needed) and counts
# coloured pixels inside each chart's plot frame: series, fills and marks are
# drawn in the palette's colours, the frame and the grid in greys. An empty
# plot has none.
import struct, sys, zlib
png, boxes, want, scale = sys.argv[1], open(sys.argv[2]).read().strip(), int(sys.argv[3]), 0.5
data = open(png, 'rb').read()
pos, idat = 8, []
while pos < len(data):
    n, = struct.unpack('>I', data[pos:pos + 4]); kind = data[pos + 4:pos + 8]; body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat.append(body)
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(b''.join(idat))
stride, rows, prev, i = w * bpp, [], bytearray(w * bpp), 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    if f == 1:
        for x in range(bpp, stride): line[x] = (line[x] + line[x - bpp]) & 255
    elif f == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif f == 3:
        for x in range(stride): line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
    elif f == 4:
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
blank, sizes = [], []
for k, box in enumerate(boxes.split(';')):
    x, y, bw, bh = (int(v) for v in box.split(','))
    n = 0
    for yy in range(int((y + 1) * scale), min(h, int((y + bh - 1) * scale))):
        row = rows[yy]
        for xx in range(int((x + 1) * scale), min(w, int((x + bw - 1) * scale))):
            px = row[xx * bpp:xx * bpp + 3]
            n += max(px) - min(px) > 12
    sizes.append(n)
    if n < 20:
        blank.append(k + 1)
# the page itself is not colourful outside the charts: the header band
top = sum(max(p) - min(p) > 12 for r in rows[:int(60 * scale)] for p in zip(r[0::bpp], r[1::bpp], r[2::bpp]))
assert top == 0, 'coloured pixels in the title band: %d' % top
assert len(sizes) == want, '%d charts found, want %d' % (len(sizes), want)
assert not blank, 'blank charts %s of %d (coloured pixels per chart: %s)' % (blank, len(sizes), sizes)
print('%d charts, coloured pixels %d..%d' % (len(sizes), min(sizes), max(sizes)))
EOF
check screenshot_charts_drawn python3 "$WORK/png.py" "$WORK/all.png" "$WORK/boxes.txt" "${CHARTS[all]}"

# the page never gets wider than the window: at 1280 px (and at 700 px,
# where the wide tables must scroll inside their wrappers) no table's
# wrapper ends past the window and the document does not scroll sideways
python3 - "$WORK/all.html" "$WORK/fit.html" <<'EOF'
import sys
s = open(sys.argv[1], encoding='utf-8').read()
js = '''<script>
window.addEventListener('load', function () {
  var w = document.documentElement.clientWidth, bad = [], wide = 0;
  document.querySelectorAll('table').forEach(function (t, i) {
    var p = t.parentElement.getBoundingClientRect();
    if (p.right > w + 1) bad.push(i + ':' + Math.round(p.right));
    if (t.getBoundingClientRect().width > p.width + 1) wide++;
  });
  var pre = document.createElement('pre');
  pre.id = 'fit';
  pre.textContent = 'width=' + w + ' scroll=' + document.documentElement.scrollWidth + ' scrolling=' + wide +
                    ' over=' + bad.join(',');
  document.body.appendChild(pre);
});
</script>'''
open(sys.argv[2], 'w', encoding='utf-8').write(s.replace('</body>', js + '</body>'))
EOF
cat >"$WORK/fit.py" <<'EOF'
import re, sys
m = re.fullmatch(r'width=(\d+) scroll=(\d+) scrolling=(\d+) over=(.*)', sys.argv[1])
assert m, sys.argv[1]
assert int(m.group(2)) <= int(m.group(1)) and m.group(4) == '', sys.argv[1]
if sys.argv[2] == 'narrow':
    assert int(m.group(3)) > 0, 'no table scrolls at this width: ' + sys.argv[1]
EOF
for W in 1280 700; do
    fit=$(chrome --window-size=$W,1000 --dump-dom "file://$WORK/fit.html" | grep -o '<pre id="fit">[^<]*' |
        sed 's/<[^>]*>//')
    check "tables_fit_$W" python3 "$WORK/fit.py" "$fit" "$([ "$W" = 700 ] && echo narrow || echo wide)"
done
