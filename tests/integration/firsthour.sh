#!/bin/bash
# run.sh: long
# firsthour.sh - what a new user meets first: a mistyped device is an error
# and no file under /dev; --dry-run of run, pts and suite plans without
# writing and names a missing target with exit 2; job options apply to job
# files, and "-" reads one from stdin; every command's help options are in
# the man page; the completion lists every option of run; did-you-mean,
# "needs a value", -h and help through a closed pipe; distinct percentile
# labels in the HTML report.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
S=$SSDBENCH
T="timeout 60"

# a mistyped device: exit 2, one line, /dev unchanged
ls -a /dev >"$WORK/dev.before"
$T "$S" run --name=a --filename=/dev/nvme9n1 --rw=write --bs=4k --size=1m --quiet >"$WORK/o" 2>"$WORK/e"
check dev_typo_exit_2 test $? -eq 2
ls -a /dev >"$WORK/dev.after"
check dev_typo_leaves_dev_unchanged cmp -s "$WORK/dev.before" "$WORK/dev.after"
check dev_typo_one_line test "$(wc -l <"$WORK/e")" -eq 1
check dev_typo_names_path grep -q "/dev/nvme9n1: no such device" "$WORK/e"

# no size: the default file is announced (where, how big, that it stays)
mkdir -p "$WORK/cwd"
(cd "$WORK/cwd" && $T "$S" run --name=d --rw=read --io_size=64k --quiet --format=json >/dev/null 2>"$WORK/e")
check default_file_announced grep -q "creating d.0.0 in $WORK/cwd with the default size 1 GiB; it is kept" "$WORK/e"
check default_file_size test "$(stat -c %s "$WORK/cwd/d.0.0" 2>/dev/null)" = 1073741824
rm -f "$WORK/cwd/d.0.0"

# --dry-run: the plan, nothing created, a missing device exits 2 naming it
$T "$S" run --dry-run --name=w --filename="$WORK/new.dat" --rw=randwrite --size=4m --runtime=7 \
    --name=r --filename="$WORK/new.dat" --rw=read --runtime=3 --stonewall >"$WORK/o" 2>"$WORK/e"
check run_dry_exit_0 test $? -eq 0
check run_dry_creates_nothing test ! -e "$WORK/new.dat"
check run_dry_phases test "$(grep -c '^  phase ' "$WORK/o")" -eq 2
check run_dry_total grep -qx "  total: 10 s" "$WORK/o"
check run_dry_says_created grep -q "target $WORK/new.dat: missing: would be created (4 MiB) and kept" "$WORK/o"
truncate -s 8m "$WORK/theirs.img"
$T "$S" run --dry-run --name=w --filename="$WORK/theirs.img" --rw=write --runtime=1 >"$WORK/o" 2>&1
check run_dry_guard_refusal grep -q "REFUSED: .*--destroy=$WORK/theirs.img" "$WORK/o"
for cmd in "run --dry-run --name=x --filename=/dev/sdzz9 --rw=write --runtime=1" \
           "pts --dry-run /dev/sdzz9" "suite --dry-run /dev/sdzz9" \
           "act --dry-run --load 1x --duration 10s /dev/sdzz9"; do
    w=${cmd%% *}
    $T "$S" $cmd >"$WORK/o" 2>"$WORK/e"
    check "${w}_dry_missing_exit_2" test $? -eq 2
    check "${w}_dry_missing_named" grep -q "/dev/sdzz9" "$WORK/e"
done
check image_untouched test "$(sha256sum <"$WORK/theirs.img")" = "$(head -c 8M /dev/zero | sha256sum)"

# job options with a job file, and the job file on stdin
printf '[j]\nrw=read\nsize=1m\nfilename=%s\n' "$WORK/j.dat" >"$WORK/j.fio"
$T "$S" run --dry-run "$WORK/j.fio" --runtime=10 >"$WORK/o" 2>&1
check jobfile_override grep -q "job j: read, 4 KiB, QD1 x1, at most 10 s" "$WORK/o"
$T "$S" run --dry-run - --runtime=4 <"$WORK/j.fio" >"$WORK/o" 2>&1
check jobfile_stdin_dash grep -q "job j: .* at most 4 s" "$WORK/o"
$T "$S" run --parse-only /dev/stdin <"$WORK/j.fio" >"$WORK/o" 2>&1
check jobfile_dev_stdin grep -q "1 job parsed, OK" "$WORK/o"

# every option of every command's help is in the man page (its section or
# COMMON OPTIONS); run's job options are checked by docs.sh
jobopts=$("$S" run --help | sed -n '/^Job options/,$p' | awk '/^  [a-z]/ {s = substr($0, 3); sub(/=.*/, "", s); n = split(s, p, /, /); for (k = 1; k <= n; k++) print "--" p[k]}')
common=$(awk '/^\.SH/ {on = ($0 == ".SH COMMON OPTIONS")} on' man/ssdbench.1)
drift=0
for cmd in $("$S" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
    sec=$(echo "$cmd" | tr 'a-z-' 'A-Z ')
    text=$(awk -v s="$sec" '/^\.SH/ {on = ($0 == ".SH " s || $0 == ".SH \"" s "\"")} on' man/ssdbench.1)
    for o in $(scripts/gen-completion.sh "$S" opts "$cmd"); do
        grep -qxF -- "$o" <<<"$jobopts" && [ "$cmd" = run ] && continue
        m=$(printf '%s' "$o" | sed 's/-/\\-/g')
        if ! grep -qF -- "$m" <<<"$text$common"; then
            fail "man_has_${cmd}_$o" "in 'ssdbench $cmd --help', not in the man page"
            drift=1
        fi
    done
done
[ "$drift" -eq 0 ] && pass man_has_every_help_option

# every option of a command's help is in its docs/ page too (the options
# every command shares are described once, in the man page)
common_re='^(--help|-h|--format|--output|-o|--result|--destroy|--quiet|-q|--ranks-per-host|--output-format)$'
drift=0
for pair in fileio:fileio act:act act-analyze:act act-prep:act pts:pts suite:suite report:report info:info \
            compare:report; do
    cmd=${pair%%:*} doc=docs/${pair##*:}.md
    for o in $(scripts/gen-completion.sh "$S" opts "$cmd" | grep -Ev "$common_re"); do
        grep -qF -- "$o" "$doc" || { fail "docs_has_${cmd}_$o" "in 'ssdbench $cmd --help', not in $doc"; drift=1; }
    done
done
for o in $("$S" run --help | sed -n '1,/^Job options/p' | awk '/^  --[a-z]/ {sub(/^  /, ""); split($0, w, /[ =,[]/); print w[1]}' | grep -Ev "$common_re"); do
    grep -qF -- "$o" docs/fio.md || { fail "docs_has_run_$o" "in 'ssdbench run --help', not in docs/fio.md"; drift=1; }
done
[ "$drift" -eq 0 ] && pass docs_have_every_help_option

# the completion offers every option of run's help, job options included
scripts/gen-completion.sh "$S" bash >"$WORK/comp.bash"
check completion_parses bash -n "$WORK/comp.bash"
missing=0
for o in $("$S" run --help | awk '/^  --[a-z]/ {sub(/^  /, ""); split($0, w, /[ =,[]/); print w[1]}') $jobopts; do
    grep -q -- " $o " <(grep '^    run)' "$WORK/comp.bash" | sed 's/"/ /g') || { fail "completion_run_$o" "missing"; missing=1; }
done
[ "$missing" -eq 0 ] && pass completion_lists_every_run_option
out=$(bash -c "source '$WORK/comp.bash'; COMP_WORDS=(ssdbench run --dry-r); COMP_CWORD=2; _ssdbench; echo \${COMPREPLY[*]}")
check completion_completes test "$out" = "--dry-run"
make -s install DESTDIR="$WORK/dest" PREFIX=/opt/sb >/dev/null 2>&1
check install_bash_completion test -s "$WORK/dest/opt/sb/share/bash-completion/completions/ssdbench"
make -s uninstall DESTDIR="$WORK/dest" PREFIX=/opt/sb >/dev/null 2>&1
check uninstall_removes test ! -e "$WORK/dest/opt/sb/bin/ssdbench" -a ! -e "$WORK/dest/opt/sb/share/bash-completion/completions/ssdbench"

# conventions
for c in "show --sumary:--summary" "info --jsn:--json" "compare --metric:--metrics" "act --dry-rn:--dry-run"; do
    args=${c%%:*}
    $T "$S" $args x >/dev/null 2>"$WORK/e"
    check "did_you_mean_${args%% *}" grep -q "did you mean '${c##*:}'" "$WORK/e"
done
$T "$S" show a.json -o >/dev/null 2>"$WORK/e"
check show_o_needs_value grep -q -- "-o needs a value" "$WORK/e"
$T "$S" run -h | head -1 >/dev/null
check help_closed_pipe_exit_0 test "${PIPESTATUS[0]}" -eq 0
$T "$S" act-analyze -h >"$WORK/o" 2>&1
check act_analyze_bare_h_is_help grep -q "^usage: ssdbench act-analyze" "$WORK/o"
for cmd in $("$S" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
    $T "$S" "$cmd" -h >/dev/null 2>&1 || fail "dash_h_$cmd" "exit $?"
done
pass dash_h_every_command_checked

# the HTML report's percentile labels are distinct
$T "$S" run --name=p --ioengine=null --size=256m --rw=randread --quiet --result="$WORK/p.json" >/dev/null 2>&1
$T "$S" report -o "$WORK/p.html" "$WORK/p.json" >/dev/null 2>&1
python3 - "$WORK/p.html" >"$WORK/labels" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.find("latency percentiles</caption>")
t = s[i:s.find("</table>", i)]
for l in re.findall(r"<tr><td[^>]*>([^<]*)</td>", t):
    print(l)
PY
check pct_labels_many test "$(wc -l <"$WORK/labels")" -ge 20
check pct_labels_distinct test "$(sort "$WORK/labels" | uniq -d | wc -l)" -eq 0
check pct_label_fine grep -qx "99.995" "$WORK/labels"

# `--` ends the options; report -o DIR is bad input
cp "$WORK/p.json" "$WORK/-dash.json"
(cd "$WORK" && $T "$S" compare -- -dash.json p.json >"$WORK/o" 2>&1)
check double_dash_compare grep -q "^-dash = -dash.json" "$WORK/o"
(cd "$WORK" && $T "$S" show -- -dash.json >/dev/null 2>&1)
check double_dash_show test $? -eq 0
$T "$S" report -o "$WORK" "$WORK/p.json" >/dev/null 2>"$WORK/e"
check report_o_dir_exit_2 test $? -eq 2
check report_o_dir_says grep -q "is a directory" "$WORK/e"
$T "$S" purge --dry-run /dev/sdzz9 "$WORK/theirs.img" >"$WORK/o" 2>"$WORK/e"
check purge_dry_missing_exit_2 test $? -eq 2
check purge_dry_guard grep -q "theirs.img: would be written: REFUSED" "$WORK/o"

# no cursor codes for TERM=dumb, one with a real terminal type
if command -v script >/dev/null; then
    for term in dumb xterm; do
        TERM=$term timeout 60 script -qec "$S run --name=t --ioengine=null --size=16m --rw=read --runtime=2 --format=json >/dev/null" /dev/null >"$WORK/tty.$term" 2>&1
    done
    check term_dumb_no_escape test "$(grep -c $'\033\[K' "$WORK/tty.dumb")" -eq 0
    check term_xterm_escape test "$(grep -c $'\033\[K' "$WORK/tty.xterm")" -gt 0
else
    need_tool script util-linux term_dumb_no_escape
fi

# sizes: the hint suggests nothing that means another size; KiB/KB spellings get their bytes
$T "$S" run --name=s --size=64x --parse-only >/dev/null 2>"$WORK/e"
check size_hint_no_kib test "$(grep -c 'KiB' "$WORK/e")" -eq 0
$T "$S" run --name=s --ioengine=null --size=64KiB --bs=4KB --parse-only >/dev/null 2>"$WORK/e"
check size_kib_resolved grep -q -- "--size=64KiB is 64000 bytes" "$WORK/e"
check size_kb_resolved grep -q -- "--bs=4KB is 4096 bytes" "$WORK/e"

# text: what ended the phase, the share of I/Os over the limits, the busy verdict in JSON
$T "$S" show "$WORK/p.json" >"$WORK/o" 2>/dev/null
check text_no_stopped_by_complete test "$(grep -c 'stopped by complete' "$WORK/o")" -eq 0
check text_ended_by_io grep -q "ended when its I/O was done" "$WORK/o"
check text_share_fixed grep -Eq "share of I/Os >= 1/2/4/8/16/32/64 ms:( [0-9]+\.[0-9]+%){7}$" "$WORK/o"
check text_no_e_notation test "$(grep 'share of I/Os' "$WORK/o" | grep -c 'e-')" -eq 0
$T "$S" run --name=tb --ioengine=null --size=16m --rw=read --runtime=1 -q --format=json >"$WORK/tb.json" 2>"$WORK/e"
check json_has_busy_verdict test "$(json_get "$WORK/tb.json" "type(d['host']['busy']).__name__")" = bool
check busy_warning_not_stdout test "$(grep -c WARNING "$WORK/tb.json")" -eq 0
busy=$(json_get "$WORK/tb.json" "d['host']['busy']")
check busy_warning_iff_busy test "$(grep -c '^WARNING: the host was busy' "$WORK/e")" -eq "$([ "$busy" = True ] && echo 1 || echo 0)"

# compare: rows say their workload, different workloads are named, and the
# report's ratio for a latency row is the same as compare's
$T "$S" run --rw=randread --ioengine=null --size=16m --io_size=8m -q --result="$WORK/ca.json" >/dev/null 2>&1
$T "$S" run --rw=randrw --bs=8k --iodepth=8 --ioengine=null --size=16m --io_size=8m -q --result="$WORK/cb.json" >/dev/null 2>&1
$T "$S" compare --metrics iops,lat "$WORK/ca.json" "$WORK/cb.json" >"$WORK/cmp" 2>&1
check compare_row_workload grep -q "^  job (randread 4KiB QD1 x1) " "$WORK/cmp"
check compare_workload_warning grep -q "^WARNING: row 'job' compares different workloads: ca: randread 4KiB QD1 x1; cb: randrw 8KiB 50% read QD8 x1" "$WORK/cmp"
$T "$S" compare --metrics read-lat --format csv "$WORK/ca.json" "$WORK/cb.json" >"$WORK/cmp.csv" 2>&1
$T "$S" report -o "$WORK/cmp.html" "$WORK/ca.json" "$WORK/cb.json" >/dev/null 2>&1
python3 - "$WORK/cmp.csv" "$WORK/cmp.html" "$WORK/ca.json" "$WORK/cb.json" >"$WORK/ratio" <<'PY'
import csv, json, re, sys
rows = list(csv.reader(open(sys.argv[1])))
r_cmp = float(rows[1][-1])                    # ratio of the mean latency, compare's direction
a, b = (json.load(open(p))["phases"][0]["results"][0]["read"]["latency_ns"]["mean"] for p in sys.argv[3:5])
s = open(sys.argv[2]).read()
t = s[s.find("comparison</caption>"):]
t = t[:t.find("</table>")]
row = [c for c in re.findall(r"<tr>(.*?)</tr>", t) if "read mean latency" in c][0]
r_html = float(re.findall(r"<td[^>]*>([^<]*)</td>", row)[-1].rstrip("x"))
print("same" if abs(r_cmp - a / b) < 1e-3 and abs(r_html - round(a / b, 2)) < 0.006 else "differ %s %s %s" % (r_cmp, r_html, a / b))
PY
check compare_report_same_direction grep -qx same "$WORK/ratio"

# fileio: sysbench's deprecated spellings in --help, --file-fill among ssdbench's own
"$S" fileio --help >"$WORK/o"
check fileio_help_aliases grep -q -- "--events=N, --max-requests=N" "$WORK/o"
check fileio_fill_is_ssdbench_option test "$(sed -n '/^ssdbench options:/,$p' "$WORK/o" | grep -c -- '--file-fill')" -eq 1

# the report: a direction a result did not run gets no series; one interval
# is drawn with marks and a note
$T "$S" run --rw=randread --ioengine=null --size=16m --runtime=1 -q --result="$WORK/ia.json" >/dev/null 2>&1
$T "$S" run --rw=randrw --ioengine=null --size=16m --runtime=1 -q --result="$WORK/ib.json" >/dev/null 2>&1
mkdir -p "$WORK/csvd"
$T "$S" report --format csv -o "$WORK/csvd" "$WORK/ia.json" "$WORK/ib.json" >/dev/null 2>&1
hdr=$(head -1 "$WORK"/csvd/*-intervals.csv)
check report_no_series_for_absent_dir test "$(grep -c 'ia write' <<<"$hdr")" -eq 0
check report_series_for_present_dir grep -q 'ib write IOPS' <<<"$hdr"
$T "$S" run --name=one --ioengine=null --size=16m --rw=read --runtime=1 -q --result="$WORK/one.json" >/dev/null 2>&1
$T "$S" report -o "$WORK/one.html" "$WORK/one.json" >/dev/null 2>&1
python3 - "$WORK/one.html" "$WORK/one.json" >"$WORK/one.check" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
n = len(json.load(open(sys.argv[2]))["phases"][0]["intervals"]["rows"])
i = s.find("latency over time")
svg = s[i:s.find("</svg>", i)]
print("ok" if n != 1 or (svg.count("<circle") >= 1 and "One interval only" in s) else "empty chart")
PY
check report_one_interval_usable grep -qx ok "$WORK/one.check"

# fileio --dry-run: the plan, nothing written; run without prepared files exits 2 naming one
mkdir -p "$WORK/fdry"
(cd "$WORK/fdry" && $T "$S" fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrd --threads=1,2 --dry-run run) >"$WORK/o" 2>"$WORK/e"
check fileio_dry_missing_exit_2 test $? -eq 2
check fileio_dry_missing_named grep -q "test_file.0: no such file" "$WORK/e"
check fileio_dry_plan_time grep -q "rndrd, 2 runs (threads 1,2), up to 20 s" "$WORK/o"
(cd "$WORK/fdry" && $T "$S" fileio --file-num=2 --file-total-size=4M --dry-run prepare) >"$WORK/o" 2>&1
check fileio_dry_prepare_exit_0 test $? -eq 0
check fileio_dry_writes_nothing test -z "$(ls -A "$WORK/fdry")"
