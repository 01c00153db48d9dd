#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build, run the GPU tests, check the CUDA suite and judge the
# CUDA starters, saving every log under LOG_DIR (default ./device-logs). Used on the H200.
set -uo pipefail
log=${1:-device-logs}
mkdir -p "$log"
export ARENA_CACHE_DIR=${ARENA_CACHE_DIR:-/tmp/arena-cache}
jobs=$(nproc)
step() { echo; echo "=== $*"; }

step configure and build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log/configure.log" 2>&1 &&
  cmake --build build -j "$jobs" >"$log/build.log" 2>&1 || { tail -40 "$log/configure.log" "$log/build.log"; exit 1; }

step arena device
./build/arena device | tee "$log/device.txt"

step tasks check --suite core
timeout 900 ./build/arena -q tasks check --suite core 2>&1 | tee "$log/tasks_check.log" | tail -40

step GPU tests
(cd build && timeout 330 ctest -L gpu --output-on-failure 2>&1) | tee "$log/gpu_tests.log" | grep -E "Test +#|tests passed|Failed|SKIP" | tail -30

step judge the starters
for t in ${EVAL_TASKS:-vector_add_f32 softmax_f32 gemm_bf16}; do
  timeout 120 ./build/arena -q eval -t "cuda/$t" -s "tasks/cuda/$t/starter.cu" --max-time 0.5 --json "$log/eval_$t.json" 2>&1 | tee -a "$log/evals.log"
done
