#!/usr/bin/env bash
# The main job on the embedded default: judge every starter of the CPU suite and the faster
# example solutions against those starters, then print one table of the results.
# (A GPU suite takes over where a GPU is visible once the CUDA backend lands.)
set -uo pipefail
build=${1:-build}
arena="$build/arena"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tasks=$("$arena" tasks list --suite cpu | awk 'NR > 2 {print $1}')
runs=()
for task in $tasks; do
  name=${task#cpu/}
  runs+=("$task tasks/$task/starter.cpp")
  for example in examples/cpu/"$name"/*.cpp; do
    [ -f "$example" ] && runs+=("$task $example")
  done
done

i=0
for run in "${runs[@]}"; do
  read -r task solution <<<"$run"
  i=$((i + 1))
  echo "== [$i/${#runs[@]}] arena eval --task $task --solution $solution"
  "$arena" -q eval --task "$task" --solution "$solution" --max-time 1 --json "$out/$(printf %03d $i).json"
  echo
done

echo "== summary"
"$arena" report "$out"/*.json
exit 0
