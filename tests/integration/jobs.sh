#!/bin/bash
# jobs.sh - the job files shipped in jobs/ parse as written, and run (with
# their times and sizes shortened, nothing else changed): every section ran
# with the pattern, block size and mix its file names.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
JOBS=$PWD/jobs
n=0
for f in "$JOBS"/*.fio; do
    n=$((n + 1))
    b=$(basename "$f" .fio)
    out=$("$SSDBENCH" run --parse-only "$f" 2>&1)
    check "parse_$b" grep -q 'parsed, OK' <<<"$out"
    sed -e 's/^runtime=.*/runtime=200ms/' -e 's/^size=.*/size=8m/' -e 's/^ss_dur=.*/ss_dur=200ms\nss_interval=50ms/' \
        -e 's/^ss_ramp=.*/ss_ramp=0/' -e 's/^loops=.*/loops=1/' "$f" >"$WORK/$b.fio"
    (cd "$WORK" && "$SSDBENCH" run "$WORK/$b.fio" -q --result "$WORK/$b.json" >/dev/null 2>&1)
    check "run_$b" test $? -eq 0
    check "sections_$b" python3 -c "
import json, re, sys
d = json.load(open('$WORK/$b.json'))
want = {}
sec = None
for line in open('$f'):
    line = line.strip()
    m = re.match(r'^\[(.+)\]$', line)
    if m:
        sec = m.group(1); want.setdefault(sec, {}); continue
    if sec and sec != 'global' and '=' in line and not line.startswith(';'):
        k, v = line.split('=', 1); want[sec][k] = v
want.pop('global', None)
ran = {j['name']: j['params'] for p in d['phases'] for j in p['jobs']}
assert set(ran) == set(want), (set(ran), set(want))
size = {'4k': 4096, '8k': 8192, '128k': 131072}
for s, opts in want.items():
    p = ran[s]
    assert p['rw'] == opts['rw'], (s, p['rw'], opts['rw'])
    if 'bs' in opts:
        assert p['bs'] == size[opts['bs']], (s, p['bs'])
    if 'rwmixread' in opts:
        assert p['rwmixread'] == int(opts['rwmixread']), (s, p.get('rwmixread'))
    ph = [x for x in d['phases'] if any(j['name'] == s for j in x['jobs'])][0]
    t = [r for r in ph['results'] if r['scope'] == 'total'][0]
    reads, writes = t['read']['ios'], t['write']['ios']
    assert (reads > 0) == (opts['rw'] in ('randread', 'read', 'randrw')), (s, reads)
    assert (writes > 0) == (opts['rw'] in ('randwrite', 'write', 'randrw')), (s, writes)
"
done
check job_files_present test "$n" -ge 7
# the README's example names a file that exists
for j in $(grep -o 'jobs/[a-z0-9-]*\.fio' README.md docs/*.md | cut -d: -f2 | sort -u); do
    check "readme_names_$(basename "$j" .fio)" test -f "$j"
done
