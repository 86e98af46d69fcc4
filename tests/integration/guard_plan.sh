#!/bin/bash
# guard_plan.sh - a plan judged whole before its first write: a job file
# whose second phase targets a device with a file system (the FIRST device
# must stay untouched too), a target list whose second name is refused (the
# first is not created), a path swapped between phases; the write cache of
# a disk put back by 'recover' after kill -9; the memory of a plan refused
# under prlimit --as; the bytes include files may read; a new file larger
# than the free space; SIGINT during 'fileio prepare'. Each check compares
# sha256 sums or byte counts, not times.
source "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }
# one line of error; the guard's notes about a target it lets through (what
# its in-use walk could not see) are lines of their own, not the error
one_line() { test "$(printf '%s\n' "$1" | grep -v '^ssdbench: note: ' | wc -l)" -eq 1; }
# a sanitizer build reserves terabytes of address space: no ulimit -v or
# prlimit --as for it (its own allocations are bounded by the caps tested)
asan=0
grep -qa __asan_init "$SSDBENCH" 2>/dev/null && asan=1
limit_as() { if [ "$asan" = 1 ]; then "${@:2}"; else prlimit --as="$1" "${@:2}"; fi; }
# kills process $1 after 60 s unless unwatch is called with what this prints
# (its output closed, so a pipe reading the script's output is not held open)
watchdog() {
    (sleep 60 </dev/null >/dev/null 2>&1; kill -KILL "$1" 2>/dev/null) </dev/null >/dev/null 2>&1 &
    echo $!
}
unwatch() {
    local k
    k=$(ps -o pid= --ppid "$1" 2>/dev/null)
    kill "$1" $k 2>/dev/null
}

# --- item: every phase's targets judged before phase 1 writes
if blank=$(make_loop 8) && fs=$(make_loop 16); then
    head -c $((8 << 20)) /dev/zero >"$blank" 2>/dev/null
    mkfs.ext4 -q -F "$fs" >/dev/null 2>&1
    s_blank=$(sum "$blank")
    s_fs=$(sum "$fs")
    cat >"$WORK/two.fio" <<EOF
[global]
ioengine=psync
rw=write
bs=64k
size=1m
direct=0
[first]
filename=$blank
[second]
stonewall
filename=$fs
EOF
    out=$(timeout 60 "$SSDBENCH" run "$WORK/two.fio" -q 2>&1); rc=$?
    check phases_refused_exit2 test "$rc" -eq 2
    check phases_refused_one_line one_line "$out"
    check phases_refused_names_second grep -qF "$fs" <<<"$out"
    check phases_first_device_unchanged test "$s_blank" = "$(sum "$blank")"
    check phases_second_device_unchanged test "$s_fs" = "$(sum "$fs")"

    # --- a list whose second name is refused: the first is not created
    out=$(timeout 60 "$SSDBENCH" run --filename="$WORK/new.bin:$fs" --rw=write --bs=4k --size=64k \
        --direct=0 -q 2>&1); rc=$?
    check list_refused_exit2 test "$rc" -eq 2
    check list_refused_one_line one_line "$out"
    check list_first_not_created test ! -e "$WORK/new.bin"
    check list_device_unchanged test "$s_fs" = "$(sum "$fs")"

    # --- consent binds to what the path named at the check: a link that
    # names the blank device when the plan is judged, swapped to the ext4
    # device while phase 1 runs, must not lead phase 2 there
    d="$WORK/swap"
    mkdir -p "$d"
    s_blank=$(sum "$blank")
    ln -s "$blank" "$d/dev"
    cat >"$WORK/swap.fio" <<EOF
[global]
ioengine=psync
rw=write
bs=4k
direct=0
[slow]
filename=$d/own.bin
size=64k
rate=256k
[victim]
stonewall
filename=$d/dev
size=64k
EOF
    (
        for _ in $(seq 2400); do
            [ -e "$d/own.bin" ] && break
            sleep 0.05
        done
        ln -sfn "$fs" "$d/dev.new" && mv -Tf "$d/dev.new" "$d/dev"
    ) &
    swapper=$!
    out=$(timeout 60 "$SSDBENCH" run "$WORK/swap.fio" --destroy="$d/dev" -q 2>&1); rc=$?
    wait "$swapper"
    check swap_link_was_swapped test "$(readlink "$d/dev")" = "$fs"
    check swap_ext4_unchanged test "$s_fs" = "$(sum "$fs")"
    check swap_ran test "$rc" -eq 0
    check swap_wrote_what_was_judged test "$s_blank" != "$(sum "$blank")"
else
    skip phases "needs root for loop devices"
fi

# --- a file judged before phase 1, swapped for a link to a user's file
# while phase 1 runs: phase 2 refuses it (even with consent naming the path)
d="$WORK/fswap"
mkdir -p "$d"
timeout 30 "$SSDBENCH" run --filename="$d/ours.bin" --size=64k --rw=write --bs=4k --direct=0 -q >/dev/null 2>&1
head -c 65536 /dev/urandom >"$d/user.dat"
s_user=$(sum "$d/user.dat")
cat >"$WORK/fswap.fio" <<EOF
[global]
ioengine=psync
rw=write
bs=4k
direct=0
size=64k
[slow]
filename=$d/first.bin
rate=256k
[second]
stonewall
filename=$d/ours.bin
EOF
(
    for _ in $(seq 2400); do
        [ -e "$d/first.bin" ] && break
        sleep 0.05
    done
    ln -sfn user.dat "$d/l.new" && mv -Tf "$d/l.new" "$d/ours.bin"
) &
swapper=$!
out=$(timeout 60 "$SSDBENCH" run "$WORK/fswap.fio" --destroy="$d/ours.bin" -q 2>&1); rc=$?
wait "$swapper"
check fswap_link_was_swapped test -L "$d/ours.bin"
check fswap_refused test "$rc" -eq 2
check fswap_user_unchanged test "$s_user" = "$(sum "$d/user.dat")"

# --- includes: the job file and everything it includes read at most 4 MiB
d="$WORK/inc"
mkdir -p "$d"
python3 - "$d" <<'PY'
import sys
d = sys.argv[1]
open(d + '/c.fio', 'w').write(('#' + 'x' * 62 + '\n') * 750)      # 48000 bytes of comments
open(d + '/b.fio', 'w').write('include c.fio\n' * 300)
open(d + '/a.fio', 'w').write('[job]\nioengine=null\nsize=1m\n' + 'include b.fio\n' * 3000)
open(d + '/many.fio', 'w').write('[global]\nioengine=null\nsize=1m\n' +
                                 ''.join('[j%d]\n' % i for i in range(5000)))
PY
out=$(limit_as 1000000000 timeout 20 "$SSDBENCH" run --parse-only "$d/a.fio" 2>&1); rc=$?
check include_cap_exit2 test "$rc" -eq 2
check include_cap_one_line one_line "$out"
check include_cap_names_line grep -qE "b\.fio:[0-9]+: include '[^']*c\.fio': .*4 MiB" <<<"$out"
out=$(limit_as 1000000000 timeout 20 "$SSDBENCH" run --parse-only "$d/many.fio" 2>&1); rc=$?
check job_cap_exit2 test "$rc" -eq 2
check job_cap_one_line one_line "$out"
check job_cap_names_line grep -qE "many\.fio:[0-9]+: job 'j4096': more than 4096 jobs" <<<"$out"

# --- the memory a plan needs, computed before it is allocated (only ever
# tried under prlimit --as, so no run can push the host towards the OOM killer)
if [ "$asan" = 1 ]; then
    skip mem "a sanitizer build cannot run under prlimit --as"
else
out=$(cd "$WORK" && timeout 30 prlimit --as=1073741824 "$SSDBENCH" run --ioengine=null --filename=nul \
    --numjobs=128 --iodepth=65536 --bs=4k --size=1m -q 2>&1); rc=$?
check mem_refused_exit2 test "$rc" -eq 2
check mem_refused_one_line one_line "$out"
check mem_refused_product grep -qF "128 workers x iodepth 65536 x 4096 bytes = 32GiB of I/O buffers" <<<"$out"
check mem_refused_limit grep -qE "MemAvailable|RLIMIT_AS" <<<"$out"
out=$(cd "$WORK" && timeout 30 prlimit --as=536870912 "$SSDBENCH" run --ioengine=null --filename=nul \
    --numjobs=4 --iodepth=4096 --bs=64k --size=1m -q 2>&1); rc=$?
check mem_as_refused_exit2 test "$rc" -eq 2
check mem_as_refused_product grep -qF "4 workers x iodepth 4096 x 65536 bytes = 1GiB of I/O buffers" <<<"$out"
check mem_as_refused_limit grep -qE "MemAvailable|RLIMIT_AS" <<<"$out"
# the same plan with room for it runs
out=$(cd "$WORK" && timeout 30 prlimit --as=4294967296 "$SSDBENCH" run --ioengine=null --filename=nul \
    --numjobs=2 --iodepth=64 --bs=64k --size=1m -q --format=json 2>&1); rc=$?
check mem_small_runs test "$rc" -eq 0
fi

# --- a new file larger than the free space is refused before it is made
if is_root && fsdev=$(make_loop 48); then
    # no lazy inode-table init: nothing writes in the background after mount
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$fsdev" >/dev/null 2>&1
    mnt="$WORK/mnt"
    mkdir -p "$mnt"
    if mount "$fsdev" "$mnt"; then
        track mount "$mnt"
        name=$(basename "$fsdev")
        sync
        w0=$(awk '{print $7}' "/sys/class/block/$name/stat")
        out=$(timeout 60 "$SSDBENCH" run --filename="$mnt/new.bin" --size=1000000000000000000 --rw=write \
            --bs=1m --direct=0 -q 2>&1); rc=$?
        sync
        w1=$(awk '{print $7}' "/sys/class/block/$name/stat")
        check space_refused_exit2 test "$rc" -eq 2
        check space_refused_one_line one_line "$out"
        check space_refused_says_free grep -qE "1000000000000000000 bytes .* free; use a smaller --size" <<<"$out"
        check space_not_created test ! -e "$mnt/new.bin"
        # sectors written to the file system's device: none of the file's (under 1 MiB of metadata)
        check space_nothing_filled test $(((w1 - w0) * 512)) -lt $((1 << 20))
        # fileio: the same up front
        out=$(cd "$mnt" && timeout 60 "$SSDBENCH" fileio --file-num=2 --file-total-size=100G prepare 2>&1); rc=$?
        check fileio_space_refused test "$rc" -ne 0
        check fileio_space_says_free grep -q "free; use a smaller --file-total-size" <<<"$out"
        check fileio_space_not_created test ! -e "$mnt/test_file.0"
        umount "$mnt"
    else
        skip space "cannot mount ext4 on $fsdev"
    fi
else
    skip space "needs root for loop devices"
fi

# --- SIGINT during fileio prepare: it stops within a block or two. The
# process is stopped, its file size taken, SIGINT queued, then continued:
# at most the block in flight and one more may land after the signal.
if is_root; then
    d="$WORK/fprep"
    mkdir -p "$d"
    mount -t tmpfs -o size=300m tmpfs "$d" && track mount "$d"
    # SIGINT comes in ignored, as in any background job of a script
    (cd "$d" && trap '' INT && exec "$SSDBENCH" fileio --file-num=1 --file-total-size=256M \
        --file-block-size=16384 prepare >/dev/null 2>&1) &
    pid=$!
    watchdog=$(watchdog "$pid")
    for _ in $(seq 12000); do   # (120 s at most: a busy host starts it late)
        [ -f "$d/test_file.0" ] && [ "$(stat -c %s "$d/test_file.0")" -gt $((1 << 20)) ] && break
        sleep 0.01
    done
    kill -STOP "$pid" 2>/dev/null
    at=$(stat -c %s "$d/test_file.0" 2>/dev/null || echo 0)
    kill -INT "$pid" 2>/dev/null
    kill -CONT "$pid" 2>/dev/null
    wait "$pid"; rc=$?
    unwatch "$watchdog"
    end=$(stat -c %s "$d/test_file.0" 2>/dev/null || echo 0)
    check fileio_sigint_exit130 test "$rc" -eq 130
    check fileio_sigint_stopped_early test "$at" -gt 0 -a "$at" -lt $((256 << 20))
    check fileio_sigint_within_two_blocks test $((end - at)) -le $((2 * 16384))
else
    skip fileio_sigint "needs root for a tmpfs"
fi

# --- the write cache is the disk's: not changed under a partition whose
# sibling is mounted; written down before it changes; put back by
# 'recover' and by the next run after kill -9
SHORT=(--tc 1 --qd 2 --max-rounds 5 --capacity-scale 0.05 --round-time 0.2)
export SSDBENCH_STATE_DIR="$WORK/state"
# a partition's node: udev's, or made here (no udev in a container)
part_node() {
    local pn
    pn=$(basename "$1")p$2
    [ -e "/sys/class/block/$pn" ] || partx -a "$1" 2>/dev/null
    wait_for_file "/sys/class/block/$pn/dev"
    if [ -b "/dev/$pn" ]; then
        echo "/dev/$pn"
    elif [ -e "/sys/class/block/$pn/dev" ]; then
        IFS=: read -r ma mi <"/sys/class/block/$pn/dev"
        mknod "$WORK/$pn" b "$ma" "$mi" && echo "$WORK/$pn"
    fi
}
if is_root && command -v sgdisk >/dev/null; then
    pd="$WORK/ptmp"
    mkdir -p "$pd" && mount -t tmpfs -o size=80m tmpfs "$pd" && track mount "$pd"
    truncate -s 64M "$pd/img"
    sgdisk -o -n 1:2048:+24M -n 2:0:+24M "$pd/img" >/dev/null 2>&1
    pdev=$(losetup --find --show -P "$pd/img") && track loop "$pdev"
    p1=$(part_node "$pdev" 1)
    p2=$(part_node "$pdev" 2)
    pname=$(basename "$pdev")
    wc="/sys/block/$pname/queue/write_cache"
    if [ -b "$p1" ] && [ -b "$p2" ] && [ -w "$wc" ] && mkfs.ext4 -q -F "$p2" >/dev/null 2>&1 &&
        mkdir -p "$WORK/pmnt" && mount "$p2" "$WORK/pmnt"; then
        track mount "$WORK/pmnt"
        echo "write back" >"$wc"
        out=$(timeout 120 "$SSDBENCH" pts latency "${SHORT[@]}" -q --result "$WORK/part.json" "$p1" 2>&1); rc=$?
        check wc_partition_runs test "$rc" -eq 0
        check wc_partition_kept_during test "$(json_get "$WORK/part.json" 'd["pts"]["write_cache"]["kernel"]')" = "write back"
        check wc_partition_says_why grep -q "belongs to the whole disk $pname" "$WORK/part.json"
        check wc_partition_noncompliant grep -q "write cache WCE" "$WORK/part.json"
        check wc_partition_attr_kept test "$(cat "$wc")" = "write back"
        umount "$WORK/pmnt"
    else
        skip wc_partition "no partitioned loop device with a writable queue/write_cache"
    fi
else
    skip wc_partition "needs root and sgdisk (package gdisk)"
fi
if is_root && wdev=$(make_loop 64); then
    wname=$(basename "$wdev")
    wc="/sys/block/$wname/queue/write_cache"
    # a run killed while the cache is changed: the record names the original
    start_killed() {
        echo "write back" >"$wc"
        "$SSDBENCH" pts iops --tc 1 --qd 2 --max-rounds 25 --capacity-scale 0.05 --round-time 60 -q \
            "$wdev" >/dev/null 2>&1 &
        local pid=$!
        local dog
        dog=$(watchdog "$pid")
        for _ in $(seq 1200); do
            [ "$(cat "$wc")" = "write through" ] && break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        unwatch "$dog"
    }
    start_killed
    check wc_killed_left_changed test "$(cat "$wc")" = "write through"
    check wc_killed_recorded grep -q "before=write back" "$SSDBENCH_STATE_DIR/wcache-$wname"
    out=$(timeout 30 "$SSDBENCH" recover 2>&1); rc=$?
    check wc_recover_exit0 test "$rc" -eq 0
    check wc_recover_says grep -q "write cache of $wname restored to 'write back'" <<<"$out"
    check wc_recover_restored test "$(cat "$wc")" = "write back"
    check wc_recover_record_gone test ! -e "$SSDBENCH_STATE_DIR/wcache-$wname"
    # the next run on that disk puts it back first, and says so
    start_killed
    check wc_killed2_left_changed test "$(cat "$wc")" = "write through"
    out=$(timeout 120 "$SSDBENCH" pts latency --write-cache keep "${SHORT[@]}" --result "$WORK/next.json" "$wdev" 2>&1); rc=$?
    check wc_next_run_ok test "$rc" -eq 0
    check wc_next_run_says grep -q "write cache of $wname restored to 'write back'" <<<"$out"
    check wc_next_run_restored test "$(cat "$wc")" = "write back"
    check wc_next_run_json grep -q '"recovered"' "$WORK/next.json"
else
    skip wc_killed "needs root for loop devices"
fi
unset SSDBENCH_STATE_DIR
