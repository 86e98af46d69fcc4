#!/bin/bash
# guard_outfiles.sh - every file ssdbench writes besides the target, tried
# as an attacker would: a link planted at a verify dump's name (with and
# without --readonly), at fio mode's agg-write_bw.log, at a shared fio log;
# a FIFO at a shared log's name; a verify state name linked to a device; an
# existing ssdbench-default-PID.dat in $TMPDIR; readonly=1 under
# --ignore-unsupported; escape sequences in a result's job name printed by
# show and compare. The victim is an ext4 loop device over tmpfs; each check
# compares its sha256 before and after, and the exit status and message.
source "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }
one_line() { test -n "$1" && test "$(printf '%s\n' "$1" | wc -l)" -eq 1; }

mkdir -p "$WORK/bin"
ln -s "$SSDBENCH" "$WORK/bin/fio"
FIO="$WORK/bin/fio"

dev=$(make_loop 64) && mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || dev=
if [ -n "$dev" ]; then
    victim=$(sum "$dev")

    # --- verify_dump: NAME.0.received planted as a link to the device
    d="$WORK/dump"
    mkdir -p "$d"
    head -c 65536 /dev/urandom >"$d/data"
    ln -s "$dev" "$d/data.0.received"
    timeout 60 "$SSDBENCH" run --filename="$d/data" --rw=read --bs=4k --size=64k --verify=crc32c \
        --verify_dump=1 -q >/dev/null 2>"$d/err"
    rc=$?
    msg=$(grep 'verify_dump' "$d/err")
    check dump_link_device_unchanged test "$victim" = "$(sum "$dev")"
    check dump_link_kept test -L "$d/data.0.received"
    check dump_link_refused_one_line one_line "$msg"
    check dump_link_refused_message grep -q 'data.0.received: is a symbolic link' <<<"$msg"
    check dump_link_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124
    # the other dump, at a name nobody planted, is written as a regular file
    check dump_expected_written test -f "$d/data.0.expected" -a ! -L "$d/data.0.expected"

    # --- the same with fio mode's --readonly (other bytes than the first dump)
    victim=$(sum "$dev")
    head -c 65536 /dev/urandom >"$d/data2"
    ln -s "$dev" "$d/data2.0.received"
    timeout 60 "$FIO" --readonly --name=ro --filename="$d/data2" --rw=read --bs=4k --size=64k \
        --verify=crc32c --verify_dump=1 --output-format=terse >/dev/null 2>"$d/err2"
    rc=$?
    msg=$(grep 'verify_dump' "$d/err2")
    check dump_readonly_device_unchanged test "$victim" = "$(sum "$dev")"
    check dump_readonly_refused_one_line one_line "$msg"
    check dump_readonly_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124

    # --- fio mode --bandwidth-log: agg-write_bw.log planted as a link to the
    # device, then to someone's regular file
    victim=$(sum "$dev")
    b="$WORK/bwlog"
    mkdir -p "$b"
    ln -s "$dev" "$b/agg-write_bw.log"
    out=$(cd "$b" && timeout 60 "$FIO" --bandwidth-log --name=w --filename="$b/t.bin" --rw=write --bs=4k \
        --size=1m --time_based --runtime=3 --output-format=terse 2>&1 >/dev/null)
    rc=$?
    check bwlog_link_device_unchanged test "$victim" = "$(sum "$dev")"
    check bwlog_link_refused_one_line one_line "$out"
    check bwlog_link_refused_message grep -q 'agg-write_bw.log: is a symbolic link' <<<"$out"
    check bwlog_link_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124
    check bwlog_link_kept test -L "$b/agg-write_bw.log"
    echo "someone's notes" >"$WORK/notes.txt"
    notes=$(sum "$WORK/notes.txt")
    ln -sfn "$WORK/notes.txt" "$b/agg-write_bw.log"
    (cd "$b" && timeout 60 "$FIO" --bandwidth-log --name=w --filename="$b/t.bin" --rw=write --bs=4k \
        --size=1m --time_based --runtime=3 --output-format=terse >/dev/null 2>&1)
    rc=$?
    check bwlog_link_file_unchanged test "$notes" = "$(sum "$WORK/notes.txt")"
    check bwlog_link_file_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124

    # --- a shared log (per_job_logs=0) named as a link to the device
    victim=$(sum "$dev")
    l="$WORK/logs"
    mkdir -p "$l"
    head -c 65536 /dev/urandom >"$l/t"
    ln -s "$dev" "$l/L_bw.log"
    out=$(timeout 60 "$SSDBENCH" run --filename="$l/t" --rw=read --bs=4k --size=64k \
        --write_bw_log="$l/L" --per_job_logs=0 -q 2>&1 >/dev/null)
    rc=$?
    check shared_log_link_device_unchanged test "$victim" = "$(sum "$dev")"
    check shared_log_link_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124
    check shared_log_link_one_line one_line "$out"
    check shared_log_link_message grep -q 'L_bw.log: is a symbolic link' <<<"$out"

    # --- the verify state (a name ssdbench derives) linked to the device
    victim=$(sum "$dev")
    v="$WORK/vstate"
    mkdir -p "$v"
    ln -s "$dev" "$v/ssdbench-vs-0-verify.state"
    out=$(cd "$v" && timeout 60 "$SSDBENCH" run --name=vs --filename="$v/t.bin" --rw=write --bs=4k \
        --size=64k --verify=crc32c --verify_state_save=1 -q 2>&1 >/dev/null)
    rc=$?
    check vstate_link_device_unchanged test "$victim" = "$(sum "$dev")"
    check vstate_link_exit_nonzero test "$rc" -ne 0 -a "$rc" -ne 124
    check vstate_link_message grep -q 'verify.state: is a symbolic link' <<<"$out"
else
    skip dump_link_device "needs root for a loop device (and mkfs.ext4)"
    skip bwlog_link_device "needs root for a loop device"
    skip shared_log_link_device "needs root for a loop device"
    skip vstate_link_device "needs root for a loop device"
fi

# --- a FIFO at a shared log's name: refused, never waited on
f="$WORK/fifo"
mkdir -p "$f"
head -c 65536 /dev/urandom >"$f/t"
mkfifo "$f/F_bw.log"
out=$(timeout 30 "$SSDBENCH" run --filename="$f/t" --rw=read --bs=4k --size=64k \
    --write_bw_log="$f/F" --per_job_logs=0 -q 2>&1 >/dev/null)
rc=$?
check fifo_log_no_hang test "$rc" -ne 124
check fifo_log_refused test "$rc" -ne 0
check fifo_log_message grep -q 'F_bw.log: is a FIFO' <<<"$out"
check fifo_log_still_fifo test -p "$f/F_bw.log"

# --- a FIFO named as --result that nobody reads: given up after 10 s
mkfifo "$f/r.fifo"
out=$(timeout 40 "$SSDBENCH" run --ioengine=null --size=1m --name=n --result "$f/r.fifo" -q 2>&1 >/dev/null)
rc=$?
check fifo_result_no_hang test "$rc" -ne 124
check fifo_result_refused test "$rc" -ne 0
check fifo_result_message grep -q 'r.fifo: is a FIFO nobody reads' <<<"$out"

# --- readonly=1 is never dropped by --ignore-unsupported
r="$WORK/ro"
mkdir -p "$r"
head -c 65536 /dev/urandom >"$r/data"
before=$(sum "$r/data")
printf '[w]\nfilename=%s\nrw=write\nbs=4k\nsize=64k\nreadonly=1\n' "$r/data" >"$r/ro.fio"
out=$(timeout 60 "$SSDBENCH" run --ignore-unsupported --destroy="$r/data" "$r/ro.fio" -q 2>&1 >/dev/null)
rc=$?
check readonly_job_unchanged test "$before" = "$(sum "$r/data")"
check readonly_job_refused test "$rc" -eq 2
check readonly_job_message grep -q "read-only mode" <<<"$out"
# a read-only job creates no target
out=$(timeout 60 "$SSDBENCH" run --ignore-unsupported --readonly --filename="$r/new.bin" --rw=read --size=64k -q 2>&1 >/dev/null)
check readonly_creates_nothing test $? -ne 0 -a ! -e "$r/new.bin"

# --- the quick grid beside an existing ssdbench-default-PID.dat: the PID is
# the shell's, which exec hands to ssdbench; SIGINT stops the grid early
if is_root; then
    q="$WORK/quick"
    mkdir -p "$q"
    mount -t tmpfs -o size=400m tmpfs "$q" && track mount "$q"
    timeout -s INT 4 env TMPDIR="$q" sh -c 'printf "someone else\n" >"$TMPDIR/ssdbench-default-$$.dat";
        echo $$ >"$TMPDIR/pid"; exec "$0" run' "$SSDBENCH" >/dev/null 2>"$WORK/quick.err"
    pid=$(cat "$q/pid")
    planted="$q/ssdbench-default-$pid.dat"
    check quick_existing_kept test -f "$planted"
    check quick_existing_unchanged test "$(cat "$planted" 2>/dev/null)" = "someone else"
    check quick_used_own_file grep -q "ssdbench-default-$pid\.[A-Za-z0-9]*/test.dat" "$WORK/quick.err"
    # nothing of its own is left behind
    check quick_cleaned test "$(ls "$q" | sort | tr '\n' ' ')" = "pid ssdbench-default-$pid.dat "
else
    skip quick_existing "needs root for a small tmpfs"
fi

# --- escape sequences in a result's job name and path: printed escaped
e="$WORK/esc"
mkdir -p "$e"
name=$'evil\e]0;owned\a\e[2J\xc2\x9bx'
timeout 60 "$SSDBENCH" run --ioengine=null --size=1m --name="$name" -q --result "$e/r.json" >/dev/null 2>&1
check esc_result_made test -s "$e/r.json"
# the path of a crafted result: a label and a target path with ESC in them
python3 - "$e/r.json" "$e/c.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for ph in d.get("phases", []):
    for t in ph.get("targets", []):
        t["path"] = "/dev/\x1b[31mred"
json.dump(d, open(sys.argv[2], "w"))
EOF
timeout 30 "$SSDBENCH" show "$e/r.json" >"$e/show.txt" 2>&1
check esc_show_no_raw_esc test "$(grep -ac $'\e' "$e/show.txt")" -eq 0
check esc_show_escaped grep -qF 'evil\x1b]0;owned\x07\x1b[2J\u009bx' "$e/show.txt"
timeout 30 "$SSDBENCH" show "$e/c.json" >"$e/showc.txt" 2>&1
check esc_show_path_no_raw_esc test "$(grep -ac $'\e' "$e/showc.txt")" -eq 0
timeout 30 "$SSDBENCH" compare "$e/r.json" "$e/c.json" >"$e/cmp.txt" 2>&1
check esc_compare_no_raw_esc test "$(grep -ac $'\e' "$e/cmp.txt")" -eq 0
check esc_compare_escaped grep -qF 'evil\x1b]0;owned\x07' "$e/cmp.txt"
# JSON stays exact: the name reads back byte for byte
check esc_json_exact test "$(json_get "$e/r.json" 'd["phases"][0]["jobs"][0]["name"]' 2>/dev/null)" = "$name"
# CSV quotes: a label with a quote reads back as itself
cp "$e/r.json" "$e/q\"uote.json"
timeout 30 "$SSDBENCH" compare --format csv "$e/r.json" "$e/q\"uote.json" >"$e/cmp.csv" 2>&1
check esc_compare_csv_quoted python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
sys.exit(0 if rows and rows[0][4] == "q\"uote" and all(len(r) == len(rows[0]) for r in rows) else 1)' "$e/cmp.csv"
