// How much of a head start work on another stream still gets over the timed window
// (src/backends/cuda/hold_kernel.cuh; docs/timing.md, "Method"). Each repetition does what the
// runner does around a call (hold, wait until resident, start event, launch, stop event,
// release) with two one-thread "stamp" kernels enqueued while the device is held, after the
// start event as a call's launches are: one on a stream of the "solution's" own, then one on the
// timed stream. Each writes %globaltimer when it starts; the lead is the timed stamp
// less the side stamp (ns on the device's clock): how long before the judge's first kernel the
// side work could run. With the whole-device hold it should be about the window's fixed part;
// with --blocks 1 (nvbench's one-thread hold, for comparison) it is the host's enqueue time.
// --sweep: the hold sweeps the L2 after the release, as for the runner's cold samples (the blocks
// wait for each other before they leave); sweep_ns is the sweep's median time on the device.
//   hold_lead [--blocks N] [--reps N] [--sweep]
// prints: blocks,fills,sweep,median_ns,p10_ns,p90_ns,min_ns,sweep_ns
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cuda/hold_kernel.cuh"
#include "backends/cuda/l2_flush.cuh"

__global__ void stamp(unsigned long long* at) { *at = arena::cuda::global_timer_ns(); }

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "hold_lead: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  int blocks = 0;
  int reps = 200;
  bool sweep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--blocks") == 0 && i + 1 < argc) {
      blocks = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--sweep") == 0) {
      sweep = true;
    } else {
      std::fprintf(stderr, "usage: %s [--blocks N] [--reps N] [--sweep]\n", argv[0]);
      return 2;
    }
  }
  if (sweep && blocks > 0) {
    std::fprintf(stderr, "hold_lead: --sweep measures the runner's hold, which no --blocks cap has\n");
    return 2;
  }
  arena::cuda::DeviceHold hold;
  if (!hold.init(0, blocks).empty()) check(cudaErrorUnknown, "the hold");
  cudaStream_t timed = nullptr, side = nullptr;
  check(cudaStreamCreateWithFlags(&timed, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), "stream");
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  unsigned long long* at = nullptr;  // [0] the side stamp, [1] the timed one
  check(cudaMalloc(&at, 2 * sizeof(unsigned long long)), "stamps");
  arena::cuda::L2Flush l2;
  if (sweep && !l2.init(0)) check(cudaErrorMemoryAllocation, "the L2 flush buffer");
  const arena::cuda::HoldSweep swept = sweep ? arena::cuda::HoldSweep{l2.words(), l2.word_count()} : arena::cuda::HoldSweep{};
  std::vector<double> lead, sweep_ns;
  for (int r = 0; r < reps + 10; ++r) {
    check(hold.enqueue(timed, 2'000'000'000ull, swept), "the hold");
    if (!hold.wait_resident(1'000'000'000ull)) check(cudaErrorUnknown, "the hold never took the device");
    cudaEventRecord(start, timed);
    stamp<<<1, 1, 0, side>>>(at);
    stamp<<<1, 1, 0, timed>>>(at + 1);
    cudaEventRecord(stop, timed);
    hold.release();
    check(cudaDeviceSynchronize(), "a repetition");
    const arena::cuda::DeviceHold::Outcome held = hold.outcome();
    if (held.gave_up || held.sweep_unfinished) check(cudaErrorUnknown, "the hold gave up");
    unsigned long long t[2] = {};
    check(cudaMemcpy(t, at, sizeof t, cudaMemcpyDeviceToHost), "reading the stamps");
    if (r >= 10) {
      lead.push_back(static_cast<double>(static_cast<long long>(t[1] - t[0])));
      sweep_ns.push_back(static_cast<double>(held.sweep_ns));
    }
  }
  std::sort(lead.begin(), lead.end());
  std::sort(sweep_ns.begin(), sweep_ns.end());
  std::printf("blocks,fills,sweep,median_ns,p10_ns,p90_ns,min_ns,sweep_ns\n%d,%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f\n",
              hold.blocks(), hold.fills() ? 1 : 0, sweep ? 1 : 0, lead[lead.size() / 2], lead[lead.size() / 10],
              lead[lead.size() * 9 / 10], lead.front(), sweep_ns[sweep_ns.size() / 2]);
  return 0;
}
