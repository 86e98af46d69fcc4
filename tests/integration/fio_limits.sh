#!/bin/bash
# fio_limits.sh - fio's rate floors and latency limits, run as `fio` through
# a symlink, with limits no host can meet or none can miss (nothing here
# depends on how fast the machine is): max_latency=1us fails the job on its
# first I/O with fio's line and ETIMEDOUT, per direction; rate_iops_min /
# rate_min (alias ratemin) far above any host fail the job after fio's 2 s
# settle with fio's "not met" line and EIO, a floor of 1 never does;
# latency_target below any latency stays at depth 1 (percentile 99) or fails
# (percentile 100), one above any latency climbs to iodepth, and the
# latency_* keys of the JSON and the text line are fio's. The same job files
# run with fio 3.33 give the same exit codes, error numbers and lines.
source "$(dirname "$0")/lib.sh"

fio_side_by_side fio_limits
cd "$WORK/run" || exit 1
have_fio=false
[ "$FIO_VERSION" = fio-3.33 ] && have_fio=true
truncate -s 16M data

job() {
    local name=$1
    shift
    { echo "[$name]"; echo "filename=$WORK/run/data"; echo "bs=4k"; printf '%s\n' "$@"; } >"$name.fio"
}
# run TOOL NAME: NAME.TOOL.json, .err; prints the exit code
run() {
    local bin=$SB
    [ "$1" = fio ] && bin=$FIO
    "$bin" "$2.fio" --output-format=json --output="$2.$1.json" >"$2.$1.err" 2>&1
    echo $?
}
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }
# field NAME TOOL EXPR-on-job-0
field() { py "$1.$2.json" "(lambda j: $3)(d['jobs'][0])"; }
# both NAME WANT-RC LINE-REGEX: ssdbench (and fio) exit with WANT-RC ("bad": a
# job-file error, which ssdbench answers with its usage code 2 and fio with 1)
# and print the line
rc_is() { if [ "$2" = bad ]; then [ "$1" -ne 0 ]; else [ "$1" -eq "$2" ]; fi; }
both() {
    local name=$1 want=$2 re=$3 rc
    rc=$(run sb "$name")
    if rc_is "$rc" "$want" && { [ -z "$re" ] || grep -Eq "$re" "$name.sb.err"; }; then pass "$name"; else fail "$name" "rc $rc, stderr: $(head -2 "$name.sb.err")"; fi
    if $have_fio; then
        rc=$(run fio "$name")
        if rc_is "$rc" "$want" && { [ -z "$re" ] || grep -Eq "$re" "$name.fio.err"; }; then pass "$name-fio-same"; else fail "$name-fio-same" "fio rc $rc: $(head -2 "$name.fio.err")"; fi
    fi
}

# --- max_latency: the first completion is slower than 1 us (fio reads "1ns" as 1 us) ---
job maxlat rw=randread ioengine=psync size=1M max_latency=1us
both maxlat 1 "^fio: latency of [0-9]+ nsec exceeds specified max \(1000 nsec\): $WORK/run/data read [0-9]+ 4096$"
check maxlat-one-io [ "$(field maxlat sb "j['read']['total_ios']")" = 1 ]
check maxlat-etimedout [ "$(field maxlat sb "j['error']")" = 110 ]
check maxlat-no-io-error grep -q "job stopped on $WORK/run/data: max_latency: latency limit exceeded" maxlat.sb.err
$have_fio && check maxlat-fio-etimedout [ "$(field maxlat fio "j['error']")" = 110 ]
# per direction: reads may take 10 s, writes 1 ns; the first write fails it
job maxlat_dir rw=randrw ioengine=psync size=1M max_latency=10s,1us filename=$WORK/run/wdata
both maxlat_dir 1 "exceeds specified max \(1000 nsec\): $WORK/run/wdata write "
check maxlat-dir-one-write [ "$(field maxlat_dir sb "j['write']['total_ios']")" = 1 ]

# --- rate floors: far above, and far below, anything a host does ---
job ratefloor rw=randread ioengine=psync time_based runtime=3 rate_iops_min=1000000000 ratecycle=100
both ratefloor 1 "^ratefloor: rate_iops_min=1000000000 not met, got [0-9]+ IOPS$"
check ratefloor-eio [ "$(field ratefloor sb "j['error']")" = 5 ]
check ratefloor-no-io-error grep -q "job stopped on $WORK/run/data: rate_iops_min: minimum rate not met" ratefloor.sb.err
$have_fio && check ratefloor-fio-eio [ "$(field ratefloor fio "j['error']")" = 5 ]
job ratemin rw=read ioengine=psync time_based runtime=3 ratemin=100g ratecycle=200
both ratemin 1 "^ratemin: rate_min=107374182400B/s not met, got [0-9]+B/s$"
job generous rw=randread ioengine=psync time_based runtime=3 rate_min=1,1 ratecycle=100
both generous 0 ""
check generous-no-error [ "$(field generous sb "j['error']")" = 0 ]
check generous-no-message [ ! -s generous.sb.err ]
# fio's rules: not both kinds of floor; no floor above the rate
job exclusive rw=read ioengine=psync size=64k rate_min=1m rate_iops_min=10
both exclusive bad "rate_min and rate_iops_min are mutually exclusive|rate and rate_iops are mutually exclusive"
job above rw=read ioengine=psync size=64k rate=1m rate_min=2m
both above bad "minimum rate exceeds rate, ddir 0"


# --- latency_target: the queue-depth search ---
job lt_low rw=randread ioengine=libaio iodepth=8 time_based runtime=1 latency_target=1us latency_window=200ms latency_percentile=99
both lt_low 0 ""
check lt-low-fields [ "$(field lt_low sb "(j['latency_depth'], j['latency_target'], j['latency_percentile'], j['latency_window'])")" = "(1, 1000, 99.0, 200000)" ]
$have_fio && check lt-low-fields-vs-fio [ "$(field lt_low sb "(j['latency_depth'], j['latency_target'], j['latency_percentile'], j['latency_window'])")" = \
    "$(field lt_low fio "(j['latency_depth'], j['latency_target'], j['latency_percentile'], j['latency_window'])")" ]
"$SB" lt_low.fio --output=lt_low.txt >/dev/null 2>&1
check lt-low-text grep -q '^     latency   : target=1000, window=200000, percentile=99.00%, depth=1$' lt_low.txt
job lt_fatal rw=randread ioengine=libaio iodepth=8 time_based runtime=1 latency_target=1us latency_window=200ms
both lt_fatal 1 "exceeds specified max \(1000 nsec\)"
check lt-fatal-etimedout [ "$(field lt_fatal sb "j['error']")" = 110 ]
job lt_high rw=randread ioengine=libaio iodepth=8 time_based runtime=20 latency_target=10s latency_window=50ms
both lt_high 0 ""
check lt-high-depth [ "$(field lt_high sb "j['latency_depth']")" = 8 ]
$have_fio && check lt-high-depth-fio [ "$(field lt_high fio "j['latency_depth']")" = 8 ]
# without latency_target fio reports the job's iodepth
job nolt rw=randread ioengine=null iodepth=4 size=64k
run sb nolt >/dev/null
check no-target-depth [ "$(field nolt sb "(j['latency_depth'], j['latency_target'])")" = "(4, 0)" ]
