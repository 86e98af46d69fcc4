#!/bin/bash
# bench/mpi.sh - the cost of a cluster run (docs/cluster.md) per I/O: two
# ranks under mpirun (build-mpi/ssdbench, intervals merged over the ranks)
# against two plain processes side by side (build/ssdbench), on the null
# engine at QD1, so what is measured is ssdbench's own CPU per I/O. Never
# part of `make test`.
#
#   bench/mpi.sh                 REPS=3 RUNTIME=5 (s), alternating
#   REPS=5 RUNTIME=10 bench/mpi.sh
#
# Prints per variant the median I/Os per second of each rank and the CPU
# nanoseconds per I/O: "all" is every process's user+system time (getrusage
# of the children, so mpirun's own share is in the MPI figure), "ranks" is
# the ssdbench processes' own phase CPU from the results.
set -u
cd "$(dirname "$0")/.." || exit 1
PLAIN=${SSDBENCH:-$PWD/build/ssdbench}
MPIBIN=${SSDBENCH_MPI:-$PWD/build-mpi/ssdbench}
REPS=${REPS:-3}
RUNTIME=${RUNTIME:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
command -v mpirun >/dev/null || { echo "mpirun is not installed (apt-get install openmpi-bin)"; exit 1; }
[ -x "$PLAIN" ] && [ -x "$MPIBIN" ] || { echo "build both binaries first (make MPI=1)"; exit 1; }

JOB=(run --name=n --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=1 --runtime="$RUNTIME" -q)

cpu_children() { python3 -c 'import resource as r; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime)'; }

# "iops_per_rank ns_all ns_ranks" of one variant
one() { # plain|mpi
    rm -f "$WORK"/r*.json
    if [ "$1" = plain ]; then
        bash -c '"$1" "${@:3}" --filename="$2/p0" --result "$2/r0.json" >/dev/null 2>&1 &
                 "$1" "${@:3}" --filename="$2/p1" --result "$2/r1.json" >/dev/null 2>&1 &
                 wait; python3 -c "import resource as r; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime)"' \
            _ "$PLAIN" "$WORK" "${JOB[@]}" >"$WORK/cpu"
    else
        bash -c 'mpirun --allow-run-as-root --oversubscribe -np 2 "$1" "${@:3}" --filename="$2/m{rank}" \
                     --result "$2/r0.json" >/dev/null 2>&1
                 python3 -c "import resource as r; u=r.getrusage(r.RUSAGE_CHILDREN); print(u.ru_utime+u.ru_stime)"' \
            _ "$MPIBIN" "$WORK" "${JOB[@]}" >"$WORK/cpu"
    fi
    python3 - "$1" "$(cat "$WORK/cpu")" "$WORK" <<'PY'
import json, sys
mode, cpu, w = sys.argv[1], float(sys.argv[2]), sys.argv[3]
if mode == 'plain':
    docs = [json.load(open('%s/r%d.json' % (w, i))) for i in (0, 1)]
    ios = sum(d['phases'][0]['results'][0]['read']['ios'] for d in docs)
    secs = max(d['phases'][0]['elapsed_s'] for d in docs)
    own = sum(d['phases'][0]['cpu']['user_s'] + d['phases'][0]['cpu']['sys_s'] for d in docs)
    ranks = 2
else:
    d = json.load(open('%s/r0.json' % w))
    ph = d['phases'][0]
    ios = ph['results'][0]['read']['ios']
    secs = ph['elapsed_s']
    ranks = len(ph['cluster']['ranks'])
    # rank 0's own phase CPU, times the ranks (the others' are alike)
    own = (ph['cpu']['user_s'] + ph['cpu']['sys_s']) * ranks
print('%.0f %.1f %.1f' % (ios / secs / ranks, cpu * 1e9 / ios, own * 1e9 / ios))
PY
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: >"$WORK/plain"; : >"$WORK/mpi"
for _ in $(seq "$REPS"); do
    one plain >>"$WORK/plain"
    one mpi >>"$WORK/mpi"
done
printf '%-30s %14s %14s %14s\n' "null engine, QD1, 2 x ${RUNTIME}s" "IOPS/rank" "ns CPU/IO all" "ns CPU/IO ranks"
for v in plain mpi; do
    printf '%-30s %14s %14s %14s\n' "$([ $v = plain ] && echo '2 plain processes' || echo 'mpirun -np 2 (merged)')" \
        "$(cut -d' ' -f1 "$WORK/$v" | median)" "$(cut -d' ' -f2 "$WORK/$v" | median)" "$(cut -d' ' -f3 "$WORK/$v" | median)"
done
echo "(medians of $REPS alternating runs; 'all' includes mpirun's own CPU)"
