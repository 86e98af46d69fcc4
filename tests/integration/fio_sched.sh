#!/bin/bash
# fio_sched.sh - fio's scheduling options seen from outside while the job
# runs: every worker thread's Cpus_allowed_list (/proc/PID/task/TID/status)
# for cpus_allowed, cpumask, the split policy and numa_cpu_nodes (against
# /sys/devices/system/node/nodeN/cpulist), its I/O priority (ioprio_get) for
# prio/prioclass, its nice value, and numa_mem_policy in the process's
# numa_maps. Bad values fail with one line naming the option. gtod_reduce
# and the disable_*/percentile switches: the JSON latency blocks have the
# shape fio 3.33 writes for the same job (keys, zero figures).
source "$(dirname "$0")/lib.sh"

HAVE_FIO=0
need_tool fio fio && HAVE_FIO=1
# the two lowest CPUs this shell may run on (a cpuset may hide others)
read -r CA CB <<<"$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0], c[1] if len(c) > 1 else "")')"

# job NAME OPTIONS...: $WORK/NAME.fio, a short time-based read job on its own file
job() {
    local name=$1
    shift
    {
        echo "[$name]"
        echo "filename=$WORK/$name.dat"
        echo "size=1m"
        echo "rw=randread"
        echo "bs=4k"
        echo "ioengine=psync"
        echo "time_based"
        echo "runtime=1"
        for o in "$@"; do echo "$o"; done
    } >"$WORK/$name.fio"
}
# watch NAME [POLICY]: runs the job and prints, per worker thread (every
# thread but the main one), "cpus nice ioprio"; then "rc N" and "bind LINES"
# (the most numa_maps lines seen with that memory policy, default "bind:")
watch() {
    python3 - "$SSDBENCH" "$WORK/$1.fio" "$WORK/$1" "${2:-bind:}" <<'PYEOF'
import ctypes, os, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
NR_IOPRIO_GET = {'x86_64': 252, 'aarch64': 31}.get(os.uname().machine, 252)
POLICY = sys.argv[4]
p = subprocess.Popen([sys.argv[1], 'run', '-q', '--output-format=json', sys.argv[2]],
                     stdout=open(sys.argv[3] + '.json', 'w'), stderr=open(sys.argv[3] + '.err', 'w'))
seen, bind = {}, 0
while p.poll() is None:
    try:
        for tid in os.listdir('/proc/%d/task' % p.pid):
            if int(tid) == p.pid:
                continue
            try:
                st = open('/proc/%d/task/%s/status' % (p.pid, tid)).read()
                cpus = [l.split()[1] for l in st.splitlines() if l.startswith('Cpus_allowed_list')][0]
                nice = int(open('/proc/%d/task/%s/stat' % (p.pid, tid)).read().rsplit(')', 1)[1].split()[16])
                seen[tid] = (cpus, nice, libc.syscall(NR_IOPRIO_GET, 1, int(tid)))
            except (OSError, IndexError, ValueError):
                pass
        bind = max(bind, sum(1 for l in open('/proc/%d/numa_maps' % p.pid) if ' ' + POLICY in l))
    except OSError:
        pass
    time.sleep(0.05)
for t, (c, n, io) in sorted(seen.items()):
    print(c, n, io)
print('rc', p.returncode)
print('bind', bind)
PYEOF
}
# threads OUT: the worker lines only
threads() { grep -v '^rc \|^bind ' <<<"$1"; }
rc_of() { awk '$1 == "rc" {print $2}' <<<"$1"; }
# all_workers OUT FIELD VALUE [MIN]: the run succeeded, it had at least MIN
# (default 1) worker threads, and FIELD (1 cpus, 2 nice, 3 ioprio) of each is VALUE
all_workers() {
    local t
    t=$(threads "$1")
    [ "$(rc_of "$1")" = 0 ] && [ -n "$t" ] && [ "$(wc -l <<<"$t")" -ge "${4:-1}" ] &&
        [ -z "$(awk -v f="$2" -v v="$3" '$f != v' <<<"$t")" ]
}
# cpus_are OUT LIST: the workers' CPU sets, sorted and joined with spaces
cpus_are() { [ "$(rc_of "$1")" = 0 ] && [ "$(threads "$1" | awk '{print $1}' | sort | tr '\n' ' ')" = "$2" ]; }
# fails_naming OUT ERRFILE KEY: the run failed and its message names KEY
fails_naming() { [ "$(rc_of "$1")" != 0 ] && grep -q "$3" "$2"; }
bound() { [ "$(rc_of "$1")" = 0 ] && [ "$(awk '$1 == "bind" {print $2}' <<<"$1")" -ge 1 ]; }
# one_line_naming MSG KEY FILE: a one-line message naming KEY, FILE not created
one_line_naming() { [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ] && [[ "$1" == *"$2"* ]] && [ ! -e "$3" ]; }

if [ -z "$CB" ]; then
    skip cpus "one CPU only"
else
    job pin numjobs=2 cpus_allowed=$CB
    out=$(watch pin)
    check cpus_allowed_pins_workers all_workers "$out" 1 "$CB" 2

    job split numjobs=2 cpus_allowed=$CA,$CB cpus_allowed_policy=split
    out=$(watch split)
    check split_one_cpu_each cpus_are "$out" "$(printf '%s\n%s\n' "$CA" "$CB" | sort | tr '\n' ' ')"

    if [ "$CB" -lt 32 ]; then
        job mask cpumask=$((1 << CB))
        out=$(watch mask)
        check cpumask_bits all_workers "$out" 1 "$CB"
    fi
fi

# io_submit_mode=offload: the submitter thread takes the worker's CPU set,
# nice and I/O priority, as fio's offload workers run in the job's settings
# (two threads each: the worker and its submitter; all of them so)
if [ -n "$CB" ] && [ "$(id -u)" = 0 ]; then
    job offsched ioengine=libaio iodepth=4 io_submit_mode=offload cpus_allowed=$CB nice=3 prioclass=3 prio=4
    out=$(watch offsched)
    check offload_submitter_cpus all_workers "$out" 1 "$CB" 2
    check offload_submitter_nice all_workers "$out" 2 3 2
    check offload_submitter_ioprio all_workers "$out" 3 24580 2
fi

# numa_cpu_nodes: the node's own CPU list
if [ -r /sys/devices/system/node/node0/cpulist ]; then
    want=$(cat /sys/devices/system/node/node0/cpulist)
    job node numa_cpu_nodes=0
    out=$(watch node)
    check numa_cpu_nodes_cpulist all_workers "$out" 1 "$want"
    job mbind numa_mem_policy=bind:0
    out=$(watch mbind)
    check numa_mem_policy_bind bound "$out"
    for pol in interleave:0 prefer:0 local; do
        n=mpol_${pol%%:*}
        job "$n" numa_mem_policy=$pol
        out=$(watch "$n" "$pol")
        check "numa_mem_policy_$n" bound "$out"
    done
    job nonode numa_mem_policy=bind:63
    out=$(watch nonode)
    check numa_mem_policy_missing_node fails_naming "$out" "$WORK/nonode.err" numa_mem_policy
else
    skip numa "no /sys/devices/system/node"
fi

# prio / prioclass: ioprio_get of each worker is fio's class << 13 | level
if is_root; then
    for spec in "prio=5 prioclass=2 16389" "prio=3 - 16387" "prioclass=3 - 24576" "prioclass=1 prio=4 8196"; do
        set -- $spec
        a=$1 b=$2 want=$3
        [ "$b" = - ] && b=
        n=prio_$(tr '=' '_' <<<"$a$b")
        job "$n" numjobs=2 $a $b
        out=$(watch "$n")
        check "ioprio_${a}_${b:-none}" all_workers "$out" 3 "$want" 2
    done
    job nice nice=-3
    out=$(watch nice)
    check nice_value all_workers "$out" 2 -3
else
    skip ioprio "needs root (realtime class and negative nice)"
fi

# bad values: one line naming the option, nothing run
for bad in cpus_allowed=4096 cpus_allowed=1-x cpus_allowed_policy=block cpumask=0 prio=8 prioclass=4 nice=20 \
    numa_mem_policy=bind numa_mem_policy=prefer:0-1 clocksource=tsc dedupe_mode=first; do
    n=bad_$(tr '=:-' '___' <<<"$bad")
    job "$n" "$bad"
    msg=$(cd "$WORK" && "$SSDBENCH" run -q "$n.fio" 2>&1)
    key=${bad%%=*}
    check "rejects_$n" one_line_naming "$msg" "$key" "$WORK/$n.dat"
done
for ok in clocksource=gettimeofday clocksource=clock_gettime clocksource=cpu; do
    n=ok_$(tr '=' '_' <<<"$ok")
    job "$n" "$ok" runtime=0 time_based=0
    check "accepts_$n" bash -c 'cd "$1" && "$2" run -q --parse-only "$3.fio" >/dev/null 2>&1' _ "$WORK" "$SSDBENCH" "$n"
done

# --- gtod_reduce and the measurement switches: fio's JSON shapes
SHAPE='
import json, sys
def shape(f, dists):
    j = json.load(open(f))["jobs"][0]
    out = {}
    for dd in ("read", "write"):
        for k in ("slat_ns", "clat_ns", "lat_ns"):
            o = j[dd][k]
            out[dd + "." + k] = (sorted(o.keys()), o["N"] == 0 and o["min"] == o["max"] == 0 and o["mean"] == 0)
    o = j["sync"]["lat_ns"]
    out["sync"] = (sorted(o.keys()), o["N"] == 0)
    if dists:
        for t in ("latency_ns", "latency_us", "latency_ms"):
            out[t] = all(v == 0 for v in j[t].values())
    return out
a, b = shape(sys.argv[1], sys.argv[3] == "1"), shape(sys.argv[2], sys.argv[3] == "1")
print("same" if a == b else "differ " + " ".join("%s:%s/%s" % (k, a[k], b.get(k)) for k in a if a[k] != b.get(k)))'
if [ $HAVE_FIO = 1 ]; then
    i=0
    # slat measured (fio's default disable_slat=0) unless gtod_reduce turns it off
    for spec in "gtod_reduce=1:1" "disable_clat=1:1" "disable_lat=1:0" "lat_percentiles=1:0" \
        "clat_percentiles=0:0" "lat_percentiles=1 clat_percentiles=0:0" "slat_percentiles=1:0"; do
        opts=${spec%:*} dists=${spec##*:}
        i=$((i + 1))
        for w in sb fio; do
            { echo "[g]"; echo "filename=$WORK/g$i.$w.dat"; echo "ioengine=libaio"; echo "iodepth=2"
              echo "rw=randrw"; echo "bs=4k"; echo "size=1m"; echo "fsync=8"; echo "disable_slat=0"
              tr ' ' '\n' <<<"$opts"; } >"$WORK/g$i.$w.fio"
        done
        (cd "$WORK" && "$SSDBENCH" run -q --output-format=json "g$i.sb.fio" >"g$i.sb.json" 2>"g$i.sb.err")
        (cd "$WORK" && timeout 60 fio --output-format=json "g$i.fio.fio" >"g$i.fio.json" 2>/dev/null)
        r=$(python3 -c "$SHAPE" "$WORK/g$i.fio.json" "$WORK/g$i.sb.json" "$dists" 2>&1)
        check "json_shape_$(tr ' =' '__' <<<"$opts")" [ "$r" = same ]
    done
else
    skip json_shapes "not compared: fio is missing (needs_fio)"
fi
# without fio: gtod_reduce zeroes every latency block and shows no percentiles
job gz gtod_reduce=1 runtime=0 time_based=0
(cd "$WORK" && "$SSDBENCH" run -q --output-format=json gz.fio >gz.json 2>gz.err)
r=$(json_get "$WORK/gz.json" "all(d['jobs'][0]['read'][k]['N'] == 0 and 'percentile' not in d['jobs'][0]['read'][k] for k in ('slat_ns', 'clat_ns', 'lat_ns')) and d['jobs'][0]['read']['total_ios'] > 0")
check gtod_reduce_zero_blocks [ "$r" = True ]

cleanup
