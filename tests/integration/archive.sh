#!/bin/bash
# run.sh: long (started first)
# archive.sh - the results archive (docs/archive.md) end to end: results of
# every kind (run, suite, pts, act, fileio, a cluster run over MPI when the
# MPI build is there, a recovered journal) filed by their commands with
# --archive or by `archive add`, exported byte-identical (cmp) to the
# result file (a journal: to what `recover` writes); the database's mode;
# list in text/json/csv and its filters; show and rm; four processes filing
# at once lose nothing; a damaged and a locked database give one line while
# the run's result is still written; selectors in compare and report and
# what a bad one says; the regression gate on hand-made histories (stable,
# a clear regression, noise larger than the change, not comparable); the
# comparables and trend charts rendered in Chromium.
source "$(dirname "$0")/lib.sh"
MPIBIN=$(cd "$(dirname "$0")/../.." && pwd)/build-mpi/ssdbench

cd "$WORK" || exit 1
DB="$WORK/db/results.db"
export SSDBENCH_ARCHIVE="$DB"
SB() { timeout 120 "$SSDBENCH" "$@"; }
rows() { SB archive list --format json "$@" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"; }

# --- every kind, filed by its own command (pts, the longest, into an archive
# of its own, checked at the end; the run whose journal is recovered goes on
# in the background meanwhile)
truncate -s 64m "$WORK/p.img"
(SB pts iops --tc 1 --qd 1 --max-rounds 5 --capacity-scale 0.25 --round-time 1.12 --result "$WORK/pts.json" \
    --destroy "$WORK/p.img" --archive="$WORK/pts.db" -q "$WORK/p.img" >/dev/null 2>&1; echo $? >"$WORK/pts.rc") &
ptspid=$!
"$SSDBENCH" run --engine=null --size=1g --runtime=30 --interval=200ms -q --result "$WORK/k9.json" >/dev/null 2>&1 &
k9pid=$!
SB run --name=a --filename="$WORK/f" --size=8m --rw=randrw --bs=4k --runtime=1 --interval=250ms \
    --result "$WORK/run.json" --archive --tag fw=1.0 --tag build=7 -q >/dev/null 2>"$WORK/run.err"
check run_filed test $? -eq 0 -a -s "$WORK/run.json"
check db_mode_0600 test "$(stat -c %a "$DB")" = 600
truncate -s 32m "$WORK/s.img"
SB suite --profiles 4k-random-read --sweep qd:1,2 --runtime 300ms --precondition none --result "$WORK/suite.json" \
    --destroy "$WORK/s.img" --archive -q "$WORK/s.img" >/dev/null 2>&1
check suite_filed test $? -eq 0
SB act --engine null --load 1x --duration 2s --tick-ms 100 --slice 1 --log "$WORK/act.log" \
    --result "$WORK/act.json" --archive -q /dev/ssdbench-archive-null >/dev/null 2>&1
check act_filed test $? -eq 0
mkdir -p "$WORK/fio"
(cd "$WORK/fio" && SB fileio --file-num=2 --file-total-size=4M prepare >/dev/null &&
    SB fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrd --threads=1 --time=1 \
        --result "$WORK/fileio.json" --archive -q run >/dev/null)
check fileio_filed test $? -eq 0
# a journal: the run killed with SIGKILL, filed as the result recover makes of it
sleep 1
kill -KILL $k9pid
wait $k9pid 2>/dev/null
SB recover "$WORK/k9.json.partial" -o "$WORK/k9.recovered.json" 2>/dev/null
SB archive add "$WORK/k9.json.partial" >"$WORK/add.out"
check journal_filed test $? -eq 0
jid=$(sed -n 's/^archive:\([0-9]*\) .*/\1/p' "$WORK/add.out")
check journal_export_is_recover sh -c "'$SSDBENCH' archive export $jid | cmp -s - '$WORK/k9.recovered.json'"
check journal_incomplete grep -q "incomplete" <(SB archive show "$jid")

KINDS="run suite act fileio"
if command -v mpirun >/dev/null && [ -x "$MPIBIN" ]; then
    timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$MPIBIN" run --name=c \
        --filename="$WORK/c.{rank}" --rw=read --bs=4k --size=1m --result "$WORK/cluster.json" --archive -q \
        >/dev/null 2>&1
    check cluster_filed test $? -eq 0
    # rank 0 alone files: one row for the cluster run
    check cluster_filed_once test "$(rows --workload cluster)" -eq 1
    KINDS="$KINDS cluster"
else
    skip cluster_filed "no mpirun or no MPI build (make MPI=1)"
fi

# every kind exported byte for byte (each row's source is its --result file)
SB archive list --format json >"$WORK/all.json"
for k in $KINDS; do
    i=$(python3 -c "import json; print([r['id'] for r in json.load(open('$WORK/all.json')) if r['source'] == '$WORK/$k.json'][0])")
    check "export_$k" sh -c "'$SSDBENCH' archive export $i -o '$WORK/e.$k.json' && cmp -s '$WORK/e.$k.json' '$WORK/$k.json'"
done
check kinds_indexed test "$(SB archive list --format json | python3 -c "
import json,sys; print(' '.join(sorted(set(r['kind'] for r in json.load(sys.stdin)))))")" = "act fileio run suite"
check result_file_untouched python3 -c "import json; json.load(open('$WORK/run.json'))"

# --- list: formats and filters
n=$(rows)
check list_json_all test "$n" -eq "$(($(echo $KINDS | wc -w) + 1))"
check list_text_rows test "$(SB archive list | tail -n +2 | wc -l)" -eq "$n"
check list_csv_rows test "$(SB archive list --format csv | python3 -c "import csv,sys; print(len(list(csv.reader(sys.stdin))) - 1)")" -eq "$n"
check list_tag test "$(rows --tag fw=1.0)" -eq 1
check list_tag_none test "$(rows --tag fw=9)" -eq 0
check list_workload_profile test "$(rows --workload 4k-random-read)" -eq 1
check list_workload_job test "$(rows --workload a)" -eq 1
check list_device_target test "$(rows --device "$WORK/s.img")" -eq 1
check list_since_future test "$(rows --since 2099-01-01)" -eq 0
check list_since_past test "$(rows --since 2000-01-01)" -eq "$n"
check list_json_figures test "$(SB archive list --format json --workload a | python3 -c "
import json,sys; r=json.load(sys.stdin)[0]; f=[x for x in r['figures'] if x['dir']=='read'][0]
d=json.load(open('$WORK/run.json'))['phases'][0]['results'][0]['read']
ok = f['iops']==d['iops'] and f['p99_ns']==d['latency_ns']['percentiles']['99'] and r['tags']=={'fw':'1.0','build':'7'}
print(ok or (f, d['iops'], d['latency_ns']['percentiles']['99'], r['tags']))")" = True
# strings in list's JSON: tag values with quotes, backslashes, control
# bytes and UTF-8, shorter and longer than 8 bytes, come back as filed
python3 - "$WORK/run.json" "$WORK/esc" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for i in range(6):
    d['started_unix_ms'] = 1790000000000 + i
    json.dump(d, open('%s.%d.json' % (sys.argv[2], i), 'w'))
EOF
esc=('a"b' 'back\slash' $'\x01\x02ctl\x1e' $'tab\tand\nnewline and 16 more b' $'caf\xc3\xa9 \xe2\x82\xac "quoted" \\ end\x7f' 'plain-ascii-value-of-forty-bytes-or-so!!')
for i in 0 1 2 3 4 5; do
    SB archive add --archive "$WORK/esc.db" --tag "v=${esc[$i]}" "$WORK/esc.$i.json" >/dev/null
done
check list_json_strings_escaped test "$(SB archive list --archive "$WORK/esc.db" --format json | python3 -c "
import json, sys
got = [r['tags']['v'] for r in json.load(sys.stdin)]
print(got == sys.argv[1:] or got)" "${esc[@]}")" = True
# the tag separator byte in a value is refused in one line, nothing filed
out=$(SB archive add --archive "$WORK/sep.db" --tag $'v=cut\x1fshort' "$WORK/esc.0.json" 2>&1); rc=$?
check tag_separator_refused test $rc -eq 2 -a "$(wc -l <<<"$out")" -eq 1 -a "$(grep -c 0x1f <<<"$out")" -eq 1
SB archive add --archive "$WORK/sep.db" --tag $'v=cut\x1eshort' "$WORK/esc.0.json" >/dev/null
check tag_separator_nothing_filed test "$(SB archive list --archive "$WORK/sep.db" --format json | python3 -c "import json,sys; print([r['tags']['v'] for r in json.load(sys.stdin)])")" = "['cut\x1eshort']"
out=$(SB archive list --since yesterday 2>&1); rc=$?
check list_bad_since test $rc -eq 2 -a "$(wc -l <<<"$out")" -eq 1
check show_fields sh -c "'$SSDBENCH' archive show 1 | grep -q '^workload: *a$'"

# rm: gone from list and export; the others stay
SB archive add "$WORK/run.json" "$WORK/suite.json" >"$WORK/dup.out" 2>"$WORK/dup.err"
check add_duplicate_found grep -q "already filed as archive:1" "$WORK/dup.err"
check add_duplicate_not_twice test "$(rows)" -eq "$n"
sid=$(SB archive list --kind suite --format csv | sed -n '2s/,.*//p')
SB archive rm "$sid" >/dev/null
check rm_gone test "$(rows)" -eq $((n - 1))
out=$(SB archive export "$sid" 2>&1); rc=$?
check rm_export_refused test $rc -eq 2 -a "$(wc -l <<<"$out")" -eq 1
out=$(SB archive show 99 2>&1); rc=$?
check show_missing test $rc -eq 2 && check show_missing_names grep -q "no archived result 99" <<<"$out"

# --- four processes filing at once lose nothing
python3 - "$WORK/run.json" "$WORK/many" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1])); os.makedirs(sys.argv[2])
for i in range(40):
    d['started_unix_ms'] = 1796000000000 + i * 60000
    json.dump(d, open('%s/r%02d.json' % (sys.argv[2], i), 'w'), indent=1)
EOF
CDB="$WORK/conc.db"
cpids=()
for p in 0 1 2 3; do
    SB archive add --archive "$CDB" $(for i in $(seq $p 4 39); do printf '%s/r%02d.json ' "$WORK/many" "$i"; done) \
        >"$WORK/conc.$p" 2>&1 &
    cpids+=($!)
done
wait "${cpids[@]}"
check concurrent_all_filed test "$(SSDBENCH_ARCHIVE="$CDB" rows)" -eq 40
check concurrent_distinct_ids test "$(cat "$WORK"/conc.[0-3] | grep -c '^archive:[0-9]* ')" -eq 40
bad=0
while read -r id f; do
    SB archive export "${id#archive:}" --archive "$CDB" | cmp -s - "$f" || bad=$((bad + 1))
done < <(cat "$WORK"/conc.[0-3])
check concurrent_exports_identical test $bad -eq 0

# a label with terminal control bytes is printed escaped by list and show
python3 -c "
import json; d = json.load(open('$WORK/run.json')); d['label'] = 'evil\x1b[2J'
json.dump(d, open('$WORK/esc.json', 'w'))"
SB archive add --archive "$WORK/esc.db" "$WORK/esc.json" >/dev/null
check list_escapes_controls sh -c "'$SSDBENCH' archive list --archive '$WORK/esc.db' | grep -q 'evil.x1b.2J' &&
    ! '$SSDBENCH' archive list --archive '$WORK/esc.db' | grep -q \$(printf '\033')"
check show_escapes_controls sh -c "! '$SSDBENCH' archive show 1 --archive '$WORK/esc.db' | grep -q \$(printf '\033')"

# --- a damaged database: one line; the run's result is still written
head -c 100000 /dev/urandom >"$WORK/bad.db"
out=$(SB archive list --archive "$WORK/bad.db" 2>&1); rc=$?
check damaged_list_one_line test $rc -ne 0 -a "$(wc -l <<<"$out")" -eq 1
check damaged_list_names grep -q "bad.db" <<<"$out"
out=$(SB run --name=a --filename="$WORK/f" --size=8m --rw=randrw --bs=4k --runtime=1 --result "$WORK/after.json" \
    --archive="$WORK/bad.db" -q 2>&1 >/dev/null); rc=$?
check damaged_run_result_written python3 -c "import json; json.load(open('$WORK/after.json'))"
check damaged_run_one_line test "$(grep -c 'not filed' <<<"$out")" -eq 1 -a "$(wc -l <<<"$out")" -le 2
check damaged_run_exit_1 test $rc -eq 1
# a lock held past the busy timeout (5 s): one line, the result written. The
# holder keeps the lock until this script releases it (after the run has
# given up), so no clock decides the outcome; the run starts once it is taken.
python3 - "$DB" "$WORK/lock.taken" "$WORK/lock.release" <<'EOF' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE')
open(sys.argv[2], 'w').close()
end = time.monotonic() + 600   # (a bound only against a script that died)
while not os.path.exists(sys.argv[3]) and time.monotonic() < end:
    time.sleep(0.05)
EOF
lockpid=$!
wait_for_file "$WORK/lock.taken" 120
check lock_taken test -e "$WORK/lock.taken"
(SB run --name=a --filename="$WORK/f" --size=8m --rw=randrw --bs=4k --runtime=1 --result "$WORK/locked.json" \
    --archive -q 2>"$WORK/locked.err" >/dev/null; echo $? >"$WORK/locked.rc") &
lockedpid=$!

# --- selectors in compare and report, and a bad one
SB compare archive:1 "$WORK/run.json" >"$WORK/cmp.txt"
check compare_selector test $? -eq 0 && check compare_selector_label grep -q "archive:1" "$WORK/cmp.txt"
out=$(SB compare 'archive:latest?device=NOSUCH&workload=a' "$WORK/run.json" 2>&1); rc=$?
check bad_selector_exit2 test $rc -eq 2
check bad_selector_names grep -q "no archived result has device=NOSUCH)" <<<"$out"
out=$(SB report 'archive:latest?colour=red' -o "$WORK/x.html" 2>&1); rc=$?
check bad_selector_key test $rc -eq 2 && check bad_selector_key_names grep -q "'colour'" <<<"$out"

# --- the regression gate on hand-made histories (one device, one workload)
cat >"$WORK/hist.py" <<'EOF'
# hist.py BASE PREFIX JOB IOPS...: BASE with the read IOPS set, as PREFIX.K.json
# started K minutes in (K = 1, 2, ...); JOB renames the job ("-": keep it)
import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[3] != '-':
    d['phases'][0]['name'] = d['phases'][0]['jobs'][0]['name'] = sys.argv[3]
for k, v in enumerate(sys.argv[4:], 1):
    d['started_unix_ms'] = 1796000000000 + k * 60000
    d['phases'][0]['results'][0]['read']['iops'] = float(v)
    json.dump(d, open('%s.%d.json' % (sys.argv[2], k), 'w'), indent=1)
EOF
gate() {   # gate NAME "HISTORY IOPS..." NEW_IOPS: prints the exit status of check
    local db="$WORK/gate.$1.db" h n
    # shellcheck disable=SC2086
    python3 "$WORK/hist.py" "$WORK/run.json" "$WORK/h.$1" - $2 "$3"
    n=$(wc -w <<<"$2")
    SB archive add --archive "$db" $(for h in $(seq "$n"); do echo "$WORK/h.$1.$h.json"; done) >/dev/null
    mv "$WORK/h.$1.$((n + 1)).json" "$WORK/new.$1.json"
    SB check "$WORK/new.$1.json" --against archive:latest --archive "$db" >"$WORK/gate.$1.out" 2>"$WORK/gate.$1.err"
    echo $?
}
check gate_stable test "$(gate stable "10000 10010 9990 10005 9995" 10002)" -eq 0
check gate_regressed test "$(gate regr "10000 10010 9990 10005 9995" 8000)" -eq 1
check gate_regressed_names grep -q "regressed: a read IOPS: old 10000 (median of 5), new 8000, bound >= 9900" "$WORK/gate.regr.err"
check gate_noise_larger test "$(gate noisy "8000 12000 9000 11000 10000" 8500)" -eq 0
check gate_noise_says_mad grep -q "MAD 1000" "$WORK/gate.noisy.out"
check gate_too_little test "$(gate short "10000 10010" 10000)" -eq 2
check gate_too_little_says grep -q "too little history" "$WORK/gate.short.err"
# another workload (job name) than the history: not comparable
python3 "$WORK/hist.py" "$WORK/run.json" "$WORK/other" otherjob 10000 && mv "$WORK/other.1.json" "$WORK/other.json"
SB check "$WORK/other.json" --archive "$WORK/gate.stable.db" >/dev/null 2>"$WORK/gate.other.err"
check gate_other_workload test $? -eq 2
check gate_other_says grep -q "not comparable" "$WORK/gate.other.err"
SB check "$WORK/other.json" --against archive:1 --archive "$WORK/gate.stable.db" >/dev/null 2>"$WORK/gate.id.err"
check gate_other_by_id test $? -eq 2 && check gate_other_by_id_says grep -q "ran workload" "$WORK/gate.id.err"

# the locked archive's outcome
wait $lockedpid
check locked_result_written python3 -c "import json; json.load(open('$WORK/locked.json'))"
# (the busy-host warning and guard notes are lines of their own, not the archive's)
grep -v -e '^WARNING: the host was busy' -e '^ssdbench: note: ' "$WORK/locked.err" >"$WORK/locked.err1"
check locked_one_line test "$(grep -c "locked" "$WORK/locked.err1")" -eq 1 -a "$(wc -l <"$WORK/locked.err1")" -eq 1
check locked_exit_1 test "$(cat "$WORK/locked.rc")" -eq 1
touch "$WORK/lock.release"
wait $lockpid
check after_lock_files_again sh -c "'$SSDBENCH' archive add '$WORK/locked.json' >/dev/null"

# --- comparables and trends in the report: two runs of one device, another device
SB run --name=a --filename="$WORK/f" --size=8m --rw=randrw --bs=4k --runtime=1 --result "$WORK/run2.json" \
    --archive -q >/dev/null 2>&1
SB run --name=a --filename="$WORK/g" --size=8m --rw=randrw --bs=4k --runtime=1 --result "$WORK/run3.json" \
    --archive -q >/dev/null 2>&1
SB report 'archive:latest?workload=a&n=3' -o "$WORK/cmp.html"
check report_selector test $? -eq 0
check report_comparables_chart grep -q 'aria-label="Comparables: a, IOPS per result"' "$WORK/cmp.html"
check report_trend_chart grep -q "aria-label=\"Trend: $WORK/f, IOPS per profile over time\"" "$WORK/cmp.html"
CHROMIUM=/usr/bin/chromium
if [ ! -x "$CHROMIUM" ]; then
    fail comparables_rendered "$CHROMIUM is missing: the Debian package chromium (scripts/install-deps.sh --test installs it)"
else
python3 - "$WORK/cmp.html" "$WORK/probe.html" <<'EOF'
import sys
s = open(sys.argv[1], encoding='utf-8').read()
js = '''<script>
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var name = svg.getAttribute('aria-label');
    if (!/^(Comparables|Trend)/.test(name)) return;
    var bars = 0, marks = 0;
    svg.querySelectorAll('rect > title').forEach(function (t) {
      var b = t.parentNode.getBoundingClientRect(); if (b.width > 0 && b.height > 0) bars++; });
    svg.querySelectorAll('circle > title').forEach(function (t) {
      var b = t.parentNode.getBoundingClientRect(); if (b.width > 0) marks++; });
    out.push(name.split(':')[0] + ' ' + bars + ' ' + marks);
  });
  var pre = document.createElement('pre'); pre.id = 'drawn'; pre.textContent = out.join(';');
  document.body.appendChild(pre);
});
</script>'''
open(sys.argv[2], 'w', encoding='utf-8').write(s.replace('</body>', js + '</body>'))
EOF
drawn=$(timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d "$WORK/chrome.XXXXXX")" \
    --window-size=1000,3000 --dump-dom "file://$WORK/probe.html" 2>/dev/null |
    grep -o '<pre id="drawn">[^<]*</pre>' | sed 's/<[^>]*>//g')
# three results, read and write: six bars; the trend: two runs of one device, two marks
check comparables_rendered test "$drawn" = "Comparables 6 0;Trend 0 2"
fi

# --- the PTS run, filed by its command into its own archive
wait $ptspid
check pts_filed test "$(cat "$WORK/pts.rc")" -eq 0
check pts_indexed test "$(rows --archive "$WORK/pts.db" --kind pts --workload iops)" -eq 1
check export_pts sh -c "'$SSDBENCH' archive export 1 --archive '$WORK/pts.db' | cmp -s - '$WORK/pts.json'"
