#!/bin/bash
# build.sh - the Makefile as a packager uses it, in dry runs (make -n builds
# nothing): the user's CPPFLAGS/CFLAGS come after ours on every compile line
# and LDFLAGS/LDLIBS on the link line, -Werror only with WERROR=1 (and in
# `make test`), the libraries' flags from pkg-config or, without it, plain -l
# flags, and uninstall undoes install.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
# (WERROR and the user's flags from the environment left out: make test sets WERROR)
dry() { timeout 120 env -u WERROR -u CFLAGS -u CPPFLAGS -u LDFLAGS -u LDLIBS make -n --no-print-directory "$@" 2>&1; }

dry -B build/ssdbench CFLAGS='-O0 -DUSER_CFLAG' CPPFLAGS=-DUSER_CPPFLAG LDFLAGS=-Wl,-z,now LDLIBS=-lrt >"$WORK/user.txt"
grep ' -c src/runner/runner.c ' "$WORK/user.txt" >"$WORK/cc.txt"
grep -- '-o build/ssdbench ' "$WORK/user.txt" >"$WORK/ld.txt"
check compile_line_found test -s "$WORK/cc.txt"
check user_cflags_after_ours grep -q -- '-O2 -g .*-DUSER_CPPFLAG -O0 -DUSER_CFLAG' "$WORK/cc.txt"
check link_line_found test -s "$WORK/ld.txt"
check user_ldflags grep -q -- '-Wl,-z,now .*-lrt' "$WORK/ld.txt"
ncc=$(grep -c ' -c src/' "$WORK/user.txt")
nuser=$(grep ' -c src/' "$WORK/user.txt" | grep -c -- '-O0 -DUSER_CFLAG')
check every_compile_has_cflags test "$ncc" -gt 100 -a "$ncc" -eq "$nuser"
check no_werror_by_default test "$(grep -c -- '-Werror' "$WORK/cc.txt")" -eq 0
dry -B build/ssdbench WERROR=1 | grep ' -c src/runner/runner.c ' >"$WORK/werror.txt"
check werror_opt_in grep -q -- ' -Werror ' "$WORK/werror.txt"
# make test builds with -Werror (its sub-make runs under -n; the tests do not)
dry -B test | grep ' -c src/runner/runner.c ' >"$WORK/test.txt"
check make_test_werror grep -q -- ' -Werror ' "$WORK/test.txt"
check make_test_runs_with_werror grep -q 'WERROR=1 tests/run.sh' <(dry -B test)
if pkg-config --exists liburing blkid libcjson 2>/dev/null; then
    check pkgconfig_cflags grep -q -- "$(pkg-config --cflags libcjson | awk '{print $1}')" "$WORK/cc.txt"
else
    skip pkgconfig_cflags "pkg-config or a .pc file is missing"
fi
dry -B build/ssdbench PKG_CONFIG=/nonexistent/pkg-config >"$WORK/nopc.txt"
check fallback_libs grep -q -- '-o build/ssdbench .*-luring -lblkid -lcjson -laio' "$WORK/nopc.txt"
check fallback_no_pc_cflags test "$(grep -c 'include/cjson' "$WORK/nopc.txt")" -eq 0
check mpi_target grep -q -- '-o build-mpi/ssdbench' <(dry -B MPI=1 all)
