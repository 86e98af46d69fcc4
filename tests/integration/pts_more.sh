#!/bin/bash
# run.sh: long (started first)
# pts_more.sh - `ssdbench pts hir|xsr|cbw|dirth` end to end on a RAM-backed
# loop device with shortened timing: each produces its text page, its JSON
# (element counts equal to the plan: wait states x reps bursts, 3 access
# groups, TC x QD points per round, 3 demand-intensity points; steady-state
# figures and the Max/Mid/Min choice recomputed here from the stored rounds;
# every phase's I/O counts and bytes equal the kernel's (bytes only for the
# 1 MiB writes the block layer splits) and the result's figures) and
# an HTML page checked for its sections and charts; every output says "not
# compliant"; bad grid and DIRTH options are refused.
source "$(dirname "$0")/lib.sh"

is_root || { skip all "needs root for loop devices"; exit 0; }
dev=$(make_loop 64) || { skip all "no loop device"; exit 0; }
SHORT=(--tc 1 --qd 2 --max-rounds 5)

# common: every phase is one figure of the pts object, with the phase's I/O
# counts, and the kernel's counters over all phases equal the figures' sums
cat >"$WORK/check_common.py" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["pts"]
assert not p["compliant"] and p["noncompliance"], "compliance"
assert "tests_not_implemented" not in p
figs = {}
def walk(o):
    if isinstance(o, dict):
        if "phase" in o and "ios" in o and "bytes" in o:
            assert o["phase"] not in figs, ("phase twice", o["phase"])
            figs[o["phase"]] = o
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(p)
sw = 0
for ph in d["phases"]:
    f = figs[ph["name"]]            # every phase is in the pts object
    tot = [s for s in ph["results"] if s["scope"] == "total"][0]
    assert f["read_ios"] == tot["read"]["ios"] and f["write_ios"] == tot["write"]["ios"], ph["name"]
    assert f["bytes"] == tot["read"]["bytes"] + tot["write"]["bytes"], ph["name"]
    # the kernel's counters: bytes always; I/Os where the block layer does not
    # split them (it cuts the 1 MiB writes of XSR's SEQ groups)
    k = ph["kernel_stats"][0]
    assert k["read_bytes"] == tot["read"]["bytes"] and k["write_bytes"] == tot["write"]["bytes"], \
        ("kernel bytes", ph["name"], k, tot["read"]["bytes"], tot["write"]["bytes"])
    if "SEQ 1024KiB" not in ph["name"]:
        assert k["read_ios"] + k["read_merges"] == f["read_ios"], ("kernel reads", ph["name"], k)
        assert k["write_ios"] + k["write_merges"] == f["write_ios"], ("kernel writes", ph["name"], k)
    sw += f["write_ios"]
assert len(figs) == len(d["phases"]), (len(figs), len(d["phases"]))
assert sw > 0
print("ok")
EOF2

# a rounds-to-steady-state object: counts, its SS figures from its rounds
cat >"$WORK/ss.py" <<'EOF2'
def check_ss(t, nel):
    assert len(t["rounds"]) == t["rounds_run"] >= 5, "rounds"
    for r in t["rounds"]:
        assert len(r["elements"]) == nel, ("elements per round", len(r["elements"]), nel)
    ss = t["steady_state"]
    wf, wl = ss["window_first"], ss["window_last"]
    ok_all = True
    for v in ss["variables"]:
        y = [t["rounds"][k - 1]["elements"][v["element"]]["iops"] for k in range(wf, wl + 1)]
        x = list(range(wf, wl + 1))
        n = len(y); avg = sum(y) / n; xm = sum(x) / n
        slope = sum((a - xm) * (b - avg) for a, b in zip(x, y)) / sum((a - xm) ** 2 for a in x)
        assert abs(v["avg"] - avg) <= 1e-9 * avg, "avg"
        assert abs(v["range"] - (max(y) - min(y))) <= 1e-9 * avg, "range"
        assert abs(v["slope_excursion"] - abs(slope) * 4) <= 1e-9 * avg, "slope"
        ok_all &= max(y) - min(y) <= 0.2 * avg and abs(slope) * 4 <= 0.1 * avg
    assert ss["reached"] == ok_all
    assert wl == t["rounds_run"] and wf == wl - 4
    for e in range(nel):
        m = sum(t["rounds"][k - 1]["elements"][e]["iops"] for k in range(wf, wl + 1)) / 5
        assert abs(t["table"][e]["iops"] - m) <= 1e-9 * max(m, 1), "table"
EOF2

# ---- HIR ------------------------------------------------------------------
"$SSDBENCH" pts hir "${SHORT[@]}" --round-time 0.2 --hir-burst 0.1 --reps 2 \
    --result "$WORK/hir.json" "$dev" >"$WORK/hir.txt" 2>"$WORK/hir.err"
check hir_runs test $? -eq 0
check hir_common test "$(python3 "$WORK/check_common.py" "$WORK/hir.json" 2>&1)" = ok
cat >"$WORK/check_hir.py" <<'EOF2'
import json, sys
sys.path.insert(0, sys.argv[2]); from ss import check_ss
d = json.load(open(sys.argv[1]))
t = d["pts"]["tests"][0]
assert t["id"] == "hir" and t["wipc"] is None and t["purge"]["method"] == "discard"
check_ss(t["prewrite"], 1)
assert t["prewrite"]["elements"][0]["name"] == "RND 4KiB 0/100"
ws = t["wait_states"]
assert [w["wait_state"] for w in ws] == [1, 2, 3, 5, 10]
assert t["reps"] == 2 and abs(t["baseline_s"] - 0.2) < 1e-12
for w in ws:
    assert abs(w["wait_s"] - 0.1 * w["wait_state"]) < 1e-12, w["wait_s"]
    assert len(w["bursts"]) == 2, len(w["bursts"])
    for b in w["bursts"]:
        assert b["write_ios"] == b["ios"] > 0 and b["read_ios"] == 0
        assert b["idle_s"] >= w["wait_s"], (b["idle_s"], w["wait_s"])
    assert abs(w["burst_iops_mean"] - sum(b["iops"] for b in w["bursts"]) / 2) < 1e-6
    f = w["baseline"]["samples"]["fields"]; rows = w["baseline"]["samples"]["rows"]
    ios = sum(r[f.index("iops")] * r[f.index("dur_s")] for r in rows)
    bf = w["baseline"]["figures"]
    assert abs(ios - bf["write_ios"]) < 1e-6 * bf["write_ios"], (ios, bf["write_ios"])
    # the time axis runs forward: bursts, then the baseline
    ts = [b["t_s"] for b in w["bursts"]] + [r[f.index("t_s")] for r in rows]
    assert ts == sorted(ts), ts
ph = {p["name"]: p for p in d["phases"]}
assert sum(1 for p in d["phases"] if p["kind"] == "pts-burst") == 10
assert sum(1 for p in d["phases"] if p["kind"] == "pts-baseline") == 5
for p in d["phases"]:
    if p["kind"] in ("pts-burst", "pts-baseline"):
        j = p["jobs"][0]["params"]
        assert j["rw"] == "randwrite" and j["numjobs"] == 1 and j["iodepth"] == 2, j
nc = d["pts"]["noncompliance"]
for s in ("hir: bursts of 0.1 s instead of 5 s", "hir: 2 bursts per wait state instead of 360",
          "hir: pre-write rounds of 0.2 s instead of 60 s"):
    assert any(x.startswith(s) for x in nc), s
print("ok")
EOF2
check hir_json test "$(python3 "$WORK/check_hir.py" "$WORK/hir.json" "$WORK" 2>&1)" = ok
check hir_text_not_compliant grep -q "^NOT COMPLIANT:" "$WORK/hir.txt"
check hir_text_page grep -q "^== Host Idle Recovery test" "$WORK/hir.txt"
check hir_text_prewrites grep -q "^Pre-writes: RND 4KiB 0/100 at T1/Q2 in rounds of 0.2 s" "$WORK/hir.txt"
check hir_text_wait_rows test "$(grep -cE '^  (1|2|3|5|10) +[0-9.]+ +2 ' "$WORK/hir.txt")" -eq 5
check hir_text_series test "$(grep -c '  wait state [0-9]* (' "$WORK/hir.txt")" -eq 10
check hir_text_no_not_done test "$(grep -c 'not done\|not implemented' "$WORK/hir.txt")" -eq 0
"$SSDBENCH" show "$WORK/hir.json" >"$WORK/hir.show" 2>"$WORK/hir.show.err"
check hir_show_same cmp -s "$WORK/hir.txt" "$WORK/hir.show"
"$SSDBENCH" report "$WORK/hir.json" -o "$WORK/hir.html" 2>"$WORK/report.err"
check hir_html_written test $? -eq 0 -a -s "$WORK/hir.html"
check hir_html_not_compliant grep -q "NOT COMPLIANT: " "$WORK/hir.html"
check hir_html_chart grep -q 'aria-label="HIR: IOPS vs time, wait states marked"' "$WORK/hir.html"
check hir_html_marks test "$(grep -o 'wait state [0-9]* ([0-9.]* s idle)' "$WORK/hir.html" | sort -u | wc -l)" -eq 5
check hir_html_prewrite_ss grep -q 'aria-label="pre-writes: SS convergence"' "$WORK/hir.html"
check hir_html_table grep -q "HIR: wait states" "$WORK/hir.html"

# ---- XSR ------------------------------------------------------------------
"$SSDBENCH" pts xsr "${SHORT[@]}" --xsr-time 0.4 --xsr-interval 0.1 \
    --result "$WORK/xsr.json" "$dev" >"$WORK/xsr.txt" 2>"$WORK/xsr.err"
check xsr_runs test $? -eq 0
check xsr_common test "$(python3 "$WORK/check_common.py" "$WORK/xsr.json" 2>&1)" = ok
cat >"$WORK/check_xsr.py" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["pts"]["tests"][0]
g = t["groups"]
assert [x["group"] for x in g] == ["AG1", "AG2", "AG3"]
assert [(x["access"], x["block_size"]) for x in g] == [("SEQ", 1 << 20), ("RND", 8192), ("SEQ", 1 << 20)]
assert [x["time_s"] for x in g] == [0.4, 0.3, 0.4], [x["time_s"] for x in g]
for x in g:
    f = x["samples"]["fields"]; rows = x["samples"]["rows"]
    assert rows, x["group"]
    by = sum(r[f.index("mbps")] * 1e6 * r[f.index("dur_s")] for r in rows)
    assert abs(by - x["figures"]["bytes"]) < 1e-6 * x["figures"]["bytes"], (by, x["figures"]["bytes"])
ph = {p["name"]: p for p in d["phases"]}
assert [ph[x["figures"]["phase"]]["kind"] for x in g] == ["pts-xsr"] * 3
rc = t["recovery"]
assert rc["ag1_mbps"] == g[0]["figures"]["mbps"]
f = g[2]["samples"]["fields"]
first = [r for r in g[2]["samples"]["rows"] if r[f.index("mbps")] >= rc["ag1_mbps"]]
if first:
    assert rc["recovered"] and rc["time_s"] == first[0][f.index("ag_t_s")], rc
else:
    assert not rc["recovered"] and rc["time_s"] is None
nc = d["pts"]["noncompliance"]
assert any(x.startswith("xsr: access groups of 0.4 s / 0.3 s / 0.4 s") for x in nc), nc
print("ok")
EOF2
check xsr_json test "$(python3 "$WORK/check_xsr.py" "$WORK/xsr.json" 2>&1)" = ok
check xsr_text_page grep -q "^== Cross Stimulus Recovery test" "$WORK/xsr.txt"
check xsr_text_groups test "$(grep -cE '^  AG[123] +(SEQ 1024KiB|RND 8KiB) 0/100' "$WORK/xsr.txt")" -eq 3
check xsr_text_recovery grep -q "^Recovery time: " "$WORK/xsr.txt"
check xsr_text_not_compliant grep -q "^  - xsr: sampled every 0.1 s instead of 1 min" "$WORK/xsr.txt"
"$SSDBENCH" report "$WORK/xsr.json" -o "$WORK/xsr.html" 2>>"$WORK/report.err"
check xsr_html_written test $? -eq 0 -a -s "$WORK/xsr.html"
check xsr_html_tp grep -q 'aria-label="XSR: throughput vs time"' "$WORK/xsr.html"
check xsr_html_lat grep -q 'aria-label="XSR: ART and MRT vs time"' "$WORK/xsr.html"
check xsr_html_not_compliant grep -q "NOT COMPLIANT: " "$WORK/xsr.html"

# ---- CBW and DIRTH ----------------------------------------------------------
cat >"$WORK/check_di.py" <<'EOF2'
import json, sys
sys.path.insert(0, sys.argv[2]); from ss import check_ss
d = json.load(open(sys.argv[1]))
t = d["pts"]["tests"][0]
test, bs, rd = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
assert t["test"] == test and t["wipc"] is None
grid = [(a, b) for a in (2, 1) for b in (4, 1)]
assert [(e["threads"], e["depth"]) for e in t["elements"]] == grid
assert t["stimulus"]["grid"] == {"threads": [2, 1], "depths": [4, 1]}
check_ss(t["precondition"], 1)
check_ss(t, 4)
pe = t["precondition"]["elements"][0]
assert pe["read_pct"] == 0 and (pe["threads"], pe["depth"]) == (2, 4)
ph = {p["name"]: p for p in d["phases"]}
def params(name):
    return ph[name]["jobs"][0]["params"]
for r in t["rounds"]:
    pw = r["prewrite"]
    assert ph[pw["phase"]]["kind"] == "pts-prewrite" and pw["read_ios"] == 0
    assert (params(pw["phase"])["numjobs"], params(pw["phase"])["iodepth"]) == (2, 4)
    for i, e in enumerate(r["elements"]):
        p = params(e["phase"])
        assert (p["numjobs"], p["iodepth"]) == grid[i], (p["numjobs"], p["iodepth"])
        assert p["rwmixread"] == rd and p["rw"] == "randrw"
        if test == "cbw":
            w = p["bssplit"]["write"]
            assert w == [[512, 4], [1024, 1], [1536, 1], [2048, 1], [2560, 1], [3072, 1], [3584, 1],
                         [4096, 67], [8192, 10], [16384, 7], [32768, 3], [65536, 3]], w
            assert p["distribution"] == {"kind": "zoned", "zones": [[50, 5], [30, 15], [20, 80]]}
        else:
            assert p["bs"] == bs if "bs" in p else p["bssplit"]["write"] == [[bs, 100]], p
# Max / Mid / Min from the window table
iops = [r["iops"] for r in t["table"]]; art = [r["lat_mean_ns"] for r in t["table"]]
under = [i for i in range(4) if art[i] < 5e6]
mx = max(under, key=lambda i: (iops[i], -i)) if under else min(range(4), key=lambda i: (art[i], i))
mn = 3                                           # T1/Q1
mid = (iops[mx] + iops[mn]) / 2
md = min(range(4), key=lambda i: (abs(iops[i] - mid), i))
pts = t["points"]
assert [p["point"] for p in pts] == ["max", "mid", "min"]
assert [p["element"] for p in pts] == [mx, md, mn], ([p["element"] for p in pts], mx, md, mn)
assert t["max_under_limit"] == bool(under)
for p in pts:
    assert (p["threads"], p["depth"]) == grid[p["element"]]
    c, w = p["capture"], p["prewrite"]
    assert ph[c["phase"]]["kind"] == "pts-capture" and ph[w["phase"]]["kind"] == "pts-prewrite"
    assert w["read_ios"] == 0 and c["read_ios"] > 0 and c["write_ios"] > 0
    assert (params(c["phase"])["numjobs"], params(c["phase"])["iodepth"]) == grid[p["element"]]
    assert abs(params(c["phase"])["runtime_s"] - t["capture_s"]) < 1e-9
    assert abs(params(w["phase"])["runtime_s"] - t["point_prewrite_s"]) < 1e-9
    l = c["latency_ns"]
    assert l["n"] == c["ios"] and l["max"] == c["lat_max_ns"] and l["histogram"]
    pc = l["percentiles"]
    assert pc["50"] <= pc["99"] <= pc["99.999"] <= l["max"] * 1.004
assert abs(t["point_prewrite_s"] - 60 * t["element_s"]) < 1e-9 and abs(t["capture_s"] - 10 * t["element_s"]) < 1e-9
assert abs(t["round_prewrite_s"] - 5 * t["element_s"]) < 1e-9
nc = d["pts"]["noncompliance"]
assert any(x.startswith(test + ": a TC x QD grid of 2 x 2 points instead of 7 x 7") for x in nc), nc
print("ok")
EOF2
"$SSDBENCH" pts cbw "${SHORT[@]}" --round-time 0.1 --di-tc 2,1 --di-qd 4,1 \
    --result "$WORK/cbw.json" "$dev" >"$WORK/cbw.txt" 2>"$WORK/cbw.err"
check cbw_runs test $? -eq 0
check cbw_common test "$(python3 "$WORK/check_common.py" "$WORK/cbw.json" 2>&1)" = ok
check cbw_json test "$(python3 "$WORK/check_di.py" "$WORK/cbw.json" "$WORK" cbw 0 40 2>&1)" = ok
"$SSDBENCH" pts dirth "${SHORT[@]}" --round-time 0.1 --di-tc 2,1 --di-qd 4,1 --dirth-bs 16k \
    --dirth-read 70 --result "$WORK/dirth.json" "$dev" >"$WORK/dirth.txt" 2>"$WORK/dirth.err"
check dirth_runs test $? -eq 0
check dirth_common test "$(python3 "$WORK/check_common.py" "$WORK/dirth.json" 2>&1)" = ok
check dirth_json test "$(python3 "$WORK/check_di.py" "$WORK/dirth.json" "$WORK" dirth 16384 70 2>&1)" = ok
for t in cbw dirth; do
    check ${t}_text_not_compliant grep -q "^NOT COMPLIANT:" "$WORK/$t.txt"
    check ${t}_text_grid grep -q "^Demand variation: IOPS (average of the measurement window)" "$WORK/$t.txt"
    check ${t}_text_di grep -q "^Demand intensity: ART vs IOPS" "$WORK/$t.txt"
    check ${t}_text_prewrites grep -qE "^Between-round pre-writes \(IOPS\): r1 [0-9]+ r2 [0-9]+ r3 [0-9]+ r4 [0-9]+ r5 [0-9]+" "$WORK/$t.txt"
    check ${t}_text_points test "$(grep -cE '^  (max|mid|min) +T[12]/Q[14] ' "$WORK/$t.txt")" -eq 3
    check ${t}_text_histograms test "$(grep -c 'response-time histogram' "$WORK/$t.txt")" -eq 3
    "$SSDBENCH" report "$WORK/$t.json" -o "$WORK/$t.html" 2>>"$WORK/report.err"
    check ${t}_html_written test $? -eq 0 -a -s "$WORK/$t.html"
    check ${t}_html_not_compliant grep -q "NOT COMPLIANT: " "$WORK/$t.html"
    for chart in "Demand variation: IOPS vs QD, one line per TC" \
        "Demand intensity: average response time vs IOPS, one colour per TC" \
        "IOPS vs total outstanding I/O (TC x QD)" "Max/Mid/Min capture: latency histogram" \
        "Between-round pre-writes: IOPS per round" \
        "preconditioning: SS convergence"; do
        check "${t}_html_chart_${chart%%:*}" grep -qF "aria-label=\"$chart\"" "$WORK/$t.html"
    done
    check ${t}_html_points grep -q "Demand-intensity points" "$WORK/$t.html"
    check ${t}_html_selected_marked grep -q "MaxIOPS, MidIOPS, MinIOPS" "$WORK/$t.html"
    check ${t}_html_heat grep -q 'style="background:hsl(' "$WORK/$t.html"
done
check cbw_text_stimulus grep -q "^Stimulus: CBW composite, R/W 40/60, blockalign 4096; block sizes: 0.5KiB 4%" "$WORK/cbw.txt"
check dirth_text_stimulus grep -q "^Stimulus: RND 16KiB, R/W 70/30" "$WORK/dirth.txt"

# ---- a stop signal during the HIR idle: a whole result, marked interrupted --
"$SSDBENCH" pts hir "${SHORT[@]}" --round-time 0.1 --hir-burst 0.2 --reps 100 \
    --result "$WORK/hirint.json" "$dev" >/dev/null 2>"$WORK/hirint.err" &
pid=$!
# (signalled once the first burst of wait state 1 is filed in the journal)
for _ in $(seq 1200); do
    grep -q '^# done .*"name":"pts hir ws[0-9]* b1"' "$WORK/hirint.json.partial" 2>/dev/null && break
    sleep 0.1
done
kill -INT $pid
wait $pid
check hir_interrupt_exit test $? -eq 130
check hir_interrupt_common test "$(python3 "$WORK/check_common.py" "$WORK/hirint.json" 2>&1)" = ok
check hir_interrupt_marked test "$(json_get "$WORK/hirint.json" '("interrupted" in d["pts"]["noncompliance"], 0 < len(d["pts"]["tests"][0]["wait_states"][0]["bursts"]) < 100)')" = "(True, True)"

# ---- bad input ------------------------------------------------------------
"$SSDBENCH" pts cbw --di-tc 1,2 "$dev" >/dev/null 2>"$WORK/bad.err"
check grid_not_descending test $? -eq 2
check grid_message grep -q -- "--di-tc: '1,2' is not descending" "$WORK/bad.err"
"$SSDBENCH" pts dirth --dirth-read 101 "$dev" >/dev/null 2>"$WORK/bad.err"
check dirth_read_refused test $? -eq 2
"$SSDBENCH" pts cbw --round-time 0.5 "$dev" >/dev/null 2>"$WORK/bad.err"
check cbw_short_points_refused test $? -eq 2
check cbw_short_points_message grep -q "at least 20 ms per point" "$WORK/bad.err"
"$SSDBENCH" pts --test nosuch "$dev" >/dev/null 2>"$WORK/bad.err"
check unknown_test_lists_all grep -q "hir, xsr, cbw, dirth, all" "$WORK/bad.err"
exit 0
