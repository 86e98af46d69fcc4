#!/bin/bash
# fio_histlog.sh - fio's histogram log (write_hist_log, log_hist_msec,
# log_hist_coarseness): fio's own tools/hist/fiologparser_hist.py reads
# ssdbench's NAME_clat_hist.N.log; its counts add up to the completions of
# the JSON results and its percentiles fall in the fio bucket of the JSON's
# percentile or a neighbour (the tool interpolates between bucket middles);
# every coarseness gives the same number of fields per line as a log fio
# 3.33 writes for the same job; out-of-range coarseness is a one-line error.
. "$(dirname "$0")/lib.sh"

D=$WORK/h
mkdir -p "$D"
cd "$D" || exit 1
F=$D/data
truncate -s 32M "$F"

# fio's parser needs numpy and pandas (Debian: python3-numpy, python3-pandas)
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, pandas' 2>/dev/null; then PY=$p; break; fi
done
PARSER=
for z in /usr/share/doc/fio/fiologparser_hist.py.gz; do
    [ -f "$z" ] && zcat "$z" >"$D/fiologparser_hist.py" && PARSER=$D/fiologparser_hist.py
done
for f in /usr/share/fio/fiologparser_hist.py /usr/bin/fiologparser_hist.py; do
    [ -z "$PARSER" ] && [ -f "$f" ] && PARSER=$f
done

hjob() {  # FILE NAME key=value... : one job writing histogram log NAME
    local f=$1 n=$2; shift 2
    { echo "[$n]"; echo "filename=$F"; echo "write_hist_log=$n"; for kv in "$@"; do echo "$kv"; done; } >"$f"
}

# 1. a mixed job: the parser's percentiles against the JSON's, per direction
hjob "$D/mix.fio" mix size=32m rw=randrw bs=4k ioengine=libaio iodepth=4 runtime=2 time_based=1 log_hist_msec=250 \
    write_lat_log=mixl
"$SSDBENCH" run -q --destroy="$F" --output-format=json "$D/mix.fio" >"$D/mix.json" 2>"$D/mix.err"
check mix_runs test -s "$D/mix_clat_hist.1.log"
# every line: time, direction, block size and 1856 buckets
check mix_fields_per_line test "$(awk -F, '{print NF}' "$D/mix_clat_hist.1.log" | sort -u)" = 1859
check mix_both_directions test "$(cut -d, -f2 "$D/mix_clat_hist.1.log" | sort -u | tr -d ' \n')" = 01
# the buckets of each direction sum to its completions
sums=$(awk -F, '{s = 0; for (i = 4; i <= NF; i++) s += $i; t[$2 + 0] += s} END {print t[0], t[1]}' "$D/mix_clat_hist.1.log")
ios=$(json_get "$D/mix.json" "str(d['jobs'][0]['read']['clat_ns']['N']) + ' ' + str(d['jobs'][0]['write']['clat_ns']['N'])")
check mix_counts_equal_json test "$sums" = "$ios"
# windows of log_hist_msec, from the per-I/O latency log of the same run (the
# same completion times in ms): fio's rule replayed over those completions
# (a window closes at the first completion >= 250 ms after its start, the
# next starts 250 ms after it, the last is written at the end) gives every
# line's time and count, and a host that stalls the run changes both alike
check mix_windows_from_completions python3 -c '
import sys
want = {0: [], 1: []}
last, n = {0: 0, 1: 0}, {0: 0, 1: 0}
for l in open(sys.argv[2]):
    f = [x.strip() for x in l.split(",")]
    t, d = int(f[0]), int(f[2])
    n[d] += 1
    if not last[d]:
        last[d] = t
    if t - last[d] >= 250:
        want[d].append((t, n[d])); n[d] = 0
        last[d] += 250
got = {0: [], 1: []}
for l in open(sys.argv[1]):
    f = [int(x) for x in l.split(",")]
    got[f[1]].append((f[0], sum(f[3:])))
for d in (0, 1):
    fin = got[d][-1] if got[d] and n[d] else None
    if got[d][:len(want[d])] != want[d] or len(got[d]) != len(want[d]) + (n[d] > 0):
        sys.exit("dir %d: %s windows, want %s (+ a last of %d)" % (d, got[d][:12], want[d][:12], n[d]))
    if fin and fin[1] != n[d]:
        sys.exit("dir %d: the last window counts %d, want %d" % (d, fin[1], n[d]))
    if not want[d]:
        sys.exit("dir %d: no window closed in a 2 s run" % d)
' "$D/mix_clat_hist.1.log" "$D/mixl_lat.1.log"

if [ -n "$PY" ] && [ -n "$PARSER" ]; then
    "$PY" "$PARSER" --noweight -i 100000000 --percentiles 10:50:90:99:99.9 --directions rw \
        "$D/mix_clat_hist.1.log" >"$D/mix.pct" 2>"$D/mix.pct.err"
    # the fio bucket of a value (fio's plat_val_to_idx) and its bounds
    check parser_percentiles_within_a_bucket "$PY" -c '
import json, sys
def idx(v):
    v = int(v)
    m = v.bit_length() - 1 if v else 0
    if m <= 6: return v
    e = m - 6
    return min(((e + 1) << 6) + ((v >> e) & 63), 1855)
def lo(i):
    if i < 128: return i
    s = (i >> 6) - 1
    return (1 << (s + 6)) + ((i % 64) << s)
def hi(i):
    return lo(i) + (1 << ((i >> 6) - 1) if i >= 128 else 1)
d = json.load(open(sys.argv[1]))["jobs"][0]
rows = [l.split(",") for l in open(sys.argv[2]).read().splitlines()[1:]]
keys = ["10.000000", "50.000000", "90.000000", "99.000000", "99.900000"]
bad, seen = [], 0
for r in rows:
    dname = {"r": "read", "w": "write"}[r[1].strip()]
    got = [float(x) for x in r[6:11]]
    want = d[dname]["clat_ns"]["percentile"]
    if int(r[2]) != d[dname]["clat_ns"]["N"]:
        bad.append((dname, "samples", r[2], d[dname]["clat_ns"]["N"]))
    for k, g in zip(keys, got):
        i = idx(want[k])
        seen += 1
        if not (lo(max(i - 1, 0)) <= g <= hi(min(i + 1, 1855))):
            bad.append((dname, k, g, want[k]))
if bad or seen != 10:
    print(bad, seen, file=sys.stderr); sys.exit(1)' "$D/mix.json" "$D/mix.pct"
    [ -s "$D/mix.pct.err" ] && fail parser_quiet "$(head -c 300 "$D/mix.pct.err")"
else
    fail parser_percentiles_within_a_bucket "fio's fiologparser_hist.py (Debian package fio) or numpy/pandas (python3-numpy, python3-pandas) is missing (scripts/install-deps.sh --test installs them)"
fi

# 2. the format against fio 3.33's for every coarseness: one job per
# coarseness, run side by side, in ssdbench and in fio
{
    echo "[global]"; echo "filename=$F"; echo "size=32m"; echo "rw=randread"; echo "bs=4k"
    echo "ioengine=psync"; echo "runtime=1"; echo "time_based=1"; echo "log_hist_msec=300"
    for c in 0 1 2 3 4 5 6; do echo "[c$c]"; echo "write_hist_log=c$c"; echo "log_hist_coarseness=$c"; done
} >"$D/coarse.fio"
mkdir -p "$D/sb" "$D/fio"
(cd "$D/sb" && "$SSDBENCH" run -q --destroy="$F" --output-format=json "$D/coarse.fio" >coarse.json 2>coarse.err)
have_fio=0
if need_tool fio fio && fio --version 2>/dev/null | grep -q 'fio-3'; then
    (cd "$D/fio" && fio --output-format=json --output=coarse.json "$D/coarse.fio" >/dev/null 2>&1) && have_fio=1
fi
for c in 0 1 2 3 4 5 6; do
    want=$((3 + 1856 / (1 << c)))
    ours=$(cat "$D"/sb/c${c}_clat_hist.*.log 2>/dev/null | awk -F, '{print NF}' | sort -u | tr '\n' ' ')
    check "coarseness_${c}_fields" test "$ours" = "$want "
    if [ "$have_fio" = 1 ]; then
        theirs=$(cat "$D"/fio/c${c}_clat_hist.*.log 2>/dev/null | awk -F, '{print NF}' | sort -u | tr '\n' ' ')
        check "coarseness_${c}_as_fio" test "$ours" = "$theirs"
        # the same line shape: integer time, direction 0, block size 4096, then integers
        check "coarseness_${c}_line_shape_as_fio" test \
            "$(head -1 "$D"/sb/c${c}_clat_hist.*.log | sed -E 's/[0-9]+/N/g; s/^N, N, N/T, D, B/')" = \
            "$(head -1 "$D"/fio/c${c}_clat_hist.*.log | sed -E 's/[0-9]+/N/g; s/^N, N, N/T, D, B/')"
    fi
done
[ "$have_fio" = 1 ] || skip coarseness_as_fio "fio 3 is not installed"
# the coarse columns are sums of the fine ones: a coarser log has the same total
t0=$(cat "$D"/sb/c0_clat_hist.*.log | awk -F, '{for (i = 4; i <= NF; i++) s += $i} END {print s}')
n0=$(json_get "$D/sb/coarse.json" "d['jobs'][0]['read']['clat_ns']['N']")
check coarse0_total_is_json test "$t0" = "$n0"

# 3. bad values and the empty log without log_hist_msec (as fio)
hjob "$D/bad.fio" bad size=4m rw=read log_hist_msec=100 log_hist_coarseness=7
check coarseness_7_rejected bash -c "! '$SSDBENCH' run -q --destroy='$F' '$D/bad.fio' 2>'$D/bad.err' && [ \$(wc -l <'$D/bad.err') = 1 ] && grep -q 'log_hist_coarseness' '$D/bad.err'"
hjob "$D/nomsec.fio" nomsec size=4m rw=read ioengine=psync
(cd "$D" && "$SSDBENCH" run -q --destroy="$F" "$D/nomsec.fio" >/dev/null 2>&1)
check no_msec_empty_file test -f "$D/nomsec_clat_hist.1.log" -a ! -s "$D/nomsec_clat_hist.1.log"
