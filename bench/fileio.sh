#!/bin/bash
# bench/fileio.sh - sysbench fileio 1.0.20 and `ssdbench fileio` side by side on
# the same small file set, counting what each gives the kernel (run by hand; not
# part of `make test`). For every test mode, thread count 1, 2, 4 and fsync
# setting (--file-fsync-freq 0, 1, 100; --file-fsync-all; --file-fsync-end off)
# both tools run the same count-bounded options (--events=N --time=0), each
# under `strace -f -c`, and one line per tool shows:
#   fsync, fdatasync, pwrite64, pread64: system calls strace counted;
#   events: "total number of events" as the tool prints it;
#   fsyncs: fsyncs/s x total time as printed (sysbench prints only rates, so
#           this is rounded and may be off by a few).
# A final "same" column says whether the four system call counts and the
# printed events agree. Environment: SSDBENCH (build/ssdbench), EVENTS (1000),
# FILES (4), TOTAL (16M), DIR (a new directory under /tmp; give one on another
# file system to test there).
set -u
cd "$(dirname "$0")/.." || exit 1
SSDBENCH=${SSDBENCH:-$PWD/build/ssdbench}
EVENTS=${EVENTS:-1000}
FILES=${FILES:-4}
TOTAL=${TOTAL:-16M}
command -v sysbench >/dev/null || { echo "bench/fileio.sh: sysbench is not installed"; exit 1; }
command -v strace >/dev/null || { echo "bench/fileio.sh: strace is not installed (apt-get install -y strace)"; exit 1; }
[ -x "$SSDBENCH" ] || { echo "bench/fileio.sh: build first (make)"; exit 1; }
OWN=""
if [ -z "${DIR:-}" ]; then
    DIR=$(mktemp -d /tmp/ssdbench-bench-fileio.XXXXXX)
    OWN=$DIR
fi
ST=$(mktemp /tmp/ssdbench-bench-fileio-strace.XXXXXX)
OUT=$(mktemp /tmp/ssdbench-bench-fileio-out.XXXXXX)
trap 'rm -f "$ST" "$OUT"; [ -n "$OWN" ] && rm -rf "$OWN"' EXIT
cd "$DIR" || exit 1
OPTS=(--file-num="$FILES" --file-total-size="$TOTAL")

# one tool, one option set: "fsync fdatasync pwrite64 pread64 events fsyncs"
measure() {
    local tool=$1; shift
    strace -f -qq -c -e trace=fsync,fdatasync,pwrite64,pread64 -o "$ST" "$tool" fileio "${OPTS[@]}" "$@" run \
        >"$OUT" 2>&1
    local c
    c=$(awk '{n[$NF]=$4} END {printf "%d %d %d %d", n["fsync"], n["fdatasync"], n["pwrite64"], n["pread64"]}' "$ST")
    local ev fs tt
    ev=$(awk '/total number of events:/{print $5}' "$OUT")
    fs=$(awk '/fsyncs\/s:/{print $2}' "$OUT")
    tt=$(awk '/total time:/{sub("s","",$3); print $3}' "$OUT")
    printf '%s %s %s' "$c" "${ev:--}" "$(python3 -c "print(round(${fs:-0} * ${tt:-0}))")"
}

printf '%-8s %2s %-22s %-8s %7s %9s %8s %7s %7s %7s  %s\n' mode T fsync tool fsync fdatasync pwrite64 pread64 events fsyncs same
total=0 same=0
for mode in seqwr seqrewr rndwr rndrw seqrd rndrd; do
    sysbench fileio "${OPTS[@]}" prepare >/dev/null 2>&1
    for t in 1 2 4; do
        for v in "--file-fsync-freq=0" "--file-fsync-freq=1" "--file-fsync-freq=100" "--file-fsync-all=on" \
                 "--file-fsync-end=off" "--file-fsync-mode=fdatasync"; do
            args=(--file-test-mode="$mode" --threads="$t" --events="$EVENTS" --time=0 "$v")
            a=$(measure sysbench "${args[@]}")
            b=$(measure "$SSDBENCH" "${args[@]}")
            # the syscall counts and the printed events must agree (rndrw at > 1 thread:
            # sysbench's read/write choice depends on timing, so only the totals)
            ok=no
            if [ "$mode" = rndrw ] && [ "$t" -gt 1 ]; then
                read -r a1 a2 a3 a4 a5 _ <<<"$a"
                read -r b1 b2 b3 b4 b5 _ <<<"$b"
                [ "$a1 $a2 $((a3 + a4)) $a5" = "$b1 $b2 $((b3 + b4)) $b5" ] && ok="yes (r+w)"
            else
                [ "$(cut -d' ' -f1-5 <<<"$a")" = "$(cut -d' ' -f1-5 <<<"$b")" ] && ok=yes
            fi
            total=$((total + 1))
            [ "$ok" != no ] && same=$((same + 1))
            # shellcheck disable=SC2086
            printf '%-8s %2s %-22s %-8s %7s %9s %8s %7s %7s %7s\n' "$mode" "$t" "${v#--file-}" sysbench $a
            # shellcheck disable=SC2086
            printf '%-8s %2s %-22s %-8s %7s %9s %8s %7s %7s %7s  %s\n' "" "" "" ssdbench $b "$ok"
        done
    done
    sysbench fileio "${OPTS[@]}" cleanup >/dev/null 2>&1
done
echo "same counts: $same of $total option sets"
