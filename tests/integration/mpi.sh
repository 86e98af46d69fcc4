#!/bin/bash
# run.sh: long (started first)
# mpi.sh - cluster runs over MPI (docs/cluster.md), with mpirun on this one
# machine: 2 and 4 ranks, each on its own loop device (its own name through
# {rank}). Checks that the merged counts are the kernel's (every rank's
# device counters, and the write counts read from sysfs around the whole
# job), that the merged percentiles are those of one histogram over every
# rank's pooled per-I/O log, that a refusal on one rank stops every rank
# with its message before anything is written, that ranks given different
# options are refused, and that a rank killed with SIGKILL ends the job
# (not a hang) with the journal of what was measured.
source "$(dirname "$0")/lib.sh"

need_tool mpirun openmpi-bin mpi || exit 1
MPIRUN=$(command -v mpirun)
MPIBIN=${SSDBENCH_MPI:-$(cd "$(dirname "$0")/../.." && pwd)/build-mpi/ssdbench}
if [ ! -x "$MPIBIN" ]; then
    fail mpi_binary "mpirun is installed but $MPIBIN is not built (make MPI=1)"
    exit 0
fi
mpi() { "$MPIRUN" --allow-run-as-root --oversubscribe "$@"; }

# the plain binary has no MPI: it is rank 0 of 1 and fills {rank} with 0
"$SSDBENCH" run --name=p --filename="$WORK/plain.{rank}.{nranks}" --size=1m --rw=read --bs=4k \
    -q --result "$WORK/plain.json" >/dev/null 2>&1
check plain_build_is_rank_0 test -f "$WORK/plain.0.1"
check plain_build_no_cluster_object \
    test "$(json_get "$WORK/plain.json" "'cluster' in d or 'cluster' in d['phases'][0]")" = False
if ldd "$SSDBENCH" | grep -q libmpi; then fail plain_build_mpi_free "$SSDBENCH links libmpi"; else pass plain_build_mpi_free; fi

# pooled per-I/O logs -> one histogram with ssdbench's bucket rule (stats/hist.h)
cat >"$WORK/pool.py" <<'PY'
import decimal, glob, json, math, sys
res, logs = sys.argv[1], sys.argv[2:]
d = json.load(open(res))
ph = d['phases'][0]
tot = next(s for s in ph['results'] if s['scope'] == 'total')
def index(v):
    if v >= 1 << 42:
        return (42 - 7 + 1) * 128 - 1
    shift = (v | 128).bit_length() - 1 - 7
    return (shift << 7) + (v >> shift)
def mid(i):
    if i < 256:
        return i
    shift = (i >> 7) - 1
    return ((i - (shift << 7)) << shift) + (1 << shift) // 2
vals = {0: [], 1: []}
for f in logs:
    for line in open(f):
        p = [x.strip() for x in line.split(',')]
        vals[int(p[2])].append(int(p[1]))
bad = []
for ddir, name in ((0, 'read'), (1, 'write')):
    v = vals[ddir]
    lat = tot[name]['latency_ns']
    if len(v) != tot[name]['ios'] or lat['n'] != len(v):
        bad.append('%s: %d logged I/Os, result %d' % (name, len(v), tot[name]['ios']))
        continue
    if not v:
        continue
    counts = {}
    for x in v:
        counts[index(x)] = counts.get(index(x), 0) + 1
    order = sorted(counts)
    lo, hi = min(v), max(v)
    if lat['min'] != lo or lat['max'] != hi:
        bad.append('%s: min/max %s/%s, pooled %d/%d' % (name, lat['min'], lat['max'], lo, hi))
    for p, got in lat['percentiles'].items():
        rank = max(1, math.ceil(decimal.Decimal(p) / 100 * len(v)))
        c = 0
        for i in order:
            c += counts[i]
            if c >= rank:
                want = min(max(mid(i), lo), hi)
                break
        if got != want:
            bad.append('%s p%s: merged %s, pooled logs %s' % (name, p, got, want))
print('; '.join(bad) if bad else 'ok %d+%d' % (len(vals[0]), len(vals[1])))
PY

for np in 2 4; do
    devs=()
    for r in $(seq 0 $((np - 1))); do
        dev=$(make_loop 48) || { skip "loops_np$np" "cannot create a loop device"; continue 2; }
        devs+=("$dev")
        ln -sf "$dev" "$WORK/dev$np.$r"
    done
    declare -A w0=()
    for d in "${devs[@]}"; do w0[$d]=$(disk_ios "$d" | awk '{print $2}'); done
    out=$(mpi -np "$np" "$MPIBIN" run --name=mix --filename="$WORK/dev$np.{rank}" --destroy="$WORK/dev$np.{rank}" \
        --rw=randrw --bs=4k --size=16m --ioengine=libaio --iodepth=4 --direct=1 --io_size=4m \
        --write_lat_log="$WORK/lat$np.{rank}" --result "$WORK/np$np.json" 2>&1); rc=$?
    if [ $rc -ne 0 ] || [ ! -f "$WORK/np$np.json" ]; then
        fail "run_np$np" "exit $rc: $(tail -3 <<<"$out" | tr '\n' ' ')"
        continue
    fi
    pass "run_np$np"
    check "only_rank0_prints_np$np" test "$(grep -c 'job mix:' <<<"$out")" -eq 1
    check "nranks_np$np" test "$(json_get "$WORK/np$np.json" "d['phases'][0]['cluster']['nranks']")" -eq "$np"
    # merged counts = sum of every rank's kernel counters (ios + merges)
    cmp=$(json_get "$WORK/np$np.json" "(lambda ph: ' '.join(str(int(x)) for x in (
        next(s for s in ph['results'] if s['scope']=='total')['read']['ios'],
        sum(t['kernel_stats']['read_ios'] + t['kernel_stats']['read_merges'] for r in ph['cluster']['ranks'] for t in r['targets']),
        next(s for s in ph['results'] if s['scope']=='total')['write']['ios'],
        sum(t['kernel_stats']['write_ios'] + t['kernel_stats']['write_merges'] for r in ph['cluster']['ranks'] for t in r['targets']),
        sum(r['read']['ios'] + r['write']['ios'] for r in ph['cluster']['ranks']),
        len(set(t['device'] for r in ph['cluster']['ranks'] for t in r['targets'])))))(d['phases'][0])")
    read -r mr kr mw kw per ndev <<<"$cmp"
    check "merged_reads_are_kernels_np$np" test "$mr" -eq "$kr" -a "$mr" -gt 0
    check "merged_writes_are_kernels_np$np" test "$mw" -eq "$kw" -a "$mw" -gt 0
    check "ranks_add_up_np$np" test "$per" -eq $((mr + mw))
    check "one_device_per_rank_np$np" test "$ndev" -eq "$np"
    # and from outside: the write counters of the devices over the whole job
    wsum=0
    for d in "${devs[@]}"; do wsum=$((wsum + $(disk_ios "$d" | awk '{print $2}') - ${w0[$d]})); done
    check "sysfs_writes_np$np" test "$wsum" -eq "$mw"
    pooled=$(python3 "$WORK/pool.py" "$WORK/np$np.json" "$WORK"/lat$np.*_lat.*.log 2>&1)
    case $pooled in
        ok*) pass "percentiles_are_pooled_logs_np$np ($pooled I/Os)" ;;
        *) fail "percentiles_are_pooled_logs_np$np" "$pooled" ;;
    esac
    nlogs=$(ls "$WORK"/lat$np.*_lat.*.log | wc -l)
    check "one_log_per_rank_np$np" test "$nlogs" -eq "$np"
    # the report's per-host chart and its table hold the result's per-host sums
    "$SSDBENCH" report "$WORK/np$np.json" -o "$WORK/np$np.html" >/dev/null 2>&1
    check "report_host_chart_np$np" grep -q 'IOPS per host' "$WORK/np$np.html"
    "$SSDBENCH" report --format csv -o "$WORK/csv$np" "$WORK/np$np.json" >/dev/null 2>&1
    hosts=$(python3 - "$WORK/np$np.json" "$WORK/csv$np"/run-mix-hosts-0.csv <<'PY' 2>&1
import csv, json, sys
d = json.load(open(sys.argv[1]))
want = {h['host']: (h['ranks'], h['read']['iops'], h['write']['iops']) for h in d['phases'][0]['cluster']['hosts']}
rows = list(csv.DictReader(open(sys.argv[2])))
got = {r['host']: (int(r['ranks']), float(r['read IOPS']), float(r['write IOPS'])) for r in rows}
ok = got == want and sum(v[0] for v in got.values()) == d['phases'][0]['cluster']['nranks']
print('ok' if ok else 'csv %r != json %r' % (got, want))
PY
)
    check "report_host_table_np$np" test "$hosts" = ok
done

# ACT's find-max ladder decided on the cluster's figures: every rank runs the
# same loads (a divergence would hang or abort the job), each merged
out=$(timeout 120 "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 "$MPIBIN" act --find-max --load 1x \
    --max-load 3x --duration 2s --tick-ms 250 --engine null --result "$WORK/act.json" "$WORK/actdev.{rank}" 2>&1); rc=$?
check act_ladder_ends test "$rc" -eq 0 -o "$rc" -eq 1
act=$(json_get "$WORK/act.json" "' '.join('%s:%d:%d' % (p['name'], next(s for s in p['results'] if s['scope']=='total')['read']['ios'], sum(r['read']['ios'] for r in p['cluster']['ranks'])) for p in d['phases'])" 2>&1)
check act_ladder_phases test "$(tr ' ' '\n' <<<"$act" | cut -d: -f1 | tr '\n' ' ')" = "act-1x act-2x act-3x "
ok=1
for x in $act; do IFS=: read -r _ m s <<<"$x"; [ "$m" -eq "$s" ] && [ "$m" -gt 0 ] || ok=0; done
check act_ladder_merged test "$ok" -eq 1

# suite: preconditioning to steady state and the sweep, every phase on both
# ranks and merged (a rank-local steady-state decision would make the ranks
# run different phases: a hang or an abort, not exit 0)
timeout 300 "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 "$MPIBIN" suite --profiles 8k-70-30 \
    --sweep tq:1,2x1 --runtime 0.3s --precondition auto --precondition-load 2x2 --ss-interval 0.2s \
    --ss-max-rounds 6 --set filesize=16m -q --result "$WORK/suite.json" "$WORK/suite.{rank}.bin" >"$WORK/suite.out" 2>&1
check suite_ends test $? -eq 0
sui=$(json_get "$WORK/suite.json" "' '.join('%s:%d:%d:%d' % (p['kind'], sum(next(s for s in p['results'] if s['scope']=='total')[x]['ios'] for x in ('read','write')), sum(r['read']['ios'] + r['write']['ios'] for r in p.get('cluster', {}).get('ranks', [])), len(p.get('cluster', {}).get('ranks', []))) for p in d['phases'])" 2>&1)
ok=1; n=0
for x in $sui; do IFS=: read -r _ m s r <<<"$x"; n=$((n + 1)); [ "$m" -gt 0 ] && [ "$m" -eq "$s" ] && [ "$r" -eq 2 ] || ok=0; done
check suite_phases_merged test "$ok" -eq 1 -a "$n" -eq 3
check suite_steady_state_evaluated test "$(json_get "$WORK/suite.json" "d['suite']['profiles'][0]['precondition']['steady_state']['evaluated']")" = True

# fileio, each rank in its own directory: the merged events are the ranks' sum
for c in prepare run cleanup; do
    "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 sh -c "mkdir -p '$WORK'/fio.\$OMPI_COMM_WORLD_RANK && cd '$WORK'/fio.\$OMPI_COMM_WORLD_RANK && exec '$MPIBIN' fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrw --time=1 --result='$WORK/fileio.json' $c" >"$WORK/fileio.$c" 2>&1 ||
        fail "fileio_$c" "exit $?: $(tail -2 "$WORK/fileio.$c" | tr '\n' ' ')"
done
fio=$(json_get "$WORK/fileio.json" "(lambda p: '%d %d %d' % (sum(next(s for s in p['results'] if s['scope']=='total')[x]['ios'] for x in ('read','write')), sum(r['read']['ios'] + r['write']['ios'] for r in p['cluster']['ranks']), len(p['cluster']['ranks'])))(d['phases'][0])" 2>&1)
read -r fm fs fn <<<"$fio"
check fileio_merged test "${fm:-0}" -gt 0 -a "${fm:-0}" = "${fs:-x}" -a "${fn:-0}" -eq 2
check fileio_cleaned test ! -e "$WORK/fio.0/test_file.0" -a ! -e "$WORK/fio.1/test_file.0"

# a refusal on one rank: every rank stops before writing, with rank 1's message
head -c 4194304 /dev/urandom >"$WORK/mine.1"
sum1=$(sha256sum <"$WORK/mine.1")
out=$(mpi -np 2 "$MPIBIN" run --name=w --filename="$WORK/mine.{rank}" --rw=write --bs=4k --size=4m \
    --result "$WORK/refused.json" 2>&1); rc=$?
check refusal_exit_code test "$rc" -eq 2
check refusal_names_rank grep -q "rank 1 (host [^)]*): refusing to write to $WORK/mine.1" <<<"$out"
check refusal_printed_once test "$(grep -c 'refusing to write' <<<"$out")" -eq 1
check refusal_kept_bytes test "$(sha256sum <"$WORK/mine.1")" = "$sum1"
check refusal_no_result test ! -e "$WORK/refused.json"

# ranks with different options are refused before any I/O
out=$(mpi -np 1 "$MPIBIN" run --name=m --filename="$WORK/mm.{rank}" --rw=read --bs=4k --size=1m : \
          -np 1 "$MPIBIN" run --name=m --filename="$WORK/mm.{rank}" --rw=read --bs=8k --size=1m 2>&1); rc=$?
check mismatch_refused test "$rc" -eq 2
check mismatch_message grep -q "rank 1 (host [^)]*) was given other options than rank 0" <<<"$out"
check mismatch_no_io test ! -e "$WORK/mm.0" -a ! -e "$WORK/mm.1"

# --ranks-per-host: the placement is checked before any I/O
out=$(mpi -np 2 "$MPIBIN" run --name=h --filename="$WORK/rph.{rank}" --rw=read --bs=4k --size=1m \
    --ranks-per-host 1 2>&1); rc=$?
check ranks_per_host_refused test "$rc" -eq 2
check ranks_per_host_message grep -q -- "--ranks-per-host 1: host [^ ]* runs 2 ranks" <<<"$out"
check ranks_per_host_no_io test ! -e "$WORK/rph.0" -a ! -e "$WORK/rph.1"
mpi -np 2 "$MPIBIN" run --name=h --filename="$WORK/rph.{localrank}" --rw=read --bs=4k --size=1m \
    --ranks-per-host 2 -q --result "$WORK/rph.json" >/dev/null 2>&1
check ranks_per_host_recorded test "$(json_get "$WORK/rph.json" "d['cluster']['ranks_per_host']")" = 2
check ranks_per_host_localrank_files test -f "$WORK/rph.0" -a -f "$WORK/rph.1"

# kill -9 of rank 1: the job ends (measured), rank 0's journal keeps the intervals
timeout 30 "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 "$MPIBIN" run --name=k --filename="$WORK/k.{rank}" \
    --rw=randread --bs=4k --size=8m --runtime=60 --result "$WORK/killed.json" -q >"$WORK/kill.out" 2>&1 &
job=$!
victim=
for _ in $(seq 100); do
    for p in $(pgrep -f "$MPIBIN run --name=k"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
    done
    [ -n "$victim" ] && [ -s "$WORK/killed.json.partial" ] && grep -q '^\[' "$WORK/killed.json.partial" && break
    sleep 0.1
done
if [ -z "$victim" ]; then
    fail kill9 "rank 1 of the job not found"
    kill "$job" 2>/dev/null
else
    t0=$(date +%s%N)
    kill -9 "$victim"
    wait "$job"; rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    if [ "$rc" -eq 124 ]; then
        fail kill9_ends "the job still ran 30 s after rank 1 was killed"
    else
        pass "kill9_ends (ended ${ms} ms after kill -9 of rank 1, exit $rc)"
    fi
    check kill9_nonzero_exit test "$rc" -ne 0
    check kill9_journal_rows grep -q '^\[' "$WORK/killed.json.partial"
    "$SSDBENCH" recover "$WORK/killed.json.partial" -o "$WORK/recovered.json" >/dev/null 2>&1
    check kill9_recovered test "$(json_get "$WORK/recovered.json" "len(d['phases'][0]['intervals']['rows']) > 0")" = True
fi
exit 0
