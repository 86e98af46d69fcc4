#!/bin/bash
# run.sh: long
# devlab.sh - ssdbench on emulated NVMe, zoned NVMe, SATA and SCSI devices:
# boots one QEMU guest (tests/lab/lab.sh: Debian's kernel, a busybox
# initramfs, the host's /usr over 9p) and runs tests/lab/checks.sh in it,
# which compares ssdbench's figures with the devices' own answers and bytes:
# identity, health, I/O counts, purge, write cache, the guard, zoned devices
# (with checks_zbd.sh: zonemode=zbd side by side with fio) and the
# passthrough engines (checks_engines.sh: io_uring_cmd, sg).
# A failure without QEMU (a test dependency); SKIP when busybox-static or
# the kernel package are not to be had.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1

is_root || { skip all "needs root (the guest's images and the kernel cache)"; exit 0; }
need_tool qemu-system-x86_64 qemu-system-x86 all || exit 1
case $SSDBENCH in
"$PWD"/*) ;;
*) skip all "$SSDBENCH is outside the tree the guest sees ($PWD)"; exit 0 ;;
esac
[ -x "$SSDBENCH" ] || { fail all "no $SSDBENCH (make build/ssdbench)"; exit 0; }
t0=$(date +%s)
SSDBENCH=$SSDBENCH timeout 480 tests/lab/lab.sh run tests/lab/checks.sh "$WORK/out" 2>"$WORK/lab.err" | sed 's/\r$//'
rc=${PIPESTATUS[0]}
cat "$WORK/lab.err" >&2
if [ "$rc" -eq 3 ]; then
    skip all "$(tail -1 "$WORK/lab.err" | sed 's/^lab: //')"
    exit 0
fi
check guest_exit0 test "$rc" -eq 0
check guest_ran_to_the_end grep -qx "lab checks done" "$WORK/out/output.log"
echo "# devlab: $(( $(date +%s) - t0 )) s in all"
