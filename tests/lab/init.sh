#!/bin/busybox sh
# init.sh - PID 1 of the device lab's guest (busybox sh in the initramfs
# that tests/lab/lab.sh builds): loads the storage modules, waits for the
# lab's disks, makes a root of the host's /usr and /etc (9p, read-only) with
# the source tree at its host path, runs /lab/io/script.sh there with bash,
# writes its exit status to /lab/io/status and powers the guest off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
say() { echo "lab-init: $*" >/dev/console; }
off() { sync; poweroff -f; }
# nvme with a poll queue, for polled passthrough (hipri)
while read -r m; do
    a=
    case $m in nvme.ko*) a=poll_queues=1 ;; esac
    insmod "/mods/$m" $a 2>/dev/null || say "insmod $m failed"
done </mods/order
O9=trans=virtio,version=9p2000.L,msize=262144
n=0
until mount -t 9p -o $O9 io /lab/io 2>/dev/null; do
    n=$((n + 1)); [ $n -ge 100 ] && { say "cannot mount the output share"; off; }
    sleep 0.05
done
. /lab/io/lab.conf
# the disks: two NVMe namespaces and two sd disks (AHCI, virtio-scsi)
n=0
while [ $n -lt 200 ]; do
    [ -e /sys/block/nvme0n1 ] && [ -e /sys/block/nvme0n2 ] && [ -e /sys/block/sda ] && [ -e /sys/block/sdb ] && break
    sleep 0.05; n=$((n + 1))
done
ENV=/lab/io/env.sh
echo "export LAB_TREE=$LAB_TREE LAB_NVME=/dev/nvme0n1 LAB_NVME_CTRL=/dev/nvme0 LAB_NVME_NG=/dev/ng0n1 LAB_ZNS=/dev/nvme0n2 LAB_ZNS_NG=/dev/ng0n2 SSDBENCH=$LAB_SSDBENCH" >$ENV
for b in /sys/block/sd*; do
    [ -e "$b" ] || continue
    case "$(cat "$b/device/vendor")" in
    ATA*) echo "export LAB_ATA=/dev/${b##*/}" >>$ENV ;;
    *) echo "export LAB_SCSI=/dev/${b##*/}" >>$ENV ;;
    esac
done
R=/newroot
mount -t tmpfs -o mode=755 root $R
mkdir -p $R/usr $R/etc $R/proc $R/sys $R/dev $R/tmp $R/run $R/var/tmp $R/root $R/mnt $R/lab/io $R$LAB_TREE
ln -s usr/bin $R/bin; ln -s usr/sbin $R/sbin; ln -s usr/lib $R/lib; ln -s usr/lib64 $R/lib64
chmod 1777 $R/tmp $R/var/tmp
mount -t 9p -o $O9,ro,cache=loose usr $R/usr || { say "cannot mount /usr"; off; }
mount -t 9p -o $O9,ro,cache=loose etc $R/etc || { say "cannot mount /etc"; off; }
mount -t 9p -o $O9,ro,cache=loose tree $R$LAB_TREE || { say "cannot mount the tree"; off; }
mount --move /lab/io $R/lab/io
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs shm $R/dev/shm
ln -sf /proc/self/fd $R/dev/fd
cut -d' ' -f1 /proc/uptime >$R/lab/io/booted
chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin HOME=/root LANG=C.UTF-8 TMPDIR=/tmp \
    /bin/bash -c '. /lab/io/env.sh && cd /lab/io && exec /bin/bash /lab/io/script.sh' \
    >$R/lab/io/output.log 2>&1 </dev/null
echo $? >$R/lab/io/status
sync
umount $R/lab/io
poweroff -f
