#!/bin/bash
# bench/run.sh - ssdbench's own cost and accuracy against fio, measured as
# ratios in one run on this machine (never part of `make test`).
#
#   bench/run.sh            all comparisons (root needed for the loop device)
#   REPS=5 RUNTIME=10 bench/run.sh
#   bench/run.sh loop                   only the loop-device comparisons
#   RSS_LONG=600 bench/run.sh rss      the 10-minute memory check
#
# Each comparison alternates ssdbench and fio REPS times on the same target
# and prints the medians and the ratio. CPU is the process's user+system time
# (getrusage of the child), so "IOPS per CPU-second" is the tool's cost per
# I/O including the kernel work it is charged for.
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
REPS=${REPS:-3}
RUNTIME=${RUNTIME:-5}
RSS_SHORT=${RSS_SHORT:-10}
RSS_LONG=${RSS_LONG:-600}
WORK=$(mktemp -d)
LOOP=""
cleanup() {
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    mountpoint -q "$WORK/ram" && umount "$WORK/ram"
    rm -rf "$WORK"
}
trap cleanup EXIT
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
[ -x "$SSDBENCH" ] || { echo "build ssdbench first (make)"; exit 1; }


# Runs a command and prints "iops lat_mean_ns cpu_s" parsed by the given mode.
measure() { # tool mode args...
    local tool=$1 mode=$2; shift 2
    local out="$WORK/out.json" before after
    before=$(python3 -c 'import resource as r; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime)')
    # each measurement in its own bash so RUSAGE_CHILDREN covers exactly it
    bash -c '"$@" >/dev/null 2>&1; python3 -c "import resource as r; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime)"' _ "$@" >"$WORK/cpu"
    local cpu
    cpu=$(cat "$WORK/cpu")
    if [ "$tool" = ssdbench ]; then
        python3 - "$out" "$cpu" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); r = d['phases'][0]['results'][0]['read']
print(r['iops'], r['latency_ns']['mean'], sys.argv[2], r['ios'])
PY
    else
        python3 - "$out" "$cpu" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); r = d['jobs'][0]['read']
print(r['iops'], r['lat_ns']['mean'], sys.argv[2], r['total_ios'], r['clat_ns']['mean'])
PY
    fi
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

compare() { # title ssdbench-args -- fio-args
    local title=$1; shift
    local sargs=() fargs=()
    while [ "$1" != "--" ]; do sargs+=("$1"); shift; done
    shift
    fargs=("$@")
    : >"$WORK/s.txt"; : >"$WORK/f.txt"
    local pin=""
    [ -n "${SSDBENCH_PIN:-}" ] && pin=$PIN
    # ABBA order, so drift on a shared machine does not favour either tool
    for ((i = 0; i < REPS; i++)); do
        if ((i % 2 == 0)); then
            measure ssdbench x $pin "$SSDBENCH" run "${sargs[@]}" --runtime="$RUNTIME" -q --format json -o "$WORK/out.json" >>"$WORK/s.txt"
            measure fio x $pin fio "${fargs[@]}" --runtime="$RUNTIME" --time_based --output-format=json --output="$WORK/out.json" >>"$WORK/f.txt"
        else
            measure fio x $pin fio "${fargs[@]}" --runtime="$RUNTIME" --time_based --output-format=json --output="$WORK/out.json" >>"$WORK/f.txt"
            measure ssdbench x $pin "$SSDBENCH" run "${sargs[@]}" --runtime="$RUNTIME" -q --format json -o "$WORK/out.json" >>"$WORK/s.txt"
        fi
    done
    python3 - "$title" "$WORK/s.txt" "$WORK/f.txt" <<'PY'
import statistics as st, sys
title = sys.argv[1]
s = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
f = [list(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
def med(rows, i): return st.median(r[i] for r in rows)
s_iops, f_iops = med(s, 0), med(f, 0)
s_lat, f_lat, f_clat = med(s, 1), med(f, 1), med(f, 4)
s_cpio = st.median(r[2] / r[3] * 1e9 for r in s)   # CPU ns per I/O
f_cpio = st.median(r[2] / r[3] * 1e9 for r in f)
print(f"\n== {title}  ({len(s)} runs each, medians; spread ssdbench {min(r[0] for r in s):.0f}-{max(r[0] for r in s):.0f}, fio {min(r[0] for r in f):.0f}-{max(r[0] for r in f):.0f} IOPS)")
print(f"   IOPS                 ssdbench {s_iops:14.0f}   fio {f_iops:14.0f}   ratio {s_iops/f_iops:6.2f}")
print(f"   CPU ns per I/O       ssdbench {s_cpio:14.1f}   fio {f_cpio:14.1f}   ratio {s_cpio/f_cpio:6.2f} (lower is better)")
print(f"   IOPS per CPU-second  ssdbench {1e9/s_cpio:14.0f}   fio {1e9/f_cpio:14.0f}   ratio {f_cpio/s_cpio:6.2f}")
print(f"   mean latency (ns)    ssdbench {s_lat:14.0f}   fio lat {f_lat:10.0f} clat {f_clat:10.0f}   ratio to lat {s_lat/f_lat:6.2f}")
PY
}

compare_pinned() { # like compare, with both tools under $PIN
    SSDBENCH_PIN=1 compare "$@"
}

rss_check() {
    echo
    echo "== RSS: null engine ${RSS_SHORT}s vs ${RSS_LONG}s (max resident set, KiB)"
    for t in "$RSS_SHORT" "$RSS_LONG"; do
        /usr/bin/env bash -c '"$@" >/dev/null 2>&1; python3 -c "import resource as r; print(r.getrusage(r.RUSAGE_CHILDREN).ru_maxrss)"' _ \
            "$SSDBENCH" run --engine=null --size=1g --iodepth=32 --runtime="$t" -q --format json -o "$WORK/rss.json" >"$WORK/rss.$t"
        echo "   ${t}s: $(cat "$WORK/rss.$t") KiB"
    done
}

what=${1:-all}     # all | norss | loop | rss
if [ "$what" = rss ]; then rss_check; exit 0; fi
if [ "$what" != loop ]; then
compare "null engine, QD1, full latency recording" \
    --engine=null --size=1g --bs=4k --rw=randread --iodepth=1 -- \
    --name=n --ioengine=null --size=1g --bs=4k --rw=randread --iodepth=1
compare "null engine, QD32, full latency recording" \
    --engine=null --size=1g --bs=4k --rw=randread --iodepth=32 -- \
    --name=n --ioengine=null --size=1g --bs=4k --rw=randread --iodepth=32

fi
if [ "$(id -u)" -ne 0 ]; then
    echo; echo "(not root: skipping the loop-device comparisons)"
else
    mkdir -p "$WORK/ram" && mount -t tmpfs -o size=2200m tmpfs "$WORK/ram"
    truncate -s 2G "$WORK/ram/img"
    LOOP=$(losetup --find --show --direct-io=on "$WORK/ram/img")
    echo "none" >/sys/block/$(basename "$LOOP")/queue/scheduler 2>/dev/null
    # prefill so reads hit real pages
    fio --name=fill --filename="$LOOP" --rw=write --bs=1m --direct=1 --size=2g >/dev/null 2>&1
    compare "4K random read, io_uring, QD32, RAM-backed loop device $LOOP" \
        --filename="$LOOP" --bs=4k --rw=randread --iodepth=32 --engine=io_uring -- \
        --name=b32 --filename="$LOOP" --bs=4k --rw=randread --iodepth=32 --ioengine=io_uring --direct=1
    compare "4K random read, io_uring, QD1 (tool overhead on latency)" \
        --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --engine=io_uring -- \
        --name=b1 --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --ioengine=io_uring --direct=1
    # QD1 latency on a loop device depends on which CPU the I/O thread and the
    # loop worker share (a bimodal 21 vs 25 us here, for either tool), so
    # tool overhead is also compared with both tools pinned to one CPU.
    PIN="taskset -c ${PIN_CPU:-0}"
    compare_pinned "4K random read, io_uring, QD1, both pinned to CPU ${PIN_CPU:-0}" \
        --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --engine=io_uring -- \
        --name=b1 --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --ioengine=io_uring --direct=1
    compare_pinned "4K random read, psync, QD1, both pinned to CPU ${PIN_CPU:-0}" \
        --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --engine=psync -- \
        --name=a --filename="$LOOP" --bs=4k --rw=randread --ioengine=psync --direct=1
    compare "4K random read, psync, QD1" \
        --filename="$LOOP" --bs=4k --rw=randread --iodepth=1 --engine=psync -- \
        --name=a --filename="$LOOP" --bs=4k --rw=randread --ioengine=psync --direct=1
fi
[ "$what" = all ] && rss_check
exit 0
