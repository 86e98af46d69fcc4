#!/bin/bash
# Malformed result files through show, report and compare: each is refused
# with exit status 2 and one line on stderr naming the file, never a signal,
# never a hang (timeout 10 s). Odd but well-formed files (huge numbers, absurd
# histograms, invalid UTF-8) render without a signal or a hang. And every
# JSON file ssdbench writes is strict UTF-8 even when the target path holds
# bytes that are not.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
M="$WORK/m"
mkdir -p "$M"

# --- a valid result to derive the odd ones from
"$SSDBENCH" run --engine=null --name=a --size=16m --rw=randrw --bs=4k --io_size=64k -q \
    --result "$WORK/good.json" >/dev/null 2>&1
check make_good test -s "$WORK/good.json"

python3 - "$WORK/good.json" "$M" <<'PY'
import json, sys, os
good = json.load(open(sys.argv[1]))
out = sys.argv[2]
def put(name, text):
    open(os.path.join(out, name), "wb").write(text if isinstance(text, bytes) else text.encode())
def mod(name, fn):
    d = json.loads(json.dumps(good)); fn(d); put(name, json.dumps(d))
H = '{"schema":"ssdbench-result/1",'
# refused: exit 2, one line
put("bad_empty.json", "")
put("bad_truncated.json", json.dumps(good)[:500])
put("bad_array.json", "[1,2,3]")
put("bad_noschema.json", '{"phases":[]}')
put("bad_schema_num.json", '{"schema":5,"phases":[]}')
put("bad_schema_other.json", '{"schema":"other/9","phases":[]}')
put("bad_phases_obj.json", H + '"phases":{}}')
put("bad_phase_num.json", H + '"phases":[1]}')
put("bad_deep.json", H + '"phases":[],"x":' + "[" * 5000 + "]" * 5000 + "}")
put("bad_inf.json", H + '"phases":[{"name":"p","elapsed_s":1e999}]}')
put("bad_nan.json", H + '"phases":[NaN]}')
put("bad_binary.json", bytes(range(256)))
mod("bad_target_id.json", lambda d: d["phases"][0]["jobs"][0].__setitem__("targets", [5]))
mod("bad_tid_obj.json", lambda d: d["targets"][0].__setitem__("id", {"a": 1}))
mod("bad_results_str.json", lambda d: d["phases"][0].__setitem__("results", "all"))
mod("bad_ios_neg.json", lambda d: d["phases"][0]["results"][0]["read"].__setitem__("ios", -1))
mod("bad_ios_str.json", lambda d: d["phases"][0]["results"][0]["read"].__setitem__("ios", "many"))
mod("bad_fields.json", lambda d: d["phases"][0]["intervals"].__setitem__("fields", [1, 2]))
mod("bad_rows.json", lambda d: d["phases"][0]["intervals"].__setitem__("rows", [1, 2]))
mod("bad_scope.json", lambda d: d["phases"][0]["results"][0].__setitem__("scope", 7))
# odd but well-formed: must render, no signal, no hang
def huge(d):
    for r in d["phases"][0]["results"]:
        for k in ("read", "write", "combined"):
            l = r.get(k, {}).get("latency_ns")
            if isinstance(l, dict):
                for f in ("min", "max", "mean", "stddev"): l[f] = 1e308
                l["percentiles"] = {p: 1e308 for p in l.get("percentiles", {})}
    iv = d["phases"][0]["intervals"]
    iv["rows"] = [[0] + [1e308] * (len(iv["fields"]) - 1), [1000] + [-1e308] * (len(iv["fields"]) - 1)]
mod("odd_huge.json", huge)
def hist(d):
    for r in d["phases"][0]["results"]:
        h = r["read"]["latency_ns"].get("histogram")
        if isinstance(h, dict):
            h["buckets"] = [[10**12, 1], [-5, 3]]
            h["n"] = 1e300
mod("odd_hist.json", hist)
mod("odd_types.json", lambda d: (d.__setitem__("host", None), d["phases"][0].__setitem__("name", None),
                                 d["phases"][0].__setitem__("cpu", [1, 2]), d.__setitem__("tool", {"command_line": 5})))
mod("odd_nophases.json", lambda d: d.__setitem__("phases", []))
mod("odd_empty_phase.json", lambda d: d.__setitem__("phases", [{}, {"results": [{}]}]))
raw = json.dumps(good).replace('"name": "a"', '"name": "a\\u0001"', 1).encode()
raw = raw.replace(b'"kind": "none"', b'"kind": "\xff\xfe\xc0\xaf"', 1)
put("odd_utf8.json", raw)
PY

refused=0 rendered=0
for f in "$M"/bad_*.json; do
    n=$(basename "$f" .json)
    for cmd in show report compare; do
        args=("$f")
        [ "$cmd" = compare ] && args=("$WORK/good.json" "$f")
        [ "$cmd" = report ] && args=("$f" -o "$WORK/r.html")
        timeout 10 "$SSDBENCH" "$cmd" "${args[@]}" >"$WORK/out" 2>"$WORK/err"
        rc=$?
        lines=$(wc -l <"$WORK/err")
        if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q "^ssdbench: .*$(basename "$f")" "$WORK/err"; then
            fail "$cmd:$n" "exit $rc (want 2), $lines stderr lines (want 1): $(head -c 300 "$WORK/err")"
        else
            refused=$((refused + 1))
        fi
    done
done
check "refused_all" test "$refused" -eq $(( $(ls "$M"/bad_*.json | wc -l) * 3 ))
echo "bad-result messages, for example: $(cat "$WORK/err")"

for f in "$M"/odd_*.json; do
    n=$(basename "$f" .json)
    for cmd in show show-json report compare; do
        case $cmd in
        show) timeout 10 "$SSDBENCH" show "$f" >"$WORK/out" 2>"$WORK/err" ;;
        show-json) timeout 10 "$SSDBENCH" show --format fio-json+ "$f" >"$WORK/out" 2>"$WORK/err" ;;
        report) timeout 10 "$SSDBENCH" report "$f" "$WORK/good.json" -o "$WORK/r.html" >"$WORK/out" 2>"$WORK/err" ;;
        compare) timeout 10 "$SSDBENCH" compare "$WORK/good.json" "$f" >"$WORK/out" 2>"$WORK/err" ;;
        esac
        rc=$?
        if [ "$rc" -ge 124 ]; then
            fail "$cmd:$n" "exit $rc (124 = hang, >128 = signal): $(head -c 300 "$WORK/err")"
        elif [ "$rc" -ne 0 ] && [ "$(wc -l <"$WORK/err")" -ne 1 ]; then
            fail "$cmd:$n" "exit $rc with $(wc -l <"$WORK/err") stderr lines: $(head -c 300 "$WORK/err")"
        else
            rendered=$((rendered + 1))
        fi
    done
done
check "odd_rendered" test "$rendered" -eq $(( $(ls "$M"/odd_*.json | wc -l) * 4 ))
# what is printed from a repaired document is UTF-8 too
timeout 10 "$SSDBENCH" show --format json "$M/odd_utf8.json" >"$WORK/u.json" 2>/dev/null
check show_json_utf8 python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/u.json"

# --- ssdbench writes only UTF-8 JSON, whatever bytes a path or name holds
odd=$'x\xff\xfe\x01y'
mkdir -p "$WORK/$odd"
"$SSDBENCH" run --engine=psync --direct=0 --name=$'j\xfe\x02' --filename="$WORK/$odd/t" --size=1m --bs=4k --io_size=16k -q \
    --result "$WORK/u8.json" >/dev/null 2>"$WORK/u8.err"
check write_odd_path test -s "$WORK/u8.json"
check write_strict_utf8 python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/u8.json"
check write_replacement python3 -c '
import json,sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
p = d["targets"][0]["path"]
j = d["phases"][0]["jobs"][0]["name"]
sys.exit(0 if p.endswith("x\ufffd\ufffd\x01y/t") and j == "j\ufffd\x02" else 1)' "$WORK/u8.json"
"$SSDBENCH" show --format json "$WORK/u8.json" >"$WORK/u8s.json" 2>/dev/null
check show_strict_utf8 python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/u8s.json"
"$SSDBENCH" show --format fio-json "$WORK/u8.json" >"$WORK/u8f.json" 2>/dev/null
check fio_json_strict_utf8 python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/u8f.json"

# --- a device or a directory named as a text input is refused, not read forever
printf '[a]\ninclude /dev/zero\n' >"$WORK/zero.fio"
for c in "show /dev/zero" "report $WORK" "compare /dev/zero /dev/zero" "run /dev/zero" "run $WORK/zero.fio" \
         "act-analyze /dev/zero"; do
    timeout 10 "$SSDBENCH" $c >/dev/null 2>"$WORK/err"
    rc=$?
    n=$(echo "$c" | tr ' /' '__')
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -qE "is a (character device|block device|directory|device)" "$WORK/err"; then
        pass "device:$n"
    else
        fail "device:$n" "exit $rc (want 2): $(head -c 200 "$WORK/err")"
    fi
done
