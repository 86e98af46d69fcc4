#!/bin/bash
# run.sh: long (started first)
# fio_files.sh - fio's file sets and file life cycle (nrfiles, openfiles,
# file_service_type, filename_format, directory, filesize, fallocate,
# invalidate, pre_read) against fio 3.33 itself: the same job file run by
# fio and by ssdbench, each in a directory of its own, must leave files of
# the same names, sizes and allocated blocks, with the same total I/O
# counts (fio's JSON total_ios). With fallocate=none a sequentially written
# file is as long as what was written to it, so its size is the per-file
# spread, which must be fio's exactly (roundrobin, roundrobin:N,
# sequential, openfiles); ssdbench's own per-target counts must equal those
# sizes too. The guard must refuse a file set one of whose files holds
# user data, leaving its bytes (sha256) and the directory as they were.
source "$(dirname "$0")/lib.sh"

HAVE_FIO=0
need_tool fio fio && HAVE_FIO=1
cd "$WORK" || exit 1

# the files of a run directory: "name size blocks" (512-byte units). The
# mark ssdbench keeps on its files (the user.ssdbench extended attribute,
# target.h) can take a block of its own; it is removed first, so that the
# blocks counted are the data's.
listing() {
    python3 - "$1" <<'PY'
import os, sys
top = sys.argv[1]
out = []
for d, _, files in os.walk(top):
    for f in files:
        p = os.path.join(d, f)
        if f.endswith((".json", ".err", ".fio")):
            continue
        try:
            os.removexattr(p, "user.ssdbench")
        except OSError:
            pass
        st = os.stat(p)
        out.append("%s %d %d" % (os.path.relpath(p, top), st.st_size, st.st_blocks))
print("\n".join(sorted(out)))
PY
}
total_ios() { json_get "$1" "sum(j['read']['total_ios'] + j['write']['total_ios'] for j in d['jobs'])"; }
# ssdbench's per-target write I/Os from a result document: "path ios" lines
target_ios() {
    python3 - "$1" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1]))
paths = {t["id"]: t["path"] for t in d["targets"]}
for r in d["phases"][0]["results"]:
    if r["scope"].startswith("target:"):
        print(os.path.basename(paths[r["scope"][7:]]), r["write"]["ios"])
PY
}

# run_both NAME: runs $WORK/NAME.fio with fio (in NAME/fio) and ssdbench
# (in NAME/sb); 0 when both ran
run_both() {
    local n=$1
    mkdir -p "$n/fio" "$n/sb"
    if [ $HAVE_FIO -eq 1 ]; then
        (cd "$n/fio" && timeout 60 fio --output-format=json "../../$n.fio" >out.json 2>out.err) ||
            { fail "fio_runs_$n" "$(head -2 "$n/fio/out.err")"; return 1; }
    fi
    (cd "$n/sb" && timeout 60 "$SSDBENCH" run -q --output-format=json --result res.json "../../$n.fio" \
        >out.json 2>out.err) ||
        { fail "ssdbench_runs_$n" "$(head -2 "$n/sb/out.err")"; return 1; }
    return 0
}

# same_as_fio NAME: file names, sizes, blocks and total_ios equal fio's
same_as_fio() {
    local n=$1
    [ $HAVE_FIO -eq 1 ] || { skip "same_files_$n" "not compared: fio is missing (needs_fio)"; return; }
    local a b
    a=$(listing "$n/fio"); b=$(listing "$n/sb")
    if [ "$a" = "$b" ] && [ -n "$a" ]; then
        pass "same_files_$n"
    else
        fail "same_files_$n" "fio: $(echo "$a" | tr '\n' ';') ssdbench: $(echo "$b" | tr '\n' ';')"
    fi
    a=$(total_ios "$n/fio/out.json"); b=$(total_ios "$n/sb/out.json")
    if [ "$a" = "$b" ]; then pass "same_total_ios_$n"; else fail "same_total_ios_$n" "fio $a ssdbench $b"; fi
}

# spread_is_size NAME BS: ssdbench's per-file I/O counts times BS are the
# files' sizes (sequential writes with fallocate=none)
spread_is_size() {
    local n=$1 bs=$2 want got
    want=$(cd "$n/sb" && find . -type f -name 'fs*' -printf '%P %s\n' | sort | awk -v bs="$bs" '{print $1, $2 / bs}')
    got=$(target_ios "$n/sb/res.json" | sort)
    if [ "$want" = "$got" ] && [ -n "$got" ]; then pass "spread_$n"; else
        fail "spread_$n" "sizes/bs: $(echo "$want" | tr '\n' ';') counted: $(echo "$got" | tr '\n' ';')"; fi
}

job() { # job NAME OPTIONS... : a one-job file [fs] with a [global] of the rest
    local n=$1; shift
    { echo "[global]"; echo "ioengine=psync"; echo "direct=0"; echo "bs=4k"; printf '%s\n' "$@"; echo "[fs]"; } >"$n.fio"
}

# --- every file service type over a whole pass: 4 files of 256 KiB
for t in roundrobin sequential random random:8; do
    n=full_${t//:/_}
    job "$n" rw=write size=1m nrfiles=4 fallocate=none "file_service_type=$t"
    run_both "$n" && { same_as_fio "$n"; spread_is_size "$n" 4096; }
done
# random offsets: each file's random map is filled once
n=full_randwrite
job "$n" rw=randwrite size=1m nrfiles=4 file_service_type=roundrobin
run_both "$n" && same_as_fio "$n"

# fsync=N: one fsync of the file written last every N writes, as fio
n=fsync
job "$n" rw=write size=1m nrfiles=4 fsync=3 end_fsync=1
if run_both "$n"; then
    same_as_fio "$n"
    if [ $HAVE_FIO -eq 1 ]; then
        a=$(json_get "$n/fio/out.json" "sum(j['sync']['total_ios'] for j in d['jobs'])")
        b=$(json_get "$n/sb/out.json" "sum(j['sync']['total_ios'] for j in d['jobs'])")
        check fsync_same_syncs test "$a" = "$b" -a "$b" -gt 0
    fi
fi

# --- part of a pass (io_size): the spread shows how files were picked
for t in roundrobin sequential roundrobin:5; do
    n=part_${t//:/_}
    job "$n" rw=write size=1m io_size=384k nrfiles=4 fallocate=none "file_service_type=$t"
    run_both "$n" && { same_as_fio "$n"; spread_is_size "$n" 4096; }
done
n=part_random
job "$n" rw=write size=1m io_size=384k nrfiles=4 fallocate=none file_service_type=random
if run_both "$n"; then
    spread_is_size "$n" 4096
    s=$(cd "$n/sb" && find . -name 'fs*' -printf '%s\n' | awk '{t += $1} END {print t}')
    check "part_random_sum" test "$s" -eq $((384 * 1024))
fi
# openfiles=2: two files are served until done, then the next two
n=part_openfiles
job "$n" rw=write size=1m io_size=640k nrfiles=4 openfiles=2 fallocate=none
run_both "$n" && { same_as_fio "$n"; spread_is_size "$n" 4096; }

# --- names: clones, directory, filename_format ($jobnum left out: shared)
n=names_clones
job "$n" rw=write size=256k nrfiles=2 numjobs=2 directory=sub
mkdir -p "$n/fio/sub" "$n/sb/sub"
run_both "$n" && same_as_fio "$n"
# directories in the format are made, as fio's create_work_dirs
n=names_dirs
job "$n" rw=write size=128k nrfiles=2 'filename_format=a/b$jobnum/$filenum'
run_both "$n" && same_as_fio "$n"
n=names_format
job "$n" rw=write size=256k nrfiles=3 numjobs=2 'filename_format=data.$filenum.$jobname'
run_both "$n" && same_as_fio "$n"
n=names_format_clone
job "$n" rw=write size=128k numjobs=3 'filename_format=c$jobnum-$jobname'
run_both "$n" && same_as_fio "$n"

# --- sizes: a size that does not divide, filesize fixed and a range
n=size_uneven
job "$n" rw=write size=1028k nrfiles=3
run_both "$n" && same_as_fio "$n"
n=size_filesize
job "$n" rw=write size=256k filesize=128k nrfiles=4 fallocate=none file_service_type=sequential
run_both "$n" && { same_as_fio "$n"; spread_is_size "$n" 4096; }
n=size_range
job "$n" rw=read size=1m filesize=64k-256k nrfiles=4
if run_both "$n"; then
    bad=$(cd "$n/sb" && find . -name 'fs*' -printf '%s\n' | awk '$1 < 65536 || $1 > 262144 || $1 % 4096' | wc -l)
    cnt=$(cd "$n/sb" && find . -name 'fs*' | wc -l)
    check size_range_in_range test "$bad" -eq 0 -a "$cnt" -eq 4
fi

# --- fallocate: a write job that writes 64 KiB of one file out of four
# (the aliases 0 and 1 are none and posix as parsed: test_fio_files.c)
for m in none native posix keep truncate; do
    n=falloc_$m
    job "$n" rw=write size=1m io_size=64k nrfiles=4 file_service_type=sequential "fallocate=$m"
    run_both "$n" && same_as_fio "$n"
done

# --- the guard: one file of the set holds user data
n=guard
job "$n" rw=write size=1m nrfiles=4
mkdir -p "$n/sb"
head -c 100000 /dev/urandom >"$n/sb/fs.0.2"
sum0=$(sha256sum <"$n/sb/fs.0.2")
(cd "$n/sb" && "$SSDBENCH" run -q "../../$n.fio" >out.json 2>out.err)
rc=$?
check guard_refused test $rc -ne 0
check guard_says_why grep -q "fs.0.2.*ssdbench did not create" "$n/sb/out.err"
check guard_one_line test "$(wc -l <"$n/sb/out.err")" -eq 1
check guard_bytes_unchanged test "$(sha256sum <"$n/sb/fs.0.2")" = "$sum0"
check guard_nothing_created test "$(cd "$n/sb" && ls fs.* | tr '\n' ' ')" = "fs.0.2 "
# with consent for that file the job runs
(cd "$n/sb" && "$SSDBENCH" run -q --destroy=fs.0.2 "../../$n.fio" >out.json 2>out.err)
check guard_consent_runs test $? -eq 0
# a trim-only set destroys as writes do: the same refusal, the bytes kept
n=guard_trim
job "$n" rw=trim size=1m nrfiles=4
mkdir -p "$n/sb"
head -c 100000 /dev/urandom >"$n/sb/fs.0.2"
sum0=$(sha256sum <"$n/sb/fs.0.2")
(cd "$n/sb" && "$SSDBENCH" run -q "../../$n.fio" >out.json 2>out.err)
rc=$?
check guard_trim_refused test $rc -ne 0
check guard_trim_says_why grep -q "fs.0.2.*ssdbench did not create" "$n/sb/out.err"
check guard_trim_bytes_unchanged test "$(sha256sum <"$n/sb/fs.0.2")" = "$sum0"

# --- page cache: invalidate drops it, pre_read fills it, before the run
cc -O1 -o procio -x c - <<'EOF' || { fail helper "cannot build the test helper"; exit 0; }
/* procio CMD...: runs CMD, prints its rchar from /proc/PID/io before reaping it */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    (void)argc;
    pid_t p = fork();
    if (p == 0) { execvp(argv[1], argv + 1); _exit(127); }
    siginfo_t si;
    if (waitid(P_PID, (id_t)p, &si, WEXITED | WNOWAIT) < 0) return 126;
    char path[64], line[128];
    snprintf(path, sizeof(path), "/proc/%d/io", (int)p);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, "rchar:", 6)) fputs(line + 7, stderr);
    if (f) fclose(f);
    int st;
    waitpid(p, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}
EOF
cached() { fincore -b -n -o RES "$1" | tr -d ' '; }
fstype=$(stat -f -c %T "$WORK")
if [ "$fstype" = tmpfs ] || [ "$fstype" = ramfs ]; then
    skip page_cache "$WORK is on $fstype: its page cache is the file's storage (set TMPDIR to a disk file system)"
elif command -v fincore >/dev/null 2>&1; then
    mkdir -p cache
    head -c $((4 << 20)) /dev/urandom >cache/data
    sync cache/data
    cat cache/data >/dev/null
    for inv in 1 0; do
        { echo "[c]"; echo "filename=data"; echo "rw=read"; echo "bs=4k"; echo "io_size=4k"; echo "direct=1";
          echo "ioengine=psync"; echo "invalidate=$inv"; } >cache/inv$inv.fio
        cat cache/data >/dev/null
        before=$(cached cache/data)
        (cd cache && "$SSDBENCH" run -q inv$inv.fio >/dev/null 2>&1)
        after=$(cached cache/data)
        if [ $inv -eq 1 ]; then
            check "invalidate_drops_cache" test "$before" -eq $((4 << 20)) -a "$after" -eq 0
        else
            check "invalidate_0_keeps_cache" test "$after" -eq $((4 << 20))
        fi
        if [ $HAVE_FIO -eq 1 ]; then
            cat cache/data >/dev/null
            (cd cache && fio --output-format=json inv$inv.fio >/dev/null 2>&1)
            check "invalidate_${inv}_as_fio" test "$(cached cache/data)" -eq "$after"
        fi
    done
    # pre_read: the whole file is read (rchar) and cached before one 4 KiB
    # direct read; without it, only that read
    for pr in 0 1; do
        { echo "[c]"; echo "filename=data"; echo "rw=read"; echo "bs=4k"; echo "io_size=4k"; echo "direct=1";
          echo "ioengine=psync"; echo "pre_read=$pr"; } >cache/pr$pr.fio
        (cd cache && ../procio "$SSDBENCH" run -q --output-format=json pr$pr.fio >pr$pr.json 2>pr$pr.rchar)
        rchar[$pr]=$(tail -1 cache/pr$pr.rchar)
        ios[$pr]=$(total_ios cache/pr$pr.json)
        res[$pr]=$(cached cache/data)
    done
    d=$((rchar[1] - rchar[0]))
    check pre_read_reads_file test "$d" -ge $((4 << 20)) -a "$d" -lt $((5 << 20))
    check pre_read_caches_file test "${res[1]}" -eq $((4 << 20)) -a "${res[0]}" -eq 0
    check pre_read_not_counted test "${ios[0]}" -eq 1 -a "${ios[1]}" -eq 1
else
    skip page_cache "fincore (util-linux) is not installed"
fi

# --- file_append: the writes start at the end of an existing 1 MiB file
# (offset = its size), so the file grows by the job's size, as in fio
mkdir -p append/fio append/sb
for d in fio sb; do head -c 1048576 /dev/zero | tr '\0' 'a' >append/$d/old; done
{ echo "[ap]"; echo "filename=old"; echo "rw=write"; echo "bs=4k"; echo "size=256k"; echo "file_append=1";
  echo "ioengine=psync"; } >append.fio
(cd append/sb && timeout 60 "$SSDBENCH" run -q --destroy=old --output-format=json ../../append.fio >out.json 2>out.err)
check file_append_grows test "$(stat -c %s append/sb/old)" = $((1048576 + 262144)) -a \
    "$(total_ios append/sb/out.json 2>/dev/null)" = 64 -a "$(head -c 1048576 append/sb/old | tr -d a | wc -c)" = 0
if [ $HAVE_FIO -eq 1 ]; then
    (cd append/fio && timeout 60 fio --output-format=json ../../append.fio >out.json 2>out.err)
    a="$(stat -c %s append/fio/old) $(total_ios append/fio/out.json)"
    b="$(stat -c %s append/sb/old) $(total_ios append/sb/out.json)"
    check file_append_same_as_fio test "$a" = "$b"
else
    skip file_append_same_as_fio "not compared: fio is missing (needs_fio)"
fi

# --- unlink_each_loop: with loops=3 the file is removed and made anew
# between passes (2 unlinks), the counts are fio's, and the file is left
# after the last pass as by fio (gone with unlink=1); a file the run found
# is neither removed nor replaced (the guard's rule for unlink=1)
mkdir -p uel/fio uel/sb
uelfio() { { echo "[u]"; echo "filename=$1"; echo "rw=write"; echo "bs=4k"; echo "size=256k"; echo "loops=3";
             echo "unlink_each_loop=1"; echo "ioengine=psync"; shift; printf '%s\n' "$@"; } >uel/$1.fio; }
uelfio f1; uelfio f2 unlink=1
(cd uel/sb && timeout 60 "$SSDBENCH" run -q --output-format=json ../f1.fio >f1.json 2>f1.err &&
    timeout 60 "$SSDBENCH" run -q --output-format=json ../f2.fio >f2.json 2>f2.err)
check uel_counts test "$(total_ios uel/sb/f1.json 2>/dev/null)" = 192 -a "$(total_ios uel/sb/f2.json 2>/dev/null)" = 192
check uel_left_as_fio test -f uel/sb/f1 -a ! -e uel/sb/f2 -a "$(stat -c %s uel/sb/f1)" = 262144
if command -v strace >/dev/null; then
    rm -f uel/sb/f1
    (cd uel/sb && timeout 60 strace -f -e trace=unlink,unlinkat -o st.txt "$SSDBENCH" run -q ../f1.fio >/dev/null 2>&1)
    check uel_unlinks_between_passes test "$(grep -c 'unlink.*"f1"' uel/sb/st.txt)" = 2
else
    skip uel_unlinks_between_passes "strace is not installed"
fi
head -c 262144 /dev/zero | tr '\0' 'b' >uel/sb/found
ino=$(stat -c %i uel/sb/found)
uelfio found unlink=1
(cd uel/sb && timeout 60 "$SSDBENCH" run -q --destroy=found --output-format=json ../found.fio >found.json 2>found.err)
check uel_found_file_kept test "$(total_ios uel/sb/found.json 2>/dev/null)" = 192 -a "$(stat -c %i uel/sb/found 2>/dev/null)" = "$ino"
if [ $HAVE_FIO -eq 1 ]; then
    (cd uel/fio && timeout 60 fio --output-format=json ../f1.fio >f1.json 2>f1.err &&
        timeout 60 fio --output-format=json ../f2.fio >f2.json 2>f2.err)
    a="$(total_ios uel/fio/f1.json) $(total_ios uel/fio/f2.json) $(ls uel/fio | grep -c '^f[12]$')"
    b="$(total_ios uel/sb/f1.json) $(total_ios uel/sb/f2.json) $(ls uel/sb | grep -c '^f[12]$')"
    check uel_same_as_fio test "$a" = "$b"
else
    skip uel_same_as_fio "not compared: fio is missing (needs_fio)"
fi
job uelbad rw=randrw size=64k loops=2 unlink_each_loop=1
check uel_refuses_reads bash -c "! timeout 20 '$SSDBENCH' run -q uelbad.fio 2>uelbad.err && grep -q 'unlink_each_loop=1 is done for write jobs' uelbad.err && [ \$(wc -l <uelbad.err) -eq 1 ]"
# io_uring (its files not registered: a registered file would stay the
# removed one, and the last pass would leave an empty file) and numjobs=2
# on the clones' own files (x.0.0, x.1.0): per job the writes and bytes,
# and the files left with their sizes, as fio's; clones sharing one file
# (filename=shared) each renew the name at the end of their own passes:
# fio's counts and the file it leaves (fio itself sometimes loses the race
# in which a clone finds the name another just removed, and stops with
# ENOENT: such a fio run is tried again, up to five times)
mkdir -p uel2/bin && ln -sf "$SSDBENCH" uel2/bin/fio
uel2() { # NAME TOOL ARGS...: the job run in uel2/NAME.TOOL; prints what is compared
    local n=$1 tool=$2 bin=fio
    shift 2
    [ "$tool" = sb ] && bin="$PWD/uel2/bin/fio"
    rm -rf "uel2/$n.$tool" && mkdir -p "uel2/$n.$tool"
    (cd "uel2/$n.$tool" && timeout 60 "$bin" --name=x --rw=write --bs=4k --size=256k --loops=3 --unlink_each_loop=1 \
        "$@" --output-format=json >../$n.$tool.json 2>../$n.$tool.err) || { echo "failed: $(head -c 200 "uel2/$n.$tool.err")"; return; }
    echo "$(json_get "uel2/$n.$tool.json" "' '.join('%d/%d' % (j['write']['total_ios'], j['write']['io_bytes']) for j in d['jobs'])")" \
        "$(cd "uel2/$n.$tool" && find . -type f -printf '%P:%s\n' | sort | tr '\n' ' ')"
}
for c in "uel_uring --ioengine=io_uring --iodepth=4" "uel_numjobs --ioengine=psync --numjobs=2" \
         "uel_uring_numjobs --ioengine=io_uring --iodepth=4 --numjobs=2" \
         "uel_shared --ioengine=psync --numjobs=2 --filename=shared" \
         "uel_shared3_aio --ioengine=libaio --iodepth=4 --numjobs=3 --filename=shared"; do
    set -- $c
    n=$1
    shift
    b=$(uel2 $n sb "$@")
    if [ $HAVE_FIO -eq 1 ]; then
        for try in 1 2 3 4 5; do
            a=$(uel2 $n fio "$@")
            case "$a" in failed:*) ;; *) break ;; esac
        done
        check "${n}_as_fio ($b)" test "$a" = "$b"
    else
        check "${n} ($b)" test -n "$(printf '%s' "$b" | grep -F 786432)"
    fi
done
# shared: every clone removes the name twice (the file it or another clone
# made, never one the run did not make); a shared file the run found is kept
if command -v strace >/dev/null; then
    rm -rf uel2/st && mkdir -p uel2/st
    (cd uel2/st && timeout 60 strace -f -e trace=unlink,unlinkat -o st.txt ../bin/fio --name=x --rw=write --bs=4k \
        --size=256k --loops=3 --unlink_each_loop=1 --numjobs=2 --filename=shared >/dev/null 2>&1)
    check uel_shared_unlinks test "$(grep -c 'unlink.*"shared".* = 0' uel2/st/st.txt)" = 4
else
    skip uel_shared_unlinks "strace is not installed"
fi
rm -rf uel2/found && mkdir -p uel2/found
head -c 262144 /dev/zero | tr '\0' 'b' >uel2/found/shared
ino=$(stat -c %i uel2/found/shared)
(cd uel2/found && SSDBENCH_DESTROY="$PWD/shared" timeout 60 ../bin/fio --name=x --rw=write --bs=4k --size=256k \
    --loops=3 --unlink_each_loop=1 --numjobs=2 --filename=shared --output-format=json >o.json 2>e.txt)
check uel_shared_found_kept test "$(total_ios uel2/found/o.json 2>/dev/null)" = 384 -a "$(stat -c %i uel2/found/shared)" = "$ino"

# --- bad values: one line naming the value
job bad1 rw=write size=1m nrfiles=2 file_service_type=bogus
check bad_service_type bash -c "! '$SSDBENCH' run -q bad1.fio 2>bad1.err && grep -q \"bad1.fio.*file_service_type.*'bogus'\" bad1.err && [ \$(wc -l <bad1.err) -eq 1 ]"
job bad2 rw=write size=1m nrfiles=0
check bad_nrfiles bash -c "! '$SSDBENCH' run -q bad2.fio 2>bad2.err && grep -q 'nrfiles' bad2.err && [ \$(wc -l <bad2.err) -eq 1 ]"
job bad3 rw=write size=1m fallocate=sometimes
check bad_fallocate bash -c "! '$SSDBENCH' run -q bad3.fio 2>bad3.err && grep -q \"fallocate.*'sometimes'\" bad3.err"
job bad4 rw=write size=1m nrfiles=2 file_service_type=normal
check bad_normal_needs_sigma bash -c "! '$SSDBENCH' run -q bad4.fio 2>bad4.err && grep -q 'normal' bad4.err"
job skew rw=randread size=1m nrfiles=8 file_service_type=zipf:1.2 io_size=256k
mkdir -p skew && (cd skew && "$SSDBENCH" run -q --output-format=json ../skew.fio >out.json 2>out.err)
check zipf_runs test "$(total_ios skew/out.json 2>/dev/null)" = 64
