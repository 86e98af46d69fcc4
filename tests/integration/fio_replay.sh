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
# Then: a close and open in the log reopen the file; fio's ':' list (one
# log per clone); read_iolog_chunked; replay_skip (nothing of a text log);
# fio's relative schedule (a gap counts from the last issue, so a pause
# after an I/O delays the next by the whole gap); blktrace files made here
# (reads, writes, discards, flushes, notes with a payload, completions,
# two devices) replayed with replay_redirect, replay_skip, scale and align,
# their bad records; verify of a replay that writes (writes, then the
# blocks read back in offset order) and rate/rate_iops (fio ignores them).
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
out=$(timeout 20 "$SB" --name=r --ioengine=null --read_iolog=- </dev/null 2>&1 >/dev/null)
check "bad:stdin ($out)" test -n "$(printf '%s' "$out" | grep -F 'standard input')"

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

# a close and an open in the log: fio closes and reopens the file; ssdbench
# reopens it too (under the same descriptor) and issues the same I/Os
head -c 65536 /dev/zero >ro.dat
{
    echo "fio version 3 iolog"
    echo "0 ro.dat add"
    echo "0 ro.dat open"
    echo "1 ro.dat read 0 4096"
    echo "2 ro.dat close"
    echo "3 ro.dat open"
    echo "4 ro.dat read 4096 4096"
    echo "5 ro.dat close"
} >reopen.log
compare reopen --name=r --ioengine=psync --read_iolog=reopen.log --replay_no_stall=1
if command -v strace >/dev/null 2>&1; then
    timeout 60 strace -f -e trace=openat,dup3 -o reopen.strace "$SB" --name=r --ioengine=psync \
        --read_iolog=reopen.log --replay_no_stall=1 --output=/dev/null 2>/dev/null
    nopen=$(grep -c 'openat(.*"ro.dat"' reopen.strace)
    ndup=$(grep -c 'dup3(' reopen.strace)
    timeout 60 strace -f -e trace=openat -o reopen.fio.strace "$FIO" --name=r --ioengine=psync \
        --read_iolog=reopen.log --replay_no_stall=1 --output=/dev/null 2>/dev/null
    fopen=$(grep -c 'openat(.*"ro.dat"' reopen.fio.strace)
    # fio opens it twice; ssdbench once more (the guard's look before the run)
    check "reopen:opened again (fio $fopen opens; ssdbench $nopen, $ndup dup3)" \
        test "$fopen" = 2 -a "$nopen" -ge 2 -a "$ndup" = 1
fi
# the file's name between the log's close and its open: fio opens the name
# again, ssdbench too, and goes on only when it holds the same file (device
# and inode), the one the guard judged. A job of the same file changes the
# name at the start (ioengine=exec); the log reopens it 3 s later.
#  - renamed away and back: the same file, both replay every I/O;
#  - another file moved over the name: fio writes it, ssdbench stops the
#    replay there in one line and leaves the new file as it was (the
#    consent names the path, but the guard judged the other file);
#  - renamed away, nothing under the name: fio creates a new file there
#    and writes it; ssdbench stops the replay there, creating nothing.
printf '#!/bin/sh\nmv rn.dat rn.tmp && mv rn.tmp rn.dat\n' >rn-back.sh
printf '#!/bin/sh\nmv rn-new.dat rn.dat\n' >rn-swap.sh
printf '#!/bin/sh\nmv rn.dat rn.moved\n' >rn-gone.sh
chmod +x rn-*.sh
printf 'fio version 3 iolog\n0 rn.dat add\n0 rn.dat open\n1000 rn.dat write 0 4096\n2000 rn.dat close
3000000 rn.dat open\n3001000 rn.dat write 4096 4096\n3002000 rn.dat close\n' >rn.log
# rename PROGRAM CASE: "exit writes new-file" for the replay job
rename() {
    head -c 65536 /dev/zero >rn.dat
    head -c 65536 /dev/zero >rn-new.dat
    rm -f rn.moved rn.tmp
    printf '[r]\nioengine=psync\nread_iolog=rn.log\n[x]\nioengine=exec\nprogram=%s/rn-%s.sh\nruntime=1\ntime_based=1\nstd_redirect=0\n' \
        "$PWD" "$2" >"rn-$2.fio"
    SSDBENCH_DESTROY="$PWD/rn.dat" timeout 60 "$1" --output-format=json "rn-$2.fio" >rn.json 2>rn.err
    local rc=$?
    python3 - "$rc" <<'EOF2'
import json, os, sys
t = open("rn.json").read()
d = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
j = [j for j in d["jobs"] if j["jobname"] == "r"][0]
zero = open("rn.dat", "rb").read() == bytes(65536) if os.path.exists("rn.dat") else "none"
print(sys.argv[1] != "0" and "failed" or "ok", j["write"]["total_ios"], zero)
EOF2
}
a=$(rename "$SB" back) b=$(rename "$FIO" back)
check "reopen:renamed and back (ssdbench $a, fio $b)" test "$a" = "ok 2 False" -a "$b" = "ok 2 False"
a=$(rename "$SB" swap) ea=$(head -1 rn.err) b=$(rename "$FIO" swap)
check "reopen:replaced, left as it was (ssdbench $a: $ea; fio $b)" test "$a" = "failed 1 True" -a "$b" = "ok 2 False" \
    -a -n "$(printf '%s' "$ea" | grep -F 'cannot reopen rn.dat: the name no longer holds the file')"
a=$(rename "$SB" gone) ea=$(head -1 rn.err) b=$(rename "$FIO" gone)
check "reopen:renamed away, nothing made (ssdbench $a: $ea; fio $b)" test "$a" = "failed 1 none" -a "$b" = "ok 2 False" \
    -a -n "$(printf '%s' "$ea" | grep -F 'cannot reopen rn.dat: No such file')"
# an I/O after a close without an open (fio 3.33 aborts on an assertion),
# an open of an open file: one line each
bad closed 5 "fio version 3 iolog" "0 a add" "0 a open" "1 a close" "2 a read 0 4096"
bad reopened 4 "fio version 3 iolog" "0 a add" "0 a open" "1 a open" "2 a read 0 4096"

# fio's ':' list: clone N replays the Nth log (modulo their number)
timeout 60 "$SB" --name=la --ioengine=null --filename=la.dat --rw=randrw --bs=4k --size=128k --randseed=3 \
    --write_iolog=la.log --output=/dev/null 2>/dev/null
timeout 60 "$SB" --name=lb --ioengine=null --filename=lb.dat --rw=randwrite --bs=8k --size=128k --randseed=5 \
    --write_iolog=lb.log --output=/dev/null 2>/dev/null
SORT=1 compare list --name=r --ioengine=null --read_iolog=la.log:lb.log --numjobs=2 --replay_no_stall=1
check "list:both logs ($(awk '{print $1}' list.sb.seq | sort | uniq -c | tr -s ' \n' ' '))" \
    test -n "$(grep '^la.dat ' list.sb.seq)" -a -n "$(grep '^lb.dat ' list.sb.seq)"
compare list-one --name=r --ioengine=null --read_iolog=la.log:lb.log --replay_no_stall=1
SORT=1 compare list-wrap --name=r --ioengine=null --read_iolog=la.log:lb.log --numjobs=3 --replay_no_stall=1
# ... and each clone's files are its own log's, opened as fio's clone opens
# them: for writing only when its log writes or trims, so a file that only
# another clone's log writes is not opened for writing, needs no consent and
# is left as it was (la.log writes la.dat, lr.log only reads lr.dat); each
# clone's counts are fio's clone's
timeout 60 "$SB" --name=lr --ioengine=null --filename=lr.dat --rw=randread --bs=8k --size=128k --randseed=5 \
    --write_iolog=lr.log --output=/dev/null 2>/dev/null
per_clone() {
    python3 - "$1" <<'EOF2'
import json, sys
t = open(sys.argv[1]).read()
d = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
print(" ".join("%d/%d:%d/%d" % (j["read"]["total_ios"], j["read"]["io_bytes"], j["write"]["total_ios"],
                                j["write"]["io_bytes"]) for j in d["jobs"]))
EOF2
}
own() {  # PROGRAM OUT: the list replayed on existing files, its opens traced
    head -c 131072 /dev/zero >la.dat
    head -c 131072 /dev/urandom >lr.dat
    sum=$(cksum <lr.dat)
    SSDBENCH_DESTROY="$PWD/la.dat" timeout 60 strace -f -e trace=openat -o "$2.strace" "$1" --name=r --ioengine=psync \
        --read_iolog=la.log:lr.log --numjobs=2 --replay_no_stall=1 --output-format=json >"$2.json" 2>"$2.err"
    echo "$? $([ "$(cksum <lr.dat)" = "$sum" ] && echo kept || echo changed) \
$(grep -cE 'openat\(.*"lr\.dat", O_(RDWR|WRONLY)' "$2.strace") $(grep -cE 'openat\(.*"la\.dat", O_RDWR' "$2.strace")"
}
a=$(own "$SB" own.sb) b=$(own "$FIO" own.fio)
pa=$(per_clone own.sb.json) pb=$(per_clone own.fio.json)
# (exit, lr.dat kept, opens of lr.dat for writing, of la.dat for writing)
check "list:own files (ssdbench $a, fio $b; clones $pa, fio $pb$(head -c 200 own.sb.err))" \
    test "${a% *}" = "0 kept 0" -a "${a##* }" -ge 1 -a "${b% *}" = "0 kept 0" -a "$pa" = "$pb"

# read_iolog_chunked: the same I/Os (read as the replay goes)
compare chunked --name=r --ioengine=null --read_iolog=src.log --read_iolog_chunked=1 --replay_no_stall=1
compare chunked-timed --name=r --ioengine=null --read_iolog=timed.log --read_iolog_chunked=1
SORT=1 compare chunked-list --name=r --ioengine=null --read_iolog=la.log:lb.log --numjobs=2 --read_iolog_chunked=1 \
    --replay_no_stall=1
# ... in bounded memory: a log of 400000 reads (9.6 MB of entries held
# whole) replayed chunked peaks at least 4 MB lower, with the same count
awk 'BEGIN {print "fio version 3 iolog"; print "0 big.dat add"; print "0 big.dat open"
    for (i = 0; i < 400000; i++) print i, "big.dat read", (i % 256) * 4096, 4096; print 400000, "big.dat close"}' >big.log
# peak memory as GNU time reports it (a fork of python or bash would
# count the parent's pages before the exec)
rss() {
    /usr/bin/time -f 'rss %M' "$SB" --name=r --ioengine=null --read_iolog=big.log --replay_no_stall=1 \
        --read_iolog_chunked="$1" --output-format=json >"big$1.json" 2>"big$1.err"
    echo "$(python3 -c "import json; print(json.load(open('big$1.json'))['jobs'][0]['read']['total_ios'])") \
$(awk '$1 == "rss" {print $2}' "big$1.err")"
}
if [ -x /usr/bin/time ]; then
    read -r nw kw < <(rss 0)
    read -r nc kc < <(rss 1)
    check "chunked:bounded memory (whole $kw KB, chunked $kc KB, $nw/$nc reads)" \
        test "$nw" = 400000 -a "$nc" = 400000 -a "${kc:-0}" -gt 0 -a "${kc:-0}" -lt "$((${kw:-0} - 4096))"
else
    skip chunked:bounded-memory "GNU time (/usr/bin/time) is not installed"
fi
rm -f big.log
# replay_skip: fio skips nothing of a text iolog
compare skip-text --name=r --ioengine=null --read_iolog=src.log --replay_skip=read,sync --replay_no_stall=1
out=$(timeout 20 "$SB" --name=r --ioengine=null --read_iolog=src.log --replay_skip=flush 2>&1 >/dev/null)
check "skip:bad value ($out)" test -n "$(printf '%s' "$out" | grep -F "'flush'")"

# fio's schedule: each gap counts from the last issue. Two reads at once,
# a thinktime of 200 ms after each I/O, then a read 300 ms after the second:
# fio sleeps the last 100 ms of that gap after the pause, so it comes 300 ms
# after the second read, not at 300 ms from the start (which the pause
# already passed). A loaded host only makes the gap longer.
{
    echo "fio version 3 iolog"
    echo "0 t.dat add"
    echo "0 t.dat open"
    echo "1000 t.dat read 0 4096"
    echo "1000 t.dat read 4096 4096"
    echo "301000 t.dat read 8192 4096"
    echo "301000 t.dat close"
} >rel.log
compare relative --name=r --ioengine=null --read_iolog=rel.log --thinktime=200ms
gap=$(awk 'NR > 1 && $3 == "read" {t[n++] = $1} END {print t[2] - t[1]}' relative.sb.log)
check "relative:the gap after the pause (${gap} us >= 300000)" test "${gap:-0}" -ge 300000

# rate and rate_iops: fio 3.33 takes them and paces a replay by its log
# alone (40 I/Os at rate_iops=1 would take 40 s, past the timeout)
compare rate --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --rate_iops=1
compare rate-bytes --name=r --ioengine=null --read_iolog=src.log --replay_no_stall=1 --rate=4k

# verify of a replay that only writes: the writes as logged, then the last
# block written at each place read back in offset order (an overlapped
# write is not checked), as fio; a log that also reads is refused (fio's
# own check of it fails)
{
    echo "fio version 3 iolog"
    echo "0 v.dat add"
    echo "0 v.dat open"
    echo "1 v.dat write 16384 4096"
    echo "2 v.dat write 0 8192"
    echo "3 v.dat write 4096 4096"
    echo "4 v.dat write 24576 8192"
    echo "5 v.dat write 12288 4096"
    echo "6 v.dat close"
} >vw.log
rm -f v.dat
compare verify --name=r --ioengine=psync --read_iolog=vw.log --verify=crc32c --replay_no_stall=1
rm -f v.dat
out=$(timeout 20 "$SB" --name=r --ioengine=psync --read_iolog=src.log --verify=crc32c 2>&1 >/dev/null)
check "verify:mixed log refused ($out)" test -n "$(printf '%s' "$out" | grep -F 'also reads')"

# blktrace: a binary trace made here (struct blk_io_trace, fio's
# blktrace_api.h), replayed onto a file with replay_redirect
head -c 1048576 /dev/zero >bt.dat
python3 - <<'PY'
import struct
MAGIC = 0x65617407
TC = lambda x: x << 16
READ, WRITE, FLUSH, QUEUE, COMPLETE, NOTIFY, DISCARD = 1, 2, 4, 16, 128, 1024, 8192
def dev(maj, mn): return (maj << 20) | mn
def make(name, ndev, swap=False):
    out, seq = [], [0]
    fmt = (">" if swap else "<") + "IIQQIIIIIHH"
    def rec(t, sector, nbytes, action, device, pdu=b""):
        seq[0] += 1
        out.append(struct.pack(fmt, MAGIC, seq[0], t, sector, nbytes, action, 42, device, 0, 0, len(pdu)) + pdu)
    cats = {"r": READ, "w": WRITE, "d": WRITE | DISCARD, "f": WRITE | FLUSH}
    rec(0, 0, 0, TC(NOTIFY), dev(7, 1), b"fio\0")          # a process note, with a payload
    t = 1000000
    for i in range(60):
        d = dev(7, 2) if ndev == 2 and i % 3 == 2 else dev(7, 1)
        kind = "rwwdrfr"[i % 7]
        n = 0 if kind == "f" else 4096 * (1 + i % 3)
        sector = (i * 37 % 64) * 8 + (i % 5)               # not all 4 KiB aligned
        rec(t, sector, n, 1 | TC(QUEUE | cats[kind]), d)
        if i % 4 == 0:                                      # a second read queued: depth 2 (reads)
            rec(t + 10, 512, 4096, 1 | TC(QUEUE | READ), d)
        if i % 4 == 1:                                      # one queued and merged: no deeper
            rec(t + 10, 520, 4096, 1 | TC(QUEUE | READ), d)
            rec(t + 20, 520, 4096, 2 | TC(QUEUE | READ), d)
        rec(t + 200, sector, n, 8 | TC(COMPLETE | cats["w" if kind == "f" else kind]), d)
        if i % 4 == 0 and kind != "r":
            rec(t + 210, 512, 4096, 8 | TC(COMPLETE | READ), d)
        rec(t + 300, sector, n, 7 | TC(READ), d)            # an issue: not replayed
        t += 100000
    open(name, "wb").write(b"".join(out))
make("one.bt", 1)
make("two.bt", 2)
make("be.bt", 1, swap=True)
PY
bt() { compare "$1" --name=b --ioengine=null --iodepth=1 --replay_redirect=bt.dat --replay_no_stall=1 "${@:2}"; }
bt bt-one --read_iolog=one.bt
bt bt-two --read_iolog=two.bt
bt bt-swapped --read_iolog=be.bt
bt bt-skip --read_iolog=two.bt --replay_skip=write,sync
bt bt-skip-rt --read_iolog=one.bt --replay_skip=read,trim
bt bt-scale --read_iolog=two.bt --replay_scale=2 --replay_align=8k
check "blktrace:all kinds (bt-one $(cut -d' ' -f2 bt-one.sb.seq | sort | uniq -c | tr -s ' \n' ' '))" \
    test "$(cut -d' ' -f2 bt-one.sb.seq | sort -u | tr '\n' ' ')" = "read sync trim write "
# a paced replay of a trace: the same I/Os, at the trace's gaps
compare bt-timed --name=b --ioengine=null --iodepth=1 --replay_redirect=bt.dat --read_iolog=one.bt
compare bt-timescale --name=b --ioengine=null --iodepth=1 --replay_redirect=bt.dat --read_iolog=two.bt \
    --replay_time_scale=400
# without iodepth, fio's depth from the trace (2 here): I/Os are in flight
# together (libaio, the reads only: fio's null engine reaps each I/O before
# the next, so it has one in flight whatever the depth, and so has ssdbench's
# as fio)
timeout 60 "$SB" --name=b --ioengine=libaio --replay_redirect=bt.dat --replay_no_stall=1 --read_iolog=one.bt \
    --replay_skip=write,trim,sync --output-format=json >bt-depth.json 2>/dev/null
timeout 60 "$FIO" --name=b --ioengine=libaio --replay_redirect=bt.dat --replay_no_stall=1 --read_iolog=one.bt \
    --replay_skip=write,trim,sync --output-format=json >bt-depth.fio.json 2>/dev/null
d2=$(python3 -c "import json,sys; d=json.load(open('bt-depth.json')); print(d['jobs'][0]['iodepth_level']['2'])")
f2=$(python3 -c "import json,sys; d=json.load(open('bt-depth.fio.json')); print(d['jobs'][0]['iodepth_level']['2'])")
# (iodepth given: that depth; bt-one ran with iodepth=1)
d1=$(python3 -c "import json,sys; d=json.load(open('bt-one.sb.json')); print(d['jobs'][0]['iodepth_level']['1'])")
check "blktrace:depth from the trace (iodepth_level 2: $d2%, fio $f2%; given 1: $d1% at 1)" \
    python3 -c "import sys; sys.exit(not ($d2 > 0 and $d2 == $f2 and $d1 == 100))"
# a ':' list of traces: each clone takes its own trace's depth (one.bt's
# probe is 2, d1.bt's 1), as fio's clones probe theirs
python3 - <<'PY'
import struct
out = []
for i in range(20):
    for act in (1 | (17 << 16), 8 | (129 << 16)):   # a read queued, then completed: depth 1
        out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, len(out) + 1, 1000 * (i + 1), 8 * i, 4096, act, 1,
                               (7 << 20) | 1, 0, 0, 0))
open("d1.bt", "wb").write(b"".join(out))
PY
levels() {
    python3 -c '
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
print(" / ".join(" ".join("%s=%g" % (k, v) for k, v in j["iodepth_level"].items() if v) for j in d["jobs"]))' "$1"
}
for p in sb:"$SB" fio:"$FIO"; do
    timeout 60 "${p#*:}" --name=b --ioengine=libaio --replay_redirect=bt.dat --replay_no_stall=1 --read_iolog=one.bt:d1.bt \
        --numjobs=2 --replay_skip=write,trim,sync --output-format=json >"bt-clones.${p%%:*}.json" 2>/dev/null
done
a=$(levels bt-clones.sb.json) b=$(levels bt-clones.fio.json)
check "blktrace:each clone its trace's depth ($a; fio $b)" test -n "$a" -a "$a" = "$b"
# without replay_redirect each device is looked up under /dev as fio
# looks it up: a read-only trace of two block devices this host has
devs=$(python3 - <<'PY'
import os, stat, struct
found = []
for name in sorted(os.listdir("/dev")):
    st = os.lstat("/dev/" + name)
    if stat.S_ISBLK(st.st_mode):
        found.append((os.major(st.st_rdev) << 20) | os.minor(st.st_rdev))
    if len(found) == 2:
        break
out = []
for i in range(20 if found else 0):
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, i + 1, 1000 * (i + 1), 8 * i, 4096, 1 | (17 << 16), 1,
                           found[i % len(found)], 0, 0, 0))
open("devs.bt", "wb").write(b"".join(out))
print(len(found))
PY
)
if [ "$devs" -gt 0 ]; then
    compare "bt-devices-$devs" --name=b --ioengine=null --iodepth=1 --replay_no_stall=1 --read_iolog=devs.bt
else
    skip bt-devices "no block device under /dev"
fi
# a device number none has is one line
python3 -c "
import struct
open('nodev.bt','wb').write(struct.pack('<IIQQIIIIIHH', 0x65617407, 1, 1, 8, 4096, 1 | (17 << 16), 1, (4095 << 20) | 1048575, 0, 0, 0))"
out=$(timeout 20 "$SB" --name=b --ioengine=null --read_iolog=nodev.bt 2>&1 >/dev/null)
check "blktrace:no device ($out)" test "$(printf '%s\n' "$out" | wc -l)" = 1 \
    -a -n "$(printf '%s' "$out" | grep -F 'nodev.bt: record 1:')"
# a device not found beside one that is (a loop device made here): fio
# sends the I/O to the last device found (blktrace.c trace_add_file keeps
# its file); before any is found fio aborts (its file 0 is not open yet:
# "Assertion `fio_file_open(f)' failed"), and with none found at all it
# fails ("did not find replay device(s)"): one line naming the record here
if loop=$(make_loop 8); then
    mkbt() {
        python3 - "$1" "$loop" "$2" <<'PY'
import os, struct, sys
st = os.stat(sys.argv[2])
real = (os.major(st.st_rdev) << 20) | os.minor(st.st_rdev)
fake = (4095 << 20) | 1048575
out = [struct.pack("<IIQQIIIIIHH", 0x65617407, i + 1, 1000 * (i + 1), 8 * i, 4096, 1 | (17 << 16), 1,
                   real if c == "r" else fake, 0, 0, 0) for i, c in enumerate(sys.argv[3])]
open(sys.argv[1], "wb").write(b"".join(out))
PY
    }
    mkbt lastdev.bt rfrff
    compare bt-last-device --name=b --ioengine=psync --iodepth=1 --replay_no_stall=1 --read_iolog=lastdev.bt
    n=$(awk -v d="$loop" '$1 == d' bt-last-device.sb.seq | wc -l)
    check "blktrace:last device found ($n of 5 on $loop)" test "$n" = 5
    for c in first:frfr none:fff; do
        mkbt "${c%%:*}.bt" "${c#*:}"
        out=$(timeout 20 "$SB" --name=b --ioengine=psync --read_iolog="${c%%:*}.bt" --replay_no_stall=1 2>&1 >/dev/null)
        rc=$?
        timeout 20 "$FIO" --name=b --ioengine=psync --read_iolog="${c%%:*}.bt" --replay_no_stall=1 \
            --output-format=json >"${c%%:*}.fio.json" 2>"${c%%:*}.fio.err"
        fo=$(grep -oE "Assertion .fio_file_open|did not find replay device" "${c%%:*}.fio.err" | head -1)
        check "blktrace:no device found before (${c%%:*}: $out; fio: $fo)" test "$rc" -ne 0 \
            -a "$(printf '%s\n' "$out" | wc -l)" = 1 -a -n "$(printf '%s' "$out" | grep -F "${c%%:*}.bt: record 1:")" \
            -a -n "$fo"
    done
else
    skip blktrace:last-device "no loop device"
fi
# a short last record, a bad version: one line naming the record
head -c $(( $(stat -c %s one.bt) - 7 )) one.bt >short.bt
out=$(timeout 20 "$SB" --name=b --ioengine=null --replay_redirect=bt.dat --read_iolog=short.bt 2>&1 >/dev/null)
check "blktrace:short ($out)" test "$(printf '%s\n' "$out" | wc -l)" = 1 -a -n "$(printf '%s' "$out" | grep -F 'short')"
python3 -c "
d = bytearray(open('one.bt','rb').read()); d[52] = 6; open('ver.bt','wb').write(d)"
out=$(timeout 20 "$SB" --name=b --ioengine=null --replay_redirect=bt.dat --read_iolog=ver.bt 2>&1 >/dev/null)
check "blktrace:version ($out)" test -n "$(printf '%s' "$out" | grep -F 'ver.bt: record 2: blktrace version 6')"
# fio's --readonly: a replay leaves its writes (and trims; blktrace: every
# event of the write or discard category) out, and fio says how many of a
# blktrace it left
compare readonly --name=r --ioengine=null --read_iolog=src.log --readonly --replay_no_stall=1
bt bt-readonly --read_iolog=two.bt --readonly
a=$(grep -o 'skips replay of [0-9]* writes' bt-readonly.sb.err) b=$(grep -o 'skips replay of [0-9]* writes' bt-readonly.fio.err)
check "blktrace:readonly says what it left ($a)" test -n "$a" -a "$a" = "$b"
# what fio 3.33 cannot do is refused with the reason: reading a trace in
# chunks (its heap breaks), merging traces (its merge reads 8 bytes a record)
out=$(timeout 20 "$SB" --name=b --ioengine=null --replay_redirect=bt.dat --read_iolog=one.bt \
    --read_iolog_chunked=1 2>&1 >/dev/null)
check "blktrace:chunked refused ($out)" test -n "$(printf '%s' "$out" | grep -F 'corrupts its heap')"
out=$(timeout 20 "$SB" --name=b --ioengine=null --replay_redirect=bt.dat --read_iolog=one.bt:two.bt \
    --merge_blktrace_file=m.bt 2>&1 >/dev/null)
check "blktrace:merge refused ($out)" test -n "$(printf '%s' "$out" | grep -F 'merge_blktrace_file')" -a ! -e m.bt
