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
one_line() { test "$(printf '%s\n' "$1" | wc -l)" -eq 1; }

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
        for _ in $(seq 200); do
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
out=$( (ulimit -v 1000000; timeout 20 "$SSDBENCH" run --parse-only "$d/a.fio") 2>&1); rc=$?
check include_cap_exit2 test "$rc" -eq 2
check include_cap_one_line one_line "$out"
check include_cap_names_line grep -qE "b\.fio:[0-9]+: include '[^']*c\.fio': .*4 MiB" <<<"$out"
out=$( (ulimit -v 1000000; timeout 20 "$SSDBENCH" run --parse-only "$d/many.fio") 2>&1); rc=$?
check job_cap_exit2 test "$rc" -eq 2
check job_cap_one_line one_line "$out"
check job_cap_names_line grep -qE "many\.fio:[0-9]+: job 'j4096': more than 4096 jobs" <<<"$out"

# --- the memory a plan needs, computed before it is allocated (only ever
# tried under prlimit --as, so no run can push the host towards the OOM killer)
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
