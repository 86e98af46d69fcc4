#!/bin/bash
# run.sh: long
# fio_counts.sh - every size-bounded job below runs under fio 3.33 and under
# ssdbench invoked as fio (a symlink named fio), both with
# --output-format=json; the I/O counts and bytes of each direction, summed
# over the jobs of the output, must be equal. Most jobs use ioengine=null (no
# target, only the volume arithmetic); a few use psync on a file in the
# work directory. ssdbench follows fio's own random streams for these jobs
# (job/fio_rand.h), so the counts of each direction are compared even where
# fio's draws decide them: the split of a mix, the number of I/Os of a
# block-size mix, and the volume of a random job whose directions have
# different smallest block sizes (fio indexes its one map in each
# direction's block size, and a pass ends at the first draw whose next free
# block lies past the region: randrw bs=4k,16k moves 12,369,920 of 16 MiB).
source "$(dirname "$0")/lib.sh"

fio_side_by_side counts

# counts JSONFILE MODE: "read=ios/bytes write=... trim=..." (MODE dirs),
# "read=bytes ..." (MODE bytes) or "all=ios/bytes" (MODE total) summed over
# the output's jobs
counts() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
# (fio 3.33 prints a job's header line ahead of the JSON in some runs)
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):] if "{" in text else text)
t = {k: [0, 0] for k in ("read", "write", "trim")}
for j in d["jobs"]:
    for k in t:
        t[k][0] += j[k]["total_ios"]
        t[k][1] += j[k]["io_bytes"]
if sys.argv[2] == "bytes":
    print(" ".join("%s=%d" % (k, v[1]) for k, v in t.items()))
elif sys.argv[2] == "total":
    print("all=%d/%d" % (sum(v[0] for v in t.values()), sum(v[1] for v in t.values())))
else:
    print(" ".join("%s=%d/%d" % (k, v[0], v[1]) for k, v in t.items()))
EOF
}

# one NAME MODE ARGS...: the job given by ARGS (fio's command line) under
# both; a psync job's file is $WORK/run/f, removed before each run
one() {
    local name=$1 mode=$2 a b
    shift 2
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$FIO" --output-format=json "$@" >"$WORK/$name.fio.json" 2>"$WORK/$name.fio.err")
    a=$(counts "$WORK/$name.fio.json" "$mode" 2>&1) || { skip "$name" "fio itself fails: $(head -c 200 "$WORK/$name.fio.err")"; return; }
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$SB" --output-format=json "$@" >"$WORK/$name.sb.json" 2>"$WORK/$name.sb.err")
    b=$(counts "$WORK/$name.sb.json" "$mode" 2>&1) || b="no JSON: $(head -c 200 "$WORK/$name.sb.err")"
    if [ "$a" = "$b" ]; then pass "$name"; else fail "$name" "fio $a, ssdbench $b"; fi
}

# refused NAME ARGS...: a job fio 3.33 does not run (it exits non-zero
# having done no I/O): ssdbench refuses it too, with a one-line reason
refused() {
    local name=$1 a b rc
    shift
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$FIO" --output-format=json "$@" >"$WORK/$name.fio.json" 2>"$WORK/$name.fio.err")
    rc=$?
    a=$(counts "$WORK/$name.fio.json" total 2>/dev/null)
    if [ "$rc" = 0 ] || { [ -n "$a" ] && [ "$a" != all=0/0 ]; }; then
        fail "$name" "fio 3.33 ran it (exit $rc, $a): not a refusal to compare"
        return
    fi
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$WORK/bin/fio" --output-format=json "$@" >"$WORK/$name.sb.json" 2>"$WORK/$name.sb.err")
    rc=$?
    b=$(grep -c . "$WORK/$name.sb.err")
    if [ "$rc" != 0 ] && [ "$b" = 1 ] && ! grep -q total_ios "$WORK/$name.sb.json"; then
        pass "$name"
    else
        fail "$name" "ssdbench: exit $rc, $b lines on stderr: $(head -c 200 "$WORK/$name.sb.err")"
    fi
}

N="--name=x --ioengine=null"
F="--name=x --ioengine=psync --filename=$WORK/run/f"
one read              dirs  $N --rw=read --bs=4k --size=1m
one write_bs16k       dirs  $N --rw=write --bs=16k --size=1m
one randread          dirs  $N --rw=randread --bs=4k --size=1m
one randwrite_bsrange dirs  $N --rw=randwrite --bsrange=4k-16k --size=1m
one read_bssplit      dirs  $N --rw=read --bssplit=4k/50:64k/50 --size=4m
one rw_mix            dirs  $N --rw=rw --bs=4k --size=4m
one randrw_mix        dirs  $N --rw=randrw --bs=4k --size=4m
one randrw_read100    dirs  $N --rw=randrw --rwmixread=100 --bs=4k,16k --size=16m
one randrw_write100   dirs  $N --rw=randrw --rwmixread=0 --bs=16k --size=16m
one rw_split_bs_w     dirs  $N --rw=write --bs=4k,16k --size=16m
one randrw_4k_16k     dirs  $N --rw=randrw --bs=4k,16k --size=16m
one randrw_4k_16k_seed dirs $N --rw=randrw --bs=4k,16k --size=16m --randseed=3
one randwrite_4k_16k  dirs  $N --rw=randwrite --bs=4k,16k --size=16m
one randrw_4k_16k_loops dirs $N --rw=randrw --bs=4k,16k --size=4m --loops=2
one randrw_bssplit    dirs  $N --rw=randrw --bssplit=4k/50:64k/50 --size=8m
one randrw_mix30_qd8  dirs  $N --rw=randrw --rwmixread=30 --bs=4k --size=4m --iodepth=8
one randread_bsrange  dirs  $N --rw=randread --bsrange=4k-64k --size=8m
one filesize          dirs  $N --filesize=1m
one filesize_offset   dirs  $N --filesize=64k --offset=32k
one size_filesize_off dirs  $N --size=64k --filesize=64k --offset=32k
one filesize_size     dirs  $N --filesize=1m --size=64k
one offset_size       dirs  $N --size=64k --offset=32k
one io_size           dirs  $N --size=64k --io_size=256k
one io_limit          dirs  $N --size=64k --io_limit=128k
one loops             dirs  $N --size=64k --loops=3
one number_ios        dirs  $N --size=1m --number_ios=10
one numjobs           dirs  $N --size=32k --numjobs=3
one numjobs_group     dirs  $N --size=8m --numjobs=3 --group_reporting
one numjobs_offinc    dirs  $N --size=64k --numjobs=2 --offset_increment=64k
one nrfiles           dirs  $N --size=1m --nrfiles=4
one nrfiles_filesize  dirs  $N --nrfiles=3 --filesize=64k
one read_skip         dirs  $N --rw=read:8k --bs=4k --size=1m
one strided           dirs  $N --size=1m --zonemode=strided --zonesize=64k --zonerange=256k
one io_size_filesize  dirs  $N --size=64k --io_size=128k --filesize=64k --offset=32k
# fio's arithmetic of a file it never opens (ioengine=null: the size is
# unknown unless size= gives bytes, so offset=P% of it is past any filesize)
one null_off_pct_size       dirs $N --offset=10% --size=1m --filesize=512k
one null_off_pct_size_fs    dirs $N --offset=25% --size=1m --filesize=1m
one null_off_pct_jobs       dirs $N --offset=10% --size=1m --filesize=512k --numjobs=2 --offset_increment=64k
one null_off_pct_files      dirs $N --offset=25% --size=1m --filesize=512k --nrfiles=2
one null_off_pct_files_jobs dirs $N --offset=10% --size=1m --filesize=1m --nrfiles=2 --numjobs=2
one null_offinc_filesize    dirs $N --filesize=512k --numjobs=2 --offset_increment=64k
one null_offinc_fs_size     dirs $N --offset=32k --size=1m --filesize=1m --numjobs=2 --offset_increment=64k
one null_size_pct_files     dirs $N --offset=32k --size=50% --filesize=512k --nrfiles=2
one null_size_pct_io_size   dirs $N --offset=32k --size=50% --filesize=1m --io_size=128k
one null_size_pct_jobs      dirs $N --size=50% --filesize=1m --numjobs=2 --offset_increment=64k
refused null_off_pct_unknown   $N --rw=read --offset=10% --filesize=1m --size=50%
refused null_off_pct_unknown_j $N --rw=read --offset=25% --filesize=512k --numjobs=2
refused null_size_pct_alone    $N --size=50% --nrfiles=2
# offset=P% of a file: P% of its size when the job starts, rounded up to
# the smallest block size (a file the run makes has none yet: from 0)
one psync_off_pct_new      dirs $F --rw=read --offset=25% --filesize=512k
one psync_off_pct_new_size dirs $F --rw=read --offset=10% --size=256k --numjobs=2
one psync_off_pct_old      dirs $F --rw=write --bs=4k --size=256k --name=y --stonewall --rw=read --size=128k --offset=25%
one psync_off_pct_old_bs   dirs $F --rw=write --bs=4k --size=200k --name=y --stonewall --bs=8k --rw=read --offset=10% --size=200k
one psync_read        dirs  $F --rw=read --bs=4k --size=256k
one psync_randwrite   dirs  $F --rw=randwrite --bs=4k --size=256k
one psync_offset      dirs  $F --rw=write --bs=4k --size=128k --offset=64k
one psync_filesize    dirs  $F --rw=read --filesize=128k --offset=32k
one psync_numjobs     dirs  $F --rw=read --bs=4k --size=64k --numjobs=2
one psync_size_pct    dirs  $F --rw=read --filesize=256k --size=50%
one psync_offinc      dirs  $F --rw=write --bs=4k --size=64k --numjobs=2 --offset_increment=64k
one psync_offinc_files dirs $N --ioengine=psync --rw=write --bs=4k --size=64k --numjobs=2 --offset_increment=64k
one psync_extend      dirs  $F --rw=write --bs=4k --size=64k --name=y --stonewall --rw=read --offset=128k --size=64k
one psync_nrfiles     dirs  $N --ioengine=psync --rw=write --bs=4k --size=256k --nrfiles=3
one posixaio_randwrite dirs $F --ioengine=posixaio --iodepth=8 --rw=randwrite --bs=4k --size=1m
one posixaio_verify   dirs  $F --ioengine=posixaio --iodepth=4 --rw=write --bs=8k --size=512k --verify=crc32c
one expverify_write   dirs  $F --rw=write --bs=4k --size=128k --verify=md5 --experimental_verify=1
# fio's flow: b (weight 4) may issue 4 of every 5 I/Os of flow 3, a (weight
# 1) counts from the start but waits 2 s: b stops after 5 and runs out its
# 1 s; then a alone
one flow_held         dirs  --ioengine=null --flow_id=3 --name=a --flow=1 --startdelay=2 --size=64k --name=b --flow=4 --time_based --runtime=1 --size=1m
one lfsr_norandommap  dirs  $N --rw=randread --filesize=1m --norandommap --random_generator=lfsr

# distinct offsets (fio's per-I/O bandwidth log with log_offset): lfsr visits
# every block once per pass even with norandommap, as fio's does
offsets() {
    local name=$1 bin=$2
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$bin" --name=x --ioengine=null --rw=randread --filesize=1m --norandommap \
        --random_generator=lfsr --write_bw_log=o --log_offset=1 --per_job_logs=0 --output-format=json \
        >/dev/null 2>"$WORK/$name.err" && cut -d, -f5 o_bw.log | sort -u | wc -l)
}
a=$(offsets lfsr_fio "$FIO")
b=$(offsets lfsr_sb "$SB")
if [ -n "$a" ] && [ "$a" = "$b" ]; then pass lfsr-offsets; else fail lfsr-offsets "fio $a distinct offsets, ssdbench $b"; fi

# write_iolog: the same lines as fio's (fio's version 3 iolog) but for the
# times, in any order (clones append to one file as they finish); random
# jobs too (fio_randseq.sh compares the order of many more)
iolog() {
    local bin=$1
    shift
    rm -rf "$WORK/run" && mkdir -p "$WORK/run"
    (cd "$WORK/run" && timeout 60 "$bin" --write_iolog=io.log --output-format=json "$@" >/dev/null 2>&1 &&
        awk 'NR == 1 {print; next} {$1 = ""; print}' io.log | sort | sha256sum)
}
for args in "--name=x --ioengine=null --rw=read:512k --bs=1m --size=16m" \
            "--name=x --ioengine=psync --filename=f --rw=write --bs=4k --size=64k --numjobs=2" \
            "--name=x --ioengine=null --rw=randrw --bs=4k,16k --size=4m"; do
    # shellcheck disable=SC2086
    a=$(iolog "$FIO" $args)
    # shellcheck disable=SC2086
    b=$(iolog "$SB" $args)
    n="write_iolog:${args// /_}"
    if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "$n"; else fail "$n" "fio's and ssdbench's iologs differ"; fi
done
