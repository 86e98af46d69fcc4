#!/bin/bash
# fio_opts.sh - fio job-file options checked by their counts, side by side
# with fio 3.33 (missing, a failure) and against the kernel's counters of a
# loop device: number_ios (exact, times loops, flushes not counted),
# fill_device on a device (every byte to the end) and on a small file system
# (up to ENOSPC, no error; continue_on_error/ignore_error let the writes go
# on; error_dump's lines for those errors as fio's), wait_for, exitall.
source "$(dirname "$0")/lib.sh"

HAVE_FIO=0
need_tool fio fio && HAVE_FIO=1

# sb NAME JOBFILE [ARGS]: ssdbench's fio JSON in $WORK/NAME.sb.json
sb() {
    local name=$1 jf=$2
    shift 2
    (cd "$WORK" && "$SSDBENCH" run -q --output-format=json "$@" "$jf" >"$name.sb.json" 2>"$name.sb.err")
}
# fi NAME JOBFILE: fio's JSON in $WORK/NAME.fio.json
fi_run() {
    local name=$1 jf=$2
    (cd "$WORK" && timeout 60 fio --output-format=json "$jf" >"$name.fio.json" 2>"$name.fio.err")
}
# ios FILE JOB DIR: total_ios of that job (by name) and direction
ios() { json_get "$1" "sum(j['$3']['total_ios'] for j in d['jobs'] if j['jobname'] == '$2')"; }
bytes() { json_get "$1" "sum(j['$3']['io_bytes'] for j in d['jobs'] if j['jobname'] == '$2')"; }
# sectors the kernel wrote to a device (field 7 of its stat)
wsect() { awk '{print $7}' "/sys/class/block/$(basename "$(readlink -f "$1")")/stat"; }
errs() { json_get "$1" "sum(j.get('total_err', j.get('error', 0)) for j in d['jobs'] if j['jobname'] == '$2')"; }

dev=$(make_loop 64) || dev=
if [ -z "$dev" ]; then
    skip loop "no loop device (needs root)"
else
    # --- number_ios: exact, per clone, times loops; flushes do not count
    cat >"$WORK/nios.fio" <<EOF2
[global]
filename=$dev
direct=1
ioengine=psync
bs=4k
size=8m
[rr]
rw=randread
number_ios=37
[loops]
stonewall
rw=read
number_ios=10
loops=3
[mixed]
stonewall
rw=randrw
fsync=4
number_ios=50
EOF2
    read -r r0 w0 < <(disk_ios "$dev")
    f0=$(disk_flushes "$dev")
    if sb nios "$WORK/nios.fio" --destroy "$dev"; then
        read -r r1 w1 < <(disk_ios "$dev")
        f1=$(disk_flushes "$dev")
        check number_ios_exact test "$(ios "$WORK/nios.sb.json" rr read)" -eq 37
        check number_ios_times_loops test "$(ios "$WORK/nios.sb.json" loops read)" -eq 30
        m=$(( $(ios "$WORK/nios.sb.json" mixed read) + $(ios "$WORK/nios.sb.json" mixed write) ))
        check number_ios_without_flushes test "$m" -eq 50
        mw=$(ios "$WORK/nios.sb.json" mixed write)
        check number_ios_kernel_reads test $((r1 - r0)) -eq $((37 + 30 + 50 - mw))
        # the loop device counts each flush (fsync=4: one per 4 writes) as a write too;
        # as in fio the fsync is issued before the I/O after the 4th write, so a job
        # whose last I/O is the 4th write of a group ends without that one
        if [ -n "$f1" ]; then
            check number_ios_kernel_flushes test $((f1 - f0)) -eq $((mw / 4)) -o $((f1 - f0)) -eq $(((mw - 1) / 4))
            check number_ios_kernel_writes test $((w1 - w0)) -eq $((mw + f1 - f0))
        fi
        if [ $HAVE_FIO -eq 1 ] && fi_run nios "$WORK/nios.fio"; then
            for j in rr loops; do
                check "number_ios_as_fio_$j" test "$(ios "$WORK/nios.fio.json" $j read)" -eq \
                    "$(ios "$WORK/nios.sb.json" $j read)"
            done
            fm=$(( $(ios "$WORK/nios.fio.json" mixed read) + $(ios "$WORK/nios.fio.json" mixed write) ))
            check number_ios_as_fio_mixed test "$fm" -eq "$m"
        fi
    else
        fail number_ios "$(head -3 "$WORK/nios.sb.err")"
    fi

    # --- fill_device on a device: every block from offset to the end
    cat >"$WORK/filldev.fio" <<EOF2
[fill]
filename=$dev
direct=1
ioengine=psync
rw=write
bs=1m
offset=8m
fill_device=1
EOF2
    s0=$(wsect "$dev")
    if sb filldev "$WORK/filldev.fio" --destroy "$dev"; then
        s1=$(wsect "$dev")
        check fill_device_bytes test "$(bytes "$WORK/filldev.sb.json" fill write)" -eq $((56 << 20))
        check fill_device_kernel_bytes test $(((s1 - s0) * 512)) -eq $((56 << 20))
        if [ $HAVE_FIO -eq 1 ] && fi_run filldev "$WORK/filldev.fio"; then
            check fill_device_as_fio test "$(bytes "$WORK/filldev.fio.json" fill write)" -eq \
                "$(bytes "$WORK/filldev.sb.json" fill write)"
        fi
    else
        fail fill_device "$(head -3 "$WORK/filldev.sb.err")"
    fi
fi

# --- fill_device / fill_fs on a file: writes until the file system is full
fsdir() {
    local d="$WORK/fs.$1"
    mkdir -p "$d" && mount -t tmpfs -o size=8m tmpfs "$d" && track mount "$d" && echo "$d"
}
if is_root; then
    mk_fill() {
        cat >"$1" <<EOF2
[fill]
filename=$2/data
ioengine=psync
rw=write
bs=64k
fill_fs=1
$3
EOF2
    }
    d1=$(fsdir sb) && mk_fill "$WORK/fillfs.fio" "$d1" ""
    if [ -n "$d1" ] && sb fillfs "$WORK/fillfs.fio"; then
        b=$(bytes "$WORK/fillfs.sb.json" fill write)
        check fill_fs_fills test "$b" -ge $((7 << 20)) -a "$b" -le $((8 << 20))
        check fill_fs_no_error test "$(errs "$WORK/fillfs.sb.json" fill)" -eq 0
        check fill_fs_file_size test "$(stat -c %s "$d1/data")" -eq "$b"
        if [ $HAVE_FIO -eq 1 ]; then
            d2=$(fsdir fio) && mk_fill "$WORK/fillfs2.fio" "$d2" ""
            if [ -n "$d2" ] && fi_run fillfs "$WORK/fillfs2.fio"; then
                check fill_fs_as_fio test "$(bytes "$WORK/fillfs.fio.json" fill write)" -eq "$b"
            else
                fail fill_fs_as_fio "$(head -3 "$WORK/fillfs.fio.err")"
            fi
        fi
        # continue_on_error with ENOSPC in the list: the job goes on to the
        # end of its region, every write after the full point an error
        d3=$(fsdir cont) && mk_fill "$WORK/fillcont.fio" "$d3" "size=12m
continue_on_error=write
ignore_error=,ENOSPC"
        sb fillcont "$WORK/fillcont.fio"
        rc=$?
        c=$(bytes "$WORK/fillcont.sb.json" fill write)
        n=$(ios "$WORK/fillcont.sb.json" fill write)
        check continue_on_error_same_bytes test "$c" -eq "$b"
        # 12 MiB / 64 KiB = 192 writes issued, those past the full point
        # failed (counted as errors: the exit status says so)
        check continue_on_error_went_on test "$rc" -eq 1 -a "$(grep -c 'write errors.*No space left' "$WORK/fillcont.sb.err")" -gt 0
        # fio counts an I/O at its issue: the failed writes are in total_ios,
        # and total_err / first_error say how many continue_on_error let pass
        check continue_on_error_counts test "$n" -eq 192
        e=$(json_get "$WORK/fillcont.sb.json" "[(j['total_err'], j['first_error']) for j in d['jobs']]")
        check continue_on_error_total_err test "$e" = "[($((192 - (b >> 16))), 28)]"
        if [ $HAVE_FIO -eq 1 ]; then
            d7=$(fsdir contf) && mk_fill "$WORK/fillcontf.fio" "$d7" "size=12m
continue_on_error=write
ignore_error=,ENOSPC"
            fi_run fillcontf "$WORK/fillcontf.fio"
            cmpf() { json_get "$1" "[(j['write']['total_ios'], j['write']['io_bytes'], j['total_err'], j['first_error'], j['error']) for j in d['jobs']]"; }
            check continue_on_error_as_fio test "$(cmpf "$WORK/fillcont.sb.json")" = "$(cmpf "$WORK/fillcontf.fio.json")"
        fi
        # the same size without continue_on_error: ENOSPC ends the job, no error
        d4=$(fsdir stop) && mk_fill "$WORK/fillstop.fio" "$d4" "size=12m"
        check fill_size_beyond_space sb fillstop "$WORK/fillstop.fio"
        check fill_size_beyond_space_bytes test "$(bytes "$WORK/fillstop.sb.json" fill write)" -eq "$b"
        # error_dump=1: fio's "io_u error on file" line for every failed
        # write (those past the full point of the 8 MiB tmpfs), the same lines as
        # fio's; error_dump=0 (the default): none for these passed errors
        dumplines() { grep '^fio: io_u error' "$1" | sed "s|$2|FS|"; }
        for v in 1 0; do
            d5=$(fsdir dump$v) && mk_fill "$WORK/dump$v.fio" "$d5" "size=12m
continue_on_error=write
ignore_error=,ENOSPC
error_dump=$v"
            sb dump$v "$WORK/dump$v.fio"
            n=$(dumplines "$WORK/dump$v.sb.err" "$d5" | wc -l)
            # 12 MiB / 64 KiB = 192 writes issued, the failed ones those past
            # the full point (b bytes, as above)
            ok=$(($(bytes "$WORK/dump$v.sb.json" fill write) >> 16))
            check "error_dump_$v ($n lines, $ok done)" test "$n" -eq $((v ? 192 - ok : 0)) -a "$ok" -eq $((b >> 16))
            if [ $HAVE_FIO -eq 1 ]; then
                d6=$(fsdir dumpf$v) && mk_fill "$WORK/dumpf$v.fio" "$d6" "size=12m
continue_on_error=write
ignore_error=,ENOSPC
error_dump=$v"
                fi_run dumpf$v "$WORK/dumpf$v.fio"
                check "error_dump_${v}_as_fio" test "$(dumplines "$WORK/dump$v.sb.err" "$d5")" = \
                    "$(dumplines "$WORK/dumpf$v.fio.err" "$d6")"
            fi
        done
    else
        fail fill_fs "$(head -3 "$WORK/fillfs.sb.err" 2>/dev/null)"
    fi
else
    skip fill_fs "needs root for a tmpfs mount"
fi

# --- wait_for: b starts after a, both complete as in fio
F=$WORK/wf.data
cat >"$WORK/wf.fio" <<EOF2
[global]
filename=$F
ioengine=psync
bs=4k
size=1m
[a]
rw=write
[b]
wait_for=a
rw=randread
EOF2
if sb wf "$WORK/wf.fio"; then
    check wait_for_counts test "$(ios "$WORK/wf.sb.json" a write)" -eq 256 -a "$(ios "$WORK/wf.sb.json" b read)" -eq 256
    if [ $HAVE_FIO -eq 1 ] && fi_run wf "$WORK/wf.fio"; then
        check wait_for_as_fio test "$(ios "$WORK/wf.fio.json" b read)" -eq "$(ios "$WORK/wf.sb.json" b read)"
    fi
else
    fail wait_for "$(head -3 "$WORK/wf.sb.err")"
fi

# --- exitall: the short job's end stops the time-based one (60 s planned)
cat >"$WORK/exitall.fio" <<EOF2
[global]
filename=$F
ioengine=psync
bs=4k
[short]
rw=read
size=256k
exitall
[long]
rw=randread
size=1m
time_based
runtime=60
EOF2
(cd "$WORK" && timeout 30 "$SSDBENCH" run -q --output-format=json "$WORK/exitall.fio" >exitall.sb.json 2>exitall.err)
rc=$?
check exitall_stops_group test "$rc" -eq 0
check exitall_short_complete test "$(ios "$WORK/exitall.sb.json" short read)" -eq 64

# --- unified_rw_reporting: fio's "mixed" object, alone (mixed) or besides
# read/write/trim (both), with the sum of both directions
for mode in mixed both; do
    G=$WORK/u.$mode.data
    cat >"$WORK/u.$mode.fio" <<EOF2
[u]
filename=$G
ioengine=psync
bs=4k
size=1m
rw=randrw
unified_rw_reporting=$mode
EOF2
    if sb "u.$mode" "$WORK/u.$mode.fio"; then
        keys=$(json_get "$WORK/u.$mode.sb.json" "' '.join(k for k in d['jobs'][0] if k in ('read', 'write', 'trim', 'mixed'))")
        want="mixed"
        [ $mode = both ] && want="read write trim mixed"
        check "unified_${mode}_objects" test "$keys" = "$want"
        check "unified_${mode}_sum" test "$(json_get "$WORK/u.$mode.sb.json" "d['jobs'][0]['mixed']['total_ios']")" -eq 256
        if [ $HAVE_FIO -eq 1 ] && (cd "$WORK" && fio --output-format=json --filename="$G.fio" "u.$mode.fio" >"u.$mode.fio.json" 2>/dev/null); then
            fk=$(json_get "$WORK/u.$mode.fio.json" "' '.join(sorted(d['jobs'][0]['mixed']))")
            sk=$(json_get "$WORK/u.$mode.sb.json" "' '.join(sorted(d['jobs'][0]['mixed']))")
            check "unified_${mode}_keys_as_fio" test "$fk" = "$sk"
        fi
    else
        fail "unified_$mode" "$(head -2 "$WORK/u.$mode.sb.err")"
    fi
done

# --- thinktime: one pause per thinktime_blocks I/Os, counted by the result
# (psync: completed = issued; libaio with blocks_type=issue), I/O counts as fio
T=$WORK/tt.data
cat >"$WORK/tt.fio" <<EOF2
[global]
filename=$T
bs=4k
size=1m
[psync16]
ioengine=psync
rw=randread
thinktime=20
thinktime_blocks=16
[aio-issue]
stonewall
ioengine=libaio
iodepth=8
rw=randwrite
thinktime=10us
thinktime_spin=5
thinktime_blocks=4
thinktime_blocks_type=issue
EOF2
if sb tt "$WORK/tt.fio" --result "$WORK/tt.result"; then
    pauses() { json_get "$WORK/tt.result" "[j.get('think_pauses') for p in d['phases'] for j in p['jobs'] if j['name'] == '$1'][0]"; }
    check thinktime_pauses_psync test "$(pauses psync16)" -eq 16
    check thinktime_pauses_issue test "$(pauses aio-issue)" -eq 64
    check thinktime_ios test "$(ios "$WORK/tt.sb.json" psync16 read)" -eq 256 -a "$(ios "$WORK/tt.sb.json" aio-issue write)" -eq 256
    # fio 3.33 was seen not to finish the libaio thinktime job: fio runs the psync one
    sed '/^\[aio-issue\]/,$d' "$WORK/tt.fio" >"$WORK/tt1.fio"
    if [ $HAVE_FIO -eq 1 ] && fi_run tt "$WORK/tt1.fio"; then
        check thinktime_as_fio test "$(ios "$WORK/tt.fio.json" psync16 read)" -eq "$(ios "$WORK/tt.sb.json" psync16 read)"
    fi
else
    fail thinktime "$(head -2 "$WORK/tt.sb.err")"
fi

# --- rate_process=poisson: a paced, size-bounded job issues its I/Os as fio
cat >"$WORK/poisson.fio" <<EOF2
[poisson]
filename=$T
ioengine=psync
bs=4k
size=256k
rw=randread
rate_iops=4000
rate_process=poisson
randseed=11
EOF2
if sb poisson "$WORK/poisson.fio"; then
    check poisson_ios test "$(ios "$WORK/poisson.sb.json" poisson read)" -eq 64
    if [ $HAVE_FIO -eq 1 ] && fi_run poisson "$WORK/poisson.fio"; then
        check poisson_as_fio test "$(ios "$WORK/poisson.fio.json" poisson read)" -eq 64
    fi
else
    fail poisson "$(head -2 "$WORK/poisson.sb.err")"
fi
