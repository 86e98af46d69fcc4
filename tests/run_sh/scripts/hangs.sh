#!/bin/bash
# run.sh: timeout 2
# An integration script with its own time limit (2 s) that hangs in a child
# process; its EXIT trap leaves a mark, and the child's pid is noted, so the
# test can see the whole process group went and the script cleaned up.
# (a builtin's redirection, not touch: the time limit's TERM goes to the
# script and then to its whole process group, and a child the trap had just
# forked could be caught by the second one)
trap ': >"$RUN_SH_FIXTURE_OUT/hangs.cleaned"' EXIT
echo "PASS hangs_script:started"
sleep 100000 &
echo $! >"$RUN_SH_FIXTURE_OUT/hangs.child"
wait
