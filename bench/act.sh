#!/bin/bash
# bench/act.sh - `ssdbench act` against Aerospike's act_storage, side by side
# (run by hand as root; not part of `make test`):
#   1. same config, same RAM-backed loop device: what the kernel saw over each
#      whole command (/sys/class/block/DEV/stat: reads f1+f2, read sectors
#      f3, writes f5+f6, write sectors f7, flushes f16) for ACT, ssdbench's
#      default (io_uring) mode and --threads, and each tool's CPU seconds
#      (/usr/bin/time %U+%S). The runs alternate ACT and ssdbench (ACT,
#      io_uring, threads, threads, io_uring, ACT) so a load change on a
#      shared machine hits both; counts are compared per run, CPU as the
#      ratio of the sums;
#   2. memory flat over a 24 h run: a time-compressed 24 h run (86,400 report
#      intervals, MEM_TICK_MS real milliseconds each) on the null engine, RSS
#      sampled every 10 s, every interval logged, a scaled verdict.
# Environment: ACT_STORAGE (path of an act_storage binary you built; without
# it section 1 runs ssdbench only), SSDBENCH (build/ssdbench), DURATION (60 s
# per run), LOAD (3x), MEM_TICK_MS (4), SKIP_MEM=1 to skip the memory run.
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
ACT_STORAGE=${ACT_STORAGE:-}
DURATION=${DURATION:-60}
LOAD=${LOAD:-3x}
MEM_TICK_MS=${MEM_TICK_MS:-4}
WORK=$(mktemp -d /tmp/ssdbench-bench-act.XXXXXX)
LOOP=""
cleanup() {
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    mountpoint -q "$WORK/ram" && umount "$WORK/ram"
    rm -rf "$WORK"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench/act.sh: needs root (loop device)"; exit 1; }
[ -x "$SSDBENCH" ] || { echo "bench/act.sh: build first (make)"; exit 1; }
[ -z "$ACT_STORAGE" ] || [ -x "$ACT_STORAGE" ] || { echo "bench/act.sh: ACT_STORAGE=$ACT_STORAGE is not executable"; exit 1; }

mkdir -p "$WORK/ram" && mount -t tmpfs -o size=1100m tmpfs "$WORK/ram" || exit 1
truncate -s 1G "$WORK/ram/img"
LOOP=$(losetup --find --show --direct-io=on "$WORK/ram/img") || exit 1
name=$(basename "$LOOP")
echo "device: $LOOP (1 GiB, RAM-backed, direct-io, write cache: $(cat /sys/class/block/$name/queue/write_cache), fua: $(cat /sys/class/block/$name/queue/fua 2>/dev/null))"
echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$SSDBENCH" act-prep "$LOOP" -q >/dev/null || exit 1

# The config both tools run: ACT's defaults, LOAD's rates, DURATION.
x=${LOAD%x}
reads=$(python3 -c "print(round($x * 2000))")
writes=$(python3 -c "print(round($x * 1000))")
printf 'device-names: %s\ntest-duration-sec: %s\nread-reqs-per-sec: %s\nwrite-reqs-per-sec: %s\n' \
    "$LOOP" "$DURATION" "$reads" "$writes" >"$WORK/act.conf"
kstat() { awk '{print $1 + $2, $3, $5 + $6, $7, $16}' "/sys/class/block/$name/stat"; }

# run TAG COMMAND...: kernel deltas and CPU of one whole command, one line to $WORK/runs
run() {
    local tag=$1; shift
    local before after
    before=$(kstat)
    /usr/bin/time -o "$WORK/$tag.time" -f "%U %S" "$@" >"$WORK/$tag.out" 2>&1
    local rc=$?
    after=$(kstat)
    # udev scans a device after a writer closes it: let that land here, not
    # in the next run
    command -v udevadm >/dev/null && udevadm settle 2>/dev/null
    sleep 1
    read -r u s <"$WORK/$tag.time" 2>/dev/null || { u=0; s=0; }
    python3 - "$tag" "$rc" "$before" "$after" "$u" "$s" >>"$WORK/runs" <<'EOF'
import sys
tag, rc, b, a, u, s = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split(), sys.argv[5], sys.argv[6]
d = [int(y) - int(x) for x, y in zip(b, a)]
print(tag, rc, *d, u, s)
EOF
    tail -1 "$WORK/runs" | awk '{printf "  %-10s exit %s  reads %8d (%9d sectors)  writes %6d (%8d sectors)  flushes %6d  CPU %s+%s s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}'
}

echo
echo "== 1: ACT vs ssdbench, $LOAD for $DURATION s on one device (the same config file)"
: >"$WORK/runs"
n=0
for who in act uring threads threads uring act; do
    n=$((n + 1))
    case $who in
    act) [ -n "$ACT_STORAGE" ] && run "act.$n" "$ACT_STORAGE" "$WORK/act.conf" ;;
    uring) run "uring.$n" "$SSDBENCH" act "$WORK/act.conf" -q --log "$WORK/uring.$n.log" \
               --result "$WORK/uring.$n.json" ;;
    threads) run "threads.$n" "$SSDBENCH" act "$WORK/act.conf" --threads -q \
                 --log "$WORK/threads.$n.log" --result "$WORK/threads.$n.json" ;;
    esac
done
echo "host load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
python3 - "$WORK" <<'EOF'
import glob, json, sys, os
work = sys.argv[1]
rows = [l.split() for l in open(os.path.join(work, 'runs'))]
by = {}
for r in rows:
    kind = r[0].split('.')[0]
    by.setdefault(kind, []).append([int(v) for v in r[2:7]] + [float(r[7]) + float(r[8])])
names = ['reads', 'read sectors', 'writes', 'write sectors', 'flushes']
def mean(v): return sum(v) / len(v)
# The workload alone: ssdbench's phase window (the result's kernel_stats,
# taken with the devices open: without the guard's signature probe and the
# minimum-I/O probe before it); ACT's whole command less its one probe read
# of 512 B per device (discover_min_op_bytes).
work_rows = {}
for r in rows:
    kind = r[0].split('.')[0]
    if kind == 'act':
        v = [int(x) for x in r[2:7]]
        work_rows.setdefault(kind, []).append([v[0] - 1, v[1] - 1, v[2], v[3], v[4]])
    else:
        d = json.load(open(os.path.join(work, r[0] + '.json')))
        k = d['phases'][0]['kernel_stats'][0]
        work_rows.setdefault(kind, []).append([k['read_ios'] + k['read_merges'], k['read_bytes'] // 512,
                                               k['write_ios'] + k['write_merges'],
                                               k['write_bytes'] // 512, k.get('flush_ios', -1)])
def compare(title, table, cpu):
    ref = [mean([r[i] for r in table['act']]) for i in range(len(names))]
    for kind in ('uring', 'threads'):
        if kind not in table:
            continue
        got = [mean([r[i] for r in table[kind]]) for i in range(len(names))]
        print(f"{kind} vs ACT, {title} (mean of {len(table[kind])} and {len(table['act'])} runs):")
        for i, n in enumerate(names):
            dv = 100.0 * (got[i] - ref[i]) / ref[i] if ref[i] else 0.0
            print(f"  {n:<14} {got[i]:>12.1f} vs {ref[i]:>12.1f}  {dv:+.3f}%  "
                  f"{'within 0.1%' if abs(dv) <= 0.1 else 'OFF BY MORE THAN 0.1%'}")
        if cpu:
            c, a = sum(r[5] for r in by[kind]), sum(r[5] for r in by['act'])
            print(f"  CPU s (sum)    {c:>12.2f} vs {a:>12.2f}  ratio {c / a:.2f}x")
if 'act' in by:
    compare('the workload', work_rows, True)
    compare('whole commands (ssdbench: + guard and probe reads before the run)', by, False)
# Each ssdbench run against its own schedule, over the phase only (the
# result's kernel_stats: no probe or udev reads)
for path in sorted(glob.glob(os.path.join(work, '*.json'))):
    d = json.load(open(path))
    ph = d['phases'][0]; load = d['act']['loads'][0]; sch = load['derived']['scheduled_ios']
    k = ph['kernel_stats'][0]
    sc = {r['scope']: r for r in ph['results']}
    small = sc['job:service']['read']['ios']; lbr = sc['job:large-block-reads']['read']['ios']
    lbw = sc['job:large-block-writes']['write']['ios']
    print(f"{os.path.basename(path)}: {d['act']['mode']} ({d['act']['engine']}, "
          f"{load['derived']['service_workers']} service workers), stopped by {load['stopped_by']}: "
          f"issued {small}/{sch['service']} small reads, {lbr}/{sch['large_block_reads']} lb reads, "
          f"{lbw}/{sch['large_block_writes']} lb writes; kernel {k['read_ios'] + k['read_merges']} reads, "
          f"{k['write_ios'] + k['write_merges']} writes, {k.get('flush_ios')} flushes in the phase")
EOF

if [ "${SKIP_MEM:-0}" != 1 ]; then
    echo
    echo "== 2: memory over a time-compressed 24 h run (null engine, $MEM_TICK_MS ms per 1 s report)"
    "$SSDBENCH" act --load "$LOAD" --duration 24h --engine null --tick-ms "$MEM_TICK_MS" -q \
        --log "$WORK/mem.log" --result "$WORK/mem.json" /dev/ssdbench-null >"$WORK/mem.txt" 2>&1 &
    pid=$!
    t=0
    : >"$WORK/rss"
    while kill -0 $pid 2>/dev/null; do
        r=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null)
        [ -n "$r" ] && echo "$t $r $(grep -c '^after' "$WORK/mem.log" 2>/dev/null)" >>"$WORK/rss"
        sleep 10
        t=$((t + 10))
    done
    wait $pid
    echo "exit $?; $(grep -c '^after' "$WORK/mem.log") of 86400 reports logged; log $(du -m "$WORK/mem.log" | cut -f1) MiB"
    grep '^verdict' "$WORK/mem.txt"
    python3 - "$WORK/rss" <<'EOF'
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 3]
if len(rows) < 4:
    sys.exit(print("too few samples"))
print("  t(s)   RSS KiB   reports")
for t, r, n in rows[:: max(1, len(rows) // 12)] + [rows[-1]]:
    print(f"  {t:4d}  {r:8d}  {n:8d}")
half = rows[len(rows) // 2:]
lo, hi = min(r for _, r, _ in half), max(r for _, r, _ in half)
first = rows[1][1]
print(f"  second half: {lo}..{hi} KiB (spread {hi - lo} KiB); growth after the first sample: "
      f"{rows[-1][1] - first} KiB over {rows[-1][2] - rows[1][2]} reports "
      f"({1024.0 * (rows[-1][1] - first) / max(1, rows[-1][2] - rows[1][2]):.1f} bytes per report)")
EOF
fi
