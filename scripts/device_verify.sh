#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: the timing-quality figures of the CUDA backend — repeatability
# over separate runs, agreement with Nsight Compute, eval latency, calibration and the cuBLAS
# sanity check — each saved as text and JSON under LOG_DIR (default ./device-logs).
# Assumes a built tree (scripts/device_check.sh builds one); builds it if missing.
set -uo pipefail
log=${1:-device-logs}
mkdir -p "$log"
export ARENA_CACHE_DIR=${ARENA_CACHE_DIR:-/tmp/arena-cache}
bench="python3 bench/timing_quality.py"
step() { echo; echo "=== $*"; }

if [ ! -x build/arena ]; then
  step build
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log/configure.log" 2>&1 &&
    cmake --build build -j "$(nproc)" >"$log/build.log" 2>&1 || { tail -40 "$log/build.log"; exit 1; }
fi

# STEPS picks and orders the measurements (default: all of them).
steps=${STEPS:-"calibrate sanity repeat ncu latency"}
calibrate() {
step calibrate
timeout 120 ./build/arena device --calibrate --json "$log/calibrate.json" 2>&1 | tee "$log/calibrate.txt"

}
sanity() {
step "sanity: cuBLAS bf16 GEMM at 8192^3 (the expert, as baseline)"
timeout 180 ./build/arena -q eval -t cuda/gemm_bf16 -s tasks/cuda/gemm_bf16/starter.cu --baseline expert \
  --shape "M=8192 N=8192 K=8192" --max-time 2 --json "$log/sanity_gemm_8192.json" 2>&1 | tee "$log/sanity.txt"
python3 -c "
import json; v = json.load(open('$log/sanity_gemm_8192.json')); t = v['shapes'][0]['timing']
print('cuBLAS median %.3f ms, roofline fraction %.3f (bf16 dense peak)' % (t['baseline']['median_ns'] / 1e6, t['baseline']['roofline_fraction']))
" 2>&1 | tee -a "$log/sanity.txt"

}
repeat() {
step "repeatability: 5 separate arena eval runs"
timeout 150 $bench repeat --task cuda/vector_add_f32 --solution tasks/cuda/vector_add_f32/starter.cu \
  --shape n=1000003 --shape n=4194304 --shape n=268435456 --json "$log/repeat_vector_add.json" 2>&1 | tee "$log/repeat.txt"
timeout 150 $bench repeat --task cuda/softmax_f32 --solution tasks/cuda/softmax_f32/starter.cu \
  --shape "rows=1024 cols=1000" --shape "rows=8192 cols=8192" --json "$log/repeat_softmax.json" 2>&1 | tee -a "$log/repeat.txt"
timeout 150 $bench repeat --task cuda/gemm_bf16 --solution tasks/cuda/gemm_bf16/starter.cu \
  --shape "M=1024 N=1024 K=1024" --shape "M=2048 N=2048 K=2048" --json "$log/repeat_gemm.json" 2>&1 | tee -a "$log/repeat.txt"

}
ncu_check() {
step "accuracy against Nsight Compute (gpu__time_duration.sum, --cache-control all, --clock-control none)"
timeout 150 $bench ncu --task cuda/vector_add_f32 --solution tasks/cuda/vector_add_f32/starter.cu --kernel vector_add_kernel \
  --shape n=1000003 --shape n=67108864 --json "$log/ncu_vector_add.json" 2>&1 | tee "$log/ncu.txt"
timeout 150 $bench ncu --task cuda/softmax_f32 --solution tasks/cuda/softmax_f32/starter.cu --kernel softmax_row_kernel \
  --shape "rows=1024 cols=1000" --shape "rows=8192 cols=8192" --json "$log/ncu_softmax.json" 2>&1 | tee -a "$log/ncu.txt"
timeout 150 $bench ncu --task cuda/gemm_bf16 --solution tasks/cuda/gemm_bf16/starter.cu --kernel gemm_bf16_naive_kernel \
  --shape "M=1024 N=1024 K=1024" --json "$log/ncu_gemm.json" 2>&1 | tee -a "$log/ncu.txt"

}
latency() {
step "latency: one arena eval, 4 visible shapes, cold (empty compile cache) and warm"
for t in vector_add_f32 softmax_f32; do
  timeout 150 $bench latency --task "cuda/$t" --solution "tasks/cuda/$t/starter.cu" --json "$log/latency_$t.json" 2>&1 |
    tee -a "$log/latency.txt"
done
}

for s in $steps; do
  case $s in
    ncu) ncu_check ;;
    calibrate | sanity | repeat | latency) "$s" ;;
    *) echo "unknown step $s (known: calibrate sanity repeat ncu latency)"; exit 2 ;;
  esac
done
