# helpers.sh - the helpers of the device lab's checks (sourced by
# tests/lab/checks.sh inside the guest). Under emulation every process start
# costs tens of milliseconds and python3's more than half a second, so:
# one python3 for the whole run (a co-process answering one request per
# line, which also keeps the results read), the SMART log read as text
# (nvme-cli's JSON output starts four times slower), no forks where a bash
# builtin does.
#   flatten FILE...   reads each JSON result (again: after it was rewritten)
#                     and writes FILE.kv ("dotted.path=value" per leaf)
#   jv FILE KEY       one value of a result (dotted path:
#                     phases.0.jobs.0.verify.bad_blocks); null when absent; a
#                     file not read yet is read first
#   pattern_sum HEX N the sha256 of N bytes of HEX
#   pattern_file HEX N PATH   N bytes of HEX into PATH
#   repeats_block FILE BLOCK SPAN   0 when each SPAN bytes of FILE are its first
#                     BLOCK bytes repeated, the first block is not zeros and
#                     the first two spans differ
#   smart_now         SMART_R, SMART_W: the NVMe SMART log's host read and
#                     write commands; smart FIELD prints one field (the
#                     temperature in Kelvin)
#   mib_sum DEV, sum_of DEV SECTOR COUNT   sha256 of device bytes (O_DIRECT)
#   section NAME      a line with the guest's uptime, so the slow parts show
#   trace_start EVENT FILTER   the kernel's trace of one driver event
#                     (group/name, with a tracefs filter) from now on;
#                     trace_stop FILE writes its lines to FILE and fails
#                     when the buffer lost any (so an order is never judged
#                     on a partial record)
#   in_order FILE RE...   0 when lines of FILE match each RE in turn (the
#                     first RE on some line, the second on a later one...)
T=${T:-timeout 60}
coproc PYSRV { exec python3 -S -u -c '
import hashlib, json, sys
def walk(p, v, out):
    if isinstance(v, dict):
        for k, x in v.items(): walk(p + [k], x, out)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(p + [str(i)], x, out)
    else:
        out.write(".".join(p) + "=" + ("null" if v is None else str(v).replace("\n", " ")) + "\n")
class Lines:
    def __init__(self): self.d = {}
    def write(self, s):
        k, _, v = s.rstrip("\n").partition("=")
        self.d.setdefault(k, v)
files = {}
def load(f):
    lines = Lines()
    try: walk([], json.load(open(f)), lines)
    except Exception as e: lines.d["error"] = str(e).replace("\n", " ")
    files[f] = lines.d
    with open(f + ".kv", "w") as out:
        for k, v in lines.d.items(): out.write(k + "=" + v + "\n")
for line in sys.stdin:
    a = line.rstrip("\n").split(" ")
    try:
        if a[0] == "flatten":
            for f in a[1:]: load(f)
            r = "ok"
        elif a[0] == "get":
            if a[1] not in files: load(a[1])
            r = files[a[1]].get(" ".join(a[2:]), "null")
        elif a[0] == "pattern":
            r = hashlib.sha256(bytes([int(a[1], 16)]) * int(a[2])).hexdigest()
        elif a[0] == "patfile":
            open(a[3], "wb").write(bytes([int(a[1], 16)]) * int(a[2]))
            r = "ok"
        elif a[0] == "repeats":
            d = open(a[1], "rb").read(); b = int(a[2]); n = int(a[3])
            ok = len(d) >= 2 * n and all(d[i:i + n] == d[i:i + b] * (n // b) for i in range(0, len(d), n))
            r = "0" if ok and d[:b] != bytes(b) and d[:b] != d[n:n + b] else "1"
        else:
            r = "error: unknown request " + a[0]
    except Exception as e:
        r = "error: %s" % str(e).replace("\n", " ")
    print(r)
'; }
# py REQUEST...: one request to the co-process, its answer in PY
py() {
    printf '%s\n' "$*" >&"${PYSRV[1]}"
    IFS= read -r -t 60 PY <&"${PYSRV[0]}" || PY="error: no answer"
}
flatten() { py flatten "$@"; }
jv() { py get "$1" "$2"; printf '%s\n' "$PY"; }
pattern_sum() { py pattern "$1" "$2"; echo "$PY"; }
pattern_file() { py patfile "$1" "$2" "$3"; }
repeats_block() { py repeats "$@"; return "$PY"; }
# the SMART log as text: "field : value" lines
smart_read() {
    local k v
    SMART=()
    while IFS=: read -r k v; do
        k=${k//[[:space:]]/}
        [ -n "$k" ] && SMART[$k]=$v
    done < <($T nvme smart-log "$LAB_NVME_CTRL")
}
declare -gA SMART=()
smart_now() {
    smart_read
    SMART_R=${SMART[host_read_commands]//[^0-9]/}
    SMART_W=${SMART[host_write_commands]//[^0-9]/}
}
smart() {
    smart_read
    if [ "$1" = temperature ]; then
        [[ ${SMART[temperature]} =~ \(([0-9]+)\ Kelvin\) ]] && echo "${BASH_REMATCH[1]}"
    else
        echo "${SMART[$1]//[^0-9]/}"
    fi
}
sha_of_stdin() { local s _; read -r s _ < <(sha256sum); echo "$s"; }
mib_sum() { head -c 1048576 "$1" | sha_of_stdin; }
sum_of() { dd if="$1" bs=512 skip="$2" count="$3" iflag=direct status=none | sha_of_stdin; }
section() { local up _; read -r up _ </proc/uptime; echo "# $1 at $up s"; }
TRACEFS=/sys/kernel/tracing
trace_start() {
    mountpoint -q $TRACEFS || mount -t tracefs tracefs $TRACEFS || return 1
    echo 0 >$TRACEFS/tracing_on
    : >$TRACEFS/set_event
    echo 16384 >$TRACEFS/buffer_size_kb
    : >$TRACEFS/trace
    echo "$2" >"$TRACEFS/events/$1/filter" || return 1
    echo 1 >"$TRACEFS/events/$1/enable" || return 1
    echo 1 >$TRACEFS/tracing_on
}
trace_stop() {
    echo 0 >$TRACEFS/tracing_on
    local head in written
    head=$(grep -m1 '^# entries-in-buffer/entries-written:' $TRACEFS/trace)
    grep -v '^#' $TRACEFS/trace >"$1"
    : >$TRACEFS/set_event
    [[ $head =~ entries-written:\ ([0-9]+)/([0-9]+) ]] || return 1
    in=${BASH_REMATCH[1]} written=${BASH_REMATCH[2]}
    [ "$in" -gt 0 ] && [ "$in" -eq "$written" ]
}
in_order() {
    local f=$1 from=1 n; shift
    for re in "$@"; do
        n=$(tail -n "+$from" "$f" | grep -m1 -n -E -e "$re" | cut -d: -f1)
        [ -n "$n" ] || return 1
        from=$((from + n))
    done
}
