#!/bin/bash
# checks.sh - the device lab's checks, run as root inside the guest that
# tests/lab/lab.sh boots (tests/integration/devlab.sh starts it). Every
# figure ssdbench reports is compared with what the emulated device itself
# answers through another tool (nvme-cli, hdparm, sdparm, sg_inq, smartctl,
# blkzone) or with the bytes on the device (sha256):
#   identity and health on each bus (NVMe, SATA/AHCI, SCSI/virtio-scsi);
#   the reads and writes of a run against the NVMe SMART log's host command
#   counters (nomerges=2, so the block layer does not merge);
#   purge: the method chosen per device and the data gone (Format NVM with
#   secure erase: the first MiB reads as zeros);
#   the write cache per PTS preset, set during the run (the kernel trace of
#   the commands the driver sent: off, a write, on) and restored after it,
#   also after a SIGINT;
#   the guard on an NVMe namespace with an ext4 file system (signature,
#   then mounted): refused, bytes unchanged;
#   the zoned namespace: its zoned identity against sysfs and the zone
#   report, a plain write job and pts refused (no I/O, zones untouched),
#   purge by resetting every zone (the zone report as new, data gone);
#   zonemode=zbd side by side with fio (checks_zbd.sh).
# Output: PASS/FAIL/SKIP lines (lib.sh), then "lab checks done".
SSDBENCH=${SSDBENCH:-$LAB_TREE/build/ssdbench}
source "$LAB_TREE/tests/integration/lib.sh"
TESTNAME=devlab
S=$SSDBENCH
T="timeout 60"

source "$LAB_TREE/tests/lab/helpers.sh"
nvme_vwc() { [[ $($T nvme get-feature -f 6 -H "$LAB_NVME_CTRL" 2>/dev/null) == *"Volatile Write Cache Enable (WCE): Enabled"* ]] && echo 1 || echo 0; }
ata_wce() { $T hdparm -W "$LAB_ATA" | awk '/write-caching/ {print $3}'; }
scsi_wce() { $T sdparm --get WCE "$LAB_SCSI" 2>/dev/null | awk '$1 == "WCE" {print $2}'; }
# tf 0|1: as JSON booleans read back (False, True)
tf() { [ "$1" = 1 ] && echo True || echo False; }
ZERO_MIB=$(pattern_sum 00 1048576)

# ---- identity and health, per bus ---------------------------------------
section "identity"
$T "$S" info --json "$LAB_NVME" >nvme.json
$T nvme id-ctrl -o json "$LAB_NVME_CTRL" >idctrl.json
$T nvme id-ns -o json "$LAB_NVME" >idns.json
$T "$S" info --json "$LAB_ATA" >ata.json
$T smartctl --json -A "$LAB_ATA" >ata_smart.json
$T "$S" info --json "$LAB_SCSI" >scsi.json
flatten nvme.json idctrl.json idns.json ata.json ata_smart.json scsi.json
for k in model:mn serial:sn firmware:fr; do
    ours=$(jv nvme.json "device.${k%%:*}")
    theirs=$(jv idctrl.json "${k#*:}")
    theirs=${theirs%"${theirs##*[! ]}"}
    check "nvme_${k%%:*}_is_identify" test -n "$theirs" -a "$ours" = "$theirs"
done
check nvme_blocks_is_nsze test "$(jv nvme.json "device.namespace_blocks")" = "$(jv idns.json "nsze")"
check nvme_nsid test "$(jv nvme.json "device.nsid")" = 1
check nvme_identity_source test "$(jv nvme.json "device.identity_source")" = nvme
check nvme_temp_is_smart_log test "$(jv nvme.json "health.temp_c")" = "$(($(smart temperature) - 273))"
check nvme_read_cmds_is_smart_log test "$(jv nvme.json "health.host_read_cmds")" = "$(smart host_read_commands)"
check nvme_cache_is_get_features test "$(jv nvme.json "device.write_cache_enabled")" = "$(tf "$(nvme_vwc)")"

$T hdparm -I "$LAB_ATA" >hdparm.txt 2>/dev/null
check ata_bus test "$(jv ata.json "device.bus")" = ata
check ata_identity_source test "$(jv ata.json "device.identity_source")" = ata
check ata_model_is_identify test "$(jv ata.json "device.model")" = "$(sed -n 's/^[[:space:]]*Model Number:[[:space:]]*//p' hdparm.txt | sed 's/[[:space:]]*$//')"
check ata_serial_is_identify test "$(jv ata.json "device.serial")" = "$(sed -n 's/^[[:space:]]*Serial Number:[[:space:]]*//p' hdparm.txt | sed 's/[[:space:]]*$//')"
check ata_firmware_is_identify test "$(jv ata.json "device.firmware")" = "$(sed -n 's/^[[:space:]]*Firmware Revision:[[:space:]]*//p' hdparm.txt | sed 's/[[:space:]]*$//')"
check ata_cache_is_hdparm test "$(jv ata.json "device.write_cache_enabled")" = "$(tf "$(ata_wce)")"
check ata_temp_is_smart test "$(jv ata.json "health.temp_c")" = "$(jv ata_smart.json "temperature.current")"
check ata_power_on_hours_is_smart test "$(jv ata.json "health.power_on_hours")" = "$(jv ata_smart.json "power_on_time.hours")"

$T sg_inq "$LAB_SCSI" >inq.txt
check scsi_bus test "$(jv scsi.json "device.bus")" = scsi
check scsi_model_is_inquiry test "$(jv scsi.json "device.model")" = "$(sed -n 's/^ *Product identification: *//p' inq.txt | sed 's/ *$//')"
check scsi_serial_is_vpd test "$(jv scsi.json "device.serial")" = "$($T sg_vpd -p sn "$LAB_SCSI" | sed -n 's/^ *Unit serial number: *//p')"
check scsi_cache_is_mode_page test "$(jv scsi.json "device.write_cache_enabled")" = "$(tf "$(scsi_wce)")"
# QEMU's SCSI disk has no SMART: smartctl's "Current Drive Temperature: 0 C"
# is a placeholder, so no temperature at all
check scsi_no_placeholder_temp test "$(jv scsi.json "health.temp_c")" = null
check scsi_text_no_temp_row bash -c "! $T '$S' info '$LAB_SCSI' | grep -q 'temperature'"

# ---- I/O counts against the SMART log --------------------------------------
section "io counts"
echo 2 >/sys/block/${LAB_NVME##*/}/queue/nomerges
smart_now; r0=$SMART_R w0=$SMART_W
$T "$S" run -q --result run.json --name=w --filename="$LAB_NVME" --destroy "$LAB_NVME" --rw=randwrite \
    --bs=4k --size=2m --direct=1 --iodepth=4 --name=r --stonewall --filename="$LAB_NVME" --rw=randread \
    --bs=4k --size=1m --direct=1 --iodepth=4 >/dev/null
check run_exit0 test $? -eq 0
flatten run.json
smart_now; r1=$SMART_R w1=$SMART_W
ios_w=$(( $(jv run.json phases.0.results.0.write.ios) + $(jv run.json phases.1.results.0.write.ios) ))
ios_r=$(( $(jv run.json phases.0.results.0.read.ios) + $(jv run.json phases.1.results.0.read.ios) ))
echo "# run: writes $ios_w, reads $ios_r; SMART log: host writes +$((w1 - w0)), host reads +$((r1 - r0))"
check run_writes_512 test "$ios_w" = 512
check run_reads_256 test "$ios_r" = 256
check run_writes_are_smart_writes test "$ios_w" = $((w1 - w0))
check run_reads_are_smart_reads test "$ios_r" = $((r1 - r0))
check run_health_delta_writes test "$(jv run.json "targets.0.health.delta.host_write_cmds")" = "$ios_w"

# ---- purge: method and data gone -------------------------------------------
section "purge"
$T dd if=/dev/urandom of="$LAB_NVME" bs=1M count=1 oflag=direct status=none
before=$(mib_sum "$LAB_NVME")
check purge_data_written test "$before" != "$ZERO_MIB"
$T "$S" purge "$LAB_NVME" >purge_refused.txt 2>&1
check purge_needs_consent test $? -ne 0
check purge_refused_bytes_kept test "$(mib_sum "$LAB_NVME")" = "$before"
$T "$S" purge --format json --destroy "$LAB_NVME" "$LAB_NVME" >purge.json
check purge_exit0 test $? -eq 0
flatten purge.json
check purge_nvme_format_ses1 test "$(jv purge.json "purge.0.method")" = nvme-format-secure-erase
check purge_nvme_device_command test "$(jv purge.json "purge.0.device_command")" = True
check purge_nvme_first_mib_zero test "$(mib_sum "$LAB_NVME")" = "$ZERO_MIB"
echo "# purge: first MiB sha256 ${before:0:16}... -> ${ZERO_MIB:0:16}... (zeros)"
$T dd if=/dev/urandom of="$LAB_ATA" bs=1M count=1 oflag=direct status=none
$T "$S" purge --format json --destroy "$LAB_ATA" "$LAB_ATA" >purge_ata.json
flatten purge_ata.json
check purge_ata_block_method test "$(jv purge_ata.json "purge.0.device_command")" = False
check purge_ata_says_why grep -q "Security feature set is not supported" purge_ata.json

# ---- write cache per preset, restored; SIGINT -----------------------------
section "write cache"
# the throughput test: the fewest phases (each reads the device's health)
PTS=(tp --tc 1 --qd 1 --max-rounds 5 --capacity-scale 0.01 --round-time 0.1 --no-purge -q)
# The cache's state during the run is read from the kernel's own trace of
# the commands the driver sent, in order: the command that turns the cache
# off (NVMe Set Features 06h, value 0), a write of the run, the command that
# turns it back on. No sampling, so a short run cannot slip between samples.
NVME_WC_OFF='nvme_admin_set_features fid=0x6, sv=0x[01], cdw11=0x0[)]'
NVME_WC_ON='nvme_admin_set_features fid=0x6, sv=0x[01], cdw11=0x1[)]'
NVME_WRITE="disk=${LAB_NVME##*/},.*nvme_cmd_write"
# the enterprise preset turns the NVMe cache off for the run, back on after
trace_start nvme/nvme_setup_cmd '(qid == 0 && opcode == 9) || (qid != 0 && opcode == 1)'
$T "$S" pts "${PTS[@]}" --enterprise --destroy "$LAB_NVME" --result pts_e.json "$LAB_NVME" >/dev/null 2>pts_e.err
prc=$?
trace_stop nvme_e.trace; trc=$?
flatten pts_e.json
check pts_e_exit0 test $prc -eq 0
check pts_e_trace_complete test $trc -eq 0
check pts_e_cache_off_during in_order nvme_e.trace "$NVME_WC_OFF" "$NVME_WRITE" "$NVME_WC_ON"
check pts_e_state_recorded test "$(jv pts_e.json pts.write_cache.state)" = WCD
check pts_e_before_recorded test "$(jv pts_e.json pts.write_cache.before.state)" = WCE
check pts_e_set_by_device test "$(jv pts_e.json pts.write_cache.set_by)" = device
check pts_e_restored test "$(jv pts_e.json pts.write_cache.restored)" = True
check pts_e_cache_on_after test "$(nvme_vwc)" = 1
# the client preset turns a disabled ATA cache on, and back off after
$T hdparm -W 0 "$LAB_ATA" >/dev/null
# ATA: SET FEATURES (EFh) through ATA PASS-THROUGH (16), subcommand 02h
# (enable the write cache) or 82h (disable) in the features byte
ATA_WC_ON='ATA_16 - raw=85( [0-9a-f]{2}){3} 02( [0-9a-f]{2}){9} ef '
ATA_WC_OFF='ATA_16 - raw=85( [0-9a-f]{2}){3} 82( [0-9a-f]{2}){9} ef '
ATA_WRITE='cmnd=[(]WRITE_(10|16) '
trace_start scsi/scsi_dispatch_cmd_start 'opcode == 0x85 || opcode == 0x2a || opcode == 0x8a'
$T "$S" pts "${PTS[@]}" --client --destroy "$LAB_ATA" --result pts_c.json "$LAB_ATA" >/dev/null 2>pts_c.err
prc=$?
trace_stop ata_c.trace; trc=$?
flatten pts_c.json
check pts_c_exit0 test $prc -eq 0
[ $prc -eq 0 ] || sed "s/^/# pts_c.err: /" pts_c.err | tail -n 5
check pts_c_trace_complete test $trc -eq 0
check pts_c_cache_on_during in_order ata_c.trace "$ATA_WC_ON" "$ATA_WRITE" "$ATA_WC_OFF"
check pts_c_state_recorded test "$(jv pts_c.json pts.write_cache.state)" = WCE
check pts_c_before_recorded test "$(jv pts_c.json pts.write_cache.before.state)" = WCD
# the kernel's view once it has followed the device (IDENTIFY word 85)
check pts_c_kernel_follows test "$(jv pts_c.json pts.write_cache.kernel)" = "write back"
check pts_c_cache_off_after test "$(ata_wce)" = 0
$T hdparm -W 1 "$LAB_ATA" >/dev/null
# SCSI (the caching mode page), stopped by SIGINT in the middle of the rounds
section "sigint"
timeout 120 "$S" pts "${PTS[@]}" --round-time 30 --enterprise --destroy "$LAB_SCSI" --result pts_s.json "$LAB_SCSI" >/dev/null 2>pts_s.err &
ppid=$!
n=0; while [ "$(scsi_wce)" = 1 ] && [ $n -lt 100 ]; do sleep 0.3; n=$((n + 1)); done
off_seen=$(scsi_wce)
sleep 0.5
kill -INT $ppid
wait $ppid; prc=$?
flatten pts_s.json
check pts_sigint_cache_was_off test "$off_seen" = 0
check pts_sigint_exit130 test $prc -eq 130
check pts_sigint_cache_restored test "$(scsi_wce)" = 1
check pts_sigint_state_recorded test "$(jv pts_s.json pts.write_cache.state)" = WCD
check pts_sigint_set_by_device test "$(jv pts_s.json pts.write_cache.set_by)" = device
check pts_sigint_restored_recorded test "$(jv pts_s.json pts.write_cache.restored)" = True

# ---- zoned namespace: identity, refusals, purge by zone reset ------------
section "zoned"
ZQ=/sys/block/${LAB_ZNS##*/}/queue
$T "$S" info --json "$LAB_ZNS" >zns.json
$T blkzone report "$LAB_ZNS" >zones0.txt
flatten zns.json
zcap=$(sed -n '1s/.*cap 0x\([0-9a-f]*\),.*/\1/p' zones0.txt)
zcap=$((16#${zcap:-0} * 512))
check zns_model_is_sysfs test "$(jv zns.json device.zoned)" = "$(cat $ZQ/zoned)"
check zns_host_managed test "$(jv zns.json device.zoned)" = host-managed
check zns_zone_bytes_is_chunk_sectors test "$(jv zns.json device.zone_bytes)" = $(($(cat $ZQ/chunk_sectors) * 512))
check zns_zone_capacity_is_report test "$(jv zns.json device.zone_capacity_bytes)" = "$zcap"
check zns_zone_capacity_6mib test "$zcap" = 6291456
check zns_nr_zones_is_sysfs test "$(jv zns.json device.nr_zones)" = "$(cat $ZQ/nr_zones)"
check zns_nr_zones_is_report test "$(jv zns.json device.nr_zones)" = "$(wc -l <zones0.txt)"
check zns_max_open test "$(jv zns.json device.max_open_zones)" = "$(cat $ZQ/max_open_zones)"
check zns_max_active test "$(jv zns.json device.max_active_zones)" = "$(cat $ZQ/max_active_zones)"
check zns_limits_lab test "$(cat $ZQ/max_open_zones)/$(cat $ZQ/max_active_zones)" = 4/6
$T "$S" info "$LAB_ZNS" >zns.txt
check zns_text_line grep -q "^zoned: *host-managed, 8 zones of 8.39 MB (capacity 6.29 MB), max open zones 4, max active zones 6" zns.txt
# a read job's result records the same identity
$T "$S" run -q --result zread.json --name=r --filename="$LAB_ZNS" --rw=read --bs=64k --size=1m --direct=1 >/dev/null
check zns_read_runs test $? -eq 0
flatten zread.json
check zns_result_identity test "$(jv zread.json targets.0.device.zoned)/$(jv zread.json targets.0.device.nr_zones)" = host-managed/8
# a plain write job: refused before any I/O, one line; the zones stay empty
w0=$(smart host_write_commands)
$T "$S" run -q --name=w --filename="$LAB_ZNS" --destroy "$LAB_ZNS" --rw=randwrite --bs=4k --size=4m --direct=1 >zwrite.txt 2>&1
check zns_write_refused test $? -ne 0
check zns_write_one_line test "$(wc -l <zwrite.txt)" -eq 1
check zns_write_says_why grep -q "host-managed zoned device" zwrite.txt
check zns_write_no_io test "$(smart host_write_commands)" = "$w0"
$T blkzone report "$LAB_ZNS" >zones1.txt
check zns_write_zones_untouched cmp -s zones0.txt zones1.txt
sed 's/^/# zoned: /' zwrite.txt
# pts: refused with the reason
$T "$S" pts tp --no-purge -q --destroy "$LAB_ZNS" "$LAB_ZNS" >zpts.txt 2>&1
check zns_pts_refused test $? -ne 0
check zns_pts_says_zoned grep -q "zoned block device" zpts.txt
# purge: zone 0 written full, zone 1 in part; then every zone reset
$T dd if=/dev/urandom of="$LAB_ZNS" bs=1M count=6 oflag=direct status=none
$T dd if=/dev/urandom of="$LAB_ZNS" bs=1M count=2 seek=8 oflag=direct status=none
$T blkzone report "$LAB_ZNS" >zones2.txt
check zns_zone0_full grep -q "^ *start: 0x000000000,.*(fu)" zones2.txt
check zns_zone1_open grep -q "^ *start: 0x000004000,.*wptr 0x001000 .*(oi)" zones2.txt
before=$(mib_sum "$LAB_ZNS")
$T "$S" purge --format json --destroy "$LAB_ZNS" "$LAB_ZNS" >zpurge.json
check zns_purge_exit0 test $? -eq 0
flatten zpurge.json
check zns_purge_zone_reset test "$(jv zpurge.json purge.0.method)" = zone-reset
check zns_purge_says_so grep -q "every zone reset (8 zones" zpurge.json
$T blkzone report "$LAB_ZNS" >zones3.txt
check zns_purge_all_empty test "$(grep -c 'wptr 0x000000 .*(em)' zones3.txt)" = 8
check zns_purge_report_as_new cmp -s zones0.txt zones3.txt
check zns_purge_data_gone test "$(mib_sum "$LAB_ZNS")" = "$ZERO_MIB" -a "$before" != "$ZERO_MIB"
echo "# zoned: before purge: $(grep -c '(fu)' zones2.txt) full, $(grep -c '(oi)' zones2.txt) open, $(grep -c '(em)' zones2.txt) empty; after: $(grep -c '(em)' zones3.txt) empty"

# ---- zonemode=zbd, side by side with fio ---------------------------------
source "$LAB_TREE/tests/lab/checks_zbd.sh"

# ---- the guard: an ext4 file system on the NVMe namespace ---------------
section "guard"
# a small file system without the discard of the whole namespace (quick under emulation)
$T mkfs.ext4 -q -F -E nodiscard "$LAB_NVME" 16M
before=$(mib_sum "$LAB_NVME")
W=(--name=w --filename="$LAB_NVME" --rw=write --bs=64k --size=1m --direct=1)
$T "$S" run -q "${W[@]}" >guard1.txt 2>&1
check guard_ext4_refused test $? -ne 0
check guard_ext4_names_it grep -q "ext4" guard1.txt
check guard_ext4_one_line test "$(wc -l <guard1.txt)" -eq 1
$T "$S" purge "$LAB_NVME" >guard2.txt 2>&1
check guard_purge_ext4_refused test $? -ne 0
check guard_ext4_bytes_kept test "$(mib_sum "$LAB_NVME")" = "$before"
# read-only, so the superblock stays as it was
mkdir -p /mnt/fs && $T mount -t ext4 -o ro "$LAB_NVME" /mnt/fs
check guard_mounted test $? -eq 0
$T "$S" run -q "${W[@]}" --destroy "$LAB_NVME" >guard3.txt 2>&1
check guard_mounted_refused_despite_consent test $? -ne 0
check guard_mounted_says_mounted grep -q "is mounted on /mnt/fs" guard3.txt
$T "$S" purge --destroy "$LAB_NVME" "$LAB_NVME" >guard4.txt 2>&1
check guard_purge_mounted_refused test $? -ne 0
$T umount /mnt/fs
check guard_mounted_bytes_kept test "$(mib_sum "$LAB_NVME")" = "$before"
cat guard1.txt guard3.txt | sed 's/^/# guard: /'

# ---- the passthrough engines -----------------------------------------------
source "$LAB_TREE/tests/lab/checks_engines.sh"

section end
echo "lab checks done"
