#!/bin/sh
# Regenerates man/ssdbench.1 from man/ssdbench.1.in: the JOB OPTIONS section
# is the option table as `ssdbench run --help` prints it, so the manual and
# the program cannot drift apart (tests/integration/docs.sh checks this).
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
awk -v f="$opts" '/^@JOB_OPTIONS@$/ { while ((getline l < f) > 0) print l; next } { print }' \
    man/ssdbench.1.in >"$out"
