#!/bin/bash
# coverage.sh - block coverage of one size-bounded random write pass, fio
# against ssdbench: a zeroed file, rw=randwrite bs=4k size=16m with random
# (non-zero) buffers, then the number of 4 KiB blocks still all zero.
# fio's default random map writes every block once (0 left); ssdbench with its
# map should match, and with norandommap leave about 1/e (36.8 %).
# Usage: bench/coverage.sh [DIR]  (default: a temporary directory)
set -u
SSDBENCH=${SSDBENCH:-$(cd "$(dirname "$0")/.." && pwd)/build/ssdbench}
DIR=${1:-$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-cov.XXXXXX")}
F=$DIR/cov.img
SIZE=16m

zero_blocks() {
    python3 - "$1" <<'PY'
import sys
z = bytes(4096)
n = t = 0
with open(sys.argv[1], "rb") as f:
    while True:
        b = f.read(4096)
        if not b:
            break
        t += 1
        n += b == z
print(f"{n} {t}")
PY
}

fresh() { rm -f "$F"; dd if=/dev/zero of="$F" bs=1M count=16 status=none; }

report() {
    read -r z t < <(zero_blocks "$F")
    printf '%-34s %6d of %d blocks unwritten (%.1f %%)\n' "$1" "$z" "$t" "$(echo "100*$z/$t" | bc -l)"
}

if command -v fio >/dev/null; then
    fresh
    fio --name=cov --filename="$F" --rw=randwrite --bs=4k --size=$SIZE --ioengine=psync \
        --direct=1 --refill_buffers --output=/dev/null && report "fio $(fio --version)"
    fresh
    fio --name=cov --filename="$F" --rw=randwrite --bs=4k --size=$SIZE --ioengine=psync \
        --direct=1 --refill_buffers --norandommap --output=/dev/null && report "fio norandommap"
fi
for map in "" "--norandommap" "--random_generator=lfsr" "--bssplit=4k/50:16k/30:64k/20"; do
    fresh
    "$SSDBENCH" run --filename="$F" --destroy="$F" --rw=randwrite --bs=4k --size=$SIZE \
        --engine=psync --refill_buffers $map --output=/dev/null >/dev/null &&
        report "ssdbench ${map:-(default map)}"
done
[ -z "${1:-}" ] && rm -rf "$DIR"
exit 0
