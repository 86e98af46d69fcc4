#!/bin/sh
# Regenerates man/ssdbench.1 from man/ssdbench.1.in: the JOB OPTIONS section
# is the option table as `ssdbench run --help` prints it, and each
# "@OPTIONS CMD@" line the options of that command's table in src/cli as
# `ssdbench --dump-options man CMD` writes them, so the manual and the
# program cannot drift apart (tests/integration/docs.sh checks this).
# usage: scripts/gen-man.sh [BINARY] [OUTPUT]
set -e
cd "$(dirname "$0")/.."
bin=${1:-build/ssdbench}
out=${2:-man/ssdbench.1}
opts=$(mktemp)
trap 'rm -f "$opts"' EXIT
"$bin" run --help | sed -n '/^Job options/,$p' | tail -n +2 | awk '
    /^  [^ ]/ { sub(/^  /, ""); gsub(/\\/, "\\e"); gsub(/^-/, "\\-"); printf ".TP\n.B %s\n", $0; next }
    /^        / { sub(/^ +/, ""); gsub(/\\/, "\\e"); print; next }
' >"$opts"
cmdopts=$(mktemp)
trap 'rm -f "$opts" "$cmdopts"' EXIT
for c in $(sed -n 's/^@OPTIONS \([a-z-]*\)@$/\1/p' man/ssdbench.1.in); do
    "$bin" --dump-options man "$c" >>"$cmdopts"
done
awk -v f="$opts" -v g="$cmdopts" '
    /^@JOB_OPTIONS@$/ { while ((getline l < f) > 0) print l; next }
    /^@OPTIONS [a-z-]*@$/ { c = substr($0, 10, length($0) - 10); on = 0
        while ((getline l < g) > 0) {
            if (l ~ "^\\.\\\\\" BEGIN OPTIONS " c " ") on = 1
            if (on) print l
            if (on && l == ".\\\" END OPTIONS " c) break
        }
        close(g); next }
    { print }' man/ssdbench.1.in >"$out"
