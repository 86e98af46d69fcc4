#!/bin/bash
# fileio.sh - `ssdbench fileio` as a drop-in for `sysbench fileio`: bad input,
# prepare/run/cleanup on a temporary directory (file names and sizes, every
# test mode in every I/O mode, exact --events, fsync counts, the rndrw ratio),
# thread lists with scaling tables and baselines, SIGINT, the write guard,
# and, when sysbench is installed, identical labels and section order for the
# same options and comparable reads/s on files sysbench prepared.
source "$(dirname "$0")/lib.sh"

D="$WORK/files"
mkdir -p "$D" && cd "$D" || { fail setup "cannot use $D"; exit 0; }
FIO=("$SSDBENCH" fileio --file-num=4 --file-total-size=16M)
jget() { json_get "$1" "$2"; }
total() { echo "[r for r in d['phases'][$1]['results'] if r['scope']=='total'][0]"; }

# --- bad input: exit 2, one line naming the value
for args in "--file-test-mode=foo run:foo" "--file-block-size=abc run:abc" "--file-io-mode=aio run:aio" \
            "--percentile=101 run:101" "run:--file-test-mode" "--file-nmu=4 run:--file-num" "frobnicate:frobnicate"; do
    a=${args%%:*} want=${args##*:}
    # shellcheck disable=SC2086
    out=$("${FIO[@]}" $a 2>&1); rc=$?
    n=$(printf '%s\n' "$out" | wc -l)
    if [ "$rc" -eq 2 ] && [ "$n" -eq 1 ] && grep -q -- "$want" <<<"$out"; then
        pass "bad_input[$a]"
    else
        fail "bad_input[$a]" "rc=$rc lines=$n: $out"
    fi
done

# --- prepare: sysbench's names and sizes, random data, reuse
out=$("${FIO[@]}" prepare 2>&1); rc=$?
check prepare_exit0 test "$rc" -eq 0
check prepare_files test "$(ls | tr '\n' ' ')" = "test_file.0 test_file.1 test_file.2 test_file.3 "
check prepare_sizes test "$(stat -c %s test_file.* | sort -u)" = 4194304
check prepare_lines test "$(grep -c '^Creating file test_file\.' <<<"$out")" -eq 4
check prepare_bytes grep -q '^16777216 bytes written in .* seconds (.* MiB/sec)\.$' <<<"$out"
check prepare_producer grep -q '^sysbench 1\.0\.20 (produced by ssdbench ' <<<"$out"
check prepare_random_data test "$(head -c 65536 test_file.0 | tr -d '\0' | wc -c)" -gt 60000
out=$("${FIO[@]}" prepare 2>&1)
check prepare_reuses test "$(grep -c '^Reusing existing file' <<<"$out")" -eq 4
check prepare_nothing_written grep -q '^No bytes written\.$' <<<"$out"

# --- every mode in every I/O mode; --events is exact (fsyncs count as events)
for io in sync async mmap; do
    for m in seqwr seqrewr seqrd rndrd rndwr rndrw; do
        out=$("${FIO[@]}" --file-test-mode=$m --file-io-mode=$io --events=300 --time=0 --threads=2 run 2>&1); rc=$?
        if [ "$rc" -eq 0 ] && grep -q '^    total number of events:              300$' <<<"$out"; then
            pass "mode[$m/$io]"
        else
            fail "mode[$m/$io]" "rc=$rc: $(tail -3 <<<"$out")"
        fi
    done
done
check files_intact test "$(stat -c %s test_file.* | sort -u)" = 4194304

# --- periodic fsyncs: a round of one fsync per file every freq requests
# (freq 10, 60 % reads: every 4 writes), none for reads, none when off
"${FIO[@]}" --file-test-mode=rndrw --file-fsync-freq=10 --file-fsync-end=off --events=20000 --time=0 \
    --rand-seed=3 --json run >"$WORK/fs.json" 2>/dev/null
R=$(jget "$WORK/fs.json" "($(total 0))['read']['ios']")
W=$(jget "$WORK/fs.json" "($(total 0))['write']['ios']")
S=$(jget "$WORK/fs.json" "($(total 0)).get('sync', {}).get('ios', 0)")
# one thread: a round after every 4th write; the last one may be cut by --events
check fsync_count test "$S" -ge $((4 * (W / 4) - 4)) -a "$S" -le $((4 * (W / 4)))
# sysbench: 4 fsyncs per 10 requests
check fsync_rate_as_sysbench python3 -c "import sys; r=$S/($R+$W); sys.exit(abs(r/0.4-1) > 0.05)"
# --file-fsync-all: one fsync of the written file after each write
"${FIO[@]}" --file-test-mode=rndwr --file-fsync-all --events=400 --time=0 --json run >"$WORK/fa.json" 2>/dev/null
check fsync_all_one_per_write test "$(jget "$WORK/fa.json" "($(total 0))['write']['ios']")" = \
    "$(jget "$WORK/fa.json" "($(total 0))['sync']['ios']")"
"${FIO[@]}" --file-test-mode=rndrd --events=2000 --time=0 --json run >"$WORK/rd.json" 2>/dev/null
check no_fsync_reads test "$(jget "$WORK/rd.json" "($(total 0)).get('sync', {}).get('ios', 0)")" = 0
"${FIO[@]}" --file-test-mode=rndwr --file-fsync-freq=0 --events=2000 --time=0 --json run >"$WORK/nf.json" 2>/dev/null
check no_fsync_freq0 test "$(jget "$WORK/nf.json" "($(total 0)).get('sync', {}).get('ios', 0)")" = 0

# --- rndrw read/write ratio within 1 % of --file-rw-ratio (1e6 requests)
"$SSDBENCH" fileio --file-num=4 --file-total-size=16M --file-block-size=512 --file-test-mode=rndrw \
    --file-fsync-freq=0 --file-fsync-end=off --events=1000000 --time=0 --threads=2 --rand-seed=11 --json run \
    >"$WORK/rw.json" 2>/dev/null
ratio=$(jget "$WORK/rw.json" "($(total 0))['read']['ios'] / ($(total 0))['write']['ios']")
check rw_ratio_1pct python3 -c "import sys; sys.exit(abs($ratio / 1.5 - 1) > 0.01)"

# --- thread list: one run per value, the scaling tables, JSON, baseline ratios
out=$("${FIO[@]}" --file-test-mode=rndrd --events=4000 --time=0 --threads=1,2 --label=first --result "$WORK/t1.json" run 2>&1)
check threads_list_runs test "$(grep -c '^Number of threads: ' <<<"$out")" -eq 2
check threads_list_reports test "$(grep -c '^Threads fairness:$' <<<"$out")" -eq 2
check scaling_table grep -q '^Throughput, MiB/s (more is better)$' <<<"$out"
check scaling_pct_table grep -q '^95% response time, ms (less is better)$' <<<"$out"
check scaling_json test "$(jget "$WORK/t1.json" "[r['threads'] for r in d['fileio']['scaling']]")" = "[1, 2]"
out=$("${FIO[@]}" --file-test-mode=rndrd --events=4000 --time=0 --threads=1,2,4 --label=second --baseline "$WORK/t1.json" run 2>&1)
check baseline_ratio_columns grep -q 'ratio second / first' <<<"$out"
check baseline_rt_ratio grep -q 'ratio first / second' <<<"$out"
check baseline_missing_row grep -qE '^ +4 +[0-9.]+ +- +-$' <<<"$out"

# --- SIGINT: complete result marked interrupted
"${FIO[@]}" --file-test-mode=rndrd --time=30 --result "$WORK/int.json" run >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid; rc=$?
check sigint_exit_130 test "$rc" -eq 130
check sigint_interrupted test "$(jget "$WORK/int.json" "d['interrupted']")" = True

# --- cleanup
out=$("${FIO[@]}" cleanup 2>&1)
check cleanup_line grep -q '^Removing test files\.\.\.$' <<<"$out"
check cleanup_removes test -z "$(ls)"

# --- a symlink under a test name is not the benchmark's file
echo precious >"$WORK/precious"
ln -s "$WORK/precious" test_file.0
out=$("${FIO[@]}" prepare 2>&1); rc=$?
check guard_symlink_refused test "$rc" -eq 2
check guard_symlink_untouched test "$(cat "$WORK/precious")" = precious
rm -f test_file.*

# --- sysbench side by side
if ! command -v sysbench >/dev/null; then
    skip sysbench_compare "sysbench is not installed"
    exit 0
fi
norm() { # numbers and the producer line aside; interval and histogram rows collapsed
    sed -e '1s/(.*)$//' -e 's/[0-9][0-9.]*/N/g' -e 's/  */ /g' |
        awk '/^ N \|/{ if (!h) print "HIST-ROWS"; h=1; next } { h=0 } /^\[ Ns \]/{ if (!v) print "IV-ROWS"; v=1; next } { v=0; print }'
}
SB=(sysbench fileio --file-num=4 --file-total-size=16M)
mkdir -p "$WORK/ss" && (cd "$WORK/ss" && "${FIO[@]}" prepare >"$WORK/ss_prep.txt" 2>&1 && "${FIO[@]}" cleanup >/dev/null)
"${SB[@]}" prepare >"$WORK/sb_prep.txt" 2>&1
check same_prepare_text diff <(norm <"$WORK/sb_prep.txt") <(norm <"$WORK/ss_prep.txt")
# the runs below use the files sysbench prepared (and rewrites between runs):
# they are not ssdbench's, so ssdbench gets consent for the directory
i=0
while read -r opts; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "${SB[@]}" $opts run >"$WORK/sb$i.txt" 2>&1
    # shellcheck disable=SC2086
    "${FIO[@]}" --destroy=. $opts run >"$WORK/ss$i.txt" 2>&1
    if diff <(norm <"$WORK/sb$i.txt") <(norm <"$WORK/ss$i.txt") >"$WORK/d$i.txt"; then
        pass "same_labels[$opts]"
    else
        fail "same_labels[$opts]" "$(head -8 "$WORK/d$i.txt" | tr '\n' '|') ssdbench: $(head -c 300 "$WORK/ss$i.txt")"
    fi
done <<'EOF'
--file-test-mode=rndrd --events=3000 --time=0
--file-test-mode=seqwr --threads=2 --events=3000 --time=0
--file-test-mode=seqrewr --file-merged-requests=4 --file-fsync-freq=0 --file-fsync-end=off --events=2000 --time=0
--file-test-mode=seqrd --file-io-mode=async --events=3000 --time=0
--file-test-mode=rndrd --file-io-mode=mmap --percentile=99 --histogram=on --events=3000 --time=0
--file-test-mode=rndwr --file-fsync-all=on --file-fsync-mode=fdatasync --percentile=0 --threads=2 --events=300 --time=0
--file-test-mode=rndrw --events=200 --time=0 --rate=4000 --file-extra-flags=dsync
--file-test-mode=rndrw --report-interval=1 --time=2 --rand-seed=5 --threads=3 --histogram
EOF
check interval_lines_present grep -q '^\[ 1s \] reads: .* MiB/s writes: .* MiB/s fsyncs: .*/s latency (ms,95%): ' "$WORK/ss$i.txt"
"${SB[@]}" cleanup >/dev/null 2>&1

# files sysbench prepared: ssdbench reads them at a comparable rate (direct I/O, so both see the device)
SB=(sysbench fileio --file-num=4 --file-total-size=64M)
"${SB[@]}" prepare >/dev/null 2>&1
sb=$("${SB[@]}" --file-test-mode=rndrd --file-extra-flags=direct --time=1 run 2>/dev/null | awk '/reads\/s:/{print $2}')
ss=$("$SSDBENCH" fileio --file-num=4 --file-total-size=64M --file-test-mode=rndrd --file-extra-flags=direct --time=1 run 2>/dev/null |
    awk '/reads\/s:/{print $2}')
if [ -n "$sb" ] && [ -n "$ss" ] && python3 -c "import sys; r=$ss/$sb; sys.exit(not 0.5 <= r <= 2)"; then
    pass "sysbench_files_reads_per_s"
else
    fail "sysbench_files_reads_per_s" "sysbench $sb reads/s, ssdbench $ss reads/s"
fi
# sysbench's files are not ssdbench's: writing them is refused, bytes untouched,
# until consent names the directory (--destroy=.)
before=$(cat test_file.* | sha256sum)
out=$("$SSDBENCH" fileio --file-num=4 --file-total-size=64M --file-test-mode=rndwr --events=500 --time=0 run 2>&1); rc=$?
check sysbench_files_refused test "$rc" -eq 2 -a "$before" = "$(cat test_file.* | sha256sum)"
check sysbench_files_refusal_names_override grep -q -- "--destroy=\." <<<"$out"
out=$("$SSDBENCH" fileio --file-num=4 --file-total-size=64M --file-test-mode=rndwr --events=500 --time=0 --destroy=. run 2>&1); rc=$?
check sysbench_files_writable_with_consent test "$rc" -eq 0
"${SB[@]}" cleanup >/dev/null 2>&1
exit 0
