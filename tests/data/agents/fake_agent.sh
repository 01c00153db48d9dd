#!/bin/sh
# A stand-in for an agent CLI (tests/integration/run_test.cpp): reads its prompt from a file,
# asks for a profile (refused on the CPU without taking a round), submits the starter, replaces it
# with a faster honest solution from examples/, submits that, asks for its status, then tries one
# round more than the budget allows.
# $1: the prompt file, $2: the task's folder in examples/ (its first solution is copied), $3: rounds.
set -u
test -s "$1" || { echo "fake_agent: no prompt at $1"; exit 9; }
echo "fake_agent: in $(pwd), tool socket ${ARENA_TOOL_SOCKET:-unset}"
arena-tool profile
echo "fake_agent: profile: exit code $?"
arena-tool eval
cp "$(ls "$2"/*.cpp | head -n 1)" solution.cpp
i=1
while [ "$i" -lt "$3" ]; do
  arena-tool eval solution.cpp
  i=$((i + 1))
done
arena-tool status
arena-tool eval solution.cpp
echo "fake_agent: round past the budget: exit code $?"
echo '{"usage": {"input_tokens": 1234, "output_tokens": 56}, "total_cost_usd": 0.5}'
