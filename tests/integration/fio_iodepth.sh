#!/bin/bash
# fio_iodepth.sh - fio's "IO depths" (iodepth_level) is the distribution of
# the in-flight depth at each submission, counted per I/O: a QD1 job has
# every I/O in "1"; the counts add up to the I/Os issued; and for QD8/QD32
# jobs (libaio, io_uring, null with a batch of 8) and a paced QD8 job whose
# queue stays nearly empty, the bucket holding more than half of the I/Os is
# fio 3.33's for the same job (shares that depend on timing are not
# compared).
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir -p "$D"
cd "$D" || exit 1
F=$D/data
truncate -s 32M "$F"

djob() {  # FILE key=value...
    local f=$1; shift
    { echo "[d]"; echo "filename=$F"; echo "rw=randread"; echo "bs=4k"; echo "size=32m"
      for kv in "$@"; do echo "$kv"; done; } >"$f"
}
# major FILE: the iodepth_level bucket over 50 %, "none" if none is
major() {
    python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["jobs"][0]["iodepth_level"]
m = [k for k, v in t.items() if v > 50]
print(m[0] if m else "none")' "$1" 2>/dev/null || echo error
}

# QD1: every I/O in "1", in the JSON and in fio's text
djob "$D/qd1.fio" ioengine=psync
"$SSDBENCH" run -q --destroy="$F" --output-format=json "$D/qd1.fio" >"$D/qd1.json" 2>"$D/qd1.err"
check qd1_all_in_1 test "$(json_get "$D/qd1.json" "d['jobs'][0]['iodepth_level']['1']")" = 100.0
"$SSDBENCH" run -q --destroy="$F" --format fio-normal "$D/qd1.fio" >"$D/qd1.txt" 2>&1
check qd1_text_line grep -q "IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%" "$D/qd1.txt"

# the counts in the results: one per I/O issued (a size-bound job issues exactly its I/Os)
djob "$D/qd8.fio" ioengine=libaio iodepth=8
"$SSDBENCH" run -q --destroy="$F" --result "$D/qd8.json" "$D/qd8.fio" >/dev/null 2>"$D/qd8.err"
check qd8_counts_are_ios test "$(json_get "$D/qd8.json" "sum(d['phases'][0]['jobs'][0]['worker_stats'][0]['depth_levels']), d['phases'][0]['results'][0]['read']['ios']")" = "8192 8192"
check qd8_closed_loop_all_in_8 test "$(json_get "$D/qd8.json" "d['phases'][0]['jobs'][0]['worker_stats'][0]['depth_levels']")" = "[0, 0, 0, 8192, 0, 0, 0]"

# side by side with fio: the majority bucket (the paced job's period, 25 ms,
# is far above an I/O's time even on a loaded host, so one is in flight)
n=0
for spec in "ioengine=libaio iodepth=8 direct=1" "ioengine=io_uring iodepth=32 direct=1" \
    "ioengine=null iodepth=8 iodepth_batch=8" "ioengine=libaio iodepth=8 direct=1 rate_iops=40"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    djob "$D/s$n.fio" runtime=1 time_based=1 $spec
    "$SSDBENCH" run -q --destroy="$F" --output-format=json "$D/s$n.fio" >"$D/s$n.sb.json" 2>"$D/s$n.err"
    ours=$(major "$D/s$n.sb.json")
    tag=$(echo "$spec" | tr ' =' '__')
    if need_tool fio fio "majority_bucket_as_fio_$tag"; then
        fio --output-format=json --output="$D/s$n.fio.json" "$D/s$n.fio" >/dev/null 2>&1
        check "majority_bucket_as_fio_$tag" test "$ours" = "$(major "$D/s$n.fio.json")"
    fi
    case $spec in
    *rate_iops*) check "paced_mostly_1_$tag" test "$ours" = 1 ;;
    *iodepth=32*) check "closed_loop_$tag" test "$ours" = 32 ;;
    *) check "closed_loop_$tag" test "$ours" = 8 ;;
    esac
done
