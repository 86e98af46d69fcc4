#!/bin/bash
# gen-options-doc.sh - writes docs/options.md, every option of every command
# that reads its options from a table in src/cli, as `ssdbench --dump-options
# md` prints it (the man page's part comes from scripts/gen-man.sh). With
# --check it writes nothing and fails, naming the first difference, when the
# page is not what the tables make (tests/integration/docs.sh runs that).
# Usage: gen-options-doc.sh [--check] [SSDBENCH [PAGE.md]] (defaults:
# build/ssdbench and the tree's own page).
cd "$(dirname "$0")/.." || exit 1
check=0
[ "$1" = --check ] && { check=1; shift; }
bin=${1:-build/ssdbench}
page=${2:-docs/options.md}
[ -x "$bin" ] || { echo "gen-options-doc.sh: $bin: not built" >&2; exit 2; }
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
"$bin" --dump-options md >"$tmp" || exit 2
if [ "$check" = 1 ]; then
    cmp -s "$page" "$tmp" && exit 0
    echo "gen-options-doc.sh: $page differs from the option tables (run scripts/gen-options-doc.sh):" >&2
    diff "$page" "$tmp" | head -5 >&2
    exit 1
fi
cp "$tmp" "$page"
