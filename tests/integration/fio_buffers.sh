#!/bin/bash
# fio_buffers.sh - fio's write-buffer options checked byte by byte in the
# file written (read back after the run), side by side with fio 3.33 (a test
# dependency: missing, it is a failure): buffer_pattern (the same bytes as fio's file), zero_buffers
# (all zero), dedupe_percentage (the share of duplicate blocks, within
# binomial bounds; dedupe_mode=working_set: the set's size), buffer_compress_percentage with buffer_compress_chunk
# (fio's exact zero layout per chunk), scramble_buffers (each 512 B block
# carries its offset; off: one buffer repeated), and verify over all of them.
source "$(dirname "$0")/lib.sh"

HAVE_FIO=0
need_tool fio fio && HAVE_FIO=1

# job NAME FILE OPTIONS...: a one-job fio file $WORK/NAME.fio writing FILE
job() {
    local name=$1 file=$2
    shift 2
    {
        echo "[$name]"
        echo "filename=$file"
        echo "ioengine=psync"
        for o in "$@"; do echo "$o"; done
    } >"$WORK/$name.fio"
}
# both NAME OPTIONS...: the job run by ssdbench (into NAME.sb.dat) and, when
# installed, by fio (NAME.fio.dat); returns ssdbench's exit status
both() {
    local name=$1
    shift
    job "$name" "$WORK/$name.sb.dat" "$@"
    (cd "$WORK" && "$SSDBENCH" run -q --output-format=json "$name.fio" >"$name.sb.json" 2>"$name.sb.err")
    local rc=$?
    if [ $HAVE_FIO = 1 ]; then
        job "$name.f" "$WORK/$name.fio.dat" "$@"
        (cd "$WORK" && timeout 60 fio --output-format=json "$name.f.fio" >"$name.fio.json" 2>"$name.fio.err")
    fi
    return $rc
}
# py FILE SCRIPT: runs a Python check on the file's bytes (b); prints its verdict
py() { python3 - "$1" "$2" <<'PYEOF'
import sys, hashlib, math, struct
b = open(sys.argv[1], 'rb').read()
exec(sys.argv[2])
PYEOF
}

# --- buffer_pattern: fio's syntax, repeated from every buffer's start
PAT='0xdeadface"abcd"-12'
if both pat rw=write bs=4k size=256k "buffer_pattern=$PAT"; then
    # expected bytes computed here: de ad fa ce 'abcd' f4 ff ff ff, every 4 KiB block anew
    r=$(py "$WORK/pat.sb.dat" "
p = bytes.fromhex('deadface') + b'abcd' + struct.pack('<i', -12)
blk = (p * (4096 // len(p) + 1))[:4096]
print('ok' if len(b) == 262144 and b == blk * 64 else 'bad')")
    check pattern_bytes [ "$r" = ok ]
    if [ $HAVE_FIO = 1 ]; then
        check pattern_equals_fio cmp -s "$WORK/pat.sb.dat" "$WORK/pat.fio.dat"
    else
        skip pattern_equals_fio "not compared: fio is missing (needs_fio)"
    fi
else
    fail pattern_bytes "run failed: $(head -c 300 "$WORK/pat.sb.err")"
fi
# random writes of 8 KiB and a pattern that does not divide the block
if both patr rw=randwrite bs=8k size=128k 'buffer_pattern="ssd"0x0102030405' randrepeat=1; then
    if [ $HAVE_FIO = 1 ]; then
        check pattern_randwrite_equals_fio cmp -s "$WORK/patr.sb.dat" "$WORK/patr.fio.dat"
    else
        skip pattern_randwrite_equals_fio "not compared: fio is missing (needs_fio)"
    fi
else
    fail pattern_randwrite_equals_fio "run failed: $(head -c 300 "$WORK/patr.sb.err")"
fi
# a bad pattern: one line naming the option and the element, nothing run
job patbad "$WORK/patbad.dat" rw=write bs=4k size=64k 'buffer_pattern=0xff,"a"'
out=$(cd "$WORK" && "$SSDBENCH" run -q patbad.fio 2>&1)
check pattern_error_named bash -c '[ $(printf "%s\n" "$1" | wc -l) -eq 1 ] && [[ "$1" == *buffer_pattern* ]] && [ ! -e "$2" ]' _ "$out" "$WORK/patbad.dat"

# --- zero_buffers: every byte zero (and no scrambling of them)
if both zero rw=write bs=4k size=256k zero_buffers; then
    r=$(py "$WORK/zero.sb.dat" "print('ok' if len(b) == 262144 and b.count(0) == len(b) else 'bad %d' % (len(b) - b.count(0)))")
    check zero_buffers_all_zero [ "$r" = ok ]
else
    fail zero_buffers_all_zero "run failed: $(head -c 300 "$WORK/zero.sb.err")"
fi

# --- dedupe_percentage: distinct 4 KiB blocks. fio's rule: each buffer is
# with probability p a repeat, else new; the distinct count D is the number
# of new buffers U ~ Binomial(N, 1-p), plus at most one repeated buffer
# generated before the first write. Bounds: 6 standard deviations.
DEDUPE_CHECK='
N = len(b) // 4096
D = len(set(hashlib.sha1(b[i*4096:(i+1)*4096]).digest() for i in range(N)))
p = P / 100.0
m, sd = N * (1 - p), math.sqrt(N * p * (1 - p))
print("ok" if N == 1024 and m - 6 * sd <= D <= m + 6 * sd + 1 else "bad N=%d D=%d bounds %.0f..%.0f" % (N, D, m - 6 * sd, m + 6 * sd + 1))'
if both dd50 rw=write bs=4k size=4m dedupe_percentage=50; then
    r=$(py "$WORK/dd50.sb.dat" "P = 50
$DEDUPE_CHECK")
    check dedupe_50_binomial [ "$r" = ok ]
    if [ $HAVE_FIO = 1 ]; then
        r=$(py "$WORK/dd50.fio.dat" "P = 50
$DEDUPE_CHECK")
        check dedupe_50_rule_is_fios [ "$r" = ok ]
    fi
else
    fail dedupe_50_binomial "run failed: $(head -c 300 "$WORK/dd50.sb.err")"
fi
if both dd100 rw=write bs=4k size=1m dedupe_percentage=100; then
    r=$(py "$WORK/dd100.sb.dat" "
N = len(b) // 4096
D = len(set(b[i*4096:(i+1)*4096] for i in range(N)))
print('ok' if N == 256 and D == 1 and b.count(0) < len(b) // 64 else 'bad N=%d D=%d' % (N, D))")
    check dedupe_100_one_block [ "$r" = ok ]
else
    fail dedupe_100_one_block "run failed"
fi
# dedupe_mode=working_set (fio's dedupe.c): a duplicate is drawn from the
# first W = size * dedupe_working_set_percentage / 100 / bs unique buffers
# (4 MiB * 10 % / 4 KiB = 102), so at most W contents occur more than once
# (repeat mode: about N p (1-p) = 256 of them), all W once N p draws (512)
# have hit each of them (missing one: 102 (1-1/102)^512 < 0.7 %), and the
# distinct count is the new buffers' binomial count as in repeat mode.
WS_CHECK='
import collections
N = len(b) // 4096
c = collections.Counter(hashlib.sha1(b[i*4096:(i+1)*4096]).digest() for i in range(N))
D, R = len(c), sum(1 for v in c.values() if v > 1)
m, sd = N * 0.5, math.sqrt(N * 0.25)
print("ok" if N == 1024 and R == 102 and m - 6 * sd <= D <= m + 6 * sd + 1 else "bad N=%d D=%d R=%d" % (N, D, R))'
if both ddws rw=write bs=4k size=4m dedupe_percentage=50 dedupe_mode=working_set \
    dedupe_working_set_percentage=10; then
    r=$(py "$WORK/ddws.sb.dat" "$WS_CHECK")
    check "dedupe_working_set_102 ($r)" [ "$r" = ok ]
    if [ $HAVE_FIO = 1 ]; then
        r=$(py "$WORK/ddws.fio.dat" "$WS_CHECK")
        check "dedupe_working_set_rule_is_fios ($r)" [ "$r" = ok ]
    fi
else
    fail dedupe_working_set_102 "run failed: $(head -c 300 "$WORK/ddws.sb.err")"
fi
# dedupe_global (fio's init_global_dedupe_working_set_seeds): two jobs'
# working sets of W = 102 entries each are spread over both jobs' unique
# buffers (51 of each), so about W contents occur in both files (each file
# has its own 51 and draws the other's); without it, none (fio's jobs have
# buffers of their own). fio's files and ssdbench's alike.
DG_CHECK='
import collections, sys
def blocks(f):
    b = open(f, "rb").read()
    return [hashlib.sha1(b[i:i+4096]).digest() for i in range(0, len(b), 4096)]
a, c = blocks(sys.argv[1] + "/a.0.0"), blocks(sys.argv[1] + "/b.0.0")
ca, cc = collections.Counter(a), collections.Counter(c)
common = len(set(ca) & set(cc))
ra, rc = sum(1 for v in ca.values() if v > 1), sum(1 for v in cc.values() if v > 1)
print("ok" if len(a) == len(c) == 1024 and 90 <= common <= 102 and ra <= 102 and rc <= 102 and a != c
      else "bad common=%d repeated=%d,%d" % (common, ra, rc))'
printf '[global]\nioengine=psync\nsize=4m\nbs=4k\nrw=write\ndedupe_mode=working_set\ndedupe_percentage=50\ndedupe_working_set_percentage=10\ndedupe_global=1\n[a]\n[b]\n' >"$WORK/dg.fio"
for t in sb fio; do
    [ $t = fio ] && [ $HAVE_FIO = 0 ] && continue
    mkdir -p "$WORK/dgdir.$t"
    if [ $t = sb ]; then
        (cd "$WORK/dgdir.$t" && "$SSDBENCH" run -q --output-format=json ../dg.fio >../dg.sb.json 2>../dg.sb.err)
    else
        (cd "$WORK/dgdir.$t" && timeout 60 fio --output-format=json ../dg.fio >../dg.fio.json 2>../dg.fio.err)
    fi
    r=$(python3 -c "import hashlib
$DG_CHECK" "$WORK/dgdir.$t" 2>&1)
    check "dedupe_global_shared_$t ($r)" [ "$r" = ok ]
done

# --- buffer_compress_percentage: per chunk of min(bs, buffer_compress_chunk)
# the first chunk*(100-pct)/100 bytes random, the rest zero. Checked exactly:
# the zero region all zero in every chunk, and the region's edge where fio
# puts it (the byte before it is random: nonzero in at least 90% of the
# chunks, 255/256 by chance). ssdbench's random part also has no more zero
# bytes than chance allows (1/256 each, 6 standard deviations; fio's own
# generator gives somewhat more, so that bound is not applied to fio).
COMP_CHECK='
rnd = C * (100 - P) // 100
n = len(b) // C
bad_fixed = sum(1 for o in range(0, len(b), C) if b[o + rnd:o + C].count(0) != C - rnd)
edge = sum(1 for o in range(0, len(b), C) if b[o + rnd - 1] != 0)
zr = sum(b[o:o + rnd].count(0) for o in range(0, len(b), C))
M = n * rnd
lim = M / 256.0 + 6 * math.sqrt(M / 256.0) + 1 if CHANCE else M
print("ok" if len(b) == 262144 and bad_fixed == 0 and edge >= 0.9 * n and zr <= lim else "bad fixed=%d edge=%d/%d zero_in_random=%d lim=%.0f" % (bad_fixed, edge, n, zr, lim))'
for spec in "60 512 " "60 1024 buffer_compress_chunk=1k" "25 4096 buffer_compress_chunk=0" "90 2048 buffer_compress_chunk=2k"; do
    set -- $spec
    pct=$1 chunk=$2 opt=$3
    n=comp$pct.$chunk
    if both "$n" rw=write bs=4k size=256k buffer_compress_percentage=$pct $opt; then
        r=$(py "$WORK/$n.sb.dat" "P = $pct; C = $chunk; CHANCE = True
$COMP_CHECK")
        check "compress_${pct}_chunk_$chunk" [ "$r" = ok ]
        if [ $HAVE_FIO = 1 ]; then
            r=$(py "$WORK/$n.fio.dat" "P = $pct; C = $chunk; CHANCE = False
$COMP_CHECK")
            check "compress_${pct}_chunk_${chunk}_layout_is_fios" [ "$r" = ok ]
        fi
    else
        fail "compress_${pct}_chunk_$chunk" "run failed: $(head -c 300 "$WORK/$n.sb.err")"
    fi
done
# 100% is fio's zero buffers
if both comp100 rw=write bs=4k size=64k buffer_compress_percentage=100; then
    r=$(py "$WORK/comp100.sb.dat" "print('ok' if b.count(0) == len(b) == 65536 else 'bad')")
    check compress_100_is_zero [ "$r" = ok ]
else
    fail compress_100_is_zero "run failed"
fi

# --- scramble_buffers (fio's default 1): every 512 B block of a write that
# is not refilled carries its own file offset at one of its eight 64-byte
# lines; with scramble_buffers=0 the one buffer is written unchanged.
SCR_CHECK='
n = len(b) // 512
hit = sum(1 for i in range(n) if any(struct.unpack_from("<Q", b, i * 512 + 64 * k)[0] == i * 512 for k in range(8)))
print("ok" if n == 512 and hit == n else "bad %d of %d" % (hit, n))'
if both scr rw=write bs=4k size=256k; then
    r=$(py "$WORK/scr.sb.dat" "$SCR_CHECK")
    check scramble_offsets [ "$r" = ok ]
    if [ $HAVE_FIO = 1 ]; then
        r=$(py "$WORK/scr.fio.dat" "$SCR_CHECK")
        check scramble_rule_is_fios [ "$r" = ok ]
    fi
else
    fail scramble_offsets "run failed"
fi
if both noscr rw=write bs=4k size=256k scramble_buffers=0; then
    r=$(py "$WORK/noscr.sb.dat" "
D = len(set(b[i*4096:(i+1)*4096] for i in range(len(b) // 4096)))
print('ok' if len(b) == 262144 and D == 1 and b.count(0) < len(b) // 64 else 'bad D=%d' % D)")
    check scramble_off_one_buffer [ "$r" = ok ]
else
    fail scramble_off_one_buffer "run failed"
fi

# --- verify with the buffer options: verify's data is written (fio: verify
# overwrites the buffer), every block read back and found good
job ver "$WORK/ver.dat" rw=write bs=4k size=256k verify=crc32c 'buffer_pattern="x"' \
    buffer_compress_percentage=50 dedupe_percentage=50
if (cd "$WORK" && "$SSDBENCH" run -q --output-format=json ver.fio >ver.json 2>ver.err); then
    r=$(json_get "$WORK/ver.json" "'%d %d %d' % (d['jobs'][0]['error'], d['jobs'][0]['write']['total_ios'], d['jobs'][0]['read']['total_ios'])")
    check verify_with_buffer_options [ "$r" = "0 64 64" ]
    r=$(py "$WORK/ver.dat" "
n = len(b) // 4096
ok = all(struct.unpack_from('<I', b, i * 4096)[0] == 0x56445353 for i in range(n))
print('ok' if n == 64 and ok else 'bad')")
    check verify_headers_written [ "$r" = ok ]
else
    fail verify_with_buffer_options "run failed: $(head -c 300 "$WORK/ver.err")"
fi

cleanup
