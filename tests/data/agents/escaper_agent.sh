#!/bin/sh
# An agent that never stops and hides (tests/integration/agent_sandbox_test.cpp): a `sleep 1000`
# child, and another that leaves its process group and session (setsid); it ignores SIGTERM and
# waits. The time limit must leave nothing alive.
trap '' TERM
sleep 1000 &
setsid sleep 1001 &
echo started > started.txt
wait
