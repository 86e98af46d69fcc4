#!/bin/bash
# fio_compat.sh - the same small job files through fio and ssdbench: equal
# I/O counts for size-bounded jobs, fio's JSON keys (for the fields tools
# read) present in ssdbench's --output-format=json, reporting groups as fio
# forms them, fio_jsonplus_clat2csv accepting ssdbench's json+, and
# fio-format logs with fio's file names that fio's log tools read.
source "$(dirname "$0")/lib.sh"

need_tool fio fio || exit 1

FIO_D=$WORK/fio SB_D=$WORK/sb
mkdir -p "$FIO_D" "$SB_D"

# Runs one job file through both tools in their own directories.
# Usage: both NAME FORMAT JOBFILE  -> $FIO_D/NAME.json, $SB_D/NAME.json
both() {
    local name=$1 fmt=$2 jf=$3
    (cd "$FIO_D" && TESTFILE=$FIO_D/data fio --output-format="$fmt" "$jf" >"$name.json" 2>"$name.err") ||
        { fail "$name-fio" "fio failed: $(head -3 "$FIO_D/$name.err")"; return 1; }
    (cd "$SB_D" && TESTFILE=$SB_D/data "$SSDBENCH" run -q --output-format="$fmt" --result "$name.result" \
        "$jf" >"$name.json" 2>"$name.err") ||
        { fail "$name-ssdbench" "ssdbench failed: $(head -3 "$SB_D/$name.err")"; return 1; }
    return 0
}

cat >"$WORK/counts.fio" <<'EOF'
; size-bounded jobs in three stonewalled groups
[global]
filename=${TESTFILE}
size=1m
bs=4k
ioengine=psync
percentile_list=50:99:99.9

[seqread]
rw=read

[randwrite]
stonewall
rw=randwrite
bs=8k

[mixed]
stonewall
rw=randrw
rwmixread=70
size=512k
EOF

if both counts json "$WORK/counts.fio"; then
    # stdout holds exactly one JSON document and nothing else (json.load
    # refuses anything after it)
    out=$(python3 - "$FIO_D/counts.json" "$SB_D/counts.json" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
try:
    s = json.load(open(sys.argv[2]))
except ValueError as e:
    print("ssdbench's stdout is not one JSON document: %s" % e); sys.exit()
bad = []
def need(obj, keys, where):
    for k in keys:
        if k not in obj:
            bad.append("%s: missing %s" % (where, k))
fj, sj = f["jobs"], s["jobs"]
if len(fj) != len(sj):
    bad.append("jobs: fio %d, ssdbench %d" % (len(fj), len(sj)))
top = ["fio version", "timestamp", "timestamp_ms", "time", "jobs"]
need(s, top, "top")
if not s.get("fio version", "").startswith("fio-3"):
    bad.append("fio version %r" % s.get("fio version"))
jobkeys = ["jobname", "groupid", "error", "read", "write", "trim", "usr_cpu", "sys_cpu",
           "iodepth_level", "latency_ns", "latency_us", "latency_ms", "job_runtime", "sync"]
dirkeys = ["io_bytes", "io_kbytes", "bw", "bw_bytes", "iops", "runtime", "total_ios", "slat_ns",
           "clat_ns", "lat_ns", "bw_min", "bw_max", "bw_mean", "bw_agg", "bw_dev", "bw_samples",
           "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples"]
latkeys = ["min", "max", "mean", "stddev", "N"]
for i, (a, b) in enumerate(zip(fj, sj)):
    w = "job %d" % i
    need(b, [k for k in jobkeys if k in a], w)
    if (a["jobname"], a["groupid"]) != (b.get("jobname"), b.get("groupid")):
        bad.append("%s: fio %s/%s, ssdbench %s/%s" % (w, a["jobname"], a["groupid"], b.get("jobname"), b.get("groupid")))
    for t in ("latency_ns", "latency_us", "latency_ms", "iodepth_level"):
        if t in a and t in b and set(a[t]) != set(b[t]):
            bad.append("%s: %s keys %s vs %s" % (w, t, sorted(a[t]), sorted(b[t])))
    tot = [0, 0]
    for d in ("read", "write", "trim"):
        if d not in b:
            continue
        need(b[d], dirkeys, "%s %s" % (w, d))
        for l in ("slat_ns", "clat_ns", "lat_ns"):
            need(b[d].get(l, {}), latkeys, "%s %s %s" % (w, d, l))
        pa = a[d]["clat_ns"].get("percentile"); pb = b[d].get("clat_ns", {}).get("percentile")
        if pa and (not pb or set(pa) != set(pb)):
            bad.append("%s %s: percentile keys %s vs %s" % (w, d, sorted(pa), sorted(pb or {})))
        if d != "trim":
            tot[0] += a[d]["total_ios"]; tot[1] += b[d]["total_ios"]
    if tot[0] != tot[1]:
        bad.append("%s: total I/Os fio %d, ssdbench %d" % (w, tot[0], tot[1]))
    # pure jobs: the same count in the same direction
    for d in ("read", "write"):
        if a[d]["total_ios"] == tot[0] and b[d]["total_ios"] != tot[0]:
            bad.append("%s %s: %d vs %d" % (w, d, a[d]["total_ios"], b[d]["total_ios"]))
print("\n".join(bad))
EOF
)
    check json-keys-counts-one-document [ -z "$out" ] || echo "$out"
fi

cat >"$WORK/groups.fio" <<'EOF'
; fio's reporting groups: a (2 clones) and b merge, c starts a new group
[global]
filename=${TESTFILE}
size=256k
bs=4k
ioengine=psync
group_reporting

[a]
rw=read
numjobs=2

[b]
rw=randread

[c]
new_group
rw=read
EOF

if both groups json "$WORK/groups.fio"; then
    out=$(python3 - "$FIO_D/groups.json" "$SB_D/groups.json" "$SB_D/groups.result" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2])); r = json.load(open(sys.argv[3]))
if not r["phases"][0]["jobs"][0]["params"].get("group_reporting"):
    print("SKIP"); sys.exit()
g = lambda d: [(j["jobname"], j["groupid"], j["read"]["total_ios"]) for j in d["jobs"]]
if g(f) != g(s):
    print("fio %s, ssdbench %s" % (g(f), g(s)))
EOF
)
    if [ "$out" = SKIP ]; then
        skip group-reporting "the result document does not record group_reporting yet"
    else
        check group-reporting [ -z "$out" ] || echo "$out"
    fi
fi

cat >"$WORK/plus.fio" <<'EOF'
[global]
filename=${TESTFILE}
size=512k
bs=4k
ioengine=psync

[r]
rw=randread

[w]
rw=randwrite
EOF

if both plus json+ "$WORK/plus.fio"; then
    check clat2csv bash -c "cd '$SB_D' && fio_jsonplus_clat2csv plus.json plus.csv >/dev/null &&
        fio_jsonplus_clat2csv plus.json plus.csv --validate >/dev/null && [ -s plus_job0.csv ] && [ -s plus_job1.csv ]"
fi

cat >"$WORK/logs.fio" <<'EOF'
; per-I/O logs (2 clones), averaged logs, a shared per_job_logs=0 log
[global]
filename=${TESTFILE}
size=256k
bs=4k
ioengine=psync
per_job_logs=1

[lr]
rw=randread
numjobs=2
; paced, so that the per-I/O time stamps spread over ~32 ms
rate_iops=2000
write_lat_log=lr
write_bw_log=lr
write_iops_log=lr

[la]
rw=randread
time_based
runtime=300ms
log_avg_msec=100
write_lat_log=la
write_bw_log=la
write_iops_log=la

[ls]
rw=read
numjobs=2
per_job_logs=0
write_iops_log=ls
EOF

if both logs json "$WORK/logs.fio"; then
    fl=$(cd "$FIO_D" && ls ./*.log | sort | tr '\n' ' ')
    sl=$(cd "$SB_D" && ls ./*.log | sort | tr '\n' ' ')
    check log-names [ "$fl" = "$sl" ] || echo "fio: $fl; ssdbench: $sl"
    lines() { wc -l <"$SB_D/$1" | tr -d ' '; }
    check log-per-io-lines [ "$(lines lr_lat.1.log)" = 64 ] && [ "$(lines lr_clat.2.log)" = 64 ] &&
        [ "$(lines lr_bw.1.log)" = 64 ] && [ "$(lines lr_iops.2.log)" = 64 ] && [ "$(lines lr_slat.1.log)" = 0 ]
    check log-shared-lines [ "$(lines ls_iops.log)" = 128 ]
    # every line: five integer columns, ddir 0, bs 4096 (per I/O) or 0 (averaged), prio 0
    check log-format python3 - "$SB_D" <<'EOF'
import glob, os, sys
for p in glob.glob(os.path.join(sys.argv[1], "*.log")):
    avg = os.path.basename(p).startswith("la_")
    for line in open(p):
        c = [int(x) for x in line.rstrip("\n").split(", ")]
        assert len(c) == 5 and c[2] == 0 and c[4] == 0, (p, line)
        assert c[3] == (0 if avg else 4096), (p, line)
        if avg and "_lat" not in p and "_clat" not in p:
            assert c[0] % 100 == 0, (p, line)   # whole windows, stamped at their end
sys.exit(0)
EOF
    # fio2gnuplot reads per-job bandwidth logs (without rendering)
    mkdir -p "$WORK/g" && cp "$SB_D"/lr_bw.*.log "$WORK/g/"
    check fio2gnuplot bash -c "cd '$WORK/g' && fio2gnuplot -b >/dev/null 2>&1 &&
        grep -q '^disks_count=2' result.global && grep -q '^values_count=' result.global"
    # fiologparser.py reads four columns (fio 3.33's own five-column logs
    # break it the same way); fed the first four it sums ssdbench's log
    parser=/usr/share/doc/fio/fiologparser.py.gz
    if [ -f "$parser" ]; then
        zcat "$parser" >"$WORK/fiologparser.py"
        cut -d, -f1-4 "$SB_D/la_iops.3.log" >"$WORK/la4.log"
        check fiologparser bash -c "python3 '$WORK/fiologparser.py' -s '$WORK/la4.log' | grep -q ', '"
    else
        skip fiologparser "fiologparser.py not installed"
    fi
fi

# disk_util on a block device: the kernel's counters for the device
if dev=$(make_loop 32); then
    cat >"$WORK/disk.fio" <<EOF
[d]
filename=$dev
rw=randread
bs=4k
size=1m
direct=1
ioengine=psync
EOF
    if both disk json "$WORK/disk.fio"; then
        out=$(python3 - "$FIO_D/disk.json" "$SB_D/disk.json" "$(basename "$dev")" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2])); name = sys.argv[3]
fd = [d for d in f.get("disk_util", []) if d["name"] == name]
sd = [d for d in s.get("disk_util", []) if d["name"] == name]
if not sd:
    print("no disk_util entry for %s" % name); sys.exit()
if fd and set(fd[0]) - set(sd[0]):
    print("missing keys %s" % sorted(set(fd[0]) - set(sd[0])))
ios = s["jobs"][0]["read"]["total_ios"]
if ios != 256 or sd[0]["read_ios"] + sd[0]["read_merges"] < ios:
    print("ios %d, kernel %d + %d merges" % (ios, sd[0]["read_ios"], sd[0]["read_merges"]))
EOF
)
        check disk-util [ -z "$out" ] || echo "$out"
    fi
else
    skip disk-util "needs root for a loop device"
fi

# the log writer and the renderer under the sanitizers
if [ -x "${SSDBENCH_ASAN:-}" ]; then
    mkdir -p "$WORK/asan"
    (cd "$WORK/asan" && TESTFILE=$WORK/asan/data "$SSDBENCH_ASAN" run -q --output-format=json+ \
        "$WORK/logs.fio" >out.json 2>err.txt)
    ok=$?
    grep -q Sanitizer "$WORK/asan/err.txt" && ok=1
    check asan-logs-json [ "$ok" -eq 0 ] || head -20 "$WORK/asan/err.txt"
else
    skip asan-logs-json "no sanitizer build"
fi
