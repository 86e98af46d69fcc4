#!/bin/bash
# io_semantics.sh - what a job's I/O is, checked on the bytes: one random
# write pass with the random map leaves no block of a zeroed file unwritten
# (and without it about 1/e), a size-bounded sequential bssplit job writes
# exactly its region in order and never wraps (offsets from the fio-format
# lat log with log_offset=1; byte counts equal fio's when fio is installed),
# and slat/clat/lat logs agree per I/O (slat + clat == lat).
source "$(dirname "$0")/lib.sh"

F=$WORK/data
zero_blocks() {
    python3 - "$1" <<'EOF'
import sys
z, n = bytes(4096), 0
with open(sys.argv[1], "rb") as f:
    while True:
        b = f.read(4096)
        if not b:
            break
        n += b == z
print(n)
EOF
}
fresh() { rm -f "$F"; dd if=/dev/zero of="$F" bs=1M count="$1" status=none; }
# sb NAME ARGS...: runs ssdbench on $F; a failure is a FAIL line for NAME
sb() {
    local name=$1
    shift
    (cd "$WORK" && "$SSDBENCH" run -q --filename="$F" --destroy="$F" --engine=psync "$@" >/dev/null 2>"$WORK/err") ||
        { fail "$name" "ssdbench failed: $(head -3 "$WORK/err")"; return 1; }
}

# --- coverage of one random pass -------------------------------------------
fresh 16
if sb coverage-map --rw=randwrite --bs=4k --size=16m; then
    z=$(zero_blocks "$F")
    check coverage-map [ "$z" = 0 ] || echo "  $z of 4096 blocks unwritten"
fi
fresh 16
if sb coverage-map-bssplit --rw=randwrite --bssplit=4k/50:16k/30:64k/20 --size=16m; then
    z=$(zero_blocks "$F")
    check coverage-map-bssplit [ "$z" = 0 ] || echo "  $z of 4096 blocks unwritten"
fi
fresh 16
if sb coverage-norandommap --rw=randwrite --bs=4k --size=16m --norandommap; then
    z=$(zero_blocks "$F")
    # 1/e of 4096 is 1507; +- 4.5 sigma (~140)
    check coverage-norandommap [ "$z" -gt 1300 ] && [ "$z" -lt 1720 ] || echo "  $z unwritten"
fi

# --- sequential bssplit: exactly the region, in order ------------------------
fresh 8
seq_ok() {
    python3 - "$WORK/sq_lat.1.log" "$1" <<'EOF'
import sys
pos, region = 0, int(sys.argv[2])
for line in open(sys.argv[1]):
    t, v, d, bs, off, prio = (int(x) for x in line.split(", "))
    # psync completes in order: each I/O starts where the last ended
    assert off == pos, f"I/O at {off}, want {pos}"
    pos += bs
    assert pos <= region, f"past the region end: {pos}"
assert pos == region, f"{pos} bytes, region {region}"
EOF
}
for size in 4194304 4206592; do   # 4 MiB, and 4 MiB + 12 KiB (the 256k/64k sizes no longer fit)
    rm -f "$WORK"/sq_*.log
    if sb "seq-bssplit-exact-$size" --rw=write --bssplit=4k/50:64k/30:256k/20 --size=$size --write_lat_log=sq --log_offset=1; then
        check "seq-bssplit-exact-$size" seq_ok $size
        if command -v fio >/dev/null 2>&1; then
            fb=$(cd "$WORK" && fio --name=s --filename="$F" --rw=write --bssplit=4k/50:64k/30:256k/20 \
                --size=$size --ioengine=psync --output-format=json 2>/dev/null |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["write"]["io_bytes"])')
            check "seq-bssplit-bytes-as-fio-$size" [ "$fb" = "$size" ] || echo "  fio wrote $fb"
        fi
    fi
done

# --- slat, clat and lat -----------------------------------------------------
lat_ok() {
    python3 - "$WORK" "$1" <<'EOF'
import sys
d, n = sys.argv[1], int(sys.argv[2])
def rows(k):
    return [[int(x) for x in l.split(", ")] for l in open(f"{d}/sl_{k}.1.log")]
lat, clat, slat = rows("lat"), rows("clat"), rows("slat")
assert len(lat) == len(clat) == len(slat) == n, (len(lat), len(clat), len(slat))
for a, c, s in zip(lat, clat, slat):
    assert a[1] >= c[1] and s[1] + c[1] == a[1], (a, c, s)
    assert a[2:4] == c[2:4] == s[2:4]
EOF
}
rm -f "$WORK"/sl_*.log
if (cd "$WORK" && "$SSDBENCH" run -q --engine=null --rw=randread --size=64m --iodepth=8 --io_size=8m \
        --write_lat_log=sl --output-format=json >sl.json 2>err); then
    check slat-log-null lat_ok 2048
    check slat-json python3 - "$WORK/sl.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert r["slat_ns"]["N"] == r["clat_ns"]["N"] == r["lat_ns"]["N"] == 2048, r["slat_ns"]["N"]
assert abs(r["slat_ns"]["mean"] + r["clat_ns"]["mean"] - r["lat_ns"]["mean"]) < 1, r
EOF
else
    fail slat-log-null "ssdbench failed: $(head -3 "$WORK/err")"
fi
rm -f "$WORK"/sl_*.log
fresh 8
if sb slat-log-libaio --rw=randwrite --bs=4k --size=1m --write_lat_log=sl --engine=libaio --direct=0; then
    check slat-log-libaio lat_ok 256
fi
