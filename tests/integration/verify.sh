#!/bin/bash
# run.sh: long (started first)
# verify.sh - fio's verify family: write + read-back on a file and on a loop
# device for every checksum (fio's crc64, crc32, crc16, crc7, sha1, sha512
# and sha3-* included) (sequential and random, several seeds, block
# size mixes, norandommap, verify_backlog) reports zero bad blocks and checks
# every block written; bytes changed in the backing file between a write job
# and a verify_only job are found at exactly that block, the job stopping
# there as fio's does (with continue_on_error=verify every bad block
# counted, verify_fatal stopping even then) and verify_dump writing the
# block as read and as expected; the verify phase reads as many blocks as
# fio's, counted by the kernel.
. "$(dirname "$0")/lib.sh"

D=$WORK/v
mkdir -p "$D"
cd "$D" || exit 1  # fio writes its verify state files to the working directory

# vjob FILE TARGET key=value... : writes a one-job fio job file
vjob() {
    local f=$1 t=$2; shift 2
    { echo "[v]"; echo "filename=$t"; for kv in "$@"; do echo "$kv"; done; } >"$f"
}
# vrun NAME TARGET key=value... : runs it; the result is $D/NAME.json, the rc in $D/NAME.rc
vrun() {
    local n=$1 t=$2; shift 2
    vjob "$D/$n.fio" "$t" "$@"
    (cd "$D" && "$SSDBENCH" run -q --destroy="$t" --result "$n.json" "$n.fio" >"$n.out" 2>"$n.err")
    echo $? >"$D/$n.rc"
}
# vsum NAME: "rc bad checked written reads backlog problem offset first_differing_byte" in one
# python call (each costs a few tenths of a second on a busy host)
vsum() {
    echo "$(cat "$D/$1.rc") $(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no-result"); sys.exit(0)
p = d["phases"][0]; v = p["jobs"][0].get("verify") or {}; b = v.get("first_bad") or {}
print(v.get("bad_blocks"), v.get("blocks_checked"), v.get("blocks_written"), p["results"][0]["read"]["ios"],
      v.get("backlog_blocks"), b.get("problem", "-"), b.get("offset", "-"), b.get("first_differing_byte", "-"))
' "$D/$1.json")"
}

# clean: every block written is read back and none is bad
clean_case() {   # name target options...
    local n=$1 t=$2; shift 2
    vrun "$n" "$t" "$@"
    local rc bad chk wr rd
    read -r rc bad chk wr rd _ <<<"$(vsum "$n")"
    # a mixed job also reads as it writes: then its reads are more than the checks
    if [[ " $* " == *" rw=randrw "* ]] && [ "$rd" -gt "$chk" ] 2>/dev/null; then rd=$chk; fi
    # loops: every pass is checked (as fio), the table holds the last one
    if [[ " $* " == *" loops="* ]] && [ "$chk" -ge "$wr" ] 2>/dev/null; then wr=$chk; fi
    if [ "$rc" = 0 ] && [ "$bad" = 0 ] && [ -n "$chk" ] && [ "$chk" -gt 0 ] 2>/dev/null && [ "$chk" = "$wr" ] && [ "$rd" = "$chk" ]; then
        pass "$n"
    else
        fail "$n" "rc $rc, bad $bad, checked $chk of $wr written, reads $rd: $(head -c 300 "$D/$n.err")"
    fi
}

F=$D/data
truncate -s 8M "$F"
seed=1
for sum in md5 crc32c crc32c-intel xxhash sha256 meta; do
    seed=$((seed * 7 + 3))
    clean_case "file_${sum}_seq" "$F" size=8m bs=4k rw=write verify=$sum randseed=$seed ioengine=psync
    clean_case "file_${sum}_rand_mix_s$seed" "$F" size=8m rw=randwrite bssplit=4k/40:8k/30:64k/30 verify=$sum \
        randseed=$seed ioengine=io_uring iodepth=8 direct=1
    clean_case "file_${sum}_rand_s$((seed + 1))" "$F" size=8m rw=randwrite bs=8k verify=$sum \
        randseed=$((seed + 1)) ioengine=libaio iodepth=4
done
# fio's further checksums: a random mixed-size write + read-back each
for sum in crc64 crc32 crc16 crc7 sha1 sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
    seed=$((seed * 7 + 3))
    clean_case "file_${sum}_rand_mix_s$seed" "$F" size=8m rw=randwrite bssplit=4k/40:8k/30:64k/30 verify=$sum \
        randseed=$seed ioengine=io_uring iodepth=8 direct=1
done
clean_case file_sha512_interval "$F" size=4m rw=randwrite bs=16k verify=sha512 verify_interval=4k verify_offset=1k ioengine=psync
clean_case file_norandommap_mix "$F" size=8m rw=randwrite bssplit=4k/50:16k/50 norandommap=1 verify=crc32c randseed=3 ioengine=psync
clean_case file_seq_mix_loops "$F" size=4m rw=write bssplit=4k/50:12k/50 loops=3 verify=xxhash ioengine=psync
vrun file_loops "$F" size=4m bs=4k rw=randwrite loops=3 verify=md5 ioengine=psync
check file_loops_check_every_pass test "$(vsum file_loops | cut -d' ' -f1-5)" = "0 0 3072 1024 3072"
vrun file_loops_vo "$F" size=4m bs=4k rw=randwrite loops=3 verify=md5 ioengine=psync verify_only=1
check file_loops_verify_only_checks_the_last_pass test "$(vsum file_loops_vo | cut -d' ' -f1-5)" = "0 0 1024 1024 1024"
clean_case file_interval_offset "$F" size=4m rw=randwrite bs=16k verify=md5 verify_interval=4k verify_offset=1k ioengine=psync
clean_case file_pattern "$F" size=4m rw=randwrite bs=4k verify=pattern 'verify_pattern=0xdeadbeef%o"ab"' ioengine=psync
clean_case file_mixed_rw "$F" size=4m rw=randrw bs=4k verify=sha256 ioengine=psync
vrun file_backlog "$F" size=4m rw=randwrite bs=4k verify=crc32c verify_backlog=64 ioengine=io_uring iodepth=4
# rc bad checked written reads backlog: as fio, the check comes before the
# next I/O, so the last 64 are left to the verify phase
check file_backlog_checks_as_it_goes test "$(vsum file_backlog | cut -d' ' -f1-6)" = "0 0 1024 1024 1024 960"
vrun file_backlog_batch "$F" size=4m rw=randwrite bs=4k verify=crc32c verify_backlog=64 verify_backlog_batch=16 ioengine=psync
# fio's rule: 16 read back whenever the log holds a multiple of 64, so after
# the first 64 writes every 16 writes are followed by 16 reads
check file_backlog_batch_as_fio test "$(vsum file_backlog_batch | cut -d' ' -f1-6)" = "0 0 1024 1024 1024 960"

# corruption between the write job and a verify_only job, for every checksum
for sum in md5 crc32c xxhash sha256 crc64 crc32 crc16 crc7 sha1 sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
    n=corrupt_$sum
    vrun "${n}_w" "$F" size=4m bs=8k rw=randwrite verify=$sum randseed=11 ioengine=psync
    printf 'BAD!' | dd of="$F" bs=1 seek=$((8192 * 77 + 1234)) conv=notrunc status=none
    vrun "$n" "$F" size=4m bs=8k rw=randwrite verify=$sum randseed=11 ioengine=psync verify_only=1
    # rc bad checked written reads backlog problem offset first_diff: read
    # back in the order written (fio's list), the job ends at the bad block
    check "${n}_found_at_its_block" test "$(vsum "$n")" = "1 1 389 512 389 0 checksum 630784 1234"
done
# meta has no data digest: a changed header is what it sees
vrun meta_w "$F" size=4m bs=4k rw=write verify=meta ioengine=psync
printf '\x01' | dd of="$F" bs=1 seek=$((4096 * 5 + 16)) conv=notrunc status=none
vrun meta_v "$F" size=4m bs=4k rw=write verify=meta ioengine=psync verify_only=1
check meta_bad_offset_field test "$(vsum meta_v | cut -d' ' -f1,2,7,8)" = "1 1 offset 20480"
# a read job checks each block against its own header
vrun readonly_v "$F" size=4m bs=4k rw=randread verify=meta ioengine=psync
check readonly_job_finds_it test "$(vsum readonly_v | cut -d' ' -f1-3,5,7,8)" = "1 1 384 384 offset 20480"
# ... also under a latency limit no read comes near (limits and verify both see each read)
vrun readonly_lim "$F" size=4m bs=4k rw=randread verify=meta ioengine=psync max_latency=60s
check readonly_job_with_a_latency_limit_finds_it test "$(vsum readonly_lim | cut -d' ' -f1-3,5,7,8)" = "1 1 384 384 offset 20480"

# the first of two bad blocks ends the job (fio's rule); with
# continue_on_error=verify both count, and verify_fatal stops even then
vrun fatal_w "$F" size=4m bs=4k rw=write verify=crc32c ioengine=psync
printf 'x' | dd of="$F" bs=1 seek=$((4096 * 10 + 100)) conv=notrunc status=none
printf 'y' | dd of="$F" bs=1 seek=$((4096 * 20 + 100)) conv=notrunc status=none
vrun fatal_all "$F" size=4m bs=4k rw=write verify=crc32c ioengine=psync verify_only=1 continue_on_error=verify
vrun fatal_stop "$F" size=4m bs=4k rw=write verify=crc32c ioengine=psync verify_only=1
vrun fatal_one "$F" size=4m bs=4k rw=write verify=crc32c ioengine=psync verify_only=1 verify_fatal=1 \
    continue_on_error=verify
check continue_on_error_all_bad_counted test "$(vsum fatal_all | cut -d' ' -f1-3,8)" = "1 2 1024 40960"
check bad_block_stops_the_job test "$(vsum fatal_stop | cut -d' ' -f1-3,8)" = "1 1 11 40960"
check verify_fatal_stops_at_first test "$(vsum fatal_one | cut -d' ' -f1-3,8)" = "1 1 11 40960"
(cd "$D" && "$SSDBENCH" run -q --output-format=json fatal_all.fio >fatal_all.fio.json 2>/dev/null)
check fio_json_error_is_eilseq test "$(json_get "$D/fatal_all.fio.json" "d['jobs'][0]['error']")" = 84
check text_report_names_the_block grep -q "first bad block: t0 offset 40960 length 4096 .*bad checksum, expected [0-9a-f]\{8\} found [0-9a-f]\{8\}; first differing byte 100" "$D/fatal_all.out"

# verify_dump: the block as read and as expected, differing exactly where changed
vrun dump "$F" size=4m bs=4k rw=write verify=crc32c ioengine=psync verify_only=1 verify_fatal=1 verify_dump=1
rcv=$D/data.40960.received exp=$D/data.40960.expected
if [ -f "$rcv" ] && [ -f "$exp" ]; then
    diffs=$(cmp -l "$rcv" "$exp" | wc -l)
    first=$(cmp -l "$rcv" "$exp" | awk 'NR==1{print $1 - 1}')
    same=$(dd if="$F" bs=4096 skip=10 count=1 status=none | md5sum | cut -d' ' -f1)
    check verify_dump_files test "$diffs $first $(stat -c %s "$rcv") $(md5sum <"$rcv" | cut -d' ' -f1)" = "1 100 4096 $same"
else
    fail verify_dump_files "no $rcv / $exp: $(ls "$D")"
fi

# verify=pattern has no header, so its blocks are the same bytes as fio's:
# fio writes, ssdbench checks, and the other way round
if need_tool fio fio fio_pattern; then
    fio --name=p --filename="$F" --size=4m --bs=4k --rw=write --verify=pattern --verify_pattern='0xdeadbeef%o' \
        --do_verify=0 --ioengine=psync --output="$D/fio_pat.txt" >/dev/null 2>&1
    vrun pat_of_fio "$F" size=4m bs=4k rw=write verify=pattern verify_pattern=0xdeadbeef%o verify_only=1 ioengine=psync
    check fio_pattern_checks_clean test "$(vsum pat_of_fio | cut -d' ' -f1-3)" = "0 0 1024"
    printf 'q' | dd of="$F" bs=1 seek=$((4096 * 9 + 5)) conv=notrunc status=none
    vrun pat_of_fio_bad "$F" size=4m bs=4k rw=write verify=pattern verify_pattern=0xdeadbeef%o verify_only=1 ioengine=psync
    check fio_pattern_damage_found test "$(vsum pat_of_fio_bad | cut -d' ' -f1,2,7-9)" = "1 1 pattern 36864 5"
    vrun pat_for_fio "$F" size=4m bs=4k rw=write verify=pattern verify_pattern=0xdeadbeef%o do_verify=0 ioengine=psync
    check fio_checks_our_pattern fio --name=p --filename="$F" --size=4m --bs=4k --rw=write --verify=pattern \
        --verify_pattern='0xdeadbeef%o' --verify_only --ioengine=psync --output="$D/fio_pat2.txt"
fi

# verify_state_save / verify_state_load (fio's semantics, ssdbench's file):
# a write job cut short by its runtime records how many writes it did; a
# verify_only job that loads it checks exactly those blocks, where without
# it the blocks never written count as bad
rm -f "$D"/ssdbench-*-verify.state
truncate -s 0 "$F"; truncate -s 4M "$F"   # zeros: a block never written fails its check
vrun st_w "$F" size=4m bs=4k rw=randwrite verify=crc32c ioengine=libaio iodepth=4 rate_iops=400 runtime=1 \
    verify_state_save=1 do_verify=0
w=$(vsum st_w | cut -d' ' -f4)
check state_file_records_the_writes test "$(grep '^writes ' "$D/ssdbench-v-0-verify.state" 2>&1)" = "writes $w"
check state_run_was_cut_short test "$w" -gt 0 -a "$w" -lt 1024
vrun st_v "$F" size=4m bs=4k rw=randwrite verify=crc32c ioengine=libaio iodepth=4 verify_only=1 verify_state_load=1
check state_load_checks_only_the_written test "$(vsum st_v | cut -d' ' -f1-5)" = "0 0 $w $w $w"
vrun st_n "$F" size=4m bs=4k rw=randwrite verify=crc32c ioengine=libaio iodepth=4 verify_only=1 continue_on_error=verify
check without_state_unwritten_blocks_are_bad test "$(vsum st_n | cut -d' ' -f1-3)" = "1 $((1024 - w)) 1024"
# stopped by SIGINT part-way: the state has the writes done; a changed byte
# in one of them is found at its block
truncate -s 0 "$F"; truncate -s 4M "$F"
# (signalled once its journal counts more than 5 writes, so block 5 is among
# them: at 100/s about ten seconds of writes remain)
vjob "$D/st_k.fio" "$F" size=4m bs=4k rw=write verify=md5 ioengine=psync rate_iops=100 verify_state_save=1 do_verify=0
"$SSDBENCH" run -q --destroy="$F" --result "$D/st_k.json" "$D/st_k.fio" >"$D/st_k.out" 2>"$D/st_k.err" &
spid=$!
for _ in $(seq 2400); do
    python3 - "$D/st_k.json.partial" <<'EOF' 2>/dev/null && break
import json, sys
L = open(sys.argv[1]).read().splitlines()
f = json.loads([l for l in L if l.startswith('# fields ')][0][9:]).index('write_ios')
sys.exit(0 if sum(json.loads(l)[f] for l in L if l.startswith('[') and l.endswith(']')) > 5 else 1)
EOF
    sleep 0.05
done
kill -INT "$spid"
wait "$spid"
echo $? >"$D/st_k.rc"
k=$(vsum st_k | cut -d' ' -f4)
check sigint_state_records_the_writes test "$(grep '^writes ' "$D/ssdbench-v-0-verify.state" 2>&1)" = "writes $k"
check sigint_cut_short test "$k" -gt 5 -a "$k" -lt 1024
printf 'Z' | dd of="$F" bs=1 seek=$((4096 * 5 + 100)) conv=notrunc status=none
vrun st_kv "$F" size=4m bs=4k rw=write verify=md5 ioengine=psync verify_only=1 verify_state_load=1
# rc bad checked written reads backlog problem offset first_diff (the job
# ends at the bad block, the sixth)
check sigint_state_damage_found test "$(vsum st_kv)" = "1 1 6 $k 6 0 checksum 20480 100"
# a state of another job, none at all, or load without verify_only: one-line errors
vjob "$D/st_other.fio" "$F" size=4m bs=4k rw=write verify=md5 randseed=77 verify_only=1 verify_state_load=1
check state_of_other_job_refused bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/st_other.fio' 2>'$D/st_other.err' && grep -q 'not of this job' '$D/st_other.err' && [ \$(wc -l <'$D/st_other.err') = 1 ]"
rm -f "$D"/ssdbench-*-verify.state
check state_missing_refused bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/st_kv.fio' 2>'$D/st_miss.err' && grep -q 'verify_state_load: cannot read ssdbench-v-0-verify.state' '$D/st_miss.err'"
vjob "$D/st_nvo.fio" "$F" size=4m bs=4k rw=write verify=md5 verify_state_load=1
check state_load_needs_verify_only bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/st_nvo.fio' 2>'$D/st_nvo.err' && grep -q 'verify_state_load needs verify_only' '$D/st_nvo.err'"
# without verify_state_save (ssdbench's default) no file is left behind
vrun st_none "$F" size=1m bs=4k rw=write verify=md5 ioengine=psync
check no_state_file_by_default test -z "$(ls "$D" | grep '^ssdbench-.*verify.state$')"
# verify_async: the threads check, the counts are the same
clean_case file_verify_async "$F" size=4m rw=randwrite bs=4k verify=sha1 verify_async=4 ioengine=libaio iodepth=8

# bad values are one-line errors
vjob "$D/bad.fio" "$F" size=4m verify=crc63
check bad_method_rejected bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/bad.fio' 2>'$D/bad.err' && grep -q \"unknown verify method 'crc63'\" '$D/bad.err'"
vjob "$D/bad2.fio" "$F" size=4m rw=write verify=md5 verify_interval=32
check small_interval_rejected bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/bad2.fio' 2>'$D/bad2.err' && grep -q 'smaller than the md5 header' '$D/bad2.err'"
vjob "$D/bad3.fio" "$F" size=4m rw=write verify=sha512 verify_interval=64
check small_interval_rejected_sha512 bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/bad3.fio' 2>'$D/bad3.err' && grep -q 'smaller than the sha512 header' '$D/bad3.err'"

# a loop device: the same checks, and fio's verify phase reads as many blocks
if dev=$(make_loop 64); then
    clean_case loop_crc32c_rand "$dev" size=16m bs=4k rw=randwrite verify=crc32c ioengine=libaio iodepth=16 direct=1
    clean_case loop_sha256_mix "$dev" size=16m rw=randwrite bssplit=4k/50:32k/50 verify=sha256 ioengine=io_uring iodepth=8 direct=1
    vrun loop_w "$dev" size=16m bs=4k rw=write verify=xxhash ioengine=psync direct=1
    printf 'zz' | dd of="$dev" bs=1 seek=$((4096 * 300 + 700)) conv=notrunc,fsync status=none
    vrun loop_v "$dev" size=16m bs=4k rw=write verify=xxhash ioengine=psync direct=1 verify_only=1
    check loop_corruption_found test "$(vsum loop_v | cut -d' ' -f1,2,3,7-9)" = "1 1 301 checksum 1228800 700"
    # side by side: fio and ssdbench, write + verify, reads counted by the kernel
    for shape in "rw=randwrite bs=4k" "rw=write bs=16k"; do
        tag=$(echo "$shape" | tr ' =' '__')
        if need_tool fio fio "reads_as_fio_$tag"; then
            read -r r0 _ <<<"$(disk_ios "$dev")"
            # shellcheck disable=SC2086
            fio --name=v --filename="$dev" --size=16m $(printf -- '--%s ' $shape) --verify=crc32c --ioengine=psync \
                --direct=1 --output="$D/fio_$tag.txt" >/dev/null 2>&1
            read -r r1 _ <<<"$(disk_ios "$dev")"
            # shellcheck disable=SC2086
            vrun "sb_$tag" "$dev" size=16m $shape verify=crc32c ioengine=psync direct=1
            read -r r2 _ <<<"$(disk_ios "$dev")"
            chk=$(vsum "sb_$tag" | cut -d' ' -f3)
            check "reads_as_fio_$tag" test "$((r1 - r0)) $((r2 - r1))" = "$chk $chk"
        fi
    done
else
    skip loop "needs root and a loop device"
fi
