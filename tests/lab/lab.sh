#!/bin/bash
# lab.sh - the device lab's host side: boots one throwaway QEMU guest with
# emulated storage and runs one script in it as root.
#
#   tests/lab/lab.sh prepare          fetch and unpack the kernel, build the
#                                     initramfs (cached), print what is used
#   tests/lab/lab.sh run SCRIPT [OUT] boot, run SCRIPT with bash in the guest,
#                                     print its output (also into OUT/output.log)
#
# The guest: Debian's own kernel (the linux-image-*-amd64 package, fetched
# with `apt-get download` into the cache and unpacked with dpkg-deb -x, never
# installed) and a busybox-static initramfs (tests/lab/init.sh is its PID 1,
# plus the few modules listed below). The host's /usr and /etc are shared over
# 9p read-only, and so is the source tree at its own path, so the guest runs
# the freshly built binary and every host tool (nvme, hdparm, sg_*, blkzone,
# mkfs.ext4, python3...). The guest's output directory (9p, read-write) is
# where the script runs and what comes back.
#
# Disks, each a new sparse file in the run directory:
#   NVMe controller (serial LABNVME0001): ns1 256 MiB, 512 B blocks;
#       ns2 zoned (ZNS) 64 MiB, 4 KiB blocks, 8 zones of 8 MiB with a 6 MiB
#       capacity, at most 4 open and 6 active zones
#   SATA disk on the q35 AHCI controller (model "LAB SATA SSD", LABATA0001)
#   SCSI disk on virtio-scsi (serial LABSCSI0001)
# The script sees LAB_NVME LAB_NVME_CTRL LAB_NVME_NG LAB_ZNS LAB_ZNS_NG
# LAB_ATA LAB_SCSI (device paths), LAB_TREE (the source tree) and SSDBENCH
# (the host's $SSDBENCH, which must be inside the tree; default build/ssdbench).
#
# Exit status: the script's; 3 the lab cannot be prepared here (the reason is
# the last line on stderr); 124 the guest did not finish in LAB_TIMEOUT
# seconds and was killed; 125 the guest gave no status (console log printed).
#
# Environment: LAB_CACHE (default /var/cache/ssdbench-lab, else
# $TMPDIR/ssdbench-lab), LAB_TIMEOUT (420 s; a loaded host slows the
# emulation several times), LAB_KERNEL_PKG (default: the package
# linux-image-amd64 depends on), LAB_ACCEL (auto: kvm only when
# /proc/cpuinfo shows vmx or svm and /dev/kvm is usable; else tcg).
set -uo pipefail

LAB_TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_TIMEOUT=${LAB_TIMEOUT:-420}
LAB_ACCEL=${LAB_ACCEL:-auto}
if [ -z "${LAB_CACHE:-}" ]; then
    LAB_CACHE=/var/cache/ssdbench-lab
    mkdir -p "$LAB_CACHE" 2>/dev/null && [ -w "$LAB_CACHE" ] || LAB_CACHE=${TMPDIR:-/tmp}/ssdbench-lab
fi
# modules in the initramfs, with their dependencies, loaded in this order
MODULES="virtio_pci 9pnet_virtio 9p nvme ahci virtio_scsi sd_mod sg crc32c_generic ext4"

cannot() { echo "lab: $*" >&2; exit 3; }
die() { echo "lab: $*" >&2; exit 125; }

# ---- prepare: kernel and initramfs in the cache --------------------------
prepare() {
    local t
    for t in qemu-system-x86_64 cpio dpkg-deb modprobe depmod gzip; do
        command -v "$t" >/dev/null || cannot "$t missing (scripts/install-deps.sh --test)"
    done
    [ -x /bin/busybox ] && ! LC_ALL=C ldd /bin/busybox >/dev/null 2>&1 ||
        cannot "no static /bin/busybox (apt-get install busybox-static)"
    mkdir -p "$LAB_CACHE" || cannot "cannot create $LAB_CACHE"
    exec 9>"$LAB_CACHE/.lock"
    flock -w 300 9 || cannot "$LAB_CACHE is locked"
    local pkg=${LAB_KERNEL_PKG:-}
    [ -n "$pkg" ] || pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
    [ -n "$pkg" ] || pkg=$(cd "$LAB_CACHE" && ls -d kernel-linux-image-* 2>/dev/null | head -1 | sed 's/^kernel-//')
    [ -n "$pkg" ] || cannot "no kernel package known (apt-get update, or set LAB_KERNEL_PKG)"
    KDIR=$LAB_CACHE/kernel-$pkg
    if [ ! -d "$KDIR" ]; then
        mkdir -p "$LAB_CACHE/debs"
        ls "$LAB_CACHE/debs/${pkg}"_*.deb >/dev/null 2>&1 ||
            (cd "$LAB_CACHE/debs" && timeout 300 apt-get download "$pkg" >/dev/null 2>&1) ||
            cannot "apt-get download $pkg failed (no Debian archive reachable?)"
        rm -rf "$KDIR.tmp"
        dpkg-deb -x "$(ls "$LAB_CACHE/debs/${pkg}"_*.deb | head -1)" "$KDIR.tmp" || cannot "dpkg-deb -x failed"
        mv "$KDIR.tmp" "$KDIR"
    fi
    KVER=${pkg#linux-image-}
    KERNEL=$KDIR/boot/vmlinuz-$KVER
    [ -f "$KERNEL" ] || cannot "$KERNEL missing in $pkg"
    [ -f "$KDIR/lib/modules/$KVER/modules.dep" ] || depmod -b "$KDIR" "$KVER" || cannot "depmod failed"
    # The bzImage's decompressor takes seconds under TCG; the ELF inside it
    # boots directly through its PVH note. Kept when python3 can unpack it.
    local elf=$KDIR/boot/vmlinux-$KVER
    if [ ! -f "$elf" ] && command -v python3 >/dev/null; then
        python3 - "$KERNEL" "$elf.tmp" <<'PY' && mv "$elf.tmp" "$elf" || rm -f "$elf.tmp"
import lzma, sys
data = open(sys.argv[1], "rb").read()
at = data.find(b"\xfd7zXZ\x00")
if at < 0:
    sys.exit(1)
elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[at:])
if elf[:4] != b"\x7fELF":
    sys.exit(1)
open(sys.argv[2], "wb").write(elf)
PY
    fi
    [ -f "$elf" ] && KERNEL=$elf
    local key
    key=$({ cat "$LAB_TREE/tests/lab/init.sh"; echo "$KVER $MODULES"; md5sum </bin/busybox; } | md5sum | cut -c1-10)
    INITRD=$LAB_CACHE/initramfs-$KVER-$key.cpio.gz
    [ -f "$INITRD" ] && { exec 9>&-; return 0; }   # the cache lock ends here
    local root m f
    root=$(mktemp -d "$LAB_CACHE/initramfs.XXXXXX") || cannot "mktemp failed"
    mkdir -p "$root"/{bin,dev,proc,sys,mods,lab/io,newroot}
    cp /bin/busybox "$root/bin/busybox"
    cp "$LAB_TREE/tests/lab/init.sh" "$root/init"
    chmod 755 "$root/init"
    : >"$root/mods/order"
    for m in $MODULES; do
        for f in $(modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'); do
            grep -qx "${f##*/}" "$root/mods/order" && continue
            cp "$f" "$root/mods/" && echo "${f##*/}" >>"$root/mods/order"
        done
    done
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 >"$root.gz") || cannot "cpio failed"
    mv "$root.gz" "$INITRD"
    rm -rf "$root"
    exec 9>&-
}

# ---- run: one guest, one script ----------------------------------------
run() {
    local script=$1 out=${2:-}
    [ -f "$script" ] || die "no script $script"
    local accel=(-accel tcg,tb-size=256 -cpu max)
    case $LAB_ACCEL in
    kvm) accel=(-accel kvm -cpu host) ;;
    auto) if grep -q -m1 -w -E 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then accel=(-accel kvm -cpu host); fi ;;
    tcg) ;;
    *) die "LAB_ACCEL is kvm, tcg or auto, not $LAB_ACCEL" ;;
    esac
    local run
    run=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-lab.XXXXXX") || die "mktemp failed"
    mkdir -p "$run/io"
    cp "$script" "$run/io/script.sh"
    cat >"$run/io/lab.conf" <<EOF
LAB_TREE=$LAB_TREE
LAB_SSDBENCH=${SSDBENCH:-$LAB_TREE/build/ssdbench}
EOF
    truncate -s 256M "$run/nvme1.img"
    truncate -s 64M "$run/nvme2.img"
    truncate -s 128M "$run/ata.img"
    truncate -s 128M "$run/scsi.img"
    local p9=security_model=none,multidevs=remap
    local qemu=(qemu-system-x86_64 -machine q35 "${accel[@]}" -smp 1 -m 1024
        -nodefaults -no-user-config -display none -monitor none -no-reboot
        -serial "file:$run/console.log"
        -kernel "$KERNEL" -initrd "$INITRD"
        -append "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init"
        -virtfs "local,path=/usr,mount_tag=usr,readonly=on,$p9"
        -virtfs "local,path=/etc,mount_tag=etc,readonly=on,$p9"
        -virtfs "local,path=$LAB_TREE,mount_tag=tree,readonly=on,$p9"
        -virtfs "local,path=$run/io,mount_tag=io,$p9"
        -device nvme,id=nvme0,serial=LABNVME0001
        -drive "file=$run/nvme1.img,if=none,id=ns1,format=raw,discard=unmap"
        -device nvme-ns,bus=nvme0,drive=ns1,nsid=1,logical_block_size=512,physical_block_size=512
        -drive "file=$run/nvme2.img,if=none,id=ns2,format=raw"
        -device "nvme-ns,bus=nvme0,drive=ns2,nsid=2,logical_block_size=4096,physical_block_size=4096,zoned=true,zoned.zone_size=8M,zoned.zone_capacity=6M,zoned.max_open=4,zoned.max_active=6"
        -drive "file=$run/ata.img,if=none,id=ata0,format=raw,discard=unmap"
        -device "ide-hd,drive=ata0,bus=ide.0,model=LAB SATA SSD,serial=LABATA0001,rotation_rate=1"
        -device virtio-scsi-pci,id=scsi0
        -drive "file=$run/scsi.img,if=none,id=scsi0d,format=raw,discard=unmap"
        -device scsi-hd,bus=scsi0.0,drive=scsi0d,serial=LABSCSI0001,rotation_rate=1)
    local t0 rc
    t0=$(date +%s.%N)
    timeout -k 5 "$LAB_TIMEOUT" "${qemu[@]}" >"$run/qemu.log" 2>&1
    rc=$?
    local secs
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    cat "$run/io/output.log" 2>/dev/null
    [ -n "$out" ] && mkdir -p "$out" && cp "$run/io/output.log" "$run/console.log" "$out/" 2>/dev/null
    echo "lab: guest ran ${secs}s ($([ "${accel[1]}" = kvm ] && echo kvm || echo tcg), booted in $(cat "$run/io/booted" 2>/dev/null || echo '?')s of guest time)" >&2
    local status
    status=$(cat "$run/io/status" 2>/dev/null)
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "lab: the guest did not finish in ${LAB_TIMEOUT}s; console:" >&2
        tail -20 "$run/console.log" >&2
        rm -rf "$run"; return 124
    fi
    if [ -z "$status" ]; then
        echo "lab: the guest gave no status (qemu exit $rc); qemu log and console:" >&2
        cat "$run/qemu.log" >&2; tail -30 "$run/console.log" >&2
        rm -rf "$run"; return 125
    fi
    rm -rf "$run"
    return "$status"
}

case ${1:-} in
prepare) prepare; echo "kernel: $KERNEL"; echo "initramfs: $INITRD" ;;
run) [ $# -ge 2 ] || die "usage: lab.sh run SCRIPT [OUTDIR]"; prepare; run "$2" "${3:-}" ;;
*) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
