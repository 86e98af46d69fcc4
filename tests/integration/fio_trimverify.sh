#!/bin/bash
# run.sh: timeout 600
# fio_trimverify.sh - verify's trims of written blocks (trim_percentage,
# trim_backlog, trim_backlog_batch, trim_verify_zero) side by side with fio
# 3.33 on a RAM-backed loop device (its discard zeroes the range):
#  - size-bounded rw=trimwrite / randtrimwrite jobs (fio 3.33 trims written
#    blocks only for these) with several percentages, backlogs and batches,
#    verify=crc32c and md5, do_verify=0, verify_backlog(_batch), libaio at
#    depth, randseed, random_generator=tausworthe64, trim_verify_zero=0,
#    number_ios (it counts these trims), loops (fio draws each pass's trims from the seed again; the first trim
#    of a trimwrite pass waits for the check of the last pass), and a file
#    of several jobs and clones, and such jobs on the command line (fio's
#    per-thread trim draws): the reads,
#    writes and trims of every job equal fio's, with no error;
#  - the trims in fio's text (issued rwts) equal fio's, and the kernel's
#    discard counter grows by the result's trims; every block trimmed last
#    reads back as zeros;
#  - verify_only after a run without those trims: the blocks the replay
#    trims do not read zero, reported as fio reports it ("trim: verify
#    failed at file ...", error 84), in the result (problem "zeros after
#    trim"); with trim_verify_zero=0 they are not checked (fio's reads);
#  - a regular file on tmpfs (ssdbench punches holes): fio's counts on
#    the device, verify clean; fio 3.33 itself fails the first trim of a
#    file (ENOTTY, error 25), so it has no counts there to compare;
#  - refusals in one line: verify trims on rw=write (fio 3.33 aborts such
#    a job).
source "$(dirname "$0")/lib.sh"

fio_side_by_side trimverify
if ! is_root; then
    skip all "needs root for loop devices"
    exit 0
fi
dev=$(make_loop 48) || { skip all "no loop device"; exit 0; }
name=$(basename "$dev")
export SSDBENCH_DESTROY=$dev
cd "$WORK/run" || exit 1

# counts FILE: "reads/writes/trims/error" of every job of a JSON output
counts() {
    python3 - "$1" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
print(" ".join("%d/%d/%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"],
                                j["error"]) for j in d["jobs"]))
EOF
}
run() { local out=$1; shift; timeout 120 "$@" --output-format=json >"$out" 2>"$out.err"; }

J="--name=tv --filename=$dev --size=1m --bs=4k --verify=crc32c"
cases=(
    "--rw=trimwrite --trim_percentage=100 --trim_backlog=8"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --trim_backlog_batch=2"
    "--rw=trimwrite --trim_percentage=30 --trim_backlog=1"
    "--rw=trimwrite --trim_percentage=100 --trim_backlog=3 --trim_backlog_batch=2"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --trim_verify_zero=0"
    "--rw=trimwrite --trim_percentage=50"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --do_verify=0"
    "--rw=trimwrite --trim_percentage=70 --trim_backlog=4 --verify=md5 --bs=8k"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --verify_backlog=16"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --verify_backlog=16 --trim_verify_zero=0"
    "--rw=trimwrite --trim_percentage=80 --trim_backlog=3 --trim_backlog_batch=1 --verify_backlog=4 --verify_backlog_batch=9"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --randseed=1234"
    "--rw=trimwrite --trim_percentage=99 --trim_backlog=2 --size=4m"
    "--rw=trimwrite --trim_percentage=50 --trim_backlog=8 --ioengine=libaio --iodepth=4"
    "--rw=randtrimwrite --trim_percentage=50 --trim_backlog=8"
    "--rw=randtrimwrite --trim_percentage=50 --trim_backlog=8 --trim_verify_zero=0"
    "--rw=randtrimwrite --trim_percentage=50 --trim_backlog=5 --verify_backlog=7 --verify_backlog_batch=3"
    "--rw=randtrimwrite --trim_percentage=50 --trim_backlog=5 --verify_backlog=7 --verify_backlog_batch=3 --trim_verify_zero=0"
    "--rw=randtrimwrite --trim_percentage=50 --trim_backlog=8 --random_generator=tausworthe64"
    "--rw=randtrimwrite --trim_percentage=60 --trim_backlog=6 --ioengine=libaio --iodepth=8 --direct=1"
    "--rw=trimwrite --trim_percentage=40 --trim_backlog=3 --number_ios=100"
    "--rw=randtrimwrite --trim_percentage=70 --trim_backlog=2 --number_ios=77"
    "--rw=trimwrite --loops=2"
    "--rw=randtrimwrite --loops=3"
    "--rw=trimwrite --loops=2 --trim_percentage=50 --trim_backlog=8"
    "--rw=randtrimwrite --loops=2 --trim_percentage=30 --trim_backlog=4 --trim_verify_zero=0"
    "--rw=trimwrite --loops=3 --trim_percentage=60 --trim_backlog=5 --trim_backlog_batch=2 --verify_backlog=12"
)
i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    run "f$i.json" "$FIO" $J $c && run "s$i.json" "$SB" $J $c ||
        { fail "case$i" "a run failed ($c): $(head -c 300 "s$i.json.err")"; continue; }
    f=$(counts "f$i.json") s=$(counts "s$i.json")
    check "counts:${c// /_} (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s" -a "${s##*/}" = 0
done

# one job file: a writer, a job of two clones and a third job; fio draws
# each thread's trims from its own stream (thread numbers 1, 2-3, 4)
cat >multi.fio <<EOF
[global]
filename=$dev
size=1m
bs=4k
verify=crc32c
trim_percentage=40
trim_backlog=4
[a]
rw=write
do_verify=0
offset=4m
[b]
rw=trimwrite
numjobs=2
offset_increment=1m
[c]
rw=trimwrite
offset=8m
EOF
run fm.json "$FIO" multi.fio && run sm.json "$SB" multi.fio
f=$(counts fm.json) s=$(counts sm.json)
check "counts:job-file-with-clones (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s"
# the same numbering for jobs given on the command line (threads 1-2, 3, 4)
C="--filename=$dev --size=1m --bs=4k --verify=crc32c --trim_percentage=40 --trim_backlog=4 --rw=trimwrite"
# shellcheck disable=SC2086
run fc.json "$FIO" --name=a $C --numjobs=2 --offset_increment=1m --name=b $C --offset=8m \
    --name=c $C --offset=12m --random_generator=tausworthe64 &&
    run sc.json "$SB" --name=a $C --numjobs=2 --offset_increment=1m --name=b $C --offset=8m \
        --name=c $C --offset=12m --random_generator=tausworthe64
f=$(counts fc.json) s=$(counts sc.json)
check "counts:command-line-jobs (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s"

# fio's text: the trims in issued rwts
T="$J --rw=trimwrite --trim_percentage=50 --trim_backlog=8"
# shellcheck disable=SC2086
f=$(timeout 60 "$FIO" $T | grep -o 'total=[0-9,]*') s=$(timeout 60 "$SB" $T | grep -o 'total=[0-9,]*')
check "text:issued_rwts (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s"

# the kernel's discards: every trim reached the device; with 100% and a
# backlog of 1 every block's last operation is its trim, so all read zero
discards() { awk '{print $12 + $13}' "/sys/class/block/$name/stat"; }
dd if=/dev/urandom of="$dev" bs=1M count=1 oflag=direct status=none
before=$(discards)
# shellcheck disable=SC2086
run k.json "$SB" $J --rw=trimwrite --trim_percentage=100 --trim_backlog=1 --direct=1
after=$(discards)
t=$(python3 -c 'import json,sys; t=open(sys.argv[1]).read(); print(json.loads(t[t.index("{"):])["jobs"][0]["trim"]["total_ios"])' k.json)
check "kernel:discards (result $t, kernel $((after - before)))" test "$t" = 512 -a "$((after - before))" = "$t"
check "kernel:trimmed_blocks_read_zero" cmp -s -n 1048576 "$dev" /dev/zero

# verify_only after writes without trims of written blocks (do_verify=0
# logs none): the replay trims them, so they must read zero and do not
V="--name=tv --filename=$dev --size=256k --bs=4k --rw=trimwrite --verify=crc32c"
for tool in fio ssdbench; do
    [ $tool = fio ] && bin=$FIO || bin=$SB
    # shellcheck disable=SC2086
    timeout 60 "$bin" $V --do_verify=0 >/dev/null 2>&1
    # shellcheck disable=SC2086
    run "vo-$tool.json" "$bin" $V --trim_percentage=100 --trim_backlog=8 --verify_only=1
    # shellcheck disable=SC2086
    run "vz-$tool.json" "$bin" $V --trim_percentage=100 --trim_backlog=8 --verify_only=1 --trim_verify_zero=0
done
first() { grep -m1 '^trim: verify failed' "$1"; }
f=$(first vo-fio.json.err) s=$(first vo-ssdbench.json.err)
check "not-zero:message (fio '$f', ssdbench '$s')" test -n "$f" -a "$f" = "$s"
f=$(counts vo-fio.json) s=$(counts vo-ssdbench.json)
check "not-zero:error_84 (fio $f, ssdbench $s)" test "${f##*/}" = 84 -a "${s##*/}" = 84
printf '[tv]\nfilename=%s\nsize=256k\nbs=4k\nrw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=8\nverify_only=1\n' \
    "$dev" >vo.fio
timeout 60 "$SSDBENCH" run -q --destroy="$dev" --result vo.res vo.fio >/dev/null 2>&1
p=$(json_get vo.res 'd["phases"][0]["jobs"][0]["verify"]["first_bad"]["problem"]' 2>/dev/null)
check "not-zero:result_problem ($p)" test "$p" = "zeros after trim"
f=$(counts vz-fio.json) s=$(counts vz-ssdbench.json)
check "trim_verify_zero=0:not_checked (fio $f, ssdbench $s)" test "${f%%/*}" = "${s%%/*}" -a "${s##*/}" = 0 \
    -a "${f##*/}" = 0 -a "${s%%/*}" -lt 64

# a regular file on tmpfs: ssdbench's trims punch holes and the draws, so
# the counts, are fio's on the device (case 16); fio 3.33 cannot trim a
# file (BLKDISCARD: ENOTTY), its job stops at the first trim, error 25
F="$(dirname "$(losetup -nO BACK-FILE "$dev")")/file" # on the loop device's tmpfs
FJ="--name=tv --bs=4k --verify=crc32c --rw=randtrimwrite --trim_percentage=50 --trim_backlog=8"
# shellcheck disable=SC2086
run rf.json "$SB" $FJ --filename="$F" --size=1m
s=$(counts rf.json) f=$(counts f16.json)
check "file:fio_device_counts (ssdbench file $s, fio device $f)" test -n "$s" -a "$s" = "$f"
rm -f "$F.fio"
# shellcheck disable=SC2086
timeout 60 "$FIO" $FJ --filename="$F.fio" --size=1m --output-format=json >ff.json 2>ff.json.err
f=$(counts ff.json)
check "file:fio_fails_trims_on_a_file (fio $f)" test "$f" = 0/0/1/25
rm -f "$F" "$F.fio"

# refusals, one line each
# shellcheck disable=SC2086
out=$(timeout 20 "$SB" $J --rw=write --trim_percentage=10 --trim_backlog=4 2>&1 >/dev/null)
check "refused:rw=write ($out)" test "$(printf '%s\n' "$out" | wc -l)" = 1 -a -n "$(printf '%s' "$out" | grep 'trimwrite')"
