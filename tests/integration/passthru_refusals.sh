#!/bin/bash
# passthru_refusals.sh - the passthrough engines (ioengine=io_uring_cmd,
# ioengine=sg) refuse, with one line and before any I/O, the targets they
# cannot drive: a regular file, a block device that is not an NVMe
# generic node or does not take SCSI commands (a loop device), a character
# device that addresses no disk (/dev/null), a trim job, the options they
# lack. The engines on real (emulated) devices: devlab.sh (tests/lab/checks_engines.sh); their
# job files in tests/fio-jobs parse in fio_jobs.sh.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH

f=$WORK/data
head -c 1048576 /dev/urandom >"$f"
sum0=$(sha256sum <"$f")
timeout 30 "$S" run -q --ioengine=io_uring_cmd --destroy "$f" --name=a --filename="$f" --rw=write --bs=4k --size=64k >"$WORK/file.out" 2>&1
rc=$?
check uring_cmd_file_refused test "$rc" -eq 2 -o "$rc" -eq 1
check uring_cmd_file_says_why grep -q "needs the namespace's NVMe generic character device (/dev/ngXnY), not a file" "$WORK/file.out"
check uring_cmd_file_bytes_kept test "$(sha256sum <"$f")" = "$sum0"
timeout 30 "$S" run -q --ioengine=sg --destroy "$f" --name=a --filename="$f" --rw=write --bs=4k --size=64k >"$WORK/sgfile.out" 2>&1
check sg_file_refused test $? -ne 0
check sg_file_says_why grep -q "ioengine=sg needs a SCSI disk" "$WORK/sgfile.out"
check sg_file_bytes_kept test "$(sha256sum <"$f")" = "$sum0"
timeout 30 "$S" run -q --ioengine=sg --name=a --filename=/dev/null --rw=read --bs=4k --size=64k >"$WORK/null.out" 2>&1
check sg_devnull_refused test $? -ne 0
check sg_devnull_says_why grep -q "neither an NVMe generic (ngXnY) nor a SCSI generic (sgN) device" "$WORK/null.out"
timeout 30 "$S" run -q --ioengine=psync --name=a --filename=/dev/null --rw=read --bs=4k --size=64k >"$WORK/null2.out" 2>&1
check other_engines_refuse_char_devices grep -q "not a regular file or block device (it is a character device)" "$WORK/null2.out"
timeout 30 "$S" run -q --ioengine=sg --destroy "$f" --name=a --filename="$f" --rw=randtrim --bs=4k --size=64k >"$WORK/trim.out" 2>&1
check sg_trim_refused grep -q "ioengine=sg runs reads and writes on device targets (no trims)" "$WORK/trim.out"
timeout 30 "$S" run -q --ioengine=sg --name=a --filename="$f" --rw=read --sg_write_mode=write_stream >"$WORK/ws.out" 2>&1
check sg_write_stream_unsupported grep -q "unsupported sg_write_mode 'write_stream'" "$WORK/ws.out"
timeout 30 "$S" run -q --ioengine=io_uring_cmd --cmd_type=scsi --name=a --filename="$f" --rw=read >"$WORK/ct.out" 2>&1
check cmd_type_scsi_unsupported grep -q "unsupported cmd_type 'scsi' (expected nvme)" "$WORK/ct.out"

if dev=$(make_loop 16); then
    timeout 30 "$S" run -q --ioengine=io_uring_cmd --destroy "$dev" --name=a --filename="$dev" --rw=read --bs=4k --size=64k >"$WORK/loop.out" 2>&1
    check uring_cmd_loop_refused grep -q "(/dev/ngXnY), not a block device" "$WORK/loop.out"
    timeout 30 "$S" run -q --ioengine=sg --destroy "$dev" --name=a --filename="$dev" --rw=read --bs=4k --size=64k >"$WORK/sgloop.out" 2>&1
    check sg_loop_refused grep -q "does not take SCSI commands (SG_IO)" "$WORK/sgloop.out"
else
    skip loop "no loop device (needs root)"
fi
