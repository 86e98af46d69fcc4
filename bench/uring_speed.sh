#!/bin/bash
# bench/uring_speed.sh - io_uring speed on fio's own terms: ssdbench against
# fio and against fio's t/io_uring on a RAM-backed loop device (a loop
# device on a file in tmpfs, direct I/O), 4K random reads at QD32, in ABBA
# pairs (A B, B A, A B, ...) so drift on a shared machine favours neither
# side. Never part of `make test`; needs root for the loop device.
#
#   bench/uring_speed.sh                          ssdbench vs fio
#   T_IO_URING=/tmp/fio-src/t/io_uring bench/uring_speed.sh
#                                                 ... and vs t/io_uring
#   SSDBENCH_BEFORE=/tmp/old/ssdbench bench/uring_speed.sh
#                                                 ... and an older build vs this one
#   PAIRS=5 RUNTIME=5 bench/uring_speed.sh        (the defaults)
#   bench/uring_speed.sh before|fio|tio           only that comparison
#   PIN="taskset -c 0" bench/uring_speed.sh       every tool run under PIN
#
# t/io_uring is fio's own test tool; build it outside this tree from fio's
# source (./configure && make t/io_uring) and pass its path; this script
# builds nothing.
#
# Per run: IOPS and CPU nanoseconds per I/O, CPU being the process's user +
# system time (getrusage of the child: every thread, including the kernel
# work charged to it). "IOPS per core" = IOPS / (CPU seconds / wall seconds)
# = 1e9 / (CPU ns per I/O). Printed: the median of each side over the pairs,
# the ratio of the medians and the median of the per-pair ratios.
# ssdbench runs record every I/O's latency (its histogram) as always;
# t/io_uring runs without latency tracking (its default, -t0).
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
SSDBENCH_BEFORE=${SSDBENCH_BEFORE:-}
T_IO_URING=${T_IO_URING:-}
FIO=${FIO:-fio}
PAIRS=${PAIRS:-5}
RUNTIME=${RUNTIME:-5}
SIZE_MB=${SIZE_MB:-1024}
PIN=${PIN:-}
WORK=$(mktemp -d)
LOOP=""
cleanup() {
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    mountpoint -q "$WORK/ram" && umount "$WORK/ram"
    rm -rf "$WORK"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop device)"; exit 1; }
[ -x "$SSDBENCH" ] || { echo "build ssdbench first (make)"; exit 1; }
command -v "$FIO" >/dev/null || { echo "fio is not installed"; exit 1; }
if [ -n "$T_IO_URING" ] && [ ! -x "$T_IO_URING" ]; then
    echo "T_IO_URING=$T_IO_URING is not an executable"
    exit 1
fi

mkdir -p "$WORK/ram" && mount -t tmpfs -o size=$((SIZE_MB + 64))m tmpfs "$WORK/ram" || exit 1
truncate -s ${SIZE_MB}M "$WORK/ram/img"
LOOP=$(losetup --find --show --direct-io=on "$WORK/ram/img") || exit 1
echo none >"/sys/block/${LOOP#/dev/}/queue/scheduler" 2>/dev/null
# written once, so the reads hit real pages
"$FIO" --name=fill --filename="$LOOP" --rw=write --bs=1m --direct=1 --size=${SIZE_MB}m >/dev/null 2>&1

# cpu_of CMD...: runs CMD (output to $WORK/out.txt) and prints its CPU seconds
# (user + system of the child) and wall seconds
cpu_of() {
    bash -c 't0=$(date +%s.%N); '"$PIN"' "$@" >"'"$WORK"'/out.txt" 2>&1
        t1=$(date +%s.%N)
        python3 -c "import resource as r, sys; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime, float(sys.argv[2])-float(sys.argv[1]))" $t0 $t1' _ "$@"
}

# run_one KIND BIN ARGS...: prints "iops cpu_ns_per_io mean_lat_ns"
run_one() {
    local kind=$1 bin=$2
    shift 2
    local cw
    case $kind in
    ssdbench)
        cw=$(cpu_of "$bin" run --filename="$LOOP" --bs=4k --rw=randread --iodepth=32 \
            --engine=io_uring --runtime="$RUNTIME" "$@" -q --format json -o "$WORK/s.json")
        python3 - "$WORK/s.json" $cw <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['phases'][0]['results'][0]['read']
cpu = float(sys.argv[2])
print(r['iops'], cpu / r['ios'] * 1e9, r['latency_ns']['mean'])
PY
        ;;
    fio)
        cw=$(cpu_of "$bin" --name=b --filename="$LOOP" --bs=4k --rw=randread --iodepth=32 \
            --ioengine=io_uring --direct=1 --runtime="$RUNTIME" --time_based "$@" \
            --output-format=json --output="$WORK/f.json")
        python3 - "$WORK/f.json" $cw <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
cpu = float(sys.argv[2])
print(r['iops'], cpu / r['total_ios'] * 1e9, r['lat_ns']['mean'])
PY
        ;;
    tio)
        # one "IOPS=..." line per second of the run: their sum is the I/Os
        cw=$(cpu_of "$bin" -d32 -s8 -c8 -p0 -B1 -F1 -b4096 -R1 -r"$RUNTIME" "$@" "$LOOP")
        python3 - "$WORK/out.txt" $cw <<'PY'
import re, sys
vals = []
for line in open(sys.argv[1]):
    m = re.match(r'IOPS=([0-9.]+)([KM]?)', line)
    if m:
        vals.append(float(m.group(1)) * {'': 1, 'K': 1e3, 'M': 1e6}[m.group(2)])
cpu, wall = float(sys.argv[2]), float(sys.argv[3])
ios = sum(vals)
print(ios / len(vals), cpu / ios * 1e9, 0)
PY
        ;;
    esac
}

# compare TITLE "KIND BIN ARGS" "KIND BIN ARGS": PAIRS ABBA pairs, A first in even pairs
compare() {
    local title=$1 a=$2 b=$3
    : >"$WORK/a.txt"
    : >"$WORK/b.txt"
    for ((i = 0; i < PAIRS; i++)); do
        if ((i % 2 == 0)); then
            run_one $a >>"$WORK/a.txt"
            run_one $b >>"$WORK/b.txt"
        else
            run_one $b >>"$WORK/b.txt"
            run_one $a >>"$WORK/a.txt"
        fi
    done
    python3 - "$title" "$WORK/a.txt" "$WORK/b.txt" "$a" "$b" <<'PY'
import statistics as st, sys
title, fa, fb, na, nb = sys.argv[1:6]
A = [list(map(float, l.split())) for l in open(fa) if l.strip()]
B = [list(map(float, l.split())) for l in open(fb) if l.strip()]
def row(name, i, better, fmt='%.0f'):
    ma, mb = st.median(r[i] for r in A), st.median(r[i] for r in B)
    pr = st.median(x[i] / y[i] for x, y in zip(A, B)) if all(y[i] for y in B) else float('nan')
    print(f"   {name:<22} A {fmt % ma:>12}   B {fmt % mb:>12}   A/B {ma / mb if mb else float('nan'):5.2f}"
          f"   median pair A/B {pr:5.2f}  ({better})")
print(f"\n== {title}  ({len(A)} ABBA pairs, medians)")
print(f"   A = {na}")
print(f"   B = {nb}")
print("   per run A:", ", ".join(f"{r[0]:.0f}" for r in A), "IOPS")
print("   per run B:", ", ".join(f"{r[0]:.0f}" for r in B), "IOPS")
row("IOPS", 0, "higher is better")
row("CPU ns per I/O", 1, "lower is better", '%.1f')
ipc = [[1e9 / r[1]] for r in A], [[1e9 / r[1]] for r in B]
ma, mb = st.median(x[0] for x in ipc[0]), st.median(x[0] for x in ipc[1])
print(f"   {'IOPS per core':<22} A {ma:>12.0f}   B {mb:>12.0f}   A/B {ma / mb:5.2f}")
if all(r[2] for r in B):
    row("mean latency ns", 2, "fio: lat (submit to reap)")
PY
}

echo "loop device $LOOP on tmpfs (${SIZE_MB} MiB, direct I/O), ${RUNTIME}s runs, $(nproc) CPUs, $(uname -r)"
echo "ssdbench: $SSDBENCH${PIN:+, every run under $PIN}"
# t/io_uring's terms: batches of 8, fixed buffers and files, plain random offsets
S_T_IO="--iodepth_batch_submit=8 --iodepth_batch_complete_min=8 --fixedbufs --registerfiles --norandommap"
what=${1:-all}
if [ -n "$SSDBENCH_BEFORE" ] && [[ $what == all || $what == before ]]; then
    compare "this build (A) vs the build before (B), 4K randread QD32, defaults" \
        "ssdbench $SSDBENCH" "ssdbench $SSDBENCH_BEFORE"
fi
[[ $what == all || $what == fio ]] &&
    compare "ssdbench (A) vs fio (B), 4K randread io_uring QD32, each tool's defaults" \
        "ssdbench $SSDBENCH" "fio $FIO"
if [ -n "$T_IO_URING" ] && [[ $what == all || $what == tio ]]; then
    compare "ssdbench (A) vs t/io_uring (B), QD32 batch 8, fixed buffers and files, no polling" \
        "ssdbench $SSDBENCH $S_T_IO" "tio $T_IO_URING"
fi
exit 0
