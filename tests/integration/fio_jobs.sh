#!/bin/bash
# fio_jobs.sh - the job-file corpus in tests/fio-jobs (written in the shapes
# fio's examples and HOWTO use): every file parses without
# --ignore-unsupported (and with fio 3.33), and the files
# marked "; sample" run side by side with fio on a loop device with equal
# I/O counts per job and direction, and ssdbench's counts equal the
# kernel's for the device.
source "$(dirname "$0")/lib.sh"
CORPUS=$(cd "$(dirname "$0")/../fio-jobs" && pwd)

HAVE_FIO=0
need_tool fio fio && HAVE_FIO=1

n=0
for f in "$CORPUS"/*.fio; do
    name=$(basename "$f" .fio)
    n=$((n + 1))
    if "$SSDBENCH" run --parse-only "$f" >"$WORK/$name.parse" 2>&1; then
        pass "parses_$name"
    else
        fail "parses_$name" "$(head -2 "$WORK/$name.parse")"
    fi
    if [ $HAVE_FIO -eq 1 ]; then
        check "fio_parses_$name" fio --parse-only "$f" >/dev/null 2>&1
    fi
done
check corpus_not_empty test "$n" -ge 15

if [ $HAVE_FIO -eq 0 ]; then
    skip side_by_side "not compared: fio is missing (needs_fio)"
    exit 0
fi
dev=$(make_loop 64) || { skip side_by_side "no loop device (needs root)"; exit 0; }

# Per job name: its reads + writes summed over the job's clones (fio
# reports clones apart without group_reporting), and which directions it
# did; the direction counts too for a job that does only one (a mixed job
# draws each I/O's direction at random, so only the sum can match).
counts() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
acc = {}
for j in d["jobs"]:
    a = acc.setdefault(j["jobname"], [0, 0])
    a[0] += j["read"]["total_ios"]
    a[1] += j["write"]["total_ios"]
for k in sorted(acc):
    r, w = acc[k]
    print(k, r + w, ("read" if r else "") + ("write" if w else ""))
PY
}
# bytes NAME.sb.json DIR: ssdbench's bytes in that direction, all jobs
sb_bytes() { json_get "$1" "sum(j['$2']['io_bytes'] for j in d['jobs'])"; }
# sectors the kernel moved for the device: "read-sectors write-sectors"
disk_sectors() { awk '{print $3, $7}' "/sys/class/block/$(basename "$(readlink -f "$1")")/stat"; }

for f in "$CORPUS"/*.fio; do
    grep -q '^; sample' "$f" || continue
    name=$(basename "$f" .fio)
    jf=$WORK/$name.run.fio
    # the device under test replaces the file names the job file gives
    sed -e "s|^filename=.*|filename=$dev|" -e "s|^directory=.*|filename=$dev|" -e '/^unlink=/d' \
        "$f" >"$jf"
    (cd "$WORK" && timeout 60 fio --output-format=json "$jf" >"$name.fio.json" 2>"$name.fio.err") ||
        { fail "fio_runs_$name" "$(head -2 "$WORK/$name.fio.err")"; continue; }
    read -r r0 w0 < <(disk_sectors "$dev")
    (cd "$WORK" && "$SSDBENCH" run -q --output-format=json --result "$name.result" --destroy "$dev" "$jf" \
        >"$name.sb.json" 2>"$name.sb.err") ||
        { fail "ssdbench_runs_$name" "$(head -2 "$WORK/$name.sb.err")"; continue; }
    read -r r1 w1 < <(disk_sectors "$dev")
    counts "$WORK/$name.fio.json" >"$WORK/$name.fio.counts"
    counts "$WORK/$name.sb.json" >"$WORK/$name.sb.counts"
    if cmp -s "$WORK/$name.fio.counts" "$WORK/$name.sb.counts"; then
        pass "same_ios_as_fio_$name"
    else
        fail "same_ios_as_fio_$name" "fio: $(tr '\n' ';' <"$WORK/$name.fio.counts") ssdbench: $(tr '\n' ';' <"$WORK/$name.sb.counts")"
    fi
    # direct I/O: the bytes the kernel moved are ssdbench's (buffered I/O
    # goes through the page cache, which may absorb or add requests)
    if grep -q '^direct=1' "$f"; then
        check "kernel_read_bytes_$name" test $(((r1 - r0) * 512)) -eq "$(sb_bytes "$WORK/$name.sb.json" read)"
        check "kernel_write_bytes_$name" test $(((w1 - w0) * 512)) -eq "$(sb_bytes "$WORK/$name.sb.json" write)"
    fi
done
