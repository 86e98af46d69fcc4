#!/bin/bash
# layers.sh - every #include in src/ follows the floor plan: a folder includes
# only itself and the folders listed for it below. The same table is in
# docs/design.md ("Floors"); change both together.
#
# Reading the table: data flows downwards in the list of workloads (cli picks a
# workload command from the registry (workload/workload.h, filled in
# cli/workloads.c), the workload builds phases and runs them through the session, the
# runner drives engines, targets and stats, the result model files the
# figures) and renderers read only the results model.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1

declare -A ALLOW=(
    [base]=""
    [stats]="base"
    [target]="base"
    [engine]="base"
    [job]="base stats target engine"
    [jobfile]="base stats target engine job"
    [device]="base"
    [prep]="base target device"
    [runner]="base stats target engine job device"
    [result]="base stats target engine job runner device"
    [workload]="base stats target engine job jobfile runner result"
    [profiles]="base stats target engine job jobfile runner result workload"
    [act]="base stats target engine job jobfile runner result workload"
    [fileio]="base stats target engine job jobfile runner result workload"
    [suite]="base stats target engine job jobfile runner result workload profiles"
    [pts]="base stats target engine job jobfile runner result workload prep"
    [output]="base stats job result"
    [archive]="base result"
    [mpi]="base"
    [cli]="base stats target engine job jobfile runner result workload profiles act fileio suite pts output mpi device archive prep"
)

bad=0
nfiles=0
while IFS= read -r f; do
    nfiles=$((nfiles + 1))
    from=${f#src/}; from=${from%%/*}
    if [ -z "${ALLOW[$from]+set}" ]; then
        fail "floor:$from" "$f is in a folder the floor plan does not know"
        bad=1; continue
    fi
    while IFS= read -r inc; do
        to=${inc%%/*}
        [ "$to" = "$from" ] && continue
        case " ${ALLOW[$from]} " in
            *" $to "*) ;;
            *) fail "include:$f" "$from/ may not include $inc"; bad=1 ;;
        esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src -name '*.[ch]' | sort)

[ "$nfiles" -gt 0 ] || { fail files "no sources found under src/"; exit 1; }
# An include without a folder would escape the check.
if grep -rn --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]*"' src >/dev/null; then
    fail folderless "$(grep -rln --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]*"' src | head -3 | tr '\n' ' ')include a header without its folder"
    bad=1
fi
[ "$bad" -eq 0 ] && pass "floors ($nfiles files)"
