#!/usr/bin/env bash
# One GPU verification pass in two stages that fit the device machine's 10-minute calls, logs
# under LOG_DIR (default ./device-logs). Stage 1 builds, then runs the correctness work side by
# side (tasks check of the core suite in four groups, the CUDA trap set, the CUDA red team, the
# held-out fingerprint); stage 2 runs the timing-sensitive work alone (the GPU judge tests, the
# cost of the defences). Stage 3 runs the episode work: the profile round's GPU test and the
# GPU `make demo` (autotune on the cuda suite), its run directory packed as LOG_DIR/run.tar.gz;
# RESUME=run.tar.gz unpacks an earlier one and carries on with `arena run --resume`.
#   STAGE=1 scripts/device_session.sh LOG_DIR     STAGE=2 scripts/device_session.sh LOG_DIR
#   STAGE=3 DEADLINE=SECONDS scripts/device_session.sh LOG_DIR     STAGE=build: only the build
#   STAGE=4: the profile round's test, then every GPU test but the trap set (after sandbox or timing changes)
#   STAGE=hold: the whole-device hold's checks (~6 min after a build)
#   STAGE=watch: the stream watch's checks (~4 min after a build)
#   STAGE=verify: one call's worth (~8 min): the GPU tests, latency of two starters, the event
#   window against ncu, an episode's second round (runner_start), the trap set, the red team alone
set -uo pipefail
log=${1:-device-logs}
mkdir -p "$log" && log=$(cd "$log" && pwd)
mkdir -p "$log"
export ARENA_CACHE_DIR=${ARENA_CACHE_DIR:-/tmp/arena-cache}
jobs=$(nproc)
if [ ! -x build/arena ] || [ "${REBUILD:-0}" = 1 ]; then
  # -k: a target that does not build (say so) does not stop the others.
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log/configure.log" 2>&1 || { tail -40 "$log/configure.log"; exit 1; }
  cmake --build build -j "$jobs" -- -k >"$log/build.log" 2>&1 || grep -E "error|Error" "$log/build.log" | head -20
  [ -x build/arena ] || { tail -40 "$log/build.log"; exit 1; }
  echo "built in ${SECONDS}s"
fi

case ${STAGE:-1} in
1)
  ./build/arena device >"$log/device.txt" 2>&1
  tasks=$(./build/arena tasks list --suite core | awk 'NR > 2 && $1 ~ /\// {print $1}')
  i=0
  for t in $tasks; do echo "$t" >>"$log/group$((i % 4)).txt"; i=$((i + 1)); done
  for g in 0 1 2 3; do
    (timeout 540 ./build/arena -q tasks check $(cat "$log/group$g.txt") >"$log/tasks_check_$g.log" 2>&1; echo "rc=$?" >>"$log/tasks_check_$g.log") &
  done
  (cd build && timeout 540 ctest -R "CudaTrap" -j 3 --output-on-failure >"$log/traps.log" 2>&1) &
  (cd build && timeout 540 ctest -R redteam_cuda --output-on-failure -V >"$log/redteam_cuda.log" 2>&1) &
  bash scripts/heldout_fingerprint.sh build/arena >"$log/fingerprint.txt" 2>&1 &
  wait
  tail -3 "$log/fingerprint.txt"
  for g in 0 1 2 3; do tail -9 "$log/tasks_check_$g.log"; done
  grep -E "\[trap\]|tests passed|Failed|\*\*\*|Passed|SKIP" "$log/traps.log" | tail -30
  grep -E "redteam|ok|MISMATCH|mismatch|tests passed|Failed" "$log/redteam_cuda.log" | tail -40
  ;;
2)
  (cd build && timeout 400 ctest -L gpu -E "CudaTrap|redteam" --output-on-failure >"$log/gpu_tests.log" 2>&1)
  grep -E "Test +#|tests passed|Failed" "$log/gpu_tests.log" | tail -30
  # The event window's fixed part against ncu (docs/timing.md, "Accuracy").
  timeout 120 python3 bench/timing_quality.py window --json "$log/window.json" 2>&1 | tee "$log/window.txt"
  for t in vector_add_f32 softmax_f32; do
    timeout 150 python3 bench/defence_cost.py --task "cuda/$t" --solution "tasks/cuda/$t/starter.cu" --runs 3 \
      --json "$log/defence_cost_$t.json" 2>&1 | tee "$log/defence_cost_$t.txt"
  done
  ;;
build) ;;
hold)
  # The whole-device hold (src/backends/cuda/hold_kernel.cuh, 2026-12-05): the lead a side stream
  # still gets (and the one-thread hold's), the red team's side-stream cases, the windows with
  # the new hold, and the GPU judge tests (the blocked-call test among them). ~6 min.
  (timeout 60 ./build/bench/hold_lead; timeout 60 ./build/bench/hold_lead --sweep; timeout 60 ./build/bench/hold_lead --blocks 1) 2>&1 | tee "$log/hold_lead.txt"
  timeout 200 ./build/arena redteam --backend cuda --case head_start_side_stream --case head_start_copy_engine \
    --case honest_fork_join_streams --case side_stream --case impossible_speed --json "$log/redteam.json" >"$log/redteam.txt" 2>&1
  echo "rc=$?" >>"$log/redteam.txt"; tail -14 "$log/redteam.txt"
  # The copies' reads with the hold's sweep (the runner's order) and with the sweep first (the old one).
  (timeout 60 ./build/bench/event_window --reps 200 --side-copy; echo "--- --sweep-first"
   timeout 60 ./build/bench/event_window --reps 200 --side-copy --sweep-first) 2>&1 | tee "$log/event_window.txt"
  (cd build && timeout 240 ctest -R "CudaJudge|CudaBroken" --output-on-failure >"$log/cudajudge.log" 2>&1; echo "rc=$?" >>"$log/cudajudge.log")
  grep -E "tests passed|rc=|Failed" "$log/cudajudge.log" | tail -10
  ;;
watch)
  # The stream watch (src/backends/cuda/stream_watch.hpp): the starter unflagged with 0 counted,
  # plain and under --graph; the side-stream red team; the GPU judge tests. ~4 min after a build.
  for g in "" "--graph 4"; do
    timeout 60 ./build/arena -q eval -t cuda/vector_add_f32 -s tasks/cuda/vector_add_f32/starter.cu --shape n=1000003 \
      --max-time 0.3 $g --json "$log/watch_starter.json" >"$log/watch_starter.txt" 2>&1
    python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print(sys.argv[2] or 'plain','off_stream_work',d['shapes'][0]['timing'].get('off_stream_work'),'flags',[f['name'] for f in d.get('flags',[])])" \
      "$log/watch_starter.json" "$g"
  done
  timeout 200 ./build/arena redteam --backend cuda --case thread_between_calls --case side_stream_graph --case side_stream \
    --case honest_fork_join_streams --case head_start_copy_engine --case honest_vector_add_vec4 --json "$log/redteam.json" >"$log/redteam.txt" 2>&1
  echo "rc=$?" >>"$log/redteam.txt"; tail -10 "$log/redteam.txt"
  (cd build && timeout 240 ctest -R "CudaJudge|CudaBroken" --output-on-failure >"$log/cudajudge.log" 2>&1; echo "rc=$?" >>"$log/cudajudge.log")
  grep -E "tests passed|rc=|Failed" "$log/cudajudge.log" | tail -10
  ;;
verify)
  (cd build && timeout 200 ctest -L gpu -E "CudaTrap|redteam" --output-on-failure >"$log/gpu_tests.log" 2>&1)
  grep -E "tests passed|\(Failed\)|Total Test" "$log/gpu_tests.log" | tail -12
  for t in vector_add_f32 softmax_f32; do
    timeout 60 python3 bench/timing_quality.py latency --task "cuda/$t" --solution "tasks/cuda/$t/starter.cu" \
      --json "$log/latency_$t.json" >"$log/latency_$t.txt" 2>&1
    echo "== latency $t"; head -9 "$log/latency_$t.txt"
  done
  timeout 120 python3 bench/timing_quality.py window --json "$log/window.json" 2>&1 | tee "$log/window.txt"
  # Two rounds of an episode: the second round's runners were started when the first was done.
  from=$(mktemp -d)
  cp tasks/cuda/vector_add_f32/starter.cu "$from/1.cu"
  cp tests/redteam/cuda/honest/vector_add_f32_vec4.cu "$from/2.cu"
  timeout 120 ./build/arena run --agent replay --from "$from" --task cuda/vector_add_f32 --num-iterations 2 \
    --max-time 0.3 --runs-dir "$log/runs" >"$log/episode.log" 2>&1
  for f in "$log"/runs/*/episodes/*/verdicts/round-*.json; do
    python3 -c "import json,sys; v=json.load(open(sys.argv[1])); print(sys.argv[1].split('/')[-1], 'runner_start', round(v['seconds'].get('runner_start', -1), 3), 'total', round(v['seconds']['total'], 3))" "$f"
  done
  (cd build && timeout 90 ctest -R CudaTrap -j 3 --output-on-failure >"$log/traps.log" 2>&1)
  grep -E "tests passed|\(Failed\)" "$log/traps.log" | tail -5
  (cd build && timeout 200 ctest -R redteam_cuda --output-on-failure -V >"$log/redteam_cuda.log" 2>&1)
  grep -E "red team:|MISMATCH|tests passed" "$log/redteam_cuda.log" | tail -6
  ;;
4)
  # Re-verification after a change to the sandbox or the timing loop: the profile round, then
  # every other GPU test but the trap set (the red team included), one at a time.
  (cd build && timeout 200 ctest -R CudaProfile --output-on-failure >"$log/profile_test.log" 2>&1)
  grep -E "tests passed|Failed|Passed|SKIP" "$log/profile_test.log" | tail -8
  (cd build && timeout $(( ${DEADLINE:-560} - SECONDS )) ctest -L gpu -E "CudaTrap|CudaProfile" --output-on-failure >"$log/gpu_tests.log" 2>&1)
  grep -E "Test +#|tests passed|Failed" "$log/gpu_tests.log" | tail -40
  ;;
3)
  if [ -z "${RESUME:-}" ]; then
    (cd build && timeout 300 ctest -R CudaProfile --output-on-failure -V >"$log/profile_test.log" 2>&1) &
    timeout 200 ./build/arena eval -t cuda/flash_attention_fwd_bf16 -s tasks/cuda/flash_attention_fwd_bf16/starter.cu \
      --shapes all --max-time 0.3 >"$log/flash_attention_all.log" 2>&1 &
  fi
  left=$(( ${DEADLINE:-560} - SECONDS ))
  runs=/tmp/arena-runs
  mkdir -p "$runs"
  if [ -n "${RESUME:-}" ]; then
    tar -C "$runs" -xzf "$RESUME"
    run_dir=$(ls -d "$runs"/*/ | head -1)
    timeout --signal=INT "$left" ./build/arena run --resume "$run_dir" >"$log/demo.log" 2>&1
  else
    DEMO_RUNS_DIR=$runs timeout --signal=INT "$left" bash scripts/demo.sh build >"$log/demo.log" 2>&1
  fi
  echo "demo rc=$?" >>"$log/demo.log"
  wait
  tar -C "$runs" -czf "$log/run.tar.gz" .
  [ -f "$log/profile_test.log" ] && grep -E "tests passed|Failed|Passed|SKIP" "$log/profile_test.log" | tail -8
  [ -f "$log/flash_attention_all.log" ] && tail -5 "$log/flash_attention_all.log"
  tail -40 "$log/demo.log"
  ;;
esac
