// How much of the judge's event window is not the kernel: times probe kernels exactly as the CUDA
// runner times a call (L2 swept, stream held by the spinning kernel, start event, launch, stop
// event, release) and prints each probe's median window. The hold is the runner's own
// (src/backends/cuda/hold_kernel.cuh, every SM held). bench/timing_quality.py's `window`
// measure runs it again under Nsight Compute and compares the two per probe: the difference is
// the window's fixed part (launch start-up, the events), what separates a short kernel's event
// time from ncu's gpu__time_duration (docs/timing.md, "Accuracy").
//   event_window [--no-hold] [--sweep-first] [--side-copy] [--reps N] [--zeros]
// CSV on stdout: probe,median_ns,p10_ns,p90_ns
// --no-hold: no stream hold (under ncu, which serializes launches). The add probes' inputs are
// drawn uniformly from [-1, 1), as the judge's are; --zeros: all zero instead, as before
// 2026-12-05 (on an H100 both read the same, windows and ncu: docs/timing.md, "Placements").
// The L2 is swept as the runner sweeps it: by the hold, after the release (hold_kernel.cuh);
// --sweep-first sweeps it before the hold instead, as the runner did until 2026-12-06.
// --side-copy adds the probe add_1000003_side_copy: while the device is held it copies both inputs
// to pinned host memory on another stream (a device-to-host copy runs on a copy engine, which the
// hold does not hold; device-to-device copies are held: on an H100 a call that waited for one
// blocked), waits on the host until the copies are done, as a call may, then launches
// (tests/redteam/cuda/head_start_copy_engine.cu). With --sweep-first the copies' reads may leave
// the inputs in the L2 and the window shrink; with the hold's sweep they should not. Not yet run.
// --touch-pages: after the sweep and before the start event, a one-block kernel reads one word of
// every 2 MiB page the add probe's a, b and c span (a handful of L2 lines): the translations
// warm, the data still cold. Is the window's extra over ncu at a few microseconds the TLB misses
// the sweep leaves (ncu's --cache-control all flushes caches, not the TLBs)?
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cuda/hold_kernel.cuh"
#include "backends/cuda/l2_flush.cuh"

// At global scope, so that ncu's kernel filter (regex:probe_) sees their plain names.
__global__ void probe_empty() {}

// One element per thread, as the vector_add starter.
__global__ void probe_add(const float* a, const float* b, float* c, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Element i of a uniform draw in [-1, 1) (a hash of i and the seed).
__global__ void fill_uniform(float* p, long n, unsigned seed) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  p[i] = static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// One word of every 2 MiB page of [p, p + bytes), read by one block.
__global__ void touch_pages(const float* p, long bytes, unsigned* sink) {
  unsigned acc = 0;
  for (long off = threadIdx.x * (2L << 20); off < bytes; off += blockDim.x * (2L << 20))
    acc ^= __float_as_uint(p[off / sizeof(float)]);
  if (acc == 0x9E3779B9u) *sink = acc;  // never true: keeps the loads
}

namespace {

struct Probe {
  const char* name;
  int blocks;  // empty probes: the grid; add probes: 0 (one thread per element)
  long n;      // add probes: elements
  bool side_copy = false;  // the inputs copied on another stream while the device is held
};

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "event_window: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  bool hold = true;
  bool zeros = false;
  bool sweep_first = false;
  bool side_copy = false;
  bool touch = false;
  int reps = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-hold") == 0) {
      hold = false;
    } else if (std::strcmp(argv[i], "--zeros") == 0) {
      zeros = true;
    } else if (std::strcmp(argv[i], "--sweep-first") == 0) {
      sweep_first = true;
    } else if (std::strcmp(argv[i], "--side-copy") == 0) {
      side_copy = true;
    } else if (std::strcmp(argv[i], "--touch-pages") == 0) {
      touch = true;
    } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--no-hold] [--sweep-first] [--side-copy] [--touch-pages] [--reps N] [--zeros]\n", argv[0]);
      return 2;
    }
  }
  std::vector<Probe> probes = {{"window_only", -1, 0},         {"empty_1_block", 1, 0},
                                     {"empty_4096_blocks", 4096, 0}, {"add_262144", 0, 262144},
                                     {"add_1000003", 0, 1000003},    {"add_4194304", 0, 4194304},
                                     {"add_9999991", 0, 9999991},    {"add_67108864", 0, 67108864}};
  constexpr long kSideCopyN = 1000003;
  if (side_copy) probes.push_back({"add_1000003_side_copy", 0, kSideCopyN, true});
  arena::cuda::L2Flush l2;
  if (!l2.init(0)) check(cudaErrorMemoryAllocation, "the L2 flush buffer");
  cudaStream_t stream, side;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), "stream");
  cudaEvent_t copied;
  check(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming), "event");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  arena::cuda::DeviceHold device_hold;
  if (!device_hold.init(0).empty()) check(cudaErrorUnknown, "the hold");
  const long most = 67108864;
  float *a, *b, *c, *staging = nullptr;
  unsigned* sink = nullptr;
  check(cudaMalloc(&sink, sizeof(unsigned)), "sink");
  if (side_copy) check(cudaMallocHost(&staging, 2 * kSideCopyN * sizeof(float)), "pinned staging");
  check(cudaMalloc(&a, most * sizeof(float)), "a");
  check(cudaMalloc(&b, most * sizeof(float)), "b");
  check(cudaMalloc(&c, most * sizeof(float)), "c");
  check(cudaMemset(a, 0, most * sizeof(float)), "a");
  check(cudaMemset(b, 0, most * sizeof(float)), "b");
  if (!zeros) {
    fill_uniform<<<static_cast<unsigned>((most + 255) / 256), 256>>>(a, most, 1u);
    fill_uniform<<<static_cast<unsigned>((most + 255) / 256), 256>>>(b, most, 2u);
    check(cudaDeviceSynchronize(), "drawing the inputs");
  }
  std::printf("probe,median_ns,p10_ns,p90_ns\n");
  for (const Probe& p : probes) {
    std::vector<double> ns;
    for (int r = 0; r < reps; ++r) {
      // As the runner: the persisting state undone, the sweep in the hold after the release.
      const bool hold_sweeps = hold && !sweep_first;
      if (hold_sweeps) {
        l2.undo(stream);
      } else {
        l2.flush(stream);
        check(cudaStreamSynchronize(stream), "the L2 sweep");
      }
      if (hold) {
        const arena::cuda::HoldSweep sweep =
            hold_sweeps ? arena::cuda::HoldSweep{l2.words(), l2.word_count()} : arena::cuda::HoldSweep{};
        check(device_hold.enqueue(stream, 2'000'000'000ull, sweep), "the hold");
        if (!device_hold.wait_resident(1'000'000'000ull)) check(cudaErrorUnknown, "the hold never took the device");
      }
      if (touch && p.blocks == 0) {
        const long bytes = p.n * static_cast<long>(sizeof(float));
        for (const float* t : {static_cast<const float*>(a), static_cast<const float*>(b), static_cast<const float*>(c)})
          touch_pages<<<1, 128, 0, stream>>>(t, bytes, sink);
      }
      cudaEventRecord(start, stream);
      if (p.side_copy) {
        // Both inputs read by a copy engine into pinned host memory; the host waits for them
        // (at most 1 s: a copy that does not run while the device is held would wait for ever).
        const size_t bytes = static_cast<size_t>(p.n) * sizeof(float);
        check(cudaMemcpyAsync(staging, a, bytes, cudaMemcpyDeviceToHost, side), "the side copy");
        check(cudaMemcpyAsync(staging + p.n, b, bytes, cudaMemcpyDeviceToHost, side), "the side copy");
        cudaEventRecord(copied, side);
        const auto since = std::chrono::steady_clock::now();
        while (cudaEventQuery(copied) == cudaErrorNotReady) {
          if (std::chrono::steady_clock::now() - since > std::chrono::seconds(1)) {
            std::fprintf(stderr, "event_window: the side copies did not run while the device was held\n");
            return 1;
          }
        }
      }
      if (p.blocks > 0) probe_empty<<<p.blocks, 128, 0, stream>>>();
      if (p.blocks == 0)
        probe_add<<<static_cast<unsigned>((p.n + 255) / 256), 256, 0, stream>>>(a, b, c, p.n);
      cudaEventRecord(stop, stream);
      if (hold) device_hold.release();
      check(cudaStreamSynchronize(stream), "a probe");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "the events");
      ns.push_back(static_cast<double>(ms) * 1e6);
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%s,%.0f,%.0f,%.0f\n", p.name, ns[ns.size() / 2], ns[ns.size() / 10],
                ns[ns.size() * 9 / 10]);
  }
  return 0;
}
