#!/bin/bash
# lint.sh - the sources are clean under cppcheck (warnings and portability).
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
if ! command -v cppcheck >/dev/null; then
    skip cppcheck "cppcheck is not installed"
    exit 0
fi
# cppcheck does not take a function-like macro from -D (a file whose
# parameters are named e or a was skipped as "configuration not checked"),
# so cJSON's loop macro comes from a header given with --include.
printf '#define cJSON_ArrayForEach(e, a) for (e = (a) ? (a)->child : 0; e; e = e->next)\n' \
    >"$WORK/cjson_foreach.h"
# Findings checked by hand and not defects: the showcmd context is only used
# while parse_one runs (on_entry is cleared before it returns); the format is
# one of two literals with the same conversions; pcs/prof are filled for
# every index below nres; cluster_abort does not return.
out=$(cppcheck --quiet --std=c11 -Isrc -I/usr/include/cjson --include="$WORK/cjson_foreach.h" \
    --suppress=autoVariables:src/cli/fio_mode.c --suppress=wrongPrintfScanfArgNum:src/output/fio_text.c \
    --suppress=uninitvar:src/output/html_sweep.c --suppress=nullPointerRedundantCheck:src/runner/runner_cluster.c \
    --enable=warning,portability --error-exitcode=1 src 2>&1)
if [ $? -eq 0 ]; then pass cppcheck; else fail cppcheck "$(printf '%s' "$out" | head -5 | tr '\n' ' ')"; fi
