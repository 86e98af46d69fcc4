#!/bin/bash
# core.sh - `ssdbench run` end to end: exact counts against the kernel's own
# counters on a RAM-backed loop device, the destructive-write guard (ext4
# signature, mounted device, existing file), I/O errors reported not crashed
# on, SIGINT leaving a complete result, bad input as one-line errors.
source "$(dirname "$0")/lib.sh"

# --- bad input: exit 2, one line, nearest option suggested
out=$("$SSDBENCH" run --engine=null --sise=1g 2>&1); rc=$?
check bad_option_exit2 test "$rc" -eq 2
check bad_option_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
check bad_option_suggests grep -q "size" <<<"$out"
out=$("$SSDBENCH" run --engine=null --bs=4q 2>&1); rc=$?
check bad_value_exit2 test "$rc" -eq 2
check bad_value_named grep -q "4q" <<<"$out"
out=$("$SSDBENCH" runn 2>&1); rc=$?
check bad_command_suggests grep -q "did you mean 'run'" <<<"$out"

# --- null engine: size-bounded count is exact, JSON valid
"$SSDBENCH" run --engine=null --size=256m --bs=4k --iodepth=16 --format json -o "$WORK/null.json" 2>/dev/null
check null_exact_count test "$(json_get "$WORK/null.json" "d['phases'][0]['results'][0]['read']['ios']")" = 65536
check null_schema test "$(json_get "$WORK/null.json" "d['schema']")" = "ssdbench-result/1"
"$SSDBENCH" show "$WORK/null.json" >"$WORK/show.txt"
check show_rerenders grep -q "IOPS" "$WORK/show.txt"
"$SSDBENCH" show --format csv "$WORK/null.json" >"$WORK/show.csv"
check show_csv test "$(head -1 "$WORK/show.csv" | cut -d, -f1)" = "phase"

# --- --profile splices a profile's options; later options override it
"$SSDBENCH" run --profile database --rwmixread=66 --engine=null --size=1g --runtime=1 -q --format json -o "$WORK/prof.json" 2>/dev/null
check profile_applied test "$(json_get "$WORK/prof.json" "d['phases'][0]['jobs'][0]['params']['bs']")" = 8192
check profile_overridden test "$(json_get "$WORK/prof.json" "d['phases'][0]['jobs'][0]['params']['rwmixread']")" = 66
check profile_unknown_suggests grep -q "did you mean 'database'" <("$SSDBENCH" run --profile databse --engine=null 2>&1)

# --- files: a file ssdbench creates is its own; an existing foreign file is refused
f="$WORK/data.bin"
"$SSDBENCH" run --filename="$f" --size=16m --rw=randwrite --bs=4k --runtime=1 -q --result "$WORK/w.json" >/dev/null 2>&1
check file_created_and_written test "$(json_get "$WORK/w.json" "d['phases'][0]['results'][0]['write']['ios'] > 0")" = True
head -c 1048576 /dev/urandom >"$WORK/foreign.bin"
sum_before=$(md5sum <"$WORK/foreign.bin")
out=$("$SSDBENCH" run --filename="$WORK/foreign.bin" --rw=write --bs=4k --direct=0 2>&1); rc=$?
check foreign_file_refused test "$rc" -eq 2
check foreign_file_message grep -q -- "--destroy=$WORK/foreign.bin" <<<"$out"
check foreign_file_untouched test "$sum_before" = "$(md5sum <"$WORK/foreign.bin")"

# --- SIGINT: complete result marked interrupted, exit 130
"$SSDBENCH" run --engine=null --size=1g --runtime=30 -q --result "$WORK/int.json" >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/int.json.partial"
kill -INT $pid
wait $pid; rc=$?
check sigint_exit_130 test "$rc" -eq 130
check sigint_result_interrupted test "$(json_get "$WORK/int.json" "d['interrupted']")" = True
check sigint_result_has_ios test "$(json_get "$WORK/int.json" "d['phases'][0]['results'][0]['read']['ios'] > 0")" = True

# --- kill -9: the interval rows measured so far survive in RESULT.partial
"$SSDBENCH" run --engine=null --size=1g --runtime=30 -q --result "$WORK/k9.json" >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/k9.json.partial"
kill -KILL $pid
wait $pid 2>/dev/null
check kill9_partial_kept test "$(grep -c '^\[' "$WORK/k9.json.partial" 2>/dev/null)" -ge 1
# ... and two stonewalled phases each get their own rows from the shared journal
printf '[global]\nioengine=null\nsize=1g\ntime_based\nruntime=2\n[a]\nrw=randread\n[b]\nstonewall\nrw=randwrite\n' >"$WORK/two.fio"
"$SSDBENCH" run "$WORK/two.fio" -q --result "$WORK/two.json" >/dev/null 2>&1
check two_phases_rows test "$(json_get "$WORK/two.json" "[len(p['intervals']['rows']) for p in d['phases']] == [2, 2] and d['phases'][0]['intervals']['rows'][0][7] == 0 and d['phases'][1]['intervals']['rows'][0][1] == 0")" = True
check journal_removed test ! -e "$WORK/two.json.partial"

# --- SIGTERM: the same, exit 143
"$SSDBENCH" run --engine=null --size=1g --runtime=30 -q --result "$WORK/term.json" >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/term.json.partial"
kill -TERM $pid
wait $pid; rc=$?
check sigterm_exit_143 test "$rc" -eq 143
check sigterm_result_signal test "$(json_get "$WORK/term.json" "d['signal']")" = SIGTERM

# --- mixed runs: the combined direction adds up and merges the histograms
"$SSDBENCH" run --engine=null --rw=randrw --rwmixread=70 --size=64m -q --format json -o "$WORK/mix.json" 2>/dev/null
check combined_ios_add_up test "$(json_get "$WORK/mix.json" "(lambda s: s['combined']['ios'] == s['read']['ios'] + s['write']['ios'] == 16384)(d['phases'][0]['results'][0])")" = True
check combined_hist_merged test "$(json_get "$WORK/mix.json" "(lambda s: s['combined']['latency_ns']['n'] == s['read']['latency_ns']['n'] + s['write']['latency_ns']['n'] and s['combined']['latency_ns']['max'] == max(s['read']['latency_ns']['max'], s['write']['latency_ns']['max']))(d['phases'][0]['results'][0])")" = True

if ! is_root; then
    skip loop_device_tests "not root: loop devices need root"
    exit 0
fi

# --- loop device: counts equal the kernel's
settle() { command -v udevadm >/dev/null && udevadm settle 2>/dev/null; sleep 0.2; }
dev=$(make_loop 256) || { skip loop_device_tests "cannot create a loop device"; exit 0; }
settle
read r0 w0 < <(disk_ios "$dev")
"$SSDBENCH" run --filename="$dev" --rw=randrw --rwmixread=60 --bs=4k --iodepth=8 --runtime=2 \
    --destroy="$dev" -q --result "$WORK/loop.json" >/dev/null 2>&1
rc=$?
read r1 w1 < <(disk_ios "$dev")
check loop_run_ok test "$rc" -eq 0
kr=$((r1 - r0)); kw=$((w1 - w0))
sr=$(json_get "$WORK/loop.json" "d['phases'][0]['results'][0]['read']['ios']")
sw=$(json_get "$WORK/loop.json" "d['phases'][0]['results'][0]['write']['ios']")
# The guard's signature probe reads a few blocks before the run starts, so the
# read count is compared with the kernel's counters ssdbench sampled around
# the measured phase; writes come only from the run, so the outside view agrees.
ks="d['phases'][0]['kernel_stats'][0]"
kr_in=$(json_get "$WORK/loop.json" "$ks['read_ios'] + $ks['read_merges']")
kw_in=$(json_get "$WORK/loop.json" "$ks['write_ios'] + $ks['write_merges']")
check loop_reads_equal_kernel_in_phase test "$sr" = "$kr_in"
check loop_writes_equal_kernel_in_phase test "$sw" = "$kw_in"
check loop_writes_equal_kernel_outside test "$sw" = "$kw"
check loop_reads_outside_only_add_probe test $((kr - sr)) -ge 0 -a $((kr - sr)) -le 64
check loop_did_io test "$sr" -gt 100
for eng in psync libaio io_uring; do
    settle
    read r0 w0 < <(disk_ios "$dev")
    "$SSDBENCH" run --filename="$dev" --rw=randread --bs=4k --iodepth=4 --runtime=1 --engine=$eng \
        -q --result "$WORK/loop-$eng.json" >/dev/null 2>&1
    read r1 w1 < <(disk_ios "$dev")
    check "loop_${eng}_reads_equal_kernel" test "$(json_get "$WORK/loop-$eng.json" "d['phases'][0]['results'][0]['read']['ios']")" = "$((r1 - r0))"
done
check loop_device_identity test "$(json_get "$WORK/loop.json" "d['targets'][0]['kind']")" = block

# --- an unconsented write to a blank device is refused? No: a blank device is
# writable only with consent when it holds a signature. Make an ext4 signature.
if command -v mkfs.ext4 >/dev/null; then
    dev2=$(make_loop 64)
    mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1
    before=$(md5sum <"$dev2")
    out=$("$SSDBENCH" run --filename="$dev2" --rw=write --bs=4k --size=1m 2>&1); rc=$?
    check ext4_refused_exit2 test "$rc" -eq 2
    check ext4_refused_says_ext4 grep -q "ext4" <<<"$out"
    check ext4_refused_names_override grep -q -- "--destroy=$dev2" <<<"$out"
    check ext4_bytes_unchanged test "$before" = "$(md5sum <"$dev2")"
    # mounted: refused even with consent
    mnt="$WORK/mnt"; mkdir -p "$mnt"
    if mount "$dev2" "$mnt" 2>/dev/null; then
        track mount "$mnt"
        out=$("$SSDBENCH" run --filename="$dev2" --rw=write --bs=4k --size=1m --destroy="$dev2" 2>&1); rc=$?
        check mounted_refused test "$rc" -eq 2
        check mounted_refused_says_where grep -q "mounted on $mnt" <<<"$out"
        umount "$mnt"
    else
        skip mounted_refused "cannot mount ext4 here"
    fi
    # with consent and unmounted: allowed
    "$SSDBENCH" run --filename="$dev2" --rw=write --bs=4k --size=1m --destroy="$dev2" -q >/dev/null 2>&1
    check ext4_consent_allows test $? -eq 0
    # reading is always allowed
    mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1
    "$SSDBENCH" run --filename="$dev2" --rw=randread --bs=4k --size=1m -q >/dev/null 2>&1
    check read_always_allowed test $? -eq 0
else
    need_tool mkfs.ext4 e2fsprogs ext4_refused
fi

# --- a device in use as swap is refused, consent or not
if command -v mkswap >/dev/null && command -v swapon >/dev/null; then
    sdev=$(make_loop 32)
    if mkswap "$sdev" >/dev/null 2>&1 && swapon "$sdev" 2>/dev/null; then
        out=$("$SSDBENCH" run --filename="$sdev" --rw=write --bs=4k --size=1m 2>&1); rc=$?
        swapoff "$sdev"
        check swap_refused test "$rc" -eq 2
        check swap_refused_says_swap grep -q "swap" <<<"$out"
    else
        skip swap_refused "cannot enable swap on a loop device here"
    fi
fi
# --- a device held by device-mapper is refused
if command -v dmsetup >/dev/null; then
    hdev=$(make_loop 32)
    if dmsetup create "ssdbench-test-$$" --table "0 65536 linear $hdev 0" 2>/dev/null; then
        out=$("$SSDBENCH" run --filename="$hdev" --rw=write --bs=4k --size=1m 2>&1); rc=$?
        dmsetup remove "ssdbench-test-$$"
        check holder_refused test "$rc" -eq 2
        check holder_refused_says_held grep -q "held by" <<<"$out"
    else
        skip holder_refused "cannot create a device-mapper device here"
    fi
else
    skip holder_refused "dmsetup is not installed"
fi

# --- O_DIRECT alignment: a 4 KiB-sector device refuses 512-byte blocks clearly
if sdev=$(losetup --find --show --sector-size 4096 "$(dirname "$(losetup -nO BACK-FILE "$dev")")/img" 2>/dev/null); then
    track loop "$sdev"
    out=$("$SSDBENCH" run --filename="$sdev" --rw=randread --bs=512 --size=1m 2>&1); rc=$?
    check align_refused_exit2 test "$rc" -eq 2
    check align_message grep -q "logical block size 4096" <<<"$out"
else
    skip align_refused "losetup --sector-size not supported"
fi

# --- I/O error: a loop device over a sparse file on a tiny tmpfs runs out of space
tiny="$WORK/tiny"; mkdir -p "$tiny"
if mount -t tmpfs -o size=8m tmpfs "$tiny"; then
    track mount "$tiny"
    truncate -s 256M "$tiny/sparse.img"
    edev=$(losetup --find --show "$tiny/sparse.img")
    track loop "$edev"
    out=$("$SSDBENCH" run --filename="$edev" --rw=write --bs=64k --iodepth=4 --size=64m --destroy="$edev" \
        -q --result "$WORK/err.json" 2>&1); rc=$?
    check ioerror_exit1 test "$rc" -eq 1
    check ioerror_recorded test "$(json_get "$WORK/err.json" "len(d['errors']) > 0 and d['errors'][0]['count'] > 0")" = True
    check ioerror_stopped_by test "$(json_get "$WORK/err.json" "d['phases'][0]['stopped_by']")" = error
    check ioerror_said_plainly grep -q "error.* on $edev" <<<"$out"
else
    skip ioerror "cannot mount a tmpfs"
fi
exit 0
