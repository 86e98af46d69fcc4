#!/bin/bash
# run.sh: long (started first)
# results_doc.sh - docs/results.md names every key the result JSON has:
# every object key met in the results of representative runs (run with
# fsync, a short suite with preconditioning and a baseline, fileio with a
# thread list and a baseline, short ACT ladders and --find-max, ACT with
# --op and a shortened `pts` of every test but IOPS on a loop device when
# root) appears inside a `code span` of
# docs/results.md. Keys that are data (percentile "99.9", limits "1") and the
# children of the name-keyed maps the page names (suite.overrides,
# act.config, fileio.options, and a job's options as written,
# params.written.job / .global) are not schema and are left out. A copy of the
# page with one key removed must fail the same check.
source "$(dirname "$0")/lib.sh"
DOC="$(cd "$(dirname "$0")/../.." && pwd)/docs/results.md"

# missing DOC RESULT.json... : prints "key path" for each key the page does not name
missing() {
    python3 - "$@" <<'EOF'
import json, re, sys
doc = open(sys.argv[1]).read()
names = set()
for span in re.findall(r'`([^`]*)`', doc):
    names.update(re.findall(r'[A-Za-z_][A-Za-z0-9_-]*', span))
    names.update(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', span))
MAPS = ('suite.overrides', 'act.config', 'fileio.options', 'params.written.job', 'params.written.global')
seen = {}
def walk(o, path):
    if isinstance(o, dict):
        if path.endswith(MAPS):
            return
        for k, v in o.items():
            if re.fullmatch(r'[0-9.]+', k):
                continue
            if k not in names:
                seen.setdefault(k, path + '.' + k)
            walk(v, path + '.' + k)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + '[]')
for f in sys.argv[2:]:
    d = json.load(open(f))
    walk(d, f.rsplit('/', 1)[-1][:-5])
for k, p in sorted(seen.items()):
    print(k, p)
EOF
}

# --- run: a job file with fsync on a file
cat >"$WORK/j.fio" <<EOF
[j]
rw=randrw
bs=4k
size=4m
filename=$WORK/run.dat
runtime=300ms
time_based=1
fsync=4
EOF
"$SSDBENCH" run -q --result "$WORK/run.json" "$WORK/j.fio" >/dev/null 2>&1
check run_ran test -s "$WORK/run.json"

# --- suite: short, preconditioning with a steady-state report, a baseline
S=(--profiles 8k-70-30,4k-random-read --sweep qd:1,2 --runtime 200ms --precondition 1100ms
   --ss-interval 500ms --set ioengine=null -q)
"$SSDBENCH" suite "${S[@]}" --result "$WORK/suite0.json" none >/dev/null 2>&1
"$SSDBENCH" suite "${S[@]}" --baseline "$WORK/suite0.json" --result "$WORK/suite.json" none >/dev/null 2>&1
check suite_ran test -s "$WORK/suite.json"

# --- fileio: a thread list, a baseline
mkdir -p "$WORK/fio" && pushd "$WORK/fio" >/dev/null
F=("$SSDBENCH" fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrw --events=400 --time=0
   --threads=1,2 --file-io-mode=async --histogram)
"${F[@]}" prepare >/dev/null 2>&1
"${F[@]}" --result "$WORK/fileio0.json" run >/dev/null 2>&1
"${F[@]}" --baseline "$WORK/fileio0.json" --result "$WORK/fileio.json" run >/dev/null 2>&1
"${F[@]}" cleanup >/dev/null 2>&1
popd >/dev/null
check fileio_ran test -s "$WORK/fileio.json"

# --- act: a ladder, --find-max
A=(--duration 2 --slice 1 -q --engine null)
"$SSDBENCH" act --load 1x,2x "${A[@]}" --log "$WORK/act.log" --result "$WORK/act.json" none \
    >/dev/null 2>&1
"$SSDBENCH" act --find-max --max-load 2x "${A[@]}" --log "$WORK/actm.log" --result "$WORK/actm.json" \
    none >/dev/null 2>&1
check act_ran test -s "$WORK/act.json" -a -s "$WORK/actm.json"
R=("$WORK/run.json" "$WORK/suite.json" "$WORK/fileio.json" "$WORK/act.json" "$WORK/actm.json")
if is_root && d=$(make_loop 64); then
    "$SSDBENCH" act --load 1x --op 20 "${A[@]}" --log "$WORK/acto.log" --result "$WORK/acto.json" "$d" \
        >/dev/null 2>&1
    check act_op_ran test -s "$WORK/acto.json"
    R+=("$WORK/acto.json")
    # pts: every test but IOPS (whose keys the latency test has), shortened
    "$SSDBENCH" pts throughput latency wsat hir xsr cbw --tc 1 --qd 2 --max-rounds 5 \
        --capacity-scale 0.25 --round-time 0.2 --wsat-time 30 --wsat-interval 0.1 \
        --hir-burst 0.1 --reps 1 --xsr-time 0.3 --xsr-interval 0.1 --di-tc 2,1 --di-qd 2,1 \
        -q --result "$WORK/pts.json" "$d" >/dev/null 2>&1
    check pts_ran test -s "$WORK/pts.json"
    R+=("$WORK/pts.json")
else
    skip act_op "needs root for a loop device"
fi

out=$(missing "$DOC" "${R[@]}")
check every_key_documented test -z "$out"
[ -n "$out" ] && echo "$out" | sed 's/^/  not in docs\/results.md: /'

# the check itself: a page without one key the runs have fails it
sed 's/baseline_targets/baseline_t_rgets/g' "$DOC" >"$WORK/results-cut.md"
out=$(missing "$WORK/results-cut.md" "${R[@]}")
check check_can_fail grep -q '^baseline_targets suite' <<<"$out"
exit 0
