#!/bin/bash
# run.sh: long
# fio_randseq.sh - random (and drawn-size) jobs issue exactly fio 3.33's I/O:
# each job below runs under fio and under ssdbench invoked as fio with
# write_iolog, and the logs' I/O lines (file, direction, offset, length, in
# order, per file) must be identical. ssdbench follows fio's own streams
# (job/fio_rand.h): fio's seeds per thread (randseed, randrepeat,
# allrandrepeat, numjobs), its rwmix cycle, its block-size draws (bs ranges,
# bssplit, per-direction bs), its offsets (lfsr, zipf, pareto, normal, zoned)
# and random map (including the map
# indexed in each direction's own block size, where a pass ends at the first
# draw whose next free block lies past the region). Then the volume of
# fio's randrw bs=4k,16k job (12,369,920 bytes in fio 3.33) from the JSON.
source "$(dirname "$0")/lib.sh"

fio_side_by_side randseq

# iolines BIN OUT ARGS...: the I/O lines of the job's write_iolog (the time
# stamp dropped; grouped by file in a stable sort, as clones append to one
# log; adjacent repeats dropped: fio logs some I/O twice at iodepth > 1 on
# the null engine, and no pass repeats a block). Jobs with clones stay small:
# fio's clones write the one log through buffers of their own, and a clone's
# lines stay whole only while they fit one buffer.
iolines() {
    local bin=$1 out=$2
    shift 2
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 120 "$bin" --write_iolog=io.log --output-format=json "$@" >"$out.json" 2>"$out.err") || return 1
    awk '$3 == "read" || $3 == "write" || $3 == "trim" {print $2, $3, $4, $5}' "$WORK/run/io.log" |
        if [ -n "$ORDERED" ]; then cat; elif [ -n "$ALLSORTED" ]; then sort; else sort -s -k1,1; fi | uniq >"$out"
}

# same NAME ARGS...: both logs identical (and not empty)
same() {
    local name=$1
    shift
    if ! iolines "$FIO" "$WORK/$name.fio" "$@"; then
        fail "$name" "fio itself fails: $(head -c 200 "$WORK/$name.fio.err")"
        return
    fi
    if ! iolines "$SB" "$WORK/$name.sb" "$@"; then
        fail "$name" "ssdbench fails: $(head -c 200 "$WORK/$name.sb.err")"
        return
    fi
    local n
    n=$(wc -l <"$WORK/$name.fio")
    if [ "$n" -gt 0 ] && cmp -s "$WORK/$name.fio" "$WORK/$name.sb"; then
        pass "$name ($n I/Os)"
    else
        fail "$name" "logs differ: fio $n I/Os, ssdbench $(wc -l <"$WORK/$name.sb"); first difference: $(diff "$WORK/$name.fio" "$WORK/$name.sb" | sed -n 2p)"
    fi
}

# sameo NAME ARGS...: as same, in the order of the log across files (one
# thread's files: the file of each I/O is fio's pick too)
sameo() {
    ORDERED=1 same "$@"
}

# samem NAME ARGS...: as same, the lines as a sorted whole: clones that
# share several files write one log in an order the buffers' flushes decide,
# so only the set of I/Os (each file, direction, offset, length) is compared
samem() {
    ALLSORTED=1 same "$@"
}

# same_prefix NAME ARGS...: a time-based job's logs agree over the shorter
# one (the runtime decides the length, not the stream); thinktime keeps
# the logs short without deciding anything of the stream
same_prefix() {
    local name=$1
    shift
    if ! ORDERED=1 iolines "$FIO" "$WORK/$name.fio" "$@" || ! ORDERED=1 iolines "$SB" "$WORK/$name.sb" "$@"; then
        fail "$name" "a run fails: $(head -c 200 "$WORK/$name.fio.err" "$WORK/$name.sb.err")"
        return
    fi
    local nf ns n
    nf=$(wc -l <"$WORK/$name.fio")
    ns=$(wc -l <"$WORK/$name.sb")
    n=$((nf < ns ? nf : ns))
    if [ "$n" -gt 100 ] && cmp -s <(head -n "$n" "$WORK/$name.fio") <(head -n "$n" "$WORK/$name.sb"); then
        pass "$name (first $n I/Os; fio $nf, ssdbench $ns)"
    else
        fail "$name" "logs differ over the first $n I/Os (fio $nf, ssdbench $ns): $(diff <(head -n "$n" "$WORK/$name.fio") <(head -n "$n" "$WORK/$name.sb") | sed -n 2p)"
    fi
}

N="--ioengine=null --name=a"
same randread            $N --rw=randread --bs=4k --size=16m
same randrw_4k_16k       $N --rw=randrw --bs=4k,16k --size=16m
same randwrite_4k_16k    $N --rw=randwrite --bs=4k,16k --size=16m
same randrw_mix70        $N --rw=randrw --rwmixread=70 --bs=4k --size=4m
same randread_bsrange    $N --rw=randread --bsrange=4k-64k --size=8m
same randread_bsrange512 $N --rw=randread --bsrange=512-64k --size=4m
same randwrite_bssplit   $N --rw=randwrite --bssplit=4k/50:16k/30:64k/20 --size=8m
same randrw_bssplit_dirs $N --rw=randrw --bssplit=4k/50:64k/50,8k/20:32k/80 --size=8m
same randread_seq_nr     $N --rw=randread:4 --bs=4k --size=4m
same randread_pct_random $N --rw=randread:8 --bssplit=4k/50:8k/50 --size=1m --percentage_random=70
same norandommap         $N --rw=randread --bs=4k --size=4m --norandommap
same randseed            $N --rw=randread --bs=4k --size=4m --randseed=1234
same randseed_norepeat   $N --rw=randrw --bssplit=4k/50:16k/50 --size=1m --randseed=77 --randrepeat=0 --loops=2
same allrandrepeat       $N --rw=randrw --bs=4k,8k --size=1m --allrandrepeat=1
same loops               $N --rw=randrw --bs=4k --size=1m --loops=3
same io_size_passes      $N --rw=randrw --bs=4k,16k --size=1m --io_size=4m
same tausworthe64        $N --rw=randrw --bsrange=4k-16k --size=4m --random_generator=tausworthe64
same numjobs             $N --rw=randread --bs=4k --size=256k --numjobs=3
same two_jobs            --ioengine=null --name=a --rw=randread --bs=4k --size=256k --name=b --stonewall --rw=randwrite --bssplit=4k/30:8k/70 --size=256k --numjobs=2
same blockalign          $N --rw=randwrite --bs=16k --blockalign=4k --size=1m
same randtrim            $N --rw=randtrim --bs=4k --size=1m
same seq_bssplit         $N --rw=read --bssplit=4k/50:64k/50 --size=4m
same seq_rw_mix          $N --rw=rw --rwmixread=60 --bs=4k --size=4m
same null_qd16           $N --iodepth=16 --rw=randrw --bs=4k,16k --size=16m
same libaio_qd8_file     --ioengine=libaio --iodepth=8 --name=a --filename=f --rw=randrw --bssplit=4k/50:64k/50 --rwmixread=30 --size=4m
same psync_file          --ioengine=psync --name=a --filename=f --rw=randrw --bs=4k,16k --size=4m
# fio's shift register (random_generator=lfsr), its zipf, pareto and normal
# offsets (seeded from the file's name and the thread) and zoned ones
same lfsr                $N --rw=randread --bs=4k --size=1m --random_generator=lfsr --loops=2
same lfsr_bssplit        $N --rw=randrw --bssplit=4k/50:16k/50 --size=1m --random_generator=lfsr
same lfsr_4k_16k         $N --rw=randrw --bs=4k,16k --size=1m --random_generator=lfsr
same zipf                $N --rw=randread --bs=4k --size=4m --random_distribution=zipf:1.2 --io_size=2m
same zipf_bssplit_seed   $N --rw=randwrite --bssplit=4k/50:64k/50 --size=8m --random_distribution=zipf:0.8 --randseed=9
same zipf_numjobs        $N --rw=randread --bs=4k --size=256k --random_distribution=zipf:1.1 --numjobs=2
same pareto              $N --rw=randrw --bs=4k --size=4m --random_distribution=pareto:0.3
same normal              $N --rw=randread --bs=4k --size=4m --random_distribution=normal:20
same zoned              $N --rw=randread --bs=4k --size=4m --random_distribution=zoned:50/5:30/15:20/80
same zoned_bssplit       $N --rw=randrw --bssplit=4k/50:16k/50 --size=4m --random_distribution=zoned:60/10:40/90
same zipf_file           --ioengine=psync --name=a --filename=f --rw=randread --bs=4k --size=1m --random_distribution=zipf:1.2
# offset_increment with fio's per-clone files (a.K.0): clone K's region
# starts K increments into its own file, which fio lays out that far
same offset_increment    $N --rw=randrw --bs=4k --size=256k --numjobs=3 --offset_increment=256k
same offset_increment_psync --ioengine=psync --name=a --rw=randwrite --bs=4k --size=16k --numjobs=3 --offset_increment=256k
sz=$(stat -c %s "$WORK/run/a.0.0" "$WORK/run/a.1.0" "$WORK/run/a.2.0" 2>&1 | tr '\n' ' ')
check "offset_increment_file_sizes ($sz; fio 3.33: 16384 278528 540672)" test "$sz" = "16384 278528 540672 "

# file sets and several names in one job: one fio thread over its files,
# each I/O's file picked as fio's get_next_file (roundrobin, sequential,
# random from fio's own file-service generator, and :N), per-file maps
sameo nrfiles_rr         $N --rw=randread --bs=4k --size=1m --nrfiles=3
sameo nrfiles_randrw     $N --rw=randrw --bs=4k,16k --size=4m --nrfiles=4
sameo nrfiles_seq_read   $N --rw=read --bs=4k --size=1m --nrfiles=3
sameo fst_random         $N --rw=randread --bs=4k --size=1m --nrfiles=3 --file_service_type=random
sameo fst_sequential     $N --rw=randwrite --bssplit=4k/50:16k/50 --size=1m --nrfiles=3 --file_service_type=sequential
sameo fst_rr_3           $N --rw=randwrite --bs=4k --size=1m --nrfiles=5 --file_service_type=roundrobin:3
sameo fst_random_4_loops $N --rw=randrw --bs=4k --size=1m --nrfiles=3 --file_service_type=random:4 --loops=2
# zipf, pareto and normal picks (fio's unhashed generators over nrfiles << 10)
sameo fst_zipf           $N --rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=zipf:1.4 --io_size=4m
sameo fst_pareto_seq     $N --rw=read --bs=4k --size=1m --nrfiles=5 --file_service_type=pareto:0.3 --io_size=2m
sameo fst_normal         $N --rw=randrw --bs=4k --size=1m --nrfiles=5 --file_service_type=normal:20
# openfiles below nrfiles (iodepth 1): fio's busy answers, a file reset when opened
sameo openfiles_rr       $N --rw=randread --bs=4k --size=1m --nrfiles=4 --openfiles=2
sameo openfiles_random   $N --rw=read --bs=4k --size=1m --nrfiles=5 --openfiles=2 --file_service_type=random
sameo openfiles_rr5_loops $N --rw=randwrite --bs=4k --size=1m --nrfiles=4 --openfiles=3 --file_service_type=roundrobin:5 --loops=2
sameo openfiles_zipf     $N --rw=randread --bs=4k --size=1m --nrfiles=4 --openfiles=1 --file_service_type=zipf --io_size=2m
sameo openfiles_psync    --ioengine=psync --name=a --rw=randrw --bs=4k --size=1m --nrfiles=4 --openfiles=2
sameo nrfiles_qd8        $N --iodepth=8 --rw=randread --bs=4k --size=1m --nrfiles=3
sameo names              $N --rw=randread --bs=4k --size=1m --filename=x:y:z
sameo names_random       $N --rw=write --bs=4k --size=1m --filename=x:y:z --file_service_type=random
samem names_numjobs      $N --rw=randrw --bs=4k --size=256k --filename=x:y --numjobs=2
sameo names_psync        --ioengine=psync --name=a --rw=randwrite --bs=4k --size=1m --filename=x:y:z
sz=$(stat -c %s "$WORK/run/x" "$WORK/run/y" "$WORK/run/z" 2>&1 | tr '\n' ' ')
check "names_psync_file_sizes ($sz; fio 3.33: 349525 each)" test "$sz" = "349525 349525 349525 "
# trimwrite: a trim, then its write (fio's set_rw_ddir; trims sized as writes)
sameo trimwrite          $N --rw=trimwrite --bs=4k --size=1m
sameo trimwrite_sizes    $N --rw=trimwrite --bs=4k,8k,4k --size=1m
sameo randtrimwrite      $N --rw=randtrimwrite --bs=4k --size=1m
sameo randtrimwrite_bssplit $N --rw=randtrimwrite --bssplit=4k/50:16k/50 --size=1m
sameo randtrimwrite_files $N --rw=randtrimwrite --bs=4k --size=256k --nrfiles=2 --loops=2
# zonemode=strided: fio's zone walk over fio's stream (a zone's reset keeps
# the seeds; a restart at the end is a new loop)
Z="--zonemode=strided"
sameo zone_randread      $N --rw=randread --bs=4k --size=1m $Z --zonesize=64k --zoneskip=64k
sameo zone_range         $N --rw=randread --bs=4k --size=1m $Z --zonesize=64k --zonerange=128k
sameo zone_big           $N --rw=read --bs=4k --size=1m $Z --zonesize=128k --zonerange=64k
sameo zone_randrw_sizes  $N --rw=randrw --bs=4k,16k --size=2m $Z --zonesize=256k --zonerange=128k --zoneskip=64k
sameo zone_bssplit       $N --rw=randwrite --bssplit=4k/50:16k/50 --size=1m $Z --zonesize=128k --zoneskip=128k --norandommap
sameo zone_loops         $N --rw=randread --bs=4k --size=1m $Z --zonesize=64k --zoneskip=64k --loops=2
sameo zone_range_62k     $N --rw=read --bs=4k --size=1m $Z --zonesize=64k --zonerange=62k
sameo zone_seq_bsrange   $N --rw=read --bsrange=4k-16k --size=1m $Z --zonesize=64k --zoneskip=32k
sameo zone_io_size       $N --rw=randrw --bs=4k --size=1m $Z --zonesize=48k --zonerange=64k --zoneskip=64k --io_size=3m
# io_size with loops: fio's io_size times loops, or passes up to io_size
sameo io_size_loops      $N --rw=randread --bs=4k --size=1m --norandommap --io_size=64k --loops=2
sameo io_size_loops_map  $N --rw=randrw --bs=4k --size=1m --io_size=1536k --loops=2
sameo io_size_loops_seq  $N --rw=read --bs=4k --size=1m --io_size=3m --loops=2
# time-based jobs: the prefix both tools issue, over several passes
T="--time_based --runtime=300ms --thinktime=100"
same_prefix tb_randread      $N --rw=randread --bs=4k --size=256k $T
same_prefix tb_randrw_sizes  $N --rw=randrw --bs=4k,16k --size=256k $T
same_prefix tb_read          $N --rw=read --bs=4k --size=256k $T
same_prefix tb_norandommap   $N --rw=randread --bssplit=4k/50:16k/50 --size=256k --norandommap $T
same_prefix tb_lfsr          $N --rw=randread --bs=4k --size=256k --random_generator=lfsr $T
same_prefix tb_randseed      $N --rw=randrw --bs=4k,16k --size=256k --randrepeat=0 --randseed=5 $T
same_prefix tb_files_random  $N --rw=rw --bs=4k --size=256k --nrfiles=3 --file_service_type=random $T
same_prefix tb_files_bssplit $N --rw=randrw --bssplit=4k/50:16k/50 --size=256k --nrfiles=2 --file_service_type=random $T
same_prefix tb_files_pareto  $N --rw=randrw --bs=4k --size=256k --nrfiles=3 --file_service_type=pareto $T
same_prefix tb_zone          $N --rw=randwrite --bs=4k --size=1m $Z --zonesize=32k --zonerange=64k --zoneskip=32k $T
# more than 2^32 blocks: fio seeds the thread 32-bit and moves to
# tausworthe64 only for a re-seeded loop, so the first loop draws 32 bits
same blocks_2p32         $N --rw=randread --bs=512 --size=2t --norandommap --io_size=64k --loops=2
same blocks_20t          $N --rw=randrw --bsrange=4k-64k --size=20t --norandommap --io_size=1m
same blocks_20t_taus64   $N --rw=randread --bs=4k --size=20t --norandommap --io_size=64k --random_generator=tausworthe64

# fio's volume of randrw bs=4k,16k over 16 MiB, from its JSON and ours
vol() {
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["total_ios"], j["write"]["total_ios"], j["read"]["io_bytes"] + j["write"]["io_bytes"])' "$1"
}
a=$(vol "$WORK/randrw_4k_16k.fio.json" 2>&1)
b=$(vol "$WORK/randrw_4k_16k.sb.json" 2>&1)
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "${a##* }" = 12369920 ]; then
    pass "randrw_4k_16k_volume ($a)"
else
    fail randrw_4k_16k_volume "fio '$a', ssdbench '$b' (reads writes bytes; fio 3.33: 572 612 12369920)"
fi

# which stream the result records: fio's for a job file, ssdbench's own for
# the command line of `ssdbench run` (its native path)
printf '[a]\nioengine=null\nrw=randread\nbs=4k\nsize=1m\n' >"$WORK/j.fio"
(cd "$WORK/run" && timeout 60 "$SSDBENCH" run -q --format json -o "$WORK/jf.json" "$WORK/j.fio" >/dev/null 2>&1)
(cd "$WORK/run" && timeout 60 "$SSDBENCH" run -q --name=a --ioengine=null --rw=randread --bs=4k --size=1m --format json -o "$WORK/cl.json" >/dev/null 2>&1)
s1=$(json_get "$WORK/jf.json" 'd["phases"][0]["jobs"][0]["params"]["random_stream"]' 2>&1)
s2=$(json_get "$WORK/cl.json" 'd["phases"][0]["jobs"][0]["params"]["random_stream"]' 2>&1)
check "random_stream_recorded (job file $s1, command line $s2)" test "$s1/$s2" = fio/ssdbench
