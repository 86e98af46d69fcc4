#!/bin/bash
# fio_text.sh - fio's human output (show --format fio-normal) and terse
# lines (fio-terse) against fio 3.33's own on the same jobs, and the fio
# JSON details (ctx, faults, submit/complete tables, disk_util for files,
# job and global options as written, one object per clone without
# group_reporting).
#
# Line shapes: both texts are masked by one rule and compared line by line.
# The rule (also in docs/fio.md "Normal and terse output"):
#   - every number, with its decimals and a k/M/G (or Ki/Mi/Gi) prefix and a
#     B or B/s unit, becomes N;
#   - the spaces that pad a number after "=" or "[" are dropped (fio's
#     "avg=%5.02f" pads short values);
#   - the latency unit in parentheses, (nsec) (usec) (msec), becomes (U);
#   - consecutive percentile rows ("     |...") become one PCTROWS line and
#     consecutive latency distribution rows ("  lat (U)   : ...") one
#     LATDIST line (how many rows there are depends on the values).
# Named exceptions (each also in docs/fio.md):
#   X-version  the version line ("fio-3.33" / "fio-3.33-compatible
#              (ssdbench V)") is masked to VERSION ("Starting N processes"
#              / "threads" is compared as it is);
#   X-slat     "slat" lines are dropped from both: fio measures slat for
#              every asynchronous engine, ssdbench only with disable_slat=0;
#   X-samples  "bw (...)" and "iops :" sample lines are dropped from both:
#              they appear only once a run spans a whole sampling window
#              (500 ms in both), which these short jobs may or may not
#              do (fio's first window starts before its I/O does).
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null || ! fio --version 2>/dev/null | grep -q '^fio-3\.33'; then
    skip all "fio 3.33 is not installed"
    exit 0
fi

mkdir -p "$WORK/fio" "$WORK/sb"

cat >"$WORK/check.py" <<'EOF'
import json, re, sys
test, work, names = sys.argv[1], sys.argv[2], sys.argv[3:]
NUM = re.compile(r'[0-9]+(\.[0-9]+)?([kKMGTPE]i?)?(B/s|B)?')

def result(name, msg):
    print('PASS %s:%s' % (test, name) if msg is None else 'FAIL %s:%s: %s' % (test, name, msg))

def shapes(path, is_fio):
    out = []
    for line in open(path):
        line = line.rstrip('\n')
        if re.match(r'^fio-[0-9]', line):
            out.append('VERSION'); continue           # X-version
        if re.match(r'^    slat \(', line):
            continue                                  # X-slat
        if re.match(r'^   (bw \(|iops  )', line):
            continue                                  # X-samples
        m = NUM.sub('N', line)
        m = re.sub(r'([=\[]) +N', r'\1N', m)     # the padding of a number
        m = re.sub(r'\((nsec|usec|msec)\)', '(U)', m)
        if m.startswith('     |'):
            m = 'PCTROWS'
        elif m.startswith('  lat (U)   :'):
            m = 'LATDIST'
        if out and m in ('PCTROWS', 'LATDIST') and out[-1] == m:
            continue
        out.append(m)
    return out

def normal(name):
    a, b = shapes('%s/fio/%s.txt' % (work, name), True), shapes('%s/sb/%s.txt' % (work, name), False)
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else '<end>'
        y = b[i] if i < len(b) else '<end>'
        if x != y:
            return 'line %d: fio %r, ssdbench %r' % (i + 1, x, y)
    if len(a) < 10:
        return 'only %d lines' % len(a)

def terse(name, sj, fj):
    fl = [l.rstrip('\n').split(';') for l in open('%s/fio/%s.terse' % (work, name)) if l.startswith('3;')]
    sl = [l.rstrip('\n').split(';') for l in open('%s/sb/%s.terse' % (work, name))]
    jobs = sj['jobs']
    if len(sl) != len(fl) or len(sl) != len(jobs):
        return 'lines: fio %d, ssdbench %d, ssdbench JSON jobs %d' % (len(fl), len(sl), len(jobs))
    for f, s, j in zip(fl, sl, jobs):
        # fio's field count less its disk fields, plus ours (9 per disk)
        want = len(f) - 9 * len(fj.get('disk_util', [])) + 9 * len(sj.get('disk_util', []))
        if len(s) != want:
            return 'fields: ssdbench %d, want %d (fio %d)' % (len(s), want, len(f))
        if s[0] != '3' or s[2] != j['jobname']:
            return 'fields 1-3: %r' % s[:3]
        # 1-based positions as in fio's HOWTO: 6 read KiB, 47 write KiB,
        # 90 ctx, 91 majf, 92 minf
        for pos, v in [(6, j['read']['io_kbytes']), (47, j['write']['io_kbytes']), (90, j['ctx']),
                       (91, j['majf']), (92, j['minf'])]:
            if int(s[pos - 1]) != int(v):
                return 'field %d = %s, JSON %s' % (pos, s[pos - 1], v)
        rt = j['read']['runtime']
        if rt and int(s[7]) != 1000 * j['read']['total_ios'] // rt:
            return 'field 8 (read IOPS) = %s' % s[7]
        for pos in range(18, 38):   # read clat percentiles: "P%=V"
            if '%=' not in s[pos - 1]:
                return 'field %d is not a percentile: %r' % (pos, s[pos - 1])
        if not s[87].endswith('%') or not s[92].endswith('%'):
            return 'cpu / depth fields: %r %r' % (s[87], s[92])

def details(name, s, f, r):
    if len(s['jobs']) != len(f['jobs']):
        return 'job objects: ssdbench %d, fio %d' % (len(s['jobs']), len(f['jobs']))
    direct = r['phases'][0]['jobs'][0]['params']['direct']
    for j in s['jobs']:
        for k in ('ctx', 'majf', 'minf', 'iodepth_submit', 'iodepth_complete', 'usr_cpu', 'sys_cpu'):
            if k not in j:
                return 'no %r' % k
        for k in ('iodepth_submit', 'iodepth_complete'):
            if sorted(j[k]) != sorted(f['jobs'][0][k]):
                return '%s keys %s' % (k, sorted(j[k]))
            if abs(sum(j[k].values()) - 100.0) > 0.5:
                return '%s does not add up to 100: %s' % (k, j[k])
        # floats where fio writes floats ("%f"), integers where it writes integers
        fl = [j['usr_cpu'], j['sys_cpu'], j['read']['iops'], j['read']['clat_ns']['mean'],
              j['read']['bw_mean'], j['iodepth_level']['1'], j['iodepth_submit']['4'],
              j['latency_us']['10'], j['latency_percentile']] + [d['util'] for d in s.get('disk_util', [])]
        if not all(isinstance(v, float) for v in fl):
            return 'not all floats: %r' % fl
        if not all(isinstance(v, int) for v in (j['read']['total_ios'], j['read']['io_bytes'], j['job_runtime'])):
            return 'counts are not integers'
        for k in ('ctx', 'majf', 'minf'):
            if not isinstance(j[k], int) or j[k] < 0:
                return '%s = %r' % (k, j[k])
        # direct I/O waits for the device: the thread switched at least once
        if direct and j['ctx'] < 1:
            return 'ctx %r with direct I/O' % j['ctx']
    # options echoed as written; the directory is each tool's own
    g = s.get('global options')
    if g and 'directory' in g:
        g['directory'] = g['directory'][:-2] + 'fio' if g['directory'].endswith('/sb') else g['directory']
    if g != f.get('global options'):
        return 'global options %s, fio %s' % (g, f.get('global options'))
    for j in s['jobs']:
        if j['job options'] != f['jobs'][0]['job options']:
            return 'job options %s, fio %s' % (j['job options'], f['jobs'][0]['job options'])
    # a file's filesystem device, as fio reports it
    fn = [d['name'] for d in f.get('disk_util', [])]
    sn = [d['name'] for d in s.get('disk_util', [])]
    if fn != sn:
        return 'disk_util: fio %s, ssdbench %s' % (fn, sn)
    # issued I/O counts: the objects' figures (with flushes) add up to the workers'
    total = sum(x['read']['total_ios'] + x['write']['total_ios'] + x['sync']['total_ios'] for x in s['jobs'])
    want = sum(w['ios'] for jb in r['phases'][0]['jobs'] for w in jb['worker_stats'])
    if total != want:
        return 'issued %d, workers %d' % (total, want)

docs = {}
for name in names:
    sj = json.load(open('%s/sb/%s.json' % (work, name)))
    fj = json.load(open('%s/fio/%s.json' % (work, name)))
    rj = json.load(open('%s/sb/%s.res' % (work, name)))
    docs[name] = sj
    result(name + '-normal-shapes', normal(name))
    result(name + '-terse-fields', terse(name, sj, fj))
    result(name + '-json-details', details(name, sj, fj, rj))

def text(name):
    return open('%s/sb/%s.txt' % (work, name)).read()

def expect(name, got, want):
    result(name, None if got == want else 'got %r, want %r' % (got, want))

# per clone: numjobs=2 without group_reporting gives two objects, each
# "jobs=1", each with its own counts (adding up to the job's); with
# group_reporting one object "jobs=2"
if 'clones' in docs:
    expect('clones-two-headers', len(re.findall(r'(?m)^c: \(groupid=0, jobs=1\)', text('clones'))), 2)
    expect('clones-per-clone-ios', [j['read']['total_ios'] for j in docs['clones']['jobs']], [512, 512])
if 'grouped' in docs:
    expect('grouped-one-header', len(re.findall(r'(?m)^g: \(groupid=0, jobs=2\)', text('grouped'))), 1)
    expect('grouped-ios', [j['read']['total_ios'] for j in docs['grouped']['jobs']], [1024])
if 'shared' in docs:
    expect('shared-two-objects', len(docs['shared']['jobs']), 2)
if 'twofiles' in docs:
    expect('twofiles-one-object', len(docs['twofiles']['jobs']), 1)
if 'blockdev' in docs:
    t = text('blockdev')
    result('blockdev-fsync-block', None if '  fsync/fdatasync/sync_file_range:' in t and '    sync percentiles' in t
           else 'no fsync block')
    result('blockdev-disk-stats', None if len(docs['blockdev'].get('disk_util', [])) == 1 and
           re.search(r'(?m)^  loop[0-9]+: ios=', t) else 'no Disk stats line for the loop device')
# submit / complete tables are measured: psync submits and reaps one I/O
# per call (fio's bucket "4": 1-4 I/Os)
if 'read' in docs:
    j = docs['read']['jobs'][0]
    expect('psync-submit-bucket', float(j['iodepth_submit']['4']), 100.0)
    expect('psync-complete-bucket', float(j['iodepth_complete']['4']), 100.0)
EOF

# job NAME BODY: the same job file for both tools, each in its own directory
job() {
    local name=$1 body=$2
    for t in fio sb; do
        printf '[global]\ndirectory=%s\nsize=2m\nbs=4k\n%s\n' "$WORK/$t" "$body" >"$WORK/$t/$name.fio"
    done
}
job read $'[r]\nrw=read\nioengine=psync'
job randwrite $'[w]\nrw=randwrite\nioengine=libaio\niodepth=4\ndirect=1'
job randrw $'[m]\nrw=randrw\nrwmixread=70\nioengine=psync'
job clones $'[c]\nrw=randread\nioengine=psync\nnumjobs=2'
job grouped $'group_reporting\n[g]\nrw=randread\nioengine=psync\nnumjobs=2'
# clones of one job on one named file (two objects), and one job on two
# files (one object: fio reports a job's files together)
job shared $'[s]\nfilename=shared.dat\nrw=randread\nioengine=psync\nnumjobs=2'
job twofiles $'[t]\nfilename=a.dat:b.dat\nrw=randread\nioengine=psync'
names=(read randwrite randrw clones grouped shared twofiles)
# a block device (both tools on the same RAM-backed loop device): Disk
# stats of the device itself, and the fsync block
if dev=$(make_loop 16); then
    for t in fio sb; do
        printf '[b]\nfilename=%s\nsize=2m\nbs=4k\nrw=randwrite\nfsync=8\nioengine=psync\n' "$dev" \
            >"$WORK/$t/blockdev.fio"
    done
    names+=(blockdev)
else
    skip blockdev "no loop device (needs root)"
fi

ran=()
for name in "${names[@]}"; do
    # one fio run, three formats: its setup lines, the terse lines, the JSON
    # document (from "{" to "}" at the start of a line), then the normal text
    (cd "$WORK/fio" && fio --output-format=normal,terse,json --output="$WORK/fio/$name.all" "$name.fio" \
        >/dev/null 2>&1) || { fail "$name-fio" "fio did not run $name.fio"; continue; }
    awk -v t="$WORK/fio/$name.terse" -v j="$WORK/fio/$name.json" -v n="$WORK/fio/$name.txt" '
        /^3;/ { print > t; next }
        /^\{/ { injson = 1 }
        injson { print > j; if (/^\}/) injson = 0; next }
        { print > n }' "$WORK/fio/$name.all"
    consent=()
    [ "$name" = blockdev ] && consent=(--destroy="$dev")
    if ! "$SSDBENCH" run -q "${consent[@]}" --result "$WORK/sb/$name.res" --format fio-normal -o "$WORK/sb/$name.run.txt" \
        "$WORK/sb/$name.fio" >"$WORK/sb/$name.log" 2>&1; then
        fail "$name-run" "$(head -c 300 "$WORK/sb/$name.log")"
        continue
    fi
    "$SSDBENCH" show --format fio-normal "$WORK/sb/$name.res" >"$WORK/sb/$name.txt" 2>"$WORK/sb/$name.err"
    "$SSDBENCH" show --format fio-terse "$WORK/sb/$name.res" >"$WORK/sb/$name.terse" 2>>"$WORK/sb/$name.err"
    "$SSDBENCH" show --format fio-json "$WORK/sb/$name.res" >"$WORK/sb/$name.json" 2>>"$WORK/sb/$name.err"
    # the live output and the re-rendered one are the same text
    check "$name-live-equals-show" cmp -s "$WORK/sb/$name.run.txt" "$WORK/sb/$name.txt"
    ran+=("$name")
done

# Every check of every job in one python3 run (its start-up is slow on a
# loaded machine); it prints the PASS / FAIL lines itself.
python3 "$WORK/check.py" "$TESTNAME" "$WORK" "${ran[@]}"

# a result without per-worker figures (an older file) still renders
python3 - "$WORK/sb/read.res" "$WORK/sb/old.res" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d['phases']:
    for j in p['jobs']:
        j['worker_stats'] = [{'ios': w['ios'], 'busy_s': w['busy_s']} for w in j['worker_stats']]
json.dump(d, open(sys.argv[2], 'w'))
EOF
if "$SSDBENCH" show --format fio-normal "$WORK/sb/old.res" >"$WORK/sb/old.txt" 2>&1 &&
    grep -q '^  cpu          : usr=.*ctx=0, majf=0, minf=0$' "$WORK/sb/old.txt"; then
    pass old-result-renders
else
    fail old-result-renders "$(head -c 300 "$WORK/sb/old.txt")"
fi

# a damaged document: one line, non-zero exit, no crash
echo '{"schema":"ssdbench-result/1","phases":[{"name":"x","jobs":[{"name":"a","workers":1}],"results":[{"scope":"total","read":{"ios":1,"latency_ns":{"n":1,"histogram":"garbage"}}}]}]}' >"$WORK/bad.json"
"$SSDBENCH" show --format fio-normal "$WORK/bad.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
check damaged-exit test "$rc" -ne 0
check damaged-one-line test "$(wc -l <"$WORK/bad.err")" = 1
