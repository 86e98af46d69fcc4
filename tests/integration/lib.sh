# lib.sh - shared helpers for the integration scripts (sourced, not run).
# Each check prints "PASS name", "FAIL name: why" or "SKIP name: why";
# tests/run.sh counts those lines.
SSDBENCH=${SSDBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/ssdbench}
TESTNAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-it.XXXXXX")
LOOPS=()
MOUNTS=()
MOUNTS_EXTRA=()   # mounts a test adds itself, unmounted first

pass() { echo "PASS $TESTNAME:$1"; }
fail() { echo "FAIL $TESTNAME:$1: $2"; }
skip() { echo "SKIP $TESTNAME:$1: $2"; }
# check NAME CONDITION-COMMAND... : pass when the command succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "$*"; fi; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Makes a RAM-backed loop device of SIZE MiB on a private tmpfs; prints its path.
# Usage: dev=$(make_loop 256) || { skip ...; }
make_loop() {
    local mib=$1 dir="$WORK/tmpfs.$RANDOM"
    is_root || return 1
    mkdir -p "$dir" && mount -t tmpfs -o size=$((mib + 16))m tmpfs "$dir" || return 1
    echo "mount $dir" >>"$WORK/.resources"
    truncate -s "${mib}M" "$dir/img" || return 1
    local dev
    dev=$(losetup --find --show --direct-io=on "$dir/img" 2>/dev/null) ||
        dev=$(losetup --find --show "$dir/img") || return 1
    echo "loop $dev" >>"$WORK/.resources"
    echo "$dev"
}

# Remembers a mount point or loop device to undo at exit (works from
# subshells too, unlike the arrays): track mount DIR | track loop DEV
track() { echo "$1 $2" >>"$WORK/.resources"; }

# Reads and writes the kernel completed for a device, counting merged requests
# as the I/Os they were submitted as: (ios + merges) per direction of
# /sys/class/block/<dev>/stat. The block layer may merge adjacent requests
# of one submission batch into one.
disk_ios() {
    local name
    name=$(basename "$(readlink -f "$1")")
    awk '{print $1 + $2, $5 + $6}' "/sys/class/block/$name/stat"
}

# Flush requests the kernel completed for a device (field 16 of
# /sys/class/block/<dev>/stat, kernel 5.5+); prints nothing on older kernels.
disk_flushes() {
    local name
    name=$(basename "$(readlink -f "$1")")
    awk 'NF >= 17 {print $16}' "/sys/class/block/$name/stat"
}

cleanup() {
    local kind what
    for m in "${MOUNTS_EXTRA[@]}"; do umount "$m" 2>/dev/null; done
    for d in "${LOOPS[@]}"; do losetup -d "$d" 2>/dev/null; done
    if [ -f "$WORK/.resources" ]; then
        # undo in reverse order: loop devices before the tmpfs under them
        tac "$WORK/.resources" | while read -r kind what; do
            case $kind in
            loop) losetup -d "$what" 2>/dev/null ;;
            mount) umount "$what" 2>/dev/null || umount -l "$what" 2>/dev/null ;;
            esac
        done
    fi
    for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# wait_for_file PATH [SECONDS]: waits until PATH exists (another process
# marks a state it reached); SECONDS (default 120) only bounds a wait for a
# process that died, so a slow host is never a failure. Returns 1 if it never came.
wait_for_file() {
    local path=$1 n=$((${2:-120} * 20))
    while [ ! -e "$path" ] && [ $n -gt 0 ]; do sleep 0.05; n=$((n - 1)); done
    [ -e "$path" ]
}

# wait_journal_rows JOURNAL [N] [SECONDS]: waits until a run's journal
# (RESULT.partial) holds N (default 1) interval rows: the run measures, its
# signal handlers are in place, and it has done I/O, however slowly a busy
# host started it. SECONDS (default 120) bounds a wait for a run that died.
wait_journal_rows() {
    local j=$1 want=${2:-1} n=$((${3:-120} * 20)) c=0
    while :; do
        c=$(grep -c '^\[' "$j" 2>/dev/null); c=${c:-0}
        [ "$c" -ge "$want" ] && return 0
        [ $n -gt 0 ] || return 1
        sleep 0.05; n=$((n - 1))
    done
}

# json_get FILE PYTHON-EXPRESSION-ON-d : prints the value (python3 is part of the test deps)
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# need_tool TOOL PACKAGE [CHECK]: true when TOOL is on PATH. Otherwise one
# FAIL line (named CHECK, default needs_TOOL) saying which Debian package
# scripts/install-deps.sh --test installs it from, and false: a tool the test
# dependencies install is never a reason to skip.
need_tool() {
    command -v "$1" >/dev/null 2>&1 && return 0
    fail "${3:-needs_$1}" "$1 is missing: the Debian package $2 (scripts/install-deps.sh --test installs it)"
    return 1
}

# fio_side_by_side NAME: for scripts that run the same job under fio and
# under ssdbench invoked as fio. Sets FIO (the real fio), FIO_VERSION (what
# it says, fio-3.33 on Debian 12) and SB (a "fio" link to ssdbench in
# $WORK/bin), makes $WORK/run; without fio it fails NAME and ends the script.
fio_side_by_side() {
    need_tool fio fio "$1" || exit 1
    FIO=$(command -v fio)
    FIO_VERSION=$("$FIO" --version 2>/dev/null)
    mkdir -p "$WORK/bin" "$WORK/run"
    ln -s "$SSDBENCH" "$WORK/bin/fio"
    SB="$WORK/bin/fio"
}
