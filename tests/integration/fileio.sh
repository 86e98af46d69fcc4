#!/bin/bash
# run.sh: long (started first)
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

# --- bad input: as sysbench, exit 1 and one "FATAL: " line on standard output
# naming the value (sysbench's words where it has them)
for args in "--file-test-mode=foo run:FATAL: Invalid IO operations mode: foo." \
            "--file-block-size=abc run:FATAL: invalid value for --file-block-size: 'abc'" \
            "--file-io-mode=aio run:FATAL: unknown I/O mode: aio" \
            "--file-fsync-mode=x run:FATAL: Invalid fsync mode: x." \
            "--file-extra-flags=foo run:FATAL: Invalid value for file-extra-flags: foo" \
            "--threads=0 run:FATAL: Invalid value for --threads: 0." \
            "--percentile=101 run:FATAL: invalid value for --percentile: 101" \
            "run:FATAL: Missing required argument: --file-test-mode" \
            "--file-test-mode=rndrd run:FATAL: cannot open file 'test_file.0': No such file or directory"; do
    a=${args%%:*} want=${args#*:}
    # shellcheck disable=SC2086
    out=$("${FIO[@]}" $a 2>/dev/null); rc=$?
    n=$(printf '%s\n' "$out" | grep -c '^FATAL: ')
    if [ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -qF -- "$want" <<<"$out"; then
        pass "bad_input[$a]"
    else
        fail "bad_input[$a]" "rc=$rc FATAL lines=$n: $out"
    fi
done
# unknown option names and commands: exit 1, one line on standard error (as sysbench)
for args in "--file-nmu=4 run:--file-num" "frobnicate:frobnicate"; do
    a=${args%%:*} want=${args##*:}
    # shellcheck disable=SC2086
    err=$("${FIO[@]}" $a 2>&1 >/dev/null); rc=$?
    if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && grep -q -- "$want" <<<"$err"; then
        pass "bad_name[$a]"
    else
        fail "bad_name[$a]" "rc=$rc: $err"
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

# --- fsyncs exactly as sysbench 1.0.20 issues them. sysbench_counts MODE EVENTS FREQ FILES
# FSYNC_ALL THREADS FSYNC_END prints the reads, writes, periodic fsyncs, fsyncs in all
# and events of sysbench's generator (one stream over all threads; rndrw with one
# synchronous thread, where its counters are exact)
sysbench_counts() {
    python3 - "$@" <<'PY'
import sys
mode, E, F, K, fall, T, fend = sys.argv[1], *map(int, sys.argv[2:])
if fall: F, fend = 0, 0
reads = writes = periodic = req = fsynced = 0
dirty = False
for _ in range(E):
    write = mode in ('seqwr', 'seqrewr', 'rndwr') or (mode == 'rndrw' and not (reads + 1) / (writes + 1) < 1.5)
    if F and dirty and req % F == 0:
        periodic += 1
        fsynced += 1
        if fsynced == K: fsynced, dirty = 0, False
        continue
    req += 1
    if write: dirty = True; writes += 1
    else: reads += 1
end = T * K if fend and mode not in ('seqrd', 'rndrd') else 0
print(reads, writes, periodic, periodic + end + (writes if fall else 0), E)
PY
}
have_strace=false
command -v strace >/dev/null && have_strace=true
for t in 1 2 4; do
    for spec in "seqwr 1000 100 0 1" "seqwr 1000 7 0 1" "seqwr 1000 0 0 1" "rndwr 500 0 1 0" "seqrewr 999 10 0 0" \
                "seqrd 700 1 0 1"; do
        read -r m e fq fa fe <<<"$spec"
        [ "$m" = rndrw ] && [ "$t" -gt 1 ] && continue
        all=$([ "$fa" = 1 ] && echo --file-fsync-all=on || echo --file-fsync-all=off)
        end=$([ "$fe" = 1 ] && echo on || echo off)
        args=(--file-test-mode="$m" --events="$e" --time=0 --threads="$t" --file-fsync-freq="$fq" "$all" --file-fsync-end="$end")
        read -r xr xw xp xf xe <<<"$(sysbench_counts "$m" "$e" "$fq" 4 "$fa" "$t" "$fe")"
        name="fsyncs[$m events=$e freq=$fq all=$fa end=$fe threads=$t]"
        if $have_strace; then
            strace -f -qq -c -e trace=fsync,fdatasync,pwrite64,pread64 -o "$WORK/st.txt" \
                "${FIO[@]}" "${args[@]}" --result "$WORK/fx.json" run >"$WORK/fx.txt" 2>&1
        else
            "${FIO[@]}" "${args[@]}" --result "$WORK/fx.json" run >"$WORK/fx.txt" 2>&1
        fi
        got=$(jget "$WORK/fx.json" "' '.join(str(int(x)) for x in [($(total 0))['read']['ios'], ($(total 0))['write']['ios'], d['phases'][0]['fileio']['generated']['periodic_fsyncs'], d['phases'][0]['fileio']['report']['fsyncs'], d['phases'][0]['fileio']['report']['events']])")
        printed=$(awk '/total number of events:/{print $5}' "$WORK/fx.txt")
        if [ "$got" = "$xr $xw $xp $xf $xe" ] && [ "$printed" = "$xe" ]; then
            pass "$name"
        else
            fail "$name" "reads writes periodic fsyncs events: got '$got' printed events '$printed', sysbench's rule '$xr $xw $xp $xf $xe'"
        fi
        if $have_strace; then
            sc=$(awk '$NF=="fsync"{print $4}' "$WORK/st.txt"); wc_=$(awk '$NF=="pwrite64"{print $4}' "$WORK/st.txt")
            # the kernel's view: the test files' fsyncs and pwrites, plus the one fsync of --result
            check "strace_$name" test "${sc:-0} ${wc_:-0}" = "$((xf + 1)) $xw"
        fi
    done
done
# the same for rndrw with one thread (read/write choice on sysbench's counters)
"${FIO[@]}" --file-test-mode=rndrw --file-fsync-freq=10 --file-fsync-end=off --events=2000 --time=0 --json run \
    >"$WORK/fs.json" 2>/dev/null
read -r xr xw xp xf xe <<<"$(sysbench_counts rndrw 2000 10 4 0 1 0)"
check rndrw_counts_as_sysbench test "$(jget "$WORK/fs.json" "' '.join(str(int(x)) for x in [($(total 0))['read']['ios'], ($(total 0))['write']['ios'], ($(total 0))['sync']['ios']])")" = "$xr $xw $xp"
# fdatasync mode: every flush is an fdatasync
"${FIO[@]}" --file-test-mode=rndwr --file-fsync-mode=fdatasync --file-fsync-freq=10 --events=110 --time=0 --threads=2 \
    --json run >"$WORK/fd.json" 2>/dev/null
read -r xr xw xp xf xe <<<"$(sysbench_counts rndwr 110 10 4 0 2 1)"
check fdatasync_counts test "$(jget "$WORK/fd.json" "int(d['phases'][0]['fileio']['report']['fsyncs'])")" = "$xf"
if $have_strace; then
    strace -f -qq -c -e trace=fsync,fdatasync -o "$WORK/st.txt" "${FIO[@]}" --file-test-mode=rndwr \
        --file-fsync-mode=fdatasync --file-fsync-freq=10 --events=110 --time=0 --threads=2 run >/dev/null 2>&1
    check strace_fdatasync_only test "$(awk '$NF=="fdatasync"{print $4}' "$WORK/st.txt") $(awk '$NF=="fsync"{print $4}' "$WORK/st.txt")" = "$xf "
fi

# mmap mode: every flush, the end-of-test ones included, is an msync of the whole file
if $have_strace; then
    read -r xr xw xp xf xe <<<"$(sysbench_counts rndwr 500 100 4 0 2 1)"
    strace -f -qq -c -e trace=fsync,msync -o "$WORK/st.txt" "${FIO[@]}" --file-test-mode=rndwr --file-io-mode=mmap \
        --events=500 --time=0 --threads=2 run >/dev/null 2>&1
    check strace_mmap_msync test "$(awk '$NF=="msync"{print $4}' "$WORK/st.txt") $(awk '$NF=="fsync"{print $4}' "$WORK/st.txt")" = "$xf "
fi

# --- async: the printed latency is per event (sysbench's), completion latency in the ssdbench section
"${FIO[@]}" --file-test-mode=rndrd --file-io-mode=async --events=3000 --time=0 --threads=2 --result "$WORK/as.json" run \
    >"$WORK/as.txt" 2>&1
check async_events_are_events test "$(jget "$WORK/as.json" "int(sum(w['events'] for w in d['phases'][0]['jobs'][0]['worker_stats']))") $(awk '/total number of events:/{print $5}' "$WORK/as.txt")" = "3000 3000"
check async_sum_is_event_sum test "$(awk '/^         sum:/{print $2; exit}' "$WORK/as.txt")" = \
    "$(jget "$WORK/as.json" "'%.2f' % (sum(w['event_busy_s'] for w in d['phases'][0]['jobs'][0]['worker_stats']) * 1000)")"
check async_completion_section grep -q '^    Completion latency (ms, submission -> completion of each request):$' "$WORK/as.txt"
check async_completion_kept test "$(jget "$WORK/as.json" "'completion_latency_ms' in d['phases'][0]['fileio']['report']")" = True

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
wait_journal_rows "$WORK/int.json.partial"
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
need_tool sysbench sysbench sysbench_compare || exit 1
norm() { # numbers, the producer line and ssdbench's own section aside; interval and histogram rows collapsed
    sed -e '/^ssdbench:$/,/^$/d' -e '1s/(.*)$//' -e 's/[0-9][0-9.]*/N/g' -e 's/  */ /g' |
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

# files sysbench prepared: ssdbench reads them (no consent needed to read),
# the same count of events as sysbench for the same count-bounded run
SB=(sysbench fileio --file-num=4 --file-total-size=64M)
"${SB[@]}" prepare >/dev/null 2>&1
sb=$("${SB[@]}" --file-test-mode=rndrd --file-extra-flags=direct --events=1000 --time=0 run 2>/dev/null |
    awk '/total number of events:/{print $NF}')
ss=$("$SSDBENCH" fileio --file-num=4 --file-total-size=64M --file-test-mode=rndrd --file-extra-flags=direct \
    --events=1000 --time=0 run 2>/dev/null | awk '/total number of events:/{print $NF}')
check sysbench_files_read_events test "$sb" = 1000 -a "$ss" = 1000
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
