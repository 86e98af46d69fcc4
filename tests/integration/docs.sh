#!/bin/bash
# docs.sh - the manual and the program agree: the man page is regenerated
# from the option table unchanged, every command has a --help and a section
# in the man page, --version answers, and `make install` honours DESTDIR/PREFIX.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1

scripts/gen-man.sh "$SSDBENCH" "$WORK/ssdbench.1"
check man_page_up_to_date cmp -s "$WORK/ssdbench.1" man/ssdbench.1
not_quiet() { ! "$@" >/dev/null 2>&1; }
# the command option tables (src/cli) make docs/options.md and their man
# sections; a page that says something else fails
check options_doc_up_to_date scripts/gen-options-doc.sh --check "$SSDBENCH"
sed '0,/^| `--/s/^| `--\([a-z-]*\)`/| `--\1x`/' docs/options.md >"$WORK/options.md"
check options_doc_drift_fails not_quiet scripts/gen-options-doc.sh --check "$SSDBENCH" "$WORK/options.md"
for c in $("$SSDBENCH" --dump-options names | awk '{print $1}' | uniq); do
    check "man_options_generated_$c" grep -qx "@OPTIONS $c@" man/ssdbench.1.in
done
check version_answers grep -q "^ssdbench [0-9]" <("$SSDBENCH" --version)
for cmd in $("$SSDBENCH" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
    "$SSDBENCH" "$cmd" --help >"$WORK/help.txt" 2>&1
    check "help_$cmd" test $? -eq 0 -a -s "$WORK/help.txt"
    sec=$(echo "$cmd" | tr 'a-z-' 'A-Z ')
    check "man_section_$cmd" grep -qi "^\.SH \"\?$sec\"\?$" man/ssdbench.1
done
# every option of the table is in the manual
missing=0
while read -r opt; do
    grep -q -- "^\.B ${opt//-/\\\\-}" man/ssdbench.1 || { fail "man_has_$opt" "not in man/ssdbench.1"; missing=1; }
done < <("$SSDBENCH" run --help | sed -n '/^Job options/,$p' | awk '/^  [^ ]/ {print $1}' | sed 's/[=,].*//')
[ "$missing" -eq 0 ] && pass man_has_every_job_option
make -s install DESTDIR="$WORK/dest" PREFIX=/opt/sb >/dev/null 2>&1
check install_binary test -x "$WORK/dest/opt/sb/bin/ssdbench"
check install_man test -f "$WORK/dest/opt/sb/share/man/man1/ssdbench.1"
make -s uninstall DESTDIR="$WORK/dest" PREFIX=/opt/sb >/dev/null 2>&1
check uninstall_binary test ! -e "$WORK/dest/opt/sb/bin/ssdbench"
check uninstall_man test ! -e "$WORK/dest/opt/sb/share/man/man1/ssdbench.1"
