#!/bin/bash
# bench/act.sh - the three limits of `ssdbench act`, measured and printed
# (run by hand as root; not part of `make test`):
#   1. rates exact: over a run, small reads and large-block reads/writes within
#      0.1% of ACT's derived rates, as counted by the kernel (/sys/block/*/stat
#      sampled around the phase: the result's kernel_stats);
#   2. memory flat over a 24 h run: a time-compressed 24 h run (86,400 report
#      intervals, MEM_TICK_MS real milliseconds each) on the null engine, RSS
#      sampled every 10 s;
#   3. CPU: 3x on a RAM-backed loop device, open-loop io_uring mode against
#      threads mode for the same completed schedule: at most half the CPU s.
# Environment: SSDBENCH (build/ssdbench), DURATION (60 s per run), LOAD (3x),
# MEM_TICK_MS (4), SKIP_MEM=1 to skip the 6-minute memory run.
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
DURATION=${DURATION:-60}
LOAD=${LOAD:-3x}
MEM_TICK_MS=${MEM_TICK_MS:-4}
WORK=$(mktemp -d /tmp/ssdbench-bench-act.XXXXXX)
LOOP=""
cleanup() {
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    mountpoint -q "$WORK/ram" && umount "$WORK/ram"
    rm -rf "$WORK"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench/act.sh: needs root (loop device)"; exit 1; }
[ -x "$SSDBENCH" ] || { echo "bench/act.sh: build first (make)"; exit 1; }

mkdir -p "$WORK/ram" && mount -t tmpfs -o size=1100m tmpfs "$WORK/ram" || exit 1
truncate -s 1G "$WORK/ram/img"
LOOP=$(losetup --find --show --direct-io=on "$WORK/ram/img") || exit 1
name=$(basename "$LOOP")
kstat() { awk '{print $1 + $2, $5 + $6}' "/sys/class/block/$name/stat"; }
echo "device: $LOOP (1 GiB, RAM-backed, direct-io), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
"$SSDBENCH" act-prep "$LOOP" -q >/dev/null || exit 1

# One run; prints its figures and leaves the result in $WORK/$1.json.
run() {   # run TAG ARGS...
    local tag=$1; shift
    local r0 w0 r1 w1
    read -r r0 w0 < <(kstat)
    "$SSDBENCH" act --load "$LOAD" --duration "$DURATION" -q --log "$WORK/$tag.log" \
        --result "$WORK/$tag.json" "$@" "$LOOP" >"$WORK/$tag.txt" 2>&1
    local rc=$?
    read -r r1 w1 < <(kstat)
    python3 - "$WORK/$tag.json" "$tag" "$rc" $((r1 - r0)) $((w1 - w0)) <<'EOF'
import json, sys
path, tag, rc, kr, kw = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
d = json.load(open(path))
ph = d['phases'][0]
load = d['act']['loads'][0]
der = load['derived']
T = load['logged_s'] or ph['elapsed_s']
sc = {r['scope']: r for r in ph['results']}
small = sc['job:service']['read']['ios']
lbr = sc['job:large-block-reads']['read']['ios']
lbw = sc['job:large-block-writes']['write']['ios']
want_small = der['small_reqs_per_sec_issued'] * der['read_share'] * T
want_lb = der['large_block_reads_per_sec'] * T
def dev(got, want): return 100.0 * (got - want) / want
cpu = ph['cpu']['user_s'] + ph['cpu']['sys_s']
print(f"{tag}: exit {rc}, {T:.0f} s, mode {d['act']['mode']} ({d['act']['engine']}), "
      f"stopped by {load['stopped_by']}")
print(f"  small reads  {small:>9} vs {want_small:>11.1f} derived  {dev(small, want_small):+.4f}%")
print(f"  lb reads     {lbr:>9} vs {want_lb:>11.1f} derived  {dev(lbr, want_lb):+.4f}%")
print(f"  lb writes    {lbw:>9} vs {want_lb:>11.1f} derived  {dev(lbw, want_lb):+.4f}%")
ks = ph['kernel_stats'][0]
pr, pw = ks['read_ios'] + ks['read_merges'], ks['write_ios'] + ks['write_merges']
print(f"  kernel reads {pr:>9} vs {want_small + want_lb:>11.1f} derived  {dev(pr, want_small + want_lb):+.4f}%"
      f"  (ssdbench counted {small + lbr}: {'equal' if pr == small + lbr else 'DIFFERENT'})")
print(f"  kernel writes{pw:>9} vs {want_lb:>11.1f} derived  {dev(pw, want_lb):+.4f}%"
      f"  (ssdbench counted {lbw}: {'equal' if pw == lbw else 'DIFFERENT'})")
print(f"  (/sys/block stat around the whole command: +{kr - pr} reads, +{kw - pw} writes: the"
      f" minimum-I/O probe and udev's blkid scan after the device is closed)")
print(f"  CPU {ph['cpu']['user_s']:.2f} s user + {ph['cpu']['sys_s']:.2f} s sys = {cpu:.2f} s "
      f"for {small + lbr + lbw} I/Os ({1e6 * cpu / max(1, small + lbr + lbw):.1f} us per I/O)")
scr = load['screen']['device']['max_pct_over_ms']
print(f"  device latency, worst slice: {scr['1']:.2f}% >= 1 ms, {scr['8']:.2f}% >= 8 ms, {scr['64']:.2f}% >= 64 ms")
open(path + '.cpu', 'w').write(f"{cpu} {small + lbr + lbw}\n")
EOF
}

echo
echo "== 1 + 3: rates and CPU, $LOAD for $DURATION s (disable-odsync: on this loop device a blocking O_DSYNC write is counted twice, data + cache flush)"
run threads --threads --set disable-odsync=yes
run uring --set disable-odsync=yes
read -r ct nt <"$WORK/threads.json.cpu"
read -r cu nu <"$WORK/uring.json.cpu"
python3 -c "
ct, nt, cu, nu = $ct, $nt, $cu, $nu
r = (cu / nu) / (ct / nt)
print(f'CPU, io_uring vs threads, per completed I/O: {cu:.2f} s / {nu} vs {ct:.2f} s / {nt} = {r:.2f}x'
      f' ({\"meets\" if r <= 0.5 else \"MISSES\"} the limit of 0.5)')"

if [ "${SKIP_MEM:-0}" != 1 ]; then
    echo
    echo "== 2: memory over a time-compressed 24 h run (null engine, $MEM_TICK_MS ms per 1 s report)"
    "$SSDBENCH" act --load "$LOAD" --duration 24h --engine null --tick-ms "$MEM_TICK_MS" -q \
        --log "$WORK/mem.log" --result "$WORK/mem.json" /dev/ssdbench-null >"$WORK/mem.txt" 2>&1 &
    pid=$!
    t=0
    : >"$WORK/rss"
    while kill -0 $pid 2>/dev/null; do
        r=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null)
        [ -n "$r" ] && echo "$t $r $(grep -c '^after' "$WORK/mem.log" 2>/dev/null)" >>"$WORK/rss"
        sleep 10
        t=$((t + 10))
    done
    wait $pid
    echo "exit $?; $(grep -c '^after' "$WORK/mem.log") of 86400 reports logged; log $(du -m "$WORK/mem.log" | cut -f1) MiB"
    python3 - "$WORK/rss" <<'EOF'
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 3]
if len(rows) < 4:
    sys.exit(print("too few samples"))
print("  t(s)   RSS KiB   reports")
for t, r, n in rows[:: max(1, len(rows) // 12)] + [rows[-1]]:
    print(f"  {t:4d}  {r:8d}  {n:8d}")
half = rows[len(rows) // 2:]
lo, hi = min(r for _, r, _ in half), max(r for _, r, _ in half)
first = rows[1][1]
print(f"  second half: {lo}..{hi} KiB (spread {hi - lo} KiB); growth after the first sample: "
      f"{rows[-1][1] - first} KiB over {rows[-1][2] - rows[1][2]} reports "
      f"({1024.0 * (rows[-1][1] - first) / max(1, rows[-1][2] - rows[1][2]):.1f} bytes per report)")
EOF
fi
