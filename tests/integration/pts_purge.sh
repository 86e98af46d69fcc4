#!/bin/bash
# pts_purge.sh - the purge, write cache and ActiveRange segmentation of
# `ssdbench purge` / `ssdbench pts` on loop devices (and a zram device of
# our own when the kernel offers zram-control): a virtual device is purged
# by discard, never by a device command, and says why; the guard refuses
# signatures without consent and a mounted device whatever the consent,
# with the bytes unchanged (checksums); queue/write_cache is set to the
# preset's state during the run and reads as before afterwards, also after
# a SIGINT; with --active-amount every I/O of the rounds (fio latency log
# with offsets) falls inside a recorded segment, all segments are touched,
# and the WIPC still covers the ActiveRange.
source "$(dirname "$0")/lib.sh"

is_root || { skip all "needs root for loop devices"; exit 0; }
dev=$(make_loop 64) || { skip all "no loop device"; exit 0; }
name=$(basename "$dev")
wc_attr=/sys/block/$name/queue/write_cache
SHORT=(--tc 1 --qd 2 --max-rounds 5 --capacity-scale 0.05 --round-time 0.2)

# ---- purge: a loop device gets discard, and the reason ---------------------------
"$SSDBENCH" purge --format json --destroy "$dev" "$dev" >"$WORK/purge.json" 2>"$WORK/purge.err"
check purge_runs test $? -eq 0
check purge_loop_discard test "$(json_get "$WORK/purge.json" 'd["purge"][0]["method"]')" = discard
check purge_loop_no_device_command test "$(json_get "$WORK/purge.json" 'd["purge"][0]["device_command"]')" = False
check purge_loop_reason grep -q "virtual device" "$WORK/purge.json"
"$SSDBENCH" purge --purge-method block "$dev" >"$WORK/purge.txt" 2>&1
check purge_block_mode grep -q "^$dev: discard" "$WORK/purge.txt"
"$SSDBENCH" purge --purge-method sanitize "$dev" >/dev/null 2>"$WORK/bad.err"
check purge_bad_method test $? -eq 2
check purge_bad_method_message grep -q "not auto or block" "$WORK/bad.err"

# zram: a device we add ourselves (never zram0), purged by discard
if [ -w /sys/class/zram-control/hot_add ]; then
    zid=$(cat /sys/class/zram-control/hot_add 2>/dev/null)
    if [ -n "$zid" ] && [ "$zid" != 0 ] && echo 32M >/sys/block/zram$zid/disksize 2>/dev/null; then
        "$SSDBENCH" purge --format json "/dev/zram$zid" >"$WORK/zram.json" 2>"$WORK/zram.err"
        zrc=$?
        echo "$zid" >/sys/class/zram-control/hot_remove 2>/dev/null
        check zram_runs test "$zrc" -eq 0
        check zram_discard test "$(json_get "$WORK/zram.json" 'd["purge"][0]["method"]')" = discard
        check zram_reason grep -q "virtual device" "$WORK/zram.json"
    else
        [ -n "$zid" ] && [ "$zid" != 0 ] && echo "$zid" >/sys/class/zram-control/hot_remove 2>/dev/null
        skip zram "could not size a new zram device"
    fi
else
    skip zram "no zram-control"
fi

# ---- the guard: signature without consent, mounted with consent; bytes kept --------
dev2=$(make_loop 32) || { skip guard "no second loop device"; exit 0; }
if command -v mkfs.ext4 >/dev/null; then
    mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1
    sum0=$(md5sum <"$dev2")
    "$SSDBENCH" purge "$dev2" >/dev/null 2>"$WORK/guard.err"
    check guard_signature_refused test $? -eq 2
    check guard_signature_message grep -q -- "--destroy" "$WORK/guard.err"
    check guard_signature_bytes test "$(md5sum <"$dev2")" = "$sum0"
    "$SSDBENCH" pts latency "${SHORT[@]}" -q "$dev2" >/dev/null 2>"$WORK/guard2.err"
    check guard_pts_refused test $? -eq 2
    check guard_pts_bytes test "$(md5sum <"$dev2")" = "$sum0"
    mkdir -p "$WORK/mnt" && mount -o ro,noload "$dev2" "$WORK/mnt" && track mount "$WORK/mnt"
    "$SSDBENCH" purge --destroy "$dev2" "$dev2" >/dev/null 2>"$WORK/guard3.err"
    check guard_mounted_refused test $? -eq 2
    check guard_mounted_message grep -q "mounted" "$WORK/guard3.err"
    umount "$WORK/mnt"
    check guard_mounted_bytes test "$(md5sum <"$dev2")" = "$sum0"
    "$SSDBENCH" purge --destroy "$dev2" "$dev2" >/dev/null 2>"$WORK/guard4.err"
    check guard_consent_purges test $? -eq 0
    check guard_consent_changed test "$(md5sum <"$dev2")" != "$sum0"
else
    need_tool mkfs.ext4 e2fsprogs guard
fi

# ---- write cache: the preset's state during the run, the original after ----------
echo "write back" >"$wc_attr"
"$SSDBENCH" pts latency "${SHORT[@]}" --result "$WORK/wce.json" "$dev" >"$WORK/wce.txt" 2>"$WORK/wce.err"
check wc_enterprise_runs test $? -eq 0
check wc_enterprise_during test "$(json_get "$WORK/wce.json" 'd["pts"]["write_cache"]["kernel"]')" = "write through"
check wc_enterprise_state test "$(json_get "$WORK/wce.json" 'd["pts"]["write_cache"]["state"]')" = WCD
check wc_enterprise_set_by test "$(json_get "$WORK/wce.json" 'd["pts"]["write_cache"]["set_by"]')" = kernel
check wc_enterprise_before test "$(json_get "$WORK/wce.json" 'd["pts"]["write_cache"]["before"]["kernel"]')" = "write back"
check wc_enterprise_restored_json test "$(json_get "$WORK/wce.json" 'd["pts"]["write_cache"]["restored"]')" = True
check wc_enterprise_restored test "$(cat "$wc_attr")" = "write back"
check wc_note_kernel_only grep -q "only changes whether the kernel sends flushes" "$WORK/wce.json"
check wc_text_line grep -q "write cache set:   by kernel; before the run WCE, after WCE (restored)" "$WORK/wce.txt"
check wc_text_purge grep -q "purge method:      discard (block layer, not a PTS purge)" "$WORK/wce.txt"
echo "write through" >"$wc_attr"
"$SSDBENCH" pts latency --client "${SHORT[@]}" --result "$WORK/wcc.json" "$dev" >/dev/null 2>&1
check wc_client_runs test $? -eq 0
check wc_client_during test "$(json_get "$WORK/wcc.json" 'd["pts"]["write_cache"]["kernel"]')" = "write back"
check wc_client_restored test "$(cat "$wc_attr")" = "write through"
echo "write back" >"$wc_attr"
# --write-cache keep: left as it is (WCE), and the Enterprise run says it is not WCD
"$SSDBENCH" pts latency --write-cache keep "${SHORT[@]}" --result "$WORK/wck.json" "$dev" >/dev/null 2>&1
check wc_keep_runs test $? -eq 0
check wc_keep_untouched test "$(json_get "$WORK/wck.json" 'd["pts"]["write_cache"]["kernel"]')" = "write back"
check wc_keep_attr test "$(cat "$wc_attr")" = "write back"
check wc_keep_noncompliant python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
sys.exit(0 if any(r.startswith('write cache WCE') and 'asks for WCD (--write-cache keep)' in r
                  for r in d['pts']['noncompliance']) else 1)" "$WORK/wck.json"

# SIGINT in the middle: the attribute is put back
"$SSDBENCH" pts iops --tc 1 --qd 2 --max-rounds 25 --capacity-scale 0.05 --round-time 60 \
    --result "$WORK/int.json" "$dev" >/dev/null 2>"$WORK/int.err" &
pid=$!
for _ in $(seq 1200); do
    [ "$(cat "$wc_attr")" = "write through" ] && break
    sleep 0.1
done
check wc_set_while_running test "$(cat "$wc_attr")" = "write through"
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
check wc_sigint_exit test "$rc" -eq 130
check wc_sigint_restored test "$(cat "$wc_attr")" = "write back"
check wc_sigint_json_restored test "$(json_get "$WORK/int.json" 'd["pts"]["write_cache"]["restored"]')" = True

# ---- ActiveRange segmentation: every round I/O inside a segment ------------------
mkdir -p "$WORK/logs"
"$SSDBENCH" pts latency --client "${SHORT[@]}" --active-amount 8m --segments 8 \
    --io-log "$WORK/logs/l" --result "$WORK/seg.json" "$dev" >"$WORK/seg.txt" 2>"$WORK/seg.err"
check seg_runs test $? -eq 0
check seg_text grep -q "AR segments:       8 of 1048576 bytes (amount 8388608 bytes)" "$WORK/seg.txt"
cat >"$WORK/check_seg.py" <<'EOF'
# argv: result, log dir. Every I/O of the rounds lies inside one recorded
# segment; all segments are touched; the segments are inside the
# ActiveRange, equal, and do not touch; the WIPC reaches beyond them.
import json, sys, glob, os
d = json.load(open(sys.argv[1]))
p = d["pts"]
sg = p["active_range_segments"]
st, L, n = sg["starts"], sg["segment_bytes"], sg["segments"]
ar = p["active_range_bytes"]
assert n == 8 and len(st) == 8 and L == 1 << 20, (n, len(st), L)
assert sg["amount_bytes"] == 8 << 20
for i in range(n):
    assert 0 <= st[i] and st[i] + L <= ar, ("outside the ActiveRange", i, st[i])
    if i:
        assert st[i] > st[i - 1] + L, ("segments touch", i - 1, i)
rounds = wipc = outside_wipc = bad = 0
touched = set()
for f in glob.glob(os.path.join(sys.argv[2], "*_lat.*.log")):
    is_wipc = "_wipc_" in os.path.basename(f)
    for line in open(f):
        t, v, dd, bs, off, prio = (int(x) for x in line.split(","))
        if is_wipc:
            wipc += 1
            if not any(s <= off and off + bs <= s + L for s in st):
                outside_wipc += 1
            continue
        rounds += 1
        hit = [i for i, s in enumerate(st) if s <= off and off + bs <= s + L]
        if not hit:
            bad += 1
        else:
            touched.add(hit[0])
assert rounds > 100, ("too few round I/Os logged", rounds)
assert bad == 0, ("I/Os outside the segments", bad, rounds)
assert len(touched) == n, ("segments touched", len(touched), n)
assert wipc > 0 and outside_wipc > 0, ("the WIPC should cover the ActiveRange", wipc, outside_wipc)
# the kernel's count: every logged round write is one the phases counted
phases = {ph["name"]: ph for ph in d["phases"]}
print("round I/Os %d in %d segments, WIPC %d (%d outside them)" % (rounds, len(touched), wipc, outside_wipc))
EOF
check seg_confined python3 "$WORK/check_seg.py" "$WORK/seg.json" "$WORK/logs"
"$SSDBENCH" pts latency --client "${SHORT[@]}" --active-amount 48m --segments 8 "$dev" >/dev/null 2>"$WORK/segbad.err"
check seg_too_big_refused test $? -ne 0
check seg_too_big_message grep -q "do not fit apart" "$WORK/segbad.err"
"$SSDBENCH" pts latency --active-amount lots "$dev" >/dev/null 2>"$WORK/segbad2.err"
check seg_bad_size test $? -eq 2
check seg_bad_size_message grep -q -- "--active-amount: 'lots'" "$WORK/segbad2.err"
"$SSDBENCH" pts latency --segments 8 "$dev" >/dev/null 2>"$WORK/segbad3.err"
check seg_needs_amount test $? -eq 2
check seg_needs_amount_message grep -q -- "--segments needs --active-amount" "$WORK/segbad3.err"
