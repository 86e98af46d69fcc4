#!/bin/bash
# bench/compare.sh - ssdbench's speed against fio (and fio's t/io_uring), every
# row of the speed table in one command. Never part of `make test`.
#
#   bench/compare.sh                         every row (root: loop devices)
#   T_IO_URING=/tmp/fio-src/t/io_uring bench/compare.sh    ... plus t/io_uring rows
#   PAIRS=5 RUNTIME=10 bench/compare.sh      more and longer pairs
#   bench/compare.sh null uring16            only the rows whose names are given
#   ROWS=list bench/compare.sh               print the row names and goals
#
# It builds nothing: it uses build/ssdbench (or $SSDBENCH), fio from PATH (or
# $FIO) and t/io_uring only when $T_IO_URING names it (build it from fio's
# source with `./configure && make t/io_uring`).
#
# Method. Every row runs PAIRS pairs in ABBA order (ssdbench first in even
# pairs, fio first in odd ones) so drift on a shared host favours neither
# side. The device rows use RAM-backed loop devices (a file on tmpfs, direct
# I/O, scheduler none), written once so reads hit real pages. Per run:
#   IOPS          the tool's own JSON (sum over its jobs); t/io_uring: the
#                 mean of its per-second lines
#   I/Os          the JSON's counts; t/io_uring: the reads its devices
#                 completed (/sys/block/*/stat), as it prints no total
#   CPU ns / I/O  user+system time of the tool's process (getrusage of the
#                 child, all its threads and the kernel work charged to them)
#                 divided by its I/Os
#   latency       mean latency, submission to completion (fio: lat_ns)
# The table shows the median of each side, the ratio of the medians and the
# spread (min-max) of the per-pair ratios, and the goal each row is held to.
#
# A busy host makes ratios meaningless, so every run is also charged with the
# CPU time nobody in it used: the host's busy time (/proc/stat) minus the
# tool's own CPU minus the kernel threads' (the loop device's workers run
# there for both tools alike). When that foreign CPU exceeds FOREIGN_MAX
# percent of the host (default 5) in any run of a row, or the hypervisor's
# steal time exceeds STEAL_MAX percent (default 5), the row's verdict reads
# "no verdict: host busy" with the figure, and the script exits 3.
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
FIO=${FIO:-fio}
T_IO_URING=${T_IO_URING:-}
PAIRS=${PAIRS:-3}
RUNTIME=${RUNTIME:-5}
SIZE_MB=${SIZE_MB:-1024}
MANY_MB=${MANY_MB:-256}
FOREIGN_MAX=${FOREIGN_MAX:-5}
STEAL_MAX=${STEAL_MAX:-5}
WORK=$(mktemp -d /tmp/ssdbench-compare.XXXXXX)

# row table: name | goal | description
ROW_TABLE='null1|iops>=3|null engine, 4K randread QD1
null32|iops>=15|null engine, 4K randread QD32
uring32|iops>=1.05,cpu<=0.7|io_uring 4K randread QD32, loop device
aio32|iops>=1.0|libaio 4K randread QD32, loop device
psync1|iops>=1.0,lat<=1.0|psync 4K randread QD1, loop device
uring16|iops>=1.3,cpu<=0.8|io_uring 4K randwrite 16 threads x QD16, loop device (preconditioning load)
tio|core>=1.0|io_uring QD32 batch 8, fixed files and buffers, vs t/io_uring (needs T_IO_URING)
many1|core>=1.0|one thread, 1 loop device x QD32, io_uring
many4|core>=1.0|one thread, 4 loop devices x QD32, io_uring
many8|core>=1.0|one thread, 8 loop devices x QD32, io_uring
tiomany4|core>=1.0|one thread, 4 loop devices x QD32, vs t/io_uring with 4 files (needs T_IO_URING)
tiomany8|core>=1.0|one thread, 8 loop devices x QD32, vs t/io_uring with 8 files (needs T_IO_URING)'

if [ "${ROWS:-}" = list ]; then
    printf '%s\n' "$ROW_TABLE" | awk -F'|' '{printf "%-9s %-22s %s\n", $1, $2, $3}'
    exit 0
fi

cleanup() {
    local d i
    # mkloop runs in a command substitution: its devices are listed in a file
    [ -f "$WORK/loops" ] && while read -r d; do losetup -d "$d" 2>/dev/null; done <"$WORK/loops"
    # a loop device lets go of its file asynchronously
    for ((i = 0; i < 50; i++)); do
        mountpoint -q "$WORK/ram" || break
        umount "$WORK/ram" 2>/dev/null && break
        sleep 0.1
    done
    mountpoint -q "$WORK/ram" && umount -l "$WORK/ram"
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
[ "$(id -u)" -eq 0 ] || { echo "bench/compare.sh: needs root (loop devices)" >&2; exit 2; }
[ -x "$SSDBENCH" ] || { echo "bench/compare.sh: $SSDBENCH not found: build it first (make)" >&2; exit 2; }
command -v "$FIO" >/dev/null || { echo "bench/compare.sh: fio not found (apt-get install fio, or FIO=PATH)" >&2; exit 2; }
if [ -n "$T_IO_URING" ] && [ ! -x "$T_IO_URING" ]; then
    echo "bench/compare.sh: T_IO_URING=$T_IO_URING is not an executable" >&2
    exit 2
fi

wanted() { # ROW: true when the row was asked for (all when none named)
    [ ${#SELECT[@]} -eq 0 ] && return 0
    local s
    for s in "${SELECT[@]}"; do [[ $1 == "$s"* ]] && return 0; done
    return 1
}
SELECT=("$@")

# host_snap: "busy_jiffies steal_jiffies total_jiffies kthread_ticks
# kworker_u_ticks" now (the last: the unbound kworkers, where a loop device
# does its copies)
host_snap() {
    python3 - <<'PY'
import os
f = open('/proc/stat').readline().split()[1:]
v = list(map(int, f[:8]))   # user nice system idle iowait irq softirq steal
busy = v[0] + v[1] + v[2] + v[5] + v[6]
total = sum(v)
kt = ku = 0
for p in os.listdir('/proc'):
    if not p.isdigit():
        continue
    try:
        s = open(f'/proc/{p}/stat').read()
    except OSError:
        continue
    rest = s[s.rfind(')') + 2:].split()
    ppid = int(rest[1])
    if int(p) == 2 or ppid == 2:          # kthreadd and its kernel threads
        kt += int(rest[11]) + int(rest[12])
        if s[s.find('(') + 1:].startswith('kworker/u'):
            ku += int(rest[11]) + int(rest[12])
print(busy, v[7], total, kt, ku)
PY
}

# measure KIND OUT ARGS...: runs one tool; prints
# "iops cpu_ns_per_io lat_mean_ns foreign_pct steal_pct"
measure() {
    local kind=$1 out=$2
    shift 2
    local s0 s1 cpuwall r0 r1
    r0=$(dev_reads)
    s0=$(host_snap)
    cpuwall=$(bash -c 't0=$(date +%s.%N); "$@" >"'"$WORK"'/stdout.txt" 2>&1; t1=$(date +%s.%N)
        python3 -c "import resource as r, sys; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime, float(sys.argv[2])-float(sys.argv[1]))" $t0 $t1' _ "$@")
    s1=$(host_snap)
    r1=$(dev_reads)
    python3 - "$kind" "$out" "$WORK/stdout.txt" "$cpuwall" "$s0" "$s1" "$(nproc)" "$r0" "$r1" <<'PY'
import json, re, sys
kind, out, stdout, cw, s0, s1, ncpu, r0, r1 = sys.argv[1:10]
cpu, wall = map(float, cw.split())
b0, st0, t0, k0, u0 = map(int, s0.split())
b1, st1, t1, k1, u1 = map(int, s1.split())
hz = 100.0
dt = max(t1 - t0, 1)
foreign = ((b1 - b0) - (k1 - k0)) / hz - cpu
foreign_pct = max(foreign, 0) / (dt / hz) * 100
steal_pct = (st1 - st0) / dt * 100
if kind == 'ssdbench':
    d = json.load(open(out))
    res = [r for r in d['phases'][0]['results'] if r.get('scope') == 'total']
    ios = sum(r[x]['ios'] for r in res for x in ('read', 'write') if r.get(x))
    iops = sum(r[x]['iops'] for r in res for x in ('read', 'write') if r.get(x))
    n = sum(r[x]['ios'] for r in res for x in ('read', 'write') if r.get(x) and r[x]['ios'])
    lat = sum(r[x]['latency_ns']['mean'] * r[x]['ios'] for r in res for x in ('read', 'write')
              if r.get(x) and r[x]['ios']) / max(n, 1)
elif kind == 'fio':
    d = json.load(open(out))
    jobs = d['jobs']
    ios = sum(j[x]['total_ios'] for j in jobs for x in ('read', 'write'))
    iops = sum(j[x]['iops'] for j in jobs for x in ('read', 'write'))
    lat = sum(j[x]['lat_ns']['mean'] * j[x]['total_ios'] for j in jobs for x in ('read', 'write')) / max(ios, 1)
else:   # t/io_uring: one "IOPS=..." line per second; their mean is its rate.
    # Its I/Os are the devices' own count of completed reads (it prints no
    # total: the lines leave out the last second, so their mean times the
    # wall time was 0.89-1.07 of the count in three 5 s runs)
    vals = []
    for line in open(stdout):
        m = re.match(r'IOPS=([0-9.]+)([KM]?)', line)
        if m:
            vals.append(float(m.group(1)) * {'': 1, 'K': 1e3, 'M': 1e6}[m.group(2)])
    iops = sum(vals) / max(len(vals), 1)
    ios = int(r1) - int(r0)
    lat = 0
if ios <= 0:
    print("bench/compare.sh: a run made no I/O; its output:", open(stdout).read()[-400:], file=sys.stderr)
    sys.exit(1)
kwu_pct = (u1 - u0) / hz / max(wall, 1e-9) * 100   # % of one CPU
print(iops, cpu / ios * 1e9, lat, foreign_pct, steal_pct, kwu_pct)
PY
}

run_ssd() { measure ssdbench "$WORK/s.json" "$SSDBENCH" run "$@" --runtime="$RUNTIME" -q --format json -o "$WORK/s.json"; }
run_fio() { measure fio "$WORK/f.json" "$FIO" "$@" --runtime="$RUNTIME" --time_based --output-format=json --output="$WORK/f.json"; }
# dev_reads: the reads completed on the devices of the t/io_uring run being
# measured (TIO_DEVS; 0 for the other tools), from /sys/block/*/stat
TIO_DEVS=
dev_reads() {
    local d t=0
    for d in $TIO_DEVS; do t=$((t + $(awk '{print $1}' "/sys/block/${d#/dev/}/stat"))); done
    echo "$t"
}
run_tio() {
    local a
    TIO_DEVS=
    for a in "$@"; do [[ $a == /dev/* ]] && TIO_DEVS+=" $a"; done
    measure tio none "$T_IO_URING" -r"$RUNTIME" "$@"
    TIO_DEVS=
}

# row NAME "A-KIND ARGS..." "B-KIND ARGS...": PAIRS ABBA pairs, one table row
row() {
    local name=$1 a=$2 b=$3 i
    wanted "$name" || return 0
    : >"$WORK/a.txt"
    : >"$WORK/b.txt"
    for ((i = 0; i < PAIRS; i++)); do
        if ((i % 2 == 0)); then
            eval "$a" >>"$WORK/a.txt" || return 1
            eval "$b" >>"$WORK/b.txt" || return 1
        else
            eval "$b" >>"$WORK/b.txt" || return 1
            eval "$a" >>"$WORK/a.txt" || return 1
        fi
    done
    local goal desc
    goal=$(printf '%s\n' "$ROW_TABLE" | awk -F'|' -v n="$name" '$1 == n {print $2}')
    desc=$(printf '%s\n' "$ROW_TABLE" | awk -F'|' -v n="$name" '$1 == n {print $3}')
    python3 - "$name" "$goal" "$desc" "$WORK/a.txt" "$WORK/b.txt" "$FOREIGN_MAX" "$STEAL_MAX" >>"$WORK/table.txt" <<'PY'
import statistics as st, sys
name, goal, desc, fa, fb, fmax, smax = sys.argv[1:8]
A = [list(map(float, l.split())) for l in open(fa) if l.strip()]
B = [list(map(float, l.split())) for l in open(fb) if l.strip()]
med = lambda rows, i: st.median(r[i] for r in rows)
iops = med(A, 0) / med(B, 0)
cpu = med(A, 1) / med(B, 1)
core = med(B, 1) / med(A, 1)           # IOPS per core = 1e9 / CPU ns per I/O
lat = med(A, 2) / med(B, 2) if med(B, 2) else float('nan')
pairs = [a[0] / b[0] for a, b in zip(A, B)]
foreign = max(r[3] for r in A + B)
steal = max(r[4] for r in A + B)
kwu = f"{med(A, 5):.0f}/{med(B, 5):.0f}"
got = {'iops': iops, 'cpu': cpu, 'lat': lat, 'core': core}
ok = True
for g in goal.split(','):
    if '>=' in g:
        k, v = g.split('>='); ok &= got[k] >= float(v)
    else:
        k, v = g.split('<='); ok &= got[k] <= float(v)
why = ([f"foreign CPU {foreign:.1f}% > {fmax}%"] if foreign > float(fmax) else []) + \
      ([f"steal {steal:.1f}% > {smax}%"] if steal > float(smax) else [])
if why:
    verdict = "no verdict: host busy (" + ", ".join(why) + ")"
else:
    verdict = "met" if ok else "NOT MET"
print('\t'.join([name, desc, f"{med(A,0):.0f}", f"{med(B,0):.0f}", f"{iops:.2f}",
                 f"{min(pairs):.2f}-{max(pairs):.2f}", f"{med(A,1):.0f}", f"{med(B,1):.0f}",
                 f"{cpu:.2f}", f"{lat:.2f}", f"{foreign:.1f}", f"{steal:.1f}", goal, verdict, kwu]))
PY
    printf '%s\n' "$(tail -n 1 "$WORK/table.txt" | awk -F'\t' '{printf "  %-9s %s: %s vs %s IOPS (%sx), %s\n", $1, $2, $3, $4, $5, $14}')" >&2
}

mkdir -p "$WORK/ram"
need_mb=$((SIZE_MB + 8 * MANY_MB + 64))
mount -t tmpfs -o size=${need_mb}m tmpfs "$WORK/ram" || exit 2
mkloop() { # MB NAME: a loop device over a tmpfs file, written once
    truncate -s "${1}M" "$WORK/ram/$2"
    local d
    d=$(losetup --find --show --direct-io=on "$WORK/ram/$2") || return 1
    echo "$d" >>"$WORK/loops"
    echo none >"/sys/block/${d#/dev/}/queue/scheduler" 2>/dev/null
    "$FIO" --name=fill --filename="$d" --rw=write --bs=1m --direct=1 --size="${1}m" >/dev/null 2>&1
    echo "$d"
}
LOOP=$(mkloop "$SIZE_MB" main) || { echo "bench/compare.sh: losetup failed" >&2; exit 2; }
MANY=()
for i in 1 2 3 4 5 6 7 8; do MANY+=("$(mkloop "$MANY_MB" "m$i")") || exit 2; done
join_colon() { local IFS=:; echo "$*"; }

echo "host: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $PAIRS ABBA pairs of ${RUNTIME}s runs per row"
echo "ssdbench: $SSDBENCH; fio: $("$FIO" --version)${T_IO_URING:+; t/io_uring: $T_IO_URING}"
echo "main device $LOOP (${SIZE_MB} MiB), many-device rows on ${MANY[*]} (${MANY_MB} MiB each)"
: >"$WORK/table.txt"

RR="--bs=4k --rw=randread --name=b"
row null1 "run_ssd $RR --ioengine=null --size=1g --iodepth=1" \
          "run_fio $RR --ioengine=null --size=1g --iodepth=1"
row null32 "run_ssd $RR --ioengine=null --size=1g --iodepth=32" \
           "run_fio $RR --ioengine=null --size=1g --iodepth=32"
row uring32 "run_ssd $RR --filename=$LOOP --ioengine=io_uring --direct=1 --iodepth=32" \
            "run_fio $RR --filename=$LOOP --ioengine=io_uring --direct=1 --iodepth=32"
row aio32 "run_ssd $RR --filename=$LOOP --ioengine=libaio --direct=1 --iodepth=32" \
          "run_fio $RR --filename=$LOOP --ioengine=libaio --direct=1 --iodepth=32"
row psync1 "run_ssd $RR --filename=$LOOP --ioengine=psync --direct=1 --iodepth=1" \
           "run_fio $RR --filename=$LOOP --ioengine=psync --direct=1 --iodepth=1"
row uring16 "run_ssd --name=p --bs=4k --rw=randwrite --filename=$LOOP --ioengine=io_uring --direct=1 --iodepth=16 --numjobs=16 --destroy=$LOOP" \
            "run_fio --name=p --bs=4k --rw=randwrite --filename=$LOOP --ioengine=io_uring --direct=1 --iodepth=16 --numjobs=16 --thread --group_reporting"
if [ -n "$T_IO_URING" ]; then
    row tio "run_ssd $RR --filename=$LOOP --ioengine=io_uring --direct=1 --iodepth=32 --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 --fixedbufs --registerfiles --norandommap" \
            "run_tio -d32 -s8 -c8 -p0 -B1 -F1 -b4096 -R1 $LOOP"
fi
for n in 1 4 8; do
    files=$(join_colon "${MANY[@]:0:n}")
    depth=$((32 * n))
    row many$n "run_ssd $RR --filename=$files --layout=random --ioengine=io_uring --direct=1 --iodepth=$depth --numjobs=1" \
               "run_fio $RR --filename=$files --file_service_type=random --ioengine=io_uring --direct=1 --iodepth=$depth --numjobs=1"
    if [ -n "$T_IO_URING" ] && [ "$n" -gt 1 ]; then
        row tiomany$n "run_ssd $RR --filename=$files --layout=random --ioengine=io_uring --direct=1 --iodepth=$depth --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 --fixedbufs --registerfiles --norandommap" \
                      "run_tio -d$depth -s8 -c8 -p0 -B1 -F1 -b4096 -R1 ${MANY[*]:0:n}"
    fi
done

python3 - "$WORK/table.txt" <<'PY'
import sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
print()
print(f"{'row':<9} {'ssdbench':>10} {'peer':>10} {'ratio':>6} {'pairs':>11} {'CPU ns/IO':>15} {'CPU':>5} {'lat':>5} {'busy%':>6} {'kwork%':>7} {'goal':<20} verdict")
for r in rows:
    print(f"{r[0]:<9} {r[2]:>10} {r[3]:>10} {r[4]:>6} {r[5]:>11} {r[6]+'/'+r[7]:>15} {r[8]:>5} {r[9]:>5} {r[10]+'/'+r[11]:>6} {r[14]:>7} {r[12]:<20} {r[13]}")
print()
print("ratio = ssdbench / peer (median IOPS); pairs = spread of the per-pair IOPS ratios;")
print("CPU = ssdbench / peer CPU ns per I/O (lower is better); lat = mean latency ratio;")
print("core = IOPS per core ratio (peer CPU/IO over ssdbench CPU/IO); busy% = max foreign CPU / steal in any run;")
print("kwork% = median CPU of the unbound kworkers (the loop devices' copies) in % of one CPU, ssdbench/peer:")
print("on the loop rows a device's copies run in one kworker at a time, and IOPS follow the CPU it gets.")
for r in rows:
    print(f"  {r[0]:<9} {r[1]}")
busy = any(r[13].startswith('no verdict') for r in rows)
sys.exit(3 if busy else 0)
PY
