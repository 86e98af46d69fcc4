#!/bin/bash
# fio_iodepth.sh - fio's "IO depths" (iodepth_level) is the distribution of
# the in-flight depth at each submission, counted per I/O: a QD1 job has
# every I/O in "1"; the counts add up to the I/Os issued; and for QD8/QD32
# jobs (libaio, io_uring, null with a batch of 8) and a paced QD8 job whose
# queue stays nearly empty, the bucket holding more than half of the I/Os is
# fio 3.33's for the same job (shares that depend on timing are not
# compared).
# Then fio's batching defaults (iodepth_batch_submit=1,
# iodepth_batch_complete_min=1, the max following the min) and its queue
# (nothing reaped before the queue is full, a full queue reaped down to
# iodepth_low, the rest in one reap at the end): for default libaio and
# io_uring jobs at depths 1, 4 and 32, with iodepth_low and with
# iodepth_batch given, the JSON's iodepth_submit, iodepth_complete and
# iodepth_level and the text's "submit"/"complete" lines are fio's, as
# these tables do not depend on timing (one completion per reap); posixaio
# at depths 1 and 4 (fio's posixaio takes every completion it finds, so
# deeper tables depend on timing); ssdbench's own command line keeps its
# batching (every free slot per call).
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
# a fio job file fills the queue as fio does, one I/O per submission (1
# at depth 1, 2 at 2-3, 4 at 4-7), then every I/O at depth 8
check qd8_closed_loop_fio_fill test "$(json_get "$D/qd8.json" "d['phases'][0]['jobs'][0]['worker_stats'][0]['depth_levels']")" = "[1, 2, 4, 8185, 0, 0, 0]"

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

# fio's batching defaults, side by side: the tables of default jobs
# (size-bound, buffered reads of a file in the page cache)
tables() {  # JSON: "submit ... | complete ... | level ..." of job 0
    python3 -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
f = lambda k: " ".join("%s=%g" % (a, b) for a, b in j[k].items() if b)
print("submit", f("iodepth_submit"), "| complete", f("iodepth_complete"), "| level", f("iodepth_level") if sys.argv[2] == "1" else "-")' "$1" "$2" 2>/dev/null || echo error
}
textlines() { grep -E '^ +(submit|complete) +:' "$1" | tr -s ' '; }
truncate -s 1M "$D/b.dat"
cat "$D/b.dat" >/dev/null
mkdir -p "$D/bin"
ln -sf "$SSDBENCH" "$D/bin/fio"
for spec in "libaio 1" "libaio 4" "libaio 32" "io_uring 1" "io_uring 4" "io_uring 32" \
    "libaio 32 --iodepth_low=8" "io_uring 32 --iodepth_low=1" "libaio 32 --iodepth_low=16 --iodepth_batch_complete_min=4" \
    "io_uring 32 --iodepth_batch=8" "libaio 16 --iodepth_batch=4 --iodepth_low=4" "posixaio 1" "posixaio 4"; do
    # shellcheck disable=SC2086
    set -- $spec
    eng=$1 qd=$2
    shift 2
    tag="default_tables_${eng}_qd${qd}$(echo "$*" | tr -d ' -' | tr '=' '_')"
    J=(--name=b --ioengine="$eng" --iodepth="$qd" --filename="$D/b.dat" --rw=randread --bs=4k --size=1m "$@")
    level=1
    [ "$eng" = posixaio ] && level=0
    timeout 60 "$D/bin/fio" "${J[@]}" --output-format=json >"$D/t.sb.json" 2>/dev/null
    timeout 60 fio "${J[@]}" --output-format=json >"$D/t.fio.json" 2>/dev/null
    a=$(tables "$D/t.sb.json" $level) b=$(tables "$D/t.fio.json" $level)
    check "$tag ($a; fio $b)" test "$a" = "$b" -a "$a" != error
    if [ "$qd" = 32 ] && [ $# = 0 ]; then
        timeout 60 "$D/bin/fio" "${J[@]}" >"$D/t.sb.txt" 2>/dev/null
        timeout 60 fio "${J[@]}" >"$D/t.fio.txt" 2>/dev/null
        a=$(textlines "$D/t.sb.txt") b=$(textlines "$D/t.fio.txt")
        check "${tag}_text ($(echo $a))" test -n "$a" -a "$a" = "$b"
    fi
done
# the same as a job file given to ssdbench run
djob "$D/t.fio" ioengine=libaio iodepth=32 size=1m
sed -i "s|^filename=.*|filename=$D/b.dat|" "$D/t.fio"
"$SSDBENCH" run -q --output-format=json "$D/t.fio" >"$D/t.sb.json" 2>/dev/null
fio --output-format=json "$D/t.fio" >"$D/t.fio.json" 2>/dev/null
a=$(tables "$D/t.sb.json" 1) b=$(tables "$D/t.fio.json" 1)
check "default_tables_run_jobfile ($a)" test "$a" = "$b" -a "$a" != error
# ssdbench run's own command line: every free slot per call, every
# completion per reap, as before
"$SSDBENCH" run -q --name=b --ioengine=libaio --iodepth=32 --filename="$D/b.dat" --rw=randread --bs=4k --size=1m \
    --output-format=json >"$D/t.run.json" 2>/dev/null
a=$(tables "$D/t.run.json" 1)
check "run_cmdline_keeps_batching ($a)" test "$a" = "submit 32=100 | complete 32=100 | level 32=100"
