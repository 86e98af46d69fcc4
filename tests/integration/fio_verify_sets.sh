#!/bin/bash
# run.sh: timeout 600
# fio_verify_sets.sh - verify with file sets, filename lists, fill_device
# and percentage sizes, side by side with fio 3.33:
#  - nrfiles (round robin, roundrobin:N, sequential, random service;
#    filesize; verify_backlog; loops; numjobs; block size ranges) and a
#    filename list: the reads and writes of every job equal fio's (bytes
#    where the block sizes are drawn), no error; randrw: every block read;
#  - verify_only over a file set written before: fio's reads, no error;
#    one block of one file damaged: both report error 84;
#  - fill_device on a small tmpfs: the file system fills, the job ends
#    without error and, as fio, without a verify phase (no reads), fio's
#    write count (the writes that found it full counted as issued, at
#    iodepth 1 and 4) and its io_u error lines; with nrfiles it is refused
#    in one line;
#  - size and offset in percent of a loop device: fio's counts.
source "$(dirname "$0")/lib.sh"

fio_side_by_side verifysets
cd "$WORK/run" || exit 1

# counts FILE [bytes]: "reads/writes/error" of every job of a JSON output
counts() {
    python3 - "$1" "${2:-total_ios}" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
k = sys.argv[2]
print(" ".join("%d/%d/%d" % (j["read"][k], j["write"][k], j["error"]) for j in d["jobs"]))
EOF
}
# both NAME ARGS...: the job under fio in dir f.NAME and under ssdbench in
# s.NAME (@D@ in ARGS is that directory); f.NAME.json, s.NAME.json
both() {
    local n=$1 tool dir
    shift
    for tool in f s; do
        dir="$WORK/run/$tool.$n"
        mkdir -p "$dir"
        [ $tool = f ] && bin=$FIO || bin=$SB
        (cd "$dir" && SSDBENCH_DESTROY=$dir timeout 120 "$bin" --output-format=json "${@//@D@/$dir}" \
            >"$WORK/run/$tool.$n.json" 2>"$WORK/run/$tool.$n.err")
    done
}

J="--name=vs --directory=@D@ --bs=4k --verify=crc32c"
cases=(
    "--rw=write --nrfiles=4 --size=1m"
    "--rw=randwrite --nrfiles=3 --size=1m --bs=8k"
    "--rw=randwrite --nrfiles=4 --filesize=128k --size=1m --file_service_type=sequential"
    "--rw=write --nrfiles=4 --size=1m --verify_backlog=8"
    "--rw=randwrite --nrfiles=4 --size=1m --file_service_type=roundrobin:2"
    "--rw=randwrite --nrfiles=4 --size=1m --file_service_type=random"
    "--rw=write --nrfiles=2 --size=1m --loops=2"
    "--rw=randwrite --nrfiles=4 --size=1m --numjobs=2"
    "--rw=write --nrfiles=3 --size=1m --verify=md5 --verify_backlog=5 --verify_backlog_batch=2"
)
i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    both "c$i" $J $c
    f=$(counts "f.c$i.json") s=$(counts "s.c$i.json")
    check "nrfiles:${c// /_} (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s" -a "${s##*/}" = 0
done
# drawn block sizes: the bytes
# shellcheck disable=SC2086
both bsr $J --rw=write --nrfiles=3 --size=1m --bsrange=4k-16k
f=$(counts f.bsr.json io_bytes) s=$(counts s.bsr.json io_bytes)
check "nrfiles:bsrange_bytes (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s"
# randrw: the split is each tool's draws; every write is read back, so
# the reads are the mixed reads and the writes together: the region's blocks
# shellcheck disable=SC2086
both rrw $J --rw=randrw --nrfiles=2 --size=1m
f=$(counts f.rrw.json) s=$(counts s.rrw.json)
check "nrfiles:randrw_reads (fio $f, ssdbench $s)" test "${f%%/*}" = 256 -a "${s%%/*}" = 256 -a "${s##*/}" = 0

# a filename list: each file's size given (fio shares size= out among the
# files of a list; ssdbench gives each its own, docs/fio.md)
both list --name=vs --filename=@D@/a:@D@/b:@D@/c --filesize=256k --bs=4k --verify=crc32c --rw=randwrite
f=$(counts f.list.json) s=$(counts s.list.json)
check "filename_list (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s" -a "${s##*/}" = 0

# verify_only over a file set written before; then one block damaged
V="--name=vs --directory=@D@ --bs=4k --verify=crc32c --rw=randwrite --nrfiles=3 --size=768k"
# shellcheck disable=SC2086
both vo $V --do_verify=0
# shellcheck disable=SC2086
both vo $V --verify_only=1
f=$(counts f.vo.json) s=$(counts s.vo.json)
check "verify_only:clean (fio $f, ssdbench $s)" test "${f%%/*}" = 192 -a "${s%%/*}" = 192 -a "${f##*/}" = 0 -a "${s##*/}" = 0
for tool in f s; do
    dd if=/dev/urandom of="$WORK/run/$tool.vo/vs.0.1" bs=4k seek=5 count=1 conv=notrunc status=none
done
# shellcheck disable=SC2086
both vo $V --verify_only=1
f=$(counts f.vo.json) s=$(counts s.vo.json)
check "verify_only:damage_found (fio $f, ssdbench $s)" test "${f##*/}" = 84 -a "${s##*/}" = 84

# fill_device with a file set: refused in one line naming the job
out=$(cd "$WORK/run" && SSDBENCH_DESTROY=$WORK/run timeout 20 "$SB" --name=vs --directory="$WORK/run" --nrfiles=2 \
    --size=1m --fill_device=1 --rw=write --verify=crc32c 2>&1 >/dev/null)
check "fill_device:nrfiles_refused ($out)" test "$(printf '%s\n' "$out" | wc -l)" = 1 \
    -a -n "$(printf '%s' "$out" | grep "job 'vs': nrfiles does not combine with fill_device")"

# fill_device on a small file system: full, no error, no verify phase
if is_root; then
    small="$WORK/small"
    mkdir -p "$small" && mount -t tmpfs -o size=8m tmpfs "$small" && track mount "$small"
    for qd in 1 4; do
        for tool in f s; do
            rm -f "$small"/*
            [ $tool = f ] && bin=$FIO || bin=$SB
            SSDBENCH_DESTROY=$small timeout 60 "$bin" --output-format=json --name=vs --filename="$small/fill" \
                --bs=64k --verify=crc32c --rw=write --fill_device=1 --size=16m --ioengine=libaio --iodepth=$qd \
                >"$tool.fill.json" 2>"$tool.fill.err"
        done
        f=$(counts f.fill.json) s=$(counts s.fill.json)
        check "fill_device:qd$qd:no_verify_phase (fio $f, ssdbench $s)" test "${f%%/*}" = 0 -a "${s%%/*}" = 0 \
            -a "${f##*/}" = 0 -a "${s##*/}" = 0 -a "$(echo "$s" | cut -d/ -f2)" -ge 120
        # fio counts the writes that found the file system full (129 at depth 1).
        # At depth 4 fio counts the 4 in flight (132, 4 error lines) and
        # ssdbench, on fio mode's one-I/O-per-submit queue, 129 with one line:
        # a known difference (docs/fio.md, fill_device), so depth 1 only
        [ "$qd" = 1 ] && check "fill_device:qd$qd:writes_as_fio (fio $f, ssdbench $s)" test "$f" = "$s"
        f=$(counts f.fill.json io_bytes) s=$(counts s.fill.json io_bytes)
        check "fill_device:qd$qd:bytes_as_fio (fio $f, ssdbench $s)" test "$f" = "$s"
        [ "$qd" = 1 ] && check "fill_device:qd$qd:error_lines" bash -c "diff <(grep '^fio: io_u error' f.fill.err) \
            <(grep '^fio: io_u error' s.fill.err) >/dev/null && grep -q 'No space left' s.fill.err"
    done

    # percentages of a loop device
    dev=$(make_loop 64) || dev=
    if [ -n "$dev" ]; then
        for c in "--rw=write --size=25%" "--rw=randwrite --size=10% --offset=50%"; do
            # shellcheck disable=SC2086
            SSDBENCH_DESTROY=$dev timeout 60 "$FIO" --output-format=json --name=vs --filename="$dev" --bs=64k \
                --verify=crc32c $c >f.pct.json 2>/dev/null
            # shellcheck disable=SC2086
            SSDBENCH_DESTROY=$dev timeout 60 "$SB" --output-format=json --name=vs --filename="$dev" --bs=64k \
                --verify=crc32c $c >s.pct.json 2>/dev/null
            f=$(counts f.pct.json) s=$(counts s.pct.json)
            check "percent:${c// /_} (fio $f, ssdbench $s)" test -n "$f" -a "$f" = "$s" -a "${s##*/}" = 0
        done
    else
        skip percent "no loop device"
    fi
else
    skip fill_device "needs root for a small tmpfs"
fi
