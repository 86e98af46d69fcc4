#!/bin/bash
# lint.sh - the sources are clean under cppcheck (warnings and portability).
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
if ! command -v cppcheck >/dev/null; then
    skip cppcheck "cppcheck is not installed"
    exit 0
fi
out=$(cppcheck --quiet --std=c11 -Isrc -I/usr/include/cjson \
    '-DcJSON_ArrayForEach(e,a)=for(e=(a)?(a)->child:0;e;e=e->next)' \
    --enable=warning,portability --error-exitcode=1 src 2>&1)
if [ $? -eq 0 ]; then pass cppcheck; else fail cppcheck "$(printf '%s' "$out" | head -5 | tr '\n' ' ')"; fi
