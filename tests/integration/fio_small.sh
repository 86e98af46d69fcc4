#!/bin/bash
# fio_small.sh - fio's small local engines and output details against fio
# 3.33 itself, ssdbench run as `fio` (a symlink): the same job, each in a
# directory of its own, must give the same I/O counts (JSON total_ios per
# job and direction), the same files (names; sizes and allocated blocks for
# falloc and ftruncate) and, for the file-operation engines, the same
# number of files created, looked up (clat samples) and deleted.
# Covered: filecreate, filestat (stat_type), filedelete and the guard on
# what it deletes, a filecreate of 31250 files (ssdbench alone: fio needs
# minutes for it), falloc (reads, writes, trims), ftruncate, cpuio (time
# bound: structure only), rw=read:-8k (the offsets of fio's write_iolog),
# exit_what (which jobs finish their I/O), exec (its output and its end),
# --terse-version 2..5 (field counts), create_serialize (files, counts), "Starting N threads / processes",
# and fio's examples for these parse.
source "$(dirname "$0")/lib.sh"

fio_side_by_side fio_small
HAVE_FIO=0
grep -q '^fio-3' <<<"$FIO_VERSION" && HAVE_FIO=1
# the file-heavy jobs run on tmpfs when there is one (as fio's examples
# suggest for these engines): thousands of small files on a busy disk take
# seconds, for fio as for ssdbench
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    SHM=$(mktemp -d /dev/shm/ssdbench-small.XXXXXX) && trap 'rm -rf "$SHM"; cleanup' EXIT
    ln -s "$SHM" "$WORK/shm"
    cd "$SHM" || exit 1
else
    cd "$WORK" || exit 1
fi
SBFIO=$SB
EX=${FIO_SRC:-/tmp/fio-src}/examples

# counts FILE.json: "job dir total_ios clat_N" lines
counts() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d['jobs']:
    for k in ('read', 'write', 'trim'):
        x = j[k]
        if x['total_ios'] or x['clat_ns']['N']:
            print(j['jobname'], k, x['total_ios'], x['clat_ns']['N'], j['error'])
PY
}

# run NAME: the job file NAME.fio by fio (fio/) and ssdbench (sb/); JSON in
# NAME.fio.json / NAME.sb.json
run_both() {
    local n=$1
    rm -rf "$n"
    mkdir -p "$n/fio" "$n/sb"
    if [ $HAVE_FIO = 1 ]; then
        (cd "$n/fio" && timeout 30 fio --output-format=json "../../$n.fio" >"../../$n.fio.json" 2>"../../$n.fio.err")
    fi
    (cd "$n/sb" && timeout 30 "$SBFIO" --output-format=json "../../$n.fio" >"../../$n.sb.json" 2>"../../$n.sb.err")
}

# same_counts NAME: both ran and their counts agree (and are not empty)
same_counts() {
    local n=$1
    if [ $HAVE_FIO = 0 ]; then
        skip "$n" "the fio installed is not fio 3"
        return
    fi
    local a b
    a=$(counts "$n.fio.json" 2>&1)
    b=$(counts "$n.sb.json" 2>&1)
    if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "$n"; else fail "$n" "fio: $a / ssdbench: $b ($(head -c 300 "$n.sb.err"))"; fi
}

nfiles() { find "$1" -type f | wc -l; }

# --- filecreate: two jobs of 100 files, one I/O and one open each ---
cat >fc.fio <<'EOF'
[global]
create_on_open=1
nrfiles=100
ioengine=filecreate
fallocate=none
filesize=4k
openfiles=1
[t0]
[t1]
EOF
run_both fc
same_counts fc
if [ $HAVE_FIO = 1 ]; then
    check fc_files [ "$(nfiles fc/sb)" -eq 200 -a "$(nfiles fc/fio)" -eq 200 ]
    check fc_names [ "$(cd fc/sb && ls | sort | md5sum)" = "$(cd fc/fio && ls | sort | md5sum)" ]
fi

# --- filestat (lstat): 100 files per job laid out, each looked up once ---
cat >fs.fio <<'EOF'
[global]
ioengine=filestat
stat_type=lstat
filesize=4k
nrfiles=100
thread
[t0]
[t1]
EOF
run_both fs
same_counts fs
[ $HAVE_FIO = 1 ] && check fs_files [ "$(nfiles fs/sb)" -eq "$(nfiles fs/fio)" -a "$(nfiles fs/sb)" -eq 200 ]

# --- filedelete: the files it lays out are all gone after the run ---
cat >fd.fio <<'EOF'
[global]
ioengine=filedelete
filesize=4k
nrfiles=100
unlink=0
[t0]
[t1]
EOF
run_both fd
same_counts fd
check fd_all_deleted [ "$(nfiles fd/sb)" -eq 0 ]

# --- filedelete and the guard: a user's file is not deleted without consent ---
mkdir -p guard
printf 'keep me\n' >guard/g.0.1
sum0=$(sha256sum <guard/g.0.1)
printf '[g]\nioengine=filedelete\nfilesize=4k\nnrfiles=3\n' >g.fio
(cd guard && timeout 30 "$SBFIO" ../g.fio >../g.out 2>../g.err)
rc=$?
check fd_guard_refuses [ $rc -ne 0 -a "$(sha256sum <guard/g.0.1)" = "$sum0" ]
check fd_guard_names_consent grep -q 'SSDBENCH_DESTROY=g.0.1' g.err
(cd guard && SSDBENCH_DESTROY=g.0.1 timeout 30 "$SBFIO" --output-format=json ../g.fio >../g.json 2>../g.err2)
check fd_guard_consent [ $? -eq 0 -a ! -e guard/g.0.1 -a "$(counts g.json)" = "g read 3 3 0" ]

# --- filecreate in the tens of thousands (fio's example: 31250 per job) ---
printf '[big]\ncreate_on_open=1\nnrfiles=31250\nioengine=filecreate\nfallocate=none\nfilesize=4k\nopenfiles=1\n' >big.fio
mkdir big
(cd big && timeout 60 "$SBFIO" --output-format=json ../big.fio >../big.json 2>../big.err)
check filecreate_31250 [ $? -eq 0 -a "$(nfiles big)" -eq 31250 -a "$(counts big.json)" = "big read 31250 31250 0" ]
rm -rf big

# --- falloc (writes extend, reads keep the size, trims punch) and ftruncate ---
cat >sm.fio <<'EOF'
[fa]
ioengine=falloc
filename=ff
size=1m
bs=4k
rw=randwrite
[fr]
stonewall
ioengine=falloc
filename=ff
size=1m
bs=8k
rw=read
[tr]
stonewall
ioengine=ftruncate
filename=tt
size=64k
bs=4k
rw=write
[pt]
stonewall
ioengine=falloc
filename=pp
size=256k
bs=4k
rw=trim
EOF
run_both sm
same_counts sm
if [ $HAVE_FIO = 1 ]; then
    # sizes and allocated blocks (ssdbench's mark may take a block: removed first)
    listing() { (cd "$1" && for f in ff pp tt; do setfattr -x user.ssdbench $f 2>/dev/null; stat -c '%n %s %b' $f; done); }
    a=$(listing sm/fio); b=$(listing sm/sb)
    if [ "$a" = "$b" ]; then pass sm_files; else fail sm_files "fio: $a / ssdbench: $b"; fi
fi

# --- cpuio: time bound (its count depends on the host): no error, I/Os done, no bytes read from a file ---
(timeout 20 "$SBFIO" --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=10000 --cpumode=noop --runtime=300ms --time_based \
    --output-format=json >cpu.json 2>cpu.err)
check cpuio_runs [ $? -eq 0 -a "$(json_get cpu.json "d['jobs'][0]['read']['total_ios'] > 0 and d['jobs'][0]['error'] == 0")" = True ]
check cpuio_needs_load bash -c "! timeout 10 '$SBFIO' --name=c --ioengine=cpuio --runtime=1 >/dev/null 2>cpu2.err && grep -q cpuload cpu2.err"

# --- cpuio and exec move no bytes (fio's FIO_NOIO): the I/Os are counted,
# bytes, bandwidth, IOPS and runtime are 0 as in fio's JSON, and the text has
# no job line "(g=0): rw=..." and no READ line in the group (the shape of
# fio's own run of the same job; the counts depend on the host)
noio_shape() {
    python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
r = d["jobs"][0]["read"]
print(r["total_ios"] > 0, r["io_bytes"], r["io_kbytes"], r["bw"], r["iops"], r["runtime"], r["bw_samples"],
      r["clat_ns"]["N"] == r["total_ios"], d["jobs"][0]["error"])
PY
}
noio_text() {
    grep -cE '\(g=[0-9]+\): rw=|^ +READ:|^  read:' "$1"
}
if [ $HAVE_FIO = 1 ]; then
    for e in "cpuio --cpuload=50 --cpuchunks=10000" "exec --program=/bin/true --grace_time=0"; do
        n=noio_${e%% *}
        rm -rf "$n" && mkdir -p "$n/fio" "$n/sb"
        # shellcheck disable=SC2086
        (cd "$n/fio" && timeout 20 fio --name=c --ioengine=$e --runtime=300ms --output-format=json,normal \
            >../fio.out 2>/dev/null)
        # shellcheck disable=SC2086
        (cd "$n/sb" && timeout 20 "$SBFIO" --name=c --ioengine=$e --runtime=300ms --output-format=json,normal \
            >../sb.out 2>/dev/null)
        sed -n '/^{/,/^}/p' "$n/fio.out" >"$n/fio.json"
        sed -n '/^{/,/^}/p' "$n/sb.out" >"$n/sb.json"
        a="$(noio_shape "$n/fio.json" 2>&1) text=$(noio_text "$n/fio.out")"
        b="$(noio_shape "$n/sb.json" 2>&1) text=$(noio_text "$n/sb.out")"
        if [ "$a" = "True 0 0 0 0.0 0 0 True 0 text=0" ] && [ "$a" = "$b" ]; then pass "$n"; else fail "$n" "fio: $a / ssdbench: $b"; fi
    done
fi

# --- rw=read:-8k: fio's backwards offsets, I/O for I/O ---
printf '[bk]\nbs=4k\nrw=read:-8k\nfilename=f\nsize=64k\nwrite_iolog=log\n' >bk.fio
run_both bk
if [ $HAVE_FIO = 1 ]; then
    a=$(awk '$3 == "read" {print $4}' bk/fio/log | tr '\n' ' ')
    b=$(awk '$3 == "read" {print $4}' bk/sb/log | tr '\n' ' ')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then pass backwards_offsets; else fail backwards_offsets "fio: $a / ssdbench: $b"; fi
else
    skip backwards_offsets "the fio installed is not fio 3"
fi

# --- terse versions and the Starting line, against fio on the same null job ---
if [ $HAVE_FIO = 1 ]; then
    for v in 2 3 4 5; do
        a=$(timeout 20 fio --name=t --ioengine=null --size=1m --rw=randrw --minimal --terse-version=$v | awk -F';' '{print NF, $1}')
        b=$(timeout 20 "$SBFIO" --name=t --ioengine=null --size=1m --rw=randrw --minimal --terse-version=$v | awk -F';' '{print NF, $1}')
        if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "terse_v$v"; else fail "terse_v$v" "fio: $a / ssdbench: $b"; fi
    done
    for args in "--name=a --ioengine=null --size=1m" \
        "--name=a --ioengine=null --size=1m --name=b --ioengine=null --size=1m --thread --numjobs=2"; do
        a=$(timeout 20 fio $args | grep '^Starting')
        b=$(timeout 20 "$SBFIO" $args | grep '^Starting')
        if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "starting:$(echo $args | wc -w)"; else fail "starting" "fio: $a / ssdbench: $b"; fi
    done
else
    skip terse_versions "the fio installed is not fio 3"
fi

# --- exit_what: stonewall stops the other groups of the phase, all also the
# later phases (fio reports a job that never ran with 0 I/Os; ssdbench not at all) ---
cat >ew.fio <<'EOF'
[global]
filename=ew
filesize=16m
bs=4k
exitall=1
[slow1]
rw=read
new_group=1
thinktime=2000
number_ios=20
exit_what=stonewall
[fast1]
new_group=1
rw=randread
rate_iops=100
[slow2]
stonewall
new_group=1
rw=read
thinktime=2000
number_ios=20
exit_what=all
[fast2]
new_group=1
rw=randread
rate_iops=100
[never]
stonewall
rw=read
size=1m
EOF
run_both ew
# slow jobs do all of their 20 I/Os, fast ones are stopped far before their
# 4096 (16 MiB of 4 KiB), the last phase does none
ew_shape() {
    python3 - "$1" <<'PY'
import json, sys
d = {j['jobname']: j['read']['total_ios'] for j in json.load(open(sys.argv[1]))['jobs']}
print(d.get('slow1'), d.get('slow2'), 0 < d.get('fast1', 0) < 4096, 0 < d.get('fast2', 0) < 4096, d.get('never', 0))
PY
}
b=$(ew_shape ew.sb.json 2>&1)
check exit_what_sb [ "$b" = "20 20 True True 0" ]
if [ $HAVE_FIO = 1 ]; then
    a=$(ew_shape ew.fio.json 2>&1)
    check exit_what_as_fio [ "$a" = "$b" ]
fi

# --- exec (program, arguments with %n and %r, grace_time, std_redirect): the program runs for the runtime, its output in NAME.stdout
# (fio writes "hello ex 1" there for this job too), SIGTERM / SIGKILL at
# the end; an existing NAME.stdout that is not ssdbench's is refused ---
printf '[ex]\nioengine=exec\nprogram=/bin/echo\narguments=hello %%n %%r\nruntime=1\ngrace_time=0\n[sl]\nstonewall\nioengine=exec\nprogram=sleep\narguments=31.25\nruntime=300ms\ngrace_time=0\nstd_redirect=0\n' >ex.fio
mkdir ex
(cd ex && timeout 20 "$SBFIO" --output-format=json ../ex.fio >../ex.json 2>../ex.err)
check exec_runs [ $? -eq 0 -a "$(cat ex/ex.stdout 2>&1)" = "hello ex 1" -a ! -s ex/ex.stderr ]
check exec_program_stopped bash -c "! pgrep -f '^sleep 31[.]25$' >/dev/null"
mkdir exg && printf 'user data\n' >exg/ex.stdout
(cd exg && timeout 20 "$SBFIO" ../ex.fio >../exg.out 2>../exg.err)
check exec_guard [ $? -ne 0 -a "$(cat exg/ex.stdout)" = "user data" ]
# a link planted at NAME.stdout is refused even with consent to its name
# (a name ssdbench makes: never written through a link), the file behind it kept
mkdir exl && printf 'user data\n' >exl/victim && ln -s victim exl/ex.stdout
(cd exl && SSDBENCH_DESTROY=ex.stdout timeout 20 "$SBFIO" ../ex.fio >../exl.out 2>../exl.err)
check exec_link_refused [ $? -ne 0 -a "$(cat exl/victim)" = "user data" -a -L exl/ex.stdout ]

# --- create_serialize: 0 and 1 give the same files and I/O as fio's. A
# write job fills a file, a stonewalled job with create_serialize=0 reads it
# back verified (fio's surface-scan.fio, sized), and two clones with
# create_serialize=1 lay out their own files (fio's verify state files
# aside) ---
cat >cs.fio <<'EOF'
[global]
bs=64k
ioengine=psync
verify=meta
verify_interval=512
[w]
filename=cs.dat
rw=write
size=1m
do_verify=0
[r]
stonewall
create_serialize=0
filename=cs.dat
rw=read
do_verify=1
[c]
stonewall
create_serialize=1
numjobs=2
rw=write
size=256k
EOF
run_both cs
same_counts cs
csfiles() { (cd "$1" && find . -type f ! -name '*-verify.state' -printf '%P %s\n' | sort); }
if [ $HAVE_FIO = 1 ]; then
    check "cs_files ($(csfiles cs/sb | tr '\n' ' '))" [ "$(csfiles cs/sb)" = "$(csfiles cs/fio)" -a "$(csfiles cs/sb | wc -l)" -eq 3 ]
fi
printf '[z]\nzonemode=zbd\ncreate_serialize=0\nfilename=z.dat\nsize=1m\n' >csz.fio
# refused as fio refuses it when run (fio's --parse-only does not check it)
out=$(timeout 10 "$SBFIO" csz.fio 2>&1)
rc=$?
check "cs_zbd_refused ($out)" [ $rc -ne 0 -a "$(printf '%s\n' "$out" | wc -l)" -eq 1 -a -n "$(printf '%s' "$out" | grep -F 'create_serialize=0 are not compatible')" ]
if [ $HAVE_FIO = 1 ]; then
    out=$(timeout 10 fio csz.fio 2>&1)
    check "cs_zbd_refused_by_fio ($out)" [ $? -ne 0 -a -n "$(printf '%s' "$out" | grep -F 'create_serialize=0 are not compatible')" ]
fi

# --- e4defrag: each write's blocks swapped with a donor file's
# (EXT4_IOC_MOVE_EXT), on ext4 made here on a loop device over a tmpfs
# file: the counts and the donor's size as fio's; reads fail with EINVAL;
# no filesize (nothing to allocate the donor over) is refused as fio
# refuses it; a donor that is a symbolic link is never written through ---
e4job() { # NAME EXTRA-LINES...: a job file NAME.fio
    local n=$1
    shift
    printf '%s\n' '[x]' ioengine=e4defrag filename=f donorname=d bs=64k "$@" >"$n.fio"
}
e4dev=""
if ! is_root || ! command -v mkfs.ext4 >/dev/null; then
    skip e4defrag "needs root and mkfs.ext4"
elif ! e4dev=$(make_loop 64); then
    skip e4defrag "cannot create a loop device"
elif ! mkfs.ext4 -q -F "$e4dev" >/dev/null 2>&1 || ! mkdir -p e4 || ! mount "$e4dev" e4; then
    fail e4defrag "cannot make and mount ext4 on $e4dev"
else
    track mount "$PWD/e4"
    (
        cd e4 || exit 1
        e4job e4w rw=write filesize=1m
        e4job e4inplace rw=write size=1m inplace=1
        e4job e4rand rw=randwrite bs=4k offset=256k filesize=1m
        for n in e4w e4inplace e4rand; do
            run_both $n
            same_counts $n
            [ $HAVE_FIO = 1 ] && check "${n}_donor ($(stat -c %s $n/sb/d) bytes)" [ "$(stat -c %s $n/sb/d)" = "$(stat -c %s $n/fio/d)" ]
        done
        e4job e4read rw=read filesize=1m
        run_both e4read
        err() { python3 -c 'import json,sys; t=open(sys.argv[1]).read(); print(json.loads(t[t.index("{"):])["jobs"][0]["error"])' "$1" 2>&1; }
        check "e4read_einval ($(err e4read.sb.json))" [ "$(err e4read.sb.json)" = 22 ]
        [ $HAVE_FIO = 1 ] && check "e4read_einval_fio ($(err e4read.fio.json))" [ "$(err e4read.fio.json)" = 22 ]
        e4job e4nosize rw=write size=1m
        run_both e4nosize
        check "e4nosize_refused ($(cat e4nosize.sb.err))" [ "$(wc -l <e4nosize.sb.err)" -eq 1 \
            -a -n "$(grep -F 'cannot allocate the donor file' e4nosize.sb.err)" -a ! -s e4nosize.sb.json ]
        [ $HAVE_FIO = 1 ] && check "e4nosize_fio_fails" grep -q 'e4defrag init failed' e4nosize.fio.err
        mkdir -p e4link/sb && echo keep >e4link/kept && ln -s ../kept e4link/sb/d
        e4job e4link rw=write filesize=64k
        (cd e4link/sb && timeout 30 "$SBFIO" --output-format=json ../../e4link.fio >../../e4link.sb.json 2>../../e4link.sb.err)
        rc=$?
        check "e4link_refused ($(cat e4link.sb.err))" [ $rc -ne 0 -a "$(wc -l <e4link.sb.err)" -eq 1 -a "$(cat e4link/kept)" = keep ]
    )
fi

# --- fio's examples for these engines and options parse ---
if [ -d "$EX" ]; then
    for f in cpuio falloc ftruncate filecreate-ioengine filestat-ioengine filedelete-ioengine backwards-read exitwhat exec surface-scan e4defrag e4defrag2; do
        check "example_$f" timeout 10 "$SBFIO" --parse-only "$EX/$f.fio"
    done
else
    skip examples "fio's source is not in $EX"
fi

cleanup
