#!/bin/bash
# uring_knobs.sh - fio's io_uring engine options (hipri, fixedbufs,
# registerfiles, sqthread_poll(_cpu), nonvectored, nowait, force_async,
# uncached) on a RAM-backed loop device: each job's read and write counts
# equal the kernel's counters for the device, each option is recorded in the
# result's job parameters, and the ring's /proc/PID/fdinfo during the run
# shows the registered files and buffers (UserFiles/UserBufs) and the SQ
# poll thread (SqThread/SqThreadCpu) as asked. hipri on a loop device (no
# polled queues) is refused before any I/O with a one-line message. The
# device's descriptors are open O_NOATIME, as fio's are. With
# more in flight than the device has tags, the io-wq threads stay at one
# per worker, and every I/O is still counted.
source "$(dirname "$0")/lib.sh"

is_root || { skip all "needs root (loop device)"; exit 0; }
DEV=$(make_loop 64) || { skip all "cannot make a loop device"; exit 0; }

# fdinfo of the io_uring fd of process $1, once the ring is up (empty if
# none while it ran; looked for up to 120 s)
ring_fdinfo() {
    local pid=$1 fd
    for _ in $(seq 2400); do
        kill -0 "$pid" 2>/dev/null || return 0
        for fd in /proc/"$pid"/fd/*; do
            if [ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:[io_uring]" ]; then
                cat /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null
                return 0
            fi
        done
        sleep 0.05
    done
}
fdinfo_val() { awk -v k="$1:" '$1 == k {print $2; exit}' "$2"; }

# the open flags (octal, one line each) of every fd on $DEV of process $1
# and its children that can do I/O (an O_PATH fd, 010000000, cannot)
dev_fd_flags() {
    local p fd
    for p in "$1" $(pgrep -P "$1"); do
        for fd in /proc/"$p"/fd/*; do
            [ "$(readlink "$fd" 2>/dev/null)" = "$DEV" ] || continue
            awk '$1 == "flags:" && !(length($2) >= 8 && int(substr($2, length($2) - 7, 1)) % 2) {print $2}' \
                /proc/"$p"/fdinfo/"${fd##*/}" 2>/dev/null
        done
    done
}
# true when every flags line of file $1 has O_NOATIME (01000000) and there is one
all_noatime() { [ -s "$1" ] && ! awk '{ if (int(substr($1, length($1) - 6, 1)) % 2 == 0) bad = 1 } END { exit !bad }' "$1"; }

# job NAME ARGS...: a paced mixed job of 600 I/Os (about 0.6 s) on $DEV;
# checks the counts against the kernel's; leaves $WORK/NAME.json and the
# ring's fdinfo in $WORK/NAME.fdinfo
job() {
    local name=$1
    shift
    local before after
    before=$(disk_ios "$DEV")
    "$SSDBENCH" run -q --filename="$DEV" --destroy="$DEV" --engine=io_uring --rw=randrw \
        --bs=4k --size=64m --iodepth=8 --rate_iops=1000 --number_ios=600 "$@" \
        --format json -o "$WORK/$name.json" 2>"$WORK/$name.err" &
    local pid=$!
    ring_fdinfo "$pid" >"$WORK/$name.fdinfo"
    dev_fd_flags "$pid" >"$WORK/$name.fdflags"
    wait "$pid" || { fail "$name" "ssdbench failed: $(head -2 "$WORK/$name.err")"; return 1; }
    after=$(disk_ios "$DEV")
    local got
    got=$(json_get "$WORK/$name.json" \
        "' '.join(str(d['phases'][0]['results'][0][k]['ios']) for k in ('read', 'write'))")
    set -- $before
    local br=$1 bw=$2
    set -- $after
    local kern="$(($1 - br)) $(($2 - bw))"
    check "$name-counts" [ "$got" = "$kern" ] || echo "  ssdbench $got, kernel $kern (reads writes)"
    local total=$(($(echo "$got" | tr ' ' +)))
    check "$name-all-ios" [ "$total" = 600 ] || echo "  $total I/Os"
}
param() { json_get "$WORK/$1.json" "d['phases'][0]['jobs'][0]['params']['io_uring']['$2']"; }

# --- default: files and buffers registered when granted --------------------
job default
check default-params [ "$(param default fixedbufs)" = default ]
check default-userfiles [ "$(fdinfo_val UserFiles "$WORK/default.fdinfo")" = 1 ]
# a device node is read without access-time updates (O_NOATIME), as fio
# opens it: the I/O's own descriptor too, not only the one held for the guard
check default-noatime all_noatime "$WORK/default.fdflags" || cat "$WORK/default.fdflags"
fio --name=na --filename="$DEV" --ioengine=io_uring --direct=1 --rw=randread --bs=4k --size=64m \
    --rate_iops=1000 --number_ios=600 --output="$WORK/fio-na.out" &
fpid=$!
: >"$WORK/fio.fdflags"
for _ in $(seq 50); do
    for c in $(pgrep -P "$fpid"); do dev_fd_flags "$c"; done >"$WORK/fio.fdflags"
    [ -s "$WORK/fio.fdflags" ] && break
    sleep 0.05
done
wait "$fpid"
check fio-noatime-too all_noatime "$WORK/fio.fdflags" || cat "$WORK/fio.fdflags"

# --- fixedbufs / registerfiles on: registered ------------------------------
job fixed --fixedbufs --registerfiles
check fixed-params [ "$(param fixed fixedbufs) $(param fixed registerfiles)" = "on on" ]
check fixed-userfiles [ "$(fdinfo_val UserFiles "$WORK/fixed.fdinfo")" = 1 ]
check fixed-userbufs [ "$(fdinfo_val UserBufs "$WORK/fixed.fdinfo")" = 8 ] ||
    grep -E 'User(Files|Bufs)' "$WORK/fixed.fdinfo"

# --- off: nothing registered ------------------------------------------------
job plain --fixedbufs=0 --registerfiles=0
check plain-params [ "$(param plain fixedbufs) $(param plain registerfiles)" = "off off" ]
check plain-userfiles [ "$(fdinfo_val UserFiles "$WORK/plain.fdinfo")" = 0 ]
check plain-userbufs [ "$(fdinfo_val UserBufs "$WORK/plain.fdinfo")" = 0 ]

# --- vectored reads and writes (READV/WRITEV), nowait, force_async ---------
job vectored --nonvectored=0 --fixedbufs=0
check vectored-params [ "$(param vectored nonvectored)" = off ]
job nowait --nowait
check nowait-params [ "$(param nowait nowait)" = True ]
job force-async --force_async=3
check force-async-params [ "$(param force-async force_async)" = 3 ]

# --- sqthread_poll, pinned: the ring has an SQ thread on that CPU -----------
job sqpoll --sqthread_poll --sqthread_poll_cpu=0
sqt=$(fdinfo_val SqThread "$WORK/sqpoll.fdinfo")
check sqpoll-thread [ -n "$sqt" ] && [ "$sqt" -gt 0 ] || echo "  SqThread '$sqt'"
check sqpoll-cpu [ "$(fdinfo_val SqThreadCpu "$WORK/sqpoll.fdinfo")" = 0 ]
check sqpoll-params [ "$(param sqpoll sqthread_poll) $(param sqpoll sqthread_poll_cpu)" = "True 0" ]
check default-no-sqthread [ "$(fdinfo_val SqThread "$WORK/default.fdinfo")" = -1 ]

# --- uncached: buffered I/O with RWF_DONTCACHE, where the kernel has it -----
# (a block device's page cache does not take it: each I/O fails with
# EOPNOTSUPP, as fio's do with RWF_UNCACHED where it is unknown)
"$SSDBENCH" run -q --filename="$DEV" --engine=io_uring --rw=randread --bs=4k --size=64m \
    --number_ios=16 --direct=0 --uncached=1 --format json -o "$WORK/unc.json" 2>"$WORK/unc.err"
rc=$?
if [ "$rc" = 0 ]; then
    check uncached-ran [ "$(json_get "$WORK/unc.json" "d['phases'][0]['results'][0]['read']['ios']")" = 16 ]
else
    check uncached-eopnotsupp grep -q "Operation not supported" "$WORK/unc.err"
fi

# --- hipri: a loop device cannot poll; refused before any I/O ---------------
before=$(disk_ios "$DEV")
"$SSDBENCH" run -q --filename="$DEV" --engine=io_uring --rw=randread --bs=4k --size=64m \
    --number_ios=16 --hipri --format json -o "$WORK/hipri.json" 2>"$WORK/hipri.err"
rc=$?
check hipri-refused [ "$rc" != 0 ]
check hipri-message grep -q "hipri: loop[0-9]* (.*) does not support polled I/O" "$WORK/hipri.err"
check hipri-one-line [ "$(wc -l <"$WORK/hipri.err")" = 1 ] || cat "$WORK/hipri.err"
check hipri-no-io [ "$(disk_ios "$DEV")" = "$before" ]
"$SSDBENCH" run -q --filename="$DEV" --engine=io_uring --rw=randread --bs=4k --size=64m \
    --number_ios=16 --hipri=0 --format json -o "$WORK/hipri0.json" 2>"$WORK/hipri0.err"
check hipri-off-runs [ "$(json_get "$WORK/hipri0.json" "d['phases'][0]['results'][0]['read']['ios']")" = 16 ]

# --- io-wq: one bounded worker per thread on O_DIRECT block devices ---------
# 16 workers x QD16 keep 256 in flight on a queue of 32 tags; the requests
# that find none go to io-wq, capped at one thread per worker (engine_uring.c
# iowq_cap; without the cap the kernel starts up to 4 per CPU per worker).
# Every I/O still counted: the job's counts equal the kernel's.
nr=/sys/block/${DEV#/dev/}/queue/nr_requests
nr_was=$(cat "$nr")
echo 32 >"$nr"
before=$(disk_ios "$DEV")
timeout 60 "$SSDBENCH" run -q --filename="$DEV" --destroy="$DEV" --engine=io_uring --rw=randwrite \
    --bs=4k --size=64m --iodepth=16 --numjobs=16 --number_ios=4000 --format json \
    -o "$WORK/iowq.json" 2>"$WORK/iowq.err" &
pid=$!
iowq_max=0
while kill -0 "$pid" 2>/dev/null; do
    n=0
    for p in $(pgrep -P "$pid"); do # ssdbench, under timeout
        n=$((n + $(grep -l "^iou-wrk" /proc/"$p"/task/*/comm 2>/dev/null | wc -l)))
    done
    [ "$n" -gt "$iowq_max" ] && iowq_max=$n
    sleep 0.02
done
wait "$pid"
check iowq-ran [ $? = 0 ] || head -2 "$WORK/iowq.err"
echo "$nr_was" >"$nr"
after=$(disk_ios "$DEV")
got=$(json_get "$WORK/iowq.json" "sum(r['write']['ios'] for r in d['phases'][0]['results'])")
set -- $before; bw=$2
set -- $after
check iowq-counts [ "$got" = 64000 ] && [ "$(($2 - bw))" = 64000 ] || echo "  ssdbench $got, kernel $(($2 - bw)) writes"
check iowq-seen [ "$iowq_max" -gt 0 ] || echo "  no io-wq thread seen: the queue had tags enough"
check iowq-one-per-worker [ "$iowq_max" -le 16 ] || echo "  $iowq_max io-wq threads for 16 workers"

# --- bad values: one line naming the option ---------------------------------
"$SSDBENCH" run -q --filename="$DEV" --engine=io_uring --fixedbufs=maybe --number_ios=1 \
    -o "$WORK/bad.json" 2>"$WORK/bad.err"
check bad-value-refused [ $? != 0 ]
check bad-value-message grep -q "fixedbufs" "$WORK/bad.err"
# --- fio mode: --enghelp=io_uring lists the options, as fio ---------------------
ln -s "$SSDBENCH" "$WORK/fio"
"$WORK/fio" --enghelp=io_uring >"$WORK/eng.out"
rc=$?
check enghelp-rc [ "$rc" = 0 ]
for o in hipri fixedbufs registerfiles sqthread_poll sqthread_poll_cpu nonvectored uncached nowait force_async; do
    grep -q "^$o  *: " "$WORK/eng.out" || { fail enghelp-lists "$o missing"; continue; }
done
check enghelp-count [ "$(wc -l <"$WORK/eng.out")" = 9 ]
"$WORK/fio" --enghelp=io_uring,hipri >"$WORK/eng1.out"
check enghelp-one grep -q '^ *hipri: io_uring: polled completions' "$WORK/eng1.out"
exit 0
