#!/bin/bash
# fio_cli.sh - ssdbench invoked as `fio` through a symlink: fio's command
# line (--key value, job files, "-" for stdin), fio's defaults (rw=read,
# psync, buffered, size-bounded), several output formats at once, --output,
# --readonly, --showcmd against fio 3.33's own, --cmdhelp, --enghelp, the
# ETA / status lines and --bandwidth-log, and what --ignore-unsupported
# may and may not turn into a warning.
source "$(dirname "$0")/lib.sh"

fio_side_by_side fio_cli
cd "$WORK/run" || exit 1
have_fio=false
grep -q '^fio-3' <<<"$FIO_VERSION" && have_fio=true

# res NAME: pass when the command list just before succeeded
res() { if [ $? -eq 0 ]; then pass "$1"; else fail "$1" "condition false (see the test source)"; fi; }
# jq-less JSON checks: py FILE EXPR -> prints the value
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }

# --- version, no job ---
v=$("$SB" --version)
check version [ "$v" = "fio-3.33-compatible (ssdbench $("$SSDBENCH" --version | cut -d' ' -f2))" ]
"$SB" >out 2>err; rc=$?
[ "$rc" -ne 0 ] && grep -q '^No job(s) defined' err; res no-job

# --- fio's defaults: only --name/--filename/--size reads 1 MiB sequentially with psync ---
# ("job options" echo what was written, as fio's do, so the resolved mode and
# engine are read from fio's job header line of the normal output)
"$SB" --name=dflt --filename="$WORK/run/data" --size=1m --output-format=json,normal >dflt.out 2>dflt.err
sed -n '/^{/,/^}/p' dflt.out >dflt.json
if [ "$(py dflt.json 'd["jobs"][0]["read"]["total_ios"], d["jobs"][0]["write"]["total_ios"], d["jobs"][0]["read"]["io_bytes"]')" = "256 0 1048576" ] &&
    grep -q '^dflt: (g=0): rw=read, bs=(R) 4096B-4096B, .*ioengine=psync, iodepth=1$' dflt.out; then
    pass defaults
else
    fail defaults "$(py dflt.json 'd["jobs"][0]["job options"], d["jobs"][0]["read"]["total_ios"]') $(head -2 dflt.err)"
fi
if $have_fio; then
    (mkdir -p real && cd real && "$FIO" --name=dflt --filename="$WORK/run/real/data" --size=1m \
        --output-format=json >../real.json 2>/dev/null)
    check defaults-same-ios-as-fio [ "$(py real.json 'd["jobs"][0]["read"]["total_ios"], d["jobs"][0]["write"]["total_ios"]')" = "$(py dflt.json 'd["jobs"][0]["read"]["total_ios"], d["jobs"][0]["write"]["total_ios"]')" ]
else
    skip defaults-same-ios-as-fio "the fio installed is not fio 3"
fi
# size-bounded as fio: --runtime without time_based ends after one pass (256 I/Os, not 30 s of loops)
"$SB" --name=sb --filename="$WORK/run/data" --size=1m --runtime=30 --output-format=json >sb.json 2>sb.err
check size-bounded [ "$(py sb.json 'd["jobs"][0]["read"]["total_ios"], d["jobs"][0]["job options"].get("time_based", "0")')" = "256 0" ]
# ssdbench run keeps its own defaults (random reads on io_uring)
"$SSDBENCH" run -q --name=own --filename="$WORK/run/data" --size=1m --direct=0 --format=json >own.json 2>own.err
check run-keeps-own-defaults [ "$(py own.json 'd["phases"][0]["jobs"][0]["params"]["rw"], d["phases"][0]["jobs"][0]["params"]["engine"]')" = "randread io_uring" ]

# --- --key value ---
"$SB" --name sp --filename "$WORK/run/data" --size 1m --rw randread --bs 8k --output-format json >sp.json 2>sp.err
check space-form [ "$(py sp.json 'd["jobs"][0]["jobname"], d["jobs"][0]["job options"]["rw"], d["jobs"][0]["job options"]["bs"], d["jobs"][0]["read"]["total_ios"]')" = "sp randread 8k 128" ]
"$SSDBENCH" run -q --name sp --filename "$WORK/run/data" --size 1m --rw read --bs 8k --ioengine psync \
    --direct 0 --output-format json >rsp.json 2>rsp.err
check run-space-form [ "$(py rsp.json 'd["jobs"][0]["job options"]["rw"], d["jobs"][0]["read"]["total_ios"]')" = "read 128" ]
# a boolean fio takes without a value never eats the next word
"$SB" --name=tb --filename="$WORK/run/data" --size=1m --time_based --runtime 1 --group_reporting \
    --output-format=json >tb.json 2>tb.err
# (fio echoes the value-less time_based and group_reporting in no "job options":
# the words after them are options of their own, runtime among them)
check bare-booleans [ "$(py tb.json 'sorted(d["jobs"][0]["job options"].items())')" = "[('filename', '$WORK/run/data'), ('name', 'tb'), ('runtime', '1'), ('size', '1m')]" ]

# --- several formats into one output, in fio's order ---
"$SB" --name=f2 --filename="$WORK/run/data" --size=1m --output-format=json,json+ >f2.json 2>f2.err
check json-and-jsonplus-one-document [ "$(py f2.json 'len(d["jobs"]), "bins" in d["jobs"][0]["read"]["clat_ns"], d["ssdbench format"]')" = "1 True fio-json+/1" ]
"$SB" --name=f3 --filename="$WORK/run/data" --size=1m --output-format=normal,json --output=f3.out >f3.stdout 2>f3.err
rc=$?
# fio writes JSON before the normal text; the text follows the document
first=$(python3 -c '
import json,sys
t=open(sys.argv[1]).read()
d,end=json.JSONDecoder().raw_decode(t)
print(d["jobs"][0]["jobname"], d["jobs"][0]["read"]["total_ios"])
open(sys.argv[2],"w").write(t[end:])' f3.out f3.rest 2>/dev/null)
[ "$first" = "f3 256" ] && [ ! -s f3.stdout ]; res output-file-json-first
# normal text: the renderer runs (until it is built it says so in one line)
if grep -q "not available in this build" f3.err; then
    [ "$rc" -ne 0 ] && [ "$(grep -c "not available in this build" f3.err)" -eq 1 ]; res normal-renderer-called
else
    [ "$rc" -eq 0 ] && grep -q 'Run status group 0' f3.rest && grep -q 'f3: (groupid=0' f3.rest; res normal-text
fi
"$SB" --name=t3 --filename="$WORK/run/data" --size=1m --minimal >t3.out 2>t3.err
rc=$?
if grep -q "not available in this build" t3.err; then
    check terse-renderer-called [ "$rc" -ne 0 ]
else
    [ "$rc" -eq 0 ] && grep -q '^3;fio-3\.33[^;]*;t3;0;' t3.out; res terse-v3
fi
"$SB" --name=t4 --filename="$WORK/run/data" --size=1m --minimal --terse-version=4 >t4.out 2>t4.err
[ $? -eq 0 ] && grep -q '^4;fio-3\.33[^;]*;t4;0;' t4.out; res terse-v4
"$SB" --name=t6 --filename="$WORK/run/data" --size=1m --terse-version=6 >t6.out 2>t6.err
[ $? -ne 0 ] && [ "$(wc -l <t6.err)" -eq 1 ] && [ ! -s t6.out ]; res terse-version-6-refused
"$SB" --name=bad --filename="$WORK/run/data" --size=1m --output-format=xml >bad.out 2>bad.err
[ $? -ne 0 ] && grep -q "invalid output format 'xml'" bad.err; res bad-format

# --- --readonly ---
head -c 1048576 /dev/urandom >ro.data
sum0=$(sha256sum <ro.data)
"$SB" --readonly --name=w --filename="$WORK/run/ro.data" --size=1m --rw=randwrite >ro.out 2>ro.err
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l <ro.err)" -eq 1 ] && grep -q 'job <w> has write bit set, but fio is in read-only mode' ro.err && [ "$(sha256sum <ro.data)" = "$sum0" ]; res readonly-refuses-writes
"$SB" --readonly --name=r --filename="$WORK/run/ro.data" --size=1m --output-format=json >ro2.json 2>ro2.err
[ "$(py ro2.json 'd["jobs"][0]["read"]["total_ios"]')" = "256" ] && [ "$(sha256sum <ro.data)" = "$sum0" ]; res readonly-reads

# --- job file from standard input ---
printf '[global]\nfilename=%s\nsize=512k\n[fromstdin]\nrw=read\nbs=8k\n' "$WORK/run/data" |
    "$SB" --output-format=json - >stdin.json 2>stdin.err
check stdin-job-file [ "$(py stdin.json 'd["jobs"][0]["jobname"], d["jobs"][0]["read"]["total_ios"]')" = "fromstdin 64" ]

# --- --showcmd, against fio 3.33's ---
cat >show.fio <<EOF
; a job file in the shape users write
[global]
ioengine=libaio
direct=1
filename=$WORK/run/data
size=1m
description=two jobs
kb_base=1000

[seq]
rw=read
blocksize=8k
time_based
runtime=1

[rand]
stonewall
rw=randread
iodepth=4
ba=4k
EOF
"$SB" --showcmd show.fio >show.out 2>show.err
want="fio --kb_base=1000 --ioengine=libaio --direct=1 --size=1m --description=\"two jobs\" --filename=$WORK/run/data --name=seq --rw=read --bs=8k --time_based --runtime=1 --name=rand --stonewall --rw=randread --iodepth=4 --ba=4k "
check showcmd [ "$(cat show.out)" = "$want" ]
if $have_fio; then
    check showcmd-as-fio [ "$("$FIO" --showcmd show.fio 2>/dev/null)" = "$(cat show.out)" ]
else
    skip showcmd-as-fio "the fio installed is not fio 3"
fi
check showcmd-runs-nothing [ ! -e seq.0.0 ]

# --- --cmdhelp, --enghelp ---
"$SB" --cmdhelp=rw >h.out
[ "$(head -1 h.out | sed 's/^ *//; s/:.*//')" = "rw" ] && grep -q '^ *alias: readwrite$' h.out && grep -q '^ *type: string' h.out; res cmdhelp-one
"$SB" --cmdhelp=time_based >h2.out
check cmdhelp-bool grep -q '^ *type: empty or boolean value (\[0|1\])$' h2.out
"$SB" --cmdhelp=cgroup_weight >h3.out
check cmdhelp-fio-only grep -q 'cgroup_weight: known to fio, not supported by ssdbench' h3.out
"$SB" --cmdhelp=iodepht >h4.out 2>h4.err
[ $? -ne 0 ] && [ "$(cat h4.err)" = "No such command: iodepht (did you mean 'iodepth'?)" ]; res cmdhelp-unknown
nopt=$("$SSDBENCH" run --help | sed -n '/^Job options/,$p' | grep -c '^  [a-z]')
[ "$("$SB" --cmdhelp=all | wc -l)" -eq "$nopt" ] && [ "$nopt" -gt 40 ]; res cmdhelp-all
"$SB" --enghelp >e.out
[ "$(head -1 e.out)" = "Available IO engines:" ] && grep -q '^	io_uring$' e.out && grep -q '^	psync$' e.out; res enghelp-list
"$SB" --enghelp=rados >e2.out
[ $? -ne 0 ] && grep -q 'IO engine rados is not supported by ssdbench' e2.out; res enghelp-unsupported
"$SB" --enghelp=e4defrag >e4.out
[ $? -eq 0 ] && grep -q '^donorname ' e4.out && grep -q '^inplace ' e4.out; res enghelp-e4defrag
"$SB" --enghelp=cpuio >e3.out
[ $? -eq 0 ] && grep -q '^cpuload ' e3.out && grep -q '^cpumode ' e3.out; res enghelp-cpuio

# --- --ignore-unsupported ---
# a typo stays an error, with its one line
"$SB" --ignore-unsupported --name=u --filename="$WORK/run/data" --size=1m --iodepht=4 --output-format=json >u1.out 2>u1.err
[ $? -eq 2 ] && [ "$(cat u1.err)" = "ssdbench: command line: unknown option 'iodepht' (did you mean 'iodepth'?)" ] && [ ! -s u1.out ]; res typo-stays-error
# an engine ssdbench lacks is refused, never swapped for psync
for eng in dircreate rados rbd; do
    "$SB" --ignore-unsupported --name=u --filename="$WORK/run/data" --size=1m --ioengine=$eng --output-format=json >u2.out 2>u2.err
    [ $? -eq 2 ] && [ "$(wc -l <u2.err)" -eq 1 ] && grep -q "unsupported ioengine '$eng'" u2.err && [ ! -s u2.out ]; res engine-refused-$eng
done
"$SB" --name=u --filename="$WORK/run/data" --size=1m --ioengine=iouring >u3.out 2>u3.err
[ $? -eq 2 ] && grep -q "unknown ioengine 'iouring'" u3.err; res engine-typo-unknown
# a key fio knows and ssdbench lacks: an error without the flag, a warning with it
"$SB" --name=u --filename="$WORK/run/data" --size=1m --cgroup_weight=100 >u4.out 2>u4.err
[ $? -eq 2 ] && grep -q "fio option 'cgroup_weight' is not supported by ssdbench" u4.err; res known-unsupported-error
"$SB" --ignore-unsupported --name=u --filename="$WORK/run/data" --size=1m --cgroup_weight 100 --output-format=json >u5.json 2>u5.err
[ "$(py u5.json 'd["jobs"][0]["read"]["total_ios"]')" = "256" ] && grep -q "warning: command line: fio option 'cgroup_weight' is not supported by ssdbench (ignored)" u5.err; res known-unsupported-warning
"$SB" --ignore-unsupported --warnings-fatal --name=u --filename="$WORK/run/data" --size=1m --cgroup_weight=1 >u6.out 2>u6.err
[ $? -ne 0 ] && [ ! -s u6.out ]; res warnings-fatal

# --- progress: ETA line, running totals, aggregate bandwidth log ---
"$SB" --eta=always --eta-newline=1 --status-interval=1 --bandwidth-log --name=p --filename="$WORK/run/data" \
    --size=1m --time_based --runtime=2 --output-format=json >p.json 2>p.err
check eta-line grep -q '^Jobs: 1 (f=1): \[[0-9.]*%\]\[r=[^]]*\]\[r=[^]]* IOPS\]\[eta [0-9][0-9]m:[0-9][0-9]s\]' p.err
check status-interval grep -q '^   READ: bw=.*, io=.*, run=[0-9]*-[0-9]*msec$' p.err
check status-output-stays-json [ "$(py p.json 'd["jobs"][0]["jobname"]')" = "p" ]
[ -s agg-read_bw.log ] && awk -F', ' 'NF != 5 || $3 != 0 { bad = 1 } END { exit bad }' agg-read_bw.log; res bandwidth-log
"$SB" --eta=never --name=p2 --filename="$WORK/run/data" --size=1m --time_based --runtime=1 --output-format=json >p2.json 2>p2.err
check eta-never [ "$(grep -c 'Jobs:' p2.err)" -eq 0 ]
"$SB" --eta=sometimes --name=p3 --filename="$WORK/run/data" --size=1m >p3.out 2>p3.err
[ $? -ne 0 ] && [ "$(wc -l <p3.err)" -eq 1 ]; res eta-bad

# --- job options with job files: defaults for the files' jobs, as in fio ---
printf '[a]\nrw=read\n[b]\nrw=randread\nbs=8k\n' >pre.fio
"$SB" --filename "$WORK/run/data" --size=512k --bs=16k --output-format=json pre.fio >pre.json 2>pre.err
# (as fio: a command-line bs is a global option, echoed in no job's "job options")
check cmdline-defaults-for-job-files [ "$(py pre.json '[(j["jobname"], j["job options"].get("bs"), j["read"]["total_ios"]) for j in d["jobs"]]')" = "[('a', None, 32), ('b', '8k', 64)]" ]
"$SB" --size=512k --name=x pre.fio >pre2.out 2>pre2.err
[ $? -eq 2 ] && [ "$(wc -l <pre2.err)" -eq 1 ] && grep -q -- '--name cannot be combined with job files' pre2.err; res name-with-job-files-refused

# --- the rest of fio's options ---
printf '[global]\nfilename=%s\nsize=256k\n[one]\nrw=read\n[two]\nrw=read\nnumjobs=2\n' "$WORK/run/data" >two.fio
"$SB" --section=two --output-format=json two.fio >sec.json 2>sec.err
# (numjobs=2 without group_reporting: one object per clone, as fio)
check section [ "$(py sec.json '[j["jobname"] for j in d["jobs"]]')" = "['two', 'two']" ]
"$SB" --max-jobs=2 --output-format=json two.fio >mj.out 2>mj.err
[ $? -ne 0 ] && grep -q 'more than --max-jobs=2' mj.err && [ ! -s mj.out ]; res max-jobs
"$SB" --parse-only two.fio >po.out 2>po.err
[ $? -eq 0 ] && [ ! -s po.out ] && [ ! -s po.err ]; res parse-only
"$SB" --alloc-size=32768 --debug=io --output-format=json two.fio >ac.json 2>ac.err
check alloc-size-debug-accepted [ "$(py ac.json 'len(d["jobs"])')" = "3" ]
"$SB" --showcmd=x two.fio >sx.out 2>sx.err
[ $? -ne 0 ] && grep -q "option '--showcmd' doesn't allow an argument" sx.err; res no-arg-option

# --- consent without the command line: SSDBENCH_DESTROY names the paths ---
truncate -s 1m user.img
"$SB" --name=c --filename="$WORK/run/user.img" --rw=write --size=64k --output-format=json >cs1.json 2>cs1.err
[ $? -eq 2 ] && grep -q "add to the environment SSDBENCH_DESTROY=$WORK/run/user.img" cs1.err &&
    [ "$(sha256sum <user.img)" = "$(head -c 1m /dev/zero | sha256sum)" ]; res destroy-env-named-in-refusal
SSDBENCH_DESTROY="$WORK/run/other:$WORK/run/user.img" \
    "$SB" --name=c --filename="$WORK/run/user.img" --rw=write --size=64k --output-format=json >cs2.json 2>cs2.err
check destroy-env-consents [ "$(py cs2.json 'd["jobs"][0]["write"]["total_ios"]')" = "16" ]

# --- group_reporting: job_runtime sums the clones' run times, as fio's ---
# (each of 3 time-based clones runs at least its 1 s runtime, so the sum is
# 3 s or more; the group's read runtime is one clone's, 1 s or more and less
# than the sum. A clone's run time may exceed its read time on a loaded host,
# so no upper bound of the sum by the read time is asserted.)
"$SB" --name=g --ioengine=null --size=64m --numjobs=3 --group_reporting --time_based --runtime=1 \
    --output-format=json >jr.json 2>jr.err
check job-runtime-sum [ "$(py jr.json 'int(d["jobs"][0]["job_runtime"] >= 3000 and d["jobs"][0]["read"]["runtime"] >= 1000 and d["jobs"][0]["read"]["runtime"] < d["jobs"][0]["job_runtime"])')" = 1 ]

# --- --debug=parse: the steady-state thresholds as fio's parser reports them ---
if $have_fio; then
    for ss in iops:10 iops:10% iops:.1% bw:10% bw:.1% bw:12; do
        a=$("$FIO" --parse-only --debug=parse --ss_dur=10s --ss=$ss --ss_ramp=5 | grep -o 'set steady state.*')
        b=$("$SB" --parse-only --debug=parse --ss_dur=10s --ss=$ss --ss_ramp=5 | grep -o 'set steady state.*')
        check "debug-parse-ss-$ss" [ -n "$a" -a "$a" = "$b" ]
    done
else
    skip debug-parse-ss "the fio installed is not fio 3"
fi

# --- slat measured by default for an asynchronous engine, as fio (N = I/Os) ---
sl() { "$1" --name=s --ioengine=libaio --iodepth=4 --size=1m --filename="$WORK/run/slat.dat" --output-format=json 2>/dev/null |
    python3 -c 'import json,sys; t=sys.stdin.read(); d=json.loads(t[t.index("{"):]); print(d["jobs"][0]["read"]["slat_ns"]["N"])'; }
if $have_fio; then
    rm -f "$WORK/run/slat.dat"; a=$(sl "$FIO")
    rm -f "$WORK/run/slat.dat"; b=$(sl "$SB")
    check slat-default-async [ "$a" = 256 -a "$b" = "$a" ]
else
    skip slat-default-async "the fio installed is not fio 3"
fi

# --- the steadystate object: a window never reached (ss_ramp past the run)
# is fio's to the value: ss, duration, attained 0, criterion, the zeros ---
ssobj() { "$1" --name=j --ioengine=null --size=1G --time_based --runtime=1 --ss_dur=4 --ss=bw_slope:0.1% \
    --ss_ramp=500 --output-format=json 2>/dev/null | python3 -c '
import json, sys
t = sys.stdin.read(); s = json.loads(t[t.index("{"):])["jobs"][0]["steadystate"]
print(s["ss"], s["duration"], s["attained"], s["criterion"], float(s["max_deviation"]), float(s["slope"]),
      float(s["data"]["bw_mean"]), s["data"]["bw"])'; }
if $have_fio; then
    a=$(ssobj "$FIO"); b=$(ssobj "$SB")
    check steadystate-object [ -n "$a" -a "$a" = "$b" ]
else
    skip steadystate-object "the fio installed is not fio 3"
fi

# --- json+: bins for slat_ns and lat_ns too when their percentiles are on, as fio ---
bins() { rm -f "$WORK/run/bins.dat"; "$1" --name=b --ioengine=libaio --iodepth=2 --size=256k --filename="$WORK/run/bins.dat" \
    --lat_percentiles=1 --slat_percentiles=1 --output-format=json+ 2>/dev/null | python3 -c '
import json, sys
t = sys.stdin.read(); r = json.loads(t[t.index("{"):])["jobs"][0]["read"]
print([(k, "bins" in r[k], "percentile" in r[k], sum(r[k].get("bins", {}).values())) for k in ("slat_ns", "clat_ns", "lat_ns")])'; }
if $have_fio; then
    a=$(bins "$FIO"); b=$(bins "$SB")
    check jsonplus-bins-lat-slat [ -n "$a" -a "$a" = "$b" ]
else
    skip jsonplus-bins-lat-slat "the fio installed is not fio 3"
fi

# --- terse: the percentile fields follow lat_percentiles, as fio's ---
tp() { "$1" --name=t --ioengine=null --size=64k --lat_percentiles=1 --clat_percentiles=0 --minimal 2>/dev/null |
    awk -F';' '{s = ""; for (i = 18; i <= 37; i++) { split($i, kv, "="); s = s " " kv[1] } print s}'; }
if $have_fio; then
    a=$(tp "$FIO"); b=$(tp "$SB")
    check terse-lat-percentiles [ -n "$a" -a "$a" = "$b" ]
else
    skip terse-lat-percentiles "the fio installed is not fio 3"
fi
