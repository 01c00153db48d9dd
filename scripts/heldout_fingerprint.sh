#!/usr/bin/env bash
# Prints the held-out shapes every task draws for each seed given, and one sha256 over all of
# them: the same seeds must give the same fingerprint on every machine (issue 5). Usage:
#   scripts/heldout_fingerprint.sh [ARENA] [SEED...]     (default: build/arena, seeds 1 2 3 12345)
set -euo pipefail
arena=${1:-build/arena}
shift || true
seeds=("${@:-1 2 3 12345}")
# shellcheck disable=SC2206
seeds=(${seeds[*]})
out=$(for t in $("$arena" tasks list | awk 'NR > 2 && $1 ~ /\// {print $1}'); do
  for s in "${seeds[@]}"; do
    echo "== $t seed $s"
    "$arena" tasks show "$t" --seed "$s" | sed -n '/^held-out shapes of seed/,/^files:/p' | grep -v '^files:'
  done
done)
echo "$out"
echo "tasks: $(echo "$out" | grep -c '^== ' ) task-seed pairs, $(echo "$out" | grep -c '^  ') shapes"
echo "fingerprint: $(echo "$out" | sha256sum | cut -d' ' -f1)"
