#!/bin/bash
# guard.sh - the destructive-write guard tried as an attacker would: a symlink
# swapped between check and open, a mark carried by copied or overwritten
# files, consent against a device in use (held O_EXCL, mounted in another
# mount namespace), fileio beside a user's test_file.0, a GPT whose primary
# header was wiped, FIFOs as targets. Every safety check compares sha256 sums
# of the bytes that must survive, not only exit codes.
source "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }
no_destroy_hint() { ! grep -q -- "--destroy" <<<"$1"; }
q() { "$@" >/dev/null 2>&1; }
one_line() { test "$(printf '%s\n' "$1" | wc -l)" -eq 1; }

# --- the symlink race: a link flipping between ssdbench's file and a victim
d="$WORK/race"
mkdir -p "$d"
"$SSDBENCH" run --filename="$d/own.bin" --size=64k --rw=write --bs=4k --direct=0 -q >/dev/null 2>&1
head -c 65536 /dev/urandom >"$d/victim.bin"
victim=$(sum "$d/victim.bin")
ln -s own.bin "$d/link"
(
    while :; do
        ln -sfn victim.bin "$d/tmp.a" && mv -Tf "$d/tmp.a" "$d/link"
        ln -sfn own.bin "$d/tmp.b" && mv -Tf "$d/tmp.b" "$d/link"
    done
) &
flipper=$!
ok=0 refused=0
for _ in $(seq 200); do
    if "$SSDBENCH" run --filename="$d/link" --size=64k --rw=write --bs=4k --direct=0 -q >/dev/null 2>&1; then
        ok=$((ok + 1))
    else
        refused=$((refused + 1))
    fi
done
kill "$flipper" 2>/dev/null
wait "$flipper" 2>/dev/null
check symlink_race_victim_unchanged test "$victim" = "$(sum "$d/victim.bin")"
# both sides of the race were hit: some runs wrote ssdbench's file, some were refused
check symlink_race_both_sides test "$ok" -gt 0 -a "$refused" -gt 0
check symlink_race_own_still_ours q "$SSDBENCH" run --filename="$d/own.bin" --size=64k --rw=write --bs=4k --direct=0 -q

# --- the mark binds to what ssdbench left, not to whatever carries the attribute
d="$WORK/mark"
mkdir -p "$d"
head -c 65536 /dev/urandom >"$d/user.dat"
w() { "$SSDBENCH" run --filename="$1" --size=64k --rw=write --bs=4k --direct=0 -q 2>&1; }
w "$d/made.bin" >/dev/null
check mark_own_file_rewritable q w "$d/made.bin"
cat "$d/user.dat" >"$d/made.bin"
before=$(sum "$d/made.bin")
out=$(w "$d/made.bin"); rc=$?
check mark_after_cat_refused test "$rc" -eq 2
check mark_after_cat_untouched test "$before" = "$(sum "$d/made.bin")"
check mark_after_cat_message grep -q "did not create" <<<"$out"
# a write within the same timestamp tick as ssdbench's close, same size
w "$d/tick.bin" >/dev/null && dd if="$d/user.dat" of="$d/tick.bin" conv=notrunc status=none
before=$(sum "$d/tick.bin")
out=$(w "$d/tick.bin"); rc=$?
check mark_same_tick_write_refused test "$rc" -eq 2 -a "$before" = "$(sum "$d/tick.bin")"
w "$d/orig.bin" >/dev/null
cp --preserve=xattr "$d/orig.bin" "$d/copy.bin"
cp -a "$d/orig.bin" "$d/copy_a.bin"
for f in copy copy_a; do
    before=$(sum "$d/$f.bin")
    out=$(w "$d/$f.bin"); rc=$?
    check "mark_${f}_refused" test "$rc" -eq 2 -a "$before" = "$(sum "$d/$f.bin")"
done
if command -v setfattr >/dev/null && command -v getfattr >/dev/null; then
    cp "$d/user.dat" "$d/hand.bin"
    setfattr -n user.ssdbench -v 1 "$d/hand.bin"
    out=$(w "$d/hand.bin"); rc=$?
    check mark_by_hand_refused test "$rc" -eq 2 -a "$(sum "$d/user.dat")" = "$(sum "$d/hand.bin")"
    # even the exact value of a genuine mark does not transfer to another file
    cp "$d/user.dat" "$d/forged.bin"
    v=$(getfattr --only-values -n user.ssdbench "$d/orig.bin")
    setfattr -n user.ssdbench -v "$v" "$d/forged.bin"
    out=$(w "$d/forged.bin"); rc=$?
    check mark_forged_value_refused test "$rc" -eq 2 -a "$(sum "$d/user.dat")" = "$(sum "$d/forged.bin")"
else
    need_tool setfattr attr mark_by_hand_refused; need_tool getfattr attr mark_by_hand_refused
fi
# consent still overrides for files
check mark_consent_overrides q "$SSDBENCH" run --filename="$d/copy.bin" --size=64k --rw=write --bs=4k \
    --direct=0 -q --destroy="$d/copy.bin"

# --- FIFOs, directories and sockets as targets: one line, no hang
mkfifo "$WORK/fifo"
for rw in read write; do
    out=$(timeout 10 "$SSDBENCH" run --filename="$WORK/fifo" --rw=$rw --bs=4k --size=64k -q 2>&1); rc=$?
    check "fifo_${rw}_no_hang" test "$rc" -ne 124 -a "$rc" -ne 0
    check "fifo_${rw}_one_line" one_line "$out"
    check "fifo_${rw}_says_fifo" grep -q "FIFO" <<<"$out"
done
out=$(timeout 10 "$SSDBENCH" run --filename="$WORK" --rw=read --bs=4k --size=64k -q 2>&1); rc=$?
check directory_refused test "$rc" -ne 124 -a "$rc" -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" -eq 1

# --- fileio beside a user's own test_file.0
d="$WORK/fileio"
mkdir -p "$d"
head -c 1048576 /dev/urandom >"$d/test_file.0"
user=$(sum "$d/test_file.0")
fio() { (cd "$d" && "$SSDBENCH" fileio --file-num=2 --file-total-size=2M "$@" 2>&1); }
out=$(fio prepare); rc=$?
check fileio_prepare_refused test "$rc" -eq 2 -a "$user" = "$(sum "$d/test_file.0")"
check fileio_prepare_wrote_nothing test ! -e "$d/test_file.1"
check fileio_prepare_names_override grep -q -- "--destroy=\." <<<"$out"
out=$(fio --file-test-mode=rndwr --events=100 --time=0 run); rc=$?
check fileio_run_refused test "$rc" -eq 2 -a "$user" = "$(sum "$d/test_file.0")"
out=$(fio cleanup); rc=$?
check fileio_cleanup_keeps_user_file test "$rc" -eq 2 -a "$user" = "$(sum "$d/test_file.0")"
# a file of ssdbench's beside it is removed; the user's stays
(cd "$d" && "$SSDBENCH" fileio --file-num=1 --file-total-size=1M --file-block-size=4096 prepare >/dev/null 2>&1)
mv "$d/test_file.0" "$d/keep"
(cd "$d" && "$SSDBENCH" fileio --file-num=1 --file-total-size=1M prepare >/dev/null 2>&1)
mv "$d/test_file.0" "$d/test_file.1"
mv "$d/keep" "$d/test_file.0"
out=$(fio cleanup); rc=$?
check fileio_cleanup_removes_only_own test "$rc" -eq 2 -a ! -e "$d/test_file.1" -a "$user" = "$(sum "$d/test_file.0")"
# consent for the directory: prepare adopts it, run writes, cleanup removes
out=$(fio --destroy=. prepare); rc=$?
check fileio_consent_prepare test "$rc" -eq 0
out=$(fio --file-test-mode=rndwr --events=100 --time=0 run); rc=$?
check fileio_consent_then_run test "$rc" -eq 0
out=$(fio cleanup); rc=$?
check fileio_consent_then_cleanup test "$rc" -eq 0 -a ! -e "$d/test_file.0"
# a symlink under a test name is never followed by cleanup
head -c 4096 /dev/urandom >"$d/precious"
p=$(sum "$d/precious")
ln -s precious "$d/test_file.0"
out=$(fio cleanup); rc=$?
check fileio_cleanup_keeps_symlink test "$rc" -eq 2 -a -L "$d/test_file.0" -a "$p" = "$(sum "$d/precious")"
rm -f "$d/test_file.0"

# --- purge opens through the same guard: a user's file is refused, ssdbench's
# own is purged and stays ssdbench's (its mark renewed after the punch)
d="$WORK/purge"
mkdir -p "$d"
w "$d/own.bin" >/dev/null
check purge_own_file q "$SSDBENCH" purge "$d/own.bin"
check purge_own_file_still_ours q w "$d/own.bin"
head -c 65536 /dev/urandom >"$d/user.bin"
before=$(sum "$d/user.bin")
out=$("$SSDBENCH" purge "$d/user.bin" 2>&1); rc=$?
check purge_user_file_refused test "$rc" -eq 2 -a "$before" = "$(sum "$d/user.bin")"
out=$(timeout 10 "$SSDBENCH" purge "$WORK/fifo" 2>&1); rc=$?
check purge_fifo_refused test "$rc" -eq 2

# --- block devices (root only)
if ! is_root; then
    skip devices "not root (loop devices need root)"
    exit 0
fi

fill() { dd if=/dev/urandom of="$1" bs=1M count="$2" oflag=direct status=none; }

# held O_EXCL by another process: refused even with consent
dev=$(make_loop 16) || { skip excl_held "cannot make a loop device"; dev=""; }
if [ -n "$dev" ]; then
    fill "$dev" 16
    before=$(sum "$dev")
    python3 -c "import os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_EXCL); print('held', flush=True); time.sleep(60)" "$dev" >"$WORK/held" &
    holder=$!
    for _ in $(seq 2400); do grep -q held "$WORK/held" && break; sleep 0.05; done
    out=$("$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m --destroy="$dev" -q 2>&1); rc=$?
    kill "$holder"; wait "$holder" 2>/dev/null
    check excl_held_refused test "$rc" -eq 2
    check excl_held_untouched test "$before" = "$(sum "$dev")"
    check excl_held_no_destroy_hint no_destroy_hint "$out"
    check excl_held_one_line one_line "$out"
    # purge is refused the same way, and once released consent works
    check excl_released_consent_writes q "$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m --destroy="$dev" -q
fi

# mounted in another mount namespace (not visible in ours): refused with consent
if command -v mkfs.ext4 >/dev/null && command -v e2fsck >/dev/null; then
    dev=$(make_loop 32)
    if [ -n "$dev" ] && mkfs.ext4 -q -F "$dev" >/dev/null 2>&1; then
        mkdir -p "$WORK/nsmnt"
        unshare -m --propagation private sh -c \
            "mount '$dev' '$WORK/nsmnt' && echo 'data' >'$WORK/nsmnt/f' && touch '$WORK/ns_ready'; exec sleep 60" &
        nspid=$!
        wait_for_file "$WORK/ns_ready"
        if [ -e "$WORK/ns_ready" ] && ! grep -q "$WORK/nsmnt" /proc/self/mountinfo; then
            out=$("$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=4m --destroy="$dev" -q 2>&1); rc=$?
            check ns_mounted_refused test "$rc" -eq 2
            check ns_mounted_says_mounted grep -q "mounted on" <<<"$out"
            check ns_mounted_no_destroy_hint no_destroy_hint "$out"
            out=$("$SSDBENCH" purge --destroy="$dev" "$dev" 2>&1); rc=$?
            check ns_mounted_purge_refused test "$rc" -eq 2
            kill "$nspid"; wait "$nspid" 2>/dev/null
            for _ in $(seq 1200); do
                python3 -c "import os,sys; os.close(os.open(sys.argv[1], os.O_RDONLY|os.O_EXCL))" "$dev" 2>/dev/null && break
                sleep 0.1
            done
            check ns_mounted_fs_clean e2fsck -fn "$dev"
        else
            kill "$nspid" 2>/dev/null; wait "$nspid" 2>/dev/null
            skip ns_mounted_refused "cannot mount in a private mount namespace here"
        fi
    fi
else
    need_tool mkfs.ext4 e2fsprogs ns_mounted_refused; need_tool e2fsck e2fsprogs ns_mounted_refused
fi

# a partition mounted in another namespace, the whole device targeted
if command -v sgdisk >/dev/null && command -v mkfs.ext4 >/dev/null; then
    img="$WORK/part.img"
    truncate -s 32M "$img"
    sgdisk -o -n 1:2048:0 "$img" >/dev/null 2>&1
    pdev=$(losetup --find --show -P "$img") && track loop "$pdev"
    part=""
    if [ -n "$pdev" ]; then
        pn=$(basename "$pdev")p1
        [ -e "/sys/class/block/$pn" ] || partx -a "$pdev" 2>/dev/null
        part=${pdev}p1
        if [ ! -b "$part" ] && [ -e "/sys/class/block/$pn/dev" ]; then
            # no udev here: make the partition's node ourselves
            part="$WORK/$pn"
            IFS=: read -r ma mi <"/sys/class/block/$pn/dev"
            mknod "$part" b "$ma" "$mi"
        fi
    fi
    if [ -n "$part" ] && [ -b "$part" ] && mkfs.ext4 -q -F "$part" >/dev/null 2>&1; then
        mkdir -p "$WORK/nsmnt2"
        rm -f "$WORK/ns_ready"
        unshare -m --propagation private sh -c \
            "mount '$part' '$WORK/nsmnt2' && touch '$WORK/ns_ready'; exec sleep 60" &
        nspid=$!
        wait_for_file "$WORK/ns_ready"
        before=$(sum "$pdev")
        out=$("$SSDBENCH" run --filename="$pdev" --rw=write --bs=4k --size=1m --destroy="$pdev" -q 2>&1); rc=$?
        check ns_partition_mounted_refused test "$rc" -eq 2 -a "$before" = "$(sum "$pdev")"
        check ns_partition_says_partition grep -q "$(basename "$pdev")p1 is mounted" <<<"$out"
        check ns_partition_no_destroy_hint no_destroy_hint "$out"
        kill "$nspid"; wait "$nspid" 2>/dev/null
    else
        skip ns_partition_mounted_refused "cannot partition a loop device here"
    fi
else
    need_tool sgdisk gdisk ns_partition_mounted_refused; need_tool mkfs.ext4 e2fsprogs ns_partition_mounted_refused
fi

# GPT with the primary header wiped, backup intact: not blank
if command -v sgdisk >/dev/null; then
    dev=$(make_loop 16)
    sgdisk -o -n 1:0:0 "$dev" >/dev/null 2>&1
    dd if=/dev/zero of="$dev" bs=512 count=34 conv=notrunc oflag=direct status=none
    before=$(sum "$dev")
    out=$("$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m -q 2>&1); rc=$?
    check backup_gpt_refused test "$rc" -eq 2 -a "$before" = "$(sum "$dev")"
    check backup_gpt_says_gpt grep -qi "gpt" <<<"$out"
    check backup_gpt_names_override grep -q -- "--destroy=$dev" <<<"$out"
    check backup_gpt_consent_writes q "$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m -q --destroy="$dev"
else
    need_tool sgdisk gdisk backup_gpt_refused
fi

# an md 1.0 superblock magic at the end of an otherwise blank device
dev=$(make_loop 16)
python3 - "$dev" <<'EOF'
import os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
size = os.lseek(fd, 0, os.SEEK_END)
sectors = size // 512
os.pwrite(fd, struct.pack("<I", 0xa92b4efc) + b"\0" * 508, ((sectors - 16) & ~7) * 512)
os.fsync(fd)
os.close(fd)
EOF
before=$(sum "$dev")
out=$("$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m -q 2>&1); rc=$?
check md10_end_refused test "$rc" -eq 2 -a "$before" = "$(sum "$dev")"

# --- a regular file in use: the backing file of a loop device (a file system
# may live on it) is refused, even when ssdbench made it and with consent;
# found by inode, so a second hard link to it is refused too
d="$WORK/backing"
mkdir -p "$d"
"$SSDBENCH" run --filename="$d/img.bin" --size=4m --rw=write --bs=64k --direct=0 -q >/dev/null 2>&1
ln "$d/img.bin" "$d/alias.bin"
if lo=$(losetup --find --show "$d/img.bin" 2>/dev/null); then
    track loop "$lo"
    before=$(sum "$d/img.bin")
    out=$("$SSDBENCH" run --filename="$d/img.bin" --size=4m --rw=write --bs=64k --direct=0 -q 2>&1); rc=$?
    check loop_backing_refused test "$rc" -eq 2 -a "$before" = "$(sum "$d/img.bin")"
    check loop_backing_names_loop grep -q "backing file of $lo" <<<"$out"
    check loop_backing_one_line one_line "$out"
    check loop_backing_no_destroy_hint no_destroy_hint "$out"
    out=$("$SSDBENCH" run --filename="$d/alias.bin" --size=4m --rw=write --bs=64k --direct=0 -q \
        --destroy="$d/alias.bin" 2>&1); rc=$?
    check loop_backing_link_consent_refused test "$rc" -eq 2 -a "$before" = "$(sum "$d/img.bin")"
    # reading it stays allowed
    check loop_backing_read_allowed q "$SSDBENCH" run --filename="$d/img.bin" --size=4m --rw=read --bs=64k \
        --direct=0 -q
    losetup -d "$lo"
    check loop_backing_detached_writable q "$SSDBENCH" run --filename="$d/img.bin" --size=4m --rw=write \
        --bs=64k --direct=0 -q --destroy="$d/img.bin"
else
    fail loop_backing_refused "losetup could not attach $d/img.bin"
fi

# --- another process holds the target open for writing (a database on a raw
# device, a VM on an image file): in use, refused even with consent; a
# process that only reads it does not count
dev=$(make_loop 16)
before=$(sum "$dev")
sleep 60 3<>"$dev" &
holder=$!
out=$("$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m -q --destroy="$dev" 2>&1); rc=$?
kill $holder; wait $holder 2>/dev/null
check open_writer_dev_refused test "$rc" -eq 2 -a "$before" = "$(sum "$dev")"
check open_writer_dev_names_pid grep -q "process $holder (sleep) has it open for writing" <<<"$out"
check open_writer_dev_no_destroy_hint no_destroy_hint "$out"
sleep 60 3<"$dev" &
reader=$!
check open_reader_dev_allowed q "$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m -q
kill $reader; wait $reader 2>/dev/null
d="$WORK/openw"
mkdir -p "$d"
"$SSDBENCH" run --filename="$d/own.bin" --size=64k --rw=write --bs=4k --direct=0 -q >/dev/null 2>&1
before=$(sum "$d/own.bin")
sleep 60 3>>"$d/own.bin" &
holder=$!
out=$("$SSDBENCH" run --filename="$d/own.bin" --size=64k --rw=write --bs=4k --direct=0 -q 2>&1); rc=$?
kill $holder; wait $holder 2>/dev/null
check open_writer_file_refused test "$rc" -eq 2 -a "$before" = "$(sum "$d/own.bin")"
check open_writer_file_names_pid grep -q "process $holder (sleep)" <<<"$out"
check open_writer_file_released q "$SSDBENCH" run --filename="$d/own.bin" --size=64k --rw=write --bs=4k --direct=0 -q

# an active swap file (on a small ext4 file system on a loop device)
dev=$(make_loop 48)
mnt="$WORK/swapfs"
mkdir -p "$mnt"
if mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 && mount "$dev" "$mnt" && track mount "$mnt" &&
    dd if=/dev/zero of="$mnt/swap" bs=1M count=16 status=none && chmod 600 "$mnt/swap" &&
    mkswap "$mnt/swap" >/dev/null 2>&1; then
    if swapon "$mnt/swap" 2>/dev/null; then
        before=$(sum "$mnt/swap")
        out=$("$SSDBENCH" run --filename="$mnt/swap" --size=1m --rw=write --bs=4k --direct=0 -q \
            --destroy="$mnt/swap" 2>&1); rc=$?
        swapoff "$mnt/swap"
        check swapfile_refused test "$rc" -eq 2 -a "$before" = "$(sum "$mnt/swap")"
        check swapfile_says_swap grep -q "active swap file" <<<"$out"
    else
        skip swapfile_refused "swapon is not permitted here"
    fi
    umount "$mnt"
else
    fail swapfile_refused "could not make an ext4 file system with a swap file on $dev"
fi

# several jobs on one device share the O_EXCL hold (a second O_EXCL open would fail)
dev=$(make_loop 16)
check two_jobs_one_device q "$SSDBENCH" run --filename="$dev" --rw=write --bs=4k --size=1m --numjobs=1 \
    --name=a --name=b -q
exit 0
