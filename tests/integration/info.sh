#!/bin/bash
# info.sh - `ssdbench info` on a loop device (made here) and on regular
# files: its JSON structure, the sysfs-derived fields equal to what /sys
# says, the one line about missing SMART; the health object of a run on a
# loop device (unavailable, with the reason) and the device temperature
# column of its interval series; the health table and temperature chart
# of a result whose device reports health (text and HTML report).
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1

# --- bad input: one line, exit 2
out=$("$SSDBENCH" info "$WORK/missing" 2>&1); rc=$?
check missing_path_exit2 test "$rc" -eq 2
check missing_path_one_line test "$(wc -l <<<"$out")" -eq 1
check missing_path_named grep -q "$WORK/missing" <<<"$out"
"$SSDBENCH" info >/dev/null 2>&1
check no_device_exit2 test $? -eq 2
"$SSDBENCH" info --bogus "$WORK" >/dev/null 2>&1
check unknown_option_exit2 test $? -eq 2

# --- a regular file: its file system's device (whatever /tmp is here)
echo data >"$WORK/f"
"$SSDBENCH" info --json "$WORK/f" >"$WORK/f.json"; rc=$?
check file_exit0 test "$rc" -eq 0
check file_json_schema test "$(json_get "$WORK/f.json" "d['schema']")" = "ssdbench-info/1"
read -r ma mi < <(stat -c '%Hd %Ld' "$WORK/f")
if [ "$ma" -eq 0 ] || [ ! -e "/sys/dev/block/$ma:$mi" ]; then
    check file_without_block_device test "$(json_get "$WORK/f.json" "d['device']['bus']")" = none
    check file_without_block_device_reason grep -q "no block device" <<<"$(json_get "$WORK/f.json" "d['health']['reason']")"
else
    want=$(basename "$(readlink -f "/sys/dev/block/$ma:$mi")")
    check file_names_its_device test "$(json_get "$WORK/f.json" "d['device']['name']")" = "$want"
    check file_says_file_on grep -q "^file on $want" <<<"$(json_get "$WORK/f.json" "d['via']")"
fi

dev=$(make_loop 64) || { skip loop_device_tests "cannot create a loop device"; exit 0; }
name=$(basename "$dev")
q=/sys/block/$name/queue

# --- the loop device: JSON fields equal /sys
"$SSDBENCH" info --json "$dev" >"$WORK/i.json"; rc=$?
check loop_exit0 test "$rc" -eq 0
# every value at once (one python start instead of one per check)
declare -A J
while IFS='=' read -r k v; do J[$k]=$v; done < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k, v in d["device"].items():
    print("d[%r][%r]=%s" % ("device", k, v))
for k, v in d["health"].items():
    print("d[%r][%r]=%s" % ("health", k, v))
print("%r in d[%r]=%s" % ("nsid", "device", "nsid" in d["device"]))
' "$WORK/i.json")
j() { printf '%s' "${J[$1]}"; }
check loop_name test "$(j "d['device']['name']")" = "$name"
check loop_disk test "$(j "d['device']['disk']")" = "$name"
check loop_bus_virtual test "$(j "d['device']['bus']")" = virtual
check loop_identity_from_sysfs test "$(j "d['device']['identity_source']")" = sysfs
check loop_logical_block test "$(j "d['device']['logical_block']")" = "$(cat $q/logical_block_size)"
check loop_physical_block test "$(j "d['device']['physical_block']")" = "$(cat $q/physical_block_size)"
check loop_size test "$(j "d['device']['size_bytes']")" = "$(($(cat /sys/block/$name/size) * 512))"
check loop_capacity test "$(j "d['device']['capacity_bytes']")" = "$((64 * 1048576))"
rot=$(cat $q/rotational); [ "$rot" = 1 ] && rot=True || rot=False
check loop_rotational test "$(j "d['device']['rotational']")" = "$rot"
check loop_scheduler test "$(j "d['device']['scheduler']")" = "$(sed -n 's/.*\[\(.*\)\].*/\1/p' $q/scheduler)"
check loop_schedulers test "$(j "d['device']['schedulers']")" = "$(sed 's/ *$//' $q/scheduler)"
check loop_nr_requests test "$(j "d['device']['nr_requests']")" = "$(cat $q/nr_requests)"
check loop_max_sectors_kb test "$(j "d['device']['max_sectors_kb']")" = "$(cat $q/max_sectors_kb)"
check loop_read_ahead_kb test "$(j "d['device']['read_ahead_kb']")" = "$(cat $q/read_ahead_kb)"
check loop_discard_max test "$(j "d['device']['discard_max_bytes']")" = "$(cat $q/discard_max_bytes)"
check loop_write_cache test "$(j "d['device']['write_cache']")" = "$(cat $q/write_cache)"
check loop_write_cache_change grep -q "$q/write_cache" <<<"$(j "d['device']['write_cache_change']")"
check loop_backing_file test "$(j "d['device']['backing_file']")" = "$(cat /sys/block/$name/loop/backing_file)"
check loop_health_unavailable test "$(j "d['health']['available']")" = False
check loop_health_reason test "$(j "d['health']['reason']")" = "loop device: no SMART (sysfs only)"
check loop_no_nvme_keys test "$(j "'nsid' in d['device']")" = False

# --- the text: identity, queue, write cache, one line about SMART
out=$("$SSDBENCH" info "$dev" 2>&1); rc=$?
check loop_text_exit0 test "$rc" -eq 0
check loop_text_queue grep -q "^queue: *scheduler $(j "d['device']['scheduler']")" <<<"$out"
check loop_text_write_cache grep -q "^write cache: *kernel: $(cat $q/write_cache)" <<<"$out"
check loop_text_one_smart_line test "$(grep -c 'SMART' <<<"$out")" -eq 1
check loop_text_smart_line grep -qx "health: not available: loop device: no SMART (sysfs only)" <<<"$out"

# --- a file on a file system on the loop device stands for that device
if command -v mkfs.ext4 >/dev/null; then
    dev2=$(make_loop 32)
    mkdir -p "$WORK/mnt"
    if mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1 && mount "$dev2" "$WORK/mnt" 2>/dev/null; then
        track mount "$WORK/mnt"
        echo x >"$WORK/mnt/file"
        "$SSDBENCH" info --json "$WORK/mnt/file" >"$WORK/fm.json"
        check file_on_loop_device test "$(json_get "$WORK/fm.json" "d['device']['name']")" = "$(basename "$dev2")"
        check file_on_loop_via test "$(json_get "$WORK/fm.json" "d['via']")" = "file on $(basename "$dev2")"
        umount "$WORK/mnt"
    else
        skip file_on_loop_device "could not make and mount ext4 on $dev2"
    fi
else
    need_tool mkfs.ext4 e2fsprogs file_on_loop_device
fi

# --- a run on the loop device: health recorded, unavailable with the reason
"$SSDBENCH" run --filename="$dev" --rw=randwrite --bs=4k --runtime=2 --destroy="$dev" -q \
    --result "$WORK/r.json" >/dev/null 2>&1
check run_exit0 test $? -eq 0
declare -A R
while IFS='=' read -r k v; do R[$k]=$v; done < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["targets"][0]; iv = d["phases"][0]["intervals"]
for k, v in [("health", "health" in t), ("available", t["health"]["available"]),
             ("reason", t["health"].get("reason")), ("identity", t["device"].get("identity_source")),
             ("nr_requests", t["device"].get("nr_requests")), ("field", iv["fields"][-1]),
             ("unit", iv["units"][-1]), ("temps", set(x[-1] for x in iv["rows"]))]:
    print("%s=%s" % (k, v))
' "$WORK/r.json")
r() { printf '%s' "${R[$1]}"; }
check run_health_present test "$(r health)" = True
check run_health_unavailable test "$(r available)" = False
check run_health_reason test "$(r reason)" = "loop device: no SMART (sysfs only)"
check run_identity_in_device test "$(r identity)" = sysfs
check run_identity_queue test "$(r nr_requests)" = "$(cat $q/nr_requests)"
check run_temp_field test "$(r field)" = device_temp_c
check run_temp_unit test "$(r unit)" = C
check run_temp_rows_null test "$(r temps)" = "{None}"
check run_text_health_line grep -q "^health t0 ($name): not available: loop device: no SMART" \
    <<<"$("$SSDBENCH" show "$WORK/r.json")"

# --- a result whose device reports health: table, chart (the same record a
# device with a health log produces; this machine has none)
python3 - "$WORK/r.json" "$WORK/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["targets"][0]
t["device"]["name"] = "nvme9n1"
def reading(temp, written, used):
    return {"available": True, "source": "nvme", "temp_c": temp, "percent_used": used,
            "available_spare_pct": 100, "critical_warning": 0, "data_read_bytes": 1e9,
            "data_written_bytes": written, "host_read_cmds": 10, "host_write_cmds": 20,
            "nand_written_bytes": None, "media_errors": 0, "reallocated": None,
            "power_on_hours": 100, "power_cycles": 5, "unsafe_shutdowns": 1}
t["health"] = {"available": True, "source": "nvme", "temp_max_sampled_c": 52,
               "before": reading(41, 2e9, 3), "after": reading(49, 7e9, 4),
               "delta": {"data_read_bytes": 0, "data_written_bytes": 5e9, "host_read_cmds": 0,
                         "host_write_cmds": 0, "nand_written_bytes": None, "percent_used": 1,
                         "media_errors": 0, "reallocated": None, "power_on_hours": 0,
                         "unsafe_shutdowns": 0, "temp_max_c": 52, "write_amplification": None}}
for i, row in enumerate(d["phases"][0]["intervals"]["rows"]):
    row[-1] = 45.0 + i
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$SSDBENCH" show "$WORK/h.json"); rc=$?
check health_text_exit0 test "$rc" -eq 0
check health_text_header grep -q "^health t0 (nvme9n1, from nvme):" <<<"$out"
check health_text_temperature grep -Eq "^  temperature \(C\) +41 +49 +max 52$" <<<"$out"
check health_text_written grep -Eq "^  data written +2.00 GB +7.00 GB +5.00 GB$" <<<"$out"
"$SSDBENCH" report "$WORK/h.json" -o "$WORK/h.html" >/dev/null 2>&1
check health_report_exit0 test $? -eq 0
check health_report_cell grep -q "nvme9n1: temperature 41 -&gt; 49 C (max 52)" "$WORK/h.html"
check health_report_temp_chart grep -q "device temperature over time" "$WORK/h.html"
"$SSDBENCH" report "$WORK/r.json" -o "$WORK/r.html" >/dev/null 2>&1
check no_temp_no_chart test "$(grep -c 'device temperature over time' "$WORK/r.html")" -eq 0
