#!/usr/bin/env bash
# `make demo`: what KernelArena does, in a few minutes. One plain `arena eval` (a faster example
# judged against its task's starter), then an `arena run` of the built-in autotune agent on the
# default suite (cuda where a GPU is visible, cpu where not) under a small budget: the agent
# searches the knobs the starters declare, one setting per round, and each episode's best
# setting is judged on visible and held-out shapes. Prints the run's table and where its
# results.json is.
#   scripts/demo.sh [BUILD_DIR]     environment: DEMO_ROUNDS (4), DEMO_MAX_TIME (0.3 s per shape),
#                                   DEMO_RUNS_DIR (runs)
set -uo pipefail
build=${1:-build}
arena="$build/arena"
rounds=${DEMO_ROUNDS:-4}
max_time=${DEMO_MAX_TIME:-0.3}
runs_dir=${DEMO_RUNS_DIR:-runs}

if nvidia-smi -L >/dev/null 2>&1; then
  suite=cuda
  example=(cuda/vector_add_f32 tests/redteam/cuda/honest/vector_add_f32_vec4.cu)
else
  suite=cpu
  example=(cpu/vector_add_f32 examples/cpu/vector_add_f32/omp_simd.cpp)
fi

if [ -f "${example[1]}" ]; then
  echo "== arena eval --task ${example[0]} --solution ${example[1]}"
  "$arena" -q eval --task "${example[0]}" --solution "${example[1]}" --max-time "$max_time"
  echo
fi

echo "== arena run --agent autotune --suite $suite --num-iterations $rounds --final best"
echo "   (the autotune agent tries the knobs the starters declare, one setting per round)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$arena" run --agent autotune --suite "$suite" --num-iterations "$rounds" --final best \
  --max-time "$max_time" --runs-dir "$runs_dir" | tee "$log"
status=${PIPESTATUS[0]}
run_dir=$(awk '/^run / {print $2; exit}' "$log")
if [ -n "$run_dir" ]; then
  echo
  echo "results:    $run_dir/results.json"
  echo "episodes:   $run_dir/episodes/ (workspace, snapshots, trajectory.jsonl, agent.log, episode.json)"
fi
exit "$status"
