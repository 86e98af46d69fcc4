#!/bin/bash
# fio_prio.sh - io_submit_mode=offload, serialize_overlap and fio's cmdprio
# options against fio 3.33 itself: each job runs under fio and under
# ssdbench invoked as fio (a symlink named fio), and a summary of each
# output must be equal. Offload: the I/O counts of size-bounded null,
# psync, libaio and io_uring jobs, fio's taken from the same job inline
# (fio 3.33 itself often hangs at the end of such a job with offload), and
# under strace that the submitter never waits in the engine. cmdprio
# (libaio on a 512 KiB file): the number of I/Os per priority, read from
# fio's own latency log with log_prio (each I/O's priority value) and from the JSON's per-priority "prios" objects, where
# fio's arithmetic fixes it (percentages of 0 or 100, one block size per
# direction); with cmdprio_percentage=50 (each I/O's priority a random
# draw) the structure: the keys of the read object and of its prios, the
# per-priority counts adding up to the total, and the text's lines.
source "$(dirname "$0")/lib.sh"

fio_side_by_side prio

# summary OUT.json [LOG]: the I/Os of all directions, each direction's
# priorities with their counts adding up to its total (the JSON's prios),
# and per direction of the log the priority values its lines carry and
# whether their number is that direction's total (fio's split between
# reads and writes is its own random draw; the rest is arithmetic)
summary() {
    python3 - "$@" <<'EOF2'
import json, os, sys, collections
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
out, tot, dirs = [], 0, {}
for j in d["jobs"]:
    for k in ("read", "write", "mixed"):
        if k not in j:
            continue
        o = j[k]
        tot += o["total_ios"]
        dirs[k] = dirs.get(k, 0) + o["total_ios"]
        if "prios" in o:
            name = "lat_ns" if "lat_ns" in o["prios"][0] else "clat_ns"
            n = [(p["prioclass"], p["prio"], p[name]["N"]) for p in o["prios"]]
            fmt = "%d/%d=%d" if os.environ.get("PRIOCOUNTS") else "%d/%d"
            out.append("%s prios=%s sum_ok=%s" % (k, ",".join(fmt % x[:len(fmt.split("%")) - 1] for x in sorted(n)),
                                                  sum(x[2] for x in n) == o[name]["N"] == o["total_ios"]))
if not os.environ.get("NOIOS"):
    out.insert(0, "ios=%d" % tot)
if len(sys.argv) > 2:
    c = collections.defaultdict(collections.Counter)
    for line in open(sys.argv[2]):
        f = [x.strip() for x in line.split(",")]
        c[int(f[2])][f[-1]] += 1
    for dd in sorted(c):
        k = ("read", "write")[dd]
        out.append("log %s prios=%s all=%s" % (k, ",".join(sorted(c[dd])),
                                              sum(c[dd].values()) == dirs.get(k, dirs.get("mixed"))))
print("; ".join(out))
EOF2
}

# run BIN NAME ARGS...: the job in a fresh directory (its file f made by
# the run itself); the JSON in $WORK/NAME.json, the latency log kept
run() {
    local bin=$1 name=$2
    shift 2
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout -k 5 60 "$bin" --output-format=json "$@" >"$WORK/$name.json" 2>"$WORK/$name.err")
    local rc=$?
    [ -f "$WORK/run/l_lat.1.log" ] && cp "$WORK/run/l_lat.1.log" "$WORK/$name.log"
    return $rc
}

# same NAME ARGS...: the summaries of fio's and ssdbench's runs are equal
same() {
    local name=$1 a b
    shift
    rm -f "$WORK/$name".*.log
    # fio's reference for an offload job is the same job inline: fio 3.33
    # itself often hangs at the end of a size-bounded job with offload
    local ref=() x
    for x in "$@"; do [ "$x" = --io_submit_mode=offload ] || ref+=("$x"); done
    run "$FIO" "$name.fio" "${ref[@]}" || { skip "$name" "fio itself fails: $(head -c 200 "$WORK/$name.fio.err")"; return; }
    a=$(summary "$WORK/$name.fio.json" $([ -f "$WORK/$name.fio.log" ] && echo "$WORK/$name.fio.log") 2>&1)
    if run "$WORK/bin/fio" "$name.sb" "$@"; then
        b=$(summary "$WORK/$name.sb.json" $([ -f "$WORK/$name.sb.log" ] && echo "$WORK/$name.sb.log") 2>&1)
    else
        b="failed: $(head -c 200 "$WORK/$name.sb.err")"
    fi
    if [ "$a" = "$b" ]; then pass "$name"; else fail "$name" "fio [$a], ssdbench [$b]"; fi
}

N="--name=x --ioengine=null"
A="--name=x --ioengine=libaio --filename=f --size=512k --write_lat_log=l --log_prio=1"

# offload: a submitter per job, the same I/Os as fio's (inline: see same)
same offload_null        $N --io_submit_mode=offload --iodepth=16 --rw=read --bs=4k --size=16m
same offload_null_randrw $N --io_submit_mode=offload --iodepth=8 --rw=randrw --bs=4k --size=1m --numjobs=2 --group_reporting
same offload_libaio      --name=x --ioengine=libaio --filename=f --io_submit_mode=offload --iodepth=4 --rw=randwrite --bs=4k --size=512k
same offload_psync       --name=x --ioengine=psync --filename=f --io_submit_mode=offload --rw=write --bs=4k --size=256k
same serialize_overlap   $N --io_submit_mode=offload --serialize_overlap=1 --iodepth=1 --size=64k --numjobs=2
# direct I/O: completions come after the submission, while the submitter
# may be waiting for them when more requests are handed over
same offload_libaio_direct --name=x --ioengine=libaio --filename=f --direct=1 --io_submit_mode=offload --iodepth=8 --rw=randread --bs=4k --size=1m
same offload_uring_direct  --name=x --ioengine=io_uring --filename=f --direct=1 --io_submit_mode=offload --iodepth=8 --rw=randrw --bs=4k --size=1m

# nowait NAME ARGS...: the submitter of an engine that signals its
# completions on an eventfd (libaio, io_uring) waits for them and for
# handed-over requests together in poll(), never in the engine: under
# strace no io_getevents with a timeout other than 0 and no io_uring_enter
# waiting for a completion (min_complete 0), yet the job's I/Os are all done
nowait() {
    local name=$1 st calls waits ios
    shift
    command -v strace >/dev/null || { skip "$name" "strace is not installed"; return; }
    st="$WORK/$name.st"
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    if ! (cd "$WORK/run" && timeout -k 5 60 strace -f -qq -e trace=io_getevents,io_uring_enter -o "$st" \
            "$WORK/bin/fio" --output-format=json "$@" >"$WORK/$name.json" 2>"$WORK/$name.err"); then
        fail "$name" "failed: $(head -c 200 "$WORK/$name.err")"
        return
    fi
    calls=$(grep -c 'io_getevents(\|io_uring_enter(' "$st")
    waits=$( (grep 'io_getevents(' "$st" | grep -v 'tv_sec=0, tv_nsec=0}'
              grep 'io_uring_enter(' "$st" | awk -F', ' '$3 != "0"') | wc -l)
    ios=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["total_ios"]+j["write"]["total_ios"])' "$WORK/$name.json")
    if [ "$calls" -gt 0 ] && [ "$waits" -eq 0 ] && [ "$ios" -eq 256 ]; then
        pass "$name"
    else
        fail "$name" "$calls engine calls, $waits of them waiting, $ios I/Os (256 expected)"
    fi
}
nowait offload_libaio_nowait --name=x --ioengine=libaio --filename=f --direct=1 --io_submit_mode=offload --iodepth=8 --rw=randread --bs=4k --size=1m
nowait offload_uring_nowait  --name=x --ioengine=io_uring --filename=f --direct=1 --io_submit_mode=offload --iodepth=8 --rw=randread --bs=4k --size=1m

# cmdprio where fio's arithmetic decides every I/O's priority
same prio_all_rt         $A --rw=randread --bs=4k --cmdprio_percentage=100
same prio_writes_rt      $A --rw=randrw --bs=4k --cmdprio_percentage=0,100 --log_prio=0
same prio_class_level    $A --rw=randwrite --bs=4k --cmdprio_percentage=100 --cmdprio_class=3 --cmdprio=6
same prio_bssplit_dirs   $A --rw=randrw --bs=4k --cmdprio_bssplit=4k/100/3/5,4k/100/1/2
same prio_bssplit_mixed  $A --rw=randrw --bs=4k --cmdprio_bssplit=4k/100/3/5,4k/100/1/2 --unified_rw_reporting=mixed
# (the number of I/Os of a block-size mix is fio's own draw: not compared)
NOIOS=1 same prio_bssplit_sizes  $A --rw=randread --bssplit=4k/50:8k/50 --cmdprio_bssplit=4k/100/3/5:8k/0

# a group (group_reporting) of a cmdprio job and plain jobs: fio counts the
# plain jobs' I/Os under their own priority (0/0, or prio/prioclass), and a
# group of plain jobs of different priorities has per-priority figures too
G="--ioengine=libaio --filename=f --size=256k --bs=4k --group_reporting"
PRIOCOUNTS=1 same prio_group_mixed   $G --rw=randread --name=a --cmdprio_percentage=100 --name=b
PRIOCOUNTS=1 same prio_group_writes  $G --rw=randwrite --name=a --cmdprio_percentage=100 --name=b
PRIOCOUNTS=1 same prio_group_classes $G --rw=randread --name=a --name=b --prioclass=3 --prio=5
PRIOCOUNTS=1 same prio_group_lat     $G --rw=randread --lat_percentiles=1 --name=a --cmdprio_percentage=100 --name=b --prioclass=2 --prio=4

# cmdprio_percentage=50: the structure, as fio's
structure() {
    python3 - "$1" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
r = json.loads(text[text.index("{"):])["jobs"][0]["read"]
p = r["prios"]
print(list(r), [sorted(x) for x in p], sorted(x["prioclass"] for x in p),
      sum(x["lat_ns"]["N"] for x in p) == r["total_ios"], all("bins" in x["lat_ns"] for x in p))
EOF
}
args="--name=x --ioengine=libaio --filename=f --size=1m --rw=randread --bs=4k --cmdprio_percentage=50 --lat_percentiles=1 --output-format=json+"
# shellcheck disable=SC2086
(rm -rf "$WORK/run" && mkdir -p "$WORK/run" && cd "$WORK/run" && timeout -k 5 60 "$FIO" $args >"$WORK/half.fio.json" 2>/dev/null)
# shellcheck disable=SC2086
(rm -rf "$WORK/run" && mkdir -p "$WORK/run" && cd "$WORK/run" && timeout -k 5 60 "$WORK/bin/fio" $args >"$WORK/half.sb.json" 2>"$WORK/half.sb.err")
a=$(structure "$WORK/half.fio.json" 2>&1)
b=$(structure "$WORK/half.sb.json" 2>&1)
if [ "$a" = "$b" ]; then pass prio_half_json_plus; else fail prio_half_json_plus "fio [$a], ssdbench [$b]"; fi
# the text: one latency line and one percentile block per priority
(rm -rf "$WORK/run" && mkdir -p "$WORK/run" && cd "$WORK/run" &&
    timeout -k 5 60 "$WORK/bin/fio" --name=x --ioengine=libaio --filename=f --size=1m --rw=randread --bs=4k \
        --cmdprio_percentage=50 >"$WORK/half.txt" 2>&1)
check prio_text_lines test "$(grep -cE '^    clat prio (0/0|1/0) \((nsec|usec|msec)\): min=' "$WORK/half.txt")" -eq 2
check prio_text_pcts test "$(grep -cE '^    clat prio (0/0|1/0) \([0-9.]+% of IOs\) percentiles' "$WORK/half.txt")" -eq 2

# refused as fio refuses them: cmdprio without libaio/io_uring, both
# percentage and bssplit
refused() {
    local name=$1
    shift
    (cd "$WORK/run" && timeout -k 5 60 "$FIO" "$@" >/dev/null 2>&1)
    local a=$?
    (cd "$WORK/run" && timeout -k 5 60 "$WORK/bin/fio" "$@" >/dev/null 2>"$WORK/$name.err")
    local b=$?
    if [ $a -ne 0 ] && [ $b -ne 0 ]; then pass "$name"; else fail "$name" "exit codes: fio $a, ssdbench $b"; fi
}
refused prio_null_engine $N --size=64k --cmdprio_percentage=50
refused prio_both --name=x --ioengine=libaio --filename=f --size=64k --cmdprio_percentage=50 --cmdprio_bssplit=4k/50
# serialize_overlap where overlaps could be in flight: refused, with its reason
(cd "$WORK/run" && timeout -k 5 60 "$WORK/bin/fio" $N --size=64k --serialize_overlap=1 --iodepth=4 >/dev/null 2>"$WORK/so.err")
check serialize_overlap_depth_refused grep -q "serialize_overlap is supported with iodepth=1 only" "$WORK/so.err"
exit 0
