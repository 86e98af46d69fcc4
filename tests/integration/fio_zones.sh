#!/bin/bash
# fio_zones.sh - fio's zonemode=strided, run as `fio` through a symlink:
# the offsets of sequential jobs (read back from the latency log's offset
# column) equal fio 3.33's own write_iolog line for line - zone strides,
# zoneskip, zones larger than their range, the wrap at the end of the
# target, the restart when an I/O would pass it, offset/zoneskip in zones
# ("2z"), offset_increment clones; random jobs put every I/O in the zone fio
# uses at that point with equal counts per block; a fixed prefix is checked
# without fio too. The option rules (zonemode=none with zonesize, zbd) give
# fio's error lines.
source "$(dirname "$0")/lib.sh"

fio_side_by_side fio_zones
cd "$WORK/run" || exit 1
have_fio=false
[ "$FIO_VERSION" = fio-3.33 ] && have_fio=true
truncate -s 16M data

# job NAME FILE OPTION... : writes NAME.fio
job() {
    local name=$1 file=$2
    shift 2
    { echo "[$name]"; echo "filename=$file"; echo "ioengine=psync"; printf '%s\n' "$@"; } >"$name.fio"
}
# sb_offs NAME: ssdbench's "DIR OFFSET" per I/O, from its clat log(s)
sb_offs() {
    rm -f "$1".sb_clat.*.log
    "$SB" "$1.fio" --write_lat_log="$1.sb" --log_offset=1 --output="$1.sb.out" >"$1.sb.err" 2>&1 || return 1
    cat "$1".sb_clat.*.log | awk -F', ' '{print ($3 == 0 ? "read" : "write"), $5}'
}
# fio_offs NAME: fio's, from its write_iolog
fio_offs() {
    "$FIO" "$1.fio" --write_iolog="$1.iolog" --output="$1.fio.out" >"$1.fio.err" 2>&1 || return 1
    awk '$3 == "read" || $3 == "write" {print $3, $4}' "$1.iolog"
}
# same_seq NAME [FILE-TO-REMOVE] [sorted]: ssdbench's offsets equal fio's line
# for line (sorted: as a multiset - clones write fio's one iolog in turn)
same_seq() {
    local name=$1 f=$2 how=$3
    [ -n "$f" ] && rm -f "$f"
    sb_offs "$name" >"$name.s" || { fail "$name" "ssdbench failed: $(head -2 "$name.sb.err")"; return; }
    if ! $have_fio; then skip "$name-vs-fio" "the fio installed is not fio 3.33"; return; fi
    [ -n "$f" ] && rm -f "$f"
    fio_offs "$name" >"$name.f" || { fail "$name-vs-fio" "fio failed: $(head -2 "$name.fio.err")"; return; }
    if [ "$how" = sorted ]; then
        sort "$name.f" -o "$name.f"
        sort "$name.s" >"$name.s.sorted"
        mv "$name.s.sorted" "$name.s"
    fi
    if [ -s "$name.f" ] && cmp -s "$name.f" "$name.s"; then
        pass "$name-vs-fio"
    else
        fail "$name-vs-fio" "fio $(wc -l <"$name.f") I/Os, ssdbench $(wc -l <"$name.s"); first difference: $(diff "$name.f" "$name.s" | sed -n 2p)"
    fi
}

S=zonemode=strided
job stride data rw=read bs=4k $S zonesize=16k zonerange=64k zoneskip=32k size=1M
same_seq stride
# without fio: the first zones as fio's rule puts them (KiB 0 4 8 12, 96 ...)
check stride-prefix [ "$(head -9 stride.s | awk '{printf "%d ", $2 / 1024}')" = "0 4 8 12 96 100 104 108 192 " ]
check stride-count [ "$(wc -l <stride.s)" -eq 256 ]
check stride-zones-past-size [ "$(tail -1 stride.s | awk '{print $2}')" -gt 1048576 ]

job bigzone data rw=read bs=4k $S zonesize=128k zonerange=64k size=1M
same_seq bigzone
check bigzone-twice [ "$(awk '{print $2}' bigzone.s | sort | uniq -c | awk '$1 != 2' | wc -l)" -eq 0 ]

job inzones data rw=read bs=8k $S zonesize=16k zonerange=32k zoneskip=2z offset=1z size=2M
same_seq inzones
check inzones-first [ "$(head -1 inzones.s | awk '{print $2}')" -eq 16384 ]

job wrap data rw=read bs=4k $S zonesize=16k zonerange=64k zoneskip=4M size=16M
same_seq wrap
job restart data rw=read bs=4k $S zonesize=64k offset=16344k size=40k io_size=200k
same_seq restart
check restart-prefix [ "$(awk '{print $2}' restart.s | sort -u | wc -l)" -eq 10 ] 
job clones data rw=read bs=4k $S zonesize=16k zonerange=64k zoneskip=32k size=1M numjobs=2 offset_increment=2M
same_seq clones "" sorted
# each clone's own order: clone 0's zones start at multiples of 96k, clone 1's 32k after
check clones-own-order [ "$(awk -F', ' '{printf "%d ", $5 / 1024}' clones.sb_clat.2.log | cut -d' ' -f1-5)" = "2048 2052 2056 2060 2144" ]
job writes wdata rw=write bs=4k $S zonesize=16k zonerange=64k zoneskip=32k size=1M
same_seq writes wdata

# random: the zone of every I/O in order, and each block twice (the map
# starts over every zonerange bytes of a zone twice its range)
job rand data rw=randread bs=4k $S zonesize=128k zonerange=64k zoneskip=64k size=2M
sb_offs rand >rand.s || fail rand "ssdbench failed: $(head -2 rand.sb.err)"
awk '{print int($2 / 131072)}' rand.s >rand.s.z
check rand-zone-order [ "$(uniq -c rand.s.z | awk '{printf "%d:%d ", $2, $1}' | cut -d' ' -f1-3)" = "0:32 1:32 2:32" ]
check rand-inside-zones [ "$(awk '$2 % 131072 >= 65536' rand.s | wc -l)" -eq 0 ]
check rand-each-block-twice [ "$(awk '{print $2}' rand.s | sort | uniq -c | awk '$1 != 2' | wc -l)" -eq 0 ]
if $have_fio; then
    fio_offs rand >rand.f
    awk '{print int($2 / 131072)}' rand.f >rand.f.z
    check rand-zones-vs-fio cmp -s rand.f.z rand.s.z
    check rand-counts-vs-fio [ "$(awk '{print $2}' rand.f | sort | uniq -c | awk '{print $1}' | sort | uniq -c)" = \
        "$(awk '{print $2}' rand.s | sort | uniq -c | awk '{print $1}' | sort | uniq -c)" ]
fi

# the null engine walks zones too (no target: the zones wrap at size)
job nullz unused ioengine=null rw=read bs=4k $S zonesize=8k zonerange=16k zoneskip=16k size=64k io_size=64k
sb_offs nullz >nullz.s || fail nullz "$(head -2 nullz.sb.err)"
check null-zones [ "$(awk '{printf "%d ", $2 / 1024}' nullz.s | cut -d' ' -f1-6)" = "0 4 32 36 0 4" ]

# option rules, fio's lines
job nomode data rw=read zonesize=64k
"$SB" nomode.fio --output=nomode.out >nomode.err 2>&1; rc=$?
grep -q 'zonemode=none and zonesize are not compatible' nomode.err; g=$?
check nomode-refused [ $rc -ne 0 -a $g -eq 0 ]
if $have_fio; then
    "$FIO" nomode.fio --output=nomode.fio.out >nomode.fio.err 2>&1; frc=$?
    grep -q 'zonemode=none and --zonesize are not compatible' nomode.fio.err; g=$?
    check nomode-fio-also [ $frc -ne 0 -a $g -eq 0 ]
fi
# zonemode=zbd on a regular file: fio emulates zones there, ssdbench needs
# a zoned block device (the zoned runs are in the device lab)
job zbd data rw=read zonemode=zbd
"$SB" zbd.fio --output=zbd.out >zbd.err 2>&1; rc=$?
grep -q 'zonemode=zbd needs one zoned block device' zbd.err; g=$?
check zbd-on-a-file-refused [ $rc -ne 0 -a "$(wc -l <zbd.err)" -eq 1 -a $g -eq 0 ]
job badz data rw=read offset=1.5z
"$SB" badz.fio --output=badz.out >badz.err 2>&1
check bad-zone-count grep -q "unexpected zone value '1.5z'" badz.err
