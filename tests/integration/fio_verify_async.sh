#!/bin/bash
# run.sh: timeout 400
# fio_verify_async.sh - verify's threads, stops and counts side by side with
# fio 3.33 (ssdbench run as fio):
#  - verify_async=N: N threads per worker named sb-verify-K exist while a
#    verify job runs, pinned to verify_async_cpus (sched_getaffinity of
#    each), or on the worker's own cpus_allowed without it; they are gone
#    after a runtime end and after SIGINT (the process ends in time);
#  - a bad block (fio's verify=pattern data, which both tools check): the
#    job ends at it as fio's does, with the same reads, error 84 and fio's
#    lines on stderr, synchronous or with verify_async; continue_on_error=
#    verify counts every bad block (fio's three lines); verify_fatal stops
#    even then; verify_dump writes the same two files as fio's;
#  - verify_only: fio's dry-run writes (and a randrw job's dry-run reads)
#    are in total_ios, io_bytes and "issued rwts", as fio counts them;
#  - verify_backlog, psync and libaio/io_uring at iodepth 4-16: fio's
#    counts; the write_iolog sequence of reads and writes where fio's own
#    is the same run after run (libaio at depth 8 and 16, norandommap,
#    a batch smaller than the backlog).
source "$(dirname "$0")/lib.sh"

fio_side_by_side verifyasync
cd "$WORK/run" || exit 1

# counts FILE: "reads/writes/trims/error" of the first job of a JSON output
counts() {
    python3 - "$1" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
try:
    j = json.loads(t[t.index("{"):])["jobs"][0]
    print("%d/%d/%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"], j["error"]))
except Exception:
    print("none")
EOF
}
bytes() {
    python3 - "$1" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
try:
    j = json.loads(t[t.index("{"):])["jobs"][0]
    print("%d/%d" % (j["read"]["io_bytes"], j["write"]["io_bytes"]))
except Exception:
    print("none")
EOF
}
# vlines FILE: the verify lines of stderr (not the summaries, which name the
# tool; a dump's name without its directory: ssdbench writes it next to the
# file, fio in the working directory)
vlines() { grep -v -e '^fio: pid=' -e '^ssdbench: ' "$1" | sed 's|dumped as .*/|dumped as |'; }

# ---- threads: there, pinned, joined -------------------------------------
T=$WORK/run/t.dat
SSDBENCH_DESTROY=$T timeout 60 "$SB" --name=t --filename="$T" --size=16m --bs=4k --rw=write --verify=crc32c \
    --do_verify=0 >/dev/null 2>&1
# tasks PID: "comm cpus" of every verify thread of PID
tasks() {
    python3 - "$1" <<'EOF'
import os, sys
d = "/proc/%s/task" % sys.argv[1]
for t in sorted(os.listdir(d)):
    try:
        c = open("%s/%s/comm" % (d, t)).read().strip()
        if c.startswith("sb-verify"):
            print(c, ",".join(str(x) for x in sorted(os.sched_getaffinity(int(t)))))
    except OSError:
        pass
EOF
}
# watch NAME EXPECT ARGS...: a read job checking every block while it runs,
# its verify threads looked at after a second
watch() {
    local n=$1 want=$2
    shift 2
    # (not under timeout: its pid is the one looked at; ended below if need be)
    "$SB" --output-format=json --name=t --filename="$T" --size=16m --bs=4k --rw=randread \
        --verify=crc32c --ioengine=libaio --iodepth=4 "$@" >"$n.json" 2>"$n.err" &
    local pid=$! seen="" last=""
    # the same threads in two looks 0.2 s apart (a loaded host starts late)
    for _ in $(seq 100); do
        sleep 0.2
        seen=$(tasks "$pid" 2>/dev/null | sort | tr '\n' ';')
        [ -n "$seen" ] && [ "$seen" = "$last" ] && break
        last=$seen
    done
    echo "$pid" >"$n.pid"
    check "threads:$n ($seen)" test "$seen" = "$want"
}
# waitfor PID: its status, ended with SIGKILL after 60 s (a hang)
waitfor() {
    for _ in $(seq 600); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$1" 2>/dev/null
    wait "$1"
}
if [ "$(nproc)" -ge 2 ]; then
    watch pinned "sb-verify-0 1;sb-verify-1 1;" --verify_async=2 --verify_async_cpus=1 --time_based --runtime=5
    waitfor "$(cat pinned.pid)"
    rc=$?
    check "threads:runtime_end_clean (rc $rc, $(counts pinned.json))" test "$rc" = 0 -a \
        "$(counts pinned.json | cut -d/ -f4)" = 0 -a "$(counts pinned.json | cut -d/ -f1)" -gt 100
    watch inherit "sb-verify-0 0;sb-verify-1 0;sb-verify-2 0;" --verify_async=3 --cpus_allowed=0 \
        --time_based --runtime=60
    kill -INT "$(cat inherit.pid)"
    waitfor "$(cat inherit.pid)"
    # SIGINT: the threads are joined and the process ends at once
    watch sigint "sb-verify-0 0,1;" --verify_async=1 --time_based --runtime=60
    pid=$(cat sigint.pid)
    kill -INT "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    check "threads:sigint_ends" bash -c "! kill -0 $pid 2>/dev/null"
    waitfor "$pid"
    check "threads:sigint_reported ($(counts sigint.json))" test "$(counts sigint.json | cut -d/ -f1)" -gt 0
else
    skip threads "needs two CPUs"
fi
out=$(timeout 20 "$SB" --name=t --filename="$T" --size=1m --rw=read --verify=crc32c --verify_async=1 \
    --verify_async_cpus=0-x 2>&1 >/dev/null)
check "threads:bad_cpu_list ($out)" test "$(printf '%s\n' "$out" | wc -l)" = 1 -a \
    -n "$(printf '%s' "$out" | grep verify_async_cpus)"

# ---- a bad block: fio's stop, lines and counts -------------------------
P=$WORK/run/p.dat
PAT="--name=p --filename=$P --size=256k --bs=4k --verify=pattern --verify_pattern=0x5a5a1234"
# shellcheck disable=SC2086
timeout 60 "$FIO" $PAT --rw=write --do_verify=0 >/dev/null 2>&1
for b in 10 20 30; do
    printf '\x01\x02' | dd of="$P" bs=1 seek=$((4096 * b + 100)) conv=notrunc status=none
done
# bad NAME TOOLARGS...: fio (f.NAME) and ssdbench, synchronous (s.NAME)
# and with verify_async=2 (a.NAME), in one directory each (the dumps)
bad() {
    local n=$1 t
    shift
    for t in f s a; do
        mkdir -p "$WORK/run/$t.$n"
        # shellcheck disable=SC2086
        case $t in
        f) (cd "$t.$n" && timeout 60 "$FIO" $PAT --output-format=json "$@" >../$t.$n.json 2>../$t.$n.err) ;;
        s) (cd "$t.$n" && timeout 60 "$SB" $PAT --output-format=json "$@" >../$t.$n.json 2>../$t.$n.err) ;;
        a) (cd "$t.$n" && timeout 60 "$SB" $PAT --output-format=json --verify_async=2 "$@" >../$t.$n.json \
            2>../$t.$n.err) ;;
        esac
        # ssdbench writes verify_dump's files next to a regular file (fio: in
        # the working directory)
        [ $t != f ] && mv -f "$WORK"/run/p.dat.*.received "$WORK"/run/p.dat.*.expected "$t.$n/" 2>/dev/null
    done
    local f s a
    f=$(counts "f.$n.json") s=$(counts "s.$n.json") a=$(counts "a.$n.json")
    check "bad:$n:counts (fio $f, sync $s, async $a)" test "$f" != none -a "$f" = "$s" -a "$s" = "$a"
    vlines "f.$n.err" >"f.$n.lines"
    vlines "s.$n.err" >"s.$n.lines"
    vlines "a.$n.err" >"a.$n.lines"
    check "bad:$n:lines ($(wc -l <"f.$n.lines") lines)" \
        bash -c "test -s f.$n.lines && cmp -s f.$n.lines s.$n.lines && cmp -s s.$n.lines a.$n.lines"
}
bad stop --rw=write --verify_only=1
check "bad:stop:at_the_first (fio $(counts f.stop.json))" test "$(counts f.stop.json)" = 11/64/0/84
bad readjob --rw=read
check "bad:readjob:at_the_first ($(counts s.readjob.json))" test "$(counts s.readjob.json)" = 11/0/0/84
bad cont --rw=write --verify_only=1 --continue_on_error=verify
check "bad:cont:every_block (fio $(counts f.cont.json), $(vlines s.cont.err | grep -c '^pattern: '))" \
    test "$(counts s.cont.json)" = 64/64/0/84 -a "$(vlines s.cont.err | grep -c '^pattern: ')" = 3
bad fatal --rw=write --verify_only=1 --continue_on_error=verify --verify_fatal=1
check "bad:fatal:stops_even_so ($(counts s.fatal.json))" test "$(counts s.fatal.json)" = 11/64/0/84
bad dump --rw=write --verify_only=1 --verify_dump=1
for t in s a; do
    check "bad:dump:$t:same_files_as_fio" bash -c "cmp f.dump/p.dat.40960.received $t.dump/p.dat.40960.received &&
        cmp f.dump/p.dat.40960.expected $t.dump/p.dat.40960.expected"
done
# at depth the reads in flight when the bad block is seen still complete
for t in s a; do
    x=""
    [ $t = a ] && x=--verify_async=4
    # shellcheck disable=SC2086
    timeout 60 "$SB" $PAT --output-format=json --rw=write --verify_only=1 --ioengine=libaio --iodepth=8 $x \
        >"$t.qd8.json" 2>"$t.qd8.err"
    r=$(counts "$t.qd8.json")
    check "bad:qd8:$t ($r)" test "${r##*/}" = 84 -a "${r%%/*}" -ge 11 -a "${r%%/*}" -le 18
done

# ---- verify_only: fio's dry run in the counts --------------------------
for c in "--rw=write" "--rw=randwrite --ioengine=libaio --iodepth=8" "--rw=randrw" "--rw=write --bs=8k"; do
    V="--name=o --filename=$WORK/run/o.dat --size=256k --bs=4k --verify=pattern --verify_pattern=0x77"
    rm -f o.dat
    # shellcheck disable=SC2086
    timeout 60 "$FIO" $V $c --do_verify=0 >/dev/null 2>&1
    # shellcheck disable=SC2086
    timeout 60 "$FIO" $V $c --verify_only=1 --output-format=json >f.vo.json 2>/dev/null
    # shellcheck disable=SC2086
    timeout 60 "$SB" $V $c --verify_only=1 --output-format=json >s.vo.json 2>/dev/null
    # shellcheck disable=SC2086
    timeout 60 "$FIO" $V $c --verify_only=1 2>/dev/null | grep 'issued rwts' >f.vo.txt
    # shellcheck disable=SC2086
    timeout 60 "$SB" $V $c --verify_only=1 2>/dev/null | grep 'issued rwts' >s.vo.txt
    f="$(counts f.vo.json) $(bytes f.vo.json)" s="$(counts s.vo.json) $(bytes s.vo.json)"
    check "verify_only:${c// /_} (fio $f, ssdbench $s)" test "$f" = "$s" -a "${s%% *}" != none
    check "verify_only:${c// /_}:issued ($(cat s.vo.txt))" diff f.vo.txt s.vo.txt
done

# ---- verify_backlog with depth: fio's counts and order ------------------
# blog NAME ORDER ARGS...: counts of both tools; with ORDER=1 also the
# sequence of reads and writes in write_iolog
blog() {
    local n=$1 order=$2 t bin
    shift 2
    for t in f s; do
        [ $t = f ] && bin=$FIO || bin=$SB
        rm -f "b.$t.dat" "b.$t.log"
        SSDBENCH_DESTROY=$WORK/run/b.$t.dat timeout 60 "$bin" --name=b --filename="$WORK/run/b.$t.dat" \
            --verify=crc32c --bs=4k --write_iolog="b.$t.log" --output-format=json "$@" >"b.$t.json" 2>"b.$t.err"
        grep -E ' (read|write) ' "b.$t.log" | awk '{print $3, $4}' >"b.$t.ops"
    done
    local f s
    f=$(counts b.f.json) s=$(counts b.s.json)
    check "backlog:$n:counts (fio $f, ssdbench $s)" test "$f" != none -a "$f" = "$s"
    if [ "$order" = 1 ]; then
        check "backlog:$n:order ($(wc -l <b.s.ops) I/Os)" cmp -s b.f.ops b.s.ops
    fi
}
blog libaio8 1 --rw=randwrite --size=256k --verify_backlog=16 --ioengine=libaio --iodepth=8
# libaio16_batch: counts only. Its order was fio's before fio mode took
# fio's one-I/O-per-submit queue; with that queue the reads come back in a
# different (deterministic) interleaving than fio's: a known difference,
# named in docs/fio.md ("verify_backlog")
blog libaio16_batch 0 --rw=randwrite --size=1m --verify_backlog=32 --verify_backlog_batch=64 --ioengine=libaio \
    --iodepth=16
blog norandommap 1 --rw=randwrite --size=256k --verify_backlog=8 --norandommap
blog small_batch 1 --rw=write --size=256k --verify_backlog=7 --verify_backlog_batch=3
blog uring16 0 --rw=randwrite --size=1m --verify_backlog=10 --ioengine=io_uring --iodepth=16
blog libaio4_seq 0 --rw=write --size=1m --verify_backlog=7 --verify_backlog_batch=3 --ioengine=libaio --iodepth=4
blog uring32 0 --rw=write --size=1m --verify_backlog=5 --ioengine=io_uring --iodepth=32
