#!/bin/bash
# bench/archive.sh - the results archive's speed (docs/archive.md): fills an
# archive with N (default 10000) results, then times filing one more and
# listing (all rows as text and JSON, a filtered list, a selector), each op
# the median of REPS (default 5) whole ssdbench processes. Target: every op
# under 100 ms. Not part of `make test`.
#   bench/archive.sh            N=10000 REPS=5 (KEEP=1 keeps the archive)
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
N=${N:-10000}
REPS=${REPS:-5}
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $WORK" || trap 'rm -rf "$WORK"' EXIT
[ -x "$SSDBENCH" ] || { echo "build ssdbench first (make)"; exit 1; }
export SSDBENCH_ARCHIVE="$WORK/results.db"

"$SSDBENCH" run --name=a --filename="$WORK/f" --size=4m --rw=randrw --bs=4k --runtime=1 \
    --result "$WORK/base.json" -q >/dev/null || exit 1
# N distinct documents (start times differ; every tenth another device), filed
# in batches of 500 so the disk holds one batch at a time
python3 - "$WORK/base.json" "$WORK" "$N" "$SSDBENCH" <<'PY' || exit 1
import json, os, subprocess, sys
base, work, n, sb = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(base))
for start in range(0, n, 500):
    files = []
    for i in range(start, min(n, start + 500)):
        d['started_unix_ms'] = 1700000000000 + i * 60000
        d['targets'][0]['path'] = '/dev/bench%d' % (i % 10)
        f = '%s/b%d.json' % (work, i)
        json.dump(d, open(f, 'w'), indent=1)
        files.append(f)
    subprocess.run([sb, 'archive', 'add', '--tag', 'batch=%d' % (start // 500)] + files, check=True,
                   stdout=subprocess.DEVNULL)
    for f in files:
        os.remove(f)
PY
echo "archive: $N results, $(du -h "$SSDBENCH_ARCHIVE" | cut -f1)"

# median wall time in ms of REPS runs of a command
timed() {
    local label=$1; shift
    local t=()
    for r in $(seq "$REPS"); do
        local s e
        s=$(date +%s%N)
        "$@" >/dev/null || { echo "$label: failed"; return; }
        e=$(date +%s%N)
        t+=($(((e - s) / 1000)))
    done
    local med
    med=$(printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p")
    printf '%-44s %8.1f ms %s\n' "$label" "$(echo "$med / 1000" | bc -l)" \
        "$([ "$med" -lt 100000 ] && echo ok || echo 'OVER 100 ms')"
}
python3 - "$WORK/base.json" "$WORK" "$REPS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in range(int(sys.argv[3])):
    d['started_unix_ms'] = 1800000000000 + r
    json.dump(d, open('%s/new%d.json' % (sys.argv[2], r), 'w'), indent=1)
PY
k=0
file_one() { "$SSDBENCH" archive add "$WORK/new$k.json"; k=$((k + 1)); }
timed "archive add (one result, into $N)" file_one
timed "archive list (all, text)" "$SSDBENCH" archive list
timed "archive list (all, csv)" "$SSDBENCH" archive list --format csv
timed "archive list --device /dev/bench3 (text)" "$SSDBENCH" archive list --device /dev/bench3
timed "archive list --tag batch=7 --format json" "$SSDBENCH" archive list --tag batch=7 --format json
timed "archive list --since (last 100)" "$SSDBENCH" archive list --since "$(date -u -d @$((1700000000 + (N - 100) * 60)) +%Y-%m-%dT%H:%M)"
timed "report archive:latest?device=/dev/bench5" "$SSDBENCH" report 'archive:latest?device=/dev/bench5' -o "$WORK/r.html"
timed "archive list (all, json with figures)" "$SSDBENCH" archive list --format json
