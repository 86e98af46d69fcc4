#!/bin/bash
# cluster.sh - the cluster names and options in the plain build (one rank on
# one host; docs/cluster.md): {rank}, {nranks}, {host}, {localrank} in
# command-line arguments and in job files, --ranks-per-host checked, and a
# plain result without a cluster object. The many-rank runs are mpi.sh.
source "$(dirname "$0")/lib.sh"
host=$(hostname)

"$SSDBENCH" run --name=a --filename="$WORK/a.{rank}.{nranks}.{localrank}.{host}" --size=1m --rw=read --bs=4k \
    -q --result "$WORK/a.json" >/dev/null 2>&1
check argv_names_filled test -f "$WORK/a.0.1.0.$host"
check no_cluster_object test "$(json_get "$WORK/a.json" "'cluster' in d or any('cluster' in p for p in d['phases'])")" = False
check command_line_as_typed grep -q '{rank}' <(json_get "$WORK/a.json" "d['tool']")

cat >"$WORK/job.fio" <<JOB
[j]
filename=$WORK/jf.{rank}-{nhosts}
size=1m
rw=write
bs=4k
write_lat_log=$WORK/lat.{hostindex}
JOB
"$SSDBENCH" run "$WORK/job.fio" -q --result "$WORK/jf.json" >/dev/null 2>&1
check jobfile_names_filled test -f "$WORK/jf.0-1"
check jobfile_log_names_filled test -f "$WORK/lat.0_lat.1.log"
check unknown_braces_kept_in_jobfile test ! -e "$WORK/jf.{rank}-{nhosts}"

"$SSDBENCH" run --name=b --filename="$WORK/b.{x}" --size=1m --rw=read --bs=4k -q >/dev/null 2>&1
check other_braces_kept test -f "$WORK/b.{x}"

out=$("$SSDBENCH" run --name=c --filename="$WORK/c" --size=1m --rw=read --bs=4k --ranks-per-host 2 2>&1); rc=$?
check ranks_per_host_refused_plain test "$rc" -eq 2
check ranks_per_host_message grep -q -- '--ranks-per-host 2: this host runs 1 rank' <<<"$out"
check ranks_per_host_no_io test ! -e "$WORK/c"
"$SSDBENCH" run --name=c --filename="$WORK/c" --size=1m --rw=read --bs=4k --ranks-per-host 1 -q >/dev/null 2>&1
check ranks_per_host_1_plain test $? -eq 0 -a -f "$WORK/c"
out=$("$SSDBENCH" run --name=c --filename="$WORK/c" --size=1m --rw=read --bs=4k --ranks-per-host 0 2>&1); rc=$?
check ranks_per_host_zero_refused test "$rc" -eq 2
