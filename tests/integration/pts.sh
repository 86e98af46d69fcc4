#!/bin/bash
# run.sh: long (started first)
# pts.sh - `ssdbench pts` end to end on a RAM-backed loop device with short
# rounds: every test (IOPS, throughput, latency, WSAT) produces its text
# report, its JSON (whose figures are recomputed here from the stored rounds
# and phases: table cells, steady-state figures, round counts) and an HTML
# page; the WIPC's and WSAT's writes equal the kernel's; shortened runs say
# "not compliant" everywhere; presets, --no-purge, bad input and the write
# guard (signatures need --destroy, in use is refused whatever the consent,
# bytes checked by checksum).
source "$(dirname "$0")/lib.sh"

is_root || { skip all "needs root for loop devices"; exit 0; }
dev=$(make_loop 64) || { skip all "no loop device"; exit 0; }
SHORT=(--tc 1 --qd 2 --max-rounds 5 --capacity-scale 0.25)

# ---- IOPS ---------------------------------------------------------------
"$SSDBENCH" pts iops "${SHORT[@]}" --round-time 1.12 --result "$WORK/iops.json" "$dev" \
    >"$WORK/iops.txt" 2>"$WORK/iops.err"
check iops_runs test $? -eq 0
check iops_text_not_compliant grep -q "^NOT COMPLIANT:" "$WORK/iops.txt"
check iops_text_names_round_time grep -q "elements of 0.02 s instead of 60 s (--round-time)" "$WORK/iops.txt"
check iops_text_purge grep -q "^Purge: purged by discard" "$WORK/iops.txt"
check iops_text_wipc grep -q "^Preconditioning: WIPC SEQ 128KiB writes, 0.5x ActiveRange" "$WORK/iops.txt"
check iops_text_table grep -q "^IOPS (average of the measurement window)" "$WORK/iops.txt"
check iops_text_header grep -q "TC/QD:             T1/Q2" "$WORK/iops.txt"
check iops_text_no_not_done test "$(grep -c 'not done\|not implemented' "$WORK/iops.txt")" -eq 0

cat >"$WORK/check_rounds.py" <<'EOF'
# Recomputes a rounds test from the stored phases and rounds. argv: result, text, test id
import json, sys, re
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
p = d["pts"]
t = [x for x in p["tests"] if x["id"] == sys.argv[3]][0]
phases = {ph["name"]: ph for ph in d["phases"]}
def total(ph):
    return [s for s in ph["results"] if s["scope"] == "total"][0]
ne = len(t["elements"])
assert not p["compliant"] and p["noncompliance"], "compliance"
assert len(t["rounds"]) == t["rounds_run"], ("rounds", len(t["rounds"]), t["rounds_run"])
assert re.search(r"%d rounds run" % t["rounds_run"], text), "text round count"
# every element of every round: a phase, and its figures from that phase
for r in t["rounds"]:
    assert len(r["elements"]) == ne, "elements per round"
    assert sum(e["ios"] for e in r["elements"]) > 0, "a round without I/O"
    for i, e in enumerate(r["elements"]):
        assert e["element"] == i
        tot = total(phases[e["phase"]])
        ios = tot["read"]["ios"] + tot["write"]["ios"]
        by = tot["read"]["bytes"] + tot["write"]["bytes"]
        # a 20 ms element on a busy host may complete nothing; the round may not
        assert e["ios"] == ios, ("ios", e["ios"], ios)
        assert e["elapsed_s"] == tot["elapsed_s"]
        assert abs(e["iops"] - ios / tot["elapsed_s"]) <= 1e-9 * e["iops"], "iops"
        assert abs(e["mbps"] - by / tot["elapsed_s"] / 1e6) <= 1e-9 * e["mbps"], "mbps"
# the steady-state figures from the tracking values of the window
ss = t["steady_state"]
wf, wl = ss["window_first"], ss["window_last"]
key = {"iops": "iops", "bw": "mbps", "lat": "lat_mean_ns"}[t["tracking_metric"]]
reached_all = True
for v in ss["variables"]:
    y = [t["rounds"][k - 1]["elements"][v["element"]][key] for k in range(wf, wl + 1)]
    x = list(range(wf, wl + 1))
    n = len(y); avg = sum(y) / n; xm = sum(x) / n
    slope = sum((a - xm) * (b - avg) for a, b in zip(x, y)) / sum((a - xm) ** 2 for a in x)
    rng = max(y) - min(y)
    assert abs(v["avg"] - avg) <= 1e-9 * avg, ("avg", v["avg"], avg)
    assert abs(v["range"] - rng) <= 1e-9 * avg, ("range", v["range"], rng)
    assert abs(v["slope_excursion"] - abs(slope) * (n - 1)) <= 1e-9 * avg, "slope"
    ok = rng <= 0.2 * avg and abs(slope) * (n - 1) <= 0.1 * avg
    reached_all &= ok
assert ss["reached"] == reached_all, ("reached", ss["reached"], reached_all)
if ss["reached"]:
    assert reached_all and wl == t["rounds_run"], "reached: the window ends the run"
    assert ("SS achieved: rounds %d-%d" % (wf, wl)) in text
else:
    assert wl == t["rounds_run"] and wf == wl - 4, ("window", wf, wl)
    assert "SS NOT ACHIEVED after %d rounds" % t["rounds_run"] in text
# the table: window averages of each element
for e in range(ne):
    row = t["table"][e]
    vals = [t["rounds"][k - 1]["elements"][e] for k in range(wf, wl + 1)]
    for f in ("iops", "mbps", "lat_mean_ns"):
        m = sum(v[f] for v in vals) / len(vals)
        assert abs(row[f] - m) <= 1e-9 * max(m, 1), (f, e, row[f], m)
    assert row["lat_max_ns"] == max(v["lat_max_ns"] for v in vals)
    assert row["p99999_ns"] <= row["lat_max_ns"] * 1.004
if t["test"] == "iops":
    # the text table's 4KiB row, 0/100 column = the stored cell, rounded
    e4 = [i for i, e in enumerate(t["elements"]) if e["block_size"] == 4096 and e["read_pct"] == 0][0]
    line = [l for l in text.splitlines() if l.startswith("  4KiB ")][0]
    assert int(line.split()[-1]) == round(t["table"][e4]["iops"]), (line, t["table"][e4]["iops"])
    assert ne == 56 and len(t["tracking"]) == 3
print("ok")
EOF
check iops_json_arithmetic test "$(python3 "$WORK/check_rounds.py" "$WORK/iops.json" "$WORK/iops.txt" iops 2>&1)" = ok

# the WIPC's writes are the kernel's
cat >"$WORK/check_wipc.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
cap = d["pts"]["active_range_bytes"]
n = 0
for t in d["pts"]["tests"]:
    w = t.get("wipc")
    if not w:
        continue
    ph = [p for p in d["phases"] if p["name"] == w["phase"]][0]
    k = ph["kernel_stats"][0]
    assert w["bytes_written"] == k["write_bytes"], (w["bytes_written"], k["write_bytes"])
    assert w["bytes_written"] == cap * 2 * d["pts"]["capacity_scale"], "2x scaled capacity"
    if w["block_size"] == 131072:
        assert w["write_ios"] == k["write_ios"] + k["write_merges"], (w["write_ios"], k)
    n += 1
assert n > 0
print("ok")
EOF
check iops_wipc_equals_kernel test "$(python3 "$WORK/check_wipc.py" "$WORK/iops.json" 2>&1)" = ok

"$SSDBENCH" show "$WORK/iops.json" >"$WORK/iops.show" 2>"$WORK/iops.show.err"
check show_renders_the_same cmp -s "$WORK/iops.txt" "$WORK/iops.show"
"$SSDBENCH" report "$WORK/iops.json" -o "$WORK/iops.html" 2>"$WORK/report.err"
check iops_html_written test $? -eq 0 -a -s "$WORK/iops.html"
check iops_html_header grep -q "SNIA PTS: " "$WORK/iops.html"
check iops_html_not_compliant grep -q "NOT COMPLIANT: " "$WORK/iops.html"
check iops_html_heat_table grep -q 'style="background:hsl(' "$WORK/iops.html"
check iops_html_convergence grep -q "SS convergence" "$WORK/iops.html"
check iops_html_window grep -q "SS window: RND 4KiB 0/100" "$WORK/iops.html"
check iops_html_2d grep -q "IOPS vs block size" "$WORK/iops.html"
check iops_html_no_run_sections test "$(grep -c 'pts iops r1' "$WORK/iops.html")" -eq 0

# ---- throughput, latency, WSAT --------------------------------------------
"$SSDBENCH" pts throughput latency wsat "${SHORT[@]}" --round-time 0.4 --wsat-time 30 \
    --wsat-interval 0.1 --result "$WORK/rest.json" "$dev" >"$WORK/rest.txt" 2>"$WORK/rest.err"
check rest_runs test $? -eq 0
for id in throughput-128k throughput-1024k latency; do
    check "${id}_json_arithmetic" test "$(python3 "$WORK/check_rounds.py" "$WORK/rest.json" "$WORK/rest.txt" $id 2>&1)" = ok
done
check rest_wipc_equals_kernel test "$(python3 "$WORK/check_wipc.py" "$WORK/rest.json" 2>&1)" = ok
check tp_text_pages test "$(grep -c '^== Throughput test, SEQ' "$WORK/rest.txt")" -eq 2
check lat_text_table grep -q "^Response times (window average; 5 nines and maximum over the window)" "$WORK/rest.txt"
check wsat_text grep -q "^Written: .* stopped by capacity" "$WORK/rest.txt"
cat >"$WORK/check_rest.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["pts"]
tests = {t["id"]: t for t in p["tests"]}
phases = {ph["name"]: ph for ph in d["phases"]}
assert list(tests) == ["throughput-128k", "throughput-1024k", "latency", "wsat"], list(tests)
# throughput: purge and WIPC at the block size, SEQ elements
for bs in (128, 1024):
    t = tests["throughput-%dk" % bs]
    assert t["purge"]["method"] == "discard" and t["wipc"]["block_size"] == bs * 1024
    assert all(e["access"] == "SEQ" and e["block_size"] == bs * 1024 for e in t["elements"])
# latency at T1/Q1; the window histogram holds every I/O of the window
t = tests["latency"]
assert t["threads"] == 1 and t["depth"] == 1
for r in t["rounds"]:
    for e in r["elements"]:
        for j in phases[e["phase"]]["jobs"]:
            assert j["params"]["iodepth"] == 1 and j["params"]["numjobs"] == 1, j["params"]
wf, wl = t["steady_state"]["window_first"], t["steady_state"]["window_last"]
for i, row in enumerate(t["table"]):
    n = sum(t["rounds"][k - 1]["elements"][i]["ios"] for k in range(wf, wl + 1))
    assert row["window_latency_ns"]["n"] == n, (row["window_latency_ns"]["n"], n)
    assert row["window_latency_ns"]["max"] == row["lat_max_ns"]
# WSAT: 4x the scaled capacity, no WIPC, the kernel's bytes, the samples add up
w = tests["wsat"]
assert w["wipc"] is None and w["purge"]["method"] == "discard"
k = phases[w["phase"]]["kernel_stats"][0]
assert w["bytes_written"] == w["limit_bytes"] == p["active_range_bytes"] * 4 * 0.25, w["bytes_written"]
assert w["bytes_written"] == k["write_bytes"], (w["bytes_written"], k["write_bytes"])
assert w["stopped_by"] == "capacity"
f = w["samples"]["fields"]; rows = w["samples"]["rows"]
ios = sum(r[f.index("iops")] * r[f.index("dur_s")] for r in rows)
assert abs(ios - w["write_ios"]) < 1e-6 * w["write_ios"], (ios, w["write_ios"])
assert abs(rows[-1][f.index("tgbw_gb")] - w["bytes_written"] / 1e9) < 1e-12
assert any("WSAT limited" in s for s in p["noncompliance"])
print("ok")
EOF
check rest_json_structure test "$(python3 "$WORK/check_rest.py" "$WORK/rest.json" 2>&1)" = ok
"$SSDBENCH" report "$WORK/rest.json" -o "$WORK/rest.html" 2>>"$WORK/report.err"
check rest_html_written test $? -eq 0 -a -s "$WORK/rest.html"
check rest_html_tp grep -q "Throughput per element" "$WORK/rest.html"
check rest_html_lat grep -q "Average and maximum response time per element" "$WORK/rest.html"
check rest_html_wsat grep -q "WSAT: IOPS vs total GB written" "$WORK/rest.html"
check rest_html_not_compliant grep -q "NOT COMPLIANT: " "$WORK/rest.html"
"$SSDBENCH" pts wsat "${SHORT[@]}" --wsat-time 30 --wsat-interval 0.1 --format json \
    -o "$WORK/wsat_json.json" -q "$dev" 2>/dev/null
check json_format_marks_compliance test "$(json_get "$WORK/wsat_json.json" 'd["pts"]["compliant"]')" = False

# ---- presets and --no-purge ---------------------------------------------
"$SSDBENCH" pts wsat --client --no-purge --capacity-scale 0.25 --wsat-interval 0.1 --wsat-time 30 \
    --result "$WORK/client.json" -q "$dev" >"$WORK/client.txt" 2>&1
check client_runs test $? -eq 0
check client_text_no_purge grep -q "^Purge: no purge (--no-purge)" "$WORK/client.txt"
check client_reason_no_purge grep -q "^  - no purge (--no-purge)" "$WORK/client.txt"
check client_preset test "$(json_get "$WORK/client.json" '(d["pts"]["preset"], d["pts"]["active_range_pct"], d["pts"]["active_range_bytes"], d["pts"]["threads"], d["pts"]["depth"], d["pts"]["write_cache"]["required"], d["pts"]["tests"][0]["purge"]["method"])')" = "('client', 75, 50331648, 2, 16, 'WCE', 'none')"
check client_wsat_in_range test "$(json_get "$WORK/client.json" '[p for p in d["phases"] if p["kind"]=="pts-wsat"][0]["jobs"][0]["params"]["range"]["size"]')" = 50331648

# ---- bad input ------------------------------------------------------------
"$SSDBENCH" pts iops --round-time 100ms "$dev" >/dev/null 2>"$WORK/bad.err"
check short_round_refused test $? -eq 2
check short_round_message grep -q "at least 20 ms per element" "$WORK/bad.err"
"$SSDBENCH" pts ecw --round-time 0.5 "$dev" >/dev/null 2>"$WORK/bad.err"
check ecw_is_cbw grep -q "the cbw test's 49 demand points" "$WORK/bad.err"
"$SSDBENCH" pts iops --max-rounds 4 "$dev" >/dev/null 2>"$WORK/bad.err"
check max_rounds_under_window test $? -eq 2

# ---- the write guard ----------------------------------------------------------
dev2=$(make_loop 64) || { skip guard "no second loop device"; exit 0; }
if command -v mkfs.ext4 >/dev/null; then
    mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1
    sum0=$(md5sum <"$dev2")
    "$SSDBENCH" pts wsat "${SHORT[@]}" -q "$dev2" >/dev/null 2>"$WORK/guard.err"
    check signature_refused test $? -eq 2
    check signature_message grep -q -- "--destroy" "$WORK/guard.err"
    check signature_bytes_unchanged test "$(md5sum <"$dev2")" = "$sum0"
    mkdir -p "$WORK/mnt" && mount -o ro,noload "$dev2" "$WORK/mnt" && track mount "$WORK/mnt"
    "$SSDBENCH" pts wsat "${SHORT[@]}" -q --destroy "$dev2" "$dev2" >/dev/null 2>"$WORK/guard.err"
    check in_use_refused_with_consent test $? -eq 2
    umount "$WORK/mnt"
    check in_use_bytes_unchanged test "$(md5sum <"$dev2")" = "$sum0"
    "$SSDBENCH" pts wsat "${SHORT[@]}" --wsat-interval 0.1 --wsat-time 30 -q --destroy "$dev2" "$dev2" \
        >/dev/null 2>"$WORK/guard.err"
    check consent_runs test $? -eq 0
    check consent_wrote test "$(md5sum <"$dev2")" != "$sum0"
else
    need_tool mkfs.ext4 e2fsprogs guard
fi
