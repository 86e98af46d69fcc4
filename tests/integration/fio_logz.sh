#!/bin/bash
# fio_logz.sh - log_compression / log_store_compressed and --inflate-log
# against fio 3.33: ssdbench's NAME.log.fz is what fio's --inflate-log
# reads (fio's binary samples, zlib streams one after another), ssdbench's
# --inflate-log prints fio's own .fz files as fio does, and log_compression
# alone leaves the text log as fio leaves it (one line per I/O).
source "$(dirname "$0")/lib.sh"

fio_side_by_side fio_logz
mkdir -p "$WORK/sb" "$WORK/fio"
JOB=(--name=job --ioengine=null --filesize=8m --bs=4k --rw=write --write_bw_log=test --per_job_logs=0
     --log_offset=1 --log_compression=10K)
# offsets NAME: "lines first last" of an inflated or plain log on stdin
offsets() { awk -F', ' '{n++; if (n == 1) f = $5; l = $5} END {print n, f, l}'; }

(cd "$WORK/sb" && timeout 60 "$SB" "${JOB[@]}" --output-format=json >plain.json 2>plain.err)
check plain-log-lines [ "$(offsets <"$WORK/sb/test_bw.log")" = "2048 0 8384512" ]
rm -f "$WORK/sb/test_bw.log"
(cd "$WORK/sb" && timeout 60 "$SB" "${JOB[@]}" --log_store_compressed=1 --output-format=json >gz.json 2>gz.err)
ok=no; [ -s "$WORK/sb/test_bw.log.fz" ] && [ ! -e "$WORK/sb/test_bw.log" ] && ok=yes
check fz-written [ "$ok" = yes ]
a=$(timeout 30 "$SB" --inflate-log="$WORK/sb/test_bw.log.fz" | sha256sum)
check inflate-own [ "$(timeout 30 "$SB" --inflate-log="$WORK/sb/test_bw.log.fz" | offsets)" = "2048 0 8384512" ]
timeout 30 "$SB" --inflate-log="$WORK/nonexistent.fz" >/dev/null 2>"$WORK/inf.err"
rc=$?; ok=no; [ $rc -ne 0 ] && grep -q 'nonexistent.fz' "$WORK/inf.err" && ok=yes
check inflate-missing-file [ "$ok" = yes ]

b=$(timeout 30 "$FIO" --inflate-log="$WORK/sb/test_bw.log.fz" | sha256sum)
check fio-inflates-ours [ "$a" = "$b" ]
(cd "$WORK/fio" && timeout 60 "$FIO" "${JOB[@]}" --log_store_compressed=1 --output-format=json >gz.json 2>gz.err)
c=$(timeout 30 "$FIO" --inflate-log="$WORK/fio/test_bw.log.fz" | sha256sum)
d=$(timeout 30 "$SB" --inflate-log="$WORK/fio/test_bw.log.fz" | sha256sum)
ok=no; [ -s "$WORK/fio/test_bw.log.fz" ] && [ "$c" = "$d" ] && ok=yes
check ours-inflates-fios [ "$ok" = yes ]
