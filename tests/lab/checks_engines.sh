# checks_engines.sh - the passthrough engines on the lab's devices, run as
# root inside the guest that tests/lab/lab.sh boots
# (tests/integration/devlab.sh; sourced by checks.sh):
#   ioengine=io_uring_cmd on the NVMe namespace's generic device /dev/ng0n1:
#   reads and writes equal to the SMART log's host command deltas, with
#   fixedbufs/registerfiles/sqthread_poll and the vectored form, and with
#   hipri (polled completions on the controller's poll queue); none of
#   them through the block layer (/sys/block/nvme0n1/stat unchanged);
#   verify=crc32c written and checked through it, and a block changed
#   behind its back found; the guard judging /dev/ng0n1 as /dev/nvme0n1
#   (ext4 signature refused, then mounted refused even with consent); trims
#   as NVMe Dataset Management through it (the blocks read back as zeros);
#   ioengine=sg on the SCSI disk's /dev/sgN and on /dev/sdX: the commands
#   counted by the SCSI device itself (iorequest_cnt), the bytes written read
#   back through the block device (sha256), verify=crc32c, and each
#   sg_write_mode the emulated disk takes (WRITE SAME, with NDOB, VERIFY).
# Output: PASS/FAIL/SKIP lines (lib.sh); its helpers are helpers.sh's.
NG=$LAB_NVME_NG
NV=$LAB_NVME
SD=$LAB_SCSI
SG=/dev/$(ls /sys/block/"${SD##*/}"/device/scsi_generic/ 2>/dev/null | head -1)
# the block layer's completed reads and writes of a disk (fields 1 and 5)
bstat() { local r a b c d e; read -r r a b c d e </sys/block/${1##*/}/stat; echo $((r + d)); }
# commands the SCSI midlayer sent to the device (every command, SG_IO too)
scsi_cmds() { local n; read -r n </sys/block/${SD##*/}/device/iorequest_cnt; echo $((n)); }

# ---- io_uring_cmd: counts against the SMART log -----------------------------
section "io_uring_cmd counts"
check ng_is_char test -c "$NG"
smart_now; r0=$SMART_R w0=$SMART_W b0=$(bstat "$NV")
$T "$S" run -q --result uc.json --ioengine=io_uring_cmd --cmd_type=nvme --destroy "$NV" \
    --name=w --filename="$NG" --rw=randwrite --bs=4k --size=1m --iodepth=8 --fixedbufs=1 \
    --registerfiles=1 --sqthread_poll=1 \
    --name=r --stonewall --filename="$NG" --rw=randread --bs=8k --size=512k --iodepth=4 --nonvectored=0 \
    >uc.out 2>&1
check uc_exit0 test $? -eq 0
flatten uc.json
smart_now; r1=$SMART_R w1=$SMART_W b1=$(bstat "$NV")
uw=$(jv uc.json phases.0.results.0.write.ios) ur=$(jv uc.json phases.1.results.0.read.ios)
echo "# io_uring_cmd: writes $uw reads $ur; SMART log: host writes +$((w1 - w0)), reads +$((r1 - r0)); block layer +$((b1 - b0))"
check uc_writes_256 test "$uw" = 256
check uc_reads_64 test "$ur" = 64
check uc_writes_are_smart_writes test "$uw" = $((w1 - w0))
check uc_reads_are_smart_reads test "$ur" = $((r1 - r0))
check uc_not_through_block_layer test "$b1" = "$b0"
check uc_engine_recorded test "$(jv uc.json phases.0.jobs.0.params.engine)" = io_uring_cmd
# the target's size is the namespace's, read through its block device
check uc_target_size_is_namespace test "$(jv uc.json targets.0.size_bytes)" = "$(blockdev --getsize64 "$NV")"

# hipri: polled completions (IORING_SETUP_IOPOLL) on the controller's poll
# queue (the lab loads nvme with poll_queues=1); the counts as the device's
check uc_poll_queue test "$(</sys/block/${NV##*/}/queue/io_poll)" = 1
# the interrupts of the controller's I/O queues (/proc/interrupts nvme0q1..):
# a polled completion raises none, an interrupt-driven one does
io_irqs() { awk '$NF ~ /^nvme0q[1-9][0-9]*$/ { for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) n += $i } END { print n + 0 }' /proc/interrupts; }
smart_now; r0=$SMART_R w0=$SMART_W b0=$(bstat "$NV") p0=$(io_irqs)
$T "$S" run -q --result uch.json --ioengine=io_uring_cmd --hipri=1 --destroy "$NV" \
    --name=w --filename="$NG" --rw=randwrite --bs=4k --size=256k --iodepth=4 \
    --name=r --stonewall --filename="$NG" --rw=randread --bs=4k --size=128k --iodepth=4 >uch.out 2>&1
check uc_hipri_exit0 test $? -eq 0
flatten uch.json
p1=$(io_irqs); smart_now; r1=$SMART_R w1=$SMART_W b1=$(bstat "$NV")
check uc_hipri_writes_are_smart_writes test "$(jv uch.json phases.0.results.0.write.ios)/$((w1 - w0))" = 64/64
check uc_hipri_reads_are_smart_reads test "$(jv uch.json phases.1.results.0.read.ios)/$((r1 - r0))" = 32/32
check uc_hipri_not_through_block_layer test "$b1" = "$b0"
check uc_hipri_polled_no_io_interrupts test "$p1" = "$p0"
echo "# io_uring_cmd hipri: SMART log +$((w1 - w0)) writes +$((r1 - r0)) reads; I/O queue interrupts $p0 -> $p1"
sed 's/^/# uch: /' uch.out | head -3

# fio's uring-cmd-ng.fio, made small: the same options, 1 MiB per job
cat >ng.fio <<JOB
[global]
filename=$NG
ioengine=io_uring_cmd
cmd_type=nvme
size=1M
iodepth=32
bs=4K
thread=1
stonewall=1

[rand-write]
rw=randwrite
sqthread_poll=1

[rand-read]
rw=randread

[write-opts]
rw=write
sqthread_poll=1
sqthread_poll_cpu=0
nonvectored=1
registerfiles=1
JOB
smart_now; w0=$SMART_W r0=$SMART_R
$T "$S" run -q --result ngfio.json --destroy "$NV" ng.fio >ngfio.out 2>&1
check uring_cmd_ng_fio_runs test $? -eq 0
smart_now; w1=$SMART_W r1=$SMART_R
check uring_cmd_ng_fio_smart test $((w1 - w0)):$((r1 - r0)) = 512:256

# ---- io_uring_cmd: verify ----------------------------------------------------
section "io_uring_cmd verify"
$T "$S" run -q --result ucv.json --ioengine=io_uring_cmd --destroy "$NV" --name=v --filename="$NG" \
    --rw=randwrite --randseed=42 --bs=4k --size=256k --iodepth=4 --verify=crc32c --do_verify=1 >ucv.out 2>&1
check uc_verify_exit0 test $? -eq 0
flatten ucv.json
check uc_verify_checked_64 test "$(jv ucv.json phases.0.jobs.0.verify.blocks_checked)" = 64
check uc_verify_no_bad test "$(jv ucv.json phases.0.jobs.0.verify.bad_blocks)" = 0
# one block changed through the block device: verify_only through ng finds it
dd if=/dev/urandom of="$NV" bs=4k seek=50 count=1 oflag=direct conv=notrunc status=none
$T "$S" run -q --result ucv2.json --ioengine=io_uring_cmd --name=v --filename="$NG" \
    --rw=randwrite --randseed=42 --bs=4k --size=256k --iodepth=4 --verify=crc32c --verify_only=1 >ucv2.out 2>&1
check uc_verify_finds_changed_block test $? -ne 0
flatten ucv2.json
check uc_verify_one_bad test "$(jv ucv2.json phases.0.jobs.0.verify.bad_blocks)" = 1
check uc_verify_bad_offset test "$(jv ucv2.json phases.0.jobs.0.verify.first_bad.offset)" = 204800

# ---- io_uring_cmd: trims (NVMe Dataset Management, deallocate) --------------
section "io_uring_cmd trim"
# 1 MiB of 0x5a written through ng0n1, then its middle 512 KiB trimmed
# through it: those blocks read back as zeros through the block device (the
# namespace deallocated them), the rest unchanged; the block layer saw
# neither (its read, write and discard counts of nvme0n1 unchanged)
# discards completed by the block layer (field 12 of the disk's stat)
dstat() { local a; read -r -a a </sys/block/${1##*/}/stat; echo "${a[11]:-0}"; }
b0=$(bstat "$NV") d0=$(dstat "$NV")
$T "$S" run -q --result uct.json --ioengine=io_uring_cmd --destroy "$NV" --name=w --filename="$NG" \
    --rw=write --bs=64k --size=1m --buffer_pattern=0x5a --scramble_buffers=0 \
    --name=t --stonewall --filename="$NG" --rw=trim --offset=256k --size=512k --bs=64k >uct.out 2>&1
check uc_trim_exit0 test $? -eq 0
flatten uct.json
b1=$(bstat "$NV") d1=$(dstat "$NV")
check uc_trims_8 test "$(jv uct.json phases.1.results.0.trim.ios)" = 8
check uc_trim_bytes test "$(jv uct.json phases.1.results.0.trim.bytes)" = 524288
check uc_trimmed_reads_zeros test "$(sum_of "$NV" 512 1024)" = "$(pattern_sum 00 524288)"
check uc_untrimmed_kept test "$(sum_of "$NV" 0 512)$(sum_of "$NV" 1536 512)" = "$(pattern_sum 5a 262144)$(pattern_sum 5a 262144)"
check uc_trim_not_through_block_layer test "$b1/$d1" = "$b0/$d0"
echo "# io_uring_cmd trim: $(jv uct.json phases.1.results.0.trim.ios) trims; block layer +$((b1 - b0)) I/Os +$((d1 - d0)) discards"

# ---- the guard: /dev/ng0n1 judged as /dev/nvme0n1 ------------------------------
section "guard"
$T mkfs.ext4 -q -F -E nodiscard "$NV" 16M >/dev/null 2>&1
before=$(sum_of "$NV" 0 2048)
$T "$S" run -q --ioengine=io_uring_cmd --name=g --filename="$NG" --rw=write --bs=4k --size=64k >guard1.out 2>&1
check guard_ng_ext4_refused test $? -ne 0
check guard_ng_names_ext4 grep -q "ext4" guard1.out
check guard_ng_names_block_device grep -q "$NV" guard1.out
check guard_ng_bytes_kept test "$(sum_of "$NV" 0 2048)" = "$before"
mkdir -p /mnt/g && mount -t ext4 "$NV" /mnt/g
$T "$S" run -q --ioengine=io_uring_cmd --destroy "$NV" --name=g --filename="$NG" --rw=write --bs=4k --size=64k >guard2.out 2>&1
check guard_ng_mounted_refused_with_consent test $? -ne 0
check guard_ng_says_mounted grep -qi "mounted" guard2.out
umount /mnt/g
$T "$S" run -q --ioengine=io_uring_cmd --name=g --filename="$NV" --destroy "$NV" --rw=read --bs=4k --size=64k >guard3.out 2>&1
check uc_refuses_block_device grep -q "NVMe generic character device" guard3.out
$T "$S" run -q --ioengine=io_uring_cmd --name=g --filename="$SG" --rw=read --bs=4k --size=64k >guard4.out 2>&1
check uc_refuses_sg test $? -ne 0
cat guard1.out guard2.out guard3.out guard4.out | sed 's/^/# /'

# ---- sg: counts, bytes, verify ----------------------------------------------
section "sg"
check sg_node_found test -c "$SG"
c0=$(scsi_cmds) b0=$(bstat "$SD")
$T "$S" run -q --result sg1.json --ioengine=sg --destroy "$SD" --name=w --filename="$SG" --rw=write \
    --bs=4k --size=256k --buffer_pattern=0x5a --scramble_buffers=0 >sg1.out 2>&1
check sg_write_exit0 test $? -eq 0
c1=$(scsi_cmds)
$T "$S" run -q --result sg2.json --ioengine=sg --destroy "$SD" --name=w --filename="$SG" --rw=write \
    --bs=4k --size=512k --buffer_pattern=0x5a --scramble_buffers=0 >sg2.out 2>&1
c2=$(scsi_cmds) b2=$(bstat "$SD")
flatten sg1.json sg2.json
n1=$(jv sg1.json phases.0.results.0.write.ios) n2=$(jv sg2.json phases.0.results.0.write.ios)
echo "# sg: writes $n1 then $n2; the device's command count +$((c1 - c0)) then +$((c2 - c1)); block layer +$((b2 - b0))"
check sg_writes_64_128 test "$n1:$n2" = 64:128
# each run adds its set-up commands (READ CAPACITY, identity): the same in both
check sg_device_counts_each_write test $(( (c2 - c1) - (c1 - c0) )) = 64
check sg_device_counts_at_least_ios test $((c1 - c0)) -ge 64
check sg_not_through_block_layer test "$b2" = "$b0"
check sg_bytes_read_back_via_block test "$(sum_of "$SD" 0 1024)" = "$(pattern_sum 5a 524288)"
# /dev/sdX: written and read back (verify=crc32c) through SG_IO on the disk node
c0=$(scsi_cmds)
$T "$S" run -q --result sgv.json --ioengine=sg --destroy "$SD" --name=v --filename="$SD" \
    --rw=randwrite --bs=8k --size=256k --verify=crc32c --do_verify=1 >sgv.out 2>&1
check sg_sd_verify_exit0 test $? -eq 0
flatten sgv.json
c1=$(scsi_cmds)
check sg_sd_verify_checked_32 test "$(jv sgv.json phases.0.jobs.0.verify.blocks_checked)" = 32
check sg_sd_writes_32 test "$(jv sgv.json phases.0.results.0.write.ios)" = 32
check sg_sd_device_counts_writes_and_reads test $((c1 - c0)) -ge 64

# ---- sg_write_mode ----------------------------------------------------------
section "sg_write_mode"
# WRITE SAME: one block sent per command, written over its 64 KiB
$T "$S" run -q --ioengine=sg --destroy "$SD" --name=ws --filename="$SG" --rw=write --bs=64k --size=1m \
    --sg_write_mode=write_same >ws.out 2>&1
rc=$?
dd if="$SD" bs=1M count=1 iflag=direct status=none >ws.bin
repeats_block ws.bin 512 65536
ws=$?
check sg_write_same_exit0 test "$rc" -eq 0
check sg_write_same_one_block_repeated test "$ws" -eq 0
# fio's sg_write_same_ndob.fio and sg_verify.fio: which of their commands
# the disk takes is asked first with sg3_utils (the device's own answer);
# ssdbench must then agree: succeed where the disk does, fail where it
# refuses
head -c 512 /dev/zero >zero.blk
dd if="$SD" of=/dev/null bs=512 count=1 iflag=direct status=none
pattern_blocks() { pattern_file "$1" $((512 * $2)) pat.bin && dd if=pat.bin of="$SD" bs=512 oflag=direct conv=notrunc status=none; }
# WRITE SAME(16) NDOB of 19 blocks over 20 blocks of 0x01: what the disk does
pattern_blocks 01 20
$T sg_write_same --16 --ndob --lba=0 --num=19 "$SG" >/dev/null 2>&1; dev_ndob=$?
dev_ndob_zeros=$([ "$(sum_of "$SD" 0 19)" = "$(pattern_sum 00 9728)" ] && echo 1 || echo 0)
dev_ndob_after=$(sum_of "$SD" 0 20)
$T sg_verify --lba=0 --count=1 "$SG" >/dev/null 2>&1; dev_v00=$?
$T sg_verify --ebytchk=1 --ndo=512 --in=zero.blk --lba=0 --count=1 "$SG" >/dev/null 2>&1; dev_v01=$?
$T sg_verify --ebytchk=3 --ndo=512 --in=zero.blk --lba=0 --count=1 "$SG" >/dev/null 2>&1; dev_v11=$?
echo "# the disk (sg3_utils): WRITE SAME(16) NDOB rc $dev_ndob (zeros written: $dev_ndob_zeros), VERIFY BYTCHK 00 rc $dev_v00, 01 rc $dev_v01, 11 rc $dev_v11"
# fio's two examples in one job file, each job its own phase: precon (20
# blocks of 0x01), WRITE SAME NDOB on 19, then VERIFY with BYTCHK 00, 01, 11
cat >modes.fio <<JOB
[global]
filename=$SG
ioengine=sg
rw=write
bs=512
buffer_pattern=0x01
stonewall

[precon]
number_ios=20

[write_same_ndob]
sg_write_mode=write_same_ndob
number_ios=19

[verify00]
sg_write_mode=verify_bytchk_00
number_ios=20

[verify01]
sg_write_mode=verify_bytchk_01
number_ios=20

[verify11]
sg_write_mode=verify_bytchk_11
number_ios=20
JOB
$T "$S" run -q --result modes.json --destroy "$SD" modes.fio >modes.out 2>&1
flatten modes.json
check sg_modes_ran_5_phases test "$(jv modes.json phases.4.name)" != null
# phase K's write errors (null when the phase is missing)
perr() { jv modes.json "phases.$1.results.0.write.errors"; }
agree() { # NAME DEVICE_RC OURS (0 = no error): both succeed or both fail
    if [ "$2" -eq 0 ]; then check "$1" test "$3" = 0; else check "$1_refused_as_the_disk_does" test "$3" -gt 0; fi
}
check sg_precon_ok test "$(perr 0)" = 0
agree sg_write_same_ndob "$dev_ndob" "$(perr 1)"
# the blocks as the disk left them after sg3_utils' own command
check sg_ndob_bytes_as_sg_write_same test "$(sum_of "$SD" 0 20)" = "$dev_ndob_after"
if [ "$dev_ndob" -eq 0 ] && [ "$dev_ndob_zeros" = 1 ]; then
    check sg_ndob_zeros_19_blocks test "$(sum_of "$SD" 0 19)" = "$(pattern_sum 00 9728)"
    check sg_ndob_block_20_kept test "$(sum_of "$SD" 19 1)" = "$(pattern_sum 01 512)"
else
    skip sg_ndob_zeros_19_blocks "the disk writes no zeros for WRITE SAME(16) NDOB (sg_write_same --ndob: rc $dev_ndob, the blocks unchanged)"
fi
agree sg_verify_bytchk_00 "$dev_v00" "$(perr 2)"
agree sg_verify_bytchk_01 "$dev_v01" "$(perr 3)"
agree sg_verify_bytchk_11 "$dev_v11" "$(perr 4)"
grep "error" modes.out | head -4 | sed 's/^/# modes: /'
