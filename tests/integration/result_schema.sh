#!/bin/bash
# result_schema.sh - the schema table (src/result/result_schema.c) has every
# result key src/ spells: each string key a reader passes to the accessors,
# to cJSON's look-ups or to a private accessor wrapper, and each key a writer
# adds (scripts/result-keys.sh finds them), is the last member of a path in
# the table, and each path given to the typed readers (result_snum,
# result_sstr) is a path of the table; every key of a short run's result is
# in the table too; docs/results-keys.md is what scripts/gen-results-doc.sh
# makes from the table. A key renamed in a renderer, a writer that adds a
# key the table lacks, and a table edited without regenerating the page must
# each fail.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
not() { ! "$@"; }
quiet() { "$@" >/dev/null 2>&1; }

# unknown TABLE.c KEYS.txt: prints "FILE:LINE KEY" for each key of KEYS.txt
# (result-keys.sh output) the table does not have
unknown() {
    python3 - "$1" "$2" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
paths = set(re.findall(r'^\s*KD?\("((?:[^"\\]|\\.)*)"', src, re.M))
leaves = set()
for p in paths:
    tail = p.split('**.', 1)[1] if '**.' in p else p.rsplit('.', 1)[-1]
    leaves.add(tail[:-2] if tail.endswith('[]') else tail)
for line in open(sys.argv[2]):
    kind, where, key, fn = line.split()
    if fn in ('result_snum', 'result_sstr'):
        if key not in paths:
            print(where, key, '(not a path of the table)')
    elif key not in leaves:
        print(where, key)
PY
}

"$ROOT/scripts/result-keys.sh" >"$WORK/keys.txt"
n=$(wc -l <"$WORK/keys.txt")
nr=$(grep -c '^read ' "$WORK/keys.txt")
check keys_found test "$n" -gt 1000 -a "$nr" -gt 500
out=$(unknown "$ROOT/src/result/result_schema.c" "$WORK/keys.txt")
echo "  $n call sites ($nr reads) checked"
check every_key_in_schema test -z "$out"
[ -n "$out" ] && echo "$out" | head -20 | sed 's/^/  not in the schema: /'

# a result's keys, as paths with the table's wildcards
cat >"$WORK/j.fio" <<EOF2
[j]
rw=randrw
bs=4k
size=1m
ioengine=null
filename=$WORK/null.dat
runtime=200ms
time_based=1
EOF2
timeout 60 "$SSDBENCH" run -q --result "$WORK/run.json" "$WORK/j.fio" >/dev/null 2>&1
check run_ran test -s "$WORK/run.json"
out=$(python3 - "$ROOT/src/result/result_schema.c" "$WORK/run.json" <<'PY'
import json, re, sys
paths = set(re.findall(r'^\s*KD?\("((?:[^"\\]|\\.)*)"', open(sys.argv[1]).read(), re.M))
DIRS = ('read', 'write', 'trim', 'sync', 'combined')
missing = set()
def walk(o, path):
    if isinstance(o, dict):
        named = any(not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', k) for k in o) or path + '.*' in paths
        for k, v in o.items():
            p = path + '.*' if named else (path + '.' + k if path else k)
            if p not in paths and not (path.endswith('.*') and path[:-2].rsplit('.', 1)[-1] in ('job', 'global')):
                missing.add(p)
            walk(v, path + '.<dir>' if k in DIRS and isinstance(v, dict) and not named else p)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + '[]')
walk(json.load(open(sys.argv[2])), '')
for p in sorted(missing):
    print(p)
PY
)
check run_keys_in_schema test -z "$out"
[ -n "$out" ] && echo "$out" | head -20 | sed 's/^/  not in the schema: /'

check doc_matches_schema "$ROOT/scripts/gen-results-doc.sh" --check

# the checks themselves: a key renamed in a renderer, a key added by a writer
mkdir -p "$WORK/tree" && cp -r "$ROOT/src" "$WORK/tree/"
sed -i 's/"size_bytes"/"size_bytez"/' "$WORK/tree/src/output/pts_text.c"
sed -i '0,/cJSON_AddNumberToObject(doc, "duration_s"/s//cJSON_AddNumberToObject(doc, "duration_z"/' \
    "$WORK/tree/src/result/result.c"
"$ROOT/scripts/result-keys.sh" "$WORK/tree" >"$WORK/keys-cut.txt"
out=$(unknown "$ROOT/src/result/result_schema.c" "$WORK/keys-cut.txt")
check renamed_read_fails grep -q '^src/output/pts_text.c:[0-9]* size_bytez$' <<<"$out"
check renamed_write_fails grep -q '^src/result/result.c:[0-9]* duration_z$' <<<"$out"
# a table edited without the page made again
sed 's/K("duration_s"/K("duration_z"/' "$ROOT/src/result/result_schema.c" >"$WORK/schema-cut.c"
check cut_table_differs not cmp -s "$ROOT/src/result/result_schema.c" "$WORK/schema-cut.c"
check doc_drift_fails not quiet "$ROOT/scripts/gen-results-doc.sh" --check "$WORK/schema-cut.c" "$ROOT/docs/results-keys.md"
out=$(unknown "$WORK/schema-cut.c" "$WORK/keys.txt")
check removed_key_fails grep -q ' duration_s$' <<<"$out"
exit 0
