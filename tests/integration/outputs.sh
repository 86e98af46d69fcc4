#!/bin/bash
# run.sh: long (started first)
# outputs.sh - what ssdbench writes and reads at paths a user names: outputs
# never replace a device, FIFO or link (base/outfile.c); a bad --result is
# refused before the run; the RESULT.partial journal survives kill -9 and a
# failed final write, and show/report/recover read it; stop signals leave a
# complete result; a reader that goes away (| true) does not lose --result;
# job files that are devices, FIFOs or too large are refused at once.
source "$(dirname "$0")/lib.sh"

NULLRUN=(--engine=null --size=64m --bs=4k --runtime=1 -q)
# field index in a journal's "# fields" line
jfield() { python3 -c "
import json,sys
for l in open(sys.argv[1]):
    if l.startswith('# fields '): print(json.loads(l[9:]).index(sys.argv[2])); break" "$1" "$2"; }

# --- outputs into a character device: written into, never replaced.
# A private copy of /dev/null (same major/minor) so a broken build cannot
# replace the system's; then the real /dev/null once.
if is_root && mknod "$WORK/null" c 1 3 2>/dev/null; then
    "$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/null" >/dev/null 2>"$WORK/e"; rc=$?
    check result_into_chardev_rc test "$rc" -eq 0
    check result_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    check result_chardev_no_temp test -z "$(ls "$WORK" | grep 'null\.')"
    "$SSDBENCH" run "${NULLRUN[@]}" --format csv -o "$WORK/null" 2>/dev/null
    check csv_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    "$SSDBENCH" run "${NULLRUN[@]}" --format json --result "$WORK/r0.json" -o "$WORK/null" 2>/dev/null
    check json_output_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    "$SSDBENCH" report -o "$WORK/null" "$WORK/r0.json" 2>/dev/null
    check report_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    "$SSDBENCH" show --format csv -o "$WORK/null" "$WORK/r0.json" 2>/dev/null
    check show_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    "$SSDBENCH" compare -o "$WORK/null" "$WORK/r0.json" "$WORK/r0.json" 2>/dev/null
    check compare_chardev_kept test "$(stat -c %F "$WORK/null")" = "character special file"
    # the real one
    "$SSDBENCH" run "${NULLRUN[@]}" --result /dev/null >/dev/null 2>&1
    "$SSDBENCH" report -o /dev/null "$WORK/r0.json" 2>/dev/null
    if [ "$(stat -c %F /dev/null)" = "character special file" ]; then
        pass dev_null_kept
    else
        fail dev_null_kept "/dev/null became a $(stat -c %F /dev/null)"
        rm -f /dev/null && mknod -m 666 /dev/null c 1 3
    fi
else
    skip result_into_chardev "needs root (mknod)"
fi

# --- this process's own descriptors (/dev/stdout, /dev/fd/N,
# /proc/self/fd/N) work, on a pipe and redirected to a file (the text report
# goes to -o so only the JSON is on stdout). /proc/self/fd/1 is used, not
# /dev/stdout: a broken build renaming over it fails inside /proc instead of
# replacing the system's /dev/stdout.
"$SSDBENCH" run "${NULLRUN[@]}" --result /proc/self/fd/1 -o "$WORK/txt1" 2>/dev/null | cat >"$WORK/piped.json"
check result_own_fd_pipe test "$(json_get "$WORK/piped.json" "d['schema']")" = "ssdbench-result/1"
"$SSDBENCH" run "${NULLRUN[@]}" --result /proc/self/fd/1 -o "$WORK/txt2" >"$WORK/redir.json" 2>/dev/null
check result_own_fd_file test "$(json_get "$WORK/redir.json" "d['schema']")" = "ssdbench-result/1"
"$SSDBENCH" run "${NULLRUN[@]}" --result /proc/self/fd/3 -o "$WORK/txt3" 3>>"$WORK/fd3.json" 2>/dev/null
check result_own_fd3 test "$(json_get "$WORK/fd3.json" "d['schema']")" = "ssdbench-result/1"

# --- into a FIFO: written as a plain open would (waits for the reader)
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$WORK/fifo.json" &
reader=$!
timeout 20 "$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/fifo" >/dev/null 2>&1
wait $reader
check result_into_fifo test "$(json_get "$WORK/fifo.json" "d['schema']")" = "ssdbench-result/1"
check fifo_kept test -p "$WORK/fifo"

# --- symbolic links as the output: a link to a regular file or to nothing
# is refused before the run (the file it points to unchanged, no journal);
# a link to a character device is written through
echo "keep me" >"$WORK/precious"
sum0=$(sha256sum <"$WORK/precious")
ln -s "$WORK/precious" "$WORK/link.json"
out=$("$SSDBENCH" run --name=a --filename="$WORK/t_link" --size=4m --bs=4k --runtime=1 -q \
      --result "$WORK/link.json" 2>&1 >/dev/null); rc=$?
check link_refused_exit2 test "$rc" -eq 2
check link_refused_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
check link_refused_named grep -q "link.json: is a symbolic link" <<<"$out"
check link_target_unchanged test "$(sha256sum <"$WORK/precious")" = "$sum0"
check link_still_link test -L "$WORK/link.json"
check link_run_not_started test ! -e "$WORK/t_link"
ln -s "$WORK/nowhere.json" "$WORK/dangling.json"
"$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/dangling.json" >/dev/null 2>&1; rc=$?
check dangling_link_refused test "$rc" -eq 2 -a ! -e "$WORK/nowhere.json" -a -L "$WORK/dangling.json"
if [ -c "$WORK/null" ]; then
    ln -s "$WORK/null" "$WORK/tonull.json"
    "$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/tonull.json" >/dev/null 2>&1; rc=$?
    check link_to_chardev_written test "$rc" -eq 0 -a -L "$WORK/tonull.json" -a -c "$WORK/null"
fi

# --- a directory or an unwritable place as --result: refused before any I/O
mkdir "$WORK/adir"
# (a run that went ahead would run for an hour: the timeout ends it, rc 124)
out=$(timeout 120 "$SSDBENCH" run --name=a --filename="$WORK/t_dir" --size=4m --bs=4k --runtime=1h -q \
      --result "$WORK/adir" 2>&1 >/dev/null); rc=$?
check result_dir_exit2 test "$rc" -eq 2
check result_dir_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
check result_dir_named grep -q "adir: is a directory" <<<"$out"
check result_dir_before_run test ! -e "$WORK/t_dir"
out=$("$SSDBENCH" run --name=a --filename="$WORK/t_nodir" --size=4m --bs=4k --runtime=30 -q \
      --result "$WORK/no/such/dir/r.json" 2>&1 >/dev/null); rc=$?
check result_nodir_exit2 test "$rc" -eq 2
check result_nodir_before_run test ! -e "$WORK/t_nodir"
check result_nodir_one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
"$SSDBENCH" run "${NULLRUN[@]}" -o "$WORK/adir" >/dev/null 2>&1; rc=$?
check output_dir_refused test "$rc" -eq 2

# --- a regular file is still replaced atomically, keeping its permissions
echo old >"$WORK/reg.json"; chmod 600 "$WORK/reg.json"
"$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/reg.json" >/dev/null 2>&1
check regular_replaced test "$(json_get "$WORK/reg.json" "d['schema']")" = "ssdbench-result/1"
check regular_mode_kept test "$(stat -c %a "$WORK/reg.json")" = 600
check regular_no_temp test -z "$(ls "$WORK" | grep 'reg.json.tmp')"

# --- kill -9 mid-run: the journal is self-describing, and show / recover
# give every completed interval with counts that sum as the journal's rows
"$SSDBENCH" run --engine=null --size=64m --bs=4k --runtime=30 --interval=0.2 -q \
    --result "$WORK/k9.json" >/dev/null 2>&1 &
pid=$!
wait_journal_rows "$WORK/k9.json.partial" 5
kill -9 $pid; wait $pid 2>/dev/null
J="$WORK/k9.json.partial"
check journal_head test "$(head -1 "$J")" = "# ssdbench-journal/1"
check journal_fields grep -q '^# fields \["t_ms"' "$J"
check journal_units grep -q '^# units \["ms"' "$J"
check journal_phase grep -q '^# phase {"name":"job","kind":"run","step_ms":200,"jobs":\[{"name":"job","params":{' "$J"
check journal_command grep -q '"command_line":\["run","--engine=null"' "$J"
rc_col=$(jfield "$J" read_ios)
# the complete rows of the journal (a torn last line is not one)
python3 - "$J" "$rc_col" >"$WORK/k9.expect" <<'EOF'
import json, sys
rows = []
for l in open(sys.argv[1]):
    if l.startswith('['):
        try: rows.append(json.loads(l))
        except ValueError: pass
print(len(rows), int(sum(r[int(sys.argv[2])] for r in rows)))
EOF
read -r nrows nios <"$WORK/k9.expect"
check journal_has_rows test "$nrows" -ge 5
"$SSDBENCH" show --format json "$J" >"$WORK/k9.show.json" 2>/dev/null
check show_journal_rows test "$(json_get "$WORK/k9.show.json" "len(d['phases'][0]['intervals']['rows'])")" = "$nrows"
check show_journal_ios test "$(json_get "$WORK/k9.show.json" "int(d['phases'][0]['results'][0]['read']['ios'])")" = "$nios"
check show_journal_incomplete test "$(json_get "$WORK/k9.show.json" "d['incomplete']")" = True
check show_journal_fields test "$(json_get "$WORK/k9.show.json" "d['phases'][0]['intervals']['fields'][$rc_col]")" = read_ios
check show_journal_units test "$(json_get "$WORK/k9.show.json" "d['phases'][0]['intervals']['units'][$rc_col]")" = "I/Os"
"$SSDBENCH" show "$J" >"$WORK/k9.txt" 2>&1
check show_journal_text grep -q "RECOVERED from the journal .* $nrows completed intervals" "$WORK/k9.txt"
"$SSDBENCH" recover "$J" -o "$WORK/k9.rec.json" 2>/dev/null; rc=$?
check recover_rc test "$rc" -eq 0
check recover_rows test "$(json_get "$WORK/k9.rec.json" "len(d['phases'][0]['intervals']['rows'])")" = "$nrows"
check recover_ios test "$(json_get "$WORK/k9.rec.json" "int(d['phases'][0]['results'][0]['read']['ios'])")" = "$nios"
check recover_schema test "$(json_get "$WORK/k9.rec.json" "d['schema']")" = "ssdbench-result/1"
"$SSDBENCH" report -o "$WORK/k9.html" "$J" 2>/dev/null
check report_journal grep -q "<html" "$WORK/k9.html"
# an existing journal is never overwritten by the next run
out=$("$SSDBENCH" run "${NULLRUN[@]}" --result "$WORK/k9.json" 2>&1 >/dev/null); rc=$?
check journal_not_overwritten test "$rc" -eq 2 -a "$(grep -c '^\[' "$J")" -ge "$nrows"
check journal_refusal_says grep -q "recover" <<<"$out"
# junk after the rows, a torn row and a huge line: read, not crashed on
{ cat "$J"; printf '[1,2,3\n\x01\x02garbage\n# phase {broken\n'; head -c 2000000 /dev/zero | tr '\0' 'x'; } >"$WORK/junk.partial"
"$SSDBENCH" show --format json "$WORK/junk.partial" >"$WORK/junk.json" 2>/dev/null; rc=$?
check journal_junk_survived test "$rc" -eq 0
check journal_junk_rows test "$(json_get "$WORK/junk.json" "len(d['phases'][0]['intervals']['rows'])")" = "$nrows"

# --- every workload command journals: suite, act and fileio killed with -9
# keep their intervals; a phase that ended is recovered whole (per target,
# percentiles), only the one cut short is rebuilt from its rows
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1,2,4,8 --runtime 2s --precondition off \
    --set ioengine=null -q --result "$WORK/sk.json" none >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do   # until two phases have ended (or 120 s passed)
    [ "$(grep -c '^# done' "$WORK/sk.json.partial" 2>/dev/null || true)" -ge 2 ] 2>/dev/null && break
    sleep 0.2
done
kill -9 $pid; wait $pid 2>/dev/null
J="$WORK/sk.json.partial"
ndone=$(grep -c '^# done' "$J")
check suite_journal_done_lines test "$ndone" -ge 2
"$SSDBENCH" show --format json "$J" >"$WORK/sk.show.json" 2>/dev/null
check suite_journal_whole_phases test "$(json_get "$WORK/sk.show.json" "d['recovered_whole_phases']")" = "$ndone"
# a whole phase: its percentiles as filed, its totals equal to the sum of its journal rows
python3 - "$J" "$WORK/sk.show.json" <<'EOF2' >"$WORK/sk.check"
import json, sys
fields = None; rows = {}; cur = None; done = []
for l in open(sys.argv[1]):
    if l.startswith('# fields '): fields = json.loads(l[9:])
    elif l.startswith('# phase '): cur = json.loads(l[8:])['name']; rows[cur] = []
    elif l.startswith('# done '): done.append(json.loads(l[7:])['phase'])
    elif l.startswith('[') and cur:
        try: rows[cur].append(json.loads(l))
        except ValueError: pass
d = json.load(open(sys.argv[2]))
c = fields.index('read_ios')
ok = True
for p in d['phases'][:len(done)]:
    tot = p['results'][0]['read']
    ok &= 'p99' in json.dumps(tot['latency_ns']) or 'percentiles' in json.dumps(tot)
    ok &= int(tot['ios']) == int(sum(r[c] for r in rows[p['name']]))
    ok &= len(p['intervals']['rows']) == len(rows[p['name']])
    ok &= 'recovered_intervals' not in p
print('ok' if ok else 'bad')
EOF2
check suite_journal_whole_phase_figures test "$(cat "$WORK/sk.check")" = ok
"$SSDBENCH" show "$J" >"$WORK/sk.txt" 2>&1
check suite_journal_text grep -q "RECOVERED .* $ndone of [0-9]* phases as filed" "$WORK/sk.txt"
"$SSDBENCH" recover "$J" -o "$WORK/sk.rec.json" 2>/dev/null
check suite_journal_recover test "$(json_get "$WORK/sk.rec.json" "d['recovered_whole_phases']")" = "$ndone"
# a suite that finishes removes its journal
"$SSDBENCH" suite --profiles 4k-random-read --sweep qd:1 --runtime 0.3s --precondition off \
    --set ioengine=null -q --result "$WORK/sd.json" none >/dev/null 2>&1
check suite_journal_removed test -s "$WORK/sd.json" -a ! -e "$WORK/sd.json.partial"

"$SSDBENCH" act --load 1x --duration 30 --engine null -q --log "$WORK/ak.log" --result "$WORK/ak.json" \
    /dev/ssdbench-null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
    [ "$(grep -c '^\[' "$WORK/ak.json.partial" 2>/dev/null || true)" -ge 2 ] 2>/dev/null && break
    sleep 0.2
done
kill -9 $pid; wait $pid 2>/dev/null
check act_journal_rows test "$(grep -c '^\[' "$WORK/ak.json.partial")" -ge 2
check act_journal_phase grep -q '^# phase {"name":"act-1x","kind":"act"' "$WORK/ak.json.partial"
# the ACT log of a new name is written in place: what was logged before the
# kill is there under its name, and act-analyze reads it
check act_killed_log_kept test -s "$WORK/ak.log"
check act_killed_log_no_temp test -z "$(ls "$WORK" | grep 'ak.log.tmp')"
"$SSDBENCH" act-analyze -t 1 "$WORK/ak.log" >/dev/null 2>&1
check act_killed_log_analyzed test $? -eq 0
# an existing log is replaced only when the new one is complete
printf 'old log\n' >"$WORK/ak2.log"
"$SSDBENCH" act --load 1x --duration 30 --engine null -q --log "$WORK/ak2.log" /dev/ssdbench-null >/dev/null 2>&1 &
pid=$!
# (killed once the new log is being written beside the old one)
for _ in $(seq 1200); do
    compgen -G "$WORK/ak2.log.tmp*" >/dev/null && break
    sleep 0.1
done
check act_new_log_beside_old compgen -G "$WORK/ak2.log.tmp*"
kill -9 $pid; wait $pid 2>/dev/null
check act_killed_old_log_whole test "$(cat "$WORK/ak2.log")" = "old log"
rm -f "$WORK"/ak2.log.tmp*

mkdir -p "$WORK/fk" && cd "$WORK/fk" || exit 1
"$SSDBENCH" fileio --file-num=2 --file-total-size=8M prepare >/dev/null 2>&1
"$SSDBENCH" fileio --file-num=2 --file-total-size=8M --file-test-mode=rndrd --time=30 \
    --result "$WORK/fk.json" run >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
    [ "$(grep -c '^\[' "$WORK/fk.json.partial" 2>/dev/null || true)" -ge 2 ] 2>/dev/null && break
    sleep 0.2
done
kill -9 $pid; wait $pid 2>/dev/null
check fileio_journal_rows test "$(grep -c '^\[' "$WORK/fk.json.partial")" -ge 2
check fileio_journal_phase grep -q '^# phase {"name":"threads=1","kind":"fileio"' "$WORK/fk.json.partial"
# prepare has no phases: no journal
"$SSDBENCH" fileio --file-num=2 --file-total-size=8M --result "$WORK/fp.json" prepare >/dev/null 2>&1
check fileio_prepare_no_journal test ! -e "$WORK/fp.json.partial"
cd "$WORK" || exit 1

# --- the final write fails (a full file system): the journal stays, and
# show reads the intervals from it
if is_root; then
    mkdir -p "$WORK/tiny"
    if mount -t tmpfs -o size=64k tmpfs "$WORK/tiny" 2>/dev/null; then
        track mount "$WORK/tiny"
        head -c 45056 /dev/zero >"$WORK/tiny/filler"
        out=$("$SSDBENCH" run --engine=null --size=64m --bs=4k --runtime=1 --interval=0.1 -q \
              --result "$WORK/tiny/r.json" 2>&1 >/dev/null); rc=$?
        check full_disk_exit1 test "$rc" -eq 1
        check full_disk_no_result test ! -e "$WORK/tiny/r.json"
        check full_disk_journal_kept test -s "$WORK/tiny/r.json.partial"
        check full_disk_says_where grep -q "kept in $WORK/tiny/r.json.partial" <<<"$out"
        n=$(grep -c '^\[' "$WORK/tiny/r.json.partial")
        "$SSDBENCH" show --format json "$WORK/tiny/r.json.partial" >"$WORK/tiny.json" 2>/dev/null
        check full_disk_show_rows test "$(json_get "$WORK/tiny.json" "len(d['phases'][0]['intervals']['rows'])")" = "$n"
        check full_disk_rows_nonzero test "$n" -ge 5
        check full_disk_no_temp test -z "$(ls "$WORK/tiny" | grep tmp)"
    else
        skip full_disk "cannot mount a tmpfs"
    fi
else
    skip full_disk "needs root (tmpfs mount)"
fi

# --- stop signals: a complete result marked interrupted, exit 128 + N
for sig in HUP QUIT USR1 USR2; do
    num=$(kill -l "$sig")
    "$SSDBENCH" run --engine=null --size=64m --bs=4k --runtime=20 -q \
        --result "$WORK/sig$sig.json" >/dev/null 2>"$WORK/sig$sig.err" &
    pid=$!
    # signal once the run measures (its handlers are in place by then),
    # however slowly a busy host starts it
    for _ in $(seq 1200); do
        grep -q '^\[' "$WORK/sig$sig.json.partial" 2>/dev/null && break
        sleep 0.1
    done
    kill -"$sig" $pid
    # a run that ignored the signal is stopped after 10 s (and fails below)
    ( sleep 10; kill -KILL $pid 2>/dev/null ) &
    dog=$!
    wait $pid; rc=$?
    kill $dog 2>/dev/null; wait $dog 2>/dev/null
    check "sig${sig}_exit" test "$rc" -eq $((128 + num)) || cat "$WORK/sig$sig.err"
    check "sig${sig}_interrupted" test "$(json_get "$WORK/sig$sig.json" "d['interrupted']")" = True
    check "sig${sig}_named" test "$(json_get "$WORK/sig$sig.json" "d['signal']")" = "SIG$sig"
    check "sig${sig}_has_ios" test "$(json_get "$WORK/sig$sig.json" "int(d['phases'][0]['results'][0]['read']['ios'] > 0)")" = 1
    check "sig${sig}_journal_removed" test ! -e "$WORK/sig$sig.json.partial"
done

# --- the reader of stdout goes away: --result is still written
"$SSDBENCH" run --engine=null --size=64m --bs=4k --runtime=1 --result "$WORK/pipe.json" 2>/dev/null | head -1 >/dev/null
check sigpipe_head_result test "$(json_get "$WORK/pipe.json" "d['interrupted']")" = False
mkdir -p "$WORK/fio"
( cd "$WORK/fio" && "$SSDBENCH" fileio --file-num=1 --file-total-size=4M prepare >/dev/null 2>&1 )
( cd "$WORK/fio" && "$SSDBENCH" fileio --file-num=1 --file-total-size=4M --file-test-mode=seqrd \
    --time=1 --result "$WORK/fpipe.json" run 2>"$WORK/fpipe.err" | true )
check sigpipe_fileio_result test "$(json_get "$WORK/fpipe.json" "d['schema']")" = "ssdbench-result/1"
# the busy-host warning is the one line a loaded machine may add (on stderr by design)
check sigpipe_fileio_quiet test -z "$(grep -v "^WARNING: the host was busy during the run" "$WORK/fpipe.err")"

# --- job files and includes that are devices, FIFOs or too large: one
# line naming the file, at once, in bounded memory
mkfifo "$WORK/job.fifo"
printf '[a]\ninclude /dev/zero\n' >"$WORK/inc_zero.fio"
printf '[a]\ninclude %s\n' "$WORK/job.fifo" >"$WORK/inc_fifo.fio"
head -c $((5 << 20)) /dev/zero | tr '\0' '#' >"$WORK/big.fio"
for case in "dev_zero:/dev/zero:/dev/zero: is a character device" \
            "fifo:$WORK/job.fifo:job.fifo: is a FIFO" \
            "include_zero:$WORK/inc_zero.fio:include /dev/zero: is a character device" \
            "include_fifo:$WORK/inc_fifo.fio:include $WORK/job.fifo: is a FIFO" \
            "too_large:$WORK/big.fio:big.fio: job file larger than 4 MiB"; do
    name=${case%%:*}; rest=${case#*:}; file=${rest%%:*}; want=${rest#*:}
    out=$( (ulimit -v 1000000; timeout 10 "$SSDBENCH" run --parse-only "$file") 2>&1); rc=$?
    check "jobfile_${name}_exit2" test "$rc" -eq 2
    check "jobfile_${name}_one_line" test "$(printf '%s\n' "$out" | wc -l)" -eq 1
    check "jobfile_${name}_named" grep -qF "$want" <<<"$out"
done
for cmd in "act" "act-analyze" "show" "compare" "report"; do
    args=("$WORK/job.fifo")
    [ "$cmd" = compare ] && args+=("$WORK/job.fifo")
    out=$(timeout 10 "$SSDBENCH" $cmd "${args[@]}" 2>&1 >/dev/null); rc=$?
    check "${cmd}_fifo_refused" test "$rc" -ne 124 -a "$rc" -ne 0
    check "${cmd}_fifo_named" grep -q "job.fifo: is a FIFO" <<<"$out"
done
out=$(timeout 10 "$SSDBENCH" profiles --profile-file "$WORK/job.fifo" 2>&1); rc=$?
check profile_file_fifo_refused test "$rc" -eq 2
check profile_file_fifo_named grep -q "job.fifo: is a FIFO" <<<"$out"
