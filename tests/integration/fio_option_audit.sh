#!/bin/bash
# fio_option_audit.sh - the keys of the option table that were accepted
# without effect (tests/fio_option_effects.txt lists every key): each run
# with the key against one without, under ssdbench as fio and under fio 3.33,
# on the null engine with tiny sizes.
#  - now acting: iodepth_batch_submit (the JSON's iodepth_submit),
#    iodepth_batch_complete_max (iodepth_complete), thread ("Starting N
#    thread"/"process"), disable_bw_measurement (no per-I/O bandwidth lines);
#  - fio-inert (fio's counts with them are ssdbench's without them, and
#    with them): clocksource, experimental_verify, verify_async (its
#    threads change no count; they are checked in fio_verify_async.sh),
#    flow_watermark, serialize_overlap (iodepth=1);
#  - default-only, the other value refused in one line naming the key:
#    create_on_open, allow_mounted_write, rw_sequencer,
#    cmd_type;
#  - timing only (accepted, the counts unchanged; times are not asserted on
#    a loaded host): flow_sleep, rate_cycle, latency_run, log_compression
#    (fio's in-memory chunks: the log file is the same);
#  - percentage sizes (size=N%) against fio's counts (verify_async's
#    threads and verify_async_cpus: fio_verify_async.sh).
source "$(dirname "$0")/lib.sh"

fio_side_by_side audit
cd "$WORK/run" || exit 1

# js FILE EXPR: a value of the first job of a JSON output
js() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(eval(sys.argv[2]))
EOF
}
buckets='" ".join("%s=%g" % (k, v) for k, v in j[KEY].items() if v)'
counts='" ".join("%s=%d/%d" % (k, j[k]["total_ios"], j[k]["io_bytes"]) for k in ("read", "write", "trim"))'
run() { local out=$1; shift; timeout 60 "$@" --output-format=json >"$out" 2>"$out.err"; }

# iodepth_batch_submit / iodepth_batch_complete_max at iodepth 16: batches
# of 8 and reaps of at most 2, fio's buckets; without them fio's defaults
# (one I/O per call: fio's null engine reaps each batch before the next),
# as ssdbench's own command line does not (every free slot at once: 16)
J="--name=b --ioengine=null --size=1m --bs=4k --iodepth=16"
for opt in "iodepth_batch_submit=8 iodepth_submit" "iodepth_batch_complete_max=2 iodepth_complete"; do
    set -- $opt
    k=${2}
    # shellcheck disable=SC2086
    run d.json "$SB" $J && run o.json "$SB" $J --$1 && run f.json "$FIO" $J --$1 && run fd.json "$FIO" $J &&
        run r.json "$SSDBENCH" run $J
    d=$(js d.json "${buckets//KEY/\"$k\"}") o=$(js o.json "${buckets//KEY/\"$k\"}") f=$(js f.json "${buckets//KEY/\"$k\"}")
    fd=$(js fd.json "${buckets//KEY/\"$k\"}") r=$(js r.json "${buckets//KEY/\"$k\"}")
    case $k in iodepth_submit) want="8=100" ;; *) want="4=100" ;; esac
    check "$1 ($k: default $d (fio $fd; run $r), with it $o, fio $f)" test "$d" = "4=100" -a "$d" = "$fd" \
        -a "$r" = "16=100" -a "$o" = "$want" -a "$f" = "$want"
done

# thread: fio's words for its workers
a=$(timeout 20 "$SB" --name=t --ioengine=null --size=64k --numjobs=2 | grep '^Starting')
b=$(timeout 20 "$SB" --name=t --ioengine=null --size=64k --numjobs=2 --thread | grep '^Starting')
c=$(timeout 20 "$FIO" --name=t --ioengine=null --size=64k --numjobs=2 | grep '^Starting')
e=$(timeout 20 "$FIO" --name=t --ioengine=null --size=64k --numjobs=2 --thread | grep '^Starting')
check "thread ($a / $b; fio $c / $e)" test "$a" = "$c" -a "$b" = "$e" -a "$a" != "$b"

# disable_bw_measurement: the bandwidth log has no per-I/O lines
bwlines() { rm -f bw_bw.1.log; timeout 20 "$1" --name=bw --ioengine=null --size=64k --write_bw_log=bw "${@:2}" \
    --output=/dev/null 2>/dev/null; wc -l <bw_bw.1.log; }
a=$(bwlines "$SB") b=$(bwlines "$SB" --disable_bw_measurement=1) c=$(bwlines "$FIO" --disable_bw_measurement=1)
check "disable_bw_measurement (lines: $a without, $b with, fio $c)" test "$a" = 16 -a "$b" = 0 -a "$c" = 0

# fio-inert: the same counts with and without, in fio and in ssdbench
inert() {
    local name=$1 opt=$2 a b c d
    shift 2
    # without it ssdbench's counts are fio's (fio_counts.sh); with it, both the same
    rm -f v.dat && run a.json "$SB" "$@" && rm -f v.dat && run b.json "$SB" "$@" "$opt" &&
        rm -f v.dat && run d.json "$FIO" "$@" "$opt"
    a=$(js a.json "$counts") b=$(js b.json "$counts") d=$(js d.json "$counts")
    check "fio-inert:$name ($b; fio $d)" test -n "$a" -a "$a" = "$b" -a "$b" = "$d"
}
inert clocksource --clocksource=cpu --name=c --ioengine=null --size=256k --bs=4k
inert experimental_verify --experimental_verify=1 --name=v --ioengine=psync --filename=v.dat --size=128k \
    --rw=write --verify=md5
inert verify_async --verify_async=2 --name=v --ioengine=psync --filename=v.dat --size=128k --rw=randwrite \
    --verify=crc32c
inert flow_watermark --flow_watermark=10 --name=f --ioengine=null --size=256k --flow_id=1 --flow=2
inert serialize_overlap --serialize_overlap=1 --name=s --ioengine=null --size=256k --bs=4k

# default-only: the other value is refused in one line naming the key
for kv in create_on_open=1 allow_mounted_write=1 rw_sequencer=identical \
    cmd_type=scsi; do
    out=$(timeout 20 "$SB" --name=r --ioengine=null --size=64k "--$kv" 2>&1 >/dev/null)
    rc=$?
    check "default-only:$kv ($out)" test "$rc" -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" = 1 \
        -a -n "$(printf '%s' "$out" | grep -F "${kv%%=*}")"
done

# timing only: accepted, the same I/O
same() {
    local name=$1 opt=$2 a b
    shift 2
    run a.json "$SB" "$@" && run b.json "$SB" "$@" "$opt"
    a=$(js a.json "$counts") b=$(js b.json "$counts")
    check "timing:$name ($b)" test -n "$a" -a "$a" = "$b"
}
same flow_sleep --flow_sleep=100 --name=f --ioengine=null --size=256k --flow_id=1 --flow=2
same rate_cycle --rate_cycle=500 --name=r --ioengine=null --size=256k --rate_iops_min=1
same latency_run --latency_run=1 --name=l --ioengine=null --size=256k --iodepth=4 --latency_target=10ms \
    --latency_window=100ms
rm -f lc_lat.1.log
run a.json "$SB" --name=lc --ioengine=null --size=64k --write_lat_log=lc --log_avg_msec=0
mv lc_lat.1.log lc_a.log 2>/dev/null
run b.json "$SB" --name=lc --ioengine=null --size=64k --write_lat_log=lc --log_avg_msec=0 --log_compression=1m
check "timing:log_compression (lat log $(wc -l <lc_lat.1.log) lines, as without)" \
    test -s lc_a.log -a "$(wc -l <lc_a.log)" = "$(wc -l <lc_lat.1.log)"

# percentage sizes as fio: size=N% of a file (and of filesize on the null
# engine), whole smallest blocks; without a size to take it of, refused
head -c 1048576 /dev/zero >p.dat
for a in "--filename=p.dat --ioengine=psync --rw=write --offset=256k --size=50%" \
         "--filename=p.dat --ioengine=psync --rw=write --size=30%" \
         "--ioengine=null --filesize=1m --offset=256k --size=50%"; do
    # shellcheck disable=SC2086
    SSDBENCH_DESTROY="$PWD/p.dat" run a.json "$SB" --name=p $a && run b.json "$FIO" --name=p $a
    x=$(js a.json "$counts") y=$(js b.json "$counts")
    check "size-pct:${a// /_} ($x)" test -n "$x" -a "$x" = "$y"
done
out=$(timeout 20 "$SB" --name=p --ioengine=null --size=50% 2>&1 >/dev/null)
check "size-pct:null-without-filesize ($out)" test -n "$(printf '%s' "$out" | grep -F 'needs filesize')"

