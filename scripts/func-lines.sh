#!/bin/sh
# func-lines.sh [FILE|DIR...] - lines per function of C sources (default
# src/): "lines file:line name", longest first. A function is a definition
# whose body opens with "{" and closes with "}" in the first column (the
# project's style); its lines run from the line of its name to the "}".
[ $# -eq 0 ] && set -- src
find "$@" -name '*.c' | sort | xargs awk '
FNR == 1 { name = ""; start = 0; inbody = 0 }
!inbody && /^[A-Za-z_][^;]*\(/ && !/^(typedef|struct [a-z_]+ \{)/ {
    n = $0; sub(/\(.*/, "", n); k = split(n, parts, /[ *]+/); name = parts[k]; start = FNR
}
!inbody && /^\{/ && name != "" { inbody = 1; next }
inbody && /^\}/ { printf "%d %s:%d %s\n", FNR - start + 1, FILENAME, start, name; inbody = 0; name = "" }
' | sort -rn
