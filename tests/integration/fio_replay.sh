#!/bin/bash
# fio_replay.sh - read_iolog: a log written by ssdbench (write_iolog) is
# replayed by ssdbench and by fio 3.33, and the two replays issue the same
# I/Os: counts and bytes per direction and flushes from the JSON, and the
# sequence of (file, direction, offset, length) - ssdbench's from the
# write_iolog of its replay, fio's from its --debug=io "queue:" lines (fio
# writes no iolog while it replays). The same for a log fio wrote of two
# files, for replay_scale with
# replay_align, replay_redirect, a version 2 log with a wait, two clones
# (sorted: their lines interleave), and a timed replay (its I/Os are issued no earlier than the log's times,
# scaled by replay_time_scale). Trims are replayed (fio 3.33 drops them
# with "bad ddir: 2"). A bad log is one line naming the file and line; a
# replay that writes an existing file meets the write guard.
source "$(dirname "$0")/lib.sh"

fio_side_by_side replay
cd "$WORK/run" || exit 1

# ssdbench's sequence: "file dir off len" per I/O of an iolog
seq_iolog() { awk 'NR > 1 && NF == 5 {print $2, $3, $4, $5}' "$1"; }
# fio's: its debug lines, directions by number
seq_fio() {
    python3 - "$1" <<'EOF'
import re, sys
names = {0: "read", 1: "write", 2: "trim", 3: "sync", 4: "datasync"}
for m in re.finditer(r"queue: io_u 0x[0-9a-f]+: off=0x([0-9a-f]+),len=0x([0-9a-f]+),ddir=(\d+),file=(\S+)",
                     open(sys.argv[1]).read()):
    print(m.group(4), names[int(m.group(3))], int(m.group(1), 16), int(m.group(2), 16))
EOF
}
# "read=ios/bytes write=... trim=... sync=N" summed over the jobs
counts() {
    python3 - "$1" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
# the JSON object (fio's --debug lines may come before and after it)
d = json.JSONDecoder().raw_decode(text[text.index("\n{") + 1 if "\n{" in text else text.index("{"):])[0]
t = {k: [0, 0] for k in ("read", "write", "trim")}
s = 0
for j in d["jobs"]:
    for k in t:
        t[k][0] += j[k]["total_ios"]
        t[k][1] += j[k]["io_bytes"]
    s += j.get("sync", {}).get("total_ios", 0)
print(" ".join("%s=%d/%d" % (k, v[0], v[1]) for k, v in t.items()), "sync=%d" % s)
EOF
}

# compare NAME ARGS...: replay ARGS under both and compare
compare() {
    local name=$1 a b sa sb
    shift
    rm -f "$name.sb.log"
    timeout 60 "$SB" --output-format=json --write_iolog="$name.sb.log" "$@" >"$name.sb.json" 2>"$name.sb.err" ||
        { fail "$name" "ssdbench: $(head -c 300 "$name.sb.err")"; return; }
    # one fio run: its JSON and its debug lines on stdout
    timeout 60 "$FIO" --output-format=json --debug=io "$@" >"$name.fio.dbg" 2>"$name.fio.err" ||
        { fail "$name" "fio: $(head -c 300 "$name.fio.err")"; return; }
    a=$(counts "$name.sb.json") b=$(counts "$name.fio.dbg")
    if [ -n "$SORT" ]; then
        seq_iolog "$name.sb.log" | sort >"$name.sb.seq"
        seq_fio "$name.fio.dbg" | sort >"$name.fio.seq"
    else
        seq_iolog "$name.sb.log" >"$name.sb.seq"
        seq_fio "$name.fio.dbg" >"$name.fio.seq"
    fi
    sa=$(wc -l <"$name.sb.seq") sb=$(wc -l <"$name.fio.seq")
    if [ "$a" = "$b" ] && [ "$sa" -gt 0 ] && cmp -s "$name.sb.seq" "$name.fio.seq"; then
        pass "$name ($a, $sa I/Os in the same order)"
    else
        fail "$name" "ssdbench $a ($sa in sequence), fio $b ($sb); first difference: $(diff "$name.sb.seq" "$name.fio.seq" | head -3 | tr '\n' ' ')"
    fi
}

# the log: ssdbench's own write_iolog of a random mix with flushes
# (one block size: with 4k reads and 8k writes fio's random map ends the
# pass early, and ssdbench follows fio's map)
timeout 60 "$SB" --name=src --ioengine=null --rw=randrw --bssplit=4k/50:8k/50,4k --size=1m --fsync=5 --randseed=7 \
    --write_iolog=src.log --output=/dev/null 2>src.err || fail write "$(head -c 300 src.err)"
nio=$(grep -cE ' (read|write) ' src.log)
nsync=$(grep -c ' sync ' src.log)
check "written ($nio I/Os, $nsync flushes)" test "$nio" -gt 100 -a "$nsync" -gt 10

compare v3 --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1
compare scale-align --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --replay_scale=3 \
    --replay_align=8k
compare redirect --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --replay_redirect=other.dat
# two clones each replay the whole log; their lines interleave differently
SORT=1 compare clones --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --numjobs=2
# at iodepth 8 ssdbench keeps the log's order (fio's null engine requeues
# at depth > 1, which its debug lines repeat, and it then counts 8 KiB less)
rm -f depth.out
timeout 60 "$SB" --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --iodepth=8 \
    --write_iolog=depth.out --output-format=json >depth.json 2>/dev/null
check "depth=8 (log order, $(counts depth.json))" test "$(seq_iolog depth.out)" = "$(seq_iolog src.log)" \
    -a "$(counts depth.json)" = "$(counts v3.sb.json)"

# a log fio wrote, of a job on two files (its flushes "sync OFF 0")
timeout 60 "$FIO" --name=m --ioengine=null --filename=fa:fb --size=256k --rw=randrw --bs=4k --fsync=4 \
    --write_iolog=fio2.log --output=/dev/null >/dev/null 2>&1 || fail fio-log "fio could not write a log"
compare two-files --name=r --ioengine=null --read_iolog=fio2.log --replay_no_stall=1

# version 2: no time stamps, a wait of 50 ms in the middle
awk 'NR == 1 {print "fio version 2 iolog"; next} {$1 = ""; sub(/^ /, ""); print}
     NR == 100 {print "src.0.0 wait 50 0"}' src.log >v2.log
compare v2 --name=r --ioengine=null --read_iolog=v2.log

# a timed replay: 5 I/Os 40 ms apart; each is issued no earlier than its
# time (x 100 / replay_time_scale) after the first
{
    echo "fio version 3 iolog"
    echo "1000 t.dat add"
    echo "1000 t.dat open"
    for i in 0 1 2 3 4; do echo "$((1000 + i * 40000)) t.dat read $((i * 4096)) 4096"; done
    echo "200000 t.dat close"
} >timed.log
compare timed --name=r --ioengine=null --read_iolog=timed.log
for pct in 100 50 400; do
    rm -f "timed$pct.out"
    timeout 60 "$SB" --name=r --ioengine=null --read_iolog=timed.log --replay_time_scale=$pct \
        --write_iolog="timed$pct.out" --output=/dev/null 2>/dev/null
    # the replay's stamps count from its own start (before the first I/O)
    late=$(awk -v pct=$pct 'NR > 1 && $3 == "read" {due = n++ * 40000 * 100 / pct; if ($1 < due) print $1 "<" due}' \
        "timed$pct.out")
    n=$(grep -c ' read ' "timed$pct.out" 2>/dev/null)
    check "timed:time_scale=$pct ($n I/Os none early${late:+: $late})" test "$n" = 5 -a -z "$late"
done

# trims are replayed as logged (fio 3.33 drops them: "bad ddir: 2")
{
    echo "fio version 3 iolog"
    echo "0 tr.dat add"
    echo "0 tr.dat open"
    echo "1 tr.dat write 0 8192"
    echo "2 tr.dat trim 0 4096"
    echo "3 tr.dat datasync 0 0"
    echo "4 tr.dat read 4096 4096"
    echo "5 tr.dat close"
} >trim.log
rm -f trim.out
timeout 60 "$SB" --name=r --ioengine=null --read_iolog=trim.log --replay_no_stall=1 --write_iolog=trim.out \
    --output-format=json >trim.json 2>trim.err
check "trims ($(counts trim.json))" test "$(seq_iolog trim.out)" = "$(seq_iolog trim.log)" \
    -a "$(counts trim.json)" = "read=1/4096 write=1/8192 trim=1/4096 sync=1"

# bad logs: one line naming the file and the line, no run
bad() {
    local name=$1 line=$2 out
    shift 2
    printf '%s\n' "$@" >"$name.log"
    out=$(timeout 20 "$SB" --name=r --ioengine=null --read_iolog="$name.log" 2>&1 >/dev/null)
    local rc=$?
    check "bad:$name ($out)" test "$rc" -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" = 1 \
        -a -n "$(printf '%s' "$out" | grep -F "$name.log:$line:")"
}
bad version 1 "fio version 1 iolog" "a read 0 1"
bad action 4 "fio version 3 iolog" "0 a add" "0 a open" "1 a reed 0 4096"
bad notadded 3 "fio version 3 iolog" "0 a add" "1 b read 0 4096"
bad number 3 "fio version 3 iolog" "0 a add" "1 a read 0x10 4096"
bad fields 3 "fio version 2 iolog" "a add" "a read 0"
bad v3wait 3 "fio version 3 iolog" "0 a add" "1 a wait 10 0"

# the guard: a replay that writes an existing file is refused as a write
# job is, and runs with the same consent
head -c 65536 /dev/zero >g.dat
printf 'fio version 3 iolog\n0 g.dat add\n0 g.dat open\n1 g.dat write 0 4096\n2 g.dat close\n' >g.log
r=$(timeout 20 "$SB" --name=r --ioengine=psync --read_iolog=g.log --output=/dev/null 2>&1)
w=$(timeout 20 "$SB" --name=r --ioengine=psync --filename=g.dat --rw=write --size=4k --output=/dev/null 2>&1)
check "guard:refused" test -n "$r" -a "$r" = "$w"
check "guard:consent" env SSDBENCH_DESTROY="$PWD/g.dat" timeout 20 "$SB" --name=r --ioengine=psync \
    --read_iolog=g.log --output=/dev/null
printf 'fio version 3 iolog\n0 g.dat add\n0 g.dat open\n1 g.dat write 65536 4096\n2 g.dat close\n' >past.log
out=$(SSDBENCH_DESTROY="$PWD/g.dat" timeout 20 "$SB" --name=r --ioengine=psync --read_iolog=past.log --size=64k \
    --output=/dev/null 2>&1)
check "past-the-end ($out)" test -n "$(printf '%s' "$out" | grep -F 'past the end of')"
