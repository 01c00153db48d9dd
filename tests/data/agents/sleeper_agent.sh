#!/bin/sh
# An agent that never stops (tests/integration/run_test.cpp): starts a `sleep 1000` child, writes
# its pid into the workspace, ignores SIGTERM and waits. The time limit must leave nothing alive.
trap '' TERM
sleep 1000 &
echo $! > child.pid
echo "sleeper: child $!"
wait
