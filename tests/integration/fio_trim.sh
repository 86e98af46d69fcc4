#!/bin/bash
# fio_trim.sh - trims as the third direction: rw=trim, randtrim, trimwrite
# and randtrimwrite on a loop device with each engine. Checked: the trims
# ssdbench counts equal the kernel's discard counter delta
# (/sys/class/block/loopN/stat fields 12 + 13: discards and merged
# discards) and the result's kernel_stats; writes likewise; fio 3.33 on the
# same job file issues as many trims and writes; the trim figures agree
# across the result, fio JSON, fio normal text (trim line, issued rwts,
# TRIM group line), ssdbench's text table and CSV; fio's terse v3 has no
# trim fields, and ours has as many fields as fio's; trimmed ranges read
# back as zeros; the interval rows' trim columns add up to the totals, also
# when a killed run is recovered from its journal; files are trimmed by
# punching holes; fio mode's --readonly refuses trim jobs; and the write
# guard treats a trim job as a write (a device with a file system is
# refused and its bytes are unchanged).
source "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }

if ! is_root; then
    skip all "needs root for loop devices"
    exit 0
fi
dev=$(make_loop 48) || { skip all "no loop device"; exit 0; }
name=$(basename "$dev")
have_fio=false
need_tool fio fio fio-compare && fio --version 2>/dev/null | grep -q '^fio-3\.33' && have_fio=true
command -v fio >/dev/null && ! $have_fio && skip fio-compare "the fio installed is not fio 3.33"

# discards (with merges) and writes (with merges) the kernel completed
kcounts() { awk '{print $12 + $13, $5 + $6}' "/sys/class/block/$name/stat"; }

# mode engine depth; each case on its own 8 MiB at offset i * 8 MiB.
# randtrimwrite comes first: fio 3.33's randtrimwrite with a nonzero
# offset stops after one trim (it adds the offset to the write's offset
# twice), so only offset 0 compares with fio.
cases=("randtrimwrite io_uring 2" "trim psync 1" "randtrim libaio 4" "trimwrite io_uring 4"
       "trim io_uring 8" "randtrim psync 1")
i=-1
for c in "${cases[@]}"; do
    read -r rw eng depth <<<"$c"
    i=$((i + 1))
    t="$rw-$eng"
    jf="$WORK/$t.fio"
    cat >"$jf" <<EOF
[$t]
filename=$dev
rw=$rw
size=8m
offset=$((i * 8))m
bs=64k
ioengine=$eng
iodepth=$depth
direct=1
EOF
    # random data first, so that the trimmed range reading back as zeros
    # shows the trims reached the device
    dd if=/dev/urandom of="$dev" bs=1M seek=$((i * 8)) count=8 oflag=direct status=none
    before=$(kcounts)
    if ! "$SSDBENCH" run -q --result "$WORK/$t.res" "$jf" >"$WORK/$t.log" 2>&1; then
        fail "$t-run" "$(head -c 300 "$WORK/$t.log")"
        continue
    fi
    after=$(kcounts)
    "$SSDBENCH" show --format fio-json "$WORK/$t.res" >"$WORK/$t.json" &&
        "$SSDBENCH" show --format fio-normal "$WORK/$t.res" >"$WORK/$t.txt" &&
        "$SSDBENCH" show --format fio-terse "$WORK/$t.res" >"$WORK/$t.terse" &&
        "$SSDBENCH" show --format text "$WORK/$t.res" >"$WORK/$t.table" &&
        "$SSDBENCH" show --format csv "$WORK/$t.res" >"$WORK/$t.csv" ||
        { fail "$t-show" "show failed"; continue; }
    fiojson=
    if $have_fio; then
        if (cd "$WORK" && fio --output-format=json,terse --output="$WORK/$t.fio.all" "$jf" >/dev/null 2>&1); then
            awk -v t="$WORK/$t.fio.terse" -v j="$WORK/$t.fio.json" '
                /^3;/ { print > t; next }
                /^\{/ { injson = 1 }
                injson { print > j; if (/^\}/) injson = 0 }' "$WORK/$t.fio.all"
            fiojson=$WORK/$t.fio.json
        else
            fail "$t-fio" "fio did not run $jf"
        fi
    fi
    python3 - "$TESTNAME" "$t" "$rw" "$WORK" "$before" "$after" "$fiojson" <<'EOF'
import csv, json, re, sys
test, t, rw, work, before, after, fiojson = sys.argv[1:8]
res = json.load(open('%s/%s.res' % (work, t)))
fj = json.load(open('%s/%s.json' % (work, t)))
txt = open('%s/%s.txt' % (work, t)).read()
terse = [l.rstrip('\n').split(';') for l in open('%s/%s.terse' % (work, t))]
table = open('%s/%s.table' % (work, t)).read()
rows = list(csv.DictReader(open('%s/%s.csv' % (work, t))))

def check(name, ok, why=''):
    print(('PASS %s:%s-%s' % (test, t, name)) if ok else ('FAIL %s:%s-%s: %s' % (test, t, name, why)))

bs, size = 65536, 8 << 20
writes = 'write' in rw
want = size // bs
ph = res['phases'][0]
tot = [s for s in ph['results'] if s['scope'] == 'total'][0]
tr, wr = tot['trim'], tot['write']
check('trim-count', tr['ios'] == want and tr['bytes'] == size and tr['errors'] == 0,
      'trim ios %s bytes %s errors %s, want %d' % (tr['ios'], tr['bytes'], tr['errors'], want))
check('write-count', wr['ios'] == (want if writes else 0), 'write ios %s' % wr['ios'])
check('no-reads', tot['read']['ios'] == 0, 'read ios %s' % tot['read']['ios'])
check('combined', tot['combined']['ios'] == tr['ios'] + wr['ios'], str(tot['combined']['ios']))
b, a = [int(x) for x in before.split()], [int(x) for x in after.split()]
check('kernel-discards', a[0] - b[0] == tr['ios'], 'kernel %d, ssdbench %d' % (a[0] - b[0], tr['ios']))
check('kernel-writes', a[1] - b[1] == wr['ios'], 'kernel %d, ssdbench %d' % (a[1] - b[1], wr['ios']))
iv = ph['intervals']
rsum = lambda k: sum(r[iv['fields'].index(k)] for r in iv['rows'])
check('intervals-trim-counts', rsum('trim_ios') == tr['ios'] and rsum('trim_bytes') == size and
      rsum('write_ios') == wr['ios'], 'rows: %s trims, %s bytes' % (rsum('trim_ios'), rsum('trim_bytes')))
check('intervals-last-field', iv['fields'][-1] == 'device_temp_c' and len(iv['fields']) == len(iv['units']) and
      all(len(r) == len(iv['fields']) for r in iv['rows']), str(iv['fields']))
ks = ph['kernel_stats'][0]
check('kernel-stats', ks['discard_ios'] + ks['discard_merges'] == tr['ios'] and ks['discard_bytes'] == size,
      'kernel_stats %s' % {k: v for k, v in ks.items() if k.startswith('discard')})
# fio JSON
job = fj['jobs'][0]
check('fio-json-trim', job['trim']['total_ios'] == tr['ios'] and job['trim']['io_bytes'] == size and
      job['trim']['lat_ns']['N'] == tr['ios'], str(job['trim'].get('total_ios')))
check('fio-json-write', job['write']['total_ios'] == wr['ios'], str(job['write']['total_ios']))
# fio normal text
m = re.search(r'^  trim: IOPS=[^,]+, BW=.*\((\S+)/(\d+)msec\)$', txt, re.M)
check('text-trim-line', m is not None, 'no trim line')
m = re.search(r'issued rwts: total=(\d+),(\d+),(\d+),0 short=0,0,0,0 dropped=0,0,0,0', txt)
check('text-issued', m is not None and [int(x) for x in m.groups()] == [0, wr['ios'], tr['ios']],
      m.group(0) if m else 'no issued rwts line')
m = re.search(r'^   TRIM: bw=.* io=(\d+)KiB \(', txt, re.M)
check('text-group-trim', m is not None and int(m.group(1)) * 1024 == size, m.group(0) if m else 'no TRIM group line')
check('text-header', ('rw=%s,' % rw) in txt and '(T) 64.0KiB-64.0KiB' in txt, txt.splitlines()[0])
# terse v3: reads and writes only, as fio's
check('terse-write', int(terse[0][46]) == wr['ios'] * bs // 1024 if terse[0][46].isdigit() else False,
      'write KiB field %s' % terse[0][46])
# ssdbench's own table and CSV
m = re.search(r'^\S+\s+trim\s+(\d+)', table, re.M)
check('table-trim-row', m is not None, 'no trim row')
crow = [r for r in rows if r['scope'] == 'total' and r['dir'] == 'trim']
check('csv-trim-row', len(crow) == 1 and float(crow[0]['ios']) == tr['ios'] and float(crow[0]['bytes']) == size,
      str(crow))
if fiojson:
    f = json.load(open(fiojson))['jobs'][0]
    check('fio-same-trims', f['trim']['total_ios'] == tr['ios'],
          'fio %d, ssdbench %d' % (f['trim']['total_ios'], tr['ios']))
    check('fio-same-writes', f['write']['total_ios'] == wr['ios'],
          'fio %d, ssdbench %d' % (f['write']['total_ios'], wr['ios']))
    ft = [l.rstrip('\n').split(';') for l in open(fiojson.replace('.json', '.terse'))]
    check('terse-fields-as-fio', len(ft[0]) == len(terse[0]), 'fio %d, ssdbench %d' % (len(ft[0]), len(terse[0])))
EOF
    # a trim-only job leaves zeros behind; a trimwrite one leaves data
    if [[ $rw == *write ]]; then
        check "$t-written-not-zero" test "$(dd if="$dev" bs=1M skip=$((i * 8)) count=8 iflag=direct status=none |
            tr -d '\0' | head -c 1 | wc -c)" -eq 1
    else
        check "$t-zeros-after-trim" cmp -s <(dd if="$dev" bs=1M skip=$((i * 8)) count=8 iflag=direct status=none) \
            <(head -c $((8 << 20)) /dev/zero)
    fi
done

# --- a run killed mid-way: the journal's rows give the recovered trim totals
"$SSDBENCH" run -q --filename="$dev" --rw=randtrim --bs=64k --size=8m --time_based --runtime=30 \
    --interval=0.2 --ioengine=psync --result "$WORK/kill.json" >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/kill.json.partial" 2
kill -9 $pid
wait $pid 2>/dev/null
if "$SSDBENCH" show --format json "$WORK/kill.json.partial" >"$WORK/kill.show.json" 2>"$WORK/kill.err"; then
    out=$(python3 - "$WORK/kill.json.partial" "$WORK/kill.show.json" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
fields = json.loads([l for l in lines if l.startswith('# fields ')][0][9:])
rows = []
for l in lines:
    if l.startswith('['):
        try: rows.append(json.loads(l))
        except ValueError: pass
want = sum(r[fields.index('trim_ios')] for r in rows)
tot = [s for s in json.load(open(sys.argv[2]))['phases'][0]['results'] if s['scope'] == 'total'][0]
print(want > 0 and tot['trim']['ios'] == want and tot['read']['ios'] == 0, want, tot['trim']['ios'])
EOF
)
    check journal-trim-totals test "${out%% *}" = True
else
    fail journal-trim-totals "$(head -c 300 "$WORK/kill.err")"
fi

# --- a file: trims punch holes (fio would fail them with ENOTTY)
f="$WORK/trimfile.bin"
"$SSDBENCH" run -q --filename="$f" --size=4m --rw=write --bs=1m --direct=0 >/dev/null 2>&1
alloc0=$(stat -c %b "$f")
if "$SSDBENCH" run -q --filename="$f" --size=4m --rw=trim --bs=64k --ioengine=psync --direct=0 \
    --result "$WORK/file.res" >"$WORK/file.log" 2>&1; then
    alloc1=$(stat -c %b "$f")
    check file-trim-count test "$(json_get "$WORK/file.res" \
        "[s for s in d['phases'][0]['results'] if s['scope'] == 'total'][0]['trim']['ios']")" = 64
    check file-holes-punched test "$alloc1" -lt "$alloc0"
    check file-size-kept test "$(stat -c %s "$f")" -eq $((4 << 20))
else
    fail file-trim "$(head -c 300 "$WORK/file.log")"
fi

# --- fio mode --readonly refuses trim jobs (fio: "trim and write operations
# are not allowed"), before anything runs
mkdir -p "$WORK/bin"
ln -sf "$SSDBENCH" "$WORK/bin/fio"
head -c 1048576 /dev/urandom >"$WORK/ro.data"
ro0=$(sum "$WORK/ro.data")
out=$("$WORK/bin/fio" --readonly --name=t --filename="$WORK/ro.data" --size=1m --rw=trim 2>&1)
rc=$?
check readonly-refuses-trims test $rc -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" -eq 1
check readonly-trim-bytes-unchanged test "$ro0" = "$(sum "$WORK/ro.data")"

# --- the write guard: a trim job is a write
if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$dev" >/dev/null 2>&1; then
    s0=$(sum "$dev")
    d0=$(kcounts)
    for rw in trim randtrim trimwrite; do
        out=$("$SSDBENCH" run -q --filename="$dev" --rw=$rw --size=1m --bs=64k 2>&1)
        rc=$?
        check "guard-$rw-refused" test $rc -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" -eq 1
        check "guard-$rw-says-why" grep -q "ext4" <<<"$out"
    done
    check guard-bytes-unchanged test "$s0" = "$(sum "$dev")"
    check guard-no-discards test "$(kcounts | cut -d' ' -f1)" = "$(cut -d' ' -f1 <<<"$d0")"
    # with consent the trims go through
    if "$SSDBENCH" run -q --destroy="$dev" --filename="$dev" --rw=trim --size=1m --bs=64k >/dev/null 2>&1; then
        check guard-consent-trims test "$(sum "$dev")" != "$s0"
    else
        fail guard-consent-trims "a consented trim job failed"
    fi
else
    skip guard "mkfs.ext4 not installed"
fi
