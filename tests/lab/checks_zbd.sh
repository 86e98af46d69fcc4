# checks_zbd.sh - zonemode=zbd on the lab's zoned namespace, side by side
# with fio 3.33 (sourced by checks.sh, after the zones were purged; uses its
# helpers). The same job files (tests/fio-jobs/zbd-*.fio, the device name
# replaced) run with ssdbench and with fio from all-empty zones; compared:
# the zone report (blkzone: write pointer and state of every zone), the
# I/O counts ("issued rwts") and the zone resets (the write line) of fio's
# text output, which ssdbench writes too.
#   run 1: sequential write of 2 zones, then of the first again (which
#   resets it); sequential read with read_beyond_wp=0 from the 2nd zone
#   (only its data); three clones (numjobs=3, iodepth 4) writing zone 2
#   twice over: fio shares a device's write pointers between its jobs, so
#   each write goes at the one write pointer, with one reset; a verified
#   (crc32c) sequential write of zones 0-1, which resets them first;
#   run 2: random writes over all 8 zones (4 open at most, 12 MiB), then two
#   clones writing at random (the open zone limit shared): the offsets are
#   random, so only the totals compare, and for each tool the bytes add up
#   (data in the zones + resets x capacity = before + writes x bs);
#   run 3: fio's examples/uring-cmd-zoned.fio on the namespace's generic
#   device /dev/ng0n2 (io_uring_cmd, verify; its later jobs find the zones
#   full and reset them first).
# The sizes are cut down from the job files' so that the emulation is quick.
section "zonemode=zbd"
ZJ=$LAB_TREE/tests/fio-jobs
ZCAP=6291456
# zjob NAME [SED...]: the job file for this device, each job after the ones
# before it (stonewall), so that several files make one run
zjob() {
    local n=$1
    shift
    sed -e "s|^filename=.*|filename=$LAB_ZNS|" -e 's/^\[dev1\]$/[dev1]\nstonewall/' "$@" "$ZJ/$n.fio"
}
# cjob NAME OPTION...: one more job (its own group: stonewall)
cjob() {
    printf '[%s]\nstonewall\nfilename=%s\n' "$1" "$LAB_ZNS"
    shift
    printf '%s\n' "$@"
}
# zrun TOOL JOBFILE OUT: fio's text output of the job file (its exit
# status in OUT.rc)
zrun() {
    if [ "$1" = fio ]; then
        $T fio --output-format=normal "$2" >"$3" 2>&1
    else
        $T "$S" run --format fio-normal --destroy "$LAB_ZNS" "$2" >"$3" 2>&1
    fi
    echo $? >"$3.rc"
}
# figures TOOL RUN: into ISSUED ("reads writes" per job, in order) and
# RESETS (the zone resets on each write line) of ${TOOL}_${RUN}.txt, with one
# sed each (a process start is slow under emulation)
figures() {
    mapfile -t ISSUED < <(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' "$1_$2.txt")
    mapfile -t RESETS < <(sed -n 's/.*; \([0-9]*\) zone resets$/\1/p' "$1_$2.txt")
}
# the zone report without the (emulation's) reset recommendation flags
zreport() { $T blkzone report "$LAB_ZNS" | sed 's/reset:[0-9]* non-seq:[0-9]*, //'; }
# bytes written in all zones (blkzone: wptr relative to the zone's start,
# in 512 B sectors; a full zone's is its length, its data its capacity)
wp_bytes() {
    local t=0 line w
    while read -r line; do
        w=${line##*wptr 0x}
        w=${w%% *}
        case $line in *"(fu)"*) t=$((t + ZCAP)) ;; *) t=$((t + 16#$w * 512)) ;; esac
    done <"$1"
    echo $t
}

# run 1: zones 0-1 written, zone 0 again, read from zone 1 on; three
# clones on zone 2; a verified write of zones 0-1
{
    zjob zbd-seq-write -e 's/^size=.*/size=2z/'
    zjob zbd-seq-write -e 's/^size=.*/size=1z/'
    zjob zbd-seq-read
    cjob clones rw=randwrite offset=2z size=1z io_size=4m numjobs=3 ioengine=io_uring iodepth=4 group_reporting=1
    cjob verified rw=write offset=0 size=2z numjobs=1 ioengine=psync iodepth=1 verify=crc32c
} >zseq.fio
# run 2: random writes over all 8 zones, one job then two clones
{
    zjob zbd-rand-write -e '/^time_based/d' -e 's/^runtime=.*/size=8z\nio_size=12m/'
    cjob rclones rw=randwrite offset=0 size=8z io_size=6m numjobs=2 ioengine=psync group_reporting=1
} >zrand.fio
# run 3: fio's examples/uring-cmd-zoned.fio, its size cut to 2 zones
sed -e "s|^filename=.*|filename=$LAB_ZNS_NG|" -e 's/^size=.*/size=2z\nzonesize=8M/' \
    "$ZJ/uring-cmd-zoned.fio" >zucmd.fio
for tool in ssdbench fio; do
    $T blkzone reset "$LAB_ZNS"
    zrun $tool zseq.fio ${tool}_seq.txt
    zreport >${tool}_z1.txt
    zrun $tool zrand.fio ${tool}_rand.txt
    zreport >${tool}_z2.txt
    $T blkzone reset "$LAB_ZNS"
    zrun $tool zucmd.fio ${tool}_zucmd.txt
    zreport >${tool}_z3.txt
done
figures ssdbench seq; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio seq; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_seq_exit0 test "$(<ssdbench_seq.txt.rc)/$(<fio_seq.txt.rc)" = 0/0
check zbd_seq_write_ios test "${S_I[0]}" = "0 48"
check zbd_seq_write_no_reset test "${S_R[0]}/${F_R[0]}" = 0/0
check zbd_rewrite_ios test "${S_I[1]}" = "0 24"
check zbd_rewrite_1_reset test "${S_R[1]}/${F_R[1]}" = 1/1
check zbd_seq_read_only_data test "${S_I[2]}" = "24 0"
check zbd_clones_ios test "${S_I[3]}" = "0 48"
check zbd_clones_1_reset test "${S_R[2]}/${F_R[2]}" = 1/1
check zbd_verify_ios test "${S_I[4]}" = "48 48"
check zbd_verify_resets_its_zones_first test "${S_R[3]}/${F_R[3]}" = 2/2
check zbd_seq_resets_as_fio test "${S_R[*]}" = "${F_R[*]}" -a "${#S_R[@]}" = 4
check zbd_seq_ios_as_fio test "${S_I[*]}" = "${F_I[*]}" -a "${#S_I[@]}" = 5
check zbd_seq_3_full test "$(grep -c '(fu)' ssdbench_z1.txt)/$(grep -c '(em)' ssdbench_z1.txt)" = 3/5
check zbd_seq_zones_as_fio cmp -s ssdbench_z1.txt fio_z1.txt
seqline="seq write ${S_I[0]} (resets ${S_R[0]}), again ${S_I[1]} (resets ${S_R[1]}), seq read ${S_I[2]}, 3 clones ${S_I[3]} (resets ${S_R[2]}), verified ${S_I[4]} (resets ${S_R[3]})"
fseqline="seq write ${F_I[0]} (resets ${F_R[0]}), again ${F_I[1]} (resets ${F_R[1]}), seq read ${F_I[2]}, 3 clones ${F_I[3]} (resets ${F_R[2]}), verified ${F_I[4]} (resets ${F_R[3]})"
figures ssdbench rand; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio rand; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_rand_write_ios test "${S_I[0]}" = "0 48"
check zbd_rclones_ios test "${S_I[1]}" = "0 48"
check zbd_rand_write_ios_as_fio test "${S_I[*]}" = "${F_I[*]}" -a "${#S_I[@]}" = 2
# the 3 full zones of run 1 plus the writes, less what the resets emptied
sb=$(wp_bytes ssdbench_z2.txt)
fb=$(wp_bytes fio_z2.txt)
check zbd_rand_write_bytes_add_up_ssdbench test "$((sb + (${S_R[0]:-0} + ${S_R[1]:-0}) * ZCAP))" = "$((3 * ZCAP + 96 * 262144))"
check zbd_rand_write_bytes_add_up_fio test "$((fb + (${F_R[0]:-0} + ${F_R[1]:-0}) * ZCAP))" = "$((3 * ZCAP + 96 * 262144))"
# the zone set's limit, whoever opened the zones: 4 open at most
check zbd_rand_open_limit test "$(grep -c '(oi)' ssdbench_z2.txt)" -le 4
randline="rand write ${S_I[0]} (resets ${S_R[0]}), 2 clones ${S_I[1]} (resets ${S_R[1]}), zone bytes after them $sb, $(grep -c '(oi)' ssdbench_z2.txt) open"
frandline="rand write ${F_I[0]} (resets ${F_R[0]}), 2 clones ${F_I[1]} (resets ${F_R[1]}), zone bytes after them $fb, $(grep -c '(oi)' fio_z2.txt) open"
figures ssdbench zucmd; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio zucmd; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check uring_cmd_zoned_exit0 test "$(<ssdbench_zucmd.txt.rc)/$(<fio_zucmd.txt.rc)" = 0/0
check uring_cmd_zoned_ios test "${S_I[*]}" = "48 48 48 48 48 48"
check uring_cmd_zoned_ios_as_fio test "${S_I[*]}" = "${F_I[*]}"
check uring_cmd_zoned_resets_as_fio test "${S_R[*]}" = "${F_R[*]}" -a "${#S_R[@]}" = 3
check uring_cmd_zoned_zones_as_fio cmp -s ssdbench_z3.txt fio_z3.txt
grep -i 'error\|refus' ssdbench_zucmd.txt | head -3 | sed 's/^/# zucmd: /'
echo "# zbd ssdbench: $seqline; $randline; uring-cmd-zoned ${S_I[*]} (resets ${S_R[*]})"
echo "# zbd fio:      $fseqline; $frandline; uring-cmd-zoned ${F_I[*]} (resets ${F_R[*]})"
section "zonemode=zbd done"
