#!/bin/bash
# gen-results-doc.sh - writes docs/results-keys.md, the index of every key of
# a result file, from the schema table src/result/result_schema.c (one
# K(path, type, unit, meaning) or KD(...) line per key). With --check it
# writes nothing and fails, naming the first difference, when the page is not
# what the table makes (tests/integration/result_schema.sh runs that).
# Usage: gen-results-doc.sh [--check] [TABLE.c [PAGE.md]] (defaults: the
# tree's own).
cd "$(dirname "$0")/.." || exit 1
check=0
[ "$1" = --check ] && { check=1; shift; }
table=${1:-src/result/result_schema.c}
out=${2:-docs/results-keys.md}
gen() {
    python3 - "$table" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
S = r'"((?:[^"\\]|\\.)*)"'
rows = re.findall(r'^\s*KD?\(' + S + r',\s*RK_([A-Z]+),\s*' + S + r',\s*' + S, src, re.M)
if not rows:
    sys.exit("gen-results-doc.sh: no K(...) lines in " + sys.argv[1])
TYPE = {'NUM': 'number', 'STR': 'string', 'BOOL': 'bool', 'OBJ': 'object', 'ARR': 'array', 'ANY': 'any'}
def text(s):
    return s.replace('\\"', '"').replace('\\\\', '\\').replace('|', '\\|')
print("# Result keys (generated)\n")
print("<!-- Made by scripts/gen-results-doc.sh from src/result/result_schema.c; do not edit. -->\n")
print("Every key a result file (`ssdbench-result/1`) may hold, as the schema table")
print("in `src/result/result_schema.c` lists it; docs/results.md tells what the")
print("objects are for. A path joins members with `.`; `[]` follows an array's name")
print("(each element); `*` is a member whose name is data (a job name, a")
print("percentile, an option as written); `<dir>` is each direction object of a")
print("scope or job (`read`, `write`, `trim`, `sync`, `combined`); `**` is \"somewhere")
print("below\" (docs/results.md tells where). Type `any`:")
print("more than one JSON type (a number or null, ...). Units as in docs/results.md.\n")
print("%d keys.\n" % len(rows))
print("| path | type | unit | meaning |")
print("|---|---|---|---|")
for path, t, unit, meaning in rows:
    print("| `%s` | %s | %s | %s |" % (text(path), TYPE[t], text(unit), text(meaning)))
PY
}
if [ "$check" = 1 ]; then
    diff <(gen) "$out" >/dev/null || { echo "$out differs from src/result/result_schema.c (run scripts/gen-results-doc.sh)"; diff <(gen) "$out" | head -5; exit 1; }
    exit 0
fi
gen >"$out.tmp" && mv "$out.tmp" "$out"
