#!/bin/bash
# guard_stack.sh - "in use" is a property of the storage, not of a name: the
# guard tried through every alias of something in use. A device backing a
# mounted loop at an offset, a second loop over the image of a mounted loop,
# a loop mount whose image lost its first name (sysfs says "(deleted)") or
# was made through a bind in another mount namespace, a partition whose
# whole disk another process holds open for writing, writers with no
# descriptor (a shared writable mapping, an io_uring registered file), and a
# user who cannot see root's descriptors. Each check compares the victim's
# sha256 before and after, and the exit status and message.
source "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }
no_destroy_hint() { ! grep -q -- "--destroy" <<<"$1"; }
one_line() { test "$(printf '%s\n' "$1" | wc -l)" -eq 1; }
# w TARGET [OPTION...]: a short, small write run; prints its messages
w() { timeout 60 "$SSDBENCH" run --filename="$1" --rw=write --bs=4k --size=2m --direct=0 -q "${@:2}" 2>&1; }
# wait_for FILE: up to 5 s for a holder to say it is ready
wait_for() { wait_for_file "$1"; }
# refused NAME VICTIM BEFORE RC OUT PATTERN: exit 2, victim unchanged, message
refused() {
    check "$1_refused" test "$4" -eq 2
    check "$1_victim_unchanged" test "$3" = "$(sum "$2")"
    check "$1_message" grep -q -- "$6" <<<"$5"
    check "$1_one_line" one_line "$5"
}
# tmpfs DIR: a private tmpfs for images
tmpfs() { mkdir -p "$1" && mount -t tmpfs -o size=96m tmpfs "$1" && track mount "$1"; }
mkfs_quiet() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1; }
# part_node DEV N: the node of partition N of DEV (made here when udev is absent)
part_node() {
    local pn
    pn=$(basename "$1")p$2
    [ -e "/sys/class/block/$pn" ] || partx -a "$1" 2>/dev/null
    if [ -b "$1p$2" ]; then
        echo "$1p$2"
    elif [ -e "/sys/class/block/$pn/dev" ]; then
        IFS=: read -r ma mi <"/sys/class/block/$pn/dev"
        mknod "$WORK/$pn" b "$ma" "$mi" && echo "$WORK/$pn"
    else
        return 1
    fi
}

if ! is_root; then
    skip stack "not root (loop devices, mounts and setpriv need root)"
    exit 0
fi
for t in losetup:util-linux mkfs.ext4:e2fsprogs python3:python3 unshare:util-linux sgdisk:gdisk setpriv:util-linux; do
    need_tool "${t%%:*}" "${t#*:}" stack || exit 1
done

# --- 1. a device backing a mounted loop at an offset (losetup -o 1M A)
A=$(make_loop 32) || { fail loop_offset "cannot make a loop device"; exit 0; }
L=$(losetup -o 1M --find --show "$A") && track loop "$L"
mnt="$WORK/m1"
mkdir -p "$mnt"
if [ -n "$L" ] && mkfs_quiet "$L" && mount "$L" "$mnt" && track mount "$mnt"; then
    echo data >"$mnt/f" && sync
    before=$(sum "$A")
    out=$(w "$A"); rc=$?
    refused loop_offset "$A" "$before" "$rc" "$out" "backing device of $L (at offset 1048576), which is mounted on $mnt"
    check loop_offset_no_destroy_hint no_destroy_hint "$out"
    out=$(w "$A" --destroy="$A"); rc=$?
    refused loop_offset_consent "$A" "$before" "$rc" "$out" "backing device of $L"
    umount "$mnt"
    check loop_offset_fs_clean e2fsck -fn "$L"
else
    fail loop_offset "could not make a mounted ext4 on a loop at 1 MiB of $A"
fi

# --- 2. a second loop over the image of a mounted loop (losetup -o 4096 img)
d="$WORK/t2"
tmpfs "$d" && truncate -s 32M "$d/img"
L1=$(losetup --find --show "$d/img") && track loop "$L1"
mkdir -p "$WORK/m2"
if [ -n "$L1" ] && mkfs_quiet "$L1" && mount "$L1" "$WORK/m2" && track mount "$WORK/m2"; then
    echo data >"$WORK/m2/f" && sync
    L2=$(losetup -o 4096 --find --show "$d/img") && track loop "$L2"
    before=$(sum "$d/img")
    out=$(w "$L2"); rc=$?
    refused second_loop "$d/img" "$before" "$rc" "$out" "is also the backing file of $L1 (at offset 0), which is mounted on $WORK/m2"
    out=$(w "$L2" --destroy="$L2"); rc=$?
    refused second_loop_consent "$d/img" "$before" "$rc" "$out" "backing file of $L1"
    umount "$WORK/m2"
    losetup -d "$L2"
else
    fail second_loop "could not mount ext4 on a loop over $d/img"
fi

# --- 3. mount -o loop (autoclear), then a hard link and the first name removed:
# sysfs backing_file ends in "(deleted)"; the inode is what counts
d="$WORK/t3"
tmpfs "$d" && truncate -s 32M "$d/img" && mkfs_quiet "$d/img"
mkdir -p "$WORK/m3"
if mount -o loop "$d/img" "$WORK/m3" && track mount "$WORK/m3"; then
    echo data >"$WORK/m3/f" && sync
    lo=$(findmnt -n -o SOURCE "$WORK/m3")
    ln "$d/img" "$d/link" && rm "$d/img"
    before=$(sum "$d/link")
    check deleted_name_sysfs_says_deleted grep -q "(deleted)" "/sys/block/$(basename "$lo")/loop/backing_file"
    out=$(w "$d/link" --destroy="$d/link"); rc=$?
    refused deleted_name "$d/link" "$before" "$rc" "$out" "backing file of $lo (at offset 0), which is mounted on $WORK/m3"
    check deleted_name_no_destroy_hint no_destroy_hint "$out"
    umount "$WORK/m3"
else
    fail deleted_name "mount -o loop failed"
fi

# ... and the loop mount made through a bind that exists only in another mount namespace
d="$WORK/t3ns"
tmpfs "$d" && truncate -s 32M "$d/img" && mkfs_quiet "$d/img"
mkdir -p "$WORK/bindpt" "$WORK/m3ns"
rm -f "$WORK/ns_ready"
unshare -m --propagation private sh -c \
    "mount --bind '$d' '$WORK/bindpt' && mount -o loop '$WORK/bindpt/img' '$WORK/m3ns' && touch '$WORK/ns_ready'; exec sleep 60" &
nspid=$!
if wait_for "$WORK/ns_ready" && ! grep -q "$WORK/m3ns" /proc/self/mountinfo; then
    before=$(sum "$d/img")
    out=$(w "$d/img" --destroy="$d/img"); rc=$?
    refused other_ns_bind "$d/img" "$before" "$rc" "$out" "it is the backing file of /dev/loop"
    check other_ns_bind_says_mounted grep -q "which is mounted on" <<<"$out"
else
    fail other_ns_bind "could not loop-mount through a bind in a private mount namespace"
fi
kill "$nspid" 2>/dev/null; wait "$nspid" 2>/dev/null

# --- 4. a partition while another process holds the WHOLE disk open for writing;
# a sibling partition mounted elsewhere on the disk does not stop it
img="$WORK/t4.img"
d="$WORK/t4"
tmpfs "$d" && img="$d/disk.img" && truncate -s 48M "$img"
sgdisk -o -n 1:2048:+16M -n 2:0:+16M "$img" >/dev/null 2>&1
pd=$(losetup --find --show -P "$img") && track loop "$pd"
p1=$(part_node "$pd" 1) && p2=$(part_node "$pd" 2)
if [ -n "$p1" ] && [ -b "$p1" ] && [ -b "$p2" ]; then
    rm -f "$WORK/disk_held"
    python3 -c "import os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR); open(sys.argv[2],'w').close(); time.sleep(60)" \
        "$pd" "$WORK/disk_held" &
    holder=$!
    wait_for "$WORK/disk_held"
    before=$(sum "$p1")
    out=$(w "$p1"); rc=$?
    refused partition_disk_held "$p1" "$before" "$rc" "$out" "process $holder (python3) has its whole disk $(basename "$pd") open for writing"
    out=$(w "$p1" --destroy="$p1"); rc=$?
    refused partition_disk_held_consent "$p1" "$before" "$rc" "$out" "its whole disk"
    kill "$holder"; wait "$holder" 2>/dev/null
    mkdir -p "$WORK/m4"
    if mkfs_quiet "$p2" && mount "$p2" "$WORK/m4" && track mount "$WORK/m4"; then
        before2=$(sum "$p2")
        out=$(w "$p1"); rc=$?
        check partition_sibling_mounted_allowed test "$rc" -eq 0
        check partition_sibling_untouched test "$before2" = "$(sum "$p2")"
        umount "$WORK/m4"
    else
        fail partition_sibling_mounted_allowed "could not mount ext4 on $p2"
    fi
else
    fail partition_disk_held "cannot partition a loop device here"
fi

# --- 5. writers with no file descriptor
d="$WORK/t5"
mkdir -p "$d"
own() { rm -f "$1"; "$SSDBENCH" run --filename="$1" --size=2m --rw=write --bs=64k --direct=0 -q >/dev/null 2>&1; }
mmap_holder() {
    # mmap(2) through ctypes: Python's mmap module keeps a duplicate descriptor
    python3 -c "
import ctypes, mmap, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDWR)
p = libc.mmap(None, 4096, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
assert p not in (None, ctypes.c_void_p(-1).value)
os.close(fd)
open(sys.argv[2], 'w').close()
time.sleep(60)" "$1" "$2" &
}
# a shared writable mapping whose descriptor was closed: of a file, of a device
own "$d/mapped.bin"
dev=$(make_loop 16)
for kind in file dev; do
    v="$d/mapped.bin"; [ $kind = dev ] && v=$dev
    rm -f "$WORK/mapped"
    mmap_holder "$v" "$WORK/mapped"
    holder=$!
    wait_for "$WORK/mapped"
    check "mmap_${kind}_descriptor_closed" bash -c "! ls -l /proc/$holder/fd | grep -q -- '$v'"
    before=$(sum "$v")
    out=$(w "$v"); rc=$?
    refused "mmap_$kind" "$v" "$before" "$rc" "$out" "process $holder (python3) maps it shared and writable"
    kill "$holder"; wait "$holder" 2>/dev/null
done
check mmap_released_file_writable bash -c "timeout 60 '$SSDBENCH' run --filename='$d/mapped.bin' --rw=write --bs=4k --size=2m --direct=0 -q >/dev/null 2>&1"

# an io_uring registered file whose descriptor was closed
if command -v cc >/dev/null && cc -o "$WORK/uring_holder" "$(dirname "$0")/../fixtures/uring_holder.c" -luring 2>/dev/null; then
    own "$d/ring.bin"
    for kind in file dev; do
        v="$d/ring.bin"; [ $kind = dev ] && v=$dev
        rm -f "$WORK/ring_ready"
        "$WORK/uring_holder" "$v" "$WORK/ring_ready" &
        holder=$!
        wait_for "$WORK/ring_ready"
        check "uring_${kind}_descriptor_closed" bash -c "! ls -l /proc/$holder/fd | grep -q -- '$v'"
        before=$(sum "$v")
        out=$(w "$v"); rc=$?
        refused "uring_$kind" "$v" "$before" "$rc" "$out" "process $holder (uring_holder) has it registered with its io_uring instance"
        kill "$holder"; wait "$holder" 2>/dev/null
    done
else
    skip uring_file "cc or liburing missing"
fi

# a user who cannot read root's descriptors: nobody's own file, held O_RDWR by root
d="$WORK/t5nr"
mkdir -p "$d" && chmod 711 "$WORK" && chown nobody "$d"
as_nobody() { (cd "$d" && timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"); }
as_nobody "$SSDBENCH" run --filename="$d/mine.bin" --size=2m --rw=write --bs=64k --direct=0 -q >/dev/null 2>&1
check nonroot_own_file_made test "$(stat -c %U "$d/mine.bin" 2>/dev/null)" = nobody
check nonroot_own_file_rewritable bash -c "cd '$d' && timeout 60 setpriv --reuid=nobody --regid=nogroup \
    --clear-groups '$SSDBENCH' run --filename='$d/mine.bin' --size=2m --rw=write --bs=64k --direct=0 -q >/dev/null 2>&1"
sleep 60 3<>"$d/mine.bin" &
holder=$!
before=$(sum "$d/mine.bin")
out=$(as_nobody "$SSDBENCH" run --filename="$d/mine.bin" --size=2m --rw=write --bs=4k --direct=0 -q 2>&1); rc=$?
kill "$holder"; wait "$holder" 2>/dev/null
refused nonroot_root_holder "$d/mine.bin" "$before" "$rc" "$out" "cannot tell whether it is in use (another process has it open)"
check nonroot_root_holder_says_why grep -q "(not root)" <<<"$out"
# a root-owned file others may write, consented: the kernel will not tell this user
# about other openers, and the scan cannot see root's descriptors
head -c 2097152 /dev/urandom >"$d/shared.bin" && chmod 666 "$d/shared.bin"
sleep 60 3<>"$d/shared.bin" &
holder=$!
before=$(sum "$d/shared.bin")
out=$(as_nobody "$SSDBENCH" run --filename="$d/shared.bin" --size=2m --rw=write --bs=4k --direct=0 -q \
    --destroy="$d/shared.bin" 2>&1); rc=$?
kill "$holder"; wait "$holder" 2>/dev/null
refused nonroot_consent "$d/shared.bin" "$before" "$rc" "$out" "cannot tell whether it is in use"
chmod 700 "$WORK"
exit 0
