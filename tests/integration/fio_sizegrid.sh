#!/bin/bash
# run.sh: long
# fio_sizegrid.sh - fio 3.33's file arithmetic (filesetup.c setup_files,
# get_start_offset) over a grid of job shapes: every mix of offset (none,
# 10%, 25%, 32k), size (none, 50%, 256k, 1m), filesize (none, 512k, 1m) and
# an extra (none, numjobs=2, numjobs=2 with offset_increment=64k,
# io_size=128k, nrfiles=2), 220 sequential read jobs, once with psync on
# fio's default per-clone files in an empty directory (files the run
# creates) and once with ioengine=null (files fio never opens). Each job runs
# under fio and under ssdbench invoked as fio; they agree when the summed
# I/O count, bytes, each job's error and the exit status are equal, or when
# both refuse the job (fio exits non-zero with no I/O, ssdbench writes no
# JSON). A second, smaller grid covers what fio adds to those shapes:
# offset_increment=P% and io_size=P% (with files the run makes and with
# files an earlier job of the same run wrote), nrfiles with percentages and
# file_append on file sets and several files.
source "$(dirname "$0")/lib.sh"

fio_side_by_side sizegrid

# res JSON RC: "IOS BYTES [errors] rc=RC", or "nojson rc=RC"
res() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
try:
    d = json.loads(t[t.index("{"):])
    jobs = d["jobs"]
    ios = sum(j[k]["total_ios"] for j in jobs for k in ("read", "write", "trim"))
    b = sum(j[k]["io_bytes"] for j in jobs for k in ("read", "write", "trim"))
    print(ios, b, [j["error"] for j in jobs], "rc=" + sys.argv[2])
except Exception:
    print("nojson rc=" + sys.argv[2])
EOF
}

# pair ARGS...: runs the job under both in empty directories (under $PD,
# default $WORK); prints "SAME ...", "BOTH-REFUSE ..." or
# "DIFF fio[...] sb[...] :: ARGS"
pair() {
    local a b rc p=${PD:-$WORK}
    rm -rf "$p/d1" "$p/d2" && mkdir -p "$p/d1" "$p/d2"
    (cd "$p/d1" && timeout 60 "$FIO" --output-format=json "$@" >"$p/o1.json" 2>"$p/e1.txt")
    rc=$?
    a=$(res "$p/o1.json" $rc)
    (cd "$p/d2" && timeout 60 "$SB" --output-format=json "$@" >"$p/o2.json" 2>"$p/e2.txt")
    rc=$?
    b=$(res "$p/o2.json" $rc)
    case "$a" in "0 0 "*|nojson*) fio_none=1 ;; *) fio_none=0 ;; esac
    if [ "$a" = "$b" ]; then
        echo "SAME $a :: $*"
    elif [ "$fio_none" = 1 ] && [ "${a##*rc=}" != 0 ] && [ "${b%% *}" = nojson ] && [ "${b##*rc=}" != 0 ]; then
        echo "BOTH-REFUSE :: $*"
    else
        echo "DIFF fio[$a $(grep -v '^$' "$p/e1.txt" | head -n 1)] sb[$b $(grep -v '^$' "$p/e2.txt" | head -n 1)] :: $*"
    fi
}

# grid ENGINE: the 220 shapes
grid() {
    local off sz fsz extra
    for off in "" --offset=10% --offset=25% --offset=32k; do
    for sz in "" --size=50% --size=256k --size=1m; do
    for fsz in "" --filesize=512k --filesize=1m; do
    for extra in "" --numjobs=2 "--numjobs=2 --offset_increment=64k" --io_size=128k --nrfiles=2; do
        [ -z "$sz$fsz" ] && continue
        # shellcheck disable=SC2086
        pair --name=x --ioengine="$1" --rw=read $off $sz $fsz $extra
    done; done; done; done
}

# judge NAME FILE EXPECTED: every line agrees, and there are EXPECTED lines
judge() {
    local n d
    n=$(grep -c . "$2")
    d=$(grep -c '^DIFF' "$2")
    if [ "$n" = "$3" ] && [ "$d" = 0 ]; then
        pass "$1 ($n of $n jobs agree)"
    else
        fail "$1" "$((n - d)) of $n jobs agree (expected $3): $(grep '^DIFF' "$2" | head -n 3 | tr '\n' ' ')"
    fi
}

# the two grids side by side, each in its own directory
mkdir -p "$WORK/gp" "$WORK/gn"
PD="$WORK/gp" grid psync >"$WORK/grid_psync.txt" &
PD="$WORK/gn" grid null >"$WORK/grid_null.txt" &
wait
judge grid-psync "$WORK/grid_psync.txt" 220
judge grid-null "$WORK/grid_null.txt" 220

# what fio adds: percentages of increments and I/O amounts, file sets with
# percentages, appends to file sets and to several files
P="--name=x --ioengine=psync"
W="--name=w --ioengine=psync --rw=write --bs=4k"
{
    for e in psync null; do
        pair --name=x --ioengine=$e --rw=read --size=256k --numjobs=2 --offset_increment=50%
        pair --name=x --ioengine=$e --rw=read --size=1m --numjobs=3 --offset_increment=25%
        pair --name=x --ioengine=$e --rw=read --size=1m --io_size=50%
        pair --name=x --ioengine=$e --rw=randread --size=1m --io_size=30%
        pair --name=x --ioengine=$e --rw=read --size=256k --filesize=1m --io_size=50%
        pair --name=x --ioengine=$e --rw=read --filesize=1m --io_size=10% --loops=2
        pair --name=x --ioengine=$e --rw=read --size=1m --nrfiles=2 --io_size=50%
        pair --name=x --ioengine=$e --rw=read --filesize=512k --nrfiles=3 --size=50% --offset=10%
        pair --name=x --ioengine=$e --rw=read --size=512k --nrfiles=2 --numjobs=2 --offset_increment=10%
    done
    # files the run makes: the increment is of the file each clone finds
    pair $P --rw=read --filesize=1m --numjobs=3 --offset_increment=25%
    pair $P --rw=read --filesize=512k --nrfiles=2 --numjobs=2 --offset_increment=10%
    pair $P --rw=read --filename=f --size=256k --numjobs=3 --offset_increment=50%
    # a file the first job wrote: the percentages are of its size
    pair $W --size=1m --filename=f --name=y --stonewall --rw=read --filename=f --numjobs=2 --offset_increment=25% --size=256k
    pair $W --size=1m --filename=f --name=y --stonewall --rw=read --filename=f --io_size=25%
    pair $W --size=1m --filename=f --name=y --stonewall --rw=randread --filename=f --offset=50% --io_size=50%
    pair $W --size=1m --filename=f --name=y --stonewall --rw=read --filename=f --size=50% --numjobs=2 --offset_increment=10%
    pair $W --size=512k --nrfiles=2 --name=y --stonewall --rw=read --filename_format='w.0.$filenum' --nrfiles=2 --size=50% --offset=25%
    pair $W --size=512k --nrfiles=2 --name=y --stonewall --rw=read --filename_format='w.0.$filenum' --nrfiles=2 --offset_increment=10% --io_size=50%
    # size=P% of files not there yet: fio refuses
    pair $P --rw=read --size=50% --nrfiles=2
    pair $P --rw=read --size=100% --filename=f
} >"$WORK/grid_more.txt"
judge grid-more "$WORK/grid_more.txt" 29

# file_append: each file of a set, and each of several files, written at its
# end (the old contents kept); the write count and the files' sizes
append_sizes() {
    local dir=$1 bin=$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && for f in a b w.0.0 w.0.1 w.1.0 w.1.1; do cp "$WORK/ref" $f; done &&
        SSDBENCH_DESTROY="$dir/a:$dir/b:$dir/w.0.0:$dir/w.0.1:$dir/w.1.0:$dir/w.1.1" \
            timeout 60 "$bin" --output-format=json "$@" >out.json 2>err.txt
        echo "rc=$?"
        python3 -c 'import json; d=json.load(open("out.json")); print(sum(j["write"]["total_ios"] for j in d["jobs"]))' 2>/dev/null
        stat -c '%n=%s' a b w.0.0 w.0.1 w.1.0 w.1.1 | tr '\n' ' ')
}
old_kept() {
    local f
    for f in a b w.0.0 w.0.1 w.1.0 w.1.1; do cmp -s -n 8192 "$1/$f" "$WORK/ref" || return 1; done
}
printf 'abcd%.0s' $(seq 1 2048) >"$WORK/ref"
A="--name=w --rw=write --bs=4k --size=16k --file_append=1"
for args in "$A --nrfiles=2" "$A --nrfiles=2 --numjobs=2" "$A --filename=a --numjobs=2" \
            "--name=w --rw=write --bs=4k --file_append=1 --filename=a" \
            "--name=w --rw=write --bs=4k --file_append=1 --nrfiles=2" \
            "$A --filename=a:b"; do
    # shellcheck disable=SC2086
    a=$(append_sizes "$WORK/ap1" "$FIO" $args)
    # shellcheck disable=SC2086
    b=$(append_sizes "$WORK/ap2" "$SB" $args)
    case "$a" in rc=0*) ;; *) a="refused" ;; esac
    case "$b" in rc=0*) ;; *) [ "$(grep -c . "$WORK/ap2/err.txt")" = 1 ] && b="refused" ;; esac
    if [ "$a" = "$b" ] && old_kept "$WORK/ap2"; then
        pass "file_append $args"
    else
        fail "file_append $args" "fio: $(echo $a), ssdbench: $(echo $b) $(head -c 200 "$WORK/ap2/err.txt")"
    fi
done
# the guard: without consent, existing files that are not ssdbench's are
# refused (one line) and left as they were
rm -rf "$WORK/ap3" && mkdir -p "$WORK/ap3"
(cd "$WORK/ap3" && echo data >w.0.0 && echo data >w.0.1 && echo data >a && echo data >b &&
    timeout 60 "$SB" $A --nrfiles=2 >out.txt 2>err.txt; echo $? >rc1
    timeout 60 "$SB" $A --filename=a:b >out2.txt 2>err2.txt; echo $? >rc2)
guarded() {
    [ "$(cat "$WORK/ap3/rc1")" != 0 ] && [ "$(cat "$WORK/ap3/rc2")" != 0 ] &&
        [ "$(cat "$WORK/ap3/w.0.0" "$WORK/ap3/w.0.1" "$WORK/ap3/a" "$WORK/ap3/b" | tr -d '\n')" = datadatadatadata ] &&
        [ "$(grep -c . "$WORK/ap3/err.txt")" = 1 ] && [ "$(grep -c . "$WORK/ap3/err2.txt")" = 1 ]
}
check "file_append without consent is refused" guarded
