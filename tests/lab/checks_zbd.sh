# checks_zbd.sh - zonemode=zbd on the lab's zoned namespace, side by side
# with fio 3.33 (sourced by checks.sh, after the zones were purged; uses its
# helpers). The same job files (tests/fio-jobs/zbd-*.fio, the device name
# replaced) run with ssdbench and with fio from all-empty zones; compared:
# the zone report (blkzone: write pointer and state of every zone), the
# I/O counts ("issued rwts") and the zone resets (the write line) of fio's
# text output, which ssdbench writes too.
#   sequential write of 2 zones, then of the first again (which resets it);
#   sequential read with read_beyond_wp=0 from the 2nd zone (only its data);
#   random writes over all 8 zones (4 open at most, 12 MiB): the offsets are
#   random, so only the totals compare, and for each tool the bytes add up:
#   data in the zones + resets x capacity = writes x bs;
#   jobs sharing the zones (fio shares a device's write pointers between
#   its jobs): numjobs=3 at iodepth 4 writing one zone twice over (each
#   write at the shared write pointer, one reset), and numjobs=2 random
#   writes over all zones (the open zone limit shared: totals, bytes add up);
#   verify=crc32c on zbd (written blocks read back where they landed);
#   fio's examples/uring-cmd-zoned.fio on the namespace's generic device
#   /dev/ng0n2 (io_uring_cmd, verify, its later jobs rewriting full zones).
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

# run 1: write zones 0-1, write zone 0 again, read from zone 1 on
{
    zjob zbd-seq-write -e 's/^size=.*/size=2z/'
    zjob zbd-seq-write -e 's/^size=.*/size=1z/'
    zjob zbd-seq-read
} >zseq.fio
# run 2: random writes over all 8 zones
zjob zbd-rand-write -e '/^time_based/d' -e 's/^runtime=.*/size=8z\nio_size=12m/' >zrand.fio
for tool in ssdbench fio; do
    $T blkzone reset "$LAB_ZNS"
    zrun $tool zseq.fio ${tool}_seq.txt
    zreport >${tool}_z1.txt
    zrun $tool zrand.fio ${tool}_rand.txt
    zreport >${tool}_z2.txt
done
figures ssdbench seq; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio seq; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_seq_write_ios test "${S_I[0]}" = "0 48"
check zbd_seq_write_no_reset test "${S_R[0]}/${F_R[0]}" = 0/0
check zbd_rewrite_ios test "${S_I[1]}" = "0 24"
check zbd_rewrite_1_reset test "${S_R[1]}/${F_R[1]}" = 1/1
check zbd_seq_read_only_data test "${S_I[2]}" = "24 0"
check zbd_seq_ios_as_fio test "${S_I[*]}" = "${F_I[*]}" -a "${#S_I[@]}" = 3
check zbd_seq_2_full test "$(grep -c '(fu)' ssdbench_z1.txt)/$(grep -c '(em)' ssdbench_z1.txt)" = 2/6
check zbd_seq_zones_as_fio cmp -s ssdbench_z1.txt fio_z1.txt
seqline="seq write ${S_I[0]} (resets ${S_R[0]}), again ${S_I[1]} (resets ${S_R[1]}), seq read ${S_I[2]}"
fseqline="seq write ${F_I[0]} (resets ${F_R[0]}), again ${F_I[1]} (resets ${F_R[1]}), seq read ${F_I[2]}"
figures ssdbench rand; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio rand; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_rand_write_ios test "${S_I[0]}" = "0 48"
check zbd_rand_write_ios_as_fio test "${S_I[0]}" = "${F_I[0]}"
# the 12 MiB of run 1 plus the writes, less what the resets emptied
sb=$(wp_bytes ssdbench_z2.txt)
fb=$(wp_bytes fio_z2.txt)
check zbd_rand_write_bytes_add_up_ssdbench test "$((sb + ${S_R[0]:-0} * ZCAP))" = "$((2 * ZCAP + ${S_I[0]#* } * 262144))"
check zbd_rand_write_bytes_add_up_fio test "$((fb + ${F_R[0]:-0} * ZCAP))" = "$((2 * ZCAP + ${F_I[0]#* } * 262144))"
echo "# zbd ssdbench: $seqline, rand write ${S_I[0]} (resets ${S_R[0]}), zone bytes after it $sb"
echo "# zbd fio:      $fseqline, rand write ${F_I[0]} (resets ${F_R[0]}), zone bytes after it $fb"

# run 3: three clones on zone 2 (the zone set shared), then a verified
# sequential write of zones 0-1
cat >zshared.fio <<JOB
[global]
filename=$LAB_ZNS
direct=1
zonemode=zbd
zonesize=8M
bs=256k
group_reporting=1
[clones]
ioengine=io_uring
iodepth=4
rw=randwrite
offset=2z
size=1z
io_size=4m
numjobs=3
[verified]
stonewall
rw=write
size=2z
verify=crc32c
JOB
# run 4: two clones writing at random over all zones
cat >zshared2.fio <<JOB
[global]
filename=$LAB_ZNS
direct=1
zonemode=zbd
zonesize=8M
bs=256k
group_reporting=1
[rclones]
rw=randwrite
size=8z
io_size=6m
numjobs=2
JOB
# run 5: fio's examples/uring-cmd-zoned.fio, its size cut to 2 zones
sed -e "s|^filename=.*|filename=$LAB_ZNS_NG|" -e 's/^size=.*/size=2z\nzonesize=8M/' \
    "$ZJ/uring-cmd-zoned.fio" >zucmd.fio
for tool in ssdbench fio; do
    for r in zshared zshared2 zucmd; do
        $T blkzone reset "$LAB_ZNS"
        zrun $tool $r.fio ${tool}_$r.txt
        zreport >${tool}_$r.zones
    done
done
figures ssdbench zshared; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio zshared; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_clones_ios test "${S_I[0]}" = "0 48"
check zbd_clones_1_reset test "${S_R[0]}/${F_R[0]}" = 1/1
check zbd_verify_ios test "${S_I[1]}" = "48 48"
check zbd_verify_no_reset test "${S_R[1]}/${F_R[1]}" = 0/0
check zbd_shared_exit0 test "$(<ssdbench_zshared.txt.rc)/$(<fio_zshared.txt.rc)" = 0/0
check zbd_shared_ios_as_fio test "${S_I[*]}" = "${F_I[*]}" -a "${#S_I[@]}" = 2
check zbd_shared_3_full test "$(grep -c '(fu)' ssdbench_zshared.zones)/$(grep -c '(em)' ssdbench_zshared.zones)" = 3/5
check zbd_shared_zones_as_fio cmp -s ssdbench_zshared.zones fio_zshared.zones
shline="clones ${S_I[0]} (resets ${S_R[0]}), verified ${S_I[1]} (resets ${S_R[1]})"
fshline="clones ${F_I[0]} (resets ${F_R[0]}), verified ${F_I[1]} (resets ${F_R[1]})"
figures ssdbench zshared2; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio zshared2; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check zbd_rclones_ios test "${S_I[0]}/${F_I[0]}" = "0 48/0 48"
sb=$(wp_bytes ssdbench_zshared2.zones)
fb=$(wp_bytes fio_zshared2.zones)
check zbd_rclones_bytes_add_up_ssdbench test "$((sb + ${S_R[0]:-0} * ZCAP))" = $((48 * 262144))
check zbd_rclones_bytes_add_up_fio test "$((fb + ${F_R[0]:-0} * ZCAP))" = $((48 * 262144))
# the set's limit: 4 open zones at most, whoever opened them
check zbd_rclones_open_limit test "$(grep -c '(oi)' ssdbench_zshared2.zones)" -le 4
shline="$shline, 2 random clones ${S_I[0]} (resets ${S_R[0]}, zone bytes $sb, $(grep -c '(oi)' ssdbench_zshared2.zones) open)"
fshline="$fshline, 2 random clones ${F_I[0]} (resets ${F_R[0]}, zone bytes $fb, $(grep -c '(oi)' fio_zshared2.zones) open)"
figures ssdbench zucmd; S_I=("${ISSUED[@]}"); S_R=("${RESETS[@]}")
figures fio zucmd; F_I=("${ISSUED[@]}"); F_R=("${RESETS[@]}")
check uring_cmd_zoned_exit0 test "$(<ssdbench_zucmd.txt.rc)/$(<fio_zucmd.txt.rc)" = 0/0
check uring_cmd_zoned_ios test "${S_I[*]}" = "48 48 48 48 48 48"
check uring_cmd_zoned_ios_as_fio test "${S_I[*]}" = "${F_I[*]}"
check uring_cmd_zoned_resets_as_fio test "${S_R[*]}" = "${F_R[*]}" -a "${#S_R[@]}" = 3
check uring_cmd_zoned_zones_as_fio cmp -s ssdbench_zucmd.zones fio_zucmd.zones
grep -i 'error\|refus' ssdbench_zucmd.txt | head -3 | sed 's/^/# zucmd: /'
echo "# zbd shared ssdbench: $shline; uring-cmd-zoned ${S_I[*]} (resets ${S_R[*]})"
echo "# zbd shared fio:      $fshline; uring-cmd-zoned ${F_I[*]} (resets ${F_R[*]})"
section "zonemode=zbd done"
